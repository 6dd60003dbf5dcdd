/*
 * The sides: a result file, or a directory of runs of one kernel, config
 * or machine (the files that do not load are warnings), the runs that
 * show how much runs differ here (the history), and what a side is: one
 * pmbench ab experiment's, imported, taken at once.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "explain/stages.h"
#include "results/history.h"
#include "sysinfo/sysinfo.h"

static int json_file_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

static void side_warn(struct pm_side *s, char *msg)
{
	s->warnings = pm_xgrow(s->warnings, s->nwarnings, sizeof(char *));
	s->warnings[s->nwarnings++] = msg;
}

/*
 * A file must be valid (bad input: -EINVAL).  In a directory, files that
 * are not valid results are skipped with a warning, so one stray file
 * does not hide the others; a directory with no valid result is bad
 * input.
 */
int pm_side_load(struct pm_side *s, const char *path, struct pm_err *e)
{
	struct dirent **list;
	struct stat st;
	int n, i, err;

	memset(s, 0, sizeof(*s));
	s->name = pm_xstrdup(path);
	if (stat(path, &st) != 0)
		return pm_err_set(e, -EINVAL, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		s->runs = pm_xcalloc(1, sizeof(*s->runs));
		err = pm_result_load(&s->runs[0], path, e);
		if (err)
			return err;
		s->nruns = 1;
		return 0;
	}
	n = scandir(path, &list, json_file_filter, alphasort);
	if (n < 0)
		return pm_err_set(e, -EINVAL, "%s: %s", path, strerror(errno));
	s->runs = pm_xcalloc((size_t)(n ? n : 1), sizeof(*s->runs));
	for (i = 0; i < n; i++) {
		char *file = pm_xasprintf("%s/%s", path, list[i]->d_name);
		struct pm_err fe;

		if (pm_result_load(&s->runs[s->nruns], file, &fe) == 0)
			s->nruns++;
		else
			side_warn(s, pm_xasprintf("skipped %s", fe.msg));
		free(file);
		free(list[i]);
	}
	free(list);
	if (!s->nruns)
		return pm_err_set(e, -EINVAL, "%s: no valid pmbench result file (*.json) in this directory%s",
				  path, n ? "; see the warnings above" : "");
	return 0;
}

/* The same run read twice: created in the same second on the same host
 * (runs can share a second) with the same trials. */
const char *pm_run_fp(const struct pm_result *r, enum pm_fp_key k)
{
	const char *v = json_string_value(pm_sysinfo_at(r->sysinfo, k));

	return v ? v : "";
}

static bool same_run(const struct pm_result *a, const struct pm_result *b)
{
	size_t i;

	if (!a->created || !b->created || strcmp(a->created, b->created) ||
	    strcmp(pm_run_fp(a, PM_FP_HOSTNAME), pm_run_fp(b, PM_FP_HOSTNAME)) || a->nbench != b->nbench)
		return false;
	for (i = 0; i < a->nbench; i++)
		if (a->bench[i].ntrials != b->bench[i].ntrials ||
		    (a->bench[i].ntrials &&
		     memcmp(a->bench[i].trials, b->bench[i].trials,
			    a->bench[i].ntrials * sizeof(*a->bench[i].trials))))
			return false;
	return true;
}

/* Is r a run worth learning the spread from: measured (not imported) on
 * the host of a side, and not one of the sides' runs? */
static bool spread_wanted(const struct pm_result *r, const struct pm_side *old,
			  const struct pm_side *new)
{
	const struct pm_side *sides[2] = { old, new };
	bool host = false;
	size_t i, k;

	if (!r->source || strcmp(r->source, "run"))
		return false;
	for (k = 0; k < 2; k++)
		for (i = 0; i < sides[k]->nruns; i++) {
			if (same_run(r, &sides[k]->runs[i]))
				return false;
			host = host || !strcmp(pm_run_fp(r, PM_FP_HOSTNAME),
					       pm_run_fp(&sides[k]->runs[i], PM_FP_HOSTNAME));
		}
	return host;
}

/* The history keeps every run: the newest this many are enough. */
#define SPREAD_MAX_RUNS 60

int pm_spread_load(struct pm_side *s, const char *from, const struct pm_side *old,
		   const struct pm_side *new, struct pm_err *e)
{
	char **paths = NULL;
	size_t n = 0, i, k;
	int err;

	if (from) {
		err = pm_side_load(s, from, e);
		if (err)
			return err;
	} else {
		memset(s, 0, sizeof(*s));
		s->name = pm_xstrdup("the result history");
		/* no history (no HOME) is no error: there is nothing to learn from */
		if (pm_history_list(&paths, &n, e) != 0)
			n = 0;
		s->runs = pm_xcalloc(n ? (n < SPREAD_MAX_RUNS ? n : SPREAD_MAX_RUNS) : 1,
				     sizeof(*s->runs));
		for (i = n > SPREAD_MAX_RUNS ? n - SPREAD_MAX_RUNS : 0; i < n; i++) {
			struct pm_err fe;

			if (pm_result_load(&s->runs[s->nruns], paths[i], &fe) == 0)
				s->nruns++;
			else
				side_warn(s, pm_xasprintf("skipped %s", fe.msg));
		}
		pm_history_list_free(paths, n);
	}
	for (i = k = 0; i < s->nruns; i++) {
		if (spread_wanted(&s->runs[i], old, new))
			s->runs[k++] = s->runs[i];
		else
			pm_result_free(&s->runs[i]);
	}
	s->nruns = k;
	return 0;
}

void pm_side_free(struct pm_side *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		pm_result_free(&s->runs[i]);
	free(s->runs);
	for (i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

/* pmbench ab ran the pairs' runs at once, side by side (its pairing). */
bool pm_side_at_once(const struct pm_side *s)
{
	const char *p = s->nruns ? json_string_value(json_object_get(json_object_get(
		json_object_get(s->runs[0].options, "ab"), "experiment"), "pairing")) : NULL;

	return p && !strcmp(p, "duet");
}

/*
 * The pmbench ab experiment both sides come from (options.ab.experiment),
 * or NULL: every run of both sides must carry the same one.  With labels,
 * OLD must be its side A and NEW its B.
 */
const json_t *pm_sides_experiment(const struct pm_side *old, const struct pm_side *new,
				  bool labels)
{
	const struct pm_side *s[2] = { old, new };
	const json_t *first = NULL;
	const char *id = NULL;
	size_t k, i;

	for (k = 0; k < 2; k++) {
		if (!s[k]->nruns)
			return NULL;
		for (i = 0; i < s[k]->nruns; i++) {
			const json_t *e = json_object_get(json_object_get(s[k]->runs[i].options,
									  "ab"), "experiment");
			const char *x = json_string_value(json_object_get(e, "id"));

			if (!x || (id && strcmp(id, x)))
				return NULL;
			id = x;
			first = first ? first : e;
		}
	}
	if (labels && (strcmp(old->runs[0].label ? old->runs[0].label : "", "A") ||
		       strcmp(new->runs[0].label ? new->runs[0].label : "", "B")))
		return NULL;
	return first;
}

bool pm_sides_one_experiment(const struct pm_side *old, const struct pm_side *new)
{
	return pm_sides_experiment(old, new, false) != NULL;
}

/* ab --local's runs: this host, set up differently, no guest. */
bool pm_side_local(const struct pm_side *s)
{
	return s->nruns && json_is_true(json_object_get(json_object_get(s->runs[0].options, "ab"),
							"local"));
}

/* Imported from a text report (lmbench, AIM9): figures only. */
bool pm_side_imported(const struct pm_side *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		if (pm_run_imported(&s->runs[i]))
			return true;
	return false;
}

bool pm_run_imported(const struct pm_result *r)
{
	return r->source && !strncmp(r->source, "import", 6);
}
