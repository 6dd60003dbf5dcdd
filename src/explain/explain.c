/* explain: the pipeline from two sides to ranked causes. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"

void pm_explain_opts_default(struct pm_explain_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->noise_floor = 0.03;
	o->single_run_margin = 0.06;
	o->one_round_margin = 0.10;
	o->level = PM_LEVEL;
}

/* Benchmark names with a usable figure on a side, in first-seen order. */
static void side_names(const struct pm_side *s, char ***v, size_t *n)
{
	size_t r, i;

	for (r = 0; r < s->nruns; r++)
		for (i = 0; i < s->runs[r].nbench; i++) {
			const struct pm_bench_result *b = &s->runs[r].bench[i];

			if (b->status == PM_BENCH_OK && b->ntrials &&
			    !pm_strv_has(*v, *n, b->name))
				pm_strv_push(v, n, b->name);
		}
}

static void note(struct pm_explanation *x, char *msg)
{
	x->unavailable = pm_xgrow(x->unavailable, x->nunavailable, sizeof(char *));
	x->unavailable[x->nunavailable++] = msg;
}

/* Which side lacks something: "OLD", "NEW", or both ("either side"). */
static const char *lacking(bool old_has, bool new_has)
{
	return !old_has && !new_has ? "either side" : !old_has ? "OLD" : "NEW";
}

/* What evidence was missing, and what that weakens. */
static void missing_evidence(struct pm_explanation *x)
{
	size_t i, counters = 0, hot = 0, ksyms = 0, changed = 0;
	bool ctr_old = true, ctr_new = true, hot_old = true, hot_new = true;

	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (!pm_verdict_changed(c->verdict))
			continue;
		changed++;
		counters += c->have_counters;
		hot += c->have_hotspots;
		ksyms += c->have_kernel_syms;
		ctr_old = ctr_old && !isnan(c->instructions.old) && !isnan(c->cycles.old);
		ctr_new = ctr_new && !isnan(c->instructions.new) && !isnan(c->cycles.new);
		hot_old = hot_old && c->hot_old;
		hot_new = hot_new && c->hot_new;
	}
	if (pm_side_imported(x->old) || pm_side_imported(x->new))
		note(x, pm_xasprintf("%s is imported from a text report: figures only, with "
				     "no counters, hotspots or fingerprint beyond the OS "
				     "string and Mhz the report prints; what changed is the "
				     "figure, and the only causes named are noise and the "
				     "CPU clock",
				     pm_side_imported(x->old) && pm_side_imported(x->new) ? "each side" :
				     pm_side_imported(x->old) ? "OLD" : "NEW"));
	if (!changed)
		return;
	if (counters < changed && pm_emulated_count(x) + counters >= changed)
		/* pmbench ab under TCG: the plugin's counts stand in, as what they are */
		note(x, pm_xasprintf("no hardware counters on %s (no PMU): instructions per "
				     "op are the exact counts of QEMU's emulated CPU (see \"Emulated "
				     "counts\"), which tell a longer path from the same path running "
				     "slower; IPC and real icache/iTLB misses are unavailable",
				     lacking(ctr_old, ctr_new)));
	else if (counters < changed)
		note(x, pm_xasprintf("no hardware counters on %s (no PMU, or not "
				     "supported): instructions per op, IPC and icache/iTLB misses "
				     "are unavailable, so a longer code path cannot be told from "
				     "the same code running slower, and icache bloat stays a "
				     "hypothesis", lacking(ctr_old, ctr_new)));
	if (hot < changed)
		note(x, pm_xasprintf("no sampled hotspots on %s (--no-profile, or "
				     "imported): the change cannot be placed in kernel or user "
				     "symbols", lacking(hot_old, hot_new)));
	else if (ksyms < changed)
		note(x, pm_xstrdup("no kernel symbols on a side (kernel addresses hidden: "
				   "perf_event_paranoid/kptr_restrict): rules that need kernel "
				   "hotspots (page tables, entry code, syscall hooks) rely on "
				   "the fingerprint alone"));
}

static int cmp_cause(const void *a, const void *b)
{
	const struct pm_cause *x = a, *y = b;

	return x->confidence < y->confidence ? 1 : x->confidence > y->confidence ? -1 : 0;
}

void pm_apply_rules(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	bool changed = pm_verdict_changed(c->verdict);

	if (!changed && c->verdict != PM_INCONCLUSIVE)
		return;
	pm_rule_causes(c, x);
	pm_emulated_causes(c, x);
	/* a decided difference in what runs names its mechanism also while
	 * the time's verdict waits */
	if (changed || c->nfacts)
		pm_mechanism_causes(c, x);
	if (changed) {
		pm_experiment_causes(c, x);
		pm_config_evidence(c, x);
		pm_bloat_evidence(c, x);
	}
	pm_sort(c->causes, c->ncauses, sizeof(*c->causes), cmp_cause);
}

int pm_explain(struct pm_explanation *x, struct pm_side *old,
	       struct pm_side *new, const struct pm_explain_opts *o,
	       struct pm_err *e)
{
	char **a = NULL, **b = NULL;
	size_t na = 0, nb = 0, i;

	memset(x, 0, sizeof(*x));
	x->old = old;
	x->new = new;
	x->opts = *o;
	side_names(old, &a, &na);
	side_names(new, &b, &nb);
	if (o->only && (!pm_strv_has(a, na, o->only) || !pm_strv_has(b, nb, o->only))) {
		int err = pm_err_set(e, -EINVAL, "benchmark '%s' is not in both %s and %s",
				     o->only, old->name, new->name);

		for (i = 0; i < na; i++)
			free(a[i]);
		for (i = 0; i < nb; i++)
			free(b[i]);
		free(a);
		free(b);
		return err;
	}
	pm_fingerprint_diff(x);
	pm_find_switches(x);
	for (i = 0; i < na; i++) {
		if (!pm_strv_has(b, nb, a[i])) {
			pm_strv_push(&x->only_old, &x->nonly_old, a[i]);
			continue;
		}
		if (o->only && strcmp(o->only, a[i]))
			continue;
		x->cmp = pm_xgrow(x->cmp, x->ncmp, sizeof(*x->cmp));
		memset(&x->cmp[x->ncmp], 0, sizeof(*x->cmp));
		pm_compare_bench(&x->cmp[x->ncmp++], old, new, a[i], o);
	}
	for (i = 0; i < nb; i++)
		if (!pm_strv_has(a, na, b[i]))
			pm_strv_push(&x->only_new, &x->nonly_new, b[i]);
	for (i = 0; i < na; i++)
		free(a[i]);
	for (i = 0; i < nb; i++)
		free(b[i]);
	free(a);
	free(b);
	pm_suite_shift(x);
	for (i = 0; i < x->ncmp; i++) {
		pm_gather_evidence(&x->cmp[i], old, new);
		pm_emulated_compare(&x->cmp[i], old, new, o);
		pm_attribute_mechanisms(&x->cmp[i], x);
		pm_decided_facts(&x->cmp[i], x);
		pm_adjust_for_machine(&x->cmp[i], x);
		pm_apply_rules(&x->cmp[i], x);
	}
	missing_evidence(x);
	return 0;
}

void pm_explanation_free(struct pm_explanation *x)
{
	size_t i, j, k;

	for (i = 0; i < x->ncmp; i++) {
		struct pm_bench_cmp *c = &x->cmp[i];

		free(c->name);
		free(c->settle);
		free(c->machine_note);
		for (j = 0; j < c->nsyms; j++) {
			free(c->syms[j].name);
			free(c->syms[j].object);
		}
		free(c->syms);
		pm_mech_deltas_free(c);
		pm_emulated_free(c);
		for (j = 0; j < c->ncauses; j++) {
			free(c->causes[j].sentence);
			free(c->causes[j].title_buf);
			free(c->causes[j].proof);
			free(c->causes[j].mechanism);
			free(c->causes[j].switched_by);
			for (k = 0; k < c->causes[j].nevidence; k++)
				free(c->causes[j].evidence[k]);
			free(c->causes[j].evidence);
		}
		free(c->causes);
	}
	free(x->cmp);
	for (i = 0; i < x->nonly_old; i++)
		free(x->only_old[i]);
	for (i = 0; i < x->nonly_new; i++)
		free(x->only_new[i]);
	free(x->only_old);
	free(x->only_new);
	for (i = 0; i < x->ndiffs; i++) {
		free(x->diffs[i].key);
		free(x->diffs[i].old);
		free(x->diffs[i].new);
	}
	free(x->diffs);
	pm_switches_free(x);
	for (i = 0; i < x->nunavailable; i++)
		free(x->unavailable[i]);
	free(x->unavailable);
	memset(x, 0, sizeof(*x));
}
