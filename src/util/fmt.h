/* Figures for people: times, counts, sizes (src/util/fmt.c) */
#ifndef PM_UTIL_FMT_H
#define PM_UTIL_FMT_H

#include <stdbool.h>
#include <stddef.h>

/* "64 MiB" */
void pm_fmt_bytes(char *buf, size_t len, double bytes);

/* Human formatting of a time in nanoseconds: "95.3 ns", "1.21 us", ... */
void pm_fmt_time(char *buf, size_t len, double ns);
/* Count with SI suffix: "1.23 K", "0.25". */
void pm_fmt_count(char *buf, size_t len, double v);

/* The time now in a strftime format, UTC or local (owned). */
char *pm_fmt_now(const char *format, bool utc) __attribute__((format(strftime, 1, 0)));
/* As result files record it: "2026-12-04T12:09:58Z". */
#define PM_TIME_RESULT "%Y-%m-%dT%H:%M:%SZ"

#endif
