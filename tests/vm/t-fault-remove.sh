# Fault matrix: remove while busy.  A QD32 lunqbench --verify load (50%
# reads, random 4 KiB) runs through a lunq device on null_blk (2 ms)
# whose qdepth:4 keeps IOs waiting in lunq.  (1) `dmsetup remove` while
# the load runs is refused with EBUSY ("Device or resource busy"), three
# times, and so is `lunqctl remove` (exit 4, "in use"); the device keeps
# working (IOs complete after each refusal) and the load verifies clean;
# once the load has drained, remove succeeds.  (2) `dmsetup remove
# --deferred` during a load (with a 2-slot LUN answering QUEUE FULL, so
# commands also sit on the retry list): accepted, the device stays and
# serves the load to its end, then disappears when the load closes it.
# Proves: nothing lost in either case (lunqbench's IOs = lunq's
# reads+writes = bios the lower device got), data verified, the lower
# device idle afterwards (inflight "0 0").
# group: fault
# time-debug: 50
# time: 15
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/fault-lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=2000000 hw_queue_depth=256) ||
	fail "null_blk setup"
sz=$(sectors "$nb")
lunq_create lq $nb qdepth:4 sched:disksort || fail "create"
FL_MB=4
fl_prefill /dev/mapper/lq
expect dmsetup message lq 0 stats reset
low0=$(fl_lower_bios "$nb")

# waiters NAME: wait until IOs wait in lunq's queue (15 s at most: on the
# debug kernel beside the icount lanes the QD32 load can submit nothing
# for 5 s, nothing in flight either)
waiters() {
	for _i in $(seq 150); do
		[ "$(lq_stat "$1" waiting)" -gt 0 ] && return 0
		sleep 0.1
	done
	fail "no IO waiting in $1 under the load: $(dmsetup status "$1")"
}

# --- (1) remove while busy: refused
fl_load_start busy /dev/mapper/lq 300	# stopped after the checks
sleep 1
waiters lq
lc 4 remove lq
lc_err "in use"
dm_exists lq || fail "device gone after a refused lunqctl remove"
fl_alive busy "lunqctl remove was checked"
ok "lunqctl remove refused while busy (exit 4, in use)"
for k in 1 2 3; do
	waiters lq
	c0=$(lq_stat lq completed)
	dmsetup remove --noudevsync lq > /tmp/rm.out 2>&1 && fail "remove $k accepted while the device is open"
	grep -q "Device or resource busy" /tmp/rm.out || { cat /tmp/rm.out; fail "remove $k: refused, but not with EBUSY"; }
	dm_exists lq || fail "device gone after a refused remove"
	sleep 0.5
	[ "$(lq_stat lq completed)" -gt "$c0" ] || fail "no IO completed after refused remove $k"
	fl_alive busy "remove attempt $k was checked"
done
ok "dmsetup remove refused three times while busy (EBUSY), IO kept flowing"
sleep "$(scaled 8 2)"
fl_alive busy "its end"
kill -INT "$(cat /tmp/fl.busy.pid)"

fl_load_wait busy 30 "dmsetup status lq" "fl_lower_inflight $nb"
fl_idle lq "$nb"
issued=$(fl_issued busy) rw=$(fl_lq_rw lq)
low=$(($(fl_lower_bios "$nb") - low0))
diag "$(tail -1 /tmp/fl.busy.out | cut -d' ' -f1-6)"
diag "lunq dispatched $(lq_stat lq dispatched) completed $(lq_stat lq completed) reads+writes $rw; lower device bios $low"
[ "$rw" = "$issued" ] || fail "lunqbench issued $issued, lunq completed $rw reads+writes"
[ "$low" = "$(lq_stat lq dispatched)" ] || fail "lower device got $low bios, lunq dispatched $(lq_stat lq dispatched)"
counters_consistent lq || fail "counters inconsistent"
dm_remove lq || fail "remove after the load drained"
dm_exists lq && fail "device still there after remove"
[ -e /sys/kernel/lunq/lq ] && fail "/sys/kernel/lunq/lq left behind"
[ "$(fl_lower_inflight "$nb")" = "0 0" ] || fail "lower device busy after remove: $(fl_lower_inflight "$nb")"
ok "after the load drained: remove succeeded, lower device idle"
io_report remove-busy "$issued" "$rw" $(($(fl_kv busy errors) + $(fl_kv busy verify_errors)))

# --- (2) deferred remove during the load
lunq_create lq $nb qdepth:16 lun_depth:2 sched:disksort || fail "create again"
low0=$(fl_lower_bios "$nb")
fl_load_start defer /dev/mapper/lq 300	# stopped after the checks
sleep 1
waiters lq
expect dmsetup remove --noudevsync --deferred lq
dm_exists lq || fail "deferred remove took the device while open"
dmsetup info lq | grep -qi "deferred" || diag "dmsetup info does not show the deferred remove: $(dmsetup info lq | tr '\n' ' ')"
c0=$(lq_stat lq completed)
sleep 1
[ "$(lq_stat lq completed)" -gt "$c0" ] || fail "no IO completed after the deferred remove was scheduled"
[ "$(lq_stat lq qfull)" -gt 0 ] || fail "no QUEUE FULL: nothing on the retry list"
fl_alive defer "the deferred remove was checked"
sleep "$(scaled 4 1)"
dm_exists lq || fail "deferred remove took the device while open"
kill -INT "$(cat /tmp/fl.defer.pid)"
fl_load_wait defer 30 "dmsetup status lq" "fl_lower_inflight $nb"
for i in $(seq 25); do dm_exists lq || break; sleep 0.2; done
dm_exists lq && fail "deferred remove did not happen after the load closed the device"
[ -e /sys/kernel/lunq/lq ] && fail "/sys/kernel/lunq/lq left behind"
[ "$(fl_lower_inflight "$nb")" = "0 0" ] || fail "lower device busy after the deferred remove"
issued=$(fl_issued defer)
low=$(($(fl_lower_bios "$nb") - low0))
diag "$(tail -1 /tmp/fl.defer.out | cut -d' ' -f1-6); lower device bios $low"
ok "deferred remove during the load: device served it to the end, then went away; lower device idle"
io_report remove-deferred "$issued" "$low" $(($(fl_kv defer errors) + $(fl_kv defer verify_errors)))
