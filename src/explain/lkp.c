/*
 * explain --format lkp: the comparison as Intel's 0-day (LKP) robot
 * mails print it, so that a kernel engineer used to them reads it at
 * once: one row per metric, OLD with its %stddev, the %change, NEW with
 * its %stddev, the metric's name.  Every figure is explain's own (the
 * sides' estimates, the kernel/user split, counters and kernel symbols
 * per op, as the text report shows them); %stddev is the spread explain
 * measured between the units it compared, and for a counter or symbol
 * the spread between a side's result files.
 */
#include "config.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "sysinfo/sysinfo.h"
#include "util/table.h"

struct row {
	char *name;
	double old, new;
	double sd_old, sd_new;	/* relative; NAN: not known */
};

struct rows {
	struct row *v;
	size_t n;
};

static void add_row(struct rows *r, char *name, double old, double new, double sd_old,
		    double sd_new)
{
	r->v = pm_xgrow(r->v, r->n, sizeof(*r->v));
	r->v[r->n++] = (struct row){ name, old, new, sd_old, sd_new };
}

/* 0-day's numbers: two decimals below 1000, whole numbers up to 1e8,
 * then four digits with an exponent; what two decimals would show as
 * 0.00 in two digits (a context switch per thousand ops). */
static void fmt_value(char *buf, size_t len, double v)
{
	if (!isfinite(v))
		snprintf(buf, len, "-");
	else if (v != 0 && fabs(v) < 0.005)
		snprintf(buf, len, "%.2g", v);
	else if (fabs(v) >= 1e8)
		snprintf(buf, len, "%.4g", v);
	else if (fabs(v) >= 1000)
		snprintf(buf, len, "%.0f", v);
	else
		snprintf(buf, len, "%.2f", v);
}

/* A side's cell: the value and " ± N%", or blanks where 0-day leaves
 * the spread out (under 2%, or not known), so that values align. */
static void side_cell(char *buf, size_t len, double v, double sd)
{
	char n[32];
	double pct = 100 * sd;

	fmt_value(n, sizeof(n), v);
	if (isfinite(pct) && isfinite(v) && pct >= 1.5)
		snprintf(buf, len, "%s ±%3.0f%%", n, pct);
	else
		snprintf(buf, len, "%s      ", n);
}

/* The change of the values shown; a trailing blank lines it up under
 * 0-day's "%change" head. */
static void change_cell(char *buf, size_t len, double old, double new)
{
	double pct = 100 * (new / old - 1);

	if (!isfinite(old) || !isfinite(new))
		snprintf(buf, len, "- ");
	else if (old == 0 && new == 0)
		snprintf(buf, len, "+0.0%% ");
	else if (old == 0)
		snprintf(buf, len, "new ");
	else if (fabs(pct) >= 1e5)
		snprintf(buf, len, "%+.1e%% ", pct);
	else
		snprintf(buf, len, "%+.1f%% ", pct);
}

/* Sample standard deviation over the mean; NAN for fewer than two. */
static double rel_sd(const double *v, size_t n)
{
	double s = 0, ss = 0, m;
	size_t i;

	if (n < 2)
		return NAN;
	for (i = 0; i < n; i++)
		s += v[i];
	m = s / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return m != 0 ? sqrt(ss / (double)(n - 1)) / fabs(m) : NAN;
}

/* ---- the benchmarks' figures ---- */

/* A figure in the unit of its row: times in ns per op, rates and
 * measured parameters in the benchmark's unit (as the text shows them). */
static double figure(const struct pm_bench_cmp *c, double ns)
{
	return c->higher_is_better && !c->measured ? pm_bench_result_value(c->ref_old, ns) : ns;
}

static char *figure_name(const struct pm_bench_cmp *c)
{
	char *unit, *p;
	char *name;

	if (!c->measured && !c->higher_is_better)
		return pm_xasprintf("%s.ns_per_op", c->name);
	/* "MB/s" -> "MB_per_s": a name of dotted words, as 0-day's */
	unit = pm_xstrdup(c->ref_old->unit ? c->ref_old->unit : "value");
	for (p = unit; *p; p++)
		if (*p == ' ')
			*p = '_';
	p = strchr(unit, '/');
	if (p) {
		*p = '\0';
		name = pm_xasprintf("%s.%s_per_%s", c->name, unit, p + 1);
	} else {
		name = pm_xasprintf("%s.%s", c->name, unit);
	}
	free(unit);
	return name;
}

/* What the %stddev of a benchmark's row is, in a few words. */
static const char *spread_basis(const struct pm_bench_cmp *c)
{
	if (c->paired)
		return "between pairs of runs taken in turn";
	switch (c->unit) {
	case PM_UNIT_RUNS:
		if (c->prior_runs && (c->runs_old < 2 || c->runs_new < 2))
			return "between runs; a side of one run: how much runs differ in "
			       "the spread-from runs";
		return "between runs";
	case PM_UNIT_ROUNDS:
		return "a side of one run: between the rounds (processes) of its run";
	case PM_UNIT_TRIALS:
		return "a run of one round: between its trials";
	case PM_UNIT_FIGURES:
		break;
	}
	return "none: a single figure a side";
}

/* ---- counters and symbols: per op, and per result file for %stddev ---- */

struct counter_row {
	const char *row;	/* the metric, after the benchmark's name */
	size_t pair;		/* offset of its struct pm_pair in pm_bench_cmp */
	const char *num, *den;	/* of a file: num per op, or scale * num / den */
	double scale;
};

static const struct counter_row counter_rows[] = {
	{ "perf-stat.instructions_per_op", offsetof(struct pm_bench_cmp, instructions),
	  "instructions", NULL, 1 },
	{ "perf-stat.cycles_per_op", offsetof(struct pm_bench_cmp, cycles), "cycles", NULL, 1 },
	{ "perf-stat.ipc", offsetof(struct pm_bench_cmp, ipc), "instructions", "cycles", 1 },
	{ "perf-stat.icache_mpki", offsetof(struct pm_bench_cmp, icache_mpki), "icache",
	  "instructions", 1000 },
	{ "perf-stat.itlb_mpki", offsetof(struct pm_bench_cmp, itlb_mpki), "itlb",
	  "instructions", 1000 },
	{ "perf-stat.branch_mpki", offsetof(struct pm_bench_cmp, branch_mpki), "branch-misses",
	  "instructions", 1000 },
	{ "perf-stat.task-clock_ns_per_op", offsetof(struct pm_bench_cmp, task_clock),
	  "task-clock", NULL, 1 },
	{ "perf-stat.page-faults_per_op", offsetof(struct pm_bench_cmp, faults), "page-faults",
	  NULL, 1 },
	{ "perf-stat.context-switches_per_op", offsetof(struct pm_bench_cmp, ctxsw),
	  "context-switches", NULL, 1 },
	{ "perf-stat.cpu-migrations_per_op", offsetof(struct pm_bench_cmp, migrations),
	  "cpu-migrations", NULL, 1 },
};

static double counter_of(const struct pm_bench_result *b, const char *name)
{
	const struct pm_counter_value *v = name ? pm_bench_result_counter(b, name) : NULL;

	return v && v->status == PM_CV_OK ? v->per_op : NAN;
}

/* The spread of a counter row between a side's result files. */
static double counter_sd(const struct pm_side *s, const char *bench,
			 const struct counter_row *k)
{
	double *v = pm_xcalloc(s->nruns + 1, sizeof(*v)), sd;
	size_t i, n = 0;

	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], bench);
		double x;

		if (!b || b->status != PM_BENCH_OK)
			continue;
		x = counter_of(b, k->num);
		if (k->den)
			x = k->scale * x / counter_of(b, k->den);
		if (isfinite(x))
			v[n++] = x;
	}
	sd = rel_sd(v, n);
	free(v);
	return sd;
}

/* A kernel symbol's time per op in each sampled result file of a side
 * (its share of the file's samples times the file's figure): their
 * spread. */
static double symbol_sd(const struct pm_side *s, const char *bench, const char *sym)
{
	double *v = pm_xcalloc(s->nruns + 1, sizeof(*v)), sd;
	size_t i, j, n = 0;

	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], bench);
		const json_t *syms, *y;
		struct pm_figure f;
		double share = 0;

		if (!b || b->status != PM_BENCH_OK || !b->hotspots ||
		    pm_bench_figure(b, PM_FIGURE_LEVEL, &f) != 0)
			continue;
		syms = json_object_get(b->hotspots, "symbols");
		if (!json_is_array(syms))
			continue;
		json_array_foreach(syms, j, y) {
			const char *name = json_string_value(json_object_get(y, "name"));
			const json_t *sh = json_object_get(y, "share");

			if (name && !strcmp(name, sym) && json_is_true(json_object_get(y, "kernel")) &&
			    json_is_number(sh))
				share += json_number_value(sh);
		}
		v[n++] = share * f.value;
	}
	sd = rel_sd(v, n);
	free(v);
	return sd;
}

/* Where the time went, as explain's text has it: the split, the
 * counters per op both sides have, and the kernel symbols it lists. */
static void detail_rows(struct rows *r, const struct pm_bench_cmp *c,
			const struct pm_explanation *x)
{
	size_t i, shown = 0;

	if (c->split_source) {
		add_row(r, pm_xasprintf("%s.kernel_ns_per_op", c->name), c->kernel_ns.old,
			c->kernel_ns.new, NAN, NAN);
		add_row(r, pm_xasprintf("%s.user_ns_per_op", c->name), c->user_ns.old,
			c->user_ns.new, NAN, NAN);
	}
	for (i = 0; i < PM_ARRAY_SIZE(counter_rows); i++) {
		const struct counter_row *k = &counter_rows[i];
		const struct pm_pair *p = (const void *)((const char *)c + k->pair);

		if (isfinite(p->old) && isfinite(p->new))
			add_row(r, pm_xasprintf("%s.%s", c->name, k->row), p->old, p->new,
				counter_sd(x->old, c->name, k), counter_sd(x->new, c->name, k));
	}
	/* the symbols explain's text lists (those that moved most), kernel ones */
	for (i = 0; i < c->nsyms && shown < 5; i++) {
		const struct pm_sym_delta *s = &c->syms[i];

		if (!s->kernel || !strcmp(s->name, "[other]") ||
		    fabs(s->new_ns - s->old_ns) < 0.02 * fabs(c->delta_ns))
			continue;
		shown++;
		add_row(r, pm_xasprintf("%s.perf-profile.self.ns_per_op.%s", c->name, s->name),
			s->old_ns, s->new_ns, symbol_sd(x->old, c->name, s->name),
			symbol_sd(x->new, c->name, s->name));
	}
}

/* ---- the mail ---- */

static const char *fp_text(const struct pm_side *s, enum pm_fp_key k)
{
	const json_t *j = s->nruns ? pm_sysinfo_at(s->runs[0].sysinfo, k) : NULL;

	return json_is_string(j) && *json_string_value(j) ? json_string_value(j) : NULL;
}

static size_t side_runs(const struct pm_side *s)
{
	size_t i, n = 0;

	for (i = 0; i < s->nruns; i++)
		n += pm_result_nruns(&s->runs[i]);
	return n;
}

/* A side's name in the head of its column: the kernel release when the
 * sides' differ (0-day names the commit), else the file's name. */
static const char *side_id(const struct pm_explanation *x, const struct pm_side *s)
{
	const char *a = fp_text(x->old, PM_FP_KERNEL_RELEASE);
	const char *b = fp_text(x->new, PM_FP_KERNEL_RELEASE);
	const char *slash = strrchr(s->name, '/');

	if (a && b && strcmp(a, b))
		return fp_text(s, PM_FP_KERNEL_RELEASE);
	return slash && slash[1] ? slash + 1 : s->name;
}

/* 0-day's first line: what it noticed. */
static void headline(const struct pm_explanation *x, const struct rows *r, FILE *f)
{
	size_t i, n = 0;

	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];
		const struct row *w = &r->v[i];

		if (!pm_verdict_changed(c->verdict))
			continue;
		n++;
		fprintf(f, "pmbench noticed a %+.1f%% %s of %s%s%s%s\n", 100 * (w->new / w->old - 1),
			c->verdict == PM_REGRESSION ? "regression" : "improvement", w->name,
			c->ncauses ? " (first cause: " : "", c->ncauses ? c->causes[0].title : "",
			c->ncauses ? ")" : "");
	}
	if (!n)
		fprintf(f, "pmbench noticed no regression or improvement in %zu benchmark%s "
			"compared\n", x->ncmp, x->ncmp == 1 ? "" : "s");
}

static void head(const struct pm_explanation *x, FILE *f)
{
	const struct pm_side *sides[2] = { x->old, x->new };
	const char *host = fp_text(x->old, PM_FP_HOSTNAME), *cpu = fp_text(x->old,
		PM_FP_CPU_MODEL_NAME);
	size_t i;

	fputs("\n=========================================================================="
	      "===============\n", f);
	fprintf(f, "tbox_group/cpu/testcase:\n  %s/%s/pmbench\n\ncompared:\n",
		host ? host : "?", cpu ? cpu : "?");
	for (i = 0; i < 2; i++) {
		const char *rel = fp_text(sides[i], PM_FP_KERNEL_RELEASE);
		const char *src = sides[i]->nruns ? sides[i]->runs[0].source : NULL;
		size_t n = side_runs(sides[i]);

		fprintf(f, "  %s  Linux %s, %s (%zu run%s%s%s)\n", i ? "NEW" : "OLD",
			rel ? rel : "?", sides[i]->name, n, n == 1 ? "" : "s",
			src && strcmp(src, "run") ? ", " : "", src && strcmp(src, "run") ? src : "");
	}
	/* 0-day's names of the sides, 16 and 27 characters (its commit ids),
	 * over rules as wide: a head of fixed widths, not a column */
	fprintf(f, "\n%-16.16s %.27s\n", side_id(x, x->old), side_id(x, x->new));
	fputs("---------------- --------------------------- \n", f);
}

static void print_rows(const struct rows *r, FILE *f)
{
	struct pm_table *t = pm_table_new();
	size_t i;

	pm_table_no_head(t);
	pm_table_add_col(t, "OLD", NULL, 0);
	pm_table_add_col(t, "%change", NULL, 0);
	pm_table_add_col(t, "NEW", NULL, 0);
	pm_table_add_col(t, "metric", NULL, PM_COL_LEFT);
	/* 0-day's columns: 16, 11, 16 wide with the blanks between them */
	pm_table_min_width(t, 0, 16);
	pm_table_min_width(t, 1, 10);
	pm_table_min_width(t, 2, 14);
	pm_table_row(t, NULL);
	pm_table_cell(t, 0, "%stddev", NULL);
	pm_table_cell(t, 1, "%change", NULL);
	pm_table_cell(t, 2, "%stddev", NULL);
	pm_table_row(t, NULL);
	pm_table_cell(t, 0, "\\  ", NULL);
	pm_table_cell(t, 1, "|   ", NULL);
	pm_table_cell(t, 2, "\\  ", NULL);
	for (i = 0; i < r->n; i++) {
		const struct row *w = &r->v[i];
		char a[64], b[64], d[32];

		side_cell(a, sizeof(a), w->old, w->sd_old);
		change_cell(d, sizeof(d), w->old, w->new);
		side_cell(b, sizeof(b), w->new, w->sd_new);
		pm_table_row(t, w->name);
		pm_table_cell(t, 0, a, NULL);
		pm_table_cell(t, 1, d, NULL);
		pm_table_cell(t, 2, b, NULL);
		pm_table_cell(t, 3, w->name, NULL);
	}
	pm_table_print(t, f, PM_TABLE_TEXT);
	pm_table_free(t);
}

/* What %stddev is for the benchmarks' rows, each way said once with the
 * benchmarks it is said of when they differ. */
static void spread_notes(const struct pm_explanation *x, FILE *f)
{
	size_t i, j;

	for (i = 0; i < x->ncmp; i++) {
		const char *b = spread_basis(&x->cmp[i]);
		bool all = true;

		for (j = 0; j < i; j++)
			if (!strcmp(spread_basis(&x->cmp[j]), b))
				break;
		if (j < i)
			continue;
		for (j = 0; j < x->ncmp; j++)
			all = all && !strcmp(spread_basis(&x->cmp[j]), b);
		fprintf(f, "  %s", b);
		for (j = i; !all && j < x->ncmp; j++)
			if (!strcmp(spread_basis(&x->cmp[j]), b))
				fprintf(f, "%s%s", j == i ? " (" : ", ", x->cmp[j].name);
		fputs(all ? "\n" : ")\n", f);
	}
}

static void notes(const struct pm_explanation *x, bool details, FILE *f)
{
	fputs("\n%stddev of a benchmark's figure, as explain measured it:\n", f);
	spread_notes(x, f);
	if (details)
		fprintf(f, "%%stddev of counters and symbols per op: between a side's result "
			"files (OLD %zu, NEW %zu)%s; of the kernel/user split: none\n",
			x->old->nruns, x->new->nruns, x->old->nruns < 2 || x->new->nruns < 2 ?
			", none for a side of one file" : "");
	fputs("A blank %stddev: under 2% (as 0-day prints it) or none.  %change: NEW's figure "
	      "against OLD's;\nfor times + is slower, for rates (ops/s, MB/s) - is slower.  "
	      "Verdicts and causes: pmbench explain.\n", f);
}

void pm_report_lkp(const struct pm_explanation *x, FILE *f, bool all)
{
	struct rows r = { 0 };
	size_t i;

	if (!x->ncmp) {
		fprintf(f, "No benchmark is present on both sides: nothing to compare.\n");
		return;
	}
	/* every benchmark's figure first (the rows 0-day mails lead with) */
	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		add_row(&r, figure_name(c), figure(c, c->med_old), figure(c, c->med_new),
			c->spread_old, c->spread_new);
	}
	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (all || pm_verdict_changed(c->verdict))
			detail_rows(&r, c, x);
	}
	headline(x, &r, f);
	head(x, f);
	print_rows(&r, f);
	notes(x, r.n > x->ncmp, f);
	for (i = 0; i < r.n; i++)
		free(r.v[i].name);
	free(r.v);
}
