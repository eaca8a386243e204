# Zoned writes in order across suspend and resume (dm-lunq.rst,
# "Zoned lower devices"): lunq's write plug per zone holds a write that
# arrives beyond its zone's write pointer until the writes before it
# have arrived, so dm core's replay of deferred bios after a resume
# cannot reorder a zone's writes.
#  - tests/tools/zoned-suspend.sh: fio zonemode=zbd (64 KiB, QD32, verify)
#    over 8 zones of a host-managed null_blk while the device is
#    suspended and resumed every 0.2 s (flush, noflush, and reloads with a
#    changed qdepth): on dm-linear (reported, not checked: dm core's own
#    reordering), lunq qdepth:8, and lunq with the slow QUEUE FULL
#    (lun_depth:2 qfull_lat_us:2000).  Through lunq no run may end in
#    EIO, and every run fio passed leaves the lower device's 8 zones full
#    with exactly fio's sectors written to it.  LUNQ_ZS_CYCLES cycles per
#    device (12 by default, 6 in quick mode, where dm-linear is left out
#    unless LUNQ_ZS_CYCLES is set; the long form is 200:
#    qemu/run --env LUNQ_ZS_CYCLES=200 --env LUNQ_TEST_TIMEOUT=2000
#    tests/vm/suite.sh zoned-suspend, or the tool alone).
#  - an application that writes out of order on purpose gets the same
#    error through lunq as through dm-linear: beyond the write pointer
#    after zone_wait_ms (1000 ms), behind it and into a full zone at once;
#    the lower device logs the same refusals; writes at the pointer go on
#    afterwards.
# group: qfull integrity
# time: 12
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

command -v fio > /dev/null && command -v blkzone > /dev/null || skip "no fio or blkzone"
tool=$LUNQ_SRC/tests/tools/zoned-suspend.sh
c=${LUNQ_ZS_CYCLES:-$(scaled 12 6)}

# ---- the writer across suspend/resume
lin="dm-linear not run (quick mode)"
if [ "${LUNQ_QUICK:-0}" != 1 ] || [ -n "${LUNQ_ZS_CYCLES:-}" ]; then
	sh "$tool" -c "$c" linear > /tmp/zs.linear 2>&1
	rc=$?
	cat /tmp/zs.linear
	[ $rc != 2 ] || fail "dm-linear: setup"
	lin=$(tail -1 /tmp/zs.linear)
fi
for args in "qdepth:8" "qdepth:8 lun_depth:2 qfull_lat_us:2000"; do
	# shellcheck disable=SC2086
	sh "$tool" -c "$c" lunq $args > /tmp/zs.lunq 2>&1
	rc=$?
	cat /tmp/zs.lunq
	r=$(tail -1 /tmp/zs.lunq)
	[ $rc = 0 ] || fail "lunq $args: $r (dm-linear: $lin)"
	case $r in *" ok=0 "*) fail "lunq $args: no fio run passed: $r" ;; esac
	ok "lunq $args: $r; beside $lin"
done

# ---- an application writing out of order on purpose
# wr DEV ZONE OFFSET_KB: one direct 64 KiB write; $e is dd's error ("ok"
# when it succeeded), $ms its time
wr() {
	_t=$(now_ms)
	e=$(dd if=/dev/urandom of="$1" bs=64k count=1 seek=$(($2 * 64 + $3 / 64)) \
		oflag=direct conv=notrunc 2>&1 > /dev/null | sed -n 's/.*: //p' | tail -1)
	ms=$(($(now_ms) - _t))
	e=${e:-ok}
}
nb=$(nullb_create lq_zp 64 zoned=1 zone_size=4 zone_nr_conv=0) || fail "no zoned null_blk"
S=$(sectors "$nb")
# app DEV: the same mistakes on DEV (zones 0, 1 and 2 reset first);
# $res: "beyond behind full at" (each write's answer), $beyond_ms
app() {
	blkzone reset "$1" || fail "reset $1"
	wr "$1" 0 128			# zone 0 is empty: beyond its pointer
	res=$e beyond_ms=$ms
	wr "$1" 1 0			# zone 1 at 0, then at 0 again: behind
	res="$res $e"
	wr "$1" 1 0
	res="$res $e"
	blkzone finish -o 16384 -c 1 "$1" || fail "finish zone 2"
	wr "$1" 2 0			# zone 2 is full
	res="$res $e"
	wr "$1" 0 0			# at the pointer: both go
	res="$res $e"
	wr "$1" 0 64
	res="$res $e"
}
dm_create lqlin "0 $S linear $nb 0" || fail "create dm-linear"
mark=$(dmesg_mark)
app /dev/mapper/lqlin
want=$res
lowlin=$(dmesg_since "$mark" | grep -c "I/O error.*dev lq_zp")
dm_remove lqlin
lunq_create lq $nb qdepth:8 || fail "create lunq"
mark=$(dmesg_mark)
app /dev/mapper/lq
got=$res
lowlunq=$(dmesg_since "$mark" | grep -c "I/O error.*dev lq_zp")
[ "$got" = "$want" ] || fail "out of order: lunq '$got', dm-linear '$want'"
[ "$want" = "Input/output error ok Input/output error Input/output error ok ok" ] ||
	diag "dm-linear's answers: $want"
[ "$lowlunq" = "$lowlin" ] || fail "the lower device logged $lowlunq errors under lunq, $lowlin under dm-linear"
[ "$beyond_ms" -ge 900 ] || fail "a write beyond the pointer failed after $beyond_ms ms, before zone_wait_ms (1000)"
dmesg_since "$mark" | grep -q "not at its zone's write pointer after 1000 ms" ||
	fail "no warning of the plugged write"
counters_consistent lq || fail "counters inconsistent"
ok "out of order on purpose: lunq answers as dm-linear ($got), beyond the pointer after $beyond_ms ms; the lower device logged $lowlunq refusals, as under dm-linear"
dm_remove lq
cleanup_all
