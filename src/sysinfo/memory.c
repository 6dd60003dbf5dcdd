#include "config.h"

/* Memory: total, NUMA nodes and transparent hugepage settings. */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/internal.h"

#define SYS_THP "/sys/kernel/mm/transparent_hugepage"

static int select_node(const struct dirent *d)
{
	return strncmp(d->d_name, "node", 4) == 0 &&
	       isdigit((unsigned char)d->d_name[4]);
}

static void put_total(struct si_ctx *c, json_t *o)
{
	char *text, *p;
	int err = pm_read_file("/proc/meminfo", &text, NULL);

	if (err) {
		si_na(c, o, PM_FP_MEMORY_TOTAL_KB, "/proc/meminfo: %s", strerror(-err));
		return;
	}
	p = strstr(text, "MemTotal:");
	if (p)
		si_put(o, PM_FP_MEMORY_TOTAL_KB, json_integer(strtoll(p + 9, NULL, 10)));
	else
		si_na(c, o, PM_FP_MEMORY_TOTAL_KB, "no MemTotal in /proc/meminfo");
	free(text);
}

json_t *si_collect_memory(struct si_ctx *c)
{
	json_t *o = json_object();
	struct dirent **list;
	int n;

	put_total(c, o);
	n = scandir("/sys/devices/system/node", &list, select_node, NULL);
	if (n > 0) {
		for (int i = 0; i < n; i++)
			free(list[i]);
		free(list);
		si_put(o, PM_FP_MEMORY_NUMA_NODES, json_integer(n));
	} else if (n < 0 && errno == ENOENT) {
		/* Built without CONFIG_NUMA: all memory is one node. */
		si_put(o, PM_FP_MEMORY_NUMA_NODES, json_integer(1));
	} else {
		if (n == 0)
			free(list);
		si_na(c, o, PM_FP_MEMORY_NUMA_NODES, "/sys/devices/system/node: %s",
		      n == 0 ? "no node* entries" : strerror(errno));
	}
	return o;
}

json_t *si_collect_thp(struct si_ctx *c)
{
	/* Each key's leaf is the name of its file. */
	static const enum pm_fp_key files[] = {
		PM_FP_THP_ENABLED, PM_FP_THP_DEFRAG, PM_FP_THP_SHMEM_ENABLED,
	};
	json_t *o = json_object();
	char path[256], buf[256], sel[64], why[512];
	size_t i;
	int err;

	for (i = 0; i < PM_ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), SYS_THP "/%s", pm_fp_key_leaf(files[i]));
		err = pm_read_line(path, buf, sizeof(buf));
		if (!err && pm_sysinfo_bracketed(buf, sel, sizeof(sel)) == 0) {
			si_put(o, files[i], json_string(sel));
		} else if (err) {
			si_file_reason(why, sizeof(why), path, err);
			si_na(c, o, files[i], "%s%s", why, err == -ENOENT ?
			      " (kernel without CONFIG_TRANSPARENT_HUGEPAGE)" : "");
		} else {
			si_na(c, o, files[i], "%s: no [selected] value in \"%s\"", path,
			      buf);
		}
	}
	return o;
}
