# `dmsetup table` echoes a line that recreates an identical device, and
# `dmsetup status` reports the IO it passed.
# group: basic
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

ram=$(brd_create 64) || fail "brd setup"
len=$(($(sectors "$ram") - 2048))
lunq_create lqa -s 2048 -l $len $ram max_wait_ms:250 sched:disksort qdepth:7 || fail "create lqa"
line=$(dmsetup table lqa) || fail "table lqa"
diag "table: $line"
dm_create lqb "$line" || fail "recreate from: $line"
[ "$(dmsetup table lqb)" = "$line" ] || fail "tables differ: '$(dmsetup table lqb)' vs '$line'"
[ "$(blockdev --getsz /dev/mapper/lqb)" = "$len" ] || fail "size differs"
dd if=/dev/urandom of=/tmp/p bs=4k count=64 2>/dev/null
dd if=/tmp/p of=/dev/mapper/lqa bs=4k seek=10 conv=fsync 2>/dev/null || fail "write lqa"
dd if=/dev/mapper/lqb of=/tmp/q bs=4k skip=10 count=64 iflag=direct 2>/dev/null || fail "read lqb"
cmp /tmp/p /tmp/q || fail "data written through lqa differs read through lqb"
[ "$line" = "$(dmsetup table lqa | cut -d' ' -f1-5) 3 qdepth:7 sched:disksort max_wait_ms:250" ] ||
	fail "policy words not echoed in canonical order: $line"
ok "recreated device maps the same sectors (policy words echoed canonically)"

st=$(dmsetup status lqa) || fail "status"
diag "status: $st"
sent=$(echo "$st" | sed -n 's/.* dispatched=\([0-9]*\).*/\1/p')
done_=$(echo "$st" | sed -n 's/.* completed=\([0-9]*\).*/\1/p')
infl=$(echo "$st" | sed -n 's/.* inflight=\([0-9]*\).*/\1/p')
[ -n "$sent" ] && [ "$sent" -gt 0 ] || fail "status shows no IO sent: $st"
[ "$sent" = "$done_" ] && [ "$infl" = 0 ] || fail "idle device with IO outstanding: $st"
ok "status: dispatched=$sent completed=$done_ inflight=$infl"
echo "$st" | grep -q ' qdepth=7 sched=disksort max_wait_ms=250 ' ||
	fail "status does not show the policy in force: $st"
dmsetup message lqa 0 set qdepth:3 || fail "set qdepth:3"
[ "$(dmsetup table lqa | cut -d' ' -f6-)" = "3 qdepth:3 sched:disksort max_wait_ms:250" ] ||
	fail "table does not echo the live policy: $(dmsetup table lqa)"
ok "table echoes the policy set live"
