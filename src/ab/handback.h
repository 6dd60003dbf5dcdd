/*
 * The guest's answer to `pmbench ab`: what the guest init writes to the
 * virtio disk (or, without one, to its second serial port) before it
 * powers off, and the host reads back.  A short text header, then the
 * result file:
 *
 *   PMBENCH-AB-RESULT 1
 *   status 0                 exit status of the guest's pmbench run
 *   error TEXT               optional: why the init could not run it
 *   length 123456            bytes of payload after the blank line
 *   fnv1a64 0123456789abcdef checksum of the payload
 *   (blank line)
 *   payload
 *
 * Self-contained (libc only): the static guest init links it too.
 */
#ifndef PM_AB_HANDBACK_H
#define PM_AB_HANDBACK_H

#include <stddef.h>
#include <stdint.h>

#define PM_HANDBACK_MAGIC "PMBENCH-AB-RESULT 1\n"
#define PM_HANDBACK_HEADER_MAX 4096

struct pm_handback {
	int status;		/* guest pmbench exit status; -1 when it did not run */
	char error[512];	/* the init's own failure, "" if none */
	const char *payload;	/* points into the parsed buffer */
	size_t length;
};

uint64_t pm_fnv1a64(const void *data, size_t len);

/* The header for a payload; returns its length (< PM_HANDBACK_HEADER_MAX). */
size_t pm_handback_header(char *buf, size_t len, int status, const char *error,
			  const void *payload, size_t plen);

/*
 * Find and check a hand-back in buf (a disk image or a serial log: the
 * header may follow other bytes).  0, or -ENOENT (no header), -EBADMSG
 * (malformed, truncated or wrong checksum) with *why saying which.
 */
int pm_handback_parse(const char *buf, size_t len, struct pm_handback *hb,
		      const char **why);

#endif
