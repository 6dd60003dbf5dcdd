/* Kernel symbols: a vmlinux relocated to the running kernel, or kallsyms. */
#include "config.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "symbols/symbols.h"

#define KALLSYMS "/proc/kallsyms"

/* The running kernel's GNU build-id from /sys/kernel/notes, "" if none. */
static void running_build_id(char out[41])
{
	static const char hex[] = "0123456789abcdef";
	size_t len = 0, off = 0;
	char *buf;

	out[0] = '\0';
	if (pm_read_file("/sys/kernel/notes", &buf, &len))
		return;
	/* a sequence of Elf_Nhdr, name and desc each padded to 4 bytes */
	while (off + sizeof(Elf64_Nhdr) <= len) {
		Elf64_Nhdr nh;
		size_t name, desc, i;

		memcpy(&nh, buf + off, sizeof(nh));
		name = off + sizeof(nh);
		desc = name + ((nh.n_namesz + 3u) & ~3u);
		if (desc > len || nh.n_descsz > len - desc)
			break;
		if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 &&
		    !memcmp(buf + name, "GNU", 4)) {
			for (i = 0; i < nh.n_descsz && i < 20; i++) {
				out[2 * i] = hex[(unsigned char)buf[desc + i] >> 4];
				out[2 * i + 1] = hex[(unsigned char)buf[desc + i] & 15];
			}
			out[2 * i] = '\0';
			break;
		}
		off = desc + ((nh.n_descsz + 3u) & ~3u);
	}
	free(buf);
}

/*
 * A vmlinux usable for the running kernel: readable ELF, .symtab,
 * matching build-id, an _stext to relocate by.
 */
static int open_vmlinux(const char *path, struct pm_symtab **out,
			uint64_t *link_stext, struct pm_err *e)
{
	struct pm_elf_info info;
	struct pm_symtab *t;
	char running[41];
	int fd, err;

	*out = NULL;
	/* the file's own errno, before libelf and "no symbols" blur it */
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return pm_err_set(e, -errno, "vmlinux %s: %s", path, strerror(errno));
	close(fd);
	err = pm_symtab_load_elf(&t, path, e);
	if (err)
		return err == -ENOENT ? pm_err_set(e, -EINVAL, "vmlinux %s: no function symbols",
						   path)
				      : err;
	if (strcmp(pm_symtab_source(t), ".symtab")) {
		pm_symtab_free(t);
		return pm_err_set(e, -EINVAL, "vmlinux %s: no .symtab (stripped?)", path);
	}
	running_build_id(running);
	if (running[0] && !pm_elf_info(path, &info, NULL) && info.build_id[0] &&
	    strcmp(running, info.build_id)) {
		pm_symtab_free(t);
		return pm_err_set(e, -EINVAL,
				  "vmlinux %s: build-id %s is not the running kernel's (%s)",
				  path, info.build_id, running);
	}
	if (pm_elf_symbol_value(path, "_stext", link_stext, NULL) &&
	    pm_elf_symbol_value(path, "_text", link_stext, NULL)) {
		pm_symtab_free(t);
		return pm_err_set(e, -EINVAL, "vmlinux %s: no _stext symbol: not a vmlinux?",
				  path);
	}
	*out = t;
	return 0;
}

static bool cmdline_has(const char *word)
{
	size_t n = strlen(word);
	char *s, *p;
	bool found = false;

	if (pm_read_file("/proc/cmdline", &s, NULL))
		return false;
	for (p = s; (p = strstr(p, word)); p += n)
		if ((p == s || p[-1] == ' ') && (!p[n] || p[n] == ' ' || p[n] == '\n')) {
			found = true;
			break;
		}
	free(s);
	return found;
}

/* One sentence: why kallsyms shows zeros and which knob fixes it. */
static char *hidden_reason(void)
{
	long kptr = -1, paranoid = -1;
	bool hk = !pm_read_long("/proc/sys/kernel/kptr_restrict", &kptr);
	bool hp = !pm_read_long("/proc/sys/kernel/perf_event_paranoid", &paranoid);

	if (hk && kptr >= 2)
		return pm_xasprintf("kernel addresses are hidden: kptr_restrict=%ld hides them "
				    "from everyone, root included; sysctl kernel.kptr_restrict=1 "
				    "and run as root (or kernel.kptr_restrict=0 with "
				    "kernel.perf_event_paranoid=1)", kptr);
	if (hk && kptr == 1)
		return pm_xasprintf("kernel addresses are hidden: kptr_restrict=1 shows them "
				    "only to CAP_SYSLOG; run as root or sysctl "
				    "kernel.kptr_restrict=0 (with kernel.perf_event_paranoid<=1, "
				    "now %ld)", paranoid);
	if (hk && hp && paranoid >= 2)
		return pm_xasprintf("kernel addresses are hidden: kptr_restrict=0 with "
				    "perf_event_paranoid=%ld shows them only to CAP_SYSLOG; run "
				    "as root or sysctl kernel.perf_event_paranoid=1", paranoid);
	return pm_xasprintf("kernel addresses in " KALLSYMS " are all zero although "
			    "kptr_restrict=%ld and perf_event_paranoid=%ld should show them; "
			    "CAP_SYSLOG in the initial user namespace is missing (container?): "
			    "run as root on the host", kptr, paranoid);
}

/* /proc/kallsyms into *ks and the text bounds into k; true when the
 * kernel hides the addresses (why it failed is in ke). */
static bool load_kallsyms(struct pm_kernel_syms *k, struct pm_symtab **ks, struct pm_err *ke)
{
	const struct pm_sym *s;
	bool hidden = false;
	char *text;
	int err;

	err = pm_read_file(KALLSYMS, &text, NULL);
	if (err) {
		pm_err_set(ke, err, "cannot read " KALLSYMS ": %s", strerror(-err));
	} else {
		hidden = pm_symtab_from_kallsyms(ks, text, ke) == -EACCES;
		free(text);
	}
	if (*ks) {
		s = pm_symtab_find(*ks, "_stext");
		if (!s)
			s = pm_symtab_find(*ks, "_text");
		k->stext = s ? s->addr : 0;
		s = pm_symtab_find(*ks, "_etext");
		k->etext = s ? s->addr : 0;
	}
	return hidden;
}

/* The running kernel's vmlinux where distributions put it: its path
 * (NULL when none opens), its symbols in *vt. */
static char *find_vmlinux(struct pm_symtab **vt, uint64_t *link_stext)
{
	struct utsname u;
	char *vpath = NULL;
	size_t i;

	if (uname(&u))
		return NULL;
	char *cand[] = {
		pm_xasprintf("/usr/lib/debug/boot/vmlinux-%s", u.release),
		pm_xasprintf("/usr/lib/debug/lib/modules/%s/vmlinux", u.release),
		pm_xasprintf("/lib/modules/%s/build/vmlinux", u.release),
		pm_xasprintf("/boot/vmlinux-%s", u.release),
	};

	/* a candidate that is missing, stripped or stale is skipped */
	for (i = 0; i < PM_ARRAY_SIZE(cand); i++) {
		if (!vpath && !access(cand[i], R_OK) &&
		    !open_vmlinux(cand[i], vt, link_stext, NULL))
			vpath = cand[i];
		else
			free(cand[i]);
	}
	return vpath;
}

int pm_kernel_syms_load(struct pm_kernel_syms *k, const char *vmlinux_path,
			struct pm_err *e)
{
	struct pm_symtab *ks = NULL, *vt = NULL;
	struct pm_err ke = { "" };
	uint64_t link_stext = 0;
	char *why, *vpath = NULL;
	bool hidden;
	int err;

	memset(k, 0, sizeof(*k));
	hidden = load_kallsyms(k, &ks, &ke);

	if (vmlinux_path) {
		err = open_vmlinux(vmlinux_path, &vt, &link_stext, e);
		if (err) {
			pm_symtab_free(ks);
			memset(k, 0, sizeof(*k));
			return err;
		}
		vpath = pm_xstrdup(vmlinux_path);
	} else {
		vpath = find_vmlinux(&vt, &link_stext);
	}

	if (vt && ks && k->stext) {
		/* KASLR moved the whole image by one offset */
		pm_symtab_relocate(vt, k->stext - link_stext, "vmlinux");
		k->core = vt;
		k->kallsyms = ks;
		k->vmlinux = vpath;
		k->source = k->vmlinux;
		return 0;
	}
	if (vt && !ks && cmdline_has("nokaslr")) {
		/* not randomized: link-time addresses are the runtime ones */
		pm_symtab_relocate(vt, 0, "vmlinux");
		k->core = vt;
		k->vmlinux = vpath;
		k->source = k->vmlinux;
		k->stext = link_stext;
		if (pm_elf_symbol_value(vpath, "_etext", &k->etext, NULL))
			k->etext = 0;
		return 0;
	}
	if (ks) {
		/* kallsyms without _stext: a vmlinux cannot be placed by it */
		pm_symtab_free(vt);
		free(vpath);
		k->core = ks;
		k->source = KALLSYMS;
		return 0;
	}

	why = hidden ? hidden_reason() : pm_xstrdup(ke.msg);
	if (vt) {
		k->unavailable = pm_xasprintf("%s (%s cannot be placed without them: KASLR)",
					      why, vpath);
		free(why);
	} else {
		k->unavailable = why;
	}
	pm_symtab_free(vt);
	free(vpath);
	return 0;
}

const struct pm_sym *pm_kernel_lookup(const struct pm_kernel_syms *k,
				      uint64_t addr, const char **module)
{
	const struct pm_symtab *t[2] = { k->core, k->kallsyms };
	const struct pm_jit_sym *j = pm_jit_lookup(&k->jit, addr);
	size_t i;

	if (module)
		*module = j ? pm_jit_object(j) : NULL;
	if (j)
		return &j->sym;
	for (i = 0; i < PM_ARRAY_SIZE(t); i++) {
		const struct pm_sym *s = t[i] ? pm_symtab_lookup(t[i], addr) : NULL;
		const char *mod = pm_symtab_module(t[i], s);

		if (!s)
			continue;
		if (mod && !strcmp(mod, "bpf")) {
			/* kallsyms sizes it up to the next symbol; past the
			 * exact end is someone else's (classic BPF) code */
			j = pm_jit_lookup(&k->jit, s->addr);
			if (j && j->sym.addr == s->addr)
				return NULL;
			mod = "[bpf]";
		}
		if (module)
			*module = mod;
		return s;
	}
	return NULL;
}

struct pm_jit_sym *pm_kernel_jit(const struct pm_kernel_syms *k, const struct pm_sym *s)
{
	const struct pm_jit_sym *v = k->jit.v;

	if (!s || !v || (const void *)s < (const void *)v ||
	    (const void *)s >= (const void *)(v + k->jit.n))
		return NULL;
	return (struct pm_jit_sym *)((const char *)s - offsetof(struct pm_jit_sym, sym));
}

int pm_kernel_jit_refresh(struct pm_kernel_syms *k)
{
	return pm_jit_load_bpf(&k->jit, k->kallsyms ? k->kallsyms : k->core, NULL);
}

void pm_kernel_syms_free(struct pm_kernel_syms *k)
{
	if (!k)
		return;
	pm_symtab_free(k->core);
	pm_symtab_free(k->kallsyms);
	pm_jit_free(&k->jit);
	free(k->vmlinux);
	free(k->unavailable);
	memset(k, 0, sizeof(*k));
}
