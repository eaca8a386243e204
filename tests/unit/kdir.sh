#!/bin/bash
# `make KDIR=<tree> kmod` (scripts/build-kmod) checks the tree first: a
# tree without device-mapper, or without modules, or not configured, is
# refused with a message naming what is missing, and nothing is built.
# The trees here are fakes holding only what the check reads (Makefile,
# include/config/auto.conf, include/generated/utsrelease.h); the real
# builds are `make` (Debian's headers) and tests/run --vm-debug.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'

fake() {	# fake DIR CONFIG_LINES...
	local d=$tmp/$1
	shift
	mkdir -p "$d/include/config" "$d/include/generated" "$d/scripts/mod"
	echo 'all:' > "$d/Makefile"
	printf '%s\n' "$@" > "$d/include/config/auto.conf"
	echo '#define UTS_RELEASE "6.1.0-lunqfake"' > "$d/include/generated/utsrelease.h"
	echo "$d"
}
check() {	# check NAME KDIR WANT_TEXT...
	local name=$1 kdir=$2 out rc w bad=
	shift 2
	out=$(make -s -C "$top" kmod KDIR="$kdir" 2>&1)
	rc=$?
	for w in "$@"; do
		printf '%s' "$out" | grep -qF -- "$w" || bad="$bad; lacks '$w'"
	done
	[ $rc != 0 ] || bad="$bad; make exited 0"
	[ ! -e "$top/build/kmod/6.1.0-lunqfake" ] || bad="$bad; built something"
	if [ -z "$bad" ]; then
		ok kdir-$name
	else
		printf '%s\n' "$out" | sed 's/^/# /'
		fail kdir-$name "${bad#; }"
	fi
}
good="CONFIG_MODULES=y CONFIG_MODULE_UNLOAD=y CONFIG_BLOCK=y CONFIG_MD=y CONFIG_BLK_DEV_DM=m CONFIG_NET=y CONFIG_SYSFS=y"

# shellcheck disable=SC2086
check no-dm "$(fake nodm $(echo $good | sed 's/CONFIG_BLK_DEV_DM=m//'))" \
	"CONFIG_BLK_DEV_DM is not set (device-mapper)" "enable the options above"
# shellcheck disable=SC2086
check no-modules-no-net "$(fake nomod $(echo $good | sed 's/CONFIG_MODULES=y//; s/CONFIG_NET=y/CONFIG_NET=m/'))" \
	"CONFIG_MODULES is not set (loadable modules)" "CONFIG_NET=m, need y"
d=$(fake unconf)
rm "$d/include/config/auto.conf"
check unconfigured "$d" "is not configured" "modules_prepare"
check not-a-tree "$tmp/nowhere" "no such directory"
# shellcheck disable=SC2086
d=$(fake nomodpost $good)
check no-modpost "$d" "scripts/mod/modpost is not built"
