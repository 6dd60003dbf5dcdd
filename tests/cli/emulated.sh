#!/bin/sh
# Emulated counts in every view and in explain, without QEMU: the files of
# a real pmbench ab of 6.1 against itself with audit=1 on B (three pairs
# of boots, null; tests/data/emulated/).  The counts must be shown as
# what they are, never as hardware counter values; explain must decide
# the path on its own, name the audit code and its switch.
. "$TEST_LIB"

A=$TEST_DATA/emulated/a.json
B=$TEST_DATA/emulated/b.json

# the table (two benchmarks: one shows as a block): a column of its own,
# explained as emulated
jq '.benchmarks += [.benchmarks[0] | .name = "null-io" | del(.emulated)]' "$A" > "$T/two.json"
pm show "$T/two.json"
expect_status 0 "show"
expect_out "emul k-insn"
expect_out "^null-io .* - *$"
expect_out "emul k-insn = kernel instructions counted exactly in QEMU's emulated CPU .*not hardware counter values"
# the detail block, under its own heading, with the kernel's functions
pm show -v "$A"
expect_out "^  emulated counts per op \(3 boots; counted exactly in QEMU's emulated CPU .*not hardware counter values\):"
expect_out "^    instructions +3[0-9][0-9] +user 17\.0 +kernel 3[0-9][0-9] +\(boots within 0\.[0-9]+%\)"
expect_out "do_syscall_64 +arch/x86/entry/common.c"
pm show -v "$B"
expect_out "__audit_syscall_(entry|exit) +kernel/auditsc.c"
# csv: events emulated:*, status "emulated"
pm show --format csv "$A"
expect_out "^null,ok,[a-z]+,.*,emulated:instructions,emulated,3[0-9][0-9]\.?[0-9]*,17\.0[0-9]*,3[0-9][0-9]"
! grep -q "^null,.*,instructions,ok," "$T/out" || fail "csv: emulated counts as a hardware event"
# the JSON normalised: the counts kept as they are
pm show --format json "$B"
jq -e '.benchmarks[0].emulated.runs | length == 3' "$T/out" >/dev/null ||
	fail "show --format json lost emulated runs"

# explain: the path decided after three pairs, in the audit code, switched by audit=1
pm explain "$A" "$B"
expect_status 0 "explain"
expect_out "^  path changed: null \+4[0-9]\.[0-9]% \(3 pairs; kernel \+8[0-9]/op in the audit subsystem, switched by the kernel argument audit=1 of NEW\)"
expect_out "^  null: decided: the path is longer: 4[0-9]\.[0-9]% more instructions an operation in NEW \(340\.[0-9] -> 50[0-9]\.[0-9], exact counts of the emulated CPU, not hardware's\), after 3 pairs .*; kernel \+8[0-9] an op in the audit subsystem"
expect_out "^  null: A longer code path: 4[0-9]\.[0-9]% more instructions per operation .*decided after 3 pairs\), most of it in the audit subsystem"
pm explain --all "$A" "$B"
expect_out "instructions/op, emulated \(exact, not hardware counts\): 3[0-9][0-9]\.[0-9] -> 50[0-9]\.[0-9] .*longer, decided after 3 pairs"
expect_out "kernel instructions/op in the audit subsystem: 0\.0 -> 8[0-9]\.[0-9] .*none in OLD"
pm explain --format json "$A" "$B"
jq -e '.benchmarks[0].emulated | .verdict == "longer" and .decided_after == 3 and
	.mechanisms[0].key == "audit" and (.mechanisms[0].switched_by | test("audit=1"))' \
	"$T/out" >/dev/null || fail "explain json: $(jq -c '.benchmarks[0].emulated' "$T/out")"
jq -e '[.benchmarks[0].causes[].rule] | index("code-path") != null' "$T/out" >/dev/null ||
	fail "explain json: no code-path cause"
jq -e '.benchmarks[0].decided | map(test("^the path is longer")) | any' "$T/out" >/dev/null ||
	fail "explain json: the path is not among the decided facts"
# the same side twice (another file: the same bytes are refused): the same path
jq '.label = "A2"' "$A" > "$T/a2.json"
pm explain "$A" "$T/a2.json"
expect_out "^  same path: null \+0\.0% \(3 pairs\)"

# the HTML report: a table of its own
pm report -o "$T/r.html" "$A" "$B"
expect_status 0 "report"
grep -q "<h4>Emulated counts per operation</h4>" "$T/r.html" || fail "report: no emulated table"
grep -q "not hardware counter values" "$T/r.html" || fail "report: the emulated table does not say what it is"

finish
