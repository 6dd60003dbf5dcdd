/* Alias files: [name], description = ..., event = ... (pmbench-events(5)). */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "counters/counters.h"

static bool alias_name_ok(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && *s != '-' && *s != '_' &&
		    *s != '.')
			return false;
	return true;
}

static void alias_clear(struct pm_alias *a)
{
	size_t i;

	free(a->name);
	free(a->desc);
	free(a->file);
	for (i = 0; i < a->nevents; i++)
		free(a->events[i]);
	free(a->events);
	memset(a, 0, sizeof(*a));
}

static struct pm_alias *alias_find_mut(struct pm_aliases *a, const char *name)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].name, name))
			return &a->v[i];
	return NULL;
}

const struct pm_alias *pm_alias_find(const struct pm_aliases *a,
				     const char *name)
{
	return alias_find_mut((struct pm_aliases *)a, name);
}

/* Check the section that just ended. */
static int alias_finish(struct pm_alias *cur, const char *filename,
			struct pm_err *e)
{
	if (cur && cur->nevents == 0)
		return pm_err_set(e, -EINVAL, "%s:%d: alias '%s' has no event lines",
				  filename, cur->line, cur->name);
	return 0;
}

/* A "[name]" line: ends the alias before it and starts a new one. */
static int parse_section(struct pm_aliases *local, struct pm_alias **cur, char *s,
			 const char *filename, int lineno, struct pm_err *e)
{
	char *end = strchr(s, ']');
	int err;

	if (!end || pm_strtrim(end + 1)[0])
		return pm_err_set(e, -EINVAL, "%s:%d: malformed section header '%s' (expected [name])",
				  filename, lineno, s);
	*end = '\0';
	s = pm_strtrim(s + 1);
	if (!alias_name_ok(s))
		return pm_err_set(e, -EINVAL, "%s:%d: bad alias name '%s' (letters, digits, '-', '_', '.')",
				  filename, lineno, s);
	err = alias_finish(*cur, filename, e);
	if (err)
		return err;
	if (alias_find_mut(local, s))
		return pm_err_set(e, -EINVAL, "%s:%d: alias '%s' defined twice",
				  filename, lineno, s);
	local->v = pm_xgrow(local->v, local->n, sizeof(*local->v));
	*cur = &local->v[local->n++];
	memset(*cur, 0, sizeof(**cur));
	(*cur)->name = pm_xstrdup(s);
	(*cur)->file = pm_xstrdup(filename);
	(*cur)->line = lineno;
	return 0;
}

/* A "key = value" line of the alias cur. */
static int parse_key(struct pm_alias *cur, char *s, const char *filename, int lineno,
		     struct pm_err *e)
{
	char *eq = strchr(s, '='), *key, *val;

	if (!eq)
		return pm_err_set(e, -EINVAL, "%s:%d: expected 'key = value', got '%s'",
				  filename, lineno, s);
	*eq = '\0';
	key = pm_strtrim(s);
	val = pm_strtrim(eq + 1);
	if (!cur)
		return pm_err_set(e, -EINVAL, "%s:%d: '%s' outside of an [alias] section",
				  filename, lineno, key);
	if (!strcmp(key, "description")) {
		free(cur->desc);
		cur->desc = pm_xstrdup(val);
		return 0;
	}
	if (strcmp(key, "event"))
		return pm_err_set(e, -EINVAL, "%s:%d: unknown key '%s' (description, event)",
				  filename, lineno, key);
	if (!*val || strpbrk(val, " \t,"))
		return pm_err_set(e, -EINVAL, "%s:%d: bad event string '%s' (one libpfm4 event, no spaces or commas)",
				  filename, lineno, val);
	cur->events = pm_xgrow(cur->events, cur->nevents, sizeof(char *));
	cur->events[cur->nevents++] = pm_xstrdup(val);
	return 0;
}

/* Merge: a later definition replaces an earlier one. */
static void aliases_merge(struct pm_aliases *a, struct pm_aliases *local)
{
	size_t i;

	for (i = 0; i < local->n; i++) {
		struct pm_alias *old = alias_find_mut(a, local->v[i].name);

		if (old) {
			alias_clear(old);
			*old = local->v[i];
		} else {
			a->v = pm_xgrow(a->v, a->n, sizeof(*a->v));
			a->v[a->n++] = local->v[i];
		}
	}
	free(local->v);
}

int pm_aliases_parse(struct pm_aliases *a, const char *text,
		     const char *filename, struct pm_err *e)
{
	struct pm_aliases local = { 0 };
	struct pm_alias *cur = NULL;
	const char *p = text;
	int lineno = 0, err = 0;

	while (*p && !err) {
		const char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		char *line = pm_xmalloc(len + 1), *s;

		memcpy(line, p, len);
		line[len] = '\0';
		p += len + (eol ? 1 : 0);
		lineno++;
		s = pm_strtrim(line);
		if (*s == '[')
			err = parse_section(&local, &cur, s, filename, lineno, e);
		else if (*s && *s != '#' && *s != ';')
			err = parse_key(cur, s, filename, lineno, e);
		free(line);
	}
	if (!err)
		err = alias_finish(cur, filename, e);
	if (err) {
		pm_aliases_free(&local);
		return err;
	}
	aliases_merge(a, &local);
	return 0;
}

static int alias_file_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 7 &&
	       !strcmp(d->d_name + n - 7, ".events");
}

int pm_aliases_load_dir(struct pm_aliases *a, const char *dir,
			struct pm_err *e)
{
	struct dirent **list;
	int n, i, err = 0;

	n = scandir(dir, &list, alias_file_filter, alphasort);
	if (n < 0)
		return pm_err_set(e, -errno, "%s: cannot read event alias directory: %s",
				  dir, strerror(errno));
	if (n == 0) {
		free(list);
		return pm_err_set(e, -ENOENT, "%s: no *.events alias files", dir);
	}
	/* A broken file is reported (the first one) and skipped; the
	 * others still load. */
	for (i = 0; i < n; i++) {
		char *path = pm_xasprintf("%s/%s", dir, list[i]->d_name), *text;
		struct pm_err fe;
		int ferr = pm_read_file_max(path, PM_READ_MAX_ALIASES, &text, NULL);

		if (ferr) {
			pm_read_error(&fe, ferr, path, PM_READ_MAX_ALIASES,
				      "an event alias file");
		} else {
			ferr = pm_aliases_parse(a, text, path, &fe);
			free(text);
		}
		if (ferr && !err) {
			err = ferr;
			if (e)
				*e = fe;
		}
		free(path);
		free(list[i]);
	}
	free(list);
	return err;
}

const char *pm_aliases_default_dir(void)
{
	static char buf[4096];
	const char *env = getenv("PMBENCH_EVENTS_DIR");

	if (env && *env)
		return env;
	snprintf(buf, sizeof(buf), "%s/events", pm_datadir());
	return buf;
}

void pm_aliases_free(struct pm_aliases *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		alias_clear(&a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = 0;
}
