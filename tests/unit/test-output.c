/* -o: the kind of each path, what is refused, and results kept when the
 * write fails (recovery file, then standard output). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/output.h"

static char dir[] = "/tmp/pmbench-unit.XXXXXX";

static void setup(void)
{
	ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void teardown(void)
{
	pm_rmtree(dir);
	strcpy(dir, "/tmp/pmbench-unit.XXXXXX");
	unsetenv("TMPDIR");
}

static char *in_dir(const char *name)
{
	return pm_xasprintf("%s/%s", dir, name);
}

static int open_kind(const char *path, struct pm_output *o, struct pm_err *e)
{
	int err = pm_output_open(o, path, e);

	if (err)
		ck_assert_msg(strstr(e->msg, path) || !*path, "message names no path: %s",
			      e->msg);
	return err;
}

START_TEST(kinds)
{
	char *file = in_dir("new.json"), *sub = in_dir("sub"), *fifo = in_dir("fifo");
	char *link = in_dir("link"), *target = in_dir("target.json");
	char *dangling = in_dir("dangling"), *missing = in_dir("no/such/x.json");
	struct pm_output o;
	struct pm_err e;

	ck_assert_int_eq(pm_output_open(&o, NULL, &e), 0);
	ck_assert_int_eq(o.kind, PM_OUTPUT_NONE);
	ck_assert_int_eq(pm_output_open(&o, "", &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "empty file name"));
	pm_output_free(&o);

	ck_assert_int_eq(pm_output_open(&o, "-", &e), 0);
	ck_assert(pm_output_is_stdout(&o));
	pm_output_free(&o);

	ck_assert_int_eq(open_kind(file, &o, &e), 0);
	ck_assert_int_eq(o.kind, PM_OUTPUT_FILE);
	ck_assert_str_eq(o.target, file);
	pm_output_free(&o);
	/* the probe leaves nothing behind */
	ck_assert_int_eq(access(file, F_OK), -1);

	ck_assert_int_eq(mkdir(sub, 0755), 0);
	ck_assert_int_eq(open_kind(sub, &o, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "is a directory"));
	pm_output_free(&o);
	ck_assert_int_eq(open_kind(missing, &o, &e), -EINVAL);
	pm_output_free(&o);

	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	ck_assert_int_eq(open_kind(fifo, &o, &e), 0);
	ck_assert_int_eq(o.kind, PM_OUTPUT_STREAM);
	pm_output_free(&o);
	ck_assert_int_eq(open_kind("/dev/null", &o, &e), 0);
	/* written into (or it is our stdout): never renamed over */
	ck_assert_int_ne(o.kind, PM_OUTPUT_FILE);
	pm_output_free(&o);

	/* a link to a file: the target is what is replaced */
	ck_assert_int_eq(close(creat(target, 0644)), 0);
	ck_assert_int_eq(symlink("target.json", link), 0);
	ck_assert_int_eq(open_kind(link, &o, &e), 0);
	ck_assert_int_eq(o.kind, PM_OUTPUT_FILE);
	ck_assert_str_eq(o.target, target);
	pm_output_free(&o);
	ck_assert_int_eq(symlink("nothing", dangling), 0);
	ck_assert_int_eq(open_kind(dangling, &o, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "does not exist"));
	pm_output_free(&o);

	free(file), free(sub), free(fifo), free(link), free(target);
	free(dangling), free(missing);
}
END_TEST

/* fs.protected_symlinks: another user's link in a sticky /tmp-like dir */
START_TEST(untrusted_link)
{
	char *sticky = in_dir("sticky"), *link = in_dir("sticky/link");
	char *target = in_dir("target.json");
	struct pm_output o;
	struct pm_err e;

	if (geteuid() != 0)
		return;		/* needs lchown to another user */
	ck_assert_int_eq(mkdir(sticky, 0777), 0);
	ck_assert_int_eq(chmod(sticky, 01777), 0);
	ck_assert_int_eq(close(creat(target, 0644)), 0);
	ck_assert_int_eq(symlink(target, link), 0);
	ck_assert_int_eq(lchown(link, 65534, 65534), 0);
	ck_assert_int_eq(pm_output_open(&o, link, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "protected_symlinks"));
	pm_output_free(&o);
	free(sticky), free(link), free(target);
}
END_TEST

/* rename(2) never goes over anything but a regular file */
START_TEST(atomic_write_keeps_non_regular)
{
	char *fifo = in_dir("fifo");
	struct pm_result r;
	struct pm_err e;
	struct stat st;

	pm_result_init(&r);
	ck_assert_int_eq(mkfifo(fifo, 0644), 0);
	ck_assert_int_eq(pm_result_save(&r, fifo, &e), -EEXIST);
	ck_assert_ptr_nonnull(strstr(e.msg, fifo));
	ck_assert_int_eq(lstat(fifo, &st), 0);
	ck_assert(S_ISFIFO(st.st_mode));
	pm_result_free(&r);
	free(fifo);
}
END_TEST

/* A writer whose first `fails` calls fail as a full disk does. */
struct flaky {
	int calls, fails;
};

static int flaky_writer(FILE *f, void *arg)
{
	struct flaky *fl = arg;

	if (fl->calls++ < fl->fails)
		return -ENOSPC;
	return fputs("{\"results\": 1}\n", f) == EOF ? -EIO : 0;
}

static char *slurp(const char *path)
{
	char *text = NULL;

	ck_assert_int_eq(pm_read_file(path, &text, NULL), 0);
	return text;
}

START_TEST(recovery_file)
{
	char *path = in_dir("r.json"), *text;
	struct flaky fl = { .fails = 1 };
	struct pm_output o;
	struct pm_err e;

	setenv("TMPDIR", dir, 1);
	ck_assert_int_eq(pm_output_open(&o, path, &e), 0);
	ck_assert_int_eq(pm_output_write(&o, flaky_writer, &fl, &e), -ENOSPC);
	ck_assert_ptr_nonnull(o.recovered);
	ck_assert_msg(strstr(e.msg, path) && strstr(e.msg, "No space left on device") &&
		      strstr(e.msg, o.recovered), "%s", e.msg);
	ck_assert_int_eq(strncmp(o.recovered, dir, strlen(dir)), 0);
	text = slurp(o.recovered);
	ck_assert_str_eq(text, "{\"results\": 1}\n");
	/* the file that failed is not left half-written */
	ck_assert_int_eq(access(path, F_OK), -1);
	free(text);
	pm_output_free(&o);
	free(path);
}
END_TEST

/* No recovery file either: standard output, then "lost". */
START_TEST(stdout_fallback)
{
	char *path = in_dir("r.json"), *out = in_dir("stdout"), *text;
	/* the recovery file cannot even be created: the writer's second
	 * call is for standard output */
	struct flaky fl = { .fails = 1 }, never = { .fails = 1000 };
	struct pm_output o;
	struct pm_err e;
	int saved = dup(STDOUT_FILENO), fd;

	setenv("TMPDIR", "/nonexistent-pmbench-dir", 1);
	ck_assert_int_eq(pm_output_open(&o, path, &e), 0);
	fflush(stdout);
	fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	ck_assert_int_ge(fd, 0);
	dup2(fd, STDOUT_FILENO);
	close(fd);
	ck_assert_int_eq(pm_output_write(&o, flaky_writer, &fl, &e), -ENOSPC);
	fflush(stdout);
	ck_assert_msg(strstr(e.msg, "the results follow on standard output"), "%s", e.msg);
	ck_assert_int_eq(pm_output_write(&o, flaky_writer, &never, &e), -ENOSPC);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	ck_assert_msg(strstr(e.msg, "the results are lost"), "%s", e.msg);
	text = slurp(out);
	ck_assert_str_eq(text, "{\"results\": 1}\n");
	free(text);
	pm_output_free(&o);
	free(path);
	free(out);
}
END_TEST

/* A write error of the stream itself, not of the writer: /dev/full. */
START_TEST(device_full)
{
	struct pm_result r;
	struct pm_output o;
	struct pm_err e;
	char *text;

	if (access("/dev/full", W_OK) != 0)
		return;
	setenv("TMPDIR", dir, 1);
	pm_result_init(&r);
	ck_assert_int_eq(pm_output_open(&o, "/dev/full", &e), 0);
	ck_assert_int_eq(o.kind, PM_OUTPUT_STREAM);
	ck_assert_int_eq(pm_output_write_result(&o, &r, &e), -ENOSPC);
	ck_assert_ptr_nonnull(o.recovered);
	text = slurp(o.recovered);
	ck_assert_ptr_nonnull(strstr(text, "\"format\": \"pmbench-result\""));
	free(text);
	pm_output_free(&o);
	pm_result_free(&r);
}
END_TEST

/* The directory of import's -o DIR/ (and ab's consoles): mkdir -p. */
START_TEST(mkdir_p)
{
	char *deep = in_dir("a//b/c/"), *file = in_dir("file"), *under = in_dir("file/x");
	char *abc = in_dir("a/b/c");
	struct stat st;
	int fd;

	ck_assert_int_eq(pm_mkdir_p(deep, 0755), 0);
	ck_assert_int_eq(stat(abc, &st), 0);
	ck_assert(S_ISDIR(st.st_mode));
	ck_assert_int_eq(pm_mkdir_p(abc, 0755), 0);	/* there already: fine */
	fd = open(file, O_WRONLY | O_CREAT, 0644);
	ck_assert_int_ge(fd, 0);
	close(fd);
	ck_assert_int_eq(pm_mkdir_p(file, 0755), -ENOTDIR);
	ck_assert_int_eq(pm_mkdir_p(under, 0755), -ENOTDIR);
	ck_assert_int_eq(pm_mkdir_p("", 0755), -ENOENT);
	free(deep);
	free(file);
	free(under);
	free(abc);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("output");
	TCase *tc = tcase_create("core");

	tcase_add_checked_fixture(tc, setup, teardown);
	tcase_add_test(tc, kinds);
	tcase_add_test(tc, untrusted_link);
	tcase_add_test(tc, atomic_write_keeps_non_regular);
	tcase_add_test(tc, recovery_file);
	tcase_add_test(tc, stdout_fallback);
	tcase_add_test(tc, device_full);
	tcase_add_test(tc, mkdir_p);
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
