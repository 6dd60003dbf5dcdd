#!/bin/sh
# pmbench list: every benchmark, its lmbench column, groups.
. "$TEST_LIB"

pm list
expect_status 0
for b in null null-io stat fstat open select sig-install sig-catch prot-fault \
	 fork exec sh pipe ctx page-fault mmap; do
	expect_out "^  $b " "list shows $b"
done
expect_out '^  null .*lmbench proc: null call'
expect_out '^  fork .*lmbench proc: fork proc'
expect_out '^  ctx .*lmbench ctx: 2p/0K'
expect_out '^  page-fault .*lmbench fs: Page Fault'
expect_out '^groups: proc \(16\), quick \([0-9]+\), all \(16\)'

pm list --names
expect_status 0
[ "$(wc -l < "$T/out")" -eq 16 ] || fail "list --names: expected 16 names"
[ "$(sort -u "$T/out" | wc -l)" -eq 16 ] || fail "list --names: names not unique"

pm list quick --names
expect_status 0
expect_no_out '^fstat$' "fstat is not in quick"
expect_out '^fork$'

pm list nosuchgroup
expect_status 2
expect_err "unknown benchmark or group 'nosuchgroup'"
expect_one_line_error

finish
