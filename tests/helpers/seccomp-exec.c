/*
 * seccomp-exec: run a command under a seccomp filter that allows every
 * system call, so that each one takes the kernel's seccomp path: a real
 * kernel-side slowdown for explain to find.
 *
 * The filter inspects the arguments (and allows either way), so the
 * kernel's per-syscall "always allow" cache cannot skip it; copies are
 * stacked so the cost stands well above a busy machine's noise, also
 * where a system call is slow already (a VM's): PM_SECCOMP_COPIES of
 * them (default 48; each adds some tens of ns to every system call;
 * tests/helpers/seccomp-cost measures what they cost here).
 *
 * usage: seccomp-exec COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seccomp-filter.h"

int main(int argc, char **argv)
{
	const char *env = getenv("PM_SECCOMP_COPIES");
	unsigned copies = env && *env ? (unsigned)atoi(env) : 48;
	int err;

	if (argc < 2) {
		fprintf(stderr, "usage: seccomp-exec COMMAND [ARG...]\n");
		return 2;
	}
	err = pm_test_seccomp_install(copies);
	if (err) {
		fprintf(stderr, "seccomp-exec: cannot install the filter: %s\n", strerror(-err));
		return 77;
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
