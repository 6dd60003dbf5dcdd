/*
 * What goes into a guest's initramfs: the init, pmbench and its helper
 * programs with the shared libraries they need (DT_NEEDED resolved with
 * libelf, as the dynamic loader would), the event alias files, the
 * kernel's config and modules, and what the init is to run.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_LIBELF
#include <gelf.h>
#include <libelf.h>
#endif

#include "ab/ab.h"
#include "ab/guest.h"

#if defined(__x86_64__)
#define MULTIARCH "x86_64-linux-gnu"
#elif defined(__aarch64__)
#define MULTIARCH "aarch64-linux-gnu"
#else
#define MULTIARCH "unknown-linux-gnu"
#endif

const char *const pm_std_libdirs[] = {
	"/lib/" MULTIARCH, "/usr/lib/" MULTIARCH, "/lib64", "/usr/lib64", "/lib",
	"/usr/lib", NULL,
};

static const char *strip_slash(const char *p)
{
	while (*p == '/')
		p++;
	return p;
}

void pm_initramfs_free(struct pm_initramfs *ir)
{
	size_t i;

	for (i = 0; i < ir->n; i++) {
		free(ir->v[i].path);
		free(ir->v[i].source);
		free(ir->v[i].data);
	}
	free(ir->v);
	for (i = 0; i < ir->nelf; i++)
		free(ir->elf_done[i]);
	free(ir->elf_done);
	memset(ir, 0, sizeof(*ir));
}

const struct pm_ir_entry *pm_initramfs_find(const struct pm_initramfs *ir,
					    const char *path)
{
	size_t i;

	path = strip_slash(path);
	for (i = 0; i < ir->n; i++)
		if (!strcmp(ir->v[i].path, path))
			return &ir->v[i];
	return NULL;
}

static struct pm_ir_entry *add(struct pm_initramfs *ir, const char *path, unsigned mode)
{
	struct pm_ir_entry *ent;

	ir->v = pm_xgrow(ir->v, ir->n, sizeof(*ir->v));
	ent = &ir->v[ir->n++];
	memset(ent, 0, sizeof(*ent));
	ent->path = pm_xstrdup(strip_slash(path));
	ent->mode = mode;
	return ent;
}

void pm_initramfs_add_dir(struct pm_initramfs *ir, const char *path)
{
	char *p = pm_xstrdup(strip_slash(path)), *slash;
	size_t n;

	/* parents first: the kernel creates what the archive names in order */
	for (slash = p; ; slash++) {
		slash = strchr(slash, '/');
		if (slash)
			*slash = '\0';
		n = strlen(p);
		if (n && !pm_initramfs_find(ir, p))
			add(ir, p, S_IFDIR | 0755);
		if (!slash)
			break;
		*slash = '/';
	}
	free(p);
}

static void add_parent(struct pm_initramfs *ir, const char *path)
{
	char *p = pm_xstrdup(strip_slash(path)), *slash = strrchr(p, '/');

	if (slash) {
		*slash = '\0';
		pm_initramfs_add_dir(ir, p);
	}
	free(p);
}

void pm_initramfs_add_file(struct pm_initramfs *ir, const char *path, unsigned perm,
			   const char *source)
{
	add_parent(ir, path);
	add(ir, path, S_IFREG | (perm & 07777))->source = pm_xstrdup(source);
}

void pm_initramfs_add_data(struct pm_initramfs *ir, const char *path, unsigned perm,
			   const void *data, size_t len)
{
	struct pm_ir_entry *ent;

	add_parent(ir, path);
	ent = add(ir, path, S_IFREG | (perm & 07777));
	ent->data = pm_xmalloc(len + 1);
	if (len)
		memcpy(ent->data, data, len);
	ent->data[len] = '\0';
	ent->len = len;
}

void pm_initramfs_add_symlink(struct pm_initramfs *ir, const char *path,
			      const char *target)
{
	struct pm_ir_entry *ent;

	add_parent(ir, path);
	ent = add(ir, path, S_IFLNK | 0777);
	ent->data = pm_xstrdup(target);
	ent->len = strlen(target);
}

void pm_initramfs_add_chardev(struct pm_initramfs *ir, const char *path, unsigned perm,
			      unsigned major, unsigned minor)
{
	struct pm_ir_entry *ent;

	add_parent(ir, path);
	ent = add(ir, path, S_IFCHR | (perm & 07777));
	ent->rmajor = major;
	ent->rminor = minor;
}

#ifdef HAVE_LIBELF

struct elf_deps {
	char interp[PATH_MAX];
	char **needed, **runpath;
	unsigned char cls;
	unsigned machine;
};

static void elf_deps_free(struct elf_deps *d)
{
	pm_strv_free(d->needed);
	pm_strv_free(d->runpath);
}

static void strv_push(char ***v, const char *s)
{
	size_t n = *v ? pm_strv_len(*v) : 0;

	*v = pm_xrealloc(*v, (n + 2) * sizeof(**v));
	(*v)[n] = pm_xstrdup(s);
	(*v)[n + 1] = NULL;
}

/* Interpreter, DT_NEEDED and run paths of an ELF file. */
static int elf_deps_read(const char *path, struct elf_deps *d, struct pm_err *e)
{
	size_t nph = 0, i, rawlen;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	char *raw;
	Elf *elf;
	int fd, err = 0;

	memset(d, 0, sizeof(*d));
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pm_err_set(e, -ENOTSUP, "libelf: %s", elf_errmsg(-1));
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pm_err_set(e, -errno, "%s: %s", path, strerror(errno));
	elf = elf_begin(fd, ELF_C_READ, NULL);
	if (!elf || elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh)) {
		err = pm_err_set(e, -EINVAL, "%s: not an ELF file", path);
		goto out;
	}
	d->cls = (unsigned char)gelf_getclass(elf);
	d->machine = eh.e_machine;
	raw = elf_rawfile(elf, &rawlen);
	if (elf_getphdrnum(elf, &nph))
		nph = 0;
	for (i = 0; i < nph; i++) {
		GElf_Phdr ph;

		if (gelf_getphdr(elf, (int)i, &ph) && ph.p_type == PT_INTERP && raw &&
		    ph.p_offset < rawlen && ph.p_filesz < sizeof(d->interp) &&
		    ph.p_filesz <= rawlen - ph.p_offset) {
			memcpy(d->interp, raw + ph.p_offset, ph.p_filesz);
			d->interp[ph.p_filesz] = '\0';
		}
	}
	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *data;
		size_t k;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_DYNAMIC || !sh.sh_entsize)
			continue;
		data = elf_getdata(scn, NULL);
		for (k = 0; data && k < sh.sh_size / sh.sh_entsize; k++) {
			GElf_Dyn dyn;
			const char *s;

			if (!gelf_getdyn(data, (int)k, &dyn))
				break;
			if (dyn.d_tag != DT_NEEDED && dyn.d_tag != DT_RUNPATH &&
			    dyn.d_tag != DT_RPATH)
				continue;
			s = elf_strptr(elf, sh.sh_link, dyn.d_un.d_val);
			if (!s)
				continue;
			if (dyn.d_tag == DT_NEEDED) {
				strv_push(&d->needed, s);
			} else {
				char **parts = pm_strv_split(s, ':'), **p;

				for (p = parts; *p; p++)
					strv_push(&d->runpath, *p);
				pm_strv_free(parts);
			}
		}
	}
out:
	if (elf)
		elf_end(elf);
	close(fd);
	return err;
}

/* Same class and machine: a 32-bit libc in /usr/lib is not ours. */
static bool elf_compatible(const char *path, const struct elf_deps *want)
{
	struct elf_deps d;
	bool ok;

	if (access(path, R_OK) || elf_deps_read(path, &d, NULL))
		return false;
	ok = d.cls == want->cls && d.machine == want->machine;
	elf_deps_free(&d);
	return ok;
}

/* $ORIGIN (the object's own directory) in a run path. */
static char *expand_origin(const char *dir, const char *source)
{
	char real[PATH_MAX], *slash, *out;
	const char *at = strstr(dir, "$ORIGIN");

	if (!at)
		at = strstr(dir, "${ORIGIN}");
	if (!at || !realpath(source, real))
		return pm_xstrdup(dir);
	slash = strrchr(real, '/');
	if (slash)
		*slash = '\0';
	out = pm_xasprintf("%.*s%s%s", (int)(at - dir), dir, real,
			   at + (at[1] == '{' ? 9 : 7));
	return out;
}

static int find_library(const char *name, const char *source, const struct elf_deps *d,
			const char *const *libdirs, char **found)
{
	size_t i;

	for (i = 0; d->runpath && d->runpath[i]; i++) {
		char *dir = expand_origin(d->runpath[i], source);
		char *p = pm_xasprintf("%s/%s", dir, name);

		free(dir);
		if (elf_compatible(p, d)) {
			*found = p;
			return 0;
		}
		free(p);
	}
	for (i = 0; libdirs[i]; i++) {
		char *p = pm_xasprintf("%s/%s", libdirs[i], name);

		if (elf_compatible(p, d)) {
			*found = p;
			return 0;
		}
		free(p);
	}
	return -ENOENT;
}

int pm_initramfs_add_elf(struct pm_initramfs *ir, const char *path,
			 const char *source, const char *const *libdirs,
			 struct pm_err *e)
{
	struct elf_deps d;
	size_t i;
	int err;

	if (pm_initramfs_find(ir, path))
		return 0;
	if (!libdirs)
		libdirs = pm_std_libdirs;
	err = elf_deps_read(source, &d, e);
	if (err)
		return err;
	pm_initramfs_add_file(ir, path, 0755, source);
	if (d.interp[0]) {
		err = pm_initramfs_add_elf(ir, d.interp, d.interp, libdirs, e);
		if (err)
			goto out;
	}
	for (i = 0; d.needed && d.needed[i]; i++) {
		char *lib = NULL;

		if (strchr(d.needed[i], '/')) {
			lib = pm_xstrdup(d.needed[i]);
		} else if (find_library(d.needed[i], source, &d, libdirs, &lib)) {
			err = pm_err_set(e, -ENOENT, "%s needs %s: not found in its run path "
					 "or the library directories", source, d.needed[i]);
			goto out;
		}
		err = pm_initramfs_add_elf(ir, lib, lib, libdirs, e);
		free(lib);
		if (err)
			goto out;
	}
out:
	elf_deps_free(&d);
	return err;
}

#else

int pm_initramfs_add_elf(struct pm_initramfs *ir, const char *path,
			 const char *source, const char *const *libdirs,
			 struct pm_err *e)
{
	return pm_err_set(e, -ENOTSUP, "pmbench was built without libelf: the "
			  "libraries of %s cannot be found (apt-get install libelf-dev)",
			  source);
}

#endif

static int add_events(struct pm_initramfs *ir, const char *dir, struct pm_err *e)
{
	struct dirent *d;
	DIR *dh = opendir(dir);

	if (!dh)
		return pm_err_set(e, -errno, "event alias directory %s: %s", dir,
				  strerror(errno));
	pm_initramfs_add_dir(ir, PM_GUEST_DATADIR "/events");
	while ((d = readdir(dh))) {
		size_t len = strlen(d->d_name);
		char *src, *dst;

		if (len < 8 || strcmp(d->d_name + len - 7, ".events"))
			continue;
		src = pm_xasprintf("%s/%s", dir, d->d_name);
		dst = pm_xasprintf(PM_GUEST_DATADIR "/events/%s", d->d_name);
		pm_initramfs_add_file(ir, dst, 0644, src);
		free(src);
		free(dst);
	}
	closedir(dh);
	return 0;
}

int pm_guest_initramfs(struct pm_initramfs *ir, const struct pm_guest_spec *s,
		       struct pm_err *e)
{
	static const char *const dirs[] = {
		"dev", "proc", "sys", "tmp", "run", "root", "etc/pmbench-ab", "bin",
		"usr/bin", PM_GUEST_LIBEXECDIR, "boot",
	};
	static const char passwd[] = "root:x:0:0:root:/root:/bin/sh\n";
	static const char group[] = "root:x:0:\n";
	struct pm_buf mods = PM_BUF_INIT;
	char *argv = NULL, *p;
	size_t alen = 0, i;
	int err;

	memset(ir, 0, sizeof(*ir));
	for (i = 0; i < PM_ARRAY_SIZE(dirs); i++)
		pm_initramfs_add_dir(ir, dirs[i]);
	/* the kernel gives init the console only if the node is there */
	pm_initramfs_add_chardev(ir, "dev/console", 0600, 5, 1);
	pm_initramfs_add_chardev(ir, "dev/null", 0666, 1, 3);
	err = pm_initramfs_add_elf(ir, "init", s->init, s->libdirs, e);
	if (!err)
		err = pm_initramfs_add_elf(ir, PM_GUEST_PMBENCH, s->pmbench, s->libdirs, e);
	for (i = 0; !err && i < 2; i++) {
		const char *name = i ? "pmbench-spawner" : "pmbench-hello";
		char *src = pm_xasprintf("%s/%s", s->libexecdir, name);
		char *dst = pm_xasprintf(PM_GUEST_LIBEXECDIR "/%s", name);

		err = pm_initramfs_add_elf(ir, dst, src, s->libdirs, e);
		free(src);
		free(dst);
	}
	if (!err && s->shell)
		err = pm_initramfs_add_elf(ir, "bin/sh", s->shell, s->libdirs, e);
	if (!err && s->eventsdir)
		err = add_events(ir, s->eventsdir, e);
	if (err)
		goto fail;
	if (s->config) {
		p = pm_xasprintf("boot/config-%s", s->release);
		pm_initramfs_add_file(ir, p, 0644, s->config);
		free(p);
	}
	if (s->vmlinux) {
		p = pm_xasprintf("usr/lib/debug/boot/vmlinux-%s", s->release);
		pm_initramfs_add_file(ir, p, 0644, s->vmlinux);
		free(p);
	}
	for (i = 0; s->moddir && s->modules && s->modules[i]; i++) {
		char *src = pm_xasprintf("%s/%s", s->moddir, s->modules[i]);
		char *dst = pm_xasprintf("/lib/modules/%s/%s", s->release, s->modules[i]);

		pm_initramfs_add_file(ir, dst, 0644, src);
		pm_buf_addf(&mods, "%s\n", dst);
		free(src);
		free(dst);
	}
	pm_initramfs_add_data(ir, PM_GUEST_MODULES, 0644, pm_buf_str(&mods), mods.len);
	for (i = 0; s->argv && s->argv[i]; i++) {
		size_t n = strlen(s->argv[i]) + 1;

		argv = pm_xrealloc(argv, alen + n);
		memcpy(argv + alen, s->argv[i], n);
		alen += n;
	}
	pm_initramfs_add_data(ir, PM_GUEST_ARGV, 0644, argv ? argv : "", alen);
	pm_initramfs_add_data(ir, "etc/passwd", 0644, passwd, sizeof(passwd) - 1);
	pm_initramfs_add_data(ir, "etc/group", 0644, group, sizeof(group) - 1);
	/* libtirpc's transports (the rpc benchmarks) */
	if (access("/etc/netconfig", R_OK) == 0)
		pm_initramfs_add_file(ir, "etc/netconfig", 0644, "/etc/netconfig");
	free(argv);
	pm_buf_free(&mods);
	return 0;
fail:
	pm_initramfs_free(ir);
	return err;
}
