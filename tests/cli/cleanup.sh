#!/bin/sh
# Ctrl-C: children reaped, scratch removed, finished results saved.
. "$TEST_LIB"

mkdir "$T/tmp"
marker="cleanup-$$"
# page-fault has a 64 MiB scratch file; pipe and ctx have helper processes.
TMPDIR="$T/tmp" "$PMBENCH" run --label "$marker" --max-time 2 \
	-o "$T/partial.json" null pipe page-fault ctx >"$T/out" 2>"$T/err" &
pid=$!
# wait until it works on the benchmarks with a scratch file or peers
i=0
while [ $i -lt 100 ] && ! ls "$T/tmp"/pmbench.*/* >/dev/null 2>&1; do
	sleep 0.05; i=$((i + 1))
done
sleep 0.3
kill -INT "$pid"
status=0
wait "$pid" || status=$?
checks=1
expect_status 130 "pmbench after SIGINT"
expect_err 'interrupted: [0-9]+ of 4 benchmarks done'
[ -z "$(ls -A "$T/tmp")" ] || fail "scratch left behind: $(ls -A "$T/tmp")"
sleep 0.2
if pgrep -f "$marker" >/dev/null 2>&1; then
	fail "processes left behind: $(pgrep -af "$marker")"
fi
# What finished is kept.
pm show "$T/partial.json"
expect_status 0 "partial results readable"
expect_out '^(null|benchmark)'

# A normal run leaves nothing either.
TMPDIR="$T/tmp" "$PMBENCH" run --label "$marker" --max-time 0.2 pipe mmap \
	>/dev/null 2>&1 || fail "pipe mmap run failed"
[ -z "$(ls -A "$T/tmp")" ] || fail "scratch left behind after a normal run"
pgrep -f "$marker" >/dev/null 2>&1 && fail "processes left behind after a normal run"

finish
