/*
 * Where a command's result file goes (-o): a regular file replaced
 * atomically, standard output ("-"), or a FIFO, character device or
 * terminal written in place.  Checked before the work starts; a write
 * that fails keeps the results in a recovery file or on standard output.
 */
#ifndef PM_OUTPUT_H
#define PM_OUTPUT_H

#include <stdbool.h>
#include <stdio.h>

#include "results/result.h"
#include "util.h"

enum pm_output_kind {
	PM_OUTPUT_NONE,		/* no -o */
	PM_OUTPUT_STDOUT,	/* -o - (or a path that is our standard output) */
	PM_OUTPUT_FILE,		/* regular or new file: temp file + rename */
	PM_OUTPUT_STREAM,	/* FIFO, character device, terminal: written into */
};

struct pm_output {
	enum pm_output_kind kind;
	char *path;		/* as given */
	char *target;		/* what is written: path, or a symlink's target */
	char *recovered;	/* after a failed write: the recovery file, if any */
};

/*
 * Decide where -o PATH writes and check that it can, before any work.
 * Every refusal is -EINVAL (a usage error) with a message naming PATH: an empty
 * path, a directory, a block device, a socket, a dangling symbolic link,
 * a symbolic link another user owns in a sticky world-writable directory
 * (as fs.protected_symlinks), a file in a directory where no file can be
 * created, a FIFO or device this user cannot write.
 */
int pm_output_open(struct pm_output *o, const char *path, struct pm_err *e);

/*
 * Write with writer(f, arg).  When the write fails (ENOSPC, EIO, EDQUOT,
 * a reader that went away), the results are written to a recovery file
 * ($TMPDIR or /tmp) or, failing that, to standard output; the message
 * names the path, the error and where the results are.  Returns the
 * error of the first write (0 when it succeeded).
 */
int pm_output_write(struct pm_output *o, int (*writer)(FILE *f, void *arg),
		    void *arg, struct pm_err *e);
int pm_output_write_result(struct pm_output *o, const struct pm_result *r,
			   struct pm_err *e);

static inline bool pm_output_is_stdout(const struct pm_output *o)
{
	return o->kind == PM_OUTPUT_STDOUT;
}

void pm_output_free(struct pm_output *o);

#endif
