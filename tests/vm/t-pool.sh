# Shared pools and other initiators.
#  - Two LUNs on one pool of 8 (two null_blk devices, 20 ms): while A runs
#    a QD32 load, B's reads (20, one at a time) are answered QUEUE FULL
#    although B has nothing else in flight, and still complete with the
#    right data (one read alone could slip into A's refill gap);
#    A's lower device never holds more than the pool's 8 (blktrace).
#  - Pool lifetime: a pool lives while a table names it; a different
#    pool_depth is refused while it lives, accepted after the last remove.
#  - Other initiators: foreign:3 on lun_depth:4 leaves one slot (blktrace:
#    never 2 in flight below); foreign:2 of lun_depth:2 during the first
#    half of a 4 s period answers the very first command QUEUE FULL.
# group: qfull throttle
# time: 10
. "$LUNQ_SRC/tests/vm/lib.sh"

nb1=$(nullb_create lq_nb1 128 irqmode=2 completion_nsec=20000000 hw_queue_depth=256) ||
	fail "null_blk 1"
nb2=$(nullb_create lq_nb2 128 irqmode=2 completion_nsec=20000000 hw_queue_depth=256) ||
	fail "null_blk 2"
lunq_create lqa $nb1 qdepth:16 pool:port0 pool_depth:8 ||
	fail "create A"
lunq_create lqb $nb2 pool:port0 ||
	fail "create B (adopts the pool's depth)"
[ "$(status_field lqb pool)" = port0 ] || fail "B not in pool port0"
[ "$(cat /sys/kernel/lunq/lqb/policy/pool_depth)" = 8 ] ||
	fail "B's policy/pool_depth reads $(cat /sys/kernel/lunq/lqb/policy/pool_depth), not the pool's 8"

head -c 81920 /dev/urandom > /tmp/blk
dd if=/tmp/blk of=/dev/mapper/lqb bs=4k count=20 oflag=direct 2>/dev/null ||
	fail "write to B"
expect dmsetup message lqb 0 stats reset

bt_start "$nb1" /tmp/bt
fio --name=pa --filename=/dev/mapper/lqa --direct=1 --ioengine=libaio \
	--rw=randread --bs=4k --iodepth=32 --time_based --runtime=5 \
	--output-format=terse --terse-version=3 > /tmp/fio.pa 2>&1 &
fpid=$!
sleep 2
pool_now=$(status_field lqa pool_inflight)
dd if=/dev/mapper/lqb of=/tmp/blk.back bs=4k count=20 iflag=direct 2>/dev/null ||
	fail "read from B"
wait $fpid || { cat /tmp/fio.pa; fail "fio on A failed"; }
bt_stop
cmp -s /tmp/blk /tmp/blk.back || fail "B read back wrong data"
low=$(max_concurrent /tmp/bt.txt)
diag "A: lower max in flight $low, pool_inflight during load $pool_now, A qfull=$(status_field lqa qfull)"
diag "B: qfull=$(status_field lqb qfull) dispatched=$(status_field lqb dispatched) max_inflight=$(status_field lqb max_inflight)"
[ "$low" -le 8 ] || fail "A's lower device held $low, the pool has 8"
[ "$low" = 8 ] || fail "A never filled the pool (max $low)"
[ "$(status_field lqb qfull)" -gt 0 ] || fail "B got no QUEUE FULL while A held the pool"
[ "$(status_field lqb max_inflight)" -le 1 ] || fail "B had more than one IO outstanding"
[ "$(status_field lqb dispatched)" = 20 ] && [ "$(status_field lqb completed)" = 20 ] ||
	fail "B's reads: dispatched/completed $(status_field lqb dispatched)/$(status_field lqb completed)"
counters_consistent lqa && counters_consistent lqb || fail "counters inconsistent"
[ "$(status_field lqa pool_inflight)" = 0 ] || fail "pool slots leaked"
ok "idle LUN B answered QUEUE FULL while A held the shared pool; data intact"

# lifetime: B still names port0 (depth 8)
dm_remove lqa
if lunq_table -l 8 $nb1 pool:port0 pool_depth:4 | dmsetup create --noudevsync lqc 2>/dev/null; then
	fail "pool_depth:4 accepted while port0 (8) lives"
fi
dm_remove lqb
lunq_create lqc -l 8 $nb1 pool:port0 pool_depth:4 ||
	fail "port0 with a new depth refused after its last table went"
dm_remove lqc
ok "pool lives as long as a table names it"

# other initiators: constant
lunq_create lqf $nb1 qdepth:8 lun_depth:4 foreign:3 ||
	fail "create foreign"
traced_verify "$nb1" - ff /dev/mapper/lqf --rw=randwrite --bs=4k --iodepth=8 --size=1m
diag "foreign:3 lun_depth:4: lower max in flight $low, qfull=$(status_field lqf qfull)"
[ "$low" = 1 ] || fail "foreign:3 of 4 slots: lower device held $low"
[ "$(status_field lqf qfull)" -gt 0 ] || fail "no QUEUE FULL with foreign:3"
dm_remove lqf

# other initiators: periodic, QUEUE FULL on the first command
lunq_create lqf $nb2 lun_depth:2 foreign:2 foreign_period_ms:4000 qfull_delay_us:1000 ||
	fail "create periodic foreign"
t0=$(now_ms)
dd if=/dev/mapper/lqf of=/tmp/blk.back bs=4k count=1 iflag=direct 2>/dev/null ||
	fail "read through periodic foreign"
ms=$(($(now_ms) - t0))
diag "first command: qfull=$(status_field lqf qfull), completed after $ms ms"
[ "$(status_field lqf qfull)" -gt 0 ] || fail "first command not answered QUEUE FULL"
[ "$(status_field lqf completed)" = 1 ] || fail "first command did not complete"
[ "$ms" -ge 1000 ] || fail "first command done after $ms ms: foreign held both slots for 2 s"
cmp -s -n 4096 /tmp/blk /tmp/blk.back || fail "read back wrong data"
ok "other initiators: QUEUE FULL on the first command, retried until the slots free"
dm_remove lqf
