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

finish
