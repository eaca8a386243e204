#!/bin/bash
# bench/parts.sh [--runtime S] [VARIANT...]: where lunq's instructions per
# IO go, part by part, in one VM boot on the icount clock.
#
# Each VARIANT is a test build of dm-lunq.ko: the tree's kmod/ with
# bench/parts/VARIANT.patch applied (one part of the IO path removed, the
# rest unchanged); "base" is the tree as it is.  Default: base and every
# patch there.  bench/parts-guest.sh then measures part A's reads (4 KiB
# randread, QD32, one job, null_blk) through dm-linear, the floor
# (bench/floor) and lunq with no options under each build, one warm-up
# and one run each (instruction counts repeat to about 0.05%), and prints
# instructions per IO and each variant's difference from base: what that
# part costs.  LUNQ_PARTS_ARGS="1 stats:off": lunq's optional words.
# Test builds go to build/parts/VARIANT/ (never the tree).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
runtime=2
if [ "${1:-}" = --runtime ]; then runtime=$2; shift 2; fi
case ${1:-} in -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
if [ $# = 0 ]; then
	set -- base
	for p in "$top"/bench/parts/*.patch; do
		[ -f "$p" ] && set -- "$@" "$(basename "$p" .patch)"
	done
fi
kver=$("$top/scripts/kver")
kdir=/lib/modules/$kver/build
"$top/bench/floor/build.sh" "$kdir" > /dev/null
[ -f "$top/build/kmod/$kver/kmod/dm-lunq.ko" ] || make -C "$top" kmod > /dev/null
list=
for v in "$@"; do
	d=$top/build/parts/$v
	rm -rf "$d"
	mkdir -p "$d"
	cp -a "$top"/kmod/. "$d"/
	if [ "$v" != base ]; then
		p=$top/bench/parts/$v.patch
		[ -f "$p" ] || { echo "parts: no $p" >&2; exit 2; }
		patch -s -d "$d" -p2 < "$p" || { echo "parts: $v.patch does not apply" >&2; exit 1; }
	fi
	make -s -C "$kdir" M="$d" modules > "$d/build.log" 2>&1 ||
		{ cat "$d/build.log" >&2; echo "parts: $v does not build" >&2; exit 1; }
	list="$list $v"
done
export LUNQ_ACCEL=${LUNQ_ACCEL:-icount}
exec "$top/qemu/run" --env LUNQ_PARTS_ARGS="${LUNQ_PARTS_ARGS:-}" \
	"$top/bench/parts-guest.sh" "$runtime" $list
