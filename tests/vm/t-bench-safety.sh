# lunqbench refuses, before any IO, a load that writes to a block device
# in use, and --seekpct eof reads a range exactly once:
#  - null_blk with ext4 mounted: a write load exits 2 naming the mount
#    point, the device's diskstats writes unchanged; a read-only load runs;
#  - the same device held by a lunq table (lunqctl create): exit 2, "held
#    by dm-N (lq)", no write; a write load on the lunq device itself runs;
#    --force writes to the held device (its diskstats writes grow by the
#    IOs lunqbench did, exactly);
#  - --seekpct eof over a 2 MiB range of 64 KiB reads, one ring and two:
#    ios = range / bs = 32, and the device's diskstats reads (merged
#    included) grew by exactly 32.
# group: bench
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 64) || fail "null_blk"
kv() { tr ' ' '\n' < /tmp/lb.kv | sed -n "s/^$1=//p"; }
# bios the device saw: requests plus bios merged into them
rd() { echo $(($(disk_stat "$nb" 1) + $(disk_stat "$nb" 2))); }
wr() { echo $(($(disk_stat "$nb" 5) + $(disk_stat "$nb" 6))); }
# lb RC ARGS...: lunqbench ARGS, output in /tmp/lb.out, its last line in
# /tmp/lb.kv; fail unless it exits RC
lb() {
	_want=$1
	shift
	lunqbench --interval 0 "$@" > /tmp/lb.out 2>&1
	_rc=$?
	tail -1 /tmp/lb.out > /tmp/lb.kv
	[ "$_rc" = "$_want" ] || { cat /tmp/lb.out; fail "lunqbench $*: exit $_rc, want $_want"; }
}
lb_says() { grep -qF -- "$1" /tmp/lb.out || { cat /tmp/lb.out; fail "lunqbench did not say '$1'"; }; }

# --seekpct eof: the range once, exactly, whatever the rings
for t in 1 2; do
	r0=$(rd)
	lb 0 --seekpct eof --range 1m-3m --bs 64k --iodepth 4 --threads $t --kv "$nb"
	[ "$(kv ios)" = 32 ] && [ "$(kv errors)" = 0 ] || fail "eof, $t ring(s): ios=$(kv ios), want 2m / 64k = 32"
	[ $(($(rd) - r0)) = 32 ] || fail "eof, $t ring(s): the device saw $(($(rd) - r0)) reads, want 32"
done
ok "--seekpct eof: 2 MiB of 64 KiB reads = 32 IOs = 32 reads in diskstats, 1 and 2 rings"

# mounted: refused, nothing written; reading is allowed
expect mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "$nb"
mkdir -p /mnt/lunq
expect mount -t ext4 "$nb" /mnt/lunq
sync
w0=$(wr)
lb 2 --rdpct 0 --ios 100 "$nb"
lb_says "$nb: refusing to write: mounted on /mnt/lunq; --force writes anyway"
lb 2 --rdpct 99 --ios 100 --verify "$nb"
lb_says "mounted on /mnt/lunq"
[ "$(wr)" = "$w0" ] || fail "refused, yet the device's writes went from $w0 to $(wr)"
lb 0 --rdpct 100 --ios 100 --kv "$nb"
[ "$(kv ios)" = 100 ] || fail "a read-only load on the mounted device: ios=$(kv ios)"
ok "mounted: writes refused (exit 2, 'mounted on /mnt/lunq'), writes stay $w0; 100 reads allowed"
expect umount /mnt/lunq

# held by a lunq table: refused naming the holder; --force writes
lc 0 create lq "$nb"
dm=dm-$(dmsetup info -c --noheadings -o minor lq | tr -d ' ')
w0=$(wr)
lb 2 --rdpct 50 --ios 100 "$nb"
lb_says "$nb: refusing to write: held by $dm (lq)"
[ "$(wr)" = "$w0" ] || fail "refused, yet the device's writes went from $w0 to $(wr)"
lb 0 --rdpct 0 --ios 50 --kv /dev/mapper/lq
[ "$(kv writes)" = 50 ] || fail "writes to the lunq device itself: $(kv writes), want 50"
w0=$(wr)
lb 0 --force --rdpct 0 --ios 100 --kv "$nb"
[ "$(kv writes)" = 100 ] && [ $(($(wr) - w0)) = 100 ] ||
	fail "--force: lunqbench wrote $(kv writes), the device saw $(($(wr) - w0)) writes, want 100"
lc 0 remove lq
ok "held by $dm (lq): refused (exit 2); the lunq device takes writes; --force: 100 writes in diskstats"
