/*
 * What differs between ab's two sides: each kernel argument added,
 * removed or changed on B, and the image.  ab controls these and
 * nothing else, so its run is an experiment on them (pmbench-ab(1)).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ab/ab.h"

/* Same bytes (a rebuilt image at the same path is another image). */
static bool same_file(const char *a, const char *b)
{
	char x[65536], y[65536];
	struct stat sa, sb;
	bool same;
	int fa, fb;

	if (!strcmp(a, b))
		return true;
	if (stat(a, &sa) || stat(b, &sb) || sa.st_size != sb.st_size)
		return false;
	if (sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino)
		return true;
	fa = open(a, O_RDONLY | O_CLOEXEC);
	fb = open(b, O_RDONLY | O_CLOEXEC);
	same = fa >= 0 && fb >= 0;
	while (same) {
		ssize_t n = read(fa, x, sizeof(x)), m = n > 0 ? read(fb, y, (size_t)n) : 0;

		if (n <= 0) {
			same = n == 0;
			break;
		}
		same = m == n && !memcmp(x, y, (size_t)n);
	}
	if (fa >= 0)
		close(fa);
	if (fb >= 0)
		close(fb);
	return same;
}

static void add(struct pm_ab_diff **v, size_t *n, enum pm_ab_diff_kind kind,
		const char *param, char *a, char *b, char *text)
{
	*v = pm_xgrow(*v, *n, sizeof(**v));
	(*v)[(*n)++] = (struct pm_ab_diff){ kind, param ? pm_xstrdup(param) : NULL, a, b,
					    text };
}

size_t pm_ab_differences(const char *kernel_a, const char *kernel_b, const char *append_a,
			 const char *append_b, struct pm_ab_diff **out)
{
	struct pm_kparam *a = NULL, *b = NULL;
	size_t na = pm_kparams_parse(append_a, &a), nb = pm_kparams_parse(append_b, &b);
	struct pm_ab_diff *v = NULL;
	size_t n = 0, i;

	if (!same_file(kernel_a, kernel_b))
		add(&v, &n, PM_AB_DIFF_IMAGE, NULL, pm_xstrdup(kernel_a), pm_xstrdup(kernel_b),
		    pm_xasprintf("the kernel image %s of B (A: %s)", kernel_b, kernel_a));
	for (i = 0; i < nb; i++) {
		const struct pm_kparam *p = &b[i], *q = pm_kparams_find(a, na, p->name);
		char *tb = pm_kparam_text(p), *ta = q ? pm_kparam_text(q) : NULL;

		if (!q)
			add(&v, &n, PM_AB_DIFF_ADDED, p->name, NULL, tb,
			    pm_xasprintf("the kernel argument %s of B", tb));
		else if (strcmp(ta, tb))
			add(&v, &n, PM_AB_DIFF_CHANGED, p->name, ta, tb,
			    pm_xasprintf("the kernel argument %s of B (A: %s)", tb, ta));
		else {
			free(ta);
			free(tb);
		}
	}
	for (i = 0; i < na; i++)
		if (!pm_kparams_find(b, nb, a[i].name)) {
			char *ta = pm_kparam_text(&a[i]);

			add(&v, &n, PM_AB_DIFF_REMOVED, a[i].name, ta, NULL,
			    pm_xasprintf("the kernel argument %s of A, not in B", ta));
		}
	pm_kparams_free(a, na);
	pm_kparams_free(b, nb);
	*out = v;
	return n;
}

static bool same_text(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

size_t pm_ab_local_differences(const char *setup_a, const char *setup_b, const char *wrap_a,
			       const char *wrap_b, struct pm_ab_diff **out)
{
	struct pm_ab_diff *v = NULL;
	size_t n = 0;

	if (!same_text(setup_a, setup_b))
		add(&v, &n, PM_AB_DIFF_SETUP, NULL, setup_a ? pm_xstrdup(setup_a) : NULL,
		    setup_b ? pm_xstrdup(setup_b) : NULL,
		    setup_b ? pm_xasprintf("the set-up command of B (%s)", setup_b) :
			      pm_xasprintf("the set-up command of A (%s), not run for B", setup_a));
	if (!same_text(wrap_a, wrap_b))
		add(&v, &n, PM_AB_DIFF_WRAP, NULL, wrap_a ? pm_xstrdup(wrap_a) : NULL,
		    wrap_b ? pm_xstrdup(wrap_b) : NULL,
		    wrap_b ? pm_xasprintf("the wrapper of B (%s)", wrap_b) :
			     pm_xasprintf("the wrapper of A (%s), not used for B", wrap_a));
	*out = v;
	return n;
}

/*
 * B's command line with difference d taken back: an added argument
 * dropped, a removed one put back, a changed one given A's value.  The
 * image is taken back by booting A's image with this (B's) command line.
 */
char *pm_ab_revert_append(const char *append_b, const struct pm_ab_diff *d)
{
	struct pm_kparam *b = NULL;
	size_t nb = pm_kparams_parse(append_b, &b), i;
	struct pm_buf out = PM_BUF_INIT;

	for (i = 0; i < nb; i++) {
		char *w;

		if (d->param && !strcmp(b[i].name, d->param)) {
			if (d->kind != PM_AB_DIFF_CHANGED)
				continue;
			w = pm_xstrdup(d->a);
		} else {
			w = pm_kparam_text(&b[i]);
		}
		pm_buf_sep(&out, " ");
		pm_buf_add(&out, w);
		free(w);
	}
	if (d->kind == PM_AB_DIFF_REMOVED) {
		pm_buf_sep(&out, " ");
		pm_buf_add(&out, d->a);
	}
	pm_kparams_free(b, nb);
	return pm_buf_detach(&out);
}

const char *pm_ab_diff_kind_name(enum pm_ab_diff_kind k)
{
	static const char *const names[] = { "image", "added", "removed", "changed", "setup",
					     "wrap" };

	return names[k];
}

void pm_ab_diffs_free(struct pm_ab_diff *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].param);
		free(v[i].a);
		free(v[i].b);
		free(v[i].text);
	}
	free(v);
}
