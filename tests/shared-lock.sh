#!/bin/sh
# Run a test holding the test lock shared: tests that compare timings
# (tests/cli/lib.sh: exclusive_machine) then wait for it and keep the
# machine to themselves.  Unit tests run through this (LOG_COMPILER).
LOCK="${TMPDIR:-/tmp}/pmbench-tests.lock"
command -v flock >/dev/null 2>&1 || exec "$@"
exec flock -s "$LOCK" "$@"
