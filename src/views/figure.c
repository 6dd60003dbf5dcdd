/*
 * The figure in the views: one estimator and one interval, as every view
 * prints them (results/figure.c computes them).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "views/figure.h"

double pm_figure_rel(const struct pm_figure *f)
{
	if (!(f->value > 0) || isnan(f->lo) || isnan(f->hi))
		return NAN;
	return fmax(f->hi / f->value - 1, 1 - f->lo / f->value);
}

bool pm_figure_unbounded(const struct pm_figure *f)
{
	return pm_figure_rel(f) > PM_FIGURE_WIDE;
}

/* "0.8%"; "unbounded" past ±50% (no number says anything there); "-"
 * when there is no interval (one trial, an import). */
char *pm_fmt_figure_rel(const struct pm_figure *f)
{
	double r = pm_figure_rel(f);

	if (isnan(r))
		return pm_xstrdup("-");
	if (r > PM_FIGURE_WIDE)
		return pm_xstrdup("unbounded");
	return pm_xasprintf("%.1f%%", 100 * r);
}

char *pm_figure_why_unbounded(const struct pm_figure *f)
{
	return pm_xasprintf("too few %s to bound it (%zu %s disagree by more than ±%.0f%%)",
			    pm_figure_basis_name(f->basis), f->n, pm_figure_basis_name(f->basis),
			    100 * PM_FIGURE_WIDE);
}

/* What the figure and its interval are, in one line, for the bases
 * (1 << basis) the view shows. */
char *pm_figure_legend(unsigned bases)
{
	static const char *const between[] = { "runs", "rounds", "trials (one round)" };
	char list[96] = "";
	size_t i, len = 0, k = 0;

	for (i = 0; i < PM_ARRAY_SIZE(between); i++)
		if (bases & (1u << i))
			len += (size_t)snprintf(list + len, sizeof(list) - len, "%s%s",
						k++ ? ", else " : "", between[i]);
	return pm_xasprintf("figure: per run the geometric mean of the faster half of its "
			    "rounds' medians%s; ±%.0f%%: interval %s%s",
			    bases & (1u << PM_FIG_RUNS) ? ", over runs their geometric mean" : "",
			    100 * PM_FIGURE_LEVEL, k ? "between " : "", k ? list : "none");
}

/* The figure of b at the level every view uses; false when it has none. */
bool pm_render_figure(const struct pm_bench_result *b, struct pm_figure *f)
{
	if (b->status == PM_BENCH_OK && pm_bench_figure(b, PM_FIGURE_LEVEL, f) == 0)
		return true;
	memset(f, 0, sizeof(*f));
	f->value = f->lo = f->hi = f->spread = NAN;
	return false;
}

