# The zone write plug's bounds (dm-lunq.rst,
# "The write plug"), on a host-managed null_blk of two 32 MiB zones under
# lunq, with tests/tools/zplug (Linux AIO: lunq receives the writes in
# the order they are submitted):
#  - zone_wait_ms above its ceiling (10000) is taken as the ceiling, with
#    a warning; the rest of the test runs with it, so no held write
#    expires during a check;
#  - a reset with a held write: A at sector 8 is held (pending 100 ms
#    later), the zone is reset, A fails with EIO; the application's B at
#    0 and C at 8 succeed and read back as written; the lower device
#    logs no I/O error and its pointer is at 16;
#  - 65,536 writes of 512 bytes, zone 1 from its start, in reverse
#    order: a zone holds at most 1024, so the 1024 submitted first are
#    held and the others fail with EIO (but the one at the pointer,
#    which goes); the application writes the refused ones again in
#    order, the last releases the 1024, all succeed, the zone reads back
#    intact, the lower device wrote each sector once and the zone is
#    full.  With LUNQ_ZPLUG_TRACE=1 the time under the device lock is
#    measured with the function_graph tracer (Debian's kernels have no
#    irqsoff tracer):
#    tracing_thresh 1 ms keeps every call of lunq_io_map, lunq_io_end and
#    the plug's functions that run under the lock (lunq_zplug_dev_map,
#    _release, _expire) longer than 1 ms, and the longest is printed; a
#    wall time is not asserted, KUnit's lunq_zplug counts the tree's steps
#    exactly.
# The held writes must not reach zone_wait_ms (10 s) before they are
# released: the submission of the reverse writes must end well before
# that (about 8 s for 65,536 on a loaded host's TCG, 11 s on RT), so
# quick mode (make test) submits 16,384 (the bound and the refusals are
# the same); LUNQ_ZPLUG_N sets the number (65,536 by default).
# group: basic integrity
# time: 12
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

command -v blkzone > /dev/null || skip "no blkzone"
modprobe dm-lunq || fail "modprobe dm-lunq"
P=/sys/module/dm_lunq/parameters/zone_wait_ms

# ---- zone_wait_ms's ceiling
mark=$(dmesg_mark)
echo 60000 > $P || fail "zone_wait_ms=60000 refused outright"
[ "$(cat $P)" = 10000 ] || fail "zone_wait_ms=60000 reads back $(cat $P), not the ceiling 10000"
expect_log "$mark" "zone_wait_ms: 60000 is above its ceiling, 10000 taken" "zone_wait_ms=60000"
echo 10000 > $P && [ "$(cat $P)" = 10000 ] || fail "zone_wait_ms=10000 not taken"
ok "zone_wait_ms=60000 taken as its ceiling, 10000, with a warning"

nb=$(nullb_create lq_zq 64 zoned=1 zone_size=32 zone_nr_conv=0) || fail "no zoned null_blk"
[ "$(cat /sys/block/lq_zq/queue/zoned)" = host-managed ] || fail "null_blk is not host-managed"
S=$(sectors "$nb") Z=65536
lunq_create lq $nb qdepth:8 || fail "create lunq"
lowerr() { dmesg_since "$1" | grep -c "I/O error.*dev lq_zq"; }

# ---- a reset fails the held write
mark=$(dmesg_mark)
r=$(zplug reset /dev/mapper/lq 0) || fail "reset with a held write: $r"
[ "$(lowerr "$mark")" = 0 ] || { dmesg_since "$mark" | tail; fail "the lower device logged I/O errors: $r"; }
wp=$(blkzone report -o 0 -c 1 "$nb" | sed -n 's/.*wptr 0x\([0-9a-f]*\).*/\1/p')
[ "$((0x${wp:-0}))" = 16 ] || fail "lower zone 0's pointer at $((0x${wp:-0})), not 16: $r"
expect_log "$mark" "zone reset at sector 0: 1 writes held beyond the write pointer failed" "reset"
ok "held write failed by the zone reset, the application's writes at 0 and 8 went: $r"

# ---- 65,536 reverse-order writes to one zone
n=${LUNQ_ZPLUG_N:-$(scaled 65536)}
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs tracefs $tr 2>/dev/null
fns="lunq_io_map lunq_io_end lunq_zplug_dev_map lunq_zplug_dev_release lunq_zplug_dev_expire"
# the function_graph tracer on request only (LUNQ_ZPLUG_TRACE=1): switching
# it on and off patches the kernel's text (text_poke_bp), which a 2-vCPU
# TCG guest on a loaded host can livelock: a vCPU loops on the patch's
# int3 while the other waits for it (a soft lockup in tracing_set_tracer)
traced=0
if [ "${LUNQ_ZPLUG_TRACE:-0}" = 1 ] && grep -q function_graph $tr/available_tracers 2>/dev/null; then
	echo 0 > $tr/tracing_on
	echo nop > $tr/current_tracer
	echo > $tr/trace
	# shellcheck disable=SC2086
	echo $fns > $tr/set_ftrace_filter && echo 1000 > $tr/tracing_thresh &&
		echo function_graph > $tr/current_tracer && traced=1
	echo 1 > $tr/tracing_on
fi
echo 1048576 > /proc/sys/fs/aio-max-nr
W0=$(disk_stat "$nb" 7)
mark=$(dmesg_mark)
r=$(zplug reverse /dev/mapper/lq $Z "$n" 512)
rc=$?
if [ $traced = 1 ]; then
	echo 0 > $tr/tracing_on
	cp $tr/trace /tmp/zplug.trace
	echo nop > $tr/current_tracer
	echo 0 > $tr/tracing_thresh
	echo > $tr/set_ftrace_filter
	echo 1 > $tr/tracing_on
fi
diag "$r"
v() { echo "$r" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
[ $rc = 0 ] || [ $(($(v submit_ms) + $(v fill_ms))) -lt 9000 ] ||
	fail "the submission and fill took $(($(v submit_ms) + $(v fill_ms))) ms: held writes reached zone_wait_ms (10000) before their release ($r)"
[ $rc = 0 ] || fail "reverse writes: $r"
[ "$(v refused)" -gt 0 ] || fail "no write refused: the plug held all $n ($r)"
[ "$(v eio)" = "$(v refused)" ] || fail "refusals not all EIO: $r"
[ "$(v held)" -le 1024 ] && [ "$(v held)" -gt 0 ] || fail "held $(v held), want 1..1024: $r"
[ "$(v data)" = ok ] || fail "zone 1 not intact: $r"
_w=$(($(disk_stat "$nb" 7) - W0))
[ "$_w" = "$n" ] || fail "the lower device wrote $_w sectors for $n blocks of one sector"
[ "$(lowerr "$mark")" = 0 ] || fail "the lower device logged I/O errors"
expect_log "$mark" "beyond its zone's write pointer failed: 1024 writes held in the zone (at most 1024), 1024 in the device (at most 8192)" "refusal"
counters_consistent lq || fail "counters inconsistent"
ok "$n reverse writes: $(v held) held and released in order, $(v refused) refused with EIO and written again, intact, each sector written once"

# the longest traced call (us) of each function, then of all
if [ $traced = 1 ]; then
	awk '{ for (i = 2; i <= NF; i++) if ($i == "us" && $(i - 1) ~ /^[0-9.]+$/) {
			f = $0; sub(/.*\/\* /, "", f); sub(/ .*/, "", f)
			d = $(i - 1) + 0; n[f]++; if (d > m[f]) m[f] = d } }
		END { for (f in m) printf "%d %s %d\n", m[f], f, n[f] }' /tmp/zplug.trace |
		sort -rn > /tmp/zplug.long
	while read -r us f c; do
		diag "function_graph (tracing_thresh 1 ms): $f: $c calls over 1 ms, the longest $us us"
	done < /tmp/zplug.long
	long=$(head -1 /tmp/zplug.long)
	long=${long:-0 none 0}
	us=${long%% *} f=${long#* }
	# a measurement, not a check: wall time under TCG moves with the
	# host's load; the bound itself is KUnit's (lunq_zplug_reverse:
	# tree nodes visited, exact)
	diag "the longest call of $fns: $us us (${f% *}); the bound is 100 ms"
else
	diag "the time under the lock not measured (LUNQ_ZPLUG_TRACE=1 measures it with the function_graph tracer)"
fi
dm_remove lq
echo 1000 > $P
cleanup_all
