/*
 * Figures as the HTML report writes them, for the page (html.c) and
 * explain's findings (findings.c): values, intervals, counts, changes
 * and verdicts.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"

char *pm_page_cut(const char *s, size_t max)
{
	size_t len = pm_text_prefix(s, max);

	if (!s[len])
		return pm_xstrdup(s);
	return pm_xasprintf("%.*s…", (int)pm_text_prefix(s, max - 1), s);
}

char *pm_page_value(const struct pm_bench_result *b, double ns)
{
	double v = pm_bench_result_value(b, ns);
	char buf[48], *unit, *s;

	if (!isfinite(v))
		return pm_xstrdup("-");
	if (!b->measured && !pm_bench_higher_is_better(b)) {
		pm_fmt_time(buf, sizeof(buf), ns);
		return pm_xstrdup(buf);
	}
	unit = pm_page_cut(b->unit ? b->unit : "", UNIT_MAX_CHARS);
	s = pm_xasprintf(b->measured ? "%.4g %s" : "%.1f %s", v, unit);
	free(unit);
	return s;
}

char *pm_page_interval(const struct pm_bench_result *b, const struct pm_figure *fg)
{
	char *lo, *hi, *s, *ul, *uh;

	if (!(isfinite(fg->lo) && isfinite(fg->hi)))
		return NULL;
	/* a rate's ends swap: the low time is the high rate */
	lo = pm_page_value(b, pm_bench_higher_is_better(b) ? fg->hi : fg->lo);
	hi = pm_page_value(b, pm_bench_higher_is_better(b) ? fg->lo : fg->hi);
	ul = strrchr(lo, ' ');
	uh = strrchr(hi, ' ');
	if (ul && uh && !strcmp(ul, uh))
		s = pm_xasprintf("%.*s – %s", (int)(ul - lo), lo, hi);
	else
		s = pm_xasprintf("%s – %s", lo, hi);
	free(lo);
	free(hi);
	return s;
}

void pm_page_count(char *buf, size_t len, double v)
{
	if (v != 0 && fabs(v) < 0.01)
		snprintf(buf, len, "%.2g", v);
	else
		pm_fmt_count(buf, len, v);
}

void pm_page_change(char *buf, size_t len, double ratio)
{
	if (isfinite(ratio))
		snprintf(buf, len, "%+.1f%%", 100 * (ratio - 1));
	else
		snprintf(buf, len, "-");
}

void pm_page_change_ci(char *buf, size_t len, double lo, double hi)
{
	if (isfinite(lo) && isfinite(hi))
		snprintf(buf, len, "%+.1f%% .. %+.1f%%", 100 * (lo - 1), 100 * (hi - 1));
	else
		snprintf(buf, len, "-");
}

const char *pm_page_verdict_class(enum pm_verdict v)
{
	static const char *const cls[] = {
		[PM_REGRESSION] = "regression", [PM_IMPROVEMENT] = "improvement",
		[PM_NO_CHANGE] = "nochange", [PM_INCONCLUSIVE] = "inconclusive",
		[PM_CHANGED] = "changed",
	};

	return cls[v];
}

bool pm_page_decided(const struct pm_bench_cmp *c)
{
	return c && pm_verdict_changed(c->verdict);
}

void pm_page_verdict(FILE *f, enum pm_verdict v)
{
	fprintf(f, "<span class=\"verdict %s\">%s</span>", pm_page_verdict_class(v),
		pm_verdict_name(v));
}

bool pm_page_figure(const struct pm_bench_result *b, struct pm_figure *fg)
{
	return b && b->status == PM_BENCH_OK && b->ntrials &&
	       pm_bench_figure(b, PM_REPORT_LEVEL, fg) == 0;
}

double pm_page_ratio(const struct pm_result *const *r, const struct pm_bench_cmp *c)
{
	/* the estimate the verdict judged, inside the interval printed
	 * beside it (the figures' own ratio may lie outside) */
	(void)r;
	return c->med_old > 0 && c->med_new > 0 ? c->med_new / c->med_old : c->ratio;
}
