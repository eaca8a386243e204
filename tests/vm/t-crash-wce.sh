# Crash consistency with the write-cache model on: wce:1 in front of an
# hdd model (svc_us:1000, cache_mb:1, so the cache fills and writes wait
# for destage), under ext4's fsync-heavy workload, with live changes of
# the cache (wce off and on, cache_mb 1 <-> 8) and noflush suspend/resume
# cycles in the middle; then the log replayed to each flush point
# (tests/vm/crash-lib.sh): every point mounts, fsck is clean and every
# fsync'd file has its content.  The cache models time only: a write is
# on the lower device before it completes, and flush and FUA wait for the
# destage they cover.
# group: crash
# time: 50
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/crash-lib.sh"

churn() {
	case $(($1 % 6)) in
	1) expect dmsetup message cr 0 set wce:0 ;;
	2) expect dmsetup suspend --noflush cr; expect dmsetup resume cr ;;
	3) expect dmsetup message cr 0 set wce:1 cache_mb:8 ;;
	4) expect dmsetup suspend --noflush cr; expect dmsetup resume cr ;;
	5) expect dmsetup message cr 0 set cache_mb:1 ;;
	esac
}

cr_setup
cr_top cr "$(lunq_target /dev/mapper/cw 0 model:hdd svc_us:1000 seek_ms:0 wce:1 cache_mb:1 qdepth:16)"
cr_workload churn
diag "lunq: dispatched $(lq_stat cr dispatched 2>/dev/null || echo ?), flushes $(lq_stat cr flushes 2>/dev/null || echo ?)"
cr_check wce
[ "$CR_FAILED" = 0 ] || fail "wce: $CR_FAILED flush points do not recover"
ok "wce:1 (hdd, cache_mb 1 and 8, turned off and on live) with noflush suspends: every checked flush point mounts, fsck clean, fsync'd files intact"
