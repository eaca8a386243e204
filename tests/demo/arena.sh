# tests/demo/arena.sh [--quick] [--check] [--todo T,T] [--only S,S]
#   [--policies P,P] [--sweep D,D] [-o DIR] -- the arena: every policy it
# is given, in a fixed set of scenarios, scored against an oracle computed
# in the same run.  Runs inside the VM (make arena boots it on the
# instruction-counting clock, where a run repeats; tests/vm/t-arena.sh
# runs it --quick --check).
#   scenarios (--only, all by default), each with its objective:
#     knee1     flash model, 16 channels x 8 ms, closed loop QD 64, the
#               policy starting at depth 1; most IOPS
#     knee64    the same from depth 64
#     capacity  the same from 32, channels 16 -> 4 -> 16 (a third each)
#     target    a 7200 rpm disk sorting its own queue (lun_order:sptf,
#               lun_depth 32), random reads QD 32, from 32: most IOPS
#               with lunq's service p99 within TARGET_MS (200): a deeper
#               queue sorts better and waits longer
#     hostile   seed 004's pool (tests/lib/scenario.sh): 32 slots, a busy
#               neighbour at static 8, other initiators holding 16 slots
#               half of every 8 s, LUN reset after 10 QUEUE FULLs in a
#               row, from 16; most IOPS
#     wcache    seed 004's writes behind reads: the disk with its write
#               cache on, random reads and writes at 25/s each (open
#               loop), from 2; the lowest write p99 (lunq's total_write:
#               arrival to completion, the wait behind a read included)
#     bubble    demonstration 1's latency bubble: the disk (2 ms a
#               command, 8 ms seeks) under sched:disksort, a sequential
#               stream at QD 16 and 10 far reads/s (lunqbench --preset
#               bubble), from 2; most IOPS with no read over BUBBLE_MS
#               (1000) in lunq (total_read's max)
#     pool4     four LUNs alike in one pool of 32 slots
#               (the flash model, 16 channels each), other initiators
#               holding 16 slots half of every 8 s, LUN reset after 10
#               QUEUE FULLs in a row, QD 32 on each, the policy on all
#               four at once, from 4; most IOPS of the four, scored with
#               Jain's index over the four, the resets of all four and
#               the worst device's QUEUE FULL/s (the depth shown: the
#               first device's)
#     ramp      the flash model (16 channels x 8 ms: the knee's rate is
#               2000/s), an open loop (Poisson, QD up to 64) whose rate
#               climbs and falls in steps of T/2 s: 400 800 1600 2400
#               1600 800 400 IOs/s (20% -> 120% -> 20%), from 4; the
#               lowest p99 of lunq's total_read (lunq's wait included) in
#               the worst step (lunq's statistics reset at each step; a
#               lunqbench run each, the device and its policy kept)
#     mixed     the bubble's disk under sched:disksort: a sequential
#               reader at QD 16 in the second half and 20 random writes a
#               second (open loop) in the first, from 2; most IOPS (both)
#               with no IO over MIXED_MS (1000) in lunq (the max of
#               total_read and total_write); its latency: the p99 of
#               lunq's reads and writes together (total, lunq's wait
#               included) -- the bound judges the slowest IO, one sample
#               of some 2600, too few for a ratio (static 16 against
#               itself in one run, 6.12: 184.80 and 142.77 ms)
#   --sweep D,D   the static depths of the oracle's sweep (4,8,12,16,24,32)
#   policies (--policies, all by default): knee (auto:knee), target
#     (auto:target, target_us = the scenario's; in target only), linux,
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
#   settle time is measured on it every 0.25 s.  Off the
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
# without the module every run fails to create its device: say so once,
# not as a table of zeros
[ -d /sys/module/dm_lunq ] ||
	{ echo "arena: dm-lunq is not loaded in the guest (build it first: make all; make arena does)"; exit 1; }

SCENARIOS="knee1 knee64 capacity target hostile wcache bubble pool4 ramp mixed"
POLICIES="knee target linux sd sd-fc static16 aimd kyber parda"
QUICK=0 CHECK=0 OUT=${LUNQ_OUT:-/tmp/arena} ONLY=$SCENARIOS POLS=$POLICIES TODO=
SWEEP="4 8 12 16 24 32"
TARGET_MS=200 BUBBLE_MS=1000 MIXED_MS=1000
QF_MAX=2	# QUEUE FULLs a second: the most a policy a user would accept
FLOOR=0.1	# the one number: a scenario over its bound counts as this
CRITS="iops bound lat resets qfull"	# --check's thresholds (--todo)
while [ $# -gt 0 ]; do
	case $1 in
	--quick) QUICK=1 ;;
	--check) CHECK=1 ;;
	--only) ONLY=$(echo "$2" | tr ',' ' '); shift ;;
	--policies) POLS=$(echo "$2" | tr ',' ' '); shift ;;
	--sweep) SWEEP=$(echo "$2" | tr ',' ' '); shift ;;
	--todo) TODO=$(echo "$2" | tr ',' ' '); shift ;;
	-o) OUT=$2; shift ;;
	*) echo "arena.sh: unknown argument '$1'" >&2; exit 2 ;;
	esac
	shift
done
for s in $ONLY; do
	case " $SCENARIOS " in *" $s "*) ;;
	*) echo "arena.sh: unknown scenario '$s' ($(echo $SCENARIOS | sed 's/ /, /g'))" >&2; exit 2 ;; esac
done
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
P_D=$SEED004_PERIOD_MS	# hostile: the others there 4 s, away 4 s, as in 6D
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
# pool4: four LUNs alike (null_blk without a completion delay, as
# t-pool-share's), made only when it runs
case " $ONLY " in *" pool4 "*)
	for k in 1 2 3 4; do
		eval "pb$k=\$(nullb_create arena_pb$k 256 hw_queue_depth=256)" || { echo "null_blk failed"; exit 1; }
	done ;;
esac
FLASH="model=flash svc_us=8000"
DISK="model=hdd seek_ms=8 rpm=7200"
echo "scenario,run,policy,seconds,iops,lat_ns,qfull_s,resets,neighbour_iops,settle_ms,bound_lat_ns" > "$OUT/arena.csv"
# every policy's depth over its run (and the oracle's per phase): from ms
# on (since the load started), depth; a run's last row is its end
echo "scenario,policy,ms,depth" > "$OUT/arena-depth.csv"
: > /tmp/arena-phases
: > /tmp/arena-scores

# a scenario: its start depth, its phases ("WORDS" each, in order), the
# LUN's words (the lower device's first), the load (lunqbench's options),
# its latency (what lat_of measures) and the bound of its objective (ns;
# 0: none)
start_of() {
	case $1 in knee1) echo 1 ;; knee64) echo 64 ;; capacity) echo 32 ;; target) echo 32 ;;
	hostile) echo 16 ;; wcache|bubble|mixed) echo 2 ;; pool4|ramp) echo 4 ;; esac
}
# (ramp's phases are the load's rate, rate=N IOs/s: 20% -> 120% -> 20%
# of the knee's 2000, 16 channels x 8 ms)
phases_of() {
	case $1 in
	knee1|knee64) echo "channels=16" ;;
	capacity) echo "channels=16 channels=4 channels=16" ;;
	target) echo "lun_order=sptf" ;;
	hostile|pool4) echo "foreign=16 foreign=0" ;;
	wcache) echo "wce=1" ;;
	bubble|mixed) echo "sched=disksort" ;;
	ramp) echo "rate=400 rate=800 rate=1600 rate=2400 rate=1600 rate=800 rate=400" ;;
	esac
}
# plen_of SCEN: the seconds of a phase (in a run of the whole scenario,
# and a phase held alone for the sweep); ramp's steps are half of T
plen_of() { case $1 in ramp) echo $((T / 2)) ;; *) echo "$T" ;; esac; }
# lph_ms SCEN: ms from one phase to the next in a run of the whole
# scenario (hostile, pool4: the other initiators' half period)
lph_ms() { case $1 in hostile|pool4) echo $((P_D / 2)) ;; *) echo $(($(plen_of "$1") * 1000)) ;; esac; }
# (pool4: the words of each of its four LUNs, the lower device apart)
lun_of() {
	case $1 in
	knee1|knee64|capacity) echo "$nb $FLASH" ;;
	target) echo "$nb2 $DISK svc_us=500 lun_depth=32" ;;
	hostile) echo "$nb $(seed004 arena)" ;;
	pool4) seed004 arena4 ;;
	ramp) echo "$nb $FLASH channels=16" ;;
	wcache) echo "$nb2 $DISK svc_us=500 cache_mb=64" ;;
	bubble|mixed) echo "$nb2 $DISK svc_us=2000 mbps=100" ;;
	esac
}
# (mixed: the sequential reader; the random writes beside it: MIXED_W)
load_of() {
	case $1 in
	knee1|knee64|capacity) echo "--iodepth 64" ;;
	target|hostile|pool4) echo "--iodepth 32" ;;
	wcache) echo "--iorate 50 --rdpct 50" ;;
	bubble) echo "--preset bubble" ;;
	ramp) echo "--iodepth 64" ;;
	mixed) echo "--seekpct 0 --iodepth 16 --range 50-100%" ;;
	esac
}
MIXED_W="--rdpct 0 --seekpct 100 --iorate 20 --range 0-50%"
lat_name() {
	case $1 in
	target) echo "service p99" ;;
	wcache) echo "write p99" ;;
	bubble) echo "read max" ;;
	ramp) echo "total p99" ;;
	mixed) echo "IO p99" ;;
	*) echo "resp p99" ;;
	esac
}
# blat_name SCEN: the latency its bound judges, where that is not its
# latency (lat_name): mixed's bound is on the slowest IO, its latency the
# p99 of all (the slowest of some 2600 IOs is one sample: static 16 gave
# 184.80 and 142.77 ms in one run on 6.12)
blat_name() { case $1 in mixed) echo "IO max" ;; *) lat_name "$1" ;; esac; }
bound_of() {
	case $1 in
	target) echo $((TARGET_MS * 1000000)) ;;
	bubble) echo $((BUBBLE_MS * 1000000)) ;;
	mixed) echo $((MIXED_MS * 1000000)) ;;
	*) echo 0 ;;
	esac
}
# latobj SCEN: true where the objective is a latency (an open loop: the
# IOPS are the load's); the score is then the oracle's latency / the run's
latobj() { case $1 in wcache|ramp) return 0 ;; *) return 1 ;; esac; }
objective_of() {
	case $1 in
	target) echo "most IOPS with service p99 <= $TARGET_MS ms" ;;
	wcache) echo "the lowest write p99 (open loop: the IOPS are the load's)" ;;
	bubble) echo "most IOPS with no read over $BUBBLE_MS ms in lunq" ;;
	pool4) echo "most IOPS of the four (QUEUE FULL/s: the worst device's), fair shares, no reset" ;;
	ramp) echo "the lowest p99 of lunq's total_read, the worst step (open loop: the IOPS are the load's)" ;;
	mixed) echo "most IOPS with no IO over $MIXED_MS ms in lunq" ;;
	*) echo "most IOPS" ;;
	esac
}
# lat_of SCEN JSON: the scenario's latency of the run just done (ns);
# pool4 the worst of its four devices, ramp's the worst step (run)
lat_of() {
	case $1 in
	target) pct aq service_read p99 ;;
	wcache) pct aq total_write p99 ;;
	bubble) pct aq total_read max ;;
	ramp) pct aq total_read p99 ;;
	mixed) pct2 aq total p99 ;;
	pool4) for _d in aq aq2 aq3 aq4; do lbv "/tmp/arena-$_d.json" '.totals.percentiles_ns.response.p99'; done | sort -n | tail -1 ;;
	*) lbv "$2" '.totals.percentiles_ns.response.p99' ;;
	esac
}
# blat_of SCEN LAT: the latency the bound judges of the run just done
# (ns; blat_name): mixed the slowest IO's, else LAT
blat_of() {
	case $1 in
	mixed) pct2 aq total max ;;
	*) echo "$2" ;;
	esac
}
# the policy's words (start depth $2, scenario $3); nothing when the
# policy does not apply to the scenario (auto:target needs a target)
words_of() {
	case $1 in
	knee) echo "qdepth=$2 auto=knee" ;;
	target) [ "$3" = target ] && echo "qdepth=$2 auto=target target_us=$((TARGET_MS * 1000))" ;;
	linux) echo "qdepth=$2 reaction=linux" ;;
	sd) echo "qdepth=$2 reaction=sd" ;;
	sd-fc) echo "qdepth=$2 reaction=sd-fc" ;;
	static16) echo "qdepth=16" ;;
	aimd|kyber|parda|*.bpf.o) echo "qdepth=$2 auto_max=64" ;;
	q*) echo "qdepth=${1#q}" ;;
	esac
}
# the LUN's words for the whole scenario: its first phase, which the run
# then changes (capacity), or the other initiators' coming and going
whole_of() {
	case $1 in
	hostile|pool4) echo "$SEED004_FOREIGN" ;;
	ramp) ;;
	*) phases_of "$1" | cut -d' ' -f1 ;;
	esac
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

# run SCEN LABEL POLICY [PHASE]: one run of plen_of s a phase (PHASE: that
# phase alone, held as long); sets R_IOPS R_LAT R_Q R_R R_N R_J (and
# R_LBMAX, lunqbench's response max), R_GAPS; the depth over the run in
# /tmp/arena.steps ("ms depth" from ms on, steps above), and sampled from
# it every 0.25 s in /tmp/arena.depth ("ms depth").  pool4: the policy on
# its four devices (aq, aq2, aq3, aq4) at once, each with its load; R_IOPS
# their sum, R_Q the worst device's, R_R the sum, R_J Jain's index over
# the four, the depth the first device's.  ramp: a lunqbench run per
# step at its rate, lunq's statistics reset before each (its total_read
# p99 is the step's; R_LAT the worst step's).  mixed: the random writes
# (MIXED_W) beside the load, R_IOPS both.
run() {
	_sc=$1 _lb=$2 _po=$3 _ph=${4:-}
	_w=$(words_of "$_po" "$(start_of "$_sc")" "$_sc")
	_pl=$(plen_of "$_sc")
	if [ -n "$_ph" ]; then _n=1 _steps=$_ph; else _n=$(phases_of "$_sc" | wc -w); _steps=$(phases_of "$_sc"); _ph=$(whole_of "$_sc"); fi
	_t=$((_pl * _n))
	_lw=$(for _x in $_ph; do case $_x in rate=*) ;; *) printf '%s ' "$_x" ;; esac; done)
	if [ "$_sc" = pool4 ]; then _devs="aq aq2 aq3 aq4"; else _devs=aq; fi
	_k=0
	for _d in $_devs; do
		_k=$((_k + 1))
		if [ "$_sc" = pool4 ]; then eval "_low=\$pb$_k"; _low="$_low $(lun_of pool4)"; else _low=$(lun_of "$_sc"); fi
		scen_create "$_lb" "$_d" $_low $_lw $_w || return 1
	done
	if [ "$_sc" = hostile ]; then
		scen_create "$_lb" nq "$nb2" pool=arena $SEED004_FLASH qdepth=8 || return 1
	fi
	_o=$(bpf_of "$_po")
	if [ -n "$_o" ]; then scen_attach "$_lb" "$_o" $_devs || return 1; fi
	_t0=$(now_ms) _d0=$(st aq throttle) _cr=$(st aq crtime_ns)
	# the throttle log, read once a second (one dmsetup a second, the
	# guest's only work beside the load): exact times of every move
	( _i=0; while [ $_i -lt "$_t" ]; do
		sleep 1; dmsetup message aq 0 throttle log; echo --; _i=$((_i + 1)); done ) > /tmp/arena.tlog 2>&1 &
	_s=$!
	_sch=
	if [ "$_sc" = capacity ] && [ "$_n" -gt 1 ]; then
		( sleep "$T"; lunqctl set aq channels=4 > /dev/null
		  sleep "$T"; lunqctl set aq channels=16 > /dev/null ) &
		_sch=$!
	fi
	_nn=
	if [ "$_sc" = hostile ]; then
		lb nq "$_t" 0 /tmp/arena-nq.json --iodepth 32 &
		_nn=$!
	elif [ "$_sc" = mixed ]; then
		lbrun aq "$_t" /tmp/arena-w.json $MIXED_W &
		_nn=$!
	fi
	R_Q=0 R_R=0 R_LAT=0 R_IOPS=0
	if [ "$_sc" = pool4 ]; then
		_pids=
		for _d in $_devs; do
			lbrun "$_d" "$_t" "/tmp/arena-$_d.json" $(load_of "$_sc") &
			_pids="$_pids $!"
		done
		wait $_pids
	elif [ "$_sc" = ramp ]; then
		for _x in $_steps; do
			R_Q=$((R_Q + $(st aq qfull))) R_R=$((R_R + $(st aq resets)))
			dmsetup message aq 0 stats reset
			lbrun aq "$_pl" /tmp/arena-aq.json $(load_of "$_sc") --iorate "${_x#rate=}"
			_l=$(lat_of "$_sc" /tmp/arena-aq.json)
			calc "exit !(${_l:-0} > $R_LAT)" && R_LAT=${_l:-0}
			R_IOPS=$(calc "print $R_IOPS + $(lbv /tmp/arena-aq.json .totals.iops) / $_n")
		done
	else
		lbrun aq "$_t" /tmp/arena-aq.json $(load_of "$_sc")
	fi
	wait $_s $_sch $_nn
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
	case $_sc in
	pool4)
		_qm=0
		for _d in $_devs; do
			_x=$(st "$_d" qfull); [ "$_x" -gt "$_qm" ] && _qm=$_x
			R_R=$((R_R + $(st "$_d" resets)))
			lbv "/tmp/arena-$_d.json" .totals.iops
		done > /tmp/arena-pool4.iops
		R_IOPS=$(awk '{ s += $1 } END { print s + 0 }' /tmp/arena-pool4.iops)
		R_J=$(jain $(cat /tmp/arena-pool4.iops))
		R_Q=$(calc "printf \"%.2f\", $_qm / $_t")
		R_LAT=$(lat_of "$_sc") ;;
	ramp)
		R_Q=$(calc "printf \"%.2f\", ($R_Q + $(st aq qfull)) / $_t")
		R_R=$((R_R + $(st aq resets))) ;;
	*)
		R_IOPS=$(lbv /tmp/arena-aq.json .totals.iops)
		[ "$_sc" = mixed ] && R_IOPS=$(calc "print $R_IOPS + $(lbv /tmp/arena-w.json .totals.iops)")
		R_LAT=$(lat_of "$_sc" /tmp/arena-aq.json)
		R_Q=$(calc "printf \"%.2f\", $(st aq qfull) / $_t")
		R_R=$(st aq resets) ;;
	esac
	R_BLAT=$(blat_of "$_sc" "$R_LAT")
	if [ "$_sc" = hostile ]; then R_N=$(lbv /tmp/arena-nq.json .totals.iops) R_J=$(jain "$R_IOPS" "$R_N"); fi
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
	if latobj "$1"; then
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
score() { if latobj "$1"; then r3 "$O_LAT" "$3" 4; else r3 "$2" "$O_IOPS" 4; fi; }
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
	B=$(bound_of "$sc") LN=$(lat_name "$sc") BN=$(blat_name "$sc")
	say ""
	say "--- $sc ($(phases_of "$sc" | sed 's/ / -> /g'), the policies start at depth $(start_of "$sc"); objective: $(objective_of "$sc"))"
	# the sweep: each distinct phase held alone
	O_DEPTHS= O_IOPS=0 O_LAT=0 O_BLAT=0 O_N=0 O_Q=0 O_R=0 O_J=0 O_OK=1 O_QOK=1 np=0
	for ph in $(phases_of "$sc"); do
		np=$((np + 1))
		case $sc in knee1|knee64|capacity) key=lun ;; *) key=$sc ;; esac
		key=${key}_$(echo "$ph" | tr '=' '_')
		eval "bd=\${SW_${key}_D:-}"
		if [ -z "$bd" ]; then
			bd=0 bi=0 bl=0 bb=0 bn=0 bq=0 br=0 bj=-
			for d in $SWEEP; do
				run "$sc" "sweep $ph q$d" "q$d" "$ph" || continue
				csv "$sc" sweep "q$d/$ph" "$(plen_of "$sc")" "$R_IOPS" "$R_LAT" "$R_Q" "$R_R" "$R_N" - "$R_BLAT"
				# bubble: lunqbench's response max (lunq's time and
				# the submission's) over the bound where lunq's is
				if [ "$sc" = bubble ] && [ $CHECK = 1 ]; then
					calc "exit !(($R_LAT > $B) == ($R_LBMAX > $B) && $R_LBMAX >= $R_LAT)"
					check $? "bubble, static $d: lunqbench's read max $(ms "$R_LBMAX") ms and lunq's $(ms "$R_LAT") ms on the same side of $(ms "$B") ms"
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
			say "  sweep, $ph held: best static depth $bd, $(calc "printf \"%.0f\", $bi") IOPS, $LN $(ms "$bl") ms$bx$qn"
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
		[ -n "$(words_of "$p" 1 "$sc")" ] || continue
		run "$sc" "$(name_of "$p")" "$p" || continue
		RAN="$RAN $p"
		L=$(lph_ms "$sc")
		st_ms=$(settle /tmp/arena.depth "$L" $(($(plen_of "$sc") * np * 1000)) "$O_DEPTHS")
		csv "$sc" policy "$(name_of "$p")" $(($(plen_of "$sc") * np)) "$R_IOPS" "$R_LAT" "$R_Q" "$R_R" "$R_N" "$st_ms" "$R_BLAT"
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
	L=$(lph_ms "$sc") E=$(($(plen_of "$sc") * np * 1000))
	awk -v ds="$O_DEPTHS" -v l="$L" -v end="$E" 'BEGIN {
		n = split(ds, d, " "); p = -1
		for (t = 0; t < end; t += l) { k = int(t / l) % n + 1; if (d[k] != p) print t, d[k]; p = d[k] }
		print end, p }' > /tmp/arena-steps-oracle
	awk -v s="$sc" '{ print s ",oracle," $1 "," $2 }' /tmp/arena-steps-oracle >> "$OUT/arena-depth.csv"
	echo "$sc $L $E $(phases_of "$sc")" >> /tmp/arena-phases
	say "$(printf '  %-9s %9s %8s %12s %8s %8s %7s %6s %9s' policy IOPS "/oracle" "$LN" "/oracle" QFULL/s resets Jain settle)"
	BX=
	for p in $RAN oracle; do
		nm=$(name_of "$p")
		if [ $p = oracle ]; then
			i=$O_IOPS l=$O_LAT lb=$O_BLAT q=$O_Q r=$O_R n=$O_N s="-" g=0 pv=oracle j=-
			[ "$sc" = pool4 ] && j=$O_J
		else
			pv=$(var_of "$p")
			eval "i=\$P_${pv}_IOPS l=\$P_${pv}_LAT lb=\$P_${pv}_BL q=\$P_${pv}_Q r=\$P_${pv}_R n=\$P_${pv}_N j=\$P_${pv}_J s=\$P_${pv}_S g=\$P_${pv}_G"
			[ "$s" = -1 ] && s=never || s="$s ms"
		fi
		[ "$sc" = hostile ] && j=$(jain "$i" "$n")
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
		elif latobj "$sc" && calc "exit !($l > 1.5 * $O_LAT)"; then
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
	[ "$sc" = target ] && cp=target cn=auto:target
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
		tcheck "$sc" lat $? "$sc: $cn's $LN $(ms "$l") ms <= 1.25 x the oracle's $(ms "$O_LAT") ms$(latobj "$sc" && echo " (the scenario's score)")"
		[ "$r" = 0 ]
		tcheck "$sc" resets $? "$sc: $cn caused $r LUN resets (want 0)"
		calc "exit !($q <= $QF_MAX)"
		tcheck "$sc" qfull $? "$sc: $cn $q QUEUE FULLs a second$([ "$sc" = pool4 ] && echo " (the worst device)") <= $QF_MAX"
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
