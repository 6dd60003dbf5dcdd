/*
 * pmbench-agree: pmbench's figure against a plain reference loop of the
 * same definition, trial by trial (make selfcheck, tests/perf/selfcheck.sh).
 *
 * usage: pmbench-agree run PLAIN HELLO SPAWNER CPU SECONDS BENCH...
 *        pmbench-agree judge TOLERANCE FILE
 *
 * run: for each benchmark, two blocks.  In a block, both are set up, then
 * pmbench's runner times its trials (about 10 ms each, SECONDS in all)
 * in this process, pinned to CPU, and after each trial the reference
 * loop (tests/perf/plain-loops.c) times one trial of its own: a drift of
 * a shared machine hits both trials of a pair alike.  The reference is
 * set up first in one block and after pmbench's first trial in the other
 * (a crossover: which one set up first can matter, select's descriptor
 * numbers, +3% from 4..103 to 106..205).  Prints "name pmbench-ns ref-ns
 * ratio", the geometric means of the two blocks' medians (of the trials;
 * of the pairs' ratios).  Exit 2 when a benchmark or its reference could
 * not run.
 *
 * judge: the lines of many runs, each in a process of its own (where
 * code and data land differs between processes, and moved a ratio by up
 * to 8% here; with that layout fixed, setarch -R, by under 1%): per
 * benchmark the median of the runs' ratios and its distribution-free 95%
 * interval:
 *   within  the interval lies inside 1 +- TOLERANCE;
 *   MISS    the median itself is outside;
 *   UNSURE  the median is inside, the interval is not (too noisy to tell).
 * Exit 0 when every benchmark is within, 1 otherwise, 2 on bad input.
 *
 * The reference runs in this process, linked in: on a virtual machine a
 * switch to another process can slow the next milliseconds of both (seen
 * here: +10-20% over a 10 ms trial).  Only where the operation starts
 * processes itself (fork, exec, sh; the peers of pipe and bw-pipe) does
 * it run in a small process of its own (PLAIN -s BENCH), as pmbench runs
 * those loops from pmbench-spawner: forking a large process costs more.
 * stat and open look up pmbench's own file, and the whole run stays on
 * CPU: see reference_share_file() and agree_run().
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/runner.h"
#include "results/result.h"
#include "stats/stats.h"
#include "util.h"
#include "plain-loops.h"

struct reference {
	const char *plain, *op, *hello, *tmp;
	int cpu;
	bool started;
	bool inproc;		/* plain_value() here, not PLAIN -s */
	bool shared;		/* stat, open: on pmbench's file (reference_share_file) */
	FILE *to, *from;
	pid_t pid;
	double *v;		/* one value per pmbench trial */
	size_t n, cap;
	int failed;
};

static bool starts_processes(const char *op)
{
	static const char *const ops[] = { "fork", "exec", "sh", "pipe", "bw-pipe" };
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(ops); i++)
		if (!strcmp(op, ops[i]))
			return true;
	return false;
}

static void reference_init(struct reference *r, const char *plain, const char *op,
			   const char *hello, const char *tmp, int cpu)
{
	memset(r, 0, sizeof(*r));
	r->plain = plain;
	r->op = op;
	r->hello = hello;
	r->tmp = tmp;
	r->cpu = cpu;
}

static int reference_start(struct reference *r)
{
	int in[2], out[2];
	cpu_set_t set;

	r->started = true;
	if (!starts_processes(r->op)) {
		r->inproc = true;
		plain_setup(r->op, r->hello, r->tmp, 1);
		return 0;
	}
	if (pipe(in))
		return -errno;
	if (pipe(out)) {
		close(in[0]);
		close(in[1]);
		return -errno;
	}
	r->pid = fork();
	if (r->pid < 0) {
		int err = -errno;

		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		return err;
	}
	if (r->pid == 0) {
		CPU_ZERO(&set);
		CPU_SET(r->cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
		dup2(in[0], 0);
		dup2(out[1], 1);
		close(in[0]);
		close(in[1]);
		close(out[0]);
		close(out[1]);
		execl(r->plain, "plain-loops", "-s", r->op, r->hello, (char *)NULL);
		_exit(127);
	}
	close(in[0]);
	close(out[1]);
	r->to = fdopen(in[1], "w");
	r->from = fdopen(out[0], "r");
	if (!r->to || !r->from)
		return -ENOMEM;
	setvbuf(r->to, NULL, _IONBF, 0);
	return 0;
}

static char scratch[4096];

/*
 * stat and open: the reference looks up the file pmbench's benchmark
 * made, the one regular file in pmbench's scratch directory (by the first
 * trial its setup has run).  Two files made alike in the same minute
 * cost up to 3% apart to look up on this project's VM: with a file each,
 * the ratio measured the files, not the loops.  0, or -errno.
 */
static int reference_share_file(struct reference *r)
{
	char path[sizeof(scratch) + 256] = "";
	struct dirent *de;
	struct stat st;
	int n = 0;
	DIR *d;

	r->shared = true;
	if (strcmp(r->op, "stat") && strcmp(r->op, "open"))
		return 0;
	d = opendir(scratch);
	if (!d) {
		fprintf(stderr, "pmbench-agree: %s: %s\n", scratch, strerror(errno));
		return -ENOENT;
	}
	while ((de = readdir(d))) {
		char p[sizeof(path)];

		snprintf(p, sizeof(p), "%s/%s", scratch, de->d_name);
		if (lstat(p, &st) == 0 && S_ISREG(st.st_mode) && n++ == 0)
			snprintf(path, sizeof(path), "%s", p);
	}
	closedir(d);
	if (n != 1) {
		fprintf(stderr, "pmbench-agree: %s: %d files in %s, not pmbench's one\n",
			r->op, n, scratch);
		return -ENOENT;
	}
	plain_use_file(path);
	return 0;
}

/* The runner's after_trial hook: one reference trial of as many
 * iterations as pmbench's trial had, untimed by pmbench. */
static void reference_trial(void *arg, uint64_t iters)
{
	struct reference *r = arg;
	char line[64];
	double v = NAN;

	if (!r->started && reference_start(r))
		r->failed = 1;
	if (!r->failed && r->inproc && !r->shared && reference_share_file(r))
		r->failed = 1;
	if (!r->failed && r->inproc)
		v = plain_value(r->op, (long)iters);
	else if (!r->failed && fprintf(r->to, "%lu\n", (unsigned long)iters) > 0 &&
		 fgets(line, sizeof(line), r->from))
		v = strtod(line, NULL);
	if (isnan(v))
		r->failed = 1;
	if (r->n == r->cap) {
		r->cap = r->cap ? 2 * r->cap : 256;
		r->v = pm_xrealloc(r->v, r->cap * sizeof(*r->v));
	}
	r->v[r->n++] = v;
}

static void reference_stop(struct reference *r)
{
	int status;

	if (r->inproc)
		plain_cleanup();
	if (r->to)
		fclose(r->to);
	if (r->from)
		fclose(r->from);
	if (r->pid > 0)
		while (waitpid(r->pid, &status, 0) < 0 && errno == EINTR)
			;
	free(r->v);
}

static void remove_scratch(void)
{
	pm_rmtree(scratch);
}

/* Ctrl-C: the runner stops at the next trial; main then removes the
 * scratch directories and reaps the reference's process. */
static void on_signal(int sig)
{
	(void)sig;
	pm_interrupted = 1;
}

/* One block: both set up (the reference first, or with late after
 * pmbench's first trial), pmbench's trials each followed by one of the
 * reference's, both torn down.  *ratio: the median of the pairs' ratios.
 * 0, or 2 when either could not run. */
static int agree_block(const struct pm_bench *b, const char *plain, const char *tmp,
		       struct pm_run_opts *o, bool late, double *pm, double *rf,
		       double *ratio)
{
	struct pm_bench_result out = { 0 };
	struct pm_err e = { "" };
	struct reference ref;
	size_t i, n = 0;
	double *q;
	int err = 0;

	reference_init(&ref, plain, b->name, o->hello, tmp, o->cpu);
	err = late ? 0 : reference_start(&ref);
	if (err) {
		fprintf(stderr, "pmbench-agree: %s: cannot start %s: %s\n", b->name,
			plain, strerror(-err));
		reference_stop(&ref);
		return 2;
	}
	o->after_trial = reference_trial;
	o->after_trial_arg = &ref;
	pm_run_bench(b, o, &out, &e);
	if (out.status != PM_BENCH_OK || ref.failed || ref.n != out.ntrials) {
		fprintf(stderr, "pmbench-agree: %s: %s\n", b->name,
			out.status != PM_BENCH_OK ? (out.reason ? out.reason : "failed") :
			"the reference loop failed");
		err = 2;
		goto out;
	}
	q = pm_xcalloc(out.ntrials, sizeof(*q));
	for (i = 0; i < out.ntrials; i++)
		if (ref.v[i] > 0)
			q[n++] = out.trials[i] / ref.v[i];
	*pm = pm_median(out.trials, out.ntrials);
	*rf = pm_median(ref.v, ref.n);
	*ratio = pm_median(q, n);
	free(q);
out:
	reference_stop(&ref);
	pm_bench_result_free(&out);
	return err;
}

/* One crossover pair of blocks of benchmark name: its line, or 2 when
 * it could not run. */
static int agree_run_one(const char *name, const char *plain, const char *tmp,
			 struct pm_run_opts *o)
{
	const struct pm_bench *b = pm_bench_find(name);
	double pm[2], rf[2], q[2];
	int rc;

	if (!b) {
		fprintf(stderr, "pmbench-agree: no benchmark %s\n", name);
		return 2;
	}
	rc = agree_block(b, plain, tmp, o, false, &pm[0], &rf[0], &q[0]);
	if (!rc)
		rc = agree_block(b, plain, tmp, o, true, &pm[1], &rf[1], &q[1]);
	if (rc)
		return rc;
	printf("%s %.1f %.1f %.5f\n", name, sqrt(pm[0] * pm[1]), sqrt(rf[0] * rf[1]),
	       sqrt(q[0] * q[1]));
	fflush(stdout);
	return 0;
}

static int agree_run(int argc, char **argv)
{
	struct pm_run_opts o;
	const char *tmp = getenv("TMPDIR");
	int i, rc = 0, r;

	if (argc < 7) {
		fprintf(stderr, "usage: pmbench-agree run PLAIN HELLO SPAWNER CPU SECONDS "
			"BENCH...\n");
		return 2;
	}
	pm_run_opts_default(&o);
	o.hello = argv[2];
	o.spawner = argv[3];
	o.cpu = atoi(argv[4]);
	o.max_time_s = atof(argv[5]);
	/* every trial of the budget: no early stop, no cap before it */
	o.ci_target = 0;
	o.max_trials = 1000000;
	o.counters = false;
	tmp = tmp && *tmp ? tmp : "/tmp";
	snprintf(scratch, sizeof(scratch), "%s/pmbench.XXXXXX", tmp);
	if (!mkdtemp(scratch)) {
		perror(scratch);
		return 2;
	}
	atexit(remove_scratch);	/* also when a reference loop dies */
	o.scratch = scratch;
	/* Pinned from the start, not only while pmbench's runner runs: the
	 * reference's set-up times what it subtracts (sig-catch's kill(self,
	 * 0), prot-fault's catch, page-fault-lmb's remap), and timed before
	 * the runner pinned the process that read 18-26% above the same
	 * loop timed pinned, in 6 processes of 10. */
	r = pm_pin_self(o.cpu);
	if (r) {
		fprintf(stderr, "pmbench-agree: cannot run on CPU %d: %s\n", o.cpu,
			strerror(-r));
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	for (i = 6; i < argc && !pm_interrupted; i++) {
		r = agree_run_one(argv[i], argv[1], tmp, &o);
		if (r > rc)
			rc = r;
	}
	return pm_interrupted ? 130 : rc;
}

/* The lines of every run, benchmark by benchmark, in the order first seen. */
struct judged {
	char name[64];
	double *pm, *rf, *q;
	size_t n, cap;
};

static struct judged *judged_find(struct judged **v, size_t *n, const char *name)
{
	struct judged *j;
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*v)[i].name, name))
			return &(*v)[i];
	*v = pm_xrealloc(*v, (*n + 1) * sizeof(**v));
	j = &(*v)[(*n)++];
	memset(j, 0, sizeof(*j));
	snprintf(j->name, sizeof(j->name), "%s", name);
	return j;
}

static void judged_add(struct judged *j, double pm, double rf, double q)
{
	if (j->n == j->cap) {
		j->cap = j->cap ? 2 * j->cap : 16;
		j->pm = pm_xrealloc(j->pm, j->cap * sizeof(double));
		j->rf = pm_xrealloc(j->rf, j->cap * sizeof(double));
		j->q = pm_xrealloc(j->q, j->cap * sizeof(double));
	}
	j->pm[j->n] = pm;
	j->rf[j->n] = rf;
	j->q[j->n++] = q;
}

/* 0 within, 1 when one is not */
static int judge_one(const struct judged *j, double tol)
{
	struct pm_summary ratio;
	const char *verdict;
	int rc = 0;

	pm_summarize(j->q, j->n, 0.95, &ratio);
	if (!(fabs(ratio.median - 1) <= tol))
		verdict = "MISS", rc = 1;
	else if (!(ratio.ci_low >= 1 - tol && ratio.ci_high <= 1 + tol))
		verdict = "UNSURE", rc = 1;
	else
		verdict = "within";
	printf("%-15s %4zu %12.1f %12.1f %7.3f  %5.3f..%5.3f  %s\n", j->name, j->n,
	       pm_median(j->pm, j->n), pm_median(j->rf, j->n), ratio.median,
	       ratio.ci_low, ratio.ci_high, verdict);
	return rc;
}

static int agree_judge(int argc, char **argv)
{
	struct judged *v = NULL;
	size_t n = 0, i;
	char name[64];
	double tol, pm, rf, q;
	FILE *f;
	int rc = 0, r;

	if (argc != 3) {
		fprintf(stderr, "usage: pmbench-agree judge TOLERANCE FILE\n");
		return 2;
	}
	tol = atof(argv[1]);
	f = fopen(argv[2], "r");
	if (!f) {
		fprintf(stderr, "pmbench-agree: %s: %s\n", argv[2], strerror(errno));
		return 2;
	}
	while ((r = fscanf(f, "%63s %lf %lf %lf", name, &pm, &rf, &q)) == 4)
		judged_add(judged_find(&v, &n, name), pm, rf, q);
	if (r != EOF || !n) {
		fprintf(stderr, "pmbench-agree: %s: not lines of \"name ns ns ratio\"\n",
			argv[2]);
		fclose(f);
		return 2;
	}
	fclose(f);
	printf("%-15s %4s %12s %12s %7s  %12s  %s\n", "benchmark", "runs", "pmbench ns",
	       "ref ns", "ratio", "95% interval", "verdict");
	for (i = 0; i < n; i++) {
		rc |= judge_one(&v[i], tol);
		free(v[i].pm);
		free(v[i].rf);
		free(v[i].q);
	}
	free(v);
	return rc;
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "run"))
		return agree_run(argc - 1, argv + 1);
	if (argc > 1 && !strcmp(argv[1], "judge"))
		return agree_judge(argc - 1, argv + 1);
	fprintf(stderr, "usage: pmbench-agree run PLAIN HELLO SPAWNER CPU SECONDS BENCH...\n"
		"       pmbench-agree judge TOLERANCE FILE\n");
	return 2;
}
