/* pmbench list: benchmarks, groups, and whether they run here. */
#include "config.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "cmd.h"
#include "util/table.h"
#include "util.h"

static const char usage[] =
	"usage: pmbench list [--names | --format text|man] [GROUP|BENCH...]\n"
	"\n"
	"      --names          only the names, one per line (for scripts and completion)\n"
	"      --format FMT     text (the default), or man: the tables of\n"
	"                       pmbench-benchmarks(7), in man(7) source\n"
	"\n"
	"Lists every benchmark (or those of the groups given) with what one\n"
	"operation is, the lmbench column or AIM9 test it corresponds to, what\n"
	"it exercises, and why it cannot run here when it cannot.\n";

static const struct option long_options[] = {
	{ "names", no_argument, NULL, 'n' },
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
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

int cmd_list(int argc, char **argv)
{
	bool names_only = false, man = false;
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
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "man"))
				return pm_usage_error("list", usage, "--format: '%s' is not "
						      "one of text, man", optarg);
			man = !strcmp(optarg, "man");
			break;
		default:
			return pm_cli_end_option("list", usage, c, argv);
		}
	}
	if (names_only && man)
		return pm_usage_error("list", usage, "--names and --format man exclude "
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
	t = pm_table_new();
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
