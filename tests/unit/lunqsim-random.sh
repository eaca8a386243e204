#!/bin/sh
# sim/lunqsim --random (doc/lunqsim.md, "Random scenarios"): the
# generator is deterministic (the same seed, the same files byte for
# byte; scenario I of a seed the same however many are drawn), every file
# it writes passes both checkers (lunqsim --check and the VM arena's
# tests/lib/scenario-file.sh), and the judge over JUDGE_N scenarios of
# fixed seeds holds auto to the issue's thresholds where it meets them and
# to today's figures where it does not yet (the doc's table says which).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/lunqsim-test.sh"

# determinism: two runs of a seed write the same files; the first 10 of
# 40 are the 10 a run of 10 writes
mkdir "$tmp/a" "$tmp/b" "$tmp/c"
"$sim" --random 40 --seed 77 --policies knee --sweep 4,16 --save-dir "$tmp/a" > "$tmp/a.out" 2>&1
"$sim" --random 40 --seed 77 --policies knee --sweep 4,16 --save-dir "$tmp/b" > "$tmp/b.out" 2>&1
"$sim" --random 10 --seed 77 --policies knee --sweep 4,16 --save-dir "$tmp/c" > /dev/null 2>&1
n=$(ls "$tmp/a" | wc -l)
diff -r "$tmp/a" "$tmp/b" > "$tmp/d" && [ "$n" = 40 ] &&
	! for f in "$tmp/c"/*.scn; do cmp -s "$f" "$tmp/a/${f##*/}" || echo "$f"; done | grep -q . &&
	[ "$(ls "$tmp/c" | wc -l)" = 10 ]
tap_check $? "the same seed, the same 40 files byte for byte; scenario I the same in a run of 10" "$n files; $(head -3 "$tmp/d" | tr '\n' ';')"
grep -v '^lunqsim: .* simulated' "$tmp/a.out" > "$tmp/a1"
grep -v '^lunqsim: .* simulated' "$tmp/b.out" > "$tmp/b1"
cmp -s "$tmp/a1" "$tmp/b1" && grep -q '^knee ' "$tmp/a1"
tap_check $? "the same seed, the same distributions"
"$sim" --random 10 --seed 78 --policies knee --sweep 4,16 --save-dir "$tmp/c" > /dev/null 2>&1
[ "$(ls "$tmp/c" | wc -l)" = 20 ] && ! cmp -s "$tmp/c/r77-0000.scn" "$tmp/c/r78-0000.scn"
tap_check $? "another seed, other scenarios"

# bad input: refused before anything runs (exit 2), no file left
touch "$tmp/afile"
bad=0
for a in "--random 0" "--random -1" "--random x" "--random 5 --seed x" \
	 "--random 5 --seed -1" "--random 5 --worst 1e3" \
	 "--random 5 --worst-dir $tmp/afile" "--random 5 --save-dir $tmp/afile/d"; do
	# shellcheck disable=SC2086
	"$sim" $a > "$tmp/bo" 2> "$tmp/be"
	rc=$?
	[ $rc = 2 ] && [ ! -s "$tmp/bo" ] && grep -q '^lunqsim: ' "$tmp/be" ||
		{ bad=$((bad + 1)); diag "lunqsim $a: exit $rc, $(head -1 "$tmp/be")"; }
done
tap_check $bad "bad --random, --seed, --worst, --worst-dir and --save-dir refused (exit 2, a message, nothing printed)"

# the judge over 200 scenarios of every kind (seed 1000, fixed: auto
# misses issue 63's thresholds over every kind -- doc/lunqsim.md, "auto
# against the thresholds" -- so this run asserts what must hold whatever
# auto does): every file it wrote passes lunqsim --check and the VM
# arena's checker; each policy has its distribution; the worst files
# replay to the figures the judge gave them
"$sim" --random 200 --seed 1000 --save-dir "$tmp/all" --worst 3 --worst-dir "$tmp/worst" > "$tmp/j.out" 2> "$tmp/j.err"
rc=$?
tap_quote "$tmp/j.out"
n=$(ls "$tmp/all" | wc -l)
# (lunqsim takes up to 64 files a run)
ls "$tmp"/all/*.scn | xargs -n 50 "$sim" --check > "$tmp/chk" 2>&1 && [ "$n" = 200 ] &&
	[ "$(grep -c ', [0-9]* phase(s)$' "$tmp/chk")" = 200 ]
tap_check $? "200 generated files, each read by lunqsim --check and simulated" "$n files; $(grep -v 'phase(s)$' "$tmp/chk" | head -3 | tr '\n' ';')"
bad=0
for f in "$tmp"/all/*.scn; do
	scn_read "$f" 2> "$tmp/e" || { bad=$((bad + 1)); tap_quote "$tmp/e"; }
done
tap_check $bad "each of them passes the VM arena's checker (tests/lib/scenario-file.sh)"
awk '$1 ~ /^(knee|target|static16|auto)$/ && $3 == "|" { n++ } END { exit n != 4 }' "$tmp/j.out" &&
	grep -q '^judge: ' "$tmp/j.out" && grep -q '^lunqsim: 200/200 scenarios$' "$tmp/j.err" &&
	{ [ $rc = 0 ] || [ $rc = 1 ]; }
tap_check $? "the judge: a distribution for knee, target, static16 and auto, its verdict, progress on stderr" "exit $rc"
bad=0 nw=0
for f in "$tmp"/worst/*.scn; do
	nw=$((nw + 1))
	want=$(sed -n 's/^# auto: IOPS \([0-9.]*\) x.*/\1/p' "$f")
	cmd=$(sed -n 's/^# replay: sim\/lunqsim \(.*\) FILE$/\1/p' "$f")
	pol=knee
	grep -q '^target_ms=' "$f" && pol=target
	# shellcheck disable=SC2086
	"$sim" $cmd --policies "$pol" "$f" > "$tmp/rp" 2>&1
	got=$(awk -v p="$pol" '$1 == p && NF >= 7 { print $3 }' "$tmp/rp")
	[ -n "$want" ] && [ "$got" = "$want" ] || { bad=$((bad + 1)); diag "$f: the judge said $want, the replay $got"; tap_quote "$tmp/rp"; }
done
[ $nw -ge 3 ] && [ $nw -le 6 ]
tap_check $((bad + $?)) "the worst 3 by IOPS and by latency (3-6 files) replay (sim/lunqsim --sweep --seed FILE) to the judge's IOPS ratio"

# issue 63's thresholds, exactly, where auto meets them: 200 scenarios of
# seed 1 of the kinds flash, capacity, fixed, rate-steps and rate-jumps
# (auto:knee >= 0.95 x the oracle's IOPS in >= 95%, >= 0.85 in all,
# latency <= 1.25 x in >= 95%).  Over the disks' kinds auto misses them
# (doc/lunqsim.md).  Over these kinds seeds 1 to 21 all pass, but the
# latency share went down to 95.0% (seed 17): a fresh seed each run would
# fail now and then by chance, so the seed is fixed
"$sim" --random 200 --seed 1 --kinds flash,capacity,fixed,rate-steps,rate-jumps > "$tmp/p.out" 2> /dev/null
rc=$?
tap_quote "$tmp/p.out"
grep -q '^thresholds (auto): IOPS >= 0.95 x the oracle.s in .* (>= 95%: pass), >= 0.85 in all (worst .*: pass), latency <= 1.25 x in .* (>= 95%: pass)$' "$tmp/p.out" &&
	grep -q '^judge: pass$' "$tmp/p.out" && [ $rc = 0 ]
tap_check $? "auto:knee meets issue 63's thresholds over 200 scenarios of flash, capacity, fixed and open loops (seed 1)" "exit $rc; $(grep '^thresholds' "$tmp/p.out")"

# --json: the same distributions as one JSON object
"$sim" --random 12 --seed 3 --json > "$tmp/js" 2> /dev/null
rc=$?
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
a = d["policies"]["auto"]
assert d["seed"] == 3 and d["n"] == 12 and a["n"] == 12, d
assert 0 < a["iops_ratio"]["worst"] <= a["iops_ratio"]["p10"] <= a["iops_ratio"]["median"], a
assert a["latency_ratio"]["median"] <= a["latency_ratio"]["p90"] <= a["latency_ratio"]["worst"], a
assert set(d["pass"]) == {"iops_0.95_in_95pct", "iops_0.85_in_all", "latency_1.25_in_95pct"}, d
' "$tmp/js" 2> "$tmp/pe"
tap_check $? "--json: seed, n, each policy's distribution (worst <= p10 <= median), the thresholds" "exit $rc; $(tail -1 "$tmp/pe")"
