/*
 * pmbench-spawner: runs the fork, exec and sh loops from a small process.
 *
 * fork() costs grow with the parent's address space (page tables, VMAs,
 * anonymous pages): forked from pmbench itself, the fork benchmarks would
 * measure pmbench's size, and change whenever pmbench grows.  As with
 * lmbench's lat_proc, the loops run in a tiny program of fixed size.
 *
 * usage: pmbench-spawner fork|fork-exit|exec|sh|system HELLO
 * Reads a 64-bit iteration count on fd 3, runs that many operations and
 * answers on fd 4 with a 32-bit status: 0, a failed child's wait status,
 * or -errno.  EOF on fd 3 ends it.  Only libc.
 *
 * fork's child calls exit(0), as lmbench's and AIM9's do; fork-exit is
 * AIM9's name (fork_test) for the same loop.  With system (shell_rtns)
 * the forked child runs system(HELLO), HELLO being a shell command
 * line, and exits with the command's status.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

enum op { OP_FORK, OP_EXEC, OP_SH, OP_SYSTEM };

static int32_t run(enum op op, uint64_t n, char *const hello_argv[],
		   char *const sh_argv[], int devnull)
{
	static char *const empty_env[] = { NULL };

	while (n--) {
		pid_t pid = fork();
		int status;

		if (pid < 0)
			return -errno;
		if (pid == 0) {
			/* exit(), not _exit(), as lmbench's lat_proc fork and
			 * AIM9's fork_test: the stdio clean-up writes to the
			 * copied C library state (copy-on-write faults) */
			if (op == OP_FORK)
				exit(0);
			dup2(devnull, 1);
			if (op == OP_SYSTEM) {
				/* as AIM9's aim_system(): fork, then system() */
				int r = system(sh_argv[2]);

				exit(r == -1 ? 127 : WIFEXITED(r) ?
				     WEXITSTATUS(r) : 128 + WTERMSIG(r));
			}
			/* as lmbench: hello gets no environment, sh gets ours */
			if (op == OP_EXEC)
				execve(hello_argv[0], hello_argv, empty_env);
			else
				execve(sh_argv[0], sh_argv, environ);
			_exit(127);
		}
		while (waitpid(pid, &status, 0) < 0)
			if (errno != EINTR)
				return -errno;
		if (status != 0)
			return status;
	}
	return 0;
}

int main(int argc, char **argv)
{
	char *hello_argv[] = { NULL, NULL };
	char *sh_argv[] = { "/bin/sh", "-c", NULL, NULL };
	enum op op;
	int devnull;

	if (argc != 3)
		return 2;
	if (!strcmp(argv[1], "fork"))
		op = OP_FORK;
	else if (!strcmp(argv[1], "fork-exit"))
		op = OP_FORK;	/* AIM9's name for the same loop */
	else if (!strcmp(argv[1], "exec"))
		op = OP_EXEC;
	else if (!strcmp(argv[1], "sh"))
		op = OP_SH;
	else if (!strcmp(argv[1], "system"))
		op = OP_SYSTEM;
	else
		return 2;
	hello_argv[0] = argv[2];
	sh_argv[2] = argv[2];
	devnull = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (devnull < 0)
		return 1;
	for (;;) {
		uint64_t n;
		int32_t st;
		ssize_t r;

		r = read(3, &n, sizeof(n));
		if (r < 0 && errno == EINTR)
			continue;
		if (r != (ssize_t)sizeof(n))
			return r == 0 ? 0 : 1;
		st = run(op, n, hello_argv, sh_argv, devnull);
		if (write(4, &st, sizeof(st)) != (ssize_t)sizeof(st))
			return 1;
	}
}
