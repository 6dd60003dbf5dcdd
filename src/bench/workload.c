/*
 * Whole workloads: run a command as it is, timed, counted and sampled
 * with all its children (pmbench stat, pmbench-stat(1)).
 *
 * A run: fork; the child puts itself in a process group of its own and
 * waits on a pipe; counters and the sampler are attached to it with
 * inherit (every process it will start is counted and sampled); the
 * clock starts and the pipe is closed; the child execs the command; the
 * parent waits for it on a pidfd (draining the sample buffers meanwhile)
 * and reaps it with wait4(), which gives the user and system time of the
 * command and of every descendant it reaped.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#if defined(__has_include)
#if __has_include(<linux/close_range.h>)
#include <linux/close_range.h>
#endif
#endif

#include "bench/runner.h"
#include "bench/workload.h"

extern char **environ;

/* ---- commands ---- */

/* Names and texts go into result files: valid UTF-8 only. */
static char *valid_text(char *s)
{
	json_t *j = pm_json_text(s);
	char *v = pm_xstrdup(json_string_value(j));

	json_decref(j);
	free(s);
	return v;
}

void pm_command_init(struct pm_command *c, char *const *args, size_t n,
		     const char *name)
{
	size_t i;
	char *q;

	memset(c, 0, sizeof(*c));
	if (n == 1) {
		c->text = pm_xstrdup(args[0]);
		q = pm_sh_quote(args[0]);
		/* a plain word needs no shell; anything else is shell text */
		c->shell = strcmp(q, args[0]) != 0;
		free(q);
	} else {
		struct pm_buf text = PM_BUF_INIT;

		/* the argv as one would type it */
		for (i = 0; i < n; i++) {
			q = pm_sh_quote(args[i]);
			pm_buf_addf(&text, "%s%s", i ? " " : "", q);
			free(q);
		}
		c->text = n ? pm_buf_detach(&text) : NULL;
	}
	if (c->shell) {
		c->argv = pm_xcalloc(4, sizeof(char *));
		c->argv[0] = pm_xstrdup("/bin/sh");
		c->argv[1] = pm_xstrdup("-c");
		c->argv[2] = pm_xstrdup(args[0]);
	} else {
		c->argv = pm_xcalloc(n + 1, sizeof(char *));
		for (i = 0; i < n; i++)
			c->argv[i] = pm_xstrdup(args[i]);
	}
	c->name = valid_text(pm_xstrdup(name ? name : c->text));
	c->text = valid_text(c->text);
}

void pm_command_free(struct pm_command *c)
{
	size_t i;

	for (i = 0; c->argv && c->argv[i]; i++)
		free(c->argv[i]);
	free(c->argv);
	free(c->text);
	free(c->name);
	memset(c, 0, sizeof(*c));
}

char *pm_wait_status_text(int status)
{
	if (WIFEXITED(status))
		return pm_xasprintf("exit status %d", WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return pm_xasprintf("killed by signal %d (%s)%s", WTERMSIG(status),
				    strsignal(WTERMSIG(status)),
				    WCOREDUMP(status) ? ", core dumped" : "");
	return pm_xasprintf("wait status 0x%x", status);
}

char *pm_file_tail(const char *path, unsigned max_lines)
{
	char buf[2048], *p;
	off_t size;
	ssize_t n;
	unsigned lines = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return NULL;
	size = lseek(fd, 0, SEEK_END);
	if (size <= 0 || lseek(fd, size > (off_t)sizeof(buf) - 1 ?
			       size - (off_t)sizeof(buf) + 1 : 0, SEEK_SET) < 0) {
		close(fd);
		return NULL;
	}
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == '\n')
		buf[--n] = '\0';
	/* back from the end to the start of the max_lines-th last line */
	for (p = buf + n; p > buf; p--)
		if (p[-1] == '\n' && ++lines == max_lines)
			break;
	return *p ? pm_xstrdup(p) : NULL;
}

/* ---- one run ---- */

static int pidfd_of(pid_t pid)
{
#ifdef SYS_pidfd_open
	return (int)syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

/* Nothing of pmbench's may leak into the command: close every other
 * descriptor on exec. */
static void cloexec_from(int lowfd)
{
	int fd;

#if defined(SYS_close_range) && defined(CLOSE_RANGE_CLOEXEC)
	if (syscall(SYS_close_range, lowfd, ~0U, CLOSE_RANGE_CLOEXEC) == 0)
		return;
#endif
	for (fd = lowfd; fd < 4096; fd++)
		fcntl(fd, F_SETFD, FD_CLOEXEC);
}

/* The child: own process group, plain signals, /dev/null for input and
 * (unless shown) output, then wait for the release and exec. */
static void child(const struct pm_command *c, const struct pm_spawn_opts *o,
		  pid_t parent, int go, int report)
{
	sigset_t none;
	int fd, err;
	char ch;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	/* pmbench ignores SIGPIPE; the command must not inherit that */
	signal(SIGPIPE, SIG_DFL);
	setpgid(0, 0);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(127);
	fd = open("/dev/null", O_RDWR);
	if (fd < 0)
		goto fail;
	if (dup2(fd, 0) < 0)
		goto fail;
	if (!o->show_output) {
		if (dup2(fd, 1) < 0)
			goto fail;
		if (o->err_path) {
			int efd = open(o->err_path, O_WRONLY | O_CREAT | O_TRUNC, 0600);

			if (efd < 0 || dup2(efd, 2) < 0)
				goto fail;
			if (efd != 2)
				close(efd);
		} else if (dup2(fd, 2) < 0) {
			goto fail;
		}
	}
	if (fd > 2)
		close(fd);
	cloexec_from(3);
	/* released when the parent closes its end */
	while (read(go, &ch, 1) < 0 && errno == EINTR)
		;
	execvp(c->argv[0], c->argv);
fail:
	err = errno;
	if (write(report, &err, sizeof(err)) < 0)
		_exit(127);
	_exit(127);
}

/* Wait for the command: on its pidfd, draining samples every 10 ms;
 * forward an interruption to its process group. */
static int wait_child(pid_t pid, struct pm_profile *pr, struct pm_spawn *out,
		      uint64_t *end)
{
	int pfd = pidfd_of(pid), status;
	uint64_t kill_at = 0;
	bool stopped = false;

	for (;;) {
		pid_t r = wait4(pid, &status, WNOHANG, &out->ru);
		struct pollfd p = { .fd = pfd, .events = POLLIN };
		int timeout = pr ? 10 : 100;

		if (r == pid) {
			*end = pm_now_ns();
			out->status = status;
			break;
		}
		if (r < 0 && errno != EINTR) {
			int err = -errno;

			if (pfd >= 0)
				close(pfd);
			return err;
		}
		if (pm_interrupted && !stopped) {
			kill(-pid, SIGINT);
			stopped = true;
			out->interrupted = true;
			kill_at = pm_now_ns() + 2000000000ull;
		}
		if (stopped && kill_at && pm_now_ns() >= kill_at) {
			kill(-pid, SIGKILL);
			kill_at = 0;
		}
		if (pfd >= 0)
			poll(&p, 1, timeout);
		else
			poll(NULL, 0, 1);	/* no pidfd (kernel < 5.3): 1 ms steps */
		if (pr)
			pm_profile_drain(pr);
	}
	if (pfd >= 0)
		close(pfd);
	return 0;
}

/* Counters and the profiler on the child, before it runs: its counters
 * (NULL when none); what failed is said in out. */
static struct pm_counters *observe_child(const struct pm_spawn_opts *o, pid_t pid,
					 struct pm_spawn *out)
{
	struct pm_counters *cnt = NULL;
	int err;

	if (o->events && o->events->n) {
		struct pm_err ce;

		if (pm_counters_open(&cnt, o->events, &pid, 1, true, &ce) ||
		    pm_counters_snapshot(cnt) || pm_counters_enable(cnt)) {
			out->count_error = pm_xstrdup(cnt ? "cannot start the counters" : ce.msg);
			pm_counters_close(cnt);
			cnt = NULL;
		}
	}
	if (o->profiler) {
		struct pm_err pe;

		if (pm_profile_begin(&out->profile, o->profiler, &pid, 1, true, &pe)) {
			out->profile = NULL;
			out->profile_error = pm_xstrdup(pe.msg);
		} else if ((err = pm_profile_enable(out->profile))) {
			out->profile_error = pm_xasprintf("cannot enable sampling: %s",
							  strerror(-err));
		}
	}
	return cnt;
}

/* After the child: its counts and its samples into out. */
static void observed_child(const struct pm_spawn_opts *o, struct pm_counters *cnt,
			   struct pm_spawn *out)
{
	if (cnt) {
		out->counts = pm_xcalloc(o->events->n, sizeof(*out->counts));
		pm_counters_disable(cnt);
		if (pm_counters_delta(cnt, out->counts)) {
			free(out->counts);
			out->counts = NULL;
			out->count_error = pm_xstrdup("the counters could not be read");
		}
		pm_counters_close(cnt);
	}
	if (out->profile) {
		pm_profile_disable(out->profile);
		pm_profile_drain(out->profile);
	}
}

int pm_spawn_run(const struct pm_command *c, const struct pm_spawn_opts *o,
		 struct pm_spawn *out, struct pm_err *e)
{
	struct pm_counters *cnt = NULL;
	int go[2], report[2], err = 0, child_errno = 0;
	pid_t parent = getpid(), pid;
	uint64_t t0, t1 = 0;
	ssize_t n;

	memset(out, 0, sizeof(*out));
	if (pipe2(go, O_CLOEXEC))
		return pm_err_set(e, -errno, "cannot run '%s': pipe: %s", c->text,
				  strerror(errno));
	if (pipe2(report, O_CLOEXEC)) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		return pm_err_set(e, err, "cannot run '%s': pipe: %s", c->text,
				  strerror(-err));
	}
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(go[0]);
		close(go[1]);
		close(report[0]);
		close(report[1]);
		return pm_err_set(e, err, "cannot run '%s': fork: %s", c->text,
				  strerror(-err));
	}
	if (pid == 0) {
		close(go[1]);
		close(report[0]);
		child(c, o, parent, go[0], report[1]);
	}
	close(go[0]);
	close(report[1]);
	setpgid(pid, pid);	/* either side may get there first */

	cnt = observe_child(o, pid, out);

	t0 = pm_now_ns();
	close(go[1]);
	/* EOF: exec succeeded (the pipe closed on exec); else its errno */
	do
		n = read(report[0], &child_errno, sizeof(child_errno));
	while (n < 0 && errno == EINTR);
	close(report[0]);
	if (n == (ssize_t)sizeof(child_errno))
		out->exec_errno = child_errno;
	err = wait_child(pid, out->profile, out, &t1);
	if (err) {
		/* cannot happen for our own child; do not leave it behind */
		kill(-pid, SIGKILL);
		while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
			;
		pm_counters_close(cnt);
		pm_err_set(e, err, "cannot wait for '%s': %s", c->text, strerror(-err));
		pm_spawn_free(out);
		return err;
	}
	out->elapsed_ns = t1 - t0;
	observed_child(o, cnt, out);
	return 0;
}

void pm_spawn_free(struct pm_spawn *s)
{
	free(s->counts);
	free(s->count_error);
	free(s->profile_error);
	if (s->profile)
		json_decref(pm_profile_end(s->profile, 0, NAN, 0));
	memset(s, 0, sizeof(*s));
}

/* ---- pmbench stat ---- */

/* The environment that changes what a command does or how fast:
 * exact names, then prefixes. */
static const char *const env_names[] = {
	"PATH", "SHELL", "LANG", "LANGUAGE", "TZ", "TMPDIR", "CC", "CXX", "CPP",
	"CFLAGS", "CXXFLAGS", "CPPFLAGS", "LDFLAGS", "GLIBC_TUNABLES",
};
static const char *const env_prefixes[] = {
	"LC_", "LD_", "MAKE", "MFLAGS", "MALLOC_", "CCACHE_", "OMP_", "GOMP_",
};

static json_t *environment_json(void)
{
	json_t *o = json_object();
	char **v;
	size_t i;

	for (v = environ; v && *v; v++) {
		const char *eq = strchr(*v, '=');
		bool keep = false;
		char *name;

		if (!eq)
			continue;
		name = pm_xasprintf("%.*s", (int)(eq - *v), *v);
		for (i = 0; i < PM_ARRAY_SIZE(env_names) && !keep; i++)
			keep = !strcmp(name, env_names[i]);
		for (i = 0; i < PM_ARRAY_SIZE(env_prefixes) && !keep; i++)
			keep = !strncmp(name, env_prefixes[i], strlen(env_prefixes[i]));
		if (keep)
			json_object_set_new(o, name, pm_json_text(eq + 1));
		free(name);
	}
	return o;
}

/* One command's progress through the call. */
struct cmd_state {
	const struct pm_command *c;
	struct pm_bench_result *b;
	json_t *w;		/* b->workload */
	struct pm_count *sum;	/* per event, over the counted runs */
	unsigned counted;	/* runs counted */
	char *count_why;	/* why a run was not counted */
	double timed_s;		/* wall time of its timed runs */
	double user_ns, sys_ns;	/* sums over the timed runs */
	unsigned nonzero;	/* runs that exited non-zero (--ignore-failure) */
	bool done;
	const char *prepare, *cleanup;
};

static double mean_of(const double *v, size_t n)
{
	double m, h;

	pm_mean_ci(v, n, 0.95, &m, &h);
	return m;
}

/* Relative half-width of the interval of the mean elapsed time. */
static double rel_ci(const struct cmd_state *s, double level)
{
	double m, h;

	pm_mean_ci(s->b->trials, s->b->ntrials, level, &m, &h);
	return m > 0 ? h / m : NAN;
}

static bool enough_runs(const struct cmd_state *s, const struct pm_stat_opts *o)
{
	size_t n = s->b->ntrials;

	if (o->runs)
		return n >= o->runs;
	if (n < o->min_runs)
		return false;
	return !(rel_ci(s, o->ci_level) > o->ci_target) || n >= o->max_runs ||
	       s->timed_s >= o->max_time_s;
}

/* Runs still to come, estimated from the spread so far. */
static double runs_left(const struct cmd_state *s, const struct pm_stat_opts *o)
{
	size_t n = s->b->ntrials;
	double m, h, need, budget;

	if (s->done)
		return 0;
	if (o->runs)
		return (double)o->runs - (double)n;
	pm_mean_ci(s->b->trials, n, o->ci_level, &m, &h);
	if (n < 2 || !(m > 0))
		return fmax(1, (double)o->min_runs - (double)n);
	/* the half-width shrinks as 1/sqrt(n) */
	need = (double)n * (h / m / o->ci_target) * (h / m / o->ci_target);
	need = fmin(fmax(need, o->min_runs), o->max_runs);
	budget = (double)n + fmax(0, (o->max_time_s - s->timed_s) / (m / 1e9));
	return fmax(fmax((double)o->min_runs - (double)n, 0), fmin(need, budget) - (double)n);
}

/* "[1/2] make -j2  run 4/5  last 12.1 s  mean 12.3 s ±1.2%  ETA 1:02" */
static void progress(const struct cmd_state *st, size_t n, size_t i,
		     const struct pm_stat_opts *o, const char *stage)
{
	const struct pm_bench_result *b = st[i].b;
	char a[32], m[32], eta[32] = "";
	double left = 0;
	size_t k;

	if (!o->progress)
		return;
	for (k = 0; k < n; k++) {
		double mk = mean_of(st[k].b->trials, st[k].b->ntrials);

		if (mk > 0)
			left += (runs_left(&st[k], o) + (o->profiler ? 1 : 0)) * mk;
	}
	if (left > 0) {
		unsigned long s = (unsigned long)(left / 1e9 + 0.5);

		snprintf(eta, sizeof(eta), "  ETA %lu:%02lu", s / 60, s % 60);
	}
	fprintf(stderr, "\r\033[K");
	if (n > 1)
		fprintf(stderr, "[%zu/%zu] ", i + 1, n);
	fprintf(stderr, "%.40s  %s", st[i].c->name, stage);
	if (!strcmp(stage, "run")) {
		fprintf(stderr, " %zu", b->ntrials + 1);
		if (o->runs)
			fprintf(stderr, "/%u", o->runs);
	}
	if (b->ntrials) {
		pm_fmt_time(a, sizeof(a), b->trials[b->ntrials - 1]);
		pm_fmt_time(m, sizeof(m), mean_of(b->trials, b->ntrials));
		fprintf(stderr, "  last %s  mean %s", a, m);
		if (b->ntrials > 1)
			fprintf(stderr, " ±%.1f%%", 100 * rel_ci(&st[i], o->ci_level));
	}
	fprintf(stderr, "%s", eta);
	fflush(stderr);
}

static json_t *jint_or_null(bool have, long long v)
{
	return have ? json_integer(v) : json_null();
}

static double tv_ns(struct timeval tv)
{
	return (double)tv.tv_sec * 1e9 + (double)tv.tv_usec * 1e3;
}

/* The failure of a run (or of its --prepare), recorded and made the
 * entry's reason. */
static void record_failure(struct cmd_state *s, const struct pm_stat_opts *o,
			   const char *stage, unsigned run, const char *what,
			   const struct pm_spawn *r)
{
	char *st = r->exec_errno ? pm_xasprintf("cannot run: %s", strerror(r->exec_errno)) :
				   pm_wait_status_text(r->status);
	char *path = pm_xasprintf("%s/stderr", o->scratch);
	char *tail = r->exec_errno || o->show_output ? NULL : pm_file_tail(path, 10);
	json_t *f;

	free(path);
	f = json_pack("{s:s,s:i,s:o,s:s,s:o,s:o,s:o}", "stage", stage, "run", (int)run,
		      "command", pm_json_text(what), "status", st,
		      "exit_status", jint_or_null(!r->exec_errno && WIFEXITED(r->status),
						  WEXITSTATUS(r->status)),
		      "signal", jint_or_null(!r->exec_errno && WIFSIGNALED(r->status),
					     WTERMSIG(r->status)),
		      "stderr_tail", pm_json_text(tail));
	json_object_set_new(s->w, "failure", f);
	if (strcmp(stage, "cleanup")) {
		s->b->status = PM_BENCH_FAILED;
		free(s->b->reason);
		if (!strcmp(stage, "prepare"))
			s->b->reason = pm_xasprintf("--prepare '%s' failed before run %u: %s",
						    what, run, st);
		else
			s->b->reason = pm_xasprintf("%s in %s %u", st, stage, run);
	}
	free(st);
	free(tail);
}

static bool failed(const struct pm_spawn *r)
{
	return r->exec_errno || !WIFEXITED(r->status) || WEXITSTATUS(r->status);
}

/* A --prepare or --cleanup text: through the shell, not counted. */
static int run_aux(struct cmd_state *s, const struct pm_stat_opts *o, const char *text,
		   const char *stage, unsigned run, struct pm_err *e)
{
	char *path = pm_xasprintf("%s/stderr", o->scratch);
	char *args[] = { (char *)text };
	struct pm_spawn_opts so = { .show_output = o->show_output, .err_path = path };
	struct pm_command aux;
	struct pm_spawn r;
	int err;

	pm_command_init(&aux, args, 1, NULL);
	if (!aux.shell) {
		/* one word: still the shell's, so builtins and functions work */
		pm_command_free(&aux);
		aux.text = pm_xstrdup(text);
		aux.name = pm_xstrdup(text);
		aux.shell = true;
		aux.argv = pm_xcalloc(4, sizeof(char *));
		aux.argv[0] = pm_xstrdup("/bin/sh");
		aux.argv[1] = pm_xstrdup("-c");
		aux.argv[2] = pm_xstrdup(text);
	}
	err = pm_spawn_run(&aux, &so, &r, e);
	pm_command_free(&aux);
	free(path);
	if (err)
		return err;
	if (r.interrupted || pm_interrupted) {
		pm_spawn_free(&r);
		return -EINTR;
	}
	if (failed(&r)) {
		record_failure(s, o, stage, run, text, &r);
		pm_spawn_free(&r);
		return 1;
	}
	pm_spawn_free(&r);
	return 0;
}

/* Add a run's counts to the command's sums. */
static void add_counts(struct cmd_state *s, const struct pm_events *ev,
		       const struct pm_spawn *r, json_t *run)
{
	json_t *c = json_object();
	size_t i;

	if (!r->counts) {
		if (!s->count_why)
			s->count_why = pm_xstrdup(r->count_error ? r->count_error :
						  "not counted");
		json_decref(c);
		return;
	}
	if (!s->sum) {
		s->sum = pm_xcalloc(ev->n, sizeof(*s->sum));
		for (i = 0; i < ev->n; i++) {
			s->sum[i].running = 1;
			s->sum[i].user = ev->v[i].split ? 0 : NAN;
			s->sum[i].kernel = ev->v[i].split ? 0 : NAN;
		}
	}
	for (i = 0; i < ev->n; i++) {
		const struct pm_count *x = &r->counts[i];

		if (ev->v[i].status != PM_CNT_OK)
			continue;
		s->sum[i].total += x->total;
		if (ev->v[i].split) {
			s->sum[i].user += x->user;
			s->sum[i].kernel += x->kernel;
		}
		/* the least-counted run stands for all */
		if (x->running < s->sum[i].running)
			s->sum[i].running = x->running;
		s->sum[i].counted = s->sum[i].counted || x->counted;
		s->sum[i].enabled_ns += x->enabled_ns;
		if (x->counted)
			json_object_set_new(c, ev->v[i].name, json_real(x->total));
	}
	s->counted++;
	json_object_set_new(run, "counters", c);
}

/* Record a timed run: a trial, a round of its own, the run's details. */
static void record_run(struct cmd_state *s, const struct pm_stat_opts *o,
		       const struct pm_spawn *r, uint64_t started)
{
	struct pm_round round = { .run = 0 };
	double elapsed = (double)r->elapsed_ns, user = tv_ns(r->ru.ru_utime);
	double sys = tv_ns(r->ru.ru_stime);
	json_t *run;
	int busy = pm_runnable_now();

	round.reference_ns = pm_reference_ns();
	round.busy = busy > 0 ? busy - 1 : NAN;
	round.started_s = (double)(started - o->start_ns) / 1e9;
	pm_bench_result_add_round(s->b, &elapsed, 1, &round);
	run = json_pack("{s:f,s:f,s:f,s:o,s:o,s:I,s:I,s:I,s:I,s:I,s:f}",
		"elapsed_ns", elapsed, "user_ns", user, "system_ns", sys,
		"exit_status", jint_or_null(WIFEXITED(r->status), WEXITSTATUS(r->status)),
		"signal", jint_or_null(WIFSIGNALED(r->status), WTERMSIG(r->status)),
		"max_rss_kb", (json_int_t)r->ru.ru_maxrss,
		"minor_faults", (json_int_t)r->ru.ru_minflt,
		"major_faults", (json_int_t)r->ru.ru_majflt,
		"voluntary_switches", (json_int_t)r->ru.ru_nvcsw,
		"involuntary_switches", (json_int_t)r->ru.ru_nivcsw,
		"started_s", round.started_s);
	if (o->events && o->events->n)
		add_counts(s, o->events, r, run);
	json_array_append_new(json_object_get(s->w, "runs"), run);
	s->user_ns += user;
	s->sys_ns += sys;
	s->timed_s += elapsed / 1e9;
	if (failed(r))
		s->nonzero++;
}

static void begin_entry(struct cmd_state *s, const struct pm_stat_opts *o)
{
	struct pm_bench_result *b = s->b;
	char cwd[4096];
	json_t *argv = json_array();
	size_t i;

	b->name = pm_xstrdup(s->c->name);
	b->group = pm_xstrdup("workload");
	/* the name is the command unless given: then say it once */
	b->summary = strcmp(s->c->name, s->c->text) ? pm_xstrdup(s->c->text) :
		     pm_xstrdup("the command, run as given");
	b->unit = pm_xstrdup("s");
	b->status = PM_BENCH_OK;
	b->iterations = 1;
	b->ops_per_iter = 1;
	b->cpu = -1;
	b->reference_ns = b->busy = NAN;
	b->counters.ns_per_op = b->counters.perturbation = b->counters.waited = NAN;
	b->counters.ru_user_ns = b->counters.ru_sys_ns = NAN;
	for (i = 0; s->c->argv[i]; i++)
		json_array_append_new(argv, pm_json_text(s->c->argv[i]));
	s->w = json_pack("{s:o,s:o,s:o,s:o,s:o,s:o,s:i,s:o}",
		"command", argv,
		"shell", s->c->shell ? pm_json_text(s->c->argv[2]) : json_null(),
		"directory", pm_json_text(getcwd(cwd, sizeof(cwd))),
		"environment", environment_json(),
		"prepare", pm_json_text(s->prepare),
		"cleanup", pm_json_text(s->cleanup),
		"warmup", (int)o->warmup,
		"runs", json_array());
	b->workload = s->w;
}

/* The entry's figures once the runs are over. */
static void finish_entry(struct cmd_state *s, const struct pm_stat_opts *o)
{
	struct pm_bench_result *b = s->b;
	size_t n = b->ntrials;
	char *why = NULL;

	if (n)
		pm_bench_result_summarize(b, o->ci_level);
	b->converged = n > 1 && !(rel_ci(s, o->ci_level) > o->ci_target);
	json_object_set_new(s->w, "ignore_failure", json_boolean(o->ignore_failure));
	json_object_set_new(s->w, "nonzero_runs", json_integer(s->nonzero));
	if (!o->events || !o->events->n || !n)
		return;
	if (!s->counted)
		why = pm_xasprintf("no run was counted: %s",
				   s->count_why ? s->count_why : "interrupted");
	pm_record_counters(b, o->events, s->counted ? s->sum : NULL, s->counted, why);
	free(why);
	b->counters.done = s->counted > 0;
	b->counters.ops = s->counted;
	b->counters.inherit = true;
	b->counters.processes = 1;
	b->counters.ns_per_op = mean_of(b->trials, n);
	b->counters.ru_user_ns = s->user_ns / (double)n;
	b->counters.ru_sys_ns = s->sys_ns / (double)n;
}

/* One run of command i: its --prepare, then the command. */
static int one_run(struct cmd_state *s, const struct pm_stat_opts *o, const char *stage,
		   unsigned run, const struct pm_spawn_opts *so, struct pm_spawn *r,
		   struct pm_err *e)
{
	int err;

	if (s->prepare) {
		err = run_aux(s, o, s->prepare, "prepare", run, e);
		if (err)
			return err;
	}
	err = pm_spawn_run(s->c, so, r, e);
	if (err)
		return err;
	if (r->interrupted || pm_interrupted) {
		pm_spawn_free(r);
		return -EINTR;
	}
	if (r->exec_errno || (failed(r) && !o->ignore_failure)) {
		record_failure(s, o, stage, run, s->c->text, r);
		pm_spawn_free(r);
		return 1;
	}
	return 0;
}

/* The sampled run: the same command once more, children followed. */
static int sampled_run(struct cmd_state *s, const struct pm_stat_opts *o,
		       const struct pm_spawn_opts *base, struct pm_err *e)
{
	struct pm_spawn_opts so = *base;
	struct pm_spawn r;
	double mean = mean_of(s->b->trials, s->b->ntrials);
	char *st;
	int err;

	so.events = NULL;
	so.profiler = o->profiler;
	if (s->prepare) {
		err = run_aux(s, o, s->prepare, "prepare", (unsigned)s->b->ntrials + 1, e);
		if (err)
			return err;
	}
	err = pm_spawn_run(s->c, &so, &r, e);
	if (err)
		return err;
	if (r.interrupted || pm_interrupted) {
		pm_spawn_free(&r);
		return -EINTR;
	}
	if (!r.profile) {
		s->b->hotspots = json_pack("{s:s}", "unavailable",
					   r.profile_error ? r.profile_error : "not sampled");
	} else {
		s->b->hotspots = pm_profile_end(r.profile, 1, mean, (double)r.elapsed_ns);
		r.profile = NULL;
		if (r.profile_error)
			json_object_set_new(s->b->hotspots, "error", pm_json_text(r.profile_error));
	}
	st = r.exec_errno ? pm_xstrdup("could not be started") : pm_wait_status_text(r.status);
	if (failed(&r))
		json_object_set_new(s->b->hotspots, "error",
				    json_sprintf("the sampled run failed: %s", st));
	json_object_set_new(s->w, "sampled_run", json_pack("{s:f,s:o,s:o}",
		"elapsed_ns", (double)r.elapsed_ns,
		"exit_status", jint_or_null(!r.exec_errno && WIFEXITED(r.status),
					    WEXITSTATUS(r.status)),
		"signal", jint_or_null(!r.exec_errno && WIFSIGNALED(r.status),
				       WTERMSIG(r.status))));
	free(st);
	pm_spawn_free(&r);
	return 0;
}

/* The warm-up runs: untimed, uncounted. */
static int warm_up(struct cmd_state *st, size_t n, const struct pm_stat_opts *o,
		   const struct pm_spawn_opts *so, struct pm_err *e)
{
	size_t i;
	unsigned w;
	int err = 0;

	for (w = 0; w < o->warmup && !err; w++) {
		for (i = 0; i < n && !err; i++) {
			struct pm_spawn r;
			uint64_t t = pm_now_ns();

			if (pm_interrupted) {
				err = -EINTR;
				break;
			}
			progress(st, n, i, o, "warm-up");
			err = one_run(&st[i], o, "warm-up", w + 1, so, &r, e);
			if (!err)
				pm_spawn_free(&r);
			st[i].b->elapsed_s += (double)(pm_now_ns() - t) / 1e9;
		}
	}
	return err;
}

/* The timed runs, in turns: forward, then backward, until each command has
 * enough. */
static int timed_turns(struct cmd_state *st, size_t n, const struct pm_stat_opts *o,
		       const struct pm_spawn_opts *so, struct pm_err *e)
{
	size_t k, left;
	unsigned round;
	int err = 0;

	for (round = 0, left = n; !err && left; round++) {
		for (k = 0; k < n && !err; k++) {
			struct cmd_state *s = &st[round % 2 ? n - 1 - k : k];
			struct pm_spawn r;
			uint64_t t = pm_now_ns();

			if (s->done)
				continue;
			if (pm_interrupted) {
				err = -EINTR;
				break;
			}
			progress(st, n, (size_t)(s - st), o, "run");
			err = one_run(s, o, "run", (unsigned)s->b->ntrials + 1, so, &r, e);
			if (!err) {
				record_run(s, o, &r, t);
				pm_spawn_free(&r);
				if (enough_runs(s, o)) {
					s->done = true;
					left--;
				}
			}
			s->b->elapsed_s += (double)(pm_now_ns() - t) / 1e9;
		}
	}
	return err;
}

int pm_stat_run(const struct pm_command *commands, size_t n,
		const struct pm_stat_opts *o, struct pm_bench_result *out,
		struct pm_err *e)
{
	struct cmd_state *st = pm_xcalloc(n, sizeof(*st));
	char *err_path = pm_xasprintf("%s/stderr", o->scratch);
	struct pm_spawn_opts so = { .show_output = o->show_output, .err_path = err_path };
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		st[i].c = &commands[i];
		st[i].b = &out[i];
		st[i].prepare = o->prepare ? o->prepare[i] : NULL;
		st[i].cleanup = o->cleanup ? o->cleanup[i] : NULL;
		begin_entry(&st[i], o);
	}
	err = warm_up(st, n, o, &so, e);
	/* timed runs, in turns: forward, then backward */
	so.events = o->events;
	if (!err)
		err = timed_turns(st, n, o, &so, e);
	/* the sampled runs: after the timed ones, so they bias nothing */
	for (i = 0; i < n && !err && o->profiler; i++) {
		uint64_t t = pm_now_ns();

		if (pm_interrupted) {
			err = -EINTR;
			break;
		}
		progress(st, n, i, o, "sampled run");
		err = sampled_run(&st[i], o, &so, e);
		out[i].elapsed_s += (double)(pm_now_ns() - t) / 1e9;
	}
	/* cleanups: unless interrupted, even after a failure */
	for (i = 0; i < n && err != -EINTR && !pm_interrupted; i++) {
		int cerr;

		if (!st[i].cleanup)
			continue;
		progress(st, n, i, o, "cleanup");
		cerr = run_aux(&st[i], o, st[i].cleanup, "cleanup",
			       (unsigned)out[i].ntrials, e);
		if (cerr < 0 && !err)
			err = cerr;
	}
	if (o->progress)
		fprintf(stderr, "\r\033[K");
	for (i = 0; i < n; i++) {
		finish_entry(&st[i], o);
		free(st[i].sum);
		free(st[i].count_why);
	}
	free(st);
	free(err_path);
	if (err == -EINTR || pm_interrupted)
		return -EINTR;
	return err < 0 ? err : 0;
}
