/*
 * What the commands add to result files from layers the results layer
 * does not reach: the traits of the benchmark registry, the source files
 * of kernel symbols from a vmlinux's DWARF.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "cmd.h"
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

/*
 * The source file of each kernel symbol of a result's profiles, from the
 * DWARF of the vmlinux its kernel symbols came from (or of vmlinux when
 * given: ab's guests had a stripped copy).  Nothing when no profile used
 * a vmlinux or it has no debug info: explain then has mechanisms/.
 */
/* The DWARF reader of path, opened once for several profiles. */
static struct pm_ksrc *ksrc_for(const char *path, struct pm_ksrc **k, char **open_path)
{
	struct pm_err e;

	if (!*open_path || strcmp(*open_path, path)) {
		pm_ksrc_close(*k);
		free(*open_path);
		*open_path = pm_xstrdup(path);
		if (pm_ksrc_open(k, path, &e))
			*k = NULL;
	}
	return *k;
}

void pm_cli_kernel_sources(struct pm_result *r, const char *vmlinux)
{
	struct pm_ksrc *k = NULL;
	char *open_path = NULL;
	size_t i;

	for (i = 0; i < r->nbench; i++) {
		json_t *h = r->bench[i].hotspots;
		/* emulated counts name the kernel's symbols too (pmbench ab) */
		json_t *p = json_object_get(r->bench[i].emulated, "kernel_profile");
		const char *path = vmlinux ? vmlinux :
			json_string_value(json_object_get(h, "kernel_symbols"));

		if (h && path && strcmp(path, "/proc/kallsyms") &&
		    json_is_true(json_object_get(h, "kernel_sampled")) &&
		    ksrc_for(path, &k, &open_path))
			pm_ksrc_annotate(k, h);
		if (vmlinux && json_is_array(json_object_get(p, "symbols")) &&
		    ksrc_for(vmlinux, &k, &open_path))
			pm_ksrc_annotate(k, p);
	}
	pm_ksrc_close(k);
	free(open_path);
}
