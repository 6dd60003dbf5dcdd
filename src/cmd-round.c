/*
 * pmbench __round: one round of trials in a fresh process, for `pmbench
 * run` (src/bench/rounds.c).  Not for users: it reads its request on
 * standard input and answers on standard output.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "bench/runner.h"
#include "cmd.h"

int cmd_round(int argc, char **argv)
{
	struct pm_err e = { 0 };
	int err;

	if (argc != 1) {
		pm_error("__round is internal to 'pmbench run' and takes no arguments");
		return PM_EXIT_USAGE;
	}
	/* main() caught the stop signals: PM_CMD_CATCH_STOP */
	err = pm_round_worker(stdin, stdout, &e);
	if (err == -EINTR)
		return pm_cmd_stop_status();
	if (err) {
		pm_error("%s", e.msg);
		return err == -EINVAL ? PM_EXIT_USAGE : PM_EXIT_RUNTIME;
	}
	return PM_EXIT_OK;
}
