/*
 * One boot of a throw-away guest: QEMU started by absolute path in its
 * own process group, watched (console, clock, Ctrl-C), killed and reaped
 * when it must stop, and its hand-back read from the virtio disk image
 * or, failing that, from the second serial port's log.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab/ab.h"

/* Sparse: only what the guest writes takes space. */
#define DISK_BYTES (256ull << 20)
#define WATCH_NS (50 * 1000000L)

char *pm_qemu_escape(const char *s)
{
	size_t n = strlen(s), i, k = 0;
	char *out = pm_xmalloc(2 * n + 1);

	for (i = 0; i < n; i++) {
		out[k++] = s[i];
		if (s[i] == ',')
			out[k++] = ',';
	}
	out[k] = '\0';
	return out;
}

static void push(char ***v, size_t *n, char *s)
{
	*v = pm_xgrow(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

char **pm_boot_argv(const struct pm_boot_spec *s, const char *disk,
		    const char *serial2)
{
	char **v = NULL, *c, *h, *d;
	size_t n = 0;

	c = pm_qemu_escape(s->console);
	h = pm_qemu_escape(serial2);
	d = pm_qemu_escape(disk);
	push(&v, &n, pm_xstrdup(s->qemu));
	push(&v, &n, pm_xstrdup("-nodefaults"));
	push(&v, &n, pm_xstrdup("-no-user-config"));
	push(&v, &n, pm_xstrdup("-display"));
	push(&v, &n, pm_xstrdup("none"));
	push(&v, &n, pm_xstrdup("-no-reboot"));
	push(&v, &n, pm_xstrdup("-accel"));
	/* counting: one thread for every vCPU, or an inline add may be lost */
	push(&v, &n, pm_xstrdup(s->accel == PM_ACCEL_KVM ? "kvm" :
				s->plugin ? "tcg,thread=single" : "tcg"));
	/* a nanosecond an instruction, idle time skipped: every boot's
	 * clock, and so its calibration and timer ticks, the same */
	if (s->icount && s->accel != PM_ACCEL_KVM) {
		push(&v, &n, pm_xstrdup("-icount"));
		push(&v, &n, pm_xstrdup("shift=0,sleep=off"));
	}
	if (s->plugin && s->accel != PM_ACCEL_KVM) {
		push(&v, &n, pm_xstrdup("-plugin"));
		push(&v, &n, pm_xstrdup(s->plugin));
	}
	push(&v, &n, pm_xstrdup("-cpu"));
	push(&v, &n, pm_xstrdup(s->cpu));
	push(&v, &n, pm_xstrdup("-m"));
	push(&v, &n, pm_xasprintf("%u", s->memory_mb));
	push(&v, &n, pm_xstrdup("-smp"));
	push(&v, &n, pm_xasprintf("%u", s->vcpus));
	push(&v, &n, pm_xstrdup("-kernel"));
	push(&v, &n, pm_xstrdup(s->kernel));
	push(&v, &n, pm_xstrdup("-initrd"));
	push(&v, &n, pm_xstrdup(s->initrd));
	push(&v, &n, pm_xstrdup("-append"));
	push(&v, &n, pm_xasprintf("%s%s%s%s", PM_BOOT_APPEND,
				  s->icount && s->accel != PM_ACCEL_KVM ? " " PM_BOOT_APPEND_ICOUNT : "",
				  s->append && *s->append ? " " : "",
				  s->append ? s->append : ""));
	/* ttyS0: the console; ttyS1: the hand-back when there is no disk */
	push(&v, &n, pm_xstrdup("-chardev"));
	push(&v, &n, pm_xasprintf("file,id=console,path=%s", c));
	push(&v, &n, pm_xstrdup("-serial"));
	push(&v, &n, pm_xstrdup("chardev:console"));
	push(&v, &n, pm_xstrdup("-chardev"));
	push(&v, &n, pm_xasprintf("file,id=handback,path=%s", h));
	push(&v, &n, pm_xstrdup("-serial"));
	push(&v, &n, pm_xstrdup("chardev:handback"));
	push(&v, &n, pm_xstrdup("-drive"));
	push(&v, &n, pm_xasprintf("file=%s,format=raw,if=virtio", d));
	free(c);
	free(h);
	free(d);
	return v;
}

void pm_boot_kill(pid_t pid)
{
	struct timespec ts = { 0, 20 * 1000000 };
	int i, status;

	if (pid <= 0)
		return;
	/* its own process group: whatever it started goes too */
	kill(-pid, SIGTERM);
	kill(pid, SIGTERM);
	for (i = 0; i < 100; i++) {
		if (waitpid(pid, &status, WNOHANG) == pid)
			return;
		nanosleep(&ts, NULL);
	}
	kill(-pid, SIGKILL);
	kill(pid, SIGKILL);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
}

/* Printable text only: the console has escape sequences and CRs. */
static void printable(char *s)
{
	char *w = s;

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == 0x1b) {
			/* CSI sequence: ESC [ params final */
			if (s[1] == '[') {
				s += 2;
				while (*s && !(*s >= '@' && *s <= '~'))
					s++;
				if (!*s)
					break;
			} else if (s[1]) {
				s++;
			}
			continue;
		}
		if (c == '\n' || c == '\t' || (c >= 0x20 && c != 0x7f))
			*w++ = (char)c;
	}
	*w = '\0';
}

char *pm_log_tail(const char *path, int lines)
{
	char *text, *p;
	size_t len;
	int seen = 0;

	if (pm_read_file(path, &text, &len))
		return pm_xstrdup("");
	printable(text);
	len = strlen(text);
	while (len && text[len - 1] == '\n')
		text[--len] = '\0';
	for (p = text + len; p > text; p--)
		if (p[-1] == '\n' && ++seen == lines)
			break;
	p = pm_xstrdup(p);
	free(text);
	return p;
}

static char *read_small(const char *path)
{
	char *text;

	if (pm_read_file(path, &text, NULL))
		return NULL;
	return text;
}

pid_t pm_ab_spawn(char *const *argv, const char *log, bool append, int cpu,
		  struct pm_err *e)
{
	pid_t parent = getpid(), pid;
	int fd = open(log, O_WRONLY | O_CREAT | O_CLOEXEC | (append ? O_APPEND : O_TRUNC), 0644);

	if (fd < 0)
		return pm_err_set(e, -errno, "%s: %s", log, strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(fd);
		return pm_err_set(e, -errno, "fork: %s", strerror(errno));
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY);

		setpgid(0, 0);
		/* it dies with us, whatever kills us */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(127);
		if (cpu >= 0) {
			cpu_set_t set;

			/* its threads inherit it: a whole guest on one host CPU */
			CPU_ZERO(&set);
			CPU_SET(cpu, &set);
			sched_setaffinity(0, sizeof(set), &set);
		}
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGPIPE, SIG_DFL);
		if (null >= 0)
			dup2(null, 0);
		dup2(fd, 1);
		dup2(fd, 2);
		execv(argv[0], argv);
		dprintf(2, "cannot run %s: %s\n", argv[0], strerror(errno));
		_exit(127);
	}
	close(fd);
	/* both sides set it: no window where a signal misses the group */
	setpgid(pid, pid);
	return pid;
}

/* The hand-back from the disk image (magic at its start) or the serial log. */
static void read_handback(struct pm_boot *b, const char *disk, const char *serial2)
{
	const char *why_disk = NULL, *why_serial = NULL;
	struct pm_handback hb;
	struct stat st;
	int fd = open(disk, O_RDONLY | O_CLOEXEC);

	if (fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0) {
		char *map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);

		if (map != MAP_FAILED) {
			if (memcmp(map, PM_HANDBACK_MAGIC, strlen(PM_HANDBACK_MAGIC)))
				why_disk = "nothing written to the disk";
			else if (!pm_handback_parse(map, (size_t)st.st_size, &hb, &why_disk)) {
				b->image_len = hb.length;
				b->image = pm_xmalloc(hb.length + 1);
				memcpy(b->image, hb.payload, hb.length);
				b->image[hb.length] = '\0';
				b->hb = hb;
				b->hb.payload = b->image;
				b->channel = "virtio disk";
			}
			munmap(map, (size_t)st.st_size);
		}
	}
	if (fd >= 0)
		close(fd);
	if (!b->image) {
		char *text;
		size_t len;

		if (pm_read_file(serial2, &text, &len) == 0) {
			if (!pm_handback_parse(text, len, &hb, &why_serial)) {
				b->image_len = hb.length;
				b->image = pm_xmalloc(hb.length + 1);
				memcpy(b->image, hb.payload, hb.length);
				b->image[hb.length] = '\0';
				b->hb = hb;
				b->hb.payload = b->image;
				b->channel = "serial port";
			}
			free(text);
		} else {
			why_serial = "no serial log";
		}
	}
	if (!b->image) {
		b->status = PM_BOOT_NO_RESULT;
		snprintf(b->why, sizeof(b->why), "no result came back (disk: %s; serial: %s)",
			 why_disk ? why_disk : "unreadable", why_serial ? why_serial : "-");
	}
}

/* The disk can be large: gone as soon as it is read. */
static void boot_cleanup(const struct pm_boot_spec *s, struct pm_boot *b)
{
	(void)s;
	if (b->disk)
		unlink(b->disk);
	free(b->disk);
	free(b->serial2);
	free(b->errlog);
	b->disk = b->serial2 = b->errlog = NULL;
}

int pm_boot_start(const struct pm_boot_spec *s, struct pm_boot *b, struct pm_err *e)
{
	char **argv;
	int fd, err = 0;

	memset(b, 0, sizeof(*b));
	b->disk = pm_xasprintf("%s/%s.disk", s->dir, s->tag);
	b->serial2 = pm_xasprintf("%s/%s.serial", s->dir, s->tag);
	b->errlog = pm_xasprintf("%s/%s.qemu", s->dir, s->tag);
	b->start_ns = pm_now_ns();
	fd = open(b->disk, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0 || ftruncate(fd, (off_t)DISK_BYTES)) {
		err = pm_err_set(e, -errno, "%s: %s", b->disk, strerror(errno));
		if (fd >= 0)
			close(fd);
		boot_cleanup(s, b);
		return err;
	}
	close(fd);
	argv = pm_boot_argv(s, b->disk, b->serial2);
	b->pid = pm_ab_spawn(argv, b->errlog, false, s->host_cpu, e);
	pm_strv_free(argv);
	if (b->pid < 0) {
		err = b->pid;
		b->pid = 0;
		boot_cleanup(s, b);
		return err;
	}
	if (s->running)
		*s->running = b->pid;
	return 0;
}

/* The end of a boot that QEMU ended itself: the hand-back, or why not. */
static void boot_ended(struct pm_boot *b, int status)
{
	read_handback(b, b->disk, b->serial2);
	if (b->status == PM_BOOT_NO_RESULT && (!WIFEXITED(status) || WEXITSTATUS(status) != 0)) {
		char *tail = pm_log_tail(b->errlog, 3);

		b->status = PM_BOOT_QEMU_FAILED;
		if (WIFEXITED(status))
			snprintf(b->why, sizeof(b->why), "QEMU exited with status %d%s%s",
				 WEXITSTATUS(status), *tail ? ": " : "", tail);
		else
			snprintf(b->why, sizeof(b->why), "QEMU killed by signal %d",
				 WTERMSIG(status));
		free(tail);
	}
}

/* Stop a boot that must not go on: killed, status and why set. */
static void boot_stop(struct pm_boot *b, enum pm_boot_status st, const char *why)
{
	pm_boot_kill(b->pid);
	b->pid = 0;
	b->status = st;
	if (why)
		snprintf(b->why, sizeof(b->why), "%s", why);
}

bool pm_boot_poll(const struct pm_boot_spec *s, struct pm_boot *b, volatile int *stop)
{
	int status = 0;
	bool exited = false;
	pid_t w;

	if (b->done)
		return true;
	w = waitpid(b->pid, &status, WNOHANG);
	if (w == b->pid) {
		exited = true;
		b->pid = 0;
	}
	b->elapsed_s = (double)(pm_now_ns() - b->start_ns) / 1e9;
	if (s->accel == PM_ACCEL_KVM && (exited || pm_now_ns() - b->last_probe_ns > 500000000ull)) {
		char *con = read_small(s->console), *qerr = read_small(b->errlog);
		bool failed = pm_kvm_boot_failed(con, qerr, b->elapsed_s, s->kvm_probe_s, exited,
						 exited && WIFEXITED(status) ? WEXITSTATUS(status) :
						 exited ? -1 : 0, b->why, sizeof(b->why));

		free(con);
		free(qerr);
		b->last_probe_ns = pm_now_ns();
		if (failed)
			boot_stop(b, PM_BOOT_KVM_FAILED, NULL);
	}
	if (!b->status && exited)
		boot_ended(b, status);
	else if (!b->status && stop && *stop)
		boot_stop(b, PM_BOOT_INTERRUPTED, "interrupted");
	else if (!b->status && b->elapsed_s > s->timeout_s) {
		char why[128];

		snprintf(why, sizeof(why), "no power-off within %.0f s: QEMU killed", s->timeout_s);
		boot_stop(b, PM_BOOT_TIMEOUT, why);
	}
	if (!exited && !b->status && b->pid)
		return false;
	b->done = true;
	if (s->running)
		*s->running = 0;
	boot_cleanup(s, b);
	return true;
}

int pm_boot_run(const struct pm_boot_spec *s, struct pm_boot *b,
		volatile int *stop, struct pm_err *e)
{
	struct timespec tick = { 0, WATCH_NS };
	int err = pm_boot_start(s, b, e);

	if (err)
		return err;
	while (!pm_boot_poll(s, b, stop))
		nanosleep(&tick, NULL);
	return 0;
}

void pm_boot_free(struct pm_boot *b)
{
	free(b->image);
	b->image = NULL;
}

