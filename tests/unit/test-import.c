/*
 * Importing lmbench summaries and AIM9 logs: every figure of the seed
 * fixtures (tests/data/seeds: mails as archives and mailers mangled
 * them), rejection of corrupted variants, and the layout table against
 * the benchmark registry.
 */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench/bench.h"
#include "explain/explain.h"
#include "import/import.h"
#include "results/catalog.h"
#include "results/lmbench.h"
#include "sysinfo/sysinfo.h"
#include "views/render.h"

#define SEEDS PM_ABS_SRCDIR "/tests/data/seeds/"
#define MAXRUNS 6
#define MAXCOLS 12

static char *seed(const char *name)
{
	char *path = pm_xasprintf("%s%s", SEEDS, name), *text = NULL;

	ck_assert_msg(pm_read_file(path, &text, NULL) == 0, "cannot read %s", path);
	free(path);
	return text;
}

/* Replace the one occurrence of `from` (it must be there). */
static char *edit(const char *text, const char *from, const char *to)
{
	const char *at = strstr(text, from);

	ck_assert_msg(at != NULL, "fixture lacks \"%s\"", from);
	ck_assert_msg(strstr(at + 1, from) == NULL, "\"%s\" is not unique", from);
	return pm_xasprintf("%.*s%s%s", (int)(at - text), text, to, at + strlen(from));
}

/* ---- the expected figures, in the columns' units, NAN = none ---- */

static const char *const basic_keys[] = { "basic: tlb pages", "basic: cache line bytes",
	"basic: mem par", "basic: scal load", NULL };
static const char *const proc_keys[] = { "proc: null call", "proc: null I/O", "proc: stat",
	"proc: open clos", "proc: slct TCP", "proc: sig inst", "proc: sig hndl",
	"proc: fork proc", "proc: exec proc", "proc: sh proc", NULL };
static const char *const int_keys[] = { "int: intgr bit", "int: intgr add", "int: intgr mul",
	"int: intgr div", "int: intgr mod", NULL };
static const char *const float_keys[] = { "float: float add", "float: float mul",
	"float: float div", "float: float bogo", NULL };
static const char *const double_keys[] = { "double: double add", "double: double mul",
	"double: double div", "double: double bogo", NULL };
static const char *const ctx_keys[] = { "ctx: 2p/0K", "ctx: 2p/16K", "ctx: 2p/64K",
	"ctx: 8p/16K", "ctx: 8p/64K", "ctx: 16p/16K", "ctx: 16p/64K", NULL };
static const char *const lat_keys[] = { "lat: 2p/0K ctxsw", "lat: Pipe", "lat: AF UNIX",
	"lat: UDP", "lat: RPC/UDP", "lat: TCP", "lat: RPC/TCP", "lat: TCP conn", NULL };
static const char *const fs_keys[] = { "fs: 0K File Create", "fs: 0K File Delete",
	"fs: 10K File Create", "fs: 10K File Delete", "fs: Mmap Latency", "fs: Prot Fault",
	"fs: Page Fault", "fs: 100fd selct", NULL };
static const char *const bw_keys[] = { "bw: Pipe", "bw: AF UNIX", "bw: TCP", "bw: File reread",
	"bw: Mmap reread", "bw: Bcopy (libc)", "bw: Bcopy (hand)", "bw: Mem read",
	"bw: Mem write", NULL };
static const char *const mem_keys[] = { "mem: L1 $", "mem: L2 $", "mem: Main mem",
	"mem: Rand mem", NULL };

struct xsec {
	const char *const *keys;
	double v[MAXRUNS][MAXCOLS];
};

struct xrun {
	const char *host, *rel;
	double mhz;
};

/* lmbench-collapsed-2.6.11.txt: lmbench 3.0-a3, the whole mail on one line,
 * the list's footer right after the last row */
static const struct xrun runs000[] = {
	{ "commando-", "2.6.10", 2400 },
	{ "commando-", "2.6.11", 2400 },
};
static const struct xsec secs000[] = {
	{ proc_keys, {
		{ 0.49, 0.57, 2.06, 3.06, 19.6, 0.89, 2.70, 166., 857., 2972 },
		{ 0.49, 0.60, 2.12, 3.35, 20.8, 0.92, 2.73, 235., 1003, 3168 },
	} },
	{ ctx_keys, {
		{ 7.5800, 4.3300, 8.1900, 5.1100, 33.1, 8.37000, 41.9 },
		{ 7.9200, 8.3200, 8.3200, 5.8300, 26.6, 9.46000, 40.4 },
	} },
	{ lat_keys, {
		{ 7.750, 19.4, 21.3, 37.2, 45.5, 42.5, 53.2, 76. },
		{ 7.920, 20.3, 23.6, 40.2, 50.1, 46.5, 57.6, 87. },
	} },
	{ fs_keys, {
		{ 39.3, 16.2, 92.7, 35.2, 122.0, 1.200, 2.14310, 18.3 },
		{ 40.8, 16.8, 99.5, 36.7, 163.0, 1.075, 2.27760, 18.8 },
	} },
	{ bw_keys, {
		{ 313., 440., 222., 1551.7, 1528.5, 549.1, 566.8, 1550, 784.8 },
		{ 554., 450., 224., 1564.8, 1548.3, 549.9, 574.6, 1528, 760.5 },
	} },
};

/* lmbench3-wrapped-ppc.txt: lmbench 3, wrapped at 72 columns, blanks
 * collapsed, a signature after the last row; two rows have a blank cell
 * the text does not place (rejected with PM_IMPORT_STRICT) */
static const struct xrun runs002[] = {
	{ "9919_unit", "2.6.25", 434 },
	{ "9919_unit", "2.6.18", 445 },
};
static const struct xsec secs002[] = {
	{ basic_keys, {
		{ 32, 32, 1.0000, 1 },
		{ 32, 32, 1.0100, 1 },
	} },
	{ proc_keys, {
		{ 0.47, 1.26, 10.7, 35.6, 34.1, 1.76, 14.3, 2646, 9964, 33e3 },
		{ 0.35, 1.24, 9.27, 22.9, 32.7, 1.87, 13.8, 2157, 7825, 26e3 },
	} },
	{ int_keys, {
		{ 2.3300, 0.0100, 10.7, 46.2, 56.0 },
		{ 2.2300, 0.0100, 10.3, 45.4, 54.1 },
	} },
	{ float_keys, {
		{ 9.9500, 10.1, 46.2, 66.2 },
		{ 9.1100, 9.0800, 45.8, 67.1 },
	} },
	{ double_keys, {
		{ 9.3400, 11.6, 78.6, 100.2 },
		{ 9.1600, 11.1, 77.2, 97.8 },
	} },
	{ ctx_keys, {
		{ 20.6, 86.2, 28.5, 103.8, 38.7, 111.8, 57.4 },
		{ 5.3300, 63.2, 17.9, 73.4, 23.1, 74.9, 26.2 },
	} },
	{ lat_keys, {
		/* "20.6 68.8 131. 353.1 533.4 461.7 1269": 7 figures for 8
		 * columns.  "1269" is a cut "1269.x": only a field of 4
		 * prints it, TCP conn here ("%4.4s" of num(v, 5)) as AF UNIX
		 * is taken by "131." (a cut "131.x", AF UNIX or TCP conn);
		 * the blank is one of UDP .. RPC/TCP, so the three figures
		 * between are left out */
		{ 20.6, 68.8, 131., NAN, NAN, NAN, NAN, 1269 },
		{ 5.330, 36.1, 87.8, 225.3, 402.7, 331.8, 520.1, 970. },
	} },
	{ fs_keys, {
		{ 222.3, 172.4, 1003.0, 350.5, 41.5e3, 1.734, 10.5, 18.0 },
		/* "181.5 144.3 789.3 293.9 23.9K 7.09560 19.3": only the
		 * 7-character Page Fault field holds "7.09560" (Mmap
		 * would leave 5 figures for 4 columns), so 19.3 is 100fd
		 * selct; the blank is one of the first six */
		{ NAN, NAN, NAN, NAN, NAN, NAN, 7.09560, 19.3 },
	} },
	{ bw_keys, {
		{ 34.2, 34.7, 21.5, 55.5, 161.8, 79.9, 79.2, 160., 116.1 },
		{ 40.1, 37.4, 29.7, 60.0, 165.8, 80.6, 81.1, 165., 117.8 },
	} },
	{ mem_keys, {
		{ 4.8150, 174.6, 183.3, 511.8 },
		{ 4.6880, 174.1, 175.4, 497.5 },
	} },
};

/* lmbench2-six-rows.txt: lmbench 2.0.4, two runs of three kernels */
static const struct xrun runs004[] = {
	{ "214.2.168", "2.4.22-", 407 },
	{ "214.2.168", "2.4.22-", 407 },
	{ "214.2.168", "2.6.7-r", 407 },
	{ "214.2.168", "2.6.7-r", 407 },
	{ "214.2.168", "2.6.6", 407 },
	{ "214.2.168", "2.6.6", 407 },
};
static const struct xsec secs004[] = {
	{ basic_keys, {
		{ NAN, NAN, NAN, NAN },
		{ NAN, NAN, NAN, NAN },
		{ NAN, NAN, NAN, NAN },
		{ NAN, NAN, NAN, NAN },
		{ NAN, NAN, NAN, NAN },
		{ NAN, NAN, NAN, NAN },
	} },
	{ proc_keys, {
		{ 0.77, 1.16, 6.59, 8.03, 35.6, 2.14, 6.80, 340., 1387, 5802 },
		{ 0.77, 1.14, 6.58, 7.93, 37.8, 2.14, 6.80, 341., 1492, 5980 },
		{ 0.42, 0.72, 7.01, 8.14, 28.2, 1.99, 7.67, 383., 1381, 5920 },
		{ 0.42, 0.71, 6.97, 8.04, 30.4, 1.99, 7.62, 390., 1386, 5949 },
		{ 0.42, 0.74, 6.93, 8.19, 28.0, 1.99, 7.03, 425., 1412, 6018 },
		{ 0.42, 0.73, 7.01, 8.26, 28.3, 1.99, 7.04, 425., 1430, 6083 },
	} },
	{ ctx_keys, {
		{ 1.870, 18.3, 82.7, 19.6, 178.4, 29.0, 258.9 },
		{ 1.970, 18.2, 52.4, 23.6, 182.3, 36.9, 260.4 },
		{ 2.840, 20.7, 88.7, 22.1, 185.0, 30.7, 271.7 },
		{ 2.900, 20.7, 57.3, 35.7, 192.2, 44.7, 265.8 },
		{ 2.280, 19.3, 54.5, 20.6, 190.8, 34.7, 268.6 },
		{ 2.490, 19.2, 54.3, 28.1, 164.6, 32.5, 266.3 },
	} },
	{ lat_keys, {
		{ 1.870, 10.7, 20.3, 47.7, 108.3, 62.4, 144.5, 248. },
		{ 1.970, 10.8, 20.3, 48.4, 108.2, 71.1, 144.3, 242. },
		{ 2.840, 12.4, 31.6, 52.6, 113.4, 71.9, 141.2, 249. },
		{ 2.900, 12.8, 31.9, 56.4, 113.1, 70.8, 141.3, 254. },
		{ 2.280, 11.0, 21.5, 51.1, 112.0, 75.0, 149.2, 252. },
		{ 2.490, 11.1, 21.8, 53.0, 111.7, 78.7, 146.3, 255. },
	} },
	{ fs_keys, {
		{ 156.9, 39.1, 418.8, 105.8, 1946.0, 0.427, 3.00000, NAN },
		{ 156.8, 39.1, 434.8, 98.9, 1961.0, 0.464, 3.00000, NAN },
		{ 150.2, 31.8, 406.5, 105.1, 2394.0, 0.869, 4.00000, NAN },
		{ 150.2, 31.5, 406.5, 105.0, 2468.0, 0.828, 4.00000, NAN },
		{ 147.1, 30.4, 406.2, 103.8, 2449.0, 1.078, 4.00000, NAN },
		{ 147.6, 30.3, 401.8, 105.1, 2584.0, 1.172, 4.00000, NAN },
	} },
	{ bw_keys, {
		{ 186., 118., 85.9, 148.8, 229.9, 75.5, 56.2, 230., 74.6 },
		{ 194., 118., 71.8, 146.8, 230.7, 75.5, 56.1, 230., 74.6 },
		{ 144., 99.1, 58.8, 144.4, 228.4, 73.0, 55.6, 228., 73.0 },
		{ 162., 99.0, 62.7, 143.6, 228.2, 72.7, 55.5, 228., 73.0 },
		{ 183., 108., 56.6, 142.7, 228.3, 73.0, 55.5, 228., 72.9 },
		{ 174., 119., 64.5, 144.3, 228.1, 73.2, 55.5, 228., 72.9 },
	} },
	{ mem_keys, {
		{ 7.361, 54.1, 254.6, NAN },
		{ 7.362, 54.1, 254.6, NAN },
		{ 7.468, 55.0, 257.7, NAN },
		{ 7.468, 86.5, 257.5, NAN },
		{ 7.469, 55.2, 257.8, NAN },
		{ 7.468, 55.2, 257.8, NAN },
	} },
};

/* lmbench3-getsummary-vm.txt: getsummary's output as printed (make see)
 * for two runs on a VM: Mhz -1 (not measured), blank cells in fixed
 * columns (int add, the RPC latencies, the file create/delete ones). */
static const struct xrun runsvm[] = {
	{ "vm", "6.18.44", NAN },
	{ "vm", "6.18.44", NAN },
};
static const struct xsec secsvm[] = {
	{ basic_keys, {
		{ 58, 64, 8.9500, 1 },
		{ 96, 64, 242.4, 1 },
	} },
	{ proc_keys, {
		{ 1.02, 1.14, 1.87, 3.38, 4.20, 1.08, 2.85, 1231, 2975, 5787 },
		{ 1.71, 2.03, 3.07, 5.50, 7.65, 1.17, 3.63, 1368, 3317, 6720 },
	} },
	{ int_keys, {
		{ 0.2100, NAN, 0.8600, 3.0400, 3.4200 },
		{ 0.3700, NAN, 0.8700, 3.0800, 3.3800 },
	} },
	{ float_keys, {
		{ 0.5500, 0.8400, 2.7900, 0.6900 },
		{ 0.5600, 0.9300, 2.8300, 0.7000 },
	} },
	{ double_keys, {
		{ 0.5600, 0.8300, 3.6500, 1.1200 },
		{ 0.5600, 0.8400, 3.6700, 1.1100 },
	} },
	{ ctx_keys, {
		{ 5.1200, 5.0700, 4.3100, 13.9, 13.5, 13.8, 14.9 },
		{ 8.3000, 8.3900, 7.9600, 12.1, 12.0, 11.5, 12.1 },
	} },
	{ lat_keys, {
		{ 5.120, 22.6, 30.4, 28.8, NAN, 29.9, NAN, 4607 },
		{ 8.300, 16.5, 20.8, 25.5, NAN, 28.3, NAN, 25. },
	} },
	{ fs_keys, {
		{ NAN, NAN, NAN, NAN, 509.0, 9.198, 1.22900, 1.837 },
		{ NAN, NAN, NAN, NAN, 517.0, 17.6, 1.24240, 3.055 },
	} },
	{ bw_keys, {
		{ 2438, 5425, 3231, 10.5e3, 45.1e3, 19.5e3, 19.6e3, 15e3, 24.1e3 },
		{ 2862, 4943, 2911, 11.6e3, 49.7e3, 53.4e3, 24.4e3, 26e3, 27.4e3 },
	} },
	{ mem_keys, {
		{ 1.1280, 3.3680, 8.4440, 185.9 },
		{ 1.3130, 3.5310, 9.2480, 21.7 },
	} },
};

static const struct pm_bench_result *by_key(const struct pm_result *r, const char *key)
{
	size_t i;

	for (i = 0; i < r->nbench; i++)
		if (r->bench[i].lmbench && !strcmp(r->bench[i].lmbench, key))
			return &r->bench[i];
	return NULL;
}

/* The figure as the table printed it, back from the stored trial. */
static double figure_of(const struct pm_bench_result *b, const struct pm_lmb_column *col)
{
	if (!strcmp(pm_lmb_unit(col), "us"))
		return b->trials[0] / 1e3;
	if (!strcmp(pm_lmb_unit(col), "MB/s"))
		return pm_bench_result_value(b, b->trials[0]);
	return b->trials[0];
}

static bool same_figure(double got, double want)
{
	return fabs(got - want) <= 1e-12 * fabs(want);
}

static void check_runs(const struct pm_result *runs, size_t n, const char *file,
		       const struct xrun *xr, size_t nxr,
		       const struct xsec *xs, size_t nxs)
{
	size_t r, s, k, count;

	ck_assert_uint_eq(n, nxr);
	for (r = 0; r < n; r++) {
		const struct pm_result *x = &runs[r];
		const json_t *imp = json_object_get(x->options, "import");
		char label[128];

		snprintf(label, sizeof(label), "%s Linux %s #%zu", xr[r].host, xr[r].rel, r + 1);
		ck_assert_str_eq(x->source, "import:lmbench");
		ck_assert_str_eq(x->label, label);
		ck_assert_str_eq(json_string_value(pm_sysinfo_get(x->sysinfo, "hostname")),
				 xr[r].host);
		ck_assert_str_eq(json_string_value(pm_sysinfo_get(x->sysinfo, "kernel.release")),
				 xr[r].rel);
		if (isnan(xr[r].mhz))
			ck_assert(json_is_null(pm_sysinfo_get(x->sysinfo, "cpu.cur_mhz")));
		else
			ck_assert(json_number_value(pm_sysinfo_get(x->sysinfo, "cpu.cur_mhz")) ==
				  xr[r].mhz);
		ck_assert_str_eq(json_string_value(json_object_get(imp, "file")), file);
		ck_assert_int_eq(json_integer_value(json_object_get(imp, "row")), (json_int_t)r + 1);
		for (s = 0, count = 0; s < nxs; s++) {
			for (k = 0; xs[s].keys[k]; k++) {
				const char *key = xs[s].keys[k];
				const struct pm_lmb_column *col = pm_lmb_find(key, NULL);
				const struct pm_bench_result *b = by_key(x, key);
				const struct pm_bench *rb = pm_bench_find_lmbench(key);
				double want = xs[s].v[r][k];

				ck_assert_ptr_nonnull(col);
				if (isnan(want)) {
					ck_assert_msg(b == NULL, "%s run %zu: %s should not be there",
						      file, r + 1, key);
					continue;
				}
				count++;
				ck_assert_msg(b != NULL, "%s run %zu: no %s", file, r + 1, key);
				ck_assert_int_eq(b->status, PM_BENCH_OK);
				ck_assert_uint_eq(b->ntrials, 1);
				ck_assert_str_eq(b->name, pm_lmb_name(col));
				ck_assert_str_eq(b->group, rb ? rb->group : "lmbench");
				ck_assert(b->measured == (bool)pm_lmb_unit_is_measured(pm_lmb_unit(col)));
				ck_assert(b->bytes_per_op == (strcmp(pm_lmb_unit(col), "MB/s") ? 0 : 1048576));
				ck_assert_msg(same_figure(figure_of(b, col), want),
					      "%s run %zu %s: %.17g, expected %.17g", file, r + 1,
					      key, figure_of(b, col), want);
			}
		}
		ck_assert_msg(x->nbench == count, "%s run %zu: %zu figures, expected %zu",
			      file, r + 1, x->nbench, count);
	}
}

/* Import a fixture; *log (if given) gets the warnings and notes. */
static void import_ok(const char *name, unsigned flags, struct pm_result **runs, size_t *n,
		      struct pm_import_log *log)
{
	struct pm_err e = { "" };
	char *text = seed(name);
	int err = pm_import_lmbench_flags(text, name, flags, runs, n, log, &e);

	ck_assert_msg(err == 0, "%s: %s", name, e.msg);
	free(text);
}

/* Does one of the log's lines contain `what`? */
static bool logged(char **v, size_t n, const char *what)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (strstr(v[i], what))
			return true;
	return false;
}

START_TEST(collapsed_one_line)
{
	struct pm_result *runs;
	size_t n;

	struct pm_import_log log = { 0 };

	import_ok("lmbench-collapsed-2.6.11.txt", 0, &runs, &n, &log);
	check_runs(runs, n, "lmbench-collapsed-2.6.11.txt", runs000, PM_ARRAY_SIZE(runs000),
		   secs000, PM_ARRAY_SIZE(secs000));
	/* the footer after the last row is skipped, with a note; nothing
	 * was left out */
	ck_assert_uint_eq(log.nwarnings, 0);
	ck_assert_uint_eq(log.nnotes, 1);
	ck_assert_msg(strstr(log.notes[0], "*Local* Communication bandwidths: after row 2 (commando- Linux 2.6.11), \"- You get this because"),
		      "%s", log.notes[0]);
	pm_import_log_free(&log);
	pm_import_free(runs, n);
}
END_TEST

START_TEST(lmbench2_six_rows)
{
	struct pm_result *runs;
	size_t n, r;

	struct pm_import_log log = { 0 };

	import_ok("lmbench2-six-rows.txt", 0, &runs, &n, &log);
	/* the "-" line and the archive's footer after the last row */
	ck_assert_uint_eq(log.nwarnings, 0);
	ck_assert(logged(log.notes, log.nnotes, "Memory latencies: after row 6 (214.2.168 Linux 2.6.6), \"- You get this"));
	ck_assert(logged(log.notes, log.nnotes, "\"Next message: C. Other:"));
	pm_import_log_free(&log);
	check_runs(runs, n, "lmbench2-six-rows.txt", runs004, PM_ARRAY_SIZE(runs004),
		   secs004, PM_ARRAY_SIZE(secs004));
	for (r = 0; r < n; r++)
		ck_assert_str_eq(json_string_value(json_object_get(
			json_object_get(runs[r].options, "import"), "description")),
			"i686-pc-linux-gnu");
	pm_import_free(runs, n);
}
END_TEST

/* getsummary's own output: -1 and blank cells are "not measured", the
 * blanks placed by the columns' positions; nothing refused or left out. */
START_TEST(getsummary_report)
{
	struct pm_import_log log = { 0 };
	struct pm_result *runs;
	size_t n;

	import_ok("lmbench3-getsummary-vm.txt", PM_IMPORT_STRICT, &runs, &n, &log);
	check_runs(runs, n, "lmbench3-getsummary-vm.txt", runsvm, PM_ARRAY_SIZE(runsvm),
		   secsvm, PM_ARRAY_SIZE(secsvm));
	ck_assert_uint_eq(log.nwarnings, 0);
	ck_assert_uint_eq(log.nnotes, 0);
	ck_assert_str_eq(json_string_value(json_object_get(
		json_object_get(runs[1].options, "import"), "description")), "x86_64-linux-gnu");
	pm_import_log_free(&log);
	pm_import_free(runs, n);
}
END_TEST

/* Two rows of the wrapped summary have a blank column the text does not
 * place: with PM_IMPORT_STRICT an error naming the file, section and
 * row, never a guess. */
START_TEST(wrapped_strict)
{
	struct pm_result *runs = NULL;
	struct pm_err e = { "" };
	char *text = seed("lmbench3-wrapped-ppc.txt");
	size_t n = 0;

	ck_assert_int_eq(pm_import_lmbench_flags(text, "ppc.txt", PM_IMPORT_STRICT, &runs, &n,
						 NULL, &e), -EINVAL);
	ck_assert_ptr_null(runs);
	ck_assert_uint_eq(n, 0);
	ck_assert_msg(strstr(e.msg, "ppc.txt: *Local* Communication latencies: row 1 (9919_unit Linux 2.6.25): 7 figures for 8 columns, and they do not show which one is blank (any of UDP, RPC/UDP, TCP, RPC/TCP); write '-' in the blank column"),
		      "%s", e.msg);
	free(text);
}
END_TEST

/* By default those figures are left unmeasured, one warning per row. */
START_TEST(wrapped_default)
{
	struct pm_import_log log = { 0 };
	struct pm_result *runs;
	const json_t *left;
	size_t n;

	import_ok("lmbench3-wrapped-ppc.txt", 0, &runs, &n, &log);
	check_runs(runs, n, "lmbench3-wrapped-ppc.txt", runs002, PM_ARRAY_SIZE(runs002),
		   secs002, PM_ARRAY_SIZE(secs002));
	left = json_object_get(json_object_get(runs[0].options, "import"), "left_out");
	ck_assert_uint_eq(json_array_size(left), 1);
	ck_assert_str_eq(json_string_value(json_array_get(left, 0)),
		"*Local* Communication latencies: row 1 (9919_unit Linux 2.6.25): 353.1 533.4 461.7 not imported: 7 figures for 8 columns, and they do not show which one is blank (any of UDP, RPC/UDP, TCP, RPC/TCP)");
	left = json_object_get(json_object_get(runs[1].options, "import"), "left_out");
	ck_assert_uint_eq(json_array_size(left), 1);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(left, 0)),
		"File & VM system latencies: row 2 (9919_unit Linux 2.6.18): 181.5 144.3 789.3 293.9 23.9K not imported: 7 figures for 8 columns"));
	ck_assert_str_eq(json_string_value(json_object_get(
		json_object_get(runs[0].options, "import"), "description")), "powerpc-linux-gnu");
	ck_assert_uint_eq(log.nwarnings, 2);
	ck_assert_str_eq(log.warnings[0], "lmbench3-wrapped-ppc.txt: *Local* Communication latencies: row 1 (9919_unit Linux 2.6.25): 353.1 533.4 461.7 not imported: 7 figures for 8 columns, and they do not show which one is blank (any of UDP, RPC/UDP, TCP, RPC/TCP)");
	ck_assert_ptr_nonnull(strstr(log.warnings[1], "row 2 (9919_unit Linux 2.6.18): 181.5 144.3 789.3 293.9 23.9K not imported"));
	/* the list's signature after the last row (its Guesses wrapped) */
	ck_assert_uint_eq(log.nnotes, 1);
	ck_assert_ptr_nonnull(strstr(log.notes[0], "Memory latencies: after row 2 (9919_unit Linux 2.6.18), \"_____"));
	pm_import_log_free(&log);
	pm_import_free(runs, n);
}
END_TEST

/* ---- AIM9 ---- */

static const struct {
	const char *test;
	double ms[2], iter[2], ops[2];
	const char *desc;
} aim9_expected[] = {
	{ "creat-clo", { 10020, 10030 }, { 23.7525, 18.9432 }, { 23752.50, 18943.17 },
	  "File Creations and Closes/second" },
	{ "page_test", { 10000, 10010 }, { 152.9, 128.971 }, { 259930.00, 219250.75 },
	  "System Allocations & Pages/second" },
	{ "brk_test", { 10000, 10010 }, { 63.5, 53.9461 }, { 1079500.00, 917082.92 },
	  "System Memory Allocations/second" },
	{ "signal_test", { 10000, 10000 }, { 204.5, 146.5 }, { 204500.00, 146500.00 },
	  "Signal Traps/second" },
	{ "exec_test", { 10010, 10030 }, { 16.6833, 15.5533 }, { 83.42, 77.77 },
	  "Program Loads/second" },
	{ "fork_test", { 10000, 10010 }, { 56.2, 32.967 }, { 5620.00, 3296.70 },
	  "Task Creations/second" },
	{ "link_test", { 10000, 10000 }, { 224.1, 125.7 }, { 14118.30, 7919.10 },
	  "Link/Unlink Pairs/second" },
	{ "dir_rtns_1", { 10000, 10000 }, { 105.5, 91.1 }, { 1055000.00, 911000.00 },
	  "Directory Operations/second" },
	{ "shell_rtns_1", { 10000, 10010 }, { 31.3, 28.5714 }, { 31.30, 28.57 },
	  "Shell Scripts/second" },
	{ "shell_rtns_2", { 10010, 10030 }, { 31.3686, 28.6142 }, { 31.37, 28.61 },
	  "Shell Scripts/second" },
	{ "shell_rtns_3", { 10010, 10020 }, { 31.3686, 28.6427 }, { 31.37, 28.64 },
	  "Shell Scripts/second" },
	{ "series_1", { 10000, 10000 }, { 39306.1, 38976.2 }, { 3930610.00, 3897620.00 },
	  "Series Evaluations/second" },
	{ "shared_memory", { 10000, 10000 }, { 2742.2, 2360.6 }, { 274220.00, 236060.00 },
	  "Shared Memory Operations/second" },
	{ "tcp_test", { 10000, 10000 }, { 805.5, 660.7 }, { 72495.00, 59463.00 },
	  "TCP/IP Messages/second" },
	{ "udp_test", { 10000, 10000 }, { 1448.6, 1115.7 }, { 144860.00, 111570.00 },
	  "UDP/IP DataGrams/second" },
	{ "fifo_test", { 10000, 10000 }, { 1568.7, 1041.6 }, { 156870.00, 104160.00 },
	  "FIFO Messages/second" },
};

START_TEST(aim9_quoted)
{
	struct pm_result *runs;
	struct pm_err e = { "" };
	char *text = seed("aim9-quoted.txt");
	size_t n, r, i;

	ck_assert_msg(pm_import_aim9(text, "aim9-quoted.txt", &runs, &n, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 2);
	for (r = 0; r < n; r++) {
		ck_assert_str_eq(runs[r].source, "import:aim9");
		ck_assert_uint_eq(runs[r].nbench, PM_ARRAY_SIZE(aim9_expected));
		for (i = 0; i < PM_ARRAY_SIZE(aim9_expected); i++) {
			const struct pm_bench_result *b = &runs[r].bench[i];
			const struct pm_bench *rb = pm_bench_find_aim9(aim9_expected[i].test);
			const json_t *log = json_object_get(b->detail, "aim9_log");
			char name[64], *p;

			snprintf(name, sizeof(name), "aim9-%s", aim9_expected[i].test);
			for (p = name; *p; p++)
				*p = *p == '_' ? '-' : *p;
			ck_assert_str_eq(b->name, rb ? rb->name : name);
			ck_assert_str_eq(b->aim9, aim9_expected[i].test);
			ck_assert_str_eq(b->unit, "ops/s");
			ck_assert_uint_eq(b->ntrials, 1);
			ck_assert_msg(same_figure(pm_bench_result_value(b, b->trials[0]),
						  aim9_expected[i].ops[r]),
				      "%s run %zu: %.17g", aim9_expected[i].test, r + 1,
				      pm_bench_result_value(b, b->trials[0]));
			ck_assert(same_figure(b->elapsed_s, aim9_expected[i].ms[r] / 1e3));
			ck_assert_str_eq(json_string_value(json_object_get(log, "description")),
					 aim9_expected[i].desc);
			ck_assert(json_real_value(json_object_get(log, "iterations_per_s")) ==
				  aim9_expected[i].iter[r]);
			ck_assert(json_real_value(json_object_get(log, "ops_per_s")) ==
				  aim9_expected[i].ops[r]);
		}
	}
	pm_import_free(runs, n);
	free(text);
}
END_TEST

/* ---- corrupted variants: errors naming the file, section and row ---- */

static const struct {
	const char *seed, *from, *to;
	const char *expect;
} corrupt[] = {
	/* a figure gone wrong */
	{ "lmbench-collapsed-2.6.11.txt", " 166. ", " 16x. ",
	  "c.txt: Processor, Processes: row 1 (commando- Linux 2.6.10): \"16x.\" is not a figure" },
	/* rows of two sections that are not the same runs */
	{ "lmbench-collapsed-2.6.11.txt", "commando- Linux 2.6.11 7.9200", "commando- Linux 2.6.12 7.9200",
	  "c.txt: Context switching: row 2 (commando- Linux 2.6.12): row 2 of Processor, Processes is commando- Linux 2.6.11" },
	/* heads of no known layout */
	{ "lmbench-collapsed-2.6.11.txt", " slct ", " sloc ",
	  "c.txt: Processor, Processes: column heads \"Host OS Mhz null null open sloc" },
	{ "lmbench3-wrapped-ppc.txt", "\n----\n9919_unit Linux 2.6.25 powerpc", "\n9919_unit Linux 2.6.25 powerpc",
	  "c.txt: Basic system parameters: 7 column rules under the heads, but the heads name 8 columns" },
	/* an empty Host column: a figure would be read as the host */
	{ "lmbench-collapsed-2.6.11.txt", " commando- Linux 2.6.11 2400", " Linux 2.6.11 2400",
	  "c.txt: Processor, Processes: row 2 (2972 Linux 2.6.11): the host \"2972\" reads as a figure" },
	/* a Mhz that differs between sections */
	{ "lmbench2-six-rows.txt", "Linux 2.6.6 407 7.468", "Linux 2.6.6 408 7.468",
	  "c.txt: Memory latencies: row 6 (214.2.168 Linux 2.6.6): Mhz 408, but 407 in Basic system parameters" },
	/* longer than lmbench prints a host */
	{ "lmbench2-six-rows.txt", "214.2.168 Linux 2.6.6 147.1", "214.2.168.9 Linux 2.6.6 147.1",
	  "c.txt: File & VM system latencies: row 5 (214.2.168.9 Linux 2.6.6): longer than lmbench's Host" },
	/* lmbench 3's one-line mail, no table at all */
	{ "lmbench-no-table.txt", "Hi,", "Hi,",
	  "c.txt: no lmbench table found (no table title such as" },
};

START_TEST(rejects_corrupt)
{
	struct pm_result *runs = NULL;
	struct pm_err e = { "" };
	char *text = seed(corrupt[_i].seed);
	char *bad = edit(text, corrupt[_i].from, corrupt[_i].to);
	size_t n = 0;
	int err = pm_import_lmbench(bad, "c.txt", &runs, &n, &e);

	ck_assert_msg(err == -EINVAL, "case %d: accepted", _i);
	ck_assert_msg(strstr(e.msg, corrupt[_i].expect) != NULL,
		      "case %d: \"%s\" lacks \"%s\"", _i, e.msg, corrupt[_i].expect);
	ck_assert_ptr_null(runs);
	/* strict or not */
	err = pm_import_lmbench_flags(bad, "c.txt", PM_IMPORT_STRICT, &runs, &n, NULL, &e);
	ck_assert_int_eq(err, -EINVAL);
	ck_assert(strstr(e.msg, corrupt[_i].expect) != NULL);
	free(text);
	free(bad);
}
END_TEST

/* Rows whose figures cannot be placed: left unmeasured with a warning
 * (the rest of the file imports), an error with PM_IMPORT_STRICT. */
static const struct {
	const char *seed, *from, *to;
	const char *warning;		/* the row's left_out, from "row" */
	const char *key;		/* a figure of that row left out */
	size_t row;			/* the run it belongs to, from 0 */
} unplaceable[] = {
	/* a row that lost a figure: the rest could shift left */
	{ "lmbench-collapsed-2.6.11.txt", " 2400 0.49 0.57 ", " 2400 0.49 ",
	  "row 1 (commando- Linux 2.6.10): 0.49 2.06 3.06 19.6 0.89 2.70 166. 857. 2972 not imported: 10 figures for 11 columns, and they do not show which one is blank (any of ",
	  "proc: fork proc", 0 },
	{ "lmbench-collapsed-2.6.11.txt", "16.8 99.5 ", "16.8 ",
	  /* "1.075" needs a field of 5 and "2.27760" one of 7: Prot and
	   * Page Fault, and 18.8 is 100fd selct; "163.0" may be Mmap */
	  "row 2 (commando- Linux 2.6.11): 40.8 16.8 36.7 163.0 not imported: 7 figures for 8 columns, and they do not show which one is blank (any of 0K File Create, 0K File Delete, 10K File Create, 10K File Delete, Mmap Latency)",
	  "fs: 0K File Create", 1 },
	/* one figure too many */
	{ "lmbench-collapsed-2.6.11.txt", " 2972 ", " 2972 5555 ",
	  "row 1 (commando- Linux 2.6.10): 2400 0.49 0.57 2.06 3.06 19.6 0.89 2.70 166. 857. 2972 5555 not imported: 12 figures for 11 columns",
	  "proc: null call", 0 },
	{ "lmbench2-six-rows.txt", "1.078 4.00000", "1.078 4.00000 9.99",
	  "row 5 (214.2.168 Linux 2.6.6): 147.1 30.4 406.2 103.8 2449.0 1.078 4.00000 9.99 not imported: 8 figures for 7 columns",
	  "fs: Page Fault", 4 },
	/* figures no set of the fields can hold: "12.345" is no num() of
	 * a field of 4 or 5 */
	{ "lmbench-collapsed-2.6.11.txt", " 42.5 53.2 76. ", " 12.345 76. ",
	  "row 1 (commando- Linux 2.6.10): 7.750 19.4 21.3 37.2 45.5 12.345 76. not imported: 7 figures for 8 columns, and they fit no set of the columns' fields",
	  "lat: Pipe", 0 },
};

START_TEST(unplaceable_rows)
{
	struct pm_import_log log = { 0 };
	struct pm_result *runs = NULL;
	struct pm_err e = { "" };
	char *text = seed(unplaceable[_i].seed);
	char *bad = edit(text, unplaceable[_i].from, unplaceable[_i].to);
	const json_t *left;
	size_t n = 0, r = unplaceable[_i].row;
	int err;

	err = pm_import_lmbench_flags(bad, "u.txt", PM_IMPORT_STRICT, &runs, &n, NULL, &e);
	ck_assert_msg(err == -EINVAL, "case %d: accepted with PM_IMPORT_STRICT", _i);
	ck_assert_ptr_null(runs);
	{
		/* the same row and reason as the warning, as an error */
		const char *w = unplaceable[_i].warning, *why = strstr(w, "not imported: ") + 14;
		char *row = pm_xasprintf("%.*s", (int)(strchr(w, ')') + 1 - w), w);
		ck_assert_msg(strstr(e.msg, row) && strstr(e.msg, why) && !strncmp(e.msg, "u.txt: ", 7),
			      "case %d: %s", _i, e.msg);
		free(row);
	}

	err = pm_import_lmbench_flags(bad, "u.txt", 0, &runs, &n, &log, &e);
	ck_assert_msg(err == 0, "case %d: %s", _i, e.msg);
	ck_assert_uint_eq(log.nwarnings, 1);
	ck_assert_msg(strstr(log.warnings[0], unplaceable[_i].warning) != NULL,
		      "case %d: \"%s\" lacks \"%s\"", _i, log.warnings[0], unplaceable[_i].warning);
	ck_assert(!strncmp(log.warnings[0], "u.txt: ", 7));
	left = json_object_get(json_object_get(runs[r].options, "import"), "left_out");
	ck_assert_uint_eq(json_array_size(left), 1);
	ck_assert_ptr_nonnull(strstr(json_string_value(json_array_get(left, 0)),
				     unplaceable[_i].warning));
	ck_assert_msg(by_key(&runs[r], unplaceable[_i].key) == NULL, "case %d: %s imported",
		      _i, unplaceable[_i].key);
	/* the other run is whole */
	ck_assert_ptr_nonnull(by_key(&runs[r ? 0 : 1], unplaceable[_i].key));
	pm_import_log_free(&log);
	pm_import_free(runs, n);
	free(text);
	free(bad);
}
END_TEST

static const struct {
	const char *from, *to, *expect;
} corrupt_aim9[] = {
	{ "> fork_test 10010 32.967 3296.70 Task Creations/second\n", "",
	  "c.txt:27: fork_test appears 1 time but other tests 2 times" },
	{ "> fork_test 10000 56.2 5620.00", "> fork_test 10000 56.2 x5620.00",
	  "c.txt:27: fork_test: not an AIM9 result line" },
	{ "> exec_test 10010 16.6833 83.42", "> exec_test 10010 16.6833 0.00",
	  "c.txt:23: exec_test: an operation rate of 0.00" },
};

START_TEST(rejects_corrupt_aim9)
{
	struct pm_result *runs = NULL;
	struct pm_err e = { "" };
	char *text = seed("aim9-quoted.txt");
	char *bad = edit(text, corrupt_aim9[_i].from, corrupt_aim9[_i].to);
	size_t n = 0;

	ck_assert_int_eq(pm_import_aim9(bad, "c.txt", &runs, &n, &e), -EINVAL);
	ck_assert_msg(strstr(e.msg, corrupt_aim9[_i].expect) != NULL, "\"%s\"", e.msg);
	ck_assert_ptr_null(runs);
	ck_assert_int_eq(pm_import_aim9("nothing\n", "c.txt", &runs, &n, &e), -EINVAL);
	ck_assert_ptr_nonnull(strstr(e.msg, "c.txt: no AIM9 result lines"));
	free(text);
	free(bad);
}
END_TEST

/* ---- blanks in the middle of a row ---- */

/* getsummary's layout with blanks intact: slct TCP missing on row 1. */
static const char intact[] =
	"Processor, Processes - times in microseconds - smaller is better\n"
	"------------------------------------------------------------------------------\n"
	"Host                 OS  Mhz null null      open slct sig  sig  fork exec sh\n"
	"                             call  I/O stat clos TCP  inst hndl proc proc proc\n"
	"--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----\n"
	"alpha      Linux 2.6.20  800 0.30 0.45 2.10 3.20      1.10 2.50 150. 600. 2100\n"
	"alpha      Linux 2.6.21  800 0.31 0.46 2.11 3.21 15.0 1.11 2.51 151. 601. 2101\n"
	"\n"
	"Context switching - times in microseconds - smaller is better\n"
	"-------------------------------------------------------------------------\n"
	"Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K\n"
	"                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw\n"
	"--------- ------------- ------ ------ ------ ------ ------ ------- -------\n"
	"alpha      Linux 2.6.21 3.0000                              12.5\n"
	"\n"
	"Text after the tables is not read.\n";

static double fig(const struct pm_result *r, const char *key)
{
	const struct pm_bench_result *b = by_key(r, key);

	return b ? figure_of(b, pm_lmb_find(key, NULL)) : NAN;
}

START_TEST(blank_by_columns)
{
	struct pm_result *runs;
	struct pm_err e = { "" };
	size_t n;

	ck_assert_msg(pm_import_lmbench(intact, "i.txt", &runs, &n, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 2);
	ck_assert(isnan(fig(&runs[0], "proc: slct TCP")));
	ck_assert(same_figure(fig(&runs[0], "proc: open clos"), 3.20));
	ck_assert(same_figure(fig(&runs[0], "proc: sig inst"), 1.10));
	ck_assert(same_figure(fig(&runs[0], "proc: sh proc"), 2100));
	ck_assert_uint_eq(runs[0].nbench, 9);
	ck_assert(same_figure(fig(&runs[1], "proc: slct TCP"), 15.0));
	/* the Context switching row is the second run's; 16p/16K, not 2p/16K */
	ck_assert_uint_eq(runs[1].nbench, 12);
	ck_assert(same_figure(fig(&runs[1], "ctx: 2p/0K"), 3.0));
	ck_assert(same_figure(fig(&runs[1], "ctx: 16p/16K"), 12.5));
	ck_assert(isnan(fig(&runs[1], "ctx: 2p/16K")));
	pm_import_free(runs, n);
}
END_TEST

/* Blanks collapsed: the same row is ambiguous, unless '-' marks the blank. */
START_TEST(blank_collapsed)
{
	struct pm_import_log log = { 0 };
	struct pm_result *runs = NULL;
	struct pm_err e = { "" };
	char *flat = pm_xstrdup(intact), *marked, *p, *q;
	size_t n;

	for (p = q = flat; *p; p++)	/* collapse runs of blanks */
		if (!(*p == ' ' && q > flat && q[-1] == ' '))
			*q++ = *p;
	*q = '\0';
	ck_assert_int_eq(pm_import_lmbench_flags(flat, "f.txt", PM_IMPORT_STRICT, &runs, &n,
						 NULL, &e), -EINVAL);
	ck_assert_msg(strstr(e.msg, "f.txt: Processor, Processes: row 1 (alpha Linux 2.6.20): 10 figures for 11 columns"),
		      "%s", e.msg);
	/* by default: the Mhz (always printed) is placed, the rest left out */
	ck_assert_msg(pm_import_lmbench_flags(flat, "f.txt", 0, &runs, &n, &log, &e) == 0,
		      "%s", e.msg);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(runs[0].nbench, 0);
	ck_assert(json_number_value(pm_sysinfo_get(runs[0].sysinfo, "cpu.cur_mhz")) == 800);
	ck_assert(same_figure(fig(&runs[1], "proc: slct TCP"), 15.0));
	ck_assert(isnan(fig(&runs[1], "ctx: 2p/0K")));
	ck_assert_uint_eq(log.nwarnings, 2);
	ck_assert_ptr_nonnull(strstr(log.warnings[0], "row 1 (alpha Linux 2.6.20): 0.30 0.45 2.10 3.20 1.10 2.50 150. 600. 2100 not imported: 10 figures for 11 columns"));
	ck_assert_ptr_nonnull(strstr(log.warnings[1], "Context switching: row 1 (alpha Linux 2.6.21): 3.0000 12.5 not imported: 2 figures for 7 columns"));
	pm_import_log_free(&log);
	pm_import_free(runs, n);
	marked = edit(flat, "3.20 1.10", "3.20 - 1.10");
	ck_assert_int_eq(pm_import_lmbench_flags(marked, "f.txt", PM_IMPORT_STRICT, &runs, &n,
						 NULL, &e), -EINVAL);
	ck_assert_msg(strstr(e.msg, "f.txt: Context switching: row 1 (alpha Linux 2.6.21): 2 figures for 7 columns"),
		      "%s", e.msg);
	free(marked);
	marked = edit(flat, "3.20 1.10", "3.20 - 1.10");
	p = marked;
	marked = edit(p, "3.0000 12.5", "3.0000 - - - -1 12.5 -");
	free(p);
	ck_assert_msg(pm_import_lmbench_flags(marked, "f.txt", PM_IMPORT_STRICT, &runs, &n, &log,
					      &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(log.nwarnings, 0);
	ck_assert(isnan(fig(&runs[0], "proc: slct TCP")));
	ck_assert(same_figure(fig(&runs[0], "proc: sig inst"), 1.10));
	ck_assert(same_figure(fig(&runs[1], "ctx: 16p/16K"), 12.5));
	ck_assert(isnan(fig(&runs[1], "ctx: 8p/64K")));
	ck_assert_uint_eq(runs[1].nbench, 10 + 2);
	pm_import_free(runs, n);
	pm_import_log_free(&log);
	free(marked);
	free(flat);
}
END_TEST

/* getsummary leaves out the row of a run without figures in a section:
 * placed by host and release when that is unambiguous. */
START_TEST(missing_rows)
{
	static const char two_hosts[] =
		"Context switching - times in microseconds - smaller is better\n"
		"------\n"
		"Host OS 2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K\n"
		"ctxsw ctxsw ctxsw ctxsw ctxsw ctxsw ctxsw\n"
		"--------- ------------- ------ ------ ------ ------ ------ ------- -------\n"
		"a Linux 2.6.1 1.0000 2.0000 3.0000 4.0000 5.0000 6.00000 7.00000\n"
		"b Linux 2.6.2 1.1000 2.1000 3.1000 4.1000 5.1000 6.10000 7.10000\n"
		"Basic integer operations - times in nanoseconds - smaller is better\n"
		"------\n"
		"Host OS intgr intgr intgr intgr intgr\n"
		"bit add mul div mod\n"
		"--------- ------------- ------ ------ ------ ------ ------\n"
		"b Linux 2.6.2 0.5000 0.6000 0.7000 0.8000 0.9000\n";
	struct pm_result *runs = NULL;
	struct pm_err e = { "" };
	char *same, *p;
	size_t n;

	ck_assert_msg(pm_import_lmbench(two_hosts, "m.txt", &runs, &n, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 2);
	ck_assert(isnan(fig(&runs[0], "int: intgr bit")));
	ck_assert(same_figure(fig(&runs[1], "int: intgr bit"), 0.5));
	ck_assert_uint_eq(runs[0].nbench, 7);
	ck_assert_uint_eq(runs[1].nbench, 12);
	pm_import_free(runs, n);
	/* two runs of one kernel: which one lacks integer figures? */
	same = edit(two_hosts, "b Linux 2.6.2 1.1000", "a Linux 2.6.1 1.1000");
	p = same;
	same = edit(p, "b Linux 2.6.2 0.5000", "a Linux 2.6.1 0.5000");
	free(p);
	ck_assert_int_eq(pm_import_lmbench(same, "m.txt", &runs, &n, &e), -EINVAL);
	ck_assert_msg(strstr(e.msg, "m.txt: Basic integer operations: 1 rows for 2 runs, and the hosts and releases do not show which runs they are"),
		      "%s", e.msg);
	free(same);
}
END_TEST

/* getsummary's "Bad mhz?" row: '-' for L1, L2 and main memory. */
START_TEST(bad_mhz_row)
{
	static const char text[] =
		"Memory latencies in nanoseconds - smaller is better "
		"(WARNING - may not be correct, check graphs) ------------ "
		"Host OS Mhz L1 $ L2 $ Main mem Rand mem Guesses "
		"--------- ------------- --- ---- ---- -------- -------- ------- "
		"a Linux 2.6.1 407 - - - Bad mhz? "
		"b Linux 2.6.1 408 4.8150 174.6 183.3 511.8 No L2 cache?\n";
	struct pm_result *runs;
	struct pm_err e = { "" };
	size_t n;

	ck_assert_msg(pm_import_lmbench(text, "b.txt", &runs, &n, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(runs[0].nbench, 0);
	ck_assert(json_number_value(pm_sysinfo_get(runs[0].sysinfo, "cpu.cur_mhz")) == 407);
	ck_assert_uint_eq(runs[1].nbench, 4);
	ck_assert(same_figure(fig(&runs[1], "mem: Rand mem"), 511.8));
	pm_import_free(runs, n);
}
END_TEST

/* ---- the rules of a row, each with the input that needs it ---- */

/* A row ends where its figures end: a footer run onto the same line (the
 * whole mail collapsed onto one line) is skipped with a note, even when
 * it starts with '-', lmbench's "not measured". */
START_TEST(footer_ends_row)
{
	static const char text[] =
		"Context switching - times in microseconds - smaller is better "
		"------------- Host OS 2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K "
		"ctxsw ctxsw ctxsw ctxsw ctxsw ctxsw ctxsw "
		"--------- ------------- ------ ------ ------ ------ ------ ------- ------- "
		"a Linux 2.6.1 1.0000 2.0000 3.0000 4.0000 5.0000 6.00000 7.00000 "
		"- To leave the list, write to the robot Best regards, A.";
	struct pm_import_log log = { 0 };
	struct pm_result *runs;
	struct pm_err e = { "" };
	size_t n;

	ck_assert_msg(pm_import_lmbench_flags(text, "f.txt", PM_IMPORT_STRICT, &runs, &n, &log,
					      &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(runs[0].nbench, 7);
	ck_assert(same_figure(fig(&runs[0], "ctx: 16p/64K"), 7.0));
	ck_assert_uint_eq(log.nwarnings, 0);
	ck_assert_uint_eq(log.nnotes, 1);
	ck_assert_str_eq(log.notes[0], "f.txt: Context switching: after row 1 (a Linux 2.6.1), \"- To leave the list, write to the robot Best regards, A.\" (12 words) skipped: not figures");
	pm_import_log_free(&log);
	pm_import_free(runs, n);
}
END_TEST

/* The heads of another table end a table without an empty line: its
 * rows are not taken for rows of the one before. */
START_TEST(header_ends_table)
{
	static const char text[] =
		"Basic integer operations - times in nanoseconds - smaller is better\n"
		"------------------------------------------------------------------\n"
		"Host OS intgr intgr intgr intgr intgr\n"
		"bit add mul div mod\n"
		"--------- ------------- ------ ------ ------ ------ ------\n"
		"a Linux 2.6.1 0.5000 0.6000 0.7000 0.8000 0.9000\n"
		"Some table pmbench does not know\n"
		"------------------------------------\n"
		"Host OS widgets gadgets\n"
		"--------- ------------- ------- -------\n"
		"a Linux 2.6.1 12.0 13.0\n"
		"b Linux 2.6.2 14.0 15.0\n";
	struct pm_import_log log = { 0 };
	struct pm_result *runs;
	struct pm_err e = { "" };
	char *ruled;
	size_t n;

	ck_assert_msg(pm_import_lmbench_flags(text, "h.txt", PM_IMPORT_STRICT, &runs, &n, &log,
					      &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(runs[0].nbench, 5);
	ck_assert(same_figure(fig(&runs[0], "int: intgr mod"), 0.9));
	/* the unknown title is the text after the row; the table ends at
	 * its rule */
	ck_assert_uint_eq(log.nnotes, 2);
	ck_assert_ptr_nonnull(strstr(log.notes[0], "after row 1 (a Linux 2.6.1), \"Some table pmbench does not know\" (6 words) skipped"));
	ck_assert_ptr_nonnull(strstr(log.notes[1], "\"------------------------------------ Host OS widgets"));
	pm_import_log_free(&log);
	pm_import_free(runs, n);
	/* without its title and rule: the heads alone end the table */
	ruled = edit(text, "Some table pmbench does not know\n------------------------------------\n", "");
	ck_assert_msg(pm_import_lmbench(ruled, "h.txt", &runs, &n, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 1);
	ck_assert_uint_eq(runs[0].nbench, 5);
	pm_import_free(runs, n);
	free(ruled);
}
END_TEST

/* '-1', '-' and blanks are "not measured": absent from the result,
 * blank when shown, never a reason to refuse the file. */
START_TEST(not_measured_cells)
{
	static const char text[] =
		"Processor, Processes - times in microseconds - smaller is better\n"
		"------------------------------------------------------------------------------\n"
		"Host                 OS  Mhz null null      open slct sig  sig  fork exec sh\n"
		"                             call  I/O stat clos TCP  inst hndl proc proc proc\n"
		"--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----\n"
		"vm          Linux 6.1.0   -1 0.08 0.17 0.40 0.81 2.63 0.12 0.84 97.2 285. 657.\n"
		"vm          Linux 6.1.0   -1 0.08    - 0.41   -1 2.61 0.12 0.85      287. 660.\n";
	static const char shown[] =
		"vm          Linux 6.1.0      0.08      0.41      2.61 0.12 0.85      287. 660.\n";
	struct pm_import_log log = { 0 };
	struct pm_result *runs;
	struct pm_err e = { "" };
	const struct pm_result *v[1];
	char *out = NULL;
	size_t n, len = 0;
	FILE *f;

	ck_assert_msg(pm_import_lmbench_flags(text, "n.txt", PM_IMPORT_STRICT, &runs, &n, &log,
					      &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 2);
	ck_assert_uint_eq(log.nwarnings, 0);
	ck_assert_uint_eq(runs[0].nbench, 10);
	ck_assert_uint_eq(runs[1].nbench, 7);
	ck_assert(isnan(fig(&runs[1], "proc: null I/O")));
	ck_assert(isnan(fig(&runs[1], "proc: open clos")));
	ck_assert(isnan(fig(&runs[1], "proc: fork proc")));
	ck_assert(same_figure(fig(&runs[1], "proc: slct TCP"), 2.61));
	ck_assert(same_figure(fig(&runs[1], "proc: sh proc"), 660));
	/* the clock rate lmbench could not measure */
	ck_assert(json_is_null(pm_sysinfo_get(runs[0].sysinfo, "cpu.cur_mhz")));
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(runs[0].sysinfo,
		"unavailable"), "cpu.cur_mhz")), "not measured (Mhz -1 or blank in the lmbench summary)");
	v[0] = &runs[1];
	f = open_memstream(&out, &len);
	pm_render_lmbench(v, NULL, 1, f);
	fclose(f);
	ck_assert_msg(strstr(out, shown) != NULL, "%s", out);
	free(out);
	pm_import_log_free(&log);
	pm_import_free(runs, n);
}
END_TEST

/* Blanks intact, with a mailer's tab: positions still place the
 * figures. */
START_TEST(blank_by_columns_tab)
{
	char *tabbed = edit(intact, "alpha      Linux 2.6.20", "alpha\t   Linux 2.6.20");
	struct pm_result *runs;
	struct pm_err e = { "" };
	size_t n;

	ck_assert_msg(pm_import_lmbench_flags(tabbed, "t.txt", PM_IMPORT_STRICT, &runs, &n, NULL,
					      &e) == 0, "%s", e.msg);
	ck_assert(isnan(fig(&runs[0], "proc: slct TCP")));
	ck_assert(same_figure(fig(&runs[0], "proc: sig inst"), 1.10));
	pm_import_free(runs, n);
	free(tabbed);
}
END_TEST

/* Blanks collapsed, one blank: getsummary's number shapes place what
 * they can ("2.14310" needs a field of 7, "1.734" one of 5). */
START_TEST(placed_by_shape)
{
	static const char text[] =
		"File & VM system latencies in microseconds - smaller is better "
		"----------- Host OS 0K File 10K File Mmap Prot Page 100fd "
		"Create Delete Create Delete Latency Fault Fault selct "
		"--------- ------------- ------ ------ ------ ------ ------- ----- ------- ----- "
		"a Linux 2.6.1 222.3 172.4 1003.0 350.5 41.5K 1.734 2.14310 "
		"b Linux 2.6.2 222.3 172.4 1003.0 350.5 41.5K 7.09560 18.0\n";
	struct pm_import_log log = { 0 };
	struct pm_result *runs;
	struct pm_err e = { "" };
	size_t n;

	ck_assert_msg(pm_import_lmbench_flags(text, "s.txt", 0, &runs, &n, &log, &e) == 0,
		      "%s", e.msg);
	/* a: "1.734" is Prot Fault, so "2.14310" Page Fault, the blank is
	 * 100fd selct and the five before fill the first five columns */
	ck_assert(isnan(fig(&runs[0], "fs: 100fd selct")));
	ck_assert(same_figure(fig(&runs[0], "fs: 0K File Create"), 222.3));
	ck_assert(same_figure(fig(&runs[0], "fs: Mmap Latency"), 41.5e3));
	ck_assert(same_figure(fig(&runs[0], "fs: Prot Fault"), 1.734));
	ck_assert(same_figure(fig(&runs[0], "fs: Page Fault"), 2.14310));
	ck_assert_uint_eq(runs[0].nbench, 7);
	/* b: "7.09560" is Page Fault (in Mmap five figures would be left
	 * for four columns), 18.0 is 100fd selct; the blank is any before */
	ck_assert(same_figure(fig(&runs[1], "fs: Page Fault"), 7.09560));
	ck_assert(same_figure(fig(&runs[1], "fs: 100fd selct"), 18.0));
	ck_assert_uint_eq(runs[1].nbench, 2);
	ck_assert_uint_eq(log.nwarnings, 1);
	ck_assert_ptr_nonnull(strstr(log.warnings[0], "row 2 (b Linux 2.6.2): 222.3 172.4 1003.0 350.5 41.5K not imported: 7 figures for 8 columns, and they do not show which one is blank (any of 0K File Create, 0K File Delete, 10K File Create, 10K File Delete, Mmap Latency, Prot Fault)"));
	pm_import_log_free(&log);
	pm_import_free(runs, n);
}
END_TEST

/* Text inside a table is skipped up to the next row; prose mentioning a
 * kernel after the last table is not a row. */
START_TEST(text_inside_table)
{
	struct pm_import_log log = { 0 };
	struct pm_result *runs;
	struct pm_err e = { "" };
	char *text = seed("lmbench2-six-rows.txt"), *mid, *prose;
	size_t n;

	mid = edit(text, "214.2.168 Linux 2.6.6 407 0.42 0.73",
		   "(the second 2.6.6 run follows)\n214.2.168 Linux 2.6.6 407 0.42 0.73");
	ck_assert_msg(pm_import_lmbench_flags(mid, "m.txt", PM_IMPORT_STRICT, &runs, &n, &log,
					      &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 6);
	ck_assert(same_figure(fig(&runs[5], "proc: sh proc"), 6083));
	ck_assert(logged(log.notes, log.nnotes, "Processor, Processes: after row 5 (214.2.168 Linux 2.6.6), \"(the second 2.6.6 run follows)\" (5 words) skipped"));
	pm_import_log_free(&log);
	pm_import_free(runs, n);
	prose = edit(text, "-\nYou get this",
		     "I also ran it on Linux 2.6.5 twice, and\nbox Linux 2.6.5 was no faster, by 3 or 4 percent.\n-\nYou get this");
	ck_assert_msg(pm_import_lmbench(prose, "p.txt", &runs, &n, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 6);
	ck_assert_uint_eq(runs[5].nbench, 44);
	pm_import_free(runs, n);
	free(mid);
	free(prose);
	free(text);
}
END_TEST

/* An old mail in Latin-1: the host comes out in UTF-8 (result files are
 * JSON), still 9 characters at most. */
START_TEST(latin1_text)
{
	struct pm_result *runs;
	struct pm_err e = { "" };
	char *text = seed("lmbench-collapsed-2.6.11.txt"), *p;
	const char *host;
	size_t n;

	while ((p = strstr(text, "commando-")))
		memcpy(p, "comm\xe9ndo-", 9);
	ck_assert_msg(pm_import_lmbench(text, "l\xe9.txt", &runs, &n, &e) == 0, "%s", e.msg);
	ck_assert_uint_eq(n, 2);
	host = json_string_value(pm_sysinfo_get(runs[0].sysinfo, "hostname"));
	ck_assert_ptr_nonnull(host);
	ck_assert_str_eq(host, "comm\xc3\xa9ndo-");
	ck_assert_str_eq(json_string_value(json_object_get(json_object_get(runs[0].options,
		"import"), "file")), "l\xc3\xa9.txt");
	ck_assert(same_figure(fig(&runs[1], "proc: fork proc"), 235));
	pm_import_free(runs, n);
	free(text);
}
END_TEST

/* ---- explain on an imported side ---- */

/* An imported side has figures, OS string and Mhz only: explain names
 * no cause that needs more (here a placement that differs, which on two
 * runs is a high-confidence cause), while the CPU clock and noise stand. */
START_TEST(explain_imported_side)
{
	struct pm_side old = { 0 }, new = { 0 };
	struct pm_explain_opts opts;
	struct pm_explanation x;
	struct pm_result *runs;
	struct pm_err e = { "" };
	size_t n, i, k, pipe = 0;

	import_ok("lmbench-collapsed-2.6.11.txt", 0, &runs, &n, NULL);
	ck_assert_uint_eq(n, 2);
	old.name = pm_xstrdup("old");
	old.runs = pm_xcalloc(1, sizeof(*old.runs));
	old.runs[0] = runs[0];
	old.nruns = 1;
	/* the other as if run here: placed, on a faster clock */
	new.name = pm_xstrdup("new");
	new.runs = pm_xcalloc(1, sizeof(*new.runs));
	new.runs[0] = runs[1];
	new.nruns = 1;
	free(runs);
	free(new.runs[0].source);
	new.runs[0].source = pm_xstrdup("run");
	for (i = 0; i < new.runs[0].nbench; i++) {
		new.runs[0].bench[i].placement = pm_xstrdup("same");
		new.runs[0].bench[i].cpu = 0;
	}
	json_object_set_new(json_object_get(new.runs[0].sysinfo, "cpu"), "cur_mhz",
			    json_integer(3000));
	pm_explain_opts_default(&opts);
	ck_assert_msg(pm_explain(&x, &old, &new, &opts, &e) == 0, "%s", e.msg);
	ck_assert_uint_gt(x.ncmp, 30);
	for (i = 0; i < x.ncmp; i++) {
		const struct pm_bench_cmp *c = &x.cmp[i];

		for (k = 0; k < c->ncauses; k++)
			ck_assert_msg(!strcmp(c->causes[k].rule, "noise") ||
				      !strcmp(c->causes[k].rule, "cpu"),
				      "%s: cause %s on an imported side", c->name, c->causes[k].rule);
		if (!strcmp(c->name, "bw-pipe")) {
			/* 313. -> 554. MB/s: a change, the clock one cause */
			pipe++;
			ck_assert(c->ncauses >= 1);
			for (k = 0; k < c->ncauses && strcmp(c->causes[k].rule, "cpu"); k++)
				;
			ck_assert_msg(k < c->ncauses, "bw-pipe: no CPU clock cause");
			ck_assert_ptr_nonnull(strstr(c->causes[k].sentence, "2400 MHz -> 3000 MHz"));
		}
	}
	ck_assert_uint_eq(pipe, 1);
	for (i = 0; i < x.nunavailable && !strstr(x.unavailable[i], "OLD is imported"); i++)
		;
	ck_assert_msg(i < x.nunavailable, "no note on the imported side");
	ck_assert_ptr_nonnull(strstr(x.unavailable[i], "figures only, with no counters, hotspots or fingerprint beyond the OS string and Mhz"));
	pm_explanation_free(&x);
	pm_side_free(&old);
	pm_side_free(&new);
}
END_TEST

/* ---- the renderer ---- */

START_TEST(num_format)
{
	static const struct {
		double v;
		int len;
		const char *s;
	} cases[] = {
		{ 0.49, 4, "0.49" }, { 166.3, 4, "166." }, { 2972.4, 4, "2972" },
		{ 33400, 4, "33.K" }, { 7.58, 6, "7.5800" }, { 1551.7, 6, "1551.7" },
		{ 8.37, 7, "8.37000" }, { 41543, 7, "  41.5K" }, { 76.3, 5, " 76.3" },
		{ 12.5e6, 5, "12.5M" }, { 0, 4, "    " }, { -1, 5, "     " },
		{ NAN, 4, "    " }, { 9.99, 4, "9.99" }, { 10, 4, "10.0" },
	};
	char buf[32];
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(cases); i++) {
		pm_lmb_num(buf, sizeof(buf), cases[i].v, cases[i].len);
		ck_assert_str_eq(buf, cases[i].s);
	}
}
END_TEST

/* Rendered, then imported again: the same figures, bit for bit. */
START_TEST(render_round_trip)
{
	static const char *const seeds[] = { "lmbench-collapsed-2.6.11.txt",
		"lmbench3-wrapped-ppc.txt", "lmbench2-six-rows.txt", "lmbench3-getsummary-vm.txt" };
	struct pm_result *a, *b;
	struct pm_err e = { "" };
	size_t na, nb, r, i, s;

	for (s = 0; s < PM_ARRAY_SIZE(seeds); s++) {
		const struct pm_result *v[MAXRUNS];
		char *text = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&text, &len);

		import_ok(seeds[s], 0, &a, &na, NULL);
		for (r = 0; r < na; r++)
			v[r] = &a[r];
		pm_render_lmbench(v, NULL, na, f);
		fclose(f);
		ck_assert_msg(pm_import_lmbench(text, "rendered", &b, &nb, &e) == 0, "%s: %s",
			      seeds[s], e.msg);
		ck_assert_uint_eq(na, nb);
		for (r = 0; r < na; r++) {
			/* the Local latencies' 2p/0K repeats ctx when absent */
			size_t extra = by_key(&a[r], "lat: 2p/0K ctxsw") == NULL &&
				       by_key(&b[r], "lat: 2p/0K ctxsw") != NULL;

			ck_assert_uint_eq(a[r].nbench + extra, b[r].nbench);
			for (i = 0; i < a[r].nbench; i++) {
				const struct pm_bench_result *x = &a[r].bench[i];
				const struct pm_bench_result *y = by_key(&b[r], x->lmbench);

				ck_assert_ptr_nonnull(y);
				ck_assert_msg(x->trials[0] == y->trials[0], "%s run %zu %s: %.17g %.17g",
					      seeds[s], r + 1, x->lmbench, x->trials[0], y->trials[0]);
			}
			ck_assert_str_eq(a[r].label, b[r].label);
		}
		pm_import_free(a, na);
		pm_import_free(b, nb);
		free(text);
	}
}
END_TEST

/* ---- the layout table and the registry agree ---- */

/*
 * The lmbench layout (what show --format lmbench prints and the importer
 * reads) and the benchmarks' .lmbench declarations: every figure column
 * is exactly one benchmark's, unless it is marked as only imported (and
 * then no benchmark's), and every benchmark with a column is in the layout.
 */
START_TEST(layout_matches_registry)
{
	const struct pm_bench *b;
	struct pm_bench_ident id;
	size_t i, s, c, n;

	for (i = 0; (b = pm_bench_at(i)); i++) {
		const struct pm_lmb_column *col;
		const struct pm_lmb_section *in;

		if (!b->lmbench)
			continue;
		col = pm_lmb_find(b->lmbench, &in);
		ck_assert_msg(col != NULL, "%s: \"%s\" is not a column of the layout",
			      b->name, b->lmbench);
		ck_assert_msg(!col->imported_only, "%s: \"%s\" is marked imported only",
			      b->name, b->lmbench);
		ck_assert(pm_lmb_bench(col, &id));
		ck_assert_str_eq(id.name, b->name);
		ck_assert_str_eq(pm_lmb_name(col), b->name);
		ck_assert_str_eq(pm_lmb_unit(col), b->unit);
	}
	for (s = 0; s < pm_lmb_nsections; s++) {
		const struct pm_lmb_section *sec = &pm_lmb_sections[s];

		ck_assert_uint_le(sec->ncols, PM_LMB_MAX_COLS);
		for (c = 0; c < sec->ncols; c++) {
			const struct pm_lmb_column *col = &sec->cols[c];
			const struct pm_lmb_section *in;
			size_t t, d;

			if (col->kind != PM_LMB_FIGURE)
				continue;
			ck_assert_msg(!strncmp(col->key, sec->key, strlen(sec->key)) &&
				      col->key[strlen(sec->key)] == ':', "%s", col->key);
			ck_assert_ptr_eq(pm_lmb_find(col->key, &in), col);
			ck_assert_ptr_eq(in, sec);
			/* one benchmark declares it, or none and the column says so */
			for (i = n = 0; (b = pm_bench_at(i)); i++)
				n += b->lmbench && !strcmp(b->lmbench, col->key);
			if (col->imported_only) {
				ck_assert_msg(n == 0, "column \"%s\" is marked imported only, "
					      "but a benchmark measures it", col->key);
				ck_assert(col->name && col->unit && col->summary);
				ck_assert_ptr_null(pm_bench_find(col->name));
			} else {
				ck_assert_msg(n == 1, "column \"%s\": %zu benchmarks declare it "
					      "(.lmbench)", col->key, n);
				ck_assert_msg(!col->name && !col->unit && !col->summary,
					      "column \"%s\" repeats what its benchmark declares",
					      col->key);
			}
			for (t = 0; t < pm_lmb_nsections; t++)
				for (d = 0; d < pm_lmb_sections[t].ncols; d++) {
					const struct pm_lmb_column *o = &pm_lmb_sections[t].cols[d];

					if (o != col && o->kind == PM_LMB_FIGURE)
						ck_assert_msg(strcmp(pm_lmb_name(o), pm_lmb_name(col)),
							      "name %s twice", pm_lmb_name(col));
				}
		}
	}
}
END_TEST

static Suite *suite(void)
{
	Suite *s = suite_create("import");
	TCase *tc = tcase_create("core");

	tcase_add_test(tc, collapsed_one_line);
	tcase_add_test(tc, lmbench2_six_rows);
	tcase_add_test(tc, wrapped_strict);
	tcase_add_test(tc, wrapped_default);
	tcase_add_test(tc, getsummary_report);
	tcase_add_test(tc, aim9_quoted);
	tcase_add_loop_test(tc, rejects_corrupt, 0, PM_ARRAY_SIZE(corrupt));
	tcase_add_loop_test(tc, unplaceable_rows, 0, PM_ARRAY_SIZE(unplaceable));
	tcase_add_loop_test(tc, rejects_corrupt_aim9, 0, PM_ARRAY_SIZE(corrupt_aim9));
	tcase_add_test(tc, blank_by_columns);
	tcase_add_test(tc, blank_collapsed);
	tcase_add_test(tc, missing_rows);
	tcase_add_test(tc, bad_mhz_row);
	tcase_add_test(tc, footer_ends_row);
	tcase_add_test(tc, header_ends_table);
	tcase_add_test(tc, not_measured_cells);
	tcase_add_test(tc, blank_by_columns_tab);
	tcase_add_test(tc, placed_by_shape);
	tcase_add_test(tc, text_inside_table);
	tcase_add_test(tc, latin1_text);
	tcase_add_test(tc, explain_imported_side);
	tcase_add_test(tc, num_format);
	tcase_add_test(tc, render_round_trip);
	tcase_add_test(tc, layout_matches_registry);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(suite());
	int failed;

	pm_catalog_set(&pm_bench_catalog);
	srunner_run_all(sr, CK_NORMAL);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
