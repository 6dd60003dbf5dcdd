/*
 * The runner: calibrate, warm up, repeat timed trials, then a counted
 * pass (and, later, a sampled pass).  It never knows what a benchmark does.
 */
#ifndef PM_RUNNER_H
#define PM_RUNNER_H

#include <stdbool.h>
#include <stdint.h>

#include "bench/bench.h"
#include "counters/counters.h"
#include "results/result.h"
#include "sample/profile.h"
#include "util.h"

struct pm_run_opts {
	double target_ns;	/* one trial lasts about this long (10 ms) */
	double ci_target;	/* stop when the CI half-width < this (0.01) */
	double ci_level;	/* 0.95 */
	unsigned min_trials;	/* at least (10) */
	unsigned max_trials;	/* at most (300) */
	double max_time_s;	/* time budget per benchmark for trials (2 s) */
	double counted_ns;	/* length of the counted pass (100 ms) */
	int cpu;		/* --cpu, -1 = not given */
	enum pm_placement placement;
	bool counters;		/* run the counted pass */
	struct pm_profiler *profiler;	/* run the sampled pass, NULL: no */
	double profile_ns;	/* length of the sampled pass (150 ms) */
	/* Scaling mode: N copies at once, for each N of scale_n. */
	enum { PM_SCALE_NONE, PM_SCALE_INSTANCES, PM_SCALE_THREADS } scale_mode;
	unsigned scale_n[16];
	size_t nscale;
	double scale_ns;	/* length of each scaling point (200 ms) */
	bool progress;		/* progress line on stderr */
	const struct pm_events *events;	/* hardware + software events */
	const char *scratch;
	const char *hello;	/* pmbench-hello */
	const char *spawner;	/* pmbench-spawner */
};

void pm_run_opts_default(struct pm_run_opts *o);
const char *pm_placement_name(enum pm_placement p);
int pm_placement_parse(const char *s, enum pm_placement *p);

/*
 * Run one benchmark into out (which must be zeroed).  Returns 0 when the
 * result was recorded, whatever its status (ok, unsupported, failed);
 * -EINTR when interrupted.
 */
int pm_run_bench(const struct pm_bench *b, const struct pm_run_opts *o,
		 struct pm_bench_result *out, struct pm_err *e);

/* Set by the SIGINT handler: stop as soon as possible. */
extern volatile int pm_interrupted;

#endif
