# The latency bubble of seed 004 ("Latency bubbles in your disk IO"):
# a sequential stream that keeps arriving ahead of the sweep, plus an
# occasional read far behind it, on lunq qdepth:2 over null_blk with 2 ms
# completions.  Observer: fio's own per-IO latencies.
#   fifo                     the far reads wait behind a few stream IOs
#   disksort                 the far reads starve while the stream lasts:
#                            max >= 10x fifo's and >= 10x the stream's p99
#   disksort max_wait_ms:M   no far read waits longer than M plus a
#                            service time (plus scheduling slack on TCG:
#                            50 ms + the stream's p99 in that run)
# group: bubble timing
# time: 25
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

SVC_MS=2 M=200 RUNTIME=6
nb=$(nullb_create lq_nb 512 irqmode=2 completion_nsec=$((SVC_MS * 1000000)) hw_queue_depth=64) ||
	fail "null_blk setup"
lunq_create lq $nb qdepth:2 || fail "create"

# run POLICY...: the workload; sets far_max (ms), stream_p99 (ms), n_far
run() {
	expect dmsetup message lq 0 set "$@"
	fio --direct=1 --ioengine=libaio --filename=/dev/mapper/lq --bs=4k \
		--time_based --runtime=$RUNTIME --output-format=terse --terse-version=3 \
		--name=stream --rw=read --offset=256M --size=200M --iodepth=8 \
		--name=far --rw=randread --offset=0 --size=32M --iodepth=1 --rate_iops=4 \
		> /tmp/fio.bubble 2>&1 || { cat /tmp/fio.bubble; fail "fio"; }
	awk -F';' '$5 != 0 { exit 1 }' /tmp/fio.bubble || fail "fio reported errors"
	stream_p99=$(awk -F';' '$3 == "stream" { for (i = 18; i <= 37; i++) if ($i ~ /^99\.000000%=/) { sub(/.*=/, "", $i); printf "%.1f", $i / 1000 } }' /tmp/fio.bubble)
	far_max=$(awk -F';' '$3 == "far" { printf "%.1f", $39 / 1000 }' /tmp/fio.bubble)
	n_far=$(awk -F';' '$3 == "far" { print int($6 / 4) }' /tmp/fio.bubble)
	stream_ios=$(awk -F';' '$3 == "stream" { print int($6 / 4) }' /tmp/fio.bubble)
	diag "$*: far reads $n_far, max latency $far_max ms; stream $stream_ios reads, p99 $stream_p99 ms"
	[ -n "$far_max" ] && [ -n "$stream_p99" ] || fail "could not read fio's output"
	[ "$stream_ios" -gt 500 ] || fail "stream too slow ($stream_ios reads)"
	[ "$n_far" -ge 1 ] || fail "no far read completed"
}
gt() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a > b) }'; }

run sched:fifo max_wait_ms:0
fifo_max=$far_max
run sched:disksort
ds_max=$far_max ds_p99=$stream_p99
run sched:disksort max_wait_ms:$M
aged_max=$far_max aged_p99=$stream_p99

echo "bubble: far-read max latency  fifo ${fifo_max} ms  disksort ${ds_max} ms  disksort+max_wait_ms:$M ${aged_max} ms  (stream p99 under disksort ${ds_p99} ms)"
gt "$ds_max" "$(awk -v a="$fifo_max" 'BEGIN { print 10 * a }')" ||
	fail "disksort far max $ds_max ms is not 10x fifo's $fifo_max ms"
ok "disksort starves the far reads: $ds_max ms >= 10x fifo's $fifo_max ms"
gt "$ds_max" "$(awk -v a="$ds_p99" 'BEGIN { print 10 * a }')" ||
	fail "disksort far max $ds_max ms is not 10x the stream's p99 $ds_p99 ms"
ok "the bubble hides from averages: far max $ds_max ms >= 10x stream p99 $ds_p99 ms"
# one service time for the IO it waited behind and one for itself, plus
# slack for dispatch and fio scheduling under TCG: 50 ms plus the stream's
# p99 in the same run (which measures how slow this VM was just then)
bound=$(awk -v m=$M -v s=$SVC_MS -v p="$aged_p99" 'BEGIN { printf "%d", m + 2 * s + 50 + p }')
gt "$bound" "$aged_max" || fail "max_wait_ms:$M but a far read took $aged_max ms (bound $bound ms)"
ok "max_wait_ms:$M bounds the far reads: $aged_max ms <= $bound ms"
