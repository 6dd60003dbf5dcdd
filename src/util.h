/*
 * Small shared helpers, one header for all: each concern has its file
 * in src/util/ (buf, err, mem, file, fmt, str, path); the clock and pm_sort
 * are inline here.
 */
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

#include "util/buf.h"
#include "util/err.h"
#include "util/file.h"
#include "util/fmt.h"
#include "util/mem.h"
#include "util/path.h"
#include "util/str.h"

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

#endif
