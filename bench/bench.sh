#!/bin/bash
# bench/bench.sh [options]: every benchmark in one command (`make bench`):
# bench/overhead.sh (lunq against dm-linear, the wait queue, scale) and
# bench/compare-fio.sh (lunqbench against fio, closed and open loop), each
# in its own VM boot, then one JSON and one summary table.
#
# A benchmark, not a test: it prints figures and asserts nothing about
# speed.  Each figure is the median of per-round ratios of two setups run
# alternately in the same VM (ABBA order), with min, max and interquartile
# range; the table shows the goal of issue 19 next to each ("met" or "not
# met"; see README "Benchmarks" for what bounds the ones not met).
#
# Options:
#   --rounds N      rounds per part (default 10, at least 10 for a figure)
#   --runtime S     seconds per run (default 5)
#   --profile       bench/overhead.sh --profile (perf profiles in the VM)
#   -o DIR          result directory (default results/bench-<time>):
#                   DIR/bench.json (both benchmarks' figures, the date,
#                   the machine, the kernel), DIR/summary.txt, and each
#                   benchmark's own output under DIR/overhead, DIR/compare
#   -h, --help      this text
# About 25 minutes with the defaults under TCG.
# Environment: as qemu/run (LUNQ_ACCEL, LUNQ_VM_CPUS, ...).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
rounds=10 runtime=5 out= prof=()
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
	--runtime) runtime=${2:?--runtime needs seconds}; shift 2 ;;
	-o|--out) out=${2:?-o needs a directory}; shift 2 ;;
	--profile) prof=(--profile); shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "bench/bench.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
for v in "$rounds" "$runtime"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench/bench.sh: --rounds and --runtime take a positive integer" >&2; exit 2; }
done
[ -n "$out" ] || out=$top/results/bench-$(date +%Y%m%d-%H%M%S)
mkdir -p "$out/overhead" "$out/compare" || exit 1
args=(--rounds "$rounds" --runtime "$runtime")

start=$(date +%s)
echo "== make bench: $rounds rounds x $runtime s; results in $out"
echo "-- 1/2 bench/overhead.sh (lunq vs dm-linear, wait queue, scale)"
"$top/bench/overhead.sh" "${args[@]}" "${prof[@]}" -o "$out/overhead" | tee "$out/overhead.txt"
[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench/bench.sh: overhead.sh failed" >&2; exit 1; }
echo "-- 2/2 bench/compare-fio.sh (lunqbench vs fio)"
"$top/bench/compare-fio.sh" "${args[@]}" -o "$out/compare" | tee "$out/compare.txt"
[ "${PIPESTATUS[0]}" = 0 ] || { echo "bench/bench.sh: compare-fio.sh failed" >&2; exit 1; }
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

# row LABEL GOAL OP LIMIT "median min max q1 q3"
row() {
	local label=$1 goal=$2 op=$3 lim=$4
	set -- $5
	[ $# = 5 ] || { printf '%-46s %-9s %s\n' "$label" "$goal" "(no figure)"; return; }
	local met
	met=$(awk -v m="$1" -v l="$lim" -v op="$op" 'BEGIN {
		if (op == "") print "-"; else if ((op == ">=" && m >= l) || (op == "<=" && m <= l)) print "met"; else print "not met" }')
	printf '%-46s %-9s %8.3f %8.3f %8.3f %8.3f..%-8.3f %s\n' "$label" "$goal" "$1" "$2" "$3" "$4" "$5" "$met"
}

cpu=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
kernel=$(awk -F'"' '/"kernel"/ { print $4; exit }' "$ov")
accel=$(awk -F'"' '/"accel"/ { print $4; exit }' "$ov")
vcpus=$(awk -F': ' '/"cpus"/ { gsub(/,/, "", $2); print $2; exit }' "$ov")
date=$(date -u +%Y-%m-%dT%H:%M:%SZ)
{
	echo "make bench, $date: host $(nproc) x $cpu; guest kernel $kernel, $vcpus vCPUs, accel $accel; $rounds rounds x $runtime s; ${secs} s"
	printf '%-46s %-9s %8s %8s %8s %-18s %s\n' "ratio" "goal" "median" "min" "max" "IQR" ""
	row "lunq/linear IOPS (pass-through, QD32)" ">= 0.98" ">=" 0.98 "$(stat "$ov" a ratio_iops_stats)"
	row "lunq/linear CPU per IO" "<= 1.03" "<=" 1.03 "$(stat "$ov" a ratio_cpu_stats)"
	row "scale, ${vcpus} jobs: lunq qdepth:0/linear IOPS" ">= 0.95" ">=" 0.95 "$(stat "$ov" c_qdepth0 ratio_iops_stats)"
	row "scale, ${vcpus} jobs: lunq qdepth:256/linear IOPS" ">= 0.95" ">=" 0.95 "$(stat "$ov" c_qdepth256 ratio_iops_stats)"
	row "wait queue ~2k: disksort/fifo CPU per IO" "<= 1.15" "<=" 1.15 "$(stat "$ov" b ratio_cpu_stats)"
	row "wait queue: disksort 10k/1k waiters CPU/IO" "<= 1.3" "<=" 1.3 "$(stat "$ov" b_waiters_1k_10k ratio_cpu_stats)"
	row "lunqbench/fio CPU per IO (closed, QD32)" "-" "" 0 "$(stat "$cf" part_a cpu_per_io)"
	row "lunqbench/fio IOPS (closed, QD32)" "-" "" 0 "$(stat "$cf" part_a iops)"
	row "lunqbench/fio CPU per IO (open, bubble)" "-" "" 0 "$(stat "$cf" part_c cpu_per_io)"
	row "lunqbench far job: us CPU per IO (10/s)" "<= 50" "<=" 50 "$(stat "$cf" part_c lunqbench_far_us_per_io)"
	row "fio far job: us CPU per IO (10/s)" "-" "" 0 "$(stat "$cf" part_c fio_far_us_per_io)"
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
	printf '}\n'
} > "$out/bench.json"

echo
echo "== Summary (also $out/summary.txt; figures in $out/bench.json)"
cat "$out/summary.txt"
