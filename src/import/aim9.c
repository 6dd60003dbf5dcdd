/*
 * Importing AIM9 logs: "name elapsed_ms iterations/s ops/s description"
 * lines, quoted or not, among other text.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "import/common.h"
#include "results/catalog.h"
#include "sysinfo/sysinfo.h"

/* ---- AIM9 ---- */

/* The classic AIM9 tests: a line starting with one of these must be a
 * result line; other text is skipped. */
static const char *const aim9_tests[] = {
	"add_double", "add_float", "add_long", "add_int", "add_short",
	"creat-clo", "page_test", "brk_test", "jmp_test", "signal_test",
	"exec_test", "fork_test", "link_test", "disk_rr", "disk_rw", "disk_rd",
	"disk_wrt", "disk_cp", "sync_disk_rw", "sync_disk_wrt", "sync_disk_cp",
	"disk_src", "div_double", "div_float", "div_long", "div_int",
	"div_short", "mul_double", "mul_float", "mul_long", "mul_int",
	"mul_short", "num_rtns_1", "new_raph", "trig_rtns", "matrix_rtns",
	"array_rtns", "string_rtns", "mem_rtns_1", "mem_rtns_2", "sort_rtns_1",
	"misc_rtns_1", "dir_rtns_1", "shell_rtns_1", "shell_rtns_2",
	"shell_rtns_3", "series_1", "shared_memory", "tcp_test", "udp_test",
	"fifo_test", "stream_pipe", "dgram_pipe", "pipe_cpy", "ram_copy",
	"sieve",
};

struct aline {
	int line;
	char *name, *desc, *ops_text;
	double elapsed_ms, rate, ops;
};

struct atest {
	char *name;
	struct aline *v;
	size_t n;
};

static bool aim9_known(const char *name)
{
	struct pm_bench_ident id;
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(aim9_tests); i++)
		if (!strcmp(aim9_tests[i], name))
			return true;
	return pm_catalog_by_aim9(name, &id);
}

static bool aim9_name(const char *s)
{
	bool letter = false;

	for (; *s; s++) {
		if (isalpha((unsigned char)*s))
			letter = true;
		else if (!isdigit((unsigned char)*s) && *s != '_' && *s != '-')
			return false;
	}
	return letter;
}

/* "creat-clo 10020 23.7525 23752.50 File Creations and Closes/second":
 * AIM9's log line (name, elapsed ms, iterations/s, operations/s). */
static int aim9_line(char *text, int lineno, const char *file, struct aline *a,
		     struct pm_err *e)
{
	char *w[64], *p, *save = NULL;
	size_t n = 0, i, len;
	bool known;

	for (p = strtok_r(text, " \t\r", &save); p && n < PM_ARRAY_SIZE(w);
	     p = strtok_r(NULL, " \t\r", &save))
		w[n++] = p;
	if (n < 1 || !aim9_name(w[0]))
		return 0;
	known = aim9_known(w[0]);
	if (n >= 5 && pm_import_plain_number(w[1], &a->elapsed_ms) && pm_import_plain_number(w[2], &a->rate) &&
	    pm_import_plain_number(w[3], &a->ops) && (len = strlen(w[n - 1])) >= 7 &&
	    !strcmp(w[n - 1] + len - 7, "/second")) {
		if (!(a->ops > 0))
			return pm_err_set(e, -EINVAL, "%s:%d: %s: an operation rate of %s",
					  file, lineno, w[0], w[3]);
		a->line = lineno;
		a->name = pm_xstrdup(w[0]);
		a->ops_text = pm_xstrdup(w[3]);
		a->desc = pm_xstrdup(w[4]);
		for (i = 5; i < n; i++) {
			char *d = pm_xasprintf("%s %s", a->desc, w[i]);

			free(a->desc);
			a->desc = d;
		}
		return 1;
	}
	if (known && n >= 2 && pm_import_plain_number(w[1], &a->elapsed_ms))
		return pm_err_set(e, -EINVAL,
				  "%s:%d: %s: not an AIM9 result line (name, elapsed ms, iterations/s, operations/s, description/second)",
				  file, lineno, w[0]);
	return 0;
}

static void atests_free(struct atest *t, size_t n)
{
	size_t i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < t[i].n; k++) {
			free(t[i].v[k].name);
			free(t[i].v[k].desc);
			free(t[i].v[k].ops_text);
		}
		free(t[i].v);
	}
	free(t);
}

static void aim9_run(const char *file, struct atest *tests, size_t ntests,
		     size_t k, size_t nruns, struct pm_result *r)
{
	size_t i;

	pm_result_init(r);
	r->source = pm_xstrdup("import:aim9");
	r->version = pm_xstrdup(PACKAGE_VERSION);
	r->label = pm_xasprintf("aim9 #%zu", k + 1);
	r->options = json_pack("{s:{s:s,s:s,s:I,s:I}}", "import", "format", "aim9",
			       "file", file, "run", (json_int_t)k + 1,
			       "runs", (json_int_t)nruns);
	r->sysinfo = pm_import_sysinfo(NULL, NULL, json_null(), "not in an AIM9 log");
	pm_sysinfo_set_unavailable(r->sysinfo, PM_FP_CPU_CUR_MHZ, "not in an AIM9 log");
	for (i = 0; i < ntests; i++) {
		const struct aline *a = &tests[i].v[k];
		struct pm_bench_ident id;
		const struct pm_bench_ident *rb =
			pm_catalog_by_aim9(a->name, &id) ? &id : NULL;
		struct pm_bench_result *b = pm_import_add_bench(r, 1e9 / a->ops);
		char *p;

		if (rb) {
			b->name = pm_xstrdup(rb->name);
		} else {
			b->name = pm_xasprintf("aim9-%s", a->name);
			for (p = b->name; *p; p++)
				if (*p == '_')
					*p = '-';
		}
		b->group = pm_xstrdup(rb ? rb->group : "aim9");
		b->summary = pm_xstrdup(rb ? rb->summary : a->desc);
		b->unit = pm_xstrdup("ops/s");
		b->lmbench = rb && rb->lmbench ? pm_xstrdup(rb->lmbench) : NULL;
		b->aim9 = pm_xstrdup(a->name);
		b->elapsed_s = a->elapsed_ms / 1e3;
		b->params = pm_xasprintf("AIM9 log: %s %s (%g iterations/s over %g ms)",
					 a->ops_text, a->desc, a->rate, a->elapsed_ms);
		b->detail = json_pack("{s:{s:s,s:f,s:f,s:f}}", "aim9_log",
				      "description", a->desc, "ops_per_s", a->ops,
				      "iterations_per_s", a->rate, "elapsed_ms", a->elapsed_ms);
	}
}

int pm_import_aim9(const char *text, const char *file,
		   struct pm_result **out, size_t *nout, struct pm_err *e)
{
	struct atest *tests = NULL;
	size_t ntests = 0, nruns = 0, i, k;
	char *buf = pm_import_utf8_copy(text), *name = pm_import_utf8_copy(file), *p, *eol;
	int lineno = 0, err = 0;

	*out = NULL;
	*nout = 0;
	for (p = buf; !err && *p; p = eol ? eol + 1 : p + strlen(p)) {
		struct aline a = { 0 };
		int got;

		eol = strchr(p, '\n');
		if (eol)
			*eol = '\0';
		lineno++;
		got = aim9_line(p + pm_import_quote_len(p, strlen(p)), lineno, name, &a, e);
		if (got <= 0) {
			err = got;
			continue;
		}
		for (i = 0; i < ntests && strcmp(tests[i].name, a.name); i++)
			;
		if (i == ntests) {
			tests = pm_xgrow(tests, ntests, sizeof(*tests));
			memset(&tests[ntests++], 0, sizeof(*tests));
		}
		tests[i].v = pm_xgrow(tests[i].v, tests[i].n, sizeof(a));
		tests[i].v[tests[i].n++] = a;
		tests[i].name = tests[i].v[0].name;
		if (tests[i].n > nruns)
			nruns = tests[i].n;
	}
	free(buf);
	if (!err && !ntests)
		err = pm_err_set(e, -EINVAL, "%s: no AIM9 result lines (name, elapsed ms, iterations/s, operations/s, description/second)",
				 name);
	/* line k of every test is run k: all need the same count */
	for (i = 0; !err && i < ntests; i++)
		if (tests[i].n != nruns)
			err = pm_err_set(e, -EINVAL,
					 "%s:%d: %s appears %zu time%s but other tests %zu times: which runs its lines belong to is unknown",
					 name, tests[i].v[0].line, tests[i].name, tests[i].n,
					 tests[i].n == 1 ? "" : "s", nruns);
	if (!err) {
		*out = pm_xcalloc(nruns, sizeof(**out));
		*nout = nruns;
		for (k = 0; k < nruns; k++)
			aim9_run(name, tests, ntests, k, nruns, &(*out)[k]);
	}
	atests_free(tests, ntests);
	free(name);
	return err;
}
