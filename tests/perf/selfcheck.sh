#!/bin/sh
# pmbench self-check, run by hand (make selfcheck): agreement and speed.
#
#  1. Each lmbench-compatible benchmark against a plain reference loop of
#     the same definition (tests/perf/plain-loops.c), interleaved in the
#     same run on the same CPU: the median of the ROUNDS rounds' ratios
#     (each round's pmbench over its reference, taken next to each other,
#     so a drift of the host hits both) must be within 3%.  Misses are listed and make the exit status 1.
#     With LMBENCH=DIR (lmbench's bin directory) its binaries run in the
#     same rounds and pmbench/lmbench is printed too (not judged).
#  2. the quick suite: wall time and how many benchmarks converged.
#
# usage: selfcheck.sh BUILDDIR SRCDIR [LMBENCH-BIN-DIR]
# environment: ROUNDS (default 9), TOLERANCE (default 0.03), SKIP_QUICK=1
set -eu
B=${1:?builddir}
S=${2:?srcdir}
L=${3:-}
PM="$B/pmbench"
HELLO="$B/pmbench-hello"
ROUNDS=${ROUNDS:-9}
TOL=${TOLERANCE:-0.03}
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

${CC:-cc} -O2 -o "$T/plain" "$S/tests/perf/plain-loops.c"

# a CPU this process may use (not always 0: taskset, containers)
cpu=$(awk '/^Cpus_allowed_list:/ { split($2, a, /[-,]/); print a[1]; exit }' /proc/self/status)

# pmbench benchmark, reference operation, lmbench command (run in $T)
BENCHES="null stat open select sig-install sig-catch prot-fault page-fault-lmb fork exec pipe bw-pipe"

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

if [ -n "$L" ]; then
	[ -x "$L/lat_syscall" ] || { echo "selfcheck: LMBENCH=$L: no lat_syscall there" >&2; exit 2; }
	echo x > "$T/file"
	# written in 1 MiB blocks as pmbench writes its file: the page cache
	# folios, hence the pages one fault maps, are alike
	dd if=/dev/urandom of="$T/pffile" bs=1M count=8 2>/dev/null
	# lat_proc execs /tmp/hello
	if [ ! -e /tmp/hello ]; then
		cp "$L/hello" /tmp/hello
		made_hello=1
	fi
fi

med() { sort -g | awk '{ v[NR] = $1 } END { if (NR) print v[int((NR + 1) / 2)] }'; }

echo "== 1. lmbench-compatible benchmarks against reference loops"
echo "   (CPU $cpu, $ROUNDS interleaved rounds: medians, and the median of the"
echo "   rounds' ratios, which must be within $TOL)"
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# alternate the order of each pair: drift hits both sides alike
	for b in $BENCHES; do
		if [ $((r % 2)) -eq 1 ]; then
			"$PM" run --cpu "$cpu" --max-time 1 --no-counters --no-profile -q -o "$T/$b.json" "$b"
			"$PM" show --format csv "$T/$b.json" |
				awk -F, -v b="$b" '$1 == b && $2 == "ok" { print $4 }' >> "$T/$b.pm"
			taskset -c "$cpu" "$T/plain" "$b" "$HELLO" >> "$T/$b.ref"
		else
			taskset -c "$cpu" "$T/plain" "$b" "$HELLO" >> "$T/$b.ref"
			"$PM" run --cpu "$cpu" --max-time 1 --no-counters --no-profile -q -o "$T/$b.json" "$b"
			"$PM" show --format csv "$T/$b.json" |
				awk -F, -v b="$b" '$1 == b && $2 == "ok" { print $4 }' >> "$T/$b.pm"
		fi
		[ -z "$L" ] || lmb_ns "$b" >> "$T/$b.lmb"
	done
	printf '   round %d of %d done\n' "$r" "$ROUNDS"
	r=$((r + 1))
done

printf '%-15s %12s %12s %7s' benchmark "pmbench ns" "ref ns" ratio
[ -z "$L" ] || printf ' %12s %9s' "lmbench ns" "pm/lmb"
printf '\n'
misses=
for b in $BENCHES; do
	p=$(med < "$T/$b.pm")
	q=$(med < "$T/$b.ref")
	# round by round: pmbench's figure over the reference's of that round
	rr=$(paste -d' ' "$T/$b.pm" "$T/$b.ref" | awk 'NF == 2 && $2 > 0 { print $1 / $2 }' | med)
	line=$(awk -v b="$b" -v p="${p:-0}" -v q="${q:-0}" -v rr="${rr:-0}" -v tol="$TOL" 'BEGIN {
		ratio = rr + 0
		miss = !(ratio >= 1 - tol && ratio <= 1 + tol)
		printf "%-15s %12.1f %12.1f %7.3f%s", b, p, q, ratio, miss ? " MISS" : ""
	}')
	case $line in *MISS) misses="$misses $b" ;; esac
	printf '%s' "$line"
	if [ -n "$L" ]; then
		l=$(med < "$T/$b.lmb")
		# bandwidth: the ratio of MB/s, the inverse of the ratio of times
		awk -v p="${p:-0}" -v l="${l:-0}" -v bw="$([ "$b" = bw-pipe ] && echo 1 || echo 0)" 'BEGIN {
			if (l > 0 && p > 0) printf " %12.1f %9.3f", l, bw ? l / p : p / l
			else printf " %12s %9s", "-", "-" }'
	fi
	printf '\n'
done
[ -z "$L" ] || echo "(pm/lmb of bw-pipe is the ratio of MB/s; lmbench's figures are not judged)"
if [ -n "$misses" ]; then
	echo "misses (beyond $TOL):$misses"
else
	echo "every benchmark within $TOL of its reference loop"
fi

if [ -z "${SKIP_QUICK:-}" ]; then
	echo
	echo "== 2. quick suite at its default budget"
	t0=$(date +%s.%N)
	"$PM" run -q -o "$T/quick.json" quick
	t1=$(date +%s.%N)
	awk -v a="$t0" -v b="$t1" 'BEGIN { printf "quick suite: %.1f s\n", b - a }'
	"$PM" show "$T/quick.json" | sed -n '2,/^(per/p'
	conv=$(grep -c '"converged": true' "$T/quick.json" || true)
	all=$(grep -c '"converged":' "$T/quick.json" || true)
	echo "converged: $conv of $all"
fi

[ -z "$misses" ]
