/*
 * The counting of pmbench-tcg.so apart from QEMU (tcg-count.h): blocks,
 * windows, the kernel profile by address and the i-cache model.  libc
 * only: it is built into a plugin QEMU loads, and into a unit test.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "ab/tcg-count.h"
#define PM_MARKER_ABI_ONLY
#include "bench/marker.h"

#define CHUNK_SHIFT 12
#define CHUNK (1u << CHUNK_SHIFT)

const char *const pm_tc_branch_names[PM_TC_NBR] = {
	[PM_TC_BR_NONE] = "none",
	[PM_TC_BR_COND] = "conditional",
	[PM_TC_BR_JUMP] = "jump",
	[PM_TC_BR_IJUMP] = "indirect_jump",
	[PM_TC_BR_CALL] = "call",
	[PM_TC_BR_ICALL] = "indirect_call",
	[PM_TC_BR_RET] = "return",
	[PM_TC_BR_FAR] = "far",
};

struct window {
	uint32_t id;
	uint64_t c[2][PM_TC_FIELDS];	/* [kernel][field] */
};

struct prof {
	uint64_t vaddr, insns;
	uint32_t id, used;	/* id | PROF_REPEAT: rep string iterations */
};

#define PROF_REPEAT (1u << 31)

/* One vCPU's L1i: tags (line number + 1, 0 empty) and LRU stamps. */
struct cache {
	uint64_t *tag, *stamp, clock;
};

struct pm_tc {
	struct pm_tc_block **chunks;
	size_t nblocks, nchunks;
	uint32_t *slots;		/* block index + 1, 0 empty */
	size_t nslots;
	struct window *win;
	size_t nwin, capwin;
	struct prof *prof;
	size_t nprof, capprof;
	bool open;
	uint32_t open_id;
	uint64_t dropped;
	bool nomem;
	/* the i-cache model */
	bool icache;			/* asked for */
	unsigned nvcpus;
	unsigned cfg[PM_MARKER_NFIELDS];	/* as the guest gave them, 0 unknown */
	struct cache *cache;		/* nvcpus of them once configured */
	unsigned sets, ways, shift;
	char icache_off[96];
	uint64_t miss[2], miss0[2];
	/* for the output */
	char version[64];
	int api_min, api_cur;
};

/* Past the legacy prefixes (rep, notrack, bnd, segments, sizes) and REX:
 * the opcode's index; *rep whether a rep prefix was among them. */
static size_t skip_prefixes(const unsigned char *p, size_t len, bool *rep)
{
	size_t i = 0;

	*rep = false;
	while (i < len && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xf0 || p[i] == 0xf2 ||
			   p[i] == 0xf3 || p[i] == 0x2e || p[i] == 0x3e || p[i] == 0x26 ||
			   p[i] == 0x36 || p[i] == 0x64 || p[i] == 0x65)) {
		*rep = *rep || p[i] == 0xf2 || p[i] == 0xf3;
		i++;
	}
	if (i < len && (p[i] & 0xf0) == 0x40)
		i++;
	return i;
}

bool pm_tc_is_rep_string(const unsigned char *p, size_t len)
{
	bool rep;
	size_t i = p ? skip_prefixes(p, len, &rep) : len;

	/* ins, outs, movs, cmps, stos, lods, scas */
	return i < len && rep && ((p[i] >= 0x6c && p[i] <= 0x6f) ||
				  (p[i] >= 0xa4 && p[i] <= 0xa7) || (p[i] >= 0xaa && p[i] <= 0xaf));
}

enum pm_tc_branch pm_tc_classify(const unsigned char *p, size_t len)
{
	bool rep;
	size_t i = p ? skip_prefixes(p, len, &rep) : len;
	unsigned char op;

	if (i >= len)
		return PM_TC_BR_NONE;
	op = p[i];
	if ((op >= 0x70 && op <= 0x7f) || (op >= 0xe0 && op <= 0xe3))
		return PM_TC_BR_COND;
	switch (op) {
	case 0xe8:
		return PM_TC_BR_CALL;
	case 0xe9:
	case 0xeb:
		return PM_TC_BR_JUMP;
	case 0xc2:
	case 0xc3:
		return PM_TC_BR_RET;
	case 0x9a:
	case 0xca:
	case 0xcb:
	case 0xcc:
	case 0xcd:
	case 0xce:
	case 0xcf:
	case 0xea:
		return PM_TC_BR_FAR;
	case 0xff:
		if (i + 1 >= len)
			return PM_TC_BR_NONE;
		switch ((p[i + 1] >> 3) & 7) {
		case 2:
			return PM_TC_BR_ICALL;
		case 4:
			return PM_TC_BR_IJUMP;
		case 3:
		case 5:
			return PM_TC_BR_FAR;
		default:
			return PM_TC_BR_NONE;
		}
	case 0x0f:
		if (i + 1 >= len)
			return PM_TC_BR_NONE;
		op = p[i + 1];
		if (op >= 0x80 && op <= 0x8f)
			return PM_TC_BR_COND;
		/* syscall, sysret, sysenter, sysexit */
		if (op == 0x05 || op == 0x07 || op == 0x34 || op == 0x35)
			return PM_TC_BR_FAR;
		return PM_TC_BR_NONE;
	default:
		return PM_TC_BR_NONE;
	}
}

void pm_tc_code_add(struct pm_tc_code *c, uint64_t addr, uint32_t len)
{
	if (c->n && c->start[c->n - 1] + c->len[c->n - 1] == addr) {
		c->len[c->n - 1] += len;
		return;
	}
	if (c->n == 2) {
		/* a third stretch cannot be: count its bytes with the last */
		c->len[1] += len;
		return;
	}
	c->start[c->n] = addr;
	c->len[c->n++] = len;
}

struct pm_tc *pm_tc_new(unsigned nvcpus, bool icache)
{
	struct pm_tc *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->nvcpus = nvcpus ? nvcpus : 1;
	t->icache = icache;
	snprintf(t->icache_off, sizeof(t->icache_off), "%s",
		 icache ? "no-geometry" : "not-requested");
	return t;
}

void pm_tc_free(struct pm_tc *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nchunks; i++)
		free(t->chunks[i]);
	free(t->chunks);
	free(t->slots);
	free(t->win);
	free(t->prof);
	for (i = 0; t->cache && i < t->nvcpus; i++) {
		free(t->cache[i].tag);
		free(t->cache[i].stamp);
	}
	free(t->cache);
	free(t);
}

static struct pm_tc_block *block_at(const struct pm_tc *t, size_t i)
{
	return &t->chunks[i >> CHUNK_SHIFT][i & (CHUNK - 1)];
}

static uint64_t mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	return x;
}

static uint64_t block_hash(uint64_t vaddr, const struct pm_tc_code *c, unsigned ninsns)
{
	return mix(vaddr ^ mix(c->start[0] + c->len[0]) ^ ((uint64_t)ninsns << 48));
}

static bool block_same(const struct pm_tc_block *b, uint64_t vaddr, const struct pm_tc_code *c,
		       unsigned ninsns, bool kernel, enum pm_tc_branch br, bool repeat)
{
	return b->vaddr == vaddr && b->ninsns == ninsns && b->kernel == kernel &&
	       b->branch == br && b->repeat == repeat && b->code.n == c->n &&
	       b->code.start[0] == c->start[0] &&
	       b->code.len[0] == c->len[0] &&
	       (c->n < 2 || (b->code.start[1] == c->start[1] && b->code.len[1] == c->len[1]));
}

/* The hash of blocks at twice their number. */
static int grow_slots(struct pm_tc *t)
{
	size_t n = t->nslots ? 2 * t->nslots : 4096, i;
	uint32_t *s = calloc(n, sizeof(*s));

	if (!s)
		return -ENOMEM;
	for (i = 0; i < t->nblocks; i++) {
		const struct pm_tc_block *b = block_at(t, i);
		size_t h = (size_t)block_hash(b->vaddr, &b->code, b->ninsns) & (n - 1);

		while (s[h])
			h = (h + 1) & (n - 1);
		s[h] = (uint32_t)i + 1;
	}
	free(t->slots);
	t->slots = s;
	t->nslots = n;
	return 0;
}

/* A new entry at the end; entries never move (QEMU holds their address). */
static struct pm_tc_block *new_block(struct pm_tc *t)
{
	if (t->nblocks == t->nchunks * CHUNK) {
		struct pm_tc_block **c = realloc(t->chunks, (t->nchunks + 1) * sizeof(*c));

		if (!c)
			return NULL;
		t->chunks = c;
		c[t->nchunks] = calloc(CHUNK, sizeof(**c));
		if (!c[t->nchunks])
			return NULL;
		t->nchunks++;
	}
	return block_at(t, t->nblocks++);
}

struct pm_tc_block *pm_tc_block(struct pm_tc *t, uint64_t vaddr, const struct pm_tc_code *code,
				unsigned ninsns, bool kernel, enum pm_tc_branch br, bool repeat)
{
	struct pm_tc_block *b;
	size_t h;

	if (t->nomem)
		return NULL;
	if ((t->nblocks + 1) * 2 > t->nslots && grow_slots(t))
		goto nomem;
	h = (size_t)block_hash(vaddr, code, ninsns) & (t->nslots - 1);
	for (; t->slots[h]; h = (h + 1) & (t->nslots - 1)) {
		b = block_at(t, t->slots[h] - 1);
		if (block_same(b, vaddr, code, ninsns, kernel, br, repeat))
			return b;
	}
	b = new_block(t);
	if (!b)
		goto nomem;
	b->vaddr = vaddr;
	b->code = *code;
	b->ninsns = ninsns;
	b->kernel = kernel;
	b->branch = (uint8_t)br;
	b->repeat = repeat;
	t->slots[h] = (uint32_t)t->nblocks;
	return b;
nomem:
	t->nomem = true;
	return NULL;
}

bool pm_tc_is_marker(uint64_t vaddr, bool kernel, unsigned ninsns,
		     const unsigned char *insn, size_t len, uint32_t *off)
{
	if (kernel || ninsns != 1 || len != 1 || !insn || insn[0] != PM_MARKER_RET ||
	    vaddr < PM_MARKER_BASE || vaddr >= PM_MARKER_BASE + PM_MARKER_SIZE)
		return false;
	*off = (uint32_t)(vaddr - PM_MARKER_BASE);
	return true;
}

/* Kernel instructions of benchmark id at vaddr, added up over windows. */
static int prof_add(struct pm_tc *t, uint32_t id, uint64_t vaddr, uint64_t insns)
{
	size_t h, i;

	if ((t->nprof + 1) * 2 > t->capprof) {
		size_t n = t->capprof ? 2 * t->capprof : 4096;
		struct prof *p = calloc(n, sizeof(*p));

		if (!p)
			return -ENOMEM;
		for (i = 0; i < t->capprof; i++) {
			if (!t->prof[i].used)
				continue;
			h = (size_t)mix(t->prof[i].vaddr ^ t->prof[i].id) & (n - 1);
			while (p[h].used)
				h = (h + 1) & (n - 1);
			p[h] = t->prof[i];
		}
		free(t->prof);
		t->prof = p;
		t->capprof = n;
	}
	h = (size_t)mix(vaddr ^ id) & (t->capprof - 1);
	for (; t->prof[h].used; h = (h + 1) & (t->capprof - 1))
		if (t->prof[h].vaddr == vaddr && t->prof[h].id == id) {
			t->prof[h].insns += insns;
			return 0;
		}
	t->prof[h] = (struct prof){ .vaddr = vaddr, .insns = insns, .id = id, .used = 1 };
	t->nprof++;
	return 0;
}

/* Every block's executions since the last sweep into w (NULL: dropped). */
static void sweep(struct pm_tc *t, struct window *w)
{
	size_t i;

	for (i = 0; i < t->nblocks; i++) {
		struct pm_tc_block *b = block_at(t, i);
		uint64_t n = b->execs, insns;

		if (!n)
			continue;
		b->execs = 0;
		if (!w)
			continue;
		insns = n * b->ninsns;
		w->c[b->kernel][PM_TC_F_INSNS] += insns;
		if (b->branch != PM_TC_BR_NONE)
			w->c[b->kernel][PM_TC_F_BRANCH + b->branch - 1] += n;
		if (b->repeat)
			w->c[b->kernel][PM_TC_F_REPEATS] += n;
		/* a rep string iteration's block apart: the path is the rest */
		if (b->kernel && prof_add(t, w->id | (b->repeat ? PROF_REPEAT : 0), b->vaddr, insns))
			t->nomem = true;
	}
}

static void window_start(struct pm_tc *t, uint32_t id)
{
	if (t->open)
		t->dropped++;
	t->open = true;
	t->open_id = id;
	sweep(t, NULL);
	t->miss0[0] = t->miss[0];
	t->miss0[1] = t->miss[1];
}

static void window_end(struct pm_tc *t, uint32_t id)
{
	struct window *w;
	int k;

	if (!t->open || t->open_id != id) {
		t->dropped++;
		t->open = false;
		return;
	}
	t->open = false;
	if (t->nwin == t->capwin) {
		size_t n = t->capwin ? 2 * t->capwin : 256;
		struct window *v = realloc(t->win, n * sizeof(*v));

		if (!v) {
			t->nomem = true;
			return;
		}
		t->win = v;
		t->capwin = n;
	}
	w = &t->win[t->nwin++];
	memset(w, 0, sizeof(*w));
	w->id = id;
	sweep(t, w);
	for (k = 0; k < 2; k++)
		w->c[k][PM_TC_F_MISSES] = t->miss[k] - t->miss0[k];
}

/* The guest said its L1i geometry: the caches, if they were asked for. */
static void icache_configure(struct pm_tc *t)
{
	unsigned kib = t->cfg[PM_MARKER_L1I_KIB], ways = t->cfg[PM_MARKER_L1I_WAYS];
	unsigned line = t->cfg[PM_MARKER_L1I_LINE], i;
	size_t n;

	if (!t->icache || t->cache)
		return;
	if (!kib || !ways || !line) {
		snprintf(t->icache_off, sizeof(t->icache_off), "no-geometry");
		return;
	}
	if ((line & (line - 1)) || (size_t)kib * 1024 % ((size_t)ways * line)) {
		snprintf(t->icache_off, sizeof(t->icache_off), "bad-geometry %u %u %u", kib,
			 ways, line);
		return;
	}
	t->ways = ways;
	t->sets = (unsigned)((size_t)kib * 1024 / ((size_t)ways * line));
	for (t->shift = 0; (1u << t->shift) < line; t->shift++)
		;
	n = (size_t)t->sets * ways;
	t->cache = calloc(t->nvcpus, sizeof(*t->cache));
	for (i = 0; t->cache && i < t->nvcpus; i++) {
		t->cache[i].tag = calloc(n, sizeof(uint64_t));
		t->cache[i].stamp = calloc(n, sizeof(uint64_t));
		if (!t->cache[i].tag || !t->cache[i].stamp)
			break;
	}
	if (!t->cache || i < t->nvcpus) {
		snprintf(t->icache_off, sizeof(t->icache_off), "no-memory");
		for (i = 0; t->cache && i < t->nvcpus; i++) {
			free(t->cache[i].tag);
			free(t->cache[i].stamp);
		}
		free(t->cache);
		t->cache = NULL;
		return;
	}
	t->icache_off[0] = '\0';
}

void pm_tc_mark(struct pm_tc *t, uint32_t off)
{
	unsigned field, value;

	if (off < PM_MARKER_CONFIG) {
		if (off & 1)
			window_end(t, off / 2);
		else
			window_start(t, off / 2);
		return;
	}
	field = (off - PM_MARKER_CONFIG) / PM_MARKER_FIELD;
	value = (off - PM_MARKER_CONFIG) % PM_MARKER_FIELD;
	if (field == PM_MARKER_CONFIG_DONE)
		icache_configure(t);
	else if (field < PM_MARKER_NFIELDS)
		t->cfg[field] = value;
}

static void cache_access(struct pm_tc *t, struct cache *c, uint64_t line, bool kernel)
{
	size_t base = (size_t)(line % t->sets) * t->ways, i, lru = base;

	for (i = base; i < base + t->ways; i++)
		if (c->tag[i] == line + 1) {
			c->stamp[i] = ++c->clock;
			return;
		}
	for (i = base + 1; i < base + t->ways; i++)
		if (c->stamp[i] < c->stamp[lru])
			lru = i;
	c->tag[lru] = line + 1;
	c->stamp[lru] = ++c->clock;
	t->miss[kernel]++;
}

void pm_tc_fetch(struct pm_tc *t, unsigned vcpu, const struct pm_tc_block *b)
{
	struct cache *c;
	unsigned r;

	if (!t->cache || vcpu >= t->nvcpus)
		return;
	c = &t->cache[vcpu];
	for (r = 0; r < b->code.n; r++) {
		uint64_t l = b->code.start[r] >> t->shift;
		uint64_t last = (b->code.start[r] + (b->code.len[r] ? b->code.len[r] : 1) - 1) >>
				t->shift;

		for (; l <= last; l++)
			cache_access(t, c, l, b->kernel);
	}
}

void pm_tc_set_info(struct pm_tc *t, const char *version, int api_min, int api_cur)
{
	snprintf(t->version, sizeof(t->version), "%s", version ? version : "unknown");
	t->api_min = api_min;
	t->api_cur = api_cur;
}

const char *pm_tc_icache_off(const struct pm_tc *t)
{
	return t->icache_off[0] ? t->icache_off : NULL;
}

size_t pm_tc_nwindows(const struct pm_tc *t)
{
	return t->nwin;
}

size_t pm_tc_nblocks(const struct pm_tc *t)
{
	return t->nblocks;
}

int pm_tc_write(const struct pm_tc *t, FILE *f)
{
	size_t i;
	int k, j;

	fprintf(f, "%s\nplugin %s\napi %d %d\nvcpus %u\n", PM_TC_FORMAT, t->version,
		t->api_min, t->api_cur, t->nvcpus);
	if (t->cache)
		fprintf(f, "icache %u %u %u\n", t->cfg[PM_MARKER_L1I_KIB],
			t->cfg[PM_MARKER_L1I_WAYS], t->cfg[PM_MARKER_L1I_LINE]);
	else
		fprintf(f, "icache off %s\n", t->icache_off);
	if (t->nomem)
		fputs("error out-of-memory\n", f);
	for (i = 0; i < t->nwin; i++) {
		fprintf(f, "w %" PRIu32, t->win[i].id);
		for (k = 0; k < 2; k++)
			for (j = 0; j < PM_TC_FIELDS; j++)
				fprintf(f, " %" PRIu64, t->win[i].c[k][j]);
		fputc('\n', f);
	}
	for (i = 0; i < t->capprof; i++)
		if (t->prof[i].used)
			fprintf(f, "%c %" PRIu32 " %#" PRIx64 " %" PRIu64 "\n",
				t->prof[i].id & PROF_REPEAT ? 'r' : 'p', t->prof[i].id & ~PROF_REPEAT,
				t->prof[i].vaddr, t->prof[i].insns);
	fprintf(f, "dropped %" PRIu64 "\nend\n", t->dropped);
	return ferror(f) ? -EIO : 0;
}
