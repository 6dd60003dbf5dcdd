/* Alias files, libpfm4 encodings and event resolution. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "counters/counters.h"

static const char good[] =
	"# comment\n"
	"; another comment\n"
	"\n"
	"[cycles]\n"
	"description = core cycles\n"
	"event = UNHALTED_CORE_CYCLES\n"
	"event = perf::cycles\n"
	"\n"
	"[icache]\n"
	"  event =  perf::L1-ICACHE-LOAD-MISSES  \n";

START_TEST(parse_good)
{
	struct pm_aliases a = { 0 };
	struct pm_err e;
	const struct pm_alias *c;

	ck_assert_int_eq(pm_aliases_parse(&a, good, "good.events", &e), 0);
	ck_assert_uint_eq(a.n, 2);
	c = pm_alias_find(&a, "cycles");
	ck_assert_ptr_nonnull(c);
	ck_assert_str_eq(c->desc, "core cycles");
	ck_assert_uint_eq(c->nevents, 2);
	ck_assert_str_eq(c->events[0], "UNHALTED_CORE_CYCLES");
	ck_assert_str_eq(c->events[1], "perf::cycles");
	ck_assert_int_eq(c->line, 4);
	c = pm_alias_find(&a, "icache");
	ck_assert_ptr_nonnull(c);
	ck_assert_ptr_null(c->desc);
	ck_assert_str_eq(c->events[0], "perf::L1-ICACHE-LOAD-MISSES");
	ck_assert_ptr_null(pm_alias_find(&a, "nope"));
	pm_aliases_free(&a);
}
END_TEST

static void expect_parse_error(const char *text, const char *msg)
{
	struct pm_aliases a = { 0 };
	struct pm_err e = { "" };

	ck_assert_int_eq(pm_aliases_parse(&a, text, "x.events", &e), -EINVAL);
	ck_assert_msg(strstr(e.msg, msg), "message '%s' lacks '%s'", e.msg, msg);
	ck_assert_uint_eq(a.n, 0);
	pm_aliases_free(&a);
}

START_TEST(parse_errors)
{
	expect_parse_error("[a]\nevent = x\n[b\n", "x.events:3: malformed section header");
	expect_parse_error("event = perf::cycles\n", "x.events:1: 'event' outside of an [alias] section");
	expect_parse_error("[a]\ncolour = red\n", "x.events:2: unknown key 'colour'");
	expect_parse_error("[a]\nevent = x\n[a]\nevent = y\n", "x.events:3: alias 'a' defined twice");
	expect_parse_error("[a]\ndescription = nothing\n[b]\nevent = x\n", "x.events:1: alias 'a' has no event lines");
	expect_parse_error("[a]\nevent = x y\n", "x.events:2: bad event string 'x y'");
	expect_parse_error("[a]\nevent = x,y\n", "x.events:2: bad event string");
	expect_parse_error("[a b]\nevent = x\n", "x.events:1: bad alias name 'a b'");
	expect_parse_error("[a]\njust words\n", "x.events:2: expected 'key = value'");
}
END_TEST

START_TEST(later_file_replaces)
{
	struct pm_aliases a = { 0 };
	struct pm_err e;

	ck_assert_int_eq(pm_aliases_parse(&a, good, "1.events", &e), 0);
	ck_assert_int_eq(pm_aliases_parse(&a, "[cycles]\nevent = perf::cpu-clock\n",
					  "2.events", &e), 0);
	ck_assert_uint_eq(a.n, 2);
	ck_assert_uint_eq(pm_alias_find(&a, "cycles")->nevents, 1);
	ck_assert_str_eq(pm_alias_find(&a, "cycles")->events[0], "perf::cpu-clock");
	ck_assert_str_eq(pm_alias_find(&a, "cycles")->file, "2.events");
	pm_aliases_free(&a);
}
END_TEST

/* The shipped alias files: every required alias, perf:: generic last. */
START_TEST(shipped_aliases)
{
	static const char *const required[] = {
		"cycles", "instructions", "branches", "branch-misses",
		"icache", "itlb", "dtlb", "llc-misses",
	};
	struct pm_aliases a = { 0 };
	struct pm_err e;
	size_t i, j;

	ck_assert_msg(pm_aliases_load_dir(&a, pm_aliases_default_dir(), &e) == 0,
		      "%s", e.msg);
	for (i = 0; i < sizeof(required) / sizeof(required[0]); i++)
		ck_assert_msg(pm_alias_find(&a, required[i]), "no alias %s", required[i]);
	for (i = 0; i < a.n; i++) {
		const struct pm_alias *x = &a.v[i];

		ck_assert_ptr_nonnull(x->desc);
		ck_assert_msg(!strncmp(x->events[x->nevents - 1], "perf::", 6),
			      "%s: last event is not a perf:: generic one", x->name);
		for (j = 0; j + 1 < x->nevents; j++)
			ck_assert_msg(strncmp(x->events[j], "perf::", 6),
				      "%s: perf:: event before a model event", x->name);
	}
	pm_aliases_free(&a);
}
END_TEST

START_TEST(load_dir_errors)
{
	struct pm_aliases a = { 0 };
	struct pm_err e;

	ck_assert_int_eq(pm_aliases_load_dir(&a, "/nonexistent/dir", &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/dir"));
}
END_TEST

/* Generic perf:: encodings, and the user/kernel halves. */
START_TEST(encode_generic)
{
	struct perf_event_attr a;
	struct pm_err e;
	char *fstr = NULL;

	ck_assert_int_eq(pm_encode("perf::cycles", PFM_PLM3, &a, &fstr, &e), 0);
	ck_assert_uint_eq(a.type, PERF_TYPE_HARDWARE);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CPU_CYCLES);
	ck_assert_uint_eq(a.exclude_kernel, 1);
	ck_assert_uint_eq(a.exclude_user, 0);
	ck_assert_ptr_nonnull(strstr(fstr, "PERF_COUNT_HW_CPU_CYCLES"));
	free(fstr);
	ck_assert_int_eq(pm_encode("perf::cycles", PFM_PLM0, &a, NULL, &e), 0);
	ck_assert_uint_eq(a.exclude_kernel, 0);
	ck_assert_uint_eq(a.exclude_user, 1);
	ck_assert_int_eq(pm_encode("perf::instructions", PFM_PLM3, &a, NULL, &e), 0);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_INSTRUCTIONS);
	ck_assert_int_eq(pm_encode("perf::L1-ICACHE-LOAD-MISSES", PFM_PLM3, &a, NULL, &e), 0);
	ck_assert_uint_eq(a.type, PERF_TYPE_HW_CACHE);
	ck_assert_uint_eq(a.config, PERF_COUNT_HW_CACHE_L1I |
			  (PERF_COUNT_HW_CACHE_OP_READ << 8) |
			  (PERF_COUNT_HW_CACHE_RESULT_MISS << 16));
	ck_assert_int_eq(pm_encode("perf::task-clock", PFM_PLM3, &a, NULL, &e), 0);
	ck_assert_uint_eq(a.type, PERF_TYPE_SOFTWARE);
	ck_assert_uint_eq(a.config, PERF_COUNT_SW_TASK_CLOCK);
	ck_assert_int_ne(pm_encode("no_such_event_anywhere", PFM_PLM3, &a, NULL, &e), 0);
}
END_TEST

/* Resolve aliases without opening, on a CPU model libpfm4 is told to
 * assume: the model-specific candidate must win over perf::. */
struct model_case {
	const char *pmu, *alias, *event;
	uint64_t config;
};

static const struct model_case model_cases[] = {
	{ "skl", "cycles", "UNHALTED_CORE_CYCLES", 0x3c },
	{ "skl", "instructions", "INSTRUCTION_RETIRED", 0xc0 },
	{ "skl", "branch-misses", "BR_MISP_RETIRED:ALL_BRANCHES", 0xc5 },
	{ "skl", "icache", "ICACHE_64B:IFTAG_MISS", 0x283 },
	{ "skl", "itlb", "ITLB_MISSES:WALK_COMPLETED", 0xe85 },
	{ "skl", "llc-misses", "LONGEST_LAT_CACHE:MISS", 0x412e },
	{ "hsw", "icache", "ICACHE:MISSES", 0x280 },
	{ "icl", "branches", "BR_INST_RETIRED:ALL_BRANCHES", 0xc4 },
	{ "amd64_fam19h_zen3", "cycles", "CYCLES_NOT_IN_HALT", 0x76 },
	{ "amd64_fam19h_zen3", "instructions", "RETIRED_INSTRUCTIONS", 0xc0 },
	{ "amd64_fam19h_zen3", "icache", "IC_TAG_HIT_MISS:IC_MISS", 0x10000188eull },
	{ "amd64_fam19h_zen4", "branch-misses", "RETIRED_BRANCH_INSTRUCTIONS_MISPREDICTED", 0xc3 },
	{ "amd64_fam17h_zen1", "icache", "32_BYTE_INSTRUCTION_CACHE_MISSES", 0x81 },
	{ "amd64_fam17h_zen2", "itlb", "L1_ITLB_MISS_L2_ITLB_MISS:IF1G:IF2M:IF4K", 0x785 },
};

START_TEST(resolve_model_events)
{
	const struct model_case *mc = &model_cases[_i];
	struct pm_aliases a = { 0 };
	struct pm_events ev = { 0 };
	char *names[] = { (char *)mc->alias, NULL };
	struct pm_err e;

	/* Each test runs in its own process (CK_FORK): libpfm4 is fresh. */
	setenv("LIBPFM_FORCE_PMU", mc->pmu, 1);
	ck_assert_int_eq(pm_aliases_load_dir(&a, pm_aliases_default_dir(), &e), 0);
	ck_assert_msg(pm_events_resolve(&ev, names, &a, false, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(ev.n, 1);
	ck_assert_int_eq(ev.v[0].status, PM_CNT_OK);
	ck_assert_str_eq(ev.v[0].event, mc->event);
	ck_assert_uint_eq(ev.v[0].attr.type, PERF_TYPE_RAW);
	ck_assert_uint_eq(ev.v[0].attr.config, mc->config);
	/* model events split into user and kernel halves */
	ck_assert(ev.v[0].split);
	ck_assert_uint_eq(ev.v[0].attr.exclude_kernel, 1);
	ck_assert_uint_eq(ev.v[0].attr_k.exclude_user, 1);
	ck_assert_uint_eq(ev.v[0].attr_k.config, mc->config);
	pm_events_free(&ev);
	pm_aliases_free(&a);
}
END_TEST

/* An explicit :u is taken as given: no split. */
START_TEST(resolve_explicit_plm)
{
	char *names[] = { "perf::cycles:u", NULL };
	struct pm_events ev = { 0 };
	struct pm_err e;

	ck_assert_int_eq(pm_events_resolve(&ev, names, NULL, false, &e), 0);
	ck_assert(!ev.v[0].split);
	ck_assert_uint_eq(ev.v[0].attr.exclude_kernel, 1);
	ck_assert_uint_eq(ev.v[0].attr.exclude_user, 0);
	pm_events_free(&ev);
}
END_TEST

START_TEST(resolve_unknown)
{
	char *names[] = { "perf::cycles", "definitely_not_an_event", NULL };
	struct pm_events ev = { 0 };
	struct pm_err e;

	ck_assert_int_eq(pm_events_resolve(&ev, names, NULL, true, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "unknown event 'definitely_not_an_event'"));
	pm_events_free(&ev);
}
END_TEST

/* The open path on this machine: either it counts, or it says why. */
START_TEST(resolve_open_here)
{
	struct pm_aliases a = { 0 };
	struct pm_events ev = { 0 };
	char *names[] = { "cycles", NULL };
	struct pm_err e;

	ck_assert_int_eq(pm_aliases_load_dir(&a, pm_aliases_default_dir(), &e), 0);
	ck_assert_int_eq(pm_events_resolve(&ev, names, &a, true, &e), 0);
	if (pm_have_hw_pmu()) {
		ck_assert_int_eq(ev.v[0].status, PM_CNT_OK);
	} else {
		ck_assert_int_eq(ev.v[0].status, PM_CNT_NOT_SUPPORTED);
		ck_assert_ptr_nonnull(strstr(ev.v[0].reason, "no hardware PMU"));
		ck_assert_ptr_null(ev.v[0].event);
	}
	ck_assert_uint_eq(ev.v[0].ncand, pm_alias_find(&a, "cycles")->nevents);
	pm_events_free(&ev);
	pm_aliases_free(&a);
}
END_TEST

START_TEST(software_events)
{
	struct pm_events ev = { 0 };
	char *names[] = { "page-faults", NULL };
	struct pm_err e;
	size_t i;

	/* A software name works without alias files, and is not doubled. */
	ck_assert_int_eq(pm_events_resolve(&ev, names, NULL, true, &e), 0);
	ck_assert_str_eq(ev.v[0].event, "perf::page-faults");
	ck_assert_int_eq(pm_events_add_all_software(&ev, &e), 0);
	ck_assert_uint_eq(ev.n, 4);
	for (i = 0; i < ev.n; i++) {
		ck_assert(ev.v[i].software);
		ck_assert(!ev.v[i].split);
	}
	ck_assert_str_eq(ev.v[1].name, "task-clock");
	ck_assert_int_eq(ev.v[1].status, PM_CNT_OK);
	pm_events_free(&ev);
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("alias");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, parse_good);
	tcase_add_test(tc, parse_errors);
	tcase_add_test(tc, later_file_replaces);
	tcase_add_test(tc, shipped_aliases);
	tcase_add_test(tc, load_dir_errors);
	tcase_add_test(tc, encode_generic);
	tcase_add_loop_test(tc, resolve_model_events, 0,
			    sizeof(model_cases) / sizeof(model_cases[0]));
	tcase_add_test(tc, resolve_explicit_plm);
	tcase_add_test(tc, resolve_unknown);
	tcase_add_test(tc, resolve_open_here);
	tcase_add_test(tc, software_events);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	/* resolve_model_events relies on a fresh process per test. */
	srunner_set_fork_status(sr, CK_FORK);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
