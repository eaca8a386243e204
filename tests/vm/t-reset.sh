# LUN reset: lun_depth:2 with qdepth:32 over null_blk (20 ms): retries keep
# meeting a full LUN, and after reset_after:3 QUEUE FULLs in a row the LUN
# resets; the commands it held are aborted and the host sends them again
# after reset_ms.  fio's write+verify must stay clean (nothing lost, nothing
# corrupted); blktrace on the lower device counts every bio sent to it
# (queue events, before any merge), including the resends (queued =
# dispatched = completed + aborted).  These settings make
# a reset storm (3 QUEUE FULLs come long before the next 20 ms completion):
# it progresses because a command is aborted at most once.
# group: qfull integrity
# time: 10
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 128 irqmode=2 completion_nsec=20000000 hw_queue_depth=256) ||
	fail "null_blk setup"
lunq_create lq $nb qdepth:32 lun_depth:2 reset_after:3 reset_ms:50 qfull_delay_us:1000 ||
	fail "create"
traced_verify "$nb" queue rs /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=512k
issued=$(grep -c '^Q ' /tmp/bt.txt)
resets=$(status_field lq resets) aborted=$(status_field lq aborted)
disp=$(status_field lq dispatched) done_=$(status_field lq completed)
diag "resets=$resets aborted=$aborted qfull=$(status_field lq qfull) dispatched=$disp completed=$done_ bios queued at the lower device=$issued"
[ "$resets" -gt 0 ] || fail "no LUN reset"
[ "$aborted" -gt 0 ] || fail "no command aborted by the resets"
[ "$issued" = "$disp" ] || fail "lower device saw $issued bios, lunq sent $disp"
[ "$done_" = 256 ] || fail "completed $done_, fio issued 256 (128 writes + 128 verify reads)"
counters_consistent lq || fail "counters inconsistent"
ok "LUN resets ($resets) aborted $aborted commands; all resent, verify clean"
dm_remove lq

# Resent clones that the lower device splits: max_sectors=8 cuts every
# 64 KiB bio into 16 chained parts; the first completion used those up,
# so a resend must start with fresh chain state (else it completes early,
# with half its data).
nb2=$(nullb_create lq_nb2 64 irqmode=2 completion_nsec=20000000 hw_queue_depth=256 max_sectors=8) ||
	fail "null_blk (max_sectors=8) setup"
lunq_create lq $nb2 qdepth:16 lun_depth:2 reset_after:3 reset_ms:20 qfull_delay_us:1000 ||
	fail "create on the splitting device"
fio_verify rs64 /dev/mapper/lq --rw=randwrite --bs=64k --iodepth=16 --size=2m ||
	fail "fio verify failed with split clones across LUN resets"
diag "64 KiB over max_sectors=8: resets=$(status_field lq resets) aborted=$(status_field lq aborted) completed=$(status_field lq completed)"
[ "$(status_field lq aborted)" -gt 0 ] || fail "no split clone was aborted and resent"
[ "$(status_field lq completed)" = 64 ] || fail "completed $(status_field lq completed), fio issued 64"
counters_consistent lq || fail "counters inconsistent"
ok "split clones resent after LUN resets: verify clean"
dm_remove lq
