# Service-time models, measured with fio (random 4 KiB reads) on null_blk:
#  flash  channels:4 svc_us:5000: IOPS at QD4 >= 0.8 * 4 x IOPS at QD1
#         (throughput grows with queue depth up to the channel count);
#  hdd    seek_ms:8 rpm:7200 behind a qdepth:1 host (a disk without NCQ),
#         QD32 load: sched:disksort >= 1.3 x sched:fifo (LBA order matters);
#  pblk   pblk:4096 on flash channels:2 svc_us:1000: the vdbench offset
#         scan of seed 002 (offset 0..4096 step 512): every aligned offset
#         >= 3 x every misaligned one; the device advertises
#         physical_block_size 4096.
# Ratios within one run; the figures are printed.
# group: qfull timing
# time: 45
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 hw_queue_depth=256) || fail "null_blk setup"
sz=$(sectors "$nb")

# iops QD SECONDS [FIO ARGS]: read IOPS of fio on /dev/mapper/lq
iops() {
	_qd=$1 _t=$2
	shift 2
	fio --name=m --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth="$_qd" --time_based --runtime="$_t" \
		--output-format=terse --terse-version=3 "$@" > /tmp/fio.m 2>&1 ||
		{ cat /tmp/fio.m >&2; fail "fio failed"; }
	[ "$(fio_terse /tmp/fio.m 5)" = 0 ] || fail "fio reported errors"
	fio_terse /tmp/fio.m 8
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
atleast() { awk -v r="$1" -v m="$2" 'BEGIN { exit !(r >= m) }'; }

lunq_create lq $nb model:flash channels:4 svc_us:5000 || fail "create flash"
q1=$(iops 1 3) q4=$(iops 4 3)
r=$(ratio "$q4" "$q1")
diag "flash channels:4 svc_us:5000: QD1 $q1 IOPS, QD4 $q4 IOPS, ratio $r (want >= 3.2)"
atleast "$r" 3.2 || fail "flash: QD4/QD1 = $r < 0.8 * 4"
ok "flash: QD4 gives $r x QD1 with 4 channels"
dm_remove lq

lunq_create lq $nb model:hdd seek_ms:8 rpm:7200 qdepth:1 sched:fifo || fail "create hdd"
fifo=$(iops 32 4)
expect dmsetup message lq 0 set sched:disksort
ds=$(iops 32 4)
r=$(ratio "$ds" "$fifo")
diag "hdd seek_ms:8 rpm:7200 qdepth:1, QD32 random reads: fifo $fifo IOPS, disksort $ds IOPS, ratio $r (want >= 1.3)"
atleast "$r" 1.3 || fail "hdd: disksort/fifo = $r < 1.3"
ok "hdd: disksort gives $r x fifo"
dm_remove lq

lunq_create lq $nb model:flash channels:2 svc_us:1000 pblk:4096 || fail "create pblk"
pbs=$(cat "$(dm_sysfs lq)/queue/physical_block_size")
[ "$pbs" = 4096 ] || fail "physical_block_size $pbs, want 4096"
diag "offset scan, pblk:4096 (rmw_x 5), 4 KiB random reads QD8:"
diag "offset   IOPS"
: > /tmp/scan
for off in 0 512 1024 1536 2048 2560 3072 3584 4096; do
	v=$(iops 8 2 --offset="$off" --size=64m)
	printf '# %6s %6s\n' "$off" "$v"
	echo "$off $v" >> /tmp/scan
done
worst_al=$(awk '$1 % 4096 == 0 { if (m == "" || $2 < m) m = $2 } END { print m }' /tmp/scan)
best_mis=$(awk '$1 % 4096 != 0 { if ($2 > m) m = $2 } END { print m }' /tmp/scan)
r=$(ratio "$worst_al" "$best_mis")
diag "slowest aligned $worst_al IOPS / fastest misaligned $best_mis IOPS = $r (want >= 3)"
atleast "$r" 3 || fail "pblk: aligned/misaligned = $r < 3"
ok "pblk: aligned offsets give $r x the misaligned ones"
dm_remove lq
