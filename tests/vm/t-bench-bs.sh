# lunqbench --preset bs, the block-size scan (seed 003's dd pitfalls):
# sequential reads at QD 1 of each size 512, 1k, ..., 1m on a lunq device
# over null_blk, with the sync engine (pread, as dd does).  12 rows, one per size in order; for every size the IOs
# lunqbench reports = the count in lunq's size histogram for that size
# (lunqctl hist --size --json: its quantize rows are powers of two, so
# each size has its own row), exactly, and nothing else there; the 1 MiB
# run moves more bytes per second than the 512-byte one, which does more
# IOs per second.  --json: 12 runs with bs_bytes and schema 2.
# group: bench
# time: 15
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256) || fail "null_blk"
lc 0 create lq "$nb"
lc 0 reset lq
# --engine sync, pread like dd: io_uring sends IOs with REQ_NOWAIT, and an
# IO the device below must split (128 KiB and more on null_blk: its
# max_sectors, max_segments) is refused there (BLK_STS_AGAIN) and issued
# again from an io_uring worker; lunq sees, and counts, both
lunqbench --preset bs --engine sync --elapsed 1 /dev/mapper/lq > /tmp/bs.out 2>&1 ||
	{ cat /tmp/bs.out; fail "lunqbench --preset bs"; }
awk '$1 ~ /^[0-9]+$/ && NF >= 8' /tmp/bs.out > /tmp/bs.rows
sed 's/^/# /' /tmp/bs.rows
sizes=$(awk '{ printf "%s%s", s, $1; s = "," }' /tmp/bs.rows)
[ "$sizes" = 512,1024,2048,4096,8192,16384,32768,65536,131072,262144,524288,1048576 ] ||
	{ cat /tmp/bs.out; fail "rows of sizes $sizes, want 512..1048576 (12)"; }

# lunq's size histogram: quantize rows [power of two, count]
lc 0 hist lq --size --json
sed 's/.*"quantize":\[\(.*\)\],"buckets".*/\1/' /tmp/lc.out |
	awk '{ gsub(/\],\[/, "\n"); gsub(/[][]/, ""); print }' |
	awk -F, 'NF == 2 { print $1, $2 }' > /tmp/bs.hist
sed 's/^/# hist /' /tmp/bs.hist
[ -s /tmp/bs.hist ] || { cat /tmp/lc.out; fail "no quantize rows in lunqctl hist --size --json"; }
while read -r size ios rest; do
	h=$(awk -v s="$size" '$1 == s { print $2 }' /tmp/bs.hist)
	[ "${h:-0}" = "$ios" ] || fail "size $size: lunqbench did $ios IOs, lunq's size histogram has ${h:-0}"
	[ "$ios" -gt 0 ] || fail "size $size: no IOs"
done < /tmp/bs.rows
[ "$(wc -l < /tmp/bs.hist)" = 12 ] || fail "lunq's size histogram has sizes lunqbench did not do"
[ "$(lq_stat lq errors)" = 0 ] || fail "lunq counted $(lq_stat lq errors) errors (IOs refused below?)"
total=$(awk '{ n += $2 } END { print n }' /tmp/bs.rows)
ok "12 sizes; each size's ios = lunq's size histogram row, $total IOs in all"

awk '$1 == 512 { i = $3; m = $4 } $1 == 1048576 { I = $3; M = $4 }
	END { exit !(M > m && i > I) }' /tmp/bs.rows ||
	fail "want MB/s(1m) > MB/s(512) and IOPS(512) > IOPS(1m)"
ok "512: most IOPS, 1m: most MB/s"

lunqbench --preset bs --elapsed 0.2 --json /dev/mapper/lq > /tmp/bs.json 2> /tmp/bs.err ||
	{ cat /tmp/bs.err; fail "lunqbench --preset bs --json"; }
n=$(grep -o '"bs_bytes":[0-9]*' /tmp/bs.json | wc -l)
case $(cat /tmp/bs.json) in
'{"schema":2,'*) ;;
*) fail "--json does not begin with \"schema\":2" ;;
esac
[ "$n" = 12 ] || fail "--json: $n runs with bs_bytes, want 12"
ok "--json: schema 2, 12 runs with bs_bytes"
lc 0 remove lq
