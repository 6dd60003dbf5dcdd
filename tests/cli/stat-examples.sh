#!/bin/sh
# The examples of pmbench-stat(1) run as written: each "$ " line of the
# EXAMPLES section, in order, in a directory with a small C tree in tree/.
. "$TEST_LIB"

command -v make >/dev/null 2>&1 || skip "make is not installed"
command -v cc >/dev/null 2>&1 || skip "no C compiler (cc)"
page="${PMBENCH_DATADIR:?}/man/pmbench-stat.1"
src="${PMBENCH_DATADIR:?}/src"

# tree/: three of pmbench's own sources, as the examples describe
mkdir -p "$T/ex/tree/stats" "$T/bin"
cp "$src/stats/stats.c" "$src/bench/spawner.c" "$src/bench/hello.c" "$T/ex/tree/"
cp "$src/stats/stats.h" "$T/ex/tree/stats/"
echo '#define _GNU_SOURCE 1' > "$T/ex/tree/config.h"
printf 'CFLAGS = -O2 -I.\nOBJS = stats.o spawner.o hello.o\nall: $(OBJS)\nclean:\n\trm -f $(OBJS)\n' \
	> "$T/ex/tree/Makefile"
ln -s "$PMBENCH" "$T/bin/pmbench"

# the example commands: "$ " lines of .EX blocks in EXAMPLES, continuation
# lines (ending in \e) joined, roff escapes undone
sed -n '/^\.SH EXAMPLES/,/^\.SH /p' "$page" | awk '
	/^\.EX/ { ex = 1; next }
	/^\.EE/ { ex = 0; next }
	!ex { next }
	{
		gsub(/\\-/, "-"); gsub(/\\\(aq/, "\047")
		if (cont) { line = line " " $0 } else if (/^\$ /) { line = substr($0, 3) } else next
		if (line ~ /\\e$/) { sub(/\\e$/, "", line); cont = 1; next }
		cont = 0; gsub(/\\e/, "\\", line); print line
	}' > "$T/examples"
n=$(wc -l < "$T/examples")
ge "$n" 10 || fail "only $n examples found in $page"
# as from a user's shell: not inside this suite's make (whose jobserver
# descriptors the examples' own make would try to use)
unset MAKEFLAGS MFLAGS MAKELEVEL
# show_example N: what example N printed, for a failure
show_example() {
	sed 's/^/  stdout: /' "$T/out" | tail -15 >&2
	sed 's/^/  stderr: /' "$T/err" | tail -8 >&2
}
i=0
while IFS= read -r cmd; do
	i=$((i + 1))
	status=0
	(cd "$T/ex" && PATH="$T/bin:$PATH" sh -c "$cmd") >"$T/out" 2>"$T/err" </dev/null || status=$?
	checks=$((checks + 1))
	if [ "$status" -ne 0 ]; then
		fail "example $i exits $status: $cmd"
		show_example
	fi
	case "$cmd" in
	"pmbench explain build.json "*)
		grep -q 'make -C tree -j2' "$T/out" ||
			{ fail "example $i: explain said nothing about the build"; show_example; }
		;;
	"pmbench stat "*"-- make -C tree -j1 -- "*)
		grep -q "^summary " "$T/out" ||
			{ fail "example $i: no summary of the two commands"; show_example; }
		;;
	esac
done < "$T/examples"
[ -s "$T/ex/build.json" ] || fail "the first example wrote no build.json"
[ -s "$T/ex/build.folded" ] ||
	fail "no folded stacks written: $(ls -l "$T/ex/build.folded" 2>&1)"
# what the pages promise: explain names the planted full rebuild
pm explain "$T/ex/old" "$T/ex/new"
expect_out '^build  REGRESSION'

finish
