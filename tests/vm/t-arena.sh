# The arena at reduced length (tests/demo/arena.sh --quick --check --only
# hostile): auto:knee in seed 004's hostile pool against the oracle
# measured in the same run -- the best static depth of each phase (the
# other initiators there, and away), found by a sweep of 8, 12, 16 and 24
# -- and static 16, which must not beat that oracle without becoming it.
# Checks: auto:knee >= 0.8 x the oracle's IOPS and 0 LUN resets; the
# sweep found 8 with the others there and 16 (or 24, the same IOPS) without
# (the pool's arithmetic: 32 slots - 16 foreign - the neighbour's 8, and
# the flash model's 16 channels); arena.json parses and scores every run; arena.svg is SVG.
# On the instruction-counting clock a run repeats (icount: 96.8% measured).
# Then the scenarios with a bound or a latency objective, static depths 2,
# 8 and 16 and static16: target (sptf disk, service p99 <= 200 ms: 8, as
# 16 is over it), wcache (the lowest write p99: 8, where writes no longer
# wait behind reads -- depth 2's write p99 >= 8 ms, a read's seek, the
# oracle's <= 2 ms), bubble (no read over 1 s under disksort: 16, where
# the stream no longer queues in lunq; lunqbench's read max on the same
# side of 1 s as lunq's for each depth).
# group: throttle
# time: 170
. "$LUNQ_SRC/tests/vm/lib.sh"

sh "$LUNQ_SRC/tests/demo/arena.sh" --quick --check --only hostile --policies knee,static16 \
	--sweep 8,12,16,24 -o /tmp/arena > /tmp/arena.log 2>&1
rc=$?
tr -d '\r' < /tmp/arena.log | grep -v '^check ' | sed 's/^/# /'
tr -d '\r' < /tmp/arena.log | sed -n 's/^check ok: /ok: /p; s/^check FAIL: /FAIL: /p'
[ "$(grep -c '^check ok' /tmp/arena.log)" = 2 ] || fail "want 2 passed checks, arena.sh exit $rc"
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
ok "arena: auto:knee in the hostile pool against the oracle of the same run"

cleanup_all	# the first run's null_blk devices
sh "$LUNQ_SRC/tests/demo/arena.sh" --quick --check --only target,wcache,bubble --policies static16 \
	--sweep 2,8,16 -o /tmp/arena2 > /tmp/arena2.log 2>&1
rc=$?
tr -d '\r' < /tmp/arena2.log | grep -v '^check ' | sed 's/^/# /'
tr -d '\r' < /tmp/arena2.log | sed -n 's/^check ok: /ok: /p; s/^check FAIL: /FAIL: /p'
[ "$(grep -c '^check ok' /tmp/arena2.log)" = 5 ] || fail "bounds: want 5 passed checks, arena.sh exit $rc"
[ $rc = 0 ] || fail "bounds: arena.sh exit $rc"
d=$(sed -n 's/^  (oracle: [a-z0-9]*; its depths per phase: \([0-9 ]*\))$/\1/p' /tmp/arena2.log | tr '\n' ' ')
[ "$d" = "8 8 16 " ] || fail "bounds: the oracle's depths (target, wcache, bubble) are '$d', want 8, 8, 16"
w2=$(awk -F, '$1 == "wcache" && $3 ~ /^q2\// { print $6 }' /tmp/arena2/arena.csv)
wo=$(jq '.scores[] | select(.scenario == "wcache" and .policy == "oracle") | .lat_ns' /tmp/arena2/arena.json)
[ -n "$w2" ] && [ -n "$wo" ] && [ "$w2" -ge 8000000 ] && [ "$wo" -le 2000000 ] ||
	fail "wcache: write p99 at depth 2 '$w2' ns (want >= 8 ms), the oracle's '$wo' ns (want <= 2 ms)"
ok "arena: the oracle under a bound (target, bubble) and a latency objective (wcache), writes behind reads at depth 2: $(awk -v n="$w2" 'BEGIN { printf "%.2f", n / 1e6 }') ms"
