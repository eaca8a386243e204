# Crash consistency on lunq with a reordering wait queue: sched:disksort
# qdepth:2 max_wait_ms:50 under ext4's fsync-heavy workload, with live
# policy changes (fifo qdepth:1, disksort qdepth:8 without aging, back)
# and noflush suspend/resume cycles in the middle; then the log replayed
# to each flush point (tests/vm/crash-lib.sh): every point mounts, fsck
# is clean and every fsync'd file has its content.
# group: crash fault
# time-debug: 105
# time: 40
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/crash-lib.sh"

churn() {
	case $(($1 % 6)) in
	1) expect dmsetup message cr 0 set qdepth:1 sched:fifo ;;
	2) expect dmsetup suspend --noflush cr; expect dmsetup resume cr ;;
	3) expect dmsetup message cr 0 set qdepth:8 sched:disksort max_wait_ms:0 ;;
	4) expect dmsetup suspend --noflush cr; expect dmsetup resume cr ;;
	5) expect dmsetup message cr 0 set qdepth:2 sched:disksort max_wait_ms:50 ;;
	esac
}

cr_setup
cr_top cr "$(lunq_target /dev/mapper/cw 0 qdepth:2 sched:disksort max_wait_ms:50)"
cr_workload churn
diag "lunq: dispatched $(lq_stat cr dispatched 2>/dev/null || echo ?), requeued $(lq_stat cr requeued 2>/dev/null || echo ?)"
cr_check disksort
[ "$CR_FAILED" = 0 ] || fail "disksort: $CR_FAILED flush points do not recover"
ok "disksort qdepth:2 max_wait_ms:50 with policy changes and noflush suspends: every checked flush point mounts, fsck clean, fsync'd files intact"
