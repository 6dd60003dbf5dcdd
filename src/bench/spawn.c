/* The client side of pmbench-spawner (src/bench/spawner.c). */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/spawn.h"
#include "util.h"

extern char **environ;

/* The spawner's ends of the two pipes, while it starts. */
struct spawner_start {
	const struct pm_spawner *sp;
	const char *path;
	int cmd, reply;
};

/* In the peer: the spawner's pipes become fds 3 and 4, then exec. */
static int spawner_exec(void *arg)
{
	struct spawner_start *s = arg;
	char *argv[] = { "pmbench-spawner", (char *)s->sp->op, s->sp->arg, NULL };
	int in = fcntl(s->cmd, F_DUPFD_CLOEXEC, 10);
	int out = fcntl(s->reply, F_DUPFD_CLOEXEC, 10);

	if (in < 0 || out < 0 || dup2(in, 3) < 0 || dup2(out, 4) < 0)
		return 127;
	execve(s->path, argv, environ);
	return 127;
}

static int helper_missing(struct pm_ctx *ctx, const char *name, const char *path)
{
	return pm_bench_why(ctx, -EOPNOTSUPP, "%s not found at %s (run from the "
			    "build tree or install pmbench)", name,
			    path ? path : "(none)");
}

int pm_spawner_start(struct pm_ctx *ctx, struct pm_spawner *sp, const char *op,
		     char *arg, const char *what)
{
	struct spawner_start s = { .sp = sp, .path = ctx->spawner };
	int cmd[2], reply[2], err;

	*sp = (struct pm_spawner){ .cmd = -1, .reply = -1, .op = op, .arg = arg,
				   .what = what };
	if (!ctx->hello || access(ctx->hello, X_OK) != 0)
		return helper_missing(ctx, "pmbench-hello", ctx->hello);
	if (!ctx->spawner || access(ctx->spawner, X_OK) != 0)
		return helper_missing(ctx, "pmbench-spawner", ctx->spawner);
	if (pipe2(cmd, O_CLOEXEC) != 0)
		return pm_bench_fail(ctx, -errno, "pipe");
	if (pipe2(reply, O_CLOEXEC) != 0) {
		err = pm_bench_fail(ctx, -errno, "pipe");
		close(cmd[0]);
		close(cmd[1]);
		return err;
	}
	sp->cmd = cmd[1];
	sp->reply = reply[0];
	s.cmd = cmd[0];
	s.reply = reply[1];
	err = pm_spawn_peer(ctx, spawner_exec, &s);
	close(s.cmd);
	close(s.reply);
	if (!err)
		err = pm_spawner_run(ctx, sp, 1);
	return err;
}

static int child_failed(struct pm_ctx *ctx, const char *what, int status)
{
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
		return pm_bench_why(ctx, -ECHILD, "%s: could not be executed", what);
	if (WIFEXITED(status))
		return pm_bench_why(ctx, -ECHILD, "%s: exited with status %d", what,
				    WEXITSTATUS(status));
	if (WIFSIGNALED(status))
		return pm_bench_why(ctx, -ECHILD, "%s: killed by signal %d (%s)", what,
				    WTERMSIG(status), strsignal(WTERMSIG(status)));
	return pm_bench_why(ctx, -ECHILD, "%s: unexpected wait status 0x%x", what,
			    status);
}

int pm_spawner_run(struct pm_ctx *ctx, struct pm_spawner *sp, uint64_t n)
{
	int32_t status;
	int err;

	err = pm_write_full(sp->cmd, &n, sizeof(n));
	if (!err)
		err = pm_read_full(sp->reply, &status, sizeof(status));
	if (err)
		return pm_bench_fail(ctx, err, "pmbench-spawner");
	if (status < 0)
		return pm_bench_fail(ctx, status, "pmbench-spawner: fork");
	if (status > 0)
		return child_failed(ctx, sp->what, status);
	return 0;
}

void pm_spawner_stop(struct pm_spawner *sp)
{
	if (sp->cmd >= 0)
		close(sp->cmd);
	if (sp->reply >= 0)
		close(sp->reply);
	sp->cmd = sp->reply = -1;
	free(sp->arg);
	sp->arg = NULL;
}
