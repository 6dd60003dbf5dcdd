/* Error messages and the terminal (src/util/err.c) */
#ifndef PM_UTIL_ERR_H
#define PM_UTIL_ERR_H

#include <stdbool.h>

/*
 * Library code reports failure as a negative errno and a message in a
 * struct pm_err; only cmd_* code prints and picks exit codes.
 * -EINVAL (and -EBADMSG) mean "bad input": exit status 2.
 */
struct pm_err {
	char msg[1024];
};

int pm_err_set(struct pm_err *e, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Is stderr a terminal (progress lines)? */
bool pm_stderr_is_tty(void);

#endif
