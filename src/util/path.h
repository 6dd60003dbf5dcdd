/* Where data, manual pages and helpers are (src/util/path.c) */
#ifndef PM_UTIL_PATH_H
#define PM_UTIL_PATH_H


/* Where installed or in-tree data (events/, man/) lives. */
const char *pm_datadir(void);
const char *pm_mandir(void);
/* $PMBENCH_MECHANISMS_DIR, else the data directory's mechanisms/. */
const char *pm_mechanisms_dir(void);
const char *pm_libexecdir(void);

#endif
