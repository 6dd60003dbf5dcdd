/* pmbench run: run benchmarks under counters (pmbench-run(1)). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/marker.h"
#include "bench/runner.h"
#include "cmd.h"
#include "counters/counters.h"
#include "results/anonymize.h"
#include "results/history.h"
#include "results/output.h"
#include "results/result.h"
#include "sysinfo/sysinfo.h"
#include "views/render.h"

enum {
	OPT_CPU = PM_OPT_LONG, OPT_PLACEMENT, OPT_TARGET, OPT_CI, OPT_MIN_TRIALS,
	OPT_MAX_TRIALS, OPT_MAX_TIME, OPT_COUNT_TIME, OPT_PROFILE_TIME,
	OPT_INSTANCES, OPT_THREADS, OPT_ROUNDS, OPT_ANONYMIZE, OPT_MAX_ROUNDS,
};

static const struct pm_option options[] = {
	PM_OPT_INCLUDE(pm_cli_measure_options),
	PM_OPT(OPT_CPU, "cpu", "N", "pin the benchmark process to CPU N"),
	PM_OPT(OPT_PLACEMENT, "placement", "P",
	       "where helper processes run: same (default), spread, none",
	       .values = "same|spread|none"),
	PM_OPT(OPT_TARGET, "target-time", "MS", "length of one trial (default 10)"),
	PM_OPT(OPT_CI, "ci", "PCT",
	       "stop when the figure's 99% interval is within PCT (default 1)"),
	PM_OPT(OPT_MIN_TRIALS, "min-trials", "N", "at least N trials (default 10)"),
	PM_OPT(OPT_MAX_TRIALS, "max-trials", "N", "at most N trials (default 300)"),
	PM_OPT(OPT_MAX_TIME, "max-time", "SEC",
	       "time budget for the trials of one benchmark (default 2, 1 for the quick "
	       "suite)"),
	PM_OPT(OPT_ROUNDS, "rounds", "N",
	       "take the trials in N rounds, each in a fresh process, interleaved across "
	       "benchmarks (default 5; 1 = all in this process)"),
	PM_OPT(OPT_MAX_ROUNDS, "max-rounds", "N",
	       "up to N rounds in all: the extra ones go to the benchmarks whose rounds "
	       "disagree, within the time budget (default 4 times --rounds)"),
	PM_OPT(OPT_COUNT_TIME, "count-time", "MS", "length of the counted pass (default 100)"),
	PM_OPT(OPT_PROFILE_TIME, "profile-time", "MS",
	       "length of the sampled pass (default 150)"),
	PM_OPT(OPT_INSTANCES, "instances", "LIST",
	       "scaling: also run N copies at once as processes, for each N of LIST "
	       "(e.g. 1,2,4): throughput and efficiency",
	       .flags = PM_OPT_OR_NEXT),
	PM_OPT(OPT_THREADS, "threads", "LIST", "the same with threads"),
	PM_OPT(OPT_ANONYMIZE, "anonymize", NULL,
	       "no host name, user names, home paths or command-line paths in the result "
	       "(to mail it to a public list)"),
	PM_OPT('v', "verbose", NULL, "a detailed block per benchmark"),
	PM_OPT('q', "quiet", NULL,
	       "print nothing on stdout (the result is kept all the same)"),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "run", .operands = "[BENCH|GROUP...]", .options = options,
	.text = "BENCH is a benchmark name, GROUP a family, 'quick' or 'all' (default: quick).\n"
		"See 'pmbench list' and pmbench-run(1).\n",
};

/* ---- option parsing ---- */

/* "1,2,4": copies for the scaling points, each 1..1024, at most 16. */
static int parse_scale(const char *opt, const char *s, struct pm_run_opts *o)
{
	char **v = pm_strv_split(s, ',');
	size_t i, n = pm_strv_len(v);
	int err = 0;

	if (!n || n > PM_ARRAY_SIZE(o->scale_n) || !pm_list_valid(s, ','))
		err = -EINVAL;
	for (i = 0; i < n && !err; i++) {
		unsigned long u;

		if (pm_cli_uint(&usage, opt, v[i], 1, 1024, &u)) {
			pm_strv_free(v);
			return -EINVAL;
		}
		o->scale_n[i] = (unsigned)u;
	}
	pm_strv_free(v);
	if (err) {
		pm_usage_error(&usage, "%s: '%s' is not a list of 1 to %zu counts",
			       opt, s, PM_ARRAY_SIZE(o->scale_n));
		return err;
	}
	o->nscale = n;
	return 0;
}

/* Benchmarks named on the command line, groups expanded, in order. */
static int select_benches(char **names, int n, const struct pm_bench ***out,
			  size_t *nout)
{
	const struct pm_bench **v = NULL, *b;
	size_t count = 0, i, k;
	int a;

	for (a = 0; a < n; a++) {
		const struct pm_bench *one = pm_bench_find(names[a]);

		if (!one && !pm_group_exists(names[a])) {
			free(v);
			pm_error_unknown_bench(names[a]);
			return -EINVAL;
		}
		for (i = 0; (b = pm_bench_at(i)); i++) {
			bool dup = false;

			if (one ? b != one : !pm_bench_in_group(b, names[a]))
				continue;
			for (k = 0; k < count; k++)
				if (v[k] == b)
					dup = true;
			if (dup)
				continue;
			v = pm_xgrow(v, count, sizeof(*v));
			v[count++] = b;
		}
	}
	*out = v;
	*nout = count;
	return 0;
}

static json_t *options_json(const struct pm_run_opts *o, const struct pm_events *ev,
			    const struct pm_profile_opts *po, unsigned rounds)
{
	json_t *events = json_array(), *j;
	size_t i;

	for (i = 0; ev && i < ev->n; i++)
		json_array_append_new(events, json_string(ev->v[i].name));
	j = json_pack("{s:b,s:i,s:s,s:o,s:f}",
		      "profile", o->profiler != NULL, "freq", (int)po->freq,
		      "call_graph", po->dwarf ? "dwarf" : "fp",
		      "vmlinux", po->vmlinux ? json_string(po->vmlinux) : json_null(),
		      "profile_time_ms", o->profile_ns / 1e6);
	if (o->nscale) {
		json_t *ns = json_array();

		for (i = 0; i < o->nscale; i++)
			json_array_append_new(ns, json_integer(o->scale_n[i]));
		json_object_set_new(j, "scaling", json_pack("{s:s,s:o}", "mode",
			o->scale_mode == PM_SCALE_THREADS ? "threads" : "instances", "n", ns));
	}
	json_object_update_new(j, json_pack("{s:f,s:f,s:f,s:i,s:i,s:f,s:f,s:i,s:s,s:b,s:o}",
			 "target_time_ms", o->target_ns / 1e6,
			 "ci_target", o->ci_target,
			 "ci_level", o->ci_level,
			 "min_trials", (int)o->min_trials,
			 "max_trials", (int)o->max_trials,
			 "max_time_s", o->max_time_s,
			 "count_time_ms", o->counted_ns / 1e6,
			 "cpu", o->cpu,
			 "placement", pm_placement_name(o->placement),
			 "counters", o->counters,
			 "events", events));
	json_object_set_new(j, "rounds", json_integer(rounds));
	json_object_set_new(j, "max_rounds", json_integer(o->max_rounds));
	return j;
}

/* The small programs some benchmarks start; NULL when missing (those
 * benchmarks then say so). */
static char *find_helper(const char *name)
{
	char *p = pm_xasprintf("%s/%s", pm_libexecdir(), name);

	if (access(p, X_OK) == 0)
		return p;
	free(p);
	return NULL;
}

static bool cpu_allowed(int cpu)
{
	cpu_set_t set;

	if (cpu < 0 || cpu >= CPU_SETSIZE || sched_getaffinity(0, sizeof(set), &set))
		return false;
	return CPU_ISSET(cpu, &set);
}

/*
 * The trials in rounds, each in a fresh process (pm_run_rounds), then
 * the counted and sampled passes here.  What an interruption leaves
 * unfinished is dropped: a benchmark with no round done, and the passes.
 */
static int run_in_rounds(const struct pm_bench **benches, size_t n,
			 const struct pm_run_opts *o, unsigned rounds,
			 struct pm_result *result)
{
	struct pm_err e = { 0 };
	size_t i, k;
	int err;

	for (i = 0; i < n; i++)
		pm_result_add(result);
	err = pm_run_rounds(benches, n, o, rounds, result->bench, &e);
	if (err && err != -EINTR) {
		pm_error("%s", e.msg);
		return err;
	}
	for (i = 0; i < n && !pm_interrupted; i++) {
		if (o->progress)
			fprintf(stderr, "\r\033[K[passes %zu/%zu]", i + 1, n);
		pm_run_bench_passes(benches[i], o, &result->bench[i], &e);
	}
	/* keep only benchmarks with at least one round */
	for (i = 0, k = 0; i < result->nbench; i++) {
		struct pm_bench_result *b = &result->bench[i];

		if (!b->name || (pm_interrupted && b->status != PM_BENCH_OK)) {
			pm_bench_result_free(b);
			continue;
		}
		if (k != i)
			result->bench[k] = *b;
		k++;
	}
	result->nbench = k;
	return 0;
}

/*
 * cmd_run in named steps (as perf's record__*): parse the options, pick
 * the benchmarks, prepare what the run writes and samples with, run,
 * then print, write and keep the result.  Each step returns RUN_GO to go
 * on or the exit status to stop with.
 */
#define RUN_GO		(-1)
#define RUN_OTHER	(-2)	/* not an option this parser knows */

struct run_cmd {
	struct pm_cli_measure m;	/* -e, -o, --format, -F, ... */
	const struct pm_bench **benches;
	size_t nbench;
	struct pm_events events;
	struct pm_result result;
	struct pm_output out;
	struct pm_run_opts o;
	struct pm_profiler *profiler;
	char *hello, *spawner;
	unsigned rounds;
	bool verbose, quiet, interrupted, failed;
	bool max_time_given, anonymize, keep;
};

/* The options that shape the trials and the passes. */
static int run__trial_option(struct run_cmd *r, int c, const char *arg)
{
	struct pm_run_opts *o = &r->o;
	double d;
	unsigned long u;

	switch (c) {
	case OPT_CPU:
		if (pm_cli_uint(&usage, "--cpu", arg, 0, CPU_SETSIZE - 1, &u))
			return PM_EXIT_USAGE;
		if (!cpu_allowed((int)u))
			return pm_usage_error(&usage,
				"--cpu %lu: no such CPU available to this process", u);
		o->cpu = (int)u;
		break;
	case OPT_PLACEMENT:
		if (pm_placement_parse(arg, &o->placement))
			return pm_usage_error(&usage,
				"--placement: '%s' is not one of same, spread, none", arg);
		break;
	case OPT_TARGET:
		if (pm_cli_double(&usage, "--target-time", arg, 0.1, 10000, &d))
			return PM_EXIT_USAGE;
		o->target_ns = d * 1e6;
		break;
	case OPT_CI:
		if (pm_cli_double(&usage, "--ci", arg, 0.01, 100, &d))
			return PM_EXIT_USAGE;
		o->ci_target = d / 100;
		break;
	case OPT_MIN_TRIALS:
		if (pm_cli_uint(&usage, "--min-trials", arg, 1, 100000, &u))
			return PM_EXIT_USAGE;
		o->min_trials = (unsigned)u;
		break;
	case OPT_MAX_TRIALS:
		if (pm_cli_uint(&usage, "--max-trials", arg, 1, 1000000, &u))
			return PM_EXIT_USAGE;
		o->max_trials = (unsigned)u;
		break;
	case OPT_MAX_TIME:
		if (pm_cli_double(&usage, "--max-time", arg, 0, 86400, &d))
			return PM_EXIT_USAGE;
		o->max_time_s = d;
		r->max_time_given = true;
		break;
	case OPT_ROUNDS:
		if (pm_cli_uint(&usage, "--rounds", arg, 1, 1000, &u))
			return PM_EXIT_USAGE;
		r->rounds = (unsigned)u;
		break;
	case OPT_MAX_ROUNDS:
		if (pm_cli_uint(&usage, "--max-rounds", arg, 1, 4000, &u))
			return PM_EXIT_USAGE;
		r->o.max_rounds = (unsigned)u;
		break;
	case OPT_COUNT_TIME:
		if (pm_cli_double(&usage, "--count-time", arg, 0.1, 100000, &d))
			return PM_EXIT_USAGE;
		o->counted_ns = d * 1e6;
		break;
	case OPT_PROFILE_TIME:
		if (pm_cli_double(&usage, "--profile-time", arg, 1, 100000, &d))
			return PM_EXIT_USAGE;
		o->profile_ns = d * 1e6;
		break;
	case OPT_INSTANCES:
	case OPT_THREADS:
		if (o->nscale)
			return pm_usage_error(&usage,
				"--instances and --threads: one scaling mode at a time");
		if (parse_scale(c == OPT_INSTANCES ? "--instances" : "--threads", arg, o))
			return PM_EXIT_USAGE;
		o->scale_mode = c == OPT_INSTANCES ? PM_SCALE_INSTANCES : PM_SCALE_THREADS;
		break;
	default:
		return RUN_OTHER;
	}
	return RUN_GO;
}

/* The options that choose what is counted, sampled and printed. */
static int run__output_option(struct run_cmd *r, int c, const char *arg)
{
	int st = pm_cli_measure_option(&usage, &r->m, c, arg);

	if (st != 1)
		return st ? st : RUN_GO;
	switch (c) {
	case OPT_ANONYMIZE:
		r->anonymize = true;
		break;
	case 'v':
		r->verbose = true;
		break;
	case 'q':
		r->quiet = true;
		break;
	default:
		return RUN_OTHER;
	}
	return RUN_GO;
}

static int run__parse_args(struct run_cmd *r, int argc, char **argv)
{
	struct pm_opts p;
	int c, st;

	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		st = run__trial_option(r, c, optarg);
		if (st == RUN_OTHER)
			st = run__output_option(r, c, optarg);
		if (st != RUN_OTHER) {
			if (st != RUN_GO)
				return st;
			continue;
		}
		return pm_cli_end_option(&p, c);
	}
	if (r->o.max_trials < r->o.min_trials)
		return pm_usage_error(&usage, "--max-trials %u is below --min-trials %u",
				      r->o.max_trials, r->o.min_trials);
	if (!r->o.max_rounds)
		r->o.max_rounds = 4 * r->rounds;
	else if (r->o.max_rounds < r->rounds)
		return pm_usage_error(&usage, "--max-rounds %u is below --rounds %u",
				      r->o.max_rounds, r->rounds);
	return RUN_GO;
}

/* "pmbench run" (argv[0]) or an implicit run ("pmbench fork"). */
static int run__select(struct run_cmd *r, int argc, char **argv)
{
	static char *quick[] = { "quick" };
	char **names = optind < argc ? argv + optind : quick;
	int n = optind < argc ? argc - optind : 1;

	if (select_benches(names, n, &r->benches, &r->nbench))
		return PM_EXIT_USAGE;
	/* the quick suite keeps to its name: a shorter budget each */
	if (n == 1 && !strcmp(names[0], "quick") && !r->max_time_given)
		r->o.max_time_s = 1;
	return RUN_GO;
}

/* Everything refused before the run, not after it (pmbench-run(1), RESULT FILE). */
static int run__prepare(struct run_cmd *r)
{
	struct pm_err e;

	if (pm_output_open(&r->out, r->m.output, &e)) {
		pm_error("-o %s", e.msg);
		return PM_EXIT_USAGE;
	}
	if (pm_output_is_stdout(&r->out) && r->m.format_given && strcmp(r->m.format, "json"))
		return pm_usage_error(&usage, "-o - writes the result file to "
				      "standard output: --format %s cannot go there too",
				      r->m.format);
	if (!r->m.output) {
		/* checked now, not after the benchmarks ran */
		char *dir;

		r->keep = pm_history_prepare(&dir, &e) == 0;
		if (!r->keep)
			pm_warn("the result will not be kept: %s (use -o FILE)", e.msg);
		free(dir);
	}
	r->o.counters = r->m.counters;
	if (pm_cli_events(r->m.events_spec, r->o.counters, &r->events))
		return PM_EXIT_USAGE;
	if (r->m.profile) {
		/* stack copies are 8 KiB a sample: sample dwarf less often */
		if (!r->m.popts.freq)
			r->m.popts.freq = r->m.popts.dwarf ? 4000 : 20000;
		if (pm_profiler_new(&r->profiler, &r->m.popts, &e)) {
			pm_error("%s", e.msg);
			return PM_EXIT_USAGE;
		}
		r->o.profiler = r->profiler;
	}
	r->o.scratch = pm_cmd_scratch(&e);
	if (!r->o.scratch) {
		pm_error("%s", e.msg);
		return PM_EXIT_RUNTIME;
	}
	return RUN_GO;
}

/* The result's header: what ran, when, how, and on what machine. */
static void run__start_result(struct run_cmd *r)
{
	struct pm_result *res = &r->result;
	json_t *markers;
	size_t i;

	r->hello = find_helper("pmbench-hello");
	r->spawner = find_helper("pmbench-spawner");

	r->o.events = &r->events;
	r->o.hello = r->hello;
	r->o.spawner = r->spawner;
	r->o.progress = pm_stderr_is_tty() && !r->quiet;

	res->source = pm_xstrdup("run");
	res->created = pm_fmt_now(PM_TIME_RESULT, true);
	res->version = pm_xstrdup(PACKAGE_VERSION);
	res->label = pm_xstrdup(r->m.label);
	res->command = json_array();
	for (i = 0; i < (size_t)pm_argc; i++)
		json_array_append_new(res->command, json_string(pm_argv[i]));
	res->options = options_json(&r->o, &r->events, &r->m.popts, r->rounds);
	/* in a guest of pmbench ab: what its plugin needs to read the marks */
	markers = pm_markers_json(r->benches, r->nbench);
	if (markers)
		json_object_set_new(res->options, "markers", markers);
	res->sysinfo = pm_sysinfo_collect();
	r->o.run_start_ns = pm_now_ns();
}

/* One benchmark after another in this process; stops at an interruption. */
static void run__benches_inline(struct run_cmd *r)
{
	struct pm_err e;
	size_t i;
	int err;

	for (i = 0; i < r->nbench; i++) {
		struct pm_bench_result *br = pm_result_add(&r->result);

		if (r->o.progress)
			fprintf(stderr, "[%zu/%zu]", i + 1, r->nbench);
		err = pm_run_bench(r->benches[i], &r->o, br, &e);
		if (br->status == PM_BENCH_FAILED && !pm_interrupted)
			r->failed = true;
		if (err == -EINTR || pm_interrupted) {
			/* Keep only what finished. */
			if (br->status != PM_BENCH_OK) {
				pm_bench_result_free(br);
				r->result.nbench--;
			}
			r->interrupted = true;
			break;
		}
	}
}

static int run__benches(struct run_cmd *r)
{
	size_t i;

	if (r->rounds <= 1) {
		run__benches_inline(r);
		return RUN_GO;
	}
	if (run_in_rounds(r->benches, r->nbench, &r->o, r->rounds, &r->result))
		return PM_EXIT_RUNTIME;
	r->interrupted = pm_interrupted;
	for (i = 0; i < r->result.nbench; i++)
		if (r->result.bench[i].status == PM_BENCH_FAILED)
			r->failed = true;
	return RUN_GO;
}

/* What the run lacked, then the result on standard output. */
static void run__print(struct run_cmd *r)
{
	struct pm_result *res = &r->result;

	/* Said once: what the hotspots lack and how to get it. */
	if (r->profiler && pm_profiler_kernel_unavailable(r->profiler) && !r->quiet)
		pm_warn("no kernel hotspots: %s", pm_profiler_kernel_unavailable(r->profiler));
	if (r->interrupted) {
		json_object_set_new(res->options, "interrupted", json_true());
		json_object_set_new(res->options, "benchmarks_requested",
				    json_integer((json_int_t)r->nbench));
		pm_error("interrupted: %zu of %zu benchmarks done", res->nbench, r->nbench);
	}
	if (r->anonymize)
		pm_anonymize_result(res);
	/* with -o - standard output carries the result file only */
	if (r->quiet || pm_output_is_stdout(&r->out))
		return;
	if (!strcmp(r->m.format, "json")) {
		pm_result_dump(res, stdout);
	} else if (!strcmp(r->m.format, "csv")) {
		pm_render_csv_header(stdout);
		pm_render_csv(res, stdout);
	} else {
		pm_render_text(res, stdout, r->verbose ? PM_RENDER_DETAIL : 0);
	}
	fflush(stdout);
}

/* The result file (-o), else the result history; a failure is an error. */
static int run__save(struct run_cmd *r)
{
	bool json = !strcmp(r->m.format, "json");
	struct pm_err e;
	int status = PM_EXIT_OK;

	pm_cli_kernel_sources(&r->result, NULL);
	/* a failed write keeps the results elsewhere; e says where */
	if (r->m.output) {
		if (pm_output_write_result(&r->out, &r->result, &e)) {
			pm_error("%s", e.msg);
			status = PM_EXIT_RUNTIME;
		} else if (!r->quiet && !json && !pm_output_is_stdout(&r->out)) {
			fprintf(stderr, "pmbench: results written to %s\n", r->m.output);
		}
	}
	if (r->keep && r->result.nbench) {
		/* no -o: the result history keeps it (pmbench-log(1)) */
		char *kept;

		if (pm_history_save(&r->result, &kept, &e)) {
			pm_error("the result was not kept: %s (use -o FILE)", e.msg);
			status = PM_EXIT_RUNTIME;
		} else if (!r->quiet && !json) {
			fprintf(stderr, "pmbench: result kept as @latest: %s\n", kept);
		}
		free(kept);
	}
	return status;
}

static void run__cleanup(struct run_cmd *r)
{
	pm_result_free(&r->result);
	pm_output_free(&r->out);
	pm_events_free(&r->events);
	pm_profiler_free(r->profiler);
	free(r->benches);
	free(r->hello);
	free(r->spawner);
}

int cmd_run(int argc, char **argv)
{
	struct run_cmd r = { .rounds = PM_DEFAULT_ROUNDS };
	int status;

	pm_cli_measure_init(&r.m);
	pm_run_opts_default(&r.o);
	pm_result_init(&r.result);
	status = run__parse_args(&r, argc, argv);
	if (status == RUN_GO)
		status = run__select(&r, argc, argv);
	if (status == RUN_GO)
		status = run__prepare(&r);
	if (status == RUN_GO) {
		run__start_result(&r);
		status = run__benches(&r);
	}
	if (status == RUN_GO) {
		run__print(&r);
		status = run__save(&r);
		if (r.failed && status == PM_EXIT_OK)
			status = PM_EXIT_RUNTIME;
		if (r.interrupted)
			status = pm_cmd_stop_status();
	}
	run__cleanup(&r);
	return status;
}
