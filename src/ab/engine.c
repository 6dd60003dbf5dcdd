/*
 * ab's experiment engine: blocks of runs (one run of each arm, in random
 * order or A and B at once), the main phase (pairs of A and B until
 * explain decides every benchmark or the budget is spent) and the
 * confirm phase (blocks of A, B and B with one difference taken back,
 * until the share of each change every reversal removes is known).
 *
 * A block ends in one of enum pm_ab_block: kept, dropped (a run failed;
 * the block is left out whole, so that the pairs stay pairs), restart
 * (KVM gave way to TCG), fatal (a run that cannot start, or would fail
 * the same way every time: the experiment ends at once) or stopped.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ab/engine.h"
#include "explain/explain.h"
#include "results/result.h"
#include "stats/seq.h"

/* ---- small things ---- */

static uint64_t next_random(struct pm_ab_exp *x)
{
	/* splitmix64: the order within pairs, repeatable with --seed */
	uint64_t z = (x->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void shuffle(struct pm_ab_exp *x, size_t *v, size_t n)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = (size_t)(next_random(x) % i), t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

double pm_ab_now_s(void)
{
	return (double)pm_now_ns() / 1e9;
}

double pm_ab_now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This program's path: a wrapper's shell must not see /proc/self/exe. */
char *pm_ab_self_exe(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return pm_xstrdup("pmbench");
	exe[n] = '\0';
	return pm_xstrdup(exe);
}

static bool stopped(const struct pm_ab_exp *x)
{
	return x->stop && *x->stop;
}

/* The caller's error and warning printers, else plain stderr. */
static void say(const struct pm_ab_exp *x, bool error, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void say(const struct pm_ab_exp *x, bool error, const char *fmt, ...)
{
	va_list ap;
	char *msg;

	va_start(ap, fmt);
	msg = pm_xvasprintf(fmt, ap);
	va_end(ap);
	if (error && x->error)
		x->error("%s", msg);
	else if (!error && x->warn)
		x->warn("%s", msg);
	else
		fprintf(stderr, "pmbench: %s%s\n", error ? "" : "warning: ", msg);
	free(msg);
}

/* ---- one run of an arm ---- */

static void report_failure(const struct pm_ab_exp *x, const struct pm_ab_job *j)
{
	const struct pm_ab_arm *a = j->arm;
	const char *console = j->console;
	char *tail = console ? pm_log_tail(console, 15) : pm_xstrdup(""), *line, *save = NULL;

	say(x, true, "%s %s (%s%s) failed: %s", x->o.local ? "run" : "boot", j->tag,
	    a->reverts < 0 ? "side " : "", a->name, j->why);
	if (*tail) {
		fprintf(stderr, "  last lines of its console (%s):\n", console);
		for (line = strtok_r(tail, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			fprintf(stderr, "  | %s\n", line);
	}
	free(tail);
}

/* A job that came back: its result parsed, kept in DIR/boots/TAG.json. */
static bool keep_run(struct pm_ab_exp *x, struct pm_ab_job *j, struct pm_result *r)
{
	json_error_t je;
	json_t *root = json_loadb(j->image, j->image_len, 0, &je);
	char *dir, *path;
	struct pm_err e;

	if (!root || pm_result_from_json(r, root, j->tag, &e)) {
		snprintf(j->why, sizeof(j->why), "its result does not parse: %s",
			 root ? e.msg : je.text);
		json_decref(root);
		report_failure(x, j);
		return false;
	}
	json_decref(root);
	if (j->counts_path) {
		char why[1024];

		if (!pm_ab_job_counts(j, &x->env, r, why, sizeof(why)) && !x->counts_said) {
			x->counts_said = true;
			say(x, false, "%s: no emulated counts: %s (said once: where they are "
			    "missing, the experiment goes on time alone)", j->tag, why);
		}
	}
	/* the guest had symbols only: the host's vmlinux has the DWARF */
	if (j->arm->vmlinux_from && x->kept)
		x->kept(r, j->arm->vmlinux_from);
	dir = pm_xasprintf("%s/boots", x->out);
	path = pm_xasprintf("%s/%s.json", dir, j->tag);
	mkdir(dir, 0755);
	/* as kept, counts and sources included: an interrupted experiment
	 * continues from these files (journal.c, through pair_kept) */
	if (pm_result_save(r, path, &e))
		say(x, false, "%s", e.msg);
	free(r->path);
	r->path = path;
	free(dir);
	if (j->status != 0)
		say(x, false, "%s: pmbench run exited with status %d (some benchmarks failed: "
		    "see %s)", j->tag, j->status, j->console);
	return true;
}

/* Start the jobs of a block that may start now: all (together), or the
 * next when the one before has ended. */
static void start_jobs(struct pm_ab_exp *x, const struct pm_ab_env *env,
		       struct pm_ab_job *jobs, size_t n, bool together, size_t *started,
		       size_t ended)
{
	struct pm_err e;

	while (*started < n && (together || *started == ended)) {
		struct pm_ab_job *j = &jobs[(*started)++];

		if (!x->o.quiet)
			fprintf(stderr, "pmbench ab: %s: %s%s%s ...\n", j->tag, j->arm->name,
				x->o.local ? "" : ", ", x->o.local ? "" : j->arm->release);
		if (pm_ab_job_start(j, env, &e)) {
			j->done = true;
			j->end = PM_JOB_FATAL;
			snprintf(j->why, sizeof(j->why), "%s", e.msg);
		}
	}
}

/*
 * Run jobs[0..n): all at once (duet) or one after the other.  Kept when
 * every job ran to its end (each may still have failed: j->end says).
 */
enum pm_ab_block pm_ab_run_jobs(struct pm_ab_exp *x, const struct pm_ab_env *env,
				struct pm_ab_job *jobs, size_t n, bool together)
{
	struct timespec tick = { 0, 50 * 1000000L };
	size_t i, started = 0, ended = 0;
	bool restart = false;

	while (ended < n) {
		/* in turn, a run that ended the experiment ends the block too */
		if (!together && ended && started == ended &&
		    jobs[ended - 1].end >= PM_JOB_FATAL)
			break;
		start_jobs(x, env, jobs, n, together, &started, ended);
		for (i = ended; i < started; i++)
			if (!jobs[i].done && pm_ab_job_poll(&jobs[i], env, x->stop) &&
			    jobs[i].end == PM_JOB_KEPT && !x->o.quiet)
				/* as it ends: in turn, before the next one starts */
				fprintf(stderr, "pmbench ab: %s: done in %.0f s%s%s\n", jobs[i].tag,
					jobs[i].elapsed_s, jobs[i].channel ? ", result over the " : "",
					jobs[i].channel ? jobs[i].channel : "");
		while (ended < started && jobs[ended].done)
			ended++;
		if (ended < n)
			nanosleep(&tick, NULL);
	}
	for (i = 0; i < started; i++) {
		if (jobs[i].end == PM_JOB_STOP || stopped(x))
			return PM_BLOCK_STOPPED;
		if (jobs[i].end == PM_JOB_FATAL) {
			report_failure(x, &jobs[i]);
			return PM_BLOCK_FATAL;
		}
		if (jobs[i].end == PM_JOB_RESTART && !restart) {
			restart = true;
			say(x, false, "%s %s: KVM does not run this kernel (%s): falling back to "
			    "TCG for every boot", x->o.local ? "run" : "boot", jobs[i].tag,
			    jobs[i].why);
		}
	}
	return restart ? PM_BLOCK_RESTART : PM_BLOCK_KEPT;
}

/* The runs of a block that ran to its end: kept only when every arm's
 * came back, so that the block stays a block. */
static enum pm_ab_block keep_block(struct pm_ab_exp *x, struct pm_ab_job *jobs, size_t n)
{
	struct pm_result *r = pm_xcalloc(n, sizeof(*r));
	bool *parsed = pm_xcalloc(n, sizeof(*parsed));
	size_t i, kept = 0;

	for (i = 0; i < n; i++) {
		if (jobs[i].end != PM_JOB_KEPT) {
			report_failure(x, &jobs[i]);
		} else {
			parsed[i] = keep_run(x, &jobs[i], &r[i]);
			kept += parsed[i];
		}
		if (!parsed[i]) {
			jobs[i].arm->failed++;
			x->failed++;
		}
	}
	for (i = 0; i < n; i++) {
		if (parsed[i] && kept == n)
			pm_ab_add_run(jobs[i].arm, &r[i]);
		else if (parsed[i])
			pm_result_free(&r[i]);
	}
	free(r);
	free(parsed);
	return kept == n ? PM_BLOCK_KEPT : PM_BLOCK_DROPPED;
}

/*
 * One block: each arm of arms[0..n) run once, in random order (or A and
 * B at once, on CPUs swapped from pair to pair).
 */
enum pm_ab_block pm_ab_run_block(struct pm_ab_exp *x, const size_t *arms, size_t n,
				 const char *prefix)
{
	struct pm_ab_job *jobs = pm_xcalloc(n, sizeof(*jobs));
	size_t *order = pm_xcalloc(n, sizeof(*order)), i;
	bool together = x->duet && n == 2;
	enum pm_ab_block b;

	for (i = 0; i < n; i++)
		order[i] = i;
	if (!together)
		shuffle(x, order, n);
	for (i = 0; i < n; i++) {
		struct pm_ab_job *j = &jobs[i];
		struct pm_ab_arm *a = &x->arms[arms[order[i]]];

		j->arm = a;
		snprintf(j->tag, sizeof(j->tag), "%s%s%zu", prefix, a->tag,
			 a->nruns + a->failed + a->earlier + 1);
		/* duet: A and B swap CPUs from pair to pair */
		j->host_cpu = together ? (int)((i + x->pairs) % 2) : -1;
		j->running = &x->running[together ? i : 0];
	}
	b = pm_ab_run_jobs(x, &x->env, jobs, n, together);
	if (b == PM_BLOCK_KEPT)
		b = keep_block(x, jobs, n);
	else if (b == PM_BLOCK_FATAL)
		/* the run that cannot go on is counted too */
		for (i = 0; i < n; i++)
			if (jobs[i].end == PM_JOB_FATAL) {
				jobs[i].arm->failed++;
				x->failed++;
			}
	x->runs += (unsigned)n;
	x->dropped += b == PM_BLOCK_DROPPED;
	for (i = 0; i < n; i++)
		pm_ab_job_free(&jobs[i]);
	free(jobs);
	free(order);
	return b;
}

static enum pm_ab_block run_block(struct pm_ab_exp *x, const size_t *arms, size_t n,
				  const char *prefix)
{
	return (x->block ? x->block : pm_ab_run_block)(x, arms, n, prefix);
}

/* ---- deciding ---- */

void pm_ab_explain_opts(const struct pm_ab_exp *x, struct pm_explain_opts *xo)
{
	pm_explain_opts_default(xo);
	if (!isnan(x->o.noise))
		xo->noise_floor = x->o.noise;
	xo->spread = NULL;	/* the pairs, not other runs, say how runs differ */
	xo->sequential = true;
	xo->guests = !x->o.local;
}

static const char *verdict_word(enum pm_verdict v)
{
	return v == PM_NO_CHANGE ? "same" : v == PM_INCONCLUSIVE ? "unknown" :
	       v == PM_REGRESSION ? "regression" : v == PM_IMPROVEMENT ? "improvement" :
	       "changed";
}

/*
 * The verdicts on the pairs so far, by explain itself, so that ab stops
 * on the rule its report prints; how many benchmarks are undecided.
 * Each benchmark's record is its verdict as it stands (an anytime-valid
 * decision can be taken at any number of pairs, but the report judges
 * them all: a decision an earlier pair count made and later pairs undid
 * is no decision), with the pairs it stands on since.
 */
size_t pm_ab_decide(struct pm_ab_exp *x)
{
	struct pm_side a = { .name = "A", .runs = x->arms[0].runs, .nruns = x->arms[0].nruns };
	struct pm_side b = { .name = "B", .runs = x->arms[1].runs, .nruns = x->arms[1].nruns };
	struct pm_explain_opts xo;
	struct pm_explanation ex;
	struct pm_err e;
	size_t i, open = 0;

	pm_ab_explain_opts(x, &xo);
	if (!a.nruns || !b.nruns || pm_explain(&ex, &a, &b, &xo, &e))
		return SIZE_MAX;
	if (!x->decided)
		x->decided = json_object();
	for (i = 0; i < ex.ncmp; i++) {
		const struct pm_bench_cmp *c = &ex.cmp[i];
		json_t *d = json_object_get(x->decided, c->name);
		bool done = c->verdict != PM_INCONCLUSIVE;

		if (c->measured)
			continue;
		open += !done;
		/* decided and still so: it keeps the pairs it was decided at */
		int since = d && done && json_is_true(json_object_get(d, "decided")) &&
			    !strcmp(json_string_value(json_object_get(d, "verdict")) ?
				    json_string_value(json_object_get(d, "verdict")) : "",
				    verdict_word(c->verdict)) ?
			    (int)json_integer_value(json_object_get(d, "pairs")) : (int)x->pairs;

		d = json_pack("{s:s,s:b,s:i,s:f,s:f,s:f,s:s?}", "verdict",
			      verdict_word(c->verdict), "decided", done, "pairs", since,
			      "ratio", c->ratio, "low", isfinite(c->ci_low) ? c->ci_low : 0,
			      "high", isfinite(c->ci_high) ? c->ci_high : 0, "settle", c->settle);
		/* the experiment's shares are taken at equal host speed too */
		if (c->probe_adjusted && isfinite(c->probe_slope))
			json_object_set_new(d, "probe_slope", json_real(c->probe_slope));
		json_object_set_new(x->decided, c->name, d);
	}
	pm_explanation_free(&ex);
	return open;
}

/*
 * Under TCG, whether the boots load the counting plugin: on unless
 * --no-emulated-counts, when this QEMU can load it; why not, said once.
 * Never under KVM (a guest there can have the host's PMU).
 */
void pm_ab_setup_counting(struct pm_ab_exp *x)
{
	char *plugin;

	if (x->o.local || x->env.accel != PM_ACCEL_TCG || x->o.no_emulated_counts ||
	    x->counting_probed)
		return;
	x->counting_probed = true;
	x->counting.icache = x->o.emulated_icache;
	plugin = pm_xasprintf("%s/%s", pm_libexecdir(), PM_TC_PLUGIN);
	pm_ab_counting_probe(&x->counting, x->qemu, plugin, x->env.scratch);
	free(plugin);
	if (x->counting.on)
		x->env.counting = &x->counting;
	else if (!x->o.quiet)
		say(x, false, "no emulated counts: %s; the experiment goes on time alone",
		    x->counting.why);
}

/* Drop every run: KVM gave way to TCG, the pairs start again. */
static void restart_under_tcg(struct pm_ab_exp *x)
{
	size_t i, k;

	for (i = 0; i < x->narms; i++) {
		for (k = 0; k < x->arms[i].nruns; k++)
			pm_result_free(&x->arms[i].runs[k]);
		x->arms[i].nruns = 0;
		x->arms[i].failed = 0;
	}
	x->env.accel = PM_ACCEL_TCG;
	snprintf(x->accel_why, sizeof(x->accel_why), "KVM could not run the guest kernel");
	pm_ab_setup_counting(x);
	x->pairs = x->failed = x->dropped = x->runs = 0;
	json_decref(x->decided);
	x->decided = NULL;
	if (x->pairs_dropped)
		x->pairs_dropped(x);
}

/* Stop adding pairs?  Once --rounds pairs are in: when all is decided or
 * the next pair would not fit the budget. */
static bool enough_pairs(struct pm_ab_exp *x, double spent, double pair_s, const char **why)
{
	size_t open;

	if (x->pairs < x->o.boots)
		return false;
	open = pm_ab_decide(x);
	if (!open) {
		*why = "every benchmark decided";
		return true;
	}
	if ((x->o.budget_s > 0 && spent + pair_s > x->o.budget_s) ||
	    (x->o.budget_boots && x->runs + 2 > x->o.budget_boots)) {
		*why = "the budget is spent";
		return true;
	}
	if (x->pairs >= 1000) {
		*why = "1000 pairs";
		return true;
	}
	return false;
}

/* A dropped pair: go on, unless a side never came back or most fail. */
static bool go_on_after_drop(struct pm_ab_exp *x)
{
	if (!x->arms[0].nruns || !x->arms[1].nruns) {
		say(x, true, "%s: its first %s failed: stopping", !x->arms[0].nruns ? "side A" :
		    "side B", x->o.local ? "run" : "boot");
		return false;
	}
	if (x->failed > x->pairs + 3) {
		say(x, true, "%u runs failed: stopping", x->failed);
		return false;
	}
	return true;
}

/* A and B in pairs until decided (pmbench-ab(1), DECISIONS). */
enum pm_ab_end pm_ab_main_phase(struct pm_ab_exp *x)
{
	const size_t arms[2] = { 0, 1 };
	double start = pm_ab_now_s(), pair_s = 0;
	const char *why = NULL;

	for (;;) {
		double t0 = pm_ab_now_s();
		char tags[2][64];
		size_t i;

		if (enough_pairs(x, pm_ab_now_s() - start, pair_s, &why))
			break;
		/* the names its runs get (pm_ab_run_block), for the journal */
		for (i = 0; i < 2; i++)
			snprintf(tags[i], sizeof(tags[i]), "%s%zu", x->arms[i].tag,
				 x->arms[i].nruns + x->arms[i].failed + x->arms[i].earlier + 1);
		switch (run_block(x, arms, 2, "")) {
		case PM_BLOCK_KEPT:
			x->pairs++;
			if (x->pair_kept)
				x->pair_kept(x, tags[0], tags[1]);
			break;
		case PM_BLOCK_DROPPED:
			if (!go_on_after_drop(x))
				return PM_AB_FAILED;
			break;
		case PM_BLOCK_RESTART:
			restart_under_tcg(x);
			start = pm_ab_now_s();
			continue;
		case PM_BLOCK_FATAL:
			say(x, true, "that %s would fail again: stopping", x->o.local ? "run" : "boot");
			return PM_AB_FAILED;
		case PM_BLOCK_STOPPED:
			return PM_AB_STOPPED;
		}
		pair_s = fmax(pair_s, pm_ab_now_s() - t0);
	}
	x->main_s = pm_ab_now_s() - start;
	if (!x->o.quiet)
		fprintf(stderr, "pmbench ab: %u pairs in %.0f s: %s\n", x->pairs, x->main_s, why);
	return PM_AB_DONE;
}

/* ---- several differences: which one caused it ---- */

#define CONFIRM_LEVEL PM_LEVEL
#define CONFIRM_MIN_BLOCKS 3

/* The benchmarks called changed. */
static bool changed_bench(const struct pm_ab_exp *x, const char *name)
{
	const char *v = json_string_value(json_object_get(json_object_get(x->decided, name),
							  "verdict"));

	return v && (!strcmp(v, "regression") || !strcmp(v, "improvement"));
}

bool pm_ab_want_confirm(const struct pm_ab_exp *x)
{
	const char *name;
	json_t *d;

	if (x->o.no_confirm || x->ndiffs < 2)
		return false;
	json_object_foreach(x->decided, name, d)
		if (changed_bench(x, name))
			return true;
	return false;
}

double pm_ab_figure(const struct pm_ab_arm *a, size_t i, const char *name)
{
	const struct pm_bench_result *b = i < a->nruns ? pm_result_find(&a->runs[i], name) : NULL;

	if (!b || b->status != PM_BENCH_OK || !b->nrounds)
		return NAN;
	return pm_bench_run_figure(b, b->rounds[0].run);
}

/* The machine-speed probe of benchmark name in run i of arm a: the
 * median of its rounds', NAN without one. */
double pm_ab_run_probe(const struct pm_ab_arm *a, size_t i, const char *name)
{
	const struct pm_bench_result *b = i < a->nruns ? pm_result_find(&a->runs[i], name) : NULL;
	double *v, p;
	size_t k, n = 0;

	if (!b || !b->nrounds)
		return NAN;
	v = pm_xcalloc(b->nrounds, sizeof(*v));
	for (k = 0; k < b->nrounds; k++)
		if (b->rounds[k].reference_ns > 0)
			v[n++] = b->rounds[k].reference_ns;
	p = n ? pm_median(v, n) : NAN;
	free(v);
	return p;
}

/*
 * The share of B's change in benchmark name that reversal arm r removes,
 * log(B/R) over log(B/A) block by block, with Fieller's interval: a JSON
 * object, decided cleared when its interval is wide.
 */
static json_t *share_of(const struct pm_ab_exp *x, const struct pm_ab_arm *r,
			const char *name, double slope, bool *decided)
{
	size_t first = x->arms[0].nruns - x->blocks, i, n = 0;
	double *v = pm_xcalloc(4 * (x->blocks + 1), sizeof(*v)), est, lo, hi;
	double *y = v + x->blocks + 1, *px = y + x->blocks + 1, *py = px + x->blocks + 1;
	json_t *j;
	int err;

	for (i = 0; i < x->blocks; i++) {
		double fa = pm_ab_figure(&x->arms[0], first + i, name);
		double fb = pm_ab_figure(&x->arms[1], first + i, name);
		double fr = pm_ab_figure(r, i, name);

		if (fa > 0 && fb > 0 && fr > 0) {
			double pa = pm_ab_run_probe(&x->arms[0], first + i, name);
			double pb = pm_ab_run_probe(&x->arms[1], first + i, name);
			double pr = pm_ab_run_probe(r, i, name);

			/* the adjustment needs every run's probe */
			if (!(pa > 0 && pb > 0 && pr > 0))
				slope = 0;
			px[n] = log(pb / pr);
			py[n] = log(pb / pa);
			v[n] = log(fb / fr);
			y[n++] = log(fb / fa);
		}
	}
	err = n >= 2 ? pm_fieller_ratio_adjusted(v, px, y, py, n, slope, CONFIRM_LEVEL,
						 &est, &lo, &hi) : -EINVAL;
	if (err || !isfinite(lo) || !isfinite(hi) || (hi - lo > 0.5 && lo < 0.75 && hi > 0.25))
		*decided = false;
	j = err && err != -ERANGE ? json_pack("{s:i}", "boots", (int)n) :
	    json_pack("{s:f,s:o,s:o,s:f,s:i,s:o}", "removed", est,
		      "low", isfinite(lo) ? json_real(lo) : json_null(),
		      "high", isfinite(hi) ? json_real(hi) : json_null(),
		      "level", CONFIRM_LEVEL, "boots", (int)n,
		      "probe_slope", slope ? json_real(slope) : json_null());
	free(v);
	return j;
}

/*
 * For each difference taken back and each changed benchmark: the share
 * of B's change the reversal removes.  When the verdict took its pairs at
 * equal host speed (explain's probe slope), so are these: each log ratio
 * less the slope times its probes'.  Decided when the interval is narrow
 * (half-width 25 points) or clear of the middle.
 */
static json_t *shares(struct pm_ab_exp *x, bool *decided)
{
	json_t *res = json_array(), *dv;
	const char *name;
	size_t j;

	*decided = true;
	for (j = 2; j < x->narms; j++) {
		const struct pm_ab_arm *r = &x->arms[j];
		json_t *bs = json_object();

		json_object_foreach(x->decided, name, dv)
			if (changed_bench(x, name))
				json_object_set_new(bs, name, share_of(x, r, name,
					json_number_value(json_object_get(dv, "probe_slope")),
					decided));
		json_array_append_new(res, json_pack("{s:i,s:s,s:s,s:s,s:o}", "difference",
						     r->reverts, "text", x->diffs[r->reverts].text,
						     "arm", r->name, "file", r->tag, "benchmarks", bs));
	}
	return res;
}

/* The arm that is B with difference k taken back. */
static int add_reversal(struct pm_ab_exp *x, size_t k, struct pm_err *e)
{
	const struct pm_ab_diff *d = &x->diffs[k];
	const struct pm_ab_arm *A, *B;
	struct pm_ab_arm *r;

	/* A and B after the realloc, which may move them */
	x->arms = pm_xgrow(x->arms, x->narms, sizeof(*x->arms));
	A = &x->arms[0];
	B = &x->arms[1];
	r = &x->arms[x->narms++];
	memset(r, 0, sizeof(*r));
	r->reverts = (int)k;
	r->label = pm_xasprintf("R%zu", k + 1);
	r->tag = pm_xasprintf("r%zu-", k + 1);
	r->kernel = d->kind == PM_AB_DIFF_IMAGE ? A->kernel : B->kernel;
	if ((d->kind == PM_AB_DIFF_IMAGE ? A : B)->tree)
		r->tree = pm_xstrdup((d->kind == PM_AB_DIFF_IMAGE ? A : B)->tree);
	r->append = d->kind == PM_AB_DIFF_IMAGE || x->o.local ? pm_xstrdup(B->append ? B->append : "") :
		    pm_ab_revert_append(B->append ? B->append : "", d);
	r->setup = d->kind == PM_AB_DIFF_SETUP ? A->setup : B->setup;
	r->wrap = d->kind == PM_AB_DIFF_WRAP ? A->wrap : B->wrap;
	r->name = pm_xasprintf("B without %s", d->text);
	return x->o.local ? 0 : pm_ab_arm_prepare(r, &x->o, NULL, x->env.scratch, e);
}

/*
 * Blocks of A, B and each reversal, in random order, until decided.  A
 * fatal run ends it (and the experiment: status 1 after the report of
 * what was measured).
 */
enum pm_ab_end pm_ab_confirm_phase(struct pm_ab_exp *x)
{
	size_t *arms, i, n;
	double start = pm_ab_now_s(), block_s = 0;
	enum pm_ab_block b = PM_BLOCK_KEPT;
	bool decided = false;
	struct pm_err e;

	for (i = 0; i < x->ndiffs; i++)
		if (add_reversal(x, i, &e)) {
			say(x, true, "%s", e.msg);
			return PM_AB_FAILED;
		}
	n = x->narms;
	arms = pm_xcalloc(n, sizeof(*arms));
	for (i = 0; i < n; i++)
		arms[i] = i;
	if (!x->o.quiet)
		fprintf(stderr, "pmbench ab: %zu differences: boots with each taken back, "
			"interleaved with A and B\n", x->ndiffs);
	while (!stopped(x)) {
		double t0 = pm_ab_now_s();

		if (x->blocks >= CONFIRM_MIN_BLOCKS) {
			json_decref(x->confirm);
			x->confirm = json_pack("{s:f,s:i,s:o}", "level", CONFIRM_LEVEL, "blocks",
					       (int)x->blocks, "results", shares(x, &decided));
			if (decided || t0 - start + block_s > x->o.confirm_budget_s)
				break;
		}
		b = run_block(x, arms, n, "");
		if (b == PM_BLOCK_KEPT)
			x->blocks++;
		else if (b != PM_BLOCK_DROPPED || x->failed > x->blocks + x->pairs + 3)
			break;
		block_s = fmax(block_s, pm_ab_now_s() - t0);
	}
	x->confirm_s = pm_ab_now_s() - start;
	if (x->confirm)
		json_object_set_new(x->confirm, "seconds", json_real(x->confirm_s));
	free(arms);
	return b == PM_BLOCK_STOPPED || stopped(x) ? PM_AB_STOPPED : PM_AB_DONE;
}

/* ---- setting up ---- */

/* A guest side's image, and the build tree it comes from (--kernel DIR or
 * DIR/arch/x86/boot/bzImage). */
static int side_image(struct pm_ab_arm *a, const char *given, struct pm_err *e)
{
	int err = pm_kernel_tree(given, &a->image, &a->tree, e);

	if (err)
		return err;
	a->kernel = a->image;
	if (a->tree)
		a->describe = pm_kernel_tree_describe(a->tree);
	return 0;
}

int pm_ab_setup_arms(struct pm_ab_exp *x, struct pm_err *e)
{
	size_t i;
	int err = 0;

	x->narms = 2;
	x->arms = pm_xcalloc(2, sizeof(*x->arms));
	for (i = 0; i < 2; i++) {
		struct pm_ab_arm *a = &x->arms[i];
		const char *both = x->o.append_both, *one = x->o.side[i].append;

		a->name = pm_xstrdup(i ? "B" : "A");
		a->label = pm_xstrdup(a->name);
		a->tag = pm_xstrdup(i ? "b" : "a");
		a->reverts = -1;
		a->kernel = x->o.side[i].kernel;
		a->append = both && one ? pm_xasprintf("%s %s", both, one) :
			    pm_xstrdup(both ? both : one ? one : "");
		a->setup = x->o.side[i].setup;
		a->wrap = x->o.side[i].wrap;
		if (!x->o.local && (err = side_image(a, x->o.side[i].kernel, e)))
			return pm_err_set(e, err, "side %s: %s", a->name, e->msg);
	}
	if (x->o.local)
		x->ndiffs = pm_ab_local_differences(x->arms[0].setup, x->arms[1].setup,
						    x->arms[0].wrap, x->arms[1].wrap, &x->diffs);
	else
		x->ndiffs = pm_ab_differences(x->arms[0].kernel, x->arms[1].kernel,
					      x->arms[0].append, x->arms[1].append, &x->diffs);
	for (i = 0; !err && !x->o.local && i < 2; i++) {
		struct pm_ab_arm *a = &x->arms[i];

		err = pm_ab_arm_prepare(a, &x->o, x->o.side[i].vmlinux, x->env.scratch, e);
		if (err) {
			pm_err_set(e, err, "side %s: %s", a->name, e->msg);
			break;
		}
		if (!a->have_modules && !x->o.quiet)
			say(x, false, "side %s: %s; the result comes back over the serial port "
			    "(slower)", a->name, a->modules_why);
		if (!a->have_config && !x->o.quiet)
			say(x, false, "side %s: no /boot/config-%s: the guest's fingerprint has its "
			    "kernel config only if the kernel has /proc/config.gz", a->name,
			    a->release);
	}
	return err;
}

void pm_ab_exp_free(struct pm_ab_exp *x)
{
	size_t i;

	for (i = 0; i < x->narms; i++)
		pm_ab_arm_free(&x->arms[i]);
	free(x->arms);
	pm_ab_diffs_free(x->diffs, x->ndiffs);
	pm_strv_free(x->env.local_argv);
	json_decref(x->decided);
	json_decref(x->confirm);
	json_decref(x->knockouts);
	if (x->knockouts_free)
		x->knockouts_free(x);
	pm_ab_counting_free(&x->counting);
	json_decref(x->journal);
	free(x->out);
	free(x->console_dir);
	pm_ab_opts_free(&x->o);
}
