/* Options declared once: getopt's tables and -h's text from one table
 * (util/options.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"
#include "util/options.h"
#include "util/table.h"

/* Lines of -h end by column 79; an option list's left column is this
 * wide at most (a longer option gets a line of its own). */
#define USAGE_WIDTH 79
#define LEAD_MAX 22

static bool is_end(const struct pm_option *o)
{
	return !o->val && !o->include;
}

static size_t flatten(const struct pm_option *t, const struct pm_option **out, size_t n,
		      size_t max)
{
	for (; t && !is_end(t); t++) {
		if (t->include)
			n = flatten(t->include, out, n, max);
		else if (!(t->flags & PM_OPT_HELP_FOR) && n++ < max)
			out[n - 1] = t;
	}
	return n;
}

size_t pm_options_flat(const struct pm_option *table, const struct pm_option **out,
		       size_t max)
{
	return flatten(table, out, 0, max);
}

/* A table the parser cannot serve is pmbench's bug, found at the first
 * use of the command (tests/cli/options.sh runs every one). */
static void bad_table(const struct pm_usage *u, const char *what, const char *name)
{
	fprintf(stderr, "pmbench %s: the option table %s: %s\n", u->name, what, name);
	abort();
}

static void check_table(const struct pm_usage *u, const struct pm_option **v, size_t n)
{
	const struct pm_option *t;
	size_t i, j;

	if (n > PM_OPT_MAX)
		bad_table(u, "holds more than PM_OPT_MAX options", "");
	for (i = 0; i < n; i++) {
		if (v[i]->val == PM_OPT_USAGE || v[i]->val == PM_OPT_MANUAL ||
		    (v[i]->val >= PM_OPT_LONG && !v[i]->long_name))
			bad_table(u, "declares -h, --help or an option without a name",
				  v[i]->long_name ? v[i]->long_name : "");
		for (j = 0; j < i; j++)
			if (v[i]->val == v[j]->val || (v[i]->long_name && v[j]->long_name &&
						       !strcmp(v[i]->long_name, v[j]->long_name)))
				bad_table(u, "declares an option twice",
					  v[i]->long_name ? v[i]->long_name : "");
	}
	for (t = u->options; t && !is_end(t); t++) {
		if (!(t->flags & PM_OPT_HELP_FOR))
			continue;
		for (i = 0; i < n && v[i]->val != t->val; i++)
			;
		if (i == n)
			bad_table(u, "words the help of an option it does not include", t->help);
	}
}

void pm_opts_start(struct pm_opts *p, const struct pm_usage *usage, int argc, char **argv)
{
	const struct pm_option *v[PM_OPT_MAX];
	size_t n = pm_options_flat(usage->options, v, PM_OPT_MAX), i, k = 0, s = 0;

	memset(p, 0, sizeof(*p));
	p->usage = usage;
	p->argc = argc;
	p->argv = argv;
	check_table(usage, v, n);
	if (usage->flags & PM_USAGE_IN_ORDER)
		p->shorts[s++] = '+';
	p->shorts[s++] = ':';
	for (i = 0; i < n; i++) {
		if (v[i]->val < PM_OPT_LONG) {
			p->shorts[s++] = (char)v[i]->val;
			if (v[i]->argh)
				p->shorts[s++] = ':';
		}
		if (v[i]->long_name)
			p->longs[k++] = (struct option){ v[i]->long_name,
				v[i]->argh ? required_argument : no_argument, NULL, v[i]->val };
	}
	p->shorts[s++] = PM_OPT_USAGE;
	p->longs[k] = (struct option){ "help", no_argument, NULL, PM_OPT_MANUAL };
	optind = 0;
	opterr = 0;
}

int pm_opts_next(struct pm_opts *p)
{
	return getopt_long(p->argc, p->argv, p->shorts, p->longs, NULL);
}

/* ---- -h ---- */

/* "-e EVENTS", "--format table|json": an option as the synopsis shows it. */
static void add_synopsis_item(struct pm_buf *b, const struct pm_option *o)
{
	if (o->val < PM_OPT_LONG)
		pm_buf_addf(b, "-%c", o->val);
	else
		pm_buf_addf(b, "--%s", o->long_name);
	if (o->argh)
		pm_buf_addf(b, " %s", o->values ? o->values : o->argh);
}

/* The words of the first synopsis line after "pmbench NAME": the lead,
 * "[-x ARG]" for each option ("[-a | -b]" for alternatives), operands. */
static void synopsis_words(const struct pm_usage *u, char ***w, size_t *nw)
{
	const struct pm_option *v[PM_OPT_MAX];
	size_t n = pm_options_flat(u->options, v, PM_OPT_MAX), i;
	struct pm_buf b = PM_BUF_INIT;
	bool bracket = false;

	if (u->lead)
		pm_strv_push(w, nw, u->lead);
	for (i = 0; i < n && i < PM_OPT_MAX; i++) {
		if (v[i]->flags & (PM_OPT_HIDDEN | PM_OPT_NO_SYNOPSIS))
			continue;
		if (b.len) {
			pm_buf_add(&b, " | ");
		} else {
			bracket = !(v[i]->flags & PM_OPT_REQUIRED);
			pm_buf_add(&b, bracket ? "[" : "");
		}
		add_synopsis_item(&b, v[i]);
		if ((v[i]->flags & PM_OPT_OR_NEXT) && i + 1 < n)
			continue;
		pm_buf_add(&b, bracket ? "]" : "");
		pm_strv_push(w, nw, pm_buf_str(&b));
		pm_buf_free(&b);
	}
	if (u->operands)
		pm_strv_push(w, nw, u->operands);
}

static void words_free(char **w, size_t n)
{
	while (n)
		free(w[--n]);
	free(w);
}

/* A further synopsis line as words: blanks inside [ ] do not split. */
static void split_words(const char *s, char ***w, size_t *nw)
{
	while (*s) {
		size_t len = 0;
		int depth = 0;
		char *word;

		while (s[len] && (depth > 0 || s[len] != ' ')) {
			depth += s[len] == '[' ? 1 : s[len] == ']' ? -1 : 0;
			len++;
		}
		word = pm_xasprintf("%.*s", (int)len, s);
		if (len)
			pm_strv_push(w, nw, word);
		free(word);
		s += len + (s[len] == ' ');
	}
}

/* head ("usage: pmbench run"), then the words, wrapped under the first. */
static void wrap_words(struct pm_buf *b, const char *head, char **w, size_t nw)
{
	size_t indent = strlen(head) + 1, at = strlen(head), i;

	pm_buf_add(b, head);
	for (i = 0; i < nw; i++) {
		if (at > indent - 1 && at + 1 + strlen(w[i]) > USAGE_WIDTH) {
			pm_buf_addf(b, "\n%*s", (int)indent - 1, "");
			at = indent - 1;
		}
		pm_buf_addf(b, " %s", w[i]);
		at += 1 + strlen(w[i]);
	}
	pm_buf_add(b, "\n");
}

char *pm_usage_synopsis(const struct pm_usage *u)
{
	struct pm_buf b = PM_BUF_INIT;
	char **w = NULL, *head;
	size_t nw = 0, i;

	synopsis_words(u, &w, &nw);
	head = pm_xasprintf("usage: pmbench %s", u->name);
	wrap_words(&b, head, w, nw);
	free(head);
	words_free(w, nw);
	head = pm_xasprintf("   or: pmbench %s", u->name);
	for (i = 0; u->more && u->more[i]; i++) {
		w = NULL;
		nw = 0;
		split_words(u->more[i], &w, &nw);
		wrap_words(&b, head, w, nw);
		words_free(w, nw);
	}
	free(head);
	return pm_buf_detach(&b);
}

/* This command's wording of an option's help (PM_OPT_HELP), else its own. */
static const char *help_of(const struct pm_usage *u, const struct pm_option *o)
{
	const struct pm_option *t;

	for (t = u->options; t && !is_end(t); t++)
		if ((t->flags & PM_OPT_HELP_FOR) && t->val == o->val)
			return t->help;
	return o->help ? o->help : "";
}

/* "-e, --events EVENTS", "    --format FMT": an option as the list shows it. */
static char *list_lead(const struct pm_option *o)
{
	struct pm_buf b = PM_BUF_INIT;

	if (o->val < PM_OPT_LONG)
		pm_buf_addf(&b, "-%c%s", o->val, o->long_name ? ", " : "");
	else
		pm_buf_add(&b, "    ");
	if (o->long_name)
		pm_buf_addf(&b, "--%s", o->long_name);
	if (o->argh)
		pm_buf_addf(&b, " %s", o->argh);
	return pm_buf_detach(&b);
}

/* Every option not hidden, its help wrapped beside it. */
static void print_options(const struct pm_usage *u, const struct pm_option **v, size_t n,
			  FILE *f)
{
	struct pm_table *t = pm_table_new();
	size_t i;

	pm_table_no_head(t);
	pm_table_indent(t, 2);
	pm_table_wrap_at(t, USAGE_WIDTH);
	pm_table_add_col(t, "option", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "help", NULL, PM_COL_LEFT | PM_COL_WRAP);
	for (i = 0; i < n; i++) {
		char *lead;

		if (v[i]->flags & PM_OPT_HIDDEN)
			continue;
		lead = list_lead(v[i]);
		if (strlen(lead) > LEAD_MAX) {
			char *line = pm_xasprintf("  %s", lead);

			pm_table_span(t, line);
			free(line);
			pm_table_row(t, NULL);
		} else {
			pm_table_row(t, NULL);
			pm_table_cell(t, 0, lead, NULL);
		}
		pm_table_cell(t, 1, help_of(u, v[i]), NULL);
		free(lead);
	}
	pm_table_print(t, f, PM_TABLE_TEXT);
	pm_table_free(t);
}

void pm_usage_print(const struct pm_usage *u, FILE *f)
{
	const struct pm_option *v[PM_OPT_MAX];
	size_t n = pm_options_flat(u->options, v, PM_OPT_MAX);
	char *syn = pm_usage_synopsis(u);

	fputs(syn, f);
	free(syn);
	if (n > PM_OPT_MAX)
		n = PM_OPT_MAX;
	if (n) {
		fputc('\n', f);
		print_options(u, v, n, f);
	}
	if (u->text) {
		fputc('\n', f);
		fputs(u->text, f);
	}
}
