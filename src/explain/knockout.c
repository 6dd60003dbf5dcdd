/*
 * Causes proven by knock-out experiments.  When the sides differ by their
 * kernel image, pmbench ab boots both again with a mechanism switched off
 * (options.ab.experiment.knockouts, pmbench-result(5)) and records the
 * share of each benchmark's change that disappeared.  That share, with
 * its interval, is what proves a mechanism the cause: all of the change
 * (its interval above one half), a part of it (above zero), or none (a
 * knock-out that leaves the change standing rules its switch out).
 * And the cause of an image's change spread over several mechanisms.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"

static const char *jstr(const json_t *o, const char *k)
{
	return json_string_value(json_object_get(o, k));
}

static double jnum(const json_t *o, const char *k)
{
	return json_number_value(json_object_get(o, k));
}

/* "removes 88% (99% CI 70% .. 105%) of stat's change (5 boots a side)" */
static char *removes(const struct pm_bench_cmp *c, const json_t *b)
{
	return pm_xasprintf("removes %.0f%% (%.0f%% CI %.0f%% .. %.0f%%) of %s's change (%d "
			    "boots a side)", 100 * jnum(b, "removed"), 100 * jnum(b, "level"),
			    100 * jnum(b, "low"), 100 * jnum(b, "high"), c->name,
			    (int)json_integer_value(json_object_get(b, "boots")));
}

/* The code the knock-out switches off, its time per op on each side. */
static void moved_evidence(struct pm_cause *k, const json_t *cands, const char *arg,
			   const char *bench)
{
	const json_t *cd, *m;
	size_t i;

	json_array_foreach(cands, i, cd) {
		char a[32], b[32];

		if (strcmp(jstr(cd, "argument") ? jstr(cd, "argument") : "", arg))
			continue;
		m = json_object_get(json_object_get(cd, "moved"), bench);
		if (!m)
			return;
		pm_fmt_time(a, sizeof(a), jnum(m, "a_ns"));
		pm_fmt_time(b, sizeof(b), jnum(m, "b_ns"));
		pm_cause_evidence(k, "its code: %s, %s on A -> %s on B per op",
				  jstr(m, "code") ? jstr(m, "code") : jstr(cd, "name"), a, b);
		return;
	}
}

/* Causes about mechanism key other than k become k's evidence. */
static void fold_mechanism(struct pm_bench_cmp *c, size_t at, const char *key)
{
	size_t i = 0;

	while (i < c->ncauses) {
		struct pm_cause *k = &c->causes[i];

		if (i != at && k->mechanism && !strcmp(k->mechanism, key) &&
		    strcmp(k->rule, "knockout")) {
			pm_cause_evidence(&c->causes[at], "%s", k->sentence);
			pm_cause_remove(c, i);
			at -= i < at;
			continue;
		}
		i++;
	}
}

/* A knock-out that proved a share (lo > 0): the cause it names, at 0.96
 * to 0.99 when above one half. */
static void proven(struct pm_bench_cmp *c, const json_t *r, const json_t *b,
		   const json_t *cands)
{
	const char *arg = jstr(r, "argument"), *name = jstr(r, "name");
	const char *key = jstr(r, "mechanism");
	double lo = jnum(b, "low"), est = jnum(b, "removed");
	char *how = removes(c, b), *s;
	struct pm_cause *k;

	s = lo > 0.5 ?
	    pm_xasprintf("Proven by knock-out: switching it off on both sides (%s) %s.", arg,
			 how) :
	    pm_xasprintf("A share, proven by knock-out: switching it off on both sides (%s) "
			 "%s; the rest (%.0f%%) is elsewhere.", arg, how, 100 * fmax(0, 1 - est));
	/* of two proven, the one whose interval says it removes more first */
	k = pm_cause_add(c, "knockout", lo > 0.5 ? "proven by knock-out" :
			 "a share, proven by knock-out", lo > 0.5 ? 0.94 + 0.05 * fmin(lo, 1) :
			 lo > 0.25 ? 0.9 : 0.7, s);
	k->title_buf = pm_xstrdup(name);
	k->title = k->title_buf;
	k->proof = pm_xasprintf("switching %s off on both sides (%s) %s", name, arg, how);
	k->mechanism = pm_xstrdup(key);
	k->switched_by = pm_xstrdup(arg);
	moved_evidence(k, cands, arg, c->name);
	fold_mechanism(c, c->ncauses - 1, key);
	free(how);
	free(s);
}

void pm_knockout_causes(struct pm_bench_cmp *c, const json_t *experiment)
{
	const json_t *ko = json_object_get(experiment, "knockouts");
	const json_t *res = json_object_get(ko, "results"), *cands = json_object_get(ko,
										     "candidates");
	const json_t *r;
	size_t i;

	json_array_foreach(res, i, r) {
		const json_t *b = json_object_get(json_object_get(r, "benchmarks"), c->name);
		bool sep = json_is_number(json_object_get(b, "low")) &&
			   json_is_number(json_object_get(b, "high"));
		double lo = jnum(b, "low"), hi = jnum(b, "high");
		struct pm_cause *k;
		char *how;

		if (!b)
			continue;
		if (sep && lo > 0) {
			proven(c, r, b, cands);
			continue;
		}
		how = sep ? removes(c, b) : NULL;
		k = pm_cause_add(c, "knockout", sep && hi < 0.25 ? "ruled out by knock-out" :
				 "not separated by knock-out", 0.15, "");
		free(k->sentence);
		k->sentence = sep ?
			pm_xasprintf("Switching %s off on both sides (%s) %s%s.", jstr(r, "name"),
				     jstr(r, "argument"), how, hi < 0.25 ? ": the change stands" :
				     "") :
			pm_xasprintf("Switching %s off on both sides (%s) did not tell how much "
				     "of %s's change it makes.", jstr(r, "name"),
				     jstr(r, "argument"), c->name);
		free(how);
	}
}

#define SPREAD_LIST 3

/* kernel time and the hotspot are a where: evidence under k */
static void fold_where(struct pm_bench_cmp *c, size_t at)
{
	size_t i = 0;

	while (i < c->ncauses) {
		const char *r = c->causes[i].rule;

		if (i != at && (!strcmp(r, "kernel-time") || !strcmp(r, "kernel-hotspot"))) {
			pm_cause_evidence(&c->causes[at], "%s", c->causes[i].sentence);
			pm_cause_remove(c, i);
			at -= i < at;
			continue;
		}
		i++;
	}
}

bool pm_image_spread_cause(struct pm_bench_cmp *c, const char *how)
{
	const struct pm_mech_delta *top = NULL;
	struct pm_buf list = PM_BUF_INIT;
	double top_share = 0;
	char *s;
	size_t i, n = 0;
	struct pm_cause *k;

	for (i = 0; c->delta_ns && i < c->nmechs && n < SPREAD_LIST; i++) {
		const struct pm_mech_delta *d = &c->mechs[i];
		double share = (d->new_ns - d->old_ns) / c->delta_ns;
		char a[32], b[32];

		if (share <= 0)
			continue;
		pm_fmt_time(a, sizeof(a), d->old_ns);
		pm_fmt_time(b, sizeof(b), d->new_ns);
		pm_buf_sep(&list, ", ");
		pm_buf_addf(&list, "%s %s -> %s per op (%.0f%%)", d->name, a, b, 100 * share);
		if (!n++) {
			top = d;
			top_share = share;
		}
	}
	if (!top) {
		pm_buf_free(&list);
		return false;
	}
	s = pm_xasprintf("The change is spread over the mechanisms whose time moved its way, "
			 "none with 30%% of it: %s; the largest is named here.", pm_buf_str(&list));
	k = pm_cause_add(c, "mechanism", "kernel mechanism", 0.4 + 0.2 * fmin(top_share / 0.5, 1),
			 s);
	k->title_buf = pm_xstrdup(top->name);
	k->title = k->title_buf;
	k->mechanism = pm_xstrdup(top->key);
	pm_cause_evidence(k, "%s", how);
	fold_where(c, c->ncauses - 1);
	pm_buf_free(&list);
	free(s);
	return true;
}
