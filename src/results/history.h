/*
 * The result history: `pmbench run` without -o keeps its result in
 * $XDG_DATA_HOME/pmbench/results/ (default ~/.local/share/pmbench/results),
 * one file per run named by its time and kernel, so that "the last run"
 * has a name: @latest, @-N (N runs before it), @LABEL (the newest run
 * with that --label).  pm_history_resolve() is the one place these
 * names are understood; every command that reads result files calls it.
 */
#ifndef PM_HISTORY_H
#define PM_HISTORY_H

#include <stdbool.h>
#include <stddef.h>

#include "results/result.h"
#include "util.h"

/* The directory (not created); -ENOENT when neither XDG_DATA_HOME nor
 * HOME names one. */
int pm_history_dir(char **dir, struct pm_err *e);
/* Create the directory if needed and check that files can be made in it. */
int pm_history_prepare(char **dir, struct pm_err *e);
/* "20261204T101500Z-6.1.0-13-amd64.json": the created time (UTC) and
 * the kernel release of a run. */
char *pm_history_file_name(const struct pm_result *r);
/* Store r in the history (atomically, never over another run); the path. */
int pm_history_save(const struct pm_result *r, char **path, struct pm_err *e);
/* The history's result files, oldest first (*n may be 0). */
int pm_history_list(char ***paths, size_t *n, struct pm_err *e);
void pm_history_list_free(char **paths, size_t n);

/* Does the argument name a run of the history ("@...")? */
bool pm_history_is_ref(const char *arg);
/*
 * A command-line name of a result: "@latest", "@-N", "@LABEL" become the
 * file in the history; anything else is returned as given (a file or a
 * directory).  -EINVAL/-ENOENT with a message naming arg when there is
 * no such run.
 */
int pm_history_resolve(const char *arg, char **path, struct pm_err *e);

#endif
