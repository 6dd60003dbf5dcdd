/* A benchmark's figure and interval (results/figure.c): by runs, by rounds,
 * by trials, a single figure. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/result.h"

/* A benchmark whose rounds (run r[i]) have the trials v[i][0..3). */
static void make(struct pm_bench_result *b, const unsigned *run, const double v[][3],
		 size_t nrounds)
{
	size_t i, k;

	memset(b, 0, sizeof(*b));
	b->ntrials = 3 * nrounds;
	b->trials = calloc(b->ntrials, sizeof(*b->trials));
	b->rounds = calloc(nrounds, sizeof(*b->rounds));
	b->nrounds = nrounds;
	for (i = 0; i < nrounds; i++) {
		b->rounds[i] = (struct pm_round){ .run = run[i], .ntrials = 3,
						  .reference_ns = NAN, .busy = NAN,
						  .waited = NAN, .others = NAN, .started_s = NAN };
		for (k = 0; k < 3; k++)
			b->trials[3 * i + k] = v[i][k];
	}
	b->stats.median = NAN;
	b->stats.ci_low = b->stats.ci_high = NAN;
}

static void drop(struct pm_bench_result *b)
{
	free(b->trials);
	free(b->rounds);
}

START_TEST(by_rounds)
{
	/* one run, round medians 100, 110, 120, 200 (a busy round) */
	static const unsigned run[] = { 0, 0, 0, 0 };
	static const double v[][3] = { { 99, 100, 101 }, { 110, 111, 109 },
				       { 120, 119, 121 }, { 200, 199, 250 } };
	struct pm_bench_result b;
	struct pm_figure f;
	double m = 0, ss = 0, med[4] = { 100, 110, 120, 200 }, half;
	size_t i;

	make(&b, run, v, 4);
	ck_assert_int_eq(pm_bench_figure(&b, 0.95, &f), 0);
	ck_assert_int_eq(f.basis, PM_FIG_ROUNDS);
	ck_assert_uint_eq(f.n, 4);
	/* the faster half: 100 and 110 */
	ck_assert_double_eq_tol(f.value, sqrt(100.0 * 110.0), 1e-9);
	for (i = 0; i < 4; i++)
		m += log(med[i]) / 4;
	for (i = 0; i < 4; i++)
		ss += (log(med[i]) - m) * (log(med[i]) - m);
	/* t(0.975, 3) = 3.182 */
	half = 3.1824463 * sqrt(ss / 3) / 2;
	ck_assert_double_eq_tol(f.lo, f.value * exp(-half), 1e-4 * f.value);
	ck_assert_double_eq_tol(f.hi, f.value * exp(half), 1e-4 * f.value);
	ck_assert_double_eq_tol(f.level, 0.95, 1e-12);
	drop(&b);
}
END_TEST

START_TEST(by_runs)
{
	/* two runs of two rounds (both rounds count when there are two):
	 * run figures sqrt(100 150) and sqrt(121 300) */
	static const unsigned run[] = { 0, 0, 1, 1 };
	static const double v[][3] = { { 100, 100, 100 }, { 150, 150, 150 },
				       { 121, 121, 121 }, { 300, 300, 300 } };
	struct pm_bench_result b;
	struct pm_figure f;

	make(&b, run, v, 4);
	ck_assert_int_eq(pm_bench_figure(&b, 0.95, &f), 0);
	ck_assert_int_eq(f.basis, PM_FIG_RUNS);
	ck_assert_uint_eq(f.n, 2);
	ck_assert_double_eq_tol(pm_bench_run_figure(&b, 0), sqrt(100.0 * 150.0), 1e-9);
	ck_assert_double_eq_tol(pm_bench_run_figure(&b, 1), sqrt(121.0 * 300.0), 1e-9);
	ck_assert_double_eq_tol(f.value, sqrt(sqrt(100.0 * 150.0) * sqrt(121.0 * 300.0)), 1e-9);
	ck_assert(f.lo < sqrt(100.0 * 150.0) && f.hi > sqrt(121.0 * 300.0));
	drop(&b);
}
END_TEST

START_TEST(by_trials_and_single)
{
	static const unsigned run[] = { 0 };
	static const double v[][3] = { { 100, 102, 98 } };
	struct pm_bench_result b;
	struct pm_figure f;

	static const double ten[] = { 105, 95, 101, 99, 110, 90, 103, 97, 100, 100 };
	size_t i;

	/* one round of three: too few trials for a 95% interval of their
	 * median (min..max covers 75%), whatever the file recorded */
	make(&b, run, v, 1);
	b.stats.median = 100;
	b.stats.ci_low = 98;
	b.stats.ci_high = 102;
	b.stats.ci_level = 0.75;
	ck_assert_int_eq(pm_bench_figure(&b, 0.95, &f), 0);
	ck_assert_int_eq(f.basis, PM_FIG_TRIALS);
	ck_assert_double_eq_tol(f.value, 100, 1e-9);
	ck_assert(isnan(f.lo) && isnan(f.hi));
	ck_assert_double_eq_tol(f.level, 0.95, 1e-12);
	/* ten trials: the order statistics of the level asked for, not the
	 * file's; x(2)..x(9) covers 97.9%, x(1)..x(10) 99.8% */
	free(b.trials);
	b.ntrials = 10;
	b.trials = calloc(10, sizeof(double));
	for (i = 0; i < 10; i++)
		b.trials[i] = ten[i];
	b.rounds[0].ntrials = 10;
	ck_assert_int_eq(pm_bench_figure(&b, 0.95, &f), 0);
	ck_assert_double_eq_tol(f.value, 100, 1e-9);
	ck_assert_double_eq_tol(f.lo, 95, 1e-9);
	ck_assert_double_eq_tol(f.hi, 105, 1e-9);
	ck_assert_int_eq(pm_bench_figure(&b, 0.99, &f), 0);
	ck_assert_double_eq_tol(f.lo, 90, 1e-9);
	ck_assert_double_eq_tol(f.hi, 110, 1e-9);
	drop(&b);
	/* an imported figure: no interval */
	memset(&b, 0, sizeof(b));
	b.ntrials = 1;
	b.trials = calloc(1, sizeof(double));
	b.trials[0] = 250;
	b.stats.median = 250;
	b.stats.ci_low = b.stats.ci_high = NAN;
	ck_assert_int_eq(pm_bench_figure(&b, 0.95, &f), 0);
	ck_assert_int_eq(f.basis, PM_FIG_SINGLE);
	ck_assert_double_eq_tol(f.value, 250, 1e-9);
	ck_assert(isnan(f.lo) && isnan(f.hi));
	free(b.trials);
	/* nothing at all */
	memset(&b, 0, sizeof(b));
	b.stats.median = NAN;
	ck_assert_int_eq(pm_bench_figure(&b, 0.95, &f), -ENODATA);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("figure");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, by_rounds);
	tcase_add_test(tc, by_runs);
	tcase_add_test(tc, by_trials_and_single);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
