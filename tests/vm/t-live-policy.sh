# Live policy: `dmsetup message <dev> 0 set ...` under a write+verify load
# (qdepth 64 -> 2 -> 16 -> 0, sched switched with waiters present): no
# error, no lost or corrupted IO (fio verify), and the lower device's
# inflight follows the new qdepth.  Bad messages change nothing and the
# kernel log names the bad word.
# group: throttle integrity
# time: 20
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

lq_nullb 1 qdepth:8 sched:disksort

# --- bad messages change nothing ---
bad() { refused_msg lq "$1" "$2"; }
bad "set qdepth:2 sched:elevator" "rejected 'sched:elevator': sched: value must be one of fifo, disksort; nothing changed"
bad "set qdepth:2 qdepth:3" "rejected 'qdepth:3': qdepth: given more than once"
bad "set qdepth:70000" "qdepth: value must be an integer 0..65535"
bad "set bubble_ms:x" "bubble_ms: value must be an integer 0..3600000"
bad "set pool:p1" "rejected 'pool:p1': pool: can only be set on the table line"
bad "set pblk:4096" "pblk: can only be set on the table line"
bad "set qdepth:0 reaction:sd" "reaction: needs qdepth:1 or more"
bad "set foreign:2" "foreign: needs lun_depth or pool"
bad "set lun_depth:4 foreign:4" "foreign: must be below lun_depth unless foreign_period_ms is set"
bad "set" "message 'set': no key:value given"
bad "set qdepth=2" "not of the form key:value"
bad "frobnicate" "unknown message 'frobnicate'"
bad "stats" "unknown message 'stats'"
[ "$(status_field lq qdepth)" = 8 ] && [ "$(status_field lq sched)" = disksort ] ||
	fail "status policy changed: $(dmsetup status lq)"

# --- live changes under fio verify ---
fio --name=live --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=32 --size=128M --verify=crc32c \
	--verify_backlog=1024 --do_verify=1 --verify_fatal=1 --verify_dump=0 \
	--output-format=terse --terse-version=3 > /tmp/fio.live 2>&1 &
fio=$!

# step QDEPTH SCHED: apply, let in-flight IOs drain below it, then sample
# the lower device's inflight for 1 s: never above QDEPTH (0: unlimited)
step() {
	expect dmsetup message lq 0 set "qdepth:$1" "sched:$2"
	wt=$(status_field lq waiting)
	sleep 0.5
	inflight_watch "$nb" /tmp/inf & w=$!
	sleep 1
	inflight_stop /tmp/inf $w
	read -r max n < /tmp/inf
	diag "qdepth:$1 sched:$2: waiting when set $wt, lower inflight max $max ($n samples)"
	if [ "$1" != 0 ]; then
		[ "$max" -le "$1" ] || fail "qdepth:$1 but $max outstanding at the lower device"
	else
		[ "$max" -gt 16 ] || fail "qdepth:0 but only $max outstanding at the lower device"
	fi
	kill -0 $fio 2>/dev/null || fail "fio finished before the qdepth:$1 step; make the load longer"
}
sleep 1
step 64 fifo
step 2 disksort
step 16 fifo
step 0 disksort
wait $fio
rc=$?
[ $rc = 0 ] && [ "$(fio_terse /tmp/fio.live 5)" = 0 ] ||
	{ cat /tmp/fio.live; fail "fio verify failed (rc $rc)"; }
ok "qdepth 64 -> 2 -> 16 -> 0 and sched switches under fio verify: no error, data verified, $(fio_terse /tmp/fio.live 47) KiB written"
[ "$(status_field lq waiting)" = 0 ] && [ "$(status_field lq inflight)" = 0 ] ||
	fail "IO left over: $(dmsetup status lq)"
[ "$(status_field lq dispatched)" = "$(status_field lq completed)" ] ||
	fail "dispatched != completed: $(dmsetup status lq)"
ok "every dispatched IO completed: $(dmsetup status lq)"
