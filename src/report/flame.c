/*
 * Flame graphs drawn as SVG, after Brendan Gregg's: a frame per call
 * path, as wide as the time spent in it and what it called, its callers
 * below it.  Frames are sorted by name at each level so that two sides
 * have the same shape where their paths agree.
 */
#include "config.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "report/report.h"
#include "util/table.h"

#define FRAME_H 16		/* height of a frame */
#define WIDTH 1200.0		/* the SVG's coordinate width */
#define CHAR_W 6.6		/* about one character at font-size 11 */
#define MAX_DEPTH 128		/* frames of a stack kept (perf's default is 127);
				   what is deeper counts for the last one kept */
#define TITLE_CHARS 300		/* of a frame's name in its tooltip */

struct node {
	char *name;
	size_t len;		/* of name */
	double v[2];		/* inclusive weight on each side */
	struct node *kids;
	size_t nkids, cap;
};

struct pm_flame {
	struct node root;
};

struct pm_flame *pm_flame_new(void)
{
	struct pm_flame *fl = pm_xcalloc(1, sizeof(*fl));

	fl->root.name = pm_xstrdup("all");
	fl->root.len = 3;
	return fl;
}

static void node_free(struct node *n)
{
	size_t i;

	for (i = 0; i < n->nkids; i++)
		node_free(&n->kids[i]);
	free(n->kids);
	free(n->name);
}

void pm_flame_free(struct pm_flame *fl)
{
	if (!fl)
		return;
	node_free(&fl->root);
	free(fl);
}

static bool named(const struct node *n, const char *name, size_t len)
{
	return n->len == len && !memcmp(n->name, name, len);
}

static struct node *child(struct node *n, const char *name, size_t len)
{
	size_t i;

	/* stacks come sorted, most often under the last child added */
	if (n->nkids && named(&n->kids[n->nkids - 1], name, len))
		return &n->kids[n->nkids - 1];
	for (i = 0; i < n->nkids; i++)
		if (named(&n->kids[i], name, len))
			return &n->kids[i];
	if (n->nkids == n->cap) {
		n->cap = n->cap ? 2 * n->cap : 4;
		n->kids = pm_xrealloc(n->kids, n->cap * sizeof(*n->kids));
	}
	memset(&n->kids[n->nkids], 0, sizeof(*n->kids));
	n->kids[n->nkids].name = pm_xmalloc(len + 1);
	memcpy(n->kids[n->nkids].name, name, len);
	n->kids[n->nkids].name[len] = '\0';
	n->kids[n->nkids].len = len;
	return &n->kids[n->nkids++];
}

void pm_flame_add(struct pm_flame *fl, int side, const char *stack, double v)
{
	struct node *n = &fl->root;
	const char *p = stack;
	size_t level = 0;

	/* the root weighs most: finite there, finite everywhere */
	if (side < 0 || side > 1 || !(v > 0) || !isfinite(n->v[side] + v))
		return;
	n->v[side] += v;
	while (*p && level++ < MAX_DEPTH) {
		size_t len = strcspn(p, ";");

		n = child(n, p, len);
		n->v[side] += v;
		p += len;
		if (*p == ';')
			p++;
	}
}

double pm_flame_total(const struct pm_flame *fl, int side)
{
	return fl->root.v[side];
}

static int by_name(const void *a, const void *b)
{
	return strcmp(((const struct node *)a)->name, ((const struct node *)b)->name);
}

static void sort_tree(struct node *n)
{
	size_t i;

	if (n->nkids)	/* kids is NULL for a leaf */
		pm_sort(n->kids, n->nkids, sizeof(*n->kids), by_name);
	for (i = 0; i < n->nkids; i++)
		sort_tree(&n->kids[i]);
}

static size_t depth(const struct node *n, int side, double min)
{
	size_t i, d = 0;

	for (i = 0; i < n->nkids; i++)
		if (n->kids[i].v[side] >= min) {
			size_t k = depth(&n->kids[i], side, min);

			if (k > d)
				d = k;
		}
	return d + 1;
}

/* A warm colour class for a frame, stable for a name. */
static unsigned colour_of(const char *name)
{
	unsigned h = 5381;

	for (; *name; name++)
		h = h * 33 + (unsigned char)*name;
	return h % 8;
}

struct draw {
	FILE *f;
	int side;
	enum pm_flame_kind kind;
	double total, min, max_delta;
	size_t height;		/* in frames */
};

static void fmt_ns(char *buf, size_t len, double ns)
{
	pm_fmt_time(buf, len, ns);
}

static void draw_node(const struct draw *d, const struct node *n, double x,
		      size_t level)
{
	double w = n->v[d->side] / d->total * WIDTH, y, cx = x;
	char a[32], b[32];
	size_t i, chars;

	y = (double)(d->height - 1 - level) * FRAME_H;
	/* a frame: its box with the figures as a tooltip, and its name when
	 * it fits (the text lets the pointer through to the box) */
	fprintf(d->f, "<rect x=\"%.1f\" y=\"%.0f\" width=\"%.1f\" height=\"%d\"", x, y, w,
		FRAME_H - 1);
	if (d->kind == PM_FLAME_DIFF_GREY) {
		/* no decided change: the shape only, the figures in the tooltip */
		fputs(level ? " class=\"g\"" : " class=\"c8\"", d->f);
	} else if (d->kind == PM_FLAME_DIFF) {
		double delta = n->v[1] - n->v[0];
		double k = d->max_delta > 0 ? fabs(delta) / d->max_delta : 0;
		int c = (int)lround(235 - 175 * (k > 1 ? 1 : k));

		/* grown red, shrunk blue, unchanged pale; the base is grey */
		if (!level)
			fputs(" class=\"c8\"", d->f);
		else if (fabs(delta) < 1e-9 * d->total)
			fputs(" fill=\"#e8e8e8\"", d->f);
		else if (delta > 0)
			fprintf(d->f, " fill=\"#ff%02x%02x\" data-d=\"%.3g\"", c, c, delta);
		else
			fprintf(d->f, " fill=\"#%02x%02xff\" data-d=\"%.3g\"", c, c, delta);
	} else {
		fprintf(d->f, " class=\"c%u\"", level ? colour_of(n->name) : 8);
	}
	fprintf(d->f, " data-n=\"%.4g\"><title>", n->v[d->side]);
	pm_html_escape_max(d->f, n->name, TITLE_CHARS);
	fmt_ns(a, sizeof(a), n->v[d->side]);
	if (d->kind != PM_FLAME_SIDE) {
		fmt_ns(b, sizeof(b), n->v[0]);
		fprintf(d->f, ": %s -> %s/op", b, a);
	} else {
		fprintf(d->f, ": %s/op, %.1f%%", a, 100 * n->v[d->side] / d->total);
	}
	fputs("</title></rect>", d->f);
	chars = w > 3 * CHAR_W ? (size_t)((w - 4) / CHAR_W) : 0;
	if (chars >= 3) {
		/* the name, cut to the frame's width */
		fprintf(d->f, "<text x=\"%.1f\" y=\"%.0f\">", x + 3, y + FRAME_H - 4);
		pm_html_escape_max(d->f, n->name, chars);
		fputs("</text>", d->f);
	}
	fputc('\n', d->f);
	for (i = 0; i < n->nkids; i++) {
		const struct node *k = &n->kids[i];

		if (k->v[d->side] >= d->min)
			draw_node(d, k, cx, level + 1);
		cx += k->v[d->side] / d->total * WIDTH;
	}
}

static double max_delta(const struct node *n, int side, double min)
{
	double m = fabs(n->v[1] - n->v[0]);
	size_t i;

	for (i = 0; i < n->nkids; i++)
		if (n->kids[i].v[side] >= min) {
			double k = max_delta(&n->kids[i], side, min);

			if (k > m)
				m = k;
		}
	return m;
}

void pm_flame_svg(const struct pm_flame *fl, FILE *f, int side, enum pm_flame_kind kind,
		  double min_share, const char *label)
{
	struct draw d = { .f = f, .side = kind == PM_FLAME_SIDE ? side : 1, .kind = kind };
	const struct node *root = &fl->root;

	d.total = root->v[d.side];
	if (!(d.total > 0))
		return;
	sort_tree((struct node *)root);
	d.min = min_share * d.total;
	d.height = depth(root, d.side, d.min);
	/* the root ("all") has no change worth a colour: scale to its children */
	d.max_delta = 0;
	for (size_t i = 0; i < root->nkids; i++)
		if (root->kids[i].v[d.side] >= d.min) {
			double m = max_delta(&root->kids[i], d.side, d.min);

			if (m > d.max_delta)
				d.max_delta = m;
		}
	fprintf(f, "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"flame%s\" viewBox=\"0 0 %.0f %zu\" "
		"data-total=\"%.4g\" role=\"img\"><title>",
		kind == PM_FLAME_DIFF ? " diff" : kind == PM_FLAME_DIFF_GREY ? " diff grey" : "",
		WIDTH, d.height * FRAME_H, d.total);
	pm_html_escape(f, label);
	fputs("</title>\n", f);
	draw_node(&d, root, 0, 0);
	fputs("</svg>\n", f);
}

struct shrunk {
	const struct node *n;
	size_t seq;		/* found in this order: the last tie-break */
};

/* Frames that lost at least min; a frame whose loss is mostly one
 * callee's is left to that callee, which says more. */
static void collect_shrunk(const struct node *n, struct shrunk **v, size_t *nv, double min)
{
	size_t i, j;

	for (i = 0; i < n->nkids; i++) {
		const struct node *k = &n->kids[i];
		double loss = k->v[0] - k->v[1];
		bool deeper = false;

		for (j = 0; j < k->nkids; j++)
			deeper = deeper || k->kids[j].v[0] - k->kids[j].v[1] >= 0.8 * loss;
		if (loss >= min && !deeper) {
			*v = pm_xgrow(*v, *nv, sizeof(**v));
			(*v)[*nv].n = k;
			(*v)[*nv].seq = *nv;
			(*nv)++;
		}
		if (k->v[0] >= min)
			collect_shrunk(k, v, nv, min);
	}
}

static int by_loss(const void *a, const void *b)
{
	const struct shrunk *x = a, *y = b;
	double dx = x->n->v[0] - x->n->v[1], dy = y->n->v[0] - y->n->v[1];
	int c;

	if (dx != dy)
		return dx < dy ? 1 : -1;
	c = strcmp(x->n->name, y->n->name);
	return c ? c : x->seq < y->seq ? -1 : 1;
}

size_t pm_flame_shrunk(const struct pm_flame *fl, FILE *f, size_t max)
{
	struct shrunk *v = NULL;
	size_t nv = 0, i;
	char a[32], b[32];

	collect_shrunk(&fl->root, &v, &nv, 0.01 * fl->root.v[0]);
	pm_sort(v, nv, sizeof(*v), by_loss);
	for (i = 0; i < nv && i < max; i++) {
		fmt_ns(a, sizeof(a), v[i].n->v[0]);
		fmt_ns(b, sizeof(b), v[i].n->v[1]);
		fputs("<li><code>", f);
		pm_html_escape_max(f, v[i].n->name, TITLE_CHARS);
		fprintf(f, "</code>: %s &rarr; %s per op</li>\n", a, b);
	}
	free(v);
	return i;
}
