/* pmbench run: run benchmarks under counters (pmbench-run(1)). */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "bench/runner.h"
#include "cmd.h"
#include "counters/counters.h"
#include "results/anonymize.h"
#include "results/output.h"
#include "results/history.h"
#include "results/render.h"
#include "results/result.h"
#include "sysinfo/sysinfo.h"

static const char usage[] =
	"usage: pmbench run [-e EVENTS] [-o FILE] [--format table|json|csv] [--cpu N]\n"
	"                   [--placement same|spread|none] [--target-time MS] [--ci PCT]\n"
	"                   [--min-trials N] [--max-trials N] [--max-time SEC] [--rounds N]\n"
	"                   [--count-time MS] [--no-counters] [--no-profile] [-F HZ]\n"
	"                   [--call-graph fp|dwarf] [--vmlinux PATH] [--profile-time MS]\n"
	"                   [--instances LIST | --threads LIST] [--label TEXT]\n"
	"                   [--anonymize] [-v] [-q]\n"
	"                   [BENCH|GROUP...]\n"
	"\n"
	"  -e, --events LIST     events to count: aliases or libpfm4 strings, comma-separated\n"
	"                        (default: cycles,instructions,icache,branch-misses;\n"
	"                        none = software events only)\n"
	"  -o, --output FILE     write the result file (JSON; - = standard output;\n"
	"                        a FIFO or device is written into, a file replaced\n"
	"                        atomically)\n"
	"      --format FMT      what to print on stdout: table (default), json, csv\n"
	"      --cpu N           pin the benchmark process to CPU N\n"
	"      --placement P     where helper processes run: same (default), spread, none\n"
	"      --target-time MS  length of one trial (default 10)\n"
	"      --ci PCT          stop when the 95% CI of the median is within PCT (default 1)\n"
	"      --min-trials N    at least N trials (default 10)\n"
	"      --max-trials N    at most N trials (default 300)\n"
	"      --max-time SEC    time budget for the trials of one benchmark (default 2,\n"
	"                        1 for the quick suite)\n"
	"      --rounds N        take the trials in N rounds, each in a fresh process,\n"
	"                        interleaved across benchmarks (default 5; 1 = all in\n"
	"                        this process)\n"
	"      --count-time MS   length of the counted pass (default 100)\n"
	"      --no-counters     skip the counted pass\n"
	"      --no-profile      skip the sampled pass (kernel and user hotspots)\n"
	"  -F, --freq HZ         samples per second of CPU time (default 20000,\n"
	"                        4000 with --call-graph dwarf)\n"
	"      --call-graph M    user stacks: fp (frame pointers, default) or dwarf\n"
	"                        (stack copies unwound with libunwind)\n"
	"      --vmlinux PATH    kernel symbols from this vmlinux (default: debug\n"
	"                        locations, else /proc/kallsyms)\n"
	"      --profile-time MS length of the sampled pass (default 150)\n"
	"      --instances LIST  scaling: also run N copies at once as processes, for\n"
	"                        each N of LIST (e.g. 1,2,4): throughput and efficiency\n"
	"      --threads LIST    the same with threads\n"
	"      --label TEXT      a name for this run, kept in the result file\n"
	"      --anonymize       no host name, user names, home paths or command-line\n"
	"                        paths in the result (to mail it to a public list)\n"
	"  -v, --verbose         a detailed block per benchmark\n"
	"  -q, --quiet           print nothing on stdout (the result is kept all the same)\n"
	"\n"
	"BENCH is a benchmark name, GROUP a family, 'quick' or 'all' (default: quick).\n"
	"See 'pmbench list' and pmbench-run(1).\n";

enum {
	OPT_FORMAT = 256, OPT_CPU, OPT_PLACEMENT, OPT_TARGET, OPT_CI,
	OPT_MIN_TRIALS, OPT_MAX_TRIALS, OPT_MAX_TIME, OPT_COUNT_TIME,
	OPT_NO_COUNTERS, OPT_LABEL, OPT_NO_PROFILE, OPT_CALL_GRAPH,
	OPT_VMLINUX, OPT_PROFILE_TIME, OPT_INSTANCES, OPT_THREADS, OPT_ROUNDS,
	OPT_ANONYMIZE,
};

static const struct option long_options[] = {
	{ "events", required_argument, NULL, 'e' },
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "cpu", required_argument, NULL, OPT_CPU },
	{ "placement", required_argument, NULL, OPT_PLACEMENT },
	{ "target-time", required_argument, NULL, OPT_TARGET },
	{ "ci", required_argument, NULL, OPT_CI },
	{ "min-trials", required_argument, NULL, OPT_MIN_TRIALS },
	{ "max-trials", required_argument, NULL, OPT_MAX_TRIALS },
	{ "max-time", required_argument, NULL, OPT_MAX_TIME },
	{ "rounds", required_argument, NULL, OPT_ROUNDS },
	{ "count-time", required_argument, NULL, OPT_COUNT_TIME },
	{ "no-counters", no_argument, NULL, OPT_NO_COUNTERS },
	{ "no-profile", no_argument, NULL, OPT_NO_PROFILE },
	{ "freq", required_argument, NULL, 'F' },
	{ "call-graph", required_argument, NULL, OPT_CALL_GRAPH },
	{ "vmlinux", required_argument, NULL, OPT_VMLINUX },
	{ "profile-time", required_argument, NULL, OPT_PROFILE_TIME },
	{ "instances", required_argument, NULL, OPT_INSTANCES },
	{ "threads", required_argument, NULL, OPT_THREADS },
	{ "label", required_argument, NULL, OPT_LABEL },
	{ "anonymize", no_argument, NULL, OPT_ANONYMIZE },
	{ "verbose", no_argument, NULL, 'v' },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

/* ---- cleanup on signals ---- */

static char scratch_dir[4096];
static volatile sig_atomic_t signals_seen, first_signal;

static void on_signal(int sig)
{
	/* First signal: finish the current trial, save, exit.  Second:
	 * remove scratch and die now (peers die with us: PDEATHSIG). */
	if (signals_seen++ == 0) {
		first_signal = sig;
		pm_interrupted = 1;
		return;
	}
	if (scratch_dir[0])
		pm_rmtree(scratch_dir);
	signal(sig, SIG_DFL);
	raise(sig);
}

static void restore_signals(void)
{
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
}

/* ---- option parsing ---- */

static int parse_double(const char *opt, const char *s, double lo, double hi,
			double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(s, &end);
	if (errno || end == s || *end || !(v >= lo && v <= hi)) {
		pm_usage_error("run", usage, "%s: '%s' is not a number in [%g, %g]",
			       opt, s, lo, hi);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

static int parse_uint(const char *opt, const char *s, unsigned long lo,
		      unsigned long hi, unsigned long *out)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || v < lo || v > hi) {
		pm_usage_error("run", usage, "%s: '%s' is not a whole number in [%lu, %lu]",
			       opt, s, lo, hi);
		return -EINVAL;
	}
	*out = v;
	return 0;
}

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

		if (parse_uint(opt, v[i], 1, 1024, &u)) {
			pm_strv_free(v);
			return -EINVAL;
		}
		o->scale_n[i] = (unsigned)u;
	}
	pm_strv_free(v);
	if (err) {
		pm_usage_error("run", usage, "%s: '%s' is not a list of 1 to %zu counts",
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
			pm_error("unknown benchmark or group '%s' (see 'pmbench list')",
				 names[a]);
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
			v = pm_xrealloc(v, (count + 1) * sizeof(*v));
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
	return j;
}

static char *now_iso8601(void)
{
	char buf[64];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return pm_xstrdup(buf);
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

static int make_scratch(struct pm_err *e)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(scratch_dir, sizeof(scratch_dir), "%s/pmbench.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(scratch_dir)) {
		int err = -errno;

		pm_err_set(e, err, "cannot create a scratch directory %s: %s",
			   scratch_dir, strerror(errno));
		scratch_dir[0] = '\0';
		return err;
	}
	return 0;
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

int cmd_run(int argc, char **argv)
{
	const char *output = NULL, *format = "table", *events_spec = NULL;
	const struct pm_bench **benches = NULL;
	struct pm_events events = { 0 };
	struct pm_result result;
	struct pm_output out;
	struct pm_run_opts o;
	bool verbose = false, quiet = false, interrupted = false, failed = false;
	bool profile = true, max_time_given = false, format_given = false;
	bool anonymize = false, keep = false;
	struct pm_profile_opts popts = { .freq = 0 };
	struct pm_profiler *profiler = NULL;
	char *hello = NULL, *spawner = NULL, *label = NULL;
	size_t nbench = 0, i;
	unsigned rounds = PM_DEFAULT_ROUNDS;
	struct pm_err e;
	int c, err, status = PM_EXIT_OK;

	pm_run_opts_default(&o);
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":e:o:F:vqh", long_options, NULL)) != -1) {
		double d;
		unsigned long u;

		switch (c) {
		case 'e':
			if (!pm_list_valid(optarg, ','))
				return pm_usage_error("run", usage, "--events: '%s' has an empty "
					"event name (software events only: -e none)", optarg);
			events_spec = optarg;
			break;
		case 'o':
			output = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "table") && strcmp(optarg, "json") &&
			    strcmp(optarg, "csv"))
				return pm_usage_error("run", usage,
					"--format: '%s' is not one of table, json, csv", optarg);
			format = optarg;
			format_given = true;
			break;
		case OPT_CPU:
			if (parse_uint("--cpu", optarg, 0, CPU_SETSIZE - 1, &u))
				return PM_EXIT_USAGE;
			if (!cpu_allowed((int)u))
				return pm_usage_error("run", usage,
					"--cpu %lu: no such CPU available to this process", u);
			o.cpu = (int)u;
			break;
		case OPT_PLACEMENT:
			if (pm_placement_parse(optarg, &o.placement))
				return pm_usage_error("run", usage,
					"--placement: '%s' is not one of same, spread, none", optarg);
			break;
		case OPT_TARGET:
			if (parse_double("--target-time", optarg, 0.1, 10000, &d))
				return PM_EXIT_USAGE;
			o.target_ns = d * 1e6;
			break;
		case OPT_CI:
			if (parse_double("--ci", optarg, 0.01, 100, &d))
				return PM_EXIT_USAGE;
			o.ci_target = d / 100;
			break;
		case OPT_MIN_TRIALS:
			if (parse_uint("--min-trials", optarg, 1, 100000, &u))
				return PM_EXIT_USAGE;
			o.min_trials = (unsigned)u;
			break;
		case OPT_MAX_TRIALS:
			if (parse_uint("--max-trials", optarg, 1, 1000000, &u))
				return PM_EXIT_USAGE;
			o.max_trials = (unsigned)u;
			break;
		case OPT_MAX_TIME:
			if (parse_double("--max-time", optarg, 0, 86400, &d))
				return PM_EXIT_USAGE;
			o.max_time_s = d;
			max_time_given = true;
			break;
		case OPT_ROUNDS:
			if (parse_uint("--rounds", optarg, 1, 1000, &u))
				return PM_EXIT_USAGE;
			rounds = (unsigned)u;
			break;
		case OPT_COUNT_TIME:
			if (parse_double("--count-time", optarg, 0.1, 100000, &d))
				return PM_EXIT_USAGE;
			o.counted_ns = d * 1e6;
			break;
		case OPT_NO_COUNTERS:
			o.counters = false;
			break;
		case OPT_NO_PROFILE:
			profile = false;
			break;
		case 'F':
			if (parse_uint("--freq", optarg, 1, 1000000, &u))
				return PM_EXIT_USAGE;
			popts.freq = (unsigned)u;
			break;
		case OPT_CALL_GRAPH:
			if (strcmp(optarg, "fp") && strcmp(optarg, "dwarf"))
				return pm_usage_error("run", usage,
					"--call-graph: '%s' is not one of fp, dwarf", optarg);
			popts.dwarf = !strcmp(optarg, "dwarf");
#ifndef HAVE_LIBUNWIND
			if (popts.dwarf)
				return pm_usage_error("run", usage,
					"--call-graph dwarf: pmbench was built without libunwind");
#endif
			break;
		case OPT_VMLINUX:
			popts.vmlinux = optarg;
			break;
		case OPT_INSTANCES:
		case OPT_THREADS:
			if (o.nscale)
				return pm_usage_error("run", usage,
					"--instances and --threads: one scaling mode at a time");
			if (parse_scale(c == OPT_INSTANCES ? "--instances" : "--threads",
					optarg, &o))
				return PM_EXIT_USAGE;
			o.scale_mode = c == OPT_INSTANCES ? PM_SCALE_INSTANCES : PM_SCALE_THREADS;
			break;
		case OPT_PROFILE_TIME:
			if (parse_double("--profile-time", optarg, 1, 100000, &d))
				return PM_EXIT_USAGE;
			o.profile_ns = d * 1e6;
			break;
		case OPT_LABEL:
			label = optarg;
			break;
		case OPT_ANONYMIZE:
			anonymize = true;
			break;
		case 'v':
			verbose = true;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return PM_EXIT_OK;
		case 'H':
			return pm_show_manual("pmbench-run");
		case ':':
			return pm_usage_error("run", usage, "option '%s' needs a value",
					      argv[optind - 1]);
		default:
			return pm_usage_error("run", usage, "unknown option '%s'",
					      argv[optind - 1]);
		}
	}
	if (o.max_trials < o.min_trials)
		return pm_usage_error("run", usage, "--max-trials %u is below --min-trials %u",
				      o.max_trials, o.min_trials);
	/* "pmbench run" (argv[0]) or an implicit run ("pmbench fork"). */
	{
		static char *quick[] = { "quick" };
		char **names = optind < argc ? argv + optind : quick;
		int n = optind < argc ? argc - optind : 1;

		if (select_benches(names, n, &benches, &nbench))
			return PM_EXIT_USAGE;
		/* the quick suite keeps to its name: a shorter budget each */
		if (n == 1 && !strcmp(names[0], "quick") && !max_time_given)
			o.max_time_s = 1;
	}
	/* refused before the run, not after it (pmbench-run(1), RESULT FILE) */
	if (pm_output_open(&out, output, &e)) {
		pm_error("-o %s", e.msg);
		pm_output_free(&out);
		free(benches);
		return PM_EXIT_USAGE;
	}
	if (pm_output_is_stdout(&out) && format_given && strcmp(format, "json")) {
		pm_output_free(&out);
		free(benches);
		return pm_usage_error("run", usage, "-o - writes the result file to "
				      "standard output: --format %s cannot go there too", format);
	}
	if (!output) {
		/* checked now, not after the benchmarks ran */
		char *dir;

		keep = pm_history_prepare(&dir, &e) == 0;
		if (!keep)
			pm_warn("the result will not be kept: %s (use -o FILE)", e.msg);
		free(dir);
	}
	if (pm_cli_events(events_spec, o.counters, &events)) {
		pm_output_free(&out);
		free(benches);
		pm_events_free(&events);
		return PM_EXIT_USAGE;
	}
	if (profile) {
		/* stack copies are 8 KiB a sample: sample dwarf less often */
		if (!popts.freq)
			popts.freq = popts.dwarf ? 4000 : 20000;
		if (pm_profiler_new(&profiler, &popts, &e)) {
			pm_error("%s", e.msg);
			pm_output_free(&out);
			free(benches);
			pm_events_free(&events);
			return PM_EXIT_USAGE;
		}
		o.profiler = profiler;
	}
	if (make_scratch(&e)) {
		pm_error("%s", e.msg);
		pm_output_free(&out);
		free(benches);
		pm_events_free(&events);
		return PM_EXIT_RUNTIME;
	}
	hello = find_helper("pmbench-hello");
	spawner = find_helper("pmbench-spawner");
	pm_catch_stop_signals(on_signal);

	o.events = &events;
	o.scratch = scratch_dir;
	o.hello = hello;
	o.spawner = spawner;
	o.progress = pm_stderr_is_tty() && !quiet;

	pm_result_init(&result);
	result.source = pm_xstrdup("run");
	result.created = now_iso8601();
	result.version = pm_xstrdup(PACKAGE_VERSION);
	result.label = pm_xstrdup(label);
	result.command = json_array();
	for (i = 0; i < (size_t)pm_argc; i++)
		json_array_append_new(result.command, json_string(pm_argv[i]));
	result.options = options_json(&o, &events, &popts, rounds);
	result.sysinfo = pm_sysinfo_collect();
	o.run_start_ns = pm_now_ns();

	if (rounds > 1) {
		if (run_in_rounds(benches, nbench, &o, rounds, &result)) {
			status = PM_EXIT_RUNTIME;
			goto done;
		}
		interrupted = pm_interrupted;
		for (i = 0; i < result.nbench; i++)
			if (result.bench[i].status == PM_BENCH_FAILED)
				failed = true;
	} else {
		for (i = 0; i < nbench; i++) {
			struct pm_bench_result *br = pm_result_add(&result);

			if (o.progress)
				fprintf(stderr, "[%zu/%zu]", i + 1, nbench);
			err = pm_run_bench(benches[i], &o, br, &e);
			if (br->status == PM_BENCH_FAILED && !pm_interrupted)
				failed = true;
			if (err == -EINTR || pm_interrupted) {
				/* Keep only what finished. */
				if (br->status != PM_BENCH_OK) {
					pm_bench_result_free(br);
					result.nbench--;
				}
				interrupted = true;
				break;
			}
		}
	}
	/* Said once: what the hotspots lack and how to get it. */
	if (profiler && pm_profiler_kernel_unavailable(profiler) && !quiet)
		pm_warn("no kernel hotspots: %s", pm_profiler_kernel_unavailable(profiler));
	if (interrupted) {
		json_object_set_new(result.options, "interrupted", json_true());
		json_object_set_new(result.options, "benchmarks_requested",
				    json_integer((json_int_t)nbench));
		pm_error("interrupted: %zu of %zu benchmarks done", result.nbench, nbench);
	}

	if (anonymize)
		pm_anonymize_result(&result);
	/* with -o - standard output carries the result file only */
	if (!quiet && !pm_output_is_stdout(&out)) {
		if (!strcmp(format, "json"))
			pm_result_dump(&result, stdout);
		else if (!strcmp(format, "csv")) {
			pm_render_csv_header(stdout);
			pm_render_csv(&result, stdout);
		}
		else
			pm_render_text(&result, stdout, verbose ? PM_RENDER_DETAIL : 0);
		fflush(stdout);
	}
	if (output) {
		/* a failed write keeps the results elsewhere; e says where */
		err = pm_output_write_result(&out, &result, &e);
		if (err) {
			pm_error("%s", e.msg);
			status = PM_EXIT_RUNTIME;
		} else if (!quiet && strcmp(format, "json") && !pm_output_is_stdout(&out)) {
			fprintf(stderr, "pmbench: results written to %s\n", output);
		}
	}
	if (keep && result.nbench) {
		/* no -o: the result history keeps it (pmbench-log(1)) */
		char *kept;

		err = pm_history_save(&result, &kept, &e);
		if (err) {
			pm_error("the result was not kept: %s (use -o FILE)", e.msg);
			status = PM_EXIT_RUNTIME;
		} else if (!quiet && strcmp(format, "json")) {
			fprintf(stderr, "pmbench: result kept as @latest: %s\n", kept);
		}
		free(kept);
	}
	if (failed && status == PM_EXIT_OK)
		status = PM_EXIT_RUNTIME;
	if (interrupted)
		status = 128 + (first_signal ? first_signal : SIGINT);

done:
	pm_rmtree(scratch_dir);
	scratch_dir[0] = '\0';
	restore_signals();
	pm_result_free(&result);
	pm_output_free(&out);
	pm_events_free(&events);
	pm_profiler_free(profiler);
	free(benches);
	free(hello);
	free(spawner);
	return status;
}
