#!/bin/sh
# make soak (also part of make selfcheck): decisions that hold on this very
# machine, with pmbench ab --local deciding by pairs.
#
#  1. PAIRS A/A experiments (the same build, the same set-up on both
#     sides) of null: each must end SAME or UNKNOWN.  A REGRESSION or
#     IMPROVEMENT is a false verdict.  Goal: 0.
#  2. PAIRS experiments with a planted +5% on B: a preload library that
#     burns user time in front of syscall() (tests/helpers/slow-syscall.c),
#     sized from the machine-speed probe to 5% of null here.  Each must end
#     REGRESSION, and nothing else changed.  Goal: PAIRS of PAIRS.
#
# Each experiment adds pairs until decided or BUDGET (default 3m) is
# spent; the time and pairs each took are printed.  The directories of
# the experiments that went wrong stay in BUILDDIR/soak.out (replaced by
# the next soak).
#
# usage: soak.sh BUILDDIR [PAIRS]     exit 1 when a goal is missed
set -eu
B=${1:?builddir}
PAIRS=${2:-10}
BUDGET=${BUDGET:-3m}
PM="$B/pmbench"
LIB="$B/tests/helpers/libslowsyscall.so"
KEEP="$B/soak.out"
T=$(mktemp -d)
# the duet probe and anything else kept go to a private history
XDG_DATA_HOME="$T/xdg"; export XDG_DATA_HOME
trap 'rm -rf "$T"' EXIT INT TERM
[ -x "$PM" ] && [ -f "$LIB" ] || { echo "soak: build pmbench and $LIB first" >&2; exit 2; }
rm -rf "$KEEP" && mkdir -p "$KEEP" || { echo "soak: cannot create $KEEP" >&2; exit 2; }

RUN="--rounds-per-boot 2 --max-time 0.5 --no-profile --no-counters"

# FILE KEY: the last "KEY": number in a result file
json_num() {
	sed -n "s/.*\"$2\": \([-0-9.e+]*\).*/\1/p" "$1" | tail -n 1
}

# The burn that costs 5% of null: null's time over the probe's step.
"$PM" run -q --no-counters --no-profile --max-time 1 -o "$T/size.json" null
ns=$("$PM" show --format csv "$T/size.json" | awk -F, '$1 == "null" { print $4; exit }')
ref=$(json_num "$T/size.json" reference_ns)
BURN=$(awk -v n="$ns" -v r="$ref" 'BEGIN { b = 0.05 * n / r; printf "%d", b < 1 ? 1 : b + 0.5 }')
echo "soak: null $ns ns here, the probe's step $ref ns: +5% is $BURN steps of burn"

# verdict DIR BENCH: what explain (the rule ab stopped on) says of BENCH
verdict() {
	"$PM" explain --format csv "$1/a.json" "$1/b.json" |
		awk -F, -v b="$2" '$1 == b { print $2; exit }'
}

# experiment NAME [WRAP]: one ab --local of null; prints "verdict pairs seconds"
experiment() {
	d="$T/$1"
	start=$(date +%s)
	if [ -n "${2:-}" ]; then
		"$PM" ab --local -q --no-confirm --budget "$BUDGET" -o "$d" \
			--wrap-b "$2" $RUN -- null 2>"$d.err" || true
	else
		"$PM" ab --local -q --no-confirm --budget "$BUDGET" -o "$d" $RUN -- null \
			2>"$d.err" || true
	fi
	secs=$(( $(date +%s) - start ))
	if [ ! -s "$d/b.json" ]; then
		echo "failed 0 $secs"
		return
	fi
	# one word ("no change" would split the line the caller reads)
	v=$(verdict "$d" null | tr ' ' '-')
	p=$(sed -n 's/.*"pairs": \([0-9]*\),.*/\1/p' "$d/b.json" | head -n 1)
	echo "${v:-none} ${p:-?} $secs"
}

false_verdicts=0 found=0
i=1
while [ $i -le "$PAIRS" ]; do
	set -- $(experiment aa$i)
	echo "soak: A/A $i: $1 after $2 pairs, $3 s"
	case $1 in
	regression|improvement|failed)
		false_verdicts=$((false_verdicts + 1))
		cp -r "$T/aa$i" "$KEEP/" 2>/dev/null || true ;;
	esac
	set -- $(experiment planted$i "env LD_PRELOAD=$LIB PM_TEST_BURN=$BURN")
	echo "soak: +5% $i: $1 after $2 pairs, $3 s"
	if [ "$1" = regression ]; then
		found=$((found + 1))
	else
		cp -r "$T/planted$i" "$KEEP/" 2>/dev/null || true
	fi
	i=$((i + 1))
done

echo
echo "soak: A/A: $false_verdicts false verdicts in $PAIRS (goal 0); +5%: found in $found of $PAIRS (goal $PAIRS)"
[ "$false_verdicts" -eq 0 ] && [ "$found" -eq "$PAIRS" ] && { echo "soak: passed"; exit 0; }
echo "soak: missed; the experiments that went wrong are in $KEEP" >&2
exit 1
