/*
 * Causes: adding one with its evidence and taking one back, for every
 * pass that names them (the rule table, mechanisms, experiments).
 */
#include "config.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"

struct pm_cause *pm_cause_add(struct pm_bench_cmp *c, const char *rule, const char *title,
			      double confidence, const char *sentence)
{
	struct pm_cause *k;

	c->causes = pm_xgrow(c->causes, c->ncauses, sizeof(*c->causes));
	k = &c->causes[c->ncauses++];
	memset(k, 0, sizeof(*k));
	k->rule = rule;
	k->title = title;
	k->confidence = fmin(confidence, 0.99);
	k->sentence = pm_xstrdup(sentence);
	k->evidence = pm_xcalloc(1, sizeof(char *));
	return k;
}

void pm_cause_evidence(struct pm_cause *k, const char *fmt, ...)
{
	va_list ap;

	k->evidence = pm_xrealloc(k->evidence, (k->nevidence + 1) * sizeof(char *));
	va_start(ap, fmt);
	k->evidence[k->nevidence++] = pm_xvasprintf(fmt, ap);
	va_end(ap);
}

void pm_cause_remove(struct pm_bench_cmp *c, size_t i)
{
	struct pm_cause *k = &c->causes[i];

	free(k->sentence);
	free(k->title_buf);
	free(k->proof);
	free(k->mechanism);
	free(k->switched_by);
	for (size_t j = 0; j < k->nevidence; j++)
		free(k->evidence[j]);
	free(k->evidence);
	memmove(k, k + 1, (c->ncauses - i - 1) * sizeof(*k));
	c->ncauses--;
}

/*
 * One basis holds parts to their whole, but a part can still exceed the
 * change when other code took time back, or move against it: say so
 * instead of a share past 100% or below 0.
 */
void pm_share_words(char *buf, size_t len, const struct pm_bench_cmp *c, double part,
		    bool named)
{
	double d = c->delta_ns, share = part / d;
	char more[32];
	const char *whose = named ? c->name : NULL;

	if (!(fabs(d) > 0) || isnan(part)) {
		snprintf(buf, len, "of no measured change");
		return;
	}
	if (share < -0.005) {
		snprintf(buf, len, "against %s%schange", whose ? whose : "the",
			 whose ? "'s " : " ");
		return;
	}
	if (share <= 1.005) {
		snprintf(buf, len, "%.0f%% of %s%schange", 100 * fmax(share, 0),
			 whose ? whose : "the", whose ? "'s " : " ");
		return;
	}
	pm_fmt_time(more, sizeof(more), fabs(part - d));
	snprintf(buf, len, "all of %s%schange and %s more, which the rest of its code %s",
		 whose ? whose : "the", whose ? "'s " : " ", more,
		 d > 0 ? "took back" : "gave back");
}
