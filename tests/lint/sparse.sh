#!/bin/bash
# sparse (kbuild's C=2) on kmod/, through scripts/sparse-kmod (also make
# check): against Debian's default kernel (6.1) and 6.12 when its headers
# are installed (else a SKIP); one check per kernel, "sparse-<release>",
# which fails on any sparse warning and prints them.  The module is built
# first as `make` builds it (build/kmod/<release>/): `make test` has built
# 6.1's, and 6.12's is the one the kernel matrix builds next anyway.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../unit/tap.sh"
out=$("$top/scripts/sparse-kmod" 2>&1)
rc=$?
name= what= details= fails=0
# flush: the check of the kernel read so far, its lines before it
flush() {
	[ -n "$name" ] || return 0
	[ -z "$details" ] || printf '%s\n' "$details" | sed 's/^/# /'
	if [ "$what" = "0 warnings" ]; then
		ok sparse-$name
	else
		fail sparse-$name "$what"
		fails=$((fails + 1))
	fi
	name= what= details=
}
while IFS= read -r l; do
	case $l in
	"sparse-kmod: SKIP "*)	# sparse-kmod: SKIP 6.12: why
		flush
		l=${l#sparse-kmod: SKIP }
		skip sparse-${l%%: *} "${l#*: }"
		;;
	"sparse-kmod: "*": "*)	# sparse-kmod: RELEASE: N warnings, or what failed
		flush
		l=${l#sparse-kmod: }
		name=${l%%: *} what=${l#*: }
		;;
	"sparse-kmod: "*)
		flush
		name=kmod what=${l#sparse-kmod: }
		;;
	*) details=${details:+$details$'\n'}$l ;;
	esac
done <<< "$out"
[ -n "$name" ] || [ $rc -lt 2 ] || [ $fails != 0 ] || name=kmod what="scripts/sparse-kmod: exit $rc"
flush
