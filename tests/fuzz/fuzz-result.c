/* The result-file reader, and every renderer of what it accepts. */
#include "config.h"

#include <stdlib.h>

#include "bench/bench.h"
#include "fuzz.h"
#include "results/anonymize.h"
#include "results/catalog.h"
#include "results/result.h"
#include "sample/profile.h"
#include "views/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	FILE *out = pm_fuzz_sink();
	const struct pm_result *one[1];
	struct pm_result r;
	struct pm_err e;
	json_error_t je;
	json_t *doc;
	size_t i;

	/* the benchmarks' names for lmbench columns and AIM9 tests */
	pm_catalog_set(&pm_bench_catalog);

	if (pm_result_parse(&r, (const char *)data, size, "fuzz.json", &e) == 0) {
		/* valid input must render and round-trip without a fault */
		pm_render_text(&r, out, 0);
		pm_render_text(&r, out, PM_RENDER_DETAIL);
		pm_render(&r, out, PM_TABLE_MARKDOWN, PM_RENDER_DETAIL);
		pm_render_hotspots(&r, out, PM_TABLE_TEXT, 0);
		pm_render_hotspots(&r, out, PM_TABLE_MARKDOWN, PM_RENDER_ALL_FRAMES);
		pm_render_hotspots_csv_header(out);
		pm_render_hotspots(&r, out, PM_TABLE_CSV, 0);
		pm_render_csv_header(out);
		pm_render_csv(&r, out);
		one[0] = &r;
		pm_render_lmbench(one, NULL, 1, out);
		for (i = 0; i < r.nbench; i++)
			pm_hotspots_write_folded(r.bench[i].hotspots, r.bench[i].name, false, out);
		pm_result_dump(&r, out);
		pm_anonymize_result(&r);
		pm_result_dump(&r, out);
		pm_result_free(&r);
		/* show --format json --anonymize works on the document */
		doc = json_loadb((const char *)data, size, JSON_DECODE_ANY, &je);
		if (doc) {
			pm_anonymize_document(doc);
			json_dumpf(doc, out, JSON_INDENT(1));
			json_decref(doc);
		}
	}
	return 0;
}
