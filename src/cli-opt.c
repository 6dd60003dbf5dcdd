/* Option values: the end of every option switch, run's and stat's shared
 * options (worded as run's: stat words some its own way), numbers, events. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "counters/counters.h"
#include "util.h"

int pm_cli_end_option(const struct pm_opts *p, int c)
{
	char page[64];

	switch (c) {
	case PM_OPT_USAGE:
		pm_usage_print(p->usage, stdout);
		return PM_EXIT_OK;
	case PM_OPT_MANUAL:
		snprintf(page, sizeof(page), "pmbench-%s", p->usage->name);
		return pm_show_manual(page);
	case ':':
		return pm_usage_error(p->usage, "option '%s' needs a value",
				      p->argv[optind - 1]);
	default:
		return pm_usage_error(p->usage, "unknown option '%s'", p->argv[optind - 1]);
	}
}

const struct pm_option pm_cli_measure_options[] = {
	PM_OPT('e', "events", "EVENTS",
	       "events to count: aliases or libpfm4 strings, comma-separated (default: "
	       "cycles,instructions,icache,branch-misses; none = software events only)"),
	PM_OPT('o', "output", "FILE",
	       "write the result file (JSON; - = standard output; a FIFO or device is "
	       "written into, a file replaced atomically)"),
	PM_OPT(PM_OPT_FORMAT, "format", "FMT",
	       "what to print on stdout: table (default), json, csv",
	       .values = "table|json|csv"),
	PM_OPT(PM_OPT_NO_COUNTERS, "no-counters", NULL, "skip the counted pass"),
	PM_OPT(PM_OPT_NO_PROFILE, "no-profile", NULL,
	       "skip the sampled pass (kernel and user hotspots)"),
	PM_OPT('F', "freq", "HZ",
	       "samples per second of CPU time (default 20000, 4000 with --call-graph dwarf)"),
	PM_OPT(PM_OPT_CALL_GRAPH, "call-graph", "M",
	       "user stacks: fp (frame pointers, default) or dwarf (stack copies unwound "
	       "with libunwind)",
	       .values = "fp|dwarf"),
	PM_OPT(PM_OPT_VMLINUX, "vmlinux", "PATH",
	       "kernel symbols from this vmlinux (default: debug locations, else "
	       "/proc/kallsyms)"),
	PM_OPT(PM_OPT_LABEL, "label", "TEXT", "a name for this run, kept in the result file"),
	PM_OPT_END
};

void pm_cli_measure_init(struct pm_cli_measure *m)
{
	memset(m, 0, sizeof(*m));
	m->format = "table";
	m->counters = true;
	m->profile = true;
}

int pm_cli_measure_option(const struct pm_usage *u, struct pm_cli_measure *m,
			  int c, const char *arg)
{
	unsigned long n;

	switch (c) {
	case 'e':
		if (!pm_list_valid(arg, ','))
			return pm_usage_error(u, "--events: '%s' has an empty "
				"event name (software events only: -e none)", arg);
		m->events_spec = arg;
		return 0;
	case 'o':
		m->output = arg;
		return 0;
	case PM_OPT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "json") && strcmp(arg, "csv"))
			return pm_usage_error(u,
				"--format: '%s' is not one of table, json, csv", arg);
		m->format = arg;
		m->format_given = true;
		return 0;
	case PM_OPT_NO_COUNTERS:
		m->counters = false;
		return 0;
	case PM_OPT_NO_PROFILE:
		m->profile = false;
		return 0;
	case 'F':
		if (pm_cli_uint(u, "--freq", arg, 1, 1000000, &n))
			return PM_EXIT_USAGE;
		m->popts.freq = (unsigned)n;
		return 0;
	case PM_OPT_CALL_GRAPH:
		return pm_cli_call_graph(u, arg, &m->popts.dwarf) ?
			PM_EXIT_USAGE : 0;
	case PM_OPT_VMLINUX:
		m->popts.vmlinux = arg;
		return 0;
	case PM_OPT_LABEL:
		m->label = arg;
		return 0;
	default:
		return 1;
	}
}

static const char *const default_events[] = {
	"cycles", "instructions", "icache", "branch-misses", NULL,
};

/*
 * The events of a run: those asked for (or the default hardware set),
 * then the software events every run counts.  A default alias that the
 * alias files do not define is shown as not supported, not fatal.
 */
int pm_cli_events(const char *spec, bool counters, struct pm_events *ev)
{
	struct pm_aliases aliases = { 0 };
	struct pm_err e;
	char **names;
	size_t i;
	int err;

	if (!counters)
		return 0;
	err = pm_pfm_init(&e);
	if (err) {
		pm_warn("%s: hardware events disabled", e.msg);
		goto software;
	}
	if (pm_aliases_load_dir(&aliases, pm_aliases_default_dir(), &e))
		pm_warn("%s; the other alias files still apply", e.msg);
	if (spec && !strcmp(spec, "none")) {
		/* the software events only */
	} else if (spec) {
		names = pm_strv_split(spec, ',');
		err = pm_events_resolve(ev, names, &aliases, true, &e);
		if (!err)
			pm_strv_free(names);
		if (err) {
			const char *which = NULL, *hint = pm_suggest_event((const char *const *)names,
									   &aliases, &which);

			if (hint && strstr(e.msg, "unknown event"))
				pm_error("--events: %s; did you mean '%s' for '%s'?", e.msg, hint, which);
			else
				pm_error("--events: %s", e.msg);
			pm_strv_free(names);
			pm_aliases_free(&aliases);
			return -EINVAL;
		}
	} else {
		for (i = 0; default_events[i]; i++) {
			char *one[] = { (char *)default_events[i], NULL };

			if (!pm_alias_find(&aliases, default_events[i]))
				pm_events_add_unavailable(ev, default_events[i],
					"no such alias: the event alias files did not define it");
			else if (pm_events_resolve(ev, one, &aliases, true, &e))
				pm_events_add_unavailable(ev, default_events[i], e.msg);
		}
	}
	pm_aliases_free(&aliases);
software:
	if (pm_events_add_all_software(ev, &e))
		pm_warn("software events: %s", e.msg);
	return 0;
}

int pm_cli_uint(const struct pm_usage *u, const char *opt, const char *s,
		unsigned long lo, unsigned long hi, unsigned long *out)
{
	if (pm_parse_ulong(s, lo, hi, out)) {
		pm_usage_error(u, "%s: '%s' is not a whole number in [%lu, %lu]",
			       opt, s, lo, hi);
		return -EINVAL;
	}
	return 0;
}

int pm_cli_double(const struct pm_usage *u, const char *opt, const char *s,
		  double lo, double hi, double *out)
{
	if (pm_parse_double(s, lo, hi, out)) {
		pm_usage_error(u, "%s: '%s' is not a decimal number in [%g, %g]",
			       opt, s, lo, hi);
		return -EINVAL;
	}
	return 0;
}

int pm_cli_percent(const struct pm_usage *u, const char *opt, const char *s,
		   double max, double *frac)
{
	double v;

	if (pm_parse_double(s, 0, max, &v) || v >= max) {
		pm_usage_error(u, "%s: '%s' is not a percentage in [0, %g)",
			       opt, s, max);
		return -EINVAL;
	}
	*frac = v / 100;
	return 0;
}

int pm_cli_call_graph(const struct pm_usage *u, const char *s, bool *dwarf)
{
	if (strcmp(s, "fp") && strcmp(s, "dwarf")) {
		pm_usage_error(u, "--call-graph: '%s' is not one of fp, dwarf", s);
		return -EINVAL;
	}
	*dwarf = !strcmp(s, "dwarf");
#ifndef HAVE_LIBUNWIND
	if (*dwarf) {
		pm_usage_error(u, "--call-graph dwarf: pmbench was built without libunwind");
		return -EINVAL;
	}
#endif
	return 0;
}
