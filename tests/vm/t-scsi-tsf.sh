# Cross-check against a real QUEUE FULL source: Linux's own SCSI midlayer on
# a scsi_debug LUN (queue_depth 4) that injects TASK SET FULL (opts RARE_TSF
# 0x800, every_nth 20: one in 20 commands arriving while 3 are in flight).
#  1. lunq qdepth:2 in front of it (below queue_depth - 1): the injection
#     never triggers; fio write+verify clean; the midlayer's own counters
#     (iorequest_cnt, iodone_cnt, ioerr_cnt in /sys/block/sdX/device) show
#     every request done (fewer than lunq's bios when the disk's scheduler
#     merges); no I/O error, queue_depth unchanged.
#  2. qdepth:16 (above the LUN's depth): TASK SET FULL reaches the midlayer;
#     whatever it makes of it (requeue, depth tracking, I/O errors), lunq
#     passes it through, loses nothing and does not hang.  Both views are
#     printed side by side (kmod/dm-lunq.rst, "Against the SCSI midlayer").
# group: qfull integrity
# time: 10
. "$LUNQ_SRC/tests/vm/lib.sh"

sd=$(sdebug_create max_queue=4 every_nth=20 opts=0x800 delay=1 dev_size_mb=64) ||
	skip "scsi_debug not available"
dev=/sys/block/${sd#/dev/}/device
qd0=$(cat "$dev/queue_depth")
cnt() { printf '%d' "$(cat "$dev/$1")"; }
snap() { r0=$(cnt iorequest_cnt) d0=$(cnt iodone_cnt) e0=$(cnt ioerr_cnt); }
side() {
	diag "$1"
	diag "  midlayer: iorequest_cnt +$(($(cnt iorequest_cnt) - r0)) iodone_cnt +$(($(cnt iodone_cnt) - d0)) ioerr_cnt +$(($(cnt ioerr_cnt) - e0)) queue_depth $qd0 -> $(cat "$dev/queue_depth")"
	diag "  lunq:     dispatched $(status_field lq dispatched) completed $(status_field lq completed) max_inflight $(status_field lq max_inflight) qfull $(status_field lq qfull)"
}
diag "scsi_debug LUN $sd: queue_depth $qd0"

lunq_create lq $sd qdepth:2 || fail "create"
snap
fio_verify ts /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=4m ||
	fail "fio verify through lunq qdepth:2"
side "qdepth:2 (below the injection point):"
[ "$(($(cnt ioerr_cnt) - e0))" = 0 ] || fail "midlayer counted I/O errors"
[ "$(cat "$dev/queue_depth")" = "$qd0" ] || fail "midlayer changed queue_depth"
[ "$(status_field lq max_inflight)" -le 2 ] || fail "more than 2 outstanding"
[ "$(status_field lq completed)" = 2048 ] || fail "completed $(status_field lq completed), fio issued 2048"
# the disk's scheduler may merge adjacent bios: the midlayer can see fewer
[ "$(($(cnt iodone_cnt) - d0))" = "$(($(cnt iorequest_cnt) - r0))" ] ||
	fail "midlayer: requests and completions differ"
counters_consistent lq || fail "counters inconsistent"
ok "throttle below the LUN's depth: no TASK SET FULL, verify clean"

expect dmsetup message lq 0 set qdepth:16
expect dmsetup message lq 0 stats reset
snap
fio --name=tsf --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randread --bs=4k --iodepth=32 --time_based --runtime=5 \
	--output-format=terse --terse-version=3 > /tmp/fio.tsf 2>&1
diag "fio at qdepth:16: exit $? $(grep -m1 -o 'err=[^:]*: [^\r]*' /tmp/fio.tsf)"
side "qdepth:16 (above the LUN's depth):"
counters_consistent lq || fail "counters inconsistent after TASK SET FULL"
[ "$(status_field lq completed)" -gt 0 ] || fail "nothing completed"
ok "throttle above the LUN's depth: TASK SET FULL handled below lunq, nothing lost or stuck"
dm_remove lq
