# tests/demo/hostile.sh: what demonstration 6 (auto.sh) and the policy
# demonstration (policy.sh) share: their helpers and seed 004's hostile
# case, sourced after tests/vm/lib.sh and tests/demo/lib.sh.
#   calc, st, p99, ms, lb, lbv   (see each)
#   hostile POLICY "AQ WORDS" "NQ WORDS" [FOREIGN WORDS] [SECONDS]: LUN aq
#     (null_blk $nb) shares a pool of 32 slots with the busy neighbour nq
#     ($nb2), other initiators hold 16 slots half of every P_D ms, LUN
#     reset after 10 QUEUE FULLs in a row; lunqbench QD 32 on both for
#     SECONDS (T_D); sets D_<POLICY>_{IOPS,P99,Q,R,N}, appends
#     ${TRACE_CSV:-$OUT/auto-trace.csv} and calls row (the caller's).  HOSTILE_ATTACH=FILE:
#     a BPF policy attached to aq first (lunqctl policy attach).
#   hostile_oracle   sets D_oracle_* (see it)
#   jain A N   Jain's fairness index of two IOPS
calc() { awk "BEGIN { $1 }"; }
st() { cat "/sys/kernel/lunq/$1/stats/$2"; }
p99() { awk '$1 == "p99" { print $2 }' "/sys/kernel/lunq/$1/hist/$2"; }
ms() { awk -v n="$1" 'BEGIN { printf "%.2f", n / 1e6 }'; }

# lb DEV SECONDS WARMUP OUT [ARGS]: lunqbench QD 64 random 4k reads (JSON)
lb() {
	_d=$1 _t=$2 _w=$3 _o=$4
	shift 4
	lunqbench --json --iodepth 64 --elapsed "$_t" --warmup "$_w" \
		--interval 0.5 "$@" "/dev/mapper/$_d" > "$_o" 2> "$_o.err" ||
		{ cat "$_o.err"; echo "lunqbench failed"; }
}
lbv() { jq -r "$2" "$1" 2>/dev/null || echo 0; }

# hostile POLICY "AQ WORDS" "NQ WORDS" [FOREIGN WORDS] [SECONDS]
hostile() {
	_p=$1 _t=${5:-$T_D}
	lunqctl create aq "$nb" pool=port pool_depth=32 ${4:-foreign=16 foreign_period_ms=$P_D} \
		reset_after=10 reset_ms=500 $FLASH $2 > /dev/null || { echo "create aq ($_p) failed"; return; }
	if [ -n "${HOSTILE_ATTACH:-}" ]; then
		lunqctl policy attach aq "$HOSTILE_ATTACH" > /dev/null ||
			{ echo "policy attach ($_p) failed"; lunqctl remove aq > /dev/null; return; }
	fi
	lunqctl create nq "$nb2" pool=port $FLASH $3 > /dev/null ||
		{ echo "create nq failed"; lunqctl remove aq > /dev/null; return; }
	( _i=0; while [ $_i -lt $((_t * 2)) ]; do
		echo "$_i $(st aq throttle)"; sleep 0.5; _i=$((_i + 1)); done ) > /tmp/d-depth &
	_s=$!
	lb nq "$_t" 0 /tmp/d-nq.json --iodepth 32 &
	_n=$!
	lb aq "$_t" 0 "/tmp/d-$_p.json" --iodepth 32
	wait $_n $_s
	_q=$(st aq qfull) _r=$(st aq resets)
	_i=$(lbv "/tmp/d-$_p.json" .totals.iops) _p99=$(lbv "/tmp/d-$_p.json" '.totals.percentiles_ns.response.p99')
	_ni=$(lbv /tmp/d-nq.json .totals.iops)
	eval "D_${_p}_IOPS=$_i D_${_p}_P99=$_p99 D_${_p}_Q=$(calc "printf \"%.1f\", $_q / $_t") D_${_p}_R=$_r D_${_p}_N=$_ni"
	jq -r --arg p "$_p" '.intervals[] | "\($p) \(.t) \(.iops) \(.resp_p99_ns)"' "/tmp/d-$_p.json" |
		awk 'NR == FNR { d[$1] = $2; next } { i = int($2 * 2 + 0.5) - 1; print $1 "," $2 "," (i in d ? d[i] : "") "," $3 "," $4 }' /tmp/d-depth - >> "${TRACE_CSV:-$OUT/auto-trace.csv}"
	lunqctl remove aq > /dev/null
	lunqctl remove nq > /dev/null
	row D "$_p" - - - - "$_i" 0 "$_p99" "$(calc "printf \"%.2f\", $_q / $_t")" "$_r" "$_ni"
}
# hostile_oracle: the oracle of 6D -- each phase alone with its best static
# depth (8 with the other initiators there: 32 slots - 16 theirs - the
# neighbour's 8; 16 without: the flash model's channels), T_D / 2 each,
# averaged, its p99 the worse phase's -- and never below static16 of the
# same run (D_static16_*, when set): a static policy that beats it is the
# oracle (ORACLE_FROM says which)
hostile_oracle() {
	hostile oracleA "qdepth=8" "qdepth=8" "foreign=16" $((T_D / 2))
	hostile oracleB "qdepth=16" "qdepth=8" "foreign=0" $((T_D / 2))
	D_oracle_IOPS=$(calc "print ($D_oracleA_IOPS + $D_oracleB_IOPS) / 2")
	D_oracle_P99=$(calc "print ($D_oracleA_P99 > $D_oracleB_P99) ? $D_oracleA_P99 : $D_oracleB_P99")
	D_oracle_Q=$(calc "print ($D_oracleA_Q + $D_oracleB_Q) / 2")
	D_oracle_R=$((D_oracleA_R + D_oracleB_R))
	D_oracle_N=$(calc "print ($D_oracleA_N + $D_oracleB_N) / 2")
	ORACLE_FROM="each phase's best static depth"
	if [ -n "${D_static16_IOPS:-}" ] && calc "exit !($D_static16_IOPS > $D_oracle_IOPS)"; then
		ORACLE_FROM="static16: it beat the per-phase runs ($(calc "printf \"%.0f\", $D_oracle_IOPS") IOPS) in this run"
		D_oracle_IOPS=$D_static16_IOPS D_oracle_P99=$D_static16_P99 D_oracle_Q=$D_static16_Q
		D_oracle_R=$D_static16_R D_oracle_N=$D_static16_N
	fi
}
# Jain's fairness index of the two LUNs' IOPS: (a + n)^2 / (2 (a^2 + n^2))
jain() { calc "a = $1; n = $2; printf \"%.2f\", (a + n > 0) ? (a + n) * (a + n) / (2 * (a * a + n * n)) : 0"; }
