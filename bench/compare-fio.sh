#!/bin/bash
# bench/compare-fio.sh [options]: lunqbench against fio, equal settings,
# one VM boot.  A benchmark, not a test: it prints figures and asserts
# nothing about speed (it fails only when the VM, a device or a tool fails).
#
#   Part A  4 KiB randread, io_uring, direct, QD32, one job/thread, on a
#           1 GiB null_blk (not memory backed): CPU-bound, so IOPS and CPU
#           time per IO show each tool's own cost.
#   Part B  the same at QD8 on a null_blk whose completions take 2 ms
#           (timer): device-bound; the latency percentiles show whether
#           the two tools measure the same thing.
#   Part C  open loop: the bubble load (lunqbench --preset bubble, the
#           same two jobs in fio: a sequential stream at QD16 and 10
#           random reads/s at fixed gaps) on the 2 ms null_blk: CPU per IO
#           of all IOs (guest busy time), and of the slow far job alone as
#           each tool reports its own threads' CPU: an idle or slow job
#           should cost next to nothing between its arrivals.
#
# The tools alternate, one run each per round (ABBA order), after one
# unmeasured warm-up run each.  Per round: IOPS, CPU us per IO (busy time
# of all guest CPUs over the run / IOs, the same method for both) and
# p50/p99 latency of both, and lunqbench/fio ratios; at the end the median
# of every per-round ratio with min, max and interquartile range.
# Latency: fio's completion latency (clat, submit -> completion) against
# lunqbench's service latency (t_sub -> t_done, design notes): closed loop
# at a fixed QD, the comparable pair.  With -o DIR the figures also go to
# DIR/compare-fio.json.
#
# Options:
#   --rounds N      rounds per part (default 3 under icount, else 10)
#   --runtime S     seconds per run (default 2 under icount, else 5)
#   --part LETTERS  which parts, any of a, b, c (default abc)
#   -o DIR          result directory (qemu/run -o)
#   -h, --help      this text
# Clock: QEMU's instruction-counting mode by default (LUNQ_ACCEL=icount,
# one vCPU): CPU per IO is then guest instructions per IO (1 us = 1000 at
# shift 0).  LUNQ_ACCEL=tcg: wall clock, about 6 minutes with its
# defaults.  `make bench-compare`.
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
rounds= runtime= part=abc out=()
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
	--runtime) runtime=${2:?--runtime needs seconds}; shift 2 ;;
	--part) part=${2:?--part needs letters of a, b, c}; shift 2 ;;
	-o|--out) out=(-o "${2:?-o needs a directory}"); shift 2 ;;
	-h|--help) usage; exit 0 ;;
	*) echo "bench/compare-fio.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
# instruction counts by default (qemu/run's icount mode, deterministic:
# three rounds show the spread); LUNQ_ACCEL=tcg for wall-clock figures
export LUNQ_ACCEL=${LUNQ_ACCEL:-icount}
if [ "$LUNQ_ACCEL" = icount ]; then
	rounds=${rounds:-3} runtime=${runtime:-2}
else
	rounds=${rounds:-10} runtime=${runtime:-5}
fi
for v in "$rounds" "$runtime"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench/compare-fio.sh: --rounds and --runtime take a positive integer" >&2; exit 2; }
done
[[ $part =~ ^[abc]+$ ]] || { echo "bench/compare-fio.sh: --part takes letters of a, b, c" >&2; exit 2; }
[ -x "$top/bench/lunqbench" ] || make -C "$top" || exit 1
exec "$top/qemu/run" "${out[@]}" "$top/bench/compare-fio-guest.sh" \
	--rounds "$rounds" --runtime "$runtime" --part "$part"
