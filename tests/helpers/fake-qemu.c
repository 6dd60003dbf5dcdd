/*
 * A stand-in for qemu-system-x86_64 in the CLI tests of `pmbench ab`
 * (tests/cli/ab.sh): it takes QEMU's arguments, writes a console log and
 * hands a result back as the guest init would, or misbehaves, as the
 * words of -append say:
 *
 *   fake.result=PATH     hand PATH back (a result file) and exit 0
 *   fake.serial          ... over the second serial port, not the disk
 *   fake.status=N        hand back guest status N and no result
 *   fake.hang            print a kernel banner, then hang
 *   fake.hang-tag=TAG    hang only on the boot whose console is TAG.log
 *   fake.hang-tag-in=PATH  ... whose tag PATH holds (changed between runs
 *                        of one command)
 *   fake.silent          print nothing and hang (KVM on a PVM host)
 *   fake.kvm-silent      the same, but only under -accel kvm
 *   fake.pidfile=PATH    write our pid there first
 *   fake.order=PATH      append the boot's tag (console file name) there
 *   fake.if=WORD:PATH    hand PATH back instead of fake.result's when WORD
 *                        is a word of -append too (a knock-out argument)
 *
 * A '%' in a result's PATH is the boot's number (the digits that end its
 * tag: a1, b2, k1a-3) counted 1, 2, 3, 1, ...: boots that differ; an '@'
 * is the last letter of the -kernel file's name (vmlinuz-a, vmlinuz-b):
 * two images with one command line.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ab/handback.h"

static char *option_value(const char *opt, const char *key)
{
	/* "file,id=console,path=/x/a1.log": the part after key= */
	const char *p = strstr(opt, key);

	return p ? strdup(p + strlen(key)) : NULL;
}

static const char *word(const char *append, const char *key, char *buf, size_t len)
{
	const char *p = append;
	size_t kl = strlen(key);

	while (p && *p) {
		const char *end = strchr(p, ' ');
		size_t n = end ? (size_t)(end - p) : strlen(p);

		if (n >= kl && !strncmp(p, key, kl) && (n == kl || p[kl] == '=')) {
			size_t vl = n > kl ? n - kl - 1 : 0;

			if (vl >= len)
				vl = len - 1;
			memcpy(buf, p + kl + (n > kl), vl);
			buf[vl] = '\0';
			return buf;
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

/* Whether the first line of path is text. */
static bool file_holds(const char *path, const char *text)
{
	char line[256] = "";
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	if (!fgets(line, sizeof(line), f))
		line[0] = '\0';
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	return !strcmp(line, text);
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	size_t cap = 65536, n = 0, r;
	char *buf = malloc(cap);

	if (!f || !buf)
		return NULL;
	while ((r = fread(buf + n, 1, cap - n, f)) > 0) {
		n += r;
		if (n == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	*len = n;
	return buf;
}

static void hand_back(const char *path, int status, const char *payload, size_t len)
{
	char h[PM_HANDBACK_HEADER_MAX];
	size_t hl = pm_handback_header(h, sizeof(h), status, NULL, payload, len);
	FILE *f = fopen(path, "r+b");

	if (!f)
		f = fopen(path, "wb");
	if (!f) {
		fprintf(stderr, "fake-qemu: %s: %s\n", path, strerror(errno));
		exit(1);
	}
	fwrite(h, 1, hl, f);
	fwrite(payload, 1, len, f);
	fclose(f);
}

/* The result to hand back: fake.if's when its word is there, else
 * fake.result's; '%' -> 1, 2 or 3 by the boot's number. */
static bool result_path(const char *append, const char *tag, const char *kernel, char *out,
			size_t len)
{
	char buf[4096], *colon, *pct, *at, word_buf[256];
	const char *t = tag + strlen(tag);
	bool have = false;

	if (word(append, "fake.if", buf, sizeof(buf)) && (colon = strchr(buf, ':'))) {
		*colon = '\0';
		have = word(append, buf, word_buf, sizeof(word_buf)) != NULL;
		if (have)
			memmove(buf, colon + 1, strlen(colon + 1) + 1);
	}
	if (!have && !word(append, "fake.result", buf, sizeof(buf)))
		return false;
	while (t > tag && t[-1] >= '0' && t[-1] <= '9')
		t--;
	at = strchr(buf, '@');
	if (at && kernel && *kernel)
		*at = kernel[strlen(kernel) - 1];
	pct = strchr(buf, '%');
	if (pct)
		snprintf(out, len, "%.*s%d%s", (int)(pct - buf), buf, (atoi(t) + 2) % 3 + 1, pct + 1);
	else
		snprintf(out, len, "%s", buf);
	return true;
}

int main(int argc, char **argv)
{
	char *console = NULL, *serial = NULL, *disk = NULL, buf[4096], tag[64] = "";
	const char *append = "", *kernel = "";
	bool kvm = false;
	FILE *con;
	int i;

	for (i = 1; i + 1 < argc; i++) {
		if (!strcmp(argv[i], "-append"))
			append = argv[i + 1];
		else if (!strcmp(argv[i], "-kernel"))
			kernel = argv[i + 1];
		else if (!strcmp(argv[i], "-chardev") && strstr(argv[i + 1], "id=console"))
			console = option_value(argv[i + 1], "path=");
		else if (!strcmp(argv[i], "-chardev") && strstr(argv[i + 1], "id=handback"))
			serial = option_value(argv[i + 1], "path=");
		else if (!strcmp(argv[i], "-drive"))
			disk = option_value(argv[i + 1], "file=");
		else if (!strcmp(argv[i], "-accel"))
			kvm = !strcmp(argv[i + 1], "kvm");
	}
	if (disk && strchr(disk, ','))
		*strchr(disk, ',') = '\0';
	if (!console || !disk || !serial) {
		fprintf(stderr, "fake-qemu: no console, disk or second serial port\n");
		return 1;
	}
	if (word(append, "fake.pidfile", buf, sizeof(buf))) {
		FILE *f = fopen(buf, "w");

		if (f) {
			fprintf(f, "%d\n", (int)getpid());
			fclose(f);
		}
	}
	snprintf(tag, sizeof(tag), "%s", strrchr(console, '/') ? strrchr(console, '/') + 1 : console);
	if (strstr(tag, ".log"))
		*strstr(tag, ".log") = '\0';
	if (word(append, "fake.order", buf, sizeof(buf))) {
		FILE *f = fopen(buf, "a");

		if (f) {
			fprintf(f, "%s\n", tag);
			fclose(f);
		}
	}
	con = fopen(console, "w");
	if (!con)
		return 1;
	if (word(append, "fake.silent", buf, sizeof(buf)) ||
	    (kvm && word(append, "fake.kvm-silent", buf, sizeof(buf)))) {
		fclose(con);
		for (;;)
			pause();
	}
	fprintf(con, "\033c\033[2JBooting from ROM...\r\n[    0.000000] Linux version 9.9.9-fake\r\n"
		"[    0.100000] Command line: %s\r\n", append);
	fflush(con);
	if (word(append, "fake.hang", buf, sizeof(buf)) ||
	    (word(append, "fake.hang-tag", buf, sizeof(buf)) && !strcmp(buf, tag)) ||
	    (word(append, "fake.hang-tag-in", buf, sizeof(buf)) && file_holds(buf, tag))) {
		fprintf(con, "pmbench-guest: running /usr/bin/pmbench run ...\r\n");
		fclose(con);
		for (;;)
			pause();
	}
	if (word(append, "fake.status", buf, sizeof(buf))) {
		hand_back(disk, atoi(buf), "", 0);
	} else if (result_path(append, tag, kernel, buf, sizeof(buf))) {
		size_t len;
		char *payload = slurp(buf, &len);

		if (!payload) {
			fprintf(stderr, "fake-qemu: %s: %s\n", buf, strerror(errno));
			return 1;
		}
		hand_back(word(append, "fake.serial", buf, sizeof(buf)) ? serial : disk, 0,
			  payload, len);
		free(payload);
	}
	fprintf(con, "pmbench-guest: powering off\r\n[    1.000000] reboot: Power down\r\n");
	fclose(con);
	return 0;
}
