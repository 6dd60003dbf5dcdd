/*
 * The macro family: whole workloads run as benchmarks, so that a run of
 * pmbench gives a whole-system figure next to the microbenchmarks.
 *
 *   macro-cc     three of pmbench's own C sources compiled to objects
 *                with the system C compiler, one compiler process each
 *   macro-shell  an AIM9-style shell script of common commands on a
 *                small tree of text files
 *
 * One operation is the whole workload; the runner times it, counts it
 * with its children (PM_FORKS) and samples it like any loop.  Programs
 * are found by absolute path in setup and run with a fixed environment
 * (PATH, LC_ALL=C) in a directory of the scratch directory, so the
 * figure does not depend on the caller's shell settings.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "bench/bench.h"
#include "util.h"

/* Where programs are looked for, and the PATH they run with:
 * $PMBENCH_MACRO_PATH (another toolchain), else the system's. */
#define MACRO_PATH "/usr/local/bin:/usr/bin:/bin"

static const char *macro_path(void)
{
	const char *p = getenv("PMBENCH_MACRO_PATH");

	return p && *p ? p : MACRO_PATH;
}

#define MAX_STEPS 4

struct macro {
	char dir[PATH_MAX];		/* private work directory */
	char err[PATH_MAX + 16];	/* standard error of the last step */
	char *steps[MAX_STEPS][16];	/* argv of each step of one operation */
	size_t nsteps;
	char *envp[4];
};

/* The first of names that is an executable file in macro_path(). */
static bool find_program(const char *const *names, char *out, size_t len)
{
	const char *const *n;

	for (n = names; *n; n++) {
		char *dirs = pm_xstrdup(macro_path()), *save = NULL, *d;

		for (d = strtok_r(dirs, ":", &save); d; d = strtok_r(NULL, ":", &save)) {
			struct stat st;

			if (*d != '/')
				continue;	/* absolute paths only */
			snprintf(out, len, "%s/%s", d, *n);
			if (stat(out, &st) == 0 && S_ISREG(st.st_mode) && access(out, X_OK) == 0) {
				free(dirs);
				return true;
			}
		}
		free(dirs);
	}
	return false;
}

static void macro_free(struct macro *m)
{
	size_t i, k;

	if (!m)
		return;
	if (m->dir[0])
		pm_rmtree(m->dir);
	for (i = 0; i < m->nsteps; i++)
		for (k = 0; m->steps[i][k]; k++)
			free(m->steps[i][k]);
	for (i = 0; m->envp[i]; i++)
		free(m->envp[i]);
	free(m);
}

static struct macro *macro_new(struct pm_ctx *ctx, const char *what)
{
	struct macro *m = pm_xcalloc(1, sizeof(*m));

	snprintf(m->dir, sizeof(m->dir), "%s/%s.XXXXXX", ctx->scratch, what);
	if (!mkdtemp(m->dir)) {
		pm_bench_fail(ctx, -errno, "cannot create %s", m->dir);
		m->dir[0] = '\0';
		macro_free(m);
		return NULL;
	}
	snprintf(m->err, sizeof(m->err), "%s/.stderr", m->dir);
	m->envp[0] = pm_xasprintf("PATH=%s", macro_path());
	m->envp[1] = pm_xstrdup("LC_ALL=C");
	m->envp[2] = pm_xasprintf("TMPDIR=%s", m->dir);
	ctx->priv = m;
	return m;
}

static void add_step(struct macro *m, const char *const *argv)
{
	size_t k;

	for (k = 0; argv[k] && k < PM_ARRAY_SIZE(m->steps[0]) - 1; k++)
		m->steps[m->nsteps][k] = pm_xstrdup(argv[k]);
	m->nsteps++;
}

/* The first line of the step's standard error, for the reason. */
static void first_err_line(const struct macro *m, char *buf, size_t len)
{
	FILE *f = fopen(m->err, "r");

	buf[0] = '\0';
	if (!f)
		return;
	if (fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* Run argv in the work directory and wait; stdout to out (or /dev/null). */
static int run_step(struct pm_ctx *ctx, struct macro *m, char *const *argv,
		    const char *out)
{
	pid_t pid = fork();
	int status;

	if (pid < 0)
		return pm_bench_fail(ctx, -errno, "fork");
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int o = open(out ? out : "/dev/null", O_WRONLY | O_CREAT | O_TRUNC, 0600);
		int e = open(m->err, O_WRONLY | O_CREAT | O_TRUNC, 0600);

		/* pmbench ignores SIGPIPE; the pipelines of the script must not */
		signal(SIGPIPE, SIG_DFL);
		if (in < 0 || o < 0 || e < 0 || chdir(m->dir) || dup2(in, 0) < 0 ||
		    dup2(o, 1) < 0 || dup2(e, 2) < 0)
			_exit(126);
		execve(argv[0], argv, m->envp);
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return pm_bench_fail(ctx, -errno, "waitpid");
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		char line[160];

		first_err_line(m, line, sizeof(line));
		if (WIFSIGNALED(status))
			return pm_bench_why(ctx, -EINTR, "%s killed by signal %d", argv[0],
					    WTERMSIG(status));
		return pm_bench_why(ctx, -EIO, "%s exited with status %d%s%s", argv[0],
				    WEXITSTATUS(status), line[0] ? ": " : "", line);
	}
	return 0;
}

PM_OP(macro_op)
{
	struct macro *m = ctx->priv;
	size_t i;
	int err;

	for (i = 0; i < m->nsteps; i++)
		if ((err = run_step(ctx, m, m->steps[i], NULL)))
			return err;
	return 0;
}

static void macro_teardown(struct pm_ctx *ctx)
{
	macro_free(ctx->priv);
	ctx->priv = NULL;
}

/* ---- macro-cc ---- */

static const char *const compilers[] = { "cc", "gcc", "clang", NULL };

/* The sources, with the layout their #includes expect. */
static const char *const cc_sources[] = {
	"src/stats/stats.c", "src/bench/spawner.c", "src/bench/hello.c",
};
static const char *const cc_files[] = {
	"src/stats/stats.c", "src/stats/stats.h",
	"src/bench/spawner.c", "src/bench/hello.c",
};

static int cc_supported(char *why, size_t len)
{
	char path[PATH_MAX];
	size_t i;

	if (!find_program(compilers, path, sizeof(path))) {
		snprintf(why, len, "no C compiler: macro-cc needs cc, gcc or clang in "
			 "%s (apt-get install gcc)", macro_path());
		return -1;
	}
	for (i = 0; i < PM_ARRAY_SIZE(cc_files); i++) {
		char *p = pm_xasprintf("%s/%s", pm_datadir(), cc_files[i]);
		int ok = access(p, R_OK) == 0;

		if (!ok)
			snprintf(why, len, "the C sources macro-cc compiles are missing: %s", p);
		free(p);
		if (!ok)
			return -1;
	}
	return 0;
}

static int copy_file(struct pm_ctx *ctx, const char *from, const char *to)
{
	char *text;
	size_t len;
	FILE *f;
	int err = pm_read_file(from, &text, &len);

	if (err)
		return pm_bench_fail(ctx, err, "cannot read %s", from);
	f = fopen(to, "w");
	if (!f || fwrite(text, 1, len, f) != len || fclose(f)) {
		err = -errno;
		if (f)
			fclose(f);
		free(text);
		return pm_bench_fail(ctx, err ? err : -EIO, "cannot write %s", to);
	}
	free(text);
	return 0;
}

static int mkdirs(const char *path)
{
	char *p = pm_xstrdup(path), *s;

	for (s = p + 1; *s; s++) {
		if (*s != '/')
			continue;
		*s = '\0';
		if (mkdir(p, 0700) && errno != EEXIST) {
			free(p);
			return -errno;
		}
		*s = '/';
	}
	free(p);
	return 0;
}

static int cc_setup(struct pm_ctx *ctx)
{
	char cc[PATH_MAX], version[160] = "";
	struct macro *m;
	size_t i;
	int err;

	if (!find_program(compilers, cc, sizeof(cc)))
		return pm_bench_why(ctx, -EOPNOTSUPP, "no C compiler in %s", macro_path());
	m = macro_new(ctx, "macro-cc");
	if (!m)
		return -EIO;
	for (i = 0; i < PM_ARRAY_SIZE(cc_files); i++) {
		char *from = pm_xasprintf("%s/%s", pm_datadir(), cc_files[i]);
		char *to = pm_xasprintf("%s/%s", m->dir, cc_files[i]);

		err = mkdirs(to);
		if (err)
			pm_bench_fail(ctx, err, "cannot create the directories of %s", to);
		else
			err = copy_file(ctx, from, to);
		free(from);
		free(to);
		if (err)
			goto fail;
	}
	/* what configure would have said: the sources only need this */
	{
		char *p = pm_xasprintf("%s/config.h", m->dir);
		FILE *f = fopen(p, "w");

		if (!f || fputs("#define _GNU_SOURCE 1\n", f) < 0 || fclose(f)) {
			err = pm_bench_fail(ctx, -errno, "cannot write %s", p);
			free(p);
			goto fail;
		}
		free(p);
	}
	for (i = 0; i < PM_ARRAY_SIZE(cc_sources); i++) {
		const char *src = cc_sources[i], *base = strrchr(src, '/') + 1;
		char obj[64];
		const char *argv[] = { cc, "-O2", "-c", "-I.", "-Isrc", "-o", obj, src, NULL };

		snprintf(obj, sizeof(obj), "%.*s.o", (int)(strlen(base) - 2), base);
		add_step(m, argv);
	}
	/* the compiler's own name for itself, then one compile to check it works */
	{
		const char *argv[] = { cc, "--version", NULL };
		char *out = pm_xasprintf("%s/.version", m->dir);
		FILE *f;

		if (run_step(ctx, m, (char *const *)argv, out) == 0 && (f = fopen(out, "r"))) {
			if (fgets(version, sizeof(version), f))
				version[strcspn(version, "\n")] = '\0';
			fclose(f);
		}
		free(out);
	}
	err = macro_op(ctx);
	if (err)
		goto fail;
	snprintf(ctx->params, sizeof(ctx->params), "%.100s (%.100s), %zu files at -O2",
		 cc, version[0] ? version : "version unknown", PM_ARRAY_SIZE(cc_sources));
	return 0;
fail:
	macro_teardown(ctx);
	return err;
}

/* ---- macro-shell ---- */

static const char *const shell_programs[] = {
	"sh", "rm", "mkdir", "seq", "sed", "cat", "sort", "uniq", "grep", "head",
	"tr", "awk", "wc", "ls", "cp", "mv", "cmp", "find", "tar", "diff", "cut",
	"paste", "date",
};

/* AIM9's shell_rtns run a site's script of everyday commands; this is
 * pmbench's: text files made, sorted, searched, counted, copied,
 * archived, compared and removed, some 40 processes an operation. */
static const char shell_script[] =
	"# pmbench macro-shell: common commands on a small tree of text files\n"
	"set -e\n"
	"rm -rf w && mkdir w && cd w\n"
	"i=0\n"
	"while [ $i -lt 8 ]; do\n"
	"\tseq 1 500 | sed \"s/^/line $i /\" > f$i.txt\n"
	"\ti=$((i + 1))\n"
	"done\n"
	"cat f*.txt | sort -k3,3n -k2,2n | uniq > all.txt\n"
	"grep -c 7 f*.txt > counts.txt\n"
	"sort -r all.txt | head -n 100 | tr 'a-z' 'A-Z' > top.txt\n"
	"awk '{ s += $3 } END { print s }' all.txt > sum.txt\n"
	"wc -l all.txt top.txt > lines.txt\n"
	"ls -l > list.txt\n"
	"cp all.txt copy.txt && mv copy.txt moved.txt && cmp all.txt moved.txt\n"
	"mkdir sub && cp f1.txt f2.txt sub/ && find . -name '*.txt' | sort > found.txt\n"
	"tar cf ../w.tar . && mkdir ../x && tar xf ../w.tar -C ../x\n"
	"diff -r . ../x > /dev/null\n"
	"cut -d' ' -f3 all.txt | paste -sd+ - > /dev/null\n"
	"date > stamp.txt\n"
	"cd .. && rm -rf w x w.tar\n";

static int shell_supported(char *why, size_t len)
{
	char path[PATH_MAX];
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(shell_programs); i++) {
		const char *one[] = { shell_programs[i], NULL };

		if (!find_program(one, path, sizeof(path))) {
			snprintf(why, len, "macro-shell needs '%s' in %s", shell_programs[i],
				 macro_path());
			return -1;
		}
	}
	return 0;
}

static int shell_setup(struct pm_ctx *ctx)
{
	char sh[PATH_MAX];
	const char *one[] = { "sh", NULL };
	struct macro *m;
	char *script;
	FILE *f;
	int err;

	if (!find_program(one, sh, sizeof(sh)))
		return pm_bench_why(ctx, -EOPNOTSUPP, "no sh in %s", macro_path());
	m = macro_new(ctx, "macro-shell");
	if (!m)
		return -EIO;
	script = pm_xasprintf("%s/script.sh", m->dir);
	f = fopen(script, "w");
	if (!f || fputs(shell_script, f) < 0 || fclose(f)) {
		err = pm_bench_fail(ctx, -errno, "cannot write %s", script);
		free(script);
		goto fail;
	}
	{
		const char *argv[] = { sh, script, NULL };

		add_step(m, argv);
	}
	free(script);
	/* once, to check the commands behave */
	err = macro_op(ctx);
	if (err)
		goto fail;
	snprintf(ctx->params, sizeof(ctx->params), "%.200s, %zu kinds of command",
		 sh, PM_ARRAY_SIZE(shell_programs) - 1);
	return 0;
fail:
	macro_teardown(ctx);
	return err;
}

static const struct pm_bench macro_benches[] = {
	{
		.name = "macro-cc", .group = "macro", .unit = "ms",
		.summary = "compile 3 of pmbench's C sources with the system compiler",
		.supported = cc_supported, .setup = cc_setup, PM_OP_HOOKS(macro_op),
		.teardown = macro_teardown, .flags = PM_FORKS | PM_FS,
		.exercises = PM_EX_SPAWN | PM_EX_VM | PM_EX_FAULT | PM_EX_PATH |
			     PM_EX_FILEIO | PM_EX_CPU,
	},
	{
		.name = "macro-shell", .group = "macro", .unit = "ms",
		.summary = "an AIM9-style shell script of common commands",
		.supported = shell_supported, .setup = shell_setup, PM_OP_HOOKS(macro_op),
		.teardown = macro_teardown, .flags = PM_FORKS | PM_FS,
		.exercises = PM_EX_SPAWN | PM_EX_VM | PM_EX_FAULT | PM_EX_PATH |
			     PM_EX_FSMETA | PM_EX_FILEIO,
	},
};

PM_FAMILY(macro, "whole workloads: a compile and a shell script, one run per operation",
	  macro_benches);
