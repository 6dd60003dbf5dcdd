#!/bin/sh
# Bad input: exit 2, one line naming the file or option, nothing half-written.
. "$TEST_LIB"

pm run nosuchbench
expect_status 2 "unknown benchmark"
expect_err "unknown benchmark or group 'nosuchbench' \(see 'pmbench list'\)"
expect_one_line_error

pm run --events cycles,bogus_event_zz null
expect_status 2 "unknown event"
expect_err "unknown event 'bogus_event_zz'"
expect_one_line_error

for bad in "--cpu 9999" "--cpu x" "--placement far" "--ci abc" "--max-trials 0" \
	   "--target-time -1" "--format xml" "--max-rounds 0" "--max-rounds x"; do
	# shellcheck disable=SC2086
	pm run $bad null
	expect_status 2 "run $bad"
	expect_err '^pmbench run: '
done
pm run --min-trials 50 --max-trials 10 null
expect_status 2
expect_err 'below --min-trials'
pm run --rounds 5 --max-rounds 3 null
expect_status 2
expect_err 'max-rounds 3 is below --rounds 5'
pm run --bogus-option null
expect_status 2
expect_err "unknown option '--bogus-option'"
pm run -o
expect_status 2
expect_err "needs a value"
# stat takes the same measuring options through the same parser
pm stat -e , -- true
expect_status 2 "stat -e ,"
expect_err "^pmbench stat: --events: ',' has an empty event name"
pm stat --format xml -- true
expect_status 2 "stat --format xml"
expect_err "^pmbench stat: --format: 'xml' is not one of table, json, csv"

# Numeric options are decimal, as documented, for every command: no hex
# (strtoul base 0, strtod), no overflow, sign, blanks, junk or empty.
# check_num CMD OPT VALUE KIND [ARGS...]: exit 2 and the one-line message
check_num() {
	cmd=$1 opt=$2 val=$3 kind=$4
	shift 4
	pm $cmd $opt "$val" "$@"
	expect_status 2 "$cmd $opt '$val'"
	re=$(printf '%s' "$val" | sed 's/[][\\.*^$+?(){}|]/\\&/g')
	expect_err "^pmbench $cmd: $opt: '$re' is not a $kind"
	[ ! -s "$T/out" ] || fail "$cmd $opt '$val': something ran"
}
for val in 0x10 99999999999999999999 -1 +5 " 5" 5x ""; do
	check_num run --rounds "$val" 'whole number in \[1, 1000\]$' null
	check_num run --freq "$val" 'whole number in \[1, 1000000\]$' null
	check_num stat --runs "$val" 'whole number in \[1, 1000000\]$' -- true
	check_num log -n "$val" 'whole number in \[1, 2147483647\]$'
	check_num ab --rounds "$val" 'whole number in \[1, [0-9]+\]$' --kernel /nonexistent a b
	check_num ab --seed "$val" 'whole number above 0$' a b
done
for val in 0x10 0x1p-3 inf nan 1e999 " 1" 1s ""; do
	check_num run --max-time "$val" 'decimal number in \[0, 86400\]$' null
	check_num run --ci "$val" 'decimal number in \[0.01, 100\]$' null
	check_num stat --max-time "$val" 'decimal number in \[0, 1e\+07\]$' -- true
	check_num stat --ci "$val" 'decimal number in \[0.01, 100\]$' -- true
	check_num explain --noise "$val" 'percentage in \[0, 100\)$' a b
	check_num explain --single-run-margin "$val" 'percentage in \[0, 1000\)$' a b
	check_num report --min-frame "$val" 'percentage in \[0, 100\)$' a
	check_num ab --max-time "$val" 'decimal number in \[[0-9.]+, [0-9.e+]+\]$' a b
done
expect_one_line_error
# decimal forms are taken: 1e-1 s, a leading zero (not octal)
pm run --max-time 1e-1 --rounds 01 --no-profile --no-counters --format csv -o "$T/dec.json" null
expect_status 0 "run --max-time 1e-1 --rounds 01"
expect_out '^null,ok,'

# Unwritable output: refused before any benchmark runs, nothing created.
pm run -o "$T/no/such/dir/r.json" null
expect_status 2 "unwritable -o"
expect_err "$T/no/such/dir/r.json"
expect_one_line_error
[ ! -e "$T/no" ] || fail "something was created for an unwritable path"
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$T/ro" && chmod 555 "$T/ro"
	pm run -o "$T/ro/r.json" null
	expect_status 2 "read-only directory"
fi
mkdir "$T/isdir.json"
pm run -o "$T/isdir.json" null
expect_status 2 "-o names a directory"
expect_err 'is a directory'

# Malformed result files: exit 2, file and JSON path named.
check_bad() {	# FILE EXPECTED-MESSAGE
	pm show "$TEST_DATA/$1"
	expect_status 2 "show $1"
	expect_err "$TEST_DATA/$1"
	expect_err "$2"
	expect_one_line_error
}
check_bad bad-truncated.json 'not valid JSON'
check_bad bad-not-object.json '\$: expected a JSON object'
check_bad bad-format.json '\$\.format: not a pmbench result file'
check_bad bad-schema.json '\$\.schema: schema version 99, but this pmbench reads version 1 \(written by a newer pmbench\)'
check_bad bad-trial-type.json '\$\.benchmarks\[0\]\.trials_ns\[2\]: expected a number, found a string'
check_bad bad-counter-status.json '\$\.benchmarks\[0\]\.counters\.events\[1\]\.status: unknown value "maybe"'
check_bad bad-stats-n.json '\$\.benchmarks\[0\]\.stats\.n: says 3 trials but trials_ns holds 2'
check_bad bad-duplicate.json '\$\.benchmarks\[1\]\.name: benchmark "null" appears twice'
check_bad bad-no-benchmarks.json '\$\.benchmarks: missing'
# types and ranges of what is read, not shown as "nan%" or "-"
share='\$\.benchmarks\[0\]\.hotspots\.symbols\[0\]\.share: expected a share in \[0, 1\], found a boolean$'
interval='\$\.benchmarks\[0\]\.stats\.ci_low_ns: 236\.9105832 is above median_ns \(233\.8815421\)$'
size='\$\.benchmarks\[1\]\.params\.bytes_per_op: -4096 is not a number >= 0$'
sysinfo='\$\.sysinfo: expected an object, found null$'
check_bad bad-share-type.json "$share"
check_bad bad-interval.json "$interval"
check_bad bad-negative-size.json "$size"
check_bad bad-sysinfo-null.json "$sysinfo"
# every command that reads results validates them the same way: explain
# (OLD, NEW, a directory of runs), report, log (which skips the file)
H="$XDG_DATA_HOME/pmbench/results"
mkdir -p "$T/side" "$H"
for f in share-type:"$share" interval:"$interval" negative-size:"$size" sysinfo-null:"$sysinfo"; do
	file="$TEST_DATA/bad-${f%%:*}.json" msg="${f#*:}"
	pm explain "$file" "$TEST_DATA/good-small.json"
	expect_status 2 "explain bad-${f%%:*}.json as OLD"
	expect_err "^pmbench: $file: $msg"
	pm explain "$TEST_DATA/good-small.json" "$file"
	expect_status 2 "explain bad-${f%%:*}.json as NEW"
	expect_err "^pmbench: $file: $msg"
	pm report -o "$T/r.html" "$file"
	expect_status 2 "report bad-${f%%:*}.json"
	expect_err "^pmbench: $file: $msg"
	[ ! -e "$T/r.html" ] || fail "report wrote $T/r.html from bad-${f%%:*}.json"
	cp "$file" "$T/side/" && cp "$file" "$H/"
done
cp "$TEST_DATA/good-small.json" "$T/side/"
pm explain "$T/side" "$TEST_DATA/good-small.json"
expect_status 0 "explain a directory with bad files"
for f in share-type interval negative-size sysinfo-null; do
	expect_out "^  warning \\(OLD\\): skipped $T/side/bad-$f.json: \\\$\\."
done
cp "$TEST_DATA/good-small.json" "$H/20260101T000000Z-good.json"
pm log
expect_status 0 "log past bad files"
expect_out '^@-4 +2026-12-02T16:37:46Z +6\.1\.0-test +fixture +null stat$'
expect_out '^\(5 runs in '
expect_err "^pmbench: warning: skipped $H/bad-sysinfo-null.json: $sysinfo"
[ "$(grep -c '^pmbench: warning: skipped' "$T/err")" -eq 4 ] || fail "log: not 4 files skipped"
rm -r "$H"

pm show "$T/does-not-exist.json"
expect_status 2
expect_err "$T/does-not-exist.json"

# A good file after a bad one: nothing printed for either.
pm show "$TEST_DATA/result-quick.json" "$TEST_DATA/bad-schema.json"
expect_status 2
[ ! -s "$T/out" ] || fail "show printed output before rejecting a bad file"

finish
