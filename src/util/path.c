/* Where pmbench's data, manual pages and helpers are. */
#include "config.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

/*
 * Data lives in $PMBENCH_DATADIR, else in the source tree when the
 * program runs from its build tree (so ./pmbench works before install),
 * else where `make install` put it.
 */
static bool pm_running_in_build_tree(void)
{
	static int cached = -1;
	char exe[PATH_MAX], build[PATH_MAX];
	ssize_t n;

	if (cached >= 0)
		return cached;
	cached = 0;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0)
		return false;
	exe[n] = '\0';
	if (!realpath(PM_ABS_BUILDDIR, build))
		return false;
	*strrchr(exe, '/') = '\0';
	cached = strcmp(exe, build) == 0;
	return cached;
}

const char *pm_datadir(void)
{
	const char *env = getenv("PMBENCH_DATADIR");

	if (env && *env)
		return env;
	if (pm_running_in_build_tree())
		return PM_ABS_SRCDIR;
	return PM_PKGDATADIR;
}

const char *pm_mandir(void)
{
	static char buf[PATH_MAX];
	const char *env = getenv("PMBENCH_DATADIR");

	if ((env && *env) || pm_running_in_build_tree()) {
		snprintf(buf, sizeof(buf), "%s/man", pm_datadir());
		return buf;
	}
	return PM_MANDIR;
}

const char *pm_mechanisms_dir(void)
{
	static char buf[PATH_MAX];
	const char *env = getenv("PMBENCH_MECHANISMS_DIR");

	if (env && *env)
		return env;
	snprintf(buf, sizeof(buf), "%s/mechanisms", pm_datadir());
	return buf;
}

const char *pm_libexecdir(void)
{
	const char *env = getenv("PMBENCH_LIBEXECDIR");

	if (env && *env)
		return env;
	if (pm_running_in_build_tree())
		return PM_ABS_BUILDDIR;
	return PM_PKGLIBEXECDIR;
}
