#!/bin/sh
# The LAVA test definition (contrib/lava/pmbench.yaml) run as LAVA runs
# it, in a fake LAVA: its params and run steps taken from the YAML and
# made into the shell script LAVA makes of them (the parameters as
# variables, set -e, in the checkout), with LAVA's helpers and curl
# stubbed on PATH.  Every benchmark must be reported with its figure and
# unit, and the result file uploaded and referenced.  Then the install
# step, from a stand-in checkout with the build tools stubbed.
. "$TEST_LIB"

yaml="$TEST_SRCDIR/contrib/lava/pmbench.yaml"
mkdir -p "$T/bin" "$T/lava" "$T/artifacts"

# LAVA's helpers: each call one line of $T/lava/calls
for h in lava-test-case lava-test-reference lava-test-set lava-test-raise; do
	cat > "$T/bin/$h" <<EOF
#!/bin/sh
echo "$h \$*" >> "$T/lava/calls"
EOF
done
# an artifact store: curl -F path=@FILE [-F token=T] URL keeps FILE, says its URL
cat > "$T/bin/curl" <<EOF
#!/bin/sh
for a; do
	case \$a in path=@*) cp "\${a#path=@}" "$T/artifacts/" || exit 22 ;; esac
	url=\$a
done
echo "curl \$*" >> "$T/lava/curl"
echo "\$url/\$(ls "$T/artifacts" | head -1)"
EOF
chmod +x "$T"/bin/*

# lava_script YAML ROOT OVERRIDES...: the script LAVA makes of the
# definition: its params, the job's (KEY=VALUE), set -e, cd, the steps
lava_script() {
	y=$1 root=$2
	shift 2
	echo '###default parameters from test definition###'
	awk '/^params:/ { p = 1; next } /^[^ #]/ { p = 0 }
		p && /^  [A-Z_]+: / { k = $1; sub(/:$/, "", k); v = $0; sub(/^[^:]*: */, "", v)
			gsub(/^"|"$/, "", v); print k "='\''" v "'\''" }' "$y"
	echo '###test parameters from job submission###'
	for kv; do echo "${kv%%=*}='${kv#*=}'"; done
	echo 'set -e'
	echo 'export TESTRUN_ID=0_pmbench'
	echo "cd '$root'"
	awk '/^run:/ { r = 1; next } /^[^ #]/ { r = 0 } r && /^  steps:/ { s = 1; next }
		r && s && /^    - / { sub(/^    - /, ""); print }' "$y"
}

lava_script "$yaml" "$TEST_SRCDIR" > "$T/defaults.sh"
grep -q "^BENCHMARKS='quick'$" "$T/defaults.sh" || fail "no BENCHMARKS parameter in the YAML"
grep -q 'contrib/lava/pmbench-lava.sh' "$T/defaults.sh" || fail "the steps do not run pmbench-lava.sh"

# pmbench on PATH, as an installed one: INSTALL=auto uses it
cat > "$T/bin/pmbench" <<EOF
#!/bin/sh
echo "pmbench \$*" >> "$T/lava/pmbench"
exec "$PMBENCH" "\$@"
EOF
chmod +x "$T/bin/pmbench"

# The job: three benchmarks, one of which cannot run here (no compiler
# where it looks), quickly, and an artifact store.
lava_script "$yaml" "$TEST_SRCDIR" "BENCHMARKS=null stat macro-cc" \
	"RUN_OPTIONS=--rounds 2 --max-time 0.2" "OUTPUT=$T/out-dir" \
	"ARTIFACT_URL=https://artifacts.example/lab" > "$T/job.sh"
(cd "$T" && PATH="$T/bin:$PATH" PMBENCH_MACRO_PATH=/nonexistent sh "$T/job.sh") \
	> "$T/job.out" 2>&1 || fail "the test shell failed: $(tail -3 "$T/job.out")"
checks=$((checks + 1))
calls="$T/lava/calls"
[ -s "$calls" ] || { fail "nothing reported: $(tail -3 "$T/job.out")"; finish; }
grep -qx 'lava-test-case pmbench-install --result pass' "$calls" || fail "install not reported"
grep -qx 'lava-test-case pmbench-run --result pass' "$calls" || fail "the run not reported"
grep -q '^pmbench run -q -o '"$T"'/out-dir/pmbench.json --rounds 2 --max-time 0.2 null stat macro-cc$' \
	"$T/lava/pmbench" || fail "pmbench was not run with the job's parameters"

# the uploaded file is the run's result file, every benchmark in it
art="$T/artifacts/pmbench.json"
[ -f "$art" ] || fail "no result file uploaded"
grep -q '^lava-test-reference pmbench-result --result pass --reference https://artifacts.example/lab/pmbench.json$' \
	"$calls" || fail "the artifact's URL is not recorded: $(grep reference "$calls")"
"$PMBENCH" show --format csv "$art" > "$T/csv" || fail "the artifact is not a result file"

# every benchmark, reported with the figure and unit the file has
for b in null stat; do
	want=$(awk -F, -v b=$b '$1 == b { print "--result pass --measurement " $8 " --units " $3; exit }' "$T/csv")
	[ -n "$want" ] || fail "$b is not in the result file"
	grep -qx "lava-test-case $b $want" "$calls" ||
		fail "$b: not reported as '$want': $(grep "case $b " "$calls")"
done
grep -qx 'lava-test-case macro-cc --result skip' "$calls" || fail "macro-cc, unsupported, not skipped"
# one report per benchmark of the file, and no other
n=$(awk -F, 'NR > 1 && !s[$1]++' "$T/csv" | wc -l)
m=$(grep -c -v -E ' pmbench-(install|run|result) ' "$calls")
[ "$n" -eq 3 ] && [ "$m" -eq "$n" ] || fail "$m reports for $n benchmarks"

# The install step: from a checkout, with README's packages.  A stand-in
# checkout (the script and a configure that records its arguments) and
# stubs of apt-get, autoreconf and make; make install puts a pmbench
# that records its calls in PREFIX/bin.
src="$T/src"
mkdir -p "$src/contrib/lava" "$T/bin2"
cp "$TEST_SRCDIR/contrib/lava/pmbench-lava.sh" "$yaml" "$src/contrib/lava/"
printf '#!/bin/sh\necho "configure $*" >> "%s/lava/build"\n' "$T" > "$src/configure"
for t in apt-get autoreconf; do
	printf '#!/bin/sh\necho "%s $*" >> "%s/lava/build"\n' "$t" "$T" > "$T/bin2/$t"
done
cat > "$T/bin2/make" <<EOF
#!/bin/sh
echo "make \$*" >> "$T/lava/build"
if [ "\$1" = install ]; then
	mkdir -p "$T/prefix/bin"
	printf '#!/bin/sh\necho "installed pmbench \$*" >> "%s/lava/build"\nexec "%s" "\$@"\n' \
		"$T" "$PMBENCH" > "$T/prefix/bin/pmbench"
	chmod +x "$T/prefix/bin/pmbench"
fi
EOF
cp "$T/bin"/lava-* "$T/bin2/"
chmod +x "$src/configure" "$T"/bin2/*
lava_script "$src/contrib/lava/pmbench.yaml" "$src" "BENCHMARKS=null" \
	"RUN_OPTIONS=--rounds 1 --max-time 0.1" "OUTPUT=$T/out2" "INSTALL=source" \
	"PREFIX=$T/prefix" > "$T/job2.sh"
: > "$calls"
(cd "$T" && PATH="$T/bin2:/usr/bin:/bin" sh "$T/job2.sh") > "$T/job2.out" 2>&1 ||
	fail "the test shell with the install failed: $(tail -3 "$T/job2.out")"
checks=$((checks + 1))
readme_deps=$(sed -n 's/^apt-get update && apt-get install -y \([^&]*\) &&.*/\1/p' \
	"$TEST_SRCDIR/README.md" | head -1 | sed 's/ *$//')
[ -n "$readme_deps" ] || fail "no apt-get line in README.md"
grep -qxF "apt-get install -y -q $readme_deps" "$T/lava/build" ||
	fail "not README's packages: $(grep 'apt-get install' "$T/lava/build")"
awk '/^apt-get install/ { a = NR } /^autoreconf -fi$/ { r = NR } /^configure --prefix=/ { c = NR }
	/^make -j/ { m = NR } /^make install$/ { i = NR } /^installed pmbench run / { p = NR }
	END { exit !(a && a < r && r < c && c < m && m < i && i < p) }' "$T/lava/build" ||
	fail "the install steps, or the run with the installed pmbench, out of order: $(cat "$T/lava/build")"
grep -qx "configure --prefix=$T/prefix" "$T/lava/build" || fail "not configured for PREFIX"
grep -q '^lava-test-case null --result pass --measurement [0-9.e+-]* --units us$' "$calls" ||
	fail "after the install, null not reported: $(cat "$calls")"
grep -qx 'lava-test-case pmbench-result --result skip' "$calls" ||
	fail "no ARTIFACT_URL: the artifact is not reported as skipped"

finish
