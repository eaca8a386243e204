# lunqctl events: follows the netlink events of the devices named, in text
# and --json; the observer is the kernel's own counters (qfull, bubbles)
# and the changes the test makes: a "set" gives a throttle event with cause
# set and the right from/to, a QUEUE FULL storm qfull events whose counts
# add up to at most the qfull counter, throttle moves with cause qfull,
# bubbles (bubble_ms:1) for 4 KiB reads; a listener for another device
# sees only that device; -c and -t end it; SIGINT ends it with exit 0.
# group: ctl stats
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=2000000 hw_queue_depth=64) || fail "null_blk"
nb2=$(nullb_create lq_nb2 64) || fail "null_blk 2"
lc 0 create lq "$nb" qdepth=3
lc 0 create lq2 "$nb2"

lunqctl events --json lq > /tmp/ev.json 2> /tmp/ev.err &
p1=$!
lunqctl events lq > /tmp/ev.txt 2>&1 &
p2=$!
lunqctl events lq2 > /tmp/ev.other 2>&1 &
p3=$!
sleep 2		# the listeners join their group
lc 0 set lq qdepth=8 lun_depth=2 reaction=linux bubble_ms=1
fio --name=r --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randread \
	--bs=4k --iodepth=32 --time_based --runtime=4 --output-format=terse > /dev/null || fail "fio"
lc 0 set lq2 qdepth=5
sleep 1
kill -INT $p1 $p2 $p3
wait $p1 || fail "events --json: exit $? on SIGINT"
wait $p2 || fail "events: exit $? on SIGINT"
wait $p3 || fail "events lq2: exit $? on SIGINT"
diag "$(wc -l < /tmp/ev.json) JSON events, $(wc -l < /tmp/ev.txt) text; qfull=$(lq_stat lq qfull) bubbles=$(lq_stat lq bubbles)"
head -3 /tmp/ev.json | sed 's/^/# /'

grep -q '"event":"throttle","device":"lq","from":3,"to":8,"cause":"set"' /tmp/ev.json ||
	{ head /tmp/ev.json; fail "no throttle event 3 -> 8 cause set"; }
grep -q 'lq: throttle 3 -> 8 (set)$' /tmp/ev.txt || { head /tmp/ev.txt; fail "text: no 'throttle 3 -> 8 (set)'"; }
ok "set: throttle event 3 -> 8 (set) in JSON and text"

qf=$(sed -n 's/.*"event":"qfull".*"count":\([0-9]*\).*/\1/p' /tmp/ev.json | awk '{ n += $1 } END { print n + 0 }')
[ "$qf" -ge 1 ] && [ "$qf" -le "$(lq_stat lq qfull)" ] || fail "qfull events add up to $qf, qfull counter $(lq_stat lq qfull)"
grep -q '"event":"throttle","device":"lq","from":[0-9]*,"to":[0-9]*,"cause":"qfull"' /tmp/ev.json ||
	fail "no throttle event with cause qfull"
grep -q 'lq: QUEUE FULL x[0-9]*' /tmp/ev.txt || fail "text: no QUEUE FULL line"
ok "QUEUE FULL: events add up to $qf <= counter $(lq_stat lq qfull); throttle moves with cause qfull"

grep '"event":"bubble"' /tmp/ev.json > /tmp/ev.b || fail "no bubble event"
awk -F'[:,]' '{ for (i = 1; i < NF; i++) v[$i] = $(i + 1);
	if (v["\"bytes\""] != 4096 || v["\"dir\""] != "\"read\"" || v["\"wait_ns\""] + v["\"svc_ns\""] < 1000000) {
		print; exit 1 } }' /tmp/ev.b || fail "bubble event contents"
[ "$(wc -l < /tmp/ev.b)" -le "$(lq_stat lq bubbles)" ] || fail "more bubble events than bubbles"
grep -q 'lq: bubble: read of 4096 bytes at sector [0-9]* waited .*, service ' /tmp/ev.txt ||
	fail "text: no bubble line"
ok "bubbles: $(wc -l < /tmp/ev.b) events, 4 KiB reads over 1 ms, <= counter $(lq_stat lq bubbles)"

[ -s /tmp/ev.other ] && ! grep -v '^[0-9:.]* lq2: ' /tmp/ev.other ||
	{ cat /tmp/ev.other; fail "listener of lq2 saw other lines"; }
grep -q 'lq2: throttle 0 -> 5 (set)' /tmp/ev.other || { cat /tmp/ev.other; fail "no lq2 throttle event"; }
ok "a listener of lq2 sees only lq2's events"

lc 0 set lq qdepth=8 lun_depth=0 reaction=none bubble_ms=0
lunqctl events -c 2 -t 30 lq > /tmp/ev.c 2>&1 &
p=$!
sleep 2
lc 0 set lq qdepth=4
lc 0 set lq qdepth=6
lc 0 set lq qdepth=7
wait $p || fail "events -c 2: exit $?"
[ "$(wc -l < /tmp/ev.c)" = 2 ] || { cat /tmp/ev.c; fail "-c 2 printed $(wc -l < /tmp/ev.c) events"; }
lc 0 events -t 1 lq2
[ ! -s /tmp/lc.out ] || fail "-t 1 on a quiet device printed events"
lc 1 events -c 0; lc_err "--count"
lc 2 events nosuch; lc_err "no lunq device"
ok "-c 2 stops after 2 events, -t 1 after a quiet second; bad count exit 1, unknown device 2"
