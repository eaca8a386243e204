# The controls of the crash-consistency tests (tests/vm/crash-lib.sh):
#  - positive: the same workload and replay on dm-linear instead of lunq
#    must pass; if it fails, the test is wrong, not lunq;
#  - negative: lunq on the test-only target lunq-xflush (make kmod-xflush,
#    build/kmod-xflush/dm-lunq-xflush.ko: writes acknowledged before they
#    are written, so they cross the next flush) must fail the replay
#    check, or the check cannot see what it is for.
# group: crash
# time-debug: 70
# time: 60
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/crash-lib.sh"

CR_FILES=$(scaled 24 12)

cr_setup
cr_top cr "linear /dev/mapper/cw 0"
cr_workload
cr_check linear-control
[ "$CR_FAILED" = 0 ] || fail "the control (dm-linear) fails $CR_FAILED flush points: the test is wrong"
ok "control on dm-linear: every checked flush point recovers"
cr_teardown

# the negative control proves the check, which is the same on every
# kernel: make test runs it on Debian's; the debug kernel (make
# test-debug) has no test-only build and stops here
if [ "${LUNQ_SKIP_TIMING:-0}" = 1 ]; then
	diag "negative control: on Debian's kernel only (make test), not on the debug kernel"
	exit 0
fi
xko=$LUNQ_SRC/build/kmod-xflush/$(uname -r)/kmod/dm-lunq-xflush.ko
[ -f "$xko" ] || skip "no test-only module $xko (make kmod-xflush) for this kernel; the positive control passed"
dmsetup ls | grep -v '^No devices found' | grep -q . && fail "devices left before the negative control: $(dmsetup ls)"
# whatever happens from here, the test-only module is gone at the end
restore() {
	grep -qs ' /mnt/crash' /proc/mounts && umount /mnt/crash
	dmsetup remove_all --noudevsync > /dev/null 2>&1
	if grep -q '^dm_lunq_xflush ' /proc/modules; then rmmod dm_lunq_xflush; fi
}
trap restore EXIT
expect insmod "$xko" xflush_every=0
# writes cross flushes only while the filesystem is mounted and busy: its
# own reads of what it wrote come from memory then (the held copies are
# not readable: mkfs followed by mount would see stale blocks)
xf=/sys/module/dm_lunq_xflush/parameters/xflush_every
CR_ON_MOUNT="echo 3 > $xf"
CR_BEFORE_UMOUNT="echo 0 > $xf"
cr_setup
# lunq as it ships, on a layer below it that acknowledges writes early
dm_create crx "0 $CR_SZ lunq-xflush /dev/mapper/cw" || fail "create crx: lunq-xflush"
CR_MID=crx
cr_top cr "$(lunq_target /dev/mapper/crx 0 qdepth:0)"
cr_workload
crossed=$(cat /sys/module/dm_lunq_xflush/parameters/xflush_crossed)
cr_check xflush-negative
trap - EXIT
restore || fail "dm-lunq-xflush does not unload"
[ -e /sys/module/dm_lunq_xflush ] && fail "the xflush module is still loaded"
modinfo -F parm dm-lunq 2>/dev/null | grep -q xflush && fail "the normal module has xflush"
[ "$crossed" -gt 0 ] || fail "the negative control crossed no write ($crossed)"
[ "$CR_FAILED" -gt 0 ] || fail "negative control: $crossed writes crossed flushes and yet every checked point recovered: the replay check cannot fail"
ok "negative control: $crossed writes acknowledged early crossed flushes; $CR_FAILED checked flush points fail, as they must"
