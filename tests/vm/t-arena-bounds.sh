# The arena's scenarios with a bound or a latency objective, at reduced
# length (tests/demo/arena.sh --quick --check), static depths 2, 8 and 16
# and static16: target (sptf disk, service p99 <= 200 ms: 8, as 16 is over
# it), wcache (the lowest write p99: 8, where writes no longer wait behind
# reads -- depth 2's write p99 >= 8 ms, a read's seek, the oracle's
# <= 2 ms), bubble (no read over 1 s under disksort: 16, where the stream
# no longer queues in lunq; lunqbench's read max on the same side of 1 s
# as lunq's for each depth).  Checks: 5 check lines of arena.sh (the
# bounds met by the oracle, bubble's three depths), the oracle's depths 8,
# 8 and 16, wcache's write p99 at depth 2 and the oracle's.
# group: throttle
# time: 100
# set: full
. "$LUNQ_SRC/tests/vm/lib.sh"
sh "$LUNQ_SRC/tests/demo/arena.sh" --quick --check --only target,wcache,bubble --policies static16 \
	--sweep 2,8,16 -o /tmp/arena2 > /tmp/arena2.log 2>&1
rc=$?
demo_output /tmp/arena2.log
demo_checks /tmp/arena2.log 5 "bounds: arena.sh exit $rc"
[ $rc = 0 ] || fail "bounds: arena.sh exit $rc"
d=$(sed -n 's/^  (oracle: [a-z0-9]*; its depths per phase: \([0-9 ]*\))$/\1/p' /tmp/arena2.log | tr '\n' ' ')
[ "$d" = "8 8 16 " ] || fail "bounds: the oracle's depths (target, wcache, bubble) are '$d', want 8, 8, 16"
w2=$(awk -F, '$1 == "wcache" && $3 ~ /^q2\// { print $6 }' /tmp/arena2/arena.csv)
wo=$(jq '.scores[] | select(.scenario == "wcache" and .policy == "oracle") | .lat_ns' /tmp/arena2/arena.json)
[ -n "$w2" ] && [ -n "$wo" ] && [ "$w2" -ge 8000000 ] && [ "$wo" -le 2000000 ] ||
	fail "wcache: write p99 at depth 2 '$w2' ns (want >= 8 ms), the oracle's '$wo' ns (want <= 2 ms)"
ok "arena: the oracle under a bound (target, bubble) and a latency objective (wcache), writes behind reads at depth 2: $(awk -v n="$w2" 'BEGIN { printf "%.2f", n / 1e6 }') ms"
