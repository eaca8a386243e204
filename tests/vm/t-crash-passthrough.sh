# Crash consistency on lunq with no throttle (qdepth:0: every bio passes
# straight through): ext4's fsync-heavy workload, the log replayed to each
# flush point (tests/vm/crash-lib.sh): every point mounts, fsck is clean
# and every fsync'd file has its content.
# group: crash
# time: 55
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/tests/vm/crash-lib.sh"

cr_setup
cr_top cr "$(lunq_target /dev/mapper/cw 0 qdepth:0)"
cr_workload
cr_check qdepth0
[ "$CR_FAILED" = 0 ] || fail "qdepth:0: $CR_FAILED flush points do not recover"
ok "qdepth:0: every checked flush point mounts, fsck clean, fsync'd files intact"
