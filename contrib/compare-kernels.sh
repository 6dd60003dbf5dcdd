#!/bin/sh
# Run the same pmbench suite several times on this kernel into a directory,
# one result file per run, so that two kernels can be compared later with
# several runs per side.
#
#   contrib/compare-kernels.sh DIR [RUNS] [pmbench run options and benchmarks]
#
# Example, on kernel A and then on kernel B:
#   contrib/compare-kernels.sh results/$(uname -r) 5 --cpu 0 quick
set -eu
dir=${1:?usage: $0 DIR [RUNS] [pmbench run options and benchmarks]}
shift
runs=3
case ${1:-} in
[0-9]*) runs=$1; shift ;;
esac
mkdir -p "$dir"
i=1
while [ "$i" -le "$runs" ]; do
	out="$dir/run-$(date +%Y%m%dT%H%M%S)-$i.json"
	echo "run $i of $runs -> $out" >&2
	pmbench run -q --label "$(uname -r)" -o "$out" "$@"
	i=$((i + 1))
done
pmbench show "$dir"/*.json | head -n 40
