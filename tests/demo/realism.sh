# tests/demo/realism.sh [--quick] [--check] [-o DIR] -- demonstrations 7
# and 8 of `make demo` (tests/demo/demo.sh calls it; tests/vm/t-realism.sh
# runs it with --quick --check), inside the VM:
#   7. the write cache (wce, cache_mb) on an emulated disk:
#      A. seed 003's single dd: one 16 KiB sequential O_DIRECT write at a
#         time (lunqbench --engine sync), write cache on, off, and on with
#         O_DSYNC (lunqbench --sync);
#      B. seed 004's "writes throttled by reads": reads and writes at 40/s
#         each (fio, open loop) with the cache on, at qdepth 32, 2 and 1 --
#         fio's own read and write latencies;
#   8. slow QUEUE FULL (qfull_lat_us): a LUN of 8 slots that resets after
#      16 QUEUE FULLs in a row, lunqbench random reads at QD 64: answers at
#      once, 20 ms late, 20 ms late with reaction linux, 20 ms late behind
#      lunq's throttle at the LUN's depth; the lower device's own counters
#      (/sys/block/*/stat) show the commands sent twice after resets;
#   9. who sorts: an hdd serving its queue in arrival order or shortest
#      positioning time first (lun_order:sptf), behind a host throttle of
#      32 or 2, fifo or disksort; and disksort on an array of 8 such
#      spindles as arrays are built: members sorting their own queues,
#      a read cache, a write-back cache destaged in LBA order (CSCAN).
# Results in DIR: realism.json, wcache.csv, wthrottle.csv, slowqf.csv,
# sorting.csv.
# --quick   shorter runs   --check   assert the qualitative results
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/demo/lib.sh"

demo_args realism.sh "$@"
if [ $QUICK = 1 ]; then
	T_DD=3 T_MIX=6 T_QF=4
else
	T_DD=8 T_MIX=20 T_QF=10
fi
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", (b > 0 ? a / b : 0) }'; }
ratio2() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }'; }

############################################################################
echo "=== 7. The write cache"
cat <<EOF
An emulated 10k rpm disk behind lunq (model hdd: 12 ms per command -- the
revolution a write without cache misses between two commands -- 4 ms
average seek, 160 MB/s) with a 32 MiB write cache: wce:1 acknowledges a
write from the cache (20 us + its transfer) and destages it in the disk's
idle time, sequential runs in one command; wce:0 writes through.

A. Seed 003's single dd: 16 KiB sequential O_DIRECT writes, one at a time
   (lunqbench --engine sync), $T_DD s per run.
EOF
nb=$(nullb_create demo_wc 2048 hw_queue_depth=256) || { echo "null_blk failed"; exit 1; }
DISK="model=hdd svc_us=12000 seek_ms=4 rpm=10000 mbps=160 cache_mb=32"
echo "\$ lunqctl create wc0 $nb $DISK wce=1"
lunqctl create wc0 "$nb" $DISK wce=1 > /dev/null || { echo "create failed"; exit 1; }
echo "run,wce,dsync,ios,mbps,resp_p50_ns,resp_p99_ns" > "$OUT/wcache.csv"
dd_run() { # TAG WCE [LUNQBENCH ARGS]
	_t=$1 _w=$2
	shift 2
	lunqctl set wc0 wce=$_w > /dev/null
	sleep 1		# what the last run cached is destaged
	lunqbench --engine sync --rdpct 0 --seekpct 0 --bs 16k --elapsed $T_DD \
		--interval 0 --kv "$@" /dev/mapper/wc0 > /tmp/wc-$_t.kv 2>&1 ||
		echo "lunqbench failed: $(tail -2 /tmp/wc-$_t.kv)"
	eval "W_${_t}_MBPS=$(kv /tmp/wc-$_t.kv mbps) W_${_t}_P50=$(kv /tmp/wc-$_t.kv resp_p50_ns)"
	eval "W_${_t}_P99=$(kv /tmp/wc-$_t.kv resp_p99_ns) W_${_t}_IOS=$(kv /tmp/wc-$_t.kv ios)"
	echo "$_t,$_w,$([ $# -gt 0 ] && echo 1 || echo 0),$(kv /tmp/wc-$_t.kv ios),$(kv /tmp/wc-$_t.kv mbps),$(kv /tmp/wc-$_t.kv resp_p50_ns),$(kv /tmp/wc-$_t.kv resp_p99_ns)" >> "$OUT/wcache.csv"
}
dd_run on 1
dd_run off 0
dd_run dsync 1 --sync
printf '\n  %-28s %10s %12s %12s\n' run MB/s "resp p50" "resp p99"
printf '  %-28s %10s %9s ms %9s ms\n' "write cache on" "$W_on_MBPS" "$(ms "$W_on_P50")" "$(ms "$W_on_P99")"
printf '  %-28s %10s %9s ms %9s ms\n' "write cache off (wce:0)" "$W_off_MBPS" "$(ms "$W_off_P50")" "$(ms "$W_off_P99")"
printf '  %-28s %10s %9s ms %9s ms\n' "on, O_DSYNC (--sync)" "$W_dsync_MBPS" "$(ms "$W_dsync_P50")" "$(ms "$W_dsync_P99")"
cat <<EOF

- With the cache on, a write is done once it is in the cache: $W_on_MBPS MB/s, $(ratio "$W_on_MBPS" "$W_off_MBPS")x
  the write-through rate.  (Seed 003 measured 160 against 1.3 MB/s on a real
  10k rpm disk; here the ceiling is the VM's CPU, not the cache.)
- Without it every write waits for the platter, and one write at a time
  misses a revolution between two: $W_off_MBPS MB/s.
- O_DSYNC puts FUA on every write: the cache may not acknowledge it, so
  the cache buys nothing ($W_dsync_MBPS MB/s) -- what fsync-heavy databases see.
EOF
if [ $CHECK = 1 ]; then
	ge "$W_on_MBPS" "$(awk -v v="$W_off_MBPS" 'BEGIN { print 5 * v }')"
	check $? "write cache: $W_on_MBPS MB/s >= 5 x write-through $W_off_MBPS MB/s"
	# exact: 16 KiB every 12 ms at most without the cache, or with FUA
	ge 1.4 "$W_off_MBPS" && ge 1.4 "$W_dsync_MBPS"
	check $? "write-through and O_DSYNC at the media's pace: $W_off_MBPS and $W_dsync_MBPS MB/s <= 1.4 (16 KiB per 12 ms)"
fi

cat <<EOF

B. Writes throttled by reads (seed 004): random 4 KiB reads and writes,
   25/s each (fio, open loop), $T_MIX s per run, on the same disk with the
   cache on (8 ms seek, 7200 rpm this time).  A read goes to the platter
   (about 13 ms); a write could be done in the cache at once -- if lunq
   lets it through.  The destages share the head with the reads: the disk
   is busy about two thirds of the time.
EOF
lunqctl set wc0 wce=1 cache_mb=64 svc_us=500 seek_ms=8 rpm=7200 > /dev/null
echo "qdepth,read_p50_ns,read_p99_ns,write_p50_ns,write_p99_ns,reads,writes" > "$OUT/wthrottle.csv"
mix_run() { # QDEPTH
	lunqctl set wc0 qdepth=$1 > /dev/null
	sleep 1
	fio --name=mix --filename=/dev/mapper/wc0 --direct=1 --ioengine=libaio \
		--rw=randrw --rwmixread=50 --bs=4k --iodepth=16 --rate_iops=25,25 \
		--time_based --runtime=$T_MIX --lat_percentiles=1 \
		--output-format=json > /tmp/mix-$1.json 2> /tmp/mix-$1.err ||
		echo "fio failed: $(tail -2 /tmp/mix-$1.err)"
	_j=/tmp/mix-$1.json
	_rp50=$(jq '.jobs[0].read.lat_ns.percentile["50.000000"]' $_j)
	_rp99=$(jq '.jobs[0].read.lat_ns.percentile["99.000000"]' $_j)
	_wp50=$(jq '.jobs[0].write.lat_ns.percentile["50.000000"]' $_j)
	_wp99=$(jq '.jobs[0].write.lat_ns.percentile["99.000000"]' $_j)
	eval "M_$1_RP50=$_rp50 M_$1_RP99=$_rp99 M_$1_WP50=$_wp50 M_$1_WP99=$_wp99"
	echo "$1,$_rp50,$_rp99,$_wp50,$_wp99,$(jq '.jobs[0].read.total_ios' $_j),$(jq '.jobs[0].write.total_ios' $_j)" >> "$OUT/wthrottle.csv"
	printf '  qdepth %-5s %12s ms %9s ms %12s ms %9s ms\n' "$1" "$(ms "$_rp50")" "$(ms "$_rp99")" "$(ms "$_wp50")" "$(ms "$_wp99")"
}
printf '\n  %-12s %15s %12s %15s %12s\n' "" "read p50" "read p99" "write p50" "write p99"
mix_run 32
mix_run 2
mix_run 1
cat <<EOF

- At qdepth 32 every write reaches the cache at once: $(ms "$M_32_WP50") ms at the median,
  while reads take the platter's $(ms "$M_32_RP50") ms.
- At qdepth 1 a write waits in lunq behind the read the disk is busy with:
  its p99 is $(ms "$M_1_WP99") ms, $(ratio "$M_1_WP99" "$M_32_WP99")x qdepth 32's -- writes throttled by reads,
  "tending towards the speed of the spinning disk ... even though you may
  have a write cache".  qdepth 2 lets most writes slip past one read
  (write p99 $(ms "$M_2_WP99") ms).
EOF
if [ $CHECK = 1 ]; then
	# behind a read: at least its 8 ms of seek; in the cache: under 2 ms
	ge "$M_1_WP99" 8000000 && ge 2000000 "$M_32_WP50"
	check $? "writes throttled by reads: write p99 at qdepth 1 $(ms "$M_1_WP99") ms >= 8 ms (a read's seek), at qdepth 32 write p50 $(ms "$M_32_WP50") ms < 2 ms"
	ge "$M_32_RP50" "$(awk -v v="$M_32_WP50" 'BEGIN { print 5 * v }')"
	check $? "qdepth 32: writes at cache speed ($(ms "$M_32_WP50") ms p50), reads at the platter's ($(ms "$M_32_RP50") ms)"
fi
lunqctl remove wc0 > /dev/null

############################################################################
echo
echo "=== 8. Slow QUEUE FULL"
cat <<EOF
A LUN of 8 command slots (lun_depth:8, 10 ms per command) that resets
after 16 QUEUE FULLs in a row (reset_after:16, the host then waits 100 ms),
random 4 KiB reads at QD 64 (lunqbench, $T_QF s).  With qfull_lat_us:20000
the QUEUE FULL status reaches the host 20 ms after the command left it, as
on a busy fibre channel loop (seed 004's first point): meanwhile the host
goes on sending.  "sent twice": commands the lower device saw more than
lunqbench issued -- the ones a reset aborted and lunq sent again.
EOF
nq=$(nullb_create demo_qf 512 hw_queue_depth=256) || { echo "null_blk failed"; exit 1; }
nqd=${nq#/dev/}
LUN="model=fixed svc_us=10000 lun_depth=8 reset_after=16 reset_ms=100"
echo "run,policy,iops,resp_p99_ns,qfull,resets,ios,lower_ios,sent_twice" > "$OUT/slowqf.csv"
qf_run() { # TAG ARGS...
	_t=$1
	shift
	lunqctl create qf0 "$nq" $LUN "$@" > /dev/null || { echo "create failed: $*"; return; }
	_l0=$(awk '{ print $1 + $2 }' /sys/block/$nqd/stat)
	lunqbench --iodepth 64 --elapsed $T_QF --interval 0 --kv /dev/mapper/qf0 > /tmp/qf-$_t.kv 2>&1 ||
		echo "lunqbench failed: $(tail -2 /tmp/qf-$_t.kv)"
	sleep 0.5
	_l1=$(awk '{ print $1 + $2 }' /sys/block/$nqd/stat)
	_ios=$(kv /tmp/qf-$_t.kv ios) _low=$((_l1 - _l0))
	_q=$(lq_stat qf0 qfull) _r=$(lq_stat qf0 resets)
	eval "Q_${_t}_IOPS=$(kv /tmp/qf-$_t.kv iops) Q_${_t}_P99=$(kv /tmp/qf-$_t.kv resp_p99_ns)"
	eval "Q_${_t}_QF=$_q Q_${_t}_R=$_r Q_${_t}_TWICE=$((_low - _ios))"
	echo "$_t,$*,$(kv /tmp/qf-$_t.kv iops),$(kv /tmp/qf-$_t.kv resp_p99_ns),$_q,$_r,$_ios,$_low,$((_low - _ios))" >> "$OUT/slowqf.csv"
	printf '  %-44s %8.0f %9s ms %8s %7s %11s\n' "$*" "$(kv /tmp/qf-$_t.kv iops)" "$(ms "$(kv /tmp/qf-$_t.kv resp_p99_ns)")" "$_q" "$_r" "$((_low - _ios))"
	lunqctl remove qf0 > /dev/null
}
printf '\n  %-44s %8s %12s %8s %7s %11s\n' "host" IOPS "resp p99" QFULL resets "sent twice"
qf_run fast qdepth=0 qfull_lat_us=0
qf_run slow qdepth=0 qfull_lat_us=20000
qf_run linux qdepth=64 reaction=linux qfull_lat_us=20000
qf_run throttle qdepth=8 qfull_lat_us=20000
cat <<EOF

- Answered at once, the host stops sending at the first QUEUE FULL
  ($Q_fast_R resets: 16 refusals in a row need the VM to stall for 50 ms).  Answered 20 ms late, it has sent its whole queue
  before it learns: $Q_slow_QF QUEUE FULLs, $Q_slow_R LUN resets, $Q_slow_TWICE commands sent twice,
  $Q_slow_IOPS IOPS.  Linux's reaction (queue depth cut on each QUEUE FULL)
  comes too late as well: $Q_linux_R resets.
- lunq's throttle at the LUN's depth never provokes one: $Q_throttle_QF QUEUE FULL,
  $Q_throttle_R resets, $Q_throttle_IOPS IOPS.  Know the LUN's queue depth and throttle to it.
EOF
if [ $CHECK = 1 ]; then
	[ "$Q_slow_R" -ge $((5 * (Q_fast_R + 1))) ] && [ "$Q_slow_TWICE" -gt "$Q_fast_TWICE" ]
	check $? "slow QUEUE FULL: $Q_slow_R resets and $Q_slow_TWICE commands sent twice (lower device's counter); answered at once: $Q_fast_R and $Q_fast_TWICE"
	[ "$Q_throttle_QF" = 0 ] && [ "$Q_throttle_R" = 0 ] && [ "$Q_throttle_TWICE" = 0 ] &&
		ge "$Q_throttle_IOPS" "$Q_slow_IOPS"
	check $? "throttle at the LUN's depth: no QUEUE FULL, no reset, nothing sent twice, $Q_throttle_IOPS >= $Q_slow_IOPS IOPS"
fi

############################################################################
echo
echo "=== 9. Who sorts: the host or the drive"
cat <<EOF
The 7200 rpm disk again (8 ms average seek, no cache), random 4 KiB reads
at QD 32 (lunqbench, $T_QF s), lun_depth:32.  The drive serves its queue
in arrival order (lun_order:fifo) or as an NCQ drive does, shortest
positioning time first (lun_order:sptf); the host throttles to 32 or to
2, in arrival order or sorted (sched:disksort).
EOF
ns=$(nullb_create demo_so 1024 hw_queue_depth=256) || { echo "null_blk failed"; exit 1; }
echo "run,lun_order,qdepth,sched,iops,resp_p50_ns,resp_p99_ns,resp_max_ns" > "$OUT/sorting.csv"
so_run() { # TAG ORDER QDEPTH SCHED
	lunqctl create so0 "$ns" model=hdd seek_ms=8 rpm=7200 svc_us=500 lun_depth=32 \
		lun_order=$2 qdepth=$3 sched=$4 > /dev/null || { echo "create failed"; return; }
	lunqbench --iodepth 32 --elapsed $T_QF --interval 0 --kv /dev/mapper/so0 > /tmp/so-$1.kv 2>&1 ||
		echo "lunqbench failed: $(tail -2 /tmp/so-$1.kv)"
	_i=$(kv /tmp/so-$1.kv iops) _p50=$(kv /tmp/so-$1.kv resp_p50_ns)
	_p99=$(kv /tmp/so-$1.kv resp_p99_ns) _max=$(kv /tmp/so-$1.kv resp_max_ns)
	eval "S_$1_IOPS=$_i S_$1_P99=$_p99 S_$1_MAX=$_max"
	echo "$1,$2,$3,$4,$_i,$_p50,$_p99,$_max" >> "$OUT/sorting.csv"
	printf '  %-6s %-5s %-9s %8.0f %9s ms %9s ms %9s ms\n' "$2" "$3" "$4" "$_i" "$(ms "$_p50")" "$(ms "$_p99")" "$(ms "$_max")"
	lunqctl remove so0 > /dev/null
}
printf '\n  %-6s %-5s %-9s %8s %12s %12s %12s\n' drive host sched IOPS "resp p50" "resp p99" "resp max"
so_run fifo32 fifo 32 fifo
so_run host2 fifo 2 disksort
so_run sptf32 sptf 32 fifo
so_run sptf2 sptf 2 fifo
cat <<EOF

- A drive that orders its own queue needs one to order: at qdepth 32 it
  does $S_sptf32_IOPS IOPS, $(ratio "$S_sptf32_IOPS" "$S_fifo32_IOPS")x arrival order; at qdepth 2 (one command waiting at
  most) it has no choice: $S_sptf2_IOPS IOPS.  Sorting in the host at qdepth 2 gets
  $S_host2_IOPS -- the same gain from the other side.
- The price of sorting, in the drive as in the host, is the tail: the
  worst read waited $(ms "$S_sptf32_MAX") ms with sptf at qdepth 32, $(ms "$S_fifo32_MAX") ms in arrival order.
  Seed 004's advice for drives that sort internally -- throttle to 2 and
  serve in arrival order -- buys predictable latency (max $(ms "$S_sptf2_MAX") ms)
  with $S_sptf2_IOPS IOPS.
EOF
cat <<EOF

An array of 8 such spindles striped by 64 KiB, built as arrays are
(model:array): each member drive sorts its own queue (lun_order:sptf, 32
commands a spindle), a 64 MiB read cache, a write-back cache destaged in
ascending LBA order (destage:cscan, from 50% full down to 25%).  The same
reads, throttled to 16 (two per spindle), in arrival order or sorted --
seed 004: "for most disk arrays sorting by LBA does not make much sense
since the LUN will be made up of a number of drives and there will be a
read cache and a write cache":
EOF
ar_run() { # TAG SCHED
	lunqctl create ar0 "$ns" model=array spindles=8 stripe_kb=64 seek_ms=8 rpm=7200 \
		svc_us=500 lun_order=sptf lun_depth=64 spindle_depth=32 rcache_mb=64 \
		wce=1 destage=cscan wc_high=50 wc_low=25 qdepth=16 sched=$2 > /dev/null ||
		{ echo "create failed"; return; }
	lunqbench --iodepth 32 --elapsed $T_QF --interval 0 --kv /dev/mapper/ar0 > /tmp/ar-$1.kv 2>&1 ||
		echo "lunqbench failed: $(tail -2 /tmp/ar-$1.kv)"
	eval "S_$1_IOPS=$(kv /tmp/ar-$1.kv iops) S_$1_P99=$(kv /tmp/ar-$1.kv resp_p99_ns) S_$1_MAX=$(kv /tmp/ar-$1.kv resp_max_ns)"
	echo "$1,array,16,$2,$(kv /tmp/ar-$1.kv iops),$(kv /tmp/ar-$1.kv resp_p50_ns),$(kv /tmp/ar-$1.kv resp_p99_ns),$(kv /tmp/ar-$1.kv resp_max_ns)" >> "$OUT/sorting.csv"
	printf '  %-6s %-5s %-9s %8.0f %9s ms %9s ms %9s ms\n' array 16 "$2" "$(kv /tmp/ar-$1.kv iops)" \
		"$(ms "$(kv /tmp/ar-$1.kv resp_p50_ns)")" "$(ms "$(kv /tmp/ar-$1.kv resp_p99_ns)")" "$(ms "$(kv /tmp/ar-$1.kv resp_max_ns)")"
	lunqctl remove ar0 > /dev/null
}
ar_run arrfifo fifo
ar_run arrsort disksort
cat <<EOF

- disksort on the single disk with the drive in arrival order (qdepth
  2): $(ratio2 "$S_host2_IOPS" "$S_fifo32_IOPS")x arrival order at qdepth 32; on the array at qdepth 16:
  $(ratio2 "$S_arrsort_IOPS" "$S_arrfifo_IOPS")x.  Every member drive already picks the nearest of what it
  holds, and the read cache answers some reads without a spindle: the
  host's order has nothing left to buy.  What it can cost is the tail:
  the array's read p99 $(ms "$S_arrsort_P99") ms sorted against $(ms "$S_arrfifo_P99") ms in arrival order,
  max $(ms "$S_arrsort_MAX") against $(ms "$S_arrfifo_MAX") ms.
EOF
if [ $CHECK = 1 ]; then
	awk -v a="$S_arrsort_IOPS" -v b="$S_arrfifo_IOPS" 'BEGIN { exit !(b > 0 && a / b <= 1.10) }'
	check $? "disksort on the array (members sorting, caches): $(ratio2 "$S_arrsort_IOPS" "$S_arrfifo_IOPS")x arrival order (<= 1.10x)"
	awk -v a="$S_host2_IOPS" -v b="$S_fifo32_IOPS" 'BEGIN { exit !(b > 0 && a / b >= 1.3) }'
	check $? "disksort on one disk, the drive in order: $(ratio2 "$S_host2_IOPS" "$S_fifo32_IOPS")x (>= 1.3x)"
fi
if [ $CHECK = 1 ]; then
	ge "$S_sptf32_IOPS" "$(awk -v v="$S_fifo32_IOPS" 'BEGIN { print 1.3 * v }')"
	check $? "the drive's sptf at qdepth 32: $S_sptf32_IOPS IOPS >= 1.3 x arrival order's $S_fifo32_IOPS"
fi

cat > "$OUT/realism.json" <<EOF
{"quick": $([ $QUICK = 1 ] && echo true || echo false),
 "wcache": {"csv": "wcache.csv", "on_mbps": $W_on_MBPS, "off_mbps": $W_off_MBPS, "dsync_mbps": $W_dsync_MBPS},
 "wthrottle": {"csv": "wthrottle.csv",
   "qd32": {"write_p99_ns": $M_32_WP99, "read_p50_ns": $M_32_RP50, "write_p50_ns": $M_32_WP50},
   "qd2": {"write_p99_ns": $M_2_WP99}, "qd1": {"write_p99_ns": $M_1_WP99}},
 "array": {"fifo_iops": $S_arrfifo_IOPS, "disksort_iops": $S_arrsort_IOPS,
   "fifo_resp_p99_ns": $S_arrfifo_P99, "disksort_resp_p99_ns": $S_arrsort_P99,
   "fifo_resp_max_ns": $S_arrfifo_MAX, "disksort_resp_max_ns": $S_arrsort_MAX},
 "sorting": {"csv": "sorting.csv",
   "fifo32": {"iops": $S_fifo32_IOPS, "resp_max_ns": $S_fifo32_MAX}, "host2": {"iops": $S_host2_IOPS, "resp_max_ns": $S_host2_MAX},
   "sptf32": {"iops": $S_sptf32_IOPS, "resp_max_ns": $S_sptf32_MAX}, "sptf2": {"iops": $S_sptf2_IOPS, "resp_max_ns": $S_sptf2_MAX}},
 "slowqf": {"csv": "slowqf.csv",
   "fast": {"iops": $Q_fast_IOPS, "qfull": $Q_fast_QF, "resets": $Q_fast_R, "sent_twice": $Q_fast_TWICE},
   "slow": {"iops": $Q_slow_IOPS, "qfull": $Q_slow_QF, "resets": $Q_slow_R, "sent_twice": $Q_slow_TWICE},
   "linux": {"iops": $Q_linux_IOPS, "qfull": $Q_linux_QF, "resets": $Q_linux_R, "sent_twice": $Q_linux_TWICE},
   "throttle": {"iops": $Q_throttle_IOPS, "qfull": $Q_throttle_QF, "resets": $Q_throttle_R, "sent_twice": $Q_throttle_TWICE}}}
EOF
[ $CHECK = 1 ] && echo "realism checks: $FAILS failed"
[ $FAILS = 0 ]
