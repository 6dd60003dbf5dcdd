/*
 * Emulated counts in `pmbench ab` (pmbench-ab(1), EMULATED COUNTS): the
 * TCG plugin's output file read back, each benchmark's windows matched
 * to its trials, its kernel blocks named by the guest kernel's symbols,
 * and the result put into the run's result file as what it is.
 */
#ifndef PM_AB_EMULATED_H
#define PM_AB_EMULATED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "ab/tcg-count.h"
#include "results/result.h"
#include "symbols/symbols.h"
#include "util.h"

/* ---- the plugin's output file (tcg-count.h) ---- */

struct pm_tc_window_rec {
	unsigned id;
	uint64_t c[2][PM_TC_FIELDS];	/* [kernel][field] */
};

struct pm_tc_prof_rec {
	unsigned id;
	uint64_t vaddr, insns;
	bool repeat;		/* rep string iterations ("r" lines) */
};

struct pm_tc_counts {
	char version[64];
	int api_min, api_cur;
	unsigned vcpus;
	bool icache;			/* the model ran: its geometry below */
	unsigned icache_kib, icache_ways, icache_line;
	char icache_off[96];		/* else why not, as the plugin says it */
	struct pm_tc_window_rec *w;
	size_t nw;
	struct pm_tc_prof_rec *p;
	size_t np;
	uint64_t dropped;
	bool nomem;			/* the plugin ran out of memory: incomplete */
};

/* Parse the text (path only names it in messages); -EBADMSG with e
 * naming the line when it is not the plugin's, or was cut short. */
int pm_tc_counts_parse(struct pm_tc_counts *c, const char *text, size_t len,
		       const char *path, struct pm_err *e);
int pm_tc_counts_load(struct pm_tc_counts *c, const char *path, struct pm_err *e);
void pm_tc_counts_free(struct pm_tc_counts *c);
/* The plugin's word for an unused cache model, as a sentence. */
const char *pm_tc_icache_why(const char *word);

/* ---- into a result ---- */

/* The guest kernel's symbols at link addresses, and its _stext there. */
struct pm_ab_ksyms {
	struct pm_symtab *t;		/* NULL: no profile, why says why */
	uint64_t stext;
	char *source;			/* what they came from */
	char why[512];
};

/* From a vmlinux (ab's stripped copy will do); why set when it fails. */
void pm_ab_ksyms_load(struct pm_ab_ksyms *k, const char *vmlinux, const char *shown_as);
void pm_ab_ksyms_free(struct pm_ab_ksyms *k);

/*
 * Each benchmark of r (one boot's result, run 0) gets its "emulated"
 * object (pmbench-result(5)) from c: the windows marked with its id
 * (r's options.markers) must be as many as its trials.  k NULL or
 * without a table: the kernel profile says why it is missing.  Returns
 * how many benchmarks got counts; why says why none did.
 */
size_t pm_ab_emulated_attach(struct pm_result *r, const struct pm_tc_counts *c,
			     const struct pm_ab_ksyms *k, char *why, size_t len);

/* ---- the plugin and this QEMU ---- */

struct pm_ab_counting {
	bool on;			/* the boots load the plugin */
	bool icache;			/* with the cache model (--emulated-icache) */
	char *plugin;			/* its path */
	char version[64];		/* the plugin's */
	int api_min, api_cur;		/* what this QEMU accepts */
	char qemu_version[160];		/* QEMU's --version, first line */
	char why[640];			/* when off: why */
};

/*
 * Can qemu load the plugin at path?  Asks QEMU itself (a probe that
 * exits at once; its scratch files in dir).  c->on, or c->why.
 */
void pm_ab_counting_probe(struct pm_ab_counting *c, const char *qemu, const char *plugin,
			  const char *dir);
void pm_ab_counting_free(struct pm_ab_counting *c);
/* QEMU's -plugin value for a boot whose counts go to out (allocated). */
char *pm_ab_plugin_arg(const struct pm_ab_counting *c, const char *out);
/* The fingerprint items of counted runs: the plugin and QEMU. */
void pm_ab_counting_fingerprint(const struct pm_ab_counting *c, json_t *sysinfo);

#endif
