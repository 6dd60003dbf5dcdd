/*
 * Emulated counts in the text views (results/emulated.h): the counts of
 * pmbench ab's TCG plugin, always under a heading that says they are
 * counts of an emulated CPU, never beside the hardware counters as one
 * of them.
 */
#include "config.h"

#include <math.h>
#include <string.h>

#include "results/emulated.h"
#include "views/render.h"

static void amount_row(struct pm_table *t, const struct pm_bench_result *b, const char *name,
		       const char *key, const char *note)
{
	struct pm_emu_amount all, u, k;
	char v[32], vu[32], vk[32];

	if (!pm_emulated_amount(b, key, NULL, &all))
		return;
	pm_emulated_amount(b, key, "user", &u);
	pm_emulated_amount(b, key, "kernel", &k);
	pm_fmt_count(v, sizeof(v), all.mean);
	pm_fmt_count(vu, sizeof(vu), u.mean);
	pm_fmt_count(vk, sizeof(vk), k.mean);
	pm_table_row(t, name);
	pm_table_cell(t, 0, name, NULL);
	pm_table_cell(t, 1, v, NULL);
	if (all.n > 1 && all.mean > 0)
		pm_table_cellf(t, 2, "user %s  kernel %s  (boots within %.2f%%)%s%s", vu, vk,
			       100 * fmax(all.max - all.mean, all.mean - all.min) / all.mean,
			       note ? "  " : "", note ? note : "");
	else
		pm_table_cellf(t, 2, "user %s  kernel %s%s%s", vu, vk, note ? "  " : "",
			       note ? note : "");
}

/* The kernel's instructions by function: the top max_rows (0: all). */
static void profile_rows(const struct pm_bench_result *b, FILE *f, enum pm_table_format fmt,
			 size_t max_rows)
{
	const json_t *p = json_object_get(b->emulated, "kernel_profile"), *x;
	const json_t *syms = pm_emulated_symbols(b), *src = json_object_get(p, "sources");
	bool md = fmt == PM_TABLE_MARKDOWN, rep = false;
	struct pm_emu_amount k, r;
	double path;
	struct pm_table *t;
	size_t i, col_rep = 0;

	if (json_is_string(json_object_get(p, "unavailable"))) {
		fprintf(f, "%skernel instructions by function: none (%s)\n", md ? "" : "    ",
			json_string_value(json_object_get(p, "unavailable")));
		return;
	}
	if (!syms || !json_array_size(syms))
		return;
	pm_emulated_amount(b, "instructions", "kernel", &k);
	pm_emulated_amount(b, "rep_iterations", "kernel", &r);
	path = k.mean - (r.n ? r.mean : 0);
	fprintf(f, "%skernel instructions per op by function (exact, emulated; rep string "
		"iterations apart):\n",
		md ? "\n" : "    ");
	if (md)
		fputc('\n', f);
	t = pm_table_new();
	pm_table_indent(t, md ? 0 : 6);
	pm_table_add_col(t, "instructions", NULL, 0);
	pm_table_add_col(t, "share", NULL, 0);
	json_array_foreach(syms, i, x)
		rep = rep || json_number_value(json_object_get(x, "rep_iterations")) > 0;
	/* TCG's count of a rep string instruction's iterations, apart */
	if (rep)
		col_rep = pm_table_add_col(t, "rep iter.", NULL, 0);
	pm_table_add_col(t, "symbol", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "source", NULL, PM_COL_LEFT);
	json_array_foreach(syms, i, x) {
		const char *name = json_string_value(json_object_get(x, "name"));
		double v = json_number_value(json_object_get(x, "instructions"));
		char c[32];

		if (max_rows && i >= max_rows)
			break;
		pm_fmt_count(c, sizeof(c), v);
		pm_table_row(t, NULL);
		pm_table_cell(t, 0, c, NULL);
		if (path > 0)
			pm_table_cellf(t, 1, "%.1f%%", 100 * v / path);
		if (rep && json_number_value(json_object_get(x, "rep_iterations")) > 0) {
			pm_fmt_count(c, sizeof(c),
				     json_number_value(json_object_get(x, "rep_iterations")));
			pm_table_cell(t, col_rep, c, NULL);
		}
		pm_table_cell(t, 2 + rep, name, NULL);
		pm_table_cell(t, 3 + rep, json_string_value(json_object_get(src, name)), NULL);
	}
	pm_table_print(t, f, fmt);
	pm_table_free(t);
}

void pm_render_emulated(const struct pm_bench_result *b, FILE *f, enum pm_table_format fmt,
			size_t max_rows)
{
	const json_t *ic = json_object_get(b->emulated, "icache");
	bool md = fmt == PM_TABLE_MARKDOWN;
	struct pm_emu_amount ins;
	struct pm_table *t;
	char *note = NULL;

	if (!b->emulated)
		return;
	if (pm_emulated_unavailable(b)) {
		fprintf(f, "%semulated counts: none (%s)\n", md ? "\n" : "  ",
			pm_emulated_unavailable(b));
		return;
	}
	if (!pm_emulated_amount(b, "instructions", NULL, &ins))
		return;
	fprintf(f, "%semulated counts per op (%zu boot%s; %s):\n", md ? "\n" : "  ", ins.n,
		ins.n == 1 ? "" : "s", PM_EMULATED_NOTE);
	if (md)
		fputc('\n', f);
	t = pm_table_new();
	pm_table_indent(t, md ? 0 : 4);
	if (!md)
		pm_table_no_head(t);
	pm_table_add_col(t, "count", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "per op", NULL, 0);
	pm_table_add_col(t, "split", NULL, PM_COL_LEFT);
	pm_table_min_width(t, 0, 20);
	pm_table_min_width(t, 1, 12);
	amount_row(t, b, "instructions", "instructions", NULL);
	amount_row(t, b, "rep iterations", "rep_iterations",
		   "[of the instructions: rep string iterations, one by one under TCG]");
	amount_row(t, b, "branches", "branches", NULL);
	if (json_is_object(ic))
		note = pm_xasprintf("[a model: L1i of %lld KiB, %lld-way, %lld-byte lines]",
				    json_integer_value(json_object_get(ic, "size_kib")),
				    json_integer_value(json_object_get(ic, "ways")),
				    json_integer_value(json_object_get(ic, "line")));
	amount_row(t, b, "i-cache misses", "icache_misses", note);
	free(note);
	pm_table_print(t, f, fmt);
	pm_table_free(t);
	profile_rows(b, f, fmt, max_rows);
}

/* csv: one row per amount, the event named "emulated:..." */
size_t pm_render_emulated_csv_rows(const struct pm_bench_result *b, struct pm_emu_csv_row *rows,
				   size_t max)
{
	static const struct {
		const char *event, *key;
	} amounts[] = {
		{ "emulated:instructions", "instructions" },
		{ "emulated:rep-iterations", "rep_iterations" },
		{ "emulated:branches", "branches" },
		{ "emulated:icache-misses", "icache_misses" },
	};
	struct pm_emu_amount a, u, k;
	size_t i, n = 0;

	for (i = 0; i < PM_ARRAY_SIZE(amounts) && n < max; i++) {
		if (!pm_emulated_amount(b, amounts[i].key, NULL, &a))
			continue;
		pm_emulated_amount(b, amounts[i].key, "user", &u);
		pm_emulated_amount(b, amounts[i].key, "kernel", &k);
		rows[n++] = (struct pm_emu_csv_row){ amounts[i].event, a.mean, u.mean, k.mean };
	}
	return n;
}
