#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "util.h"

int pm_err_set(struct pm_err *e, int err, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return err;
}

/* Out of memory is the one error we do not try to survive. */
static void *pm_oom(void)
{
	static const char msg[] = "pmbench: out of memory\n";

	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(1);
	abort();
}

void *pm_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	return p ? p : pm_oom();
}

void *pm_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	return p ? p : pm_oom();
}

void *pm_xrealloc(void *p, size_t n)
{
	void *q = realloc(p, n ? n : 1);

	return q ? q : pm_oom();
}

char *pm_xstrdup(const char *s)
{
	char *p;

	if (!s)
		return NULL;
	p = strdup(s);
	return p ? p : pm_oom();
}

char *pm_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		return pm_oom();
	return s;
}

void *pm_xgrow(void *p, size_t n, size_t size)
{
	size_t cap;

	/* the capacity is the next power of two: grow when n reaches it */
	if (n && (n & (n - 1)))
		return p;
	cap = n ? 2 * n : 1;
	if (cap < n || (size && cap > SIZE_MAX / size))
		return pm_oom();
	return pm_xrealloc(p, cap * size);
}

int pm_read_fd_max(int fd, size_t max, char **out, size_t *len)
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
			free(buf);
			return err;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	if (n > max) {
		free(buf);
		return -EFBIG;
	}
	buf[n] = '\0';
	*out = buf;
	if (len)
		*len = n;
	return 0;
}

int pm_read_file_max(const char *path, size_t max, char **out, size_t *len)
{
	struct stat st;
	int fd, err;

	/* a FIFO waits for its writer, as cat(1) does */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) == 0) {
		if (S_ISDIR(st.st_mode)) {
			close(fd);
			return -EISDIR;
		}
		if (S_ISREG(st.st_mode) && (uintmax_t)st.st_size > max) {
			close(fd);
			return -EFBIG;
		}
	}
	err = pm_read_fd_max(fd, max, out, len);
	close(fd);
	return err;
}

int pm_read_file(const char *path, char **out, size_t *len)
{
	return pm_read_file_max(path, PM_READ_MAX_DEFAULT, out, len);
}

void pm_fmt_bytes(char *buf, size_t len, double bytes)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB", "TiB" };
	size_t i = 0;

	while (bytes >= 1024 && i + 1 < PM_ARRAY_SIZE(units)) {
		bytes /= 1024;
		i++;
	}
	if (i == 0 || bytes == floor(bytes))
		snprintf(buf, len, "%.0f %s", bytes, units[i]);
	else
		snprintf(buf, len, "%.1f %s", bytes, units[i]);
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

char *pm_strtrim(char *s)
{
	char *end;

	while (*s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
		s++;
	end = s + strlen(s);
	while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			   end[-1] == '\n' || end[-1] == '\r'))
		*--end = '\0';
	return s;
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

void pm_fmt_time(char *buf, size_t len, double ns)
{
	static const struct {
		double scale;
		const char *unit;
	} units[] = {
		{ 1e9, "s" }, { 1e6, "ms" }, { 1e3, "us" }, { 1, "ns" },
	};
	size_t i;

	if (isnan(ns)) {
		snprintf(buf, len, "-");
		return;
	}
	for (i = 0; i < PM_ARRAY_SIZE(units) - 1; i++)
		if (fabs(ns) >= units[i].scale)
			break;
	ns /= units[i].scale;
	if (fabs(ns) >= 100)
		snprintf(buf, len, "%.0f %s", ns, units[i].unit);
	else if (fabs(ns) >= 10)
		snprintf(buf, len, "%.1f %s", ns, units[i].unit);
	else
		snprintf(buf, len, "%.2f %s", ns, units[i].unit);
}

void pm_fmt_count(char *buf, size_t len, double v)
{
	static const struct {
		double scale;
		const char *suffix;
	} units[] = {
		{ 1e9, "G" }, { 1e6, "M" }, { 1e3, "K" },
	};
	size_t i;

	if (isnan(v)) {
		snprintf(buf, len, "-");
		return;
	}
	for (i = 0; i < PM_ARRAY_SIZE(units); i++) {
		if (fabs(v) >= units[i].scale * 10) {
			snprintf(buf, len, "%.1f%s", v / units[i].scale,
				 units[i].suffix);
			return;
		}
	}
	if (v == 0)
		snprintf(buf, len, "0");
	else if (fabs(v) >= 100)
		snprintf(buf, len, "%.0f", v);
	else if (fabs(v) >= 10)
		snprintf(buf, len, "%.1f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/*
 * Data lives in $PMBENCH_DATADIR, else in the source tree when the
 * program runs from its build tree (so ./pmbench works before install),
 * else where `make install` put it.
 */
static bool pm_running_in_build_tree(void)
{
	static int cached = -1;
	char exe[PATH_MAX], build[PATH_MAX];
	ssize_t n;

	if (cached >= 0)
		return cached;
	cached = 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	if (!realpath(PM_ABS_BUILDDIR, build))
		return false;
	*strrchr(exe, '/') = '\0';
	cached = strcmp(exe, build) == 0;
	return cached;
}

const char *pm_datadir(void)
{
	const char *env = getenv("PMBENCH_DATADIR");

	if (env && *env)
		return env;
	if (pm_running_in_build_tree())
		return PM_ABS_SRCDIR;
	return PM_PKGDATADIR;
}

const char *pm_mandir(void)
{
	static char buf[PATH_MAX];
	const char *env = getenv("PMBENCH_DATADIR");

	if ((env && *env) || pm_running_in_build_tree()) {
		snprintf(buf, sizeof(buf), "%s/man", pm_datadir());
		return buf;
	}
	return PM_MANDIR;
}

const char *pm_libexecdir(void)
{
	const char *env = getenv("PMBENCH_LIBEXECDIR");

	if (env && *env)
		return env;
	if (pm_running_in_build_tree())
		return PM_ABS_BUILDDIR;
	return PM_PKGLIBEXECDIR;
}

bool pm_stderr_is_tty(void)
{
	return isatty(2);
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

bool pm_list_valid(const char *s, char sep)
{
	const char *p = s;

	for (;;) {
		const char *end = strchr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (strspn(p, " \t\n") >= len)
			return false;
		if (!end)
			return true;
		p = end + 1;
	}
}

char **pm_strv_split(const char *s, char sep)
{
	size_t n = 1, i = 0;
	const char *p;
	char **v;

	for (p = s; *p; p++)
		if (*p == sep)
			n++;
	v = pm_xcalloc(n + 1, sizeof(*v));
	for (p = s;;) {
		const char *end = strchr(p, sep);
		size_t len = end ? (size_t)(end - p) : strlen(p);
		char *item = pm_xmalloc(len + 1);

		memcpy(item, p, len);
		item[len] = '\0';
		char *t = pm_strtrim(item);

		if (*t) {
			memmove(item, t, strlen(t) + 1);
			v[i++] = item;
		} else {
			free(item);
		}
		if (!end)
			break;
		p = end + 1;
	}
	v[i] = NULL;
	return v;
}

void pm_strv_free(char **v)
{
	size_t i;

	if (!v)
		return;
	for (i = 0; v[i]; i++)
		free(v[i]);
	free(v);
}

size_t pm_strv_len(char *const *v)
{
	size_t n = 0;

	while (v && v[n])
		n++;
	return n;
}

char *pm_sh_quote(const char *s)
{
	size_t i, n = 3;
	char *q, *p;

	if (*s && strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
			 "0123456789/._-+,:@%") == strlen(s))
		return pm_xstrdup(s);
	for (i = 0; s[i]; i++)
		n += s[i] == '\'' ? 4 : 1;
	p = q = pm_xmalloc(n);
	*p++ = '\'';
	for (i = 0; s[i]; i++) {
		if (s[i] == '\'') {
			memcpy(p, "'\\''", 4);
			p += 4;
		} else {
			*p++ = s[i];
		}
	}
	*p++ = '\'';
	*p = '\0';
	return q;
}
