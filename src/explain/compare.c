/*
 * Is it a change?  Sides are loaded (a file, or a directory of runs),
 * and each benchmark's distributions are compared: bootstrap CI of the
 * ratio of medians and a rank test, with runs as the unit of
 * replication when each side has several.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "explain/explain.h"

static int json_file_filter(const struct dirent *d)
{
	size_t n = strlen(d->d_name);

	return d->d_name[0] != '.' && n > 5 && !strcmp(d->d_name + n - 5, ".json");
}

static void side_warn(struct pm_side *s, char *msg)
{
	s->warnings = pm_xrealloc(s->warnings, (s->nwarnings + 1) * sizeof(char *));
	s->warnings[s->nwarnings++] = msg;
}

/*
 * A file must be valid (bad input: -EINVAL).  In a directory, files that
 * are not valid results are skipped with a warning, so one stray file
 * does not hide the others; a directory with no valid result is bad
 * input.
 */
int pm_side_load(struct pm_side *s, const char *path, struct pm_err *e)
{
	struct dirent **list;
	struct stat st;
	int n, i, err;

	memset(s, 0, sizeof(*s));
	s->name = pm_xstrdup(path);
	if (stat(path, &st) != 0)
		return pm_err_set(e, -EINVAL, "%s: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode)) {
		s->runs = pm_xcalloc(1, sizeof(*s->runs));
		err = pm_result_load(&s->runs[0], path, e);
		if (err)
			return err;
		s->nruns = 1;
		return 0;
	}
	n = scandir(path, &list, json_file_filter, alphasort);
	if (n < 0)
		return pm_err_set(e, -EINVAL, "%s: %s", path, strerror(errno));
	s->runs = pm_xcalloc((size_t)(n ? n : 1), sizeof(*s->runs));
	for (i = 0; i < n; i++) {
		char *file = pm_xasprintf("%s/%s", path, list[i]->d_name);
		struct pm_err fe;

		if (pm_result_load(&s->runs[s->nruns], file, &fe) == 0)
			s->nruns++;
		else
			side_warn(s, pm_xasprintf("skipped %s", fe.msg));
		free(file);
		free(list[i]);
	}
	free(list);
	if (!s->nruns)
		return pm_err_set(e, -EINVAL, "%s: no valid pmbench result file (*.json) in this directory%s",
				  path, n ? "; see the warnings above" : "");
	return 0;
}

void pm_side_free(struct pm_side *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		pm_result_free(&s->runs[i]);
	free(s->runs);
	for (i = 0; i < s->nwarnings; i++)
		free(s->warnings[i]);
	free(s->warnings);
	free(s->name);
	memset(s, 0, sizeof(*s));
}

const char *pm_verdict_name(enum pm_verdict v)
{
	static const char *const names[] = {
		[PM_REGRESSION] = "regression",
		[PM_IMPROVEMENT] = "improvement",
		[PM_NO_CHANGE] = "no change",
		[PM_INCONCLUSIVE] = "inconclusive",
		[PM_CHANGED] = "changed",
	};

	return names[v];
}

/*
 * The samples of one side: the runs' medians when there are several
 * runs (a run is the unit of replication: trials within one run share
 * its boot, placement and background), else that run's trials.
 */
static size_t side_runs(const struct pm_side *s, const char *name)
{
	size_t i, runs = 0;

	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);

		runs += b && b->status == PM_BENCH_OK && b->ntrials;
	}
	return runs;
}

/* by_runs in: the other side has several runs, so this one also gives
 * run medians (the same unit on both sides, one value for one run). */
static double *side_samples(const struct pm_side *s, const char *name,
			    size_t *n, bool *by_runs, const struct pm_bench_result **first)
{
	const struct pm_bench_result *b;
	size_t i, runs = 0, k;
	double *v;

	*first = NULL;
	for (i = 0; i < s->nruns; i++) {
		b = pm_result_find(&s->runs[i], name);
		if (b && b->status == PM_BENCH_OK && b->ntrials) {
			runs++;
			if (!*first)
				*first = b;
		}
	}
	*by_runs = *by_runs || runs > 1;
	if (runs == 0) {
		*n = 0;
		return NULL;
	}
	if (*by_runs) {
		v = pm_xcalloc(runs, sizeof(*v));
		for (i = 0, k = 0; i < s->nruns; i++) {
			b = pm_result_find(&s->runs[i], name);
			if (b && b->status == PM_BENCH_OK && b->ntrials)
				v[k++] = pm_median(b->trials, b->ntrials);
		}
		*n = k;
		return v;
	}
	v = pm_xcalloc((*first)->ntrials, sizeof(*v));
	memcpy(v, (*first)->trials, (*first)->ntrials * sizeof(*v));
	*n = (*first)->ntrials;
	return v;
}

/* Worst (widest) relative CI half-width and convergence over runs. */
static void side_quality(const struct pm_side *s, const char *name,
			 double *rel, bool *converged)
{
	size_t i;

	*rel = 0;
	*converged = true;
	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);
		double r;

		if (!b || b->status != PM_BENCH_OK)
			continue;
		r = pm_summary_rel_halfwidth(&b->stats);
		if (isnan(r) || b->ntrials < 2)
			*converged = false;
		else if (r > *rel)
			*rel = r;
		if (!b->converged)
			*converged = false;
	}
}

/* What would settle an inconclusive comparison. */
static char *settle_advice(const struct pm_bench_cmp *c)
{
	const struct pm_bench_result *o = c->ref_old, *n = c->ref_new;
	char buf[512] = "";
	size_t len = 0;

#define ADD(...) len += (size_t)snprintf(buf + len, sizeof(buf) - len, __VA_ARGS__)
	if (c->n_old < 2 || c->n_new < 2)
		ADD("several runs per side (single figures have no interval: a directory of "
		    "imported reports per side); ");
	else if (c->n_old < 5 || c->n_new < 5)
		ADD("more %s (%zu vs %zu now; --min-trials, or more result files per side); ",
		    c->by_runs ? "runs" : "trials", c->n_old, c->n_new);
	if (c->n_old >= 2 && c->n_new >= 2 && ((o && o->cpu < 0) || (n && n->cpu < 0)))
		ADD("pinning (--cpu N) so the scheduler cannot move it; ");
	if (c->n_old >= 2 && c->n_new >= 2 &&
	    (!c->converged_old || !c->converged_new || c->rel_ci_old > 0.02 ||
	     c->rel_ci_new > 0.02))
		ADD("an idle machine and a longer --max-time (the intervals are ±%.1f%% and ±%.1f%%); ",
		    100 * c->rel_ci_old, 100 * c->rel_ci_new);
	if (!len)
		ADD("more runs per side, to tell a small change from run-to-run variation; ");
#undef ADD
	buf[len >= 2 ? len - 2 : 0] = '\0';
	return pm_xstrdup(buf);
}

/* Median over the side's runs of a per-benchmark figure. */
static double side_median(const struct pm_side *s, const char *name,
			  size_t offset)
{
	double v[64];
	size_t i, n = 0;

	for (i = 0; i < s->nruns && n < PM_ARRAY_SIZE(v); i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);
		double x;

		if (!b || b->status != PM_BENCH_OK)
			continue;
		x = *(const double *)((const char *)b + offset);
		if (!isnan(x))
			v[n++] = x;
	}
	return n ? pm_median(v, n) : NAN;
}

static enum pm_verdict verdict_of(double ratio, double lo, double hi, double p,
				  double floor)
{
	/* single figures (imports): no interval; only a change well above
	 * the floor is called one */
	if (isnan(lo))
		return fabs(ratio - 1) < floor ? PM_NO_CHANGE :
		       fabs(ratio - 1) < 3 * floor ? PM_INCONCLUSIVE :
		       ratio > 1 ? PM_REGRESSION : PM_IMPROVEMENT;
	if (lo > 1 + floor || (lo > 1 && ratio > 1 + floor && p < 0.01))
		return PM_REGRESSION;
	if (hi < 1 - floor || (hi < 1 && ratio < 1 - floor && p < 0.01))
		return PM_IMPROVEMENT;
	if (lo >= 1 - floor && hi <= 1 + floor)
		return PM_NO_CHANGE;
	/* a small effect inside a slightly wider interval */
	if (fabs(ratio - 1) < floor && lo > 1 - 2 * floor && hi < 1 + 2 * floor)
		return PM_NO_CHANGE;
	return PM_INCONCLUSIVE;
}

void pm_compare_bench(struct pm_bench_cmp *c, const struct pm_side *old,
		      const struct pm_side *new, const char *name,
		      const struct pm_explain_opts *o)
{
	double *a, *b, floor = o->noise_floor;
	bool runs_a, runs_b;

	c->name = pm_xstrdup(name);
	c->level = o->level;
	runs_a = runs_b = side_runs(old, name) > 1 || side_runs(new, name) > 1;
	a = side_samples(old, name, &c->n_old, &runs_a, &c->ref_old);
	b = side_samples(new, name, &c->n_new, &runs_b, &c->ref_new);
	c->by_runs = runs_a || runs_b;
	c->measured = c->ref_old->measured;
	c->higher_is_better = pm_bench_higher_is_better(c->ref_old);
	side_quality(old, name, &c->rel_ci_old, &c->converged_old);
	side_quality(new, name, &c->rel_ci_new, &c->converged_new);
	c->ref_ratio = side_median(new, name, offsetof(struct pm_bench_result, reference_ns)) /
		       side_median(old, name, offsetof(struct pm_bench_result, reference_ns));
	c->busy.old = side_median(old, name, offsetof(struct pm_bench_result, busy));
	c->busy.new = side_median(new, name, offsetof(struct pm_bench_result, busy));
	c->med_old = pm_median(a, c->n_old);
	c->med_new = pm_median(b, c->n_new);
	c->p_value = pm_mann_whitney(a, c->n_old, b, c->n_new, NULL);
	if (c->n_old >= 2 && c->n_new >= 2) {
		pm_bootstrap_ratio(a, c->n_old, b, c->n_new, o->level, o->reps,
				   0x706d62656e6368ull, &c->ratio, &c->ci_low, &c->ci_high);
	} else {
		/* single figures (imports): a ratio, no interval */
		c->ratio = c->med_new / c->med_old;
		c->ci_low = c->ci_high = NAN;
	}
	free(a);
	free(b);
	c->raw_ratio = c->ratio;

	if (c->measured) {
		c->verdict = c->ratio == 1 ? PM_NO_CHANGE : PM_CHANGED;
		return;
	}
	/* Times per op: > 1 is slower, whatever the table's unit. */
	c->verdict = verdict_of(c->ratio, c->ci_low, c->ci_high, c->p_value, floor);
	if (c->verdict == PM_INCONCLUSIVE)
		c->settle = settle_advice(c);
}

static bool cpu_differs(const struct pm_explanation *x)
{
	static const char *const keys[] = {
		"cpu.model_name", "cpu.vendor", "cpu.family", "cpu.model",
		"cpu.max_mhz", "cpu.governor", "cpu.microcode", "hypervisor.vendor",
		"hostname",
	};
	const struct pm_fp_diff *mhz = pm_find_diff(x, "cpu.cur_mhz");
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(keys); i++)
		if (pm_find_diff(x, keys[i]))
			return true;
	return mhz && fabs(strtod(mhz->new, NULL) / strtod(mhz->old, NULL) - 1) > 0.05;
}

/* Same kernel, same CPU, same settings: only the time of day differs. */
static bool same_fingerprint(const struct pm_explanation *x)
{
	size_t i;

	for (i = 0; i < x->ndiffs; i++)
		if (strcmp(x->diffs[i].key, "cpu.cur_mhz") || cpu_differs(x))
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

void pm_adjust_for_machine(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	double floor = x->opts.noise_floor, r = c->ref_ratio;
	enum pm_verdict v;

	if (c->measured || (c->verdict != PM_REGRESSION && c->verdict != PM_IMPROVEMENT))
		return;
	/*
	 * Other tasks competed for the CPUs during a side's trials (or one
	 * side much more than the other): with nothing else different, not
	 * even the profile's shape, that is the difference.
	 */
	if (same_fingerprint(x) && !isnan(c->busy.old) && !isnan(c->busy.new) &&
	    (fabs(c->busy.new - c->busy.old) >= 0.5 || fmax(c->busy.old, c->busy.new) >= 1) &&
	    (!c->have_hotspots || profile_distance(c) < 0.15)) {
		c->verdict = PM_INCONCLUSIVE;
		free(c->settle);
		c->settle = pm_xasprintf(
			"runs on an idle machine: other runnable tasks averaged %.1f during OLD's "
			"trials and %.1f during NEW's (/proc/loadavg), the profiles have the same "
			"shape and nothing else differs", c->busy.old, c->busy.new);
		return;
	}
	/*
	 * The reference loop ran at a different speed and the CPU is the
	 * same: the machine was busier or clocked differently during one
	 * run.  Judge the benchmark with that taken out.
	 */
	if (!isnan(r) && r > 0 && fabs(r - 1) > 0.03 && !cpu_differs(x)) {
		c->ratio /= r;
		c->ci_low /= r;
		c->ci_high /= r;
		v = verdict_of(c->ratio, c->ci_low, c->ci_high, c->p_value, floor);
		c->machine_note = pm_xasprintf(
			"the machine itself ran %.0f%% %s during NEW's run (a fixed user-space "
			"loop timed between trials: x%.2f); with that taken out the change is "
			"%+.1f%% (raw %+.1f%%)", 100 * fabs(r - 1), r > 1 ? "slower" : "faster",
			r, 100 * (c->ratio - 1), 100 * (c->raw_ratio - 1));
		if (v != c->verdict) {
			c->verdict = v;
			if (v == PM_INCONCLUSIVE)
				c->settle = pm_xstrdup("runs on a quieter machine, several per side");
			return;
		}
	}
	/*
	 * One run a side, identical fingerprints, and the profile has the
	 * same shape (same symbols in the same proportions, same
	 * kernel/user split): the code did not change, the machine's speed
	 * did.  Say so instead of calling it a regression.
	 */
	if (!c->by_runs && same_fingerprint(x) && c->have_hotspots &&
	    profile_distance(c) < 0.08 &&
	    fabs(c->kernel_ns.new / c->med_new - c->kernel_ns.old / c->med_old) < 0.05) {
		c->verdict = PM_INCONCLUSIVE;
		free(c->settle);
		c->settle = pm_xasprintf(
			"several runs per side: the fingerprints are identical and the profile "
			"has the same shape (distance %.2f), so the whole benchmark ran %+.1f%% "
			"%s: that is the machine's speed varying between runs, not the code",
			profile_distance(c), 100 * (c->ratio - 1),
			c->ratio > 1 ? "slower" : "faster");
	}
}
