/*
 * Importing lmbench summaries.
 *
 * Mail mangles lmbench summaries: archives collapse runs of blanks or a
 * whole message onto one line, mailers wrap rows at 72 columns, lists
 * append footers.  So the text is read as tokens: a table starts at its
 * title, its column heads are matched word for word against the layouts
 * lmbench printed (results/lmbench.c), its rows start at "HOST Linux
 * RELEASE" and end where their figures end; other text is skipped.
 * '-', '-1' and blank cells are "not measured".  getsummary prints a
 * missing figure as blanks in any column, so a row with fewer figures
 * than columns is placed by the characters' columns when the row kept
 * its blanks, else by the shapes getsummary prints figures in (lmbench
 * cuts every figure to its field); figures that can still be in more
 * than one column are left out with a warning, never guessed.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/common.h"
#include "results/lmbench.h"
#include "sysinfo/sysinfo.h"

/* Characters (not bytes) of UTF-8 text: lmbench cut fields by bytes of
 * what may have been Latin-1. */
static size_t utf8_chars(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

/* ---- tokens ---- */

struct tok {
	const char *s;
	size_t len;
	int line, col;		/* col: tabs expanded, after the quote marks */
	bool para;		/* an empty line comes before it */
	bool bol;		/* the first on its line */
};

struct toks {
	struct tok *v;
	size_t n;
	char *buf;
};

static void tokenize(const char *text, struct toks *t)
{
	size_t cap = 0, i;
	char *p;
	int line = 0;
	bool para = false;

	memset(t, 0, sizeof(*t));
	t->buf = pm_import_utf8_copy(text);
	for (p = t->buf; *p; line++) {
		char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		size_t q = pm_import_quote_len(p, len), j;
		bool any = false;
		int col = 0;

		for (i = q; i < len; i = j) {
			if (isspace((unsigned char)p[i])) {
				/* a mailer may have turned blanks into tabs */
				col = p[i] == '\t' ? (col / 8 + 1) * 8 : col + 1;
				j = i + 1;
				continue;
			}
			for (j = i; j < len && !isspace((unsigned char)p[j]); j++)
				;
			if (t->n == cap) {
				cap = cap ? 2 * cap : 256;
				t->v = pm_xrealloc(t->v, cap * sizeof(*t->v));
			}
			t->v[t->n++] = (struct tok){ p + i, j - i, line, col, para, !any };
			col += (int)(j - i);
			para = false;
			any = true;
		}
		if (!any && t->n)
			para = true;
		p = eol ? eol + 1 : p + len;
	}
	/* every token is followed by a blank, a newline or the end */
	for (i = 0; i < t->n; i++)
		((char *)t->v[i].s)[t->v[i].len] = '\0';
}

static bool is_dash(const struct toks *t, size_t i)
{
	return i < t->n && strspn(t->v[i].s, "-") == t->v[i].len;
}

/* Tokens of t from i equal to the words of phrase: their count, or 0. */
static size_t match_phrase(const struct toks *t, size_t i, const char *phrase)
{
	const char *p = phrase;
	size_t k = i, n;

	for (;;) {
		p += strspn(p, " ");
		if (!*p)
			return k - i;
		n = strcspn(p, " ");
		if (k >= t->n || t->v[k].len != n || memcmp(t->v[k].s, p, n))
			return 0;
		k++;
		p += n;
	}
}

static bool heads_match(const struct toks *t, size_t from, size_t to,
			const char *const *heads)
{
	size_t h, i = from, m;

	for (h = 0; h < PM_LMB_MAX_HEADS && heads[h]; h++) {
		if (!heads[h][strspn(heads[h], " ")])
			continue;
		m = match_phrase(t, i, heads[h]);
		if (!m)
			return false;
		i += m;
	}
	return i == to;
}

/* ---- numbers ---- */

/*
 * An lmbench figure as getsummary prints it: "0.49", "166." (cut after
 * the point), "2972", "33.K" and "41.5K" (thousands), "1.2M", "1e-04".
 * The value times 10^shift, correctly rounded from the exact decimal,
 * so "2.14310" us becomes 2143.1 ns and prints back the same.
 */
static bool lmb_number(const char *s, int shift, double *out)
{
	char digits[48], buf[64];
	size_t nd = 0;
	long exp = 0;
	const char *p = s;

	if (!isdigit((unsigned char)*p))
		return false;
	for (; isdigit((unsigned char)*p); p++) {
		if (nd >= 40)
			return false;
		digits[nd++] = *p;
	}
	if (*p == '.') {
		for (p++; isdigit((unsigned char)*p); p++, exp--) {
			if (nd >= 40)
				return false;
			digits[nd++] = *p;
		}
	}
	if (*p == 'K' || *p == 'M') {
		exp += *p == 'K' ? 3 : 6;
		p++;
	} else if (*p == 'e' || *p == 'E') {
		char *end;
		long x;

		p++;
		if (!isdigit((unsigned char)p[*p == '-' || *p == '+']))
			return false;
		x = strtol(p, &end, 10);
		if (x < -300 || x > 300)
			return false;
		exp += x;
		p = end;
	}
	if (*p)
		return false;
	snprintf(buf, sizeof(buf), "%.*se%ld", (int)nd, digits, exp + shift);
	*out = strtod(buf, NULL);
	return isfinite(*out);
}

/* ---- lmbench: sections and rows ---- */

/* One row of one section: its figures' text by column of the section. */
struct lrow {
	size_t first;			/* host token */
	const char *host, *rel;
	const char *desc;		/* Description, or NULL */
	size_t cells, ncells;		/* its cells: figures, '-' and '-1' */
	size_t extra;			/* figures after the last column */
	size_t last;			/* its last token */
	const char *text[PM_LMB_MAX_COLS];	/* NULL: not measured or left out */
	char *left_out;			/* figures not placed, and why */
};

struct lsec {
	const struct pm_lmb_section *sec;
	bool layout3;			/* lmbench 3's heads: results/lmbench.c's layout */
	signed char cols[PM_LMB_MAX_COLS];	/* columns shown, in order */
	size_t ncols;
	size_t dash0;			/* first token of the column rules */
	size_t start, rows_from, end;	/* title, first row, next section */
	struct lrow *rows;
	size_t nrows;
	int *run;			/* row -> run */
};

struct lctx {
	const char *file;
	unsigned flags;
	struct toks t;
	struct lsec *secs;
	size_t nsecs;
	struct pm_import_log *log;
	struct pm_err *e;
};

static void strv_push(char ***v, size_t *n, char *s)
{
	*v = pm_xgrow(*v, *n, sizeof(char *));
	(*v)[(*n)++] = s;
}

static void log_note(struct lctx *c, char *msg)
{
	if (c->log)
		strv_push(&c->log->notes, &c->log->nnotes, msg);
	else
		free(msg);
}

static int row_err(struct lctx *c, const struct lsec *s, size_t r,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* "FILE: SECTION: row N (HOST Linux REL): what". */
static int row_err(struct lctx *c, const struct lsec *s, size_t r,
		   const char *fmt, ...)
{
	char what[700];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return pm_err_set(c->e, -EINVAL, "%s: %s: row %zu (%s Linux %s): %s", c->file,
			  s->sec->name, r + 1, s->rows[r].host, s->rows[r].rel, what);
}

/* A column's head as a short name: "UDP" for "lat: UDP". */
static const char *col_name(const struct pm_lmb_column *col)
{
	if (col->kind == PM_LMB_MHZ)
		return "Mhz";
	if (col->kind == PM_LMB_DESC)
		return "Description";
	if (col->kind == PM_LMB_GUESS)
		return "Guesses";
	return strchr(col->key, ':') + 2;
}

/* "HOST Linux RELEASE" starts a row (a host named Linux included). */
static bool row_start(const struct toks *t, size_t i, size_t end)
{
	return i + 2 < end && !strcmp(t->v[i + 1].s, "Linux") &&
	       strcmp(t->v[i + 2].s, "Linux");
}

/* lmbench writes -1 for a figure it did not get, and people write '-'. */
static bool not_measured(const char *s)
{
	return !strcmp(s, "-") || !strcmp(s, "-1");
}

static bool is_figure(const struct tok *k)
{
	double v;

	return lmb_number(k->s, 0, &v);
}

/* What a row holds in a column: a figure, or not measured. */
static bool is_cell(const struct tok *k)
{
	return not_measured(k->s) || is_figure(k);
}

/* A table also ends without an empty line: at a rule (or a signature's
 * "--"), or at the column heads of another table. */
static bool table_end(const struct toks *t, size_t i)
{
	return (is_dash(t, i) && t->v[i].len >= 2) ||
	       (!strcmp(t->v[i].s, "Host") && i + 1 < t->n && !strcmp(t->v[i + 1].s, "OS"));
}

/* Where a row's cells stop, whatever they are. */
static bool boundary(const struct toks *t, const struct lsec *s, size_t i)
{
	return i >= s->end || row_start(t, i, s->end) || table_end(t, i) || t->v[i].para;
}

static bool has_kind(const struct lsec *s, enum pm_lmb_kind kind)
{
	size_t i;

	for (i = 0; i < s->ncols; i++)
		if (s->sec->cols[s->cols[i]].kind == kind)
			return true;
	return false;
}

/* After skipped text a row starts only where one plausibly does: host
 * and release no longer than lmbench prints them, then a figure, at the
 * start of a line, or else two (prose seldom has two numbers in a row). */
static bool resumes_row(const struct toks *t, const struct lsec *s, size_t i)
{
	size_t k = i + 3, n = 0;

	if (!row_start(t, i, s->end) || utf8_chars(t->v[i].s) > 9 ||
	    utf8_chars(t->v[i + 2].s) > 7 || is_figure(&t->v[i]))
		return false;
	if (has_kind(s, PM_LMB_DESC) && k < s->end && !is_cell(&t->v[k]))
		k++;
	for (; k < s->end && n < 2 && is_cell(&t->v[k]); k++)
		n++;
	return n >= (t->v[i].bol ? 1u : 2u);
}

/* The words from..to, shortened, for a note. */
static char *quote_words(const struct toks *t, size_t from, size_t to)
{
	char buf[96] = "";
	size_t i, n = 0;

	for (i = from; i < to && n < 60; i++) {
		int w = snprintf(buf + n, sizeof(buf) - n, "%s%s", i > from ? " " : "", t->v[i].s);

		n = w < 0 || (size_t)w >= sizeof(buf) - n ? sizeof(buf) - 1 : n + (size_t)w;
	}
	if (n > 60)
		n = 60;
	while (n > 0 && ((unsigned char)buf[n] & 0xc0) == 0x80)
		n--;		/* not inside a character */
	buf[n] = '\0';
	return pm_xasprintf("\"%s%s\" (%zu word%s)", buf, i < to || n == 60 ? "..." : "",
			    to - from, to - from == 1 ? "" : "s");
}

/* Text in a table where a row belongs: skipped up to the next row or the
 * table's end, with a note. */
static size_t skip_text(struct lctx *c, const struct lsec *s, size_t i)
{
	const struct toks *t = &c->t;
	size_t j;
	char *what;

	for (j = i + 1; j < s->end; j++)
		if (table_end(t, j) || (t->v[j].para && !row_start(t, j, s->end)) ||
		    resumes_row(t, s, j))
			break;
	what = quote_words(t, i, j);
	if (s->nrows)
		log_note(c, pm_xasprintf("%s: %s: after row %zu (%s Linux %s), %s skipped: not figures",
					 c->file, s->sec->name, s->nrows, s->rows[s->nrows - 1].host,
					 s->rows[s->nrows - 1].rel, what));
	else
		log_note(c, pm_xasprintf("%s: %s: %s skipped where the first row belongs",
					 c->file, s->sec->name, what));
	free(what);
	return j;
}

static size_t phrase_words(const char *p)
{
	size_t n = 0;

	for (p += strspn(p, " "); *p; p += strspn(p, " "), n++)
		p += strcspn(p, " ");
	return n;
}

/* getsummary's guesses ("No L2 cache?") where a Memory latencies row's
 * figures end: their word count, or 0. */
static size_t guess_tokens(const struct toks *t, size_t at, size_t end)
{
	static const char *const guesses[] = { "No L1 cache?", "No L2 cache?", "Bad mhz?" };
	size_t g, n;

	for (g = 0; g < PM_ARRAY_SIZE(guesses); g++) {
		n = phrase_words(guesses[g]);
		if (at + n <= end && match_phrase(t, at, guesses[g]) == n)
			return n;
	}
	return 0;
}

/* Section titles followed by a rule; a title in prose is not one. */
static int find_sections(struct lctx *c)
{
	const struct toks *t = &c->t;
	size_t i, s, n;

	for (i = 0; i < t->n; i++) {
		for (s = 0; s < pm_lmb_nsections; s++) {
			const struct pm_lmb_section *sec = &pm_lmb_sections[s];
			size_t k;

			n = match_phrase(t, i, sec->title);
			if (!n)
				continue;
			k = i + n;
			if (sec->subtitle)
				k += match_phrase(t, k, sec->subtitle);
			if (!is_dash(t, k))
				continue;
			c->secs = pm_xgrow(c->secs, c->nsecs, sizeof(*c->secs));
			memset(&c->secs[c->nsecs], 0, sizeof(*c->secs));
			c->secs[c->nsecs].sec = sec;
			c->secs[c->nsecs].start = i;
			c->secs[c->nsecs].rows_from = k;	/* for now: the rule */
			c->nsecs++;
			i += n - 1;
			break;
		}
	}
	for (s = 0; s < c->nsecs; s++)
		c->secs[s].end = s + 1 < c->nsecs ? c->secs[s + 1].start : t->n;
	if (!c->nsecs)
		return pm_err_set(c->e, -EINVAL,
				  "%s: no lmbench table found (no table title such as \"%s\" followed by its rule)",
				  c->file, pm_lmb_sections[1].title);
	for (s = 0; s < c->nsecs; s++)
		for (i = 0; i < s; i++)
			if (c->secs[i].sec == c->secs[s].sec)
				return pm_err_set(c->e, -EINVAL,
						  "%s: %s: the table appears twice (two summaries in one file?)",
						  c->file, c->secs[s].sec->name);
	return 0;
}

/* Heads that are no lmbench layout: the error quotes the first 120 bytes. */
static int bad_heads(struct lctx *c, const char *section, size_t h0, size_t k)
{
	struct pm_buf seen = PM_BUF_INIT;
	size_t i;
	int err;

	for (i = h0; i < k && seen.len < 120; i++)
		pm_buf_addf(&seen, "%s%s", i > h0 ? " " : "", c->t.v[i].s);
	err = pm_err_set(c->e, -EINVAL,
			 "%s: %s: column heads \"%s%s\" are not those of an lmbench summary",
			 c->file, section, pm_buf_str(&seen), i < k ? " ..." : "");
	pm_buf_free(&seen);
	return err;
}

/* The rule, the column heads (which layout), the column rules. */
static int read_heads(struct lctx *c, struct lsec *s)
{
	const struct toks *t = &c->t;
	const struct pm_lmb_section *sec = s->sec;
	size_t k = s->rows_from, h0, v, i, nd;

	while (k < s->end && is_dash(t, k))
		k++;
	for (h0 = k; k < s->end && !is_dash(t, k); k++)
		;
	if (heads_match(t, h0, k, sec->heads)) {
		for (i = 0; i < sec->ncols; i++)
			s->cols[i] = (signed char)i;
		s->ncols = sec->ncols;
		s->layout3 = true;
	} else {
		for (v = 0; v < sec->nvariants; v++)
			if (heads_match(t, h0, k, sec->variants[v].heads))
				break;
		if (v == sec->nvariants)
			return bad_heads(c, sec->name, h0, k);
		for (s->ncols = 0; sec->variants[v].cols[s->ncols] >= 0; s->ncols++)
			s->cols[s->ncols] = sec->variants[v].cols[s->ncols];
	}
	s->dash0 = k;
	while (k < s->end && is_dash(t, k))
		k++;
	nd = k - s->dash0;
	if (nd != s->ncols + 2)
		return pm_err_set(c->e, -EINVAL,
				  "%s: %s: %zu column rules under the heads, but the heads name %zu columns",
				  c->file, sec->name, nd, s->ncols + 2);
	s->rows_from = k;
	return 0;
}

/*
 * Split a table into rows.  A row is its host, "Linux" and release, a
 * Description where the table has one, then cells up to one per column,
 * then a Guesses phrase where the table has one.  Text after that which
 * is not the next row ends the row and is skipped; the table ends at an
 * empty line, a rule, another table's heads or the next table's title.
 */
static int read_rows(struct lctx *c, struct lsec *s)
{
	const struct toks *t = &c->t;
	bool desc = has_kind(s, PM_LMB_DESC), guess = has_kind(s, PM_LMB_GUESS);
	size_t i = s->rows_from, m = s->ncols - desc - guess, k, r;

	while (i < s->end) {
		struct lrow *row;

		if (table_end(t, i) || (t->v[i].para && !row_start(t, i, s->end)))
			break;
		if (!row_start(t, i, s->end)) {
			i = skip_text(c, s, i);
			continue;
		}
		r = s->nrows;
		s->rows = pm_xgrow(s->rows, r, sizeof(*s->rows));
		row = memset(&s->rows[s->nrows++], 0, sizeof(*s->rows));
		row->first = i;
		row->host = t->v[i].s;
		row->rel = t->v[i + 2].s;
		/* lmbench prints "%-9.9s %13.13s": a longer one is not a host */
		if (utf8_chars(row->host) > 9 || utf8_chars(row->rel) > 7)
			return row_err(c, s, r,
				       "longer than lmbench's Host (9 characters) and OS (13) columns");
		if (is_figure(&t->v[i]))
			return row_err(c, s, r,
				       "the host \"%s\" reads as a figure: is the Host column empty?",
				       t->v[i].s);
		k = i + 3;
		if (desc && !boundary(t, s, k) && !is_cell(&t->v[k]))
			row->desc = t->v[k++].s;
		row->cells = k;
		while (row->ncells < m && !boundary(t, s, k) && is_cell(&t->v[k])) {
			row->ncells++;
			k++;
		}
		/* a word where a figure belongs ends the row, unless it is a
		 * figure gone wrong */
		if (row->ncells < m && !boundary(t, s, k) &&
		    isdigit((unsigned char)t->v[k].s[0]))
			return row_err(c, s, r, "\"%s\" is not a figure", t->v[k].s);
		while (!boundary(t, s, k) && is_figure(&t->v[k])) {
			row->extra++;
			k++;
		}
		if (guess)
			k += guess_tokens(t, k, s->end);
		row->last = k - 1;
		i = k;
		if (!boundary(t, s, i))
			i = skip_text(c, s, i);
	}
	if (i < s->end) {
		char *what = quote_words(t, i, s->end);

		log_note(c, pm_xasprintf("%s: %s: %s after the table skipped", c->file,
					 s->sec->name, what));
		free(what);
	}
	return 0;
}

/* Value columns (Mhz and figures) of a section, with their rule token. */
struct vcol {
	const struct pm_lmb_column *col;
	int index;			/* in the section's table */
	const struct tok *rule;
	bool exact;			/* getsummary's number format is known */
};

/* getsummary always prints the Mhz of Processor and Memory ("%4.0f",
 * "%4d"), a figure only when there is one. */
static bool required(const struct vcol *vc)
{
	return vc->col->fmt == PM_LMB_FIXED || vc->col->fmt == PM_LMB_INT;
}

/* Could getsummary have printed s in this column?  num(v, len) has a
 * fixed shape: below 10, len-2 decimals ("7.09560" needs a field of 7);
 * from 10, "%.1f" cut to len ("1269" is a cut "1269.3": a field of 4); K
 * and M likewise; the field then cut to its width. */
static bool printed_as(const char *s, const struct pm_lmb_column *col)
{
	char buf[64], *p = buf;
	double v;
	size_t n;

	if (col->fmt == PM_LMB_INUM)
		return strspn(s, "0123456789") == strlen(s) && strlen(s) <= col->len;
	if (col->fmt != PM_LMB_NUM || !lmb_number(s, 0, &v))
		return false;
	pm_lmb_num(buf, sizeof(buf), v, col->len);
	if (col->width < strlen(buf))
		buf[col->width] = '\0';
	p += strspn(p, " ");
	for (n = strlen(p); n > 0 && p[n - 1] == ' '; n--)
		p[n - 1] = '\0';
	return !strcmp(p, s);
}

static bool fits(const struct tok *v, const struct vcol *vc)
{
	size_t w = vc->col->width > vc->rule->len ? vc->col->width : vc->rule->len;

	if (not_measured(v->s) || required(vc))
		return true;
	if (vc->exact)
		return printed_as(v->s, vc->col);
	/* another version's layout: only its field widths are known */
	return v->len <= w;
}

/* The length of the n-th group of dashes of a layout's rule line. */
static size_t layout_rule_len(const char *dashes, size_t n)
{
	const char *p = dashes + strspn(dashes, " ");

	while (n-- > 0 && *p) {
		p += strspn(p, "-");
		p += strspn(p, " ");
	}
	return strspn(p, "-");
}

/* Whitespace intact: the row's characters say which column each figure
 * is in (getsummary right-aligns figures under their column rule). */
static bool place_by_columns(const struct toks *t, const struct lsec *s,
			     const struct lrow *row, const struct tok *vals, size_t n,
			     const struct vcol *vc, size_t m, int *at)
{
	const struct tok *r0 = &t->v[s->dash0], *host = &t->v[row->first];
	const struct tok *os = &t->v[s->dash0 + 1], *rel = &t->v[row->first + 2];
	size_t i, k = 0;

	for (i = 0; i < s->ncols + 2; i++)
		if (t->v[s->dash0 + i].line != r0->line)
			return false;
	if (t->v[row->last].line != host->line || host->col != r0->col ||
	    rel->col + (int)rel->len != os->col + (int)os->len)
		return false;
	for (i = 0; i < n; i++) {
		int e = vals[i].col + (int)vals[i].len - 1;

		while (k < m && !(vc[k].rule->col <= e &&
				  e < vc[k].rule->col + (int)vc[k].rule->len))
			k++;
		if (k == m)
			return false;
		at[i] = (int)k++;
	}
	return true;
}

#define SAT(x) ((x) > 2 ? 2 : (x))

/*
 * Fewer figures than columns and no character columns: the order-keeping
 * placements where every figure fits its field.  at[i] is the column of
 * figure i when that is the same in every placement, else -1; returns
 * the number of placements (2 meaning "several").
 */
static int place_by_widths(const struct tok *vals, size_t n,
			   const struct vcol *vc, size_t m, int *at)
{
	unsigned suf[PM_LMB_MAX_COLS + 2][PM_LMB_MAX_COLS + 2] = { { 0 } };
	unsigned pre[PM_LMB_MAX_COLS + 2][PM_LMB_MAX_COLS + 2] = { { 0 } };
	size_t i, j;

	/* suf[i][j]: placements of figures i.. in columns j.. */
	for (j = m + 1; j-- > 0;)
		suf[n][j] = j == m || (!required(&vc[j]) && suf[n][j + 1]);
	for (i = n; i-- > 0;)
		for (j = m; j-- > 0;)
			suf[i][j] = SAT((required(&vc[j]) ? 0 : suf[i][j + 1]) +
					(fits(&vals[i], &vc[j]) ? suf[i + 1][j + 1] : 0));
	/* pre[i][j]: placements of figures ..i-1 in columns ..j-1 */
	for (j = 0; j <= m; j++)
		pre[0][j] = j == 0 || (!required(&vc[j - 1]) && pre[0][j - 1]);
	for (i = 1; i <= n; i++)
		for (j = 1; j <= m; j++)
			pre[i][j] = SAT((required(&vc[j - 1]) ? 0 : pre[i][j - 1]) +
					(fits(&vals[i - 1], &vc[j - 1]) ? pre[i - 1][j - 1] : 0));
	for (i = 0; i < n; i++) {
		int where = -1, count = 0;

		for (j = 0; j < m; j++)
			if (fits(&vals[i], &vc[j]) && pre[i][j] && suf[i + 1][j + 1]) {
				where = (int)j;
				count++;
			}
		at[i] = count == 1 ? where : -1;
	}
	return (int)suf[0][0];
}

/*
 * Figures that cannot be placed: with --strict an error; else they are
 * left unmeasured, with one warning for the row saying which and why.
 */
static int unplaced(struct lctx *c, struct lsec *s, size_t r, const struct tok *vals,
		    size_t n, const int *at, const char *why, const char *hint)
{
	struct lrow *row = &s->rows[r];
	char out[400] = "";
	size_t i, len;

	if (c->flags & PM_IMPORT_STRICT)
		return row_err(c, s, r, "%s%s", why, hint ? hint : "");
	for (i = 0; i < n; i++) {
		if ((at && at[i] >= 0) || not_measured(vals[i].s))
			continue;
		len = strlen(out);
		if (len < 300)
			snprintf(out + len, sizeof(out) - len, "%s%s", len ? " " : "", vals[i].s);
		else if (!strstr(out, " ..."))
			snprintf(out + len, sizeof(out) - len, " ...");
	}
	row->left_out = pm_xasprintf("%s: row %zu (%s Linux %s): %s not imported: %s",
				     s->sec->name, r + 1, row->host, row->rel,
				     out[0] ? out : "no figure", why);
	if (c->log)
		strv_push(&c->log->warnings, &c->log->nwarnings,
			  pm_xasprintf("%s: %s", c->file, row->left_out));
	return 0;
}

/* Put a row's figures in their columns. */
static int read_row(struct lctx *c, struct lsec *s, size_t r)
{
	const struct toks *t = &c->t;
	struct lrow *row = &s->rows[r];
	const struct tok *vals = &t->v[row->cells];
	size_t n = row->ncells, m = 0, i, j;
	struct vcol vc[PM_LMB_MAX_COLS];
	int at[PM_LMB_MAX_COLS], ways;
	char why[400];

	for (i = 0; i < s->ncols; i++) {
		const struct pm_lmb_column *col = &s->sec->cols[s->cols[i]];

		if (col->kind == PM_LMB_DESC) {
			row->text[s->cols[i]] = row->desc;
		} else if (col->kind != PM_LMB_GUESS) {
			vc[m].col = col;
			vc[m].index = s->cols[i];
			vc[m].rule = &t->v[s->dash0 + 2 + i];
			vc[m].exact = s->layout3 &&
				      vc[m].rule->len == layout_rule_len(s->sec->dashes, i + 2);
			m++;
		}
	}
	if (row->extra) {
		snprintf(why, sizeof(why), "%zu figures for %zu columns", n + row->extra, m);
		return unplaced(c, s, r, vals, n + row->extra, NULL, why, NULL);
	}
	if (n == m) {
		for (i = 0; i < n; i++)
			at[i] = (int)i;
	} else if (!place_by_columns(t, s, row, vals, n, vc, m, at)) {
		ways = place_by_widths(vals, n, vc, m, at);
		if (ways == 0) {
			snprintf(why, sizeof(why),
				 "%zu figures for %zu columns, and they fit no set of the columns' fields",
				 n, m);
			return unplaced(c, s, r, vals, n, NULL, why, NULL);
		}
		for (i = 0; i < n && (at[i] >= 0 || not_measured(vals[i].s)); i++)
			;
		/* only '-' blanks unplaced ("Bad mhz?" rows): nothing lost */
		if (ways > 1 && i < n) {
			struct pm_buf cand = PM_BUF_INIT;
			bool filled[PM_LMB_MAX_COLS] = { false };
			int err;

			for (i = 0; i < n; i++)
				if (at[i] >= 0)
					filled[at[i]] = true;
			for (j = 0; j < m; j++)
				if (!filled[j]) {
					pm_buf_sep(&cand, ", ");
					pm_buf_add(&cand, col_name(vc[j].col));
				}
			snprintf(why, sizeof(why),
				 "%zu figures for %zu columns, and they do not show which %s blank (any of %s)",
				 n, m, m - n == 1 ? "one is" : "ones are", pm_buf_str(&cand));
			pm_buf_free(&cand);
			err = unplaced(c, s, r, vals, n, at, why,
				       "; write '-' in the blank column");
			if (err)
				return err;
		}
	}
	for (i = 0; i < n; i++) {
		const struct vcol *v = &vc[at[i] >= 0 ? at[i] : 0];
		double x;

		if (at[i] < 0 || not_measured(vals[i].s))
			continue;
		/* getsummary prints an unknown clock rate as -1, or 0 */
		if (v->col->kind == PM_LMB_MHZ && (!lmb_number(vals[i].s, 0, &x) || !(x > 0)))
			continue;
		row->text[v->index] = vals[i].s;
	}
	return 0;
}

static bool same_run(const struct lrow *a, const struct lrow *b)
{
	return !strcmp(a->host, b->host) && !strcmp(a->rel, b->rel);
}

/* Rows -> runs: the sections with most rows define the runs; a section
 * with fewer (getsummary skips a run without figures there) must fit
 * into them one way only. */
static int map_runs(struct lctx *c, size_t *nruns, struct lsec **ref)
{
	size_t s, i, j;

	*nruns = 0;
	*ref = NULL;
	for (s = 0; s < c->nsecs; s++)
		if (c->secs[s].nrows > *nruns) {
			*nruns = c->secs[s].nrows;
			*ref = &c->secs[s];
		}
	if (!*nruns)
		return pm_err_set(c->e, -EINVAL, "%s: the lmbench summary has no rows",
				  c->file);
	for (s = 0; s < c->nsecs; s++) {
		struct lsec *x = &c->secs[s];
		size_t n = x->nrows, N = *nruns, cols = N + 1;
		unsigned *w;
		int err = 0;

		x->run = pm_xcalloc(n ? n : 1, sizeof(int));
		if (n == N) {
			for (i = 0; i < n; i++) {
				if (!same_run(&x->rows[i], &(*ref)->rows[i]))
					return row_err(c, x, i, "row %zu of %s is %s Linux %s: the rows of the two sections differ",
						       i + 1, (*ref)->sec->name,
						       (*ref)->rows[i].host, (*ref)->rows[i].rel);
				x->run[i] = (int)i;
			}
			continue;
		}
		/* w[i][j]: ways to place rows i.. among runs j.., in order */
		w = pm_xcalloc((n + 1) * cols, sizeof(unsigned));
#define W(a, b) w[(a) * cols + (b)]
		for (j = 0; j <= N; j++)
			W(n, j) = 1;
		for (i = n; i-- > 0;)
			for (j = N; j-- > 0;)
				W(i, j) = SAT(W(i, j + 1) +
					      (same_run(&x->rows[i], &(*ref)->rows[j]) ?
					       W(i + 1, j + 1) : 0));
		if (W(0, 0) == 1) {
			for (i = 0, j = 0; i < n; i++, j++) {
				while (!(same_run(&x->rows[i], &(*ref)->rows[j]) &&
					 W(i + 1, j + 1)))
					j++;
				x->run[i] = (int)j;
			}
		} else {
			err = pm_err_set(c->e, -EINVAL, W(0, 0) ?
					 "%s: %s: %zu rows for %zu runs, and the hosts and releases do not show which runs they are" :
					 "%s: %s: its %zu rows do not match the %zu runs of the other sections",
					 c->file, x->sec->name, n, N);
		}
#undef W
		free(w);
		if (err)
			return err;
	}
	return 0;
}

/* ---- building results ---- */

static int add_figure(struct lctx *c, struct pm_result *r, const struct lsec *s,
		      size_t row, size_t col)
{
	const struct pm_lmb_column *lc = &s->sec->cols[col];
	const char *text = s->rows[row].text[col];
	struct pm_bench_ident id;
	const struct pm_bench_ident *rb = pm_lmb_bench(lc, &id) ? &id : NULL;
	const char *unit = pm_lmb_unit(lc);
	bool measured = pm_lmb_unit_is_measured(unit);
	bool mbs = !strcmp(unit, "MB/s");
	struct pm_bench_result *b;
	double v;
	size_t i;

	if (!lmb_number(text, !strcmp(unit, "us") ? 3 : 0, &v))
		return row_err(c, s, row, "\"%s\" is not a figure in column %s", text,
			       col_name(lc));
	if (mbs && !(v > 0))
		return row_err(c, s, row, "a bandwidth of %s in column %s", text, col_name(lc));
	b = pm_import_add_bench(r, mbs ? 1e9 / v : v);
	b->name = pm_xstrdup(pm_lmb_name(lc));
	b->group = pm_xstrdup(rb ? rb->group : "lmbench");
	b->summary = pm_xstrdup(pm_lmb_summary(lc));
	b->unit = pm_xstrdup(unit);
	b->lmbench = pm_xstrdup(lc->key);
	b->aim9 = rb && rb->aim9 ? pm_xstrdup(rb->aim9) : NULL;
	b->measured = measured;
	b->bytes_per_op = mbs ? 1048576 : 0;
	b->params = pm_xasprintf("lmbench summary: \"%s\" %s", text, unit);
	for (i = 0; i + 1 < r->nbench; i++)
		if (!strcmp(r->bench[i].name, b->name))
			return row_err(c, s, row, "columns %s and %s are both benchmark %s",
				       r->bench[i].lmbench, lc->key, b->name);
	return 0;
}

static int build_run(struct lctx *c, size_t run, size_t nruns,
		     const struct lsec *ref, struct pm_result *r)
{
	const struct lrow *id = &ref->rows[run];
	const char *mhz = NULL, *mhz_sec = NULL, *desc = NULL;
	bool mhz_col = false;
	json_t *imp, *left = json_array(), *si, *jmhz;
	size_t s, i, row, col;
	char *os;
	int err;
	double v;

	pm_result_init(r);
	r->source = pm_xstrdup("import:lmbench");
	r->version = pm_xstrdup(PACKAGE_VERSION);
	r->label = pm_xasprintf("%s Linux %s #%zu", id->host, id->rel, run + 1);
	/* sections in the table's order, as getsummary prints them */
	for (s = 0; s < pm_lmb_nsections; s++) {
		const struct lsec *x = NULL;

		for (i = 0; i < c->nsecs; i++)
			if (c->secs[i].sec == &pm_lmb_sections[s])
				x = &c->secs[i];
		if (!x)
			continue;
		for (row = 0; row < x->nrows && x->run[row] != (int)run; row++)
			;
		if (row == x->nrows)
			continue;
		if (x->rows[row].left_out)
			json_array_append_new(left, json_string(x->rows[row].left_out));
		for (col = 0; col < x->sec->ncols; col++) {
			const struct pm_lmb_column *lc = &x->sec->cols[col];
			const char *text = x->rows[row].text[col];

			mhz_col |= lc->kind == PM_LMB_MHZ;
			if (!text)
				continue;
			if (lc->kind == PM_LMB_DESC) {
				desc = text;
			} else if (lc->kind == PM_LMB_MHZ) {
				if (mhz && strcmp(mhz, text)) {
					err = row_err(c, x, row, "Mhz %s, but %s in %s", text,
						      mhz, mhz_sec);
					json_decref(left);
					return err;
				}
				if (!mhz) {
					mhz = text;
					mhz_sec = x->sec->name;
				}
			} else if ((err = add_figure(c, r, x, row, col))) {
				json_decref(left);
				return err;
			}
		}
	}
	os = pm_xasprintf("Linux %s", id->rel);
	imp = json_pack("{s:s,s:s,s:I,s:I,s:s,s:s,s:s?,s:s}",
			"format", "lmbench", "file", c->file,
			"row", (json_int_t)run + 1, "rows", (json_int_t)nruns,
			"host", id->host, "os", os, "description", desc,
			"note", "Host and OS as lmbench prints them: at most 9 and 13 characters");
	free(os);
	if (json_array_size(left))
		json_object_set(imp, "left_out", left);
	json_decref(left);
	r->options = json_pack("{s:o}", "import", imp);
	if (mhz && lmb_number(mhz, 0, &v))
		jmhz = v == floor(v) && v < 1e9 ? json_integer((json_int_t)v) : json_real(v);
	else
		jmhz = json_null();
	si = pm_import_sysinfo(id->host, id->rel, jmhz, "not in an lmbench summary");
	if (!mhz)
		pm_sysinfo_set_unavailable(si, PM_FP_CPU_CUR_MHZ,
					   mhz_col ? "not measured (Mhz -1 or blank in the lmbench summary)" :
						     "no Mhz column in the lmbench summary");
	r->sysinfo = si;
	return 0;
}

static void lctx_free(struct lctx *c)
{
	size_t s, r;

	for (s = 0; s < c->nsecs; s++) {
		for (r = 0; r < c->secs[s].nrows; r++)
			free(c->secs[s].rows[r].left_out);
		free(c->secs[s].rows);
		free(c->secs[s].run);
	}
	free(c->secs);
	free(c->t.v);
	free(c->t.buf);
}

void pm_import_log_free(struct pm_import_log *log)
{
	size_t i;

	for (i = 0; i < log->nwarnings; i++)
		free(log->warnings[i]);
	for (i = 0; i < log->nnotes; i++)
		free(log->notes[i]);
	free(log->warnings);
	free(log->notes);
	memset(log, 0, sizeof(*log));
}

int pm_import_lmbench_flags(const char *text, const char *file, unsigned flags,
			    struct pm_result **out, size_t *nout,
			    struct pm_import_log *log, struct pm_err *e)
{
	char *name = pm_import_utf8_copy(file);
	struct lctx c = { .file = name, .flags = flags, .log = log, .e = e };
	struct pm_result *runs = NULL;
	struct lsec *ref;
	size_t s, r, nruns = 0;
	int err;

	*out = NULL;
	*nout = 0;
	tokenize(text, &c.t);
	err = find_sections(&c);
	for (s = 0; !err && s < c.nsecs; s++)
		err = read_heads(&c, &c.secs[s]);
	for (s = 0; !err && s < c.nsecs; s++)
		err = read_rows(&c, &c.secs[s]);
	for (s = 0; !err && s < c.nsecs; s++)
		for (r = 0; !err && r < c.secs[s].nrows; r++)
			err = read_row(&c, &c.secs[s], r);
	if (!err)
		err = map_runs(&c, &nruns, &ref);
	if (!err) {
		runs = pm_xcalloc(nruns, sizeof(*runs));
		for (r = 0; !err && r < nruns; r++)
			err = build_run(&c, r, nruns, ref, &runs[r]);
	}
	lctx_free(&c);
	free(name);
	if (err) {
		pm_import_free(runs, nruns);
		return err;
	}
	*out = runs;
	*nout = nruns;
	return 0;
}

int pm_import_lmbench(const char *text, const char *file,
		      struct pm_result **out, size_t *nout, struct pm_err *e)
{
	return pm_import_lmbench_flags(text, file, 0, out, nout, NULL, e);
}
