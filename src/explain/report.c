/* explain reports: text for the terminal, markdown for mails, json. */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "sysinfo/sysinfo.h"
#include "util/table.h"

static const char *level(double conf)
{
	return conf >= 0.7 ? "high" : conf >= 0.4 ? "medium" : "low";
}

static void fmt_val(char *buf, size_t len, const struct pm_bench_cmp *c, double ns)
{
	if (c->measured)
		snprintf(buf, len, "%.4g %s", ns, c->ref_old->unit);
	else if (c->higher_is_better) {
		char v[24];

		pm_fmt_count(v, sizeof(v), pm_bench_result_value(c->ref_old, ns));
		snprintf(buf, len, "%s %s", v, c->ref_old->unit);
	}
	else
		pm_fmt_time(buf, len, ns);
}

/*
 * The change shown: the estimate the verdict judged, inside its
 * interval, and the ratio of the OLD -> NEW figures printed beside it
 * (the figures the verdict judged: med_new / med_old is the estimate).
 */
static double shown_ratio(const struct pm_bench_cmp *c)
{
	return c->med_old > 0 && c->med_new > 0 ? c->med_new / c->med_old : c->ratio;
}

/* The figures of every other view differ from the ones judged (rounds
 * compared, runs left out, pairs at equal host speed) as printed: a
 * reader who sees show's figures finds them in the headline or below. */
static bool figures_differ(const struct pm_bench_cmp *c)
{
	char fo[32], fn[32], mo[32], mn[32];

	if (!(c->figure.old > 0 && c->figure.new > 0 && c->med_old > 0 && c->med_new > 0))
		return false;
	fmt_val(fo, sizeof(fo), c, c->figure.old);
	fmt_val(fn, sizeof(fn), c, c->figure.new);
	fmt_val(mo, sizeof(mo), c, c->med_old);
	fmt_val(mn, sizeof(mn), c, c->med_new);
	return strcmp(fo, mo) || strcmp(fn, mn);
}

static void figures_line(const struct pm_bench_cmp *c, FILE *f, const char *ind)
{
	char a[32], b[32];

	if (!figures_differ(c))
		return;
	fmt_val(a, sizeof(a), c, c->figure.old);
	fmt_val(b, sizeof(b), c, c->figure.new);
	fprintf(f, "%sfigures of the runs (as show gives them): %s -> %s, %+.1f%%; the verdict "
		"judged %s\n", ind, a, b, 100 * (c->figure.new / c->figure.old - 1),
		c->sequential || c->paired ?
		(c->probe_adjusted ? "the pairs at equal host speed" : "the pairs") :
		c->left_out_old || c->left_out_new ? "the runs left in" :
		c->unit == PM_UNIT_RUNS ? "the runs" : c->unit == PM_UNIT_ROUNDS ?
		"all rounds (a run's figure is its faster half)" : "the trials");
}

double pm_report_change(const struct pm_bench_cmp *c)
{
	return shown_ratio(c);
}

static void fmt_signed_time(char *buf, size_t len, double ns)
{
	char t[24];

	pm_fmt_time(t, sizeof(t), fabs(ns));
	snprintf(buf, len, "%s%s", ns < 0 ? "-" : "+", t);
}

static char *side_desc(const struct pm_side *s)
{
	const json_t *si = s->runs[0].sysinfo;
	const json_t *rel = pm_sysinfo_at(si, PM_FP_KERNEL_RELEASE);
	const json_t *host = pm_sysinfo_at(si, PM_FP_HOSTNAME);
	/* a source other than a plain run: an import, a workload (stat) */
	bool source = s->runs[0].source && strcmp(s->runs[0].source, "run");
	size_t i, runs = 0;

	for (i = 0; i < s->nruns; i++)
		runs += pm_result_nruns(&s->runs[i]);
	const char *h = json_is_string(host) ? json_string_value(host) : NULL;

	/* a guest without a hostname (pmbench ab's) says "(none)" */
	return pm_xasprintf("%s: %zu run%s, Linux %s%s%s%s%s", s->name, runs,
			    runs == 1 ? "" : "s",
			    json_is_string(rel) ? json_string_value(rel) : "?",
			    h && (!*h || !strcmp(h, "(none)")) ? " in a guest" : h ? " on " : "",
			    h && *h && strcmp(h, "(none)") ? h : "",
			    source ? ", " : "", source ? s->runs[0].source : "");
}

/* How the verdict was reached, in a few words: units and margin. */
static void basis(const struct pm_bench_cmp *c, char *buf, size_t len)
{
	switch (c->unit) {
	case PM_UNIT_RUNS:
		if (c->paired)
			snprintf(buf, len, "%zu vs %zu runs taken %s, compared in pairs",
				 c->n_old, c->n_new, c->at_once ? "at once" : "in turn");
		else if (!c->prior_runs)
			snprintf(buf, len, "%zu vs %zu runs", c->n_old, c->n_new);
		else if (c->runs_old < 2 || c->runs_new < 2)
			snprintf(buf, len, "%zu vs %zu runs; runs here differ by ±%.1f%% "
				 "(%zu runs in %s), and with one run on a side a change must "
				 "exceed %.0f%%", c->n_old, c->n_new, 100 * expm1(c->prior_sd),
				 c->prior_runs, c->prior_from, 100 * c->margin);
		else
			snprintf(buf, len, "%zu vs %zu runs, and %zu more in %s", c->n_old,
				 c->n_new, c->prior_runs, c->prior_from);
		break;
	case PM_UNIT_ROUNDS:
		snprintf(buf, len, "%zu vs %zu rounds; %s run%s: no between-run evidence, "
			 "a change must exceed %.0f%%", c->n_old, c->n_new,
			 c->runs_old < 2 && c->runs_new < 2 ? "one" : "one side has one",
			 c->runs_old < 2 && c->runs_new < 2 ? " per side" : "",
			 100 * c->margin);
		break;
	case PM_UNIT_TRIALS:
		snprintf(buf, len, "%zu vs %zu trials of one round: no between-process or "
			 "between-run evidence, a change must exceed %.0f%%", c->n_old, c->n_new,
			 100 * c->margin);
		break;
	case PM_UNIT_FIGURES:
		snprintf(buf, len, "%zu vs %zu; a single figure on a side, a change must "
			 "exceed %.0f%%", c->n_old, c->n_new, 100 * c->margin);
		break;
	}
	if (c->probe_adjusted && c->adjusted_by == 1) {
		size_t at = strlen(buf);

		snprintf(buf + at, len - at, ", at equal contention (the share of the time it "
			 "waited for a CPU differed by up to %.0f points between %s; each %s's "
			 "value less %.2f times its share's difference to OLD's, the slope %s)",
			 100 * c->probe_range, c->unit == PM_UNIT_ROUNDS ? "rounds" : "runs",
			 c->unit == PM_UNIT_ROUNDS ? "round" : "run", c->probe_slope,
			 c->unit == PM_UNIT_ROUNDS ? "of the rounds within each side" :
			 "of the history's runs");
	} else if (c->probe_adjusted) {
		size_t at = strlen(buf);

		snprintf(buf + at, len - at, ", at equal host speed (the machine-speed probe "
			 "differed by up to %.0f%% between %s; each %s less %.2f times its "
			 "probe's, the slope %s)", 100 * (c->probe_range - 1),
			 c->unit == PM_UNIT_ROUNDS ? "rounds" : "runs",
			 c->paired ? "pair's difference" : c->unit == PM_UNIT_ROUNDS ?
			 "round's value" : "run's value", c->probe_slope,
			 c->paired ? "of the pairs" : c->unit == PM_UNIT_ROUNDS ?
			 "of the rounds within each side" : "of the history's runs");
	}
	if (c->left_out_old || c->left_out_new) {
		size_t at = strlen(buf);

		if (c->left_out_paired)
			snprintf(buf + at, len - at, "; %zu pair%s left out: the machine-speed "
				 "probe says the host was busy", c->left_out_old,
				 c->left_out_old == 1 ? "" : "s");
		else
			snprintf(buf + at, len - at, "; %zu and %zu runs left out: the "
				 "machine-speed probe says the host was busy", c->left_out_old,
				 c->left_out_new);
	}
}

static void change_line(const struct pm_bench_cmp *c, char *buf, size_t len)
{
	char a[32], b[32], why[768];

	fmt_val(a, sizeof(a), c, c->med_old);
	fmt_val(b, sizeof(b), c, c->med_new);
	basis(c, why, sizeof(why));
	double r = shown_ratio(c);

	if (isnan(c->ci_low))
		snprintf(buf, len, "%s -> %s  %+.1f%% (single figures, no interval; a change "
			 "must exceed %.0f%%)", a, b, 100 * (r - 1), 100 * c->margin);
	else if (c->sequential)
		/* a confidence sequence: it holds at every number of pairs */
		snprintf(buf, len, "%s -> %s  %+.1f%% (%.0f%% sequential CI %+.1f%% .. %+.1f%%; %s)",
			 a, b, 100 * (r - 1), 100 * c->level, 100 * (c->ci_low - 1),
			 100 * (c->ci_high - 1), why);
	else
		snprintf(buf, len, "%s -> %s  %+.1f%% (%.0f%% CI %+.1f%% .. %+.1f%%; p %s %.2g; %s)",
			 a, b, 100 * (r - 1), 100 * c->level,
			 100 * (c->ci_low - 1), 100 * (c->ci_high - 1),
			 c->p_value < 0.001 ? "<" : "=", c->p_value < 0.001 ? 0.001 : c->p_value,
			 why);
}

static void where_lines(const struct pm_bench_cmp *c, FILE *f, const char *ind)
{
	char a[32], b[32], d[32];
	size_t i, shown = 0;

	if (c->split_source) {
		fmt_signed_time(a, sizeof(a), c->kernel_ns.new - c->kernel_ns.old);
		fmt_signed_time(b, sizeof(b), c->user_ns.new - c->user_ns.old);
		fprintf(f, "%skernel %s per op, user %s per op (split from %s)\n", ind, a, b,
			c->split_source);
	}
	for (i = 0; i < c->nmechs && i < 3; i++) {
		const struct pm_mech_delta *m = &c->mechs[i];
		double dv = m->new_ns - m->old_ns;

		if (fabs(dv) < 0.05 * fabs(c->delta_ns))
			break;
		pm_fmt_time(a, sizeof(a), m->old_ns);
		pm_fmt_time(b, sizeof(b), m->new_ns);
		fmt_signed_time(d, sizeof(d), dv);
		fprintf(f, "%sin %s: %s -> %s per op (%s)%s%s%s%s\n", ind, m->name, a, b, d,
			m->started ? ", runs in NEW only" : m->stopped ? ", runs in OLD only" : "",
			m->entry ? ", entered at " : "", m->entry ? m->entry : "",
			m->sw ? "" : "");
	}
	for (i = 0; i < c->nsyms && shown < 5; i++) {
		const struct pm_sym_delta *s = &c->syms[i];
		double dv = s->new_ns - s->old_ns;

		if (!strcmp(s->name, "[other]") || fabs(dv) < 0.02 * fabs(c->delta_ns))
			continue;
		shown++;
		pm_fmt_time(a, sizeof(a), s->old_ns);
		pm_fmt_time(b, sizeof(b), s->new_ns);
		fmt_signed_time(d, sizeof(d), dv);
		if (s->is_new)
			fprintf(f, "%s%s (%s): new, %s per op\n", ind, s->name, s->object, b);
		else if (s->vanished)
			fprintf(f, "%s%s (%s): gone (was %s per op)\n", ind, s->name, s->object, a);
		else
			fprintf(f, "%s%s (%s): %s -> %s per op (%s)\n", ind, s->name, s->object,
				a, b, d);
	}
	if (c->have_counters)
		fprintf(f, "%sinstructions/op %.0f -> %.0f (%+.1f%%), IPC %.2f -> %.2f\n", ind,
			c->instructions.old, c->instructions.new,
			100 * (c->instructions.new / c->instructions.old - 1), c->ipc.old, c->ipc.new);
	if (!isnan(c->icache_mpki.old) && !isnan(c->icache_mpki.new))
		fprintf(f, "%sicache misses per 1000 instructions %.2f -> %.2f\n", ind,
			c->icache_mpki.old, c->icache_mpki.new);
	if (!isnan(c->faults.old) && !isnan(c->faults.new) &&
	    fabs(c->faults.new - c->faults.old) > 0.01)
		fprintf(f, "%spage faults/op %.2f -> %.2f\n", ind, c->faults.old, c->faults.new);
	if (!isnan(c->ctxsw.old) && !isnan(c->ctxsw.new) &&
	    fabs(c->ctxsw.new - c->ctxsw.old) > 0.01)
		fprintf(f, "%scontext switches/op %.2f -> %.2f\n", ind, c->ctxsw.old, c->ctxsw.new);
	if (!isnan(c->migrations.old) && !isnan(c->migrations.new) &&
	    fabs(c->migrations.new - c->migrations.old) > 0.01)
		fprintf(f, "%smigrations/op %.3f -> %.3f\n", ind, c->migrations.old,
			c->migrations.new);
	for (i = 0; i < c->nscale; i++)
		fprintf(f, "%s%u copies: efficiency %.0f%% -> %.0f%%, throughput x%.2f\n", ind,
			c->scale_n[i], 100 * c->scale_eff[i].old, 100 * c->scale_eff[i].new,
			c->scale_tput[i].new / c->scale_tput[i].old);
	pm_emulated_where(c, f, ind);
}

static void bench_text(const struct pm_bench_cmp *c, FILE *f, bool md)
{
	char line[1024];
	size_t i, j;

	change_line(c, line, sizeof(line));
	if (md) {
		fprintf(f, "### %s: %s\n\n%s\n\n", c->name, pm_verdict_name(c->verdict), line);
		if (figures_differ(c)) {
			figures_line(c, f, "");
			fputc('\n', f);
		}
		if (c->machine_note)
			fprintf(f, "Machine: %s.\n\n", c->machine_note);
		fprintf(f, "**Where the time went**\n\n```\n");
		where_lines(c, f, "");
		fprintf(f, "```\n\n");
		if (c->ncauses) {
			fprintf(f, "**Why**\n\n");
			for (i = 0; i < c->ncauses; i++) {
				const struct pm_cause *k = &c->causes[i];

				fprintf(f, "%zu. **%s** (%s, %.2f): %s\n", i + 1, k->title,
					level(k->confidence), k->confidence, k->sentence);
				for (j = 0; j < k->nevidence; j++)
					fprintf(f, "   - %s\n", k->evidence[j]);
			}
			fputc('\n', f);
		}
		return;
	}
	{
		char up[32];

		snprintf(up, sizeof(up), "%s", pm_verdict_name(c->verdict));
		for (i = 0; up[i]; i++)
			up[i] = (char)(up[i] >= 'a' && up[i] <= 'z' ? up[i] - 32 : up[i]);
		fprintf(f, "%s  %s  %s\n", c->name, up, line);
	}
	figures_line(c, f, "  ");
	for (i = 0; i < c->nfacts; i++)
		fprintf(f, "  decided: %s\n", c->facts[i]);
	if (c->machine_note)
		fprintf(f, "  machine: %s\n", c->machine_note);
	{
		/* imported sides may have nothing to say here: no empty heading */
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			where_lines(c, m, "    ");
			fclose(m);
			if (len)
				fprintf(f, "  where:\n%s", buf);
			free(buf);
		}
	}
	if (c->ncauses) {
		fprintf(f, "  why:\n");
		for (i = 0; i < c->ncauses; i++) {
			const struct pm_cause *k = &c->causes[i];

			fprintf(f, "    %zu. [%s %.2f] %s: %s\n", i + 1, level(k->confidence),
				k->confidence, k->title, k->sentence);
			for (j = 0; j < k->nevidence; j++)
				fprintf(f, "         - %s\n", k->evidence[j]);
		}
	} else if (pm_verdict_changed(c->verdict)) {
		fprintf(f, "  why: no rule applies and no symbol stands out\n");
	}
	fputc('\n', f);
}

void pm_report_bench(const struct pm_bench_cmp *c, FILE *f, bool markdown)
{
	bench_text(c, f, markdown);
}

/* The machine moved the whole run: counted on the figures shown. */
static void suite_line(const struct pm_explanation *x, FILE *f)
{
	double fl = x->opts.noise_floor, *lr = pm_xcalloc(x->ncmp + 1, sizeof(*lr));
	size_t i, n = 0, moved = 0;

	for (i = 0; i < x->ncmp; i++) {
		double r = shown_ratio(&x->cmp[i]);

		if (x->cmp[i].measured || !(r > 0) || !isfinite(r))
			continue;
		lr[n++] = log(r);
		moved += x->suite_dir > 0 ? r > 1 + fl : r < 1 / (1 + fl);
	}
	if (2 * moved >= n)
		fprintf(f, "The machine moved the run: %zu of the %zu benchmarks ran %s by more "
			"than %.0f%% (median of all %+.1f%%)", moved, n,
			x->suite_dir > 0 ? "slower" : "faster", 100 * fl,
			n ? 100 * expm1(pm_median(lr, n)) : NAN);
	else
		/* the figures (the faster rounds) held still: the move is in
		 * the rest of the rounds, which the verdicts compare */
		fprintf(f, "The machine moved the run: taking all their rounds, %zu of the %zu "
			"benchmarks ran %s (median move %+.1f%%; their figures, the faster half "
			"of the rounds, %+.1f%%)", x->suite_moved, x->suite_n,
			x->suite_dir > 0 ? "slower" : "faster", 100 * (x->suite_ratio - 1),
			n ? 100 * expm1(pm_median(lr, n)) : NAN);
	fputs(" and the fingerprints are identical, so the machine's state changed (a shared "
	      "host's load), not the code; nothing that moved with it is called a change.\n\n", f);
	free(lr);
}

static void name_list(FILE *f, const struct pm_explanation *x, enum pm_verdict v,
		      const char *label, bool md)
{
	size_t i, n = 0;

	for (i = 0; i < x->ncmp; i++)
		n += x->cmp[i].verdict == v;
	if (!n)
		return;
	fprintf(f, md ? "- **%s** (%zu):" : "%s (%zu):", label, n);
	for (i = 0, n = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (c->verdict == v)
			fprintf(f, "%s %s %+.1f%%", n++ ? "," : "", c->name,
				100 * (shown_ratio(c) - 1));
	}
	fputc('\n', f);
}

static size_t count_verdict(const struct pm_explanation *x, enum pm_verdict v)
{
	size_t i, n = 0;

	for (i = 0; i < x->ncmp; i++)
		n += x->cmp[i].verdict == v;
	return n;
}

static int by_move(const void *a, const void *b)
{
	double x = fabs(log(shown_ratio(*(const struct pm_bench_cmp *const *)a)));
	double y = fabs(log(shown_ratio(*(const struct pm_bench_cmp *const *)b)));

	return (x < y) - (x > y);
}

/* Why the undecided are undecided, in a few words: what most of them
 * were compared by. */
static void undecided_why(const struct pm_explanation *x, char *buf, size_t len)
{
	size_t i, by[PM_UNIT_FIGURES + 1] = { 0 }, top = 0;
	double spread = 0;

	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (c->verdict != PM_INCONCLUSIVE)
			continue;
		by[c->unit]++;
		if (by[c->unit] > by[top])
			top = c->unit;
		if (pm_one_run_by_history(c))
			spread = fmax(spread, expm1(c->prior_sd));
	}
	if (x->suite_held)
		snprintf(buf, len, "held back: the machine moved the run");
	else if (spread > 0)
		snprintf(buf, len, "one run a side, and runs here differ by up to ±%.1f%%",
			 100 * spread);
	else
		snprintf(buf, len, "%s", top == PM_UNIT_ROUNDS ? "one run a side" :
			 top == PM_UNIT_TRIALS ? "one round a side" :
			 top == PM_UNIT_FIGURES ? "single figures" : "the runs disagree");
}

/* No benchmark called changed: one line that counts what the lists
 * below show, and the largest moves among the undecided. */
static void headline(const struct pm_explanation *x, FILE *f)
{
	size_t open = count_verdict(x, PM_INCONCLUSIVE), i, n = 0;
	size_t same = count_verdict(x, PM_NO_CHANGE);
	const struct pm_bench_cmp **v;
	char why[160];

	if (!open) {
		fprintf(f, "No benchmark changed: %zu within the noise floor (±%.0f%%).\n\n",
			same, 100 * x->opts.noise_floor);
		return;
	}
	v = pm_xcalloc(open, sizeof(*v));
	for (i = 0; i < x->ncmp; i++)
		if (x->cmp[i].verdict == PM_INCONCLUSIVE && shown_ratio(&x->cmp[i]) > 0)
			v[n++] = &x->cmp[i];
	qsort(v, n, sizeof(*v), by_move);
	undecided_why(x, why, sizeof(why));
	fprintf(f, "No verdict of change: ");
	if (same)
		fprintf(f, "%zu within the noise floor (±%.0f%%), ", same,
			100 * x->opts.noise_floor);
	fprintf(f, "%zu undecided (%s)", open, why);
	for (i = 0; i < n && i < 3 && fabs(shown_ratio(v[i]) - 1) >= 0.0005; i++)
		fprintf(f, "%s %s %+.1f%%", i ? "," : "; largest moves:", v[i]->name,
			100 * (shown_ratio(v[i]) - 1));
	fputs(i ? ".\n\n" : "; no figure moved.\n\n", f);
	free(v);
}

/*
 * The undecided: each one's cause when they are few (with many, the
 * list above and --all say it), and what would settle them, each
 * remedy said once for the benchmarks it is the same for.
 */
static void undecided(const struct pm_explanation *x, FILE *f, bool md)
{
	size_t open = count_verdict(x, PM_INCONCLUSIVE), i, j;

	for (i = 0; open <= 3 && i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (c->verdict != PM_INCONCLUSIVE)
			continue;
		for (j = 0; j < c->nfacts; j++)
			fprintf(f, md ? "  - %s: decided: %s\n" : "  %s: decided: %s\n", c->name,
				c->facts[j]);
		if (c->ncauses)
			fprintf(f, md ? "  - %s: %s\n" : "  %s: %s\n", c->name,
				c->causes[0].sentence);
	}
	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (c->verdict != PM_INCONCLUSIVE || !c->settle)
			continue;
		for (j = 0; j < i; j++)
			if (x->cmp[j].verdict == PM_INCONCLUSIVE && x->cmp[j].settle &&
			    !strcmp(x->cmp[j].settle, c->settle))
				break;
		if (j < i)
			continue;
		fputs(md ? "  - " : "  ", f);
		for (j = i; j < x->ncmp; j++)
			if (x->cmp[j].verdict == PM_INCONCLUSIVE && x->cmp[j].settle &&
			    !strcmp(x->cmp[j].settle, c->settle))
				fprintf(f, "%s%s", j > i ? ", " : "", x->cmp[j].name);
		fprintf(f, ": %s%s\n", c->sequential ? "" : "would be settled by ", c->settle);
	}
}

struct pm_table *pm_report_table(const struct pm_explanation *x)
{
	struct pm_table *t = pm_table_new();
	char head[24];
	size_t i;

	/* the verdicts' level (opts.level), which the intervals are at */
	snprintf(head, sizeof(head), "%.0f%% CI", 100 * x->opts.level);
	pm_table_add_col(t, "benchmark", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "verdict", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "OLD", "old", 0);
	pm_table_add_col(t, "NEW", "new", 0);
	pm_table_add_col(t, "unit", NULL, PM_COL_LEFT | PM_COL_CSV_ONLY);
	pm_table_add_col(t, "change", "ratio", 0);
	pm_table_add_col(t, head, "ci_low", 0);
	pm_table_add_col(t, "ci_high", NULL, PM_COL_CSV_ONLY);
	pm_table_add_col(t, "p", "p_value", 0);
	pm_table_add_col(t, "compared", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "likely cause", "cause", PM_COL_LEFT);
	pm_table_add_col(t, "confidence", NULL, PM_COL_CSV_ONLY);
	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];
		char a[40], b[40], raw[40];

		pm_table_row(t, c->name);
		pm_table_cell(t, 0, c->name, NULL);
		pm_table_cell(t, 1, pm_verdict_name(c->verdict), NULL);
		fmt_val(a, sizeof(a), c, c->med_old);
		fmt_val(b, sizeof(b), c, c->med_new);
		/* csv: the figures in ns (measured parameters in their unit) */
		pm_table_cell_num(t, 2, a, c->med_old);
		pm_table_cell_num(t, 3, b, c->med_new);
		pm_table_cell(t, 4, c->measured ? c->ref_old->unit : "ns", NULL);
		snprintf(a, sizeof(a), "%+.1f%%", 100 * (shown_ratio(c) - 1));
		pm_table_cell_num(t, 5, a, shown_ratio(c));
		if (isnan(c->ci_low)) {
			pm_table_cell(t, 6, "-", "");
		} else {
			snprintf(a, sizeof(a), "%+.1f%% .. %+.1f%%", 100 * (c->ci_low - 1),
				 100 * (c->ci_high - 1));
			snprintf(raw, sizeof(raw), "%.6g", c->ci_low);
			pm_table_cell(t, 6, a, raw);
			pm_table_cell_num(t, 7, "", c->ci_high);
		}
		if (isnan(c->p_value))
			pm_table_cell(t, 8, "-", "");
		else {
			snprintf(a, sizeof(a), "%s%.2g", c->p_value < 0.001 ? "<" : "",
				 c->p_value < 0.001 ? 0.001 : c->p_value);
			pm_table_cell_num(t, 8, a, c->p_value);
		}
		pm_table_cellf(t, 9, "%zu vs %zu %s", c->n_old, c->n_new, pm_unit_name(c->unit));
		if (c->ncauses) {
			pm_table_cell(t, 10, c->causes[0].title, NULL);
			pm_table_cell_num(t, 11, "", c->causes[0].confidence);
		}
	}
	return t;
}

/* The sides, their warnings and the fingerprint differences. */
static void report_head(const struct pm_explanation *x, FILE *f, bool md)
{
	char *bo = side_desc(x->old), *bn = side_desc(x->new);
	size_t i;

	if (md)
		fprintf(f, "## pmbench explain\n\n- OLD %s\n- NEW %s\n", bo, bn);
	else
		fprintf(f, "pmbench explain\n  OLD %s\n  NEW %s\n", bo, bn);
	free(bo);
	free(bn);
	for (i = 0; i < x->old->nwarnings; i++)
		fprintf(f, "  warning (OLD): %s\n", x->old->warnings[i]);
	for (i = 0; i < x->new->nwarnings; i++)
		fprintf(f, "  warning (NEW): %s\n", x->new->warnings[i]);
	if (x->ndiffs) {
		size_t cfg = 0;

		fprintf(f, md ? "\n**Fingerprint differences** (hypotheses):\n\n" :
			"  fingerprint differences (hypotheses the evidence below confirms or rejects):\n");
		for (i = 0; i < x->ndiffs; i++) {
			if (pm_fp_diff_member(&x->diffs[i], PM_FP_KERNEL_CONFIG)) {
				cfg++;
				continue;
			}
			fprintf(f, md ? "- `%s`: %s -> %s\n" : "    %s: %s -> %s\n",
				x->diffs[i].key, x->diffs[i].old, x->diffs[i].new);
		}
		if (cfg)
			fprintf(f, md ? "- %zu kernel config options differ\n" :
				"    %zu kernel config options differ\n", cfg);
	}
}

/* The summary: the unchanged benchmarks by verdict, and those on one side. */
static void report_summary(const struct pm_explanation *x, FILE *f, bool md)
{
	size_t i;

	if (md)
		fprintf(f, "**Summary**\n\n");
	name_list(f, x, PM_NO_CHANGE, "no change", md);
	name_list(f, x, PM_CHANGED, "parameter changed", md);
	name_list(f, x, PM_INCONCLUSIVE, "inconclusive", md);
	undecided(x, f, md);
	if (x->nonly_old) {
		fprintf(f, md ? "- only in OLD:" : "only in OLD:");
		for (i = 0; i < x->nonly_old; i++)
			fprintf(f, " %s", x->only_old[i]);
		fputc('\n', f);
	}
	if (x->nonly_new) {
		fprintf(f, md ? "- only in NEW:" : "only in NEW:");
		for (i = 0; i < x->nonly_new; i++)
			fprintf(f, " %s", x->only_new[i]);
		fputc('\n', f);
	}
}

void pm_report_text(const struct pm_explanation *x, FILE *f, bool md, bool all)
{
	size_t i, shown = 0;

	report_head(x, f, md);
	fputc('\n', f);
	if (md && x->ncmp) {
		/* every benchmark at a glance, a table that reads in a mail too */
		struct pm_table *t = pm_report_table(x);

		pm_table_print(t, f, PM_TABLE_MARKDOWN);
		pm_table_free(t);
		fputc('\n', f);
	}
	if (x->suite_held)
		suite_line(x, f);
	/* changed benchmarks first: regressions, then improvements */
	for (int pass = 0; pass < 2; pass++)
		for (i = 0; i < x->ncmp; i++) {
			const struct pm_bench_cmp *c = &x->cmp[i];
			bool hit = pass == 0 ? c->verdict == PM_REGRESSION :
					       c->verdict == PM_IMPROVEMENT;

			if (hit) {
				bench_text(c, f, md);
				shown++;
			}
		}
	for (i = 0; all && i < x->ncmp; i++)
		if (!pm_verdict_changed(x->cmp[i].verdict))
			bench_text(&x->cmp[i], f, md);
	if (!shown && x->ncmp)
		headline(x, f);
	report_summary(x, f, md);
	if (!x->ncmp)
		fprintf(f, "No benchmark is present on both sides: nothing to compare.\n");
	pm_emulated_summary(x, f, md);
	for (i = 0; i < x->nunavailable; i++)
		fprintf(f, md ? "- evidence unavailable: %s\n" : "evidence unavailable: %s\n",
			x->unavailable[i]);
}

static json_t *pair_json(struct pm_pair p)
{
	return json_pack("{s:o,s:o}", "old", isfinite(p.old) ? json_real(p.old) : json_null(),
			 "new", isfinite(p.new) ? json_real(p.new) : json_null());
}

static json_t *num(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Time per op by mechanism (mechanism.c), largest move first. */
static json_t *mechanisms_json(const struct pm_bench_cmp *c)
{
	json_t *v = json_array();
	size_t i;

	for (i = 0; i < c->nmechs; i++) {
		const struct pm_mech_delta *m = &c->mechs[i];

		json_array_append_new(v, json_pack("{s:s,s:s,s:o,s:o,s:b,s:b,s:s?,s:s?,s:s?,s:i}",
			"key", m->key, "name", m->name, "old_ns_per_op", num(m->old_ns),
			"new_ns_per_op", num(m->new_ns), "new_only", m->started,
			"old_only", m->stopped, "entered_at", m->entry, "file", m->file,
			"switched_by", m->sw ? m->sw->text : NULL, "tie", m->link));
	}
	return v;
}

/* A benchmark's verdict: figures, estimate, interval, how it was had. */
static void verdict_json(json_t *b, const struct pm_bench_cmp *c)
{
	json_object_set_new(b, "name", json_string(c->name));
	json_object_set_new(b, "verdict", json_string(pm_verdict_name(c->verdict)));
	json_object_set_new(b, "median_old_ns", num(c->med_old));
	json_object_set_new(b, "median_new_ns", num(c->med_new));
	json_object_set_new(b, "figure_old_ns", num(c->figure.old));
	json_object_set_new(b, "figure_new_ns", num(c->figure.new));
	json_object_set_new(b, "ratio", num(c->ratio));
	json_object_set_new(b, "change", num(shown_ratio(c)));
	json_object_set_new(b, "raw_ratio", num(c->raw_ratio));
	json_object_set_new(b, "reference_ratio", num(c->ref_ratio));
	if (c->machine_note)
		json_object_set_new(b, "machine", json_string(c->machine_note));
	json_object_set_new(b, "ci_low", num(c->ci_low));
	json_object_set_new(b, "ci_high", num(c->ci_high));
	json_object_set_new(b, "p_value", num(c->p_value));
	json_object_set_new(b, "n_old", json_integer((json_int_t)c->n_old));
	json_object_set_new(b, "n_new", json_integer((json_int_t)c->n_new));
	json_object_set_new(b, "by_runs", json_boolean(c->by_runs));
	json_object_set_new(b, "unit", json_string(pm_unit_name(c->unit)));
	json_object_set_new(b, "margin", num(c->margin));
	json_object_set_new(b, "paired", json_boolean(c->paired));
	json_object_set_new(b, "at_once", json_boolean(c->at_once));
	json_object_set_new(b, "left_out_old", json_integer((json_int_t)c->left_out_old));
	json_object_set_new(b, "left_out_new", json_integer((json_int_t)c->left_out_new));
	json_object_set_new(b, "probe_slope",
			    c->probe_adjusted ? json_real(c->probe_slope) : json_null());
	json_object_set_new(b, "spread_runs", json_integer((json_int_t)c->prior_runs));
	json_object_set_new(b, "spread_sd", c->prior_runs ? num(expm1(c->prior_sd)) :
			    json_null());
	json_object_set_new(b, "runs_old", json_integer((json_int_t)c->runs_old));
	json_object_set_new(b, "runs_new", json_integer((json_int_t)c->runs_new));
	json_object_set_new(b, "rounds_old", json_integer((json_int_t)c->rounds_old));
	json_object_set_new(b, "rounds_new", json_integer((json_int_t)c->rounds_new));
	json_object_set_new(b, "spread_old", num(c->spread_old));
	json_object_set_new(b, "spread_new", num(c->spread_new));
	json_object_set_new(b, "p_rank", num(c->p_rank));
	if (c->settle)
		json_object_set_new(b, "settle", json_string(c->settle));
}

/* Where the time went: the split, counters, symbols. */
static void where_json(json_t *b, const struct pm_bench_cmp *c)
{
	json_t *syms = json_array();
	size_t j;

	json_object_set_new(b, "delta_ns", num(c->delta_ns));
	json_object_set_new(b, "split_source", c->split_source ?
			    json_string(c->split_source) : json_null());
	json_object_set_new(b, "kernel_ns", pair_json(c->kernel_ns));
	json_object_set_new(b, "user_ns", pair_json(c->user_ns));
	json_object_set_new(b, "instructions", pair_json(c->instructions));
	json_object_set_new(b, "ipc", pair_json(c->ipc));
	json_object_set_new(b, "icache_mpki", pair_json(c->icache_mpki));
	json_object_set_new(b, "page_faults", pair_json(c->faults));
	json_object_set_new(b, "context_switches", pair_json(c->ctxsw));
	json_object_set_new(b, "migrations", pair_json(c->migrations));
	for (j = 0; j < c->nsyms && j < 20; j++) {
		const struct pm_sym_delta *s = &c->syms[j];

		json_array_append_new(syms, json_pack("{s:s,s:s,s:b,s:o,s:o,s:b,s:b}",
			"name", s->name, "object", s->object, "kernel", s->kernel,
			"old_ns_per_op", num(s->old_ns), "new_ns_per_op", num(s->new_ns),
			"new", s->is_new, "vanished", s->vanished));
	}
	json_object_set_new(b, "symbols", syms);
	json_object_set_new(b, "mechanisms", mechanisms_json(c));
}

static json_t *causes_json(const struct pm_bench_cmp *c)
{
	json_t *causes = json_array();
	size_t j, k;

	for (j = 0; j < c->ncauses; j++) {
		const struct pm_cause *cs = &c->causes[j];
		json_t *ev = json_array();

		for (k = 0; k < cs->nevidence; k++)
			json_array_append_new(ev, json_string(cs->evidence[k]));
		json_array_append_new(causes, json_pack("{s:s,s:s,s:f,s:s,s:s,s:o,s:s?,s:s?,s:s?}",
			"rule", cs->rule, "title", cs->title, "confidence", cs->confidence,
			"level", level(cs->confidence), "sentence", cs->sentence,
			"evidence", ev, "proof", cs->proof, "mechanism", cs->mechanism,
			"switched_by", cs->switched_by));
	}
	return causes;
}

static json_t *strings_json(char *const *v, size_t n)
{
	json_t *a = json_array();

	for (size_t i = 0; i < n; i++)
		json_array_append_new(a, json_string(v[i]));
	return a;
}

json_t *pm_report_json(const struct pm_explanation *x)
{
	json_t *o = json_object(), *benches = json_array(), *diffs = json_array();
	json_t *w = json_array();
	size_t i;

	json_object_set_new(o, "old", json_pack("{s:s,s:I}", "path", x->old->name,
						"runs", (json_int_t)x->old->nruns));
	json_object_set_new(o, "new", json_pack("{s:s,s:I}", "path", x->new->name,
						"runs", (json_int_t)x->new->nruns));
	json_object_set_new(o, "noise_floor", json_real(x->opts.noise_floor));
	for (i = 0; i < x->ndiffs; i++)
		json_array_append_new(diffs, json_pack("{s:s,s:s,s:s}", "key", x->diffs[i].key,
						       "old", x->diffs[i].old, "new", x->diffs[i].new));
	json_object_set_new(o, "fingerprint_differences", diffs);
	for (i = 0; i < x->ncmp; i++) {
		json_t *b = json_object();

		verdict_json(b, &x->cmp[i]);
		where_json(b, &x->cmp[i]);
		json_object_set_new(b, "emulated", pm_emulated_json(&x->cmp[i]));
		json_object_set_new(b, "causes", causes_json(&x->cmp[i]));
		json_object_set_new(b, "decided", strings_json(x->cmp[i].facts,
							      x->cmp[i].nfacts));
		json_array_append_new(benches, b);
	}
	json_object_set_new(o, "benchmarks", benches);
	json_object_set_new(o, "suite", json_pack("{s:I,s:I,s:s?,s:o,s:b}",
		"compared", (json_int_t)x->suite_n, "moved", (json_int_t)x->suite_moved,
		"direction", x->suite_dir > 0 ? "slower" : x->suite_dir < 0 ? "faster" : NULL,
		"median_ratio", num(x->suite_ratio), "held_back", x->suite_held));
	json_object_set_new(o, "only_old", strings_json(x->only_old, x->nonly_old));
	json_object_set_new(o, "only_new", strings_json(x->only_new, x->nonly_new));
	json_object_set_new(o, "evidence_unavailable", strings_json(x->unavailable,
								    x->nunavailable));
	for (i = 0; i < x->old->nwarnings; i++)
		json_array_append_new(w, json_pack("{s:s,s:s}", "side", "old",
						   "warning", x->old->warnings[i]));
	for (i = 0; i < x->new->nwarnings; i++)
		json_array_append_new(w, json_pack("{s:s,s:s}", "side", "new",
						   "warning", x->new->warnings[i]));
	json_object_set_new(o, "warnings", w);
	return o;
}
