/* Workloads (pmbench stat): commands, one run of a command, its counts. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/workload.h"

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

/* One word runs as it is, shell text through /bin/sh, argv as given. */
START_TEST(commands)
{
	char *one[] = { "make" }, *text[] = { "make -j2 | tee log" };
	char *argv[] = { "ls", "a b", "-l" };
	struct pm_command c;

	pm_command_init(&c, one, 1, NULL);
	ck_assert(!c.shell);
	ck_assert_str_eq(c.argv[0], "make");
	ck_assert_ptr_null(c.argv[1]);
	ck_assert_str_eq(c.name, "make");
	pm_command_free(&c);

	pm_command_init(&c, text, 1, "build");
	ck_assert(c.shell);
	ck_assert_str_eq(c.argv[0], "/bin/sh");
	ck_assert_str_eq(c.argv[1], "-c");
	ck_assert_str_eq(c.argv[2], "make -j2 | tee log");
	ck_assert_str_eq(c.text, "make -j2 | tee log");
	ck_assert_str_eq(c.name, "build");
	pm_command_free(&c);

	pm_command_init(&c, argv, 3, NULL);
	ck_assert(!c.shell);
	ck_assert_str_eq(c.argv[1], "a b");
	ck_assert_str_eq(c.text, "ls 'a b' -l");
	pm_command_free(&c);
}
END_TEST

START_TEST(tail_of_file)
{
	char *path = pm_xasprintf("%s/err", dir), *t;
	FILE *f = fopen(path, "w");
	int i;

	for (i = 1; i <= 15; i++)
		fprintf(f, "line %d\n", i);
	fputs("\n\n", f);
	fclose(f);
	t = pm_file_tail(path, 3);
	ck_assert_str_eq(t, "line 13\nline 14\nline 15");
	free(t);
	f = fopen(path, "w");
	fclose(f);
	ck_assert_ptr_null(pm_file_tail(path, 3));
	ck_assert_ptr_null(pm_file_tail("/nonexistent/err", 3));
	free(path);
	t = pm_wait_status_text(3 << 8);
	ck_assert_str_eq(t, "exit status 3");
	free(t);
}
END_TEST

static void run(const char *text, struct pm_spawn_opts *o, struct pm_spawn *r)
{
	char *args[] = { (char *)text };
	struct pm_command c;
	struct pm_err e = { "" };

	pm_command_init(&c, args, 1, NULL);
	ck_assert_msg(pm_spawn_run(&c, o, r, &e) == 0, "%s", e.msg);
	pm_command_free(&c);
}

/* Exit statuses, a command that cannot start, its standard error kept,
 * and the user and system time of what it waited for. */
START_TEST(spawn)
{
	char *err = pm_xasprintf("%s/stderr", dir), *t;
	struct pm_spawn_opts o = { .err_path = err };
	struct pm_spawn r;

	run("true", &o, &r);
	ck_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	ck_assert_int_eq(r.exec_errno, 0);
	ck_assert_uint_gt(r.elapsed_ns, 0);
	pm_spawn_free(&r);

	run("echo kept >&2; exit 3", &o, &r);
	ck_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 3);
	pm_spawn_free(&r);
	t = pm_file_tail(err, 10);
	ck_assert_str_eq(t, "kept");
	free(t);

	run("pmbench-no-such-command", &o, &r);
	ck_assert_int_eq(r.exec_errno, ENOENT);
	pm_spawn_free(&r);

	/* a child that burns CPU and is waited for: its time is in the rusage */
	run("i=0; while [ $i -lt 20000 ]; do i=$((i + 1)); done & wait", &o, &r);
	ck_assert(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
	ck_assert_int_gt(r.ru.ru_utime.tv_sec * 1000000 + r.ru.ru_utime.tv_usec +
			 r.ru.ru_stime.tv_sec * 1000000 + r.ru.ru_stime.tv_usec, 0);
	pm_spawn_free(&r);
	free(err);
}
END_TEST

/* Counters follow the children: pages touched by a grandchild count. */
START_TEST(counted_with_children)
{
	struct pm_events ev = { 0 };
	struct pm_spawn_opts o = { .events = &ev };
	struct pm_err e = { "" };
	struct pm_spawn r;
	size_t i, faults = SIZE_MAX;

	ck_assert_msg(pm_events_add_all_software(&ev, &e) == 0, "%s", e.msg);
	for (i = 0; i < ev.n; i++)
		if (!strcmp(ev.v[i].name, "page-faults"))
			faults = i;
	ck_assert_uint_ne(faults, SIZE_MAX);
	if (ev.v[faults].status != PM_CNT_OK) {
		/* perf_event_paranoid: nothing to check here */
		pm_events_free(&ev);
		return;
	}
	/* the test helper's 3 children touch 500 fresh pages each (make check
	 * says where it is); else a pipeline of four programs */
	if (getenv("TEST_HELPERS")) {
		char *cmd = pm_xasprintf("%s/workload -c 3 -p 500", getenv("TEST_HELPERS"));

		run(cmd, &o, &r);
		free(cmd);
		ck_assert_msg(r.counts != NULL, "%s", r.count_error ? r.count_error : "not counted");
		ck_assert(r.counts[faults].counted);
		ck_assert_double_ge(r.counts[faults].total, 1500);
		/* wait4 agrees: the children's faults are in the rusage too */
		ck_assert_int_ge(r.ru.ru_minflt, 1500);
	} else {
		run("sh -c 'dd if=/dev/zero bs=1M count=4 2>/dev/null | cat > /dev/null'", &o, &r);
		ck_assert_msg(r.counts != NULL, "%s", r.count_error ? r.count_error : "not counted");
		ck_assert_double_gt(r.counts[faults].total, 100);
	}
	pm_spawn_free(&r);
	pm_events_free(&ev);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("workload");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, commands);
	tcase_add_test(tc, tail_of_file);
	tcase_add_test(tc, spawn);
	tcase_add_test(tc, counted_with_children);
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
