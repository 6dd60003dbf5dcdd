/* Robust statistics for benchmark trials. */
#ifndef PM_STATS_H
#define PM_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The one confidence level of every interval pmbench shows, writes or
 * decides by: figures, the runner's target, verdicts, experiments.  99%,
 * not 95%: a report compares many benchmarks at once, and at 95% an A/A
 * comparison calls a change several times as often. */
#define PM_LEVEL 0.99

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

/* Deterministic PRNG (xoshiro256**), for reproducible randomness. */
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

/* ---- comparing a few runs or rounds (explain's verdicts) ---- */

/* Student's t distribution: CDF, and the quantile q with P(T <= q) = p. */
double pm_t_cdf(double t, double df);
double pm_t_quantile(double p, double df);
/* Sample standard deviation of the logarithms of n positive values (NAN
 * below 2); their mean into *mean_log when not NULL. */
double pm_log_sd(const double *v, size_t n, double *mean_log);
/* Relative half-width of the Student t interval at level of the geometric
 * mean of n values whose logarithms have standard deviation log_sd:
 * expm1(t(n-1) log_sd / sqrt(n)); NAN below 2 values. */
double pm_log_t_rel_halfwidth(double log_sd, size_t n, double level);
/* The mean of v and the half-width of its Student t interval at level
 * (a run's figure: pmbench stat); half is NAN for fewer than 2 values. */
void pm_mean_ci(const double *v, size_t n, double level, double *mean,
		double *half);
/* Geometric mean; NAN when empty or a value is not positive. */
double pm_geomean(const double *v, size_t n);
/*
 * Geometric mean of the smaller half of v (n/2 values rounded down, 2 of
 * 3, all of 1 or 2): a run's value from its rounds' times.  Interference
 * only adds time, so the slower rounds are the disturbed ones; averaging
 * the faster half keeps the averaging that a minimum would lose.  NAN as
 * pm_geomean.
 */
double pm_geomean_faster_half(const double *v, size_t n);

struct pm_log_cmp {
	double ratio;		/* geomean(b) / geomean(a) */
	double lo, hi;		/* its CI at the requested level */
	double se, df;		/* of the difference of mean logs */
	double sd;		/* of one value's logarithm: pooled, at least sqrt(min_var) */
	double p;		/* two-sided t-test */
	double sd_a, sd_b;	/* standard deviations of the logs (NAN for n < 2) */
};

/*
 * Student's t on logarithms, with the variance pooled over both sides
 * (the same benchmark on the same machine: one spread, estimated from
 * both): the ratio of geometric means of b and a with its interval and
 * p-value, so that a change reads as a factor.  A side holding a single
 * value contributes no variance, only its mean.  min_var is a lower bound
 * for the variance of one value's logarithm, known from elsewhere (the
 * rounds inside the runs compared): a few values can agree by chance.
 * Returns 0, or -EINVAL when both sides have fewer than two values or a
 * value is not positive.
 */
int pm_log_ratio_t(const double *a, size_t na, const double *b, size_t nb,
		   double level, double min_var, struct pm_log_cmp *out);
/*
 * The same, with the spread also learnt from other runs of the same thing
 * (prior_ss: squared deviations of their logs from their groups' means,
 * prior_df: their degrees of freedom), pooled with the sides' own: one
 * value a side can then be compared, with prior_df degrees of freedom.
 */
int pm_log_ratio_t_prior(const double *a, size_t na, const double *b, size_t nb,
			 double level, double min_var, double prior_ss,
			 double prior_df, struct pm_log_cmp *out);

/* Paired differences compared by their signed ranks. */
struct pm_signed_rank {
	double estimate;	/* Hodges-Lehmann: the median of the Walsh averages */
	double lo, hi;		/* its distribution-free interval (-inf/+inf: none) */
	double p;		/* Wilcoxon's two-sided exact p-value */
};

#define PM_SIGNED_RANK_MAX 60

/*
 * Wilcoxon's signed-rank test on d[0..n) (differences of pairs, zeros
 * dropped) with the Hodges-Lehmann estimate and its interval at level,
 * all exact.  A pair that drifted far (a busy minute on a shared host)
 * weighs as one rank, not by its size.  0, or -EINVAL when n is 0 or
 * above PM_SIGNED_RANK_MAX, -ENOMEM.
 */
int pm_signed_rank(const double *d, size_t n, double level, struct pm_signed_rank *out);

/*
 * Samples of one piece of code on two sides: k of n on one side, k2 of
 * n2 on the other.  The chance of k or fewer if it took the same share
 * of the samples on both (the binomial of k + k2 split by n : n2).
 */
double pm_fewer_samples_p(double k, double n, double k2, double n2);

/* A growing array of doubles. */
struct pm_vec {
	double *v;
	size_t n;
};

void pm_vec_push(struct pm_vec *a, double x);
void pm_vec_free(struct pm_vec *a);
/* The median and mean of a's values, NAN when it has none. */
double pm_vec_median(const struct pm_vec *a);
double pm_vec_mean(const struct pm_vec *a);
/* The mean of v[0..n) (NAN when n is 0) and its sample standard
 * deviation (NAN when n < 2). */
double pm_mean(const double *v, size_t n);
double pm_sd(const double *v, size_t n);

/* A straight line's slope, robustly: y = a + slope * x. */
struct pm_slope {
	double slope;		/* Theil-Sen: the median of the slopes of all pairs */
	double lo, hi;		/* Sen's interval at the level asked */
};

/*
 * The Theil-Sen slope of y on x[0..n) and Sen's interval for it (from
 * Kendall's tau, by its normal approximation, ties in x counted).  A
 * point far off the line moves the median slope by one place, not by its
 * distance.  Pairs with equal x, and points with x or y not finite,
 * have no slope and are skipped.  0, -EINVAL when fewer than 3
 * points or fewer than 3 pairs with a slope, -ENOMEM.
 */
int pm_theil_sen(const double *x, const double *y, size_t n, double level,
		 struct pm_slope *out);

#endif
