/*
 * explain: compare two sides (one or several result files each) and say
 * why a benchmark changed.
 *
 *   compare.c   load the sides, pool runs, per-benchmark statistics
 *   evidence.c  where the time went: user/kernel, symbols, counters
 *   rules.c     the table of causes, each with its evidence test
 *   report.c    text, markdown, json
 *   lkp.c       the table of 0-day (LKP) mails
 */
#ifndef PM_EXPLAIN_H
#define PM_EXPLAIN_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "results/result.h"
#include "sysinfo/keys.h"
#include "util/table.h"
#include "util.h"

/* One side: the runs (result files) of one kernel/config/machine. */
struct pm_side {
	char *name;			/* the path given */
	struct pm_result *runs;
	size_t nruns;
	char **warnings;		/* files skipped, and why */
	size_t nwarnings;
};

int pm_side_load(struct pm_side *s, const char *path, struct pm_err *e);
/*
 * Runs that show how much runs of the same thing differ: the result
 * files of from (a directory or a file; NULL: the result history) that
 * ran on the host of old or new, without the runs of old and new
 * themselves.  An empty or missing history is no error (s->nruns = 0).
 */
int pm_spread_load(struct pm_side *s, const char *from, const struct pm_side *old,
		   const struct pm_side *new, struct pm_err *e);
void pm_side_free(struct pm_side *s);

enum pm_verdict {
	PM_REGRESSION,
	PM_IMPROVEMENT,
	PM_NO_CHANGE,
	PM_INCONCLUSIVE,
	PM_CHANGED,		/* a measured parameter (not better/worse) */
};

const char *pm_verdict_name(enum pm_verdict v);

/* A per-op quantity on both sides; NAN where a side lacks it. */
struct pm_pair {
	double old, new;
};

/* A symbol's cost on both sides. */
struct pm_sym_delta {
	char *name, *object;
	bool kernel;
	double old_ns, new_ns;		/* cost per op, 0 when absent */
	double old_share, new_share;
	double old_size, new_size;	/* bytes, NAN when unknown */
	/* user samples at the return point of a system call instruction:
	 * the call's entry/exit cost, not user code (0 when none) */
	double old_trap_ns, new_trap_ns;
	bool is_new, vanished;
};

/*
 * A difference between the sides that can switch kernel code on or off:
 * a kernel parameter, a config option, a fingerprint item.  files: the
 * code that parses or builds it (mechanisms/linux.params, .configs).
 */
enum pm_switch_kind { PM_SW_PARAM, PM_SW_CONFIG, PM_SW_FP };

struct pm_switch {
	enum pm_switch_kind kind;
	char *key;		/* "ftrace", "CONFIG_PSI", "fp:thp.enabled" */
	char *old, *new;	/* values; NULL: absent on that side */
	char *text;		/* "the kernel argument ftrace=function of NEW" */
	const char *const *files;	/* owned by the mechanism map */
	size_t nfiles;
};

/*
 * Time per op by mechanism (mechanism.c): kernel call chains climbed
 * past generic code (mechanisms/kernel.mech) to the code that belongs
 * to a mechanism; time of code that runs on one side only goes to the
 * mechanism that called it there.
 */
struct pm_mech_delta {
	char *key;		/* a section of the map ("tracing.function"), or a file */
	char *name;		/* "the function tracer (ftrace)"; "code in mm/foo.c" */
	char *file;		/* where its code is: a file it was entered in */
	char *entry;		/* the symbol it was entered through */
	double old_ns, new_ns;	/* per op */
	bool started, stopped;	/* runs on NEW only / OLD only */
	struct pm_pair samples;	/* the samples of the chains it owns */
	/* running on one side only, by samples: the chance of as few on
	 * the other side if it ran alike on both (NAN: not alone) */
	double alone_p;
	const struct pm_switch *sw;	/* the difference that switches it, or NULL */
	int link;		/* how sw is tied to it: 3 named switch, 2 its code,
				   1 its family or directory, 0 none */
};

struct pm_cause {
	const char *rule;		/* rule id: "page-table-levels" */
	const char *title;		/* "page-table levels" */
	char *title_buf;		/* title when made for this cause, else NULL */
	/* proven by experiment (pmbench ab): how, or NULL */
	char *proof;
	/* the mechanism it is about (a section of mechanisms/kernel.mech or
	 * a file) and the difference that switches it, or NULL */
	char *mechanism, *switched_by;
	double confidence;		/* 0..1 */
	char *sentence;			/* what a kernel engineer would write */
	char **evidence;		/* the figures behind it */
	size_t nevidence;
};

/*
 * What a verdict compares: the unit of replication.  Runs when both sides
 * have several (the variance between runs is then measured); rounds of
 * one run when a side has one run (no between-run evidence: a margin
 * stands in for it); trials when a run has one round (old files: not even
 * the spread between processes is known); single figures (imports).
 */
enum pm_unit {
	PM_UNIT_RUNS,
	PM_UNIT_ROUNDS,
	PM_UNIT_TRIALS,
	PM_UNIT_FIGURES,
};

const char *pm_unit_name(enum pm_unit u);

/* Everything explain knows about one benchmark present on both sides. */
struct pm_bench_cmp {
	char *name;		/* owned */
	const struct pm_bench_result *ref_old, *ref_new;	/* first run, for metadata */
	bool measured;		/* a parameter, not a time */
	bool higher_is_better;
	/* what its operation exercises (enum pm_exercise of results/exercise.h),
	 * as either side's file says: the rules pick benchmarks by it */
	unsigned exercises;

	/* 1. is it a change? (times in ns per op) */
	enum pm_unit unit;	/* what n_old and n_new count */
	size_t n_old, n_new;	/* units compared */
	size_t runs_old, runs_new, rounds_old, rounds_new;
	bool by_runs;		/* unit == PM_UNIT_RUNS */
	bool paired;		/* runs taken in turn, compared pair by pair (signed ranks) */
	bool sequential;	/* ... by the sequential rule of pmbench ab (stats/seq.h) */
	bool at_once;		/* the pairs' runs were taken at once (ab's duet) */
	/*
	 * The per-op figure of each side the verdict judged: med_new /
	 * med_old is its estimate (ratio), and every part of the change
	 * (kernel and user time, mechanisms, symbols, causes' shares) is a
	 * share of these.  The geometric means of the units compared; NEW's
	 * is OLD's times the estimate when pairs were compared (at equal host
	 * speed, or by their median difference).
	 */
	double med_old, med_new;
	/* the figures every other view shows (results/figure.c: all runs) */
	struct pm_pair figure;
	double ratio, ci_low, ci_high;	/* new/old and its CI (Welch t on logs) */
	double level;		/* of that CI */
	double p_value;		/* Welch t on logs, NAN when not computable */
	double p_rank;		/* Mann-Whitney on the units, NAN when not computable */
	double margin;		/* the effect a verdict needed (floor or a wider margin) */
	double spread_old, spread_new;	/* relative spread (sd) between units */
	double unit_sd;		/* sd of a unit's logarithm the test used (pooled) */
	/* how much runs of the same thing differ here, learnt from other runs
	 * (the history): runs, groups (host, kernel, command line), the
	 * degrees of freedom and spread (sd of a run's log) they give; 0 runs
	 * when none were used */
	size_t prior_runs, prior_groups;
	double prior_df, prior_sd;
	/* ... at equal host speed: their values less this slope times their
	 * probes' (compare.c, probe_slope), NAN when not */
	double prior_slope;
	int prior_cov;		/* ... of the probe (0) or of the share waited for a CPU (1) */
	/* runs left out of each side: their machine-speed probe says the
	 * host was busy (compare.c, BUSY_PROBE); by pairs when paired */
	size_t left_out_old, left_out_new;
	bool left_out_paired;
	/* paired runs compared at equal host speed: the probe moved between
	 * them, and each pair's difference less probe_slope times its
	 * probe's (compare.c, compare_adjusted) */
	bool probe_adjusted;
	double probe_slope, probe_range;	/* range: slowest probe / fastest */
	/* what the units were adjusted by: the probe (0), or, for a single
	 * process, the share of the time it waited for a CPU (1: range is
	 * then the largest difference of that share) */
	int adjusted_by;
	const char *prior_from;	/* where those runs are (opts.spread_name) */
	double rel_ci_old, rel_ci_new;	/* relative CI half-widths of the sides */
	bool converged_old, converged_new;
	enum pm_verdict verdict;
	char *settle;		/* for inconclusive: what would settle it */
	double ref_ratio;	/* machine speed: reference loop new/old, NAN unknown */
	struct pm_pair busy;	/* other runnable tasks during the trials */
	struct pm_pair waited;	/* share of time its processes waited for a CPU */
	struct pm_pair others;	/* share of the CPUs other work used meanwhile */
	double raw_ratio;	/* the ratio before taking machine speed out */
	char *machine_note;	/* how machine speed changed the verdict, or NULL */

	/* 2. where did the time go? */
	double delta_ns;
	struct pm_pair kernel_ns, user_ns;	/* per op */
	/* of user_ns, the samples at system call return points (entry/exit
	 * cost paid with interrupts off); 0 when none were seen */
	struct pm_pair trap_ns;
	const char *split_source;	/* "samples", "cycles", "getrusage", NULL */
	struct pm_sym_delta *syms;	/* sorted by |delta| */
	size_t nsyms;
	struct pm_pair instructions, cycles, ipc;
	struct pm_pair icache_mpki, itlb_mpki, branch_mpki;
	struct pm_pair faults, ctxsw, migrations;
	struct pm_pair task_clock;
	/* scaling curves (--instances/--threads) on both sides */
	size_t nscale;
	unsigned scale_n[16];
	struct pm_pair scale_eff[16], scale_tput[16];
	struct pm_mech_delta *mechs;	/* sorted by |delta| */
	size_t nmechs;
	struct pm_pair samples;	/* the kernel chains' samples of each side */
	/* differences decided on their own, whatever the time's verdict:
	 * code that runs on one side only by its samples */
	char **facts;
	size_t nfacts;
	bool have_counters;	/* hardware counters on both sides */
	bool have_hotspots;	/* samples on both sides */
	bool hot_old, hot_new;	/* ... on each side */
	bool have_kernel_syms;

	/* 3. why? ranked */
	struct pm_cause *causes;
	size_t ncauses;
};

/* A fingerprint difference: dotted key, old and new as text. */
struct pm_fp_diff {
	char *key, *old, *new;
};

struct pm_explain_opts {
	double noise_floor;	/* relative change below which nothing is called a change (0.03) */
	double single_run_margin;	/* one run a side: the effect needed (0.06) */
	double one_round_margin;	/* runs of a single round (old files): (0.10) */
	double level;		/* confidence level (0.95) */
	const char *only;	/* one benchmark, or NULL */
	/* runs taken in turn are pairs decided by the sequential rule (as
	 * pmbench ab does; also on when both sides are one ab experiment) */
	bool sequential;
	/* the runs are guests pmbench ab booted: what else ran there is the
	 * kernel compared, not competition (also when every run says so) */
	bool guests;
	/* other runs that show how much runs differ on these machines (the
	 * result history by default; NULL: none); see pm_spread_load() */
	const struct pm_side *spread;
	const char *spread_name;	/* where they came from, for the report */
};

struct pm_explanation {
	struct pm_side *old, *new;
	struct pm_explain_opts opts;
	struct pm_bench_cmp *cmp;
	size_t ncmp;
	char **only_old, **only_new;	/* benchmarks on one side only */
	size_t nonly_old, nonly_new;
	struct pm_fp_diff *diffs;
	size_t ndiffs;
	struct pm_switch *switches;	/* the diffs that can switch kernel code */
	size_t nswitches;
	char **unavailable;	/* missing evidence and what it weakens */
	size_t nunavailable;
	/* the machine moved the run one way (pm_suite_shift): how many of
	 * how many timed benchmarks, the direction (+1 slower, -1 faster, 0
	 * not) and the median ratio (of all; of those called changed when
	 * five or more of them made the move) */
	size_t suite_moved, suite_n;
	int suite_dir;
	double suite_ratio;
	bool suite_held;	/* ... and the fingerprints are identical: held back */
};

void pm_explain_opts_default(struct pm_explain_opts *o);
/* Compare, gather evidence, run the rules.  Fails only on bad input
 * (-EINVAL): sides with no benchmark in common are not an error. */
int pm_explain(struct pm_explanation *x, struct pm_side *old,
	       struct pm_side *new, const struct pm_explain_opts *o,
	       struct pm_err *e);
void pm_explanation_free(struct pm_explanation *x);
/* The rules, then the mechanism and experiment passes over their causes:
 * fills c->causes, ranked. */
void pm_apply_rules(struct pm_bench_cmp *c, const struct pm_explanation *x);

/* compare.c */
void pm_compare_bench(struct pm_bench_cmp *c, const struct pm_side *old,
		      const struct pm_side *new, const char *name,
		      const struct pm_explain_opts *o);
/* Take machine speed and an unchanged profile into account (after
 * evidence): a uniformly faster or slower machine is not a code change. */
void pm_suite_shift(struct pm_explanation *x);
/* One run on a side, compared as a run against the history's spread. */
bool pm_one_run_by_history(const struct pm_bench_cmp *c);
void pm_adjust_for_machine(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* A workload's change (pmbench stat) too large for the difference in
 * competition for the CPUs between the sides to account for. */
bool pm_beyond_competition(const struct pm_bench_cmp *c, const struct pm_explanation *x);
/* evidence.c */
void pm_gather_evidence(struct pm_bench_cmp *c, const struct pm_side *old,
			const struct pm_side *new);
void pm_fingerprint_diff(struct pm_explanation *x);
/* Whether pm_fingerprint_diff compares item k: rules can only see those. */
bool pm_fp_compared(enum pm_fp_key k);
/* mechanism.c */
void pm_find_switches(struct pm_explanation *x);
void pm_attribute_mechanisms(struct pm_bench_cmp *c, const struct pm_explanation *x);
void pm_mech_deltas_free(struct pm_bench_cmp *c);
/* The differences the samples decide (c->facts), after the mechanisms. */
void pm_decided_facts(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* After the rules: the mechanism as a cause (or under the rule that names
 * it), kernel time and hotspots folded under it. */
void pm_mechanism_causes(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* experiment.c: causes proven by pmbench ab's experiment, when both
 * sides come from one */
void pm_experiment_causes(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* configs.c: the config options that differ and are tied to moved code */
void pm_config_evidence(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* bloat.c: hot kernel functions that grew, weighted by their time */
void pm_bloat_evidence(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* knockout.c: what ab's knock-outs (experiment) proved or ruled out */
void pm_knockout_causes(struct pm_bench_cmp *c, const json_t *experiment);
/* An image's change that no mechanism carries 30% of: the mechanisms that
 * moved its way, the largest named the cause, how (that the image is the
 * only difference) its evidence.  false when none moved its way. */
bool pm_image_spread_cause(struct pm_bench_cmp *c, const char *how);
/* How strongly a switch is tied to a mechanism of the map (0-3). */
int pm_switch_ties(const struct pm_switch *s, const char *mech_key, const char *file);
void pm_switches_free(struct pm_explanation *x);
/* rules.c: the causes of the rule table's rules */
void pm_rule_causes(struct pm_bench_cmp *c, const struct pm_explanation *x);
const struct pm_fp_diff *pm_find_diff(const struct pm_explanation *x,
				      const char *key);
/* The difference in a named item: pm_fp_find(x, PM_FP_KERNEL_CMDLINE). */
const struct pm_fp_diff *pm_fp_find(const struct pm_explanation *x, enum pm_fp_key k);
/* In one member of an object item: (PM_FP_KERNEL_CONFIG, "CONFIG_PREEMPT"). */
const struct pm_fp_diff *pm_fp_find_member(const struct pm_explanation *x,
					   enum pm_fp_key k, const char *member);
/* The member a difference is in when it is one of object item k, else NULL:
 * "kernel.config.CONFIG_HZ" is member "CONFIG_HZ" of PM_FP_KERNEL_CONFIG. */
const char *pm_fp_diff_member(const struct pm_fp_diff *d, enum pm_fp_key k);
/* Causes the rule table can name, for pmbench-explain(1) and tests. */
struct pm_rule_info {
	const char *id, *title, *evidence;
	/* the mechanisms (sections of mechanisms/kernel.mech) its cause is
	 * about, blank-separated, or NULL */
	const char *mechs;
};
size_t pm_rule_count(void);
const struct pm_rule_info *pm_rule_at(size_t i);
/* cause.c: add a cause; evidence lines are copied. */
struct pm_cause *pm_cause_add(struct pm_bench_cmp *c, const char *rule, const char *title,
			      double confidence, const char *sentence);
void pm_cause_evidence(struct pm_cause *k, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
void pm_cause_remove(struct pm_bench_cmp *c, size_t i);
/* The part of c's change (delta_ns) an amount per op is, in words:
 * "46% of the change" ("of null's change" when named), or, when it
 * exceeds the change or moves against it, that. */
void pm_share_words(char *buf, size_t len, const struct pm_bench_cmp *c, double part,
		    bool named);

/* invariants.c: what every explanation guarantees (pmbench-explain(1),
 * GUARANTEES), checked on it and on its text report (NULL: unchecked) */
struct pm_invariant_info {
	const char *id, *text;
};
size_t pm_invariant_count(void);
const struct pm_invariant_info *pm_invariant_at(size_t i);
struct pm_violation {
	const char *invariant;	/* an id of pm_invariant_at() */
	char *bench;		/* "" for the whole report */
	char *what;
};
struct pm_violations {
	struct pm_violation *v;
	size_t n;
};
void pm_explain_check(const struct pm_explanation *x, const char *text,
		      struct pm_violations *out);
void pm_violations_free(struct pm_violations *v);

/* report.c */
void pm_report_text(const struct pm_explanation *x, FILE *f, bool markdown,
		    bool all);
json_t *pm_report_json(const struct pm_explanation *x);
/* Every benchmark's verdict, figures, change and likely cause: the
 * markdown report's table and the csv form. */
struct pm_table *pm_report_table(const struct pm_explanation *x);
/* One benchmark's part of the text or markdown report (the HTML report
 * puts it beside the benchmark's plots). */
void pm_report_bench(const struct pm_bench_cmp *c, FILE *f, bool markdown);
/* The change the reports show: NEW's figure over OLD's (not the verdict's
 * own estimate, which goes with its interval). */
double pm_report_change(const struct pm_bench_cmp *c);

/* lkp.c: the comparison as Intel's 0-day (LKP) mails print it, a
 * %stddev %change %stddev row per metric (pmbench-explain(1)). */
void pm_report_lkp(const struct pm_explanation *x, FILE *f, bool all);

#endif
