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

#include "ab/engine.h"
#include "bench/runner.h"
#include "cmd.h"
#include "explain/explain.h"
#include "results/history.h"
#include "results/result.h"
#include "stats/seq.h"

/* ---- output ---- */

static int make_output(const char *dir, struct pm_err *e)
{
	struct dirent *d;
	DIR *dh;

	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno != EEXIST)
		return pm_err_set(e, -errno, "-o %s: %s", dir, strerror(errno));
	/* an experiment that was interrupted: the same command continues it */
	if (pm_ab_journal_exists(dir))
		return 1;
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

static const char *accel_note(const struct pm_ab_exp *ab)
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
static json_t *experiment_json(const struct pm_ab_exp *ab)
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
	j = json_pack("{s:s,s:o,s:I,s:s,s:s,s:i,s:f,s:O?,s:O?,s:O?}", "id", id,
		      "differences", v, "seed", (json_int_t)ab->seed,
		      "pairing", ab->duet ? "duet" : "in turn", "pairing_reason", ab->duet_why,
		      "pairs", (int)ab->pairs, "seconds", ab->main_s, "decided", ab->decided,
		      "confirm", ab->confirm, "knockouts", ab->knockouts);
	free(id);
	return j;
}

/* Whether the guests' instructions were counted, and by what. */
static json_t *counting_json(const struct pm_ab_exp *ab)
{
	const struct pm_ab_counting *c = &ab->counting;

	if (c->on)
		return json_pack("{s:s,s:s,s:b}", "plugin", c->version, "qemu", c->qemu_version,
				 "icache", c->icache);
	return json_pack("{s:s}", "unavailable", ab->o.no_emulated_counts ?
			 "--no-emulated-counts" : c->why);
}

static json_t *arm_json(const struct pm_ab_exp *ab, const struct pm_ab_arm *a)
{
	const struct pm_ab_opts *o = &ab->o;
	char *cmdline = pm_xasprintf("%s%s%s%s", PM_BOOT_APPEND,
				     !o->local && ab->env.accel == PM_ACCEL_TCG && o->emulated_clock ?
				     " " PM_BOOT_APPEND_ICOUNT : "", a->append && *a->append ? " " : "",
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
		if (ab->env.accel == PM_ACCEL_TCG && o->emulated_clock)
			json_object_set_new(j, "emulated_clock", json_string("icount shift=0,sleep=off"));
		if (a->tree)
			json_object_set_new(j, "tree", json_pack("{s:s,s:s?}", "path", a->tree,
								 "describe", a->describe));
	}
	free(cmdline);
	return j;
}

/* Merge an arm's runs and write DIR/TAG.json. */
static int write_arm(const struct pm_ab_exp *ab, const struct pm_ab_arm *a, json_t *experiment,
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

/* ---- the report ---- */

static void describe_arm(FILE *f, const struct pm_ab_exp *ab, const struct pm_ab_arm *a)
{
	if (ab->o.local)
		fprintf(f, "%s on this host%s%s%s%s%s%s", a->name, a->setup ? ", set-up '" : "",
			a->setup ? a->setup : "", a->setup ? "'" : "", a->wrap ? ", wrapper '" : "",
			a->wrap ? a->wrap : "", a->wrap ? "'" : "");
	else
		fprintf(f, "%s = %s (%s%s%s%s%s)%s%s%s", a->name, a->kernel, a->release,
			a->tree ? ", built in " : "", a->tree ? a->tree : "",
			a->describe ? " at " : "", a->describe ? a->describe : "",
			a->append && *a->append ? " \"" : "", a->append ? a->append : "",
			a->append && *a->append ? "\"" : "");
}

/* "null regression after 3 pairs, stat unknown (about 12 more pairs)" */
static void describe_decisions(FILE *f, const struct pm_ab_exp *ab)
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

/* "knock-outs on both sides: init_on_alloc=0 (the slab allocator) ..." */
static void describe_knockouts(FILE *f, const struct pm_ab_exp *ab)
{
	const json_t *res = json_object_get(ab->knockouts, "results"), *r, *c;
	const json_t *cand = json_object_get(ab->knockouts, "candidates");
	size_t i, untried = 0;

	fprintf(f, "knock-outs on both sides: %u blocks of A, B and each in %.0f s:",
		ab->ko_blocks, ab->ko_s);
	json_array_foreach(res, i, r)
		fprintf(f, "%s %s (%s)", i ? ";" : "", json_string_value(json_object_get(r, "argument")),
			json_string_value(json_object_get(r, "name")));
	json_array_foreach(cand, i, c) {
		const char *why = json_string_value(json_object_get(c, "skipped"));

		if (why)
			fprintf(f, "; not %s: %s", json_string_value(json_object_get(c, "argument")),
				why);
		else
			untried += !json_is_true(json_object_get(c, "tried"));
	}
	if (untried)
		fprintf(f, "; %zu more candidate%s not tried (--knockouts %u)", untried,
			untried == 1 ? "" : "s", ab->o.knockouts);
	fputs("\n", f);
}

static char *report_header(const struct pm_ab_exp *ab)
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
	if (ab->knockouts)
		describe_knockouts(f, ab);
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
	if (!ab->o.local && ab->env.accel == PM_ACCEL_TCG && ab->o.emulated_clock)
		fprintf(f, "emulated clock: the guests' clocks count instructions (a nanosecond "
			"each, idle time skipped): times are instruction time, the same in every "
			"boot, not the host's\n");
	if (ab->o.local)
		fprintf(f, "each run: pmbench run --rounds %u --max-time %g\n", ab->o.run_rounds,
			ab->o.max_time_s);
	fputs("\n", f);
	fclose(f);
	return text;
}

static int explain_sides(const struct pm_ab_exp *ab, const char *header, struct pm_err *e)
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
	pm_ab_explain_opts(ab, &xo);
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

	v[n++] = pm_ab_self_exe();
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

static int setup_env(struct pm_ab_exp *ab, struct pm_err *e)
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

/* DIR, DIR/console and the scratch directory; an exit status, -1 to go on. */
static int make_dirs(struct pm_ab_exp *ab, bool *resume)
{
	struct pm_err e;
	int err;

	ab->out = ab->o.output ? pm_xstrdup(ab->o.output) : pm_fmt_now("ab-%Y%m%d-%H%M%S", false);
	err = make_output(ab->out, &e);
	if (err < 0) {
		pm_error("%s", e.msg);
		return PM_EXIT_USAGE;
	}
	*resume = err == 1;
	ab->console_dir = ab->o.console_dir ? pm_xstrdup(ab->o.console_dir) :
			  pm_xasprintf("%s/console", ab->out);
	err = pm_mkdir_p(ab->console_dir, 0755);
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
	return -1;
}

static int finish(struct pm_ab_exp *ab)
{
	json_t *experiment;
	char *header;
	struct pm_err e;
	size_t i;
	int status = PM_EXIT_OK;

	/* the records as the report will judge them: every pair, those of
	 * the confirming and knock-out blocks too */
	if (ab->blocks || ab->ko_blocks)
		pm_ab_decide(ab);
	pm_ab_journal_finish(ab);
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
			ab->narms > 2 ? " and the other arms' files" : "", ab->out, ab->console_dir);
	if (!status && ab->failed) {
		pm_error("%u of %u runs failed (see above; %u block%s of runs left out); the "
			 "report uses the others", ab->failed, ab->runs, ab->dropped,
			 ab->dropped == 1 ? "" : "s");
		status = PM_EXIT_RUNTIME;
	}
	return status;
}

/* "10m" or "20 runs" */
static const char *budget_text(const struct pm_ab_exp *ab)
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

/* At a second stop signal: the boots (or runs) that run now, with what
 * they started (their process groups). */
static struct pm_ab_exp *running_exp;

static void kill_running(void)
{
	size_t i;

	for (i = 0; running_exp && i < 2; i++)
		if (running_exp->running[i] > 0) {
			kill(-running_exp->running[i], SIGKILL);
			kill(running_exp->running[i], SIGKILL);
		}
}

/* The phases; stop signals end them (PM_CMD_CATCH_STOP). */
static enum pm_ab_end run_phases(struct pm_ab_exp *ab)
{
	enum pm_ab_end end;

	end = pm_ab_main_phase(ab);
	if (end == PM_AB_DONE && pm_ab_want_confirm(ab))
		end = pm_ab_confirm_phase(ab);
	if (end == PM_AB_DONE && pm_ab_want_knockouts(ab))
		end = pm_ab_knockout_phase(ab);
	return end == PM_AB_DONE && pm_interrupted ? PM_AB_STOPPED : end;
}

/* Stopped: the pairs kept so far as a.json and b.json, and how to go on. */
static void interrupted(struct pm_ab_exp *ab)
{
	const char *what = ab->o.local ? "the runs" : "QEMU";
	json_t *experiment;
	struct pm_err e;
	size_t i;
	int err = 0;

	if (!ab->pairs) {
		pm_error("interrupted: %s stopped before a pair was kept; the same command "
			 "with -o %s starts it again", what, ab->out);
		return;
	}
	experiment = experiment_json(ab);
	json_object_set_new(experiment, "interrupted", json_true());
	for (i = 0; i < 2 && !err; i++)
		err = write_arm(ab, &ab->arms[i], experiment, &e);
	json_decref(experiment);
	if (err)
		pm_error("interrupted: %s stopped; %s", what, e.msg);
	else
		pm_error("interrupted: %s stopped; the %u pair%s kept so far are in %s/a.json and "
			 "%s/b.json (pmbench explain %s/a.json %s/b.json); the same command with "
			 "-o %s continues the experiment", what, ab->pairs,
			 ab->pairs == 1 ? "" : "s", ab->out, ab->out, ab->out, ab->out, ab->out);
}

static int run_experiment(struct pm_ab_exp *ab)
{
	struct pm_err e;
	bool resume = false;
	int st;

	if (setup_env(ab, &e)) {
		pm_error("%s", e.msg);
		return ab->o.qemu ? PM_EXIT_USAGE : PM_EXIT_RUNTIME;
	}
	if (!ab->o.timeout_s)
		ab->o.timeout_s = pm_ab_default_timeout(&ab->o);
	st = make_dirs(ab, &resume);
	if (st >= 0)
		return st;
	pm_ab_setup_counting(ab);
	ab->env.console_dir = ab->console_dir;
	ab->stop = &pm_interrupted;
	ab->error = pm_error;
	ab->warn = pm_warn;
	ab->kept = pm_cli_kernel_sources;
	running_exp = ab;
	pm_cmd_on_stop_now(kill_running);
	if (pm_ab_setup_arms(ab, &e)) {
		pm_error("%s", e.msg);
		return pm_exit_status(-EINVAL);
	}
	if (resume && (st = pm_ab_journal_resume(ab, &e))) {
		pm_error("%s", e.msg);
		return st == -EEXIST ? PM_EXIT_USAGE : PM_EXIT_RUNTIME;
	}
	if (resume && !ab->o.quiet)
		fprintf(stderr, "pmbench ab: continuing the experiment in %s: %u pair%s kept "
			"(%s/ab-state.json)\n", ab->out, ab->pairs, ab->pairs == 1 ? "" : "s",
			ab->out);
	if (!resume)
		pm_ab_journal_start(ab);
	ab->pair_kept = pm_ab_journal_pair;
	ab->pairs_dropped = pm_ab_journal_restart;
	pm_ab_choose_pairing(ab);
	ab->seed = ab->o.seed ? ab->o.seed : (uint64_t)pm_ab_now_wall() ^ ((uint64_t)getpid() << 32);
	ab->rng = ab->seed;
	if (!ab->o.quiet)
		fprintf(stderr, "pmbench ab: pairs of A and B, %s; at least %u, then until "
			"decided or %s%s; %s %s (%s)%s\n", ab->duet ? "both at once" : "in turn",
			ab->o.boots, ab->o.budget_boots ? "" : "after ", budget_text(ab),
			ab->o.local ? "runs" : "accelerator", ab->o.local ? "on this host" :
			pm_accel_name(ab->env.accel), ab->accel_why,
			!ab->o.local && ab->env.accel == PM_ACCEL_TCG ? ": emulation figures" : "");
	switch (run_phases(ab)) {
	case PM_AB_STOPPED:
		interrupted(ab);
		return pm_cmd_stop_status();
	case PM_AB_FAILED:
		return PM_EXIT_RUNTIME;
	case PM_AB_DONE:
		break;
	}
	return finish(ab);
}

/*
 * --exit-code, for git bisect run: 0 when every benchmark is the same or
 * better, 1 on a regression, 125 (skip) when one is undecided or the
 * experiment failed; a usage error 128 (bisect stops: the script is wrong).
 */
static int bisect_status(const struct pm_ab_exp *ab, int status)
{
	const char *name, *v;
	json_t *d;
	bool open = false;

	if (status == PM_EXIT_USAGE)
		return 128;
	if (status >= 128)
		return status;
	if (!ab->decided || !json_object_size(ab->decided))
		return 125;
	json_object_foreach(ab->decided, name, d) {
		v = json_string_value(json_object_get(d, "verdict"));
		if (v && !strcmp(v, "regression"))
			return 1;
		open |= !v || !strcmp(v, "unknown") || !strcmp(v, "changed");
	}
	return open || status != PM_EXIT_OK ? 125 : 0;
}

int cmd_ab(int argc, char **argv)
{
	struct pm_ab_exp ab = { .block = NULL };
	struct pm_err e;
	int err, status;

	err = pm_ab_parse_args(argc, argv, &ab.o, &e);
	if (err == 1) {
		pm_usage_print(&pm_ab_usage, stdout);
		return PM_EXIT_OK;
	}
	if (err == 2)
		return pm_show_manual("pmbench-ab");
	if (err) {
		status = pm_usage_error(&pm_ab_usage, "%s", e.msg);
		/* git bisect run stops on it: the script is wrong, not the commit */
		for (int i = 1; i < argc && strcmp(argv[i], "--"); i++)
			if (!strcmp(argv[i], "--exit-code"))
				return 128;
		return status;
	}
#ifndef __x86_64__
	if (!ab.o.local) {
		pm_error("ab: the guests run this pmbench binary under qemu-system-x86_64: "
			 "only x86-64 hosts are supported (--local works everywhere)");
		pm_ab_opts_free(&ab.o);
		return PM_EXIT_RUNTIME;
	}
#endif
	status = run_experiment(&ab);
	if (ab.o.exit_code)
		status = bisect_status(&ab, status);
	pm_ab_exp_free(&ab);
	return status;
}
