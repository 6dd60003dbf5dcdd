/*
 * A workload with known figures, for pmbench stat's tests:
 *
 *   workload [-c CHILDREN] [-p PAGES] [-u STEPS] [-s SYSCALLS] [-m MESSAGE] [-x STATUS]
 *
 * forks CHILDREN children one after another, each touching PAGES fresh
 * pages (at least one page fault each) before it exits; burns STEPS
 * steps of user-space arithmetic (pm_test_user_work); makes SYSCALLS
 * 64 KiB reads of /dev/zero (pm_test_syscalls: planted kernel time); writes
 * MESSAGE on standard error and exits with STATUS.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile unsigned long sink;

__attribute__((noinline)) void pm_test_user_work(long steps);
__attribute__((noinline)) void pm_test_user_work(long steps)
{
	unsigned long x = sink;

	for (long i = 0; i < steps; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	sink = x;
}

/* Reads of 64 KiB from /dev/zero: time in the kernel (clearing the
 * user buffer) far above the cost of entering it. */
__attribute__((noinline)) int pm_test_syscalls(long n);
__attribute__((noinline)) int pm_test_syscalls(long n)
{
	static char buf[65536];
	int fd = n > 0 ? open("/dev/zero", O_RDONLY) : -1;

	if (n > 0 && fd < 0)
		return 1;
	for (long i = 0; i < n; i++)
		if (read(fd, buf, sizeof(buf)) != (ssize_t)sizeof(buf))
			return 1;
	if (fd >= 0)
		close(fd);
	return 0;
}

static int touch_pages(long pages)
{
	long page = sysconf(_SC_PAGESIZE);
	char *p;

	if (pages <= 0)
		return 0;
	p = mmap(NULL, (size_t)(pages * page), PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return 1;
	/* one fault per page: no transparent huge page */
	madvise(p, (size_t)(pages * page), MADV_NOHUGEPAGE);
	for (long i = 0; i < pages; i++)
		p[i * page] = 1;
	return 0;
}

int main(int argc, char **argv)
{
	long children = 0, pages = 0, steps = 0, calls = 0;
	const char *message = NULL;
	int c, status = 0;

	while ((c = getopt(argc, argv, "c:p:u:s:m:x:")) != -1) {
		switch (c) {
		case 'c': children = atol(optarg); break;
		case 'p': pages = atol(optarg); break;
		case 'u': steps = atol(optarg); break;
		case 's': calls = atol(optarg); break;
		case 'm': message = optarg; break;
		case 'x': status = atoi(optarg); break;
		default:
			fprintf(stderr, "usage: workload [-c N] [-p PAGES] [-u STEPS] [-s SYSCALLS] "
				"[-m MESSAGE] [-x STATUS]\n");
			return 2;
		}
	}
	for (long i = 0; i < children; i++) {
		pid_t pid = fork();
		int st;

		if (pid < 0)
			return 1;
		if (pid == 0)
			_exit(touch_pages(pages));
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
			return 1;
	}
	pm_test_user_work(steps);
	if (pm_test_syscalls(calls))
		return 1;
	if (message)
		fprintf(stderr, "%s\n", message);
	return status;
}
