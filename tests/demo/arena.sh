# tests/demo/arena.sh [--quick] [--check] [--only S,S] [--policies P,P]
#   [-o DIR] -- the arena: every policy it is given, in a fixed set of
# scenarios, scored against an oracle computed in the same run.  Runs
# inside the VM (make arena boots it on the instruction-counting clock,
# where a run repeats; tests/vm/t-arena.sh runs it --quick --check on the
# hostile pool).
#   scenarios (--only, all by default):
#     knee1     flash model, 16 channels x 8 ms, closed loop QD 64, the
#               policy starting at depth 1
#     knee64    the same from depth 64
#     capacity  the same from 32, channels 16 -> 4 -> 16 (a third each)
#     hostile   seed 004's pool (tests/demo/hostile.sh): 32 slots, a busy
#               neighbour at static 8, other initiators holding 16 slots
#               half of every 8 s, LUN reset after 10 QUEUE FULLs in a row
#   --sweep D,D   the static depths of the oracle's sweep (4,8,12,16,24,32)
#   policies (--policies, all by default): knee (auto:knee), linux, sd,
#     sd-fc (the reactions), static16, and on kernels that take BPF policies
#     aimd (policies/aimd.bpf.c); each starts at the scenario's depth
#   the oracle: for each phase of a scenario (the conditions it holds
#     still: channels, other initiators there or not), a sweep of static
#     depths run with that phase held; the best depth (most IOPS; within
#     1% of it, fewer QUEUE FULLs, then a response p99 lower by 5%, then
#     the lower depth) per phase; the oracle's IOPS is their time-weighted
#     mean, its p99 the worst phase's.  It must not be beaten by a static
#     policy of the same run: when static16 does better by more than 0.5%
#     (a run's spread), it is the oracle, and the table says so.
#   scores per policy and scenario: IOPS / oracle, response p99 / oracle,
#     QUEUE FULL/s, LUN resets, Jain's index with the neighbour (hostile),
#     time to settle (the depth sampled every 0.25 s inside +-25% of the
#     phase's oracle depth from then to the phase's end; the longest over
#     the phases; - when it never does)
#   arena.txt (the table), arena.json, arena.svg (IOPS / oracle, a bar
#   per policy and scenario), arena.csv (every run)
# --quick   8 s a phase (16 in full)   --check  the issue's criteria for
#           auto:knee in the hostile pool, at reduced length: IOPS >= 0.8
#           x the oracle's, 0 resets (t-arena)
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/demo/lib.sh"
. "$LUNQ_SRC/tests/demo/hostile.sh"

QUICK=0 CHECK=0 OUT=${LUNQ_OUT:-/tmp/arena} ONLY="knee1 knee64 capacity hostile"
SWEEP="4 8 12 16 24 32"
POLS="knee linux sd sd-fc static16 aimd"
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--check) CHECK=1 ;;
	--only) ONLY=$(echo "$2" | tr ',' ' '); shift ;;
	--policies) POLS=$(echo "$2" | tr ',' ' '); shift ;;
	--sweep) SWEEP=$(echo "$2" | tr ',' ' '); shift ;;
	-o) OUT=$2; shift ;;
	*) echo "arena.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
for s in $ONLY; do
	case $s in knee1|knee64|capacity|hostile) ;;
	*) echo "arena.sh: unknown scenario '$s' (knee1, knee64, capacity, hostile)" >&2; exit 2 ;; esac
done
for p in $POLS; do
	case $p in knee|linux|sd|sd-fc|static16|aimd) ;;
	*) echo "arena.sh: unknown policy '$p' (knee, linux, sd, sd-fc, static16, aimd)" >&2; exit 2 ;; esac
done
mkdir -p "$OUT" || exit 2
if [ $QUICK = 1 ]; then T=8; else T=16; fi
P_D=8000	# hostile: the others there 4 s, away 4 s, as in 6D
AIMD=$LUNQ_SRC/build/policies/aimd.bpf.o
if [ "$(cat /sys/module/dm_lunq/parameters/bpf_policies 2>/dev/null)" != Y ] || [ ! -f "$AIMD" ]; then
	case " $POLS " in *" aimd "*)
		echo "  (aimd left out: $(uname -r) takes no BPF policies, or $AIMD is missing)" ;; esac
	POLS=$(echo " $POLS " | sed 's/ aimd / /; s/^ //; s/ $//')
fi

nb=$(nullb_create arena_nb 512 hw_queue_depth=256 irqmode=2 completion_nsec=8000000) ||
	{ echo "null_blk failed"; exit 1; }
nb2=$(nullb_create arena_nb2 512 hw_queue_depth=256) || { echo "null_blk failed"; exit 1; }
FLASH="model=flash svc_us=8000"
echo "scenario,run,policy,seconds,iops,resp_p99_ns,qfull_s,resets,neighbour_iops,settle_ms" > "$OUT/arena.csv"

# the scenario's start depth and phases: "WORDS SHARE" per phase, in order
start_of() { case $1 in knee1) echo 1 ;; knee64) echo 64 ;; capacity) echo 32 ;; hostile) echo 16 ;; esac; }
phases_of() {
	case $1 in
	knee1|knee64) echo "channels=16" ;;
	capacity) echo "channels=16 channels=4 channels=16" ;;
	hostile) echo "foreign=16 foreign=0" ;;
	esac
}
# the policy's words (start depth $2)
words_of() {
	case $1 in
	knee) echo "qdepth=$2 auto=knee" ;;
	linux) echo "qdepth=$2 reaction=linux" ;;
	sd) echo "qdepth=$2 reaction=sd" ;;
	sd-fc) echo "qdepth=$2 reaction=sd-fc" ;;
	static16) echo "qdepth=16" ;;
	aimd) echo "qdepth=$2 auto_max=64" ;;
	q*) echo "qdepth=${1#q}" ;;
	esac
}

# run SCEN LABEL POLICY [PHASE]: one run of T s a phase (PHASE: that
# phase alone, held for T s); sets R_IOPS R_P99 R_Q R_R R_N, the depth
# samples in /tmp/arena.depth ("ms depth")
run() {
	_sc=$1 _lb=$2 _po=$3 _ph=${4:-}
	_w=$(words_of "$_po" "$(start_of "$_sc")")
	if [ -n "$_ph" ]; then _n=1; else _n=$(phases_of "$_sc" | wc -w); fi
	_t=$((T * _n))
	case $_sc in
	hostile)
		_f="foreign=16 foreign_period_ms=$P_D"
		[ -n "$_ph" ] && _f=$_ph
		lunqctl create aq "$nb" pool=arena pool_depth=32 $_f reset_after=10 reset_ms=500 \
			$FLASH channels=16 $_w > /dev/null || { echo "create aq ($_lb) failed"; return 1; }
		lunqctl create nq "$nb2" pool=arena $FLASH channels=16 qdepth=8 > /dev/null ||
			{ echo "create nq failed"; lunqctl remove aq > /dev/null; return 1; } ;;
	*)
		lunqctl create aq "$nb" $FLASH ${_ph:-channels=16} $_w > /dev/null ||
			{ echo "create aq ($_lb) failed"; return 1; } ;;
	esac
	if [ "$_po" = aimd ]; then
		lunqctl policy attach aq "$AIMD" > /dev/null || echo "policy attach ($_lb) failed"
	fi
	_t0=$(now_ms)
	( _i=0; while [ $_i -lt $((_t * 4)) ]; do
		echo "$(($(now_ms) - _t0)) $(st aq throttle)"; sleep 0.25; _i=$((_i + 1)); done ) > /tmp/arena.depth &
	_s=$!
	_sch=
	if [ "$_sc" = capacity ] && [ -z "$_ph" ]; then
		( sleep "$T"; lunqctl set aq channels=4 > /dev/null
		  sleep "$T"; lunqctl set aq channels=16 > /dev/null ) &
		_sch=$!
	fi
	_nn=
	if [ "$_sc" = hostile ]; then
		lb nq "$_t" 0 /tmp/arena-nq.json --iodepth 32 &
		_nn=$!
		lb aq "$_t" 0 /tmp/arena-aq.json --iodepth 32
	else
		lb aq "$_t" 0 /tmp/arena-aq.json
	fi
	wait $_s $_sch $_nn
	R_IOPS=$(lbv /tmp/arena-aq.json .totals.iops)
	R_P99=$(lbv /tmp/arena-aq.json '.totals.percentiles_ns.response.p99')
	R_Q=$(calc "printf \"%.2f\", $(st aq qfull) / $_t")
	R_R=$(st aq resets)
	R_N=0
	[ -n "$_nn" ] && R_N=$(lbv /tmp/arena-nq.json .totals.iops)
	[ "$_po" = aimd ] && lunqctl policy detach aq > /dev/null 2>&1
	lunqctl remove aq > /dev/null
	[ "$_sc" = hostile ] && lunqctl remove nq > /dev/null
	return 0
}

# settle FILE MS "D D ...": the phases follow one another every MS ms
# (cycling through the list); for each, the ms from its start until the
# depth stays within +-25% of its oracle depth D to its end; the longest;
# -1 when one never settles
settle() {
	awk -v l="$2" -v ds="$3" 'BEGIN { n = split(ds, d, " "); seg = -1; m = 0 }
		function done() { if (seg >= 0 && (since < 0 || m < 0)) m = -1; else if (seg >= 0 && since > m) m = since }
		{ k = int($1 / l); if (k != seg) { done(); seg = k; since = -1 }
		  i = k % n + 1
		  if ($2 >= 0.75 * d[i] && $2 <= 1.25 * d[i]) { if (since < 0) since = $1 - k * l }
		  else since = -1 }
		END { done(); print m }' "$1"
}

csv() { echo "$*" | tr ' ' ',' >> "$OUT/arena.csv"; }
JSON=
TXT=$OUT/arena.txt
: > "$TXT"
say() { echo "$*"; echo "$*" >> "$TXT"; }

say "the arena: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), kernel $(uname -r), clock ${LUNQ_VM_ACCEL:-tcg}; $T s a phase"
say "  scores against the oracle of the same run (best static depth per phase, from a sweep of $SWEEP)"
for sc in $ONLY; do
	say ""
	say "--- $sc ($(phases_of "$sc" | sed 's/ / -> /g'), the policies start at depth $(start_of "$sc"))"
	# the sweep: each distinct phase held alone
	O_DEPTHS= O_IOPS=0 O_P99=0 O_N=0 np=0
	for ph in $(phases_of "$sc"); do
		np=$((np + 1))
		key=lun_$(echo "$ph" | tr '=' '_')
		[ "$sc" = hostile ] && key=pool_$(echo "$ph" | tr '=' '_')
		eval "bd=\${SW_${key}_D:-}"
		if [ -z "$bd" ]; then
			bd=0 bi=0 bp=0 bn=0 bq=0
			for d in $SWEEP; do
				run "$sc" "sweep $ph q$d" "q$d" "$ph" || continue
				csv "$sc" sweep "q$d/$ph" "$T" "$R_IOPS" "$R_P99" "$R_Q" "$R_R" "$R_N" -
				# most IOPS; within 1% of it, fewer QUEUE FULLs, then
				# a lower p99 (by 5%), then the lower depth
				if calc "exit !($R_IOPS > 1.01 * $bi || ($R_IOPS >= 0.99 * $bi &&
					($R_Q < $bq - 0.5 || ($R_Q <= $bq + 0.5 && $R_P99 < 0.95 * $bp))))"; then
					bd=$d bi=$R_IOPS bp=$R_P99 bn=$R_N bq=$R_Q
				fi
			done
			eval "SW_${key}_D=$bd SW_${key}_I=$bi SW_${key}_P=$bp SW_${key}_N=$bn"
			say "  sweep, $ph held: best static depth $bd, $(calc "printf \"%.0f\", $bi") IOPS, response p99 $(ms "$bp") ms"
		fi
		eval "bd=\$SW_${key}_D bi=\$SW_${key}_I bp=\$SW_${key}_P bn=\$SW_${key}_N"
		O_DEPTHS="$O_DEPTHS $bd"
		O_IOPS=$(calc "print $O_IOPS + $bi") O_N=$(calc "print $O_N + $bn")
		calc "exit !($bp > $O_P99)" && O_P99=$bp
	done
	O_IOPS=$(calc "print $O_IOPS / $np") O_N=$(calc "print $O_N / $np") O_FROM="sweep"
	# every policy over the whole scenario
	for p in $POLS; do
		run "$sc" "$p" "$p" || continue
		if [ "$sc" = hostile ]; then L=$((P_D / 2)); else L=$((T * 1000)); fi
		st_ms=$(settle /tmp/arena.depth "$L" "$O_DEPTHS")
		csv "$sc" policy "$p" $((T * np)) "$R_IOPS" "$R_P99" "$R_Q" "$R_R" "$R_N" "$st_ms"
		pv=$(echo "$p" | tr '-' '_')
		eval "P_${pv}_IOPS=$R_IOPS P_${pv}_P99=$R_P99 P_${pv}_Q=$R_Q P_${pv}_R=$R_R P_${pv}_N=$R_N P_${pv}_S=$st_ms"
		# a static policy that beats the sweep's oracle (by more than
		# 0.5%, the spread of a run) is the oracle
		if [ "$p" = static16 ] && calc "exit !($R_IOPS > 1.005 * $O_IOPS)"; then
			say "  static16 beat the sweep's oracle ($(calc "printf \"%.0f\", $O_IOPS") IOPS): it is the oracle of this run"
			O_IOPS=$R_IOPS O_P99=$R_P99 O_N=$R_N O_FROM=static16
		fi
	done
	say "$(printf '  %-9s %9s %8s %10s %9s %8s %7s %6s %9s' policy IOPS "/oracle" "resp p99" "/oracle" QFULL/s resets Jain settle)"
	for p in $POLS oracle; do
		if [ $p = oracle ]; then
			i=$O_IOPS pp=$O_P99 q=0.00 r=0 n=$O_N s="-"
		else
			pv=$(echo "$p" | tr '-' '_')
			eval "i=\${P_${pv}_IOPS:-} pp=\${P_${pv}_P99:-} q=\${P_${pv}_Q:-} r=\${P_${pv}_R:-} n=\${P_${pv}_N:-} s=\${P_${pv}_S:-}"
			[ -n "$i" ] || continue
			[ "$s" = -1 ] && s=never || s="$s ms"
		fi
		j=-
		[ "$sc" = hostile ] && j=$(jain "$i" "$n")
		say "$(printf '  %-9s %9.0f %8s %7s ms %9s %8s %7s %6s %9s' "$p" "$i" "$(calc "printf \"%.3f\", $i / $O_IOPS")" "$(ms "$pp")" "$(calc "printf \"%.2f\", $O_P99 ? $pp / $O_P99 : 0")" "$q" "$r" "$j" "$s")"
		JSON="$JSON{\"scenario\": \"$sc\", \"policy\": \"$p\", \"iops\": $i, \"iops_vs_oracle\": $(calc "printf \"%.4f\", $i / $O_IOPS"), \"resp_p99_ns\": $pp, \"p99_vs_oracle\": $(calc "printf \"%.4f\", $O_P99 ? $pp / $O_P99 : 0"), \"qfull_s\": $q, \"resets\": $r, \"jain\": $([ "$j" = - ] && echo null || echo "$j"), \"settle_ms\": $(case $s in never) echo null ;; -) echo null ;; *) echo "${s% ms}" ;; esac)},"
	done
	say "  (oracle: $O_FROM; its depths per phase:$O_DEPTHS)"
	eval "O_${sc}_IOPS=$O_IOPS"
	# where a policy loses, by how much
	for p in $POLS; do
		eval "i=\${P_$(echo "$p" | tr '-' '_')_IOPS:-}"
		[ -n "$i" ] || continue
		calc "exit !($i < 0.9 * $O_IOPS)" &&
			say "  $p loses: it gets $(calc "printf \"%.0f%% of the oracle's IOPS, %.0f fewer a second\", 100 * $i / $O_IOPS, $O_IOPS - $i")"
	done
	if [ $CHECK = 1 ] && [ "$sc" = hostile ]; then
		calc "exit !(${P_knee_IOPS:-0} >= 0.8 * $O_IOPS)"
		check $? "hostile: auto:knee $(calc "printf \"%.0f\", ${P_knee_IOPS:-0}") IOPS >= 0.8 x the oracle's $(calc "printf \"%.0f\", $O_IOPS") (same run)"
		[ "${P_knee_R:--1}" = 0 ]
		check $? "hostile: auto:knee caused ${P_knee_R:-?} LUN resets (want 0)"
	fi
	unset $(for p in $POLS; do pv=$(echo "$p" | tr '-' '_'); echo "P_${pv}_IOPS P_${pv}_P99 P_${pv}_Q P_${pv}_R P_${pv}_N P_${pv}_S"; done)
done
echo "{\"kernel\": \"$(uname -r)\", \"clock\": \"${LUNQ_VM_ACCEL:-tcg}\", \"phase_s\": $T, \"scores\": [${JSON%,}]}" > "$OUT/arena.json"
jq . "$OUT/arena.json" > /dev/null 2>&1 || echo "arena.json does not parse"

# arena.svg: IOPS / oracle, one group of bars per scenario, a bar per policy
jq -r '.scores[] | "\(.scenario) \(.policy) \(.iops_vs_oracle)"' "$OUT/arena.json" | awk '
	{ if (!($1 in si)) { si[$1] = ++ns; sn[ns] = $1 }
	  if (!($2 in pi)) { pi[$2] = ++np; pn[np] = $2 }
	  v[si[$1], pi[$2]] = $3 }
	END {
		split("#4e79a7 #f28e2b #e15759 #76b7b2 #59a14f #bab0ac", col, " ")
		bw = 14; gw = np * bw + 24; W = 70 + ns * gw + 130; H = 260; y0 = 220; sc = 160 / 1.2
		printf "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">\n", W, H
		printf "<text x=\"%d\" y=\"16\" font-size=\"13\">the arena: IOPS / oracle (best static depth per phase)</text>\n", 70
		for (t = 0; t <= 1.2; t += 0.2) {
			y = y0 - t * sc
			printf "<line x1=\"60\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\" stroke=\"%s\"/>\n", 70 + ns * gw, y, y, (t > 0.99 && t < 1.01) ? "#000" : "#ddd"
			printf "<text x=\"55\" y=\"%.1f\" text-anchor=\"end\">%.1f</text>\n", y + 4, t
		}
		printf "<text x=\"14\" y=\"%d\" transform=\"rotate(-90 14 %d)\" text-anchor=\"middle\">IOPS / oracle</text>\n", y0 - 80, y0 - 80
		for (s = 1; s <= ns; s++) {
			x = 70 + (s - 1) * gw
			for (p = 1; p <= np; p++) {
				if (!((s, p) in v)) continue
				h = v[s, p] * sc; if (h > 1.2 * sc) h = 1.2 * sc
				printf "<rect x=\"%d\" y=\"%.1f\" width=\"%d\" height=\"%.1f\" fill=\"%s\"><title>%s %s %.3f</title></rect>\n", x + (p - 1) * bw, y0 - h, bw - 2, h, col[(p - 1) % 6 + 1], sn[s], pn[p], v[s, p]
			}
			printf "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>\n", x + np * bw / 2, y0 + 16, sn[s]
		}
		for (p = 1; p <= np; p++) {
			lx = 80 + ns * gw; ly = 40 + p * 16
			printf "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>\n", lx, ly - 9, col[(p - 1) % 6 + 1], lx + 14, ly, pn[p]
		}
		print "</svg>"
	}' > "$OUT/arena.svg"
echo "arena.txt, arena.json, arena.svg and arena.csv in $OUT"
exit $FAILS
