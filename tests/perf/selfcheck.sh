#!/bin/sh
# pmbench self-check, run by hand (make selfcheck): agreement and speed.
#
#  1. Each lmbench-compatible benchmark against a plain reference loop of
#     the same definition (tests/perf/plain-loops.c), trial by trial in
#     one process on one CPU (tests/perf/agree.c, which links pmbench's
#     runner), in ROUNDS processes: the median of the rounds' ratios must
#     be within TOLERANCE, and so must its 95% interval.  One whose
#     interval still reaches past TOLERANCE (UNSURE) runs in more
#     processes, alone with the others still unsure, up to MAX_ROUNDS in
#     all, as pmbench gives extra rounds to benchmarks whose rounds
#     disagree.  Misses and benchmarks still too noisy to tell make the
#     exit status 1.
#  2. With LMBENCH=DIR (lmbench's bin directory): `pmbench run` and
#     lmbench's binaries in turn, LMBENCH_ROUNDS times; pmbench/lmbench is
#     printed, not judged.
#  3. The quick suite: wall time and how many benchmarks converged.
#
# usage: selfcheck.sh BUILDDIR SRCDIR [LMBENCH-BIN-DIR]
# environment: ROUNDS (default 15), MAX_ROUNDS (30), SECONDS_PER_BLOCK (0.4), TOLERANCE
# (0.03), LMBENCH_ROUNDS (5), SKIP_QUICK=1, KEEP_AGREE=FILE (section 1's
# lines, for pmbench-agree judge)
set -eu
B=${1:?builddir}
S=${2:?srcdir}
L=${3:-}
PM="$B/pmbench"
HELLO="$B/pmbench-hello"
ROUNDS=${ROUNDS:-15}
MAX_ROUNDS=${MAX_ROUNDS:-$((2 * ROUNDS))}
BLOCK=${SECONDS_PER_BLOCK:-0.4}
TOL=${TOLERANCE:-0.03}
LROUNDS=${LMBENCH_ROUNDS:-5}
# named as pmbench names its scratch directory: lmbench's stat and open
# then look up a path of the same depth and length
T=$(mktemp -d "${TMPDIR:-/tmp}/pmbench.XXXXXX")
made_hello=
cleanup() {
	rm -rf "$T"
	[ -z "$made_hello" ] || rm -f /tmp/hello
}
trap cleanup EXIT
trap 'exit 130' INT TERM
# runs without -o would go to the result history: keep it here
XDG_DATA_HOME="$T/xdg"; export XDG_DATA_HOME
export PMBENCH_DATADIR="$S"

# a CPU this process may use (not always 0: taskset, containers)
cpu=$(awk '/^Cpus_allowed_list:/ { split($2, a, /[-,]/); print a[1]; exit }' /proc/self/status)

BENCHES="null stat open select sig-install sig-catch prot-fault page-fault-lmb fork exec pipe bw-pipe"
REVERSED=$(for b in $BENCHES; do echo "$b"; done | tac | tr '\n' ' ')

echo "== 1. lmbench-compatible benchmarks against reference loops"
echo "   (CPU $cpu; $ROUNDS processes, each two blocks of ${BLOCK} s per benchmark,"
echo "   pmbench's trials and the reference's in turn: the median of the"
echo "   processes' ratios and its 95% interval, which must lie within $TOL;"
echo "   a benchmark whose interval still reaches past it, up to $MAX_ROUNDS processes)"
# agree_round R BENCH...: one process, its lines appended to $T/agree
agree_round() {
	_r=$1
	shift
	# its scratch directories under $T: gone with it, whatever happens
	TMPDIR="$T" "$B/tests/perf/agree" run "$B/tests/perf/plain-loops" "$HELLO" \
		"$B/pmbench-spawner" "$cpu" "$BLOCK" "$@" >> "$T/agree" || {
		_st=$?
		[ "$_st" -ne 130 ] || exit 130
		echo "selfcheck: round $_r: a benchmark or its reference could not run" >&2
		exit 2
	}
}

r=1
while [ "$r" -le "$ROUNDS" ]; do
	# forward, then backward: a drift over the run hits all alike
	if [ $((r % 2)) -eq 1 ]; then set -- $BENCHES; else set -- $REVERSED; fi
	agree_round "$r" "$@"
	printf '   round %d of %d done\n' "$r" "$ROUNDS"
	r=$((r + 1))
done
# Those whose interval still reaches past the tolerance: more processes
# narrow it (fresh processes disagree by more than their trials do).
while [ "$r" -le "$MAX_ROUNDS" ]; do
	unsure=$("$B/tests/perf/agree" judge "$TOL" "$T/agree" 2>/dev/null |
		awk '$NF == "UNSURE" { printf "%s ", $1 }') || true
	[ -n "$unsure" ] || break
	# shellcheck disable=SC2086
	agree_round "$r" $unsure
	printf '   round %d of up to %d done (still unsure: %s)\n' "$r" "$MAX_ROUNDS" "${unsure% }"
	r=$((r + 1))
done
st=0
[ -z "${KEEP_AGREE:-}" ] || cp "$T/agree" "$KEEP_AGREE"
"$B/tests/perf/agree" judge "$TOL" "$T/agree" || st=$?
[ "$st" -le 1 ] || exit "$st"

lmb_cmd() {
	case $1 in
	null) echo "lat_syscall null" ;;
	stat) echo "lat_syscall stat $T/file" ;;
	open) echo "lat_syscall open $T/file" ;;
	select) echo "lat_select -n 100 file" ;;
	sig-install) echo "lat_sig install" ;;
	sig-catch) echo "lat_sig catch" ;;
	prot-fault) echo "lat_sig prot $L/lat_sig" ;;
	page-fault-lmb) echo "lat_pagefault $T/pffile" ;;
	fork) echo "lat_proc fork" ;;
	exec) echo "lat_proc exec" ;;
	pipe) echo "lat_pipe" ;;
	bw-pipe) echo "bw_pipe" ;;
	esac
}

# lmbench prints "...: 1.2345 microseconds" or "Pipe bandwidth: 1234.5 MB/sec";
# both become ns per operation (bw_pipe: per 64 KiB, as pmbench's bw-pipe)
lmb_ns() {
	# shellcheck disable=SC2046
	(cd "$T" && taskset -c "$cpu" "$L"/$(lmb_cmd "$1") 2>&1) | awk '
		{ for (i = 1; i < NF; i++) {
			if ($(i + 1) == "microseconds") v = $i * 1000
			if ($(i + 1) == "MB/sec") v = 65536 / ($i * 1048576) * 1e9 } }
		END { if (v > 0) print v }'
}

med() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

if [ -n "$L" ]; then
	[ -x "$L/lat_syscall" ] || { echo "selfcheck: LMBENCH=$L: no lat_syscall there" >&2; exit 2; }
	echo x > "$T/file"
	# lat_proc execs /tmp/hello
	if [ ! -e /tmp/hello ]; then
		cp "$L/hello" /tmp/hello
		made_hello=1
	fi
	echo
	echo "== 2. pmbench run against lmbench's binaries ($LROUNDS rounds in turn, medians; not judged)"
	r=1
	while [ "$r" -le "$LROUNDS" ]; do
		for b in $BENCHES; do
			"$PM" run --cpu "$cpu" --max-time 1 --no-counters --no-profile -q \
				-o "$T/$b.json" "$b"
			"$PM" show --format csv "$T/$b.json" |
				awk -F, -v b="$b" '$1 == b && $2 == "ok" { print $4 }' >> "$T/$b.pm"
			# written in 1 MiB blocks as pmbench writes its file, and
			# afresh each time: the page cache folios, hence the pages
			# one fault maps, are alike (a file whose cache was dropped
			# and read back by faults sits in small folios: 98-128
			# faults a pass here, against 8, and twice the time)
			[ "$b" != page-fault-lmb ] ||
				dd if=/dev/urandom of="$T/pffile" bs=1M count=8 2>/dev/null
			lmb_ns "$b" >> "$T/$b.lmb"
		done
		printf '   round %d of %d done\n' "$r" "$LROUNDS"
		r=$((r + 1))
	done
	printf '%-15s %12s %12s %9s\n' benchmark "pmbench ns" "lmbench ns" "pm/lmb"
	for b in $BENCHES; do
		p=$(med < "$T/$b.pm")
		l=$(med < "$T/$b.lmb")
		# bandwidth: the ratio of MB/s, the inverse of the ratio of times
		awk -v b="$b" -v p="${p:-0}" -v l="${l:-0}" \
			-v bw="$([ "$b" = bw-pipe ] && echo 1 || echo 0)" 'BEGIN {
			if (l > 0 && p > 0) printf "%-15s %12.1f %12.1f %9.3f\n", b, p, l, bw ? l / p : p / l
			else printf "%-15s %12s %12s %9s\n", b, "-", "-", "-" }'
	done
	echo "(pm/lmb of bw-pipe is the ratio of MB/s)"
fi

if [ -z "${SKIP_QUICK:-}" ]; then
	echo
	echo "== 3. quick suite at its default budget"
	t0=$(date +%s.%N)
	"$PM" run -q -o "$T/quick.json" quick
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "quick suite: %.1f s\n", b - a }'
	"$PM" show "$T/quick.json" | sed -n '2,/^(per/p'
	conv=$(grep -c '"converged": true' "$T/quick.json" || true)
	all=$(grep -c '"converged":' "$T/quick.json" || true)
	echo "converged: $conv of $all"
fi

exit "$st"
