#!/bin/sh
# tests/lint/kmod-layers.sh: kmod/'s files keep the layers ARCHITECTURE.md draws.
#
# A unit is a file stem (lunq_core for lunq_core.c and lunq_core.h).
# Unit A depends on unit B when
#   - lunq_A.c or lunq_A.h includes "lunq_B.h", or
#   - lunq_A.o uses a symbol lunq_B.o defines (nm: what A leaves undefined
#     and B defines; from the newest module build under build/kmod/).
# The layer of each unit is its band in ARCHITECTURE.md's diagram ("The
# kernel module: layers": bands between dashed lines, the top one the dm
# target; on each line the file named in the file column; a glob such as
# lunq_model*.c names every unit it matches).
# Checks: every unit has a layer and every file the diagram names exists;
# no unit depends on a unit of a higher layer; the dependency graph has no
# cycle (tsort finds one and names it); the dm target (lunq_target) is a
# leaf: nothing depends on it; only the throttle unit writes the depth.  The KUnit suites (*_test.c) are left out:
# they test a unit from above.  The checker itself must catch a planted
# upward dependency and a planted circle.
#
#   tests/lint/kmod-layers.sh [--graph|--layers]
#     --graph: print the edges and stop; --layers: print "unit layer"
#     (0 the lowest band) and stop
# TAP lines: ok/not ok per check.
top=$(cd "$(dirname "$0")/../.." && pwd)
kmod=$top/kmod
. "$(dirname "$0")/../unit/tap.sh"
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'

units=$(cd "$kmod" && ls lunq_*.c lunq_*.h | sed 's/\.[ch]$//' |
	grep -v '_test$' | sort -u)

# layers from ARCHITECTURE.md's diagram: "PATTERN BAND" (band 0 the top),
# then "unit layer" with layer 0 the lowest band
diagram() {	# ARCHITECTURE.md
	awk '
		/^## The kernel module: layers/ { sec = 1; next }
		sec && /^```/ { if (inblk) exit; inblk = 1; next }
		!inblk { next }
		/^ *-----/ { band++; next }
		match($0, /lunq_[a-z0-9_*]+\.[ch]/) && RSTART < 25 {
			f = substr($0, RSTART, RLENGTH)
			sub(/\.[ch]$/, "", f)
			print f, band + 0
		}' "$1"
}
# layers_of DIAGRAM UNITS...: "unit layer" per unit the diagram places,
# "? unit" for a unit it does not, "! pattern" for an entry matching none
layers_of() {
	dg=$1
	shift
	nb=$(awk 'BEGIN { m = 0 } $2 > m { m = $2 } END { print m }' "$dg")
	for u in "$@"; do
		l=$(while read -r pat band; do
			case $u in $pat) echo $((nb - band)) ;; esac
		done < "$dg" | head -n 1)
		if [ -n "$l" ]; then echo "$u $l"; else echo "? $u"; fi
	done
	while read -r pat band; do
		hit=
		for u in "$@"; do
			case $u in $pat) hit=1 ;; esac
		done
		[ -n "$hit" ] || echo "! $pat"
	done < "$dg"
}
# upward LAYERS EDGES: each edge from a unit to one of a higher layer
upward() {
	awk 'NR == FNR { lay[$1] = $2; next }
		($1 in lay) && ($2 in lay) && lay[$1] < lay[$2] {
			print $1 " (layer " lay[$1] ") -> " $2 " (layer " lay[$2] "): " $3 ($4 ? " " $4 : "")
		}' "$1" "$2" | sort -u
}
diagram "$top/ARCHITECTURE.md" > "$tmp/diagram"
# shellcheck disable=SC2086
layers_of "$tmp/diagram" $units > "$tmp/layers.all"
grep -v '^[?!] ' "$tmp/layers.all" > "$tmp/layers"
if [ "$1" = --layers ]; then
	cat "$tmp/layers.all"
	exit 0
fi

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
	fail "no module objects under build/kmod/*/kmod (run make first): only includes checked"
fi

nodiag=$(sed -n 's/^? //p' "$tmp/layers.all" | tr '\n' ' ' | sed 's/ $//')
stale=$(sed -n 's/^! //p' "$tmp/layers.all" | tr '\n' ' ' | sed 's/ $//')
if [ ! -s "$tmp/diagram" ]; then
	fail "no layer diagram found in ARCHITECTURE.md (\"## The kernel module: layers\")"
elif [ -z "$nodiag$stale" ]; then
	ok "ARCHITECTURE.md's diagram gives each of $(wc -l < "$tmp/layers") units a layer ($(($(awk '{ print $2 }' "$tmp/diagram" | sort -un | tail -n 1) + 1)) bands)"
else
	fail "ARCHITECTURE.md's diagram and kmod/ differ:${nodiag:+ not in the diagram: $nodiag;}${stale:+ no such file in kmod/: $stale}"
fi

upward "$tmp/layers" "$tmp/edges" > "$tmp/up"
if [ -s "$tmp/up" ]; then
	fail "a unit depends on a higher layer:"
	sed 's/^/#   /' "$tmp/up"
else
	ok "no unit depends on a higher layer ($(awk '{ print $1, $2 }' "$tmp/edges" | sort -u | wc -l) dependencies)"
fi

awk '{ print $1, $2 }' "$tmp/edges" | sort -u > "$tmp/pairs"
if tsort "$tmp/pairs" > /dev/null 2> "$tmp/tsort"; then
	ok "kmod/ units form no circle ($(wc -l < "$tmp/pairs") dependencies)"
else
	fail "kmod/ units form a circle:"
	sed 's/^/#   /' "$tmp/tsort"
fi

users=$(awk '$2 == "lunq_target" { print $1 " (" $3 " " $4 ")" }' \
	"$tmp/edges" | sort -u | tr '\n' ' ')
if [ -z "$users" ]; then
	ok "the dm target (lunq_target) is a leaf"
else
	fail "the dm target is not a leaf; used by: $users"
fi

lines=$(wc -l < "$kmod/lunq_target.c")
if [ "$lines" -lt 700 ]; then
	ok "lunq_target.c has $lines lines (< 700)"
else
	fail "lunq_target.c has $lines lines (>= 700)"
fi

# the checker itself: an upward dependency must be found -- the real
# layers and edges, plus lunq_sched (pure logic) including lunq_core.h
# (device core) -- and nothing else
cp "$tmp/edges" "$tmp/edges.planted"
echo "lunq_sched lunq_core include" >> "$tmp/edges.planted"
upward "$tmp/layers" "$tmp/edges.planted" > "$tmp/up.planted"
if grep -q '^lunq_sched (layer [0-9]*) -> lunq_core (layer [0-9]*): include$' "$tmp/up.planted" &&
   [ "$(comm -13 "$tmp/up" "$tmp/up.planted" | wc -l)" = 1 ]; then
	ok "a planted upward dependency (lunq_sched -> lunq_core) is found"
else
	fail "a planted upward dependency (lunq_sched -> lunq_core) is found"
	sed 's/^/#   /' "$tmp/up.planted"
fi
# and a diagram that lacks a unit, or names a file kmod/ lacks
printf 'lunq_a* 0\nlunq_gone 1\n' > "$tmp/dg.planted"
if [ "$(layers_of "$tmp/dg.planted" lunq_a lunq_ab lunq_b | sort | tr '\n' ' ')" = \
     "! lunq_gone ? lunq_b lunq_a 1 lunq_ab 1 " ]; then
	ok "a planted unit outside the diagram and a stale diagram entry are found"
else
	fail "a planted unit outside the diagram and a stale diagram entry are found"
	layers_of "$tmp/dg.planted" lunq_a lunq_ab lunq_b | sed 's/^/#   /'
fi

# the checker itself: a circle must be found
printf 'a b\nb c\nc a\n' > "$tmp/cyc"
if tsort "$tmp/cyc" > /dev/null 2>&1; then
	fail "tsort finds a planted circle"
else
	ok "tsort finds a planted circle"
fi
# One owner for the throttle (lunq_throttle.c, lunq_throttle_dev.c): no
# other file of kmod/ (KUnit suites aside) writes the live depth or the
# lock-free gate, or calls the depth's one store.
# depth_writers DIR: the offending lines, "file:line: text"
depth_writers() {
	for f in "$1"/lunq_*.c "$1"/lunq_*.h; do
		case ${f##*/} in
		lunq_throttle.[ch]|lunq_throttle_dev.[ch]|*_test.c) continue ;;
		esac
		grep -nE '(thr(\.|->)depth|fast_lim)[[:space:]]*([-+*/|&]?=[^=]|\+\+|--)|WRITE_ONCE\([^,]*(fast_lim|thr(\.|->)depth)|lunq_throttle_store\(' "$f" |
			sed "s|^|${f##*/}:|"
	done
}
depth_writers "$kmod" > "$tmp/writers"
if [ -s "$tmp/writers" ]; then
	fail "only the throttle unit writes the depth; also:"
	sed 's/^/#   /' "$tmp/writers"
else
	ok "only the throttle unit (lunq_throttle.c, lunq_throttle_dev.c) writes the depth and the lock-free gate"
fi
# the checker itself: planted writes in a copy of kmod/ are found
mkdir "$tmp/kmod"
cp "$kmod"/lunq_*.[ch] "$tmp/kmod/"
printf 'static void x(struct lunq_c *lc)\n{\n\tlc->host.thr.depth = 3;\n\tWRITE_ONCE(lc->host.thr.fast_lim, 0);\n\tlc->host.thr.depth++;\n}\n' >> "$tmp/kmod/lunq_io.c"
if [ "$(depth_writers "$tmp/kmod" | grep -c '^lunq_io\.c:')" = 3 ]; then
	ok "planted writes of the depth outside the throttle unit are found"
else
	fail "planted writes of the depth outside the throttle unit are found"
	depth_writers "$tmp/kmod" | sed 's/^/#   /'
fi
[ "$tap_fails" -eq 0 ]
