#include "config.h"

/* The CPU: /proc/cpuinfo, cpu counts, cpufreq, SMT and caches. */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo/internal.h"

/* "0-3,8-11" -> 8. */
static long cpulist_count(const char *s)
{
	long count = 0;

	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (b >= a)
			count += b - a + 1;
		s = end;
		if (*s != ',')
			break;
		s++;
	}
	return count;
}

/* "32K" -> 32768 (sysfs cache sizes). */
static long long parse_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': return v << 10;
	case 'M': return v << 20;
	case 'G': return v << 30;
	default: return v;
	}
}

/* The first processor block of /proc/cpuinfo as key -> value. */
json_t *si_read_cpuinfo(int *err)
{
	char *text, *line;
	json_t *o;

	*err = pm_read_file("/proc/cpuinfo", &text, NULL);
	if (*err)
		return NULL;
	o = json_object();
	for (line = text; line && *line;) {
		char *end = strchr(line, '\n'), *colon;

		if (end)
			*end = '\0';
		if (!*pm_strtrim(line) && json_object_size(o))
			break;	/* blank line: end of the first processor */
		colon = strchr(line, ':');
		if (colon) {
			*colon = '\0';
			char *k = pm_strtrim(line), *v = pm_strtrim(colon + 1);

			if (*k && !json_object_get(o, k))
				json_object_set_new(o, k, json_string(v));
		}
		line = end ? end + 1 : NULL;
	}
	free(text);
	return o;
}

const char *si_cpuinfo_str(struct si_ctx *c, const char *key)
{
	return json_string_value(json_object_get(c->cpuinfo, key));
}

static bool put_cpuinfo_str(struct si_ctx *c, json_t *obj, enum pm_fp_key k,
			    const char *key)
{
	const char *v = si_cpuinfo_str(c, key);

	if (v) {
		si_put(obj, k, json_string(v));
		return true;
	}
	if (!c->cpuinfo)
		si_na(c, obj, k, "/proc/cpuinfo: %s", strerror(-c->cpuinfo_err));
	else
		si_na(c, obj, k, "no \"%s\" line in /proc/cpuinfo", key);
	return false;
}

static void put_cpuinfo_int(struct si_ctx *c, json_t *obj, enum pm_fp_key k,
			    const char *key)
{
	const char *v = si_cpuinfo_str(c, key);
	char *end;
	long n;

	if (!v) {
		put_cpuinfo_str(c, obj, k, key);	/* records why */
		return;
	}
	n = strtol(v, &end, 0);
	if (end == v)
		si_na(c, obj, k, "/proc/cpuinfo \"%s\" is not a number: %s", key, v);
	else
		si_put(obj, k, json_integer(n));
}

bool si_cpu_has_flag(struct si_ctx *c, const char *flag)
{
	const char *flags = si_cpuinfo_str(c, "flags");
	size_t n = strlen(flag);

	while (flags && *flags) {
		size_t m;

		flags += strspn(flags, " ");
		m = strcspn(flags, " ");
		if (m == n && memcmp(flags, flag, n) == 0)
			return true;
		flags += m;
	}
	return false;
}

/* The dotted key of item k of cache idx: cpu.caches.2.ways. */
static const char *cache_key(char *buf, size_t len, size_t idx, enum pm_fp_key k)
{
	snprintf(buf, len, "%s.%zu.%s", pm_fp_key(PM_FP_CPU_CACHES), idx,
		 pm_fp_key_leaf(k));
	return buf;
}

/* One entry of cpu.caches from .../cache/indexN. */
static json_t *collect_cache(struct si_ctx *c, const char *dir, size_t idx)
{
	static const struct {
		enum pm_fp_key key;
		const char *file;
	} ints[] = {
		{ PM_FP_CPU_CACHE_LEVEL, "level" },
		{ PM_FP_CPU_CACHE_LINE, "coherency_line_size" },
		{ PM_FP_CPU_CACHE_WAYS, "ways_of_associativity" },
	};
	json_t *o = json_object();
	char path[512], dotted[64], buf[128];
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(ints); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ints[i].file);
		si_put_long_at(c, o, cache_key(dotted, sizeof(dotted), idx, ints[i].key),
			       path, NULL);
		if (i == 0) {
			/* Keep the documented key order. */
			snprintf(path, sizeof(path), "%s/type", dir);
			si_put_line_at(c, o, cache_key(dotted, sizeof(dotted), idx,
				    PM_FP_CPU_CACHE_TYPE), path, NULL);
			snprintf(path, sizeof(path), "%s/size", dir);
			cache_key(dotted, sizeof(dotted), idx, PM_FP_CPU_CACHE_SIZE);
			if (pm_read_line(path, buf, sizeof(buf)) == 0 &&
			    parse_size(buf) >= 0)
				si_put(o, PM_FP_CPU_CACHE_SIZE,
				       json_integer(parse_size(buf)));
			else
				si_na_at(c, o, dotted, "%s unreadable", path);
		}
	}
	snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
	si_put_line_at(c, o, cache_key(dotted, sizeof(dotted), idx,
		    PM_FP_CPU_CACHE_SHARED_CPU_LIST), path, NULL);
	return o;
}

static int select_index(const struct dirent *d)
{
	return strncmp(d->d_name, "index", 5) == 0;
}

static void put_caches(struct si_ctx *c, json_t *cpu)
{
	static const char dir[] = SYS_CPU "/cpu0/cache";
	struct dirent **list;
	char path[300];
	json_t *a;
	int n, i;

	/* versionsort: index10 after index9. */
	n = scandir(dir, &list, select_index, versionsort);
	if (n <= 0) {
		si_na(c, cpu, PM_FP_CPU_CACHES, "%s: %s", dir,
		      n == 0 ? "no index* entries" : strerror(errno));
		return;
	}
	a = json_array();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		json_array_append_new(a, collect_cache(c, path, json_array_size(a)));
		free(list[i]);
	}
	free(list);
	si_put(cpu, PM_FP_CPU_CACHES, a);
}

/* Identity, flags and bugs: the first processor of /proc/cpuinfo. */
static void put_identity(struct si_ctx *c, json_t *cpu)
{
	const char *v;

	put_cpuinfo_str(c, cpu, PM_FP_CPU_VENDOR, "vendor_id");
	put_cpuinfo_int(c, cpu, PM_FP_CPU_FAMILY, "cpu family");
	put_cpuinfo_int(c, cpu, PM_FP_CPU_MODEL, "model");
	put_cpuinfo_int(c, cpu, PM_FP_CPU_STEPPING, "stepping");
	put_cpuinfo_str(c, cpu, PM_FP_CPU_MODEL_NAME, "model name");
	put_cpuinfo_str(c, cpu, PM_FP_CPU_MICROCODE, "microcode");

	/* arm64 calls them "Features". */
	v = si_cpuinfo_str(c, "flags");
	if (!v)
		v = si_cpuinfo_str(c, "Features");
	if (v)
		si_put(cpu, PM_FP_CPU_FLAGS, si_word_array(v));
	else
		put_cpuinfo_str(c, cpu, PM_FP_CPU_FLAGS, "flags");
	if ((v = si_cpuinfo_str(c, "bugs")) != NULL)
		si_put(cpu, PM_FP_CPU_BUGS, si_word_array(v));
	else
		put_cpuinfo_str(c, cpu, PM_FP_CPU_BUGS, "bugs");
}

static void put_counts(struct si_ctx *c, json_t *cpu)
{
	char buf[256], why[512];
	long online = sysconf(_SC_NPROCESSORS_ONLN);
	int err;

	if (online > 0)
		si_put(cpu, PM_FP_CPU_ONLINE, json_integer(online));
	else
		si_na(c, cpu, PM_FP_CPU_ONLINE, "sysconf(_SC_NPROCESSORS_ONLN) failed");
	err = pm_read_line(SYS_CPU "/possible", buf, sizeof(buf));
	if (!err && cpulist_count(buf) > 0) {
		si_put(cpu, PM_FP_CPU_POSSIBLE, json_integer(cpulist_count(buf)));
	} else {
		si_file_reason(why, sizeof(why), SYS_CPU "/possible",
			       err ? err : -EINVAL);
		si_na(c, cpu, PM_FP_CPU_POSSIBLE, "%s", why);
	}
}

/* Governor and frequencies; without a cpufreq driver say so once. */
static void put_cpufreq(struct si_ctx *c, json_t *cpu)
{
	static const char no_cpufreq[] = "no cpufreq driver (" SYS_CPU
		"/cpu0/cpufreq is missing; usual in virtual machines)";
	bool cpufreq = access(SYS_CPU "/cpu0/cpufreq", F_OK) == 0;
	const char *v;
	long khz;

	if (cpufreq)
		si_put_line(c, cpu, PM_FP_CPU_GOVERNOR,
			    SYS_CPU "/cpu0/cpufreq/scaling_governor", NULL);
	else
		si_na(c, cpu, PM_FP_CPU_GOVERNOR, "%s", no_cpufreq);

	/* Whole MHz: the fraction is noise and prints as 2596.1439999999998. */
	v = si_cpuinfo_str(c, "cpu MHz");
	if (v && strtod(v, NULL) > 0) {
		si_put(cpu, PM_FP_CPU_CUR_MHZ,
		       json_real((double)(long long)(strtod(v, NULL) + 0.5)));
	} else if (pm_read_long(SYS_CPU "/cpu0/cpufreq/scaling_cur_freq",
				&khz) == 0) {
		si_put(cpu, PM_FP_CPU_CUR_MHZ, json_real((double)((khz + 500) / 1000)));
	} else {
		si_na(c, cpu, PM_FP_CPU_CUR_MHZ, "no \"cpu MHz\" in /proc/cpuinfo and %s",
		      cpufreq ? "no scaling_cur_freq" : no_cpufreq);
	}
	if (!cpufreq)
		si_na(c, cpu, PM_FP_CPU_MAX_MHZ, "%s", no_cpufreq);
	else if (pm_read_long(SYS_CPU "/cpu0/cpufreq/cpuinfo_max_freq", &khz) == 0)
		si_put(cpu, PM_FP_CPU_MAX_MHZ, json_real((double)((khz + 500) / 1000)));
	else
		si_put_long(c, cpu, PM_FP_CPU_MAX_MHZ,
			    SYS_CPU "/cpu0/cpufreq/cpuinfo_max_freq", NULL);
}

json_t *si_collect_cpu(struct si_ctx *c)
{
	json_t *cpu = json_object();

	put_identity(c, cpu);
	put_counts(c, cpu);
	put_cpufreq(c, cpu);
	si_put_line(c, cpu, PM_FP_CPU_SMT, SYS_CPU "/smt/control",
		    "kernel without CONFIG_HOTPLUG_SMT");
	put_caches(c, cpu);
	return cpu;
}
