/* pmbench events: aliases, what they resolve to here, whether they open. */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"
#include "counters/counters.h"
#include "util/table.h"

enum { OPT_NO_OPEN = PM_OPT_LONG };

static const struct pm_option options[] = {
	PM_OPT(OPT_NO_OPEN, "no-open", NULL,
	       "only encode with libpfm4, do not try perf_event_open"),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "events", .operands = "[NAME...]", .options = options,
	.text = "Shows every event alias (or the NAMEs given: aliases or libpfm4\n"
		"strings), each candidate libpfm4 string and its encoding on this CPU,\n"
		"and whether the kernel lets pmbench open it; the first candidate that\n"
		"opens is the one a run counts.  Alias files: pmbench-events(5).\n",
};

static const char *type_name(uint32_t type)
{
	switch (type) {
	case PERF_TYPE_HARDWARE: return "hardware";
	case PERF_TYPE_SOFTWARE: return "software";
	case PERF_TYPE_HW_CACHE: return "hw-cache";
	case PERF_TYPE_RAW: return "raw";
	case PERF_TYPE_TRACEPOINT: return "tracepoint";
	default: return "pmu";
	}
}

/* An event's name and status, its description below the status. */
static void print_event_head(const struct pm_event *ev, bool opened)
{
	struct pm_table *t = pm_table_new();

	pm_table_no_head(t);
	pm_table_add_col(t, "event", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "status", NULL, PM_COL_LEFT);
	/* the status at column 17, as far as names allow */
	pm_table_min_width(t, 0, 15);
	pm_table_row(t, ev->name);
	pm_table_cell(t, 0, ev->name, NULL);
	if (ev->status == PM_CNT_OK)
		pm_table_cellf(t, 1, "%s %s%s", opened ? "ok:" : "encodes:", ev->event,
			       ev->split ? " (user and kernel counted separately)" :
			       ev->user_only ? " (user space only: perf_event_paranoid)" : "");
	else
		/* why: said once for all the events it stops, at the end */
		pm_table_cell(t, 1, "<not supported>", NULL);
	if (ev->desc) {
		pm_table_row(t, NULL);
		pm_table_cell(t, 1, ev->desc, NULL);
	}
	pm_table_print(t, stdout, PM_TABLE_TEXT);
	pm_table_free(t);
}

/* The first event before i not supported for the same reason, NULL
 * when i is the first. */
static const char *same_reason(const struct pm_events *ev, size_t i)
{
	const char *why = ev->v[i].reason ? ev->v[i].reason : "";
	size_t j;

	if (ev->v[i].status == PM_CNT_OK)
		return NULL;
	for (j = 0; j < i; j++)
		if (ev->v[j].status != PM_CNT_OK &&
		    !strcmp(ev->v[j].reason ? ev->v[j].reason : "", why))
			return ev->v[j].name;
	return NULL;
}

/* The events not supported, those with one reason on one line. */
static void unsupported_summary(const struct pm_events *ev)
{
	size_t i, j;
	bool first = true;

	for (i = 0; i < ev->n; i++) {
		if (ev->v[i].status == PM_CNT_OK || same_reason(ev, i))
			continue;
		printf("%s%s", first ? "\nnot supported here: " : "not supported here: ",
		       ev->v[i].name);
		first = false;
		for (j = i + 1; j < ev->n; j++)
			if (ev->v[j].status != PM_CNT_OK && same_reason(ev, j) &&
			    !strcmp(same_reason(ev, j), ev->v[i].name))
				printf(", %s", ev->v[j].name);
		printf(": %s\n", ev->v[i].reason ? ev->v[i].reason : "");
	}
}

/* An event's candidates, aligned among themselves. */
static void add_candidates(struct pm_table *t, const struct pm_event *ev, bool opened)
{
	size_t i;

	for (i = 0; i < ev->ncand; i++) {
		const struct pm_candidate *c = &ev->cand[i];
		bool chosen = ev->status == PM_CNT_OK && ev->event &&
			      !strcmp(ev->event, c->event);

		pm_table_row(t, c->event);
		pm_table_cell(t, 0, chosen ? "*" : " ", NULL);
		pm_table_cell(t, 1, c->event, NULL);
		if (c->encode_err) {
			pm_table_cellf(t, 2, "libpfm4: %s", pfm_strerror(c->encode_err));
			continue;
		}
		if (!c->fstr) {
			pm_table_cell(t, 2, "not tried (an earlier candidate won)", NULL);
			continue;
		}
		if (c->config1)
			pm_table_cellf(t, 2, "%s config=%#llx config1=%#llx", type_name(c->type),
				       (unsigned long long)c->config,
				       (unsigned long long)c->config1);
		else
			pm_table_cellf(t, 2, "%s config=%#llx", type_name(c->type),
				       (unsigned long long)c->config);
		if (!opened)
			continue;
		if (c->open_err)
			pm_table_cellf(t, 3, "opens: no (%s)", strerrorname_np(c->open_err));
		else
			pm_table_cell(t, 3, "opens: yes", NULL);
	}
}

/* The events asked for on the command line, else every alias's name. */
static char **event_names(char **args, int nargs, const struct pm_aliases *aliases)
{
	char **names;
	size_t i;

	if (nargs > 0) {
		names = pm_xcalloc((size_t)nargs + 1, sizeof(char *));
		for (i = 0; i < (size_t)nargs; i++)
			names[i] = pm_xstrdup(args[i]);
	} else {
		names = pm_xcalloc(aliases->n + 1, sizeof(char *));
		for (i = 0; i < aliases->n; i++)
			names[i] = pm_xstrdup(aliases->v[i].name);
	}
	return names;
}

/* Each resolved event: its head line and a table of its candidates. */
static void print_events(const struct pm_events *ev, bool do_open)
{
	struct pm_table *t;
	size_t i;

	/* a table per event: one long libpfm4 string widens only its own */
	for (i = 0; i < ev->n; i++) {
		t = pm_table_new();
		pm_table_no_head(t);
		pm_table_indent(t, 2);
		pm_table_add_col(t, "", NULL, PM_COL_LEFT);
		pm_table_add_col(t, "candidate", NULL, PM_COL_LEFT);
		pm_table_add_col(t, "encoding", NULL, PM_COL_LEFT);
		pm_table_add_col(t, "opens", NULL, PM_COL_LEFT);
		if (i)
			putchar('\n');
		print_event_head(&ev->v[i], do_open);
		add_candidates(t, &ev->v[i], do_open);
		pm_table_print(t, stdout, PM_TABLE_TEXT);
		pm_table_free(t);
	}
}

int cmd_events(int argc, char **argv)
{
	struct pm_aliases aliases = { 0 };
	struct pm_events ev = { 0 };
	bool do_open = true;
	char **names;
	const char *pmu;
	struct pm_opts p;
	struct pm_err e;
	int c, err, load_err;

	pm_opts_start(&p, &usage, argc, argv);
	while ((c = pm_opts_next(&p)) != -1) {
		switch (c) {
		case OPT_NO_OPEN:
			do_open = false;
			break;
		default:
			return pm_cli_end_option(&p, c);
		}
	}
	if (pm_pfm_init(&e)) {
		pm_error("%s", e.msg);
		return PM_EXIT_RUNTIME;
	}
	/* A broken alias file is reported, the rest still shown, exit 2. */
	load_err = pm_aliases_load_dir(&aliases, pm_aliases_default_dir(), &e);
	if (load_err)
		pm_error("%s", e.msg);
	names = event_names(argv + optind, argc - optind, &aliases);
	err = pm_events_resolve(&ev, names, &aliases, do_open, &e);
	if (!err && optind >= argc)
		err = pm_events_add_all_software(&ev, &e);
	if (err) {
		const char *which = NULL, *hint = pm_suggest_event((const char *const *)names,
								   &aliases, &which);

		if (hint && strstr(e.msg, "unknown event"))
			pm_error("%s; did you mean '%s' for '%s'?", e.msg, hint, which);
		else
			pm_error("%s", e.msg);
		pm_strv_free(names);
		pm_aliases_free(&aliases);
		pm_events_free(&ev);
		return PM_EXIT_USAGE;
	}
	pm_strv_free(names);
	pmu = pm_pfm_core_pmu();
	printf("core PMU (libpfm4): %s; hardware PMU in sysfs: %s; alias files: %s\n\n",
	       pmu ? pmu : "none detected", pm_have_hw_pmu() ? "yes" : "no",
	       pm_aliases_default_dir());
	print_events(&ev, do_open);
	unsupported_summary(&ev);
	pm_events_free(&ev);
	pm_aliases_free(&aliases);
	return load_err ? pm_exit_status(load_err) : PM_EXIT_OK;
}
