#include "config.h"

/*
 * Writing fingerprint items: the helpers every source of sysinfo uses
 * to put an item, or a null and the reason it could not be read.
 */

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "sysinfo/internal.h"

static const char *leaf_key(const char *dotted)
{
	const char *dot = strrchr(dotted, '.');

	return dot ? dot + 1 : dotted;
}

void si_put(json_t *obj, enum pm_fp_key k, json_t *v)
{
	json_object_set_new(obj, pm_fp_key_leaf(k), v);
}

static void na_v(struct si_ctx *c, json_t *obj, const char *dotted,
		 const char *fmt, va_list ap)
{
	char *why;

	if (vasprintf(&why, fmt, ap) < 0)
		why = NULL;
	if (obj)
		json_object_set_new(obj, leaf_key(dotted), json_null());
	json_object_set_new(c->unavail, dotted, json_string(why ? why : "?"));
	free(why);
}

void si_na_at(struct si_ctx *c, json_t *obj, const char *dotted, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	na_v(c, obj, dotted, fmt, ap);
	va_end(ap);
}

void si_na(struct si_ctx *c, json_t *obj, enum pm_fp_key k, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	na_v(c, obj, pm_fp_key(k), fmt, ap);
	va_end(ap);
}

void si_file_reason(char *buf, size_t len, const char *path, int err)
{
	if (err == -ENOENT)
		snprintf(buf, len, "%s does not exist", path);
	else if (err == -EACCES || err == -EPERM)
		snprintf(buf, len, "%s is not readable by this user (run as root)",
			 path);
	else
		snprintf(buf, len, "%s: %s", path, strerror(-err));
}

int si_put_line_at(struct si_ctx *c, json_t *obj, const char *dotted,
		   const char *path, const char *hint)
{
	char buf[4096], why[512];
	int err = pm_read_line(path, buf, sizeof(buf));

	if (err) {
		si_file_reason(why, sizeof(why), path, err);
		si_na_at(c, obj, dotted, "%s%s%s", why, hint ? "; " : "",
			 hint ? hint : "");
		return err;
	}
	json_object_set_new(obj, leaf_key(dotted), json_string(pm_strtrim(buf)));
	return 0;
}

int si_put_line(struct si_ctx *c, json_t *obj, enum pm_fp_key k,
		const char *path, const char *hint)
{
	return si_put_line_at(c, obj, pm_fp_key(k), path, hint);
}

int si_put_long_at(struct si_ctx *c, json_t *obj, const char *dotted,
		   const char *path, const char *hint)
{
	char why[512];
	long v;
	int err = pm_read_long(path, &v);

	if (err) {
		if (err == -EINVAL)
			snprintf(why, sizeof(why), "%s: not a number", path);
		else
			si_file_reason(why, sizeof(why), path, err);
		si_na_at(c, obj, dotted, "%s%s%s", why, hint ? "; " : "",
			 hint ? hint : "");
		return err;
	}
	json_object_set_new(obj, leaf_key(dotted), json_integer(v));
	return 0;
}

int si_put_long(struct si_ctx *c, json_t *obj, enum pm_fp_key k,
		const char *path, const char *hint)
{
	return si_put_long_at(c, obj, pm_fp_key(k), path, hint);
}
