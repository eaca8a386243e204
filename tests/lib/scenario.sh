# tests/lib/scenario.sh: what the scenario scripts share -- the arena
# (tests/demo/arena.sh), demonstrations 6 and 11 (auto.sh and policy.sh,
# through hostile.sh) and t-pool-share -- sourced after tests/vm/lib.sh
# (busybox sh in the VM; ms NS, NS in ms with two decimals, is there).
# Their plots: tests/lib/svg.awk.
#   calc EXPR          awk's BEGIN { EXPR }
#   st DEV STAT        a counter of DEV (/sys/kernel/lunq/DEV/stats/STAT)
#   pct DEV HIST KEY   KEY (p50 ... p99.99, max) of lunq's histogram HIST
#                      of DEV (wait_read, service_read, total_write...), ns,
#                      from lunqctl hist's JSON
#   pct2 DEV PHASE KEY KEY of DEV's reads and writes together: PHASE's
#                      (total, wait, service) two histograms merged, as
#                      lunq takes a percentile (the upper end of the
#                      bucket that holds it, at most the max)
#   lbrun DEV SECONDS OUT [ARGS]: lunqbench on /dev/mapper/DEV, its JSON in
#                      OUT (intervals of 0.5 s); a failure prints its stderr
#   lb DEV SECONDS WARMUP OUT [ARGS]: the same at QD 64 after WARMUP s
#   lbv FILE JQ        a value of lunqbench's JSON (0 when missing)
#   jain A B ...       Jain's fairness index of the numbers, JAIN_DIGITS
#                      decimals (2)
#   sampler OUT SECONDS PERIOD DEV:STAT...: in the background (pid in
#                      _smp) for SECONDS, every PERIOD s, a line "MS V..."
#                      (MS: now_ms, V: each counter) into OUT
#   settled FILE FROM TO LO HI: ms after FROM until the sampled depth ($2
#                      of a sampler's lines) stays in [LO, HI] up to TO
#                      (rows with $3 == 4, auto's one-window probes, left
#                      out); -1 if it never does
#   settle FILE MS END "D D ...": the phases follow one another every MS
#                      ms up to END, cycling through the list; for each,
#                      settled within +-25% of its D; the longest, -1 when
#                      one never settles
#   seed004 POOL       seed 004's pool words (32 slots, LUN reset after 10
#                      QUEUE FULLs in a row, SEED004_FLASH: the flash model,
#                      16 channels x 8 ms); SEED004_FOREIGN: other
#                      initiators holding 16 slots half of every 8 s
#   scen_create LABEL DEV WORDS...: lunqctl create DEV WORDS, DEV added to
#                      SCEN_DEVS; a failure says so, takes them down, 1
#   scen_attach LABEL OBJ DEV...: BPF policy OBJ on each DEV (taken off by
#                      scen_down); a failure says so, takes them down, 1
#   scen_down          every device of SCEN_DEVS removed
calc() { awk "BEGIN { $1 }"; }
st() { lq_stat "$@"; }
pct() {
	lunqctl hist "--${2%_*}" "--${2#*_}" -j "$1" |
		jq -r --arg k "$3" '.[0] | if $k == "max" then .max else .percentiles[$k] end'
}
pct2() {
	lunqctl hist "--$2" -j "$1" | jq -r --arg k "$3" '
		(map(.max) | max) as $m
		| if $k == "max" then $m else
		(($k | ltrimstr("p") | tonumber) * 100 | round) as $pt
		| [.[].buckets[]] | group_by(.[0]) | map([.[0][1], (map(.[2]) | add)]) | sort_by(.[0]) as $b
		| ($b | map(.[1]) | add // 0) as $n
		| if $n == 0 then 0 else
		  ((($n * $pt + 9999) / 10000) | floor) as $want
		  | first(foreach $b[] as $x (0; . + $x[1]; if . >= $want then ([$x[0], $m] | min) else empty end))
		  end end'
}

# (their variables _b*: a caller's _d, _t, _o... stay as they were)
lbrun() {
	_bd=$1 _bt=$2 _bo=$3
	shift 3
	lunqbench --json --elapsed "$_bt" --interval 0.5 "$@" "/dev/mapper/$_bd" > "$_bo" 2> "$_bo.err" ||
		{ cat "$_bo.err"; echo "lunqbench failed"; }
}
lb() {
	_bd=$1 _bt=$2 _bw=$3 _bo=$4
	shift 4
	lbrun "$_bd" "$_bt" "$_bo" --iodepth 64 --warmup "$_bw" "$@"
}
lbv() { jq -r "$2" "$1" 2>/dev/null || echo 0; }
# (a + b + ...)^2 / (n (a^2 + b^2 + ...))
jain() {
	echo "$@" | awk -v p="${JAIN_DIGITS:-2}" '{ for (i = 1; i <= NF; i++) { s += $i; q += $i * $i }
		printf "%." p "f\n", (q > 0) ? s * s / (NF * q) : 0 }'
}

sampler() {
	_so=$1 _ss=$2 _sp=$3
	shift 3
	( _t0=$(now_ms); while _l=$(now_ms); [ $((_l - _t0)) -lt $((_ss * 1000)) ]; do
		for _x in "$@"; do _l="$_l $(st "${_x%%:*}" "${_x#*:}")"; done
		echo "$_l"; sleep "$_sp"; done ) > "$_so" &
	_smp=$!
}
settled() {
	awk -v f="$2" -v e="$3" -v lo="$4" -v hi="$5" 'BEGIN { since = -1 }
		$1 < f || $1 > e || $3 == 4 { next }
		$2 >= lo && $2 <= hi { if (since < 0) since = $1 - f; next }
		{ since = -1 }
		END { print since }' "$1"
}
settle() {
	_sf=$1 _sl=$2 _se=$3 _sm=0 _sk=0
	set -- $4
	while [ $((_sk * _sl)) -lt "$_se" ]; do
		eval "_sd=\${$((_sk % $# + 1))}"
		_s=$(settled "$_sf" $((_sk * _sl)) $(((_sk + 1) * _sl - 1)) \
			"$(calc "print 0.75 * $_sd")" "$(calc "print 1.25 * $_sd")")
		if [ "$_s" -lt 0 ]; then _sm=-1; break; fi
		[ "$_s" -gt "$_sm" ] && _sm=$_s
		_sk=$((_sk + 1))
	done
	echo "$_sm"
}

SEED004_FLASH="model=flash channels=16 svc_us=8000"
SEED004_PERIOD_MS=8000
SEED004_FOREIGN="foreign=16 foreign_period_ms=$SEED004_PERIOD_MS"
seed004() { echo "pool=$1 pool_depth=32 reset_after=10 reset_ms=500 $SEED004_FLASH"; }

SCEN_DEVS= SCEN_OBJ=
scen_create() {
	_cl=$1 _cd=$2
	shift 2
	lunqctl create "$_cd" "$@" > /dev/null || { echo "create $_cd ($_cl) failed"; scen_down; return 1; }
	SCEN_DEVS="$SCEN_DEVS $_cd"
}
scen_attach() {
	_cl=$1 SCEN_OBJ=$2
	shift 2
	for _cd in "$@"; do
		lunqctl policy attach "$_cd" "$SCEN_OBJ" > /tmp/scen-attach.out 2>&1 && continue
		echo "  $_cl left out: lunqctl policy attach $SCEN_OBJ: $(tail -1 /tmp/scen-attach.out)"
		scen_down
		return 1
	done
}
scen_down() {
	for _cd in $SCEN_DEVS; do
		[ -z "$SCEN_OBJ" ] || lunqctl policy detach "$_cd" > /dev/null 2>&1
		lunqctl remove "$_cd" > /dev/null
	done
	SCEN_DEVS= SCEN_OBJ=
}
