#!/bin/sh
# checkpatch.pl (from linux-source-6.1) on kmod/: no errors, no warnings.
# kmod/lunq_compat.h is the one file allowed to key on LINUX_VERSION_CODE
# (checkpatch's LINUX_VERSION_CODE warning, and CONSTANT_COMPARISON for
# "LINUX_VERSION_CODE < KERNEL_VERSION(...)"); everywhere else those warn.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../unit/tap.sh"
src=$("$top/scripts/linux-src") || { fail checkpatch-kmod "no linux-source"; exit 0; }
chk="perl $src/scripts/checkpatch.pl --no-tree --terse --show-types"
compat=kmod/lunq_compat.h
out=$(cd "$top" && {
	$chk --ignore SPDX_LICENSE_TAG -f $(ls kmod/*.c kmod/*.h | grep -vx "$compat")
	$chk --ignore SPDX_LICENSE_TAG,LINUX_VERSION_CODE,CONSTANT_COMPARISON -f "$compat"
} 2>&1 | grep -E 'ERROR|WARNING')
if [ -z "$out" ]; then
	ok checkpatch-kmod
else
	printf '%s\n' "$out" | sed 's/^/# /'
	fail checkpatch-kmod
fi
