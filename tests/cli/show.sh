#!/bin/sh
# pmbench show: table, detail, csv, json of a stored result file.
. "$TEST_LIB"

f="$TEST_DATA/result-quick.json"
pm show "$f"
expect_status 0
expect_out '^pmbench [0-9.]+ on '
expect_out '^benchmark +time/op +±95% +trials +sys% +task-clk +faults +ctxsw +migr'
expect_out '^fork +[0-9.]+ us'
expect_out '^page-fault '
expect_out 'cycles, instructions, icache, branch-misses: <not supported> no hardware PMU'

pm show -v "$f"
expect_status 0
expect_out '^fork: fork\+exit\+wait  \(lmbench proc: fork proc\)'
expect_out 'children included'

pm show --format csv "$f"
expect_status 0
expect_out '^benchmark,status,unit,median_ns,ci_low_ns,ci_high_ns,trials,value,event,event_status,per_op'
expect_out '^fork,ok,us,[0-9.e+]+,'

# json out = json in (validated round trip).
pm show --format json "$f"
expect_status 0
cp "$T/out" "$T/a.json"
pm show --format json "$T/a.json"
cmp -s "$T/out" "$T/a.json" || fail "show --format json is not stable"

# Two files: both shown.
pm show "$f" "$T/a.json"
expect_status 0
[ "$(grep -c '^== ' "$T/out")" -eq 2 ] || fail "two files, two headers"

pm show
expect_status 2
expect_err 'no result file given'

finish
