/*
 * Plain loops of the operations pmbench measures, timed the simplest way
 * (clock_gettime around N iterations, median of several runs), so that
 * selfcheck.sh can compare them with pmbench in the same run.
 *
 * usage: plain-loops null|fork|exec|sh HELLO-PATH
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static const char *hello;
static int devnull;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void spawn(char *const argv[], char *const envp[])
{
	pid_t pid = fork();

	if (pid == 0) {
		dup2(devnull, 1);
		execve(argv[0], argv, envp);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
}

static void op(const char *what)
{
	if (!strcmp(what, "null")) {
		syscall(SYS_getppid);
	} else if (!strcmp(what, "fork")) {
		pid_t pid = fork();

		if (pid == 0)
			_exit(0);
		waitpid(pid, NULL, 0);
	} else if (!strcmp(what, "exec")) {
		char *argv[] = { (char *)hello, NULL }, *envp[] = { NULL };

		spawn(argv, envp);	/* as lmbench: hello gets no environment */
	} else {
		char *argv[] = { "/bin/sh", "-c", (char *)hello, NULL };

		spawn(argv, environ);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	double v[15], t0;
	long n = 1, i, r;

	if (argc < 3)
		return 2;
	hello = argv[2];
	devnull = open("/dev/null", O_WRONLY);
	/* about 10 ms per run, like pmbench's default trial */
	for (;;) {
		t0 = now();
		for (i = 0; i < n; i++)
			op(argv[1]);
		if (now() - t0 > 10e6)
			break;
		n *= 2;
	}
	for (r = 0; r < 15; r++) {
		t0 = now();
		for (i = 0; i < n; i++)
			op(argv[1]);
		v[r] = (now() - t0) / n;
	}
	qsort(v, 15, sizeof(v[0]), cmp);
	printf("%.1f\n", v[7]);
	return 0;
}
