# tests/demo/hostile.sh: seed 004's hostile case, what demonstration 6
# (auto.sh) and the policy demonstration (policy.sh) share; sourced after
# tests/vm/lib.sh, tests/demo/lib.sh and tests/lib/scenario.sh (seed004,
# scen_create, sampler, lb...).
#   hostile POLICY "AQ WORDS" "NQ WORDS" [FOREIGN WORDS] [SECONDS]: LUN aq
#     (null_blk $nb) shares a pool of 32 slots with the busy neighbour nq
#     ($nb2), other initiators hold 16 slots half of every 8 s, LUN
#     reset after 10 QUEUE FULLs in a row; lunqbench QD 32 on both for
#     SECONDS (T_D); sets D_<POLICY>_{IOPS,P99,Q,QX,R,N} (Q: QUEUE FULLs a
#     second to one decimal, QX unrounded), appends
#     ${TRACE_CSV:-$OUT/auto-trace.csv} and calls row (the caller's).  HOSTILE_ATTACH=FILE:
#     a BPF policy attached to aq first (lunqctl policy attach).
#   hostile_oracle   sets D_oracle_* (see it)
# hostile POLICY "AQ WORDS" "NQ WORDS" [FOREIGN WORDS] [SECONDS]
hostile() {
	_p=$1 _t=${5:-$T_D}
	scen_create "$_p" aq "$nb" $(seed004 port) ${4:-$SEED004_FOREIGN} $2 || return
	if [ -n "${HOSTILE_ATTACH:-}" ]; then scen_attach "$_p" "$HOSTILE_ATTACH" aq || return; fi
	scen_create "$_p" nq "$nb2" pool=port $SEED004_FLASH $3 || return
	sampler /tmp/d-depth "$_t" 0.5 aq:throttle
	lb nq "$_t" 0 /tmp/d-nq.json --iodepth 32 &
	_n=$!
	lb aq "$_t" 0 "/tmp/d-$_p.json" --iodepth 32
	wait $_n $_smp
	_q=$(st aq qfull) _r=$(st aq resets)
	_i=$(lbv "/tmp/d-$_p.json" .totals.iops) _p99=$(lbv "/tmp/d-$_p.json" '.totals.percentiles_ns.response.p99')
	_ni=$(lbv /tmp/d-nq.json .totals.iops)
	eval "D_${_p}_IOPS=$_i D_${_p}_P99=$_p99 D_${_p}_Q=$(calc "printf \"%.1f\", $_q / $_t") D_${_p}_QX=$(calc "print $_q / $_t") D_${_p}_R=$_r D_${_p}_N=$_ni"
	# each interval's depth: the sample nearest its start (0.5 s before its
	# end; the first sample is the load's start)
	jq -r --arg p "$_p" '.intervals[] | "\($p) \(.t) \(.iops) \(.resp_p99_ns)"' "/tmp/d-$_p.json" |
		awk 'NR == FNR { n++; ts[n] = $1; d[n] = $2; next }
			{ w = ts[1] + ($2 - 0.5) * 1000; v = ""; b = -1
			  for (k = 1; k <= n; k++) { x = ts[k] - w; if (x < 0) x = -x; if (b < 0 || x < b) { b = x; v = d[k] } }
			  print $1 "," $2 "," v "," $3 "," $4 }' \
		/tmp/d-depth - >> "${TRACE_CSV:-$OUT/auto-trace.csv}"
	scen_down
	row D "$_p" - - - - "$_i" 0 "$_p99" "$(calc "printf \"%.2f\", $_q / $_t")" "$_r" "$_ni"
}
# hostile_oracle: the oracle of 6D -- each phase alone with its best static
# depth (8 with the other initiators there: 32 slots - 16 theirs - the
# neighbour's 8; 16 without: the flash model's channels), T_D / 2 each,
# averaged, its p99 the worse phase's -- and never below static16 of the
# same run (D_static16_*, when set) when that is a policy a user would
# accept: refused at most ORACLE_QF_MAX (2) times a second, no LUN reset
# (a depth that wins by being refused 146 times a second is not the
# oracle); a static policy that beats it so is the oracle
# (ORACLE_FROM says which, and when static16 beat it but was refused)
ORACLE_QF_MAX=2
hostile_oracle() {
	hostile oracleA "qdepth=8" "qdepth=8" "foreign=16" $((T_D / 2))
	hostile oracleB "qdepth=16" "qdepth=8" "foreign=0" $((T_D / 2))
	D_oracle_IOPS=$(calc "print ($D_oracleA_IOPS + $D_oracleB_IOPS) / 2")
	D_oracle_P99=$(calc "print ($D_oracleA_P99 > $D_oracleB_P99) ? $D_oracleA_P99 : $D_oracleB_P99")
	D_oracle_Q=$(calc "print ($D_oracleA_Q + $D_oracleB_Q) / 2")
	D_oracle_QX=$(calc "print ($D_oracleA_QX + $D_oracleB_QX) / 2")
	D_oracle_R=$((D_oracleA_R + D_oracleB_R))
	D_oracle_N=$(calc "print ($D_oracleA_N + $D_oracleB_N) / 2")
	ORACLE_FROM="each phase's best static depth"
	calc "exit !($D_oracle_QX <= $ORACLE_QF_MAX && $D_oracle_R == 0)" ||
		ORACLE_FROM="$ORACLE_FROM (over the bound in this run: $D_oracle_Q QUEUE FULLs a second, $D_oracle_R resets)"
	if [ -n "${D_static16_IOPS:-}" ] && calc "exit !($D_static16_IOPS > $D_oracle_IOPS)"; then
		if calc "exit !($D_static16_QX <= $ORACLE_QF_MAX && $D_static16_R == 0)"; then
			ORACLE_FROM="static16: it beat the per-phase runs ($(calc "printf \"%.0f\", $D_oracle_IOPS") IOPS) in this run"
			D_oracle_IOPS=$D_static16_IOPS D_oracle_P99=$D_static16_P99 D_oracle_Q=$D_static16_Q
			D_oracle_R=$D_static16_R D_oracle_N=$D_static16_N
		else
			ORACLE_FROM="$ORACLE_FROM (static16 got more IOPS but is over the bound: refused $D_static16_Q times a second, $D_static16_R LUN resets)"
		fi
	fi
}
