/*
 * One run of an arm of the experiment: a guest boot (QEMU, the arm's
 * kernel and arguments) or, with --local, a pmbench run on this host
 * behind the arm's set-up command and wrapper.  Jobs start, are polled
 * and end, so that two can run at once on two CPUs (duet).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ab/ab.h"
#include "ab/emulated.h"

/* A shell command run to its end, its output into log: a side's set-up. */
static int run_setup(const char *cmd, const char *log, struct pm_err *e)
{
	char *argv[] = { "/bin/sh", "-c", (char *)cmd, NULL };
	pid_t pid = pm_ab_spawn(argv, log, true, -1, e);
	int status;

	if (pid < 0)
		return pid;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return pm_err_set(e, -errno, "waitpid: %s", strerror(errno));
	if (!WIFEXITED(status) || WEXITSTATUS(status))
		return pm_err_set(e, -ECHILD, "the set-up command '%s' failed (%s %d; its "
				  "output: %s)", cmd, WIFEXITED(status) ? "status" : "signal",
				  WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), log);
	return 0;
}

/* pmbench run for a local arm: sh -c 'exec WRAP "$@"' sh pmbench run ... */
static int start_local(struct pm_ab_job *j, const struct pm_ab_env *env, struct pm_err *e)
{
	const struct pm_ab_arm *a = j->arm;
	char *log = pm_xasprintf("%s/%s.log", env->console_dir, j->tag);
	char *script = pm_xasprintf("exec %s \"$@\"", a->wrap ? a->wrap : "");
	size_t n = pm_strv_len(env->local_argv), i, k = 0;
	char **argv = pm_xcalloc(n + 16 + pm_strv_len(env->benches), sizeof(*argv)), cpu[16];
	int err = 0;

	j->result_path = pm_xasprintf("%s/%s.json", env->scratch, j->tag);
	j->console = log;
	if (a->setup)
		err = run_setup(a->setup, log, e);
	argv[k++] = "/bin/sh";
	argv[k++] = "-c";
	argv[k++] = script;
	argv[k++] = "sh";
	for (i = 0; i < n; i++)
		argv[k++] = env->local_argv[i];
	argv[k++] = "-o";
	argv[k++] = j->result_path;
	argv[k++] = "--label";
	argv[k++] = (char *)a->label;
	if (j->host_cpu >= 0) {
		snprintf(cpu, sizeof(cpu), "%d", j->host_cpu);
		argv[k++] = "--cpu";
		argv[k++] = cpu;
	}
	for (i = 0; env->benches[i]; i++)
		argv[k++] = env->benches[i];
	if (!err) {
		j->pid = pm_ab_spawn(argv, log, true, j->host_cpu, e);
		if (j->pid < 0) {
			err = j->pid;
			j->pid = 0;
		} else if (j->running) {
			*j->running = j->pid;
		}
	}
	free(script);
	free(argv);
	return err;
}

static int start_guest(struct pm_ab_job *j, const struct pm_ab_env *env, struct pm_err *e)
{
	const struct pm_ab_arm *a = j->arm;
	const struct pm_ab_opts *o = env->o;

	j->console = pm_xasprintf("%s/%s.log", env->console_dir, j->tag);
	/* never under KVM, whose guests can have the host's PMU */
	if (env->counting && env->counting->on && env->accel == PM_ACCEL_TCG) {
		j->counts_path = pm_xasprintf("%s/%s.counts", env->scratch, j->tag);
		j->plugin_arg = pm_ab_plugin_arg(env->counting, j->counts_path);
		unlink(j->counts_path);
	}
	j->bs = (struct pm_boot_spec){
		.qemu = env->qemu, .accel = env->accel, .cpu = o->cpu, .kernel = a->kernel,
		.initrd = a->initrd, .append = a->append, .memory_mb = o->memory_mb,
		.vcpus = o->vcpus, .timeout_s = o->timeout_s,
		.kvm_probe_s = PM_AB_KVM_PROBE_S, .dir = env->scratch, .tag = j->tag,
		.console = j->console, .running = j->running, .host_cpu = j->host_cpu,
		.plugin = j->plugin_arg, .icount = o->emulated_clock,
	};
	return pm_boot_start(&j->bs, &j->boot, e);
}

int pm_ab_job_start(struct pm_ab_job *j, const struct pm_ab_env *env, struct pm_err *e)
{
	j->start_ns = pm_now_ns();
	j->local = env->o->local || !env->qemu;
	return j->local ? start_local(j, env, e) : start_guest(j, env, e);
}

/* A guest that came back: its hand-back, or why there is none. */
static void guest_end(struct pm_ab_job *j, bool auto_accel)
{
	struct pm_boot *b = &j->boot;

	j->elapsed_s = b->elapsed_s;
	switch (b->status) {
	case PM_BOOT_INTERRUPTED:
		j->end = PM_JOB_STOP;
		return;
	case PM_BOOT_KVM_FAILED:
		j->end = auto_accel ? PM_JOB_RESTART : PM_JOB_FAILED;
		snprintf(j->why, sizeof(j->why), "%s", b->why);
		return;
	case PM_BOOT_OK:
		break;
	default:
		j->end = PM_JOB_FAILED;
		snprintf(j->why, sizeof(j->why), "%s", b->why);
		return;
	}
	j->status = b->hb.status;
	if (b->hb.status == 2) {
		snprintf(j->why, sizeof(j->why), "the guest's pmbench run rejected its arguments "
			 "(status 2%s%s; see its console)", b->hb.error[0] ? ": " : "", b->hb.error);
		j->end = PM_JOB_FATAL;
		return;
	}
	if (b->hb.error[0] || !b->image_len) {
		snprintf(j->why, sizeof(j->why), "guest pmbench run exited with status %d%s%s",
			 b->hb.status, b->hb.error[0] ? ": " : "", b->hb.error);
		j->end = PM_JOB_FAILED;
		return;
	}
	j->end = PM_JOB_KEPT;
	j->image = b->image;
	j->image_len = b->image_len;
	j->channel = b->channel;
	b->image = NULL;
}

static void local_end(struct pm_ab_job *j, int status)
{
	int err;

	j->elapsed_s = (double)(pm_now_ns() - j->start_ns) / 1e9;
	j->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
	err = pm_read_file_max(j->result_path, PM_READ_MAX_RESULT, &j->image, &j->image_len);
	if (err || (WIFEXITED(status) && WEXITSTATUS(status) == 2)) {
		snprintf(j->why, sizeof(j->why), "pmbench run exited with %s %d%s (see %s)",
			 WIFEXITED(status) ? "status" : "signal",
			 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
			 err ? ", no result" : "", j->console);
		j->end = WIFEXITED(status) && WEXITSTATUS(status) == 2 ? PM_JOB_FATAL :
			 PM_JOB_FAILED;
		free(j->image);
		j->image = NULL;
		return;
	}
	j->end = PM_JOB_KEPT;
	j->channel = NULL;
}

bool pm_ab_job_poll(struct pm_ab_job *j, const struct pm_ab_env *env, volatile int *stop)
{
	int status;

	if (j->done)
		return true;
	if (!j->local) {
		if (!pm_boot_poll(&j->bs, &j->boot, stop))
			return false;
		guest_end(j, env->o->accel == PM_ACCEL_AUTO);
	} else if (stop && *stop) {
		pm_boot_kill(j->pid);
		j->pid = 0;
		j->end = PM_JOB_STOP;
	} else if (waitpid(j->pid, &status, WNOHANG) == j->pid) {
		j->pid = 0;
		local_end(j, status);
		if (j->running)
			*j->running = 0;
	} else if ((double)(pm_now_ns() - j->start_ns) / 1e9 > env->o->timeout_s) {
		pm_boot_kill(j->pid);
		j->pid = 0;
		j->end = PM_JOB_FAILED;
		snprintf(j->why, sizeof(j->why), "no result within %.0f s: killed",
			 env->o->timeout_s);
	} else {
		return false;
	}
	j->done = true;
	return true;
}

void pm_ab_job_kill(struct pm_ab_job *j)
{
	pid_t pid = j->local ? j->pid : j->boot.pid;

	if (pid > 0)
		pm_boot_kill(pid);
}

void pm_ab_job_free(struct pm_ab_job *j)
{
	if (!j->local)
		pm_boot_free(&j->boot);
	if (j->result_path)
		unlink(j->result_path);
	if (j->counts_path)
		unlink(j->counts_path);
	free(j->result_path);
	free(j->counts_path);
	free(j->plugin_arg);
	free(j->console);
	free(j->image);
	memset(j, 0, sizeof(*j));
}
