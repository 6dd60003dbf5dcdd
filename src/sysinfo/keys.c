#include "config.h"

/*
 * The table of fingerprint keys: the only place a key is spelt.  The
 * order is the order of pmbench-sysinfo(1) and of the listing.
 */

#include <errno.h>
#include <string.h>

#include <jansson.h>

#include "sysinfo/keys.h"
#include "util/table.h"
#include "util.h"

#define HOST "Host"
#define KERNEL "Kernel"
#define CPU "CPU"
#define MITIGATIONS "Mitigations"
#define CLOCKS "Clocks"
#define MEMORY "Memory"
#define PROCESS "Process"
#define PERF "Perf access"
#define UNAVAILABLE "Unavailable items"

/* The entry of constant id; the entry records the constant's name too. */
#define KEY(id, ...) [id] = { #id, __VA_ARGS__ }

static const struct pm_fp_key_info keys[PM_FP_NKEYS] = {
	KEY(PM_FP_HOSTNAME, "hostname", "string", "", HOST,
		"node name from uname(2)"),
	KEY(PM_FP_LIBC, "libc", "string", "", HOST,
		"C library and its version"),
	KEY(PM_FP_PMBENCH_VERSION, "pmbench.version", "string", "", HOST,
		"pmbench version that collected the fingerprint"),
	KEY(PM_FP_PMBENCH_COMPILER, "pmbench.compiler", "string", "", HOST,
		"compiler that built pmbench"),
	KEY(PM_FP_HYPERVISOR_PRESENT, "hypervisor.present", "boolean", "", HOST,
		"whether the kernel runs under a hypervisor"),
	KEY(PM_FP_HYPERVISOR_VENDOR, "hypervisor.vendor", "string", "", HOST,
		"hypervisor signature (CPUID 0x40000000 on x86)"),
	KEY(PM_FP_HYPERVISOR_DMI_VENDOR, "hypervisor.dmi_vendor", "string", "", HOST,
		"system vendor from the DMI tables"),
	KEY(PM_FP_HYPERVISOR_DMI_PRODUCT, "hypervisor.dmi_product", "string", "", HOST,
		"product name from the DMI tables"),
	KEY(PM_FP_HYPERVISOR_COUNTER, "hypervisor.counter", "string", "", HOST,
		"what counted an emulated guest's instructions (pmbench ab's TCG "
		"plugin, its version and QEMU's plugin API): its counts are emulated"),
	KEY(PM_FP_HYPERVISOR_QEMU, "hypervisor.qemu", "string", "", HOST,
		"the QEMU that emulated the guest, as its --version says (pmbench ab, "
		"with emulated counts)"),

	KEY(PM_FP_KERNEL_RELEASE, "kernel.release", "string", "", KERNEL,
		"kernel release (uname -r)"),
	KEY(PM_FP_KERNEL_VERSION, "kernel.version", "string", "", KERNEL,
		"kernel version (uname -v)"),
	KEY(PM_FP_KERNEL_MACHINE, "kernel.machine", "string", "", KERNEL,
		"machine hardware name (uname -m)"),
	KEY(PM_FP_KERNEL_PROC_VERSION, "kernel.proc_version", "string", "", KERNEL,
		"text of /proc/version"),
	KEY(PM_FP_KERNEL_COMPILER, "kernel.compiler", "string", "", KERNEL,
		"compiler that built the kernel"),
	KEY(PM_FP_KERNEL_CMDLINE, "kernel.cmdline", "string", "", KERNEL,
		"kernel command line"),
	KEY(PM_FP_KERNEL_CONFIG_SOURCE, "kernel.config_source", "string", "", KERNEL,
		"file the kernel configuration was read from"),
	KEY(PM_FP_KERNEL_CONFIG, "kernel.config", "object", "", KERNEL,
		"every option set, option name to value string"),
	KEY(PM_FP_KERNEL_TEXT_SIZE, "kernel.text_size", "integer", "bytes", KERNEL,
		"size of the kernel text, _etext minus _stext"),
	KEY(PM_FP_KERNEL_PREEMPTION, "kernel.preemption", "string", "", KERNEL,
		"preemption model"),
	KEY(PM_FP_KERNEL_PREEMPTION_DYNAMIC, "kernel.preemption_dynamic", "string", "",
		KERNEL, "mode in effect on a dynamic-preemption kernel"),
	KEY(PM_FP_KERNEL_HZ, "kernel.hz", "integer", "Hz", KERNEL,
		"timer frequency, CONFIG_HZ"),
	KEY(PM_FP_KERNEL_PAGE_TABLE_LEVELS, "kernel.page_table_levels", "integer", "",
		KERNEL, "levels of page table the kernel uses"),
	KEY(PM_FP_KERNEL_PARAVIRT, "kernel.paravirt", "boolean", "", KERNEL,
		"CONFIG_PARAVIRT=y"),
	KEY(PM_FP_KERNEL_TAINTED, "kernel.tainted", "integer", "", KERNEL,
		"taint mask, 0 when untainted"),

	KEY(PM_FP_CPU_VENDOR, "cpu.vendor", "string", "", CPU,
		"vendor_id of the first processor"),
	KEY(PM_FP_CPU_FAMILY, "cpu.family", "integer", "", CPU,
		"cpu family of the first processor"),
	KEY(PM_FP_CPU_MODEL, "cpu.model", "integer", "", CPU,
		"model of the first processor"),
	KEY(PM_FP_CPU_STEPPING, "cpu.stepping", "integer", "", CPU,
		"stepping of the first processor"),
	KEY(PM_FP_CPU_MODEL_NAME, "cpu.model_name", "string", "", CPU,
		"model name of the first processor"),
	KEY(PM_FP_CPU_MICROCODE, "cpu.microcode", "string", "", CPU,
		"microcode revision of the first processor"),
	KEY(PM_FP_CPU_FLAGS, "cpu.flags", "array of strings", "", CPU,
		"CPU flags (arm64: Features)"),
	KEY(PM_FP_CPU_BUGS, "cpu.bugs", "array of strings", "", CPU,
		"CPU bugs the kernel knows of"),
	KEY(PM_FP_CPU_ONLINE, "cpu.online", "integer", "CPUs", CPU,
		"online CPUs"),
	KEY(PM_FP_CPU_POSSIBLE, "cpu.possible", "integer", "CPUs", CPU,
		"possible CPUs"),
	KEY(PM_FP_CPU_GOVERNOR, "cpu.governor", "string", "", CPU,
		"cpufreq governor of CPU 0"),
	KEY(PM_FP_CPU_CUR_MHZ, "cpu.cur_mhz", "number", "MHz", CPU,
		"current frequency, whole MHz"),
	KEY(PM_FP_CPU_MAX_MHZ, "cpu.max_mhz", "number", "MHz", CPU,
		"maximum frequency, whole MHz"),
	KEY(PM_FP_CPU_SMT, "cpu.smt", "string", "", CPU,
		"simultaneous multithreading control"),
	KEY(PM_FP_CPU_CACHES, "cpu.caches", "array of objects", "", CPU,
		"one object per cache of CPU 0"),
	KEY(PM_FP_CPU_CACHE_LEVEL, "cpu.caches.*.level", "integer", "", CPU,
		"cache level"),
	KEY(PM_FP_CPU_CACHE_TYPE, "cpu.caches.*.type", "string", "", CPU,
		"Data, Instruction or Unified"),
	KEY(PM_FP_CPU_CACHE_SIZE, "cpu.caches.*.size", "integer", "bytes", CPU,
		"cache size"),
	KEY(PM_FP_CPU_CACHE_LINE, "cpu.caches.*.line", "integer", "bytes", CPU,
		"coherency line size"),
	KEY(PM_FP_CPU_CACHE_WAYS, "cpu.caches.*.ways", "integer", "", CPU,
		"associativity"),
	KEY(PM_FP_CPU_CACHE_SHARED_CPU_LIST, "cpu.caches.*.shared_cpu_list", "string",
		"", CPU, "CPUs sharing the cache"),

	KEY(PM_FP_VULNERABILITIES, "vulnerabilities", "object", "", MITIGATIONS,
		"file name under /sys/devices/system/cpu/vulnerabilities to its text"),
	KEY(PM_FP_MITIGATIONS, "mitigations", "string", "", MITIGATIONS,
		"mitigations= kernel parameter, auto when absent"),

	KEY(PM_FP_CLOCKSOURCE_CURRENT, "clocksource.current", "string", "", CLOCKS,
		"clock source in use"),
	KEY(PM_FP_CLOCKSOURCE_AVAILABLE, "clocksource.available", "array of strings",
		"", CLOCKS, "clock sources available"),

	KEY(PM_FP_MEMORY_TOTAL_KB, "memory.total_kb", "integer", "KiB", MEMORY,
		"MemTotal"),
	KEY(PM_FP_MEMORY_NUMA_NODES, "memory.numa_nodes", "integer", "", MEMORY,
		"NUMA nodes, 1 without NUMA support"),
	KEY(PM_FP_THP_ENABLED, "thp.enabled", "string", "", MEMORY,
		"transparent hugepages: selected word of enabled"),
	KEY(PM_FP_THP_DEFRAG, "thp.defrag", "string", "", MEMORY,
		"transparent hugepages: selected word of defrag"),
	KEY(PM_FP_THP_SHMEM_ENABLED, "thp.shmem_enabled", "string", "", MEMORY,
		"transparent hugepages: selected word of shmem_enabled"),

	KEY(PM_FP_PROCESS_TRACER, "process.tracer", "string", "", PROCESS,
		"command name of the process tracing pmbench (TracerPid: strace, gdb), or none"),
	KEY(PM_FP_PROCESS_WRAPPER, "process.wrapper", "string", "", PROCESS,
		"the command pmbench ran under as its child (strace -f, perf stat, taskset ...: "
		"an ancestor whose command line ends with pmbench's), or none"),
	KEY(PM_FP_PROCESS_PRELOAD, "process.preload", "string", "", PROCESS,
		"LD_PRELOAD, or none"),
	KEY(PM_FP_PROCESS_SECCOMP_FILTERS, "process.seccomp_filters", "integer", "", PROCESS,
		"seccomp filters every system call of pmbench passes (/proc/self/status)"),

	KEY(PM_FP_PERF_EVENT_PARANOID, "perf.perf_event_paranoid", "integer", "", PERF,
		"kernel.perf_event_paranoid sysctl"),
	KEY(PM_FP_PERF_KPTR_RESTRICT, "perf.kptr_restrict", "integer", "", PERF,
		"kernel.kptr_restrict sysctl"),
	KEY(PM_FP_PERF_NMI_WATCHDOG, "perf.nmi_watchdog", "integer", "", PERF,
		"kernel.nmi_watchdog sysctl"),
	KEY(PM_FP_PERF_EVENT_MAX_SAMPLE_RATE, "perf.perf_event_max_sample_rate",
		"integer", "Hz", PERF, "kernel.perf_event_max_sample_rate sysctl"),

	KEY(PM_FP_UNAVAILABLE, "unavailable", "object", "", UNAVAILABLE,
		"dotted key of every null item to the reason"),
};

const struct pm_fp_key_info *pm_fp_key_info(enum pm_fp_key k)
{
	return (unsigned)k < PM_FP_NKEYS ? &keys[k] : NULL;
}

const char *pm_fp_key(enum pm_fp_key k)
{
	return (unsigned)k < PM_FP_NKEYS ? keys[k].key : NULL;
}

const char *pm_fp_key_leaf(enum pm_fp_key k)
{
	const char *key = pm_fp_key(k), *dot;

	if (!key)
		return NULL;
	dot = strrchr(key, '.');
	return dot ? dot + 1 : key;
}

/* One part of a dotted path against one part of a key: "*" takes digits. */
static bool part_matches(const char *part, size_t n, const char *pat, size_t pn)
{
	size_t i;

	if (pn == 1 && pat[0] == '*') {
		for (i = 0; i < n; i++)
			if (part[i] < '0' || part[i] > '9')
				return false;
		return n > 0;
	}
	return n == pn && !memcmp(part, pat, n);
}

static bool key_matches(const char *dotted, const char *key)
{
	for (;;) {
		size_t n = strcspn(dotted, "."), pn = strcspn(key, ".");

		if (!part_matches(dotted, n, key, pn))
			return false;
		if (!dotted[n] || !key[pn])
			return !dotted[n] && !key[pn];
		dotted += n + 1;
		key += pn + 1;
	}
}

int pm_fp_key_lookup(const char *dotted)
{
	int k;

	if (!dotted)
		return -ENOENT;
	for (k = 0; k < PM_FP_NKEYS; k++)
		if (key_matches(dotted, keys[k].key))
			return k;
	return -ENOENT;
}

static void print_text(FILE *f)
{
	struct pm_table *t = pm_table_new();
	int k;

	pm_table_add_col(t, "KEY", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "TYPE", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "UNIT", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "DESCRIPTION", NULL, PM_COL_LEFT);
	for (k = 0; k < PM_FP_NKEYS; k++) {
		pm_table_row(t, NULL);
		pm_table_cell(t, 0, keys[k].key, NULL);
		pm_table_cell(t, 1, keys[k].type, NULL);
		pm_table_cell(t, 2, keys[k].unit, NULL);
		pm_table_cell(t, 3, keys[k].description, NULL);
	}
	pm_table_print(t, f, PM_TABLE_TEXT);
	pm_table_free(t);
}

static void print_json(FILE *f)
{
	json_t *a = json_array();
	int k;

	for (k = 0; k < PM_FP_NKEYS; k++)
		json_array_append_new(a, json_pack("{s:s,s:s,s:s,s:s,s:s}",
			"key", keys[k].key, "type", keys[k].type,
			"unit", keys[k].unit, "section", keys[k].section,
			"description", keys[k].description));
	json_dumpf(a, f, JSON_INDENT(1));
	fputc('\n', f);
	json_decref(a);
}

/* Roff text: a backslash is \e; nothing in the table starts a line. */
static void roff_text(FILE *f, const char *s)
{
	for (; *s; s++) {
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else
			fputc(*s, f);
	}
}

static void print_man(FILE *f)
{
	const char *section = NULL;
	int k;

	for (k = 0; k < PM_FP_NKEYS; k++) {
		if (!section || strcmp(section, keys[k].section)) {
			section = keys[k].section;
			fprintf(f, ".SS %s\n", section);
		}
		fputs(".TP\n.B ", f);
		roff_text(f, keys[k].key);
		fputs("\n(", f);
		roff_text(f, keys[k].type);
		if (*keys[k].unit) {
			fputs(", ", f);
			roff_text(f, keys[k].unit);
		}
		fputs(")\n", f);
		roff_text(f, keys[k].description);
		fputs(".\n", f);
	}
}

void pm_fp_keys_print(FILE *f, enum pm_fp_keys_format format)
{
	switch (format) {
	case PM_FP_KEYS_JSON:
		print_json(f);
		break;
	case PM_FP_KEYS_MAN:
		print_man(f);
		break;
	default:
		print_text(f);
		break;
	}
}
