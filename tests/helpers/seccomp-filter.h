/*
 * The test helpers' seccomp filter: a few dozen tests of system call
 * arguments, every branch ending in ALLOW.  Because it reads arguments,
 * the kernel's per-syscall "always allow" cache (Linux 5.11) cannot
 * skip it: each copy runs on every system call.  A copy is 121
 * classic instructions, about 185 once the kernel converts them to
 * eBPF; it allows 32768 per process (4 more counted per filter): some
 * 170 copies, beyond which installing fails with ENOMEM.
 */
#ifndef PM_TEST_SECCOMP_FILTER_H
#define PM_TEST_SECCOMP_FILTER_H

#include <errno.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>

#define PM_SECCOMP_TESTS 60

/* Install copies of the filter in this process: 0 or -errno. */
static int pm_test_seccomp_install(unsigned copies)
{
	struct sock_filter code[2 * PM_SECCOMP_TESTS + 1];
	struct sock_fprog prog;
	unsigned n = 0, i;

	for (i = 0; i < PM_SECCOMP_TESTS; i++) {
		code[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
			offsetof(struct seccomp_data, args) + 8 * (i % 6));
		code[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							 0xdead0000 + i, 0, 0);
	}
	code[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
	prog.len = (unsigned short)n;
	prog.filter = code;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0))
		return -errno;
	for (i = 0; i < copies; i++)
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0))
			return -errno;
	return 0;
}

#endif
