/*
 * A preload library that puts user-space work in front of every libc
 * syscall() call: a user-side slowdown for explain to find
 * (LD_PRELOAD=libslowsyscall.so pmbench run null).  PM_TEST_BURN sets
 * the steps of work (default 400); each step is one step of the
 * machine-speed probe's loop, so a run's reference_ns tells its cost.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stdarg.h>
#include <stdlib.h>

static long (*real_syscall)(long, ...);
static volatile unsigned long pm_test_sink;
static long burn_steps = -1;

__attribute__((noinline)) void pm_test_burn(void);
__attribute__((noinline)) void pm_test_burn(void)
{
	unsigned long x = pm_test_sink;

	if (burn_steps < 0) {
		const char *s = getenv("PM_TEST_BURN");

		burn_steps = s && *s ? strtol(s, NULL, 10) : 400;
	}
	for (long i = 0; i < burn_steps; i++)
		x = x * 6364136223846793005ull + 1442695040888963407ull;
	pm_test_sink = x;
}

long syscall(long nr, ...)
{
	long a[6];
	va_list ap;
	int i;

	va_start(ap, nr);
	for (i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	if (!real_syscall)
		real_syscall = (long (*)(long, ...))dlsym(RTLD_NEXT, "syscall");
	pm_test_burn();
	return real_syscall(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
}
