/*
 * Results of other suites as pmbench result files: lmbench summaries
 * (scripts/getsummary output) and AIM9 logs, also as mangled by mail.
 */
#ifndef PM_IMPORT_H
#define PM_IMPORT_H

#include <stddef.h>

#include "results/result.h"
#include "util.h"

enum pm_import_flags {
	/* Leave out, rather than fail on, rows whose blank columns the
	 * figures do not place; each is described in the result's
	 * options.import.left_out. */
	PM_IMPORT_PARTIAL = 1u << 0,
};

/*
 * One result per row of the summary (per run), in order.  Figures are
 * exactly those printed; anything that cannot be read with certainty is
 * an error (-EINVAL) naming the file, the section and the row.  *out is
 * an array of *nout results: pm_result_free() each, then free(*out).
 */
int pm_import_lmbench(const char *text, const char *file,
		      struct pm_result **out, size_t *nout, struct pm_err *e);
int pm_import_lmbench_flags(const char *text, const char *file, unsigned flags,
			    struct pm_result **out, size_t *nout,
			    struct pm_err *e);

/*
 * AIM9 log lines "name elapsed_ms iterations/s ops/s description/second",
 * quoted ("> ") or not, among other text: result k holds the k-th line
 * of every test (a mail comparing two kernels lists each test twice).
 */
int pm_import_aim9(const char *text, const char *file,
		   struct pm_result **out, size_t *nout, struct pm_err *e);

/* Free what the importers return. */
void pm_import_free(struct pm_result *runs, size_t n);

#endif
