#!/bin/sh
# pmbench show: table, detail, csv, json of a stored result file.
. "$TEST_LIB"

f="$TEST_DATA/result-quick.json"
pm show "$f"
expect_status 0
expect_out '^pmbench [0-9.]+ on '
expect_out '^benchmark +time/op +±99% +trials +sys% +task-clk +faults +ctxsw +migr'
expect_out '^fork +[0-9.]+ us'
expect_out '^page-fault '
expect_out 'cycles, instructions, icache, branch-misses: <not supported> no hardware PMU'

pm show -v "$f"
expect_status 0
expect_out '^fork: fork\+exit\+wait  \(lmbench proc: fork proc\)'
expect_out 'children included'

pm show --format csv "$f"
expect_status 0
expect_out '^benchmark,status,unit,figure_ns,low_ns,high_ns,trials,value,event,event_status,per_op,.*,level,basis,run$'
expect_out '^fork,ok,us,[0-9.e+]+,'

# json out = json in (validated round trip).
pm show --format json "$f"
expect_status 0
cp "$T/out" "$T/a.json"
pm show --format json "$T/a.json"
cmp -s "$T/out" "$T/a.json" || fail "show --format json is not stable"

# The legend explains the columns shown and nothing else; each note once.
pm show "$f"
head=$(grep '^benchmark ' "$T/out")
if echo "$head" | grep -q ' k%'; then
	expect_out 'k% = kernel share'
else
	expect_no_out 'k% = kernel share' "legend of a table without k% columns"
fi
# no mark on the rows: the benchmarks that missed the target, said once
expect_no_out ' \*$|[0-9] (us|ms)\* ' "a * mark on a row"
[ "$(grep -c 'did not reach' "$T/out")" -le 1 ] || fail "the missed-target note is said more than once"
expect_out '^\(figure: per run the geometric mean of the faster half of its rounds. medians; ±99%: interval between '
[ "$(grep -c 'no hardware PMU' "$T/out")" -le 1 ] || fail "an event note is said more than once"

# Markdown: a GitHub table that reads in plain text (every row padded to
# the same length), notes as a list.
pm show --format markdown "$f"
expect_status 0
expect_out '^## pmbench [0-9.]+ on [^ ]+$'
expect_out '^Linux [^ ]+ [^ ]+, '
expect_out '^\| benchmark +\| +time/op \| +±99% \| trials \|'
expect_out '^\| :-+ \| -+: \| -+: \|'
expect_out '^\| fork +\| +[0-9.]+ (us|ms)\*? \|'
grep '^|' "$T/out" | sed 's/±/+/g' | awk '{ print length($0) }' | sort -u > "$T/widths"
[ "$(wc -l < "$T/widths")" -eq 1 ] || fail "markdown rows are not padded to one width"
cols=$(grep '^| benchmark' "$T/out" | tr -cd '|' | wc -c)
grep '^|' "$T/out" | while read -r line; do
	[ "$(printf '%s' "$line" | sed 's/\\|//g' | tr -cd '|' | wc -c)" -eq "$cols" ] || echo bad
done | grep -q bad && fail "markdown rows with a different number of cells"
expect_no_out '(^|[^`])<not supported>' "raw <...> in markdown (GitHub takes it for HTML)"

# Three files side by side: one table, a column per file, ratios to the
# first.  b has every figure doubled, c is a's twin.
label() { sed "s/\"label\": [^,]*,/\"label\": \"$1\",/" "$f"; }
label a > "$T/a.json"
label b > "$T/b.json"
label c > "$T/c.json"
# every time doubled: the trials and their statistics
label b | awk '/"trials_ns": \[/ { t = 1; print; next } t && /\]/ { t = 0 }
	t && /^ *[0-9.e+-]+,?$/ { sub(/[0-9.e+-]+/, sprintf("%.10g", 2 * $1)) }
	/"(median|ci_low|ci_high|mean|stddev|min|max|mad)_ns": [0-9]/ {
		split($0, kv, ": "); v = kv[2]; sub(/,$/, "", v)
		sub(/: [0-9.e+-]+/, ": " sprintf("%.10g", 2 * v)) }
	{ print }' > "$T/b2.json"
pm show --format markdown "$T/a.json" "$T/b.json" "$T/c.json"
expect_status 0
expect_out '^## pmbench: 3 results side by side, ratios to the first$'
expect_out '^\| benchmark +\| +a \| +±99% \| +b \| +±99% \| ratio \| +c \| +±99% \| ratio \|$'
[ "$(grep -c '^| benchmark' "$T/out")" -eq 1 ] || fail "side by side: not one table"
expect_out '^\| fork +\| .* \| +1\.00 \| .* \| +1\.00 \|$'
pm show --format csv "$T/a.json" "$T/b2.json"
expect_status 0
expect_out '^benchmark,unit,a,a ±99%,b,b ±99%,b/a$'
# the ratio is the figure over the baseline's: 2 for doubled times
awk -F, 'NR > 1 && $3 != "" && $5 != "" {
	if ($7 < 1.98 || $7 > 2.02 || ($5 / $3) < 1.98 || ($5 / $3) > 2.02) bad = bad " " $1 }
	END { if (bad != "") { print bad; exit 1 } }' "$T/out" ||
	fail "side by side csv: ratios are not b/a = 2"
[ "$(grep -c '^fork,' "$T/out")" -eq 1 ] || fail "side by side csv: fork not one row"
pm show "$T/a.json" "$T/b2.json"
expect_status 0
expect_out '^benchmark +a +±99% +b +±99% +ratio$'
expect_out '^fork +[0-9.]+ (us|ms) +[0-9.]+% +[0-9.]+ (us|ms) +[0-9.]+% +2\.00$'

# Other views of several files: one after the other; csv with a run column.
pm show -v "$T/a.json" "$T/b.json"
[ "$(grep -c '^== ' "$T/out")" -eq 2 ] || fail "-v of two files: two headers"
pm show -v --format csv "$T/a.json" "$T/b.json"
expect_out '^benchmark,status,unit,figure_ns,.*,run$'
expect_out '^fork,ok,.*,a$'
expect_out '^fork,ok,.*,b$'
pm show --hotspots --format csv "$f"
expect_status 0
expect_out '^benchmark,symbol,object,kernel,share,cost_ns_per_op,samples,size,run$'
pm show --hotspots --format json "$f"
expect_status 2
pm show --format markdown -v "$f"
expect_status 0
expect_out '^### fork: fork\+exit\+wait'
expect_out '^- time/op: '

# The counted pass ran 40% slower than the trials.  null's CPU time per
# op (task-clock) stayed at the latency: it was off the CPU (waited on a
# busy host), counting did not slow it.  stat's task-clock grew with it:
# counting slowed the operation.
sed -e 's/"ns_per_op": 231.2868241,/"ns_per_op": 327.43,/' \
    -e 's/"perturbation": 0.9889058452,/"perturbation": 1.4,/' \
    -e 's/"ns_per_op": 1392.93888,/"ns_per_op": 1961.87,/' \
    -e 's/"perturbation": 0.994007743,/"perturbation": 1.4,/' \
    -e 's/"per_op": 1393.697685,/"per_op": 1961.0,/' \
    "$TEST_DATA/good-small.json" > "$T/perturbed.json"
pm show --format table "$T/perturbed.json"
expect_status 0 "show of a perturbed counted pass"
expect_out '^  counting slowed the operation \(.*\): stat 40%$' "stat's task-clock grew"
expect_no_out 'counting slowed.*null' "null's task-clock did not grow"
expect_out '^  the counted pass took longer per op than the trials, but off the CPU .*: null 40%$'
# the pass's own measure of its waiting, when the file has it
sed 's/"perturbation": 1.4,/&\n    "waited": 0.29,/' "$T/perturbed.json" > "$T/waited.json"
pm show --format table "$T/waited.json"
expect_out 'off the CPU .*: null 40% \(it waited for a CPU 29% of the pass\), stat 40% \(it waited'
expect_no_out 'counting slowed'
pm show -v "$T/waited.json"
expect_out 'ran at 1.40x the timed latency, waited for a CPU 29% of it\):$'

# A result of pmbench stat (runs of 12.6 12.0 13.4 12.1 12.3 ms): its
# elapsed time is the one figure, alone and beside another file (the
# faster half of the runs, 12.0 ms; their mean, 12.5 ms, follows it).
pm show "$TEST_DATA/stat-runs.json"
expect_status 0 "show of a stat result"
expect_out '^  elapsed +12\.0 ms  ±9\.6%  \(99% CI 11\.0 ms \.\. 13\.2 ms; .* 5 runs; mean 12\.5 ms, min 12\.0 ms, max 13\.4 ms\)$'
alone=$(sed -n 's/^  elapsed  *\([0-9.]* [mun]*s\)  ±\([0-9.]*%\).*/\1 \2/p' "$T/out")
pm show "$TEST_DATA/stat-runs.json" "$TEST_DATA/good-small.json"
expect_status 0 "show of a stat result beside another"
beside=$(sed -n 's/^true  *\([0-9.]* [mun]*s\)  *\([0-9.]*%\).*/\1 \2/p' "$T/out")
[ -n "$alone" ] && [ "$alone" = "$beside" ] ||
	fail "stat's elapsed: '$alone' alone, '$beside' beside another file"

# lmbench's layout: rows of two files of one host and OS (Host and OS
# cut to 9 and 13 characters) say which file they are, by its name; a
# file of another host keeps the host; names that still read alike
# (cut to 9) get their place on the command line.
cp "$TEST_DATA/good-small.json" "$T/a.json"
cp "$TEST_DATA/good-small.json" "$T/c.json"
sed 's/"hostname": "fixture"/"hostname": "otherhost"/' "$TEST_DATA/good-small.json" > "$T/o.json"
pm show --format lmbench "$T/a.json" "$T/c.json" "$T/o.json"
expect_status 0 "show --format lmbench of two files of one host"
expect_out '^a         Linux 6\.1\.0-t      0\.23      1\.40$'
expect_out '^c         Linux 6\.1\.0-t      0\.23      1\.40$'
expect_out '^otherhost Linux 6\.1\.0-t      0\.23      1\.40$'
# no two rows of a table alike in Host and OS
[ -z "$(awk '/^$/ { delete seen } /^[a-z0-9]/ && seen[substr($0, 1, 23)]++' "$T/out")" ] ||
	fail "lmbench: two rows of a table read alike"
cp "$TEST_DATA/good-small.json" "$T/before-fix-1.json"
cp "$TEST_DATA/good-small.json" "$T/before-fix-2.json"
pm show --format lmbench "$T/before-fix-1.json" "$T/before-fix-2.json"
expect_out '^before-#1 Linux 6\.1\.0-t '
expect_out '^before-#2 Linux 6\.1\.0-t '

# No file: the newest run of the history, which is empty here.
pm show
expect_status 2
expect_err '@latest: the result history .* is empty'
expect_err 'no result file given'

finish
