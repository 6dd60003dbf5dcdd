/*
 * bpf-exec: run a command with a BPF program on its system call path:
 * a raw tracepoint program on sys_enter that, for this process only (its
 * thread group id, which exec keeps), runs PM_BPF_BURN (default 1000)
 * multiplications before the system call proceeds.  A JIT-compiled
 * eBPF program loaded before the command starts, as a daemon's would be:
 * the profile must name it (bpf_prog_TAG_pm_test_burn, [bpf]).  Other
 * processes pay for the tgid test only.
 *
 * Raw bpf(2), no libbpf: the program is a dozen lines of instructions.
 * Exit 77 when the kernel will not load or attach it (not root, no
 * raw tracepoints), 127 when the command cannot be run.
 *
 * usage: bpf-exec COMMAND [ARG...]
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/bpf.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_BURN 100000

static struct bpf_insn insn(uint8_t code, uint8_t dst, uint8_t src, int16_t off,
			    int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .src_reg = src,
			      .off = off, .imm = imm };

	return i;
}

static long sys_bpf(int cmd, union bpf_attr *a)
{
	return syscall(__NR_bpf, cmd, a, sizeof(*a));
}

/* r0 = tgid; if r0 != ours goto out; r2 = 1; r2 *= 3 (burn times); out: exit 0 */
static size_t program(struct bpf_insn *p, unsigned burn, uint32_t tgid)
{
	size_t n = 0;
	unsigned i;

	p[n++] = insn(BPF_JMP | BPF_CALL, 0, 0, 0, BPF_FUNC_get_current_pid_tgid);
	p[n++] = insn(BPF_ALU64 | BPF_RSH | BPF_K, BPF_REG_0, 0, 0, 32);
	p[n++] = insn(BPF_JMP | BPF_JNE | BPF_K, BPF_REG_0, 0, (int16_t)(burn + 1),
		      (int32_t)tgid);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 0, 0, 1);
	for (i = 0; i < burn; i++)
		p[n++] = insn(BPF_ALU64 | BPF_MUL | BPF_K, BPF_REG_2, 0, 0, 3);
	p[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, 0, 0, 0);
	p[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0, 0, 0);
	return n;
}

int main(int argc, char **argv)
{
	static struct bpf_insn code[MAX_BURN + 8];
	static char log[65536];
	const char *env = getenv("PM_BPF_BURN");
	unsigned burn = env && *env ? (unsigned)atoi(env) : 1000;
	union bpf_attr a;
	int prog, link;

	if (argc < 2) {
		fprintf(stderr, "usage: bpf-exec COMMAND [ARG...]\n");
		return 2;
	}
	if (burn > MAX_BURN)
		burn = MAX_BURN;
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_RAW_TRACEPOINT;
	a.insn_cnt = (uint32_t)program(code, burn, (uint32_t)getpid());
	a.insns = (uint64_t)(uintptr_t)code;
	a.license = (uint64_t)(uintptr_t)"GPL";
	a.log_buf = (uint64_t)(uintptr_t)log;
	a.log_size = sizeof(log);
	a.log_level = 1;
	strncpy(a.prog_name, "pm_test_burn", sizeof(a.prog_name) - 1);
	prog = (int)sys_bpf(BPF_PROG_LOAD, &a);
	if (prog < 0) {
		fprintf(stderr, "bpf-exec: cannot load the program: %s\n%.300s", strerror(errno),
			log);
		return 77;
	}
	memset(&a, 0, sizeof(a));
	a.raw_tracepoint.name = (uint64_t)(uintptr_t)"sys_enter";
	a.raw_tracepoint.prog_fd = (uint32_t)prog;
	link = (int)sys_bpf(BPF_RAW_TRACEPOINT_OPEN, &a);
	if (link < 0) {
		fprintf(stderr, "bpf-exec: cannot attach to sys_enter: %s\n", strerror(errno));
		return 77;
	}
	/* bpf(2) descriptors are close-on-exec: the link must outlive exec */
	if (fcntl(link, F_SETFD, 0) != 0) {
		perror("bpf-exec: fcntl");
		return 77;
	}
	close(prog);
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
