/*
 * Whole workloads (pmbench stat): a command run as it is, timed from its
 * release to its reaping, counted and sampled with every process it
 * starts, and repeated in runs interleaved with the other commands of
 * the call.  The result is a benchmark entry of pmbench-result(5): one
 * operation is one run of the command.
 */
#ifndef PM_WORKLOAD_H
#define PM_WORKLOAD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#include "counters/counters.h"
#include "results/result.h"
#include "sample/profile.h"
#include "util.h"

/* A command: an argv executed directly, or a text /bin/sh runs. */
struct pm_command {
	char *name;		/* its benchmark name in the result */
	char *text;		/* as written, for people */
	char **argv;		/* NULL-terminated, as executed */
	bool shell;		/* argv is /bin/sh -c text */
};

/*
 * One argument is a command text: run by /bin/sh -c when it holds
 * anything but a plain word (blanks, quotes, redirections, ...), else
 * executed directly.  Several arguments are an argv, executed directly.
 * The name is the text unless name is given.
 */
void pm_command_init(struct pm_command *c, char *const *args, size_t n,
		     const char *name);
void pm_command_free(struct pm_command *c);

struct pm_spawn_opts {
	bool show_output;	/* stdout and stderr pass through; else stdout
				   goes to /dev/null and stderr to err_path */
	const char *err_path;
	const struct pm_events *events;	/* count these; NULL or none: no */
	struct pm_profiler *profiler;	/* sample the run; NULL: no */
};

/* What one run gave. */
struct pm_spawn {
	uint64_t elapsed_ns;	/* release to reap */
	int status;		/* wait status */
	int exec_errno;		/* the command could not be started */
	struct rusage ru;	/* the command and the descendants it reaped */
	struct pm_count *counts;	/* one per event when counted, else NULL */
	char *count_error;	/* why it was not counted */
	struct pm_profile *profile;	/* when sampled: finish with pm_profile_end() */
	char *profile_error;	/* why it was not sampled */
	bool interrupted;	/* pm_interrupted: the command was stopped */
};

/*
 * Run a command once: forked into its own process group with standard
 * input from /dev/null, held until counters and sampler are attached
 * (inherited by every process it starts), then released and reaped.  On
 * pm_interrupted the group gets SIGINT, and SIGKILL two seconds later.
 * Returns 0 whatever the command did (out says), or -errno when it could
 * not be started at all (e says why).
 */
int pm_spawn_run(const struct pm_command *c, const struct pm_spawn_opts *o,
		 struct pm_spawn *out, struct pm_err *e);
void pm_spawn_free(struct pm_spawn *s);

/* "exit status 2", "killed by signal 11 (Segmentation fault)" */
char *pm_wait_status_text(int status);
/* The last lines of a file (a command's standard error), at most max
 * of them and 2 KiB; NULL when empty or unreadable. */
char *pm_file_tail(const char *path, unsigned max_lines);

struct pm_stat_opts {
	unsigned runs;		/* exactly this many timed runs; 0: until ci_target */
	unsigned min_runs, max_runs;	/* when runs is 0 */
	double max_time_s;	/* budget of one command's timed runs, above min_runs */
	double ci_target;	/* relative half-width of the mean's interval */
	double ci_level;
	unsigned warmup;	/* untimed runs of each command first */
	const char *const *prepare;	/* per command: run before each of its runs, or NULL */
	const char *const *cleanup;	/* per command: run after its last run, or NULL */
	bool ignore_failure;	/* a run that exits non-zero still counts */
	bool show_output;
	bool progress;		/* a progress line on stderr */
	const struct pm_events *events;	/* counted in the timed runs; NULL: none */
	struct pm_profiler *profiler;	/* one more, sampled, run; NULL: none */
	const char *scratch;	/* private directory (standard error kept there) */
	uint64_t start_ns;	/* pm_now_ns() when the whole call started */
};

/*
 * Run n commands: warm-up runs, then timed runs in turns (forward, then
 * backward, so that a drift of the machine hits every command alike)
 * until each has its runs, then a sampled run each, then the cleanups.
 * out[i] (zeroed) receives commands[i]'s entry, with a "workload" object.
 * A failure (the command, or its --prepare, exits non-zero) stops
 * everything; that entry is "failed" and its workload's "failure" says
 * how.  Returns 0, or -EINTR when interrupted (out keeps the runs that
 * finished), or -errno when a run could not be started (e says why).
 */
int pm_stat_run(const struct pm_command *commands, size_t n,
		const struct pm_stat_opts *o, struct pm_bench_result *out,
		struct pm_err *e);

#endif
