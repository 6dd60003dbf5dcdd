/*
 * A small table printer used by every text view (show, list, events,
 * sysinfo, log, explain, report): one model of rows and columns printed
 * as aligned text, GitHub-flavoured markdown that reads well in a
 * plain-text mail, CSV, or an HTML table.
 */
#ifndef PM_TABLE_H
#define PM_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

enum pm_table_format {
	PM_TABLE_TEXT,
	PM_TABLE_MARKDOWN,
	PM_TABLE_CSV,
	PM_TABLE_HTML,
};

enum pm_col_flags {
	PM_COL_LEFT = 1u << 0,	/* text columns; numbers are right-aligned */
	PM_COL_WRAP = 1u << 1,	/* text: wrap at blanks to the table's width
				   (the last column only) */
	PM_COL_CSV_ONLY = 1u << 2,	/* a column for tools: csv only */
};

struct pm_table;

struct pm_table *pm_table_new(void);
void pm_table_free(struct pm_table *t);

/* A column: its head as shown, and as a CSV field name (NULL: the same). */
size_t pm_table_add_col(struct pm_table *t, const char *head,
			const char *csv_head, unsigned flags);
/* Text: no head line (key/value lists). */
void pm_table_no_head(struct pm_table *t);
/* Text: blanks before every line; the narrowest width of a column. */
void pm_table_indent(struct pm_table *t, size_t blanks);
void pm_table_min_width(struct pm_table *t, size_t col, size_t width);
/* Text: the line length PM_COL_WRAP wraps to (default 79). */
void pm_table_wrap_at(struct pm_table *t, size_t width);
/* HTML: the table's class attribute; the first cell of a row with a
 * key links to "#" prefix key (NULL: no links). */
void pm_table_class(struct pm_table *t, const char *cls);
void pm_table_link_keys(struct pm_table *t, const char *prefix);
/* HTML: show at most max characters of a head, key or cell, a longer
 * one cut with an ellipsis (0, the default: all of it). */
void pm_table_html_max(struct pm_table *t, size_t max);

/* Start a row; key (may be NULL) becomes data-key="..." in HTML. */
void pm_table_row(struct pm_table *t, const char *key);
/* A line across the table, such as a section head (not in CSV). */
void pm_table_span(struct pm_table *t, const char *text);
/* A cell of the current row: what people read, and for CSV the raw
 * figure (NULL: the same text). */
void pm_table_cell(struct pm_table *t, size_t col, const char *text,
		   const char *raw);
void pm_table_cellf(struct pm_table *t, size_t col, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* A number for CSV (%.6g; NAN is an empty field) shown as text. */
void pm_table_cell_num(struct pm_table *t, size_t col, const char *text,
		       double raw);

size_t pm_table_rows(const struct pm_table *t);
/* The row with this key, -1 when none; a cell of any row. */
long pm_table_find_row(const struct pm_table *t, const char *key);
void pm_table_cell_at(struct pm_table *t, size_t row, size_t col,
		      const char *text, const char *raw);
void pm_table_print(const struct pm_table *t, FILE *f,
		    enum pm_table_format fmt);

/* Helpers the views share. */
void pm_csv_field(FILE *f, const char *s);
/* Text for HTML, between tags or in a quoted attribute: markup
 * characters and quotes as references, control characters but tab and
 * line breaks as U+FFFD; NULL writes nothing. */
void pm_html_escape(FILE *f, const char *s);
/* The same, at most max characters (code points) of s: a longer s is
 * cut, its last shown character an ellipsis. */
void pm_html_escape_max(FILE *f, const char *s, size_t max);
/* The same cut of s as a fragment of a link (href="#...") and an id:
 * every byte but ASCII letters, digits and -._~ percent-encoded, so
 * that the link finds the id whatever s holds (blanks, quotes). */
void pm_html_fragment(FILE *f, const char *s, size_t max);
/* Bytes of the first max characters (code points) of UTF-8 text. */
size_t pm_text_prefix(const char *s, size_t max);
/* Markdown: escape what would start markup in running text. */
void pm_md_escape(FILE *f, const char *s);
/* Display width of UTF-8 text (code points; the tables use no wide
 * characters). */
size_t pm_text_width(const char *s);

#endif
