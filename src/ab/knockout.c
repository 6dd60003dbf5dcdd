/*
 * Knock-out experiments.  When the sides differ by their kernel image (a
 * version, a configuration), no boot can take that difference back, but
 * a mechanism whose code moved can be switched off on both sides: A and
 * B boot again with its knock-out argument (mechanisms/kernel.mech,
 * "knockout = init_on_alloc=0"), in blocks with plain A and B, and the
 * share of each benchmark's A-to-B change that disappears is a
 * difference of differences: log(B/A) - log(KB/KA) over log(B/A), with
 * Fieller's interval, at equal host speed when the verdict was.
 *
 * The candidates come from the evidence: the mechanisms explain finds in
 * the code whose time moved the way of each decided change, ranked by
 * the share of the changes they carry; --knockouts bounds how many are
 * tried, --knockout-budget how long.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab/engine.h"
#include "explain/explain.h"
#include "explain/mechmap.h"
#include "results/result.h"
#include "stats/seq.h"

#define KO_LEVEL PM_LEVEL
#define KO_MIN_BLOCKS 3
/* code that carries less of a change than this is no candidate */
#define KO_MIN_SHARE 0.1

struct pm_ab_knockout {
	char *arg;		/* "init_on_alloc=0" */
	char *mech, *name;	/* the mechanism it switches off */
	double score;		/* the share of the changes its code carries */
	json_t *moved;		/* per benchmark: its code's time per op on A and B */
	size_t arm;		/* its arms: arm (A with it) and arm + 1 (B with it) */
	size_t *ab_run;		/* per block: the index of that block's A and B runs */
	size_t nblocks;
	bool tried, open;
	char *skipped;		/* why it is not tried although a candidate */
	json_t *shares;		/* per changed benchmark: what it removed */
};

static bool changed(const json_t *d)
{
	const char *v = json_string_value(json_object_get(d, "verdict"));

	return v && (!strcmp(v, "regression") || !strcmp(v, "improvement"));
}

/* Is parameter name (of arg "name=value") on a side's command line? */
static bool side_has_param(const char *append, const char *arg)
{
	size_t n = strcspn(arg, "= "), i;
	char **w = pm_strv_split(append ? append : "", ' ');
	bool hit = false;

	for (i = 0; w && w[i]; i++)
		hit |= strlen(w[i]) >= n && !strncmp(w[i], arg, n) &&
		       (w[i][n] == '=' || w[i][n] == '\0');
	pm_strv_free(w);
	return hit;
}

static struct pm_ab_knockout *find_ko(struct pm_ab_exp *x, const char *arg)
{
	size_t i, n = strcspn(arg, " ");

	for (i = 0; i < x->nkos; i++)
		if (strlen(x->kos[i].arg) == n && !strncmp(x->kos[i].arg, arg, n))
			return &x->kos[i];
	return NULL;
}

/* Config option opt is built in (or a module) on side i's kernel, per
 * its runs' fingerprint; true when the fingerprint has no config. */
static bool side_config(const struct pm_ab_exp *x, int i, const char *opt)
{
	const struct pm_ab_arm *a = &x->arms[i];
	const json_t *cfg = a->nruns ? json_object_get(json_object_get(a->runs[0].sysinfo,
								      "kernel"), "config") : NULL;
	const char *v;

	if (!json_is_object(cfg) || !json_object_size(cfg))
		return true;
	v = json_string_value(json_object_get(cfg, opt));
	return v && (!strcmp(v, "y") || !strcmp(v, "m"));
}

/* Why knock-out spec ("arg [CONFIG_X]") would do nothing here, or NULL. */
static char *useless(const struct pm_ab_exp *x, const char *spec)
{
	const char *opt = strchr(spec, ' ');

	if (!opt++)
		return NULL;
	if (side_config(x, 0, opt) || side_config(x, 1, opt) ||
	    side_has_param(x->arms[0].append, spec) || side_has_param(x->arms[1].append, spec))
		return NULL;
	return pm_xasprintf("%s is set on neither side: nothing to switch off", opt);
}

/* Code (a mechanism or a symbol) of changed benchmark c, of section k,
 * took a_ns on A and b_ns on B per op: k's knock-outs are candidates. */
static void add_candidates(struct pm_ab_exp *x, const struct pm_bench_cmp *c, const char *code,
			   double a_ns, double b_ns, const struct pm_mech *k, double share)
{
	const struct pm_mech *s[2] = { k, k->top };
	size_t i, j;

	for (i = 0; i < (k->top == k ? 1u : 2u); i++)
		for (j = 0; j < s[i]->nknockouts; j++) {
			const char *arg = s[i]->knockouts[j];
			struct pm_ab_knockout *ko = find_ko(x, arg);
			size_t alen = strcspn(arg, " ");

			if (side_has_param(x->arms[0].append, arg) ||
			    side_has_param(x->arms[1].append, arg))
				continue;
			if (!ko) {
				x->kos = pm_xgrow(x->kos, x->nkos, sizeof(*x->kos));
				ko = &x->kos[x->nkos++];
				memset(ko, 0, sizeof(*ko));
				ko->arg = pm_xasprintf("%.*s", (int)alen, arg);
				ko->skipped = useless(x, arg);
				ko->mech = pm_xstrdup(s[i]->id);
				ko->name = pm_xstrdup(s[i]->top != s[i] ?
						      s[i]->top->name : s[i]->name);
				if (s[i]->top != s[i]) {
					free(ko->name);
					ko->name = pm_xasprintf("%s: %s", s[i]->top->name, s[i]->name);
				}
				ko->moved = json_object();
			}
			if (json_object_get(ko->moved, c->name))
				continue;
			ko->score += share;
			json_object_set_new(ko->moved, c->name, json_pack(
				"{s:s,s:f,s:f,s:f}", "code", code, "a_ns", a_ns,
				"b_ns", b_ns, "share", share));
		}
}

static int by_score(const void *a, const void *b)
{
	const struct pm_ab_knockout *p = a, *q = b;

	if (!p->skipped != !q->skipped)
		return p->skipped ? 1 : -1;
	return p->score < q->score ? 1 : p->score > q->score ? -1 : strcmp(p->arg, q->arg);
}

/* Kernel symbols that moved c's way: the sections of the map they are
 * in, generic helpers too (climbed past by the mechanisms, but a CPU
 * feature variant of memset is code of its own). */
static void symbol_candidates(struct pm_ab_exp *x, const struct pm_bench_cmp *c,
			      const struct pm_mechmap *m)
{
	size_t i;

	for (i = 0; i < c->nsyms; i++) {
		const struct pm_sym_delta *d = &c->syms[i];
		double share = (d->new_ns - d->old_ns) / c->delta_ns;
		const struct pm_mech *k;

		if (!d->kernel || share < KO_MIN_SHARE)
			continue;
		k = pm_mechmap_classify(m, d->name, pm_mechmap_file(m, d->name));
		if (k)
			add_candidates(x, c, d->name, d->old_ns, d->new_ns, k, fmin(share, 1));
	}
}

/*
 * The candidates: for each benchmark decided changed, the mechanisms in
 * the code that moved its way by at least KO_MIN_SHARE of the change,
 * and the kernel symbols that did, with the knock-out arguments the map
 * gives their sections.
 */
static void find_candidates(struct pm_ab_exp *x)
{
	struct pm_side a = { .name = "A", .runs = x->arms[0].runs, .nruns = x->arms[0].nruns };
	struct pm_side b = { .name = "B", .runs = x->arms[1].runs, .nruns = x->arms[1].nruns };
	const struct pm_mechmap *m = pm_mechmap_get(NULL);
	struct pm_explain_opts xo;
	struct pm_explanation ex;
	struct pm_err e;
	size_t i, j;

	pm_ab_explain_opts(x, &xo);
	if (!m || pm_explain(&ex, &a, &b, &xo, &e))
		return;
	for (i = 0; i < ex.ncmp; i++) {
		const struct pm_bench_cmp *c = &ex.cmp[i];

		if (!changed(json_object_get(x->decided, c->name)) || !c->delta_ns)
			continue;
		for (j = 0; j < c->nmechs; j++) {
			const struct pm_mech_delta *d = &c->mechs[j];
			const struct pm_mech *k = pm_mechmap_find(m, d->key);
			double share = (d->new_ns - d->old_ns) / c->delta_ns;

			if (k && share >= KO_MIN_SHARE)
				add_candidates(x, c, d->name, d->old_ns, d->new_ns, k, fmin(share, 1));
		}
		symbol_candidates(x, c, m);
	}
	pm_explanation_free(&ex);
	pm_sort(x->kos, x->nkos, sizeof(*x->kos), by_score);
}

bool pm_ab_want_knockouts(struct pm_ab_exp *x)
{
	size_t i;
	bool image = false;

	for (i = 0; i < x->ndiffs; i++)
		image |= x->diffs[i].kind == PM_AB_DIFF_IMAGE;
	if (!image || x->o.local || !x->o.knockouts)
		return false;
	find_candidates(x);
	x->knockouts_free = pm_ab_knockouts_free;
	return x->nkos > 0 && !x->kos[0].skipped;
}

/* The arm of side (0 A, 1 B) booted with knock-out k. */
static int add_arm(struct pm_ab_exp *x, size_t k, int side, struct pm_err *e)
{
	const struct pm_ab_knockout *ko = &x->kos[k];
	const struct pm_ab_arm *s;
	struct pm_ab_arm *r;

	x->arms = pm_xgrow(x->arms, x->narms, sizeof(*x->arms));
	s = &x->arms[side];
	r = &x->arms[x->narms++];
	memset(r, 0, sizeof(*r));
	r->reverts = -1;
	r->kernel = s->kernel;
	r->tree = s->tree ? pm_xstrdup(s->tree) : NULL;
	r->append = *s->append ? pm_xasprintf("%s %s", s->append, ko->arg) : pm_xstrdup(ko->arg);
	r->name = pm_xasprintf("%s with %s", side ? "B" : "A", ko->arg);
	r->label = pm_xasprintf("K%zu%s", k + 1, side ? "B" : "A");
	r->tag = pm_xasprintf("k%zu%s-", k + 1, side ? "b" : "a");
	return pm_ab_arm_prepare(r, &x->o, x->o.side[side].vmlinux, x->env.scratch, e);
}

/* log(fig(b, i) / fig(a, j)) at equal host speed (less slope times the
 * probes' log ratio; slope cleared when a probe is missing), NAN when a
 * figure is. */
static double log_ratio(const struct pm_ab_arm *a, size_t j, const struct pm_ab_arm *b,
			size_t i, const char *name, double *slope)
{
	double fa = pm_ab_figure(a, j, name), fb = pm_ab_figure(b, i, name);
	double pa = pm_ab_run_probe(a, j, name), pb = pm_ab_run_probe(b, i, name);

	if (!(fa > 0 && fb > 0))
		return NAN;
	if (!(pa > 0 && pb > 0)) {
		*slope = 0;
		return log(fb / fa);
	}
	return log(fb / fa) - *slope * log(pb / pa);
}

/* The finite values of v[0..n), packed; how many. */
static size_t finite_only(double *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(v[i]))
			v[k++] = v[i];
	return k;
}

/*
 * What knock-out ko removed of benchmark name's change: 1 - mean(log
 * KB/KA) over mean(log B/A), the first over the knock-out's blocks, the
 * second over every pair of A and B (the main phase's and the blocks':
 * all of them measure the change), with Fieller's interval for two
 * independent means; each log ratio less slope times its probes' when
 * the verdict was taken at equal host speed.  decided cleared when the
 * interval is wide and not clear of the middle.
 */
static json_t *ko_share(const struct pm_ab_exp *x, const struct pm_ab_knockout *ko,
			const char *name, double slope, bool *decided)
{
	const struct pm_ab_arm *A = &x->arms[0], *B = &x->arms[1];
	const struct pm_ab_arm *KA = &x->arms[ko->arm], *KB = &x->arms[ko->arm + 1];
	size_t npairs = A->nruns < B->nruns ? A->nruns : B->nruns;
	double *y = pm_xcalloc(npairs + 1, sizeof(*y)), *v = pm_xcalloc(ko->nblocks + 1, sizeof(*v));
	double est, lo, hi, s = slope;
	size_t i, ny, nv;
	json_t *j;
	int err;

	/* a missing probe anywhere: no adjustment anywhere */
	for (i = 0; i < npairs; i++)
		y[i] = log_ratio(A, i, B, i, name, &s);
	for (i = 0; i < ko->nblocks; i++)
		v[i] = log_ratio(KA, i, KB, i, name, &s);
	if (s != slope) {
		for (i = 0; i < npairs; i++)
			y[i] = log_ratio(A, i, B, i, name, &s);
		for (i = 0; i < ko->nblocks; i++)
			v[i] = log_ratio(KA, i, KB, i, name, &s);
	}
	ny = finite_only(y, npairs);
	nv = finite_only(v, ko->nblocks);
	err = pm_fieller_ratio_indep(v, nv, y, ny, KO_LEVEL, &est, &lo, &hi);
	if (err || !isfinite(lo) || !isfinite(hi) || (hi - lo > 0.5 && hi > 0.25 && lo < 0.75))
		*decided = false;
	/* what it removed is 1 - what it left */
	j = err && err != -ERANGE ? json_pack("{s:i}", "boots", (int)nv) :
	    json_pack("{s:f,s:o,s:o,s:f,s:i,s:i,s:o}", "removed", 1 - est,
		      "low", isfinite(hi) ? json_real(1 - hi) : json_null(),
		      "high", isfinite(lo) ? json_real(1 - lo) : json_null(),
		      "level", KO_LEVEL, "boots", (int)nv, "pairs", (int)ny,
		      "probe_slope", s ? json_real(s) : json_null());
	free(y);
	free(v);
	return j;
}

/* Every open knock-out's shares (from KO_MIN_BLOCKS blocks on, or at
 * the end); those decided for every changed benchmark close.  true when
 * none is left open. */
static bool ko_update(struct pm_ab_exp *x, bool end)
{
	bool all = true;
	size_t k;

	for (k = 0; k < x->nkos; k++) {
		struct pm_ab_knockout *ko = &x->kos[k];
		const char *name;
		json_t *d;
		bool decided = true;

		if (!ko->tried || !ko->open || (ko->nblocks < KO_MIN_BLOCKS && !end)) {
			all &= !ko->tried || !ko->open;
			continue;
		}
		json_decref(ko->shares);
		ko->shares = json_object();
		json_object_foreach(x->decided, name, d)
			if (changed(d))
				json_object_set_new(ko->shares, name, ko_share(x, ko, name,
					json_number_value(json_object_get(d, "probe_slope")),
					&decided));
		ko->open = !decided;
		all &= decided;
	}
	return all;
}

/* What was tried and what each removed (options.ab.experiment.knockouts). */
static json_t *ko_json(const struct pm_ab_exp *x)
{
	json_t *cand = json_array(), *res = json_array();
	size_t k;

	for (k = 0; k < x->nkos; k++) {
		const struct pm_ab_knockout *ko = &x->kos[k];

		json_array_append_new(cand, json_pack("{s:s,s:s,s:s,s:f,s:b,s:s?,s:O}",
						      "argument", ko->arg, "mechanism", ko->mech,
						      "name", ko->name, "score", ko->score, "tried",
						      ko->tried, "skipped", ko->skipped, "moved",
						      ko->moved));
		if (!ko->tried)
			continue;
		json_array_append_new(res, json_pack(
			"{s:s,s:s,s:s,s:[s,s],s:i,s:O?}", "argument", ko->arg, "mechanism",
			ko->mech, "name", ko->name, "files", x->arms[ko->arm].tag,
			x->arms[ko->arm + 1].tag, "blocks", (int)ko->nblocks,
			"benchmarks", ko->shares));
	}
	return json_pack("{s:f,s:i,s:f,s:i,s:o,s:o}", "level", KO_LEVEL, "blocks",
			 (int)x->ko_blocks, "seconds", x->ko_s, "limit", (int)x->o.knockouts,
			 "candidates", cand, "results", res);
}

/* The arms of the first --knockouts candidates. */
static int ko_arms(struct pm_ab_exp *x, struct pm_err *e)
{
	size_t k;
	int err = 0;

	for (k = 0; !err && k < x->nkos && k < x->o.knockouts && !x->kos[k].skipped; k++) {
		x->kos[k].arm = x->narms;
		err = add_arm(x, k, 0, e);
		if (!err)
			err = add_arm(x, k, 1, e);
		x->kos[k].tried = x->kos[k].open = !err;
	}
	return err;
}

/* One block: A, B and both arms of every open knock-out. */
static enum pm_ab_block ko_block(struct pm_ab_exp *x)
{
	size_t *arms = pm_xcalloc(2 + 2 * x->nkos, sizeof(*arms)), n = 0, k;
	enum pm_ab_block b;

	arms[n++] = 0;
	arms[n++] = 1;
	for (k = 0; k < x->nkos; k++)
		if (x->kos[k].tried && x->kos[k].open) {
			arms[n++] = x->kos[k].arm;
			arms[n++] = x->kos[k].arm + 1;
		}
	b = (x->block ? x->block : pm_ab_run_block)(x, arms, n, "");
	for (k = 0; b == PM_BLOCK_KEPT && k < x->nkos; k++)
		if (x->kos[k].tried && x->kos[k].open) {
			struct pm_ab_knockout *ko = &x->kos[k];

			ko->ab_run = pm_xgrow(ko->ab_run, ko->nblocks, sizeof(size_t));
			ko->ab_run[ko->nblocks++] = x->arms[0].nruns - 1;
		}
	free(arms);
	return b;
}

enum pm_ab_end pm_ab_knockout_phase(struct pm_ab_exp *x)
{
	double start = pm_ab_now_s(), block_s = 0;
	enum pm_ab_block b = PM_BLOCK_KEPT;
	struct pm_err e;
	size_t k;

	if (ko_arms(x, &e)) {
		if (x->error)
			x->error("knock-out: %s", e.msg);
		return PM_AB_FAILED;
	}
	if (!x->o.quiet) {
		fprintf(stderr, "pmbench ab: knock-outs on both sides:");
		for (k = 0; k < x->nkos; k++)
			if (x->kos[k].tried)
				fprintf(stderr, " %s (%s)", x->kos[k].arg, x->kos[k].name);
		fprintf(stderr, ", interleaved with A and B\n");
	}
	while (!(x->stop && *x->stop)) {
		double t0 = pm_ab_now_s();

		if (ko_update(x, false) || t0 - start + block_s > x->o.knockout_budget_s)
			break;
		b = ko_block(x);
		if (b == PM_BLOCK_KEPT)
			x->ko_blocks++;
		else if (b != PM_BLOCK_DROPPED || x->failed > x->ko_blocks + x->pairs + 3)
			break;
		block_s = fmax(block_s, pm_ab_now_s() - t0);
	}
	ko_update(x, true);
	x->ko_s = pm_ab_now_s() - start;
	json_decref(x->knockouts);
	x->knockouts = ko_json(x);
	return b == PM_BLOCK_STOPPED || (x->stop && *x->stop) ? PM_AB_STOPPED : PM_AB_DONE;
}

void pm_ab_knockouts_free(struct pm_ab_exp *x)
{
	size_t k;

	for (k = 0; k < x->nkos; k++) {
		free(x->kos[k].arg);
		free(x->kos[k].mech);
		free(x->kos[k].name);
		free(x->kos[k].ab_run);
		free(x->kos[k].skipped);
		json_decref(x->kos[k].moved);
		json_decref(x->kos[k].shares);
	}
	free(x->kos);
	x->kos = NULL;
	x->nkos = 0;
}
