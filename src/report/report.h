/*
 * The HTML report (pmbench-report(1)): one self-contained page, styles
 * and SVG plots inline, no script and nothing fetched: the summary
 * table, per benchmark the trials of every side with their interval,
 * the counters per op and a flame graph per side, and for two results a
 * differential flame graph and explain's findings.
 *
 *   flame.c   call-chain trees from folded stacks, drawn as SVG
 *   html.c    the page
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
 * The flame graph of a side as an <svg> element, root at the bottom,
 * frames narrower than min_share of the total left out.  diff: the
 * shape of side 1, each frame red when it grew from side 0 and blue
 * when it shrank, the deeper the colour the larger the change.
 */
void pm_flame_svg(const struct pm_flame *fl, FILE *f, int side, bool diff,
		  double min_share, const char *label);
/* Frames of side 0 that shrank or vanished most (the diff graph draws
 * side 1's shape): up to max lines "frame: old -> new ns/op". */
void pm_flame_shrunk(const struct pm_flame *fl, FILE *f, size_t max);

/* ---- the page ---- */

struct pm_report_opts {
	const char *title;	/* NULL: from the results */
	bool all_frames;	/* keep pmbench's own frames in the flame graphs */
	double min_frame;	/* frames narrower than this share are left out */
};

/*
 * Write the report of n results (the first the baseline) named names[];
 * x: explain's findings for two results, or NULL.
 */
int pm_report_html(const struct pm_result *const *r, const char *const *names,
		   size_t n, const struct pm_explanation *x,
		   const struct pm_report_opts *o, FILE *f);

#endif
