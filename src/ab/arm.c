/* An arm of the experiment: what its guests boot (pmbench-ab(1)). */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab/ab.h"
#include "ab/emulated.h"
#include "counters/counters.h"
#include "results/result.h"

/* Where the arm's symbols come from: --vmlinux-X, else its build tree's
 * vmlinux, else the debug package's. */
static int arm_vmlinux(struct pm_ab_arm *a, const char *given, const char *scratch,
		       char **guest_path, struct pm_err *e)
{
	char *dbg = pm_xasprintf("/usr/lib/debug/boot/vmlinux-%s", a->release);
	char *built = a->tree ? pm_xasprintf("%s/vmlinux", a->tree) : NULL;
	int err = 0;

	*guest_path = NULL;
	if (given)
		a->vmlinux_from = pm_xstrdup(given);
	else if (built && access(built, R_OK) == 0)
		a->vmlinux_from = pm_xstrdup(built);
	else if (access(dbg, R_OK) == 0)
		a->vmlinux_from = pm_xstrdup(dbg);
	if (a->vmlinux_from) {
		a->vmlinux = pm_xasprintf("%s/vmlinux-%s", scratch, a->tag);
		err = pm_vmlinux_strip(a->vmlinux_from, a->vmlinux, e);
		if (!err)
			*guest_path = pm_xasprintf("/usr/lib/debug/boot/vmlinux-%s", a->release);
	}
	free(dbg);
	free(built);
	return err;
}

/* A build tree's kernel with virtio-pci and virtio-blk built in needs no
 * modules to hand its result back over the disk. */
static bool virtio_built_in(const char *config)
{
	char *text = NULL, *lines;
	size_t len;
	bool yes;

	if (pm_read_file_max(config, 1 << 22, &text, &len))
		return false;
	lines = pm_xasprintf("\n%s\n", text);
	yes = strstr(lines, "\nCONFIG_VIRTIO_PCI=y\n") && strstr(lines, "\nCONFIG_VIRTIO_BLK=y\n");
	free(lines);
	free(text);
	return yes;
}

/* The modules directory: a tree's own (make modules_install
 * INSTALL_MOD_PATH=TREE), else the installed kernel's. */
static char *arm_moddir(const struct pm_ab_arm *a)
{
	char *own = a->tree ? pm_xasprintf("%s/lib/modules/%s/modules.dep", a->tree,
					   a->release) : NULL;

	if (own && access(own, R_OK) == 0) {
		*strrchr(own, '/') = '\0';
		return own;
	}
	free(own);
	return pm_xasprintf("/lib/modules/%s", a->release);
}

static int arm_initramfs(struct pm_ab_arm *a, struct pm_guest_spec *g, const char *scratch,
			 struct pm_err *e)
{
	struct pm_initramfs ir;
	int err;

	if (access(g->init, X_OK))
		return pm_err_set(e, -ENOENT, "%s: %s (run from the build tree or install "
				  "pmbench)", g->init, strerror(errno));
	err = pm_guest_initramfs(&ir, g, e);
	if (!err) {
		a->initrd = pm_xasprintf("%s/initrd-%s.cpio", scratch, a->tag);
		err = pm_initramfs_write(&ir, a->initrd, e);
		pm_initramfs_free(&ir);
	}
	return err;
}

int pm_ab_arm_prepare(struct pm_ab_arm *a, const struct pm_ab_opts *o, const char *vmlinux,
		      const char *scratch, struct pm_err *e)
{
	static const char *const virtio[] = { "virtio_pci", "virtio_blk", NULL };
	struct pm_guest_spec g = { 0 };
	char **modules = NULL, *moddir, *config, *guest_vmlinux = NULL, exe[4096];
	struct pm_err me;
	ssize_t n;
	int err;

	err = pm_kernel_image_release(a->kernel, a->release, sizeof(a->release), e);
	if (err)
		return err;
	moddir = arm_moddir(a);
	config = a->tree ? pm_xasprintf("%s/.config", a->tree) :
		 pm_xasprintf("/boot/config-%s", a->release);
	a->have_config = access(config, R_OK) == 0;
	if (!pm_kernel_modules_resolve(moddir, virtio, &modules, &me))
		a->have_modules = true;
	else if (a->tree && a->have_config && virtio_built_in(config))
		a->have_modules = true;		/* nothing to load */
	else
		snprintf(a->modules_why, sizeof(a->modules_why), "%s", me.msg);
	err = arm_vmlinux(a, vmlinux, scratch, &guest_vmlinux, e);
	n = err ? 0 : readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (!err && n <= 0)
		err = pm_err_set(e, -errno, "/proc/self/exe: %s", strerror(errno));
	if (!err) {
		exe[n] = '\0';
		g.release = a->release;
		g.moddir = a->have_modules && modules ? moddir : NULL;
		g.modules = modules;
		g.config = a->have_config ? config : NULL;
		g.vmlinux = a->vmlinux;
		g.init = pm_xasprintf("%s/pmbench-guest-init", pm_libexecdir());
		g.pmbench = exe;
		g.libexecdir = pm_libexecdir();
		g.eventsdir = pm_aliases_default_dir();
		g.shell = access("/bin/sh", X_OK) == 0 ? "/bin/sh" : NULL;
		g.argv = pm_ab_guest_argv(o, a->label, guest_vmlinux);
		err = arm_initramfs(a, &g, scratch, e);
		free((char *)g.init);
		pm_strv_free(g.argv);
	}
	pm_strv_free(modules);
	free(moddir);
	free(config);
	free(guest_vmlinux);
	return err;
}

void pm_ab_arm_free(struct pm_ab_arm *a)
{
	size_t i;

	for (i = 0; i < a->nruns; i++)
		pm_result_free(&a->runs[i]);
	free(a->runs);
	free(a->name);
	free(a->label);
	free(a->tag);
	free(a->append);
	free(a->initrd);
	free(a->vmlinux);
	free(a->vmlinux_from);
	if (a->ksyms)
		pm_ab_ksyms_free(a->ksyms);
	free(a->ksyms);
	free(a->image);
	free(a->tree);
	free(a->describe);
	memset(a, 0, sizeof(*a));
}

void pm_ab_add_run(struct pm_ab_arm *a, struct pm_result *r)
{
	a->runs = pm_xgrow(a->runs, a->nruns, sizeof(*a->runs));
	a->runs[a->nruns++] = *r;
}
