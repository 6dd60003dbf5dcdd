/*
 * pmbench-guest-init: PID 1 of the throw-away guests `pmbench ab` boots.
 *
 * Mounts the kernel file systems, loads the virtio modules the host put
 * into the initramfs, runs the guest's `pmbench run` as root, writes its
 * result file to the virtio disk (else to the second serial port) in the
 * hand-back format (handback.h), and powers the machine off.  Linked
 * statically when the toolchain can; it uses only libc.
 *
 * The host writes what to do into the initramfs:
 *   /etc/pmbench-ab/modules   module files to load, in order, one a line
 *   /etc/pmbench-ab/argv      pmbench's argv, NUL-separated
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <fcntl.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/reboot.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include "ab/guest.h"
#include "ab/handback.h"
#define PM_MARKER_ABI_ONLY
#include "bench/marker.h"

#ifndef MODULE_INIT_COMPRESSED_FILE
#define MODULE_INIT_COMPRESSED_FILE 4
#endif

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void say(const char *fmt, ...)
{
	va_list ap;

	fputs("pmbench-guest: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	fflush(stderr);
}

/* A whole small file, NUL-terminated; NULL when unreadable. */
static char *slurp(const char *path, size_t *len)
{
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap + 1);
	ssize_t r;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0 || !buf) {
		if (fd >= 0)
			close(fd);
		free(buf);
		return NULL;
	}
	while ((r = read(fd, buf + n, cap - n)) > 0) {
		n += (size_t)r;
		if (n == cap) {
			char *nb = realloc(buf, 2 * cap + 1);

			if (!nb) {
				free(buf);
				close(fd);
				return NULL;
			}
			buf = nb;
			cap *= 2;
		}
	}
	close(fd);
	if (r < 0) {
		free(buf);
		return NULL;
	}
	buf[n] = '\0';
	if (len)
		*len = n;
	return buf;
}

static void write_sysctl(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);

	if (fd < 0)
		return;
	if (write(fd, value, strlen(value)) < 0)
		say("%s: %s", path, strerror(errno));
	close(fd);
}

static void mount_one(const char *type, const char *dir)
{
	mkdir(dir, 0755);
	if (mount(type, dir, type, 0, NULL) && errno != EBUSY)
		say("mount %s on %s: %s", type, dir, strerror(errno));
}

static void setup_system(void)
{
	int fd, s;
	struct ifreq ifr;

	mount_one("proc", "/proc");
	mount_one("sysfs", "/sys");
	mount_one("devtmpfs", "/dev");
	mount_one("tmpfs", "/tmp");
	mount_one("tmpfs", "/run");
	mkdir("/dev/shm", 01777);
	mount_one("tmpfs", "/dev/shm");
	mount_one("debugfs", "/sys/kernel/debug");
	/* the console as stdio: the kernel opened it only if /dev/console
	 * was in the archive */
	fd = open("/dev/console", O_RDWR | O_NOCTTY);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		if (fd > 2)
			close(fd);
	}
	/* profiling as root: kernel addresses and every event visible */
	write_sysctl("/proc/sys/kernel/perf_event_paranoid", "-1");
	write_sysctl("/proc/sys/kernel/kptr_restrict", "0");
	/* loopback up: the network benchmarks use it */
	s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s >= 0) {
		memset(&ifr, 0, sizeof(ifr));
		strcpy(ifr.ifr_name, "lo");
		if (ioctl(s, SIOCGIFFLAGS, &ifr) == 0) {
			ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
			if (ioctl(s, SIOCSIFFLAGS, &ifr))
				say("lo up: %s", strerror(errno));
		}
		close(s);
	}
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);

	return n >= k && !strcmp(s + n - k, suffix);
}

static void load_modules(void)
{
	char *list = slurp(PM_GUEST_MODULES, NULL), *line, *save = NULL;

	if (!list)
		return;
	for (line = strtok_r(list, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		int fd = open(line, O_RDONLY | O_CLOEXEC), flags = 0;

		if (fd < 0) {
			say("module %s: %s", line, strerror(errno));
			continue;
		}
		if (ends_with(line, ".xz") || ends_with(line, ".zst") || ends_with(line, ".gz"))
			flags = MODULE_INIT_COMPRESSED_FILE;
		if (syscall(SYS_finit_module, fd, "", flags) && errno != EEXIST)
			say("module %s: %s", line, strerror(errno));
		close(fd);
	}
	free(list);
}

/* The disk appears once virtio_blk has probed it, maybe a little later. */
static bool wait_for(const char *path, int ms)
{
	struct timespec ts = { 0, 20 * 1000000 };

	for (; ms > 0; ms -= 20) {
		if (access(path, F_OK) == 0)
			return true;
		nanosleep(&ts, NULL);
	}
	return access(path, F_OK) == 0;
}

/* The argv file: words separated by NULs. */
static char **read_argv(void)
{
	size_t len = 0, i, n = 0;
	char *buf = slurp(PM_GUEST_ARGV, &len), **v;

	if (!buf || !len)
		return NULL;
	for (i = 0; i < len; i++)
		n += buf[i] == '\0';
	if (buf[len - 1] != '\0')
		n++;
	v = calloc(n + 1, sizeof(*v));
	if (!v)
		return NULL;
	for (i = 0, n = 0; i < len; i += strlen(buf + i) + 1)
		v[n++] = buf + i;
	return v;
}

static int run_pmbench(char **argv, char *error, size_t elen)
{
	static char *envp[] = {
		"PATH=/usr/bin:/bin", "HOME=/root", "TMPDIR=/tmp", "LANG=C",
		"PMBENCH_DATADIR=" PM_GUEST_DATADIR,
		"PMBENCH_LIBEXECDIR=" PM_GUEST_LIBEXECDIR,
		/* the trials marked for pmbench ab's TCG plugin: a call each */
		PM_MARKER_ENV "=1",
		NULL,
	};
	int status;
	pid_t pid, w;

	pid = fork();
	if (pid < 0) {
		snprintf(error, elen, "fork: %s", strerror(errno));
		return -1;
	}
	if (pid == 0) {
		chdir("/tmp");
		execve(argv[0], argv, envp);
		fprintf(stderr, "pmbench-guest: cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	/* PID 1 reaps every orphan too */
	while ((w = wait(&status)) != pid)
		if (w < 0 && errno != EINTR) {
			snprintf(error, elen, "wait: %s", strerror(errno));
			return -1;
		}
	if (WIFSIGNALED(status)) {
		snprintf(error, elen, "pmbench killed by signal %d", WTERMSIG(status));
		return 128 + WTERMSIG(status);
	}
	return WEXITSTATUS(status);
}

static int write_full(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Header and payload to the disk, else to the raw second serial port. */
static void hand_back(int status, const char *error, const char *payload, size_t plen)
{
	char header[PM_HANDBACK_HEADER_MAX];
	size_t hlen = pm_handback_header(header, sizeof(header), status, error,
					 payload, plen);
	const char *dev = PM_GUEST_DISK;
	int fd, err;

	if (!wait_for(PM_GUEST_DISK, 3000))
		dev = PM_GUEST_SERIAL;
	fd = open(dev, O_WRONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		say("cannot open %s for the result: %s", dev, strerror(errno));
		return;
	}
	if (isatty(fd)) {
		struct termios t;

		/* 8-bit clean: no newline translation */
		if (tcgetattr(fd, &t) == 0) {
			cfmakeraw(&t);
			tcsetattr(fd, TCSANOW, &t);
		}
	}
	err = write_full(fd, header, hlen);
	if (!err && plen)
		err = write_full(fd, payload, plen);
	if (!err && fsync(fd) && errno != EINVAL)
		err = -errno;
	if (!err && isatty(fd))
		tcdrain(fd);
	close(fd);
	if (err)
		say("writing the result to %s: %s", dev, strerror(-err));
	else
		say("result handed back on %s (%zu bytes)", dev, plen);
}

int main(void)
{
	char error[512] = "", **argv;
	char *payload = NULL;
	size_t plen = 0;
	int status = -1;

	setup_system();
	say("started");
	load_modules();
	argv = read_argv();
	if (!argv) {
		snprintf(error, sizeof(error), "%s missing or empty", PM_GUEST_ARGV);
	} else {
		say("running %s %s ...", argv[0], argv[1] ? argv[1] : "");
		status = run_pmbench(argv, error, sizeof(error));
		say("pmbench exited with status %d", status);
		payload = slurp(PM_GUEST_RESULT, &plen);
		if (!payload && !error[0])
			snprintf(error, sizeof(error), "no result file %s: %s",
				 PM_GUEST_RESULT, strerror(errno));
	}
	hand_back(status, error[0] ? error : NULL, payload, payload ? plen : 0);
	sync();
	say("powering off");
	reboot(RB_POWER_OFF);
	/* PID 1 must not exit */
	for (;;)
		pause();
}
