/* Figures for people: times, counts, sizes; the time of day for results. */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "util.h"

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

char *pm_fmt_now(const char *format, bool utc)
{
	char buf[128];
	time_t t = time(NULL);
	struct tm tm;

	if (utc)
		gmtime_r(&t, &tm);
	else
		localtime_r(&t, &tm);
	/* the attribute in fmt.h checks the callers' formats */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	if (!strftime(buf, sizeof(buf), format, &tm))
		buf[0] = '\0';
#pragma GCC diagnostic pop
	return pm_xstrdup(buf);
}
