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

#include "report/page.h"
#include "results/emulated.h"
#include "sample/profile.h"
#include "sysinfo/sysinfo.h"

#define TW 760.0		/* the trials plot's coordinate width */
#define TL 150.0		/* room for the side names */
#define TR 14.0
#define LANE 6.0		/* vertical distance of two rounds */
#define MAX_LANES 10
#define MAX_TICKS 12		/* nice_step() makes at most 9 */
#define FLAME_STACKS 1000	/* stacks drawn per side, the rest as [other] */
/* A count per op below this, or a time below this many ns, is shown but
 * given no ratio: 0.00 against 0.82 is no ratio anyone can read. */
#define COUNT_FLOOR 0.05
#define TIME_FLOOR 1.0

static const char style[] =
	"body{font:15px/1.5 system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',sans-serif;"
	"margin:2em auto;max-width:1180px;padding:0 1.5em;color:#1f2328;background:#fff}\n"
	"h1{font-size:1.65em;margin:.3em 0 .2em}h2{font-size:1.3em;margin:2.2em 0 .6em;"
	"padding-bottom:.25em;border-bottom:1px solid #d0d7de}"
	"h3{font-size:1.1em;margin:1.6em 0 .5em}h4{font-size:.95em;margin:1.3em 0 .4em;color:#333}\n"
	"p,li{max-width:62em}a{color:#0969da;text-decoration:none}a:hover{text-decoration:underline}\n"
	"table{border-collapse:collapse;margin:.6em 0 .4em;font-size:14px}"
	"td,th{padding:4px 10px;border-bottom:1px solid #eaeef2;text-align:left;white-space:nowrap;"
	"vertical-align:top}th{background:#f6f8fa;font-weight:600;border-bottom-color:#d0d7de}"
	"tbody tr:hover td{background:#f6f8fa}.n{text-align:right;font-variant-numeric:tabular-nums}"
	"td.cause{white-space:normal;min-width:14em}\n"
	"code{font:12.5px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;background:#f6f8fa;"
	"padding:0 .25em;border-radius:3px}.small,.legend{color:#57606a;font-size:13px}"
	".legend{margin:.2em 0 .8em}ul.sides{padding-left:1.2em}ul.sides li{margin:.2em 0}\n"
	".verdict{display:inline-block;padding:0 .6em;border-radius:10px;font-size:12.5px;"
	"font-weight:600;background:#eaeef2;color:#57606a}"
	".verdict.regression{background:#ffebe9;color:#a40e26}"
	".verdict.improvement{background:#dafbe1;color:#116329}"
	".verdict.inconclusive{background:#fff8c5;color:#7d4e00}"
	".verdict.changed{background:#ddf4ff;color:#0a3069}\n"
	"section.finding{border-left:4px solid #d0d7de;padding:.1em 0 .3em 1.1em;margin:1.4em 0}"
	"section.finding.regression{border-color:#cf222e}section.finding.improvement{border-color:#1a7f37}"
	"section.finding h3{margin-top:.4em}.change{margin:.3em 0}\n"
	"ol.causes{padding-left:1.6em}ol.causes>li{margin:.7em 0}ol.causes .sentence{margin:.15em 0}"
	"ul.evidence{color:#57606a;font-size:13px;margin:.25em 0 .4em;padding-left:1.3em}"
	"ul.evidence li{margin:.1em 0}\n"
	".conf{font-size:12px;color:#57606a;border:1px solid #d0d7de;border-radius:9px;"
	"padding:0 .5em;margin-left:.4em;white-space:nowrap}.conf.high{border-color:#4ac26b;color:#116329}"
	".proof{font-size:12px;font-weight:600;color:#fff;background:#1a7f37;border-radius:9px;"
	"padding:.05em .55em;margin-left:.4em;white-space:nowrap}"
	".mech{font-size:13px;margin:.15em 0}ul.undecided li{margin:.3em 0}\n"
	"section.bench{border-top:2px solid #eaeef2;margin-top:2em;padding-top:.2em}\n"
	"svg{display:block;width:100%;height:auto}svg text{font:11px ui-monospace,monospace;fill:#222}"
	"svg.trials{max-width:760px}svg.trials .ax{stroke:#bbb;stroke-width:.6}"
	"svg.trials .ci{fill:#000;fill-opacity:.09}svg.trials .med{stroke:#000;stroke-width:1.2}"
	"svg.trials .round{fill:none;stroke-width:4.5;stroke-linecap:round;stroke-opacity:.75}\n"
	".r0{stroke:#4e79a7}.r1{stroke:#f28e2b}.r2{stroke:#e15759}.r3{stroke:#76b7b2}.r4{stroke:#59a14f}"
	".r5{stroke:#edc948}.r6{stroke:#b07aa1}.r7{stroke:#ff9da7}.r8{stroke:#9c755f}.r9{stroke:#bab0ac}\n"
	"svg.flame rect{stroke:#fff;stroke-width:.5}svg.flame text{pointer-events:none}"
	".c0{fill:#e8743b}.c1{fill:#f0a35e}.c2{fill:#eebc59}.c3{fill:#e28b52}.c4{fill:#f2c14e}"
	".c5{fill:#d9653b}.c6{fill:#f5b971}.c7{fill:#e39e47}.c8{fill:#cfcfcf}.g{fill:#dcdcdc}\n"
	"figure{margin:.6em 0 1em}figcaption{font-size:13px;color:#444;margin-bottom:.2em}\n";

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

struct axis {
	double lo, span;
};

static double ax_x(const struct axis *a, double v)
{
	return TL + (v - a->lo) / a->span * (TW - TL - TR);
}

/* One side's lane group: its name, the figure and its interval, a dot
 * per trial in a lane per round. */
static void trials_side(FILE *f, const struct pm_bench_result *s, const char *name,
			const struct axis *a, double top, double band, size_t lanes)
{
	struct pm_figure fg;
	size_t at = 0, i, j;

	fputs("<g class=\"side\" data-side=\"", f);
	put(f, name, NAME_MAX_CHARS);
	if (!s || s->status != PM_BENCH_OK || !s->ntrials) {
		fprintf(f, "\" data-trials=\"0\"><text x=\"4\" y=\"%.0f\">", top + band / 2 + 4);
		put(f, name, NAME_MAX_CHARS);
		fprintf(f, ": %s</text></g>\n", !s ? "not in this result" :
			s->status == PM_BENCH_UNSUPPORTED ? "not supported" :
			s->status == PM_BENCH_FAILED ? "failed" : "no trials");
		return;
	}
	if (!pm_page_figure(s, &fg))
		fg.value = fg.lo = fg.hi = NAN;
	fprintf(f, "\" data-trials=\"%zu\" data-rounds=\"%zu\" data-figure=\"%.6g\"",
		s->ntrials, s->nrounds, fg.value);
	if (isfinite(fg.lo) && isfinite(fg.hi))
		fprintf(f, " data-low=\"%.6g\" data-high=\"%.6g\"", fg.lo, fg.hi);
	fprintf(f, "><text x=\"4\" y=\"%.0f\">", top + band / 2 + 4);
	put(f, name, NAME_MAX_CHARS);
	fputs("</text>", f);
	if (isfinite(fg.lo) && isfinite(fg.hi)) {
		double x0 = ax_x(a, fg.lo), x1 = ax_x(a, fg.hi);

		fprintf(f, "<rect class=\"ci\" x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%.0f\">"
			"<title>figure ", x0, top + 2, x1 - x0 > 0.5 ? x1 - x0 : 0.5, band - 4);
		put_axis(f, fg.value, s);
		fprintf(f, ", %.0f%% interval ", 100 * PM_REPORT_LEVEL);
		put_axis(f, fg.lo, s);
		fputs(" .. ", f);
		put_axis(f, fg.hi, s);
		fputs("</title></rect>", f);
	}
	if (isfinite(fg.value))
		fprintf(f, "<line class=\"med\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.0f\" y2=\"%.0f\"/>",
			ax_x(a, fg.value), ax_x(a, fg.value), top + 1, top + band - 1);
	fputc('\n', f);
	for (j = 0; j < s->nrounds; j++) {
		const struct pm_round *rd = &s->rounds[j];
		double y = top + 5 + LANE / 2 + LANE * (double)(j % lanes);

		/* a dot per trial: a zero-length stroke with round caps, the
		 * values themselves in data-v */
		fprintf(f, "<path class=\"round r%zu\" data-round=\"%zu\" data-run=\"%u\" "
			"data-n=\"%zu\" data-v=\"", j % 10, j, rd->run, rd->ntrials);
		for (i = 0; i < rd->ntrials && at + i < s->ntrials; i++)
			fprintf(f, "%s%.5g", i ? " " : "", s->trials[at + i]);
		fputs("\" d=\"", f);
		for (i = 0; i < rd->ntrials && at + i < s->ntrials; i++)
			fprintf(f, "M%.1f %.0fh0", ax_x(a, s->trials[at + i]), y);
		fprintf(f, "\"><title>round %zu (run %u): %zu trials</title></path>\n", j + 1,
			rd->run + 1, rd->ntrials);
		at += rd->ntrials;
	}
	fputs("</g>\n", f);
}

/* Whether any side has trials to plot (else no plot, and no heading). */
static bool any_trials(const struct pm_bench_result *const *b, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (b[k] && b[k]->status == PM_BENCH_OK && b[k]->ntrials)
			return true;
	return false;
}

static void trials_svg(FILE *f, const char *bench, const struct pm_bench_result *const *b,
		       const char *const *names, size_t n)
{
	double lo = INFINITY, hi = -INFINITY, step, t, band;
	const struct pm_bench_result *any = NULL;
	size_t k, i, lanes = 1, height;
	struct axis a;

	for (k = 0; k < n; k++) {
		if (!b[k] || b[k]->status != PM_BENCH_OK || !b[k]->ntrials)
			continue;
		any = any ? any : b[k];
		if (b[k]->nrounds > lanes)
			lanes = b[k]->nrounds;
		for (i = 0; i < b[k]->ntrials; i++) {
			lo = fmin(lo, b[k]->trials[i]);
			hi = fmax(hi, b[k]->trials[i]);
		}
	}
	if (!any)
		return;
	lanes = lanes > MAX_LANES ? MAX_LANES : lanes;
	if (!(hi > lo)) {
		lo -= fabs(lo) * 0.01 + 1e-9;
		hi += fabs(hi) * 0.01 + 1e-9;
	}
	a.lo = lo - (hi - lo) * 0.04;
	a.span = (hi - lo) * 1.08;
	band = 10 + LANE * (double)lanes;
	height = (size_t)(band * (double)n + 30);
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"trials\" viewBox=\"0 0 %.0f %zu\" "
		"data-bench=\"", TW, height);
	put(f, bench, NAME_MAX_CHARS);
	fputs("\" role=\"img\"><title>trials of ", f);
	put(f, bench, NAME_MAX_CHARS);
	fputs(" by side and round</title>\n<g class=\"axis\">", f);
	step = nice_step(a.lo, a.lo + a.span);
	/* counted, not summed: a step below the values' precision (1e16 ns
	 * and 1e16 + 2) would not move t */
	for (i = 0; i < MAX_TICKS && (t = (ceil(a.lo / step) + (double)i) * step) <= a.lo + a.span;
	     i++) {
		fprintf(f, "<line class=\"ax\" x1=\"%.1f\" x2=\"%.1f\" y1=\"0\" y2=\"%.0f\"/>"
			"<text x=\"%.1f\" y=\"%zu\" text-anchor=\"middle\">",
			ax_x(&a, t), ax_x(&a, t), band * (double)n, ax_x(&a, t), height - 8);
		put_axis(f, t, any);
		fputs("</text>", f);
	}
	fputs("</g>\n", f);
	for (k = 0; k < n; k++)
		trials_side(f, b[k], names[k], &a, band * (double)k, band, lanes);
	fputs("</svg>\n", f);
}

/* ---- counters per op, side by side ---- */

static const struct pm_counter_value *counted(const struct pm_bench_result *b, const char *ev)
{
	const struct pm_counter_value *v = b ? pm_bench_result_counter(b, ev) : NULL;

	return v && v->status == PM_CV_OK && isfinite(v->per_op) ? v : NULL;
}

/* Both figures large enough for their ratio to mean something. */
static bool ratio_meaningful(double a, double b, bool time)
{
	double floor = time ? TIME_FLOOR : COUNT_FLOOR;

	return a >= floor && b >= floor;
}

static void counter_cell(struct pm_table *t, size_t col, const struct pm_counter_value *v,
			 bool time)
{
	char buf[48];
	size_t len;

	if (time)
		pm_fmt_time(buf, sizeof(buf), v->per_op);
	else
		pm_page_count(buf, sizeof(buf), v->per_op);
	len = strlen(buf);
	if (!isnan(v->kernel) && v->per_op > 0)
		snprintf(buf + len, sizeof(buf) - len, " (%.0f%% k)", 100 * v->kernel / v->per_op);
	pm_table_cell_num(t, col, buf, v->per_op);
}

/* The events some side counted, in the order they first appear. */
static size_t counted_events(const struct pm_bench_result *const *b, size_t n,
			     const char **ev, size_t max)
{
	size_t nev = 0, k, i, j;

	for (k = 0; k < n; k++)
		for (i = 0; b[k] && i < b[k]->counters.n; i++) {
			const struct pm_counter_value *v = &b[k]->counters.v[i];
			bool seen = false;

			if (!counted(b[k], v->name))
				continue;
			for (j = 0; j < nev && !seen; j++)
				seen = !strcmp(ev[j], v->name);
			if (!seen && nev < max)
				ev[nev++] = v->name;
		}
	return nev;
}

static void counters_table(FILE *f, const struct pm_bench_result *const *b,
			   const char *const *names, size_t n)
{
	const char *ev[64];
	size_t nev = counted_events(b, n, ev, PM_ARRAY_SIZE(ev)), k, j;
	struct pm_table *t;

	if (!nev)
		return;
	t = pm_table_new();
	pm_table_class(t, "counters");
	pm_table_html_max(t, NAME_MAX_CHARS);
	pm_table_add_col(t, "event (per op)", NULL, PM_COL_LEFT);
	for (k = 0; k < n; k++) {
		pm_table_add_col(t, names[k], NULL, 0);
		if (k)
			pm_table_add_col(t, "ratio", NULL, 0);
	}
	for (j = 0; j < nev; j++) {
		const struct pm_counter_value *base = counted(b[0], ev[j]);
		bool time = !strcmp(ev[j], "task-clock");
		size_t col = 1;

		pm_table_row(t, ev[j]);
		pm_table_cell(t, 0, ev[j], NULL);
		for (k = 0; k < n; k++, col += k > 1 ? 2 : 1) {
			const struct pm_counter_value *v = counted(b[k], ev[j]);
			char buf[32];

			if (!v) {
				pm_table_cell(t, col, "–", "");
				continue;
			}
			counter_cell(t, col, v, time);
			if (k && base && ratio_meaningful(base->per_op, v->per_op, time)) {
				snprintf(buf, sizeof(buf), "%.2f", v->per_op / base->per_op);
				pm_table_cell_num(t, col + 1, buf, v->per_op / base->per_op);
			}
		}
	}
	fputs("<h4>Counters per operation</h4>\n", f);
	pm_table_print(t, f, PM_TABLE_HTML);
	pm_table_free(t);
}

/* ---- emulated counts, side by side: never among the counters ---- */

static bool emulated_row(struct pm_table *t, const struct pm_bench_result *const *b, size_t n,
			 const char *label, const char *key, const char *mode)
{
	struct pm_emu_amount base, a;
	size_t k, col = 1;
	bool any = false;

	for (k = 0; k < n; k++)
		any = any || (b[k] && pm_emulated_amount(b[k], key, mode, &a));
	if (!any)
		return false;
	pm_table_row(t, label);
	pm_table_cell(t, 0, label, NULL);
	if (!b[0] || !pm_emulated_amount(b[0], key, mode, &base))
		base.mean = NAN;
	for (k = 0; k < n; k++, col += k > 1 ? 2 : 1) {
		char buf[48];

		if (!b[k] || !pm_emulated_amount(b[k], key, mode, &a)) {
			pm_table_cell(t, col, "–", "");
			continue;
		}
		pm_page_count(buf, sizeof(buf), a.mean);
		pm_table_cell_num(t, col, buf, a.mean);
		if (k && ratio_meaningful(base.mean, a.mean, false)) {
			snprintf(buf, sizeof(buf), "%.3f", a.mean / base.mean);
			pm_table_cell_num(t, col + 1, buf, a.mean / base.mean);
		}
	}
	return true;
}

static void emulated_table(FILE *f, const struct pm_bench_result *const *b,
			   const char *const *names, size_t n)
{
	struct pm_table *t = pm_table_new();
	bool rows = false;
	size_t k;

	pm_table_class(t, "counters emulated");
	pm_table_html_max(t, NAME_MAX_CHARS);
	pm_table_add_col(t, "emulated count (per op)", NULL, PM_COL_LEFT);
	for (k = 0; k < n; k++) {
		pm_table_add_col(t, names[k], NULL, 0);
		if (k)
			pm_table_add_col(t, "ratio", NULL, 0);
	}
	rows |= emulated_row(t, b, n, "instructions, kernel", "instructions", "kernel");
	rows |= emulated_row(t, b, n, "instructions, user", "instructions", "user");
	rows |= emulated_row(t, b, n, "rep iterations (of those)", "rep_iterations", NULL);
	rows |= emulated_row(t, b, n, "branches", "branches", NULL);
	rows |= emulated_row(t, b, n, "i-cache misses (a model)", "icache_misses", NULL);
	if (rows) {
		fputs("<h4>Emulated counts per operation</h4>\n<p class=\"small\">", f);
		put(f, PM_EMULATED_NOTE, TEXT_MAX_CHARS);
		fputs(".</p>\n", f);
		pm_table_print(t, f, PM_TABLE_HTML);
	}
	pm_table_free(t);
}

/* Whether ev is counted in some benchmark of some result. */
static bool counted_anywhere(const struct pm_result *const *r, size_t n, const char *ev)
{
	size_t k, i;

	for (k = 0; k < n; k++)
		for (i = 0; i < r[k]->nbench; i++)
			if (counted(&r[k]->bench[i], ev))
				return true;
	return false;
}

/* The events no result could count: left out of every table, and named
 * here once, in one sentence, with the reasons. */
static void uncounted_note(FILE *f, const struct pm_result *const *r, size_t n)
{
	const char *names[64], *reasons[64];
	size_t nn = 0, k, i, j, m, shown = 0;

	for (k = 0; k < n; k++)
		for (i = 0; i < r[k]->nbench; i++)
			for (j = 0; j < r[k]->bench[i].counters.n; j++) {
				const struct pm_counter_value *v = &r[k]->bench[i].counters.v[j];
				bool seen = false;

				for (m = 0; m < nn && !seen; m++)
					seen = !strcmp(names[m], v->name);
				if (seen || nn == PM_ARRAY_SIZE(names) || counted_anywhere(r, n, v->name))
					continue;
				names[nn] = v->name;
				reasons[nn++] = v->reason ? v->reason : "no reason given";
			}
	if (!nn)
		return;
	fputs("<p class=\"small uncounted\">Not counted on this machine, so left out of the "
	      "tables: ", f);
	for (i = 0; i < nn; i++) {
		if (!reasons[i])
			continue;
		fputs(shown++ ? "; " : "", f);
		put(f, names[i], NAME_MAX_CHARS);
		for (j = i + 1; j < nn; j++)
			if (reasons[j] && !strcmp(reasons[i], reasons[j])) {
				fputs(", ", f);
				put(f, names[j], NAME_MAX_CHARS);
				reasons[j] = NULL;
			}
		fputs(" (", f);
		put(f, reasons[i], TEXT_MAX_CHARS);
		fputc(')', f);
	}
	fputs(".</p>\n", f);
}

/* ---- flame graphs ---- */

static bool has_samples(const struct pm_bench_result *b)
{
	struct pm_figure fg;

	return b && !b->measured && jnum(b->hotspots, "samples") > 0 &&
	       json_array_size(json_object_get(b->hotspots, "stacks")) && pm_page_figure(b, &fg);
}

/* The kept stacks of a side as cost per op (share of samples x the
 * figure); past the FLAME_STACKS most sampled, as pmbench keeps them,
 * [other]. */
static void add_side(struct pm_flame *fl, int side, const struct pm_bench_result *b,
		     bool all_frames)
{
	double total = jnum(b->hotspots, "samples"), other = 0;
	json_t *stacks = pm_hotspots_stacks(b->hotspots, all_frames, NULL), *s;
	struct pm_figure fg;
	size_t i;

	if (!pm_page_figure(b, &fg))
		fg.value = b->stats.median;
	json_array_foreach(stacks, i, s) {
		if (i < FLAME_STACKS && strcmp(jstr(s, "stack"), "[other]"))
			pm_flame_add(fl, side, jstr(s, "stack"), jnum(s, "samples") / total * fg.value);
		else
			other += jnum(s, "samples");
	}
	pm_flame_add(fl, side, "[other]", other / total * fg.value);
	json_decref(stacks);
}

static void flame_figure(FILE *f, const struct pm_flame *fl, int side, enum pm_flame_kind kind,
			 const char *caption, const char *name, double min)
{
	fputs("<figure class=\"flame\" data-side=\"", f);
	put(f, name, NAME_MAX_CHARS);
	fprintf(f, "\" data-kind=\"%s\"><figcaption>", kind == PM_FLAME_SIDE ? "side" : "diff");
	pm_html_escape(f, caption);	/* made of names already cut */
	fputs("</figcaption>\n", f);
	pm_flame_svg(fl, f, side, kind, min, caption);
	fputs("</figure>\n", f);
}

/* The second side's shape against the first: coloured only when explain
 * decided the change (c), grey otherwise. */
static void diff_flame(FILE *f, const struct pm_bench_result *const *b,
		       const char *const *names, const struct pm_bench_cmp *c,
		       const struct pm_report_opts *o)
{
	struct pm_flame *fl = pm_flame_new();
	bool decided = pm_page_decided(c);
	char *cap, *buf = NULL;
	size_t len = 0, nshrunk = 0;
	FILE *m;

	add_side(fl, 0, b[0], o->all_frames);
	add_side(fl, 1, b[1], o->all_frames);
	if (decided)
		cap = pm_xasprintf("%s against %s (%s): the shape of %s; red frames grew, blue frames "
				   "shrank (time per operation)", names[1], names[0],
				   pm_verdict_name(c->verdict), names[1]);
	else
		cap = pm_xasprintf("%s against %s: the shape of %s, in grey: %s, so no frame is "
				   "called grown or shrunk (hover a frame for both figures)",
				   names[1], names[0], names[1], !c ? "not compared" :
				   c->verdict == PM_INCONCLUSIVE ? "the change is not decided" :
				   "not a decided change");
	flame_figure(f, fl, 1, decided ? PM_FLAME_DIFF : PM_FLAME_DIFF_GREY, cap, names[1],
		     o->min_frame);
	free(cap);
	/* what the shape above hides: only for a change, and only when any */
	if (decided && (m = open_memstream(&buf, &len))) {
		nshrunk = pm_flame_shrunk(fl, m, 6);
		fclose(m);
		if (nshrunk)
			fprintf(f, "<p class=\"small\">Shrank or gone (not seen in the shape above):</p>"
				"<ul class=\"small shrunk\">\n%s</ul>\n", buf);
		free(buf);
	}
	pm_flame_free(fl);
}

static void flames(FILE *f, const struct pm_bench_result *const *b,
		   const char *const *names, size_t n, const struct pm_bench_cmp *c,
		   const struct pm_report_opts *o)
{
	size_t k, with = 0;

	for (k = 0; k < n; k++)
		with += has_samples(b[k]);
	if (!with)
		return;
	fputs("<h4>Flame graphs</h4>\n<p class=\"small\">Sampled call chains, callers below "
	      "callees; a frame is as wide as its time per operation (its share of the samples "
	      "times the figure), the process name at the base", f);
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
		flame_figure(f, fl, 0, PM_FLAME_SIDE, cap, names[k], o->min_frame);
		free(cap);
		pm_flame_free(fl);
	}
	if (n == 2 && has_samples(b[0]) && has_samples(b[1]))
		diff_flame(f, b, names, c, o);
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

/* The verdict under a benchmark's heading, and where its findings are. */
static void bench_verdict(FILE *f, const struct pm_result *const *r, const struct pm_bench_cmp *c)
{
	char ch[24], ci[48];

	pm_page_change(ch, sizeof(ch), pm_page_ratio(r, c));
	pm_page_change_ci(ci, sizeof(ci), c->ci_low, c->ci_high);
	fputs("<p class=\"change\">", f);
	pm_page_verdict(f, c->verdict);
	fprintf(f, " %s", ch);
	if (isfinite(c->ci_low))
		fprintf(f, " <span class=\"small\">(%.0f%% interval %s)</span>", 100 * c->level, ci);
	if (pm_page_decided(c)) {
		fputs(" &middot; <a href=\"#f-", f);
		pm_html_fragment(f, c->name, NAME_MAX_CHARS);
		fputs("\">where and why</a>", f);
	}
	fputs("</p>\n", f);
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
	/* the id as the results table's link to it: cut and encoded alike */
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
	if (c)
		bench_verdict(f, r, c);
	for (k = 0; k < n; k++)
		if (b[k] && b[k]->status != PM_BENCH_OK) {
			fputs("<p class=\"small\">", f);
			put(f, names[k], NAME_MAX_CHARS);
			fprintf(f, ": %s: ", b[k]->status == PM_BENCH_UNSUPPORTED ?
				"not supported here" : "failed");
			put(f, b[k]->reason, TEXT_MAX_CHARS);
			fputs("</p>\n", f);
		}
	if (any_trials(b, n)) {
		fprintf(f, "<h4>Trials</h4>\n<p class=\"small\">Every timed trial, a lane and a "
			"colour per round (each round a fresh process); the line is the figure, "
			"the band its %.0f%% interval (the results table's).</p>\n",
			100 * PM_REPORT_LEVEL);
		trials_svg(f, name, b, names, n);
	}
	counters_table(f, b, names, n);
	emulated_table(f, b, names, n);
	flames(f, b, names, n, c, o);
	fputs("</section>\n", f);
	free(b);
}

/* The sides' names as the page shows them: cut, and still unique. */
static char **side_names(const char *const *names, size_t n)
{
	char **v = pm_xcalloc(n, sizeof(*v));
	size_t k, j;

	for (k = 0; k < n; k++) {
		v[k] = pm_page_cut(names[k], NAME_MAX_CHARS);
		for (j = 0; j < k; j++)
			if (!strcmp(v[j], v[k])) {
				char *c = pm_page_cut(names[k], NAME_MAX_CHARS - 8);

				free(v[k]);
				v[k] = pm_xasprintf("%s#%zu", c, k + 1);
				free(c);
				break;
			}
	}
	return v;
}

/* Every benchmark of any result, in the order they first appear. */
static const char **all_benches(const struct pm_result *const *r, size_t n, size_t *count)
{
	const char **seen = NULL;
	size_t ns = 0, k, i, j;

	for (k = 0; k < n; k++)
		for (i = 0; i < r[k]->nbench; i++) {
			const char *name = r[k]->bench[i].name;
			bool dup = false;

			for (j = 0; j < ns && !dup; j++)
				dup = !strcmp(seen[j], name);
			if (!dup) {
				seen = pm_xgrow(seen, ns, sizeof(*seen));
				seen[ns++] = name;
			}
		}
	*count = ns;
	return seen;
}

/* ---- the results table: a figure and its interval per side ---- */

/* A side's figure and interval cells (two), or why it has none. */
static void figure_cells(FILE *f, const struct pm_bench_result *b, double *value)
{
	struct pm_figure fg;
	char *v, *iv;

	*value = NAN;
	if (!pm_page_figure(b, &fg)) {
		fprintf(f, "<td class=\"n none\">%s</td><td></td>", !b ? "–" :
			b->status == PM_BENCH_UNSUPPORTED ? "not supported" :
			b->status == PM_BENCH_FAILED ? "failed" : "no figure");
		return;
	}
	*value = fg.value;
	v = pm_page_value(b, fg.value);
	iv = pm_page_interval(b, &fg);
	fprintf(f, "<td class=\"n fig\" data-v=\"%.6g\" data-basis=\"%s\">", fg.value,
		pm_figure_basis_name(fg.basis));
	put(f, v, NAME_MAX_CHARS);
	if (!b->converged && b->ntrials > 1)
		fputc('*', f);
	fputs("</td><td class=\"n iv\"", f);
	if (iv) {
		fprintf(f, " data-low=\"%.6g\" data-high=\"%.6g\">", fg.lo, fg.hi);
		put(f, iv, NAME_MAX_CHARS);
	} else {
		fputs(">", f);
	}
	fputs("</td>", f);
	free(v);
	free(iv);
}

static bool listed(char *const *v, size_t n, const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], name))
			return true;
	return false;
}

/* With explain: the change, its interval, the verdict, the first cause. */
static void verdict_cells(FILE *f, const struct pm_result *const *r, const char *name,
			  const struct pm_explanation *x)
{
	const struct pm_bench_cmp *c = cmp_of(x, name);
	char ch[24], ci[48];
	double ratio;

	if (!c) {
		fprintf(f, "<td></td><td></td><td class=\"small\">%s</td><td></td>",
			listed(x->only_old, x->nonly_old, name) ? "only in OLD" :
			listed(x->only_new, x->nonly_new, name) ? "only in NEW" : "not compared");
		return;
	}
	ratio = pm_page_ratio(r, c);
	pm_page_change(ch, sizeof(ch), ratio);
	pm_page_change_ci(ci, sizeof(ci), c->ci_low, c->ci_high);
	fprintf(f, "<td class=\"n\" data-v=\"%.6g\">%s</td><td class=\"n iv\">%s</td><td>", ratio,
		ch, ci);
	pm_page_verdict(f, c->verdict);
	fputs("</td><td class=\"cause\">", f);
	if (c->ncauses && pm_page_decided(c)) {
		fputs("<a href=\"#f-", f);
		pm_html_fragment(f, name, NAME_MAX_CHARS);
		fputs("\">", f);
		put(f, c->causes[0].title, NAME_MAX_CHARS);
		fputs("</a>", f);
	} else if (c->ncauses) {
		put(f, c->causes[0].title, NAME_MAX_CHARS);
	}
	fputs("</td>", f);
}

static void results_head(FILE *f, const char *const *names, size_t n,
			 const struct pm_explanation *x)
{
	size_t k;

	fputs("<table class=\"summary\">\n<thead><tr><th>benchmark</th>", f);
	for (k = 0; k < n; k++) {
		fputs("<th class=\"n\">", f);
		put(f, names[k], NAME_MAX_CHARS);
		fprintf(f, "</th><th class=\"n\">%.0f%% interval</th>", 100 * PM_REPORT_LEVEL);
		if (k && !x)
			fputs("<th class=\"n\">ratio</th>", f);
	}
	if (x)
		fprintf(f, "<th class=\"n\">change</th><th class=\"n\">%.0f%% interval</th>"
			"<th>verdict</th><th>likely cause</th>", 100 * x->opts.level);
	fputs("</tr></thead>\n<tbody>\n", f);
}

static void results_table(FILE *f, const struct pm_result *const *r, const char *const *names,
			  size_t n, const struct pm_explanation *x)
{
	size_t nb, i, k;
	const char **benches = all_benches(r, n, &nb);

	results_head(f, names, n, x);
	for (i = 0; i < nb; i++) {
		double base = NAN, v;

		fputs("<tr data-key=\"", f);
		put(f, benches[i], NAME_MAX_CHARS);
		fputs("\"><td><a href=\"#b-", f);
		pm_html_fragment(f, benches[i], NAME_MAX_CHARS);
		fputs("\">", f);
		put(f, benches[i], NAME_MAX_CHARS);
		fputs("</a></td>", f);
		for (k = 0; k < n; k++) {
			const struct pm_bench_result *b = pm_result_find(r[k], benches[i]);

			figure_cells(f, b, &v);
			if (!k)
				base = v;
			else if (!x && base > 0 && v > 0)
				fprintf(f, "<td class=\"n\" data-v=\"%.6g\">%.2f</td>", v / base, v / base);
			else if (!x)
				fputs("<td class=\"n\">–</td>", f);
		}
		if (x)
			verdict_cells(f, r, benches[i], x);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	free(benches);
}

/* The estimator, named once for the page. */
static void results_legend(FILE *f, const struct pm_result *const *r, size_t n,
			   const struct pm_explanation *x)
{
	bool star = false, rate = false;
	size_t k, i;

	for (k = 0; k < n; k++)
		for (i = 0; i < r[k]->nbench; i++) {
			const struct pm_bench_result *b = &r[k]->bench[i];

			star = star || (b->status == PM_BENCH_OK && !b->converged && b->ntrials > 1);
			rate = rate || pm_bench_higher_is_better(b);
		}
	fprintf(f, "<p class=\"legend\">Per operation. A benchmark's figure is the geometric "
		"mean of the faster half of its rounds' medians (each round a fresh process), "
		"over several runs the geometric mean of the runs' figures; its %.0f%% interval "
		"is between the runs, else between the rounds, else of the trials' median.",
		100 * PM_REPORT_LEVEL);
	if (rate)
		fputs(" A rate (MB/s, ops/s) is better higher, a time lower.", f);
	if (x)
		fprintf(f, " Change: the second figure against the first. Its interval, the verdict "
			"and the likely cause are <code>pmbench explain</code>'s, which compares the "
			"runs or rounds behind the figures, at %.0f%% as well.", 100 * x->opts.level);
	else if (n > 1)
		fputs(" Ratio: the figure over the first result's.", f);
	if (star)
		fputs(" * a side whose trials did not reach their target interval.", f);
	fputs("</p>\n", f);
}

static void page_head(FILE *f, const char *title)
{
	char *now = pm_fmt_now("%Y-%m-%d %H:%M:%SZ", true);

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<meta name=\"generator\" content=\"pmbench " PACKAGE_VERSION "\">\n<title>", f);
	pm_html_escape(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	pm_html_escape(f, title);
	fprintf(f, "</h1>\n<p class=\"small\">Written by pmbench %s on %s. Every figure is per "
		"operation; hover the plots for their figures.</p>\n", PACKAGE_VERSION, now);
	free(now);
}

static void sides_list(FILE *f, const struct pm_result *const *r, const char *const *names,
		       size_t n)
{
	size_t k;

	fputs("<ul class=\"sides\">\n", f);
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
}

int pm_report_html(const struct pm_result *const *r, const char *const *given,
		   size_t n, const struct pm_explanation *x,
		   const struct pm_report_opts *o, FILE *f)
{
	char **shown = side_names(given, n);
	const char *const *names = (const char *const *)shown;
	const char **benches;
	char *title;
	size_t k, i, nb;

	if (o->title)
		title = pm_xstrdup(o->title);
	else if (n == 2)
		title = pm_xasprintf("pmbench: %s vs %s", names[0], names[1]);
	else
		title = pm_xasprintf("pmbench: %s%s", names[0], n > 2 ? " and others" : "");
	page_head(f, title);
	fputs("<h2 id=\"results\">Results</h2>\n", f);
	sides_list(f, r, names, n);
	results_table(f, r, names, n, x);
	results_legend(f, r, n, x);
	uncounted_note(f, r, n);
	if (x)
		pm_page_findings(f, r, names, x);
	fputs("<h2 id=\"benchmarks\">Benchmarks</h2>\n", f);
	benches = all_benches(r, n, &nb);
	for (i = 0; i < nb; i++)
		bench_section(f, benches[i], r, names, n, x, o);
	free(benches);
	fputs("</body>\n</html>\n", f);
	for (k = 0; k < n; k++)
		free(shown[k]);
	free(shown);
	free(title);
	return ferror(f) ? -EIO : 0;
}
