/* Shared by the fuzz targets (fuzz.h). */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "util.h"

FILE *pm_fuzz_sink(void)
{
	static FILE *f;

	if (!f)
		f = fopen("/dev/null", "we");
	if (!f)
		abort();
	return f;
}

char *pm_fuzz_text(const uint8_t *data, size_t size)
{
	char *s = pm_xmalloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}
