/* Strings: trimming, lists, shell quoting, decimal numbers (src/util/str.c) */
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
/* A counted list of strings: is s in v[0..n)?  Append a copy of s. */
bool pm_strv_has(char *const *v, size_t n, const char *s);
void pm_strv_push(char ***v, size_t *n, const char *s);

/* One argument of a kernel command line: name=value, or a bare name
 * (value NULL).  Double quotes group blanks as the kernel does. */
struct pm_kparam {
	char *name, *value;
};
/* The arguments of a command line, a repeated one once (its last value,
 * as the kernel takes it), in order. */
size_t pm_kparams_parse(const char *cmdline, struct pm_kparam **out);
const struct pm_kparam *pm_kparams_find(const struct pm_kparam *v, size_t n,
					const char *name);
/* "name=value" or "name" (allocated). */
char *pm_kparam_text(const struct pm_kparam *p);
void pm_kparams_free(struct pm_kparam *v, size_t n);

/* A string as one /bin/sh word: as is when it needs no quoting. */
char *pm_sh_quote(const char *s);

/*
 * Decimal numbers, as options are documented: a whole number is digits
 * only ("0x10", "+1", " 1", "-1", "" are -EINVAL); a real is
 * [-]digits[.digits][e[+|-]digits] (no hex, inf or nan).  -ERANGE when
 * it overflows or lies outside [lo, hi].
 */
int pm_parse_ulong(const char *s, unsigned long lo, unsigned long hi,
		   unsigned long *out);
int pm_parse_double(const char *s, double lo, double hi, double *out);

#endif
