/*
 * Unit tests for src/stats.  Expected values were worked out by hand or
 * with exact rational arithmetic (python3 fractions / brute-force
 * enumeration), not by running this code; the derivations are in the
 * comments.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

#define EPS 1e-12
#define NELEM(x) (sizeof(x) / sizeof((x)[0]))

/* ---- median, quantiles ---- */

START_TEST(test_median_odd_even)
{
	const double odd[] = { 7, 1, 5, 3, 9 };		/* 1 3 5 7 9 */
	const double even[] = { 8, 2, 6, 4 };		/* 2 4 6 8 */
	const double dup[] = { 2, 2, 2, 1, 3, 2 };	/* 1 2 2 2 2 3 */
	const double one[] = { 42 };

	ck_assert_double_eq_tol(pm_median(odd, NELEM(odd)), 5, EPS);
	ck_assert_double_eq_tol(pm_median(even, NELEM(even)), 5, EPS);
	ck_assert_double_eq_tol(pm_median(dup, NELEM(dup)), 2, EPS);
	ck_assert_double_eq_tol(pm_median(one, 1), 42, EPS);
	/* input is not reordered */
	ck_assert_double_eq(odd[0], 7);
	ck_assert_double_eq(even[0], 8);
}
END_TEST

/* 0..n-1 with every value repeated `rep` times, Fisher-Yates shuffled */
static void shuffled(double *v, size_t n, size_t rep, uint64_t seed)
{
	struct pm_rng r;

	for (size_t i = 0; i < n * rep; i++)
		v[i] = (double)(i / rep);
	pm_rng_seed(&r, seed);
	for (size_t i = n * rep - 1; i > 0; i--) {
		size_t j = pm_rng_below(&r, i + 1);
		double t = v[i];

		v[i] = v[j];
		v[j] = t;
	}
}

START_TEST(test_median_large)
{
	static double v[3000];

	/* exercises the selection path on shuffled, sorted and
	 * duplicate-heavy input */
	shuffled(v, 1000, 1, 7);
	ck_assert_double_eq_tol(pm_median(v, 1000), 499.5, EPS);
	shuffled(v, 999, 1, 8);
	ck_assert_double_eq_tol(pm_median(v, 999), 499, EPS);
	shuffled(v, 1000, 3, 9);	/* 0 0 0 1 1 1 ...: middle 499, 500 */
	ck_assert_double_eq_tol(pm_median(v, 3000), 499.5, EPS);
	shuffled(v, 2, 1500, 10);	/* 1500 zeros, 1500 ones */
	ck_assert_double_eq_tol(pm_median(v, 3000), 0.5, EPS);
	/* dropping the last element leaves 1500 of one value, 1499 of
	 * the other: the majority value is the median */
	shuffled(v, 2, 1500, 11);
	ck_assert_double_eq_tol(pm_median(v, 2999), 1 - v[2999], EPS);
	for (size_t i = 0; i < 3000; i++)
		v[i] = (double)(3000 - i);	/* descending */
	ck_assert_double_eq_tol(pm_median(v, 3000), 1500.5, EPS);
}
END_TEST

START_TEST(test_quantiles)
{
	const double s4[] = { 1, 2, 3, 4 };
	const double s5[] = { 10, 20, 30, 40, 50 };

	/* type 7: h = q (n-1), interpolate between floor(h) and next */
	ck_assert_double_eq_tol(pm_quantile_sorted(s4, 4, 0), 1, EPS);
	ck_assert_double_eq_tol(pm_quantile_sorted(s4, 4, 0.25), 1.75, EPS);
	ck_assert_double_eq_tol(pm_quantile_sorted(s4, 4, 0.5), 2.5, EPS);
	ck_assert_double_eq_tol(pm_quantile_sorted(s4, 4, 1), 4, EPS);
	ck_assert_double_eq_tol(pm_quantile_sorted(s5, 5, 0.9), 46, EPS);
	ck_assert_double_eq_tol(pm_quantile_sorted(s5, 5, 0.5), 30, EPS);
	ck_assert_double_eq_tol(pm_quantile_sorted(s5, 1, 0.7), 10, EPS);
	/* out of range q clamps */
	ck_assert_double_eq_tol(pm_quantile_sorted(s5, 5, -1), 10, EPS);
	ck_assert_double_eq_tol(pm_quantile_sorted(s5, 5, 2), 50, EPS);
}
END_TEST

/* ---- CI ranks: coverage 1 - 2 P(Bin(n,1/2) <= k-1), exact fractions ---- */

static void check_ranks(size_t n, size_t elo, size_t ehi, double ecov)
{
	size_t lo = 999, hi = 999;
	double cov = pm_median_ci_ranks(n, 0.95, &lo, &hi);

	ck_assert_uint_eq(lo, elo);
	ck_assert_uint_eq(hi, ehi);
	ck_assert_double_eq_tol(cov, ecov, 1e-4);
	ck_assert(cov >= 0.95);
}

START_TEST(test_ci_ranks)
{
	/* n=6: k=1 gives 1 - 2/64 = 31/32; k=2 gives 1 - 14/64 < .95 */
	check_ranks(6, 0, 5, 0.96875);
	/* n=10: k=2 gives 1 - 2*11/1024 = 501/512 = 0.978515625 */
	check_ranks(10, 1, 8, 0.978515625);
	/* n=20: k=6 gives 1 - 2*P(B<=5) = 1 - 2*21700/2^20 = 125647/131072 */
	check_ranks(20, 5, 14, 125647.0 / 131072);
	/* n=100: ranks 40..61 (1-based), coverage 0.964799799782... */
	check_ranks(100, 39, 60, 0.9647997998);
}
END_TEST

START_TEST(test_ci_ranks_edge)
{
	size_t lo = 99, hi = 99;
	double cov;

	/* n=5: even min..max only covers 1 - 2/32 = 0.9375 < 0.95 */
	cov = pm_median_ci_ranks(5, 0.95, &lo, &hi);
	ck_assert_double_eq(cov, 0);
	ck_assert_uint_eq(lo, 0);
	ck_assert_uint_eq(hi, 4);
	/* ... but is enough for 0.90 */
	cov = pm_median_ci_ranks(5, 0.90, &lo, &hi);
	ck_assert_double_eq_tol(cov, 0.9375, EPS);
	ck_assert_uint_eq(lo, 0);
	ck_assert_uint_eq(hi, 4);
	/* n=11 at 0.90: k=3 gives 1 - 2*67/2048 = 957/1024 */
	cov = pm_median_ci_ranks(11, 0.90, &lo, &hi);
	ck_assert_double_eq_tol(cov, 957.0 / 1024, EPS);
	ck_assert_uint_eq(lo, 2);
	ck_assert_uint_eq(hi, 8);
	ck_assert_double_eq(pm_median_ci_ranks(0, 0.95, &lo, &hi), 0);
	ck_assert_double_eq(pm_median_ci_ranks(1, 0.95, &lo, &hi), 0);
	ck_assert_uint_eq(hi, 0);
}
END_TEST

START_TEST(test_ci_ranks_large)
{
	/* 2^-10000 underflows a double: must be done in log space.  The
	 * normal approximation puts k near n/2 - 1.96 sqrt(n)/2 = 4902. */
	size_t lo, hi;
	double cov = pm_median_ci_ranks(10000, 0.95, &lo, &hi);

	ck_assert(cov >= 0.95 && cov < 0.96);
	ck_assert_uint_eq(lo + hi, 9999);	/* symmetric */
	ck_assert(lo >= 4895 && lo <= 4905);
	/* n=1000 (exact fractions): ranks 469..532, coverage 0.953709 */
	cov = pm_median_ci_ranks(1000, 0.95, &lo, &hi);
	ck_assert_uint_eq(lo, 468);
	ck_assert_uint_eq(hi, 531);
	ck_assert_double_eq_tol(cov, 0.9537088026, 1e-8);
}
END_TEST

/* ---- summary ---- */

START_TEST(test_summary_known)
{
	/* sorted: 1 1 2 3 3 4 5 5 5 6 9; sum 44, mean 4; squared deviations
	 * sum to 56, so s = sqrt(56/10); |x-4| sorted 0 1 1 1 1 1 2 2 3 3 5,
	 * MAD 1.  n=11 at 0.95: k=2 (1 - 2*12/2048 = 253/256), so the CI is
	 * x(2)..x(10) = 1..6. */
	const double v[] = { 3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5 };
	struct pm_summary s;

	pm_summarize(v, NELEM(v), 0.95, &s);
	ck_assert_uint_eq(s.n, 11);
	ck_assert_double_eq_tol(s.median, 4, EPS);
	ck_assert_double_eq_tol(s.mean, 4, EPS);
	ck_assert_double_eq_tol(s.stddev, sqrt(5.6), EPS);
	ck_assert_double_eq_tol(s.stddev, 2.3664319132, 1e-9);
	ck_assert_double_eq_tol(s.min, 1, EPS);
	ck_assert_double_eq_tol(s.max, 9, EPS);
	ck_assert_double_eq_tol(s.mad, 1, EPS);
	ck_assert_double_eq_tol(s.ci_low, 1, EPS);
	ck_assert_double_eq_tol(s.ci_high, 6, EPS);
	ck_assert_double_eq_tol(s.ci_level, 253.0 / 256, EPS);
	/* max(4-1, 6-4)/4 */
	ck_assert_double_eq_tol(pm_summary_rel_halfwidth(&s), 0.75, EPS);
	/* v untouched */
	ck_assert_double_eq(v[0], 3);
	ck_assert_double_eq(v[10], 5);

	/* 0.90: k=3, x(3)..x(9) = 2..5 */
	pm_summarize(v, NELEM(v), 0.90, &s);
	ck_assert_double_eq_tol(s.ci_low, 2, EPS);
	ck_assert_double_eq_tol(s.ci_high, 5, EPS);
	ck_assert_double_eq_tol(s.ci_level, 957.0 / 1024, EPS);
}
END_TEST

START_TEST(test_summary_even_mad)
{
	/* sorted 1 2 3 4 5 10: median 3.5, mean 25/6 */
	const double v[] = { 1, 2, 3, 4, 10, 5 };
	struct pm_summary s;

	pm_summarize(v, NELEM(v), 0.95, &s);
	ck_assert_double_eq_tol(s.median, 3.5, EPS);
	ck_assert_double_eq_tol(s.mean, 25.0 / 6, EPS);
	/* mean 25/6: deviations -19/6 -13/6 -7/6 -1/6 35/6 5/6, squares
	 * sum (361+169+49+1+1225+25)/36 = 1830/36; /5 = 10.1666... */
	ck_assert_double_eq_tol(s.stddev, sqrt(1830.0 / 36 / 5), EPS);
	/* |x-3.5| = 2.5 1.5 .5 .5 6.5 1.5 -> .5 .5 1.5 1.5 2.5 6.5 */
	ck_assert_double_eq_tol(s.mad, 1.5, EPS);
	/* n=6 at 0.95: min..max, 31/32 */
	ck_assert_double_eq_tol(s.ci_low, 1, EPS);
	ck_assert_double_eq_tol(s.ci_high, 10, EPS);
	ck_assert_double_eq_tol(s.ci_level, 0.96875, EPS);
}
END_TEST

START_TEST(test_summary_small_and_empty)
{
	const double v[] = { 5, 3, 4 };
	struct pm_summary s;

	/* n=3 is too small for 0.95: min..max at its own coverage 3/4 */
	pm_summarize(v, 3, 0.95, &s);
	ck_assert_double_eq_tol(s.median, 4, EPS);
	ck_assert_double_eq_tol(s.ci_low, 3, EPS);
	ck_assert_double_eq_tol(s.ci_high, 5, EPS);
	ck_assert_double_eq_tol(s.ci_level, 0.75, EPS);

	pm_summarize(v, 1, 0.95, &s);
	ck_assert_uint_eq(s.n, 1);
	ck_assert_double_eq_tol(s.median, 5, EPS);
	ck_assert_double_eq_tol(s.mad, 0, EPS);
	ck_assert_double_eq_tol(s.stddev, 0, EPS);

	pm_summarize(v, 0, 0.95, &s);
	ck_assert_uint_eq(s.n, 0);
	ck_assert(isnan(s.median));
	ck_assert(isnan(s.mean));
	ck_assert(isnan(s.stddev));
	ck_assert(isnan(s.min) && isnan(s.max));
	ck_assert(isnan(s.ci_low) && isnan(s.ci_high) && isnan(s.ci_level));
	ck_assert(isnan(s.mad));
	ck_assert(isnan(pm_summary_rel_halfwidth(&s)));
	ck_assert(isnan(pm_median(v, 0)));
	ck_assert(isnan(pm_quantile_sorted(v, 0, 0.5)));

	s.median = 0;
	ck_assert(isnan(pm_summary_rel_halfwidth(&s)));
}
END_TEST

/* ---- PRNG ---- */

START_TEST(test_rng)
{
	/* reference outputs from an independent python implementation of
	 * splitmix64 seeding + xoshiro256** */
	struct pm_rng r, r2;
	unsigned counts[3] = { 0 };

	pm_rng_seed(&r, 0);
	ck_assert_uint_eq(pm_rng_next(&r), 0x99ec5f36cb75f2b4ULL);
	ck_assert_uint_eq(pm_rng_next(&r), 0xbf6e1f784956452aULL);
	ck_assert_uint_eq(pm_rng_next(&r), 0x1a5f849d4933e6e0ULL);
	pm_rng_seed(&r, 12345);
	ck_assert_uint_eq(pm_rng_next(&r), 0xbe6a36374160d49bULL);
	ck_assert_uint_eq(pm_rng_next(&r), 0x214aaa0637a688c6ULL);

	pm_rng_seed(&r, 1);
	pm_rng_seed(&r2, 1);
	for (int i = 0; i < 30000; i++) {
		size_t x = pm_rng_below(&r, 3);

		ck_assert_uint_lt(x, 3);
		ck_assert_uint_eq(x, pm_rng_below(&r2, 3));
		counts[x]++;
	}
	/* 10000 expected each, sd ~82 */
	for (int i = 0; i < 3; i++)
		ck_assert(counts[i] > 9500 && counts[i] < 10500);
	ck_assert_uint_eq(pm_rng_below(&r, 1), 0);
	ck_assert_uint_eq(pm_rng_below(&r, 0), 0);
	/* a bound just above 2^63 rejects about half the raw draws */
	for (int i = 0; i < 1000; i++)
		ck_assert_uint_lt(pm_rng_below(&r, ((size_t)1 << 63) + 1),
				  ((size_t)1 << 63) + 1);
}
END_TEST

START_TEST(test_cmp_double)
{
	double v[] = { 3, NAN, -1, 2, INFINITY, -INFINITY, 2 };

	qsort(v, NELEM(v), sizeof(v[0]), pm_cmp_double);
	ck_assert(v[0] == -INFINITY);
	ck_assert_double_eq(v[1], -1);
	ck_assert_double_eq(v[2], 2);
	ck_assert_double_eq(v[3], 2);
	ck_assert_double_eq(v[4], 3);
	ck_assert(v[5] == INFINITY);
	ck_assert(isnan(v[6]));
}
END_TEST


/* ---- Mann-Whitney ---- */

START_TEST(test_mw_identical)
{
	const double a[] = { 1, 2, 3, 4, 5 };
	double u;

	/* all values tied in pairs, U = 12.5 = n^2/2: no evidence */
	ck_assert_double_eq_tol(pm_mann_whitney(a, 5, a, 5, &u), 1, 1e-9);
	ck_assert_double_eq_tol(u, 12.5, EPS);
}
END_TEST

START_TEST(test_mw_exact)
{
	const double a[] = { 1, 2, 3, 4, 5 }, b[] = { 6, 7, 8, 9, 10 };
	const double c[] = { 1, 2, 4 }, d[] = { 3, 5, 6, 7 };
	const double e[] = { 1.5, 3.2, 4.8, 7.1, 9.9, 2.2 };
	const double f[] = { 5.5, 6.6, 8.8, 10.1, 11.3, 12.0, 4.0 };
	double u;

	/* fully separated: only 1 of C(10,5) = 252 arrangements is as
	 * extreme on each side */
	ck_assert_double_eq_tol(pm_mann_whitney(a, 5, b, 5, &u), 2.0 / 252,
				1e-12);
	ck_assert_double_eq_tol(u, 0, EPS);
	ck_assert_double_eq_tol(pm_mann_whitney(b, 5, a, 5, &u), 2.0 / 252,
				1e-12);
	ck_assert_double_eq_tol(u, 25, EPS);
	/* c vs d: U = 1 (4 > 3); U <= 1 in 2 of C(7,3) = 35 -> p = 4/35 */
	ck_assert_double_eq_tol(pm_mann_whitney(c, 3, d, 4, &u), 4.0 / 35,
				1e-12);
	ck_assert_double_eq_tol(u, 1, EPS);
	/* 6 vs 7, U = 8: brute-force enumeration of all C(13,6) = 1716
	 * splits gives 63 with U <= 8, p = 126/1716 */
	ck_assert_double_eq_tol(pm_mann_whitney(e, 6, f, 7, &u),
				126.0 / 1716, 1e-12);
	ck_assert_double_eq_tol(u, 8, EPS);
	/* u_out may be NULL */
	ck_assert_double_eq_tol(pm_mann_whitney(c, 3, d, 4, NULL), 4.0 / 35,
				1e-12);
}
END_TEST

START_TEST(test_mw_tied)
{
	/* combined sorted: 1 2 2 2 3 3 4 4 5 5 6 (N = 11)
	 * midranks: 1->1, 2->3, 3->5.5, 4->7.5, 5->9.5, 6->11
	 * R_a = 1 + 3 + 3 + 5.5 + 9.5 = 22, U_a = 22 - 15 = 7, mu = 15
	 * ties 3,2,2,2: sum(t^3 - t) = 24 + 6 + 6 + 6 = 42
	 * var = 30/12 * (12 - 42/110) = 29.0454545...
	 * z = (|7 - 15| - 0.5) / sqrt(var) = 1.3916248483
	 * p = erfc(z / sqrt 2) = 0.164036030 */
	const double a[] = { 1, 2, 2, 3, 5 };
	const double b[] = { 2, 3, 4, 4, 5, 6 };
	double u;

	ck_assert_double_eq_tol(pm_mann_whitney(a, 5, b, 6, &u),
				0.1640360303, 1e-8);
	ck_assert_double_eq_tol(u, 7, EPS);
}
END_TEST

START_TEST(test_mw_normal)
{
	/* 12 vs 12, no ties: a = 1..12, b = 6.5..17.5.  U_a counts
	 * a_i > b_j: 1+2+...+6 = 21; mu = 72, var = 144/12 * 25 = 300,
	 * z = 50.5/sqrt(300) = 2.9156188594, p = 0.0035498386 */
	double a[12], b[12], u;

	for (int i = 0; i < 12; i++) {
		a[i] = i + 1;
		b[i] = i + 6.5;
	}
	ck_assert_double_eq_tol(pm_mann_whitney(a, 12, b, 12, &u),
				0.0035498386, 1e-9);
	ck_assert_double_eq_tol(u, 21, EPS);
}
END_TEST

START_TEST(test_mw_empty)
{
	const double a[] = { 1, 2 };
	double u = 0;

	ck_assert(isnan(pm_mann_whitney(a, 0, a, 2, &u)));
	ck_assert(isnan(u));
	ck_assert(isnan(pm_mann_whitney(a, 2, a, 0, NULL)));
	/* everything tied: zero variance, p = 1 */
	ck_assert_double_eq_tol(pm_mann_whitney(a, 1, a, 1, NULL), 1, EPS);
}
END_TEST

/* ---- Hodges-Lehmann ---- */

START_TEST(test_hodges_lehmann)
{
	const double a[] = { 1, 5, 9, 2, 11, 4, 3 };
	double b[NELEM(a)];
	const double c[] = { 1, 2 }, d[] = { 4, 7 };
	const double x[] = { 1, 2, 4 }, y[] = { 10 };

	/* b = a + 3.5: differences a_j - a_i + 3.5, symmetric about 3.5 */
	for (size_t i = 0; i < NELEM(a); i++)
		b[i] = a[i] + 3.5;
	ck_assert_double_eq_tol(pm_hodges_lehmann(a, NELEM(a), b, NELEM(a)),
				3.5, EPS);
	ck_assert_double_eq_tol(pm_hodges_lehmann(b, NELEM(a), a, NELEM(a)),
				-3.5, EPS);
	/* differences 3 6 2 5 -> 2 3 5 6, median 4 */
	ck_assert_double_eq_tol(pm_hodges_lehmann(c, 2, d, 2), 4, EPS);
	/* unequal sizes: {10} - {1,2,4} = 9 8 6 -> 8 */
	ck_assert_double_eq_tol(pm_hodges_lehmann(x, 3, y, 1), 8, EPS);
	ck_assert(isnan(pm_hodges_lehmann(a, 0, b, 1)));
	ck_assert(isnan(pm_hodges_lehmann(a, 1, b, 0)));
}
END_TEST

/* Student's t against printed tables. */
START_TEST(test_t_quantile)
{
	ck_assert_double_eq_tol(pm_t_quantile(0.975, 1), 12.706, 1e-3);
	ck_assert_double_eq_tol(pm_t_quantile(0.975, 4), 2.776, 1e-3);
	ck_assert_double_eq_tol(pm_t_quantile(0.995, 8), 3.355, 1e-3);
	ck_assert_double_eq_tol(pm_t_quantile(0.975, 1000), 1.962, 1e-3);
	ck_assert_double_eq_tol(pm_t_quantile(0.025, 4), -2.776, 1e-3);
	ck_assert_double_eq_tol(pm_t_cdf(0, 3), 0.5, 1e-12);
	ck_assert_double_eq_tol(pm_t_cdf(2, 8), 0.95974, 1e-5);
	ck_assert(isnan(pm_t_quantile(1, 4)));
	ck_assert(isnan(pm_t_quantile(0.5, 0)));
}
END_TEST

/* The ratio of geometric means with a pooled-variance t interval: a
 * worked example (log values 0, 0.1 vs 0.2, 0.3: d = 0.2, pooled
 * variance 0.005, se 0.0707, df 2, t 4.303). */
START_TEST(test_log_ratio_t)
{
	double a[] = { 1, exp(0.1) }, b[] = { exp(0.2), exp(0.3) };
	double c[] = { 5 }, d[] = { 5, 5, 5 };
	struct pm_log_cmp r;

	ck_assert_int_eq(pm_log_ratio_t(a, 2, b, 2, 0.95, 0, &r), 0);
	ck_assert_double_eq_tol(r.ratio, exp(0.2), 1e-12);
	ck_assert_double_eq_tol(r.se, sqrt(0.005), 1e-12);
	ck_assert_double_eq(r.df, 2);
	ck_assert_double_eq_tol(r.lo, exp(0.2 - 4.3027 * sqrt(0.005)), 1e-4);
	ck_assert_double_eq_tol(r.hi, exp(0.2 + 4.3027 * sqrt(0.005)), 1e-4);
	ck_assert(r.p > 0.05 && r.p < 0.2);
	/* a floor on the variance widens it */
	ck_assert_int_eq(pm_log_ratio_t(a, 2, b, 2, 0.95, 0.02, &r), 0);
	ck_assert_double_eq_tol(r.sd, sqrt(0.02), 1e-12);
	/* one value against several with no spread: the point */
	ck_assert_int_eq(pm_log_ratio_t(c, 1, d, 3, 0.95, 0, &r), 0);
	ck_assert_double_eq(r.ratio, 1);
	ck_assert_double_eq(r.lo, 1);
	ck_assert_int_eq(pm_log_ratio_t(c, 1, c, 1, 0.95, 0, &r), -EINVAL);
	d[1] = -1;
	ck_assert_int_eq(pm_log_ratio_t(a, 2, d, 3, 0.95, 0, &r), -EINVAL);
	ck_assert_double_eq_tol(pm_geomean(a, 2), exp(0.05), 1e-12);
	ck_assert(isnan(pm_geomean(d, 3)));
}
END_TEST

/* Mean and t interval of 10, 12, 14, 16: sd 2.582, se 1.291, t(3) 3.182. */
START_TEST(test_mean_ci)
{
	double v[] = { 10, 12, 14, 16 }, m, h;

	pm_mean_ci(v, 4, 0.95, &m, &h);
	ck_assert_double_eq(m, 13);
	ck_assert_double_eq_tol(h, 3.1824 * sqrt(20.0 / 3 / 4), 1e-3);
	pm_mean_ci(v, 1, 0.95, &m, &h);
	ck_assert_double_eq(m, 10);
	ck_assert(isnan(h));
	pm_mean_ci(v, 0, 0.95, &m, &h);
	ck_assert(isnan(m) && isnan(h));
}
END_TEST

/* Signed ranks: exact p-values and intervals from the tables (n = 8:
 * all eight pairs one way is p = 2/256; the 95% interval drops the
 * three most extreme Walsh averages at each end, the 99% none). */
START_TEST(test_signed_rank)
{
	/* boot pairs of pmbench ab: B slower in all eight, one pair far off */
	const double d[8] = { 0.075, 0.080, 0.038, 0.068, 0.310, 0.101, 0.024, 0.015 };
	const double sym[6] = { -3, -2, -1, 1, 2, 3 };
	double w[36], lo95, hi95;
	struct pm_signed_rank r;
	size_t i, j, k = 0;

	for (i = 0; i < 8; i++)
		for (j = i; j < 8; j++)
			w[k++] = (d[i] + d[j]) / 2;
	qsort(w, 36, sizeof(*w), pm_cmp_double);
	lo95 = w[3];
	hi95 = w[32];
	ck_assert_int_eq(pm_signed_rank(d, 8, 0.99, &r), 0);
	ck_assert_double_eq_tol(r.p, 2.0 / 256, 1e-12);
	ck_assert_double_eq_tol(r.lo, 0.015, 1e-12);
	ck_assert_double_eq_tol(r.hi, 0.310, 1e-12);
	ck_assert_double_eq_tol(r.estimate, (w[17] + w[18]) / 2, 1e-12);
	ck_assert_int_eq(pm_signed_rank(d, 8, 0.95, &r), 0);
	ck_assert_double_eq_tol(r.lo, lo95, 1e-12);
	ck_assert_double_eq_tol(r.hi, hi95, 1e-12);
	/* symmetric, with ties: no difference */
	ck_assert_int_eq(pm_signed_rank(sym, 6, 0.95, &r), 0);
	ck_assert_double_eq_tol(r.p, 1, 1e-12);
	ck_assert_double_eq_tol(r.estimate, 0, 1e-12);
	/* three pairs cannot reach 99%: no interval */
	ck_assert_int_eq(pm_signed_rank(d, 3, 0.99, &r), 0);
	ck_assert(isinf(r.lo) && isinf(r.hi));
	ck_assert_int_eq(pm_signed_rank(d, 0, 0.99, &r), -EINVAL);
}
END_TEST

/*
 * Theil-Sen: a line with one point far off keeps its slope (least squares
 * would give 6.3 here); five noisy points against the slopes worked by
 * hand (the median of ten, and Sen's interval: at 80% the 2nd and 9th
 * slope, at 95% none with five points); nine points on three x values,
 * where counting the ties narrows the 90% interval from the 5th slope
 * (0.7) to the 6th (0.8); a point with no value is skipped; too few
 * points refused.
 */
/* Samples of code on one side only: the binomial's lower tail. */
START_TEST(test_fewer_samples)
{
	/* none of 3463 against 409 of 2165: far beyond chance */
	ck_assert(pm_fewer_samples_p(0, 3463, 409, 2165) < 1e-6);
	/* equal totals: 0 of 10 split evenly is 0.5^10 */
	ck_assert_double_eq_tol(pm_fewer_samples_p(0, 100, 10, 100), pow(0.5, 10), 1e-12);
	/* the same share on both sides is no evidence */
	ck_assert(pm_fewer_samples_p(50, 1000, 50, 1000) > 0.5);
	/* few samples in all say little */
	ck_assert(pm_fewer_samples_p(0, 1000, 3, 1000) > 0.1);
	ck_assert(isnan(pm_fewer_samples_p(0, 0, 3, 1000)));
}
END_TEST

START_TEST(test_theil_sen)
{
	double x[10], y[10];
	const double x5[5] = { 0, 1, 2, 3, 4 }, y5[5] = { 0, 1.5, 1.8, 3.4, 3.9 };
	const double same[4] = { 1, 1, 1, 1 };
	const double x9[9] = { 0, 0, 0, 1, 1, 1, 2, 2, 2 };
	const double y9[9] = { 0.0, 0.3, -0.2, 1.1, 0.8, 1.3, 2.2, 1.7, 2.0 };
	struct pm_slope s;
	size_t i;

	for (i = 0; i < 10; i++) {
		x[i] = (double)i + 1;
		y[i] = 2 * x[i] + 1;
	}
	y[9] = 100;
	ck_assert_int_eq(pm_theil_sen(x, y, 10, 0.95, &s), 0);
	ck_assert_double_eq_tol(s.slope, 2, 1e-12);
	ck_assert_double_eq_tol(s.lo, 2, 1e-12);
	ck_assert_double_eq_tol(s.hi, 2, 1e-12);
	ck_assert_int_eq(pm_theil_sen(x5, y5, 5, 0.80, &s), 0);
	ck_assert_double_eq_tol(s.slope, (0.95 + 0.975) / 2, 1e-12);
	ck_assert_double_eq_tol(s.lo, 0.5, 1e-12);
	ck_assert_double_eq_tol(s.hi, 1.5, 1e-12);
	ck_assert_int_eq(pm_theil_sen(x5, y5, 5, 0.95, &s), 0);
	ck_assert(isinf(s.lo) && s.lo < 0 && isinf(s.hi) && s.hi > 0);
	ck_assert_int_eq(pm_theil_sen(x9, y9, 9, 0.90, &s), 0);
	ck_assert_double_eq_tol(s.slope, 0.95, 1e-9);
	ck_assert_double_eq_tol(s.lo, 0.8, 1e-9);
	ck_assert_double_eq_tol(s.hi, 1.2, 1e-9);
	y[0] = NAN;
	ck_assert_int_eq(pm_theil_sen(x, y, 10, 0.95, &s), 0);
	ck_assert_double_eq_tol(s.slope, 2, 1e-12);
	ck_assert_int_eq(pm_theil_sen(x5, y5, 2, 0.95, &s), -EINVAL);
	ck_assert_int_eq(pm_theil_sen(same, y5, 4, 0.95, &s), -EINVAL);
}
END_TEST

/* A run's value: the faster half of its rounds, so one busy round (+20%)
 * leaves it alone; 2 of 3; all of 1 or 2; the input is not reordered. */
START_TEST(test_geomean_faster_half)
{
	double five[] = { 1000, 1200, 1010, 990, 1005 };
	double three[] = { 2, 8, 4 };
	double two[] = { 1, 4 };

	ck_assert_double_eq_tol(pm_geomean_faster_half(five, 5), sqrt(990.0 * 1000), 1e-9);
	ck_assert_double_eq(five[1], 1200);
	ck_assert_double_eq_tol(pm_geomean_faster_half(three, 3), sqrt(8.0), 1e-12);
	ck_assert_double_eq_tol(pm_geomean_faster_half(two, 2), 2, 1e-12);
	ck_assert_double_eq(pm_geomean_faster_half(two, 1), 1);
	ck_assert(isnan(pm_geomean_faster_half(two, 0)));
}
END_TEST

static Suite *stats_suite(void)
{
	Suite *s = suite_create("stats");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_median_odd_even);
	tcase_add_test(tc, test_geomean_faster_half);
	tcase_add_test(tc, test_median_large);
	tcase_add_test(tc, test_quantiles);
	tcase_add_test(tc, test_ci_ranks);
	tcase_add_test(tc, test_ci_ranks_edge);
	tcase_add_test(tc, test_ci_ranks_large);
	tcase_add_test(tc, test_summary_known);
	tcase_add_test(tc, test_summary_even_mad);
	tcase_add_test(tc, test_summary_small_and_empty);
	tcase_add_test(tc, test_rng);
	tcase_add_test(tc, test_cmp_double);
	tcase_add_test(tc, test_mw_identical);
	tcase_add_test(tc, test_mw_exact);
	tcase_add_test(tc, test_mw_tied);
	tcase_add_test(tc, test_mw_normal);
	tcase_add_test(tc, test_mw_empty);
	tcase_add_test(tc, test_hodges_lehmann);
	tcase_add_test(tc, test_t_quantile);
	tcase_add_test(tc, test_log_ratio_t);
	tcase_add_test(tc, test_mean_ci);
	tcase_add_test(tc, test_signed_rank);
	tcase_add_test(tc, test_theil_sen);
	tcase_add_test(tc, test_fewer_samples);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(stats_suite());
	int number_failed;

	srunner_run_all(sr, CK_NORMAL);
	number_failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return number_failed ? 1 : 0;
}
