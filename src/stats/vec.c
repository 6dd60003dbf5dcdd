/* A growing array of doubles (apart from stats.c, which macro-cc
 * compiles without util.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "stats/stats.h"
#include "util.h"

void pm_vec_push(struct pm_vec *a, double x)
{
	a->v = pm_xgrow(a->v, a->n, sizeof(*a->v));
	a->v[a->n++] = x;
}

void pm_vec_free(struct pm_vec *a)
{
	free(a->v);
	a->v = NULL;
	a->n = 0;
}

double pm_vec_median(const struct pm_vec *a)
{
	return a->n ? pm_median(a->v, a->n) : NAN;
}

double pm_vec_mean(const struct pm_vec *a)
{
	return pm_mean(a->v, a->n);
}
