# Zoned lower devices.  A host-aware device (scsi_debug zbc=aware) is
# accepted and every write to it is an ordering barrier: with qdepth:1
# sched:disksort the lower device (blktrace D) gets the writes in exactly
# the order they reached lunq (blktrace Q on the dm device), while reads
# between them are still sorted.  A host-managed device (null_blk zoned=1)
# is refused by device-mapper (lunq does not declare DM_TARGET_ZONED_HM).
# group: basic
. "$LUNQ_SRC/tests/vm/lib.sh"

sd=$(sdebug_create dev_size_mb=64 zbc=aware zone_size_mb=4) || skip "no scsi_debug"
[ "$(cat "/sys/block/$(basename "$sd")/queue/zoned")" = host-aware ] ||
	skip "scsi_debug did not make a host-aware disk"
dm_create lq "0 $(sectors "$sd") lunq $sd 0 2 qdepth:1 sched:disksort" || fail "create on host-aware"
dmdev=/dev/$(basename "$(dm_sysfs lq)")
ok "host-aware zoned device accepted (dm device zoned=$(cat "$(dm_sysfs lq)/queue/zoned"))"

# All writes come from one fio job, one task: their blktrace Q order is
# the order lunq receives them (across tasks it need not be, see
# t-dispatch-order.sh; only the writes' order is compared here, one CPU
# keeps the timestamps comparable).  Random writes stay in the first half
# of zone 0:
# scsi_debug's host-aware emulation WARNs when a zone that became full is
# written again, which random writes reaching a zone's end would do.
zload() {
	fio --direct=1 --cpus_allowed=1 --ioengine=libaio --filename=/dev/mapper/lq \
		--bs=4k --time_based --runtime=3 --randrepeat=0 \
		--name=w --rw=randwrite --iodepth=8 --offset=0 --size=2M \
		--name=r --rw=randread --iodepth=8 --offset=32M --size=32M \
		> /tmp/fio.z 2>&1 || { cat /tmp/fio.z; fail "fio"; }
}
trace_qd "$dmdev" "$sd" zload
grep '^W' /tmp/q.txt | awk '{ print $2 }' > /tmp/qw
grep '^W' /tmp/d.txt | awk '{ print $2 }' > /tmp/dw
nw=$(wc -l < /tmp/qw)
note "$(wc -l < /tmp/q.txt) IOs arrived ($nw writes), $(wc -l < /tmp/d.txt) issued"
[ "$nw" -ge 50 ] || fail "too few writes ($nw)"
cmp -s /tmp/qw /tmp/dw || fail "writes to the zoned device were issued out of arrival order"
ok "$nw writes issued to the zoned device in arrival order"
grep '^R' /tmp/q.txt | awk '{ print $2 }' > /tmp/qr
grep '^R' /tmp/d.txt | awk '{ print $2 }' > /tmp/dr
cmp -s /tmp/qr /tmp/dr && fail "reads were not sorted either: disksort did not act"
ok "reads between the writes were still sorted"

cleanup_all
nb=$(nullb_create lq_nb 64 zoned=1 zone_size=4) || skip "no zoned null_blk"
mark=$(dmesg_mark)
dm_create lq "0 $(sectors "$nb") lunq $nb 0" 2>/dev/null && fail "host-managed device accepted"
dm_exists lq && fail "device left behind"
dmesg_since "$mark" | grep -q "zoned model is not consistent" || fail "no zoned-model error in the kernel log"
ok "host-managed zoned device refused by device-mapper"
