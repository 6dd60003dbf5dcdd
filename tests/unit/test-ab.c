/*
 * pmbench ab without QEMU: the initramfs (written, then parsed back),
 * module order, kernel release, KVM or TCG and the fallback to TCG, the
 * guest's hand-back, the command line, QEMU's arguments, a vmlinux's
 * symbols-only copy; the engine: a fatal start ends the experiment.
 */
#include "config.h"

#include <check.h>
#include <math.h>
#include <errno.h>
#include <stdarg.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab/ab.h"
#include "ab/engine.h"
#include "ab/guest.h"
#include "symbols/symbols.h"

/* ---- helpers ---- */

static char tmpdir[256];

static void make_tmp(void)
{
	snprintf(tmpdir, sizeof(tmpdir), "%s/test-ab.XXXXXX",
		 getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp");
	ck_assert_ptr_nonnull(mkdtemp(tmpdir));
}

static void rm_tmp(void)
{
	pm_rmtree(tmpdir);
}

static char *tpath(const char *name)
{
	return pm_xasprintf("%s/%s", tmpdir, name);
}

static void write_file(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "wb");

	ck_assert_ptr_nonnull(f);
	ck_assert_uint_eq(fwrite(data, 1, len, f), len);
	ck_assert_int_eq(fclose(f), 0);
}

static void write_text(const char *path, const char *text)
{
	write_file(path, text, strlen(text));
}

static char *slurp(const char *path, size_t *len)
{
	char *buf;

	ck_assert_int_eq(pm_read_file(path, &buf, len), 0);
	return buf;
}

/* Every entry of an archive, in order; the trailer must end it. */
struct parsed {
	struct pm_cpio_entry v[512];
	size_t n;
	char *buf;
};

static void parse_archive(const char *path, struct parsed *p)
{
	size_t len, off = 0;
	int r;

	p->buf = slurp(path, &len);
	p->n = 0;
	ck_assert_uint_eq(len % 4, 0);
	for (;;) {
		ck_assert_uint_lt(p->n, PM_ARRAY_SIZE(p->v));
		r = pm_cpio_next(p->buf, len, &off, &p->v[p->n]);
		ck_assert_int_ge(r, 0);
		if (r == 1)
			break;
		p->n++;
	}
	ck_assert_uint_eq(off, len);	/* nothing after the trailer */
}

static const struct pm_cpio_entry *entry(const struct parsed *p, const char *name)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (!strcmp(p->v[i].name, name))
			return &p->v[i];
	return NULL;
}

/* ---- the archive ---- */

START_TEST(test_cpio_roundtrip)
{
	struct pm_initramfs ir = { 0 };
	struct parsed p;
	const struct pm_cpio_entry *e;
	char *src, *out, *host;
	size_t hlen;
	struct pm_err err;

	make_tmp();
	src = tpath("src.txt");
	out = tpath("a.cpio");
	write_text(src, "hello from the host\n");
	pm_initramfs_add_dir(&ir, "/usr/share/x");
	pm_initramfs_add_file(&ir, "usr/share/x/copy.txt", 0640, src);
	pm_initramfs_add_data(&ir, "etc/abc", 0600, "abc", 3);
	pm_initramfs_add_data(&ir, "etc/empty", 0644, "", 0);
	pm_initramfs_add_symlink(&ir, "bin/link", "/usr/share/x/copy.txt");
	pm_initramfs_add_chardev(&ir, "dev/console", 0600, 5, 1);
	/* a directory named twice is one entry */
	pm_initramfs_add_dir(&ir, "usr/share");
	ck_assert_int_eq(pm_initramfs_write(&ir, out, &err), 0);
	parse_archive(out, &p);

	/* parents first, each once */
	ck_assert_uint_eq(p.n, 11);
	ck_assert_str_eq(p.v[0].name, "usr");
	ck_assert_str_eq(p.v[1].name, "usr/share");
	ck_assert_str_eq(p.v[2].name, "usr/share/x");
	ck_assert_uint_eq(p.v[0].mode, S_IFDIR | 0755);
	ck_assert_uint_eq(p.v[0].nlink, 2);
	e = entry(&p, "usr/share/x/copy.txt");
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->mode, S_IFREG | 0640);
	host = slurp(src, &hlen);
	ck_assert_uint_eq(e->size, hlen);
	ck_assert(!memcmp(e->data, host, hlen));
	e = entry(&p, "etc/abc");
	ck_assert_uint_eq(e->mode, S_IFREG | 0600);
	ck_assert_uint_eq(e->size, 3);
	ck_assert(!memcmp(e->data, "abc", 3));
	ck_assert_ptr_nonnull(entry(&p, "etc"));
	ck_assert_uint_eq(entry(&p, "etc/empty")->size, 0);
	e = entry(&p, "bin/link");
	ck_assert_uint_eq(e->mode, S_IFLNK | 0777);
	ck_assert_uint_eq(e->size, strlen("/usr/share/x/copy.txt"));
	ck_assert(!memcmp(e->data, "/usr/share/x/copy.txt", e->size));
	e = entry(&p, "dev/console");
	ck_assert_uint_eq(e->mode, S_IFCHR | 0600);
	ck_assert_uint_eq(e->rmajor, 5);
	ck_assert_uint_eq(e->rminor, 1);
	ck_assert_uint_eq(e->uid, 0);
	ck_assert_uint_eq(e->gid, 0);

	free(host);
	free(p.buf);
	pm_initramfs_free(&ir);
	free(src);
	free(out);
	rm_tmp();
}
END_TEST

START_TEST(test_cpio_rejects_garbage)
{
	static const char junk[] = "070701XYZ not an archive";
	struct pm_cpio_entry ent;
	size_t off = 0;

	ck_assert_int_eq(pm_cpio_next(junk, sizeof(junk), &off, &ent), -EBADMSG);
	off = 0;
	ck_assert_int_eq(pm_cpio_next("0707", 4, &off, &ent), -EBADMSG);
}
END_TEST

START_TEST(test_cpio_missing_source)
{
	struct pm_initramfs ir = { 0 };
	struct pm_err err;
	char *out;

	make_tmp();
	out = tpath("b.cpio");
	pm_initramfs_add_file(&ir, "x", 0644, "/nonexistent/pmbench-test");
	ck_assert_int_eq(pm_initramfs_write(&ir, out, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "/nonexistent/pmbench-test"));
	pm_initramfs_free(&ir);
	free(out);
	rm_tmp();
}
END_TEST

/* A modules directory as depmod writes it (names as in Debian 6.1). */
static char *fake_moddir(void)
{
	char *dir = tpath("modules"), *p;
	static const char *const files[] = {
		"kernel/drivers/virtio/virtio.ko", "kernel/drivers/virtio/virtio_ring.ko",
		"kernel/drivers/virtio/virtio_pci.ko",
		"kernel/drivers/virtio/virtio_pci_legacy_dev.ko",
		"kernel/drivers/virtio/virtio_pci_modern_dev.ko",
		"kernel/drivers/block/virtio_blk.ko",
	};
	size_t i;

	ck_assert_int_eq(mkdir(dir, 0755), 0);
	p = pm_xasprintf("mkdir -p %s/kernel/drivers/virtio %s/kernel/drivers/block", dir, dir);
	ck_assert_int_eq(system(p), 0);
	free(p);
	for (i = 0; i < PM_ARRAY_SIZE(files); i++) {
		p = pm_xasprintf("%s/%s", dir, files[i]);
		write_text(p, files[i]);
		free(p);
	}
	p = pm_xasprintf("%s/modules.dep", dir);
	write_text(p,
		"kernel/fs/fuse/virtiofs.ko: kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko kernel/fs/fuse/fuse.ko\n"
		"kernel/drivers/virtio/virtio.ko: kernel/drivers/virtio/virtio_ring.ko\n"
		"kernel/drivers/virtio/virtio_ring.ko:\n"
		"kernel/drivers/virtio/virtio_pci_modern_dev.ko:\n"
		"kernel/drivers/virtio/virtio_pci_legacy_dev.ko:\n"
		"kernel/drivers/virtio/virtio_pci.ko: kernel/drivers/virtio/virtio_pci_legacy_dev.ko kernel/drivers/virtio/virtio_pci_modern_dev.ko kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n"
		"kernel/drivers/block/virtio_blk.ko: kernel/drivers/virtio/virtio.ko kernel/drivers/virtio/virtio_ring.ko\n");
	free(p);
	p = pm_xasprintf("%s/modules.builtin", dir);
	write_text(p, "kernel/drivers/tty/serial/8250/8250.ko\nkernel/drivers/char/hw-random/rng-core.ko\n");
	free(p);
	return dir;
}

static size_t index_of(char **v, const char *s)
{
	size_t i;

	for (i = 0; v[i]; i++)
		if (strstr(v[i], s))
			return i;
	ck_abort_msg("%s not in the list", s);
	return 0;
}

START_TEST(test_modules_order)
{
	static const char *const want[] = { "virtio_pci", "virtio-blk", NULL };
	static const char *const builtin[] = { "8250", "rng_core", NULL };
	static const char *const missing[] = { "virtio_blk", "e1000e", NULL };
	char *dir, **mods;
	struct pm_err err;

	make_tmp();
	dir = fake_moddir();
	ck_assert_int_eq(pm_kernel_modules_resolve(dir, want, &mods, &err), 0);
	/* each once, dependencies first */
	ck_assert_uint_eq(pm_strv_len(mods), 6);
	ck_assert_uint_lt(index_of(mods, "virtio_ring.ko"), index_of(mods, "virtio.ko"));
	ck_assert_uint_lt(index_of(mods, "virtio.ko"), index_of(mods, "virtio_pci.ko"));
	ck_assert_uint_lt(index_of(mods, "legacy_dev"), index_of(mods, "virtio_pci.ko"));
	ck_assert_uint_lt(index_of(mods, "modern_dev"), index_of(mods, "virtio_pci.ko"));
	ck_assert_uint_lt(index_of(mods, "virtio.ko"), index_of(mods, "virtio_blk.ko"));
	ck_assert_str_eq(mods[5], "kernel/drivers/block/virtio_blk.ko");
	ck_assert_ptr_null(strstr(mods[0], "fuse"));
	pm_strv_free(mods);

	/* built in: nothing to load ('-' and '_' are one) */
	ck_assert_int_eq(pm_kernel_modules_resolve(dir, builtin, &mods, &err), 0);
	ck_assert_uint_eq(pm_strv_len(mods), 0);
	pm_strv_free(mods);

	ck_assert_int_eq(pm_kernel_modules_resolve(dir, missing, &mods, &err), -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "e1000e"));
	ck_assert_ptr_null(mods);
	free(dir);
	rm_tmp();
}
END_TEST

/* The guest's archive from the build tree's programs and this test. */
START_TEST(test_guest_initramfs)
{
	static const char *const want[] = { "virtio_pci", "virtio_blk", NULL };
	struct pm_initramfs ir;
	struct pm_guest_spec g = { 0 };
	char *moddir, *config, *out, *hello, **mods;
	char *argv[] = { PM_GUEST_PMBENCH, "run", "-o", PM_GUEST_RESULT, "null", NULL };
	const struct pm_cpio_entry *e;
	struct parsed p;
	struct pm_err err;
	size_t i, k, hlen;

	make_tmp();
	hello = pm_xasprintf("%s/pmbench-hello", PM_ABS_BUILDDIR);
	if (access(hello, X_OK)) {
		printf("note: test_guest_initramfs skipped: %s not built\n", hello);
		free(hello);
		rm_tmp();
		return;
	}
	moddir = fake_moddir();
	ck_assert_int_eq(pm_kernel_modules_resolve(moddir, want, &mods, &err), 0);
	config = tpath("config-9.9.9");
	write_text(config, "CONFIG_X86_64=y\n");
	out = tpath("guest.cpio");
	g.release = "9.9.9-test";
	g.moddir = moddir;
	g.modules = mods;
	g.config = config;
	g.init = "/proc/self/exe";		/* any dynamic ELF program */
	g.pmbench = "/proc/self/exe";
	g.libexecdir = PM_ABS_BUILDDIR;
	g.eventsdir = PM_ABS_SRCDIR "/events";
	g.shell = access("/bin/sh", X_OK) ? NULL : "/bin/sh";
	g.argv = argv;
	ck_assert_int_eq(pm_guest_initramfs(&ir, &g, &err), 0);
	ck_assert_int_eq(pm_initramfs_write(&ir, out, &err), 0);
	parse_archive(out, &p);

	/* every entry's parent directory comes before it */
	for (i = 0; i < p.n; i++) {
		const char *slash = strrchr(p.v[i].name, '/');
		bool found = !slash;

		for (k = 0; slash && k < i; k++)
			if (strlen(p.v[k].name) == (size_t)(slash - p.v[i].name) &&
			    !strncmp(p.v[k].name, p.v[i].name, (size_t)(slash - p.v[i].name)) &&
			    S_ISDIR(p.v[k].mode))
				found = true;
		ck_assert_msg(found, "%s before its directory", p.v[i].name);
	}
	e = entry(&p, "init");
	ck_assert_ptr_nonnull(e);
	ck_assert_uint_eq(e->mode, S_IFREG | 0755);
	ck_assert(!memcmp(e->data, "\177ELF", 4));
	ck_assert_ptr_nonnull(entry(&p, "usr/bin/pmbench"));
	e = entry(&p, "usr/libexec/pmbench/pmbench-hello");
	ck_assert_ptr_nonnull(e);
	free(slurp(hello, &hlen));
	ck_assert_uint_eq(e->size, hlen);
	ck_assert_ptr_nonnull(entry(&p, "usr/libexec/pmbench/pmbench-spawner"));
	ck_assert_ptr_nonnull(entry(&p, "usr/share/pmbench/events/core.events"));
	e = entry(&p, "dev/console");
	ck_assert_uint_eq(e->mode, S_IFCHR | 0600);
	ck_assert_uint_eq(e->rmajor, 5);
	ck_assert_uint_eq(e->rminor, 1);
	ck_assert_uint_eq(entry(&p, "tmp")->mode, S_IFDIR | 0755);
	e = entry(&p, "boot/config-9.9.9-test");
	ck_assert_uint_eq(e->mode, S_IFREG | 0644);
	ck_assert(!memcmp(e->data, "CONFIG_X86_64=y\n", e->size));
	/* the libraries this program needs, and the dynamic loader */
	for (i = 0, k = 0; i < p.n; i++)
		if (strstr(p.v[i].name, "/libc.so.6") || strstr(p.v[i].name, "/libjansson.so"))
			k++;
	ck_assert_uint_ge(k, 2);
#ifdef __x86_64__
	ck_assert_ptr_nonnull(entry(&p, "lib64/ld-linux-x86-64.so.2"));
#endif
	/* modules under the release, in load order, and the list of them */
	e = entry(&p, "etc/pmbench-ab/modules");
	ck_assert_ptr_nonnull(e);
	ck_assert_ptr_nonnull(entry(&p, "lib/modules/9.9.9-test/kernel/drivers/block/virtio_blk.ko"));
	{
		char *text = strndup(e->data, e->size);
		char *ring = strstr(text, "/lib/modules/9.9.9-test/kernel/drivers/virtio/virtio_ring.ko\n");
		char *blk = strstr(text, "/lib/modules/9.9.9-test/kernel/drivers/block/virtio_blk.ko\n");

		ck_assert_ptr_nonnull(ring);
		ck_assert_ptr_nonnull(blk);
		ck_assert(ring < blk);
		free(text);
	}
	/* the run: NUL-separated words */
	e = entry(&p, "etc/pmbench-ab/argv");
	ck_assert_uint_eq(e->size, strlen(PM_GUEST_PMBENCH) + 1 + 4 + 3 + strlen(PM_GUEST_RESULT) + 1 + 5);
	ck_assert(!memcmp(e->data, PM_GUEST_PMBENCH "\0run\0-o\0", strlen(PM_GUEST_PMBENCH) + 8));
	ck_assert(!memcmp(e->data + e->size - 5, "null\0", 5));

	free(p.buf);
	pm_initramfs_free(&ir);
	pm_strv_free(mods);
	free(moddir);
	free(config);
	free(out);
	free(hello);
	rm_tmp();
}
END_TEST

START_TEST(test_elf_missing_library)
{
	static const char *const nowhere[] = { "/nonexistent-libdir", NULL };
	struct pm_initramfs ir = { 0 };
	struct pm_err err;

	/* a dynamic program whose libraries are not in the directories given */
	ck_assert_int_eq(pm_initramfs_add_elf(&ir, "x", "/proc/self/exe", nowhere, &err),
			 -ENOENT);
	ck_assert_ptr_nonnull(strstr(err.msg, "not found"));
	pm_initramfs_free(&ir);
	ck_assert_int_eq(pm_initramfs_add_elf(&ir, "x", PM_ABS_SRCDIR "/README.md", NULL, &err),
			 -EINVAL);
	pm_initramfs_free(&ir);
}
END_TEST

/* ---- kernels ---- */

static void fake_bzimage(const char *path, const char *version, bool magic)
{
	unsigned char img[2048] = { 0 };
	unsigned off = 0x300;

	if (magic)
		memcpy(img + 0x202, "HdrS", 4);
	img[0x20e] = (unsigned char)(off & 0xff);
	img[0x20f] = (unsigned char)(off >> 8);
	memcpy(img + off + 0x200, version, strlen(version));
	write_file(path, img, sizeof(img));
}

START_TEST(test_kernel_release)
{
	char rel[64], *p;
	struct pm_err err;

	make_tmp();
	p = tpath("vmlinuz");
	fake_bzimage(p, "6.1.0-57-amd64 (debian-kernel@lists.debian.org) #1 SMP", true);
	ck_assert_int_eq(pm_kernel_image_release(p, rel, sizeof(rel), &err), 0);
	ck_assert_str_eq(rel, "6.1.0-57-amd64");
	fake_bzimage(p, "6.1.0-57-amd64 (x)", false);
	ck_assert_int_eq(pm_kernel_image_release(p, rel, sizeof(rel), &err), -EINVAL);
	ck_assert_ptr_nonnull(strstr(err.msg, "not an x86 kernel image"));
	ck_assert_int_eq(pm_kernel_image_release("/nonexistent", rel, sizeof(rel), &err),
			 -ENOENT);
	free(p);
	rm_tmp();
}
END_TEST

START_TEST(test_installed_kernel_release)
{
	char rel[64];
	struct pm_err err;
	FILE *f = popen("ls /boot/vmlinuz-* 2>/dev/null | head -1", "r");
	char path[512] = "";

	ck_assert_ptr_nonnull(f);
	if (!fgets(path, sizeof(path), f))
		path[0] = '\0';
	pclose(f);
	path[strcspn(path, "\n")] = '\0';
	if (!path[0] || access(path, R_OK)) {
		printf("note: test_installed_kernel_release skipped: no readable /boot/vmlinuz-*\n");
		return;
	}
	ck_assert_int_eq(pm_kernel_image_release(path, rel, sizeof(rel), &err), 0);
	/* the file is named after its release */
	ck_assert_str_eq(strrchr(path, '/') + strlen("/vmlinuz-"), rel);
}
END_TEST

/* ---- KVM or TCG ---- */

START_TEST(test_accel_choose)
{
	struct pm_kvm_host h;
	char why[256];

	memset(&h, 0, sizeof(h));
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_TCG);
	ck_assert_ptr_nonnull(strstr(why, "/dev/kvm"));

	/* this machine: PVM, no vmx/svm */
	h.dev_kvm = true;
	strcpy(h.module, "kvm_pvm");
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_TCG);
	ck_assert_ptr_nonnull(strstr(why, "PVM"));
	/* PVM even with the flag (nested hardware virtualization shown) */
	h.hw_virt = true;
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_TCG);

	strcpy(h.module, "kvm_intel");
	h.hw_virt = false;
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_TCG);
	ck_assert_ptr_nonnull(strstr(why, "vmx or svm"));
	h.hw_virt = true;
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_KVM);
	strcpy(h.module, "");
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_KVM);
}
END_TEST

static void fake_host(const char *flags, const char *module, bool kvm)
{
	char *p = pm_xasprintf("mkdir -p %s/dev %s/proc %s/sys/module", tmpdir, tmpdir, tmpdir);

	ck_assert_int_eq(system(p), 0);
	free(p);
	p = tpath("proc/cpuinfo");
	{
		char *text = pm_xasprintf("processor\t: 0\nvendor_id\t: GenuineIntel\n"
					  "flags\t\t: %s\n\nprocessor\t: 1\nflags\t\t: %s\n",
					  flags, flags);
		write_text(p, text);
		free(text);
	}
	free(p);
	if (module) {
		p = pm_xasprintf("%s/sys/module/%s", tmpdir, module);
		ck_assert_int_eq(mkdir(p, 0755), 0);
		free(p);
	}
	if (kvm) {
		p = tpath("dev/kvm");
		write_text(p, "");
		free(p);
	}
}

START_TEST(test_kvm_host_probe)
{
	struct pm_kvm_host h;
	char why[256];

	make_tmp();
	fake_host("fpu vme de pse tsc msr pae mce vmx_ept hypervisor", "kvm_pvm", true);
	pm_kvm_host_probe(&h, tmpdir);
	ck_assert(h.dev_kvm);
	ck_assert(!h.hw_virt);		/* "vmx_ept" is not "vmx" */
	ck_assert_str_eq(h.module, "kvm_pvm");
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_TCG);
	rm_tmp();

	make_tmp();
	fake_host("fpu vme vmx ssse3", "kvm_intel", true);
	pm_kvm_host_probe(&h, tmpdir);
	ck_assert(h.hw_virt);
	ck_assert_str_eq(h.module, "kvm_intel");
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_KVM);
	rm_tmp();

	make_tmp();
	fake_host("fpu svm", "kvm_amd", false);
	pm_kvm_host_probe(&h, tmpdir);
	ck_assert(h.hw_virt);
	ck_assert(!h.dev_kvm);
	ck_assert_int_eq(pm_accel_choose(&h, why, sizeof(why)), PM_ACCEL_TCG);
	rm_tmp();
}
END_TEST

START_TEST(test_kvm_fallback)
{
	char why[256];

	/* PVM with a stock kernel: silence until the probe time */
	ck_assert(!pm_kvm_boot_failed("", "", 3, 10, false, 0, why, sizeof(why)));
	ck_assert(pm_kvm_boot_failed("", "", 10.5, 10, false, 0, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "no kernel output"));
	/* firmware output alone is not the kernel's */
	ck_assert(pm_kvm_boot_failed("\033c\033[2JBooting from ROM...\r\n", NULL, 11, 10,
				     false, 0, why, sizeof(why)));
	/* the kernel talks: KVM works */
	ck_assert(!pm_kvm_boot_failed("Booting from ROM...\n[    0.000000] Linux version 6.1.0",
				      "", 30, 10, false, 0, why, sizeof(why)));
	/* an internal error, whatever the console says */
	ck_assert(pm_kvm_boot_failed("[    0.000000] Linux version 6.1.0",
				     "KVM internal error. Suberror: 1\nemulation failure\n", 2, 10,
				     false, 0, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "KVM internal error. Suberror: 1"));
	ck_assert_ptr_null(strstr(why, "emulation failure"));
	ck_assert(pm_kvm_boot_failed("", "qemu-system-x86_64: failed to initialize kvm: "
				     "Operation not permitted\n", 0.2, 10, true, 1,
				     why, sizeof(why)));
	/* QEMU failed early for another reason */
	ck_assert(pm_kvm_boot_failed("", "", 0.5, 10, true, 1, why, sizeof(why)));
	ck_assert_ptr_nonnull(strstr(why, "status 1"));
	/* a guest that powered off cleanly is not a KVM failure */
	ck_assert(!pm_kvm_boot_failed("[    0.1] Linux version x\n", "", 20, 10, true, 0,
				      why, sizeof(why)));
}
END_TEST

/* ---- the hand-back ---- */

START_TEST(test_handback_roundtrip)
{
	static const char payload[] = "{\"format\": \"pmbench-result\"}\n";
	char buf[8192], h[PM_HANDBACK_HEADER_MAX];
	struct pm_handback hb;
	const char *why;
	size_t n = pm_handback_header(h, sizeof(h), 0, NULL, payload, strlen(payload));

	ck_assert_uint_gt(n, 0);
	ck_assert(!strncmp(h, PM_HANDBACK_MAGIC, strlen(PM_HANDBACK_MAGIC)));
	memcpy(buf, h, n);
	memcpy(buf + n, payload, strlen(payload));
	/* a disk image: zeros after the payload */
	memset(buf + n + strlen(payload), 0, 100);
	ck_assert_int_eq(pm_handback_parse(buf, n + strlen(payload) + 100, &hb, &why), 0);
	ck_assert_int_eq(hb.status, 0);
	ck_assert_str_eq(hb.error, "");
	ck_assert_uint_eq(hb.length, strlen(payload));
	ck_assert(!memcmp(hb.payload, payload, hb.length));

	/* a serial log: other bytes before the header */
	memmove(buf + 17, buf, n + strlen(payload));
	memcpy(buf, "\r\nnoise on line\r\n", 17);
	ck_assert_int_eq(pm_handback_parse(buf, 17 + n + strlen(payload), &hb, &why), 0);
	ck_assert(!memcmp(hb.payload, payload, hb.length));

	/* truncated: the guest died while writing */
	ck_assert_int_eq(pm_handback_parse(buf, 17 + n + strlen(payload) - 1, &hb, &why),
			 -EBADMSG);
	ck_assert_ptr_nonnull(strstr(why, "truncated"));
	/* one byte changed */
	buf[17 + n + 3] ^= 1;
	ck_assert_int_eq(pm_handback_parse(buf, 17 + n + strlen(payload), &hb, &why), -EBADMSG);
	ck_assert_ptr_nonnull(strstr(why, "checksum"));
	/* nothing there */
	memset(buf, 0, sizeof(buf));
	ck_assert_int_eq(pm_handback_parse(buf, sizeof(buf), &hb, &why), -ENOENT);
}
END_TEST

START_TEST(test_handback_error)
{
	char h[PM_HANDBACK_HEADER_MAX];
	struct pm_handback hb;
	const char *why;
	size_t n = pm_handback_header(h, sizeof(h), 127, "cannot run /usr/bin/pmbench:\nENOENT",
				      "", 0);

	ck_assert_int_eq(pm_handback_parse(h, n, &hb, &why), 0);
	ck_assert_int_eq(hb.status, 127);
	/* the error stays one line */
	ck_assert_str_eq(hb.error, "cannot run /usr/bin/pmbench: ENOENT");
	ck_assert_uint_eq(hb.length, 0);

	/* malformed headers */
	{
		static const char *const bad[] = {
			PM_HANDBACK_MAGIC "status x\nlength 0\nfnv1a64 cbf29ce484222325\n\n",
			PM_HANDBACK_MAGIC "status 0\nlength -1\nfnv1a64 cbf29ce484222325\n\n",
			PM_HANDBACK_MAGIC "status 0\nfnv1a64 cbf29ce484222325\n\n",
			PM_HANDBACK_MAGIC "status 0\nlength 0\nfnv1a64 cbf29\n\n",
			PM_HANDBACK_MAGIC "status 0\nlength 0\n",
		};
		size_t i;

		for (i = 0; i < PM_ARRAY_SIZE(bad); i++)
			ck_assert_msg(pm_handback_parse(bad[i], strlen(bad[i]), &hb, &why) == -EBADMSG,
				      "bad header %zu accepted", i);
	}
	/* empty payload: the FNV-1a offset basis */
	{
		static const char ok[] = PM_HANDBACK_MAGIC
			"status 1\nlength 0\nfnv1a64 cbf29ce484222325\nnewer-key x\n\n";

		ck_assert_int_eq(pm_handback_parse(ok, strlen(ok), &hb, &why), 0);
		ck_assert_int_eq(hb.status, 1);
	}
}
END_TEST

/* ---- the command line ---- */

static int parse(struct pm_ab_opts *o, struct pm_err *e, ...)
{
	char *argv[64];
	int argc = 0;
	va_list ap;
	char *s;

	argv[argc++] = "ab";
	va_start(ap, e);
	while ((s = va_arg(ap, char *)))
		argv[argc++] = s;
	va_end(ap);
	argv[argc] = NULL;
	return pm_ab_parse_args(argc, argv, o, e);
}

START_TEST(test_options)
{
	struct pm_ab_opts o;
	struct pm_err e;
	char *k, *k2, **g;
	size_t n;

	make_tmp();
	k = tpath("vmlinuz-a");
	k2 = tpath("vmlinuz-b");
	write_text(k, "x");
	write_text(k2, "x");

	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--", "null", "fork", NULL), 0);
	ck_assert_str_eq(o.side[0].kernel, k);
	ck_assert_str_eq(o.side[1].kernel, k);	/* B defaults to A */
	ck_assert_str_eq(o.cpu, "max");
	ck_assert_uint_eq(o.boots, PM_AB_DEFAULT_BOOTS);
	ck_assert_uint_eq(o.boots, 3);
	ck_assert_int_eq(o.accel, PM_ACCEL_AUTO);
	ck_assert_uint_eq(o.nbenches, 2);
	ck_assert_str_eq(o.benches[1], "fork");
	ck_assert_double_eq(o.max_time_s, 0.5);
	ck_assert(isnan(o.noise));	/* explain's own floor */
	/* two benchmarks: the boot plus their budgets */
	ck_assert_double_gt(pm_ab_default_timeout(&o), 120 + 2 * 40);
	pm_ab_opts_free(&o);

	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--kernel-b", k2, "--append", "quiet",
			       "--append-b", "mitigations=off", "--cpu", "max,vendor=GenuineIntel",
			       "--accel", "tcg", "--rounds", "2", "--memory", "1024", "--vcpus", "1",
			       "--max-time", "0.2", "--rounds-per-boot", "1", "-e", "",
			       "--no-profile", "--run-option", "--placement=spread",
			       "--run-option", "--target-time=5", "-o", "out", "--timeout", "99",
			       "page-fault-anon", NULL), 0);
	ck_assert_str_eq(o.side[1].kernel, k2);
	ck_assert_str_eq(o.append_both, "quiet");
	ck_assert_str_eq(o.side[1].append, "mitigations=off");
	ck_assert_ptr_null(o.side[0].append);
	ck_assert_int_eq(o.accel, PM_ACCEL_TCG);
	ck_assert_uint_eq(o.boots, 2);
	ck_assert_uint_eq(o.memory_mb, 1024);
	ck_assert_double_eq(o.timeout_s, 99);
	g = pm_ab_guest_argv(&o, "B", "/usr/lib/debug/boot/vmlinux-9");
	n = pm_strv_len(g);
	ck_assert_str_eq(g[0], PM_GUEST_PMBENCH);
	ck_assert_str_eq(g[1], "run");
	ck_assert_str_eq(g[n - 1], "page-fault-anon");
	ck_assert_str_eq(g[n - 2], "--target-time=5");
	ck_assert_str_eq(g[n - 3], "--placement=spread");
	{
		size_t i;
		bool label = false, rounds = false, out = false, vml = false, np = false;

		for (i = 0; i + 1 < n; i++) {
			label |= !strcmp(g[i], "--label") && !strcmp(g[i + 1], "B");
			rounds |= !strcmp(g[i], "--rounds") && !strcmp(g[i + 1], "1");
			out |= !strcmp(g[i], "-o") && !strcmp(g[i + 1], PM_GUEST_RESULT);
			vml |= !strcmp(g[i], "--vmlinux") &&
			       !strcmp(g[i + 1], "/usr/lib/debug/boot/vmlinux-9");
			np |= !strcmp(g[i], "--no-profile");
		}
		ck_assert(label && rounds && out && vml && np);
	}
	pm_strv_free(g);
	pm_ab_opts_free(&o);

	ck_assert_int_eq(parse(&o, &e, "-h", NULL), 1);
	ck_assert_int_eq(parse(&o, &e, "--help", NULL), 2);

	ck_assert_int_eq(parse(&o, &e, "null", NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "--kernel"));
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "which benchmarks"));
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "nosuchbench", NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "nosuchbench"));
	ck_assert_int_eq(parse(&o, &e, "--kernel", "/nonexistent/vmlinuz", "null", NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/vmlinuz"));
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--accel", "hvf", "null", NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "--accel"));
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--rounds", "0", "null", NULL), -EINVAL);
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--memory", "12x", "null", NULL), -EINVAL);
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--qemu", "qemu-system-x86_64", "null",
			       NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "PATH is not searched"));
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--run-option", "-o", "null", NULL),
			 -EINVAL);
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--run-option", "--format=json", "null",
			       NULL), -EINVAL);
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--noise", "1", "null", NULL), 0);
	ck_assert_double_eq_tol(o.noise, 0.01, 1e-12);
	pm_ab_opts_free(&o);
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--noise", "120", "null", NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "--noise"));
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "--frobnicate", "null", NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "--frobnicate"));
	ck_assert_int_eq(parse(&o, &e, "--kernel", k, "null", "--cpu", NULL), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "needs a value"));

	free(k);
	free(k2);
	rm_tmp();
}
END_TEST

START_TEST(test_qemu_argv)
{
	struct pm_boot_spec s = {
		.qemu = "/usr/bin/qemu-system-x86_64", .accel = PM_ACCEL_TCG,
		.cpu = "max,la57=on", .kernel = "/boot/vmlinuz-x", .initrd = "/tmp/i.cpio",
		.append = "no5lvl", .memory_mb = 1024, .vcpus = 2, .console = "/tmp/a,b/a1.log",
	};
	char **v = pm_boot_argv(&s, "/tmp/d.disk", "/tmp/s.serial");
	size_t i, n = pm_strv_len(v);
	bool accel = false, cpu = false, append = false, console = false, drive = false;
	bool nodefaults = false;

	ck_assert_str_eq(v[0], "/usr/bin/qemu-system-x86_64");
	for (i = 1; i + 1 < n; i++) {
		accel |= !strcmp(v[i], "-accel") && !strcmp(v[i + 1], "tcg");
		cpu |= !strcmp(v[i], "-cpu") && !strcmp(v[i + 1], "max,la57=on");
		append |= !strcmp(v[i], "-append") &&
			  !strcmp(v[i + 1], PM_BOOT_APPEND " no5lvl");
		/* a comma in a path is doubled for QEMU */
		console |= !strcmp(v[i], "-chardev") &&
			   !strcmp(v[i + 1], "file,id=console,path=/tmp/a,,b/a1.log");
		drive |= !strcmp(v[i], "-drive") &&
			 !strcmp(v[i + 1], "file=/tmp/d.disk,format=raw,if=virtio");
		nodefaults |= !strcmp(v[i], "-nodefaults");
	}
	ck_assert(accel && cpu && append && console && drive && nodefaults);
	pm_strv_free(v);
	s.accel = PM_ACCEL_KVM;
	s.append = NULL;
	v = pm_boot_argv(&s, "/tmp/d.disk", "/tmp/s.serial");
	for (i = 1, accel = append = false; v[i + 1]; i++) {
		accel |= !strcmp(v[i], "-accel") && !strcmp(v[i + 1], "kvm");
		append |= !strcmp(v[i], "-append") && !strcmp(v[i + 1], PM_BOOT_APPEND);
	}
	ck_assert(accel && append);
	pm_strv_free(v);
	/* counting: the plugin under TCG, its vCPUs in one thread; never under KVM */
	s.plugin = "file=/x/pmbench-tcg.so,out=/tmp/a1.counts";
	v = pm_boot_argv(&s, "/tmp/d.disk", "/tmp/s.serial");
	for (i = 1, accel = false; v[i + 1]; i++) {
		accel |= !strcmp(v[i], "-accel") && !strcmp(v[i + 1], "kvm");
		ck_assert_str_ne(v[i], "-plugin");
	}
	ck_assert(accel);
	pm_strv_free(v);
	s.accel = PM_ACCEL_TCG;
	v = pm_boot_argv(&s, "/tmp/d.disk", "/tmp/s.serial");
	for (i = 1, accel = append = false; v[i + 1]; i++) {
		accel |= !strcmp(v[i], "-accel") && !strcmp(v[i + 1], "tcg,thread=single");
		append |= !strcmp(v[i], "-plugin") && !strcmp(v[i + 1], s.plugin);
		ck_assert_str_ne(v[i], "-icount");
	}
	ck_assert(accel && append);
	pm_strv_free(v);
	/* --emulated-clock: a nanosecond an instruction under TCG, never KVM */
	s.icount = true;
	v = pm_boot_argv(&s, "/tmp/d.disk", "/tmp/s.serial");
	for (i = 1, accel = append = false; v[i + 1]; i++) {
		accel |= !strcmp(v[i], "-icount") && !strcmp(v[i + 1], "shift=0,sleep=off");
		append |= !strcmp(v[i], "-append") &&
			  !strcmp(v[i + 1], PM_BOOT_APPEND " " PM_BOOT_APPEND_ICOUNT);
	}
	ck_assert(accel && append);
	pm_strv_free(v);
	s.accel = PM_ACCEL_KVM;
	v = pm_boot_argv(&s, "/tmp/d.disk", "/tmp/s.serial");
	for (i = 1; v[i]; i++)
		ck_assert_str_ne(v[i], "-icount");
	pm_strv_free(v);
}
END_TEST

START_TEST(test_log_tail)
{
	char *p, *t;

	make_tmp();
	p = tpath("console.log");
	write_text(p, "\033c\033[?7l\033[2JBooting from ROM...\r\n"
		   "one\r\ntwo\r\nthree\r\n\r\n");
	t = pm_log_tail(p, 2);
	ck_assert_str_eq(t, "two\nthree");
	free(t);
	t = pm_log_tail(p, 10);
	ck_assert_str_eq(t, "Booting from ROM...\none\ntwo\nthree");
	free(t);
	t = pm_log_tail("/nonexistent/log", 3);
	ck_assert_str_eq(t, "");
	free(t);
	free(p);
	rm_tmp();
}
END_TEST

/* ---- vmlinux symbols ---- */

START_TEST(test_vmlinux_strip)
{
	struct pm_symtab *a, *b;
	const struct pm_sym *sa, *sb;
	struct pm_elf_info ia, ib;
	struct stat sta, stb;
	struct pm_err err;
	char exe[4096], *out;
	ssize_t n;

	make_tmp();
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	out = tpath("stripped");
	ck_assert_int_eq(pm_vmlinux_strip(exe, out, &err), 0);
	ck_assert_int_eq(stat(exe, &sta), 0);
	ck_assert_int_eq(stat(out, &stb), 0);
	ck_assert_int_lt(stb.st_size, sta.st_size);
	/* the same functions at the same addresses with the same sizes */
	ck_assert_int_eq(pm_symtab_load_elf(&a, exe, &err), 0);
	ck_assert_int_eq(pm_symtab_load_elf(&b, out, &err), 0);
	ck_assert_str_eq(pm_symtab_source(b), ".symtab");
	ck_assert_uint_eq(pm_symtab_count(a), pm_symtab_count(b));
	sa = pm_symtab_find(a, "pm_vmlinux_strip");
	sb = pm_symtab_find(b, "pm_vmlinux_strip");
	ck_assert_ptr_nonnull(sa);
	ck_assert_ptr_nonnull(sb);
	ck_assert_uint_eq(sa->addr, sb->addr);
	ck_assert_uint_eq(sa->size, sb->size);
	ck_assert_uint_gt(sb->size, 0);
	/* and the build-id */
	ck_assert_int_eq(pm_elf_info(exe, &ia, &err), 0);
	ck_assert_int_eq(pm_elf_info(out, &ib, &err), 0);
	ck_assert_str_eq(ia.build_id, ib.build_id);
	pm_symtab_free(a);
	pm_symtab_free(b);
	free(out);
	out = tpath("not-elf");
	ck_assert_int_eq(pm_vmlinux_strip(PM_ABS_SRCDIR "/README.md", out, &err), -EINVAL);
	ck_assert_int_ne(access(out, F_OK), 0);	/* no half-written file */
	free(out);
	rm_tmp();
}
END_TEST

/* --kernel DIR or DIR/arch/x86/boot/bzImage of a build tree: the image
 * and the tree (its .config, vmlinux); a lone image has no tree. */
START_TEST(test_kernel_tree)
{
	struct pm_err e;
	char *image, *tree, *d, *img, *lone, *boot, *config;

	make_tmp();
	d = tpath("linux");
	img = pm_xasprintf("%s/arch/x86/boot/bzImage", d);
	lone = tpath("vmlinuz");
	ck_assert_int_eq(pm_mkdir_p(d, 0755), 0);
	ck_assert_int_eq(pm_kernel_tree(d, &image, &tree, &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "arch/x86/boot/bzImage"));
	boot = pm_xasprintf("%s/arch/x86/boot", d);
	config = pm_xasprintf("%s/.config", d);
	ck_assert_int_eq(pm_mkdir_p(boot, 0755), 0);
	write_text(img, "x");
	/* an image in a directory that is no build tree (no .config, no vmlinux) */
	ck_assert_int_eq(pm_kernel_tree(img, &image, &tree, &e), 0);
	ck_assert_str_eq(image, img);
	ck_assert_ptr_null(tree);
	free(image);
	write_text(config, "CONFIG_VIRTIO_BLK=y\n");
	ck_assert_int_eq(pm_kernel_tree(d, &image, &tree, &e), 0);
	ck_assert_str_eq(image, img);
	ck_assert_str_eq(tree, d);
	free(image);
	free(tree);
	ck_assert_int_eq(pm_kernel_tree(img, &image, &tree, &e), 0);
	ck_assert_str_eq(tree, d);
	free(image);
	free(tree);
	write_text(lone, "x");
	ck_assert_int_eq(pm_kernel_tree(lone, &image, &tree, &e), 0);
	ck_assert_ptr_null(tree);
	free(image);
	/* not a git tree: no describe */
	ck_assert_ptr_null(pm_kernel_tree_describe(d));
	free(img);
	free(lone);
	free(boot);
	free(config);
	free(d);
	rm_tmp();
}
END_TEST

/*
 * The engine with --local runs: a stand-in for pmbench run copies a
 * result file to its -o; B's set-up fails from its second run on (a
 * fatal start).  The main phase must end there, failed, with that run
 * counted, and start no run after it, although its budget allows more.
 */
START_TEST(test_fatal_start_stops)
{
	struct pm_ab_exp x;
	struct pm_err e;
	char *runs, *flag, *setup_a, *setup_b, *script, *text;
	size_t len, n = 0, i;

	make_tmp();
	memset(&x, 0, sizeof(x));
	runs = tpath("runs");
	flag = tpath("flag");
	setup_a = pm_xasprintf("echo a >> %s", runs);
	setup_b = pm_xasprintf("test ! -e %s || exit 3; touch %s; echo b >> %s", flag, flag, runs);
	script = pm_xasprintf("while [ \"$1\" != -o ]; do shift; done; cp %s/tests/data/"
			      "good-small.json \"$2\"", PM_ABS_SRCDIR);
	x.o.local = true;
	x.o.quiet = true;
	x.o.duet = PM_DUET_OFF;
	x.o.boots = 3;
	x.o.budget_boots = 20;
	x.o.timeout_s = 60;
	x.o.noise = NAN;
	x.o.side[0].setup = setup_a;
	x.o.side[1].setup = setup_b;
	x.out = pm_xstrdup(tmpdir);
	x.console_dir = pm_xstrdup(tmpdir);
	x.env.o = &x.o;
	x.env.scratch = tmpdir;
	x.env.console_dir = tmpdir;
	x.env.benches = (char *[]){ "null", NULL };
	x.env.local_argv = pm_xcalloc(5, sizeof(char *));
	x.env.local_argv[0] = pm_xstrdup("/bin/sh");
	x.env.local_argv[1] = pm_xstrdup("-c");
	x.env.local_argv[2] = script;
	x.env.local_argv[3] = pm_xstrdup("sh");
	x.rng = 7;
	ck_assert_int_eq(pm_ab_setup_arms(&x, &e), 0);
	x.duet = false;
	ck_assert_int_eq(pm_ab_main_phase(&x), PM_AB_FAILED);
	ck_assert_uint_eq(x.pairs, 1);
	ck_assert_uint_eq(x.failed, 1);
	ck_assert_uint_eq(x.arms[1].failed, 1);
	/* two set-ups of B (one failed), and A's at most twice */
	text = slurp(runs, &len);
	for (i = 0; i < len; i++)
		n += text[i] == '\n';
	ck_assert_uint_le(n, 3);
	ck_assert_uint_ge(n, 2);
	free(text);
	x.o.side[0].setup = x.o.side[1].setup = NULL;
	x.env.benches = NULL;
	pm_ab_exp_free(&x);
	free(setup_a);
	free(setup_b);
	free(runs);
	free(flag);
	rm_tmp();
}
END_TEST

static Suite *ab_suite(void)
{
	Suite *s = suite_create("ab");
	TCase *tc = tcase_create("core");

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_cpio_roundtrip);
	tcase_add_test(tc, test_cpio_rejects_garbage);
	tcase_add_test(tc, test_cpio_missing_source);
	tcase_add_test(tc, test_modules_order);
	tcase_add_test(tc, test_guest_initramfs);
	tcase_add_test(tc, test_elf_missing_library);
	tcase_add_test(tc, test_kernel_release);
	tcase_add_test(tc, test_installed_kernel_release);
	tcase_add_test(tc, test_accel_choose);
	tcase_add_test(tc, test_kvm_host_probe);
	tcase_add_test(tc, test_kvm_fallback);
	tcase_add_test(tc, test_handback_roundtrip);
	tcase_add_test(tc, test_handback_error);
	tcase_add_test(tc, test_options);
	tcase_add_test(tc, test_qemu_argv);
	tcase_add_test(tc, test_log_tail);
	tcase_add_test(tc, test_vmlinux_strip);
	tcase_add_test(tc, test_fatal_start_stops);
	tcase_add_test(tc, test_kernel_tree);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(ab_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
