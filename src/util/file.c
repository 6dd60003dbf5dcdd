/* Files: bounded reads, atomic writes, removing scratch trees. */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

/*
 * fifo: a FIFO or pipe opened with O_NONBLOCK.  While a writer has it
 * open, wait for its data as cat(1) does; with none, read() gives EOF at
 * once, and nothing read at all is -ENODATA.  Otherwise EAGAIN (a
 * terminal with nothing typed) is returned, not waited on.
 */
static int read_fd_max(int fd, size_t max, bool fifo, char **out, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = pm_xmalloc(cap);

	for (;;) {
		ssize_t r;

		if (n + 1 >= cap) {
			/* one byte past the limit tells "too big" from "exactly max" */
			if (n > max) {
				free(buf);
				return -EFBIG;
			}
			cap = cap * 2 < max + 2 ? cap * 2 : max + 2;
			buf = pm_xrealloc(buf, cap);
		}
		r = read(fd, buf + n, cap - n - 1);
		if (r < 0) {
			int err = -errno;

			if (errno == EINTR)
				continue;
			/* a writer has it open: wait for what it writes */
			if (errno == EAGAIN && fifo &&
			    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK) == 0)
				continue;
			free(buf);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max || (fifo && n == 0)) {
		free(buf);
		return n ? -EFBIG : -ENODATA;
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int pm_read_fd_max(int fd, size_t max, char **out, size_t *len)
{
	return read_fd_max(fd, max, false, out, len);
}

int pm_read_file_max(const char *path, size_t max, char **out, size_t *len)
{
	struct stat st;
	int fd, err;

	/* O_NONBLOCK: open(2) of a FIFO no process writes to would wait
	 * forever; read_fd_max() waits only for a writer there is */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) != 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if (S_ISDIR(st.st_mode)) {
		close(fd);
		return -EISDIR;
	}
	if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max) {
		close(fd);
		return -EFBIG;
	}
	err = read_fd_max(fd, max, S_ISFIFO(st.st_mode), out, len);
	close(fd);
	return err;
}

int pm_read_file(const char *path, char **out, size_t *len)
{
	return pm_read_file_max(path, PM_READ_MAX_DEFAULT, out, len);
}

int pm_read_error(struct pm_err *e, int err, const char *path, size_t max,
		  const char *what)
{
	char lim[32];

	switch (-err) {
	case EFBIG:
		pm_fmt_bytes(lim, sizeof(lim), (double)max);
		return pm_err_set(e, err, "%s: larger than %s, the limit for %s",
				  path, lim, what);
	case EISDIR:
		return pm_err_set(e, err, "%s: is a directory, not %s", path, what);
	case ENODATA:
		return pm_err_set(e, err, "%s: nothing to read: a FIFO or pipe with no writer",
				  path);
	case EAGAIN:
		return pm_err_set(e, err, "%s: not a regular file, and nothing to read "
				  "without waiting", path);
	default:
		return pm_err_set(e, err, "%s: %s", path, strerror(-err));
	}
}

int pm_read_line(const char *path, char *buf, size_t len)
{
	size_t n = 0;
	int fd;

	if (!len)
		return -EINVAL;
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	/* a line is short: read no more than the buffer holds */
	while (n + 1 < len) {
		ssize_t r = read(fd, buf + n, len - n - 1);

		if (r < 0) {
			int err = -errno;

			if (errno == EINTR)
				continue;
			close(fd);
			return err;
		}
		if (r == 0 || memchr(buf + n, '\n', (size_t)r)) {
			n += (size_t)r;
			break;
		}
		n += (size_t)r;
	}
	close(fd);
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int pm_read_long(const char *path, long *out)
{
	char buf[64], *end;
	int err;

	err = pm_read_line(path, buf, sizeof(buf));
	if (err)
		return err;
	errno = 0;
	*out = strtol(buf, &end, 0);
	if (errno || end == buf)
		return -EINVAL;
	return 0;
}

static char *pm_dirname_dup(const char *path)
{
	char *copy = pm_xstrdup(path), *dir = pm_xstrdup(dirname(copy));

	free(copy);
	return dir;
}

int pm_check_writable(const char *path, struct pm_err *e)
{
	char *dir = pm_dirname_dup(path);
	struct stat st;
	int err = 0;

	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		err = pm_err_set(e, -EISDIR, "%s: is a directory", path);
	else if (access(dir, W_OK | X_OK) != 0)
		err = pm_err_set(e, -errno, "%s: cannot write in %s: %s", path,
				 dir, strerror(errno));
	free(dir);
	return err;
}

int pm_write_atomic(const char *path, int (*writer)(FILE *f, void *arg),
		    void *arg, struct pm_err *e)
{
	char *dir = pm_dirname_dup(path), *base, *tmp, *copy;
	struct stat st;
	FILE *f;
	int fd, err;

	copy = pm_xstrdup(path);
	base = basename(copy);
	tmp = pm_xasprintf("%s/.%s.XXXXXX", dir, base);
	free(copy);
	fd = mkstemp(tmp);
	if (fd < 0) {
		err = pm_err_set(e, -errno, "%s: cannot create a file in %s: %s",
				 path, dir, strerror(errno));
		goto out;
	}
	/* mkstemp makes 0600; a result file is an ordinary document. */
	{
		mode_t um = umask(0);

		umask(um);
		fchmod(fd, 0666 & ~um);
	}
	f = fdopen(fd, "w");
	if (!f) {
		err = pm_err_set(e, -errno, "%s: %s", path, strerror(errno));
		close(fd);
		unlink(tmp);
		goto out;
	}
	err = writer(f, arg);
	if (!err && fflush(f) != 0)
		err = -errno;
	if (!err && fsync(fileno(f)) != 0)
		err = -errno;
	if (fclose(f) != 0 && !err)
		err = -errno;
	if (err) {
		pm_err_set(e, err, "%s: write failed: %s", path, strerror(-err));
		unlink(tmp);
		goto out;
	}
	/* rename(2) replaces whatever is there: only ever a regular file
	 * (never a device, a FIFO or a symbolic link) */
	if (lstat(path, &st) == 0 && !S_ISREG(st.st_mode)) {
		err = pm_err_set(e, -EEXIST, "%s: exists and is not a regular file: not replaced",
				 path);
		unlink(tmp);
	} else if (rename(tmp, path) != 0) {
		err = pm_err_set(e, -errno, "%s: cannot rename %s into place: %s",
				 path, tmp, strerror(errno));
		unlink(tmp);
	} else {
		/* the rename itself survives a crash once the directory is synced */
		int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		if (dfd >= 0) {
			fsync(dfd);
			close(dfd);
		}
	}
out:
	free(tmp);
	free(dir);
	return err;
}

int pm_mkdir_p(const char *path, mode_t mode)
{
	char *p = pm_xstrdup(path), *s = p, c;
	struct stat st;
	int err = 0;

	/* each prefix ending at a component, "a//b/" as "a/b" */
	do {
		s += strspn(s, "/");
		s += strcspn(s, "/");
		c = *s;
		*s = '\0';
		if (mkdir(p, mode) != 0 && errno != EEXIST)
			err = -errno;
		*s = c;
	} while (!err && c);
	/* EEXIST also says "a file of that name": the end must be a directory */
	if (!err && stat(path, &st) != 0)
		err = -errno;
	else if (!err && !S_ISDIR(st.st_mode))
		err = -ENOTDIR;
	free(p);
	return err;
}

/* getdents64 record, as the kernel writes it. */
struct pm_dirent64 {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* Only async-signal-safe calls: this also runs from the SIGINT handler. */
static int pm_rmtree_at(int dirfd)
{
	char buf[4096];
	int ret = 0, pass;

	/* Removing entries while reading may skip some: read again while a
	 * pass still removed something. */
	for (pass = 0; pass < 4; pass++) {
		int removed = 0;

		lseek(dirfd, 0, SEEK_SET);
		for (;;) {
			long n = syscall(SYS_getdents64, dirfd, buf, sizeof(buf));
			long off;

			if (n <= 0)
				break;
			for (off = 0; off < n;) {
				struct pm_dirent64 *d = (void *)(buf + off);
				int flags = 0;

				off += d->d_reclen;
				if (d->d_name[0] == '.' && (d->d_name[1] == '\0' ||
				    (d->d_name[1] == '.' && d->d_name[2] == '\0')))
					continue;
				if (d->d_type == DT_DIR) {
					int sub = openat(dirfd, d->d_name,
							 O_RDONLY | O_DIRECTORY |
							 O_NOFOLLOW | O_CLOEXEC);
					if (sub >= 0) {
						pm_rmtree_at(sub);
						close(sub);
					}
					flags = AT_REMOVEDIR;
				}
				if (unlinkat(dirfd, d->d_name, flags) == 0)
					removed++;
				else
					ret = -errno;
			}
		}
		if (!removed)
			break;
	}
	return ret;
}

int pm_rmtree(const char *path)
{
	int fd, ret;

	fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ret = pm_rmtree_at(fd);
	close(fd);
	if (rmdir(path) != 0)
		ret = -errno;
	return ret;
}

int pm_rmtree_fd(int parent, const char *name, int fd)
{
	int ret = pm_rmtree_at(fd);

	if (unlinkat(parent, name, AT_REMOVEDIR) != 0)
		ret = -errno;
	return ret;
}
