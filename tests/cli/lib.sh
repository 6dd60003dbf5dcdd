# Small test library for pmbench's CLI tests (sourced by tests/cli/*.sh).
# Exit 0 pass, 1 fail, 77 skip (automake's convention).

set -u

: "${PMBENCH:?PMBENCH must point at the pmbench binary}"
: "${TEST_DATA:?TEST_DATA must point at tests/data}"

T=$(mktemp -d "${TMPDIR:-/tmp}/pmbench-test.XXXXXX")

# Tests that compare timings (explain) need the machine to themselves:
# every test holds this lock shared, exclusive_machine takes it alone.
LOCK="${TMPDIR:-/tmp}/pmbench-tests.lock"
if command -v flock >/dev/null 2>&1; then
	exec 9>>"$LOCK"
	flock -s 9
fi
exclusive_machine() {
	command -v flock >/dev/null 2>&1 || return 0
	flock -u 9
	flock -x 9
}
trap 'rm -rf "$T"' EXIT

# Runs without -o go to the result history: keep it in the scratch
# directory, and let nothing depend on (or write into) the real home.
XDG_DATA_HOME="$T/xdg-data"
HOME="$T/home"
mkdir -p "$HOME"
export XDG_DATA_HOME HOME
fails=0
checks=0

fail() {
	echo "FAIL: $*" >&2
	fails=$((fails + 1))
}

skip() {
	echo "SKIP: $*" >&2
	exit 77
}

# pm ARGS...: run pmbench, keep stdout/stderr/status in $T/out $T/err $status.
pm() {
	status=0
	"$PMBENCH" "$@" >"$T/out" 2>"$T/err" || status=$?
	checks=$((checks + 1))
}

expect_status() {
	if [ "$status" -ne "$1" ]; then
		fail "${2:-pmbench}: exit status $status, expected $1"
		sed 's/^/  stderr: /' "$T/err" | head -5 >&2
	fi
}

# expect_out REGEX [what]: stdout matches (grep -E).
expect_out() {
	grep -Eq -- "$1" "$T/out" || {
		fail "${2:-stdout} does not match /$1/"
		# the head, then every verdict line (a flaky verdict is often further down)
		{ head -20 "$T/out"; sed '1,20d' "$T/out" |
			grep -E '^([a-z0-9-]+  [A-Z]+|inconclusive|No |[a-z0-9-]+: would be)'; } |
			sed 's/^/  stdout: /' >&2
	}
}

expect_no_out() {
	! grep -Eq -- "$1" "$T/out" || fail "${2:-stdout} unexpectedly matches /$1/"
}

expect_err() {
	grep -Eq -- "$1" "$T/err" || { fail "${2:-stderr} does not match /$1/"; sed 's/^/  stderr: /' "$T/err" | head -5 >&2; }
}

# The error is one line (plus an optional usage synopsis line).
expect_one_line_error() {
	n=$(grep -c '^pmbench' "$T/err")
	[ "$n" -eq 1 ] || fail "expected one 'pmbench...' error line, got $n"
}

# csv_value BENCH EVENT COLUMN: a figure from 'pmbench show --format csv'.
# COLUMN: per_op user_per_op kernel_per_op running median_ns event_status
csv_value() {
	awk -F, -v b="$1" -v e="$2" -v c="$3" '
		NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
		$1 == b && $9 == e { print $col[c]; exit }' "$T/csv"
}

# allowed_cpu: a CPU this process may run on (the first of its allowed
# set), for --cpu; CI containers and `taskset -c N` confine tests to CPUs
# that need not include 0.
allowed_cpu() {
	awk '/^Cpus_allowed_list:/ { split($2, a, /[-,]/); print a[1]; exit }' /proc/self/status
}

# ge A B: A >= B as floating point.
ge() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 >= b + 0) }'
}

le() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a != "" && a + 0 <= b + 0) }'
}

have_hw_pmu() {
	for t in /sys/bus/event_source/devices/*/type; do
		[ "$(cat "$t" 2>/dev/null)" = 4 ] && return 0
	done
	return 1
}

finish() {
	if [ "$fails" -ne 0 ]; then
		echo "$fails of $checks checks failed" >&2
		exit 1
	fi
	echo "ok: $checks commands checked"
	exit 0
}
