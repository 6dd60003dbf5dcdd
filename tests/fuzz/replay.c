/*
 * Replay inputs through a fuzz target without libFuzzer: every FILE given,
 * or every file of every DIR.  `make check` runs it over the seeds and the
 * inputs that once failed (tests/fuzz/regress), plain and under
 * `make check-sanitize`.
 */
#include "config.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz.h"
#include "util.h"

static int replay(const char *path)
{
	char *buf;
	size_t len;
	int err;

	err = pm_read_file_max(path, 16u << 20, &buf, &len);
	if (err) {
		fprintf(stderr, "%s: %s\n", path, strerror(-err));
		return 1;
	}
	LLVMFuzzerTestOneInput((const uint8_t *)buf, len);
	free(buf);
	return 0;
}

int main(int argc, char **argv)
{
	int a, bad = 0, n = 0;

	for (a = 1; a < argc; a++) {
		struct dirent **list;
		struct stat st;
		int k, m;

		if (stat(argv[a], &st) != 0 || !S_ISDIR(st.st_mode)) {
			bad |= replay(argv[a]);
			n++;
			continue;
		}
		m = scandir(argv[a], &list, NULL, alphasort);
		for (k = 0; k < m; k++) {
			if (list[k]->d_name[0] != '.') {
				char *p = pm_xasprintf("%s/%s", argv[a], list[k]->d_name);

				bad |= replay(p);
				n++;
				free(p);
			}
			free(list[k]);
		}
		if (m >= 0)
			free(list);
	}
	printf("%d inputs replayed\n", n);
	return bad;
}
