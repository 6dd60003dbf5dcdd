#!/bin/sh
# No program is started through PATH: a planted gzip, sh or man never runs
# (pmbench is run as root; the kernel config is read with zlib).
. "$TEST_LIB"

mkdir "$T/bin"
for p in gzip sh man zcat; do
	printf '#!/bin/sh\necho "%s $*" >> %s/planted-ran\nexit 1\n' "$p" "$T" > "$T/bin/$p"
	chmod +x "$T/bin/$p"
done
status=0
PATH="$T/bin:$PATH" "$PMBENCH" sysinfo >"$T/out" 2>"$T/err" || status=$?
checks=1
expect_status 0 "sysinfo"
if [ -r /proc/config.gz ]; then
	expect_out '^  config +[0-9]+ options from /proc/config.gz$'
fi
PATH="$T/bin:$PATH" "$PMBENCH" run --max-time 0.05 --no-profile --no-counters null >/dev/null 2>&1 ||
	fail "run with a planted PATH failed"
if [ -x /usr/bin/man ] || [ -x /bin/man ]; then
	MANPAGER=cat PAGER=cat PATH="$T/bin:$PATH" "$PMBENCH" help run >"$T/out" 2>&1 ||
		fail "help run with a planted PATH failed"
	expect_out 'PMBENCH-RUN\(1\)'
fi
[ ! -e "$T/planted-ran" ] || fail "a program was started through PATH: $(cat "$T/planted-ran")"

finish
