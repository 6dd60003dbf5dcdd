/* The result history: where it is, names of files, @latest/@-N/@LABEL. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/history.h"

static char dir[] = "/tmp/pmbench-unit.XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
	setenv("XDG_DATA_HOME", dir, 1);
}

static void teardown(void)
{
	pm_rmtree(dir);
	strcpy(dir, "/tmp/pmbench-unit.XXXXXX");
}

static void make_result(struct pm_result *r, const char *created, const char *label)
{
	struct pm_bench_result *b;
	static const double trials[] = { 101.5, 99.25, 100 };
	struct pm_round rd = { .run = 0, .reference_ns = NAN, .busy = NAN,
			       .waited = NAN, .others = NAN, .started_s = NAN };

	pm_result_init(r);
	r->source = pm_xstrdup("run");
	r->created = pm_xstrdup(created);
	r->version = pm_xstrdup("0.1.0");
	r->label = label ? pm_xstrdup(label) : NULL;
	r->command = json_pack("[ss]", "pmbench", "null");
	r->options = json_pack("{s:f}", "target_time_ms", 10.0);
	r->sysinfo = json_pack("{s:s,s:{s:s}}", "hostname", "h",
			       "kernel", "release", "6.1.0-13 amd64/x");
	b = pm_result_add(r);
	b->name = pm_xstrdup("null");
	b->group = pm_xstrdup("proc");
	b->summary = pm_xstrdup("getppid()");
	b->unit = pm_xstrdup("us");
	b->iterations = 1000;
	b->ops_per_iter = 1;
	b->cpu = -1;
	pm_bench_result_add_round(b, trials, 3, &rd);
	pm_summarize(b->trials, b->ntrials, 0.95, &b->stats);
}

START_TEST(where_it_is)
{
	struct pm_err e;
	char *d;

	ck_assert_int_eq(pm_history_dir(&d, &e), 0);
	ck_assert_str_eq(d + strlen(dir), "/pmbench/results");
	free(d);
	/* relative XDG_DATA_HOME is ignored (XDG base directory spec) */
	setenv("XDG_DATA_HOME", "relative", 1);
	setenv("HOME", "/home/someone", 1);
	ck_assert_int_eq(pm_history_dir(&d, &e), 0);
	ck_assert_str_eq(d, "/home/someone/.local/share/pmbench/results");
	free(d);
	unsetenv("XDG_DATA_HOME");
	unsetenv("HOME");
	ck_assert_int_eq(pm_history_dir(&d, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "HOME"));
}
END_TEST

START_TEST(names_and_refs)
{
	struct pm_result a, b, c;
	char *pa, *pb, *pc, *got, *name, **files;
	struct pm_err e;
	size_t n;

	make_result(&a, "2026-12-04T10:15:00Z", "before");
	make_result(&b, "2026-12-04T10:15:00Z", NULL);	/* the same second */
	make_result(&c, "2026-12-04T11:00:00Z", "before");
	name = pm_history_file_name(&a);
	ck_assert_str_eq(name, "20261204T101500Z-6.1.0-13_amd64_x.json");
	free(name);

	/* empty history: @latest says so */
	ck_assert_int_eq(pm_history_resolve("@latest", &got, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "empty"));

	ck_assert_int_eq(pm_history_save(&a, &pa, &e), 0);
	ck_assert_int_eq(pm_history_save(&b, &pb, &e), 0);
	ck_assert_int_eq(pm_history_save(&c, &pc, &e), 0);
	ck_assert_str_ne(pa, pb);
	ck_assert_ptr_nonnull(strstr(pb, "/20261204T101500Z.2-6.1.0"));
	ck_assert_int_eq(pm_history_list(&files, &n, &e), 0);
	ck_assert_int_eq(n, 3);
	ck_assert_str_eq(files[0], pa);
	ck_assert_str_eq(files[1], pb);
	ck_assert_str_eq(files[2], pc);
	pm_history_list_free(files, n);

	ck_assert_int_eq(pm_history_resolve("@latest", &got, &e), 0);
	ck_assert_str_eq(got, pc);
	free(got);
	ck_assert_int_eq(pm_history_resolve("@-0", &got, &e), 0);
	ck_assert_str_eq(got, pc);
	free(got);
	ck_assert_int_eq(pm_history_resolve("@-1", &got, &e), 0);
	ck_assert_str_eq(got, pb);
	free(got);
	ck_assert_int_eq(pm_history_resolve("@-2", &got, &e), 0);
	ck_assert_str_eq(got, pa);
	free(got);
	ck_assert_int_eq(pm_history_resolve("@-3", &got, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "holds 3 runs"));
	/* a label: the newest run that has it */
	ck_assert_int_eq(pm_history_resolve("@before", &got, &e), 0);
	ck_assert_str_eq(got, pc);
	free(got);
	ck_assert_int_eq(pm_history_resolve("@after", &got, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "no run labelled 'after'"));
	/* anything else is a file name, as given */
	ck_assert_int_eq(pm_history_resolve("./@x.json", &got, &e), 0);
	ck_assert_str_eq(got, "./@x.json");
	free(got);
	ck_assert_int_eq(pm_history_resolve("@", &got, &e), 0);
	ck_assert_str_eq(got, "@");
	free(got);
	free(pa);
	free(pb);
	free(pc);
	pm_result_free(&a);
	pm_result_free(&b);
	pm_result_free(&c);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("history");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, where_it_is);
	tcase_add_test(tc, names_and_refs);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
