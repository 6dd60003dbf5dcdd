#!/bin/sh
# pmbench ab --local: A and B on this host in pairs, each side set up by
# its --setup command before every run of it and B wrapped by --wrap-b.
# B's wrapper plants a slowdown of several times null's cost (user work
# in front of each syscall, tests/helpers/slow-syscall.c): ab must call it
# a regression of null within its budget and point at the burn, and the
# experiment must say what differed.  Usage errors, a failing set-up and
# the clean-up too.  Asserts the verdict, not the size.
. "$TEST_LIB"

LIB="$TEST_HELPERS/libslowsyscall.so"
[ -f "$LIB" ] || skip "$LIB not built"
mkdir "$T/tmp"
TMPDIR="$T/tmp"
export TMPDIR
RUN="--rounds-per-boot 1 --max-time 0.2 --no-counters"

# ---- usage ----
pm ab --local --kernel /boot/vmlinuz -- null
expect_status 2 "--local with --kernel"
expect_one_line_error
pm ab --local --append-b quiet -- null
expect_status 2 "--local with --append-b"
pm ab --local --setup-a true --duet on -o "$T/u1" -- null
expect_status 2 "--duet on with a set-up command"
expect_err "setup"

# ---- a failing set-up ends the experiment, with its log named ----
pm ab --local --duet off --rounds 1 --budget 2b -o "$T/fail" --setup-b 'echo no such knob >&2; exit 3' \
	$RUN -- null
[ "$status" -ne 0 ] && [ "$status" -ne 2 ] || fail "a failing --setup-b: exit status $status, expected 1"
expect_err "console|log"
[ -z "$(ls -A "$T/tmp")" ] || fail "failing set-up: scratch left behind: $(ls "$T/tmp")"

# ---- a set-up that fails later ends it too, at once: no run after it ----
pm ab --local --duet off --rounds 3 --budget 20b -o "$T/later" --setup-a "echo a >> $T/later-runs" \
	--setup-b "test ! -e $T/flag || exit 3; touch $T/flag; echo b >> $T/later-runs" $RUN -- null
expect_status 1 "a set-up failing at B's second run"
expect_err "run b2 \(side B\) failed: the set-up command"
expect_err "stopping"
[ "$(grep -c . "$T/later-runs")" -le 3 ] ||
	fail "runs after the failed set-up: $(tr '\n' ' ' < "$T/later-runs")"
[ ! -e "$T/later/a.json" ] || fail "a.json written after a fatal run"

# ---- a planted slowdown on B: found, with the set-up run before each run ----
pm ab --local --duet off --seed 3 --rounds 2 --budget 90 -o "$T/ok" \
	--setup-a "echo a >> $T/setups" --setup-b "echo b >> $T/setups" \
	--wrap-b "env LD_PRELOAD=$LIB PM_TEST_BURN=3000" $RUN -- null
expect_status 0 "ab --local with a planted slowdown"
for f in a.json b.json report.txt; do
	[ -s "$T/ok/$f" ] || fail "no $f"
done
expect_out '^pairs: [0-9]+ in [0-9]+ s, A and B in turn'
# every run, of the sides and of the boots with a difference taken
# back, was preceded by one set-up (r1 takes B's set-up back to A's)
runs=$(ls "$T/ok/boots" | grep -c '\.json$')
sets=$(grep -c '^[ab]$' "$T/setups")
[ "$runs" -eq "$sets" ] || fail "$sets set-ups for $runs runs"
pairs=$(sed -n 's/.*"pairs": \([0-9]*\),.*/\1/p' "$T/ok/b.json" | head -n 1)
ge "${pairs:-0}" 2 || fail "pairs: ${pairs:-none}, expected at least --rounds 2"
grep -q '"local": true' "$T/ok/b.json" || fail "b.json: options.ab does not say local"
grep -q "\"wrap\": \"env LD_PRELOAD=$LIB PM_TEST_BURN=3000\"" "$T/ok/b.json" ||
	fail "b.json: B's wrapper not recorded"
# two differences (B's set-up and B's wrapper), each taken back in runs
# of its own: the wrapper is the proven cause, the set-up ruled out
expect_out '^differences: the set-up command of B .*; the wrapper of B '
pm explain --format csv "$T/ok/a.json" "$T/ok/b.json"
expect_status 0 "explain of the ab --local sides"
grep -q '^null,regression,.*,proven by experiment,' "$T/out" ||
	fail "null: not a regression proven by experiment: $(grep '^null' "$T/out")"
pm explain "$T/ok/a.json" "$T/ok/b.json"
expect_out '^    1\. \[high [0-9.]+\] proven by experiment: the wrapper of B \(env LD_PRELOAD=[^)]*\): taking it away removes [0-9]+% .* of null.s change \([0-9]+ runs\)'
expect_out 'ruled out by experiment: Taking the set-up command of B \(echo b'
expect_out 'pm_test_burn \(libslowsyscall.so'
[ -z "$(ls -A "$T/tmp")" ] || fail "scratch left behind: $(ls "$T/tmp")"

finish
