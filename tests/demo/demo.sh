# tests/demo/demo.sh [--quick] [--check] [--no-auto] [--no-realism] [--no-dd] [-o DIR] -- the ten lunq
# demonstrations, run inside the VM (qemu/run; `make demo` runs it through
# scripts/demo, which keeps the results in results/demo-<timestamp>/).
#
#   1. latency bubbles: the bubble workload on an emulated hdd LUN at
#      qdepth 2 under sched fifo, disksort and disksort with max_wait_ms
#   2. per-LUN instead of global throttle: a weak and a strong LUN behind
#      one emulated target port, one throttle for all vs one per LUN
#      (lunqctl apply with a policy file matched on the LUNs' models)
#   3. throughput versus latency: lunqctl sweep on the strong (flash) LUN
#   4. alignment: the vdbench offset scan on a 4 KiB-physical-block LUN
#   5. a real SCSI stack: scsi_debug injecting TASK SET FULL, raw and
#      through lunq with a throttle below its queue depth
#   6. lunq tunes itself: the adaptive throttle (auto) against the offline
#      sweep, the best static depth, the reactions, a global throttle and
#      the per-phase oracle (tests/demo/auto.sh)
#   7. the write cache: seed 003's single dd with the cache on, off and
#      with O_DSYNC; seed 004's writes throttled by reads
#   8. slow QUEUE FULL: a host that overshoots into LUN resets, and the
#      throttle that never does
#   9. who sorts: host disksort versus the drive's own ordering (sptf),
#      on one disk and on an array built as arrays are (members sorting,
#      read cache, CSCAN destage) (7, 8 and 9: tests/demo/realism.sh)
#  10. dd pitfalls: buffered dd piles a deep queue, O_DIRECT at QD 1 never
#      queues; IOPS and MB/s by block size (tests/demo/dd.sh)
#
# --quick   shorter runs (the VM test tests/vm/t-demo.sh)
# --check   assert the qualitative results ("ok N TEXT"/"not ok N TEXT"
#           lines, KTAP's words; exit 1 if one failed)
# --no-auto leave demonstration 6 out (tests/vm/t-demo.sh: tests/vm/t-auto.sh
#           runs it)
# --no-realism leave 7, 8 and 9 out (tests/vm/t-demo.sh: tests/vm/t-realism.sh
#           runs them)
# --no-dd   leave 10 out
# -o DIR    results: report.txt, demo.json, *.csv, *.json, sweep.svg,
#           histograms and event logs (default $LUNQ_OUT)
. "$LUNQ_SRC/tests/vm/lib.sh"
# tests/demo/lib.sh: demo_args; check RC TEXT records one qualitative
# result (here in $OUT/.checks too); ge A B; kv FILE KEY, a word of
# lunqbench's --kv line
. "$LUNQ_SRC/tests/demo/lib.sh"

AUTO=1 REALISM=1 DD=1 ARGS="$*"
more_args() {
	case $1 in
	--no-auto) AUTO=0 ;;
	--no-realism) REALISM=0 ;;
	--no-dd) DD=0 ;;
	*) return 1 ;;
	esac
}
DEMO_MORE=more_args
demo_args demo.sh "$@"
# everything printed also goes to $OUT/report.txt
if [ -z "${DEMO_TEED:-}" ]; then
	DEMO_TEED=1 sh "$0" $ARGS 2>&1 | tee "$OUT/report.txt"
	rc=$(cat "$OUT/.rc" 2>/dev/null || echo 1)
	rm -f "$OUT/.rc" "$OUT/.checks"
	exit "$rc"
fi
echo 1 > "$OUT/.rc"

if [ $QUICK = 1 ]; then
	T_BUB=5 T_LUN=4 T_SCSI=4 SW_Q=1,4,16,32 SW_T=2 AL_T=1
else
	T_BUB=12 T_LUN=8 T_SCSI=8 SW_Q=1,2,4,8,16,32,64 SW_T=3 AL_T=3
fi
M=200		# the aging bound of run 1c, ms
BUBBLE_MS=100	# bubble events for IOs slower than this

say() { printf '\n%s\n' "$*"; }
title() {
	printf '\n=== %s\n' "$*"
}
: > "$OUT/.checks"
CHECK_LOG=$OUT/.checks
# human NS: 812 us, 4.20 ms, 5.01 s
human() {
	awk -v n="$1" 'BEGIN {
		if (n >= 1e9) printf "%.2f s", n / 1e9
		else if (n >= 1e6) printf "%.1f ms", n / 1e6
		else printf "%.0f us", n / 1e3 }'
}
# part NAME [PATTERN]: tests/demo/NAME.sh with this run's --quick, --check
# and -o; its output but its check lines, its "NAME checks:" line and the
# lines PATTERN (grep) matches; its check lines into $OUT/.checks as well
part() {
	sh "$LUNQ_SRC/tests/demo/$1.sh" $([ $QUICK = 1 ] && echo --quick) \
		$([ $CHECK = 1 ] && echo --check) -o "$OUT" > "$OUT/.$1.log" 2>&1
	_pat="^(not )?ok [0-9]+ |^$1 checks:"
	[ -z "${2:-}" ] || _pat="$_pat|$2"
	grep -vE "$_pat" "$OUT/.$1.log"
	# its checks, numbered on in this run's (check: into $OUT/.checks)
	while IFS= read -r _l; do
		case $_l in
		"ok "[0-9]*) _t=${_l#ok }; check 0 "${_t#* }" ;;
		"not ok "[0-9]*) _t=${_l#not ok }; check 1 "${_t#* }" ;;
		esac
	done < "$OUT/.$1.log"
	rm -f "$OUT/.$1.log"
}
# side_by_side "TITLE1|TITLE2|..." FILE1 FILE2 ...: sysfs histogram files
# (quantize rows "<lower> <count>") as DTrace quantize columns, one per run
side_by_side() {
	_t=$1; shift
	awk -v W=16 -v titles="$_t" '
	BEGIN { n = 0; split(titles, T, "|") }
	FNR == 1 { n++ }
	$1 ~ /^[0-9]+$/ && NF == 2 {
		c[n, $1] = $2; tot[n] += $2
		if (!lo || $1 + 0 < lo) lo = $1 + 0
		if ($1 + 0 > hi) hi = $1 + 0
	}
	END {
		printf "%12s", "value (ns)"
		hf = "  %-" (W + 1) "s %7s"; rf = "  |%-" W "s %7d"
		for (i = 1; i <= n; i++) printf hf, "-- " T[i] " --", "count"
		printf "\n"
		start = (lo > 1) ? lo / 2 : 0
		for (v = start; v <= hi * 2; v = (v == 0) ? 1 : v * 2) {
			printf "%12.0f", v
			for (i = 1; i <= n; i++) {
				k = c[i, v] + 0
				b = tot[i] ? int(k * W / tot[i] + 0.5) : 0
				bar = ""
				for (j = 0; j < b; j++) bar = bar "@"
				printf rf, bar, k
			}
			printf "\n"
		}
	}' "$@"
}

cleanup_devices() {
	for d in $(dmsetup ls --target lunq 2>/dev/null | awk '{ print $1 }'); do
		dmsetup remove --noudevsync "$d" 2>/dev/null
	done
}

echo "lunq demo: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), kernel $(uname -r), $(nproc) CPUs (TCG)"
echo "results: $OUT"
[ $QUICK = 1 ] && echo "(quick mode: shorter runs)"

############################################################################
title "1. Latency bubbles: fifo, disksort, disksort with an aging bound"
cat <<EOF
An emulated disk (model hdd: 2 ms per command, 8 ms average seek, 7200
rpm, 100 MB/s) at qdepth 2, so IOs queue in lunq.  The bubble workload of seed 004: a
sequential read stream (QD 16) over the second half of the LUN and 10
random reads/s in its first 10% ("far" reads), $T_BUB s per run, under
sched fifo, disksort, and disksort with max_wait_ms:$M.  bubble_ms:$BUBBLE_MS
makes lunq send an event for every IO slower than $BUBBLE_MS ms.
EOF
nb=$(nullb_create demo_hdd 1024 irqmode=0) || { echo "null_blk failed"; exit 1; }
lunqctl create hdd0 "$nb" model=hdd svc_us=2000 seek_ms=8 rpm=7200 mbps=100 qdepth=2 bubble_ms=$BUBBLE_MS >/dev/null ||
	{ echo "lunqctl create hdd0 failed"; exit 1; }
echo "\$ lunqctl create hdd0 $nb model=hdd svc_us=2000 seek_ms=8 rpm=7200 mbps=100 qdepth=2 bubble_ms=$BUBBLE_MS"
echo "policy,sched,max_wait_ms,ios,iops,stream_iops,far_ios,far_max_ns,total_p50_ns,total_p99_ns,total_max_ns,wait_max_ns,service_max_ns,bubbles,bubble_events,events_dropped,lunq_reads,far_backlog_max,starved_lunq,starved_lunqbench,starved_p50_lunq_ns,starved_p50_lunqbench_ns" > "$OUT/bubble.csv"
# starved: reads over 1 s (STARVE_NS) from "lower count" bucket rows
# (sorted): "N MEDIAN_LOWER_NS"; the two sources share the bucket layout
# (kmod/lunq_hist.h), so a read lunq counts lunqbench counts too (its
# response holds lunq's time) and one lunqbench counts spent >= 1 s - 35 ms
# in lunq: nothing between them takes 18 ms, and a bucket near 1 s is
# 2^24 ns (16.8 ms) wide, so the row lunq counts from lies within 35 ms
STARVE_NS=1000000000
STARVE_SLACK_NS=35000000
starved_rows() {	# MIN_NS < rows
	awk -v t="$1" '$1 >= t && $2 > 0 { n += $2; l[++k] = $1; c[k] = $2 }
		END { h = n / 2; s = 0; m = 0
		for (i = 1; i <= k; i++) { s += c[i]; if (!m && s >= h) m = l[i] }
		printf "%d %.0f\n", n, m }'
}
lq_rows() { jq -r '.[] | select(.hist == "total_read") | .buckets[] | "\(.[0]) \(.[2])"' "$1"; }
# lunqbench's buckets are [index, count]: index -> lower bound by the
# layout lunqbench prints (--hist-bounds: "INDEX LOWER UPPER" lines)
lunqbench --hist-bounds > "$OUT/hist-bounds.txt" || { echo "lunqbench --hist-bounds failed"; exit 1; }
lb_rows() {
	jq -r '.hist.read.response.buckets[] | "\(.[0]) \(.[1])"' "$1" |
		awk -v b="$OUT/hist-bounds.txt" 'BEGIN { while ((getline l < b) > 0) { split(l, f, " "); lo[f[1]] = f[2] } }
			{ print lo[$1], $2 }' | sort -n
}
bubble_run() { # TAG WORDS...
	tag=$1; shift
	lunqctl set hdd0 "$@" >/dev/null && lunqctl reset hdd0 >/dev/null || { echo "lunqctl set failed"; exit 1; }
	lunqctl events -j hdd0 > "$OUT/bubble-$tag.events.jsonl" 2>/dev/null &
	ej=$!
	lunqctl events hdd0 > "$OUT/bubble-$tag.events.txt" 2>/dev/null &
	et=$!
	sleep 0.3
	lb=$OUT/bubble-$tag.lunqbench.json
	lunqbench --preset bubble --elapsed $T_BUB --interval 0 --json /dev/mapper/hdd0 \
		> "$lb" 2> "$OUT/bubble-$tag.lunqbench.err" || echo "lunqbench failed: $(tail -3 "$OUT/bubble-$tag.lunqbench.err")"
	sleep 1
	kill -INT $ej $et 2>/dev/null; wait $ej $et 2>/dev/null
	cp /sys/kernel/lunq/hdd0/hist/total_read "$OUT/bubble-$tag.total_read"
	lunqctl hist hdd0 --total --read > "$OUT/bubble-$tag.hist.txt"
	lunqctl hist hdd0 --json > "$OUT/bubble-$tag.hist.json"
	set -- $(jq -r '.jobs[] | select(.name == "far") | "\(.totals.ios) \(.hist.read.response.max) \(.totals.backlog_max) \(.totals.dropped)"' "$lb")
	far_ios=${1:-0} far_max=${2:-0} far_backlog=${3:-0} far_dropped=${4:-0}
	stream_iops=$(jq -r '.jobs[] | select(.name == "stream") | .totals.iops | floor' "$lb")
	iops=$(jq -r '.totals.iops | floor' "$lb")
	ios=$(jq -r '.totals.ios' "$lb")
	lq_reads=$(lq_stat hdd0 reads)
	tp50=$(lq_hist hdd0 total_read p50) tp99=$(lq_hist hdd0 total_read p99)
	tmax=$(lq_hist hdd0 total_read max) wmax=$(lq_hist hdd0 wait_read max)
	smax=$(lq_hist hdd0 service_read max)
	bubbles=$(lq_stat hdd0 bubbles)
	nev=$(grep -c '"bubble"' "$OUT/bubble-$tag.events.jsonl")
	# events over the 20/s limit per kind are dropped and counted
	dropped=$(lq_stat hdd0 events_dropped)
	set -- $(lq_rows "$OUT/bubble-$tag.hist.json" | starved_rows $STARVE_NS)
	st_lq=$1 st_lq_p50=$2
	st_lq_lo=$(lq_rows "$OUT/bubble-$tag.hist.json" | starved_rows $((STARVE_NS - STARVE_SLACK_NS)) | cut -d' ' -f1)
	set -- $(lb_rows "$lb" | starved_rows $STARVE_NS)
	st_lb=$1 st_lb_p50=$2
	sched=$(cat /sys/kernel/lunq/hdd0/policy/sched) mw=$(cat /sys/kernel/lunq/hdd0/policy/max_wait_ms)
	label=$sched; [ "$mw" = 0 ] || label="$sched max_wait_ms:$mw"
	echo "$tag,$sched,$mw,$ios,$iops,$stream_iops,$far_ios,$far_max,$tp50,$tp99,$tmax,$wmax,$smax,$bubbles,$nev,$dropped,$lq_reads,$far_backlog,$st_lq,$st_lb,$st_lq_p50,$st_lb_p50" >> "$OUT/bubble.csv"
	eval "B_${tag}_bubbles=$bubbles B_${tag}_nev=$nev B_${tag}_dropped=$dropped"
	eval "B_${tag}_tmax=$tmax B_${tag}_wmax=$wmax B_${tag}_smax=$smax B_${tag}_iops=$stream_iops B_${tag}_far=$far_max"
	eval "B_${tag}_ios=$ios B_${tag}_lqreads=$lq_reads B_${tag}_farios=$far_ios B_${tag}_backlog=$far_backlog B_${tag}_fardrop=$far_dropped"
	eval "B_${tag}_stlq=$st_lq B_${tag}_stlqlo=$st_lq_lo B_${tag}_stlb=$st_lb B_${tag}_stlqp50=$st_lq_p50 B_${tag}_stlbp50=$st_lb_p50"
	printf '%-25s %8s %10s %10s %10s %10s %10s %8s\n' "$label" "$iops" \
		"$(human "$tp50")" "$(human "$tp99")" "$(human "$tmax")" "$(human "$far_max")" "$bubbles" "$nev+$dropped" >> "$OUT/.bubble-rows"
	printf '%-25s %9s %8s %11s %17s %14s %14s\n' "$label" "$far_ios" "$far_backlog" \
		"$st_lq / $st_lb" "$( [ "$st_lq" = 0 ] && echo - || human "$st_lq_p50") / $( [ "$st_lb" = 0 ] && echo - || human "$st_lb_p50")" \
		"$(human "$tmax")" "$(human "$far_max")" >> "$OUT/.starve-rows"
}
: > "$OUT/.starve-rows"
: > "$OUT/.bubble-rows"
bubble_run fifo sched=fifo max_wait_ms=0
bubble_run disksort sched=disksort max_wait_ms=0
bubble_run aged sched=disksort max_wait_ms=$M

say "IO time of every read (arrival in lunq to completion), lunq's histograms as DTrace's quantize():"
side_by_side "fifo|disksort|max_wait_ms:$M" "$OUT/bubble-fifo.total_read" \
	"$OUT/bubble-disksort.total_read" "$OUT/bubble-aged.total_read"
say "$(printf '%-25s %8s %10s %10s %10s %10s %10s %8s' run IOPS p50 p99 max far-max bubbles events)"
cat "$OUT/.bubble-rows"
echo "(IOPS: all reads/s; p50/p99/max: lunq's IO time of reads; far-max: lunqbench's worst far-read"
echo " response; bubbles: IOs over ${BUBBLE_MS} ms counted by lunq; events: bubble events lunqctl received"
echo " + those dropped by the limit of 20 per second (lunq's events_dropped counter))"
say "Every far read reached lunq on schedule, and the starved ones (over 1 s), counted twice:"
say "$(printf '%-25s %9s %8s %11s %17s %14s %14s' run far-reads backlog starved 'starved p50' max max)"
printf '%-25s %9s %8s %11s %17s %14s %14s\n' "" "sent" "(host)" "lunq/bench" "lunq / bench" "lunq" "bench (far)"
cat "$OUT/.starve-rows"
echo "(far-reads: lunqbench's far job, 10/s for $T_BUB s; backlog: the most far reads lunqbench held back"
echo " because all its slots were busy -- 0: each went to lunq on time; starved: reads over 1 s in lunq's"
echo " total-time histogram / in lunqbench's response-time histogram (both jobs), same buckets; starved p50:"
echo " the median of those, from each; every read lunqbench made, lunq counted: $B_disksort_lqreads of $B_disksort_ios in disksort)"
say "A few of the bubble events lunqctl received (disksort):"
grep -m3 bubble "$OUT/bubble-disksort.events.txt" | sed 's/^/  /'
say "What it shows:"
echo "- fifo: the far reads wait behind a few stream reads; nothing is much slower than a seek"
echo "  ($(human "$B_fifo_tmax") at worst), but every far read drags the head away (stream $B_fifo_iops reads/s)."
echo "- disksort: the stream is served in LBA order ($B_disksort_iops reads/s, more throughput), and the far"
echo "  reads starve behind it until it stops: $B_disksort_stlq of $B_disksort_farios far reads waited over 1 s in lunq's queue"
echo "  (lunqbench saw $B_disksort_stlb), half of those over $(human "$B_disksort_stlqp50"); $(human "$B_disksort_tmax") at worst,"
echo "  $(awk -v a="$B_disksort_tmax" -v b="$B_fifo_tmax" 'BEGIN { printf "%.0f", a / b }')x fifo's -- the latency bubble."
echo "- disksort max_wait_ms:$M: sorted while nothing is old, but no IO waits more than $M ms plus one"
echo "  service time: longest wait $(human "$B_aged_wmax"), worst IO $(human "$B_aged_tmax") (stream $B_aged_iops reads/s)."
if [ $CHECK = 1 ]; then
	ge "$B_disksort_tmax" "$((B_fifo_tmax * 10))"
	check $? "disksort's max IO time $(human "$B_disksort_tmax") >= 10x fifo's $(human "$B_fifo_tmax")"
	# an aged IO goes first at the next free slot: it waits at most M plus
	# the rest of one service time (5 ms for timers and softirqs in the VM)
	bound=$((M * 1000000 + B_aged_smax + 5000000))
	ge "$bound" "$B_aged_wmax"
	check $? "max_wait_ms:$M: longest wait $(human "$B_aged_wmax") <= $M ms + one service time ($(human "$B_aged_smax")) + 5 ms"
	for t in fifo disksort aged; do
		eval "a=\$B_${t}_backlog b=\$B_${t}_fardrop c=\$B_${t}_ios d=\$B_${t}_lqreads"
		[ "$a" = 0 ] && [ "$b" = 0 ] && [ "$c" = "$d" ]
		check $? "$t: every far read sent on schedule (backlog $a, dropped $b), lunq's reads $d = lunqbench's $c"
	done
	# nesting: lunqbench's response of a read holds lunq's time of it
	[ "$B_disksort_stlq" -gt 0 ] && [ "$B_disksort_stlq" -le "$B_disksort_stlb" ] &&
		[ "$B_disksort_stlb" -le "$B_disksort_stlqlo" ]
	check $? "disksort: starved reads agree: lunq $B_disksort_stlq <= lunqbench $B_disksort_stlb <= lunq's over 1 s - 35 ms $B_disksort_stlqlo"
	[ "$B_disksort_bubbles" -gt 0 ] && [ $((B_disksort_nev + B_disksort_dropped)) = "$B_disksort_bubbles" ]
	check $? "disksort: bubble events received + dropped ($B_disksort_nev + $B_disksort_dropped) = lunq's bubbles counter ($B_disksort_bubbles)"
fi
lunqctl remove hdd0 >/dev/null

############################################################################
title "2. Per-LUN instead of global throttle"
cat <<EOF
Two LUNs behind one emulated target port (pool port0 of 64 command
slots), on two scsi_debug disks of different models:
  weak   DEMO WEAK: 4 command slots (lun_depth:4), 10 ms per IO (model fixed)
  strong DEMO FAST: flash model, 16 channels, 8 ms per IO, deep queue
Both loaded at once, 4 KiB random reads, QD 32 each, $T_LUN s per run:
  (a) no throttle: the weak LUN answers QUEUE FULL
  (b) one throttle for all, low enough for the weakest (what Solaris'
      sd_max_throttle=4 in /etc/system does): lunqctl apply global.conf
  (c) a throttle per LUN model: lunqctl apply perlun.conf
EOF
luns=$(sdebug_models FAST WEAK inq_vendor=DEMO delay=0 dev_size_mb=64) ||
	{ echo "scsi_debug: two LUNs of models FAST and WEAK not found"; exit 1; }
fast=${luns% *} slow=${luns#* }
lunqctl create weak "$slow" pool=port0 pool_depth=64 lun_depth=4 model=fixed svc_us=10000 >/dev/null &&
	lunqctl create strong "$fast" pool=port0 model=flash channels=16 svc_us=8000 >/dev/null ||
	{ echo "lunqctl create failed"; exit 1; }
echo "\$ lunqctl create weak $slow pool=port0 pool_depth=64 lun_depth=4 model=fixed svc_us=10000"
echo "\$ lunqctl create strong $fast pool=port0 model=flash channels=16 svc_us=8000"
cat > "$OUT/global.conf" <<'EOF'
# One throttle for every LUN, low enough for the weakest one: what
# sd_max_throttle=4 in Solaris' /etc/system does.
[*]
qdepth = 4
EOF
cat > "$OUT/perlun.conf" <<'EOF'
# Each model of LUN its own throttle, as sd.conf does per vendor and
# product: the weak LUN gets no more than its 4 command slots, the flash
# LUN keeps all its channels busy.
[vendor=DEMO model=WEAK]
qdepth = 4

[vendor=DEMO model=FAST]
qdepth = 32
EOF
echo "mode,lun,qdepth,ios,iops,p50_ns,p99_ns,qfull,errors" > "$OUT/perlun.csv"
: > "$OUT/.perlun-rows"
perlun_run() { # MODE
	lunqctl reset weak >/dev/null; lunqctl reset strong >/dev/null
	lunqbench --iodepth 32 --elapsed $T_LUN --interval 0 --kv /dev/mapper/weak > "$OUT/perlun-$1-weak.txt" 2>&1 &
	wb=$!
	lunqbench --iodepth 32 --elapsed $T_LUN --interval 0 --kv --seed 2 /dev/mapper/strong > "$OUT/perlun-$1-strong.txt" 2>&1
	wait $wb
	for l in weak strong; do
		f=$OUT/perlun-$1-$l.txt
		q=$(cat /sys/kernel/lunq/$l/policy/qdepth)
		set -- "$1" "$(kv "$f" ios)" "$(kv "$f" iops)" "$(kv "$f" resp_p50_ns)" "$(kv "$f" resp_p99_ns)" "$(lq_stat $l qfull)" "$(kv "$f" errors)"
		echo "$1,$l,$q,$2,$3,$4,$5,$6,$7" >> "$OUT/perlun.csv"
		printf '%-22s %-7s %6s %9s %10s %10s %8s\n' "$(eval echo \$L_$1)" "$l" "$q" "$3" "$(human "$4")" "$(human "$5")" "$6" >> "$OUT/.perlun-rows"
		eval "P_$1_${l}_iops=$3 P_$1_${l}_qfull=$6 P_$1_${l}_p99=$5"
		set -- "$1"
	done
}
L_none="(a) no throttle" L_global="(b) one for all" L_perlun="(c) per LUN"
perlun_run none
say "\$ lunqctl apply global.conf"
lunqctl apply "$OUT/global.conf" | sed 's/^/  /'
perlun_run global
say "\$ lunqctl apply perlun.conf"
lunqctl apply "$OUT/perlun.conf" | sed 's/^/  /'
perlun_run perlun
say "$(printf '%-22s %-7s %6s %9s %10s %10s %8s' run LUN qdepth IOPS p50 p99 'QUEUE FULL')"
cat "$OUT/.perlun-rows"
ratio=$(awk -v a="$P_perlun_strong_iops" -v b="$P_global_strong_iops" 'BEGIN { printf "%.1f", b ? a / b : 0 }')
say "What it shows:"
echo "- without a throttle the weak LUN answers QUEUE FULL $P_none_weak_qfull times: its 4 slots cannot take QD 32."
echo "- one throttle for all stops that, but holds the flash LUN to 4 commands: $P_global_strong_iops IOPS."
echo "- per-LUN throttles: the flash LUN does $P_perlun_strong_iops IOPS (${ratio}x), and the weak LUN answers"
echo "  $P_perlun_weak_qfull QUEUE FULL.  Throttle each LUN for itself, never all LUNs for the weakest."
if [ $CHECK = 1 ]; then
	ge "$P_perlun_strong_iops" "$(awk -v a="$P_global_strong_iops" 'BEGIN { print 2 * a }')"
	check $? "per-LUN throttles: strong LUN $P_perlun_strong_iops IOPS >= 2x its $P_global_strong_iops under the global throttle"
	[ "$P_perlun_weak_qfull" = 0 ] && [ "$P_global_weak_qfull" = 0 ]
	check $? "weak LUN: 0 QUEUE FULL under both throttles (global $P_global_weak_qfull, per-LUN $P_perlun_weak_qfull)"
	[ "$P_none_weak_qfull" -gt 0 ]
	check $? "without a throttle the weak LUN answered QUEUE FULL ($P_none_weak_qfull)"
fi

############################################################################
title "3. Throughput versus latency: lunqctl sweep on the flash LUN"
echo "lunqctl sweep runs lunqbench at each qdepth (closed loop, QD = qdepth, $SW_T s per point)"
echo "and marks the knee: the point of greatest IOPS / p99."
echo "\$ lunqctl sweep strong --qdepth $SW_Q --iodepth qdepth --elapsed $SW_T -o $OUT/sweep"
lunqctl sweep strong --qdepth "$SW_Q" --iodepth qdepth --elapsed "$SW_T" -q -o "$OUT/sweep" \
	> "$OUT/sweep.txt" 2>&1 || echo "lunqctl sweep failed"
cat "$OUT/sweep.txt"
echo "plot: $OUT/sweep.svg  (also sweep.csv, sweep.json)"
say "What it shows: IOPS rise with the throttle until the 16 channels are busy; past the knee"
echo "more outstanding IOs only add latency."
if [ $CHECK = 1 ]; then
	if command -v xmllint >/dev/null; then
		xmllint --noout "$OUT/sweep.svg" 2>&1 | head -3
		xmllint --noout "$OUT/sweep.svg" >/dev/null 2>&1 && grep -q '<polyline' "$OUT/sweep.svg"
		check $? "sweep.svg parses (xmllint) and has a curve"
	else
		check 1 "sweep.svg: xmllint missing in the VM"
	fi
	grep -q knee "$OUT/sweep.txt"
	check $? "the sweep table names its knee"
fi
lunqctl remove strong weak >/dev/null
rmmod scsi_debug 2>/dev/null

############################################################################
title "4. Alignment: the offset scan on a 4 KiB-physical-block LUN"
cat <<EOF
The vdbench trick of seed 002: 4 KiB random reads shifted by 0, 512, ...,
4096 bytes from the start, $AL_T s each, on an emulated flash LUN with 4 KiB
physical blocks (pblk:4096): a misaligned IO spans two of them and pays
read-modify-write (rmw_x, 5x the time).
EOF
nb=$(nullb_create demo_4k 256 irqmode=0 hw_queue_depth=256) || { echo "null_blk failed"; exit 1; }
lunqctl create al0 "$nb" model=flash channels=2 svc_us=2000 pblk=4096 >/dev/null ||
	{ echo "lunqctl create al0 failed"; exit 1; }
echo "\$ lunqctl create al0 $nb model=flash channels=2 svc_us=2000 pblk=4096"
echo "\$ lunqbench --preset align --elapsed $AL_T --iodepth 8 --range 0-64m /dev/mapper/al0"
lunqbench --preset align --elapsed "$AL_T" --iodepth 8 --range 0-64m --interval 0 /dev/mapper/al0 \
	> "$OUT/align.lunqbench.txt" 2>&1 || echo "lunqbench --preset align failed"
awk '$1 ~ /^[0-9]+$/ && NF >= 8' "$OUT/align.lunqbench.txt" > "$OUT/.align-rows"
echo "offset,ios,iops" > "$OUT/align.csv"
awk '{ print $1 "," $2 "," $3 }' "$OUT/.align-rows" >> "$OUT/align.csv"
say "$(printf '%8s %10s %10s  %s' offset ios IOPS '')"
awk 'NR == FNR { if ($3 > m) m = $3; next }
	{ b = ""; for (j = 0; j < int($3 * 30 / m + 0.5); j++) b = b "#"
	  printf "%8d %10d %10.0f  %s%s\n", $1, $2, $3, b, ($1 % 4096) ? "" : "  aligned" }' \
	"$OUT/.align-rows" "$OUT/.align-rows"
say "\$ lunqctl hist al0 --align -q    (the start offset's largest power-of-two divisor, bytes)"
lunqctl hist al0 --align -q | tee "$OUT/align.hist.txt"
lunqctl hist al0 --align --json > "$OUT/align.hist.json"
mis=$(lq_stat al0 misaligned_4k)
arat=$(awk '{ if ($1 % 4096 == 0) { if (!a || $3 < a) a = $3 } else if ($3 > m) m = $3 }
	END { printf "%.1f", m ? a / m : 0 }' "$OUT/.align-rows")
say "What it shows: only offsets 0 and 4096 are aligned to the 4 KiB physical blocks; every other"
echo "offset is ${arat}x slower or worse.  The align histogram shows it without a scan: rows below"
echo "4096 are misaligned IOs ($mis of them here: lunq's misaligned_4k counter)."
if [ $CHECK = 1 ]; then
	[ "$(wc -l < "$OUT/.align-rows")" = 9 ] && ge "$arat" 3
	check $? "aligned offsets >= 3x the IOPS of every misaligned one (${arat}x)"
fi
lunqctl remove al0 >/dev/null

############################################################################
title "5. A real SCSI stack: scsi_debug with TASK SET FULL"
cat <<EOF
Linux's own SCSI midlayer on scsi_debug LUNs of queue depth 4 that answer
TASK SET FULL on every 20th command arriving while 3 are in flight
(max_queue=4 every_nth=20 opts=0x800).  fio, 4 KiB random reads at QD 32,
$T_SCSI s: straight on one LUN, then through lunq qdepth:2 on the other.
EOF
modprobe scsi_debug max_queue=4 every_nth=20 opts=0x800 delay=1 dev_size_mb=64 num_tgts=1 max_luns=2 ||
	{ echo "scsi_debug failed"; exit 1; }
sds=
for i in $(seq 40); do
	sds=$(for b in /sys/block/sd*; do
		[ -e "$b/device/model" ] && [ -b "/dev/${b##*/}" ] && echo "/dev/${b##*/}"; done | sort | tr '\n' ' ')
	[ "$(echo $sds | wc -w)" = 2 ] && break
	sleep 0.25
done
set -- $sds
raw=$1 thr=$2
[ -n "$thr" ] || { echo "two scsi_debug LUNs not found"; exit 1; }
echo "queue_depth of $raw: $(cat /sys/block/${raw#/dev/}/device/queue_depth)"
lunqctl create tsf0 "$thr" qdepth=2 >/dev/null || { echo "lunqctl create tsf0 failed"; exit 1; }
echo "\$ lunqctl create tsf0 $thr qdepth=2"
echo "run,device,fio_exit,errors,ios,iops,midlayer_ioerr" > "$OUT/scsi.csv"
: > "$OUT/.scsi-rows"
scsi_run() { # TAG DEVICE SYSDEV
	e0=$(printf '%d' "$(cat "/sys/block/$3/device/ioerr_cnt")")
	timeout $((T_SCSI + 60)) fio --name="$1" --filename="$2" --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=32 --time_based --runtime="$T_SCSI" \
		--continue_on_error=all --output-format=json > "$OUT/scsi-$1.fio.json" 2> "$OUT/scsi-$1.fio.err"
	rc=$?
	f=$OUT/scsi-$1.fio.json
	errs=$(awk -F: '/"total_err"/ { gsub(/[ ,]/, "", $2); print $2; exit }' "$f")
	ios=$(awk -F: '/"total_ios"/ { gsub(/[ ,]/, "", $2); print $2; exit }' "$f")
	iops=$(awk -F: '/"iops"/ { gsub(/[ ,]/, "", $2); printf "%.0f", $2; exit }' "$f")
	mid=$(($(printf '%d' "$(cat "/sys/block/$3/device/ioerr_cnt")") - e0))
	echo "$1,$2,$rc,${errs:-?},${ios:-0},${iops:-0},$mid" >> "$OUT/scsi.csv"
	printf '%-26s %6s %8s %8s %8s %10s\n' "$1 ($2)" "$rc" "${errs:-?}" "${ios:-0}" "${iops:-0}" "$mid" >> "$OUT/.scsi-rows"
	eval "S_$1_errs=${errs:-unknown} S_$1_rc=$rc S_$1_mid=$mid S_$1_iops=${iops:-0}"
}
scsi_run raw "$raw" "${raw#/dev/}"
scsi_run lunq /dev/mapper/tsf0 "${thr#/dev/}"
say "$(printf '%-26s %6s %8s %8s %8s %10s' run 'exit' errors IOs IOPS 'ioerr_cnt')"
cat "$OUT/.scsi-rows"
echo "(errors: fio's IO errors; ioerr_cnt: the SCSI midlayer's own error counter of the LUN)"
say "Kernel messages of the raw run:"
dmesg | grep -E 'I/O error|FAILED|hostbyte' | head -4 | sed 's/^/  /'
say "What it shows: at QD 32 the raw LUN's TASK SET FULL answers reach the application as"
echo "$S_raw_errs IO errors; lunq never sends it more than 2 commands, the injection never fires,"
echo "and the same load completes with $S_lunq_errs errors."
if [ $CHECK = 1 ]; then
	[ "$S_lunq_errs" = 0 ] && [ "$S_lunq_rc" = 0 ] && [ "$S_lunq_mid" = 0 ]
	check $? "throttled scsi_debug run: 0 IO errors (fio exit $S_lunq_rc, errors $S_lunq_errs, midlayer $S_lunq_mid)"
fi
lunqctl remove tsf0 >/dev/null

############################################################################
if [ $AUTO = 1 ]; then
title "6. lunq tunes itself: the adaptive throttle (auto)"
cat <<EOF
auto:knee holds the depth of greatest power with no target given (peak
IOPS x minimum service time, TCP BBR's estimate); auto:target the largest
depth meeting a service p99.  A. started at qdepth 1 and 64 on a flash LUN
(16 channels x 8 ms, closed loop QD 64) against the offline sweep's knee
and the best static depth, blktrace on the lower device as the observer;
B. the capacity drops to 4 channels and comes back; C. a p99 target;
D. seed 004's hostile case: a shared pool, a busy neighbour, other
initiators coming and going -- auto against reaction linux and sd, a
static depth, one global throttle and the oracle.
EOF
part auto
fi

############################################################################
if [ $REALISM = 1 ]; then
title "7-9. The LUN grows up: write cache, slow QUEUE FULL, drive-side ordering"
part realism
fi

############################################################################
if [ $DD = 1 ]; then
title "10. dd pitfalls"
part dd '^=== 10'
fi

############################################################################
title "Results"
cat > "$OUT/demo.json" <<EOF
{"schema": 2, "quick": $([ $QUICK = 1 ] && echo true || echo false),
 "bubble": {"max_wait_ms": $M, "csv": "bubble.csv",
   "fifo": {"total_max_ns": $B_fifo_tmax, "stream_iops": $B_fifo_iops, "far_max_ns": $B_fifo_far},
   "disksort": {"total_max_ns": $B_disksort_tmax, "stream_iops": $B_disksort_iops, "far_max_ns": $B_disksort_far,
     "far_reads": $B_disksort_farios, "far_backlog_max": $B_disksort_backlog, "starved_over_1s_lunq": $B_disksort_stlq,
     "starved_over_1s_lunqbench": $B_disksort_stlb, "starved_p50_ns_lunq": $B_disksort_stlqp50, "starved_p50_ns_lunqbench": $B_disksort_stlbp50},
   "aged": {"total_max_ns": $B_aged_tmax, "wait_max_ns": $B_aged_wmax, "service_max_ns": $B_aged_smax, "stream_iops": $B_aged_iops, "far_max_ns": $B_aged_far}},
 "perlun": {"csv": "perlun.csv",
   "none": {"weak_iops": $P_none_weak_iops, "weak_qfull": $P_none_weak_qfull, "strong_iops": $P_none_strong_iops},
   "global": {"weak_iops": $P_global_weak_iops, "weak_qfull": $P_global_weak_qfull, "strong_iops": $P_global_strong_iops, "strong_p99_ns": $P_global_strong_p99},
   "perlun": {"weak_iops": $P_perlun_weak_iops, "weak_qfull": $P_perlun_weak_qfull, "strong_iops": $P_perlun_strong_iops, "strong_p99_ns": $P_perlun_strong_p99}},
 "sweep": {"csv": "sweep.csv", "json": "sweep.json", "svg": "sweep.svg"},
 "align": {"csv": "align.csv", "aligned_over_misaligned": $arat, "misaligned_4k": $mis},
 "scsi": {"csv": "scsi.csv", "raw_errors": "$S_raw_errs", "raw_iops": $S_raw_iops, "lunq_errors": "$S_lunq_errs", "lunq_iops": $S_lunq_iops},
 "auto": $([ $AUTO = 1 ] && [ -s "$OUT/auto.json" ] && echo '"auto.json"' || echo null),
 "realism": $([ $REALISM = 1 ] && [ -s "$OUT/realism.json" ] && echo '"realism.json"' || echo null),
 "dd": $([ $DD = 1 ] && [ -s "$OUT/dd.json" ] && echo '"dd.json"' || echo null)}
EOF
rm -f "$OUT"/.bubble-rows "$OUT"/.starve-rows "$OUT"/.perlun-rows "$OUT"/.align-rows "$OUT"/.scsi-rows
echo "files in $OUT:"
(cd "$OUT" && ls | tr '\n' ' ' | fold -s -w 76 | sed 's/^/  /'); echo
if [ $CHECK = 1 ]; then
	n=$(grep -c '^ok ' "$OUT/.checks") f=$(grep -c '^not ok ' "$OUT/.checks")
	echo "checks: $n ok, $f failed"
	[ "$f" = 0 ] || exit 1
fi
echo 0 > "$OUT/.rc"
exit 0
