#!/bin/sh
# pmbench list: every benchmark, its lmbench column, groups.
. "$TEST_LIB"

pm list
expect_status 0
for b in null null-io stat fstat open select sig-install sig-catch prot-fault \
	 fork exec sh pipe ctx page-fault page-fault-lmb page-fault-anon page-fault-thp page-fault-thp-read \
	 page-walk mmap \
	 wakeup-kernel-hog; do
	expect_out "^  $b " "list shows $b"
done
expect_out '^  null .*lmbench proc: null call'
expect_out '^  fork .*lmbench proc: fork proc'
expect_out '^  ctx .*lmbench ctx: 2p/0K'
# lmbench's Page Fault is lat_pagefault's figure: page-fault-lmb, not page-fault
expect_out '^  page-fault-lmb .*lmbench fs: Page Fault'
expect_out '^  sig-catch .*lmbench proc: sig hndl'
expect_out '^  prot-fault .*lmbench fs: Prot Fault'
grep -q '^  page-fault  .*lmbench' "$T/out" && fail "page-fault still claims an lmbench column"
# what each exercises, as the registry declares it
expect_out '^  null .* syscall  +getppid'
expect_out '^  fork .* spawn,vm,fault  +fork'
expect_out '^  page-walk .* walk  +load'

cp "$T/out" "$T/list"

pm list --names
expect_status 0
n=$(wc -l < "$T/out")
ge "$n" 16 || fail "list --names: only $n names"
[ "$(sort -u "$T/out" | wc -l)" -eq "$n" ] || fail "list --names: names not unique"
grep -Eq "^groups: proc \([0-9]+\),.* quick \([0-9]+\), all \($n\)$" "$T/list" ||
	fail "list: the groups line does not count $n benchmarks in all"
# the families' counts add up to all (quick overlaps them)
sum=$(sed -n 's/^groups: //p' "$T/list" | tr ',' '\n' |
	sed -n 's/^ *\([a-z0-9]*\) (\([0-9]*\))$/\1 \2/p' |
	awk '$1 != "quick" && $1 != "all" { s += $2 } END { print s + 0 }')
[ "$sum" -eq "$n" ] || fail "list: the families count $sum benchmarks, all $n"

# pmbench-benchmarks(7): its generated blocks (what benchmarks exercise,
# each family's table of flags and exercises) are what the registry says
page="${PMBENCH_DATADIR:?}/man/pmbench-benchmarks.7"
sh "$PMBENCH_DATADIR/man/update-benchmarks.sh" "$PMBENCH" "$page" "$T/regen" 2>"$T/regen.err" ||
	fail "update-benchmarks.sh: $(cat "$T/regen.err")"
cmp -s "$page" "$T/regen" ||
	fail "pmbench-benchmarks(7)'s tables differ from the registry: run make update-man-benchmarks"
grep -q '^syscall	\|^\.B syscall$' "$T/regen" || fail "no trait syscall in the generated page"

# Every benchmark has its own entry in its family's section: a tag line
# (.B or .BR after .TP) naming it, not a mention anywhere in the page.
# Prints "family name" for every name of every tag line of a family.
entries() {
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$1" | awk '
	/^\.SH THE [A-Z0-9]+ FAMILY$/ { fam = tolower($3); next }
	/^\.SH / { fam = ""; next }
	/^\.TP/ { tag = 1; next }
	tag {
		tag = 0
		if (fam == "" || $0 !~ /^\.BR? /)
			next
		line = $0
		sub(/^\.BR? /, "", line)
		gsub(/[",]/, " ", line)
		n = split(line, w, " ")
		for (i = 1; i <= n; i++)
			print fam, w[i]
	}'
}
entries "$page" > "$T/entries"
fams=$(sed -n 's/^groups: //p' "$T/list" | tr ',' '\n' |
	sed -n 's/^ *\([a-z0-9]*\) ([0-9]*)$/\1/p' | grep -v '^quick$\|^all$')
[ -n "$fams" ] || fail "list: no families in the groups line"
for f in $fams; do
	"$PMBENCH" list --names "$f" > "$T/names.$f"
	ge "$(wc -l < "$T/names.$f")" 1 || fail "list --names $f: no benchmarks"
	for b in $(cat "$T/names.$f"); do
		grep -qx "$f $b" "$T/entries" ||
			fail "$b has no entry of its own (.TP, .B $b) in THE $(echo "$f" |
				tr a-z A-Z) FAMILY of pmbench-benchmarks(7)"
	done
done
# the check can fail: a page whose entry for null is gone, and one where
# null is only mentioned in another entry (as getuid once was), lack it
awk '/^\.B null$/ { skip = 1; next } skip && /^\.TP/ { skip = 0 } !skip' "$page" > "$T/no-null.7"
grep -Eq '(^|[^a-z-])null([^a-z-]|$)' "$T/no-null.7" ||
	fail "the page without null's entry no longer mentions null: the check proves nothing"
entries "$T/no-null.7" | grep -qx "proc null" && fail "the entry check finds a removed entry"
entries "$page" | grep -qx "proc null" || fail "the entry check misses null's entry"

# A family's introduction leaves which benchmarks are quick to its table,
# and a flag it says the family has ("(flag peers)") every row has.
for f in $fams; do
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page" | awk -v fam="$f" '
	/^\.SH THE [A-Z0-9]+ FAMILY$/ { on = tolower($3) == fam; next }
	on && /^\.\\" BEGIN generated: / { exit }
	on { sub(/^\.[A-Z]+ /, ""); gsub(/"/, ""); print }' | tr '\n' ' ' > "$T/intro.$f"
	[ -s "$T/intro.$f" ] || fail "THE $f FAMILY: no introduction before its table"
	grep -qw quick "$T/intro.$f" &&
		fail "THE $f FAMILY's introduction says which are quick: its table does"
	sed -n "/^\\.\\\\\" BEGIN generated: $f\$/,/^\\.TE/p" "$page" |
		sed 's/\\-/-/g' | awk -F'\t' 'NF == 3 && $1 != "benchmark" { print $2 }' > "$T/flags.$f"
	[ "$(wc -l < "$T/flags.$f")" -eq "$(wc -l < "$T/names.$f")" ] ||
		fail "THE $f FAMILY: the table has not one row per benchmark"
	for fl in $(grep -o 'flag [a-z]*' "$T/intro.$f" | sed 's/^flag //'); do
		case $fl in
		quick|forks|peers|fs|net|mem) ;;
		*) fail "THE $f FAMILY's introduction names an unknown flag '$fl'" ;;
		esac
		grep -qv "\\(^\\|, \\)$fl\\(,\\|\$\\)" "$T/flags.$f" &&
			fail "THE $f FAMILY's introduction says flag $fl, but not every benchmark has it"
	done
done
# and that check can fail: peers is a flag some proc benchmarks lack
grep -qv '\(^\|, \)peers\(,\|$\)' "$T/flags.proc" || fail "every proc benchmark has peers?"
grep -q 'flag peers' "$T/intro.ipc" || fail "the ipc introduction no longer claims flag peers"

pm list quick --names
expect_status 0
expect_no_out '^fstat$' "fstat is not in quick"
expect_out '^fork$'

pm list --format man ipc
expect_status 0
expect_out '^\.\\" BEGIN generated: exercises$'
expect_out '^\.\\" BEGIN generated: ipc$'
expect_out '^bw\\-tcp	peers, net	net, switch$'
expect_no_out 'generated: proc'

pm list --format html
expect_status 2
expect_err "--format: 'html' is not one of text, man"
expect_one_line_error

pm list --names --format man
expect_status 2
expect_err "--names and --format man exclude each other"
expect_one_line_error

pm list nosuchgroup
expect_status 2
expect_err "unknown benchmark or group 'nosuchgroup'"
expect_one_line_error

finish
