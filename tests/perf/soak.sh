#!/bin/sh
# A/A soak (make soak; also part of make selfcheck): verdicts must hold
# across runs on this very machine.
#
#  1. PAIRS pairs of back-to-back quick-suite runs of the same build on
#     the same kernel, explained pairwise: every REGRESSION or IMPROVEMENT
#     is a false verdict.  Goal: 0.
#  2. After each pair, a third run with a planted slowdown of null (a
#     preload library that burns user time in front of syscall(), sized
#     to +10%), explained against the second run: null must be a
#     REGRESSION every time.
#  3. The smallest planted slowdown found every time with 1, 3 and 5 runs
#     per side (null alone, 10 clean and 10 planted runs per size).
#
# explain learns how much runs differ here from the result history (a
# private one): WARMUP (default 6) quick-suite runs start it, and the A/A
# runs join it; the planted runs do not.
#
# The files of every pair that called something changed, or missed the
# plant (runs, explain reports), are kept in BUILDDIR/soak.out (replaced
# by the next soak), so that a false verdict can be looked into.
#
# usage: soak.sh BUILDDIR [PAIRS]     exit 1 when a goal of 1 or 2 is missed
set -eu
B=${1:?builddir}
PAIRS=${2:-10}
PM="$B/pmbench"
LIB="$B/tests/helpers/libslowsyscall.so"
KEEP="$B/soak.out"
T=$(mktemp -d)
# runs without -o would go to the result history: keep it here
XDG_DATA_HOME="$T/xdg"; export XDG_DATA_HOME
trap 'rm -rf "$T"' EXIT INT TERM
[ -x "$PM" ] && [ -f "$LIB" ] || { echo "soak: build pmbench and $LIB first" >&2; exit 2; }
rm -rf "$KEEP" && mkdir -p "$KEEP" || { echo "soak: cannot create $KEEP" >&2; exit 2; }

# FILE: the last "KEY": number of a one-benchmark result file
json_num() {
	sed -n "s/.*\"$2\": \([-0-9.e+]*\).*/\1/p" "$1" | tail -n 1
}

median_ns() {	# FILE BENCH
	"$PM" show --format csv "$1" | awk -F, -v b="$2" '$1 == b { print $4; exit }'
}

# verdicts FILE: "bench VERDICT" for every regression/improvement in explain's text
# (explain learns the spread between runs from the soak's history)
verdicts() {
	awk '/^[a-z0-9-]+  (REGRESSION|IMPROVEMENT)  / { print $1, $2 }' "$1"
}

null_run() {	# OUT [BURN]: null alone, no passes (the verdict needs only the trials)
	if [ -n "${2:-}" ]; then
		PM_TEST_BURN=$2 LD_PRELOAD="$LIB" "$PM" run -q --no-counters --no-profile \
			--max-time 1 -o "$1" null
	else
		"$PM" run -q --no-counters --no-profile --max-time 1 -o "$1" null
	fi
}

# ---- size the plant: +10% of null on this machine now ----
# One null run differs from the next by several percent (the process's
# CPU and memory), so each try takes the median effect of three
# clean/planted pairs, and up to six tries scale the burn to +10%.
null_run "$T/c0.json"
base=$(median_ns "$T/c0.json" null)
ref=$(json_num "$T/c0.json" reference_ns)
burn=$(awk -v n="$base" -v r="$ref" 'BEGIN { b = 0.10 * n / r; print (b < 1 ? 1 : int(b + 0.5)) }')
for i in 1 2 3 4 5 6; do
	effs=
	for j in 1 2 3; do
		null_run "$T/c.json"
		null_run "$T/p.json" "$burn"
		effs="$effs $(awk -v a="$(median_ns "$T/c.json" null)" -v b="$(median_ns "$T/p.json" null)" \
			'BEGIN { print b / a - 1 }')"
	done
	eff=$(echo $effs | tr ' ' '\n' | sort -g | sed -n 2p)
	awk -v e="$eff" 'BEGIN { exit !(e > 0.09 && e < 0.11) }' && break
	burn=$(awk -v b="$burn" -v e="$eff" 'BEGIN { if (e < 0.01) e = 0.01; x = int(b * 0.10 / e + 0.5); print (x < 1 ? 1 : x) }')
done
printf 'plant: %s steps in front of each getppid (null %.0f ns, measured effect %+.1f%%, median of 3 pairs)\n' \
	"$burn" "$base" "$(awk -v e="$eff" 'BEGIN { print 100 * e }')"
if ! awk -v e="$eff" 'BEGIN { exit !(e > 0.085 && e < 0.115) }'; then
	echo "soak: could not size the plant to +10% (last try $eff): the machine is too noisy now" >&2
	exit 2
fi

# ---- the machine's history: how much runs differ here ----
# explain learns the spread between runs from the result history (runs
# without -o): WARMUP runs start it, and the A/A runs below join it, as
# runs on a machine one compares on would.  Planted runs stay out (-o).
WARMUP=${WARMUP:-6}
echo
echo "== history: $WARMUP quick-suite runs to learn how much runs differ here"
for i in $(seq 1 "$WARMUP"); do
	"$PM" run -q quick > /dev/null
done

# ---- 1 and 2: pairs of quick-suite runs ----
false_v=0 compared=0 found=0 planted_false=0
echo
echo "== A/A: $PAIRS pairs of back-to-back 'pmbench run quick' runs, explained pairwise"
for i in $(seq 1 "$PAIRS"); do
	"$PM" run -q quick > /dev/null
	cp "$XDG_DATA_HOME"/pmbench/results/"$(ls "$XDG_DATA_HOME"/pmbench/results | tail -n 1)" "$T/a$i.json"
	"$PM" run -q quick > /dev/null
	cp "$XDG_DATA_HOME"/pmbench/results/"$(ls "$XDG_DATA_HOME"/pmbench/results | tail -n 1)" "$T/b$i.json"
	PM_TEST_BURN=$burn LD_PRELOAD="$LIB" "$PM" run -q -o "$T/p$i.json" quick
	"$PM" explain "$T/a$i.json" "$T/b$i.json" > "$T/aa$i.txt" || true
	"$PM" explain "$T/b$i.json" "$T/p$i.json" > "$T/ap$i.txt" || true
	n=$("$PM" explain --format json "$T/a$i.json" "$T/b$i.json" | grep -c '"verdict"' || true)
	v=$(verdicts "$T/aa$i.txt" | wc -l)
	hit=$(verdicts "$T/ap$i.txt" | grep -c '^null REGRESSION' || true)
	other=$(verdicts "$T/ap$i.txt" | grep -vc '^null ' || true)
	# the planted comparison of null: its change and how much runs differ
	"$PM" explain --format json -b null "$T/b$i.json" "$T/p$i.json" > "$T/pn$i.json" 2>/dev/null || true
	pchg=$(sed -n 's/^ *"ratio": \([-0-9.e+]*\).*/\1/p' "$T/pn$i.json" | head -n 1)
	psd=$(sed -n 's/^ *"spread_sd": \([-0-9.e+]*\).*/\1/p' "$T/pn$i.json" | head -n 1)
	compared=$((compared + n))
	false_v=$((false_v + v))
	found=$((found + hit))
	planted_false=$((planted_false + other))
	printf 'pair %2d: A/A %d of %d benchmarks called changed%s; planted: null %s%s%s\n' \
		"$i" "$v" "$n" "$(verdicts "$T/aa$i.txt" | awk '{ s = s " " $1 " " tolower($2) } END { if (s != "") printf " (%s)", substr(s, 2) }')" \
		"$([ "$hit" -eq 1 ] && echo found || echo MISSED)" \
		"$(awk -v r="${pchg:-}" -v s="${psd:-}" 'BEGIN { if (r != "") printf " %+.1f%%", 100 * (r - 1)
			if (s != "") printf " (runs here differ by ±%.1f%%)", 100 * s }')" \
		"$([ "$other" -gt 0 ] && echo ", $other other benchmark(s) called changed" || true)"
	# which, and by how much; the pair's files stay in $KEEP
	[ "$other" -eq 0 ] || grep -E '^[a-z0-9-]+  (REGRESSION|IMPROVEMENT)  ' "$T/ap$i.txt" |
		grep -v '^null ' | cut -c1-100 | sed 's/^/         /'
	if [ "$v" -gt 0 ] || [ "$other" -gt 0 ] || [ "$hit" -ne 1 ]; then
		mkdir -p "$KEEP/pair$i"
		cp "$T/a$i.json" "$T/b$i.json" "$T/p$i.json" "$T/aa$i.txt" "$T/ap$i.txt" \
			"$KEEP/pair$i/"
	fi
done
echo "A/A false verdicts: $false_v in $compared comparisons ($PAIRS pairs)"
echo "planted +10% slowdown of null found: $found of $PAIRS (other benchmarks called changed meanwhile: $planted_false)"
echo "the machine moved the run (held back): $(cat "$T"/aa*.txt | grep -c '^The machine moved the run' || true) of $PAIRS A/A and $(cat "$T"/ap*.txt | grep -c '^The machine moved the run' || true) of $PAIRS planted comparisons"
[ -z "$(ls "$KEEP")" ] || echo "the files of the pairs that called something changed or missed the plant: $KEEP"

# ---- 3: the smallest effect found every time, by runs per side ----
echo
echo "== smallest planted slowdown found every time (null; 10 clean and 10 planted runs per size)"
printf '%6s  %-12s %-12s %-12s\n' effect "1 run/side" "3 runs/side" "5 runs/side"
small1= small3= small5=
for pct in 2 3 5 7 10 15 20; do
	b=$(awk -v b="$burn" -v p="$pct" 'BEGIN { x = b * p / 10; print (x < 1 ? 1 : int(x + 0.5)) }')
	rm -rf "$T/s"; mkdir -p "$T/s"
	for j in $(seq 1 10); do
		null_run "$T/s/c$j.json"
		null_run "$T/s/p$j.json" "$b"
	done
	hit1=0 hit3=0 hit5=0
	for j in $(seq 1 10); do
		"$PM" explain "$T/s/c$j.json" "$T/s/p$j.json" > "$T/s/e.txt" || true
		verdicts "$T/s/e.txt" | grep -q '^null REGRESSION' && hit1=$((hit1 + 1))
	done
	for g in "1 2 3" "4 5 6" "7 8 9" "1 2 3 4 5" "6 7 8 9 10"; do
		rm -rf "$T/s/C" "$T/s/P"; mkdir "$T/s/C" "$T/s/P"
		for j in $g; do cp "$T/s/c$j.json" "$T/s/C/"; cp "$T/s/p$j.json" "$T/s/P/"; done
		"$PM" explain "$T/s/C" "$T/s/P" > "$T/s/e.txt" || true
		if verdicts "$T/s/e.txt" | grep -q '^null REGRESSION'; then
			case $(echo "$g" | wc -w) in 3) hit3=$((hit3 + 1)) ;; *) hit5=$((hit5 + 1)) ;; esac
		fi
	done
	printf '%5s%%  %-12s %-12s %-12s\n' "$pct" "$hit1/10" "$hit3/3" "$hit5/2"
	[ -z "$small1" ] && [ "$hit1" -eq 10 ] && small1=$pct
	[ -z "$small3" ] && [ "$hit3" -eq 3 ] && small3=$pct
	[ -z "$small5" ] && [ "$hit5" -eq 2 ] && small5=$pct
done
echo "smallest effect found every time: 1 run/side ${small1:-over 20}%, 3 runs/side ${small3:-over 20}%, 5 runs/side ${small5:-over 20}%"

# a benchmark other than null called changed in a planted pair is as
# false as one in an A/A pair
[ "$false_v" -eq 0 ] && [ "$planted_false" -eq 0 ] && [ "$found" -eq "$PAIRS" ]
