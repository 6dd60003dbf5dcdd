/*
 * What the parts of the HTML report share (html.c the page and the
 * benchmarks' sections, findings.c explain's findings): how much of a
 * text from a result file is shown, and how figures are written (page.c).
 */
#ifndef PM_REPORT_PAGE_H
#define PM_REPORT_PAGE_H

#include <stdio.h>

#include "explain/explain.h"
#include "report/report.h"
#include "results/result.h"
#include "util/table.h"

/*
 * How much of a text from a result file the page shows: a longer one is
 * cut with an ellipsis, so that a field adds at most this much to the
 * page wherever it is shown, however long it is in the file.
 */
#define NAME_MAX_CHARS 80	/* sides, benchmarks, events, an lmbench key */
#define UNIT_MAX_CHARS 16	/* a unit, on every tick of an axis */
#define TEXT_MAX_CHARS 300	/* summaries, reasons, paths, a frame's name */
#define LINE_MAX_CHARS 1000	/* a sentence or a line of evidence of explain */

/* Text from a result file, escaped, at most max characters of it. */
static inline void put(FILE *f, const char *s, size_t max)
{
	pm_html_escape_max(f, s, max);
}

/* page.c: figures as the page writes them */
/* A copy of s cut to max characters, the last an ellipsis when cut. */
char *pm_page_cut(const char *s, size_t max);
/* The figure of b at the page's level; false when it has none. */
bool pm_page_figure(const struct pm_bench_result *b, struct pm_figure *fg);
/* A figure of b (ns per op, or b's unit when measured) as the tables
 * show it: "461 us", "1234.5 MB/s"; "-" for none.  Caller frees. */
char *pm_page_value(const struct pm_bench_result *b, double ns);
/* A figure's interval, "455 – 468 us" (one unit when both ends share
 * it), or NULL when it has none.  Caller frees. */
char *pm_page_interval(const struct pm_bench_result *b, const struct pm_figure *fg);
/* A count per op: pmbench's counts, but a small one not as "0.00". */
void pm_page_count(char *buf, size_t len, double v);
/* A change as a percentage, "+8.3%", and its interval "+6.1% .. +10.6%". */
void pm_page_change(char *buf, size_t len, double ratio);
void pm_page_change_ci(char *buf, size_t len, double lo, double hi);
/* The change the page shows: the ratio of the two sides' figures (the
 * results table's), else explain's estimate.  Its interval and the
 * verdict are explain's (c->ci_low, c->ci_high at c->level). */
double pm_page_ratio(const struct pm_result *const *r, const struct pm_bench_cmp *c);
/* "regression", "improvement" ...: the CSS class of a verdict. */
const char *pm_page_verdict_class(enum pm_verdict v);
/* Was the change decided one way (a regression or an improvement)? */
bool pm_page_decided(const struct pm_bench_cmp *c);
/* A verdict as a badge. */
void pm_page_verdict(FILE *f, enum pm_verdict v);

/* findings.c: explain's findings, after the results table */
void pm_page_findings(FILE *f, const struct pm_result *const *r, const char *const *names,
		      const struct pm_explanation *x);

#endif
