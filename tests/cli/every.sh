#!/bin/sh
# Every registered benchmark sets up, runs in the runner and tears down:
# status ok, or unsupported with its reason; never failed.  A benchmark
# added to a family is checked here without touching this file.
. "$TEST_LIB"

pm list --names
expect_status 0
cp "$T/out" "$T/names"
n=$(wc -l < "$T/names")
ge "$n" 16 || fail "list --names: only $n names"

# the least that still runs setup, calibration, trials and a counted pass
pm run -q --rounds 1 --target-time 1 --min-trials 2 --max-trials 2 --count-time 1 \
	--no-profile -e none -o "$T/all.json" all
expect_status 0 "run all"
pm show --format csv "$T/all.json"
expect_status 0
awk -F, 'NR > 1 && !seen[$1]++ { print $1, $2 }' "$T/out" > "$T/status"
[ "$(wc -l < "$T/status")" -eq "$n" ] ||
	fail "run all: $(wc -l < "$T/status") results for $n benchmarks"
while read -r b; do
	st=$(awk -v b="$b" '$1 == b { print $2 }' "$T/status")
	case $st in
	ok|unsupported) ;;
	*) fail "$b: status '${st:-missing}'" ;;
	esac
done < "$T/names"
# the unsupported say why
pm show "$T/all.json"
grep -E '^[a-z0-9-]+ +unsupported' "$T/out" | while read -r b _; do
	grep -Eq "^  $b: unsupported: .+" "$T/out" || echo "$b"
done > "$T/noreason"
[ ! -s "$T/noreason" ] || fail "unsupported without a reason: $(cat "$T/noreason")"

finish
