#!/bin/sh
# The steps of the LAVA test definition contrib/lava/pmbench.yaml: install
# pmbench in the job's rootfs (from the checkout this script is in), run
# the benchmarks, report each as a LAVA test case with its figure as the
# measurement, and upload the result file as an artifact.  Outside LAVA
# (no lava-test-case on PATH) the reports are printed instead.
#
# usage: pmbench-lava.sh [-b BENCHMARKS] [-r RUN_OPTIONS] [-o OUTPUT_DIR]
#                        [-i auto|source|none] [-p PREFIX] [-u ARTIFACT_URL]
set -u

BENCHMARKS=quick
RUN_OPTIONS=
OUTPUT=output
INSTALL=auto
PREFIX=/usr/local
ARTIFACT_URL=
while getopts b:r:o:i:p:u: opt; do
	case $opt in
	b) BENCHMARKS=$OPTARG ;;
	r) RUN_OPTIONS=$OPTARG ;;
	o) OUTPUT=$OPTARG ;;
	i) INSTALL=$OPTARG ;;
	p) PREFIX=$OPTARG ;;
	u) ARTIFACT_URL=$OPTARG ;;
	*) echo "usage: $0 [-b BENCHMARKS] [-r RUN_OPTIONS] [-o DIR] [-i auto|source|none]" \
		"[-p PREFIX] [-u ARTIFACT_URL]" >&2; exit 2 ;;
	esac
done
SRC=$(cd "$(dirname "$0")/../.." && pwd)
# README's packages for Debian (tests/cli/lava.sh checks they agree)
DEPS="build-essential autoconf automake pkg-config libpfm4-dev libelf-dev libdw-dev libunwind-dev libjansson-dev libtirpc-dev zlib1g-dev check man-db procps jq strace"

# A LAVA result: lava-test-case (or -reference) under LAVA, a line here.
report() {
	helper=lava-test-case
	[ "$1" = --reference ] && { helper=lava-test-reference; shift; }
	if command -v "$helper" >/dev/null 2>&1; then
		"$helper" "$@"
	else
		echo "$helper $*"
	fi
}

install_pmbench() {
	case $INSTALL in
	none) return 0 ;;
	auto) command -v pmbench >/dev/null 2>&1 && return 0 ;;
	source) ;;
	*) echo "pmbench-lava: INSTALL is auto, source or none, not '$INSTALL'" >&2; return 1 ;;
	esac
	if command -v apt-get >/dev/null 2>&1; then
		# shellcheck disable=SC2086
		DEBIAN_FRONTEND=noninteractive apt-get update -q &&
			DEBIAN_FRONTEND=noninteractive apt-get install -y -q $DEPS || return 1
	fi
	(cd "$SRC" && autoreconf -fi && ./configure --prefix="$PREFIX" &&
		make -j"$(getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)" && make install) ||
		return 1
	PATH="$PREFIX/bin:$PATH"
}

# Each benchmark of the result file: a test case, its figure in its unit.
report_benchmarks() {
	pmbench show --format csv "$1" |
	awk -F, 'NR > 1 && !seen[$1]++ { print $1, $2, ($3 == "" ? "-" : $3), ($8 == "" ? "-" : $8) }' |
	while read -r name status unit value; do
		case $status in
		ok)	if [ "$value" != - ]; then
				report "$name" --result pass --measurement "$value" --units "$unit"
			else
				report "$name" --result pass
			fi ;;
		unsupported) report "$name" --result skip ;;
		*)	report "$name" --result fail ;;
		esac
	done
}

# The result file to ARTIFACT_URL, its URL recorded as a test reference.
publish() {
	if [ -z "$ARTIFACT_URL" ]; then
		echo "pmbench-lava: no ARTIFACT_URL: the result file stays in $1"
		report pmbench-result --result skip
		return 0
	fi
	if [ -z "${ARTIFACT_TOKEN:-}" ]; then
		for f in /lava-*/secrets; do
			# shellcheck disable=SC1090
			[ -f "$f" ] && . "$f" && break
		done
	fi
	set -- -s -f -F "path=@$1"
	[ -z "${ARTIFACT_TOKEN:-}" ] || set -- "$@" -F "token=$ARTIFACT_TOKEN"
	if url=$(curl "$@" "$ARTIFACT_URL") && [ -n "$url" ]; then
		report --reference pmbench-result --result pass --reference "$url"
	else
		report pmbench-result --result fail
	fi
}

if ! install_pmbench; then
	report pmbench-install --result fail
	exit 0
fi
report pmbench-install --result pass
mkdir -p "$OUTPUT"
result="$OUTPUT/pmbench.json"
rm -f "$result"
# shellcheck disable=SC2086
if pmbench run -q -o "$result" $RUN_OPTIONS $BENCHMARKS; then
	report pmbench-run --result pass
else
	report pmbench-run --result fail
fi
# an interrupted or partly failed run still saved what it measured
if [ -s "$result" ]; then
	report_benchmarks "$result"
	publish "$result"
fi
exit 0
