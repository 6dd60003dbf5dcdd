#!/bin/sh
# Each command declares its options once (src/util/options.h): getopt
# parses with the table, and -h prints its synopsis and option list from
# it.  For every command pmbench -h lists: the synopsis names the options
# the list holds, every listed option is one the parser takes (with a
# value when the list shows one), and an unknown option or a missing
# value is one error line, the synopsis line, status 2.
. "$TEST_LIB"

options_of() {
	grep -oE -- '--[a-z][a-z-]*|(^|[[ ])-[a-zA-Z]\b' | sed 's/^[[ ]//' | sort -u
}

# expect_usage_error CMD MESSAGE: the message, then the synopsis line, only
expect_usage_error() {
	expect_status 2 "pmbench $1: $2"
	[ "$(sed -n 1p "$T/err")" = "pmbench $1: $2" ] ||
		fail "pmbench $1: first line '$(sed -n 1p "$T/err")', expected 'pmbench $1: $2'"
	sed -n 2p "$T/err" | grep -q "^usage: pmbench $1 " ||
		fail "pmbench $1: no synopsis line after '$2'"
	[ "$(wc -l < "$T/err")" -eq 2 ] || fail "pmbench $1: '$2' is not two lines"
	[ -s "$T/out" ] && fail "pmbench $1: '$2' printed on stdout"
}

pm -h
cmds=$(sed -n '/^commands:/,/^$/s/^  \([a-z]*\) .*/\1/p' "$T/out")
[ -n "$cmds" ] || fail "pmbench -h lists no commands"
for cmd in $cmds; do
	# help reads its one argument itself: a topic, whatever it starts with
	[ "$cmd" = help ] && continue
	pm "$cmd" -h
	expect_status 0 "pmbench $cmd -h"
	[ -s "$T/err" ] && fail "pmbench $cmd -h: output on stderr"
	# the synopsis: up to the first blank line; the list: the next block,
	# each option as "-x, --long ARG" or "--long ARG" (ARG: takes a value)
	sed '/^$/q' "$T/out" > "$T/syn"
	sed '1,/^$/d' "$T/out" | sed '/^$/q' |
		sed -nE 's/^  (-[a-zA-Z])(, (--[a-z0-9-]+))?( ([^ ]+))?( .*)?$/\1 \3 \5/p
			 s/^      (--[a-z0-9-]+)( ([^ ]+))?( .*)?$/- \1 \3/p' |
		sed 's/^\(-[a-zA-Z]\)  /\1 - /' > "$T/list"
	[ -s "$T/list" ] || fail "pmbench $cmd -h lists no options"
	awk '{ print $1; print $2 }' "$T/list" | grep -v '^-$' | sort -u > "$T/list.opts"
	options_of < "$T/syn" > "$T/syn.opts"
	# every option of the list in the synopsis, by the name it shows there
	while read -r short long arg; do
		[ "$short" != - ] && name=$short || name=$long
		grep -qx -- "$name" "$T/syn.opts" ||
			fail "pmbench $cmd: $name is in the option list, not the synopsis"
	done < "$T/list"
	for o in $(cat "$T/syn.opts"); do
		grep -qx -- "$o" "$T/list.opts" ||
			fail "pmbench $cmd: $o is in the synopsis, not the option list"
	done
	# the parser takes each, with a value exactly when the list shows one
	while read -r short long arg; do
		for o in $short $long; do
			[ "$o" = - ] && continue
			if [ -n "$arg" ]; then
				pm "$cmd" "$o"
				expect_usage_error "$cmd" "option '$o' needs a value"
			else
				pm "$cmd" "$o" --no-such-option
				! grep -q "option '$o" "$T/err" ||
					fail "pmbench $cmd $o: $(head -1 "$T/err")"
			fi
		done
	done < "$T/list"
	pm "$cmd" --no-such-option
	expect_usage_error "$cmd" "unknown option '--no-such-option'"
	pm "$cmd" -Z
	expect_usage_error "$cmd" "unknown option '-Z'"
done

finish
