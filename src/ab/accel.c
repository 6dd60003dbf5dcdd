/*
 * KVM or TCG.  KVM only when the host can run a stock kernel under it:
 * /dev/kvm, hardware virtualization (vmx/svm) and not a paravirtual KVM
 * such as PVM (module kvm_pvm), which runs only kernels built for it: a
 * stock kernel under it prints nothing and hangs.  Even then a KVM boot
 * that shows no kernel output in time, or a KVM error, falls back to TCG.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab/ab.h"

const char *pm_accel_name(enum pm_accel a)
{
	switch (a) {
	case PM_ACCEL_KVM:
		return "kvm";
	case PM_ACCEL_TCG:
		return "tcg";
	default:
		return "auto";
	}
}

/* Is word one of the words of the "flags" lines of cpuinfo text? */
static bool has_flag(const char *cpuinfo, const char *word)
{
	const char *line = cpuinfo;
	size_t wl = strlen(word);

	while (line && *line) {
		const char *end = strchr(line, '\n'), *p;
		size_t n = end ? (size_t)(end - line) : strlen(line);

		if (!strncmp(line, "flags", 5)) {
			for (p = line; p && p < line + n; p++) {
				p = memmem(p, (size_t)(line + n - p), word, wl);
				if (!p)
					break;
				if (p > line && (p[-1] == ' ' || p[-1] == '\t') &&
				    (p + wl == line + n || p[wl] == ' ' || p[wl] == '\n'))
					return true;
			}
		}
		line = end ? end + 1 : NULL;
	}
	return false;
}

void pm_kvm_host_probe(struct pm_kvm_host *h, const char *root)
{
	static const char *const modules[] = { "kvm_pvm", "kvm_intel", "kvm_amd" };
	char *path, *text;
	size_t i;
	int fd;

	memset(h, 0, sizeof(*h));
	if (!root)
		root = "";
	path = pm_xasprintf("%s/dev/kvm", root);
	fd = open(path, O_RDWR | O_CLOEXEC);
	h->dev_kvm = fd >= 0;
	if (fd >= 0)
		close(fd);
	free(path);
	path = pm_xasprintf("%s/proc/cpuinfo", root);
	if (!pm_read_file(path, &text, NULL)) {
		h->hw_virt = has_flag(text, "vmx") || has_flag(text, "svm");
		free(text);
	}
	free(path);
	for (i = 0; i < PM_ARRAY_SIZE(modules) && !h->module[0]; i++) {
		struct stat st;

		path = pm_xasprintf("%s/sys/module/%s", root, modules[i]);
		if (stat(path, &st) == 0)
			snprintf(h->module, sizeof(h->module), "%s", modules[i]);
		free(path);
	}
}

enum pm_accel pm_accel_choose(const struct pm_kvm_host *h, char *why, size_t len)
{
	if (!h->dev_kvm) {
		snprintf(why, len, "no usable /dev/kvm");
		return PM_ACCEL_TCG;
	}
	if (!strcmp(h->module, "kvm_pvm")) {
		snprintf(why, len, "/dev/kvm is PVM (module kvm_pvm): it runs only "
			 "PVM-enabled guest kernels");
		return PM_ACCEL_TCG;
	}
	if (!h->hw_virt) {
		snprintf(why, len, "no vmx or svm among the CPU flags: /dev/kvm cannot "
			 "run a stock guest kernel");
		return PM_ACCEL_TCG;
	}
	snprintf(why, len, "/dev/kvm with %s", h->module[0] ? h->module : "hardware virtualization");
	return PM_ACCEL_KVM;
}

bool pm_console_has_kernel(const char *console)
{
	/* the first lines of a kernel log: its banner, or timestamps */
	return console && (strstr(console, "Linux version") || strstr(console, "[    0."));
}

bool pm_kvm_boot_failed(const char *console, const char *qemu_err, double elapsed_s,
			double probe_s, bool exited, int exit_status,
			char *why, size_t len)
{
	static const char *const errors[] = {
		"KVM internal error", "failed to initialize kvm", "failed to initialize KVM",
		"Could not access KVM kernel module", "kvm run failed", "KVM_RUN failed",
		"KVM: entry failed",
	};
	size_t i;

	for (i = 0; qemu_err && i < PM_ARRAY_SIZE(errors); i++)
		if (strstr(qemu_err, errors[i])) {
			const char *at = strstr(qemu_err, errors[i]);
			const char *nl = strchr(at, '\n');

			snprintf(why, len, "QEMU: %.*s", nl ? (int)(nl - at) : 200, at);
			return true;
		}
	if (pm_console_has_kernel(console))
		return false;
	if (exited && exit_status != 0) {
		snprintf(why, len, "QEMU exited with status %d before the kernel printed "
			 "anything", exit_status);
		return true;
	}
	if (elapsed_s >= probe_s) {
		snprintf(why, len, "no kernel output on the console within %.0f s", probe_s);
		return true;
	}
	return false;
}
