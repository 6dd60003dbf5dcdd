/* pmbench sysinfo: the fingerprint every run records. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "sysinfo/sysinfo.h"

static const char usage[] =
	"usage: pmbench sysinfo [--format text|json]\n"
	"\n"
	"Prints the system fingerprint stored in every result file: kernel,\n"
	"configuration, CPU, mitigations, clocks, memory and perf access.\n";

static const struct option long_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

int cmd_sysinfo(int argc, char **argv)
{
	const char *format = "text";
	json_t *si;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "text") && strcmp(optarg, "json"))
				return pm_usage_error("sysinfo", usage,
					"--format: '%s' is not one of text, json", optarg);
			format = optarg;
			break;
		case 'h':
			fputs(usage, stdout);
			return PM_EXIT_OK;
		case 'H':
			return pm_show_manual("pmbench-sysinfo");
		case ':':
			return pm_usage_error("sysinfo", usage, "option '%s' needs a value",
					      argv[optind - 1]);
		default:
			return pm_usage_error("sysinfo", usage, "unknown option '%s'",
					      argv[optind - 1]);
		}
	}
	if (optind < argc)
		return pm_usage_error("sysinfo", usage, "unexpected argument '%s'",
				      argv[optind]);
	si = pm_sysinfo_collect();
	if (!strcmp(format, "json")) {
		json_dumpf(si, stdout, JSON_INDENT(1) | JSON_SORT_KEYS);
		putchar('\n');
	} else {
		pm_sysinfo_print(si, stdout);
	}
	json_decref(si);
	return PM_EXIT_OK;
}
