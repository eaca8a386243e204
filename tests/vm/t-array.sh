# model:array: 8 hdd spindles (2 ms per command, no seek) striped by
# 64 KiB, over null_blk; fio's own IOPS and verify:
#  - random 4 KiB reads: QD 8 >= 3 x QD 1 (the spindles work in
#    parallel; random IOs sometimes meet on one spindle, so not 8x);
#  - the same with spindles:1: QD 8 at most 1 / 2 ms = 500 IOPS (+2%):
#    one spindle serves one command at a time (exact bound of the model);
#  - integrity: fio write+verify with the write cache on, spindles and
#    stripe_kb changed live: verify clean, the lower device's sectors
#    written equal lunq's;
#  - sorting members: with an 8 ms seek, lun_order:sptf (each spindle's
#    drive orders its queue) at QD 32 >= 1.3 x arrival order (model:
#    about 1.7x with ~4 commands per spindle);
#  - read cache: random 4 KiB reads within 2 MiB with rcache_mb:4 (every
#    64 KiB segment fits) at QD 1 >= 3 x without (hits take 20 us, a
#    miss 10 ms + seek);
#  - integrity: the same write+verify with the spindles sorting their
#    queues, the write cache destaging in LBA order (destage:cscan) with
#    watermarks and the read cache on;
#  - bad values refused (spindles:0, stripe_kb:2, spindle_depth:33,
#    wc_low above wc_high, rcache_mb:129).
# group: model timing integrity
# time: 40
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
# random 4 KiB reads at QD 1 within the first $1 of the device
iops_in() {
	fio_json /tmp/arr.json /dev/mapper/lq --rw=randread --bs=4k --size="$1" \
		--iodepth=1 --time_based --runtime=2
	jq '.jobs[0].read.iops | floor' /tmp/arr.json
}
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

lunq_create lq $nb model:array spindles:8 stripe_kb:64 svc_us:2000 qdepth:0 || fail "create"
q1=$(iops 1) q8=$(iops 8)
diag "array of 8 spindles: QD 1 $q1 IOPS, QD 8 $q8 IOPS"
ge "$q8" "$((3 * q1))" || fail "QD 8 gives $q8 IOPS < 3 x QD 1's $q1"
expect dmsetup message lq 0 set spindles:1
s1=$(iops 1) s8=$(iops 8)
diag "spindles:1: QD 1 $s1 IOPS, QD 8 $s8 IOPS"
[ "$s8" -le 510 ] || fail "one spindle: QD 8 $s8 IOPS > 500 (+2%), its 2 ms per command"
[ "$q8" -gt 510 ] || fail "8 spindles: QD 8 $q8 IOPS, not above one spindle's 500"
ok "spindles in parallel: QD 8 $q8 IOPS with 8 spindles (QD 1 $q1), $s8 with 1"

expect dmsetup message lq 0 set spindles:8 seek_ms:8
f32=$(iops 32)
expect dmsetup message lq 0 set lun_order:sptf lun_depth:64 spindle_depth:32
o32=$(iops 32)
diag "seek 8 ms, QD 32: arrival order $f32 IOPS, members sorting $o32 IOPS"
ge "$((10 * o32))" "$((13 * f32))" || fail "sorting members: $o32 IOPS < 1.3 x arrival order's $f32"
ok "sorting members: QD 32 $o32 IOPS against $f32 in arrival order"
# 10 ms a command: a miss is slow whatever the guest's own speed
expect dmsetup message lq 0 set svc_us:10000
cold=$(iops_in 2m)
expect dmsetup message lq 0 set rcache_mb:4
hot=$(iops_in 2m)
diag "random reads within 2 MiB, QD 1: $cold IOPS without the read cache, $hot with 4 MiB"
ge "$hot" "$((3 * cold))" || fail "read cache: $hot IOPS < 3 x $cold without it"
ok "read cache: $hot IOPS within 2 MiB against $cold without"
expect dmsetup message lq 0 set svc_us:2000 seek_ms:0 lun_order:fifo rcache_mb:0

# live_verify NAME WHAT SET1 SET2: a write+verify pass (fio NAME) while
# SET1 and then SET2 are set on lq; as many sectors written below as
# through lq (d1 - d0), 8 MiB at least
live_verify() {
	w0=$(awk '{ print $7 }' "/sys/block/$nbd/stat") d0=$(awk '{ print $7 }' "$(dm_sysfs lq)/stat")
	( sleep 0.5; dmsetup message lq 0 set $3; sleep 0.5
	  dmsetup message lq 0 set $4 ) &
	ch=$!
	fio_verify "$1" /dev/mapper/lq --rw=randwrite --bs=16k --iodepth=16 --size=8m ||
		fail "fio verify $2"
	wait $ch
	w1=$(awk '{ print $7 }' "/sys/block/$nbd/stat") d1=$(awk '{ print $7 }' "$(dm_sysfs lq)/stat")
	[ $((w1 - w0)) = $((d1 - d0)) ] && [ $((d1 - d0)) -ge 16384 ] ||
		fail "sectors written ($2): lunq $((d1 - d0)), null_blk $((w1 - w0))"
}
expect dmsetup message lq 0 set spindles:8 wce:1 cache_mb:4
live_verify av "on the array" "spindles:4 stripe_kb:16" "spindles:16 stripe_kb:256 wce:0"
ok "verify clean on the array with the cache and live spindles/stripe changes; $((d1 - d0)) sectors written below"
refused_msg lq "set spindles:0" "spindles: value must be an integer 1..64"
refused_msg lq "set stripe_kb:2" "stripe_kb: value must be an integer 4..1048576"
refused_msg lq "set spindle_depth:33" "spindle_depth: value must be an integer 1..32"
refused_msg lq "set wce:1 wc_high:20 wc_low:30" "wc_low: must not exceed wc_high"
refused_msg lq "set rcache_mb:129" "rcache_mb: value must be an integer 0..128"

# the same verify with sorting members, cscan destage and the read cache
expect dmsetup message lq 0 set spindles:8 stripe_kb:64 lun_order:sptf lun_depth:64 spindle_depth:4 wce:1 cache_mb:4 destage:cscan wc_high:50 wc_low:25 rcache_mb:4
live_verify bv "sptf, cscan" "spindles:4 spindle_depth:1" "spindles:16 destage:fifo wc_high:0 wc_low:0"
ok "verify clean with sorting members, cscan destage, watermarks and the read cache, changed live"
dm_remove lq
