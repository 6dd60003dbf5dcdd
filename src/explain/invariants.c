/*
 * What every explanation guarantees (pmbench-explain(1), GUARANTEES),
 * checked on the explanation and on its text as printed: the numbers
 * under a verdict never contradict each other or the words beside them.
 */
#include "config.h"

#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"

static const struct pm_invariant_info invariants[] = {
	{ "parts", "no part of a side (kernel or user time, a mechanism, a symbol, the sum "
		   "of its mechanisms or of its symbols) exceeds that side's figure" },
	{ "estimate", "OLD -> NEW are the figures the verdict judged: their ratio is its "
		      "estimate, and the estimate lies inside its interval" },
	{ "shares", "a share of a change is between 0 and 100% of it; a part beyond the "
		    "change or against it says so" },
	{ "words", "code said to be switched on, new or to run in NEW only takes at most a "
		   "fifth of its NEW time in OLD (and the mirror for OLD); more or less time "
		   "goes with the sign" },
	{ "sides", "a kind of evidence said missing on both (or either) sides is missing on "
		   "both" },
	{ "pairing", "pairs said taken in turn were taken in turn, pairs said taken at once "
		     "were taken at once" },
	{ "decisions", "a verdict pmbench ab stopped on is the report's verdict" },
	{ "local", "a report of runs on this host (ab --local) never speaks of boots" },
	{ "summary", "an undecided benchmark's summary gives the estimate the rule judged" },
	{ "contention", "a change put on contention or noise is within the bound printed "
			"beside it" },
};

size_t pm_invariant_count(void)
{
	return PM_ARRAY_SIZE(invariants);
}

const struct pm_invariant_info *pm_invariant_at(size_t i)
{
	return i < PM_ARRAY_SIZE(invariants) ? &invariants[i] : NULL;
}

static void broken(struct pm_violations *out, const char *id, const char *bench,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void broken(struct pm_violations *out, const char *id, const char *bench,
		   const char *fmt, ...)
{
	struct pm_violation *v;
	va_list ap;

	out->v = pm_xgrow(out->v, out->n, sizeof(*out->v));
	v = &out->v[out->n++];
	v->invariant = id;
	v->bench = pm_xstrdup(bench ? bench : "");
	va_start(ap, fmt);
	v->what = pm_xvasprintf(fmt, ap);
	va_end(ap);
}

void pm_violations_free(struct pm_violations *v)
{
	for (size_t i = 0; i < v->n; i++) {
		free(v->v[i].bench);
		free(v->v[i].what);
	}
	free(v->v);
	memset(v, 0, sizeof(*v));
}

/* ---- on the explanation ---- */

/* a rounding's worth: parts are sums of shares that were printed to six
 * digits in the file */
#define SLACK 1.005

static void part_le(struct pm_violations *out, const struct pm_bench_cmp *c,
		    const char *what, double part, double whole, const char *side)
{
	if (part > 0 && whole > 0 && part > SLACK * whole)
		broken(out, "parts", c->name, "%s %.4g ns on %s exceeds its figure %.4g ns", what,
		       part, side, whole);
}

static void check_parts(const struct pm_bench_cmp *c, struct pm_violations *out)
{
	double so = 0, sn = 0, mo = 0, mn = 0;
	size_t i;

	if (c->measured || !(c->med_old > 0) || !(c->med_new > 0))
		return;
	part_le(out, c, "kernel time", c->kernel_ns.old, c->med_old, "OLD");
	part_le(out, c, "kernel time", c->kernel_ns.new, c->med_new, "NEW");
	part_le(out, c, "user time", c->user_ns.old, c->med_old, "OLD");
	part_le(out, c, "user time", c->user_ns.new, c->med_new, "NEW");
	part_le(out, c, "kernel and user time", c->kernel_ns.old + c->user_ns.old, c->med_old,
		"OLD");
	part_le(out, c, "kernel and user time", c->kernel_ns.new + c->user_ns.new, c->med_new,
		"NEW");
	for (i = 0; i < c->nmechs; i++) {
		part_le(out, c, c->mechs[i].name, c->mechs[i].old_ns, c->med_old, "OLD");
		part_le(out, c, c->mechs[i].name, c->mechs[i].new_ns, c->med_new, "NEW");
		mo += c->mechs[i].old_ns;
		mn += c->mechs[i].new_ns;
	}
	part_le(out, c, "its mechanisms together", mo, c->med_old, "OLD");
	part_le(out, c, "its mechanisms together", mn, c->med_new, "NEW");
	for (i = 0; i < c->nsyms; i++) {
		part_le(out, c, c->syms[i].name, c->syms[i].old_ns, c->med_old, "OLD");
		part_le(out, c, c->syms[i].name, c->syms[i].new_ns, c->med_new, "NEW");
		so += c->syms[i].old_ns;
		sn += c->syms[i].new_ns;
	}
	part_le(out, c, "its symbols together", so, c->med_old, "OLD");
	part_le(out, c, "its symbols together", sn, c->med_new, "NEW");
}

static void check_estimate(const struct pm_bench_cmp *c, struct pm_violations *out)
{
	if (c->measured || !(c->med_old > 0) || !(c->med_new > 0) || !(c->ratio > 0))
		return;
	if (fabs(c->med_new / c->med_old / c->ratio - 1) > 1e-6)
		broken(out, "estimate", c->name, "the figures judged (%.6g -> %.6g ns) are not "
		       "the estimate x%.6g", c->med_old, c->med_new, c->ratio);
	if (isfinite(c->ci_low) && isfinite(c->ci_high) &&
	    (c->ratio < c->ci_low * (1 - 1e-9) || c->ratio > c->ci_high * (1 + 1e-9)))
		broken(out, "estimate", c->name, "the estimate x%.6g lies outside its interval "
		       "x%.6g .. x%.6g", c->ratio, c->ci_low, c->ci_high);
}

static const json_t *experiment(const struct pm_side *s)
{
	return s->nruns ? json_object_get(json_object_get(s->runs[0].options, "ab"),
					  "experiment") : NULL;
}

/* verdict words of pmbench ab's "decided" (cmd-ab.c) */
static enum pm_verdict ab_verdict(const char *w)
{
	return !strcmp(w, "regression") ? PM_REGRESSION :
	       !strcmp(w, "improvement") ? PM_IMPROVEMENT :
	       !strcmp(w, "same") ? PM_NO_CHANGE :
	       !strcmp(w, "changed") ? PM_CHANGED : PM_INCONCLUSIVE;
}

static void check_pairing(const struct pm_explanation *x, const struct pm_bench_cmp *c,
			  struct pm_violations *out)
{
	const json_t *e = experiment(x->new), *d;
	const char *pairing = json_string_value(json_object_get(e, "pairing"));
	const char *id = json_string_value(json_object_get(e, "id"));
	const char *oid = json_string_value(json_object_get(experiment(x->old), "id"));

	if (!c->paired || !pairing || !id || !oid || strcmp(id, oid))
		return;
	if (c->at_once != !strcmp(pairing, "duet"))
		broken(out, "pairing", c->name, "the pairs are said taken %s, pmbench ab took "
		       "them %s", c->at_once ? "at once" : "in turn", pairing);
	d = json_object_get(json_object_get(e, "decided"), c->name);
	if (c->sequential && json_is_true(json_object_get(d, "decided")) &&
	    ab_verdict(json_string_value(json_object_get(d, "verdict")) ?
		       json_string_value(json_object_get(d, "verdict")) : "") != c->verdict)
		broken(out, "decisions", c->name, "pmbench ab stopped on %s after %lld pairs, "
		       "the report says %s", json_string_value(json_object_get(d, "verdict")),
		       (long long)json_integer_value(json_object_get(d, "pairs")),
		       pm_verdict_name(c->verdict));
}

/* ---- on the text ---- */

/* "82.2 us" -> 82200 (ns); NAN when not a time */
static double time_ns(const char *num, const char *unit)
{
	double v = strtod(num, NULL);

	return !strcmp(unit, "ns") ? v : !strcmp(unit, "us") ? v * 1e3 :
	       !strcmp(unit, "ms") ? v * 1e6 : !strcmp(unit, "s") ? v * 1e9 : NAN;
}

static bool match(const char *re, const char *s, regmatch_t *m, size_t nm)
{
	regex_t r;
	bool ok;

	if (regcomp(&r, re, REG_EXTENDED))
		return false;
	ok = regexec(&r, s, nm, m, 0) == 0;
	regfree(&r);
	return ok;
}

static char *group(const char *s, const regmatch_t *m)
{
	return pm_xasprintf("%.*s", (int)(m->rm_eo - m->rm_so), s + m->rm_so);
}

#define TIME "([0-9.]+) (ns|us|ms|s)"

/* "A -> B per op" of a line, in ns; false without one */
static bool line_times(const char *line, double *a, double *b)
{
	regmatch_t m[5];
	char *g[4];
	int i;

	if (!match(TIME " -> " TIME " per op", line, m, 5))
		return false;
	for (i = 0; i < 4; i++)
		g[i] = group(line, &m[i + 1]);
	*a = time_ns(g[0], g[1]);
	*b = time_ns(g[2], g[3]);
	for (i = 0; i < 4; i++)
		free(g[i]);
	return true;
}

static void check_words(const char *bench, const char *line, struct pm_violations *out)
{
	bool on = strstr(line, "switched on") || strstr(line, "runs in NEW only") ||
		  strstr(line, "which OLD does not");
	bool off = strstr(line, "switched off") || strstr(line, "runs in OLD only") ||
		   strstr(line, "which NEW does not");
	bool more = strstr(line, "takes more time in NEW") != NULL;
	bool less = strstr(line, "takes less time in NEW") != NULL;
	double a, b;

	if (!(on || off || more || less) || !line_times(line, &a, &b))
		return;
	if ((on && a > 0.2 * b) || (off && b > 0.2 * a) || (more && b <= a) || (less && b >= a))
		broken(out, "words", bench, "\"%s\" with %.4g -> %.4g ns per op",
		       on ? "on NEW only" : off ? "on OLD only" : more ? "more time" : "less time",
		       a, b);
}

static void check_shares(const char *bench, const char *line, struct pm_violations *out)
{
	regmatch_t m[2];
	const char *p = line;

	while (match("(-?[0-9.]+)% of [^ ,;)]*'?s? ?change", p, m, 2)) {
		char *g = group(p, &m[1]);
		double v = strtod(g, NULL);

		if (v < 0 || v > 100.5)
			broken(out, "shares", bench, "%s%% of a change", g);
		free(g);
		p += m[0].rm_eo;
	}
}

static const struct pm_bench_cmp *find_cmp(const struct pm_explanation *x, const char *name)
{
	for (size_t i = 0; i < x->ncmp; i++)
		if (!strcmp(x->cmp[i].name, name))
			return &x->cmp[i];
	return NULL;
}

/* "inconclusive (3): null +14.0%, ctx +12.9%": each percent is the estimate */
static void check_summary(const struct pm_explanation *x, const char *line,
			  struct pm_violations *out)
{
	regmatch_t m[3];
	const char *p;

	if (!match("^(inconclusive|no change|parameter changed) \\([0-9]+\\): ", line, m, 1))
		return;
	p = line + m[0].rm_eo;
	while (match("([a-z0-9][a-z0-9-]*) ([-+][0-9.]+)%", p, m, 3)) {
		char *name = group(p, &m[1]), *pct = group(p, &m[2]);
		const struct pm_bench_cmp *c = find_cmp(x, name);

		if (c && !c->measured && c->ratio > 0 &&
		    fabs(strtod(pct, NULL) - 100 * (c->ratio - 1)) > 0.051)
			broken(out, "summary", name, "the summary says %s%%, the estimate judged is "
			       "%+.1f%%", pct, 100 * (c->ratio - 1));
		free(name);
		free(pct);
		p += m[0].rm_eo;
	}
}

/* "... which alone could make it x3.52": the change must be within it */
static void check_contention(const struct pm_bench_cmp *c, const char *line,
			     struct pm_violations *out)
{
	regmatch_t m[2];
	char *g;
	double bound;

	if (!c || !(c->ratio > 0) || !match("could make it x([0-9.]+)", line, m, 2))
		return;
	g = group(line, &m[1]);
	bound = strtod(g, NULL);
	free(g);
	/* the change at its interval's end nearest no change */
	{
		double inner = c->ratio > 1 ? c->ci_low : c->ci_high;

		if (!isfinite(inner))
			inner = c->ratio;
		if (bound > 0 && fabs(log(inner)) > fabs(log(bound)) * 1.001)
			broken(out, "contention", c->name, "a change of x%.3g (interval nearest "
			       "no change x%.3g) put on what could make it x%.3g", c->ratio,
			       inner, bound);
	}
}

static void check_sides_line(const struct pm_explanation *x, const char *line,
			     struct pm_violations *out)
{
	bool hot_old = true, hot_new = true;
	size_t i;

	if (!strstr(line, "no sampled hotspots on "))
		return;
	for (i = 0; i < x->ncmp; i++) {
		if (!pm_verdict_changed(x->cmp[i].verdict))
			continue;
		hot_old = hot_old && x->cmp[i].hot_old;
		hot_new = hot_new && x->cmp[i].hot_new;
	}
	if ((strstr(line, "on both sides") || strstr(line, "on either side")) &&
	    (hot_old || hot_new))
		broken(out, "sides", NULL, "hotspots said missing on both sides, but %s has them",
		       hot_old ? "OLD" : "NEW");
}

static void check_text(const struct pm_explanation *x, const char *text,
		       struct pm_violations *out)
{
	char *copy = pm_xstrdup(text), *line, *save = NULL;
	const struct pm_bench_cmp *cur = NULL;
	bool local = pm_side_local(x->new);

	for (line = strtok_r(copy, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		regmatch_t m[2];

		/* a benchmark's block: "name  VERDICT  ..." */
		if (match("^([a-z0-9][a-z0-9-]*)  [A-Z]", line, m, 2) ||
		    match("^  ([a-z0-9][a-z0-9-]*): ", line, m, 2)) {
			char *name = group(line, &m[1]);

			cur = find_cmp(x, name);
			free(name);
		} else if (line[0] != ' ') {
			cur = NULL;
		}
		if (local && match("\\b(boot|boots|booted)\\b", line, m, 1))
			broken(out, "local", cur ? cur->name : NULL, "a report of ab --local runs "
			       "speaks of boots: \"%.80s\"", line);
		check_words(cur ? cur->name : NULL, line, out);
		check_shares(cur ? cur->name : NULL, line, out);
		check_summary(x, line, out);
		check_contention(cur, line, out);
		check_sides_line(x, line, out);
	}
	free(copy);
}

void pm_explain_check(const struct pm_explanation *x, const char *text,
		      struct pm_violations *out)
{
	size_t i;

	for (i = 0; i < x->ncmp; i++) {
		check_parts(&x->cmp[i], out);
		check_estimate(&x->cmp[i], out);
		check_pairing(x, &x->cmp[i], out);
	}
	if (text)
		check_text(x, text, out);
}
