/*
 * The table printer: cells are kept as text (what people read) and
 * optionally raw (what CSV gets), and printed in one of four forms.
 * Hand-written rather than libsmartcols: it has no markdown or HTML
 * output, and these tables are small.
 */
#include "config.h"

#include <math.h>
#include <sys/types.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "util/table.h"
#include "util.h"

struct col {
	char *head, *csv_head;
	unsigned flags;
	size_t min_width;
};

struct cell {
	char *text, *raw;
};

struct row {
	char *key;
	char *span;		/* a line across the table (a section head) */
	struct cell *cells;	/* ncols of them, grown as columns are added */
	size_t ncells;
};

struct pm_table {
	struct col *cols;
	size_t ncols;
	struct row *rows;
	size_t nrows;
	bool no_head;
	size_t indent, wrap;
	size_t html_max;	/* characters of a text HTML shows; 0: all */
	char *cls, *link;
};

struct pm_table *pm_table_new(void)
{
	struct pm_table *t = pm_xcalloc(1, sizeof(*t));

	t->wrap = 79;
	return t;
}

void pm_table_free(struct pm_table *t)
{
	size_t i, j;

	if (!t)
		return;
	for (i = 0; i < t->ncols; i++) {
		free(t->cols[i].head);
		free(t->cols[i].csv_head);
	}
	for (i = 0; i < t->nrows; i++) {
		for (j = 0; j < t->rows[i].ncells; j++) {
			free(t->rows[i].cells[j].text);
			free(t->rows[i].cells[j].raw);
		}
		free(t->rows[i].cells);
		free(t->rows[i].key);
		free(t->rows[i].span);
	}
	free(t->cols);
	free(t->rows);
	free(t->cls);
	free(t->link);
	free(t);
}

size_t pm_table_add_col(struct pm_table *t, const char *head,
			const char *csv_head, unsigned flags)
{
	struct col *c;

	t->cols = pm_xgrow(t->cols, t->ncols, sizeof(*t->cols));
	c = &t->cols[t->ncols];
	c->head = pm_xstrdup(head ? head : "");
	c->csv_head = csv_head ? pm_xstrdup(csv_head) : NULL;
	c->flags = flags;
	c->min_width = 0;
	return t->ncols++;
}

void pm_table_no_head(struct pm_table *t)
{
	t->no_head = true;
}

void pm_table_indent(struct pm_table *t, size_t blanks)
{
	t->indent = blanks;
}

void pm_table_min_width(struct pm_table *t, size_t col, size_t width)
{
	if (col < t->ncols)
		t->cols[col].min_width = width;
}

void pm_table_wrap_at(struct pm_table *t, size_t width)
{
	t->wrap = width;
}

void pm_table_class(struct pm_table *t, const char *cls)
{
	free(t->cls);
	t->cls = pm_xstrdup(cls);
}

void pm_table_link_keys(struct pm_table *t, const char *prefix)
{
	free(t->link);
	t->link = prefix ? pm_xstrdup(prefix) : NULL;
}

void pm_table_html_max(struct pm_table *t, size_t max)
{
	t->html_max = max;
}

void pm_table_row(struct pm_table *t, const char *key)
{
	struct row *r;

	t->rows = pm_xgrow(t->rows, t->nrows, sizeof(*t->rows));
	r = &t->rows[t->nrows++];
	r->key = key ? pm_xstrdup(key) : NULL;
	r->span = NULL;
	r->ncells = 0;
	r->cells = NULL;
}

void pm_table_span(struct pm_table *t, const char *text)
{
	pm_table_row(t, NULL);
	t->rows[t->nrows - 1].span = pm_xstrdup(text);
}

static struct cell *cell_at(struct pm_table *t, size_t col)
{
	struct row *r;

	if (!t->nrows)
		pm_table_row(t, NULL);
	r = &t->rows[t->nrows - 1];
	if (col >= r->ncells) {
		r->cells = pm_xrealloc(r->cells, (col + 1) * sizeof(*r->cells));
		memset(&r->cells[r->ncells], 0, (col + 1 - r->ncells) * sizeof(*r->cells));
		r->ncells = col + 1;
	}
	return &r->cells[col];
}

void pm_table_cell(struct pm_table *t, size_t col, const char *text,
		   const char *raw)
{
	struct cell *c = cell_at(t, col);

	free(c->text);
	free(c->raw);
	c->text = pm_xstrdup(text ? text : "");
	c->raw = raw ? pm_xstrdup(raw) : NULL;
}

void pm_table_cellf(struct pm_table *t, size_t col, const char *fmt, ...)
{
	struct cell *c = cell_at(t, col);
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = pm_xstrdup("?");
	va_end(ap);
	free(c->text);
	free(c->raw);
	c->text = s;
	c->raw = NULL;
}

void pm_table_cell_num(struct pm_table *t, size_t col, const char *text,
		       double raw)
{
	char buf[40] = "";

	if (!isnan(raw))
		snprintf(buf, sizeof(buf), "%.6g", raw);
	pm_table_cell(t, col, text, buf);
}

long pm_table_find_row(const struct pm_table *t, const char *key)
{
	size_t r;

	for (r = 0; r < t->nrows; r++)
		if (t->rows[r].key && !strcmp(t->rows[r].key, key))
			return (long)r;
	return -1;
}

void pm_table_cell_at(struct pm_table *t, size_t row, size_t col,
		      const char *text, const char *raw)
{
	struct row keep;

	if (row >= t->nrows)
		return;
	/* cell_at() works on the last row: make this one last for a moment */
	keep = t->rows[t->nrows - 1];
	t->rows[t->nrows - 1] = t->rows[row];
	t->rows[row] = keep;
	pm_table_cell(t, col, text, raw);
	keep = t->rows[t->nrows - 1];
	t->rows[t->nrows - 1] = t->rows[row];
	t->rows[row] = keep;
}

size_t pm_table_rows(const struct pm_table *t)
{
	return t->nrows;
}

size_t pm_text_width(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += ((unsigned char)*s & 0xc0) != 0x80;
	return n;
}

static const char *text_of(const struct pm_table *t, size_t r, size_t c)
{
	const struct row *row = &t->rows[r];

	if (row->span)
		return "";
	return c < row->ncells && row->cells[c].text ? row->cells[c].text : "";
}

static void pad(FILE *f, size_t n)
{
	while (n--)
		fputc(' ', f);
}

/* The last column's text wrapped at blanks to what is left of the line. */
static void print_wrapped(FILE *f, const char *s, size_t start, size_t wrap)
{
	size_t col = start, room = wrap > start + 20 ? wrap : start + 20;
	bool first = true;

	while (*s) {
		size_t n = strcspn(s, " ");

		if (!first && col + 1 + n > room) {
			fputc('\n', f);
			pad(f, start);
			col = start;
		} else if (!first) {
			fputc(' ', f);
			col++;
		}
		fwrite(s, 1, n, f);
		col += n;
		first = false;
		s += n;
		s += strspn(s, " ");
	}
}

static bool shown(const struct pm_table *t, size_t c)
{
	return !(t->cols[c].flags & PM_COL_CSV_ONLY);
}

static void widths(const struct pm_table *t, size_t *w, bool head)
{
	size_t r, c;

	for (c = 0; c < t->ncols; c++) {
		w[c] = t->cols[c].min_width;
		if (head && pm_text_width(t->cols[c].head) > w[c])
			w[c] = pm_text_width(t->cols[c].head);
		for (r = 0; r < t->nrows; r++)
			if (pm_text_width(text_of(t, r, c)) > w[c])
				w[c] = pm_text_width(text_of(t, r, c));
	}
}

static void text_line(const struct pm_table *t, FILE *f, const size_t *w,
		      ssize_t r)
{
	size_t last = t->ncols, c, at = t->indent;
	bool first = true;

	/* no trailing blanks: stop after the last non-empty cell */
	while (last > 0 && (!shown(t, last - 1) ||
			    !*(r < 0 ? t->cols[last - 1].head : text_of(t, (size_t)r, last - 1))))
		last--;
	if (r >= 0 && t->rows[r].span) {
		fprintf(f, "%s\n", t->rows[r].span);
		return;
	}
	pad(f, t->indent);
	for (c = 0; c < last; c++) {
		const char *s = r < 0 ? t->cols[c].head : text_of(t, (size_t)r, c);
		size_t len = pm_text_width(s);
		bool left = t->cols[c].flags & PM_COL_LEFT;

		if (!shown(t, c))
			continue;
		if (!first) {
			fputs("  ", f);
			at += 2;
		}
		first = false;
		if (c + 1 == last && (t->cols[c].flags & PM_COL_WRAP) && r >= 0) {
			print_wrapped(f, s, at, t->wrap);
			break;
		}
		if (!left)
			pad(f, w[c] - len);
		fputs(s, f);
		if (left && c + 1 < last)
			pad(f, w[c] - len);
		at += w[c];
	}
	fputc('\n', f);
}

static void print_text(const struct pm_table *t, FILE *f)
{
	size_t *w = pm_xcalloc(t->ncols ? t->ncols : 1, sizeof(*w)), r;

	widths(t, w, !t->no_head);
	if (!t->no_head)
		text_line(t, f, w, -1);
	for (r = 0; r < t->nrows; r++)
		text_line(t, f, w, (ssize_t)r);
	free(w);
}

/* A markdown cell: pipes escaped, line breaks as blanks. */
static size_t md_width(const char *s)
{
	size_t n = pm_text_width(s);

	for (; *s; s++) {
		n += *s == '|';
		n += 2 * (*s == '<' && s[strcspn(s, ">|`\n")] == '>');
	}
	return n;
}

static void md_cell(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '<' && s[strcspn(s, ">|`\n")] == '>') {
			size_t n = strcspn(s, ">");

			fprintf(f, "`%.*s`", (int)n + 1, s);
			s += n;
			continue;
		}
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

static void print_markdown(const struct pm_table *t, FILE *f)
{
	size_t *w = pm_xcalloc(t->ncols ? t->ncols : 1, sizeof(*w)), r, c;

	for (c = 0; c < t->ncols; c++) {
		w[c] = md_width(t->cols[c].head);
		if (w[c] < 3)
			w[c] = 3;
		for (r = 0; r < t->nrows; r++)
			if (md_width(text_of(t, r, c)) > w[c])
				w[c] = md_width(text_of(t, r, c));
	}
	for (r = 0; r < t->nrows + 2; r++) {
		if (r >= 2 && t->rows[r - 2].span) {
			fputs("| **", f);
			md_cell(f, t->rows[r - 2].span);
			fputs("** |", f);
			for (c = 1; c < t->ncols; c++)
				if (shown(t, c))
					fputs(" |", f);
			fputc('\n', f);
			continue;
		}
		fputc('|', f);
		for (c = 0; c < t->ncols; c++) {
			bool left = t->cols[c].flags & PM_COL_LEFT;
			const char *s;
			size_t len;

			if (!shown(t, c))
				continue;
			if (r == 1) {
				/* the alignment row: |:---| or |---:| */
				fputs(left ? " :" : " ", f);
				for (len = 0; len < w[c] - 1; len++)
					fputc('-', f);
				fputs(left ? " |" : ": |", f);
				continue;
			}
			s = r == 0 ? t->cols[c].head : text_of(t, r - 2, c);
			len = md_width(s);
			fputc(' ', f);
			if (!left)
				pad(f, w[c] - len);
			md_cell(f, s);
			if (left)
				pad(f, w[c] - len);
			fputs(" |", f);
		}
		fputc('\n', f);
	}
	free(w);
}

void pm_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	if (!strpbrk(s, ",\"\n\r")) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void print_csv(const struct pm_table *t, FILE *f)
{
	size_t r, c;

	for (c = 0; c < t->ncols; c++) {
		if (c)
			fputc(',', f);
		pm_csv_field(f, t->cols[c].csv_head ? t->cols[c].csv_head : t->cols[c].head);
	}
	fputc('\n', f);
	for (r = 0; r < t->nrows; r++) {
		const struct row *row = &t->rows[r];

		if (row->span)
			continue;
		for (c = 0; c < t->ncols; c++) {
			if (c)
				fputc(',', f);
			if (c < row->ncells)
				pm_csv_field(f, row->cells[c].raw ? row->cells[c].raw :
					     row->cells[c].text);
		}
		fputc('\n', f);
	}
}

size_t pm_text_prefix(const char *s, size_t max)
{
	size_t n = 0, at;

	/* a character starts at every byte that is not a continuation */
	for (at = 0; s[at]; at++)
		if (((unsigned char)s[at] & 0xc0) != 0x80 && n++ == max)
			break;
	return at;
}

/* How much of s to show in max characters: when cut, the last one shown
 * is the ellipsis. */
static size_t shown_len(const char *s, size_t max)
{
	size_t len = pm_text_prefix(s, max);

	return s[len] ? pm_text_prefix(s, max - 1) : len;
}

void pm_html_escape_max(FILE *f, const char *s, size_t max)
{
	size_t len, i;

	if (!s || !max)
		return;
	len = shown_len(s, max);
	for (i = 0; i < len; i++) {
		switch (s[i]) {
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '&': fputs("&amp;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\t': case '\n': case '\r': fputc(s[i], f); break;
		default:
			/* other control characters are not allowed in HTML */
			if ((unsigned char)s[i] < 0x20 || s[i] == 0x7f)
				fputs("\xef\xbf\xbd", f);	/* U+FFFD */
			else
				fputc(s[i], f);
		}
	}
	if (s[len])
		fputs("…", f);
}

void pm_html_fragment(FILE *f, const char *s, size_t max)
{
	size_t len, i;

	if (!s || !max)
		return;
	len = shown_len(s, max);
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)s[i];

		/* URL's unreserved characters, whatever the locale */
		if ((c >= '0' && c <= '9') || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z') ||
		    strchr("-._~", c))
			fputc(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
	if (s[len])
		fputs("%E2%80%A6", f);	/* the ellipsis */
}

void pm_html_escape(FILE *f, const char *s)
{
	pm_html_escape_max(f, s, SIZE_MAX);
}

void pm_md_escape(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		/* "<not supported>" reads better as code than as \<...\> */
		if (*s == '<') {
			size_t n = strcspn(s, ">`\n");

			if (s[n] == '>') {
				fprintf(f, "`%.*s`", (int)n + 1, s);
				s += n;
				continue;
			}
		}
		if (strchr("\\`*<>|", *s))
			fputc('\\', f);
		fputc(*s, f);
	}
}

static void html_text(const struct pm_table *t, FILE *f, const char *s)
{
	pm_html_escape_max(f, s, t->html_max ? t->html_max : SIZE_MAX);
}

static void print_html(const struct pm_table *t, FILE *f)
{
	size_t r, c;

	fputs("<table", f);
	if (t->cls) {
		fputs(" class=\"", f);
		html_text(t, f, t->cls);
		fputc('"', f);
	}
	fputs(">\n", f);
	if (!t->no_head) {
		fputs("<thead><tr>", f);
		for (c = 0; c < t->ncols; c++) {
			if (!shown(t, c))
				continue;
			fputs(t->cols[c].flags & PM_COL_LEFT ? "<th>" : "<th class=\"n\">", f);
			html_text(t, f, t->cols[c].head);
			fputs("</th>", f);
		}
		fputs("</tr></thead>\n", f);
	}
	fputs("<tbody>\n", f);
	for (r = 0; r < t->nrows; r++) {
		const struct row *row = &t->rows[r];

		if (row->span) {
			fprintf(f, "<tr><th colspan=\"%zu\">", t->ncols);
			html_text(t, f, row->span);
			fputs("</th></tr>\n", f);
			continue;
		}
		fputs("<tr", f);
		if (row->key) {
			fputs(" data-key=\"", f);
			html_text(t, f, row->key);
			fputc('"', f);
		}
		fputc('>', f);
		for (c = 0; c < t->ncols; c++) {
			const char *raw = c < row->ncells ? row->cells[c].raw : NULL;

			if (!shown(t, c))
				continue;
			fputs(t->cols[c].flags & PM_COL_LEFT ? "<td" : "<td class=\"n\"", f);
			if (raw && *raw) {
				fputs(" data-v=\"", f);
				html_text(t, f, raw);
				fputc('"', f);
			}
			fputc('>', f);
			if (c == 0 && t->link && row->key) {
				fputs("<a href=\"#", f);
				html_text(t, f, t->link);
				pm_html_fragment(f, row->key, t->html_max ? t->html_max : SIZE_MAX);
				fputs("\">", f);
				html_text(t, f, text_of(t, r, c));
				fputs("</a></td>", f);
				continue;
			}
			html_text(t, f, text_of(t, r, c));
			fputs("</td>", f);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

void pm_table_print(const struct pm_table *t, FILE *f, enum pm_table_format fmt)
{
	switch (fmt) {
	case PM_TABLE_TEXT:
		print_text(t, f);
		break;
	case PM_TABLE_MARKDOWN:
		print_markdown(t, f);
		break;
	case PM_TABLE_CSV:
		print_csv(t, f);
		break;
	case PM_TABLE_HTML:
		print_html(t, f);
		break;
	}
}
