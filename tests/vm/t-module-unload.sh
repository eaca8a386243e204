# dm_lunq unloads cleanly, but not while a lunq device exists.
# group: basic
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

grep -q '^dm_lunq ' /proc/modules || expect modprobe dm-lunq
ram=$(brd_create 16) || fail "brd setup"
lunq_create lq $ram || fail "create"
if rmmod dm_lunq 2>/tmp/err; then
	fail "rmmod dm_lunq succeeded while a lunq device exists"
fi
diag "rmmod said: $(cat /tmp/err)"
grep -q '^dm_lunq ' /proc/modules || fail "module gone"
dd if=/dev/mapper/lq of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null ||
	fail "device unusable after refused rmmod"
ok "rmmod refused while lq exists"
dm_remove lq || fail "remove"
expect rmmod dm_lunq
grep -q '^dm_lunq ' /proc/modules && fail "module still loaded"
ok "rmmod after remove"
for i in 1 2 3; do
	expect modprobe dm-lunq
	lunq_create lq $ram || fail "create after reload $i"
	dm_remove lq || fail "remove after reload $i"
	expect rmmod dm_lunq
done
expect modprobe dm-lunq
ok "load/create/remove/unload 3 times"
