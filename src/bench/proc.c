/*
 * The proc family: processes, system calls, signals and the VM, after
 * lmbench's lat_syscall, lat_select, lat_sig, lat_proc, lat_pipe, lat_ctx,
 * lat_pagefault and lat_mmap.
 *
 * Processes an operation forks are reaped within it; what it stats or
 * opens is made by setup() in the run's scratch directory, untimed.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/select.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/spawn.h"
#include "stats/stats.h"
#include "util.h"

/* ---- common helpers ---- */

/* Result of a 1-byte read or write: 0, or -errno (-EIO on a 0 count). */
static int proc_io_err(struct pm_ctx *ctx, ssize_t r, const char *what)
{
	int err = r < 0 ? -errno : -EIO;

	return pm_bench_fail(ctx, err, "%s", what);
}

static void proc_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int proc_open(struct pm_ctx *ctx, const char *path, int flags, int *fd)
{
	*fd = open(path, flags | O_CLOEXEC);
	if (*fd < 0)
		return pm_bench_fail(ctx, -errno, "open %s", path);
	return 0;
}

/*
 * A scratch file, the descriptors open on it and a mapping of it: the
 * state of every file benchmark.  teardown closes, unmaps and unlinks.
 */
struct proc_file {
	char path[PATH_MAX];
	bool created;
	int fd;
	char *map;
	size_t size;		/* of the file */
	size_t maplen;		/* of the mapping */
	size_t stride;		/* page-fault: one touched page per stride */
	size_t pos;		/* page-fault: next offset to touch */
	size_t *perm;		/* page-fault-lmb: page offsets, shuffled */
	size_t npages;
	int *dups;		/* select */
	int ndups;
	int nfds;		/* select: highest fd + 1 */
	fd_set set;		/* select: the fds to poll */
	volatile unsigned char sink;
};

static struct proc_file *proc_file_new(struct pm_ctx *ctx)
{
	struct proc_file *f = pm_xcalloc(1, sizeof(*f));

	f->fd = -1;
	f->map = MAP_FAILED;
	ctx->priv = f;
	return f;
}

static void proc_file_teardown(struct pm_ctx *ctx)
{
	struct proc_file *f = ctx->priv;
	int i;

	if (!f)
		return;
	if (f->map != MAP_FAILED)
		munmap(f->map, f->maplen);
	for (i = 0; i < f->ndups; i++)
		close(f->dups[i]);
	free(f->dups);
	free(f->perm);
	proc_close(&f->fd);
	if (f->created)
		unlink(f->path);
	free(f);
	ctx->priv = NULL;
}

/* Create the scratch file `name` of `size` bytes, warm, and open it. */
static int proc_file_setup(struct pm_ctx *ctx, const char *name, size_t size,
			   struct proc_file **out)
{
	struct proc_file *f = proc_file_new(ctx);
	int err;

	*out = f;
	f->size = size;
	err = pm_scratch_file(ctx, name, size, f->path, sizeof(f->path));
	if (err)
		return err;
	f->created = true;
	return proc_open(ctx, f->path, O_RDONLY, &f->fd);
}

/*
 * A scratch file written one page per write() and flushed: the page cache
 * then holds it in single-page folios.  Written in large chunks (as
 * pm_scratch_file does) a file on a filesystem with large folios (ext4,
 * xfs, ...) is cached in folios of up to 2 MiB, and recent kernels map a
 * whole folio on one read fault whatever fault_around_bytes says: the
 * number of faults per touched page would depend on how the file happened
 * to be written.  The flush keeps writeback out of the timed loops.
 */
static int proc_paged_file_setup(struct pm_ctx *ctx, const char *name,
				 size_t size, struct proc_file **out)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), off, i;
	struct proc_file *f = proc_file_new(ctx);
	char *buf;
	int err, fd;

	*out = f;
	f->size = size;
	err = pm_scratch_file(ctx, name, 0, f->path, sizeof(f->path));
	if (err)
		return err;
	f->created = true;
	err = proc_open(ctx, f->path, O_WRONLY, &fd);
	if (err)
		return err;
	buf = pm_xmalloc(page);
	for (i = 0; i < page; i++)
		buf[i] = (char)(0x5a ^ (i & 0x7f)) | 1;
	for (off = 0; off < size && !err; off += page)
		err = pm_write_full(fd, buf, page);
	if (err)
		pm_bench_fail(ctx, err, "write %s", f->path);
	else if (fdatasync(fd) != 0)
		err = pm_bench_fail(ctx, -errno, "fdatasync %s", f->path);
	free(buf);
	close(fd);
	if (err)
		return err;
	return proc_open(ctx, f->path, O_RDONLY, &f->fd);
}

/* ---- null: the cheapest real system call ---- */

PM_OP(null_op)
{
	/* The raw system call: no libc caching of the answer. */
	syscall(SYS_getppid);
	return 0;
}

/* ---- null-io: 1-byte read of /dev/zero, 1-byte write to /dev/null ---- */

struct nullio {
	int zero, null;
};

static void nullio_teardown(struct pm_ctx *ctx)
{
	struct nullio *st = ctx->priv;

	if (!st)
		return;
	proc_close(&st->zero);
	proc_close(&st->null);
	free(st);
	ctx->priv = NULL;
}

static int nullio_setup(struct pm_ctx *ctx)
{
	struct nullio *st = pm_xcalloc(1, sizeof(*st));
	int err;

	st->zero = st->null = -1;
	ctx->priv = st;
	err = proc_open(ctx, "/dev/zero", O_RDONLY, &st->zero);
	if (!err)
		err = proc_open(ctx, "/dev/null", O_WRONLY, &st->null);
	if (err) {
		nullio_teardown(ctx);
		return err;
	}
	/* lmbench reports the mean of its read and write figures. */
	ctx->ops_per_iter = 2;
	return 0;
}

PM_OP(nullio_op)
{
	struct nullio *st = ctx->priv;
	char c;
	ssize_t r;

	r = read(st->zero, &c, 1);
	if (r != 1)
		return proc_io_err(ctx, r, "read /dev/zero");
	r = write(st->null, &c, 1);
	if (r != 1)
		return proc_io_err(ctx, r, "write /dev/null");
	return 0;
}

/* ---- stat, fstat, open: a small file in the scratch directory ---- */

#define PROC_SMALL_FILE 4096

static int smallfile_setup(struct pm_ctx *ctx)
{
	struct proc_file *f;
	int err = proc_file_setup(ctx, "file", PROC_SMALL_FILE, &f);

	if (err)
		proc_file_teardown(ctx);
	return err;
}

PM_OP(stat_op)
{
	struct proc_file *f = ctx->priv;
	struct stat st;

	if (stat(f->path, &st) != 0)
		return pm_bench_fail(ctx, -errno, "stat %s", f->path);
	pm_barrier();
	return 0;
}

PM_OP(fstat_op)
{
	struct proc_file *f = ctx->priv;
	struct stat st;

	if (fstat(f->fd, &st) != 0)
		return pm_bench_fail(ctx, -errno, "fstat %s", f->path);
	pm_barrier();
	return 0;
}

PM_OP(open_op)
{
	struct proc_file *f = ctx->priv;
	int fd;

	fd = open(f->path, O_RDONLY);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "open %s", f->path);
	close(fd);
	return 0;
}

/* ---- select: 100 descriptors of a regular file, zero timeout ---- */

#define SELECT_FDS 100

static int select_setup(struct pm_ctx *ctx)
{
	struct proc_file *f;
	int err, i, fd;

	err = proc_file_setup(ctx, "select", PROC_SMALL_FILE, &f);
	if (err)
		goto fail;
	f->dups = pm_xcalloc(SELECT_FDS, sizeof(*f->dups));
	FD_ZERO(&f->set);
	for (i = 0; i < SELECT_FDS; i++) {
		fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0) {
			err = pm_bench_fail(ctx, -errno,
					"cannot open %d descriptors for select",
					SELECT_FDS);
			goto fail;
		}
		f->dups[f->ndups++] = fd;
		if (fd >= FD_SETSIZE) {
			err = pm_bench_why(ctx, -EMFILE,
				       "descriptor %d does not fit select()'s "
				       "FD_SETSIZE (%d): too many open files",
				       fd, FD_SETSIZE);
			goto fail;
		}
		FD_SET(fd, &f->set);
		if (fd + 1 > f->nfds)
			f->nfds = fd + 1;
	}
	snprintf(ctx->params, sizeof(ctx->params),
		 "%d descriptors of a regular file in the write set, highest %d",
		 SELECT_FDS, f->nfds - 1);
	return 0;
fail:
	proc_file_teardown(ctx);
	return err;
}

PM_OP(select_op)
{
	struct proc_file *f = ctx->priv;
	/* static and zero, as lat_select's (select() never writes back a
	 * zero timeout): building it on the stack each call cost 2-3% here */
	static struct timeval tv;
	fd_set set;
	int n;

	set = f->set;
	/* the write set, as lat_select: a regular file is always ready */
	n = select(f->nfds, NULL, &set, NULL, &tv);
	if (n < 0)
		return pm_bench_fail(ctx, -errno, "select");
	if (n != SELECT_FDS)
		return pm_bench_why(ctx, -EIO,
				"select: %d of %d regular-file "
				"descriptors ready", n, SELECT_FDS);
	return 0;
}

/* ---- sig-install, sig-catch: SIGUSR1 to a handler ---- */

static volatile sig_atomic_t sig_caught;

static void sig_count(int sig)
{
	(void)sig;
	sig_caught++;
}

struct sigst {
	struct sigaction old;
	sigset_t oldmask;
	pid_t self;
};

static void sig_teardown(struct pm_ctx *ctx)
{
	struct sigst *st = ctx->priv;

	if (!st)
		return;
	sigaction(SIGUSR1, &st->old, NULL);
	sigprocmask(SIG_SETMASK, &st->oldmask, NULL);
	free(st);
	ctx->priv = NULL;
}

static int sig_setup(struct pm_ctx *ctx)
{
	struct sigst *st = pm_xcalloc(1, sizeof(*st));
	struct sigaction sa;
	sigset_t set;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_count;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, &st->old) != 0) {
		free(st);
		return pm_bench_fail(ctx, -errno, "sigaction SIGUSR1");
	}
	/* The signal must be deliverable the moment kill() returns. */
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigprocmask(SIG_UNBLOCK, &set, &st->oldmask);
	st->self = getpid();	/* once, as lmbench does */
	ctx->priv = st;
	return 0;
}

PM_OP(siginstall_op)
{
	struct sigaction sa, old;

	/* built on the stack each call, as lat_sig's do_install */
	sa.sa_handler = sig_count;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0;
	if (sigaction(SIGUSR1, &sa, &old) != 0)
		return pm_bench_fail(ctx, -errno, "sigaction SIGUSR1");
	pm_barrier();
	return 0;
}

/* kill(self, 0): the permission check and lookup of sending a signal,
 * without one (lat_sig's do_send). */
static int sig_send_loop(void *arg, uint64_t n)
{
	pid_t self = *(const pid_t *)arg;

	while (n--)
		kill(self, 0);
	return 0;
}

static int sig_catch_loop(void *arg, uint64_t n)
{
	pid_t self = *(const pid_t *)arg;

	while (n--)
		kill(self, SIGUSR1);
	return 0;
}

/*
 * lat_sig's "catch" is the cost of sending a signal to itself and
 * catching it, less the cost of sending: kill(self, 0) is timed here
 * and subtracted from every trial.
 */
static int sigcatch_setup(struct pm_ctx *ctx)
{
	struct sigst *st;
	double send = 0;
	int err = sig_setup(ctx);

	if (err)
		return err;
	st = ctx->priv;
	err = pm_overhead_loop_ns(sig_send_loop, &st->self, PM_OVERHEAD_MEDIAN,
				  &send);
	if (err) {
		sig_teardown(ctx);
		return err;
	}
	ctx->overhead_ns = send;
	snprintf(ctx->params, sizeof(ctx->params),
		 "SIGUSR1 to self, empty handler, no flags; kill(self, 0) "
		 "(%.0f ns) subtracted, as lat_sig", send);
	return 0;
}

/* Counted in chunks so the sig_atomic_t counter never overflows. */
#define SIG_CHUNK (1u << 30)

/* run(), not op(): the handler's count is checked per chunk of signals. */
static int sigcatch_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct sigst *st = ctx->priv;

	while (iters) {
		uint64_t chunk = iters < SIG_CHUNK ? iters : SIG_CHUNK;
		uint64_t n = chunk;

		sig_caught = 0;
		while (n--) {
			if (kill(st->self, SIGUSR1) != 0)
				return pm_bench_fail(ctx, -errno, "kill SIGUSR1");
		}
		if ((uint64_t)sig_caught != chunk)
			return pm_bench_why(ctx, -EIO,
					"sent %llu SIGUSR1 but the handler ran "
					"%llu times", (unsigned long long)chunk,
					(unsigned long long)sig_caught);
		iters -= chunk;
	}
	return 0;
}

/* ---- prot-fault: write to a read-only shared file mapping ---- */

/*
 * As lat_sig prot: the handler returns, so the write faults again at
 * once; one operation is one fault, SIGSEGV delivered to an empty
 * handler (no flags) and its return.  The last fault of a run ends it
 * with siglongjmp.  lat_sig then subtracts the cost of catching a
 * signal (sig-catch's figure: kill+catch less kill(self, 0)), timed in
 * setup, "assuming that they cost the same as a normal catch".
 */
static sigjmp_buf prot_env;
static volatile sig_atomic_t prot_armed;
static volatile uint64_t prot_caught, prot_target;
static struct sigaction prot_old;

static void prot_handler(int sig)
{
	if (!prot_armed) {
		/* Not our fault: a real crash.  Hand it to the previous
		 * action and let the faulting instruction run again. */
		sigaction(sig, &prot_old, NULL);
		return;
	}
	if (++prot_caught >= prot_target)
		siglongjmp(prot_env, 1);
}

static void prot_teardown(struct pm_ctx *ctx)
{
	if (!ctx->priv)
		return;
	prot_armed = 0;
	sigaction(SIGSEGV, &prot_old, NULL);
	proc_file_teardown(ctx);
}

/* lat_sig's catch figure: kill(self, SIGUSR1) caught less kill(self, 0). */
static int prot_catch_ns(struct pm_ctx *ctx, double *out)
{
	struct sigaction sa, old;
	double send = 0, catch = 0;
	pid_t self = getpid();
	int err;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = sig_count;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGUSR1, &sa, &old) != 0)
		return pm_bench_fail(ctx, -errno, "sigaction SIGUSR1");
	err = pm_overhead_loop_ns(sig_send_loop, &self, PM_OVERHEAD_MEDIAN, &send);
	if (!err)
		err = pm_overhead_loop_ns(sig_catch_loop, &self, PM_OVERHEAD_MEDIAN,
					  &catch);
	sigaction(SIGUSR1, &old, NULL);
	*out = catch > send ? catch - send : 0;
	return err;
}

static int prot_setup(struct pm_ctx *ctx)
{
	long page = sysconf(_SC_PAGESIZE);
	struct proc_file *f;
	struct sigaction sa;
	double catch = 0;
	int err;

	err = proc_file_setup(ctx, "prot", (size_t)page, &f);
	if (err)
		goto fail;
	f->maplen = (size_t)page;
	f->map = mmap(NULL, f->maplen, PROT_READ, MAP_SHARED, f->fd, 0);
	if (f->map == MAP_FAILED) {
		err = pm_bench_fail(ctx, -errno, "mmap %s", f->path);
		goto fail;
	}
	f->sink = *(volatile char *)f->map;	/* map the page now */
	err = prot_catch_ns(ctx, &catch);
	if (err)
		goto fail;
	prot_armed = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = prot_handler;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGSEGV, &sa, &prot_old) != 0) {
		err = pm_bench_fail(ctx, -errno, "sigaction SIGSEGV");
		goto fail;
	}
	ctx->overhead_ns = catch;
	snprintf(ctx->params, sizeof(ctx->params),
		 "write to a read-only shared mapping of a 1-page file, empty "
		 "handler returning; a signal catch (%.0f ns) subtracted, as "
		 "lat_sig", catch);
	return 0;
fail:
	proc_file_teardown(ctx);
	return err;
}

/* run(), not op(): the handler repeats the fault iters times, then longjmps out. */
static int prot_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct proc_file *f = ctx->priv;

	if (!iters)
		return 0;
	prot_caught = 0;
	prot_target = iters;
	prot_armed = 1;
	/* savemask 1: SIGSEGV is blocked in the handler we jump out of */
	if (sigsetjmp(prot_env, 1) == 0) {
		*(volatile char *)f->map = 1;
		prot_armed = 0;
		return pm_bench_why(ctx, -EIO, "a write to a read-only "
				"mapping did not fault");
	}
	prot_armed = 0;
	return 0;
}

/* ---- fork, exec, sh: loops run by pmbench-spawner (src/bench/spawn.c) ---- */

static void spawn_teardown(struct pm_ctx *ctx)
{
	struct pm_spawner *sp = ctx->priv;

	if (!sp)
		return;
	pm_spawner_stop(sp);
	free(sp);
	ctx->priv = NULL;
}

/* run(), not op(): pmbench-spawner runs the whole loop of iters forks. */
static int spawn_run(struct pm_ctx *ctx, uint64_t iters)
{
	return pm_spawner_run(ctx, ctx->priv, iters);
}

static int spawn_setup(struct pm_ctx *ctx, const char *op, char *arg)
{
	struct pm_spawner *sp = pm_xcalloc(1, sizeof(*sp));
	const char *what = !strncmp(op, "fork", 4) ? "child" : !strcmp(op, "exec") ?
			   ctx->hello : "/bin/sh -c pmbench-hello";
	int err;

	ctx->priv = sp;
	err = pm_spawner_start(ctx, sp, op, arg, what);
	if (err)
		spawn_teardown(ctx);
	return err;
}

#define SH_PATH "/bin/sh"

/*
 * .arg: pmbench-spawner's loop, "fork-exit" (the child calls exit(), as
 * lat_proc's: its stdio cleanup writes to the copied libc state,
 * copy-on-write faults that _exit() would skip), "exec" or "sh".
 */
static int spawner_setup(struct pm_ctx *ctx)
{
	const char *op = ctx->bench->arg, *hello = ctx->hello ? ctx->hello : "";

	if (strcmp(op, "sh"))
		return spawn_setup(ctx, op, pm_xstrdup(hello));
	if (access(SH_PATH, X_OK) != 0)
		return pm_bench_why(ctx, -EOPNOTSUPP, SH_PATH " not found or not "
				"executable");
	return spawn_setup(ctx, op, pm_sh_quote(hello));
}

/* ---- pipe, ctx: a token bounced off a peer over two pipes ---- */

struct echo {
	int to_peer[2];		/* we write [1], the peer reads [0] */
	int from_peer[2];	/* the peer writes [1], we read [0] */
	struct sigaction oldpipe;
	bool pipe_saved;
};

/* The peer: echo every byte back until EOF. */
static int echo_peer(void *arg)
{
	struct echo *st = arg;
	char c;
	int err;

	/* Our copies of the main process's ends: without closing the write
	 * end we would never see EOF. */
	close(st->to_peer[1]);
	close(st->from_peer[0]);
	for (;;) {
		err = pm_read_full(st->to_peer[0], &c, 1);
		if (err == -ENODATA)
			return 0;
		if (err)
			return err;
		err = pm_write_full(st->from_peer[1], &c, 1);
		if (err)
			return err;
	}
}

static int echo_err(struct pm_ctx *ctx, int err, const char *what)
{
	if (err == -ENODATA || err == -EPIPE)
		return pm_bench_why(ctx, -EPIPE, "%s: the helper process exited",
				what);
	return pm_bench_fail(ctx, err, "%s", what);
}

/* One round trip: write the token, read it back. */
static inline int echo_once(struct pm_ctx *ctx, struct echo *st, char *c)
{
	int err;

	err = pm_write_full(st->to_peer[1], c, 1);
	if (err)
		return echo_err(ctx, err, "write to the pipe");
	err = pm_read_full(st->from_peer[0], c, 1);
	if (err)
		return echo_err(ctx, err, "read from the pipe");
	return 0;
}

/* Closing our ends is what makes the peer exit; the runner reaps it. */
static void echo_teardown(struct pm_ctx *ctx)
{
	struct echo *st = ctx->priv;

	if (!st)
		return;
	proc_close(&st->to_peer[0]);
	proc_close(&st->to_peer[1]);
	proc_close(&st->from_peer[0]);
	proc_close(&st->from_peer[1]);
	if (st->pipe_saved)
		sigaction(SIGPIPE, &st->oldpipe, NULL);
	free(st);
	ctx->priv = NULL;
}

static int echo_setup(struct pm_ctx *ctx)
{
	struct echo *st = pm_xcalloc(1, sizeof(*st));
	struct sigaction sa;
	char c = 'x';
	int err;

	st->to_peer[0] = st->to_peer[1] = -1;
	st->from_peer[0] = st->from_peer[1] = -1;
	ctx->priv = st;
	if (pipe2(st->to_peer, O_CLOEXEC) != 0 ||
	    pipe2(st->from_peer, O_CLOEXEC) != 0) {
		err = pm_bench_fail(ctx, -errno, "pipe");
		goto fail;
	}
	err = pm_spawn_peer(ctx, echo_peer, st);
	if (err)
		goto fail;
	proc_close(&st->to_peer[0]);
	proc_close(&st->from_peer[1]);
	/* A dead peer must fail run() with EPIPE, not kill us. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPIPE, &sa, &st->oldpipe) == 0)
		st->pipe_saved = true;
	/* One round trip: the peer is up and echoing. */
	err = echo_once(ctx, st, &c);
	if (err)
		goto fail;
	return 0;
fail:
	echo_teardown(ctx);
	pm_reap_peers(ctx);
	return err;
}

PM_OP(pipe_op)
{
	char c = 'x';

	return echo_once(ctx, ctx->priv, &c);
}

/*
 * lat_ctx's overhead: one process writes the token into a pipe and reads
 * it back, the work of one hop without the switch.  The quickest of several
 * ~5 ms loops, per hop (pm_overhead_loop_ns).
 */
struct ctx_ovh {
	struct pm_ctx *ctx;
	int p[2];
};

static int ctx_loop(void *arg, uint64_t n)
{
	struct ctx_ovh *o = arg;
	char c = 'x';
	int err;

	while (n--) {
		err = pm_write_full(o->p[1], &c, 1);
		if (!err)
			err = pm_read_full(o->p[0], &c, 1);
		if (err)
			return pm_bench_fail(o->ctx, err,
					 "measuring the pipe overhead");
	}
	return 0;
}

static int ctx_overhead(struct pm_ctx *ctx, double *out)
{
	struct ctx_ovh o = { .ctx = ctx };
	int err;

	if (pipe2(o.p, O_CLOEXEC) != 0)
		return pm_bench_fail(ctx, -errno, "pipe");
	err = pm_overhead_loop_ns(ctx_loop, &o, PM_OVERHEAD_QUICKEST, out);
	close(o.p[0]);
	close(o.p[1]);
	return err;
}

static int ctx_setup(struct pm_ctx *ctx)
{
	double overhead = 0;
	int err;

	err = ctx_overhead(ctx, &overhead);
	if (err)
		return err;
	err = echo_setup(ctx);
	if (err)
		return err;
	/* One iteration is a full trip around the ring: two hops. */
	ctx->ops_per_iter = 2;
	ctx->overhead_ns = overhead;
	snprintf(ctx->params, sizeof(ctx->params),
		 "2 processes, 0 KiB, pipe overhead %.0f ns per hop subtracted",
		 overhead);
	return 0;
}

/* ---- wakeup-kernel-hog: a timer wake-up next to a long kernel path ---- */

/*
 * In the manner of cyclictest: the main process sleeps to an absolute
 * deadline and takes how late it woke, while a hog on the same CPU spends
 * its time in one system call that has no rescheduling point: poll() of
 * the same /dev/null descriptor many times over (do_poll walks them all
 * before it returns).  The timer interrupt wakes the sleeper and asks
 * the hog's CPU to reschedule; a kernel preemptible everywhere (preempt=
 * full) switches at the end of the interrupt, one without kernel
 * preemption (preempt=none) only when the hog returns to user space.
 * The hog's call is sized in setup to about WAKE_HOG_NS; the figure is
 * the mean lateness per wake-up (the sleep itself is subtracted), the
 * median and 99th percentile go into the detail.
 */
#define WAKE_PERIOD_NS 1000000ull	/* sleep per wake-up */
#define WAKE_HOG_NS 2000000.0		/* the hog's poll() */
#define WAKE_SAMPLES 65536		/* last wake-ups kept for the detail */
#define WAKE_HOG_MIN_FDS 64
#define WAKE_MAX_FDS (1u << 20)

struct wake {
	int ctl[2];		/* EOF on ctl[0] ends the hog */
	int devnull;
	struct pollfd *pfd;
	nfds_t nfds;
	struct rlimit old_nofile;
	bool nofile_saved;
	bool fifo;		/* main sleeps as SCHED_FIFO */
	int old_policy;
	struct sched_param old_param;
	double *lat;		/* ring of the last WAKE_SAMPLES latenesses */
	size_t nlat, next;
	uint64_t wakeups;
};

static int wake_hog(void *arg)
{
	struct wake *st = arg;
	char c;

	close(st->ctl[1]);
	if (fcntl(st->ctl[0], F_SETFL, O_NONBLOCK) != 0)
		return errno;
	while (read(st->ctl[0], &c, 1) != 0) {
		if (poll(st->pfd, st->nfds, 0) < 0 && errno != EINTR)
			return errno;
	}
	return 0;
}

/* Time of one poll() of n entries, best of a few. */
static double wake_poll_ns(struct wake *st, nfds_t n)
{
	double best = INFINITY;
	int i;

	for (i = 0; i < 5; i++) {
		uint64_t t0 = pm_now_ns();

		if (poll(st->pfd, n, 0) < 0)
			return -1;
		best = fmin(best, (double)(pm_now_ns() - t0));
	}
	return best;
}

static void wake_teardown(struct pm_ctx *ctx)
{
	struct wake *st = ctx->priv;

	if (!st)
		return;
	proc_close(&st->ctl[0]);
	proc_close(&st->ctl[1]);
	proc_close(&st->devnull);
	if (st->fifo)
		sched_setscheduler(0, st->old_policy, &st->old_param);
	if (st->nofile_saved)
		setrlimit(RLIMIT_NOFILE, &st->old_nofile);
	if (st->nlat && !ctx->detail) {
		double *v = pm_xmalloc(st->nlat * sizeof(*v));

		memcpy(v, st->lat, st->nlat * sizeof(*v));
		pm_sort(v, st->nlat, sizeof(*v), pm_cmp_double);
		ctx->detail = json_pack("{s:f,s:f,s:f,s:I,s:I,s:s}",
			"median_ns", pm_quantile_sorted(v, st->nlat, 0.5),
			"p99_ns", pm_quantile_sorted(v, st->nlat, 0.99),
			"max_ns", v[st->nlat - 1],
			"samples", (json_int_t)st->nlat,
			"hog_poll_fds", (json_int_t)st->nfds,
			"policy", st->fifo ? "SCHED_FIFO" : "SCHED_OTHER");
		free(v);
	}
	free(st->lat);
	free(st->pfd);
	free(st);
	ctx->priv = NULL;
}

/* poll() takes at most RLIMIT_NOFILE entries: raise the limit (the hard
 * one too where we may, up to fs.nr_open); the old one comes back in
 * teardown. */
static void raise_nofile(struct wake *st)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &st->old_nofile) != 0)
		return;
	st->nofile_saved = true;
	rl = st->old_nofile;
	if (rl.rlim_max != RLIM_INFINITY && rl.rlim_max < WAKE_MAX_FDS) {
		long nr_open = 0;

		rl.rlim_max = WAKE_MAX_FDS;
		if (!pm_read_long("/proc/sys/fs/nr_open", &nr_open) && nr_open > 0 &&
		    (rlim_t)nr_open < rl.rlim_max)
			rl.rlim_max = (rlim_t)nr_open;
		rl.rlim_cur = rl.rlim_max;
		if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
			rl = st->old_nofile;
	}
	if (rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

/* Size the hog's system call: double its descriptors (up to max) until
 * a poll() takes WAKE_HOG_NS; st->nfds and its time in *t. */
static int size_hog(struct pm_ctx *ctx, struct wake *st, nfds_t max, double *t)
{
	nfds_t n;

	for (n = WAKE_HOG_MIN_FDS; ; n = n * 2 > max ? max : n * 2) {
		*t = wake_poll_ns(st, n);
		if (*t < 0)
			return pm_bench_fail(ctx, -errno, "poll of %zu descriptors", (size_t)n);
		if (*t >= WAKE_HOG_NS / 2 || n == max)
			break;
	}
	if (*t > 0 && *t < WAKE_HOG_NS) {
		nfds_t m = (nfds_t)fmin((double)max, (double)n * WAKE_HOG_NS / *t);

		*t = *t * (double)m / (double)n;
		n = m;
	}
	st->nfds = n;
	return 0;
}

static int wake_setup(struct pm_ctx *ctx)
{
	struct wake *st = pm_xcalloc(1, sizeof(*st));
	struct sched_param sp = { .sched_priority = 1 };
	struct rlimit rl;
	nfds_t n, max;
	double t = 0;
	int err;

	st->ctl[0] = st->ctl[1] = -1;
	ctx->priv = st;
	st->devnull = open("/dev/null", O_RDONLY | O_CLOEXEC);
	if (st->devnull < 0) {
		err = pm_bench_fail(ctx, -errno, "open /dev/null");
		goto fail;
	}
	raise_nofile(st);
	if (getrlimit(RLIMIT_NOFILE, &rl) != 0) {
		err = pm_bench_fail(ctx, -errno, "getrlimit RLIMIT_NOFILE");
		goto fail;
	}
	max = rl.rlim_cur == RLIM_INFINITY || rl.rlim_cur > WAKE_MAX_FDS ?
	      WAKE_MAX_FDS : (nfds_t)rl.rlim_cur;
	if (max < WAKE_HOG_MIN_FDS) {
		err = pm_bench_why(ctx, -EMFILE, "RLIMIT_NOFILE %zu is too low for the hog's poll()",
				   (size_t)max);
		goto fail;
	}
	st->pfd = pm_xmalloc(max * sizeof(*st->pfd));
	for (n = 0; n < max; n++)
		st->pfd[n] = (struct pollfd){ .fd = st->devnull, .events = POLLIN };
	err = size_hog(ctx, st, max, &t);
	if (err)
		goto fail;
	n = st->nfds;
	if (pipe2(st->ctl, O_CLOEXEC) != 0) {
		err = pm_bench_fail(ctx, -errno, "pipe");
		goto fail;
	}
	err = pm_spawn_peer(ctx, wake_hog, st);
	if (err)
		goto fail;
	proc_close(&st->ctl[0]);
	/* after the fork: the hog stays SCHED_OTHER */
	st->old_policy = sched_getscheduler(0);
	if (st->old_policy >= 0 && sched_getparam(0, &st->old_param) == 0 &&
	    sched_setscheduler(0, SCHED_FIFO, &sp) == 0)
		st->fifo = true;
	st->lat = pm_xmalloc(WAKE_SAMPLES * sizeof(*st->lat));
	ctx->overhead_ns = (double)WAKE_PERIOD_NS;
	snprintf(ctx->params, sizeof(ctx->params),
		 "sleep %llu us to an absolute deadline (%s) while a hog %s runs "
		 "poll() of %zu descriptors (%.0f us); the sleep is subtracted",
		 WAKE_PERIOD_NS / 1000, st->fifo ? "SCHED_FIFO" : "SCHED_OTHER",
		 ctx->cpu >= 0 ? "on the same CPU" : "(both unpinned)",
		 (size_t)n, t / 1000);
	return 0;
fail:
	wake_teardown(ctx);
	pm_reap_peers(ctx);
	return err;
}

PM_OP(wake_op)
{
	struct wake *st = ctx->priv;
	struct timespec now, at;
	uint64_t t, due;
	int r;

	clock_gettime(CLOCK_MONOTONIC, &now);
	due = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec +
	      WAKE_PERIOD_NS;
	at.tv_sec = (time_t)(due / 1000000000ull);
	at.tv_nsec = (long)(due % 1000000000ull);
	do
		r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &at, NULL);
	while (r == EINTR);
	if (r)
		return pm_bench_fail(ctx, -r, "clock_nanosleep");
	clock_gettime(CLOCK_MONOTONIC, &now);
	t = (uint64_t)now.tv_sec * 1000000000ull + (uint64_t)now.tv_nsec;
	st->lat[st->next] = t > due ? (double)(t - due) : 0;
	st->next = (st->next + 1) % WAKE_SAMPLES;
	if (st->nlat < WAKE_SAMPLES)
		st->nlat++;
	st->wakeups++;
	return 0;
}

/* ---- page-fault: one read fault per touched page ---- */

#define PF_FILE_SIZE (64u << 20)
#define PF_MIN_STRIDE (64u << 10)
#define FAULT_AROUND_PATH "/sys/kernel/debug/fault_around_bytes"

static int pf_map(struct pm_ctx *ctx, struct proc_file *f)
{
	f->map = mmap(NULL, f->maplen, PROT_READ, MAP_SHARED, f->fd, 0);
	if (f->map == MAP_FAILED)
		return pm_bench_fail(ctx, -errno, "mmap %s", f->path);
	/* A PMD mapping of a large page-cache folio would map 2 MiB at
	 * once; ask for page-table mappings, and no readahead. */
	madvise(f->map, f->maplen, MADV_NOHUGEPAGE);
	madvise(f->map, f->maplen, MADV_RANDOM);
	f->pos = 0;
	return 0;
}

/*
 * Keep only the pages we touch in the page cache, one per fault-around
 * window: a fault then maps just that page (fault-around maps only
 * cached pages), so the figure is the fault, not the later munmap of
 * 16 PTEs per fault.  Returns the pages cached, as mincore() sees them.
 */
static size_t pf_sparse_cache(struct proc_file *f, size_t page)
{
	unsigned char *vec;
	size_t off, n = 0, i, npages = f->size / page;
	char *buf = pm_xmalloc(page);
	void *map;

	posix_fadvise(f->fd, 0, 0, POSIX_FADV_DONTNEED);
	posix_fadvise(f->fd, 0, 0, POSIX_FADV_RANDOM);
	for (off = 0; off < f->size; off += f->stride)
		if (pread(f->fd, buf, page, (off_t)off) < 0)
			break;
	free(buf);
	map = mmap(NULL, f->size, PROT_READ, MAP_SHARED, f->fd, 0);
	if (map == MAP_FAILED)
		return 0;
	vec = pm_xmalloc(npages);
	if (mincore(map, f->size, vec) == 0)
		for (i = 0; i < npages; i++)
			n += vec[i] & 1;
	free(vec);
	munmap(map, f->size);
	return n;
}

static int pf_setup(struct pm_ctx *ctx)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE), stride = PF_MIN_STRIDE;
	size_t size = PF_FILE_SIZE, cached;
	struct proc_file *f;
	long around;
	int err;

	/*
	 * A read fault maps the whole fault-around window (aligned
	 * fault_around_bytes, 64 KiB by default) of page-cache pages:
	 * touching one page per window makes every touch exactly one fault.
	 */
	if (pm_read_long(FAULT_AROUND_PATH, &around) == 0 &&
	    around > (long)stride)
		stride = (size_t)around;
	stride = (stride + page - 1) / page * page;
	if (size < 16 * stride)
		size = 16 * stride;
	err = proc_paged_file_setup(ctx, "page-fault", size, &f);
	if (err)
		goto fail;
	f->stride = stride;
	f->maplen = size;
	cached = pf_sparse_cache(f, page);
	err = pf_map(ctx, f);
	if (err)
		goto fail;
	snprintf(ctx->params, sizeof(ctx->params),
		 "stride %zu KiB, %zu MiB file, %zu faults per mapping; %zu of %zu "
		 "pages cached%s", stride >> 10, size >> 20, size / stride, cached,
		 size / page, cached == size / stride ? " (one per fault)" :
		 " (the file system keeps the file cached: fault-around maps more)");
	return 0;
fail:
	proc_file_teardown(ctx);
	return err;
}

/*
 * When the mapping is used up it is unmapped and mapped again inside the
 * loop, as lmbench's lat_pagefault does: the mmap, the page-table
 * allocations and the munmap of the pages the faults mapped (one PTE per
 * fault when the cache is sparse) are amortized over size/stride faults.
 */
PM_OP(pf_op)
{
	struct proc_file *f = ctx->priv;
	int err;

	if (f->pos >= f->maplen) {
		munmap(f->map, f->maplen);
		f->map = MAP_FAILED;
		err = pf_map(ctx, f);
		if (err)
			return err;
	}
	f->sink += ((volatile unsigned char *)f->map)[f->pos];
	f->pos += f->stride;
	return 0;
}

/*
 * ---- page-fault-lmb: lat_pagefault ----
 *
 * lmbench's figure: map a whole 8 MiB file (lmbench's default FILE
 * size, MB=8), read one byte of every page in a random order, then
 * munmap, mmap and msync(MS_INVALIDATE) it again; the time of the
 * remap alone is subtracted and the rest divided by the pages.  A read
 * fault maps its whole fault-around window (and a large folio maps at
 * once), so most touches do not fault: the figure is a cost per page
 * of mapping a cached file, not the cost of one fault (page-fault).
 */
#define PFL_FILE_SIZE (8u << 20)

static int pfl_remap(struct pm_ctx *ctx, struct proc_file *f)
{
	if (f->map != MAP_FAILED)
		munmap(f->map, f->maplen);
	f->map = mmap(NULL, f->maplen, PROT_READ, MAP_SHARED, f->fd, 0);
	if (f->map == MAP_FAILED)
		return pm_bench_fail(ctx, -errno, "mmap %s", f->path);
	if (msync(f->map, f->maplen, MS_INVALIDATE) != 0)
		return pm_bench_fail(ctx, -errno, "msync %s", f->path);
	return 0;
}

struct pfl_loop {
	struct pm_ctx *ctx;
	struct proc_file *f;
};

static int pfl_remap_loop(void *arg, uint64_t n)
{
	struct pfl_loop *l = arg;
	int err = 0;

	while (n-- && !err)
		err = pfl_remap(l->ctx, l->f);
	return err;
}

/*
 * What the kernel made of the mapping, for the figure's detail: a read
 * fault maps a whole folio, with one PMD entry when the folio is 2 MiB
 * and the mapping 2 MiB-aligned.  On a VM with shadow page tables an
 * 8 MiB file read this way took 4 faults a pass at ~110 ns a page when
 * so, and 130 faults at ~1700 ns a page when mapped 4 KiB off; so two
 * figures are comparable only with the same faults a pass.
 */
#define PFL_PMD (2ul << 20)

/*
 * The orders the pages are read in: order k is a Fisher-Yates shuffle
 * with rand_r() seeded k + 1, the same in every round and run.  On a VM
 * with shadow page tables one order can cost 20% less than another
 * (seeds 1 and 8 read 650 ns a page, the other ten of seeds 1-12 710-810
 * in the same minutes), and lmbench takes one
 * random order per run (srand(getpid())): the mean over a few orders
 * stands for lmbench's figure better than any one order does.
 */
#define PFL_ORDERS 4

static void pfl_orders(size_t *perm, size_t npages, size_t page)
{
	size_t i, j, t, k;

	for (k = 0; k < PFL_ORDERS; k++) {
		size_t *p = perm + k * npages;
		unsigned seed = (unsigned)k + 1;

		for (i = 0; i < npages; i++)
			p[i] = i * page;
		for (i = npages - 1; i > 0; i--) {
			j = (size_t)rand_r(&seed) % (i + 1);
			t = p[i];
			p[i] = p[j];
			p[j] = t;
		}
	}
}

/* One read of every page in the order perm; inlined into pfl_op_loop. */
static inline unsigned pfl_pass(const struct proc_file *f, const size_t *perm)
{
	unsigned sum = 0;
	size_t i;

	for (i = 0; i < f->npages; i++)
		sum += ((volatile unsigned char *)f->map)[perm[i]];
	return sum;
}

static int pfl_faults_per_pass(struct pm_ctx *ctx, struct proc_file *f, long *faults)
{
	struct rusage r0, r1;
	unsigned sum;

	getrusage(RUSAGE_SELF, &r0);
	sum = pfl_pass(f, f->perm);
	getrusage(RUSAGE_SELF, &r1);
	f->sink += (unsigned char)sum;
	*faults = r1.ru_minflt - r0.ru_minflt + r1.ru_majflt - r0.ru_majflt;
	return pfl_remap(ctx, f);
}

static int pfl_setup(struct pm_ctx *ctx)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	struct proc_file *f;
	struct pfl_loop l;
	double remap = 0;
	long faults = 0;
	int err;

	err = proc_file_setup(ctx, "page-fault-lmb", PFL_FILE_SIZE, &f);
	if (err)
		goto fail;
	f->maplen = PFL_FILE_SIZE;
	f->npages = PFL_FILE_SIZE / page;
	f->perm = pm_xcalloc(PFL_ORDERS * f->npages, sizeof(*f->perm));
	pfl_orders(f->perm, f->npages, page);
	l.ctx = ctx;
	l.f = f;
	err = pfl_remap(ctx, f);
	if (!err)
		err = pm_overhead_loop_ns(pfl_remap_loop, &l, PM_OVERHEAD_MEDIAN, &remap);
	if (err)
		goto fail;
	/* one operation: a pass in each order; a remap per pass */
	ctx->ops_per_iter = (unsigned)(PFL_ORDERS * f->npages);
	ctx->overhead_ns = remap / (double)f->npages;
	err = pfl_faults_per_pass(ctx, f, &faults);
	if (err)
		goto fail;
	snprintf(ctx->params, sizeof(ctx->params),
		 "%u MiB file, %zu pages read in a random order (%d fixed orders "
		 "in turn), then munmap+mmap+msync; the remap alone (%.0f ns) "
		 "subtracted, as lat_pagefault; %ld faults a pass, the mapping "
		 "%lu KiB past a 2 MiB boundary", PFL_FILE_SIZE >> 20, f->npages,
		 PFL_ORDERS, remap, faults,
		 (unsigned long)((uintptr_t)f->map & (PFL_PMD - 1)) >> 10);
	return 0;
fail:
	proc_file_teardown(ctx);
	return err;
}

PM_OP(pfl_op)
{
	struct proc_file *f = ctx->priv;
	unsigned sum = 0;
	size_t k;
	int err;

	for (k = 0; k < PFL_ORDERS; k++) {
		sum += pfl_pass(f, f->perm + k * f->npages);
		err = pfl_remap(ctx, f);
		if (err)
			return err;
	}
	f->sink += (unsigned char)sum;
	return 0;
}

/* ---- mmap: lat_mmap, map 8 MiB, read every 16 KiB, unmap ---- */

#define MMAP_FILE_SIZE (8u << 20)
#define MMAP_STRIDE (16u << 10)

static int mmap_setup(struct pm_ctx *ctx)
{
	struct proc_file *f;
	int err;

	err = proc_paged_file_setup(ctx, "mmap", MMAP_FILE_SIZE, &f);
	if (err) {
		proc_file_teardown(ctx);
		return err;
	}
	f->maplen = MMAP_FILE_SIZE;
	snprintf(ctx->params, sizeof(ctx->params),
		 "%u MiB file, one byte read every %u KiB",
		 MMAP_FILE_SIZE >> 20, MMAP_STRIDE >> 10);
	return 0;
}

PM_OP(mmap_op)
{
	struct proc_file *f = ctx->priv;
	unsigned char sum = 0;
	volatile unsigned char *p;
	size_t off;

	p = mmap(NULL, f->maplen, PROT_READ, MAP_SHARED, f->fd, 0);
	if (p == MAP_FAILED)
		return pm_bench_fail(ctx, -errno, "mmap %s", f->path);
	for (off = 0; off < f->maplen; off += MMAP_STRIDE)
		sum += p[off];
	if (munmap((void *)p, f->maplen) != 0)
		return pm_bench_fail(ctx, -errno, "munmap");
	f->sink += sum;
	return 0;
}

/*
 * ---- page-fault-anon, page-fault-thp: first touch of anonymous memory ----
 *
 * will-it-scale's page_fault1: map fresh private anonymous memory, write
 * one byte to every page, unmap it (freeing the pages).  One iteration
 * is that whole cycle on a small region, so every iteration costs the
 * same (a remap every N iterations would make trials bimodal); one
 * operation is one 4 KiB page of it (ops_per_iter = its pages), the
 * mmap/munmap amortized over them.  page-fault-anon: 1 MiB with
 * MADV_NOHUGEPAGE, one fault per page.  page-fault-thp: one huge page's
 * worth (2 MiB, aligned) with MADV_HUGEPAGE: where THP is enabled one
 * fault maps all of it, else one fault per page.  page-fault-thp-read
 * reads instead: the shared zero page is mapped, 4 KiB or, with THP,
 * the huge zero page, so nothing is allocated or cleared and what is
 * left is the faults themselves (under emulation, clearing memory costs
 * so much that it hides what THP saves on faults).
 */

#define ANON_BYTES (1u << 20)
#define THP_ENABLED "/sys/kernel/mm/transparent_hugepage/enabled"
#define THP_PMD_SIZE "/sys/kernel/mm/transparent_hugepage/hpage_pmd_size"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

struct anon {
	size_t len, page;
	int advice;
	bool read;		/* read faults: the zero page */
	volatile unsigned char sink;
	char *at;		/* thp: an aligned address to map at, or NULL */
};

/* An aligned region's address: map twice the size, keep none of it. */
static char *anon_aligned_hole(size_t len)
{
	char *p = mmap(NULL, 2 * len, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	uintptr_t a;

	if (p == MAP_FAILED)
		return NULL;
	a = ((uintptr_t)p + len - 1) & ~(uintptr_t)(len - 1);
	munmap(p, 2 * len);
	return (char *)a;
}

static char *anon_map(struct anon *a)
{
	char *p;

	if (a->at) {
		/* the same aligned hole each time; taken meanwhile (threads):
		 * find another */
		p = mmap(a->at, a->len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
		if (p != MAP_FAILED && p != a->at) {
			munmap(p, a->len);
			p = MAP_FAILED;
			errno = EEXIST;
		}
		if (p == MAP_FAILED && (errno == EEXIST || errno == EINVAL)) {
			a->at = anon_aligned_hole(a->len);
			if (!a->at)
				return MAP_FAILED;
			return anon_map(a);
		}
	} else {
		p = mmap(NULL, a->len, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	}
	if (p != MAP_FAILED && madvise(p, a->len, a->advice) && errno != EINVAL) {
		int err = errno;

		munmap(p, a->len);
		errno = err;
		return MAP_FAILED;
	}
	return p;
}

static int anon_setup_common(struct pm_ctx *ctx, size_t len, int advice, bool read)
{
	struct anon *a = pm_xcalloc(1, sizeof(*a));
	char thp[128] = "";
	char *p;

	a->page = (size_t)sysconf(_SC_PAGESIZE);
	a->len = len;
	a->advice = advice;
	a->read = read;
	ctx->priv = a;
	if (advice == MADV_HUGEPAGE) {
		a->at = anon_aligned_hole(len);
		if (!a->at)
			return pm_bench_fail(ctx, -errno, "mmap of %zu KiB", 2 * len >> 10);
	}
	/* one cycle now: a failing mmap or madvise fails setup, not a trial */
	p = anon_map(a);
	if (p == MAP_FAILED)
		return pm_bench_fail(ctx, -errno, "mmap+madvise of %zu KiB anonymous memory",
				     len >> 10);
	munmap(p, len);
	ctx->ops_per_iter = (unsigned)(len / a->page);
	pm_read_line(THP_ENABLED, thp, sizeof(thp));
	snprintf(ctx->params, sizeof(ctx->params),
		 "per %zu KiB page: mmap %zu KiB private anonymous%s, one %s per page, "
		 "munmap; THP enabled: %s", a->page >> 10, len >> 10,
		 advice == MADV_HUGEPAGE ? " (aligned, MADV_HUGEPAGE)" : " (MADV_NOHUGEPAGE)",
		 read ? "read" : "write", thp[0] ? thp : "(not built)");
	return 0;
}

static int thp_supported(char *why, size_t len)
{
	if (access(THP_ENABLED, R_OK)) {
		snprintf(why, len, "the kernel has no transparent hugepages (%s: %s)",
			 THP_ENABLED, strerror(errno));
		return -EOPNOTSUPP;
	}
	return 0;
}

/* A page-fault-anon or page-fault-thp* descriptor's .arg. */
struct anon_arg {
	bool huge;	/* one huge page's worth, aligned, MADV_HUGEPAGE */
	bool read;	/* a read of each page, not a write */
};

static int anon_setup(struct pm_ctx *ctx)
{
	const struct anon_arg *a = ctx->bench->arg;
	long pmd = 0;

	if (!a->huge)
		return anon_setup_common(ctx, ANON_BYTES, MADV_NOHUGEPAGE, a->read);
	if (pm_read_long(THP_PMD_SIZE, &pmd) || pmd <= 0 || (pmd & (pmd - 1)))
		pmd = 2l << 20;
	return anon_setup_common(ctx, (size_t)pmd, MADV_HUGEPAGE, a->read);
}

PM_OP(anon_op)
{
	struct anon *a = ctx->priv;
	unsigned char sum = 0;
	size_t off;
	char *p;

	p = anon_map(a);
	if (p == MAP_FAILED)
		return pm_bench_fail(ctx, -errno, "mmap of %zu KiB anonymous memory",
				     a->len >> 10);
	if (a->read)
		for (off = 0; off < a->len; off += a->page)
			sum += ((volatile unsigned char *)p)[off];
	else
		for (off = 0; off < a->len; off += a->page)
			((volatile char *)p)[off] = 1;
	if (munmap(p, a->len))
		return pm_bench_fail(ctx, -errno, "munmap");
	a->sink += sum;
	return 0;
}

static void anon_teardown(struct pm_ctx *ctx)
{
	free(ctx->priv);
	ctx->priv = NULL;
}

/*
 * ---- page-walk: loads that each walk the page tables ----
 *
 * PW_PAGES pages of a private anonymous region, one every 2 MiB (so each
 * is reached through its own last-level page-table page), populated in
 * setup.  One iteration changes the protection of PW_FLUSH_PAGES present
 * pages of another region and back: more pages than the kernel flushes
 * one by one, so the whole TLB is flushed (under QEMU's TCG its software
 * TLB too, which otherwise holds everything).  Then one load per page:
 * each misses the TLB and walks every page-table level, 4 or 5.  One
 * operation is one such load, the mprotect pair amortized over them.
 */

#define PW_PAGES 4096u
#define PW_STRIDE (2ul << 20)
#define PW_FLUSH_PAGES 64u

struct pwalk {
	char *region, *flush;
	size_t page;
	volatile unsigned char sink;
};

static void pwalk_teardown(struct pm_ctx *ctx)
{
	struct pwalk *w = ctx->priv;

	if (!w)
		return;
	if (w->region)
		munmap(w->region, PW_PAGES * PW_STRIDE);
	if (w->flush)
		munmap(w->flush, PW_FLUSH_PAGES * w->page);
	free(w);
	ctx->priv = NULL;
}

static int pwalk_setup(struct pm_ctx *ctx)
{
	struct pwalk *w = pm_xcalloc(1, sizeof(*w));
	char *p;
	size_t i;

	ctx->priv = w;
	w->page = (size_t)sysconf(_SC_PAGESIZE);
	/* reserved address space, not memory: only the touched pages and
	 * their page tables are allocated */
	p = mmap(NULL, PW_PAGES * PW_STRIDE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return pm_bench_fail(ctx, -errno, "mmap of %lu MiB of address space",
				     (unsigned long)(PW_PAGES * PW_STRIDE >> 20));
	w->region = p;
	/* 4 KiB pages: a huge page would end the walk a level early */
	madvise(p, PW_PAGES * PW_STRIDE, MADV_NOHUGEPAGE);
	for (i = 0; i < PW_PAGES; i++)
		p[i * PW_STRIDE] = 1;
	p = mmap(NULL, PW_FLUSH_PAGES * w->page, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED)
		return pm_bench_fail(ctx, -errno, "mmap of %u pages", PW_FLUSH_PAGES);
	w->flush = p;
	for (i = 0; i < PW_FLUSH_PAGES; i++)
		p[i * w->page] = 1;
	ctx->ops_per_iter = PW_PAGES;
	snprintf(ctx->params, sizeof(ctx->params),
		 "per load: %u pages %lu MiB apart, each loaded once after a full TLB "
		 "flush (mprotect of %u present pages and back)",
		 PW_PAGES, (unsigned long)(PW_STRIDE >> 20), PW_FLUSH_PAGES);
	return 0;
}

PM_OP(pwalk_op)
{
	struct pwalk *w = ctx->priv;
	size_t len = PW_FLUSH_PAGES * w->page, i;
	unsigned char sum = 0;

	if (mprotect(w->flush, len, PROT_READ) ||
	    mprotect(w->flush, len, PROT_READ | PROT_WRITE))
		return pm_bench_fail(ctx, -errno, "mprotect of %u pages",
				     PW_FLUSH_PAGES);
	for (i = 0; i < PW_PAGES; i++)
		sum += ((volatile unsigned char *)w->region)[i * PW_STRIDE];
	w->sink += sum;
	return 0;
}

/* ---- the family ---- */

static const struct pm_bench proc_benches[] = {
	{
		.name = "null",
		.group = "proc",
		.summary = "getppid() system call",
		.unit = "us",
		.lmbench = "proc: null call",
		PM_OP_HOOKS(null_op),
		.flags = PM_QUICK,
		.exercises = PM_EX_SYSCALL,
	},
	{
		.name = "null-io",
		.group = "proc",
		.summary = "1-byte read of /dev/zero or write to /dev/null",
		.unit = "us",
		.lmbench = "proc: null I/O",
		.setup = nullio_setup,
		PM_OP_HOOKS(nullio_op),
		.teardown = nullio_teardown,
		.flags = PM_QUICK,
		.exercises = PM_EX_SYSCALL,
	},
	{
		.name = "stat",
		.group = "proc",
		.summary = "stat() of a file",
		.unit = "us",
		.lmbench = "proc: stat",
		.setup = smallfile_setup,
		PM_OP_HOOKS(stat_op),
		.teardown = proc_file_teardown,
		.flags = PM_FS | PM_QUICK,
		.exercises = PM_EX_SYSCALL | PM_EX_PATH,
	},
	{
		.name = "fstat",
		.group = "proc",
		.summary = "fstat() of an open file",
		.unit = "us",
		.setup = smallfile_setup,
		PM_OP_HOOKS(fstat_op),
		.teardown = proc_file_teardown,
		.flags = PM_FS,
		.exercises = PM_EX_SYSCALL,
	},
	{
		.name = "open",
		.group = "proc",
		.summary = "open()+close() of a file",
		.unit = "us",
		.lmbench = "proc: open clos",
		.setup = smallfile_setup,
		PM_OP_HOOKS(open_op),
		.teardown = proc_file_teardown,
		.flags = PM_FS | PM_QUICK,
		.exercises = PM_EX_SYSCALL | PM_EX_PATH,
	},
	{
		.name = "select",
		.group = "proc",
		.summary = "select() on 100 file descriptors, zero timeout",
		.unit = "us",
		.lmbench = "fs: 100fd selct",
		.setup = select_setup,
		PM_OP_HOOKS(select_op),
		.teardown = proc_file_teardown,
		.flags = PM_FS | PM_QUICK,
		.exercises = PM_EX_SYSCALL,
	},
	{
		.name = "sig-install",
		.group = "proc",
		.summary = "sigaction() installing a signal handler",
		.unit = "us",
		.lmbench = "proc: sig inst",
		.setup = sig_setup,
		PM_OP_HOOKS(siginstall_op),
		.teardown = sig_teardown,
		.flags = PM_QUICK,
		.exercises = PM_EX_SYSCALL | PM_EX_SIGNAL,
	},
	{
		.name = "sig-catch",
		.group = "proc",
		.summary = "kill() of self, signal delivered to a handler; "
			   "kill(self, 0) subtracted (lat_sig)",
		.unit = "us",
		.lmbench = "proc: sig hndl",
		.setup = sigcatch_setup,
		.run = sigcatch_run,
		.teardown = sig_teardown,
		.flags = PM_QUICK | PM_NO_THREADS,
		.exercises = PM_EX_SYSCALL | PM_EX_SIGNAL,
	},
	{
		.name = "prot-fault",
		.group = "proc",
		.summary = "write to a read-only mapping: fault, SIGSEGV to a "
			   "returning handler; a catch subtracted (lat_sig)",
		.unit = "us",
		.lmbench = "fs: Prot Fault",
		.setup = prot_setup,
		.run = prot_run,
		.teardown = prot_teardown,
		.flags = PM_FS | PM_QUICK | PM_NO_THREADS,
		.exercises = PM_EX_FAULT | PM_EX_SIGNAL,
	},
	{
		.name = "fork",
		.group = "proc",
		.summary = "fork+exit+wait (from the small pmbench-spawner)",
		.unit = "us",
		.lmbench = "proc: fork proc",
		.setup = spawner_setup,
		.arg = "fork-exit",
		.run = spawn_run,
		.teardown = spawn_teardown,
		.flags = PM_FORKS | PM_PEERS | PM_QUICK,
		.exercises = PM_EX_SPAWN | PM_EX_VM | PM_EX_FAULT,
	},
	{
		.name = "exec",
		.group = "proc",
		.summary = "fork+execve(pmbench-hello)+wait",
		.unit = "us",
		.lmbench = "proc: exec proc",
		.setup = spawner_setup,
		.arg = "exec",
		.run = spawn_run,
		.teardown = spawn_teardown,
		.flags = PM_FORKS | PM_PEERS | PM_QUICK,
		.exercises = PM_EX_SPAWN | PM_EX_VM | PM_EX_FAULT,
	},
	{
		.name = "sh",
		.group = "proc",
		.summary = "fork+/bin/sh -c pmbench-hello+wait",
		.unit = "us",
		.lmbench = "proc: sh proc",
		.setup = spawner_setup,
		.arg = "sh",
		.run = spawn_run,
		.teardown = spawn_teardown,
		.flags = PM_FORKS | PM_PEERS | PM_QUICK,
		.exercises = PM_EX_SPAWN | PM_EX_VM | PM_EX_FAULT,
	},
	{
		.name = "pipe",
		.group = "proc",
		.summary = "pipe round trip of 1 byte with another process",
		.unit = "us",
		.lmbench = "lat: Pipe",
		.setup = echo_setup,
		PM_OP_HOOKS(pipe_op),
		.teardown = echo_teardown,
		.flags = PM_PEERS | PM_QUICK,
		.exercises = PM_EX_SYSCALL | PM_EX_IPC | PM_EX_SWITCH,
	},
	{
		.name = "ctx",
		.group = "proc",
		.summary = "context switch: token passed between 2 processes, "
			   "pipe overhead subtracted",
		.unit = "us",
		.lmbench = "ctx: 2p/0K",
		.setup = ctx_setup,
		PM_OP_HOOKS(pipe_op),
		.teardown = echo_teardown,
		.flags = PM_PEERS | PM_QUICK,
		.exercises = PM_EX_SYSCALL | PM_EX_IPC | PM_EX_SWITCH,
	},
	{
		.name = "wakeup-kernel-hog",
		.group = "proc",
		.summary = "lateness of a timer wake-up while a process on the same "
			   "CPU is in a long system call (poll() of many descriptors)",
		.unit = "us",
		.setup = wake_setup,
		PM_OP_HOOKS(wake_op),
		.teardown = wake_teardown,
		.flags = PM_PEERS | PM_NO_THREADS,
		.exercises = PM_EX_WAKEUP,
	},
	{
		.name = "page-fault",
		.group = "proc",
		.summary = "read fault on a shared file mapping, one per "
			   "fault-around window; remap amortized",
		.unit = "us",
		.setup = pf_setup,
		PM_OP_HOOKS(pf_op),
		.teardown = proc_file_teardown,
		.flags = PM_FS | PM_QUICK,
		.exercises = PM_EX_FAULT | PM_EX_VM,
	},
	{
		.name = "page-fault-lmb",
		.group = "proc",
		.summary = "lat_pagefault: read of every page of a mapped 8 MiB "
			   "file, random order, remap subtracted; per page",
		.unit = "us",
		.lmbench = "fs: Page Fault",
		.setup = pfl_setup,
		PM_OP_HOOKS(pfl_op),
		.teardown = proc_file_teardown,
		.flags = PM_FS,
		.exercises = PM_EX_FAULT | PM_EX_VM,
	},
	{
		.name = "page-fault-anon",
		.group = "proc",
		.summary = "write fault per page of fresh anonymous memory, 4 KiB "
			   "pages; mmap+munmap of 1 MiB amortized (page_fault1)",
		.unit = "us",
		.setup = anon_setup,
		.arg = &(const struct anon_arg){ .huge = false, .read = false },
		PM_OP_HOOKS(anon_op),
		.teardown = anon_teardown,
		.flags = PM_QUICK,
		.exercises = PM_EX_FAULT | PM_EX_VM,
	},
	{
		.name = "page-fault-thp",
		.group = "proc",
		.summary = "page-fault-anon on a 2 MiB-aligned MADV_HUGEPAGE region: "
			   "one fault per huge page where THP is on",
		.unit = "us",
		.supported = thp_supported,
		.setup = anon_setup,
		.arg = &(const struct anon_arg){ .huge = true, .read = false },
		PM_OP_HOOKS(anon_op),
		.teardown = anon_teardown,
		.exercises = PM_EX_FAULT | PM_EX_VM,
	},
	{
		.name = "page-fault-thp-read",
		.group = "proc",
		.summary = "page-fault-thp reading: the zero page per 4 KiB page, or "
			   "the huge zero page per 2 MiB where THP is on",
		.unit = "us",
		.supported = thp_supported,
		.setup = anon_setup,
		.arg = &(const struct anon_arg){ .huge = true, .read = true },
		PM_OP_HOOKS(anon_op),
		.teardown = anon_teardown,
		.exercises = PM_EX_FAULT | PM_EX_VM,
	},
	{
		.name = "page-walk",
		.group = "proc",
		.summary = "load of one of 4096 pages 2 MiB apart after a full "
			   "TLB flush: every load walks all page-table levels",
		.unit = "ns",
		.setup = pwalk_setup,
		PM_OP_HOOKS(pwalk_op),
		.teardown = pwalk_teardown,
		.exercises = PM_EX_WALK,
	},
	{
		.name = "mmap",
		.group = "proc",
		.summary = "mmap of an 8 MiB file, read every 16 KiB, munmap",
		.unit = "us",
		.lmbench = "fs: Mmap Latency",
		.setup = mmap_setup,
		PM_OP_HOOKS(mmap_op),
		.teardown = proc_file_teardown,
		.flags = PM_FS | PM_QUICK,
		.exercises = PM_EX_VM | PM_EX_FAULT,
	},
};

PM_FAMILY(proc, "processes, system calls, signals, VM", proc_benches);
