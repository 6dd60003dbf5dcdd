/* Shared by the subcommands: messages, exit codes, manual pages. */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/runner.h"
#include "cmd.h"
#include "counters/counters.h"
#include "explain/explain.h"
#include "results/result.h"
#include "symbols/symbols.h"
#include "util.h"

int pm_cli_side_load(struct pm_side *s, const char *path, struct pm_err *e)
{
	size_t i, k;
	int err = pm_side_load(s, path, e);

	for (i = 0; !err && i < s->nruns; i++)
		for (k = 0; k < s->runs[i].nbench; k++) {
			struct pm_bench_result *b = &s->runs[i].bench[k];
			const struct pm_bench *d;

			/* a workload (pmbench stat) is no benchmark of ours */
			if (!b->exercises && !b->workload && (d = pm_bench_find(b->name)))
				b->exercises = d->exercises;
		}
	return err;
}

void pm_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("pmbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void pm_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("pmbench: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int pm_exit_status(int err)
{
	if (err == 0)
		return PM_EXIT_OK;
	if (err == -EINVAL || err == -EBADMSG || err == -ENOENT ||
	    err == -EISDIR || err == -ENOTDIR || err == -EACCES)
		return PM_EXIT_USAGE;
	return PM_EXIT_RUNTIME;
}

int pm_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "pmbench %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* The first line of the usage text is the synopsis. */
	fprintf(stderr, "%.*s", (int)(strchr(usage, '\n') ? strchr(usage, '\n') - usage + 1 :
				      (long)strlen(usage)), usage);
	return PM_EXIT_USAGE;
}

/* The page's file: in-tree (man/NAME.S) or installed (manS/NAME.S). */
static char *find_page(const char *page)
{
	const char *dir = pm_mandir(), *dot = strrchr(page, '.');
	const char *sections = "157";
	char name[128], only[2] = { 0 };
	size_t i;

	/* "pmbench-events.5" names the section explicitly. */
	snprintf(name, sizeof(name), "%s", page);
	if (dot && dot[1] >= '1' && dot[1] <= '9' && !dot[2]) {
		only[0] = dot[1];
		sections = only;
		name[dot - page] = '\0';
	}
	for (i = 0; sections[i]; i++) {
		char *p = pm_xasprintf("%s/%s.%c", dir, name, sections[i]);
		struct stat st;

		if (stat(p, &st) == 0)
			return p;
		free(p);
		p = pm_xasprintf("%s/man%c/%s.%c", dir, sections[i], name, sections[i]);
		if (stat(p, &st) == 0)
			return p;
		free(p);
	}
	return NULL;
}

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

int pm_cli_end_option(const char *cmd, const char *usage, int c, char **argv)
{
	char page[64];

	switch (c) {
	case 'h':
		fputs(usage, stdout);
		return PM_EXIT_OK;
	case 'H':
		snprintf(page, sizeof(page), "pmbench-%s", cmd);
		return pm_show_manual(page);
	case ':':
		return pm_usage_error(cmd, usage, "option '%s' needs a value",
				      argv[optind - 1]);
	default:
		return pm_usage_error(cmd, usage, "unknown option '%s'", argv[optind - 1]);
	}
}

void pm_cli_measure_init(struct pm_cli_measure *m)
{
	memset(m, 0, sizeof(*m));
	m->format = "table";
	m->counters = true;
	m->profile = true;
}

int pm_cli_measure_option(const char *cmd, const char *usage, struct pm_cli_measure *m,
			  int c, const char *arg)
{
	unsigned long u;

	switch (c) {
	case 'e':
		if (!pm_list_valid(arg, ','))
			return pm_usage_error(cmd, usage, "--events: '%s' has an empty "
				"event name (software events only: -e none)", arg);
		m->events_spec = arg;
		return 0;
	case 'o':
		m->output = arg;
		return 0;
	case PM_OPT_FORMAT:
		if (strcmp(arg, "table") && strcmp(arg, "json") && strcmp(arg, "csv"))
			return pm_usage_error(cmd, usage,
				"--format: '%s' is not one of table, json, csv", arg);
		m->format = arg;
		m->format_given = true;
		return 0;
	case PM_OPT_NO_COUNTERS:
		m->counters = false;
		return 0;
	case PM_OPT_NO_PROFILE:
		m->profile = false;
		return 0;
	case 'F':
		if (pm_cli_uint(cmd, usage, "--freq", arg, 1, 1000000, &u))
			return PM_EXIT_USAGE;
		m->popts.freq = (unsigned)u;
		return 0;
	case PM_OPT_CALL_GRAPH:
		return pm_cli_call_graph(cmd, usage, arg, &m->popts.dwarf) ?
			PM_EXIT_USAGE : 0;
	case PM_OPT_VMLINUX:
		m->popts.vmlinux = arg;
		return 0;
	case PM_OPT_LABEL:
		m->label = arg;
		return 0;
	default:
		return 1;
	}
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
	/* run's has been plain pmbench.PID.XXXXXX from the start */
	if (!strcmp(cmd_name, "run"))
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
}

void pm_cmd_stop_now(int sig)
{
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

/* man(1) by absolute path: no program is looked up through PATH. */
static const char *find_man(void)
{
	static const char *const paths[] = {
		"/usr/bin/man", "/bin/man", "/usr/local/bin/man", NULL,
	};
	size_t i;

	for (i = 0; paths[i]; i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	errno = ENOENT;
	return paths[0];
}

int pm_show_manual(const char *page)
{
	char *file = find_page(page);
	const char *man = find_man();

	fflush(stdout);
	if (file) {
		execl(man, "man", "-l", file, (char *)NULL);
		if (errno == ENOENT) {
			pm_error("cannot show the manual: 'man' is not installed (apt-get install man-db); the page is %s",
				 file);
			free(file);
			return PM_EXIT_RUNTIME;
		}
		pm_error("cannot run %s: %s", man, strerror(errno));
		free(file);
		return PM_EXIT_RUNTIME;
	}
	/* Not found where we installed it: let man search MANPATH. */
	execl(man, "man", page, (char *)NULL);
	pm_error("no manual page %s found in %s and 'man' cannot run: %s", page,
		 pm_mandir(), strerror(errno));
	return PM_EXIT_RUNTIME;
}

static const char *const default_events[] = {
	"cycles", "instructions", "icache", "branch-misses", NULL,
};

/*
 * The events of a run: those asked for (or the default hardware set),
 * then the software events every run counts.  A default alias that the
 * alias files do not define is shown as not supported, not fatal.
 */
int pm_cli_events(const char *spec, bool counters, struct pm_events *ev)
{
	struct pm_aliases aliases = { 0 };
	struct pm_err e;
	char **names;
	size_t i;
	int err;

	if (!counters)
		return 0;
	err = pm_pfm_init(&e);
	if (err) {
		pm_warn("%s: hardware events disabled", e.msg);
		goto software;
	}
	if (pm_aliases_load_dir(&aliases, pm_aliases_default_dir(), &e))
		pm_warn("%s; the other alias files still apply", e.msg);
	if (spec && !strcmp(spec, "none")) {
		/* the software events only */
	} else if (spec) {
		names = pm_strv_split(spec, ',');
		err = pm_events_resolve(ev, names, &aliases, true, &e);
		if (!err)
			pm_strv_free(names);
		if (err) {
			const char *which = NULL, *hint = pm_suggest_event((const char *const *)names,
									   &aliases, &which);

			if (hint && strstr(e.msg, "unknown event"))
				pm_error("--events: %s; did you mean '%s' for '%s'?", e.msg, hint, which);
			else
				pm_error("--events: %s", e.msg);
			pm_strv_free(names);
			pm_aliases_free(&aliases);
			return -EINVAL;
		}
	} else {
		for (i = 0; default_events[i]; i++) {
			char *one[] = { (char *)default_events[i], NULL };

			if (!pm_alias_find(&aliases, default_events[i]))
				pm_events_add_unavailable(ev, default_events[i],
					"no such alias: the event alias files did not define it");
			else if (pm_events_resolve(ev, one, &aliases, true, &e))
				pm_events_add_unavailable(ev, default_events[i], e.msg);
		}
	}
	pm_aliases_free(&aliases);
software:
	if (pm_events_add_all_software(ev, &e))
		pm_warn("software events: %s", e.msg);
	return 0;
}

int pm_cli_uint(const char *cmd, const char *usage, const char *opt, const char *s,
		unsigned long lo, unsigned long hi, unsigned long *out)
{
	if (pm_parse_ulong(s, lo, hi, out)) {
		pm_usage_error(cmd, usage, "%s: '%s' is not a whole number in [%lu, %lu]",
			       opt, s, lo, hi);
		return -EINVAL;
	}
	return 0;
}

int pm_cli_double(const char *cmd, const char *usage, const char *opt, const char *s,
		  double lo, double hi, double *out)
{
	if (pm_parse_double(s, lo, hi, out)) {
		pm_usage_error(cmd, usage, "%s: '%s' is not a decimal number in [%g, %g]",
			       opt, s, lo, hi);
		return -EINVAL;
	}
	return 0;
}

int pm_cli_percent(const char *cmd, const char *usage, const char *opt, const char *s,
		   double max, double *frac)
{
	double v;

	if (pm_parse_double(s, 0, max, &v) || v >= max) {
		pm_usage_error(cmd, usage, "%s: '%s' is not a percentage in [0, %g)",
			       opt, s, max);
		return -EINVAL;
	}
	*frac = v / 100;
	return 0;
}

int pm_cli_call_graph(const char *cmd, const char *usage, const char *s, bool *dwarf)
{
	if (strcmp(s, "fp") && strcmp(s, "dwarf")) {
		pm_usage_error(cmd, usage, "--call-graph: '%s' is not one of fp, dwarf", s);
		return -EINVAL;
	}
	*dwarf = !strcmp(s, "dwarf");
#ifndef HAVE_LIBUNWIND
	if (*dwarf) {
		pm_usage_error(cmd, usage, "--call-graph dwarf: pmbench was built without libunwind");
		return -EINVAL;
	}
#endif
	return 0;
}

/*
 * The source file of each kernel symbol of a result's profiles, from the
 * DWARF of the vmlinux its kernel symbols came from (or of vmlinux when
 * given: ab's guests had a stripped copy).  Nothing when no profile used
 * a vmlinux or it has no debug info: explain then has mechanisms/.
 */
void pm_cli_kernel_sources(struct pm_result *r, const char *vmlinux)
{
	struct pm_ksrc *k = NULL;
	char *open_path = NULL;
	size_t i;

	for (i = 0; i < r->nbench; i++) {
		json_t *h = r->bench[i].hotspots;
		const char *path = vmlinux ? vmlinux :
			json_string_value(json_object_get(h, "kernel_symbols"));
		struct pm_err e;

		if (!h || !path || !strcmp(path, "/proc/kallsyms") ||
		    !json_is_true(json_object_get(h, "kernel_sampled")))
			continue;
		if (!open_path || strcmp(open_path, path)) {
			pm_ksrc_close(k);
			free(open_path);
			open_path = pm_xstrdup(path);
			if (pm_ksrc_open(&k, path, &e))
				k = NULL;
		}
		if (k)
			pm_ksrc_annotate(k, h);
	}
	pm_ksrc_close(k);
	free(open_path);
}

/* ---- did you mean ---- */

/* Optimal string alignment distance (Damerau-Levenshtein with adjacent
 * transpositions), case-insensitive; names are short. */
static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t *d = pm_xcalloc((la + 1) * (lb + 1), sizeof(*d)), r;

#define D(x, y) d[(x) * (lb + 1) + (y)]
	for (i = 0; i <= la; i++)
		D(i, 0) = i;
	for (j = 0; j <= lb; j++)
		D(0, j) = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t cost = tolower((unsigned char)a[i - 1]) != tolower((unsigned char)b[j - 1]);
			size_t v = D(i - 1, j - 1) + cost;

			if (D(i - 1, j) + 1 < v)
				v = D(i - 1, j) + 1;
			if (D(i, j - 1) + 1 < v)
				v = D(i, j - 1) + 1;
			if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] &&
			    D(i - 2, j - 2) + 1 < v)
				v = D(i - 2, j - 2) + 1;
			D(i, j) = v;
		}
	r = D(la, lb);
#undef D
	free(d);
	return r;
}

const char *pm_did_you_mean(const char *word, const char *const *cands, size_t n)
{
	/* two edits, one for a word of three letters or fewer */
	size_t best = strlen(word) <= 3 ? 1 : 2, i, d;
	const char *pick = NULL;
	bool tie = false;

	for (i = 0; i < n; i++) {
		if (!cands[i] || !*cands[i])
			continue;
		d = edit_distance(word, cands[i]);
		if (d < best || (d == best && !pick)) {
			tie = d == best && pick && strcmp(pick, cands[i]);
			best = d;
			pick = cands[i];
		} else if (d == best && pick && strcmp(pick, cands[i])) {
			tie = true;
		}
	}
	return tie ? NULL : pick;
}

/* The benchmark or group nearest to word, NULL when none is near. */
const char *pm_suggest_bench(const char *word)
{
	const struct pm_bench *b;
	const char **v = NULL;
	const char *pick;
	size_t n = 0, i;

	for (i = 0; (b = pm_bench_at(i)); i++) {
		v = pm_xrealloc(v, (n + 2) * sizeof(*v));
		v[n++] = b->name;
		v[n++] = b->group;
	}
	pick = pm_did_you_mean(word, v, n);
	free(v);
	return pick;
}

void pm_error_unknown_bench(const char *word)
{
	const char *hint = pm_suggest_bench(word);

	if (hint)
		pm_error("unknown benchmark or group '%s'; did you mean '%s'? (see 'pmbench list')",
			 word, hint);
	else
		pm_error("unknown benchmark or group '%s' (see 'pmbench list')", word);
}

const char *pm_suggest_event(const char *const *names, const struct pm_aliases *a,
			     const char **which)
{
	const char **v = pm_xcalloc(a->n + 1, sizeof(*v)), *pick = NULL;
	size_t i;

	for (i = 0; i < a->n; i++)
		v[i] = a->v[i].name;
	for (i = 0; names && names[i] && !pick; i++)
		if (!pm_alias_find(a, names[i]) && (pick = pm_did_you_mean(names[i], v, a->n)))
			*which = names[i];
	free(v);
	return pick;
}
