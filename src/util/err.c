/* Error messages (struct pm_err) and the terminal. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "util.h"

int pm_err_set(struct pm_err *e, int err, const char *fmt, ...)
{
	va_list ap;

	if (e) {
		va_start(ap, fmt);
		vsnprintf(e->msg, sizeof(e->msg), fmt, ap);
		va_end(ap);
	}
	return err;
}

bool pm_stderr_is_tty(void)
{
	return isatty(2);
}
