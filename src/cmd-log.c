/* pmbench log: the runs of the result history (pmbench-log(1)). */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "results/history.h"
#include "results/result.h"
#include "sysinfo/sysinfo.h"
#include "util/table.h"

enum { OPT_FORMAT = PM_OPT_LONG };

static const struct pm_option options[] = {
	PM_OPT(OPT_FORMAT, "format", "FMT",
	       "table (default), markdown, csv (with every benchmark and the full path)",
	       .values = "table|markdown|csv"),
	PM_OPT('n', "max-count", "N", "the N newest runs only"),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "log", .options = options,
	.text = "Lists the runs kept in the result history, newest first, with the name\n"
		"that selects each one in show, explain and report (@latest, @-1, ...).\n",
};

/* "null fork pipe" or, past max names, "null fork ... (23)" */
static char *bench_list(const struct pm_result *r, size_t max)
{
	struct pm_buf s = PM_BUF_INIT;
	size_t i;

	for (i = 0; i < r->nbench && (!max || i < max); i++)
		pm_buf_addf(&s, "%s%s", i ? " " : "", r->bench[i].name);
	if (max && r->nbench > max)
		pm_buf_addf(&s, " ... (%zu)", r->nbench);
	return pm_buf_detach(&s);
}

static const char *si(const struct pm_result *r, enum pm_fp_key k)
{
	const json_t *j = pm_sysinfo_at(r->sysinfo, k);

	return json_is_string(j) ? json_string_value(j) : "";
}

/* The table of the newest max runs (all when 0); *shown says how many. */
static struct pm_table *log_table(char **files, size_t n, enum pm_table_format fmt,
				  unsigned long max, size_t *shown)
{
	struct pm_table *t;
	struct pm_err e;
	size_t i;

	*shown = 0;
	t = pm_table_new();
	pm_table_add_col(t, "run", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "time (UTC)", "created", PM_COL_LEFT);
	pm_table_add_col(t, "kernel", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "host", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "label", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "benchmarks", NULL, PM_COL_LEFT);
	if (fmt == PM_TABLE_CSV)
		pm_table_add_col(t, "file", NULL, PM_COL_LEFT);
	for (i = n; i-- > 0 && (!max || *shown < max);) {
		struct pm_result r;
		char *ref, *list;

		if (pm_result_load(&r, files[i], &e)) {
			pm_warn("skipped %s", e.msg);
			continue;
		}
		ref = i + 1 == n ? pm_xstrdup("@latest") : pm_xasprintf("@-%zu", n - 1 - i);
		list = bench_list(&r, fmt == PM_TABLE_CSV ? 0 : 6);
		pm_table_row(t, ref);
		pm_table_cell(t, 0, ref, NULL);
		pm_table_cell(t, 1, r.created ? r.created : "", NULL);
		pm_table_cell(t, 2, si(&r, PM_FP_KERNEL_RELEASE), NULL);
		pm_table_cell(t, 3, si(&r, PM_FP_HOSTNAME), NULL);
		pm_table_cell(t, 4, r.label ? r.label : "", NULL);
		pm_table_cell(t, 5, list, NULL);
		if (fmt == PM_TABLE_CSV)
			pm_table_cell(t, 6, files[i], NULL);
		free(ref);
		free(list);
		pm_result_free(&r);
		(*shown)++;
	}
	return t;
}

int cmd_log(int argc, char **argv)
{
	enum pm_table_format fmt = PM_TABLE_TEXT;
	unsigned long max = 0;
	struct pm_table *t;
	char **files, *dir;
	size_t n, shown;
	struct pm_opts p;
	struct pm_err e;
	int c;

	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			if (!strcmp(optarg, "table"))
				fmt = PM_TABLE_TEXT;
			else if (!strcmp(optarg, "markdown"))
				fmt = PM_TABLE_MARKDOWN;
			else if (!strcmp(optarg, "csv"))
				fmt = PM_TABLE_CSV;
			else
				return pm_usage_error(&usage,
					"--format: '%s' is not one of table, markdown, csv", optarg);
			break;
		case 'n':
			if (pm_cli_uint(&usage, "-n", optarg, 1, INT_MAX, &max))
				return PM_EXIT_USAGE;
			break;
		default:
			return pm_cli_end_option(&p, c);
		}
	}
	if (optind < argc)
		return pm_usage_error(&usage, "unexpected argument '%s'", argv[optind]);
	if (pm_history_list(&files, &n, &e)) {
		pm_error("%s", e.msg);
		return PM_EXIT_USAGE;
	}
	pm_history_dir(&dir, &e);
	t = log_table(files, n, fmt, max, &shown);
	if (fmt == PM_TABLE_CSV || shown) {
		pm_table_print(t, stdout, fmt);
		if (fmt != PM_TABLE_CSV)
			printf("%s(%zu run%s in %s)\n", fmt == PM_TABLE_MARKDOWN ? "\n" : "", n,
			       n == 1 ? "" : "s", dir);
	} else {
		printf("no runs in the result history (%s) yet: 'pmbench run' without -o "
		       "keeps each run there\n", dir);
	}
	pm_table_free(t);
	pm_history_list_free(files, n);
	free(dir);
	return PM_EXIT_OK;
}
