/*
 * Rendering a workload entry (pmbench stat): its elapsed time as the
 * figure every view shows (results/figure.c), the mean and interval of
 * user and system time over its runs, its counters per run, and how
 * several commands of one call compare.  Everything else is computed from
 * the runs stored in the entry's "workload" object.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "util/table.h"
#include "views/render.h"

#define LEVEL PM_LEVEL

static double jnum(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* A per-run figure of every run that has it. */
static size_t run_values(const json_t *runs, const char *obj, const char *key,
			 double *v)
{
	const json_t *r;
	size_t i, n = 0;

	json_array_foreach(runs, i, r) {
		double x = jnum(obj ? json_object_get(r, obj) : r, key);

		if (!isnan(x))
			v[n++] = x;
	}
	return n;
}

static double max_of(const double *v, size_t n)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < n; i++)
		if (isnan(m) || v[i] > m)
			m = v[i];
	return m;
}

static double min_of(const double *v, size_t n)
{
	double m = NAN;
	size_t i;

	for (i = 0; i < n; i++)
		if (isnan(m) || v[i] < m)
			m = v[i];
	return m;
}

/* "±2.1%", nothing for one run, "unbounded" past ±50% (no number says
 * anything there, and a mean's interval would run below zero). */
static void fmt_pm(char *buf, size_t len, double mean, double half)
{
	if (isnan(half) || !(mean > 0))
		snprintf(buf, len, "%s", "");
	else if (half / mean > PM_FIGURE_WIDE)
		snprintf(buf, len, "unbounded");
	else
		snprintf(buf, len, "±%.1f%%", 100 * half / mean);
}

/*
 * getrusage's times are tick-based on most kernels: a mean below 10 ms
 * (a tick at 100 Hz) is a count of a few ticks, its interval a count of
 * which runs caught one.  Shown, but without an interval.
 */
#define RUSAGE_RESOLUTION_NS 1e7

/* The figures' table: a label, a figure right-aligned, a note. */
static struct pm_table *figures_table(size_t indent, size_t label, size_t figure)
{
	struct pm_table *t = pm_table_new();

	pm_table_no_head(t);
	pm_table_indent(t, indent);
	pm_table_add_col(t, "what", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "figure", NULL, 0);
	pm_table_add_col(t, "note", NULL, PM_COL_LEFT);
	pm_table_min_width(t, 0, label);
	pm_table_min_width(t, 1, figure);
	return t;
}

static void figure_row(struct pm_table *t, const char *what, const char *figure)
{
	pm_table_row(t, what);
	pm_table_cell(t, 0, what, NULL);
	pm_table_cell(t, 1, figure, NULL);
}

/* user and system: the mean of the runs, with its interval */
static void time_line(struct pm_table *t, const char *what, const double *v, size_t n)
{
	char m[32], pmtext[32];
	double mean, half;

	pm_mean_ci(v, n, LEVEL, &mean, &half);
	pm_fmt_time(m, sizeof(m), mean);
	fmt_pm(pmtext, sizeof(pmtext), mean, half);
	figure_row(t, what, m);
	if (mean < RUSAGE_RESOLUTION_NS)
		pm_table_cell(t, 2, "(getrusage, tick-based: below its resolution, no interval)",
			      NULL);
	else
		pm_table_cell(t, 2, pmtext, NULL);
}

/* What the figure of a workload's elapsed time is made of. */
static void figure_basis(char *buf, size_t len, const struct pm_figure *f, size_t nruns)
{
	if (f->basis == PM_FIG_RUNS)
		snprintf(buf, len, "over %zu invocations the geometric mean of the faster half "
			 "of each one's runs; %zu runs", f->n, nruns);
	else if (f->basis == PM_FIG_ROUNDS)
		snprintf(buf, len, "the geometric mean of the faster half of %zu runs", f->n);
	else
		snprintf(buf, len, "%zu run%s", nruns, nruns == 1 ? "" : "s");
}

/*
 * elapsed: the benchmark's figure, as the side-by-side and every other
 * view show it (a busy minute only adds time, to a run or two), then the
 * runs' mean, min and max.
 */
static void elapsed_line(struct pm_table *t, const struct pm_bench_result *b,
			 const double *v, size_t n)
{
	char fig[32], lo[32], hi[32], mean[32], a[32], c[32], basis[160];
	struct pm_figure f;
	double m, half;

	if (!pm_render_figure(b, &f))
		return;
	pm_mean_ci(v, n, LEVEL, &m, &half);
	pm_fmt_time(fig, sizeof(fig), f.value);
	pm_fmt_time(mean, sizeof(mean), m);
	pm_fmt_time(a, sizeof(a), min_of(v, n));
	pm_fmt_time(c, sizeof(c), max_of(v, n));
	figure_basis(basis, sizeof(basis), &f, n);
	figure_row(t, "elapsed", fig);
	if (pm_figure_unbounded(&f)) {
		pm_table_cellf(t, 2, "(unbounded: too few runs to bound it, %zu runs; %s; mean %s, "
			       "min %s, max %s)", n, basis, mean, a, c);
	} else if (!isnan(pm_figure_rel(&f))) {
		pm_fmt_time(lo, sizeof(lo), f.lo);
		pm_fmt_time(hi, sizeof(hi), f.hi);
		pm_table_cellf(t, 2, "±%.1f%%  (%.0f%% CI %s .. %s; %s; mean %s, min %s, max %s)",
			       100 * pm_figure_rel(&f), 100 * f.level, lo, hi, basis, mean, a, c);
	} else {
		pm_table_cellf(t, 2, "(%zu run%s, no interval)", n, n == 1 ? "" : "s");
	}
}

/* One counter's row: its mean per run and interval, or why it has none. */
static void counter_row(struct pm_table *t, const struct pm_counter_value *c,
			const json_t *runs, double *v)
{
	char fig[32], pmtext[32];
	struct pm_buf note = PM_BUF_INIT;
	double mean, half;
	size_t n;

	n = run_values(runs, "counters", c->name, v);
	pm_mean_ci(v, n, LEVEL, &mean, &half);
	if (!n)
		mean = c->per_op;
	if (!strcmp(c->name, "task-clock"))
		pm_fmt_time(fig, sizeof(fig), mean);
	else
		pm_fmt_count(fig, sizeof(fig), mean);
	fmt_pm(pmtext, sizeof(pmtext), mean, half);
	figure_row(t, c->name, fig);
	pm_buf_add(&note, pmtext);
	if (!isnan(c->kernel) && c->per_op > 0) {
		pm_buf_sep(&note, "  ");
		pm_buf_addf(&note, "(%.0f%% kernel)", 100 * c->kernel / c->per_op);
	}
	if (c->running < 0.999) {
		pm_buf_sep(&note, "  ");
		pm_buf_addf(&note, "[counted %.0f%% of the time, scaled]", 100 * c->running);
	}
	if (c->user_only) {
		pm_buf_sep(&note, "  ");
		pm_buf_add(&note, "[user space only]");
	}
	pm_table_cell(t, 2, pm_buf_str(&note), NULL);
	pm_buf_free(&note);
}

/* The events not counted: those with one reason on one line. */
static void not_counted_lines(const struct pm_counted_pass *cp, FILE *f)
{
	size_t i, j;

	for (i = 0; i < cp->n; i++) {
		const struct pm_counter_value *c = &cp->v[i];
		const char *why = c->reason ? c->reason : "";

		if (c->status == PM_CV_OK)
			continue;
		for (j = 0; j < i; j++)
			if (cp->v[j].status == c->status &&
			    !strcmp(cp->v[j].reason ? cp->v[j].reason : "", why))
				break;
		if (j < i)
			continue;
		fprintf(f, "    %s", c->name);
		for (j = i + 1; j < cp->n; j++)
			if (cp->v[j].status == c->status &&
			    !strcmp(cp->v[j].reason ? cp->v[j].reason : "", why))
				fprintf(f, ", %s", cp->v[j].name);
		fprintf(f, ": %s %s\n", c->status == PM_CV_NOT_SUPPORTED ? "<not supported>" :
			"<not counted>", why);
	}
}

static void counter_lines(const struct pm_bench_result *b, const json_t *runs,
			  size_t nruns, FILE *f)
{
	const struct pm_counted_pass *cp = &b->counters;
	double *v = pm_xcalloc(nruns ? nruns : 1, sizeof(*v));
	struct pm_table *t = figures_table(4, 19, 12);
	size_t i;

	if (cp->done)
		fprintf(f, "  counters per run (counted in %llu of the timed runs, children "
			"included):\n", (unsigned long long)cp->ops);
	else
		fprintf(f, "  counters:\n");
	for (i = 0; i < cp->n; i++)
		if (cp->v[i].status == PM_CV_OK)
			counter_row(t, &cp->v[i], runs, v);
	pm_table_print(t, f, PM_TABLE_TEXT);
	pm_table_free(t);
	free(v);
	not_counted_lines(cp, f);
}

/* "3 runs" and where they ran. */
static void runs_row(struct pm_table *t, const json_t *w, size_t n)
{
	const char *dir = json_string_value(json_object_get(w, "directory"));
	const char *shell = json_string_value(json_object_get(w, "shell"));
	double warm = jnum(w, "warmup");
	struct pm_buf note = PM_BUF_INIT;

	pm_table_row(t, "workload");
	pm_table_cell(t, 0, "workload", NULL);
	pm_table_cellf(t, 1, "%zu run%s", n, n == 1 ? "" : "s");
	if (warm > 0)
		pm_buf_addf(&note, "after %.0f warm-up%s", warm, warm == 1 ? "" : "s");
	if (dir) {
		pm_buf_sep(&note, ", ");
		pm_buf_addf(&note, "in %s", dir);
	}
	if (shell) {
		pm_buf_sep(&note, ", ");
		pm_buf_add(&note, "by /bin/sh -c");
	}
	pm_table_cell(t, 2, pm_buf_str(&note), NULL);
	pm_buf_free(&note);
}

/* The system share and the CPUs used, from the times of each run. */
static void cpu_rows(struct pm_table *t, const double *el, size_t ne, const double *us,
		     size_t nu, const double *sy, size_t ns, double *cpu)
{
	double mu, ms, m, h;
	size_t k;

	if (ns) {
		pm_mean_ci(us, nu, LEVEL, &mu, &h);
		pm_mean_ci(sy, ns, LEVEL, &ms, &h);
		if (mu + ms > 0) {
			figure_row(t, "system share", "");
			pm_table_cellf(t, 1, "%.0f%%", 100 * ms / (mu + ms));
			pm_table_cell(t, 2, "of user + system", NULL);
		}
	}
	if (ne && ne == nu && nu == ns) {
		for (k = 0; k < ne; k++)
			cpu[k] = el[k] > 0 ? (us[k] + sy[k]) / el[k] : NAN;
		pm_mean_ci(cpu, ne, LEVEL, &m, &h);
		if (!isnan(m)) {
			figure_row(t, "CPUs used", "");
			pm_table_cellf(t, 1, "%.2f", m);
			pm_table_cell(t, 2, "(user + system over elapsed)", NULL);
		}
	}
}

/* Memory, processes and failures. */
static void other_rows(struct pm_table *t, const struct pm_bench_result *b, size_t n,
		       double *v)
{
	const json_t *w = b->workload, *runs = json_object_get(w, "runs");
	const json_t *fail = json_object_get(w, "failure");
	double nonzero = jnum(w, "nonzero_runs"), hp = jnum(b->hotspots, "processes");
	size_t nr = n ? run_values(runs, NULL, "max_rss_kb", v) : 0;

	if (nr) {
		figure_row(t, "max RSS", "");
		pm_table_cellf(t, 1, "%.1f MiB", max_of(v, nr) / 1024);
		pm_table_cell(t, 2, "(the largest process of any run)", NULL);
	}
	if (!isnan(hp)) {
		figure_row(t, "processes", "");
		pm_table_cellf(t, 1, "%.0f", hp);
		pm_table_cell(t, 2, "(started in the sampled run, the command included)", NULL);
	}
	if (nonzero > 0) {
		figure_row(t, "failures", "");
		pm_table_cellf(t, 1, "%.0f of %zu", nonzero, n);
		pm_table_cell(t, 2, "runs exited non-zero (--ignore-failure)", NULL);
	}
	if (fail && json_is_string(json_object_get(fail, "status"))) {
		figure_row(t, "failed", json_string_value(json_object_get(fail, "stage")));
		pm_table_cellf(t, 2, "%s: %s",
			       json_string_value(json_object_get(fail, "command")),
			       json_string_value(json_object_get(fail, "status")));
	}
}

void pm_render_workload(const struct pm_bench_result *b, FILE *f)
{
	const json_t *w = b->workload, *runs = json_object_get(w, "runs");
	size_t n = json_array_size(runs);
	double *el = pm_xcalloc(n ? n : 1, sizeof(*el));
	double *us = pm_xcalloc(n ? n : 1, sizeof(*us));
	double *sy = pm_xcalloc(n ? n : 1, sizeof(*sy));
	double *cpu = pm_xcalloc(n ? n : 1, sizeof(*cpu));
	size_t ne = run_values(runs, NULL, "elapsed_ns", el);
	size_t nu = run_values(runs, NULL, "user_ns", us);
	size_t ns = run_values(runs, NULL, "system_ns", sy);
	struct pm_table *t = figures_table(2, 17, 10);

	runs_row(t, w, n);
	if (ne)
		elapsed_line(t, b, el, ne);
	if (nu)
		time_line(t, "user", us, nu);
	if (ns)
		time_line(t, "system", sy, ns);
	cpu_rows(t, el, ne, us, nu, sy, ns, cpu);
	other_rows(t, b, n, cpu);
	pm_table_print(t, f, PM_TABLE_TEXT);
	pm_table_free(t);
	if (b->counters.n)
		counter_lines(b, runs, n, f);
	free(el);
	free(us);
	free(sy);
	free(cpu);
}

/* Several workloads of one call: each against the fastest. */
void pm_render_workload_comparison(const struct pm_result *r, FILE *f)
{
	const struct pm_bench_result *best = NULL;
	double best_g = NAN;
	size_t i, n = 0;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];
		double g;

		if (!b->workload || b->status != PM_BENCH_OK || !b->ntrials)
			continue;
		n++;
		g = pm_geomean(b->trials, b->ntrials);
		if (!isnan(g) && (!best || g < best_g)) {
			best = b;
			best_g = g;
		}
	}
	if (n < 2 || !best)
		return;
	fprintf(f, "\nsummary (elapsed time, geometric means, %.0f%% intervals; the runs of the "
		"commands were taken in turns):\n", 100 * LEVEL);
	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];
		struct pm_log_cmp c;

		if (b == best || !b->workload || b->status != PM_BENCH_OK || !b->ntrials)
			continue;
		if (pm_log_ratio_t(best->trials, best->ntrials, b->trials, b->ntrials,
				   LEVEL, 0, &c)) {
			fprintf(f, "  '%s' against '%s': one run each, no interval (%.2fx)\n",
				best->name, b->name, pm_geomean(b->trials, b->ntrials) / best_g);
			continue;
		}
		if (c.lo > 1)
			fprintf(f, "  '%s' is faster than '%s' by %.2fx (%.0f%% CI %.2fx .. %.2fx; "
				"p %s %.2g)\n", best->name, b->name, c.ratio, 100 * LEVEL, c.lo,
				c.hi, c.p < 0.001 ? "<" : "=", c.p < 0.001 ? 0.001 : c.p);
		else
			fprintf(f, "  '%s' and '%s' do not differ measurably: %.2fx (%.0f%% CI "
				"%.2fx .. %.2fx; p = %.2g); more runs (-r) would narrow it\n",
				best->name, b->name, c.ratio, 100 * LEVEL, c.lo, c.hi, c.p);
	}
}
