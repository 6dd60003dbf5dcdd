/* The benchmark registry: names, groups, descriptors. */
#include "config.h"

#include <check.h>
#include <ctype.h>
#include <string.h>

#include "bench/bench.h"

static const char *const sections[] = { "proc: ", "ctx: ", "lat: ", "fs: ",
					"bw: ", "mem: ", "int: ", "float: ",
					"double: ", "basic: " };

START_TEST(names_unique_and_well_formed)
{
	const struct pm_bench *a, *b;
	size_t i, j, n = 0;

	for (i = 0; (a = pm_bench_at(i)); i++) {
		const char *p;

		n++;
		ck_assert_msg(a->name && *a->name, "benchmark %zu has no name", i);
		for (p = a->name; *p; p++)
			ck_assert_msg(islower((unsigned char)*p) || isdigit((unsigned char)*p) ||
				      *p == '-', "bad character in name '%s'", a->name);
		for (j = i + 1; (b = pm_bench_at(j)); j++)
			ck_assert_msg(strcmp(a->name, b->name), "'%s' registered twice", a->name);
		ck_assert_ptr_eq(pm_bench_find(a->name), a);
		/* a benchmark name never shadows a group or command */
		ck_assert_msg(strcmp(a->name, "all") && strcmp(a->name, "quick") &&
			      strcmp(a->name, "run") && strcmp(a->name, "list") &&
			      strcmp(a->name, "show") && strcmp(a->name, "help"),
			      "'%s' collides with a group or command", a->name);
	}
	ck_assert_uint_ge(n, 16);
	ck_assert_ptr_null(pm_bench_find("no-such-benchmark"));
}
END_TEST

START_TEST(descriptors_complete)
{
	const struct pm_bench *b;
	size_t i, k;

	for (i = 0; (b = pm_bench_at(i)); i++) {
		ck_assert_msg(b->summary && *b->summary, "%s: no summary", b->name);
		ck_assert_msg(!!b->op + !!b->run + !!b->measure == 1,
			      "%s: needs exactly one of op(), run() and measure()", b->name);
		/* an op without its inlined loop would be timed through a pointer */
		ck_assert_msg(!b->op || b->op_loop,
			      "%s: op() without op_loop: define it with PM_OP and name it "
			      "with PM_OP_HOOKS", b->name);
		/* timed loops use a time or rate unit; measured values their own */
		ck_assert_msg(b->unit && (b->measure || !strcmp(b->unit, "us") ||
			      !strcmp(b->unit, "ns") || !strcmp(b->unit, "ms") ||
			      !strcmp(b->unit, "MB/s") ||
			      !strcmp(b->unit, "ops/s")),
			      "%s: unit '%s'", b->name, b->unit ? b->unit : "(null)");
		ck_assert_msg(!b->measure || (strcmp(b->unit, "us") && strcmp(b->unit, "ns")),
			      "%s: a measured value with a time unit", b->name);
		ck_assert_msg(pm_group_exists(b->group), "%s: group '%s'", b->name, b->group);
		if (b->lmbench) {
			bool ok = false;

			for (k = 0; k < sizeof(sections) / sizeof(sections[0]); k++)
				if (!strncmp(b->lmbench, sections[k], strlen(sections[k])))
					ok = true;
			ck_assert_msg(ok, "%s: lmbench column '%s' has no known section",
				      b->name, b->lmbench);
		}
		ck_assert_msg(!(b->flags & PM_PEERS) || b->setup,
			      "%s: peers need a setup()", b->name);
	}
}
END_TEST

START_TEST(groups)
{
	const struct pm_bench *b;
	size_t i, f, quick = 0, all = 0, in_families = 0;

	ck_assert(pm_group_exists("proc"));
	ck_assert(pm_group_exists("quick"));
	ck_assert(pm_group_exists("all"));
	ck_assert(!pm_group_exists("nope"));
	for (i = 0; (b = pm_bench_at(i)); i++) {
		all += pm_bench_in_group(b, "all");
		quick += pm_bench_in_group(b, "quick");
		ck_assert(pm_bench_in_group(b, b->group));
		ck_assert_int_eq(pm_bench_in_group(b, "quick"), !!(b->flags & PM_QUICK));
	}
	for (f = 0; f < pm_family_count(); f++)
		in_families += pm_family_at(f)->nbenches;
	ck_assert_uint_eq(all, in_families);
	ck_assert_uint_gt(quick, 0);
	ck_assert_uint_lt(quick, all);
	ck_assert(pm_bench_in_group(pm_bench_find("fork"), "quick"));
	ck_assert(pm_bench_find("fork")->flags & PM_FORKS);
	ck_assert(pm_bench_find("pipe")->flags & PM_PEERS);
}
END_TEST

/* Every benchmark says what its operation exercises, in traits of the table. */
START_TEST(exercises_declared)
{
	const struct pm_exercise_info *t, *u;
	const struct pm_bench *b;
	unsigned all = 0, used = 0;
	char names[256];
	size_t i, j;

	for (i = 0; (t = pm_exercise_at(i)); i++) {
		ck_assert_msg(t->bit && !(t->bit & (t->bit - 1)), "%s: not one bit", t->name);
		ck_assert_msg(!(all & t->bit), "%s: bit listed twice", t->name);
		all |= t->bit;
		ck_assert_msg(t->description && *t->description, "%s: no description", t->name);
		ck_assert_uint_eq(pm_exercise_find(t->name), t->bit);
		for (j = 0; j < i; j++) {
			u = pm_exercise_at(j);
			ck_assert_msg(strcmp(u->name, t->name), "%s named twice", t->name);
			/* bit order: result files list them in table order */
			ck_assert_uint_lt(u->bit, t->bit);
		}
	}
	ck_assert_uint_eq(all, PM_EX_ALL);
	ck_assert_uint_eq(pm_exercise_find("no-such-trait"), 0);
	for (i = 0; (b = pm_bench_at(i)); i++) {
		ck_assert_msg(b->exercises, "%s: declares no .exercises", b->name);
		ck_assert_msg(!(b->exercises & ~PM_EX_ALL), "%s: .exercises has unknown bits",
			      b->name);
		used |= b->exercises;
	}
	/* no trait in the table that nothing exercises */
	ck_assert_uint_eq(used, PM_EX_ALL);
	/* what the rules of explain rely on */
	ck_assert_uint_eq(pm_bench_find("null")->exercises, PM_EX_SYSCALL);
	ck_assert(pm_bench_find("page-walk")->exercises & PM_EX_WALK);
	ck_assert(pm_bench_find("wakeup-kernel-hog")->exercises & PM_EX_WAKEUP);
	ck_assert(!(pm_bench_find("aim9-add-int")->exercises & PM_EX_SYSCALL));
	ck_assert_str_eq(pm_exercise_names(PM_EX_FAULT | PM_EX_SYSCALL, ",", names,
					   sizeof(names)), "syscall,fault");
	ck_assert_str_eq(pm_exercise_names(PM_EX_FAULT | PM_EX_SYSCALL, ",", names, 10),
			 "syscall,f");
	ck_assert_str_eq(pm_exercise_names(0, ",", names, sizeof(names)), "");
}
END_TEST

/* Descriptors that share their functions differ by .arg (a shared setup
 * tells them apart by it): otherwise two names measure the same thing. */
START_TEST(shared_functions_differ_by_arg)
{
	const struct pm_bench *a, *b;
	size_t i, j, shared = 0;

	for (i = 0; (a = pm_bench_at(i)); i++)
		for (j = i + 1; (b = pm_bench_at(j)); j++) {
			if (a->setup != b->setup || a->op != b->op || a->run != b->run ||
			    a->measure != b->measure)
				continue;
			shared++;
			ck_assert_msg(a->arg != b->arg, "%s and %s: the same functions and "
				      ".arg", a->name, b->name);
		}
	/* lat-l1 .. lat-rand, ctx-*p-*k, ...: the check has pairs to test */
	ck_assert_uint_ge(shared, 20);
	ck_assert_ptr_nonnull(pm_bench_find("lat-l1")->arg);
	ck_assert_ptr_eq(pm_bench_find("lat-l1")->setup, pm_bench_find("lat-rand")->setup);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("registry");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, names_unique_and_well_formed);
	tcase_add_test(tc, descriptors_complete);
	tcase_add_test(tc, groups);
	tcase_add_test(tc, exercises_declared);
	tcase_add_test(tc, shared_functions_differ_by_arg);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
