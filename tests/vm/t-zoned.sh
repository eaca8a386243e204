# Zoned lower devices, on every kernel: a host-managed one (null_blk
# zoned=1, both 6.1 and 6.12) and, where scsi_debug still makes one (6.1;
# 6.12 treats host-aware as a regular disk), a host-aware one.
# Host-managed (lunq declares DM_TARGET_ZONED_HM, as dm-linear does):
#  - accepted, the dm device is host-managed with the lower's zone size;
#    its zone report (blkzone) is the lower device's, remapped by the
#    table's offset (one zone in); an offset not on a zone boundary is
#    refused by device-mapper;
#  - fio in zonemode=zbd writes (QD8) and reads through lunq with
#    qdepth:1 sched:disksort: the lower device (blktrace D) gets the writes
#    in exactly their arrival order at lunq (blktrace Q), fio's verify
#    reads them back intact, no IO error; reads between them are sorted;
#  - zone reset and finish through lunq move the lower device's zones
#    (blkzone report of the lower device, the independent observer).
# Host-aware (scsi_debug zbc=aware): the same write-order check.
# group: basic
# time: 25
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

# zones DEV: "START WP COND" per zone (blkzone report, sectors; the
# write pointer relative to the zone's start, as blkzone prints it)
zones() {
	blkzone report "$1" | sed -n 's/.*start: 0x\([0-9a-f]*\), len 0x[0-9a-f]*, cap 0x[0-9a-f]*, wptr 0x\([0-9a-f]*\).*cond:[ ]*\([0-9]*\).*/\1 \2 \3/p; s/.*start: 0x\([0-9a-f]*\), len 0x[0-9a-f]*, wptr 0x\([0-9a-f]*\).*cond:[ ]*\([0-9]*\).*/\1 \2 \3/p' |
		while read -r st wp c; do echo "$((0x$st)) $((0x$wp)) $c"; done
}

# order_check DMDEV LOWER LOAD-FUNCTION: writes issued in arrival order
order_check() {
	trace_qd "$1" "$2" "$3"
	grep '^W' /tmp/q.txt | awk '{ print $2 }' > /tmp/qw
	grep '^W' /tmp/d.txt | awk '{ print $2 }' > /tmp/dw
	nw=$(wc -l < /tmp/qw)
	diag "$(wc -l < /tmp/q.txt) IOs arrived ($nw writes), $(wc -l < /tmp/d.txt) issued"
	[ "$nw" -ge 50 ] || fail "too few writes ($nw)"
	cmp -s /tmp/qw /tmp/dw || fail "writes to the zoned device were issued out of arrival order"
	ok "$4: $nw writes issued to the zoned device in arrival order"
	grep '^R' /tmp/q.txt | awk '{ print $2 }' > /tmp/qr
	grep '^R' /tmp/d.txt | awk '{ print $2 }' > /tmp/dr
	cmp -s /tmp/qr /tmp/dr && fail "$4: reads were not sorted either: disksort did not act"
	ok "$4: reads between the writes were still sorted"
}

# ---- host-managed: null_blk zoned=1, 16 zones of 4 MiB
# completions after 100 us (timer), so IOs wait in lunq behind qdepth:1
nb=$(nullb_create lq_nb 64 zoned=1 zone_size=4 zone_nr_conv=0 irqmode=2 completion_nsec=100000) ||
	fail "no zoned null_blk"
[ "$(cat /sys/block/lq_nb/queue/zoned)" = host-managed ] || fail "null_blk is not host-managed"
S=$(sectors "$nb") Z=8192
lunq_create lq $nb qdepth:1 sched:disksort || fail "host-managed device refused"
sys=$(dm_sysfs lq)
dmdev=/dev/$(basename "$sys")
[ "$(cat "$sys/queue/zoned")" = host-managed ] || fail "dm device zoned=$(cat "$sys/queue/zoned")"
[ "$(cat "$sys/queue/chunk_sectors")" = $Z ] || fail "dm zone size $(cat "$sys/queue/chunk_sectors")"
zones "$nb" > /tmp/zl
zones /dev/mapper/lq > /tmp/zd
[ "$(wc -l < /tmp/zl)" = 16 ] || { cat /tmp/zl; fail "lower device: $(wc -l < /tmp/zl) zones, not 16"; }
cmp -s /tmp/zl /tmp/zd || { diff /tmp/zl /tmp/zd; fail "zone report through lunq differs"; }
ok "host-managed device accepted: host-managed, 16 zones of $Z sectors, same report as the lower device"

# an offset of one zone: the report is the lower's, shifted
lunq_create lqo -s $Z $nb || fail "offset of one zone refused"
zones /dev/mapper/lqo > /tmp/zo
awk -v z=$Z 'NR > 1 { s = $1 - z; print s, $2, $3 }' /tmp/zl > /tmp/zexp
cmp -s /tmp/zexp /tmp/zo || { diff /tmp/zexp /tmp/zo; fail "zone report at offset $Z not remapped"; }
ok "zone report remapped by the offset ($(wc -l < /tmp/zo) zones from lower sector $Z)"
# a write and a zone reset through it (no options: the lock-free path)
# reach the lower device's zone 1, not zone 0
fio --name=o --filename=/dev/mapper/lqo --direct=1 --ioengine=libaio --rw=write \
	--bs=64k --size=1M > /tmp/fio.o 2>&1 || { cat /tmp/fio.o; fail "write at the offset"; }
zones "$nb" | awk 'NR == 1 { if ($2 != 0) bad = 1 } NR == 2 { if ($2 != 2048) bad = 1 } END { exit bad }' ||
	{ zones "$nb"; fail "1 MiB through the offset device did not land in lower zone 1"; }
blkzone reset -o 0 -c 1 /dev/mapper/lqo || fail "zone reset at the offset"
zones "$nb" | awk 'NR == 2 { if ($2 != 0) bad = 1 } END { exit bad }' ||
	{ zones "$nb"; fail "zone reset through the offset device did not reach lower zone 1"; }
ok "write and zone reset through the offset device reach lower zone 1 (fast_path $(cat /sys/kernel/lunq/lqo/fast_path 2>/dev/null))"
dm_remove lqo
if echo "0 $((S - Z)) lunq $nb 8" | dmsetup create --noudevsync lqbad 2>/dev/null; then
	dm_remove lqbad
	fail "an offset inside a zone was accepted"
fi
ok "offset inside a zone refused"

# fio zbd writes (random zones, sequential within a zone) and reads,
# from one task on one CPU so blktrace's Q order is lunq's arrival order;
# the reads' zones are written first (fio reads only below the pointer)
fio --name=fill --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --zonemode=zbd \
	--rw=write --bs=128k --iodepth=4 --offset=32M --size=32M > /tmp/fio.f 2>&1 ||
	{ cat /tmp/fio.f; fail "fio zbd fill of the read zones"; }
hmload() {
	fio --direct=1 --cpus_allowed=1 --ioengine=libaio --filename=/dev/mapper/lq \
		--zonemode=zbd --max_open_zones=4 --bs=4k --randrepeat=0 \
		--name=w --rw=randwrite --iodepth=8 --offset=0 --size=32M --io_size=2M \
		--name=r --rw=randread --iodepth=8 --offset=32M --size=32M --time_based --runtime=3 \
		> /tmp/fio.z 2>&1 || { cat /tmp/fio.z; fail "fio zbd load"; }
}
order_check "$dmdev" "$nb" hmload "host-managed"
grep -q "err= 0" /tmp/fio.z || { cat /tmp/fio.z; fail "fio saw errors"; }

# fio verify: fill two zones sequentially at QD8, read them back
blkzone reset /dev/mapper/lq || fail "reset all zones"
fio --name=zv --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --zonemode=zbd \
	--rw=write --bs=16k --iodepth=8 --offset=$((8 * 4))M --size=8M \
	--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 > /tmp/fio.v 2>&1 ||
	{ cat /tmp/fio.v; fail "fio zbd write+verify"; }
grep -q "err= 0" /tmp/fio.v || { cat /tmp/fio.v; fail "fio verify saw errors"; }
zones "$nb" | awk -v z=$Z 'NR == 9 || NR == 10 { if ($2 != z) bad = 1 } END { exit bad }' ||
	{ zones "$nb"; fail "zones 8 and 9 of the lower device not full after the write"; }
ok "fio zbd write+verify of 2 zones at QD8 through lunq: intact, lower zones full"

# zone management through lunq, seen on the lower device
blkzone reset -o $((8 * Z)) -c 1 /dev/mapper/lq || fail "zone reset"
blkzone finish -o $((10 * Z)) -c 1 /dev/mapper/lq || fail "zone finish"
zones "$nb" | awk -v z=$Z 'NR == 9 { if ($2 != 0) bad = 1 } NR == 11 { if ($3 != 14) bad = 1 } END { exit bad }' ||
	{ zones "$nb"; fail "zone reset/finish through lunq not seen on the lower device"; }
ok "zone reset and finish through lunq reached the lower device"
counters_consistent lq || fail "lunq's books do not balance after the zoned load"
cleanup_all

# ---- host-aware: scsi_debug zbc=aware, where the kernel still has it
sd=$(sdebug_create dev_size_mb=64 zbc=aware zone_size_mb=4) || fail "no scsi_debug"
if [ "$(cat "/sys/block/$(basename "$sd")/queue/zoned")" != host-aware ]; then
	diag "this kernel ($(uname -r)) makes scsi_debug zbc=aware a regular disk: the host-aware part does not apply"
	exit 0
fi
lunq_create lq $sd qdepth:1 sched:disksort || fail "create on host-aware"
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
order_check "$dmdev" "$sd" zload "host-aware"

