#!/bin/sh
# pmbench export: the command around the KCIDB writer, whose output
# tests/unit/test-kcidb checks field by field against the schema: the
# origin the user names (required, checked), one or two sides, -o
# written atomically, the same ids for the same files, usage errors.
. "$TEST_LIB"

K="$TEST_DATA/kcidb"

# no origin, a bad one, a bad version or format, the wrong arguments
pm export "$K/old.json"
expect_status 2 "no --origin"
expect_err '--origin NAME is required'
expect_one_line_error
pm export --origin My-Lab "$K/old.json"
expect_status 2 "a bad origin"
expect_err "--origin: 'My-Lab' is not a KCIDB origin \(lower-case letters, digits and '_'\)"
pm export --origin lab --kcidb-version 3 "$K/old.json"
expect_status 2
expect_err "--kcidb-version: '3' is not 4 or 5"
pm export --origin lab --format json "$K/old.json"
expect_status 2
expect_err "--format: 'json' is not one of kcidb"
pm export --origin lab
expect_status 2
expect_err 'expected RESULT, or OLD and NEW; got 0 arguments'
pm export --origin lab "$K/old.json" "$K/new.json" "$K/old.json"
expect_status 2
pm export --origin lab "$T/nosuch.json"
expect_status 2 "a missing file"
expect_err 'nosuch.json'
expect_one_line_error
pm export --origin lab "$K/old.json" "$K/old.json"
expect_status 2 "OLD and NEW the same file"
expect_err 'nothing to compare'
cp "$K/old.json" "$T/copy.json"
pm export --origin lab --spread-from none "$K/old.json" "$T/copy.json"
expect_status 2 "OLD and NEW the same runs in two files"
expect_err 'hold the same runs: nothing to compare'
pm export --origin lab -b nosuchbench "$K/old.json"
expect_status 2
expect_err "benchmark 'nosuchbench' is not in"
pm export --origin lab -o /nonexistent/dir/x.json "$K/old.json"
expect_status 2 "-o in a missing directory"

# one result: a test per benchmark, every id the origin's
pm export --origin lab "$K/old.json"
expect_status 0 "export of one result"
expect_out '^ "version": \{$'
expect_out '^  "major": 5,$'
[ "$(grep -c '"path": "pmbench\.' "$T/out")" -eq 3 ] || fail "not a test per benchmark"
grep -E '"(id|build_id|checkout_id)": ' "$T/out" | grep -v '": "lab:' &&
	fail "an id not namespaced by the origin"
cp "$T/out" "$T/one.json"

# two: NEW's tests compared, a regression FAILs; -o writes the same bytes
pm export --origin lab --spread-from none -o "$T/sub.json" "$K/old.json" "$K/new.json"
expect_status 0 "export of an explanation"
[ ! -s "$T/out" ] || fail "-o: something on standard output"
pm export --origin lab --spread-from none "$K/old.json" "$K/new.json"
cmp -s "$T/out" "$T/sub.json" || fail "-o and standard output differ"
grep -q '"status": "FAIL"' "$T/sub.json" || fail "the regression does not FAIL"
grep -q '"verdict": "regression"' "$T/sub.json" || fail "no verdict in misc"
grep -q '"first_cause": {' "$T/sub.json" || fail "no first cause in misc"
# OLD's tests are the ones the result alone gives: the same ids
for id in $(grep -o '"id": "lab:pmbench-test-[0-9a-f]*-[a-z0-9-]*"' "$T/one.json"); do
	grep -qF "$id" "$T/sub.json" || fail "OLD's test $id has another id in the explanation"
done
# the same files, the same submission (ids are not random or timed)
pm export --origin lab --spread-from none "$K/old.json" "$K/new.json"
cmp -s "$T/out" "$T/sub.json" || fail "a second export differs"
# schema 4
pm export --origin lab --kcidb-version 4 --spread-from none -b null "$K/old.json" "$K/new.json"
expect_status 0
expect_out '^  "major": 4,$'
expect_out '"valid": true'
[ "$(grep -c '"path": "pmbench\.' "$T/out")" -eq 2 ] || fail "-b null: not null's two tests"

finish
