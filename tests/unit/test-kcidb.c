/*
 * pmbench export: KCIDB submissions checked field by field against the
 * rules of the KCIDB I/O schema (kernelci/kcidb-io, kcidb_io/schema/
 * v04_04.py and v05_00.py, the versions pmbench writes), restated below
 * as data: each object's properties with their types, patterns and
 * limits, the required ones, and no property the schema does not name.
 * Then what the values say: ids namespaced by the origin and stable,
 * links between objects, a regression FAILs with its first cause, a
 * proof is said, figures are the files' own; and that the fixtures
 * exercise every field the exporter fills.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd.h"
#include "explain/explain.h"
#include "export/export.h"
#include "util/table.h"

/* ---- the schema's rules ---- */

enum kind {
	K_STR, K_BOOL, K_NUM, K_OBJ, K_STATUS, K_DATETIME, K_URI, K_EMAIL,
	K_NUMBER, K_ENV, K_RESOURCES, K_STRINGS,
};

#define V4 1u
#define V5 2u
#define VB (V4 | V5)

struct prop {
	const char *name;
	enum kind kind;
	const char *re;		/* POSIX ERE the value must match, or NULL */
	unsigned in;		/* the major versions that have it */
	size_t max;		/* maxLength in characters, 0: none */
};

#define RE_ORIGIN "^[a-z0-9_]+$"
#define RE_ID "^[a-z0-9_]+:"
#define EXCERPT 16384

static const struct prop checkout_props[] = {
	{ "_timestamp", K_DATETIME, NULL, VB, 0 },
	{ "id", K_STR, RE_ID, VB, 0 },
	{ "origin", K_STR, RE_ORIGIN, VB, 0 },
	{ "tree_name", K_STR, NULL, VB, 0 },
	{ "git_repository_url", K_URI, "^(https|git)://", V4, 0 },
	{ "git_repository_url", K_URI, "^https://", V5, 0 },
	{ "git_commit_hash", K_STR, "^[0-9a-f]{40}$", VB, 0 },
	{ "git_commit_name", K_STR, NULL, VB, 0 },
	{ "git_commit_tags", K_STRINGS, NULL, V5, 0 },
	{ "git_commit_message", K_STR, NULL, V5, 0 },
	{ "git_repository_branch", K_STR, NULL, VB, 0 },
	{ "git_repository_branch_tip", K_BOOL, NULL, V5, 0 },
	{ "patchset_files", K_RESOURCES, NULL, VB, 0 },
	{ "patchset_hash", K_STR, "^$|^[0-9a-f]{64}$", VB, 0 },
	{ "message_id", K_EMAIL, NULL, VB, 0 },
	{ "comment", K_STR, NULL, VB, 0 },
	{ "start_time", K_DATETIME, NULL, VB, 0 },
	{ "contacts", K_STRINGS, NULL, V4, 0 },
	{ "log_url", K_URI, NULL, VB, 0 },
	{ "log_excerpt", K_STR, NULL, VB, EXCERPT },
	{ "valid", K_BOOL, NULL, VB, 0 },
	{ "misc", K_OBJ, NULL, VB, 0 },
	{ NULL, 0, NULL, 0, 0 },
};
static const char *const checkout_required[] = { "id", "origin", NULL };

static const struct prop build_props[] = {
	{ "_timestamp", K_DATETIME, NULL, VB, 0 },
	{ "checkout_id", K_STR, RE_ID, VB, 0 },
	{ "id", K_STR, RE_ID, VB, 0 },
	{ "origin", K_STR, RE_ORIGIN, VB, 0 },
	{ "comment", K_STR, NULL, VB, 0 },
	{ "start_time", K_DATETIME, NULL, VB, 0 },
	{ "duration", K_NUM, NULL, VB, 0 },
	{ "architecture", K_STR, "^[a-z0-9_]*$", VB, 0 },
	{ "command", K_STR, NULL, VB, 0 },
	{ "compiler", K_STR, NULL, VB, 0 },
	{ "input_files", K_RESOURCES, NULL, VB, 0 },
	{ "output_files", K_RESOURCES, NULL, VB, 0 },
	{ "config_name", K_STR, NULL, VB, 0 },
	{ "config_url", K_URI, NULL, VB, 0 },
	{ "log_url", K_URI, NULL, VB, 0 },
	{ "log_excerpt", K_STR, NULL, VB, EXCERPT },
	{ "valid", K_BOOL, NULL, V4, 0 },
	{ "status", K_STATUS, NULL, V5, 0 },
	{ "misc", K_OBJ, NULL, VB, 0 },
	{ NULL, 0, NULL, 0, 0 },
};
static const char *const build_required[] = { "checkout_id", "id", "origin", NULL };

static const struct prop test_props[] = {
	{ "_timestamp", K_DATETIME, NULL, VB, 0 },
	{ "build_id", K_STR, RE_ID, VB, 0 },
	{ "id", K_STR, RE_ID, VB, 0 },
	{ "origin", K_STR, RE_ORIGIN, VB, 0 },
	{ "environment", K_ENV, NULL, VB, 0 },
	{ "path", K_STR, "^[.a-zA-Z0-9_-]*$", V4, 0 },
	{ "path", K_STR, "^([a-zA-Z0-9_-]+(\\.[a-zA-Z0-9_-]+)*)?$", V5, 0 },
	{ "comment", K_STR, NULL, VB, 0 },
	{ "log_url", K_URI, NULL, VB, 0 },
	{ "log_excerpt", K_STR, NULL, VB, EXCERPT },
	{ "status", K_STATUS, NULL, VB, 0 },
	{ "number", K_NUMBER, NULL, VB, 0 },
	{ "waived", K_BOOL, NULL, V4, 0 },
	{ "start_time", K_DATETIME, NULL, VB, 0 },
	{ "duration", K_NUM, NULL, VB, 0 },
	{ "output_files", K_RESOURCES, NULL, VB, 0 },
	{ "misc", K_OBJ, NULL, VB, 0 },
	{ NULL, 0, NULL, 0, 0 },
};
static const char *const test_required[] = { "build_id", "id", "origin", NULL };

/* ---- the checker ---- */

/* A string member, "" when there is none. */
static const char *str(const json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : "";
}

struct check {
	unsigned ver;		/* V4 or V5 */
	const char *origin;
	char errs[4096];
	size_t nerr;
};

static void bad(struct check *k, const char *fmt, ...)
{
	size_t at = strlen(k->errs);
	va_list ap;

	k->nerr++;
	if (at + 200 >= sizeof(k->errs))
		return;
	va_start(ap, fmt);
	vsnprintf(k->errs + at, sizeof(k->errs) - at - 1, fmt, ap);
	va_end(ap);
	strcat(k->errs, "\n");
}

static bool matches(const char *re, const char *s)
{
	regex_t r;
	bool ok;

	ck_assert_msg(regcomp(&r, re, REG_EXTENDED | REG_NOSUB) == 0, "regex %s", re);
	ok = regexec(&r, s, 0, NULL, 0) == 0;
	regfree(&r);
	return ok;
}

/* A string: no NUL (v5 says so of every string), its pattern, its length. */
static void check_string(struct check *k, const char *where, const json_t *v, const char *re,
			 size_t max)
{
	const char *s;

	if (!json_is_string(v)) {
		bad(k, "%s: not a string", where);
		return;
	}
	s = json_string_value(v);
	if (strlen(s) != json_string_length(v))
		bad(k, "%s: a NUL in the string", where);
	if (re && !matches(re, s))
		bad(k, "%s: \"%.60s\" does not match %s", where, s, re);
	/* maxLength counts characters, not bytes */
	if (max && pm_text_prefix(s, max) != strlen(s))
		bad(k, "%s: longer than %zu characters", where, max);
}

static void check_value(struct check *k, const char *where, const json_t *v,
			const struct prop *p);

/* An object of the given properties, no others; the required present. */
static void check_object(struct check *k, const char *where, const json_t *o,
			 const struct prop *props, const char *const *required)
{
	const char *key;
	const json_t *v;
	size_t i;

	if (!json_is_object(o)) {
		bad(k, "%s: not an object", where);
		return;
	}
	json_object_foreach((json_t *)o, key, v) {
		char w[256];

		snprintf(w, sizeof(w), "%s.%s", where, key);
		for (i = 0; props[i].name; i++)
			if (!strcmp(props[i].name, key) && (props[i].in & k->ver))
				break;
		if (!props[i].name)
			bad(k, "%s: not a property of the schema %s", w, k->ver == V4 ? "4" : "5");
		else
			check_value(k, w, v, &props[i]);
	}
	for (i = 0; required && required[i]; i++)
		if (!json_object_get(o, required[i]))
			bad(k, "%s: required %s missing", where, required[i]);
}

static const struct prop number_props[] = {
	{ "value", K_NUM, NULL, VB, 0 },
	{ "unit", K_STR, NULL, VB, 0 },
	{ "prefix", K_STR, "^(metric|binary)$", VB, 0 },
	{ NULL, 0, NULL, 0, 0 },
};
static const char *const number_required[] = { "value", NULL };
static const struct prop env_props[] = {
	{ "compatible", K_STRINGS, "^[^ ]+(,[^ ]+)*$", VB, 0 },
	{ "comment", K_STR, NULL, VB, 0 },
	{ "misc", K_OBJ, NULL, VB, 0 },
	{ NULL, 0, NULL, 0, 0 },
};
static const struct prop resource_props[] = {
	{ "name", K_STR, "^[^/]+$", VB, 0 },
	{ "url", K_URI, NULL, VB, 0 },
	{ NULL, 0, NULL, 0, 0 },
};
static const char *const resource_required[] = { "name", "url", NULL };

static void check_value(struct check *k, const char *where, const json_t *v,
			const struct prop *p)
{
	size_t i;
	const json_t *x;

	switch (p->kind) {
	case K_STR:
		check_string(k, where, v, p->re, p->max);
		break;
	case K_BOOL:
		if (!json_is_boolean(v))
			bad(k, "%s: not a boolean", where);
		break;
	case K_NUM:
		if (!json_is_number(v) || !isfinite(json_number_value(v)))
			bad(k, "%s: not a number", where);
		break;
	case K_OBJ:
		if (!json_is_object(v))
			bad(k, "%s: not an object", where);
		break;
	case K_STATUS:
		check_string(k, where, v, "^(FAIL|ERROR|MISS|PASS|DONE|SKIP)$", 0);
		break;
	case K_DATETIME:
		check_string(k, where, v, "^[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:"
			     "[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$", 0);
		break;
	case K_URI:
		check_string(k, where, v, "^[a-zA-Z][a-zA-Z0-9+.-]*:[^ ]*$", 0);
		if (p->re)
			check_string(k, where, v, p->re, 0);
		break;
	case K_EMAIL:
		check_string(k, where, v, "^[^@ ]+@[^@ ]+$", 0);
		break;
	case K_NUMBER:
		check_object(k, where, v, number_props, number_required);
		break;
	case K_ENV:
		check_object(k, where, v, env_props, NULL);
		break;
	case K_RESOURCES:
	case K_STRINGS:
		if (!json_is_array(v)) {
			bad(k, "%s: not an array", where);
			break;
		}
		json_array_foreach((json_t *)v, i, x) {
			if (p->kind == K_STRINGS)
				check_string(k, where, x, p->re, 0);
			else
				check_object(k, where, x, resource_props, resource_required);
		}
		break;
	}
}

/* KCIDB allows no null anywhere, misc included. */
static void no_nulls(struct check *k, const char *where, const json_t *v)
{
	const char *key;
	const json_t *x;
	size_t i;

	if (json_is_null(v))
		bad(k, "%s: null", where);
	else if (json_is_object(v))
		json_object_foreach((json_t *)v, key, x)
			no_nulls(k, key, x);
	else if (json_is_array(v))
		json_array_foreach((json_t *)v, i, x)
			no_nulls(k, where, x);
}

/* Every object of a list: its rules, its origin, an id unique in the list. */
static void check_list(struct check *k, const json_t *sub, const char *list,
		       const struct prop *props, const char *const *required)
{
	const json_t *a = json_object_get(sub, list), *o;
	size_t i, j;

	if (!a)
		return;
	if (!json_is_array(a)) {
		bad(k, "%s: not an array", list);
		return;
	}
	json_array_foreach((json_t *)a, i, o) {
		char w[64];
		const char *id = json_string_value(json_object_get(o, "id"));
		size_t ol = strlen(k->origin);

		snprintf(w, sizeof(w), "%s[%zu]", list, i);
		check_object(k, w, o, props, required);
		if (strcmp(str(o, "origin"), k->origin))
			bad(k, "%s: origin is not %s", w, k->origin);
		if (!id || strncmp(id, k->origin, ol) || id[ol] != ':')
			bad(k, "%s: id %s is not namespaced by %s:", w, id ? id : "(none)", k->origin);
		for (j = 0; id && j < i; j++)
			if (!strcmp(id, str(json_array_get(a, j), "id")))
				bad(k, "%s: id %s twice", w, id);
	}
}

/* Is there an object of list with this id? */
static bool has_id(const json_t *sub, const char *list, const char *id)
{
	const json_t *o;
	size_t i;

	json_array_foreach(json_object_get(sub, list), i, o)
		if (id && !strcmp(str(o, "id"), id))
			return true;
	return false;
}

static const struct prop top_props[] = {
	{ "version", K_OBJ, NULL, VB, 0 },
	{ "checkouts", K_OBJ, NULL, VB, 0 },
	{ "builds", K_OBJ, NULL, VB, 0 },
	{ "tests", K_OBJ, NULL, VB, 0 },
	{ "issues", K_OBJ, NULL, VB, 0 },
	{ "incidents", K_OBJ, NULL, VB, 0 },
	{ NULL, 0, NULL, 0, 0 },
};

/* The submission against the schema of major version ver: the number
 * of violations, listed in k->errs. */
static size_t violations(struct check *k, const json_t *sub)
{
	const json_t *v = json_object_get(sub, "version"), *o, *mj, *mn;
	unsigned ver = k->ver;
	const char *key;
	size_t i;

	json_object_foreach((json_t *)sub, key, o) {
		for (i = 0; top_props[i].name && strcmp(top_props[i].name, key); i++)
			;
		if (!top_props[i].name)
			bad(k, "%s: not a property of the schema", key);
	}
	mj = json_object_get(v, "major");
	mn = json_object_get(v, "minor");
	if (!json_is_object(v) || json_object_size(v) != (mn ? 2u : 1u) ||
	    !json_is_integer(mj) || json_integer_value(mj) != (ver == V4 ? 4 : 5))
		bad(k, "version: not {major: %d[, minor]}", ver == V4 ? 4 : 5);
	/* the highest minor of the version checked: 4.4, 5.0 */
	if (mn && (!json_is_integer(mn) || json_integer_value(mn) < 0 ||
		   json_integer_value(mn) > (ver == V4 ? 4 : 0)))
		bad(k, "version.minor: out of range");
	check_list(k, sub, "checkouts", checkout_props, checkout_required);
	check_list(k, sub, "builds", build_props, build_required);
	check_list(k, sub, "tests", test_props, test_required);
	no_nulls(k, "submission", sub);
	/* what links them: a build's checkout and a test's build are sent too */
	json_array_foreach(json_object_get(sub, "builds"), i, o)
		if (!has_id(sub, "checkouts", json_string_value(json_object_get(o, "checkout_id"))))
			bad(k, "builds[%zu]: checkout_id names no checkout", i);
	json_array_foreach(json_object_get(sub, "tests"), i, o)
		if (!has_id(sub, "builds", json_string_value(json_object_get(o, "build_id"))))
			bad(k, "tests[%zu]: build_id names no build", i);
	return k->nerr;
}

static void validate(const json_t *sub, unsigned ver, const char *origin)
{
	struct check k = { .ver = ver, .origin = origin };

	ck_assert_msg(violations(&k, sub) == 0, "%zu violations of the KCIDB %d schema:\n%s",
		      k.nerr, ver == V4 ? 4 : 5, k.errs);
}

/* ---- what the fixtures fill ---- */

/*
 * Every member the exporter writes, by where it is: the fixtures below
 * must fill each (and nothing else), so that each is checked above.
 */
static const char *const filled[] = {
	"checkout.id", "checkout.origin", "checkout.valid", "checkout.comment",
	"checkout.misc",
	"build.id", "build.checkout_id", "build.origin", "build.architecture",
	"build.compiler", "build.config_name", "build.misc", "build.status", "build.valid",
	"test.id", "test.build_id", "test.origin", "test.path", "test.comment", "test.status",
	"test.number", "test.start_time", "test.duration", "test.environment", "test.misc",
	"test.log_excerpt",
	"number.value", "number.unit", "number.prefix",
	"environment.comment", "environment.misc",
	"misc.benchmark", "misc.group", "misc.pmbench_unit", "misc.lmbench", "misc.aim9",
	"misc.pmbench_version", "misc.source", "misc.label", "misc.result_files", "misc.runs",
	"misc.interval", "misc.reason", "misc.counters_per_op", "misc.counters_unavailable",
	"misc.comparison", "misc.first_cause",
	"status:FAIL", "status:PASS", "status:DONE", "status:SKIP",
	"prefix:metric", "prefix:binary", "proven:true", "proven:false",
	NULL,
};

static json_t *seen;

/* "what:value" */
static void note(const char *what, const char *value)
{
	char k[128];

	snprintf(k, sizeof(k), "%s:%s", what, value);
	json_object_set_new(seen, k, json_true());
}

static void note_keys(const char *what, const json_t *o)
{
	const char *key;
	const json_t *v;

	json_object_foreach((json_t *)o, key, v) {
		char k[128];

		snprintf(k, sizeof(k), "%s.%s", what, key);
		json_object_set_new(seen, k, json_true());
	}
}

static void note_filled(const json_t *sub)
{
	const json_t *o, *fc;
	size_t i;

	json_array_foreach(json_object_get(sub, "checkouts"), i, o)
		note_keys("checkout", o);
	json_array_foreach(json_object_get(sub, "builds"), i, o)
		note_keys("build", o);
	json_array_foreach(json_object_get(sub, "tests"), i, o) {
		note_keys("test", o);
		note_keys("number", json_object_get(o, "number"));
		note_keys("environment", json_object_get(o, "environment"));
		note_keys("misc", json_object_get(o, "misc"));
		note("status", str(o, "status"));
		if (json_object_get(o, "number"))
			note("prefix", str(json_object_get(o, "number"), "prefix"));
		fc = json_object_get(json_object_get(o, "misc"), "first_cause");
		if (fc)
			note("proven", json_is_true(json_object_get(fc, "proven")) ? "true" :
			     "false");
	}
}

/* ---- fixtures ---- */

static const char *data(void)
{
	const char *d = getenv("TEST_DATA");

	return d ? d : "tests/data";
}

static const struct pm_kcidb_opts v5 = { "pmbench_test", 5, NULL };
static const struct pm_kcidb_opts v4 = { "pmbench_test", 4, NULL };

/* The submission, checked and its fields noted. */
static void checked(const json_t *sub, const struct pm_kcidb_opts *o)
{
	validate(sub, o->major == 4 ? V4 : V5, o->origin);
	note_filled(sub);
}

static void load_pair(struct pm_explanation *x, struct pm_side *o, struct pm_side *n,
		      const char *a, const char *b)
{
	struct pm_explain_opts opts;
	char *pa = pm_xasprintf("%s/%s", data(), a), *pb = pm_xasprintf("%s/%s", data(), b);
	struct pm_err e;

	pm_explain_opts_default(&opts);
	ck_assert_msg(pm_cli_side_load(o, pa, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_cli_side_load(n, pb, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_explain(x, o, n, &opts, &e) == 0, "%s", e.msg);
	free(pa);
	free(pb);
}

static json_t *explained(const struct pm_explanation *x, const struct pm_kcidb_opts *o)
{
	json_t *sub = NULL;
	struct pm_err e;

	ck_assert_msg(pm_kcidb_explanation(&sub, x, o, &e) == 0, "%s", e.msg);
	checked(sub, o);
	return sub;
}

/* The test of path pmbench.NAME whose id has (or has not) "-vs-". */
static const json_t *test_of(const json_t *sub, const char *name, bool compared)
{
	const json_t *t;
	char path[128];
	size_t i;

	snprintf(path, sizeof(path), "pmbench.%s", name);
	json_array_foreach(json_object_get(sub, "tests"), i, t)
		if (!strcmp(str(t, "path"), path) && !!strstr(str(t, "id"), "-vs-") == compared)
			return t;
	ck_abort_msg("no %s test of %s", compared ? "compared" : "plain", name);
	return NULL;
}

static const json_t *misc_of(const json_t *t, const char *key)
{
	return json_object_get(json_object_get(t, "misc"), key);
}

/* A side's figure of a benchmark, as its file has it, in seconds. */
static double figure_s(const struct pm_side *s, const char *name)
{
	struct pm_figure f;

	ck_assert_int_eq(pm_bench_figure(pm_result_find(&s->runs[0], name), PM_FIGURE_LEVEL,
					 &f), 0);
	return f.value * 1e-9;
}

static double num_value(const json_t *t)
{
	return json_number_value(json_object_get(json_object_get(t, "number"), "value"));
}

static const char *status_of(enum pm_verdict v)
{
	return v == PM_REGRESSION ? "FAIL" : v == PM_IMPROVEMENT || v == PM_NO_CHANGE ?
	       "PASS" : "DONE";
}

/* Two real runs (tests/data/kcidb: null, stat and macro-cc, which has
 * no compiler here; NEW under a preload library that burns time in
 * front of every syscall()): null a regression, its cause user space. */
static void real_runs(void)
{
	struct pm_explanation x;
	struct pm_side o, n;
	json_t *sub, *again, *sub4;
	const json_t *t, *b, *cmp, *fc;
	size_t i;

	load_pair(&x, &o, &n, "kcidb/old.json", "kcidb/new.json");
	sub = explained(&x, &v5);
	for (i = 0; i < x.ncmp; i++) {
		const struct pm_bench_cmp *c = &x.cmp[i];

		t = test_of(sub, c->name, true);
		ck_assert_str_eq(str(t, "status"), status_of(c->verdict));
		cmp = misc_of(t, "comparison");
		ck_assert_str_eq(str(cmp, "verdict"), pm_verdict_name(c->verdict));
		ck_assert_str_eq(str(cmp, "baseline_test_id"), str(test_of(sub, c->name, false),
								     "id"));
		ck_assert_double_eq_tol(json_number_value(json_object_get(cmp, "time_ratio")),
					pm_report_change(c), 1e-9);
		/* each side's number is its file's figure */
		ck_assert_double_eq_tol(num_value(t), figure_s(&n, c->name), 1e-15);
		ck_assert_double_eq_tol(num_value(test_of(sub, c->name, false)),
					figure_s(&o, c->name), 1e-15);
		ck_assert(strstr(str(t, "log_excerpt"), c->name) == str(t, "log_excerpt"));
	}
	t = test_of(sub, "null", true);
	ck_assert_str_eq(str(t, "status"), "FAIL");
	fc = misc_of(t, "first_cause");
	ck_assert_ptr_nonnull(fc);
	for (i = 0; strcmp(x.cmp[i].name, "null"); i++)
		;
	ck_assert_uint_gt(x.cmp[i].ncauses, 0);
	ck_assert_str_eq(str(fc, "rule"), x.cmp[i].causes[0].rule);
	ck_assert(json_is_false(json_object_get(fc, "proven")));
	ck_assert_str_eq(str(test_of(sub, "macro-cc", false), "status"), "SKIP");
	ck_assert_ptr_nonnull(strstr(str(test_of(sub, "macro-cc", false), "log_excerpt"),
				     "compiler"));
	ck_assert_ptr_nonnull(json_object_get(misc_of(test_of(sub, "null", false),
						      "counters_unavailable"), "cycles"));
	/* the same files, the same ids: KCIDB merges a submission sent twice */
	again = explained(&x, &v5);
	ck_assert(json_equal(sub, again));
	/* schema 4: a build is valid, it has no status */
	sub4 = explained(&x, &v4);
	json_array_foreach(json_object_get(sub4, "builds"), i, b) {
		ck_assert(json_is_true(json_object_get(b, "valid")));
		ck_assert_ptr_null(json_object_get(b, "status"));
	}
	json_decref(sub);
	json_decref(again);
	json_decref(sub4);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}

/* One result alone: its tests are the ones an explanation gives OLD. */
static void single_file(void)
{
	struct pm_explanation x;
	struct pm_side o, n, s;
	struct pm_kcidb_opts only = v5;
	json_t *one = NULL, *both, *nul = NULL;
	const json_t *t;
	struct pm_err e;
	char *p = pm_xasprintf("%s/kcidb/old.json", data());
	size_t i;

	ck_assert_msg(pm_cli_side_load(&s, p, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_kcidb_side(&one, &s, &v5, &e) == 0, "%s", e.msg);
	checked(one, &v5);
	load_pair(&x, &o, &n, "kcidb/old.json", "kcidb/new.json");
	both = explained(&x, &v5);
	ck_assert_uint_eq(json_array_size(json_object_get(one, "tests")), 3);
	json_array_foreach(json_object_get(one, "tests"), i, t) {
		ck_assert_str_ne(str(t, "status"), "FAIL");
		ck_assert(json_equal((json_t *)t, (json_t *)test_of(both,
			json_string_value(misc_of(t, "benchmark")), false)));
	}
	only.only = "null";
	ck_assert_msg(pm_kcidb_side(&nul, &s, &only, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(json_array_size(json_object_get(nul, "tests")), 1);
	json_decref(nul);
	only.only = "nosuchbench";
	ck_assert_int_eq(pm_kcidb_side(&nul, &s, &only, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "nosuchbench"));
	json_decref(one);
	json_decref(both);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
	pm_side_free(&s);
	free(p);
}

/* A side as one of pmbench ab's experiments with one difference,
 * mitigations=off of A (as tests/cli/experiment.sh makes them). */
static void as_experiment(struct pm_side *s, const char *side)
{
	struct pm_result *r = &s->runs[0];
	json_t *ab = json_pack("{s:s,s:{s:s,s:[{s:s,s:s,s:s,s:n,s:s}],s:i,s:s,s:i,s:f}}",
		"side", side, "experiment", "id", "20261205T100000Z-7", "differences",
		"kind", "removed", "param", "mitigations", "a", "off", "b", "text",
		"mitigations=off of A", "seed", 7, "pairing", "in turn", "pairs", 12,
		"seconds", 340.5);

	free(r->label);
	r->label = pm_xstrdup(side);
	if (!r->options)
		r->options = json_object();
	json_object_set_new(r->options, "ab", ab);
}

/* The experiment proves the first cause: the test says so. */
static void proven(void)
{
	struct pm_explain_opts opts;
	struct pm_explanation x;
	struct pm_side o, n;
	char *pa = pm_xasprintf("%s/explain/mitigations/old.json", data());
	char *pb = pm_xasprintf("%s/explain/mitigations/new.json", data());
	const json_t *t, *fc;
	struct pm_err e;
	json_t *sub;

	pm_explain_opts_default(&opts);
	ck_assert_msg(pm_cli_side_load(&o, pa, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_cli_side_load(&n, pb, &e) == 0, "%s", e.msg);
	as_experiment(&o, "A");
	as_experiment(&n, "B");
	ck_assert_msg(pm_explain(&x, &o, &n, &opts, &e) == 0, "%s", e.msg);
	sub = explained(&x, &v5);
	t = test_of(sub, "null", true);
	ck_assert_str_eq(str(t, "status"), "FAIL");
	fc = misc_of(t, "first_cause");
	ck_assert(json_is_true(json_object_get(fc, "proven")));
	ck_assert_str_ne(str(fc, "proof"), "");
	ck_assert_msg(strstr(str(fc, "switched_by"), "mitigations=off") != NULL, "%s",
		      json_dumps(fc, 0));
	ck_assert_str_eq(str(json_object_get(t, "misc"), "label"), "B");
	json_decref(sub);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
	free(pa);
	free(pb);
}

/* Sides of several result files: one test each, the runs' figure. */
static void several_files(void)
{
	struct pm_explanation x;
	struct pm_side o, n;
	const json_t *t, *iv;
	json_t *sub;

	load_pair(&x, &o, &n, "explain/page-tables/old", "explain/page-tables/new");
	sub = explained(&x, &v5);
	t = test_of(sub, "fork", false);
	ck_assert_int_eq(json_integer_value(misc_of(t, "result_files")), 3);
	ck_assert_int_eq(json_integer_value(misc_of(t, "runs")), 3);
	iv = misc_of(t, "interval");
	ck_assert_str_eq(str(iv, "basis"), "runs");
	ck_assert(json_number_value(json_object_get(iv, "low")) <= num_value(t) &&
		  num_value(t) <= json_number_value(json_object_get(iv, "high")));
	ck_assert_str_eq(str(test_of(sub, "fork", true), "status"), "FAIL");
	json_decref(sub);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}

/* ---- through the command ---- */

static const char *pmbench(void)
{
	const char *p = getenv("PMBENCH");

	return p ? p : "./pmbench";
}

/* pmbench ARGS (a shell command line): its standard output as JSON. */
static json_t *cli_json(const char *args)
{
	char *cmd = pm_xasprintf("%s %s", pmbench(), args);
	FILE *p = popen(cmd, "r");
	json_error_t je;
	json_t *j;

	ck_assert_ptr_nonnull(p);
	j = json_loadf(p, 0, &je);
	ck_assert_msg(pclose(p) == 0, "%s: failed", cmd);
	ck_assert_msg(j != NULL, "%s: %s", cmd, je.text);
	free(cmd);
	return j;
}

static void cli_run(const char *args)
{
	char *cmd = pm_xasprintf("%s %s >/dev/null 2>&1", pmbench(), args);

	ck_assert_msg(system(cmd) == 0, "%s: failed", cmd);
	free(cmd);
}

/* Equal but for the digits of numbers the command rounds (to 10). */
static bool near(const json_t *a, const json_t *b)
{
	const char *key;
	const json_t *v;
	size_t i;

	if (json_is_number(a) && json_is_number(b))
		return fabs(json_number_value(a) - json_number_value(b)) <=
		       1e-9 * fabs(json_number_value(a));
	if (json_is_object(a) && json_is_object(b)) {
		if (json_object_size(a) != json_object_size(b))
			return false;
		json_object_foreach((json_t *)a, key, v)
			if (!near(v, json_object_get(b, key)))
				return false;
		return true;
	}
	if (json_is_array(a) && json_is_array(b)) {
		if (json_array_size(a) != json_array_size(b))
			return false;
		json_array_foreach((json_t *)a, i, v)
			if (!near(v, json_array_get(b, i)))
				return false;
		return true;
	}
	return json_equal((json_t *)a, (json_t *)b);
}

/* The command writes what the library makes, for either schema. */
static void cli_real_runs(void)
{
	struct pm_explanation x;
	struct pm_side o, n;
	char *args = pm_xasprintf("export --origin pmbench_test --spread-from none "
				  "--kcidb-version 4 %s/kcidb/old.json %s/kcidb/new.json",
				  data(), data());
	json_t *cli = cli_json(args), *lib;

	checked(cli, &v4);
	load_pair(&x, &o, &n, "kcidb/old.json", "kcidb/new.json");
	lib = explained(&x, &v4);
	ck_assert_msg(near(cli, lib), "pmbench export and the library differ");
	json_decref(cli);
	json_decref(lib);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
	free(args);
}

/* The seeds' old reports, imported: lmbench's two runs a side (rates in
 * MB/s: binary prefixes), AIM9's single figures (ops/s). */
static void cli_seeds(void)
{
	char dir[] = "/tmp/pmbench-kcidb.XXXXXX", *args;
	json_t *sub;
	const json_t *t;

	ck_assert_ptr_nonnull(mkdtemp(dir));
	args = pm_xasprintf("import lmbench %s/seeds/lmbench2-six-rows.txt -o %s/lmb", data(), dir);
	cli_run(args);
	free(args);
	args = pm_xasprintf("export --origin pmbench_test --spread-from none "
			    "%s/lmb/1-214.2.168-Linux_2.4.22-.json "
			    "%s/lmb/2-214.2.168-Linux_2.6.7-r.json", dir, dir);
	sub = cli_json(args);
	checked(sub, &v5);
	t = test_of(sub, "bw-pipe", true);
	ck_assert_str_eq(str(json_object_get(t, "number"), "unit"), "B/s");
	ck_assert_str_eq(str(json_object_get(t, "number"), "prefix"), "binary");
	ck_assert_int_eq(json_integer_value(misc_of(t, "runs")), 2);
	json_decref(sub);
	free(args);
	args = pm_xasprintf("import aim9 %s/seeds/aim9-quoted.txt -o %s/aim9", data(), dir);
	cli_run(args);
	free(args);
	args = pm_xasprintf("export --origin pmbench_test --spread-from none "
			    "%s/aim9/1-aim9.json %s/aim9/2-aim9.json", dir, dir);
	sub = cli_json(args);
	checked(sub, &v5);
	ck_assert_str_eq(str(json_object_get(test_of(sub, "aim9-fork-test", true), "number"),
			     "unit"), "ops/s");
	json_decref(sub);
	free(args);
	args = pm_xasprintf("rm -rf %s", dir);
	ck_assert_int_eq(system(args), 0);
	free(args);
}

START_TEST(kcidb_real_runs) { real_runs(); }
END_TEST
START_TEST(kcidb_single_file) { single_file(); }
END_TEST
START_TEST(kcidb_proven) { proven(); }
END_TEST
START_TEST(kcidb_several_files) { several_files(); }
END_TEST
START_TEST(kcidb_cli_real_runs) { cli_real_runs(); }
END_TEST
START_TEST(kcidb_cli_seeds) { cli_seeds(); }
END_TEST

/* Every field the exporter fills is filled by one of the fixtures (and
 * so checked), and it fills no other. */
START_TEST(kcidb_fields_filled)
{
	const char *key;
	json_t *v;
	size_t i;

	real_runs();
	single_file();
	proven();
	several_files();
	cli_real_runs();
	cli_seeds();
	for (i = 0; filled[i]; i++)
		ck_assert_msg(json_object_get(seen, filled[i]), "no fixture fills %s", filled[i]);
	json_object_foreach(seen, key, v) {
		for (i = 0; filled[i] && strcmp(filled[i], key); i++)
			;
		ck_assert_msg(filled[i] != NULL, "%s is filled but not in the list of fields "
			      "checked", key);
	}
}
END_TEST

/* The checker finds what breaks each rule (a checker that cannot fail
 * would prove nothing). */
START_TEST(kcidb_checker_fails)
{
	static const char *const breakage[] = {
		"extra property", "required missing", "null", "bad status", "bad path",
		"id of another origin", "dangling build_id", "status in a v4 build",
		"number without value", "bad prefix", "long excerpt", "bad date-time",
		"minor too high", NULL,
	};
	struct pm_side s;
	struct pm_err e;
	char *p = pm_xasprintf("%s/kcidb/old.json", data());
	json_t *good = NULL;
	size_t i;

	ck_assert_msg(pm_cli_side_load(&s, p, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_kcidb_side(&good, &s, &v5, &e) == 0, "%s", e.msg);
	validate(good, V5, "pmbench_test");
	for (i = 0; breakage[i]; i++) {
		json_t *b = json_deep_copy(good), *t = json_array_get(json_object_get(b, "tests"), 0);

		struct check k = { .ver = V5, .origin = "pmbench_test" };
		char *big = pm_xcalloc(EXCERPT + 2, 1);

		switch (i) {
		case 0: json_object_set_new(t, "frobs", json_true()); break;
		case 1: json_object_del(t, "build_id"); break;
		case 2: json_object_set_new(json_object_get(t, "misc"), "x", json_null()); break;
		case 3: json_object_set_new(t, "status", json_string("OK")); break;
		case 4: json_object_set_new(t, "path", json_string("pmbench..null")); break;
		case 5: json_object_set_new(t, "id", json_string("other:x")); break;
		case 6: json_object_set_new(t, "build_id", json_string("pmbench_test:none")); break;
		case 7: k.ver = V4; break;
		case 8: json_object_del(json_object_get(t, "number"), "value"); break;
		case 9: json_object_set_new(json_object_get(t, "number"), "prefix",
					    json_string("si")); break;
		case 10: memset(big, 'x', EXCERPT + 1);
			json_object_set_new(t, "log_excerpt", json_string(big)); break;
		case 11: json_object_set_new(t, "start_time", json_string("yesterday")); break;
		case 12: json_object_set_new(json_object_get(b, "version"), "minor",
					     json_integer(1)); break;
		}
		ck_assert_msg(violations(&k, b) > 0, "the checker took a submission with %s",
			      breakage[i]);
		free(big);
		json_decref(b);
	}
	json_decref(good);
	pm_side_free(&s);
	free(p);
}
END_TEST

START_TEST(kcidb_origins)
{
	ck_assert(pm_kcidb_origin_valid("pmbench_lab1"));
	ck_assert(!pm_kcidb_origin_valid(""));
	ck_assert(!pm_kcidb_origin_valid("Lab"));
	ck_assert(!pm_kcidb_origin_valid("my-lab"));
	ck_assert(!pm_kcidb_origin_valid("a:b"));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("kcidb");
	TCase *tc = tcase_create("kcidb");
	SRunner *sr;
	int failed;

	seen = json_object();
	tcase_set_timeout(tc, 120);
	tcase_add_test(tc, kcidb_origins);
	tcase_add_test(tc, kcidb_checker_fails);
	tcase_add_test(tc, kcidb_real_runs);
	tcase_add_test(tc, kcidb_single_file);
	tcase_add_test(tc, kcidb_proven);
	tcase_add_test(tc, kcidb_several_files);
	tcase_add_test(tc, kcidb_cli_real_runs);
	tcase_add_test(tc, kcidb_cli_seeds);
	tcase_add_test(tc, kcidb_fields_filled);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	json_decref(seen);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
