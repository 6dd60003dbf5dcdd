/*
 * The guarantees of an explanation (src/explain/invariants.c): every
 * fixture keeps them, and each one catches a violation planted in an
 * explanation or its text.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "explain/explain.h"

static const char *data(void)
{
	const char *d = getenv("TEST_DATA");

	return d ? d : "tests/data";
}

struct fx {
	struct pm_side o, n;
	struct pm_explanation x;
	char *text;
};

static void fx_load(struct fx *f, const char *a, const char *b)
{
	struct pm_explain_opts opts;
	char *pa = pm_xasprintf("%s/explain/%s", data(), a);
	char *pb = pm_xasprintf("%s/explain/%s", data(), b);
	struct pm_err e;
	size_t len = 0;
	FILE *m;

	pm_explain_opts_default(&opts);
	ck_assert_msg(pm_cli_side_load(&f->o, pa, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_cli_side_load(&f->n, pb, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_explain(&f->x, &f->o, &f->n, &opts, &e) == 0, "%s", e.msg);
	f->text = NULL;
	m = open_memstream(&f->text, &len);
	ck_assert_ptr_nonnull(m);
	pm_report_text(&f->x, m, false, true);
	fclose(m);
	free(pa);
	free(pb);
}

static void fx_free(struct fx *f)
{
	pm_explanation_free(&f->x);
	pm_side_free(&f->o);
	pm_side_free(&f->n);
	free(f->text);
}

/* The ids of the guarantees broken, blank-separated ("" when none). */
static char *broken(const struct pm_explanation *x, const char *text)
{
	struct pm_violations v = { 0 };
	char *out = pm_xstrdup("");

	pm_explain_check(x, text, &v);
	for (size_t i = 0; i < v.n; i++) {
		char *t = pm_xasprintf("%s%s%s", out, *out ? " " : "", v.v[i].invariant);

		free(out);
		out = t;
	}
	pm_violations_free(&v);
	return out;
}

static void expect(const struct pm_explanation *x, const char *text, const char *id)
{
	char *got = broken(x, text);

	ck_assert_msg(strstr(got, id) != NULL, "planted '%s', the checker found '%s'", id, got);
	free(got);
}

static struct pm_bench_cmp *find(struct fx *f, const char *name)
{
	for (size_t i = 0; i < f->x.ncmp; i++)
		if (!strcmp(f->x.cmp[i].name, name))
			return &f->x.cmp[i];
	ck_abort_msg("%s not compared", name);
	return NULL;
}

/* Every fixture keeps every guarantee. */
START_TEST(fixtures_keep_them)
{
	static const char *const pairs[][2] = {
		{ "page-tables/old", "page-tables/new" }, { "mitigations/old.json", "mitigations/new.json" },
		{ "paravirt/old.json", "paravirt/new.json" }, { "frequency/old.json", "frequency/new.json" },
		{ "noisy/old.json", "noisy/new.json" }, { "scaling/old.json", "scaling/new.json" },
		{ "suite/old.json", "suite/new.json" }, { "suite/old.json", "suite/new-cmdline.json" },
		{ "spread/old.json", "spread/new.json" },
	};

	for (size_t i = 0; i < PM_ARRAY_SIZE(pairs); i++) {
		struct fx f;
		char *got;

		fx_load(&f, pairs[i][0], pairs[i][1]);
		got = broken(&f.x, f.text);
		ck_assert_msg(!*got, "%s: broken: %s", pairs[i][0], got);
		free(got);
		fx_free(&f);
	}
}
END_TEST

/* A part larger than its side's figure. */
START_TEST(plant_parts)
{
	struct fx f;
	struct pm_bench_cmp *c;

	fx_load(&f, "mitigations/old.json", "mitigations/new.json");
	c = find(&f, "null");
	ck_assert_uint_gt(c->nsyms, 0);
	c->syms[0].new_ns = 1.2 * c->med_new;
	expect(&f.x, NULL, "parts");
	fx_free(&f);
}
END_TEST

/* An estimate outside its interval, and figures not its ratio. */
START_TEST(plant_estimate)
{
	struct fx f;
	struct pm_bench_cmp *c;

	fx_load(&f, "mitigations/old.json", "mitigations/new.json");
	c = find(&f, "null");
	ck_assert(isfinite(c->ci_high));
	c->ratio = c->ci_high * 1.05;
	expect(&f.x, NULL, "estimate");
	fx_free(&f);
}
END_TEST

/* The text: each line planted after the report's own. */
static void plant_line(const char *fixture_a, const char *fixture_b, const char *line,
		       const char *id)
{
	struct fx f;
	char *text;

	fx_load(&f, fixture_a, fixture_b);
	text = pm_xasprintf("%s%s\n", f.text, line);
	expect(&f.x, text, id);
	free(text);
	fx_free(&f);
}

START_TEST(plant_shares)
{
	plant_line("mitigations/old.json", "mitigations/new.json",
		   "null  REGRESSION  x\n    - hooks: +2.44 us per op (111% of the change)", "shares");
}
END_TEST

START_TEST(plant_words)
{
	/* grew, yet said switched off */
	plant_line("mitigations/old.json", "mitigations/new.json",
		   "null  REGRESSION  x\n         - the code it switched off: process creation "
		   "and exit, 132 ns -> 155 ns per op", "words");
	plant_line("mitigations/old.json", "mitigations/new.json",
		   "null  REGRESSION  x\n    in ptrace: 40.0 us -> 82.2 us per op (+42.2 us), "
		   "runs in NEW only", "words");
}
END_TEST

START_TEST(plant_summary)
{
	/* null's estimate is not +14.0% */
	plant_line("mitigations/old.json", "mitigations/new.json",
		   "inconclusive (1): null +914.0%", "summary");
}
END_TEST

START_TEST(plant_contention)
{
	struct fx f;
	struct pm_bench_cmp *c;
	char *text;

	fx_load(&f, "mitigations/old.json", "mitigations/new.json");
	c = find(&f, "null");
	text = pm_xasprintf("%s  null: would be settled by runs while the machine is as busy "
			    "on both sides: other work ..., which alone could make it x%.3f\n",
			    f.text, sqrt(c->ratio > 1 ? c->ci_low : c->ci_high));
	expect(&f.x, text, "contention");
	free(text);
	fx_free(&f);
}
END_TEST

START_TEST(plant_sides)
{
	/* both sides of the fixture have hotspots */
	plant_line("mitigations/old.json", "mitigations/new.json",
		   "evidence unavailable: no sampled hotspots on either side (--no-profile)",
		   "sides");
}
END_TEST

/* ab's records and its pairing, planted in the sides' options. */
static void ab_options(struct pm_side *s, const char *pairing, const char *verdict,
		       bool local)
{
	for (size_t i = 0; i < s->nruns; i++) {
		json_t *o = s->runs[i].options ? s->runs[i].options : json_object();
		json_t *e = json_pack("{s:s,s:s,s:[],s:{s:{s:s,s:b,s:i}}}", "id", "x1",
				      "pairing", pairing, "differences", "decided", "null",
				      "verdict", verdict, "decided", 1, "pairs", 5);
		json_t *ab = json_pack("{s:o,s:b}", "experiment", e, "local", local);

		json_object_set_new(o, "ab", ab);
		s->runs[i].options = o;
	}
}

START_TEST(plant_pairing_and_decisions)
{
	struct fx f;
	struct pm_bench_cmp *c;

	fx_load(&f, "page-tables/old", "page-tables/new");
	c = find(&f, "fork");
	c->paired = c->sequential = true;
	c->at_once = false;
	ab_options(&f.o, "duet", "improvement", false);
	ab_options(&f.n, "duet", "improvement", false);
	/* fork regressed in the report; ab "stopped on" an improvement for
	 * null, which the report does not have: only fork's is checked */
	json_object_set_new(json_object_get(json_object_get(json_object_get(
		f.n.runs[0].options, "ab"), "experiment"), "decided"), "fork",
		json_pack("{s:s,s:b,s:i}", "verdict", "improvement", "decided", 1, "pairs", 4));
	expect(&f.x, NULL, "pairing");
	expect(&f.x, NULL, "decisions");
	fx_free(&f);
}
END_TEST

START_TEST(plant_local)
{
	struct fx f;
	char *text;

	fx_load(&f, "mitigations/old.json", "mitigations/new.json");
	ab_options(&f.o, "in turn", "regression", true);
	ab_options(&f.n, "in turn", "regression", true);
	text = pm_xasprintf("%snull  REGRESSION  x\n    1. (pmbench ab booted them alike)\n",
			    f.text);
	expect(&f.x, text, "local");
	free(text);
	fx_free(&f);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("invariants");
	TCase *tc = tcase_create("guarantees");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, fixtures_keep_them);
	tcase_add_test(tc, plant_parts);
	tcase_add_test(tc, plant_estimate);
	tcase_add_test(tc, plant_shares);
	tcase_add_test(tc, plant_words);
	tcase_add_test(tc, plant_summary);
	tcase_add_test(tc, plant_contention);
	tcase_add_test(tc, plant_sides);
	tcase_add_test(tc, plant_pairing_and_decisions);
	tcase_add_test(tc, plant_local);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
