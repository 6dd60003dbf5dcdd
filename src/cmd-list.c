/* pmbench list: benchmarks, groups, and whether they run here. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "cmd.h"
#include "results/table.h"
#include "util.h"

static const char usage[] =
	"usage: pmbench list [--names] [GROUP|BENCH...]\n"
	"\n"
	"      --names   only the names, one per line (for scripts and completion)\n"
	"\n"
	"Lists every benchmark (or those of the groups given) with what one\n"
	"operation is, the lmbench column or AIM9 test it corresponds to, its\n"
	"groups, and why it cannot run here when it cannot.\n";

static const struct option long_options[] = {
	{ "names", no_argument, NULL, 'n' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static bool selected(const struct pm_bench *b, char **sel, int n)
{
	int i;

	if (n == 0)
		return true;
	for (i = 0; i < n; i++)
		if (!strcmp(b->name, sel[i]) || pm_bench_in_group(b, sel[i]))
			return true;
	return false;
}

static void add_bench(struct pm_table *t, const struct pm_bench *b)
{
	char why[256], corr[96] = "";
	bool ok = pm_bench_supported(b, why, sizeof(why));

	if (b->lmbench)
		snprintf(corr, sizeof(corr), "lmbench %s", b->lmbench);
	else if (b->aim9)
		snprintf(corr, sizeof(corr), "AIM9 %s", b->aim9);
	pm_table_row(t, b->name);
	pm_table_cell(t, 0, b->name, NULL);
	pm_table_cell(t, 1, b->flags & PM_QUICK ? "quick" : "", NULL);
	pm_table_cell(t, 2, corr, NULL);
	pm_table_cell(t, 3, b->summary, NULL);
	if (!ok) {
		pm_table_row(t, NULL);
		pm_table_cellf(t, 3, "not supported here: %s", why);
	}
}

int cmd_list(int argc, char **argv)
{
	bool names_only = false;
	const struct pm_bench *b;
	struct pm_table *t;
	size_t f, i, quick = 0, all = 0;
	int c, a;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		switch (c) {
		case 'n':
			names_only = true;
			break;
		default:
			return pm_cli_end_option("list", usage, c, argv);
		}
	}
	for (a = optind; a < argc; a++)
		if (!pm_bench_find(argv[a]) && !pm_group_exists(argv[a])) {
			pm_error("unknown benchmark or group '%s' (see 'pmbench list')",
				 argv[a]);
			return PM_EXIT_USAGE;
		}
	t = pm_table_new();
	pm_table_indent(t, 2);
	pm_table_add_col(t, "benchmark", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "quick", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "corresponds to", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "one operation", NULL, PM_COL_LEFT);
	for (f = 0; f < pm_family_count(); f++) {
		const struct pm_family *fam = pm_family_at(f);
		bool header = false;

		for (i = 0; i < fam->nbenches; i++) {
			b = &fam->benches[i];
			if (!selected(b, argv + optind, argc - optind))
				continue;
			if (names_only) {
				puts(b->name);
				continue;
			}
			if (!header) {
				char *head = pm_xasprintf("%s: %s", fam->name, fam->summary);

				pm_table_span(t, head);
				free(head);
				header = true;
			}
			add_bench(t, b);
		}
	}
	if (!names_only)
		pm_table_print(t, stdout, PM_TABLE_TEXT);
	pm_table_free(t);
	if (names_only)
		return PM_EXIT_OK;
	for (i = 0; (b = pm_bench_at(i)); i++) {
		all++;
		quick += !!(b->flags & PM_QUICK);
	}
	printf("\ngroups:");
	for (f = 0; f < pm_family_count(); f++)
		printf(" %s (%zu),", pm_family_at(f)->name, pm_family_at(f)->nbenches);
	printf(" quick (%zu), all (%zu)\n", quick, all);
	return PM_EXIT_OK;
}
