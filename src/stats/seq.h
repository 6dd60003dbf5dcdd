/*
 * Sequential A/B decisions: pairs are added until each benchmark is
 * decided, and the error rate holds however often the figures are looked
 * at (an anytime-valid confidence sequence, not a fixed-n interval
 * recomputed after every pair).
 */
#ifndef PM_SEQ_H
#define PM_SEQ_H

#include <stddef.h>

/* The most pairs pm_seq_decide's estimate of the pairs still needed looks at. */
#define PM_SEQ_MAX_PAIRS 10000

/*
 * The log Bayes factor against mean mu0 of n >= 2 normal differences with
 * unknown variance, t their one-sample t statistic about mu0: a normal
 * prior of variance g on the standardized effect (mu - mu0) / sigma, and
 * 1/sigma on sigma.  pm_seq_log_bf_mix averages the factors for g in
 * {1, 10, 100, 1000}, which the confidence sequence inverts.  NAN for
 * n < 2.
 */
double pm_seq_log_bf(double t, size_t n, double g);
double pm_seq_log_bf_mix(double t, size_t n);

/*
 * c_n: the |t| at which the mixture Bayes factor reaches 1/alpha.  The
 * confidence sequence at n is mean +- c_n sd / sqrt(n).  INFINITY when
 * the factor cannot reach 1/alpha at this n (n < 3 at alpha = 0.05),
 * NAN unless 0 < alpha < 1.
 */
double pm_seq_crit(size_t n, double alpha);

/*
 * The confidence sequence at level 1 - alpha for the mean of d[0..n)
 * (i.i.d. normal): it covers the mean at every n at once with probability
 * >= 1 - alpha.  0; -ERANGE when it is unbounded at this n (*lo = -inf,
 * *hi = +inf, *mean still set); -EINVAL for no values, a value not
 * finite, or alpha outside (0, 1).
 */
int pm_seq_cs(const double *d, size_t n, double alpha, double *mean,
	      double *lo, double *hi);

enum pm_seq_verdict {
	PM_SEQ_UNDECIDED,	/* add pairs (UNKNOWN once the budget is spent) */
	PM_SEQ_SAME,		/* the change lies within the noise floor */
	PM_SEQ_REGRESSION,	/* B is slower: d = log(B / A) of times per op */
	PM_SEQ_IMPROVEMENT,
};

struct pm_seq_result {
	enum pm_seq_verdict verdict;
	size_t n;
	double mean, lo, hi;		/* of d, the confidence sequence */
	double ratio, ratio_lo, ratio_hi;	/* exp of the three: B over A */
	double sd;			/* of one difference (NAN for n < 2) */
	size_t more;	/* pairs still needed at this mean and sd: 0 when
			 * decided, SIZE_MAX beyond PM_SEQ_MAX_PAIRS or
			 * when n < 2 gives no sd */
};

/*
 * The verdict on differences d[0..n), d_i = log(B_i / A_i), with noise
 * floor floor_log = log(1 + floor) and error alpha:
 *   SAME        the confidence sequence lies inside (-floor_log, floor_log);
 *   REGRESSION  it lies above 0 and the estimate is at least floor_log
 *               (IMPROVEMENT: below 0, estimate at most -floor_log).
 * A wrong sign or a false SAME happens with probability <= alpha over all
 * looks; the floor on the estimate is practical, not guaranteed: a real
 * change somewhat under the floor may be called when its estimate
 * passes it.  0, or -EINVAL for bad input as pm_seq_cs or a floor_log
 * that is negative or not finite.
 */
int pm_seq_decide(const double *d, size_t n, double floor_log, double alpha,
		  struct pm_seq_result *r);

/*
 * Fieller's interval at level for theta = mean(x) / mean(y) of n paired
 * (x_i, y_i), e.g. x = log(B / R), what taking one difference back
 * removes, over y = log(B / A), the whole change: the theta for which
 * mean(x - theta y) = 0 is not rejected by a paired t test.  0; -ERANGE
 * when mean(y) is not significantly non-zero at level (*lo = -inf,
 * *hi = +inf, *est still set); -EINVAL for n < 2, a value not finite or
 * level outside (0, 1).
 */
int pm_fieller_ratio(const double *x, const double *y, size_t n, double level,
		     double *est, double *lo, double *hi);
/*
 * Fieller's interval at level for mean(x) / mean(y) of two independent
 * samples (x of nx, y of ny: what a knock-out leaves of a change, over
 * the change all the pairs show), with the smaller sample's degrees of
 * freedom.  Returns as pm_fieller_ratio.
 */
int pm_fieller_ratio_indep(const double *x, size_t nx, const double *y, size_t ny,
			   double level, double *est, double *lo, double *hi);
/*
 * The same at equal host speed: x_i - slope px_i over y_i - slope py_i,
 * px and py the log ratios of the pairs' machine-speed probes and slope
 * how much the benchmark feels the host's speed (explain's Theil-Sen
 * slope of the pairs).  slope 0 or px, py NULL: pm_fieller_ratio.
 */
int pm_fieller_ratio_adjusted(const double *x, const double *px, const double *y,
			      const double *py, size_t n, double slope, double level,
			      double *est, double *lo, double *hi);

#endif
