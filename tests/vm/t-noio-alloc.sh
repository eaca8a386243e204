# The window's buffers are allocated without IO: the
# first live auto: or BPF policy of a device allocates them (10,400 B) under
# lunq_devs_lock -- from sysfs and netlink SET -- which a resume takes with
# its device suspended; reclaim that waited on IO there could wait on that
# device.  bpftrace sees every allocation lunq_win_alloc() makes: the
# task's PF_MEMALLOC_NOIO must be set, and lunq_devs_lock held (the
# hazard is real on this path).  Both paths: sysfs (the auto key's file)
# and netlink SET (lunqctl set).
# group: basic
# time: 10
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

command -v bpftrace > /dev/null || skip "no bpftrace in the guest"
nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=1000000) || fail "null_blk"
sz=$(sectors "$nb")
# the window's allocator: vzalloc (6.1), vzalloc_noprof (6.10+)
kv=$(awk '$3 == "vzalloc" || $3 == "vzalloc_noprof" { print $3; exit }' /proc/kallsyms)
[ -n "$kv" ] || fail "no vzalloc in /proc/kallsyms"
# bpftrace 0.17's kaddr() does not see a module's symbols: the address
dl=$(awk '$3 == "lunq_devs_lock" { print $1; exit }' /proc/kallsyms)
[ -n "$dl" ] || fail "no lunq_devs_lock in /proc/kallsyms"
cat > /tmp/noio.bt <<EOF
kprobe:lunq_win_alloc { @in[tid] = 1; }
kretprobe:lunq_win_alloc { delete(@in[tid]); }
kprobe:$kv /@in[tid]/ {
	\$m = (struct mutex *)0x$dl;
	printf("alloc %d noio=%d devs_lock=%d\n", arg0,
	       (curtask->flags & 0x80000) != 0,
	       (\$m->owner.counter & ~0x7) == (int64)curtask);
}
EOF
lunq_create lq $nb qdepth:8 || fail "create lq"
lunq_create lq2 $nb qdepth:8 || fail "create lq2"
# one bpftrace run (its start is most of this test's time) over both paths
cat > /tmp/noio.sh <<'EOF'
echo knee > /sys/kernel/lunq/lq/policy/auto
nlprobe set lq2 'auto:target target_us:20000'
EOF
bpftrace -c "/bin/sh /tmp/noio.sh" /tmp/noio.bt > /tmp/noio.out 2> /tmp/noio.err ||
	{ cat /tmp/noio.err; fail "bpftrace"; }
grep '^alloc ' /tmp/noio.out > /tmp/noio.a
diag "$(tr '\n' ' ' < /tmp/noio.a)"
[ "$(status_field lq throttle_policy)" = knee ] || fail "sysfs: auto:knee not in force"
[ "$(status_field lq2 throttle_policy)" = target ] || fail "netlink: auto:target not in force"
[ "$(wc -l < /tmp/noio.a)" = 2 ] || { cat /tmp/noio.out; fail "$(wc -l < /tmp/noio.a) allocations of the window's buffers seen, want 2 (one a device)"; }
grep -v ' noio=1 devs_lock=1$' /tmp/noio.a &&
	fail "an allocation of the window's buffers that may wait on IO (or not under lunq_devs_lock)"
dm_remove lq
dm_remove lq2
ok "the window's buffers, allocated under lunq_devs_lock from sysfs and from netlink SET, in a noio scope (PF_MEMALLOC_NOIO), $(awk '{ print $2 }' /tmp/noio.a | head -1) bytes each"
