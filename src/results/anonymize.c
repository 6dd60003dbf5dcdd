/*
 * --anonymize (anonymize.h): what identifies a person or a machine out,
 * what explains a difference in.
 */
#include "config.h"

#include <ctype.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "results/anonymize.h"
#include "sysinfo/sysinfo.h"

/* ---- strings: home directories and user names ---- */

struct names {
	char *home[4];		/* home directories of this user, longest first */
	size_t nhome;
	char *user[4];		/* login names */
	size_t nuser;
};

static void add_unique(char **v, size_t *n, size_t max, const char *s)
{
	size_t i;

	if (!s || !*s || *n >= max)
		return;
	for (i = 0; i < *n; i++)
		if (!strcmp(v[i], s))
			return;
	v[(*n)++] = pm_xstrdup(s);
}

static void names_init(struct names *nm)
{
	const struct passwd *pw = getpwuid(getuid());
	const char *sudo = getenv("SUDO_USER");
	size_t i, j;

	memset(nm, 0, sizeof(*nm));
	if (getenv("HOME") && strcmp(getenv("HOME"), "/"))
		add_unique(nm->home, &nm->nhome, PM_ARRAY_SIZE(nm->home), getenv("HOME"));
	if (pw && pw->pw_dir && strcmp(pw->pw_dir, "/"))
		add_unique(nm->home, &nm->nhome, PM_ARRAY_SIZE(nm->home), pw->pw_dir);
	if (sudo && (pw = getpwnam(sudo)) && pw->pw_dir && strcmp(pw->pw_dir, "/"))
		add_unique(nm->home, &nm->nhome, PM_ARRAY_SIZE(nm->home), pw->pw_dir);
	/* the longest first: /home/a/b before /home/a */
	for (i = 0; i < nm->nhome; i++)
		for (j = i + 1; j < nm->nhome; j++)
			if (strlen(nm->home[j]) > strlen(nm->home[i])) {
				char *t = nm->home[i];

				nm->home[i] = nm->home[j];
				nm->home[j] = t;
			}
	pw = getpwuid(getuid());
	add_unique(nm->user, &nm->nuser, PM_ARRAY_SIZE(nm->user), pw ? pw->pw_name : NULL);
	add_unique(nm->user, &nm->nuser, PM_ARRAY_SIZE(nm->user), getenv("USER"));
	add_unique(nm->user, &nm->nuser, PM_ARRAY_SIZE(nm->user), getenv("LOGNAME"));
	add_unique(nm->user, &nm->nuser, PM_ARRAY_SIZE(nm->user), sudo);
}

static void names_free(struct names *nm)
{
	size_t i;

	for (i = 0; i < nm->nhome; i++)
		free(nm->home[i]);
	for (i = 0; i < nm->nuser; i++)
		free(nm->user[i]);
}

/* A path starts here: at the start or after a character no path has. */
static bool path_start(const char *s, const char *p)
{
	return p == s || !(isalnum((unsigned char)p[-1]) || strchr("/._-~", p[-1]));
}

static bool component_end(char c)
{
	return c == '\0' || c == '/' || !(isalnum((unsigned char)c) || strchr("._-+@", c));
}

/* Length of the home directory prefix at p ("/home/alice", "/root"), 0
 * when none. */
static size_t home_prefix(const struct names *nm, const char *p)
{
	size_t i, n;

	for (i = 0; i < nm->nhome; i++) {
		n = strlen(nm->home[i]);
		if (!strncmp(p, nm->home[i], n) && component_end(p[n]))
			return n;
	}
	if (!strncmp(p, "/root", 5) && component_end(p[5]))
		return 5;
	if (!strncmp(p, "/home/", 6) && !component_end(p[6])) {
		for (n = 6; !component_end(p[n]); n++)
			;
		return n;
	}
	return 0;
}

static size_t user_component(const struct names *nm, const char *p)
{
	size_t i, n;

	for (i = 0; i < nm->nuser; i++) {
		n = strlen(nm->user[i]);
		/* "root" names no one */
		if (strcmp(nm->user[i], "root") && !strncmp(p, nm->user[i], n) &&
		    component_end(p[n]))
			return n;
	}
	return 0;
}

static char *anon_string(const struct names *nm, const char *s)
{
	size_t cap = strlen(s) * 2 + 16, n = 0;
	char *out = pm_xmalloc(cap);
	const char *p = s;

	while (*p) {
		size_t k = 0;
		const char *rep = NULL;

		if (*p == '/' && path_start(s, p) && (k = home_prefix(nm, p)))
			rep = "~";
		else if (p > s && p[-1] == '/' && (k = user_component(nm, p)))
			rep = "USER";
		if (rep) {
			size_t l = strlen(rep);

			if (n + l + 1 >= cap)
				out = pm_xrealloc(out, cap = 2 * cap + l);
			memcpy(out + n, rep, l);
			n += l;
			p += k;
			continue;
		}
		if (n + 2 >= cap)
			out = pm_xrealloc(out, cap *= 2);
		out[n++] = *p++;
	}
	out[n] = '\0';
	return out;
}

char *pm_anonymize_string(const char *s)
{
	struct names nm;
	char *r;

	names_init(&nm);
	r = anon_string(&nm, s);
	names_free(&nm);
	return r;
}

static void anon_free_string(const struct names *nm, char **s)
{
	char *r;

	if (!*s)
		return;
	r = anon_string(nm, *s);
	free(*s);
	*s = r;
}

/* Every string in j, keys' values at any depth. */
static void anon_json(const struct names *nm, json_t *j)
{
	const char *key;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		json_object_foreach(j, key, v) {
			if (json_is_string(v)) {
				char *r = anon_string(nm, json_string_value(v));

				json_object_set_new(j, key, json_string(r));
				free(r);
			} else {
				anon_json(nm, v);
			}
		}
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v) {
			if (json_is_string(v)) {
				char *r = anon_string(nm, json_string_value(v));

				json_array_set_new(j, i, json_string(r));
				free(r);
			} else {
				anon_json(nm, v);
			}
		}
	}
}

/* ---- the fingerprint ---- */

static bool is_uuid_like(const char *v)
{
	size_t hex = 0;

	for (; *v; v++)
		if (isxdigit((unsigned char)*v))
			hex++;
		else if (*v != '-' && *v != ':')
			break;
	return hex >= 12;
}

/* An IPv4 address, a MAC address, a UUID anywhere in the value? */
static bool has_address(const char *v)
{
	const char *p;
	int a, b, c, d, used = 0;

	for (p = v; *p; p++) {
		if (p > v && (isalnum((unsigned char)p[-1])))
			continue;
		if (sscanf(p, "%3d.%3d.%3d.%3d%n", &a, &b, &c, &d, &used) == 4 && used)
			return true;
		if (isxdigit((unsigned char)*p) && is_uuid_like(p))
			return true;
	}
	return false;
}

/* Kernel parameters whose value names a disk, a host or a network. */
static const char *const identifying_params[] = {
	"root", "resume", "nfsroot", "ip", "hostname", "cryptdevice",
	"rd.luks.uuid", "rd.luks.name", "rd.lvm.lv", "rd.lvm.vg",
	"luks.uuid", "luks.name", "ifname", "nameserver", "netroot",
	"rd.iscsi.initiator", "iscsi_initiator",
	NULL,
};

static char *anon_cmdline(const struct names *nm, const char *cmdline)
{
	char *copy = pm_xstrdup(cmdline), *save = NULL, *tok, *out;
	size_t cap = strlen(cmdline) + 64, n = 0, i;

	out = pm_xmalloc(cap);
	out[0] = '\0';
	for (tok = strtok_r(copy, " \t\n", &save); tok; tok = strtok_r(NULL, " \t\n", &save)) {
		char *eq = strchr(tok, '='), *word;

		if (!strcmp(tok, "--")) {
			/* arguments for init: addresses, ports, keys */
			word = pm_xstrdup("-- " PM_ANONYMIZED);
			save = NULL;
			tok = NULL;
		} else if (eq) {
			bool id = has_address(eq + 1);

			*eq = '\0';
			for (i = 0; !id && identifying_params[i]; i++)
				id = !strcmp(tok, identifying_params[i]);
			if (id) {
				word = pm_xasprintf("%s=%s", tok, PM_ANONYMIZED);
			} else {
				char *v = anon_string(nm, eq + 1);

				word = pm_xasprintf("%s=%s", tok, v);
				free(v);
			}
		} else {
			word = anon_string(nm, tok);
		}
		if (n + strlen(word) + 2 >= cap)
			out = pm_xrealloc(out, cap = 2 * cap + strlen(word));
		n += (size_t)sprintf(out + n, "%s%s", n ? " " : "", word);
		free(word);
		if (!tok)
			break;
	}
	free(copy);
	return out;
}

/* "Linux version R (user@host) (gcc ...) #1 SMP ...": the builder goes. */
static char *anon_proc_version(const char *v)
{
	const char *open = strchr(v, '('), *at, *close;

	if (!open || !(close = strchr(open, ')')) || !(at = memchr(open, '@', (size_t)(close - open))))
		return pm_xstrdup(v);
	return pm_xasprintf("%.*s(%s)%s", (int)(open - v), v, PM_ANONYMIZED, close + 1);
}

/* The string item of k replaced by value (owned), when it is a string. */
static void set_string(json_t *si, enum pm_fp_key k, char *value)
{
	pm_sysinfo_set(si, k, json_string(value));
	free(value);
}

static void anon_sysinfo(const struct names *nm, json_t *si)
{
	const json_t *j;

	if (!json_is_object(si))
		return;
	if (json_is_string(pm_sysinfo_at(si, PM_FP_HOSTNAME)))
		pm_sysinfo_set(si, PM_FP_HOSTNAME, json_string(PM_ANONYMIZED));
	if (json_is_string(j = pm_sysinfo_at(si, PM_FP_KERNEL_PROC_VERSION)))
		set_string(si, PM_FP_KERNEL_PROC_VERSION, anon_proc_version(json_string_value(j)));
	if (json_is_string(j = pm_sysinfo_at(si, PM_FP_KERNEL_CMDLINE)))
		set_string(si, PM_FP_KERNEL_CMDLINE, anon_cmdline(nm, json_string_value(j)));
	anon_json(nm, si);
}

/* Options whose value is a path. */
static bool path_option(const char *s)
{
	static const char *const opts[] = { "-o", "--output", "--vmlinux", NULL };
	size_t i;

	for (i = 0; s && opts[i]; i++)
		if (!strcmp(s, opts[i]))
			return true;
	return false;
}

/* pmbench's own argv: the options stay, a path keeps only its file name
 * ("--vmlinux=/a/b" keeps "--vmlinux=b"). */
static void anon_command(const struct names *nm, json_t *argv)
{
	bool after_path_option = false;
	json_t *v;
	size_t i;

	json_array_foreach(argv, i, v) {
		const char *s = json_string_value(v), *slash, *eq;
		bool is_option;
		char *r = NULL;

		if (!s)
			continue;
		is_option = path_option(s);
		slash = strrchr(s, '/');
		eq = strchr(s, '=');
		if (slash && s[0] == '-' && eq && eq < slash && eq[1] == '/')
			r = pm_xasprintf("%.*s%s", (int)(eq - s + 1), s, slash + 1);
		else if (slash && (i == 0 || after_path_option || s[0] == '/' ||
				   s[0] == '.' || s[0] == '~'))
			r = pm_xstrdup(slash + 1);
		if (r) {
			json_array_set_new(argv, i, json_string(r));
			free(r);
		}
		after_path_option = is_option;
	}
	anon_json(nm, argv);
}

static json_t *mark(json_t *options)
{
	if (!json_is_object(options))
		options = json_object();
	json_object_set_new(options, "anonymized", json_true());
	return options;
}

void pm_anonymize_result(struct pm_result *r)
{
	struct names nm;
	size_t i;

	names_init(&nm);
	anon_sysinfo(&nm, r->sysinfo);
	if (json_is_array(r->command))
		anon_command(&nm, r->command);
	r->options = mark(r->options);
	anon_json(&nm, r->options);
	for (i = 0; i < r->nbench; i++) {
		struct pm_bench_result *b = &r->bench[i];

		anon_free_string(&nm, &b->reason);
		anon_free_string(&nm, &b->params);
		anon_json(&nm, b->hotspots);
		anon_json(&nm, b->emulated);
		anon_json(&nm, b->detail);
	}
	names_free(&nm);
}

void pm_anonymize_document(json_t *doc)
{
	struct names nm;
	json_t *j;

	if (!json_is_object(doc))
		return;
	names_init(&nm);
	anon_sysinfo(&nm, json_object_get(doc, "sysinfo"));
	if (json_is_array(j = json_object_get(doc, "command")))
		anon_command(&nm, j);
	j = json_object_get(doc, "options");
	if (!json_is_object(j))
		json_object_set_new(doc, "options", j = json_object());
	mark(j);
	/* everything else: benchmarks' reasons, hotspots' objects, ... */
	anon_json(&nm, doc);
	names_free(&nm);
}
