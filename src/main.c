/* pmbench: the command table and dispatch, git style. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cmd.h"
#include "results/catalog.h"
#include "util.h"

int pm_argc;
char **pm_argv;

struct pm_cmd {
	const char *name;
	int (*fn)(int argc, char **argv);
	unsigned flags;		/* PM_CMD_*: what main() sets up around it (cmd.h) */
	const char *summary;	/* NULL: internal, not listed */
};

#define SCRATCH PM_CMD_SCRATCH
#define STOP PM_CMD_CATCH_STOP
#define PLAIN PM_CMD_SCRATCH_PLAIN

static const struct pm_cmd commands[] = {
	{ "run", cmd_run, SCRATCH | PLAIN | STOP, "run benchmarks under counters (the default command)" },
	{ "stat", cmd_stat, SCRATCH | STOP, "run whole commands (a build) timed, counted and profiled" },
	{ "list", cmd_list, 0, "list benchmarks and groups, and whether they run here" },
	{ "events", cmd_events, 0, "show event aliases, their encodings, and whether they open" },
	{ "show", cmd_show, 0, "print result files: table, markdown, csv, side by side, hotspots, lmbench" },
	{ "report", cmd_report, 0, "write an HTML report: plots, flame graphs, explain's findings" },
	{ "log", cmd_log, 0, "list the runs kept in the result history (@latest, @-1, ...)" },
	{ "sysinfo", cmd_sysinfo, 0, "print the system fingerprint recorded with every run" },
	{ "explain", cmd_explain, 0, "say why benchmarks changed between two runs or sets of runs" },
	{ "import", cmd_import, 0, "convert lmbench summaries and AIM9 logs to result files" },
	{ "export", cmd_export, 0, "write results and explanations as KernelCI (KCIDB) submissions" },
	{ "ab", cmd_ab, SCRATCH | STOP, "boot two kernels in QEMU guests, run benchmarks in each, explain" },
	{ "help", cmd_help, 0, "open the manual page of a command" },
	{ "__round", cmd_round, STOP, NULL },
	{ "__ksrc", cmd_ksrc, 0, NULL },
};

static const char usage[] =
	"usage: pmbench [--version] [-h | --help] <command> [<args>]\n"
	"       pmbench [run-options] BENCH|GROUP...   (same as 'pmbench run')\n";

static void print_usage(FILE *f)
{
	size_t i;

	fputs(usage, f);
	fputs("\ncommands:\n", f);
	for (i = 0; i < PM_ARRAY_SIZE(commands); i++)
		if (commands[i].summary)
			fprintf(f, "  %-9s %s\n", commands[i].name, commands[i].summary);
	fputs("\n'pmbench help CMD' or 'pmbench CMD --help' opens the manual page.\n", f);
}

static const struct pm_cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(commands); i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/* The command, between the set-up and tear-down its flags ask for. */
static int run_command(const struct pm_cmd *cmd, int argc, char **argv)
{
	int status;

	pm_cmd_setup(cmd->name, cmd->flags);
	status = cmd->fn(argc, argv);
	pm_cmd_teardown();
	return status;
}

bool pm_is_command(const char *name)
{
	const struct pm_cmd *c = find_command(name);

	return c && c->summary;
}

int main(int argc, char **argv)
{
	const struct pm_cmd *cmd;

	pm_argc = argc;
	pm_argv = argv;
	pm_catalog_set(&pm_bench_catalog);
	/* a usage error, as git's: the message and usage on stderr, 2
	 * (-h asks for the usage: stdout, 0) */
	if (argc < 2) {
		pm_error("no command or benchmark given");
		print_usage(stderr);
		return PM_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-V")) {
		printf("pmbench %s\n", PACKAGE_VERSION);
		return PM_EXIT_OK;
	}
	if (!strcmp(argv[1], "-h")) {
		print_usage(stdout);
		return PM_EXIT_OK;
	}
	if (!strcmp(argv[1], "--help"))
		return pm_show_manual("pmbench");
	cmd = find_command(argv[1]);
	if (cmd)
		return run_command(cmd, argc - 1, argv + 1);
	/* A benchmark, a group or a run option: an implicit "run". */
	if (argv[1][0] == '-' || pm_bench_find(argv[1]) || pm_group_exists(argv[1]))
		return run_command(find_command("run"), argc, argv);
	{
		const char *names[PM_ARRAY_SIZE(commands)], *hint;
		size_t i, n = 0;

		for (i = 0; i < PM_ARRAY_SIZE(commands); i++)
			if (commands[i].summary)
				names[n++] = commands[i].name;
		hint = pm_did_you_mean(argv[1], names, n);
		if (!hint)
			hint = pm_suggest_bench(argv[1]);
		if (hint)
			pm_error("'%s' is not a command, benchmark or group; did you mean '%s'? "
				 "(see 'pmbench -h' and 'pmbench list')", argv[1], hint);
		else
			pm_error("'%s' is not a command, benchmark or group (see 'pmbench -h' and "
				 "'pmbench list')", argv[1]);
	}
	return PM_EXIT_USAGE;
}
