/*
 * Helpers for benchmarks: peer processes, CPU placement, full reads and
 * writes, scratch files.  Declared in bench.h.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench/bench.h"
#include "stats/stats.h"
#include "util.h"

/* How long pm_reap_peers lets peers exit on their own. */
#define PM_REAP_GRACE_NS 500000000ull

/*
 * The CPUs the process may use, as it started.  The runner pins the main
 * process to one CPU before setup, after which sched_getaffinity(0) only
 * reports that CPU; the spread placement needs the set the user allowed
 * (e.g. with taskset), so take it before main() runs.
 */
static cpu_set_t *pm_start_cpus;
static size_t pm_start_cpus_size;

static cpu_set_t *pm_get_affinity(size_t *sizep)
{
	int n;

	for (n = 1024; n <= (1 << 20); n *= 2) {
		size_t size = CPU_ALLOC_SIZE(n);
		cpu_set_t *set = CPU_ALLOC(n);

		if (!set)
			return NULL;
		if (sched_getaffinity(0, size, set) == 0) {
			*sizep = size;
			return set;
		}
		CPU_FREE(set);
		if (errno != EINVAL)
			return NULL;
	}
	return NULL;
}

__attribute__((constructor)) static void pm_helpers_init(void)
{
	pm_start_cpus = pm_get_affinity(&pm_start_cpus_size);
}

int pm_pin_self(int cpu)
{
	cpu_set_t *set;
	size_t size;
	int ret = 0;

	if (cpu < 0)
		return 0;
	set = CPU_ALLOC(cpu + 1);
	if (!set)
		return -ENOMEM;
	size = CPU_ALLOC_SIZE(cpu + 1);
	CPU_ZERO_S(size, set);
	CPU_SET_S(cpu, size, set);
	if (sched_setaffinity(0, size, set) != 0)
		ret = -errno;
	CPU_FREE(set);
	return ret;
}

/*
 * A peer with no CPU of its own must not inherit the main process's pin:
 * give it back every CPU the process started with.
 */
static int pm_unpin_self(void)
{
	if (!pm_start_cpus)
		return 0;
	if (sched_setaffinity(0, pm_start_cpus_size, pm_start_cpus) != 0)
		return -errno;
	return 0;
}

int pm_bench_fail(struct pm_ctx *ctx, int err, const char *fmt, ...)
{
	char msg[192];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ctx->why, sizeof(ctx->why), "%.191s: %.60s", msg,
		 strerror(err < 0 ? -err : err));
	return err;
}

int pm_bench_why(struct pm_ctx *ctx, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(ctx->why, sizeof(ctx->why), fmt, ap);
	va_end(ap);
	return err;
}

int pm_nth_cpu(int i)
{
	size_t size = pm_start_cpus_size;
	int cpu, n = 0;

	if (!pm_start_cpus)
		return -1;
	for (cpu = 0; cpu < (int)(size * 8); cpu++)
		n += CPU_ISSET_S(cpu, size, pm_start_cpus) != 0;
	if (!n)
		return -1;
	i %= n;
	for (cpu = 0; cpu < (int)(size * 8); cpu++)
		if (CPU_ISSET_S(cpu, size, pm_start_cpus) && i-- == 0)
			return cpu;
	return -1;
}

int pm_peer_cpu(const struct pm_ctx *ctx, int index)
{
	cpu_set_t *set = pm_start_cpus, *cur = NULL;
	size_t size = pm_start_cpus_size;
	int n = 0, cpu, pick = -1, first = -1;

	switch (ctx->placement) {
	case PM_PLACE_SAME:
		return ctx->cpu;
	case PM_PLACE_NONE:
		return -1;
	case PM_PLACE_SPREAD:
		break;
	default:
		return -1;
	}
	if (!set)
		set = cur = pm_get_affinity(&size);
	if (!set)
		return ctx->cpu;
	/* The allowed CPUs other than the main one, round-robin by index. */
	for (cpu = 0; cpu < (int)(size * 8); cpu++) {
		if (!CPU_ISSET_S(cpu, size, set) || cpu == ctx->cpu)
			continue;
		if (first < 0)
			first = cpu;
		n++;
	}
	if (n > 0) {
		int want = index >= 0 ? index % n : 0;

		for (cpu = first; cpu < (int)(size * 8); cpu++) {
			if (!CPU_ISSET_S(cpu, size, set) || cpu == ctx->cpu)
				continue;
			if (want-- == 0) {
				pick = cpu;
				break;
			}
		}
	} else {
		pick = ctx->cpu;	/* a single CPU: nowhere else to go */
	}
	if (cur)
		CPU_FREE(cur);
	return pick;
}

/*
 * The child reports through a close-on-exec pipe whether it could be
 * placed, so that a bad CPU fails setup instead of silently running the
 * peer elsewhere.
 */
int pm_spawn_peer(struct pm_ctx *ctx, int (*fn)(void *arg), void *arg)
{
	pid_t parent = getpid(), pid;
	int index = ctx->npeers, cpu, status[2], err, child_err = 0;

	if (ctx->npeers >= PM_MAX_PEERS) {
		snprintf(ctx->why, sizeof(ctx->why),
			 "too many helper processes (at most %d)", PM_MAX_PEERS);
		return -EMFILE;
	}
	cpu = pm_peer_cpu(ctx, index);
	if (pipe2(status, O_CLOEXEC) != 0) {
		err = -errno;
		snprintf(ctx->why, sizeof(ctx->why), "pipe: %s", strerror(-err));
		return err;
	}
	pid = fork();
	if (pid < 0) {
		err = -errno;
		close(status[0]);
		close(status[1]);
		snprintf(ctx->why, sizeof(ctx->why),
			 "cannot start a helper process: fork: %s", strerror(-err));
		return err;
	}
	if (pid == 0) {
		sigset_t set;
		int ret;

		close(status[0]);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		sigemptyset(&set);
		sigaddset(&set, SIGINT);
		sigaddset(&set, SIGTERM);
		sigprocmask(SIG_UNBLOCK, &set, NULL);
		/* Die with the parent; it may already be gone. */
		if (prctl(PR_SET_PDEATHSIG, SIGKILL) != 0 || getppid() != parent)
			_exit(1);
		if (cpu >= 0)
			ret = pm_pin_self(cpu);
		else
			ret = pm_unpin_self();
		if (pm_write_full(status[1], &ret, sizeof(ret)) != 0 || ret)
			_exit(1);
		close(status[1]);
		ret = fn(arg);
		if (ret < 0)
			ret = -ret;
		_exit(ret == 0 ? 0 : (ret & 0xff) ? ret & 0xff : 1);
	}
	close(status[1]);
	ctx->peers[ctx->npeers++] = pid;
	err = pm_read_full(status[0], &child_err, sizeof(child_err));
	close(status[0]);
	if (err == 0 && child_err == 0)
		return 0;
	/* The child exits by itself in every failure case: reap it now. */
	ctx->npeers--;
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (err == 0) {
		if (cpu >= 0)
			snprintf(ctx->why, sizeof(ctx->why),
				 "cannot place a helper process on CPU %d: %s",
				 cpu, strerror(-child_err));
		else
			snprintf(ctx->why, sizeof(ctx->why),
				 "cannot set the CPUs of a helper process: %s",
				 strerror(-child_err));
		return child_err;
	}
	snprintf(ctx->why, sizeof(ctx->why),
		 "helper process failed to start");
	return -ECHILD;
}

void pm_reap_peers(struct pm_ctx *ctx)
{
	uint64_t deadline = pm_now_ns() + PM_REAP_GRACE_NS;
	int i, left;

	for (;;) {
		left = 0;
		for (i = 0; i < ctx->npeers; i++) {
			pid_t r;

			if (ctx->peers[i] <= 0)
				continue;
			r = waitpid(ctx->peers[i], NULL, WNOHANG);
			if (r == ctx->peers[i] || (r < 0 && errno == ECHILD))
				ctx->peers[i] = 0;
			else
				left++;
		}
		if (!left || pm_now_ns() >= deadline)
			break;
		nanosleep(&(struct timespec){ .tv_nsec = 1000000 }, NULL);
	}
	for (i = 0; i < ctx->npeers; i++) {
		if (ctx->peers[i] <= 0)
			continue;
		kill(ctx->peers[i], SIGKILL);
		while (waitpid(ctx->peers[i], NULL, 0) < 0 && errno == EINTR)
			;
		ctx->peers[i] = 0;
	}
	ctx->npeers = 0;
}

/* EOF: -ENODATA from a read, -EPIPE from a write that wrote nothing. */
int pm_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len > 0) {
		ssize_t r = read(fd, p, len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -ENODATA;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

int pm_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len > 0) {
		ssize_t r = write(fd, p, len);

		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		if (r == 0)
			return -EPIPE;
		p += r;
		len -= (size_t)r;
	}
	return 0;
}

#define PM_OVERHEAD_LOOPS 9
#define PM_OVERHEAD_LOOP_NS 5000000.0

int pm_overhead_loop_ns(int (*loop)(void *arg, uint64_t n), void *arg,
			enum pm_overhead_stat stat, double *out)
{
	double samples[PM_OVERHEAD_LOOPS];
	uint64_t n = 64, t0, t;
	int err, i;

	/* Calibrate to ~1 ms, then size the loops to ~5 ms. */
	for (;;) {
		t0 = pm_now_ns();
		err = loop(arg, n);
		t = pm_now_ns() - t0;
		if (err)
			return err;
		if (t >= 1000000 || n >= (1ull << 40))
			break;
		n *= 4;
	}
	n = (uint64_t)(PM_OVERHEAD_LOOP_NS * (double)n / (double)(t ? t : 1));
	if (n < 1)
		n = 1;
	for (i = 0; i < PM_OVERHEAD_LOOPS; i++) {
		t0 = pm_now_ns();
		err = loop(arg, n);
		if (err)
			return err;
		samples[i] = (double)(pm_now_ns() - t0) / (double)n;
	}
	if (stat == PM_OVERHEAD_MEDIAN) {
		*out = pm_median(samples, PM_OVERHEAD_LOOPS);
		return 0;
	}
	*out = samples[0];
	for (i = 1; i < PM_OVERHEAD_LOOPS; i++)
		if (samples[i] < *out)
			*out = samples[i];
	return 0;
}

#define PM_SCRATCH_CHUNK (1u << 20)

int pm_scratch_file(struct pm_ctx *ctx, const char *name, size_t size,
		    char *path, size_t pathlen)
{
	char *file, *buf;
	size_t i, left;
	int fd, err = 0;

	file = pm_xasprintf("%s/%s", ctx->scratch, name);
	if (path && (size_t)snprintf(path, pathlen, "%s", file) >= pathlen) {
		snprintf(ctx->why, sizeof(ctx->why), "%s: path too long", file);
		free(file);
		return -ENAMETOOLONG;
	}
	fd = open(file, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0) {
		err = -errno;
		snprintf(ctx->why, sizeof(ctx->why), "cannot create %s: %s",
			 file, strerror(-err));
		free(file);
		return err;
	}
	buf = pm_xmalloc(PM_SCRATCH_CHUNK);
	/* Non-zero, not all one value: nothing can treat it as a hole. */
	for (i = 0; i < PM_SCRATCH_CHUNK; i++)
		buf[i] = (char)(0x5a ^ (i & 0x7f) ^ ((i >> 12) & 0x3f)) | 1;
	for (left = size; left > 0;) {
		size_t n = left < PM_SCRATCH_CHUNK ? left : PM_SCRATCH_CHUNK;

		err = pm_write_full(fd, buf, n);
		if (err) {
			snprintf(ctx->why, sizeof(ctx->why), "cannot write %s: %s",
				 file, strerror(-err));
			goto fail;
		}
		left -= n;
	}
	/* Read it back once: the page cache is warm when setup returns. */
	if (lseek(fd, 0, SEEK_SET) < 0) {
		err = -errno;
		snprintf(ctx->why, sizeof(ctx->why), "lseek %s: %s", file,
			 strerror(-err));
		goto fail;
	}
	for (left = size; left > 0;) {
		size_t n = left < PM_SCRATCH_CHUNK ? left : PM_SCRATCH_CHUNK;

		err = pm_read_full(fd, buf, n);
		if (err) {
			snprintf(ctx->why, sizeof(ctx->why), "cannot read %s: %s",
				 file, strerror(-err));
			goto fail;
		}
		left -= n;
	}
	free(buf);
	close(fd);
	free(file);
	return 0;
fail:
	free(buf);
	close(fd);
	unlink(file);
	free(file);
	return err;
}
