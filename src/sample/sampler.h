/*
 * Sampling: one sampling event per process (inherited by children when
 * asked), each with an mmap ring buffer, drained into parsed records.
 */
#ifndef PM_SAMPLER_H
#define PM_SAMPLER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

#define PM_MAX_CHAIN 256

struct pm_sampler_opts {
	unsigned freq;		/* samples per second of CPU time */
	bool dwarf;		/* user stacks: copy stack + regs for libunwind */
	unsigned stack_bytes;	/* user stack copied per sample (dwarf) */
	bool inherit;		/* children too */
	bool kernel;		/* try to sample the kernel (perf_event_paranoid) */
};

enum pm_rec_type {
	PM_REC_SAMPLE,
	PM_REC_MMAP,		/* a mapping (MMAP2) */
	PM_REC_COMM,		/* a name; exec when .exec */
	PM_REC_FORK,
	PM_REC_EXIT,
	PM_REC_LOST,
	PM_REC_KSYMBOL,		/* kernel code registered or unregistered (BPF JIT) */
	PM_REC_BPF_EVENT,	/* a BPF program loaded or unloaded */
};

/* PM_REC_KSYMBOL's type, the kernel's PERF_RECORD_KSYMBOL_TYPE_* */
enum pm_ksym_type { PM_KSYM_UNKNOWN, PM_KSYM_BPF, PM_KSYM_OOL };

struct pm_record {
	enum pm_rec_type type;
	uint32_t pid, tid;
	uint64_t time;
	union {
		struct {
			uint64_t ip, period;
			bool kernel;		/* sampled in kernel mode */
			const uint64_t *chain;	/* callchain with context markers */
			uint64_t nchain;
			uint64_t regs_abi;	/* 0: no user regs */
			const uint64_t *regs;
			uint64_t regs_mask;
			const uint8_t *stack;	/* user stack copy */
			uint64_t stack_size;	/* valid bytes */
		} sample;
		struct {
			uint64_t addr, len, pgoff;
			uint32_t prot;
			const char *path;
		} mmap;
		struct {
			const char *comm;
			bool exec;
		} comm;
		struct {
			uint32_t ppid;
		} fork;
		struct {
			uint64_t lost;
		} lost;
		struct {
			uint64_t addr;
			uint32_t len;
			uint16_t type;		/* enum pm_ksym_type */
			bool unregister;
			const char *name;	/* "bpf_prog_<tag>_<name>" */
		} ksymbol;
		struct {
			uint16_t type;		/* 1 loaded, 2 unloaded */
			uint32_t id;		/* program id */
			uint8_t tag[8];
		} bpf;
	} u;
};

struct pm_sampler;

/*
 * Open a sampler on each pid (0 = ourselves), disabled.  Samples
 * "cycles" when a hardware PMU counts it, else cpu-clock (in which case
 * the period is in ns).  When o->kernel is set but perf_event_paranoid
 * forbids kernel sampling, it falls back to user space only and says so
 * in pm_sampler_kernel_unavailable().  The events also report kernel
 * code made meanwhile (PM_REC_KSYMBOL, PM_REC_BPF_EVENT): by the sampled
 * processes and, where CPU-wide events are allowed (root), by anyone.
 */
int pm_sampler_open(struct pm_sampler **out, const pid_t *pids, int npids,
		    const struct pm_sampler_opts *o, struct pm_err *e);
int pm_sampler_enable(struct pm_sampler *s);
int pm_sampler_disable(struct pm_sampler *s);
/* One record as the ring holds it (a struct perf_event_header first,
 * its size bytes readable) into r; false when it is malformed or of a
 * type not read.  s gives the sample layout; NULL reads only the other
 * records (tests feed crafted ones). */
bool pm_sampler_parse(const struct pm_sampler *s, const void *rec, struct pm_record *r);
/* Parse everything buffered; cb gets each record (valid only during
 * the call).  Returns the number of records or -errno. */
long pm_sampler_drain(struct pm_sampler *s,
		      void (*cb)(const struct pm_record *r, void *arg), void *arg);
const char *pm_sampler_event(const struct pm_sampler *s);	/* "cpu-clock" */
uint64_t pm_sampler_period(const struct pm_sampler *s);
const char *pm_sampler_period_unit(const struct pm_sampler *s);	/* "ns", "cycles" */
/* Why the kernel is not sampled, NULL when it is. */
const char *pm_sampler_kernel_unavailable(const struct pm_sampler *s);
void pm_sampler_close(struct pm_sampler *s);

#endif
