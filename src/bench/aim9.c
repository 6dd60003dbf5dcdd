/*
 * The aim9 family: the tests of the AIM Independent Resource Benchmark,
 * Suite IX (Caldera's GPL release of AIM's s9110), reported as AIM9
 * reports them, in operations per second.
 *
 * AIM9 times calls of a test function and multiplies the calls per
 * second by a factor registered with the test (register_test()): the
 * operations one call counts.  Here one iteration of run() is the work
 * of one such call, done as the AIM9 source does it, and ctx->ops_per_iter
 * is AIM9's factor, so the figure is AIM9's ops/s.  Three kinds of test
 * are cut finer, with the same work per operation:
 *   - the arithmetic loops: one iteration is 1000 passes of the loop,
 *     12 thousand operations, instead of the call's 20000 .. 5000000;
 *   - the sync_disk tests: one iteration is one synchronous 1 KiB write;
 *     the file the call creates (and fills) is created every 2560 writes;
 *   - fork_test, exec_test: one iteration is one process.
 * The AIM9 source is not copied; each test below says what it does.
 *
 * An operation and its loop are PM_OP's (bench.h); what is not timed is
 * setup()'s, its state in ctx->priv until teardown().
 */
#include "config.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <math.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <pwd.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/times.h>
#include <sys/types.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/spawn.h"
#include "util.h"


/* ---- common helpers ---- */

/* Result of a read or write of `want` bytes: 0, or -errno (-EIO short). */
static int aim_io(struct pm_ctx *ctx, ssize_t r, size_t want, const char *what,
		  const char *path)
{
	if (r == (ssize_t)want)
		return 0;
	if (r < 0)
		return pm_bench_fail(ctx, -errno, "%s %s", what, path);
	return pm_bench_why(ctx, -EIO, "%s %s: %zd of %zu bytes", what, path, r,
		       want);
}

/* An integer value the compiler must compute and keep as it is. */
#define AIM_KEEP(x) __asm__ __volatile__("" : "+r"(x))
#define AIM_NOKEEP(x) ((void)0)

/* AIM9's mode for the files it creates. */
#define AIM_MODE (S_IRWXU | S_IRWXG | S_IRWXO)

/* AIM9's aim_mktemp(): a new name for every call, here in the scratch
 * directory: the prefix and 10 digits (pid and a counter). */
static unsigned aim_tmp_counter;

static void aim_mktemp(const struct pm_ctx *ctx, char *buf, size_t len,
		       const char *prefix)
{
	unsigned n = __atomic_fetch_add(&aim_tmp_counter, 1, __ATOMIC_RELAXED);

	snprintf(buf, len, "%s/%s%05d%05u", ctx->scratch, prefix,
		 (int)(getpid() % 100000), n % 100000);
}


/* ---- the state of every test ---- */

struct aim {
	/* arithmetic: AIM9's two arguments (volatile: unknown to the
	 * compiler, as AIM9's sscanf()ed arguments are) */
	volatile double arg1, arg2;
	/* files */
	char tmp[PATH_MAX];	/* sync tests: the file of the current call */
	bool tmp_live;
	char common[PATH_MAX];	/* AIM9's tmpa.common */
	bool common_made;
	int fd, fd2;
	unsigned step;		/* sync tests: writes done in the call */
	unsigned msg;		/* next message size */
	/* signal_test */
	struct sigaction oldsig;
	sigset_t oldmask;
	bool sig_saved;
	/* fork_test, exec_test, shell_rtns: pmbench-spawner */
	struct pm_spawner sp;
	char scripts[3][PATH_MAX];
	int nscripts;
	/* AIM9's process-wide state, one per copy of a test (copies may run
	 * at once as threads) */
	unsigned long seed;	/* aim_rand() */
	unsigned count, count10;	/* next_value(), ARG */
	int *table;		/* sort_rtns_1 */
	double *a, *a_orig, *results;	/* array_rtns */
	char nbuf[1024];	/* the disk tests' block */
	char *bufs, *buf_a, *buf_b;	/* mem_rtns_2, ram_copy */
	char shm_buf[2048];
	/* results nobody reads, so that nothing is optimized away */
	volatile double dsink, fake[5];
	volatile long lsink;
};

struct aim_info {
	const char *test;	/* AIM9 name */
	unsigned ops;		/* operations per iteration */
	const char *params;
};

static const struct aim_info aim_infos[] = {
	{ "add_double", 12, "1000 passes of 12 additions (AIM9: 1500000 "
	  "passes per call)" },
	{ "add_float", 12, "1000 passes of 12 additions (AIM9: 1000000 "
	  "passes per call)" },
	{ "add_long", 12, "1000 passes of 12 additions (AIM9: 5000000 "
	  "passes per call)" },
	{ "add_int", 12, "1000 passes of 12 additions (AIM9: 5000000 "
	  "passes per call)" },
	{ "add_short", 12, "1000 passes of 12 additions (AIM9: 2000000 "
	  "passes per call)" },
	{ "creat-clo", 1000, "1000 creat()+close() of one new file, unlink" },
	{ "page_test", 1700, "100 x (sbrk -64 KiB, 16 x (sbrk 4 KiB, dirty "
	  "it)) = 1700 sbrk" },
	{ "brk_test", 17000, "1000 x (sbrk -64 KiB, 16 x sbrk 4 KiB) = "
	  "17000 sbrk" },
	{ "jmp_test", 1000, "1000 x (setjmp, 11 nested calls, longjmp)" },
	{ "signal_test", 1000, "1000 x kill(self, SIGUSR2) to a handler that "
	  "reinstalls itself" },
	{ "exec_test", 1, "fork, execve(pmbench-hello), wait" },
	{ "fork_test", 1, "fork, exit(0) in the child, wait" },
	{ "link_test", 63, "creat, 7 links, 63 unlink+link pairs, 8 unlinks" },
	{ "disk_rr", 5120, "5 MiB file written, then 5120 random 1 KiB reads" },
	{ "disk_rw", 5120, "5 MiB file written, then 5120 random 1 KiB "
	  "writes" },
	{ "disk_rd", 5120, "5120 sequential 1 KiB reads of a 5 MiB file" },
	{ "disk_wrt", 5120, "5120 sequential 1 KiB writes to a new file" },
	{ "disk_cp", 5120, "5120 1 KiB reads of a 5 MiB file, each written to "
	  "a new file" },
	{ "sync_disk_rw", 1, "one random O_SYNC 1 KiB write; every 2560: a "
	  "new 2.5 MiB file" },
	{ "sync_disk_wrt", 1, "one sequential O_SYNC 1 KiB write; every 2560: "
	  "a new file" },
	{ "sync_disk_cp", 1, "one 1 KiB read and O_SYNC write; every 2560: a "
	  "new copy" },
	{ "div_double", 12, "1000 passes of 12 divisions (AIM9: 250000 passes "
	  "per call)" },
	{ "div_float", 12, "1000 passes of 12 divisions (AIM9: 250000 passes "
	  "per call)" },
	{ "div_long", 12, "1000 passes of 12 divisions (AIM9: 75000 passes "
	  "per call)" },
	{ "div_int", 12, "1000 passes of 12 divisions (AIM9: 75000 passes "
	  "per call)" },
	{ "div_short", 12, "1000 passes of 12 divisions (AIM9: 75000 passes "
	  "per call)" },
	{ "sieve", 5, "5 sieves of Eratosthenes up to 1000000 in a new "
	  "table" },
	{ "mul_double", 12, "1000 passes of 12 multiplications (AIM9: 1000000 "
	  "passes per call)" },
	{ "mul_float", 12, "1000 passes of 12 multiplications (AIM9: 1000000 "
	  "passes per call)" },
	{ "mul_long", 12, "1000 passes of 12 multiplications (AIM9: 20000 "
	  "passes per call)" },
	{ "mul_int", 12, "1000 passes of 12 multiplications (AIM9: 20000 "
	  "passes per call)" },
	{ "mul_short", 12, "1000 passes of 12 multiplications (AIM9: 25000 "
	  "passes per call)" },
	{ "num_rtns_1", 100, "100 x (exp, log10, log, modf, frexp, ldexp, "
	  "fmod, pow, sqrt, srand, rand, ...)" },
	{ "new_raph", 200, "200 zeros of 1000 sin(x) cos(x) by "
	  "Newton-Raphson" },
	{ "trig_rtns", 10000, "10000 x (sin, asin, cos, acos, tan, atan, "
	  "tanh, sinh, cosh, atan2)" },
	{ "matrix_rtns", 100, "100 x (4x4 matrix) * (4-vector)" },
	{ "array_rtns", 20, "20 linear systems of 5 .. 100 unknowns by "
	  "Gaussian elimination" },
	{ "string_rtns", 100, "100 x (printf/strto* conversions, ctype over "
	  "1 KiB, str* functions)" },
	{ "mem_rtns_1", 30000, "100 x (300 malloc/calloc, touch, 300 free)" },
	{ "mem_rtns_2", 100, "100 x (memset, memchr, memcmp, memcpy, "
	  "memmove) of 1 .. 8192 bytes" },
	{ "sort_rtns_1", 10, "2 x (3 qsort of 10000 ints, 2000 bsearch)" },
	{ "misc_rtns_1", 10, "10 x (getcwd, get*id, getenv, getpwnam, "
	  "getpwuid, getgrgid, times, ttyname, uname, ...)" },
	{ "dir_rtns_1", 10000, "opendir(/bin), 10000 readdir (rewinddir at "
	  "the end), closedir" },
	{ "shell_rtns_1", 1, "fork, system(\"aim_1.sh 1\"), wait" },
	{ "shell_rtns_2", 1, "fork, system(\"aim_2.sh 1\"), wait" },
	{ "shell_rtns_3", 1, "fork, system(\"aim_3.sh 1\"), wait" },
	{ "series_1", 100, "100 sin(x) Taylor series summed to convergence" },
	{ "shared_memory", 100, "SysV shm+sem created, 100 x (2 semaphore-"
	  "locked copies), removed" },
	{ "tcp_test", 90, "loopback connection set up, 89 messages of 1 .. "
	  "2048 bytes, closed" },
	{ "udp_test", 100, "loopback UDP pair set up, 99 datagrams of 1 .. "
	  "2048 bytes, closed" },
	{ "fifo_test", 100, "FIFO created, 99 messages of 1 .. 2048 bytes, "
	  "closed" },
	{ "stream_pipe", 100, "AF_UNIX stream socketpair, 99 messages of "
	  "1 .. 2048 bytes, closed" },
	{ "dgram_pipe", 100, "AF_UNIX datagram socketpair, 99 messages of "
	  "1 .. 2048 bytes, closed" },
	{ "pipe_cpy", 100, "pipe, 99 messages of 1 .. 2048 bytes, closed" },
	{ "ram_copy", 25020, "64 memcpy of 1 .. 8192 bytes: 25020 bytes "
	  "copied" },
};

/* AIM9's aim_rand(): an LCG, for the random disk tests. */
static unsigned aim_rand(struct aim *st)
{
	st->seed = st->seed * 1103515245ul + 12345ul;
	return (unsigned)((st->seed >> 16) & 0x7fff);
}

static void aim_teardown(struct pm_ctx *ctx)
{
	struct aim *st = ctx->priv;
	int i;

	if (!st)
		return;
	if (st->fd >= 0)
		close(st->fd);
	if (st->fd2 >= 0)
		close(st->fd2);
	if (st->tmp_live)
		unlink(st->tmp);
	if (st->common_made)
		unlink(st->common);
	if (st->sig_saved) {
		sigaction(SIGUSR2, &st->oldsig, NULL);
		sigprocmask(SIG_SETMASK, &st->oldmask, NULL);
	}
	pm_spawner_stop(&st->sp);
	for (i = 0; i < st->nscripts; i++)
		unlink(st->scripts[i]);
	free(st->table);
	free(st->a);
	free(st->a_orig);
	free(st->results);
	free(st->bufs);
	free(st);
	ctx->priv = NULL;
}

static struct aim *aim_new(struct pm_ctx *ctx)
{
	struct aim *st = pm_xcalloc(1, sizeof(*st));
	size_t i;

	st->fd = st->fd2 = -1;
	st->sp.cmd = st->sp.reply = -1;
	st->seed = 1;
	ctx->priv = st;
	for (i = 0; i < PM_ARRAY_SIZE(aim_infos); i++) {
		if (strcmp(aim_infos[i].test, ctx->bench->aim9))
			continue;
		ctx->ops_per_iter = aim_infos[i].ops;
		snprintf(ctx->params, sizeof(ctx->params), "%s",
			 aim_infos[i].params);
	}
	return st;
}

static int aim_setup(struct pm_ctx *ctx)
{
	aim_new(ctx);
	return 0;
}

/* AIM9's tmpa.common: a file of disk_iteration_count (5120) 1 KiB
 * blocks, FILESIZE 5M of the standard s9workfile. */
#define AIM_BLOCK 1024
#define AIM_BLOCKS 5120
#define AIM_SYNC_BLOCKS (AIM_BLOCKS / 2)

static int aim_common_setup(struct pm_ctx *ctx)
{
	struct aim *st = aim_new(ctx);
	char name[64];
	int err;

	/* a name of its own: copies of a test may run at once */
	snprintf(name, sizeof(name), "tmpa.common.%d.%u", (int)getpid(),
		 __atomic_fetch_add(&aim_tmp_counter, 1, __ATOMIC_RELAXED));
	err = pm_scratch_file(ctx, name, AIM_BLOCKS * AIM_BLOCK,
			      st->common, sizeof(st->common));
	if (err) {
		aim_teardown(ctx);
		return err;
	}
	st->common_made = true;
	return 0;
}

/* ---- add_*, mul_*, div_*: 12 dependent operations per pass ---- */

#define AIM_CHUNK 1000		/* passes per iteration */

/* AIM9's loop bodies, r the result, a and b the arguments. */
#define AIM_ADD(r, a, b, K)						\
	r += a; K(r); a += b; K(a); a += b; K(a); b += r; K(b);	\
	b += r; K(b); r += a; K(r); r += a; K(r); a += b; K(a);	\
	a += b; K(a); b += r; K(b); b += r; K(b); r += a; K(r)
#define AIM_MULF(r, a, b, K)						\
	r *= a; a *= b; a *= b; b *= r; b *= r; r *= a;			\
	r *= a; a *= b; a *= b; b *= r; b *= r; r *= a
#define AIM_MULI(r, a, b, K)						\
	r *= a; K(r); a *= b; K(a); a *= b; K(a); b *= a; K(b);	\
	b *= a; K(b); r *= b; K(r); r *= a; K(r); a *= b; K(a);	\
	a *= b; K(a); b *= a; K(b); b *= a; K(b); r *= b; K(r)
#define AIM_DIVF(r, a, b, K)						\
	r /= a; b /= r; a /= b; b /= a; r /= b; b /= r;			\
	r /= a; b /= r; a /= b; b /= a; r /= b; b /= r
#define AIM_DIVI(r, a, b, K)						\
	r /= a; K(r); r /= b; K(r); a /= b; K(a); b /= a; K(b);	\
	r /= a; K(r); r /= b; K(r); a /= b; K(a); b /= a; K(b);	\
	r /= a; K(r); r /= b; K(r); a /= b; K(a); b /= a; K(b)

#define AIM_ARITH(fn, T, init, BODY, K)					\
PM_OP(fn)							\
{									\
	struct aim *st = ctx->priv;					\
	T r, a, b;							\
	int n;								\
									\
	a = (T)st->arg1;						\
	b = (T)st->arg2;						\
	r = (T)(init);							\
	for (n = AIM_CHUNK; n > 0; n--) {				\
		BODY(r, a, b, K);					\
	}								\
	st->dsink = (double)r;						\
	return 0;							\
}

AIM_ARITH(add_double_op, double, 0.0, AIM_ADD, AIM_NOKEEP)
AIM_ARITH(add_float_op, float, 0.0f, AIM_ADD, AIM_NOKEEP)
AIM_ARITH(add_long_op, long, 0, AIM_ADD, AIM_KEEP)
AIM_ARITH(add_int_op, int, 0, AIM_ADD, AIM_KEEP)
AIM_ARITH(add_short_op, short, 0, AIM_ADD, AIM_KEEP)
AIM_ARITH(mul_double_op, double, 1.0, AIM_MULF, AIM_NOKEEP)
AIM_ARITH(mul_float_op, float, 1.0f, AIM_MULF, AIM_NOKEEP)
AIM_ARITH(mul_long_op, long, 12345678, AIM_MULI, AIM_KEEP)
AIM_ARITH(mul_int_op, int, 12345678, AIM_MULI, AIM_KEEP)
AIM_ARITH(mul_short_op, short, 1234, AIM_MULI, AIM_KEEP)
AIM_ARITH(div_double_op, double, 1.0, AIM_DIVF, AIM_NOKEEP)
AIM_ARITH(div_float_op, float, 1.0f, AIM_DIVF, AIM_NOKEEP)
AIM_ARITH(div_long_op, long, 1234578, AIM_DIVI, AIM_KEEP)
AIM_ARITH(div_int_op, int, 1234578, AIM_DIVI, AIM_KEEP)
AIM_ARITH(div_short_op, short, 1234, AIM_DIVI, AIM_KEEP)

/* An arithmetic test's .arg: the two arguments AIM9 passes it. */
struct aim_args {
	double a1, a2;
};

#define AIM_PI 3.14159

/* The arguments as AIM9 passes them: printed with %g, scanned back. */
static int aim_args_setup(struct pm_ctx *ctx)
{
	const struct aim_args *a = ctx->bench->arg;
	struct aim *st = aim_new(ctx);
	char buf[64];

	snprintf(buf, sizeof(buf), "%g", a->a1);
	st->arg1 = strtod(buf, NULL);
	snprintf(buf, sizeof(buf), "%g", a->a2);
	st->arg2 = strtod(buf, NULL);
	return 0;
}

/* ---- sieve ---- */

#define SIEVE_MAX 1000000
#define SIEVE_ROUNDS 5
#define SIEVE_PRIMES 78500	/* AIM9's count: 0 and 1 stay marked */

PM_OP(sieve_op)
{
	struct aim *st = ctx->priv;
	char *table, *left, *right;
	int round, n, i, count;

	table = malloc(SIEVE_MAX);
	if (!table)
		return pm_bench_fail(ctx, -ENOMEM, "sieve table");
	for (round = 0; round < SIEVE_ROUNDS; round++) {
		memset(table, 1, SIEVE_MAX);
		for (n = 2; n < SIEVE_MAX; n++) {
			left = &table[n];
			if (*left != 1)
				continue;
			right = left + n;
			for (i = n + n; i < SIEVE_MAX; i += n) {
				*right = 0;
				right += n;
			}
		}
	}
	for (count = 0, n = 0; n < SIEVE_MAX; n++)
		count += table[n] == 1;
	free(table);
	if (count != SIEVE_PRIMES)
		return pm_bench_why(ctx, -EIO, "sieve: %d primes, not %d",
			       count, SIEVE_PRIMES);
	st->lsink = count;
	return 0;
}

/* ---- creat-clo ---- */

#define CREAT_LOOP 1000

PM_OP(creat_clo_op)
{
	char name[PATH_MAX];
	int n, fd;

	aim_mktemp(ctx, name, sizeof(name), "tmpb.");
	for (n = 0; n < CREAT_LOOP; n++) {
		fd = creat(name, AIM_MODE);
		if (fd < 0) {
			int err = pm_bench_fail(ctx, -errno, "creat %s", name);

			unlink(name);
			return err;
		}
		if (close(fd) != 0) {
			unlink(name);
			return pm_bench_fail(ctx, -errno, "close %s", name);
		}
	}
	if (unlink(name) != 0)
		return pm_bench_fail(ctx, -errno, "unlink %s", name);
	return 0;
}

/* ---- page_test, brk_test: the break moved down 64 KiB, up by pages ---- */

/*
 * As AIM9: 1 MiB above the current break, then the top 16 pages freed and
 * taken back one page at a time, and the break restored.  The program
 * break is also malloc's heap, so a call must not allocate in between:
 * nothing does, and the break is back where it was when run() returns.
 */
#define BRK_PAGE 4096		/* AIM9's page */

static int brk_loop(struct pm_ctx *ctx, int loops, bool dirty)
{
	void *oldbrk = sbrk(0), *p;
	volatile char *cp;
	int n, i, j;

	if (sbrk(1024 * 1024) == (void *)-1)
		return pm_bench_fail(ctx, -errno, "sbrk 1 MiB");
	for (n = 0; n < loops; n++) {
		if (sbrk(-BRK_PAGE * 16) == (void *)-1) {
			brk(oldbrk);
			return pm_bench_fail(ctx, -errno, "sbrk -64 KiB");
		}
		for (i = 0; i < 16; i++) {
			p = sbrk(BRK_PAGE);
			if (p == (void *)-1) {
				brk(oldbrk);
				return pm_bench_fail(ctx, -errno, "sbrk 4 KiB");
			}
			if (!dirty)
				continue;
			cp = p;
			for (j = 0; j < BRK_PAGE; j += 128)
				cp[j] = ' ';
		}
	}
	if (brk(oldbrk) != 0)
		return pm_bench_fail(ctx, -errno, "brk");
	return 0;
}

PM_OP(page_test_op)
{
	int err;

	err = brk_loop(ctx, 100, true);
	if (err)
		return err;
	return 0;
}

PM_OP(brk_test_op)
{
	int err;

	err = brk_loop(ctx, 1000, false);
	if (err)
		return err;
	return 0;
}

/* ---- jmp_test ---- */

/* Ten more frames below the setjmp, then longjmp (noipa: the compiler
 * may neither inline it, nor turn the recursion into a loop, nor learn
 * that it never returns). */
__attribute__((noipa))
static void jmp_dummy(jmp_buf buf, int count)
{
	if (count < 0)		/* never: a way out for the compiler */
		return;
	if (count == 0)
		longjmp(buf, 1);
	jmp_dummy(buf, --count);
	pm_barrier();		/* not a tail call: a real frame each */
}

PM_OP(jmp_test_op)
{
	jmp_buf buf;
	volatile int i;

	for (i = 0; i < 1000; i++) {
		if (setjmp(buf) == 0)
			jmp_dummy(buf, 10);
	}
	return 0;
}

/* ---- signal_test ---- */

static volatile sig_atomic_t aim_sigcount, aim_sigerror;

static void aim_sighandler(int sig)
{
	signal(SIGUSR2, aim_sighandler);	/* as AIM9: reinstall */
	if (sig != SIGUSR2)
		aim_sigerror = 1;
	aim_sigcount++;
}

static int signal_test_setup(struct pm_ctx *ctx)
{
	struct aim *st = aim_new(ctx);
	sigset_t set;

	if (sigaction(SIGUSR2, NULL, &st->oldsig) != 0) {
		aim_teardown(ctx);
		return pm_bench_fail(ctx, -errno, "sigaction SIGUSR2");
	}
	sigemptyset(&set);
	sigaddset(&set, SIGUSR2);
	sigprocmask(SIG_UNBLOCK, &set, &st->oldmask);
	st->sig_saved = true;
	return 0;
}

PM_OP(signal_test_op)
{
	pid_t self;

	aim_sigcount = aim_sigerror = 0;
	self = getpid();
	signal(SIGUSR2, aim_sighandler);
	while (aim_sigcount < 1000) {
		if (kill(self, SIGUSR2) != 0)
			return pm_bench_fail(ctx, -errno, "kill SIGUSR2");
		if (aim_sigerror)
			return pm_bench_why(ctx, -EIO, "the handler caught "
				       "another signal");
	}
	return 0;
}

/* ---- link_test ---- */

#define LINK_MAX_NAMES 8	/* POSIX's smallest LINK_MAX */
#define LINK_LOOP 9

static void link_cleanup(char fns[][PATH_MAX], int fd)
{
	int i;

	for (i = 0; i < LINK_MAX_NAMES; i++)
		unlink(fns[i]);
	if (fd >= 0)
		close(fd);
}

PM_OP(link_test_op)
{
	char fns[LINK_MAX_NAMES][PATH_MAX];
	int i, n, fd, err;

	for (i = 0; i < LINK_MAX_NAMES; i++)
		aim_mktemp(ctx, fns[i], sizeof(fns[i]), "link");
	fd = creat(fns[0], AIM_MODE);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "creat %s", fns[0]);
	for (i = 1; i < LINK_MAX_NAMES; i++) {
		if (link(fns[0], fns[i]) != 0)
			goto fail_link;
	}
	for (n = 0; n < LINK_LOOP; n++) {
		for (i = 1; i < LINK_MAX_NAMES; i++) {
			if (unlink(fns[i]) != 0) {
				err = pm_bench_fail(ctx, -errno, "unlink %s",
					       fns[i]);
				link_cleanup(fns, fd);
				return err;
			}
			if (link(fns[0], fns[i]) != 0)
				goto fail_link;
		}
	}
	for (i = 0; i < LINK_MAX_NAMES; i++) {
		if (unlink(fns[i]) != 0) {
			err = pm_bench_fail(ctx, -errno, "unlink %s", fns[i]);
			link_cleanup(fns, fd);
			return err;
		}
	}
	close(fd);
	return 0;
fail_link:
	err = pm_bench_fail(ctx, -errno, "link %s %s", fns[0], fns[i]);
	link_cleanup(fns, fd);
	return err;
}

/* ---- disk_rr, disk_rw, disk_rd, disk_wrt, disk_cp ---- */

/* A new file of AIM_BLOCKS blocks, closed: disk_rr and disk_rw. */
static int disk_make(struct pm_ctx *ctx, struct aim *st, const char *name)
{
	int fd, n, err;

	fd = creat(name, AIM_MODE);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "creat %s", name);
	for (n = 0; n < AIM_BLOCKS; n++) {
		err = aim_io(ctx, write(fd, st->nbuf, AIM_BLOCK), AIM_BLOCK,
			     "write", name);
		if (err) {
			close(fd);
			unlink(name);
			return err;
		}
	}
	close(fd);
	return 0;
}

/* Random 1 KiB reads (or writes) of a new file: disk_rr, disk_rw. */
static int disk_random(struct pm_ctx *ctx, bool writing)
{
	struct aim *st = ctx->priv;
	char name[PATH_MAX];
	off_t sk;
	int fd, i, err;

	aim_mktemp(ctx, name, sizeof(name), "tmpb.");
	err = disk_make(ctx, st, name);
	if (err)
		return err;
	fd = open(name, writing ? O_WRONLY : O_RDONLY);
	if (fd < 0) {
		err = pm_bench_fail(ctx, -errno, "open %s", name);
		unlink(name);
		return err;
	}
	unlink(name);
	for (i = 0; i < AIM_BLOCKS; i++) {
		sk = (off_t)(aim_rand(st) % AIM_BLOCKS) * AIM_BLOCK;
		if (lseek(fd, sk, SEEK_SET) == -1) {
			err = pm_bench_fail(ctx, -errno, "lseek %s", name);
			break;
		}
		if (writing)
			err = aim_io(ctx, write(fd, st->nbuf, AIM_BLOCK),
				     AIM_BLOCK, "write", name);
		else
			err = aim_io(ctx, read(fd, st->nbuf, AIM_BLOCK),
				     AIM_BLOCK, "read", name);
		if (err)
			break;
	}
	close(fd);
	return err;
}

PM_OP(disk_rr_op)
{
	int err;

	err = disk_random(ctx, false);
	if (err)
		return err;
	return 0;
}

PM_OP(disk_rw_op)
{
	int err;

	err = disk_random(ctx, true);
	if (err)
		return err;
	return 0;
}

PM_OP(disk_rd_op)
{
	struct aim *st = ctx->priv;
	int fd, i, err = 0;

	fd = open(st->common, O_RDONLY);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "open %s", st->common);
	if (lseek(fd, 0, SEEK_SET) < 0)
		err = pm_bench_fail(ctx, -errno, "lseek %s", st->common);
	for (i = 0; !err && i < AIM_BLOCKS; i++)
		err = aim_io(ctx, read(fd, st->nbuf, AIM_BLOCK),
			     AIM_BLOCK, "read", st->common);
	close(fd);
	if (err)
		return err;
	return 0;
}

PM_OP(disk_wrt_op)
{
	struct aim *st = ctx->priv;
	char name[PATH_MAX];
	int fd, n, err = 0;

	aim_mktemp(ctx, name, sizeof(name), "tmpb.");
	fd = creat(name, AIM_MODE);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "creat %s", name);
	unlink(name);
	for (n = 0; !err && n < AIM_BLOCKS; n++)
		err = aim_io(ctx, write(fd, st->nbuf, AIM_BLOCK),
			     AIM_BLOCK, "write", name);
	close(fd);
	if (err)
		return err;
	return 0;
}

PM_OP(disk_cp_op)
{
	struct aim *st = ctx->priv;
	char name[PATH_MAX];
	int fd, fd2, n, err = 0;

	aim_mktemp(ctx, name, sizeof(name), "tmpb.");
	fd = open(st->common, O_RDONLY);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "open %s", st->common);
	fd2 = creat(name, AIM_MODE);
	if (fd2 < 0) {
		err = pm_bench_fail(ctx, -errno, "creat %s", name);
		close(fd);
		return err;
	}
	unlink(name);
	if (lseek(fd, 0, SEEK_SET) < 0)
		err = pm_bench_fail(ctx, -errno, "lseek %s", st->common);
	for (n = 0; !err && n < AIM_BLOCKS; n++) {
		err = aim_io(ctx, read(fd, st->nbuf, AIM_BLOCK),
			     AIM_BLOCK, "read", st->common);
		if (!err)
			err = aim_io(ctx, write(fd2, st->nbuf, AIM_BLOCK),
				     AIM_BLOCK, "write", name);
	}
	close(fd);
	close(fd2);
	if (err)
		return err;
	return 0;
}

/* ---- sync_disk_rw, sync_disk_wrt, sync_disk_cp ---- */

/*
 * A call of these makes 2560 O_SYNC writes (seconds on a disk), so an
 * iteration is one of them.  The rest of the call (creating the file,
 * unlinking and closing it) is done on the first and last of its 2560
 * writes, in AIM9's order, so 2560 operations do the work of a call.
 */
enum sync_kind { SYNC_RW, SYNC_WRT, SYNC_CP };

/* The end of a call: unlink, close. */
static void sync_end(struct aim *st)
{
	if (st->tmp_live)
		unlink(st->tmp);
	st->tmp_live = false;
	if (st->fd >= 0)
		close(st->fd);
	if (st->fd2 >= 0)
		close(st->fd2);
	st->fd = st->fd2 = -1;
	st->step = 0;
}

/* The start of a call: the file to write synchronously in st->fd. */
static int sync_begin(struct pm_ctx *ctx, struct aim *st, enum sync_kind kind)
{
	int n, err = 0;

	aim_mktemp(ctx, st->tmp, sizeof(st->tmp), "tmpb.");
	switch (kind) {
	case SYNC_RW:
		/* a file of 2560 blocks, then opened again with O_SYNC */
		st->fd = open(st->tmp, O_WRONLY | O_CREAT | O_TRUNC, AIM_MODE);
		if (st->fd < 0)
			return pm_bench_fail(ctx, -errno, "create %s", st->tmp);
		st->tmp_live = true;
		for (n = 0; !err && n < AIM_SYNC_BLOCKS; n++)
			err = aim_io(ctx, write(st->fd, st->nbuf, AIM_BLOCK),
				     AIM_BLOCK, "write", st->tmp);
		close(st->fd);
		st->fd = -1;
		if (err)
			return err;
		st->fd = open(st->tmp, O_WRONLY | O_SYNC);
		if (st->fd < 0)
			return pm_bench_fail(ctx, -errno, "open %s", st->tmp);
		break;
	case SYNC_WRT:
		st->fd = open(st->tmp, O_SYNC | O_WRONLY | O_CREAT | O_TRUNC,
			      AIM_MODE);
		if (st->fd < 0)
			return pm_bench_fail(ctx, -errno, "create %s", st->tmp);
		st->tmp_live = true;
		break;
	case SYNC_CP:
		st->fd2 = open(st->common, O_RDONLY);
		if (st->fd2 < 0)
			return pm_bench_fail(ctx, -errno, "open %s", st->common);
		st->fd = open(st->tmp, O_SYNC | O_WRONLY | O_CREAT | O_TRUNC,
			      AIM_MODE);
		if (st->fd < 0)
			return pm_bench_fail(ctx, -errno, "create %s", st->tmp);
		st->tmp_live = true;
		if (lseek(st->fd2, 0, SEEK_SET) < 0)
			return pm_bench_fail(ctx, -errno, "lseek %s", st->common);
		break;
	}
	return 0;
}

static int sync_op(struct pm_ctx *ctx, enum sync_kind kind)
{
	struct aim *st = ctx->priv;
	off_t sk;
	int err;

	if (st->fd < 0) {
		err = sync_begin(ctx, st, kind);
		if (err) {
			sync_end(st);
			return err;
		}
	}
	if (kind == SYNC_RW) {
		sk = (off_t)(aim_rand(st) % AIM_SYNC_BLOCKS) * AIM_BLOCK;
		if (lseek(st->fd, sk, SEEK_SET) == -1) {
			err = pm_bench_fail(ctx, -errno, "lseek %s", st->tmp);
			sync_end(st);
			return err;
		}
	} else if (kind == SYNC_CP) {
		err = aim_io(ctx, read(st->fd2, st->nbuf, AIM_BLOCK),
			     AIM_BLOCK, "read", st->common);
		if (err) {
			sync_end(st);
			return err;
		}
	}
	err = aim_io(ctx, write(st->fd, st->nbuf, AIM_BLOCK), AIM_BLOCK,
		     "write", st->tmp);
	if (err) {
		sync_end(st);
		return err;
	}
	if (++st->step == AIM_SYNC_BLOCKS)
		sync_end(st);
	return 0;
}

/* .arg: the enum sync_kind */
PM_OP(sync_disk_op)
{
	return sync_op(ctx, *(const enum sync_kind *)ctx->bench->arg);
}

/* ---- num_fcns.c: the numeric, string, memory and misc routines ---- */

#define NUMVALS 500
#define NUM10VALS 10000
#define MAXSORTSIZE 10000

/* Read-only once filled (the position in them is per copy). */
static double aim_vals[NUMVALS];	/* 0, 1, tiny, then running averages */
static double aim_vals10[NUM10VALS];	/* -10 .. 10 */
static pthread_once_t aim_num_once = PTHREAD_ONCE_INIT;

/* num_fcns_c(): the value tables, as AIM9 fills them. */
static void aim_num_init(void)
{
	double t1 = 1.0, t2 = 1.0;
	int i;

	while (t1 > 0.0) {	/* the smallest positive double */
		t2 = t1;
		t1 = t1 / 2.0;
	}
	aim_vals[0] = 0.0;
	aim_vals[1] = 1.0;
	aim_vals[2] = t2;
	for (i = 3; i < NUMVALS; i++) {
		aim_vals[i] = fabs(aim_vals[i - 2] - aim_vals[i - 1]) / 2.0;
		if (aim_vals[i] == 0 && i + 2 < NUMVALS) {
			aim_vals[++i] = 1.0;
			aim_vals[++i] = t2;
		}
	}
	srand(1);
	for (i = 0; i < NUM10VALS; i++) {
		if (i % 100 == 0)
			aim_vals10[i] = t2;
		else
			aim_vals10[i] = (double)rand() / RAND_MAX * 20. - 10.;
	}
}

static int aim_num_setup(struct pm_ctx *ctx)
{
	struct aim *st = aim_new(ctx);
	int i;

	pthread_once(&aim_num_once, aim_num_init);
	/* sort_rtns_1's table: in order (qsort's worst case, says AIM9) */
	st->table = pm_xcalloc(MAXSORTSIZE, sizeof(*st->table));
	for (i = 0; i < MAXSORTSIZE; i++)
		st->table[i] = i;
	return 0;
}

static inline double next_value(struct aim *st)
{
	return aim_vals[st->count++ % NUMVALS];
}

/* AIM9's ARG, POS and NEG macros, as functions (sequenced). */
static inline double aim_arg(struct aim *st)
{
	return aim_vals10[st->count10++ % NUM10VALS];
}

static inline double aim_pos(struct aim *st)
{
	return aim_arg(st) + 10.0001;
}

static inline double aim_neg(struct aim *st)
{
	return aim_arg(st) - 10.0001;
}

PM_OP(num_rtns_1_op)
{
	struct aim *st = ctx->priv;
	double dtemp1;
	int n, itemp1;

	for (n = 0; n < 100; n++) {
		st->fake[0] = floor(exp(aim_arg(st))) +
			      ceil(log10(aim_pos(st)));
		st->fake[1] = modf(log(aim_pos(st)), &dtemp1) +
			      frexp(aim_neg(st), &itemp1);
		st->fake[2] = ldexp(aim_arg(st), abs(-itemp1)) +
			      fabs(fmod(aim_arg(st) * 5, aim_pos(st)));
		st->fake[3] = sqrt(pow(aim_pos(st), aim_arg(st)));
		srand((unsigned)itemp1);
		st->fake[4] = (double)labs((long)(-rand() + n));
	}
	return 0;
}

static double nr_f(double x)
{
	return 1000.0 * sin(x) * cos(x);
}

static double nr_f_prime(double x)
{
	double c = cos(x), s = sin(x);

	return -(s * s * 1000.0) + (c * c * 1000.0);
}

PM_OP(new_raph_op)
{
	struct aim *st = ctx->priv;
	double p = 0, p0, delta = 0;
	int n, i;

	for (n = 0; n < 200; n++) {
		i = 1;
		p0 = 0.05 * (double)n;
		while (i < 100) {
			p = p0 - nr_f(p0) / nr_f_prime(p0);
			delta = fabs(p - p0);
			if (delta == 0.0)
				break;
			i++;
			p0 = p;
		}
		if (i >= 100)
			return pm_bench_why(ctx, -EIO, "new_raph: no zero from "
				       "%g in 100 steps (p %g, delta %g)",
				       0.05 * n, p, delta);
	}
	st->fake[0] = p;
	return 0;
}

PM_OP(trig_rtns_op)
{
	struct aim *st = ctx->priv;
	int n;

	for (n = 0; n < 10000; n++) {
		st->fake[0] = acos(cos(asin(sin(aim_arg(st)))));
		st->fake[1] = tanh(atan(tan(aim_arg(st))));
		st->fake[2] = atan2(sinh(aim_arg(st)), cosh(aim_arg(st)));
	}
	return 0;
}

#define M_SIZE 4

PM_OP(matrix_rtns_op)
{
	struct aim *st = ctx->priv;
	double v1[M_SIZE], v2[M_SIZE][M_SIZE], v3[M_SIZE], prod;
	int n, i, j, k;

	prod = 0.0;
	for (n = 0; n < 100; n++) {
		for (i = 0; i < M_SIZE; i++)
			v1[i] = next_value(st);
		for (i = 0; i < M_SIZE; i++)
			for (j = 0; j < M_SIZE; j++)
				v2[i][j] = next_value(st);
		for (i = 0; i < M_SIZE; i++) {
			v3[i] = 0.0;
			for (j = 0; j < M_SIZE; j++)
				v3[i] += v1[j] * v2[i][j];
		}
		i = (int)(v3[0] * 1280.0);
		j = (int)(v3[1] * 1024.0);
		k = (int)(v3[2] * 8192.0);
		prod += v3[0] * v3[1] * v3[2];
		st->fake[0] = i + j + k + prod;
	}
	return 0;
}

#define A_HEIGHT 100
#define A_WIDTH 101
#define A_SIZE (A_HEIGHT * A_WIDTH)
#define AM(x, y) a[(x) + wide * (y)]


/* Gaussian elimination of a wide x high system; 0 when singular. */
static int solve_array(double *a, double *b, int wide, int high)
{
	double t;
	int i, j, k;

	for (i = 0; i < high; i++) {
		t = AM(i, i);
		if (t == 0.0)
			return 0;
		for (j = i; j < wide; j++)
			AM(j, i) = AM(j, i) / t;
		for (j = i + 1; j < high; j++) {
			t = AM(i, j);
			for (k = 0; k < wide; k++)
				AM(k, j) = AM(k, j) - t * AM(k, i);
		}
	}
	for (i = high - 1; i > 0; i--) {
		for (j = i - 1; j >= 0; j--) {
			t = AM(i, j);
			for (k = 0; k < wide; k++)
				AM(k, j) = AM(k, j) - t * AM(k, i);
		}
	}
	for (i = 0; i < high; i++)
		b[i] = AM(wide - 1, i);
	return 1;
}

static int check_array(const double *a, const double *b, int wide, int high)
{
	double t;
	int i, j;

	for (i = 0; i < high; i++) {
		t = 0.0;
		for (j = 0; j < high; j++)
			t += AM(j, i) * b[j];
		if (fabs(AM(wide - 1, i) - t) > .5)
			return 0;
	}
	return 1;
}

static int array_rtns_setup(struct pm_ctx *ctx)
{
	struct aim *st = aim_new(ctx);

	st->a = pm_xcalloc(A_SIZE, sizeof(*st->a));
	st->a_orig = pm_xcalloc(A_SIZE, sizeof(*st->a_orig));
	st->results = pm_xcalloc(A_HEIGHT, sizeof(*st->results));
	return 0;
}

PM_OP(array_rtns_op)
{
	struct aim *st = ctx->priv;
	double *a = st->a, val;
	int n, high, wide, j, k;

	memset(st->a, 0, A_SIZE * sizeof(*st->a));
	memset(st->a_orig, 0, A_SIZE * sizeof(*st->a_orig));
	val = 1.0;
	for (high = 5, n = 0; n < 20; n++, high += 5) {
		if (high > A_HEIGHT)
			high = 5;
		wide = high + 1;
		for (j = 0; j < high; j++)
			for (k = 0; k < wide; k++) {
				AM(k, j) = val;
				val = val * 1.00001 + 1.0;
				if (val > 1e20)
					val -= 1e19;
			}
		memcpy(st->a_orig, st->a, A_SIZE * sizeof(*st->a));
		if (!solve_array(st->a, st->results, wide, high))
			return pm_bench_why(ctx, -EIO, "array_rtns: singular "
				       "matrix of size %d", high);
		if (!check_array(st->a_orig, st->results, wide, high))
			return pm_bench_why(ctx, -EIO, "array_rtns: wrong "
				       "solution of size %d", high);
	}
	return 0;
}

/* string_rtns' running state: the counts and the conversions' results. */
struct strs {
	int i1, i2;
	long l2, l3;
	double d3;
	time_t t;
};

/* Number to text and back: sprintf, atof, strtod, atol, atoi, strtol. */
static inline void str_convert(struct strs *s, char *buffer)
{
	double dtemp1, dtemp2;
	long ltemp1;
	char *p;

	dtemp1 = (double)s->i1 / 1000.0;
	sprintf(buffer, "%g", dtemp1);
	dtemp2 = atof(buffer);
	s->d3 = strtod(buffer, &p);
	ltemp1 = (long)(1000 * dtemp2);
	sprintf(buffer, "%ld", ltemp1);
	s->l2 = atol(buffer);
	s->i1 = atoi(buffer);
	s->l3 = strtol(buffer, &p, 10);
}

/* Every ctype test over the buffer, case flipped back and forth. */
static inline void str_classify(struct strs *s, char *buffer, size_t size)
{
	char *p;

	sprintf(buffer, " \t\n\r\b0123456789 abcde fghij klmno "
		"pqrst uvwxy z ABCDE FGHIJ KLMNO PQRST UVWXY Z "
		".,;:!@#$%%^&*()_-+=|\\\"'`[]}{");
	for (p = buffer; p != &buffer[size - 1]; p++) {
		if (isalnum((unsigned char)*p))
			s->i1++;
		if (isalpha((unsigned char)*p))
			s->i1++;
		if (iscntrl((unsigned char)*p))
			s->i1++;
		if (isdigit((unsigned char)*p))
			s->i1++;
		if (isgraph((unsigned char)*p))
			s->i1++;
		if (islower((unsigned char)*p)) {
			s->i1++;
			*p = (char)toupper((unsigned char)*p);
			*p = (char)tolower((unsigned char)*p);
		}
		if (isprint((unsigned char)*p))
			s->i1++;
		if (ispunct((unsigned char)*p))
			s->i1++;
		if (isspace((unsigned char)*p))
			s->i1++;
		if (isupper((unsigned char)*p)) {
			s->i1++;
			*p = (char)tolower((unsigned char)*p);
			*p = (char)toupper((unsigned char)*p);
		}
		if (isxdigit((unsigned char)*p))
			s->i1++;
	}
}

/* The buffer filled by strcat, then by strncat, comparing as it goes. */
static inline void str_concat(struct strs *s, char *buffer, size_t size, char *catbuf)
{
	sprintf(catbuf, "What is your name?");
	s->i2 = (int)strlen(catbuf);
	sprintf(buffer, "%s", catbuf);
	if (strcmp(buffer, catbuf) == 0)
		s->i2++;
	while ((size - strlen(buffer)) > strlen(catbuf)) {
		strcat(buffer, catbuf);
		if (strcmp(buffer, catbuf) == 0)
			s->i2++;
	}
	strcpy(buffer, catbuf);
	while ((size - strlen(buffer)) > strlen(catbuf)) {
		strncat(buffer, catbuf, 10);
		if (strncmp(buffer, catbuf, 10) == 0)
			s->i2++;
	}
}

/* ctime's text searched with strcoll, strcspn, strpbrk, strrchr, strspn, strstr. */
static inline void str_search(struct strs *s, char *buffer, const char *catbuf)
{
	char *p = ctime(&s->t);

	s->t++;
	memcpy(buffer, p, strlen(p));	/* strncpy(, , strlen) */
	if (strcoll(buffer, catbuf) == 0)
		s->i1++;
	if (strcspn(buffer, "jfamsond") > (size_t)4)
		s->i1++;
	if (strpbrk(buffer, " ;\n") == NULL)
		s->i1++;
	if (strrchr(buffer, '\n') == NULL)
		s->i1++;
	if (strspn(buffer, "abcdefghijklmnopqrstuvwxyz") >
	    (size_t)5)
		s->i1++;
	if (strstr(buffer, buffer) != buffer)
		s->i1++;
	if (s->i2 > 100) {
		s->i2 = 0;
		s->i1++;
	}
}

PM_OP(string_rtns_op)
{
	struct aim *st = ctx->priv;
	char buffer[1024], catbuf[32];
	struct strs s = { 0 };
	int n;

	memset(buffer, '\0', sizeof(buffer));
	time(&s.t);
	for (n = 0; n < 100; n++) {
		str_convert(&s, buffer);
		str_classify(&s, buffer, sizeof(buffer));
		str_concat(&s, buffer, sizeof(buffer), catbuf);
		str_search(&s, buffer, catbuf);
	}
	st->lsink = s.i1 + s.i2 + s.l2 + s.l3 + (long)s.d3;
	return 0;
}

#define MAXSTRINGS 100

static const int aim_malloc_size[] = {
	1, 3, 5, 7, 9,
	11, 33, 65, 129, 1024,
	1025, 1023, 8192, 4096, 4095,
	11, 33, 65, 129, 1024,
	1, 3, 5, 7, 9,
	11, 33, 65, 129, 1024,
	1025, 1023, 8192, 4096, 4095,
	11, 33, 65, 129, 1024,
};

PM_OP(mem_rtns_1_op)
{
	static const char str[] = "Hello, this is an average length string 1234";
	const size_t nsizes = PM_ARRAY_SIZE(aim_malloc_size);
	struct aim *st = ctx->priv;
	char *array[MAXSTRINGS * 3], *p;
	int n, i, j, count = 0;

	for (n = 0; n < 100; n++) {
		for (j = i = 0; i < MAXSTRINGS; i++) {
			array[j] = malloc(strlen(str) + 1);
			if (!array[j])
				return pm_bench_fail(ctx, -ENOMEM, "malloc");
			strcpy(array[j], str);
			count += (int)strlen(array[j++]) + 1;
			array[j] = malloc((size_t)aim_malloc_size[i % nsizes]);
			count += aim_malloc_size[i % nsizes];
			j++;
			array[j] = calloc((size_t)aim_malloc_size[(i + 1) %
						nsizes], 1);
			count += aim_malloc_size[(i + 1) % nsizes];
			j++;
			if (!array[j - 1] || !array[j - 2])
				return pm_bench_fail(ctx, -ENOMEM, "malloc");
		}
		/* touch each one: the first byte (malloc's may be
		 * anything; AIM9 reads it as it is) */
		for (i = 0; i < MAXSTRINGS * 3; i++) {
			p = array[i];
			count += *(volatile char *)p;
		}
		for (i = (3 * MAXSTRINGS) - 3; i >= 0; i -= 3) {
			free(array[i]);
			free(array[i + 2]);
			free(array[i + 1]);
		}
	}
	st->lsink = count;
	return 0;
}

#define SIZBUF 8192

/*
 * mem_rtns_2's and ram_copy's two buffers of 8 KiB and a double.  AIM9
 * declares them side by side (on the stack, or static), so where they
 * fall depends on the compiler: two buffers a multiple of 4 KiB apart,
 * or nearly, make the CPU take the loads of one for the stores of the
 * other (4K aliasing), and these tests run several times slower.  Here
 * they are 2 KiB away from that, whatever the build.
 */
#define AIM_BUF (SIZBUF + sizeof(double))
#define AIM_BUF_GAP (SIZBUF + 2048)

static int aim_buffers_setup(struct pm_ctx *ctx)
{
	struct aim *st = aim_new(ctx);

	if (posix_memalign((void **)&st->bufs, 4096, AIM_BUF_GAP + AIM_BUF)) {
		st->bufs = NULL;
		aim_teardown(ctx);
		return pm_bench_fail(ctx, -ENOMEM, "buffers");
	}
	memset(st->bufs, 0, AIM_BUF_GAP + AIM_BUF);
	st->buf_a = st->bufs;
	st->buf_b = st->bufs + AIM_BUF_GAP;
	return 0;
}

PM_OP(mem_rtns_2_op)
{
	const size_t nsizes = PM_ARRAY_SIZE(aim_malloc_size);
	struct aim *st = ctx->priv;
	char *bp1 = st->buf_a, *bp2 = st->buf_b, *p;
	int n, i = 0, off1, off2, size;

	for (n = 0; n < 100; n++) {
		off1 = n % (int)sizeof(double);
		off2 = (n / (int)sizeof(double)) % (int)sizeof(double);
		size = aim_malloc_size[n % nsizes];	/* op_size[] */
		memset(bp1 + off1, 'A', (size_t)size);
		memset(bp2 + off2, 'A', (size_t)size);
		(bp1 + off1)[n % size] = 'Z';
		p = memchr(bp1 + off1, 'Z', (size_t)size);
		i = memcmp(bp1 + off1, bp2 + off2, (size_t)size);
		if (i > 0 && p)
			*p = 'A';
		memcpy(bp1 + off1, bp2 + off2, (size_t)size);
		memmove(bp2 + off1, bp1 + off2, (size_t)size);
	}
	st->lsink = i + bp2[0];
	return 0;
}

static int compar1(const void *p1, const void *p2)
{
	return *(const int *)p1 - *(const int *)p2;
}

static int compar2(const void *p1, const void *p2)
{
	return *(const int *)p2 - *(const int *)p1;
}

PM_OP(sort_rtns_1_op)
{
	struct aim *st = ctx->priv;
	int n, i, count = 0;
	void *p;

	for (n = 0; n < 10; n += 5) {
		qsort(st->table, MAXSORTSIZE, sizeof(st->table[0]), compar1);
		qsort(st->table, MAXSORTSIZE, sizeof(st->table[0]), compar2);
		qsort(st->table, MAXSORTSIZE, sizeof(st->table[0]), compar1);
		for (i = 0; i < MAXSORTSIZE * 2; i += 10) {
			p = bsearch(&i, st->table, MAXSORTSIZE,
				    sizeof(st->table[0]), compar1);
			if (p == NULL)
				count++;
		}
	}
	st->lsink = count;
	return 0;
}

static int misc_rtns_1_setup(struct pm_ctx *ctx)
{
	int err = 0;

	aim_new(ctx);
	if (!getenv("PATH"))
		err = pm_bench_why(ctx, -EOPNOTSUPP, "misc_rtns_1 needs PATH in "
			      "the environment");
	else if (!getpwnam("root"))
		err = pm_bench_why(ctx, -EOPNOTSUPP, "misc_rtns_1: no user root "
			      "(getpwnam)");
	if (err)
		aim_teardown(ctx);
	return err;
}

PM_OP(misc_rtns_1_op)
{
	static gid_t groups[NGROUPS_MAX];
	static struct termios t;
	struct aim *st = ctx->priv;
	char buffer[2048], *term, *env, *tty;
	struct passwd *pass1, *pass2;
	speed_t speed1, speed2;
	struct utsname name;
	uid_t uid, euid;
	gid_t gid, egid;
	pid_t pid, pgrp, ppid;
	struct group *gr2;
	struct tms tms;
	clock_t clk;
	int n;

	for (n = 0; n < 10; n++) {
		speed1 = cfgetispeed(&t);
		speed2 = cfgetospeed(&t);
		clk = clock();
		if ((term = ctermid(NULL)) == NULL)
			return pm_bench_why(ctx, -EIO, "ctermid failed");
		if (getcwd(buffer, sizeof(buffer)) == NULL)
			return pm_bench_fail(ctx, -errno, "getcwd");
		uid = getuid();
		euid = geteuid();
		gid = getgid();
		egid = getegid();
		if ((env = getenv("PATH")) == NULL)
			return pm_bench_why(ctx, -EIO, "getenv(PATH) failed");
		if (getgroups(NGROUPS_MAX, groups) == -1)
			return pm_bench_fail(ctx, -errno, "getgroups");
		pid = getpid();
		pgrp = getpgrp();
		ppid = getppid();
		if ((pass1 = getpwnam("root")) == NULL)
			return pm_bench_why(ctx, -EIO, "getpwnam(root) failed");
		if ((pass2 = getpwuid(uid)) == NULL)
			return pm_bench_why(ctx, -EIO, "getpwuid(%d) failed",
				       (int)uid);
		if ((gr2 = getgrgid(gid)) == NULL)
			return pm_bench_why(ctx, -EIO, "getgrgid(%d) failed",
				       (int)gid);
		if ((clk = times(&tms)) == (clock_t)-1)
			return pm_bench_fail(ctx, -errno, "times");
		if (isatty(STDIN_FILENO))
			clk++;
		tty = ttyname(STDIN_FILENO);
		if (uname(&name) == -1)
			return pm_bench_fail(ctx, -errno, "uname");
		st->lsink = (long)speed1 + (long)speed2 + (long)clk +
			    term[0] + env[0] + (tty ? tty[0] : 0) +
			    (long)euid + (long)egid + (long)pid +
			    (long)pgrp + (long)ppid + name.sysname[0] +
			    pass1->pw_name[0] + pass2->pw_name[0] +
			    gr2->gr_name[0];
	}
	return 0;
}

static int dir_rtns_1_setup(struct pm_ctx *ctx)
{
	DIR *dir;

	aim_new(ctx);
	dir = opendir("/bin");
	if (!dir) {
		aim_teardown(ctx);
		return pm_bench_fail(ctx, -EOPNOTSUPP, "opendir /bin");
	}
	closedir(dir);
	return 0;
}

PM_OP(dir_rtns_1_op)
{
	struct aim *st = ctx->priv;
	int n, count = 0;
	DIR *dir;

	dir = opendir("/bin");
	if (!dir)
		return pm_bench_fail(ctx, -errno, "opendir /bin");
	for (n = 0; n < 10000; n++) {
		if (readdir(dir) == NULL) {
			count++;
			rewinddir(dir);
		}
	}
	closedir(dir);
	st->lsink = count;
	return 0;
}

PM_OP(series_1_op)
{
	struct aim *st = ctx->priv;
	double i, d0, d1, old, sine, d1_squared, fact;
	int n;

	for (n = 0; n < 100; n++) {
		d0 = d1 = next_value(st);
		old = 100.0;
		sine = 0.0;
		d1_squared = d1 * d1;
		fact = 1.0;
		i = 1.0;
		while (sine != old) {
			old = sine;
			sine += d1 / fact;
			fact *= (i + 1) * (i + 2);
			i += 2;
			d1 *= -(d1_squared);
		}
		if (fabs(sine - sin(d0)) > .0001)
			return pm_bench_why(ctx, -EIO, "series_1: sine of %g "
				       "is %g, sin() says %g", d0, sine,
				       sin(d0));
	}
	return 0;
}

/* ---- ram_copy ---- */

static const int aim_copy_sizes[] = {
	1, 2, 3, 4, 5, 6,
	7, 7, 7, 7, 7, 7,
	8, 9, 11, 17, 33, 63,
	7, 7, 7, 7, 7, 7,
	1, 2, 3, 4, 5, 6,
	7, 7, 7, 7, 7, 7,
	127, 256, 1001, 1200, 1492, 1500,
	1024, 2048, 3172, 4096, 8192, 512,
	7, 7, 7, 7, 7, 7,
	1, 2, 3, 4, 5, 6,
	7, 7, 7, 7, 7, 7,
	8, 9, 11, 17, 33, 63,
	7, 7, 7, 7, 7, 7,
	1, 2, 3, 4, 5, 6,
	7, 7, 7, 7, 7, 7,
};


PM_OP(ram_copy_op)
{
	const unsigned nsizes = PM_ARRAY_SIZE(aim_copy_sizes);
	struct aim *st = ctx->priv;
	unsigned n;

	for (n = 0; n < 64; n++) {
		/* AIM9's names: it copies into "src" from "dst" */
		void *src = &st->buf_b[n % sizeof(double)];
		void *dst = &st->buf_a[(n / sizeof(double)) %
					sizeof(double)];

		memcpy(src, dst, (size_t)aim_copy_sizes[n % nsizes]);
		pm_barrier();
	}
	st->lsink = st->buf_b[64];
	return 0;
}

/* ---- messages: tcp_test, udp_test, fifo_test, stream_pipe, dgram_pipe,
 * pipe_cpy ---- */

#define MAXBLK 2048

static const int aim_msg_sizes[] = {
	1, 3, 5, 7, 16, 32, 64, 512, 1024, 2048,
	1, 3, 5, 7, 16, 32, 64, 512, 1024, 2048,
	32, 32, 32, 32, 32, 32,		/* "x windows mostly..." */
	512, 512, 512, 512, 512,	/* "DBMS's mostly" */
};

/* read_write_close(): loops - 1 messages written to wr and read back
 * from rd, in AIM9's sizes; both closed. */
static int aim_rwc(struct pm_ctx *ctx, struct aim *st, int loops, int rd,
		   int wr, const char *what)
{
	char buffer[MAXBLK];
	size_t size, done;
	ssize_t r;
	int err = 0;

	memset(buffer, 0, sizeof(buffer));
	while (--loops > 0) {
		size = (size_t)aim_msg_sizes[st->msg++ %
					     PM_ARRAY_SIZE(aim_msg_sizes)];
		for (done = 0; done < size; done += (size_t)r) {
			r = write(wr, buffer + done, size - done);
			if (r <= 0 && !(r < 0 && errno == EINTR)) {
				err = aim_io(ctx, r, size, "write", what);
				goto out;
			}
			if (r < 0)
				r = 0;
		}
		for (done = 0; done < size; done += (size_t)r) {
			r = read(rd, buffer + done, size - done);
			if (r <= 0 && !(r < 0 && errno == EINTR)) {
				err = aim_io(ctx, r, size, "read", what);
				goto out;
			}
			if (r < 0)
				r = 0;
		}
	}
out:
	close(rd);
	close(wr);
	return err;
}

PM_OP(tcp_test_op)
{
	struct aim *st = ctx->priv;
	struct sockaddr_in wr_in, rd_in;
	socklen_t len;
	int wr = -1, rd = -1, nw, one, err;

	rd = nw = -1;
	wr = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (wr < 0)
		return pm_bench_fail(ctx, -errno, "socket");
	memset(&wr_in, 0, sizeof(wr_in));
	wr_in.sin_family = AF_INET;
	wr_in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	wr_in.sin_port = 0;
	if (bind(wr, (struct sockaddr *)&wr_in, sizeof(wr_in)) != 0) {
		err = pm_bench_fail(ctx, -errno, "bind 127.0.0.1");
		goto fail;
	}
	len = sizeof(wr_in);
	if (getsockname(wr, (struct sockaddr *)&wr_in, &len) != 0) {
		err = pm_bench_fail(ctx, -errno, "getsockname");
		goto fail;
	}
	one = 1;
	if (setsockopt(wr, IPPROTO_TCP, TCP_NODELAY, &one,
		       sizeof(one)) != 0) {
		err = pm_bench_fail(ctx, -errno, "setsockopt TCP_NODELAY");
		goto fail;
	}
	len = sizeof(one);
	one = 0;
	if (getsockopt(wr, IPPROTO_TCP, TCP_NODELAY, &one, &len) != 0) {
		err = pm_bench_fail(ctx, -errno, "getsockopt TCP_NODELAY");
		goto fail;
	}
	if (listen(wr, 5) != 0) {
		err = pm_bench_fail(ctx, -errno, "listen");
		goto fail;
	}
	rd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (rd < 0) {
		err = pm_bench_fail(ctx, -errno, "socket");
		goto fail;
	}
	if (connect(rd, (struct sockaddr *)&wr_in, sizeof(wr_in)) != 0) {
		err = pm_bench_fail(ctx, -errno, "connect 127.0.0.1");
		goto fail;
	}
	do
		nw = accept4(wr, NULL, NULL, SOCK_CLOEXEC);
	while (nw < 0 && errno == EINTR);
	if (nw < 0) {
		err = pm_bench_fail(ctx, -errno, "accept");
		goto fail;
	}
	len = sizeof(rd_in);
	if (getsockname(rd, (struct sockaddr *)&rd_in, &len) != 0) {
		err = pm_bench_fail(ctx, -errno, "getsockname");
		goto fail;
	}
	err = aim_rwc(ctx, st, 90, rd, nw, "TCP/IP");
	close(wr);
	if (err)
		return err;
	return 0;
fail:
	if (nw >= 0)
		close(nw);
	if (rd >= 0)
		close(rd);
	close(wr);
	return err;
}

/* A UDP socket bound to a free port of 127.0.0.1; its address in *sa. */
static int udp_loopback(struct pm_ctx *ctx, struct sockaddr_in *sa, int *out)
{
	socklen_t len = sizeof(*sa);
	int fd, err;

	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "socket");
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)) != 0) {
		err = pm_bench_fail(ctx, -errno, "bind 127.0.0.1");
		close(fd);
		return err;
	}
	if (getsockname(fd, (struct sockaddr *)sa, &len) != 0) {
		err = pm_bench_fail(ctx, -errno, "getsockname");
		close(fd);
		return err;
	}
	*out = fd;
	return 0;
}

PM_OP(udp_test_op)
{
	struct aim *st = ctx->priv;
	struct sockaddr_in wr_in, rd_in;
	int wr = -1, rd = -1, err;

	err = udp_loopback(ctx, &wr_in, &wr);
	if (err)
		return err;
	err = udp_loopback(ctx, &rd_in, &rd);
	if (err) {
		close(wr);
		return err;
	}
	if (connect(wr, (struct sockaddr *)&rd_in, sizeof(rd_in)) != 0) {
		err = pm_bench_fail(ctx, -errno, "connect");
		close(rd);
		close(wr);
		return err;
	}
	/* aim_rwc closes both */
	return aim_rwc(ctx, st, 100, rd, wr, "UDP/IP");
}

static int socketpair_op(struct pm_ctx *ctx, int type, const char *what)
{
	struct aim *st = ctx->priv;
	int fds[2], err;

	if (socketpair(AF_UNIX, type | SOCK_CLOEXEC, 0, fds) != 0)
		return pm_bench_fail(ctx, -errno, "socketpair");
	err = aim_rwc(ctx, st, 100, fds[0], fds[1], what);
	if (err)
		return err;
	return 0;
}

PM_OP(stream_pipe_op)
{
	return socketpair_op(ctx, SOCK_STREAM, "Stream Pipe");
}

PM_OP(dgram_pipe_op)
{
	return socketpair_op(ctx, SOCK_DGRAM, "Datagram Pipe");
}

PM_OP(pipe_cpy_op)
{
	struct aim *st = ctx->priv;
	int fds[2], err;

	if (pipe2(fds, O_CLOEXEC) != 0)
		return pm_bench_fail(ctx, -errno, "pipe");
	err = aim_rwc(ctx, st, 100, fds[0], fds[1], "Pipe");
	if (err)
		return err;
	return 0;
}

/*
 * fifo_test is in AIM9's list ("FIFO Messages", factor 100) but its source
 * was not available to us: this is the read_write_close() of its siblings
 * over a named pipe made for the call (mkfifo, open both ends, unlink).
 */
PM_OP(fifo_test_op)
{
	struct aim *st = ctx->priv;
	char name[PATH_MAX];
	int rd = -1, wr = -1, err;

	aim_mktemp(ctx, name, sizeof(name), "fifo");
	if (mkfifo(name, 0600) != 0)
		return pm_bench_fail(ctx, -errno, "mkfifo %s", name);
	/* non-blocking: no writer yet; the data is always there
	 * before a read */
	rd = open(name, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (rd < 0) {
		err = pm_bench_fail(ctx, -errno, "open %s", name);
		unlink(name);
		return err;
	}
	wr = open(name, O_WRONLY | O_CLOEXEC);
	if (wr < 0) {
		err = pm_bench_fail(ctx, -errno, "open %s", name);
		close(rd);
		unlink(name);
		return err;
	}
	unlink(name);
	err = aim_rwc(ctx, st, 100, rd, wr, "FIFO");
	if (err)
		return err;
	return 0;
}

/* ---- shared_memory: SysV shared memory and a semaphore ---- */

union aim_semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

static int shared_memory_setup(struct pm_ctx *ctx)
{
	int shmid;

	aim_new(ctx);
	shmid = shmget(IPC_PRIVATE, MAXBLK, IPC_CREAT | 0600);
	if (shmid < 0) {
		int err = errno;

		aim_teardown(ctx);
		return pm_bench_fail(ctx, err == ENOSYS || err == EPERM ||
				err == EACCES ? -EOPNOTSUPP : -err,
				"SysV shared memory (shmget)");
	}
	shmctl(shmid, IPC_RMID, NULL);
	return 0;
}

PM_OP(shared_memory_op)
{
	struct aim *st = ctx->priv;
	char *buffer = st->shm_buf;
	struct sembuf sem_wait = { 0, -1, 0 }, sem_signal = { 0, 1, 0 };
	union aim_semun arg;
	int shmid, sem, n, err = 0;
	size_t size;
	char *bufptr;

	shmid = shmget(IPC_PRIVATE, MAXBLK, IPC_CREAT | 0600);
	if (shmid < 0)
		return pm_bench_fail(ctx, -errno, "shmget");
	sem = semget(IPC_PRIVATE, 1, IPC_CREAT | 0600);
	if (sem < 0) {
		err = pm_bench_fail(ctx, -errno, "semget");
		shmctl(shmid, IPC_RMID, NULL);
		return err;
	}
	bufptr = shmat(shmid, NULL, 0);
	if (bufptr == (char *)-1) {
		err = pm_bench_fail(ctx, -errno, "shmat");
		bufptr = NULL;
		goto out;
	}
	arg.val = 1;
	if (semctl(sem, 0, SETVAL, arg) < 0) {
		err = pm_bench_fail(ctx, -errno, "semctl SETVAL");
		goto out;
	}
	for (n = 0; n < 100; n++) {
		size = (size_t)aim_msg_sizes[st->msg++ %
					     PM_ARRAY_SIZE(aim_msg_sizes)];
		/* writer side */
		if (semop(sem, &sem_wait, 1) < 0)
			goto semop_fail;
		memcpy(bufptr, buffer, size);
		if (semop(sem, &sem_signal, 1) < 0)
			goto semop_fail;
		/* reader side */
		if (semop(sem, &sem_wait, 1) < 0)
			goto semop_fail;
		memcpy(buffer, bufptr, size);
		if (semop(sem, &sem_signal, 1) < 0)
			goto semop_fail;
	}
	goto out;
semop_fail:
	err = pm_bench_fail(ctx, -errno, "semop");
out:
	/* clear_ipc() */
	if (bufptr)
		shmdt(bufptr);
	shmctl(shmid, IPC_RMID, NULL);
	semctl(sem, 0, IPC_RMID);
	if (err)
		return err;
	return 0;
}

/* ---- fork_test, exec_test, shell_rtns: loops run by pmbench-spawner ---- */

/* As proc's fork, exec and sh: in pmbench-spawner (src/bench/spawn.c). */

/* run(), not op(): pmbench-spawner runs the whole loop of iters forks. */
static int aim_spawn_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct aim *st = ctx->priv;

	return pm_spawner_run(ctx, &st->sp, iters);
}

/* Start the spawner for op; arg is taken over. */
static int aim_spawn_setup(struct pm_ctx *ctx, struct aim *st, const char *op,
			   char *arg)
{
	return pm_spawner_start(ctx, &st->sp, op, arg,
				!strcmp(op, "fork-exit") ? "child" : arg);
}

static int fork_test_setup(struct pm_ctx *ctx)
{
	struct aim *st = aim_new(ctx);
	int err;

	err = aim_spawn_setup(ctx, st, "fork-exit",
			      pm_xstrdup(ctx->hello ? ctx->hello : ""));
	if (err) {
		aim_teardown(ctx);
		pm_reap_peers(ctx);
	}
	return err;
}

static int exec_test_setup(struct pm_ctx *ctx)
{
	struct aim *st = aim_new(ctx);
	int err;

	err = aim_spawn_setup(ctx, st, "exec",
			      pm_xstrdup(ctx->hello ? ctx->hello : ""));
	if (err) {
		aim_teardown(ctx);
		pm_reap_peers(ctx);
	}
	return err;
}


/*
 * AIM9's aim_N.sh are site-customizable scripts, and the stock ones are
 * not available to us: pmbench writes its own, the same for the three
 * tests, which starts one small program (pmbench-hello).
 */
/* .arg: which script, 1 to 3 */
static int shell_rtns_setup(struct pm_ctx *ctx)
{
	int which = *(const int *)ctx->bench->arg;
	struct aim *st = aim_new(ctx);
	char *hello, *cmd, *script;
	FILE *f;
	int err;

	if (access("/bin/sh", X_OK) != 0) {
		err = pm_bench_why(ctx, -EOPNOTSUPP, "/bin/sh not found or not "
			      "executable");
		goto fail;
	}
	if (!ctx->hello || access(ctx->hello, X_OK) != 0) {
		err = pm_bench_why(ctx, -EOPNOTSUPP, "pmbench-hello not found at %s "
			      "(run from the build tree or install pmbench)",
			      ctx->hello ? ctx->hello : "(none)");
		goto fail;
	}
	snprintf(st->scripts[0], sizeof(st->scripts[0]), "%s/aim_%d.%d.%u.sh",
		 ctx->scratch, which, (int)getpid(),
		 __atomic_fetch_add(&aim_tmp_counter, 1, __ATOMIC_RELAXED));
	f = fopen(st->scripts[0], "w");
	if (!f) {
		err = pm_bench_fail(ctx, -errno, "cannot create %s", st->scripts[0]);
		goto fail;
	}
	st->nscripts = 1;
	hello = pm_sh_quote(ctx->hello);
	fprintf(f, "#!/bin/sh\n"
		"# pmbench's stand-in for AIM Suite IX's aim_%d.sh "
		"(shell_rtns_%d)\n"
		"%s\n", which, which, hello);
	free(hello);
	if (fclose(f) != 0) {
		err = pm_bench_fail(ctx, -errno, "cannot write %s", st->scripts[0]);
		goto fail;
	}
	if (chmod(st->scripts[0], 0755) != 0) {
		err = pm_bench_fail(ctx, -errno, "chmod %s", st->scripts[0]);
		goto fail;
	}
	script = pm_sh_quote(st->scripts[0]);
	cmd = pm_xasprintf("%s 1", script);	/* "aim_N.sh <user load>" */
	free(script);
	err = aim_spawn_setup(ctx, st, "system", cmd);
	if (err)
		goto fail;
	return 0;
fail:
	aim_teardown(ctx);
	pm_reap_peers(ctx);
	return err;
}


/* ---- the family ---- */

/* a1, a2: the arguments AIM9 passes the test */
#define AIM9_ARITH(nm, test, desc, a1, a2, fn)				\
	{								\
		.name = nm, .group = "aim9", .summary = desc,		\
		.unit = "ops/s", .aim9 = test, .setup = aim_args_setup,	\
		PM_OP_HOOKS(fn), .teardown = aim_teardown,		\
		.exercises = PM_EX_CPU,					\
		.arg = &(const struct aim_args){ a1, a2 },		\
	}
#define AIM9_PLAIN(nm, test, desc, su, fn, fl, ex)			\
	{								\
		.name = nm, .group = "aim9", .summary = desc,		\
		.unit = "ops/s", .aim9 = test, .setup = su, PM_OP_HOOKS(fn), \
		.teardown = aim_teardown, .flags = fl, .exercises = ex,	\
	}
/* the sync disk tests: one operation, the kind in .arg */
#define AIM9_SYNC(nm, test, desc, su, kind)				\
	{								\
		.name = nm, .group = "aim9", .summary = desc,		\
		.unit = "ops/s", .aim9 = test, .setup = su,		\
		PM_OP_HOOKS(sync_disk_op), .teardown = aim_teardown,	\
		.flags = PM_FS, .exercises = PM_EX_SYNC | PM_EX_FILEIO,	\
		.arg = &(const enum sync_kind){ kind },			\
	}
/* run(), not op(): pmbench-spawner runs the whole loop of forks */
#define AIM9_SPAWN(nm, test, desc, su, fl, ar)				\
	{								\
		.name = nm, .group = "aim9", .summary = desc,		\
		.unit = "ops/s", .aim9 = test, .setup = su,		\
		.run = aim_spawn_run, .teardown = aim_teardown,		\
		.flags = PM_FORKS | PM_PEERS | (fl),			\
		.exercises = PM_EX_SPAWN | PM_EX_VM | PM_EX_FAULT,	\
		.arg = ar,						\
	}

static const struct pm_bench aim9_benches[] = {
	AIM9_ARITH("aim9-add-double", "add_double",
		   "Thousand Double Precision Additions", AIM_PI, -AIM_PI,
		   add_double_op),
	AIM9_ARITH("aim9-add-float", "add_float",
		   "Thousand Single Precision Additions", 3.5, -3.5,
		   add_float_op),
	AIM9_ARITH("aim9-add-long", "add_long",
		   "Thousand Long Integer Additions", 3, -3,
		   add_long_op),
	AIM9_ARITH("aim9-add-int", "add_int", "Thousand Integer Additions",
		   3, -3, add_int_op),
	AIM9_ARITH("aim9-add-short", "add_short",
		   "Thousand Short Integer Additions", 3, -3,
		   add_short_op),
	AIM9_PLAIN("aim9-creat-clo", "creat-clo", "File Creations and Closes",
		   aim_setup, creat_clo_op, PM_FS,
		   PM_EX_SYSCALL | PM_EX_PATH | PM_EX_FSMETA),
	AIM9_PLAIN("aim9-page-test", "page_test", "System Allocations & Pages",
		   aim_setup, page_test_op, PM_NO_THREADS,
		   PM_EX_SYSCALL | PM_EX_VM | PM_EX_FAULT),
	AIM9_PLAIN("aim9-brk-test", "brk_test", "System Memory Allocations",
		   aim_setup, brk_test_op, PM_NO_THREADS,
		   PM_EX_SYSCALL | PM_EX_VM),
	AIM9_PLAIN("aim9-jmp-test", "jmp_test", "Non-local gotos", aim_setup,
		   jmp_test_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-signal-test", "signal_test", "Signal Traps",
		   signal_test_setup, signal_test_op, PM_NO_THREADS,
		   PM_EX_SYSCALL | PM_EX_SIGNAL),
	AIM9_SPAWN("aim9-exec-test", "exec_test", "Program Loads",
		   exec_test_setup, 0, NULL),
	AIM9_SPAWN("aim9-fork-test", "fork_test", "Task Creations",
		   fork_test_setup, 0, NULL),
	AIM9_PLAIN("aim9-link-test", "link_test", "Link/Unlink Pairs",
		   aim_setup, link_test_op, PM_FS,
		   PM_EX_SYSCALL | PM_EX_PATH | PM_EX_FSMETA),
	AIM9_PLAIN("aim9-disk-rr", "disk_rr", "Random Disk Reads (K)",
		   aim_setup, disk_rr_op, PM_FS,
		   PM_EX_SYSCALL | PM_EX_FILEIO),
	AIM9_PLAIN("aim9-disk-rw", "disk_rw", "Random Disk Writes (K)",
		   aim_setup, disk_rw_op, PM_FS,
		   PM_EX_SYSCALL | PM_EX_FILEIO),
	AIM9_PLAIN("aim9-disk-rd", "disk_rd", "Sequential Disk Reads (K)",
		   aim_common_setup, disk_rd_op, PM_FS,
		   PM_EX_SYSCALL | PM_EX_FILEIO),
	AIM9_PLAIN("aim9-disk-wrt", "disk_wrt", "Sequential Disk Writes (K)",
		   aim_setup, disk_wrt_op, PM_FS,
		   PM_EX_SYSCALL | PM_EX_FILEIO),
	AIM9_PLAIN("aim9-disk-cp", "disk_cp", "Disk Copies (K)",
		   aim_common_setup, disk_cp_op, PM_FS,
		   PM_EX_SYSCALL | PM_EX_FILEIO),
	AIM9_SYNC("aim9-sync-disk-rw", "sync_disk_rw",
		   "Sync Random Disk Writes (K)", aim_setup, SYNC_RW),
	AIM9_SYNC("aim9-sync-disk-wrt", "sync_disk_wrt",
		   "Sync Sequential Disk Writes (K)", aim_setup,
		   SYNC_WRT),
	AIM9_SYNC("aim9-sync-disk-cp", "sync_disk_cp", "Sync Disk Copies (K)",
		   aim_common_setup, SYNC_CP),
	AIM9_ARITH("aim9-div-double", "div_double",
		   "Thousand Double Precision Divides", 4.0, 1.0 / 4.0,
		   div_double_op),
	AIM9_ARITH("aim9-div-float", "div_float",
		   "Thousand Single Precision Divides", 4.0, 1.0 / 4.0,
		   div_float_op),
	AIM9_ARITH("aim9-div-long", "div_long", "Thousand Long Integer Divides",
		   1, 1, div_long_op),
	AIM9_ARITH("aim9-div-int", "div_int", "Thousand Integer Divides",
		   1, 1, div_int_op),
	AIM9_ARITH("aim9-div-short", "div_short",
		   "Thousand Short Integer Divides", 1, 1, div_short_op),
	AIM9_PLAIN("aim9-sieve", "sieve", "Integer Sieves", aim_setup,
		   sieve_op, 0,
		   PM_EX_CPU),
	AIM9_ARITH("aim9-mul-double", "mul_double",
		   "Thousand Double Precision Multiplies", AIM_PI, 1.0 / AIM_PI,
		   mul_double_op),
	AIM9_ARITH("aim9-mul-float", "mul_float",
		   "Thousand Single Precision Multiplies", 4.0, 1.0 / 4.0,
		   mul_float_op),
	AIM9_ARITH("aim9-mul-long", "mul_long",
		   "Thousand Long Integer Multiplies", 1, 1, mul_long_op),
	AIM9_ARITH("aim9-mul-int", "mul_int", "Thousand Integer Multiplies",
		   1, 1, mul_int_op),
	AIM9_ARITH("aim9-mul-short", "mul_short",
		   "Thousand Short Integer Multiplies", 1, 1,
		   mul_short_op),
	AIM9_PLAIN("aim9-num-rtns-1", "num_rtns_1", "Numeric Functions",
		   aim_num_setup, num_rtns_1_op, PM_NO_THREADS,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-new-raph", "new_raph", "Zeros Found", aim_setup,
		   new_raph_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-trig-rtns", "trig_rtns", "Trigonometric Functions",
		   aim_num_setup, trig_rtns_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-matrix-rtns", "matrix_rtns", "Point Transformations",
		   aim_num_setup, matrix_rtns_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-array-rtns", "array_rtns", "Linear Systems Solved",
		   array_rtns_setup, array_rtns_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-string-rtns", "string_rtns", "String Manipulations",
		   aim_setup, string_rtns_op, PM_NO_THREADS,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-mem-rtns-1", "mem_rtns_1", "Dynamic Memory Operations",
		   aim_setup, mem_rtns_1_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-mem-rtns-2", "mem_rtns_2", "Block Memory Operations",
		   aim_buffers_setup, mem_rtns_2_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-sort-rtns-1", "sort_rtns_1", "Sort Operations",
		   aim_num_setup, sort_rtns_1_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-misc-rtns-1", "misc_rtns_1", "Auxiliary Loops",
		   misc_rtns_1_setup, misc_rtns_1_op, PM_NO_THREADS,
		   PM_EX_SYSCALL | PM_EX_PATH),
	AIM9_PLAIN("aim9-dir-rtns-1", "dir_rtns_1", "Directory Operations",
		   dir_rtns_1_setup, dir_rtns_1_op, 0,
		   PM_EX_SYSCALL | PM_EX_FSMETA),
	AIM9_SPAWN("aim9-shell-rtns-1", "shell_rtns_1", "Shell Scripts",
		   shell_rtns_setup, PM_FS, &(const int){ 1 }),
	AIM9_SPAWN("aim9-shell-rtns-2", "shell_rtns_2", "Shell Scripts",
		   shell_rtns_setup, PM_FS, &(const int){ 2 }),
	AIM9_SPAWN("aim9-shell-rtns-3", "shell_rtns_3", "Shell Scripts",
		   shell_rtns_setup, PM_FS, &(const int){ 3 }),
	AIM9_PLAIN("aim9-series-1", "series_1", "Series Evaluations",
		   aim_num_setup, series_1_op, 0,
		   PM_EX_CPU),
	AIM9_PLAIN("aim9-shared-memory", "shared_memory",
		   "Shared Memory Operations", shared_memory_setup,
		   shared_memory_op, 0,
		   PM_EX_SYSCALL | PM_EX_IPC),
	AIM9_PLAIN("aim9-tcp-test", "tcp_test", "TCP/IP Messages", aim_setup,
		   tcp_test_op, PM_NET,
		   PM_EX_SYSCALL | PM_EX_NET),
	AIM9_PLAIN("aim9-udp-test", "udp_test", "UDP/IP DataGrams", aim_setup,
		   udp_test_op, PM_NET,
		   PM_EX_SYSCALL | PM_EX_NET),
	AIM9_PLAIN("aim9-fifo-test", "fifo_test", "FIFO Messages", aim_setup,
		   fifo_test_op, PM_FS,
		   PM_EX_SYSCALL | PM_EX_IPC),
	AIM9_PLAIN("aim9-stream-pipe", "stream_pipe", "Stream Pipe Messages",
		   aim_setup, stream_pipe_op, 0,
		   PM_EX_SYSCALL | PM_EX_IPC),
	AIM9_PLAIN("aim9-dgram-pipe", "dgram_pipe", "DataGram Pipe Messages",
		   aim_setup, dgram_pipe_op, 0,
		   PM_EX_SYSCALL | PM_EX_IPC),
	AIM9_PLAIN("aim9-pipe-cpy", "pipe_cpy", "Pipe Messages", aim_setup,
		   pipe_cpy_op, 0,
		   PM_EX_SYSCALL | PM_EX_IPC),
	AIM9_PLAIN("aim9-ram-copy", "ram_copy", "Memory to Memory Copy",
		   aim_buffers_setup, ram_copy_op, 0,
		   PM_EX_CPU),
};

PM_FAMILY(aim9, "AIM Suite IX tests, reported in operations per second",
	  aim9_benches);
