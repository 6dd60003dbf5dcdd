#!/bin/sh
# explain --format lkp: the comparison as Intel's 0-day (LKP) mails print
# it, for the seeds' old reports (imported) and for pmbench's own runs:
# 0-day's columns, a row per metric, and explain's own figures in them.
. "$TEST_LIB"

S="$TEST_DATA/seeds"
K="$TEST_DATA/kcidb"

# lkp_rows: the metric rows of the table in $T/out ("OLD [± N%] CHANGE NEW
# [± N%]  NAME"), as "NAME OLD CHANGE NEW"
lkp_rows() {
	awk '/^ +\\ +\| +\\/ { on = 1; next } on && /^$/ { exit }
		on { n = $NF; sub(/ *±/, " ±"); gsub(/± +/, "±")
			o = $1; i = 2; if ($i ~ /^±/) i++
			c = $i; i++; v = $i
			print n, o, c, v }' "$T/out"
}

# the head of 0-day's table, column for column
expect_lkp_head() {
	expect_out '^=+$' "$1: the rule above the head"
	expect_out '^-{16} -{27} $' "$1: the rules under the sides' names"
	expect_out '^         %stddev     %change         %stddev$' "$1: the column heads"
	expect_out '^             \\          \|                \\  $' "$1: the second head line"
}

# agree_with_csv: each ns_per_op figure row is explain's estimate (its csv
# has them in ns, to six digits)
agree_with_csv() {
	lkp_rows | awk '$1 ~ /^[a-z0-9-]+\.ns_per_op$/ { sub(/\.ns_per_op$/, "", $1); print }' \
		> "$T/rows"
	[ -s "$T/rows" ] || { fail "$1: no ns_per_op rows"; return; }
	awk -F, 'NR == FNR { if (FNR > 1) { o[$1] = $3; n[$1] = $4 }; next }
		# the table rounds: two decimals, whole numbers from 1000, four digits from 1e8
		function off(a, b) { d = a - b; if (d < 0) d = -d
			return d > (b >= 1e8 ? 5e-4 * b : (b >= 1000 ? 0.5 : 0.005) + 1e-5 * b) }
		!($1 in o) { print "no csv row for " $1; bad = 1; next }
		off($2, o[$1]) || off($4, n[$1]) {
			print $1 ": " $2 " -> " $4 ", explain " o[$1] " -> " n[$1]; bad = 1 }
		END { exit bad }' FS=, "$T/csv" FS=' ' "$T/rows" > "$T/disagree" ||
		fail "$1: figures other than explain's: $(head -3 "$T/disagree")"
	# the table leads with a row per benchmark compared, in explain's order
	awk -F, 'NR > 1 { print $1 }' "$T/csv" > "$T/names"
	lkp_rows | head -n "$(wc -l < "$T/names")" | sed 's/\..*//; s/ .*//' > "$T/first"
	cmp -s "$T/names" "$T/first" || fail "$1: the first rows are not one per benchmark compared"
}

# lkp_and_csv OLD NEW: both formats of one explanation
lkp_and_csv() {
	"$PMBENCH" explain --spread-from none --format csv "$1" "$2" > "$T/csv" 2>&1 ||
		fail "explain --format csv $1 $2"
	pm explain --spread-from none --format lkp "$1" "$2"
	expect_status 0 "explain --format lkp $1 $2"
}

# The seeds: lmbench 2, two runs of each kernel (a spread between runs).
pm import lmbench "$S/lmbench2-six-rows.txt" -o "$T/six"
expect_status 0 "import lmbench2-six-rows"
lkp_and_csv "$T/six/1-214.2.168-Linux_2.4.22-.json" "$T/six/2-214.2.168-Linux_2.6.7-r.json"
expect_lkp_head "lmbench seed"
expect_out '^pmbench noticed a \+13\.5% regression of fork\.ns_per_op$'
expect_out '^pmbench noticed a -16\.1% regression of bw-unix\.MB_per_s$' "a rate that fell"
expect_out '^2\.4\.22-          2\.6\.7-r$' "the kernels as the columns' names"
expect_out '^    340500           \+13\.5%     386484        fork\.ns_per_op$'
expect_out '^     36684 ±  4%     -20\.2%      29279 ±  5%  select-tcp\.ns_per_op$'
expect_out '^    189\.96 ±  3%     -19\.6%     152\.74 ±  9%  bw-pipe\.MB_per_s$'
expect_out '^  between runs$' "what %stddev is"
agree_with_csv "lmbench seed"

# AIM9: one figure a side, so no spread at all, and said so.
pm import aim9 "$S/aim9-quoted.txt" -o "$T/aim9"
expect_status 0 "import aim9-quoted"
lkp_and_csv "$T/aim9/1-aim9.json" "$T/aim9/2-aim9.json"
expect_lkp_head "aim9 seed"
expect_out '^      5620           -41\.3%       3297        aim9-fork-test\.ops_per_s$'
expect_out '^  none: a single figure a side$'
expect_no_out '±' "a %stddev of single figures"
[ "$(lkp_rows | wc -l)" -eq 16 ] || fail "aim9 seed: not one row per test ($(lkp_rows | wc -l))"

# pmbench's own runs (tests/data/kcidb: NEW under a preload that burns
# time in front of every syscall()): the regression and where it went.
lkp_and_csv "$K/old.json" "$K/new.json"
expect_lkp_head "real runs"
expect_out '^pmbench noticed a \+[0-9.]+% regression of null\.ns_per_op \(first cause: user-space code\)$'
expect_out '^ +[0-9.]+ +\+[0-9.]+% +[0-9.]+ +null\.user_ns_per_op$' "the split"
expect_out ' null\.perf-stat\.task-clock_ns_per_op$' "counters per op"
expect_out '^  a side of one run: between the rounds \(processes\) of its run$'
expect_out 'none for a side of one file'
agree_with_csv "real runs"
# --all: every benchmark's evidence, with its kernel symbols
pm explain --spread-from none --format lkp --all "$K/old.json" "$K/new.json"
expect_out ' stat\.perf-profile\.self\.ns_per_op\.[a-z_0-9]+$' "kernel symbols per op"

# Sides of three result files: counters' %stddev is between the files.
lkp_and_csv "$TEST_DATA/explain/page-tables/old" "$TEST_DATA/explain/page-tables/new"
expect_out '^ +[0-9]+ +\+[0-9.]+% +[0-9]+ +fork\.perf-profile\.self\.ns_per_op\.copy_page_range$'
expect_out 'between a side.s result files \(OLD 3, NEW 3\)'
agree_with_csv "three runs a side"

# And two runs made now.
"$PMBENCH" run -q --rounds 2 --max-time 0.2 -o "$T/a.json" null >/dev/null 2>&1 &&
	"$PMBENCH" run -q --rounds 2 --max-time 0.2 -o "$T/b.json" null >/dev/null 2>&1 ||
	fail "two runs of null"
lkp_and_csv "$T/a.json" "$T/b.json"
expect_lkp_head "runs made now"
[ "$(lkp_rows | awk '$1 == "null.ns_per_op"' | wc -l)" -eq 1 ] || fail "runs made now: no null row"
agree_with_csv "runs made now"

# Errors as for the other formats.
pm explain --format lpk "$K/old.json" "$K/new.json"
expect_status 2
expect_err "'lpk' is not one of text, markdown, csv, json, lkp"
pm explain --format lkp "$K/old.json" "$K/old.json"
expect_status 0
expect_out 'same file'

finish
