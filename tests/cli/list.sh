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

# every benchmark has its entry in pmbench-benchmarks(7), by name
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$page" > "$T/man7"
for b in $(cat "$T/out"); do
	grep -Eq "(^|[^a-z0-9-])$b([^a-z0-9-]|\$)" "$T/man7" ||
		fail "$b is not in pmbench-benchmarks(7)"
done
# and a made-up name is not found there: the check can fail
! grep -Eq "(^|[^a-z0-9-])no-such-bench([^a-z0-9-]|\$)" "$T/man7" ||
	fail "the man page check matches anything"

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
