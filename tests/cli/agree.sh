#!/bin/sh
# make selfcheck's harness (tests/perf/agree.c): its judge on planted
# ratios, and one real run of pmbench against its reference loop.
. "$TEST_LIB"
A="$TEST_BUILDDIR/tests/perf/agree"
P="$TEST_BUILDDIR/tests/perf/plain-loops"
[ -x "$A" ] && [ -x "$P" ] || { echo "SKIP: agree or plain-loops not built"; exit 77; }

# lines of 15 processes: name pmbench-ns ref-ns ratio
plant() {	# plant NAME CENTRE SPREAD: 15 ratios CENTRE +- SPREAD
	awk -v n="$1" -v c="$2" -v s="$3" 'BEGIN {
		for (i = 0; i < 15; i++) printf "%s 100 100 %.5f\n", n, c + s * (i - 7) / 7 }'
}

# within: 1.00 +- 0.01; MISS: 1.10; UNSURE: 1.00 +- 0.2 (inside, too wide)
{ plant good 1.00 0.01; plant slow 1.10 0.01; plant noisy 1.00 0.2; } > "$T/lines"
status=0
"$A" judge 0.03 "$T/lines" > "$T/out" 2> "$T/err" || status=$?
[ "$status" -eq 1 ] || fail "judge: exit status $status, expected 1 (a miss)"
grep -Eq '^good +15 .* within$' "$T/out" || fail "judge: 1.00+-0.01 is not within"
grep -Eq '^slow +15 .* 1\.100 .* MISS$' "$T/out" || fail "judge: 1.10 is not a MISS"
grep -Eq '^noisy +15 .* UNSURE$' "$T/out" || fail "judge: 1.00+-0.2 is not UNSURE"
plant good 1.00 0.01 > "$T/good"
status=0
"$A" judge 0.03 "$T/good" > "$T/out" 2>&1 || status=$?
[ "$status" -eq 0 ] || fail "judge: exit status $status when all are within"

# bad input: exit 2 and a message naming the file
printf 'null 1 2\n' > "$T/bad"
status=0
"$A" judge 0.03 "$T/bad" > "$T/out" 2> "$T/err" || status=$?
[ "$status" -eq 2 ] || fail "judge: exit status $status on a malformed file, expected 2"
grep -q "$T/bad" "$T/err" || fail "judge: the message does not name the file"

# a real run: pmbench's null and stat against the reference's, in one
# process, paired trials (stat's reference on pmbench's own file); the
# ratios are numbers near 1 (not judged: this is a test, not the
# self-check), and the scratch directories are gone afterwards
status=0
TMPDIR="$T" "$A" run "$P" "$PMBENCH_LIBEXECDIR/pmbench-hello" \
	"$PMBENCH_LIBEXECDIR/pmbench-spawner" "$(allowed_cpu)" 0.1 null stat > "$T/run" 2> "$T/err" ||
	status=$?
[ "$status" -eq 0 ] || fail "run: exit status $status: $(cat "$T/err")"
for b in null stat; do
	awk -v b="$b" '$1 == b && $2 > 0 && $3 > 0 && $4 > 0.5 && $4 < 2 { ok = 1 }
		END { exit !ok }' "$T/run" ||
		fail "run: no line '$b ns ns ratio' with a ratio near 1: $(cat "$T/run")"
done
[ -z "$(find "$T" -maxdepth 1 -name 'pmbench.*')" ] || fail "run: scratch directory left behind"
finish
