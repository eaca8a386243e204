# lunqctl's views for Linux users and align.d's readers:
# 1. stat -L (Linux iostat -x): a mixed load QD16 through qdepth:4 over
#    null_blk with 2 ms completions.  Observers: /proc/diskstats of the dm
#    device (its await counts each IO from its arrival at dm) and of
#    null_blk (from lunq's send).  Each IO's interval at null_blk starts
#    after lunq's device time starts, but blk-mq stamps its end after the
#    bio's completion ran through dm and lunq (__blk_mq_end_request): so
#    null_blk's await <= r_dev, w_dev + that chain, 0.2 ms allowed (13 us
#    seen under TCG).  dm's own await is counted in jiffies (4 ms at HZ=250,
#    bdev_start_io_acct): r_await, w_await and aqu-sz agree with it within
#    10% (the rounding errors average out; 10% is > 10 sigma here).  Reads,
#    writes and KiB equal the observers' counts exactly; QD16 through 4
#    must wait in lunq (r_lunq > r_dev).
# 2. misal / non4k per interval and lunqctl align's READ / WRITE / ALL:
#    100 reads of 4 KiB at 512 + k 4096, 50 writes of 512 bytes at 1 MiB
#    + k 512 (43 of them not on 4 KiB): the counts fio issued, exactly.
# 3. stat -C and align's totals: a pool of two devices and one outside it
#    (scsi_debug: vendor "Linux"): total rows = sums of the devices'
#    counters; align --vendor selects by the lower device's identity.
# 4. typed JSON (doc/json.md, schema 2): every JSON document of lunqctl
#    (list, show, stat, hist, align, events) has "schema": 2 and no string
#    that is a number; show's numeric settings are numbers.
# group: ctl
# time: 15
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=2000000 hw_queue_depth=64) ||
	fail "null_blk"
lc 0 create lq "$nb" qdepth=4 pool=p0 pool_depth=64
dm=$(dm_sysfs lq) || fail "no sysfs for lq"
nbn=$(basename "$nb")
echo none > "/sys/block/$nbn/queue/scheduler"	# no merges below: counts equal
ds() { awk '{ print $1, $3, $4, $5, $7, $8, $11 }' "$1"; }	# r rsec rms w wsec wms tiq
lc 0 reset lq
set -- $(ds "$dm/stat"); d0="$*"
set -- $(ds "/sys/block/$nbn/stat"); n0="$*"
fio --name=mix --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randrw --rwmixread=70 --bs=4k --iodepth=16 --number_ios=$(scaled 2000 600) \
	--size=64m --output-format=terse --terse-version=3 > /tmp/fio.mix 2>&1 ||
	{ cat /tmp/fio.mix; fail "fio"; }
set -- $(ds "$dm/stat"); d1="$*"
set -- $(ds "/sys/block/$nbn/stat"); n1="$*"
lc 0 stat -L -j lq
cp /tmp/lc.out /tmp/views.json
lunqctl stat -L lq | sed 's/^/# /'
# deltas of the observers: dm r rsec rms w wsec wms tiq, null_blk the same
obs=$(echo "$d0 $d1 $n0 $n1" | awk '{ for (i = 1; i <= 7; i++) printf "%s ", $(i + 7) - $i
	for (i = 15; i <= 21; i++) printf "%s ", $(i + 7) - $i }')
diag "diskstats deltas dm (r rsec rms w wsec wms tiq): $(echo "$obs" | cut -d' ' -f1-7); null_blk: $(echo "$obs" | cut -d' ' -f8-14)"
jq -r '.devices[0] | "\(.r_s * .interval_s) \(.w_s * .interval_s) \(.kr_s * .interval_s) \(.kw_s * .interval_s) \(.r_await_ms) \(.r_lunq_ms) \(.r_dev_ms) \(.w_await_ms) \(.w_lunq_ms) \(.w_dev_ms) \(.aqu_sz * .interval_s)"' \
	/tmp/views.json > /tmp/views.cols || fail "stat -L -j: $(cat /tmp/views.json)"
reads=$(lq_stat lq reads) writes=$(lq_stat lq writes)
res=$(echo "$(cat /tmp/views.cols) $obs $reads $writes" | awk '{
	r = $1; w = $2; kr = $3; kw = $4; ra = $5; rl = $6; rd = $7; wa = $8; wl = $9; wd = $10; aq = $11
	dr = $12; drs = $13; drms = $14; dw = $15; dws = $16; dwms = $17; dtq = $18
	nr = $19; nrs = $20; nrms = $21; nw = $22; nws = $23; nwms = $24
	lr = $26; lw = $27
	e = ""
	# counts: the view, lunq counters, dm and null_blk diskstats
	if (lr != dr || lr != nr || lw != dw || lw != nw) e = e sprintf(" counts lunq %d/%d dm %d/%d null_blk %d/%d;", lr, lw, dr, dw, nr, nw)
	# (a rate times interval_s, both printed to 3 decimals: off by up to
	# rate x 0.0005 s, 2.1 kB at 4158 kB/s -- 1/1000 of the product and
	# the rounding of the numbers themselves)
	if (r < lr - 1 - lr / 1000 || r > lr + 1 + lr / 1000 || w < lw - 1 - lw / 1000 || w > lw + 1 + lw / 1000) e = e sprintf(" r/s w/s x interval %.1f %.1f;", r, w)
	if (kr < drs / 2 - 2 - drs / 2000 || kr > drs / 2 + 2 + drs / 2000 || kw < dws / 2 - 2 - dws / 2000 || kw > dws / 2 + 2 + dws / 2000) e = e sprintf(" kB %.1f %.1f, dm %d %d;", kr, kw, drs / 2, dws / 2)
	# nesting (diskstats ms totals are truncated: +1 ms over all IOs)
	if (nrms / nr > rd + 0.2 + 1 / nr || nwms / nw > wd + 0.2 + 1 / nw) e = e sprintf(" null_blk await %.3f/%.3f > r_dev/w_dev %.3f/%.3f + 0.2 ms;", nrms / nr, nwms / nw, rd, wd)
	if (ra > 1.1 * drms / dr || wa > 1.1 * dwms / dw || ra < 0.9 * drms / dr || wa < 0.9 * dwms / dw)
		e = e sprintf(" r_await/w_await %.2f/%.2f, dm %.2f/%.2f: more than 10%% apart;", ra, wa, drms / dr, dwms / dw)
	if (rd < 2 || wd < 2) e = e sprintf(" r_dev/w_dev %.2f/%.2f < the device 2 ms;", rd, wd)
	if (rl <= rd || wl <= wd) e = e sprintf(" QD16 through 4 but r_lunq %.2f <= r_dev %.2f or w_lunq %.2f <= w_dev %.2f;", rl, rd, wl, wd)
	if (aq * 1000 > 1.1 * dtq || aq * 1000 < 0.9 * dtq) e = e sprintf(" aqu-sz x dt %.0f ms, dm time in queue %d ms;", aq * 1000, dtq)
	printf "r_await %.2f = %.2f lunq + %.2f dev (dm %.2f, null_blk %.2f); w_await %.2f = %.2f + %.2f (dm %.2f, null_blk %.2f)|%s\n",
		ra, rl, rd, drms / dr, nrms / nr, wa, wl, wd, dwms / dw, nwms / nw, e }')
diag "${res%%|*}"
[ -z "${res#*|}" ] || fail "stat -L:${res#*|}"
ok "stat -L: reads $reads, writes $writes = dm's = null_blk's; null_blk await <= r_dev, w_dev (+ completion chain); r_await, w_await, aqu-sz within 10% of dm's (jiffies); waits in lunq > device time at QD16 through 4"

# 2. misaligned and non-4k: per interval (stat -L) and split (align)
lc 0 reset lq
fio --name=rd --filename=/dev/mapper/lq --direct=1 --ioengine=psync --rw=read \
	--bs=4k --offset=512 --number_ios=100 --size=1m --output-format=terse --terse-version=3 > /tmp/fio.a 2>&1 ||
	{ cat /tmp/fio.a; fail "fio reads"; }
fio --name=wr --filename=/dev/mapper/lq --direct=1 --ioengine=psync --rw=write \
	--bs=512 --offset=1m --number_ios=50 --size=1m --output-format=terse --terse-version=3 > /tmp/fio.a 2>&1 ||
	{ cat /tmp/fio.a; fail "fio writes"; }
lc 0 stat -L lq
sed 's/^/# /' /tmp/lc.out
row=$(awk '$1 == "lq" { print $(NF - 1), $NF }' /tmp/lc.out)
[ "$row" = "143 50" ] || fail "stat -L misal non4k: '$row', want '143 50' (100 reads + 43 writes off 4 KiB; 50 writes of 512)"
lc 0 align -j lq
cp /tmp/lc.out /tmp/align.json
got=$(jq -c '.devices[0] | [.reads, .writes, .misaligned.read, .misaligned.write, .misaligned.all, .non_4k.read, .non_4k.write, .non_4k.all, .pct_non_4k]' /tmp/align.json)
[ "$got" = "[100,50,100,43,143,0,50,50,33.333]" ] || fail "align counts $got"
got=$(jq -c '[.size[] | [.bytes, .read, .write, .all]]' /tmp/align.json)
[ "$got" = "[[512,0,50,50],[4096,100,0,100]]" ] || fail "align sizes $got"
# alignment rows: reads at 512 + k 4096 all 512; writes at 2^20 + k 512
want=$(awk 'BEGIN { for (k = 0; k < 50; k++) { o = 1048576 + k * 512; p = 1
		while (o % (p * 2) == 0) p *= 2; w[p]++ }
	w[512] += 0; r[512] = 100
	for (p in w) print p, (p in r) ? r[p] : 0, w[p] }' | sort -n | awk '{ printf "[%s,%s,%s,%s]", $1, $2, $3, $2 + $3 }')
got=$(jq -r '[.align[] | "[\(.bytes),\(.read),\(.write),\(.all)]"] | join("")' /tmp/align.json)
[ "$got" = "$want" ] || fail "align rows $got, want $want"
lc 0 align lq
sed 's/^/# /' /tmp/lc.out
ok "misal 143, non4k 50 in the interval; align: misaligned READ 100 WRITE 43 ALL 143, non-4k 0/50/50 (33.3%), size and alignment rows READ/WRITE/ALL exact"

# 3. totals: lq and lq2 in pool p0; sd (scsi_debug, vendor Linux) alone
nb2=$(nullb_create lq_nb2 256) || fail "null_blk 2"
lc 0 create lq2 "$nb2" pool=p0 pool_depth=64
sd=$(sdebug_create dev_size_mb=64) || fail "scsi_debug"
lc 0 create lqs "$sd"
fio --name=a --filename=/dev/mapper/lq2 --direct=1 --ioengine=psync --rw=read --bs=8k \
	--number_ios=70 --size=1m > /dev/null 2>&1 || fail "fio lq2"
fio --name=a --filename=/dev/mapper/lqs --direct=1 --ioengine=psync --rw=write --bs=2k \
	--number_ios=30 --size=1m > /dev/null 2>&1 || fail "fio lqs"
lc 0 stat -C -j
cp /tmp/lc.out /tmp/tot.json
sum() { echo $(($(lq_stat lq "$1") + $(lq_stat lq2 "$1") + ${2:-0})); }
ios() { echo $(($(lq_stat "$1" reads) + $(lq_stat "$1" writes))); }
# totals: IOs the sum of the devices' counters, r/s w/s the sum of theirs
tot() {	# SELECT DEVICES...: [devices, ios, r/s - sum, w/s - sum] (rounded)
	_sel=$1
	shift
	jq -c --arg d "$*" '($d | split(" ")) as $n | [.devices[] | select(.device as $x | $n | index($x))] as $m |
		.totals[] | select('"$_sel"') | [.devices, .ios,
		((.r_s - ([$m[].r_s] | add)) | fabs * 100 | round), ((.w_s - ([$m[].w_s] | add)) | fabs * 100 | round)]' /tmp/tot.json
}
p0=$(tot '.pool == "p0"' lq lq2)
all=$(tot '.pool == null' lq lq2 lqs)
[ "$p0" = "[2,$(($(ios lq) + $(ios lq2))),0,0]" ] || fail "pool p0 total $p0, want [2,$(($(ios lq) + $(ios lq2))),0,0]"
[ "$all" = "[3,$(($(ios lq) + $(ios lq2) + $(ios lqs))),0,0]" ] || fail "all total $all"
lc 0 stat -C
sed 's/^/# /' /tmp/lc.out
grep -q ' pool:p0$' /tmp/lc.out && grep -q ' all$' /tmp/lc.out || fail "stat -C: no pool:p0 / all rows"
lc 0 align -j --vendor 'LINUX*'
got=$(jq -c '[[.devices[].device], .totals[-1].writes, .totals[-1].non_4k.write, (.totals | length)]' /tmp/lc.out)
[ "$got" = '[["lqs"],30,30,1]' ] || fail "align --vendor LINUX*: $got"
lc 0 align -j --pool p0
got=$(jq -c '[[.devices[].device], .totals[0].pool, .totals[0].reads, .totals[1].reads]' /tmp/lc.out)
[ "$got" = "[[\"lq\",\"lq2\"],\"p0\",$(sum reads),$(sum reads)]" ] || fail "align --pool p0: $got"
lc 1 stat -p -C
lc 2 align nosuch
ok "stat -C: pool p0 = lq + lq2, all = the three (IOs exact, r/s w/s the sums); align --vendor selects scsi_debug's, --pool p0 the pool's"

# 4. typed JSON: each document (or array element) schema 2, no numeric strings
jsonck() {	# NAME FILE: one JSON value per line (or one array)
	jq -c 'if type == "array" then .[] else . end |
		[.schema, ([paths(type == "string") as $p | getpath($p) |
			select(test("^-?[0-9]+([.][0-9]+)?$"))] | length)]' "$2" > /tmp/jck ||
		fail "$1: not JSON: $(head -c 300 "$2")"
	[ -s /tmp/jck ] && ! grep -qv '^\[2,0\]$' /tmp/jck || fail "$1: [schema, numeric strings] $(sort -u /tmp/jck | tr '\n' ' ')"
}
lc 0 list -j; cp /tmp/lc.out /tmp/j.list; jsonck "list -j" /tmp/j.list
lc 0 show -j lq; cp /tmp/lc.out /tmp/j.show; jsonck "show -j" /tmp/j.show
got=$(jq -c '[.settings.qdepth.value, .settings.pool_depth.value, .settings.sched.value, .settings.pool.value, .settings.qdepth.given, .stats.reads | type]' /tmp/j.show)
[ "$got" = '["number","number","string","string","boolean","number"]' ] || fail "show -j types $got"
[ "$(jq '.settings.qdepth.value' /tmp/j.show)" = 4 ] || fail "show -j: qdepth $(jq '.settings.qdepth.value' /tmp/j.show)"
jsonck "stat -j" /tmp/tot.json
jsonck "stat -L -j" /tmp/views.json
lc 0 hist -j lq; cp /tmp/lc.out /tmp/j.hist; jsonck "hist -j" /tmp/j.hist
jsonck "align -j" /tmp/align.json
lunqctl events -j -c 1 -t 10 lq > /tmp/j.ev 2>&1 &
ep=$!
sleep 0.5
lc 0 set lq qdepth=5
wait $ep
jsonck "events -j" /tmp/j.ev
ok "JSON schema 2, no number as a string: list, show (qdepth 4 a number, sched a string), stat, stat -L, hist, align, events"
lc 0 remove lq lq2 lqs
