/* Robust statistics for benchmark trials. */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats/stats.h"

/* NaNs sort after every number so qsort sees a total order. */
int pm_cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

/*
 * macro-cc compiles this file with stats.h alone (src/bench/macro.c),
 * so no util.h here: pm_sort's rule written out, qsort only lists of
 * two or more (a NULL base is undefined even when n is 0).
 */
static void sort_any(void *v, size_t n, size_t size, int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(v, n, size, cmp);
}

static void sort_doubles(double *v, size_t n)
{
	sort_any(v, n, sizeof(*v), pm_cmp_double);
}

/*
 * Wirth's selection: leaves v[k] as the k-th smallest with everything
 * before it <= v[k] and everything after it >= v[k].  Hoare-style
 * partitioning keeps it linear on many duplicates (trials of a fast
 * benchmark often repeat a figure); the scan stops are negated comparisons, so NaNs
 * cannot run the indices out of bounds.
 */
static double select_k(double *v, size_t n, size_t k)
{
	ptrdiff_t l = 0, r = (ptrdiff_t)n - 1, kk = (ptrdiff_t)k;

	while (l < r) {
		ptrdiff_t m = l + (r - l) / 2, i = l, j = r;
		double x = v[l], y = v[m], z = v[r], pivot;

		/* median of three guards against sorted input */
		if (x < y)
			pivot = y < z ? y : (x < z ? z : x);
		else
			pivot = x < z ? x : (y < z ? z : y);
		do {
			while (v[i] < pivot)
				i++;
			while (pivot < v[j])
				j--;
			if (i <= j) {
				double t = v[i];

				v[i] = v[j];
				v[j] = t;
				i++;
				j--;
			}
		} while (i <= j);
		if (j < kk)
			l = i;
		if (kk < i)
			r = j;
	}
	return v[k];
}

/* Median of v[0..n), reordering v.  n must be > 0. */
static double median_inplace(double *v, size_t n)
{
	size_t k = (n - 1) / 2;
	double lo = select_k(v, n, k), hi;

	if (n % 2)
		return lo;
	/* select_k partitioned around k: the next order statistic is the
	 * smallest element to its right. */
	hi = v[k + 1];
	for (size_t i = k + 2; i < n; i++)
		if (v[i] < hi)
			hi = v[i];
	return lo + (hi - lo) / 2;
}

static double median_sorted(const double *v, size_t n)
{
	if (n % 2)
		return v[n / 2];
	return v[n / 2 - 1] + (v[n / 2] - v[n / 2 - 1]) / 2;
}

double pm_median(const double *v, size_t n)
{
	double *c, m;

	if (!v || n == 0)
		return NAN;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NAN;
	memcpy(c, v, n * sizeof(*c));
	m = median_inplace(c, n);
	free(c);
	return m;
}

/* Hyndman-Fan type 7 (R's default, numpy's "linear"). */
double pm_quantile_sorted(const double *sorted, size_t n, double q)
{
	double h, frac;
	size_t i;

	if (!sorted || n == 0 || isnan(q))
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	h = q * (double)(n - 1);
	i = (size_t)h;
	if (i >= n - 1)
		return sorted[n - 1];
	frac = h - (double)i;
	return sorted[i] + frac * (sorted[i + 1] - sorted[i]);
}

/*
 * The interval [x_(k), x_(n+1-k)] (1-based) covers the median unless
 * fewer than k samples fall below it or fewer than k above, so its
 * coverage is 1 - 2 P(B <= k-1) with B ~ Binomial(n, 1/2).  Walking k
 * upwards accumulates that tail; the pmf is updated in log space
 * (log C(n,j+1) = log C(n,j) + log((n-j)/(j+1))) so 2^-n never
 * underflows for large n, and without lgamma, which is not thread-safe.
 */
double pm_median_ci_ranks(size_t n, double level, size_t *lo, size_t *hi)
{
	double logc = 0, ln2n = (double)n * M_LN2, tail = 0, best = 0;
	size_t bestk = 0;

	for (size_t k = 1; k <= n / 2; k++) {
		size_t j = k - 1;	/* add P(B = k-1) to the tail */
		double cov;

		if (j > 0)
			logc += log((double)(n - j + 1) / (double)j);
		tail += exp(logc - ln2n);
		cov = 1 - 2 * tail;
		if (!(cov >= level))	/* also stops on a NaN level */
			break;
		best = cov;
		bestk = k;
	}
	if (bestk == 0) {
		/* too few samples: min..max is the best there is */
		if (lo)
			*lo = 0;
		if (hi)
			*hi = n ? n - 1 : 0;
		return 0;
	}
	if (lo)
		*lo = bestk - 1;
	if (hi)
		*hi = n - bestk;
	return best;
}

static void summary_nan(struct pm_summary *s, size_t n)
{
	s->n = n;
	s->median = s->ci_low = s->ci_high = s->ci_level = NAN;
	s->mean = s->stddev = s->min = s->max = s->mad = NAN;
}

void pm_summarize(const double *v, size_t n, double level,
		  struct pm_summary *s)
{
	double *sorted, *dev, sum = 0, ss = 0, lvl;
	size_t lo, hi;

	if (!s)
		return;
	if (!v || n == 0) {
		summary_nan(s, 0);
		return;
	}
	/* one allocation: sorted copy, then absolute deviations */
	sorted = malloc(2 * n * sizeof(*sorted));
	if (!sorted) {
		summary_nan(s, n);
		return;
	}
	dev = sorted + n;
	memcpy(sorted, v, n * sizeof(*sorted));
	sort_doubles(sorted, n);

	s->n = n;
	s->min = sorted[0];
	s->max = sorted[n - 1];
	s->median = median_sorted(sorted, n);

	lvl = pm_median_ci_ranks(n, level, &lo, &hi);
	if (lvl == 0)	/* coverage of [min, max] itself: 1 - 2^(1-n) */
		lvl = n > 1100 ? 1 : 1 - ldexp(1.0, 1 - (int)n);
	s->ci_low = sorted[lo];
	s->ci_high = sorted[hi];
	s->ci_level = lvl;

	/* two passes: benchmark times share a large common offset, which
	 * a one-pass sum of squares would cancel away */
	for (size_t i = 0; i < n; i++)
		sum += sorted[i];
	s->mean = sum / (double)n;
	for (size_t i = 0; i < n; i++) {
		double d = sorted[i] - s->mean;

		ss += d * d;
	}
	/* one sample has no spread estimate; 0 keeps renderers simple */
	s->stddev = n > 1 ? sqrt(ss / (double)(n - 1)) : 0;

	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(sorted[i] - s->median);
	s->mad = median_inplace(dev, n);
	free(sorted);
}

double pm_summary_rel_halfwidth(const struct pm_summary *s)
{
	double a, b;

	if (!s || isnan(s->median) || s->median == 0)
		return NAN;
	a = s->median - s->ci_low;
	b = s->ci_high - s->median;
	return (a > b ? a : b) / fabs(s->median);
}

/* ---- PRNG: xoshiro256** (Blackman & Vigna), seeded by splitmix64 ---- */

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static inline uint64_t rotl64(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void pm_rng_seed(struct pm_rng *r, uint64_t seed)
{
	/* splitmix64 never yields four zero words, the one bad state */
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t pm_rng_next(struct pm_rng *r)
{
	uint64_t *s = r->s;
	uint64_t res = rotl64(s[1] * 5, 7) * 9;
	uint64_t t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl64(s[3], 45);
	return res;
}

/*
 * Lemire's multiply-shift with rejection: the high word of x*n is
 * uniform on [0, n) once the low words below 2^64 mod n are rejected;
 * the division is only needed in the rare near-rejection case.
 */
size_t pm_rng_below(struct pm_rng *r, size_t n)
{
	uint64_t x, range = n;
	unsigned __int128 m;
	uint64_t low;

	if (n <= 1)
		return 0;
	x = pm_rng_next(r);
	m = (unsigned __int128)x * range;
	low = (uint64_t)m;
	if (low < range) {
		uint64_t thresh = -range % range;

		while (low < thresh) {
			x = pm_rng_next(r);
			m = (unsigned __int128)x * range;
			low = (uint64_t)m;
		}
	}
	return (size_t)(m >> 64);
}

/* ---- comparing two samples ---- */

struct mw_item {
	double v;
	int from_a;
};

static int cmp_mw_item(const void *x, const void *y)
{
	return pm_cmp_double(&((const struct mw_item *)x)->v,
			     &((const struct mw_item *)y)->v);
}

/*
 * Exact two-sided p of U = u under H0 without ties: count the rank
 * arrangements by U with f(m, n, u) = f(m-1, n, u-n) + f(m, n-1, u)
 * (the largest observation belongs to a, beating all n of b, or to b).
 * Only called for m, n <= 10, so a fixed table is enough.
 */
static double mw_exact_p(size_t m, size_t n, double u)
{
	enum { MAXN = 10, MAXU = MAXN * MAXN };
	/* only two consecutive values of m are ever needed */
	double prev[MAXN + 1][MAXU + 1], cur[MAXN + 1][MAXU + 1];
	double total = 0, le = 0, ge = 0, p;

	/* i = 0: only U = 0 is possible */
	memset(prev, 0, sizeof(prev));
	for (size_t j = 0; j <= n; j++)
		prev[j][0] = 1;
	for (size_t i = 1; i <= m; i++) {
		memset(cur, 0, sizeof(cur));
		cur[0][0] = 1;
		for (size_t j = 1; j <= n; j++)
			for (size_t w = 0; w <= i * j; w++)
				cur[j][w] = (w >= j ? prev[j][w - j] : 0) +
					    cur[j - 1][w];
		memcpy(prev, cur, sizeof(prev));
	}
	for (size_t w = 0; w <= m * n; w++) {
		double c = prev[n][w];

		total += c;
		if ((double)w <= u + 1e-9)
			le += c;
		if ((double)w >= u - 1e-9)
			ge += c;
	}
	p = 2 * (le < ge ? le : ge) / total;
	return p > 1 ? 1 : p;
}

double pm_mann_whitney(const double *a, size_t na, const double *b,
		       size_t nb, double *u_out)
{
	size_t N = na + nb;
	struct mw_item *it;
	double ra = 0, tie_sum = 0, u, mu, var, z, p;
	int ties = 0;

	if (u_out)
		*u_out = NAN;
	if (!a || !b || na == 0 || nb == 0)
		return NAN;
	it = malloc(N * sizeof(*it));
	if (!it)
		return NAN;
	for (size_t i = 0; i < na; i++)
		it[i] = (struct mw_item){ a[i], 1 };
	for (size_t i = 0; i < nb; i++)
		it[na + i] = (struct mw_item){ b[i], 0 };
	sort_any(it, N, sizeof(*it), cmp_mw_item);

	/* midranks: a tie group at 0-based i..j-1 shares rank (i+1+j)/2 */
	for (size_t i = 0, j; i < N; i = j) {
		double rank, t;

		for (j = i + 1; j < N && it[j].v == it[i].v; j++)
			;
		rank = (double)(i + 1 + j) / 2;
		for (size_t k = i; k < j; k++)
			if (it[k].from_a)
				ra += rank;
		t = (double)(j - i);
		if (j - i > 1) {
			ties = 1;
			tie_sum += t * t * t - t;
		}
	}
	free(it);

	/* U for a: pairs with a_i > b_j, ties counting one half */
	u = ra - (double)na * ((double)na + 1) / 2;
	if (u_out)
		*u_out = u;

	if (!ties && na <= 10 && nb <= 10)
		return mw_exact_p(na, nb, u);

	mu = (double)na * (double)nb / 2;
	var = (double)na * (double)nb / 12 *
	      (((double)N + 1) - tie_sum / ((double)N * ((double)N - 1)));
	if (!(var > 0))
		return 1;	/* every value tied: no evidence either way */
	z = (fabs(u - mu) - 0.5) / sqrt(var);
	if (z <= 0)
		return 1;
	p = erfc(z / M_SQRT2);
	return p > 1 ? 1 : p;
}

double pm_hodges_lehmann(const double *a, size_t na, const double *b,
			 size_t nb)
{
	double *d, m;
	size_t k = 0;

	if (!a || !b || na == 0 || nb == 0 || na > SIZE_MAX / sizeof(*d) / nb)
		return NAN;
	d = malloc(na * nb * sizeof(*d));
	if (!d)
		return NAN;
	for (size_t j = 0; j < nb; j++)
		for (size_t i = 0; i < na; i++)
			d[k++] = b[j] - a[i];
	m = median_inplace(d, k);
	free(d);
	return m;
}

/* ---- Student's t, for intervals over a few runs or rounds ---- */

/*
 * Continued fraction of the regularized incomplete beta function
 * (modified Lentz); converges quickly for x < (a+1)/(a+b+2).  Written
 * here rather than taking a numerics library for two functions.
 */
static double beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double m2 = 2.0 * m, aa, del;

		aa = m * (b - m) * x / ((a + m2 - 1) * (a + m2));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		h *= d * c;
		aa = -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1));
		d = 1 + aa * d;
		d = fabs(d) < tiny ? tiny : d;
		c = 1 + aa / c;
		c = fabs(c) < tiny ? tiny : c;
		d = 1 / d;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-14)
			break;
	}
	return h;
}

/* I_x(a, b) */
static double beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

double pm_t_cdf(double t, double df)
{
	double tail;

	if (isnan(t) || !(df > 0))
		return NAN;
	if (isinf(t))
		return t > 0 ? 1 : 0;
	tail = 0.5 * beta_inc(df / 2, 0.5, df / (df + t * t));
	return t > 0 ? 1 - tail : tail;
}

double pm_t_quantile(double p, double df)
{
	double lo = -1e6, hi = 1e6;
	int i;

	if (!(p > 0 && p < 1) || !(df > 0))
		return NAN;
	/* bisection: monotone, and a few dozen steps are nothing here */
	for (i = 0; i < 200 && hi - lo > 1e-12 * fmax(1, fabs(lo)); i++) {
		double mid = (lo + hi) / 2;

		if (pm_t_cdf(mid, df) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double pm_geomean(const double *v, size_t n)
{
	double s = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++) {
		if (!(v[i] > 0))
			return NAN;
		s += log(v[i]);
	}
	return exp(s / (double)n);
}

double pm_geomean_faster_half(const double *v, size_t n)
{
	double *s, g;
	/* n/2 rounded down, but 2 of 3 */
	size_t k = n >= 4 ? n / 2 : n == 3 ? 2 : n;

	if (!n)
		return NAN;
	s = malloc(n * sizeof(*s));
	if (!s)
		return NAN;
	memcpy(s, v, n * sizeof(*s));
	sort_any(s, n, sizeof(*s), pm_cmp_double);
	g = pm_geomean(s, k);
	free(s);
	return g;
}

void pm_mean_ci(const double *v, size_t n, double level, double *mean,
		double *half)
{
	double m = 0, ss = 0;
	size_t i;

	*mean = *half = NAN;
	if (!n)
		return;
	for (i = 0; i < n; i++)
		m += v[i];
	m /= (double)n;
	*mean = m;
	if (n < 2)
		return;
	for (i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	*half = pm_t_quantile(0.5 + level / 2, (double)(n - 1)) *
		sqrt(ss / (double)(n - 1) / (double)n);
}

double pm_log_sd(const double *v, size_t n, double *mean_log)
{
	double s = 0, ss = 0, m;
	size_t i;

	for (i = 0; i < n; i++)
		s += log(v[i]);
	m = n ? s / (double)n : NAN;
	if (mean_log)
		*mean_log = m;
	for (i = 0; i < n; i++)
		ss += (log(v[i]) - m) * (log(v[i]) - m);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}

double pm_log_t_rel_halfwidth(double log_sd, size_t n, double level)
{
	if (n < 2)
		return NAN;
	return expm1(pm_t_quantile(0.5 + level / 2, (double)(n - 1)) * log_sd /
		     sqrt((double)n));
}

static void log_mean_var(const double *v, size_t n, double *mean, double *var)
{
	double sd = pm_log_sd(v, n, mean);

	*var = sd * sd;
}

int pm_log_ratio_t(const double *a, size_t na, const double *b, size_t nb,
		   double level, double min_var, struct pm_log_cmp *out)
{
	return pm_log_ratio_t_prior(a, na, b, nb, level, min_var, 0, 0, out);
}

int pm_log_ratio_t_prior(const double *a, size_t na, const double *b, size_t nb,
			 double level, double min_var, double prior_ss,
			 double prior_df, struct pm_log_cmp *out)
{
	double ma, va, mb, vb, pooled, t;
	size_t i;

	memset(out, 0, sizeof(*out));
	out->ratio = out->lo = out->hi = out->se = out->df = out->p = NAN;
	out->sd_a = out->sd_b = out->sd = NAN;
	if (!(prior_df >= 0) || !(prior_ss >= 0))
		prior_ss = prior_df = 0;
	if (!na || !nb || (na < 2 && nb < 2 && prior_df < 1))
		return -EINVAL;
	for (i = 0; i < na; i++)
		if (!(a[i] > 0))
			return -EINVAL;
	for (i = 0; i < nb; i++)
		if (!(b[i] > 0))
			return -EINVAL;
	log_mean_var(a, na, &ma, &va);
	log_mean_var(b, nb, &mb, &vb);
	out->ratio = exp(mb - ma);
	out->sd_a = sqrt(va);
	out->sd_b = sqrt(vb);
	/* one value on a side: the other side's spread stands for both */
	out->df = (double)(na + nb) - 2 + prior_df;
	pooled = ((na > 1 ? (double)(na - 1) * va : 0) + (nb > 1 ? (double)(nb - 1) * vb : 0) +
		  prior_ss) / out->df;
	if (pooled < min_var)
		pooled = min_var;
	out->sd = sqrt(pooled);
	out->se = sqrt(pooled / (double)na + pooled / (double)nb);
	if (out->se == 0) {
		/* identical values throughout: the interval is the point */
		out->lo = out->hi = out->ratio;
		out->p = mb == ma ? 1 : 0;
		return 0;
	}
	t = pm_t_quantile(0.5 + level / 2, out->df);
	out->lo = exp(mb - ma - t * out->se);
	out->hi = exp(mb - ma + t * out->se);
	out->p = 2 * (1 - pm_t_cdf(fabs(mb - ma) / out->se, out->df));
	return 0;
}

/* ---- paired differences: signed ranks ---- */

/* cdf[t] = P(T+ <= t) for n ranks without ties, T+ the sum of the ranks
 * of the positive differences: the count of subsets of {1..n} by sum. */
static double *signed_rank_cdf(size_t n)
{
	size_t max = n * (n + 1) / 2, i, s;
	double *c = calloc(max + 1, sizeof(*c)), total;

	if (!c)
		return NULL;
	c[0] = 1;
	for (i = 1; i <= n; i++)
		for (s = max; s >= i; s--)
			c[s] += c[s - i];
	total = ldexp(1, (int)n);
	for (s = 0; s <= max; s++)
		c[s] = c[s] / total + (s ? c[s - 1] : 0);
	return c;
}

struct abs_rank {
	double a;
	bool pos;
};

static int cmp_abs_rank(const void *x, const void *y)
{
	double a = ((const struct abs_rank *)x)->a, b = ((const struct abs_rank *)y)->a;

	return (a > b) - (a < b);
}

int pm_signed_rank(const double *d, size_t n, double level, struct pm_signed_rank *out)
{
	struct abs_rank *r;
	double *w, *cdf, tplus = 0, lower, upper;
	size_t m = 0, nw, i, j, k;

	if (!d || !out || n == 0 || n > PM_SIGNED_RANK_MAX)
		return -EINVAL;
	r = calloc(n, sizeof(*r));
	w = calloc(n * (n + 1) / 2, sizeof(*w));
	if (!r || !w) {
		free(r);
		free(w);
		return -ENOMEM;
	}
	/* Walsh averages: every (d_i + d_j) / 2, i <= j */
	for (i = 0, nw = 0; i < n; i++)
		for (j = i; j < n; j++)
			w[nw++] = (d[i] + d[j]) / 2;
	sort_any(w, nw, sizeof(*w), pm_cmp_double);
	out->estimate = pm_quantile_sorted(w, nw, 0.5);
	for (i = 0; i < n; i++)
		if (d[i] != 0)
			r[m++] = (struct abs_rank){ fabs(d[i]), d[i] > 0 };
	sort_any(r, m, sizeof(*r), cmp_abs_rank);
	/* ranks 1..m, ties given their mean rank */
	for (i = 0; i < m; i = j) {
		for (j = i + 1; j < m && r[j].a == r[i].a; j++)
			;
		for (k = i; k < j; k++)
			if (r[k].pos)
				tplus += (double)(i + 1 + j) / 2;
	}
	out->p = 1;
	if (m > 0) {
		if (!(cdf = signed_rank_cdf(m))) {
			free(r);
			free(w);
			return -ENOMEM;
		}
		/* ties make T+ a half-integer: round towards the tail, conservatively */
		lower = cdf[(size_t)floor(tplus)];
		upper = ceil(tplus) < 1 ? 1 : 1 - cdf[(size_t)ceil(tplus) - 1];
		out->p = fmin(1, 2 * fmin(lower, upper));
		free(cdf);
	}
	/* interval: [w_(k), w_(nw+1-k)], k the largest with P(T <= k-1) <= alpha/2,
	 * from the distribution for all n pairs */
	cdf = signed_rank_cdf(n);
	if (!cdf) {
		free(r);
		free(w);
		return -ENOMEM;
	}
	for (k = 0; k < n * (n + 1) / 2 && cdf[k] <= (1 - level) / 2; k++)
		;
	if (k == 0) {
		out->lo = -INFINITY;
		out->hi = INFINITY;
	} else {
		out->lo = w[k - 1];
		out->hi = w[nw - k];
	}
	free(cdf);
	free(r);
	free(w);
	return 0;
}

/* The standard normal quantile, by bisection of its CDF. */
static double normal_quantile(double p)
{
	double lo = -40, hi = 40;
	int i;

	for (i = 0; i < 100; i++) {
		double mid = (lo + hi) / 2;

		if (0.5 * erfc(-mid / M_SQRT2) < p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

int pm_theil_sen(const double *x, const double *y, size_t n, double level,
		 struct pm_slope *out)
{
	double *s, *xs, z, c, var;
	size_t i, j, k, m = 0, lo, hi;

	if (!x || !y || !out || n < 3)
		return -EINVAL;
	s = calloc(n * (n - 1) / 2, sizeof(*s));
	if (!s)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (x[j] != x[i] && isfinite(x[i]) && isfinite(x[j]) &&
			    isfinite(y[i]) && isfinite(y[j]))
				s[m++] = (y[j] - y[i]) / (x[j] - x[i]);
	if (m < 3) {
		free(s);
		return -EINVAL;
	}
	sort_any(s, m, sizeof(*s), pm_cmp_double);
	out->slope = pm_quantile_sorted(s, m, 0.5);
	/* Kendall's S has variance (n(n-1)(2n+5) - sum over groups of equal
	 * x of t(t-1)(2t+5)) / 18; the interval runs from the ((m - c) / 2)-th
	 * slope to the ((m + c) / 2 + 1)-th */
	xs = malloc(n * sizeof(*xs));
	if (!xs) {
		free(s);
		return -ENOMEM;
	}
	/* the points that have slopes: finite x and y */
	for (i = 0, k = 0; i < n; i++)
		if (isfinite(x[i]) && isfinite(y[i]))
			xs[k++] = x[i];
	var = (double)k * (double)(k - 1) * (double)(2 * k + 5);
	sort_any(xs, k, sizeof(*xs), pm_cmp_double);
	for (i = 0; i < k; i = j) {
		double t;

		for (j = i + 1; j < k && xs[j] == xs[i]; j++)
			;
		t = (double)(j - i);
		var -= t * (t - 1) * (2 * t + 5);
	}
	free(xs);
	z = normal_quantile(0.5 + level / 2);
	c = z * sqrt(var / 18);
	lo = (double)m > c ? (size_t)floor(((double)m - c) / 2) : 0;
	hi = (size_t)ceil(((double)m + c) / 2);
	out->lo = lo >= 1 ? s[lo - 1] : -INFINITY;
	out->hi = hi < m ? s[hi] : INFINITY;
	free(s);
	return 0;
}

double pm_fewer_samples_p(double k, double n, double k2, double n2)
{
	double m = floor(k + k2 + 0.5), q = n / (n + n2), sum = 0;
	double i;

	if (!(n > 0) || !(n2 > 0) || !(m >= 1) || !(k >= 0))
		return NAN;
	for (i = 0; i <= floor(k + 0.5) && i <= m; i++)
		sum += exp(lgamma(m + 1) - lgamma(i + 1) - lgamma(m - i + 1) + i * log(q) +
			   (m - i) * log1p(-q));
	return fmin(sum, 1);
}

double pm_mean(const double *v, size_t n)
{
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += v[i];
	return n ? s / (double)n : NAN;
}

double pm_sd(const double *v, size_t n)
{
	double m = pm_mean(v, n), ss = 0;

	for (size_t i = 0; i < n; i++)
		ss += (v[i] - m) * (v[i] - m);
	return n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
}
