# Fault matrix: LUN resets, repeatedly, under a verifying load.  dm-lunq's
# reset is the emulated LUN's own (kmod/dm-lunq.rst, reset_after:K
# reset_ms:P: after K QUEUE FULLs in a row it aborts every command it
# holds, the host resends them after P ms).  A QD32 lunqbench --verify
# load (50% reads, random 4 KiB) runs over null_blk (5 ms) through a LUN
# of 2 slots for `scaled 40` s while the reset settings change live, in
# four phases: a reset storm (reset_after:3 reset_ms:20), sparse resets
# (another initiator takes both slots for the first 250 ms of every
# 500 ms, reset_after:1 reset_ms:100: the LUN resets when that starts and
# aborts what it holds of ours), resets under reaction:linux, and resets
# of commands whose completion the service-time model holds
# (model:fixed svc_us:3000).  Proves: resets in every phase, commands
# aborted and resent, data verified (a resent write or read is never
# handed back twice or lost), nothing lost (lunqbench's IOs = lunq's
# reads+writes; dispatched = completed + aborted = bios the lower device
# got), idle afterwards (lower inflight "0 0").
# group: fault
# time-debug: 40
# time: 10
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/fault-lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=5000000 hw_queue_depth=256) ||
	fail "null_blk setup"
lunq_create lq $nb qdepth:32 lun_depth:2 || fail "create"
FL_MB=4
fl_prefill /dev/mapper/lq
expect dmsetup message lq 0 stats reset
low0=$(fl_lower_bios "$nb")

secs=$(scaled 40 16)	# a phase of at least 4 s: 2 s was too short on the debug kernel for the storm to reach its first reset
ph=$((secs / 4))
fl_load_start reset /dev/mapper/lq 300	# stopped after the phases

# phase NAME WORDS...: apply the words, run a quarter of the time, check
# that the LUN reset itself during it
phase() {
	_n=$1
	shift
	expect dmsetup message lq 0 set "$@"
	_r0=$(lq_stat lq resets) _a0=$(lq_stat lq aborted) _c0=$(lq_stat lq completed)
	sleep "$ph"
	fl_alive reset "the end of phase $_n"
	_r=$(($(lq_stat lq resets) - _r0)) _a=$(($(lq_stat lq aborted) - _a0))
	_c=$(($(lq_stat lq completed) - _c0))
	diag "$_n ($*): $_r resets, $_a aborted, $_c completed in $ph s"
	[ "$_r" -gt 0 ] || fail "$_n: no LUN reset"
	[ "$_c" -gt 0 ] || fail "$_n: no IO completed: hung"
}
phase storm reaction:none reset_after:3 reset_ms:20 qfull_delay_us:1000
phase sparse reset_after:1 reset_ms:100 qfull_delay_us:3000 foreign:2 foreign_period_ms:500
phase linux reaction:linux ramp_up_ms:300 reset_after:3 reset_ms:50 qfull_delay_us:500 foreign:0
phase model reaction:none model:fixed svc_us:3000 reset_after:3 reset_ms:20
kill -INT "$(cat /tmp/fl.reset.pid)"
fl_load_wait reset 30 "dmsetup status lq" "fl_lower_inflight $nb"
fl_idle lq "$nb"

fl_books reset lq "$nb" "$low0" resets qfull retried
[ "$abrt" -gt 0 ] || fail "no command aborted by the resets"
counters_consistent lq || fail "counters inconsistent"
ok "$(lq_stat lq resets) LUN resets under verify load: $abrt commands aborted and resent, verify clean, nothing lost, idle after"
io_report lun-reset "$issued" "$rw" $(($(fl_kv reset errors) + $(fl_kv reset verify_errors)))
dm_remove lq
