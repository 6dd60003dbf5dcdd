/* pmbench report: an HTML page of result files (pmbench-report(1)). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "explain/explain.h"
#include "report/report.h"
#include "results/history.h"
#include "results/result.h"
#include "views/render.h"

enum { OPT_TITLE = PM_OPT_LONG, OPT_ALL_FRAMES, OPT_MIN_FRAME };

static const struct pm_option options[] = {
	PM_OPT('o', "output", "FILE",
	       "write the HTML page here (atomically; default: standard output when it "
	       "is not a terminal)"),
	PM_OPT(OPT_TITLE, "title", "TEXT", "the page's title (default: the results' names)"),
	PM_OPT(OPT_ALL_FRAMES, "all-frames", NULL,
	       "keep pmbench's own frames (main, the runner) in the flame graphs"),
	PM_OPT(OPT_MIN_FRAME, "min-frame", "PCT",
	       "leave out flame-graph frames narrower than PCT percent (default 0.5)"),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "report", .operands = "[FILE...]", .options = options,
	.text = "FILE: a result file, or @latest, @-N, @LABEL from the result history;\n"
		"none: @latest.  The first is the baseline; with two, the page has a\n"
		"differential flame graph and explain's findings.  Open it in a browser.\n",
};

struct page {
	const struct pm_result *const *r;
	const char *const *names;
	size_t n;
	const struct pm_explanation *x;
	const struct pm_report_opts *o;
};

static int page_writer(FILE *f, void *arg)
{
	const struct page *p = arg;

	return pm_report_html(p->r, p->names, p->n, p->x, p->o, f);
}

/* Each file resolved, checked and loaded, with a name unique in the
 * page; on an error nothing is kept. */
static int load_results(char **given, size_t n, char ***paths_out,
			struct pm_result **r_out, char ***names_out)
{
	char **paths, **names;
	struct pm_result *r;
	struct pm_err e;
	size_t a, i;
	int err;

	paths = pm_xcalloc(n, sizeof(*paths));
	r = pm_xcalloc(n, sizeof(*r));
	names = pm_xcalloc(n, sizeof(*names));
	for (a = 0; a < n; a++) {
		struct stat st;

		err = pm_history_resolve(given[a], &paths[a], &e);
		if (!err && stat(paths[a], &st) == 0 && S_ISDIR(st.st_mode))
			err = pm_err_set(&e, -EINVAL, "%s: a directory; the report takes result files",
					 paths[a]);
		if (!err)
			err = pm_result_load(&r[a], paths[a], &e);
		if (err) {
			pm_error("%s", e.msg);
			for (i = 0; i < a; i++)
				pm_result_free(&r[i]);
			for (i = 0; i <= a; i++) {
				free(paths[i]);
				free(names[i]);
			}
			free(paths);
			free(names);
			free(r);
			return -EINVAL;
		}
		names[a] = pm_result_short_name(&r[a], given[a]);
		for (i = 0; i < a; i++)
			if (!strcmp(names[i], names[a])) {
				char *t = pm_xasprintf("%s#%zu", names[a], a + 1);

				free(names[a]);
				names[a] = t;
				break;
			}
	}
	*paths_out = paths;
	*r_out = r;
	*names_out = names;
	return 0;
}

/* Two results: what explain finds, beside the plots, with the same
 * verdicts as pmbench explain (the history's spread).  False, said on
 * stderr, when it cannot. */
static bool report_explain(char **paths, struct pm_side sides[2], struct pm_side *spread,
			   struct pm_explanation *x)
{
	struct pm_explain_opts xo;
	struct pm_err e;

	pm_explain_opts_default(&xo);
	xo.spread = spread;
	xo.spread_name = "the result history";
	if (pm_cli_side_load(&sides[0], paths[0], &e) == 0 &&
	    pm_cli_side_load(&sides[1], paths[1], &e) == 0 &&
	    pm_spread_load(spread, NULL, &sides[0], &sides[1], &e) == 0 &&
	    pm_explain(x, &sides[0], &sides[1], &xo, &e) == 0)
		return true;
	pm_warn("no explain section: %s", e.msg);
	return false;
}

/* The page to -o FILE (atomically) or to standard output: the exit status. */
static int write_page(const char *output, struct page *p)
{
	struct pm_err e;
	int err;

	if (output) {
		err = pm_write_atomic(output, page_writer, p, &e);
		if (err) {
			pm_error("%s", e.msg);
			return PM_EXIT_RUNTIME;
		}
	} else {
		err = page_writer(stdout, p);
		if (err || fflush(stdout) != 0) {
			pm_error("writing the report: %s", strerror(err ? -err : errno));
			return PM_EXIT_RUNTIME;
		}
	}
	return PM_EXIT_OK;
}

int cmd_report(int argc, char **argv)
{
	struct pm_report_opts o = { .min_frame = 0.005 };
	const char *output = NULL;
	static char *latest[] = { "@latest" };
	struct pm_explanation x;
	struct pm_side sides[2] = { { 0 }, { 0 } }, spread = { 0 };
	bool have_x = false;
	struct pm_result *r;
	const struct pm_result **rp;
	char **given, **paths, **names;
	struct pm_opts opts;
	struct pm_err e;
	size_t n, a;
	int c, status;

	pm_opts_start(&opts, &usage, argc, argv);
	while ((c = pm_opts_next(&opts)) != -1) {
		switch (c) {
		case 'o':
			output = optarg;
			break;
		case OPT_TITLE:
			o.title = optarg;
			break;
		case OPT_ALL_FRAMES:
			o.all_frames = true;
			break;
		case OPT_MIN_FRAME:
			if (pm_cli_percent(&usage, "--min-frame", optarg, 100, &o.min_frame))
				return PM_EXIT_USAGE;
			break;
		default:
			return pm_cli_end_option(&opts, c);
		}
	}
	if (!output && isatty(STDOUT_FILENO))
		return pm_usage_error(&usage,
				      "give -o FILE: the report is an HTML page, not for a terminal");
	if (output && pm_check_writable(output, &e)) {
		pm_error("-o %s", e.msg);
		return PM_EXIT_USAGE;
	}
	given = optind < argc ? argv + optind : latest;
	n = optind < argc ? (size_t)(argc - optind) : 1;
	if (load_results(given, n, &paths, &r, &names))
		return PM_EXIT_USAGE;
	/* two results: what explain finds, beside the plots */
	if (n == 2)
		have_x = report_explain(paths, sides, &spread, &x);
	rp = pm_xcalloc(n, sizeof(*rp));
	for (a = 0; a < n; a++)
		rp[a] = &r[a];
	status = write_page(output, &(struct page){ rp, (const char *const *)names, n,
						    have_x ? &x : NULL, &o });
	if (n == 2) {
		if (have_x)
			pm_explanation_free(&x);
		pm_side_free(&sides[0]);
		pm_side_free(&sides[1]);
		pm_side_free(&spread);
	}
	for (a = 0; a < n; a++) {
		pm_result_free(&r[a]);
		free(paths[a]);
		free(names[a]);
	}
	free(rp);
	free(r);
	free(paths);
	free(names);
	return status;
}
