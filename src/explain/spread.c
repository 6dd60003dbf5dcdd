/*
 * How much runs differ here, learnt from other runs taken as the sides'
 * were (the history), and units at equal host speed or contention: the
 * slope of a unit's value on the host's state, within each group.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "sysinfo/sysinfo.h"

/*
 * What a run measured and how: the host, the run settings and the
 * benchmarks (a benchmark alone and in the quick suite, pinned or not,
 * are measured under different conditions).
 */
static char *run_settings_key(const struct pm_result *r)
{
	static const char *const opts[] = { "cpu", "rounds", "max_time_s", "placement" };
	char *key = pm_xstrdup(pm_run_fp(r, PM_FP_HOSTNAME));
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
	char *key = pm_xasprintf("%s\x1f%s\x1f%s", settings, pm_run_fp(r, PM_FP_KERNEL_RELEASE),
				 pm_run_fp(r, PM_FP_KERNEL_CMDLINE));

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
			keys = pm_xgrow(keys, *n, sizeof(*keys));
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
bool pm_single_process(const struct pm_bench_cmp *c)
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
/* The runs of one kind (same settings of the sides, one kernel): each
 * run's value, probe and waited share. */
struct spread_group {
	char *key;
	struct pm_vec v, p, w;
};

/* ref's runs of benchmark name, taken as the sides' were (keys), grouped
 * by kind; *ng groups. */
static struct spread_group *spread_groups(const struct pm_side *ref, const char *name,
					  char **keys, size_t nkeys, size_t *ng_out)
{
	struct spread_group *g = NULL;
	size_t ng = 0, i, j, k;

	for (i = 0; ref && i < ref->nruns; i++) {
		const struct pm_result *r = &ref->runs[i];
		struct pm_side one = { .runs = (struct pm_result *)r, .nruns = 1 };
		struct pm_units d;
		char *key;

		/* the spread of runs taken as the sides' were, of any kernel */
		if (!same_settings(r, keys, nkeys))
			continue;
		key = run_group_key(r);
		pm_units_collect(&one, name, &d);
		for (j = 0; j < ng && strcmp(g[j].key, key); j++)
			;
		if (j == ng) {
			g = pm_xgrow(g, ng, sizeof(*g));
			g[ng].key = key;
			memset(&g[ng].v, 0, sizeof(g[ng].v));
			memset(&g[ng].p, 0, sizeof(g[ng].p));
			memset(&g[ng].w, 0, sizeof(g[ng].w));
			ng++;
		} else {
			free(key);
		}
		for (k = 0; k < d.runs.n; k++) {
			pm_vec_push(&g[j].v, d.runs.v[k]);
			pm_vec_push(&g[j].p, k < d.run_ref.n ? d.run_ref.v[k] : NAN);
			pm_vec_push(&g[j].w, k < d.run_waited.n ? d.run_waited.v[k] : NAN);
		}
		pm_units_free(&d);
	}
	*ng_out = ng;
	return g;
}

void pm_spread_collect(const struct pm_side *ref, const struct pm_side *old,
			   const struct pm_side *new, const char *name,
			   struct pm_bench_cmp *c, double *ss)
{
	struct spread_group *g;
	size_t ng, nkeys, i, j, k;
	char **keys = side_settings_keys(old, new, &nkeys);
	struct pm_vec all_v = { 0 }, all_p = { 0 }, all_w = { 0 };
	size_t *all_g = NULL;

	*ss = 0;
	c->prior_df = 0;
	c->prior_runs = c->prior_groups = 0;
	c->prior_sd = NAN;
	g = spread_groups(ref, name, keys, nkeys, &ng);
	for (j = 0; j < ng; j++) {
		size_t n = g[j].v.n;

		double sd = n >= 2 ? pm_log_sd(g[j].v.v, n, NULL) : NAN;

		if (isfinite(sd)) {
			*ss += sd * sd * (double)(n - 1);
			c->prior_df += (double)(n - 1);
			c->prior_runs += n;
			c->prior_groups++;
			for (k = 0; k < n; k++) {
				pm_vec_push(&all_v, g[j].v.v[k]);
				pm_vec_push(&all_p, cov_of(COV_PROBE, g[j].p.v[k], NAN));
				pm_vec_push(&all_w, cov_of(COV_WAITED, NAN, g[j].w.v[k]));
				all_g = pm_xgrow(all_g, all_v.n - 1, sizeof(*all_g));
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

		if (k == COV_WAITED && !pm_single_process(c))
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
 * The units compared at equal host speed (probe_slope): runs of one a
 * side against the history by the history's slope, the rounds of one run
 * a side by their own.  Each unit less the slope times its probe's log
 * ratio to OLD's typical probe, so OLD keeps its figure.  *ua, *ub point
 * at aa, ab when adjusted.
 */
void pm_equal_speed(struct pm_bench_cmp *c, const struct pm_units *pa,
			const struct pm_units *pb, bool use_prior, const struct pm_vec **ua,
			const struct pm_vec **ub, struct pm_vec *aa, struct pm_vec *ab)
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
		if (cov == COV_WAITED && !pm_single_process(c))
			break;
		for (i = 0; i < n; i++) {
			bool b = i >= (*ua)->n;
			size_t j = b ? i - (*ua)->n : i;
			const struct pm_units *d = b ? pb : pa;

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
			pm_vec_push(i < (*ua)->n ? aa : ab, v[i] * exp(slope * (ref - x[i])));
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
