/*
 * Kernel configurations as evidence.  Two distribution kernels differ in
 * hundreds of options; only those tied to the code whose time moved
 * (the option builds that code's file, or the map names it a switch of
 * that code's mechanism: mechanisms/linux.configs, kernel.mech) can have
 * made the change.  They are listed under the cause about that code,
 * with the code's time per op on each side.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"

/* code that carries less of the change than this is not looked at */
#define CFG_MIN_SHARE 0.1
/* options listed per code, and pieces of code looked at */
#define CFG_MAX_OPTIONS 6
#define CFG_MAX_CODE 3
/* configurations that differ in this many options or fewer (two builds
 * of one tree) have them all listed when none is tied to moved code */
#define CFG_FEW 16

static const char *value_text(const char *v)
{
	return v ? v : "not set";
}

/* The cause about mechanism key, else the one ranked first (the causes
 * are sorted after this pass). */
static struct pm_cause *cause_for(struct pm_bench_cmp *c, const char *key)
{
	struct pm_cause *best = NULL;
	size_t i;

	for (i = 0; i < c->ncauses; i++)
		if (c->causes[i].mechanism && !strcmp(c->causes[i].mechanism, key))
			return &c->causes[i];
	for (i = 0; i < c->ncauses; i++)
		if (strcmp(c->causes[i].rule, "noise") &&
		    (!best || c->causes[i].confidence > best->confidence))
			best = &c->causes[i];
	return best;
}

/* The options that differ and are tied to code d, strongest tie first;
 * the number of them. */
static size_t tied_options(const struct pm_explanation *x, const struct pm_mech_delta *d,
			   const struct pm_switch **out, size_t max)
{
	size_t i, n = 0;
	int level;

	/* named by the map (3), then building its code (2) */
	for (level = 3; level >= 2; level--)
		for (i = 0; i < x->nswitches; i++) {
			const struct pm_switch *sw = &x->switches[i];

			if (sw->kind != PM_SW_CONFIG || pm_switch_ties(sw, d->key, d->file) != level)
				continue;
			if (n < max)
				out[n] = sw;
			n++;
		}
	return n;
}

/* The options tied to code d under the cause about it; how many. */
static size_t list_options(struct pm_bench_cmp *c, const struct pm_explanation *x,
			   const struct pm_mech_delta *d)
{
	const struct pm_switch *sw[CFG_MAX_OPTIONS];
	size_t n = tied_options(x, d, sw, CFG_MAX_OPTIONS), i;
	struct pm_cause *k;
	char a[32], b[32];

	if (!n || !(k = cause_for(c, d->key)))
		return 0;
	pm_fmt_time(a, sizeof(a), d->old_ns);
	pm_fmt_time(b, sizeof(b), d->new_ns);
	for (i = 0; i < n && i < CFG_MAX_OPTIONS; i++)
		pm_cause_evidence(k, "config option %s (%s on OLD, %s on NEW) is tied to %s, "
				  "%s -> %s per op", sw[i]->key, value_text(sw[i]->old),
				  value_text(sw[i]->new), d->name, a, b);
	if (n > CFG_MAX_OPTIONS)
		pm_cause_evidence(k, "and %zu more config options tied to %s", n - CFG_MAX_OPTIONS,
				  d->name);
	return n;
}

/* Two builds that differ in a few options and no code tied to one of
 * them: the few are the suspects, listed under the first cause. */
static void list_few(struct pm_bench_cmp *c, const struct pm_explanation *x, size_t options)
{
	struct pm_cause *k = cause_for(c, "");
	struct pm_buf list = PM_BUF_INIT;
	size_t i;

	if (!k)
		return;
	for (i = 0; i < x->nswitches; i++) {
		const struct pm_switch *sw = &x->switches[i];

		if (sw->kind != PM_SW_CONFIG)
			continue;
		pm_buf_sep(&list, ", ");
		pm_buf_addf(&list, "%s (%s -> %s)", sw->key, value_text(sw->old),
			    value_text(sw->new));
	}
	pm_cause_evidence(k, "the kernel configurations differ in %zu option%s only, none tied "
			  "to the code whose time moved: %s", options, options == 1 ? "" : "s",
			  pm_buf_str(&list));
	pm_buf_free(&list);
}

void pm_config_evidence(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	size_t i, looked = 0, options = 0, tied = 0;

	if (!c->delta_ns)
		return;
	for (i = 0; i < x->nswitches; i++)
		options += x->switches[i].kind == PM_SW_CONFIG;
	if (!options)
		return;
	for (i = 0; i < c->nmechs && looked < CFG_MAX_CODE; i++) {
		const struct pm_mech_delta *d = &c->mechs[i];

		if ((d->new_ns - d->old_ns) / c->delta_ns < CFG_MIN_SHARE)
			continue;
		looked++;
		tied += list_options(c, x, d);
	}
	if (!tied && options <= CFG_FEW)
		list_few(c, x, options);
}
