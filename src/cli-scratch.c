/*
 * What main() sets up around a command (the PM_CMD_* flags of its row):
 * the scratch directory and the stop signals.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/runner.h"
#include "cmd.h"
#include "util.h"

void pm_catch_stop_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A peer that died must show up as EPIPE, not kill us. */
	signal(SIGPIPE, SIG_IGN);
}

static char cmd_scratch[4096];
static int cmd_scratch_fd = -1;	/* open and flock()ed while we run */
static volatile sig_atomic_t stops_seen, first_stop;

static void on_stop_signal(int sig)
{
	if (stops_seen++ == 0) {
		first_stop = sig;
		pm_interrupted = 1;
		return;
	}
	pm_cmd_stop_now(sig);
}

/*
 * A scratch directory is PREFIX.PID.XXXXXX, locked (flock) by the
 * pmbench that made it for as long as it runs.  One killed by SIGKILL
 * leaves it behind, and the next pmbench removes it (as editors and
 * package managers do with stale lock files).  The PID in a scratch
 * directory's name, else 0 (not one, as pmbench-test.XXXXXX).
 */
static pid_t scratch_owner(const char *name)
{
	const char *p = name + strlen("pmbench");
	char *end;
	long pid;

	if (strncmp(name, "pmbench", strlen("pmbench")))
		return 0;
	p += strspn(p, "abcdefghijklmnopqrstuvwxyz-");
	if (*p++ != '.' || *p < '0' || *p > '9')
		return 0;
	errno = 0;
	pid = strtol(p, &end, 10);
	if (errno || pid <= 0 || pid > INT_MAX || *end != '.' || strlen(end + 1) != 6)
		return 0;
	return (pid_t)pid;
}

/*
 * Removed only when all say it is stale: its PID is gone (ESRCH: a live
 * process, ours or another user's, keeps it), it is a directory and not
 * a symbolic link (never followed), it is this user's, and no process
 * holds its lock (a PID from another PID namespace can look gone).
 */
static void scratch_remove_stale(int parent, const char *name)
{
	pid_t pid = scratch_owner(name);
	struct stat st;
	int fd;

	if (!pid || kill(pid, 0) == 0 || errno != ESRCH)
		return;
	fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return;
	if (fstat(fd, &st) == 0 && st.st_uid == geteuid() &&
	    flock(fd, LOCK_EX | LOCK_NB) == 0)
		pm_rmtree_fd(parent, name, fd);
	close(fd);
}

static void scratch_sweep(const char *tmp)
{
	DIR *d = opendir(tmp);
	struct dirent *de;

	if (!d)
		return;
	while ((de = readdir(d)))
		scratch_remove_stale(dirfd(d), de->d_name);
	closedir(d);
}

static unsigned cmd_flags;	/* PM_CMD_* of the command running */
static void (*stop_now_hook)(void);	/* kills what the command started */
static const char *cmd_name;

void pm_cmd_setup(const char *name, unsigned flags)
{
	cmd_name = name;
	cmd_flags = flags;
	/* with a scratch directory, from when it is made (pm_cmd_scratch) */
	if ((flags & PM_CMD_CATCH_STOP) && !(flags & PM_CMD_SCRATCH))
		pm_catch_stop_signals(on_stop_signal);
}

/* TMPDIR/PREFIX.PID.XXXXXX, locked; stale ones of others swept first. */
static int scratch_make(struct pm_err *e)
{
	const char *tmp = getenv("TMPDIR");

	if (!tmp || !*tmp)
		tmp = "/tmp";
	scratch_sweep(tmp);
	/* plain (run's): its length is part of figures (cmd.h) */
	if (cmd_flags & PM_CMD_SCRATCH_PLAIN)
		snprintf(cmd_scratch, sizeof(cmd_scratch), "%s/pmbench.%ld.XXXXXX", tmp,
			 (long)getpid());
	else
		snprintf(cmd_scratch, sizeof(cmd_scratch), "%s/pmbench-%s.%ld.XXXXXX", tmp,
			 cmd_name, (long)getpid());
	if (!mkdtemp(cmd_scratch)) {
		pm_err_set(e, -errno, "cannot create a scratch directory %s: %s",
			   cmd_scratch, strerror(errno));
		cmd_scratch[0] = '\0';
		return -1;
	}
	/* without the lock the PID alone tells a live run (same namespace) */
	cmd_scratch_fd = open(cmd_scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (cmd_scratch_fd >= 0 && flock(cmd_scratch_fd, LOCK_EX | LOCK_NB) != 0) {
		close(cmd_scratch_fd);
		cmd_scratch_fd = -1;
	}
	return 0;
}

const char *pm_cmd_scratch(struct pm_err *e)
{
	if (cmd_scratch[0])
		return cmd_scratch;
	if (!(cmd_flags & PM_CMD_SCRATCH) || !cmd_name) {
		pm_err_set(e, -EINVAL, "pmbench %s has no scratch directory (PM_CMD_SCRATCH)",
			   cmd_name ? cmd_name : "?");
		return NULL;
	}
	if (scratch_make(e))
		return NULL;
	/* the work starts: a stop now has something to save and remove */
	if (cmd_flags & PM_CMD_CATCH_STOP)
		pm_catch_stop_signals(on_stop_signal);
	return cmd_scratch;
}

void pm_cmd_teardown(void)
{
	if (cmd_scratch[0]) {
		pm_rmtree(cmd_scratch);
		cmd_scratch[0] = '\0';
	}
	if (cmd_scratch_fd >= 0)
		close(cmd_scratch_fd);
	cmd_scratch_fd = -1;
	if (cmd_flags) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		signal(SIGHUP, SIG_DFL);
	}
	cmd_flags = 0;
	stop_now_hook = NULL;
}

void pm_cmd_on_stop_now(void (*fn)(void))
{
	stop_now_hook = fn;
}

void pm_cmd_stop_now(int sig)
{
	if (stop_now_hook)
		stop_now_hook();
	/* helpers die with us: PR_SET_PDEATHSIG */
	if (cmd_scratch[0])
		pm_rmtree(cmd_scratch);
	signal(sig, SIG_DFL);
	raise(sig);
}

int pm_cmd_stop_status(void)
{
	return 128 + (first_stop ? first_stop : SIGINT);
}
