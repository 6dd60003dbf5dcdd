#!/bin/sh
# Bounded input, errors that name the file, interrupted runs marked, empty
# lists refused.
. "$TEST_LIB"

# No reader follows an endless or huge file.  (Under a memory limit, so
# that a pmbench without bounds fails here instead of exhausting the
# machine; sanitizer builds reserve too much address space for one.)
limited() {
	status=0
	(
		[ -n "${PMBENCH_SANITIZED:-}" ] || ulimit -v 2097152
		exec timeout 60 "$PMBENCH" "$@"
	) >"$T/out" 2>"$T/err" || status=$?
	checks=$((checks + 1))
}
limited import lmbench /dev/zero
expect_status 2 "import /dev/zero"
expect_err "^pmbench: /dev/zero: larger than 16 MiB, the limit for a report to import$"
expect_one_line_error
# from a FIFO (no size to look at: the limit applies while reading); the
# writer holds it open before pmbench opens it (fd 3, opened read-write,
# never waits), so that it is there whichever process runs first
mkfifo "$T/fifo"
exec 3<>"$T/fifo"
head -c 20000000 /dev/zero >&3 &
limited import aim9 "$T/fifo" 3>&-
expect_status 2 "import from a FIFO"
expect_err "$T/fifo: larger than 16 MiB"
kill $! 2>/dev/null
wait 2>/dev/null
exec 3>&-
# A FIFO no process writes to is refused at once, not waited on forever
# (open(2) of a FIFO waits for a writer; pmbench does not).
for cmd in "show" "show --format json" "explain $TEST_DATA/good-small.json" \
	   "report -o $T/r.html" "import lmbench"; do
	limited $cmd "$T/fifo"
	expect_status 2 "$cmd FIFO"
	expect_err "^pmbench: $T/fifo: nothing to read: a FIFO or pipe with no writer$"
done
# ... while a pipe, which has its writer from the start, is read as a file
# (/dev/stdin here, <(...) in bash), once, whatever the format
for fmt in table json; do
	status=0
	cat "$TEST_DATA/good-small.json" | timeout 60 "$PMBENCH" show --format $fmt /dev/stdin \
		>"$T/out" 2>"$T/err" || status=$?
	checks=$((checks + 1))
	expect_status 0 "show --format $fmt /dev/stdin from a pipe"
done
expect_out '"hostname": "fixture"'
# a sparse 200 MiB file is refused by its size, unread
truncate -s 200M "$T/huge.json"
limited show "$T/huge.json"
expect_status 2 "show a 200 MiB file"
expect_err "^pmbench: $T/huge.json: larger than 128 MiB, the limit for a result file$"
limited import lmbench "$T/huge.json"
expect_status 2
expect_err "$T/huge.json: larger than 16 MiB"
# every command that reads results has the limit
limited explain "$TEST_DATA/good-small.json" "$T/huge.json"
expect_status 2 "explain a 200 MiB file"
expect_err "^pmbench: $T/huge.json: larger than 128 MiB, the limit for a result file$"
limited report -o "$T/r.html" "$T/huge.json"
expect_status 2 "report a 200 MiB file"
expect_err "^pmbench: $T/huge.json: larger than 128 MiB, the limit for a result file$"
# ... and the history: log skips a huge file and a FIFO with a word,
# @LABEL looks past them (it read every file whole, and waited on the FIFO)
H="$XDG_DATA_HOME/pmbench/results"
mkdir -p "$H"
sed 's/"label": null/"label": "mine"/' "$TEST_DATA/good-small.json" >"$H/20260101T000000Z-a.json"
mkfifo "$H/20260102T000000Z-fifo.json"
truncate -s 200M "$H/20260103T000000Z-huge.json"
limited show @mine
expect_status 0 "show @LABEL past a huge file and a FIFO"
expect_out '\[mine\]$'
limited log
expect_status 0 "log past a huge file and a FIFO"
expect_out '^@-2 .* mine +null stat$'
expect_err "^pmbench: warning: skipped $H/20260103T000000Z-huge.json: larger than 128 MiB, the limit for a result file$"
expect_err "^pmbench: warning: skipped $H/20260102T000000Z-fifo.json: nothing to read: a FIFO or pipe with no writer$"
rm -r "$H"
# JSON nested deeper than 2048 levels is refused by the parser (no stack
# overflow in the reader)
awk 'BEGIN { printf "{\"format\": \"pmbench-result\", \"schema\": 1, \"x\": ";
	     for (i = 0; i < 100000; i++) printf "["; }' >"$T/deep.json"
limited show "$T/deep.json"
expect_status 2 "show JSON nested 100000 deep"
expect_err "^pmbench: $T/deep.json:1:[0-9]+: not valid JSON: maximum parsing depth reached"

# A UTF-8 byte-order mark (Windows editors write one) is skipped, not an
# "invalid token"; UTF-16 is named.
{ printf '\357\273\277'; cat "$TEST_DATA/good-small.json"; } >"$T/bom.json"
pm show "$T/bom.json"
expect_status 0 "show a file with a byte-order mark"
expect_out '^null +234 ns +- +3 '
pm show --format json "$T/bom.json"
expect_status 0
expect_out '^\{$'
pm explain "$TEST_DATA/good-small.json" "$T/bom.json"
expect_status 0 "explain a file with a byte-order mark"
expect_out '^inconclusive \(2\): null \+0\.0%, stat \+0\.0%$'
{ printf '\377\376'; sed 's/./&\n/g' "$TEST_DATA/good-small.json" | tr '\n' '\0'; } >"$T/u16.json"
pm show "$T/u16.json"
expect_status 2 "show UTF-16"
expect_err "^pmbench: $T/u16.json: UTF-16 text \(it starts with a UTF-16 byte-order mark\); a result file is UTF-8$"

# Every error names the file and what is wrong.
pm show "$T"
expect_status 2 "show DIR"
expect_err "^pmbench: $T: is a directory, not a result file$"
pm show "$T/missing.json"
expect_status 2
expect_err "^pmbench: $T/missing.json: No such file or directory$"
pm import lmbench "$T"
expect_status 2 "import DIR"
expect_err "^pmbench: $T: is a directory, not a report to import$"
pm import lmbench "$T/missing.txt"
expect_status 2
expect_err "^pmbench: $T/missing.txt: No such file or directory$"
pm explain '' "$TEST_DATA/good-small.json"
expect_status 2 "explain ''"
expect_err "OLD: an empty file name"

# An interrupted run says so wherever the file is shown.
f="$TEST_DATA/interrupted.json"
pm show "$f"
expect_status 0
expect_out '^INTERRUPTED: the run was stopped; 1 of 4 benchmarks finished$'
pm show -v "$f"
expect_out '^INTERRUPTED: '
pm show --hotspots "$f"
expect_out '^INTERRUPTED: '
pm show --format csv "$f"
expect_status 0
expect_err "warning: $f: an interrupted run: only 1 benchmark finished"
pm show "$TEST_DATA/good-small.json"
expect_no_out 'INTERRUPTED'
# ... and a run that is interrupted writes what show needs for it
mkdir "$T/tmp"
TMPDIR="$T/tmp" "$PMBENCH" run --max-time 2 -o "$T/int.json" null stat fork >/dev/null 2>&1 &
pid=$!
i=0
while [ $i -lt 200 ] && ! ls -d "$T/tmp"/pmbench.* >/dev/null 2>&1; do
	sleep 0.05; i=$((i + 1))
done
sleep 0.5
kill -INT "$pid"
wait "$pid"
pm show "$T/int.json"
expect_status 0 "show an interrupted run"
expect_out '^INTERRUPTED: the run was stopped; ([0-2] of 3 benchmarks finished|all 3 benchmarks have figures, some from [1-4] of 5 rounds)$'

# Empty lists are usage errors.
for bad in "-e ''" "-e cycles,,icache" "-e cycles," "--instances ''" "--threads 1,,2"; do
	eval "pm run $bad null"
	expect_status 2 "run $bad"
	expect_err '^pmbench run: '
	[ ! -s "$T/out" ] || fail "run $bad: something ran"
done
expect_err "'1,,2'"
# software events only, said as such
pm run -e none --no-profile --max-time 0.05 --format csv null
expect_status 0 "-e none"
expect_out '^null,ok,.*,task-clock,'
expect_no_out ',cycles,'

finish
