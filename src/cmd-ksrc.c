/*
 * pmbench __ksrc VMLINUX [SYMBOL...]: the source file of kernel functions
 * from a vmlinux's DWARF, one "symbol<TAB>file" line each (every function
 * when no symbol is named).  Not for users: contrib/mkmechmap builds the
 * shipped map of mechanisms/ from it.
 */
#include "config.h"

#include <stdio.h>

#include "cmd.h"
#include "symbols/symbols.h"

int cmd_ksrc(int argc, char **argv)
{
	struct pm_ksrc *k;
	struct pm_err e;
	size_t i, n;
	int err;

	if (argc < 2) {
		pm_error("usage: pmbench __ksrc VMLINUX [SYMBOL...]");
		return PM_EXIT_USAGE;
	}
	err = pm_ksrc_open(&k, argv[1], &e);
	if (err) {
		pm_error("%s", e.msg);
		return pm_exit_status(err);
	}
	n = argc > 2 ? (size_t)argc - 2 : pm_ksrc_count(k);
	for (i = 0; i < n; i++) {
		const char *name = argc > 2 ? argv[i + 2] : pm_ksrc_name(k, i);
		const char *f = pm_ksrc_file(k, name);

		printf("%s\t%s\n", name, f ? f : "?");
	}
	pm_ksrc_close(k);
	return fflush(stdout) ? PM_EXIT_RUNTIME : PM_EXIT_OK;
}
