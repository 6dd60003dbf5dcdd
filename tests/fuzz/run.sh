#!/bin/sh
# make fuzz: run each libFuzzer target for TIME seconds, niced (the machine
# is shared); the corpus grows in fuzz-corpus/NAME (kept between runs),
# crashes are written to fuzz-artifacts/NAME-* and fail the run.
# Usage: run.sh SRCDIR FUZZ-BUILDDIR TIME NAME...
set -u
src=$1 build=$2 time=$3
shift 3
status=0
mkdir -p fuzz-artifacts
for name in "$@"; do
	corpus=fuzz-corpus/$name seeds=fuzz-seeds/$name
	rm -rf "$seeds"
	mkdir -p "$corpus" "$seeds"
	# seed corpora from tests/data (and the event alias files)
	case $name in
	result) find "$src/tests/data" -name '*.json' -exec cp {} "$seeds/" \; ;;
	# one file, or two one after the other (explain's fixtures)
	report)
		cp "$src"/tests/fuzz/seeds/report/* "$seeds/"
		find "$src/tests/data" -maxdepth 1 -name '*.json' -exec cp {} "$seeds/" \;
		for d in "$src"/tests/data/explain/*/; do
			[ -f "$d/old.json" ] && [ -f "$d/new.json" ] &&
				cat "$d/old.json" "$d/new.json" > "$seeds/pair-$(basename "$d").json"
		done ;;
	lmbench|aim9) cp "$src"/tests/data/seeds/* "$seeds/" ;;
	events) cp "$src"/events/*.events "$src"/tests/fuzz/seeds/events/* "$seeds/" ;;
	esac
	dict=
	[ -f "$src/tests/fuzz/seeds/$name.dict" ] && dict="-dict=$src/tests/fuzz/seeds/$name.dict"
	# the report reads result files: the reader's words
	[ "$name" = report ] && dict="-dict=$src/tests/fuzz/seeds/result.dict"
	echo "fuzz-$name: ${time}s"
	times > "fuzz-$name.times"
	before=$(awk 'function s(x) { sub(/s$/, "", x); split(x, a, "m"); return a[1] * 60 + a[2] }
		END { print s($1) + s($2) }' "fuzz-$name.times")
	# a unit's timeout is wall time: niced on a busy machine a 0.2 s input
	# can wait for the CPU longer than 10 s, a false 'timeout'
	# shellcheck disable=SC2086
	nice -n 10 "$build/tests/fuzz/fuzz-$name" -max_total_time="$time" \
		-timeout=60 -rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="fuzz-artifacts/$name-" $dict \
		"$corpus" "$seeds" "$src/tests/fuzz/regress/$name" \
		>"fuzz-$name.log" 2>&1
	rc=$?
	grep -E '^(stat::number_of_executed_units|stat::average_exec_per_sec|stat::peak_rss_mb|Done )' \
		"fuzz-$name.log" | sed "s/^/  /"
	echo "  corpus: $(ls "$corpus" | wc -l) inputs"
	# CPU time of this target: the shell's children, before and after
	# (times itself, not in a pipe or $(...): a subshell has no children)
	times > "fuzz-$name.times"
	echo "  cpu: $(awk -v b="$before" 'function s(x) { sub(/s$/, "", x); split(x, a, "m"); return a[1] * 60 + a[2] }
		END { printf "%.0f s (user+system)", s($1) + s($2) - b }' "fuzz-$name.times")"
	if [ "$rc" -ne 0 ]; then
		echo "fuzz-$name FAILED (status $rc): see fuzz-$name.log and fuzz-artifacts/" >&2
		grep -E 'ERROR|SUMMARY|runtime error' "fuzz-$name.log" | head -5 >&2
		status=1
	fi
done
exit $status
