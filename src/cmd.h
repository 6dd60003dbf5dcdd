/*
 * Subcommands: one file each (cmd-*.c), and what they share, one file
 * per concern (cli-*.c, in the sections below).  Only this layer prints
 * errors and chooses exit codes: 0 ok, 1 runtime error, 2 usage or bad
 * input.
 */
#ifndef PM_CMD_H
#define PM_CMD_H

#include <stdbool.h>

#include "explain/explain.h"
#include "sample/profile.h"
#include "util/options.h"

struct pm_err;

#define PM_EXIT_OK 0
#define PM_EXIT_RUNTIME 1
#define PM_EXIT_USAGE 2

int cmd_run(int argc, char **argv);
int cmd_list(int argc, char **argv);
int cmd_events(int argc, char **argv);
int cmd_show(int argc, char **argv);
int cmd_sysinfo(int argc, char **argv);
int cmd_help(int argc, char **argv);
int cmd_import(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_export(int argc, char **argv);
int cmd_ab(int argc, char **argv);
int cmd_log(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_round(int argc, char **argv);	/* internal: pmbench run's rounds */
int cmd_ksrc(int argc, char **argv);	/* internal: contrib/mkmechmap */
int cmd_stat(int argc, char **argv);
/* Is name a command of the table in main.c (not an internal one)? */
bool pm_is_command(const char *name);

/* ---- cli-msg.c: messages and exit statuses ---- */

/* "pmbench: " + message on stderr. */
void pm_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
void pm_warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Exit status for a library error: bad input (-EINVAL) is 2. */
int pm_exit_status(int err);
/* Bad usage: "pmbench CMD: " + message, the first synopsis line, status 2. */
int pm_usage_error(const struct pm_usage *u, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* ---- cli-man.c: manual pages ---- */

/* Open the manual page "pmbench-run" (section found automatically). */
int pm_show_manual(const char *page);

/* ---- cli-opt.c: option values ---- */

/*
 * A command declares its options once, in a table of struct pm_option
 * (util/options.h) that its struct pm_usage names with its operands and
 * text; pm_opts_start() and pm_opts_next() parse argv with it, and -h
 * prints the synopsis and option list made from it.  The default case of
 * the command's switch ends with pm_cli_end_option(): -h prints the
 * usage, --help opens pmbench-CMD's manual page, a missing value or an
 * unknown option is a usage error.  The exit status.
 */
int pm_cli_end_option(const struct pm_opts *p, int c);

/*
 * Option values of every command: a whole number or a number in [lo,
 * hi], both decimal (pm_parse_ulong, pm_parse_double: no "0x10", no
 * overflow), a percentage in [0, max) returned as a fraction, or the
 * --call-graph mode (fp, dwarf).  Bad input: the message and the usage
 * are printed (status 2 for the caller) and -EINVAL returned.
 */
int pm_cli_uint(const struct pm_usage *u, const char *opt, const char *s,
		unsigned long lo, unsigned long hi, unsigned long *out);
int pm_cli_double(const struct pm_usage *u, const char *opt, const char *s,
		  double lo, double hi, double *out);
int pm_cli_percent(const struct pm_usage *u, const char *opt, const char *s,
		   double max, double *frac);
int pm_cli_call_graph(const struct pm_usage *u, const char *s, bool *dwarf);

/* -e EVENTS of run and stat: those asked for (NULL: the default
 * hardware set), then the software events; nothing when !counters.
 * An unknown event is bad usage: the message is printed, -EINVAL. */
struct pm_events;
int pm_cli_events(const char *spec, bool counters, struct pm_events *ev);

/*
 * The options run and stat share: what is counted, sampled, saved and
 * printed (-e, -o, --format, --no-counters, --no-profile, -F, --call-graph,
 * --vmlinux, --label), their help worded as run's.  A command's table
 * takes them with PM_OPT_INCLUDE(pm_cli_measure_options), words a help
 * its own way with PM_OPT_HELP (stat: -F's default), and its switch
 * hands them to pm_cli_measure_option.
 */
enum {
	PM_OPT_FORMAT = 0x400, PM_OPT_NO_COUNTERS, PM_OPT_NO_PROFILE,
	PM_OPT_CALL_GRAPH, PM_OPT_VMLINUX, PM_OPT_LABEL,
};
extern const struct pm_option pm_cli_measure_options[];

struct pm_cli_measure {
	const char *events_spec;	/* -e, as given */
	const char *output;		/* -o */
	const char *format;		/* --format: table, json or csv */
	const char *label;		/* --label */
	bool format_given;
	bool counters, profile;		/* cleared by --no-counters, --no-profile */
	struct pm_profile_opts popts;	/* -F, --call-graph, --vmlinux */
};

/* The defaults: table, counters and profile on. */
void pm_cli_measure_init(struct pm_cli_measure *m);
/* Option c (from pm_opts_next) of command u: 0 when it was one of the
 * shared options and is taken, 1 when it is not one of them, else the
 * exit status of a bad value (message printed). */
int pm_cli_measure_option(const struct pm_usage *u, struct pm_cli_measure *m,
			  int c, const char *arg);

/* ---- cli-scratch.c: the set-up main() does around a command ---- */

/*
 * What main() sets up around a command: the flags of its row in the
 * command table (src/main.c), as git's RUN_SETUP.  main() calls
 * pm_cmd_setup() before the command and pm_cmd_teardown() after it.
 *
 * PM_CMD_SCRATCH: the command has a scratch directory, made at the first
 * pm_cmd_scratch() (after its options are checked: a usage error makes
 * none) as TMPDIR/pmbench-CMD.PID.XXXXXX (TMPDIR default /tmp), locked
 * while we run; that first call also
 * removes the ones this user's pmbench processes now gone (SIGKILL) left
 * in TMPDIR.  pm_cmd_teardown() removes it, and so does a second stop
 * signal.
 *
 * PM_CMD_SCRATCH_PLAIN: the scratch directory is TMPDIR/pmbench.PID.XXXXXX
 * whatever the command: run's benchmarks (stat, open) look up paths in
 * it, so the length of its name is part of their figures.
 *
 * PM_CMD_CATCH_STOP: the first SIGINT, SIGTERM or SIGHUP sets
 * pm_interrupted: the command ends its current trial, saves what it has
 * and returns pm_cmd_stop_status().  A second removes the scratch
 * directory and dies by the signal.  Caught from the start of the
 * command, or with PM_CMD_SCRATCH from when the directory is made
 * (before, there is nothing to save or remove).  SIGPIPE is ignored then.
 * ab's engine watches pm_interrupted too: the boots running are killed
 * and reaped, nothing is written; at a second signal the hook it gave
 * pm_cmd_on_stop_now() kills them.
 */
enum {
	PM_CMD_SCRATCH = 1u << 0,
	PM_CMD_CATCH_STOP = 1u << 1,
	PM_CMD_SCRATCH_PLAIN = 1u << 2,
};
void pm_cmd_setup(const char *name, unsigned flags);
void pm_cmd_teardown(void);
/* The scratch directory (made at the first call), or NULL with e set. */
const char *pm_cmd_scratch(struct pm_err *e);
/* From a signal handler: remove the scratch directory, die by sig. */
void pm_cmd_stop_now(int sig);
/* Called by pm_cmd_stop_now() first: fn (async-signal-safe) kills what
 * the command started that does not die with it. */
void pm_cmd_on_stop_now(void (*fn)(void));
/* 128 + the first stop signal (SIGINT when none was seen). */
int pm_cmd_stop_status(void);

/* handler on SIGINT, SIGTERM and SIGHUP (SA_RESTART); SIGPIPE ignored. */
void pm_catch_stop_signals(void (*handler)(int));

/* ---- cli-suggest.c: did you mean ---- */

/*
 * "did you mean": the candidate within two edits (Damerau-Levenshtein,
 * one for a word of three letters or fewer) of word, NULL when none or
 * two are equally near.  pm_suggest_bench over benchmarks and groups;
 * pm_error_unknown_bench says the error with it; pm_suggest_event over
 * the aliases for the first of names that is none (*which).
 */
struct pm_aliases;
const char *pm_did_you_mean(const char *word, const char *const *cands, size_t n);
const char *pm_suggest_bench(const char *word);
void pm_error_unknown_bench(const char *word);
const char *pm_suggest_event(const char *const *names, const struct pm_aliases *a,
			     const char **which);

/* ---- cli-explain.c: what explain and export share ---- */

/*
 * The options that shape explain's verdicts (--noise,
 * --single-run-margin, -b, --spread-from): a command's table takes them
 * with PM_OPT_INCLUDE(pm_cli_explain_options), its switch hands them to
 * pm_cli_explain_option.  export takes them too, so that what it writes
 * is what explain says.
 */
enum { PM_OPT_NOISE = 0x500, PM_OPT_MARGIN, PM_OPT_SPREAD_FROM };
extern const struct pm_option pm_cli_explain_options[];

struct pm_cli_explain {
	struct pm_explain_opts o;
	const char *spread_from;	/* history (default), none, a file or directory */
	struct pm_side spread;		/* loaded by pm_cli_explain_run */
};

void pm_cli_explain_init(struct pm_cli_explain *ce);
/* Option c of command u: 0 when taken, 1 when not one of them, else
 * the exit status of a bad value (message printed). */
int pm_cli_explain_option(const struct pm_usage *u, struct pm_cli_explain *ce,
			  int c, const char *arg);
/* The spread runs, then pm_explain(x, old, new): 0, or the exit status
 * with the message printed (nothing to free in x then). */
int pm_cli_explain_run(struct pm_cli_explain *ce, struct pm_side *old, struct pm_side *new,
		       struct pm_explanation *x);
void pm_cli_explain_free(struct pm_cli_explain *ce);

/* ---- cli-result.c: what results get from layers above theirs ---- */

/*
 * pm_side_load() for the commands that compare sides (explain, report,
 * ab): a benchmark whose file does not say what it exercises (an older
 * file, an import) gets the traits of this pmbench's benchmark of its
 * name, so that explain's rules, which read only the files, can use them.
 */
int pm_cli_side_load(struct pm_side *s, const char *path, struct pm_err *e);

/* Record the source file of each profiled kernel symbol (pmbench-result(5)
 * "sources") from a vmlinux's DWARF; vmlinux NULL: the one each profile
 * used. */
struct pm_result;
void pm_cli_kernel_sources(struct pm_result *r, const char *vmlinux);

/* The argv pmbench was started with (recorded in result files). */
extern int pm_argc;
extern char **pm_argv;

#endif
