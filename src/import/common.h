/* Helpers the importers share (src/import only). */
#ifndef PM_IMPORT_COMMON_H
#define PM_IMPORT_COMMON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "import/import.h"

/* A copy of text in UTF-8; a byte not part of valid UTF-8 is read as
 * Latin-1.  Free it. */
char *pm_import_utf8_copy(const char *text);
/* Length of a line's "> > " quote marks. */
size_t pm_import_quote_len(const char *p, size_t len);
/* A plain decimal ("%g", "%.2f"): true when all of s is one. */
bool pm_import_plain_number(const char *s, double *out);
/* The fingerprint of an import: host, release and clock (NULL: null,
 * unavailable for why), and why the rest is missing. */
json_t *pm_import_sysinfo(const char *host, const char *release, json_t *mhz,
			  const char *why);
/* A benchmark of r with one trial, its figure. */
struct pm_bench_result *pm_import_add_bench(struct pm_result *r, double trial);

#endif
