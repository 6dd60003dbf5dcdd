/*
 * Where the time went, by mechanism, and what switched it.
 *
 * Each sampled kernel call chain is cut into runs of frames that belong
 * to one mechanism (mechanisms/kernel.mech by path, the file of each
 * frame from the result's own DWARF sources or mechanisms/linux.syms),
 * generic helpers (memset, locks, unwinding, clocks) folded into the
 * run that called them.  A chain's time goes to its innermost run, the
 * code that spent it, except that code which runs on one side only
 * claims the chains it calls: slab allocations made by a new security
 * module are the module's.  Mechanisms are then tied to the fingerprint
 * differences that switch them: the file that parses a kernel parameter
 * or builds a config option, or a switch the map names.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain/stages.h"
#include "explain/mechmap.h"

/* a mechanism that runs on one side only: in chains of at least this
 * share of the samples there, and at most this fraction of that share
 * on the other side (shares, not times: code under every chain, as
 * entry code, grows with whatever it calls) */
#define ACTIVE_SHARE	0.02
#define ALONE_MIN_SAMPLES 10
#define ACTIVE_OTHER	0.2

/* ---- switches: the differences that can turn kernel code on or off ---- */

static struct pm_switch *add_switch(struct pm_explanation *x, enum pm_switch_kind kind,
				    const char *key, const char *old, const char *new)
{
	struct pm_switch *s;

	x->switches = pm_xgrow(x->switches, x->nswitches, sizeof(*x->switches));
	s = &x->switches[x->nswitches++];
	memset(s, 0, sizeof(*s));
	s->kind = kind;
	s->key = pm_xstrdup(key);
	s->old = old ? pm_xstrdup(old) : NULL;
	s->new = new ? pm_xstrdup(new) : NULL;
	return s;
}

static void cmdline_switches(struct pm_explanation *x, const struct pm_mechmap *m)
{
	const struct pm_fp_diff *d = pm_fp_find(x, PM_FP_KERNEL_CMDLINE);
	struct pm_kparam *o = NULL, *n = NULL;
	size_t no, nn, i, k;

	if (!d)
		return;
	no = pm_kparams_parse(d->old, &o);
	nn = pm_kparams_parse(d->new, &n);
	for (k = 0; k < 2; k++) {
		const struct pm_kparam *v = k ? n : o, *w = k ? o : n;
		size_t nv = k ? nn : no, nw = k ? no : nn;

		for (i = 0; i < nv; i++) {
			const struct pm_kparam *p = &v[i], *q = pm_kparams_find(w, nw, p->name);
			const struct pm_kparam *po = k ? q : p, *pn = k ? p : q;
			struct pm_switch *s;
			char *a, *b;

			/* the same on both sides, or changed: seen from OLD's side once */
			if (q && (k || (!p->value && !q->value) ||
				  (p->value && q->value && !strcmp(p->value, q->value))))
				continue;
			s = add_switch(x, PM_SW_PARAM, p->name,
				       po ? (po->value ? po->value : "") : NULL,
				       pn ? (pn->value ? pn->value : "") : NULL);
			s->files = pm_mechmap_param_files(m, p->name, &s->nfiles);
			a = po ? pm_kparam_text(po) : NULL;
			b = pn ? pm_kparam_text(pn) : NULL;
			s->text = !po ? pm_xasprintf("the kernel argument %s of NEW", b) :
				  !pn ? pm_xasprintf("the kernel argument %s of OLD (not in NEW)", a) :
				  pm_xasprintf("the kernel argument %s (OLD: %s)", b, a);
			free(a);
			free(b);
		}
	}
	pm_kparams_free(o, no);
	pm_kparams_free(n, nn);
}

void pm_find_switches(struct pm_explanation *x)
{
	const struct pm_mechmap *m = pm_mechmap_get(NULL);
	size_t i;

	if (!m)
		return;
	cmdline_switches(x, m);
	for (i = 0; i < x->ndiffs; i++) {
		const struct pm_fp_diff *d = &x->diffs[i];
		const char *opt = pm_fp_diff_member(d, PM_FP_KERNEL_CONFIG);
		struct pm_switch *s;
		char *fp;

		if (opt) {
			s = add_switch(x, PM_SW_CONFIG, opt, d->old, d->new);
			s->files = pm_mechmap_config_files(m, opt, &s->nfiles);
			s->text = pm_xasprintf("%s %s -> %s", opt, d->old, d->new);
			continue;
		}
		if (pm_find_diff(x, "kernel.cmdline") == d)
			continue;
		fp = pm_xasprintf("fp:%s", d->key);
		s = add_switch(x, PM_SW_FP, fp, d->old, d->new);
		s->text = pm_xasprintf("%s %s -> %s", d->key, d->old, d->new);
		free(fp);
	}
}

void pm_switches_free(struct pm_explanation *x)
{
	for (size_t i = 0; i < x->nswitches; i++) {
		free(x->switches[i].key);
		free(x->switches[i].old);
		free(x->switches[i].new);
		free(x->switches[i].text);
	}
	free(x->switches);
	x->switches = NULL;
	x->nswitches = 0;
}

/* ---- frames ---- */

/* One frame of a kernel chain: its mechanism key, or NULL for generic. */
struct frame {
	const char *sym;
	const char *key;		/* section id or file; NULL: generic or unknown */
	const struct pm_mech *mech;	/* NULL for a file of no section */
	const char *file;
};

static const char *top_key(const struct frame *f)
{
	return f->mech ? f->mech->top->id : f->key;
}

static void classify(struct frame *f, const struct pm_mechmap *m, const json_t *sources)
{
	const char *file = json_string_value(json_object_get(sources, f->sym));

	if (!file)
		file = pm_mechmap_file(m, f->sym);
	f->file = file;
	f->mech = pm_mechmap_classify(m, f->sym, file);
	if (f->mech && f->mech->generic) {
		f->mech = NULL;
		f->key = NULL;
	} else {
		f->key = f->mech ? f->mech->id : file;
	}
}

/*
 * A run of frames of one mechanism, from the innermost of its frames
 * out: its key is the most specific section inside it (the function
 * tracer inside tracing), its entry the outermost frame.
 */
struct run {
	const char *key;
	const struct frame *entry;
};

/* Cut a chain (outermost first) into runs, innermost first. */
static size_t cut_runs(const struct frame *f, size_t n, struct run *out, size_t max)
{
	size_t nr = 0, i = n;

	while (i-- > 0 && nr < max) {
		const char *top;
		struct run r;

		if (!f[i].key)
			continue;
		top = top_key(&f[i]);
		r.key = f[i].key;
		r.entry = &f[i];
		while (i > 0 && (!f[i - 1].key || !strcmp(top_key(&f[i - 1]), top))) {
			i--;
			if (!f[i].key)
				continue;
			r.entry = &f[i];
			if (f[i].mech && !strchr(r.key, '.') && strchr(f[i].mech->id, '.'))
				r.key = f[i].mech->id;
		}
		out[nr++] = r;
	}
	return nr;
}

/* ---- per mechanism sums ---- */

struct acc {
	const char *key;
	char *file, *entry;	/* of the chain that gave it most time */
	double incl[2], own[2], best[2];	/* incl: share of the side's time */
	double samples[2];	/* the samples of the chains it owns */
};

struct accs {
	struct acc *v;
	size_t n;
};

static struct acc *acc_get(struct accs *a, const char *key)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		if (!strcmp(a->v[i].key, key))
			return &a->v[i];
	a->v = pm_xgrow(a->v, a->n, sizeof(*a->v));
	memset(&a->v[a->n], 0, sizeof(*a->v));
	a->v[a->n].key = key;
	return &a->v[a->n++];
}

/* Is this frame of a chain kernel code (old files do not say where the
 * kernel part starts)? */
static bool kernel_frame(const char *sym, const json_t *hot, const struct pm_mechmap *m)
{
	const json_t *syms = json_object_get(hot, "symbols"), *s;
	size_t i;

	if (!strcmp(sym, "[kernel]"))
		return true;
	json_array_foreach(syms, i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));

		if (name && !strcmp(name, sym))
			return json_is_true(json_object_get(s, "kernel"));
	}
	return pm_mechmap_file(m, sym) != NULL;
}

#define MAX_FRAMES 256

/* The kernel frames of a folded chain, outermost first. */
static size_t chain_frames(char *stack, const json_t *st, const json_t *hot,
			   const struct pm_mechmap *m, struct frame *f)
{
	const json_t *kd = json_object_get(st, "kernel_depth");
	char *v[MAX_FRAMES], *save = NULL, *tok;
	size_t n = 0, i, start;

	for (tok = strtok_r(stack, ";", &save); tok && n < MAX_FRAMES;
	     tok = strtok_r(NULL, ";", &save))
		v[n++] = tok;
	if (json_is_integer(kd)) {
		start = n - (size_t)fmin((double)json_integer_value(kd), (double)n);
	} else {
		/* the first frame is the command: never kernel */
		for (start = 1; start < n && !kernel_frame(v[start], hot, m); start++)
			;
	}
	for (i = start; i < n; i++)
		f[i - start] = (struct frame){ .sym = v[i] };
	return n - start;
}

struct pass {
	struct accs *a;
	bool owning;			/* second pass: time to owners */
	const struct pm_bench_cmp *c;
	double total[2];		/* samples of each side's sampled runs */
};

typedef void (*chain_fn)(const struct frame *f, size_t n, double ns, double samples,
			 int side, void *arg);

/* Every kernel chain of benchmark name on one side, with its time per
 * op: its share of the run's samples times base, the side's figure the
 * verdict judged (one basis with every other part), averaged over the
 * side's sampled runs. */
static void each_chain(const struct pm_side *s, const char *name, const struct pm_mechmap *m,
		       int side, double base, double *total, chain_fn fn, void *arg)
{
	size_t r, runs = 0, i;

	for (r = 0; r < s->nruns; r++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[r], name);

		runs += b && b->status == PM_BENCH_OK && json_is_array(
			json_object_get(b->hotspots, "stacks"));
	}
	for (r = 0; r < s->nruns; r++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[r], name);
		const json_t *stacks, *st, *sources;
		double nsps, all, chained = 0;

		if (!b || b->status != PM_BENCH_OK || !b->hotspots)
			continue;
		stacks = json_object_get(b->hotspots, "stacks");
		sources = json_object_get(b->hotspots, "sources");
		all = json_number_value(json_object_get(b->hotspots, "samples"));
		/* chains of one run's samples: together at most all of them */
		json_array_foreach(stacks, i, st)
			chained += json_number_value(json_object_get(st, "samples"));
		all = fmax(all, chained);
		if (!json_is_array(stacks) || !(all > 0) || !(base > 0))
			continue;
		nsps = base / all;
		*total += all;
		json_array_foreach(stacks, i, st) {
			const char *text = json_string_value(json_object_get(st, "stack"));
			const json_t *k = json_object_get(st, "samples");
			struct frame f[MAX_FRAMES];
			char *copy;
			size_t n, j;

			if (!text || !json_is_number(k))
				continue;
			copy = pm_xstrdup(text);
			n = chain_frames(copy, st, b->hotspots, m, f);
			for (j = 0; j < n; j++)
				classify(&f[j], m, sources);
			if (n)
				fn(f, n, json_number_value(k) * nsps / (double)runs,
				   json_number_value(k), side, arg);
			free(copy);
		}
	}
}


/*
 * Code that runs on one side only: by shares (code under every chain
 * grows with whatever it calls) and by time per op (a share that shrank
 * because everything else grew is still code that runs, and took more
 * time: process creation at 132 -> 155 ns per op is not switched off).
 */
static bool runs_alone(const struct acc *x, int side, const struct pm_bench_cmp *c)
{
	double here = x->incl[side] * (side ? c->med_new : c->med_old);
	double there = x->incl[!side] * (side ? c->med_old : c->med_new);

	return x->incl[side] >= ACTIVE_SHARE && x->incl[!side] <= ACTIVE_OTHER * x->incl[side] &&
	       there <= ACTIVE_OTHER * here;
}

static void set_text(char **dst, const char *src)
{
	free(*dst);
	*dst = src ? pm_xstrdup(src) : NULL;
}

static void count_chain(const struct frame *f, size_t n, double ns, double samples,
			int side, void *arg)
{
	struct pass *p = arg;
	struct run runs[32];
	size_t nr = cut_runs(f, n, runs, PM_ARRAY_SIZE(runs)), i, own = 0;
	struct acc *x;

	if (!nr)
		return;
	if (!p->owning) {
		for (i = 0; i < nr; i++) {
			x = acc_get(p->a, runs[i].key);
			/* a mechanism twice in a chain counts once */
			bool seen = false;

			for (size_t j = 0; j < i; j++)
				seen |= !strcmp(runs[j].key, runs[i].key);
			if (!seen)
				x->incl[side] += ns / (side ? p->c->med_new : p->c->med_old);
		}
		return;
	}
	/* the innermost mechanism that owns chains (owns = yes) and runs on
	 * this side only takes the chain: a security module's slab
	 * allocations are the module's, a BPF program run from a tracepoint
	 * is the program's */
	for (i = 0; i < nr; i++) {
		const struct pm_mech *k = runs[i].entry->mech;

		x = acc_get(p->a, runs[i].key);
		if (k && (k->owns || k->top->owns) && runs_alone(x, side, p->c)) {
			own = i;
			break;
		}
	}
	x = acc_get(p->a, runs[own].key);
	x->own[side] += ns;
	x->samples[side] += samples;
	if (ns > x->best[side] && (side == 1 || !x->entry)) {
		x->best[side] = ns;
		set_text(&x->entry, runs[own].entry->sym);
		set_text(&x->file, runs[own].entry->file);
	}
}

/* ---- ties to switches ---- */

static char *dir_of(const char *file)
{
	const char *slash = file ? strrchr(file, '/') : NULL;

	return slash ? pm_xasprintf("%.*s", (int)(slash - file + 1), file) : NULL;
}

static int link_strength(const struct pm_switch *s, const struct pm_mech_delta *d,
			 const struct pm_mechmap *m)
{
	const struct pm_mech *k = pm_mechmap_find(m, d->key);
	char *ddir = dir_of(d->file);
	int best = 0;
	size_t i;

	if (k && pm_mech_switched_by(k, s->key))
		best = 3;
	for (i = 0; best < 3 && i < s->nfiles; i++) {
		const char *f = s->files[i];
		const struct pm_mech *fk = pm_mechmap_classify(m, NULL, f);
		char *fdir = dir_of(f);

		if (fk && fk->generic)
			fk = NULL;
		if ((fk && k && fk == k) || (!k && d->file && !strcmp(f, d->file)))
			best = 2 > best ? 2 : best;
		else if ((fk && k && fk->top == k->top) ||
			 (ddir && fdir && !strcmp(ddir, fdir)) ||
			 (f[strlen(f) - 1] == '/' && d->file && !strncmp(d->file, f, strlen(f))))
			best = 1 > best ? 1 : best;
		free(fdir);
	}
	free(ddir);
	return best;
}

static void tie_switches(struct pm_mech_delta *d, const struct pm_explanation *x,
			 const struct pm_mechmap *m)
{
	size_t i;

	for (i = 0; i < x->nswitches; i++) {
		int l = link_strength(&x->switches[i], d, m);

		/* two kernels' configs differ in hundreds of options: one that
		 * builds a neighbour of the code in its directory is chance */
		if (l < 2 && x->switches[i].kind == PM_SW_CONFIG)
			continue;
		if (l > d->link) {
			d->link = l;
			d->sw = &x->switches[i];
		}
	}
}

static int by_delta(const void *a, const void *b)
{
	const struct pm_mech_delta *x = a, *y = b;
	double dx = fabs(x->new_ns - x->old_ns), dy = fabs(y->new_ns - y->old_ns);

	return dx < dy ? 1 : dx > dy ? -1 : strcmp(x->key, y->key);
}

static char *mech_name(const struct pm_mechmap *m, const char *key)
{
	const struct pm_mech *k = pm_mechmap_find(m, key);

	if (!k)
		return pm_xasprintf("code in %s", key);
	if (k->top != k)
		return pm_xasprintf("%s: %s", k->top->name, k->name);
	return pm_xstrdup(k->name);
}

/* The map of a side's kernel version (its first run's release). */
static const struct pm_mechmap *side_map(const struct pm_mechmap *m, const struct pm_side *s)
{
	const json_t *k = json_object_get(s->nruns ? s->runs[0].sysinfo : NULL, "kernel");

	return pm_mechmap_for_release(m, json_string_value(json_object_get(k, "release")));
}

const struct pm_mechmap *pm_side_mechmap(const struct pm_side *s)
{
	const struct pm_mechmap *m = pm_mechmap_get(NULL);

	return m ? side_map(m, s) : NULL;
}

const struct pm_mech *pm_sym_mechanism(const struct pm_mechmap *m, const char *sym)
{
	char base[256];

	if (!m)
		return NULL;
	pm_mech_base_name(sym, base, sizeof(base));
	return pm_mechmap_classify(m, base, pm_mechmap_file(m, base));
}

void pm_attribute_mechanisms(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	const struct pm_mechmap *m = pm_mechmap_get(NULL);
	struct accs a = { 0 };
	struct pass p = { &a, false, c, { 0, 0 } };
	size_t i;

	if (!m || !c->have_hotspots || !c->have_kernel_syms)
		return;
	for (p.owning = false; ; p.owning = true) {
		p.total[0] = p.total[1] = 0;
		each_chain(x->old, c->name, side_map(m, x->old), 0, c->med_old, &p.total[0], count_chain, &p);
		each_chain(x->new, c->name, side_map(m, x->new), 1, c->med_new, &p.total[1], count_chain, &p);
		if (p.owning)
			break;
	}
	c->samples = (struct pm_pair){ p.total[0], p.total[1] };
	c->mechs = pm_xcalloc(a.n ? a.n : 1, sizeof(*c->mechs));
	for (i = 0; i < a.n; i++) {
		struct acc *s = &a.v[i];
		struct pm_mech_delta *d;

		if (!s->own[0] && !s->own[1]) {
			free(s->entry);
			free(s->file);
			continue;
		}
		d = &c->mechs[c->nmechs++];
		d->key = pm_xstrdup(s->key);
		d->name = mech_name(m, s->key);
		d->file = s->file;
		d->entry = s->entry;
		d->old_ns = s->own[0];
		d->new_ns = s->own[1];
		d->started = runs_alone(s, 1, c);
		d->stopped = runs_alone(s, 0, c);
		d->samples = (struct pm_pair){ s->samples[0], s->samples[1] };
		d->alone_p = d->started || d->stopped ?
			     pm_fewer_samples_p(s->samples[!d->started], p.total[!d->started],
						s->samples[d->started], p.total[d->started]) : NAN;
		tie_switches(d, x, m);
	}
	free(a.v);
	pm_sort(c->mechs, c->nmechs, sizeof(*c->mechs), by_delta);
}

/*
 * Code that runs on one side only is a decided difference in what runs
 * when as few samples on the other side would be a one-in-a-thousand
 * chance had it run alike there (the test is asked of every mechanism:
 * a thousandth, not the verdicts' hundredth), whatever the time's
 * verdict still waits for.
 */

void pm_decided_facts(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	size_t i;

	(void)x;
	for (i = 0; i < c->nmechs; i++) {
		const struct pm_mech_delta *d = &c->mechs[i];
		int here = d->started ? 1 : 0;
		double k = here ? d->samples.new : d->samples.old;
		double o = here ? d->samples.old : d->samples.new;
		double n = here ? c->samples.new : c->samples.old;
		double on = here ? c->samples.old : c->samples.new;
		char few[48];

		/* absent, not only smaller: a share falls when other code is
		 * added, so the other side may have a fiftieth of the samples
		 * this side's share would give it */
		if (!(d->started || d->stopped) || !(d->alone_p < PM_ALONE_P) ||
		    k < ALONE_MIN_SAMPLES || o > 0.02 * k * on / n)
			continue;
		if (o > 0)
			snprintf(few, sizeof(few), "%.0f", o);
		else
			snprintf(few, sizeof(few), "none");
		c->facts = pm_xgrow(c->facts, c->nfacts, sizeof(*c->facts));
		c->facts[c->nfacts++] = pm_xasprintf(
			"%s runs in %s %s: %.0f of %s's %.0f kernel samples, %s of %s's %.0f "
			"(p %s %.2g)", d->name, here ? "NEW" : "OLD", o > 0 ? "nearly only" : "only",
			k, here ? "NEW" : "OLD", n, few, here ? "OLD" : "NEW", on,
			d->alone_p < 1e-6 ? "<" : "=", fmax(d->alone_p, 1e-6));
	}
}

void pm_mech_deltas_free(struct pm_bench_cmp *c)
{
	for (size_t i = 0; i < c->nmechs; i++) {
		free(c->mechs[i].key);
		free(c->mechs[i].name);
		free(c->mechs[i].file);
		free(c->mechs[i].entry);
	}
	free(c->mechs);
	c->mechs = NULL;
	c->nmechs = 0;
	for (size_t i = 0; i < c->nfacts; i++)
		free(c->facts[i]);
	free(c->facts);
	c->facts = NULL;
	c->nfacts = 0;
}

/* ---- ties of a switch to a mechanism, for the stages after ---- */

int pm_switch_ties(const struct pm_switch *s, const char *mech_key, const char *file)
{
	const struct pm_mechmap *m = pm_mechmap_get(NULL);
	struct pm_mech_delta d = { .key = (char *)mech_key, .file = (char *)file };

	return m ? link_strength(s, &d, m) : 0;
}
