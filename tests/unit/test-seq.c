/*
 * Unit tests for src/stats/seq.c: the Bayes factor against a numerical
 * integral, the critical values c_n, the error rate of the sequential
 * verdicts under repeated looks on simulated drifting, jumping hosts
 * (against a fixed-n t test looked at as often), their power, and
 * Fieller's interval.  The simulations are seeded (pm_rng), so every
 * figure is the same on every run and machine.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats/seq.h"
#include "stats/stats.h"

#define ALPHA 0.05
#define SEEDS 1000
#define MAXN 40
#define NELEM(x) (sizeof(x) / sizeof((x)[0]))

/* a rate of SEEDS trials may exceed its bound p by two binomial sigmas */
static double binom_bound(double p, int seeds)
{
	return p + 2 * sqrt(p * (1 - p) / seeds);
}

/* ---- the Bayes factor ---- */

static double simpson_weight(int i, int n)
{
	return i == 0 || i == n ? 1 : i % 2 ? 4 : 2;
}

/*
 * The Bayes factor by brute force: integrate the normal likelihood over
 * delta (prior N(0, g)) and u = 1/sigma (prior du/u), for data scaled to
 * sum d^2 = 1 (the factor is scale invariant), so n xbar^2 =
 * t^2/(nu + t^2).  Against delta = 0 the integral over u is
 * 2^(n/2-1) Gamma(n/2).  Simpson in delta around its conditional mode
 * and in v = log u.
 */
static double bf_numeric(double t, size_t n, double g)
{
	const int nv = 4000, nd = 400;
	const double v0 = -12, v1 = 12, hv = (v1 - v0) / nv;
	double nu = (double)n - 1, dn = (double)n;
	double xbar = copysign(sqrt(t * t / (nu + t * t) / dn), t);
	double prec = dn + 1 / g, w = 12 / sqrt(prec), hd = 2 * w / nd;
	double num = 0, den;

	for (int i = 0; i <= nv; i++) {
		double u = exp(v0 + i * hv), mode = dn * xbar * u / prec, inner = 0;

		for (int j = 0; j <= nd; j++) {
			double delta = mode - w + j * hd;
			double e = dn * log(u) - u * u / 2 + dn * xbar * delta * u -
				   dn * delta * delta / 2 - delta * delta / (2 * g);

			inner += simpson_weight(j, nd) * exp(e);
		}
		num += simpson_weight(i, nv) * inner * hd / 3;
	}
	num *= hv / 3 / sqrt(2 * M_PI * g);
	den = exp((dn / 2 - 1) * M_LN2 + lgamma(dn / 2));
	return num / den;
}

START_TEST(test_bf_closed_form)
{
	static const struct { double t; size_t n; double g; } c[] = {
		{ 0.7, 3, 1 }, { 2.5, 6, 10 }, { -3.2, 10, 100 },
		{ 5.0, 4, 1000 }, { 1.8, 25, 1 }, { 0, 8, 10 },
	};

	for (size_t i = 0; i < NELEM(c); i++) {
		double closed = exp(pm_seq_log_bf(c[i].t, c[i].n, c[i].g));
		double numeric = bf_numeric(c[i].t, c[i].n, c[i].g);

		printf("BF(t=%g, n=%zu, g=%g): closed %.10g, integral %.10g\n",
		       c[i].t, c[i].n, c[i].g, closed, numeric);
		ck_assert_double_eq_tol(closed / numeric, 1, 1e-6);
	}
	/* at t = 0 the factor is (1 + n g)^(-1/2); as t grows, (1+ng)^(nu/2) */
	ck_assert_double_eq_tol(pm_seq_log_bf(0, 5, 10), -0.5 * log(51), 1e-12);
	ck_assert_double_eq_tol(pm_seq_log_bf(INFINITY, 5, 10), 2 * log(51), 1e-12);
	ck_assert_double_eq_tol(pm_seq_log_bf(1e8, 5, 10), 2 * log(51), 1e-9);
	/* the mixture is the plain mean over g = 1, 10, 100, 1000 */
	for (double t = 0; t < 8; t += 1.3) {
		double s = 0;
		const double gs[] = { 1, 10, 100, 1000 };

		for (size_t j = 0; j < NELEM(gs); j++)
			s += exp(pm_seq_log_bf(t, 7, gs[j]));
		ck_assert_double_eq_tol(pm_seq_log_bf_mix(t, 7), log(s / 4), 1e-12);
	}
	ck_assert(isnan(pm_seq_log_bf(1, 1, 1)));
	ck_assert(isnan(pm_seq_log_bf(1, 5, 0)));
	ck_assert(isnan(pm_seq_log_bf_mix(NAN, 5)));
	fflush(stdout);
}
END_TEST

/* ---- the critical values ---- */

START_TEST(test_crit)
{
	double prev = INFINITY, c[10001];
	size_t argmin = 3;

	ck_assert(isinf(pm_seq_crit(1, ALPHA)));
	/* n = 2: the mixture's largest factor, mean of sqrt(1 + 2g), is
	 * about 16.3: under 1/0.05, over 1/0.1 */
	ck_assert_double_gt(pm_seq_log_bf_mix(INFINITY, 2), log(10));
	ck_assert_double_lt(pm_seq_log_bf_mix(INFINITY, 2), log(20));
	ck_assert(isinf(pm_seq_crit(2, ALPHA)));
	ck_assert(isfinite(pm_seq_crit(2, 0.1)));
	ck_assert(isnan(pm_seq_crit(10, 0)));
	ck_assert(isnan(pm_seq_crit(10, 1)));
	for (size_t n = 3; n <= 10000; n++) {
		c[n] = pm_seq_crit(n, ALPHA);
		if (c[n] < c[argmin])
			argmin = n;
	}
	printf("c_n at alpha 0.05:");
	for (size_t n = 2; n <= 10; n++)
		printf(" %zu: %.4f", n, pm_seq_crit(n, ALPHA));
	printf(" 20: %.4f 40: %.4f 100: %.4f 1000: %.4f 10000: %.4f; least at n = %zu\n",
	       c[20], c[40], c[100], c[1000], c[10000], argmin);
	for (size_t n = 3; n <= 60; n++) {
		double t = pm_t_quantile(1 - ALPHA / 2, (double)(n - 1));

		/* the factor is 1/alpha exactly at c_n */
		ck_assert_double_eq_tol(pm_seq_log_bf_mix(c[n], n), -log(ALPHA), 1e-9);
		ck_assert_double_lt(c[n], prev);
		/* wider than the fixed-n interval: the price of every look */
		ck_assert_double_gt(c[n], 1.5 * t);
		prev = c[n];
	}
	/* no constant limit: a sequence valid at every n must widen as
	 * sqrt(log n) (law of the iterated logarithm) */
	ck_assert(argmin > 40 && argmin < 1000);
	ck_assert_double_lt(c[200], c[1000]);
	ck_assert_double_lt(c[1000], c[10000]);
	ck_assert_double_lt(c[10000], 4.5);
	/* the half-width still shrinks with every pair (pairs_more needs it) */
	for (size_t n = 4; n <= 10000; n++)
		ck_assert_double_lt(c[n] / sqrt((double)n), c[n - 1] / sqrt((double)(n - 1)));
	fflush(stdout);
}
END_TEST

START_TEST(test_cs)
{
	const double d[] = { 0.10, 0.12, 0.08, 0.11, 0.09, 0.10 };
	double mean, lo, hi, c = pm_seq_crit(NELEM(d), ALPHA), sd, t;

	ck_assert_int_eq(pm_seq_cs(d, NELEM(d), ALPHA, &mean, &lo, &hi), 0);
	ck_assert_double_eq_tol(mean, 0.1, 1e-15);
	/* sum of squares 0.0010 over 5 */
	sd = sqrt(0.001 / 5);
	ck_assert_double_eq_tol(hi - mean, c * sd / sqrt(6), 1e-14);
	ck_assert_double_eq_tol(mean - lo, c * sd / sqrt(6), 1e-14);
	/* at either end the test of that mean has BF = 1/alpha */
	t = (mean - lo) * sqrt(6) / sd;
	ck_assert_double_eq_tol(pm_seq_log_bf_mix(t, 6), -log(ALPHA), 1e-9);
	/* two values: no bounded sequence yet */
	ck_assert_int_eq(pm_seq_cs(d, 2, ALPHA, &mean, &lo, &hi), -ERANGE);
	ck_assert_double_eq_tol(mean, 0.11, 1e-15);
	ck_assert(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
	ck_assert_int_eq(pm_seq_cs(d, 0, ALPHA, &mean, &lo, &hi), -EINVAL);
	ck_assert_int_eq(pm_seq_cs(NULL, 3, ALPHA, &mean, &lo, &hi), -EINVAL);
	ck_assert_int_eq(pm_seq_cs(d, 3, 0, &mean, &lo, &hi), -EINVAL);
	ck_assert_int_eq(pm_seq_cs(d, 3, 1.5, &mean, &lo, &hi), -EINVAL);
	{
		const double bad[] = { 0.1, NAN, 0.2 }, inf[] = { 0.1, INFINITY, 0.2 };

		ck_assert_int_eq(pm_seq_cs(bad, 3, ALPHA, &mean, &lo, &hi), -EINVAL);
		ck_assert_int_eq(pm_seq_cs(inf, 3, ALPHA, &mean, &lo, &hi), -EINVAL);
	}
}
END_TEST

/* ---- verdicts on fixed data ---- */

START_TEST(test_decide_rules)
{
	const double up[] = { 0.10, 0.12, 0.08, 0.11, 0.09, 0.10 };
	const double flat[] = { 0.001, -0.002, 0.0015, -0.001, 0.0005, 0 };
	const double small[] = { 0.020, 0.021, 0.019, 0.0205, 0.0195, 0.020 };
	double down[NELEM(up)], f = log(1.03);
	struct pm_seq_result r;

	for (size_t i = 0; i < NELEM(up); i++)
		down[i] = -up[i];
	ck_assert_int_eq(pm_seq_decide(up, NELEM(up), f, ALPHA, &r), 0);
	ck_assert_int_eq(r.verdict, PM_SEQ_REGRESSION);
	ck_assert_uint_eq(r.n, 6);
	ck_assert_uint_eq(r.more, 0);
	ck_assert_double_gt(r.lo, 0);
	ck_assert_double_eq_tol(r.ratio, exp(0.1), 1e-14);
	ck_assert_double_eq_tol(r.ratio_lo, exp(r.lo), 1e-14);
	ck_assert_double_eq_tol(r.ratio_hi, exp(r.hi), 1e-14);
	ck_assert_double_eq_tol(r.sd, sqrt(0.001 / 5), 1e-15);
	ck_assert_int_eq(pm_seq_decide(down, NELEM(down), f, ALPHA, &r), 0);
	ck_assert_int_eq(r.verdict, PM_SEQ_IMPROVEMENT);
	ck_assert_double_lt(r.hi, 0);
	ck_assert_int_eq(pm_seq_decide(flat, NELEM(flat), f, ALPHA, &r), 0);
	ck_assert_int_eq(r.verdict, PM_SEQ_SAME);
	/* a sure change inside the floor is SAME: the floor says what counts */
	ck_assert_int_eq(pm_seq_decide(small, NELEM(small), f, ALPHA, &r), 0);
	ck_assert_double_gt(r.lo, 0);
	ck_assert_int_eq(r.verdict, PM_SEQ_SAME);
	/* without a floor it is a regression */
	ck_assert_int_eq(pm_seq_decide(small, NELEM(small), 0, ALPHA, &r), 0);
	ck_assert_int_eq(r.verdict, PM_SEQ_REGRESSION);
	/* two pairs: unbounded, undecided, an estimate of the pairs to come */
	ck_assert_int_eq(pm_seq_decide(up, 2, f, ALPHA, &r), 0);
	ck_assert_int_eq(r.verdict, PM_SEQ_UNDECIDED);
	ck_assert(isinf(r.hi) && r.ratio_lo == 0);
	ck_assert(r.more >= 1 && r.more < 10);
	ck_assert_int_eq(pm_seq_decide(up, 1, f, ALPHA, &r), 0);
	ck_assert_uint_eq(r.more, SIZE_MAX);
	ck_assert_int_eq(pm_seq_decide(up, 0, f, ALPHA, &r), -EINVAL);
	ck_assert_int_eq(pm_seq_decide(up, 6, -0.01, ALPHA, &r), -EINVAL);
	ck_assert_int_eq(pm_seq_decide(up, 6, NAN, ALPHA, &r), -EINVAL);
	ck_assert_int_eq(pm_seq_decide(up, 6, INFINITY, ALPHA, &r), -EINVAL);
	ck_assert_int_eq(pm_seq_decide(up, 6, f, ALPHA, NULL), -EINVAL);
}
END_TEST

/* n values with sample mean m and sample sd s exactly */
static void with_mean_sd(double *d, size_t n, double m, double s)
{
	double a = n % 2 ? s : s * sqrt((double)(n - 1) / (double)n);

	for (size_t i = 0; i < n; i++)
		d[i] = m + (i % 2 ? a : -a);
	if (n % 2)
		d[n - 1] = m;
}

/* more says when data like today's decide: at n + more, not a pair sooner */
START_TEST(test_more)
{
	static const struct { double m, s; size_t n; enum pm_seq_verdict v; } c[] = {
		{ 0, 0.04, 5, PM_SEQ_SAME }, { 0.01, 0.03, 4, PM_SEQ_SAME },
		{ 0.06, 0.05, 3, PM_SEQ_REGRESSION }, { -0.05, 0.08, 6, PM_SEQ_IMPROVEMENT },
	};
	static double d[PM_SEQ_MAX_PAIRS];
	double f = log(1.03);
	struct pm_seq_result r;

	for (size_t i = 0; i < NELEM(c); i++) {
		size_t k;

		with_mean_sd(d, c[i].n, c[i].m, c[i].s);
		ck_assert_int_eq(pm_seq_decide(d, c[i].n, f, ALPHA, &r), 0);
		ck_assert_int_eq(r.verdict, PM_SEQ_UNDECIDED);
		ck_assert_double_eq_tol(r.sd, c[i].s, 1e-15);
		k = c[i].n + r.more;
		printf("mean %g sd %g at n = %zu: %zu more\n", c[i].m, c[i].s, c[i].n, r.more);
		ck_assert(r.more >= 1 && r.more < 1000);
		with_mean_sd(d, k, c[i].m, c[i].s);
		ck_assert_int_eq(pm_seq_decide(d, k, f, ALPHA, &r), 0);
		ck_assert_int_eq(r.verdict, c[i].v);
		with_mean_sd(d, k - 1, c[i].m, c[i].s);
		ck_assert_int_eq(pm_seq_decide(d, k - 1, f, ALPHA, &r), 0);
		ck_assert_int_eq(r.verdict, PM_SEQ_UNDECIDED);
	}
	/* half the floor away at sd 0.5 would take over 40000 pairs */
	with_mean_sd(d, 10, 0.015, 0.5);
	ck_assert_int_eq(pm_seq_decide(d, 10, f, ALPHA, &r), 0);
	ck_assert_uint_eq(r.more, SIZE_MAX);
	fflush(stdout);
}
END_TEST

/* ---- simulated hosts ---- */

/* uniform in (0, 1): the top 53 bits, centred */
static double unif(struct pm_rng *r)
{
	return ((double)(pm_rng_next(r) >> 11) + 0.5) * 0x1p-53;
}

/* Box-Muller, written here: one normal per call is enough */
static double gauss(struct pm_rng *r)
{
	return sqrt(-2 * log(unif(r))) * cos(2 * M_PI * unif(r));
}

/* Student's t on 5 degrees of freedom, scaled to variance 1 */
static double heavy(struct pm_rng *r)
{
	double chi2 = 0;

	for (int i = 0; i < 5; i++) {
		double z = gauss(r);

		chi2 += z * z;
	}
	return gauss(r) / sqrt(chi2 / 5) * sqrt(3.0 / 5);
}

struct host {
	double walk;	/* sd of the log speed's step from pair to pair */
	double within;	/* sd of its step between A and B of a pair */
	double noise;	/* sd of one measurement's log, t5 tails */
	double jump;	/* share of measurements slowed by 20-60% */
};

/* one pair, d = log B - log A, B truly exp(mu) times slower */
static double sim_pair(struct pm_rng *r, const struct host *h, double *speed,
		       double mu)
{
	double a, b;

	*speed += h->walk * gauss(r);
	a = *speed + h->noise * heavy(r);
	b = *speed + h->within * gauss(r) + mu + h->noise * heavy(r);
	if (unif(r) < h->jump)
		a += log(1.2 + 0.4 * unif(r));
	if (unif(r) < h->jump)
		b += log(1.2 + 0.4 * unif(r));
	return b - a;
}

struct sim {
	int verdicts[4];	/* first verdict per seed, UNDECIDED: none by MAXN */
	double median_n;	/* of the seeds decided */
	double sd;		/* mean sd of d at the last look */
	int cs_missed;		/* sequence excluded mu at some n <= MAXN */
	int naive_missed;	/* fixed-n 95% t interval excluded mu at some n */
};

/* whether the sequence and the naive t interval exclude mu at n */
static void sim_exclusions(const double *d, size_t n, double mu,
			   const double *tq, int *cs, int *naive)
{
	double mean, lo, hi, s = 0, ss = 0;

	if (pm_seq_cs(d, n, ALPHA, &mean, &lo, &hi) == 0 && (lo > mu || hi < mu))
		*cs = 1;
	for (size_t i = 0; i < n; i++)
		s += d[i];
	s /= (double)n;
	for (size_t i = 0; i < n; i++)
		ss += (d[i] - s) * (d[i] - s);
	if (fabs(s - mu) > tq[n] * sqrt(ss / (double)(n - 1) / (double)n))
		*naive = 1;
}

/* SEEDS runs of MAXN pairs, looking after every pair from the second */
static void simulate(const struct host *h, double mu, double floor_log,
		     struct sim *out)
{
	static double ns[SEEDS], tq[MAXN + 1];
	size_t decided = 0;

	*out = (struct sim){ 0 };
	for (size_t n = 2; n <= MAXN; n++)
		tq[n] = pm_t_quantile(1 - ALPHA / 2, (double)(n - 1));
	for (int seed = 0; seed < SEEDS; seed++) {
		struct pm_rng rng;
		struct pm_seq_result r = { .verdict = PM_SEQ_UNDECIDED };
		double d[MAXN], speed = 0;
		int cs = 0, naive = 0;

		pm_rng_seed(&rng, 0x5e9000 + (uint64_t)seed);
		d[0] = sim_pair(&rng, h, &speed, mu);
		for (size_t n = 2; n <= MAXN; n++) {
			d[n - 1] = sim_pair(&rng, h, &speed, mu);
			sim_exclusions(d, n, mu, tq, &cs, &naive);
			if (r.verdict != PM_SEQ_UNDECIDED)
				continue;
			ck_assert_int_eq(pm_seq_decide(d, n, floor_log, ALPHA, &r), 0);
			if (r.verdict != PM_SEQ_UNDECIDED)
				ns[decided++] = (double)n;
		}
		out->verdicts[r.verdict]++;
		out->sd += r.sd / SEEDS;
		out->cs_missed += cs;
		out->naive_missed += naive;
	}
	out->median_n = decided ? pm_median(ns, decided) : NAN;
}

static void sim_print(const char *what, const struct sim *s)
{
	printf("%s: undecided %d, SAME %d, REGRESSION %d, IMPROVEMENT %d of %d; "
	       "median pairs to decide %g; sd of d %.4f; mu outside the sequence "
	       "%d, outside the naive t interval %d\n", what,
	       s->verdicts[PM_SEQ_UNDECIDED], s->verdicts[PM_SEQ_SAME],
	       s->verdicts[PM_SEQ_REGRESSION], s->verdicts[PM_SEQ_IMPROVEMENT],
	       SEEDS, s->median_n, s->sd, s->cs_missed, s->naive_missed);
	fflush(stdout);
}

/* a host drifting by tens of percent over the run, 5% of measurements
 * slowed by 20-60%, t5 noise: the A/A case */
static const struct host rough = { 0.05, 0.01, 0.02, 0.05 };
/* the same drift, 1% jumps: pairs with sd of 3-4% */
static const struct host usual = { 0.05, 0.01, 0.025, 0.01 };
static const struct host calm = { 0.05, 0.01, 0.02, 0 };

START_TEST(test_aa_false_verdicts)
{
	struct sim s0, s3;
	double bound = binom_bound(ALPHA, SEEDS);

	/* floor 0: REGRESSION or IMPROVEMENT whenever the sequence excludes 0 */
	simulate(&rough, 0, 0, &s0);
	sim_print("A/A, rough host, floor 0", &s0);
	simulate(&rough, 0, log(1.03), &s3);
	sim_print("A/A, rough host, floor 3%", &s3);
	ck_assert_double_le((double)s0.cs_missed / SEEDS, bound);
	ck_assert_double_le((s0.verdicts[PM_SEQ_REGRESSION] +
			     s0.verdicts[PM_SEQ_IMPROVEMENT]) / (double)SEEDS, bound);
	ck_assert_double_le((s3.verdicts[PM_SEQ_REGRESSION] +
			     s3.verdicts[PM_SEQ_IMPROVEMENT]) / (double)SEEDS, bound);
	/* the fixed-n test looked at after every pair fails on the same data */
	ck_assert_double_gt((double)s0.naive_missed / SEEDS, bound);
	ck_assert_int_eq(s0.naive_missed, s3.naive_missed);
}
END_TEST

START_TEST(test_power)
{
	struct sim up, down;

	simulate(&usual, log(1.10), log(1.03), &up);
	sim_print("+10%, usual host, floor 3%", &up);
	simulate(&usual, -log(1.10), log(1.03), &down);
	sim_print("-10%, usual host, floor 3%", &down);
	ck_assert_double_ge(up.sd, 0.03);
	ck_assert_double_le(up.sd, 0.05);
	ck_assert_int_ge(up.verdicts[PM_SEQ_REGRESSION], 950);
	ck_assert_int_ge(down.verdicts[PM_SEQ_IMPROVEMENT], 950);
	ck_assert_double_le(up.median_n, 10);
	ck_assert_double_le(down.median_n, 10);
}
END_TEST

START_TEST(test_same)
{
	struct sim calm0, usual0;

	simulate(&calm, 0, log(1.03), &calm0);
	sim_print("0%, calm host, floor 3%", &calm0);
	simulate(&usual, 0, log(1.03), &usual0);
	sim_print("0%, usual host, floor 3%", &usual0);
	ck_assert_int_ge(calm0.verdicts[PM_SEQ_SAME], 900);
	/* sd 3.5% and jumps: the 3% floor needs about 40 pairs, so only
	 * about half the seeds are SAME by then (the rest undecided) */
	ck_assert_int_ge(usual0.verdicts[PM_SEQ_SAME], 400);
	ck_assert_int_le(usual0.verdicts[PM_SEQ_REGRESSION] +
			 usual0.verdicts[PM_SEQ_IMPROVEMENT], 20);
	ck_assert_double_le(calm0.median_n, 30);
}
END_TEST

/*
 * Near the floor: SAME for a change over the floor is an error the
 * sequence bounds by alpha; REGRESSION for one under it is not (the
 * floor on the estimate is practical), as seq.h says.
 */
START_TEST(test_near_floor)
{
	struct sim at, under;
	double f = log(1.03);

	simulate(&calm, f, f, &at);
	sim_print("+3%, calm host, floor 3%", &at);
	simulate(&calm, log(1.025), f, &under);
	sim_print("+2.5%, calm host, floor 3%", &under);
	ck_assert_double_le((double)at.verdicts[PM_SEQ_SAME] / SEEDS,
			    binom_bound(ALPHA, SEEDS));
	ck_assert_int_eq(at.verdicts[PM_SEQ_IMPROVEMENT], 0);
	ck_assert_int_gt(under.verdicts[PM_SEQ_REGRESSION], SEEDS / 10);
	ck_assert_int_eq(under.verdicts[PM_SEQ_IMPROVEMENT], 0);
}
END_TEST

/* ---- Fieller ---- */

/* t of z = x - theta y about 0 */
static double fieller_t(const double *x, const double *y, size_t n, double theta)
{
	double m = 0, ss = 0;

	for (size_t i = 0; i < n; i++)
		m += x[i] - theta * y[i];
	m /= (double)n;
	for (size_t i = 0; i < n; i++) {
		double e = x[i] - theta * y[i] - m;

		ss += e * e;
	}
	return m / sqrt(ss / (double)(n - 1) / (double)n);
}

START_TEST(test_fieller_exact)
{
	const double x[] = { 0.06, 0.05, 0.07, 0.055, 0.065 };
	const double y[] = { 0.10, 0.09, 0.12, 0.095, 0.105 };
	const double y0[] = { 0.01, -0.01, 0.02, -0.02, 0 };
	double est, lo, hi, q = pm_t_quantile(0.95, 4);

	ck_assert_int_eq(pm_fieller_ratio(x, y, 5, 0.9, &est, &lo, &hi), 0);
	ck_assert_double_eq_tol(est, 0.06 / 0.102, 1e-14);
	ck_assert(lo < est && est < hi);
	/* the ends are where the paired t test of x - theta y is on its edge */
	ck_assert_double_eq_tol(fabs(fieller_t(x, y, 5, lo)), q, 1e-9);
	ck_assert_double_eq_tol(fabs(fieller_t(x, y, 5, hi)), q, 1e-9);
	ck_assert_double_lt(fabs(fieller_t(x, y, 5, (lo + hi) / 2)), q);
	/* y of mean 0: no bounded interval */
	ck_assert_int_eq(pm_fieller_ratio(x, y0, 5, 0.9, &est, &lo, &hi), -ERANGE);
	ck_assert(isinf(lo) && lo < 0 && isinf(hi) && hi > 0);
	ck_assert_int_eq(pm_fieller_ratio(x, y, 1, 0.9, &est, &lo, &hi), -EINVAL);
	ck_assert_int_eq(pm_fieller_ratio(x, y, 5, 1, &est, &lo, &hi), -EINVAL);
	ck_assert_int_eq(pm_fieller_ratio(x, NULL, 5, 0.9, &est, &lo, &hi), -EINVAL);
}
END_TEST

/*
 * Two independent samples: the ends of the interval are where the Welch
 * statistic of mean(x) - theta mean(y) is on its edge (the smaller
 * sample's degrees of freedom); a y whose mean is not clear of 0 gives
 * none.
 */
START_TEST(test_fieller_indep)
{
	const double x[] = { 0.02, 0.01, 0.03 };
	const double y[] = { 0.10, 0.09, 0.12, 0.095, 0.105, 0.11, 0.1, 0.098 };
	const double y0[] = { 0.01, -0.01, 0.02, -0.02 };
	double est, lo, hi, q = pm_t_quantile(0.95, 2), mx = 0.02, my = 0, vx, vy = 0;

	for (size_t i = 0; i < 8; i++)
		my += y[i] / 8;
	for (size_t i = 0; i < 8; i++)
		vy += (y[i] - my) * (y[i] - my) / 7 / 8;
	vx = (0.0001 + 0 + 0.0001) / 2 / 3;
	ck_assert_int_eq(pm_fieller_ratio_indep(x, 3, y, 8, 0.9, &est, &lo, &hi), 0);
	ck_assert_double_eq_tol(est, mx / my, 1e-14);
	ck_assert(lo < est && est < hi);
	ck_assert_double_eq_tol(fabs(mx - lo * my) / sqrt(vx + lo * lo * vy), q, 1e-9);
	ck_assert_double_eq_tol(fabs(mx - hi * my) / sqrt(vx + hi * hi * vy), q, 1e-9);
	ck_assert_int_eq(pm_fieller_ratio_indep(x, 3, y0, 4, 0.9, &est, &lo, &hi), -ERANGE);
	ck_assert_int_eq(pm_fieller_ratio_indep(x, 1, y, 8, 0.9, &est, &lo, &hi), -EINVAL);
}
END_TEST

/* blocks A, B, R measured on a drifting host; returns how many of SEEDS
 * intervals cover theta = (mu_b - mu_r)/mu_b, and how many are unbounded */
static int fieller_sim(double mu_b, double mu_r, int *unbounded)
{
	enum { BLOCKS = 8 };
	double theta = (mu_b - mu_r) / mu_b;
	int covered = 0;

	*unbounded = 0;
	for (int seed = 0; seed < SEEDS; seed++) {
		struct pm_rng rng;
		double x[BLOCKS], y[BLOCKS], speed = 0, est, lo, hi;
		int rc;

		pm_rng_seed(&rng, 0xf1e11e + (uint64_t)seed);
		for (int i = 0; i < BLOCKS; i++) {
			double a, b, rr;

			speed += 0.05 * gauss(&rng);
			a = speed + 0.02 * gauss(&rng);
			b = speed + mu_b + 0.02 * gauss(&rng);
			rr = speed + mu_r + 0.02 * gauss(&rng);
			x[i] = b - rr;
			y[i] = b - a;
		}
		rc = pm_fieller_ratio(x, y, BLOCKS, 0.9, &est, &lo, &hi);
		ck_assert(rc == 0 || rc == -ERANGE);
		*unbounded += rc == -ERANGE;
		covered += lo <= theta && theta <= hi;
	}
	return covered;
}

START_TEST(test_fieller_coverage)
{
	int unb, cov = fieller_sim(log(1.10), log(1.04), &unb);
	int unb0;

	fieller_sim(1e-9, 0, &unb0);

	printf("Fieller at 90%%, 8 blocks: +10%% change, 4%% left by the reversal: "
	       "%d of %d cover, %d unbounded; no change: %d unbounded\n",
	       cov, SEEDS, unb, unb0);
	fflush(stdout);
	ck_assert_int_eq(unb, 0);
	ck_assert_double_eq_tol((double)cov / SEEDS, 0.9, 0.03);
	/* without a change mean(y) is significant 10% of the time */
	ck_assert_double_eq_tol((double)unb0 / SEEDS, 0.9, 0.03);
}
END_TEST

/*
 * Boots each at its own host speed (sd 15%), a benchmark that feels the
 * speed fully (slope 1), its probe reading the speed within 1%: the
 * reversal takes back all of a +20% change (theta 1).  Per block the
 * unadjusted ratio carries three boots' speeds; at equal host speed
 * (each log ratio less the probes') the interval must cover theta at
 * its level and be far narrower.
 */
START_TEST(test_fieller_adjusted)
{
	enum { BLOCKS = 8 };
	double mu = log(1.20), wa[SEEDS], wr[SEEDS];
	int covered = 0, n = 0;

	for (int seed = 0; seed < SEEDS; seed++) {
		struct pm_rng rng;
		double x[BLOCKS], y[BLOCKS], px[BLOCKS], py[BLOCKS], est, lo, hi, l0, h0;

		pm_rng_seed(&rng, 0xadd5eed + (uint64_t)seed);
		for (int i = 0; i < BLOCKS; i++) {
			double sa = 0.15 * gauss(&rng), sb = 0.15 * gauss(&rng);
			double sr = 0.15 * gauss(&rng);
			double a = sa + 0.02 * gauss(&rng), b = sb + mu + 0.02 * gauss(&rng);
			double r = sr + 0.02 * gauss(&rng);
			double qa = sa + 0.01 * gauss(&rng), qb = sb + 0.01 * gauss(&rng);
			double qr = sr + 0.01 * gauss(&rng);

			x[i] = b - r;
			y[i] = b - a;
			px[i] = qb - qr;
			py[i] = qb - qa;
		}
		if (pm_fieller_ratio_adjusted(x, px, y, py, BLOCKS, 1.0, 0.99, &est, &lo, &hi))
			continue;
		covered += lo <= 1 && 1 <= hi;
		wa[n] = hi - lo;
		/* unadjusted: slope 0 is plain Fieller */
		if (pm_fieller_ratio_adjusted(x, px, y, py, BLOCKS, 0, 0.99, &est, &l0, &h0) ||
		    !isfinite(h0 - l0))
			wr[n] = 1e9;	/* unbounded */
		else
			wr[n] = h0 - l0;
		n++;
	}
	printf("Fieller at 99%%, 8 blocks, boots at speeds spread 15%%: %d of %d adjusted "
	       "intervals bounded, %d cover; median width %.2f adjusted, %.2f not\n",
	       n, SEEDS, covered, pm_median(wa, (size_t)n), pm_median(wr, (size_t)n));
	fflush(stdout);
	ck_assert_int_ge(n, SEEDS - 5);
	ck_assert_double_eq_tol((double)covered / n, 0.99, 0.01);
	/* narrow enough for ab's rule (width 0.5) at 8 blocks */
	ck_assert_double_lt(pm_median(wa, (size_t)n), 0.5);
	ck_assert_double_gt(pm_median(wr, (size_t)n), 3 * pm_median(wa, (size_t)n));
	ck_assert_int_eq(pm_fieller_ratio_adjusted(NULL, wa, NULL, wa, 5, 1.0, 0.9, wa, wa, wa),
			 -EINVAL);
}
END_TEST

static Suite *seq_suite(void)
{
	Suite *s = suite_create("seq");
	TCase *tc = tcase_create("core");
	TCase *sim = tcase_create("simulation");

	tcase_add_test(tc, test_bf_closed_form);
	tcase_add_test(tc, test_crit);
	tcase_add_test(tc, test_cs);
	tcase_add_test(tc, test_decide_rules);
	tcase_add_test(tc, test_more);
	tcase_add_test(tc, test_fieller_exact);
	tcase_add_test(tc, test_fieller_indep);
	tcase_set_timeout(tc, 60);
	suite_add_tcase(s, tc);
	tcase_add_test(sim, test_aa_false_verdicts);
	tcase_add_test(sim, test_power);
	tcase_add_test(sim, test_same);
	tcase_add_test(sim, test_near_floor);
	tcase_add_test(sim, test_fieller_coverage);
	tcase_add_test(sim, test_fieller_adjusted);
	/* deterministic, but a few seconds each on a busy or sanitized build */
	tcase_set_timeout(sim, 300);
	suite_add_tcase(s, sim);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(seq_suite());
	int number_failed;

	srunner_run_all(sr, CK_NORMAL);
	number_failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return number_failed ? 1 : 0;
}
