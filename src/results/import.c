/*
 * Importing lmbench summaries and AIM9 logs.
 *
 * Mail mangles lmbench summaries: archives collapse runs of blanks or a
 * whole message onto one line, mailers wrap rows at 72 columns.  So the
 * text is read as tokens: a section starts at its title, its column
 * heads are matched word for word against the layouts lmbench printed
 * (results/lmbench.c), and its rows start at "HOST Linux RELEASE".
 * getsummary prints a missing figure as blanks in any column, so a row
 * with fewer figures than columns is placed by the characters' columns
 * when the row kept its blanks, else by the field widths (lmbench cuts
 * every figure to its field); a row that can still be placed more than
 * one way is an error, never a guess.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "results/import.h"
#include "results/lmbench.h"

/* ---- tokens ---- */

struct tok {
	const char *s;
	size_t len;
	int line, col;		/* col counted after the quote marks */
	bool para;		/* an empty line comes before it */
};

struct toks {
	struct tok *v;
	size_t n;
	char *buf;
};

/* Length of a line's "> > " quote marks. */
static size_t quote_len(const char *p, size_t len)
{
	size_t i, q = 0;

	for (i = 0; i < len && (p[i] == '>' || p[i] == ' ' || p[i] == '\t'); i++)
		if (p[i] == '>')
			q = i + 1;
	return q;
}

static void tokenize(const char *text, struct toks *t)
{
	size_t cap = 0, i;
	char *p;
	int line = 0;
	bool para = false;

	memset(t, 0, sizeof(*t));
	t->buf = pm_xstrdup(text);
	for (p = t->buf; *p; line++) {
		char *eol = strchr(p, '\n');
		size_t len = eol ? (size_t)(eol - p) : strlen(p);
		size_t q = quote_len(p, len), j;
		bool any = false;

		for (i = q; i < len; i = j) {
			if (isspace((unsigned char)p[i])) {
				j = i + 1;
				continue;
			}
			for (j = i; j < len && !isspace((unsigned char)p[j]); j++)
				;
			if (t->n == cap) {
				cap = cap ? 2 * cap : 256;
				t->v = pm_xrealloc(t->v, cap * sizeof(*t->v));
			}
			t->v[t->n++] = (struct tok){ p + i, j - i, line, (int)(i - q), para };
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

/* A plain decimal as AIM9 prints it ("%g", "%.2f"). */
static bool plain_number(const char *s, double *out)
{
	char *end;

	if (!isdigit((unsigned char)*s))
		return false;
	*out = strtod(s, &end);
	return !*end && isfinite(*out);
}

/* ---- lmbench: sections and rows ---- */

/* One row of one section: its figures' text by column of the section. */
struct lrow {
	size_t first;			/* host token */
	const char *host, *rel;
	const char *text[PM_LMB_MAX_COLS];	/* NULL: blank or left out */
	char *left_out;			/* partial import: what was left out */
};

struct lsec {
	const struct pm_lmb_section *sec;
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
	struct pm_err *e;
};

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
				  "%s: no lmbench summary table (no section title such as \"%s\" followed by its rule)",
				  c->file, pm_lmb_sections[1].title);
	for (s = 0; s < c->nsecs; s++)
		for (i = 0; i < s; i++)
			if (c->secs[i].sec == c->secs[s].sec)
				return pm_err_set(c->e, -EINVAL,
						  "%s: %s: the section appears twice (two summaries in one file?)",
						  c->file, c->secs[s].sec->name);
	return 0;
}

/* The rule, the column heads (which layout), the column rules. */
static int read_heads(struct lctx *c, struct lsec *s)
{
	const struct toks *t = &c->t;
	const struct pm_lmb_section *sec = s->sec;
	size_t k = s->rows_from, h0, v, i, nd;
	char seen[200] = "";

	while (k < s->end && is_dash(t, k))
		k++;
	for (h0 = k; k < s->end && !is_dash(t, k); k++)
		;
	if (heads_match(t, h0, k, sec->heads)) {
		for (i = 0; i < sec->ncols; i++)
			s->cols[i] = (signed char)i;
		s->ncols = sec->ncols;
	} else {
		for (v = 0; v < sec->nvariants; v++)
			if (heads_match(t, h0, k, sec->variants[v].heads))
				break;
		if (v == sec->nvariants) {
			for (i = h0; i < k && strlen(seen) < 120; i++)
				snprintf(seen + strlen(seen), sizeof(seen) - strlen(seen),
					 "%s%s", i > h0 ? " " : "", t->v[i].s);
			return pm_err_set(c->e, -EINVAL,
					  "%s: %s: column heads \"%s%s\" are not those of an lmbench summary",
					  c->file, sec->name, seen, i < k ? " ..." : "");
		}
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

/* Split the section's tokens into rows: they end at the next row, at an
 * empty line (text after the table) or at the next section. */
static int split_rows(struct lctx *c, struct lsec *s)
{
	const struct toks *t = &c->t;
	size_t i = s->rows_from, j;
	double v;

	while (i < s->end) {
		if (!row_start(t, i, s->end)) {
			if (t->v[i].para)
				break;
			return pm_err_set(c->e, -EINVAL,
					  "%s: %s: \"%s\" where a row (host, Linux, release, figures) %s",
					  c->file, s->sec->name, t->v[i].s,
					  s->nrows ? "or the end of the table belongs" : "belongs");
		}
		for (j = i + 1; j < s->end && !row_start(t, j, s->end) && !t->v[j].para; j++)
			;
		s->rows = pm_xgrow(s->rows, s->nrows, sizeof(*s->rows));
		memset(&s->rows[s->nrows], 0, sizeof(*s->rows));
		s->rows[s->nrows].first = i;
		s->rows[s->nrows].host = t->v[i].s;
		s->rows[s->nrows].rel = t->v[i + 2].s;
		s->nrows++;
		/* lmbench prints "%-9.9s %13.13s": a longer one is not a host */
		if (t->v[i].len > 9 || t->v[i + 2].len > 7)
			return row_err(c, s, s->nrows - 1,
				       "longer than lmbench's Host (9 characters) and OS (13) columns");
		if (lmb_number(t->v[i].s, 0, &v))
			return row_err(c, s, s->nrows - 1,
				       "the host \"%s\" reads as a figure: is the Host column empty?",
				       t->v[i].s);
		i = j;
	}
	return 0;
}

static size_t phrase_words(const char *p)
{
	size_t n = 0;

	for (p += strspn(p, " "); *p; p += strspn(p, " "), n++)
		p += strcspn(p, " ");
	return n;
}

/* "No L2 cache?" and the like at the end of a Memory latencies row. */
static size_t guess_tokens(const struct toks *t, size_t from, size_t end)
{
	static const char *const guesses[] = { "No L1 cache?", "No L2 cache?", "Bad mhz?" };
	size_t g, n;

	for (g = 0; g < PM_ARRAY_SIZE(guesses); g++) {
		n = phrase_words(guesses[g]);
		if (end - from >= n && match_phrase(t, end - n, guesses[g]) == n)
			return n;
	}
	return 0;
}

/* Value columns (Mhz and figures) of a section, with their rule token. */
struct vcol {
	const struct pm_lmb_column *col;
	int index;			/* in the section's table */
	const struct tok *rule;
};

/* getsummary always prints the Mhz of Processor and Memory ("%4.0f",
 * "%4d"), a figure only when there is one. */
static bool required(const struct vcol *vc)
{
	return vc->col->fmt == PM_LMB_FIXED || vc->col->fmt == PM_LMB_INT;
}

static bool fits(const struct tok *v, const struct vcol *vc)
{
	size_t w = vc->col->width > vc->rule->len ? vc->col->width : vc->rule->len;

	/* not cut to its field */
	if (required(vc))
		return true;
	return !strcmp(v->s, "-") || v->len <= w;
}

/* Whitespace intact: the row's characters say which column each figure
 * is in (getsummary right-aligns figures under their column rule). */
static bool place_by_columns(const struct toks *t, const struct lsec *s,
			     const struct lrow *row, size_t last,
			     const struct tok *vals, size_t n,
			     const struct vcol *vc, size_t m, int *at)
{
	const struct tok *r0 = &t->v[s->dash0], *host = &t->v[row->first];
	const struct tok *os = &t->v[s->dash0 + 1], *rel = &t->v[row->first + 2];
	size_t i, k = 0;

	for (i = 0; i < s->ncols + 2; i++)
		if (t->v[s->dash0 + i].line != r0->line)
			return false;
	if (t->v[last].line != host->line || host->col != r0->col ||
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

/* Put a row's figures in their columns. */
static int read_row(struct lctx *c, struct lsec *s, size_t r)
{
	const struct toks *t = &c->t;
	struct lrow *row = &s->rows[r];
	size_t end = r + 1 < s->nrows ? s->rows[r + 1].first : s->end;
	size_t from = row->first + 3, last, n = 0, m = 0, i, j;
	struct vcol vc[PM_LMB_MAX_COLS];
	const struct tok *vals;
	int at[PM_LMB_MAX_COLS], ways;
	double v;

	/* rows end at an empty line: find this one's end */
	for (j = from; j < end && !t->v[j].para; j++)
		;
	end = j;
	last = end - 1;
	for (i = 0; i < s->ncols; i++) {
		const struct pm_lmb_column *col = &s->sec->cols[s->cols[i]];

		if (col->kind == PM_LMB_DESC) {
			if (from >= end)
				return row_err(c, s, r, "no Description");
			row->text[s->cols[i]] = t->v[from++].s;
		} else if (col->kind == PM_LMB_GUESS) {
			end -= guess_tokens(t, from, end);
		} else {
			vc[m].col = col;
			vc[m].index = s->cols[i];
			vc[m++].rule = &t->v[s->dash0 + 2 + i];
		}
	}
	vals = &t->v[from];
	n = end > from ? end - from : 0;
	for (i = 0; i < n; i++)
		if (strcmp(vals[i].s, "-") && !lmb_number(vals[i].s, 0, &v) &&
		    !(n == m && vc[i].col->kind == PM_LMB_MHZ && !strcmp(vals[i].s, "-1")))
			return row_err(c, s, r, "\"%s\" is not a figure%s%s", vals[i].s,
				       n == m ? " in column " : "",
				       n == m ? col_name(vc[i].col) : "");
	if (n > m)
		return row_err(c, s, r, "%zu figures for %zu columns", n, m);
	if (n == m) {
		for (i = 0; i < n; i++)
			at[i] = (int)i;
	} else if (!place_by_columns(t, s, row, last, vals, n, vc, m, at)) {
		ways = place_by_widths(vals, n, vc, m, at);
		if (ways == 0)
			return row_err(c, s, r, "%zu figures do not fit the widths of the %zu columns",
				       n, m);
		for (i = 0; i < n && (at[i] >= 0 || !strcmp(vals[i].s, "-")); i++)
			;
		/* only '-' blanks are unplaced ("Bad mhz?" rows): nothing lost */
		if (ways > 1 && i < n) {
			char cand[300] = "", out[300] = "";
			bool filled[PM_LMB_MAX_COLS] = { false };

			for (i = 0; i < n; i++)
				if (at[i] >= 0)
					filled[at[i]] = true;
			for (j = 0; j < m; j++)
				if (!filled[j])
					snprintf(cand + strlen(cand), sizeof(cand) - strlen(cand),
						 "%s%s", cand[0] ? ", " : "", col_name(vc[j].col));
			if (!(c->flags & PM_IMPORT_PARTIAL))
				return row_err(c, s, r,
					       "%zu figures for %zu columns, and they do not show which %s blank (any of %s); write '-' in the blank column",
					       n, m, m - n == 1 ? "one is" : "ones are", cand);
			for (i = 0; i < n; i++)
				if (at[i] < 0)
					snprintf(out + strlen(out), sizeof(out) - strlen(out),
						 "%s%s", out[0] ? " " : "", vals[i].s);
			row->left_out = pm_xasprintf("%s: row %zu (%s Linux %s): %s not imported: %zu figures for %zu columns, and they do not show which %s blank (any of %s)",
						     s->sec->name, r + 1, row->host, row->rel,
						     out, n, m, m - n == 1 ? "one is" : "ones are",
						     cand);
		}
	}
	for (i = 0; i < n; i++)
		if (at[i] >= 0 && strcmp(vals[i].s, "-") && strcmp(vals[i].s, "-1"))
			row->text[vc[at[i]].index] = vals[i].s;
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

static const char *const not_in_summary[] = {
	"kernel.version", "kernel.machine", "kernel.config", "kernel.cmdline",
	"cpu.vendor", "cpu.model_name", "cpu.online", "cpu.caches",
	"memory.total_kb", "vulnerabilities", "clocksource.current", "libc",
};

static json_t *unavailable(const char *why)
{
	json_t *u = json_object();
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(not_in_summary); i++)
		json_object_set_new(u, not_in_summary[i], json_string(why));
	return u;
}

static struct pm_bench_result *add_bench(struct pm_result *r, double trial)
{
	struct pm_bench_result *b = pm_result_add(r);

	b->status = PM_BENCH_OK;
	b->overhead_ns = NAN;
	b->elapsed_s = NAN;
	b->ntrials = 1;
	b->trials = pm_xmalloc(sizeof(double));
	b->trials[0] = trial;
	pm_summarize(b->trials, 1, 0.95, &b->stats);
	return b;
}

static int add_figure(struct lctx *c, struct pm_result *r, const struct lsec *s,
		      size_t row, size_t col)
{
	const struct pm_lmb_column *lc = &s->sec->cols[col];
	const char *text = s->rows[row].text[col];
	const struct pm_bench *rb = pm_bench_find_lmbench(lc->key);
	bool measured = pm_lmb_unit_is_measured(lc->unit);
	bool mbs = !strcmp(lc->unit, "MB/s");
	struct pm_bench_result *b;
	double v;
	size_t i;

	if (!lmb_number(text, !strcmp(lc->unit, "us") ? 3 : 0, &v))
		return row_err(c, s, row, "\"%s\" is not a figure in column %s", text,
			       col_name(lc));
	if (mbs && !(v > 0))
		return row_err(c, s, row, "a bandwidth of %s in column %s", text, col_name(lc));
	b = add_bench(r, mbs ? 1e9 / v : v);
	b->name = pm_xstrdup(rb ? rb->name : lc->name);
	b->group = pm_xstrdup(rb ? rb->group : "lmbench");
	b->summary = pm_xstrdup(rb ? rb->summary : lc->summary);
	b->unit = pm_xstrdup(rb && rb->unit ? rb->unit : lc->unit);
	b->lmbench = pm_xstrdup(lc->key);
	b->aim9 = rb && rb->aim9 ? pm_xstrdup(rb->aim9) : NULL;
	b->measured = measured;
	b->bytes_per_op = mbs ? 1048576 : 0;
	b->params = pm_xasprintf("lmbench summary: \"%s\" %s", text, lc->unit);
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
	si = json_pack("{s:s,s:{s:s},s:{s:o},s:o}", "hostname", id->host,
		       "kernel", "release", id->rel, "cpu", "cur_mhz", jmhz,
		       "unavailable", unavailable("not in an lmbench summary"));
	if (!mhz)
		json_object_set_new(json_object_get(si, "unavailable"), "cpu.cur_mhz",
				    json_string("no Mhz column in the lmbench summary"));
	r->sysinfo = si;
	return 0;
}

void pm_import_free(struct pm_result *runs, size_t n)
{
	size_t i;

	for (i = 0; runs && i < n; i++)
		pm_result_free(&runs[i]);
	free(runs);
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

int pm_import_lmbench_flags(const char *text, const char *file, unsigned flags,
			    struct pm_result **out, size_t *nout,
			    struct pm_err *e)
{
	struct lctx c = { .file = file, .flags = flags, .e = e };
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
		err = split_rows(&c, &c.secs[s]);
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
	return pm_import_lmbench_flags(text, file, 0, out, nout, e);
}

/* ---- AIM9 ---- */

/* The classic AIM9 tests: a line starting with one of these must be a
 * result line; other text is skipped. */
static const char *const aim9_tests[] = {
	"add_double", "add_float", "add_long", "add_int", "add_short",
	"creat-clo", "page_test", "brk_test", "jmp_test", "signal_test",
	"exec_test", "fork_test", "link_test", "disk_rr", "disk_rw", "disk_rd",
	"disk_wrt", "disk_cp", "sync_disk_rw", "sync_disk_wrt", "sync_disk_cp",
	"disk_src", "div_double", "div_float", "div_long", "div_int",
	"div_short", "mul_double", "mul_float", "mul_long", "mul_int",
	"mul_short", "num_rtns_1", "new_raph", "trig_rtns", "matrix_rtns",
	"array_rtns", "string_rtns", "mem_rtns_1", "mem_rtns_2", "sort_rtns_1",
	"misc_rtns_1", "dir_rtns_1", "shell_rtns_1", "shell_rtns_2",
	"shell_rtns_3", "series_1", "shared_memory", "tcp_test", "udp_test",
	"fifo_test", "stream_pipe", "dgram_pipe", "pipe_cpy", "ram_copy",
	"sieve",
};

struct aline {
	int line;
	char *name, *desc, *ops_text;
	double elapsed_ms, rate, ops;
};

struct atest {
	char *name;
	struct aline *v;
	size_t n;
};

static bool aim9_known(const char *name)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(aim9_tests); i++)
		if (!strcmp(aim9_tests[i], name))
			return true;
	return pm_bench_find_aim9(name) != NULL;
}

static bool aim9_name(const char *s)
{
	bool letter = false;

	for (; *s; s++) {
		if (isalpha((unsigned char)*s))
			letter = true;
		else if (!isdigit((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	}
	return letter;
}

/* "creat-clo 10020 23.7525 23752.50 File Creations and Closes/second":
 * AIM9's log line (name, elapsed ms, iterations/s, operations/s). */
static int aim9_line(char *text, int lineno, const char *file, struct aline *a,
		     struct pm_err *e)
{
	char *w[64], *p, *save = NULL;
	size_t n = 0, i, len;
	bool known;

	for (p = strtok_r(text, " \t\r", &save); p && n < PM_ARRAY_SIZE(w);
	     p = strtok_r(NULL, " \t\r", &save))
		w[n++] = p;
	if (n < 1 || !aim9_name(w[0]))
		return 0;
	known = aim9_known(w[0]);
	if (n >= 5 && plain_number(w[1], &a->elapsed_ms) && plain_number(w[2], &a->rate) &&
	    plain_number(w[3], &a->ops) && (len = strlen(w[n - 1])) >= 7 &&
	    !strcmp(w[n - 1] + len - 7, "/second")) {
		if (!(a->ops > 0))
			return pm_err_set(e, -EINVAL, "%s:%d: %s: an operation rate of %s",
					  file, lineno, w[0], w[3]);
		a->line = lineno;
		a->name = pm_xstrdup(w[0]);
		a->ops_text = pm_xstrdup(w[3]);
		a->desc = pm_xstrdup(w[4]);
		for (i = 5; i < n; i++) {
			char *d = pm_xasprintf("%s %s", a->desc, w[i]);

			free(a->desc);
			a->desc = d;
		}
		return 1;
	}
	if (known && n >= 2 && plain_number(w[1], &a->elapsed_ms))
		return pm_err_set(e, -EINVAL,
				  "%s:%d: %s: not an AIM9 result line (name, elapsed ms, iterations/s, operations/s, description/second)",
				  file, lineno, w[0]);
	return 0;
}

static void atests_free(struct atest *t, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < t[i].n; k++) {
			free(t[i].v[k].name);
			free(t[i].v[k].desc);
			free(t[i].v[k].ops_text);
		}
		free(t[i].v);
	}
	free(t);
}

static void aim9_run(const char *file, struct atest *tests, size_t ntests,
		     size_t k, size_t nruns, struct pm_result *r)
{
	json_t *u;
	size_t i;

	pm_result_init(r);
	r->source = pm_xstrdup("import:aim9");
	r->version = pm_xstrdup(PACKAGE_VERSION);
	r->label = pm_xasprintf("aim9 #%zu", k + 1);
	r->options = json_pack("{s:{s:s,s:s,s:I,s:I}}", "import", "format", "aim9",
			       "file", file, "run", (json_int_t)k + 1,
			       "runs", (json_int_t)nruns);
	r->sysinfo = json_pack("{s:n,s:{s:n},s:{s:n},s:o}", "hostname", "kernel",
			       "release", "cpu", "cur_mhz",
			       "unavailable", unavailable("not in an AIM9 log"));
	u = json_object_get(r->sysinfo, "unavailable");
	json_object_set_new(u, "hostname", json_string("not in an AIM9 log"));
	json_object_set_new(u, "kernel.release", json_string("not in an AIM9 log"));
	json_object_set_new(u, "cpu.cur_mhz", json_string("not in an AIM9 log"));
	for (i = 0; i < ntests; i++) {
		const struct aline *a = &tests[i].v[k];
		const struct pm_bench *rb = pm_bench_find_aim9(a->name);
		struct pm_bench_result *b = add_bench(r, 1e9 / a->ops);
		char *p;

		if (rb) {
			b->name = pm_xstrdup(rb->name);
		} else {
			b->name = pm_xasprintf("aim9-%s", a->name);
			for (p = b->name; *p; p++)
				if (*p == '_')
					*p = '-';
		}
		b->group = pm_xstrdup(rb ? rb->group : "aim9");
		b->summary = pm_xstrdup(rb ? rb->summary : a->desc);
		b->unit = pm_xstrdup("ops/s");
		b->lmbench = rb && rb->lmbench ? pm_xstrdup(rb->lmbench) : NULL;
		b->aim9 = pm_xstrdup(a->name);
		b->elapsed_s = a->elapsed_ms / 1e3;
		b->params = pm_xasprintf("AIM9 log: %s %s (%g iterations/s over %g ms)",
					 a->ops_text, a->desc, a->rate, a->elapsed_ms);
		b->detail = json_pack("{s:{s:s,s:f,s:f,s:f}}", "aim9_log",
				      "description", a->desc, "ops_per_s", a->ops,
				      "iterations_per_s", a->rate, "elapsed_ms", a->elapsed_ms);
	}
}

int pm_import_aim9(const char *text, const char *file,
		   struct pm_result **out, size_t *nout, struct pm_err *e)
{
	struct atest *tests = NULL;
	size_t ntests = 0, nruns = 0, i, k;
	char *buf = pm_xstrdup(text), *p, *eol;
	int lineno = 0, err = 0;

	*out = NULL;
	*nout = 0;
	for (p = buf; !err && *p; p = eol ? eol + 1 : p + strlen(p)) {
		struct aline a = { 0 };
		int got;

		eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		lineno++;
		got = aim9_line(p + quote_len(p, strlen(p)), lineno, file, &a, e);
		if (got <= 0) {
			err = got;
			continue;
		}
		for (i = 0; i < ntests && strcmp(tests[i].name, a.name); i++)
			;
		if (i == ntests) {
			tests = pm_xgrow(tests, ntests, sizeof(*tests));
			memset(&tests[ntests++], 0, sizeof(*tests));
		}
		tests[i].v = pm_xgrow(tests[i].v, tests[i].n, sizeof(a));
		tests[i].v[tests[i].n++] = a;
		tests[i].name = tests[i].v[0].name;
		if (tests[i].n > nruns)
			nruns = tests[i].n;
	}
	free(buf);
	if (!err && !ntests)
		err = pm_err_set(e, -EINVAL, "%s: no AIM9 result lines (name, elapsed ms, iterations/s, operations/s, description/second)",
				 file);
	/* line k of every test is run k: all need the same count */
	for (i = 0; !err && i < ntests; i++)
		if (tests[i].n != nruns)
			err = pm_err_set(e, -EINVAL,
					 "%s:%d: %s appears %zu time%s but other tests %zu times: which runs its lines belong to is unknown",
					 file, tests[i].v[0].line, tests[i].name, tests[i].n,
					 tests[i].n == 1 ? "" : "s", nruns);
	if (!err) {
		*out = pm_xcalloc(nruns, sizeof(**out));
		*nout = nruns;
		for (k = 0; k < nruns; k++)
			aim9_run(file, tests, ntests, k, nruns, &(*out)[k]);
	}
	atests_free(tests, ntests);
	return err;
}
