#!/bin/sh
# lunqctl's subcommand options: for each command, the long options its
# --help lists are the ones lunqctl(8) documents as .TP items under the
# command's .SS, no more, no fewer.  The lunqbench options sweep passes
# on ("lunqbench options, passed on: ..." in its --help) are lunqbench
# options that take a value (lunqbench --list-options).
# LQ_MAN (for a test of the test) replaces the page.
top=$(cd "$(dirname "$0")/../.." && pwd)
bin=$top/ctl/lunqctl
lb=$top/bench/lunqbench
man=${LQ_MAN:-$top/ctl/lunqctl.8}
[ -x "$bin" ] || make -s -C "$top/ctl" > /dev/null 2>&1
[ -x "$lb" ] || make -s -C "$top/bench" > /dev/null 2>&1
if [ ! -x "$bin" ] || [ ! -x "$lb" ]; then
	echo "not ok ctl-options # ctl/lunqctl or bench/lunqbench does not build"
	exit 0
fi
tmp=$(mktemp -d /tmp/lunqctl-opts.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
tab=$(printf '\t')
sed 's/\\-/-/g; s/\\f[BIRP]//g' "$man" > "$tmp/man"
for c in create remove list show set reset stat hist align events apply sweep tune; do
	# --help: option lines ("  -x, --name", "  --a | --b"); sweep's
	# passed-on lunqbench options apart
	"$bin" "$c" --help > "$tmp/help" 2>&1
	grep -oE -- '^ +(-[A-Za-z0-9], )?--[a-z][a-z0-9-]*( \| --[a-z][a-z0-9-]*)*' "$tmp/help" |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u > "$tmp/h"
	sed -n '/^lunqbench options, passed on:/,/VALUE/p' "$tmp/help" |
		sed 's/VALUE.*//' | grep -oE -- '--[a-z][a-z0-9-]*' | sort -u > "$tmp/passed"
	sort -u "$tmp/h" "$tmp/passed" > "$tmp/hall"
	# lunqctl(8): the tags of .TP items under .SS "CMD ..."
	awk -v c="$c" '
		/^\.SH/ { in_c = 0; next }
		/^\.SS/ { s = $0; sub(/^\.SS +"?/, "", s); split(s, w, " ")
			  in_c = (w[1] == c); next }
		in_c && /^\.TP/ { tag = 1; next }
		in_c && tag { tag = 0; print }' "$tmp/man" |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u > "$tmp/m"
	: > "$tmp/p"
	comm -23 "$tmp/hall" "$tmp/m" | sed "s/\$/: in 'lunqctl $c --help', not in $(basename "$man")/" >> "$tmp/p"
	comm -13 "$tmp/hall" "$tmp/m" | sed "s/\$/: in $(basename "$man") under $c, not in its --help/" >> "$tmp/p"
	while read -r o; do
		"$lb" --list-options | grep -q "^$o$tab-.$tab[^-]" ||
			echo "$o: passed on to lunqbench, not a lunqbench option with a value" >> "$tmp/p"
	done < "$tmp/passed"
	if [ -s "$tmp/p" ]; then
		sed 's/^/# /' "$tmp/p"
		echo "not ok ctl-options-$c # --help and lunqctl(8) differ"
	else
		echo "ok ctl-options-$c # $(wc -l < "$tmp/hall") options"
	fi
done
