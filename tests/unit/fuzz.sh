#!/bin/sh
# libFuzzer, short: every fuzz/ target (the dm table/message parser, the
# policy-file parser, lunqctl's key=value words) replays its regression
# inputs and seeds, then fuzzes for 10 seconds, two targets at a time
# (about 30 s in all).  One "ok N fuzz TARGET # E execs, C cov" line each
# (fuzz/run's lines, numbered as this test's checks).
# Longer runs: make fuzz (FUZZ_TIME=seconds per target).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
out=$("$top/fuzz/run" --short 2>&1)
tap_relay <<EOF
$out
EOF
exit 0
