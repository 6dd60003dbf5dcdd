#include "config.h"

/*
 * The system fingerprint (pmbench-sysinfo(1)): kernel, CPU, mitigations,
 * clocks, memory and perf access settings, read from /proc and /sys.
 * Every item that cannot be read is null and explained in "unavailable".
 */

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#ifdef __GLIBC__
#include <gnu/libc-version.h>
#endif
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

#include "sysinfo.h"
#include "results/table.h"

#define SYS_CPU "/sys/devices/system/cpu"
#define SYS_THP "/sys/kernel/mm/transparent_hugepage"
#define SYS_CLOCKSOURCE "/sys/devices/system/clocksource/clocksource0"
#define DEBUGFS_PREEMPT "/sys/kernel/debug/sched/preempt"

/* ------------------------------------------------------------------ */
/* Parse helpers (exported for the unit tests)                         */
/* ------------------------------------------------------------------ */

static bool is_config_name_char(int ch)
{
	return isalnum(ch) || ch == '_';
}

/* Undo Kconfig string quoting: "a \"b\"" -> a "b". */
static char *config_unquote(const char *v, size_t n)
{
	char *out = pm_xmalloc(n + 1), *o = out;
	size_t i;

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		for (i = 1; i < n - 1; i++) {
			if (v[i] == '\\' && i + 1 < n - 1)
				i++;
			*o++ = v[i];
		}
	} else {
		memcpy(o, v, n);
		o += n;
	}
	*o = '\0';
	return out;
}

json_t *pm_sysinfo_parse_config(const char *text)
{
	json_t *cfg = json_object();
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *eq;
		size_t name_len, vlen;

		/* Only "CONFIG_X=value": comments ("# ... is not set") and
		 * anything else is not a set option. */
		if (len > 7 && strncmp(line, "CONFIG_", 7) == 0 &&
		    (eq = memchr(line, '=', len)) != NULL) {
			name_len = (size_t)(eq - line);
			for (size_t i = 0; i < name_len; i++)
				if (!is_config_name_char((unsigned char)line[i]))
					goto next;
			vlen = len - name_len - 1;
			while (vlen && (eq[vlen] == '\r' || eq[vlen] == ' '))
				vlen--;
			char *name = pm_xmalloc(name_len + 1);
			char *value = config_unquote(eq + 1, vlen);

			memcpy(name, line, name_len);
			name[name_len] = '\0';
			json_object_set_new(cfg, name, json_string(value));
			free(name);
			free(value);
		}
next:
		line = end ? end + 1 : NULL;
	}
	return cfg;
}

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

/* The selected word of "a [b] c" (sysfs) or "a (b) c" (debugfs). */
static int pick_marked(const char *text, char open, char close, char *out,
		       size_t len)
{
	const char *s, *e;
	size_t n;

	if (!text || !(s = strchr(text, open)) || !(e = strchr(s + 1, close)))
		return -ENOENT;
	n = (size_t)(e - s - 1);
	if (n == 0)
		return -ENOENT;
	if (n >= len)
		return -ERANGE;
	memcpy(out, s + 1, n);
	out[n] = '\0';
	return 0;
}

int pm_sysinfo_bracketed(const char *text, char *out, size_t len)
{
	return pick_marked(text, '[', ']', out, len);
}

static bool config_is_y(const json_t *config, const char *name)
{
	const char *v = json_string_value(json_object_get(config, name));

	return v && strcmp(v, "y") == 0;
}

/*
 * uname -v carries the model chosen at build time: init/Makefile puts
 * PREEMPT, PREEMPT_DYNAMIC, PREEMPT_LAZY or PREEMPT_RT after "SMP".
 * Without any of them the kernel is "none" or "voluntary": unknown.
 */
static const char *preemption_from_uname(const char *v)
{
	int best = 0;	/* 1 full, 2 lazy, 3 dynamic, 4 rt */
	static const char *const names[] = { NULL, "full", "lazy", "dynamic", "rt" };
	const char *p = v;
	bool prev_preempt = false;

	while (p && *p) {
		size_t n;
		int rank = 0;

		p += strspn(p, " \t");
		n = strcspn(p, " \t\n");
		if (n == 0)
			break;
		if (n == 10 && memcmp(p, "PREEMPT_RT", 10) == 0)
			rank = 4;
		else if (n == 2 && memcmp(p, "RT", 2) == 0 && prev_preempt)
			rank = 4;	/* old -rt patches: "PREEMPT RT" */
		else if (n == 15 && memcmp(p, "PREEMPT_DYNAMIC", 15) == 0)
			rank = 3;
		else if (n == 12 && memcmp(p, "PREEMPT_LAZY", 12) == 0)
			rank = 2;
		else if (n == 7 && memcmp(p, "PREEMPT", 7) == 0)
			rank = 1;
		prev_preempt = n == 7 && memcmp(p, "PREEMPT", 7) == 0;
		if (rank > best)
			best = rank;
		p += n;
	}
	return names[best];
}

const char *pm_sysinfo_preemption(const json_t *config,
				  const char *uname_version)
{
	if (config) {
		/* RT kernels also select PREEMPTION (and may be dynamic). */
		if (config_is_y(config, "CONFIG_PREEMPT_RT") ||
		    config_is_y(config, "CONFIG_PREEMPT_RT_FULL"))
			return "rt";
		if (config_is_y(config, "CONFIG_PREEMPT_DYNAMIC"))
			return "dynamic";
		if (config_is_y(config, "CONFIG_PREEMPT"))
			return "full";
		if (config_is_y(config, "CONFIG_PREEMPT_LAZY"))
			return "lazy";
		if (config_is_y(config, "CONFIG_PREEMPT_VOLUNTARY"))
			return "voluntary";
		if (config_is_y(config, "CONFIG_PREEMPT_NONE"))
			return "none";
	}
	return preemption_from_uname(uname_version);
}

/*
 * "Linux version R (user@host) (gcc (GCC) 12.2.0, GNU ld ...) #1 ...":
 * the compiler is the first parenthesised group without an '@', before
 * the '#' of the build number (the date may have parentheses too).
 */
int pm_sysinfo_kernel_compiler(const char *proc_version, char *out, size_t len)
{
	const char *p = proc_version, *hash;

	if (!p)
		return -ENOENT;
	hash = strstr(p, " #");
	while ((p = strchr(p, '(')) != NULL && (!hash || p < hash)) {
		const char *s = p + 1, *q = s, *cut = NULL;
		int depth = 1;

		for (; *q && depth; q++) {
			if (*q == '(')
				depth++;
			else if (*q == ')')
				depth--;
			else if (*q == ',' && depth == 1 && !cut)
				cut = q;	/* ", GNU ld ..." since 5.8 */
		}
		if (depth)
			return -ENOENT;
		size_t n = (size_t)(q - 1 - s);

		if (!memchr(s, '@', n)) {
			if (cut)
				n = (size_t)(cut - s);
			while (n && isspace((unsigned char)s[n - 1]))
				n--;
			if (n == 0)
				return -ENOENT;
			if (n >= len)
				return -ERANGE;
			memcpy(out, s, n);
			out[n] = '\0';
			return 0;
		}
		p = q;
	}
	return -ENOENT;
}

/* The kernel treats '-' and '_' in parameter names alike. */
static bool param_name_eq(const char *a, size_t an, const char *b)
{
	size_t i;

	if (strlen(b) != an)
		return false;
	for (i = 0; i < an; i++) {
		char x = a[i] == '-' ? '_' : a[i], y = b[i] == '-' ? '_' : b[i];

		if (x != y)
			return false;
	}
	return true;
}

int pm_sysinfo_cmdline_param(const char *cmdline, const char *name,
			     char *out, size_t len)
{
	const char *p = cmdline;
	int ret = -ENOENT;

	while (p && *p) {
		const char *tok;
		bool quoted = false;
		size_t n;

		p += strspn(p, " \t\n");
		if (!*p)
			break;
		tok = p;
		for (; *p && (quoted || !isspace((unsigned char)*p)); p++)
			if (*p == '"')
				quoted = !quoted;
		n = (size_t)(p - tok);
		/* Everything after "--" belongs to init, not the kernel. */
		if (n == 2 && tok[0] == '-' && tok[1] == '-')
			break;

		/* Quotes may wrap the token or the value: drop them all. */
		char *t = pm_xmalloc(n + 1), *o = t, *eq;

		for (size_t i = 0; i < n; i++)
			if (tok[i] != '"')
				*o++ = tok[i];
		*o = '\0';
		eq = strchr(t, '=');
		if (param_name_eq(t, eq ? (size_t)(eq - t) : strlen(t), name)) {
			const char *v = eq ? eq + 1 : "";

			ret = strlen(v) < len ? 0 : -ERANGE;
			if (len)
				snprintf(out, len, "%s", v);
		}
		free(t);
	}
	return ret;
}

/* "0-3,8-11" -> 8. */
static long cpulist_count(const char *s)
{
	long count = 0;

	while (s && *s) {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (b >= a)
			count += b - a + 1;
		s = end;
		if (*s != ',')
			break;
		s++;
	}
	return count;
}

/* "32K" -> 32768 (sysfs cache sizes). */
static long long parse_size(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);

	if (end == s)
		return -1;
	switch (toupper((unsigned char)*end)) {
	case 'K': return v << 10;
	case 'M': return v << 20;
	case 'G': return v << 30;
	default: return v;
	}
}

const json_t *pm_sysinfo_get(const json_t *si, const char *dotted)
{
	const json_t *cur = si;
	const char *p = dotted;

	if (!si || !dotted)
		return NULL;
	while (cur && p) {
		const char *dot;
		char key[256];
		size_t n;

		/* "unavailable" maps dotted keys: a whole-rest match wins. */
		if (json_is_object(cur)) {
			const json_t *whole = json_object_get(cur, p);

			if (whole)
				return whole;
		}
		dot = strchr(p, '.');
		n = dot ? (size_t)(dot - p) : strlen(p);
		if (n == 0 || n >= sizeof(key))
			return NULL;
		memcpy(key, p, n);
		key[n] = '\0';
		if (json_is_object(cur)) {
			cur = json_object_get(cur, key);
		} else if (json_is_array(cur)) {
			char *end;
			unsigned long i = strtoul(key, &end, 10);

			if (*end || !isdigit((unsigned char)key[0]))
				return NULL;
			cur = json_array_get(cur, i);
		} else {
			return NULL;
		}
		p = dot ? dot + 1 : NULL;
	}
	return cur;
}

/* ------------------------------------------------------------------ */
/* Collection                                                          */
/* ------------------------------------------------------------------ */

struct ctx {
	json_t *unavail;	/* dotted key -> reason */
	struct utsname uts;
	bool have_uts;
	char *cmdline;		/* NULL if unreadable */
	int cmdline_err;
	json_t *cpuinfo;	/* first processor block, key -> value */
	int cpuinfo_err;
	json_t *config;		/* borrowed from the kernel object */
	long kptr_restrict, perf_paranoid;	/* -1: unknown */
};

static const char *leaf_key(const char *dotted)
{
	const char *dot = strrchr(dotted, '.');

	return dot ? dot + 1 : dotted;
}

/* obj[last part of dotted] = null, and record why. */
static void na(struct ctx *c, json_t *obj, const char *dotted,
	       const char *fmt, ...) __attribute__((format(printf, 4, 5)));
static void na(struct ctx *c, json_t *obj, const char *dotted,
	       const char *fmt, ...)
{
	va_list ap;
	char *why;

	va_start(ap, fmt);
	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	va_end(ap);
	if (obj)
		json_object_set_new(obj, leaf_key(dotted), json_null());
	json_object_set_new(c->unavail, dotted, json_string(why ? why : "?"));
	free(why);
}

/* One line explaining why a /proc or /sys file could not be read. */
static void file_reason(char *buf, size_t len, const char *path, int err)
{
	if (err == -ENOENT)
		snprintf(buf, len, "%s does not exist", path);
	else if (err == -EACCES || err == -EPERM)
		snprintf(buf, len, "%s is not readable by this user (run as root)",
			 path);
	else
		snprintf(buf, len, "%s: %s", path, strerror(-err));
}

/* obj[key] = first line of path (trimmed), or null with the reason. */
static int put_line(struct ctx *c, json_t *obj, const char *dotted,
		    const char *path, const char *hint)
{
	char buf[4096], why[512];
	int err = pm_read_line(path, buf, sizeof(buf));

	if (err) {
		file_reason(why, sizeof(why), path, err);
		na(c, obj, dotted, "%s%s%s", why, hint ? "; " : "",
		   hint ? hint : "");
		return err;
	}
	json_object_set_new(obj, leaf_key(dotted), json_string(pm_strtrim(buf)));
	return 0;
}

static int put_long(struct ctx *c, json_t *obj, const char *dotted,
		    const char *path, const char *hint, long *out)
{
	char why[512];
	long v;
	int err = pm_read_long(path, &v);

	if (err) {
		if (err == -EINVAL)
			snprintf(why, sizeof(why), "%s: not a number", path);
		else
			file_reason(why, sizeof(why), path, err);
		na(c, obj, dotted, "%s%s%s", why, hint ? "; " : "",
		   hint ? hint : "");
		return err;
	}
	json_object_set_new(obj, leaf_key(dotted), json_integer(v));
	if (out)
		*out = v;
	return 0;
}

/* Split on white space into a JSON array of strings. */
static json_t *word_array(const char *s)
{
	json_t *a = json_array();

	while (s && *s) {
		size_t n;

		s += strspn(s, " \t\n");
		n = strcspn(s, " \t\n");
		if (n)
			json_array_append_new(a, json_stringn(s, n));
		s += n;
	}
	return a;
}

/* The first processor block of /proc/cpuinfo as key -> value. */
static json_t *read_cpuinfo(int *err)
{
	char *text, *line;
	json_t *o;

	*err = pm_read_file("/proc/cpuinfo", &text, NULL);
	if (*err)
		return NULL;
	o = json_object();
	for (line = text; line && *line;) {
		char *end = strchr(line, '\n'), *colon;

		if (end)
			*end = '\0';
		if (!*pm_strtrim(line) && json_object_size(o))
			break;	/* blank line: end of the first processor */
		colon = strchr(line, ':');
		if (colon) {
			*colon = '\0';
			char *k = pm_strtrim(line), *v = pm_strtrim(colon + 1);

			if (*k && !json_object_get(o, k))
				json_object_set_new(o, k, json_string(v));
		}
		line = end ? end + 1 : NULL;
	}
	free(text);
	return o;
}

static const char *cpuinfo_str(struct ctx *c, const char *key)
{
	return json_string_value(json_object_get(c->cpuinfo, key));
}

static bool put_cpuinfo_str(struct ctx *c, json_t *obj, const char *dotted,
			    const char *key)
{
	const char *v = cpuinfo_str(c, key);

	if (v) {
		json_object_set_new(obj, leaf_key(dotted), json_string(v));
		return true;
	}
	if (!c->cpuinfo)
		na(c, obj, dotted, "/proc/cpuinfo: %s", strerror(-c->cpuinfo_err));
	else
		na(c, obj, dotted, "no \"%s\" line in /proc/cpuinfo", key);
	return false;
}

static void put_cpuinfo_int(struct ctx *c, json_t *obj, const char *dotted,
			    const char *key)
{
	const char *v = cpuinfo_str(c, key);
	char *end;
	long n;

	if (!v) {
		put_cpuinfo_str(c, obj, dotted, key);	/* records why */
		return;
	}
	n = strtol(v, &end, 0);
	if (end == v)
		na(c, obj, dotted, "/proc/cpuinfo \"%s\" is not a number: %s",
		   key, v);
	else
		json_object_set_new(obj, leaf_key(dotted), json_integer(n));
}

#ifdef HAVE_ZLIB
/* gunzip a file with zlib, at most max bytes of text (-EFBIG beyond):
 * no shell and no gzip found through PATH inside a measured process. */
static int read_gzip(const char *path, size_t max, char **out)
{
	size_t cap = 1 << 16, n = 0;
	char *buf;
	gzFile gz;
	int r, err = 0;

	gz = gzopen(path, "rbe");
	if (!gz)
		return errno ? -errno : -ENOMEM;
	buf = pm_xmalloc(cap);
	for (;;) {
		if (cap - n - 1 == 0) {
			if (n > max) {
				err = -EFBIG;
				break;
			}
			cap *= 2;
			buf = pm_xrealloc(buf, cap);
		}
		r = gzread(gz, buf + n, (unsigned)(cap - n - 1));
		if (r < 0) {
			int zerr;

			gzerror(gz, &zerr);
			err = zerr == Z_ERRNO ? -errno : -EBADMSG;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	gzclose(gz);
	if (!err && n > max)
		err = -EFBIG;
	if (!err && n == 0)
		err = -ENODATA;
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}
#endif

/* Kernel config text of the running kernel; *source names where from. */
static char *read_kernel_config(struct ctx *c, char *source, size_t srclen,
				char *why, size_t whylen)
{
	char *text = NULL, gz_why[256], boot[300];
	int err;

	if (access("/proc/config.gz", R_OK) == 0) {
#ifdef HAVE_ZLIB
		err = read_gzip("/proc/config.gz", PM_READ_MAX_CONFIG, &text);
		if (!err) {
			snprintf(source, srclen, "/proc/config.gz");
			return text;
		}
		snprintf(gz_why, sizeof(gz_why), "/proc/config.gz: %s",
			 err == -EFBIG ? "larger than 16 MiB uncompressed" :
			 err == -EBADMSG ? "not valid gzip data" : strerror(-err));
#else
		snprintf(gz_why, sizeof(gz_why), "/proc/config.gz not read: "
			 "pmbench was built without zlib (apt-get install zlib1g-dev)");
#endif
	} else if (errno == ENOENT) {
		snprintf(gz_why, sizeof(gz_why), "/proc/config.gz missing "
			 "(kernel without CONFIG_IKCONFIG_PROC; try modprobe configs)");
	} else {
		snprintf(gz_why, sizeof(gz_why), "/proc/config.gz: %s",
			 strerror(errno));
	}
	if (!c->have_uts) {
		snprintf(why, whylen, "%s", gz_why);
		return NULL;
	}
	snprintf(boot, sizeof(boot), "/boot/config-%s", c->uts.release);
	err = pm_read_file_max(boot, PM_READ_MAX_CONFIG, &text, NULL);
	if (!err) {
		snprintf(source, srclen, "%s", boot);
		return text;
	}
	snprintf(why, whylen, "%s, and %s %s", gz_why, boot,
		 err == -ENOENT ? "does not exist" : strerror(-err));
	return NULL;
}

/* Why /proc/kallsyms shows zeros, and what would fix it. */
static void kallsyms_hidden_reason(struct ctx *c, char *buf, size_t len)
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

static void put_text_size(struct ctx *c, json_t *k)
{
	static const char dotted[] = "kernel.text_size";
	struct ksyms ks = { 0 };
	char *line = NULL, why[512];
	size_t cap = 0;
	long long size;
	FILE *f;

	f = fopen("/proc/kallsyms", "re");
	if (!f) {
		if (errno == ENOENT)
			na(c, k, dotted, "/proc/kallsyms does not exist (kernel "
			   "built without CONFIG_KALLSYMS)");
		else
			na(c, k, dotted, "/proc/kallsyms: %s", strerror(errno));
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
		na(c, k, dotted, "%s", why);
	} else if (size < 0) {
		na(c, k, dotted, "_stext/_etext not found in /proc/kallsyms");
	} else {
		json_object_set_new(k, "text_size", json_integer(size));
	}
}

/* Mode a dynamic-preemption kernel boots in: preempt= or the config. */
static const char *preempt_boot_default(struct ctx *c, char *param,
					size_t len)
{
	if (c->cmdline && pm_sysinfo_cmdline_param(c->cmdline, "preempt",
						   param, len) == 0)
		return param;
	if (config_is_y(c->config, "CONFIG_PREEMPT_NONE"))
		return "none";
	if (config_is_y(c->config, "CONFIG_PREEMPT_VOLUNTARY"))
		return "voluntary";
	if (config_is_y(c->config, "CONFIG_PREEMPT_LAZY"))
		return "lazy";
	if (config_is_y(c->config, "CONFIG_PREEMPT"))
		return "full";
	return NULL;
}

static void put_preemption(struct ctx *c, json_t *k)
{
	const char *model = pm_sysinfo_preemption(c->config,
				c->have_uts ? c->uts.version : NULL);
	char *text, mode[32], param[32];
	const char *def;
	int err;

	if (!model) {
		na(c, k, "kernel.preemption", "kernel config unavailable and "
		   "uname -v names no preemption model (none or voluntary)");
		return;
	}
	json_object_set_new(k, "preemption", json_string(model));
	if (strcmp(model, "dynamic") != 0)
		return;
	/* The mode can change at run time; only debugfs tells the truth. */
	err = pm_read_file(DEBUGFS_PREEMPT, &text, NULL);
	if (!err) {
		err = pick_marked(text, '(', ')', mode, sizeof(mode));
		free(text);
		if (!err) {
			json_object_set_new(k, "preemption_dynamic",
					    json_string(mode));
			return;
		}
	}
	def = preempt_boot_default(c, param, sizeof(param));
	char tail[96] = "";

	if (def)
		snprintf(tail, sizeof(tail), "; the boot default is \"%s\"", def);
	if (err == -ENOENT && access("/sys/kernel/debug/sched", F_OK) != 0)
		na(c, k, "kernel.preemption_dynamic", "debugfs is not mounted "
		   "(mount -t debugfs none /sys/kernel/debug as root)%s", tail);
	else if (err == -EACCES)
		na(c, k, "kernel.preemption_dynamic", DEBUGFS_PREEMPT
		   " is readable only by root%s", tail);
	else if (err == -EPERM)
		/* Lockdown refuses writable debugfs files even to root. */
		na(c, k, "kernel.preemption_dynamic", "kernel lockdown forbids "
		   "reading " DEBUGFS_PREEMPT ", root included%s", tail);
	else
		na(c, k, "kernel.preemption_dynamic", DEBUGFS_PREEMPT
		   ": %s%s", err == -ENOENT ? "no selected mode" : strerror(-err),
		   tail);
}

static bool cpu_has_flag(struct ctx *c, const char *flag)
{
	const char *flags = cpuinfo_str(c, "flags");
	size_t n = strlen(flag);

	while (flags && *flags) {
		size_t m;

		flags += strspn(flags, " ");
		m = strcspn(flags, " ");
		if (m == n && memcmp(flags, flag, n) == 0)
			return true;
		flags += m;
	}
	return false;
}

static void put_page_table_levels(struct ctx *c, json_t *k)
{
	static const char dotted[] = "kernel.page_table_levels";
	const char *m = c->have_uts ? c->uts.machine : "";
	const char *v;

	if (strcmp(m, "x86_64") == 0) {
		/* The kernel clears la57 when it does not use 5 levels. */
		if (!cpuinfo_str(c, "flags"))
			na(c, k, dotted, "no cpu flags in /proc/cpuinfo (la57 "
			   "unknown)");
		else
			json_object_set_new(k, "page_table_levels",
				json_integer(cpu_has_flag(c, "la57") ? 5 : 4));
		return;
	}
	if (m[0] == 'i' && strcmp(m + 2, "86") == 0) {
		if (!c->config)
			na(c, k, dotted, "kernel config unavailable "
			   "(CONFIG_X86_PAE unknown)");
		else
			json_object_set_new(k, "page_table_levels",
				json_integer(config_is_y(c->config,
						"CONFIG_X86_PAE") ? 3 : 2));
		return;
	}
	v = json_string_value(json_object_get(c->config, "CONFIG_PGTABLE_LEVELS"));
	if (v)
		json_object_set_new(k, "page_table_levels",
				    json_integer(strtol(v, NULL, 10)));
	else
		na(c, k, dotted, c->config ? "CONFIG_PGTABLE_LEVELS not in the "
		   "kernel config" : "kernel config unavailable");
}

static json_t *collect_kernel(struct ctx *c)
{
	json_t *k = json_object(), *config = NULL;
	char *text, why[1024], buf[512], source[320];
	int err;

	if (c->have_uts) {
		json_object_set_new(k, "release", json_string(c->uts.release));
		json_object_set_new(k, "version", json_string(c->uts.version));
		json_object_set_new(k, "machine", json_string(c->uts.machine));
	} else {
		na(c, k, "kernel.release", "uname: %s", strerror(errno));
		na(c, k, "kernel.version", "uname failed");
		na(c, k, "kernel.machine", "uname failed");
	}

	err = pm_read_file("/proc/version", &text, NULL);
	if (!err) {
		json_object_set_new(k, "proc_version",
				    json_string(pm_strtrim(text)));
		if (pm_sysinfo_kernel_compiler(text, buf, sizeof(buf)) == 0)
			json_object_set_new(k, "compiler", json_string(buf));
		else
			na(c, k, "kernel.compiler", "no compiler found in "
			   "/proc/version");
		free(text);
	} else {
		file_reason(why, sizeof(why), "/proc/version", err);
		na(c, k, "kernel.proc_version", "%s", why);
		na(c, k, "kernel.compiler", "%s", why);
	}

	if (c->cmdline) {
		json_object_set_new(k, "cmdline", json_string(c->cmdline));
	} else {
		file_reason(why, sizeof(why), "/proc/cmdline", c->cmdline_err);
		na(c, k, "kernel.cmdline", "%s", why);
	}

	text = read_kernel_config(c, source, sizeof(source), why, sizeof(why));
	if (text) {
		config = pm_sysinfo_parse_config(text);
		free(text);
		json_object_set_new(k, "config_source", json_string(source));
		json_object_set_new(k, "config", config);
	} else {
		na(c, k, "kernel.config_source", "%s", why);
		na(c, k, "kernel.config", "%s", why);
	}
	c->config = config;

	put_text_size(c, k);
	put_preemption(c, k);

	const char *hz = json_string_value(json_object_get(config, "CONFIG_HZ"));

	if (hz)
		json_object_set_new(k, "hz", json_integer(strtol(hz, NULL, 10)));
	else
		na(c, k, "kernel.hz", config ? "CONFIG_HZ not in the kernel "
		   "config" : "kernel config unavailable");

	put_page_table_levels(c, k);

	if (config)
		json_object_set_new(k, "paravirt", json_boolean(
			config_is_y(config, "CONFIG_PARAVIRT")));
	else
		na(c, k, "kernel.paravirt", "kernel config unavailable");

	put_long(c, k, "kernel.tainted", "/proc/sys/kernel/tainted", NULL, NULL);
	return k;
}

/* One entry of cpu.caches from .../cache/indexN. */
static json_t *collect_cache(struct ctx *c, const char *dir, size_t idx)
{
	static const struct {
		const char *key, *file;
	} ints[] = {
		{ "level", "level" },
		{ "line", "coherency_line_size" },
		{ "ways", "ways_of_associativity" },
	};
	json_t *o = json_object();
	char path[512], dotted[64], buf[128];
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(ints); i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, ints[i].file);
		snprintf(dotted, sizeof(dotted), "cpu.caches.%zu.%s", idx,
			 ints[i].key);
		put_long(c, o, dotted, path, NULL, NULL);
		if (i == 0) {
			/* Keep the documented key order. */
			snprintf(path, sizeof(path), "%s/type", dir);
			snprintf(dotted, sizeof(dotted), "cpu.caches.%zu.type", idx);
			put_line(c, o, dotted, path, NULL);
			snprintf(path, sizeof(path), "%s/size", dir);
			snprintf(dotted, sizeof(dotted), "cpu.caches.%zu.size", idx);
			if (pm_read_line(path, buf, sizeof(buf)) == 0 &&
			    parse_size(buf) >= 0)
				json_object_set_new(o, "size",
						    json_integer(parse_size(buf)));
			else
				na(c, o, dotted, "%s unreadable", path);
		}
	}
	snprintf(path, sizeof(path), "%s/shared_cpu_list", dir);
	snprintf(dotted, sizeof(dotted), "cpu.caches.%zu.shared_cpu_list", idx);
	put_line(c, o, dotted, path, NULL);
	return o;
}

static int select_index(const struct dirent *d)
{
	return strncmp(d->d_name, "index", 5) == 0;
}

static void put_caches(struct ctx *c, json_t *cpu)
{
	static const char dir[] = SYS_CPU "/cpu0/cache";
	struct dirent **list;
	char path[300];
	json_t *a;
	int n, i;

	/* versionsort: index10 after index9. */
	n = scandir(dir, &list, select_index, versionsort);
	if (n <= 0) {
		na(c, cpu, "cpu.caches", "%s: %s", dir,
		   n == 0 ? "no index* entries" : strerror(errno));
		return;
	}
	a = json_array();
	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s", dir, list[i]->d_name);
		json_array_append_new(a, collect_cache(c, path, json_array_size(a)));
		free(list[i]);
	}
	free(list);
	json_object_set_new(cpu, "caches", a);
}

static json_t *collect_cpu(struct ctx *c)
{
	json_t *cpu = json_object();
	char buf[256], why[512];
	const char *v;
	long khz;
	int err;

	put_cpuinfo_str(c, cpu, "cpu.vendor", "vendor_id");
	put_cpuinfo_int(c, cpu, "cpu.family", "cpu family");
	put_cpuinfo_int(c, cpu, "cpu.model", "model");
	put_cpuinfo_int(c, cpu, "cpu.stepping", "stepping");
	put_cpuinfo_str(c, cpu, "cpu.model_name", "model name");
	put_cpuinfo_str(c, cpu, "cpu.microcode", "microcode");

	/* arm64 calls them "Features". */
	v = cpuinfo_str(c, "flags");
	if (!v)
		v = cpuinfo_str(c, "Features");
	if (v)
		json_object_set_new(cpu, "flags", word_array(v));
	else
		put_cpuinfo_str(c, cpu, "cpu.flags", "flags");
	if ((v = cpuinfo_str(c, "bugs")) != NULL)
		json_object_set_new(cpu, "bugs", word_array(v));
	else
		put_cpuinfo_str(c, cpu, "cpu.bugs", "bugs");

	long online = sysconf(_SC_NPROCESSORS_ONLN);

	if (online > 0)
		json_object_set_new(cpu, "online", json_integer(online));
	else
		na(c, cpu, "cpu.online", "sysconf(_SC_NPROCESSORS_ONLN) failed");
	err = pm_read_line(SYS_CPU "/possible", buf, sizeof(buf));
	if (!err && cpulist_count(buf) > 0) {
		json_object_set_new(cpu, "possible",
				    json_integer(cpulist_count(buf)));
	} else {
		file_reason(why, sizeof(why), SYS_CPU "/possible", err ? err : -EINVAL);
		na(c, cpu, "cpu.possible", "%s", why);
	}

	/* Without a cpufreq driver say so once, not as a missing file. */
	bool cpufreq = access(SYS_CPU "/cpu0/cpufreq", F_OK) == 0;
	static const char no_cpufreq[] = "no cpufreq driver (" SYS_CPU
		"/cpu0/cpufreq is missing; usual in virtual machines)";

	if (cpufreq)
		put_line(c, cpu, "cpu.governor",
			 SYS_CPU "/cpu0/cpufreq/scaling_governor", NULL);
	else
		na(c, cpu, "cpu.governor", "%s", no_cpufreq);

	/* Whole MHz: the fraction is noise and prints as 2596.1439999999998. */
	v = cpuinfo_str(c, "cpu MHz");
	if (v && strtod(v, NULL) > 0) {
		json_object_set_new(cpu, "cur_mhz",
				    json_real((double)(long long)(strtod(v, NULL) + 0.5)));
	} else if (pm_read_long(SYS_CPU "/cpu0/cpufreq/scaling_cur_freq",
				&khz) == 0) {
		json_object_set_new(cpu, "cur_mhz",
				    json_real((double)((khz + 500) / 1000)));
	} else {
		na(c, cpu, "cpu.cur_mhz", "no \"cpu MHz\" in /proc/cpuinfo and %s",
		   cpufreq ? "no scaling_cur_freq" : no_cpufreq);
	}
	if (!cpufreq)
		na(c, cpu, "cpu.max_mhz", "%s", no_cpufreq);
	else if (pm_read_long(SYS_CPU "/cpu0/cpufreq/cpuinfo_max_freq", &khz) == 0)
		json_object_set_new(cpu, "max_mhz",
				    json_real((double)((khz + 500) / 1000)));
	else
		put_long(c, cpu, "cpu.max_mhz",
			 SYS_CPU "/cpu0/cpufreq/cpuinfo_max_freq", NULL, NULL);

	put_line(c, cpu, "cpu.smt", SYS_CPU "/smt/control",
		 "kernel without CONFIG_HOTPLUG_SMT");
	put_caches(c, cpu);
	return cpu;
}

static int select_visible(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static void put_vulnerabilities(struct ctx *c, json_t *si)
{
	static const char dir[] = SYS_CPU "/vulnerabilities";
	struct dirent **list;
	char path[512], buf[1024];
	json_t *o;
	int n, i;

	n = scandir(dir, &list, select_visible, alphasort);
	if (n < 0) {
		na(c, si, "vulnerabilities", "%s: %s (kernel older than 4.15?)",
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
	json_object_set_new(si, "vulnerabilities", o);
}

static void put_mitigations(struct ctx *c, json_t *si)
{
	char buf[256];

	if (!c->cmdline)
		na(c, si, "mitigations", "/proc/cmdline unreadable");
	else if (pm_sysinfo_cmdline_param(c->cmdline, "mitigations", buf,
					  sizeof(buf)) == 0)
		json_object_set_new(si, "mitigations", json_string(buf));
	else
		json_object_set_new(si, "mitigations", json_string("auto"));
}

static json_t *collect_clocksource(struct ctx *c)
{
	json_t *o = json_object();
	char buf[1024], why[512];
	int err;

	put_line(c, o, "clocksource.current",
		 SYS_CLOCKSOURCE "/current_clocksource", NULL);
	err = pm_read_line(SYS_CLOCKSOURCE "/available_clocksource", buf,
			   sizeof(buf));
	if (!err) {
		json_object_set_new(o, "available", word_array(buf));
	} else {
		file_reason(why, sizeof(why),
			    SYS_CLOCKSOURCE "/available_clocksource", err);
		na(c, o, "clocksource.available", "%s", why);
	}
	return o;
}

static json_t *collect_hypervisor(struct ctx *c)
{
	json_t *o = json_object();
	static const char no_dmi[] = "no DMI/SMBIOS tables (/sys/class/dmi/id "
		"is missing; usual in microVMs and on non-x86)";
	bool dmi = access("/sys/class/dmi/id", F_OK) == 0;
#if defined(__x86_64__) || defined(__i386__)
	unsigned int eax, ebx, ecx, edx;
	bool present = false;

	if (__get_cpuid_max(0, NULL) >= 1) {
		__cpuid(1, eax, ebx, ecx, edx);
		present = (ecx >> 31) & 1;
	}
	json_object_set_new(o, "present", json_boolean(present));
	if (present) {
		char sig[13];

		/* Leaf 0x40000000 exists whenever the hypervisor bit is set. */
		__cpuid(0x40000000, eax, ebx, ecx, edx);
		memcpy(sig, &ebx, 4);
		memcpy(sig + 4, &ecx, 4);
		memcpy(sig + 8, &edx, 4);
		sig[12] = '\0';
		for (int i = 0; i < 12; i++)
			if (sig[i] && !isprint((unsigned char)sig[i]))
				sig[i] = '?';
		if (*pm_strtrim(sig))
			json_object_set_new(o, "vendor", json_string(pm_strtrim(sig)));
		else
			na(c, o, "hypervisor.vendor", "CPUID 0x40000000 gives an "
			   "empty signature");
	} else {
		na(c, o, "hypervisor.vendor", "no hypervisor (CPUID.1:ECX bit 31 "
		   "is clear)");
	}
#else
	char buf[128];

	if (pm_read_line("/sys/hypervisor/type", buf, sizeof(buf)) == 0) {
		json_object_set_new(o, "present", json_true());
		json_object_set_new(o, "vendor", json_string(pm_strtrim(buf)));
	} else {
		json_object_set_new(o, "present", json_false());
		na(c, o, "hypervisor.vendor", "/sys/hypervisor/type does not "
		   "exist (no hypervisor detected)");
	}
#endif
	if (dmi) {
		put_line(c, o, "hypervisor.dmi_vendor",
			 "/sys/class/dmi/id/sys_vendor", NULL);
		put_line(c, o, "hypervisor.dmi_product",
			 "/sys/class/dmi/id/product_name", NULL);
	} else {
		na(c, o, "hypervisor.dmi_vendor", "%s", no_dmi);
		na(c, o, "hypervisor.dmi_product", "%s", no_dmi);
	}
	return o;
}

static int select_node(const struct dirent *d)
{
	return strncmp(d->d_name, "node", 4) == 0 &&
	       isdigit((unsigned char)d->d_name[4]);
}

static json_t *collect_memory(struct ctx *c)
{
	json_t *o = json_object();
	struct dirent **list;
	char *text, *p;
	int err, n;

	err = pm_read_file("/proc/meminfo", &text, NULL);
	if (!err) {
		p = strstr(text, "MemTotal:");
		if (p)
			json_object_set_new(o, "total_kb", json_integer(
				strtoll(p + 9, NULL, 10)));
		else
			na(c, o, "memory.total_kb", "no MemTotal in /proc/meminfo");
		free(text);
	} else {
		na(c, o, "memory.total_kb", "/proc/meminfo: %s", strerror(-err));
	}

	n = scandir("/sys/devices/system/node", &list, select_node, NULL);
	if (n > 0) {
		for (int i = 0; i < n; i++)
			free(list[i]);
		free(list);
		json_object_set_new(o, "numa_nodes", json_integer(n));
	} else if (n < 0 && errno == ENOENT) {
		/* Built without CONFIG_NUMA: all memory is one node. */
		json_object_set_new(o, "numa_nodes", json_integer(1));
	} else {
		if (n == 0)
			free(list);
		na(c, o, "memory.numa_nodes", "/sys/devices/system/node: %s",
		   n == 0 ? "no node* entries" : strerror(errno));
	}
	return o;
}

static json_t *collect_thp(struct ctx *c)
{
	static const char *const files[] = { "enabled", "defrag", "shmem_enabled" };
	json_t *o = json_object();
	char path[256], dotted[64], buf[256], sel[64], why[512];
	size_t i;
	int err;

	for (i = 0; i < PM_ARRAY_SIZE(files); i++) {
		snprintf(path, sizeof(path), SYS_THP "/%s", files[i]);
		snprintf(dotted, sizeof(dotted), "thp.%s", files[i]);
		err = pm_read_line(path, buf, sizeof(buf));
		if (!err && pm_sysinfo_bracketed(buf, sel, sizeof(sel)) == 0) {
			json_object_set_new(o, files[i], json_string(sel));
		} else if (err) {
			file_reason(why, sizeof(why), path, err);
			na(c, o, dotted, "%s%s", why, err == -ENOENT ?
			   " (kernel without CONFIG_TRANSPARENT_HUGEPAGE)" : "");
		} else {
			na(c, o, dotted, "%s: no [selected] value in \"%s\"", path,
			   buf);
		}
	}
	return o;
}

static json_t *collect_perf(struct ctx *c)
{
	json_t *o = json_object();

	put_long(c, o, "perf.perf_event_paranoid",
		 "/proc/sys/kernel/perf_event_paranoid",
		 "kernel without CONFIG_PERF_EVENTS", NULL);
	put_long(c, o, "perf.kptr_restrict", "/proc/sys/kernel/kptr_restrict",
		 NULL, NULL);
	put_long(c, o, "perf.nmi_watchdog", "/proc/sys/kernel/nmi_watchdog",
		 "kernel without a hard lockup detector", NULL);
	put_long(c, o, "perf.perf_event_max_sample_rate",
		 "/proc/sys/kernel/perf_event_max_sample_rate",
		 "kernel without CONFIG_PERF_EVENTS", NULL);
	return o;
}

json_t *pm_sysinfo_collect(void)
{
	struct ctx c = { .kptr_restrict = -1, .perf_paranoid = -1 };
	json_t *si = json_object(), *pm;
	char *text;

	c.unavail = json_object();
	c.have_uts = uname(&c.uts) == 0;
	c.cpuinfo = read_cpuinfo(&c.cpuinfo_err);
	c.cmdline_err = pm_read_file("/proc/cmdline", &text, NULL);
	if (!c.cmdline_err) {
		c.cmdline = pm_xstrdup(pm_strtrim(text));
		free(text);
	}
	/* Needed early: they explain why kallsyms shows zeros. */
	pm_read_long("/proc/sys/kernel/kptr_restrict", &c.kptr_restrict);
	pm_read_long("/proc/sys/kernel/perf_event_paranoid", &c.perf_paranoid);

	if (c.have_uts)
		json_object_set_new(si, "hostname", json_string(c.uts.nodename));
	else
		na(&c, si, "hostname", "uname: %s", strerror(errno));
	json_object_set_new(si, "kernel", collect_kernel(&c));
	json_object_set_new(si, "cpu", collect_cpu(&c));
	put_vulnerabilities(&c, si);
	put_mitigations(&c, si);
	json_object_set_new(si, "clocksource", collect_clocksource(&c));
	json_object_set_new(si, "hypervisor", collect_hypervisor(&c));
	json_object_set_new(si, "memory", collect_memory(&c));
	json_object_set_new(si, "thp", collect_thp(&c));
	json_object_set_new(si, "perf", collect_perf(&c));
#ifdef __GLIBC__
	text = pm_xasprintf("glibc %s", gnu_get_libc_version());
	json_object_set_new(si, "libc", json_string(text));
	free(text);
#else
	na(&c, si, "libc", "not glibc: the C library has no version query");
#endif
	pm = json_object();
	json_object_set_new(pm, "version", json_string(PACKAGE_VERSION));
#if defined(__clang__) || !defined(__GNUC__)
	json_object_set_new(pm, "compiler", json_string(__VERSION__));
#else
	json_object_set_new(pm, "compiler", json_string("gcc " __VERSION__));
#endif
	json_object_set_new(si, "pmbench", pm);
	json_object_set_new(si, "unavailable", c.unavail);

	json_decref(c.cpuinfo);
	free(c.cmdline);
	return si;
}

/* ------------------------------------------------------------------ */
/* Text report                                                         */
/* ------------------------------------------------------------------ */

#define LABEL_WIDTH 20
#define WRAP_COLUMN 79

static const char *reason_of(const json_t *si, const char *dotted)
{
	const char *r = json_string_value(
		json_object_get(json_object_get(si, "unavailable"), dotted));

	return r ? r : "no reason recorded";
}

/* "  label   text", wrapping text at spaces under the value column:
 * a row of the shared table printer with the label column fixed. */
static void row_text_w(FILE *f, int width, const char *label, const char *text)
{
	struct pm_table *t = pm_table_new();

	pm_table_no_head(t);
	pm_table_indent(t, 2);
	pm_table_wrap_at(t, WRAP_COLUMN);
	pm_table_add_col(t, "", NULL, PM_COL_LEFT);
	pm_table_add_col(t, "", NULL, PM_COL_LEFT | PM_COL_WRAP);
	/* the table puts two blanks between columns; the label had one */
	pm_table_min_width(t, 0, (size_t)(width > 0 ? width - 1 : 0));
	pm_table_row(t, NULL);
	pm_table_cell(t, 0, label, NULL);
	pm_table_cell(t, 1, text, NULL);
	pm_table_print(t, f, PM_TABLE_TEXT);
	pm_table_free(t);
}

static void row_text(FILE *f, const char *label, const char *text)
{
	row_text_w(f, LABEL_WIDTH, label, text);
}

static void row_fmt(FILE *f, const char *label, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
static void row_fmt(FILE *f, const char *label, const char *fmt, ...)
{
	va_list ap;
	char *s;

	va_start(ap, fmt);
	if (vasprintf(&s, fmt, ap) < 0)
		s = NULL;
	va_end(ap);
	row_text(f, label, s ? s : "?");
	free(s);
}

/* Prints "unavailable: why" and returns true when the item is null. */
static bool row_null(FILE *f, const json_t *si, const char *label,
		     const char *dotted)
{
	const json_t *v = pm_sysinfo_get(si, dotted);

	if (v && !json_is_null(v))
		return false;
	if (v)
		row_fmt(f, label, "unavailable: %s", reason_of(si, dotted));
	return true;
}

/* Generic row for a dotted key; absent keys (old results) are skipped. */
static void row(FILE *f, const json_t *si, const char *label,
		const char *dotted)
{
	const json_t *v = pm_sysinfo_get(si, dotted);
	size_t i;

	if (!v || row_null(f, si, label, dotted))
		return;
	switch (json_typeof(v)) {
	case JSON_STRING:
		row_text(f, label, *json_string_value(v) ?
			 json_string_value(v) : "(empty)");
		break;
	case JSON_INTEGER:
		row_fmt(f, label, "%" JSON_INTEGER_FORMAT, json_integer_value(v));
		break;
	case JSON_REAL:
		row_fmt(f, label, "%.0f", json_real_value(v));
		break;
	case JSON_TRUE:
	case JSON_FALSE:
		row_text(f, label, json_is_true(v) ? "yes" : "no");
		break;
	case JSON_ARRAY: {
		char *s = pm_xstrdup("");

		for (i = 0; i < json_array_size(v); i++) {
			const char *w = json_string_value(json_array_get(v, i));
			char *t = pm_xasprintf("%s%s%s", s, i ? " " : "",
					       w ? w : "?");

			free(s);
			s = t;
		}
		row_text(f, label, *s ? s : "(none)");
		free(s);
		break;
	}
	default:
		row_text(f, label, "?");
		break;
	}
}

static const char *str_at(const json_t *si, const char *dotted)
{
	return json_string_value(pm_sysinfo_get(si, dotted));
}

static bool int_at(const json_t *si, const char *dotted, long long *out)
{
	const json_t *v = pm_sysinfo_get(si, dotted);

	if (!json_is_integer(v))
		return false;
	*out = json_integer_value(v);
	return true;
}

static void fmt_bytes(char *buf, size_t len, long long b)
{
	if (b >= (1LL << 30) && b % (1LL << 30) == 0)
		snprintf(buf, len, "%lld GiB", b >> 30);
	else if (b >= (1LL << 30))
		snprintf(buf, len, "%.1f GiB", b / (double)(1LL << 30));
	else if (b >= (1LL << 20) && b % (1LL << 20) == 0)
		snprintf(buf, len, "%lld MiB", b >> 20);
	else if (b >= (1LL << 20))
		snprintf(buf, len, "%.1f MiB", b / (double)(1LL << 20));
	else if (b >= 1024 && b % 1024 == 0)
		snprintf(buf, len, "%lld KiB", b >> 10);
	else
		snprintf(buf, len, "%lld B", b);
}

static void print_kernel(const json_t *si, FILE *f)
{
	const json_t *cfg = pm_sysinfo_get(si, "kernel.config");
	char size[32];
	long long n;

	fprintf(f, "kernel\n");
	row(f, si, "release", "kernel.release");
	row(f, si, "version", "kernel.version");
	row(f, si, "machine", "kernel.machine");
	row(f, si, "compiler", "kernel.compiler");
	row(f, si, "cmdline", "kernel.cmdline");
	if (json_is_object(cfg))
		row_fmt(f, "config", "%zu options from %s", json_object_size(cfg),
			str_at(si, "kernel.config_source") ?
			str_at(si, "kernel.config_source") : "?");
	else
		row_null(f, si, "config", "kernel.config");
	if (int_at(si, "kernel.text_size", &n)) {
		fmt_bytes(size, sizeof(size), n);
		row_fmt(f, "text size", "%s (%lld bytes)", size, n);
	} else {
		row_null(f, si, "text size", "kernel.text_size");
	}
	row(f, si, "preemption", "kernel.preemption");
	row(f, si, "preemption mode", "kernel.preemption_dynamic");
	row(f, si, "hz", "kernel.hz");
	row(f, si, "page table levels", "kernel.page_table_levels");
	row(f, si, "paravirt", "kernel.paravirt");
	row(f, si, "tainted", "kernel.tainted");
}

static void print_caches(const json_t *si, FILE *f)
{
	const json_t *a = pm_sysinfo_get(si, "cpu.caches");
	const char *label = "caches";
	size_t i;

	if (!json_is_array(a)) {
		row_null(f, si, "caches", "cpu.caches");
		return;
	}
	for (i = 0; i < json_array_size(a); i++) {
		const json_t *c = json_array_get(a, i);
		const char *type = json_string_value(json_object_get(c, "type"));
		const char *shared = json_string_value(
			json_object_get(c, "shared_cpu_list"));
		json_int_t level = json_integer_value(json_object_get(c, "level"));
		json_int_t line = json_integer_value(json_object_get(c, "line"));
		json_int_t ways = json_integer_value(json_object_get(c, "ways"));
		char size[32];

		fmt_bytes(size, sizeof(size),
			  json_integer_value(json_object_get(c, "size")));
		row_fmt(f, label, "L%" JSON_INTEGER_FORMAT "%s %s, %"
			JSON_INTEGER_FORMAT "-way, %" JSON_INTEGER_FORMAT
			" B lines, cpus %s", level,
			!type ? "?" : !strcmp(type, "Data") ? "d" :
			!strcmp(type, "Instruction") ? "i" : "",
			size, ways, line, shared ? shared : "?");
		label = "";
	}
}

static void print_cpu(const json_t *si, FILE *f)
{
	long long fam, model, step, online, possible;

	fprintf(f, "cpu\n");
	row(f, si, "model name", "cpu.model_name");
	if (int_at(si, "cpu.family", &fam) && int_at(si, "cpu.model", &model) &&
	    int_at(si, "cpu.stepping", &step))
		row_fmt(f, "vendor", "%s, family %lld, model %lld, stepping %lld",
			str_at(si, "cpu.vendor") ? str_at(si, "cpu.vendor") : "?",
			fam, model, step);
	else
		row(f, si, "vendor", "cpu.vendor");
	row(f, si, "microcode", "cpu.microcode");
	if (int_at(si, "cpu.online", &online) &&
	    int_at(si, "cpu.possible", &possible))
		row_fmt(f, "cpus", "%lld online, %lld possible", online, possible);
	else {
		row(f, si, "cpus online", "cpu.online");
		row(f, si, "cpus possible", "cpu.possible");
	}
	row(f, si, "smt", "cpu.smt");
	print_caches(si, f);
	row(f, si, "flags", "cpu.flags");
	row(f, si, "bugs", "cpu.bugs");
}

static void print_mitigations(const json_t *si, FILE *f)
{
	const json_t *v = pm_sysinfo_get(si, "vulnerabilities");
	const char *name;
	const json_t *text;
	int width = LABEL_WIDTH;

	fprintf(f, "mitigations\n");
	json_object_foreach((json_t *)v, name, text)
		if ((int)strlen(name) > width)
			width = (int)strlen(name);
	if (pm_sysinfo_get(si, "mitigations")) {
		if (str_at(si, "mitigations"))
			row_text_w(f, width, "mitigations=",
				   str_at(si, "mitigations"));
		else
			row_null(f, si, "mitigations=", "mitigations");
	}
	if (!json_is_object(v)) {
		row_null(f, si, "vulnerabilities", "vulnerabilities");
		return;
	}
	json_object_foreach((json_t *)v, name, text)
		row_text_w(f, width, name, json_string_value(text) ?
			   json_string_value(text) : "?");
}

static void print_clocks(const json_t *si, FILE *f)
{
	fprintf(f, "clocks\n");
	row(f, si, "clocksource", "clocksource.current");
	row(f, si, "available", "clocksource.available");
	row(f, si, "cpufreq governor", "cpu.governor");
	row(f, si, "current MHz", "cpu.cur_mhz");
	row(f, si, "max MHz", "cpu.max_mhz");
}

static void print_memory(const json_t *si, FILE *f)
{
	long long kb;
	char size[32];

	fprintf(f, "memory\n");
	if (int_at(si, "memory.total_kb", &kb)) {
		fmt_bytes(size, sizeof(size), kb * 1024);
		row_fmt(f, "total", "%s (%lld kB)", size, kb);
	} else {
		row_null(f, si, "total", "memory.total_kb");
	}
	row(f, si, "numa nodes", "memory.numa_nodes");
	row(f, si, "thp enabled", "thp.enabled");
	row(f, si, "thp defrag", "thp.defrag");
	row(f, si, "thp shmem", "thp.shmem_enabled");
}

static void print_host(const json_t *si, FILE *f)
{
	const json_t *present = pm_sysinfo_get(si, "hypervisor.present");

	fprintf(f, "host\n");
	row(f, si, "hostname", "hostname");
	if (json_is_false(present))
		row_text(f, "hypervisor", "none");
	else
		row(f, si, "hypervisor", "hypervisor.vendor");
	row(f, si, "dmi vendor", "hypervisor.dmi_vendor");
	row(f, si, "dmi product", "hypervisor.dmi_product");
	row(f, si, "libc", "libc");
	if (str_at(si, "pmbench.version"))
		row_fmt(f, "pmbench", "%s (%s)", str_at(si, "pmbench.version"),
			str_at(si, "pmbench.compiler") ?
			str_at(si, "pmbench.compiler") : "?");
}

void pm_sysinfo_print(const json_t *si, FILE *f)
{
	if (!json_is_object(si))
		return;
	print_host(si, f);
	print_kernel(si, f);
	print_cpu(si, f);
	print_mitigations(si, f);
	print_clocks(si, f);
	print_memory(si, f);
	fprintf(f, "perf access\n");
	row(f, si, "perf_event_paranoid", "perf.perf_event_paranoid");
	row(f, si, "kptr_restrict", "perf.kptr_restrict");
	row(f, si, "nmi_watchdog", "perf.nmi_watchdog");
	row(f, si, "max sample rate", "perf.perf_event_max_sample_rate");
}
