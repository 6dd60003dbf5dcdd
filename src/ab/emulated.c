/*
 * Emulated counts (emulated.h): the TCG plugin's file read back and put
 * into a boot's result, benchmark by benchmark, as exact counts of an
 * emulated CPU; whether this QEMU can load the plugin at all.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ab/ab.h"
#include "ab/emulated.h"
#define PM_MARKER_ABI_ONLY
#include "bench/marker.h"
#include "stats/stats.h"
#include "sysinfo/sysinfo.h"

/* A profile keeps the symbols with at least this share of the kernel's
 * instructions, at most PROFILE_MAX of them; the rest is "other". */
#define PROFILE_MIN_SHARE 0.0005
#define PROFILE_MAX 400

/* ---- the plugin's file ---- */

void pm_tc_counts_free(struct pm_tc_counts *c)
{
	free(c->w);
	free(c->p);
	memset(c, 0, sizeof(*c));
}

static bool parse_u64(char **p, uint64_t *v)
{
	char *end;

	while (**p == ' ')
		(*p)++;
	if (**p < '0' || **p > '9')
		return false;
	errno = 0;
	*v = strtoull(*p, &end, 0);
	if (errno || end == *p)
		return false;
	*p = end;
	return true;
}

static int add_window(struct pm_tc_counts *c, char *p)
{
	struct pm_tc_window_rec w;
	uint64_t id;
	int k, f;

	if (!parse_u64(&p, &id) || id >= UINT32_MAX)
		return -EBADMSG;
	w.id = (unsigned)id;
	for (k = 0; k < 2; k++)
		for (f = 0; f < PM_TC_FIELDS; f++)
			if (!parse_u64(&p, &w.c[k][f]))
				return -EBADMSG;
	c->w = pm_xgrow(c->w, c->nw, sizeof(*c->w));
	c->w[c->nw++] = w;
	return 0;
}

static int add_prof(struct pm_tc_counts *c, char *p, bool repeat)
{
	struct pm_tc_prof_rec r;
	uint64_t id;

	if (!parse_u64(&p, &id) || id >= UINT32_MAX || !parse_u64(&p, &r.vaddr) ||
	    !parse_u64(&p, &r.insns))
		return -EBADMSG;
	r.id = (unsigned)id;
	r.repeat = repeat;
	c->p = pm_xgrow(c->p, c->np, sizeof(*c->p));
	c->p[c->np++] = r;
	return 0;
}

/* One line of the file (NUL-terminated); 1 at "end". */
static int parse_line(struct pm_tc_counts *c, char *line)
{
	unsigned a, b, d;
	uint64_t v;
	char *p;

	if (!strncmp(line, "w ", 2))
		return add_window(c, line + 2);
	if (!strncmp(line, "p ", 2) || !strncmp(line, "r ", 2))
		return add_prof(c, line + 2, line[0] == 'r');
	if (!strcmp(line, "end"))
		return 1;
	if (!strncmp(line, "plugin ", 7)) {
		snprintf(c->version, sizeof(c->version), "%s", line + 7);
	} else if (!strncmp(line, "api ", 4)) {
		if (sscanf(line + 4, "%d %d", &c->api_min, &c->api_cur) != 2)
			return -EBADMSG;
	} else if (!strncmp(line, "vcpus ", 6)) {
		if (sscanf(line + 6, "%u", &c->vcpus) != 1)
			return -EBADMSG;
	} else if (!strncmp(line, "icache off ", 11)) {
		snprintf(c->icache_off, sizeof(c->icache_off), "%s", line + 11);
	} else if (!strncmp(line, "icache ", 7)) {
		if (sscanf(line + 7, "%u %u %u", &a, &b, &d) != 3 || !a || !b || !d)
			return -EBADMSG;
		c->icache = true;
		c->icache_kib = a;
		c->icache_ways = b;
		c->icache_line = d;
	} else if (!strncmp(line, "dropped ", 8)) {
		p = line + 8;
		if (!parse_u64(&p, &v))
			return -EBADMSG;
		c->dropped = v;
	} else if (!strcmp(line, "error out-of-memory")) {
		c->nomem = true;
	}
	/* a line of a later plugin this reader does not know: passed over */
	return 0;
}

int pm_tc_counts_parse(struct pm_tc_counts *c, const char *text, size_t len,
		       const char *path, struct pm_err *e)
{
	char *copy = pm_xmalloc(len + 1), *line, *save = NULL;
	size_t n = 0;
	int err = 0, r = 0;

	memset(c, 0, sizeof(*c));
	memcpy(copy, text, len);
	copy[len] = '\0';
	if (strlen(copy) != len || strncmp(copy, PM_TC_FORMAT "\n", strlen(PM_TC_FORMAT) + 1)) {
		free(copy);
		return pm_err_set(e, -EBADMSG, "%s: not the counts of %s (no \"%s\" line first)",
				  path, PM_TC_PLUGIN, PM_TC_FORMAT);
	}
	for (line = strtok_r(copy, "\n", &save); line && r == 0;
	     line = strtok_r(NULL, "\n", &save)) {
		n++;
		r = parse_line(c, line);
		if (r < 0)
			err = pm_err_set(e, r, "%s:%zu: malformed line \"%.60s\"", path, n, line);
	}
	if (!err && r != 1)
		err = pm_err_set(e, -EBADMSG, "%s: cut short (no \"end\" line)", path);
	free(copy);
	if (err)
		pm_tc_counts_free(c);
	return err;
}

int pm_tc_counts_load(struct pm_tc_counts *c, const char *path, struct pm_err *e)
{
	char *text;
	size_t len;
	int err = pm_read_file_max(path, PM_READ_MAX_RESULT, &text, &len);

	memset(c, 0, sizeof(*c));
	if (err)
		return pm_err_set(e, err, "%s: %s", path, strerror(-err));
	err = pm_tc_counts_parse(c, text, len, path, e);
	free(text);
	return err;
}

const char *pm_tc_icache_why(const char *word)
{
	if (!word || !*word)
		return "the cache model was off";
	if (!strcmp(word, "not-requested"))
		return "the cache model was not asked for (--emulated-icache)";
	if (!strcmp(word, "no-geometry"))
		return "the guest CPU reported no L1 instruction cache geometry";
	if (!strncmp(word, "bad-geometry", 12))
		return "the guest CPU's L1 instruction cache geometry cannot be modelled "
		       "(a line that is no power of 2, or a size no whole number of sets)";
	if (!strcmp(word, "no-memory"))
		return "the plugin had no memory for the cache model";
	return "the cache model was off";
}

/* ---- kernel symbols ---- */

void pm_ab_ksyms_load(struct pm_ab_ksyms *k, const char *vmlinux, const char *shown_as)
{
	struct pm_err e;

	memset(k, 0, sizeof(*k));
	if (!vmlinux) {
		snprintf(k->why, sizeof(k->why), "no vmlinux with symbols for the guest kernel "
			 "on this host (install its -dbg package or give --vmlinux-a/-b)");
		return;
	}
	if (pm_symtab_load_kernel_text(&k->t, vmlinux, &e) ||
	    pm_elf_symbol_value(vmlinux, "_stext", &k->stext, &e)) {
		snprintf(k->why, sizeof(k->why), "%.500s", e.msg);
		pm_symtab_free(k->t);
		k->t = NULL;
		return;
	}
	k->source = pm_xstrdup(shown_as ? shown_as : vmlinux);
}

void pm_ab_ksyms_free(struct pm_ab_ksyms *k)
{
	pm_symtab_free(k->t);
	free(k->source);
	memset(k, 0, sizeof(*k));
}

/* ---- one benchmark ---- */

struct named {
	const char *name;	/* NULL: no symbol */
	double insns;		/* the path's: rep string iterations apart */
	double repeats;
};

static int by_name(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return x->name == y->name ? 0 : (uintptr_t)x->name < (uintptr_t)y->name ? -1 : 1;
}

static int by_insns(const void *a, const void *b)
{
	const struct named *x = a, *y = b;

	return x->insns == y->insns ? strcmp(x->name, y->name) : x->insns > y->insns ? -1 : 1;
}

/* Symbols of one benchmark's kernel blocks, most instructions first;
 * the harness's windows (weighted by harness_w) taken out. */
static size_t name_blocks(const struct pm_tc_counts *c, unsigned id, const struct pm_ab_ksyms *k,
			  uint64_t slide, double harness_w, struct named **out, double *unknown)
{
	struct named *v = pm_xcalloc(c->np ? c->np : 1, sizeof(*v));
	size_t i, n = 0, m = 0;

	*unknown = 0;
	for (i = 0; i < c->np; i++) {
		double w = c->p[i].id == id ? 1 : c->p[i].id == id + PM_MARKER_HARNESS ?
			   -harness_w : 0;
		const struct pm_sym *s;

		if (!w)
			continue;
		s = pm_symtab_lookup(k->t, c->p[i].vaddr - slide);
		if (!s) {
			if (!c->p[i].repeat)
				*unknown += w * (double)c->p[i].insns;
			continue;
		}
		v[n].name = s->name;
		if (c->p[i].repeat)
			v[n++].repeats = w * (double)c->p[i].insns;
		else
			v[n++].insns = w * (double)c->p[i].insns;
	}
	pm_sort(v, n, sizeof(*v), by_name);
	for (i = 0; i < n; i++) {
		if (m && v[m - 1].name == v[i].name) {
			v[m - 1].insns += v[i].insns;
			v[m - 1].repeats += v[i].repeats;
		} else {
			v[m++] = v[i];
		}
	}
	for (i = 0; i < m; i++) {
		v[i].insns = fmax(v[i].insns, 0);
		v[i].repeats = fmax(v[i].repeats, 0);
	}
	*unknown = fmax(*unknown, 0);
	pm_sort(v, m, sizeof(*v), by_insns);
	*out = v;
	return m;
}

static json_t *profile_json(const struct pm_tc_counts *c, unsigned id, const struct pm_ab_ksyms *k,
			    uint64_t guest_stext, double ops, double harness_w)
{
	struct named *v;
	double unknown, total = 0, other = 0;
	json_t *syms;
	size_t n, i;

	if (!k || !k->t)
		return json_pack("{s:s}", "unavailable", k ? k->why :
				 "no symbols for the guest kernel");
	if (!guest_stext)
		return json_pack("{s:s}", "unavailable", "the guest did not say where its "
				 "kernel text lies (_stext hidden in /proc/kallsyms)");
	n = name_blocks(c, id, k, guest_stext - k->stext, harness_w, &v, &unknown);
	for (i = 0; i < n; i++)
		total += v[i].insns;
	syms = json_array();
	for (i = 0; i < n; i++) {
		json_t *x;

		if (i >= PROFILE_MAX || (v[i].insns < PROFILE_MIN_SHARE * total &&
					 v[i].repeats < PROFILE_MIN_SHARE * total)) {
			other += v[i].insns;
			continue;
		}
		x = json_pack("{s:s,s:b,s:f}", "name", v[i].name, "kernel", 1, "instructions",
			      v[i].insns / ops);
		if (v[i].repeats > 0)
			json_object_set_new(x, "rep_iterations", json_real(v[i].repeats / ops));
		json_array_append_new(syms, x);
	}
	free(v);
	return json_pack("{s:f,s:s,s:o,s:f,s:f}", "ops", ops, "symbols_from", k->source,
			 "symbols", syms, "other", other / ops, "unknown", unknown / ops);
}

/* user and kernel of field f per op: {"user": .., "kernel": ..} */
static json_t *pair(const double s[2][PM_TC_FIELDS], int f, double ops)
{
	return json_pack("{s:f,s:f}", "user", s[0][f] / ops, "kernel", s[1][f] / ops);
}

static json_t *branches_json(const double s[2][PM_TC_FIELDS], double ops)
{
	json_t *j = json_object();
	int k, br;

	for (k = 0; k < 2; k++) {
		json_t *m = json_object();

		for (br = PM_TC_BR_NONE + 1; br < PM_TC_NBR; br++)
			json_object_set_new(m, pm_tc_branch_names[br],
					    json_real(s[k][PM_TC_F_BRANCH + br - 1] / ops));
		json_object_set_new(j, k ? "kernel" : "user", m);
	}
	return j;
}

/* The relative spread of per-window values: sd over mean, 0 for one window. */
static double rel_sd(const double *v, size_t n)
{
	double m = 0, ss = 0;
	size_t i;

	if (n < 2)
		return 0;
	for (i = 0; i < n; i++)
		m += v[i] / (double)n;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return m > 0 ? sqrt(ss / (double)(n - 1)) / m : 0;
}

/*
 * The window of the harness alone (bench/marker.h) of benchmark id: what
 * each of its trials' windows holds beside the operations.  The least of
 * each count over its windows: an interrupt or another process in one of
 * them only adds (taken out of every trial, it would take too much).
 * *sum_kernel: their kernel instructions together, which the profile's
 * harness blocks add up to.
 */
static size_t harness(const struct pm_tc_counts *c, unsigned id, double h[2][PM_TC_FIELDS],
		      double *sum_kernel)
{
	size_t i, n = 0;
	int k, f;

	memset(h, 0, sizeof(double) * 2 * PM_TC_FIELDS);
	*sum_kernel = 0;
	for (i = 0; i < c->nw; i++) {
		if (c->w[i].id != id + PM_MARKER_HARNESS)
			continue;
		for (k = 0; k < 2; k++)
			for (f = 0; f < PM_TC_FIELDS; f++)
				h[k][f] = n ? fmin(h[k][f], (double)c->w[i].c[k][f]) :
					  (double)c->w[i].c[k][f];
		*sum_kernel += (double)c->w[i].c[1][PM_TC_F_INSNS];
		n++;
	}
	return n;
}

/* One boot's counts of benchmark b, whose trials were marked with id:
 * each window less the harness's, which ran harness_iters iterations
 * (0 in files of pmbench before 0.1.1: the call into the loop stayed in,
 * a few instructions a trial). */
static json_t *bench_emulated(const struct pm_bench_result *b, const struct pm_tc_counts *c,
			      unsigned id, unsigned harness_iters, const struct pm_ab_ksyms *k,
			      uint64_t guest_stext, bool *ok)
{
	double per_window = (double)b->iterations * (double)b->ops_per_iter, ops, left;
	double *vk = pm_xcalloc(c->nw + 1, sizeof(*vk)), *vu = pm_xcalloc(c->nw + 1, sizeof(*vu));
	double s[2][PM_TC_FIELDS] = { { 0 } }, h[2][PM_TC_FIELDS], hsum;
	size_t i, nw = 0, nh = harness(c, id, h, &hsum);
	int kk, f;
	json_t *run, *em;

	*ok = false;
	for (i = 0; i < c->nw; i++) {
		double w[2][PM_TC_FIELDS];

		if (c->w[i].id != id)
			continue;
		for (kk = 0; kk < 2; kk++)
			for (f = 0; f < PM_TC_FIELDS; f++) {
				w[kk][f] = fmax((double)c->w[i].c[kk][f] - h[kk][f], 0);
				s[kk][f] += w[kk][f];
			}
		vu[nw] = w[0][PM_TC_F_INSNS];
		vk[nw++] = w[1][PM_TC_F_INSNS];
	}
	/* the operations a window holds beyond the harness's (which ran none
	 * where the trials are one iteration) */
	if (harness_iters && b->iterations <= harness_iters)
		harness_iters = 0;
	left = nh ? ((double)b->iterations - harness_iters) * (double)b->ops_per_iter : per_window;
	if (nw != b->ntrials || !(left > 0)) {
		char *why = nw != b->ntrials ?
			pm_xasprintf("%zu marked windows for %zu trials", nw, b->ntrials) :
			pm_xasprintf("no iterations per trial recorded");

		free(vk);
		free(vu);
		em = json_pack("{s:s}", "unavailable", why);
		free(why);
		return em;
	}
	for (i = 0; i < nw; i++) {
		vu[i] /= left;
		vk[i] /= left;
	}
	ops = left * (double)nw;
	run = json_pack("{s:i,s:i,s:f,s:o,s:o,s:o}", "run", 0, "windows", (int)nw, "ops", ops,
			"instructions", pair(s, PM_TC_F_INSNS, ops),
			"window_sd", json_pack("{s:f,s:f}", "user", rel_sd(vu, nw), "kernel",
					       rel_sd(vk, nw)),
			"branches", branches_json(s, ops));
	/* how many of the instructions are iterations of rep string instructions */
	json_object_set_new(run, "rep_iterations", pair(s, PM_TC_F_REPEATS, ops));
	/* what was taken out of each window: the harness's mean, per op */
	if (nh)
		json_object_set_new(run, "harness", pair(h, PM_TC_F_INSNS, per_window));
	if (c->icache)
		json_object_set_new(run, "icache_misses", pair(s, PM_TC_F_MISSES, ops));
	em = json_pack("{s:[o]}", "runs", run);
	if (c->icache)
		json_object_set_new(em, "icache", json_pack("{s:i,s:i,s:i}", "size_kib",
				    (int)c->icache_kib, "ways", (int)c->icache_ways, "line",
				    (int)c->icache_line));
	/* the harness blocks of the profile weighted to the least window's
	 * kernel instructions, once per trial */
	json_object_set_new(em, "kernel_profile", profile_json(c, id, k, guest_stext, ops,
			    hsum > 0 ? (double)nw * h[1][PM_TC_F_INSNS] / hsum : 0));
	free(vk);
	free(vu);
	*ok = true;
	return em;
}

size_t pm_ab_emulated_attach(struct pm_result *r, const struct pm_tc_counts *c,
			     const struct pm_ab_ksyms *k, char *why, size_t len)
{
	json_t *markers = json_object_get(r->options, "markers");
	json_t *ids = json_object_get(markers, "ids");
	const char *st = json_string_value(json_object_get(markers, "kernel_stext"));
	uint64_t stext = st ? strtoull(st, NULL, 16) : 0;
	json_int_t hi = json_integer_value(json_object_get(markers, "harness_iterations"));
	size_t i, n = 0;

	if (!json_is_object(ids)) {
		snprintf(why, len, "the guest's pmbench placed no trial markers");
		return 0;
	}
	if (json_is_string(json_object_get(markers, "unavailable"))) {
		snprintf(why, len, "the guest's pmbench placed no trial markers: %s",
			 json_string_value(json_object_get(markers, "unavailable")));
		return 0;
	}
	if (c->nomem) {
		snprintf(why, len, "the plugin ran out of memory: its counts are incomplete");
		return 0;
	}
	for (i = 0; i < r->nbench; i++) {
		struct pm_bench_result *b = &r->bench[i];
		json_t *id = json_object_get(ids, b->name);
		bool ok;

		if (b->status != PM_BENCH_OK || b->measured || !b->ntrials || !json_is_integer(id))
			continue;
		json_decref(b->emulated);
		b->emulated = bench_emulated(b, c, (unsigned)json_integer_value(id),
					     hi > 0 && hi < 1000 ? (unsigned)hi : 0, k, stext, &ok);
		n += ok;
	}
	if (!n)
		snprintf(why, len, "no benchmark's marked windows matched its trials");
	return n;
}

/* ---- the plugin and QEMU ---- */

/* Run argv to its end within limit_s, its output into log; its status. */
static int run_quick(char **argv, const char *log, double limit_s)
{
	struct timespec tick = { 0, 20 * 1000000L };
	struct pm_err e;
	pid_t pid = pm_ab_spawn(argv, log, false, -1, &e);
	uint64_t t0 = pm_now_ns();
	int status;

	if (pid < 0)
		return -1;
	while (waitpid(pid, &status, WNOHANG) != pid) {
		if ((double)(pm_now_ns() - t0) / 1e9 > limit_s) {
			pm_boot_kill(pid);
			return -1;
		}
		nanosleep(&tick, NULL);
	}
	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The first line of a file, trimmed ("" when unreadable). */
static void first_line(const char *path, char *buf, size_t len)
{
	char *text = NULL, *nl;

	buf[0] = '\0';
	if (pm_read_file(path, &text, NULL))
		return;
	nl = strchr(text, '\n');
	if (nl)
		*nl = '\0';
	snprintf(buf, len, "%s", pm_strtrim(text));
	free(text);
}

static void probe_plugin(struct pm_ab_counting *c, const char *qemu, const char *dir)
{
	char *out = pm_xasprintf("%s/plugin-probe.out", dir), *log, *arg, *pe, *oe;
	char line[512], target[32] = "";
	int system = 0;

	log = pm_xasprintf("%s/plugin-probe.log", dir);
	pe = pm_qemu_escape(c->plugin);
	oe = pm_qemu_escape(out);
	arg = pm_xasprintf("file=%s,probe=%s", pe, oe);
	{
		char *argv[] = { (char *)qemu, "-nodefaults", "-no-user-config", "-display", "none",
				 "-M", "none", "-accel", "tcg", "-plugin", arg, NULL };

		run_quick(argv, log, 30);
	}
	first_line(out, line, sizeof(line));
	if (sscanf(line, PM_TC_PLUGIN " %63s api %d %d target %31s system %d", c->version,
		   &c->api_min, &c->api_cur, target, &system) == 5 && !strcmp(target, "x86_64") &&
	    system == 1) {
		c->on = true;
	} else if (line[0]) {
		snprintf(c->why, sizeof(c->why), "%s loads %s but it reports \"%s\"", qemu,
			 PM_TC_PLUGIN, line);
	} else {
		first_line(log, line, sizeof(line));
		snprintf(c->why, sizeof(c->why), "%s cannot load %s: %s", qemu, c->plugin,
			 line[0] ? line : "no answer");
	}
	unlink(out);
	unlink(log);
	free(out);
	free(log);
	free(pe);
	free(oe);
	free(arg);
}

void pm_ab_counting_probe(struct pm_ab_counting *c, const char *qemu, const char *plugin,
			  const char *dir)
{
	char *log = pm_xasprintf("%s/qemu-version.log", dir);
	char *argv[] = { (char *)qemu, "--version", NULL };

	c->on = false;
	c->why[0] = '\0';
	free(c->plugin);
	c->plugin = pm_xstrdup(plugin);
	if (run_quick(argv, log, 30) == 0)
		first_line(log, c->qemu_version, sizeof(c->qemu_version));
	unlink(log);
	free(log);
	if (access(plugin, R_OK)) {
		snprintf(c->why, sizeof(c->why), "no plugin %s: %s (run from the build tree or "
			 "install pmbench)", plugin, strerror(errno));
		return;
	}
	probe_plugin(c, qemu, dir);
}

void pm_ab_counting_free(struct pm_ab_counting *c)
{
	free(c->plugin);
	c->plugin = NULL;
}

char *pm_ab_plugin_arg(const struct pm_ab_counting *c, const char *out)
{
	char *pe = pm_qemu_escape(c->plugin), *oe = pm_qemu_escape(out);
	char *arg = pm_xasprintf("file=%s,out=%s%s", pe, oe, c->icache ? ",icache=on" : "");

	free(pe);
	free(oe);
	return arg;
}

void pm_ab_counting_fingerprint(const struct pm_ab_counting *c, json_t *sysinfo)
{
	char *counter = pm_xasprintf("%s %s (QEMU plugin API %d, this QEMU takes %d-%d)%s",
				     PM_TC_PLUGIN, c->version, PM_TC_QEMU_API, c->api_min,
				     c->api_cur, c->icache ? ", i-cache model" : "");

	json_t *un = json_object_get(sysinfo, pm_fp_key(PM_FP_UNAVAILABLE));

	pm_sysinfo_set(sysinfo, PM_FP_HYPERVISOR_COUNTER, json_string(counter));
	json_object_del(un, pm_fp_key(PM_FP_HYPERVISOR_COUNTER));
	if (c->qemu_version[0]) {
		pm_sysinfo_set(sysinfo, PM_FP_HYPERVISOR_QEMU, json_string(c->qemu_version));
		json_object_del(un, pm_fp_key(PM_FP_HYPERVISOR_QEMU));
	}
	free(counter);
}

/* ---- a boot's counts ---- */

size_t pm_ab_job_counts(struct pm_ab_job *j, const struct pm_ab_env *env, struct pm_result *r,
			char *why, size_t len)
{
	struct pm_ab_arm *a = j->arm;
	struct pm_tc_counts c;
	struct pm_err e;
	size_t n;

	if (!j->counts_path || !env->counting) {
		snprintf(why, len, "the boot was not counted");
		return 0;
	}
	if (pm_tc_counts_load(&c, j->counts_path, &e)) {
		snprintf(why, len, "no counts from %s: %s", PM_TC_PLUGIN, e.msg);
		return 0;
	}
	if (!a->ksyms) {
		/* ab's stripped copy has the symbols and section addresses */
		a->ksyms = pm_xcalloc(1, sizeof(*a->ksyms));
		pm_ab_ksyms_load(a->ksyms, a->vmlinux, a->vmlinux_from);
	}
	n = pm_ab_emulated_attach(r, &c, a->ksyms, why, len);
	if (n)
		pm_ab_counting_fingerprint(env->counting, r->sysinfo);
	pm_tc_counts_free(&c);
	return n;
}
