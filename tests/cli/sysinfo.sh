#!/bin/sh
# pmbench sysinfo: the fingerprint.
. "$TEST_LIB"

pm sysinfo
expect_status 0
expect_out "$(uname -r)"
expect_no_out '^CONFIG_' "the text form does not dump the config"

pm sysinfo --format json
expect_status 0
expect_out "\"release\": \"$(uname -r)\""
expect_out '"perf_event_paranoid": -?[0-9]+'
expect_out '"page_table_levels": [2-5]'
expect_out '"unavailable": \{'

pm sysinfo --format yaml
expect_status 2
expect_err "--format: 'yaml' is not one of text, json"

# The key table: every key once, with its type and unit.
pm sysinfo --list-keys
expect_status 0
expect_out '^KEY +TYPE +UNIT +DESCRIPTION'
expect_out '^kernel\.page_table_levels +integer '
expect_out '^kernel\.text_size +integer +bytes '
expect_out '^cpu\.caches\.\*\.ways +integer '
[ "$(grep -c '^kernel\.cmdline ' "$T/out")" = 1 ] || fail "kernel.cmdline listed other than once"

pm sysinfo --list-keys --format json
expect_status 0
expect_out '"key": "thp\.enabled"'
expect_out '"unit": "MHz"'

pm sysinfo --list-keys --format man
expect_status 0
expect_out '^\.SS Mitigations$'
expect_out '^\.B mitigations$'

pm sysinfo --list-keys --format yaml
expect_status 2
expect_err "--format: 'yaml' is not one of text, json, man"

finish
