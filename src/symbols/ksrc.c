/*
 * Which source file a kernel function comes from, read from the DWARF of
 * a vmlinux with debug info (Debian's linux-image-*-dbg) with libdw: the
 * file that declares the function (DW_AT_decl_file of its outermost
 * DW_TAG_subprogram), not the unit it was compiled in, so that the psi
 * code built inside kernel/sched/build_utility.c is kernel/sched/psi.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBDW
#include <dwarf.h>
#include <elfutils/libdw.h>
#include <gelf.h>
#endif

#include <jansson.h>

#include "symbols/symbols.h"

#ifdef HAVE_LIBDW

struct ksym {
	const char *name;
	uint64_t addr;
};

struct pm_ksrc {
	int fd;
	Dwarf *dw;
	struct ksym *v;		/* function symbols, sorted by name */
	size_t n;
	char *file;		/* the last answer */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct ksym *)a)->name, ((const struct ksym *)b)->name);
}

/* The function symbols of the ELF symbol table, for lookups by name. */
static int load_functions(struct pm_ksrc *k, struct pm_err *e)
{
	Elf *elf = dwarf_getelf(k->dw);
	Elf_Scn *scn = NULL;

	while ((scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;
		Elf_Data *d;
		size_t i, n;

		if (!gelf_getshdr(scn, &sh) || sh.sh_type != SHT_SYMTAB || !sh.sh_entsize)
			continue;
		d = elf_getdata(scn, NULL);
		n = sh.sh_size / sh.sh_entsize;
		k->v = pm_xcalloc(n ? n : 1, sizeof(*k->v));
		for (i = 0; d && i < n; i++) {
			GElf_Sym s;
			const char *name;

			if (!gelf_getsym(d, (int)i, &s) || GELF_ST_TYPE(s.st_info) != STT_FUNC ||
			    !s.st_value)
				continue;
			name = elf_strptr(elf, sh.sh_link, s.st_name);
			if (name && *name)
				k->v[k->n++] = (struct ksym){ name, s.st_value };
		}
		qsort(k->v, k->n, sizeof(*k->v), by_name);
		return 0;
	}
	return pm_err_set(e, -ENODATA, "no symbol table");
}

int pm_ksrc_open(struct pm_ksrc **out, const char *vmlinux, struct pm_err *e)
{
	struct pm_ksrc *k = pm_xcalloc(1, sizeof(*k));
	int err;

	*out = NULL;
	k->fd = open(vmlinux, O_RDONLY | O_CLOEXEC);
	if (k->fd < 0) {
		err = pm_err_set(e, -errno, "%s: %s", vmlinux, strerror(errno));
		free(k);
		return err;
	}
	k->dw = dwarf_begin(k->fd, DWARF_C_READ);
	if (!k->dw) {
		close(k->fd);
		free(k);
		return pm_err_set(e, -ENODATA, "%s: no DWARF debug info (%s)", vmlinux,
				  dwarf_errmsg(-1));
	}
	err = load_functions(k, e);
	if (err) {
		pm_ksrc_close(k);
		return pm_err_set(e, err, "%s: %s", vmlinux, e->msg);
	}
	*out = k;
	return 0;
}

/* "/build/linux-6.1/mm/slub.c" or "mm/slub.c" relative to comp_dir:
 * the path inside the kernel tree. */
static char *tree_path(Dwarf_Die *cu, const char *f)
{
	static const char *const tops[] = {
		"arch/", "block/", "certs/", "crypto/", "drivers/", "fs/", "include/",
		"init/", "io_uring/", "ipc/", "kernel/", "lib/", "mm/", "net/",
		"security/", "sound/", "virt/", "usr/", NULL,
	};
	Dwarf_Attribute a;
	const char *dir = dwarf_formstring(dwarf_attr(cu, DW_AT_comp_dir, &a));
	size_t i, n;

	if (dir && (n = strlen(dir)) && !strncmp(f, dir, n) && f[n] == '/')
		return pm_xstrdup(f + n + 1);
	if (*f != '/')
		return pm_xstrdup(f);
	for (i = 0; tops[i]; i++) {
		const char *p = strstr(f, tops[i]);

		if (p && p[-1] == '/')
			return pm_xstrdup(p);
	}
	return pm_xstrdup(f);
}

static char *file_at(struct pm_ksrc *k, uint64_t addr)
{
	Dwarf_Die cu, *scopes = NULL;
	const char *f = NULL;
	char *out = NULL;
	int n, i;

	if (!dwarf_addrdie(k->dw, addr, &cu))
		return NULL;
	n = dwarf_getscopes(&cu, addr, &scopes);
	for (i = n - 1; i >= 0 && !f; i--)
		if (dwarf_tag(&scopes[i]) == DW_TAG_subprogram)
			f = dwarf_decl_file(&scopes[i]);
	if (!f)
		f = dwarf_diename(&cu);
	if (f)
		out = tree_path(&cu, f);
	free(scopes);
	return out;
}

const char *pm_ksrc_file(struct pm_ksrc *k, const char *symbol)
{
	struct ksym key = { symbol, 0 }, *s;

	free(k->file);
	k->file = NULL;
	s = bsearch(&key, k->v, k->n, sizeof(*k->v), by_name);
	if (s)
		k->file = file_at(k, s->addr);
	return k->file;
}

size_t pm_ksrc_count(const struct pm_ksrc *k)
{
	return k->n;
}

const char *pm_ksrc_name(const struct pm_ksrc *k, size_t i)
{
	return i < k->n ? k->v[i].name : NULL;
}

void pm_ksrc_close(struct pm_ksrc *k)
{
	if (!k)
		return;
	dwarf_end(k->dw);
	close(k->fd);
	free(k->v);
	free(k->file);
	free(k);
}

/* The frames of a folded stack ("a;b;c") the vmlinux knows, into sources. */
static void annotate_stack(struct pm_ksrc *k, const char *stack, json_t *sources)
{
	char *copy = pm_xstrdup(stack), *save = NULL, *tok;

	for (tok = strtok_r(copy, ";", &save); tok; tok = strtok_r(NULL, ";", &save)) {
		const char *f;

		if (json_object_get(sources, tok))
			continue;
		f = pm_ksrc_file(k, tok);
		if (f)
			json_object_set_new(sources, tok, json_string(f));
	}
	free(copy);
}

int pm_ksrc_annotate(struct pm_ksrc *k, json_t *hotspots)
{
	const json_t *syms = json_object_get(hotspots, "symbols");
	const json_t *stacks = json_object_get(hotspots, "stacks"), *s;
	json_t *sources;
	size_t i;

	if (!json_is_object(hotspots))
		return -EINVAL;
	sources = json_object();
	json_array_foreach(syms, i, s) {
		const char *name = json_string_value(json_object_get(s, "name"));
		const char *f;

		if (name && json_is_true(json_object_get(s, "kernel")) &&
		    (f = pm_ksrc_file(k, name)))
			json_object_set_new(sources, name, json_string(f));
	}
	json_array_foreach(stacks, i, s) {
		const char *st = json_string_value(json_object_get(s, "stack"));

		if (st)
			annotate_stack(k, st, sources);
	}
	json_object_set_new(hotspots, "sources", sources);
	return 0;
}

#else /* !HAVE_LIBDW */

int pm_ksrc_open(struct pm_ksrc **out, const char *vmlinux, struct pm_err *e)
{
	*out = NULL;
	return pm_err_set(e, -ENOTSUP, "%s: source files of kernel symbols need libdw "
			  "(built without it: apt-get install libdw-dev, then configure)",
			  vmlinux);
}

const char *pm_ksrc_file(struct pm_ksrc *k, const char *symbol)
{
	(void)k;
	(void)symbol;
	return NULL;
}

size_t pm_ksrc_count(const struct pm_ksrc *k)
{
	(void)k;
	return 0;
}

const char *pm_ksrc_name(const struct pm_ksrc *k, size_t i)
{
	(void)k;
	(void)i;
	return NULL;
}

void pm_ksrc_close(struct pm_ksrc *k)
{
	(void)k;
}

int pm_ksrc_annotate(struct pm_ksrc *k, json_t *hotspots)
{
	(void)k;
	(void)hotspots;
	return -ENOTSUP;
}

#endif
