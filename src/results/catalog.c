/* The lookups the bench layer gives results (results/catalog.h). */
#include "config.h"

#include <stddef.h>

#include "results/catalog.h"

static const struct pm_catalog *catalog;

void pm_catalog_set(const struct pm_catalog *c)
{
	catalog = c;
}

bool pm_catalog_by_name(const char *name, struct pm_bench_ident *out)
{
	return name && catalog && catalog->by_name(name, out);
}

bool pm_catalog_by_lmbench(const char *key, struct pm_bench_ident *out)
{
	return key && catalog && catalog->by_lmbench(key, out);
}

bool pm_catalog_by_aim9(const char *test, struct pm_bench_ident *out)
{
	return test && catalog && catalog->by_aim9(test, out);
}
