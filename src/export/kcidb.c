/*
 * KernelCI's KCIDB submission (the I/O schema of kernelci/kcidb-io,
 * major versions 4 and 5): the kernel a side ran as a checkout (its
 * release and version string) and a build (architecture, compiler,
 * configuration), each benchmark a test of that build with its figure
 * as the test's number.  An explanation adds what explain found to NEW's
 * tests: the verdict as the status, the comparison and the first cause
 * in misc.
 *
 * Ids are "ORIGIN:pmbench-KIND-KEY", KEY a 64-bit FNV-1a hash of what
 * identifies the object (the fingerprint's items, the runs' times and
 * trials), so that exporting the same files again gives the same ids
 * and KCIDB merges the submissions instead of counting a run twice.
 * KCIDB allows no nulls: what a file does not know is left out.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export/export.h"
#include "results/result.h"
#include "sysinfo/sysinfo.h"
#include "util/table.h"

#define FNV_INIT 0xcbf29ce484222325ull
/* KCIDB's limit on a log excerpt, in characters */
#define EXCERPT_MAX 16384

bool pm_kcidb_origin_valid(const char *s)
{
	if (!s || !*s)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

/* ---- keys and ids ---- */

/* s and a separator, so that ("ab", "c") and ("a", "bc") differ */
static uint64_t fnv(uint64_t h, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	do {
		h ^= *p;
		h *= 0x100000001b3ull;
	} while (*p++);
	return h;
}

static uint64_t fnv_num(uint64_t h, double v)
{
	char b[32];

	snprintf(b, sizeof(b), "%.17g", v);
	return fnv(h, b);
}

static const char *fp_str(const struct pm_result *r, enum pm_fp_key k)
{
	const json_t *j = pm_sysinfo_at(r->sysinfo, k);

	return json_is_string(j) && *json_string_value(j) ? json_string_value(j) : NULL;
}

/* The kernel configuration: its options, sorted, as one text. */
static uint64_t config_hash(const struct pm_result *r, size_t *nopts)
{
	const json_t *c = pm_sysinfo_at(r->sysinfo, PM_FP_KERNEL_CONFIG);
	char *text;
	uint64_t h;

	*nopts = json_is_object(c) ? json_object_size(c) : 0;
	if (!*nopts)
		return 0;
	text = json_dumps(c, JSON_SORT_KEYS | JSON_COMPACT);
	h = fnv(FNV_INIT, text);
	free(text);
	return h;
}

/* The runs of a side: when each was taken, where, and what it measured. */
static uint64_t runs_key(const struct pm_side *s)
{
	uint64_t h = FNV_INIT;
	size_t i, k, t;

	for (i = 0; i < s->nruns; i++) {
		const struct pm_result *r = &s->runs[i];

		h = fnv(h, r->created);
		h = fnv(h, fp_str(r, PM_FP_HOSTNAME));
		h = fnv(h, r->source);
		h = fnv(h, r->label);
		for (k = 0; k < r->nbench; k++) {
			h = fnv(h, r->bench[k].name);
			for (t = 0; t < r->bench[k].ntrials; t++)
				h = fnv_num(h, r->bench[k].trials[t]);
		}
	}
	return h;
}

struct side {
	struct pm_result m;		/* the side's files merged */
	size_t files;
	uint64_t checkout, build, runs;	/* keys */
	uint64_t config;
	size_t nopts;
	char *checkout_id, *build_id;
};

static int side_open(struct side *d, const struct pm_side *s, const struct pm_kcidb_opts *o,
		     struct pm_err *e)
{
	const struct pm_result *m = &d->m;
	int err;

	memset(d, 0, sizeof(*d));
	err = pm_result_merge(&d->m, s->runs, s->nruns, e);
	if (err) {
		pm_result_free(&d->m);
		return err;
	}
	d->files = s->nruns;
	d->checkout = fnv(fnv(FNV_INIT, fp_str(m, PM_FP_KERNEL_RELEASE)),
			  fp_str(m, PM_FP_KERNEL_VERSION));
	d->config = config_hash(m, &d->nopts);
	d->build = fnv_num(fnv(fnv(d->checkout, fp_str(m, PM_FP_KERNEL_MACHINE)),
			       fp_str(m, PM_FP_KERNEL_COMPILER)), (double)d->config);
	d->runs = runs_key(s);
	d->checkout_id = pm_xasprintf("%s:pmbench-checkout-%016llx", o->origin,
				      (unsigned long long)d->checkout);
	d->build_id = pm_xasprintf("%s:pmbench-build-%016llx", o->origin,
				   (unsigned long long)d->build);
	return 0;
}

static void side_close(struct side *d)
{
	pm_result_free(&d->m);
	free(d->checkout_id);
	free(d->build_id);
}

static char *test_id(const struct pm_kcidb_opts *o, const struct side *d,
		     const struct side *base, const char *bench)
{
	if (base)
		return pm_xasprintf("%s:pmbench-test-%016llx-vs-%016llx-%s", o->origin,
				    (unsigned long long)d->runs, (unsigned long long)base->runs,
				    bench);
	return pm_xasprintf("%s:pmbench-test-%016llx-%s", o->origin,
			    (unsigned long long)d->runs, bench);
}

/* ---- values ---- */

/* A string member, left out when there is none. */
static void set_str(json_t *o, const char *k, const char *v)
{
	if (v && *v)
		json_object_set_new(o, k, pm_json_text(v));
}

/* A number member, left out when it is not one. */
static void set_num(json_t *o, const char *k, double v)
{
	if (isfinite(v))
		json_object_set_new(o, k, json_real(v));
}

/* RFC 3339, as the schema's date-time: what pmbench writes ("...Z"). */
static bool date_time(const char *s)
{
	int y, mo, d, h, mi, sec;
	char z;

	return s && strlen(s) == 20 &&
	       sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &y, &mo, &d, &h, &mi, &sec, &z) == 7 &&
	       z == 'Z';
}

/*
 * A value of b as KCIDB's number: SI base units with the prefix to
 * scale them by when shown, so that every lab's figures compare (160 ns
 * is 1.6e-7 s, "metric").  lmbench's MB is 2^20 bytes.
 */
struct kval {
	double v;
	const char *unit, *prefix;
};

static struct kval kvalue(const struct pm_bench_result *b, double ns)
{
	if (b->measured)
		return (struct kval){ ns, b->unit, NULL };
	if (b->unit && !strcmp(b->unit, "MB/s"))
		return (struct kval){ pm_bench_result_value(b, ns) * 1048576.0, "B/s", "binary" };
	if (b->unit && !strcmp(b->unit, "ops/s"))
		return (struct kval){ pm_bench_result_value(b, ns), "ops/s", "metric" };
	return (struct kval){ ns * 1e-9, "s", "metric" };
}

static json_t *number_json(const struct pm_bench_result *b, double ns)
{
	struct kval k = kvalue(b, ns);
	json_t *n;

	if (!isfinite(k.v))
		return NULL;
	n = json_pack("{s:f}", "value", k.v);
	set_str(n, "unit", k.unit);
	set_str(n, "prefix", k.prefix);
	return n;
}

/* The figure's interval, in the number's unit. */
static json_t *interval_json(const struct pm_bench_result *b, const struct pm_figure *f)
{
	struct kval lo = kvalue(b, f->lo), hi = kvalue(b, f->hi);
	json_t *o;

	if (!isfinite(lo.v) || !isfinite(hi.v))
		return NULL;
	/* a rate's low end is the time's high end */
	o = json_pack("{s:f,s:f,s:f,s:s,s:I}", "low", fmin(lo.v, hi.v), "high",
		      fmax(lo.v, hi.v), "level", f->level, "basis",
		      pm_figure_basis_name(f->basis), "n", (json_int_t)f->n);
	set_str(o, "unit", lo.unit);
	return o;
}

/* ---- checkouts and builds ---- */

static json_t *checkout_json(const struct side *d, const struct pm_kcidb_opts *o)
{
	const char *rel = fp_str(&d->m, PM_FP_KERNEL_RELEASE);
	const char *ver = fp_str(&d->m, PM_FP_KERNEL_VERSION);
	json_t *c = json_pack("{s:s,s:s,s:b}", "id", d->checkout_id, "origin", o->origin,
			      "valid", 1);
	json_t *misc = json_object();
	char *comment = pm_xasprintf("Linux %s%s%s", rel ? rel : "(release unknown)",
				     ver ? " " : "", ver ? ver : "");

	set_str(c, "comment", comment);
	free(comment);
	set_str(misc, "kernel_release", rel);
	set_str(misc, "kernel_version", ver);
	set_str(misc, "source", d->m.source);
	json_object_set_new(c, "misc", misc);
	return c;
}

static bool arch_ok(const char *s)
{
	for (; s && *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return s != NULL;
}

static json_t *build_json(const struct side *d, const struct pm_kcidb_opts *o)
{
	const char *mach = fp_str(&d->m, PM_FP_KERNEL_MACHINE);
	const char *cc = fp_str(&d->m, PM_FP_KERNEL_COMPILER);
	json_t *b = json_pack("{s:s,s:s,s:s}", "id", d->build_id, "checkout_id",
			      d->checkout_id, "origin", o->origin);
	json_t *misc = json_object(), *j;
	char hash[24];

	if (arch_ok(mach))
		set_str(b, "architecture", mach);
	set_str(b, "compiler", cc);
	/* the kernel booted and ran the benchmarks */
	if (o->major >= 5)
		json_object_set_new(b, "status", json_string("PASS"));
	else
		json_object_set_new(b, "valid", json_true());
	if (d->nopts) {
		snprintf(hash, sizeof(hash), "%016llx", (unsigned long long)d->config);
		json_object_set_new(b, "config_name", json_sprintf("config-%s", hash));
		set_str(misc, "config_hash", hash);
		json_object_set_new(misc, "config_options", json_integer((json_int_t)d->nopts));
	}
	set_str(misc, "machine", mach);
	set_str(misc, "config_source", fp_str(&d->m, PM_FP_KERNEL_CONFIG_SOURCE));
	set_str(misc, "preemption", fp_str(&d->m, PM_FP_KERNEL_PREEMPTION));
	j = (json_t *)pm_sysinfo_at(d->m.sysinfo, PM_FP_KERNEL_HZ);
	if (json_is_integer(j))
		json_object_set(misc, "hz", j);
	json_object_set_new(b, "misc", misc);
	return b;
}

/* Add the side's checkout and build unless the other side's are them. */
static void add_kernel(json_t *sub, const struct side *d, const struct pm_kcidb_opts *o)
{
	json_t *cs = json_object_get(sub, "checkouts"), *bs = json_object_get(sub, "builds"), *x;
	size_t i;
	bool have = false;

	json_array_foreach(cs, i, x)
		have |= !strcmp(json_string_value(json_object_get(x, "id")), d->checkout_id);
	if (!have)
		json_array_append_new(cs, checkout_json(d, o));
	have = false;
	json_array_foreach(bs, i, x)
		have |= !strcmp(json_string_value(json_object_get(x, "id")), d->build_id);
	if (!have)
		json_array_append_new(bs, build_json(d, o));
}

/* ---- tests ---- */

static json_t *environment_json(const struct side *d)
{
	const char *host = fp_str(&d->m, PM_FP_HOSTNAME);
	const char *cpu = fp_str(&d->m, PM_FP_CPU_MODEL_NAME);
	const json_t *n = pm_sysinfo_at(d->m.sysinfo, PM_FP_CPU_ONLINE);
	json_t *env = json_object(), *misc = json_object();
	char *comment;

	if (json_is_integer(n))
		comment = pm_xasprintf("%s: %s, %lld CPUs", host ? host : "host unknown",
				       cpu ? cpu : "CPU unknown", (long long)json_integer_value(n));
	else
		comment = pm_xasprintf("%s: %s", host ? host : "host unknown",
				       cpu ? cpu : "CPU unknown");
	set_str(env, "comment", comment);
	free(comment);
	set_str(misc, "hostname", host);
	set_str(misc, "cpu_model", cpu);
	if (json_is_integer(n))
		json_object_set_new(misc, "cpus_online", json_integer(json_integer_value(n)));
	set_str(misc, "kernel_cmdline", fp_str(&d->m, PM_FP_KERNEL_CMDLINE));
	set_str(misc, "hypervisor", fp_str(&d->m, PM_FP_HYPERVISOR_VENDOR));
	set_str(misc, "mitigations", fp_str(&d->m, PM_FP_MITIGATIONS));
	json_object_set_new(env, "misc", misc);
	return env;
}

/* Counters per op, and why the others are not known. */
static void counters_misc(json_t *misc, const struct pm_bench_result *b)
{
	json_t *ok = json_object(), *na = json_object();
	size_t i;

	for (i = 0; i < b->counters.n; i++) {
		const struct pm_counter_value *v = &b->counters.v[i];

		if (v->status == PM_CV_OK && isfinite(v->per_op))
			json_object_set_new(ok, v->name, json_real(v->per_op));
		else
			json_object_set_new(na, v->name, pm_json_text(v->reason ? v->reason :
				pm_cv_status_names[v->status]));
	}
	if (json_object_size(ok))
		json_object_set_new(misc, "counters_per_op", ok);
	else
		json_decref(ok);
	if (json_object_size(na))
		json_object_set_new(misc, "counters_unavailable", na);
	else
		json_decref(na);
}

static json_t *test_misc(const struct side *d, const struct pm_bench_result *b,
			 const struct pm_figure *f, bool have_fig)
{
	json_t *misc = json_object(), *iv;

	set_str(misc, "benchmark", b->name);
	set_str(misc, "group", b->group);
	set_str(misc, "pmbench_unit", b->unit);
	set_str(misc, "lmbench", b->lmbench);
	set_str(misc, "aim9", b->aim9);
	set_str(misc, "pmbench_version", d->m.version);
	set_str(misc, "source", d->m.source);
	set_str(misc, "label", d->m.label);
	json_object_set_new(misc, "result_files", json_integer((json_int_t)d->files));
	json_object_set_new(misc, "runs", json_integer((json_int_t)pm_bench_result_nruns(b)));
	if (have_fig && (iv = interval_json(b, f)))
		json_object_set_new(misc, "interval", iv);
	set_str(misc, "reason", b->reason);
	counters_misc(misc, b);
	return misc;
}

static json_t *test_json(const struct side *d, const struct pm_bench_result *b, char *id,
			 const struct pm_kcidb_opts *o)
{
	json_t *t = json_pack("{s:s,s:s,s:s}", "id", id, "build_id", d->build_id,
			      "origin", o->origin), *num = NULL;
	struct pm_figure f;
	bool have_fig = b->status == PM_BENCH_OK && pm_bench_figure(b, PM_FIGURE_LEVEL, &f) == 0;
	char *path = pm_xasprintf("pmbench.%s", b->name), *p, *comment;

	free(id);
	/* a path is dotted words of [a-zA-Z0-9_-] */
	for (p = path + strlen("pmbench."); *p; p++)
		if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') ||
		      (*p >= '0' && *p <= '9') || *p == '_' || *p == '-'))
			*p = '_';
	json_object_set_new(t, "path", json_string(path));
	free(path);
	comment = pm_xasprintf("%s: %s", b->name, b->summary ? b->summary : "pmbench benchmark");
	set_str(t, "comment", comment);
	free(comment);
	json_object_set_new(t, "status", json_string(b->status == PM_BENCH_OK ? "DONE" :
		b->status == PM_BENCH_UNSUPPORTED ? "SKIP" : "ERROR"));
	if (have_fig && (num = number_json(b, f.value)))
		json_object_set_new(t, "number", num);
	if (date_time(d->m.created))
		set_str(t, "start_time", d->m.created);
	set_num(t, "duration", b->elapsed_s);
	if (b->status != PM_BENCH_OK)
		set_str(t, "log_excerpt", b->reason);
	json_object_set_new(t, "environment", environment_json(d));
	json_object_set_new(t, "misc", test_misc(d, b, &f, have_fig));
	return t;
}

/* ---- the submission ---- */

static json_t *submission(const struct pm_kcidb_opts *o)
{
	/* the first minor of each major with everything written here */
	return json_pack("{s:{s:i,s:i},s:[],s:[],s:[]}", "version", "major", o->major, "minor",
			 o->major >= 5 ? 0 : 4, "checkouts", "builds", "tests");
}

static bool wanted(const struct pm_kcidb_opts *o, const char *name)
{
	return !o->only || !strcmp(o->only, name);
}

int pm_kcidb_side(json_t **out, const struct pm_side *s, const struct pm_kcidb_opts *o,
		  struct pm_err *e)
{
	struct side d;
	json_t *sub, *tests;
	size_t i;
	int err = side_open(&d, s, o, e);

	if (err)
		return err;
	if (o->only && !pm_result_find(&d.m, o->only)) {
		side_close(&d);
		return pm_err_set(e, -EINVAL, "benchmark '%s' is not in %s", o->only, s->name);
	}
	sub = submission(o);
	tests = json_object_get(sub, "tests");
	add_kernel(sub, &d, o);
	for (i = 0; i < d.m.nbench; i++)
		if (wanted(o, d.m.bench[i].name))
			json_array_append_new(tests, test_json(&d, &d.m.bench[i],
				test_id(o, &d, NULL, d.m.bench[i].name), o));
	side_close(&d);
	*out = sub;
	return 0;
}

static const struct pm_bench_cmp *cmp_of(const struct pm_explanation *x, const char *name)
{
	size_t i;

	for (i = 0; i < x->ncmp; i++)
		if (!strcmp(x->cmp[i].name, name))
			return &x->cmp[i];
	return NULL;
}

static const char *verdict_status(enum pm_verdict v)
{
	switch (v) {
	case PM_REGRESSION:
		return "FAIL";
	case PM_IMPROVEMENT:
	case PM_NO_CHANGE:
		return "PASS";
	case PM_INCONCLUSIVE:
	case PM_CHANGED:
		break;
	}
	return "DONE";	/* measured, nothing decided */
}

static json_t *cause_json(const struct pm_cause *k)
{
	json_t *o = json_pack("{s:s,s:s,s:f,s:b}", "rule", k->rule, "title", k->title,
			      "confidence", k->confidence, "proven", k->proof != NULL);

	set_str(o, "sentence", k->sentence);
	set_str(o, "proof", k->proof);
	set_str(o, "mechanism", k->mechanism);
	set_str(o, "switched_by", k->switched_by);
	return o;
}

/* What explain found, in the number's unit (and ratios of times). */
static json_t *comparison_json(const struct pm_bench_cmp *c, const char *baseline)
{
	struct kval a = kvalue(c->ref_new, c->med_old), b = kvalue(c->ref_new, c->med_new);
	json_t *o = json_pack("{s:s,s:s,s:s}", "baseline_test_id", baseline, "verdict",
			      pm_verdict_name(c->verdict), "compared", pm_unit_name(c->unit));

	set_num(o, "old", a.v);
	set_num(o, "new", b.v);
	set_str(o, "unit", a.unit);
	set_num(o, "time_ratio", pm_report_change(c));
	set_num(o, "time_ratio_low", c->ci_low);
	set_num(o, "time_ratio_high", c->ci_high);
	set_num(o, "level", c->level);
	set_num(o, "p_value", c->p_value);
	set_num(o, "margin", c->margin);
	json_object_set_new(o, "units_old", json_integer((json_int_t)c->n_old));
	json_object_set_new(o, "units_new", json_integer((json_int_t)c->n_new));
	set_str(o, "machine", c->machine_note);
	set_str(o, "settle", c->settle);
	json_object_set_new(o, "causes", json_integer((json_int_t)c->ncauses));
	return o;
}

/* explain's text for the benchmark, cut to KCIDB's limit. */
static void excerpt(json_t *t, const struct pm_bench_cmp *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	pm_report_bench(c, m, false);
	fclose(m);
	buf[pm_text_prefix(buf, EXCERPT_MAX)] = '\0';
	set_str(t, "log_excerpt", buf);
	free(buf);
}

/* NEW's test of a benchmark explain compared: its status and misc say
 * what explain found against OLD's test. */
static void add_comparison(json_t *t, const struct pm_bench_cmp *c, const char *baseline)
{
	json_t *misc = json_object_get(t, "misc");

	json_object_set_new(t, "status", json_string(verdict_status(c->verdict)));
	json_object_set_new(misc, "comparison", comparison_json(c, baseline));
	if (c->ncauses)
		json_object_set_new(misc, "first_cause", cause_json(&c->causes[0]));
	excerpt(t, c);
}

static void explanation_tests(json_t *tests, const struct pm_explanation *x,
			      const struct side *old, const struct side *new,
			      const struct pm_kcidb_opts *o)
{
	size_t i;

	for (i = 0; i < old->m.nbench; i++)
		if (wanted(o, old->m.bench[i].name))
			json_array_append_new(tests, test_json(old, &old->m.bench[i],
				test_id(o, old, NULL, old->m.bench[i].name), o));
	for (i = 0; i < new->m.nbench; i++) {
		const struct pm_bench_result *b = &new->m.bench[i];
		const struct pm_bench_cmp *c = cmp_of(x, b->name);
		char *base;
		json_t *t;

		if (!wanted(o, b->name))
			continue;
		t = test_json(new, b, test_id(o, new, c ? old : NULL, b->name), o);
		if (c) {
			base = test_id(o, old, NULL, b->name);
			add_comparison(t, c, base);
			free(base);
		}
		json_array_append_new(tests, t);
	}
}

int pm_kcidb_explanation(json_t **out, const struct pm_explanation *x,
			 const struct pm_kcidb_opts *o, struct pm_err *e)
{
	struct side old, new;
	json_t *sub;
	int err = side_open(&old, x->old, o, e);

	if (err)
		return err;
	err = side_open(&new, x->new, o, e);
	if (err) {
		side_close(&old);
		return err;
	}
	if (new.runs == old.runs) {
		side_close(&old);
		side_close(&new);
		return pm_err_set(e, -EINVAL, "%s and %s hold the same runs: nothing to compare "
				  "(export one alone)", x->old->name, x->new->name);
	}
	sub = submission(o);
	add_kernel(sub, &old, o);
	add_kernel(sub, &new, o);
	explanation_tests(json_object_get(sub, "tests"), x, &old, &new, o);
	side_close(&old);
	side_close(&new);
	*out = sub;
	return 0;
}
