# Fault matrix: suspend, noflush suspend, resume and table reloads in a
# loop (`scaled 20` rounds) under a verifying load.  A QD32 lunqbench
# --verify load (50% reads, random 4 KiB) runs through a lunq device on
# null_blk (5 ms) whose small qdepth keeps IOs waiting in lunq.  Each
# round: a flush suspend, a noflush suspend (both checked while
# suspended: the lower device's /sys/block/<dev>/inflight reads "0 0",
# lunq's inflight, waiting, retrying and lun_inflight are 0) and resumes,
# then a table reload to the next of four policies (disksort with aging;
# a 2-slot LUN under reaction:sd; the fixed service-time model; a LUN
# resetting itself under reaction:linux), resumed alternately with a flush
# (load + resume) and through a checked noflush suspend.  Proves: every
# suspend leaves nothing outstanding below, waiters are handed back to dm
# by noflush suspends (requeued > 0) and none is lost, each new table is
# live after its resume, data verified, nothing lost (lunqbench's IOs =
# lunq's reads+writes, counters carried across reloads; dispatched =
# completed + aborted = bios the lower device got), idle afterwards.
# group: fault
# time: 10
# time-debug: 35
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/fault-lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=5000000 hw_queue_depth=256) ||
	fail "null_blk setup"
sz=$(sectors "$nb")
# the tables' optional arguments, one table a line
POLICIES="qdepth:2 sched:disksort max_wait_ms:100
qdepth:4 lun_depth:2 reaction:sd restore_ms:200
qdepth:3 sched:fifo model:fixed svc_us:8000
qdepth:8 lun_depth:2 qfull_delay_us:500 reaction:linux reset_after:2 reset_ms:20 ramp_up_ms:200"
# policy K: pol, the optional arguments of the K-th table (from 0)
policy() { pol=$(echo "$POLICIES" | sed -n "$(($1 + 1))p"); }
policy 0
# shellcheck disable=SC2086
lunq_create lq $nb $pol || fail "create"
FL_MB=4
fl_prefill /dev/mapper/lq
expect dmsetup message lq 0 stats reset
low0=$(fl_lower_bios "$nb")

# g STAT: $v = a lunq statistic (no fork: the loop is timed)
g() { read -r v < "/sys/kernel/lunq/lq/stats/$1"; }
read -r disk < /sys/kernel/lunq/lq/disk
# quiet WHAT: suspended, and nothing outstanding anywhere
quiet() {
	read -r _s < "/sys/block/$disk/dm/suspended"
	[ "$_s" = 1 ] || fail "$1: not suspended"
	read -r _lr _lw < /sys/block/lq_nb/inflight
	[ "$_lr $_lw" = "0 0" ] || fail "$1: lower device inflight '$_lr $_lw' while suspended"
	for _k in inflight waiting retrying lun_inflight; do
		g $_k
		[ "$v" = 0 ] || fail "$1: lunq $_k $v while suspended: $(dmsetup status lq)"
	done
	nq=$((nq + 1))
}
resume() { expect dmsetup resume --noudevsync lq; }

rounds=$(scaled 20 5)
fl_load_start susp /dev/mapper/lq 300
sleep 1
nq=0 maxw=0 t0=$(now_ms)
for i in $(seq "$rounds"); do
	fl_alive susp "round $i"
	g waiting
	w=$v
	[ "$w" -gt "$maxw" ] && maxw=$w
	expect dmsetup suspend lq
	quiet "round $i flush suspend ($w waiting before)"
	resume
	expect dmsetup suspend --noflush lq
	quiet "round $i noflush suspend"
	resume
	policy $((i % 4))
	# shellcheck disable=SC2086
	expect dmsetup load lq --table "$(lunq_table $nb $pol)"
	if [ $((i % 2)) = 0 ]; then
		expect dmsetup suspend --noflush lq
		quiet "round $i noflush reload"
	fi
	resume
	# shellcheck disable=SC2086
	[ "$(dmsetup table lq)" = "0 $sz $(lunq_target "$(cat /sys/block/lq_nb/dev)" 0 $pol)" ] ||
		fail "round $i: table after reload: $(dmsetup table lq), want policy $pol"
done
t1=$(now_ms)
g requeued
diag "$rounds rounds ($nq checked suspends) in $((t1 - t0)) ms; up to $maxw IOs waiting at a suspend; requeued $v"
[ "$v" -gt 0 ] || fail "no waiter handed back by the noflush suspends"
pid=$(cat /tmp/fl.susp.pid)
kill -INT "$pid" 2>/dev/null || fail "load ended before the loop did"
fl_load_wait susp 30 "dmsetup status lq" "fl_lower_inflight $nb"
fl_idle lq "$nb"

fl_books susp lq "$nb" "$low0" resets qfull requeued
counters_consistent lq || fail "counters inconsistent"
ok "$rounds rounds of suspend / noflush suspend / resume / reload under verify load: nothing outstanding while suspended, verify clean, nothing lost"
io_report suspend-loop "$issued" "$rw" $(($(fl_kv susp errors) + $(fl_kv susp verify_errors)))
dm_remove lq
