#!/bin/bash
# bench/floor/build.sh [KDIR]: build dm-lunq-floor.ko (the floor of
# bench/overhead.sh, see dm-lunq-floor.c) for the VM kernel
# (scripts/kver; KDIR: another kernel tree) into
# build/floor/<release>/dm-lunq-floor.ko, the sources linked there so
# the tree gets no build outputs.  Prints the module's path.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kdir=${1:-/lib/modules/$("$top/scripts/kver")/build}
[ -f "$kdir/Makefile" ] || { echo "floor/build.sh: KDIR=$kdir is not a kernel tree" >&2; exit 1; }
krel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h")
out=$top/build/floor/$krel
mkdir -p "$out"
for f in dm-lunq-floor.c Kbuild; do
	ln -sf "$top/bench/floor/$f" "$out/$f"
done
make -s -C "$kdir" M="$out" modules >&2
echo "$out/dm-lunq-floor.ko"
