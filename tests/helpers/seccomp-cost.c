/*
 * seccomp-cost: what the test seccomp filter (seccomp-filter.h) costs a
 * getppid() system call here, the operation of pmbench's null.
 *
 * A filter cannot be removed, so two processes take turns: this one
 * without filters and a child with COPIES of them, each timing a block
 * of the same number of calls while the other waits (about 2 ms of
 * unfiltered calls per block, which of the two goes first alternating).
 * Prints the median over the blocks of the ratio with/without, then the
 * median ns per call without and with.  Exit 77 when the filter cannot
 * be installed (no seccomp, or more copies than the kernel takes), 2
 * for a bad COPIES.
 *
 * usage: seccomp-cost COPIES
 */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "seccomp-filter.h"

#define BLOCKS 11
#define BLOCK_NS 2000000ull

static uint64_t now_ns(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
}

static uint64_t block(uint64_t calls)
{
	uint64_t t0 = now_ns(), i;

	for (i = 0; i < calls; i++)
		syscall(SYS_getppid);
	return now_ns() - t0;
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp);
	return v[n / 2];
}

static int full_read(int fd, void *buf, size_t n)
{
	return read(fd, buf, n) == (ssize_t)n ? 0 : -1;
}

/* The child: filters, then a block per request; a request of 0 ends it. */
static void child(unsigned copies, int in, int out)
{
	int32_t err = pm_test_seccomp_install(copies);
	uint64_t calls, ns;

	if (write(out, &err, sizeof(err)) != sizeof(err) || err)
		_exit(0);
	while (!full_read(in, &calls, sizeof(calls)) && calls) {
		ns = block(calls);
		if (write(out, &ns, sizeof(ns)) != sizeof(ns))
			break;
	}
	_exit(0);
}

int main(int argc, char **argv)
{
	int to[2], from[2], b, copies;
	uint64_t calls = 1000, ns, cns, stop = 0;
	double ratio[BLOCKS], without[BLOCKS], with[BLOCKS];
	int32_t err = 0;
	pid_t pid;

	copies = argc == 2 ? atoi(argv[1]) : -1;
	if (copies < 1 || copies > 1000) {
		fprintf(stderr, "usage: seccomp-cost COPIES (1 to 1000)\n");
		return 2;
	}
	if (pipe(to) || pipe(from)) {
		perror("seccomp-cost: pipe");
		return 1;
	}
	pid = fork();
	if (pid < 0) {
		perror("seccomp-cost: fork");
		return 1;
	}
	if (pid == 0)
		child((unsigned)copies, to[0], from[1]);
	if (full_read(from[0], &err, sizeof(err)) || err) {
		fprintf(stderr, "seccomp-cost: cannot install the filter: %s\n",
			strerror(err ? -err : EPIPE));
		waitpid(pid, NULL, 0);
		return 77;
	}
	while (block(calls) < BLOCK_NS && calls < (1ull << 30))
		calls *= 2;
	for (b = 0; b < BLOCKS; b++) {
		ns = b % 2 ? 0 : block(calls);
		if (write(to[1], &calls, sizeof(calls)) != sizeof(calls) ||
		    full_read(from[0], &cns, sizeof(cns))) {
			fprintf(stderr, "seccomp-cost: the child is gone\n");
			return 1;
		}
		if (b % 2)
			ns = block(calls);
		ratio[b] = (double)cns / (double)ns;
		without[b] = (double)ns / (double)calls;
		with[b] = (double)cns / (double)calls;
	}
	if (write(to[1], &stop, sizeof(stop)) != sizeof(stop))
		perror("seccomp-cost: write");
	waitpid(pid, NULL, 0);
	printf("%.3f %.1f %.1f\n", median(ratio, BLOCKS), median(without, BLOCKS),
	       median(with, BLOCKS));
	return 0;
}
