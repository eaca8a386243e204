#!/bin/sh
# checkpatch.pl (from linux-source-6.1) on kmod/: no errors, no warnings.
top=$(cd "$(dirname "$0")/../.." && pwd)
src=$("$top/scripts/linux-src") || { echo "not ok checkpatch-kmod # no linux-source"; exit 0; }
out=$(cd "$top" && perl "$src/scripts/checkpatch.pl" --no-tree --terse --show-types \
	--ignore SPDX_LICENSE_TAG -f kmod/*.c kmod/*.h 2>&1 | grep -E 'ERROR|WARNING')
if [ -z "$out" ]; then
	echo "ok checkpatch-kmod"
else
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "not ok checkpatch-kmod"
fi
