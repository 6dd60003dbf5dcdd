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
/* ... and decided so by its samples (pm_decided_facts) */
#define ALONE_P 0.001
#define ALONE_MIN_SAMPLES 10
#define ACTIVE_OTHER	0.2

/* ---- switches: the differences that can turn kernel code on or off ---- */

static struct pm_switch *add_switch(struct pm_explanation *x, enum pm_switch_kind kind,
				    const char *key, const char *old, const char *new)
{
	struct pm_switch *s;

	x->switches = pm_xrealloc(x->switches, (x->nswitches + 1) * sizeof(*x->switches));
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
	a->v = pm_xrealloc(a->v, (a->n + 1) * sizeof(*a->v));
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
		if (!(d->started || d->stopped) || !(d->alone_p < ALONE_P) ||
		    k < ALONE_MIN_SAMPLES || o > 0.02 * k * on / n)
			continue;
		if (o > 0)
			snprintf(few, sizeof(few), "%.0f", o);
		else
			snprintf(few, sizeof(few), "none");
		c->facts = pm_xrealloc(c->facts, (c->nfacts + 1) * sizeof(*c->facts));
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

/* ---- the mechanism as a cause ---- */

int pm_switch_ties(const struct pm_switch *s, const char *mech_key, const char *file)
{
	const struct pm_mechmap *m = pm_mechmap_get(NULL);
	struct pm_mech_delta d = { .key = (char *)mech_key, .file = (char *)file };

	return m ? link_strength(s, &d, m) : 0;
}

static bool same_direction(const struct pm_bench_cmp *c, double v)
{
	return v != 0 && (v > 0) == (c->delta_ns > 0);
}

/* The mechanism that carries the change: the largest move its way. */
static const struct pm_mech_delta *carrier(const struct pm_bench_cmp *c, double *share)
{
	size_t i;

	/* code a difference switched on (or off), decided by its samples:
	 * the path into it (system call entry) grows with it, and is not
	 * the cause */
	for (i = 0; i < c->nmechs; i++) {
		const struct pm_mech_delta *d = &c->mechs[i];
		double v = d->new_ns - d->old_ns;

		if ((d->started || d->stopped) && d->alone_p < ALONE_P && d->link >= 2 &&
		    same_direction(c, v) && v / c->delta_ns >= 0.15) {
			*share = fmin(v / c->delta_ns, 1);
			return d;
		}
	}
	for (i = 0; i < c->nmechs; i++) {
		const struct pm_mech_delta *d = &c->mechs[i];
		double v = d->new_ns - d->old_ns;

		if (same_direction(c, v)) {
			*share = fmin(v / c->delta_ns, 1);
			return *share >= 0.3 ? d : NULL;
		}
	}
	return NULL;
}

/* Does rule id name mechanism key (or its top section)? */
static bool rule_names(const char *id, const char *key)
{
	size_t i, n;

	for (i = 0; i < pm_rule_count(); i++) {
		const struct pm_rule_info *r = pm_rule_at(i);
		char **v;
		bool hit = false;

		if (strcmp(r->id, id) || !r->mechs)
			continue;
		v = pm_strv_split(r->mechs, ' ');
		n = strcspn(key, ".");
		for (size_t j = 0; v && v[j]; j++)
			hit |= !strcmp(v[j], key) || (strlen(v[j]) == n && !strncmp(v[j], key, n));
		pm_strv_free(v);
		return hit;
	}
	return false;
}

static double mech_confidence(const struct pm_mech_delta *d, double share)
{
	double base = d->link >= 2 ? 0.65 : d->link == 1 ? 0.5 : 0.4;

	return base + 0.2 * fmin(share / 0.5, 1);
}

/* "NEW runs the function tracer, which OLD does not: 0 -> 5.0 us per op
 * (+5.0 us, 46% of null's change), entered at ftrace_trampoline." */
static char *mech_line(const struct pm_bench_cmp *c, const struct pm_mech_delta *d)
{
	char a[32], b[32], dd[32], sh[160], *head, *out;
	double v = d->new_ns - d->old_ns;

	pm_fmt_time(a, sizeof(a), d->old_ns);
	pm_fmt_time(b, sizeof(b), d->new_ns);
	pm_fmt_time(dd, sizeof(dd), fabs(v));
	head = d->started ? pm_xasprintf("NEW runs %s, which OLD does not", d->name) :
	       d->stopped ? pm_xasprintf("OLD runs %s, which NEW does not", d->name) :
	       pm_xasprintf("%s takes %s time in NEW", d->name, v > 0 ? "more" : "less");
	/* a sentence starts with a capital: "The slab allocator ..." */
	if (head[0] >= 'a' && head[0] <= 'z')
		head[0] = (char)(head[0] - 'a' + 'A');
	pm_share_words(sh, sizeof(sh), c, v, true);
	out = pm_xasprintf("%s: %s -> %s per op (%s%s, %s)%s%s.", head, a, b,
			   v < 0 ? "-" : "+", dd, sh,
			   d->entry ? ", entered at " : "", d->entry ? d->entry : "");
	free(head);
	return out;
}

/* "ftrace is parsed in kernel/trace/trace.c" */
static char *switch_where(const struct pm_switch *sw)
{
	if (!sw->nfiles)
		return NULL;
	return pm_xasprintf("%s is %s in %s%s", sw->key, sw->kind == PM_SW_CONFIG ? "built" :
			    "parsed", sw->files[0], sw->nfiles > 1 ? " and elsewhere" : "");
}

static void fold_where(struct pm_bench_cmp *c, struct pm_cause *into)
{
	size_t i = 0;

	while (i < c->ncauses) {
		struct pm_cause *k = &c->causes[i];

		if (k != into && (!strcmp(k->rule, "kernel-time") ||
				  !strcmp(k->rule, "kernel-hotspot"))) {
			size_t at = (size_t)(into - c->causes);

			pm_cause_evidence(into, "%s", k->sentence);
			pm_cause_remove(c, i);
			into = &c->causes[at > i ? at - 1 : at];
			continue;
		}
		i++;
	}
}

static const char *release_of(const struct pm_side *s)
{
	const json_t *r = json_object_get(json_object_get(s->nruns ? s->runs[0].sysinfo : NULL,
							  "kernel"), "release");

	return json_string_value(r);
}

/* The difference of fingerprint item key ("process.wrapper"), or NULL. */
static const struct pm_switch *fp_switch(const struct pm_explanation *x, const char *key)
{
	size_t i;

	for (i = 0; i < x->nswitches; i++)
		if (x->switches[i].kind == PM_SW_FP && !strncmp(x->switches[i].key, "fp:", 3) &&
		    !strcmp(x->switches[i].key + 3, key))
			return &x->switches[i];
	return NULL;
}

/*
 * One kernel on both sides, run differently: ab --local with NEW's
 * set-up, when the fingerprint says what it was (the wrapper pmbench ran
 * under, LD_PRELOAD).  NULL when it does not.
 */
static char *local_command(const struct pm_explanation *x, const char *name)
{
	const struct pm_switch *w = fp_switch(x, "process.wrapper");
	const struct pm_switch *p = fp_switch(x, "process.preload");
	char *wrap = NULL, *q, *out;

	if (w && w->new && strcmp(w->new, "none"))
		wrap = pm_xstrdup(w->new);
	else if (p && p->new && strcmp(p->new, "none"))
		wrap = pm_xasprintf("env LD_PRELOAD=%s", p->new);
	/* a set-up that left no command behind (a filter installed before
	 * an exec, a tracer attached): the experiment in words */
	if (!wrap && (fp_switch(x, "process.seccomp_filters") || fp_switch(x, "process.tracer")))
		return pm_xasprintf("pmbench ab --local --wrap-b COMMAND -- %s, COMMAND being what "
				    "ran NEW (it %s)", name, fp_switch(x, "process.tracer") ?
				    "attached a tracer" : "installed the seccomp filters");
	if (!wrap)
		return NULL;
	q = pm_sh_quote(wrap);
	free(wrap);
	wrap = pm_sh_quote(name);
	out = pm_xasprintf("pmbench ab --local --wrap-b %s -- %s", q, wrap);
	free(q);
	free(wrap);
	return out;
}

/*
 * The experiment that would prove (or rule out) switch sw as the cause
 * of benchmark name, one that can run here: on one kernel, ab --local
 * with NEW's set-up; across kernels, ab with the two images and the
 * argument on the side that has it, an image this machine does not have
 * named with the package that installs it.  NULL when nothing runnable
 * can be said.
 */
static char *experiment_command(const struct pm_explanation *x, const struct pm_switch *sw,
				const char *name)
{
	const char *ro = release_of(x->old), *rn = release_of(x->new);
	char *kb, *args, *out, *q, *missing = NULL;
	char img_a[512], img_b[512];

	if (!ro || !rn)
		return NULL;
	if (!strcmp(ro, rn) && !pm_fp_find(x, PM_FP_KERNEL_CMDLINE))
		return local_command(x, name);
	snprintf(img_a, sizeof(img_a), "/boot/vmlinuz-%s", ro);
	snprintf(img_b, sizeof(img_b), "/boot/vmlinuz-%s", rn);
	if (access(img_a, R_OK) || access(img_b, R_OK)) {
		bool a = access(img_a, R_OK) != 0, b = access(img_b, R_OK) != 0 && strcmp(ro, rn);

		missing = pm_xasprintf(" (not installed here: %s%s%s; on Debian apt-get install "
				       "%s%s%s%s)", a ? img_a : "", a && b ? " and " : "",
				       b ? img_b : "", a ? "linux-image-" : "", a ? ro : "",
				       b ? " linux-image-" : "", b ? rn : "");
	}
	args = pm_xstrdup("");
	kb = strcmp(ro, rn) ? pm_xasprintf(" --kernel-b %s", img_b) : pm_xstrdup("");
	if (sw && sw->kind == PM_SW_PARAM) {
		char *pa = sw->old ? (*sw->old ? pm_xasprintf("%s=%s", sw->key, sw->old) :
				      pm_xstrdup(sw->key)) : NULL;
		char *pb = sw->new ? (*sw->new ? pm_xasprintf("%s=%s", sw->key, sw->new) :
				      pm_xstrdup(sw->key)) : NULL;
		char *qa = pa ? pm_sh_quote(pa) : NULL, *qb = pb ? pm_sh_quote(pb) : NULL;

		free(args);
		args = pm_xasprintf("%s%s%s%s", qa ? " --append-a " : "", qa ? qa : "",
				    qb ? " --append-b " : "", qb ? qb : "");
		free(pa);
		free(pb);
		free(qa);
		free(qb);
	}
	q = pm_sh_quote(name);
	out = pm_xasprintf("pmbench ab --kernel %s%s%s -- %s%s", img_a, kb, args, q,
			   missing ? missing : "");
	free(q);
	free(kb);
	free(args);
	free(missing);
	return out;
}

void pm_mechanism_causes(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	double share = 0;
	const struct pm_mech_delta *d = carrier(c, &share);
	struct pm_cause *k = NULL;
	char *line;
	size_t i;

	if (!d)
		return;
	line = mech_line(c, d);
	for (i = 0; i < c->ncauses && !k; i++)
		if (rule_names(c->causes[i].rule, d->key))
			k = &c->causes[i];
	/* a file no section names, tied to no difference: kernel-time and
	 * the hotspot say as much */
	if (!k && !d->link && !pm_mechmap_find(pm_mechmap_get(NULL), d->key)) {
		free(line);
		return;
	}
	if (k) {
		/* the rule's mechanism is where the time went: it says so */
		k->confidence = fmin(fmax(k->confidence, mech_confidence(d, share)), 0.99);
		pm_cause_evidence(k, "%s", line);
	} else {
		char *s, *w = d->sw ? switch_where(d->sw) : NULL;

		if (d->sw)
			s = pm_xasprintf("%s It is %s by %s%s%s%s.", line,
					 d->started ? "switched on" : d->stopped ? "switched off" :
					 "set", d->sw->text, w ? " (" : "", w ? w : "", w ? ")" : "");
		else
			s = pm_xasprintf("%s No difference the fingerprint records is tied to "
					 "that code.", line);
		k = pm_cause_add(c, "mechanism", "kernel mechanism", mech_confidence(d, share), s);
		k->title_buf = pm_xstrdup(d->name);
		k->title = k->title_buf;
		free(s);
		free(w);
		if (d->file)
			pm_cause_evidence(k, "its code: %s", d->file);
	}
	free(line);
	free(k->mechanism);
	k->mechanism = pm_xstrdup(d->key);
	if (d->sw && !k->switched_by)
		k->switched_by = pm_xstrdup(d->sw->text);
	if (!pm_sides_one_experiment(x->old, x->new)) {
		char *cmd = experiment_command(x, d->sw, c->name);

		if (cmd)
			pm_cause_evidence(k, "the experiment that would prove it: %s", cmd);
		free(cmd);
	}
	fold_where(c, k);
}
