/*
 * pmbench-tcg.so: the QEMU TCG plugin `pmbench ab` loads into its
 * emulated guests (pmbench-ab(1), EMULATED COUNTS).  The glue between
 * QEMU's plugin API (qemu-plugin.h) and the counting (tcg-count.c):
 *
 *   -plugin file=pmbench-tcg.so,out=PATH[,icache=on]
 *           counts into PATH, written when QEMU exits
 *   -plugin file=pmbench-tcg.so,probe=PATH
 *           writes what it found (API versions, target) into PATH and
 *           refuses to install, so that QEMU exits at once: how ab asks
 *           whether this QEMU can load it
 *
 * Kernel and user are told apart by the address of a block (the upper
 * half is the kernel's); API version 1 reads no registers.  Counters are
 * plain adds QEMU inlines into the translated code: exact when QEMU runs
 * the vCPUs in one thread (ab passes -accel tcg,thread=single).
 */
#include "config.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab/qemu-plugin.h"
#include "ab/tcg-count.h"

PM_QEMU_EXPORT int qemu_plugin_version = PM_QEMU_PLUGIN_API;
_Static_assert(PM_QEMU_PLUGIN_API == PM_TC_QEMU_API, "one API version");

static struct pm_tc *tc;
static char *out_path;
static bool icache;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static void on_marker(unsigned int vcpu, void *userdata)
{
	(void)vcpu;
	pthread_mutex_lock(&lock);
	pm_tc_mark(tc, (uint32_t)(uintptr_t)userdata);
	pthread_mutex_unlock(&lock);
}

static void on_fetch(unsigned int vcpu, void *userdata)
{
	pm_tc_fetch(tc, vcpu, userdata);
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb), i;
	uint64_t vaddr = qemu_plugin_tb_vaddr(tb);
	bool kernel = (int64_t)vaddr < 0;
	struct qemu_plugin_insn *insn = NULL;
	struct pm_tc_code code = { .n = 0 };
	struct pm_tc_block *b;
	enum pm_tc_branch br;
	uint32_t off;
	bool repeat;

	(void)id;
	if (!n)
		return;
	insn = qemu_plugin_tb_get_insn(tb, 0);
	if (pm_tc_is_marker(vaddr, kernel, (unsigned)n, qemu_plugin_insn_data(insn),
			    qemu_plugin_insn_size(insn), &off)) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_marker, QEMU_PLUGIN_CB_NO_REGS,
						     (void *)(uintptr_t)off);
		return;
	}
	for (i = 0; i < n; i++) {
		void *h;

		insn = qemu_plugin_tb_get_insn(tb, i);
		h = qemu_plugin_insn_haddr(insn);
		/* guest RAM's place in QEMU stands for the physical address */
		pm_tc_code_add(&code, h ? (uint64_t)(uintptr_t)h : qemu_plugin_insn_vaddr(insn),
			       (uint32_t)qemu_plugin_insn_size(insn));
	}
	br = pm_tc_classify(qemu_plugin_insn_data(insn), qemu_plugin_insn_size(insn));
	repeat = n == 1 && pm_tc_is_rep_string(qemu_plugin_insn_data(insn),
						qemu_plugin_insn_size(insn));
	pthread_mutex_lock(&lock);
	b = pm_tc_block(tc, vaddr, &code, (unsigned)n, kernel, br, repeat);
	pthread_mutex_unlock(&lock);
	if (!b)
		return;
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &b->execs, 1);
	if (icache)
		qemu_plugin_register_vcpu_tb_exec_cb(tb, on_fetch, QEMU_PLUGIN_CB_NO_REGS, b);
}

/* The counts, written whole or not at all. */
static void write_counts(qemu_plugin_id_t id, void *userdata)
{
	size_t len = strlen(out_path) + 8;
	char *tmp = malloc(len);
	FILE *f;
	int err;

	(void)id;
	(void)userdata;
	if (!tmp)
		return;
	snprintf(tmp, len, "%s.tmp", out_path);
	f = fopen(tmp, "w");
	if (!f) {
		free(tmp);
		return;
	}
	pthread_mutex_lock(&lock);
	err = pm_tc_write(tc, f);
	pthread_mutex_unlock(&lock);
	if (fclose(f) || err || rename(tmp, out_path))
		remove(tmp);
	free(tmp);
}

static const char *arg_value(const char *arg, const char *key)
{
	size_t n = strlen(key);

	return !strncmp(arg, key, n) && arg[n] == '=' ? arg + n + 1 : NULL;
}

/* probe=PATH: say what this QEMU offers, then refuse to install. */
static int probe(const char *path, const qemu_info_t *info)
{
	FILE *f = fopen(path, "w");

	if (!f)
		return -1;
	fprintf(f, "%s %s api %d %d target %s system %d\n", PM_TC_PLUGIN, PACKAGE_VERSION,
		info->version.min, info->version.cur, info->target_name ? info->target_name : "?",
		info->system_emulation ? 1 : 0);
	fclose(f);
	return -1;
}

PM_QEMU_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
				       int argc, char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		const char *v;

		if ((v = arg_value(argv[i], "probe")))
			return probe(v, info);
		if ((v = arg_value(argv[i], "out")))
			out_path = strdup(v);
		else if ((v = arg_value(argv[i], "icache")))
			icache = !strcmp(v, "on");
		else {
			fprintf(stderr, "%s: unknown argument '%s'\n", PM_TC_PLUGIN, argv[i]);
			return -1;
		}
	}
	if (!out_path) {
		fprintf(stderr, "%s: out=PATH is required\n", PM_TC_PLUGIN);
		return -1;
	}
	if (!info->system_emulation || !info->target_name ||
	    strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "%s: counts x86_64 system emulation only, not %s%s\n",
			PM_TC_PLUGIN, info->target_name ? info->target_name : "?",
			info->system_emulation ? "" : " user mode");
		return -1;
	}
	tc = pm_tc_new(info->system.max_vcpus > 0 ? (unsigned)info->system.max_vcpus : 1,
		       icache);
	if (!tc)
		return -ENOMEM;
	pm_tc_set_info(tc, PACKAGE_VERSION, info->version.min, info->version.cur);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, write_counts, NULL);
	return 0;
}
