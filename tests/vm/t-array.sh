# model:array: 8 hdd spindles (2 ms per command, no seek) striped by
# 64 KiB, over null_blk; fio's own IOPS and verify:
#  - random 4 KiB reads: QD 8 >= 3 x QD 1 (the spindles work in
#    parallel; random IOs sometimes meet on one spindle, so not 8x);
#  - the same with spindles:1: QD 8 at most 1 / 2 ms = 500 IOPS (+2%):
#    one spindle serves one command at a time (exact bound of the model);
#  - integrity: fio write+verify with the write cache on, spindles and
#    stripe_kb changed live: verify clean, the lower device's sectors
#    written equal lunq's;
#  - bad values refused (spindles:0, stripe_kb:2).
# group: model timing integrity
# time: 25
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_arr 256 hw_queue_depth=256) || fail "null_blk setup"
nbd=${nb#/dev/}
sz=$(sectors "$nb")
iops() {
	fio_json /tmp/arr.json /dev/mapper/lq --rw=randread --bs=4k \
		--iodepth="$1" --time_based --runtime=3
	jq '.jobs[0].read.iops | floor' /tmp/arr.json
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

dm_create lq "0 $sz lunq $nb 0 5 model:array spindles:8 stripe_kb:64 svc_us:2000 qdepth:0" || fail "create"
q1=$(iops 1) q8=$(iops 8)
note "array of 8 spindles: QD 1 $q1 IOPS, QD 8 $q8 IOPS"
ge "$q8" "$((3 * q1))" || fail "QD 8 gives $q8 IOPS < 3 x QD 1's $q1"
expect dmsetup message lq 0 set spindles:1
s1=$(iops 1) s8=$(iops 8)
note "spindles:1: QD 1 $s1 IOPS, QD 8 $s8 IOPS"
[ "$s8" -le 510 ] || fail "one spindle: QD 8 $s8 IOPS > 500 (+2%), its 2 ms per command"
[ "$q8" -gt 510 ] || fail "8 spindles: QD 8 $q8 IOPS, not above one spindle's 500"
ok "spindles in parallel: QD 8 $q8 IOPS with 8 spindles (QD 1 $q1), $s8 with 1"

expect dmsetup message lq 0 set spindles:8 wce:1 cache_mb:4
w0=$(awk '{ print $7 }' "/sys/block/$nbd/stat") d0=$(awk '{ print $7 }' "$(dm_sysfs lq)/stat")
( sleep 0.5; dmsetup message lq 0 set spindles:4 stripe_kb:16; sleep 0.5
  dmsetup message lq 0 set spindles:16 stripe_kb:256 wce:0 ) &
ch=$!
fio_verify av /dev/mapper/lq --rw=randwrite --bs=16k --iodepth=16 --size=8m ||
	fail "fio verify on the array"
wait $ch
w1=$(awk '{ print $7 }' "/sys/block/$nbd/stat") d1=$(awk '{ print $7 }' "$(dm_sysfs lq)/stat")
[ $((w1 - w0)) = $((d1 - d0)) ] && [ $((d1 - d0)) -ge 16384 ] ||
	fail "sectors written: lunq $((d1 - d0)), null_blk $((w1 - w0))"
ok "verify clean on the array with the cache and live spindles/stripe changes; $((d1 - d0)) sectors written below"
refused_msg lq "set spindles:0" "spindles: value must be an integer 1..64"
refused_msg lq "set stripe_kb:2" "stripe_kb: value must be an integer 4..1048576"
dm_remove lq
