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
	/* Fail on a row whose figures cannot all be placed in their
	 * columns, rather than leave those figures unmeasured. */
	PM_IMPORT_STRICT = 1u << 0,
};

/* What an import says besides its results. */
struct pm_import_log {
	char **warnings;	/* "FILE: SECTION: row N (...): A B not imported: why" */
	size_t nwarnings;
	char **notes;		/* text skipped (footers, signatures, prose) */
	size_t nnotes;
};

void pm_import_log_free(struct pm_import_log *log);

/*
 * One result per row of the summary (per run), in order.  Figures are
 * exactly those printed; '-', '-1' and blank cells are not measured.
 * A row's figures that cannot be placed with certainty are left out,
 * each such row with a warning in *log and in the result's
 * options.import.left_out (with PM_IMPORT_STRICT: an error).  Other
 * unreadable input is an error (-EINVAL) naming the file, the table and
 * the row.  *out is an array of *nout results: pm_import_free() it.
 * log may be NULL.
 */
int pm_import_lmbench(const char *text, const char *file,
		      struct pm_result **out, size_t *nout, struct pm_err *e);
int pm_import_lmbench_flags(const char *text, const char *file, unsigned flags,
			    struct pm_result **out, size_t *nout,
			    struct pm_import_log *log, struct pm_err *e);

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
