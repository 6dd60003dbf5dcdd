/* The runner with benchmarks defined here, whose work is known. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/runner.h"
#include "views/render.h"

/* ~known cost: a dependent chain of multiplies. */
static int spin_run(struct pm_ctx *ctx, uint64_t iters)
{
	volatile uint64_t x = 1;

	while (iters--) {
		for (int i = 0; i < 50; i++)
			x = x * 2862933555777941757ull + 3037000493ull;
	}
	return 0;
}

static const struct pm_bench spin = {
	.name = "spin", .group = "proc", .summary = "spin", .unit = "ns",
	.run = spin_run,
};

/* Touches 4 fresh pages per op: at least 4 page faults per op. */
#define TOUCH_PAGES 4
struct touch {
	char *map;
	size_t len, pos;
};

static int touch_setup(struct pm_ctx *ctx)
{
	struct touch *t = calloc(1, sizeof(*t));

	t->len = 64ul << 20;
	t->map = mmap(NULL, t->len, PROT_READ | PROT_WRITE,
		      MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	madvise(t->map, t->len, MADV_NOHUGEPAGE);
	ctx->priv = t;
	return 0;
}

/* not instrumented: under ASan each store would also fault in shadow
 * pages (one per 8 pages touched) */
__attribute__((no_sanitize_address))
static int touch_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct touch *t = ctx->priv;
	long pg = sysconf(_SC_PAGESIZE);

	while (iters--) {
		for (int i = 0; i < TOUCH_PAGES; i++) {
			if (t->pos + (size_t)pg > t->len) {
				madvise(t->map, t->len, MADV_DONTNEED);
				t->pos = 0;
			}
			t->map[t->pos] = 1;
			t->pos += (size_t)pg;
		}
	}
	return 0;
}

static void touch_teardown(struct pm_ctx *ctx)
{
	struct touch *t = ctx->priv;

	munmap(t->map, t->len);
	free(t);
}

static const struct pm_bench touch = {
	.name = "touch", .group = "proc", .summary = "touch", .unit = "ns",
	.setup = touch_setup, .run = touch_run, .teardown = touch_teardown,
};

/* Each child writes 32 pages the parent never touches: their faults are
 * only counted when children are (inherit). */
static char *child_area;

static int forker_setup(struct pm_ctx *ctx)
{
	child_area = mmap(NULL, 32 * 4096, PROT_READ | PROT_WRITE,
			  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return child_area == MAP_FAILED ? -ENOMEM : 0;
}

static int forker_run(struct pm_ctx *ctx, uint64_t iters)
{
	while (iters--) {
		pid_t pid = fork();

		if (pid < 0)
			return -errno;
		if (pid == 0) {
			for (int i = 0; i < 32; i++)
				child_area[i * 4096] = 1;
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	return 0;
}

static void forker_teardown(struct pm_ctx *ctx)
{
	munmap(child_area, 32 * 4096);
}

static const struct pm_bench forker = {
	.name = "forker", .group = "proc", .summary = "fork", .unit = "us",
	.setup = forker_setup, .run = forker_run, .teardown = forker_teardown,
	.flags = PM_FORKS,
};

/* A ping-pong peer over two pipes. */
struct pingpong {
	int to[2], from[2];
};

static int pong(void *arg)
{
	struct pingpong *p = arg;
	char c;

	close(p->to[1]);
	close(p->from[0]);
	while (read(p->to[0], &c, 1) == 1)
		if (write(p->from[1], &c, 1) != 1)
			return 1;
	return 0;
}

static int pingpong_setup(struct pm_ctx *ctx)
{
	struct pingpong *p = calloc(1, sizeof(*p));
	int err;

	if (pipe(p->to) || pipe(p->from))
		return -errno;
	ctx->priv = p;
	err = pm_spawn_peer(ctx, pong, p);
	close(p->to[0]);
	close(p->from[1]);
	return err;
}

static int pingpong_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct pingpong *p = ctx->priv;
	char c = 'x';

	while (iters--) {
		if (write(p->to[1], &c, 1) != 1 || read(p->from[0], &c, 1) != 1)
			return -EPIPE;
	}
	return 0;
}

static void pingpong_teardown(struct pm_ctx *ctx)
{
	struct pingpong *p = ctx->priv;

	close(p->to[1]);
	close(p->from[0]);
	free(p);
}

static const struct pm_bench pingpong = {
	.name = "pingpong", .group = "proc", .summary = "pipe", .unit = "us",
	.setup = pingpong_setup, .run = pingpong_run,
	.teardown = pingpong_teardown, .flags = PM_PEERS,
};

static int unsupported_setup(struct pm_ctx *ctx)
{
	snprintf(ctx->why, sizeof(ctx->why), "needs a frobnicator");
	return -EOPNOTSUPP;
}

static int failing_setup(struct pm_ctx *ctx)
{
	snprintf(ctx->why, sizeof(ctx->why), "disk on fire");
	return -EIO;
}

static int not_here(char *why, size_t len)
{
	snprintf(why, len, "not on Tuesdays");
	return -EOPNOTSUPP;
}

static int failing_run(struct pm_ctx *ctx, uint64_t iters)
{
	snprintf(ctx->why, sizeof(ctx->why), "loop broke");
	return -EIO;
}

static struct pm_events events;

static void opts(struct pm_run_opts *o)
{
	struct pm_err e;

	pm_run_opts_default(o);
	o->target_ns = 2e6;
	o->max_time_s = 0.5;
	o->counted_ns = 20e6;
	if (!events.n)
		ck_assert_int_eq(pm_events_add_all_software(&events, &e), 0);
	o->events = &events;
}

static const struct pm_counter_value *counter(struct pm_bench_result *r,
					      const char *name)
{
	const struct pm_counter_value *v = pm_bench_result_counter(r, name);

	ck_assert_ptr_nonnull(v);
	ck_assert_int_eq(v->status, PM_CV_OK);
	return v;
}

/* CPU time of one spin op: the fastest of several measurements. */
static double spin_cpu_ns_per_op(void)
{
	double best = INFINITY;

	for (int k = 0; k < 5; k++) {
		struct timespec a, b;
		double ns;

		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
		spin_run(NULL, 20000);
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
		ns = ((double)(b.tv_sec - a.tv_sec) * 1e9 + (double)(b.tv_nsec - a.tv_nsec)) / 20000;
		if (ns < best)
			best = ns;
	}
	return best;
}

START_TEST(calibrates_and_keeps_trials)
{
	struct pm_bench_result r = { 0 };
	struct pm_run_opts o;
	struct pm_err e;
	double cpu;
	size_t i;

	opts(&o);
	ck_assert_int_eq(pm_run_bench(&spin, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_OK);
	/* One trial is calibrated to the target (2 ms).  Its wall time is not
	 * what a busy machine lets it be, but the loop's CPU time is: the
	 * iterations times the CPU cost of one is at most about the target
	 * (calibration measures wall time, never less than CPU time), and
	 * not far below it (the fastest of three calibration samples). */
	cpu = spin_cpu_ns_per_op();
	ck_assert_msg(cpu * (double)r.iterations < 2 * o.target_ns,
		      "%" PRIu64 " iterations of %.1f ns CPU: trials far longer than the target",
		      r.iterations, cpu);
	ck_assert_msg(cpu * (double)r.iterations > o.target_ns / 20,
		      "%" PRIu64 " iterations of %.1f ns CPU: trials far shorter than the target",
		      r.iterations, cpu);
	ck_assert_uint_ge(r.ntrials, o.min_trials);
	ck_assert_uint_le(r.ntrials, o.max_trials);
	ck_assert_uint_eq(r.stats.n, r.ntrials);
	for (i = 0; i < r.ntrials; i++)
		ck_assert_double_gt(r.trials[i], 0);
	ck_assert_double_le(r.stats.ci_low, r.stats.median);
	ck_assert_double_ge(r.stats.ci_high, r.stats.median);
	if (r.converged)
		ck_assert_double_le(pm_summary_rel_halfwidth(&r.stats), o.ci_target);
	ck_assert(r.overhead_ns >= 0 && r.overhead_ns < r.stats.median);
	ck_assert(r.counters.done);
	ck_assert_double_lt(counter(&r, "page-faults")->per_op, 0.01);
	ck_assert_ptr_null(r.placement);
	pm_bench_result_free(&r);
}
END_TEST

START_TEST(max_trials_bound)
{
	struct pm_bench_result r = { 0 };
	struct pm_run_opts o;
	struct pm_err e;

	opts(&o);
	o.ci_target = 1e-9;	/* unreachable */
	o.min_trials = 3;
	o.max_trials = 7;
	ck_assert_int_eq(pm_run_bench(&spin, &o, &r, &e), 0);
	ck_assert_uint_eq(r.ntrials, 7);
	ck_assert(!r.converged);
	pm_bench_result_free(&r);
}
END_TEST

START_TEST(counts_page_faults)
{
	struct pm_bench_result r = { 0 };
	struct pm_run_opts o;
	struct pm_err e;

	opts(&o);
	ck_assert_int_eq(pm_run_bench(&touch, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_OK);
	ck_assert_double_ge(counter(&r, "page-faults")->per_op, TOUCH_PAGES);
	ck_assert_double_lt(counter(&r, "page-faults")->per_op, TOUCH_PAGES + 0.5);
	ck_assert_double_gt(counter(&r, "task-clock")->per_op, 0);
	pm_bench_result_free(&r);
}
END_TEST

START_TEST(counts_children)
{
	struct pm_bench_result r = { 0 };
	struct pm_run_opts o;
	struct pm_err e;

	opts(&o);
	o.target_ns = 5e6;
	ck_assert_int_eq(pm_run_bench(&forker, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_OK);
	ck_assert(r.counters.inherit);
	ck_assert_double_ge(counter(&r, "page-faults")->per_op, 32);
	pm_bench_result_free(&r);
}
END_TEST

START_TEST(counts_peers)
{
	struct pm_bench_result r = { 0 };
	struct pm_run_opts o;
	struct pm_err e;

	opts(&o);
	ck_assert_int_eq(pm_run_bench(&pingpong, &o, &r, &e), 0);
	ck_assert_msg(r.status == PM_BENCH_OK, "%s", r.reason);
	ck_assert_int_eq(r.counters.processes, 2);
	ck_assert_str_eq(r.placement, "same");
	ck_assert_int_ge(r.cpu, 0);
	/* both sides block once per round trip */
	ck_assert_double_ge(counter(&r, "context-switches")->per_op, 2);
	pm_bench_result_free(&r);
	/* the peer was reaped */
	ck_assert_int_eq(waitpid(-1, NULL, WNOHANG), -1);
	ck_assert_int_eq(errno, ECHILD);
}
END_TEST

START_TEST(unsupported_and_failed)
{
	struct pm_bench b = spin;
	struct pm_bench_result r = { 0 };
	struct pm_run_opts o;
	struct pm_err e;

	opts(&o);
	b.setup = unsupported_setup;
	ck_assert_int_eq(pm_run_bench(&b, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_UNSUPPORTED);
	ck_assert_str_eq(r.reason, "needs a frobnicator");
	ck_assert_uint_eq(r.ntrials, 0);
	pm_bench_result_free(&r);

	b.setup = failing_setup;
	ck_assert_int_eq(pm_run_bench(&b, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_FAILED);
	ck_assert_str_eq(r.reason, "disk on fire");
	pm_bench_result_free(&r);

	b.setup = NULL;
	b.supported = not_here;
	ck_assert_int_eq(pm_run_bench(&b, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_UNSUPPORTED);
	ck_assert_str_eq(r.reason, "not on Tuesdays");
	pm_bench_result_free(&r);

	b.supported = NULL;
	b.run = failing_run;
	ck_assert_int_eq(pm_run_bench(&b, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_FAILED);
	ck_assert_str_eq(r.reason, "loop broke");
	pm_bench_result_free(&r);
}
END_TEST

/* op(): the runner's loop calls it; failing_op fails at its 1000th call. */
static uint64_t op_calls;

static int spin_op(struct pm_ctx *ctx)
{
	op_calls++;
	return spin_run(ctx, 1);
}

static int failing_op(struct pm_ctx *ctx)
{
	if (++op_calls < 1000)
		return 0;
	snprintf(ctx->why, sizeof(ctx->why), "op %" PRIu64 " failed", op_calls);
	return -EIO;
}

START_TEST(runs_op_in_the_runner_loop)
{
	struct pm_bench b = { .name = "spin-op", .group = "proc", .summary = "spin",
			      .unit = "ns", .op = spin_op };
	struct pm_bench_result r = { 0 };
	struct pm_run_opts o;
	struct pm_err e;

	opts(&o);
	op_calls = 0;
	ck_assert_int_eq(pm_run_bench(&b, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_OK);
	ck_assert_uint_gt(r.iterations, 0);
	ck_assert(r.counters.done);
	/* every trial, the warm-up and the counted pass went through op() */
	ck_assert_uint_ge(op_calls, (r.ntrials + 1) * r.iterations + r.counters.ops);
	/* the loop overhead subtracted includes the call, and is small */
	ck_assert(r.overhead_ns > 0 && r.overhead_ns < r.stats.median);
	pm_bench_result_free(&r);

	memset(&r, 0, sizeof(r));
	b.op = failing_op;
	op_calls = 0;
	ck_assert_int_eq(pm_run_bench(&b, &o, &r, &e), 0);
	ck_assert_int_eq(r.status, PM_BENCH_FAILED);
	ck_assert_str_eq(r.reason, "op 1000 failed");
	ck_assert_uint_eq(op_calls, 1000);	/* stopped at the first error */
	pm_bench_result_free(&r);
}
END_TEST

START_TEST(interrupted)
{
	struct pm_bench_result r = { 0 };
	struct pm_run_opts o;
	struct pm_err e;

	opts(&o);
	pm_interrupted = 1;
	ck_assert_int_eq(pm_run_bench(&spin, &o, &r, &e), -EINTR);
	ck_assert_int_eq(r.status, PM_BENCH_FAILED);
	pm_interrupted = 0;
	pm_bench_result_free(&r);
}
END_TEST

/* A benchmark's result after two rounds of 20 trials around 1000 ns,
 * each trial `spread` apart from the last. */
static void two_rounds(struct pm_bench_result *b, const char *name, double spread,
		       double elapsed)
{
	struct pm_round round = { .reference_ns = NAN, .busy = NAN, .waited = NAN,
				  .others = NAN, .started_s = NAN };
	double v[20];
	int r, i;

	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	for (r = 0; r < 2; r++) {
		for (i = 0; i < 20; i++)
			v[i] = 1000 * (1 + spread * (i - 10) + (r ? spread * 5 : 0));
		pm_bench_result_add_round(b, v, 20, &round);
	}
	pm_bench_result_summarize(b, PM_LEVEL);
	b->elapsed_s = elapsed;
}

START_TEST(budget_goes_to_the_noisy)
{
	struct pm_run_opts o;
	struct pm_bench_result out[3];
	size_t order[3] = { 0, 1, 2 };
	double budget[3], even;

	pm_run_opts_default(&o);
	o.max_time_s = 2;
	even = o.max_time_s / 5;
	/* settled: two rounds 0.01% and 0.02% apart, within ±1% at 99% */
	two_rounds(&out[0], "settled", 0.00002, 2 * even);
	two_rounds(&out[1], "noisy", 0.05, 2 * even);
	two_rounds(&out[2], "settled2", 0.00004, 2 * even);
	ck_assert(out[0].stats.n == 40);

	/* rounds 1 and 2: even shares, nothing is known yet */
	pm_round_budgets(&o, 0, 5, order, 3, 3, out, budget);
	ck_assert_double_eq_tol(budget[1], even, 1e-9);
	pm_round_budgets(&o, 1, 5, order, 3, 3, out, budget);
	ck_assert_double_eq_tol(budget[0], even, 1e-9);

	/* round 3: the settled ones get a quarter, the noisy one the rest */
	pm_round_budgets(&o, 2, 5, order, 3, 3, out, budget);
	ck_assert_double_eq_tol(budget[0], even / 4, 1e-9);
	ck_assert_double_eq_tol(budget[2], even / 4, 1e-9);
	ck_assert_double_gt(budget[1], even * 1.5);
	ck_assert_double_le(budget[1], 3 * even + 1e-9);
	/* no more than what is left of the total over the rounds left */
	ck_assert_double_le(budget[0] + budget[1] + budget[2],
			    (3 * o.max_time_s - 6 * even) / 3 + 1e-9);
	for (int i = 0; i < 3; i++)
		pm_bench_result_free(&out[i]);
}
END_TEST

/* A benchmark's result after five rounds of 3 trials each, the rounds'
 * medians 1000 ns times exp(c k), k = -2..2: their log sd is s. */
static void five_rounds(struct pm_bench_result *b, const char *name, double s)
{
	struct pm_round round = { .reference_ns = NAN, .busy = NAN, .waited = NAN,
				  .others = NAN, .started_s = NAN };
	double c = s / sqrt(10.0 / 4), v[3];
	int k;

	memset(b, 0, sizeof(*b));
	b->name = strdup(name);
	b->status = PM_BENCH_OK;
	for (k = -2; k <= 2; k++) {
		double m = 1000 * exp(c * k);

		v[0] = m * 0.9999;
		v[1] = m;
		v[2] = m * 1.0001;
		pm_bench_result_add_round(b, v, 3, &round);
	}
	pm_bench_result_summarize(b, PM_LEVEL);
}

START_TEST(extra_rounds_go_to_those_that_can_settle)
{
	struct pm_run_opts o;
	struct pm_bench_result out[5];
	double cost[5] = { 0.5, 0.5, 0.5, 0.5, 0.5 };	/* 0.1 s a round */
	size_t order[5], m;

	pm_run_opts_default(&o);
	o.ci_target = 0.01;
	five_rounds(&out[0], "settled", 0.001);
	/* rounds needed for ±1% at 99% */
	five_rounds(&out[1], "far", 0.014);	/* needs 17 rounds */
	five_rounds(&out[2], "hopeless", 0.10);	/* needs hundreds */
	five_rounds(&out[3], "near", 0.010);	/* needs 11 */
	five_rounds(&out[4], "failed", 0.010);
	out[4].status = PM_BENCH_FAILED;
	ck_assert_double_le(pm_bench_rel_ci(&out[0]), 0.01);
	ck_assert_double_gt(pm_bench_rel_ci(&out[3]), 0.01);

	/* time for all: the two that can settle within 20 rounds, in order */
	m = pm_round_extra(&o, 6, 20, 5, out, cost, 10, order);
	ck_assert_uint_eq(m, 2);
	ck_assert_uint_eq(order[0], 1);
	ck_assert_uint_eq(order[1], 3);
	/* an odd round runs them backward */
	m = pm_round_extra(&o, 5, 20, 5, out, cost, 10, order);
	ck_assert_uint_eq(m, 2);
	ck_assert_uint_eq(order[0], 3);
	/* time for one round: the one nearest to the target */
	m = pm_round_extra(&o, 6, 20, 5, out, cost, 0.15, order);
	ck_assert_uint_eq(m, 1);
	ck_assert_uint_eq(order[0], 3);
	/* fewer rounds allowed than "far" needs; then no time left */
	m = pm_round_extra(&o, 6, 12, 5, out, cost, 10, order);
	ck_assert_uint_eq(m, 1);
	ck_assert_uint_eq(order[0], 3);
	ck_assert_uint_eq(pm_round_extra(&o, 6, 20, 5, out, cost, 0.05, order), 0);
	/* no more trials allowed */
	o.max_trials = 17;
	ck_assert_uint_eq(pm_round_extra(&o, 6, 20, 5, out, cost, 10, order), 0);
	for (int i = 0; i < 5; i++)
		pm_bench_result_free(&out[i]);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("runner");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, calibrates_and_keeps_trials);
	tcase_add_test(tc, extra_rounds_go_to_those_that_can_settle);
	tcase_add_test(tc, max_trials_bound);
	tcase_add_test(tc, counts_page_faults);
	tcase_add_test(tc, counts_children);
	tcase_add_test(tc, counts_peers);
	tcase_add_test(tc, unsupported_and_failed);
	tcase_add_test(tc, interrupted);
	tcase_add_test(tc, runs_op_in_the_runner_loop);
	tcase_add_test(tc, budget_goes_to_the_noisy);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
