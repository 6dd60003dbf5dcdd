#!/bin/sh
# pmbench run: the fork example from the README, output forms, result file.
. "$TEST_LIB"

# The implicit run: a bare benchmark name.
pm --events cycles,icache fork --max-time 1 -o "$T/fork.json"
expect_status 0 "pmbench --events cycles,icache fork"
expect_out '^fork: fork\+exit\+wait'
# the figure, its interval between rounds (or too wide to be one)
expect_out '^  time/op +[0-9.]+ (ns|us|ms)  (±[0-9.]+%  \(99% interval [0-9.]+ (ns|us|ms) \.\. [0-9.]+ (ns|us|ms) between [0-9]+ (rounds|trials)|\(unbounded: too few rounds to bound it).*; [0-9]+ trials in [0-9]+ rounds? x '
expect_out '^  figure: per run the geometric mean of the faster half of its rounds. medians; ±99%: interval between'
if have_hw_pmu; then
	expect_out '^    cycles +[0-9.]+[KMG]? +user '
else
	# one line for the events with one reason
	expect_out '^    cycles, icache: <not supported> no hardware PMU on this machine'
fi
expect_no_out '^    instructions' "only the events asked for"
# software counters: real values per op
expect_out '^    task-clock +[0-9.]+ (us|ms)$'
expect_out '^    page-faults +[0-9.]+'
expect_out 'children included'
expect_err "results written to $T/fork.json"
[ -s "$T/fork.json" ] || fail "no result file written"

# Same through "run", several benchmarks: a table.
pm run --max-time 0.3 --no-counters null stat
expect_status 0
expect_out '^benchmark +time/op +±99% +trials'
expect_out '^null +[0-9.]+ (ns|us|ms) '
expect_out '^stat +[0-9.]+ (ns|us|ms) '

# Groups expand; a benchmark named twice runs once.
pm run --max-time 0.2 --no-counters --format csv null null
expect_status 0
[ "$(grep -c '^null,' "$T/out")" -eq 1 ] || fail "null ran more than once"

# --format json on stdout is a result file show accepts.
pm run --max-time 0.2 --format json null
expect_status 0
expect_out '"format": "pmbench-result"'
cp "$T/out" "$T/null.json"
pm show "$T/null.json"
expect_status 0
expect_out '^null: getppid'

# The result file records trials, options, placement and the fingerprint.
pm show --format json "$T/fork.json"
expect_status 0
expect_out '"trials_ns": \['
expect_out '"inherit": true'
expect_out '"release": "'"$(uname -r)"'"'
expect_out '"events": \['

pm run --max-time 0.3 --placement spread --label two-cpus pipe -o "$T/pipe.json"
expect_status 0
pm show --format json "$T/pipe.json"
expect_out '"placement": "spread"'
expect_out '"label": "two-cpus"'
expect_out '"processes": 2'

# Scaling mode: N copies at once, throughput and efficiency per N.
pm run --no-counters --no-profile --max-time 0.2 --instances 1,2 -v null
expect_status 0 "--instances 1,2"
expect_out '^  scaling \(instances\):  1: [0-9.]+[KMG]? ops/s \(100%\),  2: [0-9.]+[KMG]? ops/s \([0-9]+%\)'
pm run --no-counters --no-profile --max-time 0.2 --threads 1,2 -v null sig-catch
expect_status 0 "--threads 1,2"
expect_out '^  scaling \(threads\):  1: [0-9.]+[KMG]? ops/s'
expect_out 'scaling \(threads\): not run: the benchmark uses process-wide state'
pm run --instances 1,x null
expect_status 2
expect_err "--instances: 'x' is not a whole number"
pm run --instances 2 --threads 2 null
expect_status 2
expect_err 'one scaling mode at a time'

finish
