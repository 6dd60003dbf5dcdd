/* Allocation that cannot fail: out of memory ends the program. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

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

char *pm_xvasprintf(const char *fmt, va_list ap)
{
	char *s;

	if (vasprintf(&s, fmt, ap) < 0)
		return pm_oom();
	return s;
}

char *pm_xasprintf(const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	s = pm_xvasprintf(fmt, ap);
	va_end(ap);
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
