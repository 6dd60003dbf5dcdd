/*
 * The mechanism map (mechanisms/, pmbench-mechanisms(5)): which kernel
 * code belongs to which mechanism, and which kernel parameters, config
 * options and fingerprint items switch it.  Data, not rules: explain
 * climbs call chains and ties changes to fingerprint differences with it.
 */
#ifndef PM_MECHMAP_H
#define PM_MECHMAP_H

#include <stdbool.h>
#include <stddef.h>

#include "util.h"

struct pm_mech {
	char *id;		/* "tracing.function" */
	char *name;		/* "the function tracer (ftrace)" */
	char **paths, **symbols, **switches;
	size_t npaths, nsymbols, nswitches;
	char **knockouts;	/* kernel arguments that switch it off at boot
				   (pmbench ab's knock-out experiments), each
				   with the CONFIG_ option without which it does
				   nothing: "init_on_alloc=0 CONFIG_INIT_..." */
	size_t nknockouts;
	bool generic;		/* [generic]: climbed past */
	bool owns;		/* owns = yes: owns the chains through it when it
				   runs on one side only */
	const struct pm_mech *top;	/* "tracing" for "tracing.function"; itself at the top */
};

struct pm_mechmap;

/* Load dir/kernel.mech and the generated dir/linux.{syms,params,configs}
 * (each optional but kernel.mech).  -ENOENT, -EINVAL with file:line. */
int pm_mechmap_load(struct pm_mechmap **out, const char *dir, struct pm_err *e);
void pm_mechmap_free(struct pm_mechmap *m);
/* $PMBENCH_MECHANISMS_DIR, else the data directory's mechanisms/. */
const char *pm_mechmap_default_dir(void);
/* The map of the default directory, loaded once; NULL when it cannot be
 * (why says why). */
const struct pm_mechmap *pm_mechmap_get(const char **why);

/*
 * The map of the kernel version nearest to release ("6.12.118+deb12-
 * amd64": the generated files of 6.12 when shipped, else the nearest
 * version's); m itself when release is NULL or has no version.  Its
 * lookups fall back on the other versions' files.
 */
const struct pm_mechmap *pm_mechmap_for_release(const struct pm_mechmap *m,
						const char *release);
/* The kernel version its generated files are of ("6.1"), or NULL. */
const char *pm_mechmap_version(const struct pm_mechmap *m);

size_t pm_mechmap_count(const struct pm_mechmap *m);
const struct pm_mech *pm_mechmap_at(const struct pm_mechmap *m, size_t i);
const struct pm_mech *pm_mechmap_find(const struct pm_mechmap *m, const char *id);

/* A symbol without its compiler suffixes (.cold, .constprop.N, ...). */
void pm_mech_base_name(const char *sym, char *buf, size_t len);
/* The file that declares a kernel function per linux.syms, or NULL. */
const char *pm_mechmap_file(const struct pm_mechmap *m, const char *sym);
/*
 * The mechanism of a kernel frame: a section's symbol glob, else the
 * longest path that holds file (a more specific section on a tie).
 * NULL: no section has it (the file itself is then the mechanism).
 */
const struct pm_mech *pm_mechmap_classify(const struct pm_mechmap *m, const char *sym,
					  const char *file);
/* Files that parse kernel parameter name ("ftrace", "mitigations"); NULL. */
const char *const *pm_mechmap_param_files(const struct pm_mechmap *m, const char *name,
					  size_t *n);
/* Files and directories a config option builds ("CONFIG_PSI"); NULL. */
const char *const *pm_mechmap_config_files(const struct pm_mechmap *m, const char *name,
					   size_t *n);
/* Whether mechanism k names sw among its switches ("mitigations",
 * "CONFIG_PSI", "fp:thp.enabled"), itself or its top section. */
bool pm_mech_switched_by(const struct pm_mech *k, const char *sw);
/* The CONFIG_ options kernel function sym is defined only under
 * (linux.guards: inside an #ifdef of each), at most max into out. */
size_t pm_mechmap_guards(const struct pm_mechmap *m, const char *sym, const char **out,
			 size_t max);

#endif
