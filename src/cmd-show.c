/* pmbench show: render result files. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "results/render.h"
#include "results/result.h"

static const char usage[] =
	"usage: pmbench show [--format table|json|csv] [-v] FILE...\n"
	"\n"
	"      --format FMT  table (default), json (the file as stored, once validated), csv\n"
	"  -v, --verbose     a detailed block per benchmark\n";

static const struct option long_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

int cmd_show(int argc, char **argv)
{
	const char *format = "table";
	bool verbose = false;
	int c, a;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", long_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "table") && strcmp(optarg, "json") &&
			    strcmp(optarg, "csv"))
				return pm_usage_error("show", usage,
					"--format: '%s' is not one of table, json, csv", optarg);
			format = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'h':
			fputs(usage, stdout);
			return PM_EXIT_OK;
		case 'H':
			return pm_show_manual("pmbench-show");
		case ':':
			return pm_usage_error("show", usage, "option '%s' needs a value",
					      argv[optind - 1]);
		default:
			return pm_usage_error("show", usage, "unknown option '%s'",
					      argv[optind - 1]);
		}
	}
	if (optind >= argc)
		return pm_usage_error("show", usage, "no result file given");
	/* Validate everything before printing anything. */
	{
		struct pm_result r[argc - optind];
		struct pm_err e;

		for (a = optind; a < argc; a++) {
			if (pm_result_load(&r[a - optind], argv[a], &e)) {
				pm_error("%s", e.msg);
				while (--a >= optind)
					pm_result_free(&r[a - optind]);
				return PM_EXIT_USAGE;
			}
		}
		if (!strcmp(format, "csv"))
			pm_render_csv_header(stdout);
		for (a = optind; a < argc; a++) {
			struct pm_result *x = &r[a - optind];

			if (!strcmp(format, "json")) {
				/* the document as stored, now known to be valid */
				json_t *doc = json_load_file(argv[a], JSON_DECODE_ANY, NULL);

				json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
				putchar('\n');
				json_decref(doc);
			} else if (!strcmp(format, "csv")) {
				pm_render_csv(x, stdout);
			} else {
				if (a > optind)
					putchar('\n');
				if (argc - optind > 1)
					printf("== %s\n", argv[a]);
				pm_render_text(x, stdout, verbose ? PM_RENDER_DETAIL : 0);
			}
			pm_result_free(x);
		}
	}
	return PM_EXIT_OK;
}
