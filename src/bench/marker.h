/*
 * Trial markers: how a guest's pmbench tells the TCG plugin of `pmbench
 * ab` (pmbench-tcg.so, src/ab/tcg-plugin.c) where each timed trial starts
 * and ends.  The process maps PM_MARKER_SIZE bytes of `ret` instructions
 * at PM_MARKER_BASE and calls into them; the plugin recognises a block of
 * one `ret` in that range when QEMU translates it, so a marker costs a
 * call and a return and nothing anywhere else.  The offset says what:
 *
 *   [0, PM_MARKER_CONFIG)   2 * id + end: benchmark id's trial starts (0)
 *                           or ends (1); id is its registry index, plus
 *                           PM_MARKER_HARNESS for a window of the harness
 *                           and PM_MARKER_HARNESS_ITERS iterations: a
 *                           trial less it is whole iterations, the
 *                           loop's entry and the clock reads taken out
 *   PM_MARKER_CONFIG + field * PM_MARKER_FIELD + value
 *                           a fact the plugin needs (the L1i geometry for
 *                           its cache model), then PM_MARKER_CONFIG_DONE
 *
 * This header is the whole interface: the plugin includes it and nothing
 * else of pmbench.
 */
#ifndef PM_BENCH_MARKER_H
#define PM_BENCH_MARKER_H

#include <stdbool.h>
#include <stdint.h>

/* Set in the environment of the guest's pmbench (ab/guest-init.c). */
#define PM_MARKER_ENV "PMBENCH_TRIAL_MARKERS"

/* Far from where Linux puts programs, libraries, heap and stacks, and
 * above the shadow memory of AddressSanitizer (up to 0x10007fff7fff). */
#define PM_MARKER_BASE 0x3e5e00000000ull
#define PM_MARKER_SIZE 0x10000u
#define PM_MARKER_CONFIG 0x8000u
#define PM_MARKER_FIELD 0x1000u
#define PM_MARKER_MAX_ID (PM_MARKER_CONFIG / 2)
#define PM_MARKER_HARNESS (PM_MARKER_MAX_ID / 2)
/* One, not none: the call into the loop is in every trial too; none for
 * a benchmark whose trials are one iteration (exec, sh: it would be a
 * whole trial). */
#define PM_MARKER_HARNESS_ITERS 1
#define PM_MARKER_HARNESS_ITERS_FOR(trial_iters) \
	((trial_iters) > PM_MARKER_HARNESS_ITERS ? PM_MARKER_HARNESS_ITERS : 0)
#define PM_MARKER_RET 0xc3

enum pm_marker_field {
	PM_MARKER_L1I_KIB,	/* value: size in KiB */
	PM_MARKER_L1I_WAYS,
	PM_MARKER_L1I_LINE,	/* bytes */
	PM_MARKER_CONFIG_DONE,	/* value 0: the facts above are complete */
	PM_MARKER_NFIELDS,
};

#ifndef PM_MARKER_ABI_ONLY

#include <jansson.h>

struct pm_bench;

/* The id a benchmark's trials are marked with: its registry index. */
unsigned pm_marker_id(const struct pm_bench *b);
/* Called around each timed trial: nothing unless PM_MARKER_ENV is set
 * (the page is mapped on first use, in each process). */
void pm_marker_trial(unsigned id, bool end);
/* Are trials marked in this process (the page mapped)? */
bool pm_markers_active(void);
/* What a result records when markers were placed ({"base", "ids",
 * "kernel_stext", ...}, pmbench-result(5)), NULL when they were not. */
json_t *pm_markers_json(const struct pm_bench *const *benches, size_t n);

#endif
#endif
