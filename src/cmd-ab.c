/* pmbench ab: boot two kernels, run pmbench in each, explain (pmbench-ab(1)). */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab/ab.h"
#include "ab/guest.h"
#include "cmd.h"
#include "counters/counters.h"
#include "explain/explain.h"
#include "results/result.h"

static const char usage[] =
	"usage: pmbench ab --kernel PATH [--kernel-b PATH] [--append TEXT]\n"
	"                  [--append-a TEXT] [--append-b TEXT] [--vmlinux-a PATH]\n"
	"                  [--vmlinux-b PATH] [--cpu MODEL] [--memory MB] [--vcpus N]\n"
	"                  [--accel auto|kvm|tcg] [--qemu PATH] [--rounds N]\n"
	"                  [--timeout SEC] [-o DIR] [--keep-console DIR]\n"
	"                  [--max-time SEC] [--rounds-per-boot N] [-e EVENTS]\n"
	"                  [--no-profile] [--no-counters] [--run-option OPT]\n"
	"                  [--noise PCT] [-q]\n"
	"                  [--] BENCH|GROUP...\n"
	"\n"
	"  Boots kernel A and kernel B in turn (A, B, A, B, ...) in throw-away QEMU\n"
	"  guests, runs 'pmbench run BENCH...' in each, merges each side's boots into\n"
	"  DIR/a.json and DIR/b.json and prints 'pmbench explain' of the two.\n"
	"      --kernel PATH       kernel A (a bzImage such as /boot/vmlinuz-VERSION)\n"
	"      --kernel-b PATH     kernel B (default: kernel A)\n"
	"      --append TEXT       kernel arguments for both sides\n"
	"      --append-a TEXT     kernel arguments for side A only\n"
	"      --append-b TEXT     kernel arguments for side B only\n"
	"      --vmlinux-a PATH    symbols of kernel A (default: /usr/lib/debug/boot/\n"
	"                          vmlinux-VERSION if present, else kallsyms)\n"
	"      --vmlinux-b PATH    symbols of kernel B\n"
	"      --cpu MODEL         QEMU CPU model (default max)\n"
	"      --memory MB         guest memory (default 2048)\n"
	"      --vcpus N           guest CPUs (default 2)\n"
	"      --accel A           auto (default: KVM when the host can run a stock\n"
	"                          kernel under it, else TCG), kvm or tcg\n"
	"      --qemu PATH         QEMU (default /usr/bin/qemu-system-x86_64)\n"
	"      --rounds N          boots per side, interleaved (default 3)\n"
	"      --timeout SEC       per boot (default: from the benchmarks)\n"
	"  -o, --output DIR        a new or empty directory (default ab-DATE-TIME)\n"
	"      --keep-console DIR  the guests' console logs (default DIR/console)\n"
	"      --max-time SEC      the guest run's --max-time (default 0.5)\n"
	"      --rounds-per-boot N the guest run's --rounds (default 2)\n"
	"  -e, --events LIST       the guest run's --events\n"
	"      --no-profile        the guest run skips the sampled pass\n"
	"      --no-counters       the guest run skips the counted pass\n"
	"      --run-option OPT    another option for the guest run (repeatable)\n"
	"      --noise PCT         the report's noise floor (explain --noise; default 3)\n"
	"  -q, --quiet             no progress, no report on stdout\n";

/* ---- signals: QEMU and the scratch directory go on Ctrl-C ---- */

/* pm_cmd_scratch_make's, so that stale ones are cleared as run's are */
static const char *volatile scratch;
static volatile int stop_flag;
static volatile sig_atomic_t signals_seen, first_signal;
static volatile pid_t running_qemu;

static void on_signal(int sig)
{
	/* first: stop after killing the running boot; second: now */
	if (signals_seen++ == 0) {
		first_signal = sig;
		stop_flag = 1;
		return;
	}
	if (running_qemu > 0) {
		kill(-running_qemu, SIGKILL);
		kill(running_qemu, SIGKILL);
	}
	if (scratch)
		pm_rmtree(scratch);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- the sides ---- */

struct side {
	const char *name;		/* "A" */
	char tag;			/* 'a' */
	const char *kernel;
	char release[128];
	char *append;			/* the user's part of the command line */
	char *initrd;
	char *vmlinux;			/* host file copied in (stripped), or NULL */
	char *vmlinux_from;		/* where its symbols came from */
	bool have_modules, have_config;
	struct pm_result *runs;		/* one per boot that came back */
	size_t nruns;
	unsigned failed;
};

static char *join_append(const char *both, const char *one)
{
	if (both && one)
		return pm_xasprintf("%s %s", both, one);
	return pm_xstrdup(both ? both : one ? one : "");
}

static int prepare_side(struct side *s, const struct pm_ab_opts *o, int i, bool quiet,
			struct pm_err *e)
{
	static const char *const virtio[] = { "virtio_pci", "virtio_blk", NULL };
	struct pm_guest_spec g = { 0 };
	struct pm_initramfs ir;
	char **modules = NULL, *moddir, *config, *dbg, *guest_vmlinux = NULL;
	char exe[4096], *sh = NULL;
	struct pm_err me;
	ssize_t n;
	int err;

	err = pm_kernel_image_release(s->kernel, s->release, sizeof(s->release), e);
	if (err)
		return err;
	moddir = pm_xasprintf("/lib/modules/%s", s->release);
	if (pm_kernel_modules_resolve(moddir, virtio, &modules, &me)) {
		if (!quiet)
			pm_warn("side %s: %s; the result comes back over the serial port "
				"(slower)", s->name, me.msg);
	} else {
		s->have_modules = true;
	}
	config = pm_xasprintf("/boot/config-%s", s->release);
	s->have_config = access(config, R_OK) == 0;
	if (!s->have_config && !quiet)
		pm_warn("side %s: no %s: the guest's fingerprint has its kernel config only "
			"if the kernel has /proc/config.gz", s->name, config);
	dbg = pm_xasprintf("/usr/lib/debug/boot/vmlinux-%s", s->release);
	if (o->side[i].vmlinux)
		s->vmlinux_from = pm_xstrdup(o->side[i].vmlinux);
	else if (access(dbg, R_OK) == 0)
		s->vmlinux_from = pm_xstrdup(dbg);
	if (s->vmlinux_from) {
		s->vmlinux = pm_xasprintf("%s/vmlinux-%c", scratch, s->tag);
		err = pm_vmlinux_strip(s->vmlinux_from, s->vmlinux, e);
		if (err)
			goto out;
		guest_vmlinux = pm_xasprintf("/usr/lib/debug/boot/vmlinux-%s", s->release);
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n <= 0) {
		err = pm_err_set(e, -errno, "/proc/self/exe: %s", strerror(errno));
		goto out;
	}
	exe[n] = '\0';
	if (access("/bin/sh", X_OK) == 0)
		sh = "/bin/sh";
	g.release = s->release;
	g.moddir = s->have_modules ? moddir : NULL;
	g.modules = modules;
	g.config = s->have_config ? config : NULL;
	g.vmlinux = s->vmlinux;
	g.init = pm_xasprintf("%s/pmbench-guest-init", pm_libexecdir());
	g.pmbench = exe;
	g.libexecdir = pm_libexecdir();
	g.eventsdir = pm_aliases_default_dir();
	g.shell = sh;
	g.argv = pm_ab_guest_argv(o, s->name, guest_vmlinux);
	if (access(g.init, X_OK)) {
		err = pm_err_set(e, -ENOENT, "%s: %s (run from the build tree or install "
				 "pmbench)", g.init, strerror(errno));
	} else {
		err = pm_guest_initramfs(&ir, &g, e);
		if (!err) {
			s->initrd = pm_xasprintf("%s/initrd-%c.cpio", scratch, s->tag);
			err = pm_initramfs_write(&ir, s->initrd, e);
			pm_initramfs_free(&ir);
		}
	}
	free((char *)g.init);
	pm_strv_free(g.argv);
out:
	pm_strv_free(modules);
	free(moddir);
	free(config);
	free(dbg);
	free(guest_vmlinux);
	return err;
}

static void side_free(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		pm_result_free(&s->runs[i]);
	free(s->runs);
	s->runs = NULL;
	s->nruns = 0;
	free(s->append);
	free(s->initrd);
	free(s->vmlinux);
	free(s->vmlinux_from);
}

static void drop_runs(struct side *s)
{
	size_t i;

	for (i = 0; i < s->nruns; i++)
		pm_result_free(&s->runs[i]);
	s->nruns = 0;
	s->failed = 0;
}

/* ---- output ---- */

static int make_output(const char *dir, struct pm_err *e)
{
	struct dirent *d;
	DIR *dh;

	if (mkdir(dir, 0755) == 0)
		return 0;
	if (errno != EEXIST)
		return pm_err_set(e, -errno, "-o %s: %s", dir, strerror(errno));
	dh = opendir(dir);
	if (!dh)
		return pm_err_set(e, -errno, "-o %s: %s", dir, strerror(errno));
	while ((d = readdir(dh)))
		if (strcmp(d->d_name, ".") && strcmp(d->d_name, "..")) {
			closedir(dh);
			return pm_err_set(e, -EEXIST, "-o %s: not empty (give a new or empty "
					  "directory)", dir);
		}
	closedir(dh);
	return 0;
}

struct bytes {
	const char *p;
	size_t n;
};

static int write_bytes(FILE *f, void *arg)
{
	const struct bytes *b = arg;

	return fwrite(b->p, 1, b->n, f) == b->n ? 0 : -EIO;
}

static const char *accel_note(enum pm_accel a)
{
	return a == PM_ACCEL_TCG ?
		"TCG: QEMU emulated the CPU (binary translation); figures are emulation "
		"figures, 10-50x slower than hardware, and their ratios need not be those "
		"of a real machine" :
		"KVM: the guest ran on the host CPU (hardware virtualization)";
}

static json_t *ab_json(const struct pm_ab_opts *o, const struct side *s,
		       enum pm_accel accel, const char *qemu, const char *accel_why)
{
	char *cmdline = pm_xasprintf("%s%s%s", PM_BOOT_APPEND, *s->append ? " " : "",
				     s->append);
	json_t *j = json_pack("{s:s,s:s,s:b,s:s,s:s,s:s,s:s,s:i,s:i,s:s,s:s,s:s,s:i,s:o}",
			      "side", s->name,
			      "accelerator", pm_accel_name(accel),
			      "emulated", accel == PM_ACCEL_TCG,
			      "note", accel_note(accel),
			      "accelerator_reason", accel_why,
			      "qemu", qemu,
			      "cpu", o->cpu,
			      "memory_mb", (int)o->memory_mb,
			      "vcpus", (int)o->vcpus,
			      "kernel", s->kernel,
			      "release", s->release,
			      "cmdline", cmdline,
			      "boots", (int)s->nruns,
			      "vmlinux", s->vmlinux ? json_string(s->vmlinux_from) : json_null());

	free(cmdline);
	return j;
}

/* Merge a side's boots and write DIR/a.json. */
static int write_side(const char *out, struct side *s, const struct pm_ab_opts *o,
		      enum pm_accel accel, const char *qemu, const char *why,
		      struct pm_err *e)
{
	struct pm_result merged;
	char *path = pm_xasprintf("%s/%c.json", out, s->tag);
	int err;

	err = pm_result_merge(&merged, s->runs, s->nruns, e);
	if (!err) {
		json_t *opts = merged.options ? merged.options : json_object();

		free(merged.label);
		merged.label = pm_xstrdup(s->name);
		json_object_set_new(opts, "ab", ab_json(o, s, accel, qemu, why));
		merged.options = opts;
		err = pm_result_save(&merged, path, e);
	}
	pm_result_free(&merged);
	free(path);
	return err;
}

static int explain_sides(const char *out, const char *header, bool quiet, double noise,
			 struct pm_err *e)
{
	struct pm_explain_opts xo;
	struct pm_explanation x;
	struct pm_side a, b;
	char *pa = pm_xasprintf("%s/a.json", out), *pb = pm_xasprintf("%s/b.json", out);
	char *rpt = pm_xasprintf("%s/report.txt", out), *text = NULL;
	size_t len = 0;
	FILE *f;
	int err;

	memset(&a, 0, sizeof(a));
	memset(&b, 0, sizeof(b));
	pm_explain_opts_default(&xo);
	if (!isnan(noise))
		xo.noise_floor = noise;
	err = pm_side_load(&a, pa, e);
	if (!err)
		err = pm_side_load(&b, pb, e);
	if (!err)
		err = pm_explain(&x, &a, &b, &xo, e);
	if (!err) {
		struct bytes bb;

		f = open_memstream(&text, &len);
		fputs(header, f);
		pm_report_text(&x, f, false, false);
		fclose(f);
		bb.p = text;
		bb.n = len;
		err = pm_write_atomic(rpt, write_bytes, &bb, e);
		if (!quiet) {
			fwrite(text, 1, len, stdout);
			fflush(stdout);
		}
		free(text);
		pm_explanation_free(&x);
	}
	pm_side_free(&a);
	pm_side_free(&b);
	free(pa);
	free(pb);
	free(rpt);
	return err;
}

/* -o DIR (new or empty), then the console logs' directory and its parents. */
static int make_dirs(const char *out, const char *console_dir, struct pm_err *e)
{
	int err = make_output(out, e);

	if (err)
		return err;
	err = pm_mkdir_p(console_dir, 0755);
	if (err)
		return pm_err_set(e, err, "--keep-console %s: %s", console_dir,
				  strerror(-err));
	return 0;
}

static char *default_output(void)
{
	return pm_fmt_now("ab-%Y%m%d-%H%M%S", false);
}

/* ---- the boots ---- */

enum outcome { BOOT_KEPT, BOOT_FAILED, BOOT_FATAL, BOOT_RESTART, BOOT_STOP };

static void report_failure(const char *tag, const char *side, const char *why,
			   const char *console)
{
	char *tail = pm_log_tail(console, 15), *line, *save = NULL;

	pm_error("boot %s (side %s) failed: %s", tag, side, why);
	if (*tail) {
		fprintf(stderr, "  last lines of its console (%s):\n", console);
		for (line = strtok_r(tail, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
			fprintf(stderr, "  | %s\n", line);
	}
	free(tail);
}

static enum outcome one_boot(struct pm_boot_spec *bs, struct side *s, const char *out,
			     bool auto_accel, bool quiet, char *fatal, size_t flen)
{
	struct pm_boot b;
	struct pm_err e;
	struct pm_result r;
	json_t *root;
	json_error_t je;
	int err;

	if (!quiet)
		fprintf(stderr, "pmbench ab: boot %s: side %s, %s, %s ...\n", bs->tag, s->name,
			s->release, pm_accel_name(bs->accel));
	err = pm_boot_run(bs, &b, &stop_flag, &e);
	if (err) {
		snprintf(fatal, flen, "%s", e.msg);
		return BOOT_FATAL;
	}
	switch (b.status) {
	case PM_BOOT_INTERRUPTED:
		return BOOT_STOP;
	case PM_BOOT_KVM_FAILED:
		if (auto_accel) {
			pm_warn("boot %s: KVM does not run this kernel (%s): falling back to "
				"TCG for every boot", bs->tag, b.why);
			return BOOT_RESTART;
		}
		report_failure(bs->tag, s->name, b.why, bs->console);
		return BOOT_FAILED;
	case PM_BOOT_OK:
		break;
	default:
		report_failure(bs->tag, s->name, b.why, bs->console);
		return BOOT_FAILED;
	}
	/* a hand-back: the guest's pmbench ran (or the init says why not) */
	if (b.hb.error[0] || b.hb.status == 2 || !b.image_len) {
		char why[1200];

		snprintf(why, sizeof(why), "guest pmbench run exited with status %d%s%s",
			 b.hb.status, b.hb.error[0] ? ": " : "", b.hb.error);
		report_failure(bs->tag, s->name, why, bs->console);
		pm_boot_free(&b);
		/* a usage error repeats on every boot */
		if (b.hb.status == 2) {
			snprintf(fatal, flen, "the guest's pmbench run rejected its arguments "
				 "(see the console above)");
			return BOOT_FATAL;
		}
		return BOOT_FAILED;
	}
	root = json_loadb(b.image, b.image_len, 0, &je);
	if (!root || pm_result_from_json(&r, root, bs->tag, &e)) {
		char why[1200];

		snprintf(why, sizeof(why), "its result does not parse: %s",
			 root ? e.msg : je.text);
		json_decref(root);
		report_failure(bs->tag, s->name, why, bs->console);
		pm_boot_free(&b);
		return BOOT_FAILED;
	}
	json_decref(root);
	{
		/* each boot's own result, as the guest wrote it */
		char *dir = pm_xasprintf("%s/boots", out);
		char *path = pm_xasprintf("%s/%s.json", dir, bs->tag);
		struct bytes bb = { b.image, b.image_len };

		mkdir(dir, 0755);
		if (pm_write_atomic(path, write_bytes, &bb, &e))
			pm_warn("%s", e.msg);
		free(r.path);
		r.path = path;
		free(dir);
	}
	if (b.hb.status != 0)
		pm_warn("boot %s: the guest's pmbench run exited with status %d (some "
			"benchmarks failed: see %s)", bs->tag, b.hb.status, bs->console);
	if (!quiet)
		fprintf(stderr, "pmbench ab: boot %s: done in %.0f s, result over the %s\n",
			bs->tag, b.elapsed_s, b.channel);
	s->runs = pm_xrealloc(s->runs, (s->nruns + 1) * sizeof(*s->runs));
	s->runs[s->nruns++] = r;
	pm_boot_free(&b);
	return BOOT_KEPT;
}

#define AB_GO	(-1)	/* go on */

/* Which accelerator, and why (for the report). */
static enum pm_accel choose_accel(const struct pm_ab_opts *o, char *why, size_t len)
{
	struct pm_kvm_host host;

	if (o->accel == PM_ACCEL_AUTO) {
		/* the tests probe a made-up host (pmbench-ab(1), ENVIRONMENT) */
		const char *root = getenv("PMBENCH_AB_HOST_ROOT");

		pm_kvm_host_probe(&host, root ? root : "");
		return pm_accel_choose(&host, why, len);
	}
	snprintf(why, len, "--accel %s", pm_accel_name(o->accel));
	return o->accel;
}

/* Boot A, B, A, B...; AB_GO when the boots are done, else the exit status. */
static int boot_all(struct side sides[2], const struct pm_ab_opts *o, const char *qemu,
		    enum pm_accel *paccel, char *accel_why, size_t why_len,
		    const char *out, const char *console_dir, unsigned *pfailed)
{
	enum pm_accel accel = *paccel;
	char fatal[1200] = "";
	unsigned k, total, failed = 0;
	int status = AB_GO;

	total = 2 * o->boots;
	for (k = 0; k < total; k++) {
		struct side *s = &sides[k % 2];
		char tag[16];
		struct pm_boot_spec bs = {
			.qemu = qemu, .accel = accel, .cpu = o->cpu, .kernel = s->kernel,
			.initrd = s->initrd, .append = s->append, .memory_mb = o->memory_mb,
			.vcpus = o->vcpus, .timeout_s = o->timeout_s,
			.kvm_probe_s = PM_AB_KVM_PROBE_S, .dir = scratch, .tag = tag,
			.running = &running_qemu,
		};
		enum outcome r;
		char *console;

		if (stop_flag)
			break;
		snprintf(tag, sizeof(tag), "%c%u", s->tag, k / 2 + 1);
		console = pm_xasprintf("%s/%s.log", console_dir, tag);
		bs.console = console;
		r = one_boot(&bs, s, out, o->accel == PM_ACCEL_AUTO, o->quiet, fatal, sizeof(fatal));
		free(console);
		if (r == BOOT_STOP || stop_flag) {
			pm_error("interrupted: QEMU stopped, nothing written");
			status = 128 + (first_signal ? first_signal : SIGINT);
			goto out;
		}
		if (r == BOOT_FATAL) {
			pm_error("%s", fatal);
			status = PM_EXIT_RUNTIME;
			goto out;
		}
		if (r == BOOT_RESTART) {
			/* both sides on one accelerator: start over under TCG */
			accel = PM_ACCEL_TCG;
			snprintf(accel_why, why_len, "KVM could not run the guest kernel");
			drop_runs(&sides[0]);
			drop_runs(&sides[1]);
			failed = 0;
			k = (unsigned)-1;
			continue;
		}
		if (r == BOOT_FAILED) {
			failed++;
			s->failed++;
			/* nothing suggests the next boot of this side will do better */
			if (!s->nruns) {
				pm_error("side %s: its first boot failed: stopping", s->name);
				status = PM_EXIT_RUNTIME;
				goto out;
			}
		}
	}

out:
	*paccel = accel;
	*pfailed = failed;
	return status;
}

/* The report's first lines: the two sides, the accelerator, the guests. */
static char *report_header(const struct side sides[2], const struct pm_ab_opts *o,
			   enum pm_accel accel, const char *accel_why)
{

	return pm_xasprintf(
			"pmbench ab: A = %s (%s)%s%s%s\n"
			"            B = %s (%s)%s%s%s\n"
			"accelerator: %s (%s)\n  %s\n"
			"guests: -cpu %s, %u MiB, %u vCPUs; booted A,B,A,B...: %zu of %u boots of A "
			"and %zu of %u of B came back; each ran pmbench run --rounds %u --max-time %g\n\n",
			sides[0].kernel, sides[0].release, *sides[0].append ? " \"" : "",
			sides[0].append, *sides[0].append ? "\"" : "",
			sides[1].kernel, sides[1].release, *sides[1].append ? " \"" : "",
			sides[1].append, *sides[1].append ? "\"" : "",
			accel == PM_ACCEL_TCG ? "TCG" : "KVM", accel_why, accel_note(accel),
			o->cpu, o->memory_mb, o->vcpus, sides[0].nruns, o->boots, sides[1].nruns, o->boots,
			o->run_rounds, o->max_time_s);
}

int cmd_ab(int argc, char **argv)
{
	struct pm_ab_opts o;
	struct side sides[2] = {
		{ .name = "A", .tag = 'a' },
		{ .name = "B", .tag = 'b' },
	};
	enum pm_accel accel;
	const char *qemu;
	char *out = NULL, *console_dir = NULL, accel_why[256] = "";
	char *header = NULL;
	unsigned total, failed = 0;
	struct pm_err e;
	int err, status = PM_EXIT_OK, i;

	err = pm_ab_parse_args(argc, argv, &o, &e);
	if (err == 1) {
		fputs(usage, stdout);
		return PM_EXIT_OK;
	}
	if (err == 2)
		return pm_show_manual("pmbench-ab");
	if (err)
		return pm_usage_error("ab", usage, "%s", e.msg);
#ifndef __x86_64__
	pm_error("ab: the guests run this pmbench binary under qemu-system-x86_64: "
		 "only x86-64 hosts are supported");
	pm_ab_opts_free(&o);
	return PM_EXIT_RUNTIME;
#endif
	qemu = pm_ab_find_qemu(o.qemu, &e);
	if (!qemu) {
		status = o.qemu ? PM_EXIT_USAGE : PM_EXIT_RUNTIME;
		pm_error("%s", e.msg);
		pm_ab_opts_free(&o);
		return status;
	}
	if (!o.timeout_s)
		o.timeout_s = pm_ab_default_timeout(&o);
	out = o.output ? pm_xstrdup(o.output) : default_output();
	console_dir = o.console_dir ? pm_xstrdup(o.console_dir) : pm_xasprintf("%s/console", out);
	if (make_dirs(out, console_dir, &e)) {
		pm_error("%s", e.msg);
		status = PM_EXIT_USAGE;
		goto done_noscratch;
	}
	scratch = pm_cmd_scratch_make("pmbench-ab", &e);
	if (!scratch) {
		pm_error("%s", e.msg);
		status = PM_EXIT_RUNTIME;
		goto done_noscratch;
	}
	pm_catch_stop_signals(on_signal);

	for (i = 0; i < 2; i++) {
		sides[i].kernel = o.side[i].kernel;
		sides[i].append = join_append(o.append_both, o.side[i].append);
		err = prepare_side(&sides[i], &o, i, o.quiet, &e);
		if (err) {
			pm_error("side %s: %s", sides[i].name, e.msg);
			status = pm_exit_status(err);
			goto done;
		}
	}

	accel = choose_accel(&o, accel_why, sizeof(accel_why));
	if (!o.quiet)
		fprintf(stderr, "pmbench ab: %u boots per side, interleaved; accelerator %s (%s)%s\n",
			o.boots, pm_accel_name(accel), accel_why,
			accel == PM_ACCEL_TCG ? ": emulation figures" : "");

	total = 2 * o.boots;
	status = boot_all(sides, &o, qemu, &accel, accel_why, sizeof(accel_why), out,
			  console_dir, &failed);
	if (status != AB_GO)
		goto done;
	status = PM_EXIT_OK;
	if (stop_flag) {
		pm_error("interrupted: nothing written");
		status = 128 + (first_signal ? first_signal : SIGINT);
		goto done;
	}
	for (i = 0; i < 2; i++)
		if (write_side(out, &sides[i], &o, accel, qemu, accel_why, &e)) {
			pm_error("%s", e.msg);
			status = PM_EXIT_RUNTIME;
			goto done;
		}
	header = report_header(sides, &o, accel, accel_why);
	if (explain_sides(out, header, o.quiet, o.noise, &e)) {
		pm_error("%s", e.msg);
		status = PM_EXIT_RUNTIME;
		goto done;
	}
	if (!o.quiet)
		fprintf(stderr, "pmbench ab: wrote %s/a.json, %s/b.json, %s/report.txt; "
			"console logs in %s\n", out, out, out, console_dir);
	if (failed) {
		pm_error("%u of %u boots failed (see above); the report uses the others",
			 failed, total);
		status = PM_EXIT_RUNTIME;
	}
done:
	scratch = NULL;
	pm_cmd_scratch_remove();
	pm_catch_stop_signals(SIG_DFL);
done_noscratch:
	side_free(&sides[0]);
	side_free(&sides[1]);
	free(header);
	free(out);
	free(console_dir);
	pm_ab_opts_free(&o);
	return status;
}
