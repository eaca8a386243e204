# make demo (for now): a lunq device over a null_blk with 1 ms completions,
# fio traffic through it and through dm-linear side by side, and what
# dmsetup shows.  Later issues replace this with the latency-bubble and
# per-LUN-throttle demonstrations.
. "$LUNQ_SRC/tests/vm/lib.sh"
say() { printf '\n== %s\n' "$*"; }

modprobe null_blk nr_devices=0
mkdir $CFG/demo && echo 1024 > $CFG/demo/size &&
	echo 2 > $CFG/demo/irqmode && echo 1000000 > $CFG/demo/completion_nsec &&
	echo 1 > $CFG/demo/power || fail "null_blk"
sz=$(sectors /dev/demo)
dm_create lunq0 "0 $sz lunq /dev/demo 0" || fail "create lunq0"
dm_create linear0 "0 $sz linear /dev/demo 0" || fail "create linear0"
say "devices"
dmsetup table
for dev in linear0 lunq0; do
	say "fio 4 KiB random reads, QD16, 10 s on $dev (null_blk: 1 ms per IO)"
	fio --name=$dev --filename=/dev/mapper/$dev --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=16 --runtime=10 --time_based \
		--group_reporting | grep -E 'IOPS|clat \(|lat \(usec\)|99.00th'
done
say "dmsetup status lunq0 (inflight, sent, completed)"
dmsetup status lunq0
say "iostat view of lunq0 (/sys/block/dm-N/stat: reads, merges, sectors, ms, ...)"
cat "$(dm_sysfs lunq0)/stat"
