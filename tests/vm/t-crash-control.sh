# The controls of the crash-consistency tests (tests/vm/crash-lib.sh):
#  - positive: the same workload and replay on dm-linear instead of lunq
#    must pass; if it fails, the test is wrong, not lunq;
#  - negative: lunq's test-only build (make kmod-xflush,
#    build/kmod-xflush/: writes acknowledged before they are written, so
#    they cross the next flush) must fail the replay check, or the check
#    cannot see what it is for.  The normal module is loaded back after.
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
	note "negative control: on Debian's kernel only (make test), not on the debug kernel"
	exit 0
fi
xko=$LUNQ_SRC/build/kmod-xflush/$(uname -r)/kmod/dm-lunq.ko
[ -f "$xko" ] || skip "no test-only module $xko (make kmod-xflush) for this kernel; the positive control passed"
dmsetup ls | grep -v '^No devices found' | grep -q . && fail "devices left before the module swap: $(dmsetup ls)"
if grep -q '^dm_lunq ' /proc/modules; then
	rmmod dm_lunq || fail "rmmod dm_lunq"
fi
# whatever happens from here, the normal module is loaded back at the end
restore() {
	grep -qs ' /mnt/crash' /proc/mounts && umount /mnt/crash
	dmsetup remove_all --noudevsync > /dev/null 2>&1
	grep -q '^dm_lunq ' /proc/modules && rmmod dm_lunq
	modprobe dm-lunq
}
trap restore EXIT
expect insmod "$xko" xflush_every=0
# writes cross flushes only while the filesystem is mounted and busy: its
# own reads of what it wrote come from memory then (the held copies are
# not readable: mkfs followed by mount would see stale blocks)
xf=/sys/module/dm_lunq/parameters/xflush_every
CR_ON_MOUNT="echo 3 > $xf"
CR_BEFORE_UMOUNT="echo 0 > $xf"
cr_setup
cr_top cr "lunq /dev/mapper/cw 0 1 qdepth:0"
cr_workload
crossed=$(cat /sys/module/dm_lunq/parameters/xflush_crossed)
cr_check xflush-negative
trap - EXIT
restore || fail "the normal dm-lunq does not load back"
modinfo dm-lunq 2>/dev/null | grep -q xflush && fail "the normal module has xflush"
grep -q '^dm_lunq ' /proc/modules || fail "dm_lunq not loaded back"
[ -e /sys/module/dm_lunq/parameters/xflush_every ] && fail "the xflush module is still loaded"
[ "$crossed" -gt 0 ] || fail "the negative control crossed no write ($crossed)"
[ "$CR_FAILED" -gt 0 ] || fail "negative control: $crossed writes crossed flushes and yet every checked point recovered: the replay check cannot fail"
ok "negative control: $crossed writes acknowledged early crossed flushes; $CR_FAILED checked flush points fail, as they must"
