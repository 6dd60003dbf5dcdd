#!/bin/sh
# Ctrl-C: children reaped, scratch removed, finished results saved.
# SIGKILL: the scratch directory left behind is removed by the next
# pmbench, and nothing of a live run or of another user.
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

# ---- SIGKILL leaves the scratch directory; the next pmbench removes it ----
# wait_scratch PID: until the pmbench PID has made its scratch directory
wait_scratch() {
	i=0
	while [ $i -lt 200 ] && ! ls -d "$T/tmp"/pmbench*."$1".* >/dev/null 2>&1; do
		sleep 0.05; i=$((i + 1))
	done
	ls -d "$T/tmp"/pmbench*."$1".* 2>/dev/null
}
Q="--max-time 0.05 --no-profile --no-counters --min-trials 3"
TMPDIR="$T/tmp" "$PMBENCH" run --label "$marker" --max-time 30 --no-profile null \
	>/dev/null 2>&1 &
killed=$!
killed_dir=$(wait_scratch $killed)
kill -KILL "$killed"
wait "$killed" 2>/dev/null
[ -n "$killed_dir" ] && [ -d "$killed_dir" ] ||
	fail "no scratch directory left by a SIGKILLed pmbench run (the test proves nothing)"
case $killed_dir in
*/pmbench."$killed".??????) ;;
*) fail "scratch directory $killed_dir is not pmbench.PID.XXXXXX" ;;
esac

# A live one (stat's), whose directory must stay.
TMPDIR="$T/tmp" "$PMBENCH" stat -r 1 --no-profile --no-counters -- sleep 30 \
	>/dev/null 2>&1 &
live=$!
live_dir=$(wait_scratch $live)
[ -n "$live_dir" ] || fail "the live run made no scratch directory"
touch "$live_dir/mine"
# PIDs no process has (pid_max is one past the largest)
gone=$(cat /proc/sys/kernel/pid_max)
mkdir -p "$T/tmp/pmbench.$gone.abcdef/sub"		# stale: removed, with
touch "$T/tmp/pmbench.$gone.abcdef/sub/file"		# what is in it
mkdir "$T/tmp/pmbench.$$.ghijkl"			# the PID of this shell: kept
mkdir "$T/tmp/pmbench.XyZ123"				# no PID (older pmbench): kept
mkdir "$T/elsewhere" && touch "$T/elsewhere/keep"
ln -s "$T/elsewhere" "$T/tmp/pmbench.$((gone - 1)).link00"	# a link: not followed
kept="$T/tmp/pmbench.$$.ghijkl $T/tmp/pmbench.XyZ123 $T/tmp/pmbench.$((gone - 1)).link00"
# another user's, as root: kept
if [ "$(id -u)" -eq 0 ] && mkdir "$T/tmp/pmbench.$((gone - 2)).other" &&
   chown 65534 "$T/tmp/pmbench.$((gone - 2)).other" 2>/dev/null; then
	kept="$kept $T/tmp/pmbench.$((gone - 2)).other"
fi
# locked by a live process whose PID this namespace cannot see: kept
if command -v flock >/dev/null 2>&1; then
	locked="$T/tmp/pmbench.$((gone - 3)).locked"
	mkdir "$locked"
	# the lock is held by the sleep itself: killing it frees the lock
	sh -c 'exec 8<"$1" && flock -x 8 && exec sleep 30' sh "$locked" &
	locker=$!
	i=0
	while [ $i -lt 200 ] && flock -n "$locked" true; do
		sleep 0.05; i=$((i + 1))
	done
	kept="$kept $locked"
fi

TMPDIR="$T/tmp" "$PMBENCH" run $Q -o "$T/after.json" null >/dev/null 2>"$T/err" ||
	fail "the run after the SIGKILL failed: $(cat "$T/err")"
checks=$((checks + 1))
[ ! -e "$killed_dir" ] || fail "the SIGKILLed run's $killed_dir was not removed"
[ ! -e "$T/tmp/pmbench.$gone.abcdef" ] || fail "a stale directory of a gone PID was not removed"
[ -f "$live_dir/mine" ] || fail "the live run's $live_dir was touched"
for d in $kept; do
	[ -e "$d" ] || [ -L "$d" ] || fail "$d was removed"
done
[ -f "$T/elsewhere/keep" ] || fail "a symbolic link was followed"
if [ -n "${locker:-}" ]; then
	kill "$locker" 2>/dev/null
	wait "$locker" 2>/dev/null
fi

# The live run still ends well and removes its own directory.
kill -INT "$live"
status=0
wait "$live" || status=$?
expect_status 130 "the live run after SIGINT"
[ ! -e "$live_dir" ] || fail "the live run left $live_dir"

finish
