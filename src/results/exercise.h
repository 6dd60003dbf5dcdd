/* What a benchmark's operation exercises: names in result files. */
#ifndef PM_EXERCISE_H
#define PM_EXERCISE_H

#include <stddef.h>

/*
 * What one operation exercises: the kernel and hardware mechanisms whose
 * cost makes up its figure.  explain's rules pick the benchmarks a cause
 * can move by these (src/explain/rules.c), and every result file records
 * them by name (pm_exercise_names; pmbench-result(5)).  The table of
 * names and descriptions is in src/results/exercise.c: part of the file
 * format, so below the benchmarks that set them and explain that reads
 * them.  A new trait gets its row there and its entry in
 * pmbench-benchmarks(7).
 */
enum pm_exercise {
	PM_EX_SYSCALL = 1u << 0,	/* kernel entry and exit a large part */
	PM_EX_SIGNAL = 1u << 1,		/* signal delivery, handlers */
	PM_EX_SPAWN = 1u << 2,		/* fork, exec, exit, wait */
	PM_EX_VM = 1u << 3,		/* mappings, page tables made or freed */
	PM_EX_FAULT = 1u << 4,		/* page faults */
	PM_EX_WALK = 1u << 5,		/* every op a full page-table walk */
	PM_EX_PATH = 1u << 6,		/* path lookup */
	PM_EX_FSMETA = 1u << 7,		/* files, links, directories made, removed */
	PM_EX_FILEIO = 1u << 8,		/* read/write through the page cache */
	PM_EX_SYNC = 1u << 9,		/* writes waiting for storage */
	PM_EX_IPC = 1u << 10,		/* pipes, AF_UNIX, FIFOs, System V IPC */
	PM_EX_NET = 1u << 11,		/* TCP/IP on loopback */
	PM_EX_SWITCH = 1u << 12,	/* context switches to another process */
	PM_EX_WAKEUP = 1u << 13,	/* how soon a woken task runs */
	PM_EX_MEMORY = 1u << 14,	/* caches and memory, from user space */
	PM_EX_CPU = 1u << 15,		/* user-space computation only */
};

#define PM_EX_ALL ((1u << 16) - 1)

/* The traits of enum pm_exercise, i from 0 until NULL, in bit order. */
struct pm_exercise_info {
	unsigned bit;
	const char *name;	/* "syscall": in result files and listings */
	const char *description;	/* one line */
};
const struct pm_exercise_info *pm_exercise_at(size_t i);
/* The bit of a trait's name; 0 for a name not in the table. */
unsigned pm_exercise_find(const char *name);
/* The names of the bits of mask, in table order, joined by sep, into
 * buf (truncated to len); returns buf. */
char *pm_exercise_names(unsigned mask, const char *sep, char *buf, size_t len);

#endif
