# Counters and histograms (kmod/dm-lunq.rst, "Statistics", "sysfs"),
# checked against independent observers:
#  - fio's own counts for fixed-size jobs (exact): reads, writes, sectors;
#    the dm device's diskstats agree as well;
#  - every latency histogram holds exactly one value per read or write;
#  - mean service time between the device latency and fio's latency mean on a
#    null_blk with 2 ms completions and no throttle (nothing waits);
#  - the alignment and size histograms match jobs with known offsets and
#    sizes (align.d's views), and so do misaligned_4k and size_not_4k;
#  - discards count their sectors; "stats reset" (message) zeroes every
#    counter and histogram and moves crtime_ns (counters' start) to now.
# group: stats
# time: 15
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=2000000 discard=1 cache_size=16) ||
	fail "null_blk setup"
lunq_create lq $nb || fail "create"
dm=$(dm_sysfs lq) || fail "no sysfs for lq"
S=/sys/kernel/lunq/lq
[ -d $S ] || fail "no $S"
[ "$(readlink -f /sys/kernel/lunq/by-dev/"$(basename "$dm")")" = "$(readlink -f $S)" ] ||
	fail "by-dev/$(basename "$dm") does not lead to $S"
ok "sysfs directory $S, linked from by-dev/$(basename "$dm")"

# 1. fixed-size mixed job: fio's counts are exact
r0=$(disk_stat "$dm" 1) w0=$(disk_stat "$dm" 5)
fio --name=mix --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randrw --rwmixread=60 --bs=4k --size=8m --iodepth=8 \
	--randrepeat=1 --output-format=terse --terse-version=3 > /tmp/fio.mix 2>&1 ||
	{ cat /tmp/fio.mix; fail "fio"; }
fr=$(( $(fio_terse /tmp/fio.mix 6) / 4 ))
fw=$(( $(fio_terse /tmp/fio.mix 47) / 4 ))
lr=$(lq_stat lq reads) lw=$(lq_stat lq writes)
diag "fio: $fr reads $fw writes; lunq: $lr reads $lw writes; diskstats: $(( $(disk_stat "$dm" 1) - r0 )) reads $(( $(disk_stat "$dm" 5) - w0 )) writes"
[ "$fr" -gt 0 ] && [ "$fw" -gt 0 ] || fail "fio did no IO"
[ "$lr" = "$fr" ] && [ "$lw" = "$fw" ] || fail "counts differ from fio's"
[ "$(lq_stat lq read_sectors)" = $((fr * 8)) ] &&
	[ "$(lq_stat lq write_sectors)" = $((fw * 8)) ] || fail "sector counts"
[ "$(( $(disk_stat "$dm" 1) - r0 ))" = "$lr" ] &&
	[ "$(( $(disk_stat "$dm" 5) - w0 ))" = "$lw" ] || fail "diskstats differ"
[ "$(lq_stat lq completed)" = $((lr + lw)) ] &&
	[ "$(lq_stat lq dispatched)" = $((lr + lw)) ] &&
	[ "$(lq_stat lq errors)" = 0 ] || fail "completed/dispatched/errors: $(cat $S/snapshot)"
ok "reads $lr writes $lw equal fio's and diskstats; sectors, completed, dispatched agree"

for h in wait service total; do
	[ "$(lq_hist lq ${h}_read count)" = "$lr" ] &&
		[ "$(lq_hist lq ${h}_write count)" = "$lw" ] ||
		fail "hist $h: counts $(lq_hist lq ${h}_read count)/$(lq_hist lq ${h}_write count)"
	# rows add up to the count
	for d in read write; do
		awk -v n="$(lq_hist lq ${h}_$d count)" '$1 ~ /^[0-9]+$/ { s += $2 }
			END { exit s != n }' $S/hist/${h}_$d || fail "rows of ${h}_$d"
	done
done
[ "$(lq_hist lq size count)" = $((lr + lw)) ] && [ "$(lq_hist lq size 4096)" = $((lr + lw)) ] ||
	fail "size histogram: $(cat $S/hist/size)"
ok "wait/service/total histograms hold one value per read and write; size: all 4096"

# 2. mean service time vs fio's clat mean (no throttle: nothing waits)
echo 1 > $S/reset
fio --name=svc --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randread --bs=4k --number_ios=600 --iodepth=1 \
	--output-format=terse --terse-version=3 > /tmp/fio.svc 2>&1 ||
	{ cat /tmp/fio.svc; fail "fio"; }
clat_us=$(fio_terse /tmp/fio.svc 16)
lat_us=$(fio_terse /tmp/fio.svc 40)	# slat + clat: from io_submit's call
svc_us=$(awk -v s="$(lq_hist lq service_read sum)" -v n="$(lq_hist lq service_read count)" \
	'BEGIN { printf "%.1f", s / n / 1000 }')
diag "mean service: lunq $svc_us us, fio clat mean $clat_us us, lat mean $lat_us us"
# Each IO's service interval in lunq lies inside fio's total-latency interval
# of the same IO (QD1: io_submit's call to the reaped completion), and
# null_blk completes no sooner than completion_nsec: so 2 ms <= lunq's mean
# <= fio's lat mean (+1% for the two clocks), however slow TCG is this round
# (a fixed ratio to fio's clat mean would not hold under a loaded host).
awk -v a="$svc_us" -v b="$lat_us" 'BEGIN { exit !(a >= 2000 && a <= 1.01 * b) }' ||
	fail "service mean $svc_us us outside [2000 us (device), $lat_us us (fio's lat mean)]"
ok "mean service time $svc_us us between the device's 2 ms and fio's lat mean $lat_us us"

# 3. alignment: 100 reads at 512 + k*4096 (all aligned to 512 exactly),
# then 64 KiB reads at k*64 KiB, k = 0..31 (offset 0 counts as 2^41)
echo 1 > $S/reset
fio --name=a512 --filename=/dev/mapper/lq --direct=1 --ioengine=psync \
	--rw=read --bs=4k --offset=512 --number_ios=100 \
	--output-format=terse --terse-version=3 > /tmp/fio.a 2>&1 || { cat /tmp/fio.a; fail "fio"; }
[ "$(lq_hist lq align 512)" = 100 ] && [ "$(lq_hist lq align count)" = 100 ] &&
	[ "$(lq_stat lq misaligned_4k)" = 100 ] && [ "$(lq_stat lq size_not_4k)" = 0 ] ||
	fail "offset 512: $(cat $S/hist/align) misaligned_4k=$(lq_stat lq misaligned_4k)"
echo 1 > $S/reset
fio --name=a64k --filename=/dev/mapper/lq --direct=1 --ioengine=psync \
	--rw=read --bs=64k --size=2m --output-format=terse --terse-version=3 > /tmp/fio.a 2>&1 ||
	{ cat /tmp/fio.a; fail "fio"; }
want=$(awk 'BEGIN { for (k = 0; k < 32; k++) { o = k * 65536
		if (o == 0) { r[2199023255552]++; continue }
		p = 1; while (o % (p * 2) == 0) p *= 2; r[p]++ }
	for (p in r) print p, r[p] }' | sort -n)
got=$(awk '$1 ~ /^[0-9]+$/ { print $1, $2 }' $S/hist/align | sort -n)
diag "align rows for 64 KiB reads at k*64 KiB: $(echo "$got" | tr '\n' ',')"
[ "$got" = "$want" ] || fail "align rows: want $(echo "$want" | tr '\n' ',')"
[ "$(lq_stat lq misaligned_4k)" = 0 ] && [ "$(lq_hist lq size 65536)" = 32 ] || fail "64 KiB job"
echo 1 > $S/reset
fio --name=s512 --filename=/dev/mapper/lq --direct=1 --ioengine=psync \
	--rw=randread --bs=512 --number_ios=50 --output-format=terse --terse-version=3 > /tmp/fio.a 2>&1 ||
	{ cat /tmp/fio.a; fail "fio"; }
[ "$(lq_stat lq size_not_4k)" = 50 ] && [ "$(lq_hist lq size 512)" = 50 ] ||
	fail "512-byte job: size_not_4k=$(lq_stat lq size_not_4k)"
ok "align histogram matches known offsets (512: 100 of 100; 64 KiB job row by row); misaligned_4k, size_not_4k, size rows exact"

# 4. discards and flushes
/usr/sbin/blkdiscard -o 1048576 -l 1048576 /dev/mapper/lq || fail "blkdiscard"
[ "$(lq_stat lq discard_sectors)" = 2048 ] && [ "$(lq_stat lq discards)" -ge 1 ] ||
	fail "discards=$(lq_stat lq discards) discard_sectors=$(lq_stat lq discard_sectors)"
f0=$(lq_stat lq flushes) d0=$(disk_stat "$nb" 16)
fio --name=fl --filename=/dev/mapper/lq --direct=1 --ioengine=psync --rw=write \
	--bs=4k --number_ios=10 --fsync=1 --output-format=terse --terse-version=3 > /tmp/fio.a 2>&1 ||
	{ cat /tmp/fio.a; fail "fio"; }
fl=$(( $(lq_stat lq flushes) - f0 )) dfl=$(( $(disk_stat "$nb" 16) - d0 ))
diag "fio write+fsync x10: lunq flushes +$fl, lower device diskstats flushes +$dfl"
[ "$fl" -ge 9 ] && [ "$fl" = "$dfl" ] || fail "flushes: lunq +$fl, diskstats +$dfl"
ok "discard_sectors 2048 for a 1 MiB discard; flushes +$fl as the lower device's diskstats"

# 5. "stats reset" zeroes every counter and histogram
c0=$(cat $S/stats/crtime_ns)
dmsetup message lq 0 stats reset || fail "stats reset"
awk '$1 !~ /^(throttle|snaptime_ns|crtime_ns)$/ && $2 != 0 { print; bad = 1 } END { exit bad }' \
	$S/snapshot || fail "counters left after stats reset"
# crtime_ns: the counters start again now (creation before, reset now)
c1=$(awk '$1 == "crtime_ns" { print $2 }' $S/snapshot)
s1=$(awk '$1 == "snaptime_ns" { print $2 }' $S/snapshot)
[ "$c1" -gt "$c0" ] && [ "$c1" -le "$s1" ] || fail "crtime_ns $c0 -> $c1 at reset (snaptime $s1)"
for h in $S/hist/*; do
	[ "$(awk '$1 == "count" { print $2 }' "$h")" = 0 ] || fail "$(basename "$h") not zeroed"
done
ok "stats reset zeroes every counter and histogram"

dm_remove lq || fail "remove"
[ ! -e $S ] || fail "$S left after remove"
cleanup_all
