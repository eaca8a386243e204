# The write cache (wce:1, cache_mb) in front of an hdd whose every IO
# takes 4 ms (svc_us:4000, no seek, no rotation), on null_blk; measured
# with fio's own latencies and run times (the model's bounds are exact:
# no write reaches the media in under 4 ms, one after the other):
#  - write-through (wce:0): every 4 KiB write QD1 takes >= 4 ms (fio's
#    median latency, submission to completion);
#  - wce:1: the same writes complete at cache speed, median < 2 ms;
#  - with a model the device advertises a volatile write cache and FUA
#    (queue/write_cache, queue/fua), so flushes reach the model;
#  - fsync after every write (fio --fsync=1): each write + flush waits
#    for the media, so fio's run takes >= 4 ms per fsync (49 of them for
#    50 writes: number_ios counts the writes, and none follows the last;
#    the exact clock showed it, 196 ms for 49 cycles);
#  - a full cache (cache_mb:1 = 256 writes of 4 KiB): 1000 writes at
#    QD8 take >= (1000 - 257) x 4 ms, the rest waits for destage;
#  - FUA writes (fio --sync=1: O_DSYNC, FUA on this queue) >= 4 ms each;
#  - nothing lost: fio verify with the cache on, wce and cache_mb changed
#    live and a suspend/resume in the middle; the sectors lunq wrote
#    equal null_blk's (block-layer stat); the device removed with its
#    cache full and created again: fio's verify-only pass is clean;
#  - bad input: wce:2, cache_mb:0 and wce:1 without a model are refused
#    (table and message) and change nothing.
# group: model timing integrity
# time: 47
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_wc 256 hw_queue_depth=256) || fail "null_blk setup"
nbd=${nb#/dev/}
sz=$(sectors "$nb")
HDD="model:hdd svc_us:4000 seek_ms:0 rpm:0"

# fj NAME [FIO ARGS]: 4 KiB random writes on /dev/mapper/lq, JSON in /tmp/NAME.json
fj() {
	_n=$1
	shift
	fio_json "/tmp/$_n.json" /dev/mapper/lq --rw=randwrite --bs=4k --size=64m \
		--lat_percentiles=1 "$@"
}
# the median of fio's total latency (submission to completion), us
med_us() { jq '.jobs[0].write.lat_ns.percentile["50.000000"] / 1000 | floor' "/tmp/$1.json"; }
run_ms() { jq '.jobs[0].job_runtime' "/tmp/$1.json"; }
ge() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a >= b) }'; }

lunq_create lq $nb $HDD qdepth:32 || fail "create"
q=$(dm_sysfs lq)/queue
[ "$(cat "$q/write_cache")" = "write back" ] && [ "$(cat "$q/fua")" = 1 ] ||
	fail "with a model: write_cache '$(cat "$q/write_cache")', fua $(cat "$q/fua"); want write back, 1"
ok "with a model the device advertises a volatile write cache and FUA"
fj wt --iodepth=1 --number_ios=100
m0=$(med_us wt)
diag "wce:0: 100 writes QD1, median completion $m0 us"
ge "$m0" 4000 || fail "write-through: median $m0 us < the media's 4000 us"
ok "wce:0: every write at media speed (median $m0 us >= 4000)"

expect dmsetup message lq 0 set wce:1 cache_mb:16
fj wc --iodepth=1 --number_ios=300
m1=$(med_us wc)
diag "wce:1 cache_mb:16: 300 writes QD1, median completion $m1 us"
ge 2000 "$m1" || fail "write cache: median $m1 us, want < 2000 (cache speed)"
ok "wce:1: writes at cache speed (median $m1 us < 2000, media 4000)"

fj fs --iodepth=1 --number_ios=50 --fsync=1
t=$(run_ms fs)
nf=$(jq '.jobs[0].sync.total_ios' /tmp/fs.json)
diag "wce:1, fsync after each of 50 writes: $t ms, $nf fsyncs (>= $((nf * 4)): each waits for the media)"
[ "$nf" -ge 49 ] || fail "fsync: fio issued $nf fsyncs for 50 writes, want 49 or 50"
ge "$t" $((nf * 4)) || fail "fsync: $nf writes + flushes in $t ms < $nf x 4 ms"
ok "fsync: write + flush costs the media time ($t ms for $nf)"

fj fua --iodepth=1 --number_ios=50 --sync=1
m2=$(med_us fua)
diag "wce:1, O_DSYNC writes: median $m2 us"
ge "$m2" 4000 || fail "FUA writes: median $m2 us < 4000"
ok "O_DSYNC (FUA) writes go to the media: median $m2 us"

# a full cache: 1 MiB holds 256 writes of 4 KiB; the rest at media speed
expect dmsetup message lq 0 set cache_mb:1
sleep 1
fj full --iodepth=8 --number_ios=1000
t=$(run_ms full)
diag "cache_mb:1, 1000 writes QD8: $t ms (>= 2972: all but 257 wait for a destage)"
ge "$t" 2972 || fail "full cache: $t ms < (1000 - 257) x 4 ms"
ok "full cache: writes wait for destage ($t ms for 1000)"

# nothing lost or reordered: verify with live changes and a suspend;
# sectors written: the dm disk's and null_blk's block-layer accounting
expect dmsetup message lq 0 set cache_mb:16
dmw() { awk '{ print $7 }' "$(dm_sysfs lq)/stat"; }
nbw() { awk '{ print $7 }' "/sys/block/$nbd/stat"; }
d0=$(dmw) n0=$(nbw)
( for i in 1 2 3 4 5 6; do
	sleep 0.5
	case $((i % 3)) in
	0) dmsetup message lq 0 set wce:0 ;;
	1) dmsetup message lq 0 set wce:1 cache_mb:2 ;;
	2) dmsetup suspend lq && dmsetup resume lq ;;
	esac
done ) &
ch=$!
fio_verify wv /dev/mapper/lq --rw=randwrite --bs=4k --size=16m --iodepth=16 ||
	fail "fio verify with the write cache"
wait $ch
d1=$(dmw) n1=$(nbw)
diag "verify: $((d1 - d0)) sectors written to lunq, $((n1 - n0)) to null_blk (block-layer stat)"
[ $((d1 - d0)) = $((n1 - n0)) ] && [ $((d1 - d0)) -ge 32768 ] ||
	fail "sectors written: lunq $((d1 - d0)), null_blk $((n1 - n0))"
ok "fio verify clean with wce/cache_mb changed live and a suspend; every sector reached null_blk once"

# remove with the cache full of writes not yet destaged: the data is on
# the lower device all the same (the cache models time only)
expect dmsetup message lq 0 set wce:1 cache_mb:64
fio --name=rm --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --size=4m --iodepth=16 --verify=crc32c \
	--do_verify=0 --verify_state_save=0 > /tmp/rm.out 2>&1 || { cat /tmp/rm.out; fail "fio write (remove)"; }
dm_remove lq || fail "remove with writes in the cache"
lunq_create lq $nb $HDD qdepth:32 wce:1 || fail "create again"
fio --name=rm --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --size=4m --iodepth=16 --verify=crc32c \
	--verify_only --verify_fatal=1 --verify_state_load=0 > /tmp/rmv.out 2>&1 ||
	{ cat /tmp/rmv.out; fail "after a remove with the cache full: verify failed"; }
ok "removed with its cache full of writes not yet destaged, created again: fio verify-only clean"

expect dmsetup message lq 0 set wce:1
refused_msg lq "set wce:2" "wce: value must be an integer 0..1"
refused_msg lq "set cache_mb:0" "cache_mb: value must be an integer 1..65536"
refused_msg lq "set model:none" "wce: the write cache models time in front of a model"
dm_remove lq
mark=$(dmesg_mark)
if lunq_table $nb wce:1 | dmsetup create --noudevsync lqbad 2> /dev/null; then
	fail "the table accepted wce:1 without a model"
fi
expect_log "$mark" "wce: the write cache models time in front of a model" "table wce:1"
ok "table: wce:1 without a model refused"
