#include "config.h"

/* Speculative-execution mitigations: vulnerabilities/ and mitigations=. */

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/internal.h"

static int select_visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

void si_put_vulnerabilities(struct si_ctx *c, json_t *si)
{
	static const char dir[] = SYS_CPU "/vulnerabilities";
	struct dirent **list;
	char path[512], buf[1024];
	json_t *o;
	int n, i;

	n = scandir(dir, &list, select_visible, alphasort);
	if (n < 0) {
		si_na(c, si, PM_FP_VULNERABILITIES, "%s: %s (kernel older than 4.15?)",
		      dir, strerror(errno));
		return;
	}
	o = json_object();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		if (pm_read_line(path, buf, sizeof(buf)) == 0)
			json_object_set_new(o, list[i]->d_name,
					    json_string(pm_strtrim(buf)));
		free(list[i]);
	}
	free(list);
	si_put(si, PM_FP_VULNERABILITIES, o);
}

void si_put_mitigations(struct si_ctx *c, json_t *si)
{
	char buf[256];

	if (!c->cmdline)
		si_na(c, si, PM_FP_MITIGATIONS, "/proc/cmdline unreadable");
	else if (pm_sysinfo_cmdline_param(c->cmdline, "mitigations", buf,
					  sizeof(buf)) == 0)
		si_put(si, PM_FP_MITIGATIONS, json_string(buf));
	else
		si_put(si, PM_FP_MITIGATIONS, json_string("auto"));
}
