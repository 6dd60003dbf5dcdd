#include "config.h"

/* The text report of pmbench sysinfo: sections of aligned label/value rows. */

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/sysinfo.h"
#include "util/table.h"

#define LABEL_WIDTH 20
#define WRAP_COLUMN 79

static const char *reason_of(const json_t *si, enum pm_fp_key k)
{
	const char *r = json_string_value(json_object_get(
		pm_sysinfo_at(si, PM_FP_UNAVAILABLE), pm_fp_key(k)));

	return r ? r : "no reason recorded";
}

/* "  label   text", wrapping text at spaces under the value column:
 * a row of the shared table printer with the label column fixed. */
static void row_text_w(FILE *f, int width, const char *label, const char *text)
{
	struct pm_table *t = pm_table_new();

	pm_table_no_head(t);
	pm_table_indent(t, 2);
	pm_table_wrap_at(t, WRAP_COLUMN);
	pm_table_add_col(t, "", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "", NULL, PM_COL_LEFT | PM_COL_WRAP);
	/* the table puts two blanks between columns; the label had one */
	pm_table_min_width(t, 0, (size_t)(width > 0 ? width - 1 : 0));
	pm_table_row(t, NULL);
	pm_table_cell(t, 0, label, NULL);
	pm_table_cell(t, 1, text, NULL);
	pm_table_print(t, f, PM_TABLE_TEXT);
	pm_table_free(t);
}

static void row_text(FILE *f, const char *label, const char *text)
{
	row_text_w(f, LABEL_WIDTH, label, text);
}

static void row_fmt(FILE *f, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void row_fmt(FILE *f, const char *label, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	row_text(f, label, s ? s : "?");
	free(s);
}

/* Prints "unavailable: why" and returns true when the item is null. */
static bool row_null(FILE *f, const json_t *si, const char *label,
		     enum pm_fp_key k)
{
	const json_t *v = pm_sysinfo_at(si, k);

	if (v && !json_is_null(v))
		return false;
	if (v)
		row_fmt(f, label, "unavailable: %s", reason_of(si, k));
	return true;
}

/* Generic row for a key; absent keys (old results) are skipped. */
static void row(FILE *f, const json_t *si, const char *label, enum pm_fp_key k)
{
	const json_t *v = pm_sysinfo_at(si, k);
	size_t i;

	if (!v || row_null(f, si, label, k))
		return;
	switch (json_typeof(v)) {
	case JSON_STRING:
		row_text(f, label, *json_string_value(v) ?
			 json_string_value(v) : "(empty)");
		break;
	case JSON_INTEGER:
		row_fmt(f, label, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		row_fmt(f, label, "%.0f", json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		row_text(f, label, json_is_true(v) ? "yes" : "no");
		break;
	case JSON_ARRAY: {
		struct pm_buf s = PM_BUF_INIT;

		for (i = 0; i < json_array_size(v); i++) {
			const char *w = json_string_value(json_array_get(v, i));

			pm_buf_addf(&s, "%s%s", i ? " " : "", w ? w : "?");
		}
		row_text(f, label, s.len ? pm_buf_str(&s) : "(none)");
		pm_buf_free(&s);
		break;
	}
	default:
		row_text(f, label, "?");
		break;
	}
}

static const char *str_at(const json_t *si, enum pm_fp_key k)
{
	return json_string_value(pm_sysinfo_at(si, k));
}

static bool int_at(const json_t *si, enum pm_fp_key k, long long *out)
{
	const json_t *v = pm_sysinfo_at(si, k);

	if (!json_is_integer(v))
		return false;
	*out = json_integer_value(v);
	return true;
}

static void fmt_bytes(char *buf, size_t len, long long b)
{
	if (b >= (1LL << 30) && b % (1LL << 30) == 0)
		snprintf(buf, len, "%lld GiB", b >> 30);
	else if (b >= (1LL << 30))
		snprintf(buf, len, "%.1f GiB", b / (double)(1LL << 30));
	else if (b >= (1LL << 20) && b % (1LL << 20) == 0)
		snprintf(buf, len, "%lld MiB", b >> 20);
	else if (b >= (1LL << 20))
		snprintf(buf, len, "%.1f MiB", b / (double)(1LL << 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%lld KiB", b >> 10);
	else
		snprintf(buf, len, "%lld B", b);
}

static void print_kernel(const json_t *si, FILE *f)
{
	const json_t *cfg = pm_sysinfo_at(si, PM_FP_KERNEL_CONFIG);
	char size[32];
	long long n;

	fprintf(f, "kernel\n");
	row(f, si, "release", PM_FP_KERNEL_RELEASE);
	row(f, si, "version", PM_FP_KERNEL_VERSION);
	row(f, si, "machine", PM_FP_KERNEL_MACHINE);
	row(f, si, "compiler", PM_FP_KERNEL_COMPILER);
	row(f, si, "cmdline", PM_FP_KERNEL_CMDLINE);
	if (json_is_object(cfg))
		row_fmt(f, "config", "%zu options from %s", json_object_size(cfg),
			str_at(si, PM_FP_KERNEL_CONFIG_SOURCE) ?
			str_at(si, PM_FP_KERNEL_CONFIG_SOURCE) : "?");
	else
		row_null(f, si, "config", PM_FP_KERNEL_CONFIG);
	if (int_at(si, PM_FP_KERNEL_TEXT_SIZE, &n)) {
		fmt_bytes(size, sizeof(size), n);
		row_fmt(f, "text size", "%s (%lld bytes)", size, n);
	} else {
		row_null(f, si, "text size", PM_FP_KERNEL_TEXT_SIZE);
	}
	row(f, si, "preemption", PM_FP_KERNEL_PREEMPTION);
	row(f, si, "preemption mode", PM_FP_KERNEL_PREEMPTION_DYNAMIC);
	row(f, si, "hz", PM_FP_KERNEL_HZ);
	row(f, si, "page table levels", PM_FP_KERNEL_PAGE_TABLE_LEVELS);
	row(f, si, "paravirt", PM_FP_KERNEL_PARAVIRT);
	row(f, si, "tainted", PM_FP_KERNEL_TAINTED);
}

/* Member k of one element of an array of objects (cpu.caches.*.ways). */
static const json_t *member(const json_t *elem, enum pm_fp_key k)
{
	return json_object_get(elem, pm_fp_key_leaf(k));
}

static void print_caches(const json_t *si, FILE *f)
{
	const json_t *a = pm_sysinfo_at(si, PM_FP_CPU_CACHES);
	const char *label = "caches";
	size_t i;

	if (!json_is_array(a)) {
		row_null(f, si, "caches", PM_FP_CPU_CACHES);
		return;
	}
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *c = json_array_get(a, i);
		const char *type = json_string_value(member(c, PM_FP_CPU_CACHE_TYPE));
		const char *shared = json_string_value(
			member(c, PM_FP_CPU_CACHE_SHARED_CPU_LIST));
		json_int_t level = json_integer_value(member(c, PM_FP_CPU_CACHE_LEVEL));
		json_int_t line = json_integer_value(member(c, PM_FP_CPU_CACHE_LINE));
		json_int_t ways = json_integer_value(member(c, PM_FP_CPU_CACHE_WAYS));
		char size[32];

		fmt_bytes(size, sizeof(size),
			  json_integer_value(member(c, PM_FP_CPU_CACHE_SIZE)));
		row_fmt(f, label, "L%" JSON_INTEGER_FORMAT "%s %s, %"
			JSON_INTEGER_FORMAT "-way, %" JSON_INTEGER_FORMAT
			" B lines, cpus %s", level,
			!type ? "?" : !strcmp(type, "Data") ? "d" :
			!strcmp(type, "Instruction") ? "i" : "",
			size, ways, line, shared ? shared : "?");
		label = "";
	}
}

static void print_cpu(const json_t *si, FILE *f)
{
	long long fam, model, step, online, possible;

	fprintf(f, "cpu\n");
	row(f, si, "model name", PM_FP_CPU_MODEL_NAME);
	if (int_at(si, PM_FP_CPU_FAMILY, &fam) && int_at(si, PM_FP_CPU_MODEL, &model) &&
	    int_at(si, PM_FP_CPU_STEPPING, &step))
		row_fmt(f, "vendor", "%s, family %lld, model %lld, stepping %lld",
			str_at(si, PM_FP_CPU_VENDOR) ? str_at(si, PM_FP_CPU_VENDOR) : "?",
			fam, model, step);
	else
		row(f, si, "vendor", PM_FP_CPU_VENDOR);
	row(f, si, "microcode", PM_FP_CPU_MICROCODE);
	if (int_at(si, PM_FP_CPU_ONLINE, &online) &&
	    int_at(si, PM_FP_CPU_POSSIBLE, &possible))
		row_fmt(f, "cpus", "%lld online, %lld possible", online, possible);
	else {
		row(f, si, "cpus online", PM_FP_CPU_ONLINE);
		row(f, si, "cpus possible", PM_FP_CPU_POSSIBLE);
	}
	row(f, si, "smt", PM_FP_CPU_SMT);
	print_caches(si, f);
	row(f, si, "flags", PM_FP_CPU_FLAGS);
	row(f, si, "bugs", PM_FP_CPU_BUGS);
}

static void print_mitigations(const json_t *si, FILE *f)
{
	const json_t *v = pm_sysinfo_at(si, PM_FP_VULNERABILITIES);
	const char *name;
	const json_t *text;
	int width = LABEL_WIDTH;

	fprintf(f, "mitigations\n");
	json_object_foreach((json_t *)v, name, text)
		if ((int)strlen(name) > width)
			width = (int)strlen(name);
	if (pm_sysinfo_at(si, PM_FP_MITIGATIONS)) {
		if (str_at(si, PM_FP_MITIGATIONS))
			row_text_w(f, width, "mitigations=",
				   str_at(si, PM_FP_MITIGATIONS));
		else
			row_null(f, si, "mitigations=", PM_FP_MITIGATIONS);
	}
	if (!json_is_object(v)) {
		row_null(f, si, "vulnerabilities", PM_FP_VULNERABILITIES);
		return;
	}
	json_object_foreach((json_t *)v, name, text)
		row_text_w(f, width, name, json_string_value(text) ?
			   json_string_value(text) : "?");
}

static void print_clocks(const json_t *si, FILE *f)
{
	fprintf(f, "clocks\n");
	row(f, si, "clocksource", PM_FP_CLOCKSOURCE_CURRENT);
	row(f, si, "available", PM_FP_CLOCKSOURCE_AVAILABLE);
	row(f, si, "cpufreq governor", PM_FP_CPU_GOVERNOR);
	row(f, si, "current MHz", PM_FP_CPU_CUR_MHZ);
	row(f, si, "max MHz", PM_FP_CPU_MAX_MHZ);
}

static void print_memory(const json_t *si, FILE *f)
{
	long long kb;
	char size[32];

	fprintf(f, "memory\n");
	if (int_at(si, PM_FP_MEMORY_TOTAL_KB, &kb)) {
		fmt_bytes(size, sizeof(size), kb * 1024);
		row_fmt(f, "total", "%s (%lld kB)", size, kb);
	} else {
		row_null(f, si, "total", PM_FP_MEMORY_TOTAL_KB);
	}
	row(f, si, "numa nodes", PM_FP_MEMORY_NUMA_NODES);
	row(f, si, "thp enabled", PM_FP_THP_ENABLED);
	row(f, si, "thp defrag", PM_FP_THP_DEFRAG);
	row(f, si, "thp shmem", PM_FP_THP_SHMEM_ENABLED);
}

/* The CPUID vendor signature is 12 bytes: bhyve's is "bhyve bhyve ",
 * one name said twice; say it once. */
static void vendor_row(FILE *f, const char *v)
{
	char *s = pm_xstrdup(v);
	size_t n = strlen(s);

	while (n && s[n - 1] == ' ')
		s[--n] = '\0';
	if (n % 2 && s[n / 2] == ' ' && !strncmp(s, s + n / 2 + 1, n / 2))
		s[n / 2] = '\0';
	row_text(f, "hypervisor", *s ? s : "(empty)");
	free(s);
}

static void print_host(const json_t *si, FILE *f)
{
	const json_t *present = pm_sysinfo_at(si, PM_FP_HYPERVISOR_PRESENT);

	fprintf(f, "host\n");
	row(f, si, "hostname", PM_FP_HOSTNAME);
	if (json_is_false(present))
		row_text(f, "hypervisor", "none");
	else if (str_at(si, PM_FP_HYPERVISOR_VENDOR))
		vendor_row(f, str_at(si, PM_FP_HYPERVISOR_VENDOR));
	else
		row(f, si, "hypervisor", PM_FP_HYPERVISOR_VENDOR);
	row(f, si, "dmi vendor", PM_FP_HYPERVISOR_DMI_VENDOR);
	row(f, si, "dmi product", PM_FP_HYPERVISOR_DMI_PRODUCT);
	row(f, si, "libc", PM_FP_LIBC);
	if (str_at(si, PM_FP_PMBENCH_VERSION))
		row_fmt(f, "pmbench", "%s (%s)", str_at(si, PM_FP_PMBENCH_VERSION),
			str_at(si, PM_FP_PMBENCH_COMPILER) ?
			str_at(si, PM_FP_PMBENCH_COMPILER) : "?");
}

void pm_sysinfo_print(const json_t *si, FILE *f)
{
	if (!json_is_object(si))
		return;
	print_host(si, f);
	print_kernel(si, f);
	print_cpu(si, f);
	print_mitigations(si, f);
	print_clocks(si, f);
	print_memory(si, f);
	fprintf(f, "process\n");
	row(f, si, "tracer", PM_FP_PROCESS_TRACER);
	row(f, si, "wrapper", PM_FP_PROCESS_WRAPPER);
	row(f, si, "LD_PRELOAD", PM_FP_PROCESS_PRELOAD);
	row(f, si, "seccomp filters", PM_FP_PROCESS_SECCOMP_FILTERS);
	fprintf(f, "perf access\n");
	row(f, si, "perf_event_paranoid", PM_FP_PERF_EVENT_PARANOID);
	row(f, si, "kptr_restrict", PM_FP_PERF_KPTR_RESTRICT);
	row(f, si, "nmi_watchdog", PM_FP_PERF_NMI_WATCHDOG);
	row(f, si, "max sample rate", PM_FP_PERF_EVENT_MAX_SAMPLE_RATE);
}
