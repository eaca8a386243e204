#!/bin/bash
# bench/overhead.sh [options]: what lunq costs, measured in one VM boot.
#
# A benchmark, not a test: it prints figures and asserts nothing about
# speed (it fails only when the VM, the devices or fio fail).
#
#   Part A  4 KiB randread, libaio, direct, QD32, 1 job on a 1 GiB null_blk
#           (not memory backed): dm-linear vs lunq with no options (its
#           statistics on).  CPU-bound.  Reports lunq/linear.  Then
#           (part P, inside A) dm-linear vs lunq stats:off, the pure
#           throttle: reports pure/linear.  Then dm-linear vs the floor
#           (bench/floor: a remap with per-bio data and end_io, built
#           here): lunq = floor + N instructions.
#   Part B  the same reads at QD256 x 8 jobs through lunq qdepth:8 with
#           sched:fifo vs sched:disksort, on a null_blk with 1 ms timer
#           completions: the 8 slots are the bottleneck and ~2040 bios
#           wait in lunq (a mid-run waiting= sample is printed), so the
#           wait queue's cost shows.  Reports disksort/fifo.  Then disksort
#           with ~1000 waiters vs ~10000: reports 10k/1k (O(log n): ~1).
#   Part C  scale: part A's reads from one job per guest CPU (2; 4 with
#           LUNQ_VM_CPUS=4), QD32 each, to one device: dm-linear vs lunq
#           qdepth:0 (lock-free), then vs lunq qdepth:256 (throttled but
#           never full: lock-free too, a slot is one atomic).  Reports
#           lunq/linear for both.
#
# The two devices of a part are measured alternately, one short fio run
# each per round (ABBA order), after one unmeasured warm-up run each.  Per
# round it prints IOPS and CPU time per IO (busy time of all guest CPUs
# over the run / IOs read) of both and their ratios; at the end the
# medians, the median of the per-round ratios, their min, max and
# interquartile range, and a summary block.  With -o DIR the figures are
# also written to DIR/overhead.json (next to qemu/run's console.log and
# dmesg.txt).
#
# Options:
#   --rounds N      rounds per part (default 10; 3 under icount)
#   --runtime S     seconds per fio run (default 5; 2 under icount)
#   --part LETTERS  which parts, e.g. a, bc (default abc)
#   --profile       after each part, one more run of each device under
#                   perf record -a -g in the VM (needs linux-perf on the
#                   host): DIR/profile-<device>.txt and a line of shares
#                   (lunq's functions, rbtree, clock, context switches)
#   -o DIR          result directory (qemu/run -o): DIR/overhead.json
#   -h, --help      this text
# Clock: QEMU's instruction-counting mode by default (LUNQ_ACCEL=icount,
# one vCPU, see qemu/run): guest time is instructions, so parts A and C
# also print instructions per IO, which repeat between runs to about
# 0.1%.  LUNQ_ACCEL=tcg measures wall-clock time instead (about 10
# minutes with its defaults; ratios there move 0.75..1.0 between rounds).
# Environment: as qemu/run (LUNQ_ACCEL, LUNQ_ICOUNT_SHIFT, LUNQ_VM_CPUS, ...).
set -uo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
rounds= runtime= part=abc out=() prof=()
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=${2:?--rounds needs a number}; shift 2 ;;
	--runtime) runtime=${2:?--runtime needs seconds}; shift 2 ;;
	--part) part=${2:?--part needs letters of a, b, c}; shift 2 ;;
	-o|--out) out=(-o "${2:?-o needs a directory}"); shift 2 ;;
	--profile) prof=(--profile); shift ;;
	-h|--help) usage; exit 0 ;;
	*) echo "bench/overhead.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
	esac
done
# icount counts instructions: a round repeats to 0.1%, three show it
if [ "${LUNQ_ACCEL:-icount}" = icount ]; then
	rounds=${rounds:-3} runtime=${runtime:-2}
else
	rounds=${rounds:-10} runtime=${runtime:-5}
fi
for v in "$rounds" "$runtime"; do
	[[ $v =~ ^[1-9][0-9]*$ ]] || { echo "bench/overhead.sh: --rounds and --runtime take a positive integer" >&2; exit 2; }
done
[[ $part =~ ^[abc]+$ ]] || { echo "bench/overhead.sh: --part takes letters of a, b, c (e.g. ac)" >&2; exit 2; }

[ -f "$top/build/kmod/$("$top/scripts/kver")/kmod/dm-lunq.ko" ] || make -C "$top" || exit 1
# the floor of part A (bench/floor): built here; without it part A says so
case $part in *a*) "$top/bench/floor/build.sh" > /dev/null ||
	echo "bench/overhead.sh: warning: bench/floor/build.sh failed: part A without its floor" >&2 ;;
esac

[ ${#prof[@]} = 0 ] || command -v perf > /dev/null ||
	{ echo "bench/overhead.sh: --profile needs perf on the host (apt install linux-perf); the VM takes it from there" >&2; exit 2; }

# instruction counts by default (qemu/run's icount mode: deterministic);
# LUNQ_ACCEL=tcg for wall-clock figures
export LUNQ_ACCEL=${LUNQ_ACCEL:-icount}
accel=$LUNQ_ACCEL
[ "$accel" = auto ] && [ -s "$top/build/vm/accel" ] && accel=$(cat "$top/build/vm/accel")

exec "$top/qemu/run" "${out[@]}" \
	"$top/bench/overhead-guest.sh" \
	--rounds "$rounds" --runtime "$runtime" --part "$part" --accel "$accel" "${prof[@]}"
