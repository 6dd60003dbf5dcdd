/*
 * --anonymize: a result that can be mailed to a public list.  Replaced:
 * the host name; the kernel builder's user@host in /proc/version; in the
 * kernel command line, the values that name disks, hosts and addresses
 * (root=, resume=, ip=, UUIDs, IP and MAC addresses) and the init
 * arguments after "--"; pmbench's own command line is reduced to the
 * options, file names without their directories; paths under home
 * directories (/home/NAME, /root, $HOME) become "~/..." and the user's
 * name as a path component becomes "USER", in every string of the file.
 * The figures, the configuration and the evidence explain uses are kept.
 */
#ifndef PM_ANONYMIZE_H
#define PM_ANONYMIZE_H

#include <jansson.h>

#include "results/result.h"

#define PM_ANONYMIZED "anonymized"

/* In place, before the result is rendered or written. */
void pm_anonymize_result(struct pm_result *r);
/* A result document as read (show --format json --anonymize). */
void pm_anonymize_document(json_t *doc);
/* One string: home paths and user names; a new string (free it). */
char *pm_anonymize_string(const char *s);

#endif
