/*
 * The sampler: perf_event_open in sampling mode and the mmap ring buffer.
 *
 * The period is fixed, never frequency mode: the kernel adapts a
 * frequency per event, and an inherited event in a child that lives a
 * few tens of microseconds never leaves its initial huge period, so a
 * fork loop's children would go unsampled (measured: 9 samples in
 * frequency mode against 4,000 with a fixed period).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <unistd.h>

#include "counters/counters.h"
#include "sample/sampler.h"
#include "sample/unwind.h"

#define RING_PAGES 256		/* data pages per buffer (1 MiB), halved while
				   perf_event_mlock_kb refuses it */
#define SIDEBAND_PAGES 8	/* per CPU, for the few KSYMBOL/BPF_EVENT records */

/* PERF_RECORD_KSYMBOL and PERF_RECORD_BPF_EVENT: Linux 5.1 headers */
#ifdef PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER
#define HAVE_KSYMBOL 1
#endif

struct ring {
	int fd;
	void *base;		/* header page + data */
	size_t data_size;
	bool sideband;		/* CPU-wide, KSYMBOL/BPF_EVENT only, always enabled */
};

struct pm_sampler {
	struct ring *rings;
	int n;
	uint64_t sample_type;
	uint64_t regs_mask;
	uint64_t period;
	const char *event;
	const char *period_unit;
	char *kernel_unavailable;
	size_t page;
};

static void fill_attr(struct perf_event_attr *a, const struct pm_sampler_opts *o,
		      uint64_t sample_type, uint64_t regs_mask)
{
	a->size = sizeof(*a);
	a->sample_type = sample_type;
	a->disabled = 1;
	a->inherit = o->inherit;
	a->mmap = 1;
	a->mmap2 = 1;
	a->comm = 1;
	a->comm_exec = 1;
	a->task = 1;
	a->sample_id_all = 1;
	a->exclude_hv = 1;
	a->exclude_kernel = !o->kernel;
	a->exclude_guest = 1;
#ifdef HAVE_KSYMBOL
	/* BPF JIT images and trampolines, named as they come and go */
	a->ksymbol = 1;
	a->bpf_event = 1;
#endif
	if (o->dwarf) {
		/* the stack copy replaces frame-pointer walking in user space */
		a->exclude_callchain_user = 1;
		a->sample_regs_user = regs_mask;
		a->sample_stack_user = o->stack_bytes;
	}
}

static int open_one(struct perf_event_attr *a, pid_t pid, int cpu)
{
	return pm_perf_event_open(a, pid, cpu, -1, 0);
}

static bool wants_ksymbols(const struct perf_event_attr *a)
{
#ifdef HAVE_KSYMBOL
	return a->ksymbol;
#else
	(void)a;
	return false;
#endif
}

/* Map r's buffer, halving from pages while perf_event_mlock_kb refuses. */
static int map_ring(struct pm_sampler *s, struct ring *r, size_t pages, struct pm_err *e)
{
	for (;; pages /= 2) {
		r->data_size = pages * s->page;
		r->base = mmap(NULL, r->data_size + s->page, PROT_READ | PROT_WRITE,
			       MAP_SHARED, r->fd, 0);
		if (r->base != MAP_FAILED || pages <= 8 ||
		    (errno != EPERM && errno != ENOMEM))
			break;
	}
	if (r->base == MAP_FAILED) {
		r->base = NULL;
		return pm_err_set(e, -errno, "cannot map the sample buffer: %s "
				  "(perf_event_mlock_kb too small?)", strerror(errno));
	}
	return 0;
}

/*
 * KSYMBOL and BPF_EVENT records reach a task's events only for code the
 * task itself loads; a program another process loads while we sample
 * (a daemon, a tracer) is reported to CPU-wide events.  One dummy event
 * per CPU for them, as perf's side-band event; where CPU-wide events
 * are not allowed (perf_event_paranoid, not root) there is none, and
 * programs loaded before the pass are read from bpf(2) or kallsyms.
 */
static void open_sideband(struct pm_sampler *s)
{
#ifdef HAVE_KSYMBOL
	struct perf_event_attr a;
	int ncpu = (int)sysconf(_SC_NPROCESSORS_CONF), cpu, fd;

	memset(&a, 0, sizeof(a));
	a.size = sizeof(a);
	a.type = PERF_TYPE_SOFTWARE;
	a.config = PERF_COUNT_SW_DUMMY;
	a.sample_type = PERF_SAMPLE_TID | PERF_SAMPLE_TIME;	/* the trailer's layout */
	a.sample_id_all = 1;
	a.ksymbol = 1;
	a.bpf_event = 1;
	s->rings = pm_xrealloc(s->rings, (size_t)(s->n + (ncpu > 0 ? ncpu : 0)) *
			       sizeof(*s->rings));
	for (cpu = 0; cpu < ncpu; cpu++) {
		struct ring *r = &s->rings[s->n];

		fd = open_one(&a, -1, cpu);
		if (fd == -ENODEV || fd == -EINVAL)
			continue;	/* offline */
		if (fd < 0)
			return;		/* not allowed: none at all */
		memset(r, 0, sizeof(*r));
		r->fd = fd;
		r->sideband = true;
		if (map_ring(s, r, SIDEBAND_PAGES, NULL)) {
			close(fd);
			return;
		}
		s->n++;
	}
#else
	(void)s;
#endif
}

/* Pick the event: cycles when a PMU counts it here, else cpu-clock. */
static int choose_event(struct pm_sampler *s, const struct pm_sampler_opts *o,
			struct perf_event_attr *a)
{
	long max_rate = 100000;
	unsigned freq = o->freq ? o->freq : 20000;
	long mhz_khz;
	int fd;

	/* Above perf_event_max_sample_rate the kernel throttles us. */
	if (pm_read_long("/proc/sys/kernel/perf_event_max_sample_rate", &max_rate) == 0 &&
	    max_rate > 0 && freq > (unsigned long)max_rate)
		freq = (unsigned)max_rate;
	a->type = PERF_TYPE_HARDWARE;
	a->config = PERF_COUNT_HW_CPU_CYCLES;
	/* cycles per period from the nominal frequency */
	if (pm_read_long("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq", &mhz_khz) != 0)
		mhz_khz = 2000000;
	a->sample_period = (uint64_t)mhz_khz * 1000 / freq;
	fd = open_one(a, 0, -1);
	if (fd >= 0) {
		close(fd);
		s->event = "cycles";
		s->period_unit = "cycles";
		s->period = a->sample_period;
		return 0;
	}
	a->type = PERF_TYPE_SOFTWARE;
	a->config = PERF_COUNT_SW_CPU_CLOCK;
	a->sample_period = 1000000000ull / freq;
	/* cpu-clock's hrtimer does not go below 10 us */
	if (a->sample_period < 10000)
		a->sample_period = 10000;
	s->event = "cpu-clock";
	s->period_unit = "ns";
	s->period = a->sample_period;
	fd = open_one(a, 0, -1);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

int pm_sampler_open(struct pm_sampler **out, const pid_t *pids, int npids,
		    const struct pm_sampler_opts *o, struct pm_err *e)
{
	struct pm_sampler *s = pm_xcalloc(1, sizeof(*s));
	struct perf_event_attr a;
	struct pm_sampler_opts opts = *o;
	int i, err, ncpu;

	s->page = (size_t)sysconf(_SC_PAGESIZE);
	s->sample_type = PERF_SAMPLE_IP | PERF_SAMPLE_TID | PERF_SAMPLE_TIME |
			 PERF_SAMPLE_PERIOD | PERF_SAMPLE_CALLCHAIN;
	if (opts.dwarf) {
		s->sample_type |= PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
		s->regs_mask = pm_unwind_regs_mask();
		if (!opts.stack_bytes)
			opts.stack_bytes = 8192;
		opts.stack_bytes &= ~7u;	/* must be a multiple of 8 */
	}
	memset(&a, 0, sizeof(a));
	fill_attr(&a, &opts, s->sample_type, s->regs_mask);
	err = choose_event(s, &opts, &a);
#ifdef HAVE_KSYMBOL
	if (err == -EINVAL) {
		/* a kernel older than 5.1 knows no ksymbol records */
		a.ksymbol = 0;
		a.bpf_event = 0;
		err = choose_event(s, &opts, &a);
	}
#endif
	if ((err == -EACCES || err == -EPERM) && opts.kernel) {
		long paranoid = 2;

		pm_read_long("/proc/sys/kernel/perf_event_paranoid", &paranoid);
		opts.kernel = false;
		a.exclude_kernel = 1;
		s->kernel_unavailable = pm_xasprintf(
			"perf_event_paranoid=%ld allows user-space sampling only; "
			"run as root or with CAP_PERFMON, or sysctl kernel.perf_event_paranoid=1",
			paranoid);
		err = choose_event(s, &opts, &a);
	} else if (!opts.kernel) {
		s->kernel_unavailable = pm_xstrdup("kernel sampling not requested");
	}
	if (err) {
		pm_err_set(e, err, "cannot sample: perf_event_open: %s", strerror(-err));
		pm_sampler_close(s);
		return err;
	}
	/* The kernel maps no buffer for an inherited per-task event (cpu
	 * -1): children are followed with one event per CPU, as perf does. */
	ncpu = opts.inherit ? (int)sysconf(_SC_NPROCESSORS_CONF) : 1;
	if (ncpu < 1)
		ncpu = 1;
	s->rings = pm_xcalloc((size_t)(npids * ncpu), sizeof(*s->rings));
	for (i = 0; i < npids * ncpu; i++) {
		struct ring *r = &s->rings[s->n];
		int cpu = opts.inherit ? i % ncpu : -1;
		int fd = open_one(&a, pids[i / ncpu], cpu);

		if ((fd == -ENODEV || fd == -EINVAL) && cpu >= 0)
			continue;	/* an offline CPU */
		if (fd < 0) {
			err = pm_err_set(e, fd, "cannot sample pid %d: %s",
					 (int)pids[i / ncpu], strerror(-fd));
			break;
		}
		r->fd = fd;
		s->n++;
		if ((err = map_ring(s, r, RING_PAGES, e)))
			break;
	}
	if (err) {
		pm_sampler_close(s);
		return err;
	}
	if (opts.kernel && wants_ksymbols(&a))
		open_sideband(s);
	*out = s;
	return 0;
}

static int rings_ioctl(struct pm_sampler *s, unsigned long req)
{
	int i;

	for (i = 0; i < s->n; i++)
		if (!s->rings[i].sideband && ioctl(s->rings[i].fd, req, 0) != 0)
			return -errno;
	return 0;
}

int pm_sampler_enable(struct pm_sampler *s)
{
	return rings_ioctl(s, PERF_EVENT_IOC_ENABLE);
}

int pm_sampler_disable(struct pm_sampler *s)
{
	return rings_ioctl(s, PERF_EVENT_IOC_DISABLE);
}

/* Cursor over one record's payload. */
struct cur {
	const uint8_t *p, *end;
	bool bad;
};

static uint64_t take_u64(struct cur *c)
{
	uint64_t v;

	if (c->p + 8 > c->end) {
		c->bad = true;
		return 0;
	}
	memcpy(&v, c->p, 8);
	c->p += 8;
	return v;
}

static const void *take_bytes(struct cur *c, uint64_t n)
{
	const void *p = c->p;

	if (n > (uint64_t)(c->end - c->p)) {
		c->bad = true;
		return NULL;
	}
	c->p += n;
	return p;
}

/* sample_id_all: TID and TIME at the end of non-sample records. */
static void trailer(struct pm_record *r, const uint8_t *end)
{
	uint64_t v[2];

	memcpy(v, end - 16, 16);
	r->pid = (uint32_t)v[0];
	r->tid = (uint32_t)(v[0] >> 32);
	r->time = v[1];
}

static bool parse_sample(const struct pm_sampler *s, struct cur *c,
			 struct pm_record *r)
{
	uint64_t v;

	r->u.sample.ip = take_u64(c);
	v = take_u64(c);
	r->pid = (uint32_t)v;
	r->tid = (uint32_t)(v >> 32);
	r->time = take_u64(c);
	r->u.sample.period = take_u64(c);
	r->u.sample.nchain = take_u64(c);
	r->u.sample.chain = take_bytes(c, r->u.sample.nchain * 8);
	if (s->sample_type & PERF_SAMPLE_REGS_USER) {
		r->u.sample.regs_abi = take_u64(c);
		r->u.sample.regs_mask = s->regs_mask;
		if (r->u.sample.regs_abi)
			r->u.sample.regs = take_bytes(c, 8ull *
				(uint64_t)__builtin_popcountll(s->regs_mask));
	}
	if (s->sample_type & PERF_SAMPLE_STACK_USER) {
		uint64_t size = take_u64(c);

		if (size) {
			r->u.sample.stack = take_bytes(c, size);
			r->u.sample.stack_size = take_u64(c);	/* dyn_size */
			if (r->u.sample.stack_size > size)
				r->u.sample.stack_size = size;
		}
	}
	return !c->bad;
}

#ifdef HAVE_KSYMBOL
/* KSYMBOL: addr u64, len u32, ksym_type u16, flags u16, name, trailer;
 * BPF_EVENT: type u16, flags u16, id u32, tag[8], trailer. */
static bool parse_jit(const struct perf_event_header *h, struct pm_record *r)
{
	const uint8_t *body = (const uint8_t *)(h + 1), *end = (const uint8_t *)h + h->size;
	uint16_t v16[2];
	uint32_t v32;

	if (h->type == PERF_RECORD_KSYMBOL) {
		/* fixed part, at least one byte of name, the trailer */
		if (end - body < 16 + 1 + 16)
			return false;
		r->type = PM_REC_KSYMBOL;
		memcpy(&r->u.ksymbol.addr, body, 8);
		memcpy(&v32, body + 8, 4);
		memcpy(v16, body + 12, 4);
		r->u.ksymbol.len = v32;
		r->u.ksymbol.type = v16[0];
		r->u.ksymbol.unregister = v16[1] & PERF_RECORD_KSYMBOL_FLAGS_UNREGISTER;
		r->u.ksymbol.name = (const char *)body + 16;
		trailer(r, end);
		/* the name ends before the trailer */
		return memchr(body + 16, '\0', (size_t)(end - 16 - (body + 16))) != NULL;
	}
	if (end - body < 16 + 16)
		return false;
	r->type = PM_REC_BPF_EVENT;
	memcpy(v16, body, 4);
	memcpy(&r->u.bpf.id, body + 4, 4);
	memcpy(r->u.bpf.tag, body + 8, 8);
	r->u.bpf.type = v16[0];
	trailer(r, end);
	return true;
}
#endif

static bool parse(const struct pm_sampler *s, const struct perf_event_header *h,
		  struct pm_record *r)
{
	const uint8_t *body = (const uint8_t *)(h + 1), *end = (const uint8_t *)h + h->size;
	struct cur c = { body, end, false };

	memset(r, 0, sizeof(*r));
	switch (h->type) {
	case PERF_RECORD_SAMPLE:
		r->type = PM_REC_SAMPLE;
		r->u.sample.kernel = (h->misc & PERF_RECORD_MISC_CPUMODE_MASK) ==
				     PERF_RECORD_MISC_KERNEL;
		return parse_sample(s, &c, r);
	case PERF_RECORD_MMAP2:
		if (end - body < 64 + 16)
			return false;
		r->type = PM_REC_MMAP;
		take_u64(&c);	/* pid, tid */
		r->u.mmap.addr = take_u64(&c);
		r->u.mmap.len = take_u64(&c);
		r->u.mmap.pgoff = take_u64(&c);
		take_bytes(&c, 24);	/* maj, min, ino, ino_generation (or build id) */
		r->u.mmap.prot = (uint32_t)take_u64(&c);	/* prot, flags */
		r->u.mmap.path = (const char *)c.p;
		trailer(r, end);
		return memchr(c.p, '\0', (size_t)(end - c.p)) != NULL;
	case PERF_RECORD_COMM:
		r->type = PM_REC_COMM;
		r->u.comm.exec = h->misc & PERF_RECORD_MISC_COMM_EXEC;
		take_u64(&c);
		r->u.comm.comm = (const char *)c.p;
		trailer(r, end);
		return memchr(c.p, '\0', (size_t)(end - c.p)) != NULL;
	case PERF_RECORD_FORK:
	case PERF_RECORD_EXIT: {
		uint32_t ids[4];

		if (end - body < 16)
			return false;
		memcpy(ids, body, 16);
		r->type = h->type == PERF_RECORD_FORK ? PM_REC_FORK : PM_REC_EXIT;
		r->pid = ids[0];
		r->u.fork.ppid = ids[1];
		r->tid = ids[2];
		return true;
	}
	case PERF_RECORD_LOST:
		r->type = PM_REC_LOST;
		take_u64(&c);
		r->u.lost.lost = take_u64(&c);
		return !c.bad;
#ifdef HAVE_KSYMBOL
	case PERF_RECORD_KSYMBOL:
	case PERF_RECORD_BPF_EVENT:
		return parse_jit(h, r);
#endif
	default:
		return false;
	}
}

bool pm_sampler_parse(const struct pm_sampler *s, const void *rec, struct pm_record *r)
{
	const struct perf_event_header *h = rec;

	if (h->size < sizeof(*h) || (!s && h->type == PERF_RECORD_SAMPLE))
		return false;
	return parse(s, h, r);
}

/* A record waiting in a ring, for the time order across rings. */
struct pending {
	uint64_t time;
	size_t seq;				/* ring order: ties keep it */
	const struct perf_event_header *h;	/* in the ring, or a copy */
	bool copied;
};

static int cmp_pending(const void *a, const void *b)
{
	const struct pending *x = a, *y = b;

	if (x->time != y->time)
		return x->time < y->time ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

/* When a record happened: a sample's TIME follows its IP and TID; the
 * other records end with the sample_id_all trailer (TID, TIME). */
static uint64_t record_time(const struct perf_event_header *h)
{
	uint64_t t = 0;

	if (h->type == PERF_RECORD_SAMPLE) {
		if (h->size >= sizeof(*h) + 24)
			memcpy(&t, (const uint8_t *)(h + 1) + 16, 8);
	} else if (h->size >= sizeof(*h) + 16) {
		memcpy(&t, (const uint8_t *)h + h->size - 8, 8);
	}
	return t;
}

/*
 * Every record the rings hold, in time order: each CPU has its ring, and
 * a child forked on one CPU may exec and run on another, so ring by ring
 * its samples could come before the records that map its program.
 */
long pm_sampler_drain(struct pm_sampler *s,
		      void (*cb)(const struct pm_record *r, void *arg), void *arg)
{
	struct pending *p = NULL;
	uint64_t *heads = pm_xcalloc((size_t)(s->n ? s->n : 1), sizeof(*heads));
	size_t n = 0, cap = 0, k;
	long count = 0;
	int i;

	for (i = 0; i < s->n; i++) {
		struct ring *rg = &s->rings[i];
		struct perf_event_mmap_page *pg = rg->base;
		const uint8_t *data = (const uint8_t *)rg->base + s->page;
		uint64_t head = __atomic_load_n(&pg->data_head, __ATOMIC_ACQUIRE);
		uint64_t tail = pg->data_tail;

		while (tail < head) {
			struct perf_event_header h;
			size_t off = tail % rg->data_size;
			struct pending *x;

			/* the header itself may wrap */
			if (off + sizeof(h) <= rg->data_size) {
				memcpy(&h, data + off, sizeof(h));
			} else {
				size_t first = rg->data_size - off;

				memcpy(&h, data + off, first);
				memcpy((uint8_t *)&h + first, data, sizeof(h) - first);
			}
			if (h.size < sizeof(h) || h.size > head - tail)
				break;
			if (n == cap) {
				cap = cap ? cap * 2 : 1024;
				p = pm_xrealloc(p, cap * sizeof(*p));
			}
			x = &p[n];
			x->seq = n;
			x->copied = off + h.size > rg->data_size;
			if (!x->copied) {
				x->h = (const void *)(data + off);
			} else {
				/* wrapped around the end: made whole */
				size_t first = rg->data_size - off;
				uint8_t *c = pm_xmalloc(h.size);

				memcpy(c, data + off, first);
				memcpy(c + first, data, h.size - first);
				x->h = (const void *)c;
			}
			x->time = record_time(x->h);
			n++;
			tail += h.size;
		}
		heads[i] = tail;
	}
	if (n)	/* p is NULL when no record was pending */
		pm_sort(p, n, sizeof(*p), cmp_pending);
	for (k = 0; k < n; k++) {
		struct pm_record r;

		if (parse(s, p[k].h, &r)) {
			cb(&r, arg);
			count++;
		}
		if (p[k].copied)
			free((void *)p[k].h);
	}
	/* only now may the kernel reuse the space */
	for (i = 0; i < s->n; i++) {
		struct perf_event_mmap_page *pg = s->rings[i].base;

		__atomic_store_n(&pg->data_tail, heads[i], __ATOMIC_RELEASE);
	}
	free(p);
	free(heads);
	return count;
}

const char *pm_sampler_event(const struct pm_sampler *s)
{
	return s->event;
}

uint64_t pm_sampler_period(const struct pm_sampler *s)
{
	return s->period;
}

const char *pm_sampler_period_unit(const struct pm_sampler *s)
{
	return s->period_unit;
}

const char *pm_sampler_kernel_unavailable(const struct pm_sampler *s)
{
	return s->kernel_unavailable;
}

void pm_sampler_close(struct pm_sampler *s)
{
	int i;

	if (!s)
		return;
	for (i = 0; i < s->n; i++) {
		if (s->rings[i].base)
			munmap(s->rings[i].base, s->rings[i].data_size + s->page);
		close(s->rings[i].fd);
	}
	free(s->rings);
	free(s->kernel_unavailable);
	free(s);
}
