/* User-space symbols: runtime address -> mapped file -> ELF symbol. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/stat.h>
#include <unistd.h>

#include "symbols/symbols.h"

#define DELETED " (deleted)"

/* One mapped file, loaded once; failures are cached like successes. */
struct obj {
	struct obj *next;		/* hash chain */
	char *path;
	struct pm_symtab *symtab;	/* NULL when no symbols could be read */
	struct pm_elf_info info;
	bool have_info;
	int err;			/* why symtab is NULL */
};

/* Not thread-safe: one cache per resolving thread. */
struct pm_symcache {
	struct obj **bucket;
	size_t nbucket, n;
	/* this process's vDSO: processes of the same ABI map the same image */
	bool vdso_tried;
	uint64_t vdso_len;
	struct obj vdso;
};

static uint64_t hash_str(const char *s, size_t n)
{
	uint64_t h = 0xcbf29ce484222325ull;	/* FNV-1a */
	size_t i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 0x100000001b3ull;
	return h;
}

struct pm_symcache *pm_symcache_new(void)
{
	struct pm_symcache *c = pm_xcalloc(1, sizeof(*c));

	c->nbucket = 64;
	c->bucket = pm_xcalloc(c->nbucket, sizeof(*c->bucket));
	return c;
}

static void obj_clear(struct obj *o)
{
	pm_symtab_free(o->symtab);
	free(o->path);
}

void pm_symcache_free(struct pm_symcache *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nbucket; i++) {
		struct obj *o = c->bucket[i], *next;

		for (; o; o = next) {
			next = o->next;
			obj_clear(o);
			free(o);
		}
	}
	obj_clear(&c->vdso);
	free(c->bucket);
	free(c);
}

static void grow(struct pm_symcache *c)
{
	size_t nb = c->nbucket * 2, i;
	struct obj **b = pm_xcalloc(nb, sizeof(*b));

	for (i = 0; i < c->nbucket; i++) {
		struct obj *o = c->bucket[i], *next;

		for (; o; o = next) {
			size_t h = hash_str(o->path, strlen(o->path)) & (nb - 1);

			next = o->next;
			o->next = b[h];
			b[h] = o;
		}
	}
	free(c->bucket);
	c->bucket = b;
	c->nbucket = nb;
}

/* Stripped objects: symbols from an installed separate debug file. */
static void load_debug_file(struct obj *o, const char *path)
{
	const char *id = o->info.build_id;
	struct pm_elf_info dinfo;
	struct pm_symtab *t;
	char *cand[2];
	size_t i;

	cand[0] = id[0] && id[1] && id[2]
		? pm_xasprintf("/usr/lib/debug/.build-id/%.2s/%s.debug", id, id + 2)
		: NULL;
	cand[1] = pm_xasprintf("/usr/lib/debug%s.debug", path);
	for (i = 0; i < PM_ARRAY_SIZE(cand); i++) {
		if (!cand[i] || access(cand[i], R_OK))
			continue;
		/* a debug file of another build would name the wrong code */
		if (pm_elf_info(cand[i], &dinfo, NULL) || strcmp(dinfo.build_id, id))
			continue;
		if (pm_symtab_load_elf(&t, cand[i], NULL))
			continue;
		if (strcmp(pm_symtab_source(t), ".symtab")) {
			pm_symtab_free(t);
			continue;
		}
		pm_symtab_free(o->symtab);
		o->symtab = t;
		o->err = 0;
		break;
	}
	free(cand[0]);
	free(cand[1]);
}

static void obj_load(struct obj *o, pid_t pid)
{
	char *alt = NULL;
	const char *path = o->path;
	struct stat st;
	int err;

	/* a process in another mount namespace sees its files under its root */
	if (pid > 0 && pid != getpid() && stat(path, &st)) {
		alt = pm_xasprintf("/proc/%d/root%s", (int)pid, path);
		if (!stat(alt, &st))
			path = alt;
	}
	/* never open devices or FIFOs: opening can block or have effects */
	if (stat(path, &st)) {
		o->err = -errno;
	} else if (!S_ISREG(st.st_mode)) {
		o->err = -ENOENT;
	} else if (!(o->err = pm_elf_info(path, &o->info, NULL))) {
		o->have_info = true;
		err = pm_symtab_load_elf(&o->symtab, path, NULL);
		o->err = err;
		if ((err || !strcmp(pm_symtab_source(o->symtab), ".dynsym")) &&
		    o->info.build_id[0])
			load_debug_file(o, o->path);
	}
	free(alt);
}

/* The cached object for path (" (deleted)" stripped), loaded on first use. */
static struct obj *obj_get(struct pm_symcache *c, const char *path, pid_t pid)
{
	size_t len = strlen(path), dl = strlen(DELETED), h;
	struct obj *o;

	/* the file may have been replaced since; the old name is all we have */
	if (len > dl && !strcmp(path + len - dl, DELETED))
		len -= dl;
	h = hash_str(path, len) & (c->nbucket - 1);
	for (o = c->bucket[h]; o; o = o->next)
		if (!strncmp(o->path, path, len) && !o->path[len])
			return o;
	o = pm_xcalloc(1, sizeof(*o));
	o->path = pm_xmalloc(len + 1);
	memcpy(o->path, path, len);
	o->path[len] = '\0';
	obj_load(o, pid);
	o->next = c->bucket[h];
	c->bucket[h] = o;
	if (++c->n > c->nbucket)
		grow(c);
	return o;
}

/* The vDSO image is read from this process: another process's is not a file. */
static struct obj *vdso_get(struct pm_symcache *c, const struct pm_map *map)
{
	if (!c->vdso_tried) {
		unsigned long base = getauxval(AT_SYSINFO_EHDR);
		struct pm_maps self = { 0 };
		const struct pm_map *vm;

		c->vdso_tried = true;
		c->vdso.path = pm_xstrdup("[vdso]");
		c->vdso.err = -ENOENT;
		if (base && !pm_maps_from_proc(&self, getpid(), NULL) &&
		    (vm = pm_maps_find(&self, base)) && vm->start == base) {
			c->vdso_len = vm->end - vm->start;
			c->vdso.err = pm_elf_load_image((const void *)base, c->vdso_len,
							"[vdso]", &c->vdso.symtab,
							&c->vdso.info, NULL);
			c->vdso.have_info = !c->vdso.err;
		}
		pm_maps_free(&self);
	}
	/* a vDSO of another size belongs to another ABI (a 32-bit process) */
	if (!c->vdso.have_info || map->end - map->start != c->vdso_len)
		return NULL;
	return &c->vdso;
}

static struct obj *map_obj(struct pm_symcache *c, const struct pm_map *map,
			   pid_t pid)
{
	const char *p = map->path;

	if (!p)
		return NULL;
	if (!strcmp(p, "[vdso]"))
		return vdso_get(c, map);
	/* "//anon", "[heap]", "[stack]", "[anon:name]" have no file */
	if (p[0] != '/' || p[1] == '/')
		return NULL;
	return obj_get(c, p, pid);
}

static uint64_t file_addr(const struct obj *o, const struct pm_map *map,
			  uint64_t addr)
{
	/* ET_EXEC runs at its link addresses */
	if (!o->info.dyn)
		return addr;
	return addr - map->start + map->pgoff - o->info.text_offset +
	       o->info.text_vaddr;
}

int pm_user_file_addr(struct pm_symcache *c, const struct pm_map *map,
		      uint64_t addr, uint64_t *fa)
{
	struct obj *o = map_obj(c, map, 0);

	if (!o)
		return -ENOENT;
	if (!o->have_info)
		return o->err ? o->err : -ENOENT;
	*fa = file_addr(o, map, addr);
	return 0;
}

int pm_user_read_file(const struct pm_maps *m, uint64_t addr, void *buf,
		      size_t len)
{
	const struct pm_map *map = pm_maps_find(m, addr);
	ssize_t n;
	int fd, err;

	if (!map || !map->path || map->path[0] != '/' || map->path[1] == '/' ||
	    addr + len > map->end)
		return -ENOENT;
	fd = open(map->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	n = pread(fd, buf, len, (off_t)(map->pgoff + (addr - map->start)));
	err = n < 0 ? -errno : (size_t)n < len ? -EIO : 0;
	close(fd);
	return err;
}

int pm_user_lookup(struct pm_symcache *c, const struct pm_maps *m,
		   uint64_t addr, struct pm_user_sym *out)
{
	const struct pm_map *map;
	const struct pm_sym *s;
	struct obj *o;
	uint64_t fa;

	memset(out, 0, sizeof(*out));
	out->build_id = "";
	map = pm_maps_find(m, addr);
	if (!map)
		return -ENOENT;
	out->object = map->path;
	o = map_obj(c, map, m->pid);
	if (!o || !o->have_info)
		return -ENOENT;
	out->build_id = o->info.build_id;
	if (!o->symtab)
		return -ENOENT;
	fa = file_addr(o, map, addr);
	s = pm_symtab_lookup(o->symtab, fa);
	if (!s)
		return -ENOENT;
	out->name = s->name;
	out->sym_size = s->size;
	out->size_exact = s->size_exact;
	out->offset = fa - s->addr;
	return 0;
}
