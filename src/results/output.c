/*
 * -o: where result files go (see output.h and pmbench-run(1), OUTPUT).
 *
 * A regular file is replaced atomically (temp file + rename), which is
 * what must never happen to anything else: renaming over a FIFO, a
 * device or a symbolic link replaces it, and as root `-o /dev/null`
 * would delete /dev/null.  So the kind of the path is decided first and
 * each kind is written its own way.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "results/output.h"

static char *dir_of(const char *path)
{
	char *copy = pm_xstrdup(path), *dir = pm_xstrdup(dirname(copy));

	free(copy);
	return dir;
}

/* Can a file be created in dir?  Tried for real: access(2) says yes to
 * root on a read-only file system or in /proc. */
static int probe_dir(const char *path, const char *dir, struct pm_err *e)
{
	char *tmp = pm_xasprintf("%s/.pmbench-probe.XXXXXX", dir);
	struct stat st;
	int fd, err = 0;

	if (stat(dir, &st) != 0)
		err = pm_err_set(e, -errno, "%s: directory %s: %s", path, dir,
				 strerror(errno));
	else if (!S_ISDIR(st.st_mode))
		err = pm_err_set(e, -ENOTDIR, "%s: %s is not a directory", path, dir);
	else if ((fd = mkstemp(tmp)) < 0)
		err = pm_err_set(e, -errno, "%s: cannot create a file in %s: %s",
				 path, dir, strerror(errno));
	else {
		close(fd);
		unlink(tmp);
	}
	free(tmp);
	return err;
}

/* fs.protected_symlinks: a link in a sticky world-writable directory
 * (/tmp) is followed only when its owner is us or the directory's. */
static bool untrusted_link(const char *path, const struct stat *lst)
{
	char *dir = dir_of(path);
	struct stat st;
	bool bad;

	bad = stat(dir, &st) == 0 && (st.st_mode & S_ISVTX) &&
	      (st.st_mode & S_IWOTH) && lst->st_uid != geteuid() &&
	      lst->st_uid != st.st_uid;
	free(dir);
	return bad;
}

static bool is_our_stdout(const struct stat *st)
{
	struct stat so;

	return fstat(STDOUT_FILENO, &so) == 0 && so.st_dev == st->st_dev &&
	       so.st_ino == st->st_ino;
}

static int refuse(struct pm_err *e, const char *path, const char *why)
{
	return pm_err_set(e, -EINVAL, "%s: %s", path, why);
}

int pm_output_open(struct pm_output *o, const char *path, struct pm_err *e)
{
	struct stat lst, st;
	char *dir, real[PATH_MAX];
	int err;

	memset(o, 0, sizeof(*o));
	if (!path)
		return 0;
	if (!*path)
		return pm_err_set(e, -EINVAL, "'': an empty file name");
	o->path = pm_xstrdup(path);
	if (!strcmp(path, "-")) {
		o->kind = PM_OUTPUT_STDOUT;
		return 0;
	}
	if (lstat(path, &lst) != 0) {
		if (errno != ENOENT)
			return refuse(e, path, strerror(errno));
		/* a new file */
		dir = dir_of(path);
		err = probe_dir(path, dir, e);
		free(dir);
		if (err)
			return -EINVAL;
		o->kind = PM_OUTPUT_FILE;
		o->target = pm_xstrdup(path);
		return 0;
	}
	st = lst;
	if (S_ISLNK(lst.st_mode)) {
		if (untrusted_link(path, &lst))
			return refuse(e, path, "a symbolic link owned by another user "
				      "in a sticky world-writable directory: not followed "
				      "(as fs.protected_symlinks does)");
		if (stat(path, &st) != 0)
			return refuse(e, path, errno == ENOENT ?
				      "a symbolic link to a file that does not exist: "
				      "give the path of the file to create" :
				      strerror(errno));
	}
	if (is_our_stdout(&st)) {
		/* -o /dev/stdout, or the file stdout is redirected to */
		o->kind = PM_OUTPUT_STDOUT;
		return 0;
	}
	if (S_ISDIR(st.st_mode))
		return refuse(e, path, "is a directory");
	if (S_ISBLK(st.st_mode))
		return refuse(e, path, "is a block device: a result file is not "
			      "written onto a device");
	if (S_ISSOCK(st.st_mode))
		return refuse(e, path, "is a socket");
	if (S_ISFIFO(st.st_mode) || S_ISCHR(st.st_mode)) {
		if (access(path, W_OK) != 0)
			return refuse(e, path, strerror(errno));
		o->kind = PM_OUTPUT_STREAM;
		o->target = pm_xstrdup(path);
		return 0;
	}
	if (!S_ISREG(st.st_mode))
		return refuse(e, path, "is not a regular file");
	/* a regular file, or a link to one: its directory takes the temp
	 * file, and the rename replaces the target, not the link */
	if (!realpath(path, real))
		return refuse(e, path, strerror(errno));
	dir = dir_of(real);
	err = probe_dir(path, dir, e);
	free(dir);
	if (err)
		return -EINVAL;
	o->kind = PM_OUTPUT_FILE;
	o->target = pm_xstrdup(real);
	return 0;
}

/* fflush, then the stream's error, then close: the first error wins. */
static int finish_stream(FILE *f, int err, bool close_it)
{
	if (fflush(f) != 0 && !err)
		err = errno ? -errno : -EIO;
	if (ferror(f) && !err)
		err = -EIO;
	if (close_it && fclose(f) != 0 && !err)
		err = -errno;
	return err;
}

static int write_stdout(int (*writer)(FILE *f, void *arg), void *arg)
{
	int err;

	clearerr(stdout);
	errno = 0;
	err = writer(stdout, arg);
	return finish_stream(stdout, err, false);
}

/*
 * open(2) for writing, which a stop signal interrupts: the commands catch
 * SIGINT, SIGTERM and SIGHUP with SA_RESTART, which would resume the wait
 * for a FIFO's reader forever.  Interrupted: -EINTR, and the caller keeps
 * the results in a recovery file.
 */
static int open_interruptible(const char *path)
{
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction old[3];
	size_t i;
	int fd, err;

	for (i = 0; i < 3; i++) {
		struct sigaction sa;

		sigaction(sigs[i], NULL, &old[i]);
		sa = old[i];
		sa.sa_flags &= ~SA_RESTART;
		sigaction(sigs[i], &sa, NULL);
	}
	fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);
	err = fd < 0 ? -errno : 0;
	for (i = 0; i < 3; i++)
		sigaction(sigs[i], &old[i], NULL);
	return fd < 0 ? err : fd;
}

static int write_stream(const char *path, int (*writer)(FILE *f, void *arg),
			void *arg)
{
	FILE *f;
	int fd, err;

	/* no O_CREAT, no O_TRUNC: the FIFO or device stays what it is;
	 * a FIFO blocks here until a reader opens it, as with `> fifo` */
	fd = open_interruptible(path);
	if (fd < 0)
		return fd;
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		return err;
	}
	errno = 0;
	err = writer(f, arg);
	return finish_stream(f, err, true);
}

/* A file of our own in $TMPDIR or /tmp: the results, when -o failed. */
static int write_recovery(char **where, int (*writer)(FILE *f, void *arg),
			  void *arg)
{
	const char *tmp = getenv("TMPDIR");
	char *path = pm_xasprintf("%s/pmbench-results-XXXXXX.json",
				  tmp && *tmp ? tmp : "/tmp");
	FILE *f;
	int fd, err;

	fd = mkstemps(path, 5);
	if (fd < 0) {
		err = -errno;
		free(path);
		return err;
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = -errno;
		close(fd);
		goto fail;
	}
	errno = 0;
	err = writer(f, arg);
	if (!err && fflush(f) != 0)
		err = -errno;
	if (!err && fsync(fileno(f)) != 0)
		err = -errno;
	err = finish_stream(f, err, true);
	if (!err) {
		*where = path;
		return 0;
	}
fail:
	unlink(path);
	free(path);
	return err;
}

int pm_output_write(struct pm_output *o, int (*writer)(FILE *f, void *arg),
		    void *arg, struct pm_err *e)
{
	struct pm_err we = { "" };
	int err, rerr;

	switch (o->kind) {
	case PM_OUTPUT_NONE:
		return 0;
	case PM_OUTPUT_STDOUT:
		err = write_stdout(writer, arg);
		break;
	case PM_OUTPUT_STREAM:
		err = write_stream(o->target, writer, arg);
		break;
	case PM_OUTPUT_FILE:
	default:
		err = pm_write_atomic(o->target, writer, arg, &we);
		break;
	}
	if (!err)
		return 0;
	/* the results are not lost: a recovery file, else standard output */
	rerr = write_recovery(&o->recovered, writer, arg);
	if (!rerr)
		return pm_err_set(e, err, "%s: write failed: %s; the results were "
				  "saved to %s instead", o->path, strerror(-err),
				  o->recovered);
	if (o->kind != PM_OUTPUT_STDOUT && write_stdout(writer, arg) == 0)
		return pm_err_set(e, err, "%s: write failed: %s; the results follow "
				  "on standard output (no recovery file: %s)", o->path,
				  strerror(-err), strerror(-rerr));
	return pm_err_set(e, err, "%s: write failed: %s; the results are lost "
			  "(no recovery file either: %s)", o->path, strerror(-err),
			  strerror(-rerr));
}

static int result_writer(FILE *f, void *arg)
{
	return pm_result_dump(arg, f);
}

int pm_output_write_result(struct pm_output *o, const struct pm_result *r,
			   struct pm_err *e)
{
	return pm_output_write(o, result_writer, (void *)r, e);
}

void pm_output_free(struct pm_output *o)
{
	free(o->path);
	free(o->target);
	free(o->recovered);
	memset(o, 0, sizeof(*o));
}
