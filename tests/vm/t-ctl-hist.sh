# lunqctl hist against the kernel's histograms read through sysfs and
# against the load fio generated (the observers):
#  - --size quantize: the 4096 row holds the 1024 4 KiB reads, the 16384
#    row the 128 16 KiB writes, nothing else;
#  - quantize rows of the read service histogram = sysfs's rows, line by
#    line; their sum = reads; service p50 >= the device's 2 ms;
#  - --json count and p50/p99/p99.9 = sysfs hist count and percentiles;
#  - --lquantize 0,20ms,1ms: rows sum to the count;
#  - bad arguments exit 1, unknown device 2.
# group: ctl stats
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=2000000) || fail "null_blk setup"
lc 0 create lq "$nb" qdepth=4
fio --name=r --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randread \
	--bs=4k --size=4M --iodepth=16 --output-format=terse > /dev/null || fail "fio reads"
fio --name=w --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --rw=randwrite \
	--bs=16k --size=2M --iodepth=4 --output-format=terse > /dev/null || fail "fio writes"

lc 0 hist lq --size --quantize
sed 's/^/# /' /tmp/lc.out
awk '/\|/ && $1 ~ /^[0-9]+$/ { c[$1] = $NF; n += $NF } END {
	exit !(c[4096] == 1024 && c[16384] == 128 && n == 1152) }' /tmp/lc.out ||
	fail "size rows: want 1024 at 4096, 128 at 16384, nothing else"
ok "size quantize: 1024 x 4096, 128 x 16384 (fio's IOs)"

lc 0 hist lq --service --read --quantize
awk '/\|/ && $1 ~ /^[0-9]+$/ && $NF > 0 { print $1, $NF }' /tmp/lc.out > /tmp/rows.ctl
awk 'NF == 2 && $1 ~ /^[0-9]+$/ && $1 != "count" { print }' /sys/kernel/lunq/lq/hist/service_read > /tmp/rows.sys
[ -s /tmp/rows.ctl ] && cmp -s /tmp/rows.ctl /tmp/rows.sys ||
	{ paste /tmp/rows.ctl /tmp/rows.sys; fail "service quantize rows differ from sysfs"; }
[ "$(awk '{ n += $2 } END { print n }' /tmp/rows.ctl)" = 1024 ] || fail "service rows do not sum to 1024"
ok "service read quantize rows = sysfs rows ($(wc -l < /tmp/rows.ctl) rows, 1024 IOs)"

lc 0 hist lq --service --read --json
js() { sed 's/.*"'"$1"'":\([0-9]*\).*/\1/' /tmp/lc.out; }
for k in count p50 p99 p99.9; do
	[ "$(js "$k")" = "$(lq_hist lq service_read "$k")" ] ||
		fail "--json $k $(js "$k"), sysfs $(lq_hist lq service_read "$k")"
done
[ "$(js p50)" -ge 2000000 ] || fail "service p50 $(js p50) ns < the device's 2 ms"
ok "--json: count, p50, p99, p99.9 = sysfs; service p50 $(js p50) ns >= 2 ms"

lc 0 hist lq --total --write -l 0,20ms,1ms
sed 's/^/# /' /tmp/lc.out
[ "$(awk '/\|/ { n += $NF } END { print n }' /tmp/lc.out)" = 128 ] || fail "lquantize rows do not sum to 128"
lc 0 hist lq --percentiles
grep -c '^p99 ' /tmp/lc.out | grep -qx 2 || { cat /tmp/lc.out; fail "--percentiles: want reads and writes"; }
ok "lquantize rows sum to 128 writes; --percentiles for reads and writes"

lc 1 hist lq --size --read; lc_err "--size"
lc 1 hist lq -l 5,1,1; lc_err "--lquantize"
lc 1 hist lq --json -q
lc 1 hist; lc_err "usage: lunqctl hist"
lc 2 hist nosuch; lc_err "no lunq device"
ok "bad arguments exit 1, unknown device 2"
