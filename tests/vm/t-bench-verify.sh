# lunqbench --verify: a write pass over 4 MiB through a lunq device, a read
# pass that finds it intact, then one 4 KiB block overwritten with garbage
# on the LOWER device behind lunq's back: the next read pass reports that
# block's sector and exits 3.  A mixed read/write verify run under a
# changing policy finds nothing.
# group: bench integrity
# time-debug: 25
# time: 15
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=200000) || fail "null_blk"
lc 0 create lq "$nb" qdepth=4 sched=disksort
lb() { lunqbench --verify --seed 42 --range 0-4m --bs 4k --interval 0 --kv "$@" /dev/mapper/lq > /tmp/lb.out 2>&1; }

lb --rdpct 0 --seekpct 0 --ios 1024 --iodepth 8 || { cat /tmp/lb.out; fail "write pass"; }
lb --rdpct 100 --seekpct 0 --ios 1024 --iodepth 8 || { cat /tmp/lb.out; fail "clean read pass"; }
ok "write pass and read pass over 4 MiB: no verify error"

# garbage into block 300 (sector 2400) of the lower device
dd if=/dev/urandom of="$nb" bs=4096 seek=300 count=1 oflag=direct conv=notrunc 2> /dev/null ||
	fail "dd to the lower device"
lb --rdpct 100 --seekpct 0 --ios 1024 --iodepth 8
rc=$?
sed 's/^/# /' /tmp/lb.out | grep -i verify | head -3
[ $rc = 3 ] || { cat /tmp/lb.out; fail "corrupted read pass: exit $rc, want 3"; }
grep -q 'verify error at sector 2400 ' /tmp/lb.out || fail "the error does not name sector 2400"
ok "a garbage block on the lower device: reported at sector 2400, exit 3"

# mixed run, policy changing underneath, over a rewritten range
lb --rdpct 0 --seekpct 0 --ios 1024 --iodepth 8 || { cat /tmp/lb.out; fail "second write pass"; }
lb --rdpct 50 --seekpct 100 --elapsed 6 --iodepth 16 &
p=$!
for q in 1 8 2 16 4; do sleep 1; lunqctl set lq qdepth=$q sched=fifo > /dev/null; lunqctl set lq sched=disksort > /dev/null; done
wait $p || { cat /tmp/lb.out; fail "mixed verify run under policy changes"; }
ok "mixed verify run under qdepth/sched changes: no error ($(tail -1 /tmp/lb.out | tr ' ' '\n' | grep -E '^(ios|verify_errors)=' | tr '\n' ' '))"
