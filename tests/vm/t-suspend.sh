# Suspend (flush and --noflush), resume, reload and (deferred) remove while
# IOs wait in lunq's queue, under fio write+verify: nothing lost (fio
# verify clean, every dispatched IO completed), no splat (suite check).
# Observers: fio verify; the lower device's inflight while suspended and
# its completed-IO count across the suspend (a flush suspend drains the
# waiters through the throttle, a noflush suspend hands them back to dm,
# so the lower device sees at most about qdepth IOs during it).
# group: integrity
# time: 10
. "$LUNQ_SRC/tests/vm/lib.sh"

lq_nullb 20 qdepth:2 sched:disksort
sz=$(sectors "$nb")

fio --name=susp --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=32 --size=4M --verify_backlog=256 --verify=crc32c \
	--do_verify=1 --verify_fatal=1 --verify_dump=0 \
	--output-format=terse --terse-version=3 > /tmp/fio.susp 2>&1 &
fio=$!

# waiters: wait until IOs wait in the queue, print how many
waiters() {
	for _i in $(seq 50); do
		_w=$(status_field lq waiting)
		[ "$_w" -gt 0 ] && { echo "$_w"; return 0; }
		sleep 0.1
	done
	fail "no IO waiting in lunq under QD32 load: $(dmsetup status lq)"
}
# quiet WHAT: while suspended nothing is queued or outstanding
quiet() {
	dmsetup info lq | grep -q SUSPENDED || fail "$1: not suspended"
	[ "$(status_field lq waiting)" = 0 ] && [ "$(status_field lq inflight)" = 0 ] ||
		fail "$1: IO held while suspended: $(dmsetup status lq)"
	read -r _r _w < /sys/block/lq_nb/inflight
	[ $((_r + _w)) = 0 ] || fail "$1: lower device busy while suspended"
	sleep 0.3
	[ "$(status_field lq dispatched)" = "$(status_field lq completed)" ] ||
		fail "$1: dispatched != completed while suspended"
}
alive() { kill -0 $fio 2>/dev/null || fail "fio ended before '$1'; make the load longer"; }

lower_ios() { echo $(($(disk_stat "$nb" 1) + $(disk_stat "$nb" 5))); }

sleep 1
w=$(waiters); alive "flush suspend"
n0=$(lower_ios)
expect dmsetup suspend lq
n1=$(lower_ios)
quiet "flush suspend"
expect dmsetup resume --noudevsync lq
[ $((n1 - n0)) -ge "$w" ] || fail "flush suspend: $w waiting but only $((n1 - n0)) IOs reached the lower device"
ok "flush suspend with $w waiting: drained ($((n1 - n0)) IOs completed below during it), nothing outstanding while suspended"

# qdepth:1 for this step: fewer IOs complete below while dmsetup starts
expect dmsetup message lq 0 set qdepth:1
sleep 0.2
w=$(waiters); alive "noflush suspend"
n0=$(lower_ios)
expect dmsetup suspend --noflush lq
n1=$(lower_ios)
quiet "noflush suspend"
sleep 0.5
expect dmsetup resume --noudevsync lq
[ $((n1 - n0)) -lt $((w / 2)) ] ||
	fail "noflush suspend: $w waiting and $((n1 - n0)) IOs reached the lower device: drained, not pushed back"
ok "noflush suspend with $w waiting: pushed back (only $((n1 - n0)) IOs completed below during it), nothing outstanding while suspended"

w=$(waiters); alive "reload"
d0=$(status_field lq dispatched)
expect dmsetup load lq --table "$(lunq_table $nb qdepth:4 sched:fifo)"
expect dmsetup suspend --noflush lq
quiet "reload (noflush)"
expect dmsetup resume --noudevsync lq
[ "$(status_field lq qdepth)" = 4 ] && [ "$(status_field lq sched)" = fifo ] ||
	fail "new table not live: $(dmsetup status lq)"
sleep 0.5
[ "$(status_field lq dispatched)" -gt 0 ] || fail "new table sends nothing"
ok "reload (noflush) with $w waiting: new table live, IO flows (old table had sent $d0)"

w=$(waiters); alive "reload with flush"
expect dmsetup load lq --table "$(lunq_table $nb qdepth:3 sched:disksort)"
expect dmsetup resume --noudevsync lq
[ "$(status_field lq qdepth)" = 3 ] || fail "new table not live"
ok "reload (flush) with $w waiting"

wait $fio
rc=$?
[ $rc = 0 ] && [ "$(fio_terse /tmp/fio.susp 5)" = 0 ] ||
	{ cat /tmp/fio.susp; fail "fio verify failed (rc $rc)"; }
ok "fio write+verify clean across all of it ($(fio_terse /tmp/fio.susp 47) KiB written, $(fio_terse /tmp/fio.susp 6) KiB read)"
[ "$(status_field lq dispatched)" = "$(status_field lq completed)" ] &&
	[ "$(status_field lq waiting)" = 0 ] || fail "IO left over: $(dmsetup status lq)"

# remove while IOs wait: a deferred remove takes effect at the last close
fio --name=rm --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randread --bs=4k --iodepth=32 --size=200M --time_based --runtime=4 \
	--output-format=terse --terse-version=3 > /tmp/fio.rm 2>&1 &
fio=$!
w=$(waiters); alive "deferred remove"
expect dmsetup remove --noudevsync --deferred lq
dm_exists lq || fail "device removed while open"
wait $fio || { cat /tmp/fio.rm; fail "fio failed during deferred remove"; }
[ "$(fio_terse /tmp/fio.rm 5)" = 0 ] || { cat /tmp/fio.rm; fail "IO errors during deferred remove"; }
for i in $(seq 20); do dm_exists lq || break; sleep 0.2; done
dm_exists lq && fail "deferred remove did not happen after the last close"
ok "deferred remove with $w waiting completed once fio closed the device"
