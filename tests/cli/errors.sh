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

pm show "$T/does-not-exist.json"
expect_status 2
expect_err "$T/does-not-exist.json"

# A good file after a bad one: nothing printed for either.
pm show "$TEST_DATA/result-quick.json" "$TEST_DATA/bad-schema.json"
expect_status 2
[ ! -s "$T/out" ] || fail "show printed output before rejecting a bad file"

finish
