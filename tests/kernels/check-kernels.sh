#!/bin/sh
# make check-kernels: does `pmbench explain` name the right cause on real
# kernel mechanisms?  Each case is a `pmbench ab` of the installed Debian
# kernel, two command lines or CPU models, a few benchmarks; the top cause
# of each key benchmark (from `pmbench explain --format json`) must be the
# expected rule.  Installs nothing: needs qemu-system-x86, jq and an
# installed kernel with its modules (apt-get install linux-image-amd64).
#
#   check-kernels.sh BUILDDIR
#   CASES="mitigations thp"  run only these cases
#   KERNEL=/boot/vmlinuz-R   this kernel (default: the newest installed)
#   ROUNDS=N                 boots per side (default 3; page-tables 40)
#   OUT=DIR                  where the cases' directories go
#                            (default BUILDDIR/check-kernels.out, replaced)
set -u

BUILD=${1:?usage: check-kernels.sh BUILDDIR}
PMBENCH=$BUILD/pmbench
QEMU=/usr/bin/qemu-system-x86_64
ROUNDS=${ROUNDS:-3}
PT_ROUNDS=${ROUNDS_PAGE_TABLES:-$(( ROUNDS > 40 ? ROUNDS : 40 ))}
OUT=${OUT:-$BUILD/check-kernels.out}
CASES=${CASES:-mitigations page-tables same preemption thp}

die() {
	echo "check-kernels: $*" >&2
	exit 2
}

[ -x "$PMBENCH" ] || die "no $PMBENCH: build first"
[ -x "$QEMU" ] || die "no $QEMU: apt-get install qemu-system-x86"
command -v jq >/dev/null 2>&1 || die "no jq: apt-get install jq"
if [ -z "${KERNEL:-}" ]; then
	for k in $(ls -v /boot/vmlinuz-* 2>/dev/null); do
		r=${k#/boot/vmlinuz-}
		[ -r "$k" ] && [ -f "/lib/modules/$r/modules.dep" ] && KERNEL=$k
	done
fi
[ -n "${KERNEL:-}" ] || die "no installed kernel with modules: apt-get install linux-image-amd64"
rm -rf "$OUT"
mkdir -p "$OUT" || die "cannot create $OUT"

RESULTS=$OUT/results
: > "$RESULTS"
misses=0

# verdict and first cause of a benchmark: "regression mitigations"
verdict_cause() {
	jq -r --arg b "$2" '.benchmarks[] | select(.name == $b) |
		"\(.verdict) \(.causes[0].rule // "none")"' "$1"
}

# run_case NAME EXPECTED "KEY BENCHES" BOOTS NOISE [ab options] -- BENCHES
#   EXPECTED: a rule id (every key benchmark changed, that rule first),
#   or "no-change" (no benchmark called a regression or improvement);
#   BOOTS per side; NOISE: explain's --noise (percent)
run_case() {
	name=$1 expected=$2 keys=$3 boots=$4 noise=$5
	shift 5
	case " $CASES " in *" $name "*) ;; *) return 0 ;; esac
	dir=$OUT/$name
	start=$(date +%s)
	echo "check-kernels: case $name: pmbench ab $*" >&2
	"$PMBENCH" ab -q --kernel "$KERNEL" --rounds "$boots" -o "$dir" "$@" \
		2> "$OUT/$name.stderr"
	st=$?
	secs=$(( $(date +%s) - start ))
	found="" pass=yes
	if [ ! -s "$dir/a.json" ] || [ ! -s "$dir/b.json" ]; then
		found="pmbench ab failed (exit $st): see $OUT/$name.stderr"
		pass=no
	elif ! "$PMBENCH" explain --format json --noise "$noise" --spread-from none \
			"$dir/a.json" "$dir/b.json" \
			> "$dir/explain.json" 2>> "$OUT/$name.stderr"; then
		found="pmbench explain failed: see $OUT/$name.stderr"
		pass=no
	elif [ "$expected" = no-change ]; then
		found=$(jq -r '[.benchmarks[] |
			select(.verdict == "regression" or .verdict == "improvement") |
			"\(.name): \(.verdict) \(.causes[0].rule // "none")"] | join(", ")' \
			"$dir/explain.json")
		[ -z "$found" ] || pass=no
		[ -n "$found" ] || found="no change ($(jq -r '[.benchmarks[] |
			"\(.name) \(.verdict)"] | join(", ")' "$dir/explain.json"))"
	else
		for b in $keys; do
			vc=$(verdict_cause "$dir/explain.json" "$b")
			set -- $vc
			v=${1:-missing} c=${2:-none}
			found="${found:+$found, }$b: $c ($v)"
			case $v in
			regression|improvement) [ "$c" = "$expected" ] || pass=no ;;
			*) pass=no ;;
			esac
		done
	fi
	[ $st -eq 0 ] || [ "$pass" = no ] || found="$found; ab exit $st"
	[ "$pass" = yes ] || misses=$((misses + 1))
	printf '%s\t%s\t%s\t%s\t%s\n' "$name" "$expected" "$found" "$pass" "${secs}s" >> "$RESULTS"
}

# Short guest runs: TCG is 10-50 times slower than the host.  One vCPU:
# one QEMU thread less competes with the host's other work, and a 2-vCPU
# guest starved by the host can hang in a cross-CPU call (a thp boot of
# 4 December: perf_event_open -> text_poke_bp_batch waited 130 s).
RUN="--vcpus 1 --max-time 0.5 --rounds-per-boot 2"

# 1. mitigations off (A) and on (B), on a CPU the kernel treats as Intel:
#    page-table isolation and MDS buffer clearing on every system call.
run_case mitigations mitigations "null null-io" "$ROUNDS" 3 \
	--cpu max,vendor=GenuineIntel --append-a mitigations=off $RUN -- null null-io

# 2. 4-level (A, no5lvl) and 5-level (B) page tables on a CPU with LA57.
#    The key is page-walk (every load a full walk after a TLB flush); the
#    faults and mmap of the first plan did not move (+0.1%).  The
#    extra level is one more page-table read per walk, of an entry that
#    is always in the host's cache (user space is one top-level entry),
#    so under TCG it is a small part of QEMU's TLB fill: page-walk is
#    2.5-5% slower, below the default floor, while boots differ by 4-8%
#    even at the same host speed, and the host's busy minutes move a boot
#    by 10-100%.  Hence 40 boots a side, which explain compares pair by
#    pair (signed ranks: a drift hits both boots of a pair, and a pair
#    that drifted far counts as one rank), page-walk alone, and a 1%
#    floor.  A boot that ran at another speed (its machine-speed probe
#    too) leaves out its pair, or, when the host flipped between speeds
#    in more than half of the pairs (most boots on 4 December, 21:47),
#    the pairs are compared at equal host speed.  20 boots a side passed
#    2 times in 3, and gave +3.9% with a 99% interval from -1.9% in that
#    busy hour.
run_case page-tables page-table-levels "page-walk" "$PT_ROUNDS" 1 --vcpus 1 \
	--cpu max,la57=on --append-a no5lvl --max-time 0.5 --rounds-per-boot 3 \
	-- page-walk

# 3. the same kernel and command line twice: nothing may be called a change.
run_case same no-change "" "$ROUNDS" 3 $RUN -- null pipe page-fault-anon

# 4. preempt=none (A) and preempt=full (B): how long a timer-woken task
#    waits while another on its CPU is in a long system call (full
#    preempts inside the kernel, none waits for the call to return).
#    ctx and pipe are left out: both tasks block at the same points under
#    either model, and their figures only showed boot-to-boot noise.  The
#    two tasks share the one vCPU.
run_case preemption preemption "wakeup-kernel-hog" "$ROUNDS" 3 \
	--append-a preempt=none --append-b preempt=full $RUN -- wakeup-kernel-hog

# 5. THP always (A) and never (B), on anonymous faults asking for huge
#    pages: the key is the read variant (the zero page, 4 KiB or huge),
#    since under TCG clearing a page costs as much per byte as the 512
#    faults THP saves, so the write variant (run too) hardly changes.
run_case thp thp "page-fault-thp-read" "$ROUNDS" 3 \
	--append-a transparent_hugepage=always --append-b transparent_hugepage=never \
	$RUN -- page-fault-thp-read page-fault-thp

echo
echo "pmbench check-kernels: $KERNEL, $ROUNDS boots per side ($PT_ROUNDS for page-tables), A,B interleaved (TCG unless KVM runs it)"
{
	printf 'case\texpected cause\ttop cause found\tpass\ttime\n'
	cat "$RESULTS"
} | awk -F'\t' '
	{ for (i = 1; i <= NF; i++) { cell[NR, i] = $i; if (length($i) > w[i]) w[i] = length($i) } n = NR }
	END { for (r = 1; r <= n; r++) {
		line = ""
		for (i = 1; i <= 5; i++) line = line sprintf("%-" w[i] "s  ", cell[r, i])
		sub(/ +$/, "", line); print line } }'
echo
if [ $misses -ne 0 ]; then
	echo "check-kernels: $misses case(s) missed; details in $OUT" >&2
	exit 1
fi
echo "check-kernels: all cases passed; details in $OUT"
