/*
 * Sequential A/B decisions: a confidence sequence for the mean of paired
 * log ratios from a scale-invariant Bayes factor, and Fieller's interval
 * for a ratio of two paired means.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

#include "stats/seq.h"
#include "stats/stats.h"

/*
 * Prior variances of the standardized effect, equally weighted: a large
 * g decides a large change within a few pairs, a small g narrows the
 * sequence fastest around small effects (SAME).  Each extra g costs
 * 2 log(count) in c_n^2.
 */
static const double seq_g[] = { 1, 10, 100, 1000 };
#define SEQ_NG (sizeof(seq_g) / sizeof(seq_g[0]))

/*
 * With nu = n - 1 and k = 1 + n g, the Bayes factor of a N(0, g) prior
 * on delta = mu / sigma with the right-Haar prior 1/sigma against
 * delta = 0 is (Gönen, Johnson, Lu, Westfall 2005; Rouder, Speckman,
 * Sun, Morey, Iverson 2009, their t-test factor with g fixed):
 *   BF = k^(-1/2) ((1 + t^2/nu) / (1 + t^2/(nu k)))^((nu+1)/2)
 *      = k^(nu/2) (1 + nu (k-1) / (nu + t^2))^(-(nu+1)/2),
 * the second form without overflow for large t.  Being the likelihood
 * ratio of the scale-invariant maximal statistic, it is a test
 * martingale (Grünwald, de Heide, Koolen, "Safe testing"; Pérez-Ortiz,
 * Lardy, de Heide, Grünwald 2022, "E-statistics, group invariance and
 * anytime valid testing"), so Ville's inequality bounds by alpha the
 * chance that it ever reaches 1/alpha under mu0.
 */
double pm_seq_log_bf(double t, size_t n, double g)
{
	double nu = (double)n - 1, k = 1 + (double)n * g, t2 = t * t;

	if (n < 2 || !(g > 0) || isnan(t))
		return NAN;
	if (isinf(t2))
		return nu / 2 * log(k);
	return nu / 2 * log(k) - (nu + 1) / 2 * log1p(nu * (k - 1) / (nu + t2));
}

/* log of the mixture and its derivative in t, by log-sum-exp */
static double log_bf_mix(double t, size_t n, double *dlog)
{
	double lb[SEQ_NG], top = -INFINITY, sum = 0, dsum = 0;
	double nu = (double)n - 1, t2 = t * t;

	for (size_t j = 0; j < SEQ_NG; j++) {
		lb[j] = pm_seq_log_bf(t, n, seq_g[j]);
		top = fmax(top, lb[j]);
	}
	for (size_t j = 0; j < SEQ_NG; j++) {
		double w = exp(lb[j] - top), a = nu * (double)n * seq_g[j];

		sum += w;
		/* d/dt log BF_g = (nu+1) t a / ((nu + t^2)(nu + t^2 + a)) */
		if (isfinite(t2))
			dsum += w * (nu + 1) * t * a / ((nu + t2) * (nu + t2 + a));
	}
	if (dlog)
		*dlog = dsum / sum;
	return top + log(sum / (double)SEQ_NG);
}

double pm_seq_log_bf_mix(double t, size_t n)
{
	if (n < 2 || isnan(t))
		return NAN;
	return log_bf_mix(t, n, NULL);
}

/*
 * BF grows with |t| towards its limit at t = inf, so c_n is the one root
 * of log BF(t) = log(1/alpha): bisection guarding Newton steps (written
 * here; the derivative is cheap and the root is needed for every n the
 * estimate of the pairs still needed tries).
 */
double pm_seq_crit(size_t n, double alpha)
{
	double target, lo = 0, hi = 1, t, dlog, h;

	if (!(alpha > 0 && alpha < 1))
		return NAN;
	target = -log(alpha);
	if (n < 2 || log_bf_mix(INFINITY, n, NULL) <= target)
		return INFINITY;
	while (log_bf_mix(hi, n, NULL) < target) {
		lo = hi;
		hi *= 2;	/* ends: the limit above is over target */
	}
	t = hi / 2;
	for (int i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		h = log_bf_mix(t, n, &dlog) - target;
		if (h == 0)
			return t;
		if (h < 0)
			lo = t;
		else
			hi = t;
		t -= h / dlog;
		if (!(t > lo && t < hi))
			t = lo + (hi - lo) / 2;
		else if (fabs(h / dlog) < 1e-13 * t)
			return t;
	}
	return t;
}

/* Mean and sample standard deviation, two passes (NAN sd below 2). */
static int mean_sd(const double *d, size_t n, double *mean, double *sd)
{
	double s = 0, ss = 0;

	for (size_t i = 0; i < n; i++) {
		if (!isfinite(d[i]))
			return -EINVAL;
		s += d[i];
	}
	*mean = s / (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - *mean) * (d[i] - *mean);
	*sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
	return 0;
}

static int seq_cs(const double *d, size_t n, double alpha, double *mean,
		  double *sd, double *lo, double *hi)
{
	double c, half;
	int rc;

	if (!d || n == 0 || !(alpha > 0 && alpha < 1))
		return -EINVAL;
	rc = mean_sd(d, n, mean, sd);
	if (rc)
		return rc;
	c = pm_seq_crit(n, alpha);
	if (isinf(c)) {
		*lo = -INFINITY;
		*hi = INFINITY;
		return -ERANGE;
	}
	half = c * *sd / sqrt((double)n);
	*lo = *mean - half;
	*hi = *mean + half;
	return 0;
}

int pm_seq_cs(const double *d, size_t n, double alpha, double *mean,
	      double *lo, double *hi)
{
	double sd;

	return seq_cs(d, n, alpha, mean, &sd, lo, hi);
}

/* Is the half-width at m pairs below target? */
static int narrow_at(size_t m, double alpha, double sd, double target)
{
	return pm_seq_crit(m, alpha) * sd / sqrt((double)m) < target;
}

/*
 * The pairs after n at which the sequence, at today's mean and sd, would
 * be narrow enough to decide.  c_m / sqrt(m) falls with m (c_m grows only
 * as sqrt(log m)), so the first such m is found by doubling the step,
 * then bisection: few c_m for the usual few pairs more.
 */
static size_t pairs_more(const struct pm_seq_result *r, double floor_log,
			 double alpha)
{
	double m = fabs(r->mean);
	double target = m >= floor_log ? m : floor_log - m;
	size_t lo = r->n, hi = r->n + 1, step = 1;

	if (r->verdict != PM_SEQ_UNDECIDED)
		return 0;
	if (r->n < 2 || r->n >= PM_SEQ_MAX_PAIRS)
		return SIZE_MAX;
	/* not narrow enough at lo (undecided), look for a narrow hi */
	while (!narrow_at(hi, alpha, r->sd, target)) {
		if (hi == PM_SEQ_MAX_PAIRS)
			return SIZE_MAX;
		lo = hi;
		step *= 2;
		hi = lo + step < PM_SEQ_MAX_PAIRS ? lo + step : PM_SEQ_MAX_PAIRS;
	}
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (narrow_at(mid, alpha, r->sd, target))
			hi = mid;
		else
			lo = mid;
	}
	return hi - r->n;
}

int pm_seq_decide(const double *d, size_t n, double floor_log, double alpha,
		  struct pm_seq_result *r)
{
	int rc;

	if (!r || !(floor_log >= 0) || isinf(floor_log))
		return -EINVAL;
	rc = seq_cs(d, n, alpha, &r->mean, &r->sd, &r->lo, &r->hi);
	if (rc && rc != -ERANGE)
		return rc;
	r->n = n;
	r->ratio = exp(r->mean);
	r->ratio_lo = exp(r->lo);
	r->ratio_hi = exp(r->hi);
	if (r->lo > -floor_log && r->hi < floor_log)
		r->verdict = PM_SEQ_SAME;
	else if (r->lo > 0 && r->mean >= floor_log)
		r->verdict = PM_SEQ_REGRESSION;
	else if (r->hi < 0 && r->mean <= -floor_log)
		r->verdict = PM_SEQ_IMPROVEMENT;
	else
		r->verdict = PM_SEQ_UNDECIDED;
	r->more = pairs_more(r, floor_log, alpha);
	return 0;
}

/*
 * Fieller: at the true theta, z_i = x_i - theta y_i has mean 0, so
 * mean(z)^2 <= q^2 var(z)/n with q the t quantile on n - 1 degrees of
 * freedom; that is a theta^2 - 2 b theta + c <= 0 (a, b, c below), an
 * interval exactly when a > 0, i.e. mean(y) is significant at level.
 */
int pm_fieller_ratio(const double *x, const double *y, size_t n, double level,
		     double *est, double *lo, double *hi)
{
	double mx, my, sx, sy, sxy = 0, q2, a, b, c, disc;
	int rc;

	if (!x || !y || n < 2 || !(level > 0 && level < 1))
		return -EINVAL;
	rc = mean_sd(x, n, &mx, &sx);
	if (!rc)
		rc = mean_sd(y, n, &my, &sy);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++)
		sxy += (x[i] - mx) * (y[i] - my);
	sxy /= (double)(n - 1);
	q2 = pm_t_quantile(0.5 + level / 2, (double)(n - 1));
	q2 = q2 * q2 / (double)n;
	*est = mx / my;
	*lo = -INFINITY;
	*hi = INFINITY;
	a = my * my - q2 * sy * sy;
	b = mx * my - q2 * sxy;
	c = mx * mx - q2 * sx * sx;
	if (!(a > 0))
		return -ERANGE;
	/* a > 0 makes the quadratic <= 0 at mx/my, so disc >= 0 */
	disc = sqrt(fmax(b * b - a * c, 0));
	*lo = (b - disc) / a;
	*hi = (b + disc) / a;
	return 0;
}

int pm_fieller_ratio_indep(const double *x, size_t nx, const double *y, size_t ny,
			   double level, double *est, double *lo, double *hi)
{
	double mx, my, sx, sy, q2, vx, vy, a, b, c, disc;
	size_t n = nx < ny ? nx : ny;
	int rc;

	if (!x || !y || n < 2 || !(level > 0 && level < 1))
		return -EINVAL;
	rc = mean_sd(x, nx, &mx, &sx);
	if (!rc)
		rc = mean_sd(y, ny, &my, &sy);
	if (rc)
		return rc;
	/* the smaller sample's degrees of freedom: conservative */
	q2 = pm_t_quantile(0.5 + level / 2, (double)(n - 1));
	q2 *= q2;
	vx = sx * sx / (double)nx;
	vy = sy * sy / (double)ny;
	*est = mx / my;
	*lo = -INFINITY;
	*hi = INFINITY;
	a = my * my - q2 * vy;
	b = mx * my;
	c = mx * mx - q2 * vx;
	if (!(a > 0))
		return -ERANGE;
	disc = sqrt(fmax(b * b - a * c, 0));
	*lo = (b - disc) / a;
	*hi = (b + disc) / a;
	return 0;
}

int pm_fieller_ratio_adjusted(const double *x, const double *px, const double *y,
			      const double *py, size_t n, double slope, double level,
			      double *est, double *lo, double *hi)
{
	double *ax, *ay;
	size_t i;
	int err;

	if (!slope || !px || !py)
		return pm_fieller_ratio(x, y, n, level, est, lo, hi);
	if (!x || !y || n < 2 || !isfinite(slope))
		return -EINVAL;
	ax = calloc(2 * n, sizeof(*ax));
	if (!ax)
		return -ENOMEM;
	ay = ax + n;
	for (i = 0; i < n; i++) {
		ax[i] = x[i] - slope * px[i];
		ay[i] = y[i] - slope * py[i];
	}
	err = pm_fieller_ratio(ax, ay, n, level, est, lo, hi);
	free(ax);
	return err;
}
