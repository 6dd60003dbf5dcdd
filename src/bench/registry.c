#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "util.h"

#define PM_FAMILY_REF(n) &pm_family_##n,
static const struct pm_family *const pm_families[] = {
	PM_FAMILIES(PM_FAMILY_REF)
};
#undef PM_FAMILY_REF

size_t pm_family_count(void)
{
	return PM_ARRAY_SIZE(pm_families);
}

const struct pm_family *pm_family_at(size_t i)
{
	return i < pm_family_count() ? pm_families[i] : NULL;
}

const struct pm_bench *pm_bench_at(size_t i)
{
	size_t f;

	for (f = 0; f < pm_family_count(); f++) {
		if (i < pm_families[f]->nbenches)
			return &pm_families[f]->benches[i];
		i -= pm_families[f]->nbenches;
	}
	return NULL;
}

const struct pm_bench *pm_bench_find(const char *name)
{
	const struct pm_bench *b;
	size_t i;

	for (i = 0; (b = pm_bench_at(i)); i++)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

const struct pm_bench *pm_bench_find_lmbench(const char *column)
{
	const struct pm_bench *b;
	size_t i;

	for (i = 0; (b = pm_bench_at(i)); i++)
		if (b->lmbench && strcmp(b->lmbench, column) == 0)
			return b;
	return NULL;
}

const struct pm_bench *pm_bench_find_aim9(const char *test)
{
	const struct pm_bench *b;
	size_t i;

	for (i = 0; (b = pm_bench_at(i)); i++)
		if (b->aim9 && strcmp(b->aim9, test) == 0)
			return b;
	return NULL;
}

/* Groups: every family, plus "quick" and "all". */
bool pm_group_exists(const char *group)
{
	size_t f;

	if (!strcmp(group, "all") || !strcmp(group, "quick"))
		return true;
	for (f = 0; f < pm_family_count(); f++)
		if (!strcmp(pm_families[f]->name, group))
			return true;
	return false;
}

bool pm_bench_in_group(const struct pm_bench *b, const char *group)
{
	if (!strcmp(group, "all"))
		return true;
	if (!strcmp(group, "quick"))
		return b->flags & PM_QUICK;
	return !strcmp(b->group, group);
}

bool pm_bench_supported(const struct pm_bench *b, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (b->supported && b->supported(why, len) != 0) {
		if (len && !why[0])
			snprintf(why, len, "not supported on this system");
		return false;
	}
	return true;
}

/* The one table of traits: their names in result files and listings. */
static const struct pm_exercise_info pm_exercises[] = {
	{ PM_EX_SYSCALL, "syscall", "system calls: entering and leaving the kernel "
	  "is a large part of each operation" },
	{ PM_EX_SIGNAL, "signal", "signals: sending, delivery to a handler and "
	  "return" },
	{ PM_EX_SPAWN, "spawn", "process creation: fork, exec, exit and wait" },
	{ PM_EX_VM, "vm", "address-space changes: mappings and page tables made, "
	  "copied or freed (mmap, munmap, brk, fork, exec)" },
	{ PM_EX_FAULT, "fault", "page faults: each operation takes page faults" },
	{ PM_EX_WALK, "walk", "page-table walks: every load misses the TLB and "
	  "walks all page-table levels" },
	{ PM_EX_PATH, "path", "path lookup: names resolved to inodes" },
	{ PM_EX_FSMETA, "fsmeta", "file-system metadata: files, links and "
	  "directories created, removed or listed" },
	{ PM_EX_FILEIO, "fileio", "file data: read and write through the page "
	  "cache" },
	{ PM_EX_SYNC, "sync", "synchronous writes: each waits for the data to "
	  "reach storage (O_SYNC)" },
	{ PM_EX_IPC, "ipc", "local IPC: pipes, FIFOs, AF_UNIX sockets, System V "
	  "IPC" },
	{ PM_EX_NET, "net", "network stack: TCP or UDP on the loopback "
	  "interface" },
	{ PM_EX_SWITCH, "switch", "context switches: the operation waits for "
	  "another process, which runs meanwhile" },
	{ PM_EX_WAKEUP, "wakeup", "wake-up latency: how soon a woken task gets its "
	  "CPU (timers, preemption)" },
	{ PM_EX_MEMORY, "memory", "caches and memory: user-space loads and stores "
	  "whose figure is a cache level's or memory's latency or bandwidth" },
	{ PM_EX_CPU, "cpu", "computation: user-space code on the CPU's execution "
	  "units, no kernel" },
};

const struct pm_exercise_info *pm_exercise_at(size_t i)
{
	return i < PM_ARRAY_SIZE(pm_exercises) ? &pm_exercises[i] : NULL;
}

unsigned pm_exercise_find(const char *name)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(pm_exercises); i++)
		if (!strcmp(pm_exercises[i].name, name))
			return pm_exercises[i].bit;
	return 0;
}

char *pm_exercise_names(unsigned mask, const char *sep, char *buf, size_t len)
{
	size_t i, n = 0;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < PM_ARRAY_SIZE(pm_exercises) && n < len; i++)
		if (mask & pm_exercises[i].bit) {
			int w = snprintf(buf + n, len - n, "%s%s", n ? sep : "",
					 pm_exercises[i].name);

			n = w < 0 ? len : n + (size_t)w;
		}
	return buf;
}
