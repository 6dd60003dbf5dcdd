/*
 * Kernel code made at run time: BPF programs (JIT images, trampolines,
 * dispatchers) and out-of-line code (kprobe slots, ftrace trampolines).
 *
 * Ranges come from PERF_RECORD_KSYMBOL records while sampling and, for
 * programs loaded before, from bpf(2) (CAP_SYS_ADMIN): exact lengths,
 * the program's type and where it is attached, none of which
 * /proc/kallsyms gives (it sizes a [bpf] symbol up to the next one, and
 * JIT images share pages with the unnamed classic-BPF ones of seccomp).
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "symbols/symbols.h"

/* bpf(2) with jited_ksyms and links: headers of Linux 5.10 or later */
#if defined(__linux__) && defined(__has_include)
#if __has_include(<linux/bpf.h>)
#include <linux/bpf.h>
#if defined(BPF_F_SLEEPABLE) && defined(__NR_bpf)
#define HAVE_BPF_INFO 1
#endif
#endif
#endif

#define PROG_PREFIX "bpf_prog_"

void pm_jit_free(struct pm_jit_syms *j)
{
	size_t i;

	for (i = 0; i < j->n; i++) {
		free((char *)j->v[i].sym.name);
		free(j->v[i].prog_type);
		free(j->v[i].attach);
	}
	free(j->v);
	memset(j, 0, sizeof(*j));
}

/* Index of the first entry ending above addr (n when none). */
static size_t first_above(const struct pm_jit_syms *j, uint64_t addr)
{
	size_t lo = 0, hi = j->n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct pm_sym *s = &j->v[mid].sym;

		if (s->addr + s->size <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void drop(struct pm_jit_syms *j, size_t i)
{
	free((char *)j->v[i].sym.name);
	free(j->v[i].prog_type);
	free(j->v[i].attach);
	memmove(&j->v[i], &j->v[i + 1], (j->n - i - 1) * sizeof(*j->v));
	j->n--;
}

struct pm_jit_sym *pm_jit_add(struct pm_jit_syms *j, uint64_t addr, uint64_t len,
			      enum pm_jit_kind kind, const char *name)
{
	struct pm_jit_sym *x;
	size_t i;

	if (!len)
		len = 1;
	if (addr + len < addr)
		len = -addr;	/* to the top of the address space */
	/* the kernel reuses the space of what was unloaded: the newer wins */
	i = first_above(j, addr);
	while (i < j->n && j->v[i].sym.addr < addr + len)
		drop(j, i);
	if (j->n == j->cap) {
		j->cap = j->cap ? j->cap * 2 : 16;
		j->v = pm_xrealloc(j->v, j->cap * sizeof(*j->v));
	}
	memmove(&j->v[i + 1], &j->v[i], (j->n - i) * sizeof(*j->v));
	j->n++;
	x = &j->v[i];
	memset(x, 0, sizeof(*x));
	x->sym.addr = addr;
	x->sym.size = len;
	x->sym.name = pm_xstrdup(name);
	x->sym.size_exact = true;
	x->kind = kind;
	return x;
}

void pm_jit_remove(struct pm_jit_syms *j, uint64_t addr)
{
	size_t i = first_above(j, addr);

	if (i < j->n && j->v[i].sym.addr == addr)
		drop(j, i);
}

struct pm_jit_sym *pm_jit_lookup(const struct pm_jit_syms *j, uint64_t addr)
{
	size_t i = first_above(j, addr);

	return i < j->n && j->v[i].sym.addr <= addr ? &j->v[i] : NULL;
}

const char *pm_jit_object(const struct pm_jit_sym *s)
{
	return s->kind == PM_JIT_BPF ? "[bpf]" : s->kind == PM_JIT_OOL ? "[ool]" : "[jit]";
}

/* "bpf_prog_" followed by the 16 hex digits of a tag */
static void tag_prefix(const uint8_t tag[8], char out[sizeof(PROG_PREFIX) + 16])
{
	int i;

	memcpy(out, PROG_PREFIX, sizeof(PROG_PREFIX) - 1);
	for (i = 0; i < 8; i++)
		snprintf(out + sizeof(PROG_PREFIX) - 1 + 2 * i, 3, "%02x", tag[i]);
}

void pm_jit_set_prog(struct pm_jit_syms *j, const uint8_t tag[8], uint32_t id)
{
	char p[sizeof(PROG_PREFIX) + 16];
	size_t i, len;

	tag_prefix(tag, p);
	len = strlen(p);
	/* the program's functions named with its tag and not placed yet */
	for (i = 0; i < j->n; i++)
		if (j->v[i].kind == PM_JIT_BPF && !j->v[i].prog_id &&
		    !strncmp(j->v[i].sym.name, p, len))
			j->v[i].prog_id = id;
}

#ifdef HAVE_BPF_INFO

static long sys_bpf(int cmd, union bpf_attr *a, size_t size)
{
	return syscall(__NR_bpf, cmd, a, (unsigned)size);
}

static int next_id(int cmd, uint32_t id, uint32_t *next)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.start_id = id;
	if (sys_bpf(cmd, &a, sizeof(a)))
		return -errno;
	*next = a.next_id;
	return 0;
}

static int fd_by_id(int cmd, uint32_t id)
{
	union bpf_attr a;
	long fd;

	memset(&a, 0, sizeof(a));
	a.prog_id = id;		/* link_id shares the field */
	fd = sys_bpf(cmd, &a, sizeof(a));
	return fd < 0 ? -errno : (int)fd;
}

static int obj_info(int fd, void *info, uint32_t len)
{
	union bpf_attr a;

	memset(&a, 0, sizeof(a));
	a.info.bpf_fd = (uint32_t)fd;
	a.info.info_len = len;
	a.info.info = (uint64_t)(uintptr_t)info;
	return sys_bpf(BPF_OBJ_GET_INFO_BY_FD, &a, sizeof(a)) ? -errno : 0;
}

/* enum bpf_prog_type, a stable ABI: names as bpftool prints them */
static const char *const prog_types[] = {
	"unspec", "socket_filter", "kprobe", "sched_cls", "sched_act",
	"tracepoint", "xdp", "perf_event", "cgroup_skb", "cgroup_sock",
	"lwt_in", "lwt_out", "lwt_xmit", "sock_ops", "sk_skb",
	"cgroup_device", "sk_msg", "raw_tracepoint", "cgroup_sock_addr",
	"lwt_seg6local", "lirc_mode2", "sk_reuseport", "flow_dissector",
	"cgroup_sysctl", "raw_tracepoint_writable", "cgroup_sockopt",
	"tracing", "struct_ops", "ext", "lsm", "sk_lookup", "syscall",
	"netfilter",
};

/* enum bpf_link_type, likewise */
static const char *const link_types[] = {
	"unspec", "raw_tracepoint", "tracing", "cgroup", "iter", "netns",
	"xdp", "perf_event", "kprobe_multi", "struct_ops", "netfilter",
	"tcx", "uprobe_multi", "netkit", "sockmap",
};

static char *type_name(const char *const *v, size_t n, uint32_t t)
{
	return t < n ? pm_xstrdup(v[t]) : pm_xasprintf("type %u", t);
}

/* Where a link attaches its program, in words. */
static char *link_place(int fd, const struct bpf_link_info *li)
{
	char *kind = type_name(link_types, PM_ARRAY_SIZE(link_types), li->type), *s;
	char name[128] = "", ifname[IF_NAMESIZE];
	struct bpf_link_info again;

	switch (li->type) {
	case BPF_LINK_TYPE_RAW_TRACEPOINT:
		again = *li;
		again.raw_tracepoint.tp_name = (uint64_t)(uintptr_t)name;
		again.raw_tracepoint.tp_name_len = sizeof(name);
		if (obj_info(fd, &again, sizeof(again)) == 0 && name[0]) {
			s = pm_xasprintf("%s %s", kind, name);
			free(kind);
			return s;
		}
		break;
	case BPF_LINK_TYPE_CGROUP:
		s = pm_xasprintf("%s id %" PRIu64, kind, (uint64_t)li->cgroup.cgroup_id);
		free(kind);
		return s;
	case BPF_LINK_TYPE_XDP:
		s = if_indextoname(li->xdp.ifindex, ifname) ?
			pm_xasprintf("%s %s", kind, ifname) :
			pm_xasprintf("%s ifindex %u", kind, li->xdp.ifindex);
		free(kind);
		return s;
	case BPF_LINK_TYPE_TRACING:
		s = pm_xasprintf("%s BTF id %u", kind, li->tracing.target_btf_id);
		free(kind);
		return s;
	default:
		break;
	}
	return kind;
}

/* The attach point of program id, from the links that hold it; NULL
 * when none does (attached by a socket option, ioctl or netlink). */
static char *prog_attach(uint32_t prog_id)
{
	uint32_t id = 0;
	char *place = NULL;

	while (!place && next_id(BPF_LINK_GET_NEXT_ID, id, &id) == 0) {
		struct bpf_link_info li;
		int fd = fd_by_id(BPF_LINK_GET_FD_BY_ID, id);

		if (fd < 0)
			continue;
		memset(&li, 0, sizeof(li));
		if (obj_info(fd, &li, sizeof(li)) == 0 && li.prog_id == prog_id)
			place = link_place(fd, &li);
		close(fd);
	}
	return place;
}

int pm_jit_prog_info(struct pm_jit_sym *s)
{
	struct bpf_prog_info info;
	int fd, err;

	if (s->info_done || !s->prog_id)
		return s->prog_type ? 0 : -ENOENT;
	s->info_done = true;
	fd = fd_by_id(BPF_PROG_GET_FD_BY_ID, s->prog_id);
	if (fd < 0)
		return fd;
	memset(&info, 0, sizeof(info));
	err = obj_info(fd, &info, sizeof(info));
	close(fd);
	if (err)
		return err;
	s->prog_type = type_name(prog_types, PM_ARRAY_SIZE(prog_types), info.type);
	s->attach = prog_attach(s->prog_id);
	return 0;
}

/* The kernel's own name of a JIT image from kallsyms ([bpf]), else one
 * built the way the kernel builds it: bpf_prog_TAG_NAME. */
static char *func_name(const struct pm_symtab *kallsyms, uint64_t addr,
		       const uint8_t tag[8], const char *name)
{
	const struct pm_sym *k = kallsyms ? pm_symtab_lookup(kallsyms, addr) : NULL;
	const char *mod = pm_symtab_module(kallsyms, k);
	char p[sizeof(PROG_PREFIX) + 16];

	if (k && k->addr == addr && mod && !strcmp(mod, "bpf"))
		return pm_xstrdup(k->name);
	tag_prefix(tag, p);
	return name[0] ? pm_xasprintf("%s_%s", p, name) : pm_xstrdup(p);
}

/* One loaded program's JIT images (the main function and its
 * subprograms) into j; 0, or -errno when it cannot be read. */
static int add_prog(struct pm_jit_syms *j, uint32_t id, const struct pm_symtab *kallsyms)
{
	struct bpf_prog_info info;
	uint64_t ksyms[64];
	uint32_t lens[64];
	uint8_t tags[64][8];
	int fd = fd_by_id(BPF_PROG_GET_FD_BY_ID, id), err;
	uint32_t i, n;
	char *attach;

	if (fd < 0)
		return fd;
	memset(&info, 0, sizeof(info));
	info.nr_jited_ksyms = info.nr_jited_func_lens = info.nr_prog_tags = 64;
	info.jited_ksyms = (uint64_t)(uintptr_t)ksyms;
	info.jited_func_lens = (uint64_t)(uintptr_t)lens;
	info.prog_tags = (uint64_t)(uintptr_t)tags;
	err = obj_info(fd, &info, sizeof(info));
	close(fd);
	if (err)
		return err;
	n = info.nr_jited_ksyms < info.nr_jited_func_lens ? info.nr_jited_ksyms :
							    info.nr_jited_func_lens;
	if (n > 64)
		n = 64;		/* more subprograms than that: the first 64 */
	attach = n ? prog_attach(id) : NULL;
	for (i = 0; i < n; i++) {
		const uint8_t *tag = i < info.nr_prog_tags ? tags[i] : info.tag;
		char *name = func_name(kallsyms, ksyms[i], tag, info.name);
		struct pm_jit_sym *x = pm_jit_add(j, ksyms[i], lens[i], PM_JIT_BPF, name);

		free(name);
		x->prog_id = id;
		x->prog_type = type_name(prog_types, PM_ARRAY_SIZE(prog_types), info.type);
		x->attach = attach ? pm_xstrdup(attach) : NULL;
		x->info_done = true;
	}
	free(attach);
	return 0;
}

int pm_jit_load_bpf(struct pm_jit_syms *j, const struct pm_symtab *kallsyms,
		    struct pm_err *e)
{
	uint32_t id = 0;
	size_t i;
	int err;

	/* the first program tells whether we may look at them at all */
	err = next_id(BPF_PROG_GET_NEXT_ID, 0, &id);
	if (err == -ENOENT)
		id = 0;
	else if (err)
		return pm_err_set(e, err, "bpf(BPF_PROG_GET_NEXT_ID): %s", strerror(-err));
	else if ((err = fd_by_id(BPF_PROG_GET_FD_BY_ID, id)) < 0 && err != -ENOENT)
		return pm_err_set(e, err, "bpf(BPF_PROG_GET_FD_BY_ID): %s", strerror(-err));
	else if (err >= 0)
		close(err);
	/* programs seen before that are gone would hide what reuses their space */
	for (i = j->n; i-- > 0;)
		if (j->v[i].kind == PM_JIT_BPF &&
		    !strncmp(j->v[i].sym.name, PROG_PREFIX, sizeof(PROG_PREFIX) - 1))
			drop(j, i);
	for (; id; ) {
		add_prog(j, id, kallsyms);	/* unloaded meanwhile: skipped */
		if (next_id(BPF_PROG_GET_NEXT_ID, id, &id))
			break;
	}
	return 0;
}

#else	/* no bpf(2) headers: KSYMBOL records and kallsyms only */

int pm_jit_prog_info(struct pm_jit_sym *s)
{
	s->info_done = true;
	return -ENOSYS;
}

int pm_jit_load_bpf(struct pm_jit_syms *j, const struct pm_symtab *kallsyms,
		    struct pm_err *e)
{
	(void)j;
	(void)kallsyms;
	return pm_err_set(e, -ENOSYS, "built without bpf(2) program information");
}

#endif
