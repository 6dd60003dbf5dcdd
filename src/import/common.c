/*
 * What the importers share: text as result files need it, plain
 * numbers, and the result of an import (its fingerprint, its figures).
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/common.h"
#include "sysinfo/sysinfo.h"

/* ---- text ---- */

/* The length of the valid UTF-8 sequence at p (what jansson accepts), or
 * 0. */
static size_t utf8_len(const unsigned char *p)
{
	unsigned cp;
	size_t n, i;

	if (p[0] < 0x80)
		return 1;
	if (p[0] >= 0xc2 && p[0] <= 0xdf)
		n = 2, cp = p[0] & 0x1f;
	else if (p[0] >= 0xe0 && p[0] <= 0xef)
		n = 3, cp = p[0] & 0x0f;
	else if (p[0] >= 0xf0 && p[0] <= 0xf4)
		n = 4, cp = p[0] & 0x07;
	else
		return 0;
	for (i = 1; i < n; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/* A copy of text in UTF-8, as result files need it: a byte that is not
 * part of valid UTF-8 is read as Latin-1, as old mails often are. */
char *pm_import_utf8_copy(const char *text)
{
	size_t len = strlen(text), i, n, o = 0;
	char *out = pm_xmalloc(2 * len + 1);

	for (i = 0; i < len; i += n) {
		n = utf8_len((const unsigned char *)text + i);
		if (n) {
			memcpy(out + o, text + i, n);
			o += n;
		} else {
			unsigned char b = (unsigned char)text[i];

			out[o++] = (char)(0xc0 | b >> 6);
			out[o++] = (char)(0x80 | (b & 0x3f));
			n = 1;
		}
	}
	out[o] = '\0';
	return out;
}

/* Length of a line's "> > " quote marks. */
size_t pm_import_quote_len(const char *p, size_t len)
{
	size_t i, q = 0;

	for (i = 0; i < len && (p[i] == '>' || p[i] == ' ' || p[i] == '\t'); i++)
		if (p[i] == '>')
			q = i + 1;
	return q;
}

/* A plain decimal as AIM9 prints it ("%g", "%.2f"). */
bool pm_import_plain_number(const char *s, double *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	*out = strtod(s, &end);
	return !*end && isfinite(*out);
}

/* ---- building results ---- */

static const enum pm_fp_key not_in_summary[] = {
	PM_FP_KERNEL_VERSION, PM_FP_KERNEL_MACHINE, PM_FP_KERNEL_CONFIG, PM_FP_KERNEL_CMDLINE,
	PM_FP_CPU_VENDOR, PM_FP_CPU_MODEL_NAME, PM_FP_CPU_ONLINE, PM_FP_CPU_CACHES,
	PM_FP_MEMORY_TOTAL_KB, PM_FP_VULNERABILITIES, PM_FP_CLOCKSOURCE_CURRENT, PM_FP_LIBC,
};

/* The fingerprint of an import: host, release and clock (NULL: null,
 * with why in unavailable), and why the rest is missing. */
json_t *pm_import_sysinfo(const char *host, const char *release, json_t *mhz,
			      const char *why)
{
	json_t *si = json_object();
	size_t i;

	pm_sysinfo_set(si, PM_FP_HOSTNAME, host ? json_string(host) : json_null());
	pm_sysinfo_set(si, PM_FP_KERNEL_RELEASE, release ? json_string(release) : json_null());
	pm_sysinfo_set(si, PM_FP_CPU_CUR_MHZ, mhz);
	for (i = 0; i < PM_ARRAY_SIZE(not_in_summary); i++)
		pm_sysinfo_set_unavailable(si, not_in_summary[i], why);
	if (!host)
		pm_sysinfo_set_unavailable(si, PM_FP_HOSTNAME, why);
	if (!release)
		pm_sysinfo_set_unavailable(si, PM_FP_KERNEL_RELEASE, why);
	return si;
}

struct pm_bench_result *pm_import_add_bench(struct pm_result *r, double trial)
{
	struct pm_bench_result *b = pm_result_add(r);

	b->status = PM_BENCH_OK;
	b->overhead_ns = NAN;
	b->elapsed_s = NAN;
	b->ntrials = 1;
	b->trials = pm_xmalloc(sizeof(double));
	b->trials[0] = trial;
	pm_summarize(b->trials, 1, PM_LEVEL, &b->stats);
	return b;
}
void pm_import_free(struct pm_result *runs, size_t n)
{
	size_t i;

	for (i = 0; runs && i < n; i++)
		pm_result_free(&runs[i]);
	free(runs);
}
