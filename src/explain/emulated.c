/*
 * Emulated counts as evidence (explain.h, struct pm_emu_cmp): what the TCG
 * plugin of pmbench ab counted in each boot, exact counts of an emulated
 * CPU.  Unlike the time they are the same from boot to boot, so a
 * difference larger than their spread between boots is decided on its
 * own, by the same sequential rule as the pairs' times, in the fewest
 * pairs it allows: whether the path changed, and where, by the kernel's
 * functions and their mechanisms.  The verdict stays on time; a longer
 * or shorter path is a cause of it, the same path says the time changed
 * with the same instructions.
 */
#include "config.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "explain/mechmap.h"
#include "results/emulated.h"
#include "stats/seq.h"
#include "stats/stats.h"

/* A mechanism or symbol that moved less than this share of the kernel
 * path's move, and less than this many instructions, is not named. */
#define NAME_SHARE 0.02
#define NAME_MIN 0.5

/* Each run's amount of a side's benchmark name, by run index over the
 * side's files (NAN: none); how many runs. */
static size_t side_values(const struct pm_side *s, const char *name, const char *key,
			  const char *mode, double **out)
{
	size_t i, k, total = 0, off = 0;
	double *v;

	for (i = 0; i < s->nruns; i++)
		total += pm_result_nruns(&s->runs[i]);
	v = pm_xcalloc(total ? total : 1, sizeof(*v));
	for (k = 0; k < total; k++)
		v[k] = NAN;
	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);
		size_t cap = b ? json_array_size(json_object_get(b->emulated, "runs")) : 0, n;
		double *x = pm_xcalloc(cap + 1, sizeof(*x));
		unsigned *r = pm_xcalloc(cap + 1, sizeof(*r));

		n = b ? pm_emulated_values(b, key, mode, x, r, cap) : 0;
		for (k = 0; k < n; k++)
			if (off + r[k] < total)
				v[off + r[k]] = x[k];
		off += pm_result_nruns(&s->runs[i]);
		free(x);
		free(r);
	}
	*out = v;
	return total;
}

/* The path of each run: its instructions but the rep repeats. */
static size_t side_path(const struct pm_side *s, const char *name, double **out)
{
	double *rep;
	size_t n = side_values(s, name, "instructions", NULL, out), k;

	side_values(s, name, "rep_iterations", NULL, &rep);
	for (k = 0; k < n; k++)
		if (!isnan(rep[k]))
			(*out)[k] -= rep[k];
	free(rep);
	return n;
}

static double mean_of(const double *v, size_t n, size_t *count)
{
	double sum = 0;
	size_t k, m = 0;

	for (k = 0; k < n; k++)
		if (isfinite(v[k])) {
			sum += v[k];
			m++;
		}
	if (count)
		*count = m;
	return m ? sum / (double)m : NAN;
}

static struct pm_pair side_pair(const struct pm_side *old, const struct pm_side *new,
				const char *name, const char *key, const char *mode)
{
	double *a, *b;
	size_t na = side_values(old, name, key, mode, &a), nb = side_values(new, name, key,
									      mode, &b);
	struct pm_pair p = { mean_of(a, na, NULL), mean_of(b, nb, NULL) };

	free(a);
	free(b);
	return p;
}

/* The verdict of the first m pairs (PM_INCONCLUSIVE when undecided). */
static enum pm_verdict decide(const double *d, size_t m, double alpha, struct pm_seq_result *r)
{
	if (pm_seq_decide(d, m, log1p(PM_EMU_FLOOR), alpha, r))
		return PM_INCONCLUSIVE;
	return r->verdict == PM_SEQ_REGRESSION ? PM_REGRESSION :
	       r->verdict == PM_SEQ_IMPROVEMENT ? PM_IMPROVEMENT :
	       r->verdict == PM_SEQ_SAME ? PM_NO_CHANGE : PM_INCONCLUSIVE;
}

/* Run k of OLD against run k of NEW, as ab took them: the path decided by
 * the sequential rule, and the fewest pairs that decided it so. */
static void decide_path(struct pm_emu_cmp *e, const double *a, size_t na, const double *b,
			size_t nb, double alpha)
{
	double *d = pm_xcalloc(na + 1, sizeof(*d));
	struct pm_seq_result r;
	size_t k, n = 0, m;

	for (k = 0; k < na && k < nb; k++)
		if (a[k] > 0 && b[k] > 0)
			d[n++] = log(b[k] / a[k]);
	e->pairs = n;
	e->verdict = PM_INCONCLUSIVE;
	e->ratio = e->pair_sd = e->lo = e->hi = NAN;
	e->more = SIZE_MAX;
	if (n >= 1) {
		double sum = 0;

		for (k = 0; k < n; k++)
			sum += d[k];
		e->ratio = exp(sum / (double)n);
	}
	if (n >= 2) {
		e->verdict = decide(d, n, alpha, &r);
		e->ratio = r.ratio;
		e->lo = r.ratio_lo;
		e->hi = r.ratio_hi;
		e->pair_sd = r.sd;
		e->more = r.more;
	}
	for (m = 2; e->verdict != PM_INCONCLUSIVE && m <= n; m++)
		if (decide(d, m, alpha, &r) == e->verdict) {
			e->decided_at = m;
			break;
		}
	free(d);
}

/* A side's kernel profile: each symbol's instructions per op, the runs'
 * profiles weighted by their operations; its source files into sources. */
static json_t *side_profile(const struct pm_side *s, const char *name, json_t *sources)
{
	json_t *acc = json_object(), *x, *v;
	const char *key;
	double ops = 0;
	size_t i, k;

	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);
		const json_t *p = b ? json_object_get(b->emulated, "kernel_profile") : NULL;
		double n = json_number_value(json_object_get(p, "ops"));

		if (!b || !pm_emulated_symbols(b) || !(n > 0))
			continue;
		json_array_foreach(json_object_get(p, "symbols"), k, x) {
			const char *sym = json_string_value(json_object_get(x, "name"));
			double w = n * json_number_value(json_object_get(x, "instructions"));

			if (!sym)
				continue;
			v = json_object_get(acc, sym);
			json_object_set_new(acc, sym, json_real(w + (v ? json_real_value(v) : 0)));
		}
		if (json_is_object(json_object_get(p, "sources")))
			json_object_update(sources, json_object_get(p, "sources"));
		ops += n;
	}
	if (!(ops > 0)) {
		json_decref(acc);
		return NULL;
	}
	json_object_foreach(acc, key, v)
		json_real_set(v, json_real_value(v) / ops);
	return acc;
}

static int by_sym_move(const void *a, const void *b)
{
	const struct pm_emu_sym *x = a, *y = b;
	double dx = fabs(x->new - x->old), dy = fabs(y->new - y->old);

	return dx < dy ? 1 : dx > dy ? -1 : strcmp(x->name, y->name);
}

static int by_mech_move(const void *a, const void *b)
{
	const struct pm_emu_mech *x = a, *y = b;
	double dx = fabs(x->new - x->old), dy = fabs(y->new - y->old);

	return dx < dy ? 1 : dx > dy ? -1 : strcmp(x->key, y->key);
}

/* Every symbol of either profile with its instructions on both sides. */
static void symbol_deltas(struct pm_emu_cmp *e, json_t *po, json_t *pn, json_t *sources)
{
	const struct pm_mechmap *m = pm_mechmap_get(NULL);
	const char *key;
	json_t *v, *all = json_deep_copy(po);

	json_object_update(all, pn);
	e->syms = pm_xcalloc(json_object_size(all) + 1, sizeof(*e->syms));
	json_object_foreach(all, key, v) {
		struct pm_emu_sym *s = &e->syms[e->nsyms++];
		const char *file = json_string_value(json_object_get(sources, key));

		if (!file && m)
			file = pm_mechmap_file(m, key);
		s->name = pm_xstrdup(key);
		s->file = file ? pm_xstrdup(file) : NULL;
		s->old = json_number_value(json_object_get(po, key));
		s->new = json_number_value(json_object_get(pn, key));
	}
	json_decref(all);
	pm_sort(e->syms, e->nsyms, sizeof(*e->syms), by_sym_move);
}

/* The symbols' moves by mechanism (a section of the map, else a file). */
static void mechanism_deltas(struct pm_emu_cmp *e)
{
	const struct pm_mechmap *m = pm_mechmap_get(NULL);
	size_t i, k;

	e->mechs = pm_xcalloc(e->nsyms + 1, sizeof(*e->mechs));
	for (i = 0; i < e->nsyms; i++) {
		const struct pm_emu_sym *s = &e->syms[i];
		const struct pm_mech *mech = m ? pm_mechmap_classify(m, s->name, s->file) : NULL;
		const char *key = mech ? mech->id : s->file ? s->file : "[unplaced]";
		double dv = s->new - s->old;

		for (k = 0; k < e->nmechs && strcmp(e->mechs[k].key, key); k++)
			;
		if (k == e->nmechs) {
			e->mechs[k].key = pm_xstrdup(key);
			e->mechs[k].name = mech ? pm_xstrdup(mech->name) : s->file ?
					   pm_xasprintf("code in %s", s->file) :
					   pm_xstrdup("functions no source file places");
			e->nmechs++;
		}
		e->mechs[k].old += s->old;
		e->mechs[k].new += s->new;
		if (fabs(dv) > fabs(e->mechs[k].top_delta)) {
			e->mechs[k].top = s->name;
			e->mechs[k].top_delta = dv;
		}
	}
	pm_sort(e->mechs, e->nmechs, sizeof(*e->mechs), by_mech_move);
}

/* A path decided longer or shorter is a difference of its own, whatever
 * the time's verdict: said with the decided facts of the samples. */
static void path_fact(struct pm_bench_cmp *c, const struct pm_emu_cmp *e)
{
	const struct pm_emu_mech *m = e->nmechs ? &e->mechs[0] : NULL;
	char where[256] = "";

	if (!pm_verdict_changed(e->verdict))
		return;
	if (m && fabs(m->new - m->old) >= NAME_MIN &&
	    fabs(m->new - m->old) >= NAME_SHARE * fabs(e->kernel.new - e->kernel.old))
		snprintf(where, sizeof(where), "; kernel %+.0f an op in %s", m->new - m->old,
			 m->name);
	c->facts = pm_xgrow(c->facts, c->nfacts, sizeof(*c->facts));
	c->facts[c->nfacts++] = pm_xasprintf(
		"the path is %s: %.1f%% %s instructions an operation in NEW (%.1f -> %.1f, "
		"exact counts of the emulated CPU, not hardware's), after %zu pairs "
		"(±%.2f%% a pair)%s", e->verdict == PM_REGRESSION ? "longer" : "shorter",
		100 * fabs(e->ratio - 1), e->verdict == PM_REGRESSION ? "more" : "fewer",
		e->path.old, e->path.new, e->decided_at, 100 * expm1(e->pair_sd), where);
}

void pm_emulated_compare(struct pm_bench_cmp *c, const struct pm_side *old,
			 const struct pm_side *new, const struct pm_explain_opts *o)
{
	struct pm_emu_cmp *e;
	double *a, *b;
	size_t na, nb;
	json_t *po, *pn, *src;

	na = side_path(old, c->name, &a);
	nb = side_path(new, c->name, &b);
	e = pm_xcalloc(1, sizeof(*e));
	e->path = (struct pm_pair){ mean_of(a, na, &e->runs_old), mean_of(b, nb, &e->runs_new) };
	if (!e->runs_old || !e->runs_new) {
		free(a);
		free(b);
		free(e);
		return;
	}
	decide_path(e, a, na, b, nb, 1 - o->level);
	free(a);
	free(b);
	e->kernel = side_pair(old, new, c->name, "instructions", "kernel");
	e->user = side_pair(old, new, c->name, "instructions", "user");
	e->rep = side_pair(old, new, c->name, "rep_iterations", NULL);
	e->branches = side_pair(old, new, c->name, "branches", NULL);
	e->imiss = side_pair(old, new, c->name, "icache_misses", NULL);
	src = json_object();
	po = side_profile(old, c->name, src);
	pn = side_profile(new, c->name, src);
	if (po && pn) {
		e->have_profile = true;
		symbol_deltas(e, po, pn, src);
		mechanism_deltas(e);
	}
	json_decref(po);
	json_decref(pn);
	json_decref(src);
	c->emu = e;
	path_fact(c, e);
}

void pm_emulated_free(struct pm_bench_cmp *c)
{
	struct pm_emu_cmp *e = c->emu;
	size_t i;

	if (!e)
		return;
	for (i = 0; i < e->nsyms; i++) {
		free(e->syms[i].name);
		free(e->syms[i].file);
	}
	free(e->syms);
	for (i = 0; i < e->nmechs; i++) {
		free(e->mechs[i].key);
		free(e->mechs[i].name);
	}
	free(e->mechs);
	free(e);
	c->emu = NULL;
}

/* ---- causes ---- */

static bool worth_naming(const struct pm_emu_cmp *e, double dv)
{
	return fabs(dv) >= NAME_MIN && fabs(dv) >= NAME_SHARE * fabs(e->kernel.new - e->kernel.old);
}

/* The difference that switches each mechanism that moved, when one does. */
static void tie_switches(struct pm_emu_cmp *e, const struct pm_explanation *x)
{
	size_t i, j, k;

	for (i = 0; i < e->nmechs; i++) {
		struct pm_emu_mech *m = &e->mechs[i];
		const char *file = NULL;
		int best = 1;

		if (!worth_naming(e, m->new - m->old))
			continue;
		for (k = 0; k < e->nsyms && !file; k++)
			if (m->top && !strcmp(e->syms[k].name, m->top))
				file = e->syms[k].file;
		for (j = 0; j < x->nswitches; j++) {
			int t = pm_switch_ties(&x->switches[j], m->key, file);

			if (t > best) {
				best = t;
				m->sw = &x->switches[j];
			}
		}
	}
}

/* Whether a config option is on ("y", "m") in a value of a switch. */
static bool option_on(const char *v)
{
	return v && (!strcmp(v, "y") || !strcmp(v, "m"));
}

/*
 * Code the path runs on one side only that the kernel has only with a
 * config option the sides differ in (the map's linux.guards: defined
 * inside an #ifdef of it), the option on that side alone: the option's
 * switch, the functions in names and their instructions per op in *dv.
 */
static const struct pm_switch *guarded_code(const struct pm_emu_cmp *e,
					    const struct pm_explanation *x, struct pm_buf *names,
					    double *dv)
{
	const struct pm_switch *sw = NULL;
	size_t i, j, g, ng;

	*dv = 0;
	for (i = 0; i < e->nsyms; i++) {
		const struct pm_emu_sym *s = &e->syms[i];
		bool on_new = s->new > 0;
		const struct pm_mechmap *m = pm_side_mechmap(on_new ? x->new : x->old);
		const char *opt[4];

		if ((s->old > 0) == (s->new > 0) || fabs(s->new - s->old) < NAME_MIN || !m)
			continue;
		ng = pm_mechmap_guards(m, s->name, opt, PM_ARRAY_SIZE(opt));
		for (g = 0; g < ng; g++)
			for (j = 0; j < x->nswitches; j++) {
				const struct pm_switch *w = &x->switches[j];
				const char *here = on_new ? w->new : w->old;
				const char *there = on_new ? w->old : w->new;

				if (w->kind != PM_SW_CONFIG || strcmp(w->key, opt[g]) ||
				    !option_on(here) || option_on(there))
					continue;
				if (sw && sw != w)
					continue;
				sw = w;
				pm_buf_sep(names, ", ");
				pm_buf_add(names, s->name);
				*dv += s->new - s->old;
				g = ng;
				break;
			}
	}
	return sw;
}

static bool path_moved(const struct pm_emu_cmp *e)
{
	return pm_verdict_changed(e->verdict);
}

/* "the audit subsystem (+231 per op, switched by ...)" */
static void carrier_words(const struct pm_emu_cmp *e, char *buf, size_t len)
{
	const struct pm_emu_mech *m = e->nmechs ? &e->mechs[0] : NULL;

	buf[0] = '\0';
	if (!m || !worth_naming(e, m->new - m->old))
		return;
	snprintf(buf, len, ", most of it in %s (%+.0f per op%s%s%s)", m->name, m->new - m->old,
		 m->old == 0 ? ", none in OLD" : m->new == 0 ? ", none in NEW" : "",
		 m->sw ? ", switched by " : "", m->sw ? m->sw->text : "");
}

void pm_emulated_causes(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	struct pm_emu_cmp *e = c->emu;
	bool longer, slower = c->delta_ns > 0;
	char where[512], sentence[1024];
	struct pm_cause *k;
	struct pm_buf gnames = { 0 };
	const struct pm_switch *gsw = NULL;
	double gdv = 0;
	size_t i, n;

	if (!e)
		return;
	tie_switches(e, x);
	if (!path_moved(e))
		return;
	longer = e->verdict == PM_REGRESSION;
	/* a cause of the time only where the path moved its way; while the
	 * time is undecided the path is the decided difference, said as one */
	if (pm_verdict_changed(c->verdict) && c->delta_ns != 0 && longer != slower)
		return;
	carrier_words(e, where, sizeof(where));
	/* no mechanism's switch carries the move: code only one side's
	 * config builds, when there is such */
	if (!(e->nmechs && e->mechs[0].sw && worth_naming(e, e->mechs[0].new - e->mechs[0].old))) {
		gsw = guarded_code(e, x, &gnames, &gdv);
		if (gsw && !worth_naming(e, gdv))
			gsw = NULL;
	}
	snprintf(sentence, sizeof(sentence), "A %s code path: %.1f%% %s instructions per "
		 "operation (kernel %.0f -> %.0f, user %.1f -> %.1f; exact counts of the emulated "
		 "CPU, decided after %zu pairs)%s%s%s%s%s.", longer ? "longer" : "shorter",
		 100 * fabs(e->ratio - 1), longer ? "more" : "fewer", e->kernel.old, e->kernel.new,
		 e->user.old, e->user.new, e->decided_at, where,
		 gsw ? "; it runs code the kernel has only with " : "", gsw ? gsw->key : "",
		 gsw ? ", which only " : "", gsw ? (gdv > 0 ? "NEW has" : "OLD has") : "");
	k = pm_cause_add(c, "code-path", longer ? "longer code path" : "shorter code path",
			 c->verdict == PM_INCONCLUSIVE && c->delta_ns != 0 && longer != slower ?
			 0.6 : 0.8, sentence);
	pm_cause_evidence(k, "instructions/op (emulated, exact): %.1f -> %.1f (%+.2f%%, pairs "
			  "±%.2f%%)", e->path.old, e->path.new, 100 * (e->ratio - 1),
			  100 * expm1(e->pair_sd));
	for (i = n = 0; i < e->nmechs && n < 3; i++)
		if (worth_naming(e, e->mechs[i].new - e->mechs[i].old)) {
			const struct pm_emu_mech *m = &e->mechs[i];

			pm_cause_evidence(k, "kernel instructions/op in %s: %.1f -> %.1f (%s %+.1f)",
					  m->name, m->old, m->new, m->top ? m->top : "",
					  m->top_delta);
			n++;
		}
	if (e->nmechs && e->mechs[0].sw && worth_naming(e, e->mechs[0].new - e->mechs[0].old)) {
		k->mechanism = pm_xstrdup(e->mechs[0].key);
		k->switched_by = pm_xstrdup(e->mechs[0].sw->text);
	} else if (gsw) {
		pm_cause_evidence(k, "kernel instructions/op in %s: %+.1f, run in %s only: defined "
				  "only under %s (the map's linux.guards); %s", pm_buf_str(&gnames),
				  gdv, gdv > 0 ? "NEW" : "OLD", gsw->key, gsw->text);
		k->switched_by = pm_xstrdup(gsw->text);
	}
	pm_buf_free(&gnames);
}

/* ---- the report ---- */

/* "longer, decided after 3 pairs (pairs ±0.1%)" and the like */
static void decision_words(const struct pm_emu_cmp *e, char *buf, size_t len)
{
	if (e->pairs < 2)
		snprintf(buf, len, "undecided: %zu pair%s, and the spread between boots needs two",
			 e->pairs, e->pairs == 1 ? "" : "s");
	else if (e->verdict == PM_INCONCLUSIVE && isinf(pm_seq_crit(e->pairs, 1 - PM_LEVEL)))
		snprintf(buf, len, "undecided after %zu pairs (±%.2f%% a pair): the sequential "
			 "rule decides from 3", e->pairs, 100 * expm1(e->pair_sd));
	else if (e->verdict == PM_INCONCLUSIVE)
		snprintf(buf, len, "undecided after %zu pairs (±%.2f%% a pair)", e->pairs,
			 100 * expm1(e->pair_sd));
	else
		snprintf(buf, len, "%s, decided after %zu pair%s (±%.2f%% a pair)",
			 e->verdict == PM_NO_CHANGE ? "the same path" :
			 e->verdict == PM_REGRESSION ? "longer" : "shorter", e->decided_at,
			 e->decided_at == 1 ? "" : "s", 100 * expm1(e->pair_sd));
}

void pm_emulated_where(const struct pm_bench_cmp *c, FILE *f, const char *ind)
{
	const struct pm_emu_cmp *e = c->emu;
	char words[160];
	size_t i, n;

	if (!e)
		return;
	decision_words(e, words, sizeof(words));
	fprintf(f, "%sinstructions/op, emulated (exact, not hardware counts): %.1f -> %.1f "
		"(%+.1f%%; kernel %.1f -> %.1f, user %.1f -> %.1f): %s\n", ind, e->path.old,
		e->path.new, 100 * (e->path.new / e->path.old - 1), e->kernel.old, e->kernel.new,
		e->user.old, e->user.new, words);
	if (e->verdict == PM_NO_CHANGE && (c->verdict == PM_REGRESSION ||
					    c->verdict == PM_IMPROVEMENT))
		fprintf(f, "%sthe path did not get %s: the time changed with the same "
			"instructions\n", ind, c->delta_ns > 0 ? "longer" : "shorter");
	if (fabs(e->rep.new - e->rep.old) > 0.01 * fmax(e->path.old, 1))
		fprintf(f, "%srep string iterations/op %.0f -> %.0f (TCG counts each; not in "
			"the path)\n", ind, e->rep.old, e->rep.new);
	if (isfinite(e->imiss.old) && isfinite(e->imiss.new))
		fprintf(f, "%si-cache misses/op of the model: %.2f -> %.2f\n", ind, e->imiss.old,
			e->imiss.new);
	for (i = n = 0; i < e->nmechs && n < 3; i++) {
		const struct pm_emu_mech *m = &e->mechs[i];

		if (!worth_naming(e, m->new - m->old))
			break;
		fprintf(f, "%skernel instructions/op in %s: %.1f -> %.1f (%+.1f%s%s%s%s%s)\n", ind,
			m->name, m->old, m->new, m->new - m->old,
			m->old == 0 ? ", none in OLD" : m->new == 0 ? ", none in NEW" : "",
			m->top ? "; most in " : "", m->top ? m->top : "",
			m->sw ? "; switched by " : "", m->sw ? m->sw->text : "");
		n++;
	}
}

size_t pm_emulated_count(const struct pm_explanation *x)
{
	size_t i, n = 0;

	for (i = 0; i < x->ncmp; i++)
		n += x->cmp[i].emu && (x->cmp[i].verdict == PM_REGRESSION ||
				       x->cmp[i].verdict == PM_IMPROVEMENT);
	return n;
}

/* One group of the summary: the benchmarks cmp[] for which pick() holds. */
static void summary_group(const struct pm_explanation *x, FILE *f, bool md, const char *label,
			  bool (*pick)(const struct pm_bench_cmp *))
{
	size_t i, n = 0;

	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];
		const struct pm_emu_cmp *e = c->emu;

		if (!e || !pick(c))
			continue;
		fprintf(f, n++ ? ", " : md ? "- %s: " : "  %s: ", label);
		fprintf(f, "%s %+.1f%%", c->name, 100 * (e->path.new / e->path.old - 1));
		if (e->decided_at)
			fprintf(f, " (%zu pairs", e->decided_at);
		else
			fprintf(f, " (%zu pair%s%s", e->pairs, e->pairs == 1 ? "" : "s",
				e->pairs >= 2 && isinf(pm_seq_crit(e->pairs, 1 - PM_LEVEL)) ?
				": the rule decides from 3" : "");
		/* where a path that moved moved: exact, even before it is decided */
		if (e->nmechs && fabs(e->path.new / e->path.old - 1) >= PM_EMU_FLOOR &&
		    worth_naming(e, e->mechs[0].new - e->mechs[0].old))
			fprintf(f, "; kernel %+.0f/op in %s%s%s", e->mechs[0].new - e->mechs[0].old,
				e->mechs[0].name, e->mechs[0].sw ? ", switched by " : "",
				e->mechs[0].sw ? e->mechs[0].sw->text : "");
		fputc(')', f);
	}
	if (n)
		fputc('\n', f);
}

static bool time_moved(const struct pm_bench_cmp *c)
{
	return pm_verdict_changed(c->verdict);
}

static bool pick_changed(const struct pm_bench_cmp *c)
{
	return path_moved(c->emu);
}

static bool pick_time_only(const struct pm_bench_cmp *c)
{
	return c->emu->verdict == PM_NO_CHANGE && time_moved(c);
}

static bool pick_same(const struct pm_bench_cmp *c)
{
	return c->emu->verdict == PM_NO_CHANGE && !time_moved(c);
}

static bool pick_open(const struct pm_bench_cmp *c)
{
	return c->emu->verdict == PM_INCONCLUSIVE;
}

void pm_emulated_summary(const struct pm_explanation *x, FILE *f, bool md)
{
	size_t i, n = 0;

	for (i = 0; i < x->ncmp; i++)
		n += x->cmp[i].emu != NULL;
	if (!n)
		return;
	fprintf(f, "%sEmulated counts%s (instructions per op counted exactly in QEMU's emulated "
		"CPU, not hardware counts; the path, rep repeats aside, decided apart from the "
		"time, by the sequential rule on the pairs, at a floor of %.0f%%):\n",
		md ? "\n**" : "\n", md ? "**" : "", 100 * PM_EMU_FLOOR);
	summary_group(x, f, md, "path changed", pick_changed);
	summary_group(x, f, md, "same path, only the time changed", pick_time_only);
	summary_group(x, f, md, "same path", pick_same);
	summary_group(x, f, md, "path undecided", pick_open);
}

json_t *pm_emulated_json(const struct pm_bench_cmp *c)
{
	const struct pm_emu_cmp *e = c->emu;
	json_t *mechs, *j;
	size_t i;

	if (!e)
		return json_null();
	mechs = json_array();
	for (i = 0; i < e->nmechs && i < 10; i++)
		json_array_append_new(mechs, json_pack("{s:s,s:s,s:f,s:f,s:s?,s:s?}", "key",
				      e->mechs[i].key, "name", e->mechs[i].name, "old",
				      e->mechs[i].old, "new", e->mechs[i].new, "top", e->mechs[i].top,
				      "switched_by", e->mechs[i].sw ? e->mechs[i].sw->text : NULL));
	j = json_pack("{s:s,s:{s:f,s:f},s:{s:f,s:f},s:{s:f,s:f},s:s,s:i,s:i,s:o}",
		      "note", PM_EMULATED_NOTE,
		      "path", "old", e->path.old, "new", e->path.new,
		      "kernel", "old", e->kernel.old, "new", e->kernel.new,
		      "user", "old", e->user.old, "new", e->user.new,
		      "verdict", e->verdict == PM_NO_CHANGE ? "same" : e->verdict == PM_REGRESSION ?
		      "longer" : e->verdict == PM_IMPROVEMENT ? "shorter" : "undecided",
		      "pairs", (int)e->pairs, "decided_after", (int)e->decided_at,
		      "mechanisms", mechs);
	json_object_set_new(j, "ratio", isfinite(e->ratio) ? json_real(e->ratio) : json_null());
	json_object_set_new(j, "low", isfinite(e->lo) ? json_real(e->lo) : json_null());
	json_object_set_new(j, "high", isfinite(e->hi) ? json_real(e->hi) : json_null());
	return j;
}
