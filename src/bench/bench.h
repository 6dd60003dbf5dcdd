/*
 * Benchmark descriptors.  A benchmark never touches counters, timing or
 * output: it sets up, performs one operation per op() call (or a loop of
 * `iters` in run()), and tears down.
 */
#ifndef PM_BENCH_H
#define PM_BENCH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "results/exercise.h"

#define PM_MAX_PEERS 64

enum pm_bench_flags {
	PM_FORKS = 1u << 0,	/* run() forks children: counters inherit */
	PM_PEERS = 1u << 1,	/* setup() starts helper processes: placement applies */
	PM_NET = 1u << 2,	/* uses loopback networking */
	PM_FS = 1u << 3,	/* uses the scratch directory */
	PM_QUICK = 1u << 4,	/* member of the "quick" suite */
	PM_MEM = 1u << 5,	/* memory-system benchmark: long runs, no peers */
	PM_NO_THREADS = 1u << 6,	/* process-wide state (signal handlers):
					   no --threads scaling */
};

enum pm_placement {
	PM_PLACE_SAME,		/* every process on one CPU (the default) */
	PM_PLACE_SPREAD,	/* peers on other CPUs than the main process */
	PM_PLACE_NONE,		/* the scheduler decides */
};

struct pm_ctx {
	const struct pm_bench *bench;
	const char *scratch;	/* private directory, removed at exit */
	const char *hello;	/* path of the pmbench-hello program */
	const char *spawner;	/* path of pmbench-spawner (fork/exec/sh loops) */
	void *priv;		/* benchmark state, owned by setup/teardown */

	enum pm_placement placement;
	int cpu;		/* CPU of the main process, -1 = unpinned */
	int ncpus;		/* CPUs available to us */

	/* Set by setup when the figure is not simply "time per iteration". */
	unsigned ops_per_iter;	/* operations in one iteration (default 1) */
	double bytes_per_op;	/* for bandwidths: bytes moved per operation */
	double overhead_ns;	/* per-op cost the benchmark measured itself
				   and wants subtracted (e.g. lat_ctx's pipe
				   overhead) */
	char params[256];	/* human description of parameters, optional */
	json_t *detail;		/* structured extra data for the result file
				   (e.g. a latency curve); the runner takes
				   ownership of what setup/measure leave here */

	pid_t peers[PM_MAX_PEERS];	/* helper processes: counted, reaped */
	int npeers;

	char why[256];		/* reason when setup/run fail */
};

struct pm_bench {
	const char *name;	/* "fork" */
	const char *group;	/* family: "proc" */
	const char *summary;	/* "fork+exit+wait" */
	/* Unit of the classic table: "us" or "ns" (time per op), "MB/s"
	 * (bandwidth, MB = 2^20 bytes as lmbench; setup sets bytes_per_op),
	 * "ops/s" (AIM9 rate), or for measure(): "pages", "bytes", ... */
	const char *unit;
	const char *lmbench;	/* lmbench summary column, or NULL */
	const char *aim9;	/* AIM9 test name, or NULL */
	int (*supported)(char *why, size_t len);	/* 0 = can run; NULL: always */
	int (*setup)(struct pm_ctx *);			/* not timed */
	/* One operation, timed and counted, iters times per trial; the loop
	 * stops at the first error (-errno, ctx->why set).  Most benchmarks
	 * need only this, defined with PM_OP and named in the descriptor
	 * with PM_OP_HOOKS, which sets op_loop too. */
	int (*op)(struct pm_ctx *);
	/* op() iters times, op inlined (PM_OP defines it); NULL: the runner
	 * calls op through the pointer, in src/bench/runner.c's loop. */
	int (*op_loop)(struct pm_ctx *, uint64_t iters);
	/* Instead of op(): iters operations in the benchmark's own loop, for
	 * those that batch (a helper process runs the loop), check per batch,
	 * or whose operation is too short for a call per operation. */
	int (*run)(struct pm_ctx *, uint64_t iters);
	/* Instead of op() or run(): one measurement of a value in .unit (a system
	 * parameter such as TLB entries or the cache line size, found by a
	 * sweep); the runner repeats it as trials. */
	int (*measure)(struct pm_ctx *, double *value);
	void (*teardown)(struct pm_ctx *);
	unsigned flags;
	unsigned exercises;	/* enum pm_exercise: at least one */
	/* What the shared setup() (or op) of several descriptors tells them
	 * apart by, as ctx->bench->arg: a size, a kind, a struct of the
	 * family's.  NULL when the functions serve one benchmark. */
	const void *arg;
};

struct pm_family {
	const char *name;
	const char *summary;
	const struct pm_bench *benches;
	size_t nbenches;
};

#define PM_FAMILY(fname, fsummary, table)				\
	const struct pm_family pm_family_##fname = {			\
		.name = #fname, .summary = fsummary,			\
		.benches = table,					\
		.nbenches = sizeof(table) / sizeof((table)[0]),		\
	}

/* The explicit table of families: add one line per family file. */
#define PM_FAMILIES(X) \
	X(proc) \
	X(fs) \
	X(ipc) \
	X(mem) \
	X(ops) \
	X(aim9) \
	X(macro)

#define PM_DECLARE_FAMILY(n) extern const struct pm_family pm_family_##n;
PM_FAMILIES(PM_DECLARE_FAMILY)
#undef PM_DECLARE_FAMILY

/* Registry (src/bench/registry.c). */
size_t pm_family_count(void);
const struct pm_family *pm_family_at(size_t i);
const struct pm_bench *pm_bench_find(const char *name);
/* By lmbench column ("proc: fork proc") or AIM9 test name ("fork_test"). */
const struct pm_bench *pm_bench_find_lmbench(const char *column);
const struct pm_bench *pm_bench_find_aim9(const char *test);
/* The lookups above for the results layer: pm_catalog_set(&pm_bench_catalog). */
struct pm_catalog;
extern const struct pm_catalog pm_bench_catalog;
/* Iterate every benchmark: i from 0 until NULL. */
const struct pm_bench *pm_bench_at(size_t i);
/* Iterate every group name ("all", "quick", the families) until NULL. */
const char *pm_group_at(size_t i);
bool pm_group_exists(const char *group);
bool pm_bench_in_group(const struct pm_bench *b, const char *group);
/* Set why and return false when b cannot run here. */
bool pm_bench_supported(const struct pm_bench *b, char *why, size_t len);

/* Helpers for benchmarks (src/bench/helpers.c). */

/* ctx->why = "<message>: <strerror(-err)>"; returns err. */
int pm_bench_fail(struct pm_ctx *ctx, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* ctx->why = "<message>"; returns err. */
int pm_bench_why(struct pm_ctx *ctx, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Fork a helper process running fn(arg); placed per ctx->placement,
 * registered as a peer, and killed and reaped by the runner. */
int pm_spawn_peer(struct pm_ctx *ctx, int (*fn)(void *arg), void *arg);
/* Kill (SIGKILL after a grace period) and reap every peer. */
void pm_reap_peers(struct pm_ctx *ctx);
/* The CPU a peer should run on under ctx's placement, -1 for any. */
int pm_peer_cpu(const struct pm_ctx *ctx, int index);
int pm_pin_self(int cpu);
/* The i-th (mod their number) of the CPUs pmbench was started with. */
int pm_nth_cpu(int i);
/* Full read/write that retry on EINTR and short counts. */
int pm_read_full(int fd, void *buf, size_t len);
int pm_write_full(int fd, const void *buf, size_t len);
/* Which of the overhead loops pm_overhead_loop_ns takes. */
enum pm_overhead_stat {
	/* The median, as of the trials it is subtracted from: lmbench's
	 * definitions (lat_sig, lat_pagefault) subtract a median from a
	 * median; the quickest loop would leave the figure several percent
	 * high on a noisy machine. */
	PM_OVERHEAD_MEDIAN,
	/* The quickest: for lat_ctx's overhead, nearly all of a hop, a host
	 * that stalled the guest during most of the loops made the median
	 * larger than the trials, and the figures negative. */
	PM_OVERHEAD_QUICKEST,
};

/* The time per iteration, in ns, of loop(arg, n): an overhead a
 * benchmark times in setup and subtracts from its trials, e.g. lmbench
 * lat_ctx's pipe overhead.  n is calibrated to about 1 ms, then 9 loops
 * of about 5 ms are timed and stat picks one.  Returns 0, or loop's
 * -errno (loop sets ctx->why itself). */
int pm_overhead_loop_ns(int (*loop)(void *arg, uint64_t n), void *arg,
			enum pm_overhead_stat stat, double *out);
/* A file of the given size in the scratch directory, page cache warm. */
int pm_scratch_file(struct pm_ctx *ctx, const char *name, size_t size,
		    char *path, size_t pathlen);

/*
 * PM_OP(fn) { body }: the operation fn, and fn_loop, the loop that calls
 * it iters times with fn inlined, as lmbench's loops are written: no call
 * through a pointer and no extra return per operation.  After a system
 * call, a CPU whose kernel entry or exit flushes branch prediction (entry
 * IBPB, return-buffer filling, a hypervisor's world switch) mispredicts
 * both, every time: called through a pointer, select and null read 2-3%
 * high against their reference loops on this project's virtual machine.
 * (flatten inlines fn where it can be: not where it calls setjmp.)  The
 * loop is written once, here, as the kernel's SYSCALL_DEFINE writes its
 * wrappers.
 */
#define PM_OP(fn)							\
	static inline int fn(struct pm_ctx *ctx);			\
	static __attribute__((noinline, flatten)) int			\
	fn##_loop(struct pm_ctx *ctx, uint64_t iters)			\
	{								\
		while (iters--) {					\
			int err = fn(ctx);				\
			if (__builtin_expect(err != 0, 0))		\
				return err;				\
		}							\
		return 0;						\
	}								\
	static inline int fn(struct pm_ctx *ctx)

/* In a descriptor: the operation PM_OP defined, and its loop. */
#define PM_OP_HOOKS(fn) .op = fn, .op_loop = fn##_loop

/* Stop the optimizer from removing a loop body. */
#define pm_barrier() __asm__ __volatile__("" ::: "memory")

#endif
