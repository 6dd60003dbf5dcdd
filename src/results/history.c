#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/history.h"
#include "results/result.h"
#include "sysinfo/sysinfo.h"

int pm_history_dir(char **dir, struct pm_err *e)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");

	/* the XDG base directory spec: relative paths are to be ignored */
	if (xdg && xdg[0] == '/') {
		*dir = pm_xasprintf("%s/pmbench/results", xdg);
		return 0;
	}
	if (home && home[0] == '/') {
		*dir = pm_xasprintf("%s/.local/share/pmbench/results", home);
		return 0;
	}
	*dir = NULL;
	return pm_err_set(e, -ENOENT, "no result history: neither XDG_DATA_HOME nor HOME is "
			  "set to an absolute path");
}

/* mkdir -p */
static int make_dirs(const char *path, struct pm_err *e)
{
	char *p = pm_xstrdup(path), *s;
	int err = 0;

	for (s = p + 1; ; s++) {
		if (*s != '/' && *s)
			continue;
		{
			char c = *s;

			*s = '\0';
			if (mkdir(p, 0755) != 0 && errno != EEXIST) {
				err = pm_err_set(e, -errno, "cannot create %s: %s", p,
						 strerror(errno));
				break;
			}
			*s = c;
		}
		if (!*s)
			break;
	}
	free(p);
	return err;
}

int pm_history_prepare(char **dir, struct pm_err *e)
{
	int err = pm_history_dir(dir, e);

	if (!err)
		err = make_dirs(*dir, e);
	if (!err && access(*dir, W_OK | X_OK) != 0)
		err = pm_err_set(e, -errno, "cannot write in %s: %s", *dir, strerror(errno));
	if (err) {
		free(*dir);
		*dir = NULL;
	}
	return err;
}

char *pm_history_file_name(const struct pm_result *r)
{
	const json_t *rel = pm_sysinfo_at(r->sysinfo, PM_FP_KERNEL_RELEASE);
	const char *c = r->created ? r->created : "", *k;
	char stamp[32], kernel[96];
	size_t i = 0, j = 0;

	/* 2026-12-04T10:15:00Z -> 20261204T101500Z */
	for (; c[i] && j + 1 < sizeof(stamp); i++)
		if (c[i] != '-' && c[i] != ':')
			stamp[j++] = c[i];
	stamp[j] = '\0';
	if (!j)
		snprintf(stamp, sizeof(stamp), "undated");
	k = json_is_string(rel) ? json_string_value(rel) : "unknown-kernel";
	for (i = 0, j = 0; k[i] && j + 1 < sizeof(kernel); i++)
		kernel[j++] = strchr("._+-", k[i]) || (k[i] >= '0' && k[i] <= '9') ||
			      (k[i] >= 'a' && k[i] <= 'z') || (k[i] >= 'A' && k[i] <= 'Z') ?
			      k[i] : '_';
	kernel[j] = '\0';
	return pm_xasprintf("%s-%s.json", stamp, kernel);
}

int pm_history_save(const struct pm_result *r, char **path, struct pm_err *e)
{
	char *dir, *name, *p = NULL, *dash;
	int err, fd = -1, k;

	*path = NULL;
	err = pm_history_prepare(&dir, e);
	if (err)
		return err;
	name = pm_history_file_name(r);
	dash = strchr(name, '-');
	/* Two runs in one second: "...Z.2-kernel.json" sorts after the first.
	 * The name is taken with O_EXCL, then written over atomically. */
	for (k = 1; k < 1000; k++) {
		free(p);
		p = k == 1 ? pm_xasprintf("%s/%s", dir, name) :
			pm_xasprintf("%s/%.*s.%d%s", dir, (int)(dash - name), name, k, dash);
		fd = open(p, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	if (fd < 0) {
		err = pm_err_set(e, -errno, "%s: cannot create: %s", p, strerror(errno));
		free(p);
		p = NULL;
	} else {
		close(fd);
		err = pm_result_save(r, p, e);
		if (err) {
			unlink(p);
			free(p);
			p = NULL;
		}
	}
	free(name);
	free(dir);
	*path = p;
	return err;
}

static int json_name(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

int pm_history_list(char ***paths, size_t *n, struct pm_err *e)
{
	struct dirent **list;
	char *dir;
	int k, i;

	*paths = NULL;
	*n = 0;
	if (pm_history_dir(&dir, e))
		return -ENOENT;
	k = scandir(dir, &list, json_name, alphasort);
	if (k < 0) {
		int err = errno;

		/* no history yet is an empty one */
		if (err != ENOENT)
			pm_err_set(e, -err, "%s: %s", dir, strerror(err));
		free(dir);
		return err == ENOENT ? 0 : -err;
	}
	*paths = pm_xcalloc((size_t)k + 1, sizeof(char *));
	for (i = 0; i < k; i++) {
		(*paths)[i] = pm_xasprintf("%s/%s", dir, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	free(dir);
	*n = (size_t)k;
	return 0;
}

void pm_history_list_free(char **paths, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(paths[i]);
	free(paths);
}

bool pm_history_is_ref(const char *arg)
{
	return arg && arg[0] == '@' && arg[1];
}

/* "-3" -> 3; -1 when not a back-reference */
static long back_index(const char *s)
{
	char *end;
	long v;

	if (s[0] != '-' || s[1] < '0' || s[1] > '9')
		return -1;
	errno = 0;
	v = strtol(s + 1, &end, 10);
	return errno || *end ? -1 : v;
}

int pm_history_resolve(const char *arg, char **path, struct pm_err *e)
{
	char **files, *dir = NULL;
	struct pm_err le;
	size_t n, i;
	long back;
	int err;

	*path = NULL;
	if (!pm_history_is_ref(arg)) {
		*path = pm_xstrdup(arg);
		return 0;
	}
	err = pm_history_list(&files, &n, &le);
	if (err)
		return pm_err_set(e, err, "%s: %s", arg, le.msg);
	pm_history_dir(&dir, &le);
	back = !strcmp(arg + 1, "latest") ? 0 : back_index(arg + 1);
	if (!n) {
		err = pm_err_set(e, -ENOENT, "%s: the result history (%s) is empty: 'pmbench run' "
				 "without -o stores each run there", arg, dir);
	} else if (back >= 0) {
		if ((size_t)back >= n)
			err = pm_err_set(e, -ENOENT, "%s: the result history (%s) holds %zu run%s",
					 arg, dir, n, n == 1 ? "" : "s");
		else
			*path = pm_xstrdup(files[n - 1 - (size_t)back]);
	} else {
		/* a label: the newest run that has it */
		for (i = n; i-- > 0 && !*path;) {
			/* bounded, and no wait on a FIFO: as every reader */
			json_t *doc = NULL;
			const char *label;

			pm_result_load_json(&doc, files[i], &le);
			label = json_string_value(json_object_get(doc, "label"));
			if (label && !strcmp(label, arg + 1))
				*path = pm_xstrdup(files[i]);
			json_decref(doc);
		}
		if (!*path)
			err = pm_err_set(e, -ENOENT, "%s: no run labelled '%s' in the result history "
					 "(%s); 'pmbench log' lists the runs", arg, arg + 1, dir);
	}
	free(dir);
	pm_history_list_free(files, n);
	return err;
}
