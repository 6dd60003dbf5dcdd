/* The command line of `pmbench ab` (pmbench-ab(1)) and the guest's run. */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab/ab.h"
#include "ab/guest.h"
#include "bench/bench.h"
#include "util/options.h"

enum {
	OPT_KERNEL = PM_OPT_LONG, OPT_KERNEL_B, OPT_APPEND, OPT_APPEND_A, OPT_APPEND_B,
	OPT_VMLINUX_A, OPT_VMLINUX_B, OPT_CPU, OPT_MEMORY, OPT_VCPUS, OPT_ACCEL,
	OPT_QEMU, OPT_ROUNDS, OPT_TIMEOUT, OPT_KEEP_CONSOLE, OPT_MAX_TIME,
	OPT_RUN_ROUNDS, OPT_NO_PROFILE, OPT_NO_COUNTERS, OPT_RUN_OPTION, OPT_NOISE,
	OPT_BUDGET, OPT_DUET, OPT_NO_CONFIRM, OPT_CONFIRM_BUDGET, OPT_SEED, OPT_LOCAL,
	OPT_SETUP_A, OPT_SETUP_B, OPT_WRAP_A, OPT_WRAP_B, OPT_NO_EMULATED_COUNTS,
	OPT_EMULATED_ICACHE, OPT_EMULATED_CLOCK, OPT_KNOCKOUTS, OPT_KNOCKOUT_BUDGET, OPT_EXIT_CODE,
};

/* --local and its set-up commands and wrappers: the second synopsis line */
#define LOCAL_ONLY .flags = PM_OPT_NO_SYNOPSIS

static const struct pm_option options[] = {
	PM_OPT(OPT_KERNEL, "kernel", "PATH",
	       "kernel A (a bzImage such as /boot/vmlinuz-VERSION)", .flags = PM_OPT_REQUIRED),
	PM_OPT(OPT_KERNEL_B, "kernel-b", "PATH", "kernel B (default: kernel A)"),
	PM_OPT(OPT_APPEND, "append", "TEXT", "kernel arguments for both sides"),
	PM_OPT(OPT_APPEND_A, "append-a", "TEXT", "kernel arguments for side A only"),
	PM_OPT(OPT_APPEND_B, "append-b", "TEXT", "kernel arguments for side B only"),
	PM_OPT(OPT_VMLINUX_A, "vmlinux-a", "PATH",
	       "symbols of kernel A (default: /usr/lib/debug/boot/vmlinux-VERSION if "
	       "present, else kallsyms)"),
	PM_OPT(OPT_VMLINUX_B, "vmlinux-b", "PATH", "symbols of kernel B"),
	PM_OPT(OPT_CPU, "cpu", "MODEL", "QEMU CPU model (default max)"),
	PM_OPT(OPT_MEMORY, "memory", "MB", "guest memory (default 2048)"),
	PM_OPT(OPT_VCPUS, "vcpus", "N", "guest CPUs (default 2)"),
	PM_OPT(OPT_ACCEL, "accel", "A",
	       "auto (default: KVM when the host can run a stock kernel under it, else "
	       "TCG), kvm or tcg",
	       .values = "auto|kvm|tcg"),
	PM_OPT(OPT_QEMU, "qemu", "PATH", "QEMU (default /usr/bin/qemu-system-x86_64)"),
	PM_OPT(OPT_LOCAL, "local", NULL, "A and B on this host: no kernels, no QEMU",
	       LOCAL_ONLY),
	PM_OPT(OPT_SETUP_A, "setup-a", "CMD", "--local: a shell command run before each "
	       "run of A", LOCAL_ONLY),
	PM_OPT(OPT_SETUP_B, "setup-b", "CMD", "the same for B", LOCAL_ONLY),
	PM_OPT(OPT_WRAP_A, "wrap-a", "CMD",
	       "--local: a prefix for A's pmbench process (env ..., nice, taskset, a "
	       "seccomp wrapper)", LOCAL_ONLY),
	PM_OPT(OPT_WRAP_B, "wrap-b", "CMD", "the same for B", LOCAL_ONLY),
	PM_OPT(OPT_ROUNDS, "rounds", "N", "pairs at least (default 3)"),
	PM_OPT(OPT_BUDGET, "budget", "B",
	       "then pairs until decided, for at most B: seconds, or with m/h, or Nb "
	       "runs (default 10m)",
	       .values = "TIME|Nb"),
	PM_OPT(OPT_DUET, "duet", "MODE",
	       "auto (default: both at once only where this host's own pairs spread "
	       "less so), on, off",
	       .values = "auto|on|off"),
	PM_OPT(OPT_NO_CONFIRM, "no-confirm", NULL, "no boots with one difference taken back"),
	PM_OPT(OPT_CONFIRM_BUDGET, "confirm-budget", "TIME",
	       "time for those boots (default 10m)"),
	PM_OPT(OPT_KNOCKOUTS, "knockouts", "N",
	       "sides of other images: mechanisms switched off on both sides to see what "
	       "each removes, N at most (default 3)"),
	PM_OPT(OPT_KNOCKOUT_BUDGET, "knockout-budget", "TIME",
	       "time for those boots (default 20m)"),
	PM_OPT(OPT_EXIT_CODE, "exit-code", NULL,
	       "for git bisect run: 0 same or better, 1 regression, 125 undecided"),
	PM_OPT(OPT_SEED, "seed", "N", "the order within pairs (default: from the clock)"),
	PM_OPT(OPT_TIMEOUT, "timeout", "SEC", "per boot (default: from the benchmarks)"),
	PM_OPT('o', "output", "DIR", "a new or empty directory (default ab-DATE-TIME)"),
	PM_OPT(OPT_KEEP_CONSOLE, "keep-console", "DIR",
	       "the guests' console logs (default DIR/console)"),
	PM_OPT(OPT_MAX_TIME, "max-time", "SEC", "the guest run's --max-time (default 0.5)"),
	PM_OPT(OPT_RUN_ROUNDS, "rounds-per-boot", "N",
	       "the guest run's --rounds (default 2)"),
	PM_OPT('e', "events", "EVENTS", "the guest run's --events"),
	PM_OPT(OPT_NO_PROFILE, "no-profile", NULL, "the guest run skips the sampled pass"),
	PM_OPT(OPT_NO_COUNTERS, "no-counters", NULL, "the guest run skips the counted pass"),
	PM_OPT(OPT_RUN_OPTION, "run-option", "OPT",
	       "another option for the guest run (repeatable)"),
	PM_OPT(OPT_NOISE, "noise", "PCT",
	       "changes smaller than this are the same (default 3)"),
	PM_OPT(OPT_NO_EMULATED_COUNTS, "no-emulated-counts", NULL,
	       "TCG: boot without the plugin that counts the emulated CPU's instructions "
	       "per operation"),
	PM_OPT(OPT_EMULATED_ICACHE, "emulated-icache", NULL,
	       "TCG: that plugin also models the guest CPU's L1i"),
	PM_OPT(OPT_EMULATED_CLOCK, "emulated-clock", NULL,
	       "TCG: the guests' clocks count instructions (QEMU -icount): trials, "
	       "calibration and timer interrupts the same in every boot; time is then "
	       "instruction time, not the host's"),
	PM_OPT('q', "quiet", NULL, "no progress, no report on stdout"),
	PM_OPT_END
};

const struct pm_usage pm_ab_usage = {
	.name = "ab", .operands = "[--] BENCH|GROUP...", .options = options,
	.more = (const char *const[]){
		"--local [--setup-a CMD] [--setup-b CMD] [--wrap-a CMD] [--wrap-b CMD] "
		"[options] [--] BENCH|GROUP...", NULL },
	.text = "Measures A and B in pairs (in random order, or both at once on two CPUs)\n"
		"until each benchmark is decided or the budget is spent, merges each side's\n"
		"runs into DIR/a.json and DIR/b.json and prints 'pmbench explain' of the two.\n"
		"With several differences, boots with each taken back say which caused it.\n",
};

void pm_ab_opts_free(struct pm_ab_opts *o)
{
	free(o->run_options);
	free(o->benches);
	memset(o, 0, sizeof(*o));
}

static int parse_uint(const char *opt, const char *s, unsigned long lo, unsigned long hi,
		      unsigned *out, struct pm_err *e)
{
	unsigned long v;

	if (pm_parse_ulong(s, lo, hi, &v))
		return pm_err_set(e, -EINVAL, "%s: '%s' is not a whole number in [%lu, %lu]",
				  opt, s, lo, hi);
	*out = (unsigned)v;
	return 0;
}

static int parse_double(const char *opt, const char *s, double lo, double hi,
			double *out, struct pm_err *e)
{
	if (pm_parse_double(s, lo, hi, out))
		return pm_err_set(e, -EINVAL, "%s: '%s' is not a decimal number in [%g, %g]",
				  opt, s, lo, hi);
	return 0;
}

/* A file the host must read: checked now, not after the first boot. */
static int readable(const char *opt, const char *path, struct pm_err *e)
{
	if (access(path, R_OK))
		return pm_err_set(e, -EINVAL, "%s %s: %s", opt, path, strerror(errno));
	return 0;
}

static void push(char ***v, size_t *n, char *s)
{
	*v = pm_xgrow(*v, *n + 1, sizeof(**v));
	(*v)[(*n)++] = s;
	(*v)[*n] = NULL;
}

/* A percentage as explain's --noise takes it, [0, 100), as a fraction. */
static int parse_percent(const char *opt, const char *s, double *out, struct pm_err *e)
{
	double v;
	int err = parse_double(opt, s, 0, 99.99, &v, e);

	if (!err)
		*out = v / 100;
	return err;
}

/* A time ("600", "90s", "10m", "1h") or, with allow_runs, runs ("20b"). */
static int parse_budget(const char *opt, const char *s, bool allow_runs, double *secs,
			unsigned *runs, struct pm_err *e)
{
	size_t n = strlen(s);
	char unit = n ? s[n - 1] : 0, *num = pm_xstrdup(s);
	double mult = unit == 'm' ? 60 : unit == 'h' ? 3600 : 1, v;
	int err;

	if (unit == 's' || unit == 'm' || unit == 'h' || unit == 'b')
		num[n - 1] = '\0';
	if (unit == 'b' && allow_runs) {
		err = parse_uint(opt, num, 2, 100000, runs, e);
		*secs = 0;
	} else if (unit == 'b') {
		err = pm_err_set(e, -EINVAL, "%s: '%s': a time (600, 90s, 10m, 1h)", opt, s);
	} else {
		err = parse_double(opt, num, 1, 7 * 86400, &v, e);
		*secs = v * mult;
		if (runs)
			*runs = 0;
	}
	if (err)
		pm_err_set(e, err, "%s: '%s' is not a budget (seconds, 90s, 10m, 1h%s)", opt, s,
			   allow_runs ? ", or runs: 20b" : "");
	free(num);
	return err;
}

static int parse_seed(const char *s, unsigned long *out, struct pm_err *e)
{
	if (pm_parse_ulong(s, 1, ULONG_MAX, out))
		return pm_err_set(e, -EINVAL, "--seed: '%s' is not a whole number above 0", s);
	return 0;
}

static int parse_duet(const char *s, enum pm_ab_duet *out, struct pm_err *e)
{
	if (!strcmp(s, "auto"))
		*out = PM_DUET_AUTO;
	else if (!strcmp(s, "on"))
		*out = PM_DUET_ON;
	else if (!strcmp(s, "off"))
		*out = PM_DUET_OFF;
	else
		return pm_err_set(e, -EINVAL, "--duet: '%s' is not one of auto, on, off", s);
	return 0;
}

/* The options of the experiment's course: 0, -EINVAL, or 1 when c is none. */
static int experiment_option(struct pm_ab_opts *o, int c, char *arg, struct pm_err *e)
{
	switch (c) {
	case OPT_BUDGET:
		return parse_budget("--budget", arg, true, &o->budget_s, &o->budget_boots, e);
	case OPT_CONFIRM_BUDGET:
		return parse_budget("--confirm-budget", arg, false, &o->confirm_budget_s, NULL, e);
	case OPT_DUET:
		return parse_duet(arg, &o->duet, e);
	case OPT_NO_CONFIRM:
		o->no_confirm = true;
		return 0;
	case OPT_SEED:
		return parse_seed(arg, &o->seed, e);
	case OPT_LOCAL:
		o->local = true;
		return 0;
	case OPT_SETUP_A:
	case OPT_SETUP_B:
		o->side[c == OPT_SETUP_B].setup = arg;
		return 0;
	case OPT_WRAP_A:
	case OPT_WRAP_B:
		o->side[c == OPT_WRAP_B].wrap = arg;
		return 0;
	case OPT_NO_EMULATED_COUNTS:
		o->no_emulated_counts = true;
		return 0;
	case OPT_EMULATED_CLOCK:
		o->emulated_clock = true;
		return 0;
	case OPT_EMULATED_ICACHE:
		o->emulated_icache = true;
		return 0;
	case OPT_KNOCKOUTS:
		return parse_uint("--knockouts", arg, 0, 20, &o->knockouts, e);
	case OPT_KNOCKOUT_BUDGET:
		return parse_budget("--knockout-budget", arg, false, &o->knockout_budget_s, NULL,
				    e);
	case OPT_EXIT_CODE:
		o->exit_code = true;
		return 0;
	default:
		return 1;
	}
}

static int parse_accel(const char *s, enum pm_accel *out, struct pm_err *e)
{
	if (!strcmp(s, "auto"))
		*out = PM_ACCEL_AUTO;
	else if (!strcmp(s, "kvm"))
		*out = PM_ACCEL_KVM;
	else if (!strcmp(s, "tcg"))
		*out = PM_ACCEL_TCG;
	else
		return pm_err_set(e, -EINVAL, "--accel: '%s' is not one of auto, kvm, tcg", s);
	return 0;
}

/* --run-option: an option of pmbench run, but none ab sets itself. */
static int add_run_option(struct pm_ab_opts *o, char *s, struct pm_err *e)
{
	if (s[0] != '-')
		return pm_err_set(e, -EINVAL, "--run-option: '%s' is not an option "
				  "of pmbench run", s);
	if (!strcmp(s, "-o") || !strncmp(s, "--output", 8) ||
	    !strncmp(s, "--format", 8) || !strcmp(s, "-q"))
		return pm_err_set(e, -EINVAL, "--run-option: %s is set by pmbench "
				  "ab itself", s);
	push(&o->run_options, &o->nrun_options, s);
	return 0;
}

/* After the options: the kernels (B defaults to A) and the benchmarks. */
/* --local takes set-up commands and wrappers, the guests kernels: not both. */
static int check_mode(const struct pm_ab_opts *o, struct pm_err *e)
{
	int i;

	for (i = 0; i < 2; i++) {
		if (o->local && (o->side[i].kernel || o->side[i].append || o->side[i].vmlinux ||
				 o->append_both))
			return pm_err_set(e, -EINVAL, "--local runs on this host: --kernel, "
					  "--append and --vmlinux are for guests");
		if (!o->local && (o->side[i].setup || o->side[i].wrap))
			return pm_err_set(e, -EINVAL, "--setup-%c/--wrap-%c need --local", 'a' + i,
					  'a' + i);
	}
	if ((o->local || o->accel == PM_ACCEL_KVM) && o->emulated_clock)
		return pm_err_set(e, -EINVAL, "--emulated-clock is for TCG guests (QEMU's -icount)");
	if (o->local && (o->no_emulated_counts || o->emulated_icache))
		return pm_err_set(e, -EINVAL, "--local runs on this host: emulated counts "
				  "are for TCG guests");
	if (o->no_emulated_counts && o->emulated_icache)
		return pm_err_set(e, -EINVAL, "--emulated-icache needs the emulated counts "
				  "--no-emulated-counts turns off");
	if (o->local && o->duet == PM_DUET_ON && (o->side[0].setup || o->side[1].setup))
		return pm_err_set(e, -EINVAL, "--duet on with --setup-a/-b: a set-up command "
				  "changes the host for both sides at once");
	return 0;
}

static int check_sides_and_benches(struct pm_ab_opts *o, int argc, char **argv,
				   struct pm_err *e)
{
	int i, err = check_mode(o, e);

	if (err)
		return err;
	if (!o->local && !o->side[0].kernel)
		return pm_err_set(e, -EINVAL, "--kernel: which kernel to boot? (or --local)");
	if (!o->local && !o->side[1].kernel)
		o->side[1].kernel = o->side[0].kernel;
	for (i = 0; !err && !o->local && i < 2; i++)
		err = readable(i ? "--kernel-b" : "--kernel", o->side[i].kernel, e);
	for (i = optind; !err && i < argc; i++) {
		if (!pm_bench_find(argv[i]) && !pm_group_exists(argv[i]))
			err = pm_err_set(e, -EINVAL, "unknown benchmark or group '%s' (see "
					 "'pmbench list')", argv[i]);
		else
			push(&o->benches, &o->nbenches, argv[i]);
	}
	if (!err && !o->nbenches)
		err = pm_err_set(e, -EINVAL, "which benchmarks? (e.g. 'pmbench ab --kernel K "
				 "-- null fork'; TCG guests are slow: name a few)");
	return err;
}

static void defaults(struct pm_ab_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->cpu = "max";
	o->memory_mb = PM_AB_DEFAULT_MEMORY;
	o->vcpus = PM_AB_DEFAULT_VCPUS;
	o->accel = PM_ACCEL_AUTO;
	o->boots = PM_AB_DEFAULT_BOOTS;
	o->max_time_s = PM_AB_DEFAULT_MAX_TIME;
	o->noise = NAN;
	o->run_rounds = PM_AB_DEFAULT_RUN_ROUNDS;
	o->budget_s = PM_AB_DEFAULT_BUDGET_S;
	o->confirm_budget_s = PM_AB_DEFAULT_BUDGET_S;
	o->knockouts = PM_AB_DEFAULT_KNOCKOUTS;
	o->knockout_budget_s = PM_AB_DEFAULT_KNOCKOUT_BUDGET_S;
}

/* The options of the guests' machine (kernels, command lines, QEMU): 0,
 * -EINVAL, or 1 when c is none. */
static int machine_option(struct pm_ab_opts *o, int c, char *arg, struct pm_err *e)
{
	switch (c) {
	case OPT_KERNEL:
		o->side[0].kernel = arg;
		return 0;
	case OPT_KERNEL_B:
		o->side[1].kernel = arg;
		return 0;
	case OPT_APPEND:
		o->append_both = arg;
		return 0;
	case OPT_APPEND_A:
		o->side[0].append = arg;
		return 0;
	case OPT_APPEND_B:
		o->side[1].append = arg;
		return 0;
	case OPT_VMLINUX_A:
		o->side[0].vmlinux = arg;
		return readable("--vmlinux-a", arg, e);
	case OPT_VMLINUX_B:
		o->side[1].vmlinux = arg;
		return readable("--vmlinux-b", arg, e);
	case OPT_CPU:
		o->cpu = arg;
		if (!*arg || strchr(arg, ' '))
			return pm_err_set(e, -EINVAL, "--cpu: '%s' is not a QEMU CPU model", arg);
		return 0;
	case OPT_MEMORY:
		return parse_uint("--memory", arg, 256, 1u << 20, &o->memory_mb, e);
	case OPT_VCPUS:
		return parse_uint("--vcpus", arg, 1, 256, &o->vcpus, e);
	case OPT_ACCEL:
		return parse_accel(arg, &o->accel, e);
	case OPT_QEMU:
		o->qemu = arg;
		if (!strchr(arg, '/'))
			return pm_err_set(e, -EINVAL, "--qemu %s: give its path (PATH is "
					  "not searched)", arg);
		return 0;
	}
	return 1;
}

int pm_ab_parse_args(int argc, char **argv, struct pm_ab_opts *o, struct pm_err *e)
{
	struct pm_opts p;
	int c, err = 0;

	defaults(o);
	pm_opts_start(&p, &pm_ab_usage, argc, argv);
	while (!err && (c = pm_opts_next(&p)) != -1) {
		switch (c) {
		case OPT_ROUNDS:
			err = parse_uint("--rounds", optarg, 1, 1000, &o->boots, e);
			break;
		case OPT_TIMEOUT:
			err = parse_double("--timeout", optarg, 1, 86400, &o->timeout_s, e);
			break;
		case 'o':
			o->output = optarg;
			break;
		case OPT_KEEP_CONSOLE:
			o->console_dir = optarg;
			break;
		case OPT_MAX_TIME:
			err = parse_double("--max-time", optarg, 0, 3600, &o->max_time_s, e);
			break;
		case OPT_RUN_ROUNDS:
			err = parse_uint("--rounds-per-boot", optarg, 1, 100, &o->run_rounds, e);
			break;
		case OPT_NOISE:
			err = parse_percent("--noise", optarg, &o->noise, e);
			break;
		case 'e':
			o->events = optarg;
			break;
		case OPT_NO_PROFILE:
			o->no_profile = true;
			break;
		case OPT_NO_COUNTERS:
			o->no_counters = true;
			break;
		case OPT_RUN_OPTION:
			err = add_run_option(o, optarg, e);
			break;
		case 'q':
			o->quiet = true;
			break;
		case PM_OPT_USAGE:
			pm_ab_opts_free(o);
			return 1;
		case PM_OPT_MANUAL:
			pm_ab_opts_free(o);
			return 2;
		case ':':
			err = pm_err_set(e, -EINVAL, "option '%s' needs a value", argv[optind - 1]);
			break;
		default:
			err = machine_option(o, c, optarg, e);
			if (err == 1)
				err = experiment_option(o, c, optarg, e);
			if (err == 1)
				err = pm_err_set(e, -EINVAL, "unknown option '%s'", argv[optind - 1]);
			break;
		}
	}
	if (!err)
		err = check_sides_and_benches(o, argc, argv, e);
	if (err) {
		pm_ab_opts_free(o);
		return err;
	}
	return 0;
}

char **pm_ab_guest_argv(const struct pm_ab_opts *o, const char *label,
			const char *vmlinux_in_guest)
{
	char **v = NULL;
	size_t n = 0, i;

	push(&v, &n, pm_xstrdup(PM_GUEST_PMBENCH));
	push(&v, &n, pm_xstrdup("run"));
	push(&v, &n, pm_xstrdup("-q"));
	push(&v, &n, pm_xstrdup("-o"));
	push(&v, &n, pm_xstrdup(PM_GUEST_RESULT));
	push(&v, &n, pm_xstrdup("--label"));
	push(&v, &n, pm_xstrdup(label));
	push(&v, &n, pm_xstrdup("--rounds"));
	push(&v, &n, pm_xasprintf("%u", o->run_rounds));
	push(&v, &n, pm_xstrdup("--max-time"));
	push(&v, &n, pm_xasprintf("%g", o->max_time_s));
	if (o->events) {
		push(&v, &n, pm_xstrdup("--events"));
		push(&v, &n, pm_xstrdup(o->events));
	}
	if (o->no_profile)
		push(&v, &n, pm_xstrdup("--no-profile"));
	if (o->no_counters)
		push(&v, &n, pm_xstrdup("--no-counters"));
	if (vmlinux_in_guest) {
		push(&v, &n, pm_xstrdup("--vmlinux"));
		push(&v, &n, pm_xstrdup(vmlinux_in_guest));
	}
	for (i = 0; i < o->nrun_options; i++)
		push(&v, &n, pm_xstrdup(o->run_options[i]));
	for (i = 0; i < o->nbenches; i++)
		push(&v, &n, pm_xstrdup(o->benches[i]));
	return v;
}

/* Benchmarks the names select (groups expanded). */
static size_t count_benches(const struct pm_ab_opts *o)
{
	const struct pm_bench *b;
	size_t i, k, n = 0;

	for (i = 0; (b = pm_bench_at(i)); i++)
		for (k = 0; k < o->nbenches; k++)
			if (!strcmp(b->name, o->benches[k]) ||
			    pm_bench_in_group(b, o->benches[k])) {
				n++;
				break;
			}
	return n;
}

double pm_ab_default_timeout(const struct pm_ab_opts *o)
{
	/* a boot (about 10 s under TCG) with room, then per benchmark its
	 * rounds' budgets and the setup, counted and sampled passes, which
	 * TCG slows 10-50 times */
	return 120 + (double)count_benches(o) * (o->run_rounds * o->max_time_s * 3 + 40);
}

const char *pm_ab_find_qemu(const char *given, struct pm_err *e)
{
	static const char *const paths[] = {
		"/usr/bin/qemu-system-x86_64", "/usr/libexec/qemu-kvm",
		"/usr/local/bin/qemu-system-x86_64",
	};
	size_t i;

	if (given) {
		if (access(given, X_OK)) {
			pm_err_set(e, -ENOENT, "--qemu %s: %s", given, strerror(errno));
			return NULL;
		}
		return given;
	}
	for (i = 0; i < PM_ARRAY_SIZE(paths); i++)
		if (access(paths[i], X_OK) == 0)
			return paths[i];
	pm_err_set(e, -ENOENT, "QEMU not found at %s, %s or %s: install it (Debian: "
		   "apt-get install qemu-system-x86) or give --qemu PATH",
		   paths[0], paths[1], paths[2]);
	return NULL;
}
