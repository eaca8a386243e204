# lun_depth:4 qdepth:16 reaction:none under a QD32 write+verify load on
# null_blk with 2 ms completions: the emulated LUN answers QUEUE FULL
# (counted), the host retries every refused command (nothing lost, fio's
# verify is clean), and the lower device never holds more than 4 commands
# (blktrace issue/complete on it: independent of lunq's own counters).
# Then qdepth:4 <= lun_depth:4: zero QUEUE FULLs.
# group: qfull
# time: 20
. "$LUNQ_SRC/tests/vm/lib.sh"

lq_nullb 2 qdepth:16 lun_depth:4 reaction:none

traced_verify "$nb" - qf /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=24m
issued=$(grep -c '^D ' /tmp/bt.txt)
qfull=$(status_field lq qfull)
diag "lun_depth:4 qdepth:16: qfull=$qfull retried=$(status_field lq retried) lower max in flight $low ($issued issues), host max_inflight $(status_field lq max_inflight)"
[ "$issued" -gt 1000 ] || fail "blktrace saw only $issued issues"
[ "$low" -le 4 ] || fail "lower device held $low commands, lun_depth is 4"
[ "$low" = 4 ] || fail "lower device never reached lun_depth (max $low): LUN slots not used"
[ "$qfull" -gt 0 ] || fail "no QUEUE FULL counted"
[ "$(status_field lq retried)" = "$qfull" ] || fail "retries differ from QUEUE FULLs"
[ "$(status_field lq qdepth)" = 16 ] || fail "reaction:none moved the throttle"
[ -z "$(tlog lq)" ] || fail "reaction:none logged throttle changes: $(tlog lq)"
counters_consistent lq || fail "counters inconsistent"
ok "QUEUE FULL counted ($qfull), lower device <= 4 in flight, verify clean"

# the throttle at or below the LUN's depth: the LUN never refuses
for r in none linux sd sd-fc; do
	expect dmsetup message lq 0 set qdepth:4 reaction:$r
	expect dmsetup message lq 0 stats reset
	fio_verify qf4 /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=4m ||
		fail "fio verify failed (qdepth:4 reaction:$r)"
	[ "$(status_field lq qfull)" = 0 ] ||
		fail "qdepth:4 lun_depth:4 reaction:$r: $(status_field lq qfull) QUEUE FULLs"
done
ok "qdepth:4 <= lun_depth:4: zero QUEUE FULLs with every reaction"
dm_remove lq
