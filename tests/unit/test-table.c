/* The table printer: the same rows as text, markdown, csv and html. */
#include "config.h"

#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/table.h"

static struct pm_table *sample(void)
{
	struct pm_table *t = pm_table_new();

	pm_table_add_col(t, "benchmark", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "time/op", "median_ns", 0);
	pm_table_add_col(t, "unit", NULL, PM_COL_CSV_ONLY);
	pm_table_row(t, "null");
	pm_table_cell(t, 0, "null", NULL);
	pm_table_cell_num(t, 1, "227 ns", 227.25);
	pm_table_cell(t, 2, "ns", NULL);
	pm_table_row(t, "fork|x");
	pm_table_cell(t, 0, "fork|x", NULL);
	pm_table_cell_num(t, 1, "<n/a>", NAN);
	return t;
}

static char *print(const struct pm_table *t, enum pm_table_format fmt)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	pm_table_print(t, f, fmt);
	fclose(f);
	return buf;
}

START_TEST(text_aligned)
{
	struct pm_table *t = sample();
	char *s = print(t, PM_TABLE_TEXT);

	/* numbers right-aligned, names left, csv-only columns hidden, no
	 * trailing blanks */
	ck_assert_str_eq(s, "benchmark  time/op\n"
			    "null        227 ns\n"
			    "fork|x       <n/a>\n");
	free(s);
	pm_table_free(t);
}
END_TEST

START_TEST(markdown_padded)
{
	struct pm_table *t = sample();
	char *s = print(t, PM_TABLE_MARKDOWN);

	/* pipes escaped, <...> as code so that it is not taken for HTML,
	 * every line as long as the others */
	ck_assert_str_eq(s, "| benchmark | time/op |\n"
			    "| :-------- | ------: |\n"
			    "| null      |  227 ns |\n"
			    "| fork\\|x   | `<n/a>` |\n");
	free(s);
	pm_table_free(t);
}
END_TEST

START_TEST(csv_raw)
{
	struct pm_table *t = sample();
	char *s;

	pm_table_row(t, NULL);
	pm_table_cell(t, 0, "a,\"b\"", NULL);
	s = print(t, PM_TABLE_CSV);
	ck_assert_str_eq(s, "benchmark,median_ns,unit\n"
			    "null,227.25,ns\n"
			    "fork|x,,\n"
			    "\"a,\"\"b\"\"\",,\n");
	free(s);
	pm_table_free(t);
}
END_TEST

START_TEST(html_escaped)
{
	struct pm_table *t = sample();
	char *s;

	pm_table_class(t, "summary");
	pm_table_span(t, "<section>");
	s = print(t, PM_TABLE_HTML);
	ck_assert_ptr_nonnull(strstr(s, "<table class=\"summary\">"));
	ck_assert_ptr_nonnull(strstr(s, "<tr data-key=\"null\"><td>null</td>"
					"<td class=\"n\" data-v=\"227.25\">227 ns</td></tr>"));
	ck_assert_ptr_nonnull(strstr(s, "<td class=\"n\">&lt;n/a&gt;</td>"));
	ck_assert_ptr_nonnull(strstr(s, "<th colspan=\"3\">&lt;section&gt;</th>"));
	ck_assert_ptr_null(strstr(s, ">ns<"));
	free(s);
	pm_table_free(t);
}
END_TEST

static char *escaped(const char *s, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	pm_html_escape_max(f, s, max);
	fclose(f);
	return buf;
}

/* Markup, quotes and control characters escaped once; a long text cut
 * at a character (not inside one), its last shown character an ellipsis. */
START_TEST(html_escape_cut)
{
	char *s;

	s = escaped("<a href=\"x\">&amp;'\x01\t</a>", SIZE_MAX);
	ck_assert_str_eq(s, "&lt;a href=&quot;x&quot;&gt;&amp;amp;&#39;\xef\xbf\xbd\t&lt;/a&gt;");
	free(s);
	s = escaped("abc", 3);
	ck_assert_str_eq(s, "abc");
	free(s);
	s = escaped("abcd", 3);
	ck_assert_str_eq(s, "ab\xe2\x80\xa6");
	free(s);
	/* two-byte characters: cut between them, each counted once */
	s = escaped("\xc3\xa9\xc3\xa9\xc3\xa9\xc3\xa9", 3);
	ck_assert_str_eq(s, "\xc3\xa9\xc3\xa9\xe2\x80\xa6");
	free(s);
	s = escaped("<<<<", 2);
	ck_assert_str_eq(s, "&lt;\xe2\x80\xa6");
	free(s);
	s = escaped("abc", 0);
	ck_assert_str_eq(s, "");
	free(s);
	ck_assert_uint_eq(pm_text_prefix("\xc3\xa9x\xc3\xa9", 2), 3);
	ck_assert_uint_eq(pm_text_prefix("ab", 5), 2);
}
END_TEST

static char *fragment(const char *s, size_t max)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	pm_html_fragment(f, s, max);
	fclose(f);
	return buf;
}

/* A link's fragment and an id: unreserved characters as they are, the
 * rest percent-encoded byte by byte, cut as the text is. */
START_TEST(html_fragment)
{
	char *s;

	s = fragment("null-io_2.x~", SIZE_MAX);
	ck_assert_str_eq(s, "null-io_2.x~");
	free(s);
	s = fragment("a b\"<&#\xc3\xa9", SIZE_MAX);
	ck_assert_str_eq(s, "a%20b%22%3C%26%23%C3%A9");
	free(s);
	s = fragment("abcd", 3);
	ck_assert_str_eq(s, "ab%E2%80%A6");
	free(s);
}
END_TEST

/* A table's HTML shows heads, keys and cells cut alike, a row's link
 * percent-encoded (pm_html_fragment). */
START_TEST(html_max)
{
	struct pm_table *t = pm_table_new();
	char *s;

	pm_table_add_col(t, "a long head", NULL, PM_COL_LEFT);
	pm_table_link_keys(t, "b-");
	pm_table_html_max(t, 4);
	pm_table_row(t, "<name>");
	pm_table_cell(t, 0, "<name>", NULL);
	s = print(t, PM_TABLE_HTML);
	ck_assert_ptr_nonnull(strstr(s, "<th>a l\xe2\x80\xa6</th>"));
	ck_assert_ptr_nonnull(strstr(s, "<tr data-key=\"&lt;na\xe2\x80\xa6\"><td>"
					"<a href=\"#b-%3Cna%E2%80%A6\">&lt;na\xe2\x80\xa6</a></td>"));
	free(s);
	pm_table_html_max(t, 0);
	s = print(t, PM_TABLE_HTML);
	ck_assert_ptr_nonnull(strstr(s, "<th>a long head</th>"));
	free(s);
	pm_table_free(t);
}
END_TEST

START_TEST(span_wrap_and_cells)
{
	struct pm_table *t = pm_table_new();
	char *s;

	pm_table_no_head(t);
	pm_table_indent(t, 2);
	pm_table_wrap_at(t, 30);
	pm_table_add_col(t, "k", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "v", NULL, PM_COL_LEFT | PM_COL_WRAP);
	pm_table_min_width(t, 0, 6);
	pm_table_span(t, "section");
	pm_table_row(t, "a");
	pm_table_cell(t, 0, "a", NULL);
	pm_table_cell(t, 1, "one two three four five six seven", NULL);
	pm_table_row(t, "b");
	pm_table_cell(t, 0, "b", NULL);
	ck_assert_int_eq(pm_table_find_row(t, "a"), 1);
	ck_assert_int_eq(pm_table_find_row(t, "zz"), -1);
	pm_table_cell_at(t, 1, 0, "A", NULL);
	s = print(t, PM_TABLE_TEXT);
	ck_assert_str_eq(s, "section\n"
			    "  A       one two three four\n"
			    "          five six seven\n"
			    "  b\n");
	free(s);
	pm_table_free(t);
}
END_TEST

/* Nothing shrank (or nothing at all): no lines, and no qsort of a NULL
 * list, which the sanitizer build reports as undefined behaviour. */
START_TEST(flame_nothing_shrunk)
{
	struct pm_flame *fl = pm_flame_new();
	char *buf = NULL;
	size_t len = 0;
	FILE *f;

	f = open_memstream(&buf, &len);
	pm_flame_shrunk(fl, f, 5);
	pm_flame_add(fl, 0, "pmbench;a;b", 10);
	pm_flame_add(fl, 1, "pmbench;a;b", 20);
	pm_flame_shrunk(fl, f, 5);
	fclose(f);
	ck_assert_str_eq(buf, "");
	free(buf);

	f = open_memstream(&buf, &len);
	pm_flame_add(fl, 0, "pmbench;a;c", 30);
	pm_flame_shrunk(fl, f, 5);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(buf, "<code>c</code>"));
	free(buf);
	pm_flame_free(fl);
}
END_TEST

/* A stack deeper than the graph draws counts for its deepest frame
 * kept; its frame names are cut in the tooltips. */
START_TEST(flame_deep_stack)
{
	size_t n = 100000, i, rects = 0;
	char *stack = malloc(2 * n + 1), *buf = NULL, *p;
	size_t len = 0;
	struct pm_flame *fl = pm_flame_new();
	FILE *f;

	ck_assert_ptr_nonnull(stack);
	for (i = 0; i < n; i++)
		memcpy(stack + 2 * i, i ? ";f" : "pf", 2);
	stack[2 * n] = '\0';
	pm_flame_add(fl, 0, stack, 5);
	ck_assert_double_eq(pm_flame_total(fl, 0), 5);
	f = open_memstream(&buf, &len);
	pm_flame_svg(fl, f, 0, false, 0, "deep");
	fclose(f);
	for (p = buf; (p = strstr(p, "<rect ")); p++)
		rects++;
	/* the base and 128 frames */
	ck_assert_uint_eq(rects, 129);
	free(buf);
	free(stack);
	pm_flame_free(fl);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("table");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_add_test(tc, text_aligned);
	tcase_add_test(tc, markdown_padded);
	tcase_add_test(tc, csv_raw);
	tcase_add_test(tc, html_escaped);
	tcase_add_test(tc, html_escape_cut);
	tcase_add_test(tc, html_fragment);
	tcase_add_test(tc, html_max);
	tcase_add_test(tc, span_wrap_and_cells);
	tcase_add_test(tc, flame_deep_stack);
	tcase_add_test(tc, flame_nothing_shrunk);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
