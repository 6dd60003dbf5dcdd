/*
 * Counters: event names -> libpfm4 -> perf_event_attr; open, read, scale.
 */
#ifndef PM_COUNTERS_H
#define PM_COUNTERS_H

/* The kernel's header first: libpfm4's copy then steps aside. */
#include <linux/perf_event.h>
#include <perfmon/pfmlib_perf_event.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "util.h"

/* ---- alias files (pmbench-events(5)) ---- */

struct pm_alias {
	char *name;		/* "icache" */
	char *desc;		/* "L1 instruction cache misses" */
	char **events;		/* libpfm4 strings, in order of preference */
	size_t nevents;
	char *file;		/* where it was defined */
	int line;
};

struct pm_aliases {
	struct pm_alias *v;
	size_t n;
};

/* Parse one alias file's text; filename is only used in messages. */
int pm_aliases_parse(struct pm_aliases *a, const char *text,
		     const char *filename, struct pm_err *e);
/* Load every *.events file of dir in lexical order; later files
 * replace earlier definitions of the same alias. */
int pm_aliases_load_dir(struct pm_aliases *a, const char *dir,
			struct pm_err *e);
/* The installed/in-tree directory, or $PMBENCH_EVENTS_DIR. */
const char *pm_aliases_default_dir(void);
const struct pm_alias *pm_alias_find(const struct pm_aliases *a,
				     const char *name);
void pm_aliases_free(struct pm_aliases *a);

/* ---- resolution ---- */

enum pm_counter_status {
	PM_CNT_OK,
	PM_CNT_NOT_SUPPORTED,	/* could not be opened here; reason says why */
	PM_CNT_NOT_COUNTED,	/* opened, but never ran (time_running 0) */
};

/* What the attempt to use one candidate string gave. */
struct pm_candidate {
	char *event;		/* libpfm4 string */
	int encode_err;		/* libpfm4 error, 0 = encoded */
	int open_err;		/* errno of perf_event_open, 0 = opened */
	char *fstr;		/* libpfm4's fully qualified string */
	uint32_t type;
	uint64_t config, config1, config2;
};

struct pm_event {
	char *name;		/* what the user asked for: "icache" or a raw string */
	char *desc;
	bool alias;		/* name came from an alias file */
	bool software;		/* a software event: never multiplexed, no u/k split */
	enum pm_counter_status status;
	char *reason;		/* why not supported, and what to do */
	char *event;		/* the chosen libpfm4 string */
	bool split;		/* counted user and kernel separately */
	bool user_only;		/* kernel excluded (perf_event_paranoid) */
	struct perf_event_attr attr;	/* total, or the user half when split */
	struct perf_event_attr attr_k;	/* the kernel half when split */
	struct pm_candidate *cand;	/* every candidate tried, for `events` */
	size_t ncand;
};

struct pm_events {
	struct pm_event *v;
	size_t n;
};

/* Resolve names (aliases or libpfm4 strings).  An unknown name is an
 * error (-EINVAL); a known event that cannot open here is resolved with
 * status PM_CNT_NOT_SUPPORTED and a reason.  open_test=false only
 * encodes (used by unit tests and `events --encode-only`). */
int pm_events_resolve(struct pm_events *out, char *const *names,
		      const struct pm_aliases *aliases, bool open_test,
		      struct pm_err *e);
/* Add a software event by its libpfm4 string under a display name. */
int pm_events_add_software(struct pm_events *out, const char *name,
			   const char *pfm, struct pm_err *e);
void pm_events_free(struct pm_events *ev);
/* An event that cannot be counted, with the reason (shown, not dropped). */
void pm_events_add_unavailable(struct pm_events *out, const char *name,
			       const char *reason);

/* The software events every run counts, in display order. */
struct pm_sw_event {
	const char *name, *pfm, *desc;
};
extern const struct pm_sw_event pm_software_events[];	/* NULL-terminated */
int pm_events_add_all_software(struct pm_events *out, struct pm_err *e);

/* Encode one libpfm4 string for a privilege level mask (PFM_PLM*). */
int pm_encode(const char *event, int plm, struct perf_event_attr *attr,
	      char **fstr, struct pm_err *e);
/* Human reason for an open errno on attr ("no hardware PMU ..."). */
char *pm_open_reason(int err, const struct perf_event_attr *attr);
int pm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		       int group_fd, unsigned long flags);
/* A PMU that counts hardware events exists (sysfs). */
bool pm_have_hw_pmu(void);
/* Name of the core PMU libpfm4 detected ("amd64_fam19h_zen4"), or NULL. */
const char *pm_pfm_core_pmu(void);
int pm_pfm_init(struct pm_err *e);

/* ---- counting ---- */

/* One event's total over every counted process, for an interval. */
struct pm_count {
	double total, user, kernel;	/* scaled; user/kernel NAN if not split */
	double running;			/* time_running / time_enabled (0..1) */
	uint64_t enabled_ns;
	bool counted;
};

struct pm_counters;

/* Open every supported event of ev on each pid (disabled). */
int pm_counters_open(struct pm_counters **out, const struct pm_events *ev,
		     const pid_t *pids, int npids, bool inherit,
		     struct pm_err *e);
int pm_counters_enable(struct pm_counters *c);
int pm_counters_disable(struct pm_counters *c);
/* Read raw cumulative values now (call while disabled). */
int pm_counters_snapshot(struct pm_counters *c);
/* Counts since the previous snapshot, one per event of ev (same order). */
int pm_counters_delta(struct pm_counters *c, struct pm_count *out);
void pm_counters_close(struct pm_counters *c);

#endif
