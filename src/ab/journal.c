/*
 * The experiment's journal, OUTPUT/ab-state.json: what the sides are and
 * which runs of OUTPUT/boots/ make the pairs kept so far, rewritten
 * (atomically) after every kept pair.  An interrupted experiment
 * continues from it when ab is given the same command and -o OUTPUT;
 * another command is told how its sides differ from the journal's.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab/engine.h"
#include "results/result.h"

#define JOURNAL "ab-state.json"

static json_t *strv_json(char *const *v)
{
	json_t *a = json_array();

	for (; v && *v; v++)
		json_array_append_new(a, json_string(*v));
	return a;
}

/* What each run of a side is: two journals with equal identities are
 * one experiment.  The budget, seed and report options are not in it. */
static json_t *identity(const struct pm_ab_exp *x)
{
	const struct pm_ab_opts *o = &x->o;
	json_t *id = json_pack("{s:b,s:s?,s:i,s:i,s:i,s:f,s:s?,s:b,s:b,s:o,s:o,s:b,s:b}",
			       "local", o->local, "cpu", o->local ? NULL : o->cpu,
			       "memory_mb", (int)o->memory_mb, "vcpus", (int)o->vcpus,
			       "rounds_per_boot", (int)o->run_rounds, "max_time", o->max_time_s,
			       "events", o->events, "no_profile", o->no_profile,
			       "no_counters", o->no_counters, "run_options",
			       strv_json(o->run_options), "benchmarks", strv_json(o->benches),
			       "no_emulated_counts", o->no_emulated_counts,
			       "emulated_icache", o->emulated_icache);
	size_t i;

	json_object_set_new(id, "emulated_clock", json_boolean(o->emulated_clock));
	for (i = 0; i < 2 && i < x->narms; i++) {
		const struct pm_ab_arm *a = &x->arms[i];

		json_object_set_new(id, i ? "B" : "A",
				    json_pack("{s:s?,s:s?,s:s?,s:s?}", "kernel", a->image ?
					      a->image : a->kernel, "append", a->append,
					      "setup", a->setup, "wrap", a->wrap));
	}
	return id;
}

static char *journal_path(const struct pm_ab_exp *x)
{
	return pm_xasprintf("%s/%s", x->out, JOURNAL);
}

static int dump(FILE *f, void *arg)
{
	return json_dumpf(arg, f, JSON_INDENT(1)) || fputc('\n', f) == EOF ? -EIO : 0;
}

static void write_journal(struct pm_ab_exp *x, bool finished)
{
	char *path = journal_path(x);
	struct pm_err e;
	json_t *j;

	if (!x->journal)
		x->journal = json_pack("{s:i,s:o,s:[]}", "version", 1, "identity", identity(x),
				       "pairs");
	j = x->journal;
	json_object_set_new(j, "finished", json_boolean(finished));
	if (pm_write_atomic(path, dump, j, &e) && x->warn)
		x->warn("%s (an interrupted experiment cannot continue from it)", e.msg);
	free(path);
}

void pm_ab_journal_start(struct pm_ab_exp *x)
{
	write_journal(x, false);
}

void pm_ab_journal_pair(struct pm_ab_exp *x, const char *tag_a, const char *tag_b)
{
	json_array_append_new(json_object_get(x->journal, "pairs"),
			      json_pack("[s,s]", tag_a, tag_b));
	write_journal(x, false);
}

void pm_ab_journal_restart(struct pm_ab_exp *x)
{
	json_array_clear(json_object_get(x->journal, "pairs"));
	write_journal(x, false);
}

void pm_ab_journal_finish(struct pm_ab_exp *x)
{
	write_journal(x, true);
}

bool pm_ab_journal_exists(const char *dir)
{
	char *p = pm_xasprintf("%s/%s", dir, JOURNAL);
	bool ok = access(p, F_OK) == 0;

	free(p);
	return ok;
}

/* The first key of want whose value differs in have, as "B.append 'x'
 * (this command: 'y')". */
static void first_difference(json_t *have, json_t *want, const char *prefix, char *buf,
			     size_t len)
{
	const char *k;
	json_t *v;

	json_object_foreach(want, k, v) {
		json_t *h = json_object_get(have, k);
		char *p = pm_xasprintf("%s%s", prefix, k);

		if (json_is_object(v) && json_is_object(h)) {
			char *sub = pm_xasprintf("%s.", p);

			first_difference(h, v, sub, buf, len);
			free(sub);
		} else if (!json_equal(h, v)) {
			char *hs = h ? json_dumps(h, JSON_ENCODE_ANY) : pm_xstrdup("none");
			char *ws = json_dumps(v, JSON_ENCODE_ANY);

			snprintf(buf, len, "%s is %s there, %s in this command", p, hs, ws);
			free(hs);
			free(ws);
		}
		free(p);
		if (*buf)
			break;
	}
}

/* The highest number N of a file TAG<N><ext> in dir, 0 without one. */
static unsigned highest_run(const char *dir, const char *tag, const char *ext)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	size_t tl = strlen(tag), el = strlen(ext);
	unsigned best = 0;

	while (d && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		char *end;
		unsigned long v;

		if (n <= tl + el || strncmp(de->d_name, tag, tl) || strcmp(de->d_name + n - el, ext) ||
		    de->d_name[tl] < '0' || de->d_name[tl] > '9')
			continue;
		v = strtoul(de->d_name + tl, &end, 10);
		if (end == de->d_name + n - el && v > best && v < 1000000)
			best = (unsigned)v;
	}
	if (d)
		closedir(d);
	return best;
}

static int load_run(struct pm_ab_exp *x, struct pm_ab_arm *a, const char *tag, struct pm_err *e)
{
	char *path = pm_xasprintf("%s/boots/%s.json", x->out, tag);
	struct pm_result r;
	int err = pm_result_load(&r, path, e);

	free(path);
	if (!err)
		pm_ab_add_run(a, &r);
	return err;
}

int pm_ab_journal_resume(struct pm_ab_exp *x, struct pm_err *e)
{
	char *path = journal_path(x), diff[512] = "";
	json_error_t je;
	json_t *j = json_load_file(path, 0, &je), *want = identity(x), *pairs, *p;
	size_t i, k;
	int err = 0;

	if (!j || json_integer_value(json_object_get(j, "version")) != 1 ||
	    !json_is_array(json_object_get(j, "pairs"))) {
		err = pm_err_set(e, -EINVAL, "%s: %s (give a new or empty directory)", path,
				 j ? "not an ab journal of this version" : je.text);
		goto out;
	}
	if (json_is_true(json_object_get(j, "finished"))) {
		err = pm_err_set(e, -EEXIST, "-o %s: holds a finished experiment (its report: "
				 "%s/report.txt); give a new or empty directory", x->out, x->out);
		goto out;
	}
	first_difference(json_object_get(j, "identity"), want, "", diff, sizeof(diff));
	if (*diff) {
		err = pm_err_set(e, -EEXIST, "-o %s: holds an interrupted experiment of another "
				 "command (%s): the same command continues it; give a new or "
				 "empty directory for this one", x->out, diff);
		goto out;
	}
	pairs = json_object_get(j, "pairs");
	json_array_foreach(pairs, i, p) {
		const char *ta = json_string_value(json_array_get(p, 0));
		const char *tb = json_string_value(json_array_get(p, 1));

		if (!ta || !tb) {
			err = pm_err_set(e, -EINVAL, "%s: pair %zu is not two run names", path, i + 1);
			goto out;
		}
		if ((err = load_run(x, &x->arms[0], ta, e)) || (err = load_run(x, &x->arms[1], tb, e))) {
			pm_err_set(e, err, "%s (pair %zu of %s)", e->msg, i + 1, path);
			goto out;
		}
		x->pairs++;
		x->runs += 2;
	}
	/* the runs go on numbering after every file an earlier run left */
	for (k = 0; k < 2; k++) {
		struct pm_ab_arm *a = &x->arms[k];
		char *boots = pm_xasprintf("%s/boots", x->out);
		unsigned last = highest_run(boots, a->tag, ".json");

		if (x->console_dir && highest_run(x->console_dir, a->tag, ".log") > last)
			last = highest_run(x->console_dir, a->tag, ".log");
		a->earlier = last > a->nruns ? last - (unsigned)a->nruns : 0;
		free(boots);
	}
	x->journal = json_incref(j);
	x->resumed = x->pairs;
out:
	json_decref(j);
	json_decref(want);
	free(path);
	return err;
}
