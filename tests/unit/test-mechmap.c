/*
 * The mechanism map as shipped (mechanisms/): kernel functions placed by
 * their file, by a section's symbol pattern, and by the mechanism their
 * name carries when they sit in the code they hook.
 */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "explain/mechmap.h"

static struct pm_mechmap *map;

static void load_map(void)
{
	struct pm_err e;
	char *dir = pm_xasprintf("%s/mechanisms", getenv("PMBENCH_DATADIR") ?
				 getenv("PMBENCH_DATADIR") : ".");

	ck_assert_msg(pm_mechmap_load(&map, dir, &e) == 0, "%s", e.msg);
	free(dir);
}

static void unload_map(void)
{
	pm_mechmap_free(map);
	map = NULL;
}

/* The mechanism a frame goes to ("generic" climbed past, NULL unplaced). */
static const char *mech_of(const char *sym, const char *file)
{
	const struct pm_mech *k = pm_mechmap_classify(map, sym, file ? file :
						      pm_mechmap_file(map, sym));

	return k ? k->id : NULL;
}

#define MECH_IS(sym, file, want)                                                  \
	do {                                                                       \
		const char *got_ = mech_of(sym, file);                              \
		ck_assert_msg(got_ && !strcmp(got_, want), "%s: %s, expected %s", sym, \
			      got_ ? got_ : "(none)", want);                        \
	} while (0)

/* ptrace's stop and notify live in kernel/signal.c: they are ptrace's;
 * the signal code around them stays signal delivery. */
START_TEST(hook_in_another_file)
{
	MECH_IS("ptrace_stop", "kernel/signal.c", "ptrace");
	MECH_IS("ptrace_notify", NULL, "ptrace");
	MECH_IS("ptrace_do_notify", NULL, "ptrace");
	MECH_IS("do_notify_parent_cldstop", NULL, "signal");
	MECH_IS("get_signal", NULL, "signal");
}
END_TEST

/* Hooks inlined from include/linux/ into the entry code (out-of-line
 * copies keep the header's file) belong to the mechanism they call. */
START_TEST(hook_from_a_header)
{
	MECH_IS("audit_syscall_entry", "include/linux/audit.h", "audit");
	MECH_IS("trace_sys_enter", "include/trace/events/syscalls.h", "tracing.events");
	MECH_IS("ptrace_report_syscall_entry", "include/linux/ptrace.h", "ptrace");
	/* the entry code itself is climbed past (a part of [generic]) */
	MECH_IS("syscall_trace_enter", "kernel/entry/common.c", "generic.entry");
}
END_TEST

/* A file [generic] names keeps its functions generic, whatever their
 * name: the scheduler's and KVM's clocks serve everyone. */
START_TEST(generic_file_stays)
{
	MECH_IS("sched_clock_cpu", "kernel/sched/clock.c", "generic");
	MECH_IS("kvm_clock_get_cycles", "arch/x86/kernel/kvmclock.c", "generic");
}
END_TEST

/* A name shared by many mechanisms is nobody's stem: __cond_resched
 * stays the scheduler's although SELinux has cond_* functions. */
START_TEST(common_words_are_no_stem)
{
	MECH_IS("__cond_resched", "kernel/sched/core.c", "sched");
	MECH_IS("do_sys_openat2", "fs/open.c", "vfs");
	/* a security module in its own file is its own, not the LSM layer's */
	MECH_IS("security_file_open", "security/security.c", "lsm");
	MECH_IS("selinux_file_open", "security/selinux/hooks.c", "lsm.selinux");
}
END_TEST

/* Functions of one mechanism unknown to linux.syms (another version's)
 * are still placed by their name. */
START_TEST(unknown_function_by_name)
{
	MECH_IS("seccomp_cache_check_allow_bitmap_v2", NULL, "seccomp");
	MECH_IS("kprobe_ftrace_handler", NULL, "tracing.kprobes");
	ck_assert_ptr_null(mech_of("some_function_nobody_has", NULL));
}
END_TEST

/* Each side is placed with its own version's files: the nearest version
 * (on a tie the older), its lookups falling back on the other one's. */
START_TEST(map_by_release)
{
	const struct pm_mechmap *v61 = pm_mechmap_for_release(map, "6.1.0-57-amd64");
	const struct pm_mechmap *v612 = pm_mechmap_for_release(map, "6.12.118+deb12-amd64");
	const char *const *f;
	size_t n;

	ck_assert_str_eq(pm_mechmap_version(map), "6.1");
	ck_assert_str_eq(pm_mechmap_version(v61), "6.1");
	ck_assert_str_eq(pm_mechmap_version(v612), "6.12");
	ck_assert_ptr_eq(pm_mechmap_for_release(map, NULL), map);
	ck_assert_ptr_eq(pm_mechmap_for_release(map, "not-a-release"), map);
	ck_assert_ptr_eq(pm_mechmap_for_release(map, "5.10.0-30-amd64"), v61);
	ck_assert_ptr_eq(pm_mechmap_for_release(map, "6.6.63"), v61);
	ck_assert_ptr_eq(pm_mechmap_for_release(map, "6.10.2"), v612);
	ck_assert_ptr_eq(pm_mechmap_for_release(map, "6.16.0"), v612);
	/* a function that moved between the versions: each side's own file */
	ck_assert_str_eq(pm_mechmap_file(v61, "preempt_schedule_thunk"), "arch/x86/entry/thunk_64.S");
	ck_assert_str_eq(pm_mechmap_file(v612, "preempt_schedule_thunk"), "arch/x86/entry/thunk.S");
	/* one 6.1 does not have: from 6.12's files, and a mechanism */
	ck_assert_str_eq(pm_mechmap_file(v612, "kmem_cache_alloc_noprof"), "mm/slub.c");
	ck_assert_str_eq(pm_mechmap_file(v61, "kmem_cache_alloc_noprof"), "mm/slub.c");
	ck_assert_str_eq(pm_mechmap_classify(v612, "kmem_cache_alloc_noprof", "mm/slub.c")->id,
			 "slab");
	/* a parameter whose parser moved */
	f = pm_mechmap_param_files(v61, "init_on_alloc", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(f[0], "mm/page_alloc.c");
	f = pm_mechmap_param_files(v612, "init_on_alloc", &n);
	ck_assert_uint_eq(n, 1);
	ck_assert_str_eq(f[0], "mm/mm_init.c");
}
END_TEST

/* Knock-outs: the slab allocator's zeroing, with the option it needs;
 * a knock-out argument is a switch of its mechanism. */
START_TEST(knockouts)
{
	const struct pm_mech *k = pm_mechmap_find(map, "slab");
	const struct pm_mech *g = pm_mechmap_classify(map, "memset_erms",
						      pm_mechmap_file(map, "memset_erms"));
	size_t i;
	bool found = false;

	ck_assert_ptr_nonnull(k);
	for (i = 0; i < k->nknockouts; i++)
		found |= !strcmp(k->knockouts[i], "init_on_alloc=0 CONFIG_INIT_ON_ALLOC_DEFAULT_ON");
	ck_assert(found);
	ck_assert(pm_mech_switched_by(k, "init_on_alloc"));
	ck_assert(!pm_mech_switched_by(k, "init_on_alloc_x"));
	/* memset's variants: generic code with a knock-out of its own */
	ck_assert_ptr_nonnull(g);
	ck_assert_str_eq(g->id, "generic.string");
	ck_assert(g->generic);
	ck_assert_uint_eq(g->nknockouts, 1);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("mechmap");
	TCase *tc = tcase_create("classify");
	SRunner *sr;
	int failed;

	tcase_add_checked_fixture(tc, load_map, unload_map);
	tcase_add_test(tc, hook_in_another_file);
	tcase_add_test(tc, hook_from_a_header);
	tcase_add_test(tc, generic_file_stays);
	tcase_add_test(tc, common_words_are_no_stem);
	tcase_add_test(tc, unknown_function_by_name);
	tcase_add_test(tc, map_by_release);
	tcase_add_test(tc, knockouts);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
