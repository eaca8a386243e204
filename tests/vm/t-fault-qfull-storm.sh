# Fault matrix: QUEUE FULL storms with every reaction policy of
# kmod/dm-lunq.rst (none, linux, sd, sd-fc).  Each round: an emulated LUN
# with 2 command slots behind a host throttle of 32, a QD64 verifying
# lunqbench load (50% reads, random 4 KiB) over null_blk (1 ms), short
# reaction periods so the throttle keeps being cut and restored (storm
# after storm).  Then a shared pool: four LUNs on one null_blk, one per
# reaction, drawing from 4 pool slots, each under its own verify load.
# Proves, per policy: QUEUE FULL answered (qfull > 0) and, except for
# none, the throttle moved; data verified; nothing lost (lunqbench's IOs
# = lunq's reads+writes; dispatched = completed = bios the lower device
# got: a refused command never reaches it); and the device idle after
# the load (lower inflight "0 0", lunq's inflight, waiting, retrying,
# lun_inflight and pool_inflight 0).
# group: fault
# time-debug: 110
# time: 30
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/fault-lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=1000000 hw_queue_depth=256) ||
	fail "null_blk setup"
sz=$(sectors "$nb")
secs=$(scaled 5 2)
FL_MB=4

periods() {
	case $1 in
	none) echo "" ;;
	linux) echo "ramp_up_ms:500" ;;
	sd) echo "restore_ms:300" ;;
	sd-fc) echo "restore_ms:300 step_ms:100 min_throttle:2" ;;
	esac
}

# check NAME TAG LOWER_DELTA: the books of one device after its load
check() {
	_issued=$(fl_issued "$2")
	_rw=$(fl_lq_rw "$1")
	_q=$(lq_stat "$1" qfull) _disp=$(lq_stat "$1" dispatched) _comp=$(lq_stat "$1" completed)
	diag "$1: $(tail -1 "/tmp/fl.$2.out" | cut -d' ' -f1-6)"
	diag "$1: qfull $_q retried $(lq_stat "$1" retried) throttle_changes $(lq_stat "$1" throttle_changes) dispatched $_disp completed $_comp reads+writes $_rw"
	[ "$_q" -gt 0 ] || fail "$1: no QUEUE FULL"
	[ "$_rw" = "$_issued" ] || fail "$1: lunqbench issued $_issued, lunq completed $_rw reads+writes"
	[ "$_disp" = "$_comp" ] || fail "$1: dispatched $_disp != completed $_comp"
	[ "$(lq_stat "$1" aborted)" = 0 ] || fail "$1: commands aborted without reset_after"
	counters_consistent "$1" || fail "$1: counters inconsistent"
}

first=1
for r in none linux sd sd-fc; do
	p=$(periods $r)
	# shellcheck disable=SC2086
	lunq_create lq $nb qdepth:32 lun_depth:2 reaction:$r $p ||
		fail "create reaction:$r"
	[ $first = 1 ] && fl_prefill /dev/mapper/lq
	first=0
	expect dmsetup message lq 0 stats reset
	low0=$(fl_lower_bios "$nb")
	fl_load_start "$r" /dev/mapper/lq "$secs" --iodepth 64
	fl_load_wait "$r" 30 "dmsetup status lq" "fl_lower_inflight $nb"
	fl_idle lq "$nb"
	check lq "$r"
	low=$(($(fl_lower_bios "$nb") - low0))
	[ "$low" = "$(lq_stat lq dispatched)" ] ||
		fail "reaction:$r: lower device got $low bios, lunq dispatched $(lq_stat lq dispatched)"
	if [ $r != none ]; then
		[ "$(lq_stat lq throttle_changes)" -gt 0 ] || fail "reaction:$r never moved the throttle"
	fi
	ok "reaction:$r: QUEUE FULL storm ($(lq_stat lq qfull) answers), verify clean, nothing lost, idle after"
	io_report "qfull-storm-$r" "$(fl_issued "$r")" "$(fl_lq_rw lq)" \
		$(($(fl_kv "$r" errors) + $(fl_kv "$r" verify_errors)))
	dm_remove lq || fail "remove after reaction:$r"
done

# --- a pool of 4 slots shared by four LUNs, one per reaction, 16 MiB each
i=0
for r in none linux sd sd-fc; do
	p=$(periods $r)
	pd=
	[ $i = 0 ] && pd=pool_depth:4
	w="qdepth:16 reaction:$r pool:port0 $pd $p"
	# shellcheck disable=SC2086
	lunq_create "lqp$i" -s $((i * 32768)) -l 32768 $nb $w ||
		fail "create pool member reaction:$r"
	fl_prefill "/dev/mapper/lqp$i"
	i=$((i + 1))
done
for i in 0 1 2 3; do expect dmsetup message "lqp$i" 0 stats reset; done
low0=$(fl_lower_bios "$nb")
for i in 0 1 2 3; do fl_load_start "p$i" "/dev/mapper/lqp$i" "$(scaled 8 2)" --iodepth 32; done
for i in 0 1 2 3; do fl_load_wait "p$i" 40 "dmsetup status lqp$i" "fl_lower_inflight $nb"; done
disp=0
for i in 0 1 2 3; do
	fl_idle "lqp$i" "$nb"
	[ "$(lq_stat "lqp$i" pool_inflight)" = 0 ] || fail "pool still holds commands: $(dmsetup status "lqp$i")"
	check "lqp$i" "p$i"
	disp=$((disp + $(lq_stat "lqp$i" dispatched)))
done
low=$(($(fl_lower_bios "$nb") - low0))
[ "$low" = "$disp" ] || fail "pool: lower device got $low bios, the four LUNs dispatched $disp"
ok "pool of 4 slots, four LUNs (none, linux, sd, sd-fc): QUEUE FULL on each, verify clean, nothing lost, idle after"
i=0
for r in none linux sd sd-fc; do
	io_report "qfull-storm-pool-$r" "$(fl_issued "p$i")" "$(fl_lq_rw "lqp$i")" \
		$(($(fl_kv "p$i" errors) + $(fl_kv "p$i" verify_errors)))
	i=$((i + 1))
done
for i in 0 1 2 3; do dm_remove "lqp$i" || fail "remove lqp$i"; done
