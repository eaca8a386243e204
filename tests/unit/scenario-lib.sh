#!/bin/sh
# tests/lib/scenario.sh and tests/lib/svg.awk on the host, with stubs for
# the VM (lq_stat, lunqctl, now_ms): settled and settle on known samples
# (auto's probes left out, a phase that never settles), Jain's index,
# seed 004's words, pct and pct2 (reads and writes merged) through a
# stubbed lunqctl hist -j, the sampler's lines, 6D's oracle
# (hostile_oracle: static16 only within 2 QUEUE FULLs a second and no
# reset); each of svg.awk's plots well formed, the same under busybox awk
# (the VM's) and this host's awk.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'
cd "$tmp" || exit 1

# the VM's helpers, stubbed
lq_stat() { cat "$tmp/stat-$1-$2"; }
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
lunqctl() { echo "$*" > "$tmp/lunqctl.args"; cat "$tmp/hist.json"; }
. "$top/tests/lib/scenario.sh"

# settled: from 1000 in [3, 5] at 1750 for good; phase 4 (a probe at 8)
# left out; never in [20, 30]
printf '%s\n' "0 16 3" "1000 9 3" "1250 4 3" "1500 8 3" "1750 4 3" "2000 8 4" "2250 5 3" > s1
[ "$(settled s1 1000 9999 3 5)" = 750 ]; tap_check $? "settled: in [3, 5] 750 ms after 1000, a probe left out"
[ "$(settled s1 0 9999 20 30)" = -1 ]; tap_check $? "settled: -1 when never in the band"
# settle: phases of 1000 ms, depths 8 then 16: 250 and 500 ms, the longest
awk 'BEGIN { for (t = 0; t < 2000; t += 250) print t, (t < 250 ? 1 : t < 1000 ? 8 : t < 1500 ? 4 : 16) }' > s2
[ "$(settle s2 1000 2000 "8 16")" = 500 ]; tap_check $? "settle: the longest phase's settle (500 ms)"
[ "$(settle s2 1000 2000 "8 40")" = -1 ]; tap_check $? "settle: -1 when one phase never settles"
[ "$(jain 100 100)" = 1.00 ] && [ "$(jain 100 0)" = 0.50 ] && [ "$(JAIN_DIGITS=3 jain 1 2 3 4)" = 0.833 ]
tap_check $? "jain: 1.00 equal, 0.50 one takes all, 0.833 for 1 2 3 4"
case " $(seed004 p) $SEED004_FOREIGN " in
*" pool=p pool_depth=32 reset_after=10 reset_ms=500 "*" channels=16 "*" foreign=16 foreign_period_ms=8000 "*) r=0 ;;
*) r=1 ;;
esac
tap_check $r "seed004: the pool's words"
echo '[{"hist":"service_read","max":9000,"percentiles":{"p50":10,"p99":812}}]' > hist.json
[ "$(pct aq service_read p99)" = 812 ] && [ "$(pct aq total_read max)" = 9000 ] &&
	[ "$(cat lunqctl.args)" = "hist --total --read -j aq" ]
tap_check $? "pct: lunqctl hist --PHASE --DIR -j, its percentile or max"
# pct2: reads' and writes' buckets merged (106 IOs: p50 the 53rd, p99 the
# 105th, p99.9 the 106th, capped at the larger max), as lunq takes them
echo '[{"max":150,"buckets":[[0,9,50],[10,19,40],[100,127,10]]},{"max":300,"buckets":[[10,19,5],[256,511,1]]}]' > hist.json
[ "$(pct2 aq total p50)" = 19 ] && [ "$(pct2 aq total p90)" = 127 ] && [ "$(pct2 aq total p99)" = 127 ] &&
	[ "$(pct2 aq total p99.9)" = 300 ] && [ "$(pct2 aq total max)" = 300 ] &&
	[ "$(cat lunqctl.args)" = "hist --total -j aq" ]
tap_check $? "pct2: reads and writes merged, the bucket's upper end, at most the max"
echo '[{"max":0,"buckets":[]},{"max":0,"buckets":[]}]' > hist.json
[ "$(pct2 aq total p99)" = 0 ]
tap_check $? "pct2: 0 with no IOs"
# 6D's oracle (tests/demo/hostile.sh): the per-phase runs, or static16
# when it beats them refused at most 2 times a second with no reset
. "$top/tests/demo/hostile.sh"
T_D=32
hostile() { eval "D_$1_IOPS=1000 D_$1_P99=5 D_$1_Q=0.0 D_$1_QX=0 D_$1_R=0 D_$1_N=900"; }
D_static16_IOPS=1650 D_static16_P99=4 D_static16_Q=2.0 D_static16_QX=2.04 D_static16_R=0 D_static16_N=900
hostile_oracle
[ "$D_oracle_IOPS" = 1000 ] && case $ORACLE_FROM in *"over the bound: refused 2.0 times a second, 0 LUN resets"*) true ;; *) false ;; esac
tap_check $? "6D's oracle: static16 refused 2.04 times a second is not the oracle, and it says so" "$ORACLE_FROM"
D_static16_QX=1.9
hostile_oracle
[ "$D_oracle_IOPS" = 1650 ] && case $ORACLE_FROM in "static16: it beat"*) true ;; *) false ;; esac
tap_check $? "6D's oracle: static16 within the bound and ahead is the oracle" "$ORACLE_FROM"
D_static16_R=1
hostile_oracle
[ "$D_oracle_IOPS" = 1000 ]
tap_check $? "6D's oracle: static16 with a LUN reset is not the oracle"
echo 7 > stat-aq-throttle
echo 2 > stat-aq-auto_phase
sampler "$tmp/smp" 1 0.25 aq:throttle aq:auto_phase
wait $_smp
awk 'NF != 3 || $2 != 7 || $3 != 2 { exit 1 } END { exit NR < 2 }' smp
tap_check $? "sampler: lines of now_ms and each counter for its seconds"

# svg.awk: each plot under every awk there is
cat > scores.in <<'X'
hostile knee 0.91 true
hostile mine 0.5 true
hostile oracle 1 true
target target 0.02 false
target oracle 1 true
X
printf '%s\n' "hostile 4000 16000 foreign=16 foreign=0" "target 8000 8000 lun_order=sptf" > phases
printf '%s\n' scenario,policy,ms,depth hostile,knee,0,16 hostile,knee,1200,9 hostile,knee,16000,9 \
	hostile,oracle,0,8 hostile,oracle,4000,16 hostile,oracle,16000,16 target,target,0,32 target,target,8000,20 > depth.csv
printf '%s\n' policy,t,depth,iops,resp_p99_ns auto,0.5,16,900,30000000 auto,1,8,1000,25000000 \
	linux,0.5,32,700,90000000 linux,1,,650,80000000 > trace.csv
svg=$top/tests/lib/svg.awk
command -v busybox > /dev/null || { skip "svg.awk" "no busybox here (the VM's awk)"; exit 0; }
for a in "busybox awk" awk; do
	d=$tmp/$(echo "$a" | tr ' ' _)
	mkdir -p "$d"
	$a -v plot=scores -f "$svg" scores.in > "$d/scores.svg" 2> "$d/err" &&
	$a -F, -v plot=depth -v out="$d" -f "$svg" phases depth.csv 2>> "$d/err" &&
	$a -F, -v plot=trace -v tp=4 -f "$svg" trace.csv > "$d/trace.svg" 2>> "$d/err"
	tap_check $? "svg.awk under $a: three plots" "$(head -c 200 "$d/err")"
done
d=$tmp/busybox_awk
for f in scores.svg arena-depth-hostile.svg arena-depth-target.svg trace.svg; do
	head -1 "$d/$f" | grep -q '^<svg ' && [ "$(tail -1 "$d/$f")" = "</svg>" ]
	tap_check $? "$f: one <svg> element"
done
[ "$(grep -c '<rect .*<title>' "$d/scores.svg")" = 5 ] && grep -q 'fill-opacity="0.3"><title>target target' "$d/scores.svg"
tap_check $? "scores: a bar per score, pale over the bound"
[ "$(grep -c 'class="depth"' "$d/arena-depth-hostile.svg")" = 2 ] && grep -q 'data-policy="oracle".*stroke-dasharray' "$d/arena-depth-hostile.svg"
tap_check $? "depth: a line per policy, the oracle's dashed"
[ "$(grep -c '<polyline' "$d/trace.svg")" = 6 ]
tap_check $? "trace: a line per policy in each of three panels"
diff -r "$d" "$tmp/awk" > /dev/null
tap_check $? "busybox awk and $(readlink -f "$(command -v awk)") draw the same"
