/* Symbol tables: /proc/kallsyms text and ELF .symtab/.dynsym. */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_LIBELF
#include <gelf.h>
#endif

#include "symbols/symbols.h"

#ifdef HAVE_CXA_DEMANGLE
/* libstdc++'s demangler (the Itanium C++ ABI), callable from C */
char *__cxa_demangle(const char *mangled, char *buf, size_t *len, int *status);
#endif

/* A symbol without a known size still covers at most this much. */
#define UNSIZED_MAX 4096

struct pm_symtab {
	struct pm_sym *v;	/* sorted by addr; equal addresses only in kallsyms */
	uint64_t *addr;		/* v[i].addr, dense: the binary search stays in cache */
	size_t n;
	char *names;		/* arena every name points into */
	uint32_t *mod;		/* kallsyms: module index per symbol, 0 = vmlinux */
	const char **modules;	/* [0] unused */
	size_t nmod;
	const char *source;
};

/* Sorting record: the final order must not depend on qsort stability. */
struct ent {
	uint64_t addr;
	uint64_t size;
	size_t name;		/* arena offset */
	uint32_t mod;
	uint32_t idx;		/* input order */
	uint8_t rank;		/* lower is preferred among equal addresses */
	uint8_t shidx_ok;	/* ELF: section bounds below are valid */
	uint64_t sec_end;	/* ELF: end of the symbol's section */
};

static int ent_cmp(const void *a, const void *b)
{
	const struct ent *x = a, *y = b;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->rank != y->rank)
		return x->rank < y->rank ? -1 : 1;
	return x->idx < y->idx ? -1 : x->idx > y->idx;
}

/*
 * Sort; input already in address order (/proc/kallsyms, most .symtabs)
 * only needs its runs of aliases ordered, which are short.
 */
static void sort_ents(struct ent *v, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++)
		if (v[i - 1].addr > v[i].addr) {
			pm_sort(v, n, sizeof(*v), ent_cmp);
			return;
		}
	for (i = 1; i < n; i++) {
		struct ent x;

		if (v[i - 1].addr != v[i].addr || ent_cmp(&v[i - 1], &v[i]) <= 0)
			continue;
		x = v[i];
		for (j = i; j > 0 && v[j - 1].addr == x.addr && ent_cmp(&v[j - 1], &x) > 0; j--)
			v[j] = v[j - 1];
		v[j] = x;
	}
}

void pm_symtab_free(struct pm_symtab *t)
{
	if (!t)
		return;
	free(t->v);
	free(t->addr);
	free(t->names);
	free(t->mod);
	free(t->modules);
	free(t);
}

static void fill_addr(struct pm_symtab *t)
{
	size_t i;

	t->addr = pm_xmalloc(t->n * sizeof(*t->addr));
	for (i = 0; i < t->n; i++)
		t->addr[i] = t->v[i].addr;
}

size_t pm_symtab_count(const struct pm_symtab *t)
{
	return t ? t->n : 0;
}

const struct pm_sym *pm_symtab_at(const struct pm_symtab *t, size_t i)
{
	return t && i < t->n ? &t->v[i] : NULL;
}

const char *pm_symtab_source(const struct pm_symtab *t)
{
	return t ? t->source : NULL;
}

const struct pm_sym *pm_symtab_lookup(const struct pm_symtab *t, uint64_t addr)
{
	size_t lo = 0, hi, i;
	const struct pm_sym *s;
	uint64_t span;

	if (!t || !t->n || addr < t->addr[0])
		return NULL;
	/* last symbol starting at or below addr */
	hi = t->n;
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (t->addr[mid] <= addr)
			lo = mid;
		else
			hi = mid;
	}
	/* the first of a group of aliases is the preferred name */
	for (i = lo; i > 0 && t->addr[i - 1] == t->addr[lo]; i--)
		;
	s = &t->v[i];
	span = s->size ? s->size : UNSIZED_MAX;
	return addr - s->addr < span ? s : NULL;
}

const char *pm_symtab_module(const struct pm_symtab *t, const struct pm_sym *s)
{
	size_t i;

	if (!t || !s || !t->mod || s < t->v || s >= t->v + t->n)
		return NULL;
	i = (size_t)(s - t->v);
	return t->mod[i] ? t->modules[t->mod[i]] : NULL;
}

const struct pm_sym *pm_symtab_find(const struct pm_symtab *t, const char *name)
{
	size_t i;

	if (!t || !name)
		return NULL;
	for (i = 0; i < t->n; i++)
		if (!strcmp(t->v[i].name, name))
			return &t->v[i];
	return NULL;
}

void pm_symtab_relocate(struct pm_symtab *t, uint64_t delta, const char *source)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->n; i++) {
		t->v[i].addr += delta;
		t->addr[i] += delta;
	}
	if (source)
		t->source = source;
}

/* ---- kallsyms ---- */

static int hexval(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* kallsyms binding: global, weak, local */
static uint8_t ktype_rank(char type)
{
	switch (type) {
	case 'T':
		return 0;
	case 'W':
	case 'w':
		return 1;
	default:
		return 2;
	}
}

/* Among aliases, names with fewer leading underscores read better; a
 * 64-bit kernel's syscall is its __x64_sys_ name, not the compat
 * __ia32_sys_ alias at the same address. */
static uint8_t underscores(const char *s)
{
	uint8_t n = 0;

	if (!strncmp(s, "__ia32_", 7))
		return 14;
	while (s[n] == '_' && n < 13)
		n++;
	return n;
}

/* End markers: they start a hole (rodata, data), not code. */
static bool end_marker(const char *name)
{
	return !strcmp(name, "_etext") || !strcmp(name, "_einittext");
}

/* One line of kallsyms: "ffffffff81000000 T _stext" or "... t name\t[module]". */
struct kallsyms_line {
	uint64_t addr;
	char type;
	const char *name, *mod;
	size_t name_len, mod_len;
};

/* False when [p, le) is not a symbol line at all. */
static bool kallsyms_parse_line(const char *p, const char *le, struct kallsyms_line *l)
{
	const char *q = p;
	int digits = 0, d;

	memset(l, 0, sizeof(*l));
	while (q < le && (d = hexval((unsigned char)*q)) >= 0) {
		l->addr = l->addr << 4 | (uint64_t)d;
		q++;
		digits++;
	}
	if (!digits || digits > 16 || le - q < 4 || q[0] != ' ' || q[2] != ' ')
		return false;
	l->type = q[1];
	l->name = q + 3;
	for (q = l->name; q < le && *q != '\t' && *q != ' '; q++)
		;
	l->name_len = (size_t)(q - l->name);
	if (!l->name_len)
		return false;
	while (q < le && (*q == '\t' || *q == ' '))
		q++;
	if (q < le && *q == '[') {
		const char *c = memchr(q, ']', (size_t)(le - q));

		l->mod = q + 1;
		l->mod_len = c ? (size_t)(c - l->mod) : (size_t)(le - l->mod);
	}
	return true;
}

/* The table as it is read: entries, the name arena, the module names. */
struct kallsyms_build {
	struct pm_symtab *t;
	struct ent *v;
	size_t n, cap, used, modcap;
	uint32_t last_mod;
	size_t last_mod_off, last_mod_len;
	uint64_t etext;
	bool have_etext;
};

/* The module's index in t->modules (0 = vmlinux), added when new. */
static uint32_t kallsyms_module(struct kallsyms_build *b, const char *mod, size_t mod_len)
{
	struct pm_symtab *t = b->t;
	uint32_t m;

	if (!mod || !mod_len)
		return 0;
	/* a module's symbols come together: one compare */
	if (b->last_mod && mod_len == b->last_mod_len &&
	    !memcmp(t->names + b->last_mod_off, mod, mod_len))
		return b->last_mod;
	for (m = 1; m < t->nmod; m++)
		if (strlen(t->modules[m]) == mod_len && !memcmp(t->modules[m], mod, mod_len))
			break;
	if (m == t->nmod) {
		if (t->nmod == b->modcap) {
			b->modcap *= 2;
			t->modules = pm_xrealloc(t->modules, b->modcap * sizeof(*t->modules));
		}
		/* the arena does not move: pointers are stable */
		memcpy(t->names + b->used, mod, mod_len);
		t->names[b->used + mod_len] = '\0';
		t->modules[t->nmod++] = t->names + b->used;
		b->used += mod_len + 1;
	}
	b->last_mod = m;
	b->last_mod_off = (size_t)(t->modules[m] - t->names);
	b->last_mod_len = mod_len;
	return m;
}

static void kallsyms_add(struct kallsyms_build *b, const struct kallsyms_line *l)
{
	struct pm_symtab *t = b->t;
	struct ent *x;

	if (b->n == b->cap) {
		b->cap *= 2;
		b->v = pm_xrealloc(b->v, b->cap * sizeof(*b->v));
	}
	x = &b->v[b->n];
	x->addr = l->addr;
	x->size = 0;
	x->name = b->used;
	x->idx = (uint32_t)b->n;
	memcpy(t->names + b->used, l->name, l->name_len);
	t->names[b->used + l->name_len] = '\0';
	b->used += l->name_len + 1;
	/* rank: binding, then fewer leading underscores */
	x->rank = (uint8_t)(ktype_rank(l->type) << 4 | underscores(t->names + x->name));
	x->mod = kallsyms_module(b, l->mod, l->mod_len);
	if (!x->mod && l->name_len == 6 && !memcmp(l->name, "_etext", 6)) {
		b->etext = l->addr;
		b->have_etext = true;
	}
	b->n++;
}

/* The sorted entries into t; size = distance to the next address within
 * the same object. */
static void kallsyms_finish(struct kallsyms_build *b)
{
	struct pm_symtab *t = b->t;
	const struct ent *v = b->v;
	size_t n = b->n, i, j;

	t->v = pm_xmalloc(n * sizeof(*t->v));
	t->mod = pm_xmalloc(n * sizeof(*t->mod));
	t->n = n;
	for (i = 0; i < n; i++) {
		t->v[i].addr = v[i].addr;
		t->v[i].name = t->names + v[i].name;
		t->v[i].size_exact = false;
		t->mod[i] = v[i].mod;
	}
	for (i = 0; i < n; i = j) {
		uint64_t size = 0;
		bool marker = end_marker(t->v[i].name);

		for (j = i + 1; j < n && v[j].addr == v[i].addr; j++)
			marker |= end_marker(t->v[j].name);
		if (marker)
			size = 0;
		else if (j < n && v[j].mod == v[i].mod)
			size = v[j].addr - v[i].addr;
		else if (!v[i].mod && b->have_etext && b->etext > v[i].addr)
			size = b->etext - v[i].addr;	/* last vmlinux symbol */
		for (; i < j; i++)
			t->v[i].size = size;
	}
	fill_addr(t);
	t->source = "kallsyms";
}

int pm_symtab_from_kallsyms(struct pm_symtab **out, const char *text,
			    struct pm_err *e)
{
	size_t len = strlen(text), lines = 0, nonzero = 0;
	const char *p = text, *end = text + len;
	struct kallsyms_build b = { .cap = 1024, .modcap = 16 };
	struct kallsyms_line l;
	int err = 0;

	*out = NULL;
	b.t = pm_xcalloc(1, sizeof(*b.t));
	/* names are never longer than the text they come from */
	b.t->names = pm_xmalloc(len + 1);
	b.t->modules = pm_xcalloc(b.modcap, sizeof(*b.t->modules));
	b.t->nmod = 1;
	b.v = pm_xmalloc(b.cap * sizeof(*b.v));

	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));

		if (kallsyms_parse_line(p, nl ? nl : end, &l)) {
			lines++;
			if (l.addr)
				nonzero++;
			/* text symbols only */
			if (l.addr && (l.type == 't' || l.type == 'T' ||
				       l.type == 'w' || l.type == 'W'))
				kallsyms_add(&b, &l);
		}
		p = nl ? nl + 1 : end;
	}
	if (lines && !nonzero)
		err = pm_err_set(e, -EACCES,
				 "kernel symbol addresses are hidden (all zero): "
				 "kernel.kptr_restrict or kernel.perf_event_paranoid "
				 "restrict them to CAP_SYSLOG");
	else if (!b.n)
		err = pm_err_set(e, -ENOENT, "no kernel text symbols in kallsyms");
	if (err) {
		free(b.v);
		pm_symtab_free(b.t);
		return err;
	}
	sort_ents(b.v, b.n);
	kallsyms_finish(&b);
	free(b.v);
	*out = b.t;
	return 0;
}

/* ---- ELF ---- */

#ifdef HAVE_LIBELF

static int elf_ready(struct pm_err *e)
{
	if (elf_version(EV_CURRENT) == EV_NONE)
		return pm_err_set(e, -ENOSYS, "libelf: %s", elf_errmsg(-1));
	return 0;
}

/* ELF binding: global, weak, local */
static uint8_t bind_rank(unsigned char bind)
{
	switch (bind) {
	case STB_GLOBAL:
		return 0;
	case STB_WEAK:
		return 1;
	case STB_LOCAL:
		return 2;
	default:
		return 3;
	}
}

/* Each allocated section's [start, end) by index; returns the count.
 * Section ends bound unsized symbols: .init's _init must not run into .text. */
static size_t section_bounds(Elf *elf, uint64_t **start, uint64_t **end)
{
	size_t nsec = 0, i;

	if (elf_getshdrnum(elf, &nsec))
		nsec = 0;
	*end = pm_xcalloc(nsec ? nsec : 1, sizeof(**end));
	*start = pm_xcalloc(nsec ? nsec : 1, sizeof(**start));
	for (i = 1; i < nsec; i++) {
		Elf_Scn *s = elf_getscn(elf, i);
		GElf_Shdr ssh;

		if (s && gelf_getshdr(s, &ssh) && (ssh.sh_flags & SHF_ALLOC)) {
			(*start)[i] = ssh.sh_addr;
			(*end)[i] = ssh.sh_addr + ssh.sh_size;
		}
	}
	return nsec;
}

/* Sorted entries into t: one symbol per address, the first (preferred)
 * of each group; unsized ones sized up to the next, within their section. */
static void funcs_finish(struct pm_symtab *t, struct ent *v, size_t n)
{
	size_t i, j, k;

	/* one symbol per address: the first (preferred) of each group */
	t->v = pm_xmalloc(n * sizeof(*t->v));
	for (i = 0, k = 0; i < n; i = j, k++) {
		uint64_t size = v[i].size;

		for (j = i + 1; j < n && v[j].addr == v[i].addr; j++)
			if (!size)
				size = v[j].size;
		t->v[k].addr = v[i].addr;
		t->v[k].name = NULL;
		t->v[k].size = size;
		t->v[k].size_exact = size != 0;
		/* stash the arena offset until the arena stops moving */
		v[k] = v[i];
	}
	t->n = k;
	for (i = 0; i < t->n; i++) {
		t->v[i].name = t->names + v[i].name;
		if (t->v[i].size_exact)
			continue;
		/* unsized: up to the next symbol, never past its section */
		if (i + 1 < t->n)
			t->v[i].size = t->v[i + 1].addr - t->v[i].addr;
		if (v[i].shidx_ok && (!t->v[i].size ||
				      v[i].sec_end - t->v[i].addr < t->v[i].size))
			t->v[i].size = v[i].sec_end - t->v[i].addr;
	}
	t->v = pm_xrealloc(t->v, t->n * sizeof(*t->v));
	fill_addr(t);
}

/* Is section index idx code (SHF_EXECINSTR)? */
static bool code_section(Elf *elf, size_t idx)
{
	Elf_Scn *s = idx < SHN_LORESERVE ? elf_getscn(elf, idx) : NULL;
	GElf_Shdr ssh;

	return s && gelf_getshdr(s, &ssh) && (ssh.sh_flags & SHF_EXECINSTR);
}

/* Function symbols of one SHT_SYMTAB/SHT_DYNSYM section; with code_labels
 * the untyped symbols in code too, after the functions at one address. */
/* A defined function or ifunc, or with code_labels a label in code. */
static bool wanted_sym(Elf *elf, const GElf_Sym *sym, bool code_labels)
{
	unsigned char type = GELF_ST_TYPE(sym->st_info);

	return sym->st_shndx != SHN_UNDEF &&
	       (type == STT_FUNC || type == STT_GNU_IFUNC ||
		(code_labels && type == STT_NOTYPE && code_section(elf, sym->st_shndx)));
}

/* name, demangled if it is C++, at the end of t's name pool: its offset. */
static size_t names_add(struct pm_symtab *t, size_t *used, size_t *cap, const char *name)
{
	char *demangled = NULL;
	size_t at = *used, nl;

#ifdef HAVE_CXA_DEMANGLE
	if (name[0] == '_' && name[1] == 'Z') {
		int st = -1;

		demangled = __cxa_demangle(name, NULL, NULL, &st);
		if (st == 0 && demangled)
			name = demangled;
	}
#endif
	nl = strlen(name) + 1;
	while (*used + nl > *cap) {
		*cap *= 2;
		t->names = pm_xrealloc(t->names, *cap);
	}
	memcpy(t->names + *used, name, nl);
	free(demangled);
	*used += nl;
	return at;
}

static int read_funcs(Elf *elf, Elf_Scn *scn, const GElf_Shdr *sh,
		      struct pm_symtab **out, bool code_labels)
{
	size_t nsec = 0, nsym, i, n = 0, used = 0, cap = 4096;
	Elf_Data *data = elf_getdata(scn, NULL);
	uint64_t *sec_start, *sec_end;
	struct pm_symtab *t;
	struct ent *v;

	*out = NULL;
	if (!data || !sh->sh_entsize)
		return 0;
	nsym = sh->sh_size / sh->sh_entsize;
	nsec = section_bounds(elf, &sec_start, &sec_end);
	v = pm_xmalloc((nsym ? nsym : 1) * sizeof(*v));
	t = pm_xcalloc(1, sizeof(*t));
	t->names = pm_xmalloc(cap);

	for (i = 0; i < nsym; i++) {
		unsigned char type;
		GElf_Sym sym;
		const char *name;

		if (!gelf_getsym(data, (int)i, &sym))
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (!wanted_sym(elf, &sym, code_labels))
			continue;
		name = elf_strptr(elf, sh->sh_link, sym.st_name);
		if (!name || !*name)
			continue;
		v[n].addr = sym.st_value;
		v[n].size = sym.st_size;
		v[n].name = names_add(t, &used, &cap, name);
		v[n].mod = 0;
		v[n].idx = (uint32_t)i;
		/* binding, then a real size over none */
		v[n].rank = (uint8_t)((type == STT_NOTYPE) << 3 |
				      bind_rank(GELF_ST_BIND(sym.st_info)) << 1 |
				      (sym.st_size == 0));
		v[n].shidx_ok = 0;
		v[n].sec_end = 0;
		if (sym.st_shndx < SHN_LORESERVE && sym.st_shndx < nsec &&
		    sym.st_value >= sec_start[sym.st_shndx] &&
		    sym.st_value < sec_end[sym.st_shndx]) {
			v[n].shidx_ok = 1;
			v[n].sec_end = sec_end[sym.st_shndx];
		}
		n++;
	}
	free(sec_start);
	free(sec_end);
	if (!n) {
		free(v);
		pm_symtab_free(t);
		return 0;
	}
	sort_ents(v, n);
	funcs_finish(t, v, n);
	free(v);
	*out = t;
	return 0;
}

/* .symtab if it has functions, else .dynsym; -ENOENT when neither. */
static int symtab_from_elf(Elf *elf, const char *what, struct pm_symtab **out,
			   bool code_labels, struct pm_err *e)
{
	Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
	GElf_Shdr sh, symsh, dynsh;
	struct pm_symtab *t = NULL;

	*out = NULL;
	while ((scn = elf_nextscn(elf, scn))) {
		if (!gelf_getshdr(scn, &sh))
			continue;
		if (sh.sh_type == SHT_SYMTAB && !symtab) {
			symtab = scn;
			symsh = sh;
		} else if (sh.sh_type == SHT_DYNSYM && !dynsym) {
			dynsym = scn;
			dynsh = sh;
		}
	}
	if (symtab) {
		read_funcs(elf, symtab, &symsh, &t, code_labels);
		if (t)
			t->source = ".symtab";
	}
	if (!t && dynsym) {
		read_funcs(elf, dynsym, &dynsh, &t, code_labels);
		if (t)
			t->source = ".dynsym";
	}
	if (!t)
		return pm_err_set(e, -ENOENT, "%s: no function symbols (%s)", what,
				  symtab || dynsym ? "symbol tables hold none"
						   : "no .symtab or .dynsym");
	*out = t;
	return 0;
}

static bool hex_build_id(const unsigned char *id, size_t len, char *out)
{
	static const char hex[] = "0123456789abcdef";
	size_t i;

	/* build_id[41]: sha1 (20 bytes) is the longest kept */
	if (len > 20)
		len = 20;
	for (i = 0; i < len; i++) {
		out[2 * i] = hex[id[i] >> 4];
		out[2 * i + 1] = hex[id[i] & 15];
	}
	out[2 * len] = '\0';
	return len != 0;
}

static bool build_id_in(Elf_Data *data, char *out)
{
	GElf_Nhdr nh;
	size_t off = 0, name_off, desc_off, next;

	while (data && off < data->d_size &&
	       (next = gelf_getnote(data, off, &nh, &name_off, &desc_off)) > 0) {
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp((const char *)data->d_buf + name_off, "GNU", 4))
			return hex_build_id((const unsigned char *)data->d_buf + desc_off,
					    nh.n_descsz, out);
		off = next;
	}
	return false;
}

static int info_from_elf(Elf *elf, const char *what, struct pm_elf_info *info,
			 struct pm_err *e)
{
	size_t nph = 0, i;
	Elf_Scn *scn = NULL;
	GElf_Ehdr eh;
	GElf_Phdr ph;
	bool text = false;

	memset(info, 0, sizeof(*info));
	if (!gelf_getehdr(elf, &eh))
		return pm_err_set(e, -EINVAL, "%s: bad ELF header: %s", what,
				  elf_errmsg(-1));
	info->dyn = eh.e_type == ET_DYN;
	if (elf_getphdrnum(elf, &nph))
		nph = 0;
	for (i = 0; i < nph; i++) {
		if (!gelf_getphdr(elf, (int)i, &ph))
			continue;
		if (!text && ph.p_type == PT_LOAD && (ph.p_flags & PF_X)) {
			info->text_vaddr = ph.p_vaddr;
			info->text_offset = ph.p_offset;
			text = true;
		}
		if (!info->build_id[0] && ph.p_type == PT_NOTE && ph.p_filesz)
			build_id_in(elf_getdata_rawchunk(elf, (int64_t)ph.p_offset,
							 ph.p_filesz, ELF_T_NHDR),
				    info->build_id);
	}
	/* separate debug files keep the note section but no segments */
	while (!info->build_id[0] && (scn = elf_nextscn(elf, scn))) {
		GElf_Shdr sh;

		if (gelf_getshdr(scn, &sh) && sh.sh_type == SHT_NOTE)
			build_id_in(elf_getdata(scn, NULL), info->build_id);
	}
	return 0;
}

/* Open path as an ELF file; on success *fd and *elf are to be closed. */
static int open_elf(const char *path, int *fd, Elf **elf, struct pm_err *e)
{
	int err = elf_ready(e);

	if (err)
		return err;
	*fd = open(path, O_RDONLY | O_CLOEXEC);
	if (*fd < 0)
		return pm_err_set(e, -errno, "%s: %s", path, strerror(errno));
	*elf = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
	if (!*elf || elf_kind(*elf) != ELF_K_ELF) {
		err = pm_err_set(e, -EINVAL, "%s: not an ELF file%s%s", path,
				 *elf ? "" : ": ", *elf ? "" : elf_errmsg(-1));
		if (*elf)
			elf_end(*elf);
		close(*fd);
		return err;
	}
	return 0;
}

static int load_elf(struct pm_symtab **out, const char *path, bool code_labels,
		    struct pm_err *e)
{
	Elf *elf;
	int fd, err;

	*out = NULL;
	err = open_elf(path, &fd, &elf, e);
	if (err)
		return err;
	err = symtab_from_elf(elf, path, out, code_labels, e);
	elf_end(elf);
	close(fd);
	return err;
}

int pm_symtab_load_elf(struct pm_symtab **out, const char *path,
		       struct pm_err *e)
{
	return load_elf(out, path, false, e);
}

int pm_symtab_load_kernel_text(struct pm_symtab **out, const char *path,
			       struct pm_err *e)
{
	return load_elf(out, path, true, e);
}

int pm_elf_info(const char *path, struct pm_elf_info *info, struct pm_err *e)
{
	Elf *elf;
	int fd, err;

	memset(info, 0, sizeof(*info));
	err = open_elf(path, &fd, &elf, e);
	if (err)
		return err;
	err = info_from_elf(elf, path, info, e);
	elf_end(elf);
	close(fd);
	return err;
}

int pm_elf_load_image(const void *image, size_t size, const char *name,
		      struct pm_symtab **out, struct pm_elf_info *info,
		      struct pm_err *e)
{
	char *copy;
	Elf *elf;
	int err;

	*out = NULL;
	memset(info, 0, sizeof(*info));
	err = elf_ready(e);
	if (err)
		return err;
	/* libelf may convert data in place: never hand it read-only memory */
	copy = pm_xmalloc(size);
	memcpy(copy, image, size);
	elf = elf_memory(copy, size);
	if (!elf || elf_kind(elf) != ELF_K_ELF) {
		if (elf)
			elf_end(elf);
		free(copy);
		return pm_err_set(e, -EINVAL, "%s: not an ELF image", name);
	}
	err = info_from_elf(elf, name, info, e);
	if (!err)
		err = symtab_from_elf(elf, name, out, false, e);
	elf_end(elf);
	free(copy);
	return err;
}

int pm_elf_symbol_value(const char *path, const char *name, uint64_t *value,
			struct pm_err *e)
{
	Elf_Scn *scn = NULL;
	GElf_Shdr sh;
	Elf *elf;
	int fd, err, pass;

	err = open_elf(path, &fd, &elf, e);
	if (err)
		return err;
	err = -ENOENT;
	/* .symtab first, .dynsym second, as for functions */
	for (pass = 0; pass < 2 && err; pass++) {
		scn = NULL;
		while (err && (scn = elf_nextscn(elf, scn))) {
			Elf_Data *data;
			size_t i, nsym;

			if (!gelf_getshdr(scn, &sh) || !sh.sh_entsize ||
			    sh.sh_type != (pass ? SHT_DYNSYM : SHT_SYMTAB))
				continue;
			data = elf_getdata(scn, NULL);
			nsym = sh.sh_size / sh.sh_entsize;
			for (i = 0; data && i < nsym; i++) {
				GElf_Sym sym;
				const char *s;

				if (!gelf_getsym(data, (int)i, &sym) ||
				    sym.st_shndx == SHN_UNDEF)
					continue;
				s = elf_strptr(elf, sh.sh_link, sym.st_name);
				if (s && !strcmp(s, name)) {
					*value = sym.st_value;
					err = 0;
					break;
				}
			}
		}
	}
	elf_end(elf);
	close(fd);
	if (err)
		return pm_err_set(e, err, "%s: no symbol %s", path, name);
	return 0;
}

#else /* !HAVE_LIBELF */

static int no_libelf(const char *what, struct pm_err *e)
{
	return pm_err_set(e, -ENOSYS,
			  "%s: cannot read ELF symbols: pmbench was built without libelf "
			  "(install elfutils' libelf development files and reconfigure)",
			  what);
}

int pm_symtab_load_elf(struct pm_symtab **out, const char *path,
		       struct pm_err *e)
{
	*out = NULL;
	return no_libelf(path, e);
}

int pm_symtab_load_kernel_text(struct pm_symtab **out, const char *path,
			       struct pm_err *e)
{
	*out = NULL;
	return no_libelf(path, e);
}

int pm_elf_info(const char *path, struct pm_elf_info *info, struct pm_err *e)
{
	memset(info, 0, sizeof(*info));
	return no_libelf(path, e);
}

int pm_elf_load_image(const void *image, size_t size, const char *name,
		      struct pm_symtab **out, struct pm_elf_info *info,
		      struct pm_err *e)
{
	*out = NULL;
	memset(info, 0, sizeof(*info));
	return no_libelf(name, e);
}

int pm_elf_symbol_value(const char *path, const char *name, uint64_t *value,
			struct pm_err *e)
{
	return no_libelf(path, e);
}

#endif
