#!/bin/sh
# No file in src/ includes a header of a higher layer (issue 33; the
# layers of HACKING's "Architecture"): data flows down, so
# a lower layer can be built, tested and fuzzed without the ones above
# it.  Each `#include "DIR/x.h"` (or "util.h", "cmd.h") must name the
# file's own layer or one of a lower rank; layers of the same rank are
# independent of each other.
. "$TEST_LIB"

srcdir="${TEST_SRCDIR:?}"

# The layers, lowest first: "RANK NAME PATH...", a PATH ending in / a
# directory of src/, else a file of src/.  Kept here, as data, so that a
# new directory must be placed (an unplaced file fails the test).
cat > "$T/layers" <<'EOF'
0 util     util/ util.h
1 stats    stats/
1 counters counters/
1 symbols  symbols/
2 sample   sample/
2 sysinfo  sysinfo/
3 results  results/
4 views    views/
4 import   import/
4 bench    bench/
4 explain  explain/
5 ab       ab/
5 report   report/
5 export   export/
6 cli      main.c cli-*.c cmd.h cmd-*.c
EOF

# check_layers LAYERS SRCDIR: "FILE:LINE: ..." for every include that
# reaches up or sideways, or a file no layer holds; nothing when clean.
check_layers() {
	(cd "$2" && find . -name '*.[ch]' | sed 's|^\./||' | sort |
		while read -r f; do
			grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
				sed "s|^\([0-9]*\):.*include[[:space:]]*\"\([^\"]*\)\".*|$f \1 \2|"
			echo "$f 0 -"	# every file is placed, even without includes
		done) |
	awk -v layers="$1" '
	BEGIN {
		while ((getline l < layers) > 0) {
			n = split(l, w, /[ \t]+/)
			for (i = 3; i <= n; i++) {
				np++; pat[np] = w[i]; prank[np] = w[1]; pname[np] = w[2]
			}
		}
	}
	# the layer of a path relative to src/: its rank and name, or 0
	function place(p,   i, g) {
		for (i = 1; i <= np; i++) {
			g = pat[i]
			if (g ~ /\/$/ ? index(p, g) == 1 : match_file(p, g)) {
				rank = prank[i]; name = pname[i]; return 1
			}
		}
		return 0
	}
	function match_file(p, g,   re) {
		re = g; gsub(/\./, "\\.", re); gsub(/\*/, "[^/]*", re)
		return p ~ ("^" re "$")
	}
	{
		f = $1; line = $2; inc = $3
		if (!place(f)) {
			if (!(f in told)) print f ":1: in no layer: add it to the table"
			told[f] = 1; next
		}
		if (inc == "-" || inc == "config.h")
			next
		fr = rank; fn = name
		if (!place(inc)) {
			print f ":" line ": " fn " includes \"" inc "\", in no layer"
			next
		}
		if (name != fn && rank + 0 >= fr + 0)
			print f ":" line ": " fn " (rank " fr ") includes \"" inc \
			      "\" of " name " (rank " rank "): not below it"
	}'
}

# The checker itself, on a fixture tree: an upward and a sideways
# include are found, downward ones and its own layer's are not.
mkdir -p "$T/src/util" "$T/src/results" "$T/src/bench" "$T/src/explain" \
	"$T/src/views" "$T/src/import"
printf '#include "config.h"\n#include "util.h"\n' > "$T/src/util/a.c"
printf '#include "results/r.h"\n#include "util/table.h"\n' > "$T/src/results/r.c"
printf '#include "util.h"\n#include "bench/bench.h"\n' > "$T/src/results/up.c"
printf '#include "views/render.h"\n' > "$T/src/results/view.c"
printf '#include "results/r.h"\n' > "$T/src/bench/b.c"
printf '#include "bench/bench.h"\n' > "$T/src/explain/side.c"
printf '#include "results/lmbench.h"\n#include "import/import.h"\n' > "$T/src/views/v.c"
check_layers "$T/layers" "$T/src" > "$T/found"
checks=$((checks + 1))
cat > "$T/want" <<'EOF'
explain/side.c:1: explain (rank 4) includes "bench/bench.h" of bench (rank 4): not below it
results/up.c:2: results (rank 3) includes "bench/bench.h" of bench (rank 4): not below it
results/view.c:1: results (rank 3) includes "views/render.h" of views (rank 4): not below it
views/v.c:2: views (rank 4) includes "import/import.h" of import (rank 4): not below it
EOF
cmp -s "$T/found" "$T/want" ||
	fail "checker: on the fixture, expected: $(cat "$T/want"); got: $(cat "$T/found")"

check_layers "$T/layers" "$srcdir/src" > "$T/bad"
checks=$((checks + 1))
[ -s "$T/bad" ] && {
	sed 's|^|src/|' "$T/bad" >&2
	fail "includes across the layers (tests/cli/layers.sh has the order)"
}
finish
