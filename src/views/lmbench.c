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

/* getsummary's "%-9.9s %13.13s": a row's Host and OS fields. */
static void row_key(char *buf, size_t size, const char *host, const struct pm_result *r)
{
	const char *rel = si_str(r, PM_FP_KERNEL_RELEASE);
	char os[64];

	snprintf(os, sizeof(os), "Linux %s", rel ? rel : "");
	snprintf(buf, size, "%-9.9s %13.13s", host, os);
}

/* Does the row of file i read as another's, its Host cell being host[i]? */
static bool reads_alike(const struct pm_result *const *runs, char **host, size_t n, size_t i)
{
	char a[32], b[32];
	size_t j;

	row_key(a, sizeof(a), host[i], runs[i]);
	for (j = 0; j < n; j++) {
		row_key(b, sizeof(b), host[j], runs[j]);
		if (j != i && !strcmp(a, b))
			return true;
	}
	return false;
}

/*
 * The Host cell of each file.  getsummary prints the name of the result
 * file, which lmbench names after the host; pmbench prints the host name.
 * Files whose rows would read alike (one host and OS, as cut to their
 * fields) get the file's own name instead (names[i]: its label, else the
 * file name, as the side-by-side header names it); names that still read
 * alike, cut shorter with "#N", N the file's place on the command line.
 * Without names, the rows as lmbench printed them (pmbench import).
 */
static char **host_cells(const struct pm_result *const *runs, const char *const *names,
			 size_t n)
{
	char **host = pm_xcalloc(n ? n : 1, sizeof(*host));
	bool *alike = pm_xcalloc(n ? n : 1, sizeof(*alike));
	size_t i;

	for (i = 0; i < n; i++) {
		const char *h = si_str(runs[i], PM_FP_HOSTNAME);

		host[i] = pm_xstrdup(h ? h : "");
	}
	if (!names) {
		free(alike);
		return host;
	}
	for (i = 0; i < n; i++)
		alike[i] = reads_alike(runs, host, n, i);
	for (i = 0; i < n; i++)
		if (alike[i]) {
			free(host[i]);
			host[i] = pm_xstrdup(names[i]);
		}
	for (i = 0; i < n; i++)
		alike[i] = reads_alike(runs, host, n, i);
	for (i = 0; i < n; i++)
		if (alike[i]) {
			char num[24], *t;
			int len = snprintf(num, sizeof(num), "#%zu", i + 1);

			t = pm_xasprintf("%.*s%s", len < 9 ? 9 - len : 0, host[i], num);
			free(host[i]);
			host[i] = t;
		}
	free(alike);
	return host;
}

static void render_row(const struct pm_lmb_section *s, const struct pm_result *r,
		       const char *host, FILE *f)
{
	char line[512], field[64];
	size_t c, n;
	double v;

	row_key(line, sizeof(line), host, r);
	n = strlen(line);
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

void pm_render_lmbench(const struct pm_result *const *runs, const char *const *names,
		       size_t n, FILE *f)
{
	char **host = host_cells(runs, names, n);
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
				render_row(sec, runs[i], host[i], f);
	}
	for (i = 0; i < n; i++)
		free(host[i]);
	free(host);
}
