# Demonstrations 7 and 8 of make demo at reduced length
# (tests/demo/realism.sh --quick --check), asserting their results:
#   write cache  16 KiB sequential writes one at a time: >= 5x faster
#                with the cache on than written through; write-through
#                and O_DSYNC at the media's pace (<= 16 KiB per 12 ms);
#   throttled    writes' p99 at qdepth 1 >= 8 ms (they wait behind a
#   by reads     read's seek) while at qdepth 32 their p50 is under 2 ms;
#                at qdepth 32 writes at cache speed (p50 5x under the
#                reads');
#   slow QFULL   answers 20 ms late: >= 5 x (immediate's resets + 1) LUN
#                resets, more commands sent twice (the lower device's own
#                counter);
#                the throttle at the LUN's depth: no QUEUE FULL, no
#                reset, at least the raw host's IOPS;
#   who sorts    the drive's sptf at qdepth 32 >= 1.3x arrival order;
#                disksort gains <= 1.10x on an 8-spindle array as arrays
#                are built (members sorting, read cache, CSCAN destage)
#                and >= 1.3x on one disk serving in arrival order;
# and realism.json parses.
# group: demo timing
# time: 45
# set: full
. "$LUNQ_SRC/tests/vm/lib.sh"

d=/tmp/realism
sh "$LUNQ_SRC/tests/demo/realism.sh" --quick --check -o $d > /tmp/realism.log 2>&1
rc=$?
demo_output /tmp/realism.log
demo_checks /tmp/realism.log 9 "realism.sh exit $rc"
[ $rc = 0 ] || fail "realism.sh exit $rc"
jq -e '.slowqf.slow.resets > 0 and .wcache.on_mbps > 0' $d/realism.json > /dev/null || fail "realism.json"
for f in wcache:3 wthrottle:3 slowqf:4 sorting:6; do
	n=$(($(wc -l < $d/${f%:*}.csv) - 1))
	[ "$n" = "${f#*:}" ] || fail "${f%:*}.csv has $n rows, want ${f#*:}"
done
ok "realism.sh: 9 checks, realism.json and its CSVs"
