/*
 * Event resolution: a name (alias or libpfm4 string) becomes a
 * perf_event_attr that this machine can count, or a reason why not.
 * libpfm4 encodes model events even where the PMU is hidden (a VM), so
 * support is decided by actually opening the event.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "counters/counters.h"

int pm_perf_event_open(struct perf_event_attr *attr, pid_t pid, int cpu,
		       int group_fd, unsigned long flags)
{
	long fd = syscall(SYS_perf_event_open, attr, pid, cpu, group_fd,
			  flags | PERF_FLAG_FD_CLOEXEC);

	return fd < 0 ? -errno : (int)fd;
}

int pm_pfm_init(struct pm_err *e)
{
	static int state = 1;	/* 1: not yet, 0: ok, <0: error */

	if (state == 1) {
		int ret = pfm_initialize();

		state = ret == PFM_SUCCESS ? 0 : -ENODEV;
		if (state)
			return pm_err_set(e, state, "libpfm4 failed to initialize: %s",
					  pfm_strerror(ret));
	}
	if (state)
		pm_err_set(e, state, "libpfm4 failed to initialize");
	return state;
}

const char *pm_pfm_core_pmu(void)
{
	static char name[64];
	pfm_pmu_info_t info;
	int p;

	if (pm_pfm_init(NULL))
		return NULL;
	for (p = 0; p < PFM_PMU_MAX; p++) {
		memset(&info, 0, sizeof(info));
		info.size = sizeof(info);
		if (pfm_get_pmu_info(p, &info) != PFM_SUCCESS || !info.is_present)
			continue;
		if (info.type == PFM_PMU_TYPE_CORE) {
			snprintf(name, sizeof(name), "%s", info.name);
			return name;
		}
	}
	return NULL;
}

bool pm_have_hw_pmu(void)
{
	static int cached = -1;
	struct dirent *d;
	DIR *dir;

	if (cached >= 0)
		return cached;
	cached = 0;
	/* A PMU that takes raw hardware events registers with type 4. */
	dir = opendir("/sys/bus/event_source/devices");
	if (!dir)
		return false;
	while ((d = readdir(dir))) {
		char *path;
		long type;

		if (d->d_name[0] == '.')
			continue;
		path = pm_xasprintf("/sys/bus/event_source/devices/%s/type",
				    d->d_name);
		if (pm_read_long(path, &type) == 0 && type == PERF_TYPE_RAW)
			cached = 1;
		free(path);
	}
	closedir(dir);
	return cached;
}

int pm_encode(const char *event, int plm, struct perf_event_attr *attr,
	      char **fstr, struct pm_err *e)
{
	pfm_perf_encode_arg_t arg;
	char *f = NULL;
	int ret;

	ret = pm_pfm_init(e);
	if (ret)
		return ret;
	memset(attr, 0, sizeof(*attr));
	memset(&arg, 0, sizeof(arg));
	arg.attr = attr;
	arg.size = sizeof(arg);
	arg.fstr = fstr ? &f : NULL;
	ret = pfm_get_os_event_encoding(event, plm, PFM_OS_PERF_EVENT_EXT, &arg);
	if (ret != PFM_SUCCESS) {
		free(f);
		return pm_err_set(e, ret, "%s", pfm_strerror(ret));
	}
	attr->size = sizeof(*attr);
	if (fstr)
		*fstr = f;
	return 0;
}

static int perf_paranoid(void)
{
	long v;

	return pm_read_long("/proc/sys/kernel/perf_event_paranoid", &v) ? 2 : (int)v;
}

char *pm_open_reason(int err, const struct perf_event_attr *attr)
{
	bool hw = attr->type == PERF_TYPE_HARDWARE ||
		  attr->type == PERF_TYPE_HW_CACHE || attr->type == PERF_TYPE_RAW;

	err = err < 0 ? -err : err;
	switch (err) {
	case ENOENT:
	case EOPNOTSUPP:
	case ENODEV:
		if (hw && !pm_have_hw_pmu())
			return pm_xasprintf("no hardware PMU on this machine (perf_event_open: %s); "
					    "a virtual machine needs PMU passthrough (e.g. KVM -cpu host,pmu=on)",
					    strerrorname_np(err));
		return pm_xasprintf("the kernel does not support this event here (perf_event_open: %s)",
				    strerrorname_np(err));
	case EACCES:
	case EPERM:
		return pm_xasprintf("permission denied: perf_event_paranoid=%d; run as root or with CAP_PERFMON, "
				    "or lower it: sysctl kernel.perf_event_paranoid=1 (user and kernel) or 2 (user only)",
				    perf_paranoid());
	case EBUSY:
		return pm_xasprintf("the PMU is busy (another tool or the NMI watchdog holds counters; "
				    "sysctl kernel.nmi_watchdog=0 frees one)");
	case EINVAL:
		return pm_xasprintf("the kernel rejected the encoding (perf_event_open: EINVAL)");
	case EMFILE:
	case ENFILE:
		return pm_xasprintf("too many open files (raise ulimit -n)");
	default:
		return pm_xasprintf("perf_event_open: %s", strerror(err));
	}
}

/* Try to open attr on ourselves: is it countable here? */
static int open_test(struct perf_event_attr *attr)
{
	struct perf_event_attr a = *attr;
	int fd;

	a.disabled = 1;
	fd = pm_perf_event_open(&a, 0, -1, -1, 0);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}

static void event_free(struct pm_event *ev)
{
	size_t i;

	free(ev->name);
	free(ev->desc);
	free(ev->reason);
	free(ev->event);
	for (i = 0; i < ev->ncand; i++) {
		free(ev->cand[i].event);
		free(ev->cand[i].fstr);
	}
	free(ev->cand);
}

void pm_events_free(struct pm_events *ev)
{
	size_t i;

	for (i = 0; i < ev->n; i++)
		event_free(&ev->v[i]);
	free(ev->v);
	ev->v = NULL;
	ev->n = 0;
}

static struct pm_event *events_append(struct pm_events *out)
{
	struct pm_event *ev;

	out->v = pm_xgrow(out->v, out->n, sizeof(*out->v));
	ev = &out->v[out->n++];
	memset(ev, 0, sizeof(*ev));
	return ev;
}

/*
 * Try one candidate: encode for user and for kernel, and open.  Returns
 * 0 when it can be counted (ev filled), else -errno / libpfm error.
 */
static int try_candidate(struct pm_event *ev, struct pm_candidate *c,
			 bool do_open)
{
	struct perf_event_attr au, ak;
	char *fstr = NULL;
	int err;

	err = pm_encode(c->event, PFM_PLM3, &au, &fstr, NULL);
	if (err) {
		c->encode_err = err;
		return err;
	}
	c->fstr = fstr;
	c->type = au.type;
	c->config = au.config;
	c->config1 = au.config1;
	c->config2 = au.config2;
	if (pm_encode(c->event, PFM_PLM0, &ak, NULL, NULL)) {
		c->encode_err = PFM_ERR_INVAL;
		return -EINVAL;
	}
	ev->software = au.type == PERF_TYPE_SOFTWARE;
	/* Identical encodings: the string fixes its own privilege levels
	 * (":u"), or the event does not filter by them (software). */
	ev->split = !ev->software &&
		(au.exclude_kernel != ak.exclude_kernel ||
		 au.exclude_user != ak.exclude_user);
	if (!ev->split) {
		/* Count everything the string allows. */
		err = pm_encode(c->event, PFM_PLM0 | PFM_PLM3, &au, NULL, NULL);
		if (err)
			return err;
	}
	if (do_open) {
		err = open_test(&au);
		if (err == -EACCES && !au.exclude_kernel) {
			/* perf_event_paranoid=2: user space only. */
			struct perf_event_attr uo = au;

			uo.exclude_kernel = 1;
			uo.exclude_hv = 1;
			if (open_test(&uo) == 0) {
				au = uo;
				ev->user_only = true;
				ev->split = false;
				err = 0;
			}
		}
		if (err) {
			c->open_err = -err;
			return err;
		}
		if (ev->split && !ev->user_only) {
			err = open_test(&ak);
			if (err == -EACCES || err == -EPERM) {
				ev->user_only = true;
				ev->split = false;
			} else if (err) {
				c->open_err = -err;
				return err;
			}
		}
	}
	ev->attr = au;
	ev->attr_k = ak;
	free(ev->event);
	ev->event = pm_xstrdup(c->event);
	return 0;
}

static int resolve_one(struct pm_event *ev, const char *name,
		       const struct pm_aliases *aliases, bool do_open,
		       struct pm_err *e)
{
	const struct pm_alias *al = aliases ? pm_alias_find(aliases, name) : NULL;
	const struct pm_candidate *first_encoded = NULL;
	size_t i, n = al ? al->nevents : 1;
	struct pm_err pe;
	int err;

	ev->name = pm_xstrdup(name);
	ev->alias = al != NULL;
	ev->desc = pm_xstrdup(al ? al->desc : NULL);
	ev->cand = pm_xcalloc(n, sizeof(*ev->cand));
	ev->ncand = n;
	for (i = 0; i < n; i++)
		ev->cand[i].event = pm_xstrdup(al ? al->events[i] : name);
	/* The software events' short names work without alias files. */
	for (i = 0; !al && pm_software_events[i].name; i++) {
		if (!strcmp(name, pm_software_events[i].name)) {
			free(ev->cand[0].event);
			ev->cand[0].event = pm_xstrdup(pm_software_events[i].pfm);
			free(ev->desc);
			ev->desc = pm_xstrdup(pm_software_events[i].desc);
		}
	}
	for (i = 0; i < n; i++) {
		struct pm_candidate *c = &ev->cand[i];

		err = try_candidate(ev, c, do_open);
		if (err == 0) {
			ev->status = PM_CNT_OK;
			return 0;
		}
		if (!c->encode_err && !first_encoded)
			first_encoded = c;
	}
	ev->status = PM_CNT_NOT_SUPPORTED;
	ev->split = false;
	ev->user_only = false;
	if (first_encoded) {
		struct perf_event_attr a;

		/* The preferred event that libpfm4 knew decides the reason. */
		if (pm_encode(first_encoded->event, PFM_PLM3, &a, NULL, &pe))
			memset(&a, 0, sizeof(a));
		ev->reason = pm_open_reason(first_encoded->open_err, &a);
		ev->software = a.type == PERF_TYPE_SOFTWARE;
		return 0;
	}
	if (!al) {
		/* Neither an alias nor a string libpfm4 understands. */
		return pm_err_set(e, -EINVAL,
				  "unknown event '%s': not an alias (see 'pmbench events') and libpfm4 cannot encode it (%s)",
				  name, pfm_strerror(ev->cand[0].encode_err));
	}
	ev->reason = pm_xasprintf("libpfm4 knows none of its events on this CPU (PMU: %s)",
				  pm_pfm_core_pmu() ? pm_pfm_core_pmu() : "none detected");
	return 0;
}

int pm_events_resolve(struct pm_events *out, char *const *names,
		      const struct pm_aliases *aliases, bool open_test_flag,
		      struct pm_err *e)
{
	size_t i;
	int err;

	err = pm_pfm_init(e);
	if (err)
		return err;
	for (i = 0; names && names[i]; i++) {
		size_t j;
		bool dup = false;

		for (j = 0; j < out->n; j++)
			if (!strcmp(out->v[j].name, names[i]))
				dup = true;
		if (dup)
			continue;
		err = resolve_one(events_append(out), names[i], aliases,
				  open_test_flag, e);
		if (err) {
			event_free(&out->v[--out->n]);
			return err;
		}
	}
	return 0;
}

void pm_events_add_unavailable(struct pm_events *out, const char *name,
			       const char *reason)
{
	struct pm_event *ev = events_append(out);

	ev->name = pm_xstrdup(name);
	ev->status = PM_CNT_NOT_SUPPORTED;
	ev->reason = pm_xstrdup(reason);
}

const struct pm_sw_event pm_software_events[] = {
	{ "task-clock", "perf::task-clock", "CPU time of the counted processes (ns)" },
	{ "page-faults", "perf::page-faults", "page faults (minor and major)" },
	{ "context-switches", "perf::context-switches", "context switches" },
	{ "cpu-migrations", "perf::cpu-migrations", "migrations to another CPU" },
	{ NULL, NULL, NULL },
};

int pm_events_add_all_software(struct pm_events *out, struct pm_err *e)
{
	size_t i;
	int err;

	for (i = 0; pm_software_events[i].name; i++) {
		size_t j;
		bool have = false;

		for (j = 0; j < out->n; j++)
			if (!strcmp(out->v[j].name, pm_software_events[i].name))
				have = true;
		if (have)
			continue;
		err = pm_events_add_software(out, pm_software_events[i].name,
					     pm_software_events[i].pfm, e);
		if (err)
			return err;
		out->v[out->n - 1].desc = pm_xstrdup(pm_software_events[i].desc);
	}
	return 0;
}

int pm_events_add_software(struct pm_events *out, const char *name,
			   const char *pfm, struct pm_err *e)
{
	struct pm_event *ev = events_append(out);
	int err;

	ev->name = pm_xstrdup(name);
	ev->cand = pm_xcalloc(1, sizeof(*ev->cand));
	ev->ncand = 1;
	ev->cand[0].event = pm_xstrdup(pfm);
	err = try_candidate(ev, &ev->cand[0], true);
	if (err == 0 && ev->user_only) {
		/* exclude_kernel does not filter clocks, but it does drop
		 * events raised from kernel context: a switch count of 0
		 * would be a lie. */
		switch (ev->attr.config) {
		case PERF_COUNT_SW_TASK_CLOCK:
		case PERF_COUNT_SW_CPU_CLOCK:
			ev->user_only = false;
			break;
		case PERF_COUNT_SW_CONTEXT_SWITCHES:
		case PERF_COUNT_SW_CPU_MIGRATIONS:
			ev->status = PM_CNT_NOT_SUPPORTED;
			ev->software = true;
			ev->reason = pm_xasprintf("raised in the kernel, and perf_event_paranoid=%d allows user-space "
						  "counting only: run as root or with CAP_PERFMON, or "
						  "sysctl kernel.perf_event_paranoid=1", perf_paranoid());
			return 0;
		default:
			break;
		}
	}
	if (err == 0) {
		ev->status = PM_CNT_OK;
		return 0;
	}
	if (ev->cand[0].encode_err) {
		event_free(&out->v[--out->n]);
		return pm_err_set(e, -EINVAL, "libpfm4 cannot encode %s", pfm);
	}
	ev->status = PM_CNT_NOT_SUPPORTED;
	ev->software = true;
	ev->reason = pm_open_reason(ev->cand[0].open_err, &ev->attr);
	return 0;
}
