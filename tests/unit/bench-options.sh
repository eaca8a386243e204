#!/bin/sh
# lunqbench's option table (bench/options.c, dumped by the hidden
# --list-options and --list-presets) against what documents it:
#   --help: every option, under its section's heading, with its short
#     letter and argument; no option the table lacks; every preset;
#   lunqbench(1): every option has a .TP tag in OPTIONS under the .SS of
#     its section, naming its short letter, with an argument exactly when
#     it takes one; OPTIONS has no tag for an option the table lacks, and
#     the page mentions no --option the table lacks; every preset is a
#     .TP under .SS Presets.
# LB_MAN and LB_BIN (for a test of the test) replace the page and binary.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
bin=${LB_BIN:-$top/bench/lunqbench}
man=${LB_MAN:-$top/bench/lunqbench.1}
[ -x "$bin" ] || make -s -C "$top/bench" > /dev/null 2>&1
if [ ! -x "$bin" ] || ! "$bin" --list-options > /dev/null 2>&1; then
	fail bench-options "bench/lunqbench does not build or has no --list-options"
	exit 0
fi
tmp=$(mktemp -d /tmp/lunqbench-opts.XXXXXX)
tap_atexit '[ -n "$LB_KEEP" ] || rm -rf "$tmp"'
tab=$(printf '\t')
"$bin" --list-options > "$tmp/table"
"$bin" --list-presets > "$tmp/presets"
"$bin" --help > "$tmp/help"

# report NAME FILE: ok when FILE (the problems found) is empty
report() {
	if [ -s "$2" ]; then
		sed 's/^/# /' "$2"
		fail bench-options-$1 "$(wc -l < "$2") problem(s)"
	else
		ok bench-options-$1
	fi
}

t=$(wc -l < "$tmp/table")
if [ "$t" -ge 20 ]; then ok bench-options-table "$t options"
else fail bench-options-table "only $t options in --list-options"; fi

# --help: "  [-L, ]--NAME[ METAVAR]" lines; the heading above each is the
# last unindented line ending in ':'
awk '/^[^ ].*:$/ { sec = substr($0, 1, length($0) - 1); next }
     /^  (-[A-Za-z], )?--[a-z]/ {
	line = substr($0, 3); short = "--"
	if (line ~ /^-[A-Za-z], /) { short = substr(line, 1, 2); line = substr(line, 5) }
	n = index(line, " "); name = n ? substr(line, 1, n - 1) : line
	rest = n ? substr(line, n + 1) : ""
	sub(/  .*/, "", rest)	# the help text after two spaces
	print name "\t" short "\t" (rest == "" ? "-" : rest) "\t" sec
     }' "$tmp/help" > "$tmp/help.opts"
: > "$tmp/p"
while IFS="$tab" read -r name short meta sec _sweep; do
	h=$(grep "^$name$tab" "$tmp/help.opts")
	if [ -z "$h" ]; then
		echo "$name: not in --help" >> "$tmp/p"
	elif [ "$h" != "$name$tab$short$tab$meta$tab$sec" ]; then
		echo "$name: --help shows '$h', the table has '$short $meta' in '$sec'" >> "$tmp/p"
	fi
done < "$tmp/table"
cut -f1 "$tmp/help.opts" | while read -r name; do
	grep -q "^$name$tab" "$tmp/table" || echo "$name: in --help, not in the table" >> "$tmp/p"
done
while read -r p; do
	grep -q "^    $p  " "$tmp/help" || echo "preset $p: not in --help" >> "$tmp/p"
done < "$tmp/presets"
report help "$tmp/p"

# lunqbench(1), OPTIONS: the tag (the line after .TP) of each item, with
# \- as -, font escapes and macros gone: NAME, -L or --, has an argument
# (y/n), the .SS it is under; "preset NAME" for a .B NAME tag under
# .SS Presets
sed 's/\\-/-/g; s/\\f[BIRP]//g; s/\\ / /g' "$man" | awk '
	/^\.SH/ { opts = ($2 == "OPTIONS"); next }
	!opts { next }
	/^\.SS/ { sec = $0; sub(/^\.SS +/, "", sec); gsub(/"/, "", sec); next }
	/^\.TP/ { tag = 1; next }
	tag {
		tag = 0; line = $0; sub(/^\.[A-Z]+ */, "", line)
		if (line !~ /--[a-z]/) {
			if (sec == "Presets" && $0 ~ /^\.B [a-z]+$/) print "preset " $2
			next
		}
		short = "--"; name = ""; rest = line
		while (match(rest, /--[a-z][a-z0-9-]*|(^|[^-])-[A-Za-z]([^a-z]|$)/)) {
			tok = substr(rest, RSTART, RLENGTH)
			if (tok ~ /^--/) name = name (name == "" ? "" : ",") tok
			else { sub(/^[^-]/, "", tok); short = substr(tok, 1, 2) }
			rest = substr(rest, 1, RSTART - 1) " " substr(rest, RSTART + RLENGTH)
		}
		arg = rest ~ /[A-Za-z0-9]/ ? "y" : "n"
		print name "\t" short "\t" arg "\t" sec
	}' > "$tmp/man.tags"
grep '^preset ' "$tmp/man.tags" | cut -d' ' -f2 > "$tmp/man.presets"
grep -v '^preset ' "$tmp/man.tags" > "$tmp/man.opts"
: > "$tmp/p"
while IFS="$tab" read -r name short meta sec _sweep; do
	arg=y
	[ "$meta" = - ] && arg=n
	m=$(grep "^$name$tab" "$tmp/man.opts")
	if [ -z "$m" ]; then
		echo "$name: no .TP item in OPTIONS of $(basename "$man")" >> "$tmp/p"
	elif [ "$m" != "$name$tab$short$tab$arg$tab$sec" ]; then
		echo "$name: the page has '$(echo "$m" | tr "$tab" ' ')', the table '$name $short arg=$arg $sec'" >> "$tmp/p"
	fi
done < "$tmp/table"
cut -f1 "$tmp/man.opts" | tr ',' '\n' | while read -r name; do
	grep -q "^$name$tab" "$tmp/table" ||
		echo "$name: a .TP item in OPTIONS, not in the table" >> "$tmp/p"
done
sed 's/\\-/-/g' "$man" | grep -o -- '--[a-z][a-z0-9-]*' | sort -u | while read -r name; do
	grep -q "^$name$tab" "$tmp/table" ||
		echo "$name: mentioned in $(basename "$man"), not in the table" >> "$tmp/p"
done
while read -r p; do
	grep -qx "$p" "$tmp/man.presets" || echo "preset $p: no .TP item under .SS Presets" >> "$tmp/p"
done < "$tmp/presets"
while read -r p; do
	grep -qx "$p" "$tmp/presets" || echo "preset $p: in the page, not in the table" >> "$tmp/p"
done < "$tmp/man.presets"
report man "$tmp/p"
