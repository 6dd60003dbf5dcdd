#!/bin/sh
# help opens the manual page; CMD --help does the same.
. "$TEST_LIB"

command -v man >/dev/null 2>&1 || skip "man is not installed"
export MANPAGER=cat PAGER=cat MANWIDTH=80

pm help run
expect_status 0
expect_out 'PMBENCH-RUN\(1\)'
cp "$T/out" "$T/help-run"
pm run --help
expect_status 0
cmp -s "$T/out" "$T/help-run" || fail "'run --help' and 'help run' differ"

pm help
expect_status 0
expect_out 'PMBENCH\(1\)'

# every command 'pmbench -h' lists has a page that help and --help open
pm -h
cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$T/out")
[ -n "$cmds" ] || fail "pmbench -h lists no commands"
for topic in $cmds; do
	pm help "$topic"
	expect_status 0 "help $topic"
	expect_out "PMBENCH-$(echo "$topic" | tr a-z A-Z)\\(1\\)"
	cp "$T/out" "$T/help-topic"
	pm "$topic" --help
	expect_status 0 "$topic --help"
	cmp -s "$T/out" "$T/help-topic" || fail "'$topic --help' and 'help $topic' differ"
done
pm help events-file
expect_status 0
expect_out 'PMBENCH-EVENTS\(5\)'
pm help result
expect_status 0
expect_out 'PMBENCH-RESULT\(5\)'
pm help benchmarks
expect_status 0
expect_out 'PMBENCH-BENCHMARKS\(7\)'

pm help nosuchtopic
expect_status 2
expect_err "no manual page for 'nosuchtopic'"

finish
