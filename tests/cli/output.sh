#!/bin/sh
# -o: what must not be replaced is not, what cannot be written is refused
# before the run, a write that fails keeps the results.
. "$TEST_LIB"

Q="--max-time 0.05 --no-profile --no-counters --min-trials 3"
export TMPDIR="$T/tmp"
mkdir "$TMPDIR"

# A character device of our own: as root a private copy (so that a
# broken pmbench cannot replace the machine's /dev/null or /dev/full),
# else the real one, which a user cannot replace anyway.
chardev() {
	if [ "$(id -u)" -eq 0 ] && mknod "$T/$1" c 1 "$2" 2>/dev/null; then
		echo "$T/$1"
	else
		echo "/dev/$1"
	fi
}

# Refused before anything runs: status 2, nothing on stdout, the path named.
refused() {
	expect_status 2 "$1"
	[ ! -s "$T/out" ] || fail "$1: something ran (stdout not empty)"
	expect_err "$2" "$1: stderr"
	expect_one_line_error
}
pm run $Q -o '' null
refused "-o ''" "^pmbench: -o '': an empty file name"
mkdir "$T/dir"
pm run $Q -o "$T/dir" null
refused "-o DIR" "$T/dir: is a directory"
pm run $Q -o "$T/no/such/dir/r.json" null
refused "-o in a missing directory" "$T/no/such/dir/r.json: directory $T/no/such/dir: No such file"
# a file cannot be created in /proc, root or not (access(2) would say yes)
pm run $Q -o /proc/pmbench-test.json null
refused "-o in /proc" "/proc/pmbench-test.json: cannot create a file in /proc"
ln -s "$T/nothing-here.json" "$T/dangling"
pm run $Q -o "$T/dangling" null
refused "-o dangling link" "$T/dangling: a symbolic link to a file that does not exist"
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$T/ro" && chmod 555 "$T/ro"
	pm run $Q -o "$T/ro/r.json" null
	refused "-o in a read-only directory" "$T/ro/r.json: cannot create a file in $T/ro"
fi
# a block device: as root a node of our own (never a real disk's node)
if [ "$(id -u)" -eq 0 ]; then
	mknod "$T/blk" b 7 0 2>/dev/null && blk="$T/blk" || blk=
else
	blk=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -n 1)
fi
if [ -n "$blk" ]; then
	pm run $Q -o "$blk" null
	refused "-o BLOCKDEV" "$blk: is a block device"
	[ -b "$blk" ] || fail "$blk is no longer a block device"
fi

# A character device is written into, not replaced.
null=$(chardev null 3)
pm run $Q -o "$null" null
expect_status 0 "-o $null"
[ -c "$null" ] || fail "$null is no longer a character device"

# A FIFO is written into: the reader gets the result file.
mkfifo "$T/fifo"
# (timeout: a pmbench that replaced the FIFO would leave cat waiting)
timeout 30 cat "$T/fifo" > "$T/from-fifo" &
reader=$!
pm run $Q -o "$T/fifo" null
expect_status 0 "-o FIFO"
[ -p "$T/fifo" ] || { fail "the FIFO was replaced"; kill "$reader"; }
wait "$reader"
pm show "$T/from-fifo"
expect_status 0 "the result read from the FIFO"
expect_out '^null: getppid'

# A symbolic link: the target is replaced atomically, the link stays.
echo old > "$T/target.json"
ln -s target.json "$T/link.json"
pm run $Q -o "$T/link.json" null
expect_status 0 "-o LINK"
[ -L "$T/link.json" ] || fail "the symbolic link was replaced"
pm show "$T/target.json"
expect_status 0 "the link's target"
expect_out '^null: getppid'

# -o -: the result file on stdout, nothing else there.
pm run $Q -o - null
expect_status 0 "-o -"
cp "$T/out" "$T/stdout.json"
pm show "$T/stdout.json"
expect_status 0 "-o - is a result file"
expect_out '^null: getppid'
pm run $Q -o /dev/stdout null
expect_status 0 "-o /dev/stdout"
expect_out '^ "format": "pmbench-result",$'
expect_no_out '^null ' "-o /dev/stdout: no table on stdout"
pm run $Q -o - --format csv null
expect_status 2 "-o - --format csv"
expect_err 'standard output'

# A write that fails: the path, the error, and where the results went.
full=$(chardev full 7)
pm run $Q -o "$full" null
expect_status 1 "-o $full"
[ -c "$full" ] || fail "$full is no longer a character device"
expect_err "^pmbench: $full: write failed: No space left on device; the results were saved to $TMPDIR/pmbench-results-[A-Za-z0-9]{6}\.json instead"
rec=$(sed -n 's/.*saved to \(.*\.json\) instead.*/\1/p' "$T/err")
pm show "$rec"
expect_status 0 "the recovery file"
expect_out '^null: getppid'
# (the fall-back to standard output when no recovery file can be made
# either is in tests/unit/test-output.c)

# A full file system (a tiny tmpfs in a private mount namespace).
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare -m sh -c "mount -t tmpfs -o size=64k none '$T/dir'" 2>/dev/null; then
	rm -f "$TMPDIR"/*
	status=0
	unshare -m sh -c "mount -t tmpfs -o size=64k none '$T/dir' &&
		dd if=/dev/zero of='$T/dir/fill' bs=4k count=14 2>/dev/null;
		exec '$PMBENCH' run $Q -o '$T/dir/r.json' null" >"$T/out" 2>"$T/err" || status=$?
	checks=$((checks + 1))
	expect_status 1 "-o on a full file system"
	expect_err "$T/dir/r.json: write failed: No space left on device; the results were saved to $TMPDIR/pmbench-results-"
	[ "$(ls "$TMPDIR" | grep -c '^pmbench-results-')" -eq 1 ] || fail "no recovery file in $TMPDIR"
else
	echo "note: full file system not tried (needs root and unshare -m)"
fi

finish
