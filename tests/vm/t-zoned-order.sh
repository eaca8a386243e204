# Zoned writes keep their order through every path that refuses, retries
# or holds a command (dm-lunq.rst, "Zoned lower devices").  A host-managed
# null_blk (16 zones of 4 MiB, completions after 20 us) under lunq; each
# accepted table gets sequential zoned writes (fio zonemode=zbd, 64 KiB,
# QD32) with verify, and the lower device is the observer:
#  - its write pointers: every zone written is full, none past it;
#  - its sectors written (/sys/block/.../stat): exactly fio's bytes, once;
#  - its kernel log: no I/O error (a write past the pointer fails there);
#  - fio: exit 0, err=0, every block read back intact;
#  - lunq's own counters say the path ran (QUEUE FULLs answered, auto
#    windows, suspends) and balance.
# Paths: the slow QUEUE FULL (qfull_lat_us), instant QUEUE FULL under every
# reaction, a pool shared by two devices with other initiators, the write
# cache with lun_order:sptf, auto moving the depth, suspend, noflush
# suspend and reload with writes waiting, zone management commands among
# the writes, and blktests zbd/005's shape (QD128 over every zone) through
# a throttled, refusing lunq.  Refused: reset_after (a reset aborts
# commands the host sends again, behind later writes), with its message.
# group: basic qfull integrity
# time: 45
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_zo 64 zoned=1 zone_size=4 zone_nr_conv=0 irqmode=2 completion_nsec=20000) ||
	fail "no zoned null_blk"
[ "$(cat /sys/block/lq_zo/queue/zoned)" = host-managed ] || fail "null_blk is not host-managed"
S=$(sectors "$nb") Z=8192

# zones DEV: "START WP COND" per zone, in sectors (blkzone report)
zones() {
	blkzone report "$1" | sed -n 's/.*start: 0x\([0-9a-f]*\), len 0x[0-9a-f]*, cap 0x[0-9a-f]*, wptr 0x\([0-9a-f]*\).*cond:[ ]*\([0-9]*\).*/\1 \2 \3/p; s/.*start: 0x\([0-9a-f]*\), len 0x[0-9a-f]*, wptr 0x\([0-9a-f]*\).*cond:[ ]*\([0-9]*\).*/\1 \2 \3/p' |
		while read -r st wp c; do echo "$((0x$st)) $((0x$wp)) $c"; done
}

# zwrite NAME DEV OFFSET_ZONE NR_ZONES [FIO OPTIONS...]: fio's sequential
# zoned writes with verify, one job per zone (all at once: 6.12's dm lets
# one write per zone in flight, so that one job alone would keep a single
# command in flight and a LUN of 2 would never refuse); fails on any error
zwrite() {
	_n=$1 _d=$2 _o=$3 _c=$4
	shift 4
	fio --name="$_n" --filename="$_d" --direct=1 --ioengine=libaio --zonemode=zbd \
		--rw=write --bs=64k --iodepth=32 --offset=$((_o * 4))M --size=4M \
		--numjobs="$_c" --offset_increment=4M \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 "$@" \
		> "/tmp/fio.$_n" 2>&1 || { cat "/tmp/fio.$_n"; fail "$_n: fio zbd write+verify"; }
	_e=$(grep -c "err= 0" "/tmp/fio.$_n")
	[ "$_e" = "$_c" ] || { cat "/tmp/fio.$_n"; fail "$_n: $_e of $_c fio jobs without errors"; }
}

# lower_full FIRST COUNT: zones FIRST.. of the lower device are full (write
# pointer at the zone's end: blkzone prints it relative to the start)
lower_full() {
	zones "$nb" | awk -v f="$1" -v c="$2" -v z=$Z \
		'NR > f && NR <= f + c { if ($2 != z) { print "zone " NR - 1 ": wp " $2 " cond " $3; bad = 1 } } END { exit bad }' ||
		fail "lower zones $1..$(($1 + $2 - 1)) not all full"
}

# begin: a clean lower device, its counters and a log mark
begin() {
	blkzone reset "$nb" || fail "reset the lower zones"
	W0=$(disk_stat "$nb" 7)
	mark=$(dmesg_mark zo)
}

# observe NAME FIRST COUNT: the lower device's view after writes of zones
# FIRST..FIRST+COUNT-1 (and nothing else since begin)
observe() {
	lower_full "$2" "$3"
	_w=$(($(disk_stat "$nb" 7) - W0))
	[ "$_w" = $(($3 * Z)) ] || fail "$1: the lower device wrote $_w sectors, fio $(($3 * Z))"
	if dmesg_since "$mark" | grep -i "error" | grep -q "lq_zo\|nullb"; then
		dmesg_since "$mark" | tail -20
		fail "$1: the lower device logged errors"
	fi
}

# run NAME POLICY [WANT [FIO OPTIONS...]]: write+verify 4 zones through
# POLICY; WANT (a status field) must be above 0 afterwards (qfull by default)
run() {
	_n=$1 _p=$2 _f=${3:-qfull}
	shift 2
	[ $# -gt 0 ] && shift
	begin
	lunq_create lq $nb $_p || fail "create $_n: $_p"
	zwrite "$_n" /dev/mapper/lq 0 4 "$@"
	observe "$_n" 0 4
	_v=$(status_field lq "$_f")
	[ "$_v" -gt 0 ] || fail "$_n: $_f=$_v, the path did not run ($_p)"
	counters_consistent lq || fail "$_n: counters inconsistent"
	ok "$_n ($_p): 4 zones written in order, verify clean, lower full, $_f=$_v"
	dm_remove lq
}

# ---- the slow QUEUE FULL: the answer is 2 ms away
run slow "qdepth:8 lun_depth:2 qfull_lat_us:2000"
run slow-sorted "qdepth:16 lun_depth:3 qfull_lat_us:1000 sched:disksort max_wait_ms:5 reaction:sd restore_ms:20"

# ---- instant QUEUE FULL under every reaction
# (sd restores its throttle after restore_ms, sd-fc step by step: short
# periods here so that the LUN refuses again and again).  An instant
# refusal holds nothing up, so the LUN refuses only while more than
# lun_depth commands overlap: zwrite's one fio job per zone, 4 at once,
# into a LUN of one slot
for r in none linux "sd restore_ms:20" "sd-fc restore_ms:20 step_ms:20 min_throttle:1"; do
	run "instant-${r%% *}" "qdepth:8 lun_depth:1 reaction:$r qfull_delay_us:500"
done

# ---- write cache and SPTF delay completions only; here with slow answers
run wce-sptf "qdepth:16 lun_depth:4 model:hdd seek_ms:1 rpm:15000 svc_us:200 wce:1 lun_order:sptf qfull_lat_us:1000"

# ---- auto moves the depth while zoned writes are refused slowly
begin
lunq_create lq $nb qdepth:16 auto:knee auto_min:4 lun_depth:2 qfull_lat_us:1000 model:flash svc_us:300 ||
	fail "create auto"
zwrite auto /dev/mapper/lq 0 4
observe auto 0 4
q=$(status_field lq qfull) tc=$(status_field lq throttle_changes)
[ "$q" -gt 0 ] && [ "$tc" -gt 0 ] || fail "auto: qfull=$q throttle_changes=$tc, want both above 0"
ok "auto:knee (at least 4) over a LUN of 2: qfull=$q, $tc throttle changes, 4 zones in order"
dm_remove lq

# ---- a pool shared by two devices (two halves of the lower device), other
# initiators holding slots half the time
begin
H=$((S / 2))
lunq_create lqa -l $H $nb qdepth:8 pool:zp pool_depth:4 foreign:2 foreign_period_ms:200 qfull_lat_us:1000 ||
	fail "create pool device a"
lunq_create lqb -s $H -l $H $nb pool:zp qdepth:8 || fail "create pool device b"
zwrite pool-b /dev/mapper/lqb 0 4 &
pb=$!
zwrite pool-a /dev/mapper/lqa 0 4
wait $pb || fail "pool-b: fio"
lower_full 0 4
lower_full 8 4
_w=$(($(disk_stat "$nb" 7) - W0))
[ "$_w" = $((8 * Z)) ] || fail "pool: the lower device wrote $_w sectors, fio $((8 * Z))"
qa=$(status_field lqa qfull) qb=$(status_field lqb qfull)
[ $((qa + qb)) -gt 0 ] || fail "pool: no QUEUE FULL on either device"
ok "pool of 4 with 2 foreign half the time: both devices' zones in order (qfull $qa and $qb)"
dm_remove lqa
dm_remove lqb

# ---- suspend, noflush suspend and reload while writes wait in lunq:
# 8 fio jobs, one zone each from its start (zonemode=zbd wants a zone at
# least), submit 8 writes at once and no more (64 in
# all) into qdepth:2 before a 5 ms LUN of one slot that refuses slowly;
# the suspend comes when at least 6 wait (6.12's dm lets one write per
# zone in at a time, 6.1's all).
# A writer that goes on submitting across the resume is not part of this:
# on 6.1, dm core replays the bios it deferred during the suspend from a
# worker that new bios can pass (dm-linear shows it too, see dm-lunq.rst).
P="lun_depth:1 model:fixed svc_us:5000 qfull_lat_us:2000"
for kind in flush noflush reload; do
	begin
	lunq_create lq $nb qdepth:2 $P || fail "create $kind"
	jobs=
	for i in 0 1 2 3 4 5 6 7; do
		jobs="$jobs --name=j$i --offset=$((i * 4))M"
	done
	# shellcheck disable=SC2086
	fio --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
		--rw=write --bs=64k --size=512k --iodepth=8 --iodepth_batch_submit=8 \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 \
		$jobs > "/tmp/fio.$kind" 2>&1 &
	pf=$!
	t=0
	while [ "$(status_field lq waiting)" -lt 6 ]; do
		t=$((t + 1))
		[ $t -lt 400 ] || { dmsetup status lq; wait $pf; cat "/tmp/fio.$kind"; fail "$kind: fewer than 6 writes ever waited"; }
		sleep 0.01
	done
	wt=$(status_field lq waiting)
	case $kind in
	flush) dmsetup suspend lq ;;
	noflush) dmsetup suspend --noflush lq ;;
	reload) lunq_table $nb qdepth:3 $P | dmsetup reload lq ;;
	esac || fail "$kind: suspend"
	dmsetup resume lq || fail "$kind: resume"
	wait $pf || { cat "/tmp/fio.$kind"; fail "$kind: fio"; }
	grep -q "err= 0" "/tmp/fio.$kind" || { cat "/tmp/fio.$kind"; fail "$kind: fio saw errors"; }
	zones "$nb" | awk 'NR <= 8 { if ($2 != 1024) bad = 1 } END { exit bad }' ||
		{ zones "$nb"; fail "$kind: the lower zones 0-7 do not hold 512 KiB each"; }
	_w=$(($(disk_stat "$nb" 7) - W0))
	[ "$_w" = 8192 ] || fail "$kind: the lower device wrote $_w sectors, fio 8192"
	counters_consistent lq || fail "$kind: counters inconsistent"
	ok "$kind suspend with $wt writes waiting in lunq: 8 zones in order, verify clean"
	dm_remove lq
done

# ---- zone management among refused writes: resets and finishes of other
# zones go through the same queue while fio writes
begin
lunq_create lq $nb qdepth:4 lun_depth:2 qfull_lat_us:2000 || fail "create mgmt"
zwrite mgmt /dev/mapper/lq 0 4 &
pf=$!
m=0
while kill -0 $pf 2>/dev/null || [ $m -lt 4 ]; do
	blkzone finish -o $((12 * Z)) -c 2 /dev/mapper/lq || fail "zone finish"
	blkzone reset -o $((12 * Z)) -c 2 /dev/mapper/lq || fail "zone reset"
	m=$((m + 1))
done
wait $pf || fail "mgmt: fio"
observe mgmt 0 4
zones "$nb" | awk 'NR == 13 || NR == 14 { if ($2 != 0 || $3 != 1) bad = 1 } END { exit bad }' ||
	{ zones "$nb"; fail "zones 12, 13 not empty after the last reset"; }
ok "$m zone finish+reset pairs among the writes: writes in order, lower zones 12-13 empty"
dm_remove lq

# ---- blktests zbd/005's shape: QD128, every zone, 4 KiB, through a
# throttled, refusing lunq
begin
lunq_create lq $nb qdepth:16 lun_depth:4 qfull_lat_us:500 reaction:linux sched:disksort ||
	fail "create zbd005"
zbs=4k	# blktests' size; 16 KiB in quick mode (a quarter of the writes)
[ "${LUNQ_QUICK:-0}" = 1 ] && zbs=16k
fio --name=zbd005 --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --zonemode=zbd \
	--rw=write --bs=$zbs --iodepth=128 --offset=0 --size=64M > /tmp/fio.005 2>&1 ||
	{ cat /tmp/fio.005; fail "zbd005: fio"; }
grep -q "err= 0" /tmp/fio.005 || { cat /tmp/fio.005; fail "zbd005: fio saw errors"; }
observe zbd005 0 16
q=$(status_field lq qfull)
[ "$q" -gt 0 ] || fail "zbd005: no QUEUE FULL"
ok "zbd/005 shape (QD128, 16 zones, $zbs): every zone full, $q QUEUE FULLs, no error"
dm_remove lq

# ---- REQ_NOWAIT: a zoned write that would wait waits, no EAGAIN (its
# caller would send it again later, behind the writes that followed it):
# io_uring at QD32 (its first try is REQ_NOWAIT, an EAGAIN goes to a
# worker), then RWF_NOWAIT writes while a reader holds the only slot
begin
lunq_create lq $nb qdepth:4 lun_depth:2 qfull_lat_us:1000 || fail "create uring"
zwrite uring /dev/mapper/lq 0 4 --ioengine=io_uring
observe uring 0 4
ok "io_uring QD32 zoned writes through qdepth:4 and a refusing LUN: in order, verify clean"
dm_remove lq
begin
lunq_create lq $nb qdepth:1 || fail "create nowait"
zwrite nwfill /dev/mapper/lq 8 4
fio --name=rd --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randread \
	--bs=4k --iodepth=4 --offset=32M --size=16M --time_based --runtime=60 > /tmp/fio.rd 2>&1 &
pr=$!
sleep 0.5
# (no read-back: a RWF_NOWAIT read behind the reader gets EAGAIN, rightly)
zwrite nowait /dev/mapper/lq 0 2 --ioengine=pvsync2 --nowait=1 --iodepth=1 --do_verify=0
kill $pr 2>/dev/null
wait $pr
lower_full 0 2
lower_full 8 4
_w=$(($(disk_stat "$nb" 7) - W0))
[ "$_w" = $((6 * Z)) ] || fail "nowait: the lower device wrote $_w sectors, fio $((6 * Z))"
mw=$(status_field lq max_waiting)
[ "$mw" -gt 0 ] || fail "nowait: nothing ever waited (max_waiting=$mw): the reader did not hold the slot"
ok "RWF_NOWAIT zoned writes behind a busy qdepth:1 (max_waiting=$mw since the load): none failed with EAGAIN"
dm_remove lq

# ---- refused: a LUN reset aborts commands that the host sends again,
# behind later writes; on the table line and by message
mark=$(dmesg_mark)
if lunq_table $nb lun_depth:2 reset_after:4 | dmsetup create --noudevsync lqbad 2>/dev/null; then
	dm_remove lqbad
	fail "reset_after accepted on a zoned device"
fi
expect_log "$mark" "reset_after: not on a zoned device" "table with reset_after"
ok "table with reset_after refused on a zoned device, naming zones"
lunq_create lq $nb lun_depth:2 || fail "create for the message"
refused_msg lq "set reset_after:4" "reset_after: not on a zoned device"
cleanup_all
