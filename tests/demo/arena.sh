#!/bin/sh
# tests/demo/arena.sh [--quick] [--check] [--todo T,T] [--trace] [--only S,S]
#   [--scenario FILE] [--policies P,P] [--sweep D,D] [-o DIR] -- the arena:
# every policy it is given, in a set of scenarios (scenario files),
# scored against an oracle computed in the same run.  Runs inside the VM
# (make arena boots it on the instruction-counting clock, where a run
# repeats; tests/vm/t-arena.sh runs it --quick --check).
#   scenarios: the files of arena/scenarios/ (their format and each
#     key's meaning: arena/scenarios/README.md), in the order of their
#     names: knee1, knee64, capacity, target, hostile, wcache, bubble,
#     pool4, ramp and mixed, each with its LUN, load, phases, objective
#     and bound (each file's header says what it is)
#   --only S,S    these scenarios of the set only (by name)
#   --scenario FILE  a scenario file instead of the set (several: one
#                 --scenario each); checked before anything runs, a bad
#                 file refused with FILE:LINE and what is wrong
#                 (tests/lib/scenario-file.sh)
#   --sweep D,D   the static depths of the oracle's sweep (4,8,12,16,24,32)
#   --trace       keep every policy's answers (below), not only the BPF
#                 policies': the trace event costs a built-in's run a few
#                 instructions a window, so its scores may move by a
#                 hair against a run without
#   policies (--policies, all by default): knee (auto:knee), target
#     (auto:target, target_us = the scenario's target_ms; only where
#     it has one: target), linux,
#     sd, sd-fc (the reactions), static16, and on kernels that take BPF
#     policies aimd, kyber and parda (policies/*.bpf.c) and any FILE.bpf.o
#     given (a BPF policy of yours: named FILE, its path as the guest sees
#     it -- scripts/arena copies it there); each starts at the scenario's
#     depth (a BPF policy with auto_max 64)
#   the oracle: a policy a user would accept.  For each phase of a
#     scenario (the conditions it holds still: channels, other initiators
#     there or not, ramp's rate), a sweep of static depths run with that
#     phase held; the best depth per phase: among the depths refused at
#     most QF_MAX (2) times a second (the bound auto must meet; none is:
#     the fewest QUEUE FULLs), then among those that meet the scenario's
#     bound (if any does; none does: the lowest latency it judges), most
#     IOPS; within 1% of it, fewer QUEUE FULLs, then a latency lower by
#     5%, then the lower depth; the oracle's IOPS is their time-weighted mean, its
#     latency the worst phase's.  It must not be beaten by a static policy
#     of the same run: when static16 meets the bound and the QUEUE FULL
#     bound and does better by more than 0.5% (a run's spread; in wcache
#     and ramp a latency lower by 5%), it is the oracle, and the table
#     says so.  The table's header says the QUEUE FULL bound.
#   scores per policy and scenario: IOPS / oracle, the scenario's latency
#     (response p99 unless said; what the bound judges, where it is not
#     that latency, on a line below the table) / oracle's, QUEUE FULL/s,
#     LUN resets, Jain's index (with the neighbour in hostile, over the
#     four in pool4), time to settle (the depth sampled every 0.25 s
#     inside +-25% of the phase's oracle depth from then to the phase's
#     end; the longest over the phases; - when it never does); a policy
#     over the bound, or refused more than QF_MAX times a second, or below
#     90% of the oracle's IOPS, or at 1.5 times its latency, is said to
#     lose, and by how much.  The score column of arena.json and
#     arena.svg: IOPS / oracle, in wcache and ramp the oracle's latency /
#     the policy's.
#   one number per policy, printed last (and in arena.txt, arena.json's
#     "overall"): the geometric mean of its scores over the scenarios it
#     ran, a scenario over its bound or over QF_MAX QUEUE FULLs a second
#     counting as FLOOR (0.1), as does a score under it (wcache's 1/2492
#     would hide every other scenario); a fixed floor, not the worst
#     policy's score, so that the number does not depend on which other
#     policies ran
#   arena.txt (the table), arena.json, arena.svg (the score, a bar per
#   policy and scenario; pale where over the bound), arena.csv (every
#   run), arena-depth-SCENARIO.svg (each policy's depth over its run, a
#   line each, and the oracle's depth per phase) and arena-depth.csv (the
#   same: scenario, policy, ms since the load started, the depth from then
#   on), the depth also in arena.json ("depth": [[ms, depth], ...] per
#   score).  The depth comes from the device's throttle log (dmsetup
#   message NAME 0 throttle log: every move, its time and cause), read
#   once a second (it keeps the last 128 moves) and at the run's end; the
#   settle time is measured on it every 0.25 s.  A BPF policy's run (any
#   policy's with --trace) keeps the kernel's trace buffer in
#   arena-trace-SCENARIO-POLICY.txt: every answer (lunq:lunq_pol_answer,
#   with the window it saw) and the program's bpf_printk() lines, in the
#   order they came (the buffer keeps the last 1.4 MB a CPU).  Off the
#   instruction-counting clock (scripts/arena --bpf: plain TCG) the table
#   and arena.json say the scores are noisy and not comparable with the
#   icount tables
# --quick   8 s a phase (16 in full; ramp's steps half of it)
# --check   the controller's thresholds at reduced length, a check line each,
#           for auto:knee (auto:target in target) in every scenario it
#           ran: IOPS >= 0.85 x the oracle's ("iops"), within the
#           scenario's bound ("bound", where it has one), its latency <=
#           1.25 x the oracle's ("lat"; wcache's and ramp's score), 0 LUN
#           resets ("resets"), <= QF_MAX QUEUE FULLs a second ("qfull");
#           where a scenario has a bound, the oracle meets it; in bubble,
#           lunqbench's read max agrees with lunq's on every static depth
#           of the sweep (t-arena, t-arena-bounds)
# --todo T,T  thresholds of --check not met yet (by the controller of the
#           day): each T is SCENARIO:CRITERION, SCENARIO, CRITERION or
#           all; such a failure is still printed, with "# TODO issue 48",
#           and not counted in the exit status (a pass says it is listed)
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/demo/lib.sh"
. "$LUNQ_SRC/tests/lib/scenario.sh"
. "$LUNQ_SRC/tests/lib/scenario-file.sh"
# without the module every run fails to create its device: say so once,
# not as a table of zeros
[ -d /sys/module/dm_lunq ] ||
	{ echo "arena: dm-lunq is not loaded in the guest (build it first: make all; make arena does)"; exit 1; }

POLICIES="knee target linux sd sd-fc static16 aimd kyber parda"
QUICK=0 CHECK=0 OUT=${LUNQ_OUT:-/tmp/arena} ONLY= FILES= POLS=$POLICIES TODO= TRACE=0
SWEEP="4 8 12 16 24 32"
QF_MAX=2	# QUEUE FULLs a second: the most a policy a user would accept
FLOOR=0.1	# the one number: a scenario over its bound counts as this
CRITS="iops bound lat resets qfull"	# --check's thresholds (--todo)
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--check) CHECK=1 ;;
	--only) ONLY=$(echo "$2" | tr ',' ' '); shift ;;
	--scenario) FILES="$FILES $2"; shift ;;
	--policies) POLS=$(echo "$2" | tr ',' ' '); shift ;;
	--sweep) SWEEP=$(echo "$2" | tr ',' ' '); shift ;;
	--todo) TODO=$(echo "$2" | tr ',' ' '); shift ;;
	--trace) TRACE=1 ;;
	-o) OUT=$2; shift ;;
	*) echo "arena.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
# the scenarios: each file read and checked before anything runs; SCN_n
# the file of the scenario named n
[ -n "$FILES" ] || FILES=$(ls "$LUNQ_SRC"/arena/scenarios/*.scn)
SCENARIOS=
for f in $FILES; do
	scn_read "$f" || { echo "arena.sh: $f is not a scenario the arena can run (arena/scenarios/README.md)" >&2; exit 2; }
	v=SCN_$(echo "$S_NAME" | tr -- - _)
	eval "[ -z \"\${$v:-}\" ]" || { echo "arena.sh: two scenarios named '$S_NAME' (- and _ alike)" >&2; exit 2; }
	SCENARIOS="$SCENARIOS $S_NAME"
	eval "$v=\$f"
done
SCENARIOS=${SCENARIOS# }
[ -n "$ONLY" ] || ONLY=$SCENARIOS
for s in $ONLY; do
	case " $SCENARIOS " in *" $s "*) ;;
	*) echo "arena.sh: unknown scenario '$s' ($(echo $SCENARIOS | sed 's/ /, /g'))" >&2; exit 2 ;; esac
done
# scn SCEN: its file read (checked above)
scn() { eval "scn_read \"\$SCN_$(echo "$1" | tr -- - _)\""; }
for t in $TODO; do
	_ts=${t%%:*} _tc=${t#*:}
	[ "$_ts" = "$t" ] && { case " $CRITS " in *" $t "*) _ts=all ;; *) _tc=all ;; esac; }
	case " all $SCENARIOS " in *" $_ts "*) ;; *) _ts=; esac
	case " all $CRITS " in *" $_tc "*) ;; *) _tc=; esac
	[ -n "$_ts" ] && [ -n "$_tc" ] || {
		echo "arena.sh: --todo takes SCENARIO:CRITERION, SCENARIO, CRITERION or all (criteria: $(echo $CRITS | sed 's/ /, /g')), not '$t'" >&2; exit 2; }
done
for d in $SWEEP; do
	case $d in ''|*[!0-9]*) echo "arena.sh: --sweep takes depths 1..1024, not '$d'" >&2; exit 2 ;; esac
	[ "$d" -ge 1 ] && [ "$d" -le 1024 ] || { echo "arena.sh: --sweep takes depths 1..1024, not '$d'" >&2; exit 2; }
done
# a policy's name (FILE for FILE.bpf.o), its variable's, its BPF object
name_of() { case $1 in *.bpf.o) basename "$1" .bpf.o ;; *) echo "$1" ;; esac; }
var_of() { name_of "$1" | tr -c 'A-Za-z0-9\n' '_'; }
bpf_of() {
	case $1 in
	aimd|kyber|parda) echo "$LUNQ_SRC/build/policies/$1.bpf.o" ;;
	*.bpf.o) echo "$1" ;;
	esac
}
NAMES=
for p in $POLS; do
	case $p in
	*.bpf.o)
		[ -f "$p" ] || { echo "arena.sh: no BPF policy file '$p'" >&2; exit 2; }
		case $(name_of "$p") in oracle|*[!A-Za-z0-9_-]*|'')
			echo "arena.sh: a BPF policy's file is named by letters, digits, - and _ before .bpf.o (and not oracle): '$p'" >&2; exit 2 ;; esac ;;
	*) case " $POLICIES " in *" $p "*) ;;
		*) echo "arena.sh: unknown policy '$p' ($(echo $POLICIES | sed 's/ /, /g'), or a FILE.bpf.o)" >&2; exit 2 ;; esac ;;
	esac
	v=$(var_of "$p")
	case " $NAMES " in *" $v "*) echo "arena.sh: two policies named '$(name_of "$p")'" >&2; exit 2 ;; esac
	NAMES="$NAMES $v"
done
mkdir -p "$OUT" || exit 2
if [ $QUICK = 1 ]; then T=8; else T=16; fi
BPF=$(cat /sys/module/dm_lunq/parameters/bpf_policies 2>/dev/null)
keep=
for p in $POLS; do
	o=$(bpf_of "$p")
	if [ -n "$o" ] && { [ "$BPF" != Y ] || [ ! -f "$o" ]; }; then
		echo "  ($(name_of "$p") left out: $(uname -r) takes no BPF policies, or $o is missing)"
		continue
	fi
	keep="$keep $p"
done
POLS=$keep

nb=$(nullb_create arena_nb 512 hw_queue_depth=256 irqmode=2 completion_nsec=8000000) ||
	{ echo "null_blk failed"; exit 1; }
nb2=$(nullb_create arena_nb2 512 hw_queue_depth=256) || { echo "null_blk failed"; exit 1; }
# lower=own (pool4): a null_blk per LUN (without a completion delay, as
# t-pool-share's), made only when such a scenario runs
np=0
for s in $ONLY; do
	scn "$s"
	[ "$S_LOWER" = own ] && [ "$S_LUNS" -gt $np ] && np=$S_LUNS
done
k=1
while [ $k -le $np ]; do
	eval "pb$k=\$(nullb_create arena_pb$k 256 hw_queue_depth=256)" || { echo "null_blk failed"; exit 1; }
	k=$((k + 1))
done
echo "scenario,run,policy,seconds,iops,lat_ns,qfull_s,resets,neighbour_iops,settle_ms,bound_lat_ns" > "$OUT/arena.csv"
# every policy's depth over its run (and the oracle's per phase): from ms
# on (since the load started), depth; a run's last row is its end
echo "scenario,policy,ms,depth" > "$OUT/arena-depth.csv"
: > /tmp/arena-phases
: > /tmp/arena-scores

# the scenario read last (scn): what the arena needs of it
# plen: the seconds of a phase (in a run of the whole scenario, and a
# phase held alone for the sweep); --quick halves the file's phase_s
plen() { if [ $QUICK = 1 ]; then echo $((S_PHASE_S / 2)); else echo "$S_PHASE_S"; fi; }
# lph_ms: ms from one phase to the next in a run of the whole scenario
# (changes=foreign: the other initiators' half period)
lph_ms() { if [ "$S_CHANGES" = foreign ]; then echo $((S_FPERIOD / 2)); else echo $(($(plen) * 1000)); fi; }
# lower_of nb|nb2: the null_blk's device
lower_of() { case $1 in nb) echo "$nb" ;; nb2) echo "$nb2" ;; esac; }
# bound_ns: the bound of its objective (ns; 0: none)
bound_ns() { echo $((S_BOUND_MS * 1000000)); }
# latobj: true where the objective is a latency (an open loop: the IOPS
# are the load's); the score is then the oracle's latency / the run's
latobj() { [ "$S_GOAL" = latency ]; }
# measure M DEV JSON: the latency M of the run just done (ns): resp:KEY
# lunqbench's response KEY (JSON), HIST:KEY lunq's histogram HIST of DEV
# (wait_read ... total_write), PHASE:KEY its reads and writes together
measure() {
	case ${1%%:*} in
	resp) lbv "$3" ".totals.percentiles_ns.response[\"${1#*:}\"]" ;;
	*_*) pct "$2" "${1%%:*}" "${1#*:}" ;;
	*) pct2 "$2" "${1%%:*}" "${1#*:}" ;;
	esac
}
# lat_of M: latency M of the run just done (luns > 1: the worst LUN's)
lat_of() {
	if [ "$S_LUNS" = 1 ]; then measure "$1" aq /tmp/arena-aq.json; return; fi
	for _d in $_devs; do measure "$1" "$_d" "/tmp/arena-$_d.json"; done | sort -n | tail -1
}
# the policy's words (start depth $2); nothing when the policy does not
# apply to the scenario (auto:target needs a target)
words_of() {
	case $1 in
	knee) echo "qdepth=$2 auto=knee" ;;
	target) [ -n "$S_TARGET_MS" ] && echo "qdepth=$2 auto=target target_us=$((S_TARGET_MS * 1000))" ;;
	linux) echo "qdepth=$2 reaction=linux" ;;
	sd) echo "qdepth=$2 reaction=sd" ;;
	sd-fc) echo "qdepth=$2 reaction=sd-fc" ;;
	static16) echo "qdepth=16" ;;
	aimd|kyber|parda|*.bpf.o) echo "qdepth=$2 auto_max=64" ;;
	q*) echo "qdepth=${1#q}" ;;
	esac
}
# the LUN's words for the whole scenario: its first phase, which the run
# then changes (changes=set), or the other initiators' coming and going
# (changes=foreign); changes=rate: none (the load's)
whole_of() {
	case $S_CHANGES in
	foreign) echo "$S_PH_1 foreign_period_ms=$S_FPERIOD" ;;
	rate) ;;
	*) echo "$S_PH_1" ;;
	esac
}
# the phases joined by SEP, each a label (its words joined by +)
phases_joined() {
	_pj= _k=1
	while [ $_k -le $S_NPH ]; do _pj="$_pj${_pj:+$1}$(scn_label $_k)"; _k=$((_k + 1)); done
	echo "$_pj"
}

# steps TLOG CRTIME_NS T0_MS END_MS DEPTH0: the depth over a run, from
# the device's throttle log ("MS FROM TO CAUSE" a move, MS since the
# device was created; read every second, blocks ending in "--", as it
# keeps only the last 128 moves): "MS DEPTH" from MS on (ms since the load
# started, T0_MS on the guest's clock; CRTIME_NS, the device's creation on
# the monotonic clock), the first at 0 (DEPTH0, the depth read then, when
# no move tells it: the table's depth is not a move), the last at END_MS
# (the run's end); "gap N" last when N stretches of moves were lost
# between two reads (none expected)
steps() {
	awk -v c="$2" -v t0="$3" -v end="$4" -v d0="$5" '
		$0 == "--" { if (bn == 0) next
			k = 0
			if (n > 0) for (i = bn; i >= 1; i--) if (b[i] == e[n]) { k = i; break }
			if (n > 0 && k == 0) gaps++
			for (i = k + 1; i <= bn; i++) e[++n] = b[i]
			bn = 0; next }
		NF == 4 && $1 ~ /^[0-9]+$/ { b[++bn] = $0 }
		END {
			off = int(c / 1e6) - t0; d = d0
			for (i = 1; i <= n; i++) {
				split(e[i], f, " "); t = f[1] + off
				if (t > 0) { d = f[2]; break }
				d = f[3]
			}
			print 0, d
			for (; i <= n; i++) {
				split(e[i], f, " "); t = f[1] + off
				if (t >= end) break
				if (f[3] != d) print t, f[3]
				d = f[3]
			}
			print end, d
			if (gaps) print "gap", gaps
		}' "$1"
}

# run SCEN LABEL POLICY [PHASE]: one run of plen s a phase of the
# scenario read last (PHASE: that phase's words alone, held as long);
# sets R_IOPS R_LAT R_Q R_R R_N R_J (and R_LBMAX, lunqbench's response
# max), R_GAPS; the depth over the run in /tmp/arena.steps ("ms depth"
# from ms on, steps above), and sampled from it every 0.25 s in
# /tmp/arena.depth ("ms depth").  luns > 1 (pool4): the policy on its
# devices (aq, aq2, ...) at once, each with its load; R_IOPS their sum,
# R_Q the worst device's, R_R the sum, R_J Jain's index over them, the
# depth the first device's.  changes=rate (ramp): a lunqbench run per
# phase at its rate, lunq's statistics reset before each (its latency is
# the phase's; R_LAT the worst phase's).  changes=set (capacity): each
# later phase's words set (lunqctl set) at its start.  load2 (mixed): a
# second load beside the first, R_IOPS both.  neighbour (hostile): its
# LUN and load beside, R_N its IOPS, R_J Jain's index with it.
# trace_keep FILE: the trace buffer empty, lunq_pol_answer on, until
# trace_kept FILE writes the buffer (answers, bpf_printk) to FILE
TR=/sys/kernel/tracing
trace_keep() {
	[ -d $TR/events ] || mount -t tracefs tracefs $TR 2>/dev/null
	[ -d $TR/events/lunq/lunq_pol_answer ] ||
		{ echo "arena: no trace event lunq:lunq_pol_answer for $1" >&2; return 1; }
	echo > $TR/trace
	echo 1 > $TR/events/lunq/lunq_pol_answer/enable
	echo 1 > $TR/tracing_on
}
trace_kept() {
	echo 0 > $TR/events/lunq/lunq_pol_answer/enable
	cat $TR/trace > "$1"
	echo > $TR/trace
}

run() {
	_sc=$1 _lb=$2 _po=$3 _ph=${4:-}
	_w=$(words_of "$_po" "$S_START")
	_pl=$(plen)
	if [ -n "$_ph" ]; then _n=1 _steps=$_ph; else _n=$S_NPH; _steps=$(phases_joined ' '); _ph=$(whole_of); fi
	_t=$((_pl * _n))
	_lw=$(for _x in $_ph; do case $_x in rate=*) ;; *) printf '%s ' "$_x" ;; esac; done)
	_devs=aq _k=2
	while [ $_k -le "$S_LUNS" ]; do _devs="$_devs aq$_k"; _k=$((_k + 1)); done
	_k=0
	for _d in $_devs; do
		_k=$((_k + 1))
		if [ "$S_LOWER" = own ]; then eval "_low=\$pb$_k"; else _low=$(lower_of "$S_LOWER"); fi
		scen_create "$_lb" "$_d" $_low $S_LUN $_lw $_w || return 1
	done
	if [ -n "$S_NB" ]; then
		scen_create "$_lb" nq "$(lower_of "${S_NB%% *}")" ${S_NB#* } || return 1
	fi
	_o=$(bpf_of "$_po")
	# a policy's run (not the sweep's) keeps its answers and bpf_printk()s
	_tr=
	if [ -z "${4:-}" ] && { [ -n "$_o" ] || [ "$TRACE" = 1 ]; }; then
		_tr=$OUT/arena-trace-$_sc-$(name_of "$_po").txt
		trace_keep "$_tr" || return 1
	fi
	if [ -n "$_o" ]; then scen_attach "$_lb" "$_o" $_devs || return 1; fi
	_t0=$(now_ms) _d0=$(st aq throttle) _cr=$(st aq crtime_ns)
	# the throttle log, read once a second (one dmsetup a second, the
	# guest's only work beside the load): exact times of every move
	( _i=0; while [ $_i -lt "$_t" ]; do
		sleep 1; dmsetup message aq 0 throttle log; echo --; _i=$((_i + 1)); done ) > /tmp/arena.tlog 2>&1 &
	_s=$!
	_sch=
	if [ "$S_CHANGES" = set ] && [ "$_n" -gt 1 ]; then
		( _k=2; while [ $_k -le "$_n" ]; do
			eval "_x=\$S_PH_$_k"
			sleep "$_pl"
			for _d in $_devs; do lunqctl set "$_d" $_x > /dev/null; done
			_k=$((_k + 1))
		  done ) &
		_sch=$!
	fi
	_nn=
	if [ -n "$S_NB" ]; then
		lbrun nq "$_t" /tmp/arena-nq.json $S_NB_LOAD &
		_nn=$!
	elif [ -n "$S_LOAD2" ]; then
		lbrun aq "$_t" /tmp/arena-w.json $S_LOAD2 &
		_nn=$!
	fi
	R_Q=0 R_R=0 R_LAT=0 R_IOPS=0
	if [ "$S_LUNS" -gt 1 ]; then
		_pids=
		for _d in $_devs; do
			lbrun "$_d" "$_t" "/tmp/arena-$_d.json" $S_LOAD &
			_pids="$_pids $!"
		done
		wait $_pids
	elif [ "$S_CHANGES" = rate ]; then
		for _x in $_steps; do
			R_Q=$((R_Q + $(st aq qfull))) R_R=$((R_R + $(st aq resets)))
			dmsetup message aq 0 stats reset
			lbrun aq "$_pl" /tmp/arena-aq.json $S_LOAD --iorate "${_x#rate=}"
			_l=$(lat_of "$S_LAT")
			calc "exit !(${_l:-0} > $R_LAT)" && R_LAT=${_l:-0}
			R_IOPS=$(calc "print $R_IOPS + $(lbv /tmp/arena-aq.json .totals.iops) / $_n")
		done
	else
		lbrun aq "$_t" /tmp/arena-aq.json $S_LOAD
	fi
	wait $_s $_sch $_nn
	[ -z "$_tr" ] || trace_kept "$_tr"
	{ dmsetup message aq 0 throttle log; echo --; } >> /tmp/arena.tlog 2>&1
	steps /tmp/arena.tlog "$_cr" "$_t0" $((_t * 1000)) "$_d0" > /tmp/arena.steps
	R_GAPS=$(awk '$1 == "gap" { print $2 }' /tmp/arena.steps)
	R_GAPS=${R_GAPS:-0}
	sed -i '/^gap /d' /tmp/arena.steps
	awk -v end=$((_t * 1000)) '{ t[NR] = $1; d[NR] = $2 }
		END { k = 1; for (s = 0; s < end; s += 250) { while (k < NR && t[k + 1] <= s) k++; print s, d[k] } }' \
		/tmp/arena.steps > /tmp/arena.depth
	R_LBMAX=$(lbv /tmp/arena-aq.json '.totals.percentiles_ns.response.max')
	R_N=0 R_J=-
	if [ "$S_LUNS" -gt 1 ]; then
		_qm=0
		for _d in $_devs; do
			_x=$(st "$_d" qfull); [ "$_x" -gt "$_qm" ] && _qm=$_x
			R_R=$((R_R + $(st "$_d" resets)))
			lbv "/tmp/arena-$_d.json" .totals.iops
		done > /tmp/arena-luns.iops
		R_IOPS=$(awk '{ s += $1 } END { print s + 0 }' /tmp/arena-luns.iops)
		R_J=$(jain $(cat /tmp/arena-luns.iops))
		R_Q=$(calc "printf \"%.2f\", $_qm / $_t")
		R_LAT=$(lat_of "$S_LAT")
	elif [ "$S_CHANGES" = rate ]; then
		R_Q=$(calc "printf \"%.2f\", ($R_Q + $(st aq qfull)) / $_t")
		R_R=$((R_R + $(st aq resets)))
	else
		R_IOPS=$(lbv /tmp/arena-aq.json .totals.iops)
		[ -z "$S_LOAD2" ] || R_IOPS=$(calc "print $R_IOPS + $(lbv /tmp/arena-w.json .totals.iops)")
		R_LAT=$(lat_of "$S_LAT")
		R_Q=$(calc "printf \"%.2f\", $(st aq qfull) / $_t")
		R_R=$(st aq resets)
	fi
	# the latency the bound judges, where it is not the latency
	R_BLAT=$R_LAT
	[ "$S_BLAT" = "$S_LAT" ] || R_BLAT=$(lat_of "$S_BLAT")
	if [ -n "$S_NB" ]; then R_N=$(lbv /tmp/arena-nq.json .totals.iops) R_J=$(jain "$R_IOPS" "$R_N"); fi
	scen_down
	return 0
}

# better IOPS LAT BLAT QFULL_S BOUND BI BL BB BQ: the run (IOPS LAT BLAT
# QFULL_S; BLAT the latency the bound judges) beats the best so far (BI
# BL BB BQ; BI 0: none) -- at most QF_MAX QUEUE FULLs a second first (a
# depth refused more often is no policy a user would accept; where
# neither is, the fewer QUEUE FULLs); then meeting BOUND (ns, 0: none);
# then most IOPS; within 1% of it, fewer QUEUE FULLs, then a latency lower
# by 5% (the sweep goes up, so a tie keeps the lower depth); where neither
# meets the bound, the lower latency the bound judges
better() {
	calc "i = $1; l = $2; lb = $3; q = $4; b = $5; bi = $6; bl = $7; bb = $8; bq = $9; qm = $QF_MAX
		if (bi == 0) exit 0
		qok = (q <= qm); bqok = (bq <= qm)
		if (qok != bqok) exit !qok
		if (!qok && q < bq - 0.005) exit 0
		if (!qok && q > bq + 0.005) exit 1
		ok = (b == 0 || lb <= b); bok = (b == 0 || bb <= b)
		if (ok != bok) exit !ok
		if (!ok) exit !(lb < bb)
		exit !(i > 1.01 * bi || (i >= 0.99 * bi && (q < bq - 0.5 || (q <= bq + 0.5 && l < 0.95 * bl))))"
}
# beats SCEN IOPS LAT BLAT BOUND O_IOPS O_LAT QFULL_S: a static policy's
# run beats the sweep's oracle: within the bound (BLAT, the latency it
# judges) and at most QF_MAX QUEUE FULLs a second, more IOPS by over 0.5%
# (a run's spread); in wcache and ramp (the load's IOPS), a latency lower
# by 5%
beats() {
	calc "exit !($8 <= $QF_MAX)" || return 1
	if latobj; then
		calc "exit !($2 >= 0.99 * $6 && $3 < 0.95 * $7)"
	else
		calc "exit !($2 > 1.005 * $6 && ($5 == 0 || $4 <= $5))"
	fi
}
csv() { echo "$*" | tr ' ' ',' >> "$OUT/arena.csv"; }
JSON=
TXT=$OUT/arena.txt
: > "$TXT"
say() { echo "$*"; echo "$*" >> "$TXT"; }
r3() { calc "printf \"%.${3:-3}f\", $2 ? $1 / $2 : 0"; }
# score SCEN IOPS LAT: the objective against the oracle's (O_IOPS O_LAT):
# IOPS / oracle's, in wcache and ramp the oracle's latency / this one's
score() { if latobj; then r3 "$O_LAT" "$3" 4; else r3 "$2" "$O_IOPS" 4; fi; }
# todo SCEN CRIT: the threshold CRIT of SCEN is listed in --todo
todo() {
	for _t in $TODO; do
		case $_t in all|"$1"|"$2"|"$1:$2"|"$1:all"|"all:$2") return 0 ;; esac
	done
	return 1
}
# tcheck SCEN CRIT RC TEXT: one of --check's thresholds, through check; a
# failure listed in --todo is said (# TODO) and not counted
tcheck() {
	if ! todo "$1" "$2"; then
		check "$3" "$4"
	elif [ "$3" = 0 ]; then
		check 0 "$4 (listed in --todo $1:$2: it passes now)"
	else
		check 1 "$4 # TODO issue 48 (--todo $1:$2: not counted)"
		FAILS=$((FAILS - 1))
	fi
}

say "the arena: $(date -u '+%Y-%m-%d %H:%M:%S UTC'), kernel $(uname -r), clock ${LUNQ_VM_ACCEL:-tcg}; $T s a phase"
say "  scores against the oracle of the same run (oracle: the best static depth per phase with at most $QF_MAX QUEUE FULLs a second, from a sweep of $SWEEP)"
# off the instruction-counting clock (--bpf: the plain TCG clock) a run
# does not repeat: say so in the table and the JSON
CLOCK=${LUNQ_VM_ACCEL:-tcg} CLOCK_NOTE=
[ "$CLOCK" = icount ] ||
	CLOCK_NOTE="clock $CLOCK, not icount: these scores are noisy (a run does not repeat) and not comparable with the icount tables of make arena"
[ -z "$CLOCK_NOTE" ] || say "  NOTE: $CLOCK_NOTE"
for sc in $ONLY; do
	scn "$sc"
	B=$(bound_ns) LN=$S_LAT_NAME BN=$S_BLAT_NAME
	say ""
	say "--- $sc ($(phases_joined ' -> '), the policies start at depth $S_START; objective: $S_OBJECTIVE)"
	# the sweep: each distinct phase held alone (a phase run once for
	# every scenario with the same LUN, load, latency and bound: scn_key)
	O_DEPTHS= O_IOPS=0 O_LAT=0 O_BLAT=0 O_N=0 O_Q=0 O_R=0 O_J=0 O_OK=1 O_QOK=1 np=0
	while [ $np -lt $S_NPH ]; do
		np=$((np + 1))
		eval "ph=\$S_PH_$np"
		phl=$(scn_label $np)
		key=k$(printf '%s' "$(scn_key)|$ph" | md5sum | cut -c1-16)
		eval "bd=\${SW_${key}_D:-}"
		if [ -z "$bd" ]; then
			bd=0 bi=0 bl=0 bb=0 bn=0 bq=0 br=0 bj=-
			for d in $SWEEP; do
				run "$sc" "sweep $phl q$d" "q$d" "$ph" || continue
				csv "$sc" sweep "q$d/$phl" "$(plen)" "$R_IOPS" "$R_LAT" "$R_Q" "$R_R" "$R_N" - "$R_BLAT"
				# observer=lunqbench-max (bubble): lunqbench's
				# response max (lunq's time and the submission's)
				# over the bound where lunq's is
				if [ "$S_OBSERVER" = lunqbench-max ] && [ $CHECK = 1 ]; then
					calc "exit !(($R_LAT > $B) == ($R_LBMAX > $B) && $R_LBMAX >= $R_LAT)"
					check $? "$sc, static $d: lunqbench's read max $(ms "$R_LBMAX") ms and lunq's $(ms "$R_LAT") ms on the same side of $(ms "$B") ms"
				fi
				if better "$R_IOPS" "$R_LAT" "$R_BLAT" "$R_Q" "$B" "$bi" "$bl" "$bb" "$bq"; then
					bd=$d bi=$R_IOPS bl=$R_LAT bb=$R_BLAT bn=$R_N bq=$R_Q br=$R_R bj=$R_J
				fi
			done
			eval "SW_${key}_D=$bd SW_${key}_I=$bi SW_${key}_L=$bl SW_${key}_B=$bb SW_${key}_N=$bn SW_${key}_Q=$bq SW_${key}_R=$br SW_${key}_J=$bj"
			qn=
			calc "exit !($bq > 0)" && qn=", $bq QUEUE FULL/s"
			calc "exit !($bq > $QF_MAX)" && qn="$qn (no depth of the sweep within $QF_MAX QUEUE FULLs a second: the fewest)"
			bx=
			[ "$BN" = "$LN" ] || bx=", $BN $(ms "$bb") ms"
			say "  sweep, $phl held: best static depth $bd, $(calc "printf \"%.0f\", $bi") IOPS, $LN $(ms "$bl") ms$bx$qn"
		fi
		eval "bd=\$SW_${key}_D bi=\$SW_${key}_I bl=\$SW_${key}_L bb=\$SW_${key}_B bn=\$SW_${key}_N bq=\$SW_${key}_Q br=\$SW_${key}_R bj=\$SW_${key}_J"
		O_DEPTHS="$O_DEPTHS $bd"
		O_IOPS=$(calc "print $O_IOPS + $bi") O_N=$(calc "print $O_N + $bn") O_Q=$(calc "print $O_Q + $bq") O_R=$((O_R + br))
		[ "$bj" = - ] || O_J=$(calc "print $O_J + $bj")
		calc "exit !($bl > $O_LAT)" && O_LAT=$bl
		calc "exit !($bb > $O_BLAT)" && O_BLAT=$bb
		calc "exit !($bq > $QF_MAX)" && O_QOK=0
	done
	O_IOPS=$(calc "print $O_IOPS / $np") O_N=$(calc "print $O_N / $np") O_FROM="sweep"
	O_Q=$(calc "printf \"%.2f\", $O_Q / $np")
	O_J=$(calc "printf \"%.2f\", $O_J / $np")
	[ "$B" = 0 ] || calc "exit !($O_BLAT <= $B)" || O_OK=0
	[ $O_OK = 1 ] || say "  no static depth of the sweep meets the bound: the oracle is the lowest $BN"
	# every policy over the whole scenario
	RAN=
	for p in $POLS; do
		[ -n "$(words_of "$p" 1)" ] || continue
		run "$sc" "$(name_of "$p")" "$p" || continue
		RAN="$RAN $p"
		L=$(lph_ms)
		st_ms=$(settle /tmp/arena.depth "$L" $(($(plen) * np * 1000)) "$O_DEPTHS")
		csv "$sc" policy "$(name_of "$p")" $(($(plen) * np)) "$R_IOPS" "$R_LAT" "$R_Q" "$R_R" "$R_N" "$st_ms" "$R_BLAT"
		pv=$(var_of "$p")
		eval "P_${pv}_IOPS=$R_IOPS P_${pv}_LAT=$R_LAT P_${pv}_BL=$R_BLAT P_${pv}_Q=$R_Q P_${pv}_R=$R_R P_${pv}_N=$R_N P_${pv}_J=$R_J P_${pv}_S=$st_ms P_${pv}_G=$R_GAPS"
		cp /tmp/arena.steps "/tmp/arena-steps-$pv"
		awk -v s="$sc" -v p="$(name_of "$p")" '{ print s "," p "," $1 "," $2 }' /tmp/arena.steps >> "$OUT/arena-depth.csv"
		[ "$R_GAPS" = 0 ] || say "  ($(name_of "$p"): $R_GAPS stretches of its depth's moves lost between two reads of the throttle log)"
		# a static policy that beats the sweep's oracle (by more than
		# 0.5%, the spread of a run, within the bound and at most
		# QF_MAX QUEUE FULLs a second) is the oracle
		if [ "$p" = static16 ] && beats "$sc" "$R_IOPS" "$R_LAT" "$R_BLAT" "$B" "$O_IOPS" "$O_LAT" "$R_Q"; then
			say "  static16 beat the sweep's oracle ($(calc "printf \"%.0f\", $O_IOPS") IOPS, $LN $(ms "$O_LAT") ms): it is the oracle of this run"
			O_IOPS=$R_IOPS O_LAT=$R_LAT O_BLAT=$R_BLAT O_N=$R_N O_Q=$R_Q O_R=$R_R O_FROM=static16
			O_OK=1	# beats: within the bound
			[ "$R_J" = - ] || O_J=$R_J
		fi
	done
	# the oracle's depth: its depth per phase, the phases every L ms
	L=$(lph_ms) E=$(($(plen) * np * 1000))
	awk -v ds="$O_DEPTHS" -v l="$L" -v end="$E" 'BEGIN {
		n = split(ds, d, " "); p = -1
		for (t = 0; t < end; t += l) { k = int(t / l) % n + 1; if (d[k] != p) print t, d[k]; p = d[k] }
		print end, p }' > /tmp/arena-steps-oracle
	awk -v s="$sc" '{ print s ",oracle," $1 "," $2 }' /tmp/arena-steps-oracle >> "$OUT/arena-depth.csv"
	echo "$sc $L $E $(phases_joined ' ')" >> /tmp/arena-phases
	say "$(printf '  %-9s %9s %8s %12s %8s %8s %7s %6s %9s' policy IOPS "/oracle" "$LN" "/oracle" QFULL/s resets Jain settle)"
	BX=
	for p in $RAN oracle; do
		nm=$(name_of "$p")
		if [ $p = oracle ]; then
			i=$O_IOPS l=$O_LAT lb=$O_BLAT q=$O_Q r=$O_R n=$O_N s="-" g=0 pv=oracle j=-
			[ "$S_LUNS" -gt 1 ] && j=$O_J
		else
			pv=$(var_of "$p")
			eval "i=\$P_${pv}_IOPS l=\$P_${pv}_LAT lb=\$P_${pv}_BL q=\$P_${pv}_Q r=\$P_${pv}_R n=\$P_${pv}_N j=\$P_${pv}_J s=\$P_${pv}_S g=\$P_${pv}_G"
			[ "$s" = -1 ] && s=never || s="$s ms"
		fi
		[ -n "$S_NB" ] && j=$(jain "$i" "$n")
		mb=$(calc "print ($B == 0 || $lb <= $B) ? 1 : 0")	# meets the bound
		say "$(printf '  %-9s %9.0f %8s %9s ms %8s %8s %7s %6s %9s' "$nm" "$i" "$(r3 "$i" "$O_IOPS")" "$(ms "$l")" "$(r3 "$l" "$O_LAT" 2)" "$q" "$r" "$j" "$s")"
		JSON="$JSON{\"scenario\": \"$sc\", \"policy\": \"$nm\", \"iops\": $i, \"iops_vs_oracle\": $(r3 "$i" "$O_IOPS" 4), \"lat\": \"$LN\", \"lat_ns\": $l, \"lat_vs_oracle\": $(r3 "$l" "$O_LAT" 4), \"bound_ns\": $([ "$B" = 0 ] && echo null || echo "$B"), \"bound_lat\": \"$BN\", \"bound_lat_ns\": $lb, \"qfull_s\": $q, \"resets\": $r, \"jain\": $([ "$j" = - ] && echo null || echo "$j"), \"settle_ms\": $(case $s in never|-) echo null ;; *) echo "${s% ms}" ;; esac), \"score\": $(score "$sc" "$i" "$l"), \"meets_bound\": $([ "$mb" = 1 ] && echo true || echo false), \"within_qfull\": $(calc "print ($q <= $QF_MAX) ? \"true\" : \"false\""), \"depth\": [$(awk '{ printf("%s[%d, %d]", (NR > 1 ? ", " : ""), $1, $2) }' "/tmp/arena-steps-$pv")], \"depth_gaps\": $g},"
		echo "$nm $sc $(score "$sc" "$i" "$l") $mb $q" >> /tmp/arena-scores
		BX="$BX, $nm $(ms "$lb") ms"
	done
	[ "$BN" = "$LN" ] || say "  ($BN, what the bound judges:${BX#,})"
	say "  (oracle: $O_FROM; its depths per phase:$O_DEPTHS)"
	eval "O_${sc}_IOPS=$O_IOPS O_${sc}_LAT=$O_LAT"
	# where a policy loses, and by how much
	for p in $RAN; do
		pv=$(var_of "$p") nm=$(name_of "$p")
		eval "i=\$P_${pv}_IOPS l=\$P_${pv}_LAT lb=\$P_${pv}_BL"
		eval "q=\$P_${pv}_Q"
		if [ "$B" != 0 ] && calc "exit !($lb > $B)"; then
			say "  $nm loses: its $BN $(ms "$lb") ms is over the bound of $(ms "$B") ms"
		elif calc "exit !($q > $QF_MAX)"; then
			say "  $nm loses: it is refused $q times a second, over the bound of $QF_MAX QUEUE FULLs a second"
		elif latobj && calc "exit !($l > 1.5 * $O_LAT)"; then
			say "  $nm loses: its $LN $(ms "$l") ms is $(r3 "$l" "$O_LAT" 1)x the oracle's"
		elif calc "exit !($i < 0.9 * $O_IOPS)"; then
			say "  $nm loses: it gets $(calc "printf \"%.0f%% of the oracle's IOPS, %.0f fewer a second\", 100 * $i / $O_IOPS, $O_IOPS - $i")"
		elif calc "exit !($l > 1.5 * $O_LAT)"; then
			say "  $nm loses on latency: its $LN $(ms "$l") ms is $(r3 "$l" "$O_LAT" 1)x the oracle's"
		fi
	done
	if [ $CHECK = 1 ] && [ "$B" != 0 ]; then
		[ $O_OK = 1 ]
		check $? "$sc: the oracle ($O_FROM, depths$O_DEPTHS) meets the bound: $BN $(ms "$O_BLAT") ms <= $(ms "$B") ms"
	fi
	# the controller's thresholds at reduced length, for auto:knee
	# (auto:target in target): each a check line, a failure listed in
	# --todo said and not counted
	cp=knee cn=auto:knee
	[ -n "$S_TARGET_MS" ] && cp=target cn=auto:target
	eval "i=\${P_${cp}_IOPS:-}"
	if [ $CHECK = 1 ] && [ -n "$i" ]; then
		eval "l=\$P_${cp}_LAT lb=\$P_${cp}_BL q=\$P_${cp}_Q r=\$P_${cp}_R"
		calc "exit !($i >= 0.85 * $O_IOPS)"
		tcheck "$sc" iops $? "$sc: $cn $(calc "printf \"%.0f\", $i") IOPS >= 0.85 x the oracle's $(calc "printf \"%.0f\", $O_IOPS") (same run)"
		if [ "$B" != 0 ]; then
			calc "exit !($lb <= $B)"
			tcheck "$sc" bound $? "$sc: $cn's $BN $(ms "$lb") ms within the bound of $(ms "$B") ms"
		fi
		calc "exit !($l <= 1.25 * $O_LAT)"
		tcheck "$sc" lat $? "$sc: $cn's $LN $(ms "$l") ms <= 1.25 x the oracle's $(ms "$O_LAT") ms$(latobj && echo " (the scenario's score)")"
		[ "$r" = 0 ]
		tcheck "$sc" resets $? "$sc: $cn caused $r LUN resets (want 0)"
		calc "exit !($q <= $QF_MAX)"
		tcheck "$sc" qfull $? "$sc: $cn $q QUEUE FULLs a second$([ "$S_LUNS" -gt 1 ] && echo " (the worst device)") <= $QF_MAX"
	elif [ $CHECK = 1 ] && case " $POLS " in *" $cp "*) true ;; *) false ;; esac; then
		say "  (--check: $cn did not run in $sc: its thresholds are not checked)"
	fi
	unset $(for pv in $NAMES; do echo "P_${pv}_IOPS P_${pv}_LAT P_${pv}_BL P_${pv}_Q P_${pv}_R P_${pv}_N P_${pv}_J P_${pv}_S P_${pv}_G"; done)
	rm -f /tmp/arena-steps-*
done
# the one number per policy: the geometric mean, over the scenarios it
# ran, of its score in each (the score column: IOPS / oracle, in wcache
# and ramp the oracle's latency / its own); a scenario over its bound, or
# over QF_MAX QUEUE FULLs a second, counts as FLOOR, as does a score under
# it (one near 0 would hide every other scenario).  (busybox's awk has no
# log, exp or fractional powers: the product's n-th root by Newton's
# method)
awk -v f="$FLOOR" -v qm="$QF_MAX" '
	function root(x, n,   r, k, j, y) {
		r = 1
		for (k = 0; k < 200; k++) { y = 1; for (j = 1; j < n; j++) y *= r; r = ((n - 1) * r + x / y) / n }
		return r
	}
	{ s = $3; fl = 0
	  if ($4 != 1 || $5 > qm || s < f) { s = f; fl = 1 }
	  if (!($1 in n)) { ord[++k] = $1; pr[$1] = 1 }
	  n[$1]++; pr[$1] *= s; nf[$1] += fl }
	END { for (i = 1; i <= k; i++) { p = ord[i]; printf "%s %.3f %d %d\n", p, root(pr[p], n[p]), n[p], nf[p] } }' \
	/tmp/arena-scores > /tmp/arena-overall
OVERALL=$(awk '{ printf "%s{\"policy\": \"%s\", \"score\": %s, \"scenarios\": %d, \"floored\": %d}", (NR > 1 ? ", " : ""), $1, $2, $3, $4 }' /tmp/arena-overall)
echo "{\"kernel\": \"$(uname -r)\", \"clock\": \"$CLOCK\", \"comparable_with_icount\": $([ -z "$CLOCK_NOTE" ] && echo true || echo false), \"clock_note\": $([ -z "$CLOCK_NOTE" ] && echo null || echo "\"$CLOCK_NOTE\""), \"phase_s\": $T, \"qfull_max_s\": $QF_MAX, \"floor\": $FLOOR, \"scores\": [${JSON%,}], \"overall\": [$OVERALL]}" > "$OUT/arena.json"
jq . "$OUT/arena.json" > /dev/null 2>&1 || echo "arena.json does not parse"

# arena.svg: IOPS / oracle, one group of bars per scenario, a bar per policy
jq -r '.scores[] | "\(.scenario) \(.policy) \(.score) \(.meets_bound)"' "$OUT/arena.json" |
	awk -v plot=scores -f "$LUNQ_SRC/tests/lib/svg.awk" > "$OUT/arena.svg"
# arena-depth-SCENARIO.svg: each policy's depth over its run, a line each
# (the colours of arena.svg), the oracle's depth per phase dashed
awk -F, -v plot=depth -v out="$OUT" -f "$LUNQ_SRC/tests/lib/svg.awk" /tmp/arena-phases "$OUT/arena-depth.csv"
echo "arena.txt, arena.json, arena.svg, arena.csv, arena-depth.csv and arena-depth-SCENARIO.svg in $OUT"
# last: the one number per policy
say ""
say "--- one number per policy: the geometric mean of its scores over the scenarios it ran (a scenario over its bound or over $QF_MAX QUEUE FULLs a second counts as $FLOOR, as does a score under it)"
say "$(printf '  %-9s %7s %10s %8s' policy score scenarios floored)"
while read -r p v n f; do
	say "$(printf '  %-9s %7s %10s %8s' "$p" "$v" "$n" "$f")"
done < /tmp/arena-overall
exit $FAILS
