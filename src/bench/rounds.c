/*
 * Rounds in fresh processes.  Trials inside one process share its
 * address-space layout, its placement and the minute it ran in; two runs
 * of the same kernel can differ by far more than the trials of one run
 * (signal delivery 25% apart between two processes on a VM, for example).
 * So each round of every benchmark runs in a new process, the rounds
 * interleaved across benchmarks, and the spread between rounds (and
 * between runs) is what explain judges a change against.
 *
 * Protocol: the parent writes one JSON request on the worker's stdin; the
 * worker writes one JSON line per finished benchmark on its stdout:
 * {"index": I, "result": <benchmark entry of pmbench-result(5)>}.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/runner.h"
#include "stats/stats.h"

#define WORKER_EXE "/proc/self/exe"
#define WORKER_CMD "__round"

static json_t *request_json(const struct pm_run_opts *o, unsigned round,
			    unsigned rounds, const struct pm_bench *const *benches,
			    const size_t *order, size_t n,
			    const struct pm_bench_result *out, const double *budget)
{
	json_t *list = json_array();
	size_t i;

	for (i = 0; i < n; i++) {
		size_t k = order[i];

		json_array_append_new(list, json_pack("{s:I,s:s,s:I,s:f}",
			"index", (json_int_t)k, "name", benches[k]->name,
			"iterations", (json_int_t)out[k].iterations,
			"max_time_s", budget[k]));
	}
	return json_pack("{s:i,s:i,s:i,s:f,s:f,s:f,s:i,s:i,s:f,s:i,s:s,s:s?,s:s?,s:s?,s:b,s:I,s:o}",
		"round", (int)round, "rounds", (int)rounds, "run", (int)o->run,
		"target_ns", o->target_ns, "ci_target", o->ci_target,
		"ci_level", o->ci_level, "min_trials", (int)o->min_trials,
		"max_trials", (int)o->max_trials, "max_time_s", o->max_time_s,
		"cpu", o->cpu, "placement", pm_placement_name(o->placement),
		"scratch", o->scratch, "hello", o->hello, "spawner", o->spawner,
		"progress", o->progress, "run_start_ns", (json_int_t)o->run_start_ns,
		"benchmarks", list);
}

/* A round's share of the per-benchmark limits. */
static void round_limits(const struct pm_run_opts *o, unsigned rounds,
			 struct pm_run_opts *r)
{
	*r = *o;
	r->min_trials = (o->min_trials + rounds - 1) / rounds;
	if (r->min_trials < 3)
		r->min_trials = 3;
	r->max_trials = (o->max_trials + rounds - 1) / rounds;
	if (r->max_trials < r->min_trials)
		r->max_trials = r->min_trials;
	r->max_time_s = o->max_time_s / rounds;
}

/*
 * The budget of each benchmark in round k: what is left of the run's
 * total (every benchmark's --max-time) is spread over the rounds left,
 * a settled benchmark (its interval within the target after two rounds
 * or more) keeps a quarter of an even share, enough for its minimum of
 * trials, and the others share the rest, up to three even shares each.
 */
void pm_round_budgets(const struct pm_run_opts *o, unsigned k, unsigned rounds,
		      const size_t *order, size_t m, size_t n,
		      const struct pm_bench_result *out, double *budget)
{
	double even = o->max_time_s / rounds, left = 0, this_round, settled_share;
	size_t i, nsettled = 0;
	bool *settled = pm_xcalloc(n ? n : 1, sizeof(*settled));

	for (i = 0; i < m; i++) {
		const struct pm_bench_result *b = &out[order[i]];
		double ci;

		left += o->max_time_s - (b->name ? b->elapsed_s : 0);
		if (k < 2 || !b->name || b->measured)
			continue;
		ci = pm_bench_rel_ci(b);
		if (ci <= o->ci_target) {
			settled[order[i]] = true;
			nsettled++;
		}
	}
	this_round = left > 0 ? left / (rounds - k) : 0;
	settled_share = even / 4;
	for (i = 0; i < m; i++) {
		size_t b = order[i];
		double share;

		if (k == 0 || settled[b] || nsettled == m) {
			budget[b] = k == 0 || !settled[b] ? even : settled_share;
			continue;
		}
		share = (this_round - (double)nsettled * settled_share) / (double)(m - nsettled);
		budget[b] = fmin(fmax(share, even), 3 * even);
	}
	free(settled);
}

static pid_t start_worker(int *to, FILE **from, struct pm_err *e)
{
	int in[2], res[2];
	pid_t pid;

	if (pipe2(in, O_CLOEXEC))
		return pm_err_set(e, -errno, "cannot start a round: pipe: %s", strerror(errno));
	if (pipe2(res, O_CLOEXEC)) {
		int err = -errno;

		close(in[0]);
		close(in[1]);
		return pm_err_set(e, err, "cannot start a round: pipe: %s", strerror(-err));
	}
	pid = fork();
	if (pid < 0) {
		int err = -errno;

		close(in[0]);
		close(in[1]);
		close(res[0]);
		close(res[1]);
		return pm_err_set(e, err, "cannot start a round: fork: %s", strerror(-err));
	}
	if (pid == 0) {
		char *argv[] = { "pmbench", WORKER_CMD, NULL };

		if (dup2(in[0], STDIN_FILENO) < 0 || dup2(res[1], STDOUT_FILENO) < 0)
			_exit(127);
		execv(WORKER_EXE, argv);
		_exit(127);
	}
	close(in[0]);
	close(res[1]);
	*to = in[1];
	*from = fdopen(res[0], "r");
	if (!*from) {
		close(res[0]);
		close(in[1]);
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return pm_err_set(e, -ENOMEM, "cannot start a round: out of memory");
	}
	return pid;
}

/* Fold a worker's round of one benchmark into the benchmark's result. */
static void take_round(struct pm_bench_result *acc, struct pm_bench_result *r,
		       unsigned round)
{
	size_t i, at = 0;

	if (!acc->name) {
		/* first round: the worker's entry is the result so far */
		*acc = *r;
		memset(r, 0, sizeof(*r));
		return;
	}
	if (r->status != PM_BENCH_OK) {
		/* worked before, failed now: keep the rounds, say so */
		acc->status = r->status;
		free(acc->reason);
		acc->reason = pm_xasprintf("round %u: %s", round + 1,
					   r->reason ? r->reason : "failed");
		return;
	}
	for (i = 0; i < r->nrounds; i++) {
		pm_bench_result_add_round(acc, r->trials + at, r->rounds[i].ntrials,
					  &r->rounds[i]);
		at += r->rounds[i].ntrials;
	}
	acc->converged = acc->converged && r->converged;
	acc->elapsed_s += r->elapsed_s;
	if (!acc->detail && r->detail) {
		acc->detail = r->detail;
		r->detail = NULL;
	}
}

/* cost_s[i] += the time from the previous reply (from t0 for the first) to
 * benchmark i's: its share of the round, set-up and worker start included */
static int read_replies(FILE *from, struct pm_bench_result *out, size_t nout,
			bool *seen, unsigned round, uint64_t t0, double *cost_s,
			struct pm_err *e)
{
	char *line = NULL;
	size_t cap = 0;
	int err = 0;

	while (getline(&line, &cap, from) > 0) {
		json_error_t je;
		json_t *j = json_loads(line, 0, &je), *res;
		struct pm_bench_result r;
		json_int_t idx;
		uint64_t now;

		if (!j || !json_is_integer(json_object_get(j, "index")) ||
		    !(res = json_object_get(j, "result"))) {
			json_decref(j);
			err = pm_err_set(e, -EPROTO, "round %u: a malformed reply from the worker",
					 round + 1);
			break;
		}
		idx = json_integer_value(json_object_get(j, "index"));
		if (idx < 0 || (size_t)idx >= nout || seen[idx] ||
		    pm_bench_result_from_json(&r, res, "round worker", e)) {
			json_decref(j);
			err = -EPROTO;
			if (!e->msg[0] || idx < 0 || (size_t)idx >= nout || seen[idx])
				pm_err_set(e, err, "round %u: a reply for an unknown benchmark",
					   round + 1);
			break;
		}
		json_decref(j);
		seen[idx] = true;
		now = pm_now_ns();
		cost_s[idx] += (double)(now - t0) / 1e9;
		t0 = now;
		take_round(&out[idx], &r, round);
		pm_bench_result_free(&r);
	}
	free(line);
	return err;
}

static char *worker_death(int status)
{
	if (WIFSIGNALED(status))
		return pm_xasprintf("the round's process was killed by signal %d (%s)",
				    WTERMSIG(status), strsignal(WTERMSIG(status)));
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return pm_xstrdup("the round's process could not be started (exec of "
				  WORKER_EXE " failed)");
	return pm_xasprintf("the round's process exited with status %d",
			    WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

/* The benchmarks of round k that still run (not failed), forward on even
 * rounds and backward on odd ones. */
static size_t round_order(unsigned k, size_t n, const struct pm_bench_result *out,
			  size_t *order)
{
	size_t i, m = 0;

	for (i = 0; i < n; i++) {
		size_t b = k % 2 ? n - 1 - i : i;

		if (!out[b].name || out[b].status == PM_BENCH_OK)
			order[m++] = b;
	}
	return m;
}

/*
 * How many rounds b needs in all for its rounds' interval to be within
 * target at the spread its rounds show so far: the least r with
 * t(1 - (1 - level) / 2, r-1) s / sqrt(r) <= log(1 + target), at PM_FIGURE_LEVEL as
 * the pm_bench_rel_ci it predicts (not o->ci_level, the trials' own
 * summary level).  max + 1 when more than max; b's rounds + 1 when
 * they agree already (then its trials are what vary, and each round
 * adds trials).
 */
static unsigned rounds_needed(const struct pm_bench_result *b, double target,
			      unsigned max)
{
	double *med = pm_xcalloc(b->nrounds ? b->nrounds : 1, sizeof(*med)), s;
	unsigned r;

	pm_bench_result_round_medians(b, med);
	s = b->nrounds > 1 ? pm_log_sd(med, b->nrounds, NULL) : NAN;
	free(med);
	if (isnan(s))
		return max + 1;
	for (r = (unsigned)b->nrounds + 1; r <= max; r++)
		if (pm_log_t_rel_halfwidth(s, r, PM_FIGURE_LEVEL) <= target)
			return r;
	return max + 1;
}

struct extra_candidate {
	size_t index;
	unsigned needed;
};

static int by_needed(const void *a, const void *b)
{
	const struct extra_candidate *x = a, *y = b;

	if (x->needed != y->needed)
		return x->needed < y->needed ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int by_index(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	return x < y ? -1 : x > y;
}

size_t pm_round_extra(const struct pm_run_opts *o, unsigned k, unsigned max_rounds,
		      size_t n, const struct pm_bench_result *out,
		      const double *cost_s, double pool_s, size_t *order)
{
	struct extra_candidate *c = pm_xcalloc(n ? n : 1, sizeof(*c));
	size_t i, nc = 0, m = 0;

	for (i = 0; i < n; i++) {
		const struct pm_bench_result *b = &out[i];
		double ci;

		if (!b->name || b->status != PM_BENCH_OK || b->measured || !b->nrounds)
			continue;
		ci = pm_bench_rel_ci(b);
		/* a round takes at least 3 trials (round_limits) */
		if (isnan(ci) || ci <= o->ci_target || b->ntrials + 3 > o->max_trials)
			continue;
		c[nc].index = i;
		c[nc].needed = rounds_needed(b, o->ci_target, max_rounds);
		if (c[nc].needed <= max_rounds)
			nc++;
	}
	/* nearest to the target first, while the run's time lasts */
	qsort(c, nc, sizeof(*c), by_needed);
	for (i = 0; i < nc; i++) {
		const struct pm_bench_result *b = &out[c[i].index];
		double one = cost_s[c[i].index] / (double)b->nrounds;

		if (one > pool_s)
			continue;
		pool_s -= one;
		order[m++] = c[i].index;
	}
	free(c);
	qsort(order, m, sizeof(*order), by_index);
	if (k % 2)
		for (i = 0; i < m / 2; i++) {
			size_t t = order[i];

			order[i] = order[m - 1 - i];
			order[m - 1 - i] = t;
		}
	return m;
}

/* A benchmark the round's worker did not report on: it died on it. */
static void mark_dead(const struct pm_bench *b, struct pm_bench_result *r,
		      unsigned k, const char *why)
{
	if (!r->name) {
		r->name = pm_xstrdup(b->name);
		r->group = pm_xstrdup(b->group);
		r->summary = pm_xstrdup(b->summary);
		r->unit = pm_xstrdup(b->unit);
		r->lmbench = b->lmbench ? pm_xstrdup(b->lmbench) : NULL;
		r->aim9 = b->aim9 ? pm_xstrdup(b->aim9) : NULL;
		pm_bench_result_defaults(r);
	}
	r->status = PM_BENCH_FAILED;
	free(r->reason);
	r->reason = pm_xasprintf("round %u: %s", k + 1, why);
}

/* Round k of order[0..m) in one worker process; cost_s as read_replies. */
static int run_round(const struct pm_bench *const *benches, size_t n,
		     const struct pm_run_opts *ro, unsigned k, unsigned rounds,
		     const size_t *order, size_t m, const double *budget,
		     struct pm_bench_result *out, double *cost_s, struct pm_err *e)
{
	bool *seen = pm_xcalloc(n ? n : 1, sizeof(*seen));
	/* past the first rounds, the progress line counts the extra ones */
	json_t *req = request_json(ro, k, k < rounds ? rounds : k + 1, benches,
				   order, m, out, budget);
	char *text = json_dumps(req, JSON_COMPACT);
	uint64_t t0 = pm_now_ns();
	FILE *from;
	pid_t pid;
	int to = -1, status = 0, err;
	size_t i;

	json_decref(req);
	pid = start_worker(&to, &from, e);
	if (pid < 0) {
		free(text);
		free(seen);
		return (int)pid;
	}
	/* the request is small (a pipe buffer holds it) */
	if (pm_write_full(to, text, strlen(text)))
		pm_err_set(e, -EPIPE, "round %u: cannot send the request", k + 1);
	close(to);
	free(text);
	err = read_replies(from, out, n, seen, k, t0, cost_s, e);
	fclose(from);
	if (err)
		kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!err && !pm_interrupted && (!WIFEXITED(status) || WEXITSTATUS(status))) {
		char *why = worker_death(status);

		for (i = 0; i < m; i++)
			if (!seen[order[i]])
				mark_dead(benches[order[i]], &out[order[i]], k, why);
		free(why);
	}
	free(seen);
	return err;
}

/* Round k's benchmarks and their budgets: all that run in the first
 * rounds; past them, the extra rounds of pm_round_extra(). */
static size_t plan_round(const struct pm_run_opts *o, unsigned k, unsigned rounds,
			 unsigned max_rounds, size_t n, struct pm_bench_result *out,
			 const double *cost_s, size_t *order, double *budget)
{
	double pool = (double)n * o->max_time_s;
	size_t i, m;

	if (k < rounds) {
		m = round_order(k, n, out, order);
		if (m)
			pm_round_budgets(o, k, rounds, order, m, n, out, budget);
		return m;
	}
	for (i = 0; i < n; i++) {
		pool -= cost_s[i];
		if (out[i].name && out[i].nrounds)
			pm_bench_result_summarize(&out[i], o->ci_level);
	}
	m = pm_round_extra(o, k, max_rounds, n, out, cost_s, pool, order);
	for (i = 0; i < m; i++)
		budget[order[i]] = o->max_time_s / rounds;
	return m;
}

int pm_run_rounds(const struct pm_bench *const *benches, size_t n,
		  const struct pm_run_opts *o, unsigned rounds,
		  struct pm_bench_result *out, struct pm_err *e)
{
	size_t *order = pm_xcalloc(n ? n : 1, sizeof(*order));
	double *budget = pm_xcalloc(n ? n : 1, sizeof(*budget));
	double *cost_s = pm_xcalloc(n ? n : 1, sizeof(*cost_s));
	unsigned max_rounds = o->max_rounds > rounds ? o->max_rounds : rounds;
	struct pm_run_opts ro;
	unsigned k;
	int err = 0;

	round_limits(o, rounds, &ro);
	for (k = 0; k < max_rounds && !pm_interrupted && !err; k++) {
		size_t m = plan_round(o, k, rounds, max_rounds, n, out, cost_s,
				      order, budget);

		if (!m)
			break;
		err = run_round(benches, n, &ro, k, rounds, order, m, budget, out,
				cost_s, e);
	}
	for (k = 0; k < n; k++)
		if (out[k].name && out[k].nrounds) {
			double ci;

			pm_bench_result_summarize(&out[k], o->ci_level);
			/* converged: the interval shown (of the trials, or of
			 * the rounds when they disagree more) is within the
			 * target, whether or not each round reached it alone */
			ci = pm_bench_rel_ci(&out[k]);
			if (rounds > 1 && !out[k].measured && !isnan(ci))
				out[k].converged = ci <= o->ci_target;
		}
	free(order);
	free(budget);
	free(cost_s);
	if (err)
		return err;
	return pm_interrupted ? -EINTR : 0;
}

/* ---- the worker ---- */

static int req_num(json_t *req, const char *key, double *v)
{
	json_t *j = json_object_get(req, key);

	if (!json_is_number(j))
		return -EINVAL;
	*v = json_number_value(j);
	return 0;
}

static const char *req_str(json_t *req, const char *key)
{
	return json_string_value(json_object_get(req, key));
}

/* The round request's run options, and which round of how many it is. */
static int read_request(json_t *req, const json_t *list, struct pm_run_opts *o,
			double *round, double *rounds, struct pm_err *e)
{
	double target, ci, level, mint, maxt, maxs, cpu, run, start;

	pm_run_opts_default(o);
	if (req_num(req, "target_ns", &target) || req_num(req, "ci_target", &ci) ||
	    req_num(req, "ci_level", &level) || req_num(req, "min_trials", &mint) ||
	    req_num(req, "max_trials", &maxt) || req_num(req, "max_time_s", &maxs) ||
	    req_num(req, "cpu", &cpu) || req_num(req, "run", &run) ||
	    req_num(req, "round", round) || req_num(req, "rounds", rounds) ||
	    req_num(req, "run_start_ns", &start) || !json_is_array(list) ||
	    !req_str(req, "placement") ||
	    pm_placement_parse(req_str(req, "placement"), &o->placement))
		return pm_err_set(e, -EINVAL, "round request: a field is missing or malformed");
	o->target_ns = target;
	o->ci_target = ci;
	o->ci_level = level;
	o->min_trials = (unsigned)mint;
	o->max_trials = (unsigned)maxt;
	o->max_time_s = maxs;
	o->cpu = (int)cpu;
	o->run = (unsigned)run;
	o->run_start_ns = (uint64_t)start;
	o->counters = false;
	o->scratch = req_str(req, "scratch");
	o->hello = req_str(req, "hello");
	o->spawner = req_str(req, "spawner");
	o->progress = json_is_true(json_object_get(req, "progress"));
	return 0;
}

int pm_round_worker(FILE *in, FILE *out, struct pm_err *e)
{
	double round = 0, rounds = 0;
	struct pm_run_opts o, ob;
	json_error_t je;
	json_t *req, *list;
	size_t i;
	int err = 0;

	req = json_loadf(in, 0, &je);
	if (!req)
		return pm_err_set(e, -EINVAL, "round request: %s", je.text);
	list = json_object_get(req, "benchmarks");
	err = read_request(req, list, &o, &round, &rounds, e);
	if (err) {
		json_decref(req);
		return err;
	}
	for (i = 0; i < json_array_size(list) && !pm_interrupted; i++) {
		json_t *item = json_array_get(list, i), *line;
		const char *name = req_str(item, "name");
		const struct pm_bench *b = name ? pm_bench_find(name) : NULL;
		json_t *idx = json_object_get(item, "index");
		struct pm_bench_result r = { 0 };
		double iters = 0;
		char *text;

		if (!b || !json_is_integer(idx)) {
			err = pm_err_set(e, -EINVAL, "round request: unknown benchmark '%s'",
					 name ? name : "?");
			break;
		}
		req_num(item, "iterations", &iters);
		ob = o;
		/* the budget the parent gave this benchmark for this round */
		req_num(item, "max_time_s", &ob.max_time_s);
		if (o.progress)
			fprintf(stderr, "\r\033[K[round %d/%d %zu/%zu]", (int)round + 1,
				(int)rounds, i + 1, json_array_size(list));
		r.iterations = (uint64_t)iters;
		if (pm_run_bench_round(b, &ob, &r, e) == -EINTR || pm_interrupted) {
			pm_bench_result_free(&r);
			break;
		}
		line = json_pack("{s:O,s:o}", "index", idx, "result",
				 pm_bench_result_to_json(&r));
		text = json_dumps(line, JSON_COMPACT);
		json_decref(line);
		pm_bench_result_free(&r);
		if (!text || fprintf(out, "%s\n", text) < 0 || fflush(out)) {
			free(text);
			err = pm_err_set(e, -EPIPE, "round reply: %s", strerror(errno));
			break;
		}
		free(text);
	}
	if (o.progress)
		fprintf(stderr, "\r\033[K");
	json_decref(req);
	if (err)
		return err;
	return pm_interrupted ? -EINTR : 0;
}
