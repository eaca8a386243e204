#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# zoned-suspend.sh: a zoned writer across suspend and resume of the
# device-mapper device it writes to -- the reproducer of dm core's
# reordering (kmod/dm-lunq.rst, "Zoned lower devices").
#
# A host-managed null_blk (memory backed, 16 zones of 4 MiB, completions
# after 100 us) under one dm table (dm-linear, or lunq with the given
# optional arguments).  fio writes 8 zones sequentially (zonemode=zbd,
# 64 KiB, QD32) with verify, over and over; while it writes, a loop
# suspends and resumes the device every PERIOD: a flush suspend, a
# noflush suspend, then a reload (lunq: qdepth changed), suspended flush
# and noflush in turn.  dm core defers the bios that arrive while the
# device is suspended and replays them from a worker after the resume,
# while new bios go straight to the target: a zoned device refuses a
# write that is not at its write pointer, and the writer sees EIO.
#
# Each fio run ends as one of: ok (exit 0, every block verified, the
# lower device's 8 zones full and exactly 32 MiB written to it), eio (an
# I/O error, in fio's output or the lower device's log), stopped (fio
# failed otherwise, e.g. a zone report that dm core answered EAGAIN), bad
# (fio passed but the lower device disagrees).  The last line:
#   zoned-suspend: target=T cycles=N runs=R ok=O eio=E stopped=S bad=B seconds=D
# Exit 0 when eio and bad are 0, 1 otherwise, 2 on a setup failure.
#
# usage: zoned-suspend.sh [-c CYCLES] [-p PERIOD_S] [-n NAME] linear|lunq [LUNQ_ARGS...]
#   e.g. zoned-suspend.sh -c 200 linear
#        zoned-suspend.sh -c 200 lunq qdepth:8 lun_depth:2 qfull_lat_us:2000
# Needs root, null_blk (configfs), dmsetup, blkzone, fio; lunq: dm-lunq.ko
# loaded.  Removes what it made.
set -u
cycles=200 period=0.2 name=zs
while getopts c:p:n: o; do
	case $o in
	c) cycles=$OPTARG ;;
	p) period=$OPTARG ;;
	n) name=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
target=${1:-linear}
[ $# -gt 0 ] && shift
largs="$*"
nb=${name}_nb dm=${name}_dm CFG=/sys/kernel/config/nullb
out=/tmp/zoned-suspend.$$.fio

die() { echo "zoned-suspend: $*" >&2; cleanup; exit 2; }
cleanup() {
	dmsetup --noudevsync remove --retry "$dm" 2>/dev/null
	if [ -d "$CFG/$nb" ]; then
		echo 0 > "$CFG/$nb/power" 2>/dev/null
		rmdir "$CFG/$nb" 2>/dev/null
	fi
	rm -f "$out"
}
modprobe null_blk nr_devices=0 2>/dev/null
mkdir "$CFG/$nb" || die "no null_blk configfs"
for kv in size=64 memory_backed=1 zoned=1 zone_size=4 zone_nr_conv=0 \
	irqmode=2 completion_nsec=100000 hw_queue_depth=64 power=1; do
	echo "${kv#*=}" > "$CFG/$nb/${kv%%=*}" || die "null_blk: $kv"
done
[ -b "/dev/$nb" ] || die "no /dev/$nb"
S=$(blockdev --getsz "/dev/$nb")

# table K: the K-th table line (lunq: qdepth alternates 8, 4, 16)
table() {
	if [ "$target" = linear ]; then
		echo "0 $S linear /dev/$nb 0"
		return
	fi
	_q=$(echo "8 4 16" | cut -d' ' -f$(($1 % 3 + 1)))
	_a=$(echo "$largs" | sed "s/qdepth:[0-9]*//")
	_a="qdepth:$_q $_a"
	echo "0 $S lunq /dev/$nb 0 $(echo $_a | wc -w) $_a"
}
table 0 | dmsetup --noudevsync create "$dm" || die "create $dm ($(table 0))"
dmsetup mknodes "$dm" 2>/dev/null
dev=/dev/mapper/$dm
written() { awk '{ print $7 }' "/sys/block/$nb/stat"; }
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

n=0 runs=0 ok=0 eio=0 stopped=0 bad=0 reload=1 t0=$(now_ms)
while [ $n -lt "$cycles" ]; do
	blkzone reset -o 0 -c 8 "$dev" || die "zone reset"
	w0=$(written)
	mark="zoned-suspend-$$-$runs"
	echo "$mark" > /dev/kmsg
	fio --name=zs --filename="$dev" --direct=1 --ioengine=libaio \
		--zonemode=zbd --rw=write --bs=64k --iodepth=32 --size=32M \
		--verify=crc32c --do_verify=1 --verify_fatal=1 --verify_dump=0 \
		> "$out" 2>&1 &
	pf=$!
	# fio has read the zones and writes: from here on it reports none
	i=0
	while [ "$(written)" = "$w0" ] && kill -0 $pf 2>/dev/null && [ $i -lt 1000 ]; do
		sleep 0.01
		i=$((i + 1))
	done
	while kill -0 $pf 2>/dev/null && [ $n -lt "$cycles" ]; do
		sleep "$period"
		case $((n % 3)) in
		0) dmsetup --noudevsync suspend "$dm" && dmsetup --noudevsync resume "$dm" ;;
		1) dmsetup --noudevsync suspend --noflush "$dm" && dmsetup --noudevsync resume "$dm" ;;
		2) table $reload | dmsetup --noudevsync load "$dm" &&
			if [ $((reload % 2)) = 0 ]; then
				dmsetup --noudevsync suspend --noflush "$dm"
			else
				dmsetup --noudevsync suspend "$dm"
			fi && dmsetup --noudevsync resume "$dm"
		   reload=$((reload + 1)) ;;
		esac || die "suspend/resume cycle $n failed"
		n=$((n + 1))
	done
	wait $pf
	rc=$?
	runs=$((runs + 1))
	lowerr=$(dmesg | sed -n "/$mark/,\$p" | grep -c "I/O error.*dev $nb")
	if grep -q "Input/output error" "$out" || [ "$lowerr" -gt 0 ]; then
		eio=$((eio + 1))
		echo "# run $runs: EIO (lower device logged $lowerr)"
		grep -m2 "error" "$out" | sed 's/^/#   /'
	elif [ $rc != 0 ] || ! grep -q "err= 0" "$out"; then
		stopped=$((stopped + 1))
		echo "# run $runs: fio stopped (rc $rc): $(grep -m1 -i "error\|fio:" "$out")"
	else
		full=$(blkzone report -o 0 -c 8 "/dev/$nb" | grep -c "cond: *[0-9]*(fu)")
		ww=$(($(written) - w0))
		if [ "$full" = 8 ] && [ "$ww" = 65536 ]; then
			ok=$((ok + 1))
		else
			bad=$((bad + 1))
			echo "# run $runs: fio passed, but the lower device has $full full zones of 8, $ww sectors written of 65536"
		fi
	fi
done
secs=$((($(now_ms) - t0) / 1000))
cleanup
echo "zoned-suspend: target=$target${largs:+ ($largs)} cycles=$n runs=$runs ok=$ok eio=$eio stopped=$stopped bad=$bad seconds=$secs"
[ $eio = 0 ] && [ $bad = 0 ]
