/*
 * The profile pass: samples of a benchmark's processes (children
 * included), symbolized, aggregated into hotspots with a cost per op.
 */
#ifndef PM_PROFILE_H
#define PM_PROFILE_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <sys/types.h>

#include "util.h"

struct pm_profile_opts {
	unsigned freq;		/* samples per CPU-second (-F) */
	bool dwarf;		/* --call-graph dwarf: libunwind user stacks */
	const char *vmlinux;	/* --vmlinux */
};

/* What a whole run shares: kernel symbols, ELF caches. */
struct pm_profiler;

/* Loads kernel symbols once.  Fails only for an unreadable --vmlinux. */
int pm_profiler_new(struct pm_profiler **out, const struct pm_profile_opts *o,
		    struct pm_err *e);
/* Why kernel hotspots are missing (hidden addresses, paranoid), or NULL;
 * known after the first profile began. */
const char *pm_profiler_kernel_unavailable(const struct pm_profiler *p);
/* "/proc/kallsyms", a vmlinux path, or NULL. */
const char *pm_profiler_kernel_source(const struct pm_profiler *p);
void pm_profiler_free(struct pm_profiler *p);

struct pm_profile;

/* Start sampling pids (0 = ourselves), disabled. */
int pm_profile_begin(struct pm_profile **out, struct pm_profiler *p,
		     const pid_t *pids, int npids, bool inherit,
		     struct pm_err *e);
int pm_profile_enable(struct pm_profile *pr);
int pm_profile_disable(struct pm_profile *pr);
/* Take in what the buffers hold; call between chunks of the loop. */
void pm_profile_drain(struct pm_profile *pr);
struct pm_record;
/* Take in one parsed record as the drain does (tests feed crafted ones). */
void pm_profile_record(struct pm_profile *pr, const struct pm_record *r);
/*
 * Finish: the hotspots object of the result file (pmbench-result(5)).
 * ops: operations run while sampling; median_ns: the timed latency per
 * op (cost per op = share x median); pass_ns: wall time of the sampled
 * loop (slowdown = pass_ns / ops / median_ns).  Frees pr.
 */
json_t *pm_profile_end(struct pm_profile *pr, double ops, double median_ns,
		       double pass_ns);

/*
 * Reading a hotspots object.  pmbench's own frames (the process start,
 * main, the command, the runner's passes, the round worker) are dropped
 * unless all_frames: a stack keeps the process name and what the
 * benchmark called; a sample of pmbench's own code is left out.
 */
bool pm_frame_is_harness(const char *name);
/* A sampled symbol of pmbench's own code (never the benchmark's). */
bool pm_hotspot_symbol_is_harness(const json_t *sym);
/* "comm;frame;..." without the harness frames; NULL when the sample was
 * in pmbench's own code. */
char *pm_stack_strip_harness(const char *stack);
/* The stacks [{stack, samples}], merged after stripping, most sampled
 * first, "[other]" last; *harness: samples dropped as pmbench's own. */
json_t *pm_hotspots_stacks(const json_t *hotspots, bool all_frames,
			   double *harness);
/* Folded stacks ("frame;frame;frame count") of a hotspots object. */
void pm_hotspots_write_folded(const json_t *hotspots, const char *prefix,
			      bool all_frames, FILE *f);

#endif
