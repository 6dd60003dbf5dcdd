/* Unit tests for symbols: kallsyms, ELF tables, kernel, maps, user lookup. */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <grp.h>
#include <inttypes.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/auxv.h>
#include <sys/wait.h>
#include <unistd.h>

#include "symbols/symbols.h"

/* ---- helpers ---- */

static bool have_tool(const char *tool)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "command -v %s >/dev/null 2>&1", tool);
	return system(cmd) == 0;
}

/* Skip only for a missing tool, and say so. */
static bool need_tools(const char *test, const char *const *tools)
{
	for (; *tools; tools++)
		if (!have_tool(*tools)) {
			printf("note: %s skipped: %s not found\n", test, *tools);
			return false;
		}
	return true;
}

/* Output of a shell command; NULL when it fails. */
static char *run(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static char *run(const char *fmt, ...)
{
	size_t cap = 4096, n = 0, r;
	char *cmd, *buf;
	va_list ap;
	FILE *f;

	va_start(ap, fmt);
	ck_assert_int_ge(vasprintf(&cmd, fmt, ap), 0);
	va_end(ap);
	f = popen(cmd, "r");
	ck_assert_msg(f != NULL, "popen %s", cmd);
	buf = pm_xmalloc(cap);
	while ((r = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += r;
		if (cap - n < 2)
			buf = pm_xrealloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	if (pclose(f) != 0) {
		fprintf(stderr, "command failed: %s\n%s", cmd, buf);
		free(buf);
		buf = NULL;
	}
	free(cmd);
	return buf;
}

static void write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	ck_assert_msg(f != NULL, "%s: %s", path, strerror(errno));
	fputs(text, f);
	ck_assert_int_eq(fclose(f), 0);
}

static char *make_tmpdir(void)
{
	char *d = pm_xstrdup("/tmp/pm-test-symbols-XXXXXX");

	ck_assert_ptr_nonnull(mkdtemp(d));
	return d;
}

struct nmsym {
	uint64_t addr, size;
	bool has_size;
	char type;
	char name[256];
};

/* "addr [size] type name" lines of nm -S. */
static size_t parse_nm(const char *out, struct nmsym **vp)
{
	struct nmsym *v = NULL;
	size_t n = 0;
	const char *p = out;

	while (*p) {
		const char *nl = strchr(p, '\n');
		char line[512], a[32], b[32], c[256], d[256];
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		int k;

		snprintf(line, sizeof(line), "%.*s", (int)len, p);
		p += len + (nl ? 1 : 0);
		k = sscanf(line, "%31s %31s %255s %255s", a, b, c, d);
		if (k < 3)
			continue;
		v = pm_xrealloc(v, (n + 1) * sizeof(*v));
		v[n].addr = strtoull(a, NULL, 16);
		if (k == 4) {
			v[n].size = strtoull(b, NULL, 16);
			v[n].has_size = true;
			v[n].type = c[0];
			snprintf(v[n].name, sizeof(v[n].name), "%s", d);
		} else {
			v[n].size = 0;
			v[n].has_size = false;
			v[n].type = b[0];
			snprintf(v[n].name, sizeof(v[n].name), "%s", c);
		}
		n++;
	}
	*vp = v;
	return n;
}

static const struct nmsym *nm_find(const struct nmsym *v, size_t n,
				   const char *name)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i].name, name))
			return &v[i];
	return NULL;
}

static bool is_text_type(char t)
{
	return strchr("TtWwi", t) != NULL;
}

/*
 * Every symbol of t is an nm text symbol with the same address, name
 * and (when exact) size; every sized nm text symbol is in t (itself or
 * a preferred alias).
 */
static void compare_with_nm(const struct pm_symtab *t, const char *nm_out)
{
	struct nmsym *v;
	size_t n = parse_nm(nm_out, &v), i, j, matched = 0;

	ck_assert_uint_gt(n, 0);
	for (i = 0; i < pm_symtab_count(t); i++) {
		const struct pm_sym *s = pm_symtab_at(t, i);

		for (j = 0; j < n; j++)
			if (v[j].addr == s->addr && !strcmp(v[j].name, s->name))
				break;
		ck_assert_msg(j < n, "%s at %#" PRIx64 " not in nm output", s->name, s->addr);
		ck_assert_msg(is_text_type(v[j].type), "%s: nm type %c", s->name, v[j].type);
		if (s->size_exact) {
			ck_assert_msg(v[j].has_size && v[j].size == s->size,
				      "%s: size %" PRIu64 ", nm %" PRIu64, s->name, s->size,
				      v[j].size);
		} else {
			ck_assert_msg(!v[j].has_size, "%s: nm has size %" PRIu64 " but ours is inexact",
				      s->name, v[j].size);
		}
		matched++;
	}
	for (j = 0; j < n; j++) {
		const struct pm_sym *s;

		if (!v[j].has_size || (v[j].type != 'T' && v[j].type != 't' && v[j].type != 'i'))
			continue;
		s = pm_symtab_lookup(t, v[j].addr);
		ck_assert_msg(s && s->addr == v[j].addr, "nm %s at %#" PRIx64 " missing",
			      v[j].name, v[j].addr);
	}
	ck_assert_uint_gt(matched, 0);
	free(v);
}

/* Hits up to the last byte of every exactly sized symbol, not beyond. */
static void check_bounds(const struct pm_symtab *t)
{
	size_t i;

	for (i = 0; i < pm_symtab_count(t); i++) {
		const struct pm_sym *s = pm_symtab_at(t, i);

		ck_assert_ptr_eq(pm_symtab_lookup(t, s->addr), s);
		if (!s->size_exact)
			continue;
		ck_assert_ptr_eq(pm_symtab_lookup(t, s->addr + s->size - 1), s);
		ck_assert_ptr_ne(pm_symtab_lookup(t, s->addr + s->size), s);
	}
}

static void build_id_from_readelf(const char *path, char *out, size_t len)
{
	char *r = run("readelf -n '%s'", path), *p;

	out[0] = '\0';
	ck_assert_ptr_nonnull(r);
	p = strstr(r, "Build ID: ");
	if (p)
		sscanf(p + 10, "%63[0-9a-f]", out);
	(void)len;
	free(r);
}

/* First PT_LOAD with E in its flags, from readelf -lW. */
static void text_segment_from_readelf(const char *path, uint64_t *vaddr, uint64_t *offset)
{
	char *r = run("readelf -lW '%s'", path), *p;

	ck_assert_ptr_nonnull(r);
	for (p = r; (p = strstr(p, "LOAD ")); p++) {
		unsigned long long off, va, pa, fsz, msz;
		char flags[16] = "";
		char *nl = strchr(p, '\n');

		if (nl)
			*nl = '\0';
		if (sscanf(p, "LOAD %llx %llx %llx %llx %llx %15[RWE ]", &off, &va, &pa, &fsz,
			   &msz, flags) == 6 && strchr(flags, 'E')) {
			*vaddr = va;
			*offset = off;
			free(r);
			return;
		}
		if (nl)
			*nl = '\n';
	}
	free(r);
	ck_abort_msg("no executable LOAD in %s", path);
}

/* ---- kallsyms ---- */

static const char ks_normal[] =
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000000 T startup_64\n"
	"ffffffff81000100 t local_fn\n"
	"ffffffff81000180 W weak_fn\n"
	"ffffffff81000200 w weak_local_fn\n"
	"ffffffff81000300 T last_fn\n"
	"ffffffff81000400 T _etext\n"
	"ffffffff81800000 D some_data\n"
	"ffffffff81900000 B some_bss\n"
	"ffffffff81a00000 R some_rodata\n"
	"ffffffff81a00010 r local_rodata\n"
	"ffffffff83000000 T _sinittext\n"
	"ffffffff83000010 t init_fn\n"
	"ffffffff83000100 T _einittext\n"
	"not a symbol line\n"
	"ffffffffc0002000 t ext4_fill_super\t[ext4]\n"
	"ffffffffc0001000 t ext4_init\t[ext4]\n"	/* out of order */
	"ffffffffc0003000 d ext4_data\t[ext4]\n"
	"ffffffffc0010000 T xfs_mount\t[xfs]\n"
	"ffffffffc0010040 t xfs_helper\t[xfs]\n"
	"ffffffffc0020000 t bpf_prog_abc_foo\t[bpf]";	/* no final newline */

START_TEST(test_kallsyms_normal)
{
	struct pm_symtab *t;
	struct pm_err e;
	const struct pm_sym *s;

	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, ks_normal, &e), 0);
	ck_assert_str_eq(pm_symtab_source(t), "kallsyms");
	ck_assert_uint_eq(pm_symtab_count(t), 16);
	ck_assert_ptr_null(pm_symtab_find(t, "some_data"));
	ck_assert_ptr_null(pm_symtab_find(t, "ext4_data"));
	ck_assert_ptr_null(pm_symtab_find(t, "local_rodata"));

	/* aliases: the plainest global name stands for the address */
	s = pm_symtab_lookup(t, 0xffffffff81000050);
	ck_assert_ptr_nonnull(s);
	ck_assert_str_eq(s->name, "startup_64");
	ck_assert_uint_eq(s->size, 0x100);
	ck_assert(!s->size_exact);
	ck_assert_ptr_null(pm_symtab_module(t, s));
	ck_assert_uint_eq(pm_symtab_find(t, "_stext")->addr, 0xffffffff81000000);
	ck_assert_uint_eq(pm_symtab_find(t, "_text")->size, 0x100);

	s = pm_symtab_lookup(t, 0xffffffff81000100);
	ck_assert_str_eq(s->name, "local_fn");
	ck_assert_uint_eq(s->size, 0x80);
	ck_assert_str_eq(pm_symtab_lookup(t, 0xffffffff810001ff)->name, "weak_fn");
	ck_assert_str_eq(pm_symtab_lookup(t, 0xffffffff81000200)->name, "weak_local_fn");
	s = pm_symtab_lookup(t, 0xffffffff810003ff);
	ck_assert_str_eq(s->name, "last_fn");
	ck_assert_uint_eq(s->size, 0x100);

	/* _etext ends the text: the hole after it is not code */
	ck_assert_ptr_null(pm_symtab_lookup(t, 0xffffffff81000400 + 8192));
	ck_assert_ptr_null(pm_symtab_lookup(t, 0xffffffff81800000));
	ck_assert_ptr_null(pm_symtab_lookup(t, 0xffffffff80ffffff));

	s = pm_symtab_lookup(t, 0xffffffff83000050);
	ck_assert_str_eq(s->name, "init_fn");
	ck_assert_uint_eq(s->size, 0xf0);
	ck_assert_ptr_null(pm_symtab_lookup(t, 0xffffffff83000100 + 4096));

	/* modules */
	s = pm_symtab_lookup(t, 0xffffffffc0001010);
	ck_assert_str_eq(s->name, "ext4_init");
	ck_assert_uint_eq(s->size, 0x1000);
	ck_assert_str_eq(pm_symtab_module(t, s), "ext4");
	s = pm_symtab_lookup(t, 0xffffffffc0002800);
	ck_assert_str_eq(s->name, "ext4_fill_super");
	ck_assert_str_eq(pm_symtab_module(t, s), "ext4");
	/* last symbol of a module: unknown size, bounded */
	ck_assert_uint_eq(s->size, 0);
	ck_assert_ptr_null(pm_symtab_lookup(t, 0xffffffffc0003000));
	ck_assert_ptr_null(pm_symtab_lookup(t, 0xffffffffc000f000));
	s = pm_symtab_lookup(t, 0xffffffffc0010050);
	ck_assert_str_eq(s->name, "xfs_helper");
	ck_assert_str_eq(pm_symtab_module(t, s), "xfs");
	ck_assert_str_eq(pm_symtab_module(t, pm_symtab_find(t, "xfs_mount")), "xfs");
	s = pm_symtab_lookup(t, 0xffffffffc0020004);
	ck_assert_str_eq(s->name, "bpf_prog_abc_foo");
	ck_assert_str_eq(pm_symtab_module(t, s), "bpf");
	ck_assert_ptr_null(pm_symtab_module(t, NULL));
	pm_symtab_free(t);
}
END_TEST

START_TEST(test_kallsyms_last_vmlinux_symbol)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000010 T only_fn\n"
		"ffffffff81000800 D data\n";
	static const char with_etext[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000010 T only_fn\n"
		"ffffffff81000200 T _etext\n"
		"ffffffffc0000000 t mod_fn\t[m]\n";
	struct pm_symtab *t;
	const struct pm_sym *s;

	/* no _etext: size 0, still bounded */
	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, text, NULL), 0);
	s = pm_symtab_find(t, "only_fn");
	ck_assert_uint_eq(s->size, 0);
	ck_assert_ptr_eq(pm_symtab_lookup(t, s->addr + 4095), s);
	ck_assert_ptr_null(pm_symtab_lookup(t, s->addr + 4096));
	ck_assert_ptr_null(pm_symtab_lookup(t, s->addr + (1 << 20)));
	pm_symtab_free(t);

	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, with_etext, NULL), 0);
	s = pm_symtab_find(t, "only_fn");
	ck_assert_uint_eq(s->size, 0x1f0);
	s = pm_symtab_find(t, "_etext");
	ck_assert_uint_eq(s->size, 0);
	s = pm_symtab_find(t, "mod_fn");
	ck_assert_uint_eq(s->size, 0);
	pm_symtab_free(t);
}
END_TEST

START_TEST(test_kallsyms_hidden)
{
	static const char text[] =
		"0000000000000000 T _stext\n"
		"0000000000000000 t foo\n"
		"0000000000000000 D bar\n"
		"0000000000000000 t ext4_x\t[ext4]\n";
	struct pm_symtab *t = (struct pm_symtab *)1;
	struct pm_err e = { "" };

	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, text, &e), -EACCES);
	ck_assert_ptr_null(t);
	ck_assert_ptr_nonnull(strstr(e.msg, "kptr_restrict"));
	ck_assert_ptr_nonnull(strstr(e.msg, "perf_event_paranoid"));
}
END_TEST

START_TEST(test_kallsyms_empty)
{
	struct pm_symtab *t = (struct pm_symtab *)1;
	struct pm_err e = { "" };

	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, "", &e), -ENOENT);
	ck_assert_ptr_null(t);
	ck_assert_str_ne(e.msg, "");
	/* only data symbols: nothing to resolve code with */
	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, "ffffffff81000000 D x\n", &e), -ENOENT);
	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, "garbage\n\n", &e), -ENOENT);
}
END_TEST

START_TEST(test_kallsyms_relocate)
{
	struct pm_symtab *t;

	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, ks_normal, NULL), 0);
	pm_symtab_relocate(t, 0x1000, "vmlinux");
	ck_assert_str_eq(pm_symtab_source(t), "vmlinux");
	ck_assert_str_eq(pm_symtab_lookup(t, 0xffffffff81001150)->name, "local_fn");
	pm_symtab_relocate(t, (uint64_t)-0x1000, NULL);
	ck_assert_str_eq(pm_symtab_source(t), "vmlinux");
	ck_assert_str_eq(pm_symtab_lookup(t, 0xffffffff81000150)->name, "local_fn");
	ck_assert_ptr_null(pm_symtab_at(t, pm_symtab_count(t)));
	pm_symtab_free(t);
}
END_TEST

/* ---- ELF ---- */

/* A program with functions of known shape, aliases, a gap. */
static char *prog_source(void)
{
	char *body = pm_xstrdup(""), *src;
	int i;

	for (i = 0; i < 200; i++) {
		char *b = pm_xasprintf("%s\tx = x * %d + (x >> %d) - a[%d];\n\ta[%d] = x;\n",
				       body, 3 + i, 1 + i % 7, i % 16, (i + 5) % 16);

		free(body);
		body = b;
	}
	src = pm_xasprintf(
		"__attribute__((noinline)) int f_small(int x) { return x + 1; }\n"
		"__attribute__((noinline)) int f_big(int x)\n"
		"{\n\tvolatile int a[16] = { 0 };\n%s\treturn x;\n}\n"
		/* aligned: f_big's end is followed by padding */
		"__attribute__((noinline, aligned(256))) int f_after(int x)\n"
		"{ return f_small(x) + f_big(x); }\n"
		"static __attribute__((noinline)) int f_local(int x) { return x * 3; }\n"
		"__attribute__((weak, noinline)) int f_weak(int x) { return x - 1; }\n"
		"static __attribute__((noinline, used)) int f_loc2(int x) { return x * 5; }\n"
		"extern int f_glob2(int) __attribute__((alias(\"f_loc2\")));\n"
		"int f_weak2(int) __attribute__((weak, alias(\"f_small\")));\n"
		"int data_var = 42;\n"
		"int main(int argc, char **argv)\n"
		"{\n\t(void)argv;\n"
		"\treturn f_after(argc) + f_local(argc) + f_weak(argc) + f_glob2(argc) + data_var;\n}\n",
		body);
	free(body);
	return src;
}

static const char lib_source[] =
	"__attribute__((noinline)) static int x_local(int x) { return x * 7; }\n"
	"int x_one(int x) { return x_local(x) + 1; }\n"
	"int x_two(int x) { int i, s = 0; for (i = 0; i < x; i++) s += x_one(i); return s; }\n"
	"int x_var = 3;\n";

/* C++ symbols are shown as people write them: ns::scale(int), not
 * _ZN2ns5scaleEi (a C program names its function by that symbol). */
START_TEST(test_elf_demangled)
{
	static const char *const tools[] = { "cc", NULL };
	char *dir, *path;
	struct pm_symtab *t;
	struct pm_err e;
	const struct pm_sym *s;

	if (!need_tools("demangling test", tools))
		return;
	dir = make_tmpdir();
	path = pm_xasprintf("%s/cxx.c", dir);
	write_file(path, "int scale(int) __asm__(\"_ZN2ns5scaleEi\");\n"
			 "__attribute__((noinline)) int scale(int x) { return 3 * x; }\n"
			 "int main(int c, char **v) { (void)v; return scale(c); }\n");
	free(path);
	free(run("cd '%s' && cc -O1 -o cxx cxx.c 2>&1", dir));
	path = pm_xasprintf("%s/cxx", dir);
	ck_assert_msg(access(path, X_OK) == 0, "compiling %s/cxx.c failed", dir);
	ck_assert_int_eq(pm_symtab_load_elf(&t, path, &e), 0);
#ifdef HAVE_CXA_DEMANGLE
	s = pm_symtab_find(t, "ns::scale(int)");
	ck_assert_msg(s != NULL, "ns::scale(int) not found: not demangled");
	ck_assert_ptr_null(pm_symtab_find(t, "_ZN2ns5scaleEi"));
#else
	s = pm_symtab_find(t, "_ZN2ns5scaleEi");
	ck_assert_ptr_nonnull(s);
#endif
	ck_assert_uint_gt(s->size, 0);
	ck_assert_ptr_nonnull(pm_symtab_find(t, "main"));
	pm_symtab_free(t);
	free(run("rm -rf '%s'", dir));
	free(path);
	free(dir);
}
END_TEST

START_TEST(test_elf_program)
{
	static const char *const tools[] = { "cc", "nm", "readelf", NULL };
	char *dir, *src, *path, *nm_out, bid[64];
	struct pm_symtab *t;
	struct pm_elf_info info;
	struct pm_err e;
	const struct pm_sym *s, *next;
	struct nmsym *v;
	size_t n, i;
	uint64_t tv = 0, to = 0;

	if (!need_tools("ELF program test", tools))
		return;
	dir = make_tmpdir();
	src = prog_source();
	path = pm_xasprintf("%s/prog.c", dir);
	write_file(path, src);
	free(path);
	free(src);
	free(run("cd '%s' && cc -O0 -g0 -Wl,--build-id=sha1 -o prog prog.c 2>&1", dir));
	path = pm_xasprintf("%s/prog", dir);
	ck_assert_msg(access(path, X_OK) == 0, "compiling %s/prog.c failed", dir);

	ck_assert_int_eq(pm_symtab_load_elf(&t, path, &e), 0);
	ck_assert_str_eq(pm_symtab_source(t), ".symtab");
	nm_out = run("nm -S --defined-only '%s'", path);
	ck_assert_ptr_nonnull(nm_out);
	compare_with_nm(t, nm_out);
	check_bounds(t);

	n = parse_nm(nm_out, &v);
	/* our functions: exact address and size */
	{
		static const char *const fns[] = { "f_small", "f_big", "f_after", "f_local",
						   "f_weak", "main", NULL };
		const char *const *f;

		for (f = fns; *f; f++) {
			const struct nmsym *ns = nm_find(v, n, *f);

			ck_assert_msg(ns && ns->has_size, "nm lacks %s", *f);
			s = pm_symtab_find(t, *f);
			ck_assert_msg(s != NULL, "no %s", *f);
			ck_assert_uint_eq(s->addr, ns->addr);
			ck_assert_uint_eq(s->size, ns->size);
			ck_assert(s->size_exact);
		}
	}
	s = pm_symtab_find(t, "f_big");
	ck_assert_uint_gt(s->size, 1000);
	/* the next symbol starts after padding: addr+size hits nothing */
	for (i = 0; pm_symtab_at(t, i) != s; i++)
		;
	next = pm_symtab_at(t, i + 1);
	ck_assert_ptr_nonnull(next);
	ck_assert_uint_gt(next->addr, s->addr + s->size);
	ck_assert_ptr_eq(pm_symtab_lookup(t, s->addr + s->size - 1), s);
	ck_assert_ptr_null(pm_symtab_lookup(t, s->addr + s->size));

	/* aliases: GLOBAL beats LOCAL, GLOBAL beats WEAK; one kept */
	ck_assert_ptr_null(pm_symtab_find(t, "f_loc2"));
	ck_assert_ptr_nonnull(pm_symtab_find(t, "f_glob2"));
	ck_assert_uint_eq(pm_symtab_find(t, "f_glob2")->addr, nm_find(v, n, "f_loc2")->addr);
	ck_assert_ptr_null(pm_symtab_find(t, "f_weak2"));
	ck_assert_str_eq(pm_symtab_lookup(t, nm_find(v, n, "f_weak2")->addr)->name, "f_small");
	/* data is not code */
	ck_assert_ptr_null(pm_symtab_find(t, "data_var"));
	/* size 0 (_init): inexact, bounded by its section */
	s = pm_symtab_find(t, "_init");
	if (s) {
		ck_assert(!s->size_exact);
		ck_assert_uint_gt(s->size, 0);
		ck_assert_uint_lt(s->size, 4096);
	}
	free(v);
	free(nm_out);

	ck_assert_int_eq(pm_elf_info(path, &info, &e), 0);
	build_id_from_readelf(path, bid, sizeof(bid));
	ck_assert_uint_eq(strlen(bid), 40);
	ck_assert_str_eq(info.build_id, bid);
	text_segment_from_readelf(path, &tv, &to);
	ck_assert_uint_eq(info.text_vaddr, tv);
	ck_assert_uint_eq(info.text_offset, to);
	/* gcc's default on Debian is PIE; readelf tells */
	{
		char *h = run("readelf -h '%s'", path);

		ck_assert_ptr_nonnull(h);
		ck_assert_int_eq(info.dyn, strstr(h, "DYN") != NULL);
		free(h);
	}
	pm_symtab_free(t);

	/* a fixed-address executable */
	free(run("cd '%s' && cc -O0 -g0 -no-pie -Wl,--build-id=none -o prog-exec prog.c 2>&1",
		 dir));
	free(path);
	path = pm_xasprintf("%s/prog-exec", dir);
	if (access(path, X_OK) == 0) {
		ck_assert_int_eq(pm_elf_info(path, &info, &e), 0);
		ck_assert(!info.dyn);
		ck_assert_str_eq(info.build_id, "");
		ck_assert_int_eq(pm_symtab_load_elf(&t, path, &e), 0);
		nm_out = run("nm -S --defined-only '%s'", path);
		compare_with_nm(t, nm_out);
		free(nm_out);
		pm_symtab_free(t);
	} else {
		printf("note: -no-pie variant skipped: cc cannot link it\n");
	}
	free(path);
	pm_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_elf_shared_and_stripped)
{
	static const char *const tools[] = { "cc", "nm", "strip", "readelf", NULL };
	char *dir, *path, *nm_out, bid[64];
	struct pm_symtab *t, *d;
	struct pm_elf_info info, dinfo;
	struct pm_err e;
	const struct pm_sym *s;

	if (!need_tools("shared library test", tools))
		return;
	dir = make_tmpdir();
	path = pm_xasprintf("%s/x.c", dir);
	write_file(path, lib_source);
	free(path);
	free(run("cd '%s' && cc -shared -fPIC -O0 -g0 -Wl,--build-id=sha1 -o libx.so x.c 2>&1 && "
		 "strip --strip-all -o libx-stripped.so libx.so", dir));
	path = pm_xasprintf("%s/libx.so", dir);
	ck_assert_msg(access(path, R_OK) == 0, "building %s failed", path);

	ck_assert_int_eq(pm_symtab_load_elf(&t, path, &e), 0);
	ck_assert_str_eq(pm_symtab_source(t), ".symtab");
	ck_assert_ptr_nonnull(pm_symtab_find(t, "x_local"));
	nm_out = run("nm -S --defined-only '%s'", path);
	compare_with_nm(t, nm_out);
	free(nm_out);
	check_bounds(t);
	ck_assert_int_eq(pm_elf_info(path, &info, &e), 0);
	ck_assert(info.dyn);
	build_id_from_readelf(path, bid, sizeof(bid));
	ck_assert_str_eq(info.build_id, bid);
	free(path);

	path = pm_xasprintf("%s/libx-stripped.so", dir);
	ck_assert_int_eq(pm_symtab_load_elf(&d, path, &e), 0);
	ck_assert_str_eq(pm_symtab_source(d), ".dynsym");
	ck_assert_ptr_null(pm_symtab_find(d, "x_local"));
	nm_out = run("nm -D -S --defined-only '%s'", path);
	compare_with_nm(d, nm_out);
	free(nm_out);
	check_bounds(d);
	s = pm_symtab_find(d, "x_two");
	ck_assert_ptr_nonnull(s);
	ck_assert_uint_eq(s->addr, pm_symtab_find(t, "x_two")->addr);
	ck_assert_uint_eq(s->size, pm_symtab_find(t, "x_two")->size);
	ck_assert_int_eq(pm_elf_info(path, &dinfo, &e), 0);
	ck_assert_str_eq(dinfo.build_id, info.build_id);
	ck_assert_uint_eq(dinfo.text_vaddr, info.text_vaddr);
	pm_symtab_free(d);
	pm_symtab_free(t);
	free(path);
	pm_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_elf_errors)
{
	struct pm_symtab *t = (struct pm_symtab *)1;
	struct pm_elf_info info;
	struct pm_err e = { "" };
	char *dir = make_tmpdir(), *path = pm_xasprintf("%s/text", dir);
	uint64_t v;

	ck_assert_int_eq(pm_symtab_load_elf(&t, "/nonexistent/libnope.so", &e), -ENOENT);
	ck_assert_ptr_null(t);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/libnope.so"));
	write_file(path, "not an ELF file\n");
	ck_assert_int_eq(pm_symtab_load_elf(&t, path, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, path));
	ck_assert_int_eq(pm_elf_info(path, &info, &e), -EINVAL);
	ck_assert_int_eq(pm_elf_symbol_value(path, "x", &v, &e), -EINVAL);
	ck_assert_int_eq(pm_elf_load_image("abc", 3, "[img]", &t, &info, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "[img]"));
	free(path);
	pm_rmtree(dir);
	free(dir);
}
END_TEST

/* ---- maps ---- */

static void expect_map(const struct pm_maps *m, size_t i, uint64_t start,
		       uint64_t end, uint64_t pgoff, const char *path)
{
	ck_assert_uint_gt(m->n, i);
	ck_assert_uint_eq(m->v[i].start, start);
	ck_assert_uint_eq(m->v[i].end, end);
	ck_assert_uint_eq(m->v[i].pgoff, pgoff);
	ck_assert_str_eq(m->v[i].path, path);
}

START_TEST(test_maps_add)
{
	struct pm_maps m = { 0 }, c;

	pm_maps_add(&m, 0x1000, 0x8000, 0, "/a");
	/* replace the middle: split in three */
	pm_maps_add(&m, 0x3000, 0x2000, 0x10000, "/b");
	ck_assert_uint_eq(m.n, 3);
	expect_map(&m, 0, 0x1000, 0x3000, 0, "/a");
	expect_map(&m, 1, 0x3000, 0x5000, 0x10000, "/b");
	expect_map(&m, 2, 0x5000, 0x9000, 0x4000, "/a");
	/* overlap the start */
	pm_maps_add(&m, 0x0, 0x2000, 0, "/c");
	ck_assert_uint_eq(m.n, 4);
	expect_map(&m, 0, 0x0, 0x2000, 0, "/c");
	expect_map(&m, 1, 0x2000, 0x3000, 0x1000, "/a");
	/* overlap the end */
	pm_maps_add(&m, 0x8000, 0x2000, 0, "/d");
	ck_assert_uint_eq(m.n, 5);
	expect_map(&m, 3, 0x5000, 0x8000, 0x4000, "/a");
	expect_map(&m, 4, 0x8000, 0xa000, 0, "/d");
	/* exact replacement */
	pm_maps_add(&m, 0x3000, 0x2000, 0, NULL);
	ck_assert_uint_eq(m.n, 5);
	expect_map(&m, 2, 0x3000, 0x5000, 0, "//anon");
	/* empty mapping: ignored */
	pm_maps_add(&m, 0x4000, 0, 0, "/e");
	ck_assert_uint_eq(m.n, 5);

	ck_assert_str_eq(pm_maps_find(&m, 0x1fff)->path, "/c");
	ck_assert_str_eq(pm_maps_find(&m, 0x2000)->path, "/a");
	ck_assert_str_eq(pm_maps_find(&m, 0x3fff)->path, "//anon");
	ck_assert_str_eq(pm_maps_find(&m, 0x9fff)->path, "/d");
	ck_assert_ptr_null(pm_maps_find(&m, 0xa000));

	pm_maps_copy(&c, &m, 42);
	ck_assert_int_eq(c.pid, 42);
	ck_assert_uint_eq(c.n, m.n);
	ck_assert_ptr_ne(c.v[0].path, m.v[0].path);
	/* swallow everything */
	pm_maps_add(&m, 0x0, 0x10000, 0, "/z");
	ck_assert_uint_eq(m.n, 1);
	expect_map(&m, 0, 0, 0x10000, 0, "/z");
	pm_maps_free(&m);
	ck_assert_uint_eq(c.n, 5);
	expect_map(&c, 4, 0x8000, 0xa000, 0, "/d");
	pm_maps_free(&c);
	ck_assert_uint_eq(c.n, 0);
}
END_TEST

/* Resolved from this very binary. */
int pm_test_marker_fn(int x);
__attribute__((noinline)) int pm_test_marker_fn(int x)
{
	return x * 13 + 7;
}

static int (*volatile marker_ptr)(int) = pm_test_marker_fn;

START_TEST(test_user_self)
{
	struct pm_maps m = { 0 };
	struct pm_symcache *c = pm_symcache_new();
	struct pm_user_sym u;
	struct pm_err e;
	const struct pm_map *map;
	char exe[PATH_MAX];
	ssize_t n;
	uint64_t addr = (uint64_t)(uintptr_t)marker_ptr, fa;
	int stack_var = 0;
	pid_t (*volatile getpid_ptr)(void) = getpid;

	ck_assert_int_eq(marker_ptr(1), 20);
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	ck_assert_int_eq(pm_maps_from_proc(&m, getpid(), &e), 0);
	ck_assert_int_eq(m.pid, getpid());
	map = pm_maps_find(&m, addr);
	ck_assert_ptr_nonnull(map);
	ck_assert_str_eq(map->path, exe);

	ck_assert_int_eq(pm_user_lookup(c, &m, addr + 1, &u), 0);
	ck_assert_str_eq(u.name, "pm_test_marker_fn");
	ck_assert_str_eq(u.object, exe);
	ck_assert_uint_eq(u.offset, 1);
	ck_assert_uint_gt(u.sym_size, 1);
	ck_assert(u.size_exact);
	ck_assert_ptr_nonnull(u.build_id);
	/* cached: the same answer again */
	ck_assert_int_eq(pm_user_lookup(c, &m, addr, &u), 0);
	ck_assert_str_eq(u.name, "pm_test_marker_fn");
	ck_assert_uint_eq(u.offset, 0);

	/* the file address is the one nm prints */
	ck_assert_int_eq(pm_user_file_addr(c, map, addr, &fa), 0);
	if (have_tool("nm")) {
		char *out = run("nm --defined-only '%s'", exe);
		struct nmsym *v;
		size_t k = parse_nm(out, &v);
		const struct nmsym *ns = nm_find(v, k, "pm_test_marker_fn");

		ck_assert_ptr_nonnull(ns);
		ck_assert_uint_eq(fa, ns->addr);
		free(v);
		free(out);
	} else {
		printf("note: file address check skipped: nm not found\n");
	}

	/* a shared library (libc's .dynsym at least) */
	ck_assert_int_eq(pm_user_lookup(c, &m, (uint64_t)(uintptr_t)getpid_ptr, &u), 0);
	ck_assert_ptr_nonnull(strstr(u.name, "getpid"));
	ck_assert_ptr_nonnull(strstr(u.object, "libc"));

	/* no file: -ENOENT, object still named */
	ck_assert_int_eq(pm_user_lookup(c, &m, (uint64_t)(uintptr_t)&stack_var, &u), -ENOENT);
	ck_assert_ptr_null(u.name);
	ck_assert_ptr_nonnull(u.object);
	ck_assert_int_eq(pm_user_lookup(c, &m, 8, &u), -ENOENT);
	ck_assert_ptr_null(u.object);
	pm_symcache_free(c);
	pm_maps_free(&m);
}
END_TEST

/* The bytes of mapped code, read from its file: what the profiler looks
 * at to tell a sample at a syscall's return point. */
START_TEST(test_user_read_file)
{
	struct pm_maps m = { 0 };
	unsigned char buf[16];
	uint64_t addr = (uint64_t)(uintptr_t)marker_ptr;

	ck_assert_int_eq(pm_maps_from_proc(&m, getpid(), NULL), 0);
	ck_assert_int_eq(pm_user_read_file(&m, addr, buf, sizeof(buf)), 0);
	ck_assert_mem_eq(buf, (const void *)(uintptr_t)addr, sizeof(buf));
	/* the stack is no file */
	ck_assert_int_eq(pm_user_read_file(&m, (uint64_t)(uintptr_t)buf, buf, 1), -ENOENT);
	ck_assert_int_eq(pm_user_read_file(&m, 8, buf, 1), -ENOENT);
	pm_maps_free(&m);
}
END_TEST

START_TEST(test_user_synthetic_maps)
{
	struct pm_maps m = { 0 }, self = { 0 };
	struct pm_symcache *c = pm_symcache_new();
	struct pm_user_sym u;
	const struct pm_map *text;
	char exe[PATH_MAX], *deleted;
	ssize_t n;
	uint64_t fa, addr = (uint64_t)(uintptr_t)marker_ptr;

	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	ck_assert_int_gt(n, 0);
	exe[n] = '\0';
	deleted = pm_xasprintf("%s (deleted)", exe);
	ck_assert_int_eq(pm_maps_from_proc(&self, getpid(), NULL), 0);
	text = pm_maps_find(&self, addr);
	ck_assert_ptr_nonnull(text);
	pm_maps_add(&m, 0x100000, 0x1000, 0, "//anon");
	pm_maps_add(&m, 0x200000, 0x1000, 0, "[heap]");
	pm_maps_add(&m, 0x300000, 0x1000, 0, "[stack]");
	pm_maps_add(&m, 0x400000, 0x1000, 0, "/nonexistent/lib.so");
	pm_maps_add(&m, 0x500000, 0x1000, 0, "/dev/null");
	/* this binary's text, elsewhere, under a deleted name */
	pm_maps_add(&m, 0x10000000, text->end - text->start, text->pgoff, deleted);

	ck_assert_int_eq(pm_user_lookup(c, &m, 0x100010, &u), -ENOENT);
	ck_assert_str_eq(u.object, "//anon");
	ck_assert_int_eq(pm_user_lookup(c, &m, 0x200010, &u), -ENOENT);
	ck_assert_str_eq(u.object, "[heap]");
	ck_assert_int_eq(pm_user_lookup(c, &m, 0x300010, &u), -ENOENT);
	ck_assert_str_eq(u.object, "[stack]");
	ck_assert_int_eq(pm_user_lookup(c, &m, 0x400010, &u), -ENOENT);
	ck_assert_str_eq(u.object, "/nonexistent/lib.so");
	/* the failure is cached: a second try answers the same */
	ck_assert_int_eq(pm_user_lookup(c, &m, 0x400020, &u), -ENOENT);
	ck_assert_int_eq(pm_user_file_addr(c, &m.v[3], 0x400020, &fa), -ENOENT);
	ck_assert_int_eq(pm_user_lookup(c, &m, 0x500010, &u), -ENOENT);
	ck_assert_int_eq(pm_user_file_addr(c, &m.v[0], 0x100010, &fa), -ENOENT);
	/* " (deleted)": the file without the suffix is read */
	addr = 0x10000000 + (addr - text->start);
	ck_assert_int_eq(pm_user_lookup(c, &m, addr, &u), 0);
	ck_assert_str_eq(u.name, "pm_test_marker_fn");
	ck_assert_str_eq(u.object, deleted);
	ck_assert_uint_eq(u.offset, 0);
	ck_assert_int_eq(pm_user_file_addr(c, &m.v[5], addr, &fa), 0);
	ck_assert_int_eq(pm_user_file_addr(c, pm_maps_find(&self, (uint64_t)(uintptr_t)marker_ptr),
					   (uint64_t)(uintptr_t)marker_ptr, &addr), 0);
	ck_assert_uint_eq(fa, addr);
	free(deleted);
	pm_maps_free(&self);
	pm_symcache_free(c);
	pm_maps_free(&m);
}
END_TEST

START_TEST(test_user_vdso)
{
	unsigned long base = getauxval(AT_SYSINFO_EHDR);
	struct pm_maps m = { 0 };
	struct pm_symcache *c;
	struct pm_symtab *t;
	struct pm_elf_info info;
	struct pm_user_sym u;
	const struct pm_map *map;
	const struct pm_sym *s = NULL;
	struct pm_err e;
	uint64_t addr;

	if (!base) {
		printf("note: vDSO test skipped: no vDSO\n");
		return;
	}
	ck_assert_int_eq(pm_maps_from_proc(&m, getpid(), &e), 0);
	map = pm_maps_find(&m, base);
	ck_assert_ptr_nonnull(map);
	ck_assert_str_eq(map->path, "[vdso]");
	ck_assert_int_eq(pm_elf_load_image((const void *)base, map->end - map->start, "[vdso]",
					   &t, &info, &e), 0);
	ck_assert_str_eq(pm_symtab_source(t), ".dynsym");
	s = pm_symtab_find(t, "__vdso_clock_gettime");
	if (!s)
		s = pm_symtab_at(t, 0);
	ck_assert_ptr_nonnull(s);
	addr = map->start + s->addr - info.text_vaddr + info.text_offset - map->pgoff;
	c = pm_symcache_new();
	ck_assert_int_eq(pm_user_lookup(c, &m, addr, &u), 0);
	ck_assert_str_eq(u.object, "[vdso]");
	ck_assert_str_eq(u.name, pm_symtab_lookup(t, s->addr)->name);
	ck_assert_uint_eq(u.offset, 0);
	pm_symcache_free(c);
	pm_symtab_free(t);
	pm_maps_free(&m);
}
END_TEST

/* ---- the kernel ---- */

static bool kallsyms_visible(void)
{
	char line[256] = "";
	FILE *f = fopen("/proc/kallsyms", "r");
	bool visible = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f))
		if (strtoull(line, NULL, 16)) {
			visible = true;
			break;
		}
	fclose(f);
	return visible;
}

static void check_getppid(const struct pm_kernel_syms *k)
{
	const struct pm_symtab *t = k->core;
	const struct pm_sym *s, *r;
	const char *mod = "x";

	s = pm_symtab_find(t, "__x64_sys_getppid");
	if (!s)
		s = pm_symtab_find(t, "schedule");
	ck_assert_ptr_nonnull(s);
	r = pm_kernel_lookup(k, s->addr, &mod);
	ck_assert_ptr_nonnull(r);
	ck_assert_ptr_null(mod);
	/* the same function; aliases (__ia32_sys_getppid) share the address */
	ck_assert_uint_eq(r->addr, s->addr);
	ck_assert_uint_eq(pm_symtab_find(t, r->name)->addr, s->addr);
	if (s->size > 1)
		ck_assert_ptr_eq(pm_kernel_lookup(k, s->addr + s->size - 1, NULL), r);
}

START_TEST(test_kernel_this_machine)
{
	struct pm_kernel_syms k;
	struct pm_err e = { "" };

	ck_assert_int_eq(pm_kernel_syms_load(&k, NULL, &e), 0);
	if (!kallsyms_visible()) {
		printf("note: kernel addresses hidden here: %s\n", k.unavailable);
		ck_assert_ptr_null(k.core);
		ck_assert_ptr_nonnull(k.unavailable);
		pm_kernel_syms_free(&k);
		return;
	}
	ck_assert_ptr_nonnull(k.core);
	ck_assert_ptr_null(k.unavailable);
	if (!k.vmlinux) {
		ck_assert_str_eq(k.source, "/proc/kallsyms");
		ck_assert_str_eq(pm_symtab_source(k.core), "kallsyms");
		ck_assert_ptr_null(k.kallsyms);
	} else {
		ck_assert_str_eq(k.source, k.vmlinux);
		ck_assert_ptr_nonnull(k.kallsyms);
	}
	ck_assert_uint_ne(k.stext, 0);
	ck_assert_uint_lt(k.stext, k.etext);
	check_getppid(&k);
	ck_assert_ptr_null(pm_kernel_lookup(&k, 0x1000, NULL));
	pm_kernel_syms_free(&k);
	ck_assert_ptr_null(k.core);
}
END_TEST

START_TEST(test_kernel_unprivileged)
{
	long kptr = -1, paranoid = -1;
	char buf[2048] = "";
	int fds[2], status;
	ssize_t n;
	pid_t pid;

	if (getuid() != 0) {
		printf("note: unprivileged kernel test skipped: not root\n");
		return;
	}
	ck_assert_int_eq(pipe(fds), 0);
	pid = fork();
	ck_assert_int_ge(pid, 0);
	if (pid == 0) {
		struct pm_kernel_syms k;
		char out[2048];

		close(fds[0]);
		if (setgroups(0, NULL) || setresgid(65534, 65534, 65534) ||
		    setresuid(65534, 65534, 65534))
			_exit(3);
		if (pm_kernel_syms_load(&k, NULL, NULL))
			_exit(4);
		snprintf(out, sizeof(out), "%d|%s", k.core != NULL,
			 k.unavailable ? k.unavailable : "");
		if (write(fds[1], out, strlen(out)) < 0)
			_exit(5);
		_exit(0);
	}
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	ck_assert_int_eq(waitpid(pid, &status, 0), pid);
	ck_assert_msg(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child status %d", status);
	ck_assert_int_gt(n, 0);
	buf[n] = '\0';
	pm_read_long("/proc/sys/kernel/kptr_restrict", &kptr);
	pm_read_long("/proc/sys/kernel/perf_event_paranoid", &paranoid);
	if (kptr == 0 && paranoid <= 1) {
		/* this system shows kernel addresses to everyone */
		ck_assert_msg(buf[0] == '1', "nobody: %s", buf);
	} else {
		ck_assert_msg(buf[0] == '0', "nobody got kernel symbols: %s", buf);
		ck_assert_msg(strstr(buf, "perf_event_paranoid") || strstr(buf, "kptr_restrict"),
			      "unhelpful: %s", buf);
		printf("note: as nobody: %s\n", buf + 2);
	}
}
END_TEST

START_TEST(test_kernel_bad_vmlinux)
{
	struct pm_kernel_syms k;
	struct pm_err e = { "" };
	char *dir = make_tmpdir(), *path = pm_xasprintf("%s/vmlinux-text", dir);

	ck_assert_int_eq(pm_kernel_syms_load(&k, "/nonexistent/vmlinux-x", &e), -ENOENT);
	ck_assert_ptr_nonnull(strstr(e.msg, "/nonexistent/vmlinux-x"));
	ck_assert_ptr_null(k.core);
	ck_assert_ptr_null(k.unavailable);
	write_file(path, "not an ELF file\n");
	ck_assert_int_eq(pm_kernel_syms_load(&k, path, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, path));
	ck_assert_ptr_null(k.core);
	pm_kernel_syms_free(&k);
	free(path);
	pm_rmtree(dir);
	free(dir);
}
END_TEST

/* A fake vmlinux: _stext and a function at known link addresses. */
START_TEST(test_kernel_fake_vmlinux)
{
	static const char *const tools[] = { "cc", "nm", NULL };
	static const char src[] =
		"void _stext(void) {}\n"
		"__attribute__((noinline)) int kfake_fn(int x) { return x * 7 + 3; }\n"
		"int main(void) { _stext(); return kfake_fn(1); }\n";
	struct pm_kernel_syms k;
	struct pm_err e = { "" };
	const struct nmsym *ns, *nst;
	const struct pm_sym *s, *r;
	struct nmsym *v;
	char *dir, *path, *out;
	size_t n;
	int err;

	if (!need_tools("fake vmlinux test", tools))
		return;
	dir = make_tmpdir();
	path = pm_xasprintf("%s/k.c", dir);
	write_file(path, src);
	free(path);
	free(run("cd '%s' && cc -O0 -g0 -Wl,--build-id=none -o vmlinux-fake k.c 2>&1 && "
		 "cc -O0 -g0 -Wl,--build-id=sha1 -o vmlinux-id k.c 2>&1", dir));
	path = pm_xasprintf("%s/vmlinux-fake", dir);
	ck_assert_int_eq(access(path, R_OK), 0);

	err = pm_kernel_syms_load(&k, path, &e);
	ck_assert_msg(err == 0, "%s", e.msg);
	if (!kallsyms_visible() && k.core) {
		/* booted with nokaslr: link-time addresses are used as they are */
		ck_assert_str_eq(pm_symtab_source(k.core), "vmlinux");
		ck_assert_ptr_null(k.unavailable);
		pm_kernel_syms_free(&k);
	} else if (!kallsyms_visible()) {
		ck_assert_ptr_nonnull(k.unavailable);
		ck_assert_ptr_nonnull(strstr(k.unavailable, path));
		printf("note: fake vmlinux: %s\n", k.unavailable);
		pm_kernel_syms_free(&k);
	} else {
		ck_assert_ptr_nonnull(k.core);
		ck_assert_str_eq(pm_symtab_source(k.core), "vmlinux");
		ck_assert_str_eq(k.vmlinux, path);
		ck_assert_str_eq(k.source, path);
		ck_assert_ptr_nonnull(k.kallsyms);
		out = run("nm --defined-only '%s'", path);
		n = parse_nm(out, &v);
		ns = nm_find(v, n, "kfake_fn");
		nst = nm_find(v, n, "_stext");
		ck_assert_ptr_nonnull(ns);
		ck_assert_ptr_nonnull(nst);
		/* relocated by kallsyms _stext - vmlinux _stext */
		r = pm_kernel_lookup(&k, k.stext + (ns->addr - nst->addr) + 2, NULL);
		ck_assert_ptr_nonnull(r);
		ck_assert_str_eq(r->name, "kfake_fn");
		ck_assert(r->size_exact);
		/* what the vmlinux lacks comes from kallsyms */
		s = pm_symtab_find(k.kallsyms, "__x64_sys_getppid");
		if (!s)
			s = pm_symtab_find(k.kallsyms, "schedule");
		if (s) {
			r = pm_kernel_lookup(&k, s->addr, NULL);
			ck_assert_ptr_nonnull(r);
			ck_assert_uint_eq(r->addr, s->addr);
		}
		free(v);
		free(out);
		pm_kernel_syms_free(&k);
	}
	free(path);

	/* a build-id that is not the running kernel's is refused */
	path = pm_xasprintf("%s/vmlinux-id", dir);
	err = pm_kernel_syms_load(&k, path, &e);
	if (err) {
		ck_assert_int_eq(err, -EINVAL);
		ck_assert_ptr_nonnull(strstr(e.msg, "running kernel"));
	} else {
		printf("note: running kernel has no build-id: mismatch check not exercised\n");
		pm_kernel_syms_free(&k);
	}
	free(path);
	pm_rmtree(dir);
	free(dir);
}
END_TEST

START_TEST(test_kernel_vmlinux_without_stext)
{
	static const char *const tools[] = { "cc", NULL };
	struct pm_kernel_syms k;
	struct pm_err e = { "" };
	char *dir, *path;

	if (!need_tools("vmlinux without _stext test", tools))
		return;
	dir = make_tmpdir();
	path = pm_xasprintf("%s/p.c", dir);
	write_file(path, "int main(void) { return 0; }\n");
	free(path);
	free(run("cd '%s' && cc -O0 -g0 -Wl,--build-id=none -o vmlinux-p p.c 2>&1", dir));
	path = pm_xasprintf("%s/vmlinux-p", dir);
	ck_assert_int_eq(pm_kernel_syms_load(&k, path, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, path));
	ck_assert_ptr_nonnull(strstr(e.msg, "_stext"));
	free(path);
	pm_rmtree(dir);
	free(dir);
}
END_TEST

/* ---- speed ---- */

START_TEST(test_kallsyms_speed)
{
	struct pm_symtab *t;
	uint64_t t0, t1, t2, t3, lo, span, x = 88172645463325252ull;
	size_t i, hits = 0;
	char *text;

	if (pm_read_file("/proc/kallsyms", &text, NULL) || !kallsyms_visible()) {
		printf("note: kallsyms speed test skipped: addresses hidden\n");
		return;
	}
	free(text);
	t0 = pm_now_ns();
	ck_assert_int_eq(pm_read_file("/proc/kallsyms", &text, NULL), 0);
	t1 = pm_now_ns();
	ck_assert_int_eq(pm_symtab_from_kallsyms(&t, text, NULL), 0);
	t2 = pm_now_ns();
	/* like samples: mostly inside functions, some anywhere in the text */
	lo = pm_symtab_at(t, 0)->addr;
	span = (pm_symtab_find(t, "_etext") ? pm_symtab_find(t, "_etext")->addr
					    : pm_symtab_at(t, pm_symtab_count(t) - 1)->addr) - lo;
	for (i = 0; i < 1000000; i++) {
		const struct pm_sym *s;

		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		if (i & 7) {
			s = pm_symtab_at(t, (x >> 20) % pm_symtab_count(t));
			hits += pm_symtab_lookup(t, s->addr + (x & 0xfffff) % (s->size + 1)) != NULL;
		} else {
			hits += pm_symtab_lookup(t, lo + x % (span + 1)) != NULL;
		}
	}
	t3 = pm_now_ns();
	printf("kallsyms: read %.1f ms, parse %.1f ms (%zu symbols), 1e6 lookups %.1f ms "
	       "(%zu hits)\n", (t1 - t0) / 1e6, (t2 - t1) / 1e6, pm_symtab_count(t),
	       (t3 - t2) / 1e6, hits);
	/* generous: only a pathological slowdown should fail */
	ck_assert_uint_lt(t2 - t1, 1000000000ull);
	pm_symtab_free(t);
	free(text);
}
END_TEST

static Suite *symbols_suite(void)
{
	Suite *s = suite_create("symbols");
	TCase *tc;

	tc = tcase_create("kallsyms");
	tcase_add_test(tc, test_kallsyms_normal);
	tcase_add_test(tc, test_kallsyms_last_vmlinux_symbol);
	tcase_add_test(tc, test_kallsyms_hidden);
	tcase_add_test(tc, test_kallsyms_empty);
	tcase_add_test(tc, test_kallsyms_relocate);
	suite_add_tcase(s, tc);

	tc = tcase_create("elf");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_elf_program);
	tcase_add_test(tc, test_elf_demangled);
	tcase_add_test(tc, test_elf_shared_and_stripped);
	tcase_add_test(tc, test_elf_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("maps");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_maps_add);
	tcase_add_test(tc, test_user_self);
	tcase_add_test(tc, test_user_read_file);
	tcase_add_test(tc, test_user_synthetic_maps);
	tcase_add_test(tc, test_user_vdso);
	suite_add_tcase(s, tc);

	tc = tcase_create("kernel");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_kernel_this_machine);
	tcase_add_test(tc, test_kernel_unprivileged);
	tcase_add_test(tc, test_kernel_bad_vmlinux);
	tcase_add_test(tc, test_kernel_fake_vmlinux);
	tcase_add_test(tc, test_kernel_vmlinux_without_stext);
	tcase_add_test(tc, test_kallsyms_speed);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(symbols_suite());
	int failures;

	srunner_run_all(sr, CK_NORMAL);
	failures = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failures ? 1 : 0;
}
