/*
 * Why?  A table of rules.  Each looks at one benchmark's comparison and
 * the fingerprint differences, and when it applies gives a confidence,
 * a sentence a kernel engineer would write, and the figures behind it.
 * Fingerprint differences are hypotheses: alone they stay below "high"
 * confidence (0.7); counters and hotspots confirm or reject them.
 */
#include "config.h"

#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "explain/mechmap.h"
#include "results/exercise.h"
#include "sysinfo/sysinfo.h"

#define HIGH 0.7

struct finding {
	const char *title;	/* NULL: the rule's */
	double confidence;
	char sentence[1024];
	char *evidence[8];
	size_t nevidence;
};

typedef void (*rule_fn)(const struct pm_bench_cmp *c,
			const struct pm_explanation *x, struct finding *f);

static void say(struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(struct finding *f, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(f->sentence, sizeof(f->sentence), fmt, ap);
	va_end(ap);
}

static void evidence(struct finding *f, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void evidence(struct finding *f, const char *fmt, ...)
{
	va_list ap;
	char *s;

	if (f->nevidence >= PM_ARRAY_SIZE(f->evidence))
		return;
	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) >= 0)
		f->evidence[f->nevidence++] = s;
	va_end(ap);
}

static void fmt_ns(char *buf, size_t len, double ns)
{
	pm_fmt_time(buf, len, fabs(ns));
}

static const char *sign(double v)
{
	return v < 0 ? "-" : "+";
}

static const char *slower_word(const struct pm_bench_cmp *c)
{
	return c->delta_ns >= 0 ? "slower" : "faster";
}

static double kernel_delta(const struct pm_bench_cmp *c)
{
	return c->kernel_ns.new - c->kernel_ns.old;
}

static double user_delta(const struct pm_bench_cmp *c)
{
	return c->user_ns.new - c->user_ns.old;
}

/* User time at system call return points: entry/exit cost, not user code. */
static double trap_delta(const struct pm_bench_cmp *c)
{
	return c->trap_ns.new - c->trap_ns.old;
}

/* A user symbol's change without its samples at system call returns. */
static double user_code_delta(const struct pm_sym_delta *d)
{
	return (d->new_ns - d->new_trap_ns) - (d->old_ns - d->old_trap_ns);
}

/* Does its operation exercise any of these (PM_EX_* bits)?  The result
 * files say; for older files the command filled them in by name. */
static bool exercises(const struct pm_bench_cmp *c, unsigned traits)
{
	return (c->exercises & traits) != 0;
}

/* Memory management in the kernel: page tables made, copied or freed,
 * or page faults handled (a fault walks and fills the levels too). */
#define PM_EX_MM (PM_EX_VM | PM_EX_FAULT)

static bool name_matches(const char *name, const char *const *pat)
{
	for (; *pat; pat++)
		if (!fnmatch(*pat, name, 0))
			return true;
	return false;
}

/* Sum of symbol deltas (ns/op) whose name matches, kernel side only
 * when kernel_only; *top gets the biggest contributor. */
static double sym_delta(const struct pm_bench_cmp *c, const char *const *pat,
			bool kernel_only, const struct pm_sym_delta **top)
{
	double sum = 0, best = 0;
	size_t i;

	if (top)
		*top = NULL;
	for (i = 0; i < c->nsyms; i++) {
		const struct pm_sym_delta *d = &c->syms[i];
		double v = d->new_ns - d->old_ns;

		if ((kernel_only && !d->kernel) || !name_matches(d->name, pat))
			continue;
		sum += v;
		if (top && fabs(v) > best) {
			best = fabs(v);
			*top = d;
		}
	}
	return sum;
}

/* Part of the change a quantity explains, 0..1 (same direction only). */
static double part_of(const struct pm_bench_cmp *c, double delta)
{
	if (!c->delta_ns || isnan(delta) || (delta > 0) != (c->delta_ns > 0))
		return 0;
	return fmin(delta / c->delta_ns, 1);
}

static void sym_evidence(struct finding *f, const struct pm_sym_delta *d)
{
	char a[32], b[32], dd[32];

	if (!d)
		return;
	fmt_ns(a, sizeof(a), d->old_ns);
	fmt_ns(b, sizeof(b), d->new_ns);
	fmt_ns(dd, sizeof(dd), d->new_ns - d->old_ns);
	if (d->is_new)
		evidence(f, "%s (%s): new in NEW, %s/op", d->name, d->object, b);
	else if (d->vanished)
		evidence(f, "%s (%s): gone in NEW (was %s/op)", d->name, d->object, a);
	else
		evidence(f, "%s (%s): %s -> %s per op (%s%s)", d->name, d->object,
			 a, b, sign(d->new_ns - d->old_ns), dd);
	if (!isnan(d->old_size) && !isnan(d->new_size) && d->old_size > 0 &&
	    d->new_size > 0 && d->old_size != d->new_size)
		evidence(f, "%s grew from %.0f to %.0f bytes", d->name, d->old_size,
			 d->new_size);
}

static void diff_evidence(struct finding *f, const struct pm_fp_diff *d)
{
	if (d)
		evidence(f, "%s: %s -> %s", d->key, d->old, d->new);
}

/* ---- the rules ---- */

static const char *const pt_syms[] = {
	"copy_page_range", "copy_p[4gum]d_range", "copy_pte_range",
	"__p[4gum]d_alloc", "p[4gum]d_alloc*", "pgd_alloc", "pgd_free", "_pgd_alloc",
	"free_pgtables", "free_p[4gum]d_range", "free_pgd_range", "unmap_page_range",
	"zap_p[4gum]d_range", "zap_pte_range", "pte_alloc*", "__pte_alloc*",
	"___pte_free_tlb", "___pmd_free_tlb", "___pud_free_tlb", "___p4d_free_tlb",
	"walk_p[4gum]d_range", "pgd_ctor", "pgtable_*", NULL,
};

/* A walk benchmark's change: the side it goes agrees with the levels
 * (more levels slower), and where the time went (the loads, user side). */
static void page_walk_evidence(const struct pm_bench_cmp *c,
			       const struct pm_fp_diff *d, struct finding *f)
{
	long lo = d ? strtol(d->old, NULL, 10) : 0, ln = d ? strtol(d->new, NULL, 10) : 0;
	double part = part_of(c, user_delta(c) - trap_delta(c));

	f->confidence = 0.55;
	if (lo > 0 && ln > 0 && lo != ln) {
		if ((ln > lo) == (c->delta_ns > 0))
			f->confidence += 0.2;
		else
			f->confidence = 0.15;	/* fewer levels yet slower: not this */
		evidence(f, "page-table levels per TLB miss: %ld -> %ld (%+.0f%% loads walked); "
			 "%s is %+.1f%% per load", lo, ln, 100.0 * (ln - lo) / lo,
			 c->name, 100 * (c->ratio - 1));
	}
	/* the user time is the walk itself: a cause, ranked above the
	 * user-code rule that only says where the time went */
	if (c->split_source && part >= 0.5) {
		if (f->confidence > 0.5)
			f->confidence += 0.15;
		evidence(f, "user time per op (the loads that walk): %.0f -> %.0f ns",
			 c->user_ns.old, c->user_ns.new);
	}
}

static void rule_page_tables(const struct pm_bench_cmp *c,
			     const struct pm_explanation *x, struct finding *f)
{
	const struct pm_fp_diff *d = pm_fp_find(x, PM_FP_KERNEL_PAGE_TABLE_LEVELS);
	const struct pm_fp_diff *pae = pm_fp_find_member(x, PM_FP_KERNEL_CONFIG, "CONFIG_X86_PAE");
	const struct pm_fp_diff *lvl = pm_fp_find_member(x, PM_FP_KERNEL_CONFIG, "CONFIG_PGTABLE_LEVELS");
	const struct pm_sym_delta *top;
	double pt = sym_delta(c, pt_syms, true, &top), part = part_of(c, pt);
	char t[32], all[32];

	if (!d && !pae && !lvl)
		return;
	/* every operation a TLB miss: the walk is done by the MMU (or QEMU's
	 * software one), so an extra level costs at the load, in user time,
	 * and the page-table code of the kernel does not change */
	if (exercises(c, PM_EX_WALK)) {
		if (d)
			say(f, "NEW uses %s-level page tables where OLD used %s-level: every "
			    "operation of %s is a TLB miss, and each miss walks %s levels "
			    "instead of %s.", d->new, d->old, c->name, d->new, d->old);
		else
			say(f, "The page-table configuration changed (%s): every operation of "
			    "%s is a TLB miss that walks a different number of levels.",
			    pae ? pae->key : lvl->key, c->name);
		page_walk_evidence(c, d, f);
		diff_evidence(f, d);
		diff_evidence(f, pae);
		diff_evidence(f, lvl);
		return;
	}
	f->confidence = exercises(c, PM_EX_MM) ? 0.45 : 0.2;
	if (c->have_kernel_syms) {
		if (part >= 0.3)
			f->confidence += 0.35;
		else if (part < 0.05)
			f->confidence -= 0.2;	/* the page-table code did not change */
	}
	fmt_ns(t, sizeof(t), pt);
	fmt_ns(all, sizeof(all), c->delta_ns);
	if (d)
		say(f, "NEW uses %s-level page tables where OLD used %s-level: %s has "
		    "more page-table levels to allocate, copy and free%s%s%s%s.",
		    d->new, d->old, c->name,
		    c->have_kernel_syms ? "; page-table code accounts for " : "",
		    c->have_kernel_syms ? t : "", c->have_kernel_syms ? " of the " : "",
		    c->have_kernel_syms ? all : "");
	else
		say(f, "The page-table configuration changed (%s): %s walks a different "
		    "number of page-table levels.", pae ? pae->key : lvl->key, c->name);
	diff_evidence(f, d);
	diff_evidence(f, pae);
	diff_evidence(f, lvl);
	if (c->have_kernel_syms) {
		char sh[160];

		pm_share_words(sh, sizeof(sh), c, pt, false);
		evidence(f, "page-table symbols: %s%s per op (%s)", sign(pt), t, sh);
	}
	sym_evidence(f, top);
}

static const char *const pv_syms[] = {
	"*paravirt*", "pv_*", "*_pv_*", "native_*", "xen_*", "kvm_*clock*",
	"__raw_callee_save_*", NULL,
};

static void rule_paravirt(const struct pm_bench_cmp *c,
			  const struct pm_explanation *x, struct finding *f)
{
	const struct pm_fp_diff *d = pm_fp_find(x, PM_FP_KERNEL_PARAVIRT);
	const struct pm_fp_diff *cfg = pm_fp_find_member(x, PM_FP_KERNEL_CONFIG, "CONFIG_PARAVIRT");
	const struct pm_fp_diff *text = pm_fp_find(x, PM_FP_KERNEL_TEXT_SIZE);
	const struct pm_sym_delta *top;
	double pv = sym_delta(c, pv_syms, true, &top), part = part_of(c, pv);
	double grow = text ? strtod(text->new, NULL) - strtod(text->old, NULL) : 0;
	char t[32];

	if (!d && !cfg)
		return;
	f->confidence = exercises(c, PM_EX_MM) ? 0.45 : 0.3;
	if (c->have_kernel_syms && part >= 0.15)
		f->confidence += 0.3;
	if (grow > 0 && c->have_counters && c->icache_mpki.new > c->icache_mpki.old * 1.1)
		f->confidence += 0.15;
	fmt_ns(t, sizeof(t), pv);
	{
		char tg[128] = "";

		if (grow > 0)
			snprintf(tg, sizeof(tg), ", and its kernel text is %.0f KiB larger (more "
				 "icache and branch-predictor footprint)", grow / 1024);
		say(f, "NEW is built %s CONFIG_PARAVIRT: memory-management and interrupt paths go "
		    "through paravirt hooks (pv_ops)%s; %s is %.1f%% %s.",
		    (cfg && !strcmp(cfg->new, "y")) || (d && !strcmp(d->new, "yes")) ?
		    "with" : "without", tg, c->name, 100 * fabs(c->ratio - 1), slower_word(c));
	}
	diff_evidence(f, cfg ? cfg : d);
	diff_evidence(f, text);
	if (c->have_kernel_syms)
		evidence(f, "paravirt/native hook symbols: %s%s per op", sign(pv), t);
	sym_evidence(f, top);
	if (c->have_counters)
		evidence(f, "icache misses per 1000 instructions: %.2f -> %.2f",
			 c->icache_mpki.old, c->icache_mpki.new);
}

/*
 * Kernel entry and exit.  Entry (and with page-table isolation the CR3
 * switch) runs with interrupts off: a timer sample due then lands on the
 * first instruction that enables them, in syscall_enter_from_user_mode,
 * or on the way out on the user instruction after the syscall (counted
 * as trap_ns).  Return and indirect-branch thunks are what retbleed,
 * ITS and spectre_v2 mitigations add to every call.
 */
/* The mechanisms whose code a mitigation slows down on the way into and
 * out of the kernel (mechanisms/kernel.mech: their paths and symbols). */
static const char *const entry_mechs[] = { "entry", "mitigations", "generic.entry",
					       "generic.retpoline", NULL };

/* Whether mechanism k, or the one it is a part of, is in v. */
static bool mech_in(const char *const *v, const struct pm_mech *k)
{
	for (; k && *v; v++)
		if (!strcmp(*v, k->id) || !strcmp(*v, k->top->id))
			return true;
	return false;
}

/* The kernel time of the hot symbols that the NEW side's map places in
 * one of mechs; top: the one that moved most. */
static double mech_sym_delta(const struct pm_bench_cmp *c, const struct pm_explanation *x,
			     const char *const *mechs, const struct pm_sym_delta **top)
{
	const struct pm_mechmap *m = pm_side_mechmap(x->new);
	double sum = 0, best = 0;
	size_t i;

	*top = NULL;
	for (i = 0; m && i < c->nsyms; i++) {
		const struct pm_sym_delta *d = &c->syms[i];
		const struct pm_mech *k = d->kernel ? pm_sym_mechanism(m, d->name) : NULL;
		double v = d->new_ns - d->old_ns;

		if (!mech_in(mechs, k))
			continue;
		sum += v;
		if (fabs(v) > best) {
			best = fabs(v);
			*top = d;
		}
	}
	return sum;
}

static bool is_mitigation_diff(const struct pm_fp_diff *d)
{
	return pm_fp_diff_member(d, PM_FP_VULNERABILITIES) ||
	       !strcmp(d->key, pm_fp_key(PM_FP_MITIGATIONS));
}

static bool cmdline_mentions_mitigations(const struct pm_fp_diff *d)
{
	static const char *const words[] = {
		"mitigations=", "pti", "spectre", "retbleed", "srso", "mds=",
		"tsx_async_abort", "l1tf", "nospec", "nosmt", NULL,
	};
	const char *const *w;

	if (!d)
		return false;
	for (w = words; *w; w++)
		if (strstr(d->old, *w) || strstr(d->new, *w))
			return true;
	return false;
}

/* What a changed vulnerabilities/ file says the kernel now does. */
static const char *mitigation_mechanism(const struct pm_fp_diff *d)
{
	/* members of vulnerabilities: the files' names */
	static const struct {
		const char *file, *what;
	} m[] = {
		{ "meltdown", "page-table isolation (a CR3 switch on every entry and exit)" },
		{ "mds", "CPU buffer clearing (verw) on every exit" },
		{ "tsx_async_abort", "CPU buffer clearing (verw) on every exit" },
		{ "mmio_stale_data", "CPU buffer clearing (verw) on every exit" },
		{ "reg_file_data_sampling", "register file clearing on exit" },
		{ "retbleed", "return thunks on every return" },
		{ "spec_rstack_overflow", "return thunks on every return" },
		{ "indirect_target_selection", "ITS return and branch thunks" },
		{ "spectre_v2", "retpolines or IBRS on indirect branches" },
		{ "spectre_v1", "swapgs barriers on entry" },
		{ "l1tf", "L1D flushes" },
		{ "srbds", "RNG access serialization" },
		{ "gather_data_sampling", "gather data sampling mitigation" },
	};
	size_t i;

	const char *file = pm_fp_diff_member(d, PM_FP_VULNERABILITIES);

	for (i = 0; file && i < PM_ARRAY_SIZE(m); i++)
		if (!strcmp(file, m[i].file))
			return m[i].what;
	return NULL;
}

/*
 * How much a changed fact says the kernel protects itself: a
 * vulnerabilities/ file's "Mitigation: ..." 2, buffer clearing attempted
 * without microcode 1, "Vulnerable" 0; mitigations= "off" 0, else 2;
 * -1 for other facts.
 */
static int protection(const struct pm_fp_diff *d, const char *v)
{
	if (pm_fp_diff_member(d, PM_FP_VULNERABILITIES)) {
		if (!strncmp(v, "Mitigation", 10))
			return 2;
		return strstr(v, "Clear CPU buffers attempted") ? 1 : 0;
	}
	if (!strcmp(d->key, pm_fp_key(PM_FP_MITIGATIONS)))
		return strcmp(v, "off") ? 2 : 0;
	return -1;
}

/* The side that has the mitigations the diffs name: "NEW", "OLD", or
 * "one side" when they disagree or do not say. */
static const char *protected_side(const struct pm_explanation *x)
{
	int vote = 0;
	size_t i;

	for (i = 0; i < x->ndiffs; i++) {
		int o = protection(&x->diffs[i], x->diffs[i].old);
		int n = protection(&x->diffs[i], x->diffs[i].new);

		if (o >= 0 && n >= 0)
			vote += (n > o) - (n < o);
	}
	return vote > 0 ? "NEW" : vote < 0 ? "OLD" : "one side";
}

/*
 * Mitigations: the fingerprint says for certain that the kernel protects
 * itself differently; the profile says whether that is where the time
 * went (entry/exit symbols and user samples at the syscall's return
 * point), and the benchmark's kind says whether it enters the kernel
 * often enough to pay for it.
 */
/* What the fingerprints say of the mitigations: the differences (the
 * first three, as "key: old -> new"), the mechanisms they name, whether
 * the kernel's own vulnerabilities files moved. */
struct mitigation_diffs {
	size_t n;
	struct pm_buf list, mechs;
	bool vuln;
};

static void mitigation_diffs(const struct pm_explanation *x, struct mitigation_diffs *m)
{
	const char *seen[4];
	size_t i, k, nseen = 0;

	for (i = 0; i < x->ndiffs; i++) {
		const struct pm_fp_diff *d = &x->diffs[i];
		const char *w;

		if (!is_mitigation_diff(d))
			continue;
		m->vuln = m->vuln || pm_fp_diff_member(d, PM_FP_VULNERABILITIES);
		if (m->n++ < 3) {
			pm_buf_sep(&m->list, "; ");
			pm_buf_addf(&m->list, "%s: %s -> %s", d->key, d->old, d->new);
		}
		w = mitigation_mechanism(d);
		for (k = 0; w && k < nseen && strcmp(seen[k], w); k++)
			;
		if (w && k == nseen && nseen < PM_ARRAY_SIZE(seen))
			seen[nseen++] = w;
	}
	for (k = 0; k < nseen; k++)
		pm_buf_addf(&m->mechs, "%s%s", k ? (k + 1 == nseen ? " and " : ", ") : "", seen[k]);
}

/* The other syscall-bound benchmarks that changed the same way: how many,
 * the first four named in out. */
static size_t changed_alike(const struct pm_bench_cmp *c, const struct pm_explanation *x,
			    struct pm_buf *out)
{
	size_t i, n = 0;

	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *o = &x->cmp[i];

		if (!exercises(o, PM_EX_SYSCALL) || !pm_verdict_changed(o->verdict) ||
		    (o->delta_ns > 0) != (c->delta_ns > 0))
			continue;
		if (++n <= 4) {
			pm_buf_sep(out, ", ");
			pm_buf_add(out, o->name);
		}
	}
	return n;
}

/* The user symbol whose samples at a syscall's return point moved most. */
static const struct pm_sym_delta *top_trap_sym(const struct pm_bench_cmp *c)
{
	const struct pm_sym_delta *top = NULL;
	double best = 0;
	size_t i;

	for (i = 0; i < c->nsyms; i++) {
		double v = c->syms[i].new_trap_ns - c->syms[i].old_trap_ns;

		if (!c->syms[i].kernel && fabs(v) > best) {
			best = fabs(v);
			top = &c->syms[i];
		}
	}
	return top;
}

/* How sure: a system-call-bound benchmark, the kernel's own report, and
 * the share of the change the entry/exit cost carries. */
static double mitigation_confidence(const struct pm_bench_cmp *c, bool vuln, double trap,
				    double part)
{
	double conf = exercises(c, PM_EX_SYSCALL) ? 0.45 : 0.25;

	if (vuln)
		conf += 0.05;
	if (c->split_source && part_of(c, kernel_delta(c) + trap) >= 0.6)
		conf += 0.1;
	if (c->have_kernel_syms && part >= 0.3)
		conf += 0.3;
	else if (c->have_kernel_syms && part < 0.05)
		conf -= 0.2;
	return conf;
}

/* "entry/exit cost is +X per op (share: kernel entry/exit code +Y, user
 * samples at the syscall's return point +Z)" */
static void entry_cost_words(struct pm_buf *b, const struct pm_bench_cmp *c, double ken,
			     double trap)
{
	char t[32], kt[32], tt[32], sh[160];
	bool traps = c->trap_ns.old > 0 || c->trap_ns.new > 0;

	fmt_ns(t, sizeof(t), ken + trap);
	fmt_ns(kt, sizeof(kt), ken);
	fmt_ns(tt, sizeof(tt), trap);
	pm_share_words(sh, sizeof(sh), c, ken + trap, false);
	pm_buf_addf(b, "%s%s per op (%s: kernel entry/exit code %s%s", sign(ken + trap), t, sh,
		    sign(ken), kt);
	if (traps)
		pm_buf_addf(b, ", user samples at the syscall's return point %s%s", sign(trap), tt);
	pm_buf_add(b, ")");
}

static void rule_mitigations(const struct pm_bench_cmp *c,
			     const struct pm_explanation *x, struct finding *f)
{
	const struct pm_fp_diff *cmd = pm_fp_find(x, PM_FP_KERNEL_CMDLINE);
	const struct pm_sym_delta *top, *utop = top_trap_sym(c);
	double ken = mech_sym_delta(c, x, entry_mechs, &top), trap = trap_delta(c);
	struct mitigation_diffs m = { 0 };
	struct pm_buf alike = { 0 }, cost = { 0 }, kind = { 0 };
	size_t i, slow;

	mitigation_diffs(x, &m);
	if (!m.n && !cmdline_mentions_mitigations(cmd))
		goto out;
	slow = changed_alike(c, x, &alike);
	f->confidence = mitigation_confidence(c, m.vuln, trap, part_of(c, ken + trap));
	entry_cost_words(&cost, c, ken, trap);
	if (exercises(c, PM_EX_SYSCALL))
		pm_buf_addf(&kind, "; %s is system-call bound%s%s%s", c->name,
			    slow > 1 ? " and " : "", slow > 1 ? pm_buf_str(&alike) : "",
			    slow > 1 ? " changed alike" : "");
	say(f, "Speculative-execution mitigations differ (%s)%s%s%s%s: every kernel entry and "
	    "exit pays for them%s%s%s.", m.n ? pm_buf_str(&m.list) : "kernel command line",
	    m.mechs.len ? ": " : "", m.mechs.len ? protected_side(x) : "",
	    m.mechs.len ? " has " : "", pm_buf_str(&m.mechs), pm_buf_str(&kind),
	    c->have_kernel_syms ? "; entry/exit cost is " : "",
	    c->have_kernel_syms ? pm_buf_str(&cost) : "");
	if (c->have_kernel_syms)
		evidence(f, "entry/exit cost: %s", pm_buf_str(&cost));
	for (i = 0; i < x->ndiffs && f->nevidence < 4; i++)
		if (is_mitigation_diff(&x->diffs[i]))
			diff_evidence(f, &x->diffs[i]);
	if (cmdline_mentions_mitigations(cmd))
		diff_evidence(f, cmd);
	sym_evidence(f, top);
	if (utop) {
		char a[32], b[32];

		fmt_ns(a, sizeof(a), utop->old_trap_ns);
		fmt_ns(b, sizeof(b), utop->new_trap_ns);
		evidence(f, "%s (%s) at the syscall's return point: %s -> %s per op",
			 utop->name, utop->object, a, b);
	}
out:
	pm_buf_free(&m.list);
	pm_buf_free(&m.mechs);
	pm_buf_free(&alike);
	pm_buf_free(&cost);
	pm_buf_free(&kind);
}

static const char *const hook_syms[] = {
	"__secure_computing", "__seccomp_filter", "seccomp_*", "bpf_prog_*",
	"__bpf_prog_run*", "___bpf_prog_run", "syscall_trace_enter*",
	"syscall_trace_exit*", "__audit_syscall_*", "audit_*", "trace_sys_*",
	"syscall_enter_from_user_mode_work", "ptrace_report_syscall*",
	"__secure_computing_strict", "populate_seccomp_data", NULL,
};

/* a BPF program on sys_enter is no seccomp filter: the filters are
 * named seccomp_filter (the sampler) or run under __seccomp_filter */
static const char *const seccomp_syms[] = {
	"__secure_computing", "__seccomp_filter", "seccomp_*", "populate_seccomp_data", NULL,
};

static void rule_syscall_entry(const struct pm_bench_cmp *c,
			       const struct pm_explanation *x, struct finding *f)
{
	const struct pm_sym_delta *top, *stop;
	double hook = sym_delta(c, hook_syms, true, &top), part = part_of(c, hook);
	double sec = sym_delta(c, seccomp_syms, true, &stop);
	char t[32], u[32], sh[160];

	if (!c->have_kernel_syms || part < 0.15)
		return;
	pm_share_words(sh, sizeof(sh), c, hook, false);
	f->confidence = 0.5 + 0.4 * fmin(part / 0.5, 1);
	fmt_ns(t, sizeof(t), hook);
	fmt_ns(u, sizeof(u), top ? top->new_ns - top->old_ns : 0);
	if (part_of(c, sec) >= 0.5 * part)
		say(f, "NEW runs a seccomp filter on every system call: %s's syscalls take the "
		    "slow entry path through %s (%s%s per op); hooks on the syscall path "
		    "account for %s%s per op (%s).  Check what installs the "
		    "filter (a sandbox, container runtime or systemd unit).",
		    c->name, stop ? stop->name : "__seccomp_filter", sign(hook), u,
		    sign(hook), t, sh);
	else
		say(f, "System calls in NEW take a slower entry path: syscall hooks (%s) "
		    "cost %s%s per op (%s): tracing, audit, ptrace or BPF "
		    "work on every system call.", top ? top->name : "?", sign(hook), t, sh);
	evidence(f, "syscall-path hooks: %s%s per op", sign(hook), t);
	sym_evidence(f, top);
	if (stop && stop != top)
		sym_evidence(f, stop);
}

static void rule_code_path(const struct pm_bench_cmp *c,
			   const struct pm_explanation *x, struct finding *f)
{
	double ri, ripc;

	if (!c->have_counters)
		return;
	ri = c->instructions.new / c->instructions.old;
	ripc = c->ipc.new / c->ipc.old;
	if (fabs(ri - 1) < 0.03 || (ri > 1) != (c->delta_ns > 0))
		return;
	f->confidence = 0.45 + 0.3 * fmin(fabs(ri - 1) / fabs(c->ratio - 1), 1);
	if (fabs(ripc - 1) < 0.05)
		f->confidence += 0.15;
	say(f, "%s executes %.0f%% %s instructions per operation in NEW (%.0f -> %.0f) "
	    "at %s IPC (%.2f -> %.2f): a %s code path, not slower execution of the same "
	    "code.", c->name, 100 * fabs(ri - 1), ri > 1 ? "more" : "fewer",
	    c->instructions.old, c->instructions.new,
	    fabs(ripc - 1) < 0.05 ? "about the same" : ripc < 1 ? "lower" : "higher",
	    c->ipc.old, c->ipc.new, ri > 1 ? "longer" : "shorter");
	evidence(f, "instructions/op: %.0f -> %.0f", c->instructions.old, c->instructions.new);
	evidence(f, "IPC: %.2f -> %.2f", c->ipc.old, c->ipc.new);
}

static void rule_icache(const struct pm_bench_cmp *c,
			const struct pm_explanation *x, struct finding *f)
{
	const struct pm_fp_diff *text = pm_fp_find(x, PM_FP_KERNEL_TEXT_SIZE);
	double grow = text ? strtod(text->new, NULL) - strtod(text->old, NULL) : 0;
	double rel = text ? grow / strtod(text->old, NULL) : 0;
	size_t i, grown = 0;

	/* hot symbols that grew are direct evidence of bigger code */
	for (i = 0; i < c->nsyms; i++)
		if (c->syms[i].kernel && c->syms[i].old_size > 0 &&
		    c->syms[i].new_size > c->syms[i].old_size * 1.05)
			grown++;
	if (c->have_counters) {
		double ri = c->instructions.new / c->instructions.old;
		double rm = c->icache_mpki.new / c->icache_mpki.old;

		/* more misses for a slowdown, fewer for a speed-up */
		if (fabs(ri - 1) > 0.05 || !(c->delta_ns > 0 ? rm > 1.2 : rm < 1 / 1.2))
			return;
		f->confidence = 0.5 + (grow > 0 ? 0.25 : 0) + (grown ? 0.1 : 0);
		{
			char tg[64] = "";

			if (grow > 0)
				snprintf(tg, sizeof(tg), "; the kernel text grew by %.0f KiB",
					 grow / 1024);
			say(f, "Same work, %s instruction-cache misses: %s retires about the same "
			    "instructions per op but icache misses per 1000 instructions go from "
			    "%.2f to %.2f%s%s.", rm > 1 ? "more" : "fewer", c->name,
			    c->icache_mpki.old, c->icache_mpki.new, tg,
			    grown ? " and hot functions grew" : "");
		}
		evidence(f, "icache MPKI: %.2f -> %.2f", c->icache_mpki.old, c->icache_mpki.new);
		if (!isnan(c->itlb_mpki.old))
			evidence(f, "itlb MPKI: %.2f -> %.2f", c->itlb_mpki.old, c->itlb_mpki.new);
		diff_evidence(f, text);
		return;
	}
	/* No PMU: only a hypothesis from text growth and grown symbols. */
	if (rel < 0.01 || c->delta_ns <= 0)
		return;
	f->confidence = 0.25 + (grown ? 0.15 : 0);
	say(f, "The kernel text grew by %.0f KiB (%.1f%%)%s: a bigger icache and iTLB "
	    "footprint may make the same work slower; without a PMU the icache misses "
	    "cannot be counted to confirm it.", grow / 1024, 100 * rel,
	    grown ? ", hot functions included" : "");
	diff_evidence(f, text);
	for (i = 0; i < c->nsyms && f->nevidence < 4; i++)
		if (c->syms[i].kernel && c->syms[i].old_size > 0 &&
		    c->syms[i].new_size > c->syms[i].old_size * 1.05)
			sym_evidence(f, &c->syms[i]);
}

static const char *const preempt_syms[] = {
	"preempt_schedule*", "__cond_resched*", "_cond_resched", "preempt_count_*",
	"rcu_note_context_switch", "raw_irqentry_exit_cond_resched",
	"dynamic_cond_resched*", "__schedule", "schedule", NULL,
};

/*
 * Without debugfs the mode in force is unknown; a dynamic kernel on both
 * sides booted with different preempt= parameters is the next best
 * evidence (the kernel honours preempt= only with PREEMPT_DYNAMIC).
 */
static const struct pm_fp_diff *preempt_param_diff(const struct pm_explanation *x)
{
	static struct pm_fp_diff d;
	static char o[32], n[32], key[64];
	const struct pm_fp_diff *cmd = pm_fp_find(x, PM_FP_KERNEL_CMDLINE);
	const json_t *po = x->old->nruns ? pm_sysinfo_at(x->old->runs[0].sysinfo,
							 PM_FP_KERNEL_PREEMPTION) : NULL;
	const json_t *pn = x->new->nruns ? pm_sysinfo_at(x->new->runs[0].sysinfo,
							 PM_FP_KERNEL_PREEMPTION) : NULL;

	if (!cmd || !json_is_string(po) || !json_is_string(pn) ||
	    strcmp(json_string_value(po), "dynamic") ||
	    strcmp(json_string_value(pn), "dynamic"))
		return NULL;
	if (pm_sysinfo_cmdline_param(cmd->old, "preempt", o, sizeof(o)))
		snprintf(o, sizeof(o), "(boot default)");
	if (pm_sysinfo_cmdline_param(cmd->new, "preempt", n, sizeof(n)))
		snprintf(n, sizeof(n), "(boot default)");
	if (!strcmp(o, n))
		return NULL;
	snprintf(key, sizeof(key), "%s preempt=", pm_fp_key(PM_FP_KERNEL_CMDLINE));
	d = (struct pm_fp_diff){ key, o, n };
	return &d;
}

/* How soon a model switches to a woken task: none < voluntary < lazy,
 * full < rt; -1 when the value names no model. */
static int preempt_rank(const char *m)
{
	static const char *const names[] = { "none", "voluntary", "lazy", "full", "rt" };
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(names); i++)
		if (m && !strcmp(m, names[i]))
			return (int)i;
	return -1;
}

static void rule_preemption(const struct pm_bench_cmp *c,
			    const struct pm_explanation *x, struct finding *f)
{
	/* a PREEMPT_DYNAMIC kernel picks its model at boot (preempt=) or at
	 * run time: the config is the same, the mode in force is not */
	const struct pm_fp_diff *d = pm_fp_find(x, PM_FP_KERNEL_PREEMPTION_DYNAMIC);
	const struct pm_sym_delta *top;
	double p = sym_delta(c, preempt_syms, true, &top), part = part_of(c, p);
	int ro, rn;

	if (!d)
		d = pm_fp_find(x, PM_FP_KERNEL_PREEMPTION);
	if (!d)
		d = pm_fp_find_member(x, PM_FP_KERNEL_CONFIG, "CONFIG_PREEMPT");
	if (!d)
		d = preempt_param_diff(x);
	if (!d)
		return;
	ro = preempt_rank(d->old);
	rn = preempt_rank(d->new);
	/* a wake-up benchmark's figure is how long a woken task waits for a
	 * CPU another task holds in the kernel */
	if (exercises(c, PM_EX_WAKEUP) && ro >= 0 && rn >= 0 && ro != rn) {
		/* the figure is the wait for preemption: it must move the way
		 * the models say, shorter where the kernel preempts sooner */
		bool along = (rn > ro) == (c->delta_ns < 0);
		char t[32];

		fmt_ns(t, sizeof(t), c->delta_ns);
		f->confidence = along ? 0.8 : 0.15;
		if (along)
			say(f, "The preemption model changed (%s -> %s): a woken task waits %s "
			    "%s for a CPU held by a task in a long system call, because %s "
			    "preempts it inside the kernel and %s only at its next rescheduling "
			    "point or return to user space.", d->old, d->new, t,
			    c->delta_ns < 0 ? "less" : "more", rn > ro ? d->new : d->old,
			    rn > ro ? d->old : d->new);
		else
			say(f, "The preemption model changed (%s -> %s), but the wake-up wait of "
			    "%s moved against it (%s%s per wake-up): something else did this.",
			    d->old, d->new, c->name, sign(c->delta_ns), t);
		diff_evidence(f, d);
		evidence(f, "wake-up lateness: %.1f us -> %.1f us per wake-up",
			 c->med_old / 1e3, c->med_new / 1e3);
		sym_evidence(f, top);
		return;
	}
	f->confidence = 0.3 + (c->have_kernel_syms && part >= 0.15 ? 0.35 : 0);
	say(f, "The preemption model changed (%s -> %s): preemption points and their "
	    "bookkeeping on the paths %s takes differ.", d->old, d->new, c->name);
	diff_evidence(f, d);
	sym_evidence(f, top);
}

static const char *const thp_syms[] = {
	"*huge_pmd*", "clear_huge_page", "folio_zero_user", "*hugepage*",
	"khugepaged*", "do_huge_*", "*thp*", "__do_huge_pmd_anonymous_page",
	"*huge_zero*", NULL,
};

/* The page-fault path: THP changes how often it runs (one fault per
 * 2 MiB instead of per 4 KiB), so its cost follows the fault count. */
static const char *const fault_path_syms[] = {
	"asm_exc_page_fault", "exc_page_fault", "do_user_addr_fault",
	"handle_mm_fault", "__handle_mm_fault", "handle_pte_fault",
	"do_anonymous_page", "do_fault", "do_read_fault", "lock_mm_and_find_vma",
	"__pte_alloc", "pte_alloc_one", "alloc_anon_folio", "vma_alloc_folio*",
	"clear_page*", "set_pte_range", "count_memcg_event*", "__count_memcg_events",
	"mem_cgroup_charge*", "__mem_cgroup_charge", "lru_cache_add*",
	"folio_add_*", "page_add_new_anon_rmap", "*_rmap*", "error_entry",
	"irqentry_*", NULL,
};

static void rule_thp(const struct pm_bench_cmp *c, const struct pm_explanation *x,
		     struct finding *f)
{
	const struct pm_fp_diff *d = pm_fp_find(x, PM_FP_THP_ENABLED);
	const struct pm_fp_diff *df = pm_fp_find(x, PM_FP_THP_DEFRAG);
	const struct pm_sym_delta *top, *ftop;
	double t = sym_delta(c, thp_syms, true, &top), part = part_of(c, t);
	double fp = sym_delta(c, fault_path_syms, true, &ftop);
	bool faults = !isnan(c->faults.old) && !isnan(c->faults.new) &&
		      fabs(c->faults.new - c->faults.old) > 0.1 * fmax(c->faults.old, 1e-9);
	/* a huge page maps 512 base pages: faults per op move by about
	 * that factor, which nothing else does */
	double lo = fmin(c->faults.old, c->faults.new), hi = fmax(c->faults.old, c->faults.new);
	bool huge = faults && hi >= 0.5 && lo * 50 < hi;
	char ft[32];

	if (!d && !df)
		return;
	/* THP moves what takes page faults (one per 2 MiB instead of per
	 * 4 KiB) or maps memory, and what works on memory (the TLB's reach) */
	if (!exercises(c, PM_EX_MM | PM_EX_MEMORY))
		return;
	/* more faults mean more time on the fault path */
	if (huge && (hi == c->faults.new) == (c->delta_ns > 0))
		part = fmax(part, part_of(c, t + fp));
	f->confidence = 0.4 + (faults ? 0.2 : 0) + (huge ? 0.1 : 0) +
			(c->have_kernel_syms && part >= 0.2 ? 0.25 : 0);
	{
		char en[96] = "", de[96] = "", fa[96] = "take a different path";

		if (d)
			snprintf(en, sizeof(en), "enabled %s -> %s", d->old, d->new);
		if (df)
			snprintf(de, sizeof(de), "%sdefrag %s -> %s", d ? ", " : "", df->old, df->new);
		if (faults)
			snprintf(fa, sizeof(fa), "per op go from %.2f to %.2f", c->faults.old,
				 c->faults.new);
		say(f, "Transparent hugepages are set differently (%s%s): %s's page faults %s.",
		    en, de, c->name, fa);
	}
	diff_evidence(f, d);
	diff_evidence(f, df);
	if (faults)
		evidence(f, "page faults per op: %.4f -> %.4f%s", c->faults.old, c->faults.new,
			 huge ? " (one fault per huge page against one per base page)" : "");
	if (huge && c->have_kernel_syms) {
		char sh[160];

		fmt_ns(ft, sizeof(ft), t + fp);
		pm_share_words(sh, sizeof(sh), c, t + fp, false);
		evidence(f, "page-fault path and huge-page symbols: %s%s per op (%s)",
			 sign(t + fp), ft, sh);
		sym_evidence(f, ftop);
	}
	sym_evidence(f, top);
}

static const char *const clock_syms[] = {
	"read_hpet", "acpi_pm_read*", "ktime_get*", "*clocksource*", "read_tsc",
	"kvm_clock_*", "pvclock_*", "__x64_sys_clock_gettime", NULL,
};

static void rule_clocksource(const struct pm_bench_cmp *c,
			     const struct pm_explanation *x, struct finding *f)
{
	const struct pm_fp_diff *d = pm_fp_find(x, PM_FP_CLOCKSOURCE_CURRENT);
	const struct pm_sym_delta *top;
	double t = sym_delta(c, clock_syms, true, &top), part = part_of(c, t);
	bool slow = d && (strstr(d->new, "hpet") || strstr(d->new, "acpi_pm") ||
			  strstr(d->old, "hpet") || strstr(d->old, "acpi_pm"));

	if (!d)
		return;
	f->confidence = (slow ? 0.3 : 0.15) + (c->have_kernel_syms && part >= 0.2 ? 0.45 : 0);
	say(f, "The clocksource changed (%s -> %s)%s.", d->old, d->new,
	    slow ? ": hpet and acpi_pm cannot be read from the vDSO, so every clock read "
	    "is a system call and an uncached device read" : "");
	diff_evidence(f, d);
	sym_evidence(f, top);
}

static void rule_cpu(const struct pm_bench_cmp *c, const struct pm_explanation *x,
		     struct finding *f)
{
	static const enum pm_fp_key keys[] = {
		PM_FP_CPU_MODEL_NAME, PM_FP_CPU_CUR_MHZ, PM_FP_CPU_MAX_MHZ,
		PM_FP_CPU_GOVERNOR, PM_FP_CPU_FAMILY, PM_FP_CPU_MODEL,
		PM_FP_CPU_MICROCODE, PM_FP_CPU_VENDOR, PM_FP_HYPERVISOR_VENDOR,
	};
	const struct pm_fp_diff *mhz = pm_fp_find(x, PM_FP_CPU_CUR_MHZ);
	const struct pm_fp_diff *model = pm_fp_find(x, PM_FP_CPU_MODEL_NAME);
	double uk = NAN, kk = NAN, fr = NAN;
	size_t i, n = 0;

	for (i = 0; i < PM_ARRAY_SIZE(keys); i++)
		n += pm_fp_find(x, keys[i]) != NULL;
	/* current frequency readings wander: only a real difference counts */
	if (n == 1 && mhz && fabs(strtod(mhz->new, NULL) / strtod(mhz->old, NULL) - 1) < 0.05)
		return;
	if (!n)
		return;
	f->confidence = 0.3;
	if (mhz)
		fr = strtod(mhz->old, NULL) / strtod(mhz->new, NULL);	/* expected time ratio */
	if (!isnan(fr) && fr > 0 && fabs(c->ratio / fr - 1) < 0.1)
		f->confidence += 0.3;
	if (c->split_source && c->user_ns.old > 0 && c->kernel_ns.old > 0) {
		uk = c->user_ns.new / c->user_ns.old;
		kk = c->kernel_ns.new / c->kernel_ns.old;
		if (fabs(uk / kk - 1) < 0.1)
			f->confidence += 0.15;	/* user and kernel scale alike */
	}
	if (c->have_counters) {
		double rc = c->cycles.new / c->cycles.old;

		if (fabs(rc - 1) < 0.05 && fabs(c->ratio - 1) > 0.05)
			f->confidence += 0.2;	/* same cycles, different clock */
		else if (fabs(rc - c->ratio) < 0.05)
			f->confidence -= 0.2;	/* the work itself changed */
	}
	if (model)
		say(f, "The CPU differs (%s -> %s): everything runs at its speed, user "
		    "and kernel code alike.", model->old, model->new);
	else
		say(f, "The CPU clock differs (%s MHz -> %s MHz%s): %s's time scales with "
		    "the frequency, user and kernel code alike.", mhz ? mhz->old : "?",
		    mhz ? mhz->new : "?", pm_fp_find(x, PM_FP_CPU_GOVERNOR) ? ", governor changed" : "",
		    c->name);
	for (i = 0; i < PM_ARRAY_SIZE(keys); i++)
		diff_evidence(f, pm_fp_find(x, keys[i]));
	if (!isnan(uk))
		evidence(f, "user time x%.2f, kernel time x%.2f, total x%.2f", uk, kk, c->ratio);
	if (!isnan(fr))
		evidence(f, "clock ratio predicts x%.2f", fr);
}

static void rule_placement(const struct pm_bench_cmp *c,
			   const struct pm_explanation *x, struct finding *f)
{
	const char *po = c->ref_old->placement, *pn = c->ref_new->placement;
	bool differ = (po || pn) && (!po || !pn || strcmp(po, pn));
	bool pin = (c->ref_old->cpu < 0) != (c->ref_new->cpu < 0);
	bool migr = !isnan(c->migrations.old) && !isnan(c->migrations.new) &&
		    fabs(c->migrations.new - c->migrations.old) > 0.05;

	if (!differ && !pin)
		return;
	f->confidence = differ ? 0.9 : 0.5 + (migr ? 0.2 : 0);
	if (differ)
		say(f, "The processes of %s were placed differently (%s -> %s): with both "
		    "on one CPU every hand-over is a plain context switch, across CPUs "
		    "it is a cross-CPU wake-up (about 25x slower for a pipe round trip "
		    "on a VM).  Compare runs made with the same --placement.", c->name,
		    po ? po : "none", pn ? pn : "none");
	else
		say(f, "%s was pinned to a CPU on one side only (--cpu): migrations and "
		    "cache warmth differ.", c->name);
	evidence(f, "placement: %s -> %s; main CPU %d -> %d", po ? po : "-",
		 pn ? pn : "-", c->ref_old->cpu, c->ref_new->cpu);
	if (migr)
		evidence(f, "migrations/op: %.3f -> %.3f", c->migrations.old, c->migrations.new);
}

/* Config options whose code shows up by name in the hot path. */
static const struct {
	const char *option;
	const char *const syms[6];
	const char *what;
} config_hooks[] = {
	{ "CONFIG_LOCKDEP", { "lock_acquire", "lock_release", "__lock_acquire", "mark_lock*", "check_*lock*", NULL }, "lock dependency checking" },
	{ "CONFIG_PROVE_LOCKING", { "lock_acquire", "lock_release", "__lock_acquire", "mark_lock*", NULL }, "lock dependency checking" },
	{ "CONFIG_KASAN", { "__asan_*", "kasan_*", "check_region_inline", NULL }, "KASAN memory checking" },
	{ "CONFIG_KCOV", { "__sanitizer_cov_*", "write_comp_data", NULL }, "KCOV coverage" },
	{ "CONFIG_AUDITSYSCALL", { "__audit_syscall_*", "audit_*", NULL }, "syscall auditing" },
	{ "CONFIG_DEBUG_PAGEALLOC", { "__kernel_map_pages", "*debug_pagealloc*", NULL }, "page allocation debugging" },
	{ "CONFIG_SLUB_DEBUG_ON", { "*slab_debug*", "check_object", "alloc_debug_processing", "free_debug_processing", NULL }, "slab debugging" },
	{ "CONFIG_FUNCTION_TRACER", { "__fentry__", "ftrace_*", "*mcount*", NULL }, "function tracing" },
	{ "CONFIG_CONTEXT_TRACKING_USER", { "ct_*", "*context_tracking*", "__ct_*", NULL }, "context tracking" },
	{ "CONFIG_MEMCG", { "*mem_cgroup*", "*memcg*", "__mod_lruvec*", NULL }, "memory cgroup accounting" },
	{ "CONFIG_INIT_ON_ALLOC_DEFAULT_ON", { "clear_page*", "memset*", "*kernel_init_pages*", NULL }, "zeroing on allocation" },
	{ "CONFIG_DEBUG_VM", { "*vm_bug*", "dump_page", "*_check_*", NULL }, "VM debugging checks" },
	{ "CONFIG_SECCOMP", { "__secure_computing", "__seccomp_filter", "seccomp_*", NULL }, "seccomp" },
	{ "CONFIG_RANDOMIZE_KSTACK_OFFSET_DEFAULT", { "do_syscall_64", "entry_SYSCALL*", NULL }, "kernel stack offset randomization" },
	{ "CONFIG_HIGHMEM", { "kmap*", "kunmap*", "*highmem*", NULL }, "highmem mappings" },
};

static void rule_config(const struct pm_bench_cmp *c, const struct pm_explanation *x,
			struct finding *f)
{
	double best = 0;
	size_t i, bi = 0;
	const struct pm_sym_delta *top = NULL;

	if (!c->have_kernel_syms)
		return;
	for (i = 0; i < PM_ARRAY_SIZE(config_hooks); i++) {
		const struct pm_sym_delta *t;
		double part;

		if (!pm_fp_find_member(x, PM_FP_KERNEL_CONFIG, config_hooks[i].option))
			continue;
		part = part_of(c, sym_delta(c, config_hooks[i].syms, true, &t));
		if (part > best) {
			best = part;
			bi = i;
			top = t;
		}
	}
	if (best < 0.1)
		return;
	{
		const struct pm_fp_diff *d;

		d = pm_fp_find_member(x, PM_FP_KERNEL_CONFIG, config_hooks[bi].option);
		f->confidence = 0.4 + 0.5 * fmin(best / 0.5, 1);
		say(f, "%s changed on the hot path (%s -> %s): %s code accounts for %.0f%% "
		    "of the change in %s.", config_hooks[bi].option, d->old, d->new,
		    config_hooks[bi].what, 100 * best, c->name);
		diff_evidence(f, d);
		sym_evidence(f, top);
	}
}

/*
 * The noise finding when a side has one value: one run against the
 * spread between runs learnt elsewhere, or a single imported figure.
 */
/*
 * A change called on single figures: what the two records differ in
 * (the kernel release of two imported reports) is the candidate, the
 * noise a single figure cannot rule out the caveat.
 */
static void recorded_difference(const struct pm_bench_cmp *c, const struct pm_explanation *x,
				struct finding *f, const char *sides)
{
	char diffs[384] = "";
	size_t i, len = 0, n = 0;
	double shown = c->med_old > 0 && c->med_new > 0 ? c->med_new / c->med_old : c->ratio;

	for (i = 0; i < x->ndiffs && n < 3; i++) {
		if (pm_fp_diff_member(&x->diffs[i], PM_FP_KERNEL_CONFIG))
			continue;
		len += (size_t)snprintf(diffs + len, sizeof(diffs) - len, "%s%s %s -> %s",
					n++ ? ", " : "", x->diffs[i].key, x->diffs[i].old,
					x->diffs[i].new);
		if (len >= sizeof(diffs))
			break;
	}
	f->confidence = 0.3;
	if (n) {
		f->title = "the recorded difference";
		say(f, "The records differ in %s: the candidate for the %+.1f%% change.  Single "
		    "figures on %s (an imported report) are above the %.0f%% a single run is "
		    "allowed, but one run cannot show how much runs vary, nor confirm the cause.",
		    diffs, 100 * (shown - 1), sides, 100 * c->margin);
	} else {
		say(f, "Single figures on %s (an imported report): the %+.1f%% difference is "
		    "well above the %.0f%% a single run is allowed, but one run cannot show "
		    "how much runs vary, and the records differ in nothing they hold.", sides,
		    100 * (shown - 1), 100 * c->margin);
	}
}

static void noise_one_value(const struct pm_bench_cmp *c, const struct pm_explanation *x,
			    struct finding *f, double effect)
{
	if (c->prior_runs) {
		/* one run on a side, against how much runs differ here */
		double fl = x->opts.noise_floor;

		if (c->verdict == PM_INCONCLUSIVE) {
			/* one run a side: the interval need only exclude no change */
			double clear = pm_one_run_by_history(c) ? 0 : fl;
			bool within = c->ci_low <= 1 + clear && c->ci_high >= 1 / (1 + clear);

			f->confidence = 0.6;
			say(f, "Runs of the same thing differ by ±%.1f%% on this machine (%zu runs "
			    "in %s): with one run on a side, the %.1f%% difference %s%s.",
			    100 * expm1(c->prior_sd), c->prior_runs, c->prior_from, 100 * effect,
			    effect < c->margin ? "is below the margin a single run needs" :
			    within ? "is within what that spread allows" :
			    c->machine_note ? "would stand out, but is held back: " :
			    "is held back by the evidence above",
			    effect >= c->margin && !within && c->machine_note ? c->machine_note : "");
		} else {
			f->confidence = 0.2;
			say(f, "Runs of the same thing differ by ±%.1f%% on this machine (%zu runs "
			    "in %s); the %.1f%% difference stands out of that.",
			    100 * expm1(c->prior_sd), c->prior_runs, c->prior_from, 100 * effect);
		}
		evidence(f, "compared: %zu vs %zu runs, the spread between runs from %zu more",
			 c->n_old, c->n_new, c->prior_runs);
		return;
	}
	{
		/* imported reports: one figure a side */
		const char *sides = c->n_old < 2 && c->n_new < 2 ? "both sides" : "one side";

		if (c->verdict == PM_INCONCLUSIVE && effect < c->margin) {
			f->confidence = 0.6;
			say(f, "Single figures on %s (an imported report): there is no interval, "
			    "and a %.1f%% difference (below the %.0f%% a single figure needs) "
			    "cannot be told from run-to-run noise.", sides, 100 * effect,
			    100 * c->margin);
		} else if (c->verdict == PM_INCONCLUSIVE) {
			/* above the margin, held back by something else: say what */
			char why[512];
			double fl = x->opts.noise_floor;

			if (!isnan(c->ci_low) && c->ci_low <= 1 + fl && c->ci_high >= 1 / (1 + fl))
				snprintf(why, sizeof(why), "the interval the side with several "
					 "figures gives runs from %+.1f%% to %+.1f%% and takes in no "
					 "change", 100 * (c->ci_low - 1), 100 * (c->ci_high - 1));
			else
				snprintf(why, sizeof(why), "%s", c->settle ? c->settle :
					 "the evidence on the sides disagrees");
			f->confidence = 0.6;
			say(f, "Single figures on %s (an imported report): the %.1f%% difference "
			    "is above the %.0f%% a single figure needs, yet not called a change: "
			    "%s.", sides, 100 * effect, 100 * c->margin, why);
		} else {
			recorded_difference(c, x, f, sides);
		}
	}
}

/* A side's interval as words: past +-50% no number says anything. */
static void side_interval(char *buf, size_t len, double rel, size_t n, enum pm_unit u)
{
	if (rel > 0.5)
		snprintf(buf, len, "too wide to bound (%zu %s)", n, pm_unit_name(u));
	else
		snprintf(buf, len, "±%.1f%%", 100 * rel);
}

/* The noise diagnosis: the intervals against the difference shown, and
 * what disturbed each side, clause by clause. */
static void noise_sentence(const struct pm_bench_cmp *c, struct finding *f, bool migr,
			   bool ctxsw, bool busy)
{
	double shown = c->med_old > 0 && c->med_new > 0 ? c->med_new / c->med_old : c->ratio;
	char io[64], in[64], bs[160] = "";

	side_interval(io, sizeof(io), c->rel_ci_old, c->n_old, c->unit);
	side_interval(in, sizeof(in), c->rel_ci_new, c->n_new, c->unit);
	if (busy)
		snprintf(bs, sizeof(bs), "; more tasks wanted the CPUs during %s (%.1f runnable on "
			 "average) than during %s (%.1f)",
			 c->busy.old > c->busy.new ? "OLD" : "NEW", fmax(c->busy.old, c->busy.new),
			 c->busy.old > c->busy.new ? "NEW" : "OLD", fmin(c->busy.old, c->busy.new));
	say(f, "Noise: the %.0f%% intervals of OLD and NEW are %s and %s, against a %+.1f%% "
	    "difference%s%s%s%s.", 100 * c->level, io, in, 100 * (shown - 1),
	    !c->converged_old || !c->converged_new ? "; a side did not reach its CI target" : "",
	    migr ? "; the process migrated between CPUs" : "",
	    ctxsw ? "; it was switched out more often (another load?)" : "", bs);
}

static void rule_noise(const struct pm_bench_cmp *c, const struct pm_explanation *x,
		       struct finding *f)
{
	double wide = fmax(c->rel_ci_old, c->rel_ci_new);
	double effect = fabs(c->ratio - 1);
	bool migr = (!isnan(c->migrations.old) && c->migrations.old > 0.01) ||
		    (!isnan(c->migrations.new) && c->migrations.new > 0.01);
	bool peers = c->ref_old->placement != NULL;
	bool ctxsw = !peers && !isnan(c->ctxsw.new) && !isnan(c->ctxsw.old) &&
		     c->ctxsw.new > c->ctxsw.old + 0.05 && !exercises(c, PM_EX_MM);

	/* A whole workload (pmbench stat) switches and migrates at some rate
	 * however long it runs: more of them in a longer run is no sign of
	 * contention, a higher rate (per second) is. */
	if (c->ref_old->workload && c->med_old > 0 && c->med_new > 0) {
		double so = c->ctxsw.old / c->med_old * 1e9, sn = c->ctxsw.new / c->med_new * 1e9;
		double mo = c->migrations.old / c->med_old * 1e9;
		double mn = c->migrations.new / c->med_new * 1e9;

		ctxsw = !isnan(so) && !isnan(sn) && sn > 1.5 * so + 10;
		migr = !isnan(mo) && !isnan(mn) && mn > 1.5 * mo + 1;
	}
	bool busy = !isnan(c->busy.old) && !isnan(c->busy.new) &&
		    fabs(c->busy.new - c->busy.old) >= 0.5 && !pm_beyond_competition(c, x);

	if (c->n_old < 2 || c->n_new < 2) {
		noise_one_value(c, x, f, effect);
		return;
	}
	/* a change that stood the test against the units' spread and the
	 * competition is no noise: a cause beside the verdict would
	 * contradict it */
	if (pm_verdict_changed(c->verdict))
		return;
	/* pairs decided by the sequential rule: it weighed the noise */
	if (pm_verdict_changed(c->verdict) && c->sequential)
		return;
	if (wide < 0.02 && c->converged_old && c->converged_new && !migr && !ctxsw &&
	    !busy && c->verdict != PM_INCONCLUSIVE)
		return;
	f->confidence = 0.2;
	if (wide > 0 && effect < 2 * wide)
		f->confidence += 0.35;
	if (!c->converged_old || !c->converged_new)
		f->confidence += 0.1;
	if (migr)
		f->confidence += 0.15;
	if (ctxsw)
		f->confidence += 0.15;
	if (busy)
		f->confidence += 0.35;
	if (c->verdict == PM_INCONCLUSIVE)
		f->confidence = fmax(f->confidence, 0.6);
	else
		/* the change stood the test against runs' spread and competition:
		 * noise is a caveat then, not the first cause */
		f->confidence = fmin(f->confidence, 0.45);
	if (c->verdict == PM_INCONCLUSIVE && c->machine_note && effect > 2 * wide) {
		/* the intervals alone would call it: the machine held it back */
		say(f, "Beyond the intervals (±%.1f%% and ±%.1f%%), but held back: %s.",
		    100 * c->rel_ci_old, 100 * c->rel_ci_new, c->machine_note);
		evidence(f, "compared: %zu vs %zu %s", c->n_old, c->n_new, pm_unit_name(c->unit));
		return;
	}
	noise_sentence(c, f, migr, ctxsw, busy);
	if (migr)
		evidence(f, "migrations/op: %.3f -> %.3f", c->migrations.old, c->migrations.new);
	if (ctxsw)
		evidence(f, "context switches/op: %.3f -> %.3f", c->ctxsw.old, c->ctxsw.new);
	evidence(f, "compared: %zu vs %zu %s%s", c->n_old, c->n_new, pm_unit_name(c->unit),
		 c->unit == PM_UNIT_ROUNDS ? " (one run on a side: no between-run evidence)" : "");
}

static void rule_user(const struct pm_bench_cmp *c, const struct pm_explanation *x,
		      struct finding *f)
{
	/* samples at a syscall's return point are its entry/exit cost */
	double ud = user_delta(c) - trap_delta(c), part = part_of(c, ud);
	const struct pm_sym_delta *top = NULL;
	double best = 0;
	size_t i;
	char t[32], s[32];

	if (!c->split_source || part < 0.5)
		return;
	for (i = 0; i < c->nsyms; i++) {
		double v = user_code_delta(&c->syms[i]);

		if (!c->syms[i].kernel && (v > 0) == (c->delta_ns > 0) && fabs(v) > best) {
			best = fabs(v);
			top = &c->syms[i];
		}
	}
	f->confidence = 0.45 + 0.2 * fmin(part, 1) + (top && part_of(c, best) > 0.4 ? 0.2 : 0);
	fmt_ns(t, sizeof(t), ud);
	fmt_ns(s, sizeof(s), best);
	{
		char where[384] = "";

		if (top)
			snprintf(where, sizeof(where), "; most of it in %s (%s, %s%s per op)",
				 top->name, top->object, sign(best), s);
		say(f, "The time went into user space: %s%s per op of %s's change is user time "
		    "(measured from %s)%s, not the kernel.", sign(ud), t, c->name,
		    c->split_source, where);
	}
	evidence(f, "user time per op: %.0f -> %.0f ns", c->user_ns.old, c->user_ns.new);
	if (c->trap_ns.old > 0 || c->trap_ns.new > 0)
		evidence(f, "of it at system call return points (entry/exit cost, not "
			 "counted here): %.0f -> %.0f ns", c->trap_ns.old, c->trap_ns.new);
	evidence(f, "kernel time per op: %.0f -> %.0f ns", c->kernel_ns.old, c->kernel_ns.new);
	sym_evidence(f, top);
}

/*
 * The mirror of user-code: most of the change is kernel time.  It says
 * where, not why, so it stays below "high": the rules that name a cause
 * (syscall entry, mitigations, page tables, ...) outrank it.
 */
static void rule_kernel(const struct pm_bench_cmp *c, const struct pm_explanation *x,
			struct finding *f)
{
	double kd = kernel_delta(c), part = part_of(c, kd);
	const struct pm_sym_delta *top = NULL;
	double best = 0;
	size_t i;
	char t[32], s[32];

	if (!c->split_source || part < 0.5)
		return;
	for (i = 0; i < c->nsyms; i++) {
		double v = c->syms[i].new_ns - c->syms[i].old_ns;

		if (c->syms[i].kernel && strcmp(c->syms[i].name, "[other]") &&
		    (v > 0) == (c->delta_ns > 0) && fabs(v) > best) {
			best = fabs(v);
			top = &c->syms[i];
		}
	}
	f->confidence = 0.4 + 0.25 * fmin(part, 1);
	fmt_ns(t, sizeof(t), kd);
	fmt_ns(s, sizeof(s), best);
	{
		char where[384] = "";

		if (top)
			snprintf(where, sizeof(where), "; the kernel symbol that changed most is "
				 "%s (%s, %s%s per op)", top->name, top->object,
				 sign(top->new_ns - top->old_ns), s);
		char sh[160];

		pm_share_words(sh, sizeof(sh), c, kd, true);
		say(f, "The time went into the kernel: %s%s per op (%s) is "
		    "kernel time (measured from %s)%s.", sign(kd), t, sh,
		    c->split_source, where);
	}
	{
		char ko[32], kn[32], uo[32], un[32];

		fmt_ns(ko, sizeof(ko), c->kernel_ns.old);
		fmt_ns(kn, sizeof(kn), c->kernel_ns.new);
		fmt_ns(uo, sizeof(uo), c->user_ns.old);
		fmt_ns(un, sizeof(un), c->user_ns.new);
		evidence(f, "kernel time per op: %s -> %s", ko, kn);
		evidence(f, "user time per op: %s -> %s", uo, un);
	}
	sym_evidence(f, top);
}

/* Scaling curves: efficiency at the most copies both sides measured. */
static void rule_scaling(const struct pm_bench_cmp *c, const struct pm_explanation *x,
			 struct finding *f)
{
	size_t i, last = 0;
	double de, tr;

	if (c->nscale < 2)
		return;
	for (i = 1; i < c->nscale; i++)
		if (c->scale_n[i] > c->scale_n[last])
			last = i;
	de = c->scale_eff[last].new - c->scale_eff[last].old;
	tr = c->scale_tput[last].new / c->scale_tput[last].old;
	if (fabs(de) < 0.1)
		return;
	f->confidence = 0.4 + fmin(fabs(de), 0.4);
	if ((tr > 1) != (c->ratio < 1))
		/* slower alone, faster in numbers, or the reverse */
		say(f, "A scalability trade-off: with one copy %s is %.1f%% %s in NEW, but with "
		    "%u copies at once its throughput is %.0f%% %s (efficiency %.0f%% -> %.0f%%): "
		    "%s.", c->name, 100 * fabs(c->ratio - 1), slower_word(c), c->scale_n[last],
		    100 * fabs(tr - 1), tr > 1 ? "higher" : "lower",
		    100 * c->scale_eff[last].old, 100 * c->scale_eff[last].new,
		    de > 0 ? "per-CPU or finer-grained state costs a little on one CPU and "
			     "pays off on several" : "shared state that one copy does not see");
	else
		say(f, "%s scales %s in NEW: with %u copies at once the efficiency goes from "
		    "%.0f%% to %.0f%% (%s on a shared lock, counter or cache line).",
		    c->name, de > 0 ? "better" : "worse", c->scale_n[last],
		    100 * c->scale_eff[last].old, 100 * c->scale_eff[last].new,
		    de > 0 ? "less contention" : "contention");
	for (i = 0; i < c->nscale; i++)
		evidence(f, "%u copies: efficiency %.0f%% -> %.0f%%, throughput x%.2f",
			 c->scale_n[i], 100 * c->scale_eff[i].old, 100 * c->scale_eff[i].new,
			 c->scale_tput[i].new / c->scale_tput[i].old);
}

/* No specific cause: the biggest kernel symbol deltas. */
static void rule_hotspot(const struct pm_bench_cmp *c, const struct pm_explanation *x,
			 struct finding *f)
{
	const struct pm_sym_delta *top = NULL;
	size_t i;
	char t[32];

	for (i = 0; i < c->nsyms; i++) {
		const struct pm_sym_delta *d = &c->syms[i];

		if (d->kernel && strcmp(d->name, "[other]") &&
		    (d->new_ns - d->old_ns > 0) == (c->delta_ns > 0)) {
			top = d;
			break;
		}
	}
	if (!top)
		return;
	f->confidence = 0.6 * fmin(part_of(c, top->new_ns - top->old_ns) / 0.5, 1);
	if (f->confidence < 0.1)
		return;
	fmt_ns(t, sizeof(t), top->new_ns - top->old_ns);
	if (top->is_new)
		say(f, "New kernel hotspot %s (%s): %s%s per op.", top->name, top->object,
		    sign(top->new_ns), t);
	else if (top->vanished)
		say(f, "Kernel hotspot %s (%s) is gone in NEW: %s%s per op.", top->name,
		    top->object, sign(-top->old_ns), t);
	else
		say(f, "Kernel hotspot %s (%s): %s%s per op.", top->name, top->object,
		    sign(top->new_ns - top->old_ns), t);
	for (i = 0; i < c->nsyms && f->nevidence < 4; i++)
		if (c->syms[i].kernel && strcmp(c->syms[i].name, "[other]"))
			sym_evidence(f, &c->syms[i]);
}

static const struct rule {
	struct pm_rule_info info;
	rule_fn fn;
	/* the kernel symbols its mechanism accounts for */
	const char *const *syms, *const *more_syms;
} rules[] = {
	{ { "page-table-levels", "page-table levels",
	    "kernel.page_table_levels (or CONFIG_X86_PAE / CONFIG_PGTABLE_LEVELS) differs; "
	    "confirmed when page-table symbols (copy_page_range, __p?d_alloc, free_pgtables, "
	    "zap_*_range, ...) carry >= 30% of the change; for a walk benchmark (page-walk: "
	    "every op a TLB miss), when the side with more levels is slower and user time "
	    "carries it", "page-tables tlb" }, rule_page_tables, pt_syms, NULL },
	{ { "paravirt", "paravirt hooks",
	    "CONFIG_PARAVIRT differs; confirmed by paravirt/native_* symbols in the change, "
	    "kernel text growth and more icache misses", "paravirt" }, rule_paravirt, pv_syms, NULL },
	{ { "mitigations", "speculative-execution mitigations",
	    "vulnerabilities/*, mitigations= or the command line differ; confirmed when "
	    "entry/exit cost carries >= 30% of the change: the code the mechanism map places in "
	    "[entry], [mitigations], [generic.entry] (where an entry run with interrupts off is "
	    "sampled) and [generic.retpoline], and user samples at the return point of a "
	    "syscall instruction", "entry mitigations" }, rule_mitigations, NULL, NULL },
	{ { "syscall-entry", "syscall entry cost",
	    "hooks on the system call path (seccomp, BPF, audit, tracing, ptrace) carry >= 15% "
	    "of the change", "seccomp bpf audit ptrace tracing" }, rule_syscall_entry, hook_syms,
	  NULL },
	{ { "code-path", "longer code path",
	    "instructions per op changed by >= 3% in the direction of the change (needs a PMU); "
	    "stronger when IPC stayed the same; or, from pmbench ab's emulated counts, the path "
	    "decided longer (shorter) by the sequential rule", NULL }, rule_code_path, NULL, NULL },
	{ { "icache", "text size / icache footprint",
	    "icache misses per 1000 instructions up >= 20% at the same instructions/op (PMU); "
	    "without a PMU a hypothesis from kernel text growth and grown hot symbols", NULL }, rule_icache, NULL, NULL },
	{ { "preemption", "preemption model",
	    "kernel.preemption_dynamic (the mode a PREEMPT_DYNAMIC kernel runs in), "
	    "kernel.preemption or the preempt= parameter of two dynamic kernels differ; "
	    "confirmed by preemption/cond_resched symbols in the change, or by a wake-up "
	    "benchmark (one that exercises wakeup) whose wait moved as the models say: "
	    "shorter where the kernel preempts sooner", "sched" }, rule_preemption,
	  preempt_syms, NULL },
	{ { "thp", "transparent hugepages",
	    "thp.enabled/defrag differ for a benchmark that exercises vm, fault or memory "
	    "(page-fault*, mmap, fork, bw-mem-read, ...); confirmed by page faults per op (a "
	    "factor of about 512 when one side maps huge pages), huge-page symbols and the "
	    "fault path's cost", "thp page-faults" },
	  rule_thp,
	  thp_syms, fault_path_syms },
	{ { "clocksource", "clocksource",
	    "clocksource.current differs; hpet/acpi_pm cannot be read in the vDSO; confirmed "
	    "by clock-read symbols", "timers" }, rule_clocksource, clock_syms, NULL },
	{ { "cpu", "CPU frequency or a different CPU",
	    "CPU model, frequency, governor or microcode differ; confirmed when the time ratio "
	    "matches the clock ratio, user and kernel scale alike, cycles/op unchanged", NULL }, rule_cpu, NULL, NULL },
	{ { "placement", "CPU placement",
	    "--placement or --cpu differ between the sides for a benchmark with helper "
	    "processes", NULL }, rule_placement, NULL, NULL },
	{ { "config", "kernel config on the hot path",
	    "a changed config option whose code (lockdep, KASAN, audit, memcg, tracing, ...) "
	    "carries >= 10% of the change", NULL }, rule_config, NULL, NULL },
	{ { "user-code", "user-space code",
	    ">= 50% of the change is user time (samples, cycles or getrusage); names the user "
	    "symbol that grew most", NULL }, rule_user, NULL, NULL },
	{ { "kernel-time", "kernel time",
	    ">= 50% of the change is kernel time (samples, cycles or getrusage); names the "
	    "kernel symbol that grew most; a where, not a why: below the rules that name a "
	    "cause", NULL }, rule_kernel, NULL, NULL },
	{ { "scaling", "scalability",
	    "--instances/--threads curves on both sides: efficiency at the largest N changed by "
	    ">= 10 points; a trade-off when one copy got slower and many got faster", NULL }, rule_scaling, NULL, NULL },
	{ { "kernel-hotspot", "kernel hotspot",
	    "no rule needed: the kernel symbol with the largest per-op change in the direction "
	    "of the change; ranked below a rule that applies and whose mechanism accounts for "
	    "that symbol", NULL }, rule_hotspot, NULL, NULL },
	{ { "mechanism", "kernel mechanism",
	    "no rule needed: kernel call chains climbed past generic code (mechanisms/"
	    "kernel.mech) put >= 30% of the change in one mechanism's code; tied to the "
	    "kernel argument, config option or fingerprint item that switches that code "
	    "(the file that parses or builds it, or a switch the map names); folded "
	    "into the rule that names the same mechanism, and kernel-time and "
	    "kernel-hotspot folded under it", NULL }, NULL, NULL, NULL },
	{ { "experiment", "proven by experiment",
	    "pmbench ab ran the sides with one difference (one kernel argument, the "
	    "image, or with --local a set-up or wrapper command): a change that stands "
	    "was caused by it; with several, runs with each taken back measure how much "
	    "of the change each removes: the cause, a share, ruled out or not separated",
	    NULL },
	  NULL, NULL, NULL },
	{ { "noise", "noise or contention",
	    "wide intervals, unconverged sides, migrations, extra context switches, an effect "
	    "within twice the interval", NULL }, rule_noise, NULL, NULL },
};

size_t pm_rule_count(void)
{
	return PM_ARRAY_SIZE(rules);
}

const struct pm_rule_info *pm_rule_at(size_t i)
{
	return i < PM_ARRAY_SIZE(rules) ? &rules[i].info : NULL;
}

/*
 * A side imported from a text report (lmbench, AIM9) has its figures,
 * the OS string and the Mhz, and nothing else: no counters, hotspots,
 * placement or fingerprint.  Only rules that need no more may speak for
 * a benchmark such a side holds: noise (how far single figures go) and
 * the CPU clock (the Mhz both reports print).
 */
static bool rule_fits_imports(const struct rule *rule, const struct pm_bench_cmp *c,
			      const struct pm_explanation *x)
{
	const struct pm_side *sides[] = { x->old, x->new };
	size_t s, i;

	if (rule->fn == rule_noise || rule->fn == rule_cpu)
		return true;
	for (s = 0; s < 2; s++)
		for (i = 0; i < sides[s]->nruns; i++) {
			const struct pm_result *r = &sides[s]->runs[i];

			if (pm_run_imported(r) && pm_result_find(r, c->name))
				return false;
		}
	return true;
}

static const struct rule *rule_by_id(const char *id)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(rules); i++)
		if (!strcmp(rules[i].info.id, id))
			return &rules[i];
	return NULL;
}

bool pm_rule_names_mech(const char *id, const char *key)
{
	const struct rule *r = rule_by_id(id);
	size_t top = strcspn(key, ".");
	const char *p;

	/* a word of its mechanisms column: the key, or the mechanism it is
	 * a part of ("tracing" for "tracing.function") */
	for (p = r ? r->info.mechs : NULL; p && *p; p += strspn(p, " ")) {
		size_t n = strcspn(p, " ");

		if ((n == strlen(key) && !strncmp(p, key, n)) || (n == top && !strncmp(p, key, n)))
			return true;
		p += n;
	}
	return false;
}

/*
 * A hotspot is a where, not a why: when a rule that applies names the
 * mechanism behind the hotspot's symbol (entry code for mitigations, the
 * fault path for THP, ...), the hotspot ranks just below that rule.
 */
static void demote_hotspot(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	const struct pm_sym_delta *top = NULL;
	struct pm_cause *hot = NULL;
	const struct pm_mech *mech;
	size_t i;

	for (i = 0; i < c->ncauses; i++)
		if (!strcmp(c->causes[i].rule, "kernel-hotspot"))
			hot = &c->causes[i];
	for (i = 0; hot && i < c->nsyms; i++) {
		const struct pm_sym_delta *d = &c->syms[i];

		if (d->kernel && strcmp(d->name, "[other]") &&
		    (d->new_ns - d->old_ns > 0) == (c->delta_ns > 0)) {
			top = d;
			break;
		}
	}
	if (!top)
		return;
	mech = pm_sym_mechanism(pm_side_mechmap(x->new), top->name);
	for (i = 0; i < c->ncauses; i++) {
		const struct rule *r = rule_by_id(c->causes[i].rule);

		if (!r || &c->causes[i] == hot)
			continue;
		/* the map places the symbol in a mechanism the rule is about,
		 * or the rule names the symbol itself */
		if (!(mech && pm_rule_names_mech(r->info.id, mech->id)) &&
		    !(r->syms && name_matches(top->name, r->syms)) &&
		    !(r->more_syms && name_matches(top->name, r->more_syms)))
			continue;
		if (hot->confidence >= c->causes[i].confidence)
			hot->confidence = fmax(c->causes[i].confidence - 0.05, 0.1);
	}
	/* kernel time names that hotspot as the symbol that changed most:
	 * the where that holds it ranks first */
	for (i = 0; i < c->ncauses; i++)
		if (!strcmp(c->causes[i].rule, "kernel-time") &&
		    hot->confidence >= c->causes[i].confidence)
			hot->confidence = fmax(c->causes[i].confidence - 0.01, 0.1);
}

/* The causes the table's rules name; a hotspot ranks below a rule that
 * names its mechanism.  pm_apply_rules (explain.c) runs it. */
void pm_rule_causes(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(rules); i++) {
		struct finding f = { 0 };
		struct pm_cause *cause;

		if (!rules[i].fn)
			continue;
		/* an inconclusive comparison only gets the noise diagnosis,
		 * unless its samples decided a difference in what runs */
		if (c->verdict == PM_INCONCLUSIVE && !c->nfacts && rules[i].fn != rule_noise)
			continue;
		if (!rule_fits_imports(&rules[i], c, x))
			continue;
		rules[i].fn(c, x, &f);
		if (f.confidence < 0.1 || !f.sentence[0]) {
			for (size_t k = 0; k < f.nevidence; k++)
				free(f.evidence[k]);
			continue;
		}
		cause = pm_cause_add(c, rules[i].info.id, f.title ? f.title : rules[i].info.title,
				     f.confidence, f.sentence);
		free(cause->evidence);
		cause->evidence = pm_xcalloc(f.nevidence ? f.nevidence : 1, sizeof(char *));
		if (f.nevidence)
			memcpy(cause->evidence, f.evidence, f.nevidence * sizeof(char *));
		cause->nevidence = f.nevidence;
	}
	demote_hotspot(c, x);
}
