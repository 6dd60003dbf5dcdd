/* pmbench list: benchmarks, groups, and whether they run here. */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "cmd.h"
#include "util/table.h"
#include "util.h"

enum { OPT_NAMES = PM_OPT_LONG, OPT_FORMAT };

static const struct pm_option options[] = {
	PM_OPT(OPT_NAMES, "names", NULL,
	       "only the names, one per line (for scripts and completion)",
	       .flags = PM_OPT_OR_NEXT),
	PM_OPT(OPT_FORMAT, "format", "FMT",
	       "text (the default), or man: the tables of pmbench-benchmarks(7), in "
	       "man(7) source",
	       .values = "text|man"),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "list", .operands = "[GROUP|BENCH...]", .options = options,
	.text = "Lists every benchmark (or those of the groups given) with what one\n"
		"operation is, the lmbench column or AIM9 test it corresponds to, what\n"
		"it exercises, and why it cannot run here when it cannot.\n",
};

/* The flags pmbench-benchmarks(7) describes, by the names it gives them. */
static const struct {
	unsigned flag;
	const char *name;
} flag_names[] = {
	{ PM_QUICK, "quick" }, { PM_FORKS, "forks" }, { PM_PEERS, "peers" },
	{ PM_FS, "fs" }, { PM_NET, "net" }, { PM_MEM, "mem" },
	{ PM_NO_THREADS, "no threads" },
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
	char why[256], corr[96] = "", ex[256];
	bool ok = pm_bench_supported(b, why, sizeof(why));

	if (b->lmbench)
		snprintf(corr, sizeof(corr), "lmbench %s", b->lmbench);
	else if (b->aim9)
		snprintf(corr, sizeof(corr), "AIM9 %s", b->aim9);
	pm_table_row(t, b->name);
	pm_table_cell(t, 0, b->name, NULL);
	pm_table_cell(t, 1, b->flags & PM_QUICK ? "quick" : "", NULL);
	pm_table_cell(t, 2, corr, NULL);
	pm_table_cell(t, 3, pm_exercise_names(b->exercises, ",", ex, sizeof(ex)), NULL);
	pm_table_cell(t, 4, b->summary, NULL);
	if (!ok) {
		pm_table_row(t, NULL);
		pm_table_cellf(t, 4, "not supported here: %s", why);
	}
}

/* man(7) source: '-' as \- (a name is typed as it is), '\' as \e. */
static void man_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\\')
			fputs("\\e", f);
		else
			fputc(*s, f);
	}
}

/* The traits, as the list of pmbench-benchmarks(7)'s EXERCISES section. */
static void man_exercises(FILE *f)
{
	const struct pm_exercise_info *x;
	size_t i;

	fputs(".\\\" BEGIN generated: exercises\n", f);
	for (i = 0; (x = pm_exercise_at(i)); i++)
		fprintf(f, ".TP\n.B %s\n%c%s.\n", x->name,
			toupper((unsigned char)x->description[0]), x->description + 1);
	fputs(".\\\" END generated: exercises\n", f);
}

/* A family's table in pmbench-benchmarks(7): flags (quick first), exercises. */
static void man_family(FILE *f, const struct pm_family *fam, char **sel, int nsel)
{
	char ex[256];
	size_t i, k, n;

	fprintf(f, ".\\\" BEGIN generated: %s\n.PP\n.TS\nlB lB lB\nl l l.\n"
		"benchmark\tflags\texercises\n", fam->name);
	for (i = 0; i < fam->nbenches; i++) {
		const struct pm_bench *b = &fam->benches[i];

		if (!selected(b, sel, nsel))
			continue;
		man_text(f, b->name);
		fputc('\t', f);
		for (k = n = 0; k < PM_ARRAY_SIZE(flag_names); k++)
			if (b->flags & flag_names[k].flag)
				fprintf(f, "%s%s", n++ ? ", " : "", flag_names[k].name);
		fprintf(f, "\t%s\n", pm_exercise_names(b->exercises, ", ", ex, sizeof(ex)));
	}
	fprintf(f, ".TE\n.\\\" END generated: %s\n", fam->name);
}

static void print_man(char **sel, int nsel)
{
	size_t f, i;

	man_exercises(stdout);
	for (f = 0; f < pm_family_count(); f++) {
		const struct pm_family *fam = pm_family_at(f);

		for (i = 0; i < fam->nbenches && !selected(&fam->benches[i], sel, nsel); i++)
			;
		if (i < fam->nbenches)
			man_family(stdout, fam, sel, nsel);
	}
}

/* The selected benchmarks by family, as a table or one name a line. */
static void list_benches(char **sel, int nsel, bool names_only)
{
	const struct pm_bench *b;
	struct pm_table *t = pm_table_new();
	size_t f, i;

	pm_table_indent(t, 2);
	pm_table_add_col(t, "benchmark", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "quick", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "corresponds to", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "exercises", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "one operation", NULL, PM_COL_LEFT);
	for (f = 0; f < pm_family_count(); f++) {
		const struct pm_family *fam = pm_family_at(f);
		bool header = false;

		for (i = 0; i < fam->nbenches; i++) {
			b = &fam->benches[i];
			if (!selected(b, sel, nsel))
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
}

/* The groups line: each family, quick and all, with their sizes. */
static void list_groups(void)
{
	const struct pm_bench *b;
	size_t f, i, quick = 0, all = 0;

	for (i = 0; (b = pm_bench_at(i)); i++) {
		all++;
		quick += !!(b->flags & PM_QUICK);
	}
	printf("\ngroups:");
	for (f = 0; f < pm_family_count(); f++)
		printf(" %s (%zu),", pm_family_at(f)->name, pm_family_at(f)->nbenches);
	printf(" quick (%zu), all (%zu)\n", quick, all);
}

int cmd_list(int argc, char **argv)
{
	bool names_only = false, man = false;
	struct pm_opts p;
	int c, a;

	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		switch (c) {
		case OPT_NAMES:
			names_only = true;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "man"))
				return pm_usage_error(&usage, "--format: '%s' is not "
						      "one of text, man", optarg);
			man = !strcmp(optarg, "man");
			break;
		default:
			return pm_cli_end_option(&p, c);
		}
	}
	if (names_only && man)
		return pm_usage_error(&usage, "--names and --format man exclude "
				      "each other");
	for (a = optind; a < argc; a++)
		if (!pm_bench_find(argv[a]) && !pm_group_exists(argv[a])) {
			pm_error_unknown_bench(argv[a]);
			return PM_EXIT_USAGE;
		}
	if (man) {
		print_man(argv + optind, argc - optind);
		return PM_EXIT_OK;
	}
	list_benches(argv + optind, argc - optind, names_only);
	if (!names_only)
		list_groups();
	return PM_EXIT_OK;
}
