# Fuzzing the generic netlink family "lunq" (kmod/dm-lunq.rst, "Generic
# netlink", "Permissions") with tests/tools/nlfuzz while lunqbench --verify
# runs on a lunq device (qdepth:8 sched:disksort max_wait_ms:100):
#  - as user 65534, nlfuzz sends random and mutated GET, dump, HIST, SET
#    and RESET requests (--expect-eperm): every SET and RESET the kernel
#    parses answers EPERM (one flagged as a dump may answer EOPNOTSUPP:
#    from 6.2 genetlink finds no dump operation before it checks
#    permission; 6.1 checks first), the valid reads among them (GET, dump, HIST)
#    answer with data, and nothing changes: the policy (dmsetup table,
#    sysfs table, netlink POLICY) and the counters' start (crtime_ns, which
#    a RESET moves) of both devices are as before;
#  - nlprobe as user 65534 still dumps and reads histograms;
#  - as root, nlfuzz sends the same mix; its guard lets no RESET reach the
#    loaded device and no SET with another key than qdepth, sched,
#    max_wait_ms, bubble_ms (a second, idle device takes every key and
#    the RESETs); crtime_ns of the loaded device does not move;
#  - afterwards the family still answers (nlprobe get), the verify load
#    saw zero errors and zero verify errors, and the books balance:
#    IOs lunqbench issued = lunq's completed counter, nothing in flight;
#  - no kernel splat (suite.sh scans the log).
# Seeds: 1 (user) and 2 (root), plus one from the clock (printed; rerun
# with LUNQ_FUZZ_SEED=N).  A seed that ever finds a bug goes into
# regress_seeds below and runs every time.
# group: fuzz
# time-debug: 95
# time: 20
. "$LUNQ_SRC/tests/vm/lib.sh"

command -v nlfuzz >/dev/null || skip "nlfuzz not built (make tools)"
command -v nlprobe >/dev/null || skip "nlprobe not built (make tools)"

regress_seeds=""
count=$(scaled 3000 300)
rseed=${LUNQ_FUZZ_SEED:-$(date +%s)}

lbpid=
cleanup() {
	touch /tmp/fz.stop
	[ -n "$lbpid" ] && wait "$lbpid" 2>/dev/null
	for d in lqfz lqdecoy; do dm_exists $d && dm_remove $d; done
	nullb_remove fz_nb fz_nb2
	rm -f /tmp/fz.stop
}
trap cleanup EXIT

nb=$(nullb_create fz_nb 64 irqmode=2 completion_nsec=200000) || fail "null_blk"
nb2=$(nullb_create fz_nb2 16) || fail "null_blk 2"
pol="qdepth:8 sched:disksort max_wait_ms:100"
lunq_create lqfz $nb $pol || fail "create lqfz"
lunq_create lqdecoy $nb2 || fail "create lqdecoy"

lb() { lunqbench --verify --seed 7 --range 0-4m --bs 4k --interval 0 --kv "$@" /dev/mapper/lqfz; }

lb --rdpct 0 --seekpct 0 --ios 1024 --iodepth 8 > /tmp/fz.lb0 2>&1 ||
	{ cat /tmp/fz.lb0; fail "write pass"; }
tail -n 1 /tmp/fz.lb0 > /tmp/fz.kv

# the load: verify runs of 3 s back to back until told to stop
load_loop fz lb --rdpct 50 --seekpct 100 --iodepth 16 --elapsed 3
sleep 1

# state: what an accepted SET or RESET would change
state() {
	for d in lqfz lqdecoy; do
		dmsetup table $d
		cat /sys/kernel/lunq/$d/table
		lq_stat $d crtime_ns
		nlprobe get $d | sed -n 's/.* policy="\([^"]*\)".*/\1/p'
	done
}
before=$(state)
diag "state before: $(echo "$before" | tr '\n' '|')"

# --- unprivileged ---
for s in 1 $regress_seeds $rseed; do
	as_nobody nlfuzz --seed "$s" --count "$count" --dev lqfz --dev lqdecoy \
		--expect-eperm > /tmp/fz.out 2> /tmp/fz.err
	rc=$?
	cat /tmp/fz.out
	head -n 5 /tmp/fz.err
	[ $rc = 0 ] || fail "nlfuzz as user 65534, seed $s: exit $rc"
	grep -q ' priv_ok=0 ' /tmp/fz.out && grep -q ' valid_bad=0 ' /tmp/fz.out ||
		fail "seed $s: a SET/RESET accepted or a read failed"
	# EPERM; or EOPNOTSUPP for one flagged as a dump, which genetlink
	# (6.2+, split ops) refuses before checking permission: SET and RESET
	# have no dump operation.  6.1 answers EPERM to those too.
	p=$(sed -n 's/.* priv=\([0-9]*\) .*/\1/p' /tmp/fz.out)
	pe=$(sed -n 's/.* priv_eperm=\([0-9]*\) .*/\1/p' /tmp/fz.out)
	pd=$(sed -n 's/.* priv_dump_eopnotsupp=\([0-9]*\) .*/\1/p' /tmp/fz.out)
	[ "$p" -gt 0 ] && [ "$pe" -gt 0 ] && [ $((pe + pd)) = "$p" ] ||
		fail "seed $s: of $p SET/RESET, $pe answered EPERM and $pd (dump-flagged) EOPNOTSUPP"
	[ "$(state)" = "$before" ] || fail "seed $s: state changed: $(state | tr '\n' '|')"
	ok "user 65534, seed $s: $p SET/RESET refused ($pe EPERM, $pd dump-flagged EOPNOTSUPP), reads answered, state unchanged"
done

h=$(nlprobe -u 65534 hist lqfz total_read) || fail "unprivileged hist: $h"
nlprobe -u 65534 dump > /tmp/fz.dump || fail "unprivileged dump: $(cat /tmp/fz.dump)"
[ "$(wc -l < /tmp/fz.dump)" = 2 ] || { cat /tmp/fz.dump; fail "unprivileged dump: not 2 lines"; }
g=$(nlprobe -u 65534 get lqfz) || fail "unprivileged get: $g"
o=$(nlprobe -u 65534 set lqfz qdepth:1)
case $o in "error=EPERM "*) ;; *) fail "unprivileged set: $o" ;; esac
o=$(nlprobe -u 65534 reset lqfz)
case $o in "error=EPERM "*) ;; *) fail "unprivileged reset: $o" ;; esac
[ "$(state)" = "$before" ] || fail "state changed: $(state | tr '\n' '|')"
ok "user 65534: get, dump, hist answer ($h); set, reset EPERM"

# --- root, guarded ---
crt=$(lq_stat lqfz crtime_ns)
for s in 2 $regress_seeds $((rseed + 1)); do
	nlfuzz --seed "$s" --count "$count" --keep lqfz --dev lqdecoy \
		> /tmp/fz.out 2> /tmp/fz.err
	rc=$?
	cat /tmp/fz.out
	head -n 5 /tmp/fz.err
	[ $rc = 0 ] || fail "nlfuzz as root, seed $s: exit $rc"
	grep -q ' guard=1$' /tmp/fz.out || fail "the guard was off as root"
	[ "$(lq_stat lqfz crtime_ns)" = "$crt" ] || fail "seed $s: lqfz was reset"
	t=$(dmsetup table lqfz)
	diag "lqfz after seed $s: $t"
	echo "$t" | cut -d' ' -f7- | tr ' ' '\n' | grep ':' | grep -qvE '^(qdepth|sched|max_wait_ms|bubble_ms):' &&
		fail "seed $s: a key beyond the guard's reached lqfz: $t"
	dmsetup message lqfz 0 set $pol bubble_ms:0 || fail "restore the policy"
	ok "root, seed $s: lqfz not reset, only guarded keys changed; restored"
done

g=$(nlprobe get lqfz) || fail "nlprobe get after fuzzing: $g"
ok "the family still answers: $(echo "$g" | cut -c1-120) ..."

touch /tmp/fz.stop
wait "$lbpid"
lbpid=
[ -e /tmp/fz.lbfail ] && { cat /tmp/fz.lbfail; rm -f /tmp/fz.lbfail; fail "a verify run failed"; }
runs=$(wc -l < /tmp/fz.kv)
ios=$(kvsum /tmp/fz.kv ios) errs=$(kvsum /tmp/fz.kv errors) verr=$(kvsum /tmp/fz.kv verify_errors)
[ "$verr" = 0 ] || fail "$verr verify errors"
[ "$ios" -gt 1024 ] || fail "the load did only $ios IOs"
ok "lunqbench --verify: $runs runs, $ios IOs, errors=$errs verify_errors=$verr"
counters_consistent lqfz || fail "lqfz: counters do not balance"
io_report fuzz-netlink "$ios" "$(lq_stat lqfz completed)" "$errs"
