# Memory pressure while IOs wait in lunq: lunq qdepth:2 with disksort over
# a memory-backed null_blk with 2 ms completions, lunqbench --verify at
# QD256 (about 250 IOs waiting in lunq all the time), mixed 4 KiB reads
# and writes.
#  1. balloon: a process allocating and touching all but ~40 MiB of the
#     VM's available memory (busybox dd with a huge block size, reading
#     /dev/zero into it over and over; oom_score_adj 1000, the test and
#     the load -1000) for the whole run, and half way a second one on top
#     that makes the OOM killer take one of them (reported, fine; a killed
#     big one is blown up again); MemAvailable is sampled to show the
#     pressure held (below 200 MiB in at least half of the samples);
#  2. memory cgroup (v2): the load runs inside a cgroup with memory.max
#     32 MiB next to balloons that fill it (one that fits, reclaimed
#     against; one that does not, OOM-killed by the memcg: counted from
#     memory.events).  Skipped (exit 77, after part 1 passed) only when
#     cgroup2 or its memory controller is missing.
# Each part: every IO the tool issued completed (lunq reads + writes = the
# tool's IOs, dispatched = completed, nothing left waiting, lower device
# inflight 0 0), no IO error, no verify error; no splat (suite.sh scans
# the kernel log; the OOM killer's report is not one).
# group: fault
# time-debug: 95
# time: 80
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=2000000 hw_queue_depth=64) ||
	fail "null_blk setup"
sz=$(sectors "$nb")
lunq_create lq $nb qdepth:2 sched:disksort || fail "create"
echo -1000 > /proc/self/oom_score_adj

secs=$(scaled 8 5)
kv() { tr ' ' '\n' < "$1" | sed -n "s/^$2=//p"; }
avail_mb() { awk '$1 == "MemAvailable:" { print int($2 / 1024) }' /proc/meminfo; }
vm_oom() { awk '$1 == "oom_kill" { print $2 }' /proc/vmstat; }
LB="lunqbench --verify --seed 3 --range 0-16m --interval 0 --kv"

# every block of the range written once
$LB --bs 64k --rdpct 0 --seekpct 0 --ios 256 --iodepth 4 /dev/mapper/lq > /tmp/lb.out 2>&1 ||
	{ cat /tmp/lb.out; fail "prefill"; }

# balloon MB [CGROUP]: dd holding an MB MiB buffer, touched at every read
# of /dev/zero, in the background (pid on stdout); oom_score_adj 1000
balloon() {
	sh -c '[ -z "$2" ] || echo $$ > "$2/cgroup.procs" || exit 1
		echo 1000 > /proc/self/oom_score_adj
		exec dd if=/dev/zero of=/dev/null bs=$(($1 * 1048576)) count=1000000' \
		balloon "$1" "${2:-}" > /dev/null 2>&1 &
	echo $!
}

# check PART OUT: the books after a load run whose kv line is OUT's last
check() {
	tail -1 "$2" > /tmp/kv.$1
	diag "$1: $(cat /tmp/kv.$1)"
	[ "$(kv /tmp/kv.$1 errors)" = 0 ] && [ "$(kv /tmp/kv.$1 verify_errors)" = 0 ] ||
		{ cat "$2"; fail "$1: IO or verify errors"; }
	counters_consistent lq || fail "$1: lunq holds IO after the load"
	read -r _r _w < /sys/block/lq_nb/inflight
	[ "$_r" = 0 ] && [ "$_w" = 0 ] || fail "$1: lower device inflight $_r $_w"
	issued=$(($(kv /tmp/kv.$1 ios) + $(kv /tmp/kv.$1 errors)))
	done_lq=$(($(lq_stat lq reads) + $(lq_stat lq writes)))
	mw=$(lq_stat lq max_waiting)
	diag "$1: lunq reads+writes $done_lq errors $(lq_stat lq errors) max_waiting $mw"
	# on the debug kernel (LUNQ_SKIP_TIMING) lunqbench submits too slowly
	# under the balloon to keep 256 outstanding (13 waited at once inside
	# the 32 MiB cgroup in one run): IOs still wait behind qdepth:2
	_want=100
	[ "${LUNQ_SKIP_TIMING:-0}" = 1 ] && _want=4
	[ "$mw" -ge $_want ] || fail "$1: only $mw IOs waited at once (want >= $_want)"
	io_report "mempressure-$1" "$issued" "$done_lq" "$(lq_stat lq errors)"
}

# No transparent huge pages for the balloons: a huge page's fault zeroes
# 2 MiB (init_on_alloc) under reclaim and compaction without a resched;
# under TCG that once held a CPU 22 s (a soft lockup in dd, not in lunq).
# The VM's setting is put back when the test ends.
thp=/sys/kernel/mm/transparent_hugepage/enabled
thp_was=$(sed -n 's/.*\[\(.*\)\].*/\1/p' $thp 2>/dev/null)
[ -z "$thp_was" ] || { echo never > $thp; trap 'echo "$thp_was" > $thp' EXIT; }
# --- 1: a balloon of all available memory but ~40 MiB, for the whole run ---
expect dmsetup message lq 0 stats reset
a0=$(avail_mb) o0=$(vm_oom)
big=$((a0 - 40))
b1=$(balloon $big)
# wait until it holds its memory (or died)
for i in $(seq 150); do
	kill -0 "$b1" 2>/dev/null || break
	[ "$(avail_mb)" -lt 120 ] && break
	sleep 0.2
done
diag "balloon: $big MiB of $a0 MiB available; now $(avail_mb) MiB available"
$LB --bs 4k --rdpct 50 --seekpct 100 --iodepth 256 --elapsed "$secs" /dev/mapper/lq > /tmp/lb.1 2>&1 &
p=$!
# while the load runs: sample MemAvailable; half way, a second balloon of
# 256 MiB on top (more than there is: the OOM killer takes one of them);
# a killed big balloon is blown up again at once
t0=$(now_ms) b2= nsamp=0 nlow=0 amin=$a0 rebal=0
while kill -0 $p 2>/dev/null; do
	a=$(avail_mb)
	nsamp=$((nsamp + 1))
	[ "$a" -lt "$amin" ] && amin=$a
	[ "$a" -lt 200 ] && nlow=$((nlow + 1))
	if [ -z "$b2" ] && [ $(($(now_ms) - t0)) -ge $((secs * 500)) ]; then
		b2=$(balloon 256)
	fi
	if ! kill -0 "$b1" 2>/dev/null && [ "$a" -gt 200 ]; then
		b1=$(balloon $((a - 40)))
		rebal=$((rebal + 1))
	fi
	sleep 0.5
done
wait $p
rc=$?
kill "$b1" "$b2" 2>/dev/null
wait "$b1" "$b2" 2>/dev/null
[ $rc = 0 ] || { cat /tmp/lb.1; fail "balloon: lunqbench exit $rc"; }
diag "balloon: MemAvailable during the run: min $amin MiB, below 200 MiB in $nlow of $nsamp samples; big balloon blown up again $rebal times; OOM kills $(($(vm_oom) - o0)) (balloons only: the test and the load have oom_score_adj -1000)"
[ "$amin" -lt 120 ] && [ $((nlow * 2)) -ge "$nsamp" ] ||
	fail "balloon: too little pressure (MemAvailable min $amin MiB, low in $nlow of $nsamp samples)"
check balloon /tmp/lb.1
ok "balloon: $issued IOs through lunq with all but ~40 MiB taken most of the time, OOM kills of balloons $(($(vm_oom) - o0)): nothing lost, verify clean"

# --- 2: the load in a memory cgroup of 32 MiB ---
cg=/sys/fs/cgroup
if ! grep -q " $cg cgroup2 " /proc/mounts; then
	mkdir -p $cg
	mount -t cgroup2 none $cg 2>/dev/null || skip "balloon part passed; no cgroup2 (mount failed)"
fi
grep -qw memory $cg/cgroup.controllers || skip "balloon part passed; cgroup2 has no memory controller"
echo +memory > $cg/cgroup.subtree_control || fail "cannot enable the memory controller"
g=$cg/lq_mem
mkdir -p $g || fail "mkdir $g"
echo 32M > $g/memory.max || fail "memory.max"
[ -e $g/memory.swap.max ] && echo 0 > $g/memory.swap.max
ev() { awk -v k="$1" '$1 == k { print $2 }' $g/memory.events; }
k0=$(ev oom_kill)

expect dmsetup message lq 0 stats reset
sh -c 'echo $$ > "$1/cgroup.procs" && shift && exec "$@"' cg "$g" \
	$LB --bs 4k --rdpct 50 --seekpct 100 --iodepth 256 --elapsed "$secs" /dev/mapper/lq > /tmp/lb.2 2>&1 &
p=$!
sleep 0.5
b1=$(balloon 16 $g)
sleep 1
# one that cannot fit, again and again while the load runs (at least
# once); each gets up to 10 s to fill and be OOM-killed (on the debug
# kernel touching 48 MiB takes seconds)
while :; do
	b2=$(balloon 48 $g)
	t2=$(now_ms)
	while kill -0 "$b2" 2>/dev/null && [ $(($(now_ms) - t2)) -lt 10000 ]; do
		[ "$(ev max)" -gt 0 ] && [ $(($(now_ms) - t2)) -ge 1000 ] && break
		sleep 0.2
	done
	kill "$b2" 2>/dev/null
	wait "$b2" 2>/dev/null
	kill -0 $p 2>/dev/null || break
done
wait $p
rc=$?
peak=$(cat $g/memory.peak 2>/dev/null || cat $g/memory.current)
kill "$b1" 2>/dev/null
wait "$b1" 2>/dev/null
[ $rc = 0 ] || { cat /tmp/lb.2; fail "cgroup: lunqbench exit $rc"; }
kills=$(($(ev oom_kill) - k0))
diag "cgroup: memory.max 32M, peak/current $((peak / 1048576)) MiB, events: $(tr '\n' ' ' < $g/memory.events); OOM kills $kills (balloons)"
[ "$kills" -gt 0 ] || [ "$(ev max)" -gt 0 ] || fail "cgroup: the limit was never hit"
check cgroup /tmp/lb.2
rmdir $g 2>/dev/null
ok "cgroup: $issued IOs from inside a 32 MiB memory cgroup with balloons (OOM kills $kills, of balloons): nothing lost, verify clean"
