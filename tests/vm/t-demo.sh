# make demo's demonstrations 1-5 and 10 at reduced duration
# (tests/demo/demo.sh --quick --check), asserting their results:
#   bubbles    disksort's max IO time >= 10x fifo's; with max_wait_ms:M
#              no IO waits longer than M + one service time (+5 ms);
#              every far read sent on schedule, lunq's reads = lunqbench's;
#              starved reads (over 1 s): lunq's count <= lunqbench's <=
#              lunq's over 1 s - 35 ms (nesting)
#   per-LUN    the strong LUN does >= 2x its global-throttle IOPS under
#              per-LUN throttles (lunqctl apply), 0 QUEUE FULL on the weak
#   sweep      the SVG parses (xmllint), the table names its knee
#   alignment  aligned offsets >= 3x the IOPS of every misaligned one
#   scsi_debug the throttled run has 0 IO errors (fio, midlayer ioerr_cnt)
#   dd         buffered dd: max_inflight = the throttle, max_waiting >= 8;
#              O_DIRECT: max_inflight 1, max_waiting 0, writes = dd's
#              blocks; --preset bs: 1 MiB >= 10x the MB/s of 512 B
# and the result files: every JSON parses (jq), the CSVs have their rows.
# group: demo timing
# time: 45
. "$LUNQ_SRC/tests/vm/lib.sh"

d=/tmp/demo
sh "$LUNQ_SRC/tests/demo/demo.sh" --quick --check --no-auto --no-realism -o $d > /tmp/demo.log 2>&1
rc=$?
demo_output /tmp/demo.log
demo_checks /tmp/demo.log 18 "demo.sh exit $rc"
[ $rc = 0 ] || fail "demo.sh exit $rc"

for j in $d/*.json; do
	jq -e . "$j" > /dev/null || fail "$j does not parse as JSON"
done
for j in $d/*.events.jsonl; do
	[ -s "$j" ] || continue
	jq -e -s . "$j" > /dev/null || fail "$j: not JSON lines"
done
[ "$(jq '.bubble.disksort.total_max_ns' $d/demo.json)" -ge 1000000000 ] ||
	fail "demo.json: disksort max under 1 s"
# rows: bubble 3, perlun 6, sweep 4 points, align 9 offsets, scsi 2
for f in bubble:3 perlun:6 sweep:4 align:9 scsi:2; do
	n=$(($(wc -l < $d/${f%:*}.csv) - 1))
	[ "$n" = "${f#*:}" ] || fail "${f%:*}.csv has $n rows, want ${f#*:}"
done
for f in report.txt sweep.svg global.conf perlun.conf bubble-disksort.hist.txt align.hist.txt; do
	[ -s $d/$f ] || fail "no $f"
done
grep -q '^=== 5\. ' $d/report.txt || fail "report.txt lacks demonstration 5"
ok "result files: JSON parses, CSV rows, report, SVG, policy files"
