/* Allocation that cannot fail (src/util/mem.c) */
#ifndef PM_UTIL_MEM_H
#define PM_UTIL_MEM_H

#include <stdarg.h>
#include <stddef.h>

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
char *pm_xvasprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));

#endif
