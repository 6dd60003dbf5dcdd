/* Bounded reading, geometric growth, list syntax. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "util.h"

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

static char *file_of(const char *name, size_t size)
{
	char *path = pm_xasprintf("%s/%s", dir, name), *buf = pm_xmalloc(size + 1);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);

	memset(buf, 'x', size);
	ck_assert_int_ge(fd, 0);
	ck_assert_int_eq(write(fd, buf, size), (ssize_t)size);
	close(fd);
	free(buf);
	return path;
}

/* The growing string and the counted string list. */
START_TEST(buffers)
{
	struct pm_buf b = PM_BUF_INIT;
	char **v = NULL, *s;
	size_t n = 0, i;

	ck_assert_str_eq(pm_buf_str(&b), "");
	for (i = 0; i < 100; i++) {
		pm_buf_sep(&b, ", ");
		pm_buf_addf(&b, "%zu", i);
	}
	ck_assert_uint_eq(b.len, strlen(b.s));
	ck_assert(!strncmp(b.s, "0, 1, 2, ", 9));
	ck_assert(strstr(b.s, ", 99") == b.s + b.len - 4);
	pm_buf_add(&b, "");
	s = pm_buf_detach(&b);
	ck_assert_ptr_null(b.s);
	ck_assert_uint_eq(b.len, 0);
	free(s);
	s = pm_buf_detach(&b);
	ck_assert_str_eq(s, "");
	free(s);
	for (i = 0; i < 40; i++)
		if (!pm_strv_has(v, n, i % 2 ? "odd" : "even"))
			pm_strv_push(&v, &n, i % 2 ? "odd" : "even");
	ck_assert_uint_eq(n, 2);
	ck_assert_str_eq(v[0], "even");
	ck_assert(pm_strv_has(v, n, "odd") && !pm_strv_has(v, n, "none"));
	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
END_TEST

START_TEST(read_limits)
{
	char *exact = file_of("exact", 10000), *over = file_of("over", 10001), *text;
	size_t len;

	ck_assert_int_eq(pm_read_file_max(exact, 10000, &text, &len), 0);
	ck_assert_uint_eq(len, 10000);
	ck_assert_uint_eq(strlen(text), 10000);
	free(text);
	ck_assert_int_eq(pm_read_file_max(over, 10000, &text, &len), -EFBIG);
	ck_assert_int_eq(pm_read_file_max(dir, 10000, &text, &len), -EISDIR);
	free(exact);
	free(over);
}
END_TEST

/* An endless stream (/dev/zero, a FIFO fed forever) stops at the limit. */
START_TEST(endless_input)
{
	char *fifo = pm_xasprintf("%s/fifo", dir), *text, c;
	int fd, hold, ready[2];
	pid_t pid;

	ck_assert_int_eq(pm_read_file_max("/dev/zero", 1 << 20, &text, NULL), -EFBIG);
	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	/* a reader already there: the writer's open(2) returns at once, and
	 * says so before the FIFO is read */
	hold = open(fifo, O_RDONLY | O_NONBLOCK);
	ck_assert_int_ge(hold, 0);
	ck_assert_int_eq(pipe(ready), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		static const char buf[4096];

		fd = open(fifo, O_WRONLY);
		if (write(ready[1], "w", 1) != 1)
			_exit(1);
		while (write(fd, buf, sizeof(buf)) > 0)
			;
		_exit(0);
	}
	ck_assert_int_eq(read(ready[0], &c, 1), 1);
	ck_assert_int_eq(pm_read_file_max(fifo, 1 << 20, &text, NULL), -EFBIG);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	close(hold);
	close(ready[0]);
	close(ready[1]);
	free(fifo);
}
END_TEST

/*
 * Nothing that would wait forever: a FIFO no process writes to is
 * refused at once, so is a terminal with nothing typed; a pipe whose
 * writer is late is waited for, as cat(1) would.
 */
START_TEST(no_endless_wait)
{
	char *fifo = pm_xasprintf("%s/fifo", dir), *text, proc[64];
	struct pm_err e;
	uint64_t t0 = pm_now_ns();
	int pty, p[2];
	size_t len;
	pid_t pid;

	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	ck_assert_int_eq(pm_read_file_max(fifo, 1 << 20, &text, NULL), -ENODATA);
	pm_read_error(&e, -ENODATA, fifo, 1 << 20, "a result file");
	ck_assert_ptr_nonnull(strstr(e.msg, ": nothing to read: a FIFO or pipe with no writer"));
	pty = posix_openpt(O_RDWR | O_NOCTTY);
	if (pty >= 0 && grantpt(pty) == 0 && unlockpt(pty) == 0) {
		ck_assert_int_eq(pm_read_file_max(ptsname(pty), 1 << 20, &text, NULL), -EAGAIN);
		close(pty);
	}
	ck_assert_uint_lt(pm_now_ns() - t0, 5000000000ull);
	/* a pipe (as /dev/stdin or <(...) name it): its writer is waited for */
	ck_assert_int_eq(pipe(p), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		close(p[0]);
		usleep(200000);
		_exit(write(p[1], "late", 4) == 4 ? 0 : 1);
	}
	close(p[1]);
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", p[0]);
	ck_assert_int_eq(pm_read_file_max(proc, 1 << 20, &text, &len), 0);
	ck_assert_uint_eq(len, 4);
	ck_assert_str_eq(text, "late");
	free(text);
	waitpid(pid, NULL, 0);
	close(p[0]);
	free(fifo);
}
END_TEST

START_TEST(read_line_reads_a_line)
{
	char *big = file_of("big", 1 << 20), buf[64];

	ck_assert_int_eq(pm_read_line(big, buf, sizeof(buf)), 0);
	ck_assert_uint_eq(strlen(buf), sizeof(buf) - 1);
	ck_assert_int_eq(pm_read_line("/proc/sys/kernel/ostype", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "Linux");
	free(big);
}
END_TEST

START_TEST(error_names_file)
{
	struct pm_err e;

	pm_read_error(&e, -EFBIG, "/x/y", 16u << 20, "a report to import");
	ck_assert_str_eq(e.msg, "/x/y: larger than 16 MiB, the limit for a report to import");
	pm_read_error(&e, -EISDIR, "/x", 1, "a result file");
	ck_assert_str_eq(e.msg, "/x: is a directory, not a result file");
	pm_read_error(&e, -ENOENT, "/x", 1, "a result file");
	ck_assert_str_eq(e.msg, "/x: No such file or directory");
}
END_TEST

START_TEST(grow)
{
	int *v = NULL;
	size_t i;

	for (i = 0; i < 100000; i++) {
		v = pm_xgrow(v, i, sizeof(*v));
		v[i] = (int)i;
	}
	for (i = 0; i < 100000; i++)
		ck_assert_int_eq(v[i], (int)i);
	free(v);
}
END_TEST

START_TEST(lists)
{
	ck_assert(pm_list_valid("cycles", ','));
	ck_assert(pm_list_valid("cycles, icache", ','));
	ck_assert(!pm_list_valid("", ','));
	ck_assert(!pm_list_valid(" ", ','));
	ck_assert(!pm_list_valid("cycles,,icache", ','));
	ck_assert(!pm_list_valid("cycles,", ','));
	ck_assert(!pm_list_valid(",cycles", ','));
	ck_assert(!pm_list_valid("a, ,b", ','));
}
END_TEST

/* Options are decimal: what strtoul/strtod would also take is refused. */
START_TEST(decimal_numbers)
{
	static const char *const not_whole[] = {
		"", " 5", "5 ", "+5", "-5", "0x10", "010x", "1.5", "1e3", "five", "5k",
	};
	static const char *const not_real[] = {
		"", " 1", "1 ", "+1", "0x10", "0x1p-3", "inf", "-inf", "nan", "1e", "1.5s",
		"--1", "1-2", ",5",
	};
	unsigned long u = 7;
	double d = 7;
	size_t i;

	ck_assert_int_eq(pm_parse_ulong("16", 1, 100, &u), 0);
	ck_assert_uint_eq(u, 16);
	/* leading zeros are still decimal, not octal */
	ck_assert_int_eq(pm_parse_ulong("010", 1, 100, &u), 0);
	ck_assert_uint_eq(u, 10);
	ck_assert_int_eq(pm_parse_ulong("0", 0, 0, &u), 0);
	ck_assert_uint_eq(u, 0);
	ck_assert_int_eq(pm_parse_ulong("18446744073709551615", 0, ULONG_MAX, &u), 0);
	ck_assert_uint_eq(u, ULONG_MAX);
	u = 7;
	ck_assert_int_eq(pm_parse_ulong("99999999999999999999", 0, ULONG_MAX, &u), -ERANGE);
	ck_assert_int_eq(pm_parse_ulong("101", 1, 100, &u), -ERANGE);
	ck_assert_int_eq(pm_parse_ulong("0", 1, 100, &u), -ERANGE);
	for (i = 0; i < PM_ARRAY_SIZE(not_whole); i++)
		ck_assert_msg(pm_parse_ulong(not_whole[i], 0, ULONG_MAX, &u) == -EINVAL,
			      "'%s' taken as a whole number", not_whole[i]);
	ck_assert_uint_eq(u, 7);

	ck_assert_int_eq(pm_parse_double("0.5", 0, 1, &d), 0);
	ck_assert_double_eq(d, 0.5);
	ck_assert_int_eq(pm_parse_double(".5", 0, 1, &d), 0);
	ck_assert_double_eq(d, 0.5);
	ck_assert_int_eq(pm_parse_double("1e3", 0, 1e4, &d), 0);
	ck_assert_double_eq(d, 1000);
	ck_assert_int_eq(pm_parse_double("-2.5E-1", -1, 1, &d), 0);
	ck_assert_double_eq(d, -0.25);
	d = 7;
	ck_assert_int_eq(pm_parse_double("1e999", 0, 1e308, &d), -ERANGE);
	ck_assert_int_eq(pm_parse_double("-1", 0, 1, &d), -ERANGE);
	ck_assert_int_eq(pm_parse_double("1.01", 0, 1, &d), -ERANGE);
	for (i = 0; i < PM_ARRAY_SIZE(not_real); i++)
		ck_assert_msg(pm_parse_double(not_real[i], -1e9, 1e9, &d) == -EINVAL,
			      "'%s' taken as a decimal number", not_real[i]);
	ck_assert_double_eq(d, 7);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("util");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, read_limits);
	tcase_add_test(tc, endless_input);
	tcase_add_test(tc, no_endless_wait);
	tcase_add_test(tc, read_line_reads_a_line);
	tcase_add_test(tc, error_names_file);
	tcase_add_test(tc, grow);
	tcase_add_test(tc, lists);
	tcase_add_test(tc, decimal_numbers);
	tcase_add_test(tc, buffers);
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
