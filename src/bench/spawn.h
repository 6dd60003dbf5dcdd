/*
 * Loops of fork, exec and sh run by pmbench-spawner, for the process and
 * AIM9 families.  fork() costs grow with the address space of the process
 * that forks, so the loops run in a tiny program of fixed size (as
 * lmbench's lat_proc), started as a peer: counted, children included.
 */
#ifndef PM_BENCH_SPAWN_H
#define PM_BENCH_SPAWN_H

#include <stdint.h>

#include "bench/bench.h"

struct pm_spawner {
	int cmd;		/* we write iteration counts */
	int reply;		/* the spawner answers with a status */
	const char *op;		/* fork, fork-exit, exec, sh or system */
	char *arg;		/* hello path, or a shell command line */
	const char *what;	/* what a failed child was, for messages */
};

/*
 * Start the spawner for op with arg (taken over) as a peer of ctx, then
 * run one operation, so that a broken helper fails setup, not a trial.
 * what names the child in messages.  0, or -errno with ctx->why set
 * (-EOPNOTSUPP when pmbench-hello or pmbench-spawner is missing).  Call
 * pm_spawner_stop() afterwards whatever the result.
 */
int pm_spawner_start(struct pm_ctx *ctx, struct pm_spawner *sp, const char *op,
		     char *arg, const char *what);

/* n operations in the spawner: 0, or -errno with ctx->why set. */
int pm_spawner_run(struct pm_ctx *ctx, struct pm_spawner *sp, uint64_t n);

/* Close our ends (EOF ends the spawner; the runner reaps it), free arg. */
void pm_spawner_stop(struct pm_spawner *sp);

#endif
