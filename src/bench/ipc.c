/*
 * The ipc family: context switches, local communication latency and
 * bandwidth, after lmbench's lat_ctx, lat_unix, lat_udp, lat_tcp,
 * lat_connect, lat_rpc, lat_select (tcp), bw_pipe, bw_unix and bw_tcp.
 *
 * setup() makes the pipes, sockets and the helper processes at the other
 * end, untimed.  Networking is on 127.0.0.1 only.  Helpers exit
 * when the main process closes its end (EOF), or, for the two servers
 * that see no EOF (udp, tcp-connect), on lmbench's shutdown message.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/select.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <unistd.h>

#ifdef HAVE_TIRPC
#include <rpc/rpc.h>
#endif

#include "bench/bench.h"
#include "util.h"

/* ---- common helpers ---- */

/* A failed transfer with the helper: EOF or EPIPE mean it is gone. */
static int ipc_io_err(struct pm_ctx *ctx, int err, const char *what)
{
	if (err == -ENODATA || err == -EPIPE || err == -ECONNRESET ||
	    err == -ECONNREFUSED)
		return pm_bench_why(ctx, -EPIPE, "%s: the helper process exited",
			       what);
	return pm_bench_fail(ctx, err, "%s", what);
}

static void ipc_close(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/*
 * Close a TCP socket with a reset: SO_LINGER {on, 0 s}.  Nothing is left
 * in TIME_WAIT after a benchmark.
 */
static void ipc_close_rst(int *fd)
{
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };

	if (*fd < 0)
		return;
	setsockopt(*fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
	ipc_close(fd);
}

static void ipc_loopback(struct sockaddr_in *sin, in_port_t port)
{
	memset(sin, 0, sizeof(*sin));
	sin->sin_family = AF_INET;
	sin->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	sin->sin_port = port;
}

/*
 * A socket of `type` bound to 127.0.0.1 on a free port, listening with
 * `backlog` if a stream socket (backlog < 0: not listening).  Its address
 * goes to *addr.
 */
static int ipc_server_socket(struct pm_ctx *ctx, int type, int backlog,
			     int *fdp, struct sockaddr_in *addr)
{
	struct sockaddr_in sin;
	socklen_t len = sizeof(sin);
	int fd, err;

	fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "socket");
	ipc_loopback(&sin, 0);
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) != 0) {
		err = pm_bench_fail(ctx, -errno, "bind 127.0.0.1");
		close(fd);
		return err;
	}
	if (backlog >= 0 && listen(fd, backlog) != 0) {
		err = pm_bench_fail(ctx, -errno, "listen on 127.0.0.1");
		close(fd);
		return err;
	}
	if (getsockname(fd, (struct sockaddr *)&sin, &len) != 0) {
		err = pm_bench_fail(ctx, -errno, "getsockname");
		close(fd);
		return err;
	}
	*addr = sin;
	*fdp = fd;
	return 0;
}

static int ipc_setint(struct pm_ctx *ctx, int fd, int level, int opt,
		      int val, const char *what)
{
	if (setsockopt(fd, level, opt, &val, sizeof(val)) != 0)
		return pm_bench_fail(ctx, -errno, "setsockopt %s", what);
	return 0;
}

/*
 * A working set of fresh private pages, touched (written) so that every
 * page is the process's own.  Mapped, not taken from a heap the helper
 * shares (copy-on-write) with pmbench.
 */
static int *ring_data(size_t bytes)
{
	void *d;

	if (!bytes)
		return NULL;
	d = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (d == MAP_FAILED)
		return NULL;
	memset(d, 1, bytes);
	return d;
}

static void ring_data_free(int *d, size_t bytes)
{
	if (d)
		munmap(d, bytes);
}

/* ---- the state every benchmark of the family keeps ---- */

#define IPC_SELECT_FDS 100
#define IPC_CHUNK (64u << 10)	/* lmbench's XFERSIZE */
#define IPC_SOCKBUF (1u << 20)	/* lmbench's SOCKBUF for bw_tcp */

enum ipc_kind {
	IPC_RING, IPC_UNIX, IPC_UDP, IPC_TCP, IPC_CONNECT, IPC_SELECT,
	IPC_RPC_UDP, IPC_RPC_TCP, IPC_BW_PIPE, IPC_BW_UNIX, IPC_BW_TCP,
};

struct ipc {
	enum ipc_kind kind;
	int fd;			/* main's socket, or the pipe end it reads */
	int peer_fd;		/* the helper's end, until it runs */
	int lfd;		/* a server socket, until the helper runs */
	int ctl[2];		/* control pipe: main writes [1]; EOF ends
				   the helper */
	int status[2];		/* rpc: the helper reports its start */
	struct sockaddr_in addr;	/* the server's address */

	/* ctx-*: a ring of nprocs pipes; process i reads ring[i-1] and
	 * writes ring[i], main (process 0) writes ring[0] and reads
	 * ring[nprocs-1]. */
	int nprocs;
	int (*ring)[2];
	size_t wss;		/* working set of each process, bytes */
	int *data;		/* main's working set */
	int me;			/* index of the helper being started */

	/* select-tcp */
	int dups[IPC_SELECT_FDS];
	int ndups;
	int nfds;
	fd_set set;

	/* bandwidths */
	void *alloc;
	char *buf;

#ifdef HAVE_TIRPC
	CLIENT *cl;
	char seq;		/* the byte the next call sends */
#endif
	struct sigaction oldpipe;
	bool pipe_saved;
	volatile unsigned sink;
};

static struct ipc *ipc_new(struct pm_ctx *ctx, enum ipc_kind kind)
{
	struct ipc *st = pm_xcalloc(1, sizeof(*st));
	struct sigaction sa;
	int i;

	st->kind = kind;
	st->fd = st->peer_fd = st->lfd = -1;
	st->ctl[0] = st->ctl[1] = st->status[0] = st->status[1] = -1;
	for (i = 0; i < IPC_SELECT_FDS; i++)
		st->dups[i] = -1;
	ctx->priv = st;
	/* A dead helper must fail run() with EPIPE, not kill us.  Set
	 * before the helpers start: they inherit it. */
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_IGN;
	sigemptyset(&sa.sa_mask);
	if (sigaction(SIGPIPE, &sa, &st->oldpipe) == 0)
		st->pipe_saved = true;
	return st;
}

/* Closing main's ends is what makes the helpers exit; the runner reaps
 * them. */
static void ipc_teardown(struct pm_ctx *ctx)
{
	struct ipc *st = ctx->priv;
	char nul = 0;
	int i;

	if (!st)
		return;
#ifdef HAVE_TIRPC
	if (st->cl)
		clnt_destroy(st->cl);	/* our socket stays open: ours */
#endif
	switch (st->kind) {
	case IPC_UDP:
		/* lmbench's lat_udp server stops on a shutdown message;
		 * ours on an empty datagram. */
		if (st->fd >= 0)
			(void)send(st->fd, &nul, 0, 0);
		break;
	case IPC_CONNECT:
		/* lat_connect's shutdown: a connection that sends a byte. */
		if (st->addr.sin_port) {
			int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

			if (fd >= 0) {
				nul = 0;
				if (connect(fd, (struct sockaddr *)&st->addr,
					    sizeof(st->addr)) == 0)
					(void)write(fd, &nul, 1);
				close(fd);
			}
		}
		break;
	default:
		break;
	}
	if (st->kind == IPC_UDP || st->kind == IPC_RPC_UDP ||
	    st->kind == IPC_BW_PIPE || st->kind == IPC_BW_UNIX ||
	    st->kind == IPC_UNIX || st->kind == IPC_RING) {
		ipc_close(&st->fd);
	} else {
		ipc_close_rst(&st->fd);
	}
	for (i = 0; i < st->ndups; i++) {
		if (i == st->ndups - 1)
			ipc_close_rst(&st->dups[i]);	/* the last one */
		else
			ipc_close(&st->dups[i]);
	}
	ipc_close(&st->peer_fd);
	ipc_close(&st->lfd);
	for (i = 0; i < 2; i++) {
		ipc_close(&st->ctl[i]);
		ipc_close(&st->status[i]);
	}
	if (st->ring) {
		for (i = 0; i < st->nprocs; i++) {
			ipc_close(&st->ring[i][0]);
			ipc_close(&st->ring[i][1]);
		}
		free(st->ring);
	}
	ring_data_free(st->data, st->wss);
	free(st->alloc);
	if (st->pipe_saved)
		sigaction(SIGPIPE, &st->oldpipe, NULL);
	free(st);
	ctx->priv = NULL;
}

/* A setup failure: undo everything, including the helpers. */
static int ipc_setup_failed(struct pm_ctx *ctx, int err)
{
	ipc_teardown(ctx);
	pm_reap_peers(ctx);
	return err;
}

/* ---- ctx-*: lmbench lat_ctx, a token around a ring of processes ---- */

/*
 * lmbench's sumit(): read the whole working set, every int of it.  Four
 * sums, so that the loads and not a chain of additions set the pace: the
 * sum is part of the subtracted overhead, and the smaller that is, the
 * less the noise of the two measurements swamps their difference.
 */
/* unsigned: a working set's sum wraps (signed overflow is undefined) */
static unsigned ring_sum(const int *d, size_t n)
{
	unsigned s0 = 0, s1 = 0, s2 = 0, s3 = 0;
	size_t i;

	for (i = 0; i + 4 <= n; i += 4) {
		s0 += (unsigned)d[i];
		s1 += (unsigned)d[i + 1];
		s2 += (unsigned)d[i + 2];
		s3 += (unsigned)d[i + 3];
	}
	for (; i < n; i++)
		s0 += (unsigned)d[i];
	return s0 + s1 + s2 + s3;
}

/* Helper process st->me: read the token, sum, pass it on, until EOF. */
static int ring_peer(void *arg)
{
	struct ipc *st = arg;
	int me = st->me, rd = st->ring[me - 1][0], wr = st->ring[me][1];
	size_t ints = st->wss / sizeof(int);
	int i, msg, err;
	unsigned sum = 0;
	int *data;

	/* Only our two ends: the EOF of the ring must get through. */
	for (i = 0; i < st->nprocs; i++) {
		if (st->ring[i][0] != rd)
			close(st->ring[i][0]);
		if (st->ring[i][1] != wr)
			close(st->ring[i][1]);
	}
	data = ring_data(st->wss);
	if (st->wss && !data)
		return ENOMEM;
	for (;;) {
		err = pm_read_full(rd, &msg, sizeof(msg));
		if (err == -ENODATA)
			break;
		if (err)
			return -err;
		sum += ring_sum(data, ints);
		pm_barrier();
		err = pm_write_full(wr, &msg, sizeof(msg));
		if (err == -EPIPE)
			break;
		if (err)
			return -err;
	}
	st->sink = sum;
	ring_data_free(data, st->wss);
	return 0;
}

PM_OP(ring_op)
{
	struct ipc *st = ctx->priv;
	int wr = st->ring[0][1], rd = st->ring[st->nprocs - 1][0];
	size_t ints = st->wss / sizeof(int);
	int msg = 1, err;
	unsigned sum = 0;

	err = pm_write_full(wr, &msg, sizeof(msg));
	if (err)
		return ipc_io_err(ctx, err, "write to the ring");
	err = pm_read_full(rd, &msg, sizeof(msg));
	if (err)
		return ipc_io_err(ctx, err, "read from the ring");
	sum += ring_sum(st->data, ints);
	pm_barrier();
	st->sink += sum;
	return 0;
}

/*
 * lat_ctx's overhead: one process does the work of a hop without the
 * switch: it writes the token into one of nprocs pipes (in turn, as
 * lmbench does), reads it back and sums its working set.
 */
struct ring_ovh {
	struct pm_ctx *ctx;
	int (*p)[2];
	int n;
	const int *data;
	size_t ints;
	unsigned sum;
};

static int ring_ovh_loop(void *arg, uint64_t iters)
{
	struct ring_ovh *o = arg;
	int i = 0, msg = 1, err;
	unsigned sum = 0;

	while (iters--) {
		err = pm_write_full(o->p[i][1], &msg, sizeof(msg));
		if (!err)
			err = pm_read_full(o->p[i][0], &msg, sizeof(msg));
		if (err)
			return pm_bench_fail(o->ctx, err,
					"measuring the pipe overhead");
		if (++i == o->n)
			i = 0;
		sum += ring_sum(o->data, o->ints);
		pm_barrier();
	}
	o->sum += sum;
	return 0;
}

static int ring_overhead(struct pm_ctx *ctx, struct ipc *st, double *out)
{
	struct ring_ovh o = {
		.ctx = ctx, .n = st->nprocs, .data = st->data,
		.ints = st->wss / sizeof(int),
	};
	int i, err = 0;

	o.p = pm_xcalloc((size_t)o.n, sizeof(*o.p));
	for (i = 0; i < o.n; i++)
		o.p[i][0] = o.p[i][1] = -1;
	for (i = 0; i < o.n && !err; i++)
		if (pipe2(o.p[i], O_CLOEXEC) != 0)
			err = pm_bench_fail(ctx, -errno, "pipe");
	if (!err)
		err = pm_overhead_loop_ns(ring_ovh_loop, &o, PM_OVERHEAD_QUICKEST, out);
	for (i = 0; i < o.n; i++) {
		ipc_close(&o.p[i][0]);
		ipc_close(&o.p[i][1]);
	}
	free(o.p);
	st->sink += o.sum;
	return err;
}

/* A ctx-Np-Kk descriptor's .arg: the processes and each one's working set. */
struct ring_arg {
	int nprocs;
	size_t kib;
};

static int ring_setup(struct pm_ctx *ctx)
{
	const struct ring_arg *a = ctx->bench->arg;
	struct ipc *st = ipc_new(ctx, IPC_RING);
	int i, err, msg = 1, nprocs = a->nprocs;
	size_t kib = a->kib;
	double overhead = 0;

	st->nprocs = nprocs;
	st->wss = kib << 10;
	st->ring = pm_xcalloc((size_t)nprocs, sizeof(*st->ring));
	for (i = 0; i < nprocs; i++)
		st->ring[i][0] = st->ring[i][1] = -1;
	st->data = ring_data(st->wss);
	if (st->wss && !st->data)
		return ipc_setup_failed(ctx, pm_bench_why(ctx, -ENOMEM,
				"cannot allocate a %zu KiB working set", kib));
	/* Measured first, without the helpers around. */
	err = ring_overhead(ctx, st, &overhead);
	if (err)
		return ipc_setup_failed(ctx, err);
	for (i = 0; i < nprocs; i++)
		if (pipe2(st->ring[i], O_CLOEXEC) != 0)
			return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
							      "pipe"));
	for (i = 1; i < nprocs; i++) {
		st->me = i;
		err = pm_spawn_peer(ctx, ring_peer, st);
		if (err)
			return ipc_setup_failed(ctx, err);
	}
	/* Keep our two ends only. */
	for (i = 0; i < nprocs; i++) {
		if (i != 0)
			ipc_close(&st->ring[i][1]);
		if (i != nprocs - 1)
			ipc_close(&st->ring[i][0]);
	}
	/* Once around the ring: every helper is up, its working set
	 * touched. */
	err = pm_write_full(st->ring[0][1], &msg, sizeof(msg));
	if (!err)
		err = pm_read_full(st->ring[nprocs - 1][0], &msg, sizeof(msg));
	if (err)
		return ipc_setup_failed(ctx, ipc_io_err(ctx, err,
							"the first trip around the ring"));
	/* One iteration is a trip around the ring: nprocs hops. */
	ctx->ops_per_iter = (unsigned)nprocs;
	ctx->overhead_ns = overhead;
	snprintf(ctx->params, sizeof(ctx->params),
		 "%d processes, %zu KiB each, pipe+sum overhead %.0f ns per "
		 "hop subtracted", nprocs, kib, overhead);
	return 0;
}

/* ---- unix, tcp: a 1-byte round trip over a stream socket ---- */

/* The helper: echo every byte back until EOF. */
static int echo_loop(int fd)
{
	char c;
	ssize_t r;

	for (;;) {
		r = read(fd, &c, 1);
		if (r == 0)
			return 0;
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno == ECONNRESET ? 0 : errno;
		}
		if (pm_write_full(fd, &c, 1) != 0)
			return 0;	/* the other end is gone */
	}
}

static int unix_peer(void *arg)
{
	struct ipc *st = arg;

	close(st->fd);
	return echo_loop(st->peer_fd);
}

/* One round trip: write the byte, read it back. */
static inline int xact_once(struct pm_ctx *ctx, int fd, char *c)
{
	int err;

	err = pm_write_full(fd, c, 1);
	if (err)
		return ipc_io_err(ctx, err, "write to the socket");
	err = pm_read_full(fd, c, 1);
	if (err)
		return ipc_io_err(ctx, err, "read from the socket");
	return 0;
}

PM_OP(xact_op)
{
	struct ipc *st = ctx->priv;
	char c = 'x';
	int err;

	err = xact_once(ctx, st->fd, &c);
	if (err)
		return err;
	return 0;
}

static int unix_setup(struct pm_ctx *ctx)
{
	struct ipc *st = ipc_new(ctx, IPC_UNIX);
	int sv[2], err;
	char c = 'x';

	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) != 0)
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
						      "socketpair AF_UNIX"));
	st->fd = sv[0];
	st->peer_fd = sv[1];
	err = pm_spawn_peer(ctx, unix_peer, st);
	if (err)
		return ipc_setup_failed(ctx, err);
	ipc_close(&st->peer_fd);
	err = xact_once(ctx, st->fd, &c);
	if (err)
		return ipc_setup_failed(ctx, err);
	snprintf(ctx->params, sizeof(ctx->params),
		 "1-byte messages, AF_UNIX SOCK_STREAM socketpair");
	return 0;
}

/* The helper of tcp: accept one connection, echo until EOF. */
static int tcp_peer(void *arg)
{
	struct ipc *st = arg;
	int fd, one = 1;

	do
		fd = accept(st->lfd, NULL, NULL);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return errno;
	close(st->lfd);
	setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	return echo_loop(fd);
}

/* A TCP connection from a socket bound to 127.0.0.1 to st->addr. */
static int tcp_client(struct pm_ctx *ctx, struct ipc *st, int bufsize)
{
	struct sockaddr_in sin;
	int err;

	st->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (st->fd < 0)
		return pm_bench_fail(ctx, -errno, "socket");
	if (bufsize > 0) {
		/* lmbench bw_tcp's SOCKOPT_READ|SOCKOPT_WRITE, before the
		 * connection so the window scale fits. */
		err = ipc_setint(ctx, st->fd, SOL_SOCKET, SO_RCVBUF, bufsize,
				 "SO_RCVBUF");
		if (!err)
			err = ipc_setint(ctx, st->fd, SOL_SOCKET, SO_SNDBUF,
					 bufsize, "SO_SNDBUF");
		if (err)
			return err;
	}
	ipc_loopback(&sin, 0);
	if (bind(st->fd, (struct sockaddr *)&sin, sizeof(sin)) != 0)
		return pm_bench_fail(ctx, -errno, "bind 127.0.0.1");
	if (connect(st->fd, (struct sockaddr *)&st->addr,
		    sizeof(st->addr)) != 0)
		return pm_bench_fail(ctx, -errno, "connect to 127.0.0.1:%u",
				ntohs(st->addr.sin_port));
	return 0;
}

static int tcp_setup(struct pm_ctx *ctx)
{
	struct ipc *st = ipc_new(ctx, IPC_TCP);
	char c = 'x';
	int err;

	err = ipc_server_socket(ctx, SOCK_STREAM, 1, &st->lfd, &st->addr);
	if (!err)
		err = pm_spawn_peer(ctx, tcp_peer, st);
	if (err)
		return ipc_setup_failed(ctx, err);
	/* Created after the helper: it holds no copy of our end. */
	err = tcp_client(ctx, st, 0);
	if (!err)
		err = ipc_setint(ctx, st->fd, IPPROTO_TCP, TCP_NODELAY, 1,
				 "TCP_NODELAY");
	if (err)
		return ipc_setup_failed(ctx, err);
	ipc_close(&st->lfd);
	err = xact_once(ctx, st->fd, &c);
	if (err)
		return ipc_setup_failed(ctx, err);
	snprintf(ctx->params, sizeof(ctx->params),
		 "1-byte messages over TCP on 127.0.0.1, TCP_NODELAY");
	return 0;
}

/* ---- udp: a 1-byte datagram round trip ---- */

/* The helper: send every datagram back; an empty one ends it. */
static int udp_peer(void *arg)
{
	struct ipc *st = arg;
	struct sockaddr_in from;
	socklen_t len;
	char buf[64];
	ssize_t r;

	for (;;) {
		len = sizeof(from);
		r = recvfrom(st->peer_fd, buf, sizeof(buf), 0,
			     (struct sockaddr *)&from, &len);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (r == 0)
			return 0;
		if (sendto(st->peer_fd, buf, (size_t)r, 0,
			   (struct sockaddr *)&from, len) < 0)
			return errno;
	}
}

static inline int udp_once(struct pm_ctx *ctx, int fd, char *c)
{
	ssize_t r;

	r = send(fd, c, 1, 0);
	if (r != 1)
		return ipc_io_err(ctx, r < 0 ? -errno : -EIO, "send");
	r = recv(fd, c, 1, 0);
	if (r != 1)
		return ipc_io_err(ctx, r < 0 ? -errno : -EIO, "recv");
	return 0;
}

PM_OP(udp_op)
{
	struct ipc *st = ctx->priv;
	char c = 'x';
	int err;

	err = udp_once(ctx, st->fd, &c);
	if (err)
		return err;
	return 0;
}

static int udp_setup(struct pm_ctx *ctx)
{
	struct ipc *st = ipc_new(ctx, IPC_UDP);
	struct sockaddr_in sin;
	char c = 'x';
	int err;

	err = ipc_server_socket(ctx, SOCK_DGRAM, -1, &st->peer_fd, &st->addr);
	if (!err)
		err = pm_spawn_peer(ctx, udp_peer, st);
	if (err)
		return ipc_setup_failed(ctx, err);
	ipc_close(&st->peer_fd);
	/* As lmbench's udp_connect: a connected socket, send and recv. */
	st->fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (st->fd < 0)
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno, "socket"));
	ipc_loopback(&sin, 0);
	if (bind(st->fd, (struct sockaddr *)&sin, sizeof(sin)) != 0)
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
						      "bind 127.0.0.1"));
	if (connect(st->fd, (struct sockaddr *)&st->addr, sizeof(st->addr)))
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
						      "connect UDP"));
	err = udp_once(ctx, st->fd, &c);
	if (err)
		return ipc_setup_failed(ctx, err);
	snprintf(ctx->params, sizeof(ctx->params),
		 "1-byte datagrams on 127.0.0.1");
	return 0;
}

/* ---- tcp-connect: lmbench lat_connect ---- */

/*
 * The helper, as lat_connect's server: accept, read one byte, close.  A
 * connection that sends a byte (teardown's) ends it.
 */
static int connect_peer(void *arg)
{
	struct ipc *st = arg;
	ssize_t r;
	char c;
	int fd;

	for (;;) {
		fd = accept(st->lfd, NULL, NULL);
		if (fd < 0) {
			if (errno == EINTR || errno == ECONNABORTED)
				continue;
			return errno;
		}
		do
			r = read(fd, &c, 1);
		while (r < 0 && errno == EINTR);
		close(fd);
		if (r > 0)
			return 0;
	}
}

PM_OP(connect_op)
{
	struct ipc *st = ctx->priv;
	int fd;

	fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0)
		return pm_bench_fail(ctx, -errno, "socket");
	if (connect(fd, (struct sockaddr *)&st->addr,
		    sizeof(st->addr)) != 0) {
		int err = -errno;

		close(fd);
		if (err == -ECONNREFUSED)
			return pm_bench_why(ctx, -EPIPE, "connect: refused: "
				       "the helper process exited");
		return pm_bench_fail(ctx, err, "connect to 127.0.0.1:%u",
				ntohs(st->addr.sin_port));
	}
	close(fd);
	return 0;
}

#define IPC_CONNECT_BACKLOG 4096

static int connect_setup(struct pm_ctx *ctx)
{
	struct ipc *st = ipc_new(ctx, IPC_CONNECT);
	struct linger lg = { .l_onoff = 1, .l_linger = 0 };
	int err;

	/*
	 * A long backlog: under the default placement the client can run
	 * for a whole time slice before the server accepts, and a full
	 * queue drops the SYN (a 1 s retransmission).
	 */
	err = ipc_server_socket(ctx, SOCK_STREAM, IPC_CONNECT_BACKLOG,
				&st->lfd, &st->addr);
	if (err)
		return ipc_setup_failed(ctx, err);
	/*
	 * Accepted sockets inherit SO_LINGER {on, 0}: the server's close
	 * (after the client's FIN) resets the connection, which ends the
	 * client's FIN_WAIT2 socket.  No TIME_WAIT is left on either side,
	 * so the ephemeral ports never run out, and the client does
	 * exactly lmbench's socket+connect+close.
	 */
	if (setsockopt(st->lfd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) != 0)
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
						      "setsockopt SO_LINGER"));
	err = pm_spawn_peer(ctx, connect_peer, st);
	if (err)
		return ipc_setup_failed(ctx, err);
	ipc_close(&st->lfd);
	err = connect_op(ctx);
	if (err)
		return ipc_setup_failed(ctx, err);
	snprintf(ctx->params, sizeof(ctx->params),
		 "127.0.0.1:%u, backlog %d, server closes with a reset",
		 ntohs(st->addr.sin_port), IPC_CONNECT_BACKLOG);
	return 0;
}

/* ---- select-tcp: lmbench lat_select -n 100 tcp ---- */

/* The helper: accept one connection and hold it until EOF. */
static int hold_peer(void *arg)
{
	struct ipc *st = arg;
	char buf[64];
	ssize_t r;
	int fd;

	do
		fd = accept(st->lfd, NULL, NULL);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return errno;
	close(st->lfd);
	do
		r = read(fd, buf, sizeof(buf));
	while (r > 0 || (r < 0 && errno == EINTR));
	return 0;
}

PM_OP(select_tcp_op)
{
	struct ipc *st = ctx->priv;
	struct timeval tv;
	fd_set set;
	int n;

	set = st->set;
	tv.tv_sec = 0;
	tv.tv_usec = 0;
	n = select(st->nfds, NULL, &set, NULL, &tv);
	if (n < 0)
		return pm_bench_fail(ctx, -errno, "select");
	if (n != IPC_SELECT_FDS)
		return pm_bench_why(ctx, -EIO, "select: %d of %d TCP "
			       "descriptors writable", n,
			       IPC_SELECT_FDS);
	return 0;
}

static int select_tcp_setup(struct pm_ctx *ctx)
{
	struct ipc *st = ipc_new(ctx, IPC_SELECT);
	int err, fd;

	err = ipc_server_socket(ctx, SOCK_STREAM, 1, &st->lfd, &st->addr);
	if (!err)
		err = pm_spawn_peer(ctx, hold_peer, st);
	if (!err)
		err = tcp_client(ctx, st, 0);
	if (err)
		return ipc_setup_failed(ctx, err);
	ipc_close(&st->lfd);
	/* As lmbench: the descriptors are duplicates of one connected
	 * socket, polled for writing. */
	FD_ZERO(&st->set);
	while (st->ndups < IPC_SELECT_FDS) {
		fd = fcntl(st->fd, F_DUPFD_CLOEXEC, 0);
		if (fd < 0)
			return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
				"cannot open %d descriptors for select",
				IPC_SELECT_FDS));
		st->dups[st->ndups++] = fd;
		if (fd >= FD_SETSIZE)
			return ipc_setup_failed(ctx, pm_bench_why(ctx, -EMFILE,
				"descriptor %d does not fit select()'s "
				"FD_SETSIZE (%d): too many open files", fd,
				FD_SETSIZE));
		FD_SET(fd, &st->set);
		if (fd + 1 > st->nfds)
			st->nfds = fd + 1;
	}
	ipc_close(&st->fd);
	err = select_tcp_op(ctx);
	if (err)
		return ipc_setup_failed(ctx, err);
	snprintf(ctx->params, sizeof(ctx->params),
		 "%d descriptors of one connected TCP socket, write set, "
		 "highest %d", IPC_SELECT_FDS, st->nfds - 1);
	return 0;
}

/* ---- rpc-udp, rpc-tcp: lmbench lat_rpc with libtirpc ---- */

#ifdef HAVE_TIRPC

/* lmbench's XACT_PROG, version 1, procedure RPC_XACT. */
#define IPC_RPC_PROG 404040ul
#define IPC_RPC_VERS 1ul
#define IPC_RPC_XACT 1ul

struct rpc_status {
	int err;		/* positive errno, 0 when serving */
	char why[200];
};

/* The procedure: return the argument. */
static void rpc_dispatch(struct svc_req *rq, SVCXPRT *xprt)
{
	char arg = 0;

	switch (rq->rq_proc) {
	case NULLPROC:
		(void)svc_sendreply(xprt, (xdrproc_t)(void (*)(void))xdr_void,
				    NULL);
		return;
	case IPC_RPC_XACT:
		break;
	default:
		svcerr_noproc(xprt);
		return;
	}
	if (!svc_getargs(xprt, (xdrproc_t)xdr_char, (caddr_t)&arg)) {
		svcerr_decode(xprt);
		return;
	}
	if (!svc_sendreply(xprt, (xdrproc_t)xdr_char, (caddr_t)&arg))
		svcerr_systemerr(xprt);
	(void)svc_freeargs(xprt, (xdrproc_t)xdr_char, (caddr_t)&arg);
}

static int rpc_report(struct ipc *st, int err, const char *why)
{
	struct rpc_status s;

	memset(&s, 0, sizeof(s));
	s.err = err;
	snprintf(s.why, sizeof(s.why), "%s", why);
	(void)pm_write_full(st->status[1], &s, sizeof(s));
	ipc_close(&st->status[1]);
	return err;
}

/*
 * The helper: the service on the socket setup bound (no portmapper), and
 * svc_run()'s loop with our control pipe added: its EOF ends the helper.
 */
static int rpc_peer(void *arg)
{
	struct ipc *st = arg;
	bool udp = st->kind == IPC_RPC_UDP;
	struct pollfd *pfd = NULL;
	SVCXPRT *xprt;
	int n, i, ready, cap = 0;

	ipc_close(&st->ctl[1]);
	ipc_close(&st->status[0]);
	xprt = udp ? svcudp_create(st->lfd) : svctcp_create(st->lfd, 0, 0);
	if (!xprt)
		return rpc_report(st, EOPNOTSUPP, udp ?
				  "libtirpc: svcudp_create on a socket bound to "
				  "127.0.0.1 failed (its reason goes to syslog)" :
				  "libtirpc: svctcp_create on a socket listening "
				  "on 127.0.0.1 failed (its reason goes to "
				  "syslog)");
	/* Protocol 0: not registered with the portmapper. */
	if (!svc_register(xprt, IPC_RPC_PROG, IPC_RPC_VERS, rpc_dispatch, 0))
		return rpc_report(st, EOPNOTSUPP, "libtirpc: svc_register "
				  "failed");
	rpc_report(st, 0, "");
	for (;;) {
		n = svc_max_pollfd;
		if (n + 1 > cap) {
			cap = n + 1;
			pfd = realloc(pfd, (size_t)cap * sizeof(*pfd));
			if (!pfd)
				return ENOMEM;
		}
		memcpy(pfd, svc_pollfd, (size_t)n * sizeof(*pfd));
		pfd[n].fd = st->ctl[0];
		pfd[n].events = POLLIN;
		pfd[n].revents = 0;
		if (poll(pfd, (nfds_t)n + 1, -1) < 0) {
			if (errno == EINTR)
				continue;
			return errno;
		}
		if (pfd[n].revents)
			break;		/* EOF: main closed the pipe */
		for (i = ready = 0; i < n; i++)
			ready += pfd[i].revents != 0;
		if (ready)
			svc_getreq_poll(pfd, ready);
	}
	free(pfd);
	return 0;
}

static inline int rpc_once(struct pm_ctx *ctx, CLIENT *cl, char c)
{
	struct timeval tout = { .tv_sec = 10, .tv_usec = 0 };
	enum clnt_stat s;
	char r = 0;

	s = clnt_call(cl, IPC_RPC_XACT, (xdrproc_t)xdr_char, (caddr_t)&c,
		      (xdrproc_t)xdr_char, (caddr_t)&r, tout);
	if (s != RPC_SUCCESS)
		return pm_bench_why(ctx, -EIO, "clnt_call: %s", clnt_sperrno(s));
	if (r != c)
		return pm_bench_why(ctx, -EIO, "clnt_call: sent %d, got %d back",
			       c, r);
	return 0;
}

PM_OP(rpc_op)
{
	struct ipc *st = ctx->priv;

	return rpc_once(ctx, st->cl, ++st->seq);
}

/* .arg: IPC_RPC_UDP or IPC_RPC_TCP */
static int rpc_setup(struct pm_ctx *ctx)
{
	bool udp = *(const enum ipc_kind *)ctx->bench->arg == IPC_RPC_UDP;
	struct ipc *st = ipc_new(ctx, udp ? IPC_RPC_UDP : IPC_RPC_TCP);
	const char *netid = udp ? "udp" : "tcp";
	struct netconfig *nc;
	struct rpc_status s;
	struct sockaddr_in sin;
	int err;

	/* libtirpc's socket API needs the transport in /etc/netconfig. */
	nc = getnetconfigent(netid);
	if (!nc)
		return ipc_setup_failed(ctx, pm_bench_why(ctx, -EOPNOTSUPP,
			"libtirpc: no \"%s\" transport in /etc/netconfig "
			"(missing or incomplete; package libtirpc-common)",
			netid));
	freenetconfigent(nc);
	if (pipe2(st->ctl, O_CLOEXEC) != 0 || pipe2(st->status, O_CLOEXEC))
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno, "pipe"));
	err = ipc_server_socket(ctx, udp ? SOCK_DGRAM : SOCK_STREAM,
				udp ? -1 : 16, &st->lfd, &st->addr);
	if (!err)
		err = pm_spawn_peer(ctx, rpc_peer, st);
	if (err)
		return ipc_setup_failed(ctx, err);
	ipc_close(&st->lfd);
	ipc_close(&st->ctl[0]);
	ipc_close(&st->status[1]);
	err = pm_read_full(st->status[0], &s, sizeof(s));
	ipc_close(&st->status[0]);
	if (err)
		return ipc_setup_failed(ctx, pm_bench_why(ctx, -ECHILD,
			"the RPC server process failed to start"));
	if (s.err)
		return ipc_setup_failed(ctx, pm_bench_why(ctx, -s.err, "%.200s",
						     s.why));
	/* Our own socket on 127.0.0.1: the library would bind a reserved
	 * port on every address.  A known port: no portmapper. */
	st->fd = socket(AF_INET, (udp ? SOCK_DGRAM : SOCK_STREAM) |
			SOCK_CLOEXEC, 0);
	if (st->fd < 0)
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno, "socket"));
	ipc_loopback(&sin, 0);
	if (bind(st->fd, (struct sockaddr *)&sin, sizeof(sin)) != 0)
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
						      "bind 127.0.0.1"));
	sin = st->addr;
	if (udp) {
		/* lmbench sets 2.5 ms; a late reply would only be sent
		 * again, but a busy machine should not fail the run. */
		struct timeval retry = { .tv_sec = 1, .tv_usec = 0 };

		st->cl = clntudp_create(&sin, IPC_RPC_PROG, IPC_RPC_VERS,
					retry, &st->fd);
	} else {
		st->cl = clnttcp_create(&sin, IPC_RPC_PROG, IPC_RPC_VERS,
					&st->fd, 0, 0);
	}
	if (!st->cl)
		return ipc_setup_failed(ctx, pm_bench_why(ctx, -EOPNOTSUPP,
			"libtirpc: clnt%s_create to 127.0.0.1:%u: %s", netid,
			ntohs(st->addr.sin_port), clnt_spcreateerror("")));
	err = rpc_once(ctx, st->cl, 1);
	if (err)
		return ipc_setup_failed(ctx, err);
	snprintf(ctx->params, sizeof(ctx->params),
		 "libtirpc, RPC/%s to 127.0.0.1:%u (no portmapper), "
		 "procedure returns its 1-byte argument", netid,
		 ntohs(st->addr.sin_port));
	return 0;
}

#else /* !HAVE_TIRPC */

static int rpc_none(struct pm_ctx *ctx)
{
	return pm_bench_why(ctx, -EOPNOTSUPP, "built without libtirpc (install "
		       "libtirpc-dev, then configure and build again)");
}

PM_OP(rpc_op)
{
	return rpc_none(ctx);
}

static int rpc_setup(struct pm_ctx *ctx)
{
	return rpc_none(ctx);
}

#endif /* HAVE_TIRPC */

/* ---- bw-pipe, bw-unix, bw-tcp: 64 KiB chunks from a helper ---- */

/*
 * As lmbench's bw_pipe and bw_unix: main, the reader, asks the writer for
 * a number of chunks over a control pipe and reads them.  One operation
 * is one chunk, written and read.
 */
static char *bw_buffer(size_t len)
{
	long page = sysconf(_SC_PAGESIZE);
	void *p;

	if (posix_memalign(&p, (size_t)page, len))
		return NULL;
	memset(p, 0, len);
	return p;
}

/* The writer: for each count on the control pipe, that many chunks. */
static int bw_write_loop(struct ipc *st, int fd)
{
	uint64_t n;
	char *buf;
	int err;

	buf = bw_buffer(IPC_CHUNK);
	if (!buf)
		return ENOMEM;
	for (;;) {
		err = pm_read_full(st->ctl[0], &n, sizeof(n));
		if (err)
			break;		/* EOF: done */
		while (n--) {
			err = pm_write_full(fd, buf, IPC_CHUNK);
			if (err)
				goto out;
		}
	}
out:
	free(buf);
	return 0;
}

static int bw_peer(void *arg)
{
	struct ipc *st = arg;

	close(st->fd);
	close(st->ctl[1]);
	return bw_write_loop(st, st->peer_fd);
}

static int bw_tcp_peer(void *arg)
{
	struct ipc *st = arg;
	int fd, val = IPC_SOCKBUF;

	close(st->ctl[1]);
	do
		fd = accept(st->lfd, NULL, NULL);
	while (fd < 0 && errno == EINTR);
	if (fd < 0)
		return errno;
	close(st->lfd);
	/* lmbench's server: SOCKOPT_WRITE on the accepted socket. */
	setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &val, sizeof(val));
	return bw_write_loop(st, fd);
}

/* run(), not op(): the helper is told iters once and streams them all. */
static int bw_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ipc *st = ctx->priv;
	uint64_t left = iters * (uint64_t)IPC_CHUNK;
	ssize_t r;
	int err;

	err = pm_write_full(st->ctl[1], &iters, sizeof(iters));
	if (err)
		return ipc_io_err(ctx, err, "write to the control pipe");
	while (left) {
		r = read(st->fd, st->buf, IPC_CHUNK);
		if (r <= 0) {
			if (r < 0 && errno == EINTR)
				continue;
			return ipc_io_err(ctx, r < 0 ? -errno : -ENODATA,
					  "read");
		}
		left -= (uint64_t)r;
	}
	return 0;
}

/* .arg: IPC_BW_PIPE, IPC_BW_UNIX or IPC_BW_TCP */
static int bw_setup(struct pm_ctx *ctx)
{
	enum ipc_kind kind = *(const enum ipc_kind *)ctx->bench->arg;
	struct ipc *st = ipc_new(ctx, kind);
	size_t offset = 0;
	int p[2], err, val = 0;
	socklen_t len = sizeof(val);

	if (pipe2(st->ctl, O_CLOEXEC) != 0)
		return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno, "pipe"));
	switch (kind) {
	case IPC_BW_PIPE:
		if (pipe2(p, O_CLOEXEC) != 0)
			return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
							      "pipe"));
		st->fd = p[0];
		st->peer_fd = p[1];
		/* lmbench bw_pipe's reader buffer is not page aligned. */
		offset = 128;
		break;
	case IPC_BW_UNIX:
		if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p))
			return ipc_setup_failed(ctx, pm_bench_fail(ctx, -errno,
						"socketpair AF_UNIX"));
		st->fd = p[0];
		st->peer_fd = p[1];
		break;
	default:
		err = ipc_server_socket(ctx, SOCK_STREAM, 1, &st->lfd,
					&st->addr);
		if (err)
			return ipc_setup_failed(ctx, err);
		break;
	}
	st->alloc = bw_buffer(IPC_CHUNK + offset);
	if (!st->alloc)
		return ipc_setup_failed(ctx, pm_bench_why(ctx, -ENOMEM,
				"cannot allocate a %u KiB buffer",
				IPC_CHUNK >> 10));
	st->buf = (char *)st->alloc + offset;
	err = pm_spawn_peer(ctx, kind == IPC_BW_TCP ? bw_tcp_peer : bw_peer,
			    st);
	if (err)
		return ipc_setup_failed(ctx, err);
	ipc_close(&st->ctl[0]);
	ipc_close(&st->peer_fd);
	if (kind == IPC_BW_TCP) {
		err = tcp_client(ctx, st, IPC_SOCKBUF);
		if (err)
			return ipc_setup_failed(ctx, err);
		ipc_close(&st->lfd);
		getsockopt(st->fd, SOL_SOCKET, SO_RCVBUF, &val, &len);
	}
	err = bw_run(ctx, 2);
	if (err)
		return ipc_setup_failed(ctx, err);
	ctx->bytes_per_op = IPC_CHUNK;
	if (kind == IPC_BW_TCP)
		snprintf(ctx->params, sizeof(ctx->params),
			 "%u KiB chunks over TCP on 127.0.0.1, SO_RCVBUF and "
			 "SO_SNDBUF %u KiB asked (%d KiB receive buffer)",
			 IPC_CHUNK >> 10, IPC_SOCKBUF >> 10, val >> 10);
	else
		snprintf(ctx->params, sizeof(ctx->params),
			 "%u KiB chunks over %s", IPC_CHUNK >> 10,
			 kind == IPC_BW_PIPE ? "a pipe" :
			 "an AF_UNIX SOCK_STREAM socketpair");
	return 0;
}

/* ---- the family ---- */

#define IPC_CTX(nm, col, n, k)						\
	{								\
		.name = nm,						\
		.group = "ipc",						\
		.summary = "context switch: token passed around a ring of " \
			   #n " processes, each summing " #k " KiB; "	\
			   "overhead subtracted",			\
		.unit = "us",						\
		.lmbench = col,						\
		.setup = ring_setup,					\
		.arg = &(const struct ring_arg){ n, k },		\
		PM_OP_HOOKS(ring_op),					\
		.teardown = ipc_teardown,				\
		.flags = PM_PEERS,					\
		.exercises = PM_EX_SYSCALL | PM_EX_IPC | PM_EX_SWITCH,	\
	}

static const struct pm_bench ipc_benches[] = {
	IPC_CTX("ctx-2p-16k", "ctx: 2p/16K", 2, 16),
	IPC_CTX("ctx-2p-64k", "ctx: 2p/64K", 2, 64),
	IPC_CTX("ctx-8p-16k", "ctx: 8p/16K", 8, 16),
	IPC_CTX("ctx-8p-64k", "ctx: 8p/64K", 8, 64),
	IPC_CTX("ctx-16p-16k", "ctx: 16p/16K", 16, 16),
	IPC_CTX("ctx-16p-64k", "ctx: 16p/64K", 16, 64),
	{
		.name = "unix",
		.group = "ipc",
		.summary = "AF_UNIX stream socket round trip of 1 byte with "
			   "another process",
		.unit = "us",
		.lmbench = "lat: AF UNIX",
		.setup = unix_setup,
		PM_OP_HOOKS(xact_op),
		.teardown = ipc_teardown,
		.flags = PM_PEERS,
		.exercises = PM_EX_SYSCALL | PM_EX_IPC | PM_EX_SWITCH,
	},
	{
		.name = "udp",
		.group = "ipc",
		.summary = "UDP round trip of 1 byte on 127.0.0.1 with an "
			   "echo server",
		.unit = "us",
		.lmbench = "lat: UDP",
		.setup = udp_setup,
		PM_OP_HOOKS(udp_op),
		.teardown = ipc_teardown,
		.flags = PM_PEERS | PM_NET,
		.exercises = PM_EX_SYSCALL | PM_EX_NET | PM_EX_SWITCH,
	},
	{
		.name = "tcp",
		.group = "ipc",
		.summary = "TCP round trip of 1 byte on 127.0.0.1 with an "
			   "echo server",
		.unit = "us",
		.lmbench = "lat: TCP",
		.setup = tcp_setup,
		PM_OP_HOOKS(xact_op),
		.teardown = ipc_teardown,
		.flags = PM_PEERS | PM_NET,
		.exercises = PM_EX_SYSCALL | PM_EX_NET | PM_EX_SWITCH,
	},
	{
		.name = "tcp-connect",
		.group = "ipc",
		.summary = "TCP connect()+close() to a server on 127.0.0.1",
		.unit = "us",
		.lmbench = "lat: TCP conn",
		.setup = connect_setup,
		PM_OP_HOOKS(connect_op),
		.teardown = ipc_teardown,
		.flags = PM_PEERS | PM_NET,
		.exercises = PM_EX_NET,
	},
	{
		.name = "rpc-udp",
		.group = "ipc",
		.summary = "Sun RPC call over UDP on 127.0.0.1 of a procedure "
			   "returning its argument",
		.unit = "us",
		.lmbench = "lat: RPC/UDP",
		.setup = rpc_setup,
		.arg = &(const enum ipc_kind){ IPC_RPC_UDP },
		PM_OP_HOOKS(rpc_op),
		.teardown = ipc_teardown,
		.flags = PM_PEERS | PM_NET,
		.exercises = PM_EX_NET | PM_EX_SWITCH,
	},
	{
		.name = "rpc-tcp",
		.group = "ipc",
		.summary = "Sun RPC call over TCP on 127.0.0.1 of a procedure "
			   "returning its argument",
		.unit = "us",
		.lmbench = "lat: RPC/TCP",
		.setup = rpc_setup,
		.arg = &(const enum ipc_kind){ IPC_RPC_TCP },
		PM_OP_HOOKS(rpc_op),
		.teardown = ipc_teardown,
		.flags = PM_PEERS | PM_NET,
		.exercises = PM_EX_NET | PM_EX_SWITCH,
	},
	{
		.name = "select-tcp",
		.group = "ipc",
		.summary = "select() on 100 TCP socket descriptors, zero "
			   "timeout",
		.unit = "us",
		.lmbench = "proc: slct TCP",
		.setup = select_tcp_setup,
		PM_OP_HOOKS(select_tcp_op),
		.teardown = ipc_teardown,
		.flags = PM_PEERS | PM_NET,
		.exercises = PM_EX_SYSCALL | PM_EX_NET,
	},
	{
		.name = "bw-pipe",
		.group = "ipc",
		.summary = "pipe bandwidth: a 64 KiB chunk written by another "
			   "process and read",
		.unit = "MB/s",
		.lmbench = "bw: Pipe",
		.setup = bw_setup,
		.arg = &(const enum ipc_kind){ IPC_BW_PIPE },
		.run = bw_run,
		.teardown = ipc_teardown,
		.flags = PM_PEERS,
		.exercises = PM_EX_IPC | PM_EX_SWITCH,
	},
	{
		.name = "bw-unix",
		.group = "ipc",
		.summary = "AF_UNIX stream bandwidth: a 64 KiB chunk written "
			   "by another process and read",
		.unit = "MB/s",
		.lmbench = "bw: AF UNIX",
		.setup = bw_setup,
		.arg = &(const enum ipc_kind){ IPC_BW_UNIX },
		.run = bw_run,
		.teardown = ipc_teardown,
		.flags = PM_PEERS,
		.exercises = PM_EX_IPC | PM_EX_SWITCH,
	},
	{
		.name = "bw-tcp",
		.group = "ipc",
		.summary = "TCP bandwidth on 127.0.0.1: a 64 KiB chunk written "
			   "by another process and read",
		.unit = "MB/s",
		.lmbench = "bw: TCP",
		.setup = bw_setup,
		.arg = &(const enum ipc_kind){ IPC_BW_TCP },
		.run = bw_run,
		.teardown = ipc_teardown,
		.flags = PM_PEERS | PM_NET,
		.exercises = PM_EX_NET | PM_EX_SWITCH,
	},
};

PM_FAMILY(ipc, "context switches, local communication latency and "
	  "bandwidth", ipc_benches);
