/* pmbench explain OLD NEW: why a benchmark changed (pmbench-explain(1)). */
#include "config.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cmd.h"
#include "explain/explain.h"
#include "results/history.h"

/* Opt-in status for CI: a regression (or any change) was found. */
#define PM_EXIT_FOUND 3

enum { OPT_FORMAT = PM_OPT_LONG, OPT_ALL, OPT_FAIL_ON, OPT_CHECK, OPT_RULES };

static const struct pm_option options[] = {
	PM_OPT(OPT_FORMAT, "format", "FMT",
	       "text (default), markdown (for mails and reviews), csv (a row per "
	       "benchmark), json, lkp (the %stddev %change %stddev table of Intel's "
	       "0-day mails)",
	       .values = "text|markdown|csv|json|lkp"),
	PM_OPT_INCLUDE(pm_cli_explain_options),
	PM_OPT(OPT_ALL, "all", NULL, "also detail benchmarks that did not change"),
	PM_OPT(OPT_FAIL_ON, "fail-on", "WHAT",
	       "exit 3 when a regression (or any change) is found",
	       .values = "regression|change"),
	PM_OPT(OPT_CHECK, "check", NULL,
	       "exit 1 when the explanation breaks one of its guarantees (always said "
	       "on stderr)"),
	PM_OPT(OPT_RULES, "rules", NULL,
	       "list the causes explain can name and their evidence",
	       .flags = PM_OPT_NO_SYNOPSIS),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "explain", .operands = "OLD NEW", .options = options,
	.more = (const char *const[]){ "--rules", NULL },
	.text = "OLD and NEW are result files, directories of result files (several\n"
		"runs of the same kernel/config/machine), or @latest, @-N, @LABEL from\n"
		"the result history (pmbench-log(1)).\n",
};

/* --rules: each rule's name and title, and what it looks at. */
static void list_rules(void)
{
	struct pm_table *t = pm_table_new();
	size_t i;

	pm_table_no_head(t);
	pm_table_add_col(t, "rule", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "title", NULL, PM_COL_LEFT);
	pm_table_min_width(t, 0, 17);
	for (i = 0; i < pm_rule_count(); i++) {
		pm_table_row(t, pm_rule_at(i)->id);
		pm_table_cell(t, 0, pm_rule_at(i)->id, NULL);
		pm_table_cell(t, 1, pm_rule_at(i)->title, NULL);
		pm_table_row(t, NULL);
		pm_table_cellf(t, 1, "  evidence: %s", pm_rule_at(i)->evidence);
	}
	pm_table_print(t, stdout, PM_TABLE_TEXT);
	pm_table_free(t);
}

/*
 * OLD and NEW name one file (the same path, or two files with the same
 * bytes, as @latest and its copy): a file against itself has nothing to
 * explain, and verdicts computed on it would only show the method's
 * noise.
 */
static bool same_file(const char *a, const char *b)
{
	char *ra = realpath(a, NULL), *rb = realpath(b, NULL), *da = NULL, *db = NULL;
	size_t la = 0, lb = 0;
	struct stat sa, sb;
	bool same = ra && rb && !strcmp(ra, rb);

	if (!same && stat(a, &sa) == 0 && stat(b, &sb) == 0 && S_ISREG(sa.st_mode) &&
	    S_ISREG(sb.st_mode) && sa.st_size == sb.st_size &&
	    pm_read_file(a, &da, &la) == 0 && pm_read_file(b, &db, &lb) == 0)
		same = la == lb && !memcmp(da, db, la);
	free(ra);
	free(rb);
	free(da);
	free(db);
	return same;
}

static void print_same(const char *old_arg, const char *new_arg, const char *path,
		       const char *format)
{
	if (!strcmp(format, "json")) {
		json_t *j = json_pack("{s:s,s:s,s:s,s:[]}", "same_file", path, "old", old_arg,
				      "new", new_arg, "benchmarks");

		json_dumpf(j, stdout, JSON_INDENT(1));
		putchar('\n');
		json_decref(j);
	} else if (!strcmp(format, "csv")) {
		struct pm_explanation none = { 0 };
		struct pm_table *t = pm_report_table(&none);

		pm_table_print(t, stdout, PM_TABLE_CSV);
		pm_table_free(t);
	} else {
		if (!strcmp(format, "markdown"))
			fputs("## pmbench explain\n\n", stdout);
		if (!strcmp(old_arg, new_arg))
			printf("OLD and NEW are the same file, %s: nothing to compare.\n", path);
		else
			printf("OLD (%s) and NEW (%s) are the same file (the same bytes): nothing "
			       "to compare.\n", old_arg, new_arg);
	}
}

/* OLD and NEW (@latest, @-N, @LABEL: runs of the result history); *same
 * when they are one file (then nothing is loaded). */
static int load_sides(const char *old_arg, const char *new_arg,
		      struct pm_side *old, struct pm_side *new, const char *format,
		      bool *same)
{
	char *old_path = NULL, *new_path = NULL;
	struct pm_err e;
	int err;

	memset(old, 0, sizeof(*old));
	memset(new, 0, sizeof(*new));
	err = pm_history_resolve(old_arg, &old_path, &e);
	if (!err)
		err = pm_history_resolve(new_arg, &new_path, &e);
	/* a file that does not load is an error even against itself */
	if (!err && (*same = same_file(old_path, new_path))) {
		err = pm_cli_side_load(old, old_path, &e);
		if (!err) {
			print_same(old_arg, new_arg, old_path, format);
			pm_side_free(old);
			memset(old, 0, sizeof(*old));
		}
	} else if (!err)
		err = pm_cli_side_load(old, old_path, &e);
	if (!err && !*same)
		err = pm_cli_side_load(new, new_path, &e);
	free(old_path);
	free(new_path);
	if (err) {
		pm_error("%s", e.msg);
		pm_side_free(old);
		pm_side_free(new);
	}
	return err;
}

static void print_explanation(const struct pm_explanation *x, const char *format,
			      bool all)
{
	if (!strcmp(format, "json")) {
		json_t *j = pm_report_json(x);

		json_dumpf(j, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(10));
		putchar('\n');
		json_decref(j);
	} else if (!strcmp(format, "csv")) {
		struct pm_table *t = pm_report_table(x);

		pm_table_print(t, stdout, PM_TABLE_CSV);
		pm_table_free(t);
	} else if (!strcmp(format, "lkp")) {
		pm_report_lkp(x, stdout, all);
	} else {
		pm_report_text(x, stdout, !strcmp(format, "markdown"), all);
	}
}

/*
 * The guarantees of pmbench-explain(1), checked on the explanation and
 * its text: a broken one is pmbench's bug, said on stderr.  How many.
 */
static size_t check_guarantees(const struct pm_explanation *x)
{
	struct pm_violations v = { 0 };
	char *text = NULL;
	size_t len = 0, i, n;
	FILE *f = open_memstream(&text, &len);

	if (f) {
		pm_report_text(x, f, false, true);
		fclose(f);
	}
	pm_explain_check(x, text, &v);
	for (i = 0; i < v.n; i++)
		pm_error("explain: guarantee '%s' broken%s%s: %s (a bug of pmbench)",
			 v.v[i].invariant, *v.v[i].bench ? ": " : "", v.v[i].bench, v.v[i].what);
	n = v.n;
	pm_violations_free(&v);
	free(text);
	return n;
}

/* The exit status: a broken guarantee under --check, else what
 * --fail-on asks to be told about. */
static int explain_status(const struct pm_explanation *x, const char *fail_on, bool check)
{
	int status = PM_EXIT_OK;
	size_t i;

	if (check_guarantees(x) && check)
		status = PM_EXIT_RUNTIME;
	for (i = 0; fail_on && i < x->ncmp; i++) {
		enum pm_verdict v = x->cmp[i].verdict;

		if (v == PM_REGRESSION ||
		    (!strcmp(fail_on, "change") && (v == PM_IMPROVEMENT || v == PM_CHANGED)))
			status = status ? status : PM_EXIT_FOUND;
	}
	return status;
}

int cmd_explain(int argc, char **argv)
{
	struct pm_cli_explain ce;
	struct pm_explanation x;
	struct pm_side old, new;
	struct pm_opts p;
	const char *format = "text", *fail_on = NULL;
	bool all = false, same = false, check = false;
	int c, status = PM_EXIT_OK;
	size_t i;

	pm_cli_explain_init(&ce);
	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		int st = pm_cli_explain_option(&usage, &ce, c, optarg);

		if (st != 1) {
			if (st)
				return st;
			continue;
		}
		switch (c) {
		case OPT_FORMAT:
			if (strcmp(optarg, "text") && strcmp(optarg, "markdown") &&
			    strcmp(optarg, "csv") && strcmp(optarg, "json") && strcmp(optarg, "lkp"))
				return pm_usage_error(&usage,
					"--format: '%s' is not one of text, markdown, csv, json, lkp",
					optarg);
			format = optarg;
			break;
		case OPT_ALL:
			all = true;
			break;
		case OPT_FAIL_ON:
			if (strcmp(optarg, "regression") && strcmp(optarg, "change"))
				return pm_usage_error(&usage,
					"--fail-on: '%s' is not one of regression, change", optarg);
			fail_on = optarg;
			break;
		case OPT_RULES:
			list_rules();
			return PM_EXIT_OK;
		case OPT_CHECK:
			check = true;
			break;
		default:
			return pm_cli_end_option(&p, c);
		}
	}
	if (argc - optind != 2)
		return pm_usage_error(&usage, "expected OLD and NEW, got %d argument%s",
				      argc - optind, argc - optind == 1 ? "" : "s");
	for (i = 0; i < 2; i++)
		if (!*argv[optind + i])
			return pm_usage_error(&usage, "%s: an empty file name",
					      i ? "NEW" : "OLD");
	if (load_sides(argv[optind], argv[optind + 1], &old, &new, format, &same))
		return PM_EXIT_USAGE;
	if (same)
		return PM_EXIT_OK;
	status = pm_cli_explain_run(&ce, &old, &new, &x);
	if (status) {
		pm_side_free(&old);
		pm_side_free(&new);
		pm_cli_explain_free(&ce);
		return status;
	}
	print_explanation(&x, format, all);
	fflush(stdout);
	status = explain_status(&x, fail_on, check);
	pm_explanation_free(&x);
	pm_side_free(&old);
	pm_side_free(&new);
	pm_cli_explain_free(&ce);
	return status;
}
