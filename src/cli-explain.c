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

int pm_cli_explain_option(const char *cmd, const char *usage, struct pm_cli_explain *ce,
			  int c, const char *arg)
{
	switch (c) {
	case 'n':
		return pm_cli_percent(cmd, usage, "--noise", arg, 100, &ce->o.noise_floor) ?
		       PM_EXIT_USAGE : 0;
	case 'm':
		return pm_cli_percent(cmd, usage, "--single-run-margin", arg, 1000,
				      &ce->o.single_run_margin) ? PM_EXIT_USAGE : 0;
	case 'b':
		ce->o.only = arg;
		return 0;
	case 's':
		if (!*arg)
			return pm_usage_error(cmd, usage, "--spread-from: an empty name (history, "
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
