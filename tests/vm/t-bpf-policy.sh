# Throttle policies written in BPF (struct lunq_policy_ops as a struct_ops
# type; lunqctl policy), on kernels whose modules can register struct_ops
# (6.9+: Debian's 6.12).  Elsewhere: attaching says so, then SKIP naming
# the missing feature.  Over null_blk with 1 ms completions (a device whose
# in-flight blktrace sees), fio verifying every write:
#  1. aimd (policies/aimd.bpf.c) under lun_depth:4: every QUEUE FULL move
#     in the throttle log halves the depth exactly, every window move adds;
#     blktrace at null_blk: never more in flight than the highest depth set.
#     The same from aimd built against the header's first layout (such
#     a policy keeps loading), each answer traced
#     (lunq_pol_answer) with a consistent view; "policy expect" refuses
#     one name on two devices and a name too long.
#  2. kyber and parda: every window (trace event lunq_auto_window: its
#     figures and the answer) is the example's rule, recomputed here from
#     the event's figures; blktrace: in flight <= the highest depth.
#  3. garbage answers (0, 10^9, random) are clamped to auto_min..auto_max
#     (2..6): the throttle and blktrace's in flight stay inside, fio
#     verifies; the clamped answers are counted (pol_zero, pol_below,
#     pol_above) and shown by policy show.
#  4. detach under a verifying load loses nothing; the table's qdepth is
#     back.  Two devices with different policies keep their own.
#  5. an unprivileged attach is refused; the module cannot be unloaded
#     while a policy is loaded, and unloads once its link is gone, without
#     a splat.
# group: bpf
# time: 55
# (6.1 and RT skip in seconds, 6.12 takes about 100 s: the budget counts
# this twice for the matrix kernels, which covers both)
. "$LUNQ_SRC/tests/vm/lib.sh"

P=$LUNQ_SRC/build/policies
CFG=/sys/kernel/config/nullb
mount -t configfs none /sys/kernel/config 2>/dev/null
nb1=$(nullb_create nbp1 256 irqmode=2 completion_nsec=1000000) || fail "null_blk nbp1"
nb2=$(nullb_create nbp2 256 irqmode=2 completion_nsec=1000000) || fail "null_blk nbp2"
sz=$(sectors "$nb1")
for f in aimd kyber parda garbage-zero garbage-huge garbage-random compat-aimd; do
	[ -f "$P/$f.bpf.o" ] || fail "$P/$f.bpf.o missing (make policies)"
done

if [ "$(cat /sys/module/dm_lunq/parameters/bpf_policies 2>/dev/null)" != Y ]; then
	lunq_create lq $nb1 qdepth:8 || fail "create"
	lc 6 policy attach lq "$P/aimd.bpf.o"
	lc_err "cannot run BPF policies"
	lc_err "Linux 6.9"
	lc 0 policy show lq
	lc_out "policy fixed (from the table)"
	ok "attach on $(uname -r) says the kernel cannot: $(head -c 120 /tmp/lc.err)..."
	dm_remove lq
	skip "$(uname -r): no BPF struct_ops registered by modules (Linux 6.9+ with module BTF); dm-lunq's bpf_policies is N"
fi

tr=/sys/kernel/tracing
[ -d $tr/events ] || mount -t tracefs tracefs $tr 2>/dev/null
win_on() { lunq_ev_on lunq_auto_window; }
# win_off NAME: the windows of NAME as "ns ios p99 mean wait qfull from to"
win_off() {
	lunq_ev_off lunq_auto_window
	sed -n "s/.* $1 window \([0-9]*\) ns: \([0-9]*\) ios ([0-9]*\/s) svc mean \([0-9]*\) p99 \([0-9]*\) ns, waiting \([0-9]*\) ns, qfull \([0-9]*\); depth \([0-9]*\) -> \([0-9]*\)$/\1 \2 \4 \3 \5 \6 \7 \8/p" $tr/trace
}
# pa_on, pa_off NAME: the lunq_pol_answer lines of device NAME
pa_on() { lunq_ev_on lunq_pol_answer; }
pa_off() {
	lunq_ev_off lunq_pol_answer
	grep "lunq_pol_answer: .* $1 policy=" $tr/trace | sed 's/.* policy=/policy=/'
}
# run NAME DEV ARGS...: fio write+verify on NAME with blktrace at DEV; the
# most commands in flight at DEV in /tmp/maxc
run() {
	_nm=$1 _lo=$2
	shift 2
	traced_verify "$_lo" - "$_nm" "/dev/mapper/$_nm" --rw=randwrite --bs=4k --iodepth=32 "$@"
	echo "$low" > /tmp/maxc
}
# top NAME START: the highest depth NAME's throttle log reached (or START)
top() { tlog "$1" | awk -v m="$2" '$3 > m { m = $3 } END { print m }'; }

# --- 1. aimd under QUEUE FULL ------------------------------------------------
lunq_create lq $nb1 qdepth:8 lun_depth:4 auto_max:32 || fail "create"
lc 0 policy attach lq "$P/aimd.bpf.o"
lc_out "BPF policy aimd attached"
lc 0 policy show -j lq
jq -e '.policy == "aimd" and .from == "bpf" and .pin == "/sys/fs/bpf/lunq/lq"' /tmp/lc.out > /dev/null ||
	fail "policy show: $(cat /tmp/lc.out)"
run lq "$nb1" --size=16m
tlog lq > /tmp/tl
diag "aimd: $(grep -c ' qfull$' /tmp/tl) halvings, $(grep -c ' bpf$' /tmp/tl) increases, $(status_field lq qfull) QUEUE FULLs; null_blk: at most $(cat /tmp/maxc) in flight"
awk '$4 == "qfull" && $3 != ($2 >= 2 ? int($2 / 2) : 1) { print; bad = 1 }
     $4 == "bpf" && $3 <= $2 { print; bad = 1 } END { exit bad }' /tmp/tl ||
	fail "aimd: a move that is not its rule (halve on QUEUE FULL, add on a window)"
grep -q ' qfull$' /tmp/tl && grep -q ' bpf$' /tmp/tl || { cat /tmp/tl; fail "aimd: want both halvings and increases"; }
[ "$(cat /tmp/maxc)" -le "$(top lq 8)" ] || fail "aimd: $(cat /tmp/maxc) in flight at null_blk > the depth's $(top lq 8)"
ok "aimd: every QUEUE FULL move halves, every window move adds; null_blk in flight <= $(top lq 8); fio verify passed"
# new table values while it is attached: it stays, the depth within them
lc 0 set lq auto_min:2 auto_max:3
lc 0 policy show -j lq
jq -e '.policy == "aimd" and .from == "bpf"' /tmp/lc.out > /dev/null ||
	fail "set while aimd is attached: $(cat /tmp/lc.out)"
d=$(status_field lq qdepth)
[ "$d" -ge 2 ] && [ "$d" -le 3 ] || fail "set auto_min:2 auto_max:3 while aimd is attached: depth $d"
ok "a set while aimd is attached keeps it, the depth clamped to auto_min..auto_max ($d)"
lc 0 policy detach lq
lc_out "detached"
[ -e /sys/fs/bpf/lunq/lq ] && fail "detach left the pin"
dm_remove lq

# --- 1b. aimd built against the header's first layout (tests/bpf/compat) ------
# its ops have char dev[160] and a first argument struct lunq_pol *: it
# loads (lunqctl leaves "dev" zero, libbpf skips it), keeps its rule, and
# every answer is the trace event lunq_pol_answer with the window's view
lunq_create lq $nb1 qdepth:8 lun_depth:4 auto_max:32 || fail "create"
lc 0 policy attach lq "$P/compat-aimd.bpf.o"
lc_out "BPF policy aimd attached"
pa_on
run lq "$nb1" --size=16m
pa_off lq > /tmp/pa
tlog lq > /tmp/tl
awk '$4 == "qfull" && $3 != ($2 >= 2 ? int($2 / 2) : 1) { print; bad = 1 }
     $4 == "bpf" && $3 <= $2 { print; bad = 1 } END { exit bad }' /tmp/tl ||
	fail "compat aimd: a move that is not its rule"
grep -q ' qfull$' /tmp/tl && grep -q ' bpf$' /tmp/tl || { cat /tmp/tl; fail "compat aimd: want both halvings and increases"; }
nw=$(grep -c ' hook=window ' /tmp/pa) nq=$(grep -c ' hook=qfull ' /tmp/pa)
[ "$nw" -ge 5 ] && [ "$nq" -ge 1 ] || fail "lunq_pol_answer: $nw window and $nq qfull answers of aimd"
# the view: min <= p50 <= p99, in flight between 0 and the highest depth
awk -v top="$(top lq 8)" '/ hook=window / {
	for (i = 1; i <= NF; i++) { split($i, kv, "="); f[kv[1]] = kv[2] }
	if (f["policy"] != "aimd" || f["clamped"] < 1 || f["clamped"] > 32 ||
	    (f["ios"] > 0 && !(f["svc_min"] > 0 && f["svc_min"] <= f["svc_p50"] && f["svc_p50"] <= f["svc_p99"])) ||
	    f["inflight"] > top * 1000 || f["pool"] != 0) { print; bad = 1 }
	if (f["inflight"] > 0) busy++ }
	END { if (!busy) { print "no window with commands in flight"; bad = 1 }; exit bad }' /tmp/pa ||
	fail "lunq_pol_answer: a window whose view is impossible"
ok "aimd built against the header's first layout (tests/bpf/compat) loads and keeps its rule; $nw window and $nq qfull answers traced (lunq_pol_answer), each view consistent (svc min <= p50 <= p99, in flight <= $(top lq 8))"
lc 0 policy detach lq
# a name is expected by one device at a time, and must be 1..15 characters
lunq_create lq2 -l $sz $nb2 qdepth:4 || fail "create lq2"
expect dmsetup message lq 0 policy expect onename
dmsetup message lq2 0 policy expect onename 2> /dev/null && fail "two devices expect one name"
dmsetup message lq 0 policy expect 0123456789abcdef 2> /dev/null && fail "a 16-character name expected"
lc 0 policy attach lq2 "$P/garbage-zero.bpf.o"
lc 0 policy show lq2
lc_out "policy garbage (from the BPF program)"
lc 0 policy detach lq2
ok "'policy expect': one device per name (another is refused), names of 1..15 characters; an attach to another device is unaffected"
dm_remove lq2
dm_remove lq

# --- 2. kyber and parda: each window recomputed from its figures ----------------
# kyber: p99 over 10 ms scales by target/p99 (1 less at least, half at most);
# p99 under 7.5 ms with IOs waiting half the window adds max(d/8, 1)
# windows POLICY: lq at qdepth:4 auto_max:24 under POLICY through a
# verify load; its windows in /tmp/win, n of them (5 at least)
windows() {
	lunq_create lq $nb1 qdepth:4 auto_max:24 || fail "create"
	lc 0 policy attach lq "$P/$1.bpf.o"
	win_on
	run lq "$nb1" --size=24m
	win_off lq > /tmp/win
	n=$(wc -l < /tmp/win)
	[ "$n" -ge 5 ] || fail "$1: only $n windows traced"
}
windows kyber
awk 'function cl(x) { return x < 1 ? 1 : x > 24 ? 24 : x }
     { ns = $1; ios = $2; p99 = $3; wt = $5; d = $7; to = $8; w = d
       if (ios && d) {
         if (p99 > 10000000) { w = int(d * 10000000 / p99); if (w >= d) w = d - 1; if (w < int(d / 2)) w = int(d / 2) }
         else if (p99 < 7500000 && 2 * wt >= ns) w = d + (int(d / 8) ? int(d / 8) : 1)
       }
       if (cl(w) != to) { print "window: " $0 " want " cl(w); bad = 1 } }
     END { exit bad }' /tmp/win || fail "kyber: a window whose answer is not its rule"
# (whether it grows depends on the p99 the host's load allows: on the
# plain clock only that it acted, each move by its rule, is certain)
mv=$(awk '$7 != $8' /tmp/win | wc -l)
[ "$mv" -ge 1 ] || fail "kyber: no window moved the depth ($n windows)"
[ "$(cat /tmp/maxc)" -le 24 ] || fail "kyber: $(cat /tmp/maxc) in flight at null_blk"
ok "kyber: $n windows, each the rule's answer, $mv moved it; depth 4 -> $(status_field lq qdepth) (auto_max 24); null_blk at most $(cat /tmp/maxc) in flight"
lc 0 policy detach lq
dm_remove lq

# parda: w16 <- ((100 - 80) w16 + 80 (L w16 / L(t) + 16 beta)) / 100, L = 20 ms,
# beta 2, w16 from 16 x the depth at attach, at most 16 x max
windows parda
awk 'BEGIN { w16 = 4 * 16 }
     { ios = $2; mean = $4; d = $7; to = $8; want = d
       if (ios && mean) {
         w16 = int((20 * w16 + 80 * (int(20000000 * w16 / mean) + 32)) / 100)
         if (w16 > 24 * 16) w16 = 24 * 16
         want = int(w16 / 16); if (want < 1) want = 1
       }
       if (want != to) { print "window: " $0 " want " want; bad = 1 } }
     END { exit bad }' /tmp/win || fail "parda: a window whose answer is not its rule"
[ "$(cat /tmp/maxc)" -le 24 ] || fail "parda: $(cat /tmp/maxc) in flight at null_blk"
ok "parda: $n windows, each PARDA's window recomputed; depth $(status_field lq qdepth); null_blk at most $(cat /tmp/maxc) in flight"
lc 0 policy detach lq
dm_remove lq

# --- 3. garbage answers, clamped -----------------------------------------------
for g in zero huge random; do
	lunq_create lq $nb1 qdepth:4 auto_min:2 auto_max:6 || fail "create"
	lc 0 policy attach lq "$P/garbage-$g.bpf.o"
	run lq "$nb1" --size=8m
	tlog lq > /tmp/tl
	awk '$3 < 2 || $3 > 6 { print; bad = 1 } END { exit bad }' /tmp/tl ||
		fail "garbage-$g: a depth outside auto_min..auto_max"
	d=$(status_field lq qdepth) m=$(cat /tmp/maxc)
	case $g in
	zero) [ "$d" = 2 ] && [ "$m" -le 2 ] || fail "garbage-zero: throttle $d, in flight $m; want 2, <= 2" ;;
	huge) [ "$d" = 6 ] && [ "$m" -le 6 ] || fail "garbage-huge: throttle $d, in flight $m; want 6, <= 6" ;;
	random) [ "$m" -le 6 ] && [ "$(wc -l < /tmp/tl)" -ge 3 ] ||
		fail "garbage-random: in flight $m, $(wc -l < /tmp/tl) moves" ;;
	esac
	[ "$(status_field lq inflight)" = 0 ] && [ "$(status_field lq waiting)" = 0 ] || fail "garbage-$g: IOs left"
	# the answers the kernel clamped, counted: 0; below 2 (1); above 6
	z=$(lq_stat lq pol_zero) b=$(lq_stat lq pol_below) a=$(lq_stat lq pol_above)
	case $g in
	zero) [ "$z" -ge 1 ] && [ "$b" = 0 ] && [ "$a" = 0 ] ;;
	huge) [ "$z" = 0 ] && [ "$b" = 0 ] && [ "$a" -ge 1 ] ;;
	random) [ $((z + b + a)) -ge 1 ] ;;
	esac || fail "garbage-$g: clamped answers counted: $z of 0, $b below, $a above"
	# policy show reads the same counts, a moment later: a window may
	# end between the two reads (the policy is still attached), so each
	# of show's counts lies between this read and one after it
	lc 0 policy show lq
	lc_out "lq: answers of garbage clamped since it took over: "
	read -r sz sb sa <<-EOF
	$(sed -n 's/.*clamped since it took over: \([0-9]*\) were 0, \([0-9]*\) others below auto_min, \([0-9]*\) above auto_max.*/\1 \2 \3/p' /tmp/lc.out)
	EOF
	z2=$(lq_stat lq pol_zero) b2=$(lq_stat lq pol_below) a2=$(lq_stat lq pol_above)
	[ -n "$sa" ] && [ "$z" -le "$sz" ] && [ "$sz" -le "$z2" ] && [ "$b" -le "$sb" ] &&
		[ "$sb" -le "$b2" ] && [ "$a" -le "$sa" ] && [ "$sa" -le "$a2" ] ||
		fail "garbage-$g: policy show says $sz/$sb/$sa clamped (0/below/above); the stats $z/$b/$a before it, $z2/$b2/$a2 after"
	ok "garbage-$g: throttle $d within 2..6 after $(wc -l < /tmp/tl) moves, null_blk at most $m in flight, fio verify passed; clamped answers $z of 0, $b below, $a above (policy show)"
	lc 0 policy detach lq
	dm_remove lq
done

# --- 4. detach under load; two devices ----------------------------------------
lunq_create lq $nb1 qdepth:4 auto_max:24 || fail "create"
lc 0 policy attach lq "$P/kyber.bpf.o"
fio_verify dl /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=32m > /tmp/dl.out 2>&1 &
fp=$!
sleep 2
lc 0 policy detach lq
wait $fp || { cat /tmp/dl.out; fail "fio verify across the detach"; }
lc 0 policy show lq
lc_out "policy fixed (from the table), throttle 4"
ok "detach under a verifying load: $(tail -1 /tmp/dl.out); the table's qdepth 4 is back"

lunq_create lq2 -l $sz $nb2 qdepth:4 auto_min:2 auto_max:6 || fail "create lq2"
lc 0 policy attach lq "$P/kyber.bpf.o"
lc 0 policy attach lq2 "$P/garbage-zero.bpf.o"
lc 4 policy attach lq "$P/aimd.bpf.o"
lc_err "has a BPF policy already"
c0=$(status_field lq throttle_changes)
fio_verify two1 /dev/mapper/lq --rw=randwrite --bs=4k --iodepth=32 --size=24m > /tmp/t1.out 2>&1 &
f1=$!
run lq2 "$nb2" --size=8m
wait $f1 || { cat /tmp/t1.out; fail "fio verify on lq"; }
[ "$(status_field lq2 qdepth)" = 2 ] ||
	fail "two devices: lq2 $(status_field lq2 qdepth) (want garbage-zero's 2)"
[ "$(status_field lq throttle_changes)" -gt "$c0" ] || fail "two devices: kyber never moved lq"
[ "$(cat /tmp/maxc)" -le 2 ] || fail "lq2: $(cat /tmp/maxc) in flight at null_blk"
tlog lq | awk '$4 != "bpf" && $4 != "set" { bad = 1 } END { exit bad }' || fail "lq: a move not its policy's"
lc 0 policy show lq2
lc_out "policy garbage (from the BPF program), throttle 2"
ok "two devices: lq under kyber at $(status_field lq qdepth), lq2 under garbage-zero at 2 (in flight <= 2); a second attach is refused (busy)"

# --- 5. privileges, module unload ---------------------------------------------
as_nobody lunqctl policy attach lq2 "$P/aimd.bpf.o" > /tmp/lc.out 2> /tmp/lc.err
rc=$?
[ $rc = 3 ] || { cat /tmp/lc.err; fail "unprivileged attach: exit $rc, want 3"; }
why=$(head -c 100 /tmp/lc.err)
lc 0 policy show lq2
lc_out "policy garbage"
ok "an unprivileged attach is refused (exit 3: $why), lq2 keeps its policy"

mark=$(dmesg_mark)
lc 0 remove lq		# with kyber attached: lunqctl unpins its link too
lc_out "removed lq and its BPF policy's link"
[ -e /sys/fs/bpf/lunq/lq ] && fail "lunqctl remove left lq's pin"
# a reload detaches lq2's policy; its link stays pinned, attached to nothing
lunq_table -l $sz $nb2 qdepth:5 | dmsetup reload lq2 || fail "reload"
expect dmsetup resume lq2
lc 0 policy show lq2
lc_out "policy fixed (from the table), throttle 5; a link left at"
ok "a table reload detaches the policy: $(cat /tmp/lc.out)"
dm_remove lq2
[ -e /sys/fs/bpf/lunq/lq2 ] || fail "the pin of lq2's link went with the device"
rmmod dm_lunq 2> /tmp/rm.err && fail "dm_lunq unloaded with a BPF policy loaded"
ok "rmmod refused while a policy is loaded: $(cat /tmp/rm.err)"
rm /sys/fs/bpf/lunq/lq2
rm -f /sys/fs/bpf/lunq/*	# any other test's (lunqctl remove unpins its own)
i=0
until rmmod dm_lunq 2> /dev/null; do
	i=$((i + 1))
	[ $i -lt 50 ] || fail "dm_lunq still held 5 s after its last policy's link went"
	sleep 0.1
done
expect modprobe dm-lunq
dmesg_since "$mark" | grep -E 'WARNING|BUG|Oops|refcount|leak' && fail "a splat around the unload"
ok "the module unloads once the link is gone ($i tries), no splat"
