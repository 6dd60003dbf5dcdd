/* explain on fixtures with one planted cause each (tests/data/explain). */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"

static const char *data(void)
{
	const char *d = getenv("TEST_DATA");

	return d ? d : "tests/data";
}

static void load(struct pm_explanation *x, struct pm_side *o, struct pm_side *n,
		 const char *a, const char *b)
{
	struct pm_explain_opts opts;
	char *pa = pm_xasprintf("%s/explain/%s", data(), a);
	char *pb = pm_xasprintf("%s/explain/%s", data(), b);
	struct pm_err e;

	pm_explain_opts_default(&opts);
	ck_assert_msg(pm_side_load(o, pa, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_side_load(n, pb, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_explain(x, o, n, &opts, &e) == 0, "%s", e.msg);
	free(pa);
	free(pb);
}

static const struct pm_bench_cmp *find(const struct pm_explanation *x, const char *name)
{
	size_t i;

	for (i = 0; i < x->ncmp; i++)
		if (!strcmp(x->cmp[i].name, name))
			return &x->cmp[i];
	ck_abort_msg("benchmark %s not compared", name);
	return NULL;
}

/* The planted cause is ranked first with high confidence; no other rule
 * reaches high confidence. */
static void planted(const struct pm_bench_cmp *c, const char *rule)
{
	size_t i;

	ck_assert_msg(c->ncauses > 0, "%s: no cause", c->name);
	ck_assert_msg(!strcmp(c->causes[0].rule, rule), "%s: first cause is %s, not %s",
		      c->name, c->causes[0].rule, rule);
	ck_assert_msg(c->causes[0].confidence >= 0.7, "%s: %s only %.2f", c->name, rule,
		      c->causes[0].confidence);
	for (i = 1; i < c->ncauses; i++)
		ck_assert_msg(c->causes[i].confidence < 0.7, "%s: %s also high (%.2f)",
			      c->name, c->causes[i].rule, c->causes[i].confidence);
}

static void verdict(const struct pm_bench_cmp *c, enum pm_verdict v)
{
	ck_assert_msg(c->verdict == v, "%s: %s, expected %s", c->name,
		      pm_verdict_name(c->verdict), pm_verdict_name(v));
}

START_TEST(page_tables)
{
	struct pm_explanation x;
	struct pm_side o, n;

	load(&x, &o, &n, "page-tables/old", "page-tables/new");
	ck_assert_uint_eq(o.nruns, 3);
	verdict(find(&x, "fork"), PM_REGRESSION);
	ck_assert(find(&x, "fork")->by_runs);
	ck_assert_double_eq_tol(find(&x, "fork")->ratio, 235.0 / 166, 0.01);
	planted(find(&x, "fork"), "page-table-levels");
	planted(find(&x, "exec"), "page-table-levels");
	planted(find(&x, "mmap"), "page-table-levels");
	verdict(find(&x, "null"), PM_NO_CHANGE);
	verdict(find(&x, "stat"), PM_NO_CHANGE);
	ck_assert_ptr_nonnull(pm_find_diff(&x, "kernel.page_table_levels"));
	/* where: the kernel took the extra time, page-table code most of it */
	ck_assert_double_gt(find(&x, "fork")->kernel_ns.new - find(&x, "fork")->kernel_ns.old,
			    0.9 * find(&x, "fork")->delta_ns);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

START_TEST(paravirt)
{
	struct pm_explanation x;
	struct pm_side o, n;
	const struct pm_bench_cmp *c;
	size_t i;
	bool pv_new = false;

	load(&x, &o, &n, "paravirt/old.json", "paravirt/new.json");
	c = find(&x, "mmap");
	verdict(c, PM_REGRESSION);
	ck_assert_double_eq_tol(c->ratio, 502.87 / 464.22, 0.01);
	planted(c, "paravirt");
	for (i = 0; i < c->nsyms; i++)
		if (c->syms[i].is_new && strstr(c->syms[i].name, "paravirt"))
			pv_new = true;
	ck_assert(pv_new);
	verdict(find(&x, "null"), PM_NO_CHANGE);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

START_TEST(mitigations)
{
	static const char *const names[] = { "null", "null-io", "stat", "open",
					     "sig-install", "sig-catch" };
	struct pm_explanation x;
	struct pm_side o, n;
	size_t i;

	load(&x, &o, &n, "mitigations/old.json", "mitigations/new.json");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct pm_bench_cmp *c = find(&x, names[i]);

		verdict(c, PM_REGRESSION);
		planted(c, "mitigations");
		/* the same cost on every syscall: +260 ns each */
		ck_assert_double_eq_tol(c->delta_ns, 260, 30);
	}
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

START_TEST(frequency)
{
	static const char *const names[] = { "null", "stat", "fork", "pipe" };
	struct pm_explanation x;
	struct pm_side o, n;
	size_t i;

	load(&x, &o, &n, "frequency/old.json", "frequency/new.json");
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		const struct pm_bench_cmp *c = find(&x, names[i]);

		verdict(c, PM_REGRESSION);
		planted(c, "cpu");
		ck_assert(c->have_counters);
		/* the same work: cycles and instructions per op unchanged */
		ck_assert_double_eq_tol(c->instructions.new / c->instructions.old, 1, 0.01);
		/* the machine ran slower: the verdict is not normalized away */
		ck_assert_double_eq_tol(c->ref_ratio, 1.5, 0.01);
	}
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

START_TEST(noisy)
{
	struct pm_explanation x;
	struct pm_side o, n;
	size_t i;

	load(&x, &o, &n, "noisy/old.json", "noisy/new.json");
	ck_assert_uint_gt(x.ncmp, 0);
	for (i = 0; i < x.ncmp; i++) {
		const struct pm_bench_cmp *c = &x.cmp[i];

		verdict(c, PM_INCONCLUSIVE);
		planted(c, "noise");
		ck_assert_ptr_nonnull(c->settle);
	}
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

/* One copy 5% slower, four copies much faster: a scalability trade-off. */
START_TEST(scaling)
{
	struct pm_explanation x;
	struct pm_side o, n;
	const struct pm_bench_cmp *c;

	load(&x, &o, &n, "scaling/old.json", "scaling/new.json");
	c = find(&x, "aim9-shared-memory");
	verdict(c, PM_REGRESSION);
	ck_assert_uint_eq(c->nscale, 3);
	planted(c, "scaling");
	ck_assert_ptr_nonnull(strstr(c->causes[0].sentence, "trade-off"));
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

/* A/A: a file against itself is no change everywhere, and no cause. */
START_TEST(same_file)
{
	struct pm_explanation x;
	struct pm_side o, n;
	size_t i;

	load(&x, &o, &n, "mitigations/new.json", "mitigations/new.json");
	ck_assert_uint_eq(x.ndiffs, 0);
	for (i = 0; i < x.ncmp; i++) {
		verdict(&x.cmp[i], PM_NO_CHANGE);
		ck_assert_double_eq(x.cmp[i].ratio, 1);
		ck_assert_uint_eq(x.cmp[i].ncauses, 0);
	}
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

/* Benchmarks on one side only are listed, not compared. */
START_TEST(one_side_only)
{
	struct pm_explanation x;
	struct pm_side o, n;

	load(&x, &o, &n, "paravirt/old.json", "frequency/new.json");
	ck_assert_uint_gt(x.nonly_old, 0);
	ck_assert_uint_gt(x.nonly_new, 0);
	ck_assert_ptr_nonnull(find(&x, "null"));
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

START_TEST(rules_documented)
{
	size_t i, j;

	ck_assert_uint_ge(pm_rule_count(), 16);
	for (i = 0; i < pm_rule_count(); i++) {
		ck_assert_ptr_nonnull(pm_rule_at(i)->evidence);
		for (j = i + 1; j < pm_rule_count(); j++)
			ck_assert_str_ne(pm_rule_at(i)->id, pm_rule_at(j)->id);
	}
	ck_assert_ptr_null(pm_rule_at(pm_rule_count()));
}
END_TEST

int main(void)
{
	Suite *s = suite_create("explain");
	TCase *tc = tcase_create("fixtures");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, page_tables);
	tcase_add_test(tc, paravirt);
	tcase_add_test(tc, mitigations);
	tcase_add_test(tc, frequency);
	tcase_add_test(tc, noisy);
	tcase_add_test(tc, scaling);
	tcase_add_test(tc, same_file);
	tcase_add_test(tc, one_side_only);
	tcase_add_test(tc, rules_documented);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
