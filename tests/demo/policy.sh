# tests/demo/policy.sh [--quick] [--check] [-o DIR] -- demonstration 11,
# "a policy you write yourself": policies/aimd.bpf.c (VMware's adaptive
# queue depth, 30 lines of BPF attached with lunqctl policy attach) against
# auto:knee, static 16 and the per-phase oracle, on demonstration 6's
# hostile case (tests/demo/hostile.sh: a pool of 32 slots, a busy
# neighbour, other initiators holding 16 slots half of every 8 s, LUN
# reset after 10 QUEUE FULLs in a row).  The same table as 6D: IOPS,
# response p99, QUEUE FULL/s, resets, the neighbour's IOPS, Jain; and
# where the BPF policy loses, by how much.  Needs a kernel whose modules
# can register BPF struct_ops (Linux 6.9+: scripts/demo boots Debian's
# 6.12 for it); elsewhere it says so and stops.  Runs inside the VM
# (tests/vm/t-policy-demo.sh runs it with --quick --check).
#   policy.csv (one row per run), policy-trace.csv (depth, IOPS, p99 every
#   0.5 s), policy.json
# --quick   shorter runs   --check   assert that the BPF policy ran and
#           moved the depth, and that every run finished
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/demo/lib.sh"
. "$LUNQ_SRC/tests/lib/scenario.sh"
. "$LUNQ_SRC/tests/demo/hostile.sh"

demo_args policy.sh "$@"
if [ $QUICK = 1 ]; then T_D=16; else T_D=32; fi
P_D=8000
AIMD=$LUNQ_SRC/build/policies/aimd.bpf.o

echo "a policy you write yourself: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), kernel $(uname -r)"
if [ "$(cat /sys/module/dm_lunq/parameters/bpf_policies 2>/dev/null)" != Y ]; then
	echo "  this kernel ($(uname -r)) cannot register BPF struct_ops from a module (Linux 6.9+):"
	echo "  nothing to show here; scripts/demo runs this part on Debian's 6.12 kernel"
	[ $CHECK = 1 ] && check 1 "policy demonstration: needs a 6.9+ kernel"
	exit 0
fi
[ -f "$AIMD" ] || { echo "$AIMD missing (make policies)"; exit 1; }

mount -t configfs none /sys/kernel/config 2>/dev/null
CFG=/sys/kernel/config/nullb
nb=$(nullb_create pol_nb 512 hw_queue_depth=256 irqmode=2 completion_nsec=8000000) ||
	{ echo "null_blk failed"; exit 1; }
nb2=$(nullb_create pol_nb2 512 hw_queue_depth=256) || { echo "null_blk failed"; exit 1; }
echo "run,policy,start,knee,settle_ms,depth_end,iops,svc_p99_ns,resp_p99_ns,qfull_s,resets,neighbour_iops" > "$OUT/policy.csv"
row() { echo "$*" | tr ' ' ',' >> "$OUT/policy.csv"; }
TRACE_CSV=$OUT/policy-trace.csv
echo "policy,t,depth,iops,resp_p99_ns" > "$TRACE_CSV"

echo
echo "--- 11. A policy you write yourself: aimd.bpf.c (halve after 4 QUEUE FULLs, +1 per 64"
echo "    good completions) against auto:knee, on 6D's hostile case ($T_D s each)"
HOSTILE_ATTACH=$AIMD hostile aimd "qdepth=16 auto_max=32" "qdepth=8"
cp /tmp/d-depth /tmp/aimd-depth
hostile auto "qdepth=16 auto=knee" "qdepth=8"
hostile static16 "qdepth=16" "qdepth=8"
hostile_oracle

printf '\n  %-10s %10s %12s %10s %8s %14s %6s\n' policy IOPS "resp p99" "QFULL/s" resets "neighbour IOPS" Jain
for p in aimd auto static16 oracle; do
	eval "printf '  %-10s %10.0f %9s ms %10s %8s %14.0f %6s\n' $p \$D_${p}_IOPS \$(ms \$D_${p}_P99) \$D_${p}_Q \$D_${p}_R \$D_${p}_N \$(jain \$D_${p}_IOPS \$D_${p}_N)"
done
echo "  (aimd: policies/aimd.bpf.c, attached with lunqctl policy attach; its depth"
echo "   clamped to auto_min..auto_max = 1..32; oracle as in 6D: $ORACLE_FROM)"
depths=$(awk '{ print $2 }' /tmp/aimd-depth | sort -un | tr '\n' ' ')
echo "  aimd's depth, sampled every 0.5 s, took the values: $depths"
calc "a = $D_aimd_IOPS; b = $D_auto_IOPS; o = $D_oracle_IOPS
	printf \"  aimd: %.0f%% of auto's IOPS and %.0f%% of the oracle's; p99 %.2f x auto's; QUEUE FULL/s %s vs auto's %s; resets %s vs %s\n\",
		b ? 100 * a / b : 0, o ? 100 * a / o : 0, $D_auto_P99 ? $D_aimd_P99 / $D_auto_P99 : 0, \"$D_aimd_Q\", \"$D_auto_Q\", \"$D_aimd_R\", \"$D_auto_R\""
for x in auto oracle; do
	eval "xi=\$D_${x}_IOPS xq=\$D_${x}_Q xp=\$D_${x}_P99"
	calc "exit !($D_aimd_IOPS < $xi)" &&
		echo "  aimd loses to $x by $(calc "printf \"%.0f IOPS (%.0f%%)\", $xi - $D_aimd_IOPS, 100 * ($xi - $D_aimd_IOPS) / $xi")$(calc "if ($D_aimd_Q > $xq) printf \", with %s QUEUE FULL/s against %s: it finds the free slots by provoking refusals (halving after 4, +1 per 64 completions)\", \"$D_aimd_Q\", \"$xq\"")"
	calc "exit !($D_aimd_P99 > 1.1 * $xp)" &&
		echo "  aimd's response p99 is $(calc "printf \"%.2f\", $D_aimd_P99 / $xp") x $x's"
done

cat > "$OUT/policy.json" <<EOF
{"kernel": "$(uname -r)", "seconds": $T_D,
 "hostile": {$(for p in aimd auto static16 oracle; do eval "printf '\"%s\": {\"iops\": %s, \"resp_p99_ns\": %s, \"qfull_s\": %s, \"resets\": %s, \"neighbour_iops\": %s}, ' $p \$D_${p}_IOPS \$D_${p}_P99 \$D_${p}_Q \$D_${p}_R \$D_${p}_N"; done | sed 's/, $//')}}
EOF
if [ $CHECK = 1 ]; then
	calc "exit !($D_aimd_IOPS > 0 && $D_auto_IOPS > 0 && $D_static16_IOPS > 0 && $D_oracle_IOPS > 0)"
	check $? "every run finished with IOPS (aimd $D_aimd_IOPS, auto $D_auto_IOPS)"
	[ "$(echo "$depths" | wc -w)" -ge 2 ]
	check $? "the BPF policy moved aq's depth (values seen: $depths)"
	jq -e '.hostile.aimd.iops > 0' "$OUT/policy.json" > /dev/null
	check $? "policy.json parses and has aimd's row"
fi
[ "$FAILS" = 0 ]
