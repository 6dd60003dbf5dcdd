#!/bin/sh
# pmbench explain --spread-from: how much runs differ, learnt from other
# runs of the machine (the result history by default).
. "$TEST_LIB"

D="$TEST_DATA/explain/spread"
H="$XDG_DATA_HOME/pmbench/results"
mkdir -p "$H"

# No history: one run a side with tight rounds, +12% is called.
pm explain "$D/old.json" "$D/new.json"
expect_status 0 "explain, empty history"
expect_out '^null  REGRESSION .*one run per side: no between-run evidence'

# The history's runs of this host differ by about 6%: +12% between two
# single runs is within that.  The run of another host is not counted;
# the other kernel's runs count as their own group (9 runs, 2 groups).
cp "$D"/history/*.json "$D"/other-kernel/*.json "$H"/
pm explain "$D/old.json" "$D/new.json"
expect_status 0 "explain against the history"
expect_no_out '^null  (REGRESSION|IMPROVEMENT)' "a difference within the spread of runs"
expect_out '^inconclusive \(1\): null \+12\.0%'
expect_out 'Runs of the same thing differ by ±[0-9.]+% on this machine \(9 runs in the result history\)'
expect_out 'would be settled by about [0-9]+ runs per side'
pm explain --format json "$D/old.json" "$D/new.json"
expect_out '"spread_runs": 9,'

# Runs of another benchmark list (null within a suite) were measured
# under other conditions: their spread is not counted.
cp "$D"/other-suite/*.json "$H"/
pm explain --format json "$D/old.json" "$D/new.json"
expect_out '"spread_runs": 9,' "runs of another benchmark list in the history"

# The sides themselves are not their own history.
cp "$D/old.json" "$H/20261202T100000Z-6.1.0-spread.json"
cp "$D/new.json" "$H/20261202T100100Z-6.1.0-spread.json"
pm explain --format json "$D/old.json" "$D/new.json"
expect_out '"spread_runs": 9,' "sides copied into the history"

# --spread-from none: the rounds alone, as without a history.
pm explain --spread-from none "$D/old.json" "$D/new.json"
expect_status 0 "--spread-from none"
expect_out '^null  REGRESSION '

# A directory named instead of the history.
pm explain --spread-from "$D/history" "$D/old.json" "$D/new.json"
expect_status 0 "--spread-from DIR"
expect_out '\(6 runs in .*/history\)'

# Bad values: exit 2, the option and the file named.
pm explain --spread-from '' "$D/old.json" "$D/new.json"
expect_status 2 "--spread-from ''"
expect_err "--spread-from: an empty name"
pm explain --spread-from "$T/nonexistent" "$D/old.json" "$D/new.json"
expect_status 2 "--spread-from a missing file"
expect_err "^pmbench: --spread-from: $T/nonexistent: "
expect_one_line_error

# The whole run slower with identical fingerprints: the machine, held
# back; the same figures with another kernel command line are the kernel's.
S="$TEST_DATA/explain/suite"
pm explain --spread-from none "$S/old.json" "$S/new.json"
expect_status 0 "explain, the whole run slower"
expect_out '^The machine moved the run: 7 of the 8 benchmarks ran slower by more than 3% \(median of all \+2[0-9]\.[0-9]%\)'
expect_no_out '^[a-z-]+  (REGRESSION|IMPROVEMENT)' "a run slower throughout"
expect_out '^No verdict of change: 1 within the noise floor \(±3%\), 7 undecided \(held back: the machine moved the run\); largest moves: fork \+30\.1%'
pm explain --all --spread-from none "$S/old.json" "$S/new.json"
expect_out '^    1\. \[medium 0\.[0-9]+\] noise or contention: .*held back: 7 of the 8 benchmarks compared ran slower'
pm explain --format json --spread-from none "$S/old.json" "$S/new.json"
expect_out '"held_back": true'
pm explain --spread-from none "$S/old.json" "$S/new-cmdline.json"
expect_status 0 "explain, another command line"
expect_no_out '^The machine moved the run'
expect_out '^fork  REGRESSION '

finish
