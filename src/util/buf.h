/* A growing string, as git's strbuf (src/util/buf.c) */
#ifndef PM_UTIL_BUF_H
#define PM_UTIL_BUF_H

#include <stdarg.h>
#include <stddef.h>

/* s is always NUL-terminated ("" when empty), len its length. */
struct pm_buf {
	char *s;
	size_t len, cap;
};

#define PM_BUF_INIT { NULL, 0, 0 }

/* Append text, or printf-style text. */
void pm_buf_add(struct pm_buf *b, const char *text);
void pm_buf_addf(struct pm_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Append sep first unless b is empty: lists "a, b, c". */
void pm_buf_sep(struct pm_buf *b, const char *sep);
/* The string ("" when nothing was added), b emptied; free it. */
char *pm_buf_detach(struct pm_buf *b);
/* The string as it stands ("" when empty), b kept. */
const char *pm_buf_str(const struct pm_buf *b);
void pm_buf_free(struct pm_buf *b);

#endif
