/* The figure in the views (src/views/figure.c) */
#ifndef PM_VIEWS_FIGURE_H
#define PM_VIEWS_FIGURE_H

#include <stdbool.h>

#include "results/result.h"

/*
 * The figure every view shows (pm_bench_figure at PM_FIGURE_LEVEL);
 * false, f all NAN, when b has none.  Its interval as a relative
 * half-width (NAN none); past PM_FIGURE_WIDE it is "unbounded", never a
 * number: pm_figure_why_unbounded says why.  pm_figure_legend: the line
 * that names the estimator and the interval, for the bases
 * (1 << enum pm_figure_basis) shown.
 */
#define PM_FIGURE_WIDE 0.5
bool pm_render_figure(const struct pm_bench_result *b, struct pm_figure *f);
double pm_figure_rel(const struct pm_figure *f);
bool pm_figure_unbounded(const struct pm_figure *f);
char *pm_fmt_figure_rel(const struct pm_figure *f);
char *pm_figure_why_unbounded(const struct pm_figure *f);
char *pm_figure_legend(unsigned bases);

#endif
