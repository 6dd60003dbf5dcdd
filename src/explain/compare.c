/*
 * Is it a change?  Each benchmark is compared at the highest level of
 * replication both sides have (pairs of an ab experiment, runs, rounds,
 * trials): the sequential rule for pairs, a t interval of the ratio of
 * geometric means otherwise, with a margin where runs are missing.  One
 * filling of pm_bench_cmp for every way (fill_sides).
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "stats/seq.h"

/*
 * Degrees of freedom the history's spread counts for, at most.  Runs a
 * minute apart share the host's state of that minute (its states last
 * minutes), so sixty runs of an hour are not sixty independent draws:
 * the t quantile stays that of a dozen runs.
 */
#define PRIOR_DF_MAX 10.0

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

bool pm_verdict_changed(enum pm_verdict v)
{
	return v == PM_REGRESSION || v == PM_IMPROVEMENT;
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

/* The finest level both sides can be compared at, and the margin it needs. */
static enum pm_unit choose_unit(const struct pm_units *a, const struct pm_units *b,
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
static double side_rel_ci(const struct pm_vec *u, double level)
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

static double spread_of(const struct pm_vec *u)
{
	return expm1(pm_log_sd(u->v, u->n, NULL));
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
static void compare_paired(struct pm_bench_cmp *c, const struct pm_units *a,
			   const struct pm_units *b)
{
	struct pm_signed_rank sr;
	size_t n = a->runs.n, i;
	double *d, *x, slope, range;

	if (c->unit != PM_UNIT_RUNS || n < 2 || !pm_units_in_turn(a, b, &d, &x))
		return;
	if (n <= PM_SIGNED_RANK_MAX && pm_units_probe_moved(a, b, &range) && probe_measures_host(x, n) &&
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
	c->unit_sd = pm_sd(d, n) / sqrt(2);
	free(d);
	free(x);
}

/* The spread of the pairs at equal host speed: sd of d_i - slope x_i. */
static double adjusted_sd(const double *d, const double *x, size_t n, double slope)
{
	double *e = pm_xcalloc(n, sizeof(*e)), sd;
	size_t i;

	for (i = 0; i < n; i++)
		e[i] = d[i] - slope * x[i];
	sd = pm_sd(e, n);
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
static int seq_judge(const struct pm_pairs *p, size_t k, const struct pm_explain_opts *o,
		     struct seq_judged *j)
{
	double *d = pm_xcalloc(k + 1, sizeof(*d));
	struct pm_slope sl;
	int err;

	memcpy(d, p->d, k * sizeof(*d));
	j->range = 1;
	j->adjusted = false;
	j->slope = NAN;
	if (k >= 6 && pm_pairs_probe_moved(p, k, &j->range) && probe_measures_host(p->x, k) &&
	    pm_theil_sen(p->x, d, k, o->level, &sl) == 0 && isfinite(sl.lo) && isfinite(sl.hi) &&
	    adjusted_sd(d, p->x, k, sl.slope) < 0.8 * pm_sd(d, k) &&
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
 * What the sides are, whichever way they are compared: their first
 * results (for metadata), how many runs and rounds, whether they reached
 * their targets, and the host's state during their trials.
 */
static void fill_sides(struct pm_bench_cmp *c, const struct pm_units *a,
		       const struct pm_units *b)
{
	c->ref_old = a->first;
	c->ref_new = b->first;
	c->measured = c->ref_old->measured;
	c->higher_is_better = pm_bench_higher_is_better(c->ref_old);
	c->runs_old = a->runs.n;
	c->runs_new = b->runs.n;
	c->rounds_old = a->rounds.n;
	c->rounds_new = b->rounds.n;
	c->converged_old = a->converged;
	c->converged_new = b->converged;
	c->ref_ratio = pm_vec_median(&b->refs) / pm_vec_median(&a->refs);
	c->busy = (struct pm_pair){ pm_vec_mean(&a->busy), pm_vec_mean(&b->busy) };
	c->waited = (struct pm_pair){ pm_vec_mean(&a->waited), pm_vec_mean(&b->waited) };
	c->others = (struct pm_pair){ pm_vec_mean(&a->others), pm_vec_mean(&b->others) };
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
static bool compare_sequential(struct pm_bench_cmp *c, struct pm_units *a,
			       struct pm_units *b, const struct pm_explain_opts *o)
{
	struct seq_judged all, *use = &all;
	struct pm_pairs p;
	size_t n = a->runs.n;

	if (n < 2 || !pm_pairs_in_turn(a, b, &p))
		return false;
	if (seq_judge(&p, n, o, &all)) {
		pm_pairs_free(&p);
		return false;
	}
	c->probe_adjusted = use->adjusted;
	c->probe_slope = use->slope;
	c->probe_range = use->range;
	fill_sides(c, a, b);
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
	pm_pairs_free(&p);
	return true;
}

/* Runs not taken as pairs of one experiment: the units each side has. */
/* Each side's count, spread, interval and geometric mean, and the rank
 * test between them. */
static void describe_sides(struct pm_bench_cmp *c, const struct pm_vec *ua,
			   const struct pm_vec *ub, bool use_prior)
{
	c->n_old = ua->n;
	c->n_new = ub->n;
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
	c->med_old = pm_geomean(ua->v, ua->n);
	c->med_new = pm_geomean(ub->v, ub->n);
	c->p_rank = pm_mann_whitney(ua->v, ua->n, ub->v, ub->n, NULL);
}

static void compare_samples(struct pm_bench_cmp *c, const struct pm_side *old,
			    const struct pm_side *new, const char *name,
			    const struct pm_explain_opts *o, struct pm_units *pa,
			    struct pm_units *pb)
{
	const struct pm_vec *ua, *ub;
	struct pm_vec aa = { 0 }, ab = { 0 };
	struct pm_log_cmp lc;
	double min_var = 0, prior_ss, prior_df;
	bool use_prior;

	pm_units_leave_out_busy(old, new, name, pa, pb, c);
	fill_sides(c, pa, pb);
	c->unit = choose_unit(pa, pb, o, &c->margin);
	pm_spread_collect(o->spread, old, new, name, c, &prior_ss);
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
	ua = pm_units_of(pa, c->unit);
	ub = pm_units_of(pb, c->unit);
	pm_equal_speed(c, pa, pb, use_prior, &ua, &ub, &aa, &ab);
	describe_sides(c, ua, ub, use_prior);
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
	struct pm_units a, b;
	double fig_old, fig_new;

	c->name = pm_xstrdup(name);
	c->level = o->level;
	pm_units_collect(old, name, &a);
	pm_units_collect(new, name, &b);
	/* the figures of every other view (results/figure.c): the geometric
	 * mean of the runs' figures, every run (also one left out of the
	 * comparison below for a busy host) */
	fig_old = a.runs.n ? pm_geomean(a.runs.v, a.runs.n) : NAN;
	fig_new = b.runs.n ? pm_geomean(b.runs.v, b.runs.n) : NAN;
	if (!(o->sequential || pm_sides_one_experiment(old, new)) || !a.first || !b.first ||
	    a.first->measured || !compare_sequential(c, &a, &b, o))
		compare_samples(c, old, new, name, o, &a, &b);
	c->at_once = c->paired && pm_sides_one_experiment(old, new) && pm_side_at_once(new);
	c->figure = (struct pm_pair){ fig_old, fig_new };
	pm_units_free(&a);
	pm_units_free(&b);
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
