/*
 * pmbench ab: an experiment on two kernels booted in QEMU guests (or, with
 * --local, two set-ups of this host), measured in pairs until every
 * benchmark is decided, then explained (pmbench-ab(1)).
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "ab/ab.h"
#include "ab/emulated.h"
#include "cmd.h"
#include "explain/explain.h"
#include "results/history.h"
#include "results/result.h"
#include "stats/seq.h"

/* ---- signals: QEMU and the scratch directory go on Ctrl-C ---- */

static volatile int stop_flag;
static volatile sig_atomic_t signals_seen, first_signal;
static volatile pid_t running[2];

static void on_signal(int sig)
{
	int i;

	/* first: stop after killing the running boots; second: now */
	if (signals_seen++ == 0) {
		first_signal = sig;
		stop_flag = 1;
		return;
	}
	for (i = 0; i < 2; i++)
		if (running[i] > 0) {
			kill(-running[i], SIGKILL);
			kill(running[i], SIGKILL);
		}
	pm_cmd_stop_now(sig);
}

/* ---- the experiment ---- */

struct ab {
	struct pm_ab_opts o;
	struct pm_ab_env env;
	struct pm_ab_arm *arms;		/* A, B, then one per difference taken back */
	size_t narms;
	struct pm_ab_diff *diffs;
	size_t ndiffs;
	char *out, *console_dir;
	const char *qemu;
	char accel_why[256];
	bool duet;
	char duet_why[512];
	uint64_t rng, seed;
	unsigned pairs, blocks, failed, runs;
	double main_s, confirm_s;
	json_t *decided;		/* per benchmark: verdict, pairs, ... */
	json_t *confirm;		/* what each difference taken back removed */
	int status;			/* an exit status to end with, or -1 */
	struct pm_ab_counting counting;	/* TCG: the plugin that counts (ab/emulated.c) */
	bool counting_probed, counts_said;
};

#define AB_GO (-1)

static uint64_t next_random(struct ab *ab)
{
	/* splitmix64: the order within pairs, repeatable with --seed */
	uint64_t z = (ab->rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	return z ^ (z >> 31);
}

static void shuffle(struct ab *ab, size_t *v, size_t n)
{
	size_t i;

	for (i = n; i > 1; i--) {
		size_t j = (size_t)(next_random(ab) % i), t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
}

static double now_s(void)
{
	return (double)pm_now_ns() / 1e9;
}

static double now_wall(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* This program's path: a wrapper's shell must not see /proc/self/exe. */
static char *self_exe(void)
{
	char exe[4096];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	if (n <= 0)
		return pm_xstrdup("pmbench");
	exe[n] = '\0';
	return pm_xstrdup(exe);
}

/* ---- output ---- */

static int make_output(const char *dir, struct pm_err *e)
{
	struct dirent *d;
	DIR *dh;

	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno != EEXIST)
		return pm_err_set(e, -errno, "-o %s: %s", dir, strerror(errno));
	dh = opendir(dir);
	if (!dh)
		return pm_err_set(e, -errno, "-o %s: %s", dir, strerror(errno));
	while ((d = readdir(dh)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
			closedir(dh);
			return pm_err_set(e, -EEXIST, "-o %s: not empty (give a new or empty "
					  "directory)", dir);
		}
	closedir(dh);
	return 0;
}

struct bytes {
	const char *p;
	size_t n;
};

static int write_bytes(FILE *f, void *arg)
{
	const struct bytes *b = arg;

	return fwrite(b->p, 1, b->n, f) == b->n ? 0 : -EIO;
}

static const char *accel_note(const struct ab *ab)
{
	if (ab->o.local)
		return "local: both sides ran on this host";
	return ab->env.accel == PM_ACCEL_TCG ?
		"TCG: QEMU emulated the CPU (binary translation); figures are emulation "
		"figures, 10-50x slower than hardware, and their ratios need not be those "
		"of a real machine" :
		"KVM: the guest ran on the host CPU (hardware virtualization)";
}

/* What ab set differently and what it found (pmbench-result(5)). */
static json_t *experiment_json(const struct ab *ab)
{
	json_t *v = json_array(), *j;
	char *when = pm_fmt_now("%Y%m%dT%H%M%SZ", true), *id;
	size_t i;

	for (i = 0; i < ab->ndiffs; i++)
		json_array_append_new(v, json_pack("{s:s,s:s?,s:s?,s:s?,s:s}",
						   "kind", pm_ab_diff_kind_name(ab->diffs[i].kind),
						   "param", ab->diffs[i].param, "a", ab->diffs[i].a,
						   "b", ab->diffs[i].b, "text", ab->diffs[i].text));
	id = pm_xasprintf("%s-%d", when, (int)getpid());
	free(when);
	j = json_pack("{s:s,s:o,s:I,s:s,s:s,s:i,s:f,s:O?,s:O?}", "id", id,
		      "differences", v, "seed", (json_int_t)ab->seed,
		      "pairing", ab->duet ? "duet" : "in turn", "pairing_reason", ab->duet_why,
		      "pairs", (int)ab->pairs, "seconds", ab->main_s, "decided", ab->decided,
		      "confirm", ab->confirm);
	free(id);
	return j;
}

/* Whether the guests' instructions were counted, and by what. */
static json_t *counting_json(const struct ab *ab)
{
	const struct pm_ab_counting *c = &ab->counting;

	if (c->on)
		return json_pack("{s:s,s:s,s:b}", "plugin", c->version, "qemu", c->qemu_version,
				 "icache", c->icache);
	return json_pack("{s:s}", "unavailable", ab->o.no_emulated_counts ?
			 "--no-emulated-counts" : c->why);
}

static json_t *arm_json(const struct ab *ab, const struct pm_ab_arm *a)
{
	const struct pm_ab_opts *o = &ab->o;
	char *cmdline = pm_xasprintf("%s%s%s", PM_BOOT_APPEND, a->append && *a->append ? " " : "",
				     a->append ? a->append : "");
	json_t *j;

	if (o->local) {
		j = json_pack("{s:s,s:b,s:s,s:s?,s:s?,s:i}", "side", a->name, "local", 1,
			      "note", accel_note(ab), "setup", a->setup, "wrap", a->wrap,
			      "runs", (int)a->nruns);
	} else {
		j = json_pack("{s:s,s:s,s:b,s:s,s:s,s:s,s:s,s:i,s:i,s:s,s:s,s:s,s:i,s:o}",
			      "side", a->name, "accelerator", pm_accel_name(ab->env.accel),
			      "emulated", ab->env.accel == PM_ACCEL_TCG, "note", accel_note(ab),
			      "accelerator_reason", ab->accel_why, "qemu", ab->qemu, "cpu", o->cpu,
			      "memory_mb", (int)o->memory_mb, "vcpus", (int)o->vcpus,
			      "kernel", a->kernel, "release", a->release, "cmdline", cmdline,
			      "boots", (int)a->nruns,
			      "vmlinux", a->vmlinux ? json_string(a->vmlinux_from) : json_null());
		if (ab->env.accel == PM_ACCEL_TCG)
			json_object_set_new(j, "emulated_counts", counting_json(ab));
	}
	free(cmdline);
	return j;
}

/* Merge an arm's runs and write DIR/TAG.json. */
static int write_arm(const struct ab *ab, const struct pm_ab_arm *a, json_t *experiment,
		     struct pm_err *e)
{
	struct pm_result merged;
	char *path = pm_xasprintf("%s/%s.json", ab->out, a->tag);
	int err;

	err = pm_result_merge(&merged, a->runs, a->nruns, e);
	if (!err) {
		json_t *opts = merged.options ? merged.options : json_object(), *j;

		free(merged.label);
		merged.label = pm_xstrdup(a->label);
		j = arm_json(ab, a);
		json_object_set(j, "experiment", experiment);
		json_object_set_new(opts, "ab", j);
		merged.options = opts;
		err = pm_result_save(&merged, path, e);
	}
	pm_result_free(&merged);
	free(path);
	return err;
}

/* ---- one run of an arm ---- */

static void report_failure(const struct ab *ab, const struct pm_ab_job *j)
{
	const struct pm_ab_arm *a = j->arm;
	const char *console = j->console;
	char *tail = console ? pm_log_tail(console, 15) : pm_xstrdup(""), *line, *save = NULL;

	pm_error("%s %s (%s%s) failed: %s", ab->o.local ? "run" : "boot", j->tag,
		 a->reverts < 0 ? "side " : "", a->name, j->why);
	if (*tail) {
		fprintf(stderr, "  last lines of its console (%s):\n", console);
		for (line = strtok_r(tail, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			fprintf(stderr, "  | %s\n", line);
	}
	free(tail);
}

/* A job that came back: its result parsed, kept in DIR/boots/TAG.json. */
static bool keep_run(struct ab *ab, struct pm_ab_job *j, struct pm_result *r)
{
	json_error_t je;
	json_t *root = json_loadb(j->image, j->image_len, 0, &je);
	char *dir, *path;
	struct bytes bb = { j->image, j->image_len };
	struct pm_err e;

	if (!root || pm_result_from_json(r, root, j->tag, &e)) {
		snprintf(j->why, sizeof(j->why), "its result does not parse: %s",
			 root ? e.msg : je.text);
		json_decref(root);
		report_failure(ab, j);
		return false;
	}
	json_decref(root);
	if (j->counts_path) {
		char why[1024];

		if (!pm_ab_job_counts(j, &ab->env, r, why, sizeof(why)) && !ab->counts_said) {
			ab->counts_said = true;
			pm_warn("%s: no emulated counts: %s (said once: where they are missing, the "
				"experiment goes on time alone)", j->tag, why);
		}
	}
	/* the guest had symbols only: the host's vmlinux has the DWARF */
	if (j->arm->vmlinux_from)
		pm_cli_kernel_sources(r, j->arm->vmlinux_from);
	dir = pm_xasprintf("%s/boots", ab->out);
	path = pm_xasprintf("%s/%s.json", dir, j->tag);
	mkdir(dir, 0755);
	if (pm_write_atomic(path, write_bytes, &bb, &e))
		pm_warn("%s", e.msg);
	free(r->path);
	r->path = path;
	free(dir);
	if (j->status != 0)
		pm_warn("%s: pmbench run exited with status %d (some benchmarks failed: see %s)",
			j->tag, j->status, j->console);
	return true;
}

static void add_run(struct pm_ab_arm *a, struct pm_result *r)
{
	a->runs = pm_xrealloc(a->runs, (a->nruns + 1) * sizeof(*a->runs));
	a->runs[a->nruns++] = *r;
}

/*
 * Run jobs[0..n): all at once (duet) or one after the other.  Returns
 * AB_GO, or an exit status; restart set when KVM must give way to TCG.
 */
static int run_jobs(struct ab *ab, const struct pm_ab_env *env, struct pm_ab_job *jobs,
		    size_t n, bool together, bool *restart)
{
	struct timespec tick = { 0, 50 * 1000000L };
	size_t i, started = 0, ended = 0;
	struct pm_err e;

	*restart = false;
	while (ended < n) {
		/* in turn, a run that ended the experiment ends the block too */
		if (!together && ended && started == ended &&
		    jobs[ended - 1].end >= PM_JOB_FATAL)
			break;
		while (started < n && (together || started == ended)) {
			struct pm_ab_job *j = &jobs[started++];

			if (!ab->o.quiet)
				fprintf(stderr, "pmbench ab: %s: %s%s%s ...\n", j->tag, j->arm->name,
					ab->o.local ? "" : ", ", ab->o.local ? "" : j->arm->release);
			if (pm_ab_job_start(j, env, &e)) {
				j->done = true;
				j->end = PM_JOB_FATAL;
				snprintf(j->why, sizeof(j->why), "%s", e.msg);
			}
		}
		for (i = ended; i < started; i++)
			if (!jobs[i].done && pm_ab_job_poll(&jobs[i], env, &stop_flag) &&
			    jobs[i].end == PM_JOB_KEPT && !ab->o.quiet)
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
		if (jobs[i].end == PM_JOB_STOP || stop_flag)
			return 128 + (first_signal ? first_signal : SIGINT);
		if (jobs[i].end == PM_JOB_FATAL) {
			report_failure(ab, &jobs[i]);
			return PM_EXIT_RUNTIME;
		}
		if (jobs[i].end == PM_JOB_RESTART && !*restart) {
			*restart = true;
			pm_warn("%s %s: KVM does not run this kernel (%s): falling back to TCG "
				"for every boot", ab->o.local ? "run" : "boot", jobs[i].tag,
				jobs[i].why);
		}
	}
	return *restart || started == n ? AB_GO : PM_EXIT_RUNTIME;
}

/*
 * One block: each arm of arms[0..n) run once, in random order (or A and
 * B at once, on CPUs swapped from pair to pair).  The runs are kept only
 * when every arm's came back, so that the block stays a block.
 */
static int run_block(struct ab *ab, const size_t *arms, size_t n, const char *prefix)
{
	struct pm_ab_job *jobs = pm_xcalloc(n, sizeof(*jobs));
	struct pm_result *r = pm_xcalloc(n, sizeof(*r));
	size_t *order = pm_xcalloc(n, sizeof(*order)), i, kept = 0;
	bool *parsed = pm_xcalloc(n, sizeof(*parsed));
	bool together = ab->duet && n == 2, restart;
	int status;

	for (i = 0; i < n; i++)
		order[i] = i;
	if (!together)
		shuffle(ab, order, n);
	for (i = 0; i < n; i++) {
		struct pm_ab_job *j = &jobs[i];
		struct pm_ab_arm *a = &ab->arms[arms[order[i]]];

		j->arm = a;
		snprintf(j->tag, sizeof(j->tag), "%s%s%zu", prefix, a->tag,
			 a->nruns + a->failed + 1);
		/* duet: A and B swap CPUs from pair to pair */
		j->host_cpu = together ? (int)((i + ab->pairs) % 2) : -1;
		j->running = &running[together ? i : 0];
	}
	status = run_jobs(ab, &ab->env, jobs, n, together, &restart);
	if (status == AB_GO && restart)
		status = -2;
	for (i = 0; status == AB_GO && i < n; i++) {
		if (jobs[i].end != PM_JOB_KEPT) {
			report_failure(ab, &jobs[i]);
			jobs[i].arm->failed++;
			ab->failed++;
			continue;
		}
		parsed[i] = keep_run(ab, &jobs[i], &r[i]);
		if (!parsed[i]) {
			jobs[i].arm->failed++;
			ab->failed++;
		}
		kept += parsed[i];
	}
	ab->runs += (unsigned)n;
	for (i = 0; i < n; i++) {
		if (parsed[i] && kept == n)
			add_run(jobs[i].arm, &r[i]);
		else if (parsed[i])
			pm_result_free(&r[i]);
		pm_ab_job_free(&jobs[i]);
	}
	free(jobs);
	free(r);
	free(order);
	free(parsed);
	if (status == AB_GO && kept < n)
		return 1;	/* a run failed: the block is not kept */
	return status;
}

/* ---- deciding ---- */

static void explain_opts(const struct ab *ab, struct pm_explain_opts *xo)
{
	pm_explain_opts_default(xo);
	if (!isnan(ab->o.noise))
		xo->noise_floor = ab->o.noise;
	xo->spread = NULL;	/* the pairs, not other runs, say how runs differ */
	xo->sequential = true;
	xo->guests = !ab->o.local;
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
static size_t decide(struct ab *ab)
{
	struct pm_side a = { .name = "A", .runs = ab->arms[0].runs, .nruns = ab->arms[0].nruns };
	struct pm_side b = { .name = "B", .runs = ab->arms[1].runs, .nruns = ab->arms[1].nruns };
	struct pm_explain_opts xo;
	struct pm_explanation x;
	struct pm_err e;
	size_t i, open = 0;

	explain_opts(ab, &xo);
	if (!a.nruns || !b.nruns || pm_explain(&x, &a, &b, &xo, &e))
		return SIZE_MAX;
	if (!ab->decided)
		ab->decided = json_object();
	for (i = 0; i < x.ncmp; i++) {
		const struct pm_bench_cmp *c = &x.cmp[i];
		json_t *d = json_object_get(ab->decided, c->name);
		bool done = c->verdict != PM_INCONCLUSIVE;

		if (c->measured)
			continue;
		open += !done;
		/* decided and still so: it keeps the pairs it was decided at */
		int since = d && done && json_is_true(json_object_get(d, "decided")) &&
			    !strcmp(json_string_value(json_object_get(d, "verdict")) ?
				    json_string_value(json_object_get(d, "verdict")) : "",
				    verdict_word(c->verdict)) ?
			    (int)json_integer_value(json_object_get(d, "pairs")) : (int)ab->pairs;

		d = json_pack("{s:s,s:b,s:i,s:f,s:f,s:f,s:s?}", "verdict",
			      verdict_word(c->verdict), "decided", done, "pairs", since,
			      "ratio", c->ratio, "low", isfinite(c->ci_low) ? c->ci_low : 0,
			      "high", isfinite(c->ci_high) ? c->ci_high : 0, "settle", c->settle);
		/* the experiment's shares are taken at equal host speed too */
		if (c->probe_adjusted && isfinite(c->probe_slope))
			json_object_set_new(d, "probe_slope", json_real(c->probe_slope));
		json_object_set_new(ab->decided, c->name, d);
	}
	pm_explanation_free(&x);
	return open;
}

/*
 * Under TCG, whether the boots load the counting plugin: on unless
 * --no-emulated-counts, when this QEMU can load it; why not, said once.
 * Never under KVM (a guest there can have the host's PMU).
 */
static void setup_counting(struct ab *ab)
{
	char *plugin;

	if (ab->o.local || ab->env.accel != PM_ACCEL_TCG || ab->o.no_emulated_counts ||
	    ab->counting_probed)
		return;
	ab->counting_probed = true;
	ab->counting.icache = ab->o.emulated_icache;
	plugin = pm_xasprintf("%s/%s", pm_libexecdir(), PM_TC_PLUGIN);
	pm_ab_counting_probe(&ab->counting, ab->qemu, plugin, ab->env.scratch);
	free(plugin);
	if (ab->counting.on)
		ab->env.counting = &ab->counting;
	else if (!ab->o.quiet)
		pm_warn("no emulated counts: %s; the experiment goes on time alone",
			ab->counting.why);
}

/* Drop every run: KVM gave way to TCG, the pairs start again. */
static void restart_under_tcg(struct ab *ab)
{
	size_t i, k;

	for (i = 0; i < ab->narms; i++) {
		for (k = 0; k < ab->arms[i].nruns; k++)
			pm_result_free(&ab->arms[i].runs[k]);
		ab->arms[i].nruns = 0;
		ab->arms[i].failed = 0;
	}
	ab->env.accel = PM_ACCEL_TCG;
	snprintf(ab->accel_why, sizeof(ab->accel_why), "KVM could not run the guest kernel");
	setup_counting(ab);
	ab->pairs = ab->failed = ab->runs = 0;
	json_decref(ab->decided);
	ab->decided = NULL;
}

/* Stop adding pairs?  Once --rounds pairs are in: when all is decided or
 * the next pair would not fit the budget. */
static bool enough_pairs(struct ab *ab, double spent, double pair_s, const char **why)
{
	size_t open;

	if (ab->pairs < ab->o.boots)
		return false;
	open = decide(ab);
	if (!open) {
		*why = "every benchmark decided";
		return true;
	}
	if ((ab->o.budget_s > 0 && spent + pair_s > ab->o.budget_s) ||
	    (ab->o.budget_boots && ab->runs + 2 > ab->o.budget_boots)) {
		*why = "the budget is spent";
		return true;
	}
	if (ab->pairs >= 1000) {
		*why = "1000 pairs";
		return true;
	}
	return false;
}

/* A and B in pairs until decided (pmbench-ab(1), DECISIONS). */
static int main_phase(struct ab *ab)
{
	const size_t arms[2] = { 0, 1 };
	double start = now_s(), pair_s = 0;
	const char *why = NULL;
	int st;

	for (;;) {
		double t0 = now_s();

		if (enough_pairs(ab, now_s() - start, pair_s, &why))
			break;
		st = run_block(ab, arms, 2, "");
		if (st == -2) {
			restart_under_tcg(ab);
			start = now_s();
			continue;
		}
		if (st == 1 && (!ab->arms[0].nruns || !ab->arms[1].nruns)) {
			pm_error("%s: its first %s failed: stopping", !ab->arms[0].nruns ? "side A" :
				 "side B", ab->o.local ? "run" : "boot");
			return PM_EXIT_RUNTIME;
		}
		if (st == 1 && ab->failed > ab->pairs + 3) {
			pm_error("%u runs failed: stopping", ab->failed);
			return PM_EXIT_RUNTIME;
		}
		if (st != AB_GO && st != 1)
			return st;
		ab->pairs += st == AB_GO;
		pair_s = fmax(pair_s, now_s() - t0);
	}
	ab->main_s = now_s() - start;
	if (!ab->o.quiet)
		fprintf(stderr, "pmbench ab: %u pairs in %.0f s: %s\n", ab->pairs, ab->main_s, why);
	return AB_GO;
}

/* ---- several differences: which one caused it ---- */

#define CONFIRM_LEVEL PM_LEVEL
#define CONFIRM_MIN_BLOCKS 3

/* The benchmarks called changed. */
static bool changed_bench(const struct ab *ab, const char *name)
{
	const char *v = json_string_value(json_object_get(json_object_get(ab->decided, name),
							  "verdict"));

	return v && (!strcmp(v, "regression") || !strcmp(v, "improvement"));
}

static bool want_confirm(const struct ab *ab)
{
	const char *name;
	json_t *d;

	if (ab->o.no_confirm || ab->ndiffs < 2)
		return false;
	json_object_foreach(ab->decided, name, d)
		if (changed_bench(ab, name))
			return true;
	return false;
}

/* The figure of benchmark name in run i of arm a, NAN without one. */
static double figure(const struct pm_ab_arm *a, size_t i, const char *name)
{
	const struct pm_bench_result *b = i < a->nruns ? pm_result_find(&a->runs[i], name) : NULL;

	if (!b || b->status != PM_BENCH_OK || !b->nrounds)
		return NAN;
	return pm_bench_run_figure(b, b->rounds[0].run);
}

/* The machine-speed probe of benchmark name in run i of arm a: the
 * median of its rounds', NAN without one. */
static double run_probe(const struct pm_ab_arm *a, size_t i, const char *name)
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
 * For each difference taken back and each changed benchmark: the share
 * of B's change the reversal removes, log(B/R) over log(B/A) block by
 * block, with Fieller's interval.  When the verdict took its pairs at
 * equal host speed (explain's probe slope), so are these: each log
 * ratio less the slope times its probes'.  Decided when the interval is
 * narrow (half-width 25 points) or clear of the middle.
 */
static json_t *shares(struct ab *ab, bool *decided)
{
	size_t first = ab->arms[0].nruns - ab->blocks, j, i;
	json_t *res = json_array();
	const char *name;
	json_t *dv;

	*decided = true;
	for (j = 2; j < ab->narms; j++) {
		const struct pm_ab_arm *r = &ab->arms[j];
		json_t *bs = json_object();

		json_object_foreach(ab->decided, name, dv) {
			double *x = pm_xcalloc(ab->blocks + 1, sizeof(*x));
			double *y = pm_xcalloc(ab->blocks + 1, sizeof(*y)), est, lo, hi;
			double *px = pm_xcalloc(ab->blocks + 1, sizeof(*px));
			double *py = pm_xcalloc(ab->blocks + 1, sizeof(*py));
			double slope = json_number_value(json_object_get(dv, "probe_slope"));
			size_t n = 0;
			int err;

			if (!changed_bench(ab, name))
				goto next;
			for (i = 0; i < ab->blocks; i++) {
				double fa = figure(&ab->arms[0], first + i, name);
				double fb = figure(&ab->arms[1], first + i, name);
				double fr = figure(r, i, name);

				if (fa > 0 && fb > 0 && fr > 0) {
					double pa = run_probe(&ab->arms[0], first + i, name);
					double pb = run_probe(&ab->arms[1], first + i, name);
					double pr = run_probe(r, i, name);

					/* the adjustment needs every run's probe */
					if (!(pa > 0 && pb > 0 && pr > 0))
						slope = 0;
					px[n] = log(pb / pr);
					py[n] = log(pb / pa);
					x[n] = log(fb / fr);
					y[n++] = log(fb / fa);
				}
			}
			err = n >= 2 ? pm_fieller_ratio_adjusted(x, px, y, py, n, slope, CONFIRM_LEVEL,
								 &est, &lo, &hi) : -EINVAL;
			if (err || !isfinite(lo) || !isfinite(hi) ||
			    (hi - lo > 0.5 && lo < 0.75 && hi > 0.25))
				*decided = false;
			json_object_set_new(bs, name, err && err != -ERANGE ?
				json_pack("{s:i}", "boots", (int)n) :
				json_pack("{s:f,s:o,s:o,s:f,s:i,s:o}", "removed", est,
					  "low", isfinite(lo) ? json_real(lo) : json_null(),
					  "high", isfinite(hi) ? json_real(hi) : json_null(),
					  "level", CONFIRM_LEVEL, "boots", (int)n,
					  "probe_slope", slope ? json_real(slope) : json_null()));
next:
			free(x);
			free(y);
			free(px);
			free(py);
		}
		json_array_append_new(res, json_pack("{s:i,s:s,s:s,s:s,s:o}", "difference",
						     r->reverts, "text", ab->diffs[r->reverts].text,
						     "arm", r->name, "file", r->tag, "benchmarks", bs));
	}
	return res;
}

/* The arm that is B with difference k taken back. */
static int add_reversal(struct ab *ab, size_t k, struct pm_err *e)
{
	const struct pm_ab_diff *d = &ab->diffs[k];
	const struct pm_ab_arm *A, *B;
	struct pm_ab_arm *r;

	/* A and B after the realloc, which may move them */
	ab->arms = pm_xrealloc(ab->arms, (ab->narms + 1) * sizeof(*ab->arms));
	A = &ab->arms[0];
	B = &ab->arms[1];
	r = &ab->arms[ab->narms++];
	memset(r, 0, sizeof(*r));
	r->reverts = (int)k;
	r->label = pm_xasprintf("R%zu", k + 1);
	r->tag = pm_xasprintf("r%zu-", k + 1);
	r->kernel = d->kind == PM_AB_DIFF_IMAGE ? A->kernel : B->kernel;
	r->append = d->kind == PM_AB_DIFF_IMAGE || ab->o.local ? pm_xstrdup(B->append ? B->append : "") :
		    pm_ab_revert_append(B->append ? B->append : "", d);
	r->setup = d->kind == PM_AB_DIFF_SETUP ? A->setup : B->setup;
	r->wrap = d->kind == PM_AB_DIFF_WRAP ? A->wrap : B->wrap;
	r->name = pm_xasprintf("B without %s", d->text);
	return ab->o.local ? 0 : pm_ab_arm_prepare(r, &ab->o, NULL, ab->env.scratch, e);
}

/* Blocks of A, B and each reversal, in random order, until decided. */
static int confirm_phase(struct ab *ab)
{
	size_t *arms, i, n;
	double start = now_s(), block_s = 0;
	bool decided = false;
	struct pm_err e;
	int st = AB_GO;

	for (i = 0; i < ab->ndiffs; i++)
		if (add_reversal(ab, i, &e)) {
			pm_error("%s", e.msg);
			return PM_EXIT_RUNTIME;
		}
	n = ab->narms;
	arms = pm_xcalloc(n, sizeof(*arms));
	for (i = 0; i < n; i++)
		arms[i] = i;
	if (!ab->o.quiet)
		fprintf(stderr, "pmbench ab: %zu differences: boots with each taken back, "
			"interleaved with A and B\n", ab->ndiffs);
	while (!stop_flag) {
		double t0 = now_s();

		if (ab->blocks >= CONFIRM_MIN_BLOCKS) {
			json_decref(ab->confirm);
			ab->confirm = json_pack("{s:f,s:i,s:o}", "level", CONFIRM_LEVEL, "blocks",
						(int)ab->blocks, "results", shares(ab, &decided));
			if (decided || t0 - start + block_s > ab->o.confirm_budget_s)
				break;
		}
		st = run_block(ab, arms, n, "");
		if (st == 1 && ab->failed > ab->blocks + ab->pairs + 3)
			break;
		if (st != AB_GO && st != 1)
			break;
		ab->blocks += st == AB_GO;
		block_s = fmax(block_s, now_s() - t0);
	}
	ab->confirm_s = now_s() - start;
	if (ab->confirm)
		json_object_set_new(ab->confirm, "seconds", json_real(ab->confirm_s));
	free(arms);
	return st == 1 ? AB_GO : st;
}

/* ---- duet or in turn ---- */

#define DUET_PAIRS 6
#define DUET_PROBE_VALID_S (24 * 3600.0)

/* log(B/A) of run pairs of null and fork: their spread (sd), median of the two. */
static double pair_spread(const struct pm_ab_arm *a, const struct pm_ab_arm *b)
{
	static const char *const names[] = { "null", "fork" };
	double sd[2];
	size_t k, i;

	for (k = 0; k < 2; k++) {
		double d[DUET_PAIRS], m = 0, ss = 0;
		size_t n = 0;

		for (i = 0; i < a->nruns && i < b->nruns && n < DUET_PAIRS; i++) {
			double fa = figure(a, i, names[k]), fb = figure(b, i, names[k]);

			if (fa > 0 && fb > 0)
				d[n++] = log(fb / fa);
		}
		for (i = 0; i < n; i++)
			m += d[i] / (double)n;
		for (i = 0; i < n; i++)
			ss += (d[i] - m) * (d[i] - m);
		sd[k] = n > 2 ? sqrt(ss / (double)(n - 1)) : NAN;
	}
	return isnan(sd[0]) ? sd[1] : isnan(sd[1]) ? sd[0] : (sd[0] + sd[1]) / 2;
}

static bool keep_probe(const struct pm_ab_job *j, struct pm_result *r)
{
	json_error_t je;
	json_t *root = json_loadb(j->image, j->image_len, 0, &je);
	struct pm_err e;
	bool ok = root && !pm_result_from_json(r, root, j->tag, &e);

	json_decref(root);
	return ok;
}

/* DUET_PAIRS A/A pairs of a short pmbench run, at once or in turn. */
static double probe_pairs(struct ab *ab, bool together)
{
	static char *benches[] = { "null", "fork", NULL };
	struct pm_ab_opts po = ab->o;
	struct pm_ab_env env = ab->env;
	struct pm_ab_arm arms[2] = {
		{ .name = "A", .label = "A", .tag = "probe-a" },
		{ .name = "A'", .label = "A", .tag = "probe-b" },
	};
	char **argv = pm_xcalloc(16, sizeof(*argv)), *exe = self_exe();
	double spread = NAN;
	size_t k, i;

	argv[0] = exe;
	argv[1] = "run";
	argv[2] = "-q";
	argv[3] = "--rounds";
	argv[4] = "1";
	argv[5] = "--max-time";
	argv[6] = "0.2";
	argv[7] = "--no-profile";
	argv[8] = "--no-counters";
	po.local = true;
	po.timeout_s = 120;
	ab->o.quiet = true;
	env.o = &po;
	env.qemu = NULL;
	env.local_argv = argv;
	env.benches = benches;
	for (k = 0; k < DUET_PAIRS && !stop_flag; k++) {
		struct pm_ab_job jobs[2] = { { 0 } };
		bool restart;

		for (i = 0; i < 2; i++) {
			jobs[i].arm = &arms[i];
			snprintf(jobs[i].tag, sizeof(jobs[i].tag), "%s%zu", arms[i].tag, k);
			jobs[i].host_cpu = together ? (int)((i + k) % 2) : 0;
			jobs[i].running = &running[i];
		}
		if (run_jobs(ab, &env, jobs, 2, together, &restart) == AB_GO &&
		    jobs[0].end == PM_JOB_KEPT && jobs[1].end == PM_JOB_KEPT) {
			struct pm_result r[2];

			if (keep_probe(&jobs[0], &r[0])) {
				if (keep_probe(&jobs[1], &r[1])) {
					add_run(&arms[0], &r[0]);
					add_run(&arms[1], &r[1]);
				} else {
					pm_result_free(&r[0]);
				}
			}
		}
		for (i = 0; i < 2; i++)
			pm_ab_job_free(&jobs[i]);
	}
	if (arms[0].nruns == arms[1].nruns)
		spread = pair_spread(&arms[0], &arms[1]);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < arms[i].nruns; k++)
			pm_result_free(&arms[i].runs[k]);
		free(arms[i].runs);
	}
	free(argv);
	free(exe);
	ab->o.quiet = po.quiet;
	return spread;
}

/* The host's last probe, when it is recent and of this host. */
static bool cached_probe(const char *path, double *duet, double *turn, double *age)
{
	json_error_t je;
	json_t *j = json_load_file(path, 0, &je);
	char host[256] = "";
	bool ok;

	gethostname(host, sizeof(host) - 1);
	*age = now_wall() - json_number_value(json_object_get(j, "time"));
	const char *h = json_string_value(json_object_get(j, "host"));

	ok = j && h && !strcmp(h, host) &&
	     json_integer_value(json_object_get(j, "cpus")) == sysconf(_SC_NPROCESSORS_ONLN) &&
	     *age >= 0 && *age < DUET_PROBE_VALID_S;
	*duet = json_number_value(json_object_get(j, "duet"));
	*turn = json_number_value(json_object_get(j, "turn"));
	json_decref(j);
	return ok && *duet > 0 && *turn > 0;
}

static void save_probe(const char *path, double duet, double turn)
{
	char host[256] = "";
	json_t *j;

	gethostname(host, sizeof(host) - 1);
	j = json_pack("{s:s,s:I,s:f,s:f,s:f,s:i}", "host", host,
		      "cpus", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN), "time", now_wall(),
		      "duet", duet, "turn", turn, "pairs", DUET_PAIRS);
	json_dump_file(j, path, JSON_INDENT(1));
	json_decref(j);
}

/*
 * Duet (A and B at once on two CPUs) or in turn: --duet, else what this
 * host's own A/A pairs show, measured once a day and kept in the result
 * history (on some VMs two busy vCPUs slow each other down, and duet is
 * worse: pmbench-ab(1)).
 */
static void choose_pairing(struct ab *ab)
{
	double duet = NAN, turn = NAN, age = 0;
	char *dir = NULL, *path = NULL;
	struct pm_err e;
	bool cached = false;

	if (ab->o.duet != PM_DUET_AUTO) {
		ab->duet = ab->o.duet == PM_DUET_ON;
		snprintf(ab->duet_why, sizeof(ab->duet_why), "--duet %s", ab->duet ? "on" : "off");
		return;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || (ab->o.local && (ab->arms[0].setup ||
								   ab->arms[1].setup))) {
		snprintf(ab->duet_why, sizeof(ab->duet_why), "%s",
			 sysconf(_SC_NPROCESSORS_ONLN) < 2 ? "one CPU" :
			 "set-up commands change the host for both sides");
		return;
	}
	/* beside the result history, not in it: it is no result */
	if (!pm_history_dir(&dir, &e)) {
		char *slash = strrchr(dir, '/');

		if (slash)
			*slash = '\0';
		path = pm_xasprintf("%s/duet-probe.json", dir);
		cached = cached_probe(path, &duet, &turn, &age);
	}
	if (!cached) {
		if (!ab->o.quiet)
			fprintf(stderr, "pmbench ab: measuring how A/A pairs spread on this host, "
				"at once and in turn (%d pairs each, once a day)\n", DUET_PAIRS);
		duet = probe_pairs(ab, true);
		turn = probe_pairs(ab, false);
		if (path && duet > 0 && turn > 0 && pm_mkdir_p(dir, 0755) == 0)
			save_probe(path, duet, turn);
	}
	ab->duet = duet > 0 && turn > 0 && duet < turn;
	if (!(duet > 0 && turn > 0))
		snprintf(ab->duet_why, sizeof(ab->duet_why), "in turn: the host's A/A pairs "
			 "could not be measured");
	else
		snprintf(ab->duet_why, sizeof(ab->duet_why), "%s: on this host A/A pairs run at "
			 "the same time spread %.1f%%, taken in turn %.1f%% (%d pairs each of "
			 "null and fork, %s)", ab->duet ? "duet" : "in turn", 100 * duet, 100 * turn,
			 DUET_PAIRS, cached ? "measured earlier today" : "measured now");
	free(dir);
	free(path);
}

/* ---- the report ---- */

static void describe_arm(FILE *f, const struct ab *ab, const struct pm_ab_arm *a)
{
	if (ab->o.local)
		fprintf(f, "%s on this host%s%s%s%s%s%s", a->name, a->setup ? ", set-up '" : "",
			a->setup ? a->setup : "", a->setup ? "'" : "", a->wrap ? ", wrapper '" : "",
			a->wrap ? a->wrap : "", a->wrap ? "'" : "");
	else
		fprintf(f, "%s = %s (%s)%s%s%s", a->name, a->kernel, a->release,
			a->append && *a->append ? " \"" : "", a->append ? a->append : "",
			a->append && *a->append ? "\"" : "");
}

/* "null regression after 3 pairs, stat unknown (about 12 more pairs)" */
static void describe_decisions(FILE *f, const struct ab *ab)
{
	const char *name;
	json_t *d;
	size_t k = 0;

	json_object_foreach(ab->decided, name, d) {
		const char *v = json_string_value(json_object_get(d, "verdict"));

		fprintf(f, "%s%s %s", k++ ? "; " : "", name, v);
		if (json_is_true(json_object_get(d, "decided")))
			fprintf(f, " after %d pairs", (int)json_integer_value(json_object_get(d, "pairs")));
		else
			fprintf(f, " after %u pairs", ab->pairs);
	}
}

static char *report_header(const struct ab *ab)
{
	char *text = NULL;
	size_t len = 0, i;
	FILE *f = open_memstream(&text, &len);

	fputs("pmbench ab: ", f);
	describe_arm(f, ab, &ab->arms[0]);
	fputs("\n            ", f);
	describe_arm(f, ab, &ab->arms[1]);
	fputs("\n", f);
	for (i = 0; i < ab->ndiffs; i++)
		fprintf(f, "%s%s", i ? "; " : "differences: ", ab->diffs[i].text);
	fprintf(f, "%s", ab->ndiffs ? "\n" : "differences: none (an A/A run)\n");
	fprintf(f, "pairs: %u in %.0f s, %s (%s)\n  ", ab->pairs, ab->main_s,
		ab->duet ? "A and B at once on two CPUs" : "A and B in turn, in random order",
		ab->duet_why);
	describe_decisions(f, ab);
	fputs("\n", f);
	if (ab->confirm)
		fprintf(f, "taken back one at a time: %u blocks of A, B and %zu reversals in %.0f s "
			"(see the causes below)\n", ab->blocks, ab->ndiffs, ab->confirm_s);
	if (!ab->o.local)
		fprintf(f, "accelerator: %s (%s)\n  %s\nguests: -cpu %s, %u MiB, %u vCPU%s; each "
			"ran pmbench run --rounds %u --max-time %g\n",
			ab->env.accel == PM_ACCEL_TCG ? "TCG" : "KVM", ab->accel_why, accel_note(ab),
			ab->o.cpu, ab->o.memory_mb, ab->o.vcpus, ab->o.vcpus == 1 ? "" : "s",
			ab->o.run_rounds, ab->o.max_time_s);
	if (!ab->o.local && ab->env.accel == PM_ACCEL_TCG && ab->counting.on)
		fprintf(f, "emulated counts: every trial's instructions counted exactly in the "
			"emulated CPU by %s %s%s (%s; the vCPUs in one thread): not hardware "
			"counter values\n", PM_TC_PLUGIN, ab->counting.version,
			ab->counting.icache ? " with a model of the guest CPU's L1i" : "",
			ab->counting.qemu_version);
	else if (!ab->o.local && ab->env.accel == PM_ACCEL_TCG)
		fprintf(f, "emulated counts: none (%s)\n", ab->o.no_emulated_counts ?
			"--no-emulated-counts" : ab->counting.why);
	else
		fprintf(f, "each run: pmbench run --rounds %u --max-time %g\n", ab->o.run_rounds,
			ab->o.max_time_s);
	fputs("\n", f);
	fclose(f);
	return text;
}

static int explain_sides(const struct ab *ab, const char *header, struct pm_err *e)
{
	struct pm_explain_opts xo;
	struct pm_explanation x;
	struct pm_side a, b;
	char *pa = pm_xasprintf("%s/a.json", ab->out), *pb = pm_xasprintf("%s/b.json", ab->out);
	char *rpt = pm_xasprintf("%s/report.txt", ab->out), *text = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	explain_opts(ab, &xo);
	err = pm_cli_side_load(&a, pa, e);
	if (!err)
		err = pm_cli_side_load(&b, pb, e);
	if (!err)
		err = pm_explain(&x, &a, &b, &xo, e);
	if (!err) {
		struct bytes bb;

		f = open_memstream(&text, &len);
		fputs(header, f);
		pm_report_text(&x, f, false, false);
		fclose(f);
		bb.p = text;
		bb.n = len;
		err = pm_write_atomic(rpt, write_bytes, &bb, e);
		if (!ab->o.quiet) {
			fwrite(text, 1, len, stdout);
			fflush(stdout);
		}
		free(text);
		pm_explanation_free(&x);
	}
	pm_side_free(&a);
	pm_side_free(&b);
	free(pa);
	free(pb);
	free(rpt);
	return err;
}

/* ---- setting up ---- */

/* Which accelerator, and why (for the report). */
static enum pm_accel choose_accel(const struct pm_ab_opts *o, char *why, size_t len)
{
	struct pm_kvm_host host;

	if (o->accel == PM_ACCEL_AUTO) {
		/* the tests probe a made-up host (pmbench-ab(1), ENVIRONMENT) */
		const char *root = getenv("PMBENCH_AB_HOST_ROOT");

		pm_kvm_host_probe(&host, root ? root : "");
		return pm_accel_choose(&host, why, len);
	}
	snprintf(why, len, "--accel %s", pm_accel_name(o->accel));
	return o->accel;
}

/* --local: pmbench run and the options each side's run gets. */
static char **local_argv(const struct pm_ab_opts *o)
{
	char **v = pm_xcalloc(12 + o->nrun_options, sizeof(*v));
	size_t n = 0, i;

	v[n++] = self_exe();
	v[n++] = pm_xstrdup("run");
	v[n++] = pm_xstrdup("-q");
	v[n++] = pm_xstrdup("--rounds");
	v[n++] = pm_xasprintf("%u", o->run_rounds);
	v[n++] = pm_xstrdup("--max-time");
	v[n++] = pm_xasprintf("%g", o->max_time_s);
	if (o->events) {
		v[n++] = pm_xstrdup("--events");
		v[n++] = pm_xstrdup(o->events);
	}
	if (o->no_profile)
		v[n++] = pm_xstrdup("--no-profile");
	if (o->no_counters)
		v[n++] = pm_xstrdup("--no-counters");
	for (i = 0; i < o->nrun_options; i++)
		v[n++] = pm_xstrdup(o->run_options[i]);
	return v;
}

static int setup_arms(struct ab *ab, struct pm_err *e)
{
	size_t i;
	int err = 0;

	ab->narms = 2;
	ab->arms = pm_xcalloc(2, sizeof(*ab->arms));
	for (i = 0; i < 2; i++) {
		struct pm_ab_arm *a = &ab->arms[i];
		const char *both = ab->o.append_both, *one = ab->o.side[i].append;

		a->name = pm_xstrdup(i ? "B" : "A");
		a->label = pm_xstrdup(a->name);
		a->tag = pm_xstrdup(i ? "b" : "a");
		a->reverts = -1;
		a->kernel = ab->o.side[i].kernel;
		a->append = both && one ? pm_xasprintf("%s %s", both, one) :
			    pm_xstrdup(both ? both : one ? one : "");
		a->setup = ab->o.side[i].setup;
		a->wrap = ab->o.side[i].wrap;
	}
	if (ab->o.local)
		ab->ndiffs = pm_ab_local_differences(ab->arms[0].setup, ab->arms[1].setup,
						     ab->arms[0].wrap, ab->arms[1].wrap, &ab->diffs);
	else
		ab->ndiffs = pm_ab_differences(ab->arms[0].kernel, ab->arms[1].kernel,
					       ab->arms[0].append, ab->arms[1].append, &ab->diffs);
	for (i = 0; !err && !ab->o.local && i < 2; i++) {
		struct pm_ab_arm *a = &ab->arms[i];

		err = pm_ab_arm_prepare(a, &ab->o, ab->o.side[i].vmlinux, ab->env.scratch, e);
		if (err) {
			pm_err_set(e, err, "side %s: %s", a->name, e->msg);
			break;
		}
		if (!a->have_modules && !ab->o.quiet)
			pm_warn("side %s: %s; the result comes back over the serial port "
				"(slower)", a->name, a->modules_why);
		if (!a->have_config && !ab->o.quiet)
			pm_warn("side %s: no /boot/config-%s: the guest's fingerprint has its "
				"kernel config only if the kernel has /proc/config.gz", a->name,
				a->release);
	}
	return err;
}

static int setup_env(struct ab *ab, struct pm_err *e)
{
	struct pm_ab_env *env = &ab->env;

	env->o = &ab->o;
	env->benches = ab->o.benches;
	if (ab->o.local) {
		env->local_argv = local_argv(&ab->o);
		snprintf(ab->accel_why, sizeof(ab->accel_why), "--local");
		return 0;
	}
	ab->qemu = pm_ab_find_qemu(ab->o.qemu, e);
	if (!ab->qemu)
		return ab->o.qemu ? -EINVAL : -ENOENT;
	env->qemu = ab->qemu;
	env->accel = choose_accel(&ab->o, ab->accel_why, sizeof(ab->accel_why));
	return 0;
}

/* DIR, DIR/console and the scratch directory; an exit status or AB_GO. */
static int make_dirs(struct ab *ab)
{
	struct pm_err e;

	ab->out = ab->o.output ? pm_xstrdup(ab->o.output) : pm_fmt_now("ab-%Y%m%d-%H%M%S", false);
	if (make_output(ab->out, &e)) {
		pm_error("%s", e.msg);
		return PM_EXIT_USAGE;
	}
	ab->console_dir = ab->o.console_dir ? pm_xstrdup(ab->o.console_dir) :
			  pm_xasprintf("%s/console", ab->out);
	int err = pm_mkdir_p(ab->console_dir, 0755);

	if (err) {
		pm_error("--keep-console %s: %s", ab->console_dir, strerror(-err));
		return PM_EXIT_USAGE;
	}
	/* main() removes it, as run's (PM_CMD_SCRATCH) */
	ab->env.scratch = pm_cmd_scratch(&e);
	if (!ab->env.scratch) {
		pm_error("%s", e.msg);
		return PM_EXIT_RUNTIME;
	}
	return AB_GO;
}

static void ab_free(struct ab *ab)
{
	size_t i;

	for (i = 0; i < ab->narms; i++)
		pm_ab_arm_free(&ab->arms[i]);
	free(ab->arms);
	pm_ab_diffs_free(ab->diffs, ab->ndiffs);
	pm_strv_free(ab->env.local_argv);
	json_decref(ab->decided);
	json_decref(ab->confirm);
	pm_ab_counting_free(&ab->counting);
	free(ab->out);
	free(ab->console_dir);
	pm_ab_opts_free(&ab->o);
}

/* The files: a.json, b.json, one per reversal, then explain's report. */
static int finish(struct ab *ab)
{
	json_t *experiment;
	char *header;
	struct pm_err e;
	size_t i;
	int status = PM_EXIT_OK;

	/* the records as the report will judge them: every pair, those of
	 * the confirming blocks too */
	if (ab->blocks)
		decide(ab);
	experiment = experiment_json(ab);

	for (i = 0; i < ab->narms && status == PM_EXIT_OK; i++)
		if (ab->arms[i].nruns && write_arm(ab, &ab->arms[i], experiment, &e)) {
			pm_error("%s", e.msg);
			status = PM_EXIT_RUNTIME;
		}
	json_decref(experiment);
	if (status)
		return status;
	header = report_header(ab);
	if (explain_sides(ab, header, &e)) {
		pm_error("%s", e.msg);
		status = PM_EXIT_RUNTIME;
	}
	free(header);
	if (!status && !ab->o.quiet)
		fprintf(stderr, "pmbench ab: wrote %s/a.json, %s/b.json%s, %s/report.txt; "
			"console logs in %s\n", ab->out, ab->out,
			ab->narms > 2 ? " and the reversals' r*.json" : "", ab->out, ab->console_dir);
	if (!status && ab->failed) {
		pm_error("%u of %u runs failed (see above); the report uses the others",
			 ab->failed, ab->runs);
		status = PM_EXIT_RUNTIME;
	}
	return status;
}

/* "10m" or "20 runs" */
static const char *budget_text(const struct ab *ab)
{
	static char buf[64];

	if (ab->o.budget_boots)
		snprintf(buf, sizeof(buf), "%u %s", ab->o.budget_boots,
			 ab->o.local ? "runs" : "boots");
	else if (fmod(ab->o.budget_s, 60) == 0)
		snprintf(buf, sizeof(buf), "%.0f min", ab->o.budget_s / 60);
	else
		snprintf(buf, sizeof(buf), "%.0f s", ab->o.budget_s);
	return buf;
}

static int run_experiment(struct ab *ab)
{
	struct pm_err e;
	int st;

	if (setup_env(ab, &e)) {
		pm_error("%s", e.msg);
		return ab->o.qemu ? PM_EXIT_USAGE : PM_EXIT_RUNTIME;
	}
	if (!ab->o.timeout_s)
		ab->o.timeout_s = pm_ab_default_timeout(&ab->o);
	st = make_dirs(ab);
	if (st != AB_GO)
		return st;
	setup_counting(ab);
	ab->env.console_dir = ab->console_dir;
	pm_catch_stop_signals(on_signal);
	if (setup_arms(ab, &e)) {
		pm_error("%s", e.msg);
		return pm_exit_status(-EINVAL);
	}
	choose_pairing(ab);
	ab->seed = ab->o.seed ? ab->o.seed : (uint64_t)now_wall() ^ ((uint64_t)getpid() << 32);
	ab->rng = ab->seed;
	if (!ab->o.quiet)
		fprintf(stderr, "pmbench ab: pairs of A and B, %s; at least %u, then until "
			"decided or %s%s; %s %s (%s)%s\n", ab->duet ? "both at once" : "in turn",
			ab->o.boots, ab->o.budget_boots ? "" : "after ", budget_text(ab),
			ab->o.local ? "runs" : "accelerator", ab->o.local ? "on this host" :
			pm_accel_name(ab->env.accel), ab->accel_why,
			!ab->o.local && ab->env.accel == PM_ACCEL_TCG ? ": emulation figures" : "");
	st = main_phase(ab);
	if (st == AB_GO && want_confirm(ab))
		st = confirm_phase(ab);
	if (st == AB_GO && stop_flag)
		st = 128 + (first_signal ? first_signal : SIGINT);
	if (st != AB_GO) {
		if (st >= 128)
			pm_error("interrupted: %s stopped, nothing written", ab->o.local ?
				 "the runs" : "QEMU");
		return st;
	}
	return finish(ab);
}

int cmd_ab(int argc, char **argv)
{
	struct ab ab = { .status = -1 };
	struct pm_err e;
	int err, status;

	err = pm_ab_parse_args(argc, argv, &ab.o, &e);
	if (err == 1) {
		pm_usage_print(&pm_ab_usage, stdout);
		return PM_EXIT_OK;
	}
	if (err == 2)
		return pm_show_manual("pmbench-ab");
	if (err)
		return pm_usage_error(&pm_ab_usage, "%s", e.msg);
#ifndef __x86_64__
	if (!ab.o.local) {
		pm_error("ab: the guests run this pmbench binary under qemu-system-x86_64: "
			 "only x86-64 hosts are supported (--local works everywhere)");
		pm_ab_opts_free(&ab.o);
		return PM_EXIT_RUNTIME;
	}
#endif
	status = run_experiment(&ab);
	ab_free(&ab);
	return status;
}
