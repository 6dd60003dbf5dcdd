/* Result files: JSON round trip, atomic writes, rejection of bad files. */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/result.h"

static char dir[] = "/tmp/pmbench-unit.XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	pm_rmtree(dir);
	strcpy(dir, "/tmp/pmbench-unit.XXXXXX");
}

static void make_result(struct pm_result *r)
{
	struct pm_bench_result *b;
	struct pm_counter_value *v;
	static const double trials[] = { 101.5, 99.25, 100, 100.75, 98.5 };

	pm_result_init(r);
	r->source = pm_xstrdup("run");
	r->created = pm_xstrdup("2026-12-02T10:00:00Z");
	r->version = pm_xstrdup("0.1.0");
	r->label = pm_xstrdup("kernel-a");
	r->command = json_pack("[ss]", "pmbench", "null");
	r->options = json_pack("{s:f}", "target_time_ms", 10.0);
	r->sysinfo = json_pack("{s:s,s:{s:s}}", "hostname", "h",
			       "kernel", "release", "6.1.0");

	b = pm_result_add(r);
	b->name = pm_xstrdup("null");
	b->group = pm_xstrdup("proc");
	b->summary = pm_xstrdup("getppid() system call");
	b->unit = pm_xstrdup("us");
	b->lmbench = pm_xstrdup("proc: null call");
	b->status = PM_BENCH_OK;
	b->iterations = 46000;
	b->ops_per_iter = 1;
	b->overhead_ns = 0.5;
	b->cpu = 0;
	b->ntrials = 5;
	b->trials = pm_xmalloc(sizeof(trials));
	memcpy(b->trials, trials, sizeof(trials));
	pm_summarize(b->trials, b->ntrials, 0.95, &b->stats);
	b->converged = true;
	b->elapsed_s = 0.25;
	b->counters.done = true;
	b->counters.ops = 460000;
	b->counters.ns_per_op = 101;
	b->counters.perturbation = 1.01;
	b->counters.waited = 0.25;
	b->counters.processes = 1;
	b->counters.ru_user_ns = 20;
	b->counters.ru_sys_ns = 80;
	b->counters.n = 2;
	b->counters.v = pm_xcalloc(2, sizeof(*v));
	v = &b->counters.v[0];
	v->name = pm_xstrdup("cycles");
	v->event = pm_xstrdup("UNHALTED_CORE_CYCLES");
	v->status = PM_CV_OK;
	v->per_op = 400;
	v->user = 100;
	v->kernel = 300;
	v->running = 0.5;
	v = &b->counters.v[1];
	v->name = pm_xstrdup("icache");
	v->status = PM_CV_NOT_SUPPORTED;
	v->reason = pm_xstrdup("no hardware PMU");
	v->per_op = v->user = v->kernel = NAN;

	b = pm_result_add(r);
	b->name = pm_xstrdup("exec");
	b->unit = pm_xstrdup("us");
	b->status = PM_BENCH_UNSUPPORTED;
	b->reason = pm_xstrdup("pmbench-hello not found");
}

START_TEST(round_trip)
{
	struct pm_result r, back;
	const struct pm_bench_result *b;
	const struct pm_counter_value *v;
	char *path = pm_xasprintf("%s/r.json", dir);
	struct pm_err e;
	size_t i;

	make_result(&r);
	ck_assert_msg(pm_result_save(&r, path, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_result_load(&back, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(back.nbench, 2);
	ck_assert_str_eq(back.label, "kernel-a");
	ck_assert_str_eq(back.path, path);
	ck_assert_str_eq(json_string_value(json_object_get(
		json_object_get(back.sysinfo, "kernel"), "release")), "6.1.0");
	b = pm_result_find(&back, "null");
	ck_assert_ptr_nonnull(b);
	ck_assert_str_eq(b->lmbench, "proc: null call");
	ck_assert_uint_eq(b->ntrials, 5);
	for (i = 0; i < 5; i++)
		ck_assert_double_eq(b->trials[i], r.bench[0].trials[i]);
	ck_assert_double_eq(b->stats.median, 100);
	ck_assert_uint_eq(b->stats.n, 5);
	ck_assert(b->converged);
	ck_assert_uint_eq(b->iterations, 46000);
	ck_assert_int_eq(b->cpu, 0);
	ck_assert_double_eq_tol(b->counters.perturbation, 1.01, 1e-9);
	ck_assert_double_eq_tol(b->counters.waited, 0.25, 1e-9);
	v = pm_bench_result_counter(b, "cycles");
	ck_assert_int_eq(v->status, PM_CV_OK);
	ck_assert_double_eq(v->kernel, 300);
	ck_assert_double_eq(v->running, 0.5);
	v = pm_bench_result_counter(b, "icache");
	ck_assert_int_eq(v->status, PM_CV_NOT_SUPPORTED);
	ck_assert_str_eq(v->reason, "no hardware PMU");
	ck_assert(isnan(v->per_op));
	b = pm_result_find(&back, "exec");
	ck_assert_int_eq(b->status, PM_BENCH_UNSUPPORTED);
	ck_assert_str_eq(b->reason, "pmbench-hello not found");
	ck_assert_uint_eq(b->ntrials, 0);
	pm_result_free(&back);
	pm_result_free(&r);
	free(path);
}
END_TEST

static size_t count_entries(const char *d)
{
	DIR *dp = opendir(d);
	struct dirent *de;
	size_t n = 0;

	while ((de = readdir(dp)))
		if (de->d_name[0] != '.' || (de->d_name[1] && de->d_name[1] != '.'))
			n++;
	closedir(dp);
	return n;
}

/* Temp file + rename: only the final file remains; a failed write leaves
 * the old file intact. */
START_TEST(atomic_write)
{
	struct pm_result r;
	char *path = pm_xasprintf("%s/r.json", dir);
	char *bad = pm_xasprintf("%s/missing/r.json", dir);
	struct pm_err e;
	char *text;

	make_result(&r);
	ck_assert_int_eq(pm_result_save(&r, path, &e), 0);
	ck_assert_int_eq(pm_result_save(&r, path, &e), 0);
	ck_assert_uint_eq(count_entries(dir), 1);
	ck_assert_int_eq(pm_read_file(path, &text, NULL), 0);
	ck_assert_ptr_nonnull(strstr(text, "\"format\": \"pmbench-result\""));
	free(text);
	ck_assert_int_eq(pm_result_save(&r, bad, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, bad));
	ck_assert_uint_eq(count_entries(dir), 1);
	ck_assert_int_eq(pm_check_writable(bad, &e), -ENOENT);
	ck_assert_int_eq(pm_check_writable(path, &e), 0);
	ck_assert_int_eq(pm_check_writable(dir, &e), -EISDIR);
	pm_result_free(&r);
	free(path);
	free(bad);
}
END_TEST

struct bad_case {
	const char *json, *msg;
};

/* What a valid file has before its benchmarks. */
#define HEAD "{\"format\": \"pmbench-result\", \"schema\": 1, \"sysinfo\": {}, "

static const struct bad_case bad_cases[] = {
	{ HEAD "\"benchmarks\": [",
	  "not valid JSON" },
	{ "42", "$: expected a JSON object, found a number" },
	{ "{\"schema\": 1, \"benchmarks\": []}", "$.format: not a pmbench result file" },
	{ "{\"format\": \"pmbench-result\", \"benchmarks\": []}", "$.schema: missing" },
	{ "{\"format\": \"pmbench-result\", \"schema\": 0, \"benchmarks\": []}",
	  "$.schema: schema version 0, but this pmbench reads version 1" },
	{ "{\"format\": \"pmbench-result\", \"schema\": \"1\", \"benchmarks\": []}",
	  "$.schema: expected an integer, found a string" },
	{ HEAD "\"benchmarks\": {}}",
	  "$.benchmarks: expected an array, found an object" },
	{ HEAD "\"benchmarks\": [{\"unit\": \"us\", \"status\": \"ok\"}]}",
	  "$.benchmarks[0].name: missing" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"great\"}]}",
	  "$.benchmarks[0].status: unknown value \"great\"" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"stats\": {\"n\": 0, \"median_ns\": 1}}]}",
	  "$.benchmarks[0].trials_ns: a benchmark with status \"ok\" has no trials" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"params\": {\"cpu\": -5}}]}",
	  "$.benchmarks[0].params.cpu: -5 is out of range" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"counters\": {\"events\": [{\"name\": \"x\", \"status\": \"ok\", \"per_op\": -1}]}}]}",
	  "$.benchmarks[0].counters.events[0].per_op: -1 is not a number >= 0" },
	{ "{\"format\": \"pmbench-result\", \"schema\": 1, \"format\": \"x\", \"benchmarks\": []}",
	  "duplicate object key" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1, 2, 3], \"stats\": {\"n\": 3, \"median_ns\": 2, \"converged\": true}, \"rounds\": [{\"trials\": 2}]}]}",
	  "$.benchmarks[0].rounds: the rounds hold 2 trials, but trials_ns holds 3" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1, 2, 3], \"stats\": {\"n\": 3, \"median_ns\": 2, \"converged\": true}, \"rounds\": [{\"trials\": 2}, {\"trials\": 2}]}]}",
	  "$.benchmarks[0].rounds[1].trials: the rounds hold more trials than trials_ns (3)" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1], \"stats\": {\"n\": 1, \"median_ns\": 1, \"converged\": true}, \"rounds\": [{\"trials\": 0}]}]}",
	  "$.benchmarks[0].rounds[0].trials: 0 is not an integer >= 1" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1], \"stats\": {\"n\": 1, \"median_ns\": 1, \"converged\": true}, \"rounds\": {}}]}",
	  "$.benchmarks[0].rounds: expected an array, found an object" },
	/* types and ranges of what is read (pmbench-result(5)) */
	{ "{\"format\": \"pmbench-result\", \"schema\": 1, \"benchmarks\": []}",
	  "$.sysinfo: missing (expected an object)" },
	{ "{\"format\": \"pmbench-result\", \"schema\": 1, \"sysinfo\": null, \"benchmarks\": []}",
	  "$.sysinfo: expected an object, found null" },
	{ "{\"format\": \"pmbench-result\", \"schema\": 1, \"sysinfo\": [], \"benchmarks\": []}",
	  "$.sysinfo: expected an object, found an array" },
	{ "{\"format\": \"pmbench-result\", \"schema\": 1, \"sysinfo\": {\"kernel\": {\"release\": 6}}, \"benchmarks\": []}",
	  "$.sysinfo.kernel.release: expected a string, found a number" },
	{ "{\"format\": \"pmbench-result\", \"schema\": 1, \"sysinfo\": {\"cpu\": {\"online\": 2.5}}, \"benchmarks\": []}",
	  "$.sysinfo.cpu.online: expected an integer, found a number" },
	{ HEAD "\"command\": [\"pmbench\", 1], \"benchmarks\": []}",
	  "$.command[1]: expected a string, found a number" },
	{ HEAD "\"runs\": [{\"created\": 5}], \"benchmarks\": []}",
	  "$.runs[0].created: expected a string, found a number" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1, 2, 3], \"stats\": {\"n\": 3, \"median_ns\": 2, \"ci_low_ns\": 3, \"ci_high_ns\": 1}}]}",
	  "$.benchmarks[0].stats.ci_low_ns: 3 is above median_ns (2)" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1, 2, 3], \"stats\": {\"n\": 3, \"median_ns\": 2, \"min_ns\": 1, \"max_ns\": 1.5}}]}",
	  "$.benchmarks[0].stats.median_ns: 2 is above max_ns (1.5)" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1, 2, 3], \"stats\": {\"n\": 3, \"median_ns\": 2, \"ci_level\": 1.5}}]}",
	  "$.benchmarks[0].stats.ci_level: 1.5 is not a share in [0, 1]" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1, 2, 3], \"stats\": {\"n\": 3, \"median_ns\": 2, \"stddev_ns\": -1}}]}",
	  "$.benchmarks[0].stats.stddev_ns: -1 is not a number >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1, 2, 3], \"stats\": {\"n\": 3, \"median_ns\": true}}]}",
	  "$.benchmarks[0].stats.median_ns: expected a number, found a boolean" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"params\": {\"bytes_per_op\": -4096}}]}",
	  "$.benchmarks[0].params.bytes_per_op: -4096 is not a number >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"params\": {\"iterations\": -1}}]}",
	  "$.benchmarks[0].params.iterations: -1 is not an integer >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"reference_ns\": 0}]}",
	  "$.benchmarks[0].reference_ns: 0 is not a number > 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"others\": 2}]}",
	  "$.benchmarks[0].others: 2 is not a share in [0, 1]" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"elapsed_s\": -0.5}]}",
	  "$.benchmarks[0].elapsed_s: -0.5 is not a number >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"counters\": {\"ops\": -5}}]}",
	  "$.benchmarks[0].counters.ops: -5 is not an integer >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"counters\": {\"rusage\": {\"sys_ns_per_op\": -1}}}]}",
	  "$.benchmarks[0].counters.rusage.sys_ns_per_op: -1 is not a number >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"counters\": {\"events\": [{\"name\": \"x\", \"status\": \"ok\", \"per_op\": 1, \"running\": 1.5}]}}]}",
	  "$.benchmarks[0].counters.events[0].running: 1.5 is not a share in [0, 1]" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"ok\", \"trials_ns\": [1, 2, 3], \"stats\": {\"n\": 3, \"median_ns\": 2}, \"rounds\": [{\"trials\": 3, \"busy\": -1}]}]}",
	  "$.benchmarks[0].rounds[0].busy: -1 is not a number >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"hotspots\": {\"symbols\": [{\"name\": \"f\", \"samples\": 3, \"share\": true}]}}]}",
	  "$.benchmarks[0].hotspots.symbols[0].share: expected a share in [0, 1], found a boolean" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"hotspots\": {\"symbols\": [{\"name\": \"f\", \"samples\": 3, \"share\": 42}]}}]}",
	  "$.benchmarks[0].hotspots.symbols[0].share: 42 is not a share in [0, 1]" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"hotspots\": {\"symbols\": [{\"name\": \"f\", \"samples\": 3, \"share\": 0.5, \"size\": -8}]}}]}",
	  "$.benchmarks[0].hotspots.symbols[0].size: -8 is not an integer >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"hotspots\": {\"symbols\": [{\"samples\": 3, \"share\": 0.5}]}}]}",
	  "$.benchmarks[0].hotspots.symbols[0].name: missing (expected a string)" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"hotspots\": {\"stacks\": [{\"stack\": \"a;b\", \"samples\": -1}]}}]}",
	  "$.benchmarks[0].hotspots.stacks[0].samples: -1 is not an integer >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"hotspots\": {\"kernel_share\": \"75%\"}}]}",
	  "$.benchmarks[0].hotspots.kernel_share: expected a share in [0, 1], found a string" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"hotspots\": {\"samples\": -10}}]}",
	  "$.benchmarks[0].hotspots.samples: -10 is not an integer >= 0" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"hotspots\": {\"symbols\": {}}}]}",
	  "$.benchmarks[0].hotspots.symbols: expected an array, found an object" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"scaling\": {\"points\": []}}]}",
	  "$.benchmarks[0].scaling.mode: missing (expected a string)" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"scaling\": {\"mode\": \"threads\", \"points\": [{\"n\": 0}]}}]}",
	  "$.benchmarks[0].scaling.points[0].n: 0 is out of range [1, 2147483647]" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"scaling\": {\"mode\": \"threads\", \"points\": [{\"n\": 2, \"efficiency\": false}]}}]}",
	  "$.benchmarks[0].scaling.points[0].efficiency: expected a number >= 0, found a boolean" },
	{ HEAD "\"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", \"status\": \"failed\", \"detail\": \"x\"}]}",
	  "$.benchmarks[0].detail: expected an object, found a string" },
	/* workloads (pmbench stat) */
	{ HEAD "\"benchmarks\": [{\"name\": \"w\", \"unit\": \"s\", \"status\": \"failed\", \"trials_ns\": [1, 2], \"workload\": {\"command\": [\"true\"], \"runs\": [{\"elapsed_ns\": 1, \"user_ns\": 0, \"system_ns\": 0}]}}]}",
	  "$.benchmarks[0].workload.runs: holds 1 runs, but trials_ns holds 2" },
	{ HEAD "\"benchmarks\": [{\"name\": \"w\", \"unit\": \"s\", \"status\": \"failed\", \"trials_ns\": [1], \"workload\": {\"command\": [\"true\"], \"runs\": [{\"elapsed_ns\": 1, \"user_ns\": -3, \"system_ns\": 0}]}}]}",
	  "$.benchmarks[0].workload.runs[0].user_ns: negative time" },
	{ HEAD "\"benchmarks\": [{\"name\": \"w\", \"unit\": \"s\", \"status\": \"failed\", \"trials_ns\": [1], \"workload\": {\"command\": [\"true\"], \"runs\": [{\"elapsed_ns\": 1, \"system_ns\": 0}]}}]}",
	  "$.benchmarks[0].workload.runs[0].user_ns: missing" },
	{ HEAD "\"benchmarks\": [{\"name\": \"w\", \"unit\": \"s\", \"status\": \"failed\", \"trials_ns\": [1], \"workload\": {\"command\": [3], \"runs\": []}}]}",
	  "$.benchmarks[0].workload.command[0]: expected a string, found a number" },
	{ HEAD "\"benchmarks\": [{\"name\": \"w\", \"unit\": \"s\", \"status\": \"failed\", \"trials_ns\": [1], \"workload\": []}]}",
	  "$.benchmarks[0].workload: expected an object, found an array" },
};

START_TEST(rejects_bad)
{
	const struct bad_case *bc = &bad_cases[_i];
	char *path = pm_xasprintf("%s/bad.json", dir);
	struct pm_result r;
	struct pm_err e = { "" };
	FILE *f = fopen(path, "w");

	fputs(bc->json, f);
	fclose(f);
	ck_assert_int_eq(pm_result_load(&r, path, &e), -EINVAL);
	ck_assert_msg(strstr(e.msg, path) == e.msg, "message '%s' does not start with the file", e.msg);
	ck_assert_msg(strstr(e.msg, bc->msg), "message '%s' lacks '%s'", e.msg, bc->msg);
	ck_assert_uint_eq(r.nbench, 0);
	free(path);
}
END_TEST

/* Rounds and runs survive a round trip; a file without rounds is one. */
START_TEST(rounds_round_trip)
{
	static const double v1[] = { 10, 11, 12 }, v2[] = { 20, 21 };
	struct pm_round r1 = { .run = 0, .reference_ns = 1.5, .busy = 0.25, .started_s = 0.1 };
	struct pm_round r2 = { .run = 0, .reference_ns = 1.75, .busy = NAN, .started_s = 2 };
	struct pm_result r, back;
	const struct pm_bench_result *b;
	char *path = pm_xasprintf("%s/rounds.json", dir);
	double med[2];
	struct pm_err e;

	make_result(&r);
	/* "null" has 5 trials in no round: the reader makes them one */
	ck_assert_int_eq(pm_result_save(&r, path, &e), 0);
	ck_assert_int_eq(pm_result_load(&back, path, &e), 0);
	b = pm_result_find(&back, "null");
	ck_assert_uint_eq(b->nrounds, 1);
	ck_assert_uint_eq(b->rounds[0].ntrials, 5);
	ck_assert_uint_eq(pm_result_nruns(&back), 1);
	pm_result_free(&back);

	free(r.bench[0].trials);
	r.bench[0].trials = NULL;
	r.bench[0].ntrials = 0;
	pm_bench_result_add_round(&r.bench[0], v1, 3, &r1);
	pm_bench_result_add_round(&r.bench[0], v2, 2, &r2);
	pm_summarize(r.bench[0].trials, r.bench[0].ntrials, 0.95, &r.bench[0].stats);
	ck_assert_int_eq(pm_result_save(&r, path, &e), 0);
	ck_assert_msg(pm_result_load(&back, path, &e) == 0, "%s", e.msg);
	b = pm_result_find(&back, "null");
	ck_assert_uint_eq(b->ntrials, 5);
	ck_assert_uint_eq(b->nrounds, 2);
	ck_assert_uint_eq(b->rounds[1].ntrials, 2);
	ck_assert_double_eq(b->rounds[1].reference_ns, 1.75);
	ck_assert(isnan(b->rounds[1].busy));
	ck_assert_double_eq(b->rounds[0].started_s, 0.1);
	pm_bench_result_round_medians(b, med);
	ck_assert_double_eq(med[0], 11);
	ck_assert_double_eq(med[1], 20.5);
	ck_assert_uint_eq(pm_bench_result_nruns(b), 1);
	pm_result_free(&back);
	pm_result_free(&r);
	free(path);
}
END_TEST

/* Merging runs of one side: rounds renumbered by run, runs described,
 * statistics over all trials; results of another source refused. */
START_TEST(merge_runs)
{
	struct pm_result src[3], m, bad;
	const struct pm_bench_result *b;
	struct pm_err e;
	size_t i;

	for (i = 0; i < 3; i++) {
		make_result(&src[i]);
		free(src[i].created);
		src[i].created = pm_xasprintf("2026-12-02T10:0%zu:00Z", i);
		src[i].bench[0].trials[0] += (double)i;	/* one trial differs per run */
	}
	ck_assert_int_eq(pm_result_merge(&m, src, 3, &e), 0);
	ck_assert_uint_eq(pm_result_nruns(&m), 3);
	ck_assert_uint_eq(json_array_size(m.runs), 3);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(m.runs, 2), "created")),
			 "2026-12-02T10:02:00Z");
	b = pm_result_find(&m, "null");
	ck_assert_uint_eq(b->ntrials, 15);
	ck_assert_uint_eq(b->nrounds, 3);
	ck_assert_uint_eq(b->rounds[2].run, 2);
	ck_assert_uint_eq(b->stats.n, 15);
	ck_assert_double_eq(b->trials[10], 103.5);
	ck_assert_uint_eq(pm_bench_result_nruns(b), 3);
	/* counters come from the first run */
	ck_assert_double_eq(pm_bench_result_counter(b, "cycles")->per_op, 400);
	b = pm_result_find(&m, "exec");
	ck_assert_int_eq(b->status, PM_BENCH_UNSUPPORTED);
	/* merging a merged file keeps its runs apart */
	{
		struct pm_result two[2], mm;

		two[0] = m;
		two[1] = src[0];
		ck_assert_int_eq(pm_result_merge(&mm, two, 2, &e), 0);
		ck_assert_uint_eq(pm_result_nruns(&mm), 4);
		ck_assert_uint_eq(json_array_size(mm.runs), 4);
		ck_assert_uint_eq(pm_result_find(&mm, "null")->rounds[3].run, 3);
		pm_result_free(&mm);
	}
	make_result(&bad);
	free(bad.source);
	bad.source = pm_xstrdup("import:lmbench");
	src[1].source[0] = 'r';
	{
		struct pm_result mix[2] = { src[0], bad }, mm;

		ck_assert_int_eq(pm_result_merge(&mm, mix, 2, &e), -EINVAL);
		ck_assert_ptr_nonnull(strstr(e.msg, "cannot be merged"));
		pm_result_free(&mm);
	}
	pm_result_free(&bad);
	pm_result_free(&m);
	for (i = 0; i < 3; i++)
		pm_result_free(&src[i]);
}
END_TEST

/* A workload entry (pmbench stat): its runs survive a round trip and
 * a merge keeps one run per trial. */
static void add_workload(struct pm_result *r, double base)
{
	struct pm_bench_result *b = pm_result_add(r);
	json_t *runs = json_array();
	size_t i;

	b->name = pm_xstrdup("make -j2");
	b->group = pm_xstrdup("workload");
	b->unit = pm_xstrdup("s");
	b->status = PM_BENCH_OK;
	for (i = 0; i < 3; i++) {
		struct pm_round round = { .run = 0, .reference_ns = NAN, .busy = NAN,
					  .started_s = (double)i };
		double el = base + (double)i * 1e6;

		pm_bench_result_add_round(b, &el, 1, &round);
		json_array_append_new(runs, json_pack("{s:f,s:f,s:f,s:i,s:{s:f}}",
			"elapsed_ns", el, "user_ns", el / 2, "system_ns", el / 4,
			"exit_status", 0, "counters", "page-faults", 1000.0 + (double)i));
	}
	pm_summarize(b->trials, b->ntrials, 0.95, &b->stats);
	b->workload = json_pack("{s:[sss],s:s,s:o}", "command", "/bin/sh", "-c", "make -j2",
				"shell", "make -j2", "runs", runs);
}

START_TEST(workload_round_trip)
{
	struct pm_result r, back, src[2], m;
	const struct pm_bench_result *b;
	char *path = pm_xasprintf("%s/w.json", dir);
	struct pm_err e;

	pm_result_init(&r);
	r.source = pm_xstrdup("stat");
	r.sysinfo = json_pack("{s:s}", "hostname", "h");
	add_workload(&r, 1e9);
	ck_assert_msg(pm_result_save(&r, path, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_result_load(&back, path, &e) == 0, "%s", e.msg);
	b = pm_result_find(&back, "make -j2");
	ck_assert_ptr_nonnull(b);
	ck_assert_uint_eq(b->nrounds, 3);
	ck_assert_double_eq(pm_bench_result_value(b, 2e9), 2);
	ck_assert_uint_eq(json_array_size(json_object_get(b->workload, "runs")), 3);
	ck_assert_double_eq(json_number_value(json_object_get(json_object_get(
		json_array_get(json_object_get(b->workload, "runs"), 2), "counters"),
		"page-faults")), 1002);
	pm_result_free(&back);

	/* two runs merged: six rounds, six runs, and the file reads back */
	src[0] = r;
	pm_result_init(&src[1]);
	src[1].source = pm_xstrdup("stat");
	add_workload(&src[1], 2e9);
	ck_assert_int_eq(pm_result_merge(&m, src, 2, &e), 0);
	b = pm_result_find(&m, "make -j2");
	ck_assert_uint_eq(b->ntrials, 6);
	ck_assert_uint_eq(json_array_size(json_object_get(b->workload, "runs")), 6);
	ck_assert_double_eq(json_number_value(json_object_get(json_array_get(
		json_object_get(b->workload, "runs"), 3), "elapsed_ns")), 2e9);
	ck_assert_int_eq(pm_result_save(&m, path, &e), 0);
	ck_assert_msg(pm_result_load(&back, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(pm_result_nruns(&back), 2);
	pm_result_free(&back);
	pm_result_free(&m);
	pm_result_free(&src[0]);
	pm_result_free(&src[1]);
	free(path);
}
END_TEST

/* A UTF-8 byte-order mark is skipped (RFC 8259 lets a parser ignore it);
 * UTF-16 is named. */
START_TEST(byte_order_mark)
{
	static const char doc[] = "\xef\xbb\xbf{\"format\": \"pmbench-result\", \"schema\": 1, "
		"\"sysinfo\": {}, \"benchmarks\": [{\"name\": \"a\", \"unit\": \"us\", "
		"\"status\": \"failed\"}]}";
	static const char utf16[] = "\xff\xfe{\0}\0";
	struct pm_result r;
	struct pm_err e;

	ck_assert_int_eq(pm_result_parse(&r, doc, sizeof(doc) - 1, "bom.json", &e), 0);
	ck_assert_uint_eq(r.nbench, 1);
	ck_assert_str_eq(r.bench[0].name, "a");
	pm_result_free(&r);
	/* the mark alone is no document */
	ck_assert_int_eq(pm_result_parse(&r, doc, 3, "bom.json", &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "bom.json:1:0: not valid JSON"));
	ck_assert_int_eq(pm_result_parse(&r, utf16, sizeof(utf16) - 1, "u16.json", &e), -EINVAL);
	ck_assert_str_eq(e.msg, "u16.json: UTF-16 text (it starts with a UTF-16 byte-order "
			 "mark); a result file is UTF-8");
}
END_TEST

START_TEST(missing_file)
{
	struct pm_result r;
	struct pm_err e;

	ck_assert_int_eq(pm_result_load(&r, "/nonexistent/r.json", &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/r.json"));
}
END_TEST

START_TEST(values_in_units)
{
	struct pm_bench_result b = { 0 };

	b.unit = "us";
	ck_assert_double_eq(pm_bench_result_value(&b, 1500), 1.5);
	ck_assert(!pm_bench_higher_is_better(&b));
	b.unit = "MB/s";
	b.bytes_per_op = 1 << 20;
	/* 1 MiB in 1 ms = 1000 MB/s (lmbench's MB is 2^20 bytes) */
	ck_assert_double_eq_tol(pm_bench_result_value(&b, 1e6), 1000, 1e-9);
	ck_assert(pm_bench_higher_is_better(&b));
	b.unit = "ops/s";
	ck_assert_double_eq(pm_bench_result_value(&b, 1e6), 1000);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("result");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, atomic_write);
	tcase_add_loop_test(tc, rejects_bad, 0, sizeof(bad_cases) / sizeof(bad_cases[0]));
	tcase_add_test(tc, rounds_round_trip);
	tcase_add_test(tc, merge_runs);
	tcase_add_test(tc, missing_file);
	tcase_add_test(tc, byte_order_mark);
	tcase_add_test(tc, values_in_units);
	tcase_add_test(tc, workload_round_trip);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
