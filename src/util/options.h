/*
 * Command-line options declared once, as git's parse-options: a table of
 * struct pm_option gives getopt_long its short string and long table,
 * and -h its synopsis and option list, so that the three cannot drift
 * (src/util/options.c).  Each command keeps one switch on the values
 * getopt_long returns, for what the options do.  In util, not cli: ab's
 * parser (src/ab/opts.c) declares its table too.
 */
#ifndef PM_UTIL_OPTIONS_H
#define PM_UTIL_OPTIONS_H

#include <getopt.h>
#include <stdio.h>

/* A long-only option's value is PM_OPT_LONG or above; below, val is the
 * short option's letter. */
#define PM_OPT_LONG 256
/* What pm_opts_next() returns for -h and --help, which every command
 * has without declaring them; ':' for a missing value, '?' for an
 * unknown option, as getopt_long. */
#define PM_OPT_USAGE 'h'
#define PM_OPT_MANUAL 0x7f00

enum {
	PM_OPT_REQUIRED = 1u << 0,	/* the synopsis shows it without [ ] */
	PM_OPT_OR_NEXT = 1u << 1,	/* one [ ] with the next: [--a | --b] */
	PM_OPT_NO_SYNOPSIS = 1u << 2,	/* listed, but in a line of .more only */
	PM_OPT_HIDDEN = 1u << 3,	/* taken, shown nowhere (an old name) */
	PM_OPT_HELP_FOR = 1u << 4,	/* not an option: the help of the
					   included option val, for this command */
};

struct pm_option {
	int val;			/* letter, or >= PM_OPT_LONG */
	const char *long_name;		/* NULL: the short one only */
	const char *argh;		/* the value's name (FILE); NULL: none */
	const char *help;		/* one paragraph, wrapped in the list */
	const char *values;		/* the synopsis shows the value so:
					   "table|json" (NULL: argh) */
	unsigned flags;			/* PM_OPT_* above */
	const struct pm_option *include;	/* another table's options here */
};

/* An option: its value (a letter, or PM_OPT_LONG and above), long name
 * (NULL: none), the value's name (NULL: a flag) and help; then
 * .values = ..., .flags = ... where needed. */
#define PM_OPT(v, l, a, h, ...) \
	{ .val = (v), .long_name = (l), .argh = (a), .help = (h), __VA_ARGS__ }
/* A shared table's options at this place (pm_cli_measure_options ...). */
#define PM_OPT_INCLUDE(table) { .include = (table) }
/* The help of an included option, worded for this command. */
#define PM_OPT_HELP(v, text) { .val = (v), .help = (text), .flags = PM_OPT_HELP_FOR }
#define PM_OPT_END { 0 }

/*
 * How a command is used: "usage: pmbench NAME [LEAD] [OPTIONS] OPERANDS",
 * its further synopsis lines, the option list and the text after it.
 */
struct pm_usage {
	const char *name;		/* "run": pmbench run, pmbench-run(1) */
	const char *lead;		/* operands before the options, or NULL */
	const char *operands;		/* after them: "[BENCH|GROUP...]" */
	const char *const *more;	/* NULL-ended "pmbench explain --rules" */
	const char *text;		/* after the option list, as written */
	const struct pm_option *options;	/* ends with PM_OPT_END */
	unsigned flags;
};

/* The first operand ends the options (stat's command words). */
#define PM_USAGE_IN_ORDER (1u << 0)

/* Options in a table, its includes flattened: more is a programming
 * error (pm_opts_start aborts). */
#define PM_OPT_MAX 64

struct pm_opts {
	const struct pm_usage *usage;
	int argc;
	char **argv;
	char shorts[2 * PM_OPT_MAX + 4];
	struct option longs[PM_OPT_MAX + 2];
};

/* Start parsing argv[1..] (optind reset): the getopt tables built from
 * usage->options.  Then pm_opts_next() until -1, optarg its value. */
void pm_opts_start(struct pm_opts *p, const struct pm_usage *usage, int argc, char **argv);
int pm_opts_next(struct pm_opts *p);

/* The synopsis (every "usage:" and "or:" line), the option list and the
 * text: what -h prints. */
void pm_usage_print(const struct pm_usage *usage, FILE *f);
/* The synopsis lines alone, each ending in '\n' (free it). */
char *pm_usage_synopsis(const struct pm_usage *usage);
/* The options of a table, includes flattened, PM_OPT_HELP_FOR entries
 * left out: how many, at most max put in out. */
size_t pm_options_flat(const struct pm_option *table, const struct pm_option **out,
		       size_t max);

#endif
