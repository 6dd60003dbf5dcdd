/*
 * What pmbench-tcg.so counts, apart from QEMU: compiled into the plugin
 * (tcg-plugin.c, the glue to QEMU's API) and into its unit test.
 *
 * Every translation block gets a counter of its own that QEMU increments
 * inline each time the block runs (the cheapest instrumentation there
 * is); what the block is (its instructions, kernel or user, the kind of
 * branch that ends it, where its code lies) is noted once, when QEMU
 * translates it.  At a trial's start marker every counter is zeroed; at
 * its end marker they are summed into the trial's window (instructions,
 * branches by kind, user and kernel) and the kernel blocks' executions
 * into the benchmark's profile by address.  An optional model of the L1
 * instruction cache (set-associative, LRU, one per vCPU, geometry from
 * the guest's CPU) is fed every block's code lines; it costs a call per
 * block and is off unless asked for.
 *
 * The output file (text, one record a line; src/ab/emulated.c reads it):
 *
 *   pmbench-tcg-counts 1
 *   plugin VERSION
 *   api MIN CUR                 the plugin API versions QEMU accepts
 *   vcpus N
 *   icache KIB WAYS LINE        or: icache off WHY
 *   w ID U... K...              a window: for user then kernel, the
 *                               PM_TC_FIELDS counts below, in order
 *   p ID VADDR INSNS            kernel instructions of benchmark ID in
 *                               the blocks starting at VADDR, all windows
 *   r ID VADDR N                the same of blocks that are an iteration of
 *                               a rep string instruction
 *   dropped N                   starts without an end, ends without a start
 *   end
 */
#ifndef PM_AB_TCG_COUNT_H
#define PM_AB_TCG_COUNT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define PM_TC_FORMAT "pmbench-tcg-counts 1"
#define PM_TC_PLUGIN "pmbench-tcg.so"
/* The version of QEMU's plugin API the plugin is built for. */
#define PM_TC_QEMU_API 1

/* The kind of control transfer that ends a block (x86-64). */
enum pm_tc_branch {
	PM_TC_BR_NONE,		/* no branch: a page boundary, a system instruction */
	PM_TC_BR_COND,		/* jcc, loop, jrcxz */
	PM_TC_BR_JUMP,		/* jmp to a fixed target */
	PM_TC_BR_IJUMP,		/* jmp through a register or memory */
	PM_TC_BR_CALL,		/* call to a fixed target */
	PM_TC_BR_ICALL,		/* call through a register or memory */
	PM_TC_BR_RET,		/* ret */
	PM_TC_BR_FAR,		/* syscall, sysret, iret, int, far jumps and calls */
	PM_TC_NBR,
};

/* The counts of a window, per mode: instructions, the branches of each
 * kind but NONE, modelled i-cache misses, and the executions of blocks
 * that are one `rep` string instruction: TCG runs such an instruction
 * once per iteration, each counted as an instruction, and every
 * iteration after the first is such a block. */
enum {
	PM_TC_F_INSNS = 0,
	PM_TC_F_BRANCH = 1,			/* + kind - 1 */
	PM_TC_F_MISSES = PM_TC_F_BRANCH + PM_TC_NBR - 1,
	PM_TC_F_REPEATS,
	PM_TC_FIELDS,
};

/* "conditional", "jump", ... as the output and the result file name them */
extern const char *const pm_tc_branch_names[PM_TC_NBR];

/* The branch an instruction is, from its bytes. */
enum pm_tc_branch pm_tc_classify(const unsigned char *insn, size_t len);
/* Is it a string instruction with a rep prefix (rep movs, repe cmps ...)? */
bool pm_tc_is_rep_string(const unsigned char *insn, size_t len);

/* Where a block's code lies: at most two stretches (a block spans at
 * most two pages, which need not be adjacent in memory). */
struct pm_tc_code {
	uint64_t start[2];
	uint32_t len[2];
	unsigned n;
};

/* Grow c by an instruction of len bytes at addr. */
void pm_tc_code_add(struct pm_tc_code *c, uint64_t addr, uint32_t len);

struct pm_tc_block {
	uint64_t execs;		/* QEMU adds 1 each time the block runs */
	uint64_t vaddr;
	struct pm_tc_code code;
	uint32_t ninsns;
	uint8_t kernel, branch;
	uint8_t repeat;		/* one rep string instruction: an iteration */
};

struct pm_tc;

/* nvcpus: caches to model (when the guest gives a geometry); icache:
 * whether blocks will be fed to the model. */
struct pm_tc *pm_tc_new(unsigned nvcpus, bool icache);
void pm_tc_free(struct pm_tc *t);

/* The block's entry: the same one for a block translated again. */
struct pm_tc_block *pm_tc_block(struct pm_tc *t, uint64_t vaddr, const struct pm_tc_code *code,
				unsigned ninsns, bool kernel, enum pm_tc_branch br, bool repeat);

/* Is a translated block a marker (bench/marker.h: one `ret`, user mode,
 * in the marker range)?  Its offset in the range into *off. */
bool pm_tc_is_marker(uint64_t vaddr, bool kernel, unsigned ninsns,
		     const unsigned char *insn, size_t len, uint32_t *off);
/* A marker ran. */
void pm_tc_mark(struct pm_tc *t, uint32_t off);
/* Block b is about to run on vcpu: its code through the modelled cache. */
void pm_tc_fetch(struct pm_tc *t, unsigned vcpu, const struct pm_tc_block *b);

/* Say the API versions and vCPUs in the output. */
void pm_tc_set_info(struct pm_tc *t, const char *version, int api_min, int api_cur);
/* Why the cache model is off (no geometry, an unusable one ...), or NULL
 * when it is on. */
const char *pm_tc_icache_off(const struct pm_tc *t);

/* The output file's text; 0 or -errno. */
int pm_tc_write(const struct pm_tc *t, FILE *f);

/* For the tests: windows closed so far, and blocks known. */
size_t pm_tc_nwindows(const struct pm_tc *t);
size_t pm_tc_nblocks(const struct pm_tc *t);

#endif
