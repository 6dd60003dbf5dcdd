/*
 * export: results and explanations in the submission formats of the
 * systems that compare kernels at scale.  kcidb.c writes KernelCI's
 * KCIDB I/O (kernelci/kcidb-io, schema 4 and 5; pmbench-export(1)).
 */
#ifndef PM_EXPORT_H
#define PM_EXPORT_H

#include <jansson.h>
#include <stdbool.h>

#include "explain/explain.h"

struct pm_kcidb_opts {
	const char *origin;	/* the submitting system, [a-z0-9_]+: ids are "ORIGIN:..." */
	int major;		/* schema 4 (written as 4.4) or 5 (5.0) */
	const char *only;	/* one benchmark, or NULL */
};

/* Is s an origin KCIDB accepts (lower-case letters, digits, '_')? */
bool pm_kcidb_origin_valid(const char *s);

/*
 * A side (its result files merged) as a KCIDB submission: a checkout and
 * a build of its kernel from the fingerprint, a test per benchmark with
 * its figure as the test's number.  Ids are stable: the same files give
 * the same ids.  -EINVAL with e set when the files do not merge, or when
 * o->only names no benchmark of the side.
 */
int pm_kcidb_side(json_t **out, const struct pm_side *s, const struct pm_kcidb_opts *o,
		  struct pm_err *e);

/*
 * An explanation: both sides' checkouts, builds and tests; a benchmark
 * compared is NEW's test with the verdict as its status (a regression
 * FAIL) and the comparison, first cause and proof in its misc.
 */
int pm_kcidb_explanation(json_t **out, const struct pm_explanation *x,
			 const struct pm_kcidb_opts *o, struct pm_err *e);

#endif
