/*
 * A benchmark's emulated counts (pmbench-result(5) "emulated": what the
 * TCG plugin of pmbench ab counted in each boot), as amounts per
 * operation over runs: for the views and explain.  Never hardware
 * counter values.
 */
#ifndef PM_RESULTS_EMULATED_H
#define PM_RESULTS_EMULATED_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"

/* An amount per operation over a benchmark's counted runs. */
struct pm_emu_amount {
	double mean;		/* NAN when no run has it */
	double sd;		/* between runs; NAN with fewer than 2 */
	double min, max;
	size_t n;		/* runs */
};

/*
 * key: "instructions", "rep_iterations", "icache_misses", or "branches"
 * (every kind added up); mode "user", "kernel", or NULL for both added.
 * false when no run of b has it.
 */
bool pm_emulated_amount(const struct pm_bench_result *b, const char *key, const char *mode,
			struct pm_emu_amount *a);
/* The same per run: v[i] the value of the run runs[i]; how many (<= max). */
size_t pm_emulated_values(const struct pm_bench_result *b, const char *key, const char *mode,
			  double *v, unsigned *runs, size_t max);
/* Why b has no counts (its "unavailable"), NULL when it has or none was tried. */
const char *pm_emulated_unavailable(const struct pm_bench_result *b);
/* The kernel profile's symbols (array), NULL when none. */
const json_t *pm_emulated_symbols(const struct pm_bench_result *b);
/* Instructions per op of symbol name in b's kernel profile (0 when absent,
 * NAN when b has no profile). */
double pm_emulated_symbol(const struct pm_bench_result *b, const char *name);
/* What every view says counts are: "emulated (QEMU TCG), not hardware". */
#define PM_EMULATED_NOTE "counted exactly in QEMU's emulated CPU by pmbench ab's TCG plugin: " \
	"emulated counts, not hardware counter values"

#endif
