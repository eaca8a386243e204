#!/bin/bash
# The kernel list (scripts/kernels) and the default kernel (scripts/kver)
# come from Debian's meta-packages, not from "the newest installed": the
# default is what linux-image-amd64 depends on, whatever else is
# installed; every listed release has image, modules and headers; no
# release is listed twice; KVER and LUNQ_KMETAS override.
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
for rel in $(echo "$list" | awk '{ print $2 }'); do
	[ -r "/boot/vmlinuz-$rel" ] && [ -e "/lib/modules/$rel/build/Makefile" ] ||
		bad="$bad; $rel lacks image or headers"
done
[ "$(KVER=9.9-x "$top/scripts/kver")" = 9.9-x ] || bad="$bad; KVER ignored"
[ "$(LUNQ_KMETAS=no-such-pkg "$top/scripts/kernels" | wc -l)" = 1 ] || bad="$bad; LUNQ_KMETAS ignored"
if [ -z "$bad" ]; then
	ok kernels "default $def; matrix: $(echo "$list" | sed 1d | awk '{ print $2 }' | tr '\n' ' ')"
else
	nok kernels "${bad#; }"
fi
