#!/bin/sh
# pmbench stat: a workload with known children, page faults and failures,
# asserted from the result file; several commands; output; Ctrl-C; usage.
. "$TEST_LIB"

: "${TEST_HELPERS:?TEST_HELPERS must point at the built test helpers}"
W="$TEST_HELPERS/workload"
[ -x "$W" ] || { echo "FAIL: $W not built" >&2; exit 1; }

# json_numbers FILE KEY: every value of "KEY": in a result file, in order.
json_numbers() {
	sed -n "s/^ *\"$2\": \\(-\\{0,1\\}[0-9][0-9.e+-]*\\),\\{0,1\\}\$/\\1/p" "$1"
}

# --- 4 children touching 300 pages each, 3 runs: counted in every child ---
pm stat -r 3 -o "$T/w.json" -- "$W" -c 4 -p 300
expect_status 0 "stat of the workload helper"
expect_out 'workload +3 runs'
expect_out '^  elapsed +[0-9.]+ [mun]?s  (±[0-9.]+%  \(99% CI |\(unbounded: too few runs to bound it, [0-9]+ runs; )'
expect_out '^  user +[0-9.]+ [mun]?s'
expect_out '^  system +[0-9.]+ [mun]?s'
expect_out '^    page-faults '
expect_out '^  hotspots: [0-9]+ samples'
pm show --format csv "$T/w.json"
expect_status 0
cp "$T/out" "$T/csv"
name="$W -c 4 -p 300"
[ "$(csv_value "$name" page-faults event_status)" = ok ] || fail "page-faults not counted"
faults=$(csv_value "$name" page-faults per_op)
ge "$faults" 1200 || fail "page faults per run $faults < 4 children x 300 pages: children not counted"
ge "$(csv_value "$name" task-clock per_op)" 1 || fail "no task-clock"
[ "$(awk -F, -v b="$name" '$1 == b { print $7; exit }' "$T/csv")" = 3 ] ||
	fail "not 3 trials (runs) in the result"
pm show --format json "$T/w.json"
cp "$T/out" "$T/w.pretty"
[ "$(json_numbers "$T/w.pretty" elapsed_ns | wc -l)" -eq 4 ] ||
	fail "not 3 timed runs and a sampled run with elapsed_ns"
for f in $(json_numbers "$T/w.pretty" minor_faults); do
	ge "$f" 1200 || fail "wait4: $f minor faults in a run, fewer than the children's 1200"
done
[ "$(json_numbers "$T/w.pretty" exit_status | sort -u)" = 0 ] || fail "exit statuses not all 0"
grep -q '"group": "workload"' "$T/w.pretty" || fail "group is not workload"
grep -q '"unit": "s"' "$T/w.pretty" || fail "unit is not s"
grep -q '"source": "stat"' "$T/w.pretty" || fail "source is not stat"
lost=$(json_numbers "$T/w.pretty" lost)
if [ "$lost" = 0 ]; then
	# the helper and its 4 children, no shell in between
	# (plus LeakSanitizer's tracer in a sanitizer build)
	np=$(json_numbers "$T/w.pretty" processes | tail -n 1)
	[ "$np" = 5 ] || { [ -n "${PMBENCH_SANITIZED:-}" ] && [ "$np" = 6 ]; } ||
		fail "the sampled run saw $(json_numbers "$T/w.pretty" processes | tail -n 1) processes, not 5"
fi
# one round per run, each with the machine-speed probe
[ "$(grep -c '"trials": 1,' "$T/w.pretty")" -eq 3 ] || fail "not one round per run"
# show, hotspots and folded stacks read it as they read a benchmark
pm show "$T/w.json"
expect_status 0
expect_out '^  elapsed '
expect_out '^  counters per run \(counted in 3 of the timed runs, children included\)'
pm show --hotspots "$T/w.json"
expect_status 0
expect_out '^  hotspots: [0-9]+ samples'
pm show --format folded "$T/w.json"
expect_status 0
expect_out "^$name;workload;.* [0-9]+\$"

# --- a failing command: its exit status and standard error, runs kept ---
pm stat -r 3 -o "$T/f.json" -- "$W" -c 1 -m 'planted failure' -x 3
expect_status 1 "a failing command"
expect_err "exit status 3 in run 1"
expect_err '  \| planted failure'
pm show --format json "$T/f.json"
expect_status 0 "the result of a failure is readable"
expect_out '"status": "failed"'
expect_out '"stderr_tail": "planted failure"'
expect_out '"exit_status": 3'
# --ignore-failure: every run counts, with its status
pm stat -r 3 --ignore-failure --no-profile -o "$T/g.json" -- "$W" -x 3
expect_status 0 "--ignore-failure"
expect_out 'failures +3 of 3 +runs exited non-zero'
pm show --format json "$T/g.json"
[ "$(grep -c '"exit_status": 3' "$T/out")" -eq 3 ] || fail "not 3 runs with exit status 3"
expect_out '"nonzero_runs": 3'
# a command that does not exist, a --prepare that fails
pm stat -r 2 -- pmbench-no-such-command
expect_status 1 "a missing command"
expect_err "cannot run: No such file or directory"
pm stat -r 2 --prepare 'echo prep-broke >&2; exit 4' -- true
expect_status 1 "a failing --prepare"
expect_err "--prepare 'echo prep-broke >&2; exit 4' failed before run 1: exit status 4"
expect_err '  \| prep-broke'

# --- --prepare before every run, --cleanup after the last ---
pm stat -r 3 --warmup 1 --prepare "echo p >> $T/log" --cleanup "echo c >> $T/log" -- true
expect_status 0
[ "$(tr -d '\n' < "$T/log")" = pppppc ] ||
	fail "prepare/cleanup ran as '$(tr -d '\n' < "$T/log")', not 1 warm-up + 3 + 1 sampled, then cleanup"

# --- output: hidden by default, passed through with --show-output ---
pm stat -r 2 --no-profile -- echo visible-output
expect_no_out '^visible-output$'
pm stat -r 2 --no-profile --show-output -- echo visible-output
[ "$(grep -c '^visible-output$' "$T/out")" -eq 2 ] || fail "--show-output did not pass the output through"

# --- several commands, in turns; the planted 30x difference is named ---
pm stat -r 4 --no-profile -e none -n light -n heavy -o "$T/two.json" \
	-- "$W" -u 1000000 -- "$W" -u 30000000
expect_status 0 "two commands"
expect_out "^summary "
expect_out "^  'light' is faster than 'heavy' by [0-9.]+x \(99% CI [0-9.]+x \.\. [0-9.]+x"
pm show --format json "$T/two.json"
json_numbers "$T/out" started_s > "$T/started"
# light's 4 rounds and 4 runs, then heavy's: taken as L H, H L, L H, H L
awk '{ v[NR] = $1 } END {
	L1 = v[1]; L2 = v[2]; L3 = v[3]; L4 = v[4]; H1 = v[9]; H2 = v[10]; H3 = v[11]; H4 = v[12]
	exit !(NR == 16 && L1 < H1 && H1 < H2 && H2 < L2 && L2 < L3 && L3 < H3 && H3 < H4 && H4 < L4)
}' "$T/started" || fail "the runs were not taken in turns: $(tr '\n' ' ' < "$T/started")"
# hyperfine-style quoted commands run through the shell; names unique
pm stat -r 2 --no-profile -o "$T/q.json" "$W -u 1000 | cat" "$W -u 1000 | cat"
expect_status 0 "quoted commands"
pm show --format json "$T/q.json"
expect_out "\"shell\": \"$W -u 1000 \\| cat\""
expect_out "\"name\": \"$W -u 1000 \\| cat #2\""

# --- no progress line unless standard error is a terminal ---
pm stat -r 2 --no-profile -- true
if grep -q "$(printf '\r')" "$T/err"; then fail "a progress line on a non-terminal"; fi
if command -v script >/dev/null 2>&1; then
	script -qec "$PMBENCH stat -r 2 --no-profile -- true" /dev/null > "$T/tty" 2>&1 ||
		fail "stat under script(1) failed"
	grep -Eq 'true  run 2/2  last [0-9.]+ [mun]?s  mean [0-9.]+ [mun]?s' "$T/tty" ||
		fail "no progress line on a terminal"
fi

# --- Ctrl-C: the finished runs are saved, the file says interrupted ---
marker="0.37$$"
"$PMBENCH" stat -r 100 --no-profile -o "$T/int.json" -- sleep "$marker" >"$T/out" 2>"$T/err" &
pid=$!
sleep 2
kill -INT "$pid"
status=0
wait "$pid" || status=$?
expect_status 130 "stat after SIGINT"
expect_err 'interrupted: [0-9]+ runs? finished'
sleep 0.2
pgrep -f "sleep $marker" >/dev/null 2>&1 && fail "the command was left running: $(pgrep -af "sleep $marker")"
pm show --format json "$T/int.json"
expect_status 0 "the interrupted result is readable"
expect_out '"interrupted": true'
n=$(json_numbers "$T/out" elapsed_ns | wc -l)
ge "$n" 1 || fail "no finished run kept"
le "$n" 6 || fail "$n runs in 2 s of 0.37 s runs"

# --- usage ---
pm stat
expect_status 2 "no command"
expect_err 'no command given'
pm stat true -r 3
expect_status 2 "an option after the commands"
expect_err "'-r' is not a command: options go before the commands"
pm stat --prepare a --prepare b --prepare c -- true -- false
expect_status 2 "three --prepare for two commands"
expect_err '--prepare given 3 times for 2 commands'
pm stat -r 0 -- true
expect_status 2 "-r 0"
pm stat -n a -n b -- true
expect_status 2 "two names for one command"
pm stat -e no-such-event-alias -- true
expect_status 2 "an unknown event"
pm stat -o /nonexistent-dir/x.json -- true
expect_status 2 "an -o in a missing directory"

finish
