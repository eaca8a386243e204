# shellcheck shell=sh
# Helpers of the crash-consistency tests (tests/vm/t-crash-*.sh), sourced
# after lib.sh.  The stack, as xfstests' generic/455 builds it:
#
#   ext4 -> TOP (lunq, or dm-linear: the control) -> dm-log-writes "cw"
#        -> null_blk "crdata"                  log -> null_blk "crlog"
#
# dm-log-writes logs every write in the order it completed, with each
# flush and FUA; after the workload, the log is replayed with replaylog
# (tests/tools/replaylog.c) onto a fresh null_blk "crbase" up to each
# flush point in turn, as if the power had failed right after that flush.
# At every point a non-persistent dm-snapshot of crbase (COW on
# "crcow") is mounted (journal recovery), checked and unmounted, and
# e2fsck -fn must find it clean; every file whose fsync returned before
# that point (a log mark "fN" after its fsync) must have its content.
#
# Points: every flush point after mkfs finished (the mark "mkfs"; at most
# CR_MAX_POINTS, 200), or in quick mode and on the debug kernel
# (LUNQ_SKIP_TIMING=1: a point costs ~4.5 s there, ~1.5 s on Debian's)
# a random sample of CR_SAMPLE (50) plus the last one; the seed is printed.

CR_FS_MB=${CR_FS_MB:-48}
CR_LOG_MB=${CR_LOG_MB:-384}
CR_FILES=${CR_FILES:-$(scaled 40 24)}
CR_MAX_POINTS=${CR_MAX_POINTS:-200}
CR_SAMPLE=${CR_SAMPLE:-50}
# make test on the debug kernel (quick): 15 points, each replayed, mounted
# and checked under KASAN and lockdep -- a splat there needs no more; the
# 50-point sample is 6.1's, and make test-debug's (full length)
if [ "${LUNQ_QUICK:-0}" = 1 ] && [ "${LUNQ_SKIP_TIMING:-0}" = 1 ]; then
	CR_SAMPLE=${CR_DEBUG_SAMPLE:-15}
fi
CR_SEED=${CR_SEED:-$(awk 'BEGIN { srand(); print int(rand() * 100000) }')}

# cr_setup: the devices and modules; prints nothing
cr_setup() {
	modprobe dm-log-writes 2>/dev/null || skip "no dm-log-writes module in this kernel (CONFIG_DM_LOG_WRITES)"
	modprobe dm-snapshot 2>/dev/null || skip "no dm-snapshot module in this kernel (CONFIG_DM_SNAPSHOT)"
	command -v replaylog > /dev/null || fail "replaylog is not on PATH (make tools)"
	CR_DATA=$(nullb_create crdata "$CR_FS_MB") || fail "null_blk crdata"
	CR_LOG=$(nullb_create crlog "$CR_LOG_MB") || fail "null_blk crlog"
	CR_BASE=$(nullb_create crbase "$CR_FS_MB") || fail "null_blk crbase"
	CR_COW=$(nullb_create crcow 32) || fail "null_blk crcow"
	CR_SZ=$(sectors "$CR_DATA")
	dm_create cw "0 $CR_SZ log-writes $CR_DATA $CR_LOG" || fail "log-writes"
	mkdir -p /mnt/crash /mnt/replay
}

# cr_top NAME TABLE_TARGET...: the device under test on top of the log
# (or of a device CR_MID between them, removed before the log),
# e.g. cr_top cr "$(lunq_target /dev/mapper/cw 0 qdepth:2 sched:disksort)"
cr_top() {
	dm_create "$1" "0 $CR_SZ $2" || fail "create $1: $2"
	CR_TOP=$1
}

# cr_mark NAME: a mark in the log (after everything completed so far)
cr_mark() { dmsetup message cw 0 mark "$1" || fail "mark $1"; }

# cr_workload [HOOK]: mkfs, then a metadata-heavy workload with fsyncs
# on /dev/mapper/$CR_TOP: per round a file written and fsync'd (its md5
# kept, a mark after the fsync), directory trees made and removed,
# appends with fdatasync, renames, unlinks; fio with fsync/fdatasync
# beside it (rate-limited: about 20 fsyncs a second between them).
# HOOK (a function) runs with the round number after each round (policy
# changes, suspends); $CR_ON_MOUNT and $CR_BEFORE_UMOUNT, when set, are
# run (eval) right after mounting and before unmounting.
cr_workload() {
	_hook=${1:-}
	expect mkfs.ext4 -q -F -E lazy_itable_init=0,lazy_journal_init=0,nodiscard "/dev/mapper/$CR_TOP"
	cr_mark mkfs
	expect mount -t ext4 "/dev/mapper/$CR_TOP" /mnt/crash
	mkdir -p /mnt/crash/files /mnt/crash/churn /mnt/crash/fio
	[ -z "${CR_ON_MOUNT:-}" ] || eval "$CR_ON_MOUNT"
	: > /tmp/cr.expect
	fio --name=crfsync --directory=/mnt/crash/fio --rw=randwrite --bs=4k \
		--size=1m --nrfiles=2 --fsync=3 --rate_iops=30 --time_based \
		--runtime=600 --output=/tmp/cr.fio1 > /dev/null 2>&1 &
	_f1=$!
	fio --name=crfdatasync --directory=/mnt/crash/fio --rw=write --bs=8k \
		--size=512k --fdatasync=2 --rate_iops=20 --time_based \
		--runtime=600 --output=/tmp/cr.fio2 > /dev/null 2>&1 &
	_f2=$!
	_i=0
	while [ $_i -lt "$CR_FILES" ]; do
		_i=$((_i + 1))
		_kb=$(( (_i * 7) % 61 + 1 ))
		dd if=/dev/urandom of=/mnt/crash/files/f$_i bs=1k count=$_kb 2>/dev/null ||
			fail "write f$_i"
		sync /mnt/crash/files/f$_i || fail "fsync f$_i"
		echo "f$_i $(md5sum < /mnt/crash/files/f$_i | cut -d' ' -f1)" >> /tmp/cr.expect
		cr_mark "f$_i"
		# churn: a tree, appends with fdatasync, a rename, unlinks
		mkdir -p /mnt/crash/churn/t$_i/a/b/c
		for _j in 1 2 3; do echo "$_i $_j" > /mnt/crash/churn/t$_i/a/b/c/s$_j; done
		dd if=/dev/urandom of=/mnt/crash/churn/log bs=1k count=3 oflag=append conv=notrunc 2>/dev/null
		sync -d /mnt/crash/churn/log
		echo "tmp $_i" > /mnt/crash/churn/tmp && mv /mnt/crash/churn/tmp /mnt/crash/churn/r$_i
		[ $_i -gt 3 ] && rm -rf /mnt/crash/churn/t$((_i - 3)) /mnt/crash/churn/r$((_i - 3))
		[ -n "$_hook" ] && "$_hook" $_i
	done
	kill $_f1 $_f2 2>/dev/null
	wait $_f1 $_f2 2>/dev/null
	[ -z "${CR_BEFORE_UMOUNT:-}" ] || eval "$CR_BEFORE_UMOUNT"
	expect umount /mnt/crash
	cr_mark end
}

# cr_check LABEL: replay the log point by point and check each; prints
# "# crash: LABEL points N checked N replays N fsck_clean N failed N
# files_checked N seconds N" and sets CR_FAILED (points that failed)
cr_check() {
	_label=$1 _t0=$(date +%s)
	# removing the log-writes target waits until every entry is logged
	dm_remove "$CR_TOP" || fail "remove $CR_TOP"
	[ -z "${CR_MID:-}" ] || dm_remove "$CR_MID" || fail "remove $CR_MID"
	dm_remove cw || fail "remove log-writes"
	replaylog info "$CR_LOG" > /tmp/cr.info || fail "replaylog info"
	replaylog list "$CR_LOG" > /tmp/cr.list || fail "replaylog list"
	diag "log: $(cat /tmp/cr.info)"
	# flush points after mkfs: before it there is no filesystem to mount
	awk '$2 == "MARK" && $5 == "mkfs" { m = 1 } m && $2 ~ /FLUSH|FUA/ { print $1 }' \
		/tmp/cr.list > /tmp/cr.points
	_all=$(wc -l < /tmp/cr.points)
	[ "$_all" -gt 0 ] || fail "$_label: the log has no flush point"
	_want=$CR_MAX_POINTS
	[ "${LUNQ_QUICK:-0}" = 1 ] || [ "${LUNQ_SKIP_TIMING:-0}" = 1 ] && _want=$CR_SAMPLE
	if [ "$_all" -gt "$_want" ]; then
		# a random sample (seed printed), the last point always in it
		awk -v n="$_want" -v seed="$CR_SEED" '
			{ p[NR] = $1 }
			END {
				srand(seed); k = 0
				for (i = 1; i < NR; i++)	# selection sampling
					if (rand() * (NR - 1 - i + 1) < n - 1 - k) { print p[i]; k++ }
				print p[NR]
			}' /tmp/cr.points > /tmp/cr.sample
		diag "$_label: $_all flush points, checking a sample of $(wc -l < /tmp/cr.sample) (seed $CR_SEED)"
	else
		cp /tmp/cr.points /tmp/cr.sample
	fi
	_prev=-1 _n=0 _clean=0 CR_FAILED=0 _files=0 _replays=0
	: > /tmp/cr.failures
	while read -r _p; do
		_n=$((_n + 1))
		replaylog replay "$CR_LOG" "$CR_BASE" --from $((_prev + 1)) --to-entry "$_p" \
			2> /tmp/cr.replay || { cat /tmp/cr.replay; fail "replay to entry $_p"; }
		_replays=$((_replays + 1))
		_prev=$_p
		_bad=
		dm_create crsnap "0 $CR_SZ snapshot $CR_BASE $CR_COW N 8" || fail "snapshot at entry $_p"
		if mount -t ext4 /dev/mapper/crsnap /mnt/replay 2> /tmp/cr.mount; then
			# files whose fsync (mark) came before this point
			awk -v p="$_p" '$2 == "MARK" && $1 < p && $5 ~ /^f[0-9]+$/ { print $5 }' \
				/tmp/cr.list > /tmp/cr.due
			while read -r _f; do
				_files=$((_files + 1))
				_want_md5=$(awk -v f="$_f" '$1 == f { print $2 }' /tmp/cr.expect)
				_got=$(md5sum < "/mnt/replay/files/$_f" 2>/dev/null | cut -d' ' -f1)
				[ "$_got" = "$_want_md5" ] || _bad="$_bad $_f:${_got:-missing}"
			done < /tmp/cr.due
			umount /mnt/replay || _bad="$_bad umount"
		else
			_bad="$_bad mount:$(tr '\n' ' ' < /tmp/cr.mount)"
		fi
		if e2fsck -fn /dev/mapper/crsnap > /tmp/cr.fsck 2>&1; then
			_clean=$((_clean + 1))
		else
			_bad="$_bad fsck:$(grep -v '^Pass\|^e2fsck\|^/dev' /tmp/cr.fsck | head -2 | tr '\n' ' ')"
		fi
		dm_remove crsnap || fail "remove snapshot"
		if [ -n "$_bad" ]; then
			CR_FAILED=$((CR_FAILED + 1))
			echo "entry $_p:$_bad" >> /tmp/cr.failures
		fi
	done < /tmp/cr.sample
	echo "# crash: $_label points $_all checked $_n replays $_replays fsck_clean $_clean failed $CR_FAILED files_checked $_files seconds $(($(date +%s) - _t0))"
	[ "$CR_FAILED" = 0 ] || head -5 /tmp/cr.failures | sed 's/^/#   /'
}

# cr_teardown: the null_blk devices, for a second run
cr_teardown() {
	for _d in crdata crlog crbase crcow; do
		echo 0 > "$CFG/$_d/power" 2>/dev/null
		rmdir "$CFG/$_d" 2>/dev/null
	done
}
