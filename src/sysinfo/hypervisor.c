#include "config.h"

/* Virtualization: the hypervisor (CPUID or /sys/hypervisor) and DMI. */

#include <ctype.h>
#include <string.h>
#include <unistd.h>
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "sysinfo/internal.h"

#if defined(__x86_64__) || defined(__i386__)
static void put_hypervisor(struct si_ctx *c, json_t *o)
{
	unsigned int eax, ebx, ecx, edx;
	bool present = false;
	char sig[13];

	if (__get_cpuid_max(0, NULL) >= 1) {
		__cpuid(1, eax, ebx, ecx, edx);
		present = (ecx >> 31) & 1;
	}
	si_put(o, PM_FP_HYPERVISOR_PRESENT, json_boolean(present));
	if (!present) {
		si_na(c, o, PM_FP_HYPERVISOR_VENDOR, "no hypervisor (CPUID.1:ECX bit 31 "
		      "is clear)");
		return;
	}
	/* Leaf 0x40000000 exists whenever the hypervisor bit is set. */
	__cpuid(0x40000000, eax, ebx, ecx, edx);
	memcpy(sig, &ebx, 4);
	memcpy(sig + 4, &ecx, 4);
	memcpy(sig + 8, &edx, 4);
	sig[12] = '\0';
	for (int i = 0; i < 12; i++)
		if (sig[i] && !isprint((unsigned char)sig[i]))
			sig[i] = '?';
	if (*pm_strtrim(sig))
		si_put(o, PM_FP_HYPERVISOR_VENDOR, json_string(pm_strtrim(sig)));
	else
		si_na(c, o, PM_FP_HYPERVISOR_VENDOR, "CPUID 0x40000000 gives an "
		      "empty signature");
}
#else
static void put_hypervisor(struct si_ctx *c, json_t *o)
{
	char buf[128];

	if (pm_read_line("/sys/hypervisor/type", buf, sizeof(buf)) == 0) {
		si_put(o, PM_FP_HYPERVISOR_PRESENT, json_true());
		si_put(o, PM_FP_HYPERVISOR_VENDOR, json_string(pm_strtrim(buf)));
	} else {
		si_put(o, PM_FP_HYPERVISOR_PRESENT, json_false());
		si_na(c, o, PM_FP_HYPERVISOR_VENDOR, "/sys/hypervisor/type does not "
		      "exist (no hypervisor detected)");
	}
}
#endif

json_t *si_collect_hypervisor(struct si_ctx *c)
{
	static const char no_dmi[] = "no DMI/SMBIOS tables (/sys/class/dmi/id "
		"is missing; usual in microVMs and on non-x86)";
	json_t *o = json_object();

	put_hypervisor(c, o);
	if (access("/sys/class/dmi/id", F_OK) == 0) {
		si_put_line(c, o, PM_FP_HYPERVISOR_DMI_VENDOR,
			    "/sys/class/dmi/id/sys_vendor", NULL);
		si_put_line(c, o, PM_FP_HYPERVISOR_DMI_PRODUCT,
			    "/sys/class/dmi/id/product_name", NULL);
	} else {
		si_na(c, o, PM_FP_HYPERVISOR_DMI_VENDOR, "%s", no_dmi);
		si_na(c, o, PM_FP_HYPERVISOR_DMI_PRODUCT, "%s", no_dmi);
	}
	/* pmbench ab sets them in the results of the guests it counted */
	si_na(c, o, PM_FP_HYPERVISOR_COUNTER, "no emulated counts: set by pmbench ab for "
	      "guests its TCG plugin counted");
	si_na(c, o, PM_FP_HYPERVISOR_QEMU, "no emulated counts: set by pmbench ab for "
	      "guests its TCG plugin counted");
	return o;
}
