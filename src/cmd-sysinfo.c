/* pmbench sysinfo: the fingerprint every run records. */
#include "config.h"

#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "sysinfo/sysinfo.h"

static const char usage[] =
	"usage: pmbench sysinfo [--format text|json]\n"
	"   or: pmbench sysinfo --list-keys [--format text|json|man]\n"
	"\n"
	"Prints the system fingerprint stored in every result file: kernel,\n"
	"configuration, CPU, mitigations, clocks, memory and perf access.\n"
	"--list-keys prints the table of its keys instead.\n";

static const struct option long_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "list-keys", no_argument, NULL, 'k' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

static int list_fingerprint_keys(const char *format)
{
	enum pm_fp_keys_format f;

	if (!strcmp(format, "text"))
		f = PM_FP_KEYS_TEXT;
	else if (!strcmp(format, "json"))
		f = PM_FP_KEYS_JSON;
	else if (!strcmp(format, "man"))
		f = PM_FP_KEYS_MAN;
	else
		return pm_usage_error("sysinfo", usage, "--format: '%s' is not one "
				      "of text, json, man", format);
	pm_fp_keys_print(stdout, f);
	return PM_EXIT_OK;
}

int cmd_sysinfo(int argc, char **argv)
{
	const char *format = "text";
	bool list_keys = false;
	json_t *si;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", long_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			format = optarg;
			break;
		case 'k':
			list_keys = true;
			break;
		default:
			return pm_cli_end_option("sysinfo", usage, c, argv);
		}
	}
	if (optind < argc)
		return pm_usage_error("sysinfo", usage, "unexpected argument '%s'",
				      argv[optind]);
	if (list_keys)
		return list_fingerprint_keys(format);
	if (strcmp(format, "text") && strcmp(format, "json"))
		return pm_usage_error("sysinfo", usage,
				      "--format: '%s' is not one of text, json", format);
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
