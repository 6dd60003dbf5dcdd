/* Small shared helpers: error messages, time, files, strings. */
#ifndef PM_UTIL_H
#define PM_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define PM_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/*
 * Library code reports failure as a negative errno and a message in a
 * struct pm_err; only cmd_* code prints and picks exit codes.
 * -EINVAL (and -EBADMSG) mean "bad input": exit status 2.
 */
struct pm_err {
	char msg[1024];
};

int pm_err_set(struct pm_err *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Monotonic raw clock in nanoseconds: the benchmark clock. */
static inline uint64_t pm_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/*
 * qsort for arrays that may be empty: qsort's base must not be NULL even
 * when n is 0 (C11 7.22.5), and an empty list is often a NULL pointer.
 */
static inline void pm_sort(void *base, size_t n, size_t size,
			   int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

void *pm_xmalloc(size_t n);
void *pm_xcalloc(size_t n, size_t size);
void *pm_xrealloc(void *p, size_t n);
/*
 * Room for element n of an array that holds n elements of size each:
 * grows geometrically (at powers of two), so appending n elements one at
 * a time costs O(n) copying, not O(n^2).  Overflow is out of memory.
 */
void *pm_xgrow(void *p, size_t n, size_t size);
char *pm_xstrdup(const char *s);
char *pm_xasprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

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

/* Read a whole file, at most max bytes (-EFBIG beyond); NUL-terminated. */
int pm_read_file_max(const char *path, size_t max, char **out, size_t *len);
/* The same from an open descriptor (not closed). */
int pm_read_fd_max(int fd, size_t max, char **out, size_t *len);
/* pm_read_file_max with PM_READ_MAX_DEFAULT (/proc and /sys files). */
int pm_read_file(const char *path, char **out, size_t *len);
/* First line of a file (at most len - 1 bytes read), newline removed. */
int pm_read_line(const char *path, char *buf, size_t len);
/* "64 MiB" */
void pm_fmt_bytes(char *buf, size_t len, double bytes);
/*
 * A message for a failed read of a user-given file: "PATH: is a
 * directory", "PATH: larger than 16 MiB, the limit for WHAT", ...
 */
int pm_read_error(struct pm_err *e, int err, const char *path, size_t max,
		  const char *what);
int pm_read_long(const char *path, long *out);
/* Trim white space in place, return s. */
char *pm_strtrim(char *s);

/*
 * Write a file atomically: a temporary file in the same directory,
 * fsync, rename.  The writer callback gets the open stream.
 */
int pm_write_atomic(const char *path, int (*writer)(FILE *f, void *arg),
		    void *arg, struct pm_err *e);
/* Can a file be created at path?  Checked before long work starts. */
int pm_check_writable(const char *path, struct pm_err *e);

/* Human formatting of a time in nanoseconds: "95.3 ns", "1.21 us", ... */
void pm_fmt_time(char *buf, size_t len, double ns);
/* Count with SI suffix: "1.23 K", "0.25". */
void pm_fmt_count(char *buf, size_t len, double v);

/* Where installed or in-tree data (events/, man/) lives. */
const char *pm_datadir(void);
const char *pm_mandir(void);
const char *pm_libexecdir(void);

/* Is stderr a terminal (progress lines)? */
bool pm_stderr_is_tty(void);

/* Remove a directory tree using only async-signal-safe calls. */
int pm_rmtree(const char *path);

/* "a,b,c" has no empty element ("", "a,,b", "a," are not lists). */
bool pm_list_valid(const char *s, char sep);
/* Split "a,b,c" into a NULL-terminated vector (free with pm_strv_free). */
char **pm_strv_split(const char *s, char sep);
void pm_strv_free(char **v);
size_t pm_strv_len(char *const *v);

/* A string as one /bin/sh word: as is when it needs no quoting. */
char *pm_sh_quote(const char *s);

#endif
