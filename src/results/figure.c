/*
 * The figure of a benchmark: one estimator and one interval, the same in
 * every view (run, show, explain, report, the lmbench layout and the
 * JSON).  Per run, the geometric mean of the faster half of its rounds'
 * medians (pm_bench_run_figure: a busy minute only adds time, to a round
 * or two); over several runs, their geometric mean.  The interval is
 * between the units the figure comes from: runs when there are several,
 * else rounds, else the trials' median interval, else none.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/result.h"
#include "stats/stats.h"

const char *pm_figure_basis_name(enum pm_figure_basis b)
{
	static const char *const names[] = { "runs", "rounds", "trials", "single figure" };

	return names[b];
}

/* The runs of b, in the order they first appear. */
static size_t runs_of(const struct pm_bench_result *b, unsigned *runs)
{
	size_t i, k, n = 0;

	for (i = 0; i < b->nrounds; i++) {
		for (k = 0; k < n && runs[k] != b->rounds[i].run; k++)
			;
		if (k == n)
			runs[n++] = b->rounds[i].run;
	}
	return n;
}

/* value times exp(-+ t sd / sqrt(n)) of the logs of v[0..n). */
static void log_interval(const double *v, size_t n, double value, double level,
			 struct pm_figure *f)
{
	double m = 0, ss = 0, half;
	size_t i;

	for (i = 0; i < n; i++)
		m += log(v[i]) / (double)n;
	for (i = 0; i < n; i++)
		ss += (log(v[i]) - m) * (log(v[i]) - m);
	f->spread = sqrt(ss / (double)(n - 1));
	half = pm_t_quantile(0.5 + level / 2, (double)n - 1) * f->spread / sqrt((double)n);
	f->lo = value * exp(-half);
	f->hi = value * exp(half);
}

/* One run's rounds: their medians (those with a time). */
static size_t round_medians(const struct pm_bench_result *b, unsigned run, double *med)
{
	size_t k, at = 0, n = 0;

	for (k = 0; k < b->nrounds; k++) {
		const struct pm_round *r = &b->rounds[k];

		if (r->run == run && r->ntrials && at + r->ntrials <= b->ntrials) {
			double m = pm_median(b->trials + at, r->ntrials);

			if (m > 0 && isfinite(m))
				med[n++] = m;
		}
		at += r->ntrials;
	}
	return n;
}

double pm_bench_run_figure(const struct pm_bench_result *b, unsigned run)
{
	double *med = pm_xcalloc(b->nrounds + 1, sizeof(*med)), v;
	size_t k, at = 0, n = 0;

	for (k = 0; k < b->nrounds; k++) {
		double m = b->rounds[k].ntrials && at + b->rounds[k].ntrials <= b->ntrials ?
			   pm_median(b->trials + at, b->rounds[k].ntrials) : NAN;

		if (b->rounds[k].run == run && m > 0 && isfinite(m))
			med[n++] = m;
		at += b->rounds[k].ntrials;
	}
	v = n ? pm_geomean_faster_half(med, n) : NAN;
	free(med);
	return v;
}

int pm_bench_figure(const struct pm_bench_result *b, double level, struct pm_figure *f)
{
	unsigned *runs = pm_xcalloc(b->nrounds + 1, sizeof(*runs));
	double *v = pm_xcalloc(b->nrounds + 1, sizeof(*v));
	size_t nr = runs_of(b, runs), i, n = 0;

	memset(f, 0, sizeof(*f));
	f->level = level;
	f->value = f->lo = f->hi = f->spread = NAN;
	if (nr >= 2) {
		for (i = 0; i < nr; i++) {
			double x = pm_bench_run_figure(b, runs[i]);

			if (x > 0 && isfinite(x))
				v[n++] = x;
		}
		f->basis = PM_FIG_RUNS;
	} else if (nr == 1) {
		n = round_medians(b, runs[0], v);
		f->basis = PM_FIG_ROUNDS;
	}
	if (n >= 2) {
		f->n = n;
		f->value = f->basis == PM_FIG_RUNS ? pm_geomean(v, n) :
			   pm_bench_run_figure(b, runs[0]);
		log_interval(v, n, f->value, level, f);
	} else if (b->ntrials >= 2) {
		struct pm_summary t;

		/* the trials' median at this level, recomputed: the file's
		 * summary may be at another; too few trials for it, none */
		pm_summarize(b->trials, b->ntrials, level, &t);
		f->basis = PM_FIG_TRIALS;
		f->n = b->ntrials;
		f->value = n == 1 ? v[0] : t.median;
		if (t.ci_level >= level) {
			f->lo = t.ci_low;
			f->hi = t.ci_high;
		}
	} else {
		f->basis = PM_FIG_SINGLE;
		f->n = b->ntrials;
		f->value = b->ntrials ? b->stats.median : NAN;
	}
	free(runs);
	free(v);
	return f->value > 0 || (b->measured && isfinite(f->value)) ? 0 : -ENODATA;
}

/*
 * The interval of a benchmark's figure: of its trials' median, or wider
 * when its rounds (each in its own process) disagree more than the
 * trials of one process do: t interval of the rounds' medians, at
 * PM_FIGURE_LEVEL.
 */
double pm_bench_rel_ci(const struct pm_bench_result *b)
{
	double ci = pm_summary_rel_halfwidth(&b->stats), *med, r;
	size_t k = b->nrounds;

	if (b->ntrials < 2)
		return NAN;
	if (k < 2 || b->measured)
		return ci;
	med = pm_xcalloc(k, sizeof(*med));
	pm_bench_result_round_medians(b, med);
	/* NAN when a median is not positive: then the trials' interval */
	r = pm_log_t_rel_halfwidth(pm_log_sd(med, k, NULL), k, PM_FIGURE_LEVEL);
	free(med);
	return isnan(ci) || r > ci ? r : ci;
}
