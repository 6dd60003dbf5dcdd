#!/bin/sh
# Real runs explained, every explanation checked against its guarantees
# (pmbench-explain(1), GUARANTEES; explain --check exits 1 on a broken
# one): the same run twice, under a tracer (strace -f), under a seccomp
# filter that reads an argument, with an LD_PRELOAD delay, and a run
# stopped by Ctrl-C.  The tracer's run has ptrace as its first cause, the
# filter's seccomp.
. "$TEST_LIB"

: "${TEST_HELPERS:?TEST_HELPERS must point at the built test helpers}"

opts="--max-time 0.2 --rounds 7"
pm run $opts -o "$T/a.json" null stat
expect_status 0 "run A"
pm run $opts -o "$T/a2.json" null stat
expect_status 0 "run A again"

# explained PAIR...: explain --check of each pair in every format
explained() {
	for fmt in text json markdown csv; do
		pm explain --check --all --spread-from none --format "$fmt" "$1" "$2"
		[ "$status" -eq 0 ] || {
			fail "explain --check --format $fmt $1 $2: status $status"
			grep guarantee "$T/err" | sed 's/^/  /' >&2
		}
	done
	pm explain --format json --all --spread-from none "$1" "$2"
	cp "$T/out" "$T/last.json"
}

# first_cause BENCH: its first cause's rule, mechanism and sentence
first_cause() {
	jq -r --arg b "$1" '.benchmarks[] | select(.name == $b) | .causes[0] |
		"\(.rule) \(.mechanism) \(.sentence)"' "$T/last.json"
}
verdict_of() {
	jq -r --arg b "$1" '.benchmarks[] | select(.name == $b) | .verdict' "$T/last.json"
}

explained "$T/a.json" "$T/a2.json"
explained "$T/a2.json" "$T/a.json"

# Under a tracer: every system call stops for strace (LeakSanitizer
# cannot run under ptrace)
if [ -n "${PMBENCH_SANITIZED:-}" ]; then
	echo "note: the strace run is left out under the sanitizers (LeakSanitizer stops under ptrace)"
elif command -v strace >/dev/null 2>&1; then
	status=0
	strace -f -o /dev/null "$PMBENCH" run $opts -o "$T/traced.json" null stat \
		>"$T/out" 2>"$T/err" || status=$?
	expect_status 0 "run under strace -f"
	jq -e '.sysinfo.process.tracer == "strace"' "$T/traced.json" >/dev/null ||
		fail "the fingerprint does not name the tracer"
	explained "$T/a.json" "$T/traced.json"
	[ "$(verdict_of null)" = regression ] || fail "null under strace: $(verdict_of null)"
	case $(first_cause null) in
	*" ptrace "*) ;;
	*) fail "null under strace: first cause is not ptrace: $(first_cause null)" ;;
	esac
	# the experiment it suggests runs here, and proves the wrapper
	pm explain --spread-from none "$T/a.json" "$T/traced.json"
	sug=$(sed -n 's/.*the experiment that would prove it: \(pmbench ab --local .* -- null\)$/\1/p' \
		"$T/out" | head -n 1)
	[ -n "$sug" ] || fail "no runnable ab --local suggested under strace: $(grep 'experiment' "$T/out")"
	if [ -n "$sug" ]; then
		status=0
		eval "\"\$PMBENCH\" ab --duet off --rounds 2 --budget 60 --max-time 0.1 -o \"\$T/sug\" ${sug#pmbench ab}" \
			>"$T/out" 2>"$T/err" || status=$?
		expect_status 0 "the suggested experiment: $sug"
		pm explain --format json "$T/sug/a.json" "$T/sug/b.json"
		cp "$T/out" "$T/last.json"
		jq -e '.benchmarks[] | select(.name == "null") | .causes[0] |
			.mechanism == "ptrace" and .proof != null' "$T/last.json" >/dev/null ||
			fail "the suggested experiment did not prove ptrace: $(first_cause null)"
	fi
	explained "$T/traced.json" "$T/a.json"
else
	not_run="$not_run; strace (not installed)"
fi

# A seccomp filter that reads an argument (no cached verdict)
status=0
PM_SECCOMP_COPIES=24 "$TEST_HELPERS/seccomp-exec" "$PMBENCH" run $opts -o "$T/sec.json" null \
	>"$T/out" 2>"$T/err" || status=$?
if [ "$status" -eq 77 ]; then
	not_run="$not_run; seccomp filter ($(cat "$T/err"))"
else
	expect_status 0 "run under a seccomp filter"
	explained "$T/a.json" "$T/sec.json"
	[ "$(verdict_of null)" = regression ] || fail "null under seccomp: $(verdict_of null)"
	case $(first_cause null) in
	*seccomp*) ;;
	*) fail "null under seccomp: first cause is not seccomp: $(first_cause null)" ;;
	esac
fi

# A delay in user space in front of every system call
status=0
LD_PRELOAD="$TEST_HELPERS/libslowsyscall.so" "$PMBENCH" run $opts -o "$T/pre.json" null \
	>"$T/out" 2>"$T/err" || status=$?
expect_status 0 "run with an LD_PRELOAD delay"
explained "$T/a.json" "$T/pre.json"
explained "$T/pre.json" "$T/a.json"

# A run stopped by Ctrl-C keeps what it measured (a background job of a
# script starts with SIGINT ignored: put it back).  It prints nothing
# before it ends: its scratch directory says it has started and catches
# the signal; it runs some 25 s, stopped after its first benchmarks.
mkdir "$T/inttmp"
env --default-signal=INT TMPDIR="$T/inttmp" "$PMBENCH" run --max-time 2 -o "$T/int.json" \
	null stat open page-fault fork exec sh pipe >"$T/int.out" 2>"$T/int.err" &
pid=$!
i=0
while [ -z "$(ls "$T/inttmp")" ] && [ $i -lt 300 ]; do
	sleep 0.1
	i=$((i + 1))
done
sleep 3
kill -INT "$pid" 2>/dev/null
status=0
wait "$pid" || status=$?
expect_status 130 "run stopped by SIGINT"
grep -q 'interrupted' "$T/int.err" || fail "the stopped run does not say it was interrupted"
if [ -s "$T/int.json" ]; then
	explained "$T/int.json" "$T/a.json"
	explained "$T/a.json" "$T/int.json"
else
	fail "the interrupted run wrote no result file"
fi

[ -z "${not_run:-}" ] || [ "$fails" -ne 0 ] || skip "not run here:${not_run#;} (the other checks passed)"
finish
