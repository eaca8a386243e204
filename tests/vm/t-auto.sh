# The adaptive throttle (auto), its experiment at reduced length
# (tests/demo/auto.sh --quick --check, demonstration 6 of make demo):
#   auto:knee from qdepth 1 and 64 on a flash LUN (16 channels x 8 ms, QD
#   64) within 25% of the offline sweep's knee in <= 15 s, IOPS >= 90%,
#   response p99 <= 1.25 x and service p99 <= 1.5 x the best static
#   depth's (its probes queue one command over the knee in the LUN every
#   12th window), the depth seen by
#   blktrace (sent below minus completed above) inside that band;
#   channels 16 -> 4 -> 16 followed within 10 s each way; auto:target
#   within 10% of its p99 target at >= 90% of the best static IOPS; the
#   hostile pool: no more QUEUE FULL or resets than reaction linux.
# group: auto timing
# time: 125
# set: full
. "$LUNQ_SRC/tests/vm/lib.sh"

# An experiment, not a computation: when a check misses, the first run's
# checks are shown and the experiment runs once more from a clean slate;
# the second run decides.  (Seen: "auto:knee from 64: ... service p99
# 10.22 <= 1.25 x 8.03 ms" failed by 2%, in 1 of 4 runs on one day.)
run_auto() {
	AUTO_PARTS=${AUTO_PARTS:-ABCD} sh "$LUNQ_SRC/tests/demo/auto.sh" --quick --check -o /tmp/auto > /tmp/auto.log 2>&1
}
run_auto
rc=$?
if [ $rc != 0 ] || [ "$(grep -c '^ok [0-9]' /tmp/auto.log)" != 8 ]; then
	echo "# first run: auto.sh exit $rc; its checks:"
	tr -d '\r' < /tmp/auto.log | grep -E '^(not )?ok [0-9]+ ' | sed 's/^/#   /'
	echo "# running the experiment once more"
	cleanup_all	# the first run's devices (auto.sh leaves its null_blks)
	run_auto
	rc=$?
fi
demo_output /tmp/auto.log
demo_checks /tmp/auto.log 8 "auto.sh exit $rc"
[ $rc = 0 ] || fail "auto.sh exit $rc"
xmllint --noout /tmp/auto/auto.svg || fail "auto.svg does not parse"
[ "$(grep -c '<polyline' /tmp/auto/auto.svg)" -ge 18 ] || fail "auto.svg: want 3 panels x 6 policies"
jq -e '.hostile.auto.iops > 0 and .hostile.oracle.iops > 0' /tmp/auto/auto.json > /dev/null || fail "auto.json"
# 6D says each of auto's bars met or missed (five of them)
[ "$(grep '^  against the bar: ' /tmp/auto.log | grep -oE ': (met|missed)\)' | wc -l)" = 5 ] ||
	fail "6D: the line 'against the bar' with its five verdicts is missing"
ok "auto.sh: 8 checks, auto.svg and auto.json"
