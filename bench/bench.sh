#!/bin/bash
# bench/bench.sh [options]: every benchmark in one command (`make bench`):
# bench/overhead.sh (lunq against dm-linear, the wait queue, scale) and
# bench/compare-fio.sh (lunqbench against fio, closed and open loop), each
# in its own VM boot, then one JSON and one summary table.
#
# A benchmark, not a test: it prints figures and asserts nothing about
# speed.  Each figure is the median of per-round ratios of two setups run
# alternately in the same VM (ABBA order), with min and max.
#
# The figures come from QEMU's instruction-counting clock (qemu/run's
# LUNQ_ACCEL=icount, one vCPU): guest time is instructions, so a ratio is
# one of instructions per IO and repeats between runs to about 0.1%
# (3 rounds show the spread).  The same benchmarks on the plain TCG
# clock, wall-clock time (10 rounds; TCG's noise moves those ratios
# 0.75..1.0 between rounds), give the second column; --no-tcg skips them.
# The table shows the overhead's goal next to each icount figure ("met"
# or "not met"; doc/benchmarks.md says what bounds the ones not met).
# What instruction counts cannot see: cache misses, real lock contention,
# real interrupts (doc/benchmarks.md, "Measuring overhead in instructions").
#
# Options:
#   --rounds N      icount rounds per part (default 3)
#   --runtime S     icount seconds of guest time per run (default 2)
#   --tcg-rounds N  plain-clock rounds (default 10, at least 10 for a figure)
#   --tcg-runtime S plain-clock seconds per run (default 5)
#   --no-tcg        instruction counts only
#   --profile       bench/overhead.sh --profile (perf in the VM, on the
#                   icount clock: its samples are instructions)
#   -o DIR          result directory (default results/bench-<time>):
#                   DIR/bench.json (every figure, the date, the machine,
#                   the kernel), DIR/summary.txt, and each run's own
#                   output under DIR/{overhead,compare}{,-tcg}
#   -h, --help      this text
# About 8 minutes with --no-tcg, 35 with the plain-clock column.
# Environment: as qemu/run (LUNQ_ICOUNT_SHIFT, LUNQ_VM_CPUS, ...).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
rounds=3 runtime=2 trounds=10 truntime=5 tcg=1 out= prof=()
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
	--runtime) runtime=${2:?--runtime needs seconds}; shift 2 ;;
	--tcg-rounds) trounds=${2:?--tcg-rounds needs a number}; shift 2 ;;
	--tcg-runtime) truntime=${2:?--tcg-runtime needs seconds}; shift 2 ;;
	--no-tcg) tcg=0; shift ;;
	-o|--out) out=${2:?-o needs a directory}; shift 2 ;;
	--profile) prof=(--profile); shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "bench/bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
for v in "$rounds" "$runtime" "$trounds" "$truntime"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench/bench.sh: --rounds, --runtime, --tcg-rounds and --tcg-runtime take a positive integer" >&2; exit 2; }
done
[ -n "$out" ] || out=$top/results/bench-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out/overhead" "$out/compare" || exit 1
args=(--rounds "$rounds" --runtime "$runtime")
targs=(--rounds "$trounds" --runtime "$truntime")
steps=2
[ $tcg = 1 ] && steps=4

start=$(date +%s)
echo "== make bench: icount $rounds rounds x $runtime s$([ $tcg = 1 ] && echo ", plain clock $trounds rounds x $truntime s"); results in $out"
echo "-- 1/$steps bench/overhead.sh on the icount clock (lunq vs dm-linear, wait queue, scale)"
LUNQ_ACCEL=icount "$top/bench/overhead.sh" "${args[@]}" "${prof[@]}" -o "$out/overhead" | tee "$out/overhead.txt"
[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench/bench.sh: overhead.sh failed" >&2; exit 1; }
echo "-- 2/$steps bench/compare-fio.sh on the icount clock (lunqbench vs fio)"
LUNQ_ACCEL=icount "$top/bench/compare-fio.sh" "${args[@]}" -o "$out/compare" | tee "$out/compare.txt"
[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench/bench.sh: compare-fio.sh failed" >&2; exit 1; }
if [ $tcg = 1 ]; then
	mkdir -p "$out/overhead-tcg" "$out/compare-tcg" || exit 1
	echo "-- 3/4 bench/overhead.sh on the plain clock (wall-clock time)"
	LUNQ_ACCEL=tcg "$top/bench/overhead.sh" "${targs[@]}" -o "$out/overhead-tcg" | tee "$out/overhead-tcg.txt"
	[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench/bench.sh: overhead.sh (tcg) failed" >&2; exit 1; }
	echo "-- 4/4 bench/compare-fio.sh on the plain clock"
	LUNQ_ACCEL=tcg "$top/bench/compare-fio.sh" "${targs[@]}" -o "$out/compare-tcg" | tee "$out/compare-tcg.txt"
	[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench/bench.sh: compare-fio.sh (tcg) failed" >&2; exit 1; }
fi
secs=$(($(date +%s) - start))

ov=$out/overhead/overhead.json cf=$out/compare/compare-fio.json
[ -s "$ov" ] && [ -s "$cf" ] || { echo "bench/bench.sh: a benchmark wrote no JSON" >&2; exit 1; }

# stat FILE PART KEY: "median min max q1 q3" of the stats object KEY in
# the top-level object PART of FILE (the benchmarks' own JSON layout)
stat() {
	awk -v part="$2" -v key="$3" '
		/^  "/ { p = $0; sub(/^  "/, "", p); sub(/".*/, "", p); inpart = p == part }
		inpart && (i = index($0, "\"" key "\": {")) {
			s = substr($0, i)
			n = split("median min max q1 q3", k, " ")
			for (j = 1; j <= n; j++) {
				match(s, "\"" k[j] "\": [-0-9.eE+]+")
				v = substr(s, RSTART, RLENGTH); sub(/.*: /, "", v)
				printf "%s%s", v, j < n ? " " : "\n"
			}
			exit
		}' "$1"
}

# row LABEL GOAL OP LIMIT "median min max q1 q3" ["median min max q1 q3"]:
# the icount figure (judged against the goal) and the plain clock's
row() {
	local label=$1 goal=$2 op=$3 lim=$4 t=${6:-}
	set -- $5
	[ $# = 5 ] || { printf '%-44s %-8s %s\n' "$label" "$goal" "(no figure)"; return; }
	local met tc=-
	met=$(awk -v m="$1" -v l="$lim" -v op="$op" 'BEGIN {
		if (op == "") print "-"; else if ((op == ">=" && m >= l) || (op == "<=" && m <= l)) print "met"; else print "not met" }')
	[ -n "$t" ] && tc=$(echo $t | awk 'NF == 5 { printf "%.3f [%.3f..%.3f]", $1, $2, $3 }')
	printf '%-44s %-8s %7.4f %7.4f %7.4f  %-8s %s\n' "$label" "$goal" "$1" "$2" "$3" "$met" "${tc:--}"
}

ovt=$out/overhead-tcg/overhead.json cft=$out/compare-tcg/compare-fio.json
# tstat: stat of the plain-clock run, when there is one
tstat() { [ -s "$1" ] && stat "$@"; }
cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
kernel=$(awk -F'"' '/"kernel"/ { print $4; exit }' "$ov")
accel=$(awk -F'"' '/"accel"/ { print $4; exit }' "$ov")
vcpus=$(awk -F': ' '/"cpus"/ { gsub(/,/, "", $2); print $2; exit }' "$ov")
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
{
	echo "make bench, $date: host $(nproc) x $cpu; guest kernel $kernel, $vcpus vCPU, accel $accel (shift ${LUNQ_ICOUNT_SHIFT:-0}); $rounds rounds x $runtime s$([ $tcg = 1 ] && echo "; plain clock $trounds rounds x $truntime s"); ${secs} s"
	printf '%-44s %-8s %7s %7s %7s  %-8s %s\n' "ratio (icount: instructions per IO)" "goal" "median" "min" "max" "" "plain clock"
	row "lunq/linear, pass-through, QD32" "<= 1.02" "<=" 1.02 "$(stat "$ov" a ratio_instr_stats)" "$(tstat "$ovt" a ratio_cpu_stats)"
	row "lunq stats:off/linear, pure throttle" "<= 1.01" "<=" 1.01 "$(stat "$ov" a_pure ratio_instr_stats)"
	row "floor/linear (bench/floor: per-bio data)" "-" "" 0 "$(stat "$ov" a_floor ratio_instr_stats)"
	fl=$(awk -F'[:,]' '/"a_floor"/ { f = 1 } f && /"floor_instr_per_io"/ { print $2 + 0; exit }' "$ov")
	lq=$(awk -F'[:,]' '/"a"/ { f = 1 } f && /"lunq_instr_per_io"/ { print $2 + 0; exit }' "$ov")
	[ -n "$fl" ] && [ -n "$lq" ] && echo "lunq = floor + $((lq - fl)) instructions per IO (floor $fl, lunq $lq)"
	row "lunq qdepth:256/linear (lock-free slot)" "<= 1.04" "<=" 1.04 "$(stat "$ov" c_qdepth256 ratio_instr_stats)" "$(tstat "$ovt" c_qdepth256 ratio_cpu_stats)"
	row "lunq qdepth:0/linear (${vcpus} job)" "<= 1.02" "<=" 1.02 "$(stat "$ov" c_qdepth0 ratio_instr_stats)" "$(tstat "$ovt" c_qdepth0 ratio_cpu_stats)"
	row "wait queue ~2k: disksort/fifo, whole guest" "<= 1.10" "<=" 1.10 "$(stat "$ov" b ratio_cpu_stats)" "$(tstat "$ovt" b ratio_cpu_stats)"
	row "wait queue: disksort 10k/1k waiters" "<= 1.3" "<=" 1.3 "$(stat "$ov" b_waiters_1k_10k ratio_cpu_stats)" "$(tstat "$ovt" b_waiters_1k_10k ratio_cpu_stats)"
	row "lunqbench/fio per IO (closed, QD32)" "-" "" 0 "$(stat "$cf" part_a cpu_per_io)" "$(tstat "$cft" part_a cpu_per_io)"
	row "lunqbench/fio per IO (open, bubble)" "-" "" 0 "$(stat "$cf" part_c cpu_per_io)" "$(tstat "$cft" part_c cpu_per_io)"
	row "lunqbench/fio IOPS (closed, QD32)" "-" "" 0 "$(stat "$cf" part_a iops)" "$(tstat "$cft" part_a iops)"
	echo "plain clock: TCG wall-clock CPU time per IO, median [min..max]; lunqbench expected <= 0.5 of fio's per IO"
} > "$out/summary.txt"

{
	printf '{\n  "benchmark": "bench",\n  "date": "%s",\n  "host": {"cpus": %s, "cpu": "%s"},\n' \
		"$date" "$(nproc)" "$cpu"
	printf '  "kernel": "%s",\n  "accel": "%s",\n  "rounds": %s,\n  "runtime_s": %s,\n  "seconds": %s,\n' \
		"$kernel" "$accel" "$rounds" "$runtime" "$secs"
	printf '  "overhead": '
	sed 's/^/  /; 1s/^  //' "$ov"
	printf ',\n  "compare_fio": '
	sed 's/^/  /; 1s/^  //' "$cf"
	if [ -s "$ovt" ] && [ -s "$cft" ]; then
		printf ',\n  "overhead_tcg": '
		sed 's/^/  /; 1s/^  //' "$ovt"
		printf ',\n  "compare_fio_tcg": '
		sed 's/^/  /; 1s/^  //' "$cft"
	fi
	printf '}\n'
} > "$out/bench.json"

echo
echo "== Summary (also $out/summary.txt; figures in $out/bench.json)"
cat "$out/summary.txt"
