/*
 * The lmbench 3 summary of results (show --format lmbench), in the layout
 * of results/lmbench.c: one row per result, as getsummary prints it.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "results/catalog.h"
#include "results/lmbench.h"
#include "sysinfo/sysinfo.h"
#include "views/render.h"

/* getsummary's inum(): "%<len>d", blanks when not positive. */
static void lmb_inum(char *buf, size_t size, double v, int len)
{
	if (!(v > 0) || !isfinite(v) || v > 1e15)
		snprintf(buf, size, "%*s", len, "");
	else
		snprintf(buf, size, "%*lld", len, (long long)v);
}

static const struct pm_bench_result *by_key(const struct pm_result *r,
					    const char *key)
{
	size_t i;

	for (i = 0; key && i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];

		struct pm_bench_ident now;

		if (!b->lmbench || strcmp(b->lmbench, key) ||
		    b->status != PM_BENCH_OK || b->stats.n == 0)
			continue;
		/* An older file's benchmark that no longer stands for the
		 * column (page-fault, before page-fault-lmb took lmbench's
		 * definition): its figure is not lmbench's. */
		if (pm_catalog_by_name(b->name, &now) &&
		    (!now.lmbench || strcmp(now.lmbench, key)))
			continue;
		return b;
	}
	return NULL;
}

/* A run's figure for a column, in the column's unit. */
static bool figure(const struct pm_result *r, const struct pm_lmb_column *c,
		   double *v)
{
	const struct pm_bench_result *b = by_key(r, c->key);
	double ns;

	if (!b)
		b = by_key(r, c->alt);
	if (!b)
		return false;
	/* the figure every view shows; a measured parameter its median */
	if (b->measured) {
		ns = b->stats.median;
	} else {
		struct pm_figure f;

		if (!pm_render_figure(b, &f))
			return false;
		ns = f.value;
	}
	if (b->measured)
		*v = ns;
	else if (!strcmp(pm_lmb_unit(c), "MB/s"))
		*v = b->unit && !strcmp(b->unit, "MB/s") ? pm_bench_result_value(b, ns) : NAN;
	else if (!strcmp(pm_lmb_unit(c), "us"))
		*v = ns / 1e3;
	else
		*v = ns;
	return isfinite(*v) && *v > 0;
}

static bool section_has_figures(const struct pm_lmb_section *s,
				const struct pm_result *r)
{
	size_t c;
	double v;

	for (c = 0; c < s->ncols; c++)
		if (s->cols[c].kind == PM_LMB_FIGURE && figure(r, &s->cols[c], &v))
			return true;
	return false;
}

static const char *si_str(const struct pm_result *r, enum pm_fp_key key)
{
	const json_t *j = pm_sysinfo_at(r->sysinfo, key);

	return json_is_string(j) ? json_string_value(j) : NULL;
}

static double mhz_of(const struct pm_result *r)
{
	const json_t *j = pm_sysinfo_at(r->sysinfo, PM_FP_CPU_CUR_MHZ);

	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* lmbench's results directory name, e.g. "i686-pc-linux-gnu". */
static void description(const struct pm_result *r, char *buf, size_t size)
{
	const json_t *imp = json_object_get(r->options, "import");
	const char *d = json_string_value(json_object_get(imp, "description"));
	const char *mach = si_str(r, PM_FP_KERNEL_MACHINE);

	if (d)
		snprintf(buf, size, "%s", d);
	else if (mach)
		snprintf(buf, size, "%s-linux-gnu", mach);
	else
		buf[0] = '\0';
}

/* getsummary's check_caches(): within 20% means "the same level". */
static bool same(double a, double b)
{
	double hi = a > b ? a : b;

	return hi > 0 && fabs(a - b) / hi * 100 <= 20;
}

static const char *guess(const struct pm_result *r, const struct pm_lmb_section *s)
{
	double l1, l2, mem;

	if (!figure(r, &s->cols[1], &l1) || !figure(r, &s->cols[2], &l2) ||
	    !figure(r, &s->cols[3], &mem))
		return "";
	if (!same(l1, l2) && same(l2, mem))
		return "    No L2 cache?";
	if (same(l1, l2))
		return "    No L1 cache?";
	return "";
}

static void put_line(FILE *f, const char *line)
{
	size_t n = strlen(line);

	while (n > 0 && line[n - 1] == ' ')
		n--;
	fprintf(f, "%.*s\n", (int)n, line);
}

static void render_row(const struct pm_lmb_section *s, const struct pm_result *r,
		       FILE *f)
{
	const char *host = si_str(r, PM_FP_HOSTNAME), *rel = si_str(r, PM_FP_KERNEL_RELEASE);
	char line[512], field[64], os[64];
	size_t c, n;
	double v;

	snprintf(os, sizeof(os), "Linux %s", rel ? rel : "");
	n = (size_t)snprintf(line, sizeof(line), "%-9.9s %13.13s", host ? host : "", os);
	for (c = 0; c < s->ncols && n < sizeof(line); c++) {
		const struct pm_lmb_column *col = &s->cols[c];

		field[0] = '\0';
		switch (col->kind) {
		case PM_LMB_FIGURE:
			if (!figure(r, col, &v))
				v = NAN;
			if (col->fmt == PM_LMB_INUM)
				lmb_inum(field, sizeof(field), v, col->len);
			else
				pm_lmb_num(field, sizeof(field), v, col->len);
			break;
		case PM_LMB_MHZ:
			v = mhz_of(r);
			if (col->fmt == PM_LMB_INUM || !(v > 0))
				lmb_inum(field, sizeof(field), v, col->len);
			else if (col->fmt == PM_LMB_FIXED)
				snprintf(field, sizeof(field), "%*.0f", col->len, v);
			else
				snprintf(field, sizeof(field), "%*lld", col->len, (long long)v);
			break;
		case PM_LMB_DESC:
			description(r, field, sizeof(field));
			break;
		case PM_LMB_GUESS:
			n += (size_t)snprintf(line + n, sizeof(line) - n, "%s", guess(r, s));
			continue;
		}
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%s%*.*s", col->sep,
				      col->width, col->width, field);
	}
	put_line(f, line);
}

void pm_render_lmbench(const struct pm_result *const *runs, size_t n, FILE *f)
{
	bool first = true;
	size_t s, i, h;

	for (s = 0; s < pm_lmb_nsections; s++) {
		const struct pm_lmb_section *sec = &pm_lmb_sections[s];
		bool shown = false;

		for (i = 0; i < n && !shown; i++)
			shown = section_has_figures(sec, runs[i]);
		if (!shown)
			continue;
		if (!first)
			fputc('\n', f);
		first = false;
		put_line(f, sec->title);
		if (sec->subtitle)
			put_line(f, sec->subtitle);
		put_line(f, sec->rule);
		for (h = 0; h < PM_LMB_MAX_HEADS && sec->heads[h]; h++)
			put_line(f, sec->heads[h]);
		put_line(f, sec->dashes);
		for (i = 0; i < n; i++)
			if (section_has_figures(sec, runs[i]))
				render_row(sec, runs[i], f);
	}
}
