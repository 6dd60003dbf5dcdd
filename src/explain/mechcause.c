/*
 * After the rules: the mechanism whose time moved as a cause (or folded
 * under the rule's cause that names it), with the kernel time and
 * hotspots that moved with it, and a command that can confirm it here
 * (ab --local with the side's wrapper, or ab with the installed images).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "explain/stages.h"
#include "explain/mechmap.h"

static bool same_direction(const struct pm_bench_cmp *c, double v)
{
	return v != 0 && (v > 0) == (c->delta_ns > 0);
}

/* The mechanism that carries the change: the largest move its way. */
static const struct pm_mech_delta *carrier(const struct pm_bench_cmp *c, double *share)
{
	size_t i;

	/* code a difference switched on (or off), decided by its samples:
	 * the path into it (system call entry) grows with it, and is not
	 * the cause */
	for (i = 0; i < c->nmechs; i++) {
		const struct pm_mech_delta *d = &c->mechs[i];
		double v = d->new_ns - d->old_ns;

		if ((d->started || d->stopped) && d->alone_p < PM_ALONE_P && d->link >= 2 &&
		    same_direction(c, v) && v / c->delta_ns >= 0.15) {
			*share = fmin(v / c->delta_ns, 1);
			return d;
		}
	}
	for (i = 0; i < c->nmechs; i++) {
		const struct pm_mech_delta *d = &c->mechs[i];
		double v = d->new_ns - d->old_ns;

		if (same_direction(c, v)) {
			*share = fmin(v / c->delta_ns, 1);
			return *share >= 0.3 ? d : NULL;
		}
	}
	return NULL;
}

static double mech_confidence(const struct pm_mech_delta *d, double share)
{
	double base = d->link >= 2 ? 0.65 : d->link == 1 ? 0.5 : 0.4;

	return base + 0.2 * fmin(share / 0.5, 1);
}

/* "NEW runs the function tracer, which OLD does not: 0 -> 5.0 us per op
 * (+5.0 us, 46% of null's change), entered at ftrace_trampoline." */
static char *mech_line(const struct pm_bench_cmp *c, const struct pm_mech_delta *d)
{
	char a[32], b[32], dd[32], sh[160], *head, *out;
	double v = d->new_ns - d->old_ns;

	pm_fmt_time(a, sizeof(a), d->old_ns);
	pm_fmt_time(b, sizeof(b), d->new_ns);
	pm_fmt_time(dd, sizeof(dd), fabs(v));
	head = d->started ? pm_xasprintf("NEW runs %s, which OLD does not", d->name) :
	       d->stopped ? pm_xasprintf("OLD runs %s, which NEW does not", d->name) :
	       pm_xasprintf("%s takes %s time in NEW", d->name, v > 0 ? "more" : "less");
	/* a sentence starts with a capital: "The slab allocator ..." */
	if (head[0] >= 'a' && head[0] <= 'z')
		head[0] = (char)(head[0] - 'a' + 'A');
	pm_share_words(sh, sizeof(sh), c, v, true);
	out = pm_xasprintf("%s: %s -> %s per op (%s%s, %s)%s%s.", head, a, b,
			   v < 0 ? "-" : "+", dd, sh,
			   d->entry ? ", entered at " : "", d->entry ? d->entry : "");
	free(head);
	return out;
}

/* "ftrace is parsed in kernel/trace/trace.c" */
static char *switch_where(const struct pm_switch *sw)
{
	if (!sw->nfiles)
		return NULL;
	return pm_xasprintf("%s is %s in %s%s", sw->key, sw->kind == PM_SW_CONFIG ? "built" :
			    "parsed", sw->files[0], sw->nfiles > 1 ? " and elsewhere" : "");
}

static void fold_where(struct pm_bench_cmp *c, struct pm_cause *into)
{
	size_t i = 0;

	while (i < c->ncauses) {
		struct pm_cause *k = &c->causes[i];

		if (k != into && (!strcmp(k->rule, "kernel-time") ||
				  !strcmp(k->rule, "kernel-hotspot"))) {
			size_t at = (size_t)(into - c->causes);

			pm_cause_evidence(into, "%s", k->sentence);
			pm_cause_remove(c, i);
			into = &c->causes[at > i ? at - 1 : at];
			continue;
		}
		i++;
	}
}

static const char *release_of(const struct pm_side *s)
{
	const json_t *r = json_object_get(json_object_get(s->nruns ? s->runs[0].sysinfo : NULL,
							  "kernel"), "release");

	return json_string_value(r);
}

/* The difference of fingerprint item key ("process.wrapper"), or NULL. */
static const struct pm_switch *fp_switch(const struct pm_explanation *x, const char *key)
{
	size_t i;

	for (i = 0; i < x->nswitches; i++)
		if (x->switches[i].kind == PM_SW_FP && !strncmp(x->switches[i].key, "fp:", 3) &&
		    !strcmp(x->switches[i].key + 3, key))
			return &x->switches[i];
	return NULL;
}

/*
 * One kernel on both sides, run differently: ab --local with NEW's
 * set-up, when the fingerprint says what it was (the wrapper pmbench ran
 * under, LD_PRELOAD).  NULL when it does not.
 */
static char *local_command(const struct pm_explanation *x, const char *name)
{
	const struct pm_switch *w = fp_switch(x, "process.wrapper");
	const struct pm_switch *p = fp_switch(x, "process.preload");
	char *wrap = NULL, *q, *out;

	if (w && w->new && strcmp(w->new, "none"))
		wrap = pm_xstrdup(w->new);
	else if (p && p->new && strcmp(p->new, "none"))
		wrap = pm_xasprintf("env LD_PRELOAD=%s", p->new);
	/* a set-up that left no command behind (a filter installed before
	 * an exec, a tracer attached): the experiment in words */
	if (!wrap && (fp_switch(x, "process.seccomp_filters") || fp_switch(x, "process.tracer")))
		return pm_xasprintf("pmbench ab --local --wrap-b COMMAND -- %s, COMMAND being what "
				    "ran NEW (it %s)", name, fp_switch(x, "process.tracer") ?
				    "attached a tracer" : "installed the seccomp filters");
	if (!wrap)
		return NULL;
	q = pm_sh_quote(wrap);
	free(wrap);
	wrap = pm_sh_quote(name);
	out = pm_xasprintf("pmbench ab --local --wrap-b %s -- %s", q, wrap);
	free(q);
	free(wrap);
	return out;
}

/*
 * The experiment that would prove (or rule out) switch sw as the cause
 * of benchmark name, one that can run here: on one kernel, ab --local
 * with NEW's set-up; across kernels, ab with the two images and the
 * argument on the side that has it, an image this machine does not have
 * named with the package that installs it.  NULL when nothing runnable
 * can be said.
 */
static char *experiment_command(const struct pm_explanation *x, const struct pm_switch *sw,
				const char *name)
{
	const char *ro = release_of(x->old), *rn = release_of(x->new);
	char *kb, *args, *out, *q, *missing = NULL;
	char img_a[512], img_b[512];

	if (!ro || !rn)
		return NULL;
	if (!strcmp(ro, rn) && !pm_fp_find(x, PM_FP_KERNEL_CMDLINE))
		return local_command(x, name);
	snprintf(img_a, sizeof(img_a), "/boot/vmlinuz-%s", ro);
	snprintf(img_b, sizeof(img_b), "/boot/vmlinuz-%s", rn);
	if (access(img_a, R_OK) || access(img_b, R_OK)) {
		bool a = access(img_a, R_OK) != 0, b = access(img_b, R_OK) != 0 && strcmp(ro, rn);

		missing = pm_xasprintf(" (not installed here: %s%s%s; on Debian apt-get install "
				       "%s%s%s%s)", a ? img_a : "", a && b ? " and " : "",
				       b ? img_b : "", a ? "linux-image-" : "", a ? ro : "",
				       b ? " linux-image-" : "", b ? rn : "");
	}
	args = pm_xstrdup("");
	kb = strcmp(ro, rn) ? pm_xasprintf(" --kernel-b %s", img_b) : pm_xstrdup("");
	if (sw && sw->kind == PM_SW_PARAM) {
		char *pa = sw->old ? (*sw->old ? pm_xasprintf("%s=%s", sw->key, sw->old) :
				      pm_xstrdup(sw->key)) : NULL;
		char *pb = sw->new ? (*sw->new ? pm_xasprintf("%s=%s", sw->key, sw->new) :
				      pm_xstrdup(sw->key)) : NULL;
		char *qa = pa ? pm_sh_quote(pa) : NULL, *qb = pb ? pm_sh_quote(pb) : NULL;

		free(args);
		args = pm_xasprintf("%s%s%s%s", qa ? " --append-a " : "", qa ? qa : "",
				    qb ? " --append-b " : "", qb ? qb : "");
		free(pa);
		free(pb);
		free(qa);
		free(qb);
	}
	q = pm_sh_quote(name);
	out = pm_xasprintf("pmbench ab --kernel %s%s%s -- %s%s", img_a, kb, args, q,
			   missing ? missing : "");
	free(q);
	free(kb);
	free(args);
	free(missing);
	return out;
}

void pm_mechanism_causes(struct pm_bench_cmp *c, const struct pm_explanation *x)
{
	double share = 0;
	const struct pm_mech_delta *d = carrier(c, &share);
	struct pm_cause *k = NULL;
	char *line;
	size_t i;

	if (!d)
		return;
	line = mech_line(c, d);
	for (i = 0; i < c->ncauses && !k; i++)
		if (pm_rule_names_mech(c->causes[i].rule, d->key))
			k = &c->causes[i];
	/* a file no section names, tied to no difference: kernel-time and
	 * the hotspot say as much */
	if (!k && !d->link && !pm_mechmap_find(pm_mechmap_get(NULL), d->key)) {
		free(line);
		return;
	}
	if (k) {
		/* the rule's mechanism is where the time went: it says so */
		k->confidence = fmin(fmax(k->confidence, mech_confidence(d, share)), 0.99);
		pm_cause_evidence(k, "%s", line);
	} else {
		char *s, *w = d->sw ? switch_where(d->sw) : NULL;

		if (d->sw)
			s = pm_xasprintf("%s It is %s by %s%s%s%s.", line,
					 d->started ? "switched on" : d->stopped ? "switched off" :
					 "set", d->sw->text, w ? " (" : "", w ? w : "", w ? ")" : "");
		else
			s = pm_xasprintf("%s No difference the fingerprint records is tied to "
					 "that code.", line);
		k = pm_cause_add(c, "mechanism", "kernel mechanism", mech_confidence(d, share), s);
		k->title_buf = pm_xstrdup(d->name);
		k->title = k->title_buf;
		free(s);
		free(w);
		if (d->file)
			pm_cause_evidence(k, "its code: %s", d->file);
	}
	free(line);
	free(k->mechanism);
	k->mechanism = pm_xstrdup(d->key);
	if (d->sw && !k->switched_by)
		k->switched_by = pm_xstrdup(d->sw->text);
	if (!pm_sides_one_experiment(x->old, x->new)) {
		char *cmd = experiment_command(x, d->sw, c->name);

		if (cmd)
			pm_cause_evidence(k, "the experiment that would prove it: %s", cmd);
		free(cmd);
	}
	fold_where(c, k);
}
