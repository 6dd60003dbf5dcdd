#!/bin/sh
# --anonymize: a result that can be mailed to a public list.
. "$TEST_LIB"

# A stored file with a host, users, home paths and addresses planted.
f="$TEST_DATA/identifying.json"
pm show --format json --anonymize "$f"
expect_status 0 "show --format json --anonymize"
cp "$T/out" "$T/anon.json"
for s in alice 10.1.2 4f3c9a2e secret-token /home/; do
	! grep -q -- "$s" "$T/anon.json" || fail "'$s' left in the anonymized file"
done
expect_out '"hostname": "anonymized"'
expect_out '"proc_version": "Linux version 6.1.0-test \(anonymized\) \(gcc \(Debian'
# what explain needs stays
expect_out '"cmdline": "BOOT_IMAGE=/boot/vmlinuz-6.1.0-test root=anonymized ro quiet mitigations=off nfsroot=anonymized ip=anonymized pti=on -- anonymized"'
expect_out '"vmlinux": "~/linux/vmlinux"'
expect_out '"anonymized": true'
pm show "$T/anon.json"
expect_status 0 "the anonymized file is a valid result file"
expect_out '^null '
# the command line keeps its options, not the directories
tr -d ' \n' < "$T/anon.json" | grep -q '"command":\["pmbench","run","--vmlinux=vmlinux","-o","kernel-a.json","null","stat"\]' ||
	fail "command line not reduced to options and file names"
pm show --anonymize "$f"
expect_status 2 "--anonymize without --format json"

# A run: its own host, home and command line.
home="$T/home/alice"
mkdir -p "$home/bin"
cp "$PMBENCH" "$home/bin/pmbench"
status=0
HOME="$home" "$home/bin/pmbench" run --anonymize --max-time 0.1 --no-counters \
	--min-trials 3 -o "$home/r.json" null >"$T/out" 2>"$T/err" || status=$?
checks=$((checks + 1))
expect_status 0 "run --anonymize"
expect_out '^pmbench [0-9.]+ on anonymized: '
! grep -q "$home" "$home/r.json" || fail "the home directory is in the result: $(grep -m1 "$home" "$home/r.json")"
grep -q '"object": "~/bin/pmbench"' "$home/r.json" ||
	fail "the benchmark's own object is not shown as ~/bin/pmbench"
grep -q '"hostname": "anonymized"' "$home/r.json" || fail "hostname kept"
h=$(hostname 2>/dev/null || cat /proc/sys/kernel/hostname)
if [ "${#h}" -ge 4 ]; then
	! grep -q "\"$h\"" "$home/r.json" || fail "the host name $h is in the result"
fi

finish
