#!/bin/sh
# sim/lunqsim, the arena on the host (doc/lunqsim.md): its scenario
# reader against tests/lib/scenario-file.sh (every file of the set and
# every bad fixture: the same verdict, the same messages); the figures
# against what the flash model's arithmetic says (16 channels x 8 ms: 2000
# IOPS at depth 16 and above, 500 with 4 channels; an open loop below the
# knee gets its rate): knee1's oracle at depth 16 and 2000 IOPS, static16
# scoring 1, auto:knee (kmod/lunq_auto*.c itself) >= 0.95 of the oracle
# from depth 1 and from 64; capacity's oracle depths 16 4 16 and its IOPS
# their mean; ramp's sweep at each rate; target's and wcache's bounds as
# t-arena-bounds asserts them in the VM; a seed's run repeats; what it
# does not simulate is said, a bad file refused.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/lunqsim-test.sh"

# the reader: the C one and the sh one agree on every file
d=0
for f in arena/scenarios/*.scn tests/unit/fixtures/scenarios/bad-*.scn; do
	scn_read "$f" 2> "$tmp/sh.err"; shrc=$?
	"$sim" --check "$f" > "$tmp/c.out" 2> "$tmp/c.err"; crc=$?
	if [ $shrc = 0 ]; then
		[ $crc = 0 ] && grep -q "^$f: $S_NAME, $S_NPH phase(s)" "$tmp/c.out"
	else
		[ $crc = 2 ] && grep -v '^lunqsim: ' "$tmp/c.err" | diff "$tmp/sh.err" - > "$tmp/diff"
	fi || { d=$((d + 1)); diag "$f: sh exit $shrc, lunqsim exit $crc"; tap_quote "$tmp/diff" 2> /dev/null; }
done
tap_check $d "lunqsim --check and scenario-file.sh: the same verdict and messages on the set and the bad fixtures"

# knee1 and knee64 at reduced length
"$sim" --quick --policies knee,static16 --sweep 4,8,16,32 arena/scenarios/01-knee1.scn arena/scenarios/02-knee64.scn > "$tmp/k.out"
rc=$?
tap_quote "$tmp/k.out"
awk '/^  sweep, channels=16 held: best static depth 16, / { n++; split($0, a, ", "); i = a[3] + 0; if (i < 1980 || i > 2000) bad = 1 }
	END { exit !(n == 2 && !bad) }' "$tmp/k.out"
tap_check $? "knee1, knee64: the oracle's depth 16 and 1980-2000 IOPS (16 channels x 8 ms: 2000)" "exit $rc"
awk '$1 == "score" && $3 == "static16" && ($4 < 0.999 || $4 > 1.001) { bad = 1 } $1 == "score" { n++ } END { exit !(n == 4 && !bad) }' "$tmp/k.out"
tap_check $? "static16 scores 1 against the oracle (its depth)"
awk '$1 == "score" && $3 == "knee" { n++; if ($4 < 0.95) bad = 1 } END { exit !(n == 2 && !bad) }' "$tmp/k.out"
tap_check $? "auto:knee >= 0.95 of the oracle's IOPS from depth 1 and from 64"

# the arena's thresholds (t-arena's, which make test runs in the VM for
# the scenarios not simulated here) in six of the seven simulated
# scenarios: auto:knee (auto:target in target) >= 0.85 x the oracle's
# IOPS, its latency score <= 1.25 x the oracle's, target within its
# 200 ms bound.  Not array: auto:knee misses there in the VM (0.71-0.77
# of the oracle's IOPS at this length, doc/demo.md), which lunqsim's 0.90
# does not show; its oracle is checked below.
"$sim" --quick --policies knee,target --sweep 4,8,16 > "$tmp/a.out"
rc=$?
tap_quote "$tmp/a.out"
awk '/^--- / { sc = $2; judged = sc == "target" ? "target" : sc == "array" ? "-" : "knee" }
	$1 == judged && $2 ~ /^[0-9]+$/ && NF >= 7 { n++
		if ($3 < 0.85 || $(NF - 1) > 1.25) { bad = 1; print sc ": " $0 }
		if (sc == "target" && $4 > 200) { bad = 1; print sc ": over the bound: " $0 } }
	END { exit !(n == 6 && !bad) }' "$tmp/a.out" > "$tmp/a.bad"
tap_check $? "the arena's thresholds in 6 simulated scenarios (not array): IOPS >= 0.85 x, latency <= 1.25 x the oracle's, target within 200 ms" "exit $rc; $(tr '\n' ';' < "$tmp/a.bad")"

# array: the oracle the VM measures (6.1, icount, --quick, this sweep:
# depth 16, 842 IOPS; 4: 377, 8: 553 at full length)
awk '/^--- array / { a = 1 } a && /^  sweep, wce=1 held: / { split($0, f, ", "); d = f[2]; i = f[3] + 0; a = 0 }
	END { exit !(d == "wce=1 held: best static depth 16" && i >= 800 && i <= 885) }' "$tmp/a.out"
tap_check $? "array: the oracle at 16, 800-885 IOPS (the VM: 842)"

# array at full length against the full sweep (4..32: the oracle at 32,
# the members sorting deeper queues), issue 48's thresholds: auto:knee
# >= 0.85 x the oracle's IOPS, IO p99 <= 1.25 x.  Once the write cache
# is full the service time grows with the depth and so does the rate: a
# cut that loses rate is undone (lunqsim 0.947, 0.90 x; it fell to depth
# 1-4 before, 0.686)
"$sim" --policies knee arena/scenarios/11-array.scn > "$tmp/f.out"
rc=$?
tap_quote "$tmp/f.out"
awk '/^  sweep, wce=1 held: best static depth 32, / { o = 1 }
	$1 == "knee" && $2 ~ /^[0-9]+$/ && NF >= 7 { n++; if ($3 < 0.85 || $(NF - 1) > 1.25) bad = 1 }
	END { exit !(o && n == 1 && !bad) }' "$tmp/f.out"
tap_check $? "array, full length: the oracle at 32; auto:knee >= 0.85 x its IOPS, IO p99 <= 1.25 x" "exit $rc"

# capacity: the channels change with the phases
"$sim" --quick --policies knee --sweep 4,8,16 arena/scenarios/03-capacity.scn > "$tmp/c.out"
tap_quote "$tmp/c.out"
grep -q '^  (oracle: sweep; its depths per phase: 16 4 16)$' "$tmp/c.out" &&
	awk '$1 == "oracle" { i = $2 } END { exit !(i >= 1480 && i <= 1500) }' "$tmp/c.out"
tap_check $? "capacity: the oracle's depths 16 4 16, its IOPS the phases' mean (2000, 500, 2000: 1500)"

# ramp: an open loop gets its rate below the knee, the knee's above
"$sim" --quick --policies static16 --sweep 16 arena/scenarios/09-ramp.scn > "$tmp/r.out"
tap_quote "$tmp/r.out"
awk '/^  sweep, rate=/ { split($2, a, "="); r = a[2] + 0; split($0, b, ", "); i = b[3] + 0; n++
		want = r < 2000 ? r : 2000; if (r == 0) bad = 1; if (i < 0.97 * want || i > 1.03 * want) bad = 1 }
	END { exit !(n == 7 && !bad) }' "$tmp/r.out"
tap_check $? "ramp: each rate's IOPS within 3% of min(rate, 2000)"

# a seed's run repeats; what is not simulated is said; a bad file refused
"$sim" --quick --policies knee --sweep 8,16 --seed 7 arena/scenarios/01-knee1.scn | grep -v '^lunqsim: .* simulated' > "$tmp/s1"
"$sim" --quick --policies knee --sweep 8,16 --seed 7 arena/scenarios/01-knee1.scn | grep -v '^lunqsim: .* simulated' > "$tmp/s2"
cmp -s "$tmp/s1" "$tmp/s2" && grep -q '^score knee1 knee ' "$tmp/s1"
tap_check $? "the same seed, the same figures"
"$sim" --quick arena/scenarios/05-hostile.scn | grep -q '^  not simulated yet: '
tap_check $? "hostile: 'not simulated yet' and why"
tap_cmd "$sim" "a bad scenario file refused (exit 2, FILE:LINE)" 2 "bad-unknown-key.scn:3: unknown key 'chanels'" \
	tests/unit/fixtures/scenarios/bad-unknown-key.scn
tap_cmd "$sim" "an unknown policy refused" 2 "unknown policy 'fast'" --policies fast

# the bounds the VM's t-arena-bounds asserts, here: target's oracle at 8
# (16 over the 200 ms bound on lunq's service p99, the drive sorting its
# own queue), wcache's writes waiting behind reads at depth 2 (>= 8 ms, a
# read's seek) and at cache speed at the oracle's depth (<= 2 ms)
"$sim" --quick --policies static16 --sweep 2,8,16 arena/scenarios/04-target.scn > "$tmp/t.out"
tap_quote "$tmp/t.out"
grep -q '^  (oracle: sweep; its depths per phase: 8)$' "$tmp/t.out" &&
	awk '$1 == "static16" { exit !($4 > 200) }' "$tmp/t.out"
tap_check $? "target: the oracle at 8, static16's service p99 over the 200 ms bound"
"$sim" --quick --policies q2 --sweep 2,8,16 arena/scenarios/06-wcache.scn > "$tmp/w.out"
tap_quote "$tmp/w.out"
awk '$1 == "q2" { q2 = $4 } $1 == "oracle" { o = $4 } END { exit !(q2 >= 8 && o > 0 && o <= 2) }' "$tmp/w.out"
tap_check $? "wcache: depth 2's write p99 >= 8 ms (behind reads), the oracle's <= 2 ms"
