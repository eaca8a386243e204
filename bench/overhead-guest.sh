# bench/overhead-guest.sh: the guest half of bench/overhead.sh (busybox sh,
# root, inside the VM that qemu/run boots).  Not a test: it measures and
# prints, it asserts nothing about speed.  Run it through bench/overhead.sh.
#
#   sh overhead-guest.sh [--rounds N] [--runtime S] [--part a|b|c|...] [--accel NAME] [--profile]
#
# Part A: 4 KiB randread, libaio, direct, QD32, one job, on a null_blk
#   (1 GiB, not memory backed, default softirq completions) through
#   dm-linear and through lunq (no options).  CPU-bound: IOPS shows the cost.
#   Then dm-linear against the floor (bench/floor's lunq_floor target, when
#   built: a remap with per-bio data and end_io), so lunq's cost reads
#   "floor + N instructions per IO".
# Part B: the same reads, QD256 x 8 jobs (2048 outstanding), through lunq
#   qdepth:8 sched:fifo and qdepth:8 sched:disksort on a second null_blk
#   whose completions take B_CNSEC (timer): the 8 slots are the bottleneck,
#   so about 2040 bios wait in lunq and every IO goes through the wait
#   queue (insert, pick).  IOPS is then set by the device and the queue's
#   cost shows as CPU time per IO.  Then disksort alone with ~1000 waiters
#   (QD125 x 8) against ~10000 (QD1250 x 8): an O(log n) queue costs
#   about the same per IO at both.
# Part C: scale: the reads of part A from one fio job per CPU (2, or 4
#   when the VM has 4 or more), QD32 each, all to one device: dm-linear vs
#   lunq qdepth:0 (the lock-free path), then dm-linear vs lunq qdepth:256
#   (throttled, never reached: lock-free too, a slot is one atomic).
# Under icount (--accel icount) the CPU-bound parts A and C also give
# instructions per IO: guest time per IO, 1e9 / IOPS ns at shift 0
# (LUNQ_ICOUNT_SHIFT), as the CPU never idles in them; and the ratio of
# X's to the baseline's per round.  Part B's CPU per IO is then guest busy
# time per IO, instructions too.
# Each part's two devices sit on the same null_blk.  Each round runs both,
# one fio run each, in ABBA order (odd rounds the baseline first, even
# rounds the other) so a drift over time favours neither.  One unmeasured
# warm-up run per device comes first.  Per round: IOPS and CPU us per IO
# of both, and the ratios; at the end medians, the median of the per-round
# ratios with min, max and interquartile range.  Figures also go to
# $LUNQ_OUT/overhead.json.
# CPU per IO: busy time of all CPUs (/proc/stat: user, nice, system, irq,
# softirq, steal; tick-sampled) over the fio run, divided by the IOs read.
# --profile: after a part's rounds, one more run of each device under
# `perf record -a -g` (perf is in the VM when linux-perf is installed on
# the host): the flat profile goes to $LUNQ_OUT/profile-<device>.txt, and a
# line gives the shares of lunq's own functions, the rbtree, the clock,
# context switches and idle, and context switches per IO.
. "$LUNQ_SRC/tests/vm/lib.sh"
. "$LUNQ_SRC/bench/stats.sh"

rounds=10 runtime=5 part=ab accel=unknown prof=0
while [ $# -gt 0 ]; do
	case $1 in
	--rounds) rounds=$2; shift 2 ;;
	--runtime) runtime=$2; shift 2 ;;
	--part) part=$2; shift 2 ;;
	--accel) accel=$2; shift 2 ;;
	--profile) prof=1; shift ;;
	*) echo "overhead-guest: unknown argument '$1'"; exit 2 ;;
	esac
done
case $rounds in ''|*[!0-9]*) echo "--rounds: not a number"; exit 2 ;; esac
case $runtime in ''|*[!0-9]*) echo "--runtime: not a number"; exit 2 ;; esac
[ "$rounds" -ge 1 ] && [ "$runtime" -ge 1 ] || { echo "--rounds and --runtime must be >= 1"; exit 2; }
case $part in *[!abc]*|'') echo "--part: letters of a, b, c"; exit 2 ;; esac
has() { case $part in *$1*) return 0 ;; esac; return 1; }

NB_MB=1024			# both null_blk devices
A_QD=32
B_QD=256 B_JOBS=8 B_QDEPTH=8
E_QD1=125 E_QD2=1250		# part B's second half: ~1000 vs ~10000 waiters
B_CNSEC=${LUNQ_BENCH_B_CNSEC:-1000000}	# part B's completion time (ns)
C_QD=32 C_JOBS=$(nproc)			# part C: a job per CPU, at most 4
[ "$C_JOBS" -gt 4 ] && C_JOBS=4
WARMUP=3			# seconds of each warm-up run
tmp=/tmp/ovh
mkdir -p $tmp

# fio_run DEV IODEPTH NUMJOBS RUNTIME: "IOPS CPU_US_PER_IO" of one fio run
# (read IOPS: terse v3 field 8, group_reporting sums the jobs; IOs read:
# field 6 KiB / 4)
fio_run() {
	_c0=$(cpu_busy)
	fio --name=ovh --filename="$1" --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth="$2" --numjobs="$3" \
		--group_reporting --time_based --runtime="$4" --norandommap \
		--output-format=terse --terse-version=3 > $tmp/fio.out 2>&1 ||
		{ cat $tmp/fio.out >&2; return 1; }
	_c1=$(cpu_busy)
	[ "$(fio_terse $tmp/fio.out 5)" = 0 ] || { cat $tmp/fio.out >&2; return 1; }
	awk -F';' -v c="$((_c1 - _c0))" -v hz=$HZ 'NR == 1 {
		ios = $6 / 4; printf "%s %.2f\n", $8, (ios > 0) ? c * 1e6 / hz / ios : 0 }' $tmp/fio.out
}

# profile NAME DEV IODEPTH NUMJOBS: with --profile, one fio run of DEV
# under perf (see the top); prints its shares line
profile() {
	[ "$prof" = 1 ] || return 0
	command -v perf > /dev/null ||
		{ diag "--profile: no perf in the VM (install linux-perf on the host)"; return 0; }
	echo 0 > /proc/sys/kernel/kptr_restrict
	echo -1 > /proc/sys/kernel/perf_event_paranoid
	_x0=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
	(sleep 1; perf record -a -g -o $tmp/perf.data -- sleep $((runtime > 3 ? runtime - 2 : 1)) \
		> $tmp/perf.log 2>&1) &
	_pp=$!
	_w=$(fio_run "$2" "$3" "$4" "$runtime") || return 1
	wait $_pp
	_x1=$(awk '$1 == "ctxt" { print $2 }' /proc/stat)
	_ios=$(awk -F';' 'NR == 1 { print int($6 / 4) }' $tmp/fio.out)
	perf report -i $tmp/perf.data --no-children --sort sym -g none --stdio 2>/dev/null |
		grep -E '^ +[0-9.]+%' > "$LUNQ_OUT/profile-$1.txt"
	awk -v n="$1" -v x="$((_x1 - _x0))" -v ios="$_ios" -v w="$_w" '
		{ p = $1; sub(/%/, "", p); s = $3 }
		s ~ /^lunq_/ { l += p } s ~ /^rb_/ { rb += p }
		s ~ /^(read_hpet|ktime_get|ktime_get_ts64|read_tsc)$/ { c += p }
		s == "finish_task_switch.isra.0" || s == "finish_task_switch" { cs += p }
		s ~ /safe_halt|^default_idle|^poll_idle/ { idle += p }
		END { printf "  profile %s (%s IOPS, %s us/IO): lunq_* %.2f%%, rb_* %.2f%%, clock %.2f%%, finish_task_switch %.2f%%, idle %.1f%% of the samples; %.2f context switches per IO (profile-%s.txt)\n",
			n, substr(w, 1, index(w, " ") - 1), substr(w, index(w, " ") + 1), l, rb, c, cs, idle, ios ? x / ios : 0, n }' \
		"$LUNQ_OUT/profile-$1.txt"
}

jlist() { echo "$*" | sed 's/ /, /g'; }
# parts A and C are CPU-bound (instructions per IO = guest time per IO);
# part B waits for its device (guest time includes the skipped idle)
cpubound=1
# instr IOPS: guest instructions per IO under icount (-icount shift=S:
# 2^S ns of guest time per instruction; the CPU never idles in these
# CPU-bound runs, so a second of guest time is 1e9 / 2^S instructions)
instr() {
	awk -v i="$1" -v s="${LUNQ_ICOUNT_SHIFT:-0}" 'BEGIN {
		d = 1e9; for (k = 0; k < s; k++) d /= 2	# busybox awk: no ^
		printf "%.0f", (i > 0) ? d / i : 0 }'
}
# jstats "median min max q1 q3": a JSON object
jstats() {
	echo "$1" | awk '{ printf "{\"median\": %s, \"min\": %s, \"max\": %s, \"q1\": %s, \"q3\": %s}", $1, $2, $3, $4, $5 }'
}

# run_part TAG NAME_BASE DEV_BASE NAME_X DEV_X IODEPTH NUMJOBS
# alternates the two devices for $rounds rounds (IODEPTH "B/X": one for
# each); sets the lists
# TAG_ib TAG_ix (IOPS), TAG_cb TAG_cx (CPU us per IO), TAG_ri TAG_rc
# (ratios X/base of IOPS and of CPU per IO)
run_part() {
	_tag=$1 _nb=$2 _db=$3 _nx=$4 _dx=$5 _qb=${6%/*} _qx=${6#*/} _nj=$7
	_lib= _lix= _lcb= _lcx= _lri= _lrc= _lrn=
	_r=1
	while [ "$_r" -le "$rounds" ]; do
		if [ $((_r % 2)) = 1 ]; then
			_b=$(fio_run "$_db" "$_qb" "$_nj" "$runtime") || return 1
			_x=$(fio_run "$_dx" "$_qx" "$_nj" "$runtime") || return 1
		else
			_x=$(fio_run "$_dx" "$_qx" "$_nj" "$runtime") || return 1
			_b=$(fio_run "$_db" "$_qb" "$_nj" "$runtime") || return 1
		fi
		set -- $_b $_x
		_ri=$(ratio "$3" "$1") _rc=$(ratio "$4" "$2") _rn=$(ratio "$1" "$3")
		printf '  round %2d/%d: %s %6s IOPS %6s us/IO | %s %6s IOPS %6s us/IO | %s/%s IOPS %.3f, CPU/IO %.3f' \
			"$_r" "$rounds" "$_nb" "$1" "$2" "$_nx" "$3" "$4" "$_nx" "$_nb" "$_ri" "$_rc"
		[ "$accel" = icount ] && [ "$cpubound" = 1 ] &&
			printf ', instr/IO %s %s, ratio %.4f' "$(instr "$1")" "$(instr "$3")" "$_rn"
		echo
		_lib="$_lib $1" _lcb="$_lcb $2" _lix="$_lix $3" _lcx="$_lcx $4"
		_lri="$_lri $_ri" _lrc="$_lrc $_rc" _lrn="$_lrn $_rn"
		_r=$((_r + 1))
	done
	eval "${_tag}_ib=\"${_lib# }\" ${_tag}_cb=\"${_lcb# }\" ${_tag}_ix=\"${_lix# }\""
	eval "${_tag}_cx=\"${_lcx# }\" ${_tag}_ri=\"${_lri# }\" ${_tag}_rc=\"${_lrc# }\" ${_tag}_rn=\"${_lrn# }\""
}

# report TAG NAME_BASE NAME_X: medians and the ratios' spread; sets the
# "median min max q1 q3" strings TAG_s{ib,ix,cb,cx,ri,rc}
report() {
	TAG_=$1
	for _k in ib ix cb cx ri rc rn; do
		eval "_v=\$(stats \$${1}_$_k)"
		eval "${1}_s$_k=\"\$_v\""
	done
	eval "_ib=\$${1}_sib _ix=\$${1}_six _cb=\$${1}_scb _cx=\$${1}_scx _ri=\$${1}_sri _rc=\$${1}_src"
	printf '  medians: %s %.0f IOPS %.2f us/IO, %s %.0f IOPS %.2f us/IO\n' \
		"$2" "${_ib%% *}" "${_cb%% *}" "$3" "${_ix%% *}" "${_cx%% *}"
	set -- "$2" "$3" $_ri $_rc
	printf '  %s/%s IOPS:   median %.3f, min %.3f, max %.3f, IQR %.3f..%.3f\n' "$2" "$1" "$3" "$4" "$5" "$6" "$7"
	printf '  %s/%s CPU/IO: median %.3f, min %.3f, max %.3f, IQR %.3f..%.3f\n' "$2" "$1" "$8" "$9" "${10}" "${11}" "${12}"
	[ "$accel" = icount ] && [ "$cpubound" = 1 ] || return 0
	eval "_rn=\$${TAG_}_srn"
	set -- "$1" "$2" $_rn
	printf '  %s/%s instructions per IO: median %.4f, min %.4f, max %.4f (%s: %s, %s: %s instr/IO)\n' \
		"$2" "$1" "$3" "$4" "$5" "$1" "$(instr "${_ib%% *}")" "$2" "$(instr "${_ix%% *}")"
}

# summary LABEL "median min max q1 q3"
summary() {
	set -- "$1" $2
	if [ "$accel" = icount ]; then	# instruction counts: four decimals
		printf '%s median %.4f (min %.4f, max %.4f, IQR %.4f..%.4f, %d rounds)' "$1" "$2" "$3" "$4" "$5" "$6" "$rounds"
	else
		printf '%s median %.3f (min %.3f, max %.3f, IQR %.3f..%.3f, %d rounds)' "$1" "$2" "$3" "$4" "$5" "$6" "$rounds"
	fi
}

# json_part TAG KEY NAME_BASE NAME_X FIO_DESC EXTRA: the part's JSON object
json_part() {
	eval "_ib=\$${1}_ib _ix=\$${1}_ix _cb=\$${1}_cb _cx=\$${1}_cx _ri=\$${1}_ri _rc=\$${1}_rc"
	eval "_sib=\$${1}_sib _six=\$${1}_six _scb=\$${1}_scb _scx=\$${1}_scx _sri=\$${1}_sri _src=\$${1}_src"
	printf ',\n  "%s": {\n    "fio": "%s",%s\n' "$2" "$5" "$6"
	printf '    "%s_iops": [%s],\n    "%s_iops": [%s],\n' "$3" "$(jlist $_ib)" "$4" "$(jlist $_ix)"
	printf '    "%s_cpu_us_per_io": [%s],\n    "%s_cpu_us_per_io": [%s],\n' "$3" "$(jlist $_cb)" "$4" "$(jlist $_cx)"
	printf '    "ratio_iops_%s_%s": [%s],\n    "ratio_cpu_%s_%s": [%s],\n' "$4" "$3" "$(jlist $_ri)" "$4" "$3" "$(jlist $_rc)"
	printf '    "%s_iops_stats": %s,\n    "%s_iops_stats": %s,\n' "$3" "$(jstats "$_sib")" "$4" "$(jstats "$_six")"
	printf '    "%s_cpu_us_per_io_stats": %s,\n    "%s_cpu_us_per_io_stats": %s,\n' "$3" "$(jstats "$_scb")" "$4" "$(jstats "$_scx")"
	printf '    "ratio_iops_stats": %s,\n    "ratio_cpu_stats": %s' "$(jstats "$_sri")" "$(jstats "$_src")"
	if [ "$accel" = icount ] && [ "$1" != B ] && [ "$1" != E ]; then
		eval "_rn=\$${1}_rn _srn=\$${1}_srn"
		printf ',\n    "%s_instr_per_io": %s,\n    "%s_instr_per_io": %s' "$3" "$(instr "${_sib%% *}")" "$4" "$(instr "${_six%% *}")"
		printf ',\n    "ratio_instr_%s_%s": [%s],\n    "ratio_instr_stats": %s' "$4" "$3" "$(jlist $_rn)" "$(jstats "$_srn")"
	fi
	printf '\n  }'
}

floor=0
echo "overhead benchmark: kernel $(uname -r), accel $accel, $(nproc) CPUs, $rounds rounds, ${runtime} s per run, $(fio --version)"
start=$(date +%s)

if has a; then
	nb=$(nullb_create ovh_nb $NB_MB memory_backed=0) || { echo "null_blk setup failed"; exit 1; }
	sz=$(sectors "$nb")
	dm_create ovh_linear "0 $sz linear $nb 0" || exit 1
	dm_create ovh_lunq "0 $sz lunq $nb 0" || exit 1
	# the pure throttle: lunq with its statistics off (dm-lunq.rst)
	dm_create ovh_pure "0 $sz lunq $nb 0 1 stats:off" || exit 1
	# the floor (bench/floor): a remap with per-bio data and end_io
	floor_ko=$LUNQ_SRC/build/floor/$(uname -r)/dm-lunq-floor.ko floor=0
	if [ -f "$floor_ko" ] && insmod "$floor_ko" && dm_create ovh_floor "0 $sz lunq_floor $nb 0"; then
		floor=1
	else
		diag "no floor: $floor_ko not built or not loaded (bench/floor/build.sh)"
	fi
	echo
	echo "== Part A: dm-linear vs lunq (no options), 4 KiB randread QD$A_QD x 1 job, ${runtime} s per run"
	diag "null_blk $nb: $NB_MB MiB, not memory backed, irqmode $(cat $CFG/ovh_nb/irqmode), completion_nsec $(cat $CFG/ovh_nb/completion_nsec)"
	for d in ovh_linear ovh_lunq ovh_pure $([ $floor = 1 ] && echo ovh_floor); do
		w=$(fio_run /dev/mapper/$d $A_QD 1 $WARMUP) || exit 1
		diag "warm-up $d: ${w% *} IOPS, ${w#* } us/IO"
	done
	run_part A linear /dev/mapper/ovh_linear lunq /dev/mapper/ovh_lunq $A_QD 1 || exit 1
	report A linear lunq
	echo "-- the pure throttle: dm-linear vs lunq stats:off"
	run_part P linear /dev/mapper/ovh_linear pure /dev/mapper/ovh_pure $A_QD 1 || exit 1
	report P linear pure
	if [ $floor = 1 ]; then
		echo "-- the floor: dm-linear vs lunq_floor (bench/floor: a remap with per-bio data and end_io)"
		run_part F linear /dev/mapper/ovh_linear floor /dev/mapper/ovh_floor $A_QD 1 || exit 1
		report F linear floor
	fi
	profile linear /dev/mapper/ovh_linear $A_QD 1 && profile lunq /dev/mapper/ovh_lunq $A_QD 1 || exit 1
	diag "lunq status after part A: $(dmsetup status ovh_lunq | cut -d' ' -f4-13)"
	dm_remove ovh_linear && dm_remove ovh_lunq && dm_remove ovh_pure || exit 1
	[ $floor = 0 ] || { dm_remove ovh_floor && rmmod dm_lunq_floor; } || exit 1
fi

if has b; then
	nb=$(nullb_create ovh_nbt $NB_MB memory_backed=0 irqmode=2 completion_nsec=$B_CNSEC hw_queue_depth=64) ||
		{ echo "null_blk setup failed"; exit 1; }
	sz=$(sectors "$nb")
	dm_create ovh_fifo "0 $sz lunq $nb 0 2 qdepth:$B_QDEPTH sched:fifo" || exit 1
	dm_create ovh_dsort "0 $sz lunq $nb 0 2 qdepth:$B_QDEPTH sched:disksort" || exit 1
	echo
	echo "== Part B: lunq qdepth:$B_QDEPTH sched:fifo vs sched:disksort, 4 KiB randread QD$B_QD x $B_JOBS jobs, ${runtime} s per run"
	diag "null_blk $nb: $NB_MB MiB, not memory backed, timer completions after $((B_CNSEC / 1000)) us: at most $((B_QDEPTH * 1000000000 / B_CNSEC)) IOPS through $B_QDEPTH slots"
	# warm-up runs, each with one mid-run status sample: waiting= must be
	# in the thousands for the wait queue to matter
	for d in ovh_fifo ovh_dsort; do
		(sleep 2; status_field $d waiting > $tmp/waiting.$d) &
		sp=$!
		w=$(fio_run /dev/mapper/$d $B_QD $B_JOBS $WARMUP) || exit 1
		wait $sp
		wt=$(cat $tmp/waiting.$d)
		eval "wait_$d=\$wt"
		diag "warm-up $d: ${w% *} IOPS, ${w#* } us/IO; mid-run waiting=$wt, max_waiting=$(status_field $d max_waiting)"
	done
	cpubound=0
	run_part B fifo /dev/mapper/ovh_fifo disksort /dev/mapper/ovh_dsort $B_QD $B_JOBS || exit 1
	report B fifo disksort
	profile fifo /dev/mapper/ovh_fifo $B_QD $B_JOBS && profile disksort /dev/mapper/ovh_dsort $B_QD $B_JOBS || exit 1
	diag "disksort status after part B: $(dmsetup status ovh_dsort | cut -d' ' -f4-13)"
	dm_remove ovh_fifo || exit 1
	echo
	echo "== Part B, 1k vs 10k waiters: lunq qdepth:$B_QDEPTH sched:disksort, QD$E_QD1 vs QD$E_QD2 x $B_JOBS jobs, ${runtime} s per run"
	dm_create ovh_dsort2 "0 $sz lunq $nb 0 2 qdepth:$B_QDEPTH sched:disksort" || exit 1
	for qd in $E_QD1:ovh_dsort $E_QD2:ovh_dsort2; do
		q=${qd%:*} d=${qd#*:}
		(sleep 2; status_field $d waiting > $tmp/waiting.$q) &
		sp=$!
		w=$(fio_run /dev/mapper/$d $q $B_JOBS $WARMUP) || exit 1
		wait $sp
		wt=$(cat $tmp/waiting.$q)
		eval "wait_e$q=\$wt"
		diag "warm-up QD$q x $B_JOBS: ${w% *} IOPS, ${w#* } us/IO; mid-run waiting=$wt"
	done
	run_part E 1k /dev/mapper/ovh_dsort 10k /dev/mapper/ovh_dsort2 "$E_QD1/$E_QD2" $B_JOBS || exit 1
	report E 1k 10k
	profile disksort-1k /dev/mapper/ovh_dsort $E_QD1 $B_JOBS && profile disksort-10k /dev/mapper/ovh_dsort2 $E_QD2 $B_JOBS || exit 1
	diag "the 10k device after part B: $(dmsetup status ovh_dsort2 | cut -d' ' -f4-13)"
	dm_remove ovh_dsort && dm_remove ovh_dsort2 || exit 1
fi
cpubound=1
if has c; then
	nb=$(nullb_create ovh_nbc $NB_MB memory_backed=0) || { echo "null_blk setup failed"; exit 1; }
	sz=$(sectors "$nb")
	dm_create ovh_clinear "0 $sz linear $nb 0" || exit 1
	dm_create ovh_c0 "0 $sz lunq $nb 0 1 qdepth:0" || exit 1
	dm_create ovh_c256 "0 $sz lunq $nb 0 1 qdepth:256" || exit 1
	echo
	echo "== Part C: scale, $C_JOBS jobs x QD$C_QD 4 KiB randread to one device: dm-linear vs lunq qdepth:0, then vs lunq qdepth:256, ${runtime} s per run"
	for d in ovh_clinear ovh_c0 ovh_c256; do
		w=$(fio_run /dev/mapper/$d $C_QD $C_JOBS $WARMUP) || exit 1
		diag "warm-up $d: ${w% *} IOPS, ${w#* } us/IO"
	done
	diag "lunq qdepth:0 fast_path (open, IOs): $(cat /sys/kernel/lunq/ovh_c0/fast_path); qdepth:256: $(cat /sys/kernel/lunq/ovh_c256/fast_path) (both lock-free)"
	run_part C linear /dev/mapper/ovh_clinear lunq0 /dev/mapper/ovh_c0 $C_QD $C_JOBS || exit 1
	report C linear lunq0
	run_part D linear /dev/mapper/ovh_clinear lunq256 /dev/mapper/ovh_c256 $C_QD $C_JOBS || exit 1
	report D linear lunq256
	profile scale-linear /dev/mapper/ovh_clinear $C_QD $C_JOBS && profile scale-lunq0 /dev/mapper/ovh_c0 $C_QD $C_JOBS &&
		profile scale-lunq256 /dev/mapper/ovh_c256 $C_QD $C_JOBS || exit 1
	dm_remove ovh_clinear && dm_remove ovh_c0 && dm_remove ovh_c256 || exit 1
fi
secs=$(($(date +%s) - start))

echo
echo "== Summary: $rounds rounds x ${runtime} s per device, accel $accel, $(nproc) CPUs, ${secs} s"
if has a; then
	printf '%s; median IOPS linear %.0f, lunq %.0f\n' "$(summary "overhead: lunq/linear IOPS" "$A_sri")" "${A_sib%% *}" "${A_six%% *}"
	printf '%s; median linear %.2f, lunq %.2f us/IO\n' "$(summary "overhead: lunq/linear CPU per IO" "$A_src")" "${A_scb%% *}" "${A_scx%% *}"
	[ "$accel" = icount ] && printf '%s; linear %s, lunq %s instructions per IO\n' \
		"$(summary "overhead: lunq/linear instructions per IO" "$A_srn")" "$(instr "${A_sib%% *}")" "$(instr "${A_six%% *}")"
	[ "$accel" = icount ] && printf '%s; linear %s, lunq stats:off %s instructions per IO\n' \
		"$(summary "overhead: stats:off/linear instructions per IO" "$P_srn")" "$(instr "${P_sib%% *}")" "$(instr "${P_six%% *}")"
	if [ $floor = 1 ] && [ "$accel" = icount ]; then
		printf '%s; linear %s, floor %s instructions per IO\n' \
			"$(summary "overhead: floor/linear instructions per IO" "$F_srn")" "$(instr "${F_sib%% *}")" "$(instr "${F_six%% *}")"
		awk -v l="$(instr "${A_six%% *}")" -v f="$(instr "${F_six%% *}")" -v d="$(instr "${A_sib%% *}")" 'BEGIN {
			printf "overhead: lunq = floor + %d instructions per IO (floor = dm-linear + %d; lunq = dm-linear + %d, +%.2f%%)\n",
				l - f, f - d, l - d, (l - d) * 100 / d }'
	fi
fi
if has b; then
	printf '%s; median IOPS fifo %.0f, disksort %.0f\n' "$(summary "wait queue: disksort/fifo IOPS" "$B_sri")" "${B_sib%% *}" "${B_six%% *}"
	printf '%s; median fifo %.2f, disksort %.2f us/IO\n' "$(summary "wait queue: disksort/fifo CPU per IO" "$B_src")" "${B_scb%% *}" "${B_scx%% *}"
	echo "wait queue: waiting=$wait_ovh_fifo (fifo), $wait_ovh_dsort (disksort) in a mid-run sample"
	printf '%s\n' "$(summary "wait queue: disksort 10k/1k waiters IOPS" "$E_sri")"
	printf '%s; median 1k %.2f, 10k %.2f us/IO\n' "$(summary "wait queue: disksort 10k/1k waiters CPU per IO" "$E_src")" "${E_scb%% *}" "${E_scx%% *}"
	echo "wait queue: waiting=$wait_e125 (QD$E_QD1 x $B_JOBS), $wait_e1250 (QD$E_QD2 x $B_JOBS) in a mid-run sample"
fi
if has c; then
	printf '%s; median IOPS linear %.0f, lunq %.0f\n' "$(summary "scale ($C_JOBS jobs): lunq qdepth:0/linear IOPS" "$C_sri")" "${C_sib%% *}" "${C_six%% *}"
	printf '%s\n' "$(summary "scale ($C_JOBS jobs): lunq qdepth:0/linear CPU per IO" "$C_src")"
	printf '%s; median IOPS linear %.0f, lunq %.0f\n' "$(summary "scale ($C_JOBS jobs): lunq qdepth:256/linear IOPS" "$D_sri")" "${D_sib%% *}" "${D_six%% *}"
	printf '%s\n' "$(summary "scale ($C_JOBS jobs): lunq qdepth:256/linear CPU per IO" "$D_src")"
	if [ "$accel" = icount ]; then
		printf '%s\n' "$(summary "scale ($C_JOBS jobs): lunq qdepth:0/linear instructions per IO" "$C_srn")"
		printf '%s\n' "$(summary "scale ($C_JOBS jobs): lunq qdepth:256/linear instructions per IO" "$D_srn")"
	fi
fi

j=$LUNQ_OUT/overhead.json
{
	printf '{\n  "benchmark": "overhead",\n  "kernel": "%s",\n  "accel": "%s",\n  "cpus": %s,\n' \
		"$(uname -r)" "$accel" "$(nproc)"
	printf '  "rounds": %s,\n  "runtime_s": %s,\n  "seconds": %s' "$rounds" "$runtime" "$secs"
	has a && json_part A a linear lunq \
		"randread bs=4k iodepth=$A_QD numjobs=1 libaio direct; null_blk softirq completions" ""
	has a && json_part P a_pure linear pure \
		"randread bs=4k iodepth=$A_QD numjobs=1 libaio direct; null_blk softirq completions; lunq stats:off" ""
	has a && [ $floor = 1 ] && json_part F a_floor linear floor \
		"randread bs=4k iodepth=$A_QD numjobs=1 libaio direct; null_blk softirq completions; bench/floor's lunq_floor" ""
	has b && json_part B b fifo disksort \
		"randread bs=4k iodepth=$B_QD numjobs=$B_JOBS libaio direct; null_blk timer completions $B_CNSEC ns" \
		"$(printf '\n    "qdepth": %s,\n    "waiting_sample": {"fifo": %s, "disksort": %s},' \
			$B_QDEPTH "${wait_ovh_fifo:-null}" "${wait_ovh_dsort:-null}")"
	has b && json_part E b_waiters_1k_10k 1k 10k \
		"disksort qdepth:$B_QDEPTH; randread bs=4k iodepth=$E_QD1 vs $E_QD2 numjobs=$B_JOBS libaio direct" \
		"$(printf '\n    "waiting_sample": {"1k": %s, "10k": %s},' "${wait_e125:-null}" "${wait_e1250:-null}")"
	has c && json_part C c_qdepth0 linear lunq0 \
		"randread bs=4k iodepth=$C_QD numjobs=$C_JOBS libaio direct; one device; null_blk softirq completions" ""
	has c && json_part D c_qdepth256 linear lunq256 \
		"randread bs=4k iodepth=$C_QD numjobs=$C_JOBS libaio direct; one device; null_blk softirq completions" ""
	printf '\n}\n'
} > "$j"
diag "figures: overhead.json in the result directory"
cleanup_all
exit 0
