# lunq's trace events (trace system "lunq", tracefs) and blktrace notes,
# each checked against an observer that is not the event itself:
#  1. qdepth:4 under QD32 over null_blk (no merges): every lunq_dispatch is
#     a D (issue) at the lower device, same sectors and sizes (blktrace);
#     every bio that waited has a lunq_wait; lunq_complete's waits are the
#     wait histograms' count and sum; lunq_bubble = the bubbles counter.
#  2. lun_depth:4 qdepth:16 reaction:linux: lunq_qfull = the qfull counter,
#     lunq_throttle = the throttle log (from, to, cause, in order), and
#     blkparse of the lunq device shows as many "lunq: QUEUE FULL" and
#     "lunq: throttle" notes.
#  3. LUN resets: lunq_reset = the resets counter = "lunq: LUN reset" notes.
#  4. auto:knee: lunq_auto_window fires, and each window that moves the
#     depth is followed by the lunq_throttle of cause auto with its values.
# No trace buffer may overrun (the counts would mean nothing).
# group: trace
# time: 35
. "$LUNQ_SRC/tests/vm/lib.sh"

tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs tracefs $tr 2>/dev/null
[ -d $tr/events ] || tr=/sys/kernel/debug/tracing
[ -d $tr/events ] || skip "no tracefs in this kernel"
[ -d $tr/events/lunq ] || fail "dm-lunq loaded but $tr/events/lunq missing"
for e in wait dispatch complete throttle qfull reset bubble auto_window; do
	[ -d $tr/events/lunq/lunq_$e ] || fail "no event lunq:lunq_$e"
done
ok "trace system lunq has its 8 events"
grep -q 'field:dev_t dev' $tr/events/lunq/lunq_dispatch/format &&
grep -q 'field:char name\[32\]' $tr/events/lunq/lunq_dispatch/format ||
	fail "lunq_dispatch lacks dev/name: $(cat $tr/events/lunq/lunq_dispatch/format)"

echo 4096 > $tr/buffer_size_kb
echo global > $tr/trace_clock	# one clock across CPUs
# trace_on: empty buffers, every lunq event on; trace_off: off, into /tmp/tr
# (and the events named as arguments, e.g. block/block_bio_queue)
trace_on() {
	echo 0 > $tr/tracing_on
	echo > $tr/trace
	echo 1 > $tr/events/lunq/enable
	for e in "$@"; do echo 1 > $tr/events/$e/enable; done
	echo 1 > $tr/tracing_on
}
trace_off() {
	echo 0 > $tr/tracing_on
	echo 0 > $tr/events/lunq/enable
	echo 0 > $tr/events/block/enable
	grep -h '^overrun' $tr/per_cpu/cpu*/stats | grep -qv 'overrun: 0' &&
		fail "trace buffer overran: $(grep -h overrun $tr/per_cpu/cpu*/stats | tr '\n' ' ')"
	# "EVENT FIELDS..." per event, in time order
	cp $tr/trace /tmp/tr.raw
	sed -n 's/^.*: \(lunq_[a-z_]*\): /\1 /p' /tmp/tr.raw > /tmp/tr
}
# ev NAME: the fields of every event NAME (without the event's name)
ev() { awk -v e="lunq_$1" '$1 == e { $1 = ""; sub(/^ /, ""); print }' /tmp/tr; }
nev() { ev "$1" | wc -l; }

# notes_load NAME SIZE: the lunq events and a blktrace of lq's notes
# around a verified write load; events in /tmp/tr, blkparse's text (the
# notes made readable by blknotes) in /tmp/nt.txt
notes_load() {
	trace_on
	blktrace -d /dev/mapper/lq -a notify -o - > /tmp/nt.bin 2>/tmp/nt.err &
	_btn=$!
	sleep 2
	fio_verify "$1" /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size="$2" ||
		fail "fio verify failed ($1)"
	sleep 1
	kill -INT $_btn; wait $_btn
	trace_off
	blknotes < /tmp/nt.bin | blkparse -i - > /tmp/nt.txt 2>/dev/null
}

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=1000000 hw_queue_depth=256) ||
	fail "null_blk setup"
nbd=${nb#/dev/}
echo 2 > /sys/block/$nbd/queue/nomerges	# one request per bio below
sz=$(sectors "$nb")
lunq_create lq $nb qdepth:4 bubble_ms:3 || fail "create"
dmmm=$(dmsetup info -c --noheadings -o major,minor lq | tr ':' ',')

# ---- 1. waits, dispatches, completions, bubbles ----
nbmm=$(tr ':' ',' < /sys/block/$nbd/dev)
trace_on block/block_bio_queue block/block_bio_remap
# one blktrace of both devices (one clock): Q at lq, A (remap, in the
# queue mask) and D below
blktrace -d /dev/mapper/lq -d "$nb" -a queue -a issue -b 2048 -n 8 -o - > /tmp/bt.bin 2> /tmp/bt.err &
btp=$!
sleep 2
fio_verify tw /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=4m ||
	fail "fio verify failed"
sleep 1
kill -INT $btp; wait $btp
trace_off
# blktrace's summary: "Total: N events (dropped D), ..." per device
grep -q 'dropped [1-9]' /tmp/bt.err && { cat /tmp/bt.err; fail "blktrace dropped events"; }
# "NS DEV ACTION RWBS SECTOR BLOCKS" in time order
blkparse -i - -f '%T %t %M,%m %a %d %S %n\n' < /tmp/bt.bin 2> /dev/null |
	awk 'NF >= 7 && $1 ~ /^[0-9]+$/ { printf "%.0f %s %s %s %s %s\n", $1 * 1e9 + $2, $3, $4, $5, $6, $7 }' |
	sort -s -n -k1,1 > /tmp/bt.all
awk -v d="$nbmm" '$2 == d && $3 == "D" { print $3, $4, $5, $6 }' /tmp/bt.all > /tmp/bt.txt
ndisp=$(nev dispatch) nd=$(grep -c '^D ' /tmp/bt.txt)
diag "phase 1: $ndisp lunq_dispatch, $nd D at $nbd, $(nev wait) lunq_wait, $(nev complete) lunq_complete, $(nev bubble) lunq_bubble"
[ "$ndisp" -ge 2048 ] || fail "only $ndisp dispatch events for 1024 writes + 1024 reads"
[ "$(ev dispatch | awk '{ print $1 }' | sort -u)" = "$dmmm" ] ||
	fail "dispatch events name devices $(ev dispatch | awk '{ print $1 }' | sort -u | tr '\n' ' '), want $dmmm"
[ "$(ev dispatch | awk '{ print $2 }' | sort -u)" = lq ] || fail "dispatch events name another device"
[ "$ndisp" = "$nd" ] || fail "$ndisp dispatch events, blktrace saw $nd issues at $nbd"
# the same IOs: lower sector and size against D's sector and blocks
ev dispatch | awk '{ print $9, $6 / 512 }' | sort > /tmp/a
awk '{ print $3, $4 }' /tmp/bt.txt | sort > /tmp/b
cmp -s /tmp/a /tmp/b || { diff /tmp/a /tmp/b | head; fail "dispatched sectors differ from blktrace's D events"; }
ok "every lunq_dispatch is a D at the lower device ($nd, same sectors and sizes), dev $dmmm name lq"
# held bios go down through dm_submit_bio_remap(): the block layer's remap
# event (blktrace's A) at the lower device comes when lunq sends the bio,
# after its wait, not when it arrived (block_bio_queue at lq).  From
# tracefs, one clock (global) for both: summed over the bios, remap - queue
# covers the waits.
awk -v q="$dmmm" -v l="$nbmm" '
	{ for (i = 1; i < NF; i++) if ($i ~ /^block_bio_(queue|remap):$/) break
	  if (i == NF) next
	  t = $(i - 1); sub(/:$/, "", t); k = substr($(i + 2), 1, 1) " " $(i + 3) }
	$i == "block_bio_queue:" && $(i + 1) == q { tq[k] = t }
	$i == "block_bio_remap:" && $(i + 1) == l && (k in tq) { n++; s += t - tq[k]; delete tq[k] }
	END { printf "%d %.0f\n", n, s * 1e9 }' /tmp/tr.raw > /tmp/aq
read -r naq saq < /tmp/aq
hs=$(( $(lq_hist lq wait_read sum) + $(lq_hist lq wait_write sum) ))
diag "remaps: $naq after their queue event, remap - queue summed $saq ns; waits summed $hs ns"
[ "$naq" = "$nd" ] || fail "$naq queue/remap pairs, $nd bios sent"
[ "$saq" -ge "$hs" ] && [ "$saq" -le $((hs + naq * 1000000)) ] ||
	fail "remap - queue summed $saq ns, the waits $hs ns: the remap is not traced when the bio goes down"
ok "the remap of each held bio (blktrace's A) comes when it goes down: remap - queue covers the $hs ns of waits"

# a bio that waited is dispatched with wait > 0; waits = hist count and sum
nwd=$(ev dispatch | awk '$11 > 0' | wc -l)
[ "$(nev wait)" = "$nwd" ] || fail "$(nev wait) lunq_wait, $nwd dispatches after a wait"
[ "$nwd" -gt 1000 ] || fail "qdepth:4 under QD32: only $nwd IOs waited"
# (the histograms hold the IOs sent at once too, with wait 0)
set -- $(ev complete | awk '($3 == "read" || $3 == "write") && $6 > 0 { n++; s += $9 } END { printf "%d %.0f\n", n, s }')
hn=$(( $(lq_hist lq wait_read count) + $(lq_hist lq wait_write count) ))
hs=$(( $(lq_hist lq wait_read sum) + $(lq_hist lq wait_write sum) ))
diag "waits: events $1 sum $2 ns; histograms $hn sum $hs ns"
[ "$1" = "$hn" ] && [ "$2" = "$hs" ] || fail "lunq_complete waits $1/$2 ns, histograms $hn/$hs ns"
# wait + svc = total, and the dispatch's wait is the completion's
ev complete | awk '$9 + $11 != $13 { bad++ } END { exit bad > 0 }' || fail "wait + svc != total"
ev dispatch | awk '{ print $4, $11 }' | sort > /tmp/a
ev complete | awk '{ print $4, $9 }' | sort > /tmp/b
cmp -s /tmp/a /tmp/b || { diff /tmp/a /tmp/b | head; fail "dispatch and completion waits differ"; }
ok "$nwd waits, as many lunq_wait; lunq_complete = the wait histograms' count ($hn) and sum"
nb_=$(lq_stat lq bubbles)
[ "$(nev bubble)" = "$nb_" ] && [ "$nb_" -gt 0 ] || fail "$(nev bubble) lunq_bubble, bubbles counter $nb_"
ev bubble | awk '$9 + $11 <= 3000000 { bad++ } END { exit bad > 0 }' ||
	fail "a lunq_bubble under bubble_ms:3"
ok "lunq_bubble = bubbles counter ($nb_), each over 3 ms"
counters_consistent lq || fail "counters inconsistent"

# ---- 2. QUEUE FULL and throttle moves; blktrace notes ----
expect dmsetup message lq 0 set qdepth:16 lun_depth:4 reaction:linux bubble_ms:0
expect dmsetup message lq 0 stats reset
tlog0=$(tlog lq | wc -l)
notes_load tq 8m
qf=$(status_field lq qfull)
diag "phase 2: qfull $qf, $(nev qfull) lunq_qfull, $(nev throttle) lunq_throttle, notes: $(grep -c 'lunq: ' /tmp/nt.txt)"
[ "$qf" -gt 0 ] || fail "no QUEUE FULL"
[ "$(nev qfull)" = "$qf" ] || fail "$(nev qfull) lunq_qfull, counter $qf"
# the throttle log's entries since the trace began: "FROM TO CAUSE"
tlog lq | awk -v n="$tlog0" 'NR > n { print $2, $3, $4 }' > /tmp/a
ev throttle | awk '{ print $4, $6, $8 }' > /tmp/b
[ "$(wc -l < /tmp/b)" -gt 0 ] || fail "no lunq_throttle under reaction:linux with QUEUE FULLs"
[ "$(wc -l < /tmp/b)" -lt 128 ] || fail "more throttle moves than the log keeps; shorten the load"
cmp -s /tmp/a /tmp/b || { diff /tmp/a /tmp/b | head; fail "lunq_throttle differs from the throttle log"; }
ok "lunq_qfull = qfull counter ($qf); lunq_throttle = throttle log ($(wc -l < /tmp/b) moves)"
nq=$(grep -c 'lunq: QUEUE FULL' /tmp/nt.txt) nt=$(grep -c 'lunq: throttle' /tmp/nt.txt)
[ "$nq" = "$qf" ] && [ "$nt" = "$(wc -l < /tmp/b)" ] ||
	{ grep 'lunq: ' /tmp/nt.txt | head -5; fail "blkparse notes: $nq QUEUE FULL (want $qf), $nt throttle (want $(wc -l < /tmp/b))"; }
grep -m1 'lunq: throttle' /tmp/nt.txt | grep -q ' m ' || fail "a note that is not a blkparse message: $(grep -m1 'lunq: throttle' /tmp/nt.txt)"
diag "$(grep -m1 'lunq: QUEUE FULL' /tmp/nt.txt)"
diag "$(grep -m1 'lunq: throttle' /tmp/nt.txt)"
ok "blkparse shows $nq 'lunq: QUEUE FULL' and $nt 'lunq: throttle' notes"
counters_consistent lq || fail "counters inconsistent"

# ---- 3. LUN resets (t-reset's storm: 20 ms completions) ----
dm_remove lq
nb2=$(nullb_create lq_nb2 128 irqmode=2 completion_nsec=20000000 hw_queue_depth=256) ||
	fail "null_blk setup"
lunq_create lq $nb2 qdepth:32 lun_depth:2 reset_after:3 reset_ms:50 qfull_delay_us:1000 ||
	fail "create"
notes_load tr 512k
rs=$(status_field lq resets) nr=$(grep -c 'lunq: LUN reset' /tmp/nt.txt)
[ "$rs" -gt 0 ] || fail "no LUN reset"
[ "$(nev reset)" = "$rs" ] && [ "$nr" = "$rs" ] ||
	fail "resets: counter $rs, $(nev reset) lunq_reset, $nr notes"
ok "lunq_reset = resets counter = blkparse notes ($rs)"
counters_consistent lq || fail "counters inconsistent"
dm_remove lq

# ---- 4. auto's windows ----
lunq_create lq $nb qdepth:32 model:flash channels:4 svc_us:4000 || fail "create"
trace_on
fio --name=ta --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randread \
	--bs=4k --iodepth=32 --time_based --runtime="$(scaled 6 4)" > /dev/null 2>&1 &
fio=$!
sleep 1
expect dmsetup message lq 0 set auto:knee
wait $fio
trace_off
nw=$(nev auto_window)
moves=$(ev auto_window | awk '$(NF - 2) != $NF')
diag "phase 4: $nw windows, $(echo "$moves" | grep -c .) moved the depth; last: $(ev auto_window | tail -1)"
[ "$nw" -gt 0 ] || fail "auto:knee under load: no lunq_auto_window"
ev auto_window | awk '$4 <= 0 || $NF < 1' | grep -q . && fail "a window of no length or depth 0"
# each window that moves the depth: the next throttle event is auto, from -> to
awk '$1 == "lunq_auto_window" && $(NF - 2) != $NF { want = $(NF - 2) " " $NF; next }
     $1 == "lunq_throttle" && want != "" { got = $5 " " $7 " " $9
	if (got != want " auto") { print "window " want ", throttle " got; bad++ } ; want = "" }
     END { exit bad > 0 }' /tmp/tr || fail "a window's decision is not the throttle's move"
ok "lunq_auto_window: $nw windows, each move followed by its lunq_throttle (cause auto)"
dm_remove lq
