/*
 * Merging several runs of one side into one result file: `pmbench ab`
 * boots each kernel several times, an import may hold several rows per
 * host.  The rounds keep which run they came from, so explain can use
 * the spread between runs.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/result.h"
#include "stats/stats.h"

static char *dup_or_null(const char *s)
{
	return s ? pm_xstrdup(s) : NULL;
}

/* The descriptor, parameters, counters and profile of b (not its trials). */
static void copy_bench_meta(struct pm_bench_result *d, const struct pm_bench_result *b)
{
	size_t i;

	d->name = pm_xstrdup(b->name);
	d->group = dup_or_null(b->group);
	d->summary = dup_or_null(b->summary);
	d->unit = dup_or_null(b->unit);
	d->lmbench = dup_or_null(b->lmbench);
	d->aim9 = dup_or_null(b->aim9);
	d->exercises = b->exercises;
	d->status = b->status;
	d->reason = dup_or_null(b->reason);
	d->iterations = b->iterations;
	d->ops_per_iter = b->ops_per_iter;
	d->overhead_ns = b->overhead_ns;
	d->bytes_per_op = b->bytes_per_op;
	d->placement = dup_or_null(b->placement);
	d->cpu = b->cpu;
	d->params = dup_or_null(b->params);
	d->measured = b->measured;
	d->converged = b->converged;
	d->counters = b->counters;
	d->counters.v = pm_xcalloc(b->counters.n ? b->counters.n : 1, sizeof(*d->counters.v));
	for (i = 0; i < b->counters.n; i++) {
		d->counters.v[i] = b->counters.v[i];
		d->counters.v[i].name = dup_or_null(b->counters.v[i].name);
		d->counters.v[i].event = dup_or_null(b->counters.v[i].event);
		d->counters.v[i].reason = dup_or_null(b->counters.v[i].reason);
	}
	d->hotspots = json_deep_copy(b->hotspots);
	/* its runs follow the trials: merge_emulated() adds them */
	d->emulated = NULL;
	d->detail = json_deep_copy(b->detail);
	d->scaling = json_deep_copy(b->scaling);
	/* its runs follow the trials: merge_bench() adds them */
	d->workload = json_deep_copy(b->workload);
	if (d->workload)
		json_object_set_new(d->workload, "runs", json_array());
}

unsigned pm_result_nruns(const struct pm_result *r)
{
	unsigned n = 1;
	size_t i, k;

	for (i = 0; i < r->nbench; i++)
		for (k = 0; k < r->bench[i].nrounds; k++)
			if (r->bench[i].rounds[k].run + 1 > n)
				n = r->bench[i].rounds[k].run + 1;
	return n;
}

static json_t *run_entry(const struct pm_result *r)
{
	return json_pack("{s:o,s:o,s:o}",
			 "created", r->created ? json_string(r->created) : json_null(),
			 "label", r->label ? json_string(r->label) : json_null(),
			 "file", r->path ? json_string(r->path) : json_null());
}

static int by_instructions(const void *a, const void *b)
{
	double x = json_number_value(json_object_get(*(json_t *const *)a, "instructions"));
	double y = json_number_value(json_object_get(*(json_t *const *)b, "instructions"));

	return (x < y) - (x > y);
}

/* Most instructions first, as a run's profile is. */
static void sort_symbols(json_t *list)
{
	size_t n = json_array_size(list), i;
	json_t **v = pm_xcalloc(n + 1, sizeof(*v));

	for (i = 0; i < n; i++)
		v[i] = json_incref(json_array_get(list, i));
	pm_sort(v, n, sizeof(*v), by_instructions);
	json_array_clear(list);
	for (i = 0; i < n; i++)
		json_array_append_new(list, v[i]);
	free(v);
}

/* The symbols of two emulated kernel profiles, each weighted by its ops. */
static json_t *merge_profiles(const json_t *p, const json_t *q)
{
	double np = json_number_value(json_object_get(p, "ops"));
	double nq = json_number_value(json_object_get(q, "ops")), n = np + nq;
	static const char *const rest[] = { "other", "unknown" };
	json_t *out, *syms = json_object(), *list = json_array(), *x;
	const json_t *src[2] = { p, q };
	const double w[2] = { np / n, nq / n };
	const char *name;
	size_t i, k;

	if (json_object_get(p, "unavailable") || !(np > 0))
		return json_deep_copy(q);
	if (json_object_get(q, "unavailable") || !(nq > 0))
		return json_deep_copy(p);
	out = json_deep_copy(p);
	for (k = 0; k < 2; k++)
		json_array_foreach(json_object_get(src[k], "symbols"), i, x) {
			const char *s = json_string_value(json_object_get(x, "name"));
			double v = w[k] * json_number_value(json_object_get(x, "instructions"));
			double r = w[k] * json_number_value(json_object_get(x, "rep_iterations"));
			json_t *have;

			if (!s)
				continue;
			have = json_object_get(syms, s);
			if (!have) {
				have = json_pack("[f,f]", 0.0, 0.0);
				json_object_set_new(syms, s, have);
			}
			json_array_set_new(have, 0, json_real(v + json_real_value(json_array_get(have, 0))));
			json_array_set_new(have, 1, json_real(r + json_real_value(json_array_get(have, 1))));
		}
	json_object_foreach(syms, name, x) {
		json_t *e = json_pack("{s:s,s:b,s:O}", "name", name, "kernel", 1, "instructions",
				      json_array_get(x, 0));

		if (json_real_value(json_array_get(x, 1)) > 0)
			json_object_set(e, "rep_iterations", json_array_get(x, 1));
		json_array_append_new(list, e);
	}
	sort_symbols(list);
	json_object_set_new(out, "symbols", list);
	json_decref(syms);
	for (k = 0; k < PM_ARRAY_SIZE(rest); k++)
		json_object_set_new(out, rest[k], json_real(
			w[0] * json_number_value(json_object_get(p, rest[k])) +
			w[1] * json_number_value(json_object_get(q, rest[k]))));
	json_object_set_new(out, "ops", json_real(n));
	/* source files: those of both */
	if (json_is_object(json_object_get(q, "sources"))) {
		if (!json_is_object(json_object_get(out, "sources")))
			json_object_set_new(out, "sources", json_object());
		json_object_update(json_object_get(out, "sources"), json_object_get(q, "sources"));
	}
	return out;
}

/* A run's emulated counts into d's: its runs renumbered, the profiles
 * weighted by their operations. */
static void merge_emulated(struct pm_bench_result *d, const json_t *em, unsigned run_offset)
{
	json_t *runs, *r, *prof;
	size_t i;

	if (!json_is_array(json_object_get(em, "runs"))) {
		/* why none of its runs has counts, until one has */
		if (!d->emulated)
			d->emulated = json_deep_copy(em);
		return;
	}
	if (!json_is_array(json_object_get(d->emulated, "runs"))) {
		json_decref(d->emulated);
		d->emulated = json_deep_copy(em);
		json_object_set_new(d->emulated, "runs", json_array());
		json_object_del(d->emulated, "kernel_profile");
	}
	runs = json_object_get(d->emulated, "runs");
	json_array_foreach(json_object_get(em, "runs"), i, r) {
		json_t *c = json_deep_copy(r);

		json_object_set_new(c, "run", json_integer(run_offset +
				    json_integer_value(json_object_get(r, "run"))));
		json_array_append_new(runs, c);
	}
	prof = json_object_get(em, "kernel_profile");
	if (prof) {
		json_t *have = json_object_get(d->emulated, "kernel_profile");

		json_object_set_new(d->emulated, "kernel_profile",
				    have ? merge_profiles(have, prof) : json_deep_copy(prof));
	}
}

static void merge_bench(struct pm_bench_result *d, const struct pm_bench_result *b,
			unsigned run_offset, double *refs, double *busy, double *waited,
			double *others, size_t *nmed)
{
	size_t i, at = 0;

	if (b->status != PM_BENCH_OK)
		return;
	if (d->status != PM_BENCH_OK) {
		/* the first run where it worked gives its metadata */
		pm_bench_result_free(d);
		copy_bench_meta(d, b);
		d->reference_ns = d->busy = d->waited = d->others = NAN;
	}
	/* a workload's runs, one per trial; a run without them drops them */
	if (d->workload && json_is_array(json_object_get(b->workload, "runs")))
		json_array_extend(json_object_get(d->workload, "runs"),
				  json_object_get(b->workload, "runs"));
	else if (d->workload) {
		json_decref(d->workload);
		d->workload = NULL;
	}
	for (i = 0; i < b->nrounds; i++) {
		struct pm_round r = b->rounds[i];

		r.run += run_offset;
		pm_bench_result_add_round(d, b->trials + at, r.ntrials, &r);
		at += r.ntrials;
	}
	if (!b->nrounds && b->ntrials) {
		/* built in memory without rounds: its trials are one round */
		struct pm_round r = { .run = run_offset, .reference_ns = b->reference_ns,
				      .busy = b->busy, .waited = b->waited, .others = b->others,
				      .started_s = NAN };

		pm_bench_result_add_round(d, b->trials, b->ntrials, &r);
	}
	if (b->emulated)
		merge_emulated(d, b->emulated, run_offset);
	d->converged = d->converged && b->converged;
	d->elapsed_s += b->elapsed_s;
	refs[*nmed] = b->reference_ns;
	waited[*nmed] = b->waited;
	others[*nmed] = b->others;
	busy[(*nmed)++] = b->busy;
}

static double median_finite(const double *v, size_t n)
{
	double *w = pm_xcalloc(n ? n : 1, sizeof(*w)), m;
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (!isnan(v[i]))
			w[k++] = v[i];
	m = k ? pm_median(w, k) : NAN;
	free(w);
	return m;
}

int pm_result_merge(struct pm_result *dst, const struct pm_result *src,
		    size_t n, struct pm_err *e)
{
	unsigned *offset;
	size_t i, k, j;
	json_t *runs;

	pm_result_init(dst);
	if (!n)
		return pm_err_set(e, -EINVAL, "nothing to merge");
	for (i = 1; i < n; i++)
		if (strcmp(src[i].source ? src[i].source : "run",
			   src[0].source ? src[0].source : "run"))
			return pm_err_set(e, -EINVAL, "%s: a result of source \"%s\" cannot be "
					  "merged with one of source \"%s\" (%s)",
					  src[i].path ? src[i].path : "result",
					  src[i].source, src[0].source,
					  src[0].path ? src[0].path : "first result");
	dst->source = dup_or_null(src[0].source);
	dst->created = dup_or_null(src[0].created);
	dst->version = dup_or_null(src[0].version);
	dst->label = dup_or_null(src[0].label);
	dst->command = json_deep_copy(src[0].command);
	dst->options = json_deep_copy(src[0].options);
	dst->sysinfo = json_deep_copy(src[0].sysinfo);

	offset = pm_xcalloc(n, sizeof(*offset));
	runs = json_array();
	for (i = 0; i < n; i++) {
		offset[i] = i ? offset[i - 1] + pm_result_nruns(&src[i - 1]) : 0;
		if (src[i].runs && json_array_size(src[i].runs))
			json_array_extend(runs, src[i].runs);
		else
			json_array_append_new(runs, run_entry(&src[i]));
	}
	dst->runs = runs;

	/* every benchmark, in order of first appearance */
	for (i = 0; i < n; i++) {
		for (k = 0; k < src[i].nbench; k++) {
			const struct pm_bench_result *b = &src[i].bench[k];
			struct pm_bench_result *d;
			double *refs, *busy, *waited, *others;
			size_t nmed = 0;

			if (pm_result_find(dst, b->name))
				continue;
			d = pm_result_add(dst);
			copy_bench_meta(d, b);
			/* a failed first run keeps its status until one where it worked */
			d->converged = b->status == PM_BENCH_OK;
			refs = pm_xcalloc(n, sizeof(*refs));
			busy = pm_xcalloc(n, sizeof(*busy));
			waited = pm_xcalloc(n, sizeof(*waited));
			others = pm_xcalloc(n, sizeof(*others));
			for (j = i; j < n; j++) {
				const struct pm_bench_result *o = pm_result_find(&src[j], b->name);

				if (o)
					merge_bench(d, o, offset[j], refs, busy, waited, others,
						     &nmed);
			}
			if (d->status == PM_BENCH_OK) {
				pm_summarize(d->trials, d->ntrials, PM_LEVEL, &d->stats);
				d->reference_ns = median_finite(refs, nmed);
				d->busy = median_finite(busy, nmed);
				d->waited = median_finite(waited, nmed);
				d->others = median_finite(others, nmed);
			}
			free(refs);
			free(busy);
			free(waited);
			free(others);
		}
	}
	free(offset);
	return 0;
}
