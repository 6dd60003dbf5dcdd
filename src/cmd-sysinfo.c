/* pmbench sysinfo: the fingerprint every run records. */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "sysinfo/sysinfo.h"

enum { OPT_FORMAT = PM_OPT_LONG, OPT_LIST_KEYS };

static const struct pm_option options[] = {
	PM_OPT(OPT_FORMAT, "format", "FMT",
	       "text (default) or json; with --list-keys also man (the key list of "
	       "pmbench-result(5))",
	       .values = "text|json"),
	PM_OPT(OPT_LIST_KEYS, "list-keys", NULL,
	       "print the table of the fingerprint's keys instead",
	       .flags = PM_OPT_NO_SYNOPSIS),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "sysinfo", .options = options,
	.more = (const char *const[]){ "--list-keys [--format text|json|man]", NULL },
	.text = "Prints the system fingerprint stored in every result file: kernel,\n"
		"configuration, CPU, mitigations, clocks, memory and perf access.\n",
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
		return pm_usage_error(&usage, "--format: '%s' is not one "
				      "of text, json, man", format);
	pm_fp_keys_print(stdout, f);
	return PM_EXIT_OK;
}

int cmd_sysinfo(int argc, char **argv)
{
	const char *format = "text";
	bool list_keys = false;
	struct pm_opts p;
	json_t *si;
	int c;

	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			format = optarg;
			break;
		case OPT_LIST_KEYS:
			list_keys = true;
			break;
		default:
			return pm_cli_end_option(&p, c);
		}
	}
	if (optind < argc)
		return pm_usage_error(&usage, "unexpected argument '%s'",
				      argv[optind]);
	if (list_keys)
		return list_fingerprint_keys(format);
	if (strcmp(format, "text") && strcmp(format, "json"))
		return pm_usage_error(&usage,
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
