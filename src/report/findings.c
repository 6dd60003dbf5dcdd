/*
 * explain's findings as a part of the page: per changed benchmark where
 * the time went (kernel and user, the mechanisms, the symbols) and why
 * (the causes, ranked, each with its evidence), the benchmarks not
 * decided with what would decide them, pmbench ab's experiment, and what
 * differs between the sides.  Every text from explain or a result file
 * is escaped and cut (page.h).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/page.h"

#define MAX_MECHS 3		/* mechanisms and symbols of "where", as explain's text */
#define MAX_SYMS 5
#define MAX_CONFIG_ROWS 12	/* kernel config options listed, the rest counted */
#define MAX_CLAUSES 16		/* of a "what would decide it" */
#define PROVEN "proven by experiment"	/* a cause's badge, and the title of
					   experiment.c's own cause */

/* The confidence of a cause in a word, at explain's thresholds. */
static const char *conf_word(double conf)
{
	return conf >= 0.7 ? "high" : conf >= 0.4 ? "medium" : "low";
}

static void signed_time(char *buf, size_t len, double ns)
{
	char t[24];

	pm_fmt_time(t, sizeof(t), fabs(ns));
	snprintf(buf, len, "%s%s", ns < 0 ? "−" : "+", t);
}

/* A link to a benchmark's section ("b-") or finding ("f-"). */
static void link(FILE *f, const char *prefix, const char *name)
{
	fprintf(f, "<a href=\"#%s", prefix);
	pm_html_fragment(f, name, NAME_MAX_CHARS);
	fputs("\">", f);
	put(f, name, NAME_MAX_CHARS);
	fputs("</a>", f);
}

/* ---- where the time went ---- */

static void mechs_table(FILE *f, const struct pm_bench_cmp *c)
{
	char a[32], b[32], d[40];
	size_t i;

	for (i = 0; i < c->nmechs && i < MAX_MECHS; i++) {
		const struct pm_mech_delta *m = &c->mechs[i];

		if (fabs(m->new_ns - m->old_ns) < 0.05 * fabs(c->delta_ns))
			break;
		if (!i)
			fputs("<table class=\"mechs\"><thead><tr><th>mechanism</th><th class=\"n\">OLD"
			      "</th><th class=\"n\">NEW</th><th class=\"n\">change</th><th>entered at"
			      "</th></tr></thead>\n<tbody>\n", f);
		pm_fmt_time(a, sizeof(a), m->old_ns);
		pm_fmt_time(b, sizeof(b), m->new_ns);
		signed_time(d, sizeof(d), m->new_ns - m->old_ns);
		fputs("<tr><td>", f);
		put(f, m->name, TEXT_MAX_CHARS);
		if (m->started || m->stopped)
			fprintf(f, " <span class=\"small\">(runs in %s only)</span>",
				m->started ? "NEW" : "OLD");
		fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
			"<td><code>", a, b, d);
		put(f, m->entry, NAME_MAX_CHARS);
		fputs("</code></td></tr>\n", f);
	}
	if (i)
		fputs("</tbody></table>\n", f);
}

static void syms_table(FILE *f, const struct pm_bench_cmp *c)
{
	char a[32], b[32], d[40];
	size_t i, shown = 0;

	for (i = 0; i < c->nsyms && shown < MAX_SYMS; i++) {
		const struct pm_sym_delta *s = &c->syms[i];

		if (!strcmp(s->name, "[other]") ||
		    fabs(s->new_ns - s->old_ns) < 0.02 * fabs(c->delta_ns))
			continue;
		if (!shown++)
			fputs("<table class=\"symbols\"><thead><tr><th>symbol</th><th>in</th>"
			      "<th class=\"n\">OLD</th><th class=\"n\">NEW</th><th class=\"n\">change"
			      "</th></tr></thead>\n<tbody>\n", f);
		pm_fmt_time(a, sizeof(a), s->old_ns);
		pm_fmt_time(b, sizeof(b), s->new_ns);
		signed_time(d, sizeof(d), s->new_ns - s->old_ns);
		fputs("<tr><td><code>", f);
		put(f, s->name, NAME_MAX_CHARS);
		fputs("</code></td><td class=\"small\">", f);
		put(f, s->object, NAME_MAX_CHARS);
		fprintf(f, "</td><td class=\"n\">%s</td><td class=\"n\">%s</td><td class=\"n\">%s</td>"
			"</tr>\n", s->is_new ? "–" : a, s->vanished ? "gone" : b,
			s->is_new ? "new" : d);
	}
	if (shown)
		fputs("</tbody></table>\n", f);
}

static bool moved(struct pm_pair p, double by)
{
	return isfinite(p.old) && isfinite(p.new) && fabs(p.new - p.old) > by;
}

/* A count per op that moved by more than 0.01, as explain's text says. */
static void counts_item(FILE *f, size_t *n, const char *what, struct pm_pair p)
{
	char a[32], b[32];

	if (!moved(p, 0.01))
		return;
	pm_page_count(a, sizeof(a), p.old);
	pm_page_count(b, sizeof(b), p.new);
	fprintf(f, "%s<li>%s per op %s &rarr; %s</li>\n", (*n)++ ? "" : "<ul class=\"counts\">\n",
		what, a, b);
}

/* The counts per op that moved, as explain's text names them. */
static void counts_list(FILE *f, const struct pm_bench_cmp *c)
{
	size_t i, n = 0;

#define ITEM(...) (fputs(n++ ? "" : "<ul class=\"counts\">\n", f), fprintf(f, __VA_ARGS__))
	if (c->have_counters)
		ITEM("<li>instructions per op %.0f &rarr; %.0f (%+.1f%%), IPC %.2f &rarr; %.2f</li>\n",
		     c->instructions.old, c->instructions.new,
		     100 * (c->instructions.new / c->instructions.old - 1), c->ipc.old, c->ipc.new);
	if (isfinite(c->icache_mpki.old) && isfinite(c->icache_mpki.new))
		ITEM("<li>icache misses per 1000 instructions %.2f &rarr; %.2f</li>\n",
		     c->icache_mpki.old, c->icache_mpki.new);
	counts_item(f, &n, "page faults", c->faults);
	counts_item(f, &n, "context switches", c->ctxsw);
	counts_item(f, &n, "migrations", c->migrations);
	for (i = 0; i < c->nscale; i++)
		ITEM("<li>%u copies: efficiency %.0f%% &rarr; %.0f%%, throughput &times;%.2f</li>\n",
		     c->scale_n[i], 100 * c->scale_eff[i].old, 100 * c->scale_eff[i].new,
		     c->scale_tput[i].new / c->scale_tput[i].old);
#undef ITEM
	if (n)
		fputs("</ul>\n", f);
}

/* "Where the time went", when explain can say anything about it. */
static void where(FILE *f, const struct pm_bench_cmp *c)
{
	char *buf = NULL, a[40], b[40];
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);

	if (!m)
		return;
	if (c->split_source) {
		signed_time(a, sizeof(a), c->kernel_ns.new - c->kernel_ns.old);
		signed_time(b, sizeof(b), c->user_ns.new - c->user_ns.old);
		fprintf(m, "<p>Kernel %s per op, user %s per op <span class=\"small\">(split from "
			"%s)</span>.</p>\n", a, b, c->split_source);
	}
	mechs_table(m, c);
	syms_table(m, c);
	counts_list(m, c);
	fclose(m);
	if (len)
		fprintf(f, "<h4>Where the time went</h4>\n%s", buf);
	free(buf);
}

/* ---- why: the causes, ranked ---- */

/* The name of a mechanism of the map, from the benchmark's moves. */
static const char *mech_name(const struct pm_bench_cmp *c, const char *key)
{
	size_t i;

	for (i = 0; i < c->nmechs; i++)
		if (!strcmp(c->mechs[i].key, key))
			return c->mechs[i].name;
	return key;
}

static void cause_item(FILE *f, const struct pm_bench_cmp *c, const struct pm_cause *k)
{
	static const char proven[] = "Proven by experiment: ";
	const char *s = k->sentence ? k->sentence : "";
	size_t j;

	fputs("<li data-rule=\"", f);
	put(f, k->rule, NAME_MAX_CHARS);
	fputs("\">", f);
	/* the experiment's own cause is titled what its badge says */
	if (!k->proof || strcmp(k->title, PROVEN)) {
		fputs("<b>", f);
		put(f, k->title, NAME_MAX_CHARS);
		fputs("</b>", f);
	}
	if (k->proof) {
		fputs("<span class=\"proof\" title=\"", f);
		put(f, k->proof, LINE_MAX_CHARS);
		fputs("\">" PROVEN "</span>", f);
		/* the badge says it: not again at the sentence's start */
		if (!strncmp(s, proven, strlen(proven)))
			s += strlen(proven);
	}
	fprintf(f, "<span class=\"conf %s\" title=\"confidence %.2f\">%s</span>",
		conf_word(k->confidence), k->confidence, conf_word(k->confidence));
	fputs("<div class=\"sentence\">", f);
	put(f, s, LINE_MAX_CHARS);
	fputs("</div>\n", f);
	if (k->mechanism || k->switched_by) {
		fputs("<p class=\"mech\">", f);
		if (k->mechanism) {
			fputs("Mechanism: <b>", f);
			put(f, mech_name(c, k->mechanism), TEXT_MAX_CHARS);
			fputs("</b>", f);
		}
		if (k->switched_by) {
			fputs(k->mechanism ? "; switched by " : "Switched by ", f);
			put(f, k->switched_by, TEXT_MAX_CHARS);
		}
		fputs("</p>\n", f);
	}
	for (j = 0; j < k->nevidence; j++) {
		fputs(j ? "<li>" : "<ul class=\"evidence\">\n<li>", f);
		put(f, k->evidence[j], LINE_MAX_CHARS);
		fputs("</li>\n", f);
	}
	fputs(k->nevidence ? "</ul>\n</li>\n" : "</li>\n", f);
}

static void why(FILE *f, const struct pm_bench_cmp *c)
{
	size_t i;

	fputs("<h4>Why</h4>\n", f);
	if (!c->ncauses) {
		fputs("<p>No rule applies and no symbol stands out.</p>\n", f);
		return;
	}
	fputs("<ol class=\"causes\">\n", f);
	for (i = 0; i < c->ncauses; i++)
		cause_item(f, c, &c->causes[i]);
	fputs("</ol>\n", f);
}

/* The figures of the results table (each file's), when they differ by
 * more than 1% from those the verdict judged. */
static void table_figures(FILE *f, const struct pm_result *const *r,
			  const struct pm_bench_cmp *c)
{
	const struct pm_bench_result *ba = pm_result_find(r[0], c->name);
	const struct pm_bench_result *bb = pm_result_find(r[1], c->name);
	struct pm_figure fa, fb;
	char *a, *b;

	if (!pm_page_figure(ba, &fa) || !pm_page_figure(bb, &fb) || !(fa.value > 0) ||
	    !(fb.value > 0) || (fabs(fa.value / c->med_old - 1) <= 0.01 &&
				fabs(fb.value / c->med_new - 1) <= 0.01))
		return;
	a = pm_page_value(ba, fa.value);
	b = pm_page_value(bb, fb.value);
	fputs("<p class=\"small\">The figures of the results table: ", f);
	put(f, a, NAME_MAX_CHARS);
	fputs(" &rarr; ", f);
	put(f, b, NAME_MAX_CHARS);
	fputs(" (the verdict judged the units compared above).</p>\n", f);
	free(a);
	free(b);
}

/* A changed benchmark: its verdict, where the time went, why. */
static void finding(FILE *f, const struct pm_result *const *r, const struct pm_bench_cmp *c)
{
	char *a = pm_page_value(c->ref_old, c->med_old), *b = pm_page_value(c->ref_old, c->med_new);
	char ch[24], ci[48];

	pm_page_change(ch, sizeof(ch), pm_page_ratio(r, c));
	pm_page_change_ci(ci, sizeof(ci), c->ci_low, c->ci_high);
	fprintf(f, "<section class=\"finding %s\" id=\"f-", pm_page_verdict_class(c->verdict));
	pm_html_fragment(f, c->name, NAME_MAX_CHARS);
	fputs("\" data-bench=\"", f);
	put(f, c->name, NAME_MAX_CHARS);
	fputs("\">\n<h3>", f);
	link(f, "b-", c->name);
	fputc(' ', f);
	pm_page_verdict(f, c->verdict);
	fputs("</h3>\n<p class=\"change\">", f);
	put(f, a, NAME_MAX_CHARS);
	fputs(" &rarr; ", f);
	put(f, b, NAME_MAX_CHARS);
	fprintf(f, ", <b>%s</b>", ch);
	if (isfinite(c->ci_low))
		fprintf(f, " <span class=\"small\">(%.0f%% %sinterval %s; %zu vs %zu %s)</span>",
			100 * c->level, c->sequential ? "sequential " : "", ci, c->n_old, c->n_new,
			pm_unit_name(c->unit));
	fputs("</p>\n", f);
	table_figures(f, r, c);
	for (size_t i = 0; i < c->nfacts; i++) {
		fputs("<p class=\"small\">Decided: ", f);
		put(f, c->facts[i], LINE_MAX_CHARS);
		fputs(".</p>\n", f);
	}
	if (c->machine_note) {
		fputs("<p class=\"small\">Machine: ", f);
		put(f, c->machine_note, LINE_MAX_CHARS);
		fputs(".</p>\n", f);
	}
	where(f, c);
	why(f, c);
	fputs("</section>\n", f);
	free(a);
	free(b);
}

/* ---- the benchmarks not decided ---- */

/* The clauses of a "what would decide it" (explain joins them with
 * "; "), split where no parenthesis is open. */
static size_t clauses(const char *s, const char **at, size_t *len, size_t max)
{
	size_t n = 0, depth = 0;
	const char *p = s, *start = s;

	for (; s && *p && n < max; p++) {
		depth += *p == '(';
		depth -= *p == ')' && depth;
		if (!depth && p[0] == ';' && p[1] == ' ') {
			at[n] = start;
			len[n++] = (size_t)(p - start);
			start = p + 2;
		}
	}
	if (s && *start && n < max) {
		at[n] = start;
		len[n++] = strlen(start);
	}
	return n;
}

static bool has_clause(const char *settle, const char *clause, size_t len)
{
	const char *at[MAX_CLAUSES];
	size_t l[MAX_CLAUSES], n = clauses(settle, at, l, MAX_CLAUSES), i;

	for (i = 0; i < n; i++)
		if (l[i] == len && !memcmp(at[i], clause, len))
			return true;
	return false;
}

/* A clause all the undecided benchmarks share (said once for them)? */
static bool shared_clause(const struct pm_explanation *x, const char *clause, size_t len)
{
	size_t i;

	for (i = 0; i < x->ncmp; i++) {
		const struct pm_bench_cmp *c = &x->cmp[i];

		if (c->verdict == PM_INCONCLUSIVE && (c->sequential || !c->settle ||
						       !has_clause(c->settle, clause, len)))
			return false;
	}
	return true;
}

/* Clauses of s, those shared or those not, joined by "; ". */
static void put_clauses(FILE *f, const struct pm_explanation *x, const char *s, bool shared)
{
	const char *at[MAX_CLAUSES];
	size_t l[MAX_CLAUSES], n = clauses(s, at, l, MAX_CLAUSES), i, shown = 0;

	for (i = 0; i < n; i++)
		if (shared_clause(x, at[i], l[i]) == shared) {
			char *c = pm_xasprintf("%.*s", (int)l[i], at[i]);

			fputs(shown++ ? "; " : "", f);
			put(f, c, LINE_MAX_CHARS);
			free(c);
		}
}

static void undecided_item(FILE *f, const struct pm_result *const *r,
			   const struct pm_explanation *x, const struct pm_bench_cmp *c)
{
	char ch[24], ci[48];
	char *buf = NULL;
	size_t len = 0;
	FILE *m;

	pm_page_change(ch, sizeof(ch), pm_page_ratio(r, c));
	pm_page_change_ci(ci, sizeof(ci), c->ci_low, c->ci_high);
	fputs("<li>", f);
	link(f, "b-", c->name);
	fprintf(f, " %s", ch);
	if (isfinite(c->ci_low))
		fprintf(f, " <span class=\"small\">(%.0f%% interval %s)</span>", 100 * c->level, ci);
	if (c->ncauses) {
		fputs(": ", f);
		put(f, c->causes[0].title, NAME_MAX_CHARS);
	}
	if (c->settle && c->sequential) {
		/* a sequential one's own: how many more pairs */
		fputs("; <span class=\"small\">", f);
		put(f, c->settle, LINE_MAX_CHARS);
		fputs("</span>", f);
	} else if (c->settle && (m = open_memstream(&buf, &len))) {
		put_clauses(m, x, c->settle, false);
		fclose(m);
		if (len)
			fprintf(f, "; <span class=\"small\">also %s</span>", buf);
		free(buf);
	}
	fputs("</li>\n", f);
}

static void undecided(FILE *f, const struct pm_result *const *r, const struct pm_explanation *x)
{
	const struct pm_bench_cmp *first = NULL;
	size_t i, n = 0;

	for (i = 0; i < x->ncmp; i++)
		if (x->cmp[i].verdict == PM_INCONCLUSIVE) {
			first = first ? first : &x->cmp[i];
			n++;
		}
	if (!n)
		return;
	fprintf(f, "<h3 id=\"undecided\">Not decided</h3>\n<p>%zu benchmark%s changed too little "
		"against %s spread to be called a change or no change.", n, n == 1 ? "" : "s",
		n == 1 ? "its" : "their");
	if (first->settle && !first->sequential) {
		char *buf = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&buf, &len);

		if (m) {
			put_clauses(m, x, first->settle, true);
			fclose(m);
			if (len)
				fprintf(f, " What would decide %s: %s.", n == 1 ? "it" : "them", buf);
			free(buf);
		}
	}
	fputs("</p>\n<ul class=\"undecided\">\n", f);
	for (i = 0; i < x->ncmp; i++)
		if (x->cmp[i].verdict == PM_INCONCLUSIVE)
			undecided_item(f, r, x, &x->cmp[i]);
	fputs("</ul>\n", f);
}

/* ---- pmbench ab's experiment ---- */

static const char *jstr(const json_t *o, const char *key)
{
	return json_string_value(json_object_get(o, key));
}

/* The experiment both results come from (the same id), or NULL. */
static const json_t *experiment(const struct pm_result *const *r)
{
	const json_t *e0 = json_object_get(json_object_get(r[0]->options, "ab"), "experiment");
	const json_t *e1 = json_object_get(json_object_get(r[1]->options, "ab"), "experiment");

	if (!jstr(e0, "id") || !jstr(e1, "id") || strcmp(jstr(e0, "id"), jstr(e1, "id")) ||
	    !json_array_size(json_object_get(e0, "differences")))
		return NULL;
	return e0;
}

static void differences_table(FILE *f, const json_t *d)
{
	const json_t *v;
	size_t i;

	fputs("<table class=\"differences\"><thead><tr><th>difference</th><th>kind</th>"
	      "<th>A (OLD)</th><th>B (NEW)</th></tr></thead>\n<tbody>\n", f);
	json_array_foreach(d, i, v) {
		fputs("<tr><td>", f);
		put(f, jstr(v, "text"), TEXT_MAX_CHARS);
		fputs("</td><td>", f);
		put(f, jstr(v, "kind"), NAME_MAX_CHARS);
		fputs("</td><td><code>", f);
		put(f, jstr(v, "a") ? jstr(v, "a") : "–", TEXT_MAX_CHARS);
		fputs("</code></td><td><code>", f);
		put(f, jstr(v, "b") ? jstr(v, "b") : "–", TEXT_MAX_CHARS);
		fputs("</code></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* A share taken back, "97%", or "-" when the file has none. */
static void share(FILE *f, const json_t *v)
{
	if (json_is_number(v))
		fprintf(f, "%.0f%%", 100 * json_number_value(v));
	else
		fputs("–", f);
}

/* With several differences, how much of each change taking each back
 * removes (ab's confirm boots). */
static void confirm_table(FILE *f, const json_t *confirm)
{
	const json_t *res = json_object_get(confirm, "results"), *v, *b;
	const char *name;
	size_t i, rows = 0;

	json_array_foreach(res, i, v) {
		json_object_foreach((json_t *)json_object_get(v, "benchmarks"), name, b) {
			if (!rows++)
				fputs("<table class=\"confirm\"><thead><tr><th>taken back</th>"
				      "<th>benchmark</th><th class=\"n\">share of the change removed</th>"
				      "<th class=\"n\">interval</th><th class=\"n\">boots</th></tr></thead>\n"
				      "<tbody>\n", f);
			fputs("<tr><td>", f);
			put(f, jstr(v, "text"), TEXT_MAX_CHARS);
			fputs("</td><td>", f);
			put(f, name, NAME_MAX_CHARS);
			fputs("</td><td class=\"n\">", f);
			share(f, json_object_get(b, "removed"));
			fputs("</td><td class=\"n\">", f);
			share(f, json_object_get(b, "low"));
			fputs(" .. ", f);
			share(f, json_object_get(b, "high"));
			if (json_is_number(json_object_get(b, "level")))
				fprintf(f, " (%.0f%%)", 100 * json_number_value(json_object_get(b, "level")));
			fprintf(f, "</td><td class=\"n\">%lld</td></tr>\n",
				(long long)json_integer_value(json_object_get(b, "boots")));
		}
	}
	if (rows)
		fputs("</tbody></table>\n<p class=\"legend\">Each difference taken back in boots of "
		      "its own, interleaved with A and B: the share of a benchmark's change that "
		      "taking it back removes (100%: all of it), with the interval and level "
		      "<code>pmbench ab</code> recorded.</p>\n", f);
}

static void experiment_section(FILE *f, const struct pm_result *const *r)
{
	const json_t *e = experiment(r), *d, *pairs, *secs;
	size_t nd;

	if (!e)
		return;
	d = json_object_get(e, "differences");
	nd = json_array_size(d);
	pairs = json_object_get(e, "pairs");
	secs = json_object_get(e, "seconds");
	fprintf(f, "<h3 id=\"experiment\">The experiment</h3>\n<p><code>pmbench ab</code> ran both "
		"sides alike but for %s", nd == 1 ? "one difference" : "these differences");
	if (json_is_integer(pairs))
		fprintf(f, ", in %lld pairs", (long long)json_integer_value(pairs));
	if (jstr(e, "pairing")) {
		fputs(" (", f);
		put(f, jstr(e, "pairing"), NAME_MAX_CHARS);
		fputc(')', f);
	}
	if (json_is_number(secs))
		fprintf(f, " over %.0f s", json_number_value(secs));
	fputs(":</p>\n", f);
	differences_table(f, d);
	if (nd > 1)
		confirm_table(f, json_object_get(e, "confirm"));
}

/* ---- what differs between the sides ---- */

static void fp_row(FILE *f, const struct pm_fp_diff *d)
{
	fputs("<tr><td><code>", f);
	put(f, d->key, NAME_MAX_CHARS);
	fputs("</code></td><td>", f);
	put(f, d->old, TEXT_MAX_CHARS);
	fputs("</td><td>", f);
	put(f, d->new, TEXT_MAX_CHARS);
	fputs("</td></tr>\n", f);
}

static void fingerprint(FILE *f, const struct pm_explanation *x)
{
	size_t i, cfg = 0;

	if (!x->ndiffs)
		return;
	fputs("<h3 id=\"differences\">What differs between the sides</h3>\n<p class=\"small\">"
	      "The fingerprints' differences: hypotheses, which the evidence above confirms or "
	      "rejects.</p>\n<table class=\"fingerprint\"><thead><tr><th>item</th><th>OLD</th>"
	      "<th>NEW</th></tr></thead>\n<tbody>\n", f);
	for (i = 0; i < x->ndiffs; i++) {
		if (pm_fp_diff_member(&x->diffs[i], PM_FP_KERNEL_CONFIG) && cfg++ >= MAX_CONFIG_ROWS)
			continue;
		fp_row(f, &x->diffs[i]);
	}
	fputs("</tbody></table>\n", f);
	if (cfg > MAX_CONFIG_ROWS)
		fprintf(f, "<p class=\"small\">and %zu more kernel config options differ.</p>\n",
			cfg - MAX_CONFIG_ROWS);
}

/* ---- the whole part ---- */

static void one_side_only(FILE *f, char *const *v, size_t n, const char *side)
{
	size_t i;

	if (!n)
		return;
	fprintf(f, "<p class=\"small\">Only in %s: ", side);
	for (i = 0; i < n; i++) {
		fputs(i ? ", " : "", f);
		link(f, "b-", v[i]);
	}
	fputs(".</p>\n", f);
}

static void notes(FILE *f, const struct pm_explanation *x)
{
	size_t i;

	for (i = 0; i < x->old->nwarnings; i++) {
		fputs("<p class=\"small\">OLD: ", f);
		put(f, x->old->warnings[i], LINE_MAX_CHARS);
		fputs("</p>\n", f);
	}
	for (i = 0; i < x->new->nwarnings; i++) {
		fputs("<p class=\"small\">NEW: ", f);
		put(f, x->new->warnings[i], LINE_MAX_CHARS);
		fputs("</p>\n", f);
	}
	if (x->suite_held)
		fprintf(f, "<p>The machine moved the run: %zu of the %zu benchmarks ran %s (median "
			"move %+.1f%%) and the fingerprints are identical, so the machine's state "
			"changed, not the code; nothing that moved with it is called a change.</p>\n",
			x->suite_moved, x->suite_n, x->suite_dir > 0 ? "slower" : "faster",
			100 * (x->suite_ratio - 1));
}

void pm_page_findings(FILE *f, const struct pm_result *const *r, const char *const *names,
		      const struct pm_explanation *x)
{
	size_t i, changed = 0;
	int pass;

	fputs("<h2 id=\"findings\">What changed and why</h2>\n<p class=\"small\">What "
	      "<code>pmbench explain</code> finds comparing <b>", f);
	put(f, names[0], NAME_MAX_CHARS);
	fputs("</b> (OLD) with <b>", f);
	put(f, names[1], NAME_MAX_CHARS);
	fputs("</b> (NEW).</p>\n", f);
	notes(f, x);
	experiment_section(f, r);
	/* regressions first, then improvements */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < x->ncmp; i++)
			if (x->cmp[i].verdict == (pass ? PM_IMPROVEMENT : PM_REGRESSION)) {
				finding(f, r, &x->cmp[i]);
				changed++;
			}
	if (!changed && x->ncmp)
		fprintf(f, "<p>No benchmark changed beyond the noise floor (±%.0f%%).</p>\n",
			100 * x->opts.noise_floor);
	if (!x->ncmp)
		fputs("<p>No benchmark is in both results: nothing to compare.</p>\n", f);
	undecided(f, r, x);
	fingerprint(f, x);
	one_side_only(f, x->only_old, x->nonly_old, "OLD");
	one_side_only(f, x->only_new, x->nonly_new, "NEW");
	for (i = 0; i < x->nunavailable; i++) {
		fputs("<p class=\"small\">Evidence not available: ", f);
		put(f, x->unavailable[i], LINE_MAX_CHARS);
		fputs(".</p>\n", f);
	}
}
