# shellcheck shell=sh
# Helpers for the VM integration tests (busybox sh, run as root in the VM).
# A test is tests/vm/t-NAME.sh: it exits 0 to pass, 77 to skip, anything
# else to fail, and prints what it checked.  tests/vm/suite.sh runs them.
#
# What a test checked is KTAP, in the verbs and lines of tests/unit/tap.sh
# and tap.h: its checks are numbered results, which suite.sh prints as
# the subtests of the test's own result line (with their plan), its
# other output as diagnostics:
#   ok NAME [WHY]     "ok N NAME[ # WHY]"
#   fail NAME [WHY]   "not ok N NAME[ # WHY]", and the test ends (exit 1)
#   skip [NAME] WHY   "ok N NAME # SKIP WHY" (NAME: "skipped"), and the
#                     test ends (exit 77)
#   diag TEXT...      "# TEXT"
# The one difference from tap.sh: here fail and skip end the test.  A VM
# test's later steps build on what it checked (a device created, a load
# started), and its exit status is what suite.sh reads (0 pass, 77 skip,
# else fail); a host test's checks are independent and it runs on.
# N counts on in subshells too (a file per test script, /tmp/lunq-ktap.PID).

CFG=/sys/kernel/config/nullb

_lq_ktap_n=/tmp/lunq-ktap.$$
# _lq_result "ok"|"not ok" TEXT: the next numbered result
_lq_result() {
	_lq_k=$(($(cat "$_lq_ktap_n" 2>/dev/null || echo 0) + 1))
	echo "$_lq_k" > "$_lq_ktap_n"
	echo "$1 $_lq_k $2"
}
ok() { _lq_result ok "$1${2:+ # $2}"; }
fail() { _lq_result "not ok" "$1${2:+ # $2}"; exit 1; }
skip() {
	if [ $# -ge 2 ]; then _lq_result ok "$1 # SKIP $2"; else _lq_result ok "skipped # SKIP $1"; fi
	exit 77
}
diag() { echo "# $*"; }

# demo_checks LOG N WHAT: the checks of a demonstration script
# (tests/demo/lib.sh: "ok N TEXT" / "not ok N TEXT" lines in LOG) as this
# test's own results; fails the test unless N of them passed (WHAT: what
# to say then, e.g. "demo.sh exit 1")
demo_checks() {
	tr -d '\r' < "$1" > "/tmp/demo-checks.$$"
	while IFS= read -r _l; do
		case $_l in
		"ok "[0-9]*) _t=${_l#ok }; _lq_result ok "${_t#* }" ;;
		"not ok "[0-9]*) _t=${_l#not ok }; _lq_result "not ok" "${_t#* }" ;;
		esac
	done < "/tmp/demo-checks.$$"
	_p=$(grep -c '^ok [0-9]' "/tmp/demo-checks.$$")
	rm -f "/tmp/demo-checks.$$"
	[ "$_p" = "$2" ] || fail "want $2 passed checks, $3"
}
# demo_output LOG: a demonstration's output but its checks, as diagnostics
demo_output() { tr -d '\r' < "$1" | grep -vE '^(not )?ok [0-9]+ ' | sed 's/^/# /'; }

# expect CMD...: run it, fail the test when it fails
expect() { "$@" || fail "command failed: $*"; }

# dm_create NAME TABLE: create a dm device and its node without udev
dm_create() {
	echo "$2" | dmsetup create --noudevsync "$1" || return 1
	dmsetup mknodes "$1" 2>/dev/null
	[ -b "/dev/mapper/$1" ] || { echo "no block node /dev/mapper/$1"; return 1; }
}

# lunq_target DEV START WORDS...: a lunq target's arguments, "lunq DEV
# START N WORDS..." with N the number of optional WORDS (none: no N)
lunq_target() {
	_lt_d=$1 _lt_s=$2
	shift 2
	echo "lunq $_lt_d $_lt_s${1:+ $# $*}"
}

# lunq_table [-s START] [-l SECTORS] DEV WORDS...: a lunq table line,
# "0 SECTORS lunq DEV START N WORDS..." (START 0, SECTORS what DEV holds
# beyond START, N counted)
lunq_table() {
	_lt_o=0 _lt_l=
	while :; do
		case $1 in
		-s) _lt_o=$2; shift 2 ;;
		-l) _lt_l=$2; shift 2 ;;
		*) break ;;
		esac
	done
	_lt_dev=$1
	shift
	[ -n "$_lt_l" ] || _lt_l=$(($(sectors "$_lt_dev") - _lt_o)) || return 1
	echo "0 $_lt_l $(lunq_target "$_lt_dev" "$_lt_o" "$@")"
}

# lunq_create NAME [-s START] [-l SECTORS] DEV WORDS...: a lunq device
# NAME with lunq_table's line
lunq_create() {
	_lc_n=$1
	shift
	_lc_t=$(lunq_table "$@") || return 1
	dm_create "$_lc_n" "$_lc_t"
}

# (--retry: a process that just exited may still hold the device for a
# moment, e.g. while its io_uring is torn down in a workqueue)
dm_remove() { dmsetup remove --noudevsync --retry "$1"; }

# dm_exists NAME: true if device-mapper knows NAME
dm_exists() { dmsetup info "$1" >/dev/null 2>&1; }

# sectors DEV
sectors() { blockdev --getsz "$1"; }

# nullb_create NAME SIZE_MB [ATTR=VALUE...]: memory-backed null_blk via
# configfs; prints /dev/NAME
nullb_create() {
	_n=$1 _s=$2
	shift 2
	modprobe null_blk nr_devices=0 || return 1
	mkdir "$CFG/$_n" || return 1
	echo "$_s" > "$CFG/$_n/size"
	echo 1 > "$CFG/$_n/memory_backed"
	for _kv in "$@"; do
		echo "${_kv#*=}" > "$CFG/$_n/${_kv%%=*}" || return 1
	done
	echo 1 > "$CFG/$_n/power" || return 1
	[ -b "/dev/$_n" ] || return 1
	echo "/dev/$_n"
}

# nullb_remove NAME...: power off and remove the null_blk devices NAME
# that exist
nullb_remove() {
	for _nr in "$@"; do
		[ -d "$CFG/$_nr" ] || continue
		echo 0 > "$CFG/$_nr/power"
		rmdir "$CFG/$_nr"
	done
}

# load_loop TAG CMD...: CMD (a lunqbench run with --kv) again and again in
# the background until /tmp/TAG.stop exists; each run's --kv line is
# appended to /tmp/TAG.kv, a failed run's output (and "rc=N") left in
# /tmp/TAG.lbfail; lbpid is the loop's pid
load_loop() {
	_ll=$1
	shift
	rm -f "/tmp/$_ll.stop" "/tmp/$_ll.lbfail"
	(
		while [ ! -e "/tmp/$_ll.stop" ]; do
			"$@" > "/tmp/$_ll.lb" 2>&1
			_rc=$?
			tail -n 1 "/tmp/$_ll.lb" >> "/tmp/$_ll.kv"
			[ $_rc = 0 ] || { cat "/tmp/$_ll.lb" > "/tmp/$_ll.lbfail"; echo "rc=$_rc" >> "/tmp/$_ll.lbfail"; }
		done
	) &
	lbpid=$!
}

# kvsum FILE KEY: the sum of KEY= over the lines of FILE
kvsum() { tr ' ' '\n' < "$1" | sed -n "s/^$2=//p" | awk '{ s += $1 } END { print s + 0 }'; }

# lq_nullb MS WORDS...: lq over a 256 MiB null_blk lq_nb (256 hardware
# tags) that completes every IO after MS ms, with lunq's WORDS; sets nb,
# and dm (lq's /sys/block directory); a step that fails fails the test
lq_nullb() {
	nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=$(($1 * 1000000)) hw_queue_depth=256) ||
		fail "null_blk setup"
	shift
	lunq_create lq "$nb" "$@" || fail "create lq: $*"
	dm=$(dm_sysfs lq) || fail "no sysfs for lq"
}

# brd_create SIZE_MB: prints /dev/ram0
brd_create() {
	modprobe brd rd_nr=1 rd_size=$(($1 * 1024)) max_part=0 || return 1
	[ -b /dev/ram0 ] || return 1
	echo /dev/ram0
}

# disk_stat DEV FIELD: a field of /sys/block/DEV/stat (1-based; 1 reads,
# 5 writes, 12 discards, 16 flushes)
disk_stat() {
	awk -v f="$2" '{ print $f }' "/sys/block/$(basename "$1")/stat"
}

# dm_sysfs NAME: /sys/block/dm-N of a dm device
dm_sysfs() {
	_mm=$(dmsetup info -c --noheadings -o major,minor "$1" | tr -d ' ')
	for _d in /sys/block/dm-*; do
		[ "$(cat "$_d/dev")" = "$_mm" ] && { echo "$_d"; return 0; }
	done
	return 1
}

# dmesg_mark: print a marker into the kernel log; dmesg_since MARK prints
# what came after it
dmesg_mark() {
	_m="lunq-test-mark-$$-$(date +%s)-$RANDOM"
	echo "$_m" > /dev/kmsg
	echo "$_m"
}
dmesg_since() { dmesg | sed -n "/$1/,\$p" | sed 1d; }

# fio_json OUT DEV ARGS...: a fio job (direct, libaio) on DEV, its JSON in
# OUT; fatal when fio fails or reports an error
fio_json() {
	_out=$1 _dev=$2
	shift 2
	fio --name=j --filename="$_dev" --direct=1 --ioengine=libaio \
		--output-format=json "$@" > "$_out" 2> "$_out.err" ||
		{ cat "$_out.err"; fail "fio $*"; }
	[ "$(jq '.jobs[0].error' "$_out")" = 0 ] || fail "fio $*: error"
}

# fio_verify NAME DEV ARGS...: a write+verify pass, fatal on any mismatch
fio_verify() {
	_name=$1 _dev=$2
	shift 2
	# a file of its own: two can run at once from one shell (one in the
	# background), and $$ is the same in both
	_fo=$(mktemp /tmp/fio.XXXXXX)
	fio --name="$_name" --filename="$_dev" --direct=1 --ioengine=libaio \
		--verify=crc32c --do_verify=1 --verify_fatal=1 \
		--verify_dump=0 --output-format=terse --terse-version=3 "$@" \
		> "$_fo" 2>&1
	_rc=$?
	if [ $_rc -ne 0 ]; then
		cat "$_fo"
		rm -f "$_fo"
		return $_rc
	fi
	# terse v3: 3 job name, 5 error, 6 read KiB, 47 write KiB
	awk -F";" "{ printf \"fio %s: error=%s read_kb=%s write_kb=%s\\n\", \$3, \$5, \$6, \$47 }" "$_fo"
	awk -F';' '$5 != 0 { bad = 1 } END { exit bad }' "$_fo"
	_rc=$?
	rm -f "$_fo"
	return $_rc
}

# cleanup_all: remove every dm device, null_blk device and ram disk
cleanup_all() {
	grep -qs ' /mnt/lunq' /proc/mounts && umount /mnt/lunq
	# a load the test left running, or a process that just exited (its
	# io_uring torn down in a workqueue), may hold a device a moment longer
	killall fio lunqbench blktrace lunqctl 2>/dev/null
	# BPF policies a test left attached: their pinned links keep dm-lunq
	# loaded (the next test's rmmod would fail)
	rm -f /sys/fs/bpf/lunq/* 2>/dev/null
	for _i in 1 2 3 4 5 6 7 8 9 10; do
		dmsetup remove_all --noudevsync >/dev/null 2>&1
		[ -z "$(dmsetup ls 2>/dev/null | grep -v '^No devices found')" ] && break
		sleep 0.5
	done
	if [ -n "$(dmsetup ls 2>/dev/null | grep -v '^No devices found')" ]; then
		# say what still holds them (the next test would fail to create)
		{ echo "cleanup_all: dm devices left after 5 s:"; dmsetup info -c; ps; } >> "${LUNQ_OUT:-/tmp}/cleanup.log" 2>&1
	fi
	if [ -d "$CFG" ]; then
		for _d in "$CFG"/*; do
			[ -d "$_d" ] || continue
			echo 0 > "$_d/power" 2>/dev/null
			rmdir "$_d"
		done
	fi
	for _m in null_blk brd scsi_debug sd_mod; do
		grep -q "^$_m " /proc/modules && rmmod "$_m"
	done
	return 0
}

# Note: busybox sh runs its own applets before searching PATH (dd, rmmod,
# blkdiscard, ...).  Call util-linux or kmod programs by full path when an
# option only they have is needed (e.g. /usr/sbin/blkdiscard -z).

# sdebug_create MODULE_PARAMS...: load scsi_debug, print its disk's /dev path
sdebug_create() {
	modprobe sd_mod && modprobe scsi_debug "$@" || return 1
	for _i in $(seq 40); do
		for _b in /sys/block/sd*; do
			[ -e "$_b/device/model" ] || continue
			case $(cat "$_b/device/model") in
			scsi_debug*) [ -b "/dev/${_b##*/}" ] && { echo "/dev/${_b##*/}"; return 0; } ;;
			esac
		done
		sleep 0.25
	done
	return 1
}

# status_field NAME KEY: a key=value word of `dmsetup status NAME`
# sdebug_models MODEL1 MODEL2 [scsi_debug params]: two scsi_debug hosts
# whose LUNs report the INQUIRY products MODEL1 and MODEL2 (inq_product
# changed between the module load and an add_host); prints "DEV1 DEV2"
sdebug_models() {
	_m1=$1 _m2=$2
	shift 2
	modprobe sd_mod && modprobe scsi_debug inq_product="$_m1" "$@" || return 1
	printf '%s' "$_m2" > /sys/module/scsi_debug/parameters/inq_product &&
		echo 1 > /sys/bus/pseudo/drivers/scsi_debug/add_host || return 1
	_d1= _d2=
	for _i in $(seq 40); do
		for _b in /sys/block/sd*; do
			[ -e "$_b/device/model" ] && [ -b "/dev/${_b##*/}" ] || continue
			case $(cat "$_b/device/model") in
			"$_m1"*) _d1=/dev/${_b##*/} ;;
			"$_m2"*) _d2=/dev/${_b##*/} ;;
			esac
		done
		[ -n "$_d1" ] && [ -n "$_d2" ] && { echo "$_d1 $_d2"; return 0; }
		sleep 0.25
	done
	return 1
}
status_field() {
	dmsetup status "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}

# inflight_watch DEV OUT: sample /sys/block/DEV/inflight (reads + writes)
# in a tight loop until OUT.stop exists, then write "MAX SAMPLES" to OUT.
# Run it in the background; stop it with inflight_stop OUT PID.
inflight_watch() {
	_f=/sys/block/$(basename "$1")/inflight _o=$2 _max=0 _n=0
	while [ ! -e "$_o.stop" ]; do
		read -r _r _w < "$_f"
		_t=$((_r + _w))
		[ $_t -gt $_max ] && _max=$_t
		_n=$((_n + 1))
	done
	echo "$_max $_n" > "$_o"
}
inflight_stop() { touch "$1.stop"; wait "$2"; rm -f "$1.stop"; }

# bt_start DEV FILE [ACTION...]: blktrace DEV (default actions issue and
# complete) into FILE in the background; bt_stop parses it into FILE.txt
# as "ACTION RWBS SECTOR BLOCKS" lines, in time order.
bt_start() {
	_btdev=$1 _btf=$2
	shift 2
	[ $# -gt 0 ] || set -- issue complete
	_bta=
	for _a in "$@"; do _bta="$_bta -a $_a"; done
	# shellcheck disable=SC2086
	blktrace -d "$_btdev" $_bta -o - > "$_btf" 2> "$_btf.err" &
	_btpid=$!
	sleep 2		# blktrace needs a moment before it sees events
}
bt_stop() {
	sleep 1
	kill -INT "$_btpid"
	wait "$_btpid"
	blkparse -i - -f '%T %t %a %d %S %n\n' < "$_btf" 2>/dev/null | bt_sort > "$_btf.txt"
}

# bt_sort: order "SEC NSEC REST..." lines by time and drop the time.
# blktrace -o - streams each CPU's sub-buffers as they fill, and blkparse
# reading a pipe can print an event of one CPU before an earlier one of
# another CPU; the timestamps (ktime_get) are the true order.
bt_sort() {
	awk 'NF >= 3 && $1 ~ /^[0-9]+$/' | sort -s -n -k1,1 -k2,2 | cut -d' ' -f3-
}

# traced_verify LOWER ACTION NAME DEV FIO_ARGS...: fio_verify NAME DEV
# FIO_ARGS... under blktrace of LOWER recording ACTION ("-": issue and
# complete), the test failing when verify does; the trace in /tmp/bt.txt
# (bt_stop's lines), low the most requests in flight at once at LOWER
traced_verify() {
	_tv_lo=$1 _tv_a=$2 _tv_n=$3
	shift 3
	if [ "$_tv_a" = - ]; then bt_start "$_tv_lo" /tmp/bt; else bt_start "$_tv_lo" /tmp/bt "$_tv_a"; fi
	fio_verify "$_tv_n" "$@" || fail "$_tv_n: fio verify"
	bt_stop
	low=$(max_concurrent /tmp/bt.txt)
}

# fio_terse FILE FIELD: a field of fio's terse v3 output (first job line)
fio_terse() { awk -F';' -v f="$2" 'NR == 1 { print $f }' "$1"; }

# trace_qd DMDEV LOWER CMD...: run CMD with blktrace on both devices;
# /tmp/q.txt gets the bios arriving at the dm device (Q, "RWBS SECTOR"),
# /tmp/d.txt the requests issued to LOWER (D), each in time order
trace_qd() {
	_tq=$1 _td=$2
	shift 2
	blktrace -d "$_tq" -a queue -o - > /tmp/q.bin 2>/tmp/q.err &
	_t1=$!
	blktrace -d "$_td" -a issue -o - > /tmp/d.bin 2>/tmp/d.err &
	_t2=$!
	sleep 2
	"$@"
	sleep 1
	kill -INT $_t1 $_t2
	wait $_t1 $_t2
	blkparse -i - -f '%T %t %a %d %S\n' < /tmp/q.bin 2>/dev/null | bt_sort | awk '$1 == "Q" { print $2, $3 }' > /tmp/q.txt
	blkparse -i - -f '%T %t %a %d %S\n' < /tmp/d.bin 2>/dev/null | bt_sort | awk '$1 == "D" { print $2, $3 }' > /tmp/d.txt
}

# expect_log MARK TEXT WHAT: the kernel log since MARK contains TEXT
expect_log() {
	dmesg_since "$1" | grep -qF "$2" ||
		{ dmesg_since "$1"; fail "kernel log lacks '$2' for: $3"; }
}

# refused_msg DEV WORDS EXPECT: `dmsetup message DEV 0 WORDS` must fail,
# leave DEV's table as it was and log EXPECT
refused_msg() {
	_before=$(dmsetup table "$1") _mark=$(dmesg_mark)
	# shellcheck disable=SC2086
	dmsetup message "$1" 0 $2 2>/dev/null && fail "accepted: message $2"
	[ "$(dmsetup table "$1")" = "$_before" ] || fail "message '$2' changed the policy"
	expect_log "$_mark" "$3" "$2"
	ok "refused message '$2': $3"
}

# max_concurrent FILE.txt: the highest number of requests issued (D) and
# not yet completed (C) at the lower device, from bt_stop's output
max_concurrent() {
	awk '$1 == "D" { c++; if (c > m) m = c } $1 == "C" { c-- } END { print m + 0 }' "$1"
}

# tlog NAME: the throttle log, "MS FROM TO CAUSE" per line
tlog() { dmsetup message "$1" 0 throttle log; }

# counters_consistent NAME: every IO sent below completed or was aborted
# by a LUN reset (and sent again), nothing is left in flight or waiting
counters_consistent() {
	_s=$(dmsetup status "$1")
	_v() { echo "$_s" | tr ' ' '\n' | sed -n "s/^$1=//p"; }
	[ "$(_v dispatched)" -eq $(( $(_v completed) + $(_v aborted) )) ] &&
	[ "$(_v inflight)" = 0 ] && [ "$(_v waiting)" = 0 ] &&
	[ "$(_v retrying)" = 0 ] && [ "$(_v lun_inflight)" = 0 ] ||
		{ echo "$_s"; return 1; }
}

# now_ms: milliseconds since boot (busybox date has no %N)
now_ms() { awk '{ printf "%d\n", $1 * 1000 }' /proc/uptime; }
# ms NS: nanoseconds as milliseconds with two decimals
ms() { awk -v n="$1" 'BEGIN { printf "%.2f", n / 1e6 }'; }

# lb_jobrow FILE JOB: JOB's row of lunqbench's summary in FILE (text
# output): "ios iops max_ns"
lb_jobrow() {
	awk -v j="$2" '$1 == j && ($2 == "open" || $2 == "closed") {
		v = $(NF - 1); u = $NF
		m = (u == "s") ? 1e9 : (u == "ms") ? 1e6 : (u == "us") ? 1e3 : 1
		printf "%d %s %.0f\n", $3, $4, v * m; exit }' "$1"
}

# lq_stat NAME STAT: a statistic from /sys/kernel/lunq/NAME/stats/
lq_stat() { cat "/sys/kernel/lunq/$1/stats/$2"; }

# lq_hist NAME HIST KEY: a line of /sys/kernel/lunq/NAME/hist/HIST
# (count, sum, max, p50 .. p99.99, or a row's lower bound)
lq_hist() { awk -v k="$3" '$1 == k { print $2 }' "/sys/kernel/lunq/$1/hist/$2"; }

# lc RC ARGS...: run "lunqctl ARGS", its stdout in /tmp/lc.out and stderr
# in /tmp/lc.err; fail the test unless it exits RC
lc() {
	_want=$1
	shift
	lunqctl "$@" > /tmp/lc.out 2> /tmp/lc.err
	_rc=$?
	[ "$_rc" = "$_want" ] || {
		cat /tmp/lc.out /tmp/lc.err
		fail "lunqctl $*: exit $_rc, want $_want"
	}
}

# lc_err TEXT: lunqctl's last stderr contains TEXT
lc_err() { grep -qF -- "$1" /tmp/lc.err || { cat /tmp/lc.err; fail "stderr lacks '$1'"; }; }
# lc_out TEXT: lunqctl's last stdout contains TEXT
lc_out() { grep -qF -- "$1" /tmp/lc.out || { cat /tmp/lc.out; fail "stdout lacks '$1'"; }; }

# as_nobody CMD...: run CMD as uid/gid 65534 without capabilities
as_nobody() { /usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups "$@"; }

# Duration scale: tests/run --quick exports LUNQ_QUICK=1 into the guest.
# scaled N [MIN]: N, or N/4 (at least MIN, default 1) in quick mode; use it
# for run times, loop counts and IO counts whose size only buys confidence.
scaled() {
	if [ "${LUNQ_QUICK:-0}" = 1 ]; then
		awk -v n="$1" -v m="${2:-1}" 'BEGIN { q = int(n / 4); print (q < m) ? m : q }'
	else
		echo "$1"
	fi
}

# io_report SCENARIO ISSUED COMPLETED ERRORS [EXPECTED_ERRORS]: the line
# every fault/load scenario prints ("io: SCENARIO issued N completed N
# errors N lost N"; tests/run collects them); fails when an IO was lost
# (issued != completed) or when ERRORS differs from EXPECTED_ERRORS (0).
io_report() {
	_lost=$(($2 - $3))
	echo "# io: $1 issued $2 completed $3 errors $4 lost $_lost"
	[ "$_lost" = 0 ] || fail "$1: $_lost IOs lost (issued $2, completed $3)"
	[ "$4" = "${5:-0}" ] || fail "$1: $4 IO errors, expected ${5:-0}"
}

# lunq_ev_on EVENT: an empty trace buffer (4 MiB a CPU) recording only
# lunq:EVENT; lunq_ev_off EVENT: stop, fail when the buffer overran, and
# leave the lines in /sys/kernel/tracing/trace, tracing on again (as
# every test finds it: t-passthrough-ops, after t-bpf-policy in one boot,
# once found it off and its block_rq_issue lines missing)
lunq_ev_on() {
	_tr=/sys/kernel/tracing
	[ -d $_tr/events ] || mount -t tracefs tracefs $_tr 2>/dev/null
	echo 0 > $_tr/tracing_on
	echo > $_tr/trace
	echo 4096 > $_tr/buffer_size_kb
	echo 1 > "$_tr/events/lunq/$1/enable"
	echo 1 > $_tr/tracing_on
}
lunq_ev_off() {
	_tr=/sys/kernel/tracing
	echo 0 > $_tr/tracing_on
	echo 0 > "$_tr/events/lunq/$1/enable"
	echo 1 > $_tr/tracing_on
	grep -q 'LOST\|overrun: [1-9]' $_tr/trace && fail "trace buffer overran"
	return 0
}
