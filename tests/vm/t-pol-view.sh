# What a policy sees (struct lunq_pol_window), read from every
# answer of the built-in auto:knee (the trace event lunq_pol_answer, which
# carries the view it answered), on flash LUNs of 4 channels x 8 ms over
# null_blk holding each command 8 ms:
#   every window: svc min <= p50 <= p99, the least service time no shorter
#   than the model's 8 ms; its run (run_ios, run_p99: the windows at the
#   same depth) starts anew or adds the window's commands to the last
#   window's run, and its p99 lies between theirs; commands waited in lunq (fio keeps 32 out, the
#   throttle far fewer) so the wait p99, the time with a waiter (wait) and
#   the oldest waiter's age at the window's end (oldest, under 5 s) are
#   above 0;
#   the mean in flight over the windows agrees with null_blk's own
#   (/proc/diskstats: the time-weighted commands in flight) within 35%;
#   two busy devices in a pool of 32: the view says pool 32, busy 2, share
#   16; the other one idle: busy 1, share 32.
# group: throttle stats
# time: 20
. "$LUNQ_SRC/tests/vm/lib.sh"

tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs tracefs $tr 2>/dev/null
[ -d $tr/events/lunq/lunq_pol_answer ] || fail "no trace event lunq:lunq_pol_answer"
nb1=$(nullb_create pv1 256 hw_queue_depth=256 irqmode=2 completion_nsec=8000000) || fail "null_blk pv1"
nb2=$(nullb_create pv2 256 hw_queue_depth=256 irqmode=2 completion_nsec=8000000) || fail "null_blk pv2"
sz=$(sectors "$nb1")
FLASH="model:flash channels:4 svc_us:8000"

# pa_off NAME: NAME's window answers, "key=value ..." from policy= on
pa_off() {
	lunq_ev_off lunq_pol_answer
	grep "lunq_pol_answer: .* $1 policy=.* hook=window " $tr/trace |
		sed 's/.* policy=/policy=/'
}
# load NAME SECONDS: fio random reads, 32 at once
load() {
	fio --name="$1" --filename="/dev/mapper/$1" --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=32 --time_based --runtime="$2" \
		--output-format=terse --terse-version=3 > "/tmp/fio.$1" 2>&1
}
# io_ms DEV: null_blk's weighted time in queue (ms) and now (ms)
io_ms() {
	awk -v d="${1#/dev/}" '$3 == d { print $14 }' /proc/diskstats
}
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }

# --- one device: the service, the wait, the mean in flight -------------------
lunq_create pva $nb1 qdepth:16 auto:knee $FLASH || fail "create"
load pva 3		# past auto's first moves
lunq_ev_on lunq_pol_answer
q0=$(io_ms "$nb1") t0=$(now_ms)
load pva 5
q1=$(io_ms "$nb1") t1=$(now_ms)
pa_off pva > /tmp/pa
n=$(wc -l < /tmp/pa)
[ "$n" -ge 10 ] || fail "only $n window answers of knee traced"
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
       if (f["policy"] != "knee" || f["ios"] == 0 || f["svc_min"] < 7000000 ||
           f["svc_min"] > f["svc_p50"] || f["svc_p50"] > f["svc_p99"] ||
           f["inflight"] > 1000 * (f["depth"] + 1)) { print "bad: " $0; bad = 1 }
       if (f["wait_p99"] > 0) waited++
       if (!("wait" in f) || !("oldest" in f) || (f["wait_p99"] > 0 && f["wait"] == 0) ||
           f["oldest"] > 5000000000) { print "wait: " $0; bad = 1 }
       if (f["oldest"] > 0) old++
       if (f["pool"] != 0 || f["busy"] != 0 || f["share"] != 0) { print "pool: " $0; bad = 1 } }
     END { if (waited < NR / 2 || old < NR / 2) { print waited " of " NR " windows waited, " old " ended with a waiter"; bad = 1 }; exit bad }' /tmp/pa ||
	fail "a window's view is impossible (min <= p50 <= p99, min >= 8 ms, in flight <= depth + 1, waits: wait_p99, wait, oldest)"
# the run of windows at a depth: a window starts one (after a change of
# depth, or past 512 commands) or adds its commands to the one before it;
# the p99 of the two together lies between their p99s
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] + 0 }
       if (!n) ;	# the first traced: its run began before the trace
       else if (f["run_ios"] == f["ios"]) new++
       else if (f["run_ios"] == r + f["ios"] && f["depth"] == d && c == d && r < 512) {
           more++
           lo = p < f["svc_p99"] ? p : f["svc_p99"]; hi = p < f["svc_p99"] ? f["svc_p99"] : p
           if (f["run_p99"] < lo || f["run_p99"] > hi) { print "run p99: " $0; bad = 1 }
       } else { print "run: " $0 " after run_ios=" r " depth=" d " clamped=" c; bad = 1 }
       n++; r = f["run_ios"]; p = f["run_p99"]; d = f["depth"]; c = f["clamped"] }
     END { if (more < 3 || new < 1) { print new " runs, " more " windows added to one"; bad = 1 }; exit bad }' /tmp/pa ||
	fail "the run of windows at a depth (run_ios, run_p99) does not add up"
# null_blk's mean in flight over the same 5 s against the windows' mean
ours=$(awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
              s += f["inflight"]; n++ } END { printf "%.2f\n", s / n / 1000 }' /tmp/pa)
theirs=$(awk -v q=$((q1 - q0)) -v t=$((t1 - t0)) 'BEGIN { printf "%.2f\n", q / t }')
awk -v a="$ours" -v b="$theirs" 'BEGIN { exit !(b > 0 && a / b > 0.65 && a / b < 1.35) }' ||
	fail "mean in flight: the windows say $ours, null_blk $theirs"
ok "$n windows of knee: svc min >= 8 ms <= p50 <= p99, runs add up, waits in lunq, mean in flight $ours (null_blk: $theirs)"
dm_remove pva

# --- two devices in a pool: its depth, busy devices, this one's share --------
P="pool:pv pool_depth:32"
lunq_create pvb $nb1 qdepth:8 auto:knee $P $FLASH || fail "create pvb"
lunq_create pvc -l $sz $nb2 qdepth:8 auto:knee $P $FLASH || fail "create pvc"
load pvc 6 &
fc=$!
sleep 1
lunq_ev_on lunq_pol_answer
load pvb 3
pa_off pvb > /tmp/pa2
wait $fc
lunq_ev_on lunq_pol_answer
load pvb 3
pa_off pvb > /tmp/pa1
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
       if (f["pool"] != 32) { print "pool: " $0; bad = 1 }
       if (f["busy"] == 2 && f["share"] == 16) two++ }
     END { if (two < NR / 2) { print two " of " NR " windows say busy=2 share=16"; bad = 1 }; exit bad }' /tmp/pa2 ||
	fail "both busy: the pool's view"
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
       if (f["pool"] != 32) { print "pool: " $0; bad = 1 }
       if (f["busy"] == 1 && f["share"] == 32) one++ }
     END { if (one < NR / 2) { print one " of " NR " windows say busy=1 share=32"; bad = 1 }; exit bad }' /tmp/pa1 ||
	fail "one busy: the pool's view"
ok "pool of 32: both busy, $(wc -l < /tmp/pa2) windows say busy 2 share 16; alone, $(wc -l < /tmp/pa1) say busy 1 share 32"
dm_remove pvb
dm_remove pvc
