#!/bin/sh
# Top-level usage, dispatch, and -h agreeing with each man page SYNOPSIS.
. "$TEST_LIB"

# As git: usage after an error on stderr, status 2; asked for with -h,
# on stdout, status 0; as pmbench(1) says in OPTIONS and EXIT STATUS.
pm
expect_status 2 "pmbench with no arguments"
expect_err '^pmbench: no command or benchmark given$'
expect_err '^usage: pmbench'
expect_err '^  run '
[ -s "$T/out" ] && fail "pmbench with no arguments: usage on stdout"

pm -h
expect_status 0 "pmbench -h"
expect_out '^usage: pmbench'
expect_out '^  run '
[ -s "$T/err" ] && fail "pmbench -h: output on stderr"
pm run --no-such-option
expect_status 2 "pmbench run --no-such-option"
expect_err "^pmbench run: unknown option '--no-such-option'$"
expect_err '^usage: pmbench run'
[ -s "$T/out" ] && fail "pmbench run --no-such-option: usage on stdout"
pm run -h
expect_status 0 "pmbench run -h"
[ -s "$T/err" ] && fail "pmbench run -h: output on stderr"
# the page says the same in both places
page="${PMBENCH_DATADIR:?}/man/pmbench.1"
sed -n '/^\.SH OPTIONS/,/^\.SH COMMANDS/p' "$page" | tr '\n' ' ' |
	grep -q 'Without any argument .* on standard error and exits with status 2' ||
	fail "pmbench(1) OPTIONS: no arguments is not a usage error on stderr, status 2"
sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$page" | tr '\n' ' ' |
	grep -q 'Bad usage or bad input: no command at all' ||
	fail "pmbench(1) EXIT STATUS: no command at all is not under status 2"
! sed -n '/^\.SH EXIT STATUS/,/^\.SH /p' "$page" | grep -q 'exits 1' ||
	fail "pmbench(1) EXIT STATUS still says pmbench exits 1 for usage"

pm --version
expect_status 0
expect_out '^pmbench [0-9]+\.[0-9]+'

pm frobnicate
expect_status 2 "unknown command"
expect_err "'frobnicate' is not a command, benchmark or group"
expect_one_line_error
! grep -q 'did you mean' "$T/err" || fail "a suggestion for a word near nothing"

# did you mean: commands, benchmarks, groups, events (two edits at most)
pm exlpain
expect_status 2
expect_err "'exlpain' is not a command, benchmark or group; did you mean 'explain'\?"
expect_one_line_error
pm forkk
expect_status 2
expect_err "did you mean 'fork'\?"
pm list prco
expect_status 2
expect_err "unknown benchmark or group 'prco'; did you mean 'proc'\?"
# the groups that are no family: quick and all
pm run quik
expect_status 2 "run quik"
expect_err "unknown benchmark or group 'quik'; did you mean 'quick'\?"
expect_one_line_error
pm quik
expect_status 2 "quik"
expect_err "'quik' is not a command, benchmark or group; did you mean 'quick'\?"
pm list al
expect_status 2 "list al"
expect_err "unknown benchmark or group 'al'; did you mean 'all'\?"
pm run --events cycels null
expect_status 2
expect_err "unknown event 'cycels'.*did you mean 'cycles' for 'cycels'\?"
expect_one_line_error
pm events cycels
expect_status 2
expect_err "did you mean 'cycles' for 'cycels'\?"

# Each command declares its options once, in the table getopt parses with
# (src/util/options.h); -h prints its synopsis and option list from it
# (tests/cli/options.sh: the two and the parser agree).  That table, as
# -h lists it, and the man page SYNOPSIS must name the same options, each
# by the name the synopsis shows (-x when it has one); -h and --help,
# which every command has, aside.
mandir="${PMBENCH_DATADIR:?}/man"
options_of() {
	grep -oE -- '--[a-z][a-z-]*|(^|[[ ])-[a-zA-Z]\b' | sed 's/^[[ ]//' | sort -u
}
# every command that 'pmbench -h' lists
pm -h
cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$T/out")
for c in run stat list events show explain export sysinfo help import ab report log; do
	echo "$cmds" | grep -qx "$c" || fail "pmbench -h does not list $c"
done
for cmd in $cmds; do
	pm "$cmd" -h
	expect_status 0 "pmbench $cmd -h"
	expect_out "^usage: pmbench $cmd" "pmbench $cmd -h"
	# the option list: the block after the synopsis, "  -x, --long ..." or
	# "      --long ..." a line
	sed '1,/^$/d' "$T/out" | sed '/^$/q' |
		sed -nE 's/^  (-[a-zA-Z])[ ,].*/\1/p; s/^      (--[a-z0-9-]+)( .*)?$/\1/p' |
		sort -u > "$T/h.opts"
	page="$mandir/pmbench-$cmd.1"
	[ -f "$page" ] || { fail "no man page $page"; continue; }
	sed -n '/^\.SH SYNOPSIS/,/^\.SH /p' "$page" | sed 's/\\f[BIRP]//g; s/\\-/-/g' |
		grep -v '^\.SH' | options_of | grep -Ev '^(-h|--help)$' > "$T/man.opts"
	if ! cmp -s "$T/h.opts" "$T/man.opts"; then
		fail "pmbench $cmd: its option table (-h) and pmbench-$cmd(1) SYNOPSIS list different options"
		diff "$T/h.opts" "$T/man.opts" | sed 's/^/  /' >&2
	fi
done

finish
