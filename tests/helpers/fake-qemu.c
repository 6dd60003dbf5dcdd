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
 *   fake.silent          print nothing and hang (KVM on a PVM host)
 *   fake.kvm-silent      the same, but only under -accel kvm
 *   fake.pidfile=PATH    write our pid there first
 *   fake.order=PATH      append the boot's tag (console file name) there
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

int main(int argc, char **argv)
{
	char *console = NULL, *serial = NULL, *disk = NULL, buf[4096], tag[64] = "";
	const char *append = "";
	bool kvm = false;
	FILE *con;
	int i;

	for (i = 1; i + 1 < argc; i++) {
		if (!strcmp(argv[i], "-append"))
			append = argv[i + 1];
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
	    (word(append, "fake.hang-tag", buf, sizeof(buf)) && !strcmp(buf, tag))) {
		fprintf(con, "pmbench-guest: running /usr/bin/pmbench run ...\r\n");
		fclose(con);
		for (;;)
			pause();
	}
	if (word(append, "fake.status", buf, sizeof(buf))) {
		hand_back(disk, atoi(buf), "", 0);
	} else if (word(append, "fake.result", buf, sizeof(buf))) {
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
