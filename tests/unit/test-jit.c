/*
 * Kernel code made at run time: PERF_RECORD_KSYMBOL/BPF_EVENT records,
 * the ranges they register, samples named by them, seccomp filters
 * named by their call path, and (as root) a real BPF program loaded and
 * run while sampling.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <fnmatch.h>
#include <linux/bpf.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "sample/profile.h"
#include "sample/sampler.h"
#include "symbols/symbols.h"

#include "../helpers/seccomp-filter.h"

#define TAG "0123456789abcdef"

/* ---- crafted records ---- */

/* A record with the sample_id_all trailer (pid/tid, time) into buf. */
static size_t record(uint8_t *buf, uint32_t type, const void *body, size_t len)
{
	struct perf_event_header h = { .type = type, .misc = 0 };
	uint64_t trailer[2] = { (uint64_t)4242 << 32 | 4242, 777 };

	h.size = (uint16_t)(sizeof(h) + len + sizeof(trailer));
	memcpy(buf, &h, sizeof(h));
	memcpy(buf + sizeof(h), body, len);
	memcpy(buf + sizeof(h) + len, trailer, sizeof(trailer));
	return h.size;
}

/* KSYMBOL body: addr, len, type, flags, name padded to 8 bytes. */
static size_t ksymbol_body(uint8_t *b, uint64_t addr, uint32_t len, uint16_t type,
			   uint16_t flags, const char *name)
{
	size_t n = strlen(name) + 1, padded = (n + 7) & ~(size_t)7;

	memcpy(b, &addr, 8);
	memcpy(b + 8, &len, 4);
	memcpy(b + 12, &type, 2);
	memcpy(b + 14, &flags, 2);
	memset(b + 16, 0, padded);
	memcpy(b + 16, name, n);
	return 16 + padded;
}

START_TEST(ksymbol_parse)
{
	uint8_t body[128], buf[256];
	struct pm_record r;
	size_t n = ksymbol_body(body, 0xffffffffc0012340ull, 0x1a8, PERF_RECORD_KSYMBOL_TYPE_BPF,
				0, "bpf_prog_" TAG "_sd_fw_egress");

	record(buf, PERF_RECORD_KSYMBOL, body, n);
	ck_assert(pm_sampler_parse(NULL, buf, &r));
	ck_assert_int_eq(r.type, PM_REC_KSYMBOL);
	ck_assert_uint_eq(r.u.ksymbol.addr, 0xffffffffc0012340ull);
	ck_assert_uint_eq(r.u.ksymbol.len, 0x1a8);
	ck_assert_uint_eq(r.u.ksymbol.type, PM_KSYM_BPF);
	ck_assert(!r.u.ksymbol.unregister);
	ck_assert_str_eq(r.u.ksymbol.name, "bpf_prog_" TAG "_sd_fw_egress");
	ck_assert_uint_eq(r.pid, 4242);
	ck_assert_uint_eq(r.time, 777);

	n = ksymbol_body(body, 0xffffffffc0001000ull, 64, PERF_RECORD_KSYMBOL_TYPE_OOL,
			 PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER, "kprobe_insn_page");
	record(buf, PERF_RECORD_KSYMBOL, body, n);
	ck_assert(pm_sampler_parse(NULL, buf, &r));
	ck_assert_uint_eq(r.u.ksymbol.type, PM_KSYM_OOL);
	ck_assert(r.u.ksymbol.unregister);
	ck_assert_str_eq(r.u.ksymbol.name, "kprobe_insn_page");
}
END_TEST

/* A name that runs into the trailer, or a record cut short, is refused. */
START_TEST(ksymbol_malformed)
{
	uint8_t body[64], buf[256];
	struct pm_record r;
	struct perf_event_header h;
	size_t n = ksymbol_body(body, 0xffffffffc0000000ull, 16, 1, 0, "bpf_prog_x");

	memset(body + 16, 'x', n - 16);	/* no NUL before the trailer */
	record(buf, PERF_RECORD_KSYMBOL, body, n);
	memset(buf + sizeof(h) + n, 'y', 16);
	ck_assert(!pm_sampler_parse(NULL, buf, &r));
	record(buf, PERF_RECORD_KSYMBOL, body, 8);	/* half the fixed part */
	ck_assert(!pm_sampler_parse(NULL, buf, &r));
	record(buf, PERF_RECORD_BPF_EVENT, body, 8);
	ck_assert(!pm_sampler_parse(NULL, buf, &r));
	/* a sample needs the sampler's layout */
	record(buf, PERF_RECORD_SAMPLE, body, 32);
	ck_assert(!pm_sampler_parse(NULL, buf, &r));
}
END_TEST

START_TEST(bpf_event_parse)
{
	uint8_t body[16], buf[64];
	uint16_t type = PERF_BPF_EVENT_PROG_LOAD, flags = 0;
	uint32_t id = 99;
	const uint8_t tag[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };
	struct pm_record r;

	memcpy(body, &type, 2);
	memcpy(body + 2, &flags, 2);
	memcpy(body + 4, &id, 4);
	memcpy(body + 8, tag, 8);
	record(buf, PERF_RECORD_BPF_EVENT, body, sizeof(body));
	ck_assert(pm_sampler_parse(NULL, buf, &r));
	ck_assert_int_eq(r.type, PM_REC_BPF_EVENT);
	ck_assert_uint_eq(r.u.bpf.type, 1);
	ck_assert_uint_eq(r.u.bpf.id, 99);
	ck_assert_mem_eq(r.u.bpf.tag, tag, 8);
}
END_TEST

/* ---- ranges ---- */

START_TEST(jit_ranges)
{
	struct pm_jit_syms j = { 0 };
	const uint8_t tag[8] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef };
	struct pm_jit_sym *x;

	pm_jit_add(&j, 0x3000, 0x100, PM_JIT_BPF, "bpf_prog_" TAG "_b");
	pm_jit_add(&j, 0x1000, 0x80, PM_JIT_BPF, "bpf_prog_" TAG "_a");
	pm_jit_add(&j, 0x2000, 0x10, PM_JIT_OOL, "kprobe_insn_page");
	ck_assert_uint_eq(j.n, 3);
	ck_assert_ptr_null(pm_jit_lookup(&j, 0xfff));
	ck_assert_str_eq(pm_jit_lookup(&j, 0x1000)->sym.name, "bpf_prog_" TAG "_a");
	ck_assert_str_eq(pm_jit_lookup(&j, 0x107f)->sym.name, "bpf_prog_" TAG "_a");
	ck_assert_ptr_null(pm_jit_lookup(&j, 0x1080));	/* exact end */
	ck_assert_str_eq(pm_jit_object(pm_jit_lookup(&j, 0x2004)), "[ool]");
	ck_assert_str_eq(pm_jit_object(pm_jit_lookup(&j, 0x30ff)), "[bpf]");
	ck_assert(pm_jit_lookup(&j, 0x3000)->sym.size_exact);
	ck_assert_uint_eq(pm_jit_lookup(&j, 0x3000)->sym.size, 0x100);

	/* the BPF_EVENT that follows gives the program's id to its ranges */
	pm_jit_set_prog(&j, tag, 7);
	ck_assert_uint_eq(pm_jit_lookup(&j, 0x1000)->prog_id, 7);
	ck_assert_uint_eq(pm_jit_lookup(&j, 0x3000)->prog_id, 7);
	ck_assert_uint_eq(pm_jit_lookup(&j, 0x2000)->prog_id, 0);

	/* a new program in the space of unloaded ones replaces every range
	 * it overlaps, also partly */
	x = pm_jit_add(&j, 0x1040, 0x2000, PM_JIT_BPF, "bpf_prog_" TAG "_new");
	ck_assert_uint_eq(x->prog_id, 0);
	ck_assert_uint_eq(j.n, 1);
	ck_assert_str_eq(pm_jit_lookup(&j, 0x2004)->sym.name, "bpf_prog_" TAG "_new");
	ck_assert_str_eq(pm_jit_lookup(&j, 0x303f)->sym.name, "bpf_prog_" TAG "_new");
	ck_assert_ptr_null(pm_jit_lookup(&j, 0x1000));
	ck_assert_ptr_null(pm_jit_lookup(&j, 0x3040));
	/* one that only touches its end does not */
	pm_jit_add(&j, 0x3040, 0x10, PM_JIT_OOL, "ftrace_trampoline");
	ck_assert_uint_eq(j.n, 2);
	ck_assert_str_eq(pm_jit_lookup(&j, 0x303f)->sym.name, "bpf_prog_" TAG "_new");
	ck_assert_str_eq(pm_jit_lookup(&j, 0x3040)->sym.name, "ftrace_trampoline");
	pm_jit_remove(&j, 0x3040);

	/* unregistered: by start address only */
	pm_jit_remove(&j, 0x1041);
	ck_assert_uint_eq(j.n, 1);
	pm_jit_remove(&j, 0x1040);
	ck_assert_uint_eq(j.n, 0);
	ck_assert_ptr_null(pm_jit_lookup(&j, 0x1040));
	pm_jit_free(&j);
}
END_TEST

/*
 * kallsyms sizes a [bpf] symbol up to the next symbol; once its exact
 * range is known, the code past its end (a seccomp filter's JIT image
 * in the same page) is not charged to it.
 */
START_TEST(kallsyms_bpf_exact)
{
	static const char text[] =
		"ffffffff81000000 T _stext\n"
		"ffffffff81000100 T do_work\n"
		"ffffffff81001000 T _etext\n"
		"ffffffffc0010000 t bpf_prog_" TAG "_sd_devices\t[bpf]\n"
		"ffffffffc0010800 t bpf_prog_fedcba9876543210_sd_fw\t[bpf]\n";
	struct pm_kernel_syms k;
	const struct pm_sym *s;
	const char *mod;

	memset(&k, 0, sizeof(k));
	ck_assert_int_eq(pm_symtab_from_kallsyms(&k.core, text, NULL), 0);
	k.source = "/proc/kallsyms";
	s = pm_kernel_lookup(&k, 0xffffffffc0010400ull, &mod);
	ck_assert_str_eq(s->name, "bpf_prog_" TAG "_sd_devices");
	ck_assert_str_eq(mod, "[bpf]");
	ck_assert_ptr_null(pm_kernel_jit(&k, s));

	pm_jit_add(&k.jit, 0xffffffffc0010000ull, 0x200, PM_JIT_BPF,
		   "bpf_prog_" TAG "_sd_devices");
	s = pm_kernel_lookup(&k, 0xffffffffc00101ffull, &mod);
	ck_assert_str_eq(s->name, "bpf_prog_" TAG "_sd_devices");
	ck_assert_str_eq(mod, "[bpf]");
	ck_assert(s->size_exact);
	ck_assert_ptr_nonnull(pm_kernel_jit(&k, s));
	ck_assert_ptr_null(pm_kernel_lookup(&k, 0xffffffffc0010400ull, &mod));
	/* the next program, still only from kallsyms */
	s = pm_kernel_lookup(&k, 0xffffffffc0010810ull, &mod);
	ck_assert_str_eq(s->name, "bpf_prog_fedcba9876543210_sd_fw");
	ck_assert_str_eq(pm_kernel_lookup(&k, 0xffffffff81000180ull, &mod)->name, "do_work");
	ck_assert_ptr_null(mod);
	pm_kernel_syms_free(&k);
}
END_TEST

/* ---- samples named through a profile ---- */

struct fixture {
	struct pm_profiler *p;
	struct pm_profile *pr;
	struct pm_kernel_syms k;	/* our own copy, to pick addresses */
};

static void begin(struct fixture *f)
{
	struct pm_profile_opts po = { .freq = 1000 };
	struct pm_err e;
	pid_t self = 0;

	ck_assert_msg(pm_profiler_new(&f->p, &po, &e) == 0, "%s", e.msg);
	ck_assert_msg(pm_profile_begin(&f->pr, f->p, &self, 1, false, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(pm_kernel_syms_load(&f->k, NULL, &e), 0);
	pm_kernel_jit_refresh(&f->k);
}

static json_t *end(struct fixture *f)
{
	json_t *h = pm_profile_end(f->pr, 100, 1000, 100 * 1000);

	pm_profiler_free(f->p);
	pm_kernel_syms_free(&f->k);
	return h;
}

static void feed(struct fixture *f, const void *rec)
{
	struct pm_record r;

	ck_assert(pm_sampler_parse(NULL, rec, &r));
	pm_profile_record(f->pr, &r);
}

/* A kernel sample of ours: leaf ip, then its callers (return addresses). */
static void sample(struct fixture *f, const uint64_t *frames, size_t n)
{
	uint64_t chain[8] = { PERF_CONTEXT_KERNEL };
	struct pm_record r;

	memset(&r, 0, sizeof(r));
	r.type = PM_REC_SAMPLE;
	r.pid = r.tid = (uint32_t)getpid();
	r.u.sample.ip = frames[0];
	r.u.sample.period = 1;
	r.u.sample.kernel = true;
	memcpy(chain + 1, frames, n * sizeof(*frames));
	r.u.sample.chain = chain;
	r.u.sample.nchain = n + 1;
	pm_profile_record(f->pr, &r);
}

static const json_t *symbol(const json_t *h, const char *name)
{
	const json_t *x;
	size_t i;

	json_array_foreach(json_object_get(h, "symbols"), i, x)
		if (!fnmatch(name, json_string_value(json_object_get(x, "name")), 0))
			return x;
	return NULL;
}

static json_int_t samples_of(const json_t *h, const char *name)
{
	const json_t *x = symbol(h, name);

	return x ? json_integer_value(json_object_get(x, "samples")) : 0;
}

/* An address in the JIT area that no symbol or range covers. */
static uint64_t free_jit_address(const struct pm_kernel_syms *k)
{
	uint64_t a;

	for (a = 0xffffffffc0000000ull + 0x345; a < 0xfffffffff0000000ull; a += 0x100000)
		if (!pm_kernel_lookup(k, a, NULL))
			return a;
	ck_abort_msg("no free address in the module area");
	return 0;
}

START_TEST(ksymbol_names_samples)
{
	struct fixture f;
	uint8_t body[128], buf[256];
	uint64_t a;
	const json_t *x;
	json_t *h;

	begin(&f);
	a = free_jit_address(&f.k);
	record(buf, PERF_RECORD_KSYMBOL, body, ksymbol_body(body, a, 0x40,
	       PERF_RECORD_KSYMBOL_TYPE_BPF, 0, "bpf_prog_" TAG "_pm_crafted"));
	feed(&f, buf);
	sample(&f, (uint64_t[]){ a + 0x3f }, 1);
	sample(&f, (uint64_t[]){ a + 0x40 }, 1);	/* past its end */
	record(buf, PERF_RECORD_KSYMBOL, body, ksymbol_body(body, a, 0x40,
	       PERF_RECORD_KSYMBOL_TYPE_BPF, PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER,
	       "bpf_prog_" TAG "_pm_crafted"));
	feed(&f, buf);
	sample(&f, (uint64_t[]){ a + 0x10 }, 1);	/* unloaded */
	h = end(&f);
	x = symbol(h, "bpf_prog_" TAG "_pm_crafted");
	ck_assert_ptr_nonnull(x);
	ck_assert_str_eq(json_string_value(json_object_get(x, "object")), "[bpf]");
	ck_assert_int_eq(json_integer_value(json_object_get(x, "samples")), 1);
	ck_assert_int_eq(json_integer_value(json_object_get(x, "size")), 0x40);
	ck_assert(json_is_true(json_object_get(x, "size_exact")));
	ck_assert_int_eq(samples_of(h, "[[]unknown[]]"), 2);
	json_decref(h);
}
END_TEST

/* The seccomp path: __seccomp_filter's address, or 0 when hidden. */
static uint64_t seccomp_return(const struct pm_kernel_syms *k)
{
	const struct pm_sym *s = k->core ? pm_symtab_find(k->core, "__seccomp_filter") : NULL;

	return s ? s->addr + 0x20 : 0;
}

/*
 * Unnamed JIT code called from the seccomp path, in a process with
 * filters, is the seccomp filter; called from elsewhere it stays
 * unknown; with no caller, only in the JIT area.
 */
START_TEST(seccomp_named)
{
	struct fixture f;
	uint64_t a, caller, other;
	const struct pm_sym *s;
	const json_t *x;
	json_t *h;

	ck_assert_int_eq(pm_test_seccomp_install(2), 0);
	begin(&f);
	caller = seccomp_return(&f.k);
	s = f.k.core ? pm_symtab_find(f.k.core, "do_syscall_64") : NULL;
	if (!caller || !s) {
		/* hidden kernel addresses: nothing to name by */
		ck_assert_ptr_nonnull(f.k.unavailable);
		json_decref(end(&f));
		return;
	}
	other = s->addr + 0x20;
	a = free_jit_address(&f.k);
	sample(&f, (uint64_t[]){ a, caller }, 2);
	sample(&f, (uint64_t[]){ a + 8, caller }, 2);
	sample(&f, (uint64_t[]){ a, other }, 2);
#if defined(__x86_64__)
	sample(&f, (uint64_t[]){ a + 16 }, 1);	/* the unwinder gave up in it */
	sample(&f, (uint64_t[]){ 0xfffffe0000001000ull }, 1);	/* not the JIT area */
#endif
	h = end(&f);
	x = symbol(h, "seccomp_filter (classic BPF)");
	ck_assert_ptr_nonnull(x);
	ck_assert_str_eq(json_string_value(json_object_get(x, "object")), "[seccomp]");
	ck_assert(json_is_true(json_object_get(x, "kernel")));
#if defined(__x86_64__)
	ck_assert_int_eq(samples_of(h, "seccomp_filter (classic BPF)"), 3);
	ck_assert_int_eq(samples_of(h, "[[]unknown[]]"), 2);
#else
	ck_assert_int_eq(samples_of(h, "seccomp_filter (classic BPF)"), 2);
#endif
	ck_assert_int_eq(json_integer_value(json_object_get(h, "seccomp_mode")), 2);
	ck_assert_int_ge(json_integer_value(json_object_get(h, "seccomp_filters")), 2);
	json_decref(h);
}
END_TEST

/* Without filters the same samples are unknown, and the result says 0. */
START_TEST(seccomp_not_without_filters)
{
	struct fixture f;
	uint64_t a, caller;
	json_t *h;

	begin(&f);
	caller = seccomp_return(&f.k);
	a = free_jit_address(&f.k);
	if (caller) {
		sample(&f, (uint64_t[]){ a, caller }, 2);
		sample(&f, (uint64_t[]){ a }, 1);
	}
	h = end(&f);
	ck_assert_int_eq(samples_of(h, "seccomp_filter*"), 0);
	if (caller)
		ck_assert_int_eq(samples_of(h, "[[]unknown[]]"), 2);
	ck_assert_int_eq(json_integer_value(json_object_get(h, "seccomp_mode")), 0);
	json_decref(h);
}
END_TEST

/* ---- a real BPF program (root) ---- */

static struct bpf_insn insn(uint8_t code, uint8_t dst, int32_t imm)
{
	struct bpf_insn i = { .code = code, .dst_reg = dst, .imm = imm };

	return i;
}

/* A socket filter that multiplies burn times and keeps the packet. */
static int load_socket_filter(unsigned burn)
{
	static struct bpf_insn code[4096];
	union bpf_attr a;
	unsigned n = 0, i;
	long fd;

	code[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_2, 1);
	for (i = 0; i < burn && n < 4090; i++)
		code[n++] = insn(BPF_ALU64 | BPF_MUL | BPF_K, BPF_REG_2, 3);
	code[n++] = insn(BPF_ALU64 | BPF_MOV | BPF_K, BPF_REG_0, -1);
	code[n++] = insn(BPF_JMP | BPF_EXIT, 0, 0);
	memset(&a, 0, sizeof(a));
	a.prog_type = BPF_PROG_TYPE_SOCKET_FILTER;
	a.insn_cnt = n;
	a.insns = (uint64_t)(uintptr_t)code;
	a.license = (uint64_t)(uintptr_t)"GPL";
	strcpy(a.prog_name, "pm_sock_burn");
	fd = syscall(__NR_bpf, BPF_PROG_LOAD, &a, sizeof(a));
	return fd < 0 ? -errno : (int)fd;
}

/* Not root, or no JIT: nothing to see (and the reason is the expected one). */
static bool bpf_runs_here(int fd)
{
	long jit = 0;

	if (fd < 0) {
		ck_assert_msg(geteuid() != 0 && (fd == -EPERM || fd == -EACCES),
			      "cannot load a socket filter as root: %s", strerror(-fd));
		return false;
	}
	return pm_read_long("/proc/sys/net/core/bpf_jit_enable", &jit) == 0 && jit;
}

struct seen {
	int ksymbols, events;
	char name[128];
	uint32_t len, id;
};

static void collect(const struct pm_record *r, void *arg)
{
	struct seen *s = arg;

	if (r->type == PM_REC_KSYMBOL && !r->u.ksymbol.unregister &&
	    !fnmatch("bpf_prog_*_pm_sock_burn", r->u.ksymbol.name, 0)) {
		s->ksymbols++;
		snprintf(s->name, sizeof(s->name), "%s", r->u.ksymbol.name);
		s->len = r->u.ksymbol.len;
	}
	if (r->type == PM_REC_BPF_EVENT && r->u.bpf.type == PERF_BPF_EVENT_PROG_LOAD) {
		s->events++;
		s->id = r->u.bpf.id;
	}
}

/* Loading a program while sampling brings its KSYMBOL and BPF_EVENT. */
START_TEST(real_ksymbol_records)
{
	struct pm_sampler_opts o = { .freq = 1000, .kernel = true };
	struct pm_sampler *s;
	struct seen seen = { 0 };
	struct pm_err e;
	pid_t self = 0;
	int fd;

	ck_assert_msg(pm_sampler_open(&s, &self, 1, &o, &e) == 0, "%s", e.msg);
	ck_assert_int_eq(pm_sampler_enable(s), 0);
	fd = load_socket_filter(100);
	pm_sampler_disable(s);
	pm_sampler_drain(s, collect, &seen);
	pm_sampler_close(s);
	if (!bpf_runs_here(fd))
		return;
	close(fd);
	ck_assert_int_ge(seen.ksymbols, 1);
	ck_assert_int_ge(seen.events, 1);
	ck_assert_uint_gt(seen.len, 100);	/* 100 multiplications and more */
	ck_assert_uint_gt(seen.id, 0);
}
END_TEST

/* Samples in a program loaded during the pass carry its name, object
 * [bpf] and (root) its type. */
START_TEST(real_bpf_hotspot)
{
	struct fixture f;
	int fd, sv[2], i, k;
	const json_t *x;
	json_t *h;
	char c = 'x';

	begin(&f);
	ck_assert_int_eq(pm_profile_enable(f.pr), 0);
	fd = load_socket_filter(3000);
	if (!bpf_runs_here(fd)) {
		pm_profile_disable(f.pr);
		json_decref(end(&f));
		return;
	}
	ck_assert_int_eq(socketpair(AF_UNIX, SOCK_DGRAM, 0, sv), 0);
	ck_assert_int_eq(setsockopt(sv[1], SOL_SOCKET, SO_ATTACH_BPF, &fd, sizeof(fd)), 0);
	for (k = 0; k < 10; k++) {
		for (i = 0; i < 5000; i++) {
			ck_assert_int_eq(send(sv[0], &c, 1, 0), 1);
			ck_assert_int_eq(recv(sv[1], &c, 1, 0), 1);
		}
		pm_profile_drain(f.pr);
	}
	pm_profile_disable(f.pr);
	close(sv[0]);
	close(sv[1]);
	close(fd);
	h = end(&f);
	x = symbol(h, "bpf_prog_*_pm_sock_burn");
	ck_assert_msg(x, "no samples named after the socket filter");
	ck_assert_str_eq(json_string_value(json_object_get(x, "object")), "[bpf]");
	ck_assert(json_is_true(json_object_get(x, "size_exact")));
	ck_assert_int_gt(json_integer_value(json_object_get(x, "samples")), 5);
	ck_assert_str_eq(json_string_value(json_object_get(x, "bpf_prog_type")), "socket_filter");
	ck_assert_int_gt(json_integer_value(json_object_get(x, "bpf_prog_id")), 0);
	json_decref(h);
}
END_TEST

int main(void)
{
	Suite *s = suite_create("jit");
	TCase *tc = tcase_create("core");
	SRunner *sr;
	int failed;

	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, ksymbol_parse);
	tcase_add_test(tc, ksymbol_malformed);
	tcase_add_test(tc, bpf_event_parse);
	tcase_add_test(tc, jit_ranges);
	tcase_add_test(tc, kallsyms_bpf_exact);
	tcase_add_test(tc, ksymbol_names_samples);
	/* before the test that installs filters (they stay, should the
	 * tests not run in forked processes) */
	tcase_add_test(tc, seccomp_not_without_filters);
	tcase_add_test(tc, seccomp_named);
	tcase_add_test(tc, real_ksymbol_records);
	tcase_add_test(tc, real_bpf_hotspot);
	suite_add_tcase(s, tc);
	sr = srunner_create(s);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
