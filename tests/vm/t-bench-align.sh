# lunqbench --preset align: the vdbench offset scan of seed 002 (4 KiB
# random reads shifted by 0, 512, ..., 4096 bytes) on an emulated LUN with
# 4 KiB physical blocks (model flash, pblk:4096: a misaligned IO pays
# read-modify-write).  Aligned offsets (0, 4096) give >= 3x the IOPS of
# every misaligned one; lunq's own misaligned_4k counter equals the IOs
# lunqbench did at the misaligned offsets, exactly.
# group: bench timing
# time: 10
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 hw_queue_depth=256) || fail "null_blk"
lc 0 create lq "$nb" model=flash channels=2 svc_us=1000 pblk=4096
lc 0 reset lq
lunqbench --preset align --elapsed 1 --iodepth 8 --range 0-64m --interval 0 /dev/mapper/lq > /tmp/al.out 2>&1 ||
	{ cat /tmp/al.out; fail "lunqbench --preset align"; }
awk '$1 ~ /^[0-9]+$/ && NF >= 8' /tmp/al.out > /tmp/al.rows
sed 's/^/# /' /tmp/al.rows
[ "$(wc -l < /tmp/al.rows)" = 9 ] || { cat /tmp/al.out; fail "want 9 offset rows"; }
awk '{ if ($1 % 4096 == 0) { if (!a || $3 < a) a = $3 } else if ($3 > m) m = $3 }
	END { printf "%.2f\n", a / m; exit !(a >= 3 * m) }' /tmp/al.rows > /tmp/al.r ||
	fail "aligned/misaligned IOPS $(cat /tmp/al.r) < 3"
mis=$(awk '$1 % 4096 != 0 { n += $2 } END { print n }' /tmp/al.rows)
[ "$(lq_stat lq misaligned_4k)" = "$mis" ] ||
	fail "lunq counted $(lq_stat lq misaligned_4k) misaligned IOs, lunqbench did $mis at misaligned offsets"
ok "offset scan: aligned >= $(cat /tmp/al.r) x misaligned IOPS; lunq misaligned_4k = $mis = lunqbench's misaligned IOs"
