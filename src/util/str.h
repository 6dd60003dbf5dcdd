/* Strings: trimming, lists, shell quoting (src/util/str.c) */
#ifndef PM_UTIL_STR_H
#define PM_UTIL_STR_H

#include <stdbool.h>
#include <stddef.h>

/* Trim white space in place, return s. */
char *pm_strtrim(char *s);

/* "a,b,c" has no empty element ("", "a,,b", "a," are not lists). */
bool pm_list_valid(const char *s, char sep);
/* Split "a,b,c" into a NULL-terminated vector (free with pm_strv_free). */
char **pm_strv_split(const char *s, char sep);
void pm_strv_free(char **v);
size_t pm_strv_len(char *const *v);

/* A string as one /bin/sh word: as is when it needs no quoting. */
char *pm_sh_quote(const char *s);

#endif
