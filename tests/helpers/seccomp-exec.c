/*
 * seccomp-exec: run a command under a seccomp filter that allows every
 * system call, so that each one takes the kernel's seccomp path: a real
 * kernel-side slowdown for explain to find.
 *
 * The filter inspects the arguments (and allows either way), so the
 * kernel's per-syscall "always allow" cache cannot skip it; copies are
 * stacked so the cost stands well above a busy machine's noise, also
 * where a system call is slow already (a VM's): PM_SECCOMP_COPIES of
 * them (default 48; each adds some tens of ns to every system call).
 *
 * usage: seccomp-exec COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <unistd.h>

#define ARG_LO(n) (offsetof(struct seccomp_data, args) + 8 * (n))

int main(int argc, char **argv)
{
	struct sock_filter code[128];
	struct sock_fprog prog;
	const char *env = getenv("PM_SECCOMP_COPIES");
	unsigned n = 0, i, copies = env && *env ? (unsigned)atoi(env) : 48;

	if (argc < 2) {
		fprintf(stderr, "usage: seccomp-exec COMMAND [ARG...]\n");
		return 2;
	}
	/* a few dozen argument tests, every branch ends in ALLOW */
	for (i = 0; i < 60; i++) {
		code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LO(i % 6));
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							 0xdead0000 + i, 0, 0);
	}
	code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = code;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0)) {
		perror("seccomp-exec: PR_SET_NO_NEW_PRIVS");
		return 77;
	}
	for (i = 0; i < copies; i++) {
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0)) {
			perror("seccomp-exec: cannot install the filter");
			return 77;
		}
	}
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
