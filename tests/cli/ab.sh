#!/bin/sh
# pmbench ab without QEMU: a stand-in (tests/helpers/fake-qemu) takes its
# arguments and hands results back, hangs or fails as told, so that the
# interleaving, the merge, the report, the timeouts, Ctrl-C and the
# clean-up are checked everywhere.  tests/cli/ab-boot.sh boots for real.
. "$TEST_LIB"

FAKE="${TEST_HELPERS:?}/fake-qemu"
[ -x "$FAKE" ] || skip "$FAKE not built"
RESULT="$TEST_DATA/good-small.json"
mkdir "$T/tmp"
TMPDIR="$T/tmp"
export TMPDIR

# A kernel image: only its setup header is read (release 9.9.9-pmbench-test,
# which has no modules or config here: the guest would use the serial port).
K="$T/vmlinuz"
head -c 4096 /dev/zero > "$K"
printf 'HdrS' | dd of="$K" bs=1 seek=514 conv=notrunc 2>/dev/null
printf '\000\003' | dd of="$K" bs=1 seek=526 conv=notrunc 2>/dev/null
printf '9.9.9-pmbench-test (test) #1' | dd of="$K" bs=1 seek=1280 conv=notrunc 2>/dev/null

no_scratch_left() {
	[ -z "$(ls -A "$T/tmp")" ] || fail "${1:-}: scratch left behind: $(ls "$T/tmp")"
}

dead() {
	pid=$(cat "$1" 2>/dev/null) || { fail "no pid file $1"; return; }
	# reaped: not even a zombie
	! kill -0 "$pid" 2>/dev/null || fail "fake QEMU $pid still there"
}

# ---- usage ----
pm ab
expect_status 2 "ab without --kernel"
expect_err "^pmbench ab: --kernel"
pm ab --kernel "$T/nonexistent" null
expect_status 2 "missing kernel"
expect_err "nonexistent"
expect_one_line_error
pm ab --kernel "$K" --qemu "$T/no-qemu" -o "$T/o1" null
expect_status 2 "missing --qemu"
expect_err "no-qemu"
pm ab --kernel "$TEST_DATA/good-small.json" --qemu "$FAKE" -o "$T/o2" null
expect_status 2 "not a kernel image"
expect_err "not an x86 kernel image"
pm ab --local --no-emulated-counts null
expect_status 2 "--local with --no-emulated-counts"
expect_err "emulated counts are for TCG guests"
expect_one_line_error
pm ab --kernel "$K" --no-emulated-counts --emulated-icache null
expect_status 2 "--emulated-icache without counts"
expect_one_line_error
pm ab --local --emulated-clock null
expect_status 2 "--local with --emulated-clock"
expect_err "emulated-clock is for TCG guests"
pm ab --kernel "$K" --accel kvm --emulated-clock null
expect_status 2 "--accel kvm with --emulated-clock"
expect_one_line_error
mkdir "$T/full"; : > "$T/full/x"
pm ab --kernel "$K" --qemu "$FAKE" -o "$T/full" null
expect_status 2 "non-empty output directory"
expect_err "not empty"
no_scratch_left "usage errors"

# Each pair is A and B in random order: the boots of pair N are aN and bN,
# one after the other.  pairs ORDERFILE: "a1b1 b2a2 ..." as taken.
pairs() {
	awk '{ p = p $0 } NR % 2 == 0 { printf "%s ", p; p = "" }' "$1"
}
in_pairs() {
	for p in $(pairs "$1"); do
		case $p in
		a[0-9]*b[0-9]*|b[0-9]*a[0-9]*) ;;
		*) fail "boot order $(tr '\n' ' ' < "$1"): $p is not a pair of A and B"; return ;;
		esac
		n=$(echo "$p" | tr -d 'ab' | cut -c1)
		[ "$(echo "$p" | tr -cd '0-9')" = "$n$n" ] || fail "pair $p: boots of two pairs"
	done
}

# ---- pairs of boots, merged sides, the report ----
# The fixture gives every boot the same figures: the same after the 3
# pairs the sequential rule needs at least, so --budget ends it at the 2
# pairs --rounds asks for.
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --rounds 2 --budget 4b --seed 7 -o "$T/ok" \
	--append "fake.order=$T/order" \
	--append-a "fake.result=$RESULT" --append-b "fake.result=$RESULT mitigations=off" \
	-- null stat
expect_status 0 "two fake boots per side"
[ "$(wc -l < "$T/order")" -eq 4 ] || fail "boots: $(tr '\n' ' ' < "$T/order"), expected 2 pairs"
in_pairs "$T/order"
expect_out '^pairs: 2 in [0-9]+ s, A and B in turn, in random order \(--duet off\)'
expect_out '^differences: the kernel argument mitigations=off of B$'
grep -q '"seed": 7' "$T/ok/b.json" || fail "b.json does not record the seed"
grep -q '"differences": \[' "$T/ok/b.json" || fail "b.json does not record the differences"
for f in a.json b.json report.txt boots/a1.json boots/b2.json console/a1.log console/b2.log; do
	[ -s "$T/ok/$f" ] || fail "no $f in the output directory"
done
expect_out '^accelerator: TCG'
expect_out 'emulation figures'
expect_out 'B = .*"fake.order=.* mitigations=off"'
expect_out 'pmbench explain'
cmp -s "$T/out" "$T/ok/report.txt" || fail "printed report differs from report.txt"
grep -q '"accelerator": "tcg"' "$T/ok/a.json" || fail "a.json does not name the accelerator"
grep -q '"emulated": true' "$T/ok/b.json" || fail "b.json does not say TCG is emulation"
grep -q '"cmdline": "console=ttyS0 panic=-1 rdinit=/init fake.order=' "$T/ok/b.json" ||
	fail "b.json lacks the kernel command line"
grep -q '"label": "B"' "$T/ok/b.json" || fail "b.json is not labelled B"
expect_err "result over the virtio disk"
# a QEMU that cannot load the counting plugin: said once, then time alone
expect_err "no emulated counts: .*fake-qemu cannot load .*pmbench-tcg.so: .*the experiment goes on time alone"
[ "$(grep -c 'emulated counts' "$T/err")" -eq 1 ] ||
	fail "the plugin that cannot load: said $(grep -c 'emulated counts' "$T/err") times"
expect_out '^emulated counts: none \(.*cannot load'
grep -q '"emulated_counts": {' "$T/ok/a.json" || fail "a.json does not say why there are no counts"
# each side: two runs (boots), each with the rounds of the fixture
pm explain --format json "$T/ok/a.json" "$T/ok/b.json"
expect_status 0 "explain of the merged sides"
grep -q '"runs_old": 2' "$T/out" || fail "a.json should hold 2 runs (boots)"
grep -q '"runs_new": 2' "$T/out" || fail "b.json should hold 2 runs (boots)"
no_scratch_left "a good run"
# the same seed, the same order
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --rounds 2 --budget 4b --seed 7 -q -o "$T/ok2" \
	--append "fake.order=$T/order2" \
	--append-a "fake.result=$RESULT" --append-b "fake.result=$RESULT mitigations=off" \
	-- null stat
cmp -s "$T/order" "$T/order2" || fail "--seed 7 twice: $(tr '\n' ' ' < "$T/order2")"
! grep -q 'emulated counts' "$T/err" || fail "-q said why there are no emulated counts"
[ ! -s "$T/out" ] || fail "-q printed a report"

# ---- --exit-code, for git bisect run: 0 same or better, 1 regression,
# 125 undecided or failed, 128 a usage error ----
command -v jq >/dev/null || skip "no jq (apt-get install jq)"
jq '(.benchmarks[] | select(.name == "null")) |= (.trials_ns |= map(. * 1.5) |
	.stats |= with_entries(if (.key | endswith("_ns")) then .value *= 1.5 else . end))' \
	"$RESULT" > "$T/slow.json"
bisect() {	# bisect STATUS WHAT B-RESULT [OPTIONS...]
	want=$1 what=$2 b=$3
	shift 3
	pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off -q --exit-code --seed 5 \
		--append-a "fake.result=$RESULT" --append-b "fake.result=$b" "$@" -- null
	expect_status "$want" "--exit-code: $what"
}
bisect 0 "the same" "$RESULT" --rounds 3 --budget 8b -o "$T/bs-same"
grep -q '"verdict": "same"' "$T/bs-same/a.json" || fail "--exit-code 0 without a verdict of same"
bisect 1 "a regression" "$T/slow.json" --rounds 3 --budget 8b -o "$T/bs-regr"
grep -q '"verdict": "regression"' "$T/bs-regr/a.json" || fail "--exit-code 1 without a regression"
bisect 0 "an improvement" "$RESULT" --rounds 3 --budget 8b -o "$T/bs-impr" \
	--append-a "fake.result=$T/slow.json"
grep -q '"verdict": "improvement"' "$T/bs-impr/a.json" || fail "--exit-code 0 without an improvement"
bisect 125 "undecided" "$RESULT" --rounds 1 --budget 2b -o "$T/bs-open"
grep -q '"verdict": "unknown"' "$T/bs-open/a.json" || fail "--exit-code 125 without an unknown verdict"
bisect 125 "a boot that fails" "$RESULT" --rounds 1 --timeout 2 -o "$T/bs-fail" --append "fake.hang"
bisect 128 "a usage error" "$RESULT" --rounds 0 -o "$T/bs-usage"
no_scratch_left "--exit-code"

# ---- knock-outs: two images, the moved code's mechanism switched off on
# both sides.  The boots (tests/data/explain/knockout, generate.py): stat
# 15 us on A, 6 us on B, most of it the slab allocator's; with
# init_on_alloc=0 6.4 and 5.9 us.  The candidate comes from that code, the
# arms boot with the argument, the share is recorded and proves it. ----
KO="$TEST_DATA/explain/knockout"
cp "$K" "$T/vmlinuz-a"
cp "$K" "$T/vmlinuz-b"
printf 'b' >> "$T/vmlinuz-b"
pm ab --kernel "$T/vmlinuz-a" --kernel-b "$T/vmlinuz-b" --qemu "$FAKE" --accel tcg --duet off \
	--rounds 3 --budget 8b --seed 11 -o "$T/ko" \
	--append "fake.result=$KO/@%.json fake.if=init_on_alloc=0:$KO/k@%.json fake.order=$T/ko-order" \
	-- stat null
expect_status 0 "ab with a knock-out"
expect_out '^differences: the kernel image .*vmlinuz-b of B'
expect_out '^knock-outs on both sides: [0-9]+ blocks of A, B and each in [0-9]+ s: init_on_alloc=0 \(the slab allocator'
grep -q 'k1a-' "$T/ko-order" || fail "no boot of A with the knock-out: $(tr '\n' ' ' < "$T/ko-order")"
grep -q 'k1b-' "$T/ko-order" || fail "no boot of B with the knock-out"
[ -s "$T/ko/k1a-.json" ] && [ -s "$T/ko/k1b-.json" ] || fail "no result files of the knock-out arms"
grep -q '"cmdline": "console=ttyS0 panic=-1 rdinit=/init fake.* init_on_alloc=0"' "$T/ko/k1b-.json" ||
	fail "k1b-.json: not booted with init_on_alloc=0"
jq -e '.options.ab.experiment.knockouts.results[0] | .argument == "init_on_alloc=0" and
	.mechanism == "slab" and .benchmarks.stat.removed > 0.7 and .benchmarks.stat.low > 0.5' \
	"$T/ko/a.json" >/dev/null || fail "a.json: the knock-out's share of stat is not recorded"
jq -e '.options.ab.experiment.knockouts.candidates | map(select(.argument == "init_on_free=0"))[0] |
	.tried == false and (.skipped | test("CONFIG_INIT_ON_FREE_DEFAULT_ON"))' "$T/ko/a.json" >/dev/null ||
	fail "init_on_free=0 is tried although neither kernel zeroes on free"
# explain from the files alone: the slab allocator proven by its share
pm explain "$T/ko/a.json" "$T/ko/b.json"
expect_status 0 "explain of the knock-out's sides"
expect_out '^    1\. \[high 0\.9[6-9]\] the slab allocator \(SLUB\): Proven by knock-out: switching it off on both sides \(init_on_alloc=0\) removes [0-9]+% \(99% CI'
no_scratch_left "knock-outs"

# ---- build trees as sides: --kernel DIR boots DIR/arch/x86/boot/bzImage,
# its .config goes to the guest's fingerprint, virtio built in needs no
# modules (the result comes back over the disk), git describe recorded ----
for t in ta tb; do
	mkdir -p "$T/$t/arch/x86/boot"
	cp "$K" "$T/$t/arch/x86/boot/bzImage"
	printf 'CONFIG_VIRTIO_PCI=y\nCONFIG_VIRTIO_BLK=y\nCONFIG_PREEMPT_%s=y\n' \
		"$([ $t = ta ] && echo NONE || echo VOLUNTARY)" > "$T/$t/.config"
done
printf 'b' >> "$T/tb/arch/x86/boot/bzImage"
if command -v git >/dev/null; then
	git -C "$T/tb" init -q && git -C "$T/tb" add .config &&
	git -C "$T/tb" -c user.name=t -c user.email=t@t commit -qm t && git -C "$T/tb" tag v9.9
fi
pm ab --kernel "$T/ta" --kernel-b "$T/tb/arch/x86/boot/bzImage" --qemu "$FAKE" --accel tcg --duet off \
	--rounds 1 --budget 2b --knockouts 0 -o "$T/trees" --append "fake.result=$RESULT" -- null
expect_status 0 "two build trees"
expect_out "^pmbench ab: A = $T/ta/arch/x86/boot/bzImage \\(9.9.9-pmbench-test, built in $T/ta\\)"
! grep -q "comes back over the serial port" "$T/err" ||
	fail "a tree with virtio built in: $(grep 'comes back over the serial port' "$T/err")"
expect_err "result over the virtio disk"
jq -e --arg t "$T/ta" '.options.ab.tree.path == $t' "$T/trees/a.json" >/dev/null ||
	fail "a.json: options.ab.tree does not name $T/ta"
if command -v git >/dev/null; then
	jq -e '.options.ab.tree.describe == "v9.9"' "$T/trees/b.json" >/dev/null ||
		fail "b.json: the tree's git describe is not recorded"
fi

# ---- the serial port when there is no disk ----
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --rounds 1 -q -o "$T/serial" \
	--append "fake.result=$RESULT fake.serial" null stat
expect_status 0 "hand-back over the serial port"
[ -s "$T/serial/a.json" ] || fail "no a.json from the serial port"

# ---- a boot that never powers off ----
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --timeout 2 -o "$T/hang" \
	--append "fake.hang fake.pidfile=$T/hang.pid" null
expect_status 1 "a hanging guest"
expect_err "boot [ab]1 \(side [AB]\) failed: no power-off within 2 s"
expect_err '\| \[    0.000000\] Linux version 9.9.9-fake'
expect_err "first boot failed: stopping"
dead "$T/hang.pid"
[ ! -e "$T/hang/a.json" ] || fail "a.json written although no boot came back"
no_scratch_left "a timeout"

# ---- a later boot fails: reported, its pair taken again, the report made ----
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --rounds 2 --budget 6b --timeout 2 \
	-o "$T/later" --append "fake.result=$RESULT fake.hang-tag=a2" null stat
expect_status 1 "one of six boots hangs"
expect_err "boot a2 \(side A\) failed"
expect_err "1 of 6 runs failed"
[ -s "$T/later/report.txt" ] || fail "no report from the boots that came back"
# the failed pair is left out whole: two pairs, each side two boots
grep -q '"boots": 2' "$T/later/a.json" || fail "a.json should merge its two boots"
grep -q '"boots": 2' "$T/later/b.json" || fail "b.json should merge its two boots"

# ---- the guest's pmbench rejects its arguments: no point going on ----
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off -o "$T/usage" --append "fake.status=2" null
expect_status 1 "guest usage error"
expect_err "rejected its arguments"
[ "$(grep -c 'boot .* failed' "$T/err")" -eq 1 ] || fail "stopped after the first boot?"

# ---- KVM asked for, and the kernel never talks: reported, not retried ----
pm ab --kernel "$K" --qemu "$FAKE" --accel kvm --duet off --rounds 1 --timeout 60 -o "$T/kvm" \
	--append "fake.silent fake.pidfile=$T/kvm.pid" null
expect_status 1 "a silent KVM guest"
expect_err "no kernel output on the console within 10 s"
dead "$T/kvm.pid"

# ---- auto: a host where KVM looks usable, a kernel KVM cannot run (PVM
# runs only its own guests): every boot again under TCG ----
mkdir -p "$T/host/dev" "$T/host/proc" "$T/host/sys/module/kvm_intel"
: > "$T/host/dev/kvm"
printf 'processor\t: 0\nflags\t\t: fpu vme vmx sse2\n' > "$T/host/proc/cpuinfo"
PMBENCH_AB_HOST_ROOT="$T/host" pm ab --kernel "$K" --qemu "$FAKE" --duet off --rounds 2 --budget 5b \
	-o "$T/fallback" \
	--append "fake.kvm-silent fake.result=$RESULT fake.order=$T/fb-order" null stat
expect_status 0 "KVM falls back to TCG"
expect_err "accelerator kvm \(/dev/kvm with kvm_intel\)"
expect_err "boot [ab]1: KVM does not run this kernel \(no kernel output on the console within 10 s\): falling back to TCG for every boot"
# one boot under KVM, then two pairs under TCG; both sides on TCG only
[ "$(wc -l < "$T/fb-order")" -eq 5 ] ||
	fail "boots with the fallback: $(tr '\n' ' ' < "$T/fb-order"), expected one under KVM, then 2 pairs"
sed 1d "$T/fb-order" > "$T/fb-tcg"
in_pairs "$T/fb-tcg"
for side in a b; do
	grep -q '"accelerator": "tcg"' "$T/fallback/$side.json" || fail "$side.json: not TCG"
	grep -q '"accelerator_reason": "KVM could not run the guest kernel"' \
		"$T/fallback/$side.json" || fail "$side.json: no reason for TCG"
	grep -q '"boots": 2' "$T/fallback/$side.json" || fail "$side.json: not its 2 TCG boots"
done
expect_out '^accelerator: TCG \(KVM could not run the guest kernel\)'
no_scratch_left "the fallback"

# ---- Ctrl-C: QEMU killed and reaped, scratch removed, nothing written ----
status=0
"$PMBENCH" ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --timeout 60 -o "$T/int" \
	--append "fake.hang fake.pidfile=$T/int.pid" null >"$T/out" 2>"$T/err" &
ab=$!
i=0
while [ ! -s "$T/int.pid" ] && [ $i -lt 100 ]; do sleep 0.1; i=$((i + 1)); done
kill -INT $ab
wait $ab || status=$?
checks=$((checks + 1))
expect_status 130 "Ctrl-C"
expect_err "interrupted"
dead "$T/int.pid"
[ ! -e "$T/int/a.json" ] || fail "a.json written after Ctrl-C"
no_scratch_left "Ctrl-C"

# ---- Ctrl-C after two pairs: they are written and the same command
# continues the experiment; another command is told how they differ ----
echo a3 > "$T/hang-on"
rm -f "$T/res.pid"
status=0
"$PMBENCH" ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --rounds 4 --budget 8b \
	--timeout 60 -o "$T/res" --append "fake.result=$RESULT fake.hang-tag-in=$T/hang-on" \
	--append-b "fake.pidfile=$T/res.pid" null >"$T/out" 2>"$T/err" &
ab=$!
i=0
while [ ! -e "$T/res/console/a3.log" ] && [ $i -lt 300 ]; do sleep 0.1; i=$((i + 1)); done
sleep 0.3
kill -INT $ab
wait $ab || status=$?
checks=$((checks + 1))
expect_status 130 "Ctrl-C after two pairs"
expect_err "interrupted: QEMU stopped; the 2 pairs kept so far are in $T/res/a.json and $T/res/b.json .*the same command with -o $T/res continues the experiment"
jq -e '.options.ab.boots == 2 and .options.ab.experiment.interrupted == true' "$T/res/b.json" \
	>/dev/null || fail "b.json after Ctrl-C: not the 2 boots kept, or not marked interrupted"
jq -e '.pairs == [["a1","b1"],["a2","b2"]] and .finished == false' "$T/res/ab-state.json" \
	>/dev/null || fail "the journal does not hold the two pairs: $(tr -d '\n ' < "$T/res/ab-state.json")"
no_scratch_left "Ctrl-C after two pairs"
cp -r "$T/res" "$T/res2"
# another command on that directory: refused, with what differs and how to go on
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --rounds 4 --budget 8b \
	-o "$T/res2" --append "fake.result=$RESULT fake.hang-tag-in=$T/hang-on" null
expect_status 2 "another command on an interrupted experiment"
expect_err "holds an interrupted experiment of another command \\(B.append is \"fake.result=.* fake.pidfile=.*\" there, \"fake.result=[^ ]* fake.hang-tag-in=[^ ]*\" in this command\\): the same command continues it"
# the same command: the two pairs kept, two more, numbered after the stopped boot
echo none > "$T/hang-on"
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off --rounds 4 --budget 8b \
	--timeout 60 -o "$T/res" --append "fake.result=$RESULT fake.hang-tag-in=$T/hang-on" \
	--append-b "fake.pidfile=$T/res.pid" null
expect_status 0 "the same command after Ctrl-C"
expect_err "^pmbench ab: continuing the experiment in $T/res: 2 pairs kept"
expect_out '^pairs: 4 in '
jq -e '.options.ab.boots == 4 and (.options.ab.experiment.interrupted // false) == false' \
	"$T/res/a.json" >/dev/null || fail "a.json: not 4 boots after continuing"
# (b3 ran before a3 hung, or never started: B goes on at b4 or b3)
ls "$T/res/boots" | tr '\n' ' ' | grep -Eqx 'a1.json a2.json a4.json a5.json b1.json b2.json (b3.json b4.json|b4.json b5.json) ' &&
	[ -e "$T/res/console/a3.log" ] ||
	fail "the continued runs are not numbered after the stopped one: $(ls "$T/res/boots" | tr '\n' ' ')"
jq -e '.finished == true and (.pairs | length) == 4' "$T/res/ab-state.json" >/dev/null ||
	fail "the journal is not finished with 4 pairs"
pm ab --kernel "$K" --qemu "$FAKE" --accel tcg --duet off -o "$T/res" \
	--append "fake.result=$RESULT" null
expect_status 2 "a finished experiment's directory"
expect_err "holds a finished experiment \\(its report: $T/res/report.txt\\); give a new or empty directory"

finish
