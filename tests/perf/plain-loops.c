/*
 * Reference loops: each operation pmbench's lmbench-compatible benchmarks
 * measure, written the plainest way after lmbench's definition (same
 * operation, sizes, subtraction and per-op division), and timed with
 * clock_gettime around N iterations (median of 15 runs of about 10 ms).
 * selfcheck.sh runs them interleaved with pmbench and prints the ratios.
 *
 * usage: plain-loops OP HELLO-PATH [DIR]
 * OP: null stat open select sig-install sig-catch prot-fault
 *     page-fault-lmb fork exec sh pipe bw-pipe
 * Prints the time of one operation in ns.  DIR holds the scratch files
 * (default $TMPDIR or /tmp), in a directory named as pmbench names its own.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define CHUNK (64 * 1024)	/* bw_pipe's transfer size */
#define PF_FILE (8u << 20)	/* lmbench's default FILE: MB=8 */

static const char *hello;
static char dir[PATH_MAX], file[PATH_MAX + 16];
static int fd = -1, wfd = -1, rfd = -1, nfds;
static fd_set wset;
static char *map, *buf;
static size_t npages, *pages;
static long pagesz;
static pid_t me, child;
static volatile unsigned long caught, target;
static sigjmp_buf env;
static volatile int sink;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return ts.tv_sec * 1e9 + ts.tv_nsec;
}

static void die(const char *what)
{
	perror(what);
	exit(1);
}

static void handler(int sig)
{
	(void)sig;
}

static void prot(int sig)
{
	(void)sig;
	if (++caught >= target)
		siglongjmp(env, 1);
}

static void on(int sig, void (*fn)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, NULL))
		die("sigaction");
}

static void remap(void)
{
	munmap(map, PF_FILE);
	map = mmap(NULL, PF_FILE, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED || msync(map, PF_FILE, MS_INVALIDATE))
		die("mmap");
}

static void run(const char *op, long n)
{
	struct sigaction sa, old;
	struct stat st;
	static struct timeval tv;
	fd_set set;
	size_t i, done;
	ssize_t r;
	char c = 'x';
	int sum = 0, f;
	pid_t pid;

	if (!strcmp(op, "null")) {
		while (n-- > 0)
			syscall(SYS_getppid);
	} else if (!strcmp(op, "stat")) {
		while (n-- > 0)
			if (stat(file, &st))
				die("stat");
	} else if (!strcmp(op, "open")) {
		while (n-- > 0) {
			f = open(file, O_RDONLY);
			if (f < 0)
				die("open");
			close(f);
		}
	} else if (!strcmp(op, "select")) {
		while (n-- > 0) {
			set = wset;
			select(nfds, NULL, &set, NULL, &tv);
		}
	} else if (!strcmp(op, "sig-install")) {
		while (n-- > 0) {
			sa.sa_handler = handler;
			sigemptyset(&sa.sa_mask);
			sa.sa_flags = 0;
			sigaction(SIGUSR1, &sa, &old);
		}
	} else if (!strcmp(op, "send")) {
		while (n-- > 0)
			kill(me, 0);
	} else if (!strcmp(op, "catch")) {
		while (n-- > 0)
			kill(me, SIGUSR1);
	} else if (!strcmp(op, "fault")) {
		caught = 0;
		target = (unsigned long)n;
		if (sigsetjmp(env, 1) == 0)
			*(volatile char *)map = 1;
	} else if (!strcmp(op, "touch")) {
		while (n-- > 0) {
			for (i = 0; i < npages; i++)
				sum += map[pages[i]];
			remap();
		}
		sink += sum;
	} else if (!strcmp(op, "remap")) {
		while (n-- > 0)
			remap();
	} else if (!strcmp(op, "fork") || !strcmp(op, "exec") || !strcmp(op, "sh")) {
		char *nav[] = { (char *)hello, NULL };

		while (n-- > 0) {
			pid = fork();
			if (pid < 0)
				die("fork");
			if (pid == 0) {
				if (op[0] == 'f')
					exit(1);
				close(1);
				if (op[0] == 'e')
					execve(hello, nav, NULL);
				else
					execlp("/bin/sh", "sh", "-c", hello, (char *)NULL);
				exit(1);
			}
			waitpid(pid, NULL, 0);
		}
	} else if (!strcmp(op, "pipe")) {
		while (n-- > 0)
			if (write(wfd, &c, 1) != 1 || read(rfd, &c, 1) != 1)
				die("pipe");
	} else if (!strcmp(op, "bw-pipe")) {
		while (n-- > 0)
			for (done = 0; done < CHUNK; done += (size_t)r)
				if ((r = read(rfd, buf, CHUNK)) <= 0)
					die("read");
	} else {
		fprintf(stderr, "plain-loops: unknown operation %s\n", op);
		exit(2);
	}
}

static int cmp(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* The median time of one iteration of op. */
static double median(const char *op)
{
	double v[15], t0;
	long n = 1, r;

	for (;;) {
		t0 = now();
		run(op, n);
		if (now() - t0 > 10e6)
			break;
		n *= 2;
	}
	for (r = 0; r < 15; r++) {
		t0 = now();
		run(op, n);
		v[r] = (now() - t0) / n;
	}
	qsort(v, 15, sizeof(v[0]), cmp);
	return v[7];
}

static void make_file(size_t size)
{
	static char block[1 << 20];
	size_t left;

	snprintf(file, sizeof(file), "%s/file", dir);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(file);
	memset(block, 0x5b, sizeof(block));
	for (left = size; left; left -= left < sizeof(block) ? left : sizeof(block))
		if (write(fd, block, left < sizeof(block) ? left : sizeof(block)) < 0)
			die("write");
	close(fd);
	fd = open(file, O_RDONLY);
	if (fd < 0)
		die(file);
}

/* A child that echoes bytes (pipe) or writes 64 KiB chunks (bw-pipe). */
static void peer(int bw)
{
	int a[2], b[2];

	if (pipe(a) || pipe(b))
		die("pipe");
	child = fork();
	if (child < 0)
		die("fork");
	if (child == 0) {
		char c, *w = malloc(CHUNK);

		memset(w, 1, CHUNK);
		for (;;) {
			if (bw) {
				if (write(b[1], w, CHUNK) < 0)
					_exit(0);
			} else if (read(a[0], &c, 1) != 1 || write(b[1], &c, 1) != 1) {
				_exit(0);
			}
		}
	}
	wfd = a[1];
	rfd = b[0];
	close(a[0]);
	close(b[1]);
	buf = malloc(CHUNK + pagesz);
	memset(buf, 0, CHUNK + pagesz);
	buf += 128;	/* bw_pipe's reader buffer is not page aligned */
}

int main(int argc, char **argv)
{
	const char *op, *tmp = getenv("TMPDIR");
	double v = 0, catch, send;
	size_t i, j, t;
	int k, f;

	if (argc < 3)
		return 2;
	op = argv[1];
	hello = argv[2];
	pagesz = sysconf(_SC_PAGESIZE);
	me = getpid();
	snprintf(dir, sizeof(dir), "%s/pmbench.XXXXXX", argc > 3 ? argv[3] :
		 tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		die(dir);
	signal(SIGPIPE, SIG_IGN);
	if (!strcmp(op, "stat") || !strcmp(op, "open") || !strcmp(op, "select")) {
		make_file(4096);
		if (!strcmp(op, "select")) {
			for (k = 0; k < 100; k++) {
				f = dup(fd);
				FD_SET(f, &wset);
				if (f + 1 > nfds)
					nfds = f + 1;
			}
		}
		v = median(op);
	} else if (!strcmp(op, "sig-catch")) {
		on(SIGUSR1, handler);
		send = median("send");
		v = median("catch") - send;
	} else if (!strcmp(op, "prot-fault")) {
		make_file((size_t)pagesz);
		map = mmap(NULL, (size_t)pagesz, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			die("mmap");
		sink = map[0];
		on(SIGUSR1, handler);
		on(SIGSEGV, prot);
		send = median("send");
		catch = median("catch") - send;
		v = median("fault") - catch;
	} else if (!strcmp(op, "page-fault-lmb")) {
		make_file(PF_FILE);
		npages = PF_FILE / (size_t)pagesz;
		pages = malloc(npages * sizeof(*pages));
		for (i = 0; i < npages; i++)
			pages[i] = i * (size_t)pagesz;
		srand(1);
		for (i = npages - 1; i > 0; i--) {
			j = (size_t)rand() % (i + 1);
			t = pages[i];
			pages[i] = pages[j];
			pages[j] = t;
		}
		map = mmap(NULL, PF_FILE, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			die("mmap");
		v = (median("touch") - median("remap")) / (double)npages;
	} else if (!strcmp(op, "pipe") || !strcmp(op, "bw-pipe")) {
		peer(!strcmp(op, "bw-pipe"));
		v = median(op);
		close(wfd);
		close(rfd);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	} else {
		v = median(op);
	}
	if (file[0])
		unlink(file);
	rmdir(dir);
	printf("%.1f\n", v);
	return 0;
}
