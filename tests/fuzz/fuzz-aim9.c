/* The AIM9 log importer. */
#include "config.h"

#include <stdlib.h>

#include "bench/bench.h"
#include "fuzz.h"
#include "import/import.h"
#include "results/catalog.h"
#include "views/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = pm_fuzz_text(data, size);
	struct pm_result *runs;
	struct pm_err e;
	size_t n, i;

	/* the benchmarks' names for lmbench columns and AIM9 tests */
	pm_catalog_set(&pm_bench_catalog);

	if (pm_import_aim9(text, "fuzz.txt", &runs, &n, &e) == 0) {
		for (i = 0; i < n; i++) {
			pm_result_dump(&runs[i], pm_fuzz_sink());
			pm_render_text(&runs[i], pm_fuzz_sink(), PM_RENDER_DETAIL);
		}
		pm_import_free(runs, n);
	}
	free(text);
	return 0;
}
