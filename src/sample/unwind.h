/*
 * User-space stack unwinding of a sample with libunwind's remote API:
 * perf_event copies the user stack (PERF_SAMPLE_STACK_USER) and the
 * registers (PERF_SAMPLE_REGS_USER); libunwind walks the copy using the
 * DWARF CFI (.eh_frame_hdr / .eh_frame, else .debug_frame) of the mapped
 * ELF files, as perf does.
 */
#ifndef PM_UNWIND_H
#define PM_UNWIND_H

#include <stddef.h>
#include <stdint.h>

#include "symbols/symbols.h"
#include "util.h"

/* The registers sampled (x86_64): PERF_REG_X86_* bits we ask for. */
uint64_t pm_unwind_regs_mask(void);

struct pm_unwind_input {
	const struct pm_maps *maps;	/* the sampled process */
	const uint64_t *regs;		/* values in PERF_REG_X86 bit order of mask */
	uint64_t regs_mask;		/* which registers regs holds */
	const uint8_t *stack;		/* copy of the user stack from sp */
	size_t stack_size;		/* bytes valid in stack (dyn_size) */
};

/* Caches the ELF files' unwind tables across samples. */
struct pm_unwinder;

struct pm_unwinder *pm_unwinder_new(void);
void pm_unwinder_free(struct pm_unwinder *u);

/*
 * Unwind: ips[0] is the sampled IP, then the return addresses of the
 * callers: look ips[i] - 1 up for i > 0 (a call may be the last
 * instruction of a function).  *n gets the number of frames.  Returns 0
 * when the walk ended at the outermost frame (complete), -ENODATA when it
 * stopped early (out of stack copy, no CFI, max frames reached, ...) with
 * the frames found so far, -EINVAL when regs lack IP or SP, -ENOSYS when
 * built without libunwind or for another architecture.
 * One unwinder serves any number of processes (its caches follow in->maps)
 * but only one thread at a time.
 */
int pm_unwind(struct pm_unwinder *u, const struct pm_unwind_input *in,
	      uint64_t *ips, size_t max, size_t *n);

#endif
