# `dmsetup table` echoes a line that recreates an identical device, and
# `dmsetup status` reports the IO it passed.
. "$LUNQ_SRC/tests/vm/lib.sh"

ram=$(brd_create 64) || fail "brd setup"
len=$(($(sectors "$ram") - 2048))
dm_create lqa "0 $len lunq $ram 2048" || fail "create lqa"
line=$(dmsetup table lqa) || fail "table lqa"
note "table: $line"
dm_create lqb "$line" || fail "recreate from: $line"
[ "$(dmsetup table lqb)" = "$line" ] || fail "tables differ: '$(dmsetup table lqb)' vs '$line'"
[ "$(blockdev --getsz /dev/mapper/lqb)" = "$len" ] || fail "size differs"
dd if=/dev/urandom of=/tmp/p bs=4k count=64 2>/dev/null
dd if=/tmp/p of=/dev/mapper/lqa bs=4k seek=10 conv=fsync 2>/dev/null || fail "write lqa"
dd if=/dev/mapper/lqb of=/tmp/q bs=4k skip=10 count=64 iflag=direct 2>/dev/null || fail "read lqb"
cmp /tmp/p /tmp/q || fail "data written through lqa differs read through lqb"
ok "recreated device maps the same sectors"

st=$(dmsetup status lqa) || fail "status"
note "status: $st"
sent=$(echo "$st" | sed -n 's/.* sent=\([0-9]*\).*/\1/p')
done_=$(echo "$st" | sed -n 's/.* completed=\([0-9]*\).*/\1/p')
infl=$(echo "$st" | sed -n 's/.* inflight=\([0-9]*\).*/\1/p')
[ -n "$sent" ] && [ "$sent" -gt 0 ] || fail "status shows no IO sent: $st"
[ "$sent" = "$done_" ] && [ "$infl" = 0 ] || fail "idle device with IO outstanding: $st"
ok "status: sent=$sent completed=$done_ inflight=$infl"
