# 10,000 IOs waiting at once, then drained: lunqbench --verify with 3
# io_uring threads of 4096 slots each (12288 outstanding: mixed 4 KiB
# reads and writes at random over 128 MiB) against lunq over a fast
# memory-backed null_blk, first at qdepth:1 with the fixed service-time
# model at 3 s per IO (the queue fills: nothing drains), then at qdepth:64
# without the model (drained as fast as the VM goes).  With sched:fifo
# and with sched:disksort (the sorted insertion path: an rbtree of 12k
# waiters): lunq's max_waiting
# (and the sampled waiting gauge) reach >= 10000, every IO completes
# (lunq's reads + writes = the tool's IOs, dispatched = completed, the
# lower device's diskstats count them all, inflight back to 0 0), no
# error, no verify error; then a read pass over the whole range finds
# every block intact.  bio-based dm has no request limit and io_uring
# needs no aio-max-nr, so the only bound is the load tool's slots.
# group: fault
# time-debug: 150
# time: 15
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 128) || fail "null_blk setup"
sz=$(sectors "$nb")
lunq_create lq $nb qdepth:1 || fail "create"

kv() { tr ' ' '\n' < /tmp/lb.kv | sed -n "s/^$1=//p"; }
lower_ios() {
	echo $(($(disk_stat "$nb" 1) + $(disk_stat "$nb" 2) + $(disk_stat "$nb" 5) + $(disk_stat "$nb" 6)))
}
# lb ARGS...: lunqbench --verify over 0-128m of lq (a hang is killed)
lb() {
	timeout 150 lunqbench --verify --seed 11 --range 0-128m --interval 0 --kv "$@" \
		/dev/mapper/lq > /tmp/lb.out 2>&1
	_rc=$?
	tail -1 /tmp/lb.out > /tmp/lb.kv
	[ $_rc = 0 ] || { cat /tmp/lb.out; dmsetup status lq; fail "lunqbench exit $_rc"; }
	[ "$(kv errors)" = 0 ] && [ "$(kv verify_errors)" = 0 ] ||
		{ cat /tmp/lb.out; fail "errors or verify errors"; }
}

# every block of the range written once, unthrottled
lb --bs 64k --rdpct 0 --seekpct 0 --ios 2048 --iodepth 8
ok "128 MiB written with seed 11"

extra=$(scaled 1000 250)
threads=3 depth=4096
want=10000
for sched in fifo disksort; do
	# fill: qdepth:1 and 3 s per IO, so (almost) nothing drains while
	# lunqbench's 12288 slots fill lunq's wait queue
	expect dmsetup message lq 0 set qdepth:1 sched:$sched model:fixed svc_us:3000000
	expect dmsetup message lq 0 stats reset
	l0=$(lower_ios)
	n=$((threads * depth + extra))
	lunqbench --verify --seed 11 --range 0-128m --interval 0 --kv \
		--bs 4k --rdpct 50 --seekpct 100 --threads $threads --iodepth $depth \
		--batch 256 --ios $n /dev/mapper/lq > /tmp/lb.out 2>&1 &
	p=$!
	smax=0 t0=$(now_ms) tlast=$t0
	while kill -0 $p 2>/dev/null; do
		w=$(lq_stat lq waiting)
		[ "$w" -gt "$smax" ] && { smax=$w; tlast=$(now_ms); }
		# full, or no growth for 10 s once IO arrives (lunqbench's start,
		# 12288 slots and three rings, takes seconds on a debug kernel,
		# and its submission paused over 3 s there on a loaded host:
		# 9974 waited at most)
		[ "$w" -ge $((threads * depth - 8)) ] && break
		[ "$smax" -gt 0 ] && [ $(($(now_ms) - tlast)) -gt 10000 ] && break
		[ $(($(now_ms) - t0)) -gt 60000 ] && break
		sleep 0.2
	done
	tfill=$(( ($(now_ms) - t0) / 1000 ))
	# drain: qdepth:64, no model
	t1=$(now_ms)
	expect dmsetup message lq 0 set qdepth:64 model:none
	while kill -0 $p 2>/dev/null; do
		[ $(($(now_ms) - t1)) -gt 120000 ] && { kill $p; dmsetup status lq; fail "$sched: load hung"; }
		sleep 0.2
	done
	wait $p
	rc=$?
	tail -1 /tmp/lb.out > /tmp/lb.kv
	secs=$(( ($(now_ms) - t1) / 1000 ))
	[ $rc = 0 ] || { cat /tmp/lb.out; fail "$sched: lunqbench exit $rc"; }
	[ "$(kv errors)" = 0 ] && [ "$(kv verify_errors)" = 0 ] ||
		{ cat /tmp/lb.out; fail "$sched: errors or verify errors"; }
	mw=$(lq_stat lq max_waiting)
	diag "$sched: $(cat /tmp/lb.kv)"
	diag "$sched: lunq max_waiting $mw (sampled max $smax) max_inflight $(lq_stat lq max_inflight), $(dmsetup status lq | cut -d' ' -f4-12)"
	[ "$mw" -ge $want ] || fail "$sched: only $mw IOs waited at once (want >= $want; sampled $smax)"
	[ "$smax" -ge $((want / 2)) ] || fail "$sched: the waiting gauge never showed more than $smax"
	[ "$(lq_stat lq max_inflight)" -le 64 ] || fail "$sched: max_inflight $(lq_stat lq max_inflight) above qdepth:64"
	counters_consistent lq || fail "$sched: IO left in lunq after the drain"
	read -r r w < /sys/block/lq_nb/inflight
	[ "$r" = 0 ] && [ "$w" = 0 ] || fail "$sched: lower device inflight $r $w"
	issued=$(($(kv ios) + $(kv errors)))
	done_lq=$(($(lq_stat lq reads) + $(lq_stat lq writes)))
	lower=$(($(lower_ios) - l0))
	[ "$issued" = "$n" ] || fail "$sched: lunqbench issued $issued of $n"
	[ "$(lq_stat lq dispatched)" = "$done_lq" ] || fail "$sched: dispatched $(lq_stat lq dispatched), completed $done_lq"
	[ "$lower" = "$done_lq" ] || fail "$sched: lower device counted $lower IOs, lunq $done_lq"
	io_report "10k-waiting-$sched" "$issued" "$done_lq" "$(lq_stat lq errors)"
	ok "$sched: $mw IOs waited at once (sampled $smax after ${tfill}s of filling), $issued IOs done ${secs}s later, verify clean"
done

expect dmsetup message lq 0 set qdepth:0 model:none
lb --bs 64k --rdpct 100 --seekpct 0 --ios 2048 --iodepth 8
ok "read pass over 128 MiB: every block intact"
