/*
 * Fuzz targets (libFuzzer's entry point).  Built with clang and
 * -fsanitize=fuzzer by `make fuzz`, and with replay.c into plain programs
 * that `make check` runs over the seed and regression inputs.
 */
#ifndef PM_FUZZ_H
#define PM_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Where renderers write: /dev/null, opened once. */
FILE *pm_fuzz_sink(void);
/* The input as a NUL-terminated string (free it). */
char *pm_fuzz_text(const uint8_t *data, size_t size);

#endif
