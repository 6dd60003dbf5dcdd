/*
 * Symbols: kernel (kallsyms, vmlinux, modules) and user space (ELF
 * .symtab/.dynsym of every mapped object), address -> symbol.
 */
#ifndef PM_SYMBOLS_H
#define PM_SYMBOLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

/* ---- one object's symbol table ---- */

struct pm_sym {
	uint64_t addr;		/* start: link-time address (ELF) or runtime (kallsyms) */
	uint64_t size;		/* bytes; from the ELF when size_exact, else to the next symbol */
	const char *name;
	bool size_exact;
};

struct pm_symtab;

/* /proc/kallsyms text (text symbols t/T/W/w only, modules included with
 * their [module] name).  -EACCES when every address is 0 (kptr_restrict
 * or perf_event_paranoid hide them), -ENOENT when there are no symbols. */
int pm_symtab_from_kallsyms(struct pm_symtab **out, const char *text,
			    struct pm_err *e);
/* Function symbols of an ELF file: .symtab, else .dynsym; one name per
 * address (GLOBAL over WEAK over LOCAL). */
int pm_symtab_load_elf(struct pm_symtab **out, const char *path,
		       struct pm_err *e);
/* The text symbols of a vmlinux as its /proc/kallsyms lists them: the
 * functions, and the untyped symbols in code (assembly such as
 * entry_SYSCALL_64), a function first where both start. */
int pm_symtab_load_kernel_text(struct pm_symtab **out, const char *path,
			       struct pm_err *e);
/* The symbol containing addr (addr within [sym.addr, sym.addr+size);
 * size 0 means unknown and covers at most 4096 bytes), or NULL.  Of
 * kallsyms aliases the global one with fewest leading underscores. */
const struct pm_sym *pm_symtab_lookup(const struct pm_symtab *t, uint64_t addr);
/* The module a kallsyms symbol came from ("ext4"), NULL for vmlinux. */
const char *pm_symtab_module(const struct pm_symtab *t, const struct pm_sym *s);
/* Symbol by exact name (first match), or NULL. */
const struct pm_sym *pm_symtab_find(const struct pm_symtab *t, const char *name);
size_t pm_symtab_count(const struct pm_symtab *t);
/* Symbol i in address order (aliases of kallsyms included), NULL past
 * the end: for listing every symbol. */
const struct pm_sym *pm_symtab_at(const struct pm_symtab *t, size_t i);
/* ".symtab", ".dynsym", "kallsyms", "vmlinux" */
const char *pm_symtab_source(const struct pm_symtab *t);
void pm_symtab_free(struct pm_symtab *t);
/* Add delta (mod 2^64) to every address, e.g. a vmlinux moved by KASLR;
 * source (a static string) replaces the table's source unless NULL. */
void pm_symtab_relocate(struct pm_symtab *t, uint64_t delta, const char *source);

/* ---- ELF facts ---- */

struct pm_elf_info {
	bool dyn;		/* ET_DYN (shared object or PIE) */
	uint64_t text_vaddr;	/* p_vaddr of the executable PT_LOAD */
	uint64_t text_offset;	/* its p_offset */
	char build_id[41];	/* hex, "" when none */
};

int pm_elf_info(const char *path, struct pm_elf_info *info, struct pm_err *e);
/* Value of any defined symbol (not only functions), e.g. a vmlinux's
 * _stext; -ENOENT when absent. */
int pm_elf_symbol_value(const char *path, const char *name, uint64_t *value,
			struct pm_err *e);
/* pm_symtab_load_elf + pm_elf_info for an ELF image in memory (the vDSO);
 * name is used in messages. */
int pm_elf_load_image(const void *image, size_t size, const char *name,
		      struct pm_symtab **out, struct pm_elf_info *info,
		      struct pm_err *e);

/* ---- kernel code made at run time (jit.c) ---- */

enum pm_jit_kind {
	PM_JIT_BPF,		/* a BPF program, trampoline or dispatcher: "[bpf]" */
	PM_JIT_OOL,		/* out-of-line code: kprobe slots, ftrace trampolines: "[ool]" */
	PM_JIT_OTHER,		/* a ksymbol of a type this build does not know: "[jit]" */
};

struct pm_jit_sym {
	struct pm_sym sym;	/* addr, size (the exact length), name as the kernel gives it */
	enum pm_jit_kind kind;
	uint32_t prog_id;	/* BPF program id, 0 when unknown */
	char *prog_type;	/* "raw_tracepoint", NULL when unknown */
	char *attach;		/* "raw_tracepoint sys_enter", NULL when unknown */
	bool info_done;		/* prog_type and attach were asked for */
};

/* Sorted by address, never overlapping: a newer range replaces what it
 * overlaps (the kernel reuses the space of unloaded programs). */
struct pm_jit_syms {
	struct pm_jit_sym *v;
	size_t n, cap;
};

/* Register a range (PERF_RECORD_KSYMBOL); the entry, valid until the
 * next change of j. */
struct pm_jit_sym *pm_jit_add(struct pm_jit_syms *j, uint64_t addr, uint64_t len,
			      enum pm_jit_kind kind, const char *name);
/* Unregister the range starting at addr. */
void pm_jit_remove(struct pm_jit_syms *j, uint64_t addr);
struct pm_jit_sym *pm_jit_lookup(const struct pm_jit_syms *j, uint64_t addr);
/* "[bpf]", "[ool]" or "[jit]" */
const char *pm_jit_object(const struct pm_jit_sym *s);
/* PERF_RECORD_BPF_EVENT (program loaded): the ranges named after the
 * program's tag get its id. */
void pm_jit_set_prog(struct pm_jit_syms *j, const uint8_t tag[8], uint32_t id);
/* Fill s->prog_type and s->attach from bpf(2) once (CAP_SYS_ADMIN);
 * 0, or -errno when the program cannot be asked about. */
int pm_jit_prog_info(struct pm_jit_sym *s);
/* Every loaded BPF program's JIT images with their exact lengths, type
 * and attach point, from bpf(2); replaces the programs j had.  Names
 * are kallsyms' when it has them.  -EPERM without CAP_SYS_ADMIN, j
 * unchanged. */
int pm_jit_load_bpf(struct pm_jit_syms *j, const struct pm_symtab *kallsyms,
		    struct pm_err *e);
void pm_jit_free(struct pm_jit_syms *j);

/* ---- the kernel ---- */

struct pm_kernel_syms {
	struct pm_symtab *core;	/* vmlinux or kallsyms */
	const char *source;	/* "vmlinux" path or "/proc/kallsyms" */
	char *vmlinux;		/* path when a vmlinux was used */
	uint64_t stext, etext;	/* kernel text bounds, 0 when unknown */
	char *unavailable;	/* why kernel symbols are missing, or NULL */
	/* /proc/kallsyms when core is a vmlinux: modules (and anything the
	 * vmlinux lacks) are looked up here; NULL when core is kallsyms */
	struct pm_symtab *kallsyms;
	/* BPF programs and other code made at run time, exact ranges */
	struct pm_jit_syms jit;
};

/*
 * Load kernel symbols: vmlinux_path if given, else the usual debug
 * locations (/usr/lib/debug/boot/vmlinux-R,
 * /usr/lib/debug/lib/modules/R/vmlinux, /lib/modules/R/build/vmlinux,
 * /boot/vmlinux-R; only with a .symtab and, when both are known, the
 * running kernel's build-id), relocated to the running kernel (KASLR)
 * using _stext from kallsyms; else /proc/kallsyms.  Module symbols always
 * come from kallsyms.  When addresses are hidden, core is NULL and
 * unavailable says why and what to do.  Only fails for an explicit
 * vmlinux_path: -errno when it cannot be read, -EINVAL when it is not an
 * ELF file with a .symtab and _stext or its build-id is not the running
 * kernel's.
 */
int pm_kernel_syms_load(struct pm_kernel_syms *k, const char *vmlinux_path,
			struct pm_err *e);
/* The symbol at a kernel address: code made at run time first (exact
 * ranges; *module "[bpf]", "[ool]"), then vmlinux and kallsyms (*module
 * the module, "[bpf]" for kallsyms' BPF symbols, NULL for vmlinux).  A
 * kallsyms [bpf] symbol whose exact range is known covers no more. */
const struct pm_sym *pm_kernel_lookup(const struct pm_kernel_syms *k,
				      uint64_t addr, const char **module);
/* The run-time code entry a pm_kernel_lookup() result is, or NULL. */
struct pm_jit_sym *pm_kernel_jit(const struct pm_kernel_syms *k, const struct pm_sym *s);
/* Read the loaded BPF programs again (pm_jit_load_bpf): -errno when
 * bpf(2) will not tell (not root), the table unchanged. */
int pm_kernel_jit_refresh(struct pm_kernel_syms *k);
void pm_kernel_syms_free(struct pm_kernel_syms *k);

/* ---- user address spaces ---- */

struct pm_map {
	uint64_t start, end;	/* runtime addresses [start, end) */
	uint64_t pgoff;		/* file offset of start */
	char *path;		/* file, or "[vdso]", "[heap]", "//anon" */
};

/* The mappings of one process, sorted by start, non-overlapping. */
struct pm_maps {
	pid_t pid;
	struct pm_map *v;
	size_t n;
};

int pm_maps_from_proc(struct pm_maps *m, pid_t pid, struct pm_err *e);
/* A new mapping replaces what it overlaps (PERF_RECORD_MMAP2). */
void pm_maps_add(struct pm_maps *m, uint64_t start, uint64_t len,
		 uint64_t pgoff, const char *path);
const struct pm_map *pm_maps_find(const struct pm_maps *m, uint64_t addr);
void pm_maps_copy(struct pm_maps *dst, const struct pm_maps *src, pid_t pid);
void pm_maps_free(struct pm_maps *m);

/* ---- user symbol resolution with a per-path cache ---- */

struct pm_symcache;	/* not thread-safe */

struct pm_symcache *pm_symcache_new(void);
void pm_symcache_free(struct pm_symcache *c);

struct pm_user_sym {
	const char *name;	/* symbol, NULL when unresolved */
	const char *object;	/* path of the mapped file */
	uint64_t sym_size;
	bool size_exact;	/* sym_size from the ELF, not to the next symbol */
	uint64_t offset;	/* addr - symbol start */
	const char *build_id;	/* "" when none */
};

/* Resolve a runtime address in a process: map -> file -> ELF symbol.
 * Returns 0 when a symbol was found, -ENOENT when the address is not
 * in a file mapping or the file has no symbol there (out->object may
 * still be set). */
int pm_user_lookup(struct pm_symcache *c, const struct pm_maps *m,
		   uint64_t addr, struct pm_user_sym *out);
/* Read len bytes of the file mapped at a runtime address (from the file,
 * so the process may be gone): 0, or -ENOENT when the address is not in
 * a file mapping, -EIO when the file is shorter, -errno. */
int pm_user_read_file(const struct pm_maps *m, uint64_t addr, void *buf,
		      size_t len);
/* Runtime address -> address in the ELF file's own terms. */
int pm_user_file_addr(struct pm_symcache *c, const struct pm_map *map,
		      uint64_t addr, uint64_t *file_addr);

/* ---- source files of kernel functions (DWARF, libdw) ---- */

struct pm_ksrc;
/* -ENODATA without DWARF, -ENOTSUP when built without libdw. */
int pm_ksrc_open(struct pm_ksrc **out, const char *vmlinux, struct pm_err *e);
/* The file declaring a function ("mm/slub.c"), or NULL; valid until the
 * next call. */
const char *pm_ksrc_file(struct pm_ksrc *k, const char *symbol);
/* The function symbols by name, for listing them all. */
size_t pm_ksrc_count(const struct pm_ksrc *k);
const char *pm_ksrc_name(const struct pm_ksrc *k, size_t i);
void pm_ksrc_close(struct pm_ksrc *k);
/* A profile's "sources": the file of each kernel symbol of its symbols
 * and stacks that the vmlinux knows (pmbench-result(5)). */
struct json_t;
int pm_ksrc_annotate(struct pm_ksrc *k, struct json_t *hotspots);

/* ---- interrupt-enable skid (skid.c) ---- */

/* The patterns of mechanisms/irq-enable.syms (NULL-terminated, free
 * with pm_strv_free). */
int pm_skid_load(char ***out, const char *path, struct pm_err *e);
/* Does a kernel function turn interrupts back on (a pattern matches)? */
bool pm_skid_match(char *const *globs, const char *sym);

#endif
