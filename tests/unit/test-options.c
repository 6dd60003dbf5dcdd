/* Options declared once (util/options.h): getopt's tables and -h's text
 * come from the one table, so every declared option is parsed and shown. */
#include "config.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "util/options.h"

enum {
	OPT_FORMAT = PM_OPT_LONG, OPT_NO_COUNTERS, OPT_INSTANCES, OPT_THREADS,
	OPT_ORIGIN, OPT_LIST_KEYS, OPT_PARTIAL, OPT_LONG_ONE,
};

static const struct pm_option shared[] = {
	PM_OPT('e', "events", "EVENTS", "events to count, comma-separated"),
	PM_OPT(OPT_NO_COUNTERS, "no-counters", NULL, "the shared wording"),
	PM_OPT_END
};

static const struct pm_option options[] = {
	PM_OPT(OPT_ORIGIN, "origin", "NAME", "the submitting system (required)",
	       .flags = PM_OPT_REQUIRED),
	PM_OPT(OPT_FORMAT, "format", "FMT",
	       "what to print on stdout: table (the default, aligned columns for a "
	       "terminal), json (the result file as stored, for tools and scripts)",
	       .values = "table|json"),
	PM_OPT_INCLUDE(shared),
	PM_OPT_HELP(OPT_NO_COUNTERS, "this command's wording"),
	PM_OPT('v', "verbose", NULL, "a detailed block per benchmark"),
	PM_OPT('n', NULL, "N", "a short option only"),
	PM_OPT(OPT_INSTANCES, "instances", "LIST", "copies as processes",
	       .flags = PM_OPT_OR_NEXT),
	PM_OPT(OPT_THREADS, "threads", "LIST", "the same with threads"),
	PM_OPT(OPT_LIST_KEYS, "list-keys", NULL, "the table of keys instead",
	       .flags = PM_OPT_NO_SYNOPSIS),
	PM_OPT(OPT_PARTIAL, "partial", NULL, NULL, .flags = PM_OPT_HIDDEN),
	PM_OPT(OPT_LONG_ONE, "a-rather-long-option", "VALUE", "help on a line of its own"),
	PM_OPT_END
};

static const struct pm_usage usage = {
	.name = "test", .operands = "[FILE...]", .options = options,
	.more = (const char *const[]){ "--list-keys [--format table|json]", NULL },
	.text = "Text after the options.\n",
};

/* noinline: inlined, gcc 12 takes pointers into the text for pointers
 * to buf itself (a false -Wdangling-pointer) */
static __attribute__((noinline)) char *usage_text(void)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	pm_usage_print(&usage, f);
	fclose(f);
	return buf;
}

/* Blanks and line breaks as one blank: wrapped help reads as written. */
static char *squeeze(const char *s)
{
	char *out = pm_xstrdup(s), *w = out;

	for (; *s; s++)
		if (!(*s == ' ' || *s == '\n') || (w > out && w[-1] != ' '))
			*w++ = *s == '\n' ? ' ' : *s;
	*w = '\0';
	return out;
}

/* "-x" (an option with a letter: as the synopsis shows it) or "--long"
 * as a whole word in text. */
static bool names(const char *text, const struct pm_option *o)
{
	char *name = o->val < PM_OPT_LONG ? pm_xasprintf("-%c", o->val) :
					    pm_xasprintf("--%s", o->long_name);
	size_t n = strlen(name);
	const char *p;
	bool found = false;

	for (p = strstr(text, name); p && !found; p = strstr(p + 1, name))
		found = (p == text || strchr(" [|\n", p[-1])) && strchr(" ]|,\n", p[n]);
	free(name);
	return found;
}

START_TEST(every_option_listed)
{
	const struct pm_option *v[PM_OPT_MAX];
	size_t n = pm_options_flat(options, v, PM_OPT_MAX), i;
	char *text = usage_text(), *list = strstr(text, "\n\n"), *first, *or, *flat;

	ck_assert_uint_eq(n, 11);	/* the include's two among them */
	ck_assert_ptr_nonnull(list);
	*list = '\0';			/* text: the synopsis; list: the rest */
	list += 2;
	flat = squeeze(list);
	or = strstr(text, "\n   or: ");
	ck_assert_ptr_nonnull(or);
	first = pm_xasprintf("%.*s", (int)(or - text), text);
	for (i = 0; i < n; i++) {
		bool hidden = v[i]->flags & PM_OPT_HIDDEN;

		ck_assert_msg(names(list, v[i]) == !hidden, "option %d in the list", v[i]->val);
		ck_assert_msg(names(first, v[i]) == !(v[i]->flags & (PM_OPT_HIDDEN |
				PM_OPT_NO_SYNOPSIS)), "option %d in the synopsis", v[i]->val);
		if (!hidden && v[i]->val != OPT_NO_COUNTERS)
			ck_assert_msg(strstr(flat, v[i]->help), "help of %d", v[i]->val);
	}
	/* this command's wording of an included option */
	ck_assert_ptr_nonnull(strstr(flat, "--no-counters this command's wording"));
	ck_assert_ptr_null(strstr(flat, "the shared wording"));
	ck_assert_ptr_nonnull(strstr(or, "--list-keys"));
	free(first);
	free(flat);
	free(text);
}
END_TEST

START_TEST(synopsis_layout)
{
	char *syn = pm_usage_synopsis(&usage), *text = usage_text(), *line;

	ck_assert_str_eq(syn,
		"usage: pmbench test --origin NAME [--format table|json] [-e EVENTS]\n"
		"                    [--no-counters] [-v] [-n N]\n"
		"                    [--instances LIST | --threads LIST]\n"
		"                    [--a-rather-long-option VALUE] [FILE...]\n"
		"   or: pmbench test --list-keys [--format table|json]\n");
	/* -h: the synopsis, the list (a long option's help on its own
	 * line), the text; nothing past column 79 */
	ck_assert_ptr_nonnull(strstr(text, "\n      --a-rather-long-option VALUE\n"));
	ck_assert_ptr_nonnull(strstr(text, "\n  -n N "));
	ck_assert_ptr_nonnull(strstr(text, "\n  -e, --events EVENTS "));
	ck_assert_ptr_nonnull(strstr(text, "\n\nText after the options.\n"));
	for (line = text; *line; line += strcspn(line, "\n") + 1)
		ck_assert_uint_le(strcspn(line, "\n"), 79);
	free(syn);
	free(text);
}
END_TEST

START_TEST(getopt_tables)
{
	struct pm_opts p;
	size_t i;

	pm_opts_start(&p, &usage, 0, NULL);
	ck_assert_str_eq(p.shorts, ":e:vn:h");
	for (i = 0; p.longs[i].name; i++)
		;
	ck_assert_uint_eq(i, 11);	/* ten long names, and help */
	ck_assert_str_eq(p.longs[0].name, "origin");
	ck_assert_int_eq(p.longs[0].has_arg, required_argument);
	ck_assert_str_eq(p.longs[3].name, "no-counters");
	ck_assert_int_eq(p.longs[3].has_arg, no_argument);
	ck_assert_int_eq(p.longs[3].val, OPT_NO_COUNTERS);
	ck_assert_str_eq(p.longs[10].name, "help");
	ck_assert_int_eq(p.longs[10].val, PM_OPT_MANUAL);
}
END_TEST

/* The argument an error names, as pm_cli_end_option() says it. */
static const char *argv_at(const struct pm_opts *p)
{
	return p->argv[optind - 1];
}

static int parse_one(struct pm_opts *p, const struct pm_usage *u, int argc, char **argv)
{
	pm_opts_start(p, u, argc, argv);
	return pm_opts_next(p);
}

START_TEST(parse_values)
{
	char *argv[] = { "test", "-v", "--format", "json", "file", "--partial", "-n3", NULL };
	char *again[] = { "test", "-v", "--format", "json", "file", "--partial", "-n3", NULL };
	struct pm_usage in_order = usage;
	struct pm_opts p;

	pm_opts_start(&p, &usage, 7, argv);
	ck_assert_int_eq(pm_opts_next(&p), 'v');
	ck_assert_int_eq(pm_opts_next(&p), OPT_FORMAT);
	ck_assert_str_eq(optarg, "json");
	ck_assert_int_eq(pm_opts_next(&p), OPT_PARTIAL);	/* hidden, but taken */
	ck_assert_int_eq(pm_opts_next(&p), 'n');
	ck_assert_str_eq(optarg, "3");
	ck_assert_int_eq(pm_opts_next(&p), -1);
	ck_assert_str_eq(argv[optind], "file");
	/* PM_USAGE_IN_ORDER: the first operand ends the options */
	in_order.flags = PM_USAGE_IN_ORDER;
	pm_opts_start(&p, &in_order, 7, again);	/* getopt permuted argv */
	ck_assert_int_eq(pm_opts_next(&p), 'v');
	ck_assert_int_eq(pm_opts_next(&p), OPT_FORMAT);
	ck_assert_int_eq(pm_opts_next(&p), -1);
	ck_assert_int_eq(optind, 4);
}
END_TEST

START_TEST(parse_errors)
{
	char *unknown[] = { "test", "--nope", NULL }, *short_unknown[] = { "test", "-Z", NULL };
	char *missing[] = { "test", "--format", NULL }, *missing_short[] = { "test", "-e", NULL };
	char *flag_value[] = { "test", "--verbose=1", NULL };
	char *h[] = { "test", "-h", NULL }, *help[] = { "test", "--help", NULL };
	struct pm_opts p;

	ck_assert_int_eq(parse_one(&p, &usage, 2, unknown), '?');
	ck_assert_str_eq(argv_at(&p), "--nope");
	ck_assert_int_eq(parse_one(&p, &usage, 2, short_unknown), '?');
	ck_assert_int_eq(parse_one(&p, &usage, 2, missing), ':');
	ck_assert_str_eq(argv_at(&p), "--format");
	ck_assert_int_eq(parse_one(&p, &usage, 2, missing_short), ':');
	ck_assert_str_eq(argv_at(&p), "-e");
	ck_assert_int_eq(parse_one(&p, &usage, 2, flag_value), '?');
	ck_assert_int_eq(parse_one(&p, &usage, 2, h), PM_OPT_USAGE);
	ck_assert_int_eq(parse_one(&p, &usage, 2, help), PM_OPT_MANUAL);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("options");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, every_option_listed);
	tcase_add_test(tc, synopsis_layout);
	tcase_add_test(tc, getopt_tables);
	tcase_add_test(tc, parse_values);
	tcase_add_test(tc, parse_errors);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
