/* Messages and exit statuses: what every command prints on an error. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cmd.h"

void pm_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("pmbench: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

void pm_warn(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("pmbench: warning: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

int pm_exit_status(int err)
{
	if (err == 0)
		return PM_EXIT_OK;
	if (err == -EINVAL || err == -EBADMSG || err == -ENOENT ||
	    err == -EISDIR || err == -ENOTDIR || err == -EACCES)
		return PM_EXIT_USAGE;
	return PM_EXIT_RUNTIME;
}

int pm_usage_error(const struct pm_usage *u, const char *fmt, ...)
{
	char *syn = pm_usage_synopsis(u);
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "pmbench %s: ", u->name);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* the first line of the synopsis */
	fprintf(stderr, "%.*s\n", (int)strcspn(syn, "\n"), syn);
	free(syn);
	return PM_EXIT_USAGE;
}
