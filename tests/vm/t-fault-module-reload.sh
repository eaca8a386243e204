# dm_lunq unload/reload loop with devices created and removed, 10 rounds
# (--quick: 3): modprobe; /sys/kernel/lunq and the generic netlink family
# "lunq" (libnl's genl-ctrl-list) appear; three lunq devices on one
# memory-backed null_blk (lq0 throttled with disksort, lq1 and lq2 sharing
# the pool "port0" of 4 slots, lq2 with a LUN of 2 slots and the fixed
# service-time model); rmmod refused while they exist (module, sysfs and
# family stay, the devices keep working); a lunqbench --verify load over all
# three; remove them; rmmod; the sysfs directory and the family are gone.
# The data lives on in null_blk across rounds: every round's reads verify
# what earlier rounds (earlier module instances) wrote.  Books per round:
# lunq's reads + writes of the three devices (read before removal) = the
# tool's IOs = the lower device's diskstats; nothing in flight at the end.
# group: fault
# time-debug: 90
# time: 15
. "$LUNQ_SRC/tests/vm/lib.sh"

command -v genl-ctrl-list > /dev/null || skip "no genl-ctrl-list (libnl-utils)"
nb=$(nullb_create lq_nb 48 irqmode=2 completion_nsec=100000) || fail "null_blk setup"
mb16=32768	# 16 MiB in sectors

loaded() { grep -q '^dm_lunq ' /proc/modules; }
family() { genl-ctrl-list 2>/dev/null | awk '$2 == "lunq"' | grep -q .; }
lower_ios() {
	echo $(($(disk_stat "$nb" 1) + $(disk_stat "$nb" 2) + $(disk_stat "$nb" 5) + $(disk_stat "$nb" 6)))
}
kv() { tr ' ' '\n' < /tmp/lb.kv | sed -n "s/^$1=//p"; }
# lb ARGS...: lunqbench --verify over 0-16m of lq0, lq1 and lq2; lb1 DEV
# ARGS...: the same on /dev/mapper/DEV alone
lb() { lb_on "/dev/mapper/lq0 /dev/mapper/lq1 /dev/mapper/lq2" "$@"; }
lb1() { _dev=$1; shift; lb_on "/dev/mapper/$_dev" "$@"; }
lb_on() {
	_devs=$1
	shift
	# shellcheck disable=SC2086
	timeout 60 lunqbench --verify --seed 5 --range 0-16m --interval 0 --kv "$@" \
		$_devs > /tmp/lb.out 2>&1
	_rc=$?
	tail -1 /tmp/lb.out > /tmp/lb.kv
	[ $_rc = 0 ] && [ "$(kv errors)" = 0 ] && [ "$(kv verify_errors)" = 0 ] ||
		{ cat /tmp/lb.out; fail "round $round: lunqbench exit $_rc"; }
}

# no lunq device exists at the start: unload whatever loaded us
if loaded; then
	expect rmmod dm_lunq
fi
[ ! -e /sys/kernel/lunq ] || fail "/sys/kernel/lunq without the module"
family && fail "netlink family lunq without the module"

rounds=$(scaled 10 3)
t0=$(now_ms)
total_issued=0 total_done=0 total_err=0
round=1
while [ $round -le $rounds ]; do
	expect modprobe dm-lunq
	[ -d /sys/kernel/lunq ] || fail "round $round: no /sys/kernel/lunq after modprobe"
	family || fail "round $round: no netlink family lunq after modprobe"
	lunq_create lq0 -l $mb16 $nb qdepth:4 sched:disksort || fail "round $round: create lq0"
	lunq_create lq1 -s $mb16 -l $mb16 $nb qdepth:8 pool:port0 pool_depth:4 ||
		fail "round $round: create lq1"
	lunq_create lq2 -s $((2 * mb16)) -l $mb16 $nb pool:port0 lun_depth:2 model:fixed svc_us:200 qdepth:4 ||
		fail "round $round: create lq2"
	for d in lq0 lq1 lq2; do
		[ -d "/sys/kernel/lunq/$d" ] || fail "round $round: no /sys/kernel/lunq/$d"
	done
	[ "$(status_field lq1 pool)" = port0 ] || fail "round $round: lq1 not in pool port0"

	if rmmod dm_lunq 2> /tmp/rmmod.err; then
		fail "round $round: rmmod dm_lunq succeeded with three lunq devices"
	fi
	loaded && [ -d /sys/kernel/lunq/lq0 ] && family ||
		fail "round $round: refused rmmod took the module, its sysfs or its family away"
	[ $round = 1 ] && diag "rmmod refused: $(cat /tmp/rmmod.err)"

	l0=$(lower_ios)
	if [ $round = 1 ]; then
		# every block of the three ranges written once
		for d in lq0 lq1 lq2; do
			lb1 "$d" --bs 64k --rdpct 0 --seekpct 0 --ios 256 --iodepth 4
		done
		diag "round 1: 3 x 16 MiB written"
	fi
	lb --bs 4k --rdpct 50 --seekpct 100 --iodepth 8 --ios 300
	issued=$(($(kv ios) + $(kv errors)))
	[ $round = 1 ] && issued=$((issued + 768))
	done_lq=0 err_lq=0
	for d in lq0 lq1 lq2; do
		counters_consistent "$d" || fail "round $round: $d holds IO after the load"
		done_lq=$((done_lq + $(lq_stat "$d" reads) + $(lq_stat "$d" writes)))
		err_lq=$((err_lq + $(lq_stat "$d" errors)))
	done
	lower=$(($(lower_ios) - l0))
	[ "$done_lq" = "$issued" ] && [ "$lower" = "$issued" ] ||
		fail "round $round: lunqbench issued $issued, lunq completed $done_lq, lower device $lower"
	[ "$err_lq" = 0 ] || fail "round $round: lunq counted $err_lq errors"
	total_issued=$((total_issued + issued))
	total_done=$((total_done + done_lq))
	total_err=$((total_err + err_lq))

	for d in lq0 lq1 lq2; do
		dm_remove "$d" || fail "round $round: remove $d"
	done
	read -r r w < /sys/block/lq_nb/inflight
	[ "$r" = 0 ] && [ "$w" = 0 ] || fail "round $round: lower device inflight $r $w"
	expect rmmod dm_lunq
	loaded && fail "round $round: module still loaded"
	[ ! -e /sys/kernel/lunq ] || fail "round $round: /sys/kernel/lunq outlived the module"
	family && fail "round $round: netlink family lunq outlived the module"
	round=$((round + 1))
done
diag "$rounds rounds in $(( ($(now_ms) - t0) / 1000 )) s"
ok "$rounds rounds: modprobe, 3 devices (one pool), rmmod refused, verify load, remove, rmmod; sysfs and netlink family came and went"
expect modprobe dm-lunq
# the last round's read pass of all that the rounds wrote
lq_ok=1
lunq_create lq0 -l $mb16 $nb || lq_ok=0
lunq_create lq1 -s $mb16 -l $mb16 $nb || lq_ok=0
lunq_create lq2 -s $((2 * mb16)) -l $mb16 $nb || lq_ok=0
[ $lq_ok = 1 ] || fail "create for the read pass"
for d in lq0 lq1 lq2; do
	lb1 "$d" --bs 64k --rdpct 100 --seekpct 0 --ios 256 --iodepth 4
done
ok "read pass over the 3 x 16 MiB after $rounds module instances: every block intact"
total_issued=$((total_issued + 768))
total_done=$((total_done + $(lq_stat lq0 reads) + $(lq_stat lq1 reads) + $(lq_stat lq2 reads)))
io_report module-reload "$total_issued" "$total_done" "$total_err"
