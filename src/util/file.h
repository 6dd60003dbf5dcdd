/* Files: bounded reads, atomic writes, scratch trees (src/util/file.c) */
#ifndef PM_UTIL_FILE_H
#define PM_UTIL_FILE_H

#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#include "util/err.h"

/*
 * Every reader has a size limit, so that an endless file (/dev/zero, a
 * FIFO fed by `yes`) or a huge one fails with -EFBIG instead of growing
 * until the kernel kills pmbench.  The default covers /proc/kallsyms of
 * a large kernel with many modules; pm_input_limit_text() describes a
 * limit for messages ("64 MiB").
 */
#define PM_READ_MAX_DEFAULT	(64u << 20)
#define PM_READ_MAX_RESULT	(128u << 20)	/* a result file (pmbench-result(5)) */
#define PM_READ_MAX_IMPORT	(16u << 20)	/* a report to import */
#define PM_READ_MAX_ALIASES	(1u << 20)	/* an event alias file */
#define PM_READ_MAX_CONFIG	(16u << 20)	/* the kernel config, uncompressed */

/*
 * Read a whole file, at most max bytes (-EFBIG beyond); NUL-terminated.
 * Never waits in open(2): a FIFO with no writer is -ENODATA, a device
 * with nothing to read yet (a terminal) -EAGAIN.
 */
int pm_read_file_max(const char *path, size_t max, char **out, size_t *len);
/* The same from an open descriptor (not closed). */
int pm_read_fd_max(int fd, size_t max, char **out, size_t *len);
/* pm_read_file_max with PM_READ_MAX_DEFAULT (/proc and /sys files). */
int pm_read_file(const char *path, char **out, size_t *len);
/* First line of a file (at most len - 1 bytes read), newline removed. */
int pm_read_line(const char *path, char *buf, size_t len);

/*
 * A message for a failed read of a user-given file: "PATH: is a
 * directory", "PATH: larger than 16 MiB, the limit for WHAT", ...
 */
int pm_read_error(struct pm_err *e, int err, const char *path, size_t max,
		  const char *what);
int pm_read_long(const char *path, long *out);

/*
 * Write a file atomically: a temporary file in the same directory,
 * fsync, rename.  The writer callback gets the open stream.
 */
int pm_write_atomic(const char *path, int (*writer)(FILE *f, void *arg),
		    void *arg, struct pm_err *e);
/* Can a file be created at path?  Checked before long work starts. */
int pm_check_writable(const char *path, struct pm_err *e);

/*
 * Like mkdir -p: every missing directory of path made with mode (less
 * the umask); stops at the first that cannot be.  0, or -errno (-ENOTDIR
 * when path or one of its parents exists and is not a directory).
 */
int pm_mkdir_p(const char *path, mode_t mode);

/* Remove a directory tree using only async-signal-safe calls. */
int pm_rmtree(const char *path);
/* The same for the directory open as fd (checked through it: ownership,
 * a lock), whose entry in the directory parent is name. */
int pm_rmtree_fd(int parent, const char *name, int fd);

#endif
