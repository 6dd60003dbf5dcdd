/*
 * Rendering result files for people (table, detail, hotspots, several
 * files side by side) as text or markdown, and for tools (csv).  Tables
 * go through util/table.c, so the same view prints in every format.
 */
#ifndef PM_RENDER_H
#define PM_RENDER_H

#include <stdio.h>

#include "results/result.h"
#include "views/figure.h"
#include "util/table.h"

enum pm_render_flags {
	PM_RENDER_DETAIL = 1u << 0,	/* a block per benchmark */
	PM_RENDER_NO_HEADER = 1u << 1,	/* skip the machine line */
	PM_RENDER_ALL_FRAMES = 1u << 2,	/* keep pmbench's own frames in hotspots */
};

/* Table for several benchmarks, detail blocks for one (or on request);
 * fmt is PM_TABLE_TEXT or PM_TABLE_MARKDOWN. */
void pm_render(const struct pm_result *r, FILE *f, enum pm_table_format fmt,
	       unsigned flags);
static inline void pm_render_text(const struct pm_result *r, FILE *f,
				  unsigned flags)
{
	pm_render(r, f, PM_TABLE_TEXT, flags);
}
/* Every benchmark's sampled profile in full (show --hotspots): text,
 * markdown, or csv (one row per symbol; run names the file). */
void pm_render_hotspots(const struct pm_result *r, FILE *f,
			enum pm_table_format fmt, unsigned flags);
void pm_render_hotspots_csv_header(FILE *f);
/* The share of the samples under which the text views leave a symbol
 * or call chain out (default PM_HOTSPOT_LIMIT, 0.5% as perf report);
 * csv keeps every one. */
#define PM_HOTSPOT_LIMIT 0.005
void pm_render_set_percent_limit(double share);
void pm_render_csv_header(FILE *f);
/* Rows only: print pm_render_csv_header() once before. */
void pm_render_csv(const struct pm_result *r, FILE *f);
/* "pmbench 0.1.0 on host: Linux R x86_64, CPU (N CPUs), date" */
void pm_render_header(const struct pm_result *r, FILE *f);
/* A line saying that the run was interrupted, when it was. */
void pm_render_interrupted(const struct pm_result *r, FILE *f);
/* A benchmark's emulated counts (pmbench ab under TCG, views/emulated.c):
 * a block under a heading of its own that says what they are, with the
 * first max_rows functions of its kernel profile (0: all of them). */
void pm_render_emulated(const struct pm_bench_result *b, FILE *f, enum pm_table_format fmt,
			size_t max_rows);
/* The same for csv: an event "emulated:instructions" ... per amount. */
struct pm_emu_csv_row {
	const char *event;
	double per_op, user, kernel;
};
size_t pm_render_emulated_csv_rows(const struct pm_bench_result *b, struct pm_emu_csv_row *rows,
				   size_t max);
/* A workload's block (pmbench stat): times, counters per run. */
void pm_render_workload(const struct pm_bench_result *b, FILE *f);
/* The workloads of one call compared, each against the fastest. */
void pm_render_workload_comparison(const struct pm_result *r, FILE *f);
/* "host: Linux R x86_64, CPU (N CPUs), date [label]" */
char *pm_render_machine(const struct pm_result *r);

/*
 * The lmbench 3 summary of results (views/lmbench.c), in the layout of
 * results/lmbench.h: one row per result (Host, OS, Mhz from its
 * sysinfo); sections without any figure are left out, and a result
 * without figures in a section has no row there, as getsummary does.
 * Trailing blanks are not printed.  Rows of files that would read
 * alike (one host and OS) say which file they are: names[i], cut to the
 * Host field, "#N" where needed; names NULL: the host, as lmbench does.
 */
void pm_render_lmbench(const struct pm_result *const *runs, const char *const *names,
		       size_t n, FILE *f);

/* Imported AIM9 logs side by side: a row per test, a column per log
 * (its label) and the test's description (pmbench import aim9). */
void pm_render_aim9(const struct pm_result *runs, size_t n, FILE *f);

/* What a result is called in a comparison: its label, else the name it
 * was given by (@latest...), else the file name without ".json". */
char *pm_result_short_name(const struct pm_result *r, const char *given);

/*
 * Several results side by side, the first the baseline: a row per
 * benchmark (in the order first seen), a column per result with its
 * figure and interval, and the ratio of each figure to the baseline's.
 * names[] are the column heads.  The table alone (for the report), or
 * printed with a header and notes in fmt (text, markdown, csv).
 */
struct pm_table *pm_compare_table(const struct pm_result *const *r,
				  const char *const *names, size_t n);
void pm_render_compare(const struct pm_result *const *r,
		       const char *const *names, size_t n, FILE *f,
		       enum pm_table_format fmt);

/* The figure every view shows: views/figure.h. */
/* A figure in the benchmark's own terms: "1.21 us", "5120.3 MB/s". */
char *pm_fmt_bench_value(const struct pm_bench_result *b, double ns);

#endif
