/* pmbench help [TOPIC]: open a manual page (pmbench-help(1)). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "util.h"

/* No options but -h and --help, which cmd_help reads itself. */
static const struct pm_usage usage = {
	.name = "help", .operands = "[COMMAND | TOPIC]",
	.text = "Commands: those 'pmbench -h' lists.\n"
		"Topics: events-file (pmbench-events(5)), result (pmbench-result(5)),\n"
		"        benchmarks (pmbench-benchmarks(7)).\n",
};

/* Pages that are not a command's (a command's is pmbench-COMMAND). */
static const struct {
	const char *topic, *page;
} topics[] = {
	{ "events-file", "pmbench-events.5" },
	{ "aliases", "pmbench-events.5" },
	{ "result", "pmbench-result" },
	{ "result-file", "pmbench-result" },
	{ "benchmarks", "pmbench-benchmarks" },
	{ "pmbench", "pmbench" },
};

int cmd_help(int argc, char **argv)
{
	size_t i;

	if (argc > 1 && (!strcmp(argv[1], "-h"))) {
		pm_usage_print(&usage, stdout);
		return PM_EXIT_OK;
	}
	if (argc > 1 && !strcmp(argv[1], "--help"))
		return pm_show_manual("pmbench-help");
	if (argc > 2)
		return pm_usage_error(&usage, "one topic at a time");
	if (argc < 2)
		return pm_show_manual("pmbench");
	if (pm_is_command(argv[1])) {
		char *page = pm_xasprintf("pmbench-%s", argv[1]);
		int status = pm_show_manual(page);

		free(page);
		return status;
	}
	for (i = 0; i < PM_ARRAY_SIZE(topics); i++)
		if (!strcmp(argv[1], topics[i].topic))
			return pm_show_manual(topics[i].page);
	return pm_usage_error(&usage, "no manual page for '%s'", argv[1]);
}
