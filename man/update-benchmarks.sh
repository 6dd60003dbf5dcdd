#!/bin/sh
# Regenerate the generated blocks of pmbench-benchmarks(7) from the
# benchmark registry (`pmbench list --format man`): the list of what
# benchmarks exercise and each family's table of quick, flags and
# exercises.  `make update-man-benchmarks`; tests/cli/list.sh checks that
# the page is what this writes.
# usage: update-benchmarks.sh PMBENCH MANPAGE [OUTPUT]  (default: MANPAGE)
set -eu
pmbench=$1
page=$2
out=${3:-$2}
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.page"' EXIT
"$pmbench" list --format man > "$tmp"
# Each block between ".\" BEGIN generated: NAME" and ".\" END generated:
# NAME" in the page is replaced by the block of that name; a block the
# page lacks, or one pmbench does not write, is an error.
awk -v gen="$tmp" -v page="$page" '
BEGIN {
	while ((getline line < gen) > 0) {
		if (line ~ /^\.\\" BEGIN generated: /) {
			key = line
			made[key] = 1
			order[++nkeys] = key
			continue
		}
		if (line ~ /^\.\\" END generated: /) {
			key = ""
			continue
		}
		if (key != "")
			block[key] = block[key] line "\n"
	}
}
/^\.\\" END generated: / { skip = 0 }
!skip { print }
/^\.\\" BEGIN generated: / {
	if (!($0 in made)) {
		printf "%s: \"%s\": pmbench writes no such block\n", page, $0 > "/dev/stderr"
		bad = 1
	}
	printf "%s", block[$0]
	used[$0] = 1
	skip = 1
}
END {
	for (i = 1; i <= nkeys; i++)
		if (!(order[i] in used)) {
			printf "%s: no \"%s\" marker for the block\n", page, order[i] > "/dev/stderr"
			bad = 1
		}
	if (skip) {
		printf "%s: a generated block has no END marker\n", page > "/dev/stderr"
		bad = 1
	}
	exit bad
}' "$page" > "$tmp.page"
cat "$tmp.page" > "$out"
