/*
 * The HTML report of what the result reader accepts: the input is one
 * result file, or two one after the other (OLD then NEW, as
 * `pmbench report OLD NEW` reads them: explain's findings and the
 * differential flame graph).  Each is reported alone, the two side by
 * side with explain's findings, and three with a name used twice.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "explain/explain.h"
#include "fuzz.h"
#include "report/report.h"
#include "results/result.h"
#include "views/render.h"

/* Bytes of the first JSON document of the input (all when not JSON). */
static size_t first_document(const uint8_t *data, size_t size)
{
	json_error_t je;
	json_t *doc = json_loadb((const char *)data, size, JSON_DISABLE_EOF_CHECK, &je);

	if (!doc)
		return size;
	json_decref(doc);
	return (size_t)je.position <= size ? (size_t)je.position : size;
}

/* Every explanation keeps its guarantees (pmbench-explain(1)): a broken
 * one is a finding, as a crash is. */
static void check_guarantees(const struct pm_explanation *x)
{
	struct pm_violations v = { 0 };
	char *text = NULL;
	size_t len = 0, i;
	FILE *m = open_memstream(&text, &len);

	if (!m)
		return;
	pm_report_text(x, m, false, true);
	fclose(m);
	pm_explain_check(x, text, &v);
	for (i = 0; i < v.n; i++)
		fprintf(stderr, "guarantee '%s' broken: %s: %s\n", v.v[i].invariant,
			v.v[i].bench, v.v[i].what);
	if (v.n)
		abort();
	pm_violations_free(&v);
	free(text);
}

/* The page of n results, with explain's findings when n is 2. */
static void page(const struct pm_result *const *r, const char *const *names, size_t n,
		 const struct pm_report_opts *o)
{
	struct pm_side old = { .name = (char *)names[0], .runs = (struct pm_result *)r[0], .nruns = 1 };
	struct pm_side new = { .name = (char *)names[1 % n], .runs = (struct pm_result *)r[1 % n],
			       .nruns = 1 };
	struct pm_explain_opts xo;
	struct pm_explanation x;
	struct pm_err e;

	pm_explain_opts_default(&xo);
	if (n == 2 && pm_explain(&x, &old, &new, &xo, &e) == 0) {
		check_guarantees(&x);
		pm_report_html(r, names, n, &x, o, pm_fuzz_sink());
		pm_explanation_free(&x);
		return;
	}
	pm_report_html(r, names, n, NULL, o, pm_fuzz_sink());
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t len = first_document(data, size);
	struct pm_report_opts o = { .min_frame = 0.005 };
	struct pm_result a, b;
	const struct pm_result *r[3];
	char *names[3];
	struct pm_err e;
	bool two;

	if (pm_result_parse(&a, (const char *)data, len, "old.json", &e))
		return 0;
	two = len < size && pm_result_parse(&b, (const char *)data + len, size - len,
					     "new.json", &e) == 0;
	r[0] = r[2] = &a;
	r[1] = two ? &b : &a;
	/* named as the command names them: a label, else the file's name */
	names[0] = pm_result_short_name(&a, "old.json");
	names[1] = pm_result_short_name(r[1], "new.json");
	if (!strcmp(names[0], names[1])) {
		free(names[1]);
		names[1] = pm_xasprintf("%s#2", names[0]);
	}
	names[2] = pm_xasprintf("%s#3", names[0]);
	page(r, (const char *const *)names, 1, &o);
	/* every frame drawn, pmbench's own too */
	o.min_frame = 0;
	o.all_frames = true;
	page(r, (const char *const *)names, 2, &o);
	o.title = names[2];
	page(r, (const char *const *)names, 3, &o);
	free(names[0]);
	free(names[1]);
	free(names[2]);
	if (two)
		pm_result_free(&b);
	pm_result_free(&a);
	return 0;
}
