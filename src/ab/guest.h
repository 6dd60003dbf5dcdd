/* Paths inside the guests of `pmbench ab`: shared by host and guest init. */
#ifndef PM_AB_GUEST_H
#define PM_AB_GUEST_H

#define PM_GUEST_MODULES "/etc/pmbench-ab/modules"
#define PM_GUEST_ARGV "/etc/pmbench-ab/argv"
#define PM_GUEST_RESULT "/tmp/pmbench-ab-result.json"
#define PM_GUEST_DISK "/dev/vda"
#define PM_GUEST_SERIAL "/dev/ttyS1"
#define PM_GUEST_PMBENCH "/usr/bin/pmbench"
#define PM_GUEST_DATADIR "/usr/share/pmbench"
#define PM_GUEST_LIBEXECDIR "/usr/libexec/pmbench"

#endif
