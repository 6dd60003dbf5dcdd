#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sample/profile.h"
#include "sysinfo/sysinfo.h"
#include "results/emulated.h"
#include "views/render.h"

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

#define MAX_HW_COLS 12	/* hardware events in the table; all in csv/json */
#define MAX_EVENTS 64

static bool is_sw_column(const char *name)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(sw_columns); i++)
		if (!strcmp(sw_columns[i].name, name))
			return true;
	return false;
}

static const char *si_str(const json_t *si, enum pm_fp_key key)
{
	const json_t *j = pm_sysinfo_at(si, key);
	const char *v = json_is_string(j) ? json_string_value(j) : NULL;

	/* a guest without a hostname (pmbench ab's) says "(none)": no name */
	if (key == PM_FP_HOSTNAME && v && (!*v || !strcmp(v, "(none)")))
		return NULL;
	return v;
}

static double jnumber(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* ---- notes: each said once, after the view ---- */

struct notes {
	char **v;
	size_t n;
};

static void note_add(struct notes *ns, char *s)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (!strcmp(ns->v[i], s)) {
			free(s);
			return;
		}
	ns->v = pm_xgrow(ns->v, ns->n, sizeof(*ns->v));
	ns->v[ns->n++] = s;
}

static bool note_seen(const struct notes *ns, const char *s)
{
	size_t i;

	for (i = 0; i < ns->n; i++)
		if (!strcmp(ns->v[i], s))
			return true;
	return false;
}

static void notes_print(struct notes *ns, FILE *f, enum pm_table_format fmt)
{
	size_t i;

	if (ns->n && fmt == PM_TABLE_MARKDOWN)
		fputc('\n', f);
	for (i = 0; i < ns->n; i++) {
		if (fmt == PM_TABLE_MARKDOWN) {
			fputs("- ", f);
			pm_md_escape(f, ns->v[i]);
			fputc('\n', f);
		} else {
			fprintf(f, "  %s\n", ns->v[i]);
		}
		free(ns->v[i]);
	}
	free(ns->v);
	ns->v = NULL;
	ns->n = 0;
}

/* ---- header ---- */

/* An imported result holds only what the report printed: say so. */
static void import_notes(const struct pm_result *r, struct notes *ns)
{
	const json_t *imp = json_object_get(r->options, "import");
	const char *file = json_string_value(json_object_get(imp, "file"));
	size_t left = json_array_size(json_object_get(imp, "left_out"));
	bool aim9 = !strcmp(r->source, "import:aim9");

	if (aim9)
		note_add(ns, pm_xasprintf("imported from %s (an AIM9 log): figures only; no counters, hotspots "
					  "or fingerprint (the log names no host or kernel)",
					  file ? file : "a report"));
	else
		note_add(ns, pm_xasprintf("imported from %s (an lmbench summary): figures only; no counters, "
					  "hotspots or fingerprint beyond the host, OS string and Mhz it prints",
					  file ? file : "a report"));
	if (left)
		note_add(ns, pm_xasprintf("%zu row%s of the summary had figures that could not be placed and "
					  "were left out (options.import.left_out)", left,
					  left == 1 ? "" : "s"));
}

char *pm_render_machine(const struct pm_result *r)
{
	const json_t *si = r->sysinfo;
	const json_t *ncpu = pm_sysinfo_at(si, PM_FP_CPU_ONLINE);
	const char *host = si_str(si, PM_FP_HOSTNAME);
	const char *rel = si_str(si, PM_FP_KERNEL_RELEASE);
	const char *mach = si_str(si, PM_FP_KERNEL_MACHINE);
	const char *cpu = si_str(si, PM_FP_CPU_MODEL_NAME);
	char *buf = NULL, *out;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f)
		return pm_xstrdup("?");
	if (host)
		fprintf(f, "%s: ", host);
	fprintf(f, "Linux %s %s", rel ? rel : "?", mach ? mach : "");
	if (cpu)
		fprintf(f, ", %s", cpu);
	if (json_is_integer(ncpu))
		fprintf(f, " (%lld CPUs)", (long long)json_integer_value(ncpu));
	if (r->created)
		fprintf(f, ", %s", r->created);
	if (r->label)
		fprintf(f, " [%s]", r->label);
	fclose(f);
	out = pm_xstrdup(buf);
	free(buf);
	return out;
}

static void header(const struct pm_result *r, FILE *f, enum pm_table_format fmt)
{
	const char *host = si_str(r->sysinfo, PM_FP_HOSTNAME);
	char *m = pm_render_machine(r), *rest = m;

	/* "host: " is printed as " on host: " */
	if (host && !strncmp(m, host, strlen(host)) && m[strlen(host)] == ':')
		rest = m + strlen(host) + 2;
	/* markdown: a heading, as explain's report has */
	if (fmt == PM_TABLE_MARKDOWN)
		fputs("## ", f);
	fprintf(f, "pmbench %s", r->version ? r->version : "?");
	if (r->source && strcmp(r->source, "run"))
		fprintf(f, " (%s)", r->source);
	if (host)
		fprintf(f, " on %s", host);
	fputs(fmt == PM_TABLE_MARKDOWN ? "\n\n" : ": ", f);
	fputs(rest, f);
	fputc('\n', f);
	if (fmt == PM_TABLE_MARKDOWN)
		fputc('\n', f);
	free(m);
	/* what an imported file lacks, right under the line that names it */
	if (r->source && !strncmp(r->source, "import:", 7)) {
		struct notes imp = { 0 };

		import_notes(r, &imp);
		for (size_t i = 0; i < imp.n; i++) {
			if (fmt == PM_TABLE_MARKDOWN) {
				pm_md_escape(f, imp.v[i]);
				fputs(i + 1 < imp.n ? "  \n" : "\n\n", f);
			} else {
				fprintf(f, "%s\n", imp.v[i]);
			}
			free(imp.v[i]);
		}
		free(imp.v);
	}
	pm_render_interrupted(r, f);
}

void pm_render_interrupted(const struct pm_result *r, FILE *f)
{
	long long asked;

	const json_t *rounds = json_object_get(r->options, "rounds");
	size_t i, fewest = SIZE_MAX;

	if (!pm_result_interrupted(r, &asked))
		return;
	for (i = 0; i < r->nbench; i++)
		if (r->bench[i].nrounds < fewest)
			fewest = r->bench[i].nrounds;
	/* in rounds, every benchmark may have figures, from fewer rounds */
	if (asked >= 0 && r->nbench == (size_t)asked && json_is_integer(rounds) &&
	    fewest < (size_t)json_integer_value(rounds))
		fprintf(f, "INTERRUPTED: the run was stopped; all %zu benchmarks have figures, "
			"some from %zu of %lld rounds\n", r->nbench, fewest,
			(long long)json_integer_value(rounds));
	else if (asked >= 0)
		fprintf(f, "INTERRUPTED: the run was stopped; %zu of %lld benchmarks finished\n",
			r->nbench, asked);
	else
		fprintf(f, "INTERRUPTED: the run was stopped; only the %zu benchmarks below finished\n",
			r->nbench);
}

void pm_render_header(const struct pm_result *r, FILE *f)
{
	header(r, f, PM_TABLE_TEXT);
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

char *pm_fmt_bench_value(const struct pm_bench_result *b, double ns)
{
	double v = pm_bench_result_value(b, ns);

	if (b->measured)
		return pm_xasprintf("%.4g %s", v, b->unit);
	if (pm_bench_higher_is_better(b))
		return pm_xasprintf("%.1f %s", v, b->unit);
	return fmt_time(ns);
}

/* The CI target the run asked for, NAN when the file does not say. */
static double ci_target_of(const struct pm_result *r)
{
	return jnumber(r->options, "ci_target");
}

/* Did b's interval stay wider than the run's target?  (What the view
 * prints, not the runner's own test, so that the two agree.) */
static bool missed_target(const struct pm_result *r, const struct pm_bench_result *b,
			  const struct pm_figure *f)
{
	double t = ci_target_of(r), rel = pm_figure_rel(f);

	if (b->status != PM_BENCH_OK || b->ntrials < 2 || isnan(rel))
		return false;
	return isnan(t) ? !b->converged : rel > t;
}

static void counter_cell(struct pm_table *t, size_t col,
			 const struct pm_counter_value *v, bool time)
{
	char *s;

	if (!v) {
		pm_table_cell(t, col, "", NULL);
		return;
	}
	if (v->status == PM_CV_NOT_SUPPORTED) {
		pm_table_cell(t, col, "n/s", "");
		return;
	}
	if (v->status == PM_CV_NOT_COUNTED) {
		pm_table_cell(t, col, "n/c", "");
		return;
	}
	s = time ? fmt_time(v->per_op) : fmt_count(v->per_op);
	pm_table_cell_num(t, col, s, v->per_op);
	free(s);
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

/* Events that could not be counted, those with one reason on one line. */
static void unsupported_notes(const struct pm_result *r, struct notes *ns)
{
	const char *names[MAX_EVENTS], *reasons[MAX_EVENTS];
	enum pm_cv_status status[MAX_EVENTS];
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
			if (!seen && n < MAX_EVENTS) {
				names[n] = v->name;
				status[n] = v->status;
				reasons[n++] = v->reason ? v->reason : "";
			}
		}
	}
	for (i = 0; i < n; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m;

		if (!reasons[i] || !(m = open_memstream(&buf, &len)))
			continue;
		fputs(names[i], m);
		for (j = i + 1; j < n; j++) {
			if (reasons[j] && status[j] == status[i] &&
			    !strcmp(reasons[i], reasons[j])) {
				fprintf(m, ", %s", names[j]);
				reasons[j] = NULL;
			}
		}
		fprintf(m, ": %s %s", status[i] == PM_CV_NOT_SUPPORTED ?
			"<not supported>" : "<not counted>", reasons[i]);
		fclose(m);
		note_add(ns, buf);
	}
}

/* "a, b" + ", c" */
static void list_add(struct pm_buf *l, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void list_add(struct pm_buf *l, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	v = pm_xvasprintf(fmt, ap);
	va_end(ap);
	pm_buf_sep(l, ", ");
	pm_buf_add(l, v);
	free(v);
}

/* Benchmarks that did not run: one note per reason, naming them all. */
static void not_run_notes(const struct pm_result *r, struct notes *ns)
{
	size_t i, j;

	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];
		const char *why = b->reason ? b->reason : "";
		struct pm_buf names = PM_BUF_INIT;

		if (b->status == PM_BENCH_OK)
			continue;
		for (j = 0; j < i; j++)
			if (r->bench[j].status == b->status &&
			    !strcmp(r->bench[j].reason ? r->bench[j].reason : "", why))
				break;
		if (j < i)
			continue;
		for (j = i; j < r->nbench; j++)
			if (r->bench[j].status == b->status &&
			    !strcmp(r->bench[j].reason ? r->bench[j].reason : "", why))
				list_add(&names, "%s", r->bench[j].name);
		note_add(ns, pm_xasprintf("%s: %s: %s", pm_buf_str(&names), b->status == PM_BENCH_UNSUPPORTED ?
					  "not supported here" : "failed", why));
		pm_buf_free(&names);
	}
}

/*
 * The intervals that stayed wider than the run's target, and those too
 * wide to print: one line each for the whole view, naming the
 * benchmarks only when not all of them (a mark on every row tells
 * nothing).
 */
static void target_notes(const struct pm_result *r, struct notes *ns)
{
	struct pm_buf missed = PM_BUF_INIT, wide = PM_BUF_INIT, work = PM_BUF_INIT;
	char target[32] = "its CI target";
	size_t i, nmissed = 0, nok = 0, rounds = 0;
	struct pm_figure f;

	if (ci_target_of(r) > 0)
		snprintf(target, sizeof(target), "±%.4g%%", 100 * ci_target_of(r));
	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];

		if (!pm_render_figure(b, &f))
			continue;
		nok++;
		if (pm_figure_unbounded(&f))
			list_add(&wide, "%s (%zu %s)", b->name, f.n, pm_figure_basis_name(f.basis));
		if (!missed_target(r, b, &f))
			continue;
		if (b->workload && !pm_figure_unbounded(&f))
			list_add(&work, "%s ±%.1f%% after %zu runs", b->name,
				 100 * pm_figure_rel(&f), b->ntrials);
		nmissed++;
		rounds += f.basis != PM_FIG_TRIALS;
		list_add(&missed, "%s", b->name);
	}
	if (wide.len)
		note_add(ns, pm_xasprintf("unbounded = too few rounds or runs to bound the figure "
					  "(its interval is wider than ±%.0f%%): %s",
					  100 * PM_FIGURE_WIDE, pm_buf_str(&wide)));
	if (work.len)
		note_add(ns, pm_xasprintf("not converged: %s (more runs, -r or --max-time, or an "
					  "idle machine)", pm_buf_str(&work)));
	else if (nmissed)
		note_add(ns, pm_xasprintf("%zu of %zu did not reach %s%s%s: %s (%s)", nmissed, nok,
					  target, nmissed < nok ? ": " : "",
					  nmissed < nok ? pm_buf_str(&missed) : "",
					  rounds ? "the rounds, each a fresh process, disagree" :
					  "the trials vary",
					  rounds ? "more --max-time and --max-rounds, or an idle machine" :
					  "more --max-time, --cpu pinning or an idle machine"));
	pm_buf_free(&missed);
	pm_buf_free(&wide);
	pm_buf_free(&work);
}

/* The counted processes' CPU time per op: task-clock, else rusage. */
static double counted_cpu_per_op(const struct pm_bench_result *b)
{
	const struct pm_counter_value *v = pm_bench_result_counter(b, "task-clock");

	if (v && v->status == PM_CV_OK && !isnan(v->per_op))
		return v->per_op;
	return b->counters.ru_user_ns + b->counters.ru_sys_ns;
}

/*
 * How much counting slowed the operation, as the counted pass shows it:
 * its time per op less the time it waited for a CPU, and no more than
 * its processes' CPU time per op, over the timed latency.  A pass that
 * took longer only off the CPU (waiting for one, or blocked) did the
 * same work per op: counting did not slow it.
 */
static double counting_slowdown(const struct pm_bench_result *b)
{
	const struct pm_counted_pass *cp = &b->counters;
	double on_cpu = cp->ns_per_op, cpu = counted_cpu_per_op(b);

	if (!isnan(cp->waited))
		on_cpu *= 1 - fmin(cp->waited, 1);
	if (cpu > 0)
		on_cpu = fmin(on_cpu, cpu);
	return on_cpu * cp->perturbation / cp->ns_per_op;
}

/* What did not run, did not reach its target or was perturbed: one note
 * each, naming every benchmark it concerns. */
static void bench_notes(const struct pm_result *r, struct notes *ns)
{
	struct pm_buf slow = PM_BUF_INIT, off = PM_BUF_INIT;
	size_t i;

	not_run_notes(r, ns);
	target_notes(r, ns);
	for (i = 0; i < r->nbench; i++) {
		const struct pm_counted_pass *cp = &r->bench[i].counters;
		double slowed;

		if (r->bench[i].status != PM_BENCH_OK || !cp->done || !(cp->perturbation > 1.05) ||
		    !(cp->ns_per_op > 0))
			continue;
		slowed = counting_slowdown(&r->bench[i]);
		if (slowed > 1.05)
			list_add(&slow, "%s %.0f%%%s", r->bench[i].name, 100 * (slowed - 1),
				 cp->inherit ? " (children counted)" : "");
		else if (cp->waited >= 0.01)
			list_add(&off, "%s %.0f%% (it waited for a CPU %.0f%% of the pass)",
				 r->bench[i].name, 100 * (cp->perturbation - 1), 100 * cp->waited);
		else
			list_add(&off, "%s %.0f%%", r->bench[i].name, 100 * (cp->perturbation - 1));
	}
	if (slow.len)
		note_add(ns, pm_xasprintf("counting slowed the operation (the latency comes from the "
					  "uncounted trials; the counts describe a slower run): %s", pm_buf_str(&slow)));
	if (off.len)
		note_add(ns, pm_xasprintf("the counted pass took longer per op than the trials, but "
					  "off the CPU (its CPU time per op did not grow: it waited "
					  "or blocked; counting did not slow it): %s", pm_buf_str(&off)));
	pm_buf_free(&slow);
	pm_buf_free(&off);
}

/* ---- hotspots ---- */

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

static const char *base_name(const char *path)
{
	const char *slash = path ? strrchr(path, '/') : NULL;

	return slash ? slash + 1 : path ? path : "";
}

/* The share of samples in pmbench's own code (symbols), 0 with all frames. */
static double harness_share(const json_t *h)
{
	const json_t *x;
	double share = 0;
	size_t i;

	json_array_foreach(json_object_get(h, "symbols"), i, x)
		if (pm_hotspot_symbol_is_harness(x))
			share += jnumber(x, "share");
	return share;
}

/* A symbol's time per op (per run of a workload): its share of the
 * samples times the figure every view shows (the file stores it against
 * the trials' median, or a workload's mean). */
static double sym_cost(const struct pm_bench_result *b, const json_t *x)
{
	struct pm_figure f;

	if (!b->measured && pm_render_figure(b, &f) &&
	    !isnan(jnumber(x, "share")))
		return jnumber(x, "share") * f.value;
	return jnumber(x, "cost_ns_per_op");
}

/* Samples moved past where interrupts came back on (irq-enable.syms). */
static void skid_line(const json_t *h, FILE *f, const char *ind)
{
	double n = jnumber(h, "skid_samples"), all = jnumber(h, "samples");
	const json_t *v;
	const char *name;
	struct pm_buf names = PM_BUF_INIT;

	if (!(n > 0) || !(all > 0))
		return;
	json_object_foreach((json_t *)json_object_get(h, "skid_symbols"), name, v) {
		pm_buf_sep(&names, ", ");
		pm_buf_add(&names, name);
	}
	fprintf(f, "%s%.0f%% of samples were taken with interrupts off and landed where "
		"they came back on (%s): charged to the caller that ran with them off\n",
		ind, 100 * n / all, names.len ? pm_buf_str(&names) : "?");
	pm_buf_free(&names);
}

/* Symbols and chains under this share of the samples are left out of the
 * text views (show --percent-limit; perf report's default). */
static double percent_limit = PM_HOTSPOT_LIMIT;

void pm_render_set_percent_limit(double share)
{
	percent_limit = share;
}

/* Is share below the limit?  Said once for the view when it is. */
static bool below_limit(double share, struct notes *ns)
{
	if (!(share < percent_limit))
		return false;
	note_add(ns, pm_xasprintf("hotspots: symbols and call chains below %.4g%% of the samples "
				  "are left out (show --percent-limit 0 shows them)",
				  100 * percent_limit));
	return true;
}

/* The sampled profile of one benchmark: summary line, top symbols,
 * top stacks.  max_rows 0: everything stored. */
/* The hotspots' heading: samples, event, kernel and resolved shares. */
static void hotspots_heading(const json_t *h, FILE *f, const char *ind, double samples)
{
	fprintf(f, "%shotspots: %.0f samples (%s every %.0f %s), %.0f%% kernel, %.0f%% resolved",
		ind, samples, json_string_value(json_object_get(h, "event")),
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
		fprintf(f, "%suser stacks unwound completely (libunwind): %.0f%%\n", ind,
			100 * jnumber(h, "unwound_share"));
}

/* The table of the hottest symbols, pmbench's own left out unless all. */
static void hotspot_symbols(const struct pm_bench_result *b, FILE *f,
			    enum pm_table_format fmt, bool all, size_t max_rows,
			    struct notes *ns)
{
	const json_t *h = b->hotspots, *syms, *x;
	bool md = fmt == PM_TABLE_MARKDOWN;
	struct pm_table *t;
	size_t i, rows = 0;

	t = pm_table_new();
	pm_table_indent(t, md ? 0 : 4);
	pm_table_add_col(t, "share", NULL, 0);
	/* a workload's "op" is one run of the command */
	pm_table_add_col(t, b->workload ? "cost/run" : "cost/op", "cost_ns_per_op", 0);
	pm_table_add_col(t, "symbol", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "object", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "size", NULL, 0);
	syms = json_object_get(h, "symbols");
	json_array_foreach(syms, i, x) {
		char cost[32], size[32];

		if (!all && pm_hotspot_symbol_is_harness(x))
			continue;
		if (below_limit(jnumber(x, "share"), ns))
			continue;
		if (max_rows && rows++ >= max_rows)
			break;
		pm_fmt_time(cost, sizeof(cost), sym_cost(b, x));
		fmt_size(size, sizeof(size), jnumber(x, "size"));
		pm_table_row(t, NULL);
		pm_table_cellf(t, 0, "%.1f%%", 100 * jnumber(x, "share"));
		pm_table_cell(t, 1, cost, NULL);
		pm_table_cell(t, 2, json_string_value(json_object_get(x, "name")), NULL);
		pm_table_cell(t, 3, base_name(json_string_value(json_object_get(x, "object"))),
			      NULL);
		pm_table_cellf(t, 4, "%s%s", size,
			       json_is_true(json_object_get(x, "size_exact")) ||
			       !json_is_true(json_object_get(x, "kernel")) ? "" : "~");
	}
	if (md)
		fputc('\n', f);
	pm_table_print(t, f, fmt);
	pm_table_free(t);
}

/* The top call chains, as aligned text (a code block in markdown). */
static void hotspot_chains(const json_t *h, FILE *f, bool md, bool all, double samples,
			   size_t max_rows, struct notes *ns)
{
	struct pm_table *chains;
	json_t *stacks;
	const json_t *x;
	size_t i, rows = 0;

	stacks = pm_hotspots_stacks(h, all, NULL);
	if (!json_array_size(stacks)) {
		json_decref(stacks);
		return;
	}
	fprintf(f, md ? "\ntop call chains:\n\n```\n" : "    top call chains:\n");
	/* in markdown a code block: aligned text all the same */
	chains = pm_table_new();
	pm_table_no_head(chains);
	pm_table_indent(chains, md ? 0 : 4);
	pm_table_add_col(chains, "share", NULL, 0);
	pm_table_add_col(chains, "stack", NULL, PM_COL_LEFT);
	pm_table_min_width(chains, 0, 6);
	json_array_foreach(stacks, i, x) {
		if (below_limit(jnumber(x, "samples") / samples, ns))
			continue;
		if (rows++ >= (max_rows ? 5 : 20))
			break;
		pm_table_row(chains, NULL);
		pm_table_cellf(chains, 0, "%.1f%%", 100 * jnumber(x, "samples") / samples);
		pm_table_cell(chains, 1, json_string_value(json_object_get(x, "stack")), NULL);
	}
	pm_table_print(chains, f, PM_TABLE_TEXT);
	pm_table_free(chains);
	if (md)
		fputs("```\n", f);
	json_decref(stacks);
}

static void render_hotspots(const struct pm_bench_result *b, FILE *f,
			    enum pm_table_format fmt, unsigned flags,
			    size_t max_rows, struct notes *ns)
{
	const json_t *h = b->hotspots;
	bool md = fmt == PM_TABLE_MARKDOWN, all = flags & PM_RENDER_ALL_FRAMES;
	const char *why, *ind = md ? "" : "  ";
	double samples, own;

	if (!h)
		return;
	if ((why = json_string_value(json_object_get(h, "unavailable")))) {
		fprintf(f, "%shotspots: not sampled: %s\n", ind, why);
		return;
	}
	samples = jnumber(h, "samples");
	hotspots_heading(h, f, ind, samples);
	skid_line(h, f, ind);
	/* said once for the whole view */
	if ((why = json_string_value(json_object_get(h, "kernel_unavailable"))))
		note_add(ns, pm_xasprintf("no kernel symbols: %s", why));
	if (json_is_false(json_object_get(h, "kernel_sampled")))
		note_add(ns, pm_xstrdup("kernel not sampled: its time is charged to the user "
					"function that entered it"));
	if ((why = json_string_value(json_object_get(h, "error"))))
		fprintf(f, "%sthe sampled pass stopped early: %s\n", ind, why);
	if (samples <= 0)
		return;
	own = all ? 0 : harness_share(h);
	if (own > 0)
		note_add(ns, pm_xstrdup("pmbench's own frames (main, the runner) are left out of "
					"symbols and call chains; --all-frames shows them"));
	hotspot_symbols(b, f, fmt, all, max_rows, ns);
	hotspot_chains(h, f, md, all, samples, max_rows, ns);
}

static void bench_title(const struct pm_bench_result *b, FILE *f, bool md)
{
	if (md)
		fputs("### ", f);
	fprintf(f, "%s: %s", b->name, b->summary ? b->summary : "");
	if (b->lmbench)
		fprintf(f, "  (lmbench %s)", b->lmbench);
	fputc('\n', f);
	if (md)
		fputc('\n', f);
}

static const char *not_run(const struct pm_bench_result *b)
{
	return b->status == PM_BENCH_UNSUPPORTED ? "not supported here" : "failed";
}

void pm_render_hotspots(const struct pm_result *r, FILE *f,
			enum pm_table_format fmt, unsigned flags)
{
	struct notes ns = { 0 };
	size_t i;

	if (fmt != PM_TABLE_CSV)
		pm_render_interrupted(r, f);
	if (fmt == PM_TABLE_CSV) {
		const char *run = r->label ? r->label : r->path;

		for (i = 0; i < r->nbench; i++) {
			const struct pm_bench_result *b = &r->bench[i];
			const json_t *x;
			size_t k;

			json_array_foreach(json_object_get(b->hotspots, "symbols"), k, x) {
				if (!(flags & PM_RENDER_ALL_FRAMES) && pm_hotspot_symbol_is_harness(x))
					continue;
				pm_csv_field(f, b->name);
				fputc(',', f);
				pm_csv_field(f, json_string_value(json_object_get(x, "name")));
				fputc(',', f);
				pm_csv_field(f, json_string_value(json_object_get(x, "object")));
				fprintf(f, ",%d,%.6g,", json_is_true(json_object_get(x, "kernel")),
					jnumber(x, "share"));
				if (!isnan(sym_cost(b, x)))
					fprintf(f, "%.6g", sym_cost(b, x));
				fprintf(f, ",%lld,", (long long)json_integer_value(json_object_get(x, "samples")));
				if (jnumber(x, "size") > 0)
					fprintf(f, "%.0f", jnumber(x, "size"));
				fputc(',', f);
				pm_csv_field(f, run);
				fputc('\n', f);
			}
		}
		return;
	}
	for (i = 0; i < r->nbench; i++) {
		const struct pm_bench_result *b = &r->bench[i];
		const char *ind = fmt == PM_TABLE_MARKDOWN ? "" : "  ";

		if (i)
			fputc('\n', f);
		bench_title(b, f, fmt == PM_TABLE_MARKDOWN);
		if (b->status != PM_BENCH_OK)
			fprintf(f, "%s%s: %s\n", ind, not_run(b), b->reason ? b->reason : "");
		else if (b->measured)
			fprintf(f, "%shotspots: none (a measured parameter, not a timed loop)\n", ind);
		else if (!b->hotspots)
			fprintf(f, "%shotspots: none recorded (--no-profile, or an imported result)\n",
				ind);
		else
			render_hotspots(b, f, fmt, flags, 0, &ns);
		if (b->status == PM_BENCH_OK)
			pm_render_emulated(b, f, fmt, 0);
	}
	if (ns.n)
		fputc('\n', f);
	notes_print(&ns, f, fmt);
}

void pm_render_hotspots_csv_header(FILE *f)
{
	fputs("benchmark,symbol,object,kernel,share,cost_ns_per_op,samples,size,run\n", f);
}

/* The leaf symbol with the most samples, "" when none. */
static const char *top_symbol(const struct pm_bench_result *b, double *share,
			      bool all)
{
	const json_t *syms = json_object_get(b->hotspots, "symbols"), *x;
	size_t i;

	json_array_foreach(syms, i, x) {
		const char *name = json_string_value(json_object_get(x, "name"));

		if (name && strcmp(name, "[other]") && (all || !pm_hotspot_symbol_is_harness(x))) {
			*share = jnumber(x, "share");
			return name;
		}
	}
	return "";
}

/* ---- the summary table ---- */

/* The summary table's columns: which are shown, where, and what the
 * legend must explain. */
struct summary_cols {
	const char *hw[MAX_HW_COLS];
	size_t nhw;
	bool have_hw[MAX_HW_COLS], split_hw[MAX_HW_COLS];
	bool have_sw[PM_ARRAY_SIZE(sw_columns)], have_hot, have_sys, have_emu;
	bool any_ns, any_nc, any_k;
	unsigned bases;		/* 1 << basis of the figures shown */
	size_t col_sys, col_sw[PM_ARRAY_SIZE(sw_columns)], col_hw[MAX_HW_COLS];
	size_t col_hot, col_emu;
	bool all_frames;
};

/* Only the columns some benchmark has a figure for. */
static void summary_columns(const struct pm_result *r, struct pm_table *t,
			    struct summary_cols *c)
{
	size_t i, j;

	c->nhw = hw_event_names(r, c->hw, MAX_HW_COLS);
	for (j = 0; j < c->nhw; j++) {
		c->have_hw[j] = event_counted_anywhere(r, c->hw[j]);
		c->split_hw[j] = event_split_anywhere(r, c->hw[j]);
		c->any_k = c->any_k || (c->have_hw[j] && c->split_hw[j]);
	}
	for (j = 0; j < PM_ARRAY_SIZE(sw_columns); j++)
		c->have_sw[j] = event_counted_anywhere(r, sw_columns[j].name);
	for (i = 0; i < r->nbench; i++) {
		const struct pm_counted_pass *cp = &r->bench[i].counters;
		double share;

		struct pm_emu_amount emu;

		c->have_hot = c->have_hot || *top_symbol(&r->bench[i], &share, c->all_frames);
		c->have_emu = c->have_emu || pm_emulated_amount(&r->bench[i], "instructions",
								 "kernel", &emu);
		c->have_sys = c->have_sys || (cp->done && cp->ru_user_ns + cp->ru_sys_ns > 0);
	}
	pm_table_add_col(t, "benchmark", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "time/op", NULL, 0);
	{
		char *h = pm_xasprintf("±%.0f%%", 100 * PM_FIGURE_LEVEL);

		pm_table_add_col(t, h, NULL, 0);
		free(h);
	}
	pm_table_add_col(t, "trials", NULL, 0);
	if (c->have_sys)
		c->col_sys = pm_table_add_col(t, "sys%", NULL, 0);
	for (j = 0; j < PM_ARRAY_SIZE(sw_columns); j++)
		if (c->have_sw[j])
			c->col_sw[j] = pm_table_add_col(t, sw_columns[j].col, NULL, 0);
	for (j = 0; j < c->nhw; j++) {
		if (!c->have_hw[j])
			continue;
		c->col_hw[j] = pm_table_add_col(t, c->hw[j], NULL, 0);
		if (c->split_hw[j])
			pm_table_add_col(t, "k%", NULL, 0);
	}
	/* apart from the hardware events: counted in an emulated CPU */
	if (c->have_emu)
		c->col_emu = pm_table_add_col(t, "emul k-insn", NULL, 0);
	if (c->have_hot)
		c->col_hot = pm_table_add_col(t, "top symbol", NULL, PM_COL_LEFT);
}

/* The counter columns of one benchmark's row. */
static void summary_counters(struct pm_table *t, const struct pm_bench_result *b,
			     struct summary_cols *c)
{
	const struct pm_counter_value *v;
	size_t j;

	for (j = 0; j < PM_ARRAY_SIZE(sw_columns); j++) {
		if (!c->have_sw[j])
			continue;
		v = pm_bench_result_counter(b, sw_columns[j].name);
		counter_cell(t, c->col_sw[j], v, sw_columns[j].time);
		c->any_ns = c->any_ns || (v && v->status == PM_CV_NOT_SUPPORTED);
		c->any_nc = c->any_nc || (v && v->status == PM_CV_NOT_COUNTED);
	}
	for (j = 0; j < c->nhw; j++) {
		if (!c->have_hw[j])
			continue;
		v = pm_bench_result_counter(b, c->hw[j]);
		counter_cell(t, c->col_hw[j], v, false);
		c->any_ns = c->any_ns || (v && v->status == PM_CV_NOT_SUPPORTED);
		c->any_nc = c->any_nc || (v && v->status == PM_CV_NOT_COUNTED);
		if (!c->split_hw[j])
			continue;
		if (v && v->status == PM_CV_OK && !isnan(v->kernel) && v->per_op > 0)
			pm_table_cellf(t, c->col_hw[j] + 1, "%.0f", 100 * v->kernel / v->per_op);
		else
			pm_table_cell(t, c->col_hw[j] + 1, "-", NULL);
	}
}

static void summary_row(struct pm_table *t, const struct pm_bench_result *b,
			struct summary_cols *c)
{
	const struct pm_counted_pass *cp = &b->counters;
	double ru = cp->ru_user_ns + cp->ru_sys_ns;
	struct pm_figure fig;
	char *s;

	pm_table_row(t, b->name);
	pm_table_cell(t, 0, b->name, NULL);
	if (!pm_render_figure(b, &fig)) {
		pm_table_cell(t, 1, b->status == PM_BENCH_UNSUPPORTED ? "n/s" :
			      b->status == PM_BENCH_FAILED ? "failed" : "-", NULL);
		c->any_ns = c->any_ns || b->status == PM_BENCH_UNSUPPORTED;
		return;
	}
	c->bases |= 1u << fig.basis;
	s = pm_fmt_bench_value(b, fig.value);
	pm_table_cell(t, 1, s, NULL);
	free(s);
	s = pm_fmt_figure_rel(&fig);
	pm_table_cell(t, 2, s, NULL);
	free(s);
	pm_table_cellf(t, 3, "%zu", b->ntrials);
	if (c->have_sys) {
		if (cp->done && ru > 0)
			pm_table_cellf(t, c->col_sys, "%.0f", 100 * cp->ru_sys_ns / ru);
		else
			pm_table_cell(t, c->col_sys, "-", NULL);
	}
	summary_counters(t, b, c);
	if (c->have_emu) {
		struct pm_emu_amount k;
		char v[32];

		if (pm_emulated_amount(b, "instructions", "kernel", &k)) {
			pm_fmt_count(v, sizeof(v), k.mean);
			pm_table_cell(t, c->col_emu, v, NULL);
		} else {
			pm_table_cell(t, c->col_emu, "-", NULL);
		}
	}
	if (c->have_hot) {
		double share = 0;
		const char *top = top_symbol(b, &share, c->all_frames);

		if (*top)
			pm_table_cellf(t, c->col_hot, "%s %.0f%%", top, 100 * share);
	}
}

static void render_table(const struct pm_result *r, FILE *f,
			 enum pm_table_format fmt, unsigned flags,
			 struct notes *ns)
{
	struct summary_cols c = { .all_frames = flags & PM_RENDER_ALL_FRAMES };
	struct pm_table *t = pm_table_new();
	char *legend, *fig;
	size_t i;

	summary_columns(r, t, &c);
	for (i = 0; i < r->nbench; i++)
		summary_row(t, &r->bench[i], &c);
	pm_table_print(t, f, fmt);
	pm_table_free(t);
	/* the legend explains the columns shown, nothing else */
	legend = pm_xasprintf("per operation%s%s%s%s%s%s",
			      c.have_sys ? "; sys% from getrusage" : "",
			      c.any_k ? "; k% = kernel share of the event" : "",
			      c.have_emu ? "; emul k-insn = kernel instructions " PM_EMULATED_NOTE : "",
			      c.have_hot ? "; top symbol: most sampled, share of samples" : "",
			      c.any_ns ? "; n/s = not supported" : "",
			      c.any_nc ? "; n/c = not counted" : "");
	fig = pm_figure_legend(c.bases);
	if (fmt == PM_TABLE_MARKDOWN)
		fprintf(f, "\n(%s)  \n(", legend);
	else
		fprintf(f, "(%s)\n(", legend);
	if (fmt == PM_TABLE_MARKDOWN)
		pm_md_escape(f, fig);
	else
		fputs(fig, f);
	fputs(")\n", f);
	free(legend);
	free(fig);
	bench_notes(r, ns);
	unsupported_notes(r, ns);
}

/* --instances/--threads: throughput and efficiency per N. */
static void render_scaling(const struct pm_bench_result *b, FILE *f, const char *ind)
{
	const json_t *pts = json_object_get(b->scaling, "points"), *p;
	const char *why = json_string_value(json_object_get(b->scaling, "unavailable"));
	size_t i;

	if (!b->scaling)
		return;
	fprintf(f, "%sscaling (%s):", ind, json_string_value(json_object_get(b->scaling, "mode")));
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

/*
 * A benchmark's key/value lines: in text a table (values at column 25),
 * in markdown a list ("- key: value") printed as it comes.
 */
struct kv_list {
	FILE *f;
	bool md;
	struct pm_table *t;
};

static void kv_begin(struct kv_list *k, FILE *f, bool md)
{
	k->f = f;
	k->md = md;
	k->t = pm_table_new();
	pm_table_no_head(k->t);
	pm_table_indent(k->t, 2);
	pm_table_add_col(k->t, "key", NULL, PM_COL_LEFT);
	pm_table_add_col(k->t, "value", NULL, PM_COL_LEFT);
	pm_table_min_width(k->t, 0, 21);
}

static void kv(struct kv_list *k, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void kv(struct kv_list *k, const char *key, const char *fmt, ...)
{
	va_list ap;
	char *v;

	va_start(ap, fmt);
	v = pm_xvasprintf(fmt, ap);
	va_end(ap);
	if (k->md) {
		fprintf(k->f, "- %s: %s\n", key, v);
	} else {
		pm_table_row(k->t, key);
		pm_table_cell(k->t, 0, key, NULL);
		pm_table_cell(k->t, 1, v, NULL);
	}
	free(v);
}

static void kv_end(struct kv_list *k)
{
	if (!k->md)
		pm_table_print(k->t, k->f, PM_TABLE_TEXT);
	pm_table_free(k->t);
	k->t = NULL;
}

/* The counted pass's heading: how many ops, processes, how much slower. */
static void counters_heading(const struct pm_counted_pass *cp, FILE *f, bool md)
{
	char waited[48] = "";

	if (cp->waited >= 0.01)
		snprintf(waited, sizeof(waited), ", waited for a CPU %.0f%% of it",
			 100 * cp->waited);
	if (md)
		fputc('\n', f);
	if (cp->done)
		fprintf(f, "%scounters per op (separate counted pass of %llu ops, %d process%s%s, ran at %.2fx the timed latency%s):\n",
			md ? "" : "  ", (unsigned long long)cp->ops, cp->processes,
			cp->processes == 1 ? "" : "es",
			cp->inherit ? ", children included" : "", cp->perturbation, waited);
	else
		fprintf(f, "%scounters:\n", md ? "" : "  ");
	if (md)
		fputc('\n', f);
}

/* The split column of a counted event: user/kernel, scaling, user only. */
static char *counter_note(const struct pm_counter_value *v)
{
	struct pm_buf note = PM_BUF_INIT;
	char t1[32], t2[32];

	if (!isnan(v->kernel) && v->per_op > 0) {
		pm_fmt_count(t1, sizeof(t1), v->user);
		pm_fmt_count(t2, sizeof(t2), v->kernel);
		pm_buf_addf(&note, "user %s  kernel %s (%.0f%% kernel)", t1, t2,
			    100 * v->kernel / v->per_op);
	}
	if (v->running < 0.999) {
		pm_buf_sep(&note, "  ");
		pm_buf_addf(&note, "[counted %.0f%% of the time, scaled]", 100 * v->running);
	}
	if (v->user_only) {
		pm_buf_sep(&note, "  ");
		pm_buf_add(&note, "[user space only]");
	}
	return note.len ? pm_buf_detach(&note) : NULL;
}

/* The table of counted events per op, and the pass's CPU time. */
static void counted_table(const struct pm_counted_pass *cp, FILE *f,
			  enum pm_table_format fmt)
{
	bool md = fmt == PM_TABLE_MARKDOWN;
	struct pm_table *t = pm_table_new();
	char t0[32], t1[32], t2[32];
	size_t i;

	pm_table_indent(t, md ? 0 : 4);
	if (!md)
		pm_table_no_head(t);
	pm_table_add_col(t, "event", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "per op", NULL, 0);
	pm_table_add_col(t, "split", NULL, PM_COL_LEFT);
	pm_table_min_width(t, 0, 20);
	pm_table_min_width(t, 1, 12);
	for (i = 0; i < cp->n; i++) {
		const struct pm_counter_value *v = &cp->v[i];
		char *note;

		if (v->status != PM_CV_OK)
			continue;
		pm_table_row(t, v->name);
		pm_table_cell(t, 0, v->name, NULL);
		if (!strcmp(v->name, "task-clock"))
			pm_fmt_time(t0, sizeof(t0), v->per_op);
		else
			pm_fmt_count(t0, sizeof(t0), v->per_op);
		pm_table_cell(t, 1, t0, NULL);
		note = counter_note(v);
		if (note)
			pm_table_cell(t, 2, note, NULL);
		free(note);
	}
	if (cp->done && cp->ru_user_ns + cp->ru_sys_ns > 0) {
		pm_fmt_time(t1, sizeof(t1), cp->ru_user_ns);
		pm_fmt_time(t2, sizeof(t2), cp->ru_sys_ns);
		pm_table_row(t, "cpu time");
		pm_table_cell(t, 0, "cpu time", NULL);
		pm_table_cellf(t, 2, "user %s  sys %s (getrusage, tick-based)", t1, t2);
	}
	pm_table_print(t, f, fmt);
	pm_table_free(t);
}

/* Events not counted: those with one reason on one line, the reason said
 * once for the whole view. */
static void uncounted_lines(const struct pm_counted_pass *cp, FILE *f, bool md,
			    struct notes *ns)
{
	size_t i;

	for (i = 0; i < cp->n; i++) {
		const struct pm_counter_value *v = &cp->v[i];
		const char *why = v->reason ? v->reason : "";
		struct pm_buf names = PM_BUF_INIT;
		char *seen, *line;
		size_t j;

		if (v->status == PM_CV_OK)
			continue;
		for (j = 0; j < i; j++)
			if (cp->v[j].status == v->status &&
			    !strcmp(cp->v[j].reason ? cp->v[j].reason : "", why))
				break;
		if (j < i)
			continue;
		pm_buf_add(&names, v->name);
		for (j = i + 1; j < cp->n; j++)
			if (cp->v[j].status == v->status &&
			    !strcmp(cp->v[j].reason ? cp->v[j].reason : "", why)) {
				pm_buf_sep(&names, ", ");
				pm_buf_add(&names, cp->v[j].name);
			}
		seen = pm_xasprintf("%d %s", (int)v->status, why);
		line = pm_xasprintf("%s: %s %s", pm_buf_str(&names),
				    v->status == PM_CV_NOT_SUPPORTED ?
				    "<not supported>" : "<not counted>",
				    note_seen(ns, seen) ? "(as above)" : why);
		if (md) {
			fputs("- ", f);
			pm_md_escape(f, line);
			fputc('\n', f);
		} else {
			fprintf(f, "    %s\n", line);
		}
		note_add(ns, seen);
		free(line);
		pm_buf_free(&names);
	}
}

static void render_counters(const struct pm_bench_result *b, FILE *f,
			    enum pm_table_format fmt, struct notes *ns)
{
	bool md = fmt == PM_TABLE_MARKDOWN;

	counters_heading(&b->counters, f, md);
	counted_table(&b->counters, f, fmt);
	uncounted_lines(&b->counters, f, md, ns);
}

/* The figure line of a benchmark's block: the figure, its interval,
 * what it is between, and whether it reached the run's target. */
static void detail_figure(struct kv_list *k, const struct pm_result *r,
			  const struct pm_bench_result *b)
{
	bool rate = pm_bench_higher_is_better(b);
	const char *key = rate ? "rate" : "time/op";
	char *v, *lo, *hi, *how, target[48] = "";
	struct pm_figure f;

	if (!pm_render_figure(b, &f)) {
		kv(k, key, "- (no time per operation)");
		return;
	}
	v = pm_fmt_bench_value(b, f.value);
	how = pm_xasprintf("%zu trial%s in %zu round%s x %llu iterations", b->ntrials,
			   b->ntrials == 1 ? "" : "s", b->nrounds, b->nrounds == 1 ? "" : "s",
			   (unsigned long long)b->iterations);
	if (missed_target(r, b, &f))
		snprintf(target, sizeof(target), "; did not reach ±%.4g%%", 100 * ci_target_of(r));
	if (isnan(pm_figure_rel(&f))) {
		kv(k, key, "%s  (no interval; %s)", v, how);
	} else if (pm_figure_unbounded(&f)) {
		char *why = pm_figure_why_unbounded(&f);

		kv(k, key, "%s  (unbounded: %s; %s)", v, why, how);
		free(why);
	} else {
		/* a rate is higher where the time is lower */
		lo = pm_fmt_bench_value(b, rate ? f.hi : f.lo);
		hi = pm_fmt_bench_value(b, rate ? f.lo : f.hi);
		kv(k, key, "%s  ±%.1f%%  (%.0f%% interval %s .. %s between %zu %s; %s%s)", v,
		   100 * pm_figure_rel(&f), 100 * f.level, lo, hi, f.n,
		   pm_figure_basis_name(f.basis), how, target);
		free(lo);
		free(hi);
	}
	free(v);
	free(how);
}

static void render_detail(const struct pm_result *r, const struct pm_bench_result *b,
			  FILE *f, enum pm_table_format fmt, unsigned flags,
			  struct notes *ns, struct notes *said)
{
	bool md = fmt == PM_TABLE_MARKDOWN;
	char t0[32];
	struct kv_list k;

	bench_title(b, f, md);
	if (b->status != PM_BENCH_OK) {
		fprintf(f, "%s%s: %s\n", md ? "" : "  ", not_run(b), b->reason ? b->reason : "");
		return;
	}
	if (b->workload) {
		pm_render_workload(b, f);
		render_hotspots(b, f, fmt, flags, 10, ns);
		return;
	}
	kv_begin(&k, f, md);
	if (b->measured) {
		char *v = pm_fmt_bench_value(b, b->stats.median);

		kv(&k, "value", "%s  (median of %zu measurements)", v, b->ntrials);
		free(v);
		if (b->params)
			kv(&k, "parameters", "%s", b->params);
		kv_end(&k);
		return;
	}
	detail_figure(&k, r, b);
	if (b->placement)
		kv(&k, "placement", "%s (main process on CPU %d)", b->placement, b->cpu);
	else if (b->cpu >= 0)
		kv(&k, "pinned", "CPU %d", b->cpu);
	if (b->overhead_ns > 0.05) {
		pm_fmt_time(t0, sizeof(t0), b->overhead_ns);
		kv(&k, "overhead", "%s per op subtracted", t0);
	}
	if (b->params)
		kv(&k, "parameters", "%s", b->params);
	kv_end(&k);
	if (b->counters.n)
		render_counters(b, f, fmt, said);
	pm_render_emulated(b, f, fmt, 10);
	render_scaling(b, f, md ? "" : "  ");
	if (md && b->hotspots)
		fputc('\n', f);
	render_hotspots(b, f, fmt, flags, 10, ns);
}

void pm_render(const struct pm_result *r, FILE *f, enum pm_table_format fmt,
	       unsigned flags)
{
	struct notes ns = { 0 };
	size_t i;

	if (!(flags & PM_RENDER_NO_HEADER))
		header(r, f, fmt);
	if (r->nbench == 0) {
		fprintf(f, "(no benchmarks)\n");
		notes_print(&ns, f, fmt);
		return;
	}
	if (r->nbench == 1 || (flags & PM_RENDER_DETAIL)) {
		struct notes said = { 0 };
		unsigned bases = 0;
		struct pm_figure fig;

		for (i = 0; i < r->nbench; i++) {
			if (i)
				fputc('\n', f);
			render_detail(r, &r->bench[i], f, fmt, flags, &ns, &said);
			if (!r->bench[i].workload && !r->bench[i].measured &&
			    pm_render_figure(&r->bench[i], &fig))
				bases |= 1u << fig.basis;
		}
		if (bases)
			note_add(&ns, pm_figure_legend(bases));
		for (i = 0; i < said.n; i++)
			free(said.v[i]);
		free(said.v);
		if (ns.n)
			fputc('\n', f);
		notes_print(&ns, f, fmt);
		return;
	}
	render_table(r, f, fmt, flags, &ns);
	notes_print(&ns, f, fmt);
}

/* ---- csv ---- */

static void csv_num(FILE *f, double v)
{
	fputc(',', f);
	if (!isnan(v))
		fprintf(f, "%.6g", v);
}

void pm_render_csv_header(FILE *f)
{
	fprintf(f, "benchmark,status,unit,figure_ns,low_ns,high_ns,trials,value,"
		   "event,event_status,per_op,user_per_op,kernel_per_op,running,level,basis,run\n");
}

/* Rows of the emulated counts: events "emulated:...", status "emulated". */
static void csv_emulated(FILE *f, const struct pm_bench_result *b, const struct pm_figure *fig,
			 bool have, const char *run)
{
	static const char *const bst[] = { "ok", "unsupported", "failed" };
	struct pm_emu_csv_row rows[8];
	size_t n = pm_render_emulated_csv_rows(b, rows, PM_ARRAY_SIZE(rows)), j;

	for (j = 0; j < n; j++) {
		pm_csv_field(f, b->name);
		fprintf(f, ",%s,", bst[b->status]);
		pm_csv_field(f, b->unit);
		csv_num(f, fig->value);
		csv_num(f, fig->lo);
		csv_num(f, fig->hi);
		fprintf(f, ",%zu", b->ntrials);
		csv_num(f, have ? pm_bench_result_value(b, fig->value) : NAN);
		fprintf(f, ",%s,emulated", rows[j].event);
		csv_num(f, rows[j].per_op);
		csv_num(f, rows[j].user);
		csv_num(f, rows[j].kernel);
		fputc(',', f);
		csv_num(f, have && !isnan(fig->lo) ? fig->level : NAN);
		fprintf(f, ",%s,", have ? pm_figure_basis_name(fig->basis) : "");
		pm_csv_field(f, run);
		fputc('\n', f);
	}
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
		struct pm_figure fig;
		bool have = pm_render_figure(b, &fig);

		for (j = 0; j < n; j++) {
			const struct pm_counter_value *v =
				b->counters.n ? &b->counters.v[j] : NULL;
			static const char *const st[] = { "ok", "not-supported", "not-counted" };
			static const char *const bst[] = { "ok", "unsupported", "failed" };

			pm_csv_field(f, b->name);
			fprintf(f, ",%s,", bst[b->status]);
			pm_csv_field(f, b->unit);
			csv_num(f, fig.value);
			csv_num(f, fig.lo);
			csv_num(f, fig.hi);
			fprintf(f, ",%zu", b->ntrials);
			csv_num(f, have ? pm_bench_result_value(b, fig.value) : NAN);
			fputc(',', f);
			if (v) {
				pm_csv_field(f, v->name);
				fprintf(f, ",%s", st[v->status]);
				csv_num(f, v->per_op);
				csv_num(f, v->user);
				csv_num(f, v->kernel);
				csv_num(f, v->running);
			} else {
				fputs(",,,,,", f);
			}
			csv_num(f, have && !isnan(fig.lo) ? fig.level : NAN);
			fprintf(f, ",%s,", have ? pm_figure_basis_name(fig.basis) : "");
			pm_csv_field(f, run);
			fputc('\n', f);
		}
		csv_emulated(f, b, &fig, have, run);
	}
}

/* ---- several results side by side ---- */

char *pm_result_short_name(const struct pm_result *r, const char *given)
{
	const char *base;
	size_t len;

	if (r->label && *r->label)
		return pm_xstrdup(r->label);
	if (given && given[0] == '@')
		return pm_xstrdup(given);
	base = base_name(given ? given : r->path);
	len = strlen(base);
	if (len > 5 && !strcmp(base + len - 5, ".json"))
		len -= 5;
	return pm_xasprintf("%.*s", (int)len, base);
}

/* Benchmark names of all results, in the order first seen. */
static const char **all_bench_names(const struct pm_result *const *r, size_t n,
				    size_t *count)
{
	const char **v = NULL;
	size_t k = 0, i, j, m;

	for (i = 0; i < n; i++)
		for (j = 0; j < r[i]->nbench; j++) {
			bool seen = false;

			for (m = 0; m < k && !seen; m++)
				seen = !strcmp(v[m], r[i]->bench[j].name);
			if (seen)
				continue;
			v = pm_xgrow(v, k, sizeof(*v));
			v[k++] = r[i]->bench[j].name;
		}
	*count = k;
	return v;
}

/* The figure of bench in r as a value in its unit, NAN without one. */
static double compare_value(const struct pm_result *r, const char *bench,
			    struct pm_figure *fig)
{
	const struct pm_bench_result *b = pm_result_find(r, bench);

	if (!b || !b->ntrials || !pm_render_figure(b, fig))
		return NAN;
	return pm_bench_result_value(b, fig->value);
}

/* One result's cells of a row: figure, interval (and the ratio). */
static size_t compare_cells(struct pm_table *t, size_t col, const struct pm_result *r,
			    const char *bench, double v0, bool ratio)
{
	const struct pm_bench_result *b = pm_result_find(r, bench);
	struct pm_figure fig;
	double v = compare_value(r, bench, &fig);
	char *s;

	if (isnan(v)) {
		pm_table_cell(t, col, !b ? "-" : b->status == PM_BENCH_UNSUPPORTED ? "n/s" :
			      b->status == PM_BENCH_FAILED ? "failed" : "-", "");
		return col + (ratio ? 3 : 2);
	}
	s = pm_fmt_bench_value(b, fig.value);
	pm_table_cell_num(t, col++, s, v);
	free(s);
	s = pm_fmt_figure_rel(&fig);
	if (isnan(pm_figure_rel(&fig)) || pm_figure_unbounded(&fig))
		pm_table_cell(t, col++, s, "");
	else
		pm_table_cell_num(t, col++, s, 100 * pm_figure_rel(&fig));
	free(s);
	if (ratio) {
		if (v0 > 0 && v > 0) {
			s = pm_xasprintf("%.2f", v / v0);
			pm_table_cell_num(t, col, s, v / v0);
			free(s);
		} else {
			pm_table_cell(t, col, "-", "");
		}
		col++;
	}
	return col;
}

struct pm_table *pm_compare_table(const struct pm_result *const *r,
				  const char *const *names, size_t n)
{
	struct pm_table *t = pm_table_new();
	size_t nb, i, k, col;
	const char **benches = all_bench_names(r, n, &nb);
	char *pm = pm_xasprintf("±%.0f%%", 100 * PM_FIGURE_LEVEL);

	pm_table_add_col(t, "benchmark", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "unit", NULL, PM_COL_LEFT | PM_COL_CSV_ONLY);
	for (k = 0; k < n; k++) {
		char *h = pm_xasprintf("%s %s", names[k], pm);

		pm_table_add_col(t, names[k], NULL, 0);
		pm_table_add_col(t, pm, h, 0);
		free(h);
		if (k) {
			h = pm_xasprintf("%s/%s", names[k], names[0]);
			pm_table_add_col(t, "ratio", h, 0);
			free(h);
		}
	}
	for (i = 0; i < nb; i++) {
		struct pm_figure fig;
		double v0 = compare_value(r[0], benches[i], &fig);

		pm_table_row(t, benches[i]);
		pm_table_cell(t, 0, benches[i], NULL);
		/* the unit of the first result that has the benchmark */
		for (k = 0; k < n; k++) {
			const struct pm_bench_result *b = pm_result_find(r[k], benches[i]);

			if (b && b->unit) {
				pm_table_cell(t, 1, b->unit, NULL);
				break;
			}
		}
		for (k = 0, col = 2; k < n; k++)
			col = compare_cells(t, col, r[k], benches[i], v0, k > 0);
	}
	free(benches);
	free(pm);
	return t;
}

void pm_render_compare(const struct pm_result *const *r,
		       const char *const *names, size_t n, FILE *f,
		       enum pm_table_format fmt)
{
	struct pm_table *t = pm_compare_table(r, names, n);
	bool md = fmt == PM_TABLE_MARKDOWN, rate = false;
	struct notes ns = { 0 };
	unsigned bases = 0;
	char *legend;
	size_t k, i;

	if (fmt == PM_TABLE_CSV) {
		pm_table_print(t, f, fmt);
		pm_table_free(t);
		return;
	}
	fprintf(f, "%spmbench: %zu results side by side, ratios to the first\n%s",
		md ? "## " : "", n, md ? "\n" : "");
	for (k = 0; k < n; k++) {
		char *m = pm_render_machine(r[k]);

		if (md) {
			fputs("- ", f);
			pm_md_escape(f, names[k]);
			fputs(": ", f);
			pm_md_escape(f, m);
			fprintf(f, " (pmbench %s%s%s)\n", r[k]->version ? r[k]->version : "?",
				r[k]->source && strcmp(r[k]->source, "run") ? ", " : "",
				r[k]->source && strcmp(r[k]->source, "run") ? r[k]->source : "");
		} else {
			fprintf(f, "  %s: %s\n", names[k], m);
		}
		free(m);
		for (i = 0; i < r[k]->nbench; i++) {
			const struct pm_bench_result *b = &r[k]->bench[i];
			struct pm_figure fig;

			if (pm_render_figure(b, &fig))
				bases |= 1u << fig.basis;
			rate = rate || pm_bench_higher_is_better(b);
		}
		if (r[k]->source && !strncmp(r[k]->source, "import:", 7))
			note_add(&ns, pm_xasprintf("%s is imported: figures only, no intervals",
						   names[k]));
	}
	fputc('\n', f);
	pm_table_print(t, f, fmt);
	pm_table_free(t);
	fprintf(f, "%s(per operation; ratio = the figure over %s's%s)\n", md ? "\n" : "",
		names[0], rate ? "; a rate (MB/s, ops/s) is better higher, a time lower" : "");
	legend = pm_figure_legend(bases);
	fputs(md ? "(" : "(", f);
	if (md)
		pm_md_escape(f, legend);
	else
		fputs(legend, f);
	fputs(")\n", f);
	free(legend);
	notes_print(&ns, f, fmt);
}
