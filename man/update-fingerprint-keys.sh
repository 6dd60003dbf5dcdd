#!/bin/sh
# Regenerate the fingerprint-key list of pmbench-result(5) from the key
# table (src/sysinfo/keys.c): `make update-man-keys`.
# usage: update-fingerprint-keys.sh PMBENCH MANPAGE
set -eu
pmbench=$1
page=$2
tmp=$(mktemp)
trap 'rm -f "$tmp" "$tmp.page"' EXIT
"$pmbench" sysinfo --list-keys --format man > "$tmp"
awk -v gen="$tmp" '
/^\.\\" END fingerprint keys/ { skip = 0 }
!skip { print }
/^\.\\" BEGIN fingerprint keys/ {
	while ((getline line < gen) > 0)
		print line
	skip = 1
}' "$page" > "$tmp.page"
grep -q '^\.\\" END fingerprint keys' "$tmp.page" || {
	echo "$page: no END fingerprint keys marker" >&2
	exit 1
}
cat "$tmp.page" > "$page"
