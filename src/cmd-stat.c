/* pmbench stat: whole workloads, measured like benchmarks (pmbench-stat(1)). */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/runner.h"
#include "bench/workload.h"
#include "cmd.h"
#include "counters/counters.h"
#include "results/output.h"
#include "results/result.h"
#include "sysinfo/sysinfo.h"
#include "views/render.h"

enum {
	OPT_WARMUP = PM_OPT_LONG, OPT_PREPARE, OPT_CLEANUP, OPT_MIN_RUNS, OPT_MAX_RUNS,
	OPT_MAX_TIME, OPT_CI, OPT_IGNORE_FAILURE, OPT_SHOW_OUTPUT,
};

static const struct pm_option options[] = {
	PM_OPT('r', "runs", "N",
	       "exactly N timed runs of each command (default: until the interval is "
	       "within --ci, at least --min-runs, within --max-time)"),
	PM_OPT(OPT_WARMUP, "warmup", "N", "N untimed runs of each command first (default 0)"),
	PM_OPT(OPT_PREPARE, "prepare", "CMD",
	       "shell command run before every run of a command (untimed); once for all "
	       "commands, or once per command in order"),
	PM_OPT(OPT_CLEANUP, "cleanup", "CMD",
	       "shell command run after the last run of a command"),
	PM_OPT('n', "name", "NAME",
	       "the command's name in the result (default: the command); once per "
	       "command, in order"),
	PM_OPT(OPT_MIN_RUNS, "min-runs", "N", "at least N timed runs without -r (default 5)"),
	PM_OPT(OPT_MAX_RUNS, "max-runs", "N",
	       "at most N timed runs without -r (default 1000)"),
	PM_OPT(OPT_MAX_TIME, "max-time", "SEC",
	       "time budget for one command's timed runs (default 30)"),
	PM_OPT(OPT_CI, "ci", "PCT",
	       "stop when the 99% CI of the mean elapsed time is within PCT (default 1)"),
	PM_OPT(OPT_IGNORE_FAILURE, "ignore-failure", NULL,
	       "keep going when the command exits non-zero"),
	PM_OPT(OPT_SHOW_OUTPUT, "show-output", NULL,
	       "pass the command's output through (default: hidden, its standard error "
	       "shown when it fails)"),
	PM_OPT_INCLUDE(pm_cli_measure_options),
	PM_OPT_HELP(PM_OPT_NO_COUNTERS, "count nothing"),
	PM_OPT_HELP(PM_OPT_NO_PROFILE, "no sampled run (kernel and user hotspots)"),
	PM_OPT_HELP('F', "samples per second of CPU time in the sampled run (default "
		    "4000, 1000 with --call-graph dwarf)"),
	PM_OPT('q', "quiet", NULL, "print nothing on stdout (with -o)"),
	PM_OPT_END
};

/* '+': the first command word ends the options */
static const struct pm_usage usage = {
	.name = "stat", .operands = "-- CMD [ARGS...] [-- CMD [ARGS...]]...",
	.more = (const char *const[]){ "[OPTIONS] 'COMMAND' ['COMMAND'...]", NULL },
	.options = options, .flags = PM_USAGE_IN_ORDER,
	.text = "A command given as several words after '--' is executed as it is; one word with\n"
		"blanks or shell syntax runs under /bin/sh -c.  See pmbench-stat(1).\n",
};

/* ---- options ---- */

/* Repeated options (--prepare, --cleanup, -n): in order. */
struct strlist {
	const char **v;
	size_t n;
};

static void strlist_add(struct strlist *l, const char *s)
{
	l->v = pm_xgrow(l->v, l->n, sizeof(*l->v));
	l->v[l->n++] = s;
}

/* One for all commands, or one each: expanded to one per command. */
static int per_command(const char *opt, struct strlist *l, size_t n, const char ***out)
{
	size_t i;

	*out = NULL;
	if (!l->n)
		return 0;
	if (l->n != 1 && l->n != n) {
		pm_usage_error(&usage, "%s given %zu times for %zu commands: give it "
			       "once for all, or once per command", opt, l->n, n);
		return -EINVAL;
	}
	*out = pm_xcalloc(n, sizeof(**out));
	for (i = 0; i < n; i++)
		(*out)[i] = l->v[l->n == 1 ? 0 : i];
	return 0;
}

/*
 * The commands: with '--', each group of words between '--' is one
 * command; without, each argument is one (hyperfine's quoted commands).
 */
static int parse_commands(int argc, char **argv, int first, bool dashes,
			  const struct strlist *names, struct pm_command **out,
			  size_t *nout)
{
	struct pm_command *c = NULL;
	size_t n = 0, i, k;
	int a = first;

	while (a < argc) {
		int end = a;

		if (dashes)
			while (end < argc && strcmp(argv[end], "--"))
				end++;
		else
			end = a + 1;
		if (end == a) {
			a++;	/* "-- --": an empty group */
			continue;
		}
		if (!dashes && argv[a][0] == '-') {
			pm_usage_error(&usage, "'%s' is not a command: options go before "
				       "the commands; to run a command that starts with '-', "
				       "put '--' before it", argv[a]);
			goto fail;
		}
		if (!*argv[a]) {
			pm_usage_error(&usage, "an empty command");
			goto fail;
		}
		c = pm_xgrow(c, n, sizeof(*c));
		pm_command_init(&c[n], argv + a, (size_t)(end - a),
				n < names->n ? names->v[n] : NULL);
		n++;
		a = end + (dashes && end < argc);
	}
	if (!n) {
		pm_usage_error(&usage, "no command given");
		goto fail;
	}
	if (names->n > n) {
		pm_usage_error(&usage, "%zu names (-n) for %zu commands", names->n, n);
		goto fail;
	}
	/* names are unique within a result file */
	for (i = 0; i < n; i++) {
		unsigned dup = 1;

		for (k = 0; k < i; k++)
			if (!strcmp(c[k].name, c[i].name))
				dup++;
		if (dup > 1) {
			char *nm = pm_xasprintf("%s #%u", c[i].name, dup);

			free(c[i].name);
			c[i].name = nm;
		}
	}
	*out = c;
	*nout = n;
	return 0;
fail:
	for (i = 0; i < n; i++)
		pm_command_free(&c[i]);
	free(c);
	return -EINVAL;
}

static json_t *jstrs(const char *const *v, size_t n)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; v && i < n; i++)
		json_array_append_new(a, pm_json_text(v[i]));
	return a;
}

static json_t *options_json(const struct pm_stat_opts *o, const struct pm_events *ev,
			    const struct pm_profile_opts *po, size_t ncmd)
{
	json_t *events = json_array();
	size_t i;

	for (i = 0; ev && i < ev->n; i++)
		json_array_append_new(events, json_string(ev->v[i].name));
	return json_pack("{s:o,s:i,s:i,s:f,s:f,s:f,s:i,s:o,s:o,s:b,s:b,s:b,s:o,s:b,s:i,s:s,s:o}",
		"runs", o->runs ? json_integer(o->runs) : json_null(),
		"min_runs", (int)o->min_runs, "max_runs", (int)o->max_runs,
		"max_time_s", o->max_time_s, "ci_target", o->ci_target,
		"ci_level", o->ci_level, "warmup", (int)o->warmup,
		"prepare", jstrs(o->prepare, o->prepare ? ncmd : 0),
		"cleanup", jstrs(o->cleanup, o->cleanup ? ncmd : 0),
		"ignore_failure", o->ignore_failure, "show_output", o->show_output,
		"counters", ev && ev->n, "events", events,
		"profile", o->profiler != NULL, "freq", (int)po->freq,
		"call_graph", po->dwarf ? "dwarf" : "fp",
		"vmlinux", pm_json_text(po->vmlinux));
}

/* What failed, and the end of what it wrote on standard error. */
static void report_failure(const struct pm_bench_result *b)
{
	const json_t *f = json_object_get(b->workload, "failure");
	const char *tail = json_string_value(json_object_get(f, "stderr_tail"));
	const char *stage = json_string_value(json_object_get(f, "stage"));
	const char *line, *nl;

	if (b->status == PM_BENCH_FAILED)
		pm_error("'%s': %s%s", b->name, b->reason ? b->reason : "failed",
			 stage && strcmp(stage, "prepare") && !json_is_null(json_object_get(f, "exit_status")) ?
			 " (--ignore-failure keeps going)" : "");
	else if (stage)
		pm_error("'%s': --cleanup '%s' failed: %s", b->name,
			 json_string_value(json_object_get(f, "command")),
			 json_string_value(json_object_get(f, "status")));
	if (!tail)
		return;
	fprintf(stderr, "  its standard error ended with:\n");
	for (line = tail; *line; line = nl + 1) {
		nl = strchr(line, '\n');
		fprintf(stderr, "  | %.*s\n", (int)(nl ? nl - line : (long)strlen(line)), line);
		if (!nl)
			break;
	}
}
/*
 * cmd_stat in named steps (as perf's record__*); each returns STAT_GO
 * to go on or the exit status to stop with.
 */
#define STAT_GO		(-1)
#define STAT_OTHER	(-2)	/* not an option this parser knows */

struct stat_cmd {
	struct pm_cli_measure m;	/* -e, -o, --format, -F, ... */
	struct strlist prepare, cleanup, names;
	const char **prep, **clean;
	struct pm_profiler *profiler;
	struct pm_events events;
	struct pm_command *cmds;
	size_t ncmd;
	struct pm_stat_opts o;
	struct pm_result result;
	struct pm_output out;		/* -o, opened before anything runs */
	bool quiet, failed, interrupted;
};

/* The options that shape the runs. */
static int stat__run_option(struct stat_cmd *s, int c, const char *arg)
{
	struct pm_stat_opts *o = &s->o;
	unsigned long u;
	double d;

	switch (c) {
	case 'r':
		if (pm_cli_uint(&usage, "--runs", arg, 1, 1000000, &u))
			return PM_EXIT_USAGE;
		o->runs = (unsigned)u;
		break;
	case OPT_WARMUP:
		if (pm_cli_uint(&usage, "--warmup", arg, 0, 1000000, &u))
			return PM_EXIT_USAGE;
		o->warmup = (unsigned)u;
		break;
	case OPT_PREPARE:
		strlist_add(&s->prepare, arg);
		break;
	case OPT_CLEANUP:
		strlist_add(&s->cleanup, arg);
		break;
	case 'n':
		if (!*arg)
			return pm_usage_error(&usage, "--name: an empty name");
		strlist_add(&s->names, arg);
		break;
	case OPT_MIN_RUNS:
		if (pm_cli_uint(&usage, "--min-runs", arg, 2, 1000000, &u))
			return PM_EXIT_USAGE;
		o->min_runs = (unsigned)u;
		break;
	case OPT_MAX_RUNS:
		if (pm_cli_uint(&usage, "--max-runs", arg, 2, 1000000, &u))
			return PM_EXIT_USAGE;
		o->max_runs = (unsigned)u;
		break;
	case OPT_MAX_TIME:
		if (pm_cli_double(&usage, "--max-time", arg, 0, 1e7, &d))
			return PM_EXIT_USAGE;
		o->max_time_s = d;
		break;
	case OPT_CI:
		if (pm_cli_double(&usage, "--ci", arg, 0.01, 100, &d))
			return PM_EXIT_USAGE;
		o->ci_target = d / 100;
		break;
	case OPT_IGNORE_FAILURE:
		o->ignore_failure = true;
		break;
	case OPT_SHOW_OUTPUT:
		o->show_output = true;
		break;
	default:
		return STAT_OTHER;
	}
	return STAT_GO;
}

/* The options that choose what is counted, sampled and printed. */
static int stat__output_option(struct stat_cmd *s, int c, const char *arg)
{
	int st = pm_cli_measure_option(&usage, &s->m, c, arg);

	if (st != 1)
		return st ? st : STAT_GO;
	if (c != 'q')
		return STAT_OTHER;
	s->quiet = true;
	return STAT_GO;
}

static int stat__parse_args(struct stat_cmd *s, int argc, char **argv)
{
	struct pm_opts p;
	int c, st;

	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		st = stat__run_option(s, c, optarg);
		if (st == STAT_OTHER)
			st = stat__output_option(s, c, optarg);
		if (st != STAT_OTHER) {
			if (st != STAT_GO)
				return PM_EXIT_USAGE;
			continue;
		}
		return pm_cli_end_option(&p, c);
	}
	if (!s->o.runs && s->o.max_runs < s->o.min_runs)
		return pm_usage_error(&usage, "--max-runs %u is below --min-runs %u",
				      s->o.max_runs, s->o.min_runs);
	return STAT_GO;
}

/* The commands and all the run refuses before it starts. */
static int stat__prepare(struct stat_cmd *s, int argc, char **argv)
{
	bool dashes = optind > 0 && optind <= argc && !strcmp(argv[optind - 1], "--");
	struct pm_err e = { 0 };

	if (parse_commands(argc, argv, optind, dashes, &s->names, &s->cmds, &s->ncmd))
		return PM_EXIT_USAGE;
	if (per_command("--prepare", &s->prepare, s->ncmd, &s->prep) ||
	    per_command("--cleanup", &s->cleanup, s->ncmd, &s->clean))
		return PM_EXIT_USAGE;
	/* run's -o: the same kinds of output, refused before anything runs */
	if (pm_output_open(&s->out, s->m.output, &e)) {
		pm_error("-o %s", e.msg);
		return PM_EXIT_USAGE;
	}
	if (pm_output_is_stdout(&s->out) && s->m.format_given && strcmp(s->m.format, "json"))
		return pm_usage_error(&usage, "-o - writes the result file to "
				      "standard output: --format %s cannot go there too",
				      s->m.format);
	if (pm_output_is_stdout(&s->out) && s->o.show_output)
		return pm_usage_error(&usage, "-o - writes the result file to "
				      "standard output: --show-output cannot go there too");
	if (pm_cli_events(s->m.events_spec, s->m.counters, &s->events))
		return PM_EXIT_USAGE;
	if (s->m.profile) {
		/* a whole workload makes many samples: perf record's rate */
		if (!s->m.popts.freq)
			s->m.popts.freq = s->m.popts.dwarf ? 1000 : 4000;
		if (pm_profiler_new(&s->profiler, &s->m.popts, &e)) {
			pm_error("%s", e.msg);
			return PM_EXIT_USAGE;
		}
	}
	s->o.scratch = pm_cmd_scratch(&e);
	if (!s->o.scratch) {
		pm_error("%s", e.msg);
		return PM_EXIT_RUNTIME;
	}
	return STAT_GO;
}

/* The result's header: what ran, when, how, and on what machine. */
static void stat__start_result(struct stat_cmd *s)
{
	struct pm_result *res = &s->result;
	size_t i;

	s->o.prepare = s->prep;
	s->o.cleanup = s->clean;
	s->o.events = &s->events;
	s->o.profiler = s->profiler;
	s->o.progress = pm_stderr_is_tty() && !s->quiet;

	res->source = pm_xstrdup("stat");
	res->created = pm_fmt_now(PM_TIME_RESULT, true);
	res->version = pm_xstrdup(PACKAGE_VERSION);
	res->label = pm_xstrdup(s->m.label);
	res->command = json_array();
	for (i = 0; i < (size_t)pm_argc; i++)
		json_array_append_new(res->command, pm_json_text(pm_argv[i]));
	res->options = options_json(&s->o, &s->events, &s->m.popts, s->ncmd);
	res->sysinfo = pm_sysinfo_collect();
	for (i = 0; i < s->ncmd; i++)
		pm_result_add(res);
	s->o.start_ns = pm_now_ns();
}

/* The runs; what has no run is dropped, unless it is what failed. */
static int stat__run(struct stat_cmd *s)
{
	struct pm_result *res = &s->result;
	struct pm_err e = { 0 };
	size_t i, k;
	int err;

	err = pm_stat_run(s->cmds, s->ncmd, &s->o, res->bench, &e);
	s->interrupted = err == -EINTR;
	if (err && !s->interrupted)
		pm_error("%s", e.msg);
	for (i = 0, k = 0; i < res->nbench; i++) {
		struct pm_bench_result *b = &res->bench[i];

		if (!b->ntrials && b->status == PM_BENCH_OK) {
			pm_bench_result_free(b);
			continue;
		}
		if (k != i)
			res->bench[k] = *b;
		k++;
	}
	res->nbench = k;
	return err && !s->interrupted ? PM_EXIT_RUNTIME : PM_EXIT_OK;
}

/* The result on standard output, then each failure and an interruption. */
static void stat__print(struct stat_cmd *s)
{
	struct pm_result *res = &s->result;
	size_t i;

	if (s->profiler && pm_profiler_kernel_unavailable(s->profiler) && !s->quiet)
		pm_warn("no kernel hotspots: %s", pm_profiler_kernel_unavailable(s->profiler));
	if (s->interrupted)
		json_object_set_new(res->options, "interrupted", json_true());
	/* with -o - standard output carries the result file only */
	if (!s->quiet && !pm_output_is_stdout(&s->out)) {
		if (!strcmp(s->m.format, "json")) {
			pm_result_dump(res, stdout);
		} else if (!strcmp(s->m.format, "csv")) {
			pm_render_csv_header(stdout);
			pm_render_csv(res, stdout);
		} else {
			pm_render_text(res, stdout, PM_RENDER_DETAIL);
			pm_render_workload_comparison(res, stdout);
		}
		fflush(stdout);
	}
	for (i = 0; i < res->nbench; i++) {
		if (res->bench[i].status == PM_BENCH_FAILED ||
		    json_object_get(res->bench[i].workload, "failure")) {
			report_failure(&res->bench[i]);
			s->failed = true;
		}
	}
	if (s->interrupted) {
		size_t runs = 0;

		for (i = 0; i < res->nbench; i++)
			runs += res->bench[i].ntrials;
		pm_error("interrupted: %zu run%s finished", runs, runs == 1 ? "" : "s");
	}
}

static int stat__save(struct stat_cmd *s)
{
	struct pm_err e = { 0 };

	if (!s->m.output)
		return PM_EXIT_OK;
	if (!s->result.nbench) {
		pm_error("nothing to write to %s: no run finished", s->m.output);
		return PM_EXIT_OK;
	}
	/* a failed write keeps the results elsewhere; e says where */
	if (pm_output_write_result(&s->out, &s->result, &e)) {
		pm_error("%s", e.msg);
		return PM_EXIT_RUNTIME;
	}
	if (!s->quiet && strcmp(s->m.format, "json") && !pm_output_is_stdout(&s->out))
		fprintf(stderr, "pmbench: results written to %s\n", s->m.output);
	return PM_EXIT_OK;
}

static void stat__cleanup(struct stat_cmd *s)
{
	size_t i;

	pm_result_free(&s->result);
	pm_output_free(&s->out);
	for (i = 0; i < s->ncmd; i++)
		pm_command_free(&s->cmds[i]);
	free(s->cmds);
	free(s->prep);
	free(s->clean);
	free(s->prepare.v);
	free(s->cleanup.v);
	free(s->names.v);
	pm_events_free(&s->events);
	pm_profiler_free(s->profiler);
}

int cmd_stat(int argc, char **argv)
{
	struct stat_cmd s = {
		.o = {
			.min_runs = 5,
			.max_runs = 1000,
			.max_time_s = 30,
			.ci_target = 0.01,
			.ci_level = PM_LEVEL,
		},
	};
	int status, saved;

	pm_cli_measure_init(&s.m);
	pm_result_init(&s.result);
	status = stat__parse_args(&s, argc, argv);
	if (status == STAT_GO)
		status = stat__prepare(&s, argc, argv);
	if (status == STAT_GO) {
		stat__start_result(&s);
		status = stat__run(&s);
		stat__print(&s);
		saved = stat__save(&s);
		if (status == PM_EXIT_OK)
			status = saved;
		if (s.failed && status == PM_EXIT_OK)
			status = PM_EXIT_RUNTIME;
		if (s.interrupted)
			status = pm_cmd_stop_status();
	}
	stat__cleanup(&s);
	return status;
}
