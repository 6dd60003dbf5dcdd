/*
 * Causes proven by experiment.  pmbench ab records in both sides' result
 * files what it set differently (options.ab.experiment, pmbench-result(5)):
 * with one difference the A/B run itself shows that difference caused a
 * change that stands; with several, ab's boots with one difference taken
 * back at a time say how much of the change each removes.
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

static const struct pm_switch *switch_of(const struct pm_explanation *x, const json_t *d)
{
	const char *param = jstr(d, "param");
	size_t i;

	for (i = 0; param && i < x->nswitches; i++)
		if (x->switches[i].kind == PM_SW_PARAM && !strcmp(x->switches[i].key, param))
			return &x->switches[i];
	return NULL;
}

/* Is cause k about a mechanism that difference d switches? */
static bool ties(const struct pm_bench_cmp *c, const struct pm_cause *k,
		 const struct pm_switch *sw)
{
	size_t i, j;

	if (!sw)
		return false;
	for (i = 0; i < pm_rule_count(); i++) {
		const struct pm_rule_info *r = pm_rule_at(i);
		char **v;
		bool hit = false;

		if (strcmp(r->id, k->rule) || !r->mechs)
			continue;
		v = pm_strv_split(r->mechs, ' ');
		for (j = 0; v && v[j]; j++)
			hit |= pm_switch_ties(sw, v[j], NULL) > 0;
		pm_strv_free(v);
		if (hit)
			return true;
	}
	/* a mechanism cause: the mechanism that carries the change */
	for (i = 0; i < c->nmechs; i++) {
		const struct pm_mech_delta *d = &c->mechs[i];

		if ((d->new_ns - d->old_ns > 0) == (c->delta_ns > 0))
			return !strcmp(k->rule, "mechanism") &&
			       pm_switch_ties(sw, d->key, d->file) > 0;
	}
	return false;
}

static void prove(struct pm_cause *k, const char *how)
{
	char *s = pm_xasprintf("Proven by experiment: %s %s", how, k->sentence);

	free(k->sentence);
	k->sentence = s;
	free(k->proof);
	k->proof = pm_xstrdup(how);
	k->confidence = 0.97;
}

/* Code m runs on one side only, and its time moved the change's way:
 * what the difference switched on or off. */
static bool switched(const struct pm_bench_cmp *c, const struct pm_mech_delta *m)
{
	return (m->started || m->stopped) && (m->new_ns > m->old_ns) == (c->delta_ns > 0);
}

/* Does code_evidence name mechanism key (switched, or the code that
 * moved most)? */
static bool code_named(const struct pm_bench_cmp *c, const char *key)
{
	size_t i;

	for (i = 0; key && i < c->nmechs; i++) {
		const struct pm_mech_delta *m = &c->mechs[i];

		if (m->key && !strcmp(m->key, key) && (i == 0 || switched(c, m)))
			return true;
	}
	return false;
}

/*
 * Beside the proven cause, a mechanism cause that says no difference is
 * tied to its code, and noise beside a change the pairs decided, would
 * contradict it: their sentences become its evidence, or go when the
 * code evidence names that mechanism already.  The proven cause is the
 * last one (it was just added).
 */
static void fold_untied(struct pm_bench_cmp *c)
{
	size_t i = 0;

	while (i + 1 < c->ncauses) {
		struct pm_cause *k = &c->causes[i];
		bool mech = !strcmp(k->rule, "mechanism") && !k->switched_by;

		if (mech || !strcmp(k->rule, "noise")) {
			if (!(mech && code_named(c, k->mechanism)))
				pm_cause_evidence(&c->causes[c->ncauses - 1], "%s", k->sentence);
			pm_cause_remove(c, i);
			continue;
		}
		i++;
	}
}

/* Under the proven cause k: code that runs on one side only, which is
 * what the difference (text) switched on or off, and so k's mechanism;
 * then what moved most. */
static void code_evidence(const struct pm_bench_cmp *c, struct pm_cause *k, const char *text)
{
	size_t i;

	for (i = 0; i < c->nmechs; i++) {
		const struct pm_mech_delta *m = &c->mechs[i];
		char a[32], b[32];

		if (!switched(c, m))
			continue;
		pm_fmt_time(a, sizeof(a), m->old_ns);
		pm_fmt_time(b, sizeof(b), m->new_ns);
		pm_cause_evidence(k, "the code it switched %s: %s, %s -> %s per op",
				  m->started ? "on" : "off", m->name, a, b);
		if (!k->mechanism && m->key) {
			k->mechanism = pm_xstrdup(m->key);
			free(k->switched_by);
			k->switched_by = text ? pm_xstrdup(text) : NULL;
		}
	}
	/* what moved most, unless it is the code named just above */
	if (c->nmechs && !switched(c, &c->mechs[0])) {
		const struct pm_mech_delta *m = &c->mechs[0];
		char a[32], b[32];

		pm_fmt_time(a, sizeof(a), m->old_ns);
		pm_fmt_time(b, sizeof(b), m->new_ns);
		pm_cause_evidence(k, "the code whose time moved most: %s, %s -> %s per op",
				  m->name, a, b);
	}
}

/*
 * Causes the proven one (the last) accounts for: those about a mechanism
 * difference sw switches become its evidence.
 */
static void fold_tied(struct pm_bench_cmp *c, const struct pm_switch *sw)
{
	size_t i = 0;

	while (i + 1 < c->ncauses) {
		struct pm_cause *k = &c->causes[i];

		if (strcmp(k->rule, "noise") && strcmp(k->rule, "user-code") &&
		    strcmp(k->rule, "experiment") && ties(c, k, sw)) {
			struct pm_cause *p = &c->causes[c->ncauses - 1];

			pm_cause_evidence(p, "%s", k->sentence);
			/* its mechanism, and what switches it, are the proven one's */
			if (!p->mechanism && k->mechanism) {
				p->mechanism = k->mechanism;
				k->mechanism = NULL;
				free(p->switched_by);
				p->switched_by = k->switched_by;
				k->switched_by = NULL;
			}
			pm_cause_remove(c, i);
			continue;
		}
		i++;
	}
}

/* One difference: it caused the change. */
static void one_difference(struct pm_bench_cmp *c, const struct pm_explanation *x,
			   const json_t *d)
{
	const struct pm_switch *sw = switch_of(x, d);
	const char *text = jstr(d, "text");
	char *how = pm_xasprintf("%s is the only difference between the sides (pmbench ab "
				 "%s them alike otherwise), so it caused this change.",
				 text ? text : "one difference",
				 pm_side_local(x->new) ? "ran" : "booted");
	bool image = !strcmp(jstr(d, "kind") ? jstr(d, "kind") : "", "image");
	size_t i;

	for (i = 0; i < c->ncauses; i++) {
		struct pm_cause *k = &c->causes[i];

		if (!strcmp(k->rule, "noise") || !strcmp(k->rule, "user-code"))
			continue;
		/* every upgrade's image is its only difference: that names no
		 * cause, the code that moved does (and a knock-out proves it) */
		if (image && !strcmp(k->rule, "mechanism")) {
			pm_cause_evidence(k, "%s", how);
			free(how);
			return;
		}
		if (!image && ties(c, k, sw)) {
			prove(k, how);
			free(how);
			return;
		}
	}
	if (image && pm_image_spread_cause(c, how)) {
		/* the mechanisms it moved, none by 30%: the largest named */
	} else if (image) {
		struct pm_cause *k = pm_cause_add(c, "experiment", "the kernel image", 0.5, how);

		code_evidence(c, k, text);
	} else {
		struct pm_cause *k = pm_cause_add(c, "experiment", "proven by experiment", 0.95, how);

		k->proof = pm_xstrdup(how);
		code_evidence(c, k, text);
		fold_untied(c);
	}
	free(how);
}

/* Several differences, each taken back in boots of its own. */
static void reversals(struct pm_bench_cmp *c, const struct pm_explanation *x,
		      const json_t *e, const char *unit)
{
	const json_t *res = json_object_get(json_object_get(e, "confirm"), "results"), *r;
	const json_t *best = NULL, *best_b = NULL;
	size_t i;

	json_array_foreach(res, i, r) {
		const json_t *b = json_object_get(json_object_get(r, "benchmarks"), c->name);
		double est = json_number_value(json_object_get(b, "removed"));
		double lo = json_number_value(json_object_get(b, "low"));
		double hi = json_number_value(json_object_get(b, "high"));

		if (!b)
			continue;
		if (!json_is_number(json_object_get(b, "low")) || hi < 0.25) {
			bool sep = json_is_number(json_object_get(b, "low"));
			struct pm_cause *k = pm_cause_add(
				c, "experiment",
				sep ? "ruled out by experiment" : "not separated by experiment", 0.15, "");

			free(k->sentence);
			k->sentence = sep ?
				pm_xasprintf("Taking %s away removes %.0f%% (%.0f%% CI "
					     "%.0f%% .. %.0f%%) of %s's change.", jstr(r, "text"),
					     100 * est, 100 * json_number_value(json_object_get(b, "level")),
					     100 * lo, 100 * hi, c->name) :
				pm_xasprintf("The %s without %s did not tell how "
					     "much of %s's change it makes.", unit, jstr(r, "text"), c->name);
			continue;
		}
		if (lo > 0.5 && (!best || est > json_number_value(json_object_get(best_b,
										 "removed")))) {
			best = r;
			best_b = b;
		}
	}
	if (best) {
		char *s = pm_xasprintf(
			"%s: taking it away removes %.0f%% (%.0f%% CI %.0f%% .. %.0f%%) of %s's "
			"change (%d %s).", jstr(best, "text"),
			100 * json_number_value(json_object_get(best_b, "removed")),
			100 * json_number_value(json_object_get(best_b, "level")),
			100 * json_number_value(json_object_get(best_b, "low")),
			100 * json_number_value(json_object_get(best_b, "high")), c->name,
			(int)json_integer_value(json_object_get(best_b, "boots")), unit);
		const json_t *d = json_array_get(json_object_get(e, "differences"),
						 (size_t)json_integer_value(json_object_get(best,
											    "difference")));
		struct pm_cause *k = pm_cause_add(c, "experiment", "proven by experiment", 0.96, s);

		/* the title says it is proven: the sentence says how */
		k->proof = s;
		/* the code it switched, and what it accounts for */
		code_evidence(c, k, jstr(best, "text"));
		fold_tied(c, switch_of(x, d));
		fold_untied(c);
	}
	/* neither the cause nor ruled out: a share, or not told apart */
	json_array_foreach(res, i, r) {
		const json_t *b = json_object_get(json_object_get(r, "benchmarks"), c->name);
		double lo = json_number_value(json_object_get(b, "low"));
		double hi = json_number_value(json_object_get(b, "high"));
		struct pm_cause *k;

		if (!b || r == best || !json_is_number(json_object_get(b, "low")) || hi < 0.25)
			continue;
		k = pm_cause_add(c, "experiment", lo > 0 ? "a share, by experiment" :
				 "not separated by experiment", lo > 0 ? 0.5 : 0.15, "");
		free(k->sentence);
		k->sentence = pm_xasprintf("Taking %s away removes %.0f%% (%.0f%% CI %.0f%% .. "
					   "%.0f%%) of %s's change.", jstr(r, "text"),
					   100 * json_number_value(json_object_get(b, "removed")),
					   100 * json_number_value(json_object_get(b, "level")),
					   100 * lo, 100 * hi, c->name);
	}
}

void pm_experiment_causes(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	const json_t *e = pm_sides_experiment(x->old, x->new, true), *d = json_object_get(e, "differences");

	if (!e || !pm_verdict_changed(c->verdict))
		return;
	if (json_array_size(d) == 1)
		one_difference(c, x, json_array_get(d, 0));
	else if (json_array_size(d) > 1)
		reversals(c, x, e, pm_side_local(x->new) ? "runs" : "boots");
	pm_knockout_causes(c, e);
}
