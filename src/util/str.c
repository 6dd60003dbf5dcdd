/* Strings: trimming, comma lists, shell quoting, decimal numbers. */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

char *pm_strtrim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	return s;
}

bool pm_list_valid(const char *s, char sep)
{
	const char *p = s;

	for (;;) {
		const char *end = strchr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (strspn(p, " \t\n") >= len)
			return false;
		if (!end)
			return true;
		p = end + 1;
	}
}

char **pm_strv_split(const char *s, char sep)
{
	size_t n = 1, i = 0;
	const char *p;
	char **v;

	for (p = s; *p; p++)
		if (*p == sep)
			n++;
	v = pm_xcalloc(n + 1, sizeof(*v));
	for (p = s;;) {
		const char *end = strchr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *item = pm_xmalloc(len + 1);

		memcpy(item, p, len);
		item[len] = '\0';
		char *t = pm_strtrim(item);

		if (*t) {
			memmove(item, t, strlen(t) + 1);
			v[i++] = item;
		} else {
			free(item);
		}
		if (!end)
			break;
		p = end + 1;
	}
	v[i] = NULL;
	return v;
}

void pm_strv_free(char **v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

size_t pm_strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

char *pm_sh_quote(const char *s)
{
	size_t i, n = 3;
	char *q, *p;

	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789/._-+,:@%") == strlen(s))
		return pm_xstrdup(s);
	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	p = q = pm_xmalloc(n);
	*p++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = s[i];
		}
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}

size_t pm_kparams_parse(const char *s, struct pm_kparam **out)
{
	struct pm_kparam *v = NULL;
	size_t n = 0;

	while (s && *s) {
		const char *start, *eq = NULL;
		bool quoted = false;
		size_t i;

		while (*s == ' ' || *s == '\t' || *s == '\n')
			s++;
		if (!*s)
			break;
		for (start = s; *s && (quoted || (*s != ' ' && *s != '\t' && *s != '\n')); s++) {
			if (*s == '"')
				quoted = !quoted;
			else if (*s == '=' && !eq)
				eq = s;
		}
		v = pm_xgrow(v, n, sizeof(*v));
		v[n].name = pm_xasprintf("%.*s", (int)((eq ? eq : s) - start), start);
		v[n].value = eq ? pm_xasprintf("%.*s", (int)(s - eq - 1), eq + 1) : NULL;
		for (i = 0; i < n; i++)
			if (!strcmp(v[i].name, v[n].name)) {
				free(v[i].name);
				free(v[i].value);
				memmove(&v[i], &v[i + 1], (n - i) * sizeof(*v));
				n--;
				break;
			}
		n++;
	}
	*out = v;
	return n;
}

const struct pm_kparam *pm_kparams_find(const struct pm_kparam *v, size_t n,
					const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

char *pm_kparam_text(const struct pm_kparam *p)
{
	return p->value ? pm_xasprintf("%s=%s", p->name, p->value) : pm_xstrdup(p->name);
}

void pm_kparams_free(struct pm_kparam *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].name);
		free(v[i].value);
	}
	free(v);
}

int pm_parse_ulong(const char *s, unsigned long lo, unsigned long hi,
		   unsigned long *out)
{
	unsigned long v;
	char *end;

	/* strtoul alone takes " 5", "+5", "-5" (as a huge value) and, in
	 * base 0, "0x10": digits only */
	if (!*s || strspn(s, "0123456789") != strlen(s))
		return -EINVAL;
	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno == ERANGE || v < lo || v > hi)
		return -ERANGE;
	*out = v;
	return 0;
}

int pm_parse_double(const char *s, double lo, double hi, double *out)
{
	double v;
	char *end;

	/* strtod also reads hex ("0x10", "0x1p-3"), "inf", "nan" and blanks */
	if (!*s || strspn(s, "0123456789.eE+-") != strlen(s) ||
	    !(*s == '-' || *s == '.' || (*s >= '0' && *s <= '9')))
		return -EINVAL;
	errno = 0;
	v = strtod(s, &end);
	if (end == s || *end)
		return -EINVAL;
	if (errno == ERANGE || !(v >= lo && v <= hi))
		return -ERANGE;
	*out = v;
	return 0;
}

bool pm_strv_has(char *const *v, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], s))
			return true;
	return false;
}

void pm_strv_push(char ***v, size_t *n, const char *s)
{
	*v = pm_xgrow(*v, *n, sizeof(**v));
	(*v)[(*n)++] = pm_xstrdup(s);
}
