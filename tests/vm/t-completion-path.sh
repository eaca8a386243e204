# The time from a device's completion to the application, on this kernel
# (on PREEMPT_RT the flash model's 2 ms IOs take longer at qdepth 1 in
# lunqbench; this shows where the time goes).
# lunqbench at QD1 (io_uring and sync) on null_blk alone with 2 ms timer
# completions, and through lunq's flash model (2 ms per IO) over a fast
# null_blk.  Exact checks: nothing completes before its 2 ms (the means of
# lunqbench on null_blk and through lunq, lunq's own service mean: every
# IO takes at least 2 ms, so every exact mean does).  Printed: how much
# later than the device, or than lunq, the application sees a completion
# (not asserted: lunq's and lunqbench's IO sets differ by the IOs at the
# run's edges).  On Debian's 6.1 that is ~0.1-0.2 ms; on
# 6.1 PREEMPT_RT ~0.4-0.9 ms on average with a p90 near 4 ms, for null_blk
# alone as much as through lunq, while lunq's own service time stays at
# the model's 2 ms (+0.2): the delay is the RT kernel's completion path
# under TCG, not lunq's model.
# group: stats
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

# lb_service FILE: "IOS P50_NS MEAN_NS" from lunqbench's service row
lb_service() {
	awk '$1 == "service" && $2 ~ /^[0-9]+$/ {
		u = $4; v = $3; p = (u == "ms") ? v * 1e6 : (u == "us" || u == "µs") ? v * 1e3 : (u == "s") ? v * 1e9 : v
		n = NF; mu = $n; mv = $(n - 1)
		m = (mu == "ms") ? mv * 1e6 : (mu == "us" || mu == "µs") ? mv * 1e3 : (mu == "s") ? mv * 1e9 : mv
		printf "%d %d %d\n", $2, p, m; exit }' "$1"
}

rt=no
uname -v | grep -q PREEMPT_RT && rt=yes
nb=$(nullb_create lq_slow 64 irqmode=2 completion_nsec=2000000) || fail "null_blk"
for e in uring sync; do
	lunqbench --engine $e --iodepth 1 --elapsed "$(scaled 4 2)" --interval 0 "$nb" > /tmp/cp.$e 2>&1 ||
		{ cat /tmp/cp.$e; fail "lunqbench $e on null_blk"; }
	set -- $(lb_service /tmp/cp.$e)
	[ $# = 3 ] || { cat /tmp/cp.$e; fail "no service row from lunqbench"; }
	# every IO takes at least the timer's 2 ms, so the (exact) mean does
	[ "$3" -ge 2000000 ] || fail "null_blk ($e): mean $3 ns, below its 2 ms timer"
	diag "null_blk alone, $e, QD1: $1 IOs, p50 $(ms "$2") ms, mean $(ms "$3") ms: +$(ms $(($3 - 2000000))) ms after the device (PREEMPT_RT: $rt)"
done
cleanup_all

nb=$(nullb_create lq_fast 64) || fail "null_blk"
lunq_create lq $nb qdepth:1 model:flash channels:4 svc_us:2000 || fail "lunq"
for e in uring sync; do
	echo 1 > /sys/kernel/lunq/lq/reset
	lunqbench --engine $e --iodepth 1 --elapsed "$(scaled 4 2)" --interval 0 /dev/mapper/lq > /tmp/cp.$e 2>&1 ||
		{ cat /tmp/cp.$e; fail "lunqbench $e through lunq"; }
	set -- $(lb_service /tmp/cp.$e)
	[ $# = 3 ] || { cat /tmp/cp.$e; fail "no service row from lunqbench"; }
	n=$(awk '$1 == "count" { print $2 }' /sys/kernel/lunq/lq/hist/service_read)
	s=$(awk '$1 == "sum" { print $2 }' /sys/kernel/lunq/lq/hist/service_read)
	[ "$n" -gt 0 ] || fail "lunq counted no read"
	lm=$((s / n))
	[ "$lm" -ge 2000000 ] || fail "lunq's service mean $lm ns, below the model's 2 ms"
	[ "$3" -ge 2000000 ] || fail "lunqbench's mean $3 ns through lunq, below the model's 2 ms ($e)"
	diag "through lunq, $e, QD1: lunq's service mean $(ms $lm) ms (model 2 ms); lunqbench $1 IOs, p50 $(ms "$2") ms, mean $(ms "$3") ms: +$(ms $(($3 - lm))) ms after lunq (PREEMPT_RT: $rt)"
done
ok "completion path measured; lunq's model and the device keep their 2 ms, the rest is after them"
