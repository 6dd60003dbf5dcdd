/*
 * The HTML report (pmbench-report(1)): one self-contained page, styles
 * and SVG plots inline, no script and nothing fetched: the results
 * table (each benchmark's figure and interval, with two results explain's
 * verdict), explain's findings, and per benchmark the trials of every
 * side, the counters per op, a flame graph per side and for two results
 * a differential one.
 *
 *   flame.c     call-chain trees from folded stacks, drawn as SVG
 *   html.c      the page, the results table, the benchmarks' sections
 *   findings.c  explain's findings: why, where, the experiment
 */
#ifndef PM_REPORT_H
#define PM_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "explain/explain.h"
#include "results/result.h"

/* ---- flame graphs ---- */

struct pm_flame;

struct pm_flame *pm_flame_new(void);
void pm_flame_free(struct pm_flame *fl);
/* A folded stack ("comm;frame;...;leaf") of side 0 or 1 weighing v
 * (ns per op, so that two sides compare). */
void pm_flame_add(struct pm_flame *fl, int side, const char *stack, double v);
/* Total weight of a side. */
double pm_flame_total(const struct pm_flame *fl, int side);
/*
 * What a flame graph draws: one side in warm colours; or the shape of
 * side 1 against side 0, each frame red when it grew and blue when it
 * shrank, the deeper the colour the larger the change (for a decided
 * change), or every frame grey (a change that is not one: a colour would
 * claim what the verdict does not).
 */
enum pm_flame_kind { PM_FLAME_SIDE, PM_FLAME_DIFF, PM_FLAME_DIFF_GREY };

/*
 * The flame graph as an <svg> element, root at the bottom, frames
 * narrower than min_share of the total left out; side: the side drawn
 * (1 for a difference).
 */
void pm_flame_svg(const struct pm_flame *fl, FILE *f, int side, enum pm_flame_kind kind,
		  double min_share, const char *label);
/* Frames of side 0 that shrank or vanished most (the diff graph draws
 * side 1's shape): up to max <li> "frame: old -> new per op"; how many. */
size_t pm_flame_shrunk(const struct pm_flame *fl, FILE *f, size_t max);

/* ---- the page ---- */

struct pm_report_opts {
	const char *title;	/* NULL: from the results */
	bool all_frames;	/* keep pmbench's own frames in the flame graphs */
	double min_frame;	/* frames narrower than this share are left out */
};

/* The level of the figures' intervals, as every view shows them
 * (pm_bench_figure); a change's interval is explain's, at the level its
 * verdict is decided at. */
#define PM_REPORT_LEVEL PM_LEVEL

/*
 * Write the report of n results (the first the baseline) named names[];
 * x: explain's findings for two results, or NULL.
 */
int pm_report_html(const struct pm_result *const *r, const char *const *names,
		   size_t n, const struct pm_explanation *x,
		   const struct pm_report_opts *o, FILE *f);

#endif
