/*
 * The HTML report: a page that opens from a file in any browser and
 * attaches to a mail.  Everything is inline (CSS, SVG); there is no
 * script, so nothing can fail to load or run.  Tooltips are SVG <title>s.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "results/render.h"
#include "results/table.h"
#include "sample/profile.h"
#include "sysinfo/sysinfo.h"

#define TW 760.0		/* the trials plot's coordinate width */
#define TL 150.0		/* room for the side names */
#define TR 14.0
#define LANE 6.0		/* vertical distance of two rounds */
#define MAX_LANES 10
#define MAX_TICKS 12		/* nice_step() makes at most 9 */

/*
 * How much of a text from a result file the page shows: a longer one is
 * cut with an ellipsis, so that a field adds at most this much to the
 * page wherever it is shown, however long it is in the file.
 */
#define NAME_MAX_CHARS 80	/* sides, benchmarks, events, an lmbench key */
#define UNIT_MAX_CHARS 16	/* a unit, on every tick of an axis */
#define TEXT_MAX_CHARS 300	/* summaries, reasons, paths, a frame's name */
#define LINE_MAX_CHARS 1000	/* a line of explain's text */
#define FLAME_STACKS 1000	/* stacks drawn per side, the rest as [other] */

static const char style[] =
	"body{font:14px/1.45 system-ui,sans-serif;margin:1.5em auto;max-width:1250px;"
	"padding:0 1em;color:#222}\n"
	"h1{font-size:1.5em}h2{border-bottom:1px solid #ccc;margin-top:2em}"
	"h3{margin:1.6em 0 .4em}h4{margin:1em 0 .3em;font-size:1em}\n"
	"table{border-collapse:collapse;margin:.5em 0}"
	"td,th{padding:2px 8px;border-bottom:1px solid #e4e4e4;text-align:left;white-space:nowrap}"
	"th{background:#f3f3f3}.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"pre{background:#f7f7f7;padding:.6em;white-space:pre-wrap;font-size:12.5px}"
	"code{font-size:12.5px}.small{color:#555;font-size:12.5px}\n"
	"section.bench{border-top:2px solid #ddd;margin-top:1.5em}"
	".verdict{display:inline-block;padding:0 .5em;border-radius:3px;background:#eee}"
	".regression{background:#f8c9c4}.improvement{background:#c8e6c9}\n"
	"svg{display:block;width:100%;height:auto}svg text{font:11px monospace;fill:#222}"
	"svg.trials{max-width:760px}svg.trials .ax{stroke:#bbb;stroke-width:.6}"
	"svg.trials .ci{fill:#000;fill-opacity:.09}svg.trials .med{stroke:#000;stroke-width:1.2}"
	"svg.trials .round{fill:none;stroke-width:4.5;stroke-linecap:round;stroke-opacity:.75}\n"
	".r0{stroke:#4e79a7}.r1{stroke:#f28e2b}.r2{stroke:#e15759}.r3{stroke:#76b7b2}.r4{stroke:#59a14f}"
	".r5{stroke:#edc948}.r6{stroke:#b07aa1}.r7{stroke:#ff9da7}.r8{stroke:#9c755f}.r9{stroke:#bab0ac}\n"
	"svg.flame rect{stroke:#fff;stroke-width:.5}svg.flame text{pointer-events:none}"
	".c0{fill:#e8743b}.c1{fill:#f0a35e}.c2{fill:#eebc59}.c3{fill:#e28b52}.c4{fill:#f2c14e}"
	".c5{fill:#d9653b}.c6{fill:#f5b971}.c7{fill:#e39e47}.c8{fill:#cfcfcf}\n"
	"details>summary{cursor:pointer;color:#345}figure{margin:.6em 0}"
	"figcaption{font-size:12.5px;color:#444}\n";

/* Text from a result file, escaped, at most max characters of it. */
static void put(FILE *f, const char *s, size_t max)
{
	pm_html_escape_max(f, s, max);
}

/* Text of several lines, each escaped and cut to LINE_MAX_CHARS. */
static void put_lines(FILE *f, char *text)
{
	char *p = text, *nl;

	for (; (nl = strchr(p, '\n')); p = nl + 1) {
		*nl = '\0';
		put(f, p, LINE_MAX_CHARS);
		fputc('\n', f);
		*nl = '\n';
	}
	put(f, p, LINE_MAX_CHARS);
}

/* A copy of s cut to max characters, the last an ellipsis when cut. */
static char *cut(const char *s, size_t max)
{
	size_t len = pm_text_prefix(s, max);

	if (!s[len])
		return pm_xstrdup(s);
	return pm_xasprintf("%.*s…", (int)pm_text_prefix(s, max - 1), s);
}

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

static double jnum(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* A value on the trials plot's axis: a time, or a measured figure. */
static void put_axis(FILE *f, double v, const struct pm_bench_result *b)
{
	char buf[48];

	if (b->measured) {
		fprintf(f, "%.4g ", v);
		put(f, b->unit, UNIT_MAX_CHARS);
		return;
	}
	pm_fmt_time(buf, sizeof(buf), v);
	fputs(buf, f);
}

/* 1, 2 or 5 times a power of ten, about (hi - lo) / 5. */
static double nice_step(double lo, double hi)
{
	double raw = (hi - lo) / 5, p = pow(10, floor(log10(raw))), m = raw / p;

	return (m < 1.5 ? 1 : m < 3.5 ? 2 : m < 7.5 ? 5 : 10) * p;
}

/* ---- trials: a strip plot per side, a lane per round ---- */

static void trials_svg(FILE *f, const char *bench, const struct pm_bench_result *const *b,
		       const char *const *names, size_t n)
{
	double lo = INFINITY, hi = -INFINITY, span, step, t, y;
	const struct pm_bench_result *any = NULL;
	size_t k, i, j, lanes = 1, height;

	for (k = 0; k < n; k++) {
		if (!b[k] || b[k]->status != PM_BENCH_OK || !b[k]->ntrials)
			continue;
		any = any ? any : b[k];
		if (b[k]->nrounds > lanes)
			lanes = b[k]->nrounds;
		for (i = 0; i < b[k]->ntrials; i++) {
			if (b[k]->trials[i] < lo)
				lo = b[k]->trials[i];
			if (b[k]->trials[i] > hi)
				hi = b[k]->trials[i];
		}
	}
	if (!any)
		return;
	lanes = lanes > MAX_LANES ? MAX_LANES : lanes;
	if (!(hi > lo)) {
		lo -= fabs(lo) * 0.01 + 1e-9;
		hi += fabs(hi) * 0.01 + 1e-9;
	}
	span = hi - lo;
	lo -= span * 0.04;
	hi += span * 0.04;
	span = hi - lo;
	{
		double band = 10 + LANE * (double)lanes;

		height = (size_t)(band * (double)n + 30);
		fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"trials\" viewBox=\"0 0 %.0f %zu\" "
			"data-bench=\"", TW, height);
		put(f, bench, NAME_MAX_CHARS);
		fputs("\" role=\"img\"><title>trials of ", f);
		put(f, bench, NAME_MAX_CHARS);
		fputs(" by side and round</title>\n", f);
		/* the axis: ticks and their values */
		step = nice_step(lo, hi);
		fputs("<g class=\"axis\">", f);
		/* counted, not summed: a step below the values' precision
		 * (1e16 ns and 1e16 + 2) would not move t */
		for (i = 0; i < MAX_TICKS && (t = (ceil(lo / step) + (double)i) * step) <= hi; i++) {
			double x = TL + (t - lo) / span * (TW - TL - TR);

			fprintf(f, "<line class=\"ax\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%.0f\"/>"
				"<text x=\"%.1f\" y=\"%zu\" text-anchor=\"middle\">",
				x, x, band * (double)n, x, height - 8);
			put_axis(f, t, any);
			fputs("</text>", f);
		}
		fputs("</g>\n", f);
		for (k = 0; k < n; k++) {
			const struct pm_bench_result *s = b[k];
			double top = band * (double)k, rel;
			size_t at = 0;

			fputs("<g class=\"side\" data-side=\"", f);
			put(f, names[k], NAME_MAX_CHARS);
			if (!s || s->status != PM_BENCH_OK || !s->ntrials) {
				fprintf(f, "\" data-trials=\"0\"><text x=\"4\" y=\"%.0f\">", top + band / 2 + 4);
				put(f, names[k], NAME_MAX_CHARS);
				fprintf(f, ": %s</text></g>\n", !s ? "not in this result" :
					s->status == PM_BENCH_UNSUPPORTED ? "not supported" :
					s->status == PM_BENCH_FAILED ? "failed" : "no trials");
				continue;
			}
			rel = pm_bench_rel_ci(s);
			fprintf(f, "\" data-trials=\"%zu\" data-rounds=\"%zu\" data-median=\"%.6g\"",
				s->ntrials, s->nrounds, s->stats.median);
			if (!isnan(rel))
				fprintf(f, " data-low=\"%.6g\" data-high=\"%.6g\"",
					s->stats.median * (1 - rel), s->stats.median * (1 + rel));
			fprintf(f, "><text x=\"4\" y=\"%.0f\">", top + band / 2 + 4);
			put(f, names[k], NAME_MAX_CHARS);
			fputs("</text>", f);
			if (!isnan(rel)) {
				double x0 = TL + (s->stats.median * (1 - rel) - lo) / span * (TW - TL - TR);
				double x1 = TL + (s->stats.median * (1 + rel) - lo) / span * (TW - TL - TR);

				fprintf(f, "<rect class=\"ci\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\">"
					"<title>median ", x0, top + 2, x1 - x0 > 0.5 ? x1 - x0 : 0.5, band - 4);
				put_axis(f, s->stats.median, s);
				fprintf(f, ", interval ±%.1f%%</title></rect>", 100 * rel);
			}
			{
				double x = TL + (s->stats.median - lo) / span * (TW - TL - TR);

				fprintf(f, "<line class=\"med\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>",
					x, x, top + 1, top + band - 1);
			}
			fputc('\n', f);
			for (j = 0; j < s->nrounds; j++) {
				const struct pm_round *rd = &s->rounds[j];

				y = top + 5 + LANE / 2 + LANE * (double)(j % lanes);
				/* a dot per trial: a zero-length stroke with round caps,
				 * the values themselves in data-v */
				fprintf(f, "<path class=\"round r%zu\" data-round=\"%zu\" data-run=\"%u\" "
					"data-n=\"%zu\" data-v=\"", j % 10, j, rd->run, rd->ntrials);
				for (i = 0; i < rd->ntrials && at + i < s->ntrials; i++)
					fprintf(f, "%s%.5g", i ? " " : "", s->trials[at + i]);
				fputs("\" d=\"", f);
				for (i = 0; i < rd->ntrials && at + i < s->ntrials; i++)
					fprintf(f, "M%.1f %.0fh0", TL + (s->trials[at + i] - lo) / span *
						(TW - TL - TR), y);
				fprintf(f, "\"><title>round %zu (run %u): %zu trials</title></path>\n", j + 1,
					rd->run + 1, rd->ntrials);
				at += rd->ntrials;
			}
			fputs("</g>\n", f);
		}
	}
	fputs("</svg>\n", f);
}

/* ---- counters per op, side by side ---- */

static void counters_table(FILE *f, const struct pm_bench_result *const *b,
			   const char *const *names, size_t n)
{
	struct pm_table *t = pm_table_new();
	const char *ev[64];
	size_t nev = 0, k, i, j;

	for (k = 0; k < n; k++)
		for (i = 0; b[k] && i < b[k]->counters.n; i++) {
			bool seen = false;

			for (j = 0; j < nev && !seen; j++)
				seen = !strcmp(ev[j], b[k]->counters.v[i].name);
			if (!seen && nev < PM_ARRAY_SIZE(ev))
				ev[nev++] = b[k]->counters.v[i].name;
		}
	if (!nev) {
		pm_table_free(t);
		return;
	}
	pm_table_class(t, "counters");
	pm_table_html_max(t, NAME_MAX_CHARS);
	pm_table_add_col(t, "event (per op)", NULL, PM_COL_LEFT);
	for (k = 0; k < n; k++) {
		pm_table_add_col(t, names[k], NULL, 0);
		if (k)
			pm_table_add_col(t, "ratio", NULL, 0);
	}
	for (j = 0; j < nev; j++) {
		double base = NAN;
		size_t col = 1;

		pm_table_row(t, ev[j]);
		pm_table_cell(t, 0, ev[j], NULL);
		for (k = 0; k < n; k++, col++) {
			const struct pm_counter_value *v = b[k] ? pm_bench_result_counter(b[k], ev[j]) : NULL;
			char buf[48];

			if (!v || v->status != PM_CV_OK) {
				pm_table_cell(t, col, !v ? "-" : v->status == PM_CV_NOT_SUPPORTED ?
					      "n/s" : "n/c", "");
				col += k > 0;
				continue;
			}
			if (!strcmp(ev[j], "task-clock"))
				pm_fmt_time(buf, sizeof(buf), v->per_op);
			else
				pm_fmt_count(buf, sizeof(buf), v->per_op);
			if (!isnan(v->kernel) && v->per_op > 0) {
				size_t len = strlen(buf);

				snprintf(buf + len, sizeof(buf) - len, " (%.0f%% k)",
					 100 * v->kernel / v->per_op);
			}
			pm_table_cell_num(t, col, buf, v->per_op);
			if (k == 0)
				base = v->per_op;
			else {
				if (base > 0 && v->per_op >= 0) {
					snprintf(buf, sizeof(buf), "%.2f", v->per_op / base);
					pm_table_cell_num(t, col + 1, buf, v->per_op / base);
				}
				col++;
			}
		}
	}
	fputs("<h4>Counters per operation</h4>\n", f);
	pm_table_print(t, f, PM_TABLE_HTML);
	pm_table_free(t);
}

/* Events that could not be counted anywhere, said once for the page. */
static void uncounted_note(FILE *f, const struct pm_result *const *r, size_t n)
{
	const char *names[64], *reasons[64];
	size_t nn = 0, k, i, j, m;

	for (k = 0; k < n; k++)
		for (i = 0; i < r[k]->nbench; i++)
			for (j = 0; j < r[k]->bench[i].counters.n; j++) {
				const struct pm_counter_value *v = &r[k]->bench[i].counters.v[j];
				bool seen = false;

				if (v->status == PM_CV_OK)
					continue;
				for (m = 0; m < nn && !seen; m++)
					seen = !strcmp(names[m], v->name);
				if (!seen && nn < PM_ARRAY_SIZE(names)) {
					names[nn] = v->name;
					reasons[nn++] = v->reason ? v->reason : "";
				}
			}
	for (i = 0; i < nn; i++) {
		if (!reasons[i])
			continue;
		fputs("<p class=\"small uncounted\">", f);
		put(f, names[i], NAME_MAX_CHARS);
		for (j = i + 1; j < nn; j++)
			if (reasons[j] && !strcmp(reasons[i], reasons[j])) {
				fputs(", ", f);
				put(f, names[j], NAME_MAX_CHARS);
				reasons[j] = NULL;
			}
		fputs(": not counted (n/s, n/c): ", f);
		put(f, reasons[i], TEXT_MAX_CHARS);
		fputs("</p>\n", f);
	}
}

/* ---- flame graphs ---- */

static bool has_samples(const struct pm_bench_result *b)
{
	return b && b->status == PM_BENCH_OK && !b->measured &&
	       jnum(b->hotspots, "samples") > 0 && json_array_size(json_object_get(b->hotspots, "stacks"));
}

/* The kept stacks of a side as cost per op (share of samples x median);
 * past the FLAME_STACKS most sampled, as pmbench keeps them, [other]. */
static void add_side(struct pm_flame *fl, int side, const struct pm_bench_result *b,
		     bool all_frames)
{
	double total = jnum(b->hotspots, "samples"), other = 0;
	json_t *stacks = pm_hotspots_stacks(b->hotspots, all_frames, NULL), *s;
	size_t i;

	json_array_foreach(stacks, i, s) {
		if (i < FLAME_STACKS && strcmp(jstr(s, "stack"), "[other]"))
			pm_flame_add(fl, side, jstr(s, "stack"),
				     jnum(s, "samples") / total * b->stats.median);
		else
			other += jnum(s, "samples");
	}
	pm_flame_add(fl, side, "[other]", other / total * b->stats.median);
	json_decref(stacks);
}

static void flame_figure(FILE *f, const struct pm_flame *fl, int side, bool diff,
			 const char *caption, const char *name, double min)
{
	fputs("<figure class=\"flame\" data-side=\"", f);
	put(f, name, NAME_MAX_CHARS);
	fprintf(f, "\" data-kind=\"%s\"><figcaption>", diff ? "diff" : "side");
	pm_html_escape(f, caption);	/* made of names already cut */
	fputs("</figcaption>\n", f);
	pm_flame_svg(fl, f, side, diff, min, caption);
	fputs("</figure>\n", f);
}

static void flames(FILE *f, const struct pm_bench_result *const *b,
		   const char *const *names, size_t n, const struct pm_report_opts *o)
{
	size_t k, with = 0;

	for (k = 0; k < n; k++)
		with += has_samples(b[k]);
	if (!with)
		return;
	fputs("<h4>Flame graphs</h4>\n<p class=\"small\">Sampled call chains, callers below "
	      "callees; a frame is as wide as its time per operation (the share of samples "
	      "times the median), the process name at the base", f);
	if (!o->all_frames)
		fputs("; pmbench's own frames (main, the runner) are left out", f);
	fprintf(f, "; frames under %.1f%% are not drawn. Hover a frame for its figures.</p>\n",
		100 * o->min_frame);
	for (k = 0; k < n; k++) {
		struct pm_flame *fl;
		char *cap;

		if (!has_samples(b[k]))
			continue;
		fl = pm_flame_new();
		add_side(fl, 0, b[k], o->all_frames);
		cap = pm_xasprintf("%s: %.0f samples", names[k], jnum(b[k]->hotspots, "samples"));
		flame_figure(f, fl, 0, false, cap, names[k], o->min_frame);
		free(cap);
		pm_flame_free(fl);
	}
	if (n == 2 && has_samples(b[0]) && has_samples(b[1])) {
		struct pm_flame *fl = pm_flame_new();
		char *cap = pm_xasprintf("%s against %s: the shape of %s; red frames grew, blue "
					 "frames shrank (time per operation)", names[1], names[0],
					 names[1]);

		add_side(fl, 0, b[0], o->all_frames);
		add_side(fl, 1, b[1], o->all_frames);
		flame_figure(f, fl, 1, true, cap, names[1], o->min_frame);
		free(cap);
		fputs("<p class=\"small\">Shrank or gone (not seen in the shape above):</p>"
		      "<ul class=\"small shrunk\">\n", f);
		pm_flame_shrunk(fl, f, 6);
		fputs("</ul>\n", f);
		pm_flame_free(fl);
	}
}

/* ---- the page ---- */

static const char *si_str(const json_t *si, enum pm_fp_key key)
{
	return json_string_value(pm_sysinfo_at(si, key));
}

/* The machine of a side, as show's header says it, each field cut. */
static void put_machine(FILE *f, const struct pm_result *r)
{
	const char *host = si_str(r->sysinfo, PM_FP_HOSTNAME);
	const char *rel = si_str(r->sysinfo, PM_FP_KERNEL_RELEASE);
	const char *cpu = si_str(r->sysinfo, PM_FP_CPU_MODEL_NAME);
	const json_t *ncpu = pm_sysinfo_at(r->sysinfo, PM_FP_CPU_ONLINE);

	if (host) {
		put(f, host, NAME_MAX_CHARS);
		fputs(": ", f);
	}
	fputs("Linux ", f);
	put(f, rel ? rel : "?", NAME_MAX_CHARS);
	fputc(' ', f);
	put(f, si_str(r->sysinfo, PM_FP_KERNEL_MACHINE), NAME_MAX_CHARS);
	if (cpu) {
		fputs(", ", f);
		put(f, cpu, NAME_MAX_CHARS);
	}
	if (json_is_integer(ncpu))
		fprintf(f, " (%lld CPUs)", (long long)json_integer_value(ncpu));
	if (r->created) {
		fputs(", ", f);
		put(f, r->created, NAME_MAX_CHARS);
	}
	if (r->label) {
		fputs(" [", f);
		put(f, r->label, NAME_MAX_CHARS);
		fputc(']', f);
	}
}

static const struct pm_bench_cmp *cmp_of(const struct pm_explanation *x, const char *name)
{
	size_t i;

	for (i = 0; x && i < x->ncmp; i++)
		if (!strcmp(x->cmp[i].name, name))
			return &x->cmp[i];
	return NULL;
}

static char *memstream_text(void (*fn)(const void *, FILE *), const void *arg)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return pm_xstrdup("");
	fn(arg, m);
	fclose(m);
	return buf;
}

static void explain_all(const void *x, FILE *m)
{
	pm_report_text(x, m, false, false);
}

static void explain_one(const void *c, FILE *m)
{
	pm_report_bench(c, m, false);
}

static void bench_section(FILE *f, const char *name, const struct pm_result *const *r,
			  const char *const *names, size_t n,
			  const struct pm_explanation *x, const struct pm_report_opts *o)
{
	const struct pm_bench_result **b = pm_xcalloc(n, sizeof(*b)), *first = NULL;
	const struct pm_bench_cmp *c = cmp_of(x, name);
	size_t k;

	for (k = 0; k < n; k++) {
		b[k] = pm_result_find(r[k], name);
		first = first ? first : b[k];
	}
	/* the id as the summary table's link to it: cut and encoded alike */
	fputs("<section class=\"bench\" id=\"b-", f);
	pm_html_fragment(f, name, NAME_MAX_CHARS);
	fputs("\" data-bench=\"", f);
	put(f, name, NAME_MAX_CHARS);
	fputs("\">\n<h3>", f);
	put(f, name, NAME_MAX_CHARS);
	if (first && first->summary) {
		fputs(": ", f);
		put(f, first->summary, TEXT_MAX_CHARS);
	}
	if (first && first->lmbench) {
		fputs(" <span class=\"small\">(lmbench ", f);
		put(f, first->lmbench, NAME_MAX_CHARS);
		fputs(")</span>", f);
	}
	fputs("</h3>\n", f);
	if (c) {
		char *text = memstream_text(explain_one, c);

		fprintf(f, "<p><span class=\"verdict %s\">%s</span></p>\n<pre class=\"why\">",
			c->verdict == PM_REGRESSION ? "regression" :
			c->verdict == PM_IMPROVEMENT ? "improvement" : "other",
			pm_verdict_name(c->verdict));
		put_lines(f, text);
		fputs("</pre>\n", f);
		free(text);
	}
	for (k = 0; k < n; k++)
		if (b[k] && b[k]->status != PM_BENCH_OK) {
			fputs("<p class=\"small\">", f);
			put(f, names[k], NAME_MAX_CHARS);
			fprintf(f, ": %s: ", b[k]->status == PM_BENCH_UNSUPPORTED ?
				"not supported here" : "failed");
			put(f, b[k]->reason, TEXT_MAX_CHARS);
			fputs("</p>\n", f);
		}
	fputs("<h4>Trials</h4>\n<p class=\"small\">Every timed trial, a lane and a colour per "
	      "round (each round a fresh process); the line is the median, the band its "
	      "interval (the table's ±).</p>\n", f);
	trials_svg(f, name, b, names, n);
	counters_table(f, b, names, n);
	flames(f, b, names, n, o);
	fputs("</section>\n", f);
	free(b);
}

/* The sides' names as the page shows them: cut, and still unique. */
static char **side_names(const char *const *names, size_t n)
{
	char **v = pm_xcalloc(n, sizeof(*v));
	size_t k, j;

	for (k = 0; k < n; k++) {
		v[k] = cut(names[k], NAME_MAX_CHARS);
		for (j = 0; j < k; j++)
			if (!strcmp(v[j], v[k])) {
				char *c = cut(names[k], NAME_MAX_CHARS - 8);

				free(v[k]);
				v[k] = pm_xasprintf("%s#%zu", c, k + 1);
				free(c);
				break;
			}
	}
	return v;
}

int pm_report_html(const struct pm_result *const *r, const char *const *given,
		   size_t n, const struct pm_explanation *x,
		   const struct pm_report_opts *o, FILE *f)
{
	char **shown = side_names(given, n);
	const char *const *names = (const char *const *)shown;
	struct pm_table *t = pm_compare_table(r, names, n);
	char *title, *now = pm_fmt_now("%Y-%m-%d %H:%M:%SZ", true);
	size_t k, i;

	if (o->title)
		title = pm_xstrdup(o->title);
	else if (n == 2)
		title = pm_xasprintf("pmbench: %s vs %s", names[0], names[1]);
	else
		title = pm_xasprintf("pmbench: %s%s", names[0], n > 2 ? " and others" : "");
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"pmbench " PACKAGE_VERSION "\">\n<title>", f);
	pm_html_escape(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	pm_html_escape(f, title);
	fprintf(f, "</h1>\n<p class=\"small\">Written by pmbench %s on %s. Every figure is per "
		"operation. Plots are drawn from the result files; hover them for the figures.</p>\n",
		PACKAGE_VERSION, now);

	fputs("<h2 id=\"results\">Results</h2>\n<ul class=\"sides\">\n", f);
	for (k = 0; k < n; k++) {
		fputs("<li data-side=\"", f);
		put(f, names[k], NAME_MAX_CHARS);
		fputs("\"><b>", f);
		put(f, names[k], NAME_MAX_CHARS);
		fputs("</b>", f);
		if (k == 0 && n > 1)
			fputs(" (the baseline)", f);
		fputs(": ", f);
		put_machine(f, r[k]);
		fputs(" <span class=\"small\">", f);
		put(f, r[k]->path, TEXT_MAX_CHARS);
		if (r[k]->source && strcmp(r[k]->source, "run")) {
			fputs(", ", f);
			put(f, r[k]->source, NAME_MAX_CHARS);
		}
		fputs("</span></li>\n", f);
	}
	fputs("</ul>\n", f);
	if (x) {
		size_t col = pm_table_add_col(t, "verdict", NULL, PM_COL_LEFT);

		for (i = 0; i < x->ncmp; i++) {
			long row = pm_table_find_row(t, x->cmp[i].name);

			if (row >= 0)
				pm_table_cell_at(t, (size_t)row, col, pm_verdict_name(x->cmp[i].verdict),
						 NULL);
		}
	}
	pm_table_class(t, "summary");
	pm_table_html_max(t, NAME_MAX_CHARS);
	pm_table_link_keys(t, "b-");
	pm_table_print(t, f, PM_TABLE_HTML);
	fprintf(f, "<p class=\"small\">The median of the timed trials and its 95%% interval%s; "
		"* marks a benchmark whose interval did not reach the target.</p>\n",
		n > 1 ? "; ratio: the figure over the baseline's (for a rate, MB/s or ops/s, "
		"higher is better; for a time, lower)" : "");
	pm_table_free(t);
	uncounted_note(f, r, n);

	if (x) {
		char *text = memstream_text(explain_all, x);

		fputs("<h2 id=\"explain\">Explain</h2>\n<p class=\"small\">What <code>pmbench "
		      "explain</code> says about these two results; each benchmark's evidence is "
		      "also in its section below.</p>\n<pre class=\"explain\">", f);
		put_lines(f, text);
		fputs("</pre>\n", f);
		free(text);
	}

	fputs("<h2 id=\"benchmarks\">Benchmarks</h2>\n", f);
	{
		/* every benchmark of any result, in the order of the table */
		const char **seen = NULL;
		size_t ns = 0, j;

		for (k = 0; k < n; k++)
			for (i = 0; i < r[k]->nbench; i++) {
				const char *name = r[k]->bench[i].name;
				bool dup = false;

				for (j = 0; j < ns && !dup; j++)
					dup = !strcmp(seen[j], name);
				if (dup)
					continue;
				seen = pm_xrealloc(seen, (ns + 1) * sizeof(*seen));
				seen[ns++] = name;
				bench_section(f, name, r, names, n, x, o);
			}
		free(seen);
	}
	fputs("</body>\n</html>\n", f);
	for (k = 0; k < n; k++)
		free(shown[k]);
	free(shown);
	free(title);
	free(now);
	return ferror(f) ? -EIO : 0;
}
