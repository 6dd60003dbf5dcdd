/*
 * The process's own set-up, which belongs to the side measured and is no
 * competition: a tracer attached to it (strace, gdb), the wrapper that
 * runs it as a child (strace -f, perf, taskset, valgrind), LD_PRELOAD,
 * and the seccomp filters every system call passes.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo/internal.h"

/* A number field of /proc/PID/status ("TracerPid:"), -1 when absent. */
static long status_field(pid_t pid, const char *key)
{
	char path[64], *text, *p;
	long v = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	if (pm_read_file(path, &text, NULL))
		return -1;
	p = strstr(text, key);
	if (p && (p == text || p[-1] == '\n'))
		v = strtol(p + strlen(key), NULL, 10);
	free(text);
	return v;
}

/* /proc/PID/cmdline as NUL-separated words: *n of them. */
static char *cmdline_of(pid_t pid, size_t *len)
{
	char path[64], *text;

	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	if (pm_read_file(path, &text, len) || !*len) {
		*len = 0;
		return NULL;
	}
	return text;
}

static pid_t parent_of(pid_t pid)
{
	return (pid_t)status_field(pid, "PPid:");
}

static bool same_exe(pid_t a, pid_t b)
{
	char pa[64], pb[64], ea[4096], eb[4096];
	ssize_t na, nb;

	snprintf(pa, sizeof(pa), "/proc/%d/exe", (int)a);
	snprintf(pb, sizeof(pb), "/proc/%d/exe", (int)b);
	na = readlink(pa, ea, sizeof(ea));
	nb = readlink(pb, eb, sizeof(eb));
	return na > 0 && na == nb && !memcmp(ea, eb, (size_t)na);
}

/* The words of a cmdline before its last n bytes, shell-quoted, joined. */
static char *quoted_prefix(const char *text, size_t len)
{
	struct pm_buf out = PM_BUF_INIT;
	size_t i = 0;

	while (i < len) {
		const char *w = text + i;
		char *q = pm_sh_quote(w);

		pm_buf_sep(&out, " ");
		pm_buf_add(&out, q);
		free(q);
		i += strlen(w) + 1;
	}
	return pm_buf_detach(&out);
}

void pm_process_side_find(struct pm_process_side *s)
{
	pid_t self = getpid(), top = self, p;
	size_t tlen, plen;
	char *tcmd, *pcmd;
	long tracer;

	memset(s, 0, sizeof(*s));
	tracer = status_field(self, "TracerPid:");
	if (tracer > 0) {
		char path[64];

		s->tracer = (pid_t)tracer;
		snprintf(path, sizeof(path), "/proc/%ld/comm", tracer);
		if (pm_read_line(path, s->tracer_comm, sizeof(s->tracer_comm)))
			snprintf(s->tracer_comm, sizeof(s->tracer_comm), "pid %ld", tracer);
	}
	/* pmbench's own processes (a round's worker and its run) */
	while ((p = parent_of(top)) > 1 && same_exe(p, self))
		top = p;
	/* each ancestor that ran the next as its command's tail: wrappers */
	tcmd = cmdline_of(top, &tlen);
	while (tcmd && s->nwrappers < PM_ARRAY_SIZE(s->wrappers) && (p = parent_of(top)) > 1 &&
	       (pcmd = cmdline_of(p, &plen)) != NULL) {
		if (plen <= tlen || memcmp(pcmd + plen - tlen, tcmd, tlen) ||
		    pcmd[plen - tlen - 1] != '\0') {
			free(pcmd);
			break;
		}
		s->wrappers[s->nwrappers++] = p;
		if (!s->wrapper) {
			s->wrapper = quoted_prefix(pcmd, plen - tlen);
		} else {
			char *pre = quoted_prefix(pcmd, plen - tlen);
			char *w = pm_xasprintf("%s %s", pre, s->wrapper);

			free(pre);
			free(s->wrapper);
			s->wrapper = w;
		}
		free(tcmd);
		tcmd = pcmd;
		tlen = plen;
		top = p;
	}
	free(tcmd);
}

void pm_process_side_free(struct pm_process_side *s)
{
	free(s->wrapper);
	memset(s, 0, sizeof(*s));
}

size_t pm_process_side_pids(const struct pm_process_side *s, pid_t *out, size_t max)
{
	size_t n = 0, i;

	if (s->tracer > 0 && n < max)
		out[n++] = s->tracer;
	for (i = 0; i < s->nwrappers && n < max; i++)
		if (s->wrappers[i] != s->tracer)
			out[n++] = s->wrappers[i];
	return n;
}

json_t *si_collect_process(struct si_ctx *c)
{
	struct pm_process_side s;
	const char *pre = getenv("LD_PRELOAD");
	json_t *o = json_object();
	long filters = status_field(getpid(), "Seccomp_filters:");

	pm_process_side_find(&s);
	si_put(o, PM_FP_PROCESS_TRACER, json_string(s.tracer ? s.tracer_comm : "none"));
	si_put(o, PM_FP_PROCESS_WRAPPER, json_string(s.wrapper ? s.wrapper : "none"));
	si_put(o, PM_FP_PROCESS_PRELOAD, json_string(pre && *pre ? pre : "none"));
	if (filters >= 0)
		si_put(o, PM_FP_PROCESS_SECCOMP_FILTERS, json_integer(filters));
	else
		si_na(c, o, PM_FP_PROCESS_SECCOMP_FILTERS, "/proc/self/status has no "
		      "Seccomp_filters (Linux before 5.9)");
	pm_process_side_free(&s);
	return o;
}
