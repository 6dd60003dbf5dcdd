#!/bin/sh
# explain on the sides of one pmbench ab experiment with several
# differences, each taken back in boots of its own: the one whose
# reversal removes the change is the proven cause, one that removes
# nothing is ruled out, one that removes part of it is a share, and one
# whose boots told nothing is said to be not separated.  And with one
# difference only, the change is that difference's.
. "$TEST_LIB"

x="$TEST_DATA/explain/mitigations"
# SIDE RESULTS...: the fixture as side SIDE of the experiment
cat > "$T/ab.awk" <<'EOF'
/^ "label": / { print " \"label\": \"" side "\","; next }
/^ "options": \{$/ {
	print
	print "  \"ab\": {\"side\": \"" side "\", \"experiment\": {\"id\": \"20261205T100000Z-7\","
	print "   \"differences\": [" diffs "],"
	print "   \"seed\": 7, \"pairing\": \"in turn\", \"pairs\": 12, \"seconds\": 340.5"
	if (confirm != "")
		print "   , \"confirm\": {\"level\": 0.99, \"blocks\": 4, \"results\": [" confirm "]}"
	print "  }},"
	next
}
{ print }
EOF
d() { printf '{"kind": "added", "param": "%s", "a": null, "b": "", "text": "%s of B"}' "$1" "$1"; }
# the fixture's OLD has mitigations=off, its NEW not: as ab records that
mit='{"kind": "removed", "param": "mitigations", "a": "off", "b": null, "text": "mitigations=off of A"}'

r() {	# r N TEXT REMOVED LOW HIGH
	printf '{"difference": %s, "text": "%s", "arm": "R%s", "file": "r%s-", "benchmarks": {"null": {"removed": %s, "low": %s, "high": %s, "level": 0.99, "boots": 6}}}' \
		"$1" "$2" "$(($1 + 1))" "$(($1 + 1))" "$3" "$4" "$5"
}
diffs="$mit, $(d nosmt), $(d quiet), $(d nokaslr)"
confirm="$(r 0 "mitigations=off of A" 0.97 0.88 1.05), $(r 1 "nosmt of B" 0.02 -0.06 0.1), $(r 2 "quiet of B" 0.3 0.1 0.5), $(r 3 "nokaslr of B" null null null)"
for s in A B; do
	f=old; [ $s = B ] && f=new
	awk -v side=$s -v diffs="$diffs" -v confirm="$confirm" -f "$T/ab.awk" "$x/$f.json" > "$T/$s.json"
done
pm explain "$T/A.json" "$T/B.json"
expect_status 0 "explain of an experiment with four differences"
sed -n '/^null /,/^$/p' "$T/out" > "$T/null"
grep -Eq '^null +REGRESSION' "$T/null" || fail "null is not a regression in the fixture"
grep -Eq '^    1\. \[high 0\.96\] proven by experiment: mitigations=off of A: taking it away removes 97% \(99% CI 88% \.\. 105%\) of null.s change \(6 boots\)\.$' "$T/null" ||
	fail "the proven cause is not first, or not as it should read"
grep -Eq '\] a share, by experiment: Taking quiet of B away removes 30% \(99% CI 10% \.\. 50%\) of null.s change\.$' "$T/null" ||
	fail "a partial reversal is not reported as a share"
grep -Eq '\] ruled out by experiment: Taking nosmt of B away removes 2% \(99% CI -6% \.\. 10%\) of null.s change\.$' "$T/null" ||
	fail "a reversal that removes nothing is not ruled out"
grep -Eq '\] not separated by experiment: The boots without nokaslr of B did not tell how much of null.s change it makes\.$' "$T/null" ||
	fail "boots that told nothing are not said to be so"
[ "$(grep -c 'Proven by experiment' "$T/null")" -eq 0 ] || fail "'proven by experiment' said twice"
# the mitigations rule is about what the proven difference switches: its
# sentence is the proven cause's evidence, its mechanism and switch the
# proven cause's, and it is no cause of its own
grep -Eq '^    [0-9]+\. \[[a-z]+ [0-9.]+\] speculative-execution mitigations:' "$T/null" &&
	fail "the mitigations rule is still a cause beside the proven one"
awk '/^    1\. / { on = 1; next } /^    [0-9]+\. / { on = 0 } on && /- Speculative-execution mitigations differ/ { f = 1 } END { exit !f }' "$T/null" ||
	fail "the mitigations rule's sentence is not evidence of the proven cause"
pm explain --format json "$T/A.json" "$T/B.json"
# (the first cause of null: its rule, mechanism and switch lines)
awk '/^   "name": "null"/ { b = 1 } b && /"causes": \[/ { c = 1 }
	c && /"rule":/ && r == "" { r = $0 } c && /"mechanism":/ && m == "" { m = $0 }
	c && /"switched_by":/ { print r; print m; print; exit }' "$T/out" > "$T/first"
grep -q '"rule": "experiment"' "$T/first" && grep -q '"mechanism": "entry"' "$T/first" &&
	grep -q '"switched_by": ".*mitigations=off' "$T/first" ||
	fail "the proven cause does not carry the mechanism and its switch: $(cat "$T/first")"
# the share ranks above what was ruled out
awk '/a share, by experiment/ { s = NR } /ruled out by experiment/ { r = NR } END { exit !(s && r && s < r) }' "$T/null" ||
	fail "the share is not ranked above the difference ruled out"

# One difference: the experiment proves it without boots of its own.
diffs="$mit" confirm=
for s in A B; do
	f=old; [ $s = B ] && f=new
	awk -v side=$s -v diffs="$diffs" -v confirm="" -f "$T/ab.awk" "$x/$f.json" > "$T/$s.json"
done
pm explain "$T/A.json" "$T/B.json"
expect_status 0 "explain of an experiment with one difference"
sed -n '/^null /,/^$/p' "$T/out" > "$T/null"
grep -Eq '^    1\. \[high 0\.9[0-9]\] .*mitigations=off of A' "$T/null" ||
	fail "one difference: it is not the first cause of null's change"
grep -q 'the experiment that would prove it' "$T/null" &&
	fail "one difference: an experiment is proposed for what ab already proved"

finish
