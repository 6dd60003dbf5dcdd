/*
 * Where interrupts come back on (mechanisms/irq-enable.syms): a timer
 * sample held off while they were off lands on the function that turns
 * them on; the time is its caller's.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"

#define SKID_MAX (64u << 10)

int pm_skid_load(char ***out, const char *path, struct pm_err *e)
{
	char *text, *line, *save = NULL;
	char **v = NULL;
	size_t len, n = 0;
	int err;

	*out = NULL;
	err = pm_read_file_max(path, SKID_MAX, &text, &len);
	if (err)
		return pm_read_error(e, err, path, SKID_MAX, "a mechanism map file");
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *s = pm_strtrim(line);

		if (!*s || *s == '#')
			continue;
		if (strpbrk(s, " \t")) {
			err = pm_err_set(e, -EINVAL, "%s: '%s': one pattern a line", path, s);
			break;
		}
		v = pm_xgrow(v, n + 1, sizeof(*v));
		v[n++] = pm_xstrdup(s);
		v[n] = NULL;
	}
	free(text);
	if (err) {
		pm_strv_free(v);
		return err;
	}
	*out = v ? v : pm_xcalloc(1, sizeof(*v));
	return 0;
}

bool pm_skid_match(char *const *globs, const char *sym)
{
	for (; sym && globs && *globs; globs++)
		if (!fnmatch(*globs, sym, 0))
			return true;
	return false;
}
