#include "config.h"

/*
 * The system fingerprint (pmbench-sysinfo(1)): kernel, CPU, mitigations,
 * clocks, memory and perf access settings, read from /proc and /sys.
 * Every item that cannot be read is null and explained in "unavailable".
 * This file holds the collection loop, the accessors of a fingerprint's
 * keys and the small groups (clock source, perf access); each source has
 * its file.  The helpers the sources share are below them all: put.c
 * writes an item, parse.c picks a value out of text.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif

#include "sysinfo/internal.h"

#define SYS_CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0"

/* si["kernel"] = group, named by one of its members (kernel.release). */
static void put_group(json_t *si, enum pm_fp_key member, json_t *group)
{
	const char *key = pm_fp_key(member);
	char name[64];

	snprintf(name, sizeof(name), "%.*s", (int)strcspn(key, "."), key);
	json_object_set_new(si, name, group);
}

const json_t *pm_sysinfo_get(const json_t *si, const char *dotted)
{
	const json_t *cur = si;
	const char *p = dotted;

	if (!si || !dotted)
		return NULL;
	while (cur && p) {
		const char *dot;
		char key[256];
		size_t n;

		/* "unavailable" maps dotted keys: a whole-rest match wins. */
		if (json_is_object(cur)) {
			const json_t *whole = json_object_get(cur, p);

			if (whole)
				return whole;
		}
		dot = strchr(p, '.');
		n = dot ? (size_t)(dot - p) : strlen(p);
		if (n == 0 || n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		if (json_is_object(cur)) {
			cur = json_object_get(cur, key);
		} else if (json_is_array(cur)) {
			char *end;
			unsigned long i = strtoul(key, &end, 10);

			if (*end || !isdigit((unsigned char)key[0]))
				return NULL;
			cur = json_array_get(cur, i);
		} else {
			return NULL;
		}
		p = dot ? dot + 1 : NULL;
	}
	return cur;
}

const json_t *pm_sysinfo_at(const json_t *si, enum pm_fp_key k)
{
	return pm_sysinfo_get(si, pm_fp_key(k));
}

int pm_sysinfo_set(json_t *si, enum pm_fp_key k, json_t *v)
{
	const char *key = pm_fp_key(k), *dot;
	json_t *cur = si;

	while (json_is_object(cur) && (dot = strchr(key, '.'))) {
		char part[64];
		json_t *next;

		if ((size_t)(dot - key) >= sizeof(part))
			break;
		memcpy(part, key, (size_t)(dot - key));
		part[dot - key] = '\0';
		next = json_object_get(cur, part);
		if (!next) {
			next = json_object();
			json_object_set_new(cur, part, next);
		}
		cur = next;
		key = dot + 1;
	}
	if (!json_is_object(cur) || strchr(key, '.') || strchr(key, '*')) {
		json_decref(v);
		return -EINVAL;
	}
	json_object_set_new(cur, key, v);
	return 0;
}

int pm_sysinfo_set_unavailable(json_t *si, enum pm_fp_key k, const char *why)
{
	json_t *u = json_object_get(si, pm_fp_key(PM_FP_UNAVAILABLE));

	if (!u) {
		u = json_object();
		if (json_object_set_new(si, pm_fp_key(PM_FP_UNAVAILABLE), u))
			return -EINVAL;
	}
	if (!json_is_object(u))
		return -EINVAL;
	json_object_set_new(u, pm_fp_key(k), json_string(why));
	return 0;
}

static json_t *collect_clocksource(struct si_ctx *c)
{
	json_t *o = json_object();
	char buf[1024], why[512];
	int err;

	si_put_line(c, o, PM_FP_CLOCKSOURCE_CURRENT,
		    SYS_CLOCKSOURCE "/current_clocksource", NULL);
	err = pm_read_line(SYS_CLOCKSOURCE "/available_clocksource", buf,
			   sizeof(buf));
	if (!err) {
		si_put(o, PM_FP_CLOCKSOURCE_AVAILABLE, si_word_array(buf));
	} else {
		si_file_reason(why, sizeof(why),
			       SYS_CLOCKSOURCE "/available_clocksource", err);
		si_na(c, o, PM_FP_CLOCKSOURCE_AVAILABLE, "%s", why);
	}
	return o;
}

static json_t *collect_perf(struct si_ctx *c)
{
	json_t *o = json_object();

	si_put_long(c, o, PM_FP_PERF_EVENT_PARANOID,
		    "/proc/sys/kernel/perf_event_paranoid",
		    "kernel without CONFIG_PERF_EVENTS");
	si_put_long(c, o, PM_FP_PERF_KPTR_RESTRICT, "/proc/sys/kernel/kptr_restrict",
		    NULL);
	si_put_long(c, o, PM_FP_PERF_NMI_WATCHDOG, "/proc/sys/kernel/nmi_watchdog",
		    "kernel without a hard lockup detector");
	si_put_long(c, o, PM_FP_PERF_EVENT_MAX_SAMPLE_RATE,
		    "/proc/sys/kernel/perf_event_max_sample_rate",
		    "kernel without CONFIG_PERF_EVENTS");
	return o;
}

/* The process's own items: the C library and pmbench itself. */
static void put_self(struct si_ctx *c, json_t *si)
{
	json_t *pm = json_object();
#ifdef __GLIBC__
	char *text = pm_xasprintf("glibc %s", gnu_get_libc_version());

	si_put(si, PM_FP_LIBC, json_string(text));
	free(text);
#else
	si_na(c, si, PM_FP_LIBC, "not glibc: the C library has no version query");
#endif
	(void)c;
	si_put(pm, PM_FP_PMBENCH_VERSION, json_string(PACKAGE_VERSION));
#if defined(__clang__) || !defined(__GNUC__)
	si_put(pm, PM_FP_PMBENCH_COMPILER, json_string(__VERSION__));
#else
	si_put(pm, PM_FP_PMBENCH_COMPILER, json_string("gcc " __VERSION__));
#endif
	put_group(si, PM_FP_PMBENCH_VERSION, pm);
}

/* What several parts need: uname, /proc/cpuinfo, /proc/cmdline. */
static void ctx_init(struct si_ctx *c)
{
	char *text;

	c->kptr_restrict = -1;
	c->perf_paranoid = -1;
	c->unavail = json_object();
	c->have_uts = uname(&c->uts) == 0;
	c->cpuinfo = si_read_cpuinfo(&c->cpuinfo_err);
	c->cmdline_err = pm_read_file("/proc/cmdline", &text, NULL);
	if (!c->cmdline_err) {
		c->cmdline = pm_xstrdup(pm_strtrim(text));
		free(text);
	}
	/* Needed early: they explain why kallsyms shows zeros. */
	pm_read_long("/proc/sys/kernel/kptr_restrict", &c->kptr_restrict);
	pm_read_long("/proc/sys/kernel/perf_event_paranoid", &c->perf_paranoid);
}

json_t *pm_sysinfo_collect(void)
{
	struct si_ctx c = { 0 };
	json_t *si = json_object();

	ctx_init(&c);
	if (c.have_uts)
		si_put(si, PM_FP_HOSTNAME, json_string(c.uts.nodename));
	else
		si_na(&c, si, PM_FP_HOSTNAME, "uname: %s", strerror(errno));
	put_group(si, PM_FP_KERNEL_RELEASE, si_collect_kernel(&c));
	put_group(si, PM_FP_CPU_VENDOR, si_collect_cpu(&c));
	si_put_vulnerabilities(&c, si);
	si_put_mitigations(&c, si);
	put_group(si, PM_FP_CLOCKSOURCE_CURRENT, collect_clocksource(&c));
	put_group(si, PM_FP_HYPERVISOR_PRESENT, si_collect_hypervisor(&c));
	put_group(si, PM_FP_MEMORY_TOTAL_KB, si_collect_memory(&c));
	put_group(si, PM_FP_THP_ENABLED, si_collect_thp(&c));
	put_group(si, PM_FP_PROCESS_TRACER, si_collect_process(&c));
	put_group(si, PM_FP_PERF_EVENT_PARANOID, collect_perf(&c));
	put_self(&c, si);
	si_put(si, PM_FP_UNAVAILABLE, c.unavail);

	json_decref(c.cpuinfo);
	free(c.cmdline);
	return si;
}
