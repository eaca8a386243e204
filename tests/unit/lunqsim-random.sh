#!/bin/sh
# sim/lunqsim --random (doc/lunqsim.md, "Random scenarios"): the
# generator is deterministic (the same seed, the same files byte for
# byte; scenario I of a seed the same however many are drawn), every file
# it writes passes both checkers (lunqsim --check and the VM arena's
# tests/lib/scenario-file.sh), and the judge over JUDGE_N scenarios of
# fixed seeds holds auto to the issue's thresholds where it meets them and
# to today's figures where it does not yet (the doc's table says which).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
tap_tmpdir
tap_built "lunqsim builds" "$top" sim/lunqsim
sim=$top/sim/lunqsim
. "$top/tests/lib/scenario-file.sh"
cd "$top" || exit 1

# determinism: two runs of a seed write the same files; the first 10 of
# 40 are the 10 a run of 10 writes
mkdir "$tmp/a" "$tmp/b" "$tmp/c"
"$sim" --random 40 --seed 77 --policies knee --sweep 4,16 --save-dir "$tmp/a" > "$tmp/a.out" 2>&1
"$sim" --random 40 --seed 77 --policies knee --sweep 4,16 --save-dir "$tmp/b" > "$tmp/b.out" 2>&1
"$sim" --random 10 --seed 77 --policies knee --sweep 4,16 --save-dir "$tmp/c" > /dev/null 2>&1
n=$(ls "$tmp/a" | wc -l)
diff -r "$tmp/a" "$tmp/b" > "$tmp/d" && [ "$n" = 40 ] &&
	for f in "$tmp/c"/*.scn; do cmp -s "$f" "$tmp/a/${f##*/}" || exit 1; done &&
	[ "$(ls "$tmp/c" | wc -l)" = 10 ]
tap_check $? "the same seed, the same 40 files byte for byte; scenario I the same in a run of 10" "$n files; $(head -3 "$tmp/d" | tr '\n' ';')"
grep -v '^lunqsim: .* simulated' "$tmp/a.out" > "$tmp/a1"
grep -v '^lunqsim: .* simulated' "$tmp/b.out" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" && grep -q '^knee ' "$tmp/a1"
tap_check $? "the same seed, the same distributions"
"$sim" --random 10 --seed 78 --policies knee --sweep 4,16 --save-dir "$tmp/c" > /dev/null 2>&1
[ "$(ls "$tmp/c" | wc -l)" = 20 ] && ! cmp -s "$tmp/c/r77-0000.scn" "$tmp/c/r78-0000.scn"
tap_check $? "another seed, other scenarios"
