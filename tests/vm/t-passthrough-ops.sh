# Flush, FUA, discard and write-zeroes reach the lower device, and the
# lower device's limits show through (independent observers: the lower
# device's /sys/block/*/stat counters, blktrace on the lower device, data
# read from the lower device).
# group: basic integrity
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 128 blocksize=4096 discard=1 cache_size=16) ||
	fail "null_blk setup"
lunq_create lq $nb || fail "create"
dmq=$(dm_sysfs lq)/queue
nbq=/sys/block/lq_nb/queue
for attr in logical_block_size physical_block_size discard_granularity \
	write_cache fua; do
	a=$(cat "$dmq/$attr") b=$(cat "$nbq/$attr")
	[ "$a" = "$b" ] || fail "limit $attr: lunq '$a', lower '$b'"
done
[ "$(cat "$dmq/discard_max_bytes")" -gt 0 ] || fail "lunq does not advertise discard"
ok "limits match the lower device (block sizes, discard, write cache, fua)"

# flush: fsync on the lunq device sends a flush to the lower device
f0=$(disk_stat "$nb" 16)
dd if=/dev/urandom of=/dev/mapper/lq bs=4k count=4 conv=fsync 2>/dev/null || fail "write"
f1=$(disk_stat "$nb" 16)
[ "$f1" -gt "$f0" ] || fail "no flush reached the lower device ($f0 -> $f1)"
ok "flush passed through ($f0 -> $f1 flushes at the lower device)"

# FUA: O_DSYNC direct writes carry REQ_FUA; blktrace on the lower device
# sees write requests with F after W in RWBS.
blktrace -d "$nb" -a issue -o - > /tmp/bt.bin 2>/tmp/bt.err &
bt=$!
sleep 2
fio --name=fua --filename=/dev/mapper/lq --direct=1 --sync=dsync --rw=write \
	--bs=4k --size=64k --ioengine=psync > /dev/null 2>&1 || fail "fio dsync"
sleep 2
kill -INT $bt
wait $bt
blkparse -i - -f '%a %d\n' < /tmp/bt.bin > /tmp/bt.txt 2>/dev/null
grep -q '^D WF' /tmp/bt.txt || { cat /tmp/bt.err; head /tmp/bt.txt; fail "no FUA write issued to the lower device"; }
ok "FUA passed through ($(grep -c '^D WF' /tmp/bt.txt) FUA writes issued at the lower device)"

# discard: the lower device frees the range (reads back zeros) and counts it
dd if=/dev/urandom of=/dev/mapper/lq bs=1M count=4 seek=8 conv=fsync 2>/dev/null || fail "write"
d0=$(disk_stat "$nb" 12)
expect /usr/sbin/blkdiscard -o $((8 << 20)) -l $((4 << 20)) /dev/mapper/lq
d1=$(disk_stat "$nb" 12)
[ "$d1" -gt "$d0" ] || fail "no discard reached the lower device"
dd if="$nb" of=/tmp/dz bs=1M skip=8 count=4 iflag=direct 2>/dev/null
dd if=/dev/zero of=/tmp/z bs=1M count=4 2>/dev/null
cmp /tmp/dz /tmp/z || fail "discarded range not zero on the lower device"
ok "discard passed through ($d0 -> $d1 discards at the lower device)"
dm_remove lq

# write-zeroes: scsi_debug implements WRITE SAME, so the lower device gets
# a REQ_OP_WRITE_ZEROES request (RWBS "N" in blktrace), not zero pages.
sd=$(sdebug_create dev_size_mb=32 lbpws=1) || fail "no scsi_debug disk"
[ "$(cat "/sys/block/$(basename "$sd")/queue/write_zeroes_max_bytes")" -gt 0 ] ||
	skip "scsi_debug disk without write-zeroes support"
lunq_create lq $sd || fail "create on $sd"
[ "$(cat "$(dm_sysfs lq)/queue/write_zeroes_max_bytes")" -gt 0 ] ||
	fail "lunq does not advertise write-zeroes"
dd if=/dev/urandom of=/dev/mapper/lq bs=1M count=2 conv=fsync 2>/dev/null || fail "write"
# The kernel's block_rq_issue tracepoint prints the request op as the
# kernel sees it: "N" is REQ_OP_WRITE_ZEROES (blkparse would show "WS").
tr=/sys/kernel/debug/tracing
echo > $tr/trace
echo "dev == $(($(stat -c '%t' "$sd" | sed 's/^/0x/') << 20 | $(stat -c '%T' "$sd" | sed 's/^/0x/')))" \
	> $tr/events/block/block_rq_issue/filter
echo 1 > $tr/events/block/block_rq_issue/enable
echo 1 > $tr/tracing_on
expect /usr/sbin/blkdiscard -z -o 0 -l $((2 << 20)) /dev/mapper/lq
echo 0 > $tr/events/block/block_rq_issue/enable
grep 'block_rq_issue' $tr/trace > /tmp/rq.txt
grep -q 'block_rq_issue: [0-9]*,[0-9]* N[A-Z]* ' /tmp/rq.txt ||
	{ head /tmp/rq.txt; fail "no write-zeroes request at the lower device"; }
dd if="$sd" of=/tmp/wz bs=1M count=2 iflag=direct 2>/dev/null
dd if=/dev/zero of=/tmp/z bs=1M count=2 2>/dev/null
cmp /tmp/wz /tmp/z || fail "zeroed range not zero on the lower device"
ok "write-zeroes passed through ($(grep -c ' N[A-Z]* ' /tmp/rq.txt) write-zeroes requests at the lower device)"
