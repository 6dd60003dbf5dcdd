#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/render.h"
#include "sysinfo.h"

/* The software events every run counts, with short column names. */
static const struct {
	const char *name, *col;
	bool time;
} sw_columns[] = {
	{ "task-clock", "task-clk", true },
	{ "page-faults", "faults", false },
	{ "context-switches", "ctxsw", false },
	{ "cpu-migrations", "migr", false },
};

static bool is_sw_column(const char *name)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(sw_columns); i++)
		if (!strcmp(sw_columns[i].name, name))
			return true;
	return false;
}

static const char *si_str(const json_t *si, const char *key)
{
	const json_t *j = pm_sysinfo_get(si, key);

	return json_is_string(j) ? json_string_value(j) : NULL;
}

/* An imported result holds only what the report printed: say so. */
static void import_note(const struct pm_result *r, FILE *f)
{
	const json_t *imp = json_object_get(r->options, "import");
	const char *file = json_string_value(json_object_get(imp, "file"));
	size_t left = json_array_size(json_object_get(imp, "left_out"));
	bool aim9 = !strcmp(r->source, "import:aim9");

	if (aim9)
		fprintf(f, "imported from %s (an AIM9 log): figures only; no counters, hotspots "
			"or fingerprint (the log names no host or kernel)\n", file ? file : "a report");
	else
		fprintf(f, "imported from %s (an lmbench summary): figures only; no counters, "
			"hotspots or fingerprint beyond the host, OS string and Mhz it prints\n",
			file ? file : "a report");
	if (left)
		fprintf(f, "%zu row%s of the summary had figures that could not be placed and "
			"were left out (options.import.left_out)\n", left, left == 1 ? "" : "s");
}

void pm_render_header(const struct pm_result *r, FILE *f)
{
	const json_t *si = r->sysinfo;
	const json_t *ncpu = pm_sysinfo_get(si, "cpu.online");
	const char *host = si_str(si, "hostname");
	const char *rel = si_str(si, "kernel.release");
	const char *mach = si_str(si, "kernel.machine");
	const char *cpu = si_str(si, "cpu.model_name");

	fprintf(f, "pmbench %s", r->version ? r->version : "?");
	if (r->source && strcmp(r->source, "run"))
		fprintf(f, " (%s)", r->source);
	if (host)
		fprintf(f, " on %s", host);
	fprintf(f, ": Linux %s %s", rel ? rel : "?", mach ? mach : "");
	if (cpu)
		fprintf(f, ", %s", cpu);
	if (json_is_integer(ncpu))
		fprintf(f, " (%lld CPUs)", (long long)json_integer_value(ncpu));
	if (r->created)
		fprintf(f, ", %s", r->created);
	if (r->label)
		fprintf(f, " [%s]", r->label);
	fputc('\n', f);
	if (r->source && !strncmp(r->source, "import:", 7))
		import_note(r, f);
	pm_render_interrupted(r, f);
}

void pm_render_interrupted(const struct pm_result *r, FILE *f)
{
	long long asked;

	if (!pm_result_interrupted(r, &asked))
		return;
	if (asked >= 0)
		fprintf(f, "INTERRUPTED: the run was stopped; %zu of %lld benchmarks finished\n",
			r->nbench, asked);
	else
		fprintf(f, "INTERRUPTED: the run was stopped; only the %zu benchmarks below finished\n",
			r->nbench);
}

/* ---- a tiny column table ---- */

#define MAX_COLS 40
#define MAX_HW_COLS 12	/* hardware events in the table; all in csv/json */

struct table {
	char **cells;		/* rows x cols */
	size_t rows, cols;
	bool left[MAX_COLS];
};

static void table_init(struct table *t, size_t cols)
{
	memset(t, 0, sizeof(*t));
	t->cols = cols < MAX_COLS ? cols : MAX_COLS;
}

/* Display width of UTF-8 text: count every byte but continuations. */
static size_t text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

static char **table_row(struct table *t)
{
	t->cells = pm_xrealloc(t->cells, (t->rows + 1) * t->cols * sizeof(char *));
	memset(&t->cells[t->rows * t->cols], 0, t->cols * sizeof(char *));
	return &t->cells[t->rows++ * t->cols];
}

static void table_print(struct table *t, FILE *f)
{
	size_t w[MAX_COLS] = { 0 }, r, c;

	for (r = 0; r < t->rows; r++)
		for (c = 0; c < t->cols; c++) {
			const char *s = t->cells[r * t->cols + c];
			size_t len = s ? text_width(s) : 0;

			if (len > w[c])
				w[c] = len;
		}
	for (r = 0; r < t->rows; r++) {
		size_t last = t->cols;

		/* no trailing blanks: stop after the last non-empty cell */
		while (last > 0 && !(t->cells[r * t->cols + last - 1] &&
				     *t->cells[r * t->cols + last - 1]))
			last--;
		for (c = 0; c < last; c++) {
			const char *s = t->cells[r * t->cols + c];
			size_t len;

			s = s ? s : "";
			len = text_width(s);
			if (c)
				fputs("  ", f);
			if (!t->left[c])
				pad(f, w[c] - len);
			fputs(s, f);
			if (t->left[c] && c + 1 < last)
				pad(f, w[c] - len);
		}
		fputc('\n', f);
	}
	for (r = 0; r < t->rows * t->cols; r++)
		free(t->cells[r]);
	free(t->cells);
}

/* ---- value formatting ---- */

static char *fmt_time(double ns)
{
	char buf[32];

	pm_fmt_time(buf, sizeof(buf), ns);
	return pm_xstrdup(buf);
}

static char *fmt_count(double v)
{
	char buf[32];

	pm_fmt_count(buf, sizeof(buf), v);
	return pm_xstrdup(buf);
}

/* A benchmark's figure in its own unit when that is a rate. */
static char *fmt_value(const struct pm_bench_result *b, double ns)
{
	double v = pm_bench_result_value(b, ns);

	if (b->measured)
		return pm_xasprintf("%.4g %s", v, b->unit);
	if (pm_bench_higher_is_better(b))
		return pm_xasprintf("%.1f %s", v, b->unit);
	return fmt_time(ns);
}

/*
 * The interval of a benchmark's figure: of its trials' median, or wider
 * when its rounds (each in its own process) disagree more than the
 * trials of one process do: 95% t interval of the rounds' medians.
 */
static double rel_ci(const struct pm_bench_result *b)
{
	double ci = pm_summary_rel_halfwidth(&b->stats), *med, r;
	size_t k = b->nrounds;

	if (k < 2 || b->measured)
		return ci;
	med = pm_xcalloc(k, sizeof(*med));
	pm_bench_result_round_medians(b, med);
	/* NAN when a median is not positive: then the trials' interval */
	r = expm1(pm_t_quantile(0.975, (double)(k - 1)) * pm_log_sd(med, k, NULL) /
		  sqrt((double)k));
	free(med);
	return isnan(ci) || r > ci ? r : ci;
}

/* "±0.8%", or "-" when there is no interval (one trial, imported). */
static char *fmt_rel_ci(const struct pm_bench_result *b)
{
	double v = rel_ci(b);

	return isnan(v) || b->ntrials < 2 ? pm_xstrdup("-") :
		pm_xasprintf("%.1f%%", 100 * v);
}

static char *fmt_counter(const struct pm_counter_value *v, bool time)
{
	if (!v)
		return pm_xstrdup("");
	if (v->status == PM_CV_NOT_SUPPORTED)
		return pm_xstrdup("n/s");
	if (v->status == PM_CV_NOT_COUNTED)
		return pm_xstrdup("n/c");
	return time ? fmt_time(v->per_op) : fmt_count(v->per_op);
}

/* Names of hardware/raw events that appear in r, in first-seen order. */
static size_t hw_event_names(const struct pm_result *r, const char **names,
			     size_t max)
{
	size_t n = 0, i, j, k;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_counted_pass *cp = &r->bench[i].counters;

		for (j = 0; j < cp->n; j++) {
			const char *name = cp->v[j].name;
			bool seen = false;

			if (is_sw_column(name))
				continue;
			for (k = 0; k < n; k++)
				if (!strcmp(names[k], name))
					seen = true;
			if (!seen && n < max)
				names[n++] = name;
		}
	}
	return n;
}

/* Was the event split into user and kernel anywhere in r? */
static bool event_split_anywhere(const struct pm_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_counter_value *v =
			pm_bench_result_counter(&r->bench[i], name);

		if (v && v->status == PM_CV_OK && !isnan(v->kernel))
			return true;
	}
	return false;
}

/* Was the event counted anywhere in r? */
static bool event_counted_anywhere(const struct pm_result *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_counter_value *v =
			pm_bench_result_counter(&r->bench[i], name);

		if (v && v->status == PM_CV_OK)
			return true;
	}
	return false;
}

/* Footnotes: events that could not be counted, grouped by reason. */
static void print_unsupported(const struct pm_result *r, FILE *f)
{
	const char *names[MAX_COLS], *reasons[MAX_COLS];
	enum pm_cv_status status[MAX_COLS];
	size_t n = 0, i, j, k;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_counted_pass *cp = &r->bench[i].counters;

		for (j = 0; j < cp->n; j++) {
			const struct pm_counter_value *v = &cp->v[j];
			bool seen = false;

			if (v->status == PM_CV_OK)
				continue;
			for (k = 0; k < n; k++)
				if (!strcmp(names[k], v->name))
					seen = true;
			if (!seen && n < MAX_COLS) {
				names[n] = v->name;
				status[n] = v->status;
				reasons[n++] = v->reason ? v->reason : "";
			}
		}
	}
	for (i = 0; i < n; i++) {
		if (!reasons[i])
			continue;
		fprintf(f, "  %s", names[i]);
		for (j = i + 1; j < n; j++) {
			if (reasons[j] && status[j] == status[i] &&
			    !strcmp(reasons[i], reasons[j])) {
				fprintf(f, ", %s", names[j]);
				reasons[j] = NULL;
			}
		}
		fprintf(f, ": %s %s\n", status[i] == PM_CV_NOT_SUPPORTED ?
			"<not supported>" : "<not counted>", reasons[i]);
	}
}

static void print_notes(const struct pm_result *r, FILE *f)
{
	size_t i;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];
		const struct pm_counted_pass *cp = &b->counters;

		if (b->status != PM_BENCH_OK) {
			fprintf(f, "  %s: %s: %s\n", b->name,
				b->status == PM_BENCH_UNSUPPORTED ? "not supported here" : "failed",
				b->reason ? b->reason : "");
			continue;
		}
		if (!b->converged && b->ntrials > 1)
			fprintf(f, "  %s: not converged: CI ±%.1f%% after %zu trials (%s)\n",
				b->name, 100 * rel_ci(b), b->ntrials, b->workload ?
				"more runs, -r or --max-time, or an idle machine" :
				"more --max-time, --cpu pinning or an idle machine");
		if (cp->done && cp->perturbation > 1.05)
			fprintf(f, "  %s: counting%s slowed it by %.0f%%; the latency comes from uncounted trials\n",
				b->name, cp->inherit ? " children" : "",
				100 * (cp->perturbation - 1));
	}
}

static double jnumber(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : NAN;
}

static void fmt_size(char *buf, size_t len, double bytes)
{
	if (isnan(bytes) || bytes <= 0)
		snprintf(buf, len, "-");
	else if (bytes >= 1024 * 1024)
		snprintf(buf, len, "%.1f MiB", bytes / 1048576);
	else if (bytes >= 1024)
		snprintf(buf, len, "%.1f KiB", bytes / 1024);
	else
		snprintf(buf, len, "%.0f B", bytes);
}

/* The sampled profile of one benchmark: summary line, top symbols,
 * top stacks.  max_rows 0: everything stored. */
static void render_hotspots(const struct pm_bench_result *b, FILE *f,
			    size_t max_rows)
{
	const json_t *h = b->hotspots, *syms, *stacks, *x;
	const char *why;
	double samples;
	size_t i, rows = 0;

	if (!h)
		return;
	if ((why = json_string_value(json_object_get(h, "unavailable")))) {
		fprintf(f, "  hotspots: not sampled: %s\n", why);
		return;
	}
	samples = jnumber(h, "samples");
	fprintf(f, "  hotspots: %.0f samples (%s every %.0f %s), %.0f%% kernel, %.0f%% resolved",
		samples, json_string_value(json_object_get(h, "event")),
		jnumber(h, "period"), json_string_value(json_object_get(h, "period_unit")),
		100 * jnumber(h, "kernel_share"), 100 * jnumber(h, "resolved_share"));
	if (jnumber(h, "child_samples") > 0)
		fprintf(f, ", %.0f from children", jnumber(h, "child_samples"));
	if (!isnan(jnumber(h, "slowdown")))
		fprintf(f, "; sampled pass %.2fx the timed latency", jnumber(h, "slowdown"));
	if (jnumber(h, "lost") > 0)
		fprintf(f, "; %.0f LOST", jnumber(h, "lost"));
	fputc('\n', f);
	if (!isnan(jnumber(h, "unwound_share")))
		fprintf(f, "  user stacks unwound completely (libunwind): %.0f%%\n",
			100 * jnumber(h, "unwound_share"));
	if ((why = json_string_value(json_object_get(h, "kernel_unavailable"))))
		fprintf(f, "  no kernel symbols: %s\n", why);
	if (json_is_false(json_object_get(h, "kernel_sampled")))
		fprintf(f, "  (kernel not sampled: its time is charged to the user function that entered it)\n");
	if ((why = json_string_value(json_object_get(h, "error"))))
		fprintf(f, "  the sampled pass stopped early: %s\n", why);
	if (samples <= 0)
		return;
	fprintf(f, "    %6s %10s  %-36s %-24s %9s\n", "share", "cost/op", "symbol",
		"object", "size");
	syms = json_object_get(h, "symbols");
	json_array_foreach(syms, i, x) {
		char cost[32], size[32];
		const char *obj = json_string_value(json_object_get(x, "object"));
		const char *slash = obj ? strrchr(obj, '/') : NULL;

		if (max_rows && rows++ >= max_rows)
			break;
		pm_fmt_time(cost, sizeof(cost), jnumber(x, "cost_ns_per_op"));
		fmt_size(size, sizeof(size), jnumber(x, "size"));
		fprintf(f, "    %5.1f%% %10s  %-36s %-24s %9s%s\n",
			100 * jnumber(x, "share"), cost,
			json_string_value(json_object_get(x, "name")),
			slash ? slash + 1 : obj ? obj : "", size,
			json_is_true(json_object_get(x, "size_exact")) ||
			!json_is_true(json_object_get(x, "kernel")) ? "" : "~");
	}
	stacks = json_object_get(h, "stacks");
	if (!json_array_size(stacks))
		return;
	fprintf(f, "    top call chains:\n");
	rows = 0;
	json_array_foreach(stacks, i, x) {
		if (rows++ >= (max_rows ? 5 : 20))
			break;
		fprintf(f, "    %5.1f%%  %s\n", 100 * jnumber(x, "samples") / samples,
			json_string_value(json_object_get(x, "stack")));
	}
}

void pm_render_hotspots(const struct pm_result *r, FILE *f)
{
	size_t i;

	pm_render_interrupted(r, f);
	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];

		if (i)
			fputc('\n', f);
		fprintf(f, "%s: %s\n", b->name, b->summary ? b->summary : "");
		if (b->status != PM_BENCH_OK)
			fprintf(f, "  %s: %s\n", b->status == PM_BENCH_UNSUPPORTED ?
				"not supported here" : "failed", b->reason ? b->reason : "");
		else if (b->measured)
			fprintf(f, "  hotspots: none (a measured parameter, not a timed loop)\n");
		else if (!b->hotspots)
			fprintf(f, "  hotspots: none recorded (--no-profile, or an imported result)\n");
		else
			render_hotspots(b, f, 0);
	}
}

/* The leaf symbol with the most samples, "" when none. */
static const char *top_symbol(const struct pm_bench_result *b, double *share)
{
	const json_t *syms = json_object_get(b->hotspots, "symbols"), *x;
	size_t i;

	json_array_foreach(syms, i, x) {
		const char *name = json_string_value(json_object_get(x, "name"));

		if (name && strcmp(name, "[other]")) {
			*share = jnumber(x, "share");
			return name;
		}
	}
	return "";
}

static void render_table(const struct pm_result *r, FILE *f)
{
	const char *hw[MAX_HW_COLS];
	size_t nhw = hw_event_names(r, hw, MAX_HW_COLS), i, j, c, ncols;
	bool have_hw[MAX_HW_COLS], split_hw[MAX_HW_COLS];
	bool have_sw[PM_ARRAY_SIZE(sw_columns)], have_hot = false;
	struct table t;
	char **row;

	for (j = 0; j < nhw; j++) {
		have_hw[j] = event_counted_anywhere(r, hw[j]);
		split_hw[j] = event_split_anywhere(r, hw[j]);
	}
	for (j = 0; j < PM_ARRAY_SIZE(sw_columns); j++)
		have_sw[j] = event_counted_anywhere(r, sw_columns[j].name);
	for (i = 0; i < r->nbench; i++)
		have_hot = have_hot || json_array_size(json_object_get(r->bench[i].hotspots,
								       "symbols"));
	ncols = 5 + 1 + have_hot;
	for (j = 0; j < PM_ARRAY_SIZE(sw_columns); j++)
		ncols += have_sw[j];
	for (j = 0; j < nhw; j++)
		ncols += have_hw[j] + split_hw[j];
	table_init(&t, ncols);
	t.left[0] = true;

	row = table_row(&t);
	c = 0;
	row[c++] = pm_xstrdup("benchmark");
	row[c++] = pm_xstrdup("time/op");
	row[c++] = pm_xstrdup("±95%");
	row[c++] = pm_xstrdup("trials");
	row[c++] = pm_xstrdup("sys%");
	for (j = 0; j < PM_ARRAY_SIZE(sw_columns); j++)
		if (have_sw[j])
			row[c++] = pm_xstrdup(sw_columns[j].col);
	for (j = 0; j < nhw; j++) {
		if (!have_hw[j])
			continue;
		row[c++] = pm_xstrdup(hw[j]);
		if (split_hw[j])
			row[c++] = pm_xstrdup("k%");
	}
	if (have_hot) {
		row[c] = pm_xstrdup("top symbol");
		t.left[c++] = true;
	}
	row[c++] = pm_xstrdup("");
	t.left[c - 1] = true;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];
		const struct pm_counted_pass *cp = &b->counters;
		double ru = cp->ru_user_ns + cp->ru_sys_ns;

		row = table_row(&t);
		c = 0;
		row[c++] = pm_xstrdup(b->name);
		if (b->status != PM_BENCH_OK) {
			row[c++] = pm_xstrdup(b->status == PM_BENCH_UNSUPPORTED ?
					      "n/s" : "failed");
			continue;
		}
		row[c++] = fmt_value(b, b->stats.median);
		row[c++] = fmt_rel_ci(b);
		row[c++] = pm_xasprintf("%zu", b->ntrials);
		row[c++] = cp->done && ru > 0 ? pm_xasprintf("%.0f", 100 * cp->ru_sys_ns / ru) :
						pm_xstrdup("-");
		for (j = 0; j < PM_ARRAY_SIZE(sw_columns); j++)
			if (have_sw[j])
				row[c++] = fmt_counter(pm_bench_result_counter(b, sw_columns[j].name),
						       sw_columns[j].time);
		for (j = 0; j < nhw; j++) {
			const struct pm_counter_value *v;

			if (!have_hw[j])
				continue;
			v = pm_bench_result_counter(b, hw[j]);
			row[c++] = fmt_counter(v, false);
			if (!split_hw[j])
				continue;
			row[c++] = v && v->status == PM_CV_OK && !isnan(v->kernel) &&
				   v->per_op > 0 ?
				pm_xasprintf("%.0f", 100 * v->kernel / v->per_op) :
				pm_xstrdup("-");
		}
		if (have_hot) {
			double share = 0;
			const char *top = top_symbol(b, &share);

			row[c++] = *top ? pm_xasprintf("%s %.0f%%", top, 100 * share) :
					  pm_xstrdup("");
		}
		row[c++] = pm_xstrdup(b->converged || b->ntrials < 2 ? "" : "*");
	}
	table_print(&t, f);
	fprintf(f, "(per operation; sys%% from getrusage; k%% = kernel share of the event; "
		   "top symbol: most sampled, share of samples; * = CI target not reached)\n");
}

/* --instances/--threads: throughput and efficiency per N. */
static void render_scaling(const struct pm_bench_result *b, FILE *f)
{
	const json_t *pts = json_object_get(b->scaling, "points"), *p;
	const char *why = json_string_value(json_object_get(b->scaling, "unavailable"));
	size_t i;

	if (!b->scaling)
		return;
	fprintf(f, "  scaling (%s):", json_string_value(json_object_get(b->scaling, "mode")));
	if (why) {
		fprintf(f, " not run: %s\n", why);
		return;
	}
	json_array_foreach(pts, i, p) {
		const char *err = json_string_value(json_object_get(p, "error"));
		char t[32];

		if (err) {
			fprintf(f, "  %lld: %s;", (long long)json_integer_value(json_object_get(p, "n")), err);
			continue;
		}
		pm_fmt_count(t, sizeof(t), jnumber(p, "ops_per_s"));
		fprintf(f, "  %lld: %s ops/s (%.0f%%)%s",
			(long long)json_integer_value(json_object_get(p, "n")), t,
			100 * jnumber(p, "efficiency"), i + 1 < json_array_size(pts) ? "," : "");
	}
	fprintf(f, "  [N copies: throughput, efficiency vs N x one]\n");
}

static void render_detail(const struct pm_bench_result *b, FILE *f)
{
	const struct pm_counted_pass *cp = &b->counters;
	char t0[32], t1[32], t2[32];
	size_t i;

	fprintf(f, "%s: %s", b->name, b->summary ? b->summary : "");
	if (b->lmbench)
		fprintf(f, "  (lmbench %s)", b->lmbench);
	fputc('\n', f);
	if (b->status != PM_BENCH_OK) {
		fprintf(f, "  %s: %s\n",
			b->status == PM_BENCH_UNSUPPORTED ? "not supported here" : "failed",
			b->reason ? b->reason : "");
		return;
	}
	if (b->workload) {
		pm_render_workload(b, f);
		render_hotspots(b, f, 10);
		return;
	}
	pm_fmt_time(t0, sizeof(t0), b->stats.median);
	pm_fmt_time(t1, sizeof(t1), b->stats.ci_low);
	pm_fmt_time(t2, sizeof(t2), b->stats.ci_high);
	if (b->measured) {
		char *v = fmt_value(b, b->stats.median);

		fprintf(f, "  %-22s %s  (median of %zu measurements)\n", "value", v,
			b->ntrials);
		if (b->params)
			fprintf(f, "  %-22s %s\n", "parameters", b->params);
		return;
	}
	if (pm_bench_higher_is_better(b)) {
		char *v = fmt_value(b, b->stats.median);

		fprintf(f, "  %-22s %s\n", "rate", v);
		free(v);
	}
	if (b->ntrials < 2 || isnan(rel_ci(b)))
		fprintf(f, "  %-22s %s  (%zu trial%s, no interval)\n", "time/op", t0,
			b->ntrials, b->ntrials == 1 ? "" : "s");
	else
		fprintf(f, "  %-22s %s  ±%.1f%%  (%.0f%% CI %s .. %s; median of %zu trials in %zu round%s x %llu iterations%s)\n",
			"time/op", t0, 100 * rel_ci(b), 100 * b->stats.ci_level, t1, t2,
			b->ntrials, b->nrounds, b->nrounds == 1 ? "" : "s",
			(unsigned long long)b->iterations,
			b->converged ? "" : "; CI target not reached");
	if (b->placement)
		fprintf(f, "  %-22s %s (main process on CPU %d)\n", "placement",
			b->placement, b->cpu);
	else if (b->cpu >= 0)
		fprintf(f, "  %-22s CPU %d\n", "pinned", b->cpu);
	if (b->overhead_ns > 0.05) {
		pm_fmt_time(t0, sizeof(t0), b->overhead_ns);
		fprintf(f, "  %-22s %s per op subtracted\n", "overhead", t0);
	}
	if (b->params)
		fprintf(f, "  %-22s %s\n", "parameters", b->params);
	if (!cp->n) {
		render_scaling(b, f);
		render_hotspots(b, f, 10);
		return;
	}
	if (cp->done)
		fprintf(f, "  counters per op (separate counted pass of %llu ops, %d process%s%s, ran at %.2fx the timed latency):\n",
			(unsigned long long)cp->ops, cp->processes,
			cp->processes == 1 ? "" : "es",
			cp->inherit ? ", children included" : "", cp->perturbation);
	else
		fprintf(f, "  counters:\n");
	for (i = 0; i < cp->n; i++) {
		const struct pm_counter_value *v = &cp->v[i];
		bool time = !strcmp(v->name, "task-clock");

		if (v->status == PM_CV_NOT_SUPPORTED) {
			fprintf(f, "    %-20s %12s  %s\n", v->name, "<not supported>",
				v->reason ? v->reason : "");
			continue;
		}
		if (v->status == PM_CV_NOT_COUNTED) {
			fprintf(f, "    %-20s %12s  %s\n", v->name, "<not counted>",
				v->reason ? v->reason : "");
			continue;
		}
		if (time)
			pm_fmt_time(t0, sizeof(t0), v->per_op);
		else
			pm_fmt_count(t0, sizeof(t0), v->per_op);
		fprintf(f, "    %-20s %12s", v->name, t0);
		if (!isnan(v->kernel) && v->per_op > 0) {
			pm_fmt_count(t1, sizeof(t1), v->user);
			pm_fmt_count(t2, sizeof(t2), v->kernel);
			fprintf(f, "  user %s  kernel %s (%.0f%% kernel)", t1, t2,
				100 * v->kernel / v->per_op);
		}
		if (v->running < 0.999)
			fprintf(f, "  [counted %.0f%% of the time, scaled]", 100 * v->running);
		if (v->user_only)
			fprintf(f, "  [user space only]");
		fputc('\n', f);
	}
	if (cp->done && cp->ru_user_ns + cp->ru_sys_ns > 0) {
		pm_fmt_time(t1, sizeof(t1), cp->ru_user_ns);
		pm_fmt_time(t2, sizeof(t2), cp->ru_sys_ns);
		fprintf(f, "    %-20s %12s  user %s  sys %s (getrusage, tick-based)\n",
			"cpu time", "", t1, t2);
	}
	render_scaling(b, f);
	render_hotspots(b, f, 10);
}

void pm_render_text(const struct pm_result *r, FILE *f, unsigned flags)
{
	size_t i;

	if (!(flags & PM_RENDER_NO_HEADER))
		pm_render_header(r, f);
	if (r->nbench == 0) {
		fprintf(f, "(no benchmarks)\n");
		return;
	}
	if (r->nbench == 1 || (flags & PM_RENDER_DETAIL)) {
		for (i = 0; i < r->nbench; i++) {
			if (i)
				fputc('\n', f);
			render_detail(&r->bench[i], f);
		}
		return;
	}
	render_table(r, f);
	print_notes(r, f);
	print_unsupported(r, f);
}

static void csv_str(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, "%.6g", v);
}

void pm_render_csv_header(FILE *f)
{
	fprintf(f, "benchmark,status,unit,median_ns,ci_low_ns,ci_high_ns,trials,value,"
		   "event,event_status,per_op,user_per_op,kernel_per_op,running,run\n");
}

/* One row per benchmark and event; long format is easy to pivot.  The
 * last column names the run (label, else file), for several files. */
void pm_render_csv(const struct pm_result *r, FILE *f)
{
	const char *run = r->label ? r->label : r->path;
	size_t i, j;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];
		size_t n = b->counters.n ? b->counters.n : 1;

		for (j = 0; j < n; j++) {
			const struct pm_counter_value *v =
				b->counters.n ? &b->counters.v[j] : NULL;
			static const char *const st[] = { "ok", "not-supported", "not-counted" };
			static const char *const bst[] = { "ok", "unsupported", "failed" };

			csv_str(f, b->name);
			fprintf(f, ",%s,", bst[b->status]);
			csv_str(f, b->unit);
			csv_num(f, b->stats.median);
			csv_num(f, b->stats.ci_low);
			csv_num(f, b->stats.ci_high);
			fprintf(f, ",%zu", b->ntrials);
			csv_num(f, pm_bench_result_value(b, b->stats.median));
			fputc(',', f);
			if (v) {
				csv_str(f, v->name);
				fprintf(f, ",%s", st[v->status]);
				csv_num(f, v->per_op);
				csv_num(f, v->user);
				csv_num(f, v->kernel);
				csv_num(f, v->running);
			} else {
				fputs(",,,,,", f);
			}
			fputc(',', f);
			csv_str(f, run);
			fputc('\n', f);
		}
	}
}
