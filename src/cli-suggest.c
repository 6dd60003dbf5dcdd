/* "did you mean": the nearest command, benchmark, group or event. */
#include "config.h"

#include <ctype.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cmd.h"
#include "counters/counters.h"
#include "util.h"

/* Optimal string alignment distance (Damerau-Levenshtein with adjacent
 * transpositions), case-insensitive; names are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *d = pm_xcalloc((la + 1) * (lb + 1), sizeof(*d)), r;

#define D(x, y) d[(x) * (lb + 1) + (y)]
	for (i = 0; i <= la; i++)
		D(i, 0) = i;
	for (j = 0; j <= lb; j++)
		D(0, j) = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t v = D(i - 1, j - 1) + cost;

			if (D(i - 1, j) + 1 < v)
				v = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < v)
				v = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < v)
				v = D(i - 2, j - 2) + 1;
			D(i, j) = v;
		}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

const char *pm_did_you_mean(const char *word, const char *const *cands, size_t n)
{
	/* two edits, one for a word of three letters or fewer */
	size_t best = strlen(word) <= 3 ? 1 : 2, i, d;
	const char *pick = NULL;
	bool tie = false;

	for (i = 0; i < n; i++) {
		if (!cands[i] || !*cands[i])
			continue;
		d = edit_distance(word, cands[i]);
		if (d < best || (d == best && !pick)) {
			tie = d == best && pick && strcmp(pick, cands[i]);
			best = d;
			pick = cands[i];
		} else if (d == best && pick && strcmp(pick, cands[i])) {
			tie = true;
		}
	}
	return tie ? NULL : pick;
}

/* The benchmark or group (the registry's, "quick" and "all" too) nearest
 * to word, NULL when none is near. */
const char *pm_suggest_bench(const char *word)
{
	const struct pm_bench *b;
	const char **v = NULL, *g;
	const char *pick;
	size_t n = 0, i;

	for (i = 0; (b = pm_bench_at(i)); i++) {
		v = pm_xgrow(v, n, sizeof(*v));
		v[n++] = b->name;
	}
	for (i = 0; (g = pm_group_at(i)); i++) {
		v = pm_xgrow(v, n, sizeof(*v));
		v[n++] = g;
	}
	pick = pm_did_you_mean(word, v, n);
	free(v);
	return pick;
}

void pm_error_unknown_bench(const char *word)
{
	const char *hint = pm_suggest_bench(word);

	if (hint)
		pm_error("unknown benchmark or group '%s'; did you mean '%s'? (see 'pmbench list')",
			 word, hint);
	else
		pm_error("unknown benchmark or group '%s' (see 'pmbench list')", word);
}

const char *pm_suggest_event(const char *const *names, const struct pm_aliases *a,
			     const char **which)
{
	const char **v = pm_xcalloc(a->n + 1, sizeof(*v)), *pick = NULL;
	size_t i;

	for (i = 0; i < a->n; i++)
		v[i] = a->v[i].name;
	for (i = 0; names && names[i] && !pick; i++)
		if (!pm_alias_find(a, names[i]) && (pick = pm_did_you_mean(names[i], v, a->n)))
			*which = names[i];
	free(v);
	return pick;
}
