/*
 * User stack unwinding of perf samples with libunwind's remote API.
 *
 * libunwind walks a foreign address space through accessors: registers
 * come from the sample, memory from the copied user stack or, for the
 * unwind tables and code, from the ELF files the process has mapped
 * (each mapped read-only once and cached by path).  The tables are the
 * binary-search index of .eh_frame_hdr, handed to libunwind as a
 * UNW_INFO_FORMAT_REMOTE_TABLE relocated to where the object is loaded;
 * .debug_frame is a fallback when libunwind exports it.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "sample/unwind.h"

#if defined(__x86_64__)
#include <asm/perf_regs.h>
#endif

#if defined(HAVE_LIBUNWIND) && defined(HAVE_LIBELF) && defined(__x86_64__)
#define PM_UNWIND_ENABLED 1
#endif

#if defined(__x86_64__)
uint64_t pm_unwind_regs_mask(void)
{
	/* Every general purpose register: CFI may recover any of them,
	 * and a rule may use any as the CFA base. */
	return (1ull << PERF_REG_X86_AX) | (1ull << PERF_REG_X86_BX) |
	       (1ull << PERF_REG_X86_CX) | (1ull << PERF_REG_X86_DX) |
	       (1ull << PERF_REG_X86_SI) | (1ull << PERF_REG_X86_DI) |
	       (1ull << PERF_REG_X86_BP) | (1ull << PERF_REG_X86_SP) |
	       (1ull << PERF_REG_X86_IP) |
	       (1ull << PERF_REG_X86_R8) | (1ull << PERF_REG_X86_R9) |
	       (1ull << PERF_REG_X86_R10) | (1ull << PERF_REG_X86_R11) |
	       (1ull << PERF_REG_X86_R12) | (1ull << PERF_REG_X86_R13) |
	       (1ull << PERF_REG_X86_R14) | (1ull << PERF_REG_X86_R15);
}
#else
uint64_t pm_unwind_regs_mask(void)
{
	return 0;
}
#endif

#ifdef PM_UNWIND_ENABLED

#include <fcntl.h>
#include <gelf.h>
#include <libunwind.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

/* Exported by libunwind but not declared in its public headers. */
extern int UNW_OBJ(dwarf_search_unwind_table)(unw_addr_space_t as,
					      unw_word_t ip,
					      unw_dyn_info_t *di,
					      unw_proc_info_t *pi,
					      int need_unwind_info, void *arg);
/* Only present when libunwind was built with .debug_frame support
 * (not Debian's x86_64 build): weak, so we can test for it. */
extern int UNW_OBJ(dwarf_find_debug_frame)(int found, unw_dyn_info_t *di,
					   unw_word_t ip, unw_word_t segbase,
					   const char *obj_name,
					   unw_word_t start, unw_word_t end)
	__attribute__((weak));

/* DWARF pointer encodings (.eh_frame_hdr) */
#define PE_OMIT		0xff
#define PE_ABSPTR	0x00
#define PE_UDATA2	0x02
#define PE_UDATA4	0x03
#define PE_UDATA8	0x04
#define PE_SDATA2	0x0a
#define PE_SDATA4	0x0b
#define PE_SDATA8	0x0c
#define PE_PCREL	0x10
#define PE_DATAREL	0x30

#define OBJ_BUCKETS	64
#define RECENT_OBJS	4
#define SPACES		8	/* processes whose unwind caches are kept */

struct uw_load {		/* a PT_LOAD */
	uint64_t vaddr, offset, filesz;
};

/* One ELF object, keyed by the path the process mapped it from. */
struct uw_obj {
	struct uw_obj *next;	/* hash chain */
	char *path;
	int err;		/* why it cannot be used (cached), or 0 */
	const uint8_t *data;	/* the file image */
	size_t size;
	bool mapped;		/* data is our mmap (not the vDSO) */
	struct uw_load *loads;
	size_t nloads;
	uint64_t hdr_vaddr;	/* .eh_frame_hdr */
	uint64_t table_vaddr;	/* its binary search table */
	uint64_t fde_count;	/* entries in it; 0: no usable table */
	bool has_debug_frame;
};

/* libunwind's cache of unwind rules for one address space */
struct uw_space {
	unw_addr_space_t as;
	uint64_t maps_fp;	/* the maps it was filled for */
	uint64_t last_use;
};

struct pm_unwinder {
	struct uw_space spaces[SPACES];
	uint64_t uses;
	struct uw_obj *objs[OBJ_BUCKETS];
};

/* Per-unwind state handed to the accessors. */
struct uw_arg {
	struct pm_unwinder *u;
	const struct pm_unwind_input *in;
	uint64_t sp;
	/* Objects find_proc_info saw, with their load bias: the tables it
	 * points libunwind at are read through them, which works even
	 * when the maps only list executable mappings (MMAP2). */
	struct {
		const struct uw_obj *obj;
		uint64_t bias;
	} recent[RECENT_OBJS];
	unsigned nrecent;
};

/* ---- ELF objects ---- */

static uint64_t hash_str(uint64_t h, const char *s)
{
	for (; *s; s++) {
		h ^= (unsigned char)*s;
		h *= 0x100000001b3ull;
	}
	return h;
}

static uint64_t hash_u64(uint64_t h, uint64_t v)
{
	h ^= v;
	return h * 0x100000001b3ull;
}

#define HASH_INIT 0xcbf29ce484222325ull

static int obj_map_file(struct uw_obj *o)
{
	struct stat st;
	void *p;
	int fd, err = 0;

	fd = open(o->path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		err = -errno;
	else if (!S_ISREG(st.st_mode))
		err = -ENOEXEC;
	else if ((uint64_t)st.st_size < sizeof(Elf64_Ehdr))
		err = -ENOEXEC;
	if (!err) {
		p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
		if (p == MAP_FAILED) {
			err = -errno;
		} else {
			o->data = p;
			o->size = (size_t)st.st_size;
			o->mapped = true;
		}
	}
	close(fd);
	return err;
}

/*
 * "[vdso]" has no file, but every 64-bit process of this kernel maps the
 * same image, so our own copy serves for any process.  Its size is where
 * the last header or segment ends (reading past our mapping would fault).
 */
static int obj_map_vdso(struct uw_obj *o)
{
	const Elf64_Ehdr *eh = (const void *)getauxval(AT_SYSINFO_EHDR);
	const Elf64_Phdr *ph;
	uint64_t end;
	unsigned i;

	if (!eh || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64)
		return -ENOENT;
	end = eh->e_phoff + (uint64_t)eh->e_phnum * eh->e_phentsize;
	if (eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize > end)
		end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
	ph = (const void *)((const uint8_t *)eh + eh->e_phoff);
	for (i = 0; i < eh->e_phnum; i++)
		if (ph[i].p_offset + ph[i].p_filesz > end)
			end = ph[i].p_offset + ph[i].p_filesz;
	o->data = (const uint8_t *)eh;
	o->size = end;
	return 0;
}

/* Read a DW_EH_PE encoded value at p[*pos]; pcrel is relative to
 * the field's vaddr (base + *pos), datarel to base. */
static int read_encoded(const uint8_t *p, size_t len, size_t *pos,
			uint8_t enc, uint64_t base, uint64_t *out)
{
	size_t at = *pos, n;
	uint64_t v;

	switch (enc & 0x0f) {
	case PE_ABSPTR: case PE_UDATA8: case PE_SDATA8: n = 8; break;
	case PE_UDATA4: case PE_SDATA4: n = 4; break;
	case PE_UDATA2: case PE_SDATA2: n = 2; break;
	default: return -EINVAL;
	}
	if (at > len || len - at < n)
		return -EINVAL;
	if (n == 8) {
		memcpy(&v, p + at, 8);
	} else if (n == 4) {
		uint32_t x;

		memcpy(&x, p + at, 4);
		v = (enc & 0x0f) == PE_SDATA4 ? (uint64_t)(int64_t)(int32_t)x : x;
	} else {
		uint16_t x;

		memcpy(&x, p + at, 2);
		v = (enc & 0x0f) == PE_SDATA2 ? (uint64_t)(int64_t)(int16_t)x : x;
	}
	switch (enc & 0x70) {
	case 0: break;
	case PE_PCREL: v += base + at; break;
	case PE_DATAREL: v += base; break;
	default: return -EINVAL;
	}
	*pos = at + n;
	*out = v;
	return 0;
}

/* The binary search table of .eh_frame_hdr (version 1). */
static void parse_eh_frame_hdr(struct uw_obj *o, uint64_t vaddr,
			       uint64_t offset, uint64_t size)
{
	const uint8_t *p;
	size_t pos = 4;
	uint64_t eh_frame, count;

	if (offset > o->size || o->size - offset < size || size < 4)
		return;
	p = o->data + offset;
	if (p[0] != 1 || p[1] == PE_OMIT || p[2] == PE_OMIT)
		return;
	if (read_encoded(p, size, &pos, p[1], vaddr, &eh_frame) < 0 ||
	    read_encoded(p, size, &pos, p[2], vaddr, &count) < 0)
		return;
	/* libunwind's remote search only knows this table encoding */
	if (p[3] != (PE_DATAREL | PE_SDATA4) || !count ||
	    count > (size - pos) / 8)
		return;
	o->hdr_vaddr = vaddr;
	o->table_vaddr = vaddr + pos;
	o->fde_count = count;
}

static int obj_parse(struct uw_obj *o)
{
	uint64_t hdr_vaddr = 0, hdr_off = 0, hdr_size = 0;
	bool have_hdr = false;
	size_t i, phnum, shstrndx;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	Elf *elf;
	int err = 0;

	if (elf_version(EV_CURRENT) == EV_NONE)
		return -ENOSYS;
	elf = elf_memory((char *)o->data, o->size);
	if (!elf)
		return -ENOEXEC;
	if (elf_kind(elf) != ELF_K_ELF || !gelf_getehdr(elf, &eh) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64 || eh.e_machine != EM_X86_64 ||
	    elf_getphdrnum(elf, &phnum) < 0) {
		err = -ENOEXEC;
		goto out;
	}
	o->loads = pm_xcalloc(phnum ? phnum : 1, sizeof(*o->loads));
	for (i = 0; i < phnum; i++) {
		GElf_Phdr ph;

		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (ph.p_type == PT_LOAD && ph.p_filesz) {
			o->loads[o->nloads].vaddr = ph.p_vaddr;
			o->loads[o->nloads].offset = ph.p_offset;
			o->loads[o->nloads].filesz = ph.p_filesz;
			o->nloads++;
		} else if (ph.p_type == PT_GNU_EH_FRAME) {
			/* what the dynamic loader uses: works stripped */
			hdr_vaddr = ph.p_vaddr;
			hdr_off = ph.p_offset;
			hdr_size = ph.p_filesz;
			have_hdr = true;
		}
	}
	if (elf_getshdrstrndx(elf, &shstrndx) == 0) {
		while ((scn = elf_nextscn(elf, scn))) {
			GElf_Shdr sh;
			const char *name;

			if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
				continue;
			name = elf_strptr(elf, shstrndx, sh.sh_name);
			if (!name)
				continue;
			if (!have_hdr && !strcmp(name, ".eh_frame_hdr")) {
				hdr_vaddr = sh.sh_addr;
				hdr_off = sh.sh_offset;
				hdr_size = sh.sh_size;
				have_hdr = true;
			} else if (!strcmp(name, ".debug_frame") && sh.sh_size) {
				o->has_debug_frame = true;
			}
		}
	}
	/* .eh_frame itself is read by address (the table's FDE pointers)
	 * through the PT_LOAD holding it.  Without any CFI the object
	 * still serves reads of its code (PLT detection). */
	if (have_hdr)
		parse_eh_frame_hdr(o, hdr_vaddr, hdr_off, hdr_size);
out:
	elf_end(elf);
	return err;
}

static struct uw_obj *obj_get(struct pm_unwinder *u, const char *path)
{
	uint64_t h = hash_str(HASH_INIT, path) % OBJ_BUCKETS;
	struct uw_obj *o;

	for (o = u->objs[h]; o; o = o->next)
		if (!strcmp(o->path, path))
			return o->err ? NULL : o;
	o = pm_xcalloc(1, sizeof(*o));
	o->path = pm_xstrdup(path);
	o->err = strcmp(path, "[vdso]") ? obj_map_file(o) : obj_map_vdso(o);
	if (!o->err)
		o->err = obj_parse(o);
	if (o->err && o->mapped) {
		/* keep only the negative answer */
		munmap((void *)o->data, o->size);
		o->mapped = false;
		o->data = NULL;
	}
	o->next = u->objs[h];
	u->objs[h] = o;
	return o->err ? NULL : o;
}

/* The object behind a mapping, NULL for anonymous memory. */
static struct uw_obj *obj_for_map(struct pm_unwinder *u,
				  const struct pm_map *map)
{
	if (!map->path || (map->path[0] != '/' && strcmp(map->path, "[vdso]")))
		return NULL;
	return obj_get(u, map->path);
}

static void obj_free(struct uw_obj *o)
{
	if (o->mapped)
		munmap((void *)o->data, o->size);
	free(o->loads);
	free(o->path);
	free(o);
}

static const struct uw_load *load_by_offset(const struct uw_obj *o,
					    uint64_t off)
{
	size_t i;

	for (i = 0; i < o->nloads; i++)
		if (off >= o->loads[i].offset &&
		    off - o->loads[i].offset < o->loads[i].filesz)
			return &o->loads[i];
	return NULL;
}

static int obj_read(const struct uw_obj *o, uint64_t off, unw_word_t *val)
{
	if (off > o->size || o->size - off < sizeof(*val))
		return -UNW_EINVAL;
	memcpy(val, o->data + off, sizeof(*val));
	return 0;
}

/* ---- accessors ---- */

static void remember(struct uw_arg *a, const struct uw_obj *o, uint64_t bias)
{
	unsigned i;

	for (i = 0; i < a->nrecent; i++)
		if (a->recent[i].obj == o && a->recent[i].bias == bias)
			return;
	/* when full, reuse the last slot: a table is read right after the
	 * lookup that remembered it */
	if (a->nrecent < RECENT_OBJS)
		i = a->nrecent++;
	else
		i = RECENT_OBJS - 1;
	a->recent[i].obj = o;
	a->recent[i].bias = bias;
}

static int find_proc_info(unw_addr_space_t as, unw_word_t ip,
			  unw_proc_info_t *pi, int need_unwind_info, void *arg)
{
	struct uw_arg *a = arg;
	const struct pm_map *map = pm_maps_find(a->in->maps, ip);
	const struct uw_load *load;
	struct uw_obj *o;
	uint64_t off, bias;
	int ret = -UNW_ENOINFO;

	if (!map || !(o = obj_for_map(a->u, map)))
		return -UNW_ENOINFO;
	/* runtime = link-time vaddr + bias; bias is 0 for ET_EXEC and the
	 * load address for ET_DYN (PIE, shared objects) */
	off = ip - map->start + map->pgoff;
	load = load_by_offset(o, off);
	if (!load)
		return -UNW_ENOINFO;
	bias = ip - (off - load->offset + load->vaddr);
	remember(a, o, bias);

	if (o->fde_count) {
		unw_dyn_info_t di;

		memset(&di, 0, sizeof(di));
		di.format = UNW_INFO_FORMAT_REMOTE_TABLE;
		di.start_ip = map->start;
		di.end_ip = map->end;
		/* table entries are relative to .eh_frame_hdr */
		di.u.rti.segbase = o->hdr_vaddr + bias;
		di.u.rti.table_data = o->table_vaddr + bias;
		di.u.rti.table_len = o->fde_count * 8 / sizeof(unw_word_t);
		ret = UNW_OBJ(dwarf_search_unwind_table)(as, ip, &di, pi,
							 need_unwind_info, arg);
	}
	if (ret == -UNW_ENOINFO && o->has_debug_frame && o->mapped &&
	    UNW_OBJ(dwarf_find_debug_frame)) {
		unw_dyn_info_t di;

		memset(&di, 0, sizeof(di));
		/* libunwind reads the file itself, into its own memory */
		if (UNW_OBJ(dwarf_find_debug_frame)(0, &di, ip, bias, o->path,
						    map->start, map->end))
			ret = UNW_OBJ(dwarf_search_unwind_table)(
				as, ip, &di, pi, need_unwind_info, arg);
	}
	return ret;
}

static void put_unwind_info(unw_addr_space_t as, unw_proc_info_t *pi,
			    void *arg)
{
	/* libunwind frees DWARF unwind info itself */
}

static int get_dyn_info_list_addr(unw_addr_space_t as, unw_word_t *dilap,
				  void *arg)
{
	return -UNW_ENOINFO;
}

static int access_mem(unw_addr_space_t as, unw_word_t addr, unw_word_t *valp,
		      int write, void *arg)
{
	struct uw_arg *a = arg;
	const struct pm_unwind_input *in = a->in;
	const struct pm_map *map;
	const struct uw_obj *o;
	unsigned i;

	if (write)
		return -UNW_EINVAL;
	if (addr >= a->sp && in->stack_size >= sizeof(*valp) &&
	    addr - a->sp <= in->stack_size - sizeof(*valp)) {
		memcpy(valp, in->stack + (addr - a->sp), sizeof(*valp));
		return 0;
	}
	/* unwind tables of the objects being unwound through */
	for (i = 0; i < a->nrecent; i++) {
		const struct uw_load *l;
		uint64_t vaddr = addr - a->recent[i].bias;
		size_t j;

		o = a->recent[i].obj;
		for (j = 0; j < o->nloads; j++) {
			l = &o->loads[j];
			if (vaddr >= l->vaddr && vaddr - l->vaddr < l->filesz &&
			    l->filesz - (vaddr - l->vaddr) >= sizeof(*valp))
				return obj_read(o, vaddr - l->vaddr + l->offset,
						valp);
		}
	}
	/* code or data of any mapped file; the stack beyond the copy and
	 * anonymous memory are unknown */
	map = pm_maps_find(in->maps, addr);
	if (!map || !(o = obj_for_map(a->u, map)))
		return -UNW_EINVAL;
	return obj_read(o, addr - map->start + map->pgoff, valp);
}

/* libunwind x86_64 register number -> PERF_REG_X86_* */
static const int8_t unw_to_perf[] = {
	[UNW_X86_64_RAX] = PERF_REG_X86_AX, [UNW_X86_64_RDX] = PERF_REG_X86_DX,
	[UNW_X86_64_RCX] = PERF_REG_X86_CX, [UNW_X86_64_RBX] = PERF_REG_X86_BX,
	[UNW_X86_64_RSI] = PERF_REG_X86_SI, [UNW_X86_64_RDI] = PERF_REG_X86_DI,
	[UNW_X86_64_RBP] = PERF_REG_X86_BP, [UNW_X86_64_RSP] = PERF_REG_X86_SP,
	[UNW_X86_64_R8] = PERF_REG_X86_R8, [UNW_X86_64_R9] = PERF_REG_X86_R9,
	[UNW_X86_64_R10] = PERF_REG_X86_R10, [UNW_X86_64_R11] = PERF_REG_X86_R11,
	[UNW_X86_64_R12] = PERF_REG_X86_R12, [UNW_X86_64_R13] = PERF_REG_X86_R13,
	[UNW_X86_64_R14] = PERF_REG_X86_R14, [UNW_X86_64_R15] = PERF_REG_X86_R15,
	[UNW_X86_64_RIP] = PERF_REG_X86_IP,
};

/* The sampled value of a PERF_REG_X86_* register: regs holds the set
 * bits of the mask in ascending order. */
static int sample_reg(const struct pm_unwind_input *in, int perf_reg,
		      uint64_t *val)
{
	uint64_t bit = 1ull << perf_reg;

	if (!(in->regs_mask & bit))
		return -1;
	*val = in->regs[__builtin_popcountll(in->regs_mask & (bit - 1))];
	return 0;
}

static int access_reg(unw_addr_space_t as, unw_regnum_t reg, unw_word_t *valp,
		      int write, void *arg)
{
	struct uw_arg *a = arg;
	uint64_t v;

	if (write)
		return -UNW_EREADONLYREG;
	if (reg < 0 || (size_t)reg >= PM_ARRAY_SIZE(unw_to_perf) ||
	    sample_reg(a->in, unw_to_perf[reg], &v) < 0)
		return -UNW_EBADREG;
	*valp = v;
	return 0;
}

static int access_fpreg(unw_addr_space_t as, unw_regnum_t reg,
			unw_fpreg_t *val, int write, void *arg)
{
	return -UNW_EINVAL;
}

static int resume(unw_addr_space_t as, unw_cursor_t *cu, void *arg)
{
	return -UNW_EINVAL;
}

static int get_proc_name(unw_addr_space_t as, unw_word_t addr, char *buf,
			 size_t len, unw_word_t *offp, void *arg)
{
	return -UNW_EINVAL;	/* symbols are resolved elsewhere */
}

static unw_accessors_t accessors = {
	.find_proc_info = find_proc_info,
	.put_unwind_info = put_unwind_info,
	.get_dyn_info_list_addr = get_dyn_info_list_addr,
	.access_mem = access_mem,
	.access_reg = access_reg,
	.access_fpreg = access_fpreg,
	.resume = resume,
	.get_proc_name = get_proc_name,
};

/* ---- API ---- */

struct pm_unwinder *pm_unwinder_new(void)
{
	return pm_xcalloc(1, sizeof(struct pm_unwinder));
}

void pm_unwinder_free(struct pm_unwinder *u)
{
	size_t i;

	if (!u)
		return;
	for (i = 0; i < SPACES; i++)
		if (u->spaces[i].as)
			unw_destroy_addr_space(u->spaces[i].as);
	for (i = 0; i < OBJ_BUCKETS; i++) {
		while (u->objs[i]) {
			struct uw_obj *o = u->objs[i];

			u->objs[i] = o->next;
			obj_free(o);
		}
	}
	free(u);
}

/*
 * libunwind caches unwind rules by IP: they are only valid for the
 * address space they were found in.  Cheap enough for every sample: the
 * ranges and the length of each path, not its text (a different file at
 * exactly the same ranges in the same pid goes unnoticed).
 */
static uint64_t maps_fingerprint(const struct pm_maps *m)
{
	uint64_t h = hash_u64(hash_u64(HASH_INIT, (uint64_t)m->pid), m->n);
	size_t i;

	for (i = 0; i < m->n; i++) {
		const struct pm_map *x = &m->v[i];
		uint64_t k = x->start * 0x9e3779b97f4a7c15ull ^
			     x->end * 0xc2b2ae3d27d4eb4full ^
			     x->pgoff * 0x165667b19e3779f9ull ^
			     (x->path ? strlen(x->path) : 0);

		h = ((h << 7) | (h >> 57)) ^ k;
	}
	return h;
}

/*
 * The address space (and its cache) for these maps: one per process
 * seen lately, so samples interleaved across processes (fork, exec
 * benchmarks) do not flush each other's rules.  The least recently used
 * is recycled when the maps are new or changed.
 */
static unw_addr_space_t space_for(struct pm_unwinder *u,
				  const struct pm_maps *m)
{
	uint64_t fp = maps_fingerprint(m);
	struct uw_space *sp = &u->spaces[0];
	size_t i;

	for (i = 0; i < SPACES; i++) {
		struct uw_space *x = &u->spaces[i];

		if (x->as && x->maps_fp == fp) {
			sp = x;
			goto found;
		}
		if (!x->as || (sp->as && x->last_use < sp->last_use))
			sp = x;
	}
	if (!sp->as) {
		sp->as = unw_create_addr_space(&accessors, 0);
		if (!sp->as)
			return NULL;
		unw_set_caching_policy(sp->as, UNW_CACHE_GLOBAL);
	} else {
		unw_flush_cache(sp->as, 0, 0);
	}
	sp->maps_fp = fp;
found:
	sp->last_use = ++u->uses;
	return sp->as;
}

int pm_unwind(struct pm_unwinder *u, const struct pm_unwind_input *in,
	      uint64_t *ips, size_t max, size_t *n)
{
	struct uw_arg a;
	unw_cursor_t cursor;
	unw_addr_space_t as;
	uint64_t ip;
	int ret;

	*n = 0;
	if (!in->maps || !in->regs || (in->stack_size && !in->stack) || !max)
		return -EINVAL;
	if (sample_reg(in, PERF_REG_X86_IP, &ip) < 0 ||
	    sample_reg(in, PERF_REG_X86_SP, &a.sp) < 0)
		return -EINVAL;
	as = space_for(u, in->maps);
	if (!as)
		return -ENOMEM;
	a.u = u;
	a.in = in;
	a.nrecent = 0;

	ips[(*n)++] = ip;
	if (unw_init_remote(&cursor, as, &a) < 0)
		return -ENODATA;
	for (;;) {
		unw_word_t w;

		ret = unw_step(&cursor);
		if (ret == 0)
			return 0;	/* outermost frame */
		if (ret < 0 || *n == max)
			return -ENODATA;
		if (unw_get_reg(&cursor, UNW_REG_IP, &w) < 0)
			return -ENODATA;
		ips[(*n)++] = w;
	}
}

#else /* !PM_UNWIND_ENABLED */

struct pm_unwinder {
	int unused;
};

struct pm_unwinder *pm_unwinder_new(void)
{
	return pm_xcalloc(1, sizeof(struct pm_unwinder));
}

void pm_unwinder_free(struct pm_unwinder *u)
{
	free(u);
}

int pm_unwind(struct pm_unwinder *u, const struct pm_unwind_input *in,
	      uint64_t *ips, size_t max, size_t *n)
{
	*n = 0;
	return -ENOSYS;
}

#endif
