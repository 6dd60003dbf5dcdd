/*
 * The profile pass: follow the sampled processes' address spaces
 * (initial /proc maps, then FORK/COMM-exec/MMAP2 records), symbolize
 * every sample's leaf and call chain, and aggregate self samples per
 * symbol and whole stacks (folded).  jansson objects are the hash
 * tables.
 */
#include "config.h"

#include <errno.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "counters/counters.h"	/* perf_event.h */
#include "sample/profile.h"
#include "sample/sampler.h"
#include "sample/unwind.h"
#include "symbols/symbols.h"

#define TOP_SYMBOLS 40		/* listed per side; the rest as [other] */
#define TOP_STACKS 400		/* distinct stacks kept for folded output */
#define MAX_FRAMES 128

/* Classic BPF JIT code on the seccomp path: it has no symbol of its own */
#define SECCOMP_NAME "seccomp_filter (classic BPF)"
#define SECCOMP_OBJECT "[seccomp]"

struct pm_profiler {
	struct pm_profile_opts opts;
	struct pm_kernel_syms ksyms;
	struct pm_symcache *cache;
	struct pm_unwinder *unwinder;
	char *kernel_unavailable;
	bool kernel_sampled;	/* false: user space only (perf_event_paranoid) */
	char **skid;		/* mechanisms/irq-enable.syms; NULL: not charged */
};

struct proc {
	pid_t pid;
	char comm[32];
	struct pm_maps maps;
	bool started;		/* one of the processes we were asked to sample */
	/* /proc/PID/status Seccomp: and Seccomp_filters:, -1 unknown; a
	 * filter stays for life (fork and exec keep it), so the most seen */
	int seccomp_mode, seccomp_filters;
};

struct pm_profile {
	struct pm_profiler *p;
	struct pm_sampler *s;
	struct proc *procs;
	size_t nprocs;
	pid_t *started;
	int nstarted;
	json_t *symbols;	/* key -> {name, object, kernel, size, ...} */
	json_t *stacks;		/* folded stack -> samples */
	json_t *trap_return;	/* "path@offset" -> true/false (syscall_return) */
	uint64_t samples, kernel_samples, resolved, child_samples, lost;
	uint64_t user_stacks, unwound;
	uint64_t forks;		/* processes (not threads) created meanwhile */
	uint64_t period_sum;
	uint64_t skid_samples;	/* charged past an interrupt-enable leaf */
	json_t *skid_symbols;	/* that leaf's name -> samples */
};

int pm_profiler_new(struct pm_profiler **out, const struct pm_profile_opts *o,
		    struct pm_err *e)
{
	struct pm_profiler *p = pm_xcalloc(1, sizeof(*p));
	int err;

	p->opts = *o;
	p->kernel_sampled = true;
	err = pm_kernel_syms_load(&p->ksyms, o->vmlinux, e);
	if (err) {
		free(p);
		return err;
	}
	if (p->ksyms.unavailable)
		p->kernel_unavailable = pm_xstrdup(p->ksyms.unavailable);
	p->cache = pm_symcache_new();
	{
		/* without the list, samples stay where they landed */
		char *path = pm_xasprintf("%s/irq-enable.syms", pm_mechanisms_dir());
		struct pm_err ignored;

		if (pm_skid_load(&p->skid, path, &ignored))
			p->skid = NULL;
		free(path);
	}
	if (o->dwarf)
		p->unwinder = pm_unwinder_new();
	*out = p;
	return 0;
}

const char *pm_profiler_kernel_unavailable(const struct pm_profiler *p)
{
	return p->kernel_unavailable;
}

const char *pm_profiler_kernel_source(const struct pm_profiler *p)
{
	return p->ksyms.core ? p->ksyms.source : NULL;
}

void pm_profiler_free(struct pm_profiler *p)
{
	if (!p)
		return;
	pm_kernel_syms_free(&p->ksyms);
	pm_symcache_free(p->cache);
	if (p->unwinder)
		pm_unwinder_free(p->unwinder);
	free(p->kernel_unavailable);
	pm_strv_free(p->skid);
	free(p);
}

/* ---- processes ---- */

static struct proc *proc_find(struct pm_profile *pr, pid_t pid)
{
	size_t i;

	/* newest first: samples mostly come from the latest child */
	for (i = pr->nprocs; i-- > 0;)
		if (pr->procs[i].pid == pid)
			return &pr->procs[i];
	return NULL;
}

static struct proc *proc_add(struct pm_profile *pr, pid_t pid)
{
	struct proc *x;

	pr->procs = pm_xgrow(pr->procs, pr->nprocs, sizeof(*pr->procs));
	x = &pr->procs[pr->nprocs++];
	memset(x, 0, sizeof(*x));
	x->pid = pid;
	x->maps.pid = pid;
	x->seccomp_mode = x->seccomp_filters = -1;
	return x;
}

/* The value of a "Key:\tN" line of a status file, -1 when absent. */
static int status_value(const char *text, const char *key)
{
	size_t n = strlen(key);
	const char *p;

	for (p = text; p; p = strchr(p, '\n'), p = p ? p + 1 : NULL)
		if (!strncmp(p, key, n) && p[n] == ':')
			return atoi(p + n + 1);
	return -1;
}

/* Seccomp mode and filter count of a live process (the kernel says the
 * count since 5.9); kept when it is gone, never lowered. */
static void read_seccomp(struct proc *x)
{
	char path[64], *text;
	int mode, filters;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)x->pid);
	if (pm_read_file(path, &text, NULL))
		return;
	mode = status_value(text, "Seccomp");
	filters = status_value(text, "Seccomp_filters");
	free(text);
	if (mode > x->seccomp_mode)
		x->seccomp_mode = mode;
	if (filters > x->seccomp_filters)
		x->seccomp_filters = filters;
}

static void proc_remove(struct pm_profile *pr, struct proc *x)
{
	pm_maps_free(&x->maps);
	*x = pr->procs[--pr->nprocs];
}

static void read_comm(pid_t pid, char *buf, size_t len)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	if (pm_read_line(path, buf, len) != 0)
		snprintf(buf, len, "%d", (int)pid);
}

int pm_profile_begin(struct pm_profile **out, struct pm_profiler *p,
		     const pid_t *pids, int npids, bool inherit,
		     struct pm_err *e)
{
	struct pm_profile *pr = pm_xcalloc(1, sizeof(*pr));
	struct pm_sampler_opts so = {
		.freq = p->opts.freq, .dwarf = p->opts.dwarf && p->unwinder,
		.inherit = inherit, .kernel = true,
	};
	int i, err;

	pr->p = p;
	err = pm_sampler_open(&pr->s, pids, npids, &so, e);
	if (err) {
		free(pr);
		return err;
	}
	/* not sampling the kernel at all outranks hidden kernel symbols */
	if (pm_sampler_kernel_unavailable(pr->s)) {
		free(p->kernel_unavailable);
		p->kernel_unavailable = pm_xstrdup(pm_sampler_kernel_unavailable(pr->s));
		p->kernel_sampled = false;
	} else if (p->ksyms.core) {
		/* BPF programs loaded since the last pass (root only) */
		pm_kernel_jit_refresh(&p->ksyms);
	}
	pr->started = pm_xcalloc((size_t)npids, sizeof(pid_t));
	for (i = 0; i < npids; i++) {
		pid_t pid = pids[i] ? pids[i] : getpid();
		struct proc *x = proc_add(pr, pid);

		x->started = true;
		pr->started[pr->nstarted++] = pid;
		read_comm(pid, x->comm, sizeof(x->comm));
		read_seccomp(x);
		pm_maps_from_proc(&x->maps, pid, NULL);
	}
	pr->symbols = json_object();
	pr->stacks = json_object();
	pr->trap_return = json_object();
	pr->skid_symbols = json_object();
	*out = pr;
	return 0;
}

int pm_profile_enable(struct pm_profile *pr)
{
	return pm_sampler_enable(pr->s);
}

int pm_profile_disable(struct pm_profile *pr)
{
	return pm_sampler_disable(pr->s);
}

/* ---- symbolization ---- */

struct frame {
	const char *name;	/* NULL: unresolved */
	const char *object;
	bool kernel;
	uint64_t size;
	bool exact;
	uint64_t addr;
	const struct pm_jit_sym *jit;	/* BPF program or other code made at run time */
};

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');

	return s ? s + 1 : path;
}

static void kernel_frame(struct pm_profile *pr, uint64_t addr, struct frame *f)
{
	const char *module = NULL;
	const struct pm_sym *s = pm_kernel_lookup(&pr->p->ksyms, addr, &module);

	memset(f, 0, sizeof(*f));
	f->kernel = true;
	f->addr = addr;
	f->object = module ? module : "[kernel]";
	if (s) {
		struct pm_jit_sym *j = pm_kernel_jit(&pr->p->ksyms, s);

		f->name = s->name;
		f->size = s->size;
		f->exact = s->size_exact;
		if (j && j->kind == PM_JIT_BPF)
			pm_jit_prog_info(j);	/* once: type, attach point */
		f->jit = j;
	}
}

/* The seccomp path's functions, one of which calls the filters. */
static bool seccomp_caller(const char *name)
{
	static const char *const callers[] = {
		"__seccomp_filter*", "seccomp_run_filters*", "__secure_computing*",
		"secure_computing*", "syscall_trace_enter*",
	};
	size_t i;

	for (i = 0; name && i < PM_ARRAY_SIZE(callers); i++)
		if (!fnmatch(callers[i], name, 0))
			return true;
	return false;
}

/* Where JIT images live: outside the kernel image's text, in the
 * module area (x86-64: from 0xffffffffa0000000 up to the fixmap).  Other
 * architectures keep entry trampolines outside the text too: no guess. */
static bool in_jit_area(const struct pm_kernel_syms *k, uint64_t a)
{
#if defined(__x86_64__)
	return k->stext && k->etext && (a < k->stext || a >= k->etext) &&
	       a >= 0xffffffffa0000000ull && a < 0xffffffffff000000ull;
#else
	(void)k;
	(void)a;
	return false;
#endif
}

static bool has_seccomp_filters(struct proc *x)
{
	if (!x)
		return false;
	if (x->seccomp_mode < 0)
		read_seccomp(x);
	return x->seccomp_filters > 0 || x->seccomp_mode == 2;
}

/*
 * Name a seccomp filter's time.  Seccomp filters are classic BPF,
 * converted and JIT-compiled with no kallsyms entry and no KSYMBOL
 * record, so their samples have no symbol.  A kernel leaf that resolves
 * to nothing (no kallsyms, vmlinux or BPF ksymbol range) in a process
 * with seccomp filters is called the seccomp filter when:
 *  - its caller in the kernel call chain is the seccomp path
 *    (__seccomp_filter, __secure_computing, syscall_trace_enter ...):
 *    confirmed; or
 *  - the chain ends at the leaf (the unwinder could not leave JIT code)
 *    and the address is in the JIT area: no other unnamed code runs
 *    there in such a process but a classic socket filter (SO_ATTACH_FILTER),
 *    which pmbench's benchmarks do not install.
 * A leaf with a caller outside the seccomp path stays [unknown].
 */
static void name_seccomp(struct pm_profile *pr, struct proc *x, struct frame *kern,
			 size_t nk)
{
	bool caller = nk > 1 && kern[1].name;

	if (!nk || kern[0].name || !has_seccomp_filters(x))
		return;
	if (caller ? seccomp_caller(kern[1].name) : in_jit_area(&pr->p->ksyms, kern[0].addr)) {
		kern[0].name = SECCOMP_NAME;
		kern[0].object = SECCOMP_OBJECT;
	}
}

static void user_frame(struct pm_profile *pr, struct proc *x, uint64_t addr,
		       struct frame *f)
{
	struct pm_user_sym us;

	memset(f, 0, sizeof(*f));
	memset(&us, 0, sizeof(us));
	if (x && pm_user_lookup(pr->p->cache, &x->maps, addr, &us) == 0) {
		f->name = us.name;
		f->size = us.sym_size;
		f->exact = us.size_exact;
	}
	f->object = us.object ? us.object : "[unknown]";
}

static void count_symbol(struct pm_profile *pr, const struct frame *f,
			 bool at_syscall, bool skid)
{
	char *key = pm_xasprintf("%c\x1f%s\x1f%s", f->kernel ? 'k' : 'u',
				 f->name ? f->name : "[unknown]", f->object);
	json_t *o = json_object_get(pr->symbols, key);

	if (!o) {
		o = json_pack("{s:s,s:s,s:b,s:I,s:b,s:I}",
			      "name", f->name ? f->name : "[unknown]",
			      "object", f->object, "kernel", f->kernel,
			      "size", (json_int_t)f->size, "size_exact", f->exact,
			      "samples", (json_int_t)0);
		if (!f->kernel)
			json_object_set_new(o, "syscall_samples", json_integer(0));
		if (f->jit && f->jit->prog_id)
			json_object_set_new(o, "bpf_prog_id", json_integer(f->jit->prog_id));
		if (f->jit && f->jit->prog_type)
			json_object_set_new(o, "bpf_prog_type", json_string(f->jit->prog_type));
		if (f->jit && f->jit->attach)
			json_object_set_new(o, "bpf_attach", json_string(f->jit->attach));
		json_object_set_new(pr->symbols, key, o);
	}
	json_object_set_new(o, "samples",
			    json_integer(json_integer_value(json_object_get(o, "samples")) + 1));
	if (at_syscall)
		json_object_set_new(o, "syscall_samples", json_integer(
			json_integer_value(json_object_get(o, "syscall_samples")) + 1));
	if (skid)
		json_object_set_new(o, "skid_samples", json_integer(
			json_integer_value(json_object_get(o, "skid_samples")) + 1));
	free(key);
}

/* Add a frame; ';' and blanks would break the folded format. */
static void append(char **buf, size_t *len, size_t *cap, const char *s)
{
	size_t n = strlen(s), i;

	if (*len + n + 2 > *cap) {
		*cap = (*len + n + 2) * 2;
		*buf = pm_xrealloc(*buf, *cap);
	}
	if (*len)
		(*buf)[(*len)++] = ';';
	for (i = 0; i < n; i++)
		(*buf)[(*len)++] = s[i] == ';' || s[i] == ' ' || s[i] == '\n' ? '_' : s[i];
	(*buf)[*len] = '\0';
}

/* Folded stack, outermost first: comm;user...;kernel... */
static void count_stack(struct pm_profile *pr, const char *comm,
			const struct frame *user, size_t nuser,
			const struct frame *kern, size_t nkern)
{
	char *buf = NULL, tmp[256];
	size_t len = 0, cap = 0, i;
	json_t *v;

	append(&buf, &len, &cap, comm);
	for (i = nuser; i-- > 0;) {
		if (user[i].name) {
			append(&buf, &len, &cap, user[i].name);
		} else {
			snprintf(tmp, sizeof(tmp), "[%s]", base_name(user[i].object));
			append(&buf, &len, &cap, tmp);
		}
	}
	for (i = nkern; i-- > 0;)
		append(&buf, &len, &cap, kern[i].name ? kern[i].name : "[kernel]");
	v = json_object_get(pr->stacks, buf);
	json_object_set_new(pr->stacks, buf,
			    json_integer((v ? json_integer_value(v) : 0) + 1));
	free(buf);
}

/*
 * Is a user sample's address the return point of a system call
 * instruction (syscall 0f 05, sysenter 0f 34, int $0x80 cd 80)?  Kernel
 * entry and exit run with interrupts off, so a timer sample due in
 * them fires on the first instruction after the return: user time at
 * that address is the system call's entry/exit cost, not user code.
 * Read from the mapped file, cached per file offset.
 */
static bool syscall_return(struct pm_profile *pr, const struct proc *x,
			   uint64_t ip)
{
	const struct pm_map *map;
	unsigned char b[2];
	char key[320];
	const json_t *v;
	bool yes;

	if (!x || ip < 2 || !(map = pm_maps_find(&x->maps, ip - 2)) || !map->path)
		return false;
	snprintf(key, sizeof(key), "%s@%" PRIx64, map->path,
		 map->pgoff + (ip - 2 - map->start));
	v = json_object_get(pr->trap_return, key);
	if (v)
		return json_is_true(v);
	yes = !pm_user_read_file(&x->maps, ip - 2, b, 2) &&
	      ((b[0] == 0x0f && (b[1] == 0x05 || b[1] == 0x34)) ||
	       (b[0] == 0xcd && b[1] == 0x80));
	json_object_set_new(pr->trap_return, key, json_boolean(yes));
	return yes;
}

/*
 * The frame a kernel sample's time belongs to: its leaf, or, when the
 * leaf turns interrupts back on (the sample waited for that), the first
 * caller that does not.  Counted per leaf so the views can say so.
 */
static const struct frame *skid_caller(struct pm_profile *pr, const struct frame *kern,
				       size_t nk)
{
	size_t i = 0;
	json_t *v;

	while (i + 1 < nk && kern[i].name && pm_skid_match(pr->p->skid, kern[i].name))
		i++;
	if (!i || !kern[i].name || pm_skid_match(pr->p->skid, kern[i].name))
		return &kern[0];
	pr->skid_samples++;
	v = json_object_get(pr->skid_symbols, kern[0].name);
	json_object_set_new(pr->skid_symbols, kern[0].name,
			    json_integer((v ? json_integer_value(v) : 0) + 1));
	return &kern[i];
}

static void on_sample(struct pm_profile *pr, const struct pm_record *r)
{
	struct frame kern[MAX_FRAMES], user[MAX_FRAMES];
	size_t nk = 0, nu = 0, i;
	struct proc *x = proc_find(pr, (pid_t)r->pid);
	uint64_t mode = PERF_CONTEXT_USER;
	const struct frame *leaf;
	bool at_syscall = false, skid = false;

	pr->samples++;
	pr->period_sum += r->u.sample.period;
	if (!x || !x->started)
		pr->child_samples++;
	for (i = 0; i < r->u.sample.nchain; i++) {
		uint64_t a = r->u.sample.chain[i];

		if (a >= PERF_CONTEXT_MAX) {
			mode = a;
			continue;
		}
		/* return addresses point after the call: look up a - 1 */
		if (mode == PERF_CONTEXT_KERNEL && nk < MAX_FRAMES) {
			kernel_frame(pr, nk ? a - 1 : a, &kern[nk]);
			nk++;
		} else if (mode == PERF_CONTEXT_USER && nu < MAX_FRAMES) {
			user_frame(pr, x, nu ? a - 1 : a, &user[nu]);
			nu++;
		}
	}
	if (pr->p->unwinder && r->u.sample.regs_abi && r->u.sample.stack && x) {
		uint64_t ips[MAX_FRAMES];
		size_t n = 0;
		struct pm_unwind_input in = {
			.maps = &x->maps, .regs = r->u.sample.regs,
			.regs_mask = r->u.sample.regs_mask,
			.stack = r->u.sample.stack,
			.stack_size = r->u.sample.stack_size,
		};
		int err = pm_unwind(pr->p->unwinder, &in, ips, MAX_FRAMES, &n);

		pr->user_stacks++;
		if (err == 0)
			pr->unwound++;
		for (nu = 0; nu < n; nu++)
			user_frame(pr, x, nu ? ips[nu] - 1 : ips[nu], &user[nu]);
	}
	if (r->u.sample.kernel) {
		pr->kernel_samples++;
		if (!nk)
			kernel_frame(pr, r->u.sample.ip, &kern[nk++]);
		name_seccomp(pr, x, kern, nk);
		leaf = skid_caller(pr, kern, nk);
		skid = leaf != &kern[0];
	} else {
		if (!nu)
			user_frame(pr, x, r->u.sample.ip, &user[nu++]);
		leaf = &user[0];
		at_syscall = syscall_return(pr, x, r->u.sample.ip);
	}
	if (leaf->name)
		pr->resolved++;
	count_symbol(pr, leaf, at_syscall, skid);
	count_stack(pr, x ? x->comm : "[unknown]", user, nu, kern, nk);
}

/* Kernel code registered or gone: BPF programs, trampolines, kprobe slots. */
static void jit_record(struct pm_profile *pr, const struct pm_record *r)
{
	struct pm_jit_syms *j = &pr->p->ksyms.jit;
	enum pm_jit_kind kind = r->u.ksymbol.type == PM_KSYM_BPF ? PM_JIT_BPF :
				r->u.ksymbol.type == PM_KSYM_OOL ? PM_JIT_OOL : PM_JIT_OTHER;

	if (r->u.ksymbol.unregister)
		pm_jit_remove(j, r->u.ksymbol.addr);
	else
		pm_jit_add(j, r->u.ksymbol.addr, r->u.ksymbol.len, kind, r->u.ksymbol.name);
}

static void on_record(const struct pm_record *r, void *arg)
{
	struct pm_profile *pr = arg;
	struct proc *x;

	switch (r->type) {
	case PM_REC_SAMPLE:
		on_sample(pr, r);
		break;
	case PM_REC_MMAP:
		x = proc_find(pr, (pid_t)r->pid);
		if (!x)
			x = proc_add(pr, (pid_t)r->pid);
		pm_maps_add(&x->maps, r->u.mmap.addr, r->u.mmap.len,
			    r->u.mmap.pgoff, r->u.mmap.path);
		break;
	case PM_REC_FORK: {
		struct proc *parent = proc_find(pr, (pid_t)r->u.fork.ppid);

		/* one record per fork, whatever order the rings give */
		if (r->pid != r->u.fork.ppid)
			pr->forks++;

		if (r->pid == r->u.fork.ppid || proc_find(pr, (pid_t)r->pid))
			break;	/* a thread, or known already */
		x = proc_add(pr, (pid_t)r->pid);
		parent = proc_find(pr, (pid_t)r->u.fork.ppid);	/* array moved */
		if (parent) {
			pm_maps_copy(&x->maps, &parent->maps, x->pid);
			memcpy(x->comm, parent->comm, sizeof(x->comm));
			/* a child has its parent's filters (and may add more) */
			x->seccomp_mode = parent->seccomp_mode;
			x->seccomp_filters = parent->seccomp_filters;
		}
		break;
	}
	case PM_REC_COMM:
		x = proc_find(pr, (pid_t)r->pid);
		if (!x)
			x = proc_add(pr, (pid_t)r->pid);
		snprintf(x->comm, sizeof(x->comm), "%s", r->u.comm.comm);
		if (r->u.comm.exec) {
			/* a new image: its mappings follow as MMAP2 records */
			pm_maps_free(&x->maps);
			x->maps.pid = x->pid;
		}
		break;
	case PM_REC_EXIT:
		x = proc_find(pr, (pid_t)r->pid);
		if (x && !x->started && r->pid == r->tid)
			proc_remove(pr, x);
		break;
	case PM_REC_LOST:
		pr->lost += r->u.lost.lost;
		break;
	case PM_REC_KSYMBOL:
		jit_record(pr, r);
		break;
	case PM_REC_BPF_EVENT:
		/* loaded: its ranges (KSYMBOL records just before) get its id */
		if (r->u.bpf.type == 1)
			pm_jit_set_prog(&pr->p->ksyms.jit, r->u.bpf.tag, r->u.bpf.id);
		break;
	}
}

void pm_profile_record(struct pm_profile *pr, const struct pm_record *r)
{
	on_record(r, pr);
}

void pm_profile_drain(struct pm_profile *pr)
{
	int i;

	/* a workload may install a filter after it started (a wrapper) */
	for (i = 0; i < pr->nstarted; i++) {
		struct proc *x = proc_find(pr, pr->started[i]);

		if (x)
			read_seccomp(x);
	}
	pm_sampler_drain(pr->s, on_record, pr);
}

/* ---- the result ---- */

static int cmp_samples(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "samples"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "samples"));

	return x < y ? 1 : x > y ? -1 : 0;
}

/* Top symbols per side, the rest folded into an [other] entry so the
 * per-op costs still add up to the side's share. */
static json_t *symbol_list(struct pm_profile *pr, double median_ns)
{
	size_t n = json_object_size(pr->symbols), k = 0, i;
	json_t **v = pm_xcalloc(n ? n : 1, sizeof(*v)), *out = json_array(), *o;
	uint64_t other[2] = { 0, 0 };
	size_t listed[2] = { 0, 0 };
	const char *key;
	int side;

	json_object_foreach(pr->symbols, key, o)
		v[k++] = o;
	pm_sort(v, n, sizeof(*v), cmp_samples);
	for (i = 0; i < n; i++) {
		json_int_t s = json_integer_value(json_object_get(v[i], "samples"));
		double share = pr->samples ? (double)s / (double)pr->samples : 0;

		side = json_is_true(json_object_get(v[i], "kernel"));
		if (listed[side] >= TOP_SYMBOLS) {
			other[side] += (uint64_t)s;
			continue;
		}
		listed[side]++;
		o = json_deep_copy(v[i]);
		json_object_set_new(o, "share", json_real(share));
		json_object_set_new(o, "cost_ns_per_op", isfinite(median_ns) ?
				    json_real(share * median_ns) : json_null());
		json_array_append_new(out, o);
	}
	for (side = 1; side >= 0; side--) {
		double share;

		if (!other[side])
			continue;
		share = (double)other[side] / (double)pr->samples;
		json_array_append_new(out, json_pack("{s:s,s:s,s:b,s:I,s:b,s:I,s:f,s:o}",
			"name", "[other]", "object", side ? "[kernel]" : "[user]",
			"kernel", side, "size", (json_int_t)0, "size_exact", 0,
			"samples", (json_int_t)other[side], "share", share,
			"cost_ns_per_op", isfinite(median_ns) ?
				json_real(share * median_ns) : json_null()));
	}
	free(v);
	return out;
}

static int cmp_stack(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_array_get(*(json_t *const *)a, 1));
	json_int_t y = json_integer_value(json_array_get(*(json_t *const *)b, 1));

	return x < y ? 1 : x > y ? -1 : 0;
}

static json_t *stack_list(struct pm_profile *pr)
{
	size_t n = json_object_size(pr->stacks), k = 0, i;
	json_t **v = pm_xcalloc(n ? n : 1, sizeof(*v)), *out = json_array(), *c;
	json_int_t rest = 0;
	const char *key;

	json_object_foreach(pr->stacks, key, c)
		v[k++] = json_pack("[sO]", key, c);
	pm_sort(v, n, sizeof(*v), cmp_stack);
	for (i = 0; i < n; i++) {
		if (i < TOP_STACKS)
			json_array_append_new(out, json_pack("{s:O,s:O}",
				"stack", json_array_get(v[i], 0),
				"samples", json_array_get(v[i], 1)));
		else
			rest += json_integer_value(json_array_get(v[i], 1));
		json_decref(v[i]);
	}
	if (rest)
		json_array_append_new(out, json_pack("{s:s,s:I}", "stack", "[other]",
						     "samples", (json_int_t)rest));
	free(v);
	return out;
}

/* The seccomp state of the benchmark's own process (the first sampled). */
static void seccomp_state(struct pm_profile *pr, json_t *h)
{
	struct proc *x = pr->nstarted ? proc_find(pr, pr->started[0]) : NULL;

	if (x)
		read_seccomp(x);
	json_object_set_new(h, "seccomp_mode", x && x->seccomp_mode >= 0 ?
			    json_integer(x->seccomp_mode) : json_null());
	json_object_set_new(h, "seccomp_filters", x && x->seccomp_filters >= 0 ?
			    json_integer(x->seccomp_filters) : json_null());
}

json_t *pm_profile_end(struct pm_profile *pr, double ops, double median_ns,
		       double pass_ns)
{
	struct pm_profiler *p = pr->p;
	const char *unit = pm_sampler_period_unit(pr->s);
	json_t *h;
	double n;
	size_t i;

	pm_profile_drain(pr);
	n = (double)pr->samples;
	h = json_object();
	json_object_set_new(h, "event", json_string(pm_sampler_event(pr->s)));
	json_object_set_new(h, "period", json_integer((json_int_t)pm_sampler_period(pr->s)));
	json_object_set_new(h, "period_unit", json_string(unit));
	json_object_set_new(h, "call_graph", json_string(p->unwinder ? "dwarf" : "fp"));
	json_object_set_new(h, "samples", json_integer((json_int_t)pr->samples));
	json_object_set_new(h, "lost", json_integer((json_int_t)pr->lost));
	json_object_set_new(h, "child_samples", json_integer((json_int_t)pr->child_samples));
	json_object_set_new(h, "processes",
			    json_integer((json_int_t)pr->nstarted + (json_int_t)pr->forks));
	json_object_set_new(h, "ops", json_real(ops));
	json_object_set_new(h, "slowdown", median_ns > 0 && ops > 0 ?
			    json_real(pass_ns / ops / median_ns) : json_null());
	json_object_set_new(h, "kernel_share", n ? json_real((double)pr->kernel_samples / n) : json_null());
	json_object_set_new(h, "user_share", n ? json_real(1 - (double)pr->kernel_samples / n) : json_null());
	json_object_set_new(h, "resolved_share", n ? json_real((double)pr->resolved / n) : json_null());
	/* CPU time the samples stand for, per op (cpu-clock counts ns) */
	json_object_set_new(h, "sampled_cpu_ns_per_op", !strcmp(unit, "ns") && ops > 0 ?
			    json_real((double)pr->period_sum / ops) : json_null());
	json_object_set_new(h, "kernel_symbols", p->ksyms.core ? json_string(p->ksyms.source) : json_null());
	json_object_set_new(h, "kernel_unavailable", p->kernel_unavailable ?
			    json_string(p->kernel_unavailable) : json_null());
	/* user-only sampling charges kernel time to the calling user frame */
	json_object_set_new(h, "kernel_sampled", json_boolean(p->kernel_sampled));
	seccomp_state(pr, h);
	/* kernel samples charged past the function that re-enabled
	 * interrupts (mechanisms/irq-enable.syms), by that function */
	if (p->skid) {
		json_object_set_new(h, "skid_samples", json_integer((json_int_t)pr->skid_samples));
		json_object_set(h, "skid_symbols", pr->skid_symbols);
	}
	if (p->unwinder)
		json_object_set_new(h, "unwound_share", pr->user_stacks ?
				    json_real((double)pr->unwound / (double)pr->user_stacks) :
				    json_null());
	json_object_set_new(h, "symbols", symbol_list(pr, median_ns));
	json_object_set_new(h, "stacks", stack_list(pr));

	pm_sampler_close(pr->s);
	for (i = 0; i < pr->nprocs; i++)
		pm_maps_free(&pr->procs[i].maps);
	free(pr->procs);
	free(pr->started);
	json_decref(pr->symbols);
	json_decref(pr->stacks);
	json_decref(pr->trap_return);
	json_decref(pr->skid_symbols);
	free(pr);
	return h;
}

/*
 * pmbench's own frames: the process's start, the command, the runner
 * and the round worker.  Samples land under them only because the
 * benchmark's loop is called from there; they say nothing about it.
 */
static const char *const start_frames[] = {
	"_start", "__libc_start_main", "__libc_start_call_main",
	"__libc_start_main_impl",
};
static const char *const harness_frames[] = {
	"main", "cmd_run", "cmd_round", "run_in_rounds", "extra_passes",
	"profile_pass", "counted_pass", "scaling_pass", "scale_point",
	"timed_run", "timed_trials", "round_trials", "measure_trials",
	"calibrate", "session_begin", "session_end", "copy_work",
	"copy_thread", "bench_iterate",
};
/* Harness frames that call into the benchmark (run, setup, measure):
 * what they call is the benchmark's. */
static const char *const entry_frames[] = {
	"timed_run", "session_begin", "measure_trials", "copy_work",
	"bench_iterate",
};
static const char *const harness_prefixes[] = {
	"pm_run_", "pm_round_", "pm_profile_", "pm_sampler_", "pm_counters_",
};

static bool in_list(const char *name, size_t len, const char *const *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strlen(v[i]) == len && !strncmp(v[i], name, len))
			return true;
	return false;
}

bool pm_frame_is_harness(const char *name)
{
	size_t len = strlen(name), i;

	if (in_list(name, len, start_frames, PM_ARRAY_SIZE(start_frames)) ||
	    in_list(name, len, harness_frames, PM_ARRAY_SIZE(harness_frames)))
		return true;
	for (i = 0; i < PM_ARRAY_SIZE(harness_prefixes); i++)
		if (!strncmp(name, harness_prefixes[i], strlen(harness_prefixes[i])))
			return true;
	return false;
}

bool pm_hotspot_symbol_is_harness(const json_t *sym)
{
	const char *name = json_string_value(json_object_get(sym, "name"));
	const char *obj = json_string_value(json_object_get(sym, "object"));
	const char *base = obj ? strrchr(obj, '/') : NULL;

	base = base ? base + 1 : obj;
	return name && base && !strcmp(base, "pmbench") && pm_frame_is_harness(name);
}

char *pm_stack_strip_harness(const char *stack)
{
	const char *comm_end = strchr(stack, ';'), *p, *rest, *last = NULL;
	size_t comm_len, last_len = 0;
	bool ours;

	if (!comm_end)
		return pm_xstrdup(stack);
	comm_len = (size_t)(comm_end - stack);
	/* only the pmbench process runs the harness; a helper's main
	 * (pmbench-spawner) is its benchmark loop */
	ours = comm_len == 7 && !strncmp(stack, "pmbench", 7);
	for (p = rest = comm_end + 1; *p; p = rest) {
		const char *end = strchr(p, ';');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		bool start = in_list(p, len, start_frames, PM_ARRAY_SIZE(start_frames));
		char name[256];

		snprintf(name, sizeof(name), "%.*s", (int)(len < 255 ? len : 255), p);
		if (!start && !(ours && pm_frame_is_harness(name)))
			break;
		if (!start) {
			last = p;
			last_len = len;
		}
		rest = end ? end + 1 : p + len;
	}
	/* harness frames with no benchmark code under them, or that did
	 * not call into the benchmark: pmbench's own time */
	if (!*rest || (last && !in_list(last, last_len, entry_frames,
					PM_ARRAY_SIZE(entry_frames))))
		return NULL;
	return pm_xasprintf("%.*s;%s", (int)comm_len, stack, rest);
}

static int cmp_stack_obj(const void *a, const void *b)
{
	json_int_t x = json_integer_value(json_object_get(*(json_t *const *)a, "samples"));
	json_int_t y = json_integer_value(json_object_get(*(json_t *const *)b, "samples"));
	int c = x < y ? 1 : x > y ? -1 : 0;

	return c ? c : strcmp(json_string_value(json_object_get(*(json_t *const *)a, "stack")),
			      json_string_value(json_object_get(*(json_t *const *)b, "stack")));
}

json_t *pm_hotspots_stacks(const json_t *hotspots, bool all_frames,
			   double *harness)
{
	const json_t *stacks = json_object_get(hotspots, "stacks"), *s;
	json_t *merged = json_object(), *out = json_array(), *v;
	json_t **sorted;
	const char *key;
	size_t i, n = 0;
	double dropped = 0;

	json_array_foreach(stacks, i, s) {
		const char *st = json_string_value(json_object_get(s, "stack"));
		json_int_t c = json_integer_value(json_object_get(s, "samples"));
		char *k;

		if (!st || c <= 0)
			continue;
		k = all_frames || !strcmp(st, "[other]") ? pm_xstrdup(st) :
			pm_stack_strip_harness(st);
		if (!k) {
			dropped += (double)c;
			continue;
		}
		v = json_object_get(merged, k);
		json_object_set_new(merged, k, json_integer((v ? json_integer_value(v) : 0) + c));
		free(k);
	}
	sorted = pm_xcalloc(json_object_size(merged) + 1, sizeof(*sorted));
	json_object_foreach(merged, key, v)
		sorted[n++] = json_pack("{s:s,s:O}", "stack", key, "samples", v);
	pm_sort(sorted, n, sizeof(*sorted), cmp_stack_obj);
	/* the stacks the file did not keep stay last */
	for (i = 0; i < n; i++)
		if (strcmp(json_string_value(json_object_get(sorted[i], "stack")), "[other]"))
			json_array_append(out, sorted[i]);
	for (i = 0; i < n; i++) {
		if (!strcmp(json_string_value(json_object_get(sorted[i], "stack")), "[other]"))
			json_array_append(out, sorted[i]);
		json_decref(sorted[i]);
	}
	free(sorted);
	json_decref(merged);
	if (harness)
		*harness = dropped;
	return out;
}

void pm_hotspots_write_folded(const json_t *hotspots, const char *prefix,
			      bool all_frames, FILE *f)
{
	json_t *stacks = pm_hotspots_stacks(hotspots, all_frames, NULL), *s;
	size_t i;

	json_array_foreach(stacks, i, s) {
		if (prefix)
			fprintf(f, "%s;", prefix);
		fprintf(f, "%s %lld\n", json_string_value(json_object_get(s, "stack")),
			(long long)json_integer_value(json_object_get(s, "samples")));
	}
	json_decref(stacks);
}
