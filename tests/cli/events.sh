#!/bin/sh
# pmbench events: aliases, encodings here, whether they open.
. "$TEST_LIB"

pm events
expect_status 0
for a in cycles instructions branches branch-misses icache itlb dtlb llc-misses; do
	expect_out "^$a " "events lists alias $a"
done
expect_out '^task-clock +ok: perf::task-clock'
expect_out '^page-faults +ok: perf::page-faults'
if have_hw_pmu; then
	expect_out '^cycles +ok: '
else
	# No PMU (this VM): said so, with the reason, never a number.
	expect_out '^cycles +<not supported>$'
	# the reason once, for every event it stops
	expect_out '^not supported here: cycles, instructions, .*: no hardware PMU on this machine \(perf_event_open: ENOENT\)'
	[ "$(grep -c 'no hardware PMU' "$T/out")" -eq 1 ] || fail "the reason is said more than once"
	expect_out 'perf::cycles +hardware config=0 +opens: no \(ENOENT\)'
fi
# generic events always encode; the chosen candidate is marked
expect_out 'perf::L1-ICACHE-LOAD-MISSES +hw-cache config=0x10001'

pm events --no-open cycles
expect_status 0
expect_out '^cycles +encodes: '

pm events perf::page-faults
expect_status 0
expect_out '^perf::page-faults +ok: perf::page-faults'

pm events no_such_event_xyz
expect_status 2
expect_err "unknown event 'no_such_event_xyz'"
expect_one_line_error

# A broken alias file: exit 2, file and line named.
mkdir "$T/ev"
printf '[good]\nevent = perf::cycles\n[bad\n' > "$T/ev/x.events"
status=0
PMBENCH_EVENTS_DIR="$T/ev" "$PMBENCH" events >"$T/out" 2>"$T/err" || status=$?
expect_status 2 "malformed alias file"
expect_err "x.events:3: malformed section header"

finish
