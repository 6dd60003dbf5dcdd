/* Shared by the subcommands: messages, exit codes, manual pages. */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "util.h"

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

int pm_usage_error(const char *cmd, const char *usage, const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fprintf(stderr, "pmbench %s: ", cmd);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	/* The first line of the usage text is the synopsis. */
	fprintf(stderr, "%.*s", (int)(strchr(usage, '\n') ? strchr(usage, '\n') - usage + 1 :
				      (long)strlen(usage)), usage);
	return PM_EXIT_USAGE;
}

/* The page's file: in-tree (man/NAME.S) or installed (manS/NAME.S). */
static char *find_page(const char *page)
{
	const char *dir = pm_mandir(), *dot = strrchr(page, '.');
	const char *sections = "157";
	char name[128], only[2] = { 0 };
	size_t i;

	/* "pmbench-events.5" names the section explicitly. */
	snprintf(name, sizeof(name), "%s", page);
	if (dot && dot[1] >= '1' && dot[1] <= '9' && !dot[2]) {
		only[0] = dot[1];
		sections = only;
		name[dot - page] = '\0';
	}
	for (i = 0; sections[i]; i++) {
		char *p = pm_xasprintf("%s/%s.%c", dir, name, sections[i]);
		struct stat st;

		if (stat(p, &st) == 0)
			return p;
		free(p);
		p = pm_xasprintf("%s/man%c/%s.%c", dir, sections[i], name, sections[i]);
		if (stat(p, &st) == 0)
			return p;
		free(p);
	}
	return NULL;
}

void pm_catch_stop_signals(void (*handler)(int))
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = handler;
	sa.sa_flags = SA_RESTART;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* A peer that died must show up as EPIPE, not kill us. */
	signal(SIGPIPE, SIG_IGN);
}

int pm_show_manual(const char *page)
{
	char *file = find_page(page);

	fflush(stdout);
	if (file) {
		execlp("man", "man", "-l", file, (char *)NULL);
		if (errno == ENOENT) {
			pm_error("cannot show the manual: 'man' is not installed (apt-get install man-db); the page is %s",
				 file);
			free(file);
			return PM_EXIT_RUNTIME;
		}
		pm_error("cannot run man: %s", strerror(errno));
		free(file);
		return PM_EXIT_RUNTIME;
	}
	/* Not found where we installed it: let man search MANPATH. */
	execlp("man", "man", page, (char *)NULL);
	pm_error("no manual page %s found in %s and 'man' cannot run: %s", page,
		 pm_mandir(), strerror(errno));
	return PM_EXIT_RUNTIME;
}
