/*
 * Result files written: C structures -> JSON (jansson), dumped or saved
 * atomically.  A benchmark's entry carries its figure (figure.c) for
 * tools that read the file, so the writer sits above the figure; the
 * reader (result.c) derives it again and needs neither.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/exercise.h"
#include "results/result.h"

/* Length of the valid UTF-8 sequence at s, 0 when invalid. */
static size_t utf8_len(const unsigned char *s)
{
	size_t n, i;

	if (s[0] < 0x80)
		return 1;
	n = s[0] >= 0xf0 && s[0] <= 0xf4 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc2 ? 2 : 0;
	if (!n || (n == 3 && s[0] > 0xef))
		return 0;
	for (i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	return n;
}

json_t *pm_json_text(const char *s)
{
	json_t *j;
	char *c;
	size_t i, n;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	c = pm_xstrdup(s);
	for (i = 0; c[i]; i += n) {
		n = utf8_len((const unsigned char *)c + i);
		if (!n) {
			c[i] = '?';
			n = 1;
		}
	}
	j = json_string(c);
	free(c);
	return j ? j : json_string("?");
}

static json_t *jnum(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *counters_to_json(const struct pm_counted_pass *cp)
{
	json_t *o = json_object(), *ev = json_array();
	size_t i;

	json_object_set_new(o, "done", json_boolean(cp->done));
	json_object_set_new(o, "ops", json_integer((json_int_t)cp->ops));
	json_object_set_new(o, "ns_per_op", jnum(cp->ns_per_op));
	json_object_set_new(o, "perturbation", jnum(cp->perturbation));
	json_object_set_new(o, "waited", jnum(cp->waited));
	json_object_set_new(o, "inherit", json_boolean(cp->inherit));
	json_object_set_new(o, "processes", json_integer(cp->processes));
	json_object_set_new(o, "rusage", json_pack("{s:o,s:o}",
		"user_ns_per_op", jnum(cp->ru_user_ns),
		"sys_ns_per_op", jnum(cp->ru_sys_ns)));
	for (i = 0; i < cp->n; i++) {
		const struct pm_counter_value *v = &cp->v[i];

		json_array_append_new(ev, json_pack("{s:s,s:o,s:s,s:o,s:b,s:b,s:o,s:o,s:o,s:o}",
			"name", v->name,
			"event", jstr(v->event),
			"status", pm_cv_status_names[v->status],
			"reason", jstr(v->reason && *v->reason ? v->reason : NULL),
			"software", v->software,
			"user_only", v->user_only,
			"per_op", jnum(v->per_op),
			"user_per_op", jnum(v->user),
			"kernel_per_op", jnum(v->kernel),
			"running", jnum(v->running)));
	}
	json_object_set_new(o, "events", ev);
	return o;
}

/* null when there are no trials: no figures rather than zeros. */
static json_t *stats_to_json(const struct pm_bench_result *b)
{
	const struct pm_summary *s = &b->stats;

	if (!s->n)
		return json_null();
	return json_pack("{s:I,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:o,s:b}",
		"n", (json_int_t)s->n,
		"median_ns", jnum(s->median),
		"ci_low_ns", jnum(s->ci_low),
		"ci_high_ns", jnum(s->ci_high),
		"ci_level", jnum(s->ci_level),
		"mean_ns", jnum(s->mean),
		"stddev_ns", jnum(s->stddev),
		"min_ns", jnum(s->min),
		"max_ns", jnum(s->max),
		"mad_ns", jnum(s->mad),
		"converged", b->converged);
}

/*
 * The figure every view shows (results/figure.c), for tools that read
 * the file; derived from the trials and rounds, so the reader ignores it.
 */
json_t *pm_bench_figure_json(const struct pm_bench_result *b)
{
	struct pm_figure f;

	if (b->status != PM_BENCH_OK || b->measured || pm_bench_figure(b, PM_FIGURE_LEVEL, &f))
		return NULL;
	return json_pack("{s:o,s:o,s:o,s:f,s:s,s:I}", "value_ns", jnum(f.value),
			 "low_ns", jnum(f.lo), "high_ns", jnum(f.hi), "level", f.level,
			 "basis", pm_figure_basis_name(f.basis), "n", (json_int_t)f.n);
}

static json_t *rounds_to_json(const struct pm_bench_result *b)
{
	json_t *a = json_array();
	size_t i;

	for (i = 0; i < b->nrounds; i++) {
		const struct pm_round *r = &b->rounds[i];

		json_array_append_new(a, json_pack("{s:i,s:I,s:o,s:o,s:o,s:o,s:o}",
			"run", (int)r->run, "trials", (json_int_t)r->ntrials,
			"reference_ns", jnum(r->reference_ns), "busy", jnum(r->busy),
			"waited", jnum(r->waited), "others", jnum(r->others),
			"started_s", jnum(r->started_s)));
	}
	return a;
}

/* The names of the traits in mask, in the table's order. */
static json_t *exercises_to_json(unsigned mask)
{
	const struct pm_exercise_info *x;
	json_t *a = json_array();
	size_t i;

	for (i = 0; (x = pm_exercise_at(i)); i++)
		if (mask & x->bit)
			json_array_append_new(a, json_string(x->name));
	return a;
}

static json_t *bench_to_json(const struct pm_bench_result *b)
{
	json_t *o = json_object(), *trials = json_array(), *fig;
	size_t i;

	json_object_set_new(o, "name", json_string(b->name));
	json_object_set_new(o, "group", jstr(b->group));
	json_object_set_new(o, "summary", jstr(b->summary));
	json_object_set_new(o, "unit", jstr(b->unit));
	json_object_set_new(o, "lmbench", jstr(b->lmbench));
	json_object_set_new(o, "aim9", jstr(b->aim9));
	if (b->exercises)
		json_object_set_new(o, "exercises", exercises_to_json(b->exercises));
	json_object_set_new(o, "status", json_string(pm_bench_status_names[b->status]));
	json_object_set_new(o, "reason", jstr(b->reason));
	json_object_set_new(o, "params", json_pack("{s:I,s:i,s:o,s:o,s:o,s:i,s:o}",
		"iterations", (json_int_t)b->iterations,
		"ops_per_iter", (int)b->ops_per_iter,
		"overhead_ns", jnum(b->overhead_ns),
		"bytes_per_op", jnum(b->bytes_per_op),
		"placement", jstr(b->placement),
		"cpu", b->cpu,
		"detail", jstr(b->params)));
	for (i = 0; i < b->ntrials; i++)
		json_array_append_new(trials, jnum(b->trials[i]));
	/* measured values are in .unit, timed trials in ns per op */
	json_object_set_new(o, b->measured ? "values" : "trials_ns", trials);
	if (b->nrounds)
		json_object_set_new(o, "rounds", rounds_to_json(b));
	json_object_set_new(o, "stats", stats_to_json(b));
	if ((fig = pm_bench_figure_json(b)))
		json_object_set_new(o, "figure", fig);
	json_object_set_new(o, "elapsed_s", jnum(b->elapsed_s));
	json_object_set_new(o, "reference_ns", jnum(b->reference_ns));
	json_object_set_new(o, "busy", jnum(b->busy));
	json_object_set_new(o, "waited", jnum(b->waited));
	json_object_set_new(o, "others", jnum(b->others));
	json_object_set_new(o, "counters", counters_to_json(&b->counters));
	if (b->hotspots)
		json_object_set(o, "hotspots", b->hotspots);
	if (b->emulated)
		json_object_set(o, "emulated", b->emulated);
	if (b->detail)
		json_object_set(o, "detail", b->detail);
	if (b->scaling)
		json_object_set(o, "scaling", b->scaling);
	if (b->workload)
		json_object_set(o, "workload", b->workload);
	return o;
}

json_t *pm_bench_result_to_json(const struct pm_bench_result *b)
{
	return bench_to_json(b);
}

json_t *pm_result_to_json(const struct pm_result *r)
{
	json_t *o = json_object(), *benches = json_array();
	size_t i;

	json_object_set_new(o, "format", json_string(PM_RESULT_FORMAT));
	json_object_set_new(o, "schema", json_integer(PM_RESULT_SCHEMA));
	json_object_set_new(o, "source", json_string(r->source ? r->source : "run"));
	json_object_set_new(o, "created", jstr(r->created));
	json_object_set_new(o, "pmbench_version", jstr(r->version));
	json_object_set_new(o, "label", jstr(r->label));
	json_object_set(o, "command", r->command ? r->command : json_null());
	json_object_set(o, "options", r->options ? r->options : json_null());
	json_object_set(o, "sysinfo", r->sysinfo ? r->sysinfo : json_null());
	if (r->runs)
		json_object_set(o, "runs", r->runs);
	for (i = 0; i < r->nbench; i++)
		json_array_append_new(benches, bench_to_json(&r->bench[i]));
	json_object_set_new(o, "benchmarks", benches);
	return o;
}

int pm_result_dump(const struct pm_result *r, FILE *f)
{
	json_t *j = pm_result_to_json(r);
	int ret, err;

	errno = 0;
	ret = json_dumpf(j, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
	json_decref(j);
	if (ret == 0 && fputc('\n', f) == EOF)
		ret = -1;
	/* the write's own error (ENOSPC, EDQUOT), not a vague EIO */
	err = errno;
	return ret ? (err ? -err : -EIO) : 0;
}

static int dump_writer(FILE *f, void *arg)
{
	return pm_result_dump(arg, f);
}

int pm_result_save(const struct pm_result *r, const char *path,
		   struct pm_err *e)
{
	return pm_write_atomic(path, dump_writer, (void *)r, e);
}
