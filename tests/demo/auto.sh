# tests/demo/auto.sh [--quick] [--check] [-o DIR] -- demonstration 6,
# "lunq tunes itself": the adaptive throttle (auto) on emulated LUNs,
# measured against the offline sweep, the best static depth, the reactions
# of Linux and Solaris and one global throttle.  Runs inside the VM
# (tests/demo/demo.sh calls it; tests/vm/t-auto.sh runs it with --quick
# --check).
#   A. the knee: flash model, 16 channels x 8 ms, closed-loop QD 64.  An
#      offline sweep (lunqctl sweep --iodepth qdepth) finds the knee K; the
#      static qdepth K under QD 64 is the best static depth; auto:knee
#      starts at qdepth 1 and at 64.  Settled = the throttle inside
#      [0.75 K, 1.25 K] from then on (throttle log); IOPS and response
#      p99 (lunqbench) and service p99 (lunq's histogram) after the
#      warm-up, against the static K's.  Independent observer of the
#      depth, from 64: blktrace, commands sent to the lower device minus
#      completions of the dm device.
#   B. the capacity moves: "set channels:4", then back to 16; the depth
#      follows (throttle log).
#   C. auto:target: target_us = 1.05 x lunq's service p99 at static
#      qdepth 32 under the same load; the service p99 against the target,
#      IOPS against the best static depth that meets it (32 as measured,
#      or a point of the sweep).
#   D. seed 004's hostile case: the LUN shares a pool of 32 slots with a
#      busy neighbour (static qdepth 8), and other initiators hold 16
#      slots half of the time (foreign_period_ms); the LUN resets after 10
#      QUEUE FULLs in a row.  auto, reaction linux, reaction sd, static
#      16, one global throttle (4 on both LUNs) and the oracle (the best
#      static depth of each phase, 8 with the others there and 16 without,
#      measured in one run per phase): IOPS, response p99, QUEUE FULL/s,
#      resets, the neighbour's IOPS.
#   auto.csv (one row per run), auto-trace.csv (depth, IOPS, p99 every
#   0.5 s of the runs of D), auto.svg (their plot), auto.json.
# --quick   shorter runs   --check   assert auto's criteria
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/demo/lib.sh"
. "$LUNQ_SRC/tests/lib/scenario.sh"
. "$LUNQ_SRC/tests/demo/hostile.sh"

PARTS=${AUTO_PARTS:-ABCD}	# the parts to run (for development)
demo_args auto.sh "$@"
if [ $QUICK = 1 ]; then
	SW_T=2 T_A=14 W_A=6 T_B=26 T_C=14 T_D=16 P_D=8000
else
	SW_T=3 T_A=25 W_A=15 T_B=34 T_C=25 T_D=32 P_D=8000
fi

# what the sampler reads every 0.25 s (tests/lib/scenario.sh: "ms throttle
# phase ..."; settled leaves phase 4, the one-window probes, out)
AQ_STATS="aq:throttle aq:auto_phase aq:auto_knee aq:auto_svc_ns aq:auto_svc_min_ns aq:auto_peak_iops"

echo "lunq tunes itself: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), kernel $(uname -r)"
echo "run,policy,start,knee,settle_ms,depth_end,iops,svc_p99_ns,resp_p99_ns,qfull_s,resets,neighbour_iops" > "$OUT/auto.csv"
row() { echo "$*" | tr ' ' ',' >> "$OUT/auto.csv"; }

# 8 ms at null_blk too (completion timer): every command the LUN holds is
# also outstanding at null_blk, where blktrace sees it
nb=$(nullb_create auto_nb 512 hw_queue_depth=256 irqmode=2 completion_nsec=8000000) ||
	{ echo "null_blk failed"; exit 1; }
nb2=$(nullb_create auto_nb2 512 hw_queue_depth=256) || { echo "null_blk failed"; exit 1; }
FLASH="model=flash channels=16 svc_us=8000"

############################################################################
echo
echo "--- A. The knee: flash model, 16 channels x 8 ms, closed loop QD 64"
lunqctl create aq "$nb" qdepth=16 $FLASH > /dev/null || { echo "create failed"; exit 1; }
lunqctl sweep aq --qdepth 1,2,4,8,16,32,64 --iodepth qdepth --elapsed "$SW_T" -q \
	-o "$OUT/auto-sweep" > "$OUT/auto-sweep.txt" 2>&1 || echo "sweep failed"
sed 's/^/  /' "$OUT/auto-sweep.txt"
K=$(jq -r '.points[] | select(.knee) | .qdepth' "$OUT/auto-sweep.json" | head -1)
[ -n "$K" ] || K=16
echo "offline sweep: knee at qdepth $K"

# the best static depth: qdepth K under the same QD 64 load
lunqctl set aq qdepth="$K" > /dev/null
(sleep "$W_A"; lunqctl reset aq > /dev/null) &
_r=$!
lb aq "$T_A" "$W_A" /tmp/a-static.json
wait $_r
S_IOPS=$(lbv /tmp/a-static.json .totals.iops)
S_SVC=$(pct aq service_read p99)
S_RESP=$(lbv /tmp/a-static.json '.totals.percentiles_ns.response.p99')
echo "static qdepth $K: $(calc "printf \"%.0f\", $S_IOPS") IOPS, service p99 $(ms "$S_SVC") ms"
row A static "$K" "$K" 0 "$K" "$S_IOPS" "$S_SVC" "$(lbv /tmp/a-static.json '.totals.percentiles_ns.response.p99')" 0 0 0

for start in 1 64; do
	n0=$(tlog aq | wc -l)
	[ "$start" = 64 ] && bt_start "$nb" /tmp/bt issue complete
	t0=$(now_ms)
	lunqctl set aq qdepth="$start" auto=knee > /dev/null
	sampler "/tmp/a-$start.depth" "$T_A" 0.25 $AQ_STATS
	(sleep "$W_A"; lunqctl reset aq > /dev/null) &
	_r=$!
	lb aq "$T_A" "$W_A" "/tmp/a-$start.json"
	wait $_r $_smp
	if [ "$start" = 64 ]; then
		bt_stop
		# commands outstanding at null_blk (issued D minus completed C)
		# as each command is issued, over the second half of the trace
		# (after the warm-up)
		BT=$(awk '{ n++; a[n] = $1 } END { for (i = 1; i <= n; i++) {
				if (a[i] == "D") { c++; if (i > n / 2) { s += c; k++; if (c > m) m = c } }
				else if (a[i] == "C" && c > 0) c-- }
			printf "%.1f %d", k ? s / k : 0, m }' /tmp/bt.txt)
		A_BTMEAN=${BT% *} A_BTMAX=${BT#* }
		echo "  blktrace at null_blk, second half: $A_BTMEAN commands outstanding on average as one is issued, at most $A_BTMAX"
	fi
	tlog aq | tail -n +$((n0 + 1)) > "/tmp/a-$start.tlog"
	s_ms=$(settled "/tmp/a-$start.depth" "$t0" 999999999 "$(calc "print 0.75 * $K")" "$(calc "print 1.25 * $K")")
	iops=$(lbv "/tmp/a-$start.json" .totals.iops)
	svc=$(pct aq service_read p99)
	d=$(st aq throttle)
	eval "A${start}_SETTLE=$s_ms A${start}_IOPS=$iops A${start}_SVC=$svc A${start}_D=$d A${start}_RESP=$(lbv "/tmp/a-$start.json" '.totals.percentiles_ns.response.p99')"
	kest=$(awk '$3 == 3 && $4 > 0 { k = $4 } END { print k + 0 }' "/tmp/a-$start.depth")
	echo "auto:knee from $start: settled in [0.75 K, 1.25 K] after $s_ms ms, depth now $d (knee estimate $kest), $(calc "printf \"%.0f\", $iops") IOPS ($(calc "printf \"%.1f\", 100 * $iops / $S_IOPS")% of static), service p99 $(ms "$svc") ms ($(calc "printf \"%.2f\", $svc / $S_SVC") x static)"
	awk '{ printf "%s%s %s", (NR > 1 ? ", " : "    throttle log (from->to, cause): "), $2 "->" $3, $4 } END { print "" }' "/tmp/a-$start.tlog" | fold -s -w 96 | head -4
	[ -n "${AUTO_DEBUG:-}" ] && sed 's/^/    sample: /' "/tmp/a-$start.depth" | head -60
	row A auto:knee "$start" "$K" "$s_ms" "$d" "$iops" "$svc" "$(lbv "/tmp/a-$start.json" '.totals.percentiles_ns.response.p99')" 0 0 0
	lunqctl set aq auto=off > /dev/null
done
if [ $CHECK = 1 ]; then
	for start in 1 64; do
		eval "s=\$A${start}_SETTLE i=\$A${start}_IOPS v=\$A${start}_SVC"
		[ "$s" -ge 0 ] && [ "$s" -le 15000 ]
		check $? "auto:knee from $start: within 25% of the sweep's knee $K after $s ms (<= 15 s)"
		# what the user feels, the response p99 (the wait in lunq
		# and the service), within 1.25 x the static knee's; the
		# LUN's service p99 within 1.5 x: every 12th window a probe
		# queues one command over the knee inside the LUN (its
		# service time doubles; its response does not change)
		eval "rp=\$A${start}_RESP"
		calc "exit !($i >= 0.9 * $S_IOPS && $rp <= 1.25 * $S_RESP && $v <= 1.5 * $S_SVC)"
		check $? "auto:knee from $start: IOPS $(calc "printf \"%.0f\", $i") >= 90% of static $K's $(calc "printf \"%.0f\", $S_IOPS"), response p99 $(ms "$rp") <= 1.25 x $(ms "$S_RESP") ms, service p99 $(ms "$v") <= 1.5 x $(ms "$S_SVC") ms"
	done
	calc "exit !($A_BTMEAN >= 0.75 * $K && $A_BTMEAN <= 1.25 * $K)"
	check $? "blktrace at the lower device: $A_BTMEAN commands outstanding on average after the warm-up, within 25% of the knee $K"
fi

B4=0 B16=0
case $PARTS in *B*)
echo
echo "--- B. The capacity moves: channels 16 -> 4 -> 16 under auto:knee"
n0=$(tlog aq | wc -l)
lunqctl set aq qdepth=16 auto=knee > /dev/null
t4=6 t16=$((T_B / 2 + 3))
sampler /tmp/b-depth "$T_B" 0.25 $AQ_STATS
(sleep $t4; now_ms > /tmp/b-t4; lunqctl set aq channels=4 > /dev/null
 sleep $((t16 - t4)); now_ms > /tmp/b-t16; lunqctl set aq channels=16 > /dev/null) &
_r=$!
lb aq "$T_B" 0 /tmp/b.json
wait $_r $_smp
tlog aq | tail -n +$((n0 + 1)) > /tmp/b.tlog
B4=$(settled /tmp/b-depth "$(cat /tmp/b-t4)" "$(cat /tmp/b-t16)" 3 5)
B16=$(settled /tmp/b-depth "$(cat /tmp/b-t16)" 999999999 12 20)
echo "channels 4: depth within [3, 5] after $B4 ms; channels 16 again: within [12, 20] after $B16 ms"
awk '{ printf "%s%s %s", (NR > 1 ? ", " : "    throttle log (from->to, cause): "), $2 "->" $3, $4 } END { print "" }' /tmp/b.tlog | fold -s -w 96 | head -5
row B auto:knee 16 4 "$B4" "$(st aq throttle)" "$(lbv /tmp/b.json .totals.iops)" 0 0 0 0 0
if [ $CHECK = 1 ]; then
	[ "$B4" -ge 0 ] && [ "$B4" -le 10000 ] && [ "$B16" -ge 0 ] && [ "$B16" -le 10000 ]
	check $? "capacity moves: followed to 4 channels in $B4 ms and back to 16 in $B16 ms (<= 10 s each)"
fi
lunqctl set aq auto=off qdepth=16 > /dev/null
;; esac

############################################################################
echo
# the target from lunq's own service p99 at static qdepth 32 under the
# same load (the sweep's p99 is lunqbench's response time, which adds the
# submission path): 5% above it, so the best static depth meeting it is 32
lunqctl set aq qdepth=32 auto=off > /dev/null
(sleep "$W_A"; lunqctl reset aq > /dev/null) &
lb aq "$T_C" "$W_A" /tmp/c-static.json
wait
P32S=$(pct aq service_read p99) S32_IOPS=$(lbv /tmp/c-static.json .totals.iops)
N_US=$(calc "printf \"%d\", 1.05 * $P32S / 1000")
echo "--- C. auto:target target_us:$N_US (1.05 x the service p99 of static qdepth 32, $(ms "$P32S") ms)"
# the best static depth meeting it: qdepth 32 as measured, or a depth of
# the sweep whose response p99 (>= its service p99) meets it
BEST=$(jq -r --argjson n "$((N_US * 1000))" --argjson s "$S32_IOPS" '[.points[] | select(.resp_p99_ns <= $n) | .iops] + [$s] | max' "$OUT/auto-sweep.json")
BESTQ=$(jq -r --argjson n "$((N_US * 1000))" --argjson s "$S32_IOPS" '[.points[] | select(.resp_p99_ns <= $n)] + [{qdepth: 32, iops: $s}] | max_by(.iops) | .qdepth' "$OUT/auto-sweep.json")
lunqctl set aq qdepth=1 auto=target target_us="$N_US" > /dev/null
(sleep "$W_A"; lunqctl reset aq > /dev/null) &
lb aq "$T_C" "$W_A" /tmp/c.json
wait
C_SVC=$(pct aq service_read p99) C_IOPS=$(lbv /tmp/c.json .totals.iops) C_D=$(st aq throttle)
echo "best static meeting $N_US us: qdepth $BESTQ, $(calc "printf \"%.0f\", $BEST") IOPS; auto:target: depth $C_D, $(calc "printf \"%.0f\", $C_IOPS") IOPS, service p99 $(ms "$C_SVC") ms"
row C auto:target 1 "$BESTQ" 0 "$C_D" "$C_IOPS" "$C_SVC" "$(lbv /tmp/c.json '.totals.percentiles_ns.response.p99')" 0 0 0
if [ $CHECK = 1 ]; then
	calc "exit !($C_SVC >= 0.9 * $N_US * 1000 && $C_SVC <= 1.1 * $N_US * 1000 && $C_IOPS >= 0.9 * $BEST)"
	check $? "auto:target: service p99 $(ms "$C_SVC") ms within 10% of $N_US us, IOPS $(calc "printf \"%.0f\", $C_IOPS") >= 90% of $BEST"
fi
lunqctl set aq auto=off qdepth=16 > /dev/null
lunqctl remove aq > /dev/null

############################################################################
for p in auto linux sd static16 global oracle; do eval "D_${p}_IOPS=0 D_${p}_P99=0 D_${p}_Q=0 D_${p}_R=0 D_${p}_N=0"; done
echo "policy,t,depth,iops,resp_p99_ns" > "$OUT/auto-trace.csv"
case $PARTS in *D*)
echo
echo "--- D. Seed 004's hostile case: a pool of 32 slots, a busy neighbour, other initiators"
echo "    holding 16 slots half of every $((P_D / 1000)) s; LUN reset after 10 QUEUE FULLs in a row"
hostile auto "qdepth=16 auto=knee" "qdepth=8"
hostile linux "qdepth=32 reaction=linux" "qdepth=8"
hostile sd "qdepth=32 reaction=sd" "qdepth=8"
hostile static16 "qdepth=16" "qdepth=8"
hostile global "qdepth=4" "qdepth=4"
# the oracle: each phase alone with its best static depth, half the time
# each, and at least static16 of this run (the arena finds the depths by a
# sweep: make arena)
hostile_oracle
printf '\n  %-10s %10s %12s %10s %8s %14s %6s\n' policy IOPS "resp p99" "QFULL/s" resets "neighbour IOPS" Jain
for p in auto linux sd static16 global oracle; do
	eval "printf '  %-10s %10.0f %9s ms %10s %8s %14.0f %6s\n' $p \$D_${p}_IOPS \$(ms \$D_${p}_P99) \$D_${p}_Q \$D_${p}_R \$D_${p}_N \$(jain \$D_${p}_IOPS \$D_${p}_N)"
done
echo "  (oracle: a policy a user would accept, refused at most $ORACLE_QF_MAX times a second, no LUN reset:"
echo "   $ORACLE_FROM -- 8 with the other initiators there, 16 without,"
echo "   one run per phase, averaged; its p99 is the worse phase's; Jain: fairness of"
echo "   the two LUNs' IOPS, 1 = equal, 0.5 = one takes all)"
loses=$(calc "r = $D_auto_IOPS / $D_oracle_IOPS; printf \"%.0f%% of the oracle's IOPS\", 100 * r")
echo "  auto: $loses, p99 $(calc "printf \"%.2f\", $D_auto_P99 / $D_oracle_P99") x the oracle's; QUEUE FULL/s $D_auto_Q vs linux $D_linux_Q, sd $D_sd_Q"
# auto's bar in this case, each said met or missed (in awk's
# printf a bare > redirects: the tests in parentheses)
calc "i = $D_auto_IOPS / $D_oracle_IOPS; p = $D_auto_P99 / $D_oracle_P99; q = $D_auto_Q; r = $D_auto_R
	j = $(jain "$D_auto_IOPS" "$D_auto_N")
	printf \"  against the bar: IOPS %.0f%% of the oracle (>= 90%%: %s), p99 %.2f x (<= 1.5: %s), QUEUE FULL/s %s (<= 2: %s), resets %s (0: %s), Jain %.2f (>= 0.95: %s)\\n\",
		100 * i, (i >= 0.9 ? \"met\" : \"missed\"), p, (p <= 1.5 ? \"met\" : \"missed\"), q, (q <= 2 ? \"met\" : \"missed\"), r, (r == 0 ? \"met\" : \"missed\"), j, (j >= 0.95 ? \"met\" : \"missed\")"
if [ $CHECK = 1 ]; then
	calc "exit !($D_auto_Q <= $D_linux_Q && $D_auto_R <= $D_linux_R)"
	check $? "hostile: auto provokes no more QUEUE FULL ($D_auto_Q/s) or resets ($D_auto_R) than reaction linux ($D_linux_Q/s, $D_linux_R)"
fi
;; esac

############################################################################
# the plot: depth, IOPS and p99 over time, one line per policy of D; each
# panel with its ticks and unit, seconds under each, the legend outside
awk -F, -v plot=trace -v tp="$((P_D / 2000))" -f "$LUNQ_SRC/tests/lib/svg.awk" "$OUT/auto-trace.csv" > "$OUT/auto.svg"
echo
echo "plot: $OUT/auto.svg (depth, IOPS and response p99 over time, shaded: other initiators present)"

cat > "$OUT/auto.json" <<EOF
{"knee": $K, "static": {"iops": $S_IOPS, "svc_p99_ns": $S_SVC},
 "from1": {"settle_ms": $A1_SETTLE, "iops": $A1_IOPS, "svc_p99_ns": $A1_SVC, "depth": $A1_D},
 "from64": {"settle_ms": $A64_SETTLE, "iops": $A64_IOPS, "svc_p99_ns": $A64_SVC, "depth": $A64_D, "blktrace_mean_depth": $A_BTMEAN, "blktrace_max_depth": $A_BTMAX},
 "capacity": {"to4_ms": $B4, "to16_ms": $B16},
 "target": {"target_us": $N_US, "svc_p99_ns": $C_SVC, "iops": $C_IOPS, "depth": $C_D, "best_static_iops": $BEST, "best_static_qdepth": $BESTQ},
 "hostile": {$(for p in auto linux sd static16 global oracle; do eval "printf '\"%s\": {\"iops\": %s, \"resp_p99_ns\": %s, \"qfull_s\": %s, \"resets\": %s, \"neighbour_iops\": %s}, ' $p \$D_${p}_IOPS \$D_${p}_P99 \$D_${p}_Q \$D_${p}_R \$D_${p}_N"; done | sed 's/, $//')},
 "csv": "auto.csv", "trace": "auto-trace.csv", "svg": "auto.svg"}
EOF
jq -e . "$OUT/auto.json" > /dev/null || { echo "auto.json does not parse"; FAILS=$((FAILS + 1)); }
[ $CHECK = 1 ] && echo "auto checks: $FAILS failed"
[ "$FAILS" = 0 ]
