# The lock-free pass-through path (kmod/lunq_core.h, lc->fast): with
# qdepth:0 and nothing emulated an IO takes no device lock, and every
# statistic stays exact.
#  1. fio randread QD32 on null_blk (2 ms completions), at rest after:
#     - lunq's reads = null_blk's completed reads (diskstats) = fio's;
#     - every IO went lock-free: /sys/kernel/lunq/NAME/fast_path counts
#       them (= the reads), and says the path is open;
#     - rlentime_ns = the service_read histogram's sum, to the nanosecond
#       (one sums per-CPU stamps, the other per IO);
#     - max_inflight >= every sample of null_blk's inflight (less one per
#       CPU: see t-throttle), <= 32;
#       rtime <= snaptime - crtime, rtime * max_inflight >= rlentime;
#     - dispatched = completed, nothing in flight.
#     With the module parameter fast_path=0 the same run takes the lock
#     (fast_path "0 0") and counts the same way.
#  2. Leaving the path under load: null_blk with 400 ms completions,
#     lunqbench --verify open loop at 70 writes/s, one every 14 ms (so ~28
#     in flight, sent and completing spread out), then `set qdepth:4`: the IOs sent lock-free are still in
#     flight, and nothing new may reach the device until the last of them
#     completed (host.held).  blktrace on null_blk (independent): the
#     concurrency, above 4 before, falls to 0, and from there IOs are sent
#     again, never more than 4 at once.  Verify clean.
#  3. Throttled, uncontended (a slot is one atomic): lunq qdepth:8 on
#     null_blk (10 ms: slow enough that fio keeps QD32 even on the
#     debug kernel).  fio QD8: every read lock-free, none waited, at most
#     8 at null_blk (blktrace).  fio QD32: the slots run out, the path
#     closes and the rest wait under the lock; blktrace: never more than 8
#     at null_blk, and exactly 8 at once reached; reads = null_blk's = fio's;
#     the lock-free reads + the reads that waited in lunq's queue = all.
# group: basic stats throttle
# time: 40
. "$LUNQ_SRC/tests/vm/lib.sh"

P=/sys/module/dm_lunq/parameters/fast_path
[ -f $P ] || fail "no module parameter fast_path"

# run1 LABEL: part 1 on a fresh device; prints nothing, fails or notes
run1() {
	nb=$(nullb_create lq_fp 256 irqmode=2 completion_nsec=2000000 hw_queue_depth=256) ||
		fail "null_blk setup"
	lunq_create lq $nb qdepth:0 || fail "create"
	sleep 1			# udev's probe reads
	expect dmsetup message lq 0 stats reset
	read -r fo0 fn0 < /sys/kernel/lunq/lq/fast_path
	r0=$(disk_stat "$nb" 1)
	inflight_watch "$nb" /tmp/fp.watch &
	wpid=$!
	fio --name=fp --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=32 --time_based --runtime=$(scaled 8 3) \
		--output-format=terse --terse-version=3 > /tmp/fp.fio 2>&1 ||
		{ cat /tmp/fp.fio; fail "$1: fio"; }
	inflight_stop /tmp/fp.watch $wpid
	read -r lmax nsamp < /tmp/fp.watch
	fio_reads=$(( $(fio_terse /tmp/fp.fio 6) / 4 ))	# KiB read, 4 KiB each
	reads=$(lq_stat lq reads)
	lower=$(( $(disk_stat "$nb" 1) - r0 ))
	[ "$reads" = "$lower" ] && [ "$reads" = "$fio_reads" ] ||
		fail "$1: reads: lunq $reads, null_blk $lower, fio $fio_reads"
	counters_consistent lq || fail "$1: counters"
	read -r fo fn < /sys/kernel/lunq/lq/fast_path
	FAST="$fo0 $fo $((fn - fn0)) $reads"
	mi=$(lq_stat lq max_inflight)
	# a sample may count a finished request blk-mq has not freed yet
	# (t-throttle): up to one per CPU above lunq's own count
	[ $((mi + $(nproc))) -ge "$lmax" ] && [ "$mi" -le 32 ] ||
		fail "$1: max_inflight $mi, null_blk's inflight reached $lmax ($nsamp samples)"
	rlen=$(lq_stat lq rlentime_ns)
	rt=$(lq_stat lq rtime_ns)
	span=$(( $(lq_stat lq snaptime_ns) - $(lq_stat lq crtime_ns) ))
	svc=$(lq_hist lq service_read sum)
	[ "$rt" -le "$span" ] && [ $((rt * mi)) -ge "$rlen" ] && [ "$rlen" -gt 0 ] ||
		fail "$1: rtime $rt, span $span, rlentime $rlen, max_inflight $mi"
	diag "$1: $reads reads (= null_blk = fio), max_inflight $mi (null_blk seen $lmax), rlentime $rlen ns, service_read sum $svc ns, rtime $rt of $span ns"
	RLEN=$rlen SVC=$svc
	dm_remove lq || fail "remove"
	echo 0 > "$CFG/lq_fp/power"
	rmdir "$CFG/lq_fp"
}

run1 lock-free
[ "$RLEN" = "$SVC" ] || fail "lock-free: rlentime $RLEN ns != service_read sum $SVC ns"
set -- $FAST
[ "$1" = 1 ] && [ "$2" = 1 ] && [ "$3" = "$4" ] ||
	fail "lock-free: fast_path open $1/$2 (before/after), $3 IOs sent lock-free of $4 reads"
ok "lock-free: all $3 reads sent lock-free, counted exactly, rlentime = service_read sum = $RLEN ns, max_inflight and rtime nest"

echo 0 > $P
trap 'echo 1 > $P' EXIT		# the tests after this one run lock-free again
run1 locked
echo 1 > $P
[ "$RLEN" = "$SVC" ] || fail "locked: rlentime $RLEN ns != service_read sum $SVC ns"
set -- $FAST
[ "$1" = 0 ] && [ "$2" = 0 ] && [ "$3" = 0 ] ||
	fail "fast_path=0: open $1/$2, $3 IOs sent lock-free"
ok "fast_path=0: every IO under the lock (none lock-free), the same counts and nesting"

# --- 2. leaving the path under load ---
nb=$(nullb_create lq_fp 256 irqmode=2 completion_nsec=400000000 hw_queue_depth=256) ||
	fail "null_blk setup"
lunq_create lq $nb qdepth:0 || fail "create"
bt_start "$nb" /tmp/fp.bt issue complete
lunqbench --verify --seed 3 --range 0-16m --interval 0 --kv --bs 4k --rdpct 0 \
	--iorate 70 --arrival fixed --iodepth 64 --elapsed 5 /dev/mapper/lq > /tmp/fp.lb 2>&1 &
fpid=$!
sleep 2
[ "$(cut -d' ' -f1 /sys/kernel/lunq/lq/fast_path)" = 1 ] || fail "qdepth:0: the path is not open"
expect dmsetup message lq 0 set qdepth:4
# a marker in null_blk's trace: one read, straight to it, outside the
# written range, sent once the switch is done
dd if="$nb" of=/dev/null bs=4k count=1 skip=51200 iflag=direct 2>/dev/null || fail "marker read"
[ "$(cut -d' ' -f1 /sys/kernel/lunq/lq/fast_path)" = 0 ] || fail "qdepth:4: the path is still open"
diag "after the switch: inflight $(lq_stat lq inflight), waiting $(lq_stat lq waiting)"
wait $fpid || { cat /tmp/fp.lb; fail "lunqbench --verify across the switch: exit $?"; }
tail -1 /tmp/fp.lb | grep -q ' errors=0 verify_errors=0 ' || { cat /tmp/fp.lb; fail "errors across the switch"; }
diag "lunqbench: $(tail -1 /tmp/fp.lb | cut -d' ' -f1-6)"
bt_stop
# writes sent after the marker while the lock-free ones were still in
# flight are early; after the writes' concurrency reached 0, at most 4
awk '$1 == "D" && $2 ~ /R/ && $3 == 409600 { mk = 1; next }
	$2 !~ /W/ { next }
	$1 == "D" { c++; n++
		if (!mk) { if (c > m) m = c; next }
		if (!z) early++
		else { after++; if (c > am) am = c } }
	$1 == "C" { c--; if (mk && c == 0 && !z) z = n }
	END { printf "%d %d %d %d %d %d\n", m, z, early, after, am, n }' /tmp/fp.bt.txt > /tmp/fp.conc
read -r m z early after am n < /tmp/fp.conc
diag "null_blk (blktrace): up to $m writes at once before the switch; after it, $early sent before the drain to 0 (at the ${z}th send), then $after, at most $am at once ($n in all)"
[ "$m" -gt 4 ] || fail "the lock-free phase never had more than 4 in flight ($m): no load?"
[ "$z" -gt 0 ] && [ "$early" = 0 ] && [ "$after" -ge 4 ] && [ "$am" -le 4 ] ||
	fail "leaving the lock-free path: $early sent while lock-free IOs were in flight; drained to 0 after ${z:-never}; then $after sent with up to $am at once"
counters_consistent lq || fail "counters after the switch"
ok "qdepth:0 -> 4 under load: the lock-free IOs drained to 0 before any new one was sent, then at most 4 at once; verify clean"
dm_remove lq || fail "remove"
echo 0 > "$CFG/lq_fp/power"
rmdir "$CFG/lq_fp"

# --- 3. throttled, below the throttle: lock-free; above it: locked ---
nb=$(nullb_create lq_fp 256 irqmode=2 completion_nsec=10000000 hw_queue_depth=256) ||
	fail "null_blk setup"
lunq_create lq $nb qdepth:8 || fail "create"
sleep 1
# run3 QD: fio at QD on lq, blktrace on null_blk; sets READS LOWER FIO
# FASTN WAITED MAXC (the most at once at null_blk) and NMAX (sends at it)
run3() {
	expect dmsetup message lq 0 stats reset
	read -r _ f0 < /sys/kernel/lunq/lq/fast_path
	r0=$(disk_stat "$nb" 1)
	bt_start "$nb" /tmp/fp3.bt issue complete
	fio --name=fp --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth="$1" --time_based --runtime=$(scaled 6 3) \
		--output-format=terse --terse-version=3 > /tmp/fp3.fio 2>&1 ||
		{ cat /tmp/fp3.fio; fail "QD$1: fio"; }
	bt_stop
	read -r _ f1 < /sys/kernel/lunq/lq/fast_path
	FASTN=$((f1 - f0))
	FIO=$(( $(fio_terse /tmp/fp3.fio 6) / 4 ))
	READS=$(lq_stat lq reads)
	LOWER=$(( $(disk_stat "$nb" 1) - r0 ))
	# reads that waited in lunq's queue: wait_read's count but row 0
	WAITED=$(awk '$1 == "count" { c = $2 } $1 == "0" { z = $2 }
		END { print c - z }' /sys/kernel/lunq/lq/hist/wait_read)
	awk '$2 !~ /R/ { next } $1 == "D" { c++; if (c > m) m = c; if (c == m) k++ }
		$1 == "C" { c-- } END { print m + 0, k + 0 }' /tmp/fp3.bt.txt > /tmp/fp3.c
	read -r MAXC NMAX < /tmp/fp3.c
	counters_consistent lq || fail "QD$1: counters"
	diag "QD$1 on qdepth:8: $READS reads (null_blk $LOWER, fio $FIO), $FASTN lock-free, $WAITED waited in lunq, null_blk at most $MAXC at once (blktrace), max_inflight $(lq_stat lq max_inflight)"
	[ "$READS" = "$LOWER" ] && [ "$READS" = "$FIO" ] ||
		fail "QD$1: reads: lunq $READS, null_blk $LOWER, fio $FIO"
	[ "$MAXC" -le 8 ] || fail "QD$1: $MAXC reads at once at null_blk with qdepth:8"
}
run3 8
[ "$FASTN" = "$READS" ] && [ "$WAITED" = 0 ] ||
	fail "QD8 on qdepth:8: $FASTN of $READS reads lock-free, $WAITED waited"
[ "$(cut -d' ' -f1 /sys/kernel/lunq/lq/fast_path)" = 1 ] || fail "qdepth:8 at rest: the path is not open"
ok "qdepth:8, QD8: all $READS reads lock-free, none waited, at most $MAXC at null_blk; counts exact"
run3 32
[ "$MAXC" = 8 ] || fail "QD32 on qdepth:8: null_blk never had 8 at once ($MAXC)"
[ "$FASTN" -lt "$READS" ] && [ "$WAITED" -gt 0 ] && [ $((FASTN + WAITED)) -le "$READS" ] ||
	fail "QD32 on qdepth:8: $FASTN lock-free + $WAITED waited of $READS reads"
ok "qdepth:8, QD32: at most 8 at null_blk (8 reached), $FASTN lock-free, $WAITED waited in lunq, counts exact"
