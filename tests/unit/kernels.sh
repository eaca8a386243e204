#!/bin/bash
# The kernel list (scripts/kernels) and the default kernel (scripts/kver)
# come from Debian's meta-packages, not from "the newest installed": the
# default is what linux-image-amd64 depends on, whatever else is
# installed; every listed release has image, modules and headers; no
# release is listed twice; KVER and LUNQ_KMETAS override; Linux 7.3 from
# trixie-backports (scripts/bpo-kernel) is listed last when fetched, and
# scripts/kpaths finds every release's image, headers and modules.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
bad=
meta=$(dpkg-query -W -f='${Depends}' linux-image-amd64 2>/dev/null |
	sed -n 's/^linux-image-\([^ ,]*\).*/\1/p')
def=$("$top/scripts/kver" 2>&1) || bad="$bad; kver: $def"
if [ -n "$meta" ] && [ -e "/lib/modules/$meta/build/Makefile" ]; then
	[ "$def" = "$meta" ] || bad="$bad; default $def, not linux-image-amd64's $meta"
fi
list=$("$top/scripts/kernels" 2>&1) || bad="$bad; kernels: $list"
[ "$(echo "$list" | head -1)" = "default $def" ] || bad="$bad; first line '$(echo "$list" | head -1)'"
[ "$(echo "$list" | awk '{ print $2 }' | sort | uniq -d)" = "" ] || bad="$bad; a release twice"
# every release where scripts/kpaths says: an image, a build tree, modules
for rel in $(echo "$list" | awk '{ print $2 }'); do
	KERNEL= KDIR= MODULES=
	eval "$("$top/scripts/kpaths" "$rel" 2>/dev/null)"
	[ -r "$KERNEL" ] && [ -e "$KDIR/Makefile" ] && [ -d "${MODULES%/}/lib/modules/$rel" -o -d "$MODULES/kernel" ] ||
		bad="$bad; $rel lacks image, headers or modules (kpaths: ${KERNEL:-none})"
done
# the trixie-backports kernel (scripts/bpo-kernel) comes last, when fetched
bpo=$(echo "$list" | awk '$1 == "trixie-backports" { print NR }')
[ -z "$bpo" ] || [ "$bpo" = "$(echo "$list" | wc -l)" ] || bad="$bad; trixie-backports not last"
[ "$(KVER=9.9-x "$top/scripts/kver")" = 9.9-x ] || bad="$bad; KVER ignored"
[ "$(LUNQ_BPO=0 LUNQ_KMETAS=no-such-pkg "$top/scripts/kernels" | wc -l)" = 1 ] || bad="$bad; LUNQ_KMETAS ignored"
[ -z "$bpo" ] || [ "$(LUNQ_KMETAS=no-such-pkg "$top/scripts/kernels" | sed 1d | awk '{ print $1 }')" = trixie-backports ] ||
	bad="$bad; LUNQ_KMETAS dropped trixie-backports"
if [ -z "$bad" ]; then
	ok kernels "default $def; matrix: $(echo "$list" | sed 1d | awk '{ print $2 }' | tr '\n' ' ')"
else
	fail kernels "${bad#; }"
fi
