# lunqbench counts what it does, exactly: --ios N closed loop (mixed reads
# and writes, 4 KiB and 16 KiB) and open loop (Poisson 500 IOs/s) through
# a lunq device; the observers are the lunq device's counters in sysfs
# and the lower device's diskstats (requests plus merged bios).  Every IO lunqbench
# reports is counted once below, nothing more: reads, writes, sectors.
# group: bench stats
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=500000) || fail "null_blk"
lc 0 create lq "$nb" qdepth=8
kv() { tr ' ' '\n' < /tmp/lb.kv | sed -n "s/^$1=//p"; }

# the lower device's diskstats count requests; bios merged into one are
# counted in fields 2 (reads merged) and 6 (writes merged): add them
lower_r() { echo $(($(disk_stat "$nb" 1) + $(disk_stat "$nb" 2))); }
lower_w() { echo $(($(disk_stat "$nb" 5) + $(disk_stat "$nb" 6))); }
r0=$(lower_r) w0=$(lower_w)
lunqbench --kv --ios 3000 --rdpct 60 --bs 4k:3,16k:1 --iodepth 16 --interval 0 \
	/dev/mapper/lq > /tmp/lb.out 2>&1 || { cat /tmp/lb.out; fail "lunqbench closed loop"; }
tail -1 /tmp/lb.out > /tmp/lb.kv
diag "$(cat /tmp/lb.kv)"
[ "$(kv ios)" = 3000 ] || fail "ios=$(kv ios), want 3000"
[ "$(kv loop)" = closed ] && [ "$(kv errors)" = 0 ] || fail "loop or errors"
[ "$(lq_stat lq reads)" = "$(kv reads)" ] && [ "$(lq_stat lq writes)" = "$(kv writes)" ] ||
	fail "lunq counted $(lq_stat lq reads) reads $(lq_stat lq writes) writes, lunqbench $(kv reads) $(kv writes)"
[ $(($(lower_r) - r0)) = "$(kv reads)" ] && [ $(($(lower_w) - w0)) = "$(kv writes)" ] ||
	fail "lower device: $(($(lower_r) - r0)) reads $(($(lower_w) - w0)) writes (merged included)"
rs=$(lq_stat lq read_sectors) ws=$(lq_stat lq write_sectors)
[ $(((rs + ws) % 8)) = 0 ] && [ $((rs + ws)) -ge $((3000 * 8)) ] && [ $((rs + ws)) -le $((3000 * 32)) ] ||
	fail "sectors $rs + $ws not 4k/16k IOs"
r=$(kv reads)
[ "$r" -ge 1650 ] && [ "$r" -le 1950 ] || fail "rdpct 60: $r reads of 3000"
ok "closed loop: 3000 IOs = lunq reads+writes = lower device diskstats; $r reads (rdpct 60)"

lc 0 reset lq
lunqbench --kv --ios 1000 --iorate 500 --iodepth 32 --interval 0 /dev/mapper/lq > /tmp/lb.out 2>&1 ||
	{ cat /tmp/lb.out; fail "lunqbench open loop"; }
tail -1 /tmp/lb.out > /tmp/lb.kv
diag "$(cat /tmp/lb.kv)"
[ "$(kv ios)" = 1000 ] && [ "$(kv loop)" = open ] && [ "$(lq_stat lq reads)" = 1000 ] ||
	fail "open loop: ios=$(kv ios) loop=$(kv loop), lunq reads $(lq_stat lq reads)"
# the schedule spans ~2 s: no faster (closed loop would take ~0.2 s); a
# slow TCG round may run late, which lag reports
awk -v e="$(kv elapsed_s)" 'BEGIN { exit !(e >= 1.6 && e <= 6) }' ||
	fail "1000 IOs at 500/s took $(kv elapsed_s) s"
ok "open loop 500 IOs/s: 1000 IOs = lunq reads, in $(kv elapsed_s) s"

lunqbench --ios 10 /dev/nosuchdisk > /tmp/lb.out 2>&1
[ $? = 2 ] || { cat /tmp/lb.out; fail "missing target: want exit 2"; }
lunqbench --ios 10 --bs 1000 /dev/mapper/lq > /tmp/lb.out 2>&1
[ $? = 1 ] && grep -q -- '--bs' /tmp/lb.out || { cat /tmp/lb.out; fail "misaligned --bs: want exit 1 naming --bs"; }
ok "missing target exit 2; --bs 1000 with O_DIRECT exit 1"
