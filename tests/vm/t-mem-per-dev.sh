# Memory per device (kmod/dm-lunq.rst, "Memory per device"): 200 devices
# on 1 MiB slices of one null_blk, one set at a time -- dm-linear, lunq
# qdepth:32, lunq qdepth:32 auto:knee -- each created in one dmsetup call
# (--concise) and removed before the next; the kernel memory a set adds is
# Slab + Percpu + VmallocUsed of /proc/meminfo (the counters are per-CPU
# memory, the histograms and the state vmalloc'd: slab alone would miss
# them), caches dropped before each reading.  Per device, beyond dm-linear's:
#  - lunq qdepth:32 at most 64 KiB (issue 65's target): what
#    kmod/dm-lunq.rst's layout adds up to at 2 CPUs (49 KiB: 36 of
#    histograms in 32-bit live counts, 12 the device's context, 0.9 the
#    per-CPU counters) and about 10 for sysfs entries (measured +58 and
#    +60); histograms in 64-bit counts (96 KiB, +119..+122 measured)
#    fail it;
#  - lunq auto:knee at most 84 KiB: the same and auto's window of 20 KiB
#    (measured +78, +79), above the issue's 64 (kmod/dm-lunq.rst says what
#    would take it there); a window in 64-bit counts (40 KiB) fails it.
# Not in make test (quick mode without LUNQ_FULL=1: it skips, time 0):
# 600 devices made and removed and six readings take 34 s on TCG, and the
# plain-clock VM share of tests/budget is full to the second; make
# test-full (LUNQ_FULL=1) and `tests/run --vm mem-per-dev` measure.
# group: stats
# time: 0
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

[ "${LUNQ_QUICK:-0}" = 1 ] && [ "${LUNQ_FULL:-0}" != 1 ] &&
	skip "quick mode: 600 devices made and removed (make test-full measures)"
N=200
SLICE=2048		# sectors per device: 1 MiB
# what a lunq device may cost beyond a dm-linear one (KiB)
MAX_LQ=64
MAX_AUTO=84

nb=$(nullb_create mem_nb $(( (N * SLICE / 2048) + 1 ))) || fail "null_blk setup"

# kernel memory in KiB, caches dropped (twice: freeing dentries frees
# inodes, slabs are returned after)
kmem() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 3 > /proc/sys/vm/drop_caches
	awk '/^(Slab|Percpu|VmallocUsed):/ { s += $2 } END { print s }' /proc/meminfo
}

# set_kib NAME TARGET_ARGS...: KiB per device that N devices of "TARGET
# ARGS" on the slices add (the table: 0 SLICE TARGET $nb OFFSET ARGS)
set_kib() {
	_name=$1
	shift
	_spec=
	for _i in $(seq 0 $((N - 1))); do
		_spec="$_spec${_spec:+;}m$_name$_i,,,rw,0 $SLICE $1 $nb $((_i * SLICE))${2:+ $2}"
	done
	_k0=$(kmem) _t0=$(now_ms)
	dmsetup create --noudevsync --concise "$_spec" > /tmp/mem.out 2>&1 ||
		{ cat /tmp/mem.out; fail "creating $N $_name devices"; }
	[ "$(dmsetup ls | grep -c "^m$_name")" = $N ] || fail "$_name: not $N devices"
	_k1=$(kmem) _t1=$(now_ms)
	# the only dm devices in the VM (suite.sh removes every test's)
	dmsetup remove_all --noudevsync || fail "removing the $_name devices"
	diag "$_name: $((_k1 - _k0)) KiB for $N devices; created in $((_t1 - _t0)) ms, removed in $(($(now_ms) - _t1)) ms" >&2
	echo $(( (_k1 - _k0) / N ))
}

lin=$(set_kib lin linear) || exit 1
lq=$(set_kib lq lunq "1 qdepth:32") || exit 1
au=$(set_kib au lunq "2 qdepth:32 auto:knee") || exit 1
diag "KiB per device (Slab+Percpu+VmallocUsed, $(nproc) CPUs): dm-linear $lin, lunq qdepth:32 $lq (+$((lq - lin))), lunq auto:knee $au (+$((au - lin)))"
[ "$lin" -gt 0 ] || fail "dm-linear adds no memory: the measurement sees nothing"
[ $((lq - lin)) -le $MAX_LQ ] ||
	fail "lunq qdepth:32: $((lq - lin)) KiB more than dm-linear (limit $MAX_LQ)"
ok "lunq qdepth:32 $lq KiB per device, dm-linear $lin: at most $MAX_LQ KiB more"
[ $((au - lin)) -le $MAX_AUTO ] ||
	fail "lunq auto:knee: $((au - lin)) KiB more than dm-linear (limit $MAX_AUTO)"
ok "lunq auto:knee $au KiB per device: at most $MAX_AUTO KiB more than dm-linear"
