/*
 * The stages of explain (pm_explain, explain.c), for their files only;
 * the public interface is explain.h.  In the order pm_explain runs them:
 *
 *   sides.c       load the sides, the history; what a side is
 *   units.c       a benchmark's units on a side, busy runs, pairs
 *   spread.c      how much runs differ here; units at equal host speed
 *   compare.c     the verdict: is it a change?
 *   evidence.c    where the time went; the fingerprint's differences
 *   machine.c     the machine, not the code
 *   mechanism.c   time by mechanism, the switches, decided facts
 *   emulated.c    exact counts of a TCG guest
 *   rules.c       the rule table's causes
 *   mechcause.c   the mechanism as a cause, the experiment that would prove it
 *   experiment.c  causes proven by pmbench ab: a difference taken back,
 *   knockout.c    ... or a mechanism knocked out on both sides
 *   configs.c     config options that differ, tied to the code that moved
 *   bloat.c       hot kernel functions that grew
 *   cause.c       adding and taking back a cause
 *   explain.c     the pipeline, the ranking
 */
#ifndef PM_EXPLAIN_STAGES_H
#define PM_EXPLAIN_STAGES_H

#include "explain/explain.h"
#include "stats/stats.h"

/*
 * A run whose machine-speed probe (the fixed user-space loop timed after
 * every trial) ran this much slower than in the fastest run of either
 * side was taken while the host was busy.  Under QEMU's TCG on a shared host, a
 * whole boot now and then runs at half speed (probe 1.9-2.3 ns against
 * 1.37-1.56 in the others, the benchmark 1.5-2.1 times slower); on the
 * host itself the probe stayed within 9% of its fastest run in 40 quick
 * runs, busy minutes included.  The probe does not depend on the code
 * or the kernel compared, so leaving out by it cannot make a change.
 */
#define BUSY_PROBE 0.20

/*
 * One side of one benchmark, at every level: each run's value (the
 * geometric mean of the faster half of its rounds' medians), each
 * round's median, every trial, and each round's machine-speed probe.  A
 * file is a run, or several when its rounds say so (merged files).
 */
struct pm_units {
	struct pm_vec runs, rounds, trials, refs, busy, waited, others;
	struct pm_vec run_t;	/* when each run was taken (s since the epoch, NAN unknown) */
	struct pm_vec run_ref;	/* each run's probe: its rounds' median, NAN unknown */
	struct pm_vec round_ref;	/* each round's probe (NAN unknown), as rounds */
	struct pm_vec round_waited;	/* each round's share waiting for a CPU, as rounds */
	struct pm_vec run_waited;	/* each run's: the mean of its rounds' (NAN unknown) */
	double within_ss, within_df;	/* log round medians around their run's mean */
	size_t left_out;	/* runs skipped (pm_units_leave_out_busy) */
	const struct pm_bench_result *first;
	bool converged;
};

/* Pairs in the order taken: each pair's log ratio d, its probes' log
 * ratio x, and A's and B's probes (NAN unknown). */
struct pm_pairs {
	double *d, *x, *pa, *pb;
	size_t n;
};

/* ---- sides.c ---- */
/* A fingerprint item of a run as text ("" unknown). */
const char *pm_run_fp(const struct pm_result *r, enum pm_fp_key k);
/* The pmbench ab experiment both sides come from (options.ab.experiment:
 * the same id on every run; with labels, OLD its A and NEW its B), or
 * NULL; pm_sides_one_experiment: whether there is one. */
const json_t *pm_sides_experiment(const struct pm_side *old, const struct pm_side *new,
				  bool labels);
bool pm_sides_one_experiment(const struct pm_side *old, const struct pm_side *new);
/* ab --local's runs of this host. */
bool pm_side_local(const struct pm_side *s);
/* Imported from a text report (lmbench, AIM9): the side (any of its
 * runs), the run. */
bool pm_side_imported(const struct pm_side *s);
bool pm_run_imported(const struct pm_result *r);
/* pmbench ab ran the pairs' runs at once, side by side (its pairing). */
bool pm_side_at_once(const struct pm_side *s);

/* ---- units.c ---- */
/* Collect a benchmark's units on a side; skip (NULL: none): runs to leave
 * out, by their order here. */
void pm_units_collect(const struct pm_side *s, const char *name, struct pm_units *d);
void pm_units_collect_skip(const struct pm_side *s, const char *name, const bool *skip,
			   struct pm_units *d);
void pm_units_free(struct pm_units *d);
/* The units compared at level u. */
const struct pm_vec *pm_units_of(const struct pm_units *d, enum pm_unit u);
/* The indexes of d's runs in the order they were taken (free it). */
size_t *pm_units_by_time(const struct pm_units *d);
/* Runs taken in turn: each pair's log ratio *d and probes' *x (x may be
 * NULL), in the order taken; false when they are not pairs. */
bool pm_units_in_turn(const struct pm_units *a, const struct pm_units *b, double **d,
		      double **x);
/* Leave out the runs the probe says were taken on a busy host. */
void pm_units_leave_out_busy(const struct pm_side *old, const struct pm_side *new,
			     const char *name, struct pm_units *a, struct pm_units *b,
			     struct pm_bench_cmp *c);
/* The probes of all runs spread by more than BUSY_PROBE. */
bool pm_units_probe_moved(const struct pm_units *a, const struct pm_units *b, double *range);
bool pm_pairs_in_turn(const struct pm_units *a, const struct pm_units *b, struct pm_pairs *p);
void pm_pairs_free(struct pm_pairs *p);
bool pm_pairs_probe_moved(const struct pm_pairs *p, size_t k, double *range);

/* ---- spread.c ---- */
/* One process of the benchmark's own: its waiting is competition. */
bool pm_single_process(const struct pm_bench_cmp *c);
/* The history's spread of benchmark name for c (c->prior_*); *ss its
 * sum of squares. */
void pm_spread_collect(const struct pm_side *ref, const struct pm_side *old,
		       const struct pm_side *new, const char *name,
		       struct pm_bench_cmp *c, double *ss);
/* The units compared at equal host speed or contention, when it can be
 * had: *ua, *ub then point at aa, ab. */
void pm_equal_speed(struct pm_bench_cmp *c, const struct pm_units *pa,
		    const struct pm_units *pb, bool use_prior, const struct pm_vec **ua,
		    const struct pm_vec **ub, struct pm_vec *aa, struct pm_vec *ab);

/* ---- the stages pm_explain runs per benchmark (explain.c) ---- */
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
/* Code that runs on one side alone is decided so when as few samples on
 * the other side would have this chance, or less, if it ran on both. */
#define PM_ALONE_P 0.001
/* The mechanism map of a side's kernel release (NULL without a map), and
 * the mechanism its map places kernel function sym in (NULL: none). */
struct pm_mechmap;
struct pm_mech;
const struct pm_mechmap *pm_side_mechmap(const struct pm_side *s);
const struct pm_mech *pm_sym_mechanism(const struct pm_mechmap *m, const char *sym);
/* The differences the samples decide (c->facts), after the mechanisms. */
void pm_decided_facts(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* mechcause.c: after the rules, the mechanism as a cause (or under the
 * rule that names it), kernel time and hotspots folded under it. */
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
/* emulated.c: the counts of pmbench ab's TCG plugin as evidence */
void pm_emulated_compare(struct pm_bench_cmp *c, const struct pm_side *old,
			 const struct pm_side *new, const struct pm_explain_opts *o);
/* Their causes (a longer or shorter path), and the mechanisms' switches. */
void pm_emulated_causes(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* Lines of the "where" part of a benchmark's report. */
void pm_emulated_where(const struct pm_bench_cmp *c, FILE *f, const char *ind);
/* The benchmarks whose path changed and those whose time alone did. */
void pm_emulated_summary(const struct pm_explanation *x, FILE *f, bool md);
/* How many changed benchmarks have them on both sides. */
size_t pm_emulated_count(const struct pm_explanation *x);
json_t *pm_emulated_json(const struct pm_bench_cmp *c);
void pm_emulated_free(struct pm_bench_cmp *c);
/* rules.c: the causes of the rule table's rules */
void pm_rule_causes(struct pm_bench_cmp *c, const struct pm_explanation *x);
/* Whether rule id's mechanisms column names mechanism key, or the one key
 * is a part of ("tracing" for "tracing.function"). */
bool pm_rule_names_mech(const char *id, const char *key);
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


#endif
