#!/bin/sh
# pmbench import: the seed mails' tables to result files, shown again;
# bad input is exit 2 with one line naming the file.
. "$TEST_LIB"

S="$TEST_DATA/seeds"

# count_files DIR N
count_files() {
	n=$(find "$1" -name '*.json' | wc -l)
	[ "$n" -eq "$2" ] || fail "$1: $n result files, expected $2"
}

# Every fixture, written with -o into a directory (several runs each).
# The whole mail on one line, the list footer run onto the last row.
pm import lmbench "$S/lmbench-collapsed-2.6.11.txt" -o "$T/collapsed"
expect_status 0 "import collapsed"
expect_out '^commando-  Linux 2.6.10 2400 0.49 0.57 2.06 3.06 19.6 0.89 2.70 166. 857. 2972$'
expect_out '^commando-  Linux 2.6.11 554. 450. 224. 1564.8 1548.3  549.9  574.6 1528 760.5$'
expect_err "2 results written to $T/collapsed/"
if grep -q 'warning\|note' "$T/err"; then fail "collapsed: warnings or notes without -v"; fi
count_files "$T/collapsed" 2
[ -f "$T/collapsed/1-commando--Linux_2.6.10.json" ] || fail "no 1-commando--Linux_2.6.10.json"
pm import lmbench -v "$S/lmbench-collapsed-2.6.11.txt"
expect_status 0 "import -v"
expect_err '^pmbench: note: .*\*Local\* Communication bandwidths: after row 2 \(commando- Linux 2.6.11\), "- You get this because'

# lmbench 2, two runs of three kernels (OS cut to "2.6.7-r"), an archive
# page's footer after the "-" line under the last row.
pm import lmbench "$S/lmbench2-six-rows.txt" -o "$T/six"
expect_status 0 "import lmbench 2"
expect_out '^214.2.168 Linux 2.6.7-r 2.9000   20.7   57.3   35.7  192.2    44.7   265.8$'
expect_out '^214.2.168   Linux 2.6.6   407 7.4680   55.2  257.8$'
# two rows of each kernel are two runs of one side: one file per kernel
count_files "$T/six" 3
expect_err "3 results written to $T/six/"
pm explain "$T/six/1-214.2.168-Linux_2.4.22-.json" "$T/six/3-214.2.168-Linux_2.6.6.json"
expect_status 0 "explain between imported sides of two runs each"
expect_out 'OLD .*: 2 runs, Linux 2.4.22- on 214.2.168'
expect_out '^[a-z0-9-]+  [A-Z ]+  .*; 2 vs 2 runs\)|: 2 vs 2 runs'
pm show --format csv "$T/six/2-214.2.168-Linux_2.6.7-r.json"
expect_out '^null,ok,us,[0-9.e+]+,[0-9.e+]+,[0-9.e+]+,2,'

# Wrapped at 72 columns and blanks collapsed: two rows have a blank the
# text does not place.  By default those figures are left out with one
# warning per row; --strict refuses.
pm import lmbench "$S/lmbench3-wrapped-ppc.txt" --strict -o "$T/wrapped"
expect_status 2 "import wrapped, strict"
expect_err "^pmbench: $S/lmbench3-wrapped-ppc.txt: \*Local\* Communication latencies: row 1 \(9919_unit Linux 2.6.25\): 7 figures for 8 columns, and they do not show which one is blank \(any of UDP, RPC/UDP, TCP, RPC/TCP\)"
expect_one_line_error
[ ! -e "$T/wrapped" ] || fail "a rejected import wrote files"
pm import lmbench "$S/lmbench3-wrapped-ppc.txt" -o "$T/wrapped"
expect_status 0 "import wrapped"
expect_err 'warning: .*row 1 \(9919_unit Linux 2.6.25\): 353.1 533.4 461.7 not imported'
expect_err 'warning: .*row 2 \(9919_unit Linux 2.6.18\): 181.5 144.3 789.3 293.9 23.9K not imported'
[ "$(grep -c warning "$T/err")" -eq 2 ] || fail "wrapped: not one warning per row"
expect_out '^9919_unit  Linux 2.6.25  20.6  68.8 131\.                         1269$'
expect_out '^9919_unit  Linux 2.6.18                                           7.09560  19.3$'
expect_out '^9919_unit  Linux 2.6.25   434 4.8150  174.6  183.3       511.8    No L2 cache\?$'
count_files "$T/wrapped" 2
pm import lmbench "$S/lmbench3-wrapped-ppc.txt" --strict --partial
expect_status 0 "--partial after --strict: the default again"

# getsummary's own output on a VM: Mhz -1, blank cells in fixed columns.
# Its two rows are two runs of one host and OS: one file, two runs.
mkdir "$T/vm"
pm import lmbench "$S/lmbench3-getsummary-vm.txt" --strict -o "$T/vm"
expect_status 0 "import getsummary"
if grep -q warning "$T/err"; then fail "getsummary: warnings"; fi
count_files "$T/vm" 1
pm show --format lmbench "$T"/vm/1-*.json
expect_status 0
# not measured: no Mhz, blank integer add and RPC cells
expect_out '^vm        Linux 6.18.44      [0-9.]{4} '
expect_out '^vm        Linux 6.18.44 [0-9.]{6}        [0-9.]{6} '
expect_out '^vm        Linux 6.18.44 [0-9. ]{5} +[0-9.]+ +[0-9.]+ +[0-9.]+       +[0-9.]+       +[0-9.K]+$'
pm show --format json "$T"/vm/1-*.json
expect_out '"cur_mhz": null'
expect_out '"cpu.cur_mhz": "not measured \(Mhz -1 or blank in the lmbench summary\)"'
expect_no_out '"int-add"'
expect_no_out '"rpc-udp"'

# Pasted on standard input.
pm import lmbench - < "$S/lmbench3-getsummary-vm.txt"
expect_status 0 "standard input"
expect_out '^vm        Linux 6.18.44'

pm import aim9 "$S/aim9-quoted.txt" -o "$T/aim9" --label 2.4-vs-2.5
expect_status 0 "import aim9"
expect_out '^test +2.4-vs-2.5 #1 +2.4-vs-2.5 #2  description$'
expect_out '^creat-clo +23752.50 +18943.17  File Creations and Closes/second$'
expect_out '^fifo_test +156870.00 +104160.00  FIFO Messages/second$'
count_files "$T/aim9" 2

# pmbench show reads them like any result file.
for f in "$T"/collapsed/*.json "$T"/six/*.json "$T"/wrapped/*.json; do
	pm show "$f"
	expect_status 0 "show $f"
	expect_out '^pmbench [0-9.]+ \(import:lmbench\) on '
done
pm show "$T/aim9/1-aim9.json"
expect_status 0
expect_out '^pmbench [0-9.]+ \(import:aim9\).*\[2.4-vs-2.5 #1\]'
expect_out '^aim9-creat-clo|^creat-clo'
pm show --format csv "$T/collapsed/1-commando--Linux_2.6.10.json"
expect_status 0
# a single figure: no interval (low and high empty)
expect_out '^fork,ok,us,166000,,,1,166,.*,single figure,'
expect_out '^bw-file-reread,ok,MB/s,[0-9.e+]+,,,1,1551.7,.*,single figure,'

# The two runs of the collapsed mail in lmbench's layout: as expected,
# and every row, blanks collapsed as the archive did, is in the mail.
pm show --format lmbench "$T"/collapsed/1-*.json "$T"/collapsed/2-*.json
expect_status 0 "show --format lmbench"
cp "$T/out" "$T/collapsed.txt"
if ! cmp -s "$T/out" "$S/lmbench-collapsed-2.6.11.expected"; then
	fail "show --format lmbench differs from lmbench-collapsed-2.6.11.expected"
	diff "$S/lmbench-collapsed-2.6.11.expected" "$T/out" | head -20 | sed 's/^/  /' >&2
fi
grep '^commando-' "$T/out" | tr -s ' ' > "$T/rows.txt"
[ "$(wc -l < "$T/rows.txt")" -eq 10 ] || fail "not 10 rows shown"
while IFS= read -r row; do
	grep -qF -- "$row" "$S/lmbench-collapsed-2.6.11.txt" || fail "row not in the mail: $row"
done < "$T/rows.txt"

# What it prints imports again to the same figures.
pm import lmbench "$T/collapsed.txt" -o "$T/again"
expect_status 0 "import the rendered table"
for i in 1 2; do
	pm show --format csv "$T"/collapsed/$i-*.json
	cut -d, -f1-8 "$T/out" > "$T/a.csv"
	pm show --format csv "$T"/again/$i-*.json
	cut -d, -f1-8 "$T/out" > "$T/b.csv"
	cmp -s "$T/a.csv" "$T/b.csv" || fail "run $i: figures differ after a round trip"
done

# Real runs and imported files mix, a row each.
pm show --format lmbench "$TEST_DATA/result-quick.json" "$T"/collapsed/1-*.json
expect_status 0
expect_out '^commando-  Linux 2.6.10 2400 0.49'
[ "$(grep -c '^Processor, Processes' "$T/out")" -eq 1 ] || fail "one Processor table"
# result-quick.json was written when page-fault had lmbench's Page Fault
# column; its one-fault figure (5.90623 us) is not lmbench's: left out
grep -q '5\.906' "$T/out" && fail "an old page-fault figure shown as lmbench's Page Fault"
grep -q '^vm  *Linux.* 676\.0 1\.714  *1\.826' "$T/out" ||
	fail "the File & VM row of result-quick.json: Mmap, Prot Fault, a blank Page Fault, selct"

# One run: -o is the file; --format json prints it.
printf '> fork_test 10000 56.2 5620.00 Task Creations/second\n' > "$T/one.txt"
pm import aim9 "$T/one.txt" -o "$T/one.json" --label mine
expect_status 0 "one run"
pm show --format json "$T/one.json"
expect_status 0
expect_out '"label": "mine"'
expect_out '"source": "import:aim9"'
pm import aim9 "$T/one.txt" --format json
expect_status 0 "--format json"
cp "$T/out" "$T/printed.json"
pm show "$T/printed.json"
expect_status 0 "the printed json is a result file"

# -o ending in '/' (or an existing directory) is a directory, with one
# run as with several: made if missing, named without doubled slashes.
export TMPDIR="$T/tmp"
mkdir "$TMPDIR"
pm import aim9 "$T/one.txt" -o "$T/newdir/"
expect_status 0 "one run, -o newdir/"
[ -f "$T/newdir/1-aim9.json" ] || fail "-o newdir/: no newdir/1-aim9.json"
expect_err "^pmbench: result written to $T/newdir/1-aim9.json\$"
pm show "$T/newdir/1-aim9.json"
expect_status 0 "the file in newdir/"
pm import aim9 "$T/one.txt" -o "$T/newdir"
expect_status 0 "one run, -o an existing directory"
expect_err "^pmbench: result written to $T/newdir/1-aim9.json\$"
count_files "$T/newdir" 1
pm import aim9 "$T/one.txt" -o "$T/deep//er/"
expect_status 0 "one run, -o a//b/"
[ -f "$T/deep/er/1-aim9.json" ] || fail "-o deep//er/: no deep/er/1-aim9.json"
expect_err "^pmbench: result written to $T/deep/er/1-aim9.json\$"
pm import lmbench "$S/lmbench-collapsed-2.6.11.txt" -o "$T/several//"
expect_status 0 "several runs, -o DIR//"
count_files "$T/several" 2
expect_err "^pmbench: 2 results written to $T/several/\$"
grep -q '//' "$T/err" && fail "a doubled slash in: $(cat "$T/err")"
: > "$T/plain"
pm import aim9 "$T/one.txt" -o "$T/plain/"
expect_status 2 "-o FILE/"
expect_err "^pmbench: -o $T/plain/: not a directory"
expect_one_line_error
[ -s "$T/plain" ] && fail "-o FILE/ wrote into FILE"
ls "$TMPDIR"/pmbench-results-* >/dev/null 2>&1 &&
	fail "-o FILE/: a recovery file, although nothing could be written"
pm import aim9 "$T/one.txt" -o ''
expect_status 2 "-o ''"
expect_err "^pmbench import: -o: an empty path"
# -o -: the result file alone on standard output, no file named '-'
(cd "$T" && "$PMBENCH" import aim9 "$T/one.txt" -o - >"$T/dash.json" 2>"$T/err") ||
	fail "-o -: exit status $?"
[ ! -e "$T/-" ] || fail "-o -: a file named '-' was written"
cp "$T/dash.json" "$T/out"
expect_out '^ "format": "pmbench-result",$'
expect_no_out '^fork_test' "-o -: the AIM9 table on stdout"
pm show "$T/dash.json"
expect_status 0 "-o - is a result file"

# Bad input: exit 2, one line naming the file or the problem.
pm import lmbench "$T/one.txt"
expect_status 2 "no lmbench table"
expect_err "^pmbench: $T/one.txt: no lmbench table found"
expect_one_line_error
pm import lmbench "$S/lmbench-no-table.txt"
expect_status 2 "a mail without a table"
expect_err "^pmbench: $S/lmbench-no-table.txt: no lmbench table found \(no table title such as"
expect_one_line_error
printf 'Processor\000\n' > "$T/binary.txt"
pm import lmbench "$T/binary.txt"
expect_status 2 "binary input"
expect_err "^pmbench: $T/binary.txt: binary data"
expect_one_line_error
sed 's/ 166\. / 16x. /' "$S/lmbench-collapsed-2.6.11.txt" > "$T/bad.txt"
pm import lmbench "$T/bad.txt"
expect_status 2 "a non-number"
expect_err "^pmbench: $T/bad.txt: Processor, Processes: row 1 \(commando- Linux 2.6.10\): \"16x.\" is not a figure"
expect_one_line_error
pm import aim9 "$S/lmbench2-six-rows.txt"
expect_status 2 "no AIM9 lines"
expect_err 'no AIM9 result lines'
pm import lmbench "$T/no-such-file.txt"
expect_status 2 "missing file"
expect_err "no-such-file.txt"
expect_one_line_error
pm import lmbench "$S/lmbench-collapsed-2.6.11.txt" --format json
expect_status 2 "json of two runs"
expect_err 'prints one run'
pm import nmap "$T/one.txt"
expect_status 2 "unknown kind"
expect_err "'nmap' is not lmbench or aim9"
pm import
expect_status 2
expect_err '^usage: pmbench import'
pm import aim9 "$T/one.txt" --format xml
expect_status 2
expect_err "'xml' is not one of table, json"
head -c 17000000 /dev/zero | tr '\000' 'x' > "$T/huge.txt"
pm import lmbench "$T/huge.txt"
expect_status 2 "an input of 17 MB"
expect_err "^pmbench: $T/huge.txt: larger than 16 MiB"
rm -f "$T/huge.txt"

# explain between an imported side and a fresh run: the figures are
# compared, and no cause needs what the report lacks (counters, hotspots,
# placement, fingerprint): only noise and the CPU clock.
pm run --no-profile -e none --min-trials 5 --max-time 0.3 -o "$T/fresh.json" null stat pipe
expect_status 0 "a fresh run"
for side in "$T"/vm/1-*.json "$T"/collapsed/1-*.json; do
	pm explain --all "$side" "$T/fresh.json"
	expect_status 0 "explain $side NEW"
	expect_out '^  OLD .*import:lmbench'
	expect_out '^(null|stat|pipe) '
	expect_out 'OLD is imported from a text report: figures only, with no counters, hotspots or fingerprint beyond the OS string and Mhz'
	pm explain --format json "$side" "$T/fresh.json"
	expect_status 0 "explain --format json"
	grep '"rule":' "$T/out" | grep -Ev '"rule": "(noise|cpu)"' > "$T/causes" || true
	[ ! -s "$T/causes" ] || fail "explain $side: a cause an imported side cannot support: $(head -1 "$T/causes")"
	grep -q '"name": "null"' "$T/out" || fail "explain $side: null not compared"
done
pm explain "$T/fresh.json" "$T"/vm/1-*.json
expect_status 0 "explain fresh OLD, imported NEW"
expect_out 'NEW is imported from a text report'
pm show "$T"/vm/1-*.json
expect_status 0
expect_out '^imported from .*lmbench3-getsummary-vm.txt \(an lmbench summary\): figures only; no counters, hotspots or fingerprint beyond the host, OS string and Mhz it prints'

finish
