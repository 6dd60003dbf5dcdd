/*
 * What the commands that explain share (explain, export): the options
 * that shape the verdicts, and the spread and explanation of two loaded
 * sides, so that export's verdicts are the ones explain prints.
 */
#include "config.h"

#include <string.h>

#include "cmd.h"
#include "explain/explain.h"

void pm_cli_explain_init(struct pm_cli_explain *ce)
{
	memset(ce, 0, sizeof(*ce));
	pm_explain_opts_default(&ce->o);
	ce->spread_from = "history";
}

const struct pm_option pm_cli_explain_options[] = {
	PM_OPT(PM_OPT_NOISE, "noise", "PCT",
	       "changes smaller than this are not changes (default 3)"),
	PM_OPT(PM_OPT_MARGIN, "single-run-margin", "PCT",
	       "with one run on a side, a change must exceed this (default 6): nothing "
	       "shows how much runs differ"),
	PM_OPT(PM_OPT_SPREAD_FROM, "spread-from", "SRC",
	       "how much runs differ on this machine, learnt from other runs: history "
	       "(default: the result history), none, or a file or directory of result "
	       "files"),
	PM_OPT('b', "bench", "BENCH", "only this benchmark"),
	PM_OPT_END
};

int pm_cli_explain_option(const struct pm_usage *u, struct pm_cli_explain *ce,
			  int c, const char *arg)
{
	switch (c) {
	case PM_OPT_NOISE:
		return pm_cli_percent(u, "--noise", arg, 100, &ce->o.noise_floor) ?
		       PM_EXIT_USAGE : 0;
	case PM_OPT_MARGIN:
		return pm_cli_percent(u, "--single-run-margin", arg, 1000,
				      &ce->o.single_run_margin) ? PM_EXIT_USAGE : 0;
	case 'b':
		ce->o.only = arg;
		return 0;
	case PM_OPT_SPREAD_FROM:
		if (!*arg)
			return pm_usage_error(u, "--spread-from: an empty name (history, "
					      "none, or a file or directory)");
		ce->spread_from = arg;
		return 0;
	default:
		return 1;
	}
}

int pm_cli_explain_run(struct pm_cli_explain *ce, struct pm_side *old, struct pm_side *new,
		       struct pm_explanation *x)
{
	struct pm_err e;

	if (strcmp(ce->spread_from, "none")) {
		bool hist = !strcmp(ce->spread_from, "history");

		if (pm_spread_load(&ce->spread, hist ? NULL : ce->spread_from, old, new, &e)) {
			pm_error("--spread-from: %s", e.msg);
			return PM_EXIT_USAGE;
		}
		ce->o.spread = &ce->spread;
		ce->o.spread_name = hist ? "the result history" : ce->spread_from;
	}
	if (pm_explain(x, old, new, &ce->o, &e)) {
		pm_error("%s", e.msg);
		return PM_EXIT_USAGE;
	}
	return PM_EXIT_OK;
}

void pm_cli_explain_free(struct pm_cli_explain *ce)
{
	pm_side_free(&ce->spread);
	memset(&ce->spread, 0, sizeof(ce->spread));
}
