#!/bin/sh
# One figure, one interval: a benchmark's figure and interval are the
# same printed value and bounds in run's table, show (table, markdown,
# csv, json), explain and the result file's "figure"; a file against
# itself is the same file; a quick table and explain of an unchanged
# run fit on a screen.
. "$TEST_LIB"

pm run --rounds 3 --max-time 0.2 --no-profile -o "$T/a.json" null stat
expect_status 0 "run a"
cp "$T/out" "$T/run-a"
pm run --rounds 3 --max-time 0.2 --no-profile -o "$T/b.json" null stat
expect_status 0 "run b"

# row BENCH FILE: "figure interval" of the text table (cols 2-4: "1.19 us 4.5%")
row() { awk -v b="$1" '$1 == b { print $2, $3, $4; exit }' "$2"; }
# the csv's figure_ns, low_ns, high_ns and basis of BENCH
csv_fig() { awk -F, -v b="$1" 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	$1 == b { print $c["figure_ns"], $c["low_ns"], $c["high_ns"], $c["basis"]; exit }' "$2"; }
# the stored figure object of BENCH: value_ns low_ns high_ns basis
json_fig() { awk -v b="\"$1\"" '
	/"name":/ { inb = index($0, b) > 0 }
	inb && /"figure": \{/ { f = 1; next }
	f && /"value_ns"/ { gsub(/[,"]/, ""); v = $2 }
	f && /"low_ns"/ { gsub(/[,"]/, ""); lo = $2 }
	f && /"high_ns"/ { gsub(/[,"]/, ""); hi = $2 }
	f && /"basis"/ { gsub(/[,"]/, ""); ba = $2 }
	f && /\}/ { print v, lo, hi, ba; exit }' "$2"; }
# the printed interval from a figure and its bounds, as the table prints it
rel() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN {
	r = hi / v - 1; if (1 - lo / v > r) r = 1 - lo / v
	if (r > 0.5) print "unbounded"; else printf "%.1f%%\n", 100 * r }'; }
# two intervals as printed agree: "unbounded" alike, or percentages
# within the last digit (the bounds come from the csv's six digits)
same_pct() {
	[ "$1" = "$2" ] && return 0
	case "$1$2" in *unbounded*) return 1 ;; esac
	awk -v a="${1%\%}" -v b="${2%\%}" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 0.1001) }'
}
# two numbers agree to six significant digits (the csv's precision)
close6() { awk -v a="$1" -v b="$2" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(a > 0 && d <= 1e-5 * a) }'; }

pm show "$T/a.json"
cp "$T/out" "$T/show-a"
pm show --format csv "$T/a.json"
cp "$T/out" "$T/csv-a"
pm show --format markdown "$T/a.json"
cp "$T/out" "$T/md-a"
pm show --format json "$T/a.json"
cp "$T/out" "$T/json-a"
for b in null stat; do
	r=$(row "$b" "$T/run-a")
	[ -n "$r" ] || fail "$b: no row in run's table"
	[ "$r" = "$(row "$b" "$T/show-a")" ] || fail "$b: run's table says '$r', show '$(row "$b" "$T/show-a")'"
	md=$(awk -F'|' -v b="$b" '{ gsub(/^ +| +$/, "", $2) } $2 == b {
		gsub(/^ +| +$/, "", $3); gsub(/^ +| +$/, "", $4); print $3, $4; exit }' "$T/md-a")
	[ "$r" = "$md" ] || fail "$b: markdown says '$md', the table '$r'"
	set -- $(csv_fig "$b" "$T/csv-a")
	[ $# -eq 4 ] || { fail "$b: no figure in the csv"; continue; }
	cv=$1 clo=$2 chi=$3 cba=$4
	set -- $(json_fig "$b" "$T/a.json")
	[ $# -eq 4 ] || { fail "$b: no figure object in the result file"; continue; }
	close6 "$1" "$cv" && close6 "$2" "$clo" && close6 "$3" "$chi" ||
		fail "$b: the result file's figure ($*) is not the csv's ($cv $clo $chi)"
	[ "$4" = "$cba" ] || fail "$b: basis $4 in the file, $cba in the csv"
	set -- $(json_fig "$b" "$T/json-a")
	close6 "$1" "$cv" || fail "$b: show --format json's figure $1 is not the csv's $cv"
	# the table's interval is the one of those bounds
	want=$(rel "$cv" "$clo" "$chi")
	same_pct "${r##* }" "$want" || fail "$b: the table's interval ${r##* } is not $want from the bounds"
	# the table's figure is the csv's, to its three digits
	awk -v s="${r% *}" -v v="$cv" 'BEGIN { split(s, p, " "); m = p[2] == "ns" ? 1 : p[2] == "us" ? 1e3 : p[2] == "ms" ? 1e6 : 1e9
		d = p[1] * m - v; if (d < 0) d = -d; exit !(d <= 0.006 * v) }' ||
		fail "$b: the table's figure ${r% *} is not the csv's $cv ns"
	# show -v: the same figure and interval, with its bounds
	pm show -v "$T/a.json"
	# (the table's own interval: it is the bounds', checked above)
	if [ "$want" = unbounded ]; then
		expect_out "^  time/op +${r% *}  \\(unbounded: too few"
	else
		expect_out "^  time/op +${r% *}  ±${r##* }  \\(99% interval "
	fi
done

# explain: OLD -> NEW are the figures the verdict judged and the percent
# their ratio, inside its interval; the figures every view shows are
# those, or are given on the line below when they differ (one run a
# side: the verdict judges all rounds, a run's figure is its faster half).
pm show "$T/b.json"
cp "$T/out" "$T/show-b"
pm show --format csv "$T/b.json"
cp "$T/out" "$T/csv-b"
pm explain --all --spread-from none "$T/a.json" "$T/b.json"
expect_status 0 "explain --all"
cp "$T/out" "$T/explain"
pm explain --format json --all --spread-from none "$T/a.json" "$T/b.json"
expect_status 0 "explain --format json"
cp "$T/out" "$T/explain.json"
for b in null stat; do
	fa=$(row "$b" "$T/show-a"); fa=${fa% *}
	fb=$(row "$b" "$T/show-b"); fb=${fb% *}
	grep -q "^$b  [A-Z ]*  $fa -> $fb  " "$T/explain" ||
	awk -v b="$b" '$1 == b { on = 1; next } /^[a-z]/ { on = 0 } on' "$T/explain" |
		grep -q "^  figures of the runs (as show gives them): $fa -> $fb, " ||
		fail "$b: explain gives neither headline nor figures line $fa -> $fb"
	va=$(csv_fig "$b" "$T/csv-a" | cut -d' ' -f1)
	vb=$(csv_fig "$b" "$T/csv-b" | cut -d' ' -f1)
	set -- $(jq -r --arg b "$b" '.benchmarks[] | select(.name == $b) |
		"\(.median_old_ns) \(.median_new_ns) \(.ratio) \(.ci_low) \(.ci_high) \(.figure_old_ns) \(.figure_new_ns)"' \
		"$T/explain.json")
	[ $# -eq 7 ] || { fail "$b: not in explain's JSON"; continue; }
	close6 "$6" "$va" && close6 "$7" "$vb" ||
		fail "$b: explain's figures $6 $7 are not the csv's $va $vb"
	awk -v o="$1" -v n="$2" -v r="$3" -v lo="$4" -v hi="$5" 'BEGIN {
		d = n / o / r - 1; if (d < 0) d = -d
		exit !(d < 2e-5 && lo <= r && r <= hi) }' ||
		fail "$b: the judged figures $1 -> $2 are not the estimate $3 inside $4 .. $5"
	pct=$(awk -v r="$3" 'BEGIN { printf "%+.1f%%\n", 100 * (r - 1) }')
	grep -q "^$b  [A-Z ]*  [^(]* $pct (" "$T/explain" || {
		fail "$b: the headline's percent is not the estimate's $pct"
		grep -E "^$b  " "$T/explain" | sed 's/^/  explain: /' >&2
	}
	# (a decided change has no summary list: its verdict line, above, is it)
	grep -q "^$b  \(REGRESSION\|IMPROVEMENT\)  " "$T/explain" ||
	grep -q "[ ,]$b $pct" "$T/explain" || {
		fail "$b: the summary's change is not $pct"
		grep -E "^[A-Za-z ]+(\([0-9]+\))?:|^$b  " "$T/explain" | sed 's/^/  explain: /' >&2
	}
done
# no interval printed as a number past +-50%
expect_no_out 'over ±1000%|±[0-9]{3,}\.[0-9]%|±[5-9][0-9]\.[0-9]%' "an interval past ±50% as a number"

# One level throughout: every interval of run, show (-v, markdown, csv)
# and explain is at 99%, the level explain decides at.
pm show -v "$T/a.json"
cp "$T/out" "$T/show-v"
lv=$({ cat "$T/run-a" "$T/show-a" "$T/show-v" "$T/md-a" "$T/explain" |
	grep -oE '[0-9]+% (CI|intervals?)'
	grep -hE '^\|? *benchmark ' "$T/run-a" "$T/show-a" "$T/md-a" | grep -oE '±[0-9]+%'
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "level") c = i; next }
		c && $c != "" { print "level " $c }' "$T/csv-a"; } | sort -u | tr '\n' ,)
# (which of them appear depends on the run: an unbounded figure has no
# "99% interval"; the table's head always has one)
case ",$lv" in
*,±99%,*) ;;
*) fail "no ±99% column in the tables: $lv" ;;
esac
other=$(echo "$lv" | tr , '\n' | grep -v -e '^99% ' -e '^level 0\.99$' -e '^±99%$' -e '^$' | tr '\n' ' ')
[ -z "$other" ] || fail "levels other than 99% printed: $other(all: $lv)"

# A file against itself, by path or by content: the same file, no verdicts.
pm explain "$T/a.json" "$T/a.json"
expect_status 0
expect_out '^OLD and NEW are the same file, .*a\.json: nothing to compare\.$'
expect_no_out 'inconclusive|no change|REGRESSION|IMPROVEMENT|settled'
cp "$T/a.json" "$T/copy.json"
pm explain --format json "$T/a.json" "$T/copy.json"
expect_status 0
expect_out '"same_file": '

# The quick run's table and explain of an unchanged run: one screen.
q="$TEST_DATA/result-quick.json"
sed 's/"label": [^,]*,/"label": "again",/' "$q" > "$T/q2.json"
pm show "$q"
n=$(wc -l < "$T/out")
pm explain "$q" "$T/q2.json"
expect_status 0
n=$((n + $(wc -l < "$T/out")))
[ "$n" -le 50 ] || fail "quick table and explain of an unchanged run: $n lines, more than a screen"
expect_out '^No verdict of change: [0-9]+ within the noise floor \(±3%\), [0-9]+ undecided \(one round a side\); no figure moved\.$'
[ "$(grep -c 'would be settled' "$T/out")" -le 2 ] || fail "a remedy said more than once"

# No verdict line contradicts its own figures in the fixtures: a
# regression's change is up, an improvement's down, and no decided
# change has noise as its cause.
for d in "$TEST_DATA"/explain/*/; do
	o=$(ls -d "$d"old* 2>/dev/null | head -1)
	n=$(ls -d "$d"new* 2>/dev/null | head -1)
	[ -n "$o" ] && [ -n "$n" ] || continue
	pm explain --all --spread-from none "$o" "$n"
	awk '/^[a-z0-9-]+  (REGRESSION|IMPROVEMENT)  / { v = $2; p = ""
		for (i = 3; i <= NF; i++) if ($i ~ /^[+-][0-9.]+%$/) { p = $i; break }
		if ((v == "REGRESSION" && p !~ /^\+/) || (v == "IMPROVEMENT" && p !~ /^-/)) { print; bad = 1 } }
		/^[a-z0-9-]+  / { decided = $2 == "REGRESSION" || $2 == "IMPROVEMENT" }
		decided && /^    [0-9]+\. \[[a-z]+ [0-9.]+\] noise or contention:/ { print; bad = 1 }
		END { exit bad }' "$T/out" || fail "$d: a verdict line contradicts its figures"
done
finish
