#!/bin/sh
# pmbench report: a self-contained HTML page, checked in a real browser
# (headless Chromium): the table rows, every plot with its data, both
# flame graphs and the differential one, explain's findings, no errors.
. "$TEST_LIB"

quick="--max-time 0.3 --rounds 3 --profile-time 100"
pm run $quick --label old null pipe
expect_status 0 "first run"
pm run $quick --label new null pipe
expect_status 0 "second run"

pm report -o "$T/r.html" @-1 @latest
expect_status 0 "report @-1 @latest"
[ -s "$T/r.html" ] || { fail "no report written"; finish; }

# Self-contained: no script, nothing fetched.
grep -Eiq '<script|<link|<img|<iframe|<object|<embed| src=|@import|url\(' "$T/r.html" &&
	fail "the page loads or runs something"
grep -Eo 'https?://[^" ]*' "$T/r.html" | grep -v '^http://www.w3.org/2000/svg$' |
	grep -q . && fail "the page names an address other than the SVG namespace"
grep -Eq 'cmd_run|timed_run|bench_iterate' "$T/r.html" && fail "pmbench's own frames in the flame graphs"

# Trials per side and benchmark, from the result files themselves.
for side in old new; do
	pm show --format csv "@$side"
	for b in null pipe; do
		awk -F, -v b="$b" 'NR > 1 && $1 == b { print $7; exit }' "$T/out" > "$T/n.$side.$b"
		[ -s "$T/n.$side.$b" ] || fail "no trials of $b in @$side"
	done
done

# Other forms: one file, three files, --all-frames, standard output.
pm report -o "$T/one.html" @old
expect_status 0
grep -q 'id="findings"' "$T/one.html" && fail "one file: explain's findings"
grep -q 'data-kind="diff"' "$T/one.html" && fail "one file: a differential flame graph"
pm report -o "$T/three.html" @old @new @latest
expect_status 0
[ "$(grep -c '<section class="bench"' "$T/three.html")" -eq 2 ] || fail "three files: not a section per benchmark"
pm report --all-frames -o "$T/all.html" @old @new
expect_status 0
grep -Eq '<title>(timed_run|bench_iterate|profile_pass):' "$T/all.html" || fail "--all-frames: no runner frames"
pm report @old
expect_status 0 "report on standard output"
grep -q '^</html>$' "$T/out" || fail "report on standard output: no page"
pm report -o "$T/x.html" "$T"
expect_status 2 "report of a directory"
pm report -o "$T/x.html" @nosuchrun
expect_status 2

# Hostile result files: a real fixture with a script in every string
# value, each tagged pwID (hostile.awk: ID numbers the value's JSON
# path and occurrence; the map says which is which).
fix="$TEST_DATA/explain/paravirt"
cat > "$T/hostile.awk" <<'EOF'
# Every string value of pretty-printed result files (a value a line)
# replaced by a payload tagged pwID: ID numbers the JSON path and the
# occurrence in its file, the same in every file but under sysinfo,
# whose values differ (fingerprint differences).  A stack gets two
# frames of payload, kernel.config a key of payload.  Two benchmarks go
# first: one unsupported (its reason), one of measured values (its unit).
# Each tag and its path go to the file map.
function payload(id) {
	return "<i>pw" id "</i>&x\\\"'><script>document.documentElement.setAttribute('data-pwned','" id "')</script><img src=x onerror=\\\"document.documentElement.setAttribute('data-pwned','" id "')\\\">"
}
function tag(path,   id) {
	if (!(path in num))
		num[path] = ++npaths
	id = num[path] "-" (++seen[path])
	if (path ~ /^sysinfo/)
		id = id "-" nfile
	print id, path > map
	return id
}
function where(key,   p, i) {
	p = ""
	for (i = 1; i <= depth; i++)
		if (stack[i] != "")
			p = p stack[i] "."
	return p key
}
function line(s,   key, pre, comma, v) {
	key = ""
	if (s ~ /^ *"[^"]*": /) {
		key = s
		sub(/^ *"/, "", key)
		sub(/".*/, "", key)
	}
	if (s ~ /[{[]$/) {
		stack[++depth] = key
	} else if (s ~ /^ *[]}]/) {
		depth--
	} else if (s ~ /^ *"[^"]*": ".*",?$/ && key !~ /^(format|status)$/) {
		comma = s ~ /,$/ ? "," : ""
		pre = s
		sub(/": ".*/, "\": ", pre)
		v = payload(tag(where(key)))
		if (key == "stack")
			v = v ";" payload(tag(where(key)))
		s = pre "\"" v "\"" comma
	} else if (key == "" && s ~ /^ *".*",?$/) {
		comma = s ~ /,$/ ? "," : ""
		pre = s
		sub(/".*/, "", pre)
		s = pre "\"" payload(tag(where("[]"))) "\"" comma
	}
	print s > out
}
FNR == 1 { depth = 0; split("", seen); nfile++; out = FILENAME ".hostile" }
{ line($0) }
/^ *"config": \{$/ { print "\"" payload(tag(where("key"))) "\": \"y\"," > out }
/^ *"benchmarks": \[$/ {
	n = split("{|\"name\": \"u\",|\"unit\": \"u\",|\"status\": \"unsupported\",|" \
		"\"reason\": \"r\"|},|{|\"name\": \"m\",|\"unit\": \"u\",|\"summary\": \"s\",|" \
		"\"status\": \"ok\",|\"values\": [10, 11, 12, 13, 14],|" \
		"\"stats\": {\"n\": 5, \"median_ns\": 12, \"converged\": true}|},", add, "|")
	for (i = 1; i <= n; i++)
		line(add[i])
}
EOF
mkdir -p "$T/hostile"
cp "$fix/old.json" "$T/hostile/old.json"
# and a file name of markup
cp "$fix/new.json" "$T/hostile/new<pwpath>&'\".json"
(cd "$T/hostile" && awk -v map=map -f "$T/hostile.awk" old.json new*.json) ||
	fail "hostile.awk failed"
pm report -o "$T/hostile.html" "$T/hostile/old.json.hostile" "$T"/hostile/new*.json.hostile
expect_status 0 "report of hostile files"
h="$T/hostile.html"
# markup only escaped: no tag of a payload, nothing escaped twice
grep -Eq '<i>|<script|<img|<pwpath' "$h" && fail "hostile files: markup from a result file in the page"
grep -Eq '&amp;(lt|gt|quot|amp|#39);' "$h" && fail "hostile files: text escaped twice"
grep -Fq "&lt;i&gt;pw2-1&lt;/i&gt;&amp;x&quot;&#39;&gt;&lt;script&gt;" "$h" ||
	fail "hostile files: the label is not shown escaped"
grep -Fq '&lt;pwpath&gt;&amp;&#39;&quot;.json' "$h" || fail "hostile files: the path is not shown escaped"
grep -Fq '<h2 id="findings">' "$h" || fail "hostile files: no findings of explain"
grep -q '<pre' "$h" && fail "hostile files: a <pre> on the page"
# every link (the results table's to a benchmark's section, a finding's)
# finds its target, ids are unique
grep -o 'href="#[^"]*"' "$h" | sed 's/^href="#//; s/"$//' | sort -u > "$T/links"
grep -o ' id="[^"]*"' "$h" | sed 's/^ id="//; s/"$//' | sort > "$T/ids"
[ "$(grep -c '^b-' "$T/links")" -eq 9 ] || fail "hostile files: $(grep -c '^b-' "$T/links") links to benchmarks, expected 9 (a benchmark each)"
[ -z "$(sort -u "$T/ids" | comm -23 "$T/links" -)" ] || fail "hostile files: a link finds no section"
[ -z "$(uniq -d "$T/ids")" ] || fail "hostile files: an id used twice: $(uniq -d "$T/ids" | head -1)"
# every value the page shows, shown escaped: at least one of its tags
for path in label source created benchmarks.name benchmarks.summary benchmarks.unit \
	benchmarks.lmbench benchmarks.reason benchmarks.counters.events.name \
	benchmarks.counters.events.reason benchmarks.hotspots.stacks.stack \
	benchmarks.hotspots.symbols.name sysinfo.hostname sysinfo.kernel.release \
	sysinfo.kernel.machine sysinfo.cpu.model_name sysinfo.kernel.cmdline; do
	found=no
	for id in $(awk -v p="$path" '$2 == p { print $1 }' "$T/hostile/map"); do
		grep -Fq "&lt;i&gt;pw$id&lt;/i&gt;" "$h" && { found=yes; break; }
	done
	[ "$found" = yes ] || fail "hostile files: no $path in the page"
done

# A text megabytes long is shown cut: the label, the host name, and the
# first benchmark's name, summary, counter reason and stack add little
# to the page (the label was once copied into it about 29 times).
awk 'BEGIN { s = "L"; while (length(s) < 2000000) s = s s; s = "<long>" s }
/^ *"(label|hostname|name|summary|reason|stack)": "/ && !done[$1]++ { sub(/": ".*"/, "\": \"" s "\"") }
{ print }' "$fix/old.json" > "$T/long.json"
pm report -o "$T/short.html" "$fix/old.json" "$fix/new.json"
expect_status 0 "report of the fixture"
status=0
timeout 120 "$PMBENCH" report -o "$T/long.html" "$T/long.json" "$fix/new.json" 2>"$T/err" || status=$?
expect_status 0 "report of megabyte-long texts"
in=$(wc -c < "$T/long.json") short=$(wc -c < "$T/short.html") long=$(wc -c < "$T/long.html")
ge "$in" 12000000 || fail "long.json is only $in bytes"
le "$long" $((short + 100000)) || fail "megabyte-long texts make a page of $long bytes (the fixture's: $short)"
grep -q '&lt;long&gt;LLLL*…' "$T/long.html" || fail "no long text shown cut"

command -v chromium >/dev/null 2>&1 ||
	{ [ "$fails" -eq 0 ] || finish; skip "chromium is not installed (apt-get install chromium): the page was not checked in a browser"; }

# Load the page in the browser and take the document it built (into
# $T/$2, default dom.html).
browse() {
	mkdir -p "$T/profile"
	timeout 300 chromium --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$T/profile" --enable-logging=stderr --v=0 \
		--dump-dom "file://$1" >"$T/${2:-dom.html}" 2>"$T/browser.err"
}
browse "$T/r.html" || browse "$T/r.html" || { fail "chromium could not load the page"; sed 's/^/  /' "$T/browser.err" | tail -5 >&2; finish; }
grep -q '</html>' "$T/dom.html" || fail "no document from the browser"
grep -Ei 'Uncaught|CONSOLE\(' "$T/browser.err" && fail "errors in the browser console"
grep -qi '<script' "$T/dom.html" && fail "a script in the document"

# The results table: a row per benchmark, each side's figure and its
# interval, the change with its interval, explain's verdict.
for b in null pipe; do
	grep -Eq "<tr data-key=\"$b\"><td><a href=\"#b-$b\">$b</a></td>(<td class=\"n fig\" data-v=\"[0-9.e+-]+\" data-basis=\"rounds\">[^<]+</td><td class=\"n iv\" data-low=\"[0-9.e+-]+\" data-high=\"[0-9.e+-]+\">[^<]+ – [^<]+</td>){2}<td class=\"n\" data-v=\"[0-9.e+-]+\">[+-][0-9.]+%</td><td class=\"n iv\">[+-][0-9.]+% \.\. [+-][0-9.]+%</td><td><span class=\"verdict [a-z]+\">(regression|improvement|no change|inconclusive)</span></td><td class=\"cause\">(<a href=\"#f-$b\">[^<]+</a>|[^<]*)</td></tr>" "$T/dom.html" ||
		fail "results table: no full row for $b"
done
grep -q '<h2 id="findings">What changed and why</h2>' "$T/dom.html" || fail "no findings of explain"
grep -qi '<pre' "$T/dom.html" && fail "a <pre> on the page"

# Every plot, per benchmark, with its data: summarised by awk from the
# document the browser built.
awk '
function attr(s, name,   m) {
	if (match(s, " " name "=\"[^\"]*\"")) { m = substr(s, RSTART, RLENGTH); sub(/^[^"]*"/, "", m); sub(/"$/, "", m); return m }
	return ""
}
/<section class="bench"/ { bench = attr($0, "data-bench") }
/<g class="side"/ { side = attr($0, "data-side"); print "side", bench, side, attr($0, "data-trials") }
/<path class="round/ {
	n = attr($0, "data-n"); nv = split(attr($0, "data-v"), v, " ")
	d = attr($0, "d"); nm = gsub(/M/, "M", d)
	print "round", bench, side, n, nv, nm
}
/<figure class="flame"/ { kind = attr($0, "data-kind"); fside = attr($0, "data-side") }
/<svg[^>]*class="flame/ { print "flame", bench, kind, fside, attr($0, "data-total") }
/<rect / && kind != "" {
	print "frame", bench, kind, fside, attr($0, "data-n"), (attr($0, "fill") ~ /^#(ff[0-9a-f][0-9a-f][0-9a-f][0-9a-f]|[0-9a-f][0-9a-f][0-9a-f][0-9a-f]ff)$/)
}
/<\/figure>/ { kind = "" }
/<table class="counters">/ { print "counters", bench }
/<tr data-key="task-clock">/ { print "taskclock", bench }
/<span class="verdict/ && bench != "" { print "verdict", bench }
/<tr data-key="[^"]*"><td><a href="#b-/ && match($0, /<span class="verdict [a-z]+">/) {
	print "decided", attr($0, "data-key"), ($0 ~ /class="verdict (regression|improvement)"/)
}
' "$T/dom.html" > "$T/plots"

for b in null pipe; do
	grep -q "^verdict $b$" "$T/plots" || fail "$b: no verdict"
	grep -q "^counters $b$" "$T/plots" && grep -q "^taskclock $b$" "$T/plots" ||
		fail "$b: no counters table with task-clock"
	for side in old new; do
		want=$(cat "$T/n.$side.$b")
		grep -q "^side $b $side $want$" "$T/plots" ||
			fail "$b/$side: the trials plot does not say $want trials"
		# every trial is a dot, and its value is there
		got=$(awk -v b="$b" -v s="$side" '$1 == "round" && $2 == b && $3 == s {
			n += $4; v += $5; m += $6; k++ } END { print k + 0, n + 0, v + 0, m + 0 }' "$T/plots")
		set -- $got
		[ "$1" -ge 3 ] || fail "$b/$side: $1 rounds drawn, expected 3"
		[ "$2" -eq "$want" ] && [ "$3" -eq "$want" ] && [ "$4" -eq "$want" ] ||
			fail "$b/$side: trials $want, but rounds say $2, values $3, dots $4"
		# a flame graph per side, its frames with their figures
		grep -q "^flame $b side $side [0-9.e+-]+$" "$T/plots" 2>/dev/null ||
			grep -Eq "^flame $b side $side [0-9.e+-]+$" "$T/plots" ||
			fail "$b/$side: no flame graph"
		f=$(awk -v b="$b" -v s="$side" '$1 == "frame" && $2 == b && $3 == "side" && $4 == s && $5 > 0' "$T/plots" | wc -l)
		[ "$f" -ge 3 ] || fail "$b/$side: flame graph with $f frames"
	done
	grep -Eq "^flame $b diff new [0-9.e+-]+$" "$T/plots" || fail "$b: no differential flame graph"
	f=$(awk -v b="$b" '$1 == "frame" && $2 == b && $3 == "diff" && $5 > 0' "$T/plots" | wc -l)
	c=$(awk -v b="$b" '$1 == "frame" && $2 == b && $3 == "diff" && $6 == 1' "$T/plots" | wc -l)
	[ "$f" -ge 3 ] || fail "$b: differential flame graph with $f frames"
	# coloured only for a decided change, else grey
	if grep -q "^decided $b 1$" "$T/plots"; then
		[ "$c" -ge 1 ] || fail "$b: a decided change, and no frame of the differential graph is red or blue"
	else
		grep -q "^decided $b 0$" "$T/plots" || fail "$b: no verdict in the results table"
		[ "$c" -eq 0 ] || fail "$b: not a decided change, and $c frames of the differential graph are red or blue"
	fi
done
# the process is the frame above the base
grep -q '<title>pmbench: ' "$T/dom.html" || fail "no process frame in the flame graphs"

# The hostile page in the browser: no payload ran (each would mark the
# root element), none became an element (attribute values aside), and
# the browser shows them as text.
browse "$h" hdom.html || browse "$h" hdom.html || fail "chromium could not load the hostile page"
grep -q '</html>' "$T/hdom.html" || fail "hostile page: no document from the browser"
grep -o '<html[^>]*>' "$T/hdom.html" | grep -q 'data-pwned' &&
	fail "hostile page: a payload ran ($(grep -o 'data-pwned="[^"]*"' "$T/hdom.html"))"
sed 's/="[^"]*"//g' "$T/hdom.html" | grep -Eq '<(i|script|img|pwpath)[ >]' &&
	fail "hostile page: a payload became an element"
n=$(grep -o '&lt;i&gt;pw[0-9-]*&lt;/i&gt;' "$T/hdom.html" | sort -u | wc -l)
ge "$n" 40 || fail "hostile page: the browser shows $n payloads as text, expected 40 or more"

finish
