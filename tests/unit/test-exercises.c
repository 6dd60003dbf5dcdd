/* What a benchmark exercises in result files: written, read, merged, and
 * filled from the registry for files that do not say (pm_cli_side_load). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench/bench.h"
#include "cmd.h"
#include "explain/explain.h"
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

/* A result file of one benchmark per name, unsupported (no trials
 * needed); extra is spliced into each benchmark's object. */
static char *write_file(const char *file, const char *const *names, size_t n,
			const char *extra)
{
	char *path = pm_xasprintf("%s/%s", dir, file);
	FILE *f = fopen(path, "w");
	size_t i;

	ck_assert_ptr_nonnull(f);
	fputs("{\"format\": \"pmbench-result\", \"schema\": 1, \"sysinfo\": {}, "
	      "\"benchmarks\": [", f);
	for (i = 0; i < n; i++)
		fprintf(f, "%s{\"name\": \"%s\", \"unit\": \"us\", \"status\": "
			"\"unsupported\"%s}", i ? ", " : "", names[i], extra);
	fputs("]}\n", f);
	fclose(f);
	return path;
}

static unsigned read_one(const char *extra, int *err, char *msg, size_t len)
{
	static const char *const names[] = { "null" };
	char *path = write_file("one.json", names, 1, extra);
	struct pm_result r;
	struct pm_err e = { "" };
	unsigned ex = 0;

	*err = pm_result_load(&r, path, &e);
	snprintf(msg, len, "%s", e.msg);
	if (!*err) {
		ex = r.bench[0].exercises;
		pm_result_free(&r);
	}
	free(path);
	return ex;
}

START_TEST(written_and_read)
{
	struct pm_result r, back;
	struct pm_bench_result *b;
	char *path = pm_xasprintf("%s/r.json", dir), *text = NULL;
	struct pm_err e;
	json_t *doc;

	pm_result_init(&r);
	r.source = pm_xstrdup("run");
	r.sysinfo = json_object();
	b = pm_result_add(&r);
	b->name = pm_xstrdup("stat");
	b->unit = pm_xstrdup("us");
	b->status = PM_BENCH_UNSUPPORTED;
	b->exercises = PM_EX_PATH | PM_EX_SYSCALL;
	b = pm_result_add(&r);
	b->name = pm_xstrdup("a-workload");
	b->unit = pm_xstrdup("ms");
	b->status = PM_BENCH_UNSUPPORTED;
	ck_assert_msg(pm_result_save(&r, path, &e) == 0, "%s", e.msg);
	/* in the table's order, as names; none written for 0 */
	ck_assert_int_eq(pm_result_load_json(&doc, path, &e), 0);
	text = json_dumps(json_object_get(json_array_get(json_object_get(doc, "benchmarks"), 0),
					  "exercises"), JSON_COMPACT);
	ck_assert_str_eq(text, "[\"syscall\",\"path\"]");
	ck_assert_ptr_null(json_object_get(json_array_get(json_object_get(doc, "benchmarks"), 1),
					   "exercises"));
	ck_assert_msg(pm_result_load(&back, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(back.bench[0].exercises, PM_EX_SYSCALL | PM_EX_PATH);
	ck_assert_uint_eq(back.bench[1].exercises, 0);
	/* a merge of runs keeps them */
	{
		struct pm_result two[2] = { r, back }, m;

		ck_assert_msg(pm_result_merge(&m, two, 2, &e) == 0, "%s", e.msg);
		ck_assert_uint_eq(pm_result_find(&m, "stat")->exercises,
				  PM_EX_SYSCALL | PM_EX_PATH);
		pm_result_free(&m);
	}
	free(text);
	json_decref(doc);
	pm_result_free(&back);
	pm_result_free(&r);
	free(path);
}
END_TEST

START_TEST(reader_accepts_and_rejects)
{
	char msg[512];
	int err;

	/* older files have none */
	ck_assert_uint_eq(read_one("", &err, msg, sizeof(msg)), 0);
	ck_assert_int_eq(err, 0);
	ck_assert_uint_eq(read_one(", \"exercises\": null", &err, msg, sizeof(msg)), 0);
	ck_assert_int_eq(err, 0);
	/* a name a newer pmbench may write is passed over */
	ck_assert_uint_eq(read_one(", \"exercises\": [\"fault\", \"teleport\", \"vm\"]", &err,
				   msg, sizeof(msg)), PM_EX_FAULT | PM_EX_VM);
	ck_assert_int_eq(err, 0);
	read_one(", \"exercises\": \"syscall\"", &err, msg, sizeof(msg));
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_msg(strstr(msg, "$.benchmarks[0].exercises: expected an array of strings, "
			     "found a string"), "%s", msg);
	read_one(", \"exercises\": [\"syscall\", 3]", &err, msg, sizeof(msg));
	ck_assert_int_eq(err, -EINVAL);
	ck_assert_msg(strstr(msg, "$.benchmarks[0].exercises[1]: expected a string, found a "
			     "number"), "%s", msg);
}
END_TEST

/* A file without them gets this pmbench's by name; what a file says, or
 * a name that is no benchmark here, is left as it is. */
START_TEST(side_filled_from_registry)
{
	static const char *const names[] = { "null", "page-walk", "no-such-bench" };
	char *path = write_file("old.json", names, 3, "");
	char *said = write_file("said.json", names, 1, ", \"exercises\": [\"cpu\"]");
	struct pm_side s;
	struct pm_err e;

	ck_assert_msg(pm_cli_side_load(&s, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(s.nruns, 1);
	ck_assert_uint_eq(s.runs[0].bench[0].exercises, pm_bench_find("null")->exercises);
	ck_assert_uint_eq(s.runs[0].bench[0].exercises, PM_EX_SYSCALL);
	ck_assert_uint_eq(s.runs[0].bench[1].exercises, PM_EX_WALK);
	ck_assert_uint_eq(s.runs[0].bench[2].exercises, 0);
	pm_side_free(&s);
	/* pm_side_load itself (explain's library) leaves them unknown */
	ck_assert_msg(pm_side_load(&s, path, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(s.runs[0].bench[0].exercises, 0);
	pm_side_free(&s);
	ck_assert_msg(pm_cli_side_load(&s, said, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(s.runs[0].bench[0].exercises, PM_EX_CPU);
	pm_side_free(&s);
	/* a load that fails is reported as it was */
	ck_assert_int_eq(pm_cli_side_load(&s, "/nonexistent/x.json", &e), -EINVAL);
	pm_side_free(&s);
	free(path);
	free(said);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("exercises");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, written_and_read);
	tcase_add_test(tc, reader_accepts_and_rejects);
	tcase_add_test(tc, side_filled_from_registry);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
