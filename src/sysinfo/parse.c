#include "config.h"

/*
 * Picking values out of the text sysinfo reads, for every source that
 * needs one: the words of a line, the marked choice of a sysfs or
 * debugfs file, a parameter of the kernel command line.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/internal.h"

json_t *si_word_array(const char *s)
{
	json_t *a = json_array();

	while (s && *s) {
		size_t n;

		s += strspn(s, " \t\n");
		n = strcspn(s, " \t\n");
		if (n)
			json_array_append_new(a, json_stringn(s, n));
		s += n;
	}
	return a;
}

int si_pick_marked(const char *text, char open, char close, char *out, size_t len)
{
	const char *s, *e;
	size_t n;

	if (!text || !(s = strchr(text, open)) || !(e = strchr(s + 1, close)))
		return -ENOENT;
	n = (size_t)(e - s - 1);
	if (n == 0)
		return -ENOENT;
	if (n >= len)
		return -ERANGE;
	memcpy(out, s + 1, n);
	out[n] = '\0';
	return 0;
}

int pm_sysinfo_bracketed(const char *text, char *out, size_t len)
{
	return si_pick_marked(text, '[', ']', out, len);
}

/* The kernel treats '-' and '_' in parameter names alike. */
static bool param_name_eq(const char *a, size_t an, const char *b)
{
	size_t i;

	if (strlen(b) != an)
		return false;
	for (i = 0; i < an; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return true;
}

int pm_sysinfo_cmdline_param(const char *cmdline, const char *name,
			     char *out, size_t len)
{
	const char *p = cmdline;
	int ret = -ENOENT;

	while (p && *p) {
		const char *tok;
		bool quoted = false;
		size_t n;

		p += strspn(p, " \t\n");
		if (!*p)
			break;
		tok = p;
		for (; *p && (quoted || !isspace((unsigned char)*p)); p++)
			if (*p == '"')
				quoted = !quoted;
		n = (size_t)(p - tok);
		/* Everything after "--" belongs to init, not the kernel. */
		if (n == 2 && tok[0] == '-' && tok[1] == '-')
			break;

		/* Quotes may wrap the token or the value: drop them all. */
		char *t = pm_xmalloc(n + 1), *o = t, *eq;

		for (size_t i = 0; i < n; i++)
			if (tok[i] != '"')
				*o++ = tok[i];
		*o = '\0';
		eq = strchr(t, '=');
		if (param_name_eq(t, eq ? (size_t)(eq - t) : strlen(t), name)) {
			const char *v = eq ? eq + 1 : "";

			ret = strlen(v) < len ? 0 : -ERANGE;
			if (len)
				snprintf(out, len, "%s", v);
		}
		free(t);
	}
	return ret;
}
