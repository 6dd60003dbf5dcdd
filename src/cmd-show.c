/* pmbench show: render result files. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "results/anonymize.h"
#include "results/history.h"
#include "results/result.h"
#include "sample/profile.h"
#include "views/render.h"

enum { OPT_FORMAT = PM_OPT_LONG, OPT_HOTSPOTS, OPT_ALL_FRAMES, OPT_ANONYMIZE,
       OPT_PERCENT_LIMIT };

static const struct pm_option options[] = {
	PM_OPT(OPT_FORMAT, "format", "FMT",
	       "table (default), markdown (the same, for mails and reviews), csv, json "
	       "(the file as stored, once validated), folded (sampled stacks for "
	       "flame-graph tools), lmbench (lmbench's summary tables, one row per file)",
	       .values = "table|markdown|csv|json|folded|lmbench"),
	PM_OPT('v', "verbose", NULL, "a detailed block per benchmark"),
	PM_OPT(OPT_HOTSPOTS, "hotspots", NULL,
	       "every benchmark's kernel and user hotspots and call chains"),
	PM_OPT(OPT_PERCENT_LIMIT, "percent-limit", "PCT",
	       "leave out hotspots below PCT% of the samples (default 0.5)"),
	PM_OPT(OPT_ALL_FRAMES, "all-frames", NULL,
	       "keep pmbench's own frames (main, the runner) in hotspots"),
	PM_OPT(OPT_ANONYMIZE, "anonymize", NULL,
	       "with --format json: no host name, user names, home paths or command-line "
	       "paths (to mail the file to a public list)"),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "show", .operands = "[FILE...]", .options = options,
	.text = "FILE: a result file, or @latest, @-N, @LABEL from the result history\n"
		"(pmbench-log(1)); none: @latest.  Several files are shown side by side,\n"
		"with ratios to the first.\n",
};

static const char *const formats[] = {
	"table", "markdown", "csv", "json", "folded", "lmbench",
};

/* Column names of a comparison: unique, so that a column means one file. */
static char **short_names(struct pm_result *r, char **given, size_t n)
{
	char **names = pm_xcalloc(n, sizeof(*names));
	size_t i, j;

	for (i = 0; i < n; i++) {
		names[i] = pm_result_short_name(&r[i], given[i]);
		for (j = 0; j < i; j++)
			if (!strcmp(names[i], names[j])) {
				char *t = pm_xasprintf("%s#%zu", names[i], i + 1);

				free(names[i]);
				names[i] = t;
				break;
			}
	}
	return names;
}

static void show_one(struct pm_result *x, const char *format, unsigned flags,
		     bool hotspots, FILE *f)
{
	enum pm_table_format fmt = !strcmp(format, "markdown") ? PM_TABLE_MARKDOWN :
				   !strcmp(format, "csv") ? PM_TABLE_CSV : PM_TABLE_TEXT;

	if (!strcmp(format, "folded")) {
		/* benchmark name first: one flame graph per file */
		for (size_t k = 0; k < x->nbench; k++)
			pm_hotspots_write_folded(x->bench[k].hotspots, x->bench[k].name,
						 flags & PM_RENDER_ALL_FRAMES, f);
	} else if (hotspots) {
		pm_render_hotspots(x, f, fmt, flags);
	} else if (fmt == PM_TABLE_CSV) {
		pm_render_csv(x, f);
	} else {
		pm_render(x, f, fmt, flags);
	}
}

/* The figure each view shows, in files written before it was stored. */
static void add_figures(json_t *doc, const struct pm_result *r)
{
	json_t *b, *fig;
	size_t i;

	json_array_foreach(json_object_get(doc, "benchmarks"), i, b) {
		const char *name = json_string_value(json_object_get(b, "name"));
		const struct pm_bench_result *x = name ? pm_result_find(r, name) : NULL;

		if (x && !json_object_get(b, "figure") && (fig = pm_bench_figure_json(x)))
			json_object_set_new(b, "figure", fig);
	}
}

/* One file: what it holds, and its document if keep_doc (--format json). */
static int load_one(const char *path, bool keep_doc, json_t **doc,
		    struct pm_result *r, struct pm_err *e)
{
	int err;

	pm_result_init(r);
	err = pm_result_load_json(doc, path, e);
	if (!err)
		err = pm_result_from_json(r, *doc, path, e);
	if (err || !keep_doc) {
		json_decref(*doc);
		*doc = NULL;
	}
	return err;
}

/* Resolve and load every file before printing anything, each read once
 * (a pipe cannot be read again); on an error, nothing is kept. */
static int load_all(char **given, size_t n, bool named, bool keep_docs,
		    char ***paths_out, struct pm_result **r_out, json_t ***docs_out)
{
	char **paths = pm_xcalloc(n, sizeof(*paths));
	struct pm_result *r = pm_xcalloc(n, sizeof(*r));
	json_t **docs = pm_xcalloc(n, sizeof(*docs));
	struct pm_err e;
	size_t a, i;

	for (a = 0; a < n; a++) {
		if (!pm_history_resolve(given[a], &paths[a], &e) &&
		    !load_one(paths[a], keep_docs, &docs[a], &r[a], &e))
			continue;
		if (!named)
			pm_error("%s (no result file given)", e.msg);
		else
			pm_error("%s", e.msg);
		for (i = 0; i < a; i++) {
			pm_result_free(&r[i]);
			json_decref(docs[i]);
		}
		for (i = 0; i <= a; i++)
			free(paths[i]);
		free(paths);
		free(r);
		free(docs);
		return -EINVAL;
	}
	*paths_out = paths;
	*r_out = r;
	*docs_out = docs;
	return 0;
}

/* The document as stored, once validated. */
static void show_json(json_t *doc, bool anonymize)
{
	if (anonymize)
		pm_anonymize_document(doc);
	json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_REAL_PRECISION(17));
	putchar('\n');
}

/* The renderers of several files take a list of pointers. */
static const struct pm_result **result_ptrs(struct pm_result *r, size_t n)
{
	const struct pm_result **v = pm_xcalloc(n, sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = &r[i];
	return v;
}

/* How show prints what it loaded: the options that choose the view. */
struct show_how {
	const char *format;
	bool verbose, hotspots, anonymize;
	unsigned flags;
};

/* Say on stderr which files hold interrupted runs. */
static void warn_interrupted(const struct pm_result *r, char **paths, size_t n)
{
	size_t a;

	for (a = 0; a < n; a++)
		if (pm_result_interrupted(&r[a], NULL))
			pm_warn("%s: an interrupted run: only %zu benchmark%s finished",
				paths[a], r[a].nbench, r[a].nbench == 1 ? "" : "s");
}

/* The loaded files in the chosen view: one lmbench table, the files side
 * by side, or each file on its own. */
static void show_files(const struct show_how *h, struct pm_result *r, json_t **docs,
		       char **names, size_t n)
{
	size_t a;

	if (!strcmp(h->format, "lmbench")) {
		/* one table for all files: a row each */
		const struct pm_result **runs = result_ptrs(r, n);

		pm_render_lmbench(runs, (const char *const *)names, n, stdout);
		free(runs);
	} else if (n > 1 && !h->verbose && !h->hotspots && strcmp(h->format, "json") &&
		   strcmp(h->format, "folded")) {
		/* the summary of several files: side by side */
		const struct pm_result **rs = result_ptrs(r, n);

		pm_render_compare(rs, (const char *const *)names, n, stdout,
				  !strcmp(h->format, "markdown") ? PM_TABLE_MARKDOWN :
				  !strcmp(h->format, "csv") ? PM_TABLE_CSV : PM_TABLE_TEXT);
		free(rs);
	} else {
		if (!strcmp(h->format, "csv"))
			h->hotspots ? pm_render_hotspots_csv_header(stdout) :
				   pm_render_csv_header(stdout);
		for (a = 0; a < n; a++) {
			if (!strcmp(h->format, "json")) {
				add_figures(docs[a], &r[a]);
				show_json(docs[a], h->anonymize);
				continue;
			}
			if (n > 1 && (!strcmp(h->format, "table") || !strcmp(h->format, "markdown"))) {
				if (a)
					putchar('\n');
				printf(!strcmp(h->format, "markdown") ? "## %s\n\n" : "== %s\n",
				       names[a]);
			}
			show_one(&r[a], h->format, h->flags, h->hotspots, stdout);
		}
	}
}

/* What load_all and short_names gave. */
static void free_loaded(struct pm_result *r, json_t **docs, char **paths, char **names,
			size_t n)
{
	size_t a;

	for (a = 0; a < n; a++) {
		pm_result_free(&r[a]);
		json_decref(docs[a]);
		free(paths[a]);
		free(names[a]);
	}
	free(r);
	free(paths);
	free(docs);
	free(names);
}

int cmd_show(int argc, char **argv)
{
	const char *format = "table";
	bool verbose = false, hotspots = false, all_frames = false, anonymize = false;
	struct pm_result *r;
	char **paths, **given, **names;
	json_t **docs;
	static char *latest[] = { "@latest" };
	unsigned flags;
	struct pm_opts p;
	size_t n, i;
	int c, status = PM_EXIT_OK;

	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		switch (c) {
		case OPT_FORMAT:
			for (i = 0; i < PM_ARRAY_SIZE(formats) && strcmp(optarg, formats[i]); i++)
				;
			if (i == PM_ARRAY_SIZE(formats))
				return pm_usage_error(&usage,
					"--format: '%s' is not one of table, markdown, csv, json, folded, lmbench",
					optarg);
			format = optarg;
			break;
		case 'v':
			verbose = true;
			break;
		case OPT_HOTSPOTS:
			hotspots = true;
			break;
		case OPT_ALL_FRAMES:
			all_frames = true;
			break;
		case OPT_PERCENT_LIMIT: {
			double pct;

			if (pm_cli_percent(&usage, "--percent-limit", optarg, 100, &pct))
				return PM_EXIT_USAGE;
			pm_render_set_percent_limit(pct);
			break;
		}
		case OPT_ANONYMIZE:
			anonymize = true;
			break;
		default:
			return pm_cli_end_option(&p, c);
		}
	}
	if (hotspots && strcmp(format, "table") && strcmp(format, "markdown") &&
	    strcmp(format, "csv"))
		return pm_usage_error(&usage,
				      "--hotspots is a view: it goes with --format table, markdown or csv");
	if (anonymize && strcmp(format, "json"))
		return pm_usage_error(&usage,
				      "--anonymize goes with --format json (the file to mail)");
	given = optind < argc ? argv + optind : latest;
	n = optind < argc ? (size_t)(argc - optind) : 1;
	flags = (verbose ? PM_RENDER_DETAIL : 0) | (all_frames ? PM_RENDER_ALL_FRAMES : 0);

	if (load_all(given, n, optind < argc, !strcmp(format, "json"), &paths, &r, &docs))
		return PM_EXIT_USAGE;
	names = short_names(r, given, n);
	/* formats without a header say it on stderr */
	if (strcmp(format, "table") && strcmp(format, "markdown") && strcmp(format, "json"))
		warn_interrupted(r, paths, n);

	show_files(&(struct show_how){ format, verbose, hotspots, anonymize, flags },
		   r, docs, names, n);
	free_loaded(r, docs, paths, names, n);
	if (fflush(stdout) != 0)
		status = PM_EXIT_RUNTIME;
	return status;
}
