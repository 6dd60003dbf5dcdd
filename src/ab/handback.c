/* The guest's result hand-back: format and parser (see handback.h). */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ab/handback.h"

uint64_t pm_fnv1a64(const void *data, size_t len)
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ull;

	while (len--) {
		h ^= *p++;
		h *= 0x100000001b3ull;
	}
	return h;
}

size_t pm_handback_header(char *buf, size_t len, int status, const char *error,
			  const void *payload, size_t plen)
{
	char err[512] = "";
	size_t i;
	int n;

	/* one line: no newlines inside the error text */
	if (error) {
		snprintf(err, sizeof(err), "%s", error);
		for (i = 0; err[i]; i++)
			if (err[i] == '\n' || err[i] == '\r')
				err[i] = ' ';
	}
	n = snprintf(buf, len, PM_HANDBACK_MAGIC "status %d\n%s%s%slength %zu\n"
		     "fnv1a64 %016" PRIx64 "\n\n", status, err[0] ? "error " : "", err,
		     err[0] ? "\n" : "", plen, pm_fnv1a64(payload, plen));
	return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}

static const char *find(const char *buf, size_t len, const char *what)
{
	return memmem(buf, len, what, strlen(what));
}

int pm_handback_parse(const char *buf, size_t len, struct pm_handback *hb,
		      const char **why)
{
	const char *p = find(buf, len, PM_HANDBACK_MAGIC), *end, *line;
	bool have_status = false, have_length = false, have_sum = false;
	uint64_t sum = 0;
	size_t hlen;

	memset(hb, 0, sizeof(*hb));
	hb->status = -1;
	*why = NULL;
	if (!p) {
		*why = "no hand-back header";
		return -ENOENT;
	}
	len -= (size_t)(p - buf);
	hlen = len < PM_HANDBACK_HEADER_MAX ? len : PM_HANDBACK_HEADER_MAX;
	end = find(p, hlen, "\n\n");
	if (!end) {
		*why = "hand-back header not terminated (guest stopped while writing?)";
		return -EBADMSG;
	}
	line = p + strlen(PM_HANDBACK_MAGIC);
	while (line <= end) {
		const char *nl = memchr(line, '\n', (size_t)(end + 1 - line));
		size_t n = (size_t)(nl - line);
		char tmp[600], *e;

		if (n >= sizeof(tmp)) {
			*why = "hand-back header line too long";
			return -EBADMSG;
		}
		memcpy(tmp, line, n);
		tmp[n] = '\0';
		line = nl + 1;
		if (!strncmp(tmp, "status ", 7)) {
			long v = strtol(tmp + 7, &e, 10);

			if (e == tmp + 7 || *e || v < -1 || v > 255)
				goto bad;
			hb->status = (int)v;
			have_status = true;
		} else if (!strncmp(tmp, "error ", 6)) {
			snprintf(hb->error, sizeof(hb->error), "%.511s", tmp + 6);
		} else if (!strncmp(tmp, "length ", 7)) {
			unsigned long long v;

			if (tmp[7] < '0' || tmp[7] > '9')
				goto bad;
			v = strtoull(tmp + 7, &e, 10);
			if (*e)
				goto bad;
			hb->length = (size_t)v;
			have_length = true;
		} else if (!strncmp(tmp, "fnv1a64 ", 8)) {
			sum = strtoull(tmp + 8, &e, 16);
			if (e != tmp + 8 + 16 || *e)
				goto bad;
			have_sum = true;
		}
		/* other keys: a newer writer; ignored */
	}
	if (!have_status || !have_length || !have_sum) {
		*why = "hand-back header lacks status, length or checksum";
		return -EBADMSG;
	}
	hb->payload = end + 2;
	if (hb->length > len - (size_t)(hb->payload - p)) {
		*why = "hand-back payload truncated";
		return -EBADMSG;
	}
	if (pm_fnv1a64(hb->payload, hb->length) != sum) {
		*why = "hand-back payload checksum mismatch";
		return -EBADMSG;
	}
	return 0;
bad:
	*why = "malformed hand-back header line";
	return -EBADMSG;
}
