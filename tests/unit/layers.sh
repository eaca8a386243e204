#!/bin/sh
# tests/unit/layers.sh: kmod/'s files form layers, never a circle.
#
# A unit is a file stem (lunq_core for lunq_core.c and lunq_core.h).
# Unit A depends on unit B when
#   - lunq_A.c or lunq_A.h includes "lunq_B.h", or
#   - lunq_A.o uses a symbol lunq_B.o defines (nm: what A leaves undefined
#     and B defines; from the newest module build under build/kmod/).
# Checks: the dependency graph has no cycle (tsort finds one and names it),
# and the dm target (lunq_target) is a leaf: nothing depends on it.  The
# KUnit suites (*_test.c) are left out: they test a unit from above.
#
#   tests/unit/layers.sh [--graph]    (--graph: print the edges and stop)
# TAP lines: ok/not ok per check.
top=$(cd "$(dirname "$0")/../.." && pwd)
kmod=$top/kmod
n=0
fails=0
ok() { n=$((n + 1)); echo "ok $n - $1"; }
nok() { n=$((n + 1)); fails=$((fails + 1)); echo "not ok $n - $1"; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

units=$(cd "$kmod" && ls lunq_*.c lunq_*.h | sed 's/\.[ch]$//' |
	grep -v '_test$' | sort -u)

# include edges
for u in $units; do
	for f in "$kmod/$u.c" "$kmod/$u.h"; do
		[ -f "$f" ] || continue
		sed -n 's/^#include "\(lunq_[a-z0-9_]*\)\.h".*/\1/p' "$f" |
		while read -r v; do
			[ "$v" = "$u" ] || echo "$u $v include"
		done
	done
done > "$tmp/edges"

# symbol edges, from the objects of the newest module build
# (the default kernel's, when built: another may be building meanwhile)
objdir=$top/build/kmod/$("$top/scripts/kver" 2> /dev/null)/kmod
[ -f "$objdir/dm-lunq.ko" ] || objdir=$(ls -td "$top"/build/kmod/*/kmod 2> /dev/null | head -n 1)
nobj=0
if [ -n "$objdir" ]; then
	nobj=$(ls "$objdir"/lunq_*.o 2> /dev/null | grep -vc '_test\.o$')
	for u in $units; do
		o=$objdir/$u.o
		[ -f "$o" ] || continue
		nm --defined-only -g "$o" | awk -v u="$u" 'NF == 3 { print $3, u }'
	done | sort > "$tmp/defs"
	for u in $units; do
		o=$objdir/$u.o
		[ -f "$o" ] || continue
		nm -u "$o" | awk '{ print $NF }' | sort -u |
			join - "$tmp/defs" |
			awk -v u="$u" '$2 != u { print u, $2, "uses", $1 }'
	done >> "$tmp/edges"
fi

if [ "$1" = --graph ]; then
	sort -u "$tmp/edges"
	exit 0
fi

if [ "$nobj" -gt 0 ]; then
	ok "symbol edges from $nobj objects in ${objdir#"$top"/}"
else
	nok "no module objects under build/kmod/*/kmod (run make first): only includes checked"
fi

awk '{ print $1, $2 }' "$tmp/edges" | sort -u > "$tmp/pairs"
if tsort "$tmp/pairs" > /dev/null 2> "$tmp/tsort"; then
	ok "kmod/ units form no circle ($(wc -l < "$tmp/pairs") dependencies)"
else
	nok "kmod/ units form a circle:"
	sed 's/^/#   /' "$tmp/tsort"
fi

users=$(awk '$2 == "lunq_target" { print $1 " (" $3 " " $4 ")" }' \
	"$tmp/edges" | sort -u | tr '\n' ' ')
if [ -z "$users" ]; then
	ok "the dm target (lunq_target) is a leaf"
else
	nok "the dm target is not a leaf; used by: $users"
fi

lines=$(wc -l < "$kmod/lunq_target.c")
if [ "$lines" -lt 700 ]; then
	ok "lunq_target.c has $lines lines (< 700)"
else
	nok "lunq_target.c has $lines lines (>= 700)"
fi

# the checker itself: a circle must be found
printf 'a b\nb c\nc a\n' > "$tmp/cyc"
if tsort "$tmp/cyc" > /dev/null 2>&1; then
	nok "tsort finds a planted circle"
else
	ok "tsort finds a planted circle"
fi
[ "$fails" -eq 0 ]
