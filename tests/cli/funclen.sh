#!/bin/sh
# No C function in src/ longer than 80 lines (issues 17 and 38): one
# screen each, so a function does one thing.  A function starts at a
# column-0 line naming it before '(' and its body runs from a '{' to a
# '}' in column 0 (the kernel style of this tree); one a macro defines
# ('PM_OP(name)') is named by the macro's argument; data tables
# ('... = {') are not functions. Functions that may still be longer are
# named in tests/funclen.allow, each with the reason.
. "$TEST_LIB"

MAX=80
srcdir="${TEST_SRCDIR:?}"
allow="$srcdir/tests/funclen.allow"

# long_functions MAX FILE...: "FILE FUNCTION LINES" for each function
# whose header-to-closing-brace span is over MAX lines.
long_functions() {
	max=$1; shift
	awk -v max="$max" '
	FNR == 1 { hdr = ""; infn = 0 }
	!infn && /\);[ \t]*$/ { hdr = ""; next }
	!infn && /^[A-Za-z_][^;=]*\(/ && !/;[ \t]*$/ {
		name = $0; sub(/\(.*/, "", name); sub(/.*[ \t*]/, "", name)
		if (name ~ /^[A-Z][A-Z0-9_]*$/ && $0 ~ /^[A-Z][A-Z0-9_]*\([A-Za-z_][A-Za-z0-9_]*\)[ \t]*$/) {
			name = $0; sub(/^[^(]*\(/, "", name); sub(/\).*/, "", name)
		}
		hdr = name; hline = FNR; next
	}
	!infn && /^\{/ && hdr != "" { infn = 1; next }
	infn && /^\}/ {
		if (FNR - hline + 1 > max)
			print FILENAME, hdr, FNR - hline + 1
		infn = 0; hdr = ""
	}' "$@"
}

# The checker itself: an 81-line function is found, also one a macro
# defines (by its argument's name); an 80-line one, a long table and a
# prototype are not.
gen() {	# gen NAME BODYLINES: a function of BODYLINES+4 lines
	printf 'static int %s(int a,\n\t\tint b)\n{\n' "$1"
	i=0; while [ $i -lt "$2" ]; do printf '\ta += b;\n'; i=$((i + 1)); done
	printf '}\n'
}
{
	printf 'static int proto(int a,\n\tint b);\n'
	printf 'static const int table[] = {\n'
	i=0; while [ $i -lt 200 ]; do printf '\t%d,\n' $i; i=$((i + 1)); done
	printf '};\n'
	gen fits 76
	gen too_long 77
	printf 'PM_OP(macro_op)\n{\n'
	i=0; while [ $i -lt 78 ]; do printf '\ta += b;\n'; i=$((i + 1)); done
	printf '}\n'
	printf 'int main(void)\n{\n\treturn 0;\n}\n'
} > "$T/sample.c"
long_functions $MAX "$T/sample.c" > "$T/found"
[ "$(cat "$T/found")" = "$T/sample.c too_long 81
$T/sample.c macro_op 81" ] ||
	fail "checker: expected only too_long and macro_op (81 lines), got: $(cat "$T/found")"

# the allow-list: "PATH FUNCTION  # why", paths relative to the source tree
sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$allow" | awk '{ print $1, $2 }' |
	sort > "$T/allowed"

cd "$srcdir" || { fail "cannot enter $srcdir"; finish; }
long_functions $MAX $(find src -name '*.c' | sort) | sort > "$T/long"
awk '{ print $1, $2 }' "$T/long" | sort > "$T/long-names"
new=$(comm -23 "$T/long-names" "$T/allowed")
[ -z "$new" ] || {
	grep -F "$new" "$T/long" | while read -r f fn n; do
		echo "$f: $fn is $n lines (over $MAX): split it into named steps" >&2
	done
	fail "functions over $MAX lines"
}
# an entry whose function is now short (or gone) must leave the list
stale=$(comm -13 "$T/long-names" "$T/allowed")
[ -z "$stale" ] || fail "tests/funclen.allow names functions no longer over $MAX lines: $stale"
finish
