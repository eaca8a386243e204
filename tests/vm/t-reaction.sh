# Host reactions to QUEUE FULL converge as documented (kmod/dm-lunq.rst,
# "Host reaction").  A QD32 random-read load on null_blk (2 ms) through an
# emulated LUN with 4 slots; the throttle log ("throttle log" message: one
# "MS FROM TO CAUSE" line per move of the live throttle) is checked against
# the sequence each policy must produce:
#   linux  8 -> 7 -> 6 -> 5 -> 4, one step per 11 QUEUE FULLs counted in
#          distinct 16-jiffy buckets (so >= 160 ms apart at HZ <= 1000),
#          then, with ramp_up_ms:1000, +1 after 1 s without QUEUE FULL and
#          back to 4: it oscillates between 4 and 5;
#   sd     16 -> 4 (the commands in transport) and back to 16 restore_ms
#          after each cut;
#   sd-fc  16 -> 4, restore_ms later +10% (at least 1) to 5, QUEUE FULL
#          back to 4, then +1 every step_ms: between 4 and 5.
# group: qfull throttle
# time: 25
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=2000000 hw_queue_depth=256) ||
	fail "null_blk setup"
sz=$(sectors "$nb")

# load SECONDS: the QD32 load; the throttle log is captured into /tmp/tlog
# one second before the load ends (entries after it would show the timer
# stepping with nothing left to answer QUEUE FULL)
load() {
	fio --name=re --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=32 --time_based --runtime="$1" \
		--output-format=terse --terse-version=3 > /tmp/fio.re 2>&1 &
	_fp=$!
	sleep $(($1 - 1))
	tlog lq > /tmp/tlog
	wait $_fp || { cat /tmp/fio.re; fail "fio failed"; }
	[ "$(fio_terse /tmp/fio.re 5)" = 0 ] || fail "fio reported errors"
}

# check_log AWK_PROGRAM: run it over the captured throttle log; it prints
# "bad: why" for a deviation
check_log() {
	sed 's/^/#   /' /tmp/tlog | head -30
	out=$(awk "$1" /tmp/tlog)
	[ -z "$out" ] || fail "$out"
}

# --- linux
lunq_create lq $nb qdepth:8 lun_depth:4 reaction:linux ramp_up_ms:600000 ||
	fail "create linux"
load 8
diag "linux: qfull=$(status_field lq qfull) throttle_changes=$(status_field lq throttle_changes)"
check_log '
	{ n++; want = 8 - n
	  if ($2 != want + 1 || $3 != want || $4 != "qfull") print "bad: linux step " n ": " $0
	  if (n > 1 && $1 - t < 160) print "bad: linux steps " $1 - t " ms apart (< 10 buckets)"
	  t = $1 }
	END { if (n != 4) print "bad: linux took " n " steps, want 4 (8 -> 4)" }'
[ "$(status_field lq qdepth)" = 4 ] || fail "linux did not settle at 4"
[ "$(status_field lq qfull)" -ge 44 ] || fail "linux: 4 steps need >= 44 QUEUE FULLs"
ok "linux: 8 -> 4 one step at a time, >= 160 ms apart"

expect dmsetup message lq 0 set ramp_up_ms:1000
load 6
check_log '
	NR <= 4 { last = $1; next }
	$4 == "ramp-up" { up++; if ($2 != 4 || $3 != 5) print "bad: ramp-up " $0
			  if ($1 - last < 1000) print "bad: ramp-up " $1 - last " ms after the last QUEUE FULL step" }
	$4 == "qfull" { if ($2 != 5 || $3 != 4) print "bad: qfull " $0 }
	$4 != "ramp-up" && $4 != "qfull" { print "bad: cause " $0 }
	{ last = $1 }
	END { if (up < 1) print "bad: no ramp-up with ramp_up_ms:1000" }'
ok "linux: ramps up after 1 s without QUEUE FULL, oscillates 4 <-> 5"
dm_remove lq

# --- sd
lunq_create lq $nb qdepth:16 lun_depth:4 reaction:sd restore_ms:1000 ||
	fail "create sd"
load 6
diag "sd: qfull=$(status_field lq qfull) throttle_changes=$(status_field lq throttle_changes)"
check_log '
	NR % 2 == 1 && ($2 != 16 || $3 != 4 || $4 != "qfull") { print "bad: sd cut " $0 }
	NR % 2 == 0 { if ($2 != 4 || $3 != 16 || $4 != "restore") print "bad: sd restore " $0
		      d = $1 - t; if (d < 1000 || d > 1500) print "bad: sd restore " d " ms after the cut (restore_ms:1000)"
		      r++ }
	{ t = $1 }
	END { if (r < 3) print "bad: only " r " restores in 5 s" }'
ok "sd: cut to the 4 in transport, restored to 16 after 1 s, repeatedly"
dm_remove lq

# --- sd-fc
lunq_create lq $nb qdepth:16 lun_depth:4 reaction:sd-fc restore_ms:1000 step_ms:300 min_throttle:2 ||
	fail "create sd-fc"
load 5
diag "sd-fc: qfull=$(status_field lq qfull) throttle_changes=$(status_field lq throttle_changes)"
check_log '
	NR == 1 { if ($2 != 16 || $3 != 4 || $4 != "qfull") print "bad: sd-fc first cut " $0; cut = $1; next }
	$4 == "restore" { if ($2 != 4 || $3 != 5) print "bad: sd-fc step " $0
			  d = r ? $1 - last : $1 - cut; lim = r ? 300 : 1000
			  if (d < lim) print "bad: sd-fc step " d " ms after the previous (want >= " lim ")"
			  r++; last = $1; next }
	$4 == "qfull" { if ($2 != 5 || $3 != 4) print "bad: sd-fc cut " $0; next }
	{ print "bad: cause " $0 }
	END { if (r < 3) print "bad: only " r " +10% steps" }'
ok "sd-fc: 16 -> 4, +1 after 1 s then every 300 ms, held between 4 and 5"
dm_remove lq
