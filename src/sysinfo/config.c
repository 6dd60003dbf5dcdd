#include "config.h"

/*
 * The kernel configuration: /proc/config.gz (gunzipped with zlib) or
 * /boot/config-RELEASE, parsed into an object of the options set.
 */

#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#ifdef HAVE_ZLIB
#include <zlib.h>
#endif

#include "sysinfo/internal.h"

static bool is_config_name_char(int ch)
{
	return isalnum(ch) || ch == '_';
}

/* Undo Kconfig string quoting: "a \"b\"" -> a "b". */
static char *config_unquote(const char *v, size_t n)
{
	char *out = pm_xmalloc(n + 1), *o = out;
	size_t i;

	if (n >= 2 && v[0] == '"' && v[n - 1] == '"') {
		for (i = 1; i < n - 1; i++) {
			if (v[i] == '\\' && i + 1 < n - 1)
				i++;
			*o++ = v[i];
		}
	} else {
		memcpy(o, v, n);
		o += n;
	}
	*o = '\0';
	return out;
}

json_t *pm_sysinfo_parse_config(const char *text)
{
	json_t *cfg = json_object();
	const char *line = text;

	while (line && *line) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		const char *eq;
		size_t name_len, vlen;

		/* Only "CONFIG_X=value": comments ("# ... is not set") and
		 * anything else is not a set option. */
		if (len > 7 && strncmp(line, "CONFIG_", 7) == 0 &&
		    (eq = memchr(line, '=', len)) != NULL) {
			name_len = (size_t)(eq - line);
			for (size_t i = 0; i < name_len; i++)
				if (!is_config_name_char((unsigned char)line[i]))
					goto next;
			vlen = len - name_len - 1;
			while (vlen && (eq[vlen] == '\r' || eq[vlen] == ' '))
				vlen--;
			char *name = pm_xmalloc(name_len + 1);
			char *value = config_unquote(eq + 1, vlen);

			memcpy(name, line, name_len);
			name[name_len] = '\0';
			json_object_set_new(cfg, name, json_string(value));
			free(name);
			free(value);
		}
next:
		line = end ? end + 1 : NULL;
	}
	return cfg;
}

bool si_config_is_y(const json_t *config, const char *name)
{
	const char *v = json_string_value(json_object_get(config, name));

	return v && strcmp(v, "y") == 0;
}

#ifdef HAVE_ZLIB
/* gunzip a file with zlib, at most max bytes of text (-EFBIG beyond):
 * no shell and no gzip found through PATH inside a measured process. */
static int read_gzip(const char *path, size_t max, char **out)
{
	size_t cap = 1 << 16, n = 0;
	char *buf;
	gzFile gz;
	int r, err = 0;

	gz = gzopen(path, "rbe");
	if (!gz)
		return errno ? -errno : -ENOMEM;
	buf = pm_xmalloc(cap);
	for (;;) {
		if (cap - n - 1 == 0) {
			if (n > max) {
				err = -EFBIG;
				break;
			}
			cap *= 2;
			buf = pm_xrealloc(buf, cap);
		}
		r = gzread(gz, buf + n, (unsigned)(cap - n - 1));
		if (r < 0) {
			int zerr;

			gzerror(gz, &zerr);
			err = zerr == Z_ERRNO ? -errno : -EBADMSG;
			break;
		}
		if (r == 0)
			break;
		n += (size_t)r;
	}
	gzclose(gz);
	if (!err && n > max)
		err = -EFBIG;
	if (!err && n == 0)
		err = -ENODATA;
	if (err) {
		free(buf);
		return err;
	}
	buf[n] = '\0';
	*out = buf;
	return 0;
}
#endif

char *si_read_kernel_config(struct si_ctx *c, char *source, size_t srclen,
			    char *why, size_t whylen)
{
	char *text = NULL, gz_why[256], boot[300];
	int err;

	if (access("/proc/config.gz", R_OK) == 0) {
#ifdef HAVE_ZLIB
		err = read_gzip("/proc/config.gz", PM_READ_MAX_CONFIG, &text);
		if (!err) {
			snprintf(source, srclen, "/proc/config.gz");
			return text;
		}
		snprintf(gz_why, sizeof(gz_why), "/proc/config.gz: %s",
			 err == -EFBIG ? "larger than 16 MiB uncompressed" :
			 err == -EBADMSG ? "not valid gzip data" : strerror(-err));
#else
		snprintf(gz_why, sizeof(gz_why), "/proc/config.gz not read: "
			 "pmbench was built without zlib (apt-get install zlib1g-dev)");
#endif
	} else if (errno == ENOENT) {
		snprintf(gz_why, sizeof(gz_why), "/proc/config.gz missing "
			 "(kernel without CONFIG_IKCONFIG_PROC; try modprobe configs)");
	} else {
		snprintf(gz_why, sizeof(gz_why), "/proc/config.gz: %s",
			 strerror(errno));
	}
	if (!c->have_uts) {
		snprintf(why, whylen, "%s", gz_why);
		return NULL;
	}
	snprintf(boot, sizeof(boot), "/boot/config-%s", c->uts.release);
	err = pm_read_file_max(boot, PM_READ_MAX_CONFIG, &text, NULL);
	if (!err) {
		snprintf(source, srclen, "%s", boot);
		return text;
	}
	snprintf(why, whylen, "%s, and %s %s", gz_why, boot,
		 err == -ENOENT ? "does not exist" : strerror(-err));
	return NULL;
}
