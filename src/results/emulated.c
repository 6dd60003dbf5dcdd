/* A benchmark's emulated counts as amounts over runs (results/emulated.h). */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/emulated.h"

/* One run's amount of key (and mode) per op, NAN when it has none. */
static double run_value(const json_t *run, const char *key, const char *mode)
{
	const json_t *o = json_object_get(run, key), *m, *x;
	const char *modes[2] = { "user", "kernel" }, *kind;
	double sum = 0;
	int i, n = 0;

	if (!json_is_object(o))
		return NAN;
	for (i = 0; i < 2; i++) {
		if (mode && strcmp(mode, modes[i]))
			continue;
		m = json_object_get(o, modes[i]);
		if (json_is_number(m)) {
			sum += json_number_value(m);
			n++;
		} else if (json_is_object(m)) {
			/* branches: the kinds added up */
			json_object_foreach((json_t *)m, kind, x)
				sum += json_number_value(x);
			n++;
		}
	}
	return n ? sum : NAN;
}

size_t pm_emulated_values(const struct pm_bench_result *b, const char *key, const char *mode,
			  double *v, unsigned *runs, size_t max)
{
	const json_t *r;
	size_t i, n = 0;

	json_array_foreach(json_object_get(b->emulated, "runs"), i, r) {
		double x = run_value(r, key, mode);

		if (isnan(x) || n >= max)
			continue;
		if (runs)
			runs[n] = (unsigned)json_integer_value(json_object_get(r, "run"));
		v[n++] = x;
	}
	return n;
}

bool pm_emulated_amount(const struct pm_bench_result *b, const char *key, const char *mode,
			struct pm_emu_amount *a)
{
	size_t cap = json_array_size(json_object_get(b->emulated, "runs")), n, i;
	double *v, ss = 0;

	memset(a, 0, sizeof(*a));
	a->mean = a->sd = a->min = a->max = NAN;
	if (!cap)
		return false;
	v = pm_xcalloc(cap, sizeof(*v));
	n = pm_emulated_values(b, key, mode, v, NULL, cap);
	if (n) {
		a->mean = 0;
		a->min = a->max = v[0];
		for (i = 0; i < n; i++) {
			a->mean += v[i] / (double)n;
			a->min = fmin(a->min, v[i]);
			a->max = fmax(a->max, v[i]);
		}
		for (i = 0; i < n; i++)
			ss += (v[i] - a->mean) * (v[i] - a->mean);
		a->sd = n > 1 ? sqrt(ss / (double)(n - 1)) : NAN;
	}
	a->n = n;
	free(v);
	return n > 0;
}

const char *pm_emulated_unavailable(const struct pm_bench_result *b)
{
	return json_string_value(json_object_get(b->emulated, "unavailable"));
}

const json_t *pm_emulated_symbols(const struct pm_bench_result *b)
{
	const json_t *s = json_object_get(json_object_get(b->emulated, "kernel_profile"),
					  "symbols");

	return json_is_array(s) ? s : NULL;
}

double pm_emulated_symbol(const struct pm_bench_result *b, const char *name)
{
	const json_t *syms = pm_emulated_symbols(b), *x;
	size_t i;

	if (!syms)
		return NAN;
	json_array_foreach(syms, i, x) {
		const char *s = json_string_value(json_object_get(x, "name"));

		if (s && !strcmp(s, name))
			return json_number_value(json_object_get(x, "instructions"));
	}
	return 0;
}
