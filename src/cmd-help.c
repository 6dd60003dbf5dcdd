/* pmbench help [TOPIC]: open a manual page (pmbench-help(1)). */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "util.h"

static const char usage[] =
	"usage: pmbench help [COMMAND | TOPIC]\n"
	"\n"
	"Commands: run stat list events show report log explain import ab sysinfo\n"
	"          help.\n"
	"Topics: events-file (pmbench-events(5)), result (pmbench-result(5)),\n"
	"        benchmarks (pmbench-benchmarks(7)).\n";

static const struct {
	const char *topic, *page;
} topics[] = {
	{ "run", "pmbench-run" },
	{ "stat", "pmbench-stat" },
	{ "list", "pmbench-list" },
	{ "events", "pmbench-events" },
	{ "show", "pmbench-show" },
	{ "report", "pmbench-report" },
	{ "log", "pmbench-log" },
	{ "import", "pmbench-import" },
	{ "explain", "pmbench-explain" },
	{ "ab", "pmbench-ab" },
	{ "sysinfo", "pmbench-sysinfo" },
	{ "help", "pmbench-help" },
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
		fputs(usage, stdout);
		return PM_EXIT_OK;
	}
	if (argc > 1 && !strcmp(argv[1], "--help"))
		return pm_show_manual("pmbench-help");
	if (argc > 2)
		return pm_usage_error("help", usage, "one topic at a time");
	if (argc < 2)
		return pm_show_manual("pmbench");
	for (i = 0; i < PM_ARRAY_SIZE(topics); i++)
		if (!strcmp(argv[1], topics[i].topic))
			return pm_show_manual(topics[i].page);
	return pm_usage_error("help", usage, "no manual page for '%s'", argv[1]);
}
