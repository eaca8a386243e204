#!/bin/sh
# On the icount clock a test never waits for the host (doc/testing.md,
# "The icount clock and the host's I/O"): with -icount sleep=off the
# guest's clock runs on to its next timer while a task waits on the 9p
# share, so tests/vm/suite.sh gives them a tmpfs copy of the tree
# ($LUNQ_SRC, from qemu/run's /out/.job/src.tar) and a tmpfs $LUNQ_OUT,
# copied to /out between tests.  This checks both are tmpfs and the copy
# is the tree: the files a test reads, byte for byte, against the
# checksums qemu/run took of them on the host (/out/.job/src.sums, copied
# to tmpfs with the tree).  It reads nothing of the share itself: a read
# here once waited on the host's 9p answer past the 300 s timeout.  On
# the plain clock: SKIP (the share is used directly there).
# group: harness
# time: 2
. "$LUNQ_SRC/tests/vm/lib.sh"
[ "${LUNQ_VM_ACCEL:-}" = icount ] || skip "plain clock ($LUNQ_VM_ACCEL): the tests use the 9p share directly"
src=$(stat -f -c %T "$LUNQ_SRC") outfs=$(stat -f -c %T "$LUNQ_OUT")
[ "$src" = tmpfs ] && [ "$outfs" = tmpfs ] ||
	fail "LUNQ_SRC $LUNQ_SRC on $src, LUNQ_OUT $LUNQ_OUT on $outfs: a test would wait on the host"
sums=/run/lunq-src.sums
[ -s $sums ] || fail "no host checksums of the tree in $sums (qemu/run's /out/.job/src.sums)"
n=$(wc -l < $sums)
[ "$n" -ge 3 ] || fail "only $n of the tree's files in $sums"
(cd "$LUNQ_SRC" && sha256sum -c $sums) > /tmp/sums.out 2>&1 ||
	{ sed 's/^/# /' /tmp/sums.out; fail "the tmpfs copy $LUNQ_SRC differs from the host's tree"; }
ok "LUNQ_SRC and LUNQ_OUT on tmpfs; $n of the tree's files the same as the host's (sha256)"
