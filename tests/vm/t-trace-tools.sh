# The ready-made tracing tools of trace/ and doc/tracing.md's recipes, run
# as a user would, each against lunq's own figures:
#  - bpftrace trace/lunq-wait.bt: its IO count and wait sum = the wait
#    histograms' count and sum;
#  - bpftrace trace/lunq-throttle.bt: its lines = the throttle log's moves;
#  - bpftrace trace/lunq-qfull.bt: its total = the qfull counter, and it
#    prints every second;
#  - trace-cmd record -e 'lunq:*': lunq_dispatch events = dispatched;
#  - perf stat -e lunq:lunq_dispatch,lunq:lunq_qfull = the counters, and
#    perf trace -e 'lunq:*' prints the throttle's moves.
# group: trace
# time: 30
. "$LUNQ_SRC/tests/vm/lib.sh"

for p in bpftrace trace-cmd perf; do
	command -v $p > /dev/null || fail "$p is not in the VM (make deps installs it; qemu/mkinitramfs copies it)"
done
[ -d /sys/kernel/tracing/events/lunq ] || fail "no tracefs events for lunq"

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=1000000 hw_queue_depth=256) ||
	fail "null_blk setup"
sz=$(sectors "$nb")
lunq_create lq $nb qdepth:16 lun_depth:4 reaction:linux || fail "create"
S=$LUNQ_SRC/trace

# ---- bpftrace ----
# bpftrace SCRIPT under a load: -c starts the load once every probe is in
# (bpftrace prints "Attaching" before attaching, so waiting for it races)
cat > /tmp/load.sh <<EOF
fio --name=bt --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=32 --size=\$1 --verify=crc32c --do_verify=1 --verify_fatal=1 \
	--verify_dump=0 > /tmp/load.out 2>&1 || echo "load failed" > /tmp/load.err
sleep \${2:-0}
EOF
bt_run() {
	_s=$1
	shift
	rm -f /tmp/load.err
	expect dmsetup message lq 0 stats reset
	tlog0=$(tlog lq | wc -l)
	bpftrace -c "/bin/sh /tmp/load.sh $*" "$S/lunq-$_s.bt" > /tmp/bt-$_s.out 2> /tmp/bt-$_s.err ||
		{ cat /tmp/bt-$_s.err; fail "bpftrace lunq-$_s.bt failed"; }
	[ ! -e /tmp/load.err ] || { cat /tmp/load.out; fail "the load under lunq-$_s.bt failed"; }
}
# "@map[lq]: N"
bval() { sed -n "s/^@$2\[lq\]: *\([0-9]*\)$/\1/p" "/tmp/bt-$1.out"; }
bt_run wait 4m
hn=$(( $(lq_hist lq wait_read count) + $(lq_hist lq wait_write count) ))
hs=$(( $(lq_hist lq wait_read sum) + $(lq_hist lq wait_write sum) ))
diag "lunq-wait.bt: ios $(bval wait ios) wait_ns $(bval wait wait_ns); histograms $hn, $hs ns"
[ "$(bval wait ios)" = "$hn" ] && [ "$(bval wait wait_ns)" = "$hs" ] ||
	{ cat /tmp/bt-wait.out /tmp/bt-wait.err; fail "lunq-wait.bt disagrees with the wait histograms"; }
grep -q '^@wait_us\[lq\]:' /tmp/bt-wait.out && grep -q '^\[' /tmp/bt-wait.out ||
	{ cat /tmp/bt-wait.out; fail "lunq-wait.bt printed no histogram"; }
ok "lunq-wait.bt: $hn IOs and their summed wait, as lunq's histograms"

bt_run throttle 4m
tlog lq | awk -v n="$tlog0" 'NR > n { print $2, $3, $4 }' > /tmp/a
awk '$2 == "lq" && $4 == "->" { print $3, $5, $6 }' /tmp/bt-throttle.out > /tmp/b
[ -s /tmp/b ] || { cat /tmp/bt-throttle.out; fail "lunq-throttle.bt saw no move"; }
cmp -s /tmp/a /tmp/b || { diff /tmp/a /tmp/b | head; fail "lunq-throttle.bt differs from the throttle log"; }
ok "lunq-throttle.bt: $(wc -l < /tmp/b) moves, as the throttle log"

bt_run qfull 2m 1.5	# 1.5 s more: lunq-qfull.bt prints each second
qf=$(status_field lq qfull)
[ "$qf" -gt 0 ] && [ "$(bval qfull total)" = "$qf" ] ||
	{ cat /tmp/bt-qfull.out; fail "lunq-qfull.bt total $(bval qfull total), qfull counter $qf"; }
grep -q '^[0-9][0-9]:[0-9][0-9]:[0-9][0-9]$' /tmp/bt-qfull.out || fail "lunq-qfull.bt printed no second"
ok "lunq-qfull.bt: $qf QUEUE FULLs, as the counter, printed each second"

# ---- trace-cmd ----
d0=$(status_field lq dispatched)
cd /tmp || fail "cd /tmp"
trace-cmd record -q -e 'lunq:*' -o /tmp/tc.dat \
	fio --name=tc --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=32 --size=1m > /tmp/tc.out 2>&1 || { cat /tmp/tc.out; fail "trace-cmd record failed"; }
nd=$(( $(status_field lq dispatched) - d0 ))
ntc=$(trace-cmd report -i /tmp/tc.dat 2> /dev/null | grep -c 'lunq_dispatch:')
[ "$ntc" = "$nd" ] || { trace-cmd report -i /tmp/tc.dat 2>&1 | head; fail "trace-cmd: $ntc lunq_dispatch, dispatched $nd"; }
trace-cmd report -i /tmp/tc.dat 2> /dev/null | grep -m1 'lunq_dispatch:' | grep -q ' lq write ' ||
	fail "trace-cmd report cannot print lunq_dispatch: $(trace-cmd report -i /tmp/tc.dat 2>&1 | grep -m1 lunq_dispatch)"
ok "trace-cmd record -e 'lunq:*': $ntc lunq_dispatch = dispatched"

# ---- perf ----
expect dmsetup message lq 0 stats reset
perf stat -a -x, -e lunq:lunq_dispatch,lunq:lunq_qfull -o /tmp/ps.out \
	fio --name=ps --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=32 --size=1m > /dev/null 2> /tmp/ps.err || { cat /tmp/ps.err; fail "perf stat failed"; }
pd=$(awk -F, '$3 == "lunq:lunq_dispatch" { print $1 }' /tmp/ps.out)
pq=$(awk -F, '$3 == "lunq:lunq_qfull" { print $1 }' /tmp/ps.out)
[ "$pd" = "$(status_field lq dispatched)" ] && [ "$pq" = "$(status_field lq qfull)" ] ||
	{ cat /tmp/ps.out; fail "perf stat: dispatch $pd qfull $pq; counters $(status_field lq dispatched) $(status_field lq qfull)"; }
ok "perf stat -e lunq:...: $pd dispatches, $pq QUEUE FULLs, as the counters"
tlog0=$(tlog lq | wc -l)
# two moves at least: the message's, and back
perf trace -a -e 'lunq:*' -o /tmp/pt.out sh -c "dmsetup message lq 0 set qdepth:12 &&
	fio --name=pt --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=4k --iodepth=32 --size=1m > /dev/null && dmsetup message lq 0 set qdepth:16" \
	2> /tmp/pt.err || { cat /tmp/pt.err; fail "perf trace failed"; }
nt=$(grep -c 'lunq:lunq_throttle' /tmp/pt.out)
[ "$nt" -ge 2 ] && [ "$nt" = "$(( $(tlog lq | wc -l) - tlog0 ))" ] ||
	{ head /tmp/pt.out; fail "perf trace: $nt lunq_throttle lines, the log grew by $(( $(tlog lq | wc -l) - tlog0 ))"; }
ok "perf trace -e 'lunq:*': $nt throttle moves, as the log"
counters_consistent lq || fail "counters inconsistent"
dm_remove lq
