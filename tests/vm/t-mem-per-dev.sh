# Memory per device (kmod/dm-lunq.rst, "Memory per device"): N devices
# a set on 1 MiB slices of one null_blk -- dm-linear, lunq qdepth:32,
# lunq qdepth:32 auto:knee -- each set created in one dmsetup call
# (--concise).  The kernel memory a set adds is counted as memory in use
# (kmem below): the slab objects, each at its share of its slab,
# VmallocUsed (the context and histograms, the threads' stacks) and
# Percpu (the counters).  /proc/meminfo's Slab counts slab pages, and
# how many free slots earlier tests left in the caches moved it: after
# make test's VM tests before this one, dm-linear's set came out 9 KiB a
# device cheaper than alone and lunq's 6 to 11 more than dm-linear's
# (CI failed at auto +90.8).  A few devices of each kind are made first
# (what a kind costs once), and every set is kept until the last is
# measured.  Per device, beyond dm-linear's (issue 65's target is 64 KiB;
# not met):
#  - lunq qdepth:32 at most 78 KiB: one vmalloc'd block of 11 pages (the
#    context 9.0 KiB and the histograms 32.3 KiB), 0.9 KiB of per-CPU
#    counters at 2 CPUs, about 18 KiB of sysfs entries and 7 of dm's
#    reserved bios for the per-bio data (measured +69.3..+72.1, four runs:
#    two alone, two after make test's VM tests before this one);
#  - lunq auto:knee at most 88 KiB: the same block with auto's window in
#    it, 13 pages (measured +76.5..+78.5).
# The limits leave about 6 and 10 KiB above the highest figure measured:
# two pages more a device are caught.  Quick mode (make test): 64
# devices a set, 7 s; LUNQ_FULL=1: 200.  The sets are removed side by side
# (their RCU grace periods overlap): removals were most of the time.
# group: stats
# time: 10
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

N=200
[ "${LUNQ_QUICK:-0}" = 1 ] && [ "${LUNQ_FULL:-0}" != 1 ] && N=64
SLICE=2048		# sectors per device: 1 MiB
# what a lunq device may cost beyond a dm-linear one (KiB)
MAX_LQ=78
MAX_AUTO=88

WARM=4			# devices of each kind made and removed first
nb=$(nullb_create mem_nb $(( (3 * (N + WARM) * SLICE / 2048) + 1 ))) || fail "null_blk setup"

# kmem: kernel memory in use in KiB, "SLAB VMALLOC PERCPU": caches
# dropped (twice: freeing dentries frees inodes), every slab cache shrunk
# (its CPUs' slabs flushed, empty slabs freed), then the slab objects in
# use, each at its share of its slab (slab bytes / objects a slab: the
# count does not depend on how many free slots earlier tests left in the
# caches, which /proc/meminfo's Slab does), VmallocUsed and Percpu
kmem() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 3 > /proc/sys/vm/drop_caches
	for _c in /sys/kernel/slab/*/shrink; do echo 1 > "$_c"; done 2>/dev/null
	awk '	NR > 2 { s += $2 * $6 * 4 / $5 }	# x86: 4 KiB pages
		END { printf "%d ", s }' /proc/slabinfo
	awk '/^VmallocUsed:/ { v = $2 } /^Percpu:/ { p = $2 }
		END { print v, p }' /proc/meminfo
}
# sum "A B C": their sum
sum() { echo $(($1 + $2 + $3)); }

# mk NAME COUNT FIRST TARGET [ARGS]: COUNT devices mNAME0.. of "TARGET
# ARGS" on the slices from FIRST on (the table: 0 SLICE TARGET $nb OFFSET
# ARGS), in one dmsetup call
mk() {
	_spec=
	for _i in $(seq 0 $(($2 - 1))); do
		_spec="$_spec${_spec:+;}m$1$_i,,,rw,0 $SLICE $4 $nb $(((_i + $3) * SLICE))${5:+ $5}"
	done
	dmsetup create --noudevsync --concise "$_spec" > /tmp/mem.out 2>&1 ||
		{ cat /tmp/mem.out; fail "creating $2 $1 devices"; }
	[ "$(dmsetup ls | grep -c "^m$1")" = "$2" ] || fail "$1: not $2 devices"
}

# set_kib NAME FIRST TARGET [ARGS]: the KiB that N devices of "TARGET
# ARGS" add, on top of the sets made before (kept: no object a set frees
# is taken by the next one), from the reading in $K on; $K becomes the
# reading after
set_kib() {
	_t0=$(now_ms)
	mk "$1" $N "$2" "$3" "$4"
	_p1=$(kmem)
	_k1=$(sum $_p1)
	# shellcheck disable=SC2086
	diag "$1: $((_k1 - K)) KiB for $N devices (slab, vmalloc, per-CPU:$(printf ' %d' $(echo $_p1 $P | awk '{ print $1 - $4, $2 - $5, $3 - $6 }'))); created in $(($(now_ms) - _t0)) ms"
	_kib=$((_k1 - K))
	[ "${_p1%% *}" -gt "${P%% *}" ] || fail "$1: no slab object more: the measurement sees nothing"
	K=$_k1 P=$_p1
}

# kib_per TOTAL: KiB per device, one decimal
kib_per() { awk -v t="$1" -v n=$N 'BEGIN { printf "%.1f", t / n }'; }
# within TOTAL BASE MAX: at most MAX KiB per device more than BASE (totals)
within() { [ $(( $1 - $2 )) -le $(( $3 * N )) ]; }

# what a first device of each kind costs once (caches of its objects,
# its per-bio data's) is paid before: a few of each made, kept (a device
# removed would leave its objects free for the next set to take)
mk wl $WARM $((3 * N)) linear
mk wq $WARM $((3 * N + WARM)) lunq "1 qdepth:32"
mk wa $WARM $((3 * N + 2 * WARM)) lunq "2 qdepth:32 auto:knee"

P=$(kmem)
# shellcheck disable=SC2086
K=$(sum $P)
set_kib lin 0 linear
lin=$_kib
set_kib lq $N lunq "1 qdepth:32"
lq=$_kib
set_kib au $((2 * N)) lunq "2 qdepth:32 auto:knee"
au=$_kib
_t0=$(now_ms)
# a set's removals one after another, the sets side by side (each waits
# for RCU: their grace periods overlap)
for _g in lin lq au wl wq wa; do
	dmsetup ls | awk -v p="^m$_g[0-9]" '$1 ~ p { print $1 }' |
		xargs dmsetup remove --noudevsync &
done
wait
# the only dm devices in the VM (suite.sh removes every test's)
dmsetup remove_all --noudevsync || fail "removing the devices"
diag "$((3 * (N + WARM))) devices removed in $(($(now_ms) - _t0)) ms"
[ "$lin" -gt 0 ] || fail "dm-linear adds no memory: the measurement sees nothing"
diag "KiB per device ($N a set; slab objects + VmallocUsed + Percpu, $(nproc) CPUs): dm-linear $(kib_per $lin), lunq qdepth:32 $(kib_per $lq) (+$(kib_per $((lq - lin)))), lunq auto:knee $(kib_per $au) (+$(kib_per $((au - lin))))"
within "$lq" "$lin" $MAX_LQ ||
	fail "lunq qdepth:32: $(kib_per $((lq - lin))) KiB more than dm-linear (limit $MAX_LQ)"
ok "lunq qdepth:32 $(kib_per $lq) KiB per device, dm-linear $(kib_per $lin): at most $MAX_LQ KiB more"
within "$au" "$lin" $MAX_AUTO ||
	fail "lunq auto:knee: $(kib_per $((au - lin))) KiB more than dm-linear (limit $MAX_AUTO)"
ok "lunq auto:knee $(kib_per $au) KiB per device: at most $MAX_AUTO KiB more than dm-linear"
