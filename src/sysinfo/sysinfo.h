/*
 * The system fingerprint: everything that can explain a difference
 * between two runs, recorded with every run (pmbench-result(5)).
 * Its keys are named in sysinfo/keys.h.
 */
#ifndef PM_SYSINFO_H
#define PM_SYSINFO_H

#include <jansson.h>
#include <stdio.h>
#include <sys/types.h>

#include "sysinfo/keys.h"
#include "util.h"

/*
 * Collect the fingerprint.  Never fails as a whole: an item that cannot
 * be read is null, and "unavailable" maps its dotted key to the reason.
 */
json_t *pm_sysinfo_collect(void);

/* Human-readable rendering (pmbench sysinfo). */
void pm_sysinfo_print(const json_t *si, FILE *f);

/*
 * The processes of the side measured besides pmbench's own: the tracer
 * attached to it and the wrappers that run it as their child (their
 * command before pmbench's).  Their work is the side's, not competition.
 */
struct pm_process_side {
	pid_t tracer;		/* 0: none */
	char tracer_comm[32];
	pid_t wrappers[4];	/* innermost first */
	size_t nwrappers;
	char *wrapper;		/* their command, shell-quoted, or NULL */
};
void pm_process_side_find(struct pm_process_side *s);
void pm_process_side_free(struct pm_process_side *s);
/* The tracer and wrappers (each once), at most max: their count. */
size_t pm_process_side_pids(const struct pm_process_side *s, pid_t *out, size_t max);

/*
 * Parse helpers, exposed for unit tests with fixture text.
 */
/* "CONFIG_X=y" lines -> {"CONFIG_X": "y"}; "# ... is not set" skipped. */
json_t *pm_sysinfo_parse_config(const char *text);
/* /proc/kallsyms text -> _etext - _stext, or -ENOENT / -EACCES (zeros). */
long long pm_sysinfo_text_size(const char *kallsyms);
/* "always [madvise] never" -> "madvise". */
int pm_sysinfo_bracketed(const char *text, char *out, size_t len);
/* Preemption model from a kernel config object and uname version. */
const char *pm_sysinfo_preemption(const json_t *config, const char *uname_version);
/* /proc/version text -> "gcc (GCC) 12.2.0" (the compiler part only). */
int pm_sysinfo_kernel_compiler(const char *proc_version, char *out, size_t len);
/* Value of name= on a kernel command line (last one wins), or -ENOENT. */
int pm_sysinfo_cmdline_param(const char *cmdline, const char *name,
			     char *out, size_t len);

/* Dotted-path lookup in a fingerprint: "kernel.release". */
const json_t *pm_sysinfo_get(const json_t *si, const char *dotted);
/* The item of a named key: pm_sysinfo_at(si, PM_FP_KERNEL_RELEASE). */
const json_t *pm_sysinfo_at(const json_t *si, enum pm_fp_key k);
/* Set the item of a named key (not an array item), making the objects on
 * its path; takes v.  0, or -EINVAL when a part of the path is not an
 * object. */
int pm_sysinfo_set(json_t *si, enum pm_fp_key k, json_t *v);
/* Record why the item of k is null: unavailable["kernel.release"] = why. */
int pm_sysinfo_set_unavailable(json_t *si, enum pm_fp_key k, const char *why);

#endif
