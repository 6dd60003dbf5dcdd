#!/bin/sh
# pmbench ab for real: one boot per side of an installed kernel under
# QEMU (TCG), the guest's result handed back and merged.  Skipped without
# QEMU or an installed kernel with its modules; one or two pairs (--budget
# 4b: a test must end), a few minutes.
. "$TEST_LIB"

QEMU=/usr/bin/qemu-system-x86_64
[ -x "$QEMU" ] || skip "no $QEMU (apt-get install qemu-system-x86)"
K=
for k in /boot/vmlinuz-*; do
	r=${k#/boot/vmlinuz-}
	[ -r "$k" ] && [ -f "/lib/modules/$r/modules.dep" ] && K=$k && R=$r
done
[ -n "$K" ] || skip "no readable /boot/vmlinuz-* with /lib/modules (apt-get install linux-image-amd64)"
mkdir "$T/tmp"
TMPDIR="$T/tmp"
export TMPDIR
# a TCG guest keeps a host CPU busy for a minute: not beside timing tests
exclusive_machine

pm ab --kernel "$K" --accel tcg --vcpus 1 --rounds 1 --budget 4b --max-time 0.2 --rounds-per-boot 1 \
	--append-b transparent_hugepage=never -o "$T/ab" -- page-fault-anon null
expect_status 0 "pmbench ab --kernel $K"
expect_err "result over the virtio disk"
expect_out "^accelerator: TCG"
# the budget ends it: one pair, or two when the first left a verdict open
expect_out '^pairs: [12] in [0-9]+ s'
expect_err 'at least 1, then until decided or 4 boots'
[ -z "$(ls -A "$T/tmp")" ] || fail "scratch left behind: $(ls "$T/tmp")"

# the guest ran the kernel asked for, as root, with its config and symbols
for side in a b; do
	f="$T/ab/$side.json"
	grep -q "\"release\": \"$R\"" "$f" || fail "$side.json: guest kernel is not $R"
	if [ -r "/boot/config-$R" ]; then
		grep -q "\"config_source\": \"/boot/config-$R\"" "$f" ||
			fail "$side.json: the guest's fingerprint lacks /boot/config-$R"
	fi
	grep -Eq '"kernel_symbols": "(/proc/kallsyms|[^"]*vmlinux[^"]*)"' "$f" ||
		fail "$side.json: no kernel symbols in the guest"
	grep -q '"accelerator": "tcg"' "$f" || fail "$side.json: accelerator not recorded"
done
grep -q '"cmdline": "console=ttyS0 panic=-1 rdinit=/init transparent_hugepage=never"' \
	"$T/ab/b.json" || fail "b.json: the guest's command line is not B's"

# a fault per page in the guest too
pm show --format csv "$T/ab/a.json"
cp "$T/out" "$T/csv"
v=$(csv_value page-fault-anon page-faults per_op)
ge "$v" 1 || fail "guest page-fault-anon: $v faults per page, expected at least 1"
le "$v" 1.1 || fail "guest page-fault-anon: $v faults per page, expected 1"

finish
