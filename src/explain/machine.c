/*
 * The machine, not the code: a whole run moved by the host (the suite's
 * shift), a change within what competition for the CPUs could make, the
 * machine-speed probe that moved with the benchmark.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "sysinfo/sysinfo.h"

static bool cpu_differs(const struct pm_explanation *x)
{
	static const enum pm_fp_key keys[] = {
		PM_FP_CPU_MODEL_NAME, PM_FP_CPU_VENDOR, PM_FP_CPU_FAMILY, PM_FP_CPU_MODEL,
		PM_FP_CPU_MAX_MHZ, PM_FP_CPU_GOVERNOR, PM_FP_CPU_MICROCODE,
		PM_FP_HYPERVISOR_VENDOR, PM_FP_HOSTNAME,
	};
	const struct pm_fp_diff *mhz = pm_fp_find(x, PM_FP_CPU_CUR_MHZ);
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(keys); i++)
		if (pm_fp_find(x, keys[i]))
			return true;
	return mhz && fabs(strtod(mhz->new, NULL) / strtod(mhz->old, NULL) - 1) > 0.05;
}

/* Same kernel, same CPU, same settings: only the time of day differs. */
static bool same_fingerprint(const struct pm_explanation *x)
{
	size_t i;

	for (i = 0; i < x->ndiffs; i++)
		if (strcmp(x->diffs[i].key, pm_fp_key(PM_FP_CPU_CUR_MHZ)) || cpu_differs(x))
			return false;
	return true;
}

/* Total variation distance between the two sides' symbol shares. */
static double profile_distance(const struct pm_bench_cmp *c)
{
	double d = 0;
	size_t i;

	for (i = 0; i < c->nsyms; i++)
		d += fabs(c->syms[i].new_share - c->syms[i].old_share);
	return d / 2;
}

/* Time stretch NEW/OLD that a difference in competition could cause. */
static double share_busy(double b, double cpus)
{
	return fmin(1, cpus / (1 + b));
}

static double share_others(double o, double cpus)
{
	return fmax(fmin(1, cpus * (1 - o)), 0.05);
}

/* Could a difference in competition explain c's change?  If so, make it
 * inconclusive, say why and return true. */
/* Runs in a guest pmbench ab booted: whatever else ran there is the
 * kernel compared (its threads, its interrupts), no competition. */
static bool in_ab_guests(const struct pm_explanation *x)
{
	const struct pm_side *s[2] = { x->old, x->new };
	size_t k, i;

	if (x->opts.guests)
		return true;
	for (k = 0; k < 2; k++)
		for (i = 0; i < s[k]->nruns; i++) {
			const json_t *ab = json_object_get(s[k]->runs[i].options, "ab");

			if (!ab || json_is_true(json_object_get(ab, "local")))
				return false;
		}
	return true;
}

static bool contention_explains(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	const json_t *on = pm_sysinfo_at(x->old->runs[0].sysinfo, PM_FP_CPU_ONLINE);
	double cpus = json_is_number(on) ? json_number_value(on) : 1;
	double inner = log(c->ratio > 1 ? c->ci_low : c->ci_high), stretch[3] = { 1, 1, 1 };
	char why[3][256] = { "", "", "" };
	int k;

	if (isnan(inner))
		inner = log(c->ratio);
	if (in_ab_guests(x))
		return false;
	if (!isnan(c->busy.old) && !isnan(c->busy.new) && fabs(c->busy.new - c->busy.old) >= 0.5) {
		stretch[0] = share_busy(c->busy.old, cpus) / share_busy(c->busy.new, cpus);
		snprintf(why[0], sizeof(why[0]), "other runnable tasks averaged %.1f during "
			 "OLD's trials and %.1f during NEW's (/proc/loadavg)",
			 c->busy.old, c->busy.new);
	}
	if (!isnan(c->others.old) && !isnan(c->others.new) &&
	    fabs(c->others.new - c->others.old) >= 0.10) {
		stretch[1] = share_others(c->others.old, cpus) / share_others(c->others.new, cpus);
		snprintf(why[1], sizeof(why[1]), "other work used %.0f%% of the CPUs during "
			 "OLD's trials and %.0f%% during NEW's (/proc/stat)",
			 100 * c->others.old, 100 * c->others.new);
	}
	/* waiting is part of benchmarks whose processes hand work to each
	 * other: only a single process's waiting is competition */
	if (!c->ref_old->placement && !c->ref_old->counters.inherit &&
	    !isnan(c->waited.old) && !isnan(c->waited.new) &&
	    fabs(c->waited.new - c->waited.old) >= 0.05) {
		stretch[2] = (1 - fmin(c->waited.old, 0.95)) / (1 - fmin(c->waited.new, 0.95));
		snprintf(why[2], sizeof(why[2]), "the benchmark waited for a CPU %.0f%% of the "
			 "time during OLD's trials and %.0f%% during NEW's (/proc/PID/schedstat)",
			 100 * c->waited.old, 100 * c->waited.new);
	}
	for (k = 0; k < 3; k++) {
		double ls = log(stretch[k]);

		if (!why[k][0] || ls * inner <= 0 || fabs(inner) > 2 * fabs(ls))
			continue;
		c->verdict = PM_INCONCLUSIVE;
		free(c->settle);
		/* the bound the change was held against, as compared */
		c->settle = pm_xasprintf("runs while the machine is as busy on both sides "
					 "(better: idle): %s, which alone could make it x%.2f "
					 "(twice the stretch of its share of the CPUs, x%.2f: "
					 "several processes feel it more)",
					 why[k], exp(2 * ls), stretch[k]);
		return true;
	}
	return false;
}

/*
 * A whole workload (pmbench stat) runs long enough for competition to
 * show as a share of the CPUs: with B other runnable tasks on N CPUs it
 * gets at worst 1 / max(1, (B + 1) / N) of a CPU.  A change far beyond
 * what the two sides' competition can account for is not put on it.
 */
bool pm_beyond_competition(const struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	const json_t *cpus = pm_sysinfo_at(x->old->runs[0].sysinfo, PM_FP_CPU_ONLINE);
	double n = json_is_integer(cpus) && json_integer_value(cpus) > 0 ?
		   (double)json_integer_value(cpus) : 1;
	double rc = fmax(1, (c->busy.new + 1) / n) / fmax(1, (c->busy.old + 1) / n);

	if (!c->ref_old->workload)
		return false;
	return fabs(log(c->ratio)) > fabs(log(rc)) + log1p(c->margin);
}

/*
 * Did the machine move the run?  Of at least five timed benchmarks,
 * three in five beyond the noise floor one way (the ratio: the median of
 * all), or five and a quarter of them called changed one way, each on
 * its own (the ratio: the median of those).  On a shared host a run can
 * be slower or faster throughout, or in the kinds of operation the
 * host's load reaches: fork, exec, sh, pipe and ctx 22-37% slower
 * together while the system calls held still, the extra time in the
 * hypervisor's interrupt hook.  The machine-speed probe, a loop on
 * registers, sees little of it.  One change of the code or one planted
 * delay moves the benchmarks that use it, seldom five; a kernel change
 * that moves many shows in the fingerprint.
 */
void pm_suite_shift(struct pm_explanation *x)
{
	double floor = x->opts.noise_floor, *all, *up_lr, *down_lr;
	size_t i, n = 0, up = 0, down = 0, called_up = 0, called_down = 0;

	x->suite_dir = 0;
	x->suite_held = false;
	x->suite_moved = x->suite_n = 0;
	x->suite_ratio = NAN;
	all = pm_xcalloc(x->ncmp + 1, sizeof(*all));
	up_lr = pm_xcalloc(x->ncmp + 1, sizeof(*up_lr));
	down_lr = pm_xcalloc(x->ncmp + 1, sizeof(*down_lr));
	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (c->measured || !(c->raw_ratio > 0) || !isfinite(c->raw_ratio))
			continue;
		all[n++] = log(c->raw_ratio);
		up += c->raw_ratio > 1 + floor;
		down += c->raw_ratio < 1 / (1 + floor);
		if (c->verdict == PM_REGRESSION)
			up_lr[called_up++] = log(c->raw_ratio);
		else if (c->verdict == PM_IMPROVEMENT)
			down_lr[called_down++] = log(c->raw_ratio);
	}
	x->suite_n = n;
	/* the median move of all, also when the run did not move */
	x->suite_ratio = n ? exp(pm_median(all, n)) : NAN;
	if (n >= 5 && (5 * up >= 3 * n || 5 * down >= 3 * n)) {
		x->suite_dir = 5 * up >= 3 * n ? 1 : -1;
		x->suite_moved = x->suite_dir > 0 ? up : down;
	} else if (called_up >= 5 && 4 * called_up >= n && called_up >= called_down) {
		x->suite_dir = 1;
		x->suite_moved = called_up;
		x->suite_ratio = exp(pm_median(up_lr, called_up));
	} else if (called_down >= 5 && 4 * called_down >= n) {
		x->suite_dir = -1;
		x->suite_moved = called_down;
		x->suite_ratio = exp(pm_median(down_lr, called_down));
	}
	free(all);
	free(up_lr);
	free(down_lr);
	x->suite_held = x->suite_dir && same_fingerprint(x);
}

/* Identical fingerprints, the machine moved the run this benchmark's
 * way, and this one by at most four times the run's median move (in
 * logarithms): a benchmark that moved far beyond the rest, as one
 * change of the code would, is judged alone.  Four: in the machine's
 * moves of 40 back-to-back quick runs here, fork, exec and sh moved
 * 2.8-3.1 times the median of the whole run, sig-catch 3.6. */
static bool suite_moved_with(const struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	double ls = log(x->suite_ratio), lb = log(c->ratio);

	if (!x->suite_held)
		return false;
	return ls * lb > 0 && 4 * fabs(ls) >= fabs(lb);
}

/* What the machine-speed probe says of a change the rounds and runs
 * found: the machine's speed (inconclusive), or not the machine. */
static void judge_by_probe(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	double r = c->ref_ratio, lr = log(r), lb = log(c->ratio);

	if (isnan(r) || !(r > 0)) {
		c->machine_note = pm_xstrdup("no machine-speed probe on a side (older or "
					     "imported results): a change of the machine's own "
					     "speed cannot be ruled out");
		return;
	}
	if (!cpu_differs(x) && fabs(r - 1) > 0.02 && lr * lb > 0 && fabs(lr) >= 0.5 * fabs(lb)) {
		c->verdict = PM_INCONCLUSIVE;
		c->machine_note = pm_xasprintf(
			"the machine itself ran %.1f%% %s during NEW (a fixed user-space loop timed "
			"after every trial: x%.3f) while the benchmark changed %+.1f%%: that is "
			"the machine's speed, not a change of the code", 100 * fabs(r - 1),
			r > 1 ? "slower" : "faster", r, 100 * (c->med_new / c->med_old - 1));
		free(c->settle);
		c->settle = pm_xstrdup("runs on a machine that keeps its speed (an idle host, a "
				       "fixed CPU frequency), several per side");
		return;
	}
	c->machine_note = pm_xasprintf(
		"the machine-speed probe (a fixed user-space loop timed after every trial) "
		"moved %+.1f%% while the benchmark changed %+.1f%%: not the machine's speed%s",
		100 * (r - 1), 100 * (c->med_new / c->med_old - 1),
		cpu_differs(x) ? " alone (the CPUs differ, see the causes)" : "");
	/*
	 * Old files (one round per run): identical fingerprints and a profile
	 * of the same shape (same symbols in the same proportions, same
	 * kernel/user split) mean the code did not change, the machine's
	 * speed did, in a way the probe missed.
	 */
	if (c->unit == PM_UNIT_TRIALS && same_fingerprint(x) && c->have_hotspots &&
	    profile_distance(c) < 0.08 &&
	    fabs(c->kernel_ns.new / c->med_new - c->kernel_ns.old / c->med_old) < 0.05) {
		c->verdict = PM_INCONCLUSIVE;
		free(c->settle);
		c->settle = pm_xasprintf(
			"rounds in fresh processes and several runs per side: the fingerprints "
			"are identical and the profile has the same shape (distance %.2f), so the "
			"whole benchmark ran %+.1f%% %s: that is the machine's speed varying "
			"between runs, not the code", profile_distance(c), 100 * (c->med_new / c->med_old - 1),
			c->ratio > 1 ? "slower" : "faster");
	}
}

void pm_adjust_for_machine(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	if (c->measured || !pm_verdict_changed(c->verdict))
		return;
	/*
	 * Competition for the CPUs that differs between the sides changes
	 * the figures by itself (and the profile: caches, page clearing,
	 * scheduling).  Three readings: other runnable tasks (loadavg), the
	 * share of the CPUs other work used (/proc/stat), and, for a
	 * benchmark of one process, the share of time it waited for a CPU.
	 * Each bounds how much slower or faster it could make the benchmark;
	 * a change in that direction and within twice that bound (on the
	 * log scale: multi-process benchmarks feel contention more) cannot
	 * be put on the code.  Equal competition on both sides is judged
	 * like any other spread, by the rounds and runs.
	 */
	if (contention_explains(c, x))
		return;
	if (suite_moved_with(c, x)) {
		c->verdict = PM_INCONCLUSIVE;
		c->machine_note = pm_xasprintf(
			"%zu of the %zu benchmarks compared ran %s between two runs with "
			"identical fingerprints (median move %+.1f%%; this one %+.1f%%): the "
			"machine's state moved the run, which is not a change of the code",
			x->suite_moved, x->suite_n, x->suite_dir > 0 ? "slower" : "faster",
			100 * (x->suite_ratio - 1), 100 * (c->med_new / c->med_old - 1));
		free(c->settle);
		c->settle = pm_xstrdup("several runs per side taken at different times (or "
				       "interleaved, as pmbench ab does), on a quieter host");
		return;
	}
	/*
	 * The machine-speed probe (a fixed user-space loop timed after every
	 * trial) moved in the same direction by at least half as much as the
	 * benchmark, on the same CPU: the machine ran at another speed, which
	 * is not a change of the code.  When it did not move, say that too.
	 */
	if (c->probe_adjusted && c->adjusted_by == 1) {
		c->machine_note = pm_xasprintf(
			"the benchmark waited for a CPU a share of the time that differed by up "
			"to %.0f points between %s; they were compared at equal contention, so "
			"the competition for the CPUs is taken out", 100 * c->probe_range,
			c->unit == PM_UNIT_ROUNDS ? "rounds" : "runs");
		return;
	}
	if (c->probe_adjusted) {
		c->machine_note = pm_xasprintf(
			"the machine-speed probe differed by up to %.0f%% between %s; the %s "
			"were compared at equal host speed (each %s less %.2f times its "
			"probe's), so the machine's speed is taken out",
			100 * (c->probe_range - 1), c->unit == PM_UNIT_ROUNDS ? "rounds" : "runs",
			c->paired ? "pairs" : c->unit == PM_UNIT_ROUNDS ? "rounds" : "runs",
			c->paired ? "pair's difference" : c->unit == PM_UNIT_ROUNDS ?
			"round's value" : "run's value", c->probe_slope);
		return;
	}
	judge_by_probe(c, x);
}
