#!/bin/sh
# pmbench report as a person sees it: pages of fixtures with planted
# causes (page-table levels: regressions with a mechanism, the switch
# and hotspots; an ab experiment with two differences; a noisy pair),
# rendered in headless Chromium.  The screenshot is not blank (its size,
# colours and ink), and the document has explain's findings as HTML: a
# verdict table, causes as lists with their evidence, no "n/s", no ratio
# of near-zero counts, a coloured difference flame graph only for a
# decided change, no empty heading, one figure and interval per side
# and explain's verdicts.  The
# screenshot stays in the build tree (tests/cli/report-page.png) to be
# looked at.
. "$TEST_LIB"

x="$TEST_DATA/explain"
old="$x/page-tables/old/run-0.json" new="$x/page-tables/new/run-0.json"

# A count per op near zero on one side: 0.002 against 0.82 context
# switches (a ratio of 410 no one can read) in copies of the fixture.
plant_ctxsw() {
	awk -v v="$2" '/"name": "context-switches"/ { cs = 1 }
	cs && /"per_op":/ { sub(/"per_op": [^,]*/, "\"per_op\": " v); cs = 0 }
	{ print }' "$1"
}
plant_ctxsw "$old" 0.002 > "$T/old.json"
plant_ctxsw "$new" 0.82 > "$T/new.json"
grep -q '"per_op": 0.82' "$T/new.json" || fail "the context switches were not planted"
pm report -o "$T/pt.html" "$T/old.json" "$T/new.json"
expect_status 0 "report of the page-table fixture"

# The mitigations fixture as the sides of one pmbench ab experiment with
# two differences, each taken back in boots of its own (confirm).
cat > "$T/ab.awk" <<'EOF'
/^ "label": / { print " \"label\": \"" side "\","; next }
/^ "options": \{$/ {
	print
	print "  \"ab\": {\"side\": \"" side "\", \"experiment\": {\"id\": \"20261202T100000Z-42\","
	print "   \"differences\": [{\"kind\": \"removed\", \"param\": \"mitigations\", \"a\": \"off\", \"b\": null, \"text\": \"mitigations=off of A\"},"
	print "    {\"kind\": \"added\", \"param\": \"nosmt\", \"a\": null, \"b\": \"\", \"text\": \"nosmt of B\"}],"
	print "   \"seed\": 7, \"pairing\": \"in turn\", \"pairs\": 12, \"seconds\": 340.5,"
	print "   \"confirm\": {\"level\": 0.99, \"blocks\": 4, \"results\": ["
	print "    {\"difference\": 0, \"text\": \"mitigations=off of A\", \"arm\": \"R1\", \"file\": \"r1-\","
	print "     \"benchmarks\": {\"null\": {\"removed\": 0.97, \"low\": 0.88, \"high\": 1.05, \"level\": 0.99, \"boots\": 8}}},"
	print "    {\"difference\": 1, \"text\": \"nosmt of B\", \"arm\": \"R2\", \"file\": \"r2-\","
	print "     \"benchmarks\": {\"null\": {\"removed\": 0.02, \"low\": -0.06, \"high\": 0.1, \"level\": 0.99, \"boots\": 8}}}]}}},"
	next
}
{ print }
EOF
awk -v side=A -f "$T/ab.awk" "$x/mitigations/old.json" > "$T/a.json"
awk -v side=B -f "$T/ab.awk" "$x/mitigations/new.json" > "$T/b.json"
pm report -o "$T/ab.html" "$T/a.json" "$T/b.json"
expect_status 0 "report of an ab experiment"
pm report -o "$T/noisy.html" "$x/noisy/old.json" "$x/noisy/new.json"
expect_status 0 "report of the noisy fixture"

command -v chromium >/dev/null 2>&1 ||
	{ [ "$fails" -eq 0 ] || finish; skip "chromium is not installed (apt-get install chromium): the pages were not looked at"; }

# chromium ARGS... URL: headless, nothing fetched, a fresh profile.
browser() {
	prof=$(mktemp -d "$T/profile.XXXXXX")
	timeout 300 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$prof" "$@" 2>>"$T/browser.err"
}

# ---- the screenshot: a page a person can read, not a blank one ----
rm -f "$T/pt.png"
browser --hide-scrollbars --screenshot="$T/pt.png" --window-size=1280,2000 "file://$T/pt.html" \
	>/dev/null || true
[ -s "$T/pt.png" ] || { fail "no screenshot"; tail -3 "$T/browser.err" >&2; finish; }
cp "$T/pt.png" "${TEST_BUILDDIR:-.}/tests/cli/report-page.png" 2>/dev/null || true
size=$(wc -c < "$T/pt.png")
ge "$size" 100000 || fail "the screenshot is $size bytes: a blank page?"
stats=$("$TEST_HELPERS/png-stats" "$T/pt.png")
case $? in
0) ;;
77) skip "png-stats was built without zlib: the screenshot cannot be read" ;;
*) fail "png-stats cannot read the screenshot" ;;
esac
set -- $stats
[ "${1:-0}" -eq 1280 ] && [ "${2:-0}" -eq 2000 ] || fail "the screenshot is ${1:-?}x${2:-?}, not 1280x2000"
# text, tables, badges and the evidence: hundreds of colours (a blank
# page has one), and ink on a good part of it
ge "${3:-0}" 200 || fail "the screenshot has ${3:-0} colours: blank or unstyled"
ge "${4:-0}" 40 || fail "the screenshot is ${4:-0} per mille inked: mostly blank"
# and so is the helper: a page of one colour is one colour
printf '<!DOCTYPE html><html><body style="background:#fff"></body></html>' > "$T/blank.html"
browser --hide-scrollbars --screenshot="$T/blank.png" --window-size=1280,2000 \
	"file://$T/blank.html" >/dev/null || true
set -- $("$TEST_HELPERS/png-stats" "$T/blank.png")
[ "${3:-}" = 1 ] && [ "${4:-}" = 0 ] || fail "png-stats says a blank page has ${3:-?} colours, ${4:-?} inked"

# ---- the document the browser built ----
dom() {
	browser --dump-dom "file://$1" > "$2" || browser --dump-dom "file://$1" > "$2"
	grep -q '</html>' "$2" || fail "no document from the browser for $1"
}
dom "$T/pt.html" "$T/pt.dom"
dom "$T/ab.html" "$T/ab.dom"
dom "$T/noisy.html" "$T/noisy.dom"

# Nothing the page says is a text dump: no <pre>, no n/s, one level.
for d in pt ab noisy; do
	f="$T/$d.dom"
	grep -qi '<pre' "$f" && fail "$d: a <pre> on the page"
	grep -Eq '>(n/s|n/c)<|\(n/s' "$f" && fail "$d: an n/s or n/c on the page"
	[ "$(grep -c 'geometric mean of the faster half' "$f")" -eq 1 ] ||
		fail "$d: the estimator is not named exactly once"
	# every heading has something under it before the next of its rank
	awk 'BEGIN { RS = "\001" } {
		s = $0
		while (match(s, /<h[2-4][^>]*>/)) {
			lv = substr(s, RSTART + 2, 1); s = substr(s, RSTART + RLENGTH)
			e = index(s, "</h" lv ">"); head = substr(s, 1, e - 1); rest = substr(s, e + 5)
			sub(/^[ \t\n]+/, "", rest)
			if (head ~ /^[ \t\n]*$/) print "empty text: <h" lv ">"
			else if (rest ~ "^<(/section|/body|h[2-" lv "][ >])") print "nothing under <h" lv ">" head
		}
	}' "$f" > "$T/$d.empty"
	[ -s "$T/$d.empty" ] && fail "$d: empty heading: $(head -1 "$T/$d.empty")"
done

# One figure, one interval, one verdict: each side's figure with its
# interval (every view's); the change's interval and the verdict are
# those of pmbench explain of the same files; all at one level, said so.
heads=$(grep -o '<th class="n">[0-9]*% interval</th>' "$T/pt.dom" | sed 's/<[^>]*>//g' | tr '\n' ,)
[ "$heads" = "99% interval,99% interval,99% interval," ] || fail "pt: the intervals' heads: $heads"
grep -q 'its 99% interval is between the runs' "$T/pt.dom" ||
	fail "pt: the legend does not give the figures' level"
grep -q 'behind the figures, at 99% as well' "$T/pt.dom" ||
	fail "pt: the legend does not say the change is at the figures' level"
pm explain --format json "$T/old.json" "$T/new.json"
expect_status 0 "explain of the page-table fixture"
awk '/^   "name": / { n = $2; gsub(/[",]/, "", n) }
/^   "verdict": / { v = $0; sub(/^ *"verdict": "/, "", v); sub(/",?$/, "", v) }
/^   "ci_low": / { lo = $2 + 0 }
/^   "ci_high": / { printf "%s|%s|%+.1f%% .. %+.1f%%\n", n, v, 100 * (lo - 1), 100 * ($2 - 1) }' \
	"$T/out" > "$T/explained"
[ "$(wc -l < "$T/explained")" -eq 9 ] || fail "pt: explain compared $(wc -l < "$T/explained") benchmarks, not 9"
while IFS='|' read -r b v ci; do
	grep -q "<tr data-key=\"$b\">.*<td class=\"n iv\">$ci</td><td><span class=\"verdict [a-z]*\">$v</span>" "$T/pt.dom" ||
		fail "pt: $b is not $v with the interval $ci as pmbench explain says"
done < "$T/explained"

# The verdict table: each benchmark, both figures with their intervals,
# the change with its interval, the verdict, the first cause.
f="$T/pt.dom"
for b in fork exec mmap; do
	grep -Eq "<tr data-key=\"$b\"><td><a href=\"#b-$b\">$b</a></td><td class=\"n fig\" data-v=\"[0-9.e+]+\" data-basis=\"rounds\">[0-9.]+ us</td><td class=\"n iv\" data-low=\"[0-9.e+]+\" data-high=\"[0-9.e+]+\">[0-9.]+ – [0-9.]+ (us|ms)</td><td class=\"n fig\"[^>]*>[0-9.]+ (us|ms)</td><td class=\"n iv\"[^>]*>[^<]+</td><td class=\"n\" data-v=\"1\.[0-9]+\">\+[0-9.]+%</td><td class=\"n iv\">\+[0-9.]+% \.\. \+[0-9.]+%</td><td><span class=\"verdict regression\">regression</span></td><td class=\"cause\"><a href=\"#f-$b\">page-table levels</a></td></tr>" "$f" ||
		fail "pt: no verdict row of $b (regression, page-table levels)"
done
for b in null null-io stat open sig-install sig-catch; do
	grep -Eq "<tr data-key=\"$b\">.*<span class=\"verdict nochange\">no change</span>" "$f" ||
		fail "pt: $b is not 'no change' in the verdict table"
done

# A finding per regression: the verdict line, where (the mechanism, the
# symbols, kernel and user), why: an ordered list of causes, the first
# page-table levels with its mechanism, its switch and its evidence.
awk '/<section class="finding/ { on = 1 } on { print } /<\/section>/ { on = 0 }' "$f" > "$T/findings"
[ "$(grep -c '<section class="finding regression" id="f-' "$T/findings")" -eq 3 ] ||
	fail "pt: not a finding per regression (fork, exec, mmap)"
grep -q '<section class="finding[^"]*" id="f-\(null\|stat\|open\)' "$T/findings" &&
	fail "pt: a finding for a benchmark that did not change"
awk '/id="f-fork"/ { on = 1 } on { print } on && /<\/section>/ { exit }' "$f" > "$T/fork"
grep -q '<p class="change">166 us → 235 us, <b>+41\.5%</b> <span class="small">(99% interval +[0-9.]*% \.\. +[0-9.]*%; 5 vs 5 rounds)</span></p>' "$T/fork" ||
	fail "pt: fork's verdict line"
grep -q '<h4>Where the time went</h4>' "$T/fork" || fail "pt: fork has no 'where'"
grep -q '<p>Kernel +68.9 us per op, user −2.42 ns per op' "$T/fork" || fail "pt: fork's kernel/user split"
grep -Eq '<tr><td>page tables</td><td class="n">45.9 us</td><td class="n">103 us</td><td class="n">\+56.9 us</td><td><code>copy_page_range</code></td></tr>' "$T/fork" ||
	fail "pt: fork's mechanism row"
grep -q '<tr><td><code>__pud_alloc</code></td><td class="small">\[kernel\]</td><td class="n">–</td><td class="n">5.99 us</td><td class="n">new</td></tr>' "$T/fork" ||
	fail "pt: fork's symbols (a new one)"
grep -q '<li>context switches per op 0.002 → 0.82</li>' "$T/fork" ||
	fail "pt: fork's context switches (0.002 -> 0.82) not among the counts that moved"
sed -n '/<h4>Why<\/h4>/,$p' "$T/fork" | tr -d '\n' > "$T/why"
grep -q '^<h4>Why</h4><ol class="causes"><li data-rule="page-table-levels"><b>page-table levels</b><span class="conf high" title="confidence 0.85">high</span><div class="sentence">NEW uses 4-level page tables where OLD used 2-level: fork' "$T/why" ||
	fail "pt: fork's first cause is not page-table levels in an ordered list"
grep -q '<p class="mech">Mechanism: <b>page tables</b>; switched by kernel.page_table_levels 2 -&gt; 4</p><ul class="evidence"><li>kernel.page_table_levels: 2 -&gt; 4</li><li>kernel.config.CONFIG_PGTABLE_LEVELS: 2 -&gt; 4</li>' "$T/why" ||
	fail "pt: fork's cause has no mechanism, switch or evidence list"
grep -q '</ul></li><li data-rule="icache"><b>text size / icache footprint</b><span class="conf medium"' "$T/why" ||
	fail "pt: fork's second cause"

# Counters: none that could not be counted (named once, with why), no
# ratio of a count near zero, a ratio where both counts are real.
grep -q '<p class="small uncounted">Not counted on this machine, so left out of the tables: cycles, instructions, icache, branch-misses (no hardware PMU on this machine' "$f" ||
	fail "pt: the uncounted events are not named once with why"
[ "$(grep -c 'class="small uncounted"' "$f")" -eq 1 ] || fail "pt: more than one sentence on uncounted events"
grep -Eq '<tr data-key="(cycles|instructions|icache|branch-misses)">' "$f" && fail "pt: an uncounted event in a table"
grep -q '<tr data-key="context-switches"><td>context-switches</td><td class="n" data-v="0.002">0.002</td><td class="n" data-v="0.82">0.82</td><td class="n"></td></tr>' "$f" ||
	fail "pt: context switches 0.002 against 0.82 given a ratio (or shown as 0.00)"
awk '/id="b-fork"/ { on = 1 } on && /<tr data-key="task-clock">/ { print; exit }' "$f" |
	grep -q '<td class="n" data-v="1.41[0-9]*">1.42</td></tr>' || fail "pt: fork's task-clock has no ratio"

# The difference flame graph: red and blue for a regression, grey with
# its reason for no change.
flame_diff() {
	awk -v b="$1" '$0 ~ "id=\"b-" b "\"" { on = 1 } on && /data-kind="diff"/ { d = 1 }
	d { print } d && /<\/figure>/ { exit }' "$f"
}
flame_diff fork > "$T/fork.diff"
grep -q '<svg[^>]*class="flame diff"' "$T/fork.diff" || fail "pt: fork's difference graph is not coloured"
grep -Eq 'fill="#ff[0-9a-f]{4}"' "$T/fork.diff" || fail "pt: no red frame in fork's difference graph"
flame_diff null > "$T/null.diff"
grep -q '<svg[^>]*class="flame diff grey"' "$T/null.diff" || fail "pt: null's difference graph is not grey"
grep -Eq 'fill="#' "$T/null.diff" && fail "pt: a coloured frame in null's difference graph (no change)"
grep -q '<figcaption>[^<]*in grey: not a decided change' "$T/null.diff" || fail "pt: null's grey graph does not say why"

# The ab experiment: its differences, the share each taken back
# removes, the cause it proves with a badge, the one it rules out.
f="$T/ab.dom"
grep -q '<h3 id="experiment">The experiment</h3>' "$f" || fail "ab: no experiment section"
[ "$(awk '/<table class="differences">/,/<\/table>/' "$f" | grep -c '^<tr><td>')" -eq 2 ] ||
	fail "ab: not a row per difference"
grep -q '<tr><td>mitigations=off of A</td><td>null</td><td class="n">97%</td><td class="n">88% .. 105% (99%)</td><td class="n">8</td></tr>' "$f" ||
	fail "ab: the share taking mitigations=off back removes"
grep -q '<tr><td>nosmt of B</td><td>null</td><td class="n">2%</td><td class="n">-6% .. 10% (99%)</td><td class="n">8</td></tr>' "$f" ||
	fail "ab: the share taking nosmt back removes"
awk '/id="f-null"/ { on = 1 } on { print } on && /<\/section>/ { exit }' "$f" | tr -d '\n' > "$T/abnull"
grep -q '<ol class="causes"><li data-rule="experiment"><span class="proof" title="[^"]*">proven by experiment</span><span class="conf high"[^>]*>high</span><div class="sentence">mitigations=off of A: taking it away removes 97%' "$T/abnull" ||
	fail "ab: null's first cause is not proven by experiment, with a badge"
grep -q '<li data-rule="experiment"><b>ruled out by experiment</b><span class="conf low"' "$T/abnull" ||
	fail "ab: the difference ruled out by experiment"
grep -q 'Mechanism: <b>system call entry and exit</b>; switched by the kernel argument mitigations=off' "$T/abnull" ||
	fail "ab: the mitigations cause names no mechanism and switch"

# The noisy pair: nothing decided; one compact list with what would
# decide them, said once.
f="$T/noisy.dom"
grep -q '<section class="finding' "$f" && fail "noisy: a finding for an undecided benchmark"
grep -q '<p>No benchmark changed beyond the noise floor' "$f" || fail "noisy: does not say nothing changed"
[ "$(awk '/<ul class="undecided">/,/<\/ul>/' "$f" | grep -c '^<li>')" -eq 6 ] ||
	fail "noisy: not one list of the six undecided benchmarks"
[ "$(grep -o 'at least 3 runs per side' "$f" | wc -l)" -eq 1 ] ||
	fail "noisy: what would decide them is not said once"
grep -Eq '<li><a href="#b-null">null</a> [+-][0-9.]+% <span class="small">\(99% interval -[0-9.]+% \.\. \+[0-9.]+%\)</span>: noise or contention' "$f" ||
	fail "noisy: null's line in the undecided list"
[ "$(grep -c '<span class="verdict inconclusive">' "$f")" -ge 6 ] || fail "noisy: the verdicts"

finish
