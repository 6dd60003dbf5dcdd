/* The AIM9 layout of imported logs (pmbench import aim9): a row per test. */
#include "config.h"

#include <jansson.h>

#include "util/table.h"
#include "views/render.h"

void pm_render_aim9(const struct pm_result *runs, size_t n, FILE *f)
{
	const struct pm_result *r0 = &runs[0];
	struct pm_table *t = pm_table_new();
	size_t i, k;

	pm_table_add_col(t, "test", NULL, PM_COL_LEFT);
	for (k = 0; k < n; k++)
		pm_table_add_col(t, runs[k].label ? runs[k].label : "", NULL, 0);
	pm_table_add_col(t, "description", NULL, PM_COL_LEFT);
	for (i = 0; i < r0->nbench; i++) {
		const struct pm_bench_result *b = &r0->bench[i];
		const json_t *log = json_object_get(b->detail, "aim9_log");
		const char *desc = json_string_value(json_object_get(log, "description"));

		pm_table_row(t, b->name);
		pm_table_cell(t, 0, b->aim9 ? b->aim9 : b->name, NULL);
		for (k = 0; k < n; k++) {
			const struct pm_bench_result *x = pm_result_find(&runs[k], b->name);

			if (x)
				pm_table_cellf(t, k + 1, "%.2f", pm_bench_result_value(x, x->stats.median));
		}
		pm_table_cell(t, n + 1, desc ? desc : "", NULL);
	}
	pm_table_print(t, f, PM_TABLE_TEXT);
	pm_table_free(t);
}
