/* A growing string (util/buf.h). */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util.h"

static void room(struct pm_buf *b, size_t more)
{
	size_t need = b->len + more + 1;

	if (need <= b->cap)
		return;
	b->cap = b->cap ? b->cap : 64;
	while (b->cap < need)
		b->cap *= 2;
	b->s = pm_xrealloc(b->s, b->cap);
}

void pm_buf_add(struct pm_buf *b, const char *text)
{
	size_t n = strlen(text);

	room(b, n);
	memcpy(b->s + b->len, text, n + 1);
	b->len += n;
}

void pm_buf_addf(struct pm_buf *b, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n <= 0) {
		room(b, 0);
		b->s[b->len] = '\0';
		return;
	}
	room(b, (size_t)n);
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void pm_buf_sep(struct pm_buf *b, const char *sep)
{
	if (b->len)
		pm_buf_add(b, sep);
}

char *pm_buf_detach(struct pm_buf *b)
{
	char *s = b->s ? b->s : pm_xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

const char *pm_buf_str(const struct pm_buf *b)
{
	return b->s ? b->s : "";
}

void pm_buf_free(struct pm_buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}
