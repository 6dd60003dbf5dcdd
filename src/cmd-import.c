/* pmbench import: lmbench summaries and AIM9 logs as result files. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "import/import.h"
#include "results/output.h"
#include "results/result.h"
#include "views/render.h"

enum { OPT_LABEL = PM_OPT_LONG, OPT_FORMAT, OPT_STRICT, OPT_PARTIAL };

static const struct pm_option options[] = {
	PM_OPT('o', "output", "PATH",
	       "write the result file (one run; - = standard output), or a directory "
	       "of them, N-HOST-OS.json (PATH ending in '/', an existing directory, or "
	       "several runs)"),
	PM_OPT(OPT_LABEL, "label", "TEXT",
	       "label of the runs (\"TEXT #N\" when there are several)"),
	PM_OPT(OPT_FORMAT, "format", "FMT",
	       "what to print: table (default: what was read, in the suite's own "
	       "layout), json (the result file; one run)",
	       .values = "table|json"),
	PM_OPT(OPT_STRICT, "strict", NULL,
	       "lmbench: fail on a row whose figures cannot all be placed in their "
	       "columns (default: leave them unmeasured, with a warning)"),
	/* what --strict is not, once an option; now the default */
	PM_OPT(OPT_PARTIAL, "partial", NULL, NULL, .flags = PM_OPT_HIDDEN),
	PM_OPT('v', "verbose", NULL,
	       "say what text was skipped (footers, signatures, prose)"),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "import", .lead = "lmbench|aim9 FILE", .options = options,
	.text = "FILE holds an lmbench summary (getsummary output) or AIM9 log lines, such\n"
		"as a mail; - reads standard input; see pmbench-import(1).\n",
};

/*
 * The report as text, from a file or standard input ("-"), bounded by
 * PM_READ_MAX_IMPORT; a NUL byte means binary data, not a mailed report.
 */
static int read_report(const char *path, char **out, struct pm_err *e)
{
	const char *name = strcmp(path, "-") ? path : "standard input";
	size_t n;
	int err;

	err = strcmp(path, "-") ?
		pm_read_file_max(path, PM_READ_MAX_IMPORT, out, &n) :
		pm_read_fd_max(STDIN_FILENO, PM_READ_MAX_IMPORT, out, &n);
	if (err)
		return pm_read_error(e, err, name, PM_READ_MAX_IMPORT, "a report to import");
	if (memchr(*out, '\0', n)) {
		free(*out);
		*out = NULL;
		return pm_err_set(e, -EINVAL, "%s: binary data (a NUL byte): not a text report",
				  name);
	}
	return 0;
}

/* A file name part: letters, digits, '.', '-' and '_' kept. */
static void sanitize(char *s)
{
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || *s == '.' || *s == '-' || *s == '_'))
			*s = '_';
}

static char *run_file_name(const struct pm_result *r, size_t index, size_t n)
{
	const json_t *imp = json_object_get(r->options, "import");
	const char *host = json_string_value(json_object_get(imp, "host"));
	const char *os = json_string_value(json_object_get(imp, "os"));
	int digits = snprintf(NULL, 0, "%zu", n);
	char *name;

	if (host && os)
		name = pm_xasprintf("%0*zu-%s-%s.json", digits, index + 1, host, os);
	else
		name = pm_xasprintf("%0*zu-%s.json", digits, index + 1,
				    r->source && !strcmp(r->source, "import:aim9") ? "aim9" : "run");
	sanitize(name);
	return name;
}

static const char *import_key(const struct pm_result *r, const char *key)
{
	return json_string_value(json_object_get(json_object_get(r->options, "import"), key));
}

/*
 * Rows of one host and OS are runs of one side (lmbench run several
 * times): one result file holds them all, so that explain sees the
 * spread between them.  *out is runs itself when every row is alone.
 */
static int group_by_host(struct pm_result *runs, size_t n, struct pm_result **out,
			 size_t *nout, struct pm_err *e)
{
	struct pm_result *g, *members;
	bool *taken, merged = false;
	size_t i, k, m, ng = 0;

	taken = pm_xcalloc(n ? n : 1, sizeof(*taken));
	g = pm_xcalloc(n ? n : 1, sizeof(*g));
	members = pm_xcalloc(n ? n : 1, sizeof(*members));
	for (i = 0; i < n; i++) {
		const char *host = import_key(&runs[i], "host"), *os = import_key(&runs[i], "os");

		if (taken[i])
			continue;
		for (k = i, m = 0; k < n; k++) {
			const char *h = import_key(&runs[k], "host"), *o = import_key(&runs[k], "os");

			if (k == i || (host && os && h && o && !strcmp(h, host) && !strcmp(o, os))) {
				taken[k] = true;
				members[m++] = runs[k];
			}
		}
		merged = merged || m > 1;
		if (pm_result_merge(&g[ng++], members, m, e)) {
			pm_import_free(g, ng);
			free(taken);
			free(members);
			return -EINVAL;
		}
	}
	free(taken);
	free(members);
	if (!merged) {
		pm_import_free(g, ng);
		*out = runs;
		*nout = n;
		return 0;
	}
	*out = g;
	*nout = ng;
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* One result file through run's -o writer (output.h): a FIFO, device or
 * link is written as such, a failed write leaves a recovery file.  say:
 * name the file written (not standard output) on stderr. */
static int write_one(const struct pm_result *r, const char *path, bool say)
{
	struct pm_output o;
	struct pm_err e;
	int err;

	err = pm_output_open(&o, path, &e);
	if (!err)
		err = pm_output_write_result(&o, r, &e);
	if (err)
		pm_error("%s", e.msg);
	else if (say && !pm_output_is_stdout(&o))
		fprintf(stderr, "pmbench: result written to %s\n", path);
	pm_output_free(&o);
	return err;
}

/* -o DIR: made if missing, one file per run in it. */
static int write_dir(const struct pm_result *runs, size_t n, const char *out)
{
	char *dir = pm_xstrdup(out), *path = NULL, *r, *w;
	size_t i;
	int err;

	/* "a//b/" names a/b: its files are a/b/NAME, said so */
	for (r = w = dir; *r; r++)
		if (*r != '/' || w == dir || w[-1] != '/')
			*w++ = *r;
	if (w - dir > 1 && w[-1] == '/')
		w--;
	*w = '\0';
	err = pm_mkdir_p(dir, 0777);
	if (err == -ENOTDIR)
		pm_error("-o %s: not a directory (%s)", out, n > 1 ?
			 "several runs need one file each" : "a path ending in '/' names one");
	else if (err)
		pm_error("-o %s: cannot create the directory: %s", out, strerror(-err));
	for (i = 0; !err && i < n; i++) {
		char *name = run_file_name(&runs[i], i, n);

		free(path);
		path = pm_xasprintf("%s%s%s", dir, strcmp(dir, "/") ? "/" : "", name);
		free(name);
		err = write_one(&runs[i], path, n == 1);
	}
	if (!err && n > 1)
		fprintf(stderr, "pmbench: %zu results written to %s%s\n", n, dir,
			strcmp(dir, "/") ? "/" : "");
	free(path);
	free(dir);
	return err ? pm_exit_status(err) : PM_EXIT_OK;
}

/*
 * -o PATH: a directory when it ends in '/', is one, or there are several
 * runs; else the one result file.
 */
static int write_runs(const struct pm_result *runs, size_t n, const char *out)
{
	size_t len = strlen(out);
	int err;

	if (!strcmp(out, "-")) {
		if (n == 1)
			return pm_exit_status(write_one(&runs[0], out, false));
		pm_error("-o -: standard output takes one result file, and there are %zu runs: use -o DIR",
			 n);
		return PM_EXIT_USAGE;
	}
	if (n > 1 || (len && out[len - 1] == '/') || is_dir(out))
		return write_dir(runs, n, out);
	err = write_one(&runs[0], out, true);
	return pm_exit_status(err);
}

/* Read FILE and parse it as KIND; notes (-v) and warnings said here.
 * Returns 0 or the exit status. */
static int import_file(const char *kind, const char *file, const char *name,
		       unsigned flags, bool verbose, struct pm_result **runs, size_t *n)
{
	struct pm_import_log log = { 0 };
	struct pm_err e;
	char *text = NULL;
	size_t k;
	int err;

	err = read_report(file, &text, &e);
	if (err) {
		pm_error("%s", e.msg);
		return PM_EXIT_USAGE;
	}
	if (!strcmp(kind, "lmbench"))
		err = pm_import_lmbench_flags(text, name, flags, runs, n, &log, &e);
	else
		err = pm_import_aim9(text, name, runs, n, &e);
	free(text);
	if (verbose)
		for (k = 0; k < log.nnotes; k++)
			fprintf(stderr, "pmbench: note: %s\n", log.notes[k]);
	if (err) {
		pm_import_log_free(&log);
		pm_error("%s", e.msg);
		return pm_exit_status(err);
	}
	for (k = 0; k < log.nwarnings; k++)
		pm_warn("%s", log.warnings[k]);
	pm_import_log_free(&log);
	return 0;
}

/* The command line imported with, and --label (numbered when several). */
static void stamp_runs(struct pm_result *runs, size_t n, const char *label)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		runs[i].command = json_array();
		for (k = 0; k < (size_t)pm_argc; k++)
			json_array_append_new(runs[i].command, json_string(pm_argv[k]));
		if (label) {
			free(runs[i].label);
			runs[i].label = n == 1 ? pm_xstrdup(label) :
				pm_xasprintf("%s #%zu", label, i + 1);
		}
	}
}

/* The imported runs on standard output: the result file, or a view. */
static void print_imported(struct pm_result *runs, size_t n, const char *kind,
			   const char *format)
{
	size_t i;

	if (!strcmp(format, "json")) {
		pm_result_dump(&runs[0], stdout);
	} else if (!strcmp(kind, "lmbench")) {
		const struct pm_result *v[n];

		for (i = 0; i < n; i++)
			v[i] = &runs[i];
		pm_render_lmbench(v, NULL, n, stdout);
	} else {
		pm_render_aim9(runs, n, stdout);
	}
}

/* -o: the runs as result files, lmbench's grouped by host first. */
static int write_imported(struct pm_result *runs, size_t n, const char *kind,
			  const char *output)
{
	struct pm_result *sides = runs;
	size_t nsides = n;
	struct pm_err e;
	int status;

	if (!strcmp(kind, "lmbench") && group_by_host(runs, n, &sides, &nsides, &e)) {
		pm_error("%s", e.msg);
		return PM_EXIT_RUNTIME;
	}
	status = write_runs(sides, nsides, output);
	if (sides != runs)
		pm_import_free(sides, nsides);
	return status;
}

int cmd_import(int argc, char **argv)
{
	const char *output = NULL, *label = NULL, *format = "table", *kind, *file, *name;
	struct pm_result *runs = NULL;
	struct pm_opts p;
	bool verbose = false;
	unsigned flags = 0;
	size_t n = 0;
	int c, err, status = PM_EXIT_OK;

	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		switch (c) {
		case 'o':
			if (!*optarg)
				return pm_usage_error(&usage, "-o: an empty path");
			output = optarg;
			break;
		case OPT_LABEL:
			label = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "table") && strcmp(optarg, "json"))
				return pm_usage_error(&usage,
					"--format: '%s' is not one of table, json", optarg);
			format = optarg;
			break;
		case OPT_STRICT:
			flags |= PM_IMPORT_STRICT;
			break;
		case OPT_PARTIAL:
			flags &= ~PM_IMPORT_STRICT;
			break;
		case 'v':
			verbose = true;
			break;
		default:
			return pm_cli_end_option(&p, c);
		}
	}
	if (argc - optind < 2)
		return pm_usage_error(&usage, argc - optind ?
				      "no file given" : "what to import: lmbench or aim9, and a file");
	if (argc - optind > 2)
		return pm_usage_error(&usage, "unexpected argument '%s'",
				      argv[optind + 2]);
	kind = argv[optind];
	file = argv[optind + 1];
	if (strcmp(kind, "lmbench") && strcmp(kind, "aim9"))
		return pm_usage_error(&usage, "'%s' is not lmbench or aim9", kind);

	name = strcmp(file, "-") ? file : "<stdin>";
	err = import_file(kind, file, name, flags, verbose, &runs, &n);
	if (err)
		return err;
	file = name;
	if (!strcmp(format, "json") && n != 1) {
		pm_import_free(runs, n);
		return pm_usage_error(&usage,
				      "--format json prints one run, and %s holds %zu: use -o DIR",
				      file, n);
	}

	stamp_runs(runs, n, label);

	if (!output || strcmp(output, "-"))
		print_imported(runs, n, kind, format);
	fflush(stdout);
	if (output)
		status = write_imported(runs, n, kind, output);
	pm_import_free(runs, n);
	return status;
}
