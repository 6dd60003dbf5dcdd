#!/bin/sh
# -o: what must not be replaced is not, what cannot be written is refused
# before the run, a write that fails keeps the results.  run and stat
# share one writer (src/results/output.c): every check is made on both.
. "$TEST_LIB"

Q="--max-time 0.05 --no-profile --no-counters --min-trials 3"
SQ="-r 2 --no-profile --no-counters"
export TMPDIR="$T/tmp"
mkdir "$TMPDIR"
# a relative -o lands here: "-" must never become a file of that name
mkdir "$T/cwd"
cd "$T/cwd" || exit 1

# with_o CMD ARGS...: pmbench CMD with ARGS (-o ...); run measures null,
# stat runs a command that leaves $T/ran behind when it ran.
with_o() {
	cmd=$1
	shift
	rm -f "$T/ran"
	case $cmd in
	run) pm run $Q "$@" null ;;
	stat) pm stat $SQ "$@" -- touch "$T/ran" ;;
	esac
}

# is_result CMD FILE [what]: FILE is a result file of CMD's workload.
is_result() {
	if command -v jq >/dev/null 2>&1; then
		jq -e '.format == "pmbench-result" and (.benchmarks | length) == 1' "$2" \
			>/dev/null 2>&1 || fail "${3:-$2}: not a result file of one benchmark (jq)"
	fi
	pm show "$2"
	expect_status 0 "${3:-$2}: pmbench show"
	case $1 in
	run) expect_out '^null: getppid' "${3:-$2}" ;;
	stat) expect_out "^touch $T/ran: " "${3:-$2}" ;;
	esac
}

# A character device of our own: as root a private copy (so that a
# broken pmbench cannot replace the machine's /dev/null or /dev/full),
# else the real one, which a user cannot replace anyway.
chardev() {
	if [ "$(id -u)" -eq 0 ] && { [ -c "$T/$1" ] || mknod "$T/$1" c 1 "$2" 2>/dev/null; }; then
		echo "$T/$1"
	else
		echo "/dev/$1"
	fi
}

# Refused before anything runs: status 2, nothing on stdout, nothing
# ran (stat's command left no trace), the path named.
refused() {
	expect_status 2 "$cmd $1"
	[ ! -s "$T/out" ] || fail "$cmd $1: something ran (stdout not empty)"
	[ ! -e "$T/ran" ] || fail "$cmd $1: the command ran"
	expect_err "$2" "$cmd $1: stderr"
	expect_one_line_error
}

mkdir "$T/dir" "$T/tmp"
ln -s "$T/nothing-here.json" "$T/dangling"
if [ "$(id -u)" -ne 0 ]; then
	mkdir "$T/ro" && chmod 555 "$T/ro"
fi
# a block device: as root a node of our own (never a real disk's node)
if [ "$(id -u)" -eq 0 ]; then
	mknod "$T/blk" b 7 0 2>/dev/null && blk="$T/blk" || blk=
else
	blk=$(find /dev -maxdepth 1 -type b 2>/dev/null | head -n 1)
fi

for cmd in run stat; do
	with_o $cmd -o ''
	refused "-o ''" "^pmbench: -o '': an empty file name"
	with_o $cmd -o "$T/dir"
	refused "-o DIR" "$T/dir: is a directory"
	with_o $cmd -o "$T/no/such/dir/r.json"
	refused "-o in a missing directory" "$T/no/such/dir/r.json: directory $T/no/such/dir: No such file"
	# a file cannot be created in /proc, root or not (access(2) would say yes)
	with_o $cmd -o /proc/pmbench-test.json
	refused "-o in /proc" "/proc/pmbench-test.json: cannot create a file in /proc"
	with_o $cmd -o "$T/dangling"
	refused "-o dangling link" "$T/dangling: a symbolic link to a file that does not exist"
	if [ -d "$T/ro" ]; then
		with_o $cmd -o "$T/ro/r.json"
		refused "-o in a read-only directory" "$T/ro/r.json: cannot create a file in $T/ro"
	fi
	if [ -n "$blk" ]; then
		with_o $cmd -o "$blk"
		refused "-o BLOCKDEV" "$blk: is a block device"
		[ -b "$blk" ] || fail "$cmd: $blk is no longer a block device"
	fi
	with_o $cmd -o - --format csv
	refused "-o - --format csv" 'standard output: --format csv cannot go there too'

	# A character device is written into, not replaced.
	null=$(chardev null 3)
	with_o $cmd -o "$null"
	expect_status 0 "$cmd -o $null"
	[ -c "$null" ] || fail "$cmd: $null is no longer a character device"

	# A FIFO is written into: the reader gets the result file.
	rm -f "$T/fifo" "$T/from-fifo"
	mkfifo "$T/fifo"
	# (timeout: a pmbench that replaced the FIFO would leave cat waiting)
	timeout 30 cat "$T/fifo" > "$T/from-fifo" &
	reader=$!
	with_o $cmd -o "$T/fifo"
	expect_status 0 "$cmd -o FIFO"
	[ -p "$T/fifo" ] || { fail "$cmd: the FIFO was replaced"; kill "$reader"; }
	wait "$reader"
	is_result $cmd "$T/from-fifo" "$cmd: the result read from the FIFO"

	# A FIFO no one reads: SIGTERM ends the wait for a reader (as it
	# ends `> fifo`), and the result goes to a recovery file.
	rm -f "$T/fifo" "$T/tmp"/pmbench-results-*.json
	mkfifo "$T/fifo"
	case $cmd in
	run) TMPDIR="$T/tmp" "$PMBENCH" run $Q -o "$T/fifo" null 2> "$T/err" & ;;
	stat) TMPDIR="$T/tmp" "$PMBENCH" stat $SQ -o "$T/fifo" -- touch "$T/ran" 2> "$T/err" & ;;
	esac
	pid=$!
	n=0
	# the workload first: then the open of the FIFO waits
	until grep -q pipe_wait /proc/$pid/wchan 2>/dev/null ||
		grep -q wait_for_partner /proc/$pid/wchan 2>/dev/null; do
		n=$((n + 1))
		[ $n -lt 600 ] || break
		sleep 0.1
	done
	kill -TERM "$pid" 2>/dev/null
	n=0
	while kill -0 "$pid" 2>/dev/null && [ $n -lt 100 ]; do n=$((n + 1)); sleep 0.1; done
	if kill -0 "$pid" 2>/dev/null; then
		fail "$cmd -o FIFO without a reader: SIGTERM did not end it"
		kill -KILL "$pid"
	fi
	wait "$pid"
	[ $? -ne 0 ] || fail "$cmd -o FIFO without a reader, SIGTERM: exit status 0"
	grep -q "$T/fifo: write failed: Interrupted system call; the results were saved to $T/tmp/pmbench-results-" "$T/err" ||
		fail "$cmd -o FIFO without a reader, SIGTERM: $(cat "$T/err")"
	set -- "$T/tmp"/pmbench-results-*.json
	[ -f "$1" ] && is_result $cmd "$1" "$cmd: the recovery file after SIGTERM"

	# A symbolic link: the target is replaced atomically, the link stays.
	rm -f "$T/link.json"
	echo old > "$T/target.json"
	ln -s target.json "$T/link.json"
	with_o $cmd -o "$T/link.json"
	expect_status 0 "$cmd -o LINK"
	[ -L "$T/link.json" ] || fail "$cmd: the symbolic link was replaced"
	is_result $cmd "$T/target.json" "$cmd: the link's target"

	# -o -: the result file on stdout, nothing else there, no file "-".
	with_o $cmd -o -
	expect_status 0 "$cmd -o -"
	cp "$T/out" "$T/stdout.json"
	[ ! -e "$T/cwd/-" ] || fail "$cmd -o -: a file named '-' was written"
	is_result $cmd "$T/stdout.json" "$cmd -o -: stdout"
	with_o $cmd -o /dev/stdout
	expect_status 0 "$cmd -o /dev/stdout"
	expect_out '^ "format": "pmbench-result",$'
	expect_no_out '^(null|touch) ' "$cmd -o /dev/stdout: no table on stdout"
	[ ! -e "$T/cwd/-" ] || fail "$cmd -o /dev/stdout: a file named '-' was written"

	# A write that fails: the path, the error, and where the results went.
	full=$(chardev full 7)
	with_o $cmd -o "$full"
	expect_status 1 "$cmd -o $full"
	[ -c "$full" ] || fail "$cmd: $full is no longer a character device"
	expect_err "^pmbench: $full: write failed: No space left on device; the results were saved to $TMPDIR/pmbench-results-[A-Za-z0-9]{6}\.json instead"
	rec=$(sed -n 's/.*saved to \(.*\.json\) instead.*/\1/p' "$T/err")
	is_result $cmd "$rec" "$cmd: the recovery file"
	rm -f "$rec"
	# (the fall-back to standard output when no recovery file can be made
	# either is in tests/unit/test-output.c)
done

# stat's commands may write on stdout only when the result file does not.
pm stat $SQ -o - --show-output -- echo mixed
expect_status 2 "stat -o - --show-output"
expect_err 'standard output: --show-output cannot go there too'
[ ! -s "$T/out" ] || fail "stat -o - --show-output: something ran"

# A full file system (a tiny tmpfs in a private mount namespace).
if [ "$(id -u)" -eq 0 ] && command -v unshare >/dev/null 2>&1 &&
   unshare -m sh -c "mount -t tmpfs -o size=64k none '$T/dir'" 2>/dev/null; then
	for cmd in run stat; do
		rm -f "$TMPDIR"/*
		case $cmd in
		run) args="run $Q -o '$T/dir/r.json' null" ;;
		stat) args="stat $SQ -o '$T/dir/r.json' -- true" ;;
		esac
		status=0
		unshare -m sh -c "mount -t tmpfs -o size=64k none '$T/dir' &&
			dd if=/dev/zero of='$T/dir/fill' bs=4k count=14 2>/dev/null;
			exec '$PMBENCH' $args" >"$T/out" 2>"$T/err" || status=$?
		checks=$((checks + 1))
		expect_status 1 "$cmd -o on a full file system"
		expect_err "$T/dir/r.json: write failed: No space left on device; the results were saved to $TMPDIR/pmbench-results-"
		[ "$(ls "$TMPDIR" | grep -c '^pmbench-results-')" -eq 1 ] || fail "$cmd: no recovery file in $TMPDIR"
	done
else
	echo "note: full file system not tried (needs root and unshare -m)"
fi

finish
