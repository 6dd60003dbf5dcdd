/*
 * Is it a change?  Sides are loaded (a file, or a directory of runs),
 * and each benchmark is compared at the highest level of replication
 * both sides have (runs, rounds, trials): a t interval of the ratio of
 * geometric means, with a margin where runs are missing.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "explain/explain.h"
#include "stats/seq.h"
#include "results/history.h"
#include "sysinfo/sysinfo.h"

static int json_file_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

static void side_warn(struct pm_side *s, char *msg)
{
	s->warnings = pm_xrealloc(s->warnings, (s->nwarnings + 1) * sizeof(char *));
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

static const char *fp_str(const struct pm_result *r, enum pm_fp_key k)
{
	const char *v = json_string_value(pm_sysinfo_at(r->sysinfo, k));

	return v ? v : "";
}

/* The same run read twice: created in the same second on the same host
 * (runs can share a second) with the same trials. */
static bool same_run(const struct pm_result *a, const struct pm_result *b)
{
	size_t i;

	if (!a->created || !b->created || strcmp(a->created, b->created) ||
	    strcmp(fp_str(a, PM_FP_HOSTNAME), fp_str(b, PM_FP_HOSTNAME)) || a->nbench != b->nbench)
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
			host = host || !strcmp(fp_str(r, PM_FP_HOSTNAME),
					       fp_str(&sides[k]->runs[i], PM_FP_HOSTNAME));
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

const char *pm_verdict_name(enum pm_verdict v)
{
	static const char *const names[] = {
		[PM_REGRESSION] = "regression",
		[PM_IMPROVEMENT] = "improvement",
		[PM_NO_CHANGE] = "no change",
		[PM_INCONCLUSIVE] = "inconclusive",
		[PM_CHANGED] = "changed",
	};

	return names[v];
}

const char *pm_unit_name(enum pm_unit u)
{
	static const char *const names[] = {
		[PM_UNIT_RUNS] = "runs",
		[PM_UNIT_ROUNDS] = "rounds",
		[PM_UNIT_TRIALS] = "trials",
		[PM_UNIT_FIGURES] = "figures",
	};

	return names[u];
}

/*
 * A run whose machine-speed probe (the fixed user-space loop timed after
 * every trial) ran this much slower than in the fastest run of either
 * side was taken while the host was busy.  Under QEMU's TCG on a shared host, a
 * whole boot now and then runs at half speed (probe 1.9-2.3 ns against
 * 1.37-1.56 in the others, the benchmark 1.5-2.1 times slower); on the
 * host itself the probe stayed within 9% of its fastest run in 40 quick
 * runs, busy minutes included.  The probe does not depend on the code
 * or the kernel compared, so leaving out by it cannot make a change.
 */
#define BUSY_PROBE 0.20

/* A growing array of doubles. */
struct vec {
	double *v;
	size_t n;
};

static void vec_push(struct vec *a, double x)
{
	a->v = pm_xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
	a->v[a->n++] = x;
}

/*
 * One side of one benchmark, at every level: each run's value (the
 * geometric mean of the faster half of its rounds' medians), each
 * round's median, every trial, and each round's machine-speed probe.  A
 * file is a run, or several when its rounds say so (merged files).
 */
struct side_data {
	struct vec runs, rounds, trials, refs, busy, waited, others;
	struct vec run_t;	/* when each run was taken (s since the epoch, NAN unknown) */
	struct vec run_ref;	/* each run's probe: its rounds' median, NAN unknown */
	struct vec round_ref;	/* each round's probe (NAN unknown), as rounds */
	struct vec round_waited;	/* each round's share waiting for a CPU, as rounds */
	struct vec run_waited;	/* each run's: the mean of its rounds' (NAN unknown) */
	double within_ss, within_df;	/* log round medians around their run's mean */
	size_t left_out;	/* runs skipped (leave_out_busy_runs) */
	const struct pm_bench_result *first;
	bool converged;
};

/* "2026-12-04T12:09:58Z" in seconds since the epoch, NAN when not that. */
static double iso_seconds(const char *s)
{
	struct tm tm = { 0 };
	char z = 0;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z) != 7 || z != 'Z')
		return NAN;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

/* When run `run` of a result file was taken: its entry in a merged
 * file's runs, else the file's own time. */
static double run_seconds(const struct pm_result *r, unsigned run)
{
	const json_t *e = json_array_get(r->runs, run);

	if (json_is_object(e))
		return iso_seconds(json_string_value(json_object_get(e, "created")));
	return iso_seconds(r->created);
}

/* Indexes ordered by the values t[index] (qsort_r). */
static int cmp_index_by(const void *x, const void *y, void *t)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	double a = ((const double *)t)[i], b = ((const double *)t)[j];

	/* runs of one second (created has seconds) in the order recorded:
	 * a merged file lists them as they were taken */
	return a != b ? (a > b) - (a < b) : (i > j) - (i < j);
}

/* The rounds of one run (rounds[idx[0..n)]) into d. */
static void side_add_run(struct side_data *d, const struct pm_bench_result *b,
			 const struct pm_round *rounds, const size_t *at, const double *med,
			 const size_t *idx, size_t n, double t)
{
	struct vec r = { 0 }, probe = { 0 };
	double all, wsum = 0;
	size_t i, k, wn = 0;

	for (i = 0; i < n; i++) {
		const struct pm_round *rd = &rounds[idx[i]];

		for (k = at[idx[i]]; k < at[idx[i]] + rd->ntrials; k++)
			if (b->trials[k] > 0 && isfinite(b->trials[k]))
				vec_push(&d->trials, b->trials[k]);
		vec_push(&d->rounds, med[idx[i]]);
		vec_push(&d->round_ref, rd->reference_ns > 0 ? rd->reference_ns : NAN);
		vec_push(&d->round_waited, rd->waited >= 0 ? rd->waited : NAN);
		if (rd->waited >= 0) {
			wsum += rd->waited;
			wn++;
		}
		vec_push(&r, med[idx[i]]);
		if (!isnan(rd->reference_ns)) {
			vec_push(&d->refs, rd->reference_ns);
			vec_push(&probe, rd->reference_ns);
		}
		if (!isnan(rd->busy))
			vec_push(&d->busy, rd->busy);
		if (!isnan(rd->waited))
			vec_push(&d->waited, rd->waited);
		if (!isnan(rd->others))
			vec_push(&d->others, rd->others);
	}
	/*
	 * One value per run: the geometric mean of the faster half of its
	 * rounds.  A busy minute of the host only adds time, to a round or
	 * two: in 40 back-to-back quick runs here, runs so valued differed
	 * by half as much as by the mean of all rounds (stat ±0.9% against
	 * ±2.0% calm, ±1.4% against ±4.1% busy).  Their median would flip
	 * between modes when rounds are bimodal, as they are on a loaded
	 * machine (3.5 and 6.1 us for null).
	 */
	vec_push(&d->runs, pm_geomean_faster_half(r.v, r.n));
	vec_push(&d->run_t, t);
	vec_push(&d->run_ref, probe.n ? pm_median(probe.v, probe.n) : NAN);
	vec_push(&d->run_waited, wn ? wsum / (double)wn : NAN);
	all = log(pm_geomean(r.v, r.n));
	for (i = 0; i < r.n; i++)
		d->within_ss += (log(r.v[i]) - all) * (log(r.v[i]) - all);
	d->within_df += (double)r.n - 1;
	free(r.v);
	free(probe.v);
}

/*
 * Collect a side.  skip (may be NULL): runs to leave out, by their
 * order here (the order of d->runs when collected without skip).
 */
static void side_collect_skip(const struct pm_side *s, const char *name, const bool *skip,
			      struct side_data *d)
{
	size_t i, k, ord = 0;

	memset(d, 0, sizeof(*d));
	d->converged = true;
	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);
		const struct pm_round *rounds;
		struct pm_round one;
		size_t nr, *at, *idx;
		double *med;
		bool *done;

		if (!b || b->status != PM_BENCH_OK || !b->ntrials)
			continue;
		rounds = b->rounds;
		nr = b->nrounds;
		if (!nr) {
			/* built in memory (an import) rather than read: one round */
			one = (struct pm_round){ .ntrials = b->ntrials, .reference_ns = b->reference_ns,
						 .busy = b->busy, .waited = b->waited,
						 .others = b->others,
						 .started_s = NAN };
			rounds = &one;
			nr = 1;
		}
		if (!d->first)
			d->first = b;
		d->converged = d->converged && b->converged;
		med = pm_xcalloc(nr, sizeof(*med));
		done = pm_xcalloc(nr, sizeof(*done));
		at = pm_xcalloc(nr, sizeof(*at));
		idx = pm_xcalloc(nr, sizeof(*idx));
		for (k = 0; k < nr; k++) {
			at[k] = k ? at[k - 1] + rounds[k - 1].ntrials : 0;
			med[k] = pm_median(b->trials + at[k], rounds[k].ntrials);
			/* a round with no time per op (an overhead larger than the
			 * trials, no trials): no value on a log scale, left out */
			done[k] = !(med[k] > 0) || !isfinite(med[k]);
		}
		/* the rounds of each run, runs in the order they first appear */
		for (k = 0; k < nr; k++) {
			size_t m, n = 0;

			if (done[k])
				continue;
			for (m = k; m < nr; m++)
				if (!done[m] && rounds[m].run == rounds[k].run) {
					done[m] = true;
					idx[n++] = m;
				}
			if (skip && skip[ord++]) {
				d->left_out++;
				continue;
			}
			side_add_run(d, b, rounds, at, med, idx, n,
				     run_seconds(&s->runs[i], rounds[k].run));
		}
		free(med);
		free(done);
		free(at);
		free(idx);
	}
}

static void side_collect(const struct pm_side *s, const char *name, struct side_data *d)
{
	side_collect_skip(s, name, NULL, d);
}

static void side_free(struct side_data *d)
{
	free(d->run_t.v);
	free(d->run_ref.v);
	free(d->round_ref.v);
	free(d->round_waited.v);
	free(d->run_waited.v);
	free(d->runs.v);
	free(d->rounds.v);
	free(d->trials.v);
	free(d->refs.v);
	free(d->busy.v);
	free(d->waited.v);
	free(d->others.v);
}

static const struct vec *side_units(const struct side_data *d, enum pm_unit u)
{
	switch (u) {
	case PM_UNIT_RUNS:
		return &d->runs;
	case PM_UNIT_ROUNDS:
		return &d->rounds;
	case PM_UNIT_FIGURES:
		/* a single figure against the other side's rounds when it has them */
		return d->rounds.n >= 2 ? &d->rounds : &d->trials;
	default:
		return &d->trials;
	}
}

/*
 * What a run measured and how: the host, the run settings and the
 * benchmarks (a benchmark alone and in the quick suite, pinned or not,
 * are measured under different conditions).
 */
static char *run_settings_key(const struct pm_result *r)
{
	static const char *const opts[] = { "cpu", "rounds", "max_time_s", "placement" };
	char *key = pm_xstrdup(fp_str(r, PM_FP_HOSTNAME));
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(opts); i++) {
		char *v = r->options ? json_dumps(json_object_get(r->options, opts[i]),
						  JSON_ENCODE_ANY) : NULL;
		char *k = pm_xasprintf("%s\x1f%s", key, v ? v : "");

		free(v);
		free(key);
		key = k;
	}
	for (i = 0; i < r->nbench; i++) {
		char *k = pm_xasprintf("%s\x1f%s", key, r->bench[i].name);

		free(key);
		key = k;
	}
	return key;
}

/* Runs of the same thing: the same settings, kernel release and command line. */
static char *run_group_key(const struct pm_result *r)
{
	char *settings = run_settings_key(r);
	char *key = pm_xasprintf("%s\x1f%s\x1f%s", settings, fp_str(r, PM_FP_KERNEL_RELEASE),
				 fp_str(r, PM_FP_KERNEL_CMDLINE));

	free(settings);
	return key;
}

/* The settings keys of the runs of both sides (*n of them, owned). */
static char **side_settings_keys(const struct pm_side *old, const struct pm_side *new,
				 size_t *n)
{
	const struct pm_side *sides[2] = { old, new };
	char **keys = NULL;
	size_t s, i;

	*n = 0;
	for (s = 0; s < 2; s++)
		for (i = 0; sides[s] && i < sides[s]->nruns; i++) {
			keys = pm_xrealloc(keys, (*n + 1) * sizeof(*keys));
			keys[(*n)++] = run_settings_key(&sides[s]->runs[i]);
		}
	return keys;
}

/* Was r taken with the settings of a run of either side (keys[0..n))? */
static bool same_settings(const struct pm_result *r, char **keys, size_t n)
{
	char *key = run_settings_key(r);
	bool same = false;
	size_t i;

	for (i = 0; i < n && !same; i++)
		same = !strcmp(keys[i], key);
	free(key);
	return same;
}

/*
 * Units at equal host speed.  On a shared host the machine's speed
 * swings between minutes (here between two speeds 40% apart), and a run
 * or a round taken in the slow phase is slower throughout: the history's
 * runs differed by 18.6% though two runs whose probes agreed to 0.2%
 * differed by 1%.  Within each group of units of one thing (a side's
 * rounds, the history's runs of one kernel), log value on log probe:
 * the Theil-Sen slope of the points centred on their group says how much
 * this benchmark feels the host's speed.  Taken when the probes moved
 * (by BUSY_PROBE), its interval excludes 0 and it narrows the spread by
 * a fifth, as compare_sequential takes it for pairs.
 */
static bool host_slope(const double *v, const double *cov, const size_t *g, size_t n,
		       double moved, double level, double *slope, double *ss_raw,
		       double *ss_adj)
{
	double *x = pm_xcalloc(n + 1, sizeof(*x)), *y = pm_xcalloc(n + 1, sizeof(*y));
	double lo = INFINITY, hi = -INFINITY, sx, sy;
	size_t i, j, m = 0, cnt;
	struct pm_slope sl;
	bool ok = false;

	*ss_raw = *ss_adj = 0;
	for (i = 0; i < n; i++) {
		if (!(v[i] > 0) || !isfinite(cov[i]))
			continue;
		sx = sy = 0;
		cnt = 0;
		for (j = 0; j < n; j++)
			if (g[j] == g[i] && v[j] > 0 && isfinite(cov[j])) {
				sx += cov[j];
				sy += log(v[j]);
				cnt++;
			}
		x[m] = cov[i] - sx / (double)cnt;
		y[m++] = log(v[i]) - sy / (double)cnt;
		lo = fmin(lo, cov[i]);
		hi = fmax(hi, cov[i]);
	}
	if (m >= 6 && hi - lo > moved && pm_theil_sen(x, y, m, level, &sl) == 0 &&
	    isfinite(sl.lo) && sl.lo > 0) {
		for (i = 0; i < m; i++) {
			*ss_raw += y[i] * y[i];
			*ss_adj += (y[i] - sl.slope * x[i]) * (y[i] - sl.slope * x[i]);
		}
		*slope = sl.slope;
		ok = *ss_adj < 0.64 * *ss_raw;
	}
	free(x);
	free(y);
	return ok;
}

/*
 * The host's state a unit was taken in, as a covariate of its log value:
 * the machine-speed probe's logarithm (the host's speed), or the share
 * of the time the benchmark waited for a CPU (contention; only a single
 * process's waiting is competition, see contention_explains).
 */
enum host_cov { COV_PROBE, COV_WAITED };

/* One process of the benchmark's own: its waiting is competition. */
static bool single_process(const struct pm_bench_cmp *c)
{
	return c->ref_old && !c->ref_old->placement && !c->ref_old->counters.inherit;
}

/* how far the covariate must move before a slope is looked for */
#define WAITED_MOVED 0.10

static double cov_of(enum host_cov k, double probe, double waited)
{
	return k == COV_PROBE ? (probe > 0 ? log(probe) : NAN) :
	       waited >= 0 && waited <= 1 ? waited : NAN;
}

static double cov_moved(enum host_cov k)
{
	return k == COV_PROBE ? log1p(BUSY_PROBE) : WAITED_MOVED;
}

/*
 * How much runs differ, from other runs taken as the sides' runs were
 * (the same host, settings and benchmarks; any kernel): each run's value
 * as side_collect makes it, grouped by run_group_key (a real difference
 * between two kernels is no spread); a group of n runs gives n - 1
 * degrees of freedom.  *ss: the squared
 * deviations of the log values from their groups' means.
 */
static void spread_collect(const struct pm_side *ref, const struct pm_side *old,
			   const struct pm_side *new, const char *name,
			   struct pm_bench_cmp *c, double *ss)
{
	struct group {
		char *key;
		struct vec v, p, w;
	} *g = NULL;
	size_t ng = 0, nkeys, i, j, k;
	char **keys = side_settings_keys(old, new, &nkeys);
	struct vec all_v = { 0 }, all_p = { 0 }, all_w = { 0 };
	size_t *all_g = NULL;

	*ss = 0;
	c->prior_df = 0;
	c->prior_runs = c->prior_groups = 0;
	c->prior_sd = NAN;
	for (i = 0; ref && i < ref->nruns; i++) {
		const struct pm_result *r = &ref->runs[i];
		struct pm_side one = { .runs = (struct pm_result *)r, .nruns = 1 };
		struct side_data d;
		char *key;

		/* the spread of runs taken as the sides' were, of any kernel */
		if (!same_settings(r, keys, nkeys))
			continue;
		key = run_group_key(r);
		side_collect(&one, name, &d);
		for (j = 0; j < ng && strcmp(g[j].key, key); j++)
			;
		if (j == ng) {
			g = pm_xrealloc(g, (ng + 1) * sizeof(*g));
			g[ng].key = key;
			memset(&g[ng].v, 0, sizeof(g[ng].v));
			memset(&g[ng].p, 0, sizeof(g[ng].p));
			memset(&g[ng].w, 0, sizeof(g[ng].w));
			ng++;
		} else {
			free(key);
		}
		for (k = 0; k < d.runs.n; k++) {
			vec_push(&g[j].v, d.runs.v[k]);
			vec_push(&g[j].p, k < d.run_ref.n ? d.run_ref.v[k] : NAN);
			vec_push(&g[j].w, k < d.run_waited.n ? d.run_waited.v[k] : NAN);
		}
		side_free(&d);
	}
	for (j = 0; j < ng; j++) {
		size_t n = g[j].v.n;

		double sd = n >= 2 ? pm_log_sd(g[j].v.v, n, NULL) : NAN;

		if (isfinite(sd)) {
			*ss += sd * sd * (double)(n - 1);
			c->prior_df += (double)(n - 1);
			c->prior_runs += n;
			c->prior_groups++;
			for (k = 0; k < n; k++) {
				vec_push(&all_v, g[j].v.v[k]);
				vec_push(&all_p, cov_of(COV_PROBE, g[j].p.v[k], NAN));
				vec_push(&all_w, cov_of(COV_WAITED, NAN, g[j].w.v[k]));
				all_g = pm_xrealloc(all_g, all_v.n * sizeof(*all_g));
				all_g[all_v.n - 1] = j;
			}
		}
		free(g[j].key);
		free(g[j].v.v);
		free(g[j].p.v);
		free(g[j].w.v);
	}
	free(g);
	/* at equal host speed: the history's spread is the host's speed
	 * swings as much as the benchmark's own */
	c->prior_slope = NAN;
	for (k = 0; c->prior_df > 1 && isnan(c->prior_slope) && k < 2; k++) {
		double slope, ss_raw, ss_adj;

		if (k == COV_WAITED && !single_process(c))
			break;
		if (host_slope(all_v.v, k == COV_PROBE ? all_p.v : all_w.v, all_g, all_v.n,
			       cov_moved(k), c->level, &slope, &ss_raw, &ss_adj)) {
			*ss = ss_adj;
			c->prior_df -= 1;
			c->prior_slope = slope;
			c->prior_cov = (int)k;
		}
	}
	free(all_v.v);
	free(all_p.v);
	free(all_w.v);
	free(all_g);
	for (i = 0; i < nkeys; i++)
		free(keys[i]);
	free(keys);
	if (c->prior_df > 0)
		c->prior_sd = sqrt(*ss / c->prior_df);
}

/*
 * Degrees of freedom the history's spread counts for, at most.  Runs a
 * minute apart share the host's state of that minute (its states last
 * minutes), so sixty runs of an hour are not sixty independent draws:
 * the t quantile stays that of a dozen runs.
 */
#define PRIOR_DF_MAX 10.0

/* The finest level both sides can be compared at, and the margin it needs. */
static enum pm_unit choose_unit(const struct side_data *a, const struct side_data *b,
				const struct pm_explain_opts *o, double *margin)
{
	if (a->runs.n >= 2 && b->runs.n >= 2) {
		*margin = o->noise_floor;
		return PM_UNIT_RUNS;
	}
	if (a->trials.n < 2 || b->trials.n < 2) {
		/* a single figure on a side (an import) */
		*margin = 3 * o->noise_floor;
		return PM_UNIT_FIGURES;
	}
	if (a->rounds.n >= 2 && b->rounds.n >= 2) {
		*margin = fmax(o->noise_floor, o->single_run_margin);
		return PM_UNIT_ROUNDS;
	}
	*margin = fmax(o->noise_floor, o->one_round_margin);
	return PM_UNIT_TRIALS;
}

/* Relative half-width of the CI of one side's geometric mean. */
static double side_rel_ci(const struct vec *u, double level)
{
	return pm_log_t_rel_halfwidth(pm_log_sd(u->v, u->n, NULL), u->n, level);
}

/*
 * The verdict: a change must clear the noise floor with its whole
 * interval, and its estimate must clear the margin of the unit compared
 * (the floor when runs were compared; wider when a side has one run and
 * the spread between runs is unknown).  No change: the interval lies
 * within the floor.
 */
bool pm_one_run_by_history(const struct pm_bench_cmp *c)
{
	return c->unit == PM_UNIT_RUNS && c->prior_runs && (c->n_old < 2 || c->n_new < 2);
}

static enum pm_verdict verdict_of(const struct pm_bench_cmp *c, double floor)
{
	double up = 1 + c->margin, down = 1 / (1 + c->margin);
	/* one run a side against the history's spread: the estimate must
	 * clear the single-run margin (twice the floor), so the interval
	 * need only exclude no change */
	double clear = pm_one_run_by_history(c) ? 0 : floor;

	if (isnan(c->ci_low))
		return fabs(c->ratio - 1) < floor ? PM_NO_CHANGE :
		       c->ratio < up && c->ratio > down ? PM_INCONCLUSIVE :
		       c->ratio > 1 ? PM_REGRESSION : PM_IMPROVEMENT;
	if (c->ci_low > 1 + clear && c->ratio >= up)
		return PM_REGRESSION;
	if (c->ci_high < 1 / (1 + clear) && c->ratio <= down)
		return PM_IMPROVEMENT;
	if (c->ci_low >= 1 / (1 + floor) && c->ci_high <= 1 + floor)
		return PM_NO_CHANGE;
	return PM_INCONCLUSIVE;
}

/* Units per side for a 90% chance that the interval clears a distance
 * h (log scale) given a spread s between units:
 * n = 2 ((t + z_0.90) s / h)^2, at least 3. */
static unsigned units_needed(double s, double h, double level)
{
	double n = 3;
	int i;

	if (!(s > 0) || !(h > 0))
		return 3;
	/* t depends on n: iterate a few times */
	for (i = 0; i < 8; i++) {
		double t = pm_t_quantile(0.5 + level / 2, fmax(1, 2 * n - 2)) + 1.2816;

		n = fmax(3, ceil(2 * (t * s / h) * (t * s / h)));
	}
	return n > 1000 ? 1000 : (unsigned)n;
}

/* What would settle an inconclusive comparison. */
static char *settle_advice(const struct pm_bench_cmp *c, double floor)
{
	const struct pm_bench_result *o = c->ref_old, *n = c->ref_new;
	double d = fabs(log(c->ratio)), f = log1p(floor), s = c->unit_sd;
	char buf[640] = "";
	size_t len = 0;

#define ADD(...) len += (size_t)snprintf(buf + len, sizeof(buf) - len, __VA_ARGS__)
	switch (c->unit) {
	case PM_UNIT_RUNS:
		if (isnan(s) || !(fabs(d - f) > 0.002))
			ADD("more runs per side (%zu vs %zu now); ", c->n_old, c->n_new);
		else
			ADD("about %u runs per side for a 90%% chance (%zu vs %zu now), if runs keep "
			    "differing by ±%.1f%% as these do: %s; ", units_needed(s, fabs(d - f), c->level),
			    c->n_old, c->n_new, 100 * expm1(s),
			    d > f ? "a difference this size needs that many to stand out"
				  : "that many would show it is within the noise floor");
		break;
	case PM_UNIT_ROUNDS:
		ADD("at least 3 runs per side, now %zu vs %zu (a directory of result files per "
		    "side, or pmbench ab --rounds): with one run a side a change must exceed "
		    "%.0f%%, as nothing shows how much runs differ; ",
		    c->runs_old, c->runs_new, 100 * c->margin);
		break;
	case PM_UNIT_TRIALS:
		ADD("rounds in fresh processes (a newer pmbench run, --rounds 5) and several "
		    "runs per side: these files have one round each, so not even the spread "
		    "between processes is known; ");
		break;
	case PM_UNIT_FIGURES:
		ADD("several runs per side (single figures have no interval: a directory of "
		    "imported reports per side, or several rows per host); ");
		break;
	}
	/* a workload (pmbench stat) runs where its processes are put */
	if (c->unit != PM_UNIT_FIGURES && ((o && o->cpu < 0) || (n && n->cpu < 0)) &&
	    !(o && o->workload) && fmax(c->spread_old, c->spread_new) > 0.03)
		ADD("pinning (--cpu N) so the scheduler cannot move it; ");
	if (c->unit != PM_UNIT_FIGURES &&
	    (!c->converged_old || !c->converged_new || fmax(c->spread_old, c->spread_new) > 0.03))
		ADD("an idle machine (the %s differ by more than %.0f%%); ",
		    pm_unit_name(c->unit), 100 * floor);
#undef ADD
	buf[len >= 2 ? len - 2 : 0] = '\0';
	return pm_xstrdup(buf);
}

static double spread_of(const struct vec *u)
{
	return expm1(pm_log_sd(u->v, u->n, NULL));
}

static double vec_median(const struct vec *u)
{
	return u->n ? pm_median(u->v, u->n) : NAN;
}

static double vec_mean(const struct vec *u)
{
	double s = 0;
	size_t i;

	for (i = 0; i < u->n; i++)
		s += u->v[i];
	return u->n ? s / (double)u->n : NAN;
}

/* Sample standard deviation of v[0..n). */
static double sd_of(const double *v, size_t n)
{
	double m = 0, ss = 0;
	size_t i;

	for (i = 0; i < n; i++)
		m += v[i] / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

/* The indexes of d's runs, in the order they were taken. */
static size_t *by_time(const struct side_data *d)
{
	size_t *ix = pm_xcalloc(d->runs.n + 1, sizeof(*ix)), i;

	for (i = 0; i < d->runs.n; i++)
		ix[i] = i;
	qsort_r(ix, d->runs.n, sizeof(*ix), cmp_index_by, d->run_t.v);
	return ix;
}

/*
 * Runs taken in turn (A, B, A, B ..., as pmbench ab boots them, or by
 * hand): d[i] = log(B_i / A_i) for the i-th run of each side in time, when
 * both sides have n runs and no pair overlaps the next in time (times
 * have whole seconds: a tie is not an overlap).  A drift
 * of the host then hits both runs of a pair alike and drops out of d.
 */
static bool taken_in_turn(const struct side_data *a, const struct side_data *b, double **d,
			  double **x)
{
	size_t n = a->runs.n, i, *ia, *ib;
	bool ok = n == b->runs.n && a->run_t.n == n && b->run_t.n == n;

	*d = NULL;
	if (x)
		*x = NULL;
	for (i = 0; ok && i < n; i++)
		ok = isfinite(a->run_t.v[i]) && isfinite(b->run_t.v[i]);
	if (!ok)
		return false;
	ia = by_time(a);
	ib = by_time(b);
	/* <=: runs of a second each (ab --local) share their second */
	for (i = 0; ok && i + 1 < n; i++)
		ok = fmax(a->run_t.v[ia[i]], b->run_t.v[ib[i]]) <=
		     fmin(a->run_t.v[ia[i + 1]], b->run_t.v[ib[i + 1]]);
	if (ok) {
		*d = pm_xcalloc(n, sizeof(**d));
		for (i = 0; i < n; i++)
			(*d)[i] = log(b->runs.v[ib[i]]) - log(a->runs.v[ia[i]]);
		/* and the log ratio of each pair's probes (NAN unknown) */
		if (x) {
			*x = pm_xcalloc(n, sizeof(**x));
			for (i = 0; i < n; i++)
				(*x)[i] = log(b->run_ref.v[ib[i]]) - log(a->run_ref.v[ia[i]]);
		}
	}
	free(ia);
	free(ib);
	return ok;
}


/* The fastest probe of a side's runs, INFINITY when none has one. */
static double fastest_probe(const struct side_data *d)
{
	double lo = INFINITY;
	size_t i;

	for (i = 0; i < d->run_ref.n; i++)
		if (d->run_ref.v[i] > 0 && d->run_ref.v[i] < lo)
			lo = d->run_ref.v[i];
	return lo;
}

/*
 * Runs of d whose probe marks them busy, against lo, the fastest probe
 * of both sides (one bar for both: a side busy all along is not compared
 * in its own slow state with the other side's fast one).  None when d
 * has fewer than 3 runs, or, with cap (runs not taken in turn), more
 * than half are busy: then the fastest runs are the odd ones.  Runs
 * taken in turn are capped by pairs (leave_out_busy_runs).
 */
static size_t busy_runs(const struct side_data *d, double lo, bool cap, bool *busy)
{
	size_t i, n = 0;

	for (i = 0; i < d->runs.n; i++) {
		busy[i] = d->runs.n >= 3 && isfinite(lo) && i < d->run_ref.n &&
			  d->run_ref.v[i] > (1 + BUSY_PROBE) * lo;
		n += busy[i];
	}
	if (cap && 2 * n > d->runs.n) {
		memset(busy, 0, d->runs.n * sizeof(*busy));
		n = 0;
	}
	return n;
}

/*
 * Leave out the runs taken while the host was busy (BUSY_PROBE), and
 * collect the sides again without them.  Runs taken in turn go by pairs,
 * both runs of a pair, so that the rest are still pairs; at most half of
 * the pairs go.  c->left_out_*: how many runs of each side went.
 */
static void leave_out_busy_runs(const struct pm_side *old, const struct pm_side *new,
				const char *name, struct side_data *a, struct side_data *b,
				struct pm_bench_cmp *c)
{
	bool *ba = pm_xcalloc(a->runs.n + 1, sizeof(*ba));
	bool *bb = pm_xcalloc(b->runs.n + 1, sizeof(*bb));
	double lo = fmin(fastest_probe(a), fastest_probe(b)), *d;
	bool paired = taken_in_turn(a, b, &d, NULL);
	size_t na = busy_runs(a, lo, !paired, ba), nb = busy_runs(b, lo, !paired, bb), i;

	free(d);
	if ((na || nb) && paired) {
		size_t n = a->runs.n, *ia = by_time(a), *ib = by_time(b), pairs = 0;

		for (i = 0; i < n; i++)
			if (ba[ia[i]] || bb[ib[i]]) {
				ba[ia[i]] = bb[ib[i]] = true;
				pairs++;
			}
		na = nb = 2 * pairs > n ? 0 : pairs;
		if (!na) {
			memset(ba, 0, n * sizeof(*ba));
			memset(bb, 0, n * sizeof(*bb));
		}
		c->left_out_paired = na > 0;
		free(ia);
		free(ib);
	}
	if (na || nb) {
		side_free(a);
		side_free(b);
		side_collect_skip(old, name, ba, a);
		side_collect_skip(new, name, bb, b);
	}
	c->left_out_old = a->left_out;
	c->left_out_new = b->left_out;
	free(ba);
	free(bb);
}

/* The probes of all runs of both sides spread by more than BUSY_PROBE
 * (all known): the host ran at more than one speed.  *range: slowest
 * over fastest. */
static bool probe_moved(const struct side_data *a, const struct side_data *b, double *range)
{
	const struct side_data *side[2] = { a, b };
	double lo = INFINITY, hi = 0;
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < side[k]->runs.n; i++) {
			double p = i < side[k]->run_ref.n ? side[k]->run_ref.v[i] : NAN;

			if (!(p > 0))
				return false;
			lo = fmin(lo, p);
			hi = fmax(hi, p);
		}
	*range = hi / lo;
	return hi > (1 + BUSY_PROBE) * lo;
}

/* Signed ranks of d_i - slope x_i. */
static int signed_rank_adjusted(const double *d, const double *x, size_t n, double slope,
				double level, struct pm_signed_rank *sr)
{
	double *e = pm_xcalloc(n, sizeof(*e));
	size_t i;
	int err;

	for (i = 0; i < n; i++)
		e[i] = d[i] - slope * x[i];
	err = pm_signed_rank(e, n, level, sr);
	free(e);
	return err;
}

/*
 * Pairs whose runs saw the host at different speeds: d_i, the log ratio
 * of pair i, carries x_i, the log ratio of its probes, times how much the
 * benchmark feels the host's speed (under TCG on this shared host,
 * page-walk ran 1.9 times slower when the probe ran 1.4 times).  Fit
 * d_i = delta + slope x_i with the Theil-Sen slope (a pair far off the
 * line moves it by one place) and compare d_i - slope x_i by signed
 * ranks: delta is the change at equal host speed.  Not knowing the slope
 * exactly moves the estimate by half the distance between the estimates
 * at the ends of the slope's interval; that is added to each side of the
 * signed-rank interval in quadrature (independent errors, same level).
 */
static int compare_adjusted(const double *d, const double *x, size_t n, double level,
			    struct pm_signed_rank *sr, double *slope)
{
	struct pm_slope sl;
	struct pm_signed_rank at_lo, at_hi;
	double shift;

	if (pm_theil_sen(x, d, n, level, &sl) || !isfinite(sl.lo) || !isfinite(sl.hi) ||
	    signed_rank_adjusted(d, x, n, sl.slope, level, sr) ||
	    signed_rank_adjusted(d, x, n, sl.lo, level, &at_lo) ||
	    signed_rank_adjusted(d, x, n, sl.hi, level, &at_hi))
		return -EINVAL;
	shift = fabs(at_hi.estimate - at_lo.estimate) / 2;
	sr->lo = sr->estimate - hypot(sr->estimate - sr->lo, shift);
	sr->hi = sr->estimate + hypot(sr->hi - sr->estimate, shift);
	/* the p-value, as the interval, must not forget the slope's doubt */
	sr->p = fmax(sr->p, fmax(at_lo.p, at_hi.p));
	*slope = sl.slope;
	return 0;
}

/*
 * The adjustment assumes the probe measures the host and nothing of the
 * code compared.  Check it where the host was alike: in the pairs whose
 * probes are within BUSY_PROBE of each other, the probes must agree to
 * PROBE_SAME (their median log ratio), and there must be 3 such pairs
 * to tell.  A kernel that slowed the probe itself (interrupts, a timer)
 * would otherwise have that taken out of the benchmark, 1.9 times over.
 */
#define PROBE_SAME 0.02

static bool probe_measures_host(const double *x, size_t n)
{
	double *v = pm_xcalloc(n + 1, sizeof(*v));
	size_t i, k = 0;
	bool ok;

	for (i = 0; i < n; i++)
		if (fabs(x[i]) < log1p(BUSY_PROBE))
			v[k++] = x[i];
	ok = k >= 3 && fabs(pm_median(v, k)) <= log1p(PROBE_SAME);
	free(v);
	return ok;
}

/*
 * Runs taken in turn, enough pairs for an interval at c->level (8 at
 * 99%): compare them pair by pair, by signed ranks, which weigh a pair
 * that drifted far (a busy minute) as one rank.  When the host ran at
 * several speeds (probe_moved) and the probe measured only the host
 * (probe_measures_host), at equal host speed (compare_adjusted); when
 * that cannot be had (too few pairs for the slope's interval, more than
 * PM_SIGNED_RANK_MAX), as they are.
 */
static void compare_paired(struct pm_bench_cmp *c, const struct side_data *a,
			   const struct side_data *b)
{
	struct pm_signed_rank sr;
	size_t n = a->runs.n, i;
	double *d, *x, slope, range;

	if (c->unit != PM_UNIT_RUNS || n < 2 || !taken_in_turn(a, b, &d, &x))
		return;
	if (n <= PM_SIGNED_RANK_MAX && probe_moved(a, b, &range) && probe_measures_host(x, n) &&
	    compare_adjusted(d, x, n, c->level, &sr, &slope) == 0 && isfinite(sr.lo)) {
		c->probe_adjusted = true;
		c->probe_slope = slope;
		c->probe_range = range;
		for (i = 0; i < n; i++)
			d[i] -= slope * x[i];
	} else if (!(n <= PM_SIGNED_RANK_MAX && pm_signed_rank(d, n, c->level, &sr) == 0 &&
		     isfinite(sr.lo))) {
		free(d);
		free(x);
		return;
	}
	c->paired = true;
	c->ratio = exp(sr.estimate);
	c->med_new = c->med_old * c->ratio;
	c->ci_low = exp(sr.lo);
	c->ci_high = exp(sr.hi);
	c->p_value = sr.p;
	c->unit_sd = sd_of(d, n) / sqrt(2);
	free(d);
	free(x);
}

/* pmbench ab ran the pairs' runs at once, side by side (its pairing). */
static bool taken_at_once(const struct pm_side *s)
{
	const char *p = s->nruns ? json_string_value(json_object_get(json_object_get(
		json_object_get(s->runs[0].options, "ab"), "experiment"), "pairing")) : NULL;

	return p && !strcmp(p, "duet");
}

/* Both sides are one pmbench ab experiment's (its id on every run). */
static bool one_experiment(const struct pm_side *old, const struct pm_side *new)
{
	const struct pm_side *s[2] = { old, new };
	const char *id = NULL;
	size_t k, i;

	for (k = 0; k < 2; k++)
		for (i = 0; i < s[k]->nruns; i++) {
			const char *x = json_string_value(json_object_get(json_object_get(
				json_object_get(s[k]->runs[i].options, "ab"), "experiment"), "id"));

			if (!x || (id && strcmp(id, x)))
				return false;
			id = x;
		}
	return id != NULL;
}

/* The spread of the pairs at equal host speed: sd of d_i - slope x_i. */
static double adjusted_sd(const double *d, const double *x, size_t n, double slope)
{
	double *e = pm_xcalloc(n, sizeof(*e)), sd;
	size_t i;

	for (i = 0; i < n; i++)
		e[i] = d[i] - slope * x[i];
	sd = sd_of(e, n);
	free(e);
	return sd;
}

/*
 * The sequential decision on d_i - slope x_i (in d, on return), at the
 * Theil-Sen slope and at both ends of its interval: a verdict the three
 * do not share is left undecided.  -EINVAL when no decision can be had.
 */
static int seq_adjusted(double *d, const double *x, size_t n, const struct pm_slope *sl,
			double floor, double alpha, struct pm_seq_result *r)
{
	double *e = pm_xcalloc(n, sizeof(*e)), ends[2] = { sl->lo, sl->hi };
	enum pm_seq_verdict say[2];
	struct pm_seq_result at;
	size_t i, k;
	int err = 0;

	for (k = 0; k < 2 && !err; k++) {
		for (i = 0; i < n; i++)
			e[i] = d[i] - ends[k] * x[i];
		err = pm_seq_decide(e, n, floor, alpha, &at);
		say[k] = at.verdict;
	}
	free(e);
	if (err)
		return err;
	for (i = 0; i < n; i++)
		d[i] -= sl->slope * x[i];
	err = pm_seq_decide(d, n, floor, alpha, r);
	if (!err && r->verdict != PM_SEQ_UNDECIDED &&
	    (say[0] != r->verdict || say[1] != r->verdict)) {
		r->verdict = PM_SEQ_UNDECIDED;
		if (!r->more)
			r->more = 1;
	}
	return err;
}

static void sequential_settle(struct pm_bench_cmp *c, const struct pm_seq_result *r)
{
	if (r->more == SIZE_MAX)
		c->settle = pm_xasprintf("%zu pairs, ±%.1f%% a pair: more than %d pairs would be "
					 "needed at this spread (a quieter host, or fewer "
					 "benchmarks a run)", r->n, 100 * expm1(r->sd),
					 PM_SEQ_MAX_PAIRS);
	else
		c->settle = pm_xasprintf("about %zu more pairs would decide it (%zu so far, "
					 "±%.1f%% a pair)", r->more, r->n, 100 * expm1(r->sd));
}

/* Pairs in the order taken: each pair's log ratio d, its probes' log
 * ratio x, and A's and B's probes (NAN unknown). */
struct pairs {
	double *d, *x, *pa, *pb;
	size_t n;
};

static bool pairs_in_turn(const struct side_data *a, const struct side_data *b,
			  struct pairs *p)
{
	size_t i, *ia, *ib;

	memset(p, 0, sizeof(*p));
	if (!taken_in_turn(a, b, &p->d, &p->x))
		return false;
	p->n = a->runs.n;
	p->pa = pm_xcalloc(p->n, sizeof(*p->pa));
	p->pb = pm_xcalloc(p->n, sizeof(*p->pb));
	ia = by_time(a);
	ib = by_time(b);
	for (i = 0; i < p->n; i++) {
		p->pa[i] = a->run_ref.v[ia[i]];
		p->pb[i] = b->run_ref.v[ib[i]];
	}
	free(ia);
	free(ib);
	return true;
}

static void pairs_free(struct pairs *p)
{
	free(p->d);
	free(p->x);
	free(p->pa);
	free(p->pb);
}

/* The first k pairs' probes spread by more than BUSY_PROBE (as
 * probe_moved); *range: slowest over fastest. */
static bool pairs_probe_moved(const struct pairs *p, size_t k, double *range)
{
	double lo = INFINITY, hi = 0;
	size_t i;

	for (i = 0; i < k; i++) {
		if (!(p->pa[i] > 0) || !(p->pb[i] > 0))
			return false;
		lo = fmin(lo, fmin(p->pa[i], p->pb[i]));
		hi = fmax(hi, fmax(p->pa[i], p->pb[i]));
	}
	*range = hi / lo;
	return hi > (1 + BUSY_PROBE) * lo;
}

/* What the sequential rule says of the first k pairs. */
struct seq_judged {
	struct pm_seq_result r;
	bool adjusted;
	double slope, range;
};

/*
 * Boots at different host speeds, a probe that measured only the host:
 * each pair at equal host speed, as compare_paired does (under TCG here
 * this halved the spread of page-walk's pairs).  The slope comes from
 * the same pairs: taken only where it narrows the pairs' spread by a
 * fifth, and the verdict must hold at both ends of its interval, or it
 * stays open.
 */
static int seq_judge(const struct pairs *p, size_t k, const struct pm_explain_opts *o,
		     struct seq_judged *j)
{
	double *d = pm_xcalloc(k + 1, sizeof(*d));
	struct pm_slope sl;
	int err;

	memcpy(d, p->d, k * sizeof(*d));
	j->range = 1;
	j->adjusted = false;
	j->slope = NAN;
	if (k >= 6 && pairs_probe_moved(p, k, &j->range) && probe_measures_host(p->x, k) &&
	    pm_theil_sen(p->x, d, k, o->level, &sl) == 0 && isfinite(sl.lo) && isfinite(sl.hi) &&
	    adjusted_sd(d, p->x, k, sl.slope) < 0.8 * sd_of(d, k) &&
	    seq_adjusted(d, p->x, k, &sl, log1p(o->noise_floor), 1 - o->level, &j->r) == 0) {
		j->adjusted = true;
		j->slope = sl.slope;
		free(d);
		return 0;
	}
	err = pm_seq_decide(d, k, log1p(o->noise_floor), 1 - o->level, &j->r);
	free(d);
	return err;
}

/*
 * Pairs of one ab experiment (or --sequential): its verdict is the
 * sequential one ab stopped on (stats/seq.h), so that ab and explain
 * say the same: ab judges all pairs after every pair and records each
 * benchmark's verdict as it stands.  The pairing takes the host's drift
 * and contention out; no pair is left out for a busy host, and what else
 * ran in a guest belongs to the kernel compared.  false when the runs
 * are not pairs.
 */
static bool compare_sequential(struct pm_bench_cmp *c, struct side_data *a,
			       struct side_data *b, const struct pm_explain_opts *o)
{
	struct seq_judged all, *use = &all;
	struct pairs p;
	size_t n = a->runs.n;

	if (n < 2 || !pairs_in_turn(a, b, &p))
		return false;
	if (seq_judge(&p, n, o, &all)) {
		pairs_free(&p);
		return false;
	}
	c->probe_adjusted = use->adjusted;
	c->probe_slope = use->slope;
	c->probe_range = use->range;
	c->ref_old = a->first;
	c->ref_new = b->first;
	c->higher_is_better = pm_bench_higher_is_better(c->ref_old);
	c->runs_old = a->runs.n;
	c->runs_new = b->runs.n;
	c->rounds_old = a->rounds.n;
	c->rounds_new = b->rounds.n;
	c->converged_old = a->converged;
	c->converged_new = b->converged;
	c->ref_ratio = vec_median(&b->refs) / vec_median(&a->refs);
	c->busy = (struct pm_pair){ vec_mean(&a->busy), vec_mean(&b->busy) };
	c->waited = (struct pm_pair){ vec_mean(&a->waited), vec_mean(&b->waited) };
	c->others = (struct pm_pair){ vec_mean(&a->others), vec_mean(&b->others) };
	c->raw_ratio = use->r.ratio;
	c->unit = PM_UNIT_RUNS;
	c->by_runs = c->paired = c->sequential = true;
	c->n_old = c->n_new = n;
	c->margin = o->noise_floor;
	c->ratio = use->r.ratio;
	c->ci_low = use->r.ratio_lo;
	c->ci_high = use->r.ratio_hi;
	c->p_value = NAN;
	c->unit_sd = use->r.sd / sqrt(2);
	c->med_old = pm_geomean(a->runs.v, n);
	c->med_new = c->med_old * use->r.ratio;
	c->spread_old = c->spread_new = expm1(use->r.sd);
	c->rel_ci_old = side_rel_ci(&a->runs, c->level);
	c->rel_ci_new = side_rel_ci(&b->runs, c->level);
	c->verdict = use->r.verdict == PM_SEQ_REGRESSION ? PM_REGRESSION :
		     use->r.verdict == PM_SEQ_IMPROVEMENT ? PM_IMPROVEMENT :
		     use->r.verdict == PM_SEQ_SAME ? PM_NO_CHANGE : PM_INCONCLUSIVE;
	if (c->verdict == PM_INCONCLUSIVE)
		sequential_settle(c, &use->r);
	pairs_free(&p);
	return true;
}

/*
 * The units compared at equal host speed (probe_slope): runs of one a
 * side against the history by the history's slope, the rounds of one run
 * a side by their own.  Each unit less the slope times its probe's log
 * ratio to OLD's typical probe, so OLD keeps its figure.  *ua, *ub point
 * at aa, ab when adjusted.
 */
static void equal_speed(struct pm_bench_cmp *c, const struct side_data *pa,
			const struct side_data *pb, bool use_prior, const struct vec **ua,
			const struct vec **ub, struct vec *aa, struct vec *ab)
{
	size_t i, n = (*ua)->n + (*ub)->n, k;
	double slope = NAN, ref = 0, raw, adj, *v, *x;
	enum host_cov cov = COV_PROBE;
	size_t *g;
	bool rounds = c->unit == PM_UNIT_ROUNDS;

	if (!(rounds || (c->unit == PM_UNIT_RUNS && use_prior && !isnan(c->prior_slope))))
		return;
	if ((rounds ? pa->round_ref.n : pa->run_ref.n) != (*ua)->n ||
	    (rounds ? pb->round_ref.n : pb->run_ref.n) != (*ub)->n)
		return;
	v = pm_xcalloc(n + 1, sizeof(*v));
	x = pm_xcalloc(n + 1, sizeof(*x));
	g = pm_xcalloc(n + 1, sizeof(*g));
	for (k = 0; k < 2 && isnan(slope); k++) {
		cov = rounds ? (enum host_cov)k : (enum host_cov)c->prior_cov;
		if (cov == COV_WAITED && !single_process(c))
			break;
		for (i = 0; i < n; i++) {
			bool b = i >= (*ua)->n;
			size_t j = b ? i - (*ua)->n : i;
			const struct side_data *d = b ? pb : pa;

			v[i] = (b ? *ub : *ua)->v[j];
			x[i] = rounds ? cov_of(cov, d->round_ref.v[j], d->round_waited.v[j]) :
			       cov_of(cov, d->run_ref.v[j], d->run_waited.v[j]);
			g[i] = b;
		}
		if (!rounds)
			slope = c->prior_slope;
		else if (!host_slope(v, x, g, n, cov_moved(cov), c->level, &slope, &raw, &adj))
			slope = NAN;
		if (!rounds)
			break;
	}
	for (i = 0; !isnan(slope) && i < n; i++)
		if (!isfinite(x[i]))
			slope = NAN;
	if (!isnan(slope)) {
		double lo = INFINITY, hi = -INFINITY;

		for (i = 0; i < (*ua)->n; i++)
			ref += x[i] / (double)(*ua)->n;
		memset(aa, 0, sizeof(*aa));
		memset(ab, 0, sizeof(*ab));
		for (i = 0; i < n; i++) {
			vec_push(i < (*ua)->n ? aa : ab, v[i] * exp(slope * (ref - x[i])));
			lo = fmin(lo, x[i]);
			hi = fmax(hi, x[i]);
		}
		*ua = aa;
		*ub = ab;
		c->probe_adjusted = true;
		c->probe_slope = slope;
		c->adjusted_by = (int)cov;
		c->probe_range = cov == COV_PROBE ? exp(hi - lo) : hi - lo;
	}
	free(v);
	free(x);
	free(g);
}

/* Runs not taken as pairs of one experiment: the units each side has. */
static void compare_samples(struct pm_bench_cmp *c, const struct pm_side *old,
			    const struct pm_side *new, const char *name,
			    const struct pm_explain_opts *o, struct side_data *pa,
			    struct side_data *pb)
{
	const struct vec *ua, *ub;
	struct vec aa = { 0 }, ab = { 0 };
	struct pm_log_cmp lc;
	double min_var = 0, prior_ss, prior_df;
	bool use_prior;

	leave_out_busy_runs(old, new, name, pa, pb, c);
	c->ref_old = pa->first;
	c->ref_new = pb->first;
	c->measured = c->ref_old->measured;
	c->higher_is_better = pm_bench_higher_is_better(c->ref_old);
	c->runs_old = pa->runs.n;
	c->runs_new = pb->runs.n;
	c->rounds_old = pa->rounds.n;
	c->rounds_new = pb->rounds.n;
	c->unit = choose_unit(pa, pb, o, &c->margin);
	spread_collect(o->spread, old, new, name, c, &prior_ss);
	/*
	 * Three runs of a group at least (2 degrees of freedom) before the
	 * spread they show is trusted.  A side of one run is then compared
	 * as a run, against how much runs differ here; the single-run margin
	 * still applies (the minute may differ from those of the history).
	 */
	use_prior = c->prior_df >= 2 && pa->runs.n && pb->runs.n;
	if (use_prior && c->unit == PM_UNIT_ROUNDS)
		c->unit = PM_UNIT_RUNS;
	else if (c->unit != PM_UNIT_RUNS)
		use_prior = false;
	if (!use_prior)
		c->prior_runs = 0;
	c->prior_from = o->spread_name ? o->spread_name : "other runs";
	c->by_runs = c->unit == PM_UNIT_RUNS;
	ua = side_units(pa, c->unit);
	ub = side_units(pb, c->unit);
	equal_speed(c, pa, pb, use_prior, &ua, &ub, &aa, &ab);
	c->n_old = ua->n;
	c->n_new = ub->n;
	c->converged_old = pa->converged;
	c->converged_new = pb->converged;
	c->spread_old = spread_of(ua);
	c->spread_new = spread_of(ub);
	/* one run: the spread runs show here stands for its own */
	if (use_prior && ua->n < 2)
		c->spread_old = expm1(c->prior_sd);
	if (use_prior && ub->n < 2)
		c->spread_new = expm1(c->prior_sd);
	c->rel_ci_old = side_rel_ci(ua, c->level);
	c->rel_ci_new = side_rel_ci(ub, c->level);
	if (isnan(c->rel_ci_old))
		c->rel_ci_old = 0;
	if (isnan(c->rel_ci_new))
		c->rel_ci_new = 0;
	c->ref_ratio = vec_median(&pb->refs) / vec_median(&pa->refs);
	c->busy.old = vec_mean(&pa->busy);
	c->busy.new = vec_mean(&pb->busy);
	c->waited.old = vec_mean(&pa->waited);
	c->waited.new = vec_mean(&pb->waited);
	c->others.old = vec_mean(&pa->others);
	c->others.new = vec_mean(&pb->others);
	c->med_old = pm_geomean(ua->v, ua->n);
	c->med_new = pm_geomean(ub->v, ub->n);
	c->p_rank = pm_mann_whitney(ua->v, ua->n, ub->v, ub->n, NULL);
	/*
	 * A run's value is a mean of its rounds, so its variance is at least
	 * the rounds' variance over their number (times 1.5: the mean of the
	 * faster half of 3 to 10 normal values varies 1.2-1.5 times as much
	 * as the mean of all), which the rounds of all runs estimate well:
	 * three runs that agree by chance do not make a certain change.
	 * Not with the history's spread: its runs' values carry their
	 * rounds' spread already, and a round the value leaves out (a busy
	 * second, +20%) would count again here.
	 */
	if (c->unit == PM_UNIT_RUNS && !use_prior && pa->within_df + pb->within_df > 0)
		min_var = 1.5 * (pa->within_ss + pb->within_ss) / (pa->within_df + pb->within_df) /
			  ((double)(pa->rounds.n + pb->rounds.n) / (double)(pa->runs.n + pb->runs.n));
	/* capped, the history keeps its spread (ss scaled with the df) */
	if (use_prior && c->prior_df > PRIOR_DF_MAX) {
		prior_ss *= PRIOR_DF_MAX / c->prior_df;
		prior_df = PRIOR_DF_MAX;
	} else {
		prior_df = use_prior ? c->prior_df : 0;
	}
	if (pm_log_ratio_t_prior(ua->v, ua->n, ub->v, ub->n, c->level, min_var,
				 use_prior ? prior_ss : 0, prior_df, &lc) == 0) {
		c->ratio = lc.ratio;
		c->unit_sd = lc.sd;
		c->ci_low = lc.lo;
		c->ci_high = lc.hi;
		c->p_value = lc.p;
	} else {
		/* single figures on both sides: a ratio, no interval */
		c->ratio = c->med_new / c->med_old;
		c->ci_low = c->ci_high = c->p_value = c->unit_sd = NAN;
	}
	free(aa.v);
	free(ab.v);
	compare_paired(c, pa, pb);
}

void pm_compare_bench(struct pm_bench_cmp *c, const struct pm_side *old,
		      const struct pm_side *new, const char *name,
		      const struct pm_explain_opts *o)
{
	struct side_data a, b;
	double fig_old, fig_new;

	c->name = pm_xstrdup(name);
	c->level = o->level;
	side_collect(old, name, &a);
	side_collect(new, name, &b);
	/* the figures of every other view (results/figure.c): the geometric
	 * mean of the runs' figures, every run (also one left out of the
	 * comparison below for a busy host) */
	fig_old = a.runs.n ? pm_geomean(a.runs.v, a.runs.n) : NAN;
	fig_new = b.runs.n ? pm_geomean(b.runs.v, b.runs.n) : NAN;
	if (!(o->sequential || one_experiment(old, new)) || !a.first || !b.first ||
	    a.first->measured || !compare_sequential(c, &a, &b, o))
		compare_samples(c, old, new, name, o, &a, &b);
	c->at_once = c->paired && one_experiment(old, new) && taken_at_once(new);
	c->figure = (struct pm_pair){ fig_old, fig_new };
	side_free(&a);
	side_free(&b);
	if (c->ref_old && c->ref_new)
		c->exercises = c->ref_old->exercises | c->ref_new->exercises;
	if (c->sequential)
		return;
	c->raw_ratio = c->ratio;

	if (c->measured) {
		c->verdict = c->ratio == 1 ? PM_NO_CHANGE : PM_CHANGED;
		return;
	}
	/* no time per op on a side (an overhead subtracted larger than the
	 * operation): nothing to compare, whatever the interval says */
	if (!(c->med_old > 0) || !(c->med_new > 0) || !(c->ratio > 0) || !isfinite(c->ratio)) {
		c->verdict = PM_INCONCLUSIVE;
		c->settle = pm_xstrdup("nothing: a side has no time per operation (the overhead "
				       "subtracted is as large as the operation); the benchmark "
				       "cannot be compared");
		return;
	}
	/* Times per op: > 1 is slower, whatever the table's unit. */
	c->verdict = verdict_of(c, o->noise_floor);
	if (c->verdict == PM_INCONCLUSIVE)
		c->settle = settle_advice(c, o->noise_floor);
}

static bool cpu_differs(const struct pm_explanation *x)
{
	static const enum pm_fp_key keys[] = {
		PM_FP_CPU_MODEL_NAME, PM_FP_CPU_VENDOR, PM_FP_CPU_FAMILY, PM_FP_CPU_MODEL,
		PM_FP_CPU_MAX_MHZ, PM_FP_CPU_GOVERNOR, PM_FP_CPU_MICROCODE,
		PM_FP_HYPERVISOR_VENDOR, PM_FP_HOSTNAME,
	};
	const struct pm_fp_diff *mhz = pm_fp_find(x, PM_FP_CPU_CUR_MHZ);
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(keys); i++)
		if (pm_fp_find(x, keys[i]))
			return true;
	return mhz && fabs(strtod(mhz->new, NULL) / strtod(mhz->old, NULL) - 1) > 0.05;
}

/* Same kernel, same CPU, same settings: only the time of day differs. */
static bool same_fingerprint(const struct pm_explanation *x)
{
	size_t i;

	for (i = 0; i < x->ndiffs; i++)
		if (strcmp(x->diffs[i].key, pm_fp_key(PM_FP_CPU_CUR_MHZ)) || cpu_differs(x))
			return false;
	return true;
}

/* Total variation distance between the two sides' symbol shares. */
static double profile_distance(const struct pm_bench_cmp *c)
{
	double d = 0;
	size_t i;

	for (i = 0; i < c->nsyms; i++)
		d += fabs(c->syms[i].new_share - c->syms[i].old_share);
	return d / 2;
}

/* Time stretch NEW/OLD that a difference in competition could cause. */
static double share_busy(double b, double cpus)
{
	return fmin(1, cpus / (1 + b));
}

static double share_others(double o, double cpus)
{
	return fmax(fmin(1, cpus * (1 - o)), 0.05);
}

/* Could a difference in competition explain c's change?  If so, make it
 * inconclusive, say why and return true. */
/* Runs in a guest pmbench ab booted: whatever else ran there is the
 * kernel compared (its threads, its interrupts), no competition. */
static bool in_ab_guests(const struct pm_explanation *x)
{
	const struct pm_side *s[2] = { x->old, x->new };
	size_t k, i;

	if (x->opts.guests)
		return true;
	for (k = 0; k < 2; k++)
		for (i = 0; i < s[k]->nruns; i++) {
			const json_t *ab = json_object_get(s[k]->runs[i].options, "ab");

			if (!ab || json_is_true(json_object_get(ab, "local")))
				return false;
		}
	return true;
}

static bool contention_explains(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	const json_t *on = pm_sysinfo_at(x->old->runs[0].sysinfo, PM_FP_CPU_ONLINE);
	double cpus = json_is_number(on) ? json_number_value(on) : 1;
	double inner = log(c->ratio > 1 ? c->ci_low : c->ci_high), stretch[3] = { 1, 1, 1 };
	char why[3][256] = { "", "", "" };
	int k;

	if (isnan(inner))
		inner = log(c->ratio);
	if (in_ab_guests(x))
		return false;
	if (!isnan(c->busy.old) && !isnan(c->busy.new) && fabs(c->busy.new - c->busy.old) >= 0.5) {
		stretch[0] = share_busy(c->busy.old, cpus) / share_busy(c->busy.new, cpus);
		snprintf(why[0], sizeof(why[0]), "other runnable tasks averaged %.1f during "
			 "OLD's trials and %.1f during NEW's (/proc/loadavg)",
			 c->busy.old, c->busy.new);
	}
	if (!isnan(c->others.old) && !isnan(c->others.new) &&
	    fabs(c->others.new - c->others.old) >= 0.10) {
		stretch[1] = share_others(c->others.old, cpus) / share_others(c->others.new, cpus);
		snprintf(why[1], sizeof(why[1]), "other work used %.0f%% of the CPUs during "
			 "OLD's trials and %.0f%% during NEW's (/proc/stat)",
			 100 * c->others.old, 100 * c->others.new);
	}
	/* waiting is part of benchmarks whose processes hand work to each
	 * other: only a single process's waiting is competition */
	if (!c->ref_old->placement && !c->ref_old->counters.inherit &&
	    !isnan(c->waited.old) && !isnan(c->waited.new) &&
	    fabs(c->waited.new - c->waited.old) >= 0.05) {
		stretch[2] = (1 - fmin(c->waited.old, 0.95)) / (1 - fmin(c->waited.new, 0.95));
		snprintf(why[2], sizeof(why[2]), "the benchmark waited for a CPU %.0f%% of the "
			 "time during OLD's trials and %.0f%% during NEW's (/proc/PID/schedstat)",
			 100 * c->waited.old, 100 * c->waited.new);
	}
	for (k = 0; k < 3; k++) {
		double ls = log(stretch[k]);

		if (!why[k][0] || ls * inner <= 0 || fabs(inner) > 2 * fabs(ls))
			continue;
		c->verdict = PM_INCONCLUSIVE;
		free(c->settle);
		/* the bound the change was held against, as compared */
		c->settle = pm_xasprintf("runs while the machine is as busy on both sides "
					 "(better: idle): %s, which alone could make it x%.2f "
					 "(twice the stretch of its share of the CPUs, x%.2f: "
					 "several processes feel it more)",
					 why[k], exp(2 * ls), stretch[k]);
		return true;
	}
	return false;
}

/*
 * A whole workload (pmbench stat) runs long enough for competition to
 * show as a share of the CPUs: with B other runnable tasks on N CPUs it
 * gets at worst 1 / max(1, (B + 1) / N) of a CPU.  A change far beyond
 * what the two sides' competition can account for is not put on it.
 */
bool pm_beyond_competition(const struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	const json_t *cpus = pm_sysinfo_at(x->old->runs[0].sysinfo, PM_FP_CPU_ONLINE);
	double n = json_is_integer(cpus) && json_integer_value(cpus) > 0 ?
		   (double)json_integer_value(cpus) : 1;
	double rc = fmax(1, (c->busy.new + 1) / n) / fmax(1, (c->busy.old + 1) / n);

	if (!c->ref_old->workload)
		return false;
	return fabs(log(c->ratio)) > fabs(log(rc)) + log1p(c->margin);
}

/*
 * Did the machine move the run?  Of at least five timed benchmarks,
 * three in five beyond the noise floor one way (the ratio: the median of
 * all), or five and a quarter of them called changed one way, each on
 * its own (the ratio: the median of those).  On a shared host a run can
 * be slower or faster throughout, or in the kinds of operation the
 * host's load reaches: fork, exec, sh, pipe and ctx 22-37% slower
 * together while the system calls held still, the extra time in the
 * hypervisor's interrupt hook.  The machine-speed probe, a loop on
 * registers, sees little of it.  One change of the code or one planted
 * delay moves the benchmarks that use it, seldom five; a kernel change
 * that moves many shows in the fingerprint.
 */
void pm_suite_shift(struct pm_explanation *x)
{
	double floor = x->opts.noise_floor, *all, *up_lr, *down_lr;
	size_t i, n = 0, up = 0, down = 0, called_up = 0, called_down = 0;

	x->suite_dir = 0;
	x->suite_held = false;
	x->suite_moved = x->suite_n = 0;
	x->suite_ratio = NAN;
	all = pm_xcalloc(x->ncmp + 1, sizeof(*all));
	up_lr = pm_xcalloc(x->ncmp + 1, sizeof(*up_lr));
	down_lr = pm_xcalloc(x->ncmp + 1, sizeof(*down_lr));
	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (c->measured || !(c->raw_ratio > 0) || !isfinite(c->raw_ratio))
			continue;
		all[n++] = log(c->raw_ratio);
		up += c->raw_ratio > 1 + floor;
		down += c->raw_ratio < 1 / (1 + floor);
		if (c->verdict == PM_REGRESSION)
			up_lr[called_up++] = log(c->raw_ratio);
		else if (c->verdict == PM_IMPROVEMENT)
			down_lr[called_down++] = log(c->raw_ratio);
	}
	x->suite_n = n;
	/* the median move of all, also when the run did not move */
	x->suite_ratio = n ? exp(pm_median(all, n)) : NAN;
	if (n >= 5 && (5 * up >= 3 * n || 5 * down >= 3 * n)) {
		x->suite_dir = 5 * up >= 3 * n ? 1 : -1;
		x->suite_moved = x->suite_dir > 0 ? up : down;
	} else if (called_up >= 5 && 4 * called_up >= n && called_up >= called_down) {
		x->suite_dir = 1;
		x->suite_moved = called_up;
		x->suite_ratio = exp(pm_median(up_lr, called_up));
	} else if (called_down >= 5 && 4 * called_down >= n) {
		x->suite_dir = -1;
		x->suite_moved = called_down;
		x->suite_ratio = exp(pm_median(down_lr, called_down));
	}
	free(all);
	free(up_lr);
	free(down_lr);
	x->suite_held = x->suite_dir && same_fingerprint(x);
}

/* Identical fingerprints, the machine moved the run this benchmark's
 * way, and this one by at most four times the run's median move (in
 * logarithms): a benchmark that moved far beyond the rest, as one
 * change of the code would, is judged alone.  Four: in the machine's
 * moves of 40 back-to-back quick runs here, fork, exec and sh moved
 * 2.8-3.1 times the median of the whole run, sig-catch 3.6. */
static bool suite_moved_with(const struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	double ls = log(x->suite_ratio), lb = log(c->ratio);

	if (!x->suite_held)
		return false;
	return ls * lb > 0 && 4 * fabs(ls) >= fabs(lb);
}

void pm_adjust_for_machine(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	double r = c->ref_ratio, lr = log(r), lb = log(c->ratio);

	if (c->measured || (c->verdict != PM_REGRESSION && c->verdict != PM_IMPROVEMENT))
		return;
	/*
	 * Competition for the CPUs that differs between the sides changes
	 * the figures by itself (and the profile: caches, page clearing,
	 * scheduling).  Three readings: other runnable tasks (loadavg), the
	 * share of the CPUs other work used (/proc/stat), and, for a
	 * benchmark of one process, the share of time it waited for a CPU.
	 * Each bounds how much slower or faster it could make the benchmark;
	 * a change in that direction and within twice that bound (on the
	 * log scale: multi-process benchmarks feel contention more) cannot
	 * be put on the code.  Equal competition on both sides is judged
	 * like any other spread, by the rounds and runs.
	 */
	if (contention_explains(c, x))
		return;
	if (suite_moved_with(c, x)) {
		c->verdict = PM_INCONCLUSIVE;
		c->machine_note = pm_xasprintf(
			"%zu of the %zu benchmarks compared ran %s between two runs with "
			"identical fingerprints (median move %+.1f%%; this one %+.1f%%): the "
			"machine's state moved the run, which is not a change of the code",
			x->suite_moved, x->suite_n, x->suite_dir > 0 ? "slower" : "faster",
			100 * (x->suite_ratio - 1), 100 * (c->med_new / c->med_old - 1));
		free(c->settle);
		c->settle = pm_xstrdup("several runs per side taken at different times (or "
				       "interleaved, as pmbench ab does), on a quieter host");
		return;
	}
	/*
	 * The machine-speed probe (a fixed user-space loop timed after every
	 * trial) moved in the same direction by at least half as much as the
	 * benchmark, on the same CPU: the machine ran at another speed, which
	 * is not a change of the code.  When it did not move, say that too.
	 */
	if (c->probe_adjusted && c->adjusted_by == 1) {
		c->machine_note = pm_xasprintf(
			"the benchmark waited for a CPU a share of the time that differed by up "
			"to %.0f points between %s; they were compared at equal contention, so "
			"the competition for the CPUs is taken out", 100 * c->probe_range,
			c->unit == PM_UNIT_ROUNDS ? "rounds" : "runs");
		return;
	}
	if (c->probe_adjusted) {
		c->machine_note = pm_xasprintf(
			"the machine-speed probe differed by up to %.0f%% between %s; the %s "
			"were compared at equal host speed (each %s less %.2f times its "
			"probe's), so the machine's speed is taken out",
			100 * (c->probe_range - 1), c->unit == PM_UNIT_ROUNDS ? "rounds" : "runs",
			c->paired ? "pairs" : c->unit == PM_UNIT_ROUNDS ? "rounds" : "runs",
			c->paired ? "pair's difference" : c->unit == PM_UNIT_ROUNDS ?
			"round's value" : "run's value", c->probe_slope);
		return;
	}
	if (isnan(r) || !(r > 0)) {
		c->machine_note = pm_xstrdup("no machine-speed probe on a side (older or "
					     "imported results): a change of the machine's own "
					     "speed cannot be ruled out");
		return;
	}
	if (!cpu_differs(x) && fabs(r - 1) > 0.02 && lr * lb > 0 && fabs(lr) >= 0.5 * fabs(lb)) {
		c->verdict = PM_INCONCLUSIVE;
		c->machine_note = pm_xasprintf(
			"the machine itself ran %.1f%% %s during NEW (a fixed user-space loop timed "
			"after every trial: x%.3f) while the benchmark changed %+.1f%%: that is "
			"the machine's speed, not a change of the code", 100 * fabs(r - 1),
			r > 1 ? "slower" : "faster", r, 100 * (c->med_new / c->med_old - 1));
		free(c->settle);
		c->settle = pm_xstrdup("runs on a machine that keeps its speed (an idle host, a "
				       "fixed CPU frequency), several per side");
		return;
	}
	c->machine_note = pm_xasprintf(
		"the machine-speed probe (a fixed user-space loop timed after every trial) "
		"moved %+.1f%% while the benchmark changed %+.1f%%: not the machine's speed%s",
		100 * (r - 1), 100 * (c->med_new / c->med_old - 1),
		cpu_differs(x) ? " alone (the CPUs differ, see the causes)" : "");
	/*
	 * Old files (one round per run): identical fingerprints and a profile
	 * of the same shape (same symbols in the same proportions, same
	 * kernel/user split) mean the code did not change, the machine's
	 * speed did, in a way the probe missed.
	 */
	if (c->unit == PM_UNIT_TRIALS && same_fingerprint(x) && c->have_hotspots &&
	    profile_distance(c) < 0.08 &&
	    fabs(c->kernel_ns.new / c->med_new - c->kernel_ns.old / c->med_old) < 0.05) {
		c->verdict = PM_INCONCLUSIVE;
		free(c->settle);
		c->settle = pm_xasprintf(
			"rounds in fresh processes and several runs per side: the fingerprints "
			"are identical and the profile has the same shape (distance %.2f), so the "
			"whole benchmark ran %+.1f%% %s: that is the machine's speed varying "
			"between runs, not the code", profile_distance(c), 100 * (c->med_new / c->med_old - 1),
			c->ratio > 1 ? "slower" : "faster");
	}
}
