/* The mechanism map: kernel.mech and the generated linux.* (mechmap.h). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <stdint.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "explain/mechmap.h"

#define MAP_MAX	(8u << 20)	/* the largest file of mechanisms/ */

/* A name with its files: a function, a parameter or a config option. */
struct entry {
	const char *name;
	const char **files;
	size_t nfiles;
};

struct table {
	char *text;		/* the file, cut into strings in place */
	struct entry *v;
	size_t n;
};

/* A name stem a mechanism owns ("ptrace" of kernel/ptrace.c). */
struct stem {
	char *text;
	const struct pm_mech *mech;
	size_t own;		/* functions in its files that carry it */
};

struct pm_mechmap {
	struct pm_mech *v;
	size_t n;
	struct table syms, params, configs, guards;
	struct stem *stems;
	size_t nstems;
	char version[32];		/* of the generated files: "6.1", "" unknown */
	struct pm_mechmap **vers;	/* the other versions (linux-VERSION.*) */
	size_t nvers;
	const struct pm_mechmap *base;	/* a version's: the map it came with */
};

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct entry *)a)->name, ((const struct entry *)b)->name);
}

static const struct entry *table_find(const struct table *t, const char *name)
{
	struct entry key = { name, NULL, 0 };

	return t->n ? bsearch(&key, t->v, t->n, sizeof(*t->v), by_name) : NULL;
}

static void add_entry(struct table *t, size_t *cap, const char *name, const char **files,
		      size_t nfiles)
{
	if (t->n == *cap) {
		*cap = *cap ? 2 * *cap : 1024;
		t->v = pm_xrealloc(t->v, *cap * sizeof(*t->v));
	}
	t->v[t->n++] = (struct entry){ name, files, nfiles };
}

/* The words of a line, cut in place. */
static size_t split_words(char *line, const char ***out)
{
	const char **w = NULL;
	size_t n = 0, cap = 0;
	char *save = NULL, *tok;

	for (tok = strtok_r(line, " \t", &save); tok; tok = strtok_r(NULL, " \t", &save)) {
		if (n == cap) {
			cap = cap ? 2 * cap : 8;
			w = pm_xrealloc(w, cap * sizeof(*w));
		}
		w[n++] = tok;
	}
	*out = w;
	return n;
}

/*
 * "key file..." (linux.params, linux.configs) or, with by_file, "file
 * name..." (linux.syms): one entry per name.  A missing file is an
 * empty table: the map then knows less, and explain says so.
 */
static int load_table(struct table *t, const char *path, bool by_file, struct pm_err *e)
{
	size_t len, cap = 0;
	char *line, *save = NULL;
	int err = pm_read_file_max(path, MAP_MAX, &t->text, &len);

	if (err == -ENOENT)
		return 0;
	if (err)
		return pm_read_error(e, err, path, MAP_MAX, "a mechanism map file");
	for (line = strtok_r(t->text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		const char **w;
		size_t n, i;

		if (*line == '#')
			continue;
		n = split_words(line, &w);
		if (n < 2) {
			free(w);
			continue;
		}
		if (!by_file) {
			add_entry(t, &cap, w[0], w + 1, n - 1);
			/* w stays owned by the entry: w[0] is its name */
			continue;
		}
		for (i = 1; i < n; i++)
			add_entry(t, &cap, w[i], w, 1);
	}
	qsort(t->v, t->n, sizeof(*t->v), by_name);
	return 0;
}

static void table_free(struct table *t, bool by_file)
{
	const char ***own = pm_xcalloc(t->n + 1, sizeof(*own));
	size_t i, n = 0;

	/* every entry of a line shares its word vector, freed once: after
	 * every entry has been read (a sorted table mixes the lines) */
	for (i = 0; i < t->n; i++) {
		if (!by_file)
			own[n++] = t->v[i].files - 1;
		else if (t->v[i].files[1] == t->v[i].name)
			own[n++] = t->v[i].files;
	}
	for (i = 0; i < n; i++)
		free(own[i]);
	free(own);
	free(t->v);
	free(t->text);
}

static int section_line(struct pm_mech *k, char *key, char *val, const char *path,
			unsigned line, struct pm_err *e)
{
	if (!strcmp(key, "name")) {
		free(k->name);
		k->name = pm_xstrdup(val);
	} else if (!strcmp(key, "path")) {
		pm_strv_push(&k->paths, &k->npaths, val);
	} else if (!strcmp(key, "symbol")) {
		pm_strv_push(&k->symbols, &k->nsymbols, val);
	} else if (!strcmp(key, "switch")) {
		pm_strv_push(&k->switches, &k->nswitches, val);
	} else if (!strcmp(key, "knockout")) {
		const char *sp = strchr(val, ' ');

		if (!*val || strchr(val, '\t') || (sp && (strncmp(sp + 1, "CONFIG_", 7) ||
							  strchr(sp + 1, ' '))))
			return pm_err_set(e, -EINVAL, "%s:%u: knockout = a kernel argument and "
					  "optionally the CONFIG_ option without which it does "
					  "nothing (init_on_alloc=0 CONFIG_INIT_ON_ALLOC_DEFAULT_ON)",
					  path, line);
		pm_strv_push(&k->knockouts, &k->nknockouts, val);
	} else if (!strcmp(key, "owns")) {
		if (strcmp(val, "yes") && strcmp(val, "no"))
			return pm_err_set(e, -EINVAL, "%s:%u: owns = yes or no", path, line);
		k->owns = !strcmp(val, "yes");
	} else {
		return pm_err_set(e, -EINVAL, "%s:%u: unknown key '%s' (name, path, symbol, "
				  "switch, knockout or owns)", path, line, key);
	}
	return 0;
}

static int parse_mech(struct pm_mechmap *m, char *text, const char *path, struct pm_err *e)
{
	struct pm_mech *k = NULL;
	char *line, *next;
	unsigned no = 0;

	for (line = text; line; line = next) {
		char *eq, *s;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		no++;
		s = pm_strtrim(line);
		if (!*s || *s == '#')
			continue;
		if (*s == '[') {
			char *end = strchr(s, ']');

			if (!end || end == s + 1 || end[1])
				return pm_err_set(e, -EINVAL, "%s:%u: a section is [id]", path, no);
			*end = '\0';
			if (pm_mechmap_find(m, s + 1))
				return pm_err_set(e, -EINVAL, "%s:%u: [%s] twice", path, no, s + 1);
			m->v = pm_xgrow(m->v, m->n, sizeof(*m->v));
			k = &m->v[m->n++];
			memset(k, 0, sizeof(*k));
			k->id = pm_xstrdup(s + 1);
			/* [generic.string] is generic too: a part of it */
			k->generic = !strcmp(k->id, "generic") || !strncmp(k->id, "generic.", 8);
			continue;
		}
		eq = strchr(s, '=');
		if (!k || !eq)
			return pm_err_set(e, -EINVAL, "%s:%u: %s", path, no, k ?
					  "expected key = value" : "a key before any [section]");
		*eq = '\0';
		if (section_line(k, pm_strtrim(s), pm_strtrim(eq + 1), path, no, e))
			return -EINVAL;
	}
	return 0;
}

/* Each section's top: [tracing] for [tracing.function]; names required. */
static int link_sections(struct pm_mechmap *m, const char *path, struct pm_err *e)
{
	size_t i;

	for (i = 0; i < m->n; i++) {
		struct pm_mech *k = &m->v[i];
		char *dot = strchr(k->id, '.');

		if (!k->name)
			return pm_err_set(e, -EINVAL, "%s: [%s] has no name", path, k->id);
		k->top = k;
		if (dot) {
			char *top = pm_xasprintf("%.*s", (int)(dot - k->id), k->id);

			k->top = pm_mechmap_find(m, top);
			free(top);
			if (!k->top)
				return pm_err_set(e, -EINVAL, "%s: [%s] has no [%.*s]", path, k->id,
						  (int)(dot - k->id), k->id);
		}
	}
	return 0;
}

static void find_stems(struct pm_mechmap *m);

/* The kernel version a generated file is of: its header's
 * "linux-source-6.1", else the name's "linux-6.12.syms". */
static void table_version(const struct table *t, const char *name, char *buf, size_t len)
{
	const char *h = t->text ? strstr(t->text, "linux-source-") : NULL;
	size_t n;

	if (h && (n = strspn(h + 13, "0123456789.")) > 0) {
		snprintf(buf, len, "%.*s", (int)n, h + 13);
	} else if (!strncmp(name, "linux-", 6) && (n = strspn(name + 6, "0123456789.")) > 1) {
		snprintf(buf, len, "%.*s", (int)n - 1, name + 6);
	}
}

/* dir/PREFIX.syms, .params and .configs into m. */
static int load_tables(struct pm_mechmap *m, const char *dir, const char *prefix,
		       struct pm_err *e)
{
	static const char *const ext[] = { "syms", "params", "configs", "guards" };
	struct table *t[] = { &m->syms, &m->params, &m->configs, &m->guards };
	size_t i;
	int err = 0;

	for (i = 0; !err && i < PM_ARRAY_SIZE(ext); i++) {
		char *p = pm_xasprintf("%s/%s.%s", dir, prefix, ext[i]);

		/* syms and guards are "file|option name...": by the name */
		err = load_table(t[i], p, i == 0 || i == 3, e);
		free(p);
	}
	if (!err)
		table_version(&m->syms, prefix, m->version, sizeof(m->version));
	return err;
}

/* Every dir/linux-VERSION.syms (with its .params and .configs): a map of
 * that version, sharing base's sections. */
static int load_versions(struct pm_mechmap *base, const char *dir, struct pm_err *e)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int err = 0;

	while (d && !err && (de = readdir(d))) {
		size_t n = strlen(de->d_name);
		struct pm_mechmap *v;
		char *prefix;

		if (strncmp(de->d_name, "linux-", 6) || n < 12 || strcmp(de->d_name + n - 5, ".syms"))
			continue;
		prefix = pm_xasprintf("%.*s", (int)n - 5, de->d_name);
		v = pm_xcalloc(1, sizeof(*v));
		v->v = base->v;
		v->n = base->n;
		v->base = base;
		err = load_tables(v, dir, prefix, e);
		free(prefix);
		if (!err)
			find_stems(v);
		base->vers = pm_xgrow(base->vers, base->nvers, sizeof(*base->vers));
		base->vers[base->nvers++] = v;
	}
	if (d)
		closedir(d);
	return err;
}

int pm_mechmap_load(struct pm_mechmap **out, const char *dir, struct pm_err *e)
{
	struct pm_mechmap *m = pm_xcalloc(1, sizeof(*m));
	char *path = pm_xasprintf("%s/kernel.mech", dir), *text = NULL;
	size_t len;
	int err;

	*out = NULL;
	err = pm_read_file_max(path, MAP_MAX, &text, &len);
	if (err)
		err = pm_read_error(e, err, path, MAP_MAX, "a mechanism map file");
	if (!err)
		err = parse_mech(m, text, path, e);
	if (!err)
		err = link_sections(m, path, e);
	free(text);
	free(path);
	if (!err)
		err = load_tables(m, dir, "linux", e);
	if (!err)
		err = load_versions(m, dir, e);
	if (err) {
		pm_mechmap_free(m);
		return err;
	}
	find_stems(m);
	*out = m;
	return 0;
}

void pm_mechmap_free(struct pm_mechmap *m)
{
	size_t i;

	if (!m)
		return;
	for (i = 0; i < m->nvers; i++)
		pm_mechmap_free(m->vers[i]);
	free(m->vers);
	/* a version's sections are its base's */
	for (i = 0; !m->base && i < m->n; i++) {
		struct pm_mech *k = &m->v[i];

		free(k->id);
		free(k->name);
		for (size_t j = 0; j < k->npaths; j++)
			free(k->paths[j]);
		for (size_t j = 0; j < k->nsymbols; j++)
			free(k->symbols[j]);
		for (size_t j = 0; j < k->nswitches; j++)
			free(k->switches[j]);
		for (size_t j = 0; j < k->nknockouts; j++)
			free(k->knockouts[j]);
		free(k->knockouts);
		free(k->paths);
		free(k->symbols);
		free(k->switches);
	}
	if (!m->base)
		free(m->v);
	table_free(&m->syms, true);
	table_free(&m->params, false);
	table_free(&m->configs, false);
	table_free(&m->guards, true);
	for (i = 0; i < m->nstems; i++)
		free(m->stems[i].text);
	free(m->stems);
	free(m);
}

const char *pm_mechmap_default_dir(void)
{
	return pm_mechanisms_dir();
}

const struct pm_mechmap *pm_mechmap_get(const char **why)
{
	static struct pm_mechmap *map;
	static struct pm_err err;
	static bool tried;

	if (!tried) {
		tried = true;
		if (pm_mechmap_load(&map, pm_mechmap_default_dir(), &err))
			map = NULL;
	}
	if (why)
		*why = map ? NULL : err.msg;
	return map;
}

size_t pm_mechmap_count(const struct pm_mechmap *m)
{
	return m->n;
}

const struct pm_mech *pm_mechmap_at(const struct pm_mechmap *m, size_t i)
{
	return i < m->n ? &m->v[i] : NULL;
}

const struct pm_mech *pm_mechmap_find(const struct pm_mechmap *m, const char *id)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->v[i].id, id))
			return &m->v[i];
	return NULL;
}

void pm_mech_base_name(const char *sym, char *buf, size_t len)
{
	static const char *const suffixes[] = { ".cold", ".constprop.", ".isra.", ".part.",
						".llvm.", NULL };
	size_t i;

	snprintf(buf, len, "%s", sym);
	for (i = 0; suffixes[i]; i++) {
		char *p = strstr(buf, suffixes[i]);

		if (p && p != buf)
			*p = '\0';
	}
}

/*
 * name in table off (offsetof) of m's version, else of the other
 * versions it came with: a function, parameter or option that version
 * does not know is placed by another's.
 */
static const struct entry *lookup(const struct pm_mechmap *m, size_t off, const char *name)
{
	const struct pm_mechmap *b = m->base ? m->base : m, *o;
	const struct entry *x = table_find((const struct table *)((const char *)m + off), name);
	size_t i;

	for (i = 0; !x && i <= b->nvers; i++) {
		o = i ? b->vers[i - 1] : b;
		if (o != m)
			x = table_find((const struct table *)((const char *)o + off), name);
	}
	return x;
}

const char *pm_mechmap_file(const struct pm_mechmap *m, const char *sym)
{
	const struct entry *x;
	char base[256];

	pm_mech_base_name(sym, base, sizeof(base));
	x = lookup(m, offsetof(struct pm_mechmap, syms), base);
	return x ? x->files[0] : NULL;
}

/* "6.12.118+deb12-amd64" -> 6012; -1 when it does not start with N.N */
static long version_key(const char *s)
{
	unsigned long a, b;
	int n = 0;

	if (!s || sscanf(s, "%lu.%lu%n", &a, &b, &n) != 2 || !n || a > 99 || b > 999)
		return -1;
	return (long)(a * 1000 + b);
}

const struct pm_mechmap *pm_mechmap_for_release(const struct pm_mechmap *m,
						const char *release)
{
	const struct pm_mechmap *b = m->base ? m->base : m, *best = m, *o;
	long want = version_key(release), dist = -1;
	size_t i;

	if (want < 0)
		return m;
	for (i = 0; i <= b->nvers; i++) {
		long k, d;

		o = i ? b->vers[i - 1] : b;
		k = version_key(o->version);
		d = k < 0 ? -1 : k > want ? k - want : want - k;
		/* the nearest; on a tie the older, whose code the newer grew from */
		if (d >= 0 && (dist < 0 || d < dist || (d == dist && k < version_key(best->version)))) {
			best = o;
			dist = d;
		}
	}
	return best;
}

const char *pm_mechmap_version(const struct pm_mechmap *m)
{
	return m->version[0] ? m->version : NULL;
}

static size_t dots(const char *s)
{
	size_t n = 0;

	for (; *s; s++)
		n += *s == '.';
	return n;
}

static const struct pm_mech *by_symbol(const struct pm_mechmap *m, const char *sym)
{
	const struct pm_mech *best = NULL;
	size_t i, j;

	for (i = 0; sym && i < m->n; i++)
		for (j = 0; j < m->v[i].nsymbols; j++)
			if (!fnmatch(m->v[i].symbols[j], sym, 0) &&
			    (!best || dots(m->v[i].id) > dots(best->id)))
				best = &m->v[i];
	return best;
}

/* The longest path that holds file; *exact: a file named, not a directory. */
static const struct pm_mech *by_path(const struct pm_mechmap *m, const char *file, bool *exact)
{
	const struct pm_mech *best = NULL;
	size_t i, j, best_len = 0;

	*exact = false;
	for (i = 0; file && i < m->n; i++)
		for (j = 0; j < m->v[i].npaths; j++) {
			const char *p = m->v[i].paths[j];
			size_t n = strlen(p);
			bool dir = p[n - 1] == '/';
			bool match = dir ? !strncmp(file, p, n) : !strcmp(file, p);

			if (match && (n > best_len ||
				      (n == best_len && dots(m->v[i].id) > dots(best->id)))) {
				best = &m->v[i];
				best_len = n;
				*exact = !dir;
			}
		}
	return best;
}

/* A function name without compiler suffixes and leading underscores. */
static const char *stem_base(const char *sym, char *buf, size_t len)
{
	pm_mech_base_name(sym, buf, len);
	return buf + strspn(buf, "_");
}

static bool has_stem(const char *base, const char *stem)
{
	size_t n = strlen(stem);

	return !strncmp(base, stem, n) && (base[n] == '\0' || base[n] == '_');
}

/* The mechanism whose name stem the function carries (longest stem). */
static const struct pm_mech *by_stem(const struct pm_mechmap *m, const char *sym)
{
	const struct stem *best = NULL;
	const char *base;
	char buf[256];
	size_t i;

	if (!sym)
		return NULL;
	base = stem_base(sym, buf, sizeof(buf));
	for (i = 0; i < m->nstems; i++)
		if (has_stem(base, m->stems[i].text) &&
		    (!best || strlen(m->stems[i].text) > strlen(best->text)))
			best = &m->stems[i];
	return best ? best->mech : NULL;
}

/*
 * A hook sits in the code it hooks: ptrace_stop() in kernel/signal.c,
 * audit and seccomp calls inlined from include/linux/ into the entry
 * code.  A function named for a mechanism (by_stem) is that mechanism's
 * when its file is unplaced, in a directory of helpers ([generic] by a
 * directory, not a file named as generic: clocks stay generic), or in
 * another subsystem's file while the named mechanism is one that owns
 * its chains (a tracer, a security module, an accounting hook).
 */
const struct pm_mech *pm_mechmap_classify(const struct pm_mechmap *m, const char *sym,
					  const char *file)
{
	const struct pm_mech *k = by_symbol(m, sym), *named;
	bool exact;

	if (k)
		return k;
	k = by_path(m, file, &exact);
	named = by_stem(m, sym);
	if (!named || (k && k->top == named->top))
		return k;
	if (!k || (k->generic && !exact) || (named->top->owns && !k->top->owns))
		return named;
	return k;
}

/* A path's stem: the file's name without its extension, a directory's last part. */
static char *path_stem(const char *p)
{
	size_t n = strlen(p);
	const char *end = p[n - 1] == '/' ? p + n - 1 : p + n, *start = end, *dot;

	while (start > p && start[-1] != '/')
		start--;
	dot = p[n - 1] == '/' ? NULL : memchr(start, '.', (size_t)(end - start));
	return pm_xasprintf("%.*s", (int)((dot ? dot : end) - start), start);
}

/* A candidate stem of a section, and the functions that carry it. */
struct cand {
	char *text;
	const struct pm_mech *k;
	size_t all, own;
};

static int by_text(const void *a, const void *b)
{
	return strcmp(((const struct cand *)a)->text, ((const struct cand *)b)->text);
}

/* The section of a linux.syms file, cached by the file's string (the
 * functions of one line share it). */
struct file_cache {
	const char *file[8192];
	const struct pm_mech *mech[8192];
	bool known[8192];
};

static const struct pm_mech *file_mech(const struct pm_mechmap *m, struct file_cache *fc,
				       const char *file)
{
	size_t h = ((uintptr_t)file >> 4) & 8191, i;
	bool exact;

	for (i = 0; i < 8192; i++, h = (h + 1) & 8191) {
		if (fc->known[h] && fc->file[h] == file)
			return fc->mech[h];
		if (!fc->known[h])
			break;
	}
	if (i == 8192)
		return by_path(m, file, &exact);
	fc->known[h] = true;
	fc->file[h] = file;
	fc->mech[h] = by_path(m, file, &exact);
	return fc->mech[h];
}

/* Count each function under every candidate stem it carries. */
static void count_carriers(const struct pm_mechmap *m, struct cand *c, size_t nc)
{
	struct file_cache *fc = pm_xcalloc(1, sizeof(*fc));
	size_t f, i;

	for (f = 0; f < m->syms.n; f++) {
		char buf[256];
		char *base = (char *)stem_base(m->syms.v[f].name, buf, sizeof(buf));
		const struct pm_mech *fk = NULL;
		bool got = false;

		/* each prefix ending at an underscore, and the whole name */
		for (i = 1; base[i - 1]; i++) {
			struct cand key, *hit;
			char save = base[i];

			if (base[i] != '_' && base[i] != '\0')
				continue;
			base[i] = '\0';
			key.text = base;
			hit = bsearch(&key, c, nc, sizeof(*c), by_text);
			for (; hit && hit > c && !strcmp(hit[-1].text, base); hit--)
				;
			for (; hit && hit < c + nc && !strcmp(hit->text, base); hit++) {
				if (!got) {
					fk = file_mech(m, fc, m->syms.v[f].files[0]);
					got = true;
				}
				hit->all++;
				hit->own += fk && fk->top == hit->k->top;
			}
			base[i] = save;
			if (!save)
				break;
		}
	}
	free(fc);
}

/*
 * The stems each mechanism owns: the names of its files ("ptrace",
 * "audit", "seccomp", "kprobes") that at least two of its own functions
 * and half of the kernel's functions so named carry (linux.syms).  A
 * stem two sections share goes to the one with more such functions, on
 * a tie the less specific: "trace" is tracing's.
 */
static void find_stems(struct pm_mechmap *m)
{
	struct cand *c = NULL;
	size_t nc = 0, i, j;

	for (i = 0; i < m->n; i++)
		for (j = 0; !m->v[i].generic && j < m->v[i].npaths; j++) {
			char *stem = path_stem(m->v[i].paths[j]);

			if (strlen(stem) < 3) {
				free(stem);
				continue;
			}
			c = pm_xgrow(c, nc, sizeof(*c));
			c[nc++] = (struct cand){ stem, &m->v[i], 0, 0 };
		}
	if (!nc)
		return;
	qsort(c, nc, sizeof(*c), by_text);
	count_carriers(m, c, nc);
	m->stems = pm_xcalloc(nc, sizeof(*m->stems));
	for (i = 0; i < nc; i = j) {
		const struct cand *best = NULL;

		for (j = i; j < nc && !strcmp(c[j].text, c[i].text); j++)
			if (c[j].own >= 2 && 2 * c[j].own >= c[j].all &&
			    (!best || c[j].own > best->own ||
			     (c[j].own == best->own && dots(c[j].k->id) < dots(best->k->id))))
				best = &c[j];
		if (best && (!m->nstems || strcmp(m->stems[m->nstems - 1].text, best->text)))
			m->stems[m->nstems++] = (struct stem){ pm_xstrdup(best->text), best->k,
							       best->own };
	}
	for (i = 0; i < nc; i++)
		free(c[i].text);
	free(c);
}

const char *const *pm_mechmap_param_files(const struct pm_mechmap *m, const char *name,
					  size_t *n)
{
	const struct entry *x = lookup(m, offsetof(struct pm_mechmap, params), name);

	*n = x ? x->nfiles : 0;
	return x ? x->files : NULL;
}

const char *const *pm_mechmap_config_files(const struct pm_mechmap *m, const char *name,
					   size_t *n)
{
	const struct entry *x = lookup(m, offsetof(struct pm_mechmap, configs), name);

	*n = x ? x->nfiles : 0;
	return x ? x->files : NULL;
}

/* The options of every entry of t named name (entries of one name are
 * neighbours in the sorted table). */
static size_t guards_in(const struct table *t, const char *name, const char **out, size_t max)
{
	const struct entry *x = table_find(t, name), *end = t->v + t->n;
	size_t n = 0;

	if (!x)
		return 0;
	while (x > t->v && !strcmp(x[-1].name, name))
		x--;
	for (; x < end && !strcmp(x->name, name) && n < max; x++)
		out[n++] = x->files[0];
	return n;
}

size_t pm_mechmap_guards(const struct pm_mechmap *m, const char *sym, const char **out,
			 size_t max)
{
	const struct pm_mechmap *b = m->base ? m->base : m;
	size_t i, n = guards_in(&m->guards, sym, out, max);

	for (i = 0; !n && i <= b->nvers; i++)
		if ((i ? b->vers[i - 1] : b) != m)
			n = guards_in(&(i ? b->vers[i - 1] : b)->guards, sym, out, max);
	return n;
}

bool pm_mech_switched_by(const struct pm_mech *k, const char *sw)
{
	const struct pm_mech *s[2] = { k, k->top };
	size_t i, j;

	for (i = 0; i < 2; i++)
		for (j = 0; j < s[i]->nswitches; j++) {
			const char *x = s[i]->switches[j];
			size_t n = strlen(x);

			/* "fp:vulnerabilities" covers "fp:vulnerabilities.spectre_v2" */
			if (!strcmp(x, sw) || (!strncmp(x, "fp:", 3) && !strncmp(sw, x, n) &&
					       sw[n] == '.'))
				return true;
		}
	/* a knock-out argument switches it too */
	for (i = 0; i < 2; i++)
		for (j = 0; j < s[i]->nknockouts; j++) {
			const char *x = s[i]->knockouts[j];
			size_t n = strcspn(x, "= ");

			if (strlen(sw) == n && !strncmp(x, sw, n))
				return true;
		}
	return false;
}
