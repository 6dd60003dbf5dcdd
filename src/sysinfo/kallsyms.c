#include "config.h"

/* kernel.text_size: _etext - _stext from /proc/kallsyms. */

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/internal.h"

/* Scan state for /proc/kallsyms; fed one line at a time. */
struct ksyms {
	unsigned long long stext, etext;
	bool have_stext, have_etext, hidden;
};

/* Returns true when nothing more needs to be read. */
static bool ksyms_line(struct ksyms *k, const char *line)
{
	unsigned long long addr;
	const char *p, *name;
	char *endp, type;
	size_t n;

	addr = strtoull(line, &endp, 16);
	p = endp;
	if (p == line || (*p != ' ' && *p != '\t'))
		return false;
	while (*p == ' ' || *p == '\t')
		p++;
	type = *p++;
	while (*p == ' ' || *p == '\t')
		p++;
	name = p;
	n = strcspn(name, " \t\r\n");
	/* Per-cpu symbols really live at 0, text never does: a text
	 * symbol at 0 means the kernel hides addresses from us. */
	if (addr == 0 && (type == 'T' || type == 't')) {
		k->hidden = true;
		return true;
	}
	/* First occurrence only: later ones could be module symbols. */
	if (n == 6 && memcmp(name, "_stext", 6) == 0 && !k->have_stext) {
		k->stext = addr;
		k->have_stext = true;
	} else if (n == 6 && memcmp(name, "_etext", 6) == 0 && !k->have_etext) {
		k->etext = addr;
		k->have_etext = true;
	}
	return k->have_stext && k->have_etext;
}

static long long ksyms_result(const struct ksyms *k)
{
	if (k->hidden)
		return -EACCES;
	if (!k->have_stext || !k->have_etext)
		return -ENOENT;
	if (k->etext < k->stext)
		return -ERANGE;
	return (long long)(k->etext - k->stext);
}

long long pm_sysinfo_text_size(const char *kallsyms)
{
	struct ksyms k = { 0 };
	const char *line = kallsyms;

	while (line && *line) {
		const char *end = strchr(line, '\n');

		if (ksyms_line(&k, line))
			break;
		line = end ? end + 1 : NULL;
	}
	return ksyms_result(&k);
}

/* Why /proc/kallsyms shows zeros, and what would fix it. */
static void kallsyms_hidden_reason(struct si_ctx *c, char *buf, size_t len)
{
	long kr = c->kptr_restrict, pp = c->perf_paranoid;

	if (kr >= 2)
		snprintf(buf, len, "kptr_restrict=%ld hides kernel addresses from "
			 "every user, root included; set kernel.kptr_restrict=1 "
			 "and run as root", kr);
	else if (kr == 1)
		snprintf(buf, len, "kptr_restrict=1 hides kernel addresses from "
			 "this user; run as root or set kernel.kptr_restrict=0 "
			 "and kernel.perf_event_paranoid<=1");
	else if (kr == 0 && pp > 1)
		snprintf(buf, len, "kptr_restrict=0 with perf_event_paranoid=%ld "
			 "hides kernel addresses from users without CAP_SYSLOG; "
			 "run as root or set kernel.perf_event_paranoid=1", pp);
	else
		snprintf(buf, len, "/proc/kallsyms shows zero addresses to this "
			 "user (kptr_restrict=%ld, perf_event_paranoid=%ld); run "
			 "as root", kr, pp);
}

void si_put_text_size(struct si_ctx *c, json_t *k)
{
	struct ksyms ks = { 0 };
	char *line = NULL, why[512];
	size_t cap = 0;
	long long size;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		if (errno == ENOENT)
			si_na(c, k, PM_FP_KERNEL_TEXT_SIZE, "/proc/kallsyms does not "
			      "exist (kernel built without CONFIG_KALLSYMS)");
		else
			si_na(c, k, PM_FP_KERNEL_TEXT_SIZE, "/proc/kallsyms: %s",
			      strerror(errno));
		return;
	}
	/* ~120k lines: the slowest item here, so stop as soon as we can. */
	setvbuf(f, NULL, _IOFBF, 1 << 18);
	while (getline(&line, &cap, f) > 0)
		if (ksyms_line(&ks, line))
			break;
	free(line);
	fclose(f);
	size = ksyms_result(&ks);
	if (size == -EACCES) {
		kallsyms_hidden_reason(c, why, sizeof(why));
		si_na(c, k, PM_FP_KERNEL_TEXT_SIZE, "%s", why);
	} else if (size < 0) {
		si_na(c, k, PM_FP_KERNEL_TEXT_SIZE,
		      "_stext/_etext not found in /proc/kallsyms");
	} else {
		si_put(k, PM_FP_KERNEL_TEXT_SIZE, json_integer(size));
	}
}
