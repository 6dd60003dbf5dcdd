/*
 * The ops family: the latency of basic integer, float and double
 * operations, after lmbench's lat_ops.
 *
 * Each benchmark is a dependent chain of one operation, 100 per loop
 * iteration: every operation needs the result of the one before, so the
 * time per operation is its latency, not its throughput.  An empty asm
 * statement after every operation keeps the value in a register and
 * hides it from the optimizer, so that the chain can be neither folded
 * nor shortened; it emits no instruction.
 *
 * As in lmbench: int-bit is a chain of xor and shift (two operations);
 * int-add/mul/div/mod compute r = (r OP i) ^ r, and the cost of the xor,
 * one int-bit operation measured during setup, is subtracted; the float
 * and double chains are f += f, f *= f and f = g / f; "bogo" is the
 * bogomflop x[i] = (1.0 + x[i]) * (1.5 - x[i]) / x[i] over an array of
 * 1000, independent from one element to the next, one element per
 * operation.
 *
 * The chained values and the operand i stay in ctx->priv from one loop
 * to the next, so no call starts from a constant the compiler could fold.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "bench/bench.h"
#include "util.h"

/* Keep an integer or floating value in a register, opaque to the compiler. */
#define OPS_KEEP(x) __asm__("" : "+r"(x))
#if defined(__x86_64__) || defined(__i386__)
#define OPS_KEEP_F(x) __asm__("" : "+x"(x))
#elif defined(__aarch64__) || defined(__arm__)
#define OPS_KEEP_F(x) __asm__("" : "+w"(x))
#else
#define OPS_KEEP_F(x) __asm__("" : "+g"(x))
#endif

#define OPS_X10(m) m m m m m m m m m m
#define OPS_X100(m) OPS_X10(OPS_X10(m))
#define OPS_UNROLL 100

/* lmbench's array of the bogomflops loops */
#define OPS_BOGO_N 1000

struct ops {
	unsigned u;		/* int-bit, int-add, int-mul */
	int r;			/* int-div, int-mod (signed, as lmbench) */
	int i;			/* the operand, 1..1000 (0..999 for bit) */
	float f, fg;
	double d, dg;
	float *fx;
	double *dx;
};

static void ops_teardown(struct pm_ctx *ctx)
{
	struct ops *st = ctx->priv;

	if (!st)
		return;
	free(st->fx);
	free(st->dx);
	free(st);
	ctx->priv = NULL;
}

/* lmbench's starting values: N = 1000 and M = 1. */
static struct ops *ops_new(struct pm_ctx *ctx)
{
	struct ops *st = pm_xcalloc(1, sizeof(*st));

	st->u = 1000;
	st->r = 1000;
	st->i = 1;
	st->f = 1000;
	st->fg = 1;
	st->d = 1000;
	st->dg = 1;
	ctx->priv = st;
	ctx->ops_per_iter = OPS_UNROLL;
	return st;
}

/* The next operand: 1..1000 as lmbench's inner loop. */
static int ops_next(int i)
{
	return i >= 1000 ? 1 : i + 1;
}

/* ---- integer ---- */

#define BIT_STEP u ^= (unsigned)i; OPS_KEEP(u); u <<= 1; OPS_KEEP(u);
#define ADD_STEP u = (u + (unsigned)i) ^ u; OPS_KEEP(u);
#define MUL_STEP u = (u * (unsigned)i) ^ u; OPS_KEEP(u);
#define DIV_STEP r = (r / i) ^ r; OPS_KEEP(r);
#define MOD_STEP r = (r % i) ^ r; OPS_KEEP(r);

static void ops_bit_loop(struct ops *st, uint64_t iters)
{
	unsigned u = st->u;
	int i = st->i;

	while (iters--) {
		OPS_X100(BIT_STEP)
		i = ops_next(i);
	}
	st->u = u;
	st->i = i;
}

static int bit_run(struct pm_ctx *ctx, uint64_t iters)
{
	ops_bit_loop(ctx->priv, iters);
	return 0;
}

static int add_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	unsigned u = st->u;
	int i = st->i;

	while (iters--) {
		OPS_X100(ADD_STEP)
		i = ops_next(i);
	}
	st->u = u;
	st->i = i;
	return 0;
}

static int mul_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	unsigned u = st->u;
	int i = st->i;

	while (iters--) {
		OPS_X100(MUL_STEP)
		i = ops_next(i);
	}
	st->u = u;
	st->i = i;
	return 0;
}

static int div_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	int r = st->r, i = st->i;

	while (iters--) {
		OPS_X100(DIV_STEP)
		i = ops_next(i);
	}
	st->r = r;
	st->i = i;
	return 0;
}

static int mod_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	int r = st->r, i = st->i;

	while (iters--) {
		OPS_X100(MOD_STEP)
		i = ops_next(i);
	}
	st->r = r;
	st->i = i;
	return 0;
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * The time of one int-bit operation (an xor or a shift), as lmbench
 * times "integer bit" first and subtracts it from the others: the
 * fastest of 9 loops of about 2 ms.  The fastest, because a busy
 * machine only ever slows a loop down, and the figure is one cycle or
 * so: a loop slowed by a preemption would make the subtraction absurd.
 */
#define OPS_BIT_LOOPS 9
#define OPS_BIT_LOOP_NS 2e6

static double ops_bit_ns(void)
{
	struct ops st = { .u = 1000, .i = 0 };
	double v[OPS_BIT_LOOPS];
	uint64_t n = 16, t0, t = 0;
	int k;

	for (;;) {
		t0 = pm_now_ns();
		ops_bit_loop(&st, n);
		t = pm_now_ns() - t0;
		if (t >= 1000000 || n >= (1ull << 40))
			break;
		n *= 4;
	}
	n = (uint64_t)(OPS_BIT_LOOP_NS * (double)n / (double)(t ? t : 1));
	if (n < 1)
		n = 1;
	for (k = 0; k < OPS_BIT_LOOPS; k++) {
		t0 = pm_now_ns();
		ops_bit_loop(&st, n);
		v[k] = (double)(pm_now_ns() - t0) / ((double)n * 2 * OPS_UNROLL);
	}
	qsort(v, OPS_BIT_LOOPS, sizeof(v[0]), cmp_double);
	return v[0];
}

static int bit_setup(struct pm_ctx *ctx)
{
	struct ops *st = ops_new(ctx);

	st->i = 0;
	/* two operations per step: the xor and the shift */
	ctx->ops_per_iter = 2 * OPS_UNROLL;
	snprintf(ctx->params, sizeof(ctx->params),
		 "r ^= i; r <<= 1 (32-bit), %d per iteration",
		 2 * OPS_UNROLL);
	return 0;
}

/* r = (r OP i) ^ r: the xor, one int-bit operation, is subtracted; .arg
 * is OP as text. */
static int intop_setup(struct pm_ctx *ctx)
{
	const char *op = ctx->bench->arg;
	double bit = ops_bit_ns();

	ops_new(ctx);
	ctx->overhead_ns = bit;
	snprintf(ctx->params, sizeof(ctx->params),
		 "r = (r %s i) ^ r (32-bit), i = 1..1000; the xor (int-bit, "
		 "%.3f ns) subtracted", op, bit);
	return 0;
}


/* ---- float and double ---- */

#define FADD_STEP f += f; OPS_KEEP_F(f);
#define FMUL_STEP f *= f; OPS_KEEP_F(f);
#define FDIV_STEP f = g / f; OPS_KEEP_F(f);

static int fadd_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	float f = st->f;

	while (iters--) {
		OPS_X100(FADD_STEP)
	}
	st->f = f;
	return 0;
}

static int fmul_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	float f = st->f;

	while (iters--) {
		OPS_X100(FMUL_STEP)
	}
	st->f = f;
	return 0;
}

static int fdiv_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	float f = st->f, g = st->fg;

	OPS_KEEP_F(g);
	while (iters--) {
		OPS_X100(FDIV_STEP)
	}
	st->f = f;
	return 0;
}

static int dadd_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	double f = st->d;

	while (iters--) {
		OPS_X100(FADD_STEP)
	}
	st->d = f;
	return 0;
}

static int dmul_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	double f = st->d;

	while (iters--) {
		OPS_X100(FMUL_STEP)
	}
	st->d = f;
	return 0;
}

static int ddiv_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	double f = st->d, g = st->dg;

	OPS_KEEP_F(g);
	while (iters--) {
		OPS_X100(FDIV_STEP)
	}
	st->d = f;
	return 0;
}

/* A float or double descriptor's .arg: what its parameters say. */
struct fp_arg {
	const char *type, *expr;
};

static int fp_setup(struct pm_ctx *ctx)
{
	const struct fp_arg *a = ctx->bench->arg;

	ops_new(ctx);
	snprintf(ctx->params, sizeof(ctx->params),
		 "%s chain %s, %d per iteration", a->type, a->expr, OPS_UNROLL);
	return 0;
}

/* ---- bogomflops ---- */

static int fbogo_setup(struct pm_ctx *ctx)
{
	struct ops *st = ops_new(ctx);
	size_t k;

	st->fx = pm_xmalloc(OPS_BOGO_N * sizeof(*st->fx));
	for (k = 0; k < OPS_BOGO_N; k++)
		st->fx[k] = 1;
	ctx->ops_per_iter = OPS_BOGO_N;
	snprintf(ctx->params, sizeof(ctx->params),
		 "float x[%d], x[i] = (1.0 + x[i]) * (1.5 - x[i]) / x[i] "
		 "(double constants, as lmbench)", OPS_BOGO_N);
	return 0;
}

static int dbogo_setup(struct pm_ctx *ctx)
{
	struct ops *st = ops_new(ctx);
	size_t k;

	st->dx = pm_xmalloc(OPS_BOGO_N * sizeof(*st->dx));
	for (k = 0; k < OPS_BOGO_N; k++)
		st->dx[k] = 1;
	ctx->ops_per_iter = OPS_BOGO_N;
	snprintf(ctx->params, sizeof(ctx->params),
		 "double x[%d], x[i] = (1.0 + x[i]) * (1.5 - x[i]) / x[i]",
		 OPS_BOGO_N);
	return 0;
}

/* One element per operation; the asm keeps the loop scalar, as lmbench's. */
static int fbogo_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	float *x = st->fx;
	int k;

	while (iters--) {
		for (k = 0; k < OPS_BOGO_N; k++) {
			float y = (float)((1.0 + x[k]) * (1.5 - x[k]) / x[k]);

			OPS_KEEP_F(y);
			x[k] = y;
		}
	}
	return 0;
}

static int dbogo_run(struct pm_ctx *ctx, uint64_t iters)
{
	struct ops *st = ctx->priv;
	double *x = st->dx;
	int k;

	while (iters--) {
		for (k = 0; k < OPS_BOGO_N; k++) {
			double y = (1.0 + x[k]) * (1.5 - x[k]) / x[k];

			OPS_KEEP_F(y);
			x[k] = y;
		}
	}
	return 0;
}

/* ---- the table ---- */

/* run(), not op(), for all: an iteration is a few ns of register
 * arithmetic; a call per iteration would be measured. */
static const struct pm_bench ops_benches[] = {
	{
		.name = "int-bit",
		.group = "ops",
		.summary = "32-bit xor or shift in a dependent chain",
		.unit = "ns",
		.lmbench = "int: intgr bit",
		.setup = bit_setup,
		.run = bit_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "int-add",
		.group = "ops",
		.summary = "32-bit add in a dependent chain",
		.unit = "ns",
		.lmbench = "int: intgr add",
		.setup = intop_setup,
		.arg = "+",
		.run = add_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "int-mul",
		.group = "ops",
		.summary = "32-bit multiply in a dependent chain",
		.unit = "ns",
		.lmbench = "int: intgr mul",
		.setup = intop_setup,
		.arg = "*",
		.run = mul_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "int-div",
		.group = "ops",
		.summary = "32-bit signed divide in a dependent chain",
		.unit = "ns",
		.lmbench = "int: intgr div",
		.setup = intop_setup,
		.arg = "/",
		.run = div_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "int-mod",
		.group = "ops",
		.summary = "32-bit signed remainder in a dependent chain",
		.unit = "ns",
		.lmbench = "int: intgr mod",
		.setup = intop_setup,
		.arg = "%",
		.run = mod_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "float-add",
		.group = "ops",
		.summary = "float add in a dependent chain",
		.unit = "ns",
		.lmbench = "float: float add",
		.setup = fp_setup,
		.arg = &(const struct fp_arg){ "float", "f += f" },
		.run = fadd_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "float-mul",
		.group = "ops",
		.summary = "float multiply in a dependent chain",
		.unit = "ns",
		.lmbench = "float: float mul",
		.setup = fp_setup,
		.arg = &(const struct fp_arg){ "float", "f *= f" },
		.run = fmul_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "float-div",
		.group = "ops",
		.summary = "float divide in a dependent chain",
		.unit = "ns",
		.lmbench = "float: float div",
		.setup = fp_setup,
		.arg = &(const struct fp_arg){ "float", "f = g / f" },
		.run = fdiv_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "float-bogo",
		.group = "ops",
		.summary = "bogomflop (add, subtract, multiply, divide) on one "
			   "float array element",
		.unit = "ns",
		.lmbench = "float: float bogo",
		.setup = fbogo_setup,
		.run = fbogo_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "double-add",
		.group = "ops",
		.summary = "double add in a dependent chain",
		.unit = "ns",
		.lmbench = "double: double add",
		.setup = fp_setup,
		.arg = &(const struct fp_arg){ "double", "f += f" },
		.run = dadd_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "double-mul",
		.group = "ops",
		.summary = "double multiply in a dependent chain",
		.unit = "ns",
		.lmbench = "double: double mul",
		.setup = fp_setup,
		.arg = &(const struct fp_arg){ "double", "f *= f" },
		.run = dmul_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "double-div",
		.group = "ops",
		.summary = "double divide in a dependent chain",
		.unit = "ns",
		.lmbench = "double: double div",
		.setup = fp_setup,
		.arg = &(const struct fp_arg){ "double", "f = g / f" },
		.run = ddiv_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
	{
		.name = "double-bogo",
		.group = "ops",
		.summary = "bogomflop (add, subtract, multiply, divide) on one "
			   "double array element",
		.unit = "ns",
		.lmbench = "double: double bogo",
		.setup = dbogo_setup,
		.run = dbogo_run,
		.teardown = ops_teardown,
		.exercises = PM_EX_CPU,
	},
};

PM_FAMILY(ops, "basic integer, float and double operations", ops_benches);
