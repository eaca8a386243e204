# Slow QUEUE FULL (qfull_lat_us): the answer reaches the host 20 ms after
# the command was sent, and the host goes on sending meanwhile (seed 004:
# fibre channel loop arbitration).  A LUN of 8 slots (lun_depth:8, a fixed
# 10 ms service time) that resets after 16 QUEUE FULLs in a row
# (reset_after:16), fio random writes at QD 64 with verify, blktrace on
# the lower device counting every bio sent to it:
#  - immediate answers (qfull_lat_us:0), no throttle: the host stops at
#    the first QUEUE FULL and retries every 3 ms; a command completes
#    within 10 ms, so 16 in a row only when TCG stalls the VM ~50 ms;
#  - slow answers (qfull_lat_us:20000), no throttle: the host sends its
#    whole queue before the first answer arrives, 56 refusals in a row:
#    the LUN resets at least 5 x (immediate's resets + 1), aborted
#    commands are sent again, verify stays clean;
#  - in every run the lower device (blktrace) sees exactly the bios lunq
#    sent, and fio's 256 IOs plus the commands resets aborted;
#  - slow answers behind lunq's throttle at the LUN's depth (qdepth:8):
#    no QUEUE FULL at all, no reset, one bio per fio IO.
# group: qfull integrity
# time: 25
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_qs 64 hw_queue_depth=256) || fail "null_blk setup"
sz=$(sectors "$nb")
LUN="model:fixed svc_us:10000 lun_depth:8 reset_after:16 reset_ms:100"

# run NAME POLICY: fio write+verify (128 writes + 128 reads at QD 64);
# sets RESETS QFULL DISP (lunq) and LOWER (bios queued at null_blk)
run() {
	lunq_create lq $nb $2 || fail "create $1: $2"
	traced_verify "$nb" queue "$1" /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=64 --size=512k
	LOWER=$(grep -c '^Q ' /tmp/bt.txt)
	RESETS=$(status_field lq resets) QFULL=$(status_field lq qfull)
	DISP=$(status_field lq dispatched) ABORTED=$(status_field lq aborted)
	diag "$1 ($2): qfull=$QFULL resets=$RESETS dispatched=$DISP bios at the lower device=$LOWER (fio: 256 IOs)"
	[ "$LOWER" = "$DISP" ] || fail "$1: the lower device saw $LOWER bios, lunq sent $DISP"
	# every bio below beyond fio's 256 is a command a reset aborted
	[ $((LOWER - 256)) = "$ABORTED" ] || fail "$1: $LOWER bios below, 256 IOs + $ABORTED aborted"
	counters_consistent lq || fail "$1: counters inconsistent"
	dm_remove lq
}

run fast "qdepth:0 $LUN qfull_lat_us:0"
[ "$QFULL" -gt 0 ] || fail "fast: no QUEUE FULL (the LUN has 8 slots, fio 64 IOs)"
FAST_RESETS=$RESETS
ok "immediate QUEUE FULL: the host stops at once, $QFULL answers, $RESETS resets (16 refusals in a row need a 48 ms stall), $LOWER bios below"

run slow "qdepth:0 $LUN qfull_lat_us:20000"
[ "$RESETS" -ge $((5 * (FAST_RESETS + 1))) ] ||
	fail "slow: $RESETS LUN resets, want >= 5 x (immediate's $FAST_RESETS + 1)"
[ "$LOWER" -gt 256 ] || fail "slow: the lower device saw $LOWER bios, want the aborted ones again (> 256)"
ok "slow QUEUE FULL (20 ms): the host overshoots, $QFULL answers, $RESETS LUN resets, $((LOWER - 256)) commands sent twice, verify clean"

run throttled "qdepth:8 $LUN qfull_lat_us:20000"
[ "$QFULL" = 0 ] && [ "$RESETS" = 0 ] && [ "$LOWER" = 256 ] ||
	fail "throttled: qfull=$QFULL resets=$RESETS lower=$LOWER (want 0, 0, 256)"
ok "qdepth:8 in front of the same LUN: no QUEUE FULL, no reset"

# a live change mid-flight: answers in transit still arrive, nothing lost
P="qdepth:0 $LUN qfull_lat_us:50000"
lunq_create lq $nb $P || fail "create live"
( sleep 0.3; dmsetup message lq 0 set qfull_lat_us:0; sleep 0.3
  dmsetup suspend lq; dmsetup resume lq ) &
ch=$!
fio_verify live /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=64 --size=1m ||
	fail "live: fio verify"
wait $ch
counters_consistent lq || fail "live: counters inconsistent"
ok "qfull_lat_us changed live and a suspend with answers in transit: verify clean"
refused_msg lq "set qfull_lat_us:10000001" "qfull_lat_us: value must be an integer 0..10000000"
dm_remove lq
