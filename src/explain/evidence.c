/*
 * Where did the time go?  The change per op split into user and kernel,
 * into symbols (cost per op on both sides, new and vanished ones, size
 * changes) and into counter terms; and the fingerprint differences that
 * the rules take as hypotheses.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "sysinfo/sysinfo.h"

static double jnum(const json_t *o, const char *key)
{
	const json_t *j = json_object_get(o, key);

	return json_is_number(j) ? json_number_value(j) : NAN;
}

/* Mean of a per-run quantity over the runs that have it. */
typedef double (*run_value_fn)(const struct pm_bench_result *b, const void *arg);

static double side_mean(const struct pm_side *s, const char *name,
			run_value_fn fn, const void *arg)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);
		double v;

		if (!b || b->status != PM_BENCH_OK)
			continue;
		v = fn(b, arg);
		if (!isnan(v)) {
			sum += v;
			n++;
		}
	}
	return n ? sum / (double)n : NAN;
}

struct counter_arg {
	const char *name;
	int part;		/* 0 total, 1 user, 2 kernel */
};

static double counter_value(const struct pm_bench_result *b, const void *arg)
{
	const struct counter_arg *ca = arg;
	const struct pm_counter_value *v = pm_bench_result_counter(b, ca->name);

	if (!v || v->status != PM_CV_OK)
		return NAN;
	return ca->part == 0 ? v->per_op : ca->part == 1 ? v->user : v->kernel;
}

static struct pm_pair counter_pair(const struct pm_side *o, const struct pm_side *n,
				   const char *bench, const char *counter, int part)
{
	struct counter_arg ca = { counter, part };

	return (struct pm_pair){
		side_mean(o, bench, counter_value, &ca),
		side_mean(n, bench, counter_value, &ca),
	};
}

static double kernel_share_samples(const struct pm_bench_result *b, const void *arg)
{
	/* without kernel samples the user frames carry the kernel's time */
	if (!b->hotspots || json_is_false(json_object_get(b->hotspots, "kernel_sampled")) ||
	    json_is_string(json_object_get(b->hotspots, "kernel_unavailable")))
		return NAN;
	return jnum(b->hotspots, "kernel_share");
}

static double kernel_share_rusage(const struct pm_bench_result *b, const void *arg)
{
	double t = b->counters.ru_user_ns + b->counters.ru_sys_ns;

	return t > 0 ? b->counters.ru_sys_ns / t : NAN;
}

static bool pair_ok(struct pm_pair p)
{
	return !isnan(p.old) && !isnan(p.new);
}

/* Per-mille of instructions: misses per kilo-instruction. */
static struct pm_pair mpki(struct pm_pair misses, struct pm_pair instr)
{
	return (struct pm_pair){ misses.old / instr.old * 1000,
				 misses.new / instr.new * 1000 };
}

/* ---- symbols ---- */

static struct pm_sym_delta *sym_find(struct pm_bench_cmp *c, const char *name,
				     const char *object, bool kernel)
{
	size_t i;

	for (i = 0; i < c->nsyms; i++)
		if (c->syms[i].kernel == kernel && !strcmp(c->syms[i].name, name) &&
		    !strcmp(c->syms[i].object, object))
			return &c->syms[i];
	return NULL;
}

/* Object names differ between machines (paths): compare file names. */
static const char *obj_key(const char *obj, char *buf, size_t len)
{
	const char *s = strrchr(obj, '/');
	char *del;

	snprintf(buf, len, "%s", s ? s + 1 : obj);
	/* a binary replaced while it ran is the same object */
	del = strstr(buf, " (deleted)");
	if (del)
		*del = '\0';
	return buf;
}

static void add_side_symbols(struct pm_bench_cmp *c, const struct pm_side *s,
			     bool is_new)
{
	size_t r, i, runs = 0;
	double total, scale;

	for (r = 0; r < s->nruns; r++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[r], c->name);
		const json_t *syms, *x;

		if (!b || !b->hotspots)
			continue;
		syms = json_object_get(b->hotspots, "symbols");
		if (!json_is_array(syms))
			continue;
		runs++;
		/* shares of one run's samples: together at most all of them
		 * (a file that says more is scaled back, not believed) */
		total = 0;
		json_array_foreach(syms, i, x)
			total += isnan(jnum(x, "share")) ? 0 : jnum(x, "share");
		scale = total > 1 ? 1 / total : 1;
		json_array_foreach(syms, i, x) {
			const char *name = json_string_value(json_object_get(x, "name"));
			const char *obj = json_string_value(json_object_get(x, "object"));
			bool kernel = json_is_true(json_object_get(x, "kernel"));
			struct pm_sym_delta *d;
			/* one basis: a share of the side's figure the verdict
			 * judged, as every other part of the change */
			double share = jnum(x, "share") * scale;
			double base = is_new ? c->med_new : c->med_old;
			double cost = isnan(share) ? NAN : share * base;
			double at = jnum(x, "syscall_samples"), all = jnum(x, "samples");
			double trap = !isnan(cost) && at > 0 && all > 0 ? cost * at / all : 0;
			char objbuf[256];

			if (!name || !obj)
				continue;
			obj = obj_key(obj, objbuf, sizeof(objbuf));
			d = sym_find(c, name, obj, kernel);
			if (!d) {
				c->syms = pm_xgrow(c->syms, c->nsyms, sizeof(*c->syms));
				d = &c->syms[c->nsyms++];
				memset(d, 0, sizeof(*d));
				d->name = pm_xstrdup(name);
				d->object = pm_xstrdup(obj);
				d->kernel = kernel;
				d->old_size = d->new_size = NAN;
			}
			if (is_new) {
				d->new_trap_ns += trap;
				d->new_ns += isnan(cost) ? 0 : cost;
				d->new_share += isnan(share) ? 0 : share;
				d->new_size = jnum(x, "size");
			} else {
				d->old_trap_ns += trap;
				d->old_ns += isnan(cost) ? 0 : cost;
				d->old_share += isnan(share) ? 0 : share;
				d->old_size = jnum(x, "size");
			}
		}
	}
	/* averages over the runs that were sampled */
	for (i = 0; runs > 1 && i < c->nsyms; i++) {
		if (is_new) {
			c->syms[i].new_trap_ns /= (double)runs;
			c->syms[i].new_ns /= (double)runs;
			c->syms[i].new_share /= (double)runs;
		} else {
			c->syms[i].old_trap_ns /= (double)runs;
			c->syms[i].old_ns /= (double)runs;
			c->syms[i].old_share /= (double)runs;
		}
	}
}

static int cmp_delta(const void *a, const void *b)
{
	const struct pm_sym_delta *x = a, *y = b;
	double dx = fabs(x->new_ns - x->old_ns), dy = fabs(y->new_ns - y->old_ns);

	return dx < dy ? 1 : dx > dy ? -1 : 0;
}

static bool side_has_hotspots(const struct pm_side *s, const char *name, bool *ksyms)
{
	size_t i;
	bool any = false;

	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);

		if (b && b->hotspots && json_array_size(json_object_get(b->hotspots, "symbols"))) {
			any = true;
			if (json_is_string(json_object_get(b->hotspots, "kernel_symbols")))
				*ksyms = true;
		}
	}
	return any;
}

/* A side's efficiency and throughput at n copies (first run that has it). */
static bool scale_point(const struct pm_side *s, const char *name, unsigned n,
			double *eff, double *tput)
{
	size_t r, i;

	for (r = 0; r < s->nruns; r++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[r], name);
		const json_t *pts = b ? json_object_get(b->scaling, "points") : NULL, *p;

		json_array_foreach(pts, i, p) {
			if (json_integer_value(json_object_get(p, "n")) == (json_int_t)n &&
			    json_is_number(json_object_get(p, "efficiency"))) {
				*eff = jnum(p, "efficiency");
				*tput = jnum(p, "ops_per_s");
				return true;
			}
		}
	}
	return false;
}

static void gather_scaling(struct pm_bench_cmp *c, const struct pm_side *old,
			   const struct pm_side *new)
{
	size_t i;

	for (i = 0; i < old->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&old->runs[i], c->name);
		const json_t *pts = b ? json_object_get(b->scaling, "points") : NULL, *p;
		size_t k;

		json_array_foreach(pts, k, p) {
			unsigned n = (unsigned)json_integer_value(json_object_get(p, "n"));
			double eo, to, en, tn;
			size_t j;
			bool seen = false;

			for (j = 0; j < c->nscale; j++)
				seen = seen || c->scale_n[j] == n;
			if (seen || c->nscale >= PM_ARRAY_SIZE(c->scale_n) ||
			    !scale_point(old, c->name, n, &eo, &to) ||
			    !scale_point(new, c->name, n, &en, &tn))
				continue;
			c->scale_n[c->nscale] = n;
			c->scale_eff[c->nscale] = (struct pm_pair){ eo, en };
			c->scale_tput[c->nscale++] = (struct pm_pair){ to, tn };
		}
		if (c->nscale)
			break;
	}
}

void pm_gather_evidence(struct pm_bench_cmp *c, const struct pm_side *old,
			const struct pm_side *new)
{
	struct pm_pair ks, misses;
	bool ks_old = false, ks_new = false;
	size_t i;

	c->delta_ns = c->med_new - c->med_old;

	/* user/kernel: samples first, then hardware cycles, then getrusage */
	ks = (struct pm_pair){ side_mean(old, c->name, kernel_share_samples, NULL),
			       side_mean(new, c->name, kernel_share_samples, NULL) };
	c->split_source = "samples";
	if (!pair_ok(ks)) {
		struct pm_pair k = counter_pair(old, new, c->name, "cycles", 2);
		struct pm_pair t = counter_pair(old, new, c->name, "cycles", 0);

		ks = (struct pm_pair){ k.old / t.old, k.new / t.new };
		c->split_source = "cycles";
	}
	if (!pair_ok(ks)) {
		ks = (struct pm_pair){ side_mean(old, c->name, kernel_share_rusage, NULL),
				       side_mean(new, c->name, kernel_share_rusage, NULL) };
		c->split_source = "getrusage";
	}
	if (pair_ok(ks)) {
		/* a share: counters that say more than all (a multiplexed or
		 * damaged count) are held to it */
		ks = (struct pm_pair){ fmin(fmax(ks.old, 0), 1), fmin(fmax(ks.new, 0), 1) };
		c->kernel_ns = (struct pm_pair){ ks.old * c->med_old, ks.new * c->med_new };
		c->user_ns = (struct pm_pair){ (1 - ks.old) * c->med_old,
					       (1 - ks.new) * c->med_new };
	} else {
		c->kernel_ns = c->user_ns = (struct pm_pair){ NAN, NAN };
		c->split_source = NULL;
	}

	/* symbols */
	c->hot_old = side_has_hotspots(old, c->name, &ks_old);
	c->hot_new = side_has_hotspots(new, c->name, &ks_new);
	c->have_hotspots = c->hot_old && c->hot_new;
	c->have_kernel_syms = ks_old && ks_new;
	if (c->have_hotspots) {
		add_side_symbols(c, old, false);
		add_side_symbols(c, new, true);
		for (i = 0; i < c->nsyms; i++) {
			struct pm_sym_delta *d = &c->syms[i];

			d->is_new = d->old_share == 0 && d->new_share > 0;
			d->vanished = d->new_share == 0 && d->old_share > 0;
		}
		pm_sort(c->syms, c->nsyms, sizeof(*c->syms), cmp_delta);
		for (i = 0; i < c->nsyms; i++) {
			c->trap_ns.old += c->syms[i].old_trap_ns;
			c->trap_ns.new += c->syms[i].new_trap_ns;
		}
	}

	/* counters */
	c->instructions = counter_pair(old, new, c->name, "instructions", 0);
	c->cycles = counter_pair(old, new, c->name, "cycles", 0);
	c->have_counters = pair_ok(c->instructions) && pair_ok(c->cycles);
	c->ipc = (struct pm_pair){ c->instructions.old / c->cycles.old,
				   c->instructions.new / c->cycles.new };
	misses = counter_pair(old, new, c->name, "icache", 0);
	c->icache_mpki = mpki(misses, c->instructions);
	misses = counter_pair(old, new, c->name, "itlb", 0);
	c->itlb_mpki = mpki(misses, c->instructions);
	misses = counter_pair(old, new, c->name, "branch-misses", 0);
	c->branch_mpki = mpki(misses, c->instructions);
	c->faults = counter_pair(old, new, c->name, "page-faults", 0);
	c->ctxsw = counter_pair(old, new, c->name, "context-switches", 0);
	c->migrations = counter_pair(old, new, c->name, "cpu-migrations", 0);
	c->task_clock = counter_pair(old, new, c->name, "task-clock", 0);
	gather_scaling(c, old, new);
}

/* ---- fingerprint differences ---- */

static char *value_text(const json_t *j)
{
	if (!j || json_is_null(j))
		return NULL;
	if (json_is_string(j))
		return pm_xstrdup(json_string_value(j));
	if (json_is_integer(j))
		return pm_xasprintf("%lld", (long long)json_integer_value(j));
	if (json_is_real(j))
		return pm_xasprintf("%g", json_real_value(j));
	if (json_is_boolean(j))
		return pm_xstrdup(json_is_true(j) ? "yes" : "no");
	return json_dumps(j, JSON_COMPACT | JSON_SORT_KEYS);
}

static void add_diff(struct pm_explanation *x, const char *key, char *o, char *n)
{
	struct pm_fp_diff *d;

	x->diffs = pm_xgrow(x->diffs, x->ndiffs, sizeof(*x->diffs));
	d = &x->diffs[x->ndiffs++];
	d->key = pm_xstrdup(key);
	d->old = o ? o : pm_xstrdup("(unknown)");
	d->new = n ? n : pm_xstrdup("(unknown)");
}

/* The fingerprint items rules look at, compared as text. */
static const enum pm_fp_key fp_keys[] = {
	PM_FP_HOSTNAME, PM_FP_KERNEL_RELEASE, PM_FP_KERNEL_VERSION,
	PM_FP_KERNEL_COMPILER, PM_FP_KERNEL_CMDLINE, PM_FP_KERNEL_PREEMPTION,
	PM_FP_KERNEL_PREEMPTION_DYNAMIC, PM_FP_KERNEL_HZ,
	PM_FP_KERNEL_PAGE_TABLE_LEVELS, PM_FP_KERNEL_PARAVIRT,
	PM_FP_KERNEL_TEXT_SIZE, PM_FP_CPU_VENDOR, PM_FP_CPU_MODEL_NAME,
	PM_FP_CPU_FAMILY, PM_FP_CPU_MODEL, PM_FP_CPU_MICROCODE, PM_FP_CPU_ONLINE,
	PM_FP_CPU_GOVERNOR, PM_FP_CPU_CUR_MHZ, PM_FP_CPU_MAX_MHZ, PM_FP_CPU_SMT,
	PM_FP_MITIGATIONS, PM_FP_CLOCKSOURCE_CURRENT, PM_FP_HYPERVISOR_VENDOR,
	PM_FP_THP_ENABLED, PM_FP_THP_DEFRAG, PM_FP_MEMORY_NUMA_NODES,
	PM_FP_PERF_EVENT_PARANOID, PM_FP_LIBC, PM_FP_PROCESS_TRACER, PM_FP_PROCESS_WRAPPER,
	PM_FP_PROCESS_PRELOAD, PM_FP_PROCESS_SECCOMP_FILTERS,
};

/* Members of object item k added, removed or changed ("n" when absent). */
static void diff_members(struct pm_explanation *x, const json_t *so,
			 const json_t *sn, enum pm_fp_key k, bool only_both)
{
	const json_t *o = pm_sysinfo_at(so, k), *n = pm_sysinfo_at(sn, k), *vo, *vn;
	const char *member;
	char *key;

	if (!json_is_object(o) || !json_is_object(n))
		return;
	json_object_foreach((json_t *)o, member, vo) {
		vn = json_object_get(n, member);
		if (only_both && (!json_is_string(vo) || !json_is_string(vn)))
			continue;
		if (vn && json_equal(vo, vn))
			continue;
		key = pm_xasprintf("%s.%s", pm_fp_key(k), member);
		add_diff(x, key, value_text(vo), vn ? value_text(vn) : pm_xstrdup("n"));
		free(key);
	}
	if (only_both)
		return;
	json_object_foreach((json_t *)n, member, vn) {
		if (json_object_get(o, member))
			continue;
		key = pm_xasprintf("%s.%s", pm_fp_key(k), member);
		add_diff(x, key, pm_xstrdup("n"), value_text(vn));
		free(key);
	}
}

bool pm_fp_compared(enum pm_fp_key k)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(fp_keys); i++)
		if (fp_keys[i] == k)
			return true;
	/* their members are compared one by one */
	return k == PM_FP_VULNERABILITIES || k == PM_FP_KERNEL_CONFIG;
}

void pm_fingerprint_diff(struct pm_explanation *x)
{
	const json_t *so = x->old->runs[0].sysinfo, *sn = x->new->runs[0].sysinfo;
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(fp_keys); i++) {
		char *a = value_text(pm_sysinfo_at(so, fp_keys[i]));
		char *b = value_text(pm_sysinfo_at(sn, fp_keys[i]));

		/* unknown on either side is not a difference */
		if (a && b && strcmp(a, b)) {
			add_diff(x, pm_fp_key(fp_keys[i]), a, b);
			continue;
		}
		free(a);
		free(b);
	}
	/* every vulnerability's mitigation, where both sides report it */
	diff_members(x, so, sn, PM_FP_VULNERABILITIES, true);
	/* kernel config: options added, removed or changed */
	diff_members(x, so, sn, PM_FP_KERNEL_CONFIG, false);
}

const struct pm_fp_diff *pm_find_diff(const struct pm_explanation *x,
				      const char *key)
{
	size_t i;

	for (i = 0; i < x->ndiffs; i++)
		if (!strcmp(x->diffs[i].key, key))
			return &x->diffs[i];
	return NULL;
}

const struct pm_fp_diff *pm_fp_find(const struct pm_explanation *x, enum pm_fp_key k)
{
	return pm_find_diff(x, pm_fp_key(k));
}

const struct pm_fp_diff *pm_fp_find_member(const struct pm_explanation *x,
					   enum pm_fp_key k, const char *member)
{
	char *key = pm_xasprintf("%s.%s", pm_fp_key(k), member);
	const struct pm_fp_diff *d = pm_find_diff(x, key);

	free(key);
	return d;
}

const char *pm_fp_diff_member(const struct pm_fp_diff *d, enum pm_fp_key k)
{
	const char *key = pm_fp_key(k);
	size_t n = strlen(key);

	if (strncmp(d->key, key, n) || d->key[n] != '.')
		return NULL;
	return d->key + n + 1;
}
