/*
 * What the parts of sysinfo share: the collection context, the helpers
 * that write an item or record why it is null, and each part's entry.
 * Not for use outside src/sysinfo/.
 */
#ifndef PM_SYSINFO_INTERNAL_H
#define PM_SYSINFO_INTERNAL_H

#include <stdbool.h>
#include <sys/utsname.h>

#include "sysinfo/sysinfo.h"

#define SYS_CPU "/sys/devices/system/cpu"

struct si_ctx {
	json_t *unavail;	/* dotted key -> reason */
	struct utsname uts;
	bool have_uts;
	char *cmdline;		/* NULL if unreadable */
	int cmdline_err;
	json_t *cpuinfo;	/* first processor block, key -> value */
	int cpuinfo_err;
	json_t *config;		/* borrowed from the kernel object */
	long kptr_restrict, perf_paranoid;	/* -1: unknown */
};

/* put.c: writing items */
/* obj[leaf of key] = v (stolen). */
void si_put(json_t *obj, enum pm_fp_key k, json_t *v);
/* obj[last part of dotted] = null, and record why. */
void si_na_at(struct si_ctx *c, json_t *obj, const char *dotted, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* The same for a named key. */
void si_na(struct si_ctx *c, json_t *obj, enum pm_fp_key k, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
/* One line explaining why a /proc or /sys file could not be read. */
void si_file_reason(char *buf, size_t len, const char *path, int err);
/* obj[key] = first line of path (trimmed), or null with the reason. */
int si_put_line_at(struct si_ctx *c, json_t *obj, const char *dotted,
		   const char *path, const char *hint);
int si_put_line(struct si_ctx *c, json_t *obj, enum pm_fp_key k,
		const char *path, const char *hint);
/* obj[key] = the number in path, or null with the reason. */
int si_put_long_at(struct si_ctx *c, json_t *obj, const char *dotted,
		   const char *path, const char *hint);
int si_put_long(struct si_ctx *c, json_t *obj, enum pm_fp_key k,
		const char *path, const char *hint);

/* parse.c: picking values out of text */
/* Split on white space into a JSON array of strings. */
json_t *si_word_array(const char *s);
/* The selected word of "a [b] c" (sysfs) or "a (b) c" (debugfs). */
int si_pick_marked(const char *text, char open, char close, char *out, size_t len);

/* cpu.c */
json_t *si_read_cpuinfo(int *err);
const char *si_cpuinfo_str(struct si_ctx *c, const char *key);
bool si_cpu_has_flag(struct si_ctx *c, const char *flag);
json_t *si_collect_cpu(struct si_ctx *c);

/* config.c */
bool si_config_is_y(const json_t *config, const char *name);
/* Kernel config text of the running kernel; source names where from. */
char *si_read_kernel_config(struct si_ctx *c, char *source, size_t srclen,
			    char *why, size_t whylen);

/* kernel.c; kallsyms.c */
json_t *si_collect_kernel(struct si_ctx *c);
void si_put_text_size(struct si_ctx *c, json_t *k);

/* preempt.c */
void si_put_preemption(struct si_ctx *c, json_t *k);

/* mitigations.c */
void si_put_vulnerabilities(struct si_ctx *c, json_t *si);
void si_put_mitigations(struct si_ctx *c, json_t *si);

/* process.c */
json_t *si_collect_process(struct si_ctx *c);

/* memory.c */
json_t *si_collect_memory(struct si_ctx *c);
json_t *si_collect_thp(struct si_ctx *c);

/* hypervisor.c */
json_t *si_collect_hypervisor(struct si_ctx *c);

#endif
