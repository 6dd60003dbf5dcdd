/*
 * ab's experiment engine (pmbench-ab(1)): the pairs of A and B until
 * decided (main phase), then blocks with one difference taken back at a
 * time (confirm phase), and the host's pairing probe.  cmd-ab.c parses
 * the command line, sets up the output, prints the report and writes the
 * result files.
 *
 *   engine.c   blocks of runs, the phases, the decision
 *   knockout.c knock-out experiments: a mechanism switched off on both
 *              sides, when the sides differ by their kernel image
 *   probe.c    duet or in turn: how this host's own A/A pairs spread
 */
#ifndef PM_AB_ENGINE_H
#define PM_AB_ENGINE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ab/ab.h"
#include "ab/emulated.h"

/* How one block (each arm's run once) ended. */
enum pm_ab_block {
	PM_BLOCK_KEPT,		/* every run came back: the block counts */
	PM_BLOCK_DROPPED,	/* a run failed: the block is left out (counted) */
	PM_BLOCK_RESTART,	/* KVM gave way to TCG: every run again */
	PM_BLOCK_FATAL,		/* a run cannot start, or would fail again: the end */
	PM_BLOCK_STOPPED,	/* a stop signal */
};

/* How a phase ended. */
enum pm_ab_end { PM_AB_DONE, PM_AB_FAILED, PM_AB_STOPPED };

struct pm_ab_exp;
struct pm_result;
struct pm_ab_knockout;

/* Runs each of arms[0..n) once; prefix goes before the runs' tags. */
typedef enum pm_ab_block (*pm_ab_block_fn)(struct pm_ab_exp *x, const size_t *arms,
					   size_t n, const char *prefix);

struct pm_ab_exp {
	struct pm_ab_opts o;
	struct pm_ab_env env;
	struct pm_ab_arm *arms;		/* A, B, then one per difference taken back */
	size_t narms;
	struct pm_ab_diff *diffs;
	size_t ndiffs;
	char *out, *console_dir;
	const char *qemu;
	char accel_why[256];
	bool duet;
	char duet_why[512];
	uint64_t rng, seed;
	unsigned pairs, blocks, failed, dropped, runs;
	double main_s, confirm_s;
	json_t *decided;		/* per benchmark: verdict, pairs, ... */
	json_t *confirm;		/* what each difference taken back removed */
	struct pm_ab_knockout *kos;	/* knock-out candidates, best first */
	size_t nkos;
	unsigned ko_blocks;
	double ko_s;
	json_t *knockouts;		/* what each knock-out removed */
	json_t *journal;		/* OUTPUT/ab-state.json (journal.c) */
	unsigned resumed;		/* pairs an interrupted invocation kept */
	struct pm_ab_counting counting;	/* TCG: the plugin that counts (ab/emulated.c) */
	bool counting_probed, counts_said;
	volatile pid_t running[2];	/* QEMU or pmbench run while they run */
	/* set by the caller */
	volatile int *stop;		/* becomes true on a stop signal */
	void (*error)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
	void (*warn)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
	/* a run that came back, before it is kept (its kernel symbols'
	 * sources from the host's vmlinux); NULL: none */
	void (*kept)(struct pm_result *r, const char *vmlinux);
	pm_ab_block_fn block;		/* NULL: pm_ab_run_block */
	/* a pair of A and B kept (their runs' tags), every pair dropped (a
	 * restart under TCG): the journal's (journal.c); NULL: none */
	void (*pair_kept)(struct pm_ab_exp *x, const char *tag_a, const char *tag_b);
	void (*pairs_dropped)(struct pm_ab_exp *x);
	/* set by the knock-out phase: frees its candidates */
	void (*knockouts_free)(struct pm_ab_exp *x);
};

/* The arms A and B and the differences between them; a guest's
 * initramfs and symbols.  0 or -errno. */
int pm_ab_setup_arms(struct pm_ab_exp *x, struct pm_err *e);
/* Under TCG, whether the boots load the counting plugin (x->counting). */
void pm_ab_setup_counting(struct pm_ab_exp *x);
/* Duet or in turn (x->duet, x->duet_why). */
void pm_ab_choose_pairing(struct pm_ab_exp *x);
/* A block of runs, in random order (or A and B at once). */
enum pm_ab_block pm_ab_run_block(struct pm_ab_exp *x, const size_t *arms, size_t n,
				 const char *prefix);
/* The verdicts on the pairs so far (x->decided); how many are undecided. */
size_t pm_ab_decide(struct pm_ab_exp *x);
/* A and B in pairs until decided or the budget is spent. */
enum pm_ab_end pm_ab_main_phase(struct pm_ab_exp *x);
/* Several differences and a decided change: boots with each taken back? */
bool pm_ab_want_confirm(const struct pm_ab_exp *x);
/* Blocks of A, B and each reversal until their shares are decided. */
enum pm_ab_end pm_ab_confirm_phase(struct pm_ab_exp *x);
/* The sides differ by image and the moved code has knock-outs? (finds
 * the candidates) */
bool pm_ab_want_knockouts(struct pm_ab_exp *x);
/* Blocks of A, B, and A and B with each knock-out, until decided. */
enum pm_ab_end pm_ab_knockout_phase(struct pm_ab_exp *x);
void pm_ab_knockouts_free(struct pm_ab_exp *x);
void pm_ab_exp_free(struct pm_ab_exp *x);

/* journal.c: OUTPUT/ab-state.json, the pairs kept so far, so that an
 * interrupted experiment continues.  Written at the start, after each
 * kept pair, at a restart under TCG (no pairs) and at the end. */
void pm_ab_journal_start(struct pm_ab_exp *x);
void pm_ab_journal_pair(struct pm_ab_exp *x, const char *tag_a, const char *tag_b);
void pm_ab_journal_restart(struct pm_ab_exp *x);
void pm_ab_journal_finish(struct pm_ab_exp *x);
bool pm_ab_journal_exists(const char *dir);
/* Load the pairs of OUTPUT's journal into A and B: 0, -EEXIST when it is
 * finished or of another command, -EINVAL (or a reader's -errno) when it
 * or a run it names cannot be read; e says which and how to go on. */
int pm_ab_journal_resume(struct pm_ab_exp *x, struct pm_err *e);

/* explain's options for ab's pairs (the report uses them too) */
struct pm_explain_opts;
void pm_ab_explain_opts(const struct pm_ab_exp *x, struct pm_explain_opts *xo);

/* for the engine's files */
double pm_ab_now_s(void);
double pm_ab_now_wall(void);
char *pm_ab_self_exe(void);
/* The figure of benchmark name in run i of arm a, NAN without one. */
double pm_ab_figure(const struct pm_ab_arm *a, size_t i, const char *name);
/* The machine-speed probe of benchmark name in run i of arm a (the median
 * of its rounds'), NAN without one. */
double pm_ab_run_probe(const struct pm_ab_arm *a, size_t i, const char *name);
enum pm_ab_block pm_ab_run_jobs(struct pm_ab_exp *x, const struct pm_ab_env *env,
				struct pm_ab_job *jobs, size_t n, bool together);

#endif
