/*
 * The mem family: memory bandwidth and latency, caches and TLB, after
 * lmbench's bw_mem, lat_mem_rd, tlb, line and par_mem.
 *
 * Bandwidths move a buffer well beyond the last-level cache, one pass
 * per operation.  Latencies chase a chain of dependent pointers (each
 * load's address is the value of the previous load) and report the time
 * of one load.  Cache sizes come from sysfs, or, when sysfs does not
 * describe the caches, from a measured latency curve.
 *
 * setup() makes the buffers and pointer chains, untimed; measure()
 * benchmarks time their own sweeps.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "bench/bench.h"
#include "util.h"

#define KiB ((size_t)1 << 10)
#define MiB ((size_t)1 << 20)
#define GiB ((size_t)1 << 30)

/* lmbench's lat_mem_rd stride for the L1/L2/Main mem/Rand mem columns. */
#define MEM_LAT_STRIDE 128

/* ---- common helpers ---- */

static size_t mem_pagesize(void)
{
	long pg = sysconf(_SC_PAGESIZE);

	return pg > 0 ? (size_t)pg : 4096;
}

/* "32 KiB", "1 MiB", "1.5 MiB": for parameters. */
static void mem_fmt_size(char *buf, size_t len, size_t n)
{
	if (n >= GiB && n % GiB == 0)
		snprintf(buf, len, "%zu GiB", n / GiB);
	else if (n >= MiB && n % MiB == 0)
		snprintf(buf, len, "%zu MiB", n / MiB);
	else if (n >= MiB)
		snprintf(buf, len, "%.1f MiB", (double)n / (double)MiB);
	else if (n >= KiB && n % KiB == 0)
		snprintf(buf, len, "%zu KiB", n / KiB);
	else
		snprintf(buf, len, "%zu B", n);
}

/*
 * An anonymous private mapping, every page touched so that no page
 * fault happens in a timed loop.  small_pages asks for base pages: the
 * latency and TLB benchmarks are about them, whatever the transparent
 * huge page setting.
 */
static int mem_map(struct pm_ctx *ctx, size_t len, bool small_pages,
		   char **out)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char msg[32];

	if (p == MAP_FAILED) {
		mem_fmt_size(msg, sizeof(msg), len);
		return pm_bench_fail(ctx, -errno, "mmap of %s", msg);
	}
	if (small_pages)
		madvise(p, len, MADV_NOHUGEPAGE);
	memset(p, 0x5a, len);
	*out = p;
	return 0;
}

static void mem_unmap(char **p, size_t len)
{
	if (*p)
		munmap(*p, len);
	*p = NULL;
}

/* xorshift64: a fixed seed, so that every run lays chains out alike. */
#define MEM_SEED 0x9e3779b97f4a7c15ull

static uint64_t mem_rand(uint64_t *s)
{
	uint64_t x = *s;

	x ^= x << 13;
	x ^= x >> 7;
	x ^= x << 17;
	*s = x;
	return x;
}

/* A random permutation of 0..n-1. */
static uint32_t *mem_perm(size_t n, uint64_t *seed)
{
	uint32_t *v = pm_xmalloc((n ? n : 1) * sizeof(*v));
	size_t i;

	for (i = 0; i < n; i++)
		v[i] = (uint32_t)i;
	for (i = n; i > 1; i--) {
		size_t j = (size_t)(mem_rand(seed) % i);
		uint32_t t = v[i - 1];

		v[i - 1] = v[j];
		v[j] = t;
	}
	return v;
}

/* i with its low `bits` bits reversed (lmbench's words_initialize). */
static size_t mem_bitrev(size_t i, unsigned bits)
{
	size_t r = 0;
	unsigned b;

	for (b = 0; b < bits; b++)
		if (i & ((size_t)1 << b))
			r |= (size_t)1 << (bits - 1 - b);
	return r;
}

static unsigned mem_log2(size_t n)
{
	unsigned b = 0;

	while (((size_t)1 << (b + 1)) <= n)
		b++;
	return b;
}

/* /proc/meminfo MemAvailable in bytes, 0 when unknown. */
static size_t mem_available(void)
{
	char *text, *p;
	unsigned long long kb = 0;

	if (pm_read_file("/proc/meminfo", &text, NULL))
		return 0;
	p = strstr(text, "MemAvailable:");
	if (p && sscanf(p, "MemAvailable: %llu", &kb) != 1)
		kb = 0;
	free(text);
	return (size_t)kb * KiB;
}

/* ---- pointer chasing ---- */

#define MEM_C1 p = *(void *const *)p;
#define MEM_C10 MEM_C1 MEM_C1 MEM_C1 MEM_C1 MEM_C1 \
		MEM_C1 MEM_C1 MEM_C1 MEM_C1 MEM_C1
#define MEM_C100 MEM_C10 MEM_C10 MEM_C10 MEM_C10 MEM_C10 \
		 MEM_C10 MEM_C10 MEM_C10 MEM_C10 MEM_C10
#define MEM_CHASE_UNROLL 100

/* 100 dependent loads per iteration; returns where the chase stopped. */
static void *mem_chase(void *p, uint64_t iters)
{
	while (iters--) {
		MEM_C100
	}
	return p;
}

/* Chase about `loads` loads from *p (continuing there), ns per load. */
static double mem_time_chase(void **p, uint64_t loads)
{
	uint64_t iters = (loads + MEM_CHASE_UNROLL - 1) / MEM_CHASE_UNROLL;
	uint64_t t0, t1;

	if (!iters)
		iters = 1;
	t0 = pm_now_ns();
	*p = mem_chase(*p, iters);
	t1 = pm_now_ns();
	return (double)(t1 - t0) / (double)(iters * MEM_CHASE_UNROLL);
}

static void mem_link(char *from, char *to)
{
	*(char **)from = to;
}

/*
 * lat_mem_rd's default chain: forward through `range` bytes, one
 * pointer every `stride` bytes, back to the start at the end.  Hardware
 * prefetchers follow it easily, as lmbench's documentation says.
 */
static char *mem_chain_stride(char *base, size_t range, size_t stride)
{
	size_t n = range / stride, k;

	if (n < 1)
		n = 1;
	for (k = 0; k + 1 < n; k++)
		mem_link(base + k * stride, base + (k + 1) * stride);
	mem_link(base + (n - 1) * stride, base);
	return base;
}

/*
 * lat_mem_rd -t ("thrash"): the pages of the range in random order,
 * every load on a different page; the offset in the page rotates through
 * the bit-reversed line offsets, so every line of every page is visited
 * once per lap.  Each load is a cache miss and, beyond the TLB's reach,
 * a TLB miss.  range must be a multiple of the page size.
 */
static char *mem_chain_thrash(char *base, size_t range, size_t stride,
			      size_t pg)
{
	size_t npages = range / pg, nl = pg / stride, i, j;
	unsigned bits = mem_log2(nl);
	uint64_t seed = MEM_SEED;
	uint32_t *pages = mem_perm(npages, &seed);
	char *start;

	for (i = 0; i < npages; i++) {
		char *cur = base + (size_t)pages[i] * pg;
		bool last = i + 1 == npages;
		char *next = base + (size_t)pages[last ? 0 : i + 1] * pg;

		for (j = 0; j < nl; j++) {
			size_t from = mem_bitrev((i + j) % nl, bits) * stride;
			size_t to = mem_bitrev((last ? j + 1 : i + j + 1) % nl,
					       bits) * stride;

			mem_link(cur + from, next + to);
		}
	}
	start = base + (size_t)pages[0] * pg;
	free(pages);
	return start;
}

/*
 * Random loads without TLB misses: the range is cut into windows of 16
 * pages, the windows are visited in random order and, inside a window,
 * every `stride`-byte slot once in random order.  Prefetchers cannot
 * follow it, and a window's pages fit in any first-level TLB, so the
 * latency is the cache's or memory's own.  Used for the curve's level
 * detection and for mem-curve's figure.
 */
#define MEM_WINDOW_PAGES 16

static char *mem_chain_window(char *base, size_t range, size_t stride,
			      size_t pg)
{
	size_t n = range / stride, wn = MEM_WINDOW_PAGES * pg / stride;
	size_t nwin, w, k;
	uint64_t seed = MEM_SEED;
	uint32_t *wins, *slots;
	char *first = NULL, *prev = NULL;

	if (n < 1)
		n = 1;
	if (wn > n)
		wn = n;
	nwin = (n + wn - 1) / wn;
	wins = mem_perm(nwin, &seed);
	for (w = 0; w < nwin; w++) {
		size_t lo = (size_t)wins[w] * wn, cnt = n - lo < wn ? n - lo : wn;

		slots = mem_perm(cnt, &seed);
		for (k = 0; k < cnt; k++) {
			char *cur = base + (lo + slots[k]) * stride;

			if (prev)
				mem_link(prev, cur);
			else
				first = cur;
			prev = cur;
		}
		free(slots);
	}
	mem_link(prev, first);
	free(wins);
	return first;
}

/* ---- cache sizes ---- */

struct mem_caches {
	size_t l1d, l2, llc;	/* bytes */
	int llc_level;
	size_t line;		/* coherency line size, bytes */
	bool measured;		/* from a latency curve, not sysfs */
};

static size_t mem_parse_size(const char *s)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return 0;
	switch (*end) {
	case 'K': case 'k':
		v <<= 10;
		break;
	case 'M': case 'm':
		v <<= 20;
		break;
	case 'G': case 'g':
		v <<= 30;
		break;
	default:
		break;
	}
	return (size_t)v;
}

/* The data caches of `cpu` from sysfs; false when they are not there. */
static bool mem_sysfs_caches(int cpu, struct mem_caches *c)
{
	char path[128], buf[64];
	int i;

	memset(c, 0, sizeof(*c));
	for (i = 0; i < 32; i++) {
		long level, line;
		size_t size;

		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/level",
			 cpu, i);
		if (pm_read_long(path, &level))
			break;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/type",
			 cpu, i);
		if (pm_read_line(path, buf, sizeof(buf)) ||
		    !strcmp(buf, "Instruction"))
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/size",
			 cpu, i);
		if (pm_read_line(path, buf, sizeof(buf)))
			continue;
		size = mem_parse_size(buf);
		if (!size)
			continue;
		snprintf(path, sizeof(path),
			 "/sys/devices/system/cpu/cpu%d/cache/index%d/coherency_line_size",
			 cpu, i);
		if (level == 1) {
			c->l1d = size;
			if (pm_read_long(path, &line) == 0 && line > 0)
				c->line = (size_t)line;
		} else if (level == 2) {
			c->l2 = size;
		}
		if (level > c->llc_level) {
			c->llc_level = (int)level;
			c->llc = size;
		}
	}
	if (!c->l1d || !c->llc)
		return false;
	if (!c->l2)
		c->l2 = c->llc;
	if (!c->line)
		c->line = 64;
	return true;
}

/*
 * Steps of a latency curve (sizes ascending): a level is a plateau, its
 * size the largest size still on it (within 30% of where the plateau
 * started), its latency the median of its points.  After a plateau the
 * latency climbs until it grows by less than 30% over an octave; there
 * the next plateau starts.  Plateaus less than 1.5x apart are one (noise
 * on a plateau is not a level).  The last plateau is main memory.
 */
#define MEM_MAX_LEVELS 8

struct mem_level {
	size_t size;
	double ns;
};

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

static double mem_median(const double *v, size_t n)
{
	double *t = pm_xmalloc((n ? n : 1) * sizeof(*t)), m;

	if (!n) {
		free(t);
		return 0;
	}
	memcpy(t, v, n * sizeof(*t));
	pm_sort(t, n, sizeof(*t), cmp_double);
	m = n % 2 ? t[n / 2] : (t[n / 2 - 1] + t[n / 2]) / 2;
	free(t);
	return m;
}

/* Returns the number of cache levels found; *mem_ns the last plateau. */
/* Returns the number of cache levels found; *mem_ns the last plateau. */
static size_t mem_find_levels(const size_t *size, const double *raw, size_t n,
			      struct mem_level *lv, size_t maxlv, double *mem_ns)
{
	double *s = pm_xmalloc((n ? n : 1) * sizeof(*s));
	size_t *ps = pm_xmalloc((n ? n : 1) * sizeof(*ps));
	size_t *pe = pm_xmalloc((n ? n : 1) * sizeof(*pe));
	size_t i, k, np = 0, nlv = 0, start = 0, end;

	*mem_ns = 0;
	/* median of 3: one noisy point is not a step */
	for (i = 0; i < n; i++) {
		double w[3] = { raw[i > 0 ? i - 1 : i], raw[i],
				raw[i + 1 < n ? i + 1 : i] };

		s[i] = mem_median(w, 3);
	}
	while (start < n) {
		/* the plateau: points within 30% of its first one (by the
		 * raw value too, so that a step smoothed over its edge does
		 * not cut the plateau short) */
		end = start;
		while (end + 1 < n &&
		       (s[end + 1] <= 1.3 * s[start] ||
			raw[end + 1] <= 1.3 * s[start]))
			end++;
		/* one plateau with the one before if less than 1.5x above */
		if (np && mem_median(s + start, end - start + 1) <
			  1.5 * mem_median(s + ps[np - 1], pe[np - 1] - ps[np - 1] + 1))
			pe[np - 1] = end;
		else {
			ps[np] = start;
			pe[np] = end;
			np++;
		}
		if (end + 1 >= n)
			break;
		/* the climb: until an octave adds less than 30% */
		i = end + 1;
		for (;;) {
			size_t j = i;

			while (j + 1 < n && size[j] < 2 * size[i])
				j++;
			if (j == i || s[j] <= 1.3 * s[i])
				break;
			i++;
		}
		start = i;
	}
	for (k = 0; k < np; k++) {
		double m = mem_median(s + ps[k], pe[k] - ps[k] + 1);

		if (k + 1 == np)
			*mem_ns = m;
		else if (nlv < maxlv) {
			lv[nlv].size = size[pe[k]];
			lv[nlv].ns = m;
			nlv++;
		}
	}
	free(s);
	free(ps);
	free(pe);
	return nlv;
}

/* Doubling (and 1.5x) sizes of a random-load chain, for mem_caches(). */
static int mem_measure_caches(struct pm_ctx *ctx, struct mem_caches *c)
{
	size_t pg = mem_pagesize(), max = 256 * MiB, avail = mem_available();
	size_t sizes[64], n = 0, sz, nlv, i;
	double ns[64], mem_ns;
	struct mem_level lv[MEM_MAX_LEVELS];
	char *buf = NULL;
	int err;

	if (avail && max > avail / 4)
		max = avail / 4 / pg * pg;
	if (max < 16 * MiB)
		max = 16 * MiB;
	err = mem_map(ctx, max, true, &buf);
	if (err)
		return err;
	for (sz = 4 * KiB; sz <= max && n + 2 <= 64; sz *= 2) {
		sizes[n++] = sz;
		if (sz + sz / 2 <= max)
			sizes[n++] = sz + sz / 2;
	}
	for (i = 0; i < n; i++) {
		void *p = mem_chain_window(buf, sizes[i], 64, pg);
		size_t nodes = sizes[i] / 64;
		double t, best = 0;
		int r;

		mem_time_chase(&p, nodes < 32768 ? nodes : 32768);
		for (r = 0; r < 3; r++) {
			t = mem_time_chase(&p, nodes < 16384 ? 16384 :
					   nodes > 65536 ? 65536 : nodes);
			if (r == 0 || t < best)
				best = t;
		}
		ns[i] = best;
	}
	mem_unmap(&buf, max);
	nlv = mem_find_levels(sizes, ns, n, lv, MEM_MAX_LEVELS, &mem_ns);
	memset(c, 0, sizeof(*c));
	c->measured = true;
	c->line = 64;
	c->l1d = nlv > 0 ? lv[0].size : 32 * KiB;
	c->l2 = nlv > 1 ? lv[1].size : c->l1d * 16;
	c->llc = nlv > 0 ? lv[nlv - 1].size : 32 * MiB;
	if (c->llc < c->l2)
		c->llc = c->l2;
	c->llc_level = nlv > 0 ? (int)nlv : 3;
	return 0;
}

/*
 * The cache sizes: sysfs, or a measured curve when sysfs has none.  The
 * measured sizes are kept for the rest of the process, so that every
 * benchmark of a run uses the same ones (and the curve is measured once;
 * copies of a benchmark may set up in threads at once, hence the lock).
 */
static pthread_mutex_t mem_measured_lock = PTHREAD_MUTEX_INITIALIZER;
static struct mem_caches mem_measured;
static bool mem_have_measured;

static int mem_caches(struct pm_ctx *ctx, struct mem_caches *c)
{
	int cpu = ctx->cpu >= 0 ? ctx->cpu : sched_getcpu();
	int err = 0;

	if (cpu < 0)
		cpu = 0;
	if (mem_sysfs_caches(cpu, c) || mem_sysfs_caches(0, c))
		return 0;
	pthread_mutex_lock(&mem_measured_lock);
	if (!mem_have_measured) {
		err = mem_measure_caches(ctx, &mem_measured);
		mem_have_measured = !err;
	}
	if (!err)
		*c = mem_measured;
	pthread_mutex_unlock(&mem_measured_lock);
	return err;
}

static const char *mem_caches_source(const struct mem_caches *c)
{
	return c->measured ? "measured" : "sysfs";
}

/*
 * A size well beyond the last-level cache: 4x the LLC, at least 64 MiB,
 * at most 1 GiB and a quarter of the available memory.
 */
static size_t mem_big(const struct mem_caches *c)
{
	size_t pg = mem_pagesize(), avail = mem_available();
	size_t n = 4 * c->llc;

	if (n < 64 * MiB)
		n = 64 * MiB;
	if (n > GiB)
		n = GiB;
	if (avail && n > avail / 4)
		n = avail / 4;
	if (n < 8 * MiB)
		n = 8 * MiB;
	/* whole windows of mem_chain_window and whole pages */
	return n / (MEM_WINDOW_PAGES * pg) * (MEM_WINDOW_PAGES * pg);
}

/* ---- bandwidth: bw-bcopy-libc, bw-bcopy-hand, bw-mem-read, bw-mem-write ---- */

/*
 * lmbench's bw_mem moves every 4-byte int in loops unrolled to 512
 * bytes; here the word is the 64-bit machine word, 256 bytes per
 * unrolled step.  The accesses are volatile so that the compiler keeps
 * one load or store per word: no vectorization, no memset()/memcpy()
 * substitution, no dropping of a write nobody reads.
 */
#define BW_WORDS 32	/* words per unrolled step */

typedef uint64_t bw_word;

#define BW_R4(i) s0 += p[i]; s1 += p[(i) + 1]; s2 += p[(i) + 2]; \
		 s3 += p[(i) + 3];
#define BW_W4(i) p[i] = v; p[(i) + 1] = v; p[(i) + 2] = v; p[(i) + 3] = v;
#define BW_C4(i) d[i] = s[i]; d[(i) + 1] = s[(i) + 1]; \
		 d[(i) + 2] = s[(i) + 2]; d[(i) + 3] = s[(i) + 3];
#define BW_32(m) m(0) m(4) m(8) m(12) m(16) m(20) m(24) m(28)

struct bw {
	char *src, *dst;
	size_t len;		/* of each mapping */
	size_t bytes;		/* moved per operation */
	volatile bw_word sink;
};

static bw_word bw_read_pass(const volatile bw_word *p, size_t nwords)
{
	const volatile bw_word *end = p + nwords;
	bw_word s0 = 0, s1 = 0, s2 = 0, s3 = 0;

	for (; p < end; p += BW_WORDS) {
		BW_32(BW_R4)
	}
	return s0 + s1 + s2 + s3;
}

static void bw_write_pass(volatile bw_word *p, size_t nwords, bw_word v)
{
	volatile bw_word *end = p + nwords;

	for (; p < end; p += BW_WORDS) {
		BW_32(BW_W4)
	}
}

static void bw_copy_pass(volatile bw_word *d, const volatile bw_word *s,
			 size_t nwords)
{
	const volatile bw_word *end = s + nwords;

	for (; s < end; s += BW_WORDS, d += BW_WORDS) {
		BW_32(BW_C4)
	}
}

static void bw_teardown(struct pm_ctx *ctx)
{
	struct bw *st = ctx->priv;

	if (!st)
		return;
	mem_unmap(&st->src, st->len);
	mem_unmap(&st->dst, st->len);
	free(st);
	ctx->priv = NULL;
}

/* .arg, copy: two buffers of half the size, as lmbench copies its HALF
 * sizes; else one. */
static int bw_setup(struct pm_ctx *ctx)
{
	bool copy = *(const bool *)ctx->bench->arg;
	struct bw *st = pm_xcalloc(1, sizeof(*st));
	struct mem_caches c;
	char sz[32], llc[32];
	int err;

	ctx->priv = st;
	err = mem_caches(ctx, &c);
	if (err)
		goto fail;
	st->len = mem_big(&c);
	if (copy)
		st->len /= 2;
	st->bytes = st->len;
	err = mem_map(ctx, st->len, false, &st->src);
	if (!err && copy)
		err = mem_map(ctx, st->len, false, &st->dst);
	if (err)
		goto fail;
	ctx->bytes_per_op = (double)st->bytes;
	mem_fmt_size(sz, sizeof(sz), st->len);
	mem_fmt_size(llc, sizeof(llc), c.llc);
	if (copy)
		snprintf(ctx->params, sizeof(ctx->params),
			 "%s copied between two page-aligned buffers "
			 "(LLC %s from %s)", sz, llc, mem_caches_source(&c));
	else
		snprintf(ctx->params, sizeof(ctx->params),
			 "%s buffer, 8-byte words (LLC %s from %s)", sz, llc,
			 mem_caches_source(&c));
	return 0;
fail:
	bw_teardown(ctx);
	return err;
}

PM_OP(bw_libc_op)
{
	struct bw *st = ctx->priv;

	memcpy(st->dst, st->src, st->bytes);
	pm_barrier();
	return 0;
}

PM_OP(bw_hand_op)
{
	struct bw *st = ctx->priv;

	bw_copy_pass((volatile bw_word *)st->dst,
		     (const volatile bw_word *)st->src,
		     st->bytes / sizeof(bw_word));
	return 0;
}

PM_OP(bw_read_op)
{
	struct bw *st = ctx->priv;

	st->sink += bw_read_pass((const volatile bw_word *)st->src,
				 st->bytes / sizeof(bw_word));
	return 0;
}

PM_OP(bw_write_op)
{
	struct bw *st = ctx->priv;

	bw_write_pass((volatile bw_word *)st->src,
		      st->bytes / sizeof(bw_word), 1);
	return 0;
}

/* ---- latency: lat-l1, lat-l2, lat-mem, lat-rand ---- */

struct lat {
	char *buf;
	size_t len;
	void *p;		/* where the chase stopped */
	/* tlb-pages */
	char *cbuf;
	size_t clen, maxpages;
	/* cache-line: one chain per stride, in its own pages */
	void *lines[8];
	size_t nstrides;
	/* mem-par */
	uint32_t *pages;
	size_t npages, line, cursor;
};

enum lat_kind { LAT_L1, LAT_L2, LAT_MEM, LAT_RAND };

static void lat_teardown(struct pm_ctx *ctx)
{
	struct lat *st = ctx->priv;

	if (!st)
		return;
	mem_unmap(&st->buf, st->len);
	mem_unmap(&st->cbuf, st->clen);
	free(st->pages);
	free(st);
	ctx->priv = NULL;
}

static struct lat *lat_new(struct pm_ctx *ctx)
{
	struct lat *st = pm_xcalloc(1, sizeof(*st));

	ctx->priv = st;
	return st;
}

/* A range inside L2 and well above L1d: half of L2, or between the two. */
static size_t lat_l2_range(const struct mem_caches *c)
{
	size_t r = c->l2 / 2;

	if (r < 2 * c->l1d)
		r = (c->l1d + c->l2) / 2;
	return r;
}

/* .arg: the enum lat_kind */
static int lat_setup(struct pm_ctx *ctx)
{
	enum lat_kind kind = *(const enum lat_kind *)ctx->bench->arg;
	static const char *const what[] = {
		[LAT_L1] = "L1d", [LAT_L2] = "L2", [LAT_MEM] = "LLC",
		[LAT_RAND] = "LLC",
	};
	size_t pg = mem_pagesize(), range, lvl, stride = MEM_LAT_STRIDE;
	struct lat *st = lat_new(ctx);
	struct mem_caches c;
	char rs[32], ls[32];
	int err;

	err = mem_caches(ctx, &c);
	if (err)
		goto fail;
	switch (kind) {
	case LAT_L1:
		range = c.l1d / 2;
		lvl = c.l1d;
		break;
	case LAT_L2:
		range = lat_l2_range(&c);
		lvl = c.l2;
		break;
	default:
		range = mem_big(&c);
		lvl = c.llc;
		break;
	}
	range = (range + pg - 1) / pg * pg;
	if (range < pg)
		range = pg;
	st->len = range;
	err = mem_map(ctx, st->len, true, &st->buf);
	if (err)
		goto fail;
	if (kind == LAT_RAND)
		st->p = mem_chain_thrash(st->buf, range, stride, pg);
	else
		st->p = mem_chain_stride(st->buf, range, stride);
	/* one lap: caches warm for the small ranges */
	st->p = mem_chase(st->p, range / stride / MEM_CHASE_UNROLL + 1);
	ctx->ops_per_iter = MEM_CHASE_UNROLL;
	mem_fmt_size(rs, sizeof(rs), range);
	mem_fmt_size(ls, sizeof(ls), lvl);
	snprintf(ctx->params, sizeof(ctx->params),
		 "%s range, stride %zu, %s, %zu KiB pages (%s %s from %s)",
		 rs, stride,
		 kind == LAT_RAND ? "a different random page every load" :
				    "forward",
		 pg / KiB, what[kind], ls, mem_caches_source(&c));
	return 0;
fail:
	lat_teardown(ctx);
	return err;
}

/* run(), not op(): the chase keeps its pointer in a register across
 * iterations of a few ns; a call per iteration would be measured. */
static int lat_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct lat *st = ctx->priv;

	st->p = mem_chase(st->p, iters);
	return 0;
}

/* ---- mem-curve: lat_mem_rd's size x stride curve ---- */

struct curve_series {
	const char *pattern;	/* "stride" (lat_mem_rd) or "random" */
	size_t stride;
};

static const struct curve_series curve_series[] = {
	{ "stride", 64 },
	{ "stride", 128 },
	{ "random", 64 },	/* last: run() chases it at the largest size */
};

#define CURVE_MAX_SIZES 128

/* Sizes from 4 KiB to max, four per octave (x1, x1.25, x1.5, x1.75). */
static size_t curve_sizes(size_t max, size_t *v)
{
	size_t n = 0, oct, q;

	for (oct = 4 * KiB; oct <= max && n + 5 < CURVE_MAX_SIZES; oct *= 2)
		for (q = 4; q < 8; q++)
			if (oct / 4 * q <= max)
				v[n++] = oct / 4 * q;
	if (n && v[n - 1] != max)
		v[n++] = max;
	return n;
}

/* One point: warm up, then the best of two timed chases. */
static double curve_point(char *buf, size_t range, const struct curve_series *cs,
			  size_t pg, void **end)
{
	size_t nodes = range / cs->stride;
	void *p = !strcmp(cs->pattern, "random") ?
		  mem_chain_window(buf, range, cs->stride, pg) :
		  mem_chain_stride(buf, range, cs->stride);
	double t, best = 0;
	int r;

	if (nodes < 1)
		nodes = 1;
	mem_time_chase(&p, nodes < 32768 ? nodes : 32768);
	for (r = 0; r < 2; r++) {
		t = mem_time_chase(&p, nodes < 16384 ? 16384 :
				   nodes > 65536 ? 65536 : nodes);
		if (r == 0 || t < best)
			best = t;
	}
	*end = p;
	return best;
}

static json_t *curve_caches_json(const struct mem_caches *c)
{
	return json_pack("{s:I,s:I,s:I,s:i,s:I,s:s}",
			 "l1d", (json_int_t)c->l1d, "l2", (json_int_t)c->l2,
			 "llc", (json_int_t)c->llc, "llc_level", c->llc_level,
			 "line", (json_int_t)c->line,
			 "source", mem_caches_source(c));
}

static int curve_setup(struct pm_ctx *ctx)
{
	size_t pg = mem_pagesize(), sizes[CURVE_MAX_SIZES], n, i, s, nlv;
	size_t nser = PM_ARRAY_SIZE(curve_series), pos;
	double rnd[CURVE_MAX_SIZES], mem_ns;
	struct mem_level lv[MEM_MAX_LEVELS];
	struct lat *st = lat_new(ctx);
	json_t *curve, *levels, *d;
	struct mem_caches c;
	char ms[32], steps[160];
	int err;

	err = mem_caches(ctx, &c);
	if (err)
		goto fail;
	st->len = mem_big(&c);
	err = mem_map(ctx, st->len, true, &st->buf);
	if (err)
		goto fail;
	n = curve_sizes(st->len, sizes);
	curve = json_array();
	for (s = 0; s < nser; s++) {
		const struct curve_series *cs = &curve_series[s];

		for (i = 0; i < n; i++) {
			double ns = curve_point(st->buf, sizes[i], cs, pg,
						&st->p);

			if (s == nser - 1)
				rnd[i] = ns;
			json_array_append_new(curve, json_pack(
				"{s:I,s:I,s:s,s:f}", "size", (json_int_t)sizes[i],
				"stride", (json_int_t)cs->stride,
				"pattern", cs->pattern, "ns", ns));
		}
	}
	/* st->p is now on the random chain over the whole buffer */
	nlv = mem_find_levels(sizes, rnd, n, lv, MEM_MAX_LEVELS, &mem_ns);
	levels = json_array();
	steps[0] = '\0';
	for (i = 0, pos = 0; i < nlv; i++) {
		char sz[32];

		json_array_append_new(levels, json_pack("{s:i,s:I,s:f}",
			"level", (int)i + 1, "size", (json_int_t)lv[i].size,
			"ns", lv[i].ns));
		mem_fmt_size(sz, sizeof(sz), lv[i].size);
		if (pos < sizeof(steps))
			pos += (size_t)snprintf(steps + pos, sizeof(steps) - pos,
						"%s%s", i ? ", " : "", sz);
	}
	d = json_object();
	json_object_set_new(d, "curve", curve);
	json_object_set_new(d, "levels", levels);
	json_object_set_new(d, "memory_ns", json_real(mem_ns));
	json_object_set_new(d, "caches", curve_caches_json(&c));
	json_object_set_new(d, "page_size", json_integer((json_int_t)pg));
	json_object_set_new(d, "levels_from", json_string("random, stride 64"));
	ctx->detail = d;
	ctx->ops_per_iter = MEM_CHASE_UNROLL;
	mem_fmt_size(ms, sizeof(ms), st->len);
	snprintf(ctx->params, sizeof(ctx->params),
		 "%zu sizes 4 KiB-%s, strides 64 and 128 forward, 64 random; "
		 "levels up to %s; figure: random loads over %s",
		 n, ms, nlv ? steps : "none found", ms);
	return 0;
fail:
	lat_teardown(ctx);
	return err;
}

/* ---- tlb-pages: lmbench's tlb ---- */

/*
 * A chain through N pages, one word per page (at a different word slot
 * in each page, from a random permutation of the slots, so that no
 * cache set gets more lines than it has ways), pages in random order;
 * and a chain through N words packed into as few pages as possible.
 * Both are cache hits; the first also needs N TLB entries.  The TLB
 * holds the largest N for which the first is less than 1.25x slower.
 */
#define TLB_MAXPAGES 16384
#define TLB_RATIO 1.25

static int tlb_setup(struct pm_ctx *ctx)
{
	size_t pg = mem_pagesize();
	struct lat *st = lat_new(ctx);
	int err;

	st->maxpages = TLB_MAXPAGES;
	st->len = st->maxpages * pg;
	st->clen = (st->maxpages * sizeof(void *) + pg - 1) / pg * pg;
	err = mem_map(ctx, st->len, true, &st->buf);
	if (!err)
		err = mem_map(ctx, st->clen, true, &st->cbuf);
	if (err) {
		lat_teardown(ctx);
		return err;
	}
	snprintf(ctx->params, sizeof(ctx->params),
		 "one word per %zu KiB page, pages in random order, vs. the "
		 "same number of words in few pages; TLB full at %.2fx",
		 pg / KiB, TLB_RATIO);
	return 0;
}

/* ns per load through n pages (*tlb) and through n packed words (*cache). */
static void tlb_point(struct lat *st, size_t n, double *tlb, double *cache)
{
	size_t pg = mem_pagesize(), nw = pg / sizeof(void *), i;
	uint64_t seed = MEM_SEED ^ n;
	uint32_t *words = mem_perm(nw, &seed), *pages = mem_perm(n, &seed);
	uint32_t *slots = mem_perm(n, &seed);
	size_t loads = 3 * n < 20000 ? 20000 : 3 * n;
	void *pt, *pc;
	int r;

	for (i = 0; i < n; i++) {
		size_t j = (i + 1) % n;

		mem_link(st->buf + (size_t)pages[i] * pg + words[i % nw] * sizeof(void *),
			 st->buf + (size_t)pages[j] * pg + words[j % nw] * sizeof(void *));
		mem_link(st->cbuf + (size_t)slots[i] * sizeof(void *),
			 st->cbuf + (size_t)slots[j] * sizeof(void *));
	}
	pt = st->buf + (size_t)pages[0] * pg + words[0] * sizeof(void *);
	pc = st->cbuf + (size_t)slots[0] * sizeof(void *);
	free(words);
	free(pages);
	free(slots);
	mem_time_chase(&pt, n);
	mem_time_chase(&pc, n);
	for (r = 0; r < 9; r++) {
		double t = mem_time_chase(&pt, loads);
		double c = mem_time_chase(&pc, loads);

		if (r == 0 || t < *tlb)
			*tlb = t;
		if (r == 0 || c < *cache)
			*cache = c;
	}
}

static bool tlb_full(struct lat *st, size_t n, json_t *points)
{
	double t = 0, c = 0;

	tlb_point(st, n, &t, &c);
	if (points)
		json_array_append_new(points, json_pack("{s:I,s:f,s:f,s:f}",
			"pages", (json_int_t)n, "tlb_ns", t, "cache_ns", c,
			"ratio", c > 0 ? t / c : 0.0));
	return c > 0 && t / c > TLB_RATIO;
}

static int tlb_measure(struct pm_ctx *ctx, double *value)
{
	struct lat *st = ctx->priv;
	size_t good = 1, bad = 0, n;
	json_t *points = json_array();

	/* doubling to the first full size, then bisection (lmbench steps
	 * one page at a time there) */
	for (n = 2; n <= st->maxpages; n *= 2) {
		if (tlb_full(st, n, points)) {
			bad = n;
			break;
		}
		good = n;
	}
	if (!bad) {
		json_decref(points);
		return pm_bench_why(ctx, -ENOENT,
			       "no TLB effect found up to %zu pages",
			       st->maxpages);
	}
	while (bad - good > 1) {
		n = good + (bad - good) / 2;
		if (tlb_full(st, n, points))
			bad = n;
		else
			good = n;
	}
	/* the detail: the first measurement, with the rest of the doubling
	 * curve (where further TLB levels may show) */
	if (!ctx->detail) {
		for (n = bad * 2; n <= st->maxpages; n *= 2)
			tlb_full(st, n, points);
		ctx->detail = json_pack("{s:o,s:I}", "points", points,
					"tlb_pages", (json_int_t)good);
	} else {
		json_decref(points);
	}
	*value = (double)good;
	return 0;
}

/* ---- cache-line: lmbench's line ---- */

/*
 * For strides of 8 bytes to 1/16 page, a chain that visits every
 * stride-th byte of a page in bit-reversed order before going on to
 * another page (in random order, pages far beyond the caches).  Below
 * the line size, several loads share a line; from the line size on,
 * every load is a miss and the time stops growing: lmbench reports the
 * stride before the time stops growing after a big jump (1.3x up, then
 * less than 1.15x).  Every stride has its own pages, each chase goes on
 * where the last one stopped, so the lines are always cold.
 */
#define LINE_PAGES_PER_RUN 128

static int line_setup(struct pm_ctx *ctx)
{
	size_t pg = mem_pagesize(), g, k, a, n;
	struct lat *st = lat_new(ctx);
	struct mem_caches c;
	uint64_t seed = MEM_SEED;
	char sz[32];
	int err;

	err = mem_caches(ctx, &c);
	if (err)
		goto fail;
	for (st->nstrides = 0; (8u << st->nstrides) <= pg / 16 &&
	     st->nstrides < PM_ARRAY_SIZE(st->lines); st->nstrides++)
		;
	st->len = mem_big(&c);
	err = mem_map(ctx, st->len, true, &st->buf);
	if (err)
		goto fail;
	n = st->len / pg;
	for (g = 0; g < st->nstrides; g++) {
		size_t stride = (size_t)8 << g, nl = pg / stride;
		size_t cnt = (n - g + st->nstrides - 1) / st->nstrides;
		unsigned bits = mem_log2(nl);
		uint32_t *order = mem_perm(cnt, &seed);

		for (a = 0; a < cnt; a++) {
			char *page = st->buf + (g + (size_t)order[a] * st->nstrides) * pg;
			char *next = st->buf + (g + (size_t)order[(a + 1) % cnt] *
						st->nstrides) * pg;

			for (k = 0; k + 1 < nl; k++)
				mem_link(page + mem_bitrev(k, bits) * stride,
					 page + mem_bitrev(k + 1, bits) * stride);
			mem_link(page + mem_bitrev(nl - 1, bits) * stride, next);
		}
		st->lines[g] = st->buf + (g + (size_t)order[0] * st->nstrides) * pg;
		free(order);
	}
	mem_fmt_size(sz, sizeof(sz), st->len);
	snprintf(ctx->params, sizeof(ctx->params),
		 "strides 8-%zu bytes over %s, %zu KiB pages (sysfs says "
		 "%zu bytes)", (size_t)8 << (st->nstrides - 1), sz, pg / KiB,
		 c.line);
	return 0;
fail:
	lat_teardown(ctx);
	return err;
}

static int line_measure(struct pm_ctx *ctx, double *value)
{
	struct lat *st = ctx->priv;
	size_t pg = mem_pagesize(), g, line = 0;
	double t[PM_ARRAY_SIZE(st->lines)];
	json_t *points;
	int attempt, r;

	/* the fastest of every chase so far: a busy or instrumented (ASan)
	 * run blurs the jump, and more tries sharpen the minimum */
	for (g = 0; g < st->nstrides; g++)
		t[g] = INFINITY;
	for (attempt = 0; attempt < 6 && !line; attempt++) {
		bool jump = false;

		for (g = 0; g < st->nstrides; g++) {
			size_t stride = (size_t)8 << g;

			for (r = 0; r < 3; r++) {
				double x = mem_time_chase(&st->lines[g],
					LINE_PAGES_PER_RUN * (pg / stride));

				if (x < t[g])
					t[g] = x;
			}
		}
		for (g = 1; g < st->nstrides && !line; g++) {
			if (t[g] > 1.3 * t[g - 1])
				jump = true;
			else if (jump && t[g] < 1.15 * t[g - 1])
				line = (size_t)8 << (g - 1);
		}
	}
	points = json_array();
	for (g = 0; g < st->nstrides; g++)
		json_array_append_new(points, json_pack("{s:I,s:f}", "stride",
			(json_int_t)8 << g, "ns", t[g]));
	json_decref(ctx->detail);
	ctx->detail = json_pack("{s:o,s:I}", "points", points, "line",
				(json_int_t)line);
	if (!line)
		return pm_bench_why(ctx, -ENOENT, "no line size found: the load time "
			       "never stopped growing with the stride");
	*value = (double)line;
	return 0;
}

/* ---- mem-par: lmbench's par_mem ---- */

/*
 * One chain through every line of a buffer beyond the caches: the lines
 * of a page in bit-reversed order, then the next page, pages in random
 * order (lmbench's mem_initialize).  W chases of consecutive pieces of
 * it run interleaved; the parallelism is the best ratio of the time per
 * load of one chase to that of W chases, W = 1..16.  Every measurement
 * goes on along the chain, so the lines are cold.
 */
#define PAR_MAX 16
#define PAR_LOADS 16384

#define PAR_R1(m) m(0)
#define PAR_R2(m) PAR_R1(m) m(1)
#define PAR_R3(m) PAR_R2(m) m(2)
#define PAR_R4(m) PAR_R3(m) m(3)
#define PAR_R5(m) PAR_R4(m) m(4)
#define PAR_R6(m) PAR_R5(m) m(5)
#define PAR_R7(m) PAR_R6(m) m(6)
#define PAR_R8(m) PAR_R7(m) m(7)
#define PAR_R9(m) PAR_R8(m) m(8)
#define PAR_R10(m) PAR_R9(m) m(9)
#define PAR_R11(m) PAR_R10(m) m(10)
#define PAR_R12(m) PAR_R11(m) m(11)
#define PAR_R13(m) PAR_R12(m) m(12)
#define PAR_R14(m) PAR_R13(m) m(13)
#define PAR_R15(m) PAR_R14(m) m(14)
#define PAR_R16(m) PAR_R15(m) m(15)
#define PAR_DECL(j) void *p##j = v[j];
#define PAR_STEP(j) p##j = *(void *const *)p##j;
#define PAR_SAVE(j) v[j] = p##j;
#define PAR_FN(w)							\
	static void par_chase_##w(void **v, uint64_t rounds)		\
	{								\
		PAR_R##w(PAR_DECL)					\
		while (rounds--) {					\
			PAR_R##w(PAR_STEP)				\
		}							\
		PAR_R##w(PAR_SAVE)					\
	}

PAR_FN(1) PAR_FN(2) PAR_FN(3) PAR_FN(4) PAR_FN(5) PAR_FN(6) PAR_FN(7)
PAR_FN(8) PAR_FN(9) PAR_FN(10) PAR_FN(11) PAR_FN(12) PAR_FN(13)
PAR_FN(14) PAR_FN(15) PAR_FN(16)

static void (*const par_chase[PAR_MAX + 1])(void **, uint64_t) = {
	NULL, par_chase_1, par_chase_2, par_chase_3, par_chase_4,
	par_chase_5, par_chase_6, par_chase_7, par_chase_8, par_chase_9,
	par_chase_10, par_chase_11, par_chase_12, par_chase_13,
	par_chase_14, par_chase_15, par_chase_16,
};

/* Address of the k-th line of the chain. */
static char *par_addr(const struct lat *st, size_t k)
{
	size_t pg = mem_pagesize(), lpp = pg / st->line;

	k %= st->npages * lpp;
	return st->buf + (size_t)st->pages[k / lpp] * pg +
	       mem_bitrev(k % lpp, mem_log2(lpp)) * st->line;
}

static int par_setup(struct pm_ctx *ctx)
{
	size_t pg = mem_pagesize(), k, n;
	struct lat *st = lat_new(ctx);
	struct mem_caches c;
	uint64_t seed = MEM_SEED;
	char sz[32];
	int err;

	err = mem_caches(ctx, &c);
	if (err)
		goto fail;
	st->line = c.line >= sizeof(void *) && c.line <= pg / 2 &&
		   !(c.line & (c.line - 1)) ? c.line : 64;
	st->len = mem_big(&c);
	err = mem_map(ctx, st->len, true, &st->buf);
	if (err)
		goto fail;
	st->npages = st->len / pg;
	st->pages = mem_perm(st->npages, &seed);
	n = st->npages * (pg / st->line);
	for (k = 0; k < n; k++)
		mem_link(par_addr(st, k), par_addr(st, k + 1));
	mem_fmt_size(sz, sizeof(sz), st->len);
	snprintf(ctx->params, sizeof(ctx->params),
		 "1-%d interleaved chases over %s, %zu-byte lines, %zu KiB "
		 "pages", PAR_MAX, sz, st->line, pg / KiB);
	return 0;
fail:
	lat_teardown(ctx);
	return err;
}

/* ns per load of w interleaved chases over fresh parts of the chain. */
static double par_time(struct lat *st, size_t w)
{
	void *v[PAR_MAX];
	uint64_t rounds = PAR_LOADS / w, t0, t1;
	size_t j;

	for (j = 0; j < w; j++)
		v[j] = par_addr(st, st->cursor + j * rounds);
	st->cursor += w * rounds;
	t0 = pm_now_ns();
	par_chase[w](v, rounds);
	t1 = pm_now_ns();
	return (double)(t1 - t0) / (double)(rounds * w);
}

static int par_measure(struct pm_ctx *ctx, double *value)
{
	struct lat *st = ctx->priv;
	double t[PAR_MAX + 1], best = 1;
	json_t *points = json_array();
	size_t w;
	int r;

	for (w = 1; w <= PAR_MAX; w++) {
		for (r = 0; r < 2; r++) {
			double x = par_time(st, w);

			if (r == 0 || x < t[w])
				t[w] = x;
		}
		if (t[w] > 0 && t[1] / t[w] > best)
			best = t[1] / t[w];
		json_array_append_new(points, json_pack("{s:I,s:f,s:f}",
			"chases", (json_int_t)w, "ns", t[w],
			"par", t[w] > 0 ? t[1] / t[w] : 0.0));
	}
	json_decref(ctx->detail);
	ctx->detail = json_pack("{s:o,s:f}", "points", points, "mem_par", best);
	*value = best;
	return 0;
}

/* ---- the table ---- */

static const struct pm_bench mem_benches[] = {
	{
		.name = "bw-bcopy-libc",
		.group = "mem",
		.summary = "memcpy() of a buffer beyond the caches",
		.unit = "MB/s",
		.lmbench = "bw: Bcopy (libc)",
		.setup = bw_setup,
		.arg = &(const bool){ true },
		PM_OP_HOOKS(bw_libc_op),
		.teardown = bw_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "bw-bcopy-hand",
		.group = "mem",
		.summary = "unrolled copy of a buffer beyond the caches, word "
			   "by word",
		.unit = "MB/s",
		.lmbench = "bw: Bcopy (hand)",
		.setup = bw_setup,
		.arg = &(const bool){ true },
		PM_OP_HOOKS(bw_hand_op),
		.teardown = bw_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "bw-mem-read",
		.group = "mem",
		.summary = "sum of a buffer beyond the caches, word by word",
		.unit = "MB/s",
		.lmbench = "bw: Mem read",
		.setup = bw_setup,
		.arg = &(const bool){ false },
		PM_OP_HOOKS(bw_read_op),
		.teardown = bw_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "bw-mem-write",
		.group = "mem",
		.summary = "write of a buffer beyond the caches, word by word",
		.unit = "MB/s",
		.lmbench = "bw: Mem write",
		.setup = bw_setup,
		.arg = &(const bool){ false },
		PM_OP_HOOKS(bw_write_op),
		.teardown = bw_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "lat-l1",
		.group = "mem",
		.summary = "dependent load, stride 128, in half the L1 data cache",
		.unit = "ns",
		.lmbench = "mem: L1 $",
		.setup = lat_setup,
		.arg = &(const enum lat_kind){ LAT_L1 },
		.run = lat_run,
		.teardown = lat_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "lat-l2",
		.group = "mem",
		.summary = "dependent load, stride 128, in half the L2 cache",
		.unit = "ns",
		.lmbench = "mem: L2 $",
		.setup = lat_setup,
		.arg = &(const enum lat_kind){ LAT_L2 },
		.run = lat_run,
		.teardown = lat_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "lat-mem",
		.group = "mem",
		.summary = "dependent load, stride 128 forward, far beyond the "
			   "caches",
		.unit = "ns",
		.lmbench = "mem: Main mem",
		.setup = lat_setup,
		.arg = &(const enum lat_kind){ LAT_MEM },
		.run = lat_run,
		.teardown = lat_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "lat-rand",
		.group = "mem",
		.summary = "dependent load on a random page far beyond the "
			   "caches",
		.unit = "ns",
		.lmbench = "mem: Rand mem",
		.setup = lat_setup,
		.arg = &(const enum lat_kind){ LAT_RAND },
		.run = lat_run,
		.teardown = lat_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "mem-curve",
		.group = "mem",
		.summary = "lat_mem_rd size x stride curve (in the detail); "
			   "figure: random dependent load in memory",
		.unit = "ns",
		.setup = curve_setup,
		.run = lat_run,
		.teardown = lat_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "tlb-pages",
		.group = "mem",
		.summary = "pages the TLB holds: one load per page, pages "
			   "swept until loads slow down",
		.unit = "pages",
		.lmbench = "basic: tlb pages",
		.setup = tlb_setup,
		.measure = tlb_measure,
		.teardown = lat_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "cache-line",
		.group = "mem",
		.summary = "cache line size: the stride from which every load "
			   "misses",
		.unit = "bytes",
		.lmbench = "basic: cache line bytes",
		.setup = line_setup,
		.measure = line_measure,
		.teardown = lat_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
	{
		.name = "mem-par",
		.group = "mem",
		.summary = "memory load parallelism: speed-up of up to 16 "
			   "interleaved pointer chases",
		.unit = "x",
		.lmbench = "basic: mem par",
		.setup = par_setup,
		.measure = par_measure,
		.teardown = lat_teardown,
		.flags = PM_MEM,
		.exercises = PM_EX_MEMORY,
	},
};

PM_FAMILY(mem, "memory bandwidth and latency, caches and TLB", mem_benches);
