/* Robust statistics for benchmark trials. */
#ifndef PM_STATS_H
#define PM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct pm_summary {
	size_t n;
	double median;
	double ci_low, ci_high;	/* distribution-free CI of the median */
	double ci_level;	/* achieved confidence, >= the requested one
				 * unless n is too small: then the CI is
				 * min..max and this is its coverage */
	double mean, stddev;
	double min, max;
	double mad;		/* median absolute deviation */
};

/* Sorts a copy; v is left untouched.  n == 0 gives NANs. */
void pm_summarize(const double *v, size_t n, double level,
		  struct pm_summary *s);
double pm_median(const double *v, size_t n);
/* Linear-interpolated quantile of sorted values, q in [0,1]. */
double pm_quantile_sorted(const double *sorted, size_t n, double q);
/* Order-statistic confidence interval for the median of n sorted
 * samples: indices lo..hi (0-based) so that P(x_lo < m < x_hi) >= level.
 * Returns the achieved level, 0 when n is too small. */
double pm_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi);
/* Relative half-width of the CI: max(median-lo, hi-median)/median. */
double pm_summary_rel_halfwidth(const struct pm_summary *s);

/* Deterministic PRNG (xoshiro256**) for bootstrap resampling. */
struct pm_rng {
	uint64_t s[4];
};
void pm_rng_seed(struct pm_rng *r, uint64_t seed);
uint64_t pm_rng_next(struct pm_rng *r);
/* Uniform in [0, n). */
size_t pm_rng_below(struct pm_rng *r, size_t n);

int pm_cmp_double(const void *a, const void *b);

/* ---- comparing two samples (explain) ---- */

/*
 * Bootstrap (percentile) confidence interval of median(b)/median(a),
 * resampling each side independently `reps` times with a fixed seed so
 * results are reproducible.  Returns 0, or -EINVAL for empty input.
 */
int pm_bootstrap_ratio(const double *a, size_t na, const double *b,
		       size_t nb, double level, unsigned reps, uint64_t seed,
		       double *ratio, double *lo, double *hi);

/*
 * Two-sided Mann-Whitney U (Wilcoxon rank-sum) test with tie correction:
 * normal approximation with continuity correction, exact for small
 * samples without ties (na, nb <= 10).  Returns the p-value, NAN when
 * either side is empty.
 */
double pm_mann_whitney(const double *a, size_t na, const double *b,
		       size_t nb, double *u_out);

/* Hodges-Lehmann estimate of the shift b - a (median of pairwise
 * differences). */
double pm_hodges_lehmann(const double *a, size_t na, const double *b,
			 size_t nb);

#endif
