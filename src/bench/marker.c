/*
 * Trial markers for the TCG plugin of `pmbench ab` (bench/marker.h): the
 * guest side.  Outside such a guest (PM_MARKER_ENV unset) nothing is
 * mapped and a marker is one test of a flag.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/bench.h"
#include "bench/marker.h"
#include "util.h"

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

enum { MARKERS_UNKNOWN, MARKERS_ON, MARKERS_OFF };

static int state = MARKERS_UNKNOWN;
static char off_why[128];

unsigned pm_marker_id(const struct pm_bench *b)
{
	const struct pm_bench *x;
	size_t i;

	for (i = 0; (x = pm_bench_at(i)) && i < PM_MARKER_HARNESS; i++)
		if (x == b)
			return (unsigned)i;
	/* no benchmark of the registry: marked with an id no one reads */
	return PM_MARKER_HARNESS - 1;
}

static void call_marker(uint64_t offset)
{
	void (*fn)(void) = (void (*)(void))(uintptr_t)(PM_MARKER_BASE + offset);

	fn();
}

/* A number from a one-line sysfs file ("64K" reads as 64 with *unit 'K'). */
static long sysfs_number(const char *dir, const char *name, char *unit)
{
	char path[256], buf[64], *end;
	long v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (pm_read_line(path, buf, sizeof(buf)))
		return -1;
	v = strtol(buf, &end, 10);
	if (unit)
		*unit = *end;
	return end == buf ? -1 : v;
}

/* The L1 instruction cache the guest's CPU reports, for the plugin's model. */
static void send_l1i(void)
{
	char dir[128], type[32], path[160], unit = 0;
	long kib, ways, line;
	int i;

	for (i = 0; i < 8; i++) {
		snprintf(dir, sizeof(dir), "/sys/devices/system/cpu/cpu0/cache/index%d", i);
		snprintf(path, sizeof(path), "%s/type", dir);
		if (pm_read_line(path, type, sizeof(type)) || strncmp(type, "Instruction", 11) ||
		    sysfs_number(dir, "level", NULL) != 1)
			continue;
		kib = sysfs_number(dir, "size", &unit);
		if (unit == 'M')
			kib *= 1024;
		ways = sysfs_number(dir, "ways_of_associativity", NULL);
		line = sysfs_number(dir, "coherency_line_size", NULL);
		if (kib <= 0 || kib >= PM_MARKER_FIELD || ways <= 0 || ways >= PM_MARKER_FIELD ||
		    line <= 0 || line >= PM_MARKER_FIELD)
			return;
		call_marker(PM_MARKER_CONFIG + PM_MARKER_L1I_KIB * PM_MARKER_FIELD + (uint64_t)kib);
		call_marker(PM_MARKER_CONFIG + PM_MARKER_L1I_WAYS * PM_MARKER_FIELD + (uint64_t)ways);
		call_marker(PM_MARKER_CONFIG + PM_MARKER_L1I_LINE * PM_MARKER_FIELD + (uint64_t)line);
		return;
	}
}

/* Map the page of returns; the plugin sees the calls into it. */
static void markers_init(void)
{
	unsigned char *p;

	state = MARKERS_OFF;
	if (!getenv(PM_MARKER_ENV))
		return;
	p = mmap((void *)(uintptr_t)PM_MARKER_BASE, PM_MARKER_SIZE, PROT_READ | PROT_WRITE,
		 MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	if (p == MAP_FAILED || p != (void *)(uintptr_t)PM_MARKER_BASE) {
		snprintf(off_why, sizeof(off_why), "cannot map the marker page at %#llx: %s",
			 PM_MARKER_BASE, p == MAP_FAILED ? strerror(errno) : "placed elsewhere");
		if (p != MAP_FAILED)
			munmap(p, PM_MARKER_SIZE);
		return;
	}
	memset(p, PM_MARKER_RET, PM_MARKER_SIZE);
	if (mprotect(p, PM_MARKER_SIZE, PROT_READ | PROT_EXEC)) {
		snprintf(off_why, sizeof(off_why), "mprotect of the marker page: %s",
			 strerror(errno));
		munmap(p, PM_MARKER_SIZE);
		return;
	}
	state = MARKERS_ON;
	send_l1i();
	call_marker(PM_MARKER_CONFIG + PM_MARKER_CONFIG_DONE * PM_MARKER_FIELD);
}

bool pm_markers_active(void)
{
	if (state == MARKERS_UNKNOWN)
		markers_init();
	return state == MARKERS_ON;
}

void pm_marker_trial(unsigned id, bool end)
{
	if (__builtin_expect(state == MARKERS_OFF, 1))
		return;
	if (state == MARKERS_UNKNOWN) {
		markers_init();
		if (state != MARKERS_ON)
			return;
	}
	if (id < PM_MARKER_MAX_ID)
		call_marker(2 * (uint64_t)id + end);
}

/* The running kernel's _stext (KASLR moves it), 0 when hidden. */
static unsigned long long kernel_stext(void)
{
	FILE *f = fopen("/proc/kallsyms", "re");
	char line[512], name[128], type;
	unsigned long long addr, found = 0;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "%llx %c %127s", &addr, &type, name) == 3 &&
		    !strcmp(name, "_stext")) {
			found = addr;
			break;
		}
	fclose(f);
	return found;
}

json_t *pm_markers_json(const struct pm_bench *const *benches, size_t n)
{
	json_t *ids, *j;
	char base[32], stext[32];
	unsigned long long st;
	size_t i;

	if (state == MARKERS_UNKNOWN)
		markers_init();
	if (!getenv(PM_MARKER_ENV))
		return NULL;
	ids = json_object();
	for (i = 0; i < n; i++)
		json_object_set_new(ids, benches[i]->name, json_integer(pm_marker_id(benches[i])));
	snprintf(base, sizeof(base), "%#llx", PM_MARKER_BASE);
	st = kernel_stext();
	snprintf(stext, sizeof(stext), "%#llx", st);
	j = json_pack("{s:s,s:o,s:s?}", "base", base, "ids", ids,
		      "unavailable", state == MARKERS_ON ? NULL : off_why);
	json_object_set_new(j, "kernel_stext", st ? json_string(stext) : json_null());
	json_object_set_new(j, "harness_iterations", json_integer(PM_MARKER_HARNESS_ITERS));
	return j;
}
