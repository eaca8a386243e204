# Lower-device errors propagate through lunq as errors: never a hang, never
# a success.  Stack: lunq (qdepth:2, so IOs wait while errors come back) over
# a dm device "lq_fl" (linear, reloaded to dm-flakey for the fault windows)
# over a memory-backed null_blk with 1 ms completions.  Fault phases, each a
# lunqbench --verify load (mixed 4 KiB reads and writes, QD32) under a
# timeout:
#   error_writes  flakey up 1 s / down 1 s, writes fail while down (in
#                 flakey's map, synchronously, from lunq's dispatcher)
#   error_all     flakey up 1 s / down 1 s, every IO fails while down
#   badblocks     null_blk bad sectors: IOs touching them fail from the
#                 lower driver's completion (timer) context, 1 ms later
# Each phase: the tool reports errors (> 0), every IO it issued completed
# (lunq's reads + writes = the tool's ios + errors, dispatched = completed,
# nothing waiting or in flight in lunq, flakey and null_blk inflight 0 0),
# lunq's errors counter = the tool's error count, IOs waited meanwhile,
# and verify found nothing wrong in what was read back.  Then, flakey
# replaced by a linear table again and the bad blocks cleared: a read pass
# over the whole range finds every block intact (a failed write changed
# nothing: the block still holds the data of the last write that
# succeeded), and a fresh write+verify pass is clean.  Last, no invented
# error: with lunq's service-time model, 1 MiB IOs that null_blk must split
# (refused for io_uring's REQ_NOWAIT and reissued) all succeed.
# group: fault
# time-debug: 60
# time: 20
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=1000000 hw_queue_depth=64) ||
	fail "null_blk setup"
sz=$(sectors "$nb")
dm_create lq_fl "0 $sz linear $nb 0" || fail "create lq_fl"
fl=$(dm_sysfs lq_fl) || fail "no sysfs for lq_fl"
lunq_create lq -l $sz /dev/mapper/lq_fl qdepth:2 sched:disksort || fail "create lq"

secs=$(scaled 8 3)
kv() { tr ' ' '\n' < /tmp/lb.kv | sed -n "s/^$1=//p"; }

# lb RC_OK ARGS...: lunqbench --verify over 0-16m of lq, bounded by a
# timeout; fails the test on a hang, a verify error or an exit status
# other than 0 or RC_OK (4: IO errors)
lb() {
	_ok=$1
	shift
	timeout 90 lunqbench --verify --seed 7 --range 0-16m --interval 0 --kv "$@" \
		/dev/mapper/lq > /tmp/lb.out 2>&1
	_rc=$?
	tail -1 /tmp/lb.out > /tmp/lb.kv
	case $_rc in
	124|143) cat /tmp/lb.out; fail "lunqbench hung (killed after 90 s): $(dmsetup status lq)" ;;
	0) ;;
	"$_ok") ;;
	*) cat /tmp/lb.out; fail "lunqbench exit $_rc" ;;
	esac
	[ "$(kv verify_errors)" = 0 ] || { cat /tmp/lb.out; fail "verify errors"; }
}

# flakey TABLE_ARGS: swap lq_fl's table (a flush suspend of the lower dm
# device while lunq above is idle)
flakey() {
	expect dmsetup load lq_fl --table "0 $sz $1"
	expect dmsetup suspend lq_fl
	expect dmsetup resume --noudevsync lq_fl
}

inflight0() {
	for _d in "$fl" /sys/block/lq_nb; do
		read -r _r _w < "$_d/inflight"
		[ "$_r" = 0 ] && [ "$_w" = 0 ] ||
			fail "$1: $(basename "$_d") inflight $_r $_w"
	done
}
lower_ios() { echo $(($(disk_stat "$fl" 1) + $(disk_stat "$fl" 5))); }

# phase NAME RC_OK ARGS...: stats reset, run lb, check the books and print
# the io line; sets $errs
phase() {
	_name=$1 _rcok=$2
	shift 2
	expect dmsetup message lq 0 stats reset
	_l0=$(lower_ios)
	lb "$_rcok" "$@"
	counters_consistent lq || fail "$_name: lunq holds IO after the run"
	inflight0 "$_name"
	issued=$(($(kv ios) + $(kv errors)))
	errs=$(kv errors)
	done_lq=$(($(lq_stat lq reads) + $(lq_stat lq writes)))
	err_lq=$(lq_stat lq errors)
	disp=$(lq_stat lq dispatched)
	lower=$(($(lower_ios) - _l0))
	diag "$_name: $(cat /tmp/lb.kv)"
	diag "$_name: lunq reads+writes $done_lq errors $err_lq dispatched $disp max_waiting $(lq_stat lq max_waiting); lq_fl reads+writes $lower"
	[ "$disp" = "$done_lq" ] || fail "$_name: lunq dispatched $disp, completed $done_lq reads+writes"
	[ "$err_lq" = "$errs" ] || fail "$_name: lunq counted $err_lq errors, lunqbench $errs"
	[ "$lower" -le "$disp" ] || fail "$_name: the lower device saw more IOs ($lower) than lunq sent ($disp)"
	io_report "lower-errors-$_name" "$issued" "$done_lq" "$err_lq" "$errs"
}

# 0: initialise the range, every block written once with seed 7
phase init 0 --bs 64k --rdpct 0 --seekpct 0 --ios 256 --iodepth 4
[ "$lower" = "$issued" ] || fail "init: lq_fl saw $lower IOs of $issued"
ok "init: 16 MiB written through lunq over the healthy stack"

mixed="--bs 4k --rdpct 50 --seekpct 100 --iodepth 32 --elapsed $secs"

# 1: writes fail while flakey is down
flakey "flakey $nb 0 1 1 1 error_writes"
# shellcheck disable=SC2086
phase error_writes 4 $mixed
[ "$errs" -gt 0 ] || fail "error_writes: no IO failed in $secs s of 1 s up / 1 s down"
[ "$(lq_stat lq max_waiting)" -gt 0 ] || fail "error_writes: nothing waited"
[ "$lower" = "$disp" ] || fail "error_writes: lq_fl saw $lower IOs, lunq sent $disp"
ok "error_writes: $errs of $issued IOs failed, all reported as errors, lunq errors=$err_lq, none lost"

# 2: everything fails while flakey is down (killed in flakey's map)
flakey "flakey $nb 0 1 1"
# shellcheck disable=SC2086
phase error_all 4 $mixed
[ "$errs" -gt 0 ] || fail "error_all: no IO failed"
[ "$(lq_stat lq max_waiting)" -gt 0 ] || fail "error_all: nothing waited"
ok "error_all: $errs of $issued IOs failed (reads and writes), lunq errors=$err_lq, none lost"

# 3: asynchronous errors from the lower driver: bad blocks in null_blk,
# 8 sectors every 512 KiB of the range (32 of 4096 blocks)
# badblocks SIGN: add (+) or clear (-) those 32 ranges
badblocks() {
	_i=0
	while [ $_i -lt 32 ]; do
		_s=$((_i * 1024 + 8 * (_i % 7)))
		echo "$1$_s-$((_s + 7))" > "$CFG/lq_nb/badblocks" || fail "badblocks $1$_s"
		_i=$((_i + 1))
	done
}
flakey "linear $nb 0"
badblocks +
# shellcheck disable=SC2086
phase badblocks 4 $mixed
[ "$errs" -gt 0 ] || fail "badblocks: no IO failed"
[ "$(lq_stat lq max_waiting)" -gt 0 ] || fail "badblocks: nothing waited"
[ "$lower" = "$disp" ] || fail "badblocks: lq_fl saw $lower IOs, lunq sent $disp"
ok "badblocks: $errs of $issued IOs failed in null_blk's completion, lunq errors=$err_lq, none lost"

# healthy again: read every block, then a fresh write+verify pass
badblocks -
phase readback 0 --bs 64k --rdpct 100 --seekpct 0 --ios 256 --iodepth 4
ok "read pass over 16 MiB after the faults: every block intact"
# shellcheck disable=SC2086
phase fresh 0 $mixed
ok "fresh write+verify pass on the healed stack: clean ($issued IOs)"

# no invented error: with the service-time model, 1 MiB IOs the lower
# device must split are refused there for io_uring's REQ_NOWAIT
# (BLK_STS_AGAIN, reissued without it); the application sees none
expect dmsetup message lq 0 set model:fixed svc_us:300
lb 0 --bs 1m --rdpct 50 --seekpct 100 --iodepth 4 --ios 64
counters_consistent lq || fail "model, 1 MiB: lunq holds IO after the run"
ok "model and 1 MiB IOs split below: no error reaches the application ($(kv ios) IOs)"
