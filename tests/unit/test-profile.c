/* The profile pass: sampling ourselves and our children, symbolized. */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sample/profile.h"

static volatile unsigned long sink;

/* A user-space hot loop with a name the test can find. */
__attribute__((noinline)) void pm_test_spin_here(unsigned long n);
__attribute__((noinline)) void pm_test_spin_here(unsigned long n)
{
	unsigned long x = 1;

	while (n--)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

static double share_of(const json_t *h, const char *name, int kernel)
{
	const json_t *syms = json_object_get(h, "symbols"), *x;
	size_t i;

	json_array_foreach(syms, i, x) {
		if (!strcmp(json_string_value(json_object_get(x, "name")), name) &&
		    (kernel < 0 || json_is_true(json_object_get(x, "kernel")) == kernel))
			return json_number_value(json_object_get(x, "share"));
	}
	return 0;
}

static json_t *profile(void (*work)(void), bool inherit)
{
	struct pm_profile_opts po = { .freq = 10000 };
	struct pm_profiler *p;
	struct pm_profile *pr;
	struct pm_err e;
	pid_t self = 0;
	json_t *h;
	int k;

	ck_assert_msg(pm_profiler_new(&p, &po, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_profile_begin(&pr, p, &self, 1, inherit, &e) == 0, "%s", e.msg);
	for (k = 0; k < 20; k++) {
		ck_assert_int_eq(pm_profile_enable(pr), 0);
		work();
		pm_profile_disable(pr);
		pm_profile_drain(pr);
	}
	h = pm_profile_end(pr, 1000, 10000, 1000 * 10000);
	pm_profiler_free(p);
	return h;
}

static void spin_work(void)
{
	pm_test_spin_here(3000000);
}

START_TEST(user_hotspot)
{
	json_t *h = profile(spin_work, false);
	const json_t *stacks = json_object_get(h, "stacks");
	double share = share_of(h, "pm_test_spin_here", 0);
	bool seen = false;
	size_t i;
	json_t *x;

	ck_assert_int_gt(json_integer_value(json_object_get(h, "samples")), 50);
	ck_assert_msg(share > 0.8, "pm_test_spin_here has %.2f of the samples", share);
	ck_assert_double_lt(json_number_value(json_object_get(h, "kernel_share")), 0.2);
	ck_assert_str_eq(json_string_value(json_object_get(h, "call_graph")), "fp");
	/* a folded stack names the process and ends in the hot function */
	json_array_foreach(stacks, i, x) {
		const char *st = json_string_value(json_object_get(x, "stack"));
		const char *end = strrchr(st, ';');

		if (end && !strcmp(end + 1, "pm_test_spin_here") &&
		    !strncmp(st, "test-profile;", 13))
			seen = true;
	}
	ck_assert_msg(seen, "no stack test-profile;...;pm_test_spin_here");
	ck_assert_int_eq(json_integer_value(json_object_get(h, "lost")), 0);
	json_decref(h);
}
END_TEST

/* 100000 calls, about 0.1 s: on a loaded machine 20000 gave the share
 * from a handful of samples (0.50 once under stress-ng --cpu 2) */
static void syscall_work(void)
{
	for (int i = 0; i < 100000; i++)
		syscall(SYS_getppid);
}

/* Kernel hotspots: only where kernel addresses are visible (root, or
 * perf_event_paranoid <= 1); otherwise the reason must be given. */
START_TEST(kernel_hotspot)
{
	json_t *h = profile(syscall_work, false);
	const char *why = json_string_value(json_object_get(h, "kernel_unavailable"));
	const json_t *syms = json_object_get(h, "symbols"), *x;
	double ks = json_number_value(json_object_get(h, "kernel_share"));
	double sum = 0;
	size_t i;

	if (why) {
		ck_assert(strstr(why, "perf_event_paranoid") || strstr(why, "kptr_restrict"));
		json_decref(h);
		return;
	}
	ck_assert_msg(ks > 0.5, "kernel share %.2f for a getppid loop", ks);
	ck_assert_str_eq(json_string_value(json_object_get(h, "kernel_symbols")), "/proc/kallsyms");
	ck_assert_double_ge(json_number_value(json_object_get(h, "resolved_share")), 0.95);
	/* kernel symbols' costs add up to the kernel share of the time */
	json_array_foreach(syms, i, x)
		if (json_is_true(json_object_get(x, "kernel")))
			sum += json_number_value(json_object_get(x, "cost_ns_per_op"));
	ck_assert_double_eq_tol(sum, ks * 10000, 1e-6 * 10000);
	json_decref(h);
}
END_TEST

static void fork_work(void)
{
	/* the children's work dwarfs the fork itself, even where a fork is
	 * slow (sanitizer builds copy large shadow mappings) */
	for (int i = 0; i < 10; i++) {
		pid_t pid = fork();

		if (pid == 0) {
			pm_test_spin_here(3000000);	/* ~3 ms of work in the child */
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
}

/* Children are sampled (inherit, fixed period) and symbolized with the
 * maps they inherited. */
START_TEST(children_sampled)
{
	json_t *h = profile(fork_work, true);
	json_int_t child = json_integer_value(json_object_get(h, "child_samples"));

	ck_assert_msg(child > 20, "only %lld samples from children", (long long)child);
	ck_assert_double_gt(share_of(h, "pm_test_spin_here", 0), 0.15);
	json_decref(h);
}
END_TEST

START_TEST(folded_writer)
{
	json_t *h = json_pack("{s:[{s:s,s:i},{s:s,s:i}]}", "stacks",
			      "stack", "pmbench;main;do_syscall_64", "samples", 12,
			      "stack", "pmbench;[libc.so.6]", "samples", 3);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	pm_hotspots_write_folded(h, "null", true, f);
	pm_hotspots_write_folded(h, NULL, true, f);
	fclose(f);
	ck_assert_str_eq(buf, "null;pmbench;main;do_syscall_64 12\n"
			      "null;pmbench;[libc.so.6] 3\n"
			      "pmbench;main;do_syscall_64 12\n"
			      "pmbench;[libc.so.6] 3\n");
	free(buf);
	json_decref(h);
}
END_TEST

/* pmbench's own frames go; what the benchmark called stays; samples of
 * pmbench's own code are dropped; other processes keep their main. */
START_TEST(harness_frames)
{
	static const struct {
		const char *in, *out;
	} cases[] = {
		{ "pmbench;__libc_start_call_main;main;cmd_run;pm_run_bench_passes;"
		  "extra_passes;profile_pass;timed_run;null_run;syscall;do_syscall_64",
		  "pmbench;null_run;syscall;do_syscall_64" },
		/* the profiler switched on around the loop: pmbench's own time */
		{ "pmbench;__libc_start_call_main;main;cmd_run;pm_run_bench_passes;"
		  "extra_passes;profile_pass;pm_profile_enable;ioctl;perf_ioctl", NULL },
		{ "pmbench;__libc_start_call_main;main;cmd_run;pm_run_bench_passes", NULL },
		/* a peer forked during setup: its code is the benchmark's */
		{ "pmbench;_start;__libc_start_main;main;cmd_run;pm_run_bench_passes;"
		  "session_begin;pipe_setup;peer_loop;read",
		  "pmbench;pipe_setup;peer_loop;read" },
		/* the spawner's main is its fork loop */
		{ "pmbench-spawner;__libc_start_call_main;main;__fork;_Fork",
		  "pmbench-spawner;main;__fork;_Fork" },
		{ "pmbench;[pmbench];syscall", "pmbench;[pmbench];syscall" },
		{ "pmbench", "pmbench" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = pm_stack_strip_harness(cases[i].in);

		if (!cases[i].out)
			ck_assert_msg(!got, "%s: kept as %s", cases[i].in, got);
		else
			ck_assert_str_eq(got, cases[i].out);
		free(got);
	}
	ck_assert(pm_frame_is_harness("pm_run_bench_round"));
	ck_assert(pm_frame_is_harness("timed_run"));
	ck_assert(!pm_frame_is_harness("null_run"));
	ck_assert(!pm_frame_is_harness("do_syscall_64"));
}
END_TEST

/* Stacks that are the same once stripped add up; the dropped samples
 * are counted; the folded writer strips unless asked not to. */
START_TEST(harness_merged)
{
	json_t *h = json_pack("{s:[{s:s,s:i},{s:s,s:i},{s:s,s:i},{s:s,s:i}]}", "stacks",
		"stack", "pmbench;main;cmd_run;timed_run;null_run", "samples", 5,
		"stack", "pmbench;main;cmd_round;pm_round_worker;timed_run;null_run", "samples", 7,
		"stack", "pmbench;main;cmd_run;profile_pass;pm_sampler_disable", "samples", 2,
		"stack", "[other]", "samples", 1);
	json_t *st;
	double dropped = 0;
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	st = pm_hotspots_stacks(h, false, &dropped);
	ck_assert_int_eq(json_array_size(st), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(st, 0), "stack")),
			 "pmbench;null_run");
	ck_assert_int_eq(json_integer_value(json_object_get(json_array_get(st, 0), "samples")), 12);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(st, 1), "stack")),
			 "[other]");
	ck_assert_double_eq(dropped, 2);
	json_decref(st);
	st = pm_hotspots_stacks(h, true, &dropped);
	ck_assert_int_eq(json_array_size(st), 4);
	ck_assert_double_eq(dropped, 0);
	json_decref(st);
	f = open_memstream(&buf, &len);
	pm_hotspots_write_folded(h, "null", false, f);
	fclose(f);
	ck_assert_str_eq(buf, "null;pmbench;null_run 12\nnull;[other] 1\n");
	free(buf);
	json_decref(h);
	h = json_pack("{s:s,s:s}", "name", "timed_run", "object", "/usr/bin/pmbench");
	ck_assert(pm_hotspot_symbol_is_harness(h));
	json_decref(h);
	h = json_pack("{s:s,s:s}", "name", "main", "object", "/usr/libexec/pmbench-spawner");
	ck_assert(!pm_hotspot_symbol_is_harness(h));
	json_decref(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("profile");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, user_hotspot);
	tcase_add_test(tc, kernel_hotspot);
	tcase_add_test(tc, children_sampled);
	tcase_add_test(tc, folded_writer);
	tcase_add_test(tc, harness_frames);
	tcase_add_test(tc, harness_merged);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
