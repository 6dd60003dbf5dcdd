/* User address spaces: the mappings of a process, from /proc or MMAP2. */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "symbols/symbols.h"

static void map_clear(struct pm_map *m)
{
	free(m->path);
	m->path = NULL;
}

void pm_maps_free(struct pm_maps *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		map_clear(&m->v[i]);
	free(m->v);
	m->v = NULL;
	m->n = 0;
}

static void insert_at(struct pm_maps *m, size_t i, const struct pm_map *x)
{
	/* exact size: pm_maps_copy allocates copies that way */
	m->v = pm_xrealloc(m->v, (m->n + 1) * sizeof(*m->v));
	memmove(&m->v[i + 1], &m->v[i], (m->n - i) * sizeof(*m->v));
	m->v[i] = *x;
	m->n++;
}

/* Cut [start, end) out of every mapping it overlaps. */
static void punch(struct pm_maps *m, uint64_t start, uint64_t end)
{
	size_t i = 0;

	while (i < m->n) {
		struct pm_map *x = &m->v[i];

		if (x->end <= start || x->start >= end) {
			i++;
			continue;
		}
		if (x->start < start && x->end > end) {
			/* split in two */
			struct pm_map tail = {
				.start = end, .end = x->end,
				.pgoff = x->pgoff + (end - x->start),
				.path = pm_xstrdup(x->path),
			};

			x->end = start;
			insert_at(m, i + 1, &tail);
			return;
		}
		if (x->start < start) {
			x->end = start;
			i++;
		} else if (x->end > end) {
			x->pgoff += end - x->start;
			x->start = end;
			i++;
		} else {
			map_clear(x);
			memmove(x, x + 1, (m->n - i - 1) * sizeof(*x));
			m->n--;
		}
	}
}

void pm_maps_add(struct pm_maps *m, uint64_t start, uint64_t len,
		 uint64_t pgoff, const char *path)
{
	struct pm_map x = {
		.start = start, .end = start + len, .pgoff = pgoff,
		.path = pm_xstrdup(path ? path : "//anon"),
	};
	size_t i;

	if (!len) {
		free(x.path);
		return;
	}
	punch(m, x.start, x.end);
	for (i = 0; i < m->n && m->v[i].start < x.start; i++)
		;
	insert_at(m, i, &x);
}

int pm_maps_from_proc(struct pm_maps *m, pid_t pid, struct pm_err *e)
{
	char path[64], line[4352];
	FILE *f;

	m->pid = pid;
	snprintf(path, sizeof(path), "/proc/%d/maps", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return pm_err_set(e, -errno, "%s: %s", path, strerror(errno));
	while (fgets(line, sizeof(line), f)) {
		uint64_t start, end, off;
		char perms[8];
		int name = 0;

		if (sscanf(line, "%" SCNx64 "-%" SCNx64 " %7s %" SCNx64 " %*s %*s %n",
			   &start, &end, perms, &off, &name) < 4)
			continue;
		line[strcspn(line, "\n")] = '\0';
		pm_maps_add(m, start, end - start, off,
			    name && line[name] ? line + name : "//anon");
	}
	fclose(f);
	return 0;
}

const struct pm_map *pm_maps_find(const struct pm_maps *m, uint64_t addr)
{
	size_t lo = 0, hi = m->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (addr < m->v[mid].start)
			hi = mid;
		else if (addr >= m->v[mid].end)
			lo = mid + 1;
		else
			return &m->v[mid];
	}
	return NULL;
}

void pm_maps_copy(struct pm_maps *dst, const struct pm_maps *src, pid_t pid)
{
	size_t i;

	dst->pid = pid;
	dst->n = src->n;
	dst->v = pm_xcalloc(src->n ? src->n : 1, sizeof(*dst->v));
	for (i = 0; i < src->n; i++) {
		dst->v[i] = src->v[i];
		dst->v[i].path = pm_xstrdup(src->v[i].path);
	}
}
