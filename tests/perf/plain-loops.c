/*
 * Reference loops: each operation pmbench's lmbench-compatible benchmarks
 * measure, written the plainest way after lmbench's definition (same
 * operation, sizes, subtraction and per-op division), and timed with
 * clock_gettime around N iterations (median of 15 runs of about 10 ms).
 * tests/perf/agree.c (make selfcheck) runs them trial by trial with
 * pmbench's runner, linked in (built with PLAIN_NO_MAIN) or through -s.
 *
 * usage: plain-loops [-s] OP HELLO-PATH [DIR]
 * OP: null stat open select sig-install sig-catch prot-fault
 *     page-fault-lmb fork exec sh pipe bw-pipe
 * Prints the time of one operation in ns.  DIR holds the scratch files
 * (default $TMPDIR or /tmp), in a directory named as pmbench names its own.
 * -s serves pmbench-agree: after the set-up, each line N read on standard
 * input runs one trial of N iterations (0: about 10 ms) and writes its ns
 * per operation as a line on standard output; end of input ends it.
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

#include "plain-loops.h"

#define CHUNK (64 * 1024)	/* bw_pipe's transfer size */
#define PF_FILE (8u << 20)	/* lmbench's default FILE: MB=8 */
#define PF_ORDERS 4		/* page-fault-lmb: one pass in each of 4 orders */

static const char *hello;
static char dir[PATH_MAX], file[PATH_MAX + 16];
/* what stat and open look up: file, or pmbench's own (plain_use_file) */
static char lookup[PATH_MAX + 16];
static int fd = -1, wfd = -1, rfd = -1, nfds;
static fd_set wset;
static char *map, *buf, *bufbase;
static size_t mapped;	/* length of map */
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

static void on(int sig, void (*fn)(int), struct sigaction *old)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = fn;
	sigemptyset(&sa.sa_mask);
	if (sigaction(sig, &sa, old))
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
	int sum = 0, f, k;
	pid_t pid;

	if (!strcmp(op, "null")) {
		while (n-- > 0)
			syscall(SYS_getppid);
	} else if (!strcmp(op, "stat")) {
		while (n-- > 0)
			if (stat(lookup, &st))
				die("stat");
	} else if (!strcmp(op, "open")) {
		while (n-- > 0) {
			f = open(lookup, O_RDONLY);
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
			for (k = 0; k < PF_ORDERS; k++) {
				for (i = 0; i < npages; i++)
					sum += map[pages[k * npages + i]];
				remap();
			}
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

/* Iterations of op that last about 10 ms, as a trial of pmbench's. */
static long calibrate(const char *op)
{
	long n = 1;
	double t0, t;

	for (;;) {
		t0 = now();
		run(op, n);
		t = now() - t0;
		if (t > 2e6)
			break;
		n *= 2;
	}
	n = (long)(n * 10e6 / t);
	return n > 0 ? n : 1;
}

/* One trial: the time of one iteration of op over n of them. */
static double trial(const char *op, long n)
{
	double t0 = now();

	run(op, n);
	return (now() - t0) / n;
}

/* The iteration counts of the serving mode, calibrated once per
 * operation (an OP measures up to three: catch less send, ...); the loop
 * that times the OP itself runs as many as its caller asks, if it does. */
static struct { const char *op; long n; } cal[3];
static int serving;
static const char *asked_op;
static long asked_n;

/* One iteration of op: in the serving mode one trial, else the median
 * of 15 trials. */
static double median(const char *op)
{
	double v[15];
	long n;
	int r;

	if (serving && asked_n > 0 && asked_op && !strcmp(op, asked_op))
		return trial(op, asked_n);
	if (serving) {
		for (r = 0; r < 3 && cal[r].op && strcmp(cal[r].op, op); r++)
			;
		if (r == 3)
			abort();
		if (!cal[r].op) {
			cal[r].op = op;
			cal[r].n = calibrate(op);
		}
		return trial(op, cal[r].n);
	}
	n = calibrate(op);
	for (r = 0; r < 15; r++)
		v[r] = trial(op, n);
	qsort(v, 15, sizeof(v[0]), cmp);
	return v[7];
}

/* The block is on the heap and freed: a 1 MiB array in bss would stay
 * mapped, and fork's cost follows what the forking process maps. */
static void make_file(size_t size)
{
	const size_t bsize = 1 << 20;
	char *block = malloc(bsize);
	size_t left;

	snprintf(file, sizeof(file), "%s/file", dir);
	snprintf(lookup, sizeof(lookup), "%s", file);
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (fd < 0)
		die(file);
	if (!block)
		die("malloc");
	memset(block, 0x5b, bsize);
	for (left = size; left; left -= left < bsize ? left : bsize)
		if (write(fd, block, left < bsize ? left : bsize) < 0)
			die("write");
	free(block);
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
		char c, *w = NULL;

		/* page aligned, as bw_pipe's writer (valloc) and pmbench's:
		 * from a buffer off a page the reference ran 3% slower */
		if (posix_memalign((void **)&w, (size_t)pagesz, CHUNK))
			_exit(1);
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
	buf = bufbase = malloc(CHUNK + pagesz);
	memset(buf, 0, CHUNK + pagesz);
	buf += 128;	/* bw_pipe's reader buffer is not page aligned */
}

/* The signal handlers op needs, ours only while we measure: pmbench-agree
 * runs these loops in a process where pmbench's benchmark has its own. */
static struct sigaction old_usr1, old_segv;

static void handlers(const char *op, int install)
{
	int segv = !strcmp(op, "prot-fault");

	if (!segv && strcmp(op, "sig-catch"))
		return;
	if (install) {
		on(SIGUSR1, handler, &old_usr1);
		if (segv)
			on(SIGSEGV, prot, &old_segv);
	} else {
		if (segv)
			sigaction(SIGSEGV, &old_segv, NULL);
		sigaction(SIGUSR1, &old_usr1, NULL);
	}
}

/* What lmbench subtracts from op's loop, per operation: the send of a
 * signal, the catch of one, the remap; measured at set-up, as lmbench
 * (in a benchmp of its own) and pmbench (in set-up) do. */
static double subtracted;

static double measure_subtracted(const char *op)
{
	double send;

	if (!strcmp(op, "sig-catch"))
		return median("send");
	if (!strcmp(op, "prot-fault")) {
		send = median("send");
		return median("catch") - send;
	}
	if (!strcmp(op, "page-fault-lmb"))
		return median("remap") / (double)npages;
	return 0;
}

/* The loop that times op. */
static const char *loop_of(const char *op)
{
	if (!strcmp(op, "sig-catch"))
		return "catch";
	if (!strcmp(op, "prot-fault"))
		return "fault";
	if (!strcmp(op, "page-fault-lmb"))
		return "touch";
	return op;
}

/* Set up what op needs: files, descriptors, a peer; scratch files in
 * a directory under tmp named as pmbench names its own.  serve: one
 * trial per plain_value(), not the median of 15. */
void plain_setup(const char *op, const char *hello_path, const char *tmp, int serve)
{
	unsigned seed = 1;
	size_t i, j, t;
	int k, f;

	hello = hello_path;
	pagesz = sysconf(_SC_PAGESIZE);
	me = getpid();
	snprintf(dir, sizeof(dir), "%s/pmbench.XXXXXX", tmp);
	if (!mkdtemp(dir))
		die(dir);

	if (!strcmp(op, "stat") || !strcmp(op, "open") || !strcmp(op, "select")) {
		make_file(4096);
		for (k = 0; !strcmp(op, "select") && k < 100; k++) {
			f = dup(fd);
			FD_SET(f, &wset);
			if (f + 1 > nfds)
				nfds = f + 1;
		}
	} else if (!strcmp(op, "prot-fault")) {
		make_file((size_t)pagesz);
		mapped = (size_t)pagesz;
		map = mmap(NULL, mapped, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			die("mmap");
		sink = map[0];
	} else if (!strcmp(op, "page-fault-lmb")) {
		make_file(PF_FILE);
		npages = PF_FILE / (size_t)pagesz;
		pages = malloc(PF_ORDERS * npages * sizeof(*pages));
		if (!pages)
			die("malloc");
		/* pmbench's orders: on a VM with shadow page tables two
		 * shuffles (rand and rand_r, both seeded 1) cost 17% apart */
		for (k = 0; k < PF_ORDERS; k++) {
			size_t *p = pages + (size_t)k * npages;

			seed = (unsigned)k + 1;
			for (i = 0; i < npages; i++)
				p[i] = i * (size_t)pagesz;
			for (i = npages - 1; i > 0; i--) {
				j = (size_t)rand_r(&seed) % (i + 1);
				t = p[i];
				p[i] = p[j];
				p[j] = t;
			}
		}
		mapped = PF_FILE;
		map = mmap(NULL, mapped, PROT_READ, MAP_SHARED, fd, 0);
		if (map == MAP_FAILED)
			die("mmap");
	} else if (!strcmp(op, "pipe") || !strcmp(op, "bw-pipe")) {
		peer(!strcmp(op, "bw-pipe"));
	}
	serving = 0;	/* the median of 15 trials, once */
	handlers(op, 1);
	subtracted = measure_subtracted(op);
	handlers(op, 0);
	serving = serve;
}

/* The time of one op, lmbench's way: less what it subtracts.  n > 0:
 * (serving) a trial of n iterations of op's loop, as many as pmbench's
 * trial beside it ran: on this project's virtual machine the first pass
 * of page-fault-lmb after the other's trial costs nearly twice the next,
 * so trials of unequal length differ by up to 30%. */
double plain_value(const char *op, long n)
{
	double v;

	asked_op = loop_of(op);
	asked_n = n;
	handlers(op, 1);
	v = median(loop_of(op));
	handlers(op, 0);
	if (!strcmp(op, "page-fault-lmb"))
		v /= (double)(PF_ORDERS * npages);
	return v - subtracted;
}

/* stat and open look up path, not the file plain_setup made: two
 * files made alike in the same minute cost up to 3% apart to look up
 * here, so pmbench-agree gives both loops the same one. */
void plain_use_file(const char *path)
{
	snprintf(lookup, sizeof(lookup), "%s", path);
}

/* Undo plain_setup: the next one may follow in the same process. */
void plain_cleanup(void)
{
	int k;

	if (child > 0) {
		close(wfd);
		close(rfd);
		kill(child, SIGKILL);
		waitpid(child, NULL, 0);
	}
	for (k = 0; k < nfds; k++)
		if (FD_ISSET(k, &wset))
			close(k);
	if (map && map != MAP_FAILED)
		munmap(map, mapped);
	if (fd >= 0)
		close(fd);
	if (file[0])
		unlink(file);
	rmdir(dir);
	free(pages);
	free(bufbase);
	FD_ZERO(&wset);
	nfds = 0;
	fd = wfd = rfd = -1;
	child = 0;
	map = bufbase = buf = NULL;
	pages = NULL;
	file[0] = lookup[0] = '\0';
	memset(cal, 0, sizeof(cal));
}

#ifndef PLAIN_NO_MAIN
/* One line of standard input, without its newline: its length, 0 at
 * the end of input. */
static ssize_t read_line(char *line, size_t len)
{
	size_t n = 0;
	char c;

	while (n + 1 < len && read(0, &c, 1) == 1 && c != '\n')
		line[n++] = c;
	line[n] = '\0';
	return (ssize_t)n;
}

int main(int argc, char **argv)
{
	const char *tmp = getenv("TMPDIR");
	int serve = 0;
	char line[32];

	if (argc > 1 && !strcmp(argv[1], "-s")) {
		serve = 1;
		argv++;
		argc--;
	}
	if (argc < 3)
		return 2;
	signal(SIGPIPE, SIG_IGN);
	plain_setup(argv[1], argv[2], argc > 3 ? argv[3] : tmp && *tmp ? tmp : "/tmp", serve);
	if (!serve) {
		printf("%.1f\n", plain_value(argv[1], 0));
	} else {
		/* read(2) and dprintf, not stdio: no stdio buffers in this
		 * process, which forks as small as pmbench-spawner does */
		while (read_line(line, sizeof(line)) > 0)
			dprintf(1, "%.1f\n", plain_value(argv[1], atol(line)));
	}
	plain_cleanup();
	return 0;
}
#endif
