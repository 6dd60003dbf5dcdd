/* pmbench export: results and explanations for KernelCI's KCIDB
 * (pmbench-export(1)). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "export/export.h"
#include "results/history.h"

enum { OPT_ORIGIN = PM_OPT_LONG, OPT_FORMAT, OPT_VERSION };

static const struct pm_option options[] = {
	PM_OPT(OPT_ORIGIN, "origin", "NAME",
	       "the submitting system as KCIDB knows it (lower-case letters, digits, "
	       "'_'): every id is NAME:... (required)",
	       .flags = PM_OPT_REQUIRED),
	PM_OPT(OPT_FORMAT, "format", "FMT", "kcidb (the default and only one)",
	       .values = "kcidb"),
	PM_OPT(OPT_VERSION, "kcidb-version", "N",
	       "the schema's major version: 5 (default) or 4", .values = "4|5"),
	PM_OPT('o', "output", "FILE",
	       "write the submission here, atomically (default: standard output)"),
	PM_OPT_INCLUDE(pm_cli_explain_options),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "export", .operands = "RESULT | OLD NEW", .options = options,
	.text = "RESULT, OLD and NEW are result files, directories of result files (the\n"
		"runs of one side), or @latest, @-N, @LABEL from the result history.\n"
		"RESULT: a test per benchmark with its figure; OLD and NEW: both sides,\n"
		"NEW's tests with what pmbench explain finds (a regression FAILs).\n"
		"--noise, --single-run-margin and --spread-from work as in pmbench\n"
		"explain, for OLD and NEW.\n",
};

static int writer(FILE *f, void *arg)
{
	if (json_dumpf(arg, f, JSON_INDENT(1) | JSON_REAL_PRECISION(10)) || fputc('\n', f) == EOF)
		return -EIO;
	return 0;
}

static int write_out(json_t *sub, const char *output)
{
	struct pm_err e;

	if (output) {
		if (pm_write_atomic(output, writer, sub, &e)) {
			pm_error("%s", e.msg);
			return PM_EXIT_RUNTIME;
		}
	} else if (writer(stdout, sub) || fflush(stdout)) {
		pm_error("writing the submission: %s", strerror(errno));
		return PM_EXIT_RUNTIME;
	}
	return PM_EXIT_OK;
}

/* The side of a file, a directory or a run of the history. */
static int load_side(const char *arg, struct pm_side *s, char **path)
{
	struct pm_err e;

	memset(s, 0, sizeof(*s));
	if (pm_history_resolve(arg, path, &e) || pm_cli_side_load(s, *path, &e)) {
		pm_error("%s", e.msg);
		pm_side_free(s);
		return PM_EXIT_USAGE;
	}
	return PM_EXIT_OK;
}

static int export_one(const char *arg, const struct pm_kcidb_opts *ko, const char *output)
{
	struct pm_side s;
	struct pm_err e;
	char *path = NULL;
	json_t *sub = NULL;
	int status = load_side(arg, &s, &path);

	if (!status && pm_kcidb_side(&sub, &s, ko, &e)) {
		pm_error("%s", e.msg);
		status = PM_EXIT_USAGE;
	}
	if (!status)
		status = write_out(sub, output);
	json_decref(sub);
	pm_side_free(&s);
	free(path);
	return status;
}

static int export_two(char **args, struct pm_cli_explain *ce, const struct pm_kcidb_opts *ko,
		      const char *output)
{
	struct pm_side old = { 0 }, new = { 0 };
	struct pm_explanation x;
	char *po = NULL, *pn = NULL, *ro, *rn;
	json_t *sub = NULL;
	struct pm_err e;
	int status = load_side(args[0], &old, &po);

	if (!status)
		status = load_side(args[1], &new, &pn);
	if (!status) {
		ro = realpath(po, NULL);
		rn = realpath(pn, NULL);
		if (ro && rn && !strcmp(ro, rn)) {
			pm_error("OLD and NEW are the same, %s: nothing to compare (export it "
				 "alone)", ro);
			status = PM_EXIT_USAGE;
		}
		free(ro);
		free(rn);
	}
	if (!status)
		status = pm_cli_explain_run(ce, &old, &new, &x);
	if (!status) {
		if (pm_kcidb_explanation(&sub, &x, ko, &e)) {
			pm_error("%s", e.msg);
			status = PM_EXIT_USAGE;
		} else {
			status = write_out(sub, output);
		}
		json_decref(sub);
		pm_explanation_free(&x);
	}
	pm_side_free(&old);
	pm_side_free(&new);
	pm_cli_explain_free(ce);
	free(po);
	free(pn);
	return status;
}

int cmd_export(int argc, char **argv)
{
	struct pm_kcidb_opts ko = { .major = 5 };
	struct pm_cli_explain ce;
	const char *output = NULL;
	struct pm_opts p;
	struct pm_err e;
	int c, st, nargs;

	pm_cli_explain_init(&ce);
	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		st = pm_cli_explain_option(&usage, &ce, c, optarg);
		if (st == 0)
			continue;
		if (st != 1)
			return st;
		switch (c) {
		case OPT_ORIGIN:
			if (!pm_kcidb_origin_valid(optarg))
				return pm_usage_error(&usage, "--origin: '%s' is not a KCIDB "
						      "origin (lower-case letters, digits and '_')",
						      optarg);
			ko.origin = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "kcidb"))
				return pm_usage_error(&usage,
						      "--format: '%s' is not one of kcidb", optarg);
			break;
		case OPT_VERSION:
			if (strcmp(optarg, "4") && strcmp(optarg, "5"))
				return pm_usage_error(&usage,
						      "--kcidb-version: '%s' is not 4 or 5", optarg);
			ko.major = optarg[0] - '0';
			break;
		case 'o':
			output = optarg;
			break;
		default:
			return pm_cli_end_option(&p, c);
		}
	}
	nargs = argc - optind;
	if (nargs != 1 && nargs != 2)
		return pm_usage_error(&usage, "expected RESULT, or OLD and NEW; got %d "
				      "arguments", nargs);
	if (!ko.origin)
		return pm_usage_error(&usage, "--origin NAME is required: the "
				      "submitting system's name, which starts every KCIDB id");
	if (output && pm_check_writable(output, &e)) {
		pm_error("-o %s", e.msg);
		return PM_EXIT_USAGE;
	}
	ko.only = ce.o.only;
	if (nargs == 1)
		return export_one(argv[optind], &ko, output);
	return export_two(argv + optind, &ce, &ko, output);
}
