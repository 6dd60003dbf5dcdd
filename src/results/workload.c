/*
 * Rendering a workload entry (pmbench stat): the mean and interval of
 * elapsed, user and system time over its runs, its counters per run, and
 * how several commands of one call compare.  Everything is computed from
 * the runs stored in the entry's "workload" object.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/render.h"

#define LEVEL 0.95

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

/* "  ±2.1%", or nothing for one run. */
static void fmt_pm(char *buf, size_t len, double mean, double half)
{
	if (isnan(half) || !(mean > 0))
		snprintf(buf, len, "%s", "");
	else
		snprintf(buf, len, "  ±%.1f%%", 100 * half / mean);
}

static void time_line(FILE *f, const char *what, const double *v, size_t n,
		      bool detail)
{
	char m[32], lo[32], hi[32], a[32], b[32], pmtext[32];
	double mean, half;

	pm_mean_ci(v, n, LEVEL, &mean, &half);
	pm_fmt_time(m, sizeof(m), mean);
	fmt_pm(pmtext, sizeof(pmtext), mean, half);
	fprintf(f, "  %-18s %10s%s", what, m, pmtext);
	if (detail && !isnan(half)) {
		pm_fmt_time(lo, sizeof(lo), mean - half);
		pm_fmt_time(hi, sizeof(hi), mean + half);
		pm_fmt_time(a, sizeof(a), min_of(v, n));
		pm_fmt_time(b, sizeof(b), max_of(v, n));
		fprintf(f, "  (%.0f%% CI %s .. %s; mean of %zu runs, min %s, max %s)",
			100 * LEVEL, lo, hi, n, a, b);
	} else if (detail) {
		fprintf(f, "  (%zu run%s, no interval)", n, n == 1 ? "" : "s");
	}
	fputc('\n', f);
}

static void counter_lines(const struct pm_bench_result *b, const json_t *runs,
			  size_t nruns, FILE *f)
{
	const struct pm_counted_pass *cp = &b->counters;
	double *v = pm_xcalloc(nruns ? nruns : 1, sizeof(*v));
	char t[32], pmtext[32];
	size_t i;

	if (cp->done)
		fprintf(f, "  counters per run (counted in %llu of the timed runs, children "
			"included):\n", (unsigned long long)cp->ops);
	else
		fprintf(f, "  counters:\n");
	for (i = 0; i < cp->n; i++) {
		const struct pm_counter_value *c = &cp->v[i];
		double mean, half;
		size_t n;

		if (c->status != PM_CV_OK) {
			fprintf(f, "    %-20s %12s  %s\n", c->name,
				c->status == PM_CV_NOT_SUPPORTED ? "<not supported>" :
				"<not counted>", c->reason ? c->reason : "");
			continue;
		}
		n = run_values(runs, "counters", c->name, v);
		pm_mean_ci(v, n, LEVEL, &mean, &half);
		if (!n)
			mean = c->per_op;
		if (!strcmp(c->name, "task-clock"))
			pm_fmt_time(t, sizeof(t), mean);
		else
			pm_fmt_count(t, sizeof(t), mean);
		fmt_pm(pmtext, sizeof(pmtext), mean, half);
		fprintf(f, "    %-20s %12s%s", c->name, t, pmtext);
		if (!isnan(c->kernel) && c->per_op > 0)
			fprintf(f, "  (%.0f%% kernel)", 100 * c->kernel / c->per_op);
		if (c->running < 0.999)
			fprintf(f, "  [counted %.0f%% of the time, scaled]", 100 * c->running);
		if (c->user_only)
			fprintf(f, "  [user space only]");
		fputc('\n', f);
	}
	free(v);
}

void pm_render_workload(const struct pm_bench_result *b, FILE *f)
{
	const json_t *w = b->workload, *runs = json_object_get(w, "runs");
	const json_t *fail = json_object_get(w, "failure");
	const char *dir = json_string_value(json_object_get(w, "directory"));
	const char *shell = json_string_value(json_object_get(w, "shell"));
	size_t n = json_array_size(runs), k;
	double *el = pm_xcalloc(n ? n : 1, sizeof(*el));
	double *us = pm_xcalloc(n ? n : 1, sizeof(*us));
	double *sy = pm_xcalloc(n ? n : 1, sizeof(*sy));
	double *cpu = pm_xcalloc(n ? n : 1, sizeof(*cpu));
	double warm = jnum(w, "warmup"), nonzero = jnum(w, "nonzero_runs");
	double hp = jnum(b->hotspots, "processes");
	size_t ne = run_values(runs, NULL, "elapsed_ns", el);
	size_t nu = run_values(runs, NULL, "user_ns", us);
	size_t ns = run_values(runs, NULL, "system_ns", sy);

	fprintf(f, "  %-18s %zu run%s", "workload", n, n == 1 ? "" : "s");
	if (warm > 0)
		fprintf(f, " after %.0f warm-up%s", warm, warm == 1 ? "" : "s");
	if (dir)
		fprintf(f, ", in %s", dir);
	if (shell)
		fprintf(f, ", by /bin/sh -c");
	fputc('\n', f);
	if (ne)
		time_line(f, "elapsed", el, ne, true);
	if (nu)
		time_line(f, "user", us, nu, false);
	if (ns) {
		double mu, ms, h;

		time_line(f, "system", sy, ns, false);
		pm_mean_ci(us, nu, LEVEL, &mu, &h);
		pm_mean_ci(sy, ns, LEVEL, &ms, &h);
		if (mu + ms > 0)
			fprintf(f, "  %-18s %10.0f%%  of user + system\n", "system share",
				100 * ms / (mu + ms));
	}
	if (ne && ne == nu && nu == ns) {
		double m, h;

		for (k = 0; k < ne; k++)
			cpu[k] = el[k] > 0 ? (us[k] + sy[k]) / el[k] : NAN;
		pm_mean_ci(cpu, ne, LEVEL, &m, &h);
		if (!isnan(m))
			fprintf(f, "  %-18s %10.2f  (user + system over elapsed)\n", "CPUs used", m);
	}
	if (n && run_values(runs, NULL, "max_rss_kb", cpu)) {
		size_t nr = run_values(runs, NULL, "max_rss_kb", cpu);

		fprintf(f, "  %-18s %6.1f MiB  (the largest process of any run)\n", "max RSS",
			max_of(cpu, nr) / 1024);
	}
	if (!isnan(hp))
		fprintf(f, "  %-18s %10.0f  (started in the sampled run, the command included)\n",
			"processes", hp);
	if (nonzero > 0)
		fprintf(f, "  %-18s %.0f of %zu runs exited non-zero (--ignore-failure)\n",
			"failures", nonzero, n);
	if (fail && json_is_string(json_object_get(fail, "status")))
		fprintf(f, "  %-18s %s %s: %s\n", "failed",
			json_string_value(json_object_get(fail, "stage")),
			json_string_value(json_object_get(fail, "command")),
			json_string_value(json_object_get(fail, "status")));
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
