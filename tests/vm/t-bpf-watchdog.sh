# Nothing a BPF policy does stops the device: lunq's watchdog
# (kmod/lunq_wd.h), on kernels whose modules can register struct_ops
# (6.12, 7.3; elsewhere SKIP).  The hostile policies are
# tests/bpf/hostile.bpf.c's.
#  1. hspin spins 2 x 8 M bpf_loop iterations in each window callback,
#     attached under a verifying fio load: it is ejected for its callback
#     (rule "callback", hook window, longer than 50 ms), the table's
#     policy is back, fio verifies, the kernel reports no lockup or stall;
#     the ejection is a trace event (lunq:lunq_pol_eject), a netlink event
#     (lunqctl events), one kernel line, and lunqctl policy show says the
#     rule; the pinned link sees it (EPOLLHUP: "link":"detached").
#  2. hfloor holds depth 1 (auto_min:1) over a LUN of 20 ms a command with
#     64 commands queued: ejected by rule "floor" (a waiter past its
#     timeout_ms, 1000) while commands are still being sent; hstall holds
#     depth 2 over a LUN of 3 s a command: ejected by rule "stall" (none
#     sent for its timeout, 1000 ms).  The table's depth is back.
#  3. lunqctl policy eject: by hand (rule "manual"), the link detached.
#  4. one map through two links on two devices (tests/tools/bpflink):
#     releasing one link detaches its own device only.
#  5. privilege: a registration without CAP_SYS_ADMIN (setpriv: CAP_BPF,
#     CAP_PERFMON, CAP_NET_ADMIN kept; the loaded map handed over in
#     bpffs) is refused, the expecting device keeps the table's policy;
#     the same as root is taken.  A timeout_ms
#     above the ceiling (30 s) is refused at registration.
# group: bpf
# time: 35
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

P=$LUNQ_SRC/build/policies
for f in hostile-spin hostile-floor hostile-stall hostile-bigto aimd; do
	[ -f "$P/$f.bpf.o" ] || fail "$P/$f.bpf.o missing (make policies)"
done
command -v bpflink > /dev/null || fail "bpflink missing (make tools)"
if [ "$(cat /sys/module/dm_lunq/parameters/bpf_policies 2>/dev/null)" != Y ]; then
	skip "$(uname -r): no BPF struct_ops registered by modules (Linux 6.9+ with module BTF); dm-lunq's bpf_policies is N"
fi

mount -t configfs none /sys/kernel/config 2>/dev/null
nb=$(nullb_create nbw1 256 irqmode=2 completion_nsec=1000000) || fail "null_blk nbw1"
nb2=$(nullb_create nbw2 256 irqmode=2 completion_nsec=1000000) || fail "null_blk nbw2"
sz=$(sectors "$nb")
tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs tracefs $tr 2>/dev/null

# show_j NAME: lunqctl policy show -j NAME into /tmp/show.json
show_j() { lunqctl policy show -j "$1" > /tmp/show.json || fail "policy show $1"; }
jf() { jq -r "$1" /tmp/show.json; }
# wait_eject NAME SECONDS: until NAME's last ejection is there and its
# link is no longer attached (the kernel detaches it from a work item,
# after the ejection: a show between the two still says attached)
wait_eject() {
	_i=0
	while show_j "$1"; [ "$(jf .ejected)" = null ] || [ "$(jf .link)" = attached ]; do
		_i=$((_i + 1))
		[ $_i -lt $(($2 * 10)) ] || { cat /tmp/show.json; fail "$1: not ejected, or its link not detached, within $2 s"; }
		sleep 0.1
	done
}
lockups() {
	dmesg_since "$1" | grep -E 'soft lockup|hard LOCKUP|rcu_.*stall|hung_task|blocked for more than|BUG:|WARNING:'
}

# --- 1. a callback that spins -------------------------------------------------
lunq_create lq $nb qdepth:8 auto_max:16 || fail "create"
mark=$(dmesg_mark)
lunq_ev_on lunq_pol_eject
lunqctl events -j lq > /tmp/ev.json 2>&1 &
evp=$!
sleep 0.5
fio_verify spin /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=16m > /tmp/spin.out 2>&1 &
fp=$!
sleep 1
lc 0 policy attach lq "$P/hostile-spin.bpf.o"
wait_eject lq 20
wait $fp || { cat /tmp/spin.out; fail "fio verify across the spinning policy"; }
lunq_ev_off lunq_pol_eject
kill $evp 2> /dev/null
wait $evp 2> /dev/null
[ "$(jf .ejected.rule)" = callback ] && [ "$(jf .ejected.hook)" = window ] &&
	[ "$(jf .ejected.policy)" = hspin ] || { cat /tmp/show.json; fail "spin: not ejected for its window callback"; }
ns=$(jf .ejected.ns)
[ "$ns" -gt 50000000 ] && [ "$(jf .ejected.bound_ns)" = 50000000 ] ||
	{ cat /tmp/show.json; fail "spin: callback $ns ns, bound $(jf .ejected.bound_ns)"; }
[ "$(jf .from)" = table ] && [ "$(jf .policy)" = fixed ] && [ "$(jf .throttle)" = 8 ] ||
	{ cat /tmp/show.json; fail "spin: the table's policy is not back"; }
[ "$(jf .link)" = detached ] || { cat /tmp/show.json; fail "spin: its pinned link is $(jf .link), want detached (EPOLLHUP)"; }
grep -q "lq policy=hspin rule=callback hook=window" $tr/trace ||
	{ grep lunq_pol_eject $tr/trace; fail "spin: no trace event lunq_pol_eject"; }
jq -e 'select(.event == "eject" and .rule == "callback")' /tmp/ev.json > /dev/null ||
	{ cat /tmp/ev.json; fail "spin: no netlink event eject"; }
n=$(dmesg_since "$mark" | grep -c "BPF policy hspin ejected: its window callback ran")
[ "$n" = 1 ] || { dmesg_since "$mark"; fail "spin: $n kernel lines for the ejection, want 1"; }
lockups "$mark" && fail "spin: a lockup, stall or splat in the kernel log"
lc 0 policy show lq
lc_out "BPF policy hspin was ejected"
lc_out "its window callback ran"
ok "spin: ejected after a window callback of $(ms "$ns") ms (bound 50 ms); fio verified ($(tail -1 /tmp/spin.out)); table's qdepth 8 back, link detached, trace and netlink events, one kernel line, no lockup"
lc 0 policy detach lq
dm_remove lq

# --- 2. the depth at its floor; a stalled device ------------------------------
# reads NAME QD SECONDS: random 4 KiB reads on lq in the background (fio
# NAME, its output in /tmp/NAME.out), fp their pid
reads() {
	fio --name="$1" --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth="$2" --runtime="$3" --time_based > "/tmp/$1.out" 2>&1 &
	fp=$!
}
lunq_create lq $nb qdepth:8 auto_min:1 model:fixed svc_us:20000 || fail "create"
reads fl 64 4
sleep 1
d0=$(lq_stat lq dispatched)
lc 0 policy attach lq "$P/hostile-floor.bpf.o"
wait_eject lq 10
d1=$(lq_stat lq dispatched)
[ "$(jf .ejected.rule)" = floor ] || { cat /tmp/show.json; fail "floor: rule $(jf .ejected.rule)"; }
ns=$(jf .ejected.ns)
[ "$ns" -gt 1000000000 ] && [ "$(jf .ejected.bound_ns)" = 1000000000 ] ||
	{ cat /tmp/show.json; fail "floor: waited $ns ns, bound $(jf .ejected.bound_ns)"; }
[ "$d1" -gt "$d0" ] || fail "floor: nothing was sent under it ($d0 -> $d1): a stall, not the floor"
tlog lq | awk '$4 == "set" && $3 == 1 { one = 1 } END { exit !one }' ||
	{ tlog lq; fail "floor: the throttle never held 1"; }
[ "$(jf .throttle)" = 8 ] || fail "floor: throttle $(jf .throttle), want the table's 8"
wait $fp || { cat /tmp/fl.out; fail "floor: fio"; }
ok "floor: depth 1 with 64 queued: ejected when the oldest waiter had waited $(ms "$ns") ms (timeout 1000 ms), $((d1 - d0)) commands sent meanwhile; qdepth 8 back"
lc 0 policy detach lq
dm_remove lq

# qdepth:2 from the start: commands wait whatever the moment of the attach
# (at qdepth:8 fio's 8 all went at once, and waited only if fio sent more
# before its runtime ended: a race with the 3 s service)
lunq_create lq $nb qdepth:2 auto_min:1 model:fixed svc_us:3000000 || fail "create"
reads st 8 3
sleep 0.5
lc 0 policy attach lq "$P/hostile-stall.bpf.o"
wait_eject lq 10
[ "$(jf .ejected.rule)" = stall ] || { cat /tmp/show.json; fail "stall: rule $(jf .ejected.rule)"; }
ns=$(jf .ejected.ns)
[ "$ns" -ge 1000000000 ] || fail "stall: $ns ns without a send"
wait $fp || { cat /tmp/st.out; fail "stall: fio"; }
ok "stall: depth 2 over 3 s commands: ejected after $(ms "$ns") ms without a command sent (timeout 1000 ms)"
lc 0 policy detach lq
dm_remove lq

# --- 3. by hand ---------------------------------------------------------------
lunq_create lq $nb qdepth:4 auto_max:16 || fail "create"
lc 0 policy attach lq "$P/aimd.bpf.o"
lc 0 policy eject lq
lc_out "BPF policy aimd ejected"
wait_eject lq 5
[ "$(jf .ejected.rule)" = manual ] && [ "$(jf .from)" = table ] && [ "$(jf .link)" = detached ] ||
	{ cat /tmp/show.json; fail "eject by hand"; }
lc 0 policy eject lq
lc_out "no BPF policy attached"
ok "lunqctl policy eject: rule manual, the table's policy back, the link detached; a second says none is attached"
lc 0 policy detach lq

# --- 4. one map, two links ----------------------------------------------------
lunq_create lq2 -l $sz $nb2 qdepth:4 auto_max:16 || fail "create lq2"
mkdir -p /sys/fs/bpf/lunq
bpflink "$P/aimd.bpf.o" aimd lq:/sys/fs/bpf/lunq/l1 lq2:/sys/fs/bpf/lunq/l2 ||
	fail "bpflink: two links of one map"
show_j lq; a=$(jf .from)
show_j lq2; b=$(jf .from)
[ "$a $b" = "bpf bpf" ] || fail "two links: lq from $a, lq2 from $b"
rm /sys/fs/bpf/lunq/l1
i=0
while show_j lq; [ "$(jf .from)" != table ]; do
	i=$((i + 1))
	[ $i -lt 50 ] || fail "lq keeps its policy 5 s after its link went"
	sleep 0.1
done
show_j lq2
[ "$(jf .from)" = bpf ] || fail "releasing lq's link detached lq2 too"
rm /sys/fs/bpf/lunq/l2
ok "one map through two links: releasing lq's detached lq alone, lq2 kept aimd"

# --- 5. privilege -------------------------------------------------------------
mark=$(dmesg_mark)
i=0
while show_j lq2; [ "$(jf .from)" != table ]; do
	i=$((i + 1)); [ $i -lt 50 ] || fail "lq2 keeps its policy"; sleep 0.1
done
# a process handed a loaded policy's map (loading one with libbpf needs
# CAP_SYS_ADMIN for the module's BTF; creating its link needs nothing of
# the BPF syscall)
bpflink --pin-map "$P/aimd.bpf.o" /sys/fs/bpf/lunq/map || fail "bpflink --pin-map"
expect dmsetup message lq2 0 "policy expect aimd"
/usr/bin/setpriv --bounding-set -sys_admin --inh-caps -sys_admin \
	bpflink --map /sys/fs/bpf/lunq/map aimd -:/sys/fs/bpf/lunq/np > /tmp/np.out 2>&1
rc=$?
[ $rc = 3 ] || { cat /tmp/np.out; fail "a registration without CAP_SYS_ADMIN: exit $rc, want 3 (EPERM)"; }
dmesg_since "$mark" | grep -q "BPF policy aimd: registering it needs CAP_SYS_ADMIN" ||
	fail "no kernel line for the refused registration"
show_j lq2
[ "$(jf .from)" = table ] || fail "lq2 took a policy registered without CAP_SYS_ADMIN"
bpflink --map /sys/fs/bpf/lunq/map aimd -:/sys/fs/bpf/lunq/np || fail "the same registration as root"
show_j lq2
[ "$(jf .from)" = bpf ] || fail "lq2 did not take root's registration"
rm /sys/fs/bpf/lunq/np /sys/fs/bpf/lunq/map
ok "a registration without CAP_SYS_ADMIN (CAP_BPF, CAP_PERFMON, CAP_NET_ADMIN kept) is refused: $(head -c 80 /tmp/np.out); root's is taken"

lunqctl policy attach lq "$P/hostile-bigto.bpf.o" > /tmp/lc.out 2> /tmp/lc.err &&
	fail "a timeout_ms of 40000 was taken"
dmesg_since "$mark" | grep -q "timeout_ms 40000 is above the ceiling, 30000" ||
	{ cat /tmp/lc.err; fail "no kernel line for the timeout_ms refused"; }
show_j lq
[ "$(jf .from)" = table ] || fail "lq took hbigto"
ok "timeout_ms above the 30 s ceiling is refused at registration"
lockups "$mark" && fail "a lockup, stall or splat in the kernel log"
i=0
while show_j lq2; [ "$(jf .from)" != table ]; do
	i=$((i + 1)); [ $i -lt 50 ] || fail "lq2 keeps its policy"; sleep 0.1
done
rm -f /sys/fs/bpf/lunq/*
dm_remove lq
dm_remove lq2
