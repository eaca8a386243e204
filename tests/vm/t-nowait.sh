# REQ_NOWAIT: lunq declares DM_TARGET_NOWAIT, so a RWF_NOWAIT read that
# would have to wait for a throttle slot fails at once with EAGAIN instead
# of sleeping; one that finds a free slot proceeds.  Observer: the error
# fio's pvsync2 engine gets back from preadv2(RWF_NOWAIT).
# group: throttle
# time: 5
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
