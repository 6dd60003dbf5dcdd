#!/bin/sh
# The result history: run without -o keeps the result; @latest, @-N,
# @LABEL wherever a file is read; pmbench log lists the runs.
. "$TEST_LIB"

H="$XDG_DATA_HOME/pmbench/results"
quick="--max-time 0.1 --rounds 2 --no-profile --count-time 5"

pm run $quick --label first null
expect_status 0 "run without -o"
expect_err "result kept as @latest: $H/[0-9]{8}T[0-9]{6}Z(\.[0-9]+)?-.*\.json"
[ "$(ls "$H" | wc -l)" -eq 1 ] || fail "one run, not one file in $H"
case "$(ls "$H")" in
*"-$(uname -r | tr -c 'A-Za-z0-9._+\n-' _).json") ;;
*) fail "history file not named by the kernel: $(ls "$H")" ;;
esac
first=$(ls "$H")

pm run $quick --label second null stat
expect_status 0
[ "$(ls "$H" | wc -l)" -eq 2 ] || fail "two runs, not two files"
second=$(ls "$H" | tail -n 1)
[ "$second" != "$first" ] || fail "the second run did not get a new file"

# -o: the named file, not the history
pm run $quick -q -o "$T/named.json" null
expect_status 0
[ "$(ls "$H" | wc -l)" -eq 2 ] || fail "run -o also wrote into the history"

# show: no file is @latest; @-1; @LABEL
pm show
expect_status 0
expect_out '\[second\]$'
expect_out '^stat '
pm show @-1
expect_status 0
expect_out '\[first\]$'
expect_no_out '^stat '
pm show @first
expect_status 0
expect_out '\[first\]$'
pm show @latest @-1 @first
expect_status 0
# labels name the columns; a name that would repeat gets #N
expect_out '^benchmark +second +±99% +first +±99% +ratio +first#3 +±99% +ratio$'
expect_out '^stat +[0-9.]+ [nu]s +([0-9.]+%|unbounded) +- +-$'
pm show @-2
expect_status 2
expect_err '@-2: the result history .* holds 2 runs'
expect_one_line_error
pm show @nosuchlabel
expect_status 2
expect_err "@nosuchlabel: no run labelled 'nosuchlabel'"

# explain after two runs without -o
pm explain @-1 @latest
expect_status 0 "explain @-1 @latest"
expect_out "OLD $H/$first: 1 run"
expect_out "NEW $H/$second: 1 run"
expect_out '(^| )null[ :]'

# log: newest first, with the names that select the runs
pm log
expect_status 0
expect_out '^run +time \(UTC\) +kernel +host +label +benchmarks$'
expect_out "^@latest +[0-9-]{10}T[0-9:]{8}Z +$(uname -r | sed 's/[.+]/\\&/g') +$(uname -n) +second +null stat$"
expect_out "^@-1 +[0-9-]{10}T[0-9:]{8}Z +.* +first +null$"
expect_out "^\(2 runs in $H\)$"
pm log -n 1
expect_status 0
expect_no_out '^@-1 '
pm log --format csv
expect_status 0
expect_out '^run,created,kernel,host,label,benchmarks,file$'
expect_out "^@-1,.*,first,null,$H/$first$"
pm log --format markdown
expect_out '^\| run +\| time \(UTC\) +\|'
pm log -n 0
expect_status 2

# A broken file in the history is skipped with a warning, not fatal.
echo '{' > "$H/20000101T000000Z-broken.json"
pm log
expect_status 0
expect_err 'skipped .*20000101T000000Z-broken.json'
expect_out '^@-1 .* first '
expect_out '^\(3 runs in '
rm "$H/20000101T000000Z-broken.json"

# Without XDG_DATA_HOME: under HOME.
XDG_DATA_HOME= pm run $quick null
expect_status 0
expect_err "kept as @latest: $HOME/.local/share/pmbench/results/"
[ "$(ls "$HOME/.local/share/pmbench/results" | wc -l)" -eq 1 ] || fail "not kept under HOME"

# Neither: the run goes on and says that nothing is kept.
(unset XDG_DATA_HOME HOME; "$PMBENCH" run $quick null >"$T/out" 2>"$T/err"); status=$?
expect_status 0 "run without a history"
expect_err 'the result will not be kept: no result history'
(unset XDG_DATA_HOME HOME; "$PMBENCH" show >"$T/out" 2>"$T/err"); status=$?
expect_status 2 "show without a history"

# An empty history.
XDG_DATA_HOME="$T/empty" pm log
expect_status 0
expect_out '^no runs in the result history'

finish
