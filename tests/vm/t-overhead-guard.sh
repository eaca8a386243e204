# The overhead guard: lunq's guest instructions per IO against dm-linear's,
# under QEMU's instruction-counting clock (qemu/run LUNQ_ACCEL=icount),
# where a CPU-bound run's guest time is its instruction count and a round
# repeats to about 0.1% (doc/benchmarks.md, "Measuring overhead in
# instructions").
# 4 KiB randread QD32, libaio, one job on a null_blk that is not memory
# backed (bench/overhead.sh's part A), 1 s of guest time per run, a warm-up
# each, then two rounds in ABBA order:
#  - lunq with no options (the lock-free pass-through) / dm-linear;
#  - lunq qdepth:256 (the lock-free slot, never full) / dm-linear.
# Each ratio must stay at or below its limit: the figure this tree
# measures plus 0.02, so a regression that adds 2% of dm-linear's
# instructions per IO (about 225, two fifths of lunq's whole overhead
# when set) fails it; the spread of the rounds must stay below 0.005.
# Wall-clock time is never asserted: on any other clock this test skips.
# group: overhead
# time: 35
. "$LUNQ_SRC/tests/vm/lib.sh"

# limits (instructions per IO, lunq / dm-linear; see above)
# measured 2026-12-01, Debian 6.1.0-57: 1.0506 and 1.0507 (rounds
# 1.0505..1.0507, dm-linear 11,212, lunq 11,778, in tests/run --vm's icount
# boot); 1.0633 and 1.0633 before the lock-free busy period and the
# statistics of issue 49, 1.0726 and 1.0727 before the fast path's remap
# and the no-wait histograms
LIM_PASS=1.070
LIM_SLOT=1.070

[ "${LUNQ_VM_ACCEL:-}" = icount ] ||
	skip "instruction counts need QEMU's icount clock (this VM: ${LUNQ_VM_ACCEL:-unknown})"

nb=$(nullb_create ovh_nb 1024 memory_backed=0) || fail "null_blk"
sz=$(sectors "$nb")
dm_create g_linear "0 $sz linear $nb 0" || fail "dm-linear"
dm_create g_lunq "0 $sz lunq $nb 0" || fail "lunq"
dm_create g_slot "0 $sz lunq $nb 0 1 qdepth:256" || fail "lunq qdepth:256"

# instr DEV SECONDS: guest instructions per IO of one fio run on DEV
# (1e9 / 2^shift / IOPS: the CPU never idles in this CPU-bound run)
instr() {
	fio --name=g --filename="/dev/mapper/$1" --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=32 --time_based --runtime="$2" \
		--norandommap --output-format=terse --terse-version=3 > /tmp/g.out 2>&1 ||
		{ cat /tmp/g.out; fail "fio on $1"; }
	awk -F';' -v s="${LUNQ_ICOUNT_SHIFT:-0}" 'NR == 1 {
		d = 1e9; for (k = 0; k < s; k++) d /= 2
		if ($5 != 0 || $8 <= 0) exit 1
		printf "%.1f\n", d / $8 }' /tmp/g.out || { cat /tmp/g.out; fail "fio on $1: no IOPS"; }
}

for d in g_linear g_lunq g_slot; do
	instr $d 1 > /dev/null
done
pass= slot=
for r in 1 2; do
	if [ $r = 1 ]; then
		l1=$(instr g_linear 1) p=$(instr g_lunq 1) s=$(instr g_slot 1) l2=$(instr g_linear 1)
	else
		s=$(instr g_slot 1) p=$(instr g_lunq 1) l1=$(instr g_linear 1) l2=$l1
	fi
	lin=$(awk -v a="$l1" -v b="$l2" 'BEGIN { printf "%.1f", (a + b) / 2 }')
	rp=$(awk -v x="$p" -v l="$lin" 'BEGIN { printf "%.4f", x / l }')
	rs=$(awk -v x="$s" -v l="$lin" 'BEGIN { printf "%.4f", x / l }')
	note "round $r: instructions per IO: dm-linear $lin, lunq $p ($rp), lunq qdepth:256 $s ($rs)"
	pass="$pass $rp" slot="$slot $rs"
done

# check NAME "R1 R2" LIMIT
check() {
	echo "$2" | awk -v n="$1" -v lim="$3" '{
		lo = $1; hi = $1; for (i = 2; i <= NF; i++) { if ($i < lo) lo = $i; if ($i > hi) hi = $i }
		printf "%s %.4f %.4f\n", (hi <= lim && hi - lo < 0.005) ? "ok" : "bad", hi, hi - lo }' > /tmp/g.chk
	read -r v hi sp < /tmp/g.chk
	[ "$v" = ok ] || fail "$1: lunq/dm-linear instructions per IO $hi (spread $sp), limit $3 (spread 0.005)"
	ok "$1: lunq/dm-linear instructions per IO $hi (rounds$2, spread $sp) <= $3"
}
check "pass-through" "$pass" $LIM_PASS
check "qdepth:256, lock-free slot" "$slot" $LIM_SLOT
cleanup_all
