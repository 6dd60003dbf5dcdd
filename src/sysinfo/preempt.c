#include "config.h"

/*
 * kernel.preemption and kernel.preemption_dynamic: the model chosen at
 * build time (config or uname -v) and, for a dynamic kernel, the mode in
 * effect (debugfs).
 */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sysinfo/internal.h"

#define DEBUGFS_PREEMPT "/sys/kernel/debug/sched/preempt"

/*
 * uname -v carries the model chosen at build time: init/Makefile puts
 * PREEMPT, PREEMPT_DYNAMIC, PREEMPT_LAZY or PREEMPT_RT after "SMP".
 * Without any of them the kernel is "none" or "voluntary": unknown.
 */
static const char *preemption_from_uname(const char *v)
{
	int best = 0;	/* 1 full, 2 lazy, 3 dynamic, 4 rt */
	static const char *const names[] = { NULL, "full", "lazy", "dynamic", "rt" };
	const char *p = v;
	bool prev_preempt = false;

	while (p && *p) {
		size_t n;
		int rank = 0;

		p += strspn(p, " \t");
		n = strcspn(p, " \t\n");
		if (n == 0)
			break;
		if (n == 10 && memcmp(p, "PREEMPT_RT", 10) == 0)
			rank = 4;
		else if (n == 2 && memcmp(p, "RT", 2) == 0 && prev_preempt)
			rank = 4;	/* old -rt patches: "PREEMPT RT" */
		else if (n == 15 && memcmp(p, "PREEMPT_DYNAMIC", 15) == 0)
			rank = 3;
		else if (n == 12 && memcmp(p, "PREEMPT_LAZY", 12) == 0)
			rank = 2;
		else if (n == 7 && memcmp(p, "PREEMPT", 7) == 0)
			rank = 1;
		prev_preempt = n == 7 && memcmp(p, "PREEMPT", 7) == 0;
		if (rank > best)
			best = rank;
		p += n;
	}
	return names[best];
}

const char *pm_sysinfo_preemption(const json_t *config,
				  const char *uname_version)
{
	if (config) {
		/* RT kernels also select PREEMPTION (and may be dynamic). */
		if (si_config_is_y(config, "CONFIG_PREEMPT_RT") ||
		    si_config_is_y(config, "CONFIG_PREEMPT_RT_FULL"))
			return "rt";
		if (si_config_is_y(config, "CONFIG_PREEMPT_DYNAMIC"))
			return "dynamic";
		if (si_config_is_y(config, "CONFIG_PREEMPT"))
			return "full";
		if (si_config_is_y(config, "CONFIG_PREEMPT_LAZY"))
			return "lazy";
		if (si_config_is_y(config, "CONFIG_PREEMPT_VOLUNTARY"))
			return "voluntary";
		if (si_config_is_y(config, "CONFIG_PREEMPT_NONE"))
			return "none";
	}
	return preemption_from_uname(uname_version);
}

/* Mode a dynamic-preemption kernel boots in: preempt= or the config. */
static const char *preempt_boot_default(struct si_ctx *c, char *param,
					size_t len)
{
	if (c->cmdline && pm_sysinfo_cmdline_param(c->cmdline, "preempt",
						   param, len) == 0)
		return param;
	if (si_config_is_y(c->config, "CONFIG_PREEMPT_NONE"))
		return "none";
	if (si_config_is_y(c->config, "CONFIG_PREEMPT_VOLUNTARY"))
		return "voluntary";
	if (si_config_is_y(c->config, "CONFIG_PREEMPT_LAZY"))
		return "lazy";
	if (si_config_is_y(c->config, "CONFIG_PREEMPT"))
		return "full";
	return NULL;
}

/* Why debugfs did not give the mode (err from reading it). */
static void dynamic_unavailable(struct si_ctx *c, json_t *k, int err)
{
	const enum pm_fp_key key = PM_FP_KERNEL_PREEMPTION_DYNAMIC;
	char tail[96] = "", param[32];
	const char *def = preempt_boot_default(c, param, sizeof(param));

	if (def)
		snprintf(tail, sizeof(tail), "; the boot default is \"%s\"", def);
	if (err == -ENOENT && access("/sys/kernel/debug/sched", F_OK) != 0)
		si_na(c, k, key, "debugfs is not mounted "
		      "(mount -t debugfs none /sys/kernel/debug as root)%s", tail);
	else if (err == -EACCES)
		si_na(c, k, key, DEBUGFS_PREEMPT " is readable only by root%s", tail);
	else if (err == -EPERM)
		/* Lockdown refuses writable debugfs files even to root. */
		si_na(c, k, key, "kernel lockdown forbids "
		      "reading " DEBUGFS_PREEMPT ", root included%s", tail);
	else
		si_na(c, k, key, DEBUGFS_PREEMPT ": %s%s",
		      err == -ENOENT ? "no selected mode" : strerror(-err), tail);
}

void si_put_preemption(struct si_ctx *c, json_t *k)
{
	const char *model = pm_sysinfo_preemption(c->config,
				c->have_uts ? c->uts.version : NULL);
	char *text, mode[32];
	int err;

	if (!model) {
		si_na(c, k, PM_FP_KERNEL_PREEMPTION, "kernel config unavailable and "
		      "uname -v names no preemption model (none or voluntary)");
		return;
	}
	si_put(k, PM_FP_KERNEL_PREEMPTION, json_string(model));
	if (strcmp(model, "dynamic") != 0)
		return;
	/* The mode can change at run time; only debugfs tells the truth. */
	err = pm_read_file(DEBUGFS_PREEMPT, &text, NULL);
	if (!err) {
		err = si_pick_marked(text, '(', ')', mode, sizeof(mode));
		free(text);
		if (!err) {
			si_put(k, PM_FP_KERNEL_PREEMPTION_DYNAMIC, json_string(mode));
			return;
		}
	}
	dynamic_unavailable(c, k, err);
}
