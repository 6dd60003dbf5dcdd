/* Manual pages: pmbench help CMD, pmbench CMD --help. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cmd.h"
#include "util.h"

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

/* man(1) by absolute path: no program is looked up through PATH. */
static const char *find_man(void)
{
	static const char *const paths[] = {
		"/usr/bin/man", "/bin/man", "/usr/local/bin/man", NULL,
	};
	size_t i;

	for (i = 0; paths[i]; i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	errno = ENOENT;
	return paths[0];
}

int pm_show_manual(const char *page)
{
	char *file = find_page(page);
	const char *man = find_man();

	fflush(stdout);
	if (file) {
		execl(man, "man", "-l", file, (char *)NULL);
		if (errno == ENOENT) {
			pm_error("cannot show the manual: 'man' is not installed (apt-get install man-db); the page is %s",
				 file);
			free(file);
			return PM_EXIT_RUNTIME;
		}
		pm_error("cannot run %s: %s", man, strerror(errno));
		free(file);
		return PM_EXIT_RUNTIME;
	}
	/* Not found where we installed it: let man search MANPATH. */
	execl(man, "man", page, (char *)NULL);
	pm_error("no manual page %s found in %s and 'man' cannot run: %s", page,
		 pm_mandir(), strerror(errno));
	return PM_EXIT_RUNTIME;
}
