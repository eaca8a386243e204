#!/bin/sh
# tests/lint/tools-layers.sh: the userspace tools keep to their layers.
#
#   lib/    liblunq.a: includes nothing of ctl/ or bench/
#   ctl/    lunqctl:   includes nothing of bench/, links ../lib/liblunq.a
#   bench/  lunqbench: includes nothing of ctl/, links ../lib/liblunq.a
#
# "Includes" means an #include of a path into the other directory or of a
# header the other directory has (by name: an -I could reach it), and, in
# the Makefile, any mention of the other directory.  Neither tool compiles
# kmod/*.c itself: the module's pure files come in through liblunq.  Both
# speak to the running module through netlink (kmod/uapi/lunq.h), dm ioctls
# and sysfs; the kmod headers they include are the shared pure ones that
# ARCHITECTURE.md lists (the key table, names, histogram buckets).
# A self-check plants a violation in a copy and expects it to be found.
# TAP lines: ok/not ok per check.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../unit/tap.sh"
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'

# violations ROOT DIR OTHER...: one line each, what DIR takes from OTHER
violations() {
	root=$1 dir=$2
	shift 2
	for other in "$@"; do
		hdrs=$(cd "$root/$other" && ls *.h 2> /dev/null)
		for f in "$root/$dir"/*.c "$root/$dir"/*.h; do
			[ -f "$f" ] || continue
			grep -Hn '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" |
			while IFS= read -r line; do
				inc=$(echo "$line" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
				case $inc in
				*"$other"/*) echo "${line#"$root"/}" ;;
				*/*) ;;
				*) for h in $hdrs; do
					[ "$h" = "$inc" ] && [ ! -f "$root/$dir/$inc" ] &&
						echo "${line#"$root"/} ($other/$h)"
				   done ;;
				esac
			done
		done
		[ -f "$root/$dir/Makefile" ] &&
			grep -Hn "\.\./$other\|\(^\|[^a-z_.]\)$other/" "$root/$dir/Makefile" |
			grep -v '^[^:]*:[0-9]*:#' | sed "s|^$root/||"
	done
}

check_dir() {	# DIR OTHER...
	v=$(violations "$top" "$@")
	if [ -z "$v" ]; then
		ok "$1/ takes nothing from $2/${3:+ or $3/}"
	else
		fail "$1/ takes from another layer:"
		echo "$v" | sed 's/^/#   /'
	fi
}

check_dir lib ctl bench
check_dir ctl bench
check_dir bench ctl

# the tools link liblunq and compile no kmod/*.c themselves (what their
# Makefiles compile: SRCS, as make expands it)
for d in ctl bench; do
	mk=$top/$d/Makefile
	srcs=$(make -s -C "$top/$d" --no-print-directory \
		--eval 'lq-print-srcs: ; @echo $(SRCS)' lq-print-srcs 2>&1)
	kc=$(echo "$srcs" | tr ' ' '\n' | grep 'kmod/')
	if grep -q '^LIBLUNQ := \.\./lib/liblunq\.a' "$mk" &&
	   grep -q '\$(SRCS) \$(LIBLUNQ) \$(LDLIBS)' "$mk" &&
	   [ -n "$srcs" ] && [ -z "$kc" ]; then
		ok "$d/ links ../lib/liblunq.a and compiles no kmod/*.c"
	else
		fail "$d/ links ../lib/liblunq.a and compiles no kmod/*.c (SRCS: $srcs)"
	fi
done

# self-check: a planted include of ctl's header in bench/, and a Makefile
# mention, are both found
mkdir -p "$tmp/t/bench" "$tmp/t/ctl" "$tmp/t/lib"
printf '#include "lq.h"\n#include "iostat.h"\n' > "$tmp/t/bench/x.c"
printf 'CFLAGS += -I../ctl\n' > "$tmp/t/bench/Makefile"
: > "$tmp/t/ctl/iostat.h"
printf '#include "../bench/lb.h"\n' > "$tmp/t/lib/y.c"
planted=$(violations "$tmp/t" bench ctl; violations "$tmp/t" lib ctl bench)
if echo "$planted" | grep -q 'bench/x.c:2:.*iostat.h' &&
   echo "$planted" | grep -q 'bench/Makefile:1:' &&
   echo "$planted" | grep -q 'lib/y.c:1:' &&
   [ "$(echo "$planted" | wc -l)" = 3 ]; then
	ok "tools-layers.sh finds planted violations (3 of 3, nothing else)"
else
	fail "tools-layers.sh finds planted violations"
	echo "$planted" | sed 's/^/#   /'
fi
[ "$tap_fails" = 0 ]
