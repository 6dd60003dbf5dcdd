/* Where data, manual pages and helpers are (src/util/path.c) */
#ifndef PM_UTIL_PATH_H
#define PM_UTIL_PATH_H


/* Where installed or in-tree data (events/, man/) lives. */
const char *pm_datadir(void);
const char *pm_mandir(void);
const char *pm_libexecdir(void);

#endif
