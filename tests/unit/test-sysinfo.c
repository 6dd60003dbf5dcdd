/* Unit tests for the system fingerprint (src/sysinfo/). */
#include "config.h"

#include <check.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "sysinfo/sysinfo.h"

/* ---- kernel config ---- */

static const char config_text[] =
	"#\n"
	"# Automatically generated file; DO NOT EDIT.\n"
	"# Linux/x86 6.1.0 Kernel Configuration\n"
	"#\n"
	"CONFIG_CC_VERSION_TEXT=\"gcc-12 (Debian 12.2.0-14) 12.2.0\"\n"
	"CONFIG_64BIT=y\n"
	"CONFIG_EXT4_FS=m\n"
	"CONFIG_HZ_250=y\n"
	"CONFIG_HZ=250\n"
	"CONFIG_LOCALVERSION=\"\"\n"
	"CONFIG_DEFAULT_HOSTNAME=\"(none)\"\n"
	"CONFIG_QUOTED=\"say \\\"hi\\\"\"\n"
	"# CONFIG_PREEMPT is not set\n"
	"CONFIG_PREEMPT_VOLUNTARY=y\n"
	"\n"
	"#\n"
	"# end of General setup\n"
	"CONFIG BAD=y\n"
	"CONFIG_PHYSICAL_START=0x1000000\n"
	"CONFIG_LAST=y";	/* no final newline */

START_TEST(test_config_values)
{
	json_t *c = pm_sysinfo_parse_config(config_text);

	ck_assert_ptr_nonnull(c);
	ck_assert_uint_eq(json_object_size(c), 11);
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_64BIT")), "y");
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_EXT4_FS")), "m");
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_HZ")), "250");
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_CC_VERSION_TEXT")),
			 "gcc-12 (Debian 12.2.0-14) 12.2.0");
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_LOCALVERSION")), "");
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_DEFAULT_HOSTNAME")),
			 "(none)");
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_QUOTED")),
			 "say \"hi\"");
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_PHYSICAL_START")),
			 "0x1000000");
	ck_assert_str_eq(json_string_value(json_object_get(c, "CONFIG_LAST")), "y");
	json_decref(c);
}
END_TEST

START_TEST(test_config_not_set_skipped)
{
	json_t *c = pm_sysinfo_parse_config(config_text);

	ck_assert_ptr_null(json_object_get(c, "CONFIG_PREEMPT"));
	ck_assert_ptr_null(json_object_get(c, "CONFIG BAD"));
	ck_assert_ptr_null(json_object_get(c, "CONFIG"));
	ck_assert_str_eq(json_string_value(json_object_get(c,
			 "CONFIG_PREEMPT_VOLUNTARY")), "y");
	json_decref(c);

	c = pm_sysinfo_parse_config("# CONFIG_FOO is not set\n\n# comment\n");
	ck_assert_uint_eq(json_object_size(c), 0);
	json_decref(c);
	c = pm_sysinfo_parse_config("");
	ck_assert_uint_eq(json_object_size(c), 0);
	json_decref(c);
}
END_TEST

/* ---- kallsyms ---- */

static const char kallsyms_root[] =
	"0000000000000000 A fixed_percpu_data\n"	/* per-cpu: really 0 */
	"0000000000000000 A __per_cpu_start\n"
	"ffffffff81000000 T _stext_not_this\n"
	"ffffffff81000000 T _stext\n"
	"ffffffff81000000 T _text\n"
	"ffffffff81000010 T __entry_text_start\n"
	"ffffffff81e00123 T _etext\n"
	"ffffffff82000000 D _sdata\n"
	"ffffffffc0a01000 t _etext\t[some_module]\n";

START_TEST(test_text_size_known)
{
	ck_assert_int_eq(pm_sysinfo_text_size(kallsyms_root), 0xe00123LL);
	/* Order does not matter. */
	ck_assert_int_eq(pm_sysinfo_text_size(
		"ffffffff81400000 T _etext\nffffffff81000000 T _stext\n"),
		0x400000LL);
}
END_TEST

START_TEST(test_text_size_hidden)
{
	static const char zeros[] =
		"0000000000000000 A fixed_percpu_data\n"
		"0000000000000000 T _stext\n"
		"0000000000000000 T _text\n"
		"0000000000000000 T _etext\n"
		"0000000000000000 D _sdata\n";

	ck_assert_int_eq(pm_sysinfo_text_size(zeros), -EACCES);
}
END_TEST

START_TEST(test_text_size_missing)
{
	ck_assert_int_eq(pm_sysinfo_text_size(
		"ffffffff81000000 T _stext\nffffffff81000010 T foo\n"), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_text_size(
		"ffffffff81000000 T _text\nffffffff81e00000 T _etext\n"), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_text_size(""), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_text_size("garbage line\n\n"), -ENOENT);
}
END_TEST

START_TEST(test_text_size_reversed)
{
	ck_assert_int_eq(pm_sysinfo_text_size(
		"ffffffff81e00000 T _stext\nffffffff81000000 T _etext\n"), -ERANGE);
}
END_TEST

/* ---- [selected] values ---- */

START_TEST(test_bracketed)
{
	char buf[32];

	ck_assert_int_eq(pm_sysinfo_bracketed("always [madvise] never", buf,
					      sizeof(buf)), 0);
	ck_assert_str_eq(buf, "madvise");
	ck_assert_int_eq(pm_sysinfo_bracketed("[always] madvise never\n", buf,
					      sizeof(buf)), 0);
	ck_assert_str_eq(buf, "always");
	ck_assert_int_eq(pm_sysinfo_bracketed(
		"always defer defer+madvise [madvise] never", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "madvise");
	ck_assert_int_eq(pm_sysinfo_bracketed(
		"always within_size advise [never] deny force", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "never");
}
END_TEST

START_TEST(test_bracketed_errors)
{
	char small[4];

	ck_assert_int_eq(pm_sysinfo_bracketed("always madvise never", small,
					      sizeof(small)), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_bracketed("always [] never", small,
					      sizeof(small)), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_bracketed("[unterminated", small,
					      sizeof(small)), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_bracketed("a [madvise] b", small,
					      sizeof(small)), -ERANGE);
}
END_TEST

/* ---- preemption model ---- */

static json_t *cfg(const char *text)
{
	return pm_sysinfo_parse_config(text);
}

START_TEST(test_preemption_config)
{
	static const struct {
		const char *config, *want;
	} cases[] = {
		/* Debian 12 / this VM: dynamic, booting as "none". */
		{ "CONFIG_PREEMPT_BUILD=y\nCONFIG_PREEMPT_NONE=y\n"
		  "# CONFIG_PREEMPT_VOLUNTARY is not set\n# CONFIG_PREEMPT is not set\n"
		  "CONFIG_PREEMPT_COUNT=y\nCONFIG_PREEMPTION=y\n"
		  "CONFIG_PREEMPT_DYNAMIC=y\n", "dynamic" },
		{ "CONFIG_PREEMPT_RT=y\nCONFIG_PREEMPTION=y\n"
		  "CONFIG_PREEMPT_DYNAMIC=y\n", "rt" },
		{ "CONFIG_PREEMPT_RT_FULL=y\nCONFIG_PREEMPT=y\n", "rt" },
		{ "CONFIG_PREEMPT=y\nCONFIG_PREEMPTION=y\n"
		  "# CONFIG_PREEMPT_DYNAMIC is not set\n", "full" },
		{ "CONFIG_PREEMPT_LAZY=y\nCONFIG_PREEMPTION=y\n", "lazy" },
		{ "# CONFIG_PREEMPT_NONE is not set\nCONFIG_PREEMPT_VOLUNTARY=y\n"
		  "# CONFIG_PREEMPT is not set\n", "voluntary" },
		{ "CONFIG_PREEMPT_NONE=y\n# CONFIG_PREEMPT_VOLUNTARY is not set\n",
		  "none" },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		json_t *c = cfg(cases[i].config);
		const char *got = pm_sysinfo_preemption(c, NULL);

		ck_assert_msg(got && strcmp(got, cases[i].want) == 0,
			      "case %zu: got %s, want %s", i, got ? got : "NULL",
			      cases[i].want);
		json_decref(c);
	}
}
END_TEST

START_TEST(test_preemption_config_beats_uname)
{
	json_t *c = cfg("CONFIG_PREEMPT_VOLUNTARY=y\n");
	json_t *empty = json_object();

	ck_assert_str_eq(pm_sysinfo_preemption(c,
		"#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"), "voluntary");
	/* A config without any PREEMPT option falls back to uname. */
	ck_assert_str_eq(pm_sysinfo_preemption(empty,
		"#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"), "dynamic");
	json_decref(c);
	json_decref(empty);
}
END_TEST

START_TEST(test_preemption_uname)
{
	ck_assert_str_eq(pm_sysinfo_preemption(NULL,
		"#1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)"), "dynamic");
	ck_assert_str_eq(pm_sysinfo_preemption(NULL,
		"#1 SMP PREEMPT_DYNAMIC @0"), "dynamic");
	ck_assert_str_eq(pm_sysinfo_preemption(NULL,
		"#1 SMP PREEMPT_RT Debian 6.1.76-1 (2024-02-01)"), "rt");
	ck_assert_str_eq(pm_sysinfo_preemption(NULL,
		"#1 SMP PREEMPT RT Mon Jan 6 10:00:00 UTC 2020"), "rt");
	ck_assert_str_eq(pm_sysinfo_preemption(NULL,
		"#1 SMP PREEMPT Tue Jan 2 12:00:00 UTC 2024"), "full");
	ck_assert_str_eq(pm_sysinfo_preemption(NULL,
		"#3 SMP PREEMPT_LAZY Wed Jan 3 12:00:00 UTC 2025"), "lazy");
	/* No preemption token: "none" or "voluntary", unknowable. */
	ck_assert_ptr_null(pm_sysinfo_preemption(NULL,
		"#1 SMP Thu Jan 4 12:00:00 UTC 2024"));
	ck_assert_ptr_null(pm_sysinfo_preemption(NULL,
		"#1 SMP PREEMPTIBLE_NOT_A_FLAG"));
	ck_assert_ptr_null(pm_sysinfo_preemption(NULL, NULL));
}
END_TEST

/* ---- /proc/version compiler ---- */

START_TEST(test_kernel_compiler)
{
	char buf[128];

	ck_assert_int_eq(pm_sysinfo_kernel_compiler(
		"Linux version 6.18.44-fc-v1098 (builder@sandboxing) (gcc (GCC) "
		"15.3.0, GNU ld (GNU Binutils) 2.46) #1 SMP PREEMPT_DYNAMIC @0\n",
		buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "gcc (GCC) 15.3.0");
	ck_assert_int_eq(pm_sysinfo_kernel_compiler(
		"Linux version 6.1.0-18-amd64 (debian-kernel@lists.debian.org) "
		"(gcc-12 (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for Debian) "
		"2.40) #1 SMP PREEMPT_DYNAMIC Debian 6.1.76-1 (2024-02-01)\n",
		buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "gcc-12 (Debian 12.2.0-14) 12.2.0");
	ck_assert_int_eq(pm_sysinfo_kernel_compiler(
		"Linux version 4.19.0-6-amd64 (debian-kernel@lists.debian.org) "
		"(gcc version 8.3.0 (Debian 8.3.0-6)) #1 SMP Debian 4.19.67-2\n",
		buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "gcc version 8.3.0 (Debian 8.3.0-6)");
	ck_assert_int_eq(pm_sysinfo_kernel_compiler(
		"Linux version 6.8.0 (buildd@lcy02) (Ubuntu clang version 18.1.3 "
		"(1ubuntu1), Ubuntu LLD 18.1.3) #1 SMP\n", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "Ubuntu clang version 18.1.3 (1ubuntu1)");
}
END_TEST

START_TEST(test_kernel_compiler_missing)
{
	char buf[8];

	/* The date after '#' is not a compiler. */
	ck_assert_int_eq(pm_sysinfo_kernel_compiler(
		"Linux version 5.0 (u@h) #1 SMP (2024-01-01)", buf, sizeof(buf)),
		-ENOENT);
	ck_assert_int_eq(pm_sysinfo_kernel_compiler("", buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_kernel_compiler(NULL, buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_kernel_compiler(
		"Linux version 5.0 (u@h) (gcc (GCC) 12.2.0) #1", buf, sizeof(buf)),
		-ERANGE);
}
END_TEST

/* ---- kernel command line ---- */

START_TEST(test_cmdline_param)
{
	char buf[64];

	ck_assert_int_eq(pm_sysinfo_cmdline_param(
		"BOOT_IMAGE=/vmlinuz root=UUID=ab-cd ro mitigations=off quiet\n",
		"mitigations", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "off");
	ck_assert_int_eq(pm_sysinfo_cmdline_param(
		"mitigations=off mitigations=auto,nosmt", "mitigations", buf,
		sizeof(buf)), 0);
	ck_assert_str_eq(buf, "auto,nosmt");	/* last one wins */
	ck_assert_int_eq(pm_sysinfo_cmdline_param(
		"foo=\"a b\" \"mitigations=auto nosmt\"", "mitigations", buf,
		sizeof(buf)), 0);
	ck_assert_str_eq(buf, "auto nosmt");
	ck_assert_int_eq(pm_sysinfo_cmdline_param(
		"nmi-watchdog=0 quiet", "nmi_watchdog", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "0");
	ck_assert_int_eq(pm_sysinfo_cmdline_param(
		"root=UUID=ab-cd", "root", buf, sizeof(buf)), 0);
	ck_assert_str_eq(buf, "UUID=ab-cd");
}
END_TEST

START_TEST(test_cmdline_param_absent)
{
	char buf[8];

	ck_assert_int_eq(pm_sysinfo_cmdline_param("quiet splash", "mitigations",
						  buf, sizeof(buf)), -ENOENT);
	ck_assert_int_eq(pm_sysinfo_cmdline_param("mitigations_x=1",
						  "mitigations", buf, sizeof(buf)),
			 -ENOENT);
	/* After "--" the words belong to init. */
	ck_assert_int_eq(pm_sysinfo_cmdline_param("quiet -- mitigations=off",
						  "mitigations", buf, sizeof(buf)),
			 -ENOENT);
	ck_assert_int_eq(pm_sysinfo_cmdline_param("", "mitigations", buf,
						  sizeof(buf)), -ENOENT);
}
END_TEST

/* ---- dotted lookup ---- */

START_TEST(test_get)
{
	json_error_t err;
	json_t *si = json_loads(
		"{\"kernel\": {\"release\": \"6.1.0\", \"text_size\": null},"
		" \"cpu\": {\"caches\": [{\"size\": 32768}, {\"size\": 1048576}]},"
		" \"unavailable\": {\"kernel.text_size\": \"hidden\"}}", 0, &err);

	ck_assert_ptr_nonnull(si);
	ck_assert_str_eq(json_string_value(pm_sysinfo_get(si, "kernel.release")),
			 "6.1.0");
	ck_assert(json_is_null(pm_sysinfo_get(si, "kernel.text_size")));
	ck_assert_int_eq(json_integer_value(pm_sysinfo_get(si, "cpu.caches.1.size")),
			 1048576);
	ck_assert_str_eq(json_string_value(pm_sysinfo_get(si,
			 "unavailable.kernel.text_size")), "hidden");
	ck_assert_ptr_null(pm_sysinfo_get(si, "cpu.caches.2.size"));
	ck_assert_ptr_null(pm_sysinfo_get(si, "kernel.release.major"));
	ck_assert_ptr_null(pm_sysinfo_get(si, "kernel.nope"));
	ck_assert_ptr_null(pm_sysinfo_get(si, "kernel..release"));
	ck_assert_ptr_null(pm_sysinfo_get(NULL, "kernel"));
	ck_assert(pm_sysinfo_get(si, "kernel") == json_object_get(si, "kernel"));
	json_decref(si);
}
END_TEST

/* ---- this machine ---- */

/* Every null in the fingerprint must say why in "unavailable". */
static void check_nulls_explained(const json_t *si, const json_t *v,
				  const char *path)
{
	const char *key;
	json_t *child;
	size_t i;

	if (json_is_null(v)) {
		ck_assert_msg(json_is_string(json_object_get(
				json_object_get(si, "unavailable"), path)),
			      "%s is null without a reason", path);
		return;
	}
	if (json_is_object(v)) {
		json_object_foreach((json_t *)v, key, child) {
			char *p;

			if (v == si && strcmp(key, "unavailable") == 0)
				continue;
			p = *path ? pm_xasprintf("%s.%s", path, key) :
				    pm_xstrdup(key);
			check_nulls_explained(si, child, p);
			free(p);
		}
	} else if (json_is_array(v)) {
		json_array_foreach((json_t *)v, i, child) {
			char *p = pm_xasprintf("%s.%zu", path, i);

			check_nulls_explained(si, child, p);
			free(p);
		}
	}
}

START_TEST(test_collect_this_machine)
{
	struct utsname u;
	uint64_t t0, t1;
	json_t *si;
	const json_t *v;

	ck_assert_int_eq(uname(&u), 0);
	t0 = pm_now_ns();
	si = pm_sysinfo_collect();
	t1 = pm_now_ns();
	ck_assert_ptr_nonnull(si);

	ck_assert_str_eq(json_string_value(pm_sysinfo_get(si, "kernel.release")),
			 u.release);
	ck_assert_str_eq(json_string_value(pm_sysinfo_get(si, "kernel.machine")),
			 u.machine);
	ck_assert_str_eq(json_string_value(pm_sysinfo_get(si, "hostname")),
			 u.nodename);
	v = pm_sysinfo_get(si, "cpu.online");
	ck_assert(json_is_integer(v));
	ck_assert_int_ge(json_integer_value(v), 1);
	ck_assert_int_eq(json_integer_value(v), sysconf(_SC_NPROCESSORS_ONLN));
	ck_assert(json_is_object(json_object_get(si, "unavailable")));
	ck_assert_str_eq(json_string_value(pm_sysinfo_get(si, "pmbench.version")),
			 PACKAGE_VERSION);

	/* Either a plausible size or null with a reason. */
	v = pm_sysinfo_get(si, "kernel.text_size");
	ck_assert_ptr_nonnull(v);
	if (json_is_integer(v)) {
		ck_assert_int_gt(json_integer_value(v), 1 << 20);
		ck_assert_int_lt(json_integer_value(v), 1LL << 30);
	} else {
		ck_assert(json_is_null(v));
	}
	/* The config, when found, agrees with kernel.hz. */
	v = pm_sysinfo_get(si, "kernel.config.CONFIG_HZ");
	if (v)
		ck_assert_int_eq(strtol(json_string_value(v), NULL, 10),
				 json_integer_value(pm_sysinfo_get(si, "kernel.hz")));

	check_nulls_explained(si, si, "");
	/* Generous: the budget is 100 ms, but make check runs in parallel. */
	ck_assert_msg(t1 - t0 < 1000000000ull, "collect took %.0f ms",
		      (t1 - t0) / 1e6);
	json_decref(si);
}
END_TEST

START_TEST(test_print)
{
	struct utsname u;
	char *out = NULL;
	size_t len = 0;
	json_t *si = pm_sysinfo_collect();
	FILE *f = open_memstream(&out, &len);

	ck_assert_int_eq(uname(&u), 0);
	pm_sysinfo_print(si, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "\nkernel\n"));
	ck_assert_ptr_nonnull(strstr(out, "\ncpu\n"));
	ck_assert_ptr_nonnull(strstr(out, "\nperf access\n"));
	ck_assert_ptr_nonnull(strstr(out, u.release));
	/* A summary, never the whole config. */
	ck_assert_ptr_null(strstr(out, "CONFIG_"));
	if (pm_sysinfo_get(si, "kernel.config.CONFIG_HZ"))
		ck_assert_ptr_nonnull(strstr(out, " options from "));
	free(out);
	json_decref(si);
}
END_TEST

/* Results written by other versions may lack keys or reasons. */
START_TEST(test_print_sparse)
{
	json_error_t err;
	char *out = NULL;
	size_t len = 0;
	json_t *si = json_loads("{\"kernel\": {\"release\": \"5.10.0\", "
				"\"text_size\": null, \"config\": 7}, "
				"\"cpu\": {\"caches\": [{}], \"flags\": [1]}}",
				0, &err);
	FILE *f = open_memstream(&out, &len);

	ck_assert_ptr_nonnull(si);
	pm_sysinfo_print(si, f);
	pm_sysinfo_print(NULL, f);
	fclose(f);
	ck_assert_ptr_nonnull(strstr(out, "5.10.0"));
	ck_assert_ptr_nonnull(strstr(out, "unavailable: no reason recorded"));
	free(out);
	json_decref(si);
}
END_TEST

static Suite *sysinfo_suite(void)
{
	Suite *s = suite_create("sysinfo");
	TCase *tc;

	tc = tcase_create("config");
	tcase_add_test(tc, test_config_values);
	tcase_add_test(tc, test_config_not_set_skipped);
	suite_add_tcase(s, tc);

	tc = tcase_create("kallsyms");
	tcase_add_test(tc, test_text_size_known);
	tcase_add_test(tc, test_text_size_hidden);
	tcase_add_test(tc, test_text_size_missing);
	tcase_add_test(tc, test_text_size_reversed);
	suite_add_tcase(s, tc);

	tc = tcase_create("bracketed");
	tcase_add_test(tc, test_bracketed);
	tcase_add_test(tc, test_bracketed_errors);
	suite_add_tcase(s, tc);

	tc = tcase_create("preemption");
	tcase_add_test(tc, test_preemption_config);
	tcase_add_test(tc, test_preemption_config_beats_uname);
	tcase_add_test(tc, test_preemption_uname);
	suite_add_tcase(s, tc);

	tc = tcase_create("proc");
	tcase_add_test(tc, test_kernel_compiler);
	tcase_add_test(tc, test_kernel_compiler_missing);
	tcase_add_test(tc, test_cmdline_param);
	tcase_add_test(tc, test_cmdline_param_absent);
	tcase_add_test(tc, test_get);
	suite_add_tcase(s, tc);

	tc = tcase_create("collect");
	tcase_set_timeout(tc, 30);
	tcase_add_test(tc, test_collect_this_machine);
	tcase_add_test(tc, test_print);
	tcase_add_test(tc, test_print_sparse);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(sysinfo_suite());
	int failures;

	srunner_run_all(sr, CK_NORMAL);
	failures = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failures ? 1 : 0;
}
