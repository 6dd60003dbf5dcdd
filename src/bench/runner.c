/*
 * The runner.  For each benchmark:
 *   setup -> calibrate -> warm up -> timed trials (no counters open)
 *   -> counted pass (counters enabled around the loop only) -> teardown.
 * Timed and counted passes are separate so that counting children
 * (inherit) cannot perturb the latency we report; the perturbation is
 * recorded instead.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/marker.h"
#include "bench/runner.h"
#include "sysinfo/sysinfo.h"

volatile int pm_interrupted;

void pm_run_opts_default(struct pm_run_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->target_ns = 10e6;
	o->ci_target = 0.01;
	o->ci_level = PM_LEVEL;
	o->min_trials = 10;
	o->max_trials = 300;
	o->max_time_s = 2;
	o->counted_ns = 100e6;
	o->profile_ns = 150e6;
	o->scale_ns = 200e6;
	o->cpu = -1;
	o->placement = PM_PLACE_SAME;
	o->counters = true;
}

static const char *const placement_names[] = {
	[PM_PLACE_SAME] = "same",
	[PM_PLACE_SPREAD] = "spread",
	[PM_PLACE_NONE] = "none",
};

const char *pm_placement_name(enum pm_placement p)
{
	return placement_names[p];
}

int pm_placement_parse(const char *s, enum pm_placement *p)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(placement_names); i++) {
		if (!strcmp(s, placement_names[i])) {
			*p = (enum pm_placement)i;
			return 0;
		}
	}
	return -EINVAL;
}

/*
 * The reference: a fixed chain of dependent multiplies, no memory, no
 * system call.  Timed between trials it says how fast the machine ran
 * meanwhile (frequency, a busy sibling, a hypervisor), so that explain
 * can tell a machine that ran slower from code that got slower.
 */
#define REF_ITERS 20000

__attribute__((noinline)) double pm_reference_ns(void)
{
	uint64_t t0, x = 1;
	unsigned i;

	t0 = pm_now_ns();
	for (i = 0; i < REF_ITERS; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	/* keep the chain: its result must be computed */
	__asm__ __volatile__("" : : "r"(x));
	return (double)(pm_now_ns() - t0) / REF_ITERS;
}

/* Runnable tasks right now, from /proc/loadavg ("0.52 0.58 0.59 2/345 ..."),
 * ourselves included; -1 when unreadable. */
int pm_runnable_now(void)
{
	char buf[128];
	int running = -1;
	char *slash;

	if (pm_read_line("/proc/loadavg", buf, sizeof(buf)) != 0)
		return -1;
	slash = strchr(buf, '/');
	if (slash) {
		while (slash > buf && slash[-1] != ' ')
			slash--;
		running = atoi(slash);
	}
	return running;
}

/*
 * Time the benchmark's processes (this one and its peers) spent runnable
 * but waiting for a CPU, in ns: the second field of /proc/PID/schedstat.
 * Unlike /proc/loadavg it is the competition this benchmark met.  NAN
 * when the kernel does not keep it (no CONFIG_SCHED_INFO).
 */
static double run_delay_ns(const struct pm_ctx *ctx)
{
	unsigned long long run, wait;
	char path[64], buf[128];
	double sum = 0;
	int i;

	for (i = -1; i < ctx->npeers; i++) {
		if (i < 0)
			snprintf(path, sizeof(path), "/proc/self/schedstat");
		else
			snprintf(path, sizeof(path), "/proc/%d/schedstat", (int)ctx->peers[i]);
		if (pm_read_line(path, buf, sizeof(buf)) != 0 ||
		    sscanf(buf, "%llu %llu", &run, &wait) != 2) {
			if (i < 0)
				return NAN;
			continue;	/* a peer that is gone */
		}
		sum += (double)wait;
	}
	return sum;
}

/*
 * The generic operation loop, for an op() without op_loop (PM_OP gives
 * each benchmark its own): op() iters times, stopping at the first
 * error; op stays in a register: one indirect call per operation.  Not
 * inlined, so that samples of the loop itself land in op_loop, under
 * which the benchmark's op() is, not in the runner's frames, which the
 * profile leaves out as pmbench's own time.
 */
static __attribute__((noinline)) int
op_loop(int (*op)(struct pm_ctx *), struct pm_ctx *ctx, uint64_t iters)
{
	int err;

	while (iters--) {
		err = op(ctx);
		if (__builtin_expect(err != 0, 0))
			return err;
	}
	return 0;
}

/* iters iterations of b: its op's loop, its own run() loop, or op() in
 * the generic loop. */
static int bench_iterate(const struct pm_bench *b, struct pm_ctx *ctx, uint64_t iters)
{
	if (b->op_loop)
		return b->op_loop(ctx, iters);
	if (b->run)
		return b->run(ctx, iters);
	return op_loop(b->op, ctx, iters);
}

/* The empty loop: what the benchmark loop itself costs per iteration. */
static int empty_run(struct pm_ctx *ctx, uint64_t iters)
{
	while (iters--)
		pm_barrier();
	return 0;
}

/* The empty operation, called as op() is: through a pointer the
 * compiler cannot see through, so that the call is not inlined away. */
static __attribute__((noinline)) int empty_op(struct pm_ctx *ctx)
{
	(void)ctx;
	pm_barrier();
	return 0;
}

static int (*volatile empty_op_ptr)(struct pm_ctx *) = empty_op;

static int empty_op_run(struct pm_ctx *ctx, uint64_t iters)
{
	return op_loop(empty_op_ptr, ctx, iters);
}

static int timed_run(const struct pm_bench *b, struct pm_ctx *ctx,
		     uint64_t iters, uint64_t *ns)
{
	uint64_t t0, t1;
	int err;

	t0 = pm_now_ns();
	/* 0: the harness alone, what a marked trial costs beside its loop */
	err = iters ? bench_iterate(b, ctx, iters) : 0;
	t1 = pm_now_ns();
	*ns = t1 - t0;
	return err;
}

/*
 * For an emulator's plugin (bench/marker.h): windows of the harness and
 * one iteration, so that what a trial's window holds beside its
 * operations (the clock reads, a system call each where the clock has no
 * vDSO, the call into the loop) can be taken out of its counts whatever
 * the trial's length.  A few, as a trial's; nothing without markers.
 */
static void marked_harness(unsigned marker, const struct pm_bench *b, struct pm_ctx *ctx,
			   uint64_t trial_iters)
{
	uint64_t ns;
	int k;

	for (k = 0; k < 3 && pm_markers_active(); k++) {
		pm_marker_trial(marker + PM_MARKER_HARNESS, false);
		timed_run(b, ctx, PM_MARKER_HARNESS_ITERS_FOR(trial_iters), &ns);
		pm_marker_trial(marker + PM_MARKER_HARNESS, true);
	}
}

/* Find the iteration count for one trial of about o->target_ns. */
static int calibrate(const struct pm_bench *b, struct pm_ctx *ctx,
		     const struct pm_run_opts *o, uint64_t *iters_out)
{
	uint64_t iters = 1, ns = 0;
	int err;

	for (;;) {
		double grow;

		err = timed_run(b, ctx, iters, &ns);
		if (err)
			return err;
		if (pm_interrupted)
			return -EINTR;
		if ((double)ns >= o->target_ns / 4 || iters >= (1ull << 40))
			break;
		/* Grow fast while far from the target, carefully near it. */
		grow = ns ? o->target_ns / 2 / (double)ns : 100;
		if (grow > 100)
			grow = 100;
		if (grow < 2)
			grow = 2;
		iters = (uint64_t)((double)iters * grow);
	}
	/* the fastest of three samples: one in which the process was
	 * preempted would make every trial too short (lmbench takes the
	 * minimum too) */
	for (int k = 0; k < 2; k++) {
		uint64_t again;

		err = timed_run(b, ctx, iters, &again);
		if (err)
			return err;
		if (pm_interrupted)
			return -EINTR;
		if (again < ns)
			ns = again;
	}
	iters = (uint64_t)llround((double)iters * o->target_ns / (double)(ns ? ns : 1));
	*iters_out = iters ? iters : 1;
	return 0;
}

/* The cost of b's loop without its work: the empty loop, or for op()
 * benchmarks in the generic loop that loop calling an empty operation. */
static double loop_overhead_ns(const struct pm_bench *b, struct pm_ctx *ctx,
			       uint64_t iters)
{
	int (*loop)(struct pm_ctx *, uint64_t) =
		b->op && !b->op_loop ? empty_op_run : empty_run;
	double v[5];
	uint64_t t0, ns;
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(v); i++) {
		t0 = pm_now_ns();
		loop(ctx, iters);
		ns = pm_now_ns() - t0;
		v[i] = (double)ns / (double)iters;
	}
	return pm_median(v, PM_ARRAY_SIZE(v));
}

/* CPU time the whole machine spent not idle, in ns (/proc/stat). */
static double machine_busy_ns(void)
{
	unsigned long long v[8] = { 0 };
	char buf[256];

	if (pm_read_line("/proc/stat", buf, sizeof(buf)) != 0 ||
	    sscanf(buf, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2],
		   &v[3], &v[4], &v[5], &v[6], &v[7]) < 7)
		return NAN;
	/* user nice system [idle iowait] irq softirq steal */
	return (double)(v[0] + v[1] + v[2] + v[5] + v[6] + v[7]) *
	       (1e9 / (double)sysconf(_SC_CLK_TCK));
}

/* Cannot run: record why.  Empty strings become a generic message. */
static void set_status(struct pm_bench_result *out, enum pm_bench_status st,
		       const char *why, int err)
{
	out->status = st;
	free(out->reason);
	if (why && *why)
		out->reason = pm_xstrdup(why);
	else
		out->reason = pm_xstrdup(strerror(err < 0 ? -err : err));
}

static void progress(const struct pm_run_opts *o, const struct pm_bench *b,
		     const char *phase, const struct pm_summary *s)
{
	char t[32];

	if (!o->progress)
		return;
	if (s && s->n) {
		pm_fmt_time(t, sizeof(t), s->median);
		fprintf(stderr, "\r\033[K  %-14s %s  trial %zu  %s ±%.1f%%",
			b->name, phase, s->n, t,
			100 * pm_summary_rel_halfwidth(s));
	} else {
		fprintf(stderr, "\r\033[K  %-14s %s", b->name, phase);
	}
	fflush(stderr);
}

static int first_allowed_cpu(void)
{
	cpu_set_t set;
	int i;

	if (sched_getaffinity(0, sizeof(set), &set) != 0)
		return 0;
	for (i = 0; i < CPU_SETSIZE; i++)
		if (CPU_ISSET(i, &set))
			return i;
	return 0;
}

static double tv_ns(struct timeval tv)
{
	return (double)tv.tv_sec * 1e9 + (double)tv.tv_usec * 1e3;
}

/* User and system CPU time of a process and its reaped children, in ns:
 * getrusage for ourselves, /proc/PID/stat (clock ticks) for peers. */
static void cpu_times(pid_t pid, double *user, double *sys)
{
	char path[64], *text, *p;
	unsigned long long ut, st, cut, cst;
	struct rusage self, kids;

	if (pid == 0) {
		getrusage(RUSAGE_SELF, &self);
		getrusage(RUSAGE_CHILDREN, &kids);
		*user += tv_ns(self.ru_utime) + tv_ns(kids.ru_utime);
		*sys += tv_ns(self.ru_stime) + tv_ns(kids.ru_stime);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	if (pm_read_file(path, &text, NULL))
		return;
	/* fields after "(comm)": state ppid ... utime(14) stime cutime cstime */
	p = strrchr(text, ')');
	if (p && sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
			&ut, &st, &cut, &cst) == 4) {
		double tick = 1e9 / (double)sysconf(_SC_CLK_TCK);

		*user += (double)(ut + cut) * tick;
		*sys += (double)(st + cst) * tick;
	}
	free(text);
}

/*
 * The tracer and wrappers of this run (sysinfo/process.c), found once:
 * their work is the side's (strace stopping every system call), no
 * competition.
 */
static size_t side_pids(pid_t *out, size_t max)
{
	static pid_t pids[8];
	static size_t n;
	static bool found;
	size_t i;

	if (!found) {
		struct pm_process_side s;

		pm_process_side_find(&s);
		n = pm_process_side_pids(&s, pids, PM_ARRAY_SIZE(pids));
		pm_process_side_free(&s);
		found = true;
	}
	for (i = 0; i < n && i < max; i++)
		out[i] = pids[i];
	return i;
}

/* How many of pids are running or runnable now (/proc/PID/stat "R"). */
static int runnable_of(const pid_t *pids, size_t n)
{
	char path[64], buf[512], *p;
	int r = 0;

	for (size_t i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/stat", (int)pids[i]);
		if (pm_read_line(path, buf, sizeof(buf)) == 0 && (p = strrchr(buf, ')')) &&
		    p[1] == ' ' && p[2] == 'R')
			r++;
	}
	return r;
}

static void cpu_times_all(const pid_t *pids, int n, double *user, double *sys)
{
	int i;

	*user = *sys = 0;
	for (i = 0; i < n; i++)
		cpu_times(pids[i], user, sys);
}

/* How long one trial of iters lasted: the target, or more when a single
 * operation alone takes longer (a whole compile); the counted and
 * sampled passes are sized with it. */
static double trial_ns(const struct pm_run_opts *o, const struct pm_bench_result *out,
		       const struct pm_ctx *ctx, uint64_t iters)
{
	double t = out->stats.median * (double)iters * (double)ctx->ops_per_iter;

	return t > o->target_ns ? t : o->target_ns;
}

/* cnt NULL: nothing was counted, for the reason why. */
void pm_record_counters(struct pm_bench_result *out, const struct pm_events *ev,
			const struct pm_count *cnt, double ops, const char *why)
{
	struct pm_counted_pass *cp = &out->counters;
	size_t i;

	/* a result merged from rounds may hold the workers' empty list */
	pm_counter_values_free(cp);
	cp->v = pm_xcalloc(ev->n, sizeof(*cp->v));
	cp->n = ev->n;
	for (i = 0; i < ev->n; i++) {
		const struct pm_event *x = &ev->v[i];
		struct pm_counter_value *v = &cp->v[i];

		v->name = pm_xstrdup(x->name);
		v->event = pm_xstrdup(x->event);
		v->software = x->software;
		v->user_only = x->user_only;
		v->per_op = v->user = v->kernel = v->running = NAN;
		if (x->status != PM_CNT_OK) {
			v->status = PM_CV_NOT_SUPPORTED;
			v->reason = pm_xstrdup(x->reason);
			continue;
		}
		if (!cnt) {
			v->status = PM_CV_NOT_COUNTED;
			v->reason = pm_xstrdup(why);
			continue;
		}
		if (!cnt[i].counted) {
			v->status = PM_CV_NOT_COUNTED;
			v->reason = pm_xstrdup("opened but never scheduled on the PMU (time_running 0); "
					       "try fewer events");
			continue;
		}
		v->status = PM_CV_OK;
		v->running = cnt[i].running;
		v->per_op = cnt[i].total / ops;
		if (x->split) {
			v->user = cnt[i].user / ops;
			v->kernel = cnt[i].kernel / ops;
		}
		if (x->user_only)
			v->reason = pm_xstrdup("user space only: perf_event_paranoid forbids counting the kernel");
	}
}

static void counted_pass(const struct pm_bench *b, struct pm_ctx *ctx,
			 const struct pm_run_opts *o, uint64_t iters,
			 double overhead, struct pm_bench_result *out)
{
	struct pm_counted_pass *cp = &out->counters;
	struct pm_counters *c = NULL;
	struct pm_count *cnt = NULL;
	double u0, s0, u1, s1, delay0;
	pid_t pids[PM_MAX_PEERS + 1];
	uint64_t ns, reps, total;
	struct pm_err e;
	double ops;
	int i, err;

	if (!o->events || !o->events->n)
		return;
	pids[0] = 0;
	for (i = 0; i < ctx->npeers; i++)
		pids[i + 1] = ctx->peers[i];
	cp->inherit = b->flags & PM_FORKS;
	cp->processes = ctx->npeers + 1;
	err = pm_counters_open(&c, o->events, pids, ctx->npeers + 1,
			       cp->inherit, &e);
	if (err) {
		pm_record_counters(out, o->events, NULL, 1, e.msg);
		return;
	}
	reps = (uint64_t)ceil(o->counted_ns / trial_ns(o, out, ctx, iters));
	if (reps < 1)
		reps = 1;
	total = iters * reps;
	cnt = pm_xcalloc(o->events->n, sizeof(*cnt));
	cpu_times_all(pids, ctx->npeers + 1, &u0, &s0);
	delay0 = run_delay_ns(ctx);
	err = pm_counters_snapshot(c);
	if (!err)
		err = pm_counters_enable(c);
	if (!err)
		err = timed_run(b, ctx, total, &ns);
	pm_counters_disable(c);
	if (!err)
		err = pm_counters_delta(c, cnt);
	cpu_times_all(pids, ctx->npeers + 1, &u1, &s1);
	/* a pass slower than the trials because it waited for a CPU was
	 * not slowed by counting: the view tells the two apart with this */
	cp->waited = ns ? (run_delay_ns(ctx) - delay0) / (double)ns : NAN;
	if (!(cp->waited >= 0))
		cp->waited = NAN;
	pm_counters_close(c);
	if (err) {
		char *why = pm_xasprintf("the counted pass failed: %s",
					 ctx->why[0] ? ctx->why : strerror(-err));

		free(cnt);
		pm_record_counters(out, o->events, NULL, 1, why);
		free(why);
		return;
	}
	ops = (double)total * (double)ctx->ops_per_iter;
	cp->done = true;
	cp->ops = (uint64_t)ops;
	cp->ns_per_op = (double)ns / ops - overhead;
	cp->perturbation = out->stats.median > 0 ?
		cp->ns_per_op / out->stats.median : NAN;
	cp->ru_user_ns = (u1 - u0) / ops;
	cp->ru_sys_ns = (s1 - s0) / ops;
	pm_record_counters(out, o->events, cnt, ops, NULL);
	free(cnt);
}

/*
 * The sampled pass: the same loop in chunks of one trial, sampling
 * enabled around the loop only and drained between chunks, so pmbench's own
 * bookkeeping is never sampled as the benchmark's.
 */
static void profile_pass(const struct pm_bench *b, struct pm_ctx *ctx,
			 const struct pm_run_opts *o, uint64_t iters,
			 struct pm_bench_result *out)
{
	pid_t pids[PM_MAX_PEERS + 1];
	struct pm_profile *pr;
	uint64_t ns, chunks, k, pass_ns = 0;
	struct pm_err e;
	int i, err = 0;

	pids[0] = 0;
	for (i = 0; i < ctx->npeers; i++)
		pids[i + 1] = ctx->peers[i];
	err = pm_profile_begin(&pr, o->profiler, pids, ctx->npeers + 1,
			       b->flags & PM_FORKS, &e);
	if (err) {
		out->hotspots = json_pack("{s:s}", "unavailable", e.msg);
		return;
	}
	chunks = (uint64_t)ceil(o->profile_ns / trial_ns(o, out, ctx, iters));
	for (k = 0; k < (chunks ? chunks : 1) && !pm_interrupted;) {
		ns = 0;
		err = pm_profile_enable(pr);
		if (!err)
			err = timed_run(b, ctx, iters, &ns);
		pm_profile_disable(pr);
		pm_profile_drain(pr);
		if (err)
			break;
		pass_ns += ns;
		k++;	/* only whole chunks count as operations */
	}
	out->hotspots = pm_profile_end(pr, (double)(k * iters * ctx->ops_per_iter),
				       out->stats.median, (double)pass_ns);
	if (err)
		json_object_set_new(out->hotspots, "error",
				    json_string(ctx->why[0] ? ctx->why : strerror(-err)));
}

/*
 * Scaling: N copies of the benchmark at once, each with its own setup,
 * released together, each running the same number of iterations; the
 * throughput is the operations of all copies over the wall time until
 * the last one finished.  Copies are processes (--instances) or threads
 * (--threads); efficiency = throughput(N) / (N x throughput(1)).
 */
struct copy {
	unsigned index;		/* copy i runs on the i-th CPU, its helpers too */
	const struct pm_bench *b;
	const struct pm_ctx *tmpl;
	uint64_t iters;
	int go;			/* read end: released when it closes */
	int done;		/* write end: reports the status */
	pthread_t thread;
};

static int copy_work(struct copy *cp)
{
	struct pm_ctx ctx = *cp->tmpl;
	int32_t status;
	char c;

	ctx.priv = NULL;
	ctx.npeers = 0;
	ctx.detail = NULL;
	ctx.why[0] = '\0';
	ctx.cpu = pm_nth_cpu((int)cp->index);
	pm_pin_self(ctx.cpu);
	status = cp->b->setup ? cp->b->setup(&ctx) : 0;
	/* ready, then wait for the release (EOF on go) */
	if (pm_write_full(cp->done, &status, sizeof(status)) == 0 && status == 0 &&
	    read(cp->go, &c, 1) == 0)
		status = bench_iterate(cp->b, &ctx, cp->iters);
	pm_write_full(cp->done, &status, sizeof(status));
	if (cp->b->teardown)
		cp->b->teardown(&ctx);
	pm_reap_peers(&ctx);
	json_decref(ctx.detail);
	return status;
}

static void *copy_thread(void *arg)
{
	copy_work(arg);
	return NULL;
}

/* One point: n copies; returns wall ns, or -errno. */
static int64_t scale_point(const struct pm_bench *b, const struct pm_ctx *ctx,
			   bool threads, unsigned n, uint64_t iters)
{
	struct copy *cp = pm_xcalloc(n, sizeof(*cp));
	int go[2], done[2];
	pid_t *pids = pm_xcalloc(n, sizeof(*pids));
	int64_t err = 0;
	uint64_t t0 = 0;
	unsigned i, started = 0;
	int32_t st;

	if (pipe2(go, O_CLOEXEC) || pipe2(done, O_CLOEXEC)) {
		free(cp);
		free(pids);
		return -errno;
	}
	for (i = 0; i < n; i++) {
		cp[i] = (struct copy){ .index = i, .b = b, .tmpl = ctx, .iters = iters,
				       .go = go[0], .done = done[1] };
		if (threads) {
			if (pthread_create(&cp[i].thread, NULL, copy_thread, &cp[i])) {
				err = -EAGAIN;
				break;
			}
		} else {
			pids[i] = fork();
			if (pids[i] < 0) {
				err = -errno;
				break;
			}
			if (pids[i] == 0) {
				close(go[1]);
				_exit(copy_work(&cp[i]) ? 1 : 0);
			}
		}
		started++;
	}
	/* every copy set up, then released at once */
	for (i = 0; i < started && !err; i++)
		if (pm_read_full(done[0], &st, sizeof(st)) || st)
			err = st < 0 ? st : -EIO;
	t0 = pm_now_ns();
	close(go[1]);
	for (i = 0; i < started && !err; i++)
		if (pm_read_full(done[0], &st, sizeof(st)) || st)
			err = st < 0 ? st : -EIO;
	if (!err)
		err = (int64_t)(pm_now_ns() - t0);
	close(done[1]);
	for (i = 0; i < started; i++) {
		if (threads)
			pthread_join(cp[i].thread, NULL);
		else
			waitpid(pids[i], NULL, 0);
	}
	close(go[0]);
	close(done[0]);
	free(cp);
	free(pids);
	return err;
}

static void scaling_pass(const struct pm_bench *b, const struct pm_ctx *ctx,
			 const struct pm_run_opts *o, uint64_t iters,
			 struct pm_bench_result *out)
{
	bool threads = o->scale_mode == PM_SCALE_THREADS;
	json_t *points = json_array();
	double base = NAN;
	uint64_t it;
	size_t k;

	if (threads && (b->flags & PM_NO_THREADS)) {
		out->scaling = json_pack("{s:s,s:s}", "mode", "threads", "unavailable",
			"the benchmark uses process-wide state (signal handlers): use --instances");
		json_decref(points);
		return;
	}
	/* each copy runs about scale_ns alone */
	it = (uint64_t)((double)iters * o->scale_ns / o->target_ns);
	if (!it)
		it = 1;
	for (k = 0; k < o->nscale && !pm_interrupted; k++) {
		unsigned n = o->scale_n[k];
		int64_t ns = scale_point(b, ctx, threads, n, it);
		double ops = (double)n * (double)it * ctx->ops_per_iter, tput;

		if (ns < 0) {
			json_array_append_new(points, json_pack("{s:i,s:s}", "n", (int)n,
				"error", strerror((int)-ns)));
			continue;
		}
		tput = ops / ((double)ns * 1e-9);
		if (n == 1 || isnan(base))
			base = tput / n;
		json_array_append_new(points, json_pack("{s:i,s:f,s:f,s:f}", "n", (int)n,
			"ops_per_s", tput, "ns_per_op", (double)ns / ops * n,
			"efficiency", tput / (n * base)));
	}
	out->scaling = json_pack("{s:s,s:o}", "mode", threads ? "threads" : "instances",
				 "points", points);
}

/* A measured parameter: repeat measure() as trials, same stopping rule. */
static int measure_trials(const struct pm_bench *b, struct pm_ctx *ctx,
			  const struct pm_run_opts *o, struct pm_bench_result *out)
{
	uint64_t t_start = pm_now_ns();
	struct pm_round round = { .run = o->run, .started_s = NAN };
	struct pm_summary sum = { 0 };
	bool converged = false;
	size_t n = 0, cap = 0;
	double *v = NULL;
	int err = 0;

	if (o->run_start_ns)
		round.started_s = (double)(t_start - o->run_start_ns) / 1e9;
	progress(o, b, "measure", NULL);
	for (;;) {
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			v = pm_xrealloc(v, cap * sizeof(*v));
		}
		err = b->measure(ctx, &v[n]);
		if (err)
			break;
		n++;
		if (pm_interrupted) {
			err = -EINTR;
			break;
		}
		pm_summarize(v, n, o->ci_level, &sum);
		if (n >= o->min_trials &&
		    !(pm_summary_rel_halfwidth(&sum) > o->ci_target)) {
			converged = true;
			break;
		}
		if (n >= o->max_trials || (n >= o->min_trials &&
		    (double)(pm_now_ns() - t_start) >= o->max_time_s * 1e9))
			break;
	}
	if (err) {
		free(v);
		return err;
	}
	out->measured = true;
	round.reference_ns = round.busy = round.waited = round.others = NAN;
	out->converged = (out->nrounds ? out->converged : true) && converged;
	pm_bench_result_add_round(out, v, n, &round);
	free(v);
	if (ctx->params[0] && !out->params)
		out->params = pm_xstrdup(ctx->params);
	return 0;
}

static void fill_descriptor(const struct pm_bench *b, struct pm_bench_result *out)
{
	out->name = pm_xstrdup(b->name);
	out->group = pm_xstrdup(b->group);
	out->summary = pm_xstrdup(b->summary);
	out->unit = pm_xstrdup(b->unit);
	out->lmbench = pm_xstrdup(b->lmbench);
	out->aim9 = pm_xstrdup(b->aim9);
	out->exercises = b->exercises;
	pm_bench_result_defaults(out);
}

/* A benchmark set up in this process, and what to undo afterwards. */
struct bench_session {
	const struct pm_bench *b;
	struct pm_ctx ctx;
	cpu_set_t saved;
	bool restore;
	uint64_t start;
};

static void session_restore(struct bench_session *s)
{
	if (s->restore)
		sched_setaffinity(0, sizeof(s->saved), &s->saved);
	s->restore = false;
}

/* Supported, pinned, set up: 0 to go on; 1 when out already says why
 * it cannot run (unsupported, setup failed). */
static int session_begin(struct bench_session *s, const struct pm_bench *b,
			 const struct pm_run_opts *o, struct pm_bench_result *out)
{
	char why[256];
	int err;

	memset(s, 0, sizeof(*s));
	s->b = b;
	s->start = pm_now_ns();
	if (!out->name)
		fill_descriptor(b, out);
	if (!pm_bench_supported(b, why, sizeof(why))) {
		set_status(out, PM_BENCH_UNSUPPORTED, why, EOPNOTSUPP);
		return 1;
	}
	s->ctx.bench = b;
	s->ctx.scratch = o->scratch;
	s->ctx.hello = o->hello;
	s->ctx.spawner = o->spawner;
	s->ctx.placement = o->placement;
	s->ctx.ncpus = (int)sysconf(_SC_NPROCESSORS_ONLN);
	s->ctx.ops_per_iter = 1;
	s->ctx.cpu = o->cpu;
	if (s->ctx.cpu < 0 && (b->flags & PM_PEERS) && o->placement != PM_PLACE_NONE)
		s->ctx.cpu = first_allowed_cpu();
	if (s->ctx.cpu >= 0) {
		if (sched_getaffinity(0, sizeof(s->saved), &s->saved) == 0)
			s->restore = true;
		err = pm_pin_self(s->ctx.cpu);
		if (err) {
			char *msg = pm_xasprintf("cannot pin to CPU %d: %s", s->ctx.cpu,
						 strerror(-err));

			set_status(out, PM_BENCH_FAILED, msg, err);
			free(msg);
			return 1;
		}
	}
	out->cpu = s->ctx.cpu;
	if ((b->flags & PM_PEERS) && !out->placement)
		out->placement = pm_xstrdup(pm_placement_name(o->placement));
	progress(o, b, "setup", NULL);
	err = b->setup ? b->setup(&s->ctx) : 0;
	if (err) {
		set_status(out, err == -EOPNOTSUPP ? PM_BENCH_UNSUPPORTED :
			   PM_BENCH_FAILED, s->ctx.why, err);
		pm_reap_peers(&s->ctx);
		session_restore(s);
		return 1;
	}
	if (!s->ctx.ops_per_iter)
		s->ctx.ops_per_iter = 1;
	return 0;
}

static void session_end(struct bench_session *s, const struct pm_run_opts *o,
			struct pm_bench_result *out)
{
	if (s->b->teardown)
		s->b->teardown(&s->ctx);
	pm_reap_peers(&s->ctx);
	if (s->ctx.detail) {
		/* whatever the benchmark recorded; the first round's stays */
		if (!out->detail)
			out->detail = s->ctx.detail;
		else
			json_decref(s->ctx.detail);
		s->ctx.detail = NULL;
	}
	session_restore(s);
	out->elapsed_s += (double)(pm_now_ns() - s->start) / 1e9;
	if (o->progress)
		fprintf(stderr, "\r\033[K");
}

static void run_failed(struct pm_bench_result *out, const struct pm_ctx *ctx, int err)
{
	if (err == -EINTR)
		set_status(out, PM_BENCH_FAILED, "interrupted", err);
	else
		set_status(out, PM_BENCH_FAILED, ctx->why, err);
}

/*
 * The timed trials of one round: calibrate (unless out->iterations is
 * already known from an earlier round), warm up, then trials until the
 * interval of the median is within the target or the budget is spent.
 * The round is appended to out.
 */
/* The machine around a round's trials: when they began, the run delay and
 * busy time then, and the CPU time of the side's own processes. */
struct round_watch {
	pid_t pids[PM_MAX_PEERS + 1 + 8];
	size_t k, nside;
	uint64_t t_start;
	double delay0, busy0, u0, s0;
};

/* Note the machine as the trials begin. */
static void watch_start(struct pm_ctx *ctx, struct round_watch *w)
{
	w->t_start = pm_now_ns();
	w->delay0 = run_delay_ns(ctx);
	w->busy0 = machine_busy_ns();
	for (w->k = 0; w->k <= (size_t)ctx->npeers && w->k < PM_ARRAY_SIZE(w->pids); w->k++)
		w->pids[w->k] = w->k ? ctx->peers[w->k - 1] : 0;
	/* the side's own tracer and wrappers: not "other work" */
	w->nside = side_pids(w->pids + w->k, PM_ARRAY_SIZE(w->pids) - w->k);
	w->k += w->nside;
	cpu_times_all(w->pids, (int)w->k, &w->u0, &w->s0);
}

/* What the round waited for a CPU, and what the rest of the machine used
 * meanwhile, as a share of all CPUs. */
static void watch_end(struct pm_ctx *ctx, const struct round_watch *w, struct pm_round *round)
{
	double u1, s1;

	round->waited = (run_delay_ns(ctx) - w->delay0) / (double)(pm_now_ns() - w->t_start);
	if (!(round->waited >= 0))
		round->waited = NAN;
	cpu_times_all(w->pids, (int)w->k, &u1, &s1);
	round->others = (machine_busy_ns() - w->busy0 - (u1 - w->u0) - (s1 - w->s0)) /
			((double)(pm_now_ns() - w->t_start) *
			 (double)sysconf(_SC_NPROCESSORS_ONLN));
	round->others = isnan(round->others) ? NAN : fmin(fmax(round->others, 0), 1);
}

/* Before the trials: the iteration count (calibrated when none is
 * given), the loop's overhead per op, and a warm-up run. */
static int prepare_trials(const struct pm_bench *b, struct pm_ctx *ctx,
			  const struct pm_run_opts *o, unsigned marker, uint64_t *iters,
			  double *overhead)
{
	uint64_t ns;
	int err;

	if (!*iters) {
		progress(o, b, "calibrate", NULL);
		err = calibrate(b, ctx, o, iters);
		if (err)
			return err;
	}
	*overhead = loop_overhead_ns(b, ctx, *iters) / ctx->ops_per_iter + ctx->overhead_ns;
	/* Warm up: caches, TLBs, page cache, CPU frequency. */
	err = timed_run(b, ctx, *iters, &ns);
	if (err)
		return err;
	marked_harness(marker, b, ctx, *iters);
	return 0;
}

static int timed_trials(const struct pm_bench *b, struct pm_ctx *ctx,
			const struct pm_run_opts *o, struct pm_bench_result *out)
{
	uint64_t iters = out->iterations, ns;
	double overhead, busy = 0;
	struct pm_vec trials = { 0 }, refs = { 0 };
	struct round_watch w;
	size_t nbusy = 0;
	struct pm_summary sum = { 0 };
	struct pm_round round = { .run = o->run, .started_s = NAN };
	bool converged = false;
	unsigned marker = pm_marker_id(b);
	int err;

	if (o->run_start_ns)
		round.started_s = (double)(pm_now_ns() - o->run_start_ns) / 1e9;
	err = prepare_trials(b, ctx, o, marker, &iters, &overhead);
	if (err)
		return err;
	watch_start(ctx, &w);
	for (;;) {
		int r;

		/* for an emulator's plugin (bench/marker.h): outside the timing */
		pm_marker_trial(marker, false);
		err = timed_run(b, ctx, iters, &ns);
		pm_marker_trial(marker, true);
		if (err)
			goto fail;
		pm_vec_push(&trials, (double)ns / ((double)iters * ctx->ops_per_iter) - overhead);
		pm_vec_push(&refs, pm_reference_ns());
		if (o->after_trial)
			o->after_trial(o->after_trial_arg, iters);
		r = pm_runnable_now();
		if (r > 0) {
			/* others besides us and our tracer or wrapper */
			busy += fmax(r - 1 - runnable_of(w.pids + w.k - w.nside, w.nside), 0);
			nbusy++;
		}
		if (pm_interrupted) {
			err = -EINTR;
			goto fail;
		}
		if (trials.n >= o->min_trials || trials.n % 8 == 0) {
			pm_summarize(trials.v, trials.n, o->ci_level, &sum);
			progress(o, b, "time", &sum);
		}
		if (trials.n >= o->min_trials && pm_summary_rel_halfwidth(&sum) <= o->ci_target) {
			converged = true;
			break;
		}
		/* --min-trials is a floor, the budget a ceiling above it */
		if (trials.n >= o->max_trials || (trials.n >= o->min_trials &&
		    (double)(pm_now_ns() - w.t_start) >= o->max_time_s * 1e9))
			break;
	}
	round.reference_ns = pm_median(refs.v, refs.n);
	round.busy = nbusy ? busy / (double)nbusy : NAN;
	watch_end(ctx, &w, &round);
	out->converged = (out->nrounds ? out->converged : true) && converged;
	pm_bench_result_add_round(out, trials.v, trials.n, &round);
	out->iterations = iters;
	out->ops_per_iter = ctx->ops_per_iter;
	out->overhead_ns = overhead;
	out->bytes_per_op = ctx->bytes_per_op;
	if (ctx->params[0] && !out->params)
		out->params = pm_xstrdup(ctx->params);
	err = 0;
fail:
	pm_vec_free(&trials);
	pm_vec_free(&refs);
	return err;
}

void pm_bench_result_summarize(struct pm_bench_result *out, double level)
{
	double *v = pm_xcalloc(out->nrounds ? out->nrounds : 1, sizeof(*v));
	double busy = 0, waited = 0, others = 0;
	size_t i, k = 0, nb = 0, nw = 0, no = 0;

	pm_summarize(out->trials, out->ntrials, level, &out->stats);
	for (i = 0; i < out->nrounds; i++) {
		if (!isnan(out->rounds[i].reference_ns))
			v[k++] = out->rounds[i].reference_ns;
		if (!isnan(out->rounds[i].busy)) {
			busy += out->rounds[i].busy;
			nb++;
		}
		if (!isnan(out->rounds[i].waited)) {
			waited += out->rounds[i].waited;
			nw++;
		}
		if (!isnan(out->rounds[i].others)) {
			others += out->rounds[i].others;
			no++;
		}
	}
	out->reference_ns = k ? pm_median(v, k) : NAN;
	out->busy = nb ? busy / (double)nb : NAN;
	out->waited = nw ? waited / (double)nw : NAN;
	out->others = no ? others / (double)no : NAN;
	free(v);
}

/* The trials of one round (the whole run when there is one round). */
static int round_trials(struct bench_session *s, const struct pm_run_opts *o,
			struct pm_bench_result *out)
{
	int err;

	if (s->b->measure)
		err = measure_trials(s->b, &s->ctx, o, out);
	else
		err = timed_trials(s->b, &s->ctx, o, out);
	if (err) {
		run_failed(out, &s->ctx, err);
		return err;
	}
	pm_bench_result_summarize(out, o->ci_level);
	out->status = PM_BENCH_OK;
	return 0;
}

/* Counted, sampled and scaling passes: after the trials, never timed. */
static void extra_passes(struct bench_session *s, const struct pm_run_opts *o,
			 struct pm_bench_result *out)
{
	if (s->b->measure || out->status != PM_BENCH_OK)
		return;
	if (o->counters && !pm_interrupted) {
		progress(o, s->b, "count", NULL);
		counted_pass(s->b, &s->ctx, o, out->iterations, out->overhead_ns, out);
	}
	if (o->profiler && !pm_interrupted) {
		progress(o, s->b, "profile", NULL);
		profile_pass(s->b, &s->ctx, o, out->iterations, out);
	}
	if (o->nscale && !pm_interrupted) {
		progress(o, s->b, "scaling", NULL);
		scaling_pass(s->b, &s->ctx, o, out->iterations, out);
	}
}

int pm_run_bench(const struct pm_bench *b, const struct pm_run_opts *o,
		 struct pm_bench_result *out, struct pm_err *e)
{
	struct bench_session s;

	if (session_begin(&s, b, o, out) == 0) {
		if (round_trials(&s, o, out) == 0)
			extra_passes(&s, o, out);
		session_end(&s, o, out);
	}
	return pm_interrupted ? -EINTR : 0;
}

int pm_run_bench_round(const struct pm_bench *b, const struct pm_run_opts *o,
		       struct pm_bench_result *out, struct pm_err *e)
{
	struct bench_session s;

	if (session_begin(&s, b, o, out) == 0) {
		round_trials(&s, o, out);
		session_end(&s, o, out);
	}
	return pm_interrupted ? -EINTR : 0;
}

int pm_run_bench_passes(const struct pm_bench *b, const struct pm_run_opts *o,
			struct pm_bench_result *out, struct pm_err *e)
{
	struct bench_session s;
	double elapsed = out->elapsed_s;

	if (out->status != PM_BENCH_OK || b->measure || pm_interrupted)
		return pm_interrupted ? -EINTR : 0;
	if (session_begin(&s, b, o, out) == 0) {
		extra_passes(&s, o, out);
		session_end(&s, o, out);
	}
	out->elapsed_s = elapsed;	/* the passes are not the benchmark's time */
	return pm_interrupted ? -EINTR : 0;
}
