/*
 * Result files: the C structures, and the reader, JSON -> C (jansson),
 * which validates everything and names the file and the JSON path of
 * what is wrong.  The writer is write.c, above the figure it writes.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/exercise.h"
#include "results/result.h"
#include "sysinfo/keys.h"
#include "sysinfo/sysinfo.h"

void pm_result_init(struct pm_result *r)
{
	memset(r, 0, sizeof(*r));
	r->schema = PM_RESULT_SCHEMA;
}

void pm_counter_values_free(struct pm_counted_pass *cp)
{
	size_t i;

	for (i = 0; i < cp->n; i++) {
		free(cp->v[i].name);
		free(cp->v[i].event);
		free(cp->v[i].reason);
	}
	free(cp->v);
	cp->v = NULL;
	cp->n = 0;
}

void pm_bench_result_free(struct pm_bench_result *b)
{
	free(b->name);
	free(b->group);
	free(b->summary);
	free(b->unit);
	free(b->lmbench);
	free(b->aim9);
	free(b->reason);
	free(b->placement);
	free(b->params);
	free(b->trials);
	free(b->rounds);
	pm_counter_values_free(&b->counters);
	json_decref(b->hotspots);
	json_decref(b->emulated);
	json_decref(b->detail);
	json_decref(b->scaling);
	json_decref(b->workload);
	memset(b, 0, sizeof(*b));
}

void pm_result_free(struct pm_result *r)
{
	size_t i;

	for (i = 0; i < r->nbench; i++)
		pm_bench_result_free(&r->bench[i]);
	free(r->bench);
	free(r->source);
	free(r->created);
	free(r->version);
	free(r->label);
	free(r->path);
	json_decref(r->command);
	json_decref(r->options);
	json_decref(r->sysinfo);
	json_decref(r->runs);
	memset(r, 0, sizeof(*r));
}

struct pm_bench_result *pm_result_add(struct pm_result *r)
{
	struct pm_bench_result *b;

	r->bench = pm_xgrow(r->bench, r->nbench, sizeof(*r->bench));
	b = &r->bench[r->nbench++];
	memset(b, 0, sizeof(*b));
	pm_bench_result_defaults(b);
	return b;
}

void pm_bench_result_defaults(struct pm_bench_result *b)
{
	b->cpu = -1;
	b->ops_per_iter = 1;
	b->counters.ns_per_op = b->counters.perturbation = b->counters.waited = NAN;
	b->counters.ru_user_ns = b->counters.ru_sys_ns = NAN;
	b->reference_ns = NAN;
	b->busy = NAN;
	b->waited = NAN;
	b->others = NAN;
}

const struct pm_bench_result *pm_result_find(const struct pm_result *r,
					     const char *name)
{
	size_t i;

	for (i = 0; i < r->nbench; i++)
		if (!strcmp(r->bench[i].name, name))
			return &r->bench[i];
	return NULL;
}

const struct pm_counter_value *
pm_bench_result_counter(const struct pm_bench_result *b, const char *name)
{
	size_t i;

	for (i = 0; i < b->counters.n; i++)
		if (!strcmp(b->counters.v[i].name, name))
			return &b->counters.v[i];
	return NULL;
}

void pm_bench_result_add_round(struct pm_bench_result *b, const double *v,
			       size_t ntrials, const struct pm_round *r)
{
	b->trials = pm_xrealloc(b->trials, (b->ntrials + ntrials) * sizeof(*b->trials));
	if (ntrials)
		memcpy(b->trials + b->ntrials, v, ntrials * sizeof(*v));
	b->ntrials += ntrials;
	b->rounds = pm_xrealloc(b->rounds, (b->nrounds + 1) * sizeof(*b->rounds));
	b->rounds[b->nrounds] = *r;
	b->rounds[b->nrounds++].ntrials = ntrials;
}

void pm_bench_result_round_medians(const struct pm_bench_result *b, double *med)
{
	size_t i, at = 0;

	for (i = 0; i < b->nrounds; i++) {
		med[i] = pm_median(b->trials + at, b->rounds[i].ntrials);
		at += b->rounds[i].ntrials;
	}
}

unsigned pm_bench_result_nruns(const struct pm_bench_result *b)
{
	unsigned n = 0;
	size_t i, k;

	for (i = 0; i < b->nrounds; i++) {
		for (k = 0; k < i && b->rounds[k].run != b->rounds[i].run; k++)
			;
		n += k == i;
	}
	return n;
}

bool pm_bench_higher_is_better(const struct pm_bench_result *b)
{
	return b->unit && (!strcmp(b->unit, "MB/s") || !strcmp(b->unit, "ops/s"));
}

double pm_bench_result_value(const struct pm_bench_result *b, double ns)
{
	if (!b->unit || isnan(ns) || b->measured)
		return ns;
	/* lmbench's MB: 2^20 bytes */
	if (!strcmp(b->unit, "MB/s"))
		return ns > 0 ? b->bytes_per_op / 1048576.0 / (ns * 1e-9) : NAN;
	if (!strcmp(b->unit, "ops/s"))
		return ns > 0 ? 1e9 / ns : NAN;
	if (!strcmp(b->unit, "us"))
		return ns / 1e3;
	if (!strcmp(b->unit, "ms"))
		return ns / 1e6;
	if (!strcmp(b->unit, "s"))
		return ns / 1e9;
	return ns;
}

/* The statuses as a result file names them. */
const char *const pm_bench_status_names[PM_BENCH_FAILED + 1] = {
	[PM_BENCH_OK] = "ok",
	[PM_BENCH_UNSUPPORTED] = "unsupported",
	[PM_BENCH_FAILED] = "failed",
};

const char *const pm_cv_status_names[PM_CV_NOT_COUNTED + 1] = {
	[PM_CV_OK] = "ok",
	[PM_CV_NOT_SUPPORTED] = "not-supported",
	[PM_CV_NOT_COUNTED] = "not-counted",
};

/* ---- reading ---- */

struct reader {
	const char *file;
	struct pm_err *e;
	char path[256];		/* JSON path of the current node */
};

static int bad(struct reader *rd, const char *key, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int bad(struct reader *rd, const char *key, const char *fmt, ...)
{
	char what[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pm_err_set(rd->e, -EINVAL, "%s: %s%s%s: %s", rd->file, rd->path,
			  key ? "." : "", key ? key : "", what);
}

static const char *jtype(const json_t *j)
{
	switch (json_typeof(j)) {
	case JSON_OBJECT: return "an object";
	case JSON_ARRAY: return "an array";
	case JSON_STRING: return "a string";
	case JSON_INTEGER:
	case JSON_REAL: return "a number";
	case JSON_TRUE:
	case JSON_FALSE: return "a boolean";
	default: return "null";
	}
}

/* A required key absent, or null. */
static int missing(struct reader *rd, const char *key, const json_t *j, const char *what)
{
	if (j)
		return bad(rd, key, "expected %s, found null", what);
	return bad(rd, key, "missing (expected %s)", what);
}

/* Optional string: absent or null gives NULL. */
static int get_str(struct reader *rd, json_t *o, const char *key,
		   bool required, char **out)
{
	json_t *j = json_object_get(o, key);

	*out = NULL;
	if (!j || json_is_null(j)) {
		if (required)
			return missing(rd, key, j, "a string");
		return 0;
	}
	if (!json_is_string(j))
		return bad(rd, key, "expected a string, found %s", jtype(j));
	*out = pm_xstrdup(json_string_value(j));
	return 0;
}

/* What a number may be: times after an overhead is subtracted may be
 * negative; counts, sizes and most times not; shares are fractions. */
enum range { ANY, NONNEG, POSITIVE, SHARE };

static const char *const range_text[] = {
	[ANY] = "a number",
	[NONNEG] = "a number >= 0",
	[POSITIVE] = "a number > 0",
	[SHARE] = "a share in [0, 1]",
};

/* Optional number in a range: absent or null gives NAN. */
static int get_real(struct reader *rd, json_t *o, const char *key,
		    bool required, enum range range, double *out)
{
	json_t *j = json_object_get(o, key);
	double v;

	*out = NAN;
	if (!j || json_is_null(j)) {
		if (required)
			return missing(rd, key, j, range_text[range]);
		return 0;
	}
	if (!json_is_number(j))
		return bad(rd, key, "expected %s, found %s", range_text[range], jtype(j));
	v = json_number_value(j);
	if ((range == NONNEG && v < 0) || (range == POSITIVE && v <= 0) ||
	    (range == SHARE && (v < 0 || v > 1)))
		return bad(rd, key, "%.10g is not %s", v, range_text[range]);
	*out = v;
	return 0;
}

static int get_num(struct reader *rd, json_t *o, const char *key,
		   bool required, double *out)
{
	return get_real(rd, o, key, required, ANY, out);
}

static int get_int(struct reader *rd, json_t *o, const char *key,
		   bool required, long long lo, long long hi, long long *out)
{
	json_t *j = json_object_get(o, key);

	if (!j || json_is_null(j)) {
		if (required)
			return missing(rd, key, j, "an integer");
		return 0;
	}
	if (!json_is_integer(j))
		return bad(rd, key, "expected an integer, found %s", jtype(j));
	*out = json_integer_value(j);
	if (*out < lo && hi == INT64_MAX)
		return bad(rd, key, "%lld is not an integer >= %lld", *out, lo);
	if (*out < lo || *out > hi)
		return bad(rd, key, "%lld is out of range [%lld, %lld]", *out, lo, hi);
	return 0;
}

/* Optional string, checked and not kept. */
static int want_str(struct reader *rd, json_t *o, const char *key, bool required)
{
	char *s;
	int err = get_str(rd, o, key, required, &s);

	free(s);
	return err;
}

/* Optional array: absent or null gives NULL. */
static int get_arr(struct reader *rd, json_t *o, const char *key, json_t **out)
{
	json_t *j = json_object_get(o, key);

	*out = NULL;
	if (!j || json_is_null(j))
		return 0;
	if (!json_is_array(j))
		return bad(rd, key, "expected an array, found %s", jtype(j));
	*out = j;
	return 0;
}

static int get_bool(struct reader *rd, json_t *o, const char *key, bool *out)
{
	json_t *j = json_object_get(o, key);

	*out = false;
	if (!j || json_is_null(j))
		return 0;
	if (!json_is_boolean(j))
		return bad(rd, key, "expected true or false, found %s", jtype(j));
	*out = json_is_true(j);
	return 0;
}

static int get_obj(struct reader *rd, json_t *o, const char *key,
		   bool required, json_t **out)
{
	json_t *j = json_object_get(o, key);

	*out = NULL;
	if (!j || json_is_null(j)) {
		if (required)
			return missing(rd, key, j, "an object");
		return 0;
	}
	if (!json_is_object(j))
		return bad(rd, key, "expected an object, found %s", jtype(j));
	*out = j;
	return 0;
}

static int get_enum(struct reader *rd, json_t *o, const char *key,
		    const char *const *names, size_t n, int *out)
{
	char *s;
	size_t i;
	int err = get_str(rd, o, key, true, &s);

	if (err)
		return err;
	for (i = 0; i < n; i++) {
		if (!strcmp(s, names[i])) {
			*out = (int)i;
			free(s);
			return 0;
		}
	}
	err = bad(rd, key, "unknown value \"%s\"", s);
	free(s);
	return err;
}

/* Descend: append ".key" or "[i]" to the JSON path, return old length. */
static size_t push(struct reader *rd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static size_t push(struct reader *rd, const char *fmt, ...)
{
	size_t len = strlen(rd->path);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rd->path + len, sizeof(rd->path) - len, fmt, ap);
	va_end(ap);
	return len;
}

static void pop(struct reader *rd, size_t len)
{
	rd->path[len] = '\0';
}

static int read_counters(struct reader *rd, json_t *o,
			 struct pm_counted_pass *cp)
{
	json_t *ev, *ru;
	long long v = 0;
	size_t i;
	int err;

	if ((err = get_bool(rd, o, "done", &cp->done)) ||
	    (err = get_int(rd, o, "ops", false, 0, INT64_MAX, &v)))
		return err;
	cp->ops = (uint64_t)v;
	v = 0;
	if ((err = get_num(rd, o, "ns_per_op", false, &cp->ns_per_op)) ||
	    (err = get_num(rd, o, "perturbation", false, &cp->perturbation)) ||
	    (err = get_real(rd, o, "waited", false, NONNEG, &cp->waited)) ||
	    (err = get_bool(rd, o, "inherit", &cp->inherit)) ||
	    (err = get_int(rd, o, "processes", false, 0, 1 << 20, &v)) ||
	    (err = get_obj(rd, o, "rusage", false, &ru)))
		return err;
	cp->processes = (int)v;
	cp->ru_user_ns = cp->ru_sys_ns = NAN;
	if (ru) {
		size_t l = push(rd, ".rusage");

		if ((err = get_real(rd, ru, "user_ns_per_op", false, NONNEG, &cp->ru_user_ns)) ||
		    (err = get_real(rd, ru, "sys_ns_per_op", false, NONNEG, &cp->ru_sys_ns)))
			return err;
		pop(rd, l);
	}
	ev = json_object_get(o, "events");
	if (!ev || json_is_null(ev))
		return 0;
	if (!json_is_array(ev))
		return bad(rd, "events", "expected an array, found %s", jtype(ev));
	cp->n = json_array_size(ev);
	cp->v = pm_xcalloc(cp->n, sizeof(*cp->v));
	for (i = 0; i < cp->n; i++) {
		struct pm_counter_value *c = &cp->v[i];
		json_t *x = json_array_get(ev, i);
		size_t l = push(rd, ".events[%zu]", i);
		int st = 0;

		if (!json_is_object(x))
			return bad(rd, NULL, "expected an object, found %s", jtype(x));
		if ((err = get_str(rd, x, "name", true, &c->name)) ||
		    (err = get_str(rd, x, "event", false, &c->event)) ||
		    (err = get_enum(rd, x, "status", pm_cv_status_names,
				    PM_ARRAY_SIZE(pm_cv_status_names), &st)) ||
		    (err = get_str(rd, x, "reason", false, &c->reason)) ||
		    (err = get_bool(rd, x, "software", &c->software)) ||
		    (err = get_bool(rd, x, "user_only", &c->user_only)) ||
		    (err = get_real(rd, x, "per_op", st == PM_CV_OK, NONNEG, &c->per_op)) ||
		    (err = get_real(rd, x, "user_per_op", false, NONNEG, &c->user)) ||
		    (err = get_real(rd, x, "kernel_per_op", false, NONNEG, &c->kernel)) ||
		    (err = get_real(rd, x, "running", false, SHARE, &c->running)))
			return err;
		c->status = (enum pm_cv_status)st;
		pop(rd, l);
	}
	return 0;
}

/* "rounds" is optional: a file without it is one round of one run. */
static int read_rounds(struct reader *rd, json_t *o, struct pm_bench_result *b)
{
	json_t *a = json_object_get(o, "rounds");
	size_t i, total = 0, l;
	int err;

	if (!a || json_is_null(a)) {
		if (b->ntrials) {
			b->rounds = pm_xcalloc(1, sizeof(*b->rounds));
			b->rounds[0] = (struct pm_round){ .ntrials = b->ntrials,
				.reference_ns = b->reference_ns, .busy = b->busy,
				.waited = b->waited, .others = b->others,
				.started_s = NAN };
			b->nrounds = 1;
		}
		return 0;
	}
	if (!json_is_array(a))
		return bad(rd, "rounds", "expected an array, found %s", jtype(a));
	b->nrounds = json_array_size(a);
	b->rounds = pm_xcalloc(b->nrounds ? b->nrounds : 1, sizeof(*b->rounds));
	for (i = 0; i < b->nrounds; i++) {
		json_t *r = json_array_get(a, i);
		struct pm_round *x = &b->rounds[i];
		long long run = 0, n = 0;

		l = push(rd, ".rounds[%zu]", i);
		if (!json_is_object(r))
			return bad(rd, NULL, "expected an object, found %s", jtype(r));
		x->reference_ns = x->busy = x->waited = x->others = x->started_s = NAN;
		if ((err = get_int(rd, r, "run", false, 0, 1 << 20, &run)) ||
		    (err = get_int(rd, r, "trials", true, 1, INT64_MAX, &n)) ||
		    (err = get_real(rd, r, "reference_ns", false, POSITIVE, &x->reference_ns)) ||
		    (err = get_real(rd, r, "busy", false, NONNEG, &x->busy)) ||
		    (err = get_real(rd, r, "waited", false, NONNEG, &x->waited)) ||
		    (err = get_real(rd, r, "others", false, SHARE, &x->others)) ||
		    (err = get_real(rd, r, "started_s", false, NONNEG, &x->started_s)))
			return err;
		x->run = (unsigned)run;
		x->ntrials = (size_t)n;
		if ((size_t)n > b->ntrials - total)
			return bad(rd, "trials", "the rounds hold more trials than %s (%zu)",
				   b->measured ? "values" : "trials_ns", b->ntrials);
		total += (size_t)n;
		pop(rd, l);
	}
	if (total != b->ntrials)
		return bad(rd, "rounds", "the rounds hold %zu trials, but %s holds %zu",
			   total, b->measured ? "values" : "trials_ns", b->ntrials);
	return 0;
}

/*
 * A workload (pmbench stat): what the renderers and explain read from it
 * must have its type; one run per trial, in order.  Other keys are kept
 * as they are.
 */
static int read_workload(struct reader *rd, json_t *w, struct pm_bench_result *b)
{
	static const char *const times[] = { "elapsed_ns", "user_ns", "system_ns" };
	json_t *runs = json_object_get(w, "runs"), *x, *cmd = json_object_get(w, "command");
	size_t i, k, l;
	int err;

	if (!json_is_array(cmd) || !json_array_size(cmd))
		return bad(rd, "command", "expected a non-empty array of strings");
	json_array_foreach(cmd, i, x)
		if (!json_is_string(x)) {
			push(rd, ".command[%zu]", i);
			return bad(rd, NULL, "expected a string, found %s", jtype(x));
		}
	if (!json_is_array(runs))
		return bad(rd, "runs", runs ? "expected an array, found %s" :
			   "missing (expected an array)%s", runs ? jtype(runs) : "");
	if (json_array_size(runs) != b->ntrials)
		return bad(rd, "runs", "holds %zu runs, but trials_ns holds %zu",
			   json_array_size(runs), b->ntrials);
	json_array_foreach(runs, i, x) {
		json_t *c;

		l = push(rd, ".runs[%zu]", i);
		if (!json_is_object(x))
			return bad(rd, NULL, "expected an object, found %s", jtype(x));
		for (k = 0; k < PM_ARRAY_SIZE(times); k++) {
			double v;

			if ((err = get_num(rd, x, times[k], true, &v)))
				return err;
			if (v < 0)
				return bad(rd, times[k], "negative time %g", v);
		}
		if ((err = get_obj(rd, x, "counters", false, &c)))
			return err;
		pop(rd, l);
	}
	return 0;
}

/* A benchmark's "params": how it ran. */
static int read_params(struct reader *rd, json_t *params, struct pm_bench_result *b)
{
	long long v;
	size_t l;
	int err;

	l = push(rd, ".params");
	v = 0;
	if ((err = get_int(rd, params, "iterations", false, 0, INT64_MAX, &v)))
		return err;
	b->iterations = (uint64_t)v;
	v = 1;
	if ((err = get_int(rd, params, "ops_per_iter", false, 1, 1 << 30, &v)))
		return err;
	b->ops_per_iter = (unsigned)v;
	v = -1;
	if ((err = get_int(rd, params, "cpu", false, -1, 1 << 20, &v)))
		return err;
	b->cpu = (int)v;
	if ((err = get_real(rd, params, "overhead_ns", false, NONNEG, &b->overhead_ns)) ||
	    (err = get_real(rd, params, "bytes_per_op", false, NONNEG, &b->bytes_per_op)) ||
	    (err = get_str(rd, params, "placement", false, &b->placement)) ||
	    (err = get_str(rd, params, "detail", false, &b->params)))
		return err;
	if (isnan(b->bytes_per_op))
		b->bytes_per_op = 0;
	pop(rd, l);
	return 0;
}

/* An interval or order: lo <= hi where both are given. */
static int ordered(struct reader *rd, const char *lo_key, double lo,
		   const char *hi_key, double hi)
{
	if (lo > hi)
		return bad(rd, lo_key, "%.10g is above %s (%.10g)", lo, hi_key, hi);
	return 0;
}

/* A benchmark's "stats", which must agree with its trials. */
static int read_stats(struct reader *rd, json_t *stats, struct pm_bench_result *b)
{
	long long v;
	bool conv;
	size_t l;
	int err;

	l = push(rd, ".stats");
	v = 0;
	if ((err = get_int(rd, stats, "n", false, 0, INT64_MAX, &v)) ||
	    (err = get_num(rd, stats, "median_ns", b->status == PM_BENCH_OK,
			   &b->stats.median)) ||
	    (err = get_num(rd, stats, "ci_low_ns", false, &b->stats.ci_low)) ||
	    (err = get_num(rd, stats, "ci_high_ns", false, &b->stats.ci_high)) ||
	    (err = get_real(rd, stats, "ci_level", false, SHARE, &b->stats.ci_level)) ||
	    (err = get_num(rd, stats, "mean_ns", false, &b->stats.mean)) ||
	    (err = get_real(rd, stats, "stddev_ns", false, NONNEG, &b->stats.stddev)) ||
	    (err = get_num(rd, stats, "min_ns", false, &b->stats.min)) ||
	    (err = get_num(rd, stats, "max_ns", false, &b->stats.max)) ||
	    (err = get_real(rd, stats, "mad_ns", false, NONNEG, &b->stats.mad)) ||
	    (err = get_bool(rd, stats, "converged", &conv)))
		return err;
	b->stats.n = (size_t)v;
	b->converged = conv;
	if (b->stats.n != b->ntrials)
		return bad(rd, "n", "says %zu trials but trials_ns holds %zu",
			   b->stats.n, b->ntrials);
	if ((err = ordered(rd, "ci_low_ns", b->stats.ci_low, "median_ns", b->stats.median)) ||
	    (err = ordered(rd, "median_ns", b->stats.median, "ci_high_ns", b->stats.ci_high)) ||
	    (err = ordered(rd, "ci_low_ns", b->stats.ci_low, "ci_high_ns", b->stats.ci_high)) ||
	    (err = ordered(rd, "min_ns", b->stats.min, "median_ns", b->stats.median)) ||
	    (err = ordered(rd, "median_ns", b->stats.median, "max_ns", b->stats.max)) ||
	    (err = ordered(rd, "min_ns", b->stats.min, "max_ns", b->stats.max)))
		return err;
	pop(rd, l);
	return 0;
}

/* "symbols" and "stacks" of hotspots: what the views and explain read. */
static int read_hotspot_lists(struct reader *rd, json_t *h)
{
	json_t *syms, *stacks, *x;
	long long v;
	double d;
	size_t i, l;
	int err;

	if ((err = get_arr(rd, h, "symbols", &syms)) ||
	    (err = get_arr(rd, h, "stacks", &stacks)))
		return err;
	json_array_foreach(syms, i, x) {
		bool flag;

		l = push(rd, ".symbols[%zu]", i);
		if (!json_is_object(x))
			return bad(rd, NULL, "expected an object, found %s", jtype(x));
		if ((err = want_str(rd, x, "name", true)) ||
		    (err = want_str(rd, x, "object", false)) ||
		    (err = get_bool(rd, x, "kernel", &flag)) ||
		    (err = get_bool(rd, x, "size_exact", &flag)) ||
		    (err = get_int(rd, x, "size", false, 0, INT64_MAX, &v)) ||
		    (err = get_int(rd, x, "samples", true, 0, INT64_MAX, &v)) ||
		    (err = get_int(rd, x, "syscall_samples", false, 0, INT64_MAX, &v)) ||
		    (err = get_int(rd, x, "skid_samples", false, 0, INT64_MAX, &v)) ||
		    (err = get_real(rd, x, "share", true, SHARE, &d)) ||
		    (err = get_num(rd, x, "cost_ns_per_op", false, &d)))
			return err;
		pop(rd, l);
	}
	json_array_foreach(stacks, i, x) {
		l = push(rd, ".stacks[%zu]", i);
		if (!json_is_object(x))
			return bad(rd, NULL, "expected an object, found %s", jtype(x));
		if ((err = want_str(rd, x, "stack", true)) ||
		    (err = get_int(rd, x, "samples", true, 0, INT64_MAX, &v)))
			return err;
		pop(rd, l);
	}
	return 0;
}

/* "skid_symbols": samples per function that re-enabled interrupts. */
static int read_skid_symbols(struct reader *rd, json_t *h)
{
	json_t *o = json_object_get(h, "skid_symbols"), *v;
	const char *name;
	size_t l;

	if (!o || json_is_null(o))
		return 0;
	l = push(rd, ".skid_symbols");
	if (!json_is_object(o))
		return bad(rd, NULL, "expected an object, found %s", jtype(o));
	json_object_foreach(o, name, v)
		if (!json_is_integer(v) || json_integer_value(v) < 0)
			return bad(rd, NULL, "'%s': expected a count, found %s", name, jtype(v));
	pop(rd, l);
	return 0;
}

/*
 * A benchmark's "hotspots" is kept as it is; the keys that are read from
 * it must have their type and range (a share that is a boolean would be
 * shown as "nan%").
 */
static int read_hotspots(struct reader *rd, json_t *h)
{
	static const char *const texts[] = {
		"unavailable", "event", "period_unit", "call_graph", "kernel_symbols",
		"kernel_unavailable", "error",
	};
	static const char *const counts[] = {
		"period", "samples", "lost", "child_samples", "processes", "skid_samples",
	};
	static const char *const shares[] = {
		"kernel_share", "user_share", "resolved_share", "unwound_share",
	};
	static const char *const amounts[] = { "ops", "slowdown", "sampled_cpu_ns_per_op" };
	long long v;
	double d;
	bool flag;
	size_t i;
	int err;

	for (i = 0; i < PM_ARRAY_SIZE(texts); i++)
		if ((err = want_str(rd, h, texts[i], false)))
			return err;
	for (i = 0; i < PM_ARRAY_SIZE(counts); i++)
		if ((err = get_int(rd, h, counts[i], false, 0, INT64_MAX, &v)))
			return err;
	for (i = 0; i < PM_ARRAY_SIZE(shares); i++)
		if ((err = get_real(rd, h, shares[i], false, SHARE, &d)))
			return err;
	for (i = 0; i < PM_ARRAY_SIZE(amounts); i++)
		if ((err = get_real(rd, h, amounts[i], false, NONNEG, &d)))
			return err;
	if ((err = get_bool(rd, h, "kernel_sampled", &flag)) ||
	    (err = read_skid_symbols(rd, h)))
		return err;
	return read_hotspot_lists(rd, h);
}

/* A benchmark's "scaling" (run --instances, --threads). */
static int read_scaling(struct reader *rd, json_t *sc)
{
	static const char *const amounts[] = { "ops_per_s", "ns_per_op", "efficiency" };
	json_t *points, *p;
	long long v;
	double d;
	size_t i, k, l;
	int err;

	if ((err = want_str(rd, sc, "mode", true)) ||
	    (err = want_str(rd, sc, "unavailable", false)) ||
	    (err = get_arr(rd, sc, "points", &points)))
		return err;
	json_array_foreach(points, i, p) {
		l = push(rd, ".points[%zu]", i);
		if (!json_is_object(p))
			return bad(rd, NULL, "expected an object, found %s", jtype(p));
		if ((err = get_int(rd, p, "n", true, 1, INT32_MAX, &v)) ||
		    (err = want_str(rd, p, "error", false)))
			return err;
		for (k = 0; k < PM_ARRAY_SIZE(amounts); k++)
			if ((err = get_real(rd, p, amounts[k], false, NONNEG, &d)))
				return err;
		pop(rd, l);
	}
	return 0;
}

/* {"user": n, "kernel": n} of emulated counts (both required). */
static int read_user_kernel(struct reader *rd, json_t *o, const char *key, bool required)
{
	json_t *j;
	double d;
	size_t l;
	int err;

	if ((err = get_obj(rd, o, key, required, &j)) || !j)
		return err;
	l = push(rd, ".%s", key);
	if ((err = get_real(rd, j, "user", true, NONNEG, &d)) ||
	    (err = get_real(rd, j, "kernel", true, NONNEG, &d)))
		return err;
	pop(rd, l);
	return 0;
}

/* One run's emulated counts of a benchmark (pmbench-result(5)). */
static int read_emulated_run(struct reader *rd, json_t *x)
{
	json_t *br, *m;
	const char *mode;
	long long v;
	double d;
	size_t l;
	int err;

	if (!json_is_object(x))
		return bad(rd, NULL, "expected an object, found %s", jtype(x));
	if ((err = get_int(rd, x, "run", true, 0, INT32_MAX, &v)) ||
	    (err = get_int(rd, x, "windows", true, 1, INT32_MAX, &v)) ||
	    (err = get_real(rd, x, "ops", true, POSITIVE, &d)) ||
	    (err = read_user_kernel(rd, x, "instructions", true)) ||
	    (err = read_user_kernel(rd, x, "window_sd", false)) ||
	    (err = read_user_kernel(rd, x, "icache_misses", false)) ||
	    (err = read_user_kernel(rd, x, "rep_iterations", false)) ||
	    (err = read_user_kernel(rd, x, "harness", false)) ||
	    (err = get_obj(rd, x, "branches", false, &br)))
		return err;
	json_object_foreach(br, mode, m) {
		const char *kind;
		json_t *n;

		l = push(rd, ".branches.%s", mode);
		if (!json_is_object(m))
			return bad(rd, NULL, "expected an object, found %s", jtype(m));
		json_object_foreach(m, kind, n)
			if ((err = get_real(rd, m, kind, true, NONNEG, &d)))
				return err;
		pop(rd, l);
	}
	return 0;
}

/* An emulated kernel profile: symbols and their instructions per op. */
static int read_emulated_profile(struct reader *rd, json_t *p)
{
	json_t *syms, *x;
	double d;
	bool flag;
	size_t i, l;
	int err;

	if ((err = want_str(rd, p, "unavailable", false)) ||
	    (err = want_str(rd, p, "symbols_from", false)) ||
	    (err = get_real(rd, p, "ops", false, POSITIVE, &d)) ||
	    (err = get_real(rd, p, "other", false, NONNEG, &d)) ||
	    (err = get_real(rd, p, "unknown", false, NONNEG, &d)) ||
	    (err = get_arr(rd, p, "symbols", &syms)))
		return err;
	json_array_foreach(syms, i, x) {
		l = push(rd, ".symbols[%zu]", i);
		if (!json_is_object(x))
			return bad(rd, NULL, "expected an object, found %s", jtype(x));
		if ((err = want_str(rd, x, "name", true)) ||
		    (err = get_bool(rd, x, "kernel", &flag)) ||
		    (err = get_real(rd, x, "instructions", true, NONNEG, &d)) ||
		    (err = get_real(rd, x, "rep_iterations", false, NONNEG, &d)))
			return err;
		pop(rd, l);
	}
	return 0;
}

/*
 * A benchmark's "emulated" (the counts of pmbench ab's TCG plugin) is
 * kept as it is; what the views and explain read must have its type.
 */
static int read_emulated(struct reader *rd, json_t *em)
{
	json_t *runs, *x, *ic, *prof;
	long long v;
	size_t i, l;
	int err;

	if ((err = want_str(rd, em, "unavailable", false)) ||
	    (err = get_arr(rd, em, "runs", &runs)) ||
	    (err = get_obj(rd, em, "icache", false, &ic)) ||
	    (err = get_obj(rd, em, "kernel_profile", false, &prof)))
		return err;
	json_array_foreach(runs, i, x) {
		l = push(rd, ".runs[%zu]", i);
		if ((err = read_emulated_run(rd, x)))
			return err;
		pop(rd, l);
	}
	if (ic) {
		l = push(rd, ".icache");
		if ((err = get_int(rd, ic, "size_kib", true, 1, INT32_MAX, &v)) ||
		    (err = get_int(rd, ic, "ways", true, 1, INT32_MAX, &v)) ||
		    (err = get_int(rd, ic, "line", true, 1, INT32_MAX, &v)))
			return err;
		pop(rd, l);
	}
	if (prof) {
		l = push(rd, ".kernel_profile");
		if ((err = read_emulated_profile(rd, prof)))
			return err;
		pop(rd, l);
	}
	return 0;
}

/*
 * "exercises": the names of what the benchmark exercises; files before it
 * have none.  A name this pmbench does not know (a newer one's) is passed
 * over, not an error.
 */
static int read_exercises(struct reader *rd, json_t *o, struct pm_bench_result *b)
{
	json_t *a = json_object_get(o, "exercises"), *x;
	size_t i;

	if (!a || json_is_null(a))
		return 0;
	if (!json_is_array(a))
		return bad(rd, "exercises", "expected an array of strings, found %s", jtype(a));
	json_array_foreach(a, i, x) {
		if (!json_is_string(x)) {
			push(rd, ".exercises[%zu]", i);
			return bad(rd, NULL, "expected a string, found %s", jtype(x));
		}
		b->exercises |= pm_exercise_find(json_string_value(x));
	}
	return 0;
}

/* An object kept as it is, read by its own reader (path pushed). */
static int read_kept(struct reader *rd, const char *key, json_t *j,
		     int (*reader)(struct reader *, json_t *), json_t **keep)
{
	size_t l;
	int err;

	if (!j)
		return 0;
	l = push(rd, ".%s", key);
	err = reader(rd, j);
	if (err)
		return err;
	pop(rd, l);
	*keep = json_incref(j);
	return 0;
}

/* "trials_ns", or a measured figure's "values": the numbers themselves. */
static int read_trials(struct reader *rd, json_t *o, struct pm_bench_result *b)
{
	json_t *trials;
	size_t i;

	trials = json_object_get(o, "trials_ns");
	if (!trials && json_object_get(o, "values")) {
		trials = json_object_get(o, "values");
		b->measured = true;
	}
	if (trials && !json_is_null(trials)) {
		const char *key = b->measured ? "values" : "trials_ns";

		if (!json_is_array(trials))
			return bad(rd, key, "expected an array, found %s", jtype(trials));
		b->ntrials = json_array_size(trials);
		b->trials = pm_xcalloc(b->ntrials, sizeof(double));
		for (i = 0; i < b->ntrials; i++) {
			json_t *x = json_array_get(trials, i);

			if (!json_is_number(x)) {
				push(rd, ".%s[%zu]", key, i);
				return bad(rd, NULL, "expected a number, found %s", jtype(x));
			}
			b->trials[i] = json_number_value(x);
		}
	}
	return 0;
}

static int read_bench(struct reader *rd, json_t *o, struct pm_bench_result *b)
{
	json_t *params, *stats, *counters, *hot, *work, *scaling, *detail, *emu;
	size_t l;
	int err, st = 0;

	if (!json_is_object(o))
		return bad(rd, NULL, "expected an object, found %s", jtype(o));
	if ((err = get_str(rd, o, "name", true, &b->name)) ||
	    (err = get_str(rd, o, "group", false, &b->group)) ||
	    (err = get_str(rd, o, "summary", false, &b->summary)) ||
	    (err = get_str(rd, o, "unit", true, &b->unit)) ||
	    (err = get_str(rd, o, "lmbench", false, &b->lmbench)) ||
	    (err = get_str(rd, o, "aim9", false, &b->aim9)) ||
	    (err = get_enum(rd, o, "status", pm_bench_status_names,
			    PM_ARRAY_SIZE(pm_bench_status_names), &st)) ||
	    (err = get_str(rd, o, "reason", false, &b->reason)) ||
	    (err = get_obj(rd, o, "params", false, &params)) ||
	    (err = get_obj(rd, o, "stats", st == PM_BENCH_OK, &stats)) ||
	    (err = get_obj(rd, o, "counters", false, &counters)) ||
	    (err = get_obj(rd, o, "hotspots", false, &hot)) ||
	    (err = get_obj(rd, o, "workload", false, &work)) ||
	    (err = get_obj(rd, o, "scaling", false, &scaling)) ||
	    (err = get_obj(rd, o, "detail", false, &detail)) ||
	    (err = get_obj(rd, o, "emulated", false, &emu)) ||
	    (err = get_real(rd, o, "elapsed_s", false, NONNEG, &b->elapsed_s)) ||
	    (err = get_real(rd, o, "reference_ns", false, POSITIVE, &b->reference_ns)) ||
	    (err = get_real(rd, o, "busy", false, NONNEG, &b->busy)) ||
	    (err = get_real(rd, o, "waited", false, NONNEG, &b->waited)) ||
	    (err = get_real(rd, o, "others", false, SHARE, &b->others)))
		return err;
	b->status = (enum pm_bench_status)st;
	if ((err = read_exercises(rd, o, b)))
		return err;
	if (params && (err = read_params(rd, params, b)))
		return err;
	if ((err = read_trials(rd, o, b)))
		return err;
	if (b->status == PM_BENCH_OK && b->ntrials == 0)
		return bad(rd, "trials_ns", "a benchmark with status \"ok\" has no trials");
	err = read_rounds(rd, o, b);
	if (err)
		return err;
	if (!stats)
		pm_summarize(b->trials, b->ntrials, PM_LEVEL, &b->stats);
	if (stats && (err = read_stats(rd, stats, b)))
		return err;
	if (counters) {
		l = push(rd, ".counters");
		err = read_counters(rd, counters, &b->counters);
		if (err)
			return err;
		pop(rd, l);
	}
	if ((err = read_kept(rd, "hotspots", hot, read_hotspots, &b->hotspots)) ||
	    (err = read_kept(rd, "scaling", scaling, read_scaling, &b->scaling)) ||
	    (err = read_kept(rd, "emulated", emu, read_emulated, &b->emulated)))
		return err;
	b->detail = json_incref(detail);
	if (work) {
		l = push(rd, ".workload");
		err = read_workload(rd, work, b);
		if (err)
			return err;
		pop(rd, l);
		b->workload = json_incref(work);
	}
	return 0;
}

int pm_bench_result_from_json(struct pm_bench_result *b, json_t *o,
			      const char *what, struct pm_err *e)
{
	struct reader rd = { .file = what, .e = e, .path = "$" };
	int err;

	memset(b, 0, sizeof(*b));
	pm_bench_result_defaults(b);
	err = read_bench(&rd, o, b);
	if (err)
		pm_bench_result_free(b);
	return err;
}

static bool has_type(const json_t *j, const char *type)
{
	return !strcmp(type, "string") ? json_is_string(j) :
	       !strcmp(type, "integer") ? json_is_integer(j) :
	       !strcmp(type, "number") ? json_is_number(j) :
	       !strcmp(type, "boolean") ? json_is_boolean(j) :
	       !strcmp(type, "object") ? json_is_object(j) : true;
}

/*
 * The fingerprint: every item of the key table (src/sysinfo/keys.c) that
 * is not null has the table's type, for the headers that print it and
 * explain, which compares it.
 */
static int read_sysinfo(struct reader *rd, json_t *si)
{
	size_t l = push(rd, ".sysinfo");
	int k;

	for (k = 0; k < PM_FP_NKEYS; k++) {
		const struct pm_fp_key_info *ki = pm_fp_key_info((enum pm_fp_key)k);
		const json_t *j;

		/* array items (cpu.caches.*) are read one by one, checked there */
		if (strchr(ki->key, '*'))
			continue;
		j = pm_sysinfo_at(si, (enum pm_fp_key)k);
		if (j && !json_is_null(j) && !has_type(j, ki->type))
			return bad(rd, ki->key, "expected %s %s, found %s",
				   strchr("aeiou", ki->type[0]) ? "an" : "a", ki->type, jtype(j));
	}
	pop(rd, l);
	return 0;
}

/* "command" (strings) and, in a merged file, "runs" (objects). */
static int read_command_runs(struct reader *rd, json_t *root, json_t **command,
			     json_t **runs)
{
	json_t *x;
	size_t i, l;
	int err;

	if ((err = get_arr(rd, root, "command", command)) ||
	    (err = get_arr(rd, root, "runs", runs)))
		return err;
	json_array_foreach(*command, i, x)
		if (!json_is_string(x)) {
			push(rd, ".command[%zu]", i);
			return bad(rd, NULL, "expected a string, found %s", jtype(x));
		}
	json_array_foreach(*runs, i, x) {
		l = push(rd, ".runs[%zu]", i);
		if (!json_is_object(x))
			return bad(rd, NULL, "expected an object, found %s", jtype(x));
		if ((err = want_str(rd, x, "created", false)) ||
		    (err = want_str(rd, x, "label", false)) ||
		    (err = want_str(rd, x, "file", false)))
			return err;
		pop(rd, l);
	}
	return 0;
}

int pm_result_from_json(struct pm_result *r, json_t *root, const char *path,
			struct pm_err *e)
{
	struct reader rd = { .file = path, .e = e, .path = "$" };
	json_t *benches, *j, *runs;
	char *format = NULL;
	long long schema = 0;
	size_t i;
	int err;

	pm_result_init(r);
	r->path = pm_xstrdup(path);
	if (!json_is_object(root)) {
		err = bad(&rd, NULL, "expected a JSON object, found %s", jtype(root));
		goto fail;
	}
	err = get_str(&rd, root, "format", false, &format);
	if (err)
		goto fail;
	if (!format || strcmp(format, PM_RESULT_FORMAT)) {
		err = bad(&rd, "format", "not a pmbench result file (expected \"%s\")",
			  PM_RESULT_FORMAT);
		free(format);
		goto fail;
	}
	free(format);
	err = get_int(&rd, root, "schema", true, 0, INT32_MAX, &schema);
	if (err)
		goto fail;
	if (schema != PM_RESULT_SCHEMA) {
		err = bad(&rd, "schema", "schema version %lld, but this pmbench reads version %d%s",
			  schema, PM_RESULT_SCHEMA,
			  schema > PM_RESULT_SCHEMA ? " (written by a newer pmbench)" : "");
		goto fail;
	}
	r->schema = (int)schema;
	if ((err = get_str(&rd, root, "source", false, &r->source)) ||
	    (err = get_str(&rd, root, "created", false, &r->created)) ||
	    (err = get_str(&rd, root, "pmbench_version", false, &r->version)) ||
	    (err = get_str(&rd, root, "label", false, &r->label)) ||
	    (err = get_obj(&rd, root, "options", false, &j)))
		goto fail;
	r->options = json_incref(j);
	/* every writer records the fingerprint: without one, a comparison
	 * could not say whether the systems differ */
	if ((err = get_obj(&rd, root, "sysinfo", true, &j)) ||
	    (err = read_sysinfo(&rd, j)))
		goto fail;
	r->sysinfo = json_incref(j);
	if ((err = read_command_runs(&rd, root, &j, &runs)))
		goto fail;
	r->command = json_incref(j);
	r->runs = json_incref(runs);
	benches = json_object_get(root, "benchmarks");
	if (!benches || !json_is_array(benches)) {
		err = bad(&rd, "benchmarks", benches ? "expected an array, found %s" :
			  "missing (expected an array)%s", benches ? jtype(benches) : "");
		goto fail;
	}
	for (i = 0; i < json_array_size(benches); i++) {
		size_t l = push(&rd, ".benchmarks[%zu]", i);

		err = read_bench(&rd, json_array_get(benches, i), pm_result_add(r));
		if (err)
			goto fail;
		pop(&rd, l);
		if (pm_result_find(r, r->bench[r->nbench - 1].name) !=
		    &r->bench[r->nbench - 1]) {
			push(&rd, ".benchmarks[%zu]", i);
			err = bad(&rd, "name", "benchmark \"%s\" appears twice",
				  r->bench[r->nbench - 1].name);
			goto fail;
		}
	}
	return 0;
fail:
	pm_result_free(r);
	return err;
}

bool pm_result_interrupted(const struct pm_result *r, long long *requested)
{
	const json_t *req = json_object_get(r->options, "benchmarks_requested");

	if (requested)
		*requested = json_is_integer(req) ? json_integer_value(req) : -1;
	return json_is_true(json_object_get(r->options, "interrupted"));
}

/*
 * The document in buf.  A UTF-8 byte-order mark, which some Windows
 * editors write, is skipped (RFC 8259 allows a parser to ignore it);
 * UTF-16 is named rather than called an invalid token.
 */
static int parse_doc(json_t **root, const char *buf, size_t len, const char *path,
		     struct pm_err *e)
{
	json_error_t je;

	*root = NULL;
	if (len >= 3 && !memcmp(buf, "\xef\xbb\xbf", 3)) {
		buf += 3;
		len -= 3;
	} else if (len >= 2 && (!memcmp(buf, "\xff\xfe", 2) || !memcmp(buf, "\xfe\xff", 2))) {
		return pm_err_set(e, -EINVAL, "%s: UTF-16 text (it starts with a UTF-16 "
				  "byte-order mark); a result file is UTF-8", path);
	}
	*root = json_loadb(buf, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
	if (!*root)
		return pm_err_set(e, -EINVAL, "%s:%d:%d: not valid JSON: %s", path,
				  je.line, je.column, je.text);
	return 0;
}

int pm_result_parse(struct pm_result *r, const char *buf, size_t len,
		    const char *path, struct pm_err *e)
{
	json_t *root;
	int err;

	pm_result_init(r);
	err = parse_doc(&root, buf, len, path, e);
	if (err)
		return err;
	err = pm_result_from_json(r, root, path, e);
	json_decref(root);
	return err;
}

int pm_result_load_json(json_t **root, const char *path, struct pm_err *e)
{
	size_t len;
	char *buf;
	int err;

	*root = NULL;
	err = pm_read_file_max(path, PM_READ_MAX_RESULT, &buf, &len);
	if (err) {
		/* missing, unreadable, a directory, too big: all bad input */
		pm_read_error(e, err, path, PM_READ_MAX_RESULT, "a result file");
		return -EINVAL;
	}
	err = parse_doc(root, buf, len, path, e);
	free(buf);
	return err;
}

int pm_result_load(struct pm_result *r, const char *path, struct pm_err *e)
{
	json_t *root;
	int err;

	pm_result_init(r);
	err = pm_result_load_json(&root, path, e);
	if (err)
		return err;
	err = pm_result_from_json(r, root, path, e);
	json_decref(root);
	return err;
}
