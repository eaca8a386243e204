# REQ_NOWAIT: lunq declares DM_TARGET_NOWAIT, so a RWF_NOWAIT read that
# would have to wait for a throttle slot fails at once with EAGAIN instead
# of sleeping; one that finds a free slot proceeds.  Observer: the error
# fio's pvsync2 engine gets back from preadv2(RWF_NOWAIT).  Over a lower
# device that lost nowait under lunq (reloaded to dm-delay) every
# RWF_NOWAIT read gets EAGAIN from lunq's map and nothing is sent or
# counted, lunq's counters the observer.
# group: throttle
# time: 8
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 128 irqmode=2 completion_nsec=10000000 hw_queue_depth=64) ||
	fail "null_blk setup"
lunq_create lq $nb qdepth:1 || fail "create"

# alone, qdepth:1 is always free for a synchronous reader: no EAGAIN
fio --name=nw --filename=/dev/mapper/lq --direct=1 --ioengine=pvsync2 --nowait=1 \
	--rw=randread --bs=4k --size=64M --number_ios=50 \
	--output-format=terse --terse-version=3 > /tmp/fio.nw 2>&1 || { cat /tmp/fio.nw; fail "fio alone"; }
[ "$(fio_terse /tmp/fio.nw 5)" = 0 ] || { cat /tmp/fio.nw; fail "RWF_NOWAIT read failed with the slot free"; }
ok "RWF_NOWAIT reads with a free slot succeed"

# with a QD4 reader holding the only slot, RWF_NOWAIT reads get EAGAIN
fio --filename=/dev/mapper/lq --direct=1 --bs=4k --size=64M --rw=randread \
	--time_based --runtime=2 --output-format=terse --terse-version=3 \
	--name=hog --ioengine=libaio --iodepth=4 \
	--name=nw --ioengine=pvsync2 --nowait=1 --continue_on_error=all \
	> /tmp/fio.nw 2>&1
diag "$(awk -F';' '$3 != "" { print $3 ": error=" $5 " read_kb=" $6 }' /tmp/fio.nw | tr '\n' ' ')"
[ "$(awk -F';' '$3 == "hog" { print $5 }' /tmp/fio.nw)" = 0 ] || { cat /tmp/fio.nw; fail "the plain reader got errors"; }
[ "$(awk -F';' '$3 == "nw" { print $5 }' /tmp/fio.nw)" = 11 ] ||
	{ cat /tmp/fio.nw; fail "RWF_NOWAIT reads behind a full throttle did not get EAGAIN (11)"; }
ok "RWF_NOWAIT reads that would wait fail with EAGAIN"
[ "$(status_field lq dispatched)" = "$(status_field lq completed)" ] &&
	[ "$(status_field lq waiting)" = 0 ] || fail "IO left over: $(dmsetup status lq)"
ok "refused NOWAIT reads left nothing behind: $(dmsetup status lq)"

# a lower device that loses nowait under lunq (dm-linear, reloaded to
# dm-delay, which declares no DM_TARGET_NOWAIT, after lunq's table took
# nowait from it): every RWF_NOWAIT read is refused at lunq's map with
# EAGAIN, sent nowhere and counted nowhere -- also when its per-bio data
# last held a sent read's state (plain reads first, through the same
# device).  A lunq table loaded over dm-delay has no nowait at all: the
# block layer refuses with EOPNOTSUPP before lunq sees the bio.
dm_remove lq || fail "remove lq"
sz=$(sectors "$nb")
dm_create lq_dl "0 $sz linear $nb 0" || fail "dm-linear over null_blk"
lunq_create lq /dev/mapper/lq_dl qdepth:4 || fail "create over dm-linear"
fio --name=pl --filename=/dev/mapper/lq --direct=1 --ioengine=libaio --iodepth=8 \
	--rw=randread --bs=4k --size=64M --number_ios=400 \
	--output-format=terse --terse-version=3 > /tmp/fio.pl 2>&1 || { cat /tmp/fio.pl; fail "plain reads over dm-linear"; }
{ dmsetup suspend lq_dl && dmsetup load lq_dl --table "0 $sz delay $nb 0 0" && dmsetup resume lq_dl; } ||
	fail "lq_dl reloaded to dm-delay"
c0=$(status_field lq completed)
fio --name=nw --filename=/dev/mapper/lq --direct=1 --ioengine=pvsync2 --nowait=1 \
	--continue_on_error=all --rw=randread --bs=4k --size=64M --number_ios=400 --runtime=2 \
	--output-format=terse --terse-version=3 > /tmp/fio.nw 2>&1
e=$(awk -F';' '$3 == "nw" { print $5 }' /tmp/fio.nw)
c1=$(status_field lq completed) d1=$(status_field lq dispatched) w1=$(status_field lq waiting)
diag "lower reloaded to dm-delay: completed $c0 after the plain reads, then $c1 (dispatched $d1, waiting $w1); RWF_NOWAIT error $e"
[ "$e" = 11 ] || { cat /tmp/fio.nw; fail "RWF_NOWAIT reads over a lower device that lost nowait: error '$e', want EAGAIN (11)"; }
[ "$c1" = "$c0" ] && [ "$d1" = "$c1" ] && [ "$w1" = 0 ] ||
	fail "refused RWF_NOWAIT reads were counted: completed $c0 -> $c1, dispatched $d1, waiting $w1"
ok "RWF_NOWAIT reads over a lower device that lost nowait: EAGAIN, none sent or counted ($c0 completed before and after)"
dm_remove lq && dm_remove lq_dl || fail "remove"
