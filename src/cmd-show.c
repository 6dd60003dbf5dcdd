/* pmbench show: render result files. */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "cmd.h"
#include "results/anonymize.h"
#include "results/lmbench.h"
#include "results/render.h"
#include "results/result.h"
#include "sample/profile.h"

static const char usage[] =
	"usage: pmbench show [--format table|json|csv|folded|lmbench] [-v] [--hotspots]\n"
	"                    [--anonymize] FILE...\n"
	"\n"
	"      --format FMT  table (default), json (the file as stored, once validated),\n"
	"                    csv, folded (sampled stacks for flame-graph tools),\n"
	"                    lmbench (lmbench's summary tables, one row per file)\n"
	"  -v, --verbose     a detailed block per benchmark\n"
	"      --hotspots    every benchmark's kernel and user hotspots and call chains\n"
	"      --anonymize   with --format json: no host name, user names, home paths\n"
	"                    or command-line paths (to mail the file to a public list)\n";

static const struct option long_options[] = {
	{ "format", required_argument, NULL, 'f' },
	{ "verbose", no_argument, NULL, 'v' },
	{ "hotspots", no_argument, NULL, 'S' },
	{ "anonymize", no_argument, NULL, 'A' },
	{ "help", no_argument, NULL, 'H' },
	{ NULL, 0, NULL, 0 },
};

int cmd_show(int argc, char **argv)
{
	const char *format = "table";
	bool verbose = false, hotspots = false, anonymize = false;
	int c, a;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":vh", long_options, NULL)) != -1) {
		switch (c) {
		case 'f':
			if (strcmp(optarg, "table") && strcmp(optarg, "json") &&
			    strcmp(optarg, "csv") && strcmp(optarg, "folded") &&
			    strcmp(optarg, "lmbench"))
				return pm_usage_error("show", usage,
					"--format: '%s' is not one of table, json, csv, folded, lmbench", optarg);
			format = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case 'S':
			hotspots = true;
			break;
		case 'A':
			anonymize = true;
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
	if (hotspots && strcmp(format, "table"))
		return pm_usage_error("show", usage, "--hotspots prints text: it goes with --format table");
	if (anonymize && strcmp(format, "json"))
		return pm_usage_error("show", usage, "--anonymize goes with --format json (the file to mail)");
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
		/* formats without a header say it on stderr */
		if (strcmp(format, "table") && strcmp(format, "json"))
			for (a = 0; a < argc - optind; a++)
				if (pm_result_interrupted(&r[a], NULL))
					pm_warn("%s: an interrupted run: only %zu benchmark%s finished",
						argv[optind + a], r[a].nbench,
						r[a].nbench == 1 ? "" : "s");
		if (!strcmp(format, "lmbench")) {
			/* one table for all files: a row each */
			const struct pm_result *runs[argc - optind];

			for (a = 0; a < argc - optind; a++)
				runs[a] = &r[a];
			pm_render_lmbench(runs, (size_t)(argc - optind), stdout);
			for (a = 0; a < argc - optind; a++)
				pm_result_free(&r[a]);
			return PM_EXIT_OK;
		}
		if (!strcmp(format, "csv"))
			pm_render_csv_header(stdout);
		for (a = optind; a < argc; a++) {
			struct pm_result *x = &r[a - optind];

			if (!strcmp(format, "json")) {
				/* the document as stored, now known to be valid */
				json_t *doc;

				if (pm_result_load_json(&doc, argv[a], &e)) {
					/* changed since it was validated */
					pm_error("%s", e.msg);
					while (a < argc)
						pm_result_free(&r[a++ - optind]);
					return PM_EXIT_USAGE;
				}
				if (anonymize)
					pm_anonymize_document(doc);
				json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
				putchar('\n');
				json_decref(doc);
			} else if (!strcmp(format, "folded")) {
				/* benchmark name first: one flame graph per file */
				for (size_t k = 0; k < x->nbench; k++)
					pm_hotspots_write_folded(x->bench[k].hotspots,
								 x->bench[k].name, stdout);
			} else if (hotspots) {
				if (a > optind)
					putchar('\n');
				if (argc - optind > 1)
					printf("== %s\n", argv[a]);
				pm_render_hotspots(x, stdout);
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
