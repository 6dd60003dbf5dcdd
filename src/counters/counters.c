/*
 * Counting: every supported event opened (disabled) on every process of
 * a benchmark, enabled around the loop only, read as groups with
 * time_enabled/time_running so multiplexed counts can be scaled.
 *
 * Groups: one per process for the software events (they never
 * multiplex), and one per process and hardware event holding its user
 * and kernel halves, so the split is always measured over the same time.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "counters/counters.h"

#define PM_READ_FORMAT (PERF_FORMAT_GROUP | PERF_FORMAT_ID | \
			PERF_FORMAT_TOTAL_TIME_ENABLED | \
			PERF_FORMAT_TOTAL_TIME_RUNNING)

/* One open counter: which event and which half it counts. */
struct pm_fd {
	int fd;
	uint64_t id;
	size_t event;		/* index into the event list */
	int half;		/* 0 total/user, 1 kernel */
	uint64_t value, prev;
};

struct pm_group {
	int leader;		/* fd */
	size_t *idx;		/* members: indices into c->fds */
	size_t n;
	uint64_t enabled, running, prev_enabled, prev_running;
};

struct pm_counters {
	const struct pm_events *ev;
	struct pm_fd *fds;
	size_t nfds;
	struct pm_group *groups;
	size_t ngroups;
};

static size_t group_new(struct pm_counters *c)
{
	struct pm_group *g;

	c->groups = pm_xgrow(c->groups, c->ngroups, sizeof(*g));
	g = &c->groups[c->ngroups];
	memset(g, 0, sizeof(*g));
	g->leader = -1;
	return c->ngroups++;
}

static int group_add(struct pm_counters *c, size_t gi,
		     const struct perf_event_attr *tmpl, size_t event,
		     int half, pid_t pid, bool inherit, struct pm_err *e)
{
	struct perf_event_attr a = *tmpl;
	struct pm_group *g = &c->groups[gi];
	struct pm_fd *f;
	int fd;

	a.size = sizeof(a);
	a.read_format = PM_READ_FORMAT;
	a.disabled = g->leader < 0;	/* members follow the leader */
	a.inherit = inherit;
	fd = pm_perf_event_open(&a, pid, -1, g->leader, 0);
	if (fd < 0)
		return pm_err_set(e, fd, "cannot open counter %s for pid %d: %s",
				  c->ev->v[event].name, (int)pid, strerror(-fd));
	c->fds = pm_xgrow(c->fds, c->nfds, sizeof(*c->fds));
	f = &c->fds[c->nfds];
	memset(f, 0, sizeof(*f));
	f->fd = fd;
	f->event = event;
	f->half = half;
	if (ioctl(fd, PERF_EVENT_IOC_ID, &f->id) != 0) {
		close(fd);
		return pm_err_set(e, -errno, "PERF_EVENT_IOC_ID: %s", strerror(errno));
	}
	g->idx = pm_xgrow(g->idx, g->n, sizeof(*g->idx));
	g->idx[g->n++] = c->nfds++;
	if (g->leader < 0)
		g->leader = fd;
	return 0;
}

int pm_counters_open(struct pm_counters **out, const struct pm_events *ev,
		     const pid_t *pids, int npids, bool inherit,
		     struct pm_err *e)
{
	struct pm_counters *c = pm_xcalloc(1, sizeof(*c));
	int p, err = 0;
	size_t i;

	c->ev = ev;
	for (p = 0; p < npids && !err; p++) {
		size_t sw = SIZE_MAX, g;

		for (i = 0; i < ev->n && !err; i++) {
			const struct pm_event *x = &ev->v[i];

			if (x->status != PM_CNT_OK)
				continue;
			if (x->software) {
				if (sw == SIZE_MAX)
					sw = group_new(c);
				g = sw;
			} else {
				g = group_new(c);
			}
			err = group_add(c, g, &x->attr, i, 0, pids[p], inherit, e);
			if (!err && x->split)
				err = group_add(c, g, &x->attr_k, i, 1, pids[p],
						inherit, e);
		}
	}
	if (err) {
		pm_counters_close(c);
		return err;
	}
	*out = c;
	return 0;
}

static int groups_ioctl(struct pm_counters *c, unsigned long req)
{
	size_t i;

	for (i = 0; i < c->ngroups; i++)
		if (ioctl(c->groups[i].leader, req, PERF_IOC_FLAG_GROUP) != 0)
			return -errno;
	return 0;
}

int pm_counters_enable(struct pm_counters *c)
{
	return groups_ioctl(c, PERF_EVENT_IOC_ENABLE);
}

int pm_counters_disable(struct pm_counters *c)
{
	return groups_ioctl(c, PERF_EVENT_IOC_DISABLE);
}

static int group_read(struct pm_counters *c, struct pm_group *g)
{
	uint64_t buf[3 + 2 * 64];
	ssize_t n;
	size_t i, j;

	if (g->n > 64)
		return -E2BIG;
	n = read(g->leader, buf, sizeof(buf));
	if (n < 0)
		return -errno;
	if ((size_t)n < 3 * sizeof(uint64_t) || buf[0] != g->n)
		return -EIO;
	g->enabled = buf[1];
	g->running = buf[2];
	for (i = 0; i < buf[0]; i++) {
		uint64_t value = buf[3 + 2 * i], id = buf[4 + 2 * i];

		for (j = 0; j < g->n; j++) {
			struct pm_fd *f = &c->fds[g->idx[j]];

			if (f->id == id)
				f->value = value;
		}
	}
	return 0;
}

static int read_all(struct pm_counters *c)
{
	size_t i;
	int err;

	for (i = 0; i < c->ngroups; i++) {
		err = group_read(c, &c->groups[i]);
		if (err)
			return err;
	}
	return 0;
}

int pm_counters_snapshot(struct pm_counters *c)
{
	size_t i;
	int err = read_all(c);

	if (err)
		return err;
	for (i = 0; i < c->nfds; i++)
		c->fds[i].prev = c->fds[i].value;
	for (i = 0; i < c->ngroups; i++) {
		c->groups[i].prev_enabled = c->groups[i].enabled;
		c->groups[i].prev_running = c->groups[i].running;
	}
	return 0;
}

int pm_counters_delta(struct pm_counters *c, struct pm_count *out)
{
	size_t i, j;
	int err;

	for (i = 0; i < c->ev->n; i++) {
		bool split = c->ev->v[i].split;

		out[i] = (struct pm_count){
			.total = 0, .user = split ? 0 : NAN,
			.kernel = split ? 0 : NAN, .running = 2 /* unset */,
		};
	}
	err = read_all(c);
	if (err)
		return err;
	for (i = 0; i < c->ngroups; i++) {
		struct pm_group *g = &c->groups[i];
		uint64_t en = g->enabled - g->prev_enabled;
		uint64_t run = g->running - g->prev_running;
		double scale = 0, frac = en ? (double)run / (double)en : 0;

		/* Multiplexed: extrapolate to the whole enabled time. */
		if (run)
			scale = (double)en / (double)run;
		for (j = 0; j < g->n; j++) {
			struct pm_fd *f = &c->fds[g->idx[j]];
			struct pm_count *o = &out[f->event];
			double v = (double)(f->value - f->prev) * scale;

			o->total += v;
			if (c->ev->v[f->event].split) {
				if (f->half)
					o->kernel += v;
				else
					o->user += v;
			}
			/* Several processes: report the least-counted one. */
			if (f->half == 0) {
				if (frac < o->running)
					o->running = frac;
				if (en > o->enabled_ns)
					o->enabled_ns = en;
				o->counted = o->counted || run > 0;
			}
		}
	}
	for (i = 0; i < c->ev->n; i++)
		if (out[i].running > 1)
			out[i].running = 0;
	for (i = 0; i < c->nfds; i++)
		c->fds[i].prev = c->fds[i].value;
	for (i = 0; i < c->ngroups; i++) {
		c->groups[i].prev_enabled = c->groups[i].enabled;
		c->groups[i].prev_running = c->groups[i].running;
	}
	return 0;
}

void pm_counters_close(struct pm_counters *c)
{
	size_t i;

	if (!c)
		return;
	for (i = 0; i < c->nfds; i++)
		close(c->fds[i].fd);
	for (i = 0; i < c->ngroups; i++)
		free(c->groups[i].idx);
	free(c->groups);
	free(c->fds);
	free(c);
}
