#!/bin/sh
# pmbench self-check, run by hand (make selfcheck): speed and agreement.
#
#  1. null, fork, exec and sh agree with plain loops of the same operation
#     timed in the same run (ratio of medians; goal: within 10%).
#  2. the quick suite's wall time (goal: under 30 s on a 2-core machine).
#  3. how long one latency benchmark takes to reach a 1% interval.
#  4. five back-to-back runs of null: spread of the medians (goal: 5%).
#
# usage: selfcheck.sh BUILDDIR SRCDIR
set -eu
B=${1:?builddir}
S=${2:?srcdir}
PM="$B/pmbench"
HELLO="$B/pmbench-hello"
T=$(mktemp -d)
# runs without -o would go to the result history: keep it here
XDG_DATA_HOME="$T/xdg"; export XDG_DATA_HOME
trap 'rm -rf "$T"' EXIT
export PMBENCH_DATADIR="$S"

${CC:-cc} -O2 -o "$T/plain" "$S/tests/perf/plain-loops.c"

median_ns() {	# FILE BENCH
	"$PM" show --format csv "$1" | awk -F, -v b="$2" '$1 == b { print $4; exit }'
}

# a CPU this process may use (not always 0: taskset, containers)
cpu=$(awk '/^Cpus_allowed_list:/ { split($2, a, /[-,]/); print a[1]; exit }' /proc/self/status)
echo "== 1. agreement with plain loops (same CPU, alternating, 5 rounds)"
printf '%-6s %12s %12s %8s\n' bench "pmbench ns" "plain ns" ratio
med() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
for b in null fork exec sh; do
	: > "$T/p" ; : > "$T/q"
	for round in 1 2 3 4 5; do
		"$PM" run --cpu "$cpu" --no-counters -q -o "$T/$b.json" "$b"
		median_ns "$T/$b.json" "$b" >> "$T/p"
		taskset -c "$cpu" "$T/plain" "$b" "$HELLO" >> "$T/q"
	done
	p=$(med < "$T/p")
	q=$(med < "$T/q")
	awk -v b="$b" -v p="$p" -v q="$q" 'BEGIN { printf "%-6s %12.1f %12.1f %8.3f\n", b, p, q, p / q }'
done

echo
echo "== 2. quick suite"
t0=$(date +%s.%N)
"$PM" run -q -o "$T/quick.json" quick
t1=$(date +%s.%N)
awk -v a="$t0" -v b="$t1" 'BEGIN { printf "quick suite: %.1f s\n", b - a }'
"$PM" show "$T/quick.json" | sed -n '2,/^(per/p'

echo
echo "== 3. time to a 1% interval (null, fork, pipe)"
for b in null fork pipe; do
	t0=$(date +%s.%N)
	"$PM" run -q -o "$T/one.json" "$b"
	t1=$(date +%s.%N)
	ci=$("$PM" show "$T/one.json" | awk '/±/ { for (i = 1; i <= NF; i++) if ($i ~ /^±/) { print $i; exit } }')
	awk -v a="$t0" -v b="$t1" -v n="$b" -v c="$ci" 'BEGIN { printf "%-6s %5.2f s  CI %s\n", n, b - a, c }'
done

echo
echo "== 4. five back-to-back runs of null"
for i in 1 2 3 4 5; do
	"$PM" run -q -o "$T/n$i.json" null
	median_ns "$T/n$i.json" null
done | awk '{ v[NR] = $1; if (NR == 1 || $1 < lo) lo = $1; if (NR == 1 || $1 > hi) hi = $1; printf "run %d: %.1f ns\n", NR, $1 }
	END { printf "spread (max-min)/min: %.1f%%\n", 100 * (hi - lo) / lo }'
