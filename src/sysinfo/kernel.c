#include "config.h"

/*
 * The kernel: uname, /proc/version, the command line, the configuration
 * and what is derived from it (hz, paravirt, page-table levels).
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/internal.h"

/*
 * "Linux version R (user@host) (gcc (GCC) 12.2.0, GNU ld ...) #1 ...":
 * the compiler is the first parenthesised group without an '@', before
 * the '#' of the build number (the date may have parentheses too).
 */
int pm_sysinfo_kernel_compiler(const char *proc_version, char *out, size_t len)
{
	const char *p = proc_version, *hash;

	if (!p)
		return -ENOENT;
	hash = strstr(p, " #");
	while ((p = strchr(p, '(')) != NULL && (!hash || p < hash)) {
		const char *s = p + 1, *q = s, *cut = NULL;
		int depth = 1;

		for (; *q && depth; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			else if (*q == ',' && depth == 1 && !cut)
				cut = q;	/* ", GNU ld ..." since 5.8 */
		}
		if (depth)
			return -ENOENT;
		size_t n = (size_t)(q - 1 - s);

		if (!memchr(s, '@', n)) {
			if (cut)
				n = (size_t)(cut - s);
			while (n && isspace((unsigned char)s[n - 1]))
				n--;
			if (n == 0)
				return -ENOENT;
			if (n >= len)
				return -ERANGE;
			memcpy(out, s, n);
			out[n] = '\0';
			return 0;
		}
		p = q;
	}
	return -ENOENT;
}

static void put_page_table_levels(struct si_ctx *c, json_t *k)
{
	const enum pm_fp_key key = PM_FP_KERNEL_PAGE_TABLE_LEVELS;
	const char *m = c->have_uts ? c->uts.machine : "";
	const char *v;

	if (strcmp(m, "x86_64") == 0) {
		/* The kernel clears la57 when it does not use 5 levels. */
		if (!si_cpuinfo_str(c, "flags"))
			si_na(c, k, key, "no cpu flags in /proc/cpuinfo (la57 unknown)");
		else
			si_put(k, key, json_integer(si_cpu_has_flag(c, "la57") ? 5 : 4));
		return;
	}
	if (m[0] == 'i' && strcmp(m + 2, "86") == 0) {
		if (!c->config)
			si_na(c, k, key, "kernel config unavailable "
			      "(CONFIG_X86_PAE unknown)");
		else
			si_put(k, key, json_integer(si_config_is_y(c->config,
						"CONFIG_X86_PAE") ? 3 : 2));
		return;
	}
	v = json_string_value(json_object_get(c->config, "CONFIG_PGTABLE_LEVELS"));
	if (v)
		si_put(k, key, json_integer(strtol(v, NULL, 10)));
	else
		si_na(c, k, key, c->config ? "CONFIG_PGTABLE_LEVELS not in the "
		      "kernel config" : "kernel config unavailable");
}

static void put_uname(struct si_ctx *c, json_t *k)
{
	if (c->have_uts) {
		si_put(k, PM_FP_KERNEL_RELEASE, json_string(c->uts.release));
		si_put(k, PM_FP_KERNEL_VERSION, json_string(c->uts.version));
		si_put(k, PM_FP_KERNEL_MACHINE, json_string(c->uts.machine));
	} else {
		si_na(c, k, PM_FP_KERNEL_RELEASE, "uname: %s", strerror(errno));
		si_na(c, k, PM_FP_KERNEL_VERSION, "uname failed");
		si_na(c, k, PM_FP_KERNEL_MACHINE, "uname failed");
	}
}

static void put_proc_version(struct si_ctx *c, json_t *k)
{
	char *text, why[1024], buf[512];
	int err = pm_read_file("/proc/version", &text, NULL);

	if (!err) {
		si_put(k, PM_FP_KERNEL_PROC_VERSION, json_string(pm_strtrim(text)));
		if (pm_sysinfo_kernel_compiler(text, buf, sizeof(buf)) == 0)
			si_put(k, PM_FP_KERNEL_COMPILER, json_string(buf));
		else
			si_na(c, k, PM_FP_KERNEL_COMPILER, "no compiler found in "
			      "/proc/version");
		free(text);
	} else {
		si_file_reason(why, sizeof(why), "/proc/version", err);
		si_na(c, k, PM_FP_KERNEL_PROC_VERSION, "%s", why);
		si_na(c, k, PM_FP_KERNEL_COMPILER, "%s", why);
	}
}

/* kernel.config and its source; c->config borrows the object. */
static void put_config(struct si_ctx *c, json_t *k)
{
	char *text, why[1024], source[320];
	json_t *config = NULL;

	text = si_read_kernel_config(c, source, sizeof(source), why, sizeof(why));
	if (text) {
		config = pm_sysinfo_parse_config(text);
		free(text);
		si_put(k, PM_FP_KERNEL_CONFIG_SOURCE, json_string(source));
		si_put(k, PM_FP_KERNEL_CONFIG, config);
	} else {
		si_na(c, k, PM_FP_KERNEL_CONFIG_SOURCE, "%s", why);
		si_na(c, k, PM_FP_KERNEL_CONFIG, "%s", why);
	}
	c->config = config;
}

json_t *si_collect_kernel(struct si_ctx *c)
{
	json_t *k = json_object();
	char why[1024];
	const char *hz;

	put_uname(c, k);
	put_proc_version(c, k);
	if (c->cmdline) {
		si_put(k, PM_FP_KERNEL_CMDLINE, json_string(c->cmdline));
	} else {
		si_file_reason(why, sizeof(why), "/proc/cmdline", c->cmdline_err);
		si_na(c, k, PM_FP_KERNEL_CMDLINE, "%s", why);
	}
	put_config(c, k);
	si_put_text_size(c, k);
	si_put_preemption(c, k);

	hz = json_string_value(json_object_get(c->config, "CONFIG_HZ"));
	if (hz)
		si_put(k, PM_FP_KERNEL_HZ, json_integer(strtol(hz, NULL, 10)));
	else
		si_na(c, k, PM_FP_KERNEL_HZ, c->config ? "CONFIG_HZ not in the kernel "
		      "config" : "kernel config unavailable");

	put_page_table_levels(c, k);

	if (c->config)
		si_put(k, PM_FP_KERNEL_PARAVIRT, json_boolean(
			si_config_is_y(c->config, "CONFIG_PARAVIRT")));
	else
		si_na(c, k, PM_FP_KERNEL_PARAVIRT, "kernel config unavailable");

	si_put_long(c, k, PM_FP_KERNEL_TAINTED, "/proc/sys/kernel/tainted", NULL);
	return k;
}
