#!/bin/sh
# On the icount clock a test never waits for the host (doc/testing.md,
# "The icount clock and the host's I/O"): with -icount sleep=off the
# guest's clock runs on to its next timer while a task waits on the 9p
# share, so tests/vm/suite.sh gives them a tmpfs copy of the tree
# ($LUNQ_SRC, from qemu/run's /out/.job/src.tar) and a tmpfs $LUNQ_OUT,
# copied to /out between tests.  This checks both are tmpfs and the copy
# is the tree (the files a test reads, byte for byte), and notes what one
# uncached read of the share costs in guest time.  On the plain clock:
# SKIP (the share is used directly there, and costs only what it takes).
# group: harness
# time: 2
. "$LUNQ_SRC/tests/vm/lib.sh"
[ "${LUNQ_VM_ACCEL:-}" = icount ] || skip "plain clock ($LUNQ_VM_ACCEL): the tests use the 9p share directly"
src=$(stat -f -c %T "$LUNQ_SRC") outfs=$(stat -f -c %T "$LUNQ_OUT")
[ "$src" = tmpfs ] && [ "$outfs" = tmpfs ] ||
	fail "LUNQ_SRC $LUNQ_SRC on $src, LUNQ_OUT $LUNQ_OUT on $outfs: a test would wait on the host"
n=0
for f in tests/vm/lib.sh tests/vm/suite.sh tests/lib/scenario.sh kmod/uapi/lunq.h build/policies/aimd.bpf.o; do
	[ -f "/lunq/$f" ] || continue
	cmp -s "/lunq/$f" "$LUNQ_SRC/$f" || fail "$LUNQ_SRC/$f differs from the tree's /lunq/$f"
	n=$((n + 1))
done
[ "$n" -ge 3 ] || fail "only $n of the tree's files found to compare"
ok "LUNQ_SRC and LUNQ_OUT on tmpfs; $n of the tree's files the same byte for byte"
echo 3 > /proc/sys/vm/drop_caches
t0=$(cut -d' ' -f1 /proc/uptime)
cat /lunq/kmod/lunq_auto.c > /dev/null
t1=$(cut -d' ' -f1 /proc/uptime)
cat "$LUNQ_SRC/kmod/lunq_auto.c" > /dev/null
t2=$(cut -d' ' -f1 /proc/uptime)
note "one uncached read of the 9p share: $(echo "$t0 $t1" | awk '{ printf "%.3f", $2 - $1 }') s of guest time; of the tmpfs copy: $(echo "$t1 $t2" | awk '{ printf "%.3f", $2 - $1 }') s"
