# The arena at reduced length (tests/demo/arena.sh --quick --check --only
# hostile): auto:knee in seed 004's hostile pool against the oracle
# measured in the same run -- the best static depth of each phase (the
# other initiators there, and away) refused at most 2 times a second,
# found by a sweep of 8, 12, 16 and 24 -- and static 16, which must not
# beat that oracle without becoming it.
# Checks: issue 48's thresholds for auto:knee, four check lines of
# arena.sh: IOPS >= 0.85 x the oracle's, its response p99 <= 1.25 x the
# oracle's, 0 LUN resets, at most 2 QUEUE FULLs a second (a threshold the
# controller of the day does not meet yet is listed in TODO, arena.sh's
# --todo: said, not counted); the sweep found 8 with the others there (the
# pool's arithmetic: 32 slots - 16 foreign - the neighbour's 8; 12 got
# 1.2% more IOPS on RT once through 132 QUEUE FULLs a second, which the
# oracle's bound now excludes) and 16 (or 24, the same IOPS) without (the
# flash model's 16 channels); arena.json parses and scores every run;
# arena.svg is SVG; the depth over time: arena-depth-hostile.svg has a
# line per policy and the oracle's, arena.json a depth per score from 0 to
# the run's end (16 s), arena-depth.csv rows for each policy; the one
# number per policy is printed last and in arena.json.
# On the instruction-counting clock a run repeats (icount: 96.8% measured).
# The scenarios with a bound or a latency objective: t-arena-bounds.
# group: throttle
# time: 70
. "$LUNQ_SRC/tests/vm/lib.sh"

# issue 48's thresholds that auto:knee does not meet yet (arena.sh --todo;
# ARENA_TODO, set in the guest, overrides): at reduced length its
# response p99 in hostile is 1.99 x the oracle's (6.1, icount, the
# controller of 644b21a; 1.46 x with 2ea5405's)
TODO=${ARENA_TODO-hostile:lat}
sh "$LUNQ_SRC/tests/demo/arena.sh" --quick --check ${TODO:+--todo "$TODO"} --only hostile --policies knee,static16 \
	--sweep 8,12,16,24 -o /tmp/arena > /tmp/arena.log 2>&1
rc=$?
# a threshold listed in --todo: its line is a diagnostic, not a result
tr -d '\r' < /tmp/arena.log > /tmp/arena.clean
demo_output /tmp/arena.clean
grep -E '^(not )?ok [0-9]+ .*# TODO' /tmp/arena.clean | sed 's/^/# TODO: /'
grep -vE '^(not )?ok [0-9]+ .*# TODO' /tmp/arena.clean > /tmp/arena.checks
n=$(grep -cE '^(not )?ok [0-9]+ ' /tmp/arena.clean)
t=$(grep -cE '^(not )?ok [0-9]+ .*# TODO' /tmp/arena.clean)
[ "$n" = 4 ] || fail "want 4 check lines (auto:knee's thresholds), got $n, arena.sh exit $rc"
demo_checks /tmp/arena.checks $((4 - t)) "arena.sh exit $rc"
[ $rc = 0 ] || fail "arena.sh exit $rc"
grep -Eq '\(oracle: [a-z0-9]*; its depths per phase: 8 (16|24)\)' /tmp/arena.log ||
	fail "the sweep's best depths are not 8 (others there) and 16 or 24 (away)"
n=$(jq '[.scores[] | select(.scenario == "hostile")] | length' /tmp/arena/arena.json 2>/dev/null)
[ "$n" = 3 ] || fail "arena.json: want 3 hostile scores (knee, static16, oracle), got '$n'"
jq -e '.scores[] | select(.policy == "oracle") | .iops_vs_oracle == 1' /tmp/arena/arena.json > /dev/null ||
	fail "arena.json: the oracle does not score 1"
[ "$(head -c 4 /tmp/arena/arena.svg 2>/dev/null)" = "<svg" ] && grep -q '^</svg>$' /tmp/arena/arena.svg &&
	[ "$(grep -c '<rect ' /tmp/arena/arena.svg)" -ge 3 ] || fail "arena.svg: not an SVG with a bar per score"
grep -c '^hostile,' /tmp/arena/arena.csv | grep -qx 10 || fail "arena.csv: want 10 runs (8 sweep, 2 policies)"
D=/tmp/arena/arena-depth-hostile.svg
[ "$(head -c 4 "$D" 2>/dev/null)" = "<svg" ] && grep -q '^</svg>$' "$D" || fail "$D: not an SVG"
for p in knee static16 oracle; do
	grep -q "<path class=\"depth\" data-policy=\"$p\" d=\"M[0-9.]* [0-9.]* H" "$D" || fail "$D: no line for $p"
	jq -e --arg p "$p" '.scores[] | select(.policy == $p) | (.depth | length >= 2 and .[0][0] == 0 and .[-1][0] == 16000)' \
		/tmp/arena/arena.json > /dev/null || fail "arena.json: $p has no depth from 0 to 16000 ms"
done
grep -q '^hostile,knee,0,[0-9]' /tmp/arena/arena-depth.csv && grep -q '^hostile,static16,16000,' /tmp/arena/arena-depth.csv ||
	fail "arena-depth.csv: no depth rows for knee and static16"
awk '/^---/ { l = $0 } END { exit !(l ~ /^--- one number per policy/) }' /tmp/arena/arena.txt &&
	jq -e '[.overall[] | select(.policy == "knee" and .scenarios == 1 and .score > 0)] | length == 1' /tmp/arena/arena.json > /dev/null ||
	fail "the one number per policy: not last in arena.txt, or no knee in arena.json's overall"
ok "arena: auto:knee in the hostile pool against the oracle of the same run"

