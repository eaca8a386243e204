# The arena's two scenarios under sched:disksort at reduced length
# (tests/demo/arena.sh --quick --check --only bubble,mixed), auto:knee
# against the oracle of the same run (static 16, the best of every sweep
# measured: 342 and 327 IOPS; 4 and 12 leave reads or writes waiting for
# seconds, 20 and 24 send every write's seek among the reads).  auto
# starts at 2 and must not leave the bubble in place: a waiter the sort
# passes by goes next after 5/4 of the mean response, and a read so sent
# sets the floor that lets every waiting read go (dm-lunq.rst, "auto").
# Checks: arena.sh's check lines for auto:knee in both scenarios (IOPS >=
# 0.85 x the oracle's, within the bound of 1 s, its latency -- bubble's
# read max, mixed's IO max -- <= 1.25 x the oracle's, 0 LUN resets, <= 2
# QUEUE FULLs a second), the oracle within each bound, and bubble's
# independent observer: lunqbench's own read max on the same side of the
# bound as lunq's at the static depth.  Before the aging bound (8250380)
# bubble's read max was 4.13 x the oracle's, mixed's IO max 3.65 x.
# group: throttle
# time: 50
. "$LUNQ_SRC/tests/vm/lib.sh"

sh "$LUNQ_SRC/tests/demo/arena.sh" --quick --check --only bubble,mixed --policies knee \
	--sweep 16 -o /tmp/arena3 > /tmp/arena3.log 2>&1
rc=$?
demo_output /tmp/arena3.log
demo_checks /tmp/arena3.log "${SORT_CHECKS:-13}" "arena.sh exit $rc"
[ $rc = 0 ] || fail "arena.sh exit $rc"
d=$(sed -n 's/^  (oracle: [a-z0-9]*; its depths per phase: \([0-9 ]*\))$/\1/p' /tmp/arena3.log | tr '\n' ' ')
[ "$d" = "16 16 " ] || fail "the oracle's depths (bubble, mixed) are '$d', want 16, 16"
ok "auto:knee under disksort: bubble and mixed within issue 48's thresholds of the oracle"
