# lunqctl stat against the kernel's counters read through sysfs (the
# observer):
#  - idle device after a known load: the one report spans the time since
#    the reset (crtime_ns; checked against the shell's clock) and has
#    r/s * interval = reads, kr/s * interval = read_sectors / 2,
#    actv * interval = rlentime, asvc_t = rlentime / completed, the same
#    in --json and in the -x text columns;
#  - under load (fio QD32 through qdepth:8 on 20 ms null_blk) the interval
#    reports show %b >= 50 and actv 8 x %b (+-5%: 8 in flight while busy;
#    a loaded host leaves real gaps, t-iostat), thr 8, wait > 0, and the
#    number of reports asked for;
#  - --prometheus: lunq_reads_total equals sysfs reads; -o writes the file;
#  - bad arguments: exit 1.
# group: ctl stats timing
# time: 20
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=20000000 hw_queue_depth=256) ||
	fail "null_blk setup"
lc 0 create lq "$nb" qdepth=8
lc 0 create lq2 "$(nullb_create lq_nb2 64)"
sleep 4		# the device is older than its counters after the reset
lc 0 reset lq
t_reset=$(now_ms)

fio --name=r --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randrw \
	--bs=4k --size=4M --iodepth=16 --output-format=terse > /dev/null || fail "fio"
reads=$(lq_stat lq reads) writes=$(lq_stat lq writes) rsec=$(lq_stat lq read_sectors)
rl=$(lq_stat lq rlentime_ns) wl=$(lq_stat lq wlentime_ns) done=$(lq_stat lq completed)
[ $((reads + writes)) = 1024 ] || fail "fio did $reads reads + $writes writes, want 1024"

# idle: one report since the reset
lc 0 stat -x --json lq
since=$(($(now_ms) - t_reset))
diag "$(cat /tmp/lc.out)"
js() { sed 's/.*"'"$1"'":\([-0-9.e]*\).*/\1/' /tmp/lc.out; }
iv=$(js interval_s)
# the first report spans the time since the reset (crtime_ns), not the
# device's life or the boot: within the shell's measurement, +-0.5 s
awk -v iv="$iv" -v ms="$since" 'BEGIN { exit !(iv * 1000 <= ms + 500 && iv * 1000 >= ms - 500) }' ||
	fail "first report spans $iv s; the reset was $since ms ago"
awk -v iv="$iv" -v rs="$(js r_s)" -v ws="$(js w_s)" -v kr="$(js kr_s)" -v a="$(js actv)" \
	-v w="$(js wait)" -v as="$(js asvc_t_ms)" -v ws_t="$(js wsvc_t_ms)" \
	-v reads="$reads" -v writes="$writes" -v rsec="$rsec" -v rl="$rl" -v wl="$wl" -v c="$done" '
	function near(x, y) { return (y == 0) ? (x == 0) : (x / y > 0.995 && x / y < 1.005) }
	BEGIN {
		bad = ""
		if (!near(rs * iv, reads)) bad = bad " r/s"
		if (!near(ws * iv, writes)) bad = bad " w/s"
		if (!near(kr * iv, rsec / 2)) bad = bad " kr/s"
		if (!near(a * iv, rl / 1e9)) bad = bad " actv"
		if (!near(w * iv, wl / 1e9)) bad = bad " wait"
		if (!near(as, rl / c / 1e6)) bad = bad " asvc_t"
		if (!near(ws_t, wl / c / 1e6)) bad = bad " wsvc_t"
		if (bad != "") { print "mismatch:" bad; exit 1 }
	}' || fail "stat --json disagrees with sysfs (reads=$reads writes=$writes rlentime=$rl wlentime=$wl completed=$done)"
lc 0 stat -x lq
set -- $(sed -n 2p /tmp/lc.out)
[ "$#" = 13 ] && [ "${13}" = lq ] && [ "${12}" = 8 ] || { cat /tmp/lc.out; fail "stat -x row"; }
awk -v as="$8" -v rl="$rl" -v c="$done" 'BEGIN { x = rl / c / 1e6; exit !(as >= x - 0.05 && as <= x + 0.05) }' ||
	fail "stat -x asvc_t $8, sysfs says $(awk -v rl="$rl" -v c="$done" 'BEGIN { print rl / c / 1e6 }')"
head -1 /tmp/lc.out | grep -q 'r/s *w/s *kr/s *kw/s *wait *actv *wsvc_t *asvc_t *%w *%b *qfull/s *thr *device' ||
	fail "stat -x header: $(head -1 /tmp/lc.out)"
lc 0 stat lq lq2
[ "$(grep -c . /tmp/lc.out)" = 3 ] && grep -q ' lq2$' /tmp/lc.out || { cat /tmp/lc.out; fail "stat of two devices"; }
ok "idle: r/s, w/s, kr/s, actv, wait, asvc_t, wsvc_t x interval = sysfs counters (0.5%); -x columns; two devices"

# under load: 3 reports 1 s apart
fio --name=io --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randread \
	--bs=4k --iodepth=32 --time_based --runtime=8 --output-format=terse > /dev/null &
fpid=$!
sleep 2
lc 0 stat -x lq 1 3
wait $fpid || fail "fio under load"
cat /tmp/lc.out | sed 's/^/# /'
[ "$(grep -c ' lq$' /tmp/lc.out)" = 3 ] || fail "want 3 reports"
# reports 2 and 3 are 1 s intervals of the saturated run
grep ' lq$' /tmp/lc.out | sed -n '2,3p' | awk '{
	# busy but for the gaps a loaded host leaves (t-iostat: %b 77-100
	# measured, the lower device as idle): 8 in flight while busy
	if ($10 < 50 || $10 > 100) { print "%b " $10; exit 1 }
	if ($6 < 7.6 * $10 / 100 || $6 > 8.4 * $10 / 100) { print "actv " $6 " at %b " $10; exit 1 }
	if ($12 != 8) { print "thr " $12; exit 1 }
	if ($5 <= 0) { print "wait " $5; exit 1 }
	if ($8 < 20) { print "asvc_t " $8; exit 1 }
}' || fail "under load, want %b 50-100, actv 8 x %b (+-5%), thr 8, wait > 0, asvc_t >= 20 ms"
ok "under load: 3 reports, %b >= 50, actv 8 x %b, thr 8, asvc_t >= 20 ms"

# Prometheus
lc 0 stat --prometheus lq
grep -qx "lunq_reads_total{device=\"lq\"} $(lq_stat lq reads)" /tmp/lc.out ||
	{ grep reads /tmp/lc.out; fail "lunq_reads_total != sysfs reads $(lq_stat lq reads)"; }
grep -qx '# TYPE lunq_reads_total counter' /tmp/lc.out && grep -qx '# TYPE lunq_throttle gauge' /tmp/lc.out &&
	grep -qx 'lunq_throttle{device="lq"} 8' /tmp/lc.out || fail "prometheus types or throttle"
! grep -q 'device="lq2"' /tmp/lc.out || fail "prometheus: lq2 not asked for"
lc 0 stat -p -o /tmp/lunq.prom
[ ! -s /tmp/lc.out ] && grep -q 'lunq_reads_total{device="lq2"} 0' /tmp/lunq.prom &&
	! ls /tmp/lunq.prom.tmp* 2>/dev/null || fail "stat -p -o"
ok "--prometheus: lunq_reads_total = sysfs reads, types, -o FILE written atomically"

lc 1 stat lq 0; lc_err "INTERVAL"
lc 1 stat lq 1 0; lc_err "COUNT"
lc 1 stat -j -p lq
lc 1 stat -o /tmp/x lq; lc_err "--output goes with --prometheus"
lc 1 stat -z; lc_err "bad option"
lc 2 stat nosuch 1 1; lc_err "no lunq device 'nosuch'"
ok "bad arguments exit 1, unknown device 2"
