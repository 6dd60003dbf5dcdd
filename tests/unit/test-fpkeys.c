/*
 * Unit tests for the fingerprint key table (src/sysinfo/keys.c): the
 * fingerprint collected on this machine uses only keys of the table,
 * with the table's types; the explain code reads only keys it compares;
 * and pmbench-result(5) lists exactly the table.
 */
#include "config.h"

#include <check.h>
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "explain/stages.h"
#include "sysinfo/sysinfo.h"

/* The key with every "*" (an array index) replaced by 0. */
static char *key_at_index0(const char *key)
{
	char *s = pm_xstrdup(key), *p;

	while ((p = strchr(s, '*')) != NULL)
		*p = '0';
	return s;
}

START_TEST(test_table_complete)
{
	static const char *const types[] = {
		"string", "integer", "number", "boolean", "object",
		"array of strings", "array of objects",
	};
	int k, j;

	for (k = 0; k < PM_FP_NKEYS; k++) {
		const struct pm_fp_key_info *i = pm_fp_key_info(k);
		bool type_ok = false;
		char *dotted;

		ck_assert_msg(i && i->key, "entry %d of the key table is missing", k);
		ck_assert_str_eq(i->key, pm_fp_key(k));
		ck_assert(!strncmp(i->id, "PM_FP_", 6));
		ck_assert(i->unit && i->section && *i->section);
		ck_assert_msg(i->description && *i->description, "%s: no description",
			      i->key);
		for (j = 0; j < (int)PM_ARRAY_SIZE(types); j++)
			type_ok = type_ok || !strcmp(i->type, types[j]);
		ck_assert_msg(type_ok, "%s: type '%s'", i->key, i->type);
		for (j = 0; j < k; j++)
			ck_assert_str_ne(pm_fp_key(j), i->key);
		dotted = key_at_index0(i->key);
		ck_assert_int_eq(pm_fp_key_lookup(dotted), k);
		free(dotted);
	}
	ck_assert_str_eq(pm_fp_key_leaf(PM_FP_KERNEL_PAGE_TABLE_LEVELS),
			 "page_table_levels");
	ck_assert_str_eq(pm_fp_key_leaf(PM_FP_HOSTNAME), "hostname");
	ck_assert_int_eq(pm_fp_key_lookup("cpu.caches.11.ways"), PM_FP_CPU_CACHE_WAYS);
	ck_assert_int_eq(pm_fp_key_lookup("cpu.caches.x.ways"), -ENOENT);
	ck_assert_int_eq(pm_fp_key_lookup("kernel.page_table_level"), -ENOENT);
	ck_assert_int_eq(pm_fp_key_lookup("kernel"), -ENOENT);
	ck_assert_int_eq(pm_fp_key_lookup(NULL), -ENOENT);
}
END_TEST

static bool type_matches(const char *type, const json_t *v)
{
	if (json_is_null(v))
		return true;	/* unavailable, with a reason */
	if (!strcmp(type, "string"))
		return json_is_string(v);
	if (!strcmp(type, "integer"))
		return json_is_integer(v);
	if (!strcmp(type, "number"))
		return json_is_number(v);
	if (!strcmp(type, "boolean"))
		return json_is_boolean(v);
	if (!strcmp(type, "object"))
		return json_is_object(v);
	return json_is_array(v);
}

/*
 * Every item under path must be a key of the table, of its type: descend
 * into groups (kernel, cpu...) and arrays of objects; stop at items.
 */
static size_t check_written(const json_t *v, const char *path)
{
	int k = *path ? pm_fp_key_lookup(path) : -ENOENT;
	const char *member;
	const json_t *m;
	size_t n = 0, i;
	char *sub;

	if (k >= 0) {
		const struct pm_fp_key_info *info = pm_fp_key_info(k);

		ck_assert_msg(type_matches(info->type, v), "%s is not of type %s",
			      path, info->type);
		if (strcmp(info->type, "array of objects"))
			return 1;
		for (i = 0; i < json_array_size(v); i++) {
			sub = pm_xasprintf("%s.%zu", path, i);
			n += check_written(json_array_get(v, i), sub);
			free(sub);
		}
		return n + 1;
	}
	ck_assert_msg(json_is_object(v), "sysinfo writes %s, which is not in the "
		      "key table (src/sysinfo/keys.c)", path);
	json_object_foreach((json_t *)v, member, m) {
		sub = *path ? pm_xasprintf("%s.%s", path, member) : pm_xstrdup(member);
		n += check_written(m, sub);
		free(sub);
	}
	return n;
}

START_TEST(test_collected_keys_in_table)
{
	json_t *si = pm_sysinfo_collect();
	const json_t *why = pm_sysinfo_at(si, PM_FP_UNAVAILABLE);
	const char *key;
	const json_t *v;
	size_t n = check_written(si, "");

	/* the scalar items and the caches of CPU 0, at the least */
	ck_assert_uint_ge(n, 50);
	ck_assert(json_is_object(why));
	json_object_foreach((json_t *)why, key, v)
		ck_assert_msg(pm_fp_key_lookup(key) >= 0, "unavailable names %s, "
			      "which is not in the key table", key);
	json_decref(si);
}
END_TEST

/* And the converse: no key of the table that sysinfo forgets to write. */
START_TEST(test_table_keys_collected)
{
	json_t *si = pm_sysinfo_collect();
	bool caches = json_array_size(pm_sysinfo_at(si, PM_FP_CPU_CACHES)) > 0;
	const char *model = json_string_value(pm_sysinfo_at(si, PM_FP_KERNEL_PREEMPTION));
	int k;

	for (k = 0; k < PM_FP_NKEYS; k++) {
		char *dotted = key_at_index0(pm_fp_key(k));

		if (strchr(pm_fp_key(k), '*') && !caches) {
			free(dotted);
			continue;
		}
		/* only a kernel with dynamic preemption has a mode */
		if (k == PM_FP_KERNEL_PREEMPTION_DYNAMIC &&
		    (!model || strcmp(model, "dynamic"))) {
			free(dotted);
			continue;
		}
		ck_assert_msg(pm_sysinfo_get(si, dotted), "sysinfo does not write %s",
			      dotted);
		free(dotted);
	}
	json_decref(si);
}
END_TEST

/* The name of the function whose argument list pos is in, or "". */
static void enclosing_call(const char *text, const char *pos, char *out, size_t len)
{
	const char *p = pos, *e;
	int depth = 0;

	*out = '\0';
	for (; p > text && pos - p < 400; p--) {
		if (*p == ')')
			depth++;
		else if (*p == '(' && depth-- == 0)
			break;
		else if (*p == ';' || *p == '{' || *p == '}')
			return;
	}
	if (*p != '(')
		return;
	e = p;
	while (p > text && (isalnum((unsigned char)p[-1]) || p[-1] == '_'))
		p--;
	snprintf(out, len, "%.*s", (int)(e - p), p);
}

/* Where a key names a difference: the lookups of pm_fp_diff, the key
 * compared with a difference's, and lists of keys (initialisers). */
static bool reads_difference(const char *call)
{
	static const char *const calls[] = {
		"pm_fp_find", "pm_fp_find_member", "pm_fp_diff_member", "pm_fp_key", "",
	};
	size_t i;

	for (i = 0; i < PM_ARRAY_SIZE(calls); i++)
		if (!strcmp(call, calls[i]))
			return true;
	return false;
}

/*
 * Every key the explain code takes a difference of must be one the
 * fingerprint diff compares, or the rule reading it could never fire.
 * Reads of the fingerprint itself (pm_sysinfo_at) need only a key.
 */
START_TEST(test_rules_read_compared_keys)
{
	static const char *const files[] = {
		"src/explain/rules.c", "src/explain/compare.c", "src/explain/report.c",
	};
	size_t f, diffs = 0;

	for (f = 0; f < PM_ARRAY_SIZE(files); f++) {
		char *path = pm_xasprintf("%s/%s", PM_ABS_SRCDIR, files[f]), *text;
		const char *p;

		ck_assert_int_eq(pm_read_file(path, &text, NULL), 0);
		for (p = text; (p = strstr(p, "PM_FP_")) != NULL; p++) {
			size_t n = strspn(p, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_");
			char call[64];
			int k, found = -1;

			for (k = 0; k < PM_FP_NKEYS; k++)
				if (strlen(pm_fp_key_info(k)->id) == n &&
				    !strncmp(pm_fp_key_info(k)->id, p, n))
					found = k;
			if (found < 0)
				continue;	/* PM_FP_KEYS_TEXT and such */
			enclosing_call(text, p, call, sizeof(call));
			if (!reads_difference(call))
				continue;
			diffs++;
			ck_assert_msg(pm_fp_compared(found), "%s reads the difference in "
				      "%s, which pm_fingerprint_diff does not compare",
				      files[f], pm_fp_key(found));
		}
		free(text);
		free(path);
	}
	/* the scan found the rules' keys: cpu, mitigations, thp, ... */
	ck_assert_uint_ge(diffs, 25);
}
END_TEST

/* The list between the markers in pmbench-result(5). */
static char *man_block(void)
{
	static const char begin[] = ".\\\" BEGIN fingerprint keys";
	static const char end[] = ".\\\" END fingerprint keys";
	char *text, *b, *e, *block;

	ck_assert_int_eq(pm_read_file(PM_ABS_SRCDIR "/man/pmbench-result.5", &text,
				      NULL), 0);
	b = strstr(text, begin);
	ck_assert_msg(b, "pmbench-result.5 has no BEGIN fingerprint keys marker");
	b = strchr(b, '\n') + 1;
	e = strstr(b, end);
	ck_assert_msg(e, "pmbench-result.5 has no END fingerprint keys marker");
	block = pm_xasprintf("%.*s", (int)(e - b), b);
	free(text);
	return block;
}

START_TEST(test_man_page_lists_the_table)
{
	char *gen = NULL, *man = man_block();
	size_t len = 0;
	FILE *f = open_memstream(&gen, &len);
	int k;

	pm_fp_keys_print(f, PM_FP_KEYS_MAN);
	fclose(f);
	ck_assert_msg(!strcmp(gen, man), "man/pmbench-result.5 lists other keys "
		      "than the table: run make update-man-keys");
	/* and the list is the table: one .B line per key */
	for (k = 0; k < PM_FP_NKEYS; k++) {
		char *line = pm_xasprintf("\n.B %s\n", pm_fp_key(k));

		ck_assert_msg(strstr(man, line), "%s missing", pm_fp_key(k));
		free(line);
	}
	free(gen);
	free(man);
}
END_TEST

static Suite *fpkeys_suite(void)
{
	Suite *s = suite_create("fpkeys");
	TCase *tc = tcase_create("table");

	tcase_add_test(tc, test_table_complete);
	tcase_add_test(tc, test_rules_read_compared_keys);
	tcase_add_test(tc, test_man_page_lists_the_table);
	suite_add_tcase(s, tc);

	tc = tcase_create("collect");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_collected_keys_in_table);
	tcase_add_test(tc, test_table_keys_collected);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(fpkeys_suite());
	int failures;

	srunner_run_all(sr, CK_NORMAL);
	failures = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failures ? 1 : 0;
}
