/*
 * Kernels to boot: the release an image was built as (its setup header,
 * Documentation/arch/x86/boot.rst), a kernel build tree an image comes
 * from, the modules the guest must load (modules.dep), and a
 * symbols-only copy of a vmlinux.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_LIBELF
#include <gelf.h>
#include <libelf.h>
#endif

#include "ab/ab.h"

#define SETUP_HEADER 0x1f1
#define HDRS_MAGIC 0x202	/* "HdrS" */
#define KERNEL_VERSION 0x20e	/* offset of the version string, minus 0x200 */

int pm_kernel_image_release(const char *image, char *release, size_t len,
			    struct pm_err *e)
{
	unsigned char hdr[0x240];
	char ver[256];
	unsigned off;
	ssize_t n;
	size_t i;
	int fd = open(image, O_RDONLY | O_CLOEXEC);

	release[0] = '\0';
	if (fd < 0)
		return pm_err_set(e, -errno, "%s: %s", image, strerror(errno));
	n = pread(fd, hdr, sizeof(hdr), 0);
	if (n != (ssize_t)sizeof(hdr) || memcmp(hdr + HDRS_MAGIC, "HdrS", 4)) {
		close(fd);
		return pm_err_set(e, -EINVAL, "%s: not an x86 kernel image (no HdrS setup header)",
				  image);
	}
	off = (unsigned)hdr[KERNEL_VERSION] | (unsigned)hdr[KERNEL_VERSION + 1] << 8;
	n = off ? pread(fd, ver, sizeof(ver) - 1, (off_t)off + 0x200) : -1;
	close(fd);
	if (n <= 0)
		return pm_err_set(e, -EINVAL, "%s: the setup header has no version string", image);
	ver[n] = '\0';
	/* "6.1.0-57-amd64 (debian-kernel@...) #1 SMP ...": the first word */
	for (i = 0; ver[i] && ver[i] != ' ' && i + 1 < len; i++) {
		if ((unsigned char)ver[i] < 0x21 || (unsigned char)ver[i] > 0x7e)
			return pm_err_set(e, -EINVAL, "%s: unreadable version string", image);
		release[i] = ver[i];
	}
	release[i] = '\0';
	if (!i)
		return pm_err_set(e, -EINVAL, "%s: empty version string", image);
	return 0;
}

/* "kernel/drivers/block/virtio_blk.ko.xz" -> "virtio_blk" ('-' as '_'). */
#define TREE_IMAGE "arch/x86/boot/bzImage"

static bool is_dir(const char *path)
{
	struct stat st;

	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Is dir a kernel build tree (its .config or vmlinux beside the image)? */
static bool build_tree(const char *dir)
{
	char *c = pm_xasprintf("%s/.config", dir), *v = pm_xasprintf("%s/vmlinux", dir);
	bool yes = access(c, R_OK) == 0 || access(v, R_OK) == 0;

	free(c);
	free(v);
	return yes;
}

int pm_kernel_tree(const char *path, char **image, char **tree, struct pm_err *e)
{
	size_t n = strlen(path), t = strlen(TREE_IMAGE);

	*image = *tree = NULL;
	if (is_dir(path)) {
		char *img = pm_xasprintf("%s/%s", path, TREE_IMAGE);

		if (access(img, R_OK)) {
			int err = pm_err_set(e, -ENOENT, "%s: a directory without %s (not a built "
					     "kernel tree: make bzImage)", path, TREE_IMAGE);

			free(img);
			return err;
		}
		*image = img;
		*tree = pm_xstrdup(path);
		return 0;
	}
	*image = pm_xstrdup(path);
	if (n > t && path[n - t - 1] == '/' && !strcmp(path + n - t, TREE_IMAGE)) {
		char *dir = pm_xasprintf("%.*s", (int)(n - t - 1), path);

		if (build_tree(dir))
			*tree = dir;
		else
			free(dir);
	}
	return 0;
}

char *pm_kernel_tree_describe(const char *tree)
{
	char buf[256], *git = pm_xasprintf("%s/.git", tree);
	int fd[2], status;
	ssize_t n = 0, r;
	pid_t pid;

	if (access(git, F_OK) || pipe(fd)) {
		free(git);
		return NULL;
	}
	free(git);
	pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);

		dup2(fd[1], STDOUT_FILENO);
		if (null >= 0)
			dup2(null, STDERR_FILENO);
		close(fd[0]);
		execlp("git", "git", "-C", tree, "describe", "--always", "--dirty", "--tags",
		       (char *)NULL);
		_exit(127);
	}
	close(fd[1]);
	while (pid > 0 && n < (ssize_t)sizeof(buf) - 1 &&
	       (r = read(fd[0], buf + n, sizeof(buf) - 1 - (size_t)n)) > 0)
		n += r;
	close(fd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status) || n <= 0)
		return NULL;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return *buf ? pm_xstrdup(buf) : NULL;
}

static char *module_name(const char *path)
{
	const char *base = strrchr(path, '/');
	char *name = pm_xstrdup(base ? base + 1 : path), *dot = strstr(name, ".ko"), *c;

	if (dot)
		*dot = '\0';
	for (c = name; *c; c++)
		if (*c == '-')
			*c = '_';
	return name;
}

struct moddep {
	char *path;		/* relative to the modules directory */
	char *name;
	char **deps;		/* paths */
};

static void moddeps_free(struct moddep *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(v[i].path);
		free(v[i].name);
		pm_strv_free(v[i].deps);
	}
	free(v);
}

static int moddeps_read(const char *moddir, struct moddep **out, size_t *nout,
			struct pm_err *e)
{
	char *path = pm_xasprintf("%s/modules.dep", moddir), *text, *line, *save = NULL;
	struct moddep *v = NULL;
	size_t n = 0;
	int err = pm_read_file(path, &text, NULL);

	if (err) {
		pm_err_set(e, err, "%s: %s", path, strerror(-err));
		free(path);
		return err;
	}
	free(path);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		*colon = '\0';
		v = pm_xgrow(v, n, sizeof(*v));
		v[n].path = pm_xstrdup(pm_strtrim(line));
		v[n].name = module_name(v[n].path);
		v[n].deps = pm_strv_split(pm_strtrim(colon + 1), ' ');
		n++;
	}
	free(text);
	*out = v;
	*nout = n;
	return 0;
}

static bool builtin(const char *moddir, const char *name)
{
	char *path = pm_xasprintf("%s/modules.builtin", moddir), *text, *line, *save = NULL;
	bool found = false;

	if (pm_read_file(path, &text, NULL)) {
		free(path);
		return false;
	}
	free(path);
	for (line = strtok_r(text, "\n", &save); line && !found;
	     line = strtok_r(NULL, "\n", &save)) {
		char *m = module_name(line);

		found = !strcmp(m, name);
		free(m);
	}
	free(text);
	return found;
}

static const struct moddep *moddep_find(const struct moddep *v, size_t n,
					const char *name, bool by_path)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(by_path ? v[i].path : v[i].name, name))
			return &v[i];
	return NULL;
}

/* Depth first: dependencies before the module; each once. */
static void order(const struct moddep *v, size_t n, const struct moddep *m,
		  char ***out, size_t *nout, unsigned depth)
{
	size_t i;

	for (i = 0; i < *nout; i++)
		if (!strcmp((*out)[i], m->path))
			return;
	for (i = 0; m->deps[i] && depth < 64; i++) {
		const struct moddep *d = moddep_find(v, n, m->deps[i], true);

		if (d)
			order(v, n, d, out, nout, depth + 1);
	}
	*out = pm_xgrow(*out, *nout + 1, sizeof(**out));
	(*out)[(*nout)++] = pm_xstrdup(m->path);
	(*out)[*nout] = NULL;
}

int pm_kernel_modules_resolve(const char *moddir, const char *const *names,
			      char ***out, struct pm_err *e)
{
	struct moddep *v;
	size_t n, nout = 0, i;
	char **list = pm_xcalloc(1, sizeof(*list));
	int err = moddeps_read(moddir, &v, &n, e);

	*out = NULL;
	if (err) {
		free(list);
		return err;
	}
	for (i = 0; names[i]; i++) {
		char *want = module_name(names[i]);
		const struct moddep *m = moddep_find(v, n, want, false);

		if (m) {
			order(v, n, m, &list, &nout, 0);
		} else if (!builtin(moddir, want)) {
			err = pm_err_set(e, -ENOENT, "%s: no module %s in modules.dep or "
					 "modules.builtin", moddir, want);
			free(want);
			break;
		}
		free(want);
	}
	moddeps_free(v, n);
	if (err) {
		pm_strv_free(list);
		return err;
	}
	*out = list;
	return 0;
}

#ifdef HAVE_LIBELF

/*
 * Every section header is kept, so symbol section indices and the
 * section bounds the symbol reader uses stay right; only symbol tables,
 * string tables and notes keep their bytes, the rest becomes NOBITS.
 */
/* Every section of ielf into oelf from offset *off on: the symbol and
 * string tables and notes with their data, the rest as NOBITS. */
static int copy_sections(Elf *ielf, Elf *oelf, const char *in, const char *out,
			 uint64_t *off, struct pm_err *e)
{
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(ielf, scn))) {
		Elf_Scn *os = elf_newscn(oelf);
		Elf_Data *id, *od;
		GElf_Shdr sh;
		bool keep;

		if (!os || !gelf_getshdr(scn, &sh))
			return pm_err_set(e, -EIO, "%s: %s", in, elf_errmsg(-1));
		keep = sh.sh_type == SHT_SYMTAB || sh.sh_type == SHT_STRTAB ||
		       sh.sh_type == SHT_NOTE || sh.sh_type == SHT_SYMTAB_SHNDX;
		if (keep && sh.sh_type != SHT_NOBITS) {
			id = elf_rawdata(scn, NULL);
			od = elf_newdata(os);
			if (!id || !od)
				return pm_err_set(e, -EIO, "%s: %s", in, elf_errmsg(-1));
			*od = *id;
			od->d_off = 0;
			if (sh.sh_addralign > 1)
				*off = (*off + sh.sh_addralign - 1) / sh.sh_addralign *
				       sh.sh_addralign;
			sh.sh_offset = *off;
			*off += sh.sh_size;
		} else {
			sh.sh_type = SHT_NOBITS;
			sh.sh_offset = *off;
		}
		if (!gelf_update_shdr(os, &sh))
			return pm_err_set(e, -EIO, "%s: %s", out, elf_errmsg(-1));
	}
	return 0;
}

int pm_vmlinux_strip(const char *in, const char *out, struct pm_err *e)
{
	Elf *ielf = NULL, *oelf = NULL;
	GElf_Ehdr eh;
	size_t shstrndx;
	uint64_t off;
	int ifd, ofd = -1, err = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return pm_err_set(e, -ENOTSUP, "libelf: %s", elf_errmsg(-1));
	ifd = open(in, O_RDONLY | O_CLOEXEC);
	if (ifd < 0)
		return pm_err_set(e, -errno, "%s: %s", in, strerror(errno));
	ielf = elf_begin(ifd, ELF_C_READ, NULL);
	if (!ielf || elf_kind(ielf) != ELF_K_ELF || !gelf_getehdr(ielf, &eh) ||
	    elf_getshdrstrndx(ielf, &shstrndx)) {
		err = pm_err_set(e, -EINVAL, "%s: not an ELF file with sections", in);
		goto out;
	}
	ofd = open(out, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (ofd < 0) {
		err = pm_err_set(e, -errno, "%s: %s", out, strerror(errno));
		goto out;
	}
	oelf = elf_begin(ofd, ELF_C_WRITE, NULL);
	if (!oelf || !gelf_newehdr(oelf, gelf_getclass(ielf))) {
		err = pm_err_set(e, -EIO, "%s: %s", out, elf_errmsg(-1));
		goto out;
	}
	/* we place the sections: the header, then the kept data */
	elf_flagelf(oelf, ELF_C_SET, ELF_F_LAYOUT);
	off = eh.e_ehsize;
	err = copy_sections(ielf, oelf, in, out, &off, e);
	if (err)
		goto out;
	eh.e_phnum = 0;
	eh.e_phoff = 0;
	eh.e_shoff = (off + 7) & ~(uint64_t)7;
	eh.e_shstrndx = (Elf64_Half)shstrndx;
	if (!gelf_update_ehdr(oelf, &eh) || elf_update(oelf, ELF_C_WRITE) < 0)
		err = pm_err_set(e, -EIO, "%s: %s", out, elf_errmsg(-1));
out:
	if (oelf)
		elf_end(oelf);
	if (ielf)
		elf_end(ielf);
	if (ofd >= 0 && close(ofd) && !err)
		err = pm_err_set(e, -errno, "%s: %s", out, strerror(errno));
	close(ifd);
	if (err && ofd >= 0)
		unlink(out);
	return err;
}

#else

int pm_vmlinux_strip(const char *in, const char *out, struct pm_err *e)
{
	return pm_err_set(e, -ENOTSUP, "pmbench was built without libelf: cannot "
			  "copy the symbols of %s", in);
}

#endif
