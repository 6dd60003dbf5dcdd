/*
 * Duet or in turn: A and B at once on two CPUs, or one after the other.
 * --duet says, else this host's own A/A pairs of a short pmbench run,
 * measured both ways once a day and kept beside the result history (on
 * some VMs two busy vCPUs slow each other down, and duet is worse).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab/engine.h"
#include "results/history.h"
#include "results/result.h"


#define DUET_PAIRS 6
#define DUET_PROBE_VALID_S (24 * 3600.0)

/* log(B/A) of run pairs of null and fork: their spread (sd), median of the two. */
static double pair_spread(const struct pm_ab_arm *a, const struct pm_ab_arm *b)
{
	static const char *const names[] = { "null", "fork" };
	double sd[2];
	size_t k, i;

	for (k = 0; k < 2; k++) {
		double d[DUET_PAIRS], m = 0, ss = 0;
		size_t n = 0;

		for (i = 0; i < a->nruns && i < b->nruns && n < DUET_PAIRS; i++) {
			double fa = pm_ab_figure(a, i, names[k]), fb = pm_ab_figure(b, i, names[k]);

			if (fa > 0 && fb > 0)
				d[n++] = log(fb / fa);
		}
		for (i = 0; i < n; i++)
			m += d[i] / (double)n;
		for (i = 0; i < n; i++)
			ss += (d[i] - m) * (d[i] - m);
		sd[k] = n > 2 ? sqrt(ss / (double)(n - 1)) : NAN;
	}
	return isnan(sd[0]) ? sd[1] : isnan(sd[1]) ? sd[0] : (sd[0] + sd[1]) / 2;
}

static bool keep_probe(const struct pm_ab_job *j, struct pm_result *r)
{
	json_error_t je;
	json_t *root = json_loadb(j->image, j->image_len, 0, &je);
	struct pm_err e;
	bool ok = root && !pm_result_from_json(r, root, j->tag, &e);

	json_decref(root);
	return ok;
}

/* DUET_PAIRS A/A pairs of a short pmbench run, at once or in turn. */
static double probe_pairs(struct pm_ab_exp *x, bool together)
{
	static char *benches[] = { "null", "fork", NULL };
	struct pm_ab_opts po = x->o;
	struct pm_ab_env env = x->env;
	struct pm_ab_arm arms[2] = {
		{ .name = "A", .label = "A", .tag = "probe-a" },
		{ .name = "A'", .label = "A", .tag = "probe-b" },
	};
	char **argv = pm_xcalloc(16, sizeof(*argv)), *exe = pm_ab_self_exe();
	double spread = NAN;
	size_t k, i;

	argv[0] = exe;
	argv[1] = "run";
	argv[2] = "-q";
	argv[3] = "--rounds";
	argv[4] = "1";
	argv[5] = "--max-time";
	argv[6] = "0.2";
	argv[7] = "--no-profile";
	argv[8] = "--no-counters";
	po.local = true;
	po.timeout_s = 120;
	x->o.quiet = true;
	env.o = &po;
	env.qemu = NULL;
	env.local_argv = argv;
	env.benches = benches;
	for (k = 0; k < DUET_PAIRS && !(x->stop && *x->stop); k++) {
		struct pm_ab_job jobs[2] = { { 0 } };

		for (i = 0; i < 2; i++) {
			jobs[i].arm = &arms[i];
			snprintf(jobs[i].tag, sizeof(jobs[i].tag), "%s%zu", arms[i].tag, k);
			jobs[i].host_cpu = together ? (int)((i + k) % 2) : 0;
			jobs[i].running = &x->running[i];
		}
		if (pm_ab_run_jobs(x, &env, jobs, 2, together) == PM_BLOCK_KEPT &&
		    jobs[0].end == PM_JOB_KEPT && jobs[1].end == PM_JOB_KEPT) {
			struct pm_result r[2];

			if (keep_probe(&jobs[0], &r[0])) {
				if (keep_probe(&jobs[1], &r[1])) {
					pm_ab_add_run(&arms[0], &r[0]);
					pm_ab_add_run(&arms[1], &r[1]);
				} else {
					pm_result_free(&r[0]);
				}
			}
		}
		for (i = 0; i < 2; i++)
			pm_ab_job_free(&jobs[i]);
	}
	if (arms[0].nruns == arms[1].nruns)
		spread = pair_spread(&arms[0], &arms[1]);
	for (i = 0; i < 2; i++) {
		for (k = 0; k < arms[i].nruns; k++)
			pm_result_free(&arms[i].runs[k]);
		free(arms[i].runs);
	}
	free(argv);
	free(exe);
	x->o.quiet = po.quiet;
	return spread;
}

/* The host's last probe, when it is recent and of this host. */
static bool cached_probe(const char *path, double *duet, double *turn, double *age)
{
	json_error_t je;
	json_t *j = json_load_file(path, 0, &je);
	char host[256] = "";
	bool ok;

	gethostname(host, sizeof(host) - 1);
	*age = pm_ab_now_wall() - json_number_value(json_object_get(j, "time"));
	const char *h = json_string_value(json_object_get(j, "host"));

	ok = j && h && !strcmp(h, host) &&
	     json_integer_value(json_object_get(j, "cpus")) == sysconf(_SC_NPROCESSORS_ONLN) &&
	     *age >= 0 && *age < DUET_PROBE_VALID_S;
	*duet = json_number_value(json_object_get(j, "duet"));
	*turn = json_number_value(json_object_get(j, "turn"));
	json_decref(j);
	return ok && *duet > 0 && *turn > 0;
}

static void save_probe(const char *path, double duet, double turn)
{
	char host[256] = "";
	json_t *j;

	gethostname(host, sizeof(host) - 1);
	j = json_pack("{s:s,s:I,s:f,s:f,s:f,s:i}", "host", host,
		      "cpus", (json_int_t)sysconf(_SC_NPROCESSORS_ONLN), "time", pm_ab_now_wall(),
		      "duet", duet, "turn", turn, "pairs", DUET_PAIRS);
	json_dump_file(j, path, JSON_INDENT(1));
	json_decref(j);
}

/*
 * Duet (A and B at once on two CPUs) or in turn: --duet, else what this
 * host's own A/A pairs show, measured once a day and kept in the result
 * history (on some VMs two busy vCPUs slow each other down, and duet is
 * worse: pmbench-ab(1)).
 */
void pm_ab_choose_pairing(struct pm_ab_exp *x)
{
	double duet = NAN, turn = NAN, age = 0;
	char *dir = NULL, *path = NULL;
	struct pm_err e;
	bool cached = false;

	if (x->o.duet != PM_DUET_AUTO) {
		x->duet = x->o.duet == PM_DUET_ON;
		snprintf(x->duet_why, sizeof(x->duet_why), "--duet %s", x->duet ? "on" : "off");
		return;
	}
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2 || (x->o.local && (x->arms[0].setup ||
								   x->arms[1].setup))) {
		snprintf(x->duet_why, sizeof(x->duet_why), "%s",
			 sysconf(_SC_NPROCESSORS_ONLN) < 2 ? "one CPU" :
			 "set-up commands change the host for both sides");
		return;
	}
	/* beside the result history, not in it: it is no result */
	if (!pm_history_dir(&dir, &e)) {
		char *slash = strrchr(dir, '/');

		if (slash)
			*slash = '\0';
		path = pm_xasprintf("%s/duet-probe.json", dir);
		cached = cached_probe(path, &duet, &turn, &age);
	}
	if (!cached) {
		if (!x->o.quiet)
			fprintf(stderr, "pmbench ab: measuring how A/A pairs spread on this host, "
				"at once and in turn (%d pairs each, once a day)\n", DUET_PAIRS);
		duet = probe_pairs(x, true);
		turn = probe_pairs(x, false);
		if (path && duet > 0 && turn > 0 && pm_mkdir_p(dir, 0755) == 0)
			save_probe(path, duet, turn);
	}
	x->duet = duet > 0 && turn > 0 && duet < turn;
	if (!(duet > 0 && turn > 0))
		snprintf(x->duet_why, sizeof(x->duet_why), "in turn: the host's A/A pairs "
			 "could not be measured");
	else
		snprintf(x->duet_why, sizeof(x->duet_why), "%s: on this host A/A pairs run at "
			 "the same time spread %.1f%%, taken in turn %.1f%% (%d pairs each of "
			 "null and fork, %s)", x->duet ? "duet" : "in turn", 100 * duet, 100 * turn,
			 DUET_PAIRS, cached ? "measured earlier today" : "measured now");
	free(dir);
	free(path);
}
