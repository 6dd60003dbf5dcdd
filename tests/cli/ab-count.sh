#!/bin/sh
# pmbench ab's emulated counts for real: an installed kernel booted twice
# under QEMU (TCG) with the counting plugin.  Each benchmark's marked
# windows must be its trials, null's instructions per operation must be
# the same in both boots, and its kernel profile must name the system
# call's own code.  Skipped without QEMU or an installed kernel with its
# modules; four boots, about two minutes.
. "$TEST_LIB"

QEMU=/usr/bin/qemu-system-x86_64
[ -x "$QEMU" ] || skip "no $QEMU (apt-get install qemu-system-x86)"
command -v jq >/dev/null 2>&1 || skip "no jq (apt-get install jq)"
K=
for k in /boot/vmlinuz-*; do
	r=${k#/boot/vmlinuz-}
	[ -r "$k" ] && [ -f "/lib/modules/$r/modules.dep" ] && K=$k && R=$r
done
[ -n "$K" ] || skip "no readable /boot/vmlinuz-* with /lib/modules (apt-get install linux-image-amd64)"
[ -r "$TEST_BUILDDIR/pmbench-tcg.so" ] || skip "no pmbench-tcg.so built"
mkdir "$T/tmp"
TMPDIR="$T/tmp"
export TMPDIR
# a TCG guest keeps a host CPU busy: not beside timing tests
exclusive_machine

pm ab --kernel "$K" --accel tcg --vcpus 1 --rounds 1 --budget 2b --max-time 0.2 \
	--rounds-per-boot 2 --duet off -o "$T/ab" -- null stat
expect_status 0 "pmbench ab --kernel $K"
if grep -q "no emulated counts" "$T/err"; then
	# this QEMU cannot load the plugin: ab must have said why, once
	[ "$(grep -c 'no emulated counts' "$T/err")" -eq 1 ] || fail "said more than once why"
	skip "$(grep 'no emulated counts' "$T/err")"
fi
expect_out "^emulated counts: every trial's instructions counted exactly"
for side in a b; do
	f="$T/ab/$side.json"
	jq -e '.sysinfo.hypervisor.counter | test("^pmbench-tcg.so ")' "$f" >/dev/null ||
		fail "$side.json: the fingerprint does not say what counted"
	jq -e '.options.ab.emulated_counts.plugin' "$f" >/dev/null ||
		fail "$side.json: options.ab does not name the plugin"
	for b in null stat; do
		# the windows the plugin saw are the run's trials, one for one
		w=$(jq ".benchmarks[] | select(.name == \"$b\") | .emulated.runs[0].windows" "$f")
		n=$(jq ".benchmarks[] | select(.name == \"$b\") | .stats.n" "$f")
		[ -n "$w" ] && [ "$w" = "$n" ] || fail "$side.json $b: $w marked windows for $n trials"
	done
	# null's kernel path named, the entry code too, nearly all of it
	jq -e '.benchmarks[] | select(.name == "null") | .emulated.kernel_profile.symbols |
		map(select(.name == "do_syscall_64" and .instructions >= 1)) | length == 1' \
		"$f" >/dev/null || fail "$side.json: null's kernel profile lacks do_syscall_64"
	jq -e '.benchmarks[] | select(.name == "null") | .emulated as $e |
		($e.kernel_profile | ([.symbols[].instructions] | add) + .other + .unknown) as $all |
		($e.runs[0].instructions.kernel - $e.runs[0].rep_iterations.kernel) as $k |
		($all / $k > 0.99 and $all / $k < 1.01 and $e.kernel_profile.unknown < 0.05 * $k)' \
		"$f" >/dev/null || fail "$side.json: null's kernel profile does not add up to its kernel instructions"
	jq -e '.benchmarks[] | select(.name == "null") | .emulated.runs[0].branches.user.far |
		. > 0.99 and . < 1.01' "$f" >/dev/null ||
		fail "$side.json: null does not make one syscall per operation"
done
# the same kernel twice: the same instructions per operation (user: the
# loop, whatever iterations a trial the host's speed gave it, and a few
# clock-read retries; kernel: the system call, plus what timer ticks add
# by the time, which a slower host makes more)
ratio() {
	jq -n --slurpfile a "$T/${3:-ab}/a.json" --slurpfile b "$T/${3:-ab}/b.json" \
		"[\$a[0], \$b[0]] | map(.benchmarks[] | select(.name == \"$1\") |
		 .emulated.runs[0].instructions.$2) | .[1] / .[0]"
}
# (the sanitizer's build: its instrumented user code took 13% more or
# fewer instructions an op of stat in one boot than in the other on the
# host's clock; on the emulated clock below it agrees, so only that is
# held to it there)
for b in null stat; do
	[ -z "${PMBENCH_SANITIZED:-}" ] || break
	for mode in user kernel; do
		v=$(ratio $b $mode)
		lim=0.02
		[ $mode = user ] && lim=0.01
		awk -v v="$v" -v l="$lim" 'BEGIN { exit !(v > 1 - l && v < 1 + l) }' ||
			fail "$b: $mode instructions per op of two boots of one kernel differ: B/A = $v"
	done
done
# --emulated-clock: the guests' time is their instructions, so the two
# boots calibrate alike and take the same timer ticks: the kernel's
# counts agree too, whatever the host's speed (0.02-0.07% measured)
pm ab --kernel "$K" --accel tcg --vcpus 1 --rounds 1 --budget 2b --max-time 0.2 \
	--rounds-per-boot 2 --duet off --emulated-clock -o "$T/clock" -- null stat
expect_status 0 "pmbench ab --emulated-clock"
expect_out "^emulated clock: the guests' clocks count instructions"
jq -e '.options.ab.emulated_clock == "icount shift=0,sleep=off"' "$T/clock/b.json" >/dev/null ||
	fail "b.json does not record the emulated clock"
for b in null stat; do
	for mode in user kernel; do
		v=$(ratio $b $mode clock)
		awk -v v="$v" 'BEGIN { exit !(v > 0.998 && v < 1.002) }' ||
			fail "--emulated-clock: $b: $mode instructions per op of two boots differ: B/A = $v"
	done
done
# every view says what the counts are
pm show -v "$T/ab/a.json"
expect_out "^  emulated counts per op \(1 boot; counted exactly in QEMU's emulated CPU .*not hardware counter values\):"
expect_out "do_syscall_64"
pm show --format csv "$T/ab/a.json"
expect_out "^null,ok,.*,emulated:instructions,emulated,"

finish
