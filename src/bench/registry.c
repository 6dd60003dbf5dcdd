#include "config.h"

#include <stdio.h>
#include <string.h>

#include "bench/bench.h"
#include "results/catalog.h"
#include "util.h"

#define PM_FAMILY_REF(n) &pm_family_##n,
static const struct pm_family *const pm_families[] = {
	PM_FAMILIES(PM_FAMILY_REF)
};
#undef PM_FAMILY_REF

size_t pm_family_count(void)
{
	return PM_ARRAY_SIZE(pm_families);
}

const struct pm_family *pm_family_at(size_t i)
{
	return i < pm_family_count() ? pm_families[i] : NULL;
}

const struct pm_bench *pm_bench_at(size_t i)
{
	size_t f;

	for (f = 0; f < pm_family_count(); f++) {
		if (i < pm_families[f]->nbenches)
			return &pm_families[f]->benches[i];
		i -= pm_families[f]->nbenches;
	}
	return NULL;
}

const struct pm_bench *pm_bench_find(const char *name)
{
	const struct pm_bench *b;
	size_t i;

	for (i = 0; (b = pm_bench_at(i)); i++)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

const struct pm_bench *pm_bench_find_lmbench(const char *column)
{
	const struct pm_bench *b;
	size_t i;

	for (i = 0; (b = pm_bench_at(i)); i++)
		if (b->lmbench && strcmp(b->lmbench, column) == 0)
			return b;
	return NULL;
}

const struct pm_bench *pm_bench_find_aim9(const char *test)
{
	const struct pm_bench *b;
	size_t i;

	for (i = 0; (b = pm_bench_at(i)); i++)
		if (b->aim9 && strcmp(b->aim9, test) == 0)
			return b;
	return NULL;
}

/* The registry as results/catalog.h asks for it. */
static bool ident(const struct pm_bench *b, struct pm_bench_ident *out)
{
	if (!b)
		return false;
	*out = (struct pm_bench_ident){ b->name, b->group, b->summary, b->unit,
					b->lmbench, b->aim9 };
	return true;
}

static bool ident_by_name(const char *name, struct pm_bench_ident *out)
{
	return ident(pm_bench_find(name), out);
}

static bool ident_by_lmbench(const char *key, struct pm_bench_ident *out)
{
	return ident(pm_bench_find_lmbench(key), out);
}

static bool ident_by_aim9(const char *test, struct pm_bench_ident *out)
{
	return ident(pm_bench_find_aim9(test), out);
}

const struct pm_catalog pm_bench_catalog = {
	ident_by_name, ident_by_lmbench, ident_by_aim9,
};

/* Groups: "all", "quick", then every family. */
static const char *const pm_sets[] = { "all", "quick" };

const char *pm_group_at(size_t i)
{
	if (i < PM_ARRAY_SIZE(pm_sets))
		return pm_sets[i];
	i -= PM_ARRAY_SIZE(pm_sets);
	return i < pm_family_count() ? pm_families[i]->name : NULL;
}

bool pm_group_exists(const char *group)
{
	const char *g;
	size_t i;

	for (i = 0; (g = pm_group_at(i)); i++)
		if (!strcmp(g, group))
			return true;
	return false;
}

bool pm_bench_in_group(const struct pm_bench *b, const char *group)
{
	if (!strcmp(group, "all"))
		return true;
	if (!strcmp(group, "quick"))
		return b->flags & PM_QUICK;
	return !strcmp(b->group, group);
}

bool pm_bench_supported(const struct pm_bench *b, char *why, size_t len)
{
	if (len)
		why[0] = '\0';
	if (b->supported && b->supported(why, len) != 0) {
		if (len && !why[0])
			snprintf(why, len, "not supported on this system");
		return false;
	}
	return true;
}
