# Fault matrix: policy churn.  A verifying lunqbench load (50% reads,
# random 4 KiB, QD32) runs through a lunq device on null_blk (1 ms) while
# the policy changes every 100 ms for a minute (`scaled 60`), cycling
# through every live-settable key of kmod/dm-lunq.rst: qdepth (0..64),
# sched (fifo, disksort, max_wait_ms), reaction (none, linux, sd, sd-fc
# and their periods), lun_depth, foreign (always and periodic),
# qfull_delay_us (0 included), reset_after/reset_ms (LUN resets), model
# (none, fixed, flash, hdd and their parameters), bubble_ms, rmw_x.
# Changes go through the sysfs table and policy/<key> files, every 10th
# through `lunqctl set`, every 10th through `dmsetup message`; every one
# must be accepted.  Proves: IO keeps completing (no 5 s without
# progress, 20 s on the debug kernel; the load stops when told: no hang),
# all data verified, nothing lost (lunqbench's IOs = lunq's reads+writes;
# lunq's dispatched = completed + aborted = bios the lower device got),
# everything idle afterwards (lower inflight "0 0").  The reset_after
# steps reset the LUN (resets > 0); on the debug kernel, whose shell keeps
# no cadence (a step there lasts 150-200 ms, and under a loaded host its
# refusals can alternate with acceptances: 2121 QUEUE FULLs and no run of
# 5 in one run), that count is reported, not checked:
# t-fault-lun-reset checks resets there.
# group: fault
# time-debug: 40
# time: 30
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/fault-lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=1000000 hw_queue_depth=256) ||
	fail "null_blk setup"
lunq_create lq $nb qdepth:8 sched:fifo || fail "create"
fl_prefill /dev/mapper/lq

# step K: the policy words of step K (each step is valid from any state
# the cycle reaches: reaction other than none comes with qdepth >= 1,
# qdepth:0 with reaction:none, foreign with lun_depth)
step() {
	case $1 in
	0) w="qdepth:8 sched:fifo" ;;
	1) w="sched:disksort max_wait_ms:50" ;;
	2) w="qdepth:2" ;;
	3) w="reaction:linux qdepth:16 ramp_up_ms:200" ;;
	4) w="lun_depth:4 foreign:0 reset_after:8 reset_ms:20" ;;
	5) w="model:fixed svc_us:500 qfull_delay_us:0" ;;
	6) w="sched:fifo max_wait_ms:0" ;;
	7) w="reaction:sd qdepth:32 restore_ms:300" ;;
	8) w="lun_depth:2 foreign:1 foreign_period_ms:200" ;;
	9) w="model:flash channels:4 svc_us:300 mbps:200" ;;
	10) w="qdepth:1 reaction:none reset_after:0" ;;
	11) w="sched:disksort max_wait_ms:10" ;;
	12) w="reaction:sd-fc qdepth:12 restore_ms:200 step_ms:100 min_throttle:2" ;;
	13) w="lun_depth:3 foreign:0 reset_after:5 reset_ms:20 qfull_delay_us:500" ;;
	14) w="model:hdd seek_ms:2 rpm:15000 svc_us:100 mbps:0" ;;
	15) w="qdepth:0 reaction:none lun_depth:0 foreign:0 foreign_period_ms:0" ;;
	16) w="bubble_ms:5 rmw_x:3 sched:fifo" ;;
	17) w="model:none reset_after:0 qfull_delay_us:3000 bubble_ms:0" ;;
	18) w="qdepth:64 reaction:linux ramp_up_ms:100" ;;
	19) w="lun_depth:8 foreign:0 model:fixed svc_us:0 sched:disksort max_wait_ms:0" ;;
	esac
}
nsteps=20

# apply I: step I mod 20.  Under TCG a forked command takes 0.1-0.7 s
# while the load runs, so the 100 ms cadence comes from the shell's own
# writes to sysfs (the table file; a single key through policy/<key>),
# and every 10th change goes through `lunqctl set`, every 10th through
# `dmsetup message` (the ticks they overrun are caught up at once)
apply() {
	step $(($1 % nsteps))
	case $(($1 % 10)) in
	3)	_kv=
		for _x in $w; do _kv="$_kv ${_x%%:*}=${_x#*:}"; done
		# shellcheck disable=SC2086
		lunqctl set lq $_kv > /dev/null 2> /tmp/apply.err ;;
	7)	# shellcheck disable=SC2086
		dmsetup message lq 0 set $w 2> /tmp/apply.err ;;
	*)	if [ "$w" = "${w%% *}" ]; then
			echo "${w#*:}" > "/sys/kernel/lunq/lq/policy/${w%%:*}"
		else
			echo "$w" > /sys/kernel/lunq/lq/table
		fi 2> /tmp/apply.err ;;
	esac || { cat /tmp/apply.err; fail "change $1 ($w, path $(($1 % 10))) refused: $(dmsetup table lq)"; }
}

# clock: $now = milliseconds since boot, without a fork (a command
# substitution would fork; 10 ms resolution)
clock() { read -r _u _x < /proc/uptime; _c=${_u%.*}${_u#*.}; now=$((_c * 10)); }
mkfifo /tmp/tick
# nap MS: sleep without a fork (read -t on a fifo nobody writes)
nap() {
	if [ "$1" -ge 100 ]; then _t=0.1
	elif [ "$1" -ge 10 ]; then _t=0.0$1
	else _t=0.00$1
	fi
	read -r -t "$_t" _x <> /tmp/tick
}

secs=$(scaled 60 15)
rw0=$(fl_lq_rw lq) low0=$(fl_lower_bios "$nb")
d0=$(lq_stat lq dispatched) c0=$(lq_stat lq completed) a0=$(lq_stat lq aborted)
fl_load_start churn /dev/mapper/lq 300	# stopped after the churn
sleep 1

read -r lpid < /tmp/fl.churn.pid
# a stall: no completion for 5 s (20 s on the debug kernel, where
# LUNQ_SKIP_TIMING=1: KASAN and lockdep under TCG)
stall=5000
[ "${LUNQ_SKIP_TIMING:-0}" = 1 ] && stall=20000
clock; start=$now
end=$((start + secs * 1000))
i=0 last_t=$start maxgap=0 t=$start
read -r last_c < /sys/kernel/lunq/lq/stats/completed
while [ "$t" -lt "$end" ]; do
	apply $i
	i=$((i + 1))
	clock
	[ $((start + i * 100 - now)) -gt 0 ] && nap $((start + i * 100 - now))
	# progress: completions keep coming under every policy
	clock; t=$now
	read -r c < /sys/kernel/lunq/lq/stats/completed
	if [ "$c" != "$last_c" ]; then
		[ $((t - last_t)) -gt "$maxgap" ] && maxgap=$((t - last_t))
		last_c=$c last_t=$t
	elif [ $((t - last_t)) -gt "$stall" ]; then
		echo "# $(dmsetup table lq)"
		echo "# $(dmsetup status lq)"
		fail "no IO completed for $((stall / 1000)) s after change $i: hung"
	fi
	kill -0 "$lpid" 2>/dev/null || { cat /tmp/fl.churn.out; fail "load ended during the churn (change $i)"; }
done
clock; ms=$((now - start))
diag "$i policy changes in $ms ms (one per $((ms / i)) ms), longest gap between completions seen $maxgap ms"
# the cadence; the debug kernel's forks take seconds, it cannot keep it
if [ $i -lt $((secs * 9)) ]; then
	[ "${LUNQ_SKIP_TIMING:-0}" = 1 ] || fail "only $i changes in $secs s"
	diag "only $i changes in $secs s (LUNQ_SKIP_TIMING: not checked)"
fi

# back to a plain policy, then the load stops (its IOs in flight complete)
expect dmsetup message lq 0 set qdepth:8 reaction:none lun_depth:0 foreign:0 model:none reset_after:0
kill -INT "$lpid"
fl_load_wait churn 30 "dmsetup table lq" "dmsetup status lq" "fl_lower_inflight $nb"
diag "$(tail -1 /tmp/fl.churn.out)"
fl_idle lq "$nb"

issued=$(fl_issued churn)
done_=$(($(fl_lq_rw lq) - rw0))
disp=$(($(lq_stat lq dispatched) - d0)) comp=$(($(lq_stat lq completed) - c0))
abrt=$(($(lq_stat lq aborted) - a0)) low=$(($(fl_lower_bios "$nb") - low0))
diag "lunq: reads+writes $done_ dispatched $disp completed $comp aborted $abrt qfull $(lq_stat lq qfull) resets $(lq_stat lq resets) requeued $(lq_stat lq requeued); lower device bios $low"
[ "$done_" = "$issued" ] || fail "lunqbench issued $issued IOs, lunq completed $done_ reads+writes"
[ "$disp" = $((comp + abrt)) ] || fail "dispatched $disp != completed $comp + aborted $abrt"
[ "$low" = "$disp" ] || fail "lower device got $low bios, lunq dispatched $disp"
[ "$(lq_stat lq qfull)" -gt 0 ] || fail "no QUEUE FULL in the churn: lun_depth steps had no effect"
if [ "$(lq_stat lq resets)" = 0 ]; then
	[ "${LUNQ_SKIP_TIMING:-0}" = 1 ] || fail "no LUN reset in the churn: reset_after steps had no effect"
	diag "no LUN reset in $i changes (LUNQ_SKIP_TIMING: not checked)"
fi
counters_consistent lq || fail "counters inconsistent"
ok "$i policy changes under verify load: no hang, data verified, every IO accounted for"
io_report policy-churn "$issued" "$done_" $(($(fl_kv churn errors) + $(fl_kv churn verify_errors)))
dm_remove lq
