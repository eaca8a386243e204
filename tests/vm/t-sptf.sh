# Drive-side ordering (lun_order:sptf) on an emulated hdd (seek_ms:8
# rpm:7200 svc_us:500) over null_blk, fio's own IOPS and verify:
#  - random reads QD 32, lun_depth:32 qdepth:32: sptf (the drive starts
#    the nearest queued command) >= 1.3 x fifo (arrival order);
#  - host sorting on a drive that reorders: qdepth:2 sched:disksort in
#    front of a fifo drive, and qdepth:32 in front of an sptf drive
#    (seed 004: with a drive that reorders, a throttle of 2 already lets
#    it choose) -- printed;
#  - integrity: fio write+verify with sptf and LUN resets (reset_after:4,
#    lun_depth:16 under qdepth:32: the drive's queue is aborted and sent
#    again), then with lun_order changed live and a suspend/resume:
#    verify clean, blktrace on the lower device sees exactly the bios
#    lunq sent, counters consistent;
#  - bad input refused: sptf without model:hdd (or array) or lun_depth 1..256, an
#    unknown order.
# group: model timing integrity
# time: 45
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_sptf 256 hw_queue_depth=256) || fail "null_blk setup"
sz=$(sectors "$nb")
HDD="model:hdd seek_ms:8 rpm:7200 svc_us:500"
iops() {
	fio_json /tmp/sptf.json /dev/mapper/lq --rw=randread --bs=4k \
		--iodepth="$1" --time_based --runtime=4
	jq '.jobs[0].read.iops | floor' /tmp/sptf.json
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

lunq_create lq $nb $HDD lun_depth:32 qdepth:32 lun_order:fifo || fail "create"
fifo=$(iops 32)
expect dmsetup message lq 0 set lun_order:sptf
sptf=$(iops 32)
r=$(awk -v a="$sptf" -v b="$fifo" 'BEGIN { printf "%.2f", b ? a / b : 0 }')
diag "random reads QD 32, lun_depth:32: fifo $fifo IOPS, sptf $sptf IOPS, ratio $r (want >= 1.3)"
ge "$r" 1.3 || fail "sptf/fifo = $r < 1.3"
ok "the drive's own ordering: sptf gives $r x fifo"
expect dmsetup message lq 0 set lun_order:fifo qdepth:2 sched:disksort
hs=$(iops 32)
expect dmsetup message lq 0 set lun_order:sptf qdepth:2 sched:fifo
s2=$(iops 32)
diag "host disksort qdepth:2 on a fifo drive: $hs IOPS; qdepth:2 fifo on an sptf drive: $s2; qdepth:32 on sptf: $sptf"
ok "host sorting versus the drive's: printed"
dm_remove lq

# integrity: resets abort the drive's queue; live order changes; suspend
P="$HDD lun_depth:16 qdepth:32 lun_order:sptf reset_after:4 reset_ms:20 qfull_delay_us:1000"
lunq_create lq $nb $P || fail "create resets"
bt_start "$nb" /tmp/bt queue
fio_verify sr /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=2m ||
	fail "fio verify with sptf and resets"
( sleep 1; dmsetup message lq 0 set lun_order:fifo; sleep 1
  dmsetup suspend lq; dmsetup resume lq; sleep 0.5
  dmsetup message lq 0 set lun_order:sptf ) &
ch=$!
fio_verify sl /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=4m ||
	fail "fio verify with live lun_order changes"
wait $ch
bt_stop
issued=$(grep -c '^Q ' /tmp/bt.txt)
disp=$(status_field lq dispatched) resets=$(status_field lq resets)
diag "resets=$resets aborted=$(status_field lq aborted) dispatched=$disp bios at the lower device=$issued"
[ "$resets" -gt 0 ] || fail "no LUN reset: the drive's queue was never aborted"
[ "$issued" = "$disp" ] || fail "lower device saw $issued bios, lunq sent $disp"
counters_consistent lq || fail "counters inconsistent"
ok "sptf with $resets LUN resets, lun_order changed live and a suspend: verify clean, every bio accounted"

refused_msg lq "set lun_order:elevator" "lun_order: value must be one of fifo, sptf"
refused_msg lq "set model:flash" "lun_order: sptf orders an hdd's command queue"
refused_msg lq "set lun_depth:0" "lun_order: sptf needs lun_depth:1..256"
refused_msg lq "set lun_depth:257" "lun_order: sptf needs lun_depth:1..256"
dm_remove lq
