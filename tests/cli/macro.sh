#!/bin/sh
# The macro group: a compile and a shell script as benchmarks; unsupported,
# with the reason, when their programs are missing.
. "$TEST_LIB"

pm list macro
expect_status 0
expect_out '^  macro-cc '
expect_out '^  macro-shell '
# nothing where the programs are looked for: both say why
PMBENCH_MACRO_PATH=/nonexistent pm list macro
expect_out 'not supported here: no C compiler: macro-cc needs cc, gcc or clang in /nonexistent'
expect_out "not supported here: macro-shell needs 'sh' in /nonexistent"
PMBENCH_MACRO_PATH=/nonexistent pm run --rounds 1 --no-profile macro-cc
expect_status 0 "an unsupported benchmark is not an error"
expect_out 'no C compiler'

pm run -q --rounds 2 --max-time 0.5 -e none -o "$T/m.json" macro
expect_status 0 "run macro"
pm show --format csv "$T/m.json"
cp "$T/out" "$T/csv"
[ "$(csv_value macro-shell page-faults event_status)" = ok ] || fail "macro-shell not counted"
# some forty processes, each with its own faults and at least one switch
ge "$(csv_value macro-shell page-faults per_op)" 1000 || fail "macro-shell: too few page faults for 40 processes"
ge "$(csv_value macro-shell context-switches per_op)" 20 || fail "macro-shell: too few context switches"
if PMBENCH_MACRO_PATH= "$PMBENCH" list macro | grep -q 'no C compiler'; then
	echo "note: no C compiler here: macro-cc is reported unsupported"
	expect_out '^macro-cc,unsupported,'
else
	[ "$(csv_value macro-cc page-faults event_status)" = ok ] || fail "macro-cc not counted"
	# three compiles: three drivers, compilers proper and assemblers
	ge "$(csv_value macro-cc page-faults per_op)" 3000 || fail "macro-cc: too few page faults"
	pm show "$T/m.json"
	expect_out 'macro-cc +[0-9.]+ m?s'
fi
# the scratch directory is gone
pm show -v "$T/m.json"
expect_out 'parameters +/.*(cc|gcc|clang) \(.*\), 3 files at -O2'

finish
