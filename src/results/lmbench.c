/*
 * The lmbench summary layout: section titles, column heads and number
 * formats as lmbench 3's scripts/getsummary prints them, plus the heads
 * of older versions (lmbench 2, lmbench 3 alphas) for the importer.
 * The column keys are the benchmarks' .lmbench strings.  A format, as
 * the result file is: show --format lmbench writes it (views/lmbench.c),
 * import reads it (import/import.c).
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "results/catalog.h"
#include "results/lmbench.h"

/*
 * Figure columns: the key (a benchmark's .lmbench, which gives the name,
 * unit and summary), num() length and field width.  The _IMPORTED ones
 * are figures no pmbench benchmark measures (another host, lmbench's own
 * settings): read from summaries only, their name, unit and summary here.
 */
#define NUM(k, l, w) { .key = k, .kind = PM_LMB_FIGURE, .fmt = PM_LMB_NUM, \
	.len = l, .width = w, .sep = " " }
#define INUM(k, l) { .key = k, .kind = PM_LMB_FIGURE, .fmt = PM_LMB_INUM, \
	.len = l, .width = l, .sep = " " }
#define NUM_IMPORTED(k, n, u, l, w, s) { .key = k, .name = n, .unit = u, \
	.summary = s, .imported_only = true, .kind = PM_LMB_FIGURE, \
	.fmt = PM_LMB_NUM, .len = l, .width = w, .sep = " " }
#define INUM_IMPORTED(k, n, u, l, s) { .key = k, .name = n, .unit = u, \
	.summary = s, .imported_only = true, .kind = PM_LMB_FIGURE, \
	.fmt = PM_LMB_INUM, .len = l, .width = l, .sep = " " }
/* A section's columns and older layouts, counted by the compiler. */
#define COLS(...) .cols = { __VA_ARGS__ }, \
	.ncols = sizeof((struct pm_lmb_column[]){ __VA_ARGS__ }) / sizeof(struct pm_lmb_column)
#define VARIANTS(...) .variants = { __VA_ARGS__ }, \
	.nvariants = sizeof((struct pm_lmb_variant[]){ __VA_ARGS__ }) / \
		     sizeof(struct pm_lmb_variant)
#define MHZ(f, sp) { .kind = PM_LMB_MHZ, .fmt = f, .len = 4, .width = 4, .sep = sp }

#define D61 "-------------------------------------------------------------"

const struct pm_lmb_section pm_lmb_sections[] = {
	{
		.key = "basic", .name = "Basic system parameters",
		.title = "Basic system parameters",
		.rule = D61 "-----------------",
		.heads = {
			"Host                 OS Description              Mhz  tlb  cache  mem   scal",
			"                                                     pages line   par   load",
			"                                                           bytes  ",
		},
		.dashes = "--------- ------------- ----------------------- ---- ----- ----- ------ ----",
		COLS(
			{ .kind = PM_LMB_DESC, .fmt = PM_LMB_TEXT, .len = 23, .width = 23, .sep = " " },
			MHZ(PM_LMB_INUM, " "),
			INUM("basic: tlb pages", 5),
			INUM("basic: cache line bytes", 5),
			NUM("basic: mem par", 6, 6),
			INUM_IMPORTED("basic: scal load", "scal-load", "copies", 4,
				      "copies of each benchmark run at once (lmbench SYNC_MAX)")
		),
		VARIANTS(
			{ "lmbench 2",
			  { "Host                 OS Description              Mhz" },
			  { 0, 1, -1 } },
			{ "lmbench 3 alpha",
			  { "Host                 OS Description              Mhz tlb   cacheline  memory",
			    "                                                     pages   bytes    parallel" },
			  { 0, 1, 2, 3, 4, -1 } }
		),
	},
	{
		.key = "proc", .name = "Processor, Processes",
		.title = "Processor, Processes - times in microseconds - smaller is better",
		.rule = D61 "-----------------",
		.heads = {
			"Host                 OS  Mhz null null      open slct sig  sig  fork exec sh  ",
			"                             call  I/O stat clos TCP  inst hndl proc proc proc",
		},
		.dashes = "--------- ------------- ---- ---- ---- ---- ---- ---- ---- ---- ---- ---- ----",
		COLS(
			MHZ(PM_LMB_FIXED, " "),
			NUM("proc: null call", 4, 4),
			NUM("proc: null I/O", 4, 4),
			NUM("proc: stat", 4, 4),
			NUM("proc: open clos", 4, 4),
			NUM("proc: slct TCP", 4, 4),
			NUM("proc: sig inst", 4, 4),
			NUM("proc: sig hndl", 4, 4),
			NUM("proc: fork proc", 4, 4),
			NUM("proc: exec proc", 4, 4),
			NUM("proc: sh proc", 4, 4)
		),
		VARIANTS(
			{ "lmbench 2",
			  { "Host                 OS  Mhz null null      open selct sig  sig  fork exec sh  ",
			    "                             call  I/O stat clos TCP   inst hndl proc proc proc" },
			  { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, -1 } }
		),
	},
	{
		.key = "int", .name = "Basic integer operations",
		.title = "Basic integer operations - times in nanoseconds - smaller is better",
		.rule = D61 "------",
		.heads = {
			"Host                 OS  intgr intgr  intgr  intgr  intgr  ",
			"                          bit   add    mul    div    mod   ",
		},
		.dashes = "--------- ------------- ------ ------ ------ ------ ------ ",
		COLS(
			NUM("int: intgr bit", 6, 6),
			NUM("int: intgr add", 6, 6),
			NUM("int: intgr mul", 6, 6),
			NUM("int: intgr div", 6, 6),
			NUM("int: intgr mod", 6, 6)
		),
	},
	{
		.key = "int64", .name = "Basic int64 operations",
		.title = "Basic int64 operations - times in nanoseconds - smaller is better",
		.rule = D61 "-----",
		.heads = {
			"Host                 OS int64  int64  int64  int64  int64  ",
			"                         bit    add    mul    div    mod   ",
		},
		.dashes = "--------- ------------- ------ ------ ------ ------ ------ ",
		COLS(
			{ .key = "int64: int64 bit", .name = "int64-bit", .unit = "ns",
			  .summary = "64-bit integer bit operation", .imported_only = true,
			  .kind = PM_LMB_FIGURE, .fmt = PM_LMB_NUM, .len = 6, .width = 5,
			  .sep = "  " },
			NUM_IMPORTED("int64: int64 add", "int64-add", "ns", 6, 6,
				     "64-bit integer addition"),
			NUM_IMPORTED("int64: int64 mul", "int64-mul", "ns", 6, 6,
				     "64-bit integer multiplication"),
			NUM_IMPORTED("int64: int64 div", "int64-div", "ns", 6, 6,
				     "64-bit integer division"),
			NUM_IMPORTED("int64: int64 mod", "int64-mod", "ns", 6, 6,
				     "64-bit integer modulo")
		),
	},
	{
		.key = "float", .name = "Basic float operations",
		.title = "Basic float operations - times in nanoseconds - smaller is better",
		.rule = D61 "----",
		.heads = {
			"Host                 OS  float  float  float  float",
			"                         add    mul    div    bogo",
		},
		.dashes = "--------- ------------- ------ ------ ------ ------ ",
		COLS(
			NUM("float: float add", 6, 6),
			NUM("float: float mul", 6, 6),
			NUM("float: float div", 6, 6),
			NUM("float: float bogo", 6, 6)
		),
	},
	{
		.key = "double", .name = "Basic double operations",
		.title = "Basic double operations - times in nanoseconds - smaller is better",
		.rule = D61 "-----",
		.heads = {
			"Host                 OS  double double double double",
			"                         add    mul    div    bogo",
		},
		.dashes = "--------- ------------- ------  ------ ------ ------ ",
		COLS(
			NUM("double: double add", 6, 6),
			NUM("double: double mul", 6, 6),
			NUM("double: double div", 6, 6),
			NUM("double: double bogo", 6, 6)
		),
	},
	{
		.key = "ctx", .name = "Context switching",
		.title = "Context switching - times in microseconds - smaller is better",
		.rule = D61 "------------",
		.heads = {
			"Host                 OS  2p/0K 2p/16K 2p/64K 8p/16K 8p/64K 16p/16K 16p/64K",
			"                         ctxsw  ctxsw  ctxsw ctxsw  ctxsw   ctxsw   ctxsw",
		},
		.dashes = "--------- ------------- ------ ------ ------ ------ ------ ------- -------",
		COLS(
			NUM("ctx: 2p/0K", 6, 6),
			NUM("ctx: 2p/16K", 6, 6),
			NUM("ctx: 2p/64K", 6, 6),
			NUM("ctx: 8p/16K", 6, 6),
			NUM("ctx: 8p/64K", 6, 6),
			NUM("ctx: 16p/16K", 7, 7),
			NUM("ctx: 16p/64K", 7, 7)
		),
	},
	{
		.key = "lat", .name = "*Local* Communication latencies",
		.title = "*Local* Communication latencies in microseconds - smaller is better",
		.rule = D61 "--------",
		.heads = {
			"Host                 OS 2p/0K  Pipe AF     UDP  RPC/   TCP  RPC/ TCP",
			"                        ctxsw       UNIX         UDP         TCP conn",
		},
		.dashes = "--------- ------------- ----- ----- ---- ----- ----- ----- ----- ----",
		COLS(
			/* lmbench 3.0-a3 could print a figure here other than
			 * the Context switching one: kept apart */
			{ .key = "lat: 2p/0K ctxsw", .name = "lat-ctxsw", .unit = "us",
			  .summary = "context switch, 2 processes (as in the latency table)",
			  .imported_only = true, .alt = "ctx: 2p/0K", .kind = PM_LMB_FIGURE, .fmt = PM_LMB_NUM,
			  .len = 5, .width = 5, .sep = " " },
			NUM("lat: Pipe", 5, 5),
			NUM("lat: AF UNIX", 4, 4),
			NUM("lat: UDP", 5, 5),
			NUM("lat: RPC/UDP", 5, 5),
			NUM("lat: TCP", 5, 5),
			NUM("lat: RPC/TCP", 5, 5),
			/* scale_num(v, 5) printed "%4.4s" */
			NUM("lat: TCP conn", 5, 4)
		),
	},
	{
		.key = "remote", .name = "*Remote* Communication latencies",
		.title = "*Remote* Communication latencies in microseconds - smaller is better",
		.rule = D61 "--------",
		.heads = {
			"Host                 OS   UDP  RPC/  TCP   RPC/ TCP",
			"                               UDP         TCP  conn",
		},
		.dashes = "--------- ------------- ----- ----- ----- ----- ----",
		COLS(
			NUM_IMPORTED("remote: UDP", "remote-udp", "us", 5, 5,
				     "UDP round trip to another host"),
			NUM_IMPORTED("remote: RPC/UDP", "remote-rpc-udp", "us", 5, 5,
				     "Sun RPC round trip over UDP to another host"),
			NUM_IMPORTED("remote: TCP", "remote-tcp", "us", 5, 5,
				     "TCP round trip to another host"),
			NUM_IMPORTED("remote: RPC/TCP", "remote-rpc-tcp", "us", 5, 5,
				     "Sun RPC round trip over TCP to another host"),
			NUM_IMPORTED("remote: TCP conn", "remote-tcp-connect", "us", 4, 4,
				     "TCP connection to another host")
		),
	},
	{
		.key = "fs", .name = "File & VM system latencies",
		.title = "File & VM system latencies in microseconds - smaller is better",
		.rule = D61 "------------------",
		.heads = {
			"Host                 OS   0K File      10K File     Mmap    Prot   Page   100fd",
			"                        Create Delete Create Delete Latency Fault  Fault  selct",
		},
		.dashes = "--------- ------------- ------ ------ ------ ------ ------- ----- ------- -----",
		COLS(
			NUM("fs: 0K File Create", 6, 6),
			NUM("fs: 0K File Delete", 6, 6),
			NUM("fs: 10K File Create", 6, 6),
			NUM("fs: 10K File Delete", 6, 6),
			NUM("fs: Mmap Latency", 7, 7),
			NUM("fs: Prot Fault", 5, 5),
			NUM("fs: Page Fault", 7, 7),
			NUM("fs: 100fd selct", 5, 5)
		),
		VARIANTS(
			{ "lmbench 2",
			  { "Host                 OS   0K File      10K File      Mmap    Prot    Page",
			    "                        Create Delete Create Delete  Latency Fault   Fault " },
			  { 0, 1, 2, 3, 4, 5, 6, -1 } }
		),
	},
	{
		.key = "bw", .name = "*Local* Communication bandwidths",
		.title = "*Local* Communication bandwidths in MB/s - bigger is better",
		.rule = D61 "----------------",
		.heads = {
			"Host                OS  Pipe AF    TCP  File   Mmap  Bcopy  Bcopy  Mem   Mem",
			"                             UNIX      reread reread (libc) (hand) read write",
		},
		.dashes = "--------- ------------- ---- ---- ---- ------ ------ ------ ------ ---- -----",
		COLS(
			NUM("bw: Pipe", 4, 4),
			NUM("bw: AF UNIX", 4, 4),
			NUM("bw: TCP", 4, 4),
			NUM("bw: File reread", 6, 6),
			NUM("bw: Mmap reread", 6, 6),
			NUM("bw: Bcopy (libc)", 6, 6),
			NUM("bw: Bcopy (hand)", 6, 6),
			NUM("bw: Mem read", 4, 4),
			NUM("bw: Mem write", 5, 5)
		),
	},
	{
		.key = "mem", .name = "Memory latencies",
		.title = "Memory latencies in nanoseconds - smaller is better",
		.subtitle = "    (WARNING - may not be correct, check graphs)",
		.rule = D61 "-----------------",
		.heads = {
			"Host                 OS   Mhz   L1 $   L2 $    Main mem    Rand mem    Guesses",
		},
		.dashes = "--------- -------------   ---   ----   ----    --------    --------    -------",
		COLS(
			MHZ(PM_LMB_INT, "  "),
			NUM("mem: L1 $", 6, 6),
			NUM("mem: L2 $", 6, 6),
			NUM("mem: Main mem", 6, 6),
			NUM("mem: Rand mem", 6, 11),
			{ .kind = PM_LMB_GUESS, .fmt = PM_LMB_TEXT, .sep = "" }
		),
		VARIANTS(
			{ "lmbench 2",
			  { "Host                 OS   Mhz  L1 $   L2 $    Main mem    Guesses" },
			  { 0, 1, 2, 3, 5, -1 } }
		),
	},
};

const size_t pm_lmb_nsections = PM_ARRAY_SIZE(pm_lmb_sections);

const struct pm_lmb_column *pm_lmb_find(const char *key,
					const struct pm_lmb_section **section)
{
	size_t s, c;

	for (s = 0; s < pm_lmb_nsections; s++)
		for (c = 0; c < pm_lmb_sections[s].ncols; c++) {
			const struct pm_lmb_column *col = &pm_lmb_sections[s].cols[c];

			if (col->key && !strcmp(col->key, key)) {
				if (section)
					*section = &pm_lmb_sections[s];
				return col;
			}
		}
	return NULL;
}

bool pm_lmb_bench(const struct pm_lmb_column *col, struct pm_bench_ident *out)
{
	return col->kind == PM_LMB_FIGURE && !col->imported_only &&
	       pm_catalog_by_lmbench(col->key, out);
}

/* A column that names no benchmark (a typo in a key) reads as "?": the
 * registry test (tests/unit/test-import.c) keeps that from happening. */
const char *pm_lmb_name(const struct pm_lmb_column *col)
{
	struct pm_bench_ident b;

	return pm_lmb_bench(col, &b) ? b.name : col->name ? col->name : "?";
}

const char *pm_lmb_unit(const struct pm_lmb_column *col)
{
	struct pm_bench_ident b;

	return pm_lmb_bench(col, &b) ? b.unit : col->unit ? col->unit : "?";
}

const char *pm_lmb_summary(const struct pm_lmb_column *col)
{
	struct pm_bench_ident b;

	return pm_lmb_bench(col, &b) ? b.summary : col->summary ? col->summary : "?";
}

int pm_lmb_unit_is_measured(const char *unit)
{
	return strcmp(unit, "us") && strcmp(unit, "ns") && strcmp(unit, "MB/s");
}

static void blanks(char *buf, size_t size, int len)
{
	snprintf(buf, size, "%*s", len, "");
}

/* getsummary's num(): "%.1f" cut to the field for 10 and above (so
 * 166.3 is "166." in 4 columns), K and M suffixes from 10 thousand,
 * "%<len>.<len-2>f" below 10. */
void pm_lmb_num(char *buf, size_t size, double v, int len)
{
	char n[64];

	if (!(v > 0) || !isfinite(v)) {
		blanks(buf, size, len);
	} else if (v >= 10e6) {
		snprintf(n, sizeof(n), "%.1f", v / 1e6);
		snprintf(buf, size, "%*.*sM", len - 1, len - 1, n);
	} else if (v >= 10e3) {
		snprintf(n, sizeof(n), "%.1f", v / 1e3);
		snprintf(buf, size, "%*.*sK", len - 1, len - 1, n);
	} else if (v >= 10) {
		snprintf(n, sizeof(n), "%.1f", v);
		snprintf(buf, size, "%*.*s", len, len, n);
	} else if (v < 0.001) {
		snprintf(buf, size, "%*.*e", len, len > 6 ? len - 6 : 0, v);
	} else {
		snprintf(buf, size, "%*.*f", len, len - 2, v);
	}
}
