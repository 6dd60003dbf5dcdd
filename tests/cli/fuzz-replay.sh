#!/bin/sh
# The fuzz targets as plain programs: the seeds and every input that once
# failed (tests/fuzz/regress) go through the readers, importers and the
# event-list parser, and through every renderer of what they accept (the
# HTML report of one result file, and of two one after the other).
. "$TEST_LIB"

R="$TEST_BUILDDIR/tests/fuzz"
F="$TEST_SRCDIR/tests/fuzz"
# replay NAME INPUT...: every input replayed, none fails
replay() {
	name=$1
	shift
	pm_status=0
	"$R/replay-$name" "$@" >"$T/out" 2>"$T/err" || pm_status=$?
	checks=$((checks + 1))
	[ "$pm_status" -eq 0 ] || { fail "replay-$name: status $pm_status"; sed 's/^/  /' "$T/err" | head -20 >&2; }
	n=$(sed -n 's/^\([0-9]*\) inputs replayed$/\1/p' "$T/out")
	ge "${n:-0}" 2 || fail "replay-$name: only ${n:-0} inputs"
}
replay result $(find "$TEST_DATA" -name '*.json') "$F/regress/result"
replay lmbench "$TEST_DATA"/seeds/* "$F/regress/lmbench"
replay aim9 "$TEST_DATA"/seeds/* "$F/regress/aim9"
replay events "$TEST_SRCDIR"/events/*.events "$F/seeds/events" "$F/regress/events"
# the report: of one file, and of two one after the other (OLD NEW)
for d in "$TEST_DATA"/explain/*/; do
	[ -f "$d/old.json" ] && cat "$d/old.json" "$d/new.json" > "$T/pair-$(basename "$d").json"
done
replay report "$F/seeds/report" "$TEST_DATA"/*.json "$T"/pair-*.json "$F/regress/report"

finish
