#!/bin/sh
# The sampled pass: kernel and user hotspots, call chains, folded stacks.
. "$TEST_LIB"

# kallsyms must show addresses for kernel symbols (root, or paranoid <= 1)
kernel_visible() {
	awk '$3 == "_stext" { exit ($1 == "0000000000000000") }' /proc/kallsyms 2>/dev/null
}

pm run --cpu 0 --max-time 0.5 --no-counters -o "$T/r.json" null page-fault fork
expect_status 0 "run with hotspots"
expect_out 'top symbol'
pm show --hotspots "$T/r.json"
expect_status 0
cp "$T/out" "$T/hot"

# section BENCH: the hotspot lines of one benchmark
section() {
	awk -v b="$1" '/^[a-z0-9-]+: / { on = ($1 == b ":") } on' "$T/hot"
}

for b in null page-fault fork; do
	section "$b" > "$T/sec"
	r=$(sed -n 's/.*kernel, \([0-9]*\)% resolved.*/\1/p' "$T/sec")
	ge "$r" 95 || fail "$b: only ${r:-?}% of samples resolved to a symbol"
	n=$(sed -n 's/.*hotspots: \([0-9]*\) samples.*/\1/p' "$T/sec")
	ge "$n" 100 || fail "$b: only ${n:-?} samples"
done

if kernel_visible; then
	# null: the syscall entry path and the getppid implementation
	section null | awk '/^ +[0-9.]+%/ && NR <= 14' > "$T/top"
	grep -Eq ' (do_syscall_64|entry_SYSCALL_64[a-z_]*) ' "$T/top" ||
		fail "null: no syscall entry symbol among the top kernel symbols"
	grep -Eq ' __(x64|ia32)_sys_getppid ' "$T/top" ||
		fail "null: getppid's implementation is not among the top symbols"
	# page-fault: fault handling on top
	section page-fault | awk '/^ +[0-9.]+%/' | head -n 4 > "$T/top"
	grep -Eq ' (exc_page_fault|handle_mm_fault|__handle_mm_fault|do_read_fault|filemap_map_pages|do_fault) ' "$T/top" ||
		fail "page-fault: no fault-handling symbol in the top 4"
	# fork: page-table copy and process creation; children sampled
	section fork | awk '/^ +[0-9.]+%/' > "$T/top"
	head -n 20 "$T/top" | grep -Eq ' (copy_page_range|copy_p[a-z]*_range|dup_mmap|dup_mm) ' ||
		fail "fork: no page-table copy symbol in the top 20"
	grep -Eq ' (copy_process|kernel_clone|dup_task_struct|__do_sys_clone[0-9]*|__x64_sys_clone[0-9]*|anon_vma_fork|alloc_pid|idr_get_free|pidfs_add_pid|dup_fd|copy_files|copy_signal|sched_fork|wake_up_new_task|schedule_tail|ret_from_fork[a-z_]*|mm_init|exit_mmap|do_exit|release_task|wait_task_zombie|wait_consider_task) ' "$T/top" ||
		fail "fork: no process creation/exit symbol among its hotspots"
	section fork | grep -Eq '[0-9]+ from children' || fail "fork: no samples from the children"

	# the kernel symbols' costs per op add up to the kernel share of time
	for b in null page-fault; do
		section "$b" | awk -v b="$b" '
			function ns(v, u) { return u == "s" ? v * 1e9 : u == "ms" ? v * 1e6 : u == "us" ? v * 1e3 : v }
			/hotspots:/ { for (i = 1; i <= NF; i++) if ($(i + 1) == "kernel,") k = $i + 0 }
			/^ +[0-9.]+% +[0-9.]+ [mun]?s / && ($5 ~ /^\[|^[a-z0-9_]+$/) && $5 !~ /\// {
				if ($5 == "[kernel]" || ($6 ~ /^\[/ && 0)) sum += ns($2, $3) }
			END { print k, sum }' > "$T/sum"
		pm show --format csv "$T/r.json"
		med=$(awk -F, -v b="$b" '$1 == b { print $4; exit }' "$T/out")
		read -r k sum < "$T/sum"
		want=$(awk -v k="$k" -v m="$med" 'BEGIN { print k / 100 * m }')
		awk -v s="$sum" -v w="$want" 'BEGIN { exit !(s >= 0.9 * w && s <= 1.1 * w) }' ||
			fail "$b: kernel symbols add up to $sum ns/op, kernel share x time/op is $want"
	done
else
	section null | grep -q 'no kernel symbols: kernel addresses are hidden' ||
		fail "no kernel symbols, and no reason given"
fi

# Folded stacks for flame-graph tools: "bench;frame;...;frame count".
pm show --format folded "$T/r.json"
expect_status 0
expect_out '^null;pmbench;'
expect_out '^fork;pmbench-spawner;'
bad=$(grep -cvE '^[^ ]+ [0-9]+$' "$T/out")
[ "$bad" -eq 0 ] || fail "$bad folded lines are not 'frames count'"

# User stacks unwound with libunwind (--call-graph dwarf) reach from the
# benchmark loop to main for most samples of a user-heavy benchmark.
pm run --call-graph dwarf --no-counters --max-time 0.3 -o "$T/d.json" int-add
expect_status 0 "run --call-graph dwarf"
pm show --hotspots --all-frames "$T/d.json"
u=$(sed -n 's/.*unwound completely (libunwind): \([0-9]*\)%.*/\1/p' "$T/out")
ge "$u" 80 || fail "dwarf: only ${u:-?}% of user stacks unwound completely"
# pmbench's own frames are shown only with --all-frames
share=$(awk '/top call chains/ { on = 1; next } on && /;main;cmd_run;.*;timed_run;add_run$/ { s += $1 } END { print s + 0 }' "$T/out")
ge "$share" 80 || fail "dwarf: only ${share}% of samples have a stack from add_run back to main"

# --no-profile: no hotspots, and show says so.
pm run --no-profile --no-counters --max-time 0.2 -o "$T/n.json" null
expect_status 0
pm show --hotspots "$T/n.json"
expect_out 'hotspots: none recorded'

# Unprivileged (perf_event_paranoid=2 here): the run completes, user
# hotspots remain, one line says why kernel ones are missing.
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null 2>&1 &&
   setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$PMBENCH" 2>/dev/null &&
   [ "$(cat /proc/sys/kernel/perf_event_paranoid)" -ge 2 ]; then
	chmod 777 "$T"
	status=0
	setpriv --reuid=nobody --regid=nogroup --clear-groups \
		"$PMBENCH" run --max-time 0.3 -o "$T/u.json" null >"$T/out" 2>"$T/err" || status=$?
	expect_status 0 "unprivileged run"
	[ "$(grep -c 'no kernel hotspots' "$T/err")" -eq 1 ] ||
		fail "unprivileged: expected one line about missing kernel hotspots"
	expect_err 'no kernel hotspots: .*perf_event_paranoid=2.*sysctl kernel.perf_event_paranoid=1'
	expect_out ' (null_run|syscall) +(pmbench|libc)'
else
	echo "note: unprivileged check not run (needs root, setpriv, a build tree nobody can read, perf_event_paranoid >= 2)"
fi

finish
