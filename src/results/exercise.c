#include "config.h"

#include <stdio.h>
#include <string.h>

#include "results/exercise.h"
#include "util.h"

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
