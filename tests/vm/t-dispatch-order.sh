# Wait-queue order as the lower device sees it.  blktrace on the dm device
# (Q: arrival at lunq) and on the lower device (D: issue) is the observer.
#  1. qdepth:1, a burst of 16 random reads: with sched:fifo the lower
#     device gets them in arrival order; with sched:disksort in disksort
#     order (ascending from the first IO's LBA, then wrapping), computed
#     here from the observed arrival order.
#  2. qdepth:1 sched:disksort, random writes mixed with FUA writes: no IO
#     is issued across a FUA write (everything that arrived before it is
#     issued before it, everything after after it), while plain writes
#     between FUA writes are reordered.
# group: throttle bubble
# time: 20
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 128 irqmode=2 completion_nsec=50000000 hw_queue_depth=64) ||
	fail "null_blk setup"
echo none > /sys/block/lq_nb/queue/scheduler 2>/dev/null
lunq_create lq $nb qdepth:1 || fail "create"
dmdev=/dev/$(basename "$(dm_sysfs lq)")

trace() { trace_qd "$dmdev" "$nb" "$@"; }

burst() {
	fio --name=burst --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=16 --number_ios=16 --size=64M \
		--randrepeat=0 > /tmp/fio.burst 2>&1 || { cat /tmp/fio.burst; fail "fio"; }
}

# disksort order of the arrivals in FILE: the first is sent at once (and
# sets the cursor), the rest wait and go in the two-run sweep
disksort_of() {
	awk '{ s[NR] = $2 } END {
		print s[1]; cur = s[1]; left = NR - 1; used[1] = 1
		while (left--) {
			best = 0; low = 0
			for (i = 2; i <= NR; i++) {
				if (used[i]) continue
				if (s[i] >= cur && (!best || s[i] < s[best])) best = i
				if (!low || s[i] < s[low]) low = i
			}
			if (!best) best = low
			used[best] = 1; cur = s[best]; print s[best]
		}
	}' "$1"
}

for sched in fifo disksort; do
	expect dmsetup message lq 0 set "sched:$sched"
	trace burst
	[ "$(wc -l < /tmp/q.txt)" = 16 ] && [ "$(wc -l < /tmp/d.txt)" = 16 ] ||
		fail "$sched: expected 16 arrivals and 16 issues, got $(wc -l < /tmp/q.txt) and $(wc -l < /tmp/d.txt)"
	awk '{ print $2 }' /tmp/d.txt > /tmp/got
	if [ $sched = fifo ]; then
		awk '{ print $2 }' /tmp/q.txt > /tmp/want
	else
		disksort_of /tmp/q.txt > /tmp/want
	fi
	diag "$sched: arrival  $(awk '{ print $2 }' /tmp/q.txt | tr '\n' ' ')"
	diag "$sched: issued   $(tr '\n' ' ' < /tmp/got)"
	cmp -s /tmp/got /tmp/want ||
		fail "$sched: lower device order differs from expected: $(tr '\n' ' ' < /tmp/want)"
	if [ $sched = disksort ]; then
		awk '{ print $2 }' /tmp/q.txt | cmp -s - /tmp/got &&
			fail "disksort issued in arrival order: the burst was not sorted"
	fi
	ok "$sched: 16 queued reads issued to the lower device in $sched order"
done

# --- FUA writes are barriers ---
echo 0 > "$CFG/lq_nb/power"
rmdir "$CFG/lq_nb" 2>/dev/null
dm_remove lq
nb=$(nullb_create lq_nb 128 irqmode=2 completion_nsec=3000000 cache_size=16 hw_queue_depth=64) ||
	fail "null_blk with a write cache"
echo none > /sys/block/lq_nb/queue/scheduler 2>/dev/null
lunq_create lq $nb qdepth:1 sched:disksort || fail "create"
dmdev=/dev/$(basename "$(dm_sysfs lq)")
# One task submits every write (tests/tools/fuamix: Linux AIO, pinned to
# one CPU), so blktrace's Q order is the order in which lunq received the
# bios.  (With two fio jobs a task can be rescheduled between the Q event
# and lunq's map, at dm's GFP_NOIO clone allocation, and the other's bio
# passes it: the observer, not lunq, would be wrong.)
mixed() {
	fuamix /dev/mapper/lq 3 16 > /tmp/fuamix.out 2>&1 ||
		{ cat /tmp/fuamix.out; fail "fuamix"; }
	diag "fuamix: $(cat /tmp/fuamix.out)"
}
trace mixed
nf=$(grep -c 'F' /tmp/d.txt)
diag "$(wc -l < /tmp/q.txt) writes arrived, $(wc -l < /tmp/d.txt) issued, $nf with FUA"
[ "$nf" -ge 5 ] || fail "too few FUA writes issued ($nf)"
awk 'NR == FNR { arr[$2] = FNR; rw[$2] = $1; next }
	{ disp[$2] = FNR; n++ }
	END {
		for (f in disp) {
			if (rw[f] !~ /F/) continue
			for (x in disp) {
				if (x == f) continue
				if ((arr[x] < arr[f]) != (disp[x] < disp[f])) {
					print "IO at " x " crossed FUA write at " f; bad++
				}
			}
		}
		for (x in disp) for (y in disp)
			if (arr[x] < arr[y] && disp[x] > disp[y] && rw[x] !~ /F/ && rw[y] !~ /F/) inv++
		print "inversions " inv + 0
		exit bad > 0
	}' /tmp/q.txt /tmp/d.txt > /tmp/check || { head /tmp/check; fail "an IO was reordered across a FUA write"; }
inv=$(sed -n 's/^inversions //p' /tmp/check)
[ "$inv" -gt 0 ] || fail "no plain write was reordered: disksort did not act"
ok "no IO crossed any of $nf FUA writes; $inv pairs of plain writes reordered between them"
