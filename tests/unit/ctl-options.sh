#!/bin/sh
# lunqctl's subcommand options: for each command, the long options its
# --help lists are the ones lunqctl(8) documents as .TP items under the
# command's .SS, no more, no fewer.  The lunqbench options sweep passes
# on ("lunqbench options, passed on: ..." in its --help) are lunqbench
# options that take a value (lunqbench --list-options).
# LQ_MAN (for a test of the test) replaces the page.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
bin=$top/ctl/lunqctl
lb=$top/bench/lunqbench
man=${LQ_MAN:-$top/ctl/lunqctl.8}
[ -x "$bin" ] || make -s -C "$top/ctl" > /dev/null 2>&1
[ -x "$lb" ] || make -s -C "$top/bench" > /dev/null 2>&1
if [ ! -x "$bin" ] || [ ! -x "$lb" ]; then
	fail ctl-options "ctl/lunqctl or bench/lunqbench does not build"
	exit 0
fi
tmp=$(mktemp -d /tmp/lunqctl-opts.XXXXXX)
tap_atexit 'rm -rf "$tmp"'
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
		fail ctl-options-$c "--help and lunqctl(8) differ"
	else
		ok ctl-options-$c "$(wc -l < "$tmp/hall") options"
	fi
done

# lunqctl's option table, as "lunqctl --list-options" dumps it (COMMAND,
# --NAME, -L or -, VALUE or -, lunqctl or lunqbench: the lunqbench options
# sweep and tune pass on, from lunqbench's own table), against lunqctl(8)
# and the bash completion ctl/lunqctl.bash:
#   lunqctl(8): each option has a .TP tag under its command's .SS naming
#     --NAME or -L (a lunqbench option: under sweep's, where they are
#     listed; tune says "as for sweep");
#   the completion: its _lunqctl_opts lines are lunqctl's commands (those
#     of --help) with exactly the options of the table, as -L|--NAME and
#     =VALUE when it takes one.
# A self-check plants an option missing from a copy of the page and one
# missing from (and one added to) a copy of the completion, and expects
# each to be found.  LQ_COMPLETION (for a test of the test) replaces the
# completion.
comp=${LQ_COMPLETION:-$top/ctl/lunqctl.bash}
"$bin" --list-options > "$tmp/table"
n=$(wc -l < "$tmp/table")
if [ "$n" -ge 60 ] && grep -q "^sweep$tab--bs$tab-$tab.*${tab}lunqbench\$" "$tmp/table"; then
	ok ctl-options-table "$n options"
else
	fail ctl-options-table "$n lines in lunqctl --list-options, or no lunqbench option of sweep"
fi

# table_man MAN: a line per option of the table that MAN does not document
table_man() {
	sed 's/\\-/-/g; s/\\f[BIRP]//g' "$1" | awk '
		/^\.SH/ { c = ""; next }
		/^\.SS/ { s = $0; sub(/^\.SS +"?/, "", s); split(s, w, " "); c = w[1]; next }
		c != "" && /^\.TP/ { tag = 1; next }
		c != "" && tag { tag = 0; print c "\t" $0 }' > "$tmp/tags"
	while IFS="$tab" read -r c name letter meta from; do
		where=$c
		[ "$from" = lunqbench ] && where=sweep
		awk -F"$tab" -v c="$where" '$1 == c { print $2 }' "$tmp/tags" > "$tmp/ctags"
		grep -qE -- "(^|[^a-z-])$name([^a-z0-9-]|\$)" "$tmp/ctags" && continue
		[ "$letter" != - ] &&
			grep -qE -- "(^|[^A-Za-z-])$letter([^A-Za-z0-9-]|\$)" "$tmp/ctags" && continue
		echo "$c $name: no .TP tag under .SS $where in $(basename "$1")"
	done < "$tmp/table"
}

# completion FILE: a line per difference between FILE's _lunqctl_opts and
# the table (and lunqctl's commands)
completion() {
	{
		"$bin" --help | sed -n '/^Commands:/,/^$/p' | awk '/^  [a-z]/ { print $1 "\t" }'
		awk -F"$tab" '{ print $1 "\t" ($3 != "-" ? $3 "|" : "") $2 ($4 != "-" ? "=" $4 : "") }' "$tmp/table"
	} | sort -u > "$tmp/cwant"
	sed -n "/^_lunqctl_opts='\$/,/^'\$/p" "$1" | sed '1d;$d' |
		awk 'NF { print $1 "\t"; for (i = 2; i <= NF; i++) print $1 "\t" $i }' |
		sort -u > "$tmp/cgot"
	comm -23 "$tmp/cwant" "$tmp/cgot" | sed "s/\$/: in lunqctl's table, not in $(basename "$1")/"
	comm -13 "$tmp/cwant" "$tmp/cgot" | sed "s/\$/: in $(basename "$1"), not in lunqctl's table/"
}

# report NAME PROBLEMS: ok when there are none
report() {
	if [ -z "$2" ]; then
		ok ctl-options-$1
	else
		printf '%s\n' "$2" | sed 's/^/# /'
		fail ctl-options-$1 "$(printf '%s\n' "$2" | wc -l) problem(s)"
	fi
}
report table-man "$(table_man "$man")"
report completion "$(completion "$comp")"
if [ ! -s "$tmp/cgot" ]; then
	fail ctl-options-completion-read "no _lunqctl_opts lines in $comp"
fi
if bash -n "$comp" 2> "$tmp/bash.err"; then
	ok ctl-options-completion-syntax
else
	sed 's/^/# /' "$tmp/bash.err"
	fail ctl-options-completion-syntax "bash -n $(basename "$comp")"
fi

# self-check: planted violations are found (and nothing else)
sed 's/^\.BR \\-L ", " \\-\\-linux$/.B (gone)/' "$man" > "$tmp/planted.8"
got=$(table_man "$tmp/planted.8")
if [ "$got" = "stat --linux: no .TP tag under .SS stat in planted.8" ]; then
	ok ctl-options-planted-man
else
	printf '%s\n' "$got" | sed 's/^/# /'
	fail ctl-options-planted-man "stat --linux taken from a copy of the page, not found alone"
fi
sed 's/^stat \(.*\) -L|--linux /stat \1 /; s/^hist .*/& --frob/' "$comp" > "$tmp/planted.bash"
got=$(completion "$tmp/planted.bash")
want="stat	-L|--linux: in lunqctl's table, not in planted.bash
hist	--frob: in planted.bash, not in lunqctl's table"
if [ "$got" = "$want" ]; then
	ok ctl-options-planted-completion
else
	printf '%s\n' "$got" | sed 's/^/# /'
	fail ctl-options-planted-completion "stat -L taken from and hist --frob added to a copy of the completion, not found alone"
fi
