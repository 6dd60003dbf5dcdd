#!/bin/sh
# pmbench explain on two pmbench stat results: NEW's workload runs a planted
# loop of system calls (reads of /dev/zero) on top of OLD's user-space work;
# explain must call it a regression and name kernel time as the cause.
. "$TEST_LIB"

: "${TEST_HELPERS:?TEST_HELPERS must point at the built test helpers}"
W="$TEST_HELPERS/workload"
# compares timings: no other test runs meanwhile
exclusive_machine

# Four invocations a side, taken in turns, so that a load that comes and
# goes hits both sides alike; the same name on both sides.  The planted
# loop costs about ten times the user-space work: far above the noise of
# a machine shared with other jobs.
mkdir "$T/old" "$T/new"
for i in 1 2 3 4; do
	"$PMBENCH" stat -q -r 3 -n work -o "$T/old/$i.json" \
		-- "$W" -c 2 -p 50 -u 40000000 2>>"$T/stat.err" ||
		fail "stat of OLD failed: $(cat "$T/stat.err")"
	"$PMBENCH" stat -q -r 3 -n work -o "$T/new/$i.json" \
		-- "$W" -c 2 -p 50 -u 40000000 -s 300000 2>>"$T/stat.err" ||
		fail "stat of NEW failed: $(cat "$T/stat.err")"
done

pm explain "$T/old" "$T/new"
expect_status 0 "explain of two stat sides"
expect_out 'OLD .*: 4 runs'
# (a pair whose probe says the host was busy may be left out)
expect_out '^work  REGRESSION  .* (4 vs 4 runs\)|3 vs 3 runs; 1 pair left out)'
# where: the kernel time grew, by more than the user time
line=$(grep -E '^    kernel [-+][0-9.]+ [mun]?s per op, user [-+][0-9.]+ [mun]?s per op \(split from samples\)' "$T/out")
[ -n "$line" ] || { fail "no user/kernel split from samples"; finish; }
to_ns() {	# "+416 ms" -> ns
	awk -v v="$1" -v u="$2" 'BEGIN { m = u == "s" ? 1e9 : u == "ms" ? 1e6 : u == "us" ? 1e3 : 1; print v * m }'
}
set -- $line
k=$(to_ns "$2" "$3")
u=$(to_ns "$7" "$8")
ge "$k" 1 || fail "the kernel time did not grow: $line"
awk -v k="$k" -v u="$u" 'BEGIN { exit !(k > u) }' || fail "the kernel share of the change is not the larger: $line"
# why: kernel time, first, naming a kernel symbol with its cost
expect_out '^    1\. \[(high|medium) [0-9.]+\] kernel time: The time went into the kernel: \+[0-9.]+ [mun]?s per op \([0-9]+% of work.s change\)'
expect_out "the kernel symbol that changed most is [a-z_0-9.]+ \\(\\[kernel\\]"
pm explain --format json "$T/old" "$T/new"
expect_status 0
expect_out '"verdict": "regression"'
expect_out '"rule": "kernel-time"'

# The sides against themselves: no regression.
pm explain "$T/old" "$T/old"
expect_status 0
expect_no_out '^work  (REGRESSION|IMPROVEMENT)'

finish
