/* The lmbench summary importer, lenient and --strict, and its tables. */
#include "config.h"

#include <stdlib.h>

#include "bench/bench.h"
#include "fuzz.h"
#include "import/import.h"
#include "results/catalog.h"
#include "views/render.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const unsigned flags[] = { 0, PM_IMPORT_STRICT };
	char *text = pm_fuzz_text(data, size);
	struct pm_result *runs;
	struct pm_err e;
	size_t n, i, k;

	/* the benchmarks' names for lmbench columns and AIM9 tests */
	pm_catalog_set(&pm_bench_catalog);

	for (k = 0; k < 2; k++) {
		struct pm_import_log log = { 0 };
		int err = pm_import_lmbench_flags(text, "fuzz.txt", flags[k], &runs, &n,
						  &log, &e);

		pm_import_log_free(&log);
		if (err)
			continue;
		{
			const struct pm_result *v[n ? n : 1];

			for (i = 0; i < n; i++) {
				v[i] = &runs[i];
				pm_result_dump(&runs[i], pm_fuzz_sink());
			}
			pm_render_lmbench(v, NULL, n, pm_fuzz_sink());
		}
		pm_import_free(runs, n);
	}
	free(text);
	return 0;
}
