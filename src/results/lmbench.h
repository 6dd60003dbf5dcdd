/*
 * The lmbench summary layout (lmbench 3 scripts/getsummary), as one
 * table: the view prints it (pm_render_lmbench, views/render.h) and the
 * importer reads it back (import/import.h).
 */
#ifndef PM_LMBENCH_H
#define PM_LMBENCH_H

#include <stdbool.h>
#include <stddef.h>

#include "results/catalog.h"
#include "results/result.h"

enum pm_lmb_kind {
	PM_LMB_FIGURE,		/* a benchmark figure */
	PM_LMB_MHZ,		/* the CPU clock: sysinfo cpu.cur_mhz */
	PM_LMB_DESC,		/* "Description": lmbench's results directory */
	PM_LMB_GUESS,		/* "Guesses": "No L2 cache?" */
};

/* How getsummary prints a column. */
enum pm_lmb_fmt {
	PM_LMB_NUM,		/* num(v, len): "0.49", "166.", "33.K", "7.5800" */
	PM_LMB_INUM,		/* inum(v, len): "%<len>d" */
	PM_LMB_FIXED,		/* "%<len>.0f" (Processor Mhz) */
	PM_LMB_INT,		/* "%<len>d" (Memory Mhz) */
	PM_LMB_TEXT,		/* "%<width>.<width>s" */
};

/*
 * A figure column is the benchmark whose .lmbench is its key: name, unit
 * and summary are the benchmark's (pm_lmb_name() and friends).  Only a
 * column no benchmark measures (imported_only) has its own.
 */
struct pm_lmb_column {
	const char *key;	/* "proc: fork proc"; NULL but for figures */
	const char *name;	/* imported_only: the name results get */
	const char *summary;	/* imported_only: what one operation is */
	const char *unit;	/* imported_only: us, ns, MB/s; copies */
	bool imported_only;	/* read from summaries, never measured */
	const char *alt;	/* key whose figure this column repeats, if absent */
	enum pm_lmb_kind kind;
	enum pm_lmb_fmt fmt;
	unsigned char len;	/* num(v, len) ... */
	unsigned char width;	/* ... printed "%<width>.<width>s" */
	const char *sep;	/* printed before the field */
};

#define PM_LMB_MAX_COLS 12
#define PM_LMB_MAX_HEADS 3

/* Another version's heads over a subset of the columns (for import). */
struct pm_lmb_variant {
	const char *version;	/* "lmbench 2" */
	const char *heads[PM_LMB_MAX_HEADS + 1];
	signed char cols[PM_LMB_MAX_COLS + 1];	/* indexes, -1 ends */
};

struct pm_lmb_section {
	const char *key;	/* "proc": the part of column keys before ':' */
	const char *name;	/* "Processor, Processes" (in messages) */
	const char *title;	/* as lmbench prints it */
	const char *subtitle;	/* the Memory latencies warning, or NULL */
	const char *rule;	/* the dashes under the title */
	const char *heads[PM_LMB_MAX_HEADS + 1];	/* column heads, lmbench 3 */
	const char *dashes;	/* the line under the heads */
	struct pm_lmb_column cols[PM_LMB_MAX_COLS];
	size_t ncols;
	struct pm_lmb_variant variants[2];
	size_t nvariants;
};

extern const struct pm_lmb_section pm_lmb_sections[];
extern const size_t pm_lmb_nsections;

/* The benchmark measuring a figure column (results/catalog.h): false
 * when imported_only or none does. */
bool pm_lmb_bench(const struct pm_lmb_column *col, struct pm_bench_ident *out);
/* A figure column's benchmark name, unit and summary. */
const char *pm_lmb_name(const struct pm_lmb_column *col);
const char *pm_lmb_unit(const struct pm_lmb_column *col);
const char *pm_lmb_summary(const struct pm_lmb_column *col);

/* The figure column with this key ("lat: TCP"), or NULL. */
const struct pm_lmb_column *pm_lmb_find(const char *key,
					const struct pm_lmb_section **section);
/* Is a figure in this unit a parameter (pages, bytes...), not a time or rate? */
int pm_lmb_unit_is_measured(const char *unit);

/* lmbench's num(): v in a field of len characters, blanks when v <= 0. */
void pm_lmb_num(char *buf, size_t size, double v, int len);

#endif
