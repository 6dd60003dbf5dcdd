/*
 * The benchmarks pmbench measures, as the results layer needs them: the
 * lmbench layout and the importers name a figure by the benchmark that
 * stands for its column or AIM9 test.  The registry is in the bench
 * layer, above this one, so the program hands its lookups down with
 * pm_catalog_set() (main, the tests); without one, every figure reads as
 * one no benchmark measures.
 */
#ifndef PM_CATALOG_H
#define PM_CATALOG_H

#include <stdbool.h>

struct pm_bench_ident {
	const char *name, *group, *summary, *unit;
	const char *lmbench;	/* its lmbench column key, or NULL */
	const char *aim9;	/* its AIM9 test, or NULL */
};

/* Each fills *out and returns true when a benchmark has that name,
 * lmbench column key or AIM9 test name. */
struct pm_catalog {
	bool (*by_name)(const char *name, struct pm_bench_ident *out);
	bool (*by_lmbench)(const char *key, struct pm_bench_ident *out);
	bool (*by_aim9)(const char *test, struct pm_bench_ident *out);
};

void pm_catalog_set(const struct pm_catalog *c);
bool pm_catalog_by_name(const char *name, struct pm_bench_ident *out);
bool pm_catalog_by_lmbench(const char *key, struct pm_bench_ident *out);
bool pm_catalog_by_aim9(const char *test, struct pm_bench_ident *out);

#endif
