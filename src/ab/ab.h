/*
 * pmbench ab: boot two kernels in throw-away QEMU guests, run pmbench in
 * each, and compare (pmbench-ab(1)).
 *
 *   cpio.c       the initramfs archive ("newc" format, written here)
 *   initramfs.c  what goes in: init, pmbench, its libraries (DT_NEEDED
 *                resolved with libelf), modules, config, a vmlinux
 *   kernel.c     a kernel image's release, its modules (modules.dep)
 *   accel.c      KVM or TCG, and when a KVM boot must fall back
 *   boot.c       one boot: QEMU's command line, the watch, the hand-back
 *   opts.c       the command line of `pmbench ab`
 *   handback.c   the guest's result format (also in the guest init)
 */
#ifndef PM_AB_H
#define PM_AB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "ab/handback.h"
#include "util.h"

/* ---- the archive ---- */

struct pm_ir_entry {
	char *path;		/* in the archive, no leading '/' */
	unsigned mode;		/* type bits (S_IFREG, ...) and permissions */
	char *source;		/* regular file: the host file to copy, or NULL */
	char *data;		/* regular file without source: contents;
				   symbolic link: target */
	size_t len;
	unsigned rmajor, rminor;	/* device nodes */
};

struct pm_initramfs {
	struct pm_ir_entry *v;
	size_t n;
	char **elf_done;	/* host objects already added (realpaths) */
	size_t nelf;
};

void pm_initramfs_free(struct pm_initramfs *ir);
/* Directories are added with their parents; adding one twice is fine. */
void pm_initramfs_add_dir(struct pm_initramfs *ir, const char *path);
/* A file with the contents of a host file (the link followed). */
void pm_initramfs_add_file(struct pm_initramfs *ir, const char *path, unsigned perm,
			   const char *source);
void pm_initramfs_add_data(struct pm_initramfs *ir, const char *path, unsigned perm,
			   const void *data, size_t len);
void pm_initramfs_add_symlink(struct pm_initramfs *ir, const char *path,
			      const char *target);
void pm_initramfs_add_chardev(struct pm_initramfs *ir, const char *path, unsigned perm,
			      unsigned major, unsigned minor);
const struct pm_ir_entry *pm_initramfs_find(const struct pm_initramfs *ir,
					    const char *path);

/*
 * An ELF program or library with what it needs to run: its interpreter
 * (PT_INTERP, at that path) and its DT_NEEDED libraries, found in its
 * DT_RUNPATH/DT_RPATH and then in libdirs (NULL: the standard library
 * directories), each put where it was found.  -ENOENT when a library is
 * not found, -ENOTSUP without libelf.
 */
int pm_initramfs_add_elf(struct pm_initramfs *ir, const char *path,
			 const char *source, const char *const *libdirs,
			 struct pm_err *e);
/* The standard library directories searched for DT_NEEDED. */
extern const char *const pm_std_libdirs[];

/* Write the archive (cpio "newc"), entries in order, then the trailer. */
int pm_initramfs_write(const struct pm_initramfs *ir, const char *path,
		       struct pm_err *e);

/* One entry of a cpio "newc" archive, for readers (the tests). */
struct pm_cpio_entry {
	const char *name;	/* points into the archive: NUL-terminated */
	unsigned mode, uid, gid, nlink, rmajor, rminor;
	const char *data;
	size_t size;
};
/* The entry at *off; advances *off.  0, 1 at the trailer, -EBADMSG. */
int pm_cpio_next(const char *buf, size_t len, size_t *off, struct pm_cpio_entry *ent);

/* What a guest's initramfs holds (host paths). */
struct pm_guest_spec {
	const char *release;		/* kernel release */
	const char *moddir;		/* /lib/modules/RELEASE, NULL: no modules */
	char **modules;			/* files under moddir to load, in order */
	const char *config;		/* -> /boot/config-RELEASE, or NULL */
	const char *vmlinux;		/* -> /usr/lib/debug/boot/vmlinux-RELEASE, or NULL */
	const char *init;		/* pmbench-guest-init */
	const char *pmbench;		/* the pmbench program */
	const char *libexecdir;		/* pmbench-hello, pmbench-spawner */
	const char *eventsdir;		/* *.events alias files */
	const char *shell;		/* /bin/sh for the sh benchmarks, or NULL */
	char **argv;			/* the guest's pmbench argv */
	const char *const *libdirs;	/* NULL: pm_std_libdirs */
};

/* The guest's whole archive in ir (paths: ab/guest.h). */
int pm_guest_initramfs(struct pm_initramfs *ir, const struct pm_guest_spec *s,
		       struct pm_err *e);

/* ---- kernels ---- */

/* The release ("6.1.0-57-amd64") from an x86 bzImage's setup header. */
int pm_kernel_image_release(const char *image, char *release, size_t len,
			    struct pm_err *e);
/*
 * --kernel PATH: the image to boot, and the kernel build tree it comes
 * from (a directory: its arch/x86/boot/bzImage; or an image at
 * TREE/arch/x86/boot/bzImage with TREE/.config or TREE/vmlinux), *tree
 * NULL when none.  Both allocated; -ENOENT for a directory without an
 * image.
 */
int pm_kernel_tree(const char *path, char **image, char **tree, struct pm_err *e);
/* `git describe --always --dirty --tags` of a tree in git, else NULL. */
char *pm_kernel_tree_describe(const char *tree);
/*
 * The module files (relative to moddir) that load the modules names[]
 * with their dependencies first, per moddir/modules.dep.  A module the
 * kernel has built in (modules.builtin) needs nothing.  -ENOENT when a
 * module is neither.
 */
int pm_kernel_modules_resolve(const char *moddir, const char *const *names,
			      char ***out, struct pm_err *e);

/*
 * A copy of a vmlinux with only what symbols need: every section header
 * kept (addresses, sizes), the contents of the symbol and string tables
 * and the notes (build-id); the rest (code, DWARF) dropped.  A few MB
 * instead of hundreds.
 */
int pm_vmlinux_strip(const char *in, const char *out, struct pm_err *e);

/* ---- KVM or TCG ---- */

enum pm_accel { PM_ACCEL_AUTO, PM_ACCEL_KVM, PM_ACCEL_TCG };
const char *pm_accel_name(enum pm_accel a);

struct pm_kvm_host {
	bool dev_kvm;		/* /dev/kvm opens read-write */
	bool hw_virt;		/* vmx or svm among the CPU flags */
	char module[32];	/* kvm_intel, kvm_amd, kvm_pvm, "" unknown */
};

/* Probe /dev/kvm, /proc/cpuinfo and /sys/module under root ("" = /). */
void pm_kvm_host_probe(struct pm_kvm_host *h, const char *root);
/* KVM when the host can run a stock guest under it; why says why not. */
enum pm_accel pm_accel_choose(const struct pm_kvm_host *h, char *why, size_t len);

/* ---- one boot ---- */

enum pm_boot_status {
	PM_BOOT_OK,		/* hand-back read (the guest run may still have failed) */
	PM_BOOT_TIMEOUT,	/* killed after the timeout */
	PM_BOOT_KVM_FAILED,	/* KVM: no kernel output in time, or a KVM error */
	PM_BOOT_NO_RESULT,	/* QEMU ended without a hand-back */
	PM_BOOT_QEMU_FAILED,	/* QEMU could not start or exited with an error */
	PM_BOOT_INTERRUPTED,	/* Ctrl-C */
};

struct pm_boot_spec {
	const char *qemu;	/* absolute path */
	enum pm_accel accel;	/* KVM or TCG */
	const char *cpu, *kernel, *initrd, *append;
	unsigned memory_mb, vcpus;
	double timeout_s;
	double kvm_probe_s;	/* KVM: kernel output expected within this */
	const char *dir;	/* scratch for the disk image and logs */
	const char *console;	/* console log path */
	const char *tag;	/* "a1": names the scratch files */
	volatile pid_t *running;	/* QEMU's pid while it runs (signal handlers) */
	int host_cpu;		/* host CPU QEMU is pinned to, -1: none */
	const char *plugin;	/* TCG: -plugin's value (the vCPUs then share one
				   thread, so that its counts are exact); NULL: none */
	bool icount;		/* TCG: the clock counts instructions (-icount) */
};

struct pm_boot {
	enum pm_boot_status status;
	char why[512];
	struct pm_handback hb;	/* payload points into image */
	char *image;		/* the hand-back buffer (disk or serial) */
	size_t image_len;
	const char *channel;	/* "virtio disk" or "serial port" */
	double elapsed_s;
	pid_t pid;		/* QEMU while it runs, else 0 */
	/* while it runs */
	char *disk, *serial2, *errlog;
	uint64_t start_ns, last_probe_ns;
	bool done;
};

/*
 * Start argv[0] (a path) in its own process group, killed with us, its
 * standard input /dev/null, its output into log (appended or replaced),
 * pinned to host CPU cpu unless -1.  Its pid, or -errno.
 */
pid_t pm_ab_spawn(char *const *argv, const char *log, bool append, int cpu,
		  struct pm_err *e);
/* A QEMU option value: a comma is written twice (allocated). */
char *pm_qemu_escape(const char *s);
/* QEMU's argv for a boot (free with pm_strv_free). */
char **pm_boot_argv(const struct pm_boot_spec *s, const char *disk,
		    const char *serial2);
/* The kernel command line pmbench adds before the user's. */
#define PM_BOOT_APPEND "console=ttyS0 panic=-1 rdinit=/init"
/* ... and with the emulated clock: no address-space randomization either,
 * so that every boot's processes lay out alike (fork's and sh's counts
 * depend on it: 1.1% and 0.6% apart between boots with it, 0.07% and
 * 0.3% without) */
#define PM_BOOT_APPEND_ICOUNT "norandmaps"

/*
 * Classify a KVM boot from what it showed so far: the console, QEMU's
 * stderr, time since start, whether QEMU exited (and its status).
 * true: fall back to TCG (why says why).
 */
bool pm_kvm_boot_failed(const char *console, const char *qemu_err, double elapsed_s,
			double probe_s, bool exited, int exit_status,
			char *why, size_t len);
/* The kernel has printed something: its first log lines are there. */
bool pm_console_has_kernel(const char *console);

/*
 * Run one boot to its end: start QEMU, watch the console and the clock,
 * kill and reap QEMU on a timeout or when *stop becomes true, and read
 * the hand-back.  Returns 0 with b->status saying how it ended, or a
 * -errno for a failure of our own (scratch files).
 */
int pm_boot_run(const struct pm_boot_spec *s, struct pm_boot *b,
		volatile int *stop, struct pm_err *e);
/* The same in steps, for boots side by side: start QEMU; then poll until
 * it returns true (the boot ended: b->status says how). */
int pm_boot_start(const struct pm_boot_spec *s, struct pm_boot *b, struct pm_err *e);
bool pm_boot_poll(const struct pm_boot_spec *s, struct pm_boot *b, volatile int *stop);
void pm_boot_free(struct pm_boot *b);
/* The last lines of a log file, for reports ("" when unreadable). */
char *pm_log_tail(const char *path, int lines);
/* Kill (TERM, then KILL) and reap a QEMU still running: for signals. */
void pm_boot_kill(pid_t pid);

/* ---- what differs between the sides ---- */

enum pm_ab_diff_kind {
	PM_AB_DIFF_IMAGE,	/* another kernel image */
	PM_AB_DIFF_ADDED,	/* an argument B has and A has not */
	PM_AB_DIFF_REMOVED,	/* an argument A has and B has not */
	PM_AB_DIFF_CHANGED,	/* both, with other values */
	PM_AB_DIFF_SETUP,	/* --local: another set-up command */
	PM_AB_DIFF_WRAP,	/* --local: another wrapper */
};

struct pm_ab_diff {
	enum pm_ab_diff_kind kind;
	char *param;		/* the argument's name; NULL for the image */
	char *a, *b;		/* A's and B's argument ("ftrace=function") or image; NULL: absent */
	char *text;		/* "the kernel argument ftrace=function of B" */
};

/* The differences, the image first (a file compared by content). */
size_t pm_ab_differences(const char *kernel_a, const char *kernel_b, const char *append_a,
			 const char *append_b, struct pm_ab_diff **out);
/* --local: the set-up commands and wrappers that differ. */
size_t pm_ab_local_differences(const char *setup_a, const char *setup_b, const char *wrap_a,
			       const char *wrap_b, struct pm_ab_diff **out);
/* B's kernel arguments with d taken back (allocated). */
char *pm_ab_revert_append(const char *append_b, const struct pm_ab_diff *d);
const char *pm_ab_diff_kind_name(enum pm_ab_diff_kind k);
void pm_ab_diffs_free(struct pm_ab_diff *v, size_t n);

/* ---- the arms of the experiment and their runs ---- */

struct pm_result;
struct pm_ab_opts;
struct pm_ab_ksyms;
struct pm_ab_counting;

/* One configuration run again and again: A, B, or B with one difference
 * taken back. */
struct pm_ab_arm {
	char *name;		/* "A", "B", "B without ftrace=function" */
	char *label;		/* its runs' --label: "A", "B", "R1" */
	char *tag;		/* scratch and console names: "a", "b", "r1" */
	const char *kernel;	/* guest: the image */
	char *image;		/* A and B: the image --kernel names (kernel points here) */
	char *tree;		/* the kernel build tree the image comes from, or NULL */
	char *describe;		/* its git describe, or NULL */
	char release[128];
	char *append;		/* guest: the user's kernel arguments */
	char *initrd;
	char *vmlinux;		/* stripped copy in the guest, or NULL */
	char *vmlinux_from;	/* the host file its symbols came from */
	bool have_modules, have_config;
	char modules_why[1100];	/* why the virtio modules cannot be loaded */
	const char *setup, *wrap;	/* --local */
	int reverts;		/* the difference it takes back, -1: none */
	struct pm_result *runs;	/* in the order taken */
	struct pm_ab_ksyms *ksyms;	/* its kernel's symbols for the emulated
					   profile, loaded at its first counted boot */
	size_t nruns;
	unsigned failed;
	unsigned earlier;	/* runs an interrupted invocation numbered, not kept */
};

/* A guest arm's initramfs and symbols (name, label, tag, kernel and append
 * set); vmlinux: --vmlinux-X or NULL. */
int pm_ab_arm_prepare(struct pm_ab_arm *a, const struct pm_ab_opts *o, const char *vmlinux,
		      const char *scratch, struct pm_err *e);
/* Append run r to arm a (which owns it from then on). */
void pm_ab_add_run(struct pm_ab_arm *a, struct pm_result *r);
void pm_ab_arm_free(struct pm_ab_arm *a);

/* What every run needs. */
struct pm_ab_env {
	const struct pm_ab_opts *o;
	const char *qemu;
	enum pm_accel accel;
	const char *scratch, *console_dir;
	char **local_argv;	/* --local: pmbench run and its options */
	char **benches;		/* NULL-terminated */
	const struct pm_ab_counting *counting;	/* TCG: the plugin, when it loads */
};

enum pm_ab_job_end { PM_JOB_KEPT, PM_JOB_FAILED, PM_JOB_FATAL, PM_JOB_RESTART, PM_JOB_STOP };

struct pm_ab_job {
	struct pm_ab_arm *arm;
	char tag[24];		/* "a3" */
	int host_cpu;		/* -1: not pinned */
	volatile pid_t *running;	/* its QEMU or pmbench while it runs */
	/* set by the job */
	bool local, done;
	struct pm_boot_spec bs;
	struct pm_boot boot;
	pid_t pid;
	char *console, *result_path;
	char *counts_path, *plugin_arg;	/* the plugin's file and argument */
	uint64_t start_ns;
	enum pm_ab_job_end end;
	int status;		/* the pmbench run's exit status */
	char why[1200];
	char *image;		/* the result file's text */
	size_t image_len;
	const char *channel;	/* how it came back */
	double elapsed_s;
};

int pm_ab_job_start(struct pm_ab_job *j, const struct pm_ab_env *env, struct pm_err *e);
/*
 * A kept guest run's emulated counts into its result r (ab/emulated.c):
 * the benchmarks counted, 0 with why when none could be (no plugin file,
 * no markers, windows that do not match the trials).
 */
size_t pm_ab_job_counts(struct pm_ab_job *j, const struct pm_ab_env *env, struct pm_result *r,
			char *why, size_t len);
/* true once the job ended (j->end says how). */
bool pm_ab_job_poll(struct pm_ab_job *j, const struct pm_ab_env *env, volatile int *stop);
void pm_ab_job_kill(struct pm_ab_job *j);
void pm_ab_job_free(struct pm_ab_job *j);

/* ---- the command line ---- */

struct pm_ab_side {
	const char *kernel, *append, *vmlinux;
	const char *setup, *wrap;	/* --local: a command before each run; a prefix */
};

enum pm_ab_duet { PM_DUET_AUTO, PM_DUET_ON, PM_DUET_OFF };

struct pm_ab_opts {
	struct pm_ab_side side[2];
	const char *append_both;
	const char *cpu;		/* default "max" */
	unsigned memory_mb, vcpus;
	enum pm_accel accel;
	const char *qemu;		/* absolute; NULL: default paths */
	unsigned boots;			/* pairs at least (--rounds) */
	double budget_s;		/* --budget: time for the pairs, 0: none */
	unsigned budget_boots;		/* --budget Nb: runs of both sides, 0: none */
	double confirm_budget_s;	/* --confirm-budget */
	bool no_confirm;
	unsigned knockouts;		/* --knockouts: candidates tried at most */
	double knockout_budget_s;	/* --knockout-budget */
	bool exit_code;			/* --exit-code: for git bisect run */
	enum pm_ab_duet duet;
	unsigned long seed;		/* the order within pairs; 0: from the clock */
	bool local;			/* --local: this host, set-up commands and wrappers */
	double timeout_s;		/* 0: from the benchmarks */
	const char *output;		/* NULL: a new dated directory */
	const char *console_dir;	/* NULL: OUTPUT/console */
	/* the guest's pmbench run */
	double max_time_s;
	unsigned run_rounds;
	const char *events;		/* NULL: the run's default */
	bool no_profile, no_counters;
	char **run_options;		/* verbatim, NULL-terminated */
	size_t nrun_options;
	char **benches;			/* NULL-terminated */
	size_t nbenches;
	bool quiet;
	double noise;			/* the report's noise floor (fraction); NAN: explain's */
	bool no_emulated_counts;	/* TCG: boot without the counting plugin */
	bool emulated_icache;		/* TCG: with its i-cache model */
	bool emulated_clock;		/* TCG: -icount, the guest's clock counts
					   instructions */
};

#define PM_AB_DEFAULT_BOOTS 3
#define PM_AB_DEFAULT_BUDGET_S 600.0
#define PM_AB_DEFAULT_MAX_TIME 0.5
#define PM_AB_DEFAULT_RUN_ROUNDS 2
#define PM_AB_DEFAULT_MEMORY 2048
#define PM_AB_DEFAULT_VCPUS 2
#define PM_AB_KVM_PROBE_S 10.0
#define PM_AB_DEFAULT_KNOCKOUTS 3
#define PM_AB_DEFAULT_KNOCKOUT_BUDGET_S 1200.0

void pm_ab_opts_free(struct pm_ab_opts *o);
/* The options of `pmbench ab`, declared once: -h prints them. */
extern const struct pm_usage pm_ab_usage;
/*
 * Parse `pmbench ab` arguments (argv[0] is "ab").  0; 1 for -h (print the
 * usage); 2 for --help (open the manual); -EINVAL with a message.
 */
int pm_ab_parse_args(int argc, char **argv, struct pm_ab_opts *o, struct pm_err *e);
/* The guest's pmbench argv for a side (label "A"/"B"). */
char **pm_ab_guest_argv(const struct pm_ab_opts *o, const char *label,
			const char *vmlinux_in_guest);
/* The timeout of one boot when not given: boot, then the runs. */
double pm_ab_default_timeout(const struct pm_ab_opts *o);
/* QEMU: opts->qemu, else the first executable default path. */
const char *pm_ab_find_qemu(const char *given, struct pm_err *e);

#endif
