/* Rendering result files for people (table, detail) and tools (csv). */
#ifndef PM_RENDER_H
#define PM_RENDER_H

#include <stdio.h>

#include "results/result.h"

enum pm_render_flags {
	PM_RENDER_DETAIL = 1u << 0,	/* a block per benchmark */
	PM_RENDER_NO_HEADER = 1u << 1,	/* skip the machine line */
};

/* Table for several benchmarks, detail blocks for one (or on request). */
void pm_render_text(const struct pm_result *r, FILE *f, unsigned flags);
/* Every benchmark's sampled profile in full (show --hotspots). */
void pm_render_hotspots(const struct pm_result *r, FILE *f);
void pm_render_csv_header(FILE *f);
/* Rows only: print pm_render_csv_header() once before. */
void pm_render_csv(const struct pm_result *r, FILE *f);
/* A workload's block (pmbench stat): times, counters per run. */
void pm_render_workload(const struct pm_bench_result *b, FILE *f);
/* The workloads of one call compared, each against the fastest. */
void pm_render_workload_comparison(const struct pm_result *r, FILE *f);
/* "pmbench 0.1.0 on host: Linux R x86_64, CPU (N CPUs), date" */
void pm_render_header(const struct pm_result *r, FILE *f);
/* A line saying that the run was interrupted, when it was. */
void pm_render_interrupted(const struct pm_result *r, FILE *f);

#endif
