# tests/demo/dd.sh [--quick] [--check] [-o DIR] -- demonstration 10 of
# `make demo` (tests/demo/demo.sh calls it; tests/vm/t-demo.sh runs it with
# --quick --check), inside the VM: the dd pitfalls of seeds 001 and 003.
#   A. buffered dd writes (through the page cache, conv=fsync) pile a deep
#      queue in lunq -- actv at the throttle, wait growing -- while dd
#      reports a rate that is the page cache's until the fsync; O_DIRECT dd
#      (256 KiB and 16 KiB blocks: each one IO, QD 1) never queues (lunq's
#      max_inflight 1, max_waiting 0);
#   B. dd's block size: lunqbench --preset bs, sequential reads at QD 1 of
#      512 B .. 1 MiB: IOPS fall and MB/s rise with the size.
# Results in DIR: dd.json, ddwrite.csv, ddbs.txt.
# --quick   shorter runs   --check   assert the qualitative results
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/demo/lib.sh"

demo_args dd.sh "$@"
if [ $QUICK = 1 ]; then
	MB=16 T_BS=1
else
	MB=64 T_BS=2
fi
echo "=== 10. dd pitfalls"
cat <<EOF
An emulated disk behind lunq (model hdd: 2 ms per command, 4 ms average
seek, 10k rpm, 100 MB/s; write cache off) with a host throttle of 8.

A. $MB MiB written by dd three ways: through the page cache (dd's
   default; conv=fsync so dd waits for the disk at the end), and O_DIRECT
   (oflag=direct) with 256 KiB and 16 KiB blocks.  lunqctl stat -x, every
   half second, watches lunq's queue.
EOF
nb=$(nullb_create demo_dd 1024 hw_queue_depth=256 max_sectors=1024) || { echo "null_blk failed"; exit 1; }
echo "\$ lunqctl create dd0 $nb model=hdd svc_us=2000 seek_ms=4 rpm=10000 mbps=100 qdepth=8"
lunqctl create dd0 "$nb" model=hdd svc_us=2000 seek_ms=4 rpm=10000 mbps=100 qdepth=8 > /dev/null ||
	{ echo "create failed"; exit 1; }
echo "run,dd_s,dd_mbps,ios,max_inflight,max_waiting,wait_p99_ns,write_kib_per_io" > "$OUT/ddwrite.csv"
dd_run() { # TAG DESCRIPTION DD-ARGS...
	_t=$1 _d=$2
	shift 2
	sync
	lunqctl reset dd0 > /dev/null
	lunqctl stat -x dd0 0.5 > "$OUT/dd-$_t.stat" 2>&1 &
	_sp=$!
	echo "\$ dd if=/dev/zero of=/dev/mapper/dd0 $*"
	# timed here: the VM's dd (busybox) prints no rate
	_t0=$(now_ms)
	dd if=/dev/zero of=/dev/mapper/dd0 "$@" > "$OUT/dd-$_t.dd" 2>&1 ||
		echo "dd failed: $(cat "$OUT/dd-$_t.dd")"
	_t1=$(now_ms)
	sleep 0.6
	kill -INT $_sp 2>/dev/null; wait $_sp 2>/dev/null
	_s=$(awk -v a="$_t0" -v b="$_t1" 'BEGIN { printf "%.2f", (b - a) / 1000 }')
	_r=$(awk -v s="$_s" -v m="$MB" 'BEGIN { printf "%.1f", (s > 0) ? m * 1.048576 / s : 0 }')
	_w=$(lq_stat dd0 writes) _mi=$(lq_stat dd0 max_inflight) _mw=$(lq_stat dd0 max_waiting)
	_wp=$(lq_hist dd0 wait_write p99)
	_kib=$(awk -v s="$(lq_stat dd0 write_sectors)" -v n="$_w" 'BEGIN { printf "%.0f", n ? s / 2 / n : 0 }')
	echo "$_t,$_s,$_r,$_w,$_mi,$_mw,$_wp,$_kib" >> "$OUT/ddwrite.csv"
	eval "D_${_t}_S=$_s D_${_t}_MBPS=$_r D_${_t}_IOS=$_w D_${_t}_MI=$_mi D_${_t}_MW=$_mw D_${_t}_KIB=$_kib"
	printf '%-34s %7s %8s %7s %9s %12s %12s %10s\n' "$_d" "$_s" "$_r" "$_w" "$_kib" "$_mi" "$_mw" \
		"$(awk -v n="$_wp" 'BEGIN { printf "%.1f ms", n / 1e6 }')" >> "$OUT/.dd-rows"
	# the busiest half second lunqctl saw (most IOs waiting)
	awk '$NF == "dd0" && $2 + 0 > 0 && $5 + $6 + $2 / 1e6 > m { m = $5 + $6 + $2 / 1e6; l = $0 }
		END { if (l) print l }' "$OUT/dd-$_t.stat" > "$OUT/.dd-$_t.peak"
}
: > "$OUT/.dd-rows"
dd_run buffered "page cache, bs=1M conv=fsync" bs=1M count=$MB conv=fsync
dd_run direct256k "O_DIRECT, bs=256k" bs=256k count=$((MB * 4)) oflag=direct
dd_run direct16k "O_DIRECT, bs=16k" bs=16k count=$((MB * 64)) oflag=direct
echo
printf '%-34s %7s %8s %7s %9s %12s %12s %10s\n' dd "s" "MB/s" writes "KiB/IO" max_inflight max_waiting "wait p99"
cat "$OUT/.dd-rows"
echo "(s, MB/s: dd's run time and rate; writes, KiB/IO: what reached lunq; max_inflight, max_waiting: the"
echo " most IOs lunq had at the LUN and in its wait queue at once; wait p99: lunq's write wait histogram)"
echo
echo "lunqctl stat -x at the busiest half second of each run:"
head -1 "$OUT/dd-buffered.stat"
for t in buffered direct256k direct16k; do
	[ -s "$OUT/.dd-$t.peak" ] && echo "$(cat "$OUT/.dd-$t.peak")   <- $t" || echo "(no row)   <- $t"
done
cat <<EOF

- Through the page cache, dd's 1 MiB writes are not IOs yet: the kernel writes
  the pages back later, as many at once as it can, and dd's block size is gone --
  lunq got $D_buffered_IOS writes of $D_buffered_KIB KiB (dm-lunq is bio-based: it sees the
  pages before any merging; a disk's request queue would merge them).
  $D_buffered_MW waited in lunq at once behind the throttle's $D_buffered_MI at the LUN.
  dd's $D_buffered_MBPS MB/s is the disk's only because conv=fsync made it wait for
  it; without it dd's rate is the speed of memory.
- O_DIRECT makes every dd block one IO, one at a time (QD 1): never more than
  $D_direct256k_MI at the LUN, $D_direct256k_MW waiting -- the disk's latency per block, nothing
  queued.  With 16 KiB blocks the same data takes $D_direct16k_IOS IOs and $D_direct16k_S s instead of $D_direct256k_S s.
EOF
if [ $CHECK = 1 ]; then
	[ "$D_buffered_MI" = 8 ] && [ "$D_buffered_MW" -ge 8 ]
	check $? "buffered dd: lunq's queue deep (max_inflight $D_buffered_MI = the throttle 8, max_waiting $D_buffered_MW >= 8)"
	[ "$D_direct256k_MI" = 1 ] && [ "$D_direct256k_MW" = 0 ] && [ "$D_direct16k_MI" = 1 ] && [ "$D_direct16k_MW" = 0 ]
	check $? "O_DIRECT dd never queues: max_inflight $D_direct256k_MI/$D_direct16k_MI, max_waiting $D_direct256k_MW/$D_direct16k_MW"
	[ "$D_direct16k_IOS" = $((MB * 64)) ] && [ "$D_direct256k_IOS" = $((MB * 4)) ]
	check $? "O_DIRECT: lunq counted $D_direct256k_IOS and $D_direct16k_IOS writes = dd's $((MB * 4)) and $((MB * 64)) blocks"
fi

cat <<EOF

B. dd's block size (seed 003: dd reads 512 bytes at a time by default):
   lunqbench --preset bs, sequential reads at QD 1 ($T_BS s per size).
EOF
echo "\$ lunqbench --preset bs --engine sync --elapsed $T_BS /dev/mapper/dd0"
lunqctl reset dd0 > /dev/null
lunqbench --preset bs --engine sync --elapsed $T_BS --interval 0 /dev/mapper/dd0 > "$OUT/ddbs.txt" 2>&1 ||
	echo "lunqbench failed: $(tail -3 "$OUT/ddbs.txt")"
sed -n '/^ *size /,$p' "$OUT/ddbs.txt"
set -- $(awk '$1 == 512 { a = $4 } $1 == 1048576 { b = $4 } $1 == 512 { i = $3 } $1 == 1048576 { j = $3 }
	END { print a + 0, b + 0, i + 0, j + 0 }' "$OUT/ddbs.txt")
BS_MB512=$1 BS_MB1M=$2 BS_IOPS512=$3 BS_IOPS1M=$4
cat <<EOF
- 512-byte reads: $BS_IOPS512 IOPS but $BS_MB512 MB/s; 1 MiB reads: $BS_IOPS1M IOPS and $BS_MB1M MB/s.
  A dd with the default block size measures the command overhead, not the disk.
EOF
if [ $CHECK = 1 ]; then
	awk -v a="$BS_MB512" -v b="$BS_MB1M" -v i="$BS_IOPS512" -v j="$BS_IOPS1M" 'BEGIN { exit !(b >= 10 * a && i > j) }'
	check $? "block size: 1 MiB reads $BS_MB1M MB/s >= 10x 512-byte reads' $BS_MB512 MB/s; IOPS the other way ($BS_IOPS512 > $BS_IOPS1M)"
fi
lunqctl remove dd0 > /dev/null
cat > "$OUT/dd.json" <<EOF
{"schema": 2, "quick": $([ $QUICK = 1 ] && echo true || echo false), "mib": $MB, "csv": "ddwrite.csv",
 "buffered": {"dd_s": $D_buffered_S, "dd_mbps": $D_buffered_MBPS, "writes": $D_buffered_IOS, "kib_per_io": $D_buffered_KIB, "max_inflight": $D_buffered_MI, "max_waiting": $D_buffered_MW},
 "direct_256k": {"dd_s": $D_direct256k_S, "dd_mbps": $D_direct256k_MBPS, "writes": $D_direct256k_IOS, "max_inflight": $D_direct256k_MI, "max_waiting": $D_direct256k_MW},
 "direct_16k": {"dd_s": $D_direct16k_S, "dd_mbps": $D_direct16k_MBPS, "writes": $D_direct16k_IOS, "max_inflight": $D_direct16k_MI, "max_waiting": $D_direct16k_MW},
 "bs": {"mbps_512": $BS_MB512, "mbps_1m": $BS_MB1M, "iops_512": $BS_IOPS512, "iops_1m": $BS_IOPS1M, "table": "ddbs.txt"}}
EOF
rm -f "$OUT"/.dd-rows "$OUT"/.dd-*.peak
echo "dd checks: $FAILS failed"
[ $FAILS = 0 ]
