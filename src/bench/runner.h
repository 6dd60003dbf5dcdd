/*
 * The runner: calibrate, warm up, repeat timed trials, then a counted
 * pass (and, later, a sampled pass).  It never knows what a benchmark does.
 */
#ifndef PM_RUNNER_H
#define PM_RUNNER_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "bench/bench.h"
#include "counters/counters.h"
#include "results/result.h"
#include "sample/profile.h"
#include "util.h"

/* Rounds of trials per benchmark, each in a fresh process (--rounds). */
#define PM_DEFAULT_ROUNDS 5

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
	unsigned max_rounds;	/* pm_run_rounds: up to this many rounds in all,
				 * the extra ones for benchmarks whose rounds
				 * disagree (0: no extra rounds) */
	unsigned run;		/* run index recorded with each round (0) */
	uint64_t run_start_ns;	/* pm_now_ns() at the start of the run, 0 unknown */
	const struct pm_events *events;	/* hardware + software events */
	const char *scratch;
	const char *hello;	/* pmbench-hello */
	const char *spawner;	/* pmbench-spawner */
	/* Called after each timed trial of iters iterations, outside its
	 * timing (NULL: none): make selfcheck runs a reference trial of as
	 * many there, so that each pair of trials meets the machine at the
	 * same moment. */
	void (*after_trial)(void *arg, uint64_t iters);
	void *after_trial_arg;
};

void pm_run_opts_default(struct pm_run_opts *o);
const char *pm_placement_name(enum pm_placement p);
int pm_placement_parse(const char *s, enum pm_placement *p);

/*
 * Run one benchmark into out (which must be zeroed): its trials as one
 * round, then the counted, sampled and scaling passes, in this process.
 * Returns 0 when the result was recorded, whatever its status (ok,
 * unsupported, failed); -EINTR when interrupted.
 */
int pm_run_bench(const struct pm_bench *b, const struct pm_run_opts *o,
		 struct pm_bench_result *out, struct pm_err *e);

/*
 * One more round of b's trials into out (zeroed for the first round):
 * set up, calibrate unless out->iterations is known, warm up, trials
 * within o's per-round limits, tear down.  Status and reason as above.
 */
int pm_run_bench_round(const struct pm_bench *b, const struct pm_run_opts *o,
		       struct pm_bench_result *out, struct pm_err *e);

/* After the rounds: set up again for the counted, sampled and scaling
 * passes, at out->iterations per trial.  Nothing when out is not ok. */
int pm_run_bench_passes(const struct pm_bench *b, const struct pm_run_opts *o,
			struct pm_bench_result *out, struct pm_err *e);

/* Summary over all of out's rounds: statistics of the trials, machine
 * speed (median of the rounds') and competition (their mean). */
void pm_bench_result_summarize(struct pm_bench_result *out, double level);

/*
 * Rounds in fresh processes: round k of every benchmark runs in its own
 * worker process (pmbench re-executed as "pmbench __round"), benchmarks
 * in forward order on even rounds and backward on odd ones, so that a
 * drift of the machine and what differs between processes (address-space
 * layout, placement) hit every benchmark alike and show as spread between
 * rounds.  o's trial limits are per benchmark over all rounds.  out[i]
 * (zeroed) receives benches[i]'s rounds; then pm_run_bench_passes() adds
 * the counted and sampled passes.  Returns 0, -EINTR when interrupted,
 * or -errno when no worker could be started (e says why).
 */
int pm_run_rounds(const struct pm_bench *const *benches, size_t n,
		  const struct pm_run_opts *o, unsigned rounds,
		  struct pm_bench_result *out, struct pm_err *e);

/* The trial budget (seconds) of round k for each of the m benchmarks
 * order[] names among out[0..n): o->max_time_s per benchmark over all
 * rounds, less for those already within o->ci_target (from round 2 on),
 * more for the others, within the same total. */
void pm_round_budgets(const struct pm_run_opts *o, unsigned k, unsigned rounds,
		      const size_t *order, size_t m, size_t n,
		      const struct pm_bench_result *out, double *budget);

/*
 * Past the first rounds: the benchmarks that get extra round k, into
 * order[] (returned: how many; forward on even rounds, backward on odd
 * ones).  Those whose interval is still wider than o->ci_target and
 * could reach it within max_rounds at the spread their rounds show, the
 * fewest rounds still needed first, each while pool_s (seconds left of
 * the run's time) covers one more of its rounds at its cost so far
 * (cost_s[i]: the wall time of benchmark i's rounds, set-up included).
 */
size_t pm_round_extra(const struct pm_run_opts *o, unsigned k, unsigned max_rounds,
		      size_t n, const struct pm_bench_result *out,
		      const double *cost_s, double pool_s, size_t *order);

/* The worker side: read a request on in, run its round, write one JSON
 * line per benchmark on out.  Returns 0, -EINTR, or -EINVAL for a bad
 * request (e says why). */
int pm_round_worker(FILE *in, FILE *out, struct pm_err *e);

/* The machine-speed probe timed after every trial (ns per step of a
 * fixed user-space loop), and the runnable tasks now (/proc/loadavg,
 * ourselves included; -1 unknown): also taken after workload runs. */
double pm_reference_ns(void);
int pm_runnable_now(void);

/* out->counters from counts over ops operations (cnt NULL: nothing was
 * counted, for the reason why); every event of ev is listed. */
void pm_record_counters(struct pm_bench_result *out, const struct pm_events *ev,
			const struct pm_count *cnt, double ops, const char *why);

/* Set by the SIGINT handler: stop as soon as possible. */
extern volatile int pm_interrupted;

#endif
