# 64 auto:knee LUNs in 8 pools: no LUN reset, fair shares, the slots
# other initiators free taken back.  Pools of 8 to 128 slots, 2 to 14
# LUNs each, other initiators holding 25%, 50% or 75% of each pool during
# the first half of every P ms (P from 3 s to 10 s, 20 s with
# LUNQ_FULL=1; the phases counted from the pool's creation), LUN reset
# after 10 QUEUE FULLs in a row, the flash model (16 channels: each LUN's
# knee is above its share of its pool, so the pool binds), half of each
# pool's LUNs slow (100 ms a command) and half fast (25 ms), every device
# from its part of the whole pool (the others come in at once); one lunqbench
# drives all 64 (a closed loop of QD 16 on each, above any share).
# Judged per device and per pool:
#  - 0 LUN resets on any device (its stats/resets);
#  - at most 2 QUEUE FULLs a second on any device (its stats/qfull over
#    the run);
#  - Jain's index >= 0.95 in each pool over the slots each device held:
#    its IOPS (lunqbench's JSON) x its service time (Little: the mean
#    commands it had in the LUN).  The pool's slots are what is shared; a
#    slow LUN holding as many as a fast one has a quarter of its IOPS, and
#    Jain over raw IOPS would call that unfair;
#  - at every time the others leave a pool (its phase's known edge), the
#    pool's commands in flight (stats/pool_inflight, sampled every 0.1 s)
#    reach depth - 10% of the slots freed within 1 s (within the half
#    period when that is shorter).
# Not in make test yet: today's auto misses it (LUN resets when the
# others come back to a full pool, the freed slots taken back in 1.5-2 s:
# doc/benchmarks.md), and its 110 s on the icount clock do not fit the
# icount lanes' share in tests/budget (55 s more needed); make test-full
# and `tests/run --vm --quick pool-many` run it.  The thresholds auto
# misses today are in TODO (POOL_TODO, a comma list of resets, qfull,
# reuse, jain; default resets,qfull,reuse: issue 65): a miss there is
# printed as "# TODO:" and fails nothing; a miss of any other fails.
# group: throttle qfull
# time: 110
# set: full
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/demo/lib.sh"
. "$LUNQ_SRC/tests/lib/scenario.sh"

# pool: depth, LUNs, slots the others hold, their period (ms)
POOLS="1:8:2:2:3000 2:16:4:8:3000 3:24:6:6:3000 4:32:8:16:4000 5:48:8:24:5000
6:64:10:32:6000 7:96:12:72:8000 8:128:14:96:10000"
SECS=32
if [ "${LUNQ_FULL:-0}" = 1 ]; then
	POOLS=$(echo "$POOLS" | sed 's/:10000$/:20000/')
	SECS=120
fi
SLOW_US=100000 FAST_US=25000
W=${LUNQ_OUT:-/tmp}/pm
mkdir -p "$W"
: > "$W/pool.sum"

t_setup=$(now_ms)
: > $W/devs
for pl in $POOLS; do
	IFS=: read -r p d n f per <<EOF
$pl
EOF
	q0=$((d / n))
	[ $q0 -ge 1 ] || q0=1
	i=1
	while [ $i -le "$n" ]; do
		dev=pm${p}_$i
		svc=$FAST_US
		[ $i -le $((n / 2)) ] && svc=$SLOW_US
		nb=$(nullb_create "nb$dev" 64) || fail "null_blk for $dev"
		scen_create "$dev" "$dev" "$nb" pool=pm$p pool_depth=$d reset_after=10 reset_ms=500 \
			model=flash channels=16 svc_us=$svc foreign=$f foreign_period_ms=$per \
			qdepth=$q0 auto=knee > /dev/null || fail "create $dev"
		echo "$dev $p $d $n $f $per $svc" >> $W/devs
		i=$((i + 1))
	done
done
diag "64 devices in 8 pools created in $(($(now_ms) - t_setup)) ms"

# the pools' clocks: each pool's first device's creation (the pool's own
# is the same, within its table's construction)
: > $W/pools
for pl in $POOLS; do
	IFS=: read -r p d n f per <<EOF
$pl
EOF
	echo "$p $d $n $f $per $(st pm${p}_1 crtime_ns)" >> $W/pools
done

# the sampler: the time and each pool's commands in flight, every 0.1 s,
# one cat a sample (a line of 9 values)
files="/sys/kernel/lunq/pm1_1/stats/snaptime_ns"
for p in 1 2 3 4 5 6 7 8; do files="$files /sys/kernel/lunq/pm${p}_1/stats/pool_inflight"; done
( while :; do echo $(cat $files); sleep 0.1; done ) > $W/samples &
smp=$!

lunqbench --json --elapsed $SECS --interval 0 --iodepth 16 \
	$(awk '{ printf "/dev/mapper/%s ", $1 }' $W/devs) > $W/lb.json 2> $W/lb.err ||
	{ kill $smp; cat $W/lb.err; fail "lunqbench"; }
kill $smp
wait $smp 2> /dev/null
diag "load: $SECS s on 64 devices, $(lbv $W/lb.json .totals.iops) IOPS in all, $(lbv $W/lb.json .totals.elapsed_s) s measured"

# per device: IOPS, slots held (IOPS x service time), QUEUE FULLs, resets
jq -r '.jobs[] | "\(.target) \(.totals.iops)"' $W/lb.json | sed 's|/dev/mapper/||' | sort > $W/iops
: > $W/dev.t
while read -r dev p d n f per svc; do
	io=$(awk -v d="$dev" '$1 == d { print $2 }' $W/iops)
	echo "$dev $p $svc ${io:-0} $(st "$dev" qfull) $(st "$dev" resets)" >> $W/dev.t
done < $W/devs
el=$(lbv $W/lb.json .totals.elapsed_s)

TODO=${POOL_TODO-resets,qfull,reuse}
bad=0 todo=0
# miss WHAT TEXT: a threshold missed -- in TODO, said; else the test fails
miss() {
	case ",$TODO," in
	*",$1,"*) diag "TODO: $2"; todo=$((todo + 1)) ;;
	*) diag "$2"; bad=1 ;;
	esac
}
while read -r p d n f per t0; do
	awk -v p="$p" '$2 == p' $W/dev.t > $W/pool.t
	j=$(JAIN_DIGITS=3 jain $(awk '{ print $4 * $3 / 1e6 }' $W/pool.t))
	slots=$(awk '{ printf "%.1f ", $4 * $3 / 1e6 }' $W/pool.t)
	r=$(awk '{ s += $6 } END { print s }' $W/pool.t)
	qmax=$(awk -v e="$el" '{ q = $5 / e; if (q > m) m = q } END { printf "%.2f", m }' $W/pool.t)
	# each time the others leave, after the load's first second: the
	# most in flight within 1 s (within the half period when shorter),
	# as a fraction of the slots they freed above depth - freed
	win=$((per / 2 < 1000 ? per / 2 : 1000))
	reuse=$(awk -v c=$((p + 1)) -v t0="$t0" -v per="$per" -v d="$d" -v f="$f" -v win="$win" '
		NR == 1 { s = $1 + 1e9 } { t[NR] = $1; v[NR] = $c; n = NR }
		END {
			k = int((s - t0) / (per * 1e6)); if (k < 0) k = 0
			for (;; k++) {
				l = t0 + k * per * 1e6 + per * 1e6 / 2
				if (l < s) continue
				if (l + win * 1e6 > t[n]) break
				m = 0
				for (i = 1; i <= n; i++) if (t[i] >= l && t[i] <= l + win * 1e6 && v[i] > m) m = v[i]
				x = (m - (d - f)) / f; if (x < 0) x = 0
				printf "%.2f ", x
			}
		}' $W/samples)
	nl=$(echo "$reuse" | wc -w)
	rmin=$(echo "$reuse" | awk '{ m = 9; for (i = 1; i <= NF; i++) if ($i < m) m = $i; print (NF ? m : 0) }')
	diag "pool $p ($d slots, $n LUNs, others $f every $per ms): Jain $j over slots held [$slots], resets $r, QUEUE FULL/s max $qmax, reuse at $nl leaves: $reuse"
	echo "$p $j $r $qmax $rmin $nl" >> $W/pool.sum
	ge "$j" 0.95 || miss jain "pool $p: Jain $j < 0.95"
	[ "$r" = 0 ] || miss resets "pool $p: $r LUN resets: $(awk '$6 > 0 { printf "%s:%s ", $1, $6 }' $W/pool.t)"
	ge 2 "$qmax" || miss qfull "pool $p: QUEUE FULL/s $qmax > 2: $(awk '{ printf "%s:%s ", $1, $5 }' $W/pool.t)"
	[ "$nl" -ge 2 ] || { diag "pool $p: only $nl leave events measured"; bad=1; }
	ge "$rmin" 0.9 || miss reuse "pool $p: freed slots in use within 1 s: $rmin < 0.90"
done < $W/pools
SCEN_DEVS=$(awk '{ printf "%s ", $1 }' $W/devs)
scen_down
for dev in $(awk '{ print $1 }' $W/devs); do nullb_remove "nb$dev"; done
[ $bad = 0 ] || fail "64 LUNs in 8 pools: a threshold missed (the lines above)"
if [ $todo = 0 ]; then
	ok "64 LUNs in 8 pools: 0 resets, QUEUE FULL/s <= 2, Jain >= 0.95 per pool, >= 90% of freed slots in use within 1 s at every leave"
else
	ok "64 LUNs in 8 pools: the thresholds outside TODO ($TODO) met; $todo miss(es) of those in TODO (the lines above)"
fi
