/*
 * Unit tests for user stack unwinding (src/sample/unwind.c): a sample
 * synthesized from this thread's own registers and stack, then real
 * cpu-clock samples from perf_event_open.
 *
 * Build with -fno-omit-frame-pointer -fasynchronous-unwind-tables and
 * link with -rdynamic: frames are named with dladdr1(), which only sees
 * dynamic symbols.
 */
#include "config.h"

#include <check.h>
#include <dlfcn.h>
#include <errno.h>
#include <inttypes.h>
#include <link.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sample/unwind.h"

#if defined(__x86_64__) && defined(HAVE_LIBUNWIND) && defined(HAVE_LIBELF)

#include <asm/perf_regs.h>
#include <linux/perf_event.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>

/* Keep each function a real frame: no inlining, cloning or IPA tricks. */
#if defined(__clang__)
#define NOIPA __attribute__((noinline, used))
#else
#define NOIPA __attribute__((noipa, used))
#endif

#define MAX_FRAMES 128

/* Global so -rdynamic exports them and dladdr1() can name the frames. */
int level1(int x);
int level2(int x);
int level3(int x);
int self_sample_caller(const struct pm_maps *maps);
uint64_t spin1(uint64_t until);
uint64_t spin2(uint64_t until);
uint64_t spin3(uint64_t until);
struct perf_run;
int perf_caller(struct perf_run *r);

/*
 * The dynamic symbol whose [start, start+size) holds addr, or NULL:
 * dladdr() alone answers with the nearest symbol below, which for static
 * functions is somebody else's name.
 */
static const char *sym_at(uint64_t addr)
{
	const ElfW(Sym) *sym = NULL;
	Dl_info info;
	uint64_t start;

	if (!dladdr1((void *)(uintptr_t)addr, &info, (void **)&sym,
		     RTLD_DL_SYMENT) || !sym || !info.dli_sname)
		return NULL;
	start = (uint64_t)(uintptr_t)info.dli_saddr;
	if (addr < start || addr - start >= sym->st_size)
		return NULL;
	return info.dli_sname;
}

/* Names of the frames; return addresses (i > 0) are looked up at - 1. */
static void name_frames(const uint64_t *ips, size_t n, const char **names)
{
	size_t i;

	for (i = 0; i < n; i++)
		names[i] = sym_at(i ? ips[i] - 1 : ips[i]);
}

static bool name_is(const char *name, const char *want)
{
	return name && !strcmp(name, want);
}

static void print_frames(const char *what, const uint64_t *ips,
			 const char **names, size_t n, int ret)
{
	size_t i;

	printf("%s: %zu frames, ret %d\n", what, n, ret);
	for (i = 0; i < n; i++)
		printf("  #%-2zu %#" PRIx64 " %s\n", i, ips[i],
		       names[i] ? names[i] : "?");
}

START_TEST(test_regs_mask)
{
	uint64_t m = pm_unwind_regs_mask();
	static const int need[] = {
		PERF_REG_X86_IP, PERF_REG_X86_SP, PERF_REG_X86_BP,
		PERF_REG_X86_BX, PERF_REG_X86_R12, PERF_REG_X86_R13,
		PERF_REG_X86_R14, PERF_REG_X86_R15,
	};
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(need); i++)
		ck_assert_msg(m & (1ull << need[i]), "reg %d missing", need[i]);
	/* nothing the kernel rejects for a 64-bit process */
	ck_assert_uint_eq(m >> PERF_REG_X86_64_MAX, 0);
}
END_TEST

/* ---- a sample of our own thread ---- */

static struct {
	uint64_t regs[PERF_REG_X86_64_MAX];	/* in mask order */
	uint64_t mask;
	uint8_t stack[32768];
	size_t stack_size;
	uint64_t stack_end;	/* end of the [stack] mapping */
} cap;

/* The raw stack, redzones and all: not for ASan to judge (volatile so
 * the loop does not become an intercepted memcpy). */
__attribute__((no_sanitize_address))
static void copy_stack(uint8_t *dst, uint64_t src, size_t len)
{
	const volatile uint8_t *s = (const volatile uint8_t *)(uintptr_t)src;
	size_t i;

	for (i = 0; i < len; i++)
		dst[i] = s[i];
}

/* What perf_event_open would record here: the registers, and the stack
 * from sp (as far as the mapping goes, like the kernel's dyn_size). */
NOIPA int level3(int x)
{
	uint64_t raw[PERF_REG_X86_64_MAX] = { 0 };
	uint64_t sp, len;
	size_t bit, k = 0;

	__asm__ volatile(
		"movq %%rax, %c[ax](%[r])\n\t"
		"movq %%rbx, %c[bx](%[r])\n\t"
		"movq %%rcx, %c[cx](%[r])\n\t"
		"movq %%rdx, %c[dx](%[r])\n\t"
		"movq %%rsi, %c[si](%[r])\n\t"
		"movq %%rdi, %c[di](%[r])\n\t"
		"movq %%rbp, %c[bp](%[r])\n\t"
		"movq %%rsp, %c[sp](%[r])\n\t"
		"movq %%r8, %c[r8](%[r])\n\t"
		"movq %%r9, %c[r9](%[r])\n\t"
		"movq %%r10, %c[r10](%[r])\n\t"
		"movq %%r11, %c[r11](%[r])\n\t"
		"movq %%r12, %c[r12](%[r])\n\t"
		"movq %%r13, %c[r13](%[r])\n\t"
		"movq %%r14, %c[r14](%[r])\n\t"
		"movq %%r15, %c[r15](%[r])\n\t"
		"leaq 0(%%rip), %%rax\n\t"
		"movq %%rax, %c[ip](%[r])\n\t"
		:
		: [r] "r"(raw),
		  [ax] "i"(8 * PERF_REG_X86_AX), [bx] "i"(8 * PERF_REG_X86_BX),
		  [cx] "i"(8 * PERF_REG_X86_CX), [dx] "i"(8 * PERF_REG_X86_DX),
		  [si] "i"(8 * PERF_REG_X86_SI), [di] "i"(8 * PERF_REG_X86_DI),
		  [bp] "i"(8 * PERF_REG_X86_BP), [sp] "i"(8 * PERF_REG_X86_SP),
		  [ip] "i"(8 * PERF_REG_X86_IP),
		  [r8] "i"(8 * PERF_REG_X86_R8), [r9] "i"(8 * PERF_REG_X86_R9),
		  [r10] "i"(8 * PERF_REG_X86_R10), [r11] "i"(8 * PERF_REG_X86_R11),
		  [r12] "i"(8 * PERF_REG_X86_R12), [r13] "i"(8 * PERF_REG_X86_R13),
		  [r14] "i"(8 * PERF_REG_X86_R14), [r15] "i"(8 * PERF_REG_X86_R15)
		: "rax", "memory");

	cap.mask = pm_unwind_regs_mask();
	for (bit = 0; bit < PERF_REG_X86_64_MAX; bit++)
		if (cap.mask & (1ull << bit))
			cap.regs[k++] = raw[bit];
	sp = raw[PERF_REG_X86_SP];
	len = cap.stack_end - sp;
	if (len > sizeof(cap.stack))
		len = sizeof(cap.stack);
	copy_stack(cap.stack, sp, len);
	cap.stack_size = len;
	return x + 1;
}

/* The barrier after each call keeps it from becoming a tail call. */
NOIPA int level2(int x)
{
	int r = level3(x * 3);

	__asm__ volatile("" ::: "memory");
	return r + x;
}

NOIPA int level1(int x)
{
	int r = level2(x + 7);

	__asm__ volatile("" ::: "memory");
	return r - x;
}

NOIPA int self_sample_caller(const struct pm_maps *maps)
{
	volatile int local = 1;
	const struct pm_map *stack = pm_maps_find(maps, (uintptr_t)&local);
	int r;

	ck_assert_ptr_nonnull(stack);
	cap.stack_end = stack->end;
	r = level1(local);
	__asm__ volatile("" ::: "memory");
	return r + local;
}

static void capture_self(struct pm_maps *maps)
{
	struct pm_err e;

	memset(maps, 0, sizeof(*maps));
	ck_assert_int_eq(pm_maps_from_proc(maps, getpid(), &e), 0);
	self_sample_caller(maps);
	ck_assert_uint_gt(cap.stack_size, 256);
}

START_TEST(test_unwind_self)
{
	struct pm_unwinder *u = pm_unwinder_new();
	struct pm_unwind_input in;
	struct pm_maps maps;
	uint64_t ips[MAX_FRAMES], again[MAX_FRAMES];
	const char *names[MAX_FRAMES];
	size_t n, n2, i;
	bool main_found = false;
	int ret;

	capture_self(&maps);
	in = (struct pm_unwind_input){
		.maps = &maps, .regs = cap.regs, .regs_mask = cap.mask,
		.stack = cap.stack, .stack_size = cap.stack_size,
	};
	ret = pm_unwind(u, &in, ips, MAX_FRAMES, &n);
	name_frames(ips, n, names);
	print_frames("self", ips, names, n, ret);

	ck_assert_msg(ret == 0 || ret == -ENODATA, "ret %d", ret);
	ck_assert_uint_ge(n, 4);
	ck_assert_uint_eq(ips[0], cap.regs[__builtin_popcountll(
		cap.mask & ((1ull << PERF_REG_X86_IP) - 1))]);
	ck_assert(name_is(names[0], "level3"));
	ck_assert(name_is(names[1], "level2"));
	ck_assert(name_is(names[2], "level1"));
	ck_assert(name_is(names[3], "self_sample_caller"));
	for (i = 4; i < n; i++)
		main_found |= name_is(names[i], "main");
	/* past main: __libc_start_call_main, __libc_start_main, _start */
	ck_assert_msg(main_found, "main not reached");
	ck_assert_msg(ret == 0, "main reached but not the outermost frame");

	/* again, now from libunwind's and our caches: same answer */
	ck_assert_int_eq(pm_unwind(u, &in, again, MAX_FRAMES, &n2), ret);
	ck_assert_uint_eq(n2, n);
	ck_assert_mem_eq(again, ips, n * sizeof(*ips));

	/* max frames: truncated is not complete */
	ck_assert_int_eq(pm_unwind(u, &in, again, 3, &n2), -ENODATA);
	ck_assert_uint_eq(n2, 3);
	ck_assert_mem_eq(again, ips, 3 * sizeof(*ips));

	pm_unwinder_free(u);
	pm_maps_free(&maps);
}
END_TEST

/*
 * Maps built from PERF_RECORD_MMAP2 hold only executable mappings (no
 * attr.mmap_data): the unwind tables in the read-only segments must
 * still be found, through the object's program headers.
 */
START_TEST(test_unwind_exec_maps_only)
{
	struct pm_unwinder *u = pm_unwinder_new();
	struct pm_unwind_input in;
	struct pm_maps maps, text = { 0 };
	uint64_t ips[MAX_FRAMES], again[MAX_FRAMES];
	size_t n, n2, i;

	capture_self(&maps);
	in = (struct pm_unwind_input){
		.maps = &maps, .regs = cap.regs, .regs_mask = cap.mask,
		.stack = cap.stack, .stack_size = cap.stack_size,
	};
	ck_assert_int_eq(pm_unwind(u, &in, ips, MAX_FRAMES, &n), 0);
	/* only the mappings the frames' code lives in */
	text.pid = maps.pid;
	for (i = 0; i < n; i++) {
		const struct pm_map *m = pm_maps_find(&maps, ips[i] - (i > 0));

		ck_assert_ptr_nonnull(m);
		if (!pm_maps_find(&text, m->start))
			pm_maps_add(&text, m->start, m->end - m->start,
				    m->pgoff, m->path);
	}
	ck_assert_uint_lt(text.n, maps.n);

	pm_unwinder_free(u);
	u = pm_unwinder_new();
	in.maps = &text;
	ck_assert_int_eq(pm_unwind(u, &in, again, MAX_FRAMES, &n2), 0);
	ck_assert_uint_eq(n2, n);
	ck_assert_mem_eq(again, ips, n * sizeof(*ips));

	/* alternating between address spaces keeps both working */
	for (i = 0; i < 4; i++) {
		in.maps = i % 2 ? &text : &maps;
		ck_assert_int_eq(pm_unwind(u, &in, again, MAX_FRAMES, &n2), 0);
		ck_assert_uint_eq(n2, n);
		ck_assert_mem_eq(again, ips, n * sizeof(*ips));
	}

	pm_unwinder_free(u);
	pm_maps_free(&text);
	pm_maps_free(&maps);
}
END_TEST

START_TEST(test_unwind_short_stack)
{
	struct pm_unwinder *u = pm_unwinder_new();
	struct pm_unwind_input in;
	struct pm_maps maps;
	uint64_t ips[MAX_FRAMES];
	size_t n;
	int ret;

	capture_self(&maps);
	in = (struct pm_unwind_input){
		.maps = &maps, .regs = cap.regs, .regs_mask = cap.mask,
		.stack = cap.stack, .stack_size = 0,
	};
	/* no stack: only the sampled IP */
	ck_assert_int_eq(pm_unwind(u, &in, ips, MAX_FRAMES, &n), -ENODATA);
	ck_assert_uint_eq(n, 1);
	ck_assert(name_is(sym_at(ips[0]), "level3"));

	/* no SP: not a usable sample */
	in.stack_size = cap.stack_size;
	in.regs_mask = cap.mask & ~(1ull << PERF_REG_X86_SP);
	ck_assert_int_eq(pm_unwind(u, &in, ips, MAX_FRAMES, &n), -EINVAL);
	ck_assert_uint_eq(n, 0);

	/* no mappings: no CFI, no code; libunwind may still follow the
	 * frame pointers a bit, but must not get lost or crash */
	in.regs_mask = cap.mask;
	pm_maps_free(&maps);
	ret = pm_unwind(u, &in, ips, MAX_FRAMES, &n);
	ck_assert_msg(ret == 0 || ret == -ENODATA, "ret %d", ret);
	ck_assert_uint_ge(n, 1);
	ck_assert(name_is(sym_at(ips[0]), "level3"));

	pm_unwinder_free(u);
}
END_TEST

/* ---- real samples: perf_event_open cpu-clock on ourselves ---- */

#define RING_PAGES 64
#define SPIN_TOTAL_NS 200000000ull
#define SPIN_CHUNK_NS 1000000ull	/* < ring size worth of samples */

struct perf_run {
	int fd;
	struct perf_event_mmap_page *meta;
	const uint8_t *ring;
	size_t ring_size;
	uint8_t *tmp;		/* a record wrapped around the ring end */
	struct pm_maps maps;
	struct pm_unwinder *u;
	uint64_t mask;
	unsigned nregs;
	/* results */
	unsigned samples, in_spin3, spin3_ok, spin3_complete;
	unsigned below_spin3, below_ok;	/* in callees of spin3 (libc, vDSO) */
	unsigned lost;
	uint64_t unwind_ns;
	uint64_t first_bad[MAX_FRAMES];
	size_t first_bad_n;
	int first_bad_ret;
};

NOIPA uint64_t spin3(uint64_t until)
{
	uint64_t x = until;
	unsigned i;

	do {
		for (i = 0; i < 4096; i++)
			x = x * 6364136223846793005ull + 1442695040888963407ull;
		__asm__ volatile("" : "+r"(x));
	} while (pm_now_ns() < until);
	return x;
}

NOIPA uint64_t spin2(uint64_t until)
{
	uint64_t r = spin3(until);

	__asm__ volatile("" ::: "memory");
	return r ^ 2;
}

NOIPA uint64_t spin1(uint64_t until)
{
	uint64_t r = spin2(until);

	__asm__ volatile("" ::: "memory");
	return r ^ 1;
}

static void handle_sample(struct perf_run *r, const uint8_t *p, size_t len)
{
	struct pm_unwind_input in;
	uint64_t ip, abi, size, dyn = 0, ips[MAX_FRAMES], t0;
	const char *names[MAX_FRAMES];
	const uint64_t *regs;
	size_t pos = 0, n, k;
	int ret;

	/* ip; pid, tid; abi, regs[]; size, data[size], dyn_size */
	if (len < 24)
		return;
	memcpy(&ip, p, 8);
	memcpy(&abi, p + 16, 8);
	pos = 24;
	r->samples++;
	if (abi == PERF_SAMPLE_REGS_ABI_NONE)
		return;
	if (len - pos < 8ull * r->nregs + 8)
		return;
	regs = (const uint64_t *)(p + pos);	/* records are 8-aligned */
	pos += 8ull * r->nregs;
	memcpy(&size, p + pos, 8);
	pos += 8;
	if (size) {
		if (len - pos < size + 8)
			return;
		memcpy(&dyn, p + pos + size, 8);
		if (dyn > size)
			return;
	}
	in = (struct pm_unwind_input){
		.maps = &r->maps, .regs = regs, .regs_mask = r->mask,
		.stack = p + pos, .stack_size = dyn,
	};
	t0 = pm_now_ns();
	ret = pm_unwind(r->u, &in, ips, MAX_FRAMES, &n);
	r->unwind_ns += pm_now_ns() - t0;
	name_frames(ips, n, names);

	for (k = 0; k < n && !name_is(names[k], "spin3"); k++)
		;
	if (k == n)
		return;
	if (k + 3 < n && name_is(names[k + 1], "spin2") &&
	    name_is(names[k + 2], "spin1") &&
	    name_is(names[k + 3], "perf_caller")) {
		if (k == 0) {
			r->spin3_ok++;
			r->spin3_complete += ret == 0;
		} else {
			r->below_ok++;
		}
	} else if (k == 0 && !r->first_bad_n) {
		memcpy(r->first_bad, ips, n * sizeof(*ips));
		r->first_bad_n = n;
		r->first_bad_ret = ret;
	}
	if (k == 0)
		r->in_spin3++;
	else
		r->below_spin3++;
	(void)ip;
}

/* Read what the kernel wrote since last time (the event is disabled). */
static void drain(struct perf_run *r)
{
	uint64_t head = __atomic_load_n(&r->meta->data_head, __ATOMIC_ACQUIRE);
	uint64_t tail = r->meta->data_tail;

	while (tail < head) {
		struct perf_event_header h;
		size_t at = tail % r->ring_size;
		const uint8_t *rec;

		if (r->ring_size - at >= sizeof(h)) {
			memcpy(&h, r->ring + at, sizeof(h));
		} else {
			memcpy(&h, r->ring + at, r->ring_size - at);
			memcpy((uint8_t *)&h + (r->ring_size - at), r->ring,
			       sizeof(h) - (r->ring_size - at));
		}
		if (h.size < sizeof(h))
			break;
		if (r->ring_size - at >= h.size) {
			rec = r->ring + at;
		} else {
			memcpy(r->tmp, r->ring + at, r->ring_size - at);
			memcpy(r->tmp + (r->ring_size - at), r->ring,
			       h.size - (r->ring_size - at));
			rec = r->tmp;
		}
		if (h.type == PERF_RECORD_SAMPLE)
			handle_sample(r, rec + sizeof(h), h.size - sizeof(h));
		else if (h.type == PERF_RECORD_LOST)
			r->lost += (unsigned)((const uint64_t *)(rec + sizeof(h)))[1];
		tail += h.size;
	}
	__atomic_store_n(&r->meta->data_tail, tail, __ATOMIC_RELEASE);
}

NOIPA int perf_caller(struct perf_run *r)
{
	uint64_t spun = 0, sink = 0;

	while (spun < SPIN_TOTAL_NS) {
		uint64_t t0 = pm_now_ns();

		ioctl(r->fd, PERF_EVENT_IOC_ENABLE, 0);
		sink += spin1(t0 + SPIN_CHUNK_NS);
		ioctl(r->fd, PERF_EVENT_IOC_DISABLE, 0);
		spun += pm_now_ns() - t0;
		drain(r);
	}
	__asm__ volatile("" : : "r"(sink) : "memory");
	return 0;
}

static int open_cpu_clock(uint64_t mask)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.sample_period = 100000;	/* ns: 10 kHz */
	attr.sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID |
			   PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
	attr.sample_regs_user = mask;
	attr.sample_stack_user = 16384;
	attr.disabled = 1;
	attr.exclude_kernel = 1;	/* allowed at perf_event_paranoid 2 */
	attr.exclude_hv = 1;
	return (int)syscall(SYS_perf_event_open, &attr, 0, -1, -1,
			    PERF_FLAG_FD_CLOEXEC);
}

START_TEST(test_unwind_perf_samples)
{
	long page = sysconf(_SC_PAGESIZE);
	struct perf_run r;
	struct pm_err e;
	void *mem;
	double ok, complete, below;

	memset(&r, 0, sizeof(r));
	r.mask = pm_unwind_regs_mask();
	r.nregs = (unsigned)__builtin_popcountll(r.mask);
	r.fd = open_cpu_clock(r.mask);
	if (r.fd < 0) {
		/* no perf_event_open here (seccomp, paranoid 3, ...) */
		printf("perf: SKIP, perf_event_open: %s\n", strerror(errno));
		return;
	}
	mem = mmap(NULL, (size_t)(1 + RING_PAGES) * page,
		   PROT_READ | PROT_WRITE, MAP_SHARED, r.fd, 0);
	if (mem == MAP_FAILED) {
		printf("perf: SKIP, mmap: %s\n", strerror(errno));
		close(r.fd);
		return;
	}
	r.meta = mem;
	r.ring = (const uint8_t *)mem + page;
	r.ring_size = (size_t)RING_PAGES * page;
	r.tmp = pm_xmalloc(65536);
	r.u = pm_unwinder_new();
	ck_assert_int_eq(pm_maps_from_proc(&r.maps, getpid(), &e), 0);

	perf_caller(&r);

	ok = r.in_spin3 ? (double)r.spin3_ok / r.in_spin3 : 0;
	complete = r.in_spin3 ? (double)r.spin3_complete / r.in_spin3 : 0;
	below = r.below_spin3 ? (double)r.below_ok / r.below_spin3 : 0;
	printf("perf: %u samples (%u lost), %u in spin3: %.1f%% unwound "
	       "through spin2/spin1/perf_caller, %.1f%% completely; "
	       "%u in callees of spin3: %.1f%% ok; %.1f us per unwind\n",
	       r.samples, r.lost, r.in_spin3, 100 * ok, 100 * complete,
	       r.below_spin3, 100 * below,
	       r.samples ? r.unwind_ns / 1e3 / r.samples : 0.0);
	if (r.first_bad_n) {
		const char *names[MAX_FRAMES];

		name_frames(r.first_bad, r.first_bad_n, names);
		print_frames("first failed spin3 sample", r.first_bad, names,
			     r.first_bad_n, r.first_bad_ret);
	}
	ck_assert_uint_ge(r.in_spin3, 20);
	ck_assert_msg(ok >= 0.8, "only %.1f%% of spin3 samples unwound",
		      100 * ok);

	pm_unwinder_free(r.u);
	pm_maps_free(&r.maps);
	free(r.tmp);
	munmap(mem, (size_t)(1 + RING_PAGES) * page);
	close(r.fd);
}
END_TEST

static Suite *unwind_suite(void)
{
	Suite *s = suite_create("unwind");
	TCase *tc = tcase_create("self");

	tcase_add_test(tc, test_regs_mask);
	tcase_add_test(tc, test_unwind_self);
	tcase_add_test(tc, test_unwind_exec_maps_only);
	tcase_add_test(tc, test_unwind_short_stack);
	suite_add_tcase(s, tc);

	tc = tcase_create("perf");
	tcase_set_timeout(tc, 60);
	tcase_add_test(tc, test_unwind_perf_samples);
	suite_add_tcase(s, tc);
	return s;
}

#else /* no libunwind or not x86_64 */

START_TEST(test_unwind_unsupported)
{
	struct pm_unwinder *u = pm_unwinder_new();
	struct pm_maps maps = { 0 };
	uint64_t regs[1] = { 0 }, ips[4];
	struct pm_unwind_input in = { .maps = &maps, .regs = regs };
	size_t n = 7;

	ck_assert_int_eq(pm_unwind(u, &in, ips, 4, &n), -ENOSYS);
	ck_assert_uint_eq(n, 0);
	pm_unwinder_free(u);
}
END_TEST

static Suite *unwind_suite(void)
{
	Suite *s = suite_create("unwind");
	TCase *tc = tcase_create("unsupported");

	tcase_add_test(tc, test_unwind_unsupported);
	suite_add_tcase(s, tc);
	return s;
}

#endif

int main(void)
{
	SRunner *sr = srunner_create(unwind_suite());
	int failures;

	srunner_run_all(sr, CK_NORMAL);
	failures = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failures ? 1 : 0;
}
