/*
 * A benchmark's units on a side: each run's value (the geometric mean of
 * the faster half of its rounds' medians), each round's median, every
 * trial, and the host's state they were taken in (the machine-speed
 * probe, the share waited for a CPU, other load); runs left out for a
 * busy host; runs taken in turn as pairs.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "explain/stages.h"

/* "2026-12-04T12:09:58Z" in seconds since the epoch, NAN when not that. */
static double iso_seconds(const char *s)
{
	struct tm tm = { 0 };
	char z = 0;

	if (!s || sscanf(s, "%4d-%2d-%2dT%2d:%2d:%2d%c", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			 &tm.tm_hour, &tm.tm_min, &tm.tm_sec, &z) != 7 || z != 'Z')
		return NAN;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	return (double)timegm(&tm);
}

/* When run `run` of a result file was taken: its entry in a merged
 * file's runs, else the file's own time. */
static double run_seconds(const struct pm_result *r, unsigned run)
{
	const json_t *e = json_array_get(r->runs, run);

	if (json_is_object(e))
		return iso_seconds(json_string_value(json_object_get(e, "created")));
	return iso_seconds(r->created);
}

/* Indexes ordered by the values t[index] (qsort_r). */
static int cmp_index_by(const void *x, const void *y, void *t)
{
	size_t i = *(const size_t *)x, j = *(const size_t *)y;
	double a = ((const double *)t)[i], b = ((const double *)t)[j];

	/* runs of one second (created has seconds) in the order recorded:
	 * a merged file lists them as they were taken */
	return a != b ? (a > b) - (a < b) : (i > j) - (i < j);
}

/* The rounds of one run (rounds[idx[0..n)]) into d. */
static void side_add_run(struct pm_units *d, const struct pm_bench_result *b,
			 const struct pm_round *rounds, const size_t *at, const double *med,
			 const size_t *idx, size_t n, double t)
{
	struct pm_vec r = { 0 }, probe = { 0 };
	double all, wsum = 0;
	size_t i, k, wn = 0;

	for (i = 0; i < n; i++) {
		const struct pm_round *rd = &rounds[idx[i]];

		for (k = at[idx[i]]; k < at[idx[i]] + rd->ntrials; k++)
			if (b->trials[k] > 0 && isfinite(b->trials[k]))
				pm_vec_push(&d->trials, b->trials[k]);
		pm_vec_push(&d->rounds, med[idx[i]]);
		pm_vec_push(&d->round_ref, rd->reference_ns > 0 ? rd->reference_ns : NAN);
		pm_vec_push(&d->round_waited, rd->waited >= 0 ? rd->waited : NAN);
		if (rd->waited >= 0) {
			wsum += rd->waited;
			wn++;
		}
		pm_vec_push(&r, med[idx[i]]);
		if (!isnan(rd->reference_ns)) {
			pm_vec_push(&d->refs, rd->reference_ns);
			pm_vec_push(&probe, rd->reference_ns);
		}
		if (!isnan(rd->busy))
			pm_vec_push(&d->busy, rd->busy);
		if (!isnan(rd->waited))
			pm_vec_push(&d->waited, rd->waited);
		if (!isnan(rd->others))
			pm_vec_push(&d->others, rd->others);
	}
	/*
	 * One value per run: the geometric mean of the faster half of its
	 * rounds.  A busy minute of the host only adds time, to a round or
	 * two: in 40 back-to-back quick runs here, runs so valued differed
	 * by half as much as by the mean of all rounds (stat ±0.9% against
	 * ±2.0% calm, ±1.4% against ±4.1% busy).  Their median would flip
	 * between modes when rounds are bimodal, as they are on a loaded
	 * machine (3.5 and 6.1 us for null).
	 */
	pm_vec_push(&d->runs, pm_geomean_faster_half(r.v, r.n));
	pm_vec_push(&d->run_t, t);
	pm_vec_push(&d->run_ref, probe.n ? pm_median(probe.v, probe.n) : NAN);
	pm_vec_push(&d->run_waited, wn ? wsum / (double)wn : NAN);
	all = log(pm_geomean(r.v, r.n));
	for (i = 0; i < r.n; i++)
		d->within_ss += (log(r.v[i]) - all) * (log(r.v[i]) - all);
	d->within_df += (double)r.n - 1;
	free(r.v);
	free(probe.v);
}

/*
 * Collect a side.  skip (may be NULL): runs to leave out, by their
 * order here (the order of d->runs when collected without skip).
 */
void pm_units_collect_skip(const struct pm_side *s, const char *name, const bool *skip,
			      struct pm_units *d)
{
	size_t i, k, ord = 0;

	memset(d, 0, sizeof(*d));
	d->converged = true;
	for (i = 0; i < s->nruns; i++) {
		const struct pm_bench_result *b = pm_result_find(&s->runs[i], name);
		const struct pm_round *rounds;
		struct pm_round one;
		size_t nr, *at, *idx;
		double *med;
		bool *done;

		if (!b || b->status != PM_BENCH_OK || !b->ntrials)
			continue;
		rounds = b->rounds;
		nr = b->nrounds;
		if (!nr) {
			/* built in memory (an import) rather than read: one round */
			one = (struct pm_round){ .ntrials = b->ntrials, .reference_ns = b->reference_ns,
						 .busy = b->busy, .waited = b->waited,
						 .others = b->others,
						 .started_s = NAN };
			rounds = &one;
			nr = 1;
		}
		if (!d->first)
			d->first = b;
		d->converged = d->converged && b->converged;
		med = pm_xcalloc(nr, sizeof(*med));
		done = pm_xcalloc(nr, sizeof(*done));
		at = pm_xcalloc(nr, sizeof(*at));
		idx = pm_xcalloc(nr, sizeof(*idx));
		for (k = 0; k < nr; k++) {
			at[k] = k ? at[k - 1] + rounds[k - 1].ntrials : 0;
			med[k] = pm_median(b->trials + at[k], rounds[k].ntrials);
			/* a round with no time per op (an overhead larger than the
			 * trials, no trials): no value on a log scale, left out */
			done[k] = !(med[k] > 0) || !isfinite(med[k]);
		}
		/* the rounds of each run, runs in the order they first appear */
		for (k = 0; k < nr; k++) {
			size_t m, n = 0;

			if (done[k])
				continue;
			for (m = k; m < nr; m++)
				if (!done[m] && rounds[m].run == rounds[k].run) {
					done[m] = true;
					idx[n++] = m;
				}
			if (skip && skip[ord++]) {
				d->left_out++;
				continue;
			}
			side_add_run(d, b, rounds, at, med, idx, n,
				     run_seconds(&s->runs[i], rounds[k].run));
		}
		free(med);
		free(done);
		free(at);
		free(idx);
	}
}

void pm_units_collect(const struct pm_side *s, const char *name, struct pm_units *d)
{
	pm_units_collect_skip(s, name, NULL, d);
}

void pm_units_free(struct pm_units *d)
{
	free(d->run_t.v);
	free(d->run_ref.v);
	free(d->round_ref.v);
	free(d->round_waited.v);
	free(d->run_waited.v);
	free(d->runs.v);
	free(d->rounds.v);
	free(d->trials.v);
	free(d->refs.v);
	free(d->busy.v);
	free(d->waited.v);
	free(d->others.v);
}

const struct pm_vec *pm_units_of(const struct pm_units *d, enum pm_unit u)
{
	switch (u) {
	case PM_UNIT_RUNS:
		return &d->runs;
	case PM_UNIT_ROUNDS:
		return &d->rounds;
	case PM_UNIT_FIGURES:
		/* a single figure against the other side's rounds when it has them */
		return d->rounds.n >= 2 ? &d->rounds : &d->trials;
	default:
		return &d->trials;
	}
}

/* The indexes of d's runs, in the order they were taken. */
size_t *pm_units_by_time(const struct pm_units *d)
{
	size_t *ix = pm_xcalloc(d->runs.n + 1, sizeof(*ix)), i;

	for (i = 0; i < d->runs.n; i++)
		ix[i] = i;
	qsort_r(ix, d->runs.n, sizeof(*ix), cmp_index_by, d->run_t.v);
	return ix;
}

/*
 * Runs taken in turn (A, B, A, B ..., as pmbench ab boots them, or by
 * hand): d[i] = log(B_i / A_i) for the i-th run of each side in time, when
 * both sides have n runs and no pair overlaps the next in time (times
 * have whole seconds: a tie is not an overlap).  A drift
 * of the host then hits both runs of a pair alike and drops out of d.
 */
bool pm_units_in_turn(const struct pm_units *a, const struct pm_units *b, double **d,
			  double **x)
{
	size_t n = a->runs.n, i, *ia, *ib;
	bool ok = n == b->runs.n && a->run_t.n == n && b->run_t.n == n;

	*d = NULL;
	if (x)
		*x = NULL;
	for (i = 0; ok && i < n; i++)
		ok = isfinite(a->run_t.v[i]) && isfinite(b->run_t.v[i]);
	if (!ok)
		return false;
	ia = pm_units_by_time(a);
	ib = pm_units_by_time(b);
	/* <=: runs of a second each (ab --local) share their second */
	for (i = 0; ok && i + 1 < n; i++)
		ok = fmax(a->run_t.v[ia[i]], b->run_t.v[ib[i]]) <=
		     fmin(a->run_t.v[ia[i + 1]], b->run_t.v[ib[i + 1]]);
	if (ok) {
		*d = pm_xcalloc(n, sizeof(**d));
		for (i = 0; i < n; i++)
			(*d)[i] = log(b->runs.v[ib[i]]) - log(a->runs.v[ia[i]]);
		/* and the log ratio of each pair's probes (NAN unknown) */
		if (x) {
			*x = pm_xcalloc(n, sizeof(**x));
			for (i = 0; i < n; i++)
				(*x)[i] = log(b->run_ref.v[ib[i]]) - log(a->run_ref.v[ia[i]]);
		}
	}
	free(ia);
	free(ib);
	return ok;
}

/* The fastest probe of a side's runs, INFINITY when none has one. */
static double fastest_probe(const struct pm_units *d)
{
	double lo = INFINITY;
	size_t i;

	for (i = 0; i < d->run_ref.n; i++)
		if (d->run_ref.v[i] > 0 && d->run_ref.v[i] < lo)
			lo = d->run_ref.v[i];
	return lo;
}

/*
 * Runs of d whose probe marks them busy, against lo, the fastest probe
 * of both sides (one bar for both: a side busy all along is not compared
 * in its own slow state with the other side's fast one).  None when d
 * has fewer than 3 runs, or, with cap (runs not taken in turn), more
 * than half are busy: then the fastest runs are the odd ones.  Runs
 * taken in turn are capped by pairs (pm_units_leave_out_busy).
 */
static size_t busy_runs(const struct pm_units *d, double lo, bool cap, bool *busy)
{
	size_t i, n = 0;

	for (i = 0; i < d->runs.n; i++) {
		busy[i] = d->runs.n >= 3 && isfinite(lo) && i < d->run_ref.n &&
			  d->run_ref.v[i] > (1 + BUSY_PROBE) * lo;
		n += busy[i];
	}
	if (cap && 2 * n > d->runs.n) {
		memset(busy, 0, d->runs.n * sizeof(*busy));
		n = 0;
	}
	return n;
}

/*
 * Leave out the runs taken while the host was busy (BUSY_PROBE), and
 * collect the sides again without them.  Runs taken in turn go by pairs,
 * both runs of a pair, so that the rest are still pairs; at most half of
 * the pairs go.  c->left_out_*: how many runs of each side went.
 */
void pm_units_leave_out_busy(const struct pm_side *old, const struct pm_side *new,
				const char *name, struct pm_units *a, struct pm_units *b,
				struct pm_bench_cmp *c)
{
	bool *ba = pm_xcalloc(a->runs.n + 1, sizeof(*ba));
	bool *bb = pm_xcalloc(b->runs.n + 1, sizeof(*bb));
	double lo = fmin(fastest_probe(a), fastest_probe(b)), *d;
	bool paired = pm_units_in_turn(a, b, &d, NULL);
	size_t na = busy_runs(a, lo, !paired, ba), nb = busy_runs(b, lo, !paired, bb), i;

	free(d);
	if ((na || nb) && paired) {
		size_t n = a->runs.n, *ia = pm_units_by_time(a), *ib = pm_units_by_time(b), pairs = 0;

		for (i = 0; i < n; i++)
			if (ba[ia[i]] || bb[ib[i]]) {
				ba[ia[i]] = bb[ib[i]] = true;
				pairs++;
			}
		na = nb = 2 * pairs > n ? 0 : pairs;
		if (!na) {
			memset(ba, 0, n * sizeof(*ba));
			memset(bb, 0, n * sizeof(*bb));
		}
		c->left_out_paired = na > 0;
		free(ia);
		free(ib);
	}
	if (na || nb) {
		pm_units_free(a);
		pm_units_free(b);
		pm_units_collect_skip(old, name, ba, a);
		pm_units_collect_skip(new, name, bb, b);
	}
	c->left_out_old = a->left_out;
	c->left_out_new = b->left_out;
	free(ba);
	free(bb);
}

/* The probes of all runs of both sides spread by more than BUSY_PROBE
 * (all known): the host ran at more than one speed.  *range: slowest
 * over fastest. */
bool pm_units_probe_moved(const struct pm_units *a, const struct pm_units *b, double *range)
{
	const struct pm_units *side[2] = { a, b };
	double lo = INFINITY, hi = 0;
	size_t i, k;

	for (k = 0; k < 2; k++)
		for (i = 0; i < side[k]->runs.n; i++) {
			double p = i < side[k]->run_ref.n ? side[k]->run_ref.v[i] : NAN;

			if (!(p > 0))
				return false;
			lo = fmin(lo, p);
			hi = fmax(hi, p);
		}
	*range = hi / lo;
	return hi > (1 + BUSY_PROBE) * lo;
}

bool pm_pairs_in_turn(const struct pm_units *a, const struct pm_units *b,
			  struct pm_pairs *p)
{
	size_t i, *ia, *ib;

	memset(p, 0, sizeof(*p));
	if (!pm_units_in_turn(a, b, &p->d, &p->x))
		return false;
	p->n = a->runs.n;
	p->pa = pm_xcalloc(p->n, sizeof(*p->pa));
	p->pb = pm_xcalloc(p->n, sizeof(*p->pb));
	ia = pm_units_by_time(a);
	ib = pm_units_by_time(b);
	for (i = 0; i < p->n; i++) {
		p->pa[i] = a->run_ref.v[ia[i]];
		p->pb[i] = b->run_ref.v[ib[i]];
	}
	free(ia);
	free(ib);
	return true;
}

void pm_pairs_free(struct pm_pairs *p)
{
	free(p->d);
	free(p->x);
	free(p->pa);
	free(p->pb);
}

/* The first k pairs' probes spread by more than BUSY_PROBE (as
 * probe_moved); *range: slowest over fastest. */
bool pm_pairs_probe_moved(const struct pm_pairs *p, size_t k, double *range)
{
	double lo = INFINITY, hi = 0;
	size_t i;

	for (i = 0; i < k; i++) {
		if (!(p->pa[i] > 0) || !(p->pb[i] > 0))
			return false;
		lo = fmin(lo, fmin(p->pa[i], p->pb[i]));
		hi = fmax(hi, fmax(p->pa[i], p->pb[i]));
	}
	*range = hi / lo;
	return hi > (1 + BUSY_PROBE) * lo;
}
