/*
 * Text-size bloat as evidence.  Between two kernel builds the functions a
 * benchmark spends its kernel time in can grow; their sizes (from each
 * side's vmlinux symbols), weighted by the time spent in them, say how
 * much bigger the hot code is.  That is evidence, not proof: without
 * instruction-cache counters nothing shows the misses, and under QEMU's
 * TCG, which models no caches, a bigger function costs no misses at all.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "explain/stages.h"

/* hot code that grew (or shrank) less than this, weighted, is no evidence */
#define BLOAT_MIN 0.05
#define BLOAT_LIST 3

static bool sized(const struct pm_sym_delta *d)
{
	return d->kernel && d->old_size > 0 && d->new_size > 0 && d->old_ns > 0;
}

/* Were the sides TCG guests (pmbench ab's options.ab.emulated)? */
static bool emulated(const struct pm_explanation *x)
{
	const json_t *ab = x->new->nruns ? json_object_get(x->new->runs[0].options, "ab") : NULL;

	return json_is_true(json_object_get(ab, "emulated"));
}

/* The cause ranked first (the causes are sorted after this pass). */
static struct pm_cause *first_cause(struct pm_bench_cmp *c)
{
	struct pm_cause *best = NULL;
	size_t i;

	for (i = 0; i < c->ncauses; i++)
		if (strcmp(c->causes[i].rule, "noise") &&
		    (!best || c->causes[i].confidence > best->confidence))
			best = &c->causes[i];
	return best;
}

void pm_bloat_evidence(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	double t = 0, grow = 0;
	struct pm_cause *k = first_cause(c);
	size_t i, listed = 0;

	if (!k)
		return;
	for (i = 0; i < c->nsyms; i++)
		if (sized(&c->syms[i]))
			t += c->syms[i].old_ns;
	for (i = 0; t > 0 && i < c->nsyms; i++) {
		const struct pm_sym_delta *d = &c->syms[i];

		if (sized(d))
			grow += d->old_ns / t * (d->new_size / d->old_size - 1);
	}
	/* bigger code for a slowdown, smaller for a speed-up */
	if (!(fabs(grow) >= BLOAT_MIN) || (grow > 0) != (c->delta_ns > 0))
		return;
	pm_cause_evidence(k, "the hot kernel functions of OLD are %.0f%% %s in NEW, weighted by "
			  "the time spent in them%s", 100 * fabs(grow), grow > 0 ? "bigger" :
			  "smaller", emulated(x) ? "; under TCG, which models no caches, that "
			  "is shown, not proven, as a cause" : "; without icache counters that "
			  "is a hypothesis");
	for (i = 0; i < c->nsyms && listed < BLOAT_LIST; i++) {
		const struct pm_sym_delta *d = &c->syms[i];

		if (!sized(d) || fabs(d->new_size / d->old_size - 1) < BLOAT_MIN)
			continue;
		pm_cause_evidence(k, "%s: %.0f -> %.0f bytes (%.0f%% of the kernel time these "
				  "functions took in OLD)", d->name, d->old_size, d->new_size,
				  100 * d->old_ns / t);
		listed++;
	}
}
