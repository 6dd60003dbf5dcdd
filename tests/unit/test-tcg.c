/*
 * pmbench-tcg.so apart from QEMU (src/ab/tcg-count.c, the code the plugin
 * is built from): branches classified from instruction bytes, blocks,
 * trial windows from markers, the kernel profile by address, the i-cache
 * model; then its output read back by pmbench ab (src/ab/emulated.c),
 * matched to a result's trials, named with kernel symbols moved by KASLR,
 * and merged over boots.
 */
#include "config.h"

#include <check.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab/emulated.h"
#include "ab/tcg-count.h"
#include "bench/marker.h"
#include "explain/explain.h"
#include "results/result.h"
#include "stats/stats.h"
#include "symbols/symbols.h"

#define KBASE 0xffffffff81000000ull

static enum pm_tc_branch cls(const char *hex)
{
	unsigned char b[16];
	size_t n = 0;
	unsigned v;

	while (*hex && sscanf(hex, "%2x", &v) == 1) {
		b[n++] = (unsigned char)v;
		hex += 2;
		while (*hex == ' ')
			hex++;
	}
	return pm_tc_classify(b, n);
}

START_TEST(test_classify)
{
	ck_assert_int_eq(cls("74 05"), PM_TC_BR_COND);		/* je */
	ck_assert_int_eq(cls("0f 84 10 00 00 00"), PM_TC_BR_COND);	/* je rel32 */
	ck_assert_int_eq(cls("e2 fe"), PM_TC_BR_COND);		/* loop */
	ck_assert_int_eq(cls("eb 02"), PM_TC_BR_JUMP);
	ck_assert_int_eq(cls("e9 00 01 00 00"), PM_TC_BR_JUMP);
	ck_assert_int_eq(cls("e8 00 01 00 00"), PM_TC_BR_CALL);
	ck_assert_int_eq(cls("ff d0"), PM_TC_BR_ICALL);		/* call *%rax */
	ck_assert_int_eq(cls("41 ff d3"), PM_TC_BR_ICALL);	/* call *%r11 */
	ck_assert_int_eq(cls("ff e0"), PM_TC_BR_IJUMP);		/* jmp *%rax */
	ck_assert_int_eq(cls("3e ff e0"), PM_TC_BR_IJUMP);	/* notrack jmp */
	ck_assert_int_eq(cls("ff 24 c5 00 00 00 00"), PM_TC_BR_IJUMP);	/* jmp *tab(,%rax,8) */
	ck_assert_int_eq(cls("c3"), PM_TC_BR_RET);
	ck_assert_int_eq(cls("f3 c3"), PM_TC_BR_RET);		/* rep ret */
	ck_assert_int_eq(cls("c2 08 00"), PM_TC_BR_RET);
	ck_assert_int_eq(cls("0f 05"), PM_TC_BR_FAR);		/* syscall */
	ck_assert_int_eq(cls("48 0f 07"), PM_TC_BR_FAR);	/* sysretq */
	ck_assert_int_eq(cls("48 cf"), PM_TC_BR_FAR);		/* iretq */
	ck_assert_int_eq(cls("48 89 c7"), PM_TC_BR_NONE);	/* mov */
	ck_assert_int_eq(cls("f3 0f 1e fa"), PM_TC_BR_NONE);	/* endbr64 */
	ck_assert_int_eq(cls("ff c0"), PM_TC_BR_NONE);		/* inc %eax */
	ck_assert_int_eq(cls("0f"), PM_TC_BR_NONE);		/* cut short */
	ck_assert_int_eq(cls("f3"), PM_TC_BR_NONE);
	ck_assert_int_eq(pm_tc_classify(NULL, 0), PM_TC_BR_NONE);
	ck_assert(pm_tc_is_rep_string((const unsigned char *)"\xf3\x48\xab", 3));	/* rep stosq */
	ck_assert(pm_tc_is_rep_string((const unsigned char *)"\xf3\xa4", 2));	/* rep movsb */
	ck_assert(pm_tc_is_rep_string((const unsigned char *)"\xf2\xae", 2));	/* repne scasb */
	ck_assert(!pm_tc_is_rep_string((const unsigned char *)"\xa4", 1));	/* movsb */
	ck_assert(!pm_tc_is_rep_string((const unsigned char *)"\xf3\xc3", 2));
	ck_assert_str_eq(pm_tc_branch_names[PM_TC_BR_ICALL], "indirect_call");
}
END_TEST

static struct pm_tc_code code_at(uint64_t addr, uint32_t len)
{
	struct pm_tc_code c = { .n = 0 };

	pm_tc_code_add(&c, addr, len);
	return c;
}

START_TEST(test_blocks)
{
	struct pm_tc *t = pm_tc_new(1, false);
	struct pm_tc_code c = code_at(0x1000, 12), d = { .n = 0 };
	struct pm_tc_block *a, *b;
	size_t i;

	a = pm_tc_block(t, 0x400000, &c, 3, false, PM_TC_BR_COND, false);
	ck_assert_ptr_nonnull(a);
	/* translated again: the same entry, so the same counter */
	ck_assert_ptr_eq(pm_tc_block(t, 0x400000, &c, 3, false, PM_TC_BR_COND, false), a);
	ck_assert_ptr_ne(pm_tc_block(t, 0x400000, &c, 4, false, PM_TC_BR_COND, false), a);
	for (i = 0; i < 20000; i++) {
		struct pm_tc_code x = code_at(0x100000 + 16 * i, 16);

		ck_assert_ptr_nonnull(pm_tc_block(t, KBASE + 16 * i, &x, 4, true, PM_TC_BR_NONE,
						  false));
	}
	/* entries never move: QEMU holds their addresses */
	ck_assert_ptr_eq(pm_tc_block(t, 0x400000, &c, 3, false, PM_TC_BR_COND, false), a);
	ck_assert_uint_eq(pm_tc_nblocks(t), 20002);
	/* a block over two pages that are not adjacent in memory */
	pm_tc_code_add(&d, 0x5ffe, 2);
	pm_tc_code_add(&d, 0x9000, 3);
	pm_tc_code_add(&d, 0x9003, 1);
	ck_assert_uint_eq(d.n, 2);
	ck_assert_uint_eq(d.len[0], 2);
	ck_assert_uint_eq(d.len[1], 4);
	b = pm_tc_block(t, 0x7000, &d, 3, false, PM_TC_BR_RET, false);
	ck_assert_ptr_ne(b, a);
	pm_tc_free(t);
}
END_TEST

START_TEST(test_marker_recognised)
{
	const unsigned char ret = PM_MARKER_RET, nop = 0x90;
	uint32_t off = 0;

	ck_assert(pm_tc_is_marker(PM_MARKER_BASE + 5, false, 1, &ret, 1, &off));
	ck_assert_uint_eq(off, 5);
	ck_assert(pm_tc_is_marker(PM_MARKER_BASE + PM_MARKER_SIZE - 1, false, 1, &ret, 1, &off));
	ck_assert(!pm_tc_is_marker(PM_MARKER_BASE + PM_MARKER_SIZE, false, 1, &ret, 1, &off));
	ck_assert(!pm_tc_is_marker(PM_MARKER_BASE - 1, false, 1, &ret, 1, &off));
	ck_assert(!pm_tc_is_marker(PM_MARKER_BASE + 5, true, 1, &ret, 1, &off));
	ck_assert(!pm_tc_is_marker(PM_MARKER_BASE + 5, false, 2, &ret, 1, &off));
	ck_assert(!pm_tc_is_marker(PM_MARKER_BASE + 5, false, 1, &nop, 1, &off));
}
END_TEST

/* The plugin's output as text. */
static char *output(const struct pm_tc *t, size_t *len)
{
	char *text = NULL;
	FILE *f = open_memstream(&text, len);

	ck_assert_int_eq(pm_tc_write(t, f), 0);
	fclose(f);
	return text;
}

static void parse(const struct pm_tc *t, struct pm_tc_counts *c)
{
	struct pm_err e;
	size_t len;
	char *text = output(t, &len);

	ck_assert_msg(pm_tc_counts_parse(c, text, len, "counts", &e) == 0, "%s", e.msg);
	free(text);
}

#define START(id) (2u * (id))
#define END(id) (2u * (id) + 1)

/* A window of benchmark 7: what ran between its markers, nothing else. */
START_TEST(test_windows)
{
	struct pm_tc *t = pm_tc_new(2, false);
	struct pm_tc_code cu = code_at(0x1000, 10), ck = code_at(0x2000, 40), cr = code_at(0x3000, 3);
	struct pm_tc_block *u, *k, *r;
	struct pm_tc_counts c;

	u = pm_tc_block(t, 0x401000, &cu, 3, false, PM_TC_BR_COND, false);
	k = pm_tc_block(t, KBASE + 0x100, &ck, 10, true, PM_TC_BR_CALL, false);
	r = pm_tc_block(t, KBASE + 0x200, &cr, 1, true, PM_TC_BR_NONE, true);
	u->execs = 1000;	/* before the trial: not its */
	pm_tc_mark(t, START(7));
	u->execs += 5;
	k->execs += 4;
	r->execs += 100;
	pm_tc_mark(t, END(7));
	u->execs += 999;	/* after it */
	/* a start without an end, an end of another benchmark, an end alone */
	pm_tc_mark(t, START(3));
	pm_tc_mark(t, START(7));
	k->execs += 2;
	pm_tc_mark(t, END(8));
	pm_tc_mark(t, END(7));
	ck_assert_uint_eq(pm_tc_nwindows(t), 1);
	pm_tc_mark(t, START(7));
	k->execs += 1;
	pm_tc_mark(t, END(7));
	parse(t, &c);
	ck_assert_uint_eq(c.nw, 2);
	ck_assert_uint_eq(c.dropped, 3);
	ck_assert_uint_eq(c.w[0].id, 7);
	ck_assert_uint_eq(c.w[0].c[0][PM_TC_F_INSNS], 15);
	ck_assert_uint_eq(c.w[0].c[0][PM_TC_F_BRANCH + PM_TC_BR_COND - 1], 5);
	ck_assert_uint_eq(c.w[0].c[1][PM_TC_F_INSNS], 40 + 100);
	ck_assert_uint_eq(c.w[0].c[1][PM_TC_F_BRANCH + PM_TC_BR_CALL - 1], 4);
	ck_assert_uint_eq(c.w[0].c[1][PM_TC_F_REPEATS], 100);
	ck_assert_uint_eq(c.w[0].c[0][PM_TC_F_REPEATS], 0);
	ck_assert_uint_eq(c.w[1].c[1][PM_TC_F_INSNS], 10);
	ck_assert_uint_eq(c.w[1].c[0][PM_TC_F_INSNS], 0);
	/* the profile: benchmark 7's kernel instructions by block address */
	ck_assert_uint_eq(c.np, 2);
	for (size_t i = 0; i < c.np; i++) {
		ck_assert_uint_eq(c.p[i].id, 7);
		/* rep string iterations apart from the path */
		ck_assert(c.p[i].repeat == (c.p[i].vaddr == KBASE + 0x200));
		if (c.p[i].vaddr == KBASE + 0x100)
			ck_assert_uint_eq(c.p[i].insns, 50);
		else
			ck_assert_uint_eq(c.p[i].insns, 100);
	}
	ck_assert(!c.icache);
	ck_assert_str_eq(c.icache_off, "not-requested");
	ck_assert_uint_eq(c.vcpus, 2);
	pm_tc_counts_free(&c);
	pm_tc_free(t);
}
END_TEST

static void config(struct pm_tc *t, unsigned kib, unsigned ways, unsigned line)
{
	pm_tc_mark(t, PM_MARKER_CONFIG + PM_MARKER_L1I_KIB * PM_MARKER_FIELD + kib);
	pm_tc_mark(t, PM_MARKER_CONFIG + PM_MARKER_L1I_WAYS * PM_MARKER_FIELD + ways);
	pm_tc_mark(t, PM_MARKER_CONFIG + PM_MARKER_L1I_LINE * PM_MARKER_FIELD + line);
	pm_tc_mark(t, PM_MARKER_CONFIG + PM_MARKER_CONFIG_DONE * PM_MARKER_FIELD);
}

/* 1 KiB, 2 ways, 64-byte lines: 8 sets; lines 0, 8 and 16 share set 0. */
START_TEST(test_icache_lru)
{
	struct pm_tc *t = pm_tc_new(2, true);
	struct pm_tc_code ca = code_at(0, 64), cb = code_at(512, 64), cc = code_at(1024, 32);
	struct pm_tc_code two = code_at(60, 8);
	struct pm_tc_block *a, *b, *c, *k;
	struct pm_tc_counts out;

	a = pm_tc_block(t, 0x1000, &ca, 5, false, PM_TC_BR_NONE, false);
	b = pm_tc_block(t, 0x2000, &cb, 5, false, PM_TC_BR_NONE, false);
	c = pm_tc_block(t, 0x3000, &cc, 5, false, PM_TC_BR_NONE, false);
	k = pm_tc_block(t, KBASE, &two, 2, true, PM_TC_BR_NONE, false);
	pm_tc_fetch(t, 0, a);	/* no geometry yet: nothing modelled */
	ck_assert_str_eq(pm_tc_icache_off(t), "no-geometry");
	config(t, 1, 2, 64);
	ck_assert_ptr_null(pm_tc_icache_off(t));
	pm_tc_mark(t, START(1));
	pm_tc_fetch(t, 0, a);	/* miss */
	pm_tc_fetch(t, 0, b);	/* miss */
	pm_tc_fetch(t, 0, a);	/* hit: a is the newest */
	pm_tc_fetch(t, 0, c);	/* miss: b goes */
	pm_tc_fetch(t, 0, a);	/* hit */
	pm_tc_fetch(t, 0, b);	/* miss: c goes */
	pm_tc_fetch(t, 1, a);	/* another vCPU, its own cache: miss */
	pm_tc_fetch(t, 0, k);	/* lines 0 (hit) and 1 (miss), kernel */
	pm_tc_fetch(t, 0, k);	/* both hit */
	pm_tc_fetch(t, 5, a);	/* no such vCPU: ignored */
	pm_tc_mark(t, END(1));
	parse(t, &out);
	ck_assert(out.icache);
	ck_assert_uint_eq(out.icache_kib, 1);
	ck_assert_uint_eq(out.icache_ways, 2);
	ck_assert_uint_eq(out.icache_line, 64);
	ck_assert_uint_eq(out.nw, 1);
	ck_assert_uint_eq(out.w[0].c[0][PM_TC_F_MISSES], 5);
	ck_assert_uint_eq(out.w[0].c[1][PM_TC_F_MISSES], 1);
	pm_tc_counts_free(&out);
	pm_tc_free(t);
}
END_TEST

START_TEST(test_icache_geometry)
{
	struct pm_tc *t = pm_tc_new(1, true);

	config(t, 32, 8, 48);	/* a line of 48 bytes */
	ck_assert_str_eq(pm_tc_icache_off(t), "bad-geometry 32 8 48");
	pm_tc_free(t);
	t = pm_tc_new(1, true);
	config(t, 3, 2, 64);	/* 3 KiB in 2 ways of 64: 24 sets, no power of 2, fine */
	ck_assert_ptr_null(pm_tc_icache_off(t));
	pm_tc_free(t);
	t = pm_tc_new(1, false);	/* not asked for: the guest's geometry changes nothing */
	config(t, 32, 8, 64);
	ck_assert_str_eq(pm_tc_icache_off(t), "not-requested");
	pm_tc_free(t);
	ck_assert_str_eq(pm_tc_icache_why("no-geometry"),
			 "the guest CPU reported no L1 instruction cache geometry");
}
END_TEST

START_TEST(test_counts_malformed)
{
	static const char *const bad[] = {
		"something else\nend\n",
		PM_TC_FORMAT "\nplugin 1\n",				/* cut short */
		PM_TC_FORMAT "\nw 1 2 3\nend\n",			/* too few counts */
		PM_TC_FORMAT "\np 1 0xffff\nend\n",
		PM_TC_FORMAT "\nw -1 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0 0\nend\n",
		PM_TC_FORMAT "\nicache 0 8 64\nend\n",
	};
	struct pm_tc_counts c;
	struct pm_err e;
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(bad); i++)
		ck_assert_msg(pm_tc_counts_parse(&c, bad[i], strlen(bad[i]), "f", &e) == -EBADMSG,
			      "accepted: %s", bad[i]);
	ck_assert_ptr_nonnull(strstr(e.msg, "f:2: malformed line"));
	/* a line a later plugin may add is passed over */
	ck_assert_int_eq(pm_tc_counts_parse(&c, PM_TC_FORMAT "\nnew 1 2\nend\n",
					    strlen(PM_TC_FORMAT "\nnew 1 2\nend\n"), "f", &e), 0);
	pm_tc_counts_free(&c);
}
END_TEST

/* ---- into a result ---- */

/* A boot's result: null with ntrials trials of 100 iterations, marked 0. */
static void boot_result(struct pm_result *r, size_t ntrials, const char *stext)
{
	struct pm_bench_result *b;
	double t[8] = { 100, 101, 102, 99, 100, 100, 101, 100 };
	struct pm_round round = { .run = 0, .reference_ns = NAN, .busy = NAN, .waited = NAN,
				  .others = NAN, .started_s = NAN };

	pm_result_init(r);
	r->source = pm_xstrdup("run");
	r->options = json_pack("{s:{s:s,s:{s:i,s:i},s:s?}}", "markers", "base", "0x3e5e00000000",
			       "ids", "null", 0, "stat", 2, "kernel_stext", stext);
	r->sysinfo = json_object();
	b = pm_result_add(r);
	b->name = pm_xstrdup("null");
	b->unit = pm_xstrdup("ns");
	b->status = PM_BENCH_OK;
	b->iterations = 100;
	b->ops_per_iter = 1;
	pm_bench_result_add_round(b, t, ntrials, &round);
}

/* Two windows of id 0: 2 trials x 100 operations; kernel blocks in two
 * functions, KASLR having moved the kernel by 2 MiB. */
static void two_windows(struct pm_tc_counts *c)
{
	struct pm_tc *t = pm_tc_new(1, false);
	struct pm_tc_code x = code_at(0x10, 30), y = code_at(0x80, 4), z = code_at(0x90, 4);
	uint64_t slide = 0x200000;
	struct pm_tc_block *ka, *kb, *u, *m;
	int i;

	ka = pm_tc_block(t, KBASE + slide + 0x10, &x, 10, true, PM_TC_BR_CALL, false);
	kb = pm_tc_block(t, KBASE + slide + 0x180, &y, 2, true, PM_TC_BR_RET, false);
	m = pm_tc_block(t, 0xffffffffc0001000ull, &z, 4, true, PM_TC_BR_RET, false);
	u = pm_tc_block(t, 0x401000, &y, 4, false, PM_TC_BR_FAR, false);
	/* the harness alone (clock reads): in every trial's window too; one
	 * of its windows with an interrupt (more), which must not count */
	for (i = 0; i < 3; i++) {
		pm_tc_mark(t, START(PM_MARKER_HARNESS));
		ka->execs = i == 1 ? 40 : 2;
		u->execs = i == 1 ? 500 : 7;
		pm_tc_mark(t, END(PM_MARKER_HARNESS));
	}
	for (i = 0; i < 2; i++) {
		pm_tc_mark(t, START(0));
		ka->execs = 100 + 2;	/* 10 instructions an op */
		kb->execs = 100 + i * 10;	/* 2 an op, 2.2 in the second trial */
		m->execs = 25;		/* a module's: 1 an op, no symbol */
		u->execs = 100 + 7;
		pm_tc_mark(t, END(0));
	}
	parse(t, c);
	pm_tc_free(t);
}

static void kallsyms_ksyms(struct pm_ab_ksyms *k)
{
	static const char text[] = "ffffffff81000000 T func_a\nffffffff81000100 T func_b\n"
				   "ffffffff81000200 T func_c\n";
	struct pm_err e;

	memset(k, 0, sizeof(*k));
	ck_assert_int_eq(pm_symtab_from_kallsyms(&k->t, text, &e), 0);
	k->stext = KBASE;
	k->source = pm_xstrdup("test");
}

static double num(const json_t *j, const char *path)
{
	char *p = pm_xstrdup(path), *save = NULL, *tok;
	const json_t *cur = j;

	for (tok = strtok_r(p, ".", &save); tok && cur; tok = strtok_r(NULL, ".", &save))
		cur = isdigit((unsigned char)tok[0]) ? json_array_get(cur, (size_t)atoi(tok)) :
		      json_object_get(cur, tok);
	free(p);
	ck_assert_msg(json_is_number(cur), "%s: not a number", path);
	return json_number_value(cur);
}

START_TEST(test_attach)
{
	struct pm_tc_counts c;
	struct pm_ab_ksyms k;
	struct pm_result r;
	const json_t *em, *syms;
	char why[256] = "";

	two_windows(&c);
	kallsyms_ksyms(&k);
	boot_result(&r, 2, "0xffffffff81200000");
	ck_assert_uint_eq(pm_ab_emulated_attach(&r, &c, &k, why, sizeof(why)), 1);
	em = r.bench[0].emulated;
	ck_assert_ptr_nonnull(em);
	ck_assert_double_eq_tol(num(em, "runs.0.instructions.kernel"), 10 + 2.1 + 1, 1e-9);
	ck_assert_double_eq_tol(num(em, "runs.0.instructions.user"), 4, 1e-9);
	ck_assert_double_eq_tol(num(em, "runs.0.branches.kernel.call"), 1, 1e-9);
	ck_assert_double_eq_tol(num(em, "runs.0.branches.kernel.return"), 1.05 + 0.25, 1e-9);
	ck_assert_double_eq_tol(num(em, "runs.0.branches.user.far"), 1, 1e-9);
	ck_assert_double_eq_tol(num(em, "runs.0.ops"), 200, 1e-9);
	ck_assert_int_eq((int)num(em, "runs.0.windows"), 2);
	ck_assert(num(em, "runs.0.window_sd.kernel") > 0);
	ck_assert_double_eq_tol(num(em, "runs.0.window_sd.user"), 0, 1e-12);
	/* the profile: named through the slide; the module's block has no name */
	syms = json_object_get(json_object_get(em, "kernel_profile"), "symbols");
	ck_assert_uint_eq(json_array_size(syms), 2);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(syms, 0), "name")),
			 "func_a");
	ck_assert_double_eq_tol(num(em, "kernel_profile.symbols.0.instructions"), 10, 1e-9);
	ck_assert_str_eq(json_string_value(json_object_get(json_array_get(syms, 1), "name")),
			 "func_b");
	ck_assert_double_eq_tol(num(em, "kernel_profile.symbols.1.instructions"), 2.1, 1e-9);
	ck_assert_double_eq_tol(num(em, "kernel_profile.unknown"), 1, 1e-9);
	ck_assert_ptr_null(json_object_get(em, "icache"));
	/* taken out of each window: the harness, per op of a window */
	ck_assert_double_eq_tol(num(em, "runs.0.harness.user"), 28.0 / 100, 1e-9);
	ck_assert_double_eq_tol(num(em, "runs.0.harness.kernel"), 20.0 / 100, 1e-9);
	pm_result_free(&r);

	/* three trials for two windows: no counts, and why */
	boot_result(&r, 3, "0xffffffff81200000");
	ck_assert_uint_eq(pm_ab_emulated_attach(&r, &c, &k, why, sizeof(why)), 0);
	ck_assert_str_eq(json_string_value(json_object_get(r.bench[0].emulated, "unavailable")),
			 "2 marked windows for 3 trials");
	ck_assert_str_eq(why, "no benchmark's marked windows matched its trials");
	pm_result_free(&r);

	/* a guest that hid its kernel's addresses: counts, no profile */
	boot_result(&r, 2, NULL);
	json_object_del(json_object_get(r.options, "markers"), "kernel_stext");
	ck_assert_uint_eq(pm_ab_emulated_attach(&r, &c, &k, why, sizeof(why)), 1);
	ck_assert_ptr_nonnull(json_object_get(json_object_get(r.bench[0].emulated,
							      "kernel_profile"), "unavailable"));
	pm_result_free(&r);

	/* a result without markers */
	boot_result(&r, 2, "0x1");
	json_object_del(r.options, "markers");
	ck_assert_uint_eq(pm_ab_emulated_attach(&r, &c, &k, why, sizeof(why)), 0);
	ck_assert_str_eq(why, "the guest's pmbench placed no trial markers");
	pm_result_free(&r);
	pm_ab_ksyms_free(&k);
	pm_tc_counts_free(&c);
}
END_TEST

/*
 * The harness's windows run one iteration (PM_MARKER_HARNESS_ITERS): the
 * call into the loop is in them as in every trial, and what a trial holds
 * beyond them is whole operations, whatever the trial's length.  Here a
 * trial of 100 operations of 4 user instructions, 7 blocks of clock reads
 * and 3 of the call into the loop: exactly 4 an op; with a harness of no
 * iterations (files before harness_iterations) the 12 instructions of
 * the call stayed in, spread over the trial's operations.
 */
START_TEST(test_attach_harness_iteration)
{
	struct pm_tc *t = pm_tc_new(1, false);
	struct pm_tc_code y = code_at(0x80, 4);
	struct pm_tc_block *u = pm_tc_block(t, 0x401000, &y, 4, false, PM_TC_BR_FAR, false);
	struct pm_tc_counts c;
	struct pm_ab_ksyms k;
	struct pm_result r;
	char why[256] = "";
	int i;

	for (i = 0; i < 3; i++) {
		pm_tc_mark(t, START(PM_MARKER_HARNESS));
		u->execs = 7 + 3 + 1;
		pm_tc_mark(t, END(PM_MARKER_HARNESS));
	}
	for (i = 0; i < 2; i++) {
		pm_tc_mark(t, START(0));
		u->execs = 7 + 3 + 100;
		pm_tc_mark(t, END(0));
	}
	parse(t, &c);
	pm_tc_free(t);
	kallsyms_ksyms(&k);
	boot_result(&r, 2, "0xffffffff81200000");
	json_object_set_new(json_object_get(r.options, "markers"), "harness_iterations",
			    json_integer(PM_MARKER_HARNESS_ITERS));
	ck_assert_uint_eq(pm_ab_emulated_attach(&r, &c, &k, why, sizeof(why)), 1);
	ck_assert_double_eq_tol(num(r.bench[0].emulated, "runs.0.instructions.user"), 4, 1e-12);
	ck_assert_double_eq_tol(num(r.bench[0].emulated, "runs.0.ops"), 2 * 99, 1e-9);
	pm_result_free(&r);
	boot_result(&r, 2, "0xffffffff81200000");
	ck_assert_uint_eq(pm_ab_emulated_attach(&r, &c, &k, why, sizeof(why)), 1);
	ck_assert_double_eq_tol(num(r.bench[0].emulated, "runs.0.instructions.user"),
				(110 - 11) * 4 / 100.0, 1e-12);
	pm_result_free(&r);
	/* trials of one iteration: the harness ran none (it would be a whole
	 * trial), and a trial less it is its one operation */
	boot_result(&r, 2, "0xffffffff81200000");
	r.bench[0].iterations = 1;
	json_object_set_new(json_object_get(r.options, "markers"), "harness_iterations",
			    json_integer(1));
	ck_assert_uint_eq(pm_ab_emulated_attach(&r, &c, &k, why, sizeof(why)), 1);
	ck_assert_double_eq_tol(num(r.bench[0].emulated, "runs.0.instructions.user"),
				(110 - 11) * 4 / 1.0, 1e-9);
	pm_result_free(&r);
	pm_ab_ksyms_free(&k);
	pm_tc_counts_free(&c);
}
END_TEST

/* Two boots merged: two runs, the profile weighted by operations; the
 * file written and read back keeps it. */
START_TEST(test_merge_roundtrip)
{
	struct pm_tc_counts c;
	struct pm_ab_ksyms k;
	struct pm_result r[2], m, back;
	struct pm_err e;
	const json_t *em;
	char why[256], *text;
	json_t *j;
	int i;

	two_windows(&c);
	kallsyms_ksyms(&k);
	for (i = 0; i < 2; i++) {
		boot_result(&r[i], 2, "0xffffffff81200000");
		ck_assert_uint_eq(pm_ab_emulated_attach(&r[i], &c, &k, why, sizeof(why)), 1);
	}
	/* the second boot ran twice the operations and 4 of func_c's a op */
	json_object_set_new(json_object_get(r[1].bench[0].emulated, "kernel_profile"), "ops",
			    json_real(400));
	json_array_append_new(json_object_get(json_object_get(r[1].bench[0].emulated,
							      "kernel_profile"), "symbols"),
			      json_pack("{s:s,s:b,s:f}", "name", "func_c", "kernel", 1,
					"instructions", 4.0));
	ck_assert_int_eq(pm_result_merge(&m, r, 2, &e), 0);
	em = m.bench[0].emulated;
	ck_assert_uint_eq(json_array_size(json_object_get(em, "runs")), 2);
	ck_assert_int_eq((int)num(em, "runs.1.run"), 1);
	ck_assert_double_eq_tol(num(em, "kernel_profile.ops"), 600, 1e-9);
	j = json_object_get(em, "kernel_profile");
	for (size_t x = 0; x < json_array_size(json_object_get(j, "symbols")); x++) {
		json_t *s = json_array_get(json_object_get(j, "symbols"), x);

		if (!strcmp(json_string_value(json_object_get(s, "name")), "func_c"))
			ck_assert_double_eq_tol(num(s, "instructions"), 4.0 * 2 / 3, 1e-9);
		if (!strcmp(json_string_value(json_object_get(s, "name")), "func_a"))
			ck_assert_double_eq_tol(num(s, "instructions"), 10, 1e-9);
	}
	/* written and read back, as a result file */
	j = pm_result_to_json(&m);
	text = json_dumps(j, 0);
	ck_assert_int_eq(pm_result_parse(&back, text, strlen(text), "m.json", &e), 0);
	ck_assert(json_equal(back.bench[0].emulated, m.bench[0].emulated));
	pm_result_free(&back);
	/* a reader refuses counts of the wrong type */
	json_object_set_new(json_object_get(json_array_get(json_object_get(
		json_object_get(json_array_get(json_object_get(j, "benchmarks"), 0), "emulated"),
		"runs"), 0), "instructions"), "kernel", json_string("many"));
	free(text);
	text = json_dumps(j, 0);
	ck_assert_int_eq(pm_result_parse(&back, text, strlen(text), "m.json", &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "emulated.runs[0].instructions.kernel"));
	free(text);
	json_decref(j);
	pm_result_free(&m);
	for (i = 0; i < 2; i++)
		pm_result_free(&r[i]);
	pm_ab_ksyms_free(&k);
	pm_tc_counts_free(&c);
}
END_TEST

/* ---- explain: the counts as evidence ---- */

/* One boot's result of null for explain: trials of ns each, the kernel
 * path kins (do_syscall_64 and, when audit > 0, audit's functions). */
/* The function the NEW side adds (audit's, unless a test names another). */
static const char *added_sym = "__audit_syscall_entry", *added_file = "kernel/auditsc.c";

static void counted_boot(struct pm_result *r, double ns, double kins, double audit)
{
	double t[6];
	struct pm_round round = { .run = 0, .reference_ns = 1, .busy = NAN, .waited = NAN,
				  .others = NAN, .started_s = NAN };
	struct pm_bench_result *b;
	json_t *syms;
	int i;

	for (i = 0; i < 6; i++)
		t[i] = ns * (1 + 0.001 * i);
	pm_result_init(r);
	r->source = pm_xstrdup("run");
	r->options = json_object();
	r->sysinfo = json_object();
	b = pm_result_add(r);
	b->name = pm_xstrdup("null");
	b->unit = pm_xstrdup("ns");
	b->status = PM_BENCH_OK;
	b->iterations = 1000;
	b->ops_per_iter = 1;
	pm_bench_result_add_round(b, t, 3, &round);
	pm_bench_result_add_round(b, t + 3, 3, &round);
	pm_summarize(b->trials, b->ntrials, PM_LEVEL, &b->stats);
	syms = json_pack("[{s:s,s:b,s:f}]", "name", "do_syscall_64", "kernel", 1,
			 "instructions", kins - audit);
	if (audit > 0)
		json_array_append_new(syms, json_pack("{s:s,s:b,s:f}", "name", added_sym,
						      "kernel", 1, "instructions", audit));
	b->emulated = json_pack("{s:[{s:i,s:i,s:f,s:{s:f,s:f},s:{s:f,s:f}}],s:{s:f,s:o,s:{s:s,s:s}}}",
				"runs", "run", 0, "windows", 6, "ops", 6000.0, "instructions",
				"user", 17.0, "kernel", kins, "rep_iterations", "user", 0.0,
				"kernel", 0.0, "kernel_profile", "ops", 6000.0, "symbols", syms,
				"sources", "do_syscall_64", "arch/x86/entry/common.c",
				added_sym, added_file);
}

/* np pairs; OLD's kernel path a, NEW's b (+ audit's), times ta, tb. */
static void explain_pairs(struct pm_explanation *x, struct pm_side *o, struct pm_side *n,
			  int np, double a, double b, double audit, double ta, double tb)
{
	/* boots a few parts in 10000 apart, as two boots' counts are */
	static const double wobble[3] = { 1.0, 1.0002, 0.9999 };
	struct pm_explain_opts opts;
	struct pm_err e;
	int i;

	memset(o, 0, sizeof(*o));
	memset(n, 0, sizeof(*n));
	o->name = pm_xstrdup("A");
	n->name = pm_xstrdup("B");
	o->runs = pm_xcalloc(3, sizeof(*o->runs));
	n->runs = pm_xcalloc(3, sizeof(*n->runs));
	for (i = 0; i < np; i++) {
		counted_boot(&o->runs[i], ta * wobble[i], a * wobble[i], 0);
		counted_boot(&n->runs[i], tb * wobble[2 - i], b * wobble[2 - i] + audit, audit);
	}
	o->nruns = n->nruns = (size_t)np;
	pm_explain_opts_default(&opts);
	opts.sequential = true;
	opts.spread = NULL;
	ck_assert_int_eq(pm_explain(x, o, n, &opts, &e), 0);
	ck_assert_uint_eq(x->ncmp, 1);
}

static char *report(const struct pm_explanation *x)
{
	char *text = NULL;
	size_t len;
	FILE *f = open_memstream(&text, &len);

	pm_report_text(x, f, false, true);
	fclose(f);
	return text;
}

START_TEST(test_explain_longer_path)
{
	struct pm_explanation x;
	struct pm_side o, n;
	const struct pm_emu_cmp *e;
	char *text;
	size_t i;
	bool cause = false;

	explain_pairs(&x, &o, &n, 3, 300, 300, 80, 500, 560);
	e = x.cmp[0].emu;
	ck_assert_ptr_nonnull(e);
	ck_assert_int_eq(e->verdict, PM_REGRESSION);
	ck_assert_uint_eq(e->pairs, 3);
	ck_assert_uint_eq(e->decided_at, 3);	/* the fewest the rule allows at 99% */
	ck_assert_double_eq_tol(e->kernel.new - e->kernel.old, 80, 1);
	ck_assert_uint_ge(e->nmechs, 1);
	ck_assert_str_eq(e->mechs[0].key, "audit");
	ck_assert_str_eq(e->mechs[0].top, "__audit_syscall_entry");
	for (i = 0; i < x.cmp[0].ncauses; i++)
		cause |= !strcmp(x.cmp[0].causes[i].rule, "code-path") &&
			 strstr(x.cmp[0].causes[i].sentence, "the audit subsystem");
	ck_assert_msg(cause, "no longer-path cause naming the audit subsystem");
	text = report(&x);
	ck_assert_ptr_nonnull(strstr(text, "path changed: null +"));
	ck_assert_ptr_nonnull(strstr(text, "kernel instructions/op in the audit subsystem: "
				     "0.0 -> 80.0 (+80.0, none in OLD"));
	ck_assert_ptr_nonnull(strstr(text, "not hardware counts"));
	free(text);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

/*
 * Two builds that differ in the preemption model: NEW runs
 * __rcu_read_lock, which a kernel has only with CONFIG_PREEMPT_RCU (the
 * map's linux.guards), and its config has it where OLD's has not.  No
 * mechanism's switch ties to the move ([generic] code): the longer path
 * names the option.
 */
START_TEST(test_explain_path_guarded_by_option)
{
	struct pm_explanation x;
	struct pm_side o, n;
	const struct pm_cause *k = NULL;
	size_t i;

	added_sym = "__rcu_read_lock";
	added_file = "kernel/rcu/tree_plugin.h";
	explain_pairs(&x, &o, &n, 3, 300, 300, 20, 500, 520);
	added_sym = "__audit_syscall_entry";
	added_file = "kernel/auditsc.c";
	pm_explanation_free(&x);
	for (i = 0; i < 3; i++) {
		json_object_set_new(o.runs[i].sysinfo, "kernel",
				    json_pack("{s:{s:s}}", "config", "CONFIG_PREEMPT_NONE", "y"));
		json_object_set_new(n.runs[i].sysinfo, "kernel",
				    json_pack("{s:{s:s,s:s}}", "config", "CONFIG_PREEMPT", "y",
					      "CONFIG_PREEMPT_RCU", "y"));
	}
	{
		struct pm_explain_opts opts;
		struct pm_err e;

		pm_explain_opts_default(&opts);
		opts.sequential = true;
		opts.spread = NULL;
		ck_assert_int_eq(pm_explain(&x, &o, &n, &opts, &e), 0);
	}
	ck_assert_int_eq(x.cmp[0].emu->verdict, PM_REGRESSION);
	for (i = 0; i < x.cmp[0].ncauses; i++)
		if (!strcmp(x.cmp[0].causes[i].rule, "code-path"))
			k = &x.cmp[0].causes[i];
	ck_assert_ptr_nonnull(k);
	ck_assert_ptr_nonnull(k->switched_by);
	ck_assert_msg(strstr(k->switched_by, "CONFIG_PREEMPT_RCU"), "%s", k->switched_by);
	ck_assert_msg(strstr(k->sentence, "only with CONFIG_PREEMPT_RCU, which only NEW has"),
		      "%s", k->sentence);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
}
END_TEST

START_TEST(test_explain_same_path)
{
	struct pm_explanation x;
	struct pm_side o, n;
	char *text;
	size_t i;

	explain_pairs(&x, &o, &n, 3, 300, 300.3, 0, 500, 560);
	ck_assert_int_eq(x.cmp[0].emu->verdict, PM_NO_CHANGE);
	ck_assert_uint_eq(x.cmp[0].emu->decided_at, 3);
	for (i = 0; i < x.cmp[0].ncauses; i++)
		ck_assert_str_ne(x.cmp[0].causes[i].rule, "code-path");
	text = report(&x);
	if (x.cmp[0].verdict == PM_REGRESSION) {
		ck_assert_ptr_nonnull(strstr(text, "the path did not get longer: the time "
					     "changed with the same instructions"));
		ck_assert_ptr_nonnull(strstr(text, "same path, only the time changed: null"));
	}
	free(text);
	pm_explanation_free(&x);
	pm_side_free(&o);
	pm_side_free(&n);
	/* two pairs: the rule cannot decide yet, and says when it can; the
	 * audit code is named all the same */
	explain_pairs(&x, &o, &n, 2, 300, 300, 80, 500, 560);
	ck_assert_int_eq(x.cmp[0].emu->verdict, PM_INCONCLUSIVE);
	ck_assert_uint_eq(x.cmp[0].emu->pairs, 2);
	text = report(&x);
	ck_assert_ptr_nonnull(strstr(text, "path undecided: null +"));
	ck_assert_str_eq(x.cmp[0].emu->mechs[0].key, "audit");
	free(text);
	pm_side_free(&o);
	pm_side_free(&n);
	pm_explanation_free(&x);
}
END_TEST

static Suite *tcg_suite(void)
{
	Suite *s = suite_create("tcg");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, test_classify);
	tcase_add_test(tc, test_blocks);
	tcase_add_test(tc, test_marker_recognised);
	tcase_add_test(tc, test_windows);
	tcase_add_test(tc, test_icache_lru);
	tcase_add_test(tc, test_icache_geometry);
	tcase_add_test(tc, test_counts_malformed);
	tcase_add_test(tc, test_attach);
	tcase_add_test(tc, test_attach_harness_iteration);
	tcase_add_test(tc, test_merge_roundtrip);
	tcase_add_test(tc, test_explain_longer_path);
	tcase_add_test(tc, test_explain_path_guarded_by_option);
	tcase_add_test(tc, test_explain_same_path);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(tcg_suite());
	int failed;

	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
