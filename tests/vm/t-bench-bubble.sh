# lunqbench --preset bubble reproduces the disksort latency bubble (seed
# 004): a sequential read stream at QD16 in the second half of the device
# and 10 random reads/s far behind it, through lunq qdepth:2 on a 2 ms
# null_blk.  fifo serves the far reads in milliseconds; disksort starves
# them behind the stream for seconds: their max response is >= 10x.  The
# independent observer is lunq's own wait histogram: its max wait under
# disksort covers most of the far reads' worst response.
# group: bubble bench
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=2000000) || fail "null_blk"
lc 0 create lq "$nb" qdepth=2
# farmax: the far job's max response in ns, from its summary line
farmax() { lb_jobrow /tmp/bb.out far | cut -d' ' -f3; }
run() {
	lc 0 set lq sched="$1"
	lc 0 reset lq
	lunqbench --preset bubble --elapsed 8 --interval 0 /dev/mapper/lq > /tmp/bb.out 2>&1 ||
		{ cat /tmp/bb.out; fail "lunqbench bubble ($1)"; }
}
run fifo
ff=$(farmax)
grep -E '^ *(stream|far) ' /tmp/bb.out | sed 's/^/# fifo: /'
run disksort
fd=$(farmax)
wmax=$(lq_hist lq wait_read max)
grep -E '^ *(stream|far) ' /tmp/bb.out | sed 's/^/# disksort: /'
[ -n "$ff" ] && [ -n "$fd" ] || fail "no far-read line in lunqbench's summary"
diag "far reads' max response: fifo $ff ns, disksort $fd ns; lunq max wait (disksort) $wmax ns"
[ "$fd" -ge $((ff * 10)) ] || fail "disksort far max $fd ns is not >= 10x fifo's $ff ns"
[ "$wmax" -ge $((fd / 2)) ] || fail "lunq's max wait $wmax ns does not account for the far reads' $fd ns"
ok "bubble: far reads max $((ff / 1000000)) ms under fifo, $((fd / 1000000)) ms under disksort; lunq saw a $((wmax / 1000000)) ms wait"
