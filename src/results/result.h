/*
 * The result file (pmbench-result(5)): one JSON document per run.
 */
#ifndef PM_RESULT_H
#define PM_RESULT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "stats/stats.h"
#include "util.h"

#define PM_RESULT_FORMAT "pmbench-result"
#define PM_RESULT_SCHEMA 1

enum pm_bench_status {
	PM_BENCH_OK,
	PM_BENCH_UNSUPPORTED,	/* cannot run here; reason says why */
	PM_BENCH_FAILED,	/* tried and failed; reason says why */
};

enum pm_cv_status {
	PM_CV_OK,
	PM_CV_NOT_SUPPORTED,
	PM_CV_NOT_COUNTED,
};
/* The statuses as a result file names them (result.c): "ok" ... */
extern const char *const pm_bench_status_names[PM_BENCH_FAILED + 1];
extern const char *const pm_cv_status_names[PM_CV_NOT_COUNTED + 1];

/* One counter of one benchmark, per operation. */
struct pm_counter_value {
	char *name;		/* "cycles", "task-clock", or a raw string */
	char *event;		/* the libpfm4 string used, NULL if none */
	enum pm_cv_status status;
	char *reason;		/* for not-supported / not-counted */
	double per_op;		/* NAN when not available */
	double user, kernel;	/* per op; NAN when not split */
	double running;		/* fraction of time counted (multiplexing) */
	bool software;
	bool user_only;		/* kernel side could not be counted */
};

struct pm_counted_pass {
	bool done;		/* the pass ran */
	uint64_t ops;
	double ns_per_op;	/* wall time per op in the counted pass */
	double perturbation;	/* ns_per_op / timed median */
	double waited;		/* share of the pass its processes waited
				   for a CPU, NAN unknown */
	bool inherit;		/* children counted */
	int processes;		/* processes counted (main + peers) */
	double ru_user_ns, ru_sys_ns;	/* getrusage per op, self+children */
	struct pm_counter_value *v;
	size_t n;
};

/*
 * A round: a stretch of one benchmark's trials taken in one process.
 * `pmbench run` takes each benchmark's trials in several rounds, each
 * in a fresh process, interleaved with the other benchmarks, so that
 * what differs between processes (address-space layout, placement) and
 * what drifts during a run shows up as spread between rounds.  A merged
 * file (several runs of one side) keeps which run each round came from.
 */
struct pm_round {
	unsigned run;		/* index of the run (invocation, boot) it belongs to */
	size_t ntrials;		/* the next ntrials values of trials[] */
	double reference_ns;	/* machine-speed probe during the round, NAN unknown */
	double busy;		/* other runnable tasks during the round, NAN unknown */
	double waited;		/* share of the round's time its processes were
				   runnable but waiting for a CPU, NAN unknown */
	double others;		/* share of all CPUs the rest of the machine
				   used meanwhile (/proc/stat), NAN unknown */
	double started_s;	/* seconds from the start of its run, NAN unknown */
};

struct pm_bench_result {
	char *name, *group, *summary, *unit, *lmbench, *aim9;
	/* what its operation exercises: enum pm_exercise bits (exercise.h);
	 * 0 when the file does not say (older files, imports) */
	unsigned exercises;
	enum pm_bench_status status;
	char *reason;

	/* parameters */
	uint64_t iterations;	/* per trial */
	unsigned ops_per_iter;
	double overhead_ns;	/* subtracted per op */
	double bytes_per_op;	/* bandwidths, else 0 */
	char *placement;	/* "same", "spread", "none"; NULL = n/a */
	int cpu;		/* main process CPU, -1 unpinned */
	char *params;

	bool measured;		/* trials are values in .unit (measure()), not ns/op */
	double *trials;		/* ns per op (or values), every trial kept */
	size_t ntrials;
	struct pm_round *rounds;	/* in order; their ntrials add up to ntrials */
	size_t nrounds;		/* >= 1 when ntrials > 0 */
	struct pm_summary stats;
	bool converged;		/* CI target reached */
	double elapsed_s;	/* wall time spent on this benchmark */
	double reference_ns;	/* machine speed meanwhile: ns per step of a fixed
				   user-space loop timed between trials */
	double busy;		/* other runnable tasks, mean over the trials
				   (/proc/loadavg): competition for the CPUs */
	double waited;		/* share of the time the benchmark's processes
				   waited for a CPU (schedstat), mean of rounds */
	double others;		/* share of all CPUs other work used, mean of rounds */

	struct pm_counted_pass counters;
	json_t *hotspots;	/* sampled profile (pmbench-result(5)); may be NULL */
	json_t *detail;		/* benchmark-specific data (a curve...); may be NULL */
	json_t *scaling;	/* --instances/--threads: throughput per N; may be NULL */
	json_t *workload;	/* pmbench stat: the command and its runs; may be NULL */
	/* pmbench ab under TCG: exact counts of the emulated CPU, per run
	 * (pmbench-result(5), "emulated"); never hardware counts; may be NULL */
	json_t *emulated;
};

struct pm_result {
	int schema;
	char *source;		/* "run", "import:lmbench", "import:aim9" */
	char *created;		/* ISO 8601 UTC */
	char *version;		/* pmbench version that wrote it */
	char *label;		/* optional user label ("kernel-a") */
	json_t *command;	/* argv array */
	json_t *options;	/* run options */
	json_t *sysinfo;	/* the fingerprint */
	json_t *runs;		/* merged files: what each run was (created, label) */
	struct pm_bench_result *bench;
	size_t nbench;
	char *path;		/* file it was loaded from, if any */
};

void pm_result_init(struct pm_result *r);
void pm_result_free(struct pm_result *r);
struct pm_bench_result *pm_result_add(struct pm_result *r);
/* The values of a benchmark result nothing has measured yet: NAN (not
 * known, never 0), no CPU, one op per iteration. */
void pm_bench_result_defaults(struct pm_bench_result *b);
/* Free the counter values of a counted pass (the list is then empty). */
void pm_counter_values_free(struct pm_counted_pass *cp);
void pm_bench_result_free(struct pm_bench_result *b);
const struct pm_bench_result *pm_result_find(const struct pm_result *r,
					     const char *name);
const struct pm_counter_value *
pm_bench_result_counter(const struct pm_bench_result *b, const char *name);

/* Add a round of ntrials values to b (appended to trials[]). */
void pm_bench_result_add_round(struct pm_bench_result *b, const double *v,
			       size_t ntrials, const struct pm_round *r);
/* Median of each round's trials into med[] (b->nrounds of them). */
void pm_bench_result_round_medians(const struct pm_bench_result *b, double *med);
/* Number of distinct runs among b's rounds. */
unsigned pm_bench_result_nruns(const struct pm_bench_result *b);

/* Runs a result holds: one more than the highest run index of its
 * rounds (1 for the file of one run). */
unsigned pm_result_nruns(const struct pm_result *r);

/*
 * Merge n results of one side (several runs of the same kernel and
 * settings) into dst: each benchmark's rounds and trials, with the rounds
 * renumbered by run; metadata, fingerprint, counters and hotspots from
 * the first result that has them.  A benchmark missing from some runs
 * keeps the runs it has.  -EINVAL when the results are not of one kind
 * (different sources).
 */
int pm_result_merge(struct pm_result *dst, const struct pm_result *src,
		    size_t n, struct pm_err *e);

/*
 * A benchmark's figure, the same in every view (results/figure.c): per
 * run the geometric mean of the faster half of its rounds' medians, over
 * runs their geometric mean; the interval at level between runs, else
 * rounds, else the trials' median interval (basis says which).
 */
enum pm_figure_basis { PM_FIG_RUNS, PM_FIG_ROUNDS, PM_FIG_TRIALS, PM_FIG_SINGLE };
struct pm_figure {
	double value, lo, hi;	/* lo, hi NAN: no interval (one figure) */
	double level;
	double spread;		/* sd of the units' logarithms, NAN unknown */
	size_t n;		/* units */
	enum pm_figure_basis basis;
};
int pm_bench_figure(const struct pm_bench_result *b, double level, struct pm_figure *f);
/* The level of every interval shown or written: one throughout. */
#define PM_FIGURE_LEVEL PM_LEVEL
/* The relative half-width of a benchmark's interval (rounds or trials),
 * NAN when there is none: the runner's convergence test, not a figure to
 * show (views show pm_render_figure's).  Here, not in the renderer, so
 * that the runner (bench/rounds.c) needs no view. */
double pm_bench_rel_ci(const struct pm_bench_result *b);
/* {"value_ns", "low_ns", "high_ns", "level", "basis", "n"}, as written in
 * a result file; NULL for a benchmark without one (or a measured one). */
json_t *pm_bench_figure_json(const struct pm_bench_result *b);
const char *pm_figure_basis_name(enum pm_figure_basis b);

/*
 * The figure of one run of a benchmark: the geometric mean of the faster
 * half of that run's round medians (a busy minute only adds time, to a
 * round or two).  explain compares runs by it; NAN when the run has no
 * round with a time.
 */
double pm_bench_run_figure(const struct pm_bench_result *b, unsigned run);

/* Time per op of a result in its unit; bandwidths as MB/s. */
double pm_bench_result_value(const struct pm_bench_result *b, double ns);
bool pm_bench_higher_is_better(const struct pm_bench_result *b);

/* Was the run stopped (SIGINT...) before every benchmark finished?
 * *requested: how many were asked for, -1 when the file does not say. */
bool pm_result_interrupted(const struct pm_result *r, long long *requested);

/* write.c: writing */
/* A JSON string of text from outside (a command line, its standard
 * error): as it is when valid UTF-8, else with each byte of an invalid
 * sequence replaced by '?'.  NULL gives null. */
json_t *pm_json_text(const char *s);

json_t *pm_result_to_json(const struct pm_result *r);
/* One benchmark's entry alone (the round workers' replies). */
json_t *pm_bench_result_to_json(const struct pm_bench_result *b);
/* Atomic write (temp file + rename). */
int pm_result_save(const struct pm_result *r, const char *path,
		   struct pm_err *e);
int pm_result_dump(const struct pm_result *r, FILE *f);

/* result.c: reading */
int pm_bench_result_from_json(struct pm_bench_result *b, json_t *o,
			      const char *what, struct pm_err *e);
/* Validate and convert; messages name path and the JSON path. */
int pm_result_from_json(struct pm_result *r, json_t *root, const char *path,
			struct pm_err *e);
/*
 * Read and validate a result file.  Files larger than PM_READ_MAX_RESULT
 * are refused (-EFBIG); every error names the file (and the JSON path).
 */
int pm_result_load(struct pm_result *r, const char *path, struct pm_err *e);
/* The document only (bounded read, valid JSON, not yet validated). */
int pm_result_load_json(json_t **root, const char *path, struct pm_err *e);
/* pm_result_load from memory; path is only used in messages. */
int pm_result_parse(struct pm_result *r, const char *buf, size_t len,
		    const char *path, struct pm_err *e);

#endif
