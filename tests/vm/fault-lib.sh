# shellcheck shell=sh
# Helpers of the fault and load matrix (tests/vm/t-fault-*.sh), sourced
# after lib.sh.  The verifying load is lunqbench --verify: 4 KiB IOs over
# the first $FL_MB MiB of a device, every write carrying its sector, a
# sequence number and a crc, every read checked against the last write
# that completed (bench/lunqbench.1, "Verify").

FL_MB=${FL_MB:-8}
FL_SEED=${FL_SEED:-7}

# fl_prefill DEV: write every 4 KiB block of the range once, so a mixed
# verify run may read any block (a block never written would hold zeros)
fl_prefill() {
	lunqbench --verify --seed "$FL_SEED" --range "0-${FL_MB}m" --bs 4k \
		--rdpct 0 --seekpct 0 --ios $((FL_MB * 256)) --iodepth 16 \
		--interval 0 --kv "$1" > /tmp/fl.prefill 2>&1 ||
		{ cat /tmp/fl.prefill; fail "prefill of $1"; }
}

# fl_load_start TAG DEV SECONDS [LUNQBENCH_ARGS...]: the verify load in
# the background (50% reads, random, QD32 unless ARGS say otherwise);
# output in /tmp/fl.TAG.out, pid in /tmp/fl.TAG.pid
fl_load_start() {
	_t=$1 _d=$2 _s=$3
	shift 3
	lunqbench --verify --seed "$FL_SEED" --range "0-${FL_MB}m" --bs 4k \
		--rdpct 50 --seekpct 100 --iodepth 32 --elapsed "$_s" \
		--interval 0 --kv "$@" "$_d" > "/tmp/fl.$_t.out" 2>&1 &
	echo $! > "/tmp/fl.$_t.pid"
}

# on any exit (a failed check included) stop the loads still running, so
# that the suite's cleanup can remove the devices
fl_stop_all() {
	for _f in /tmp/fl.*.pid; do
		[ -e "$_f" ] || continue
		kill "$(cat "$_f")" 2>/dev/null && wait "$(cat "$_f")" 2>/dev/null
		rm -f "$_f"
	done
}
trap fl_stop_all EXIT

# fl_running TAG: the load is still running
fl_running() { kill -0 "$(cat "/tmp/fl.$1.pid")" 2>/dev/null; }

# fl_alive TAG WHAT: fail unless the load still runs at WHAT (with its
# exit status and output when it ended)
fl_alive() {
	fl_running "$1" && return 0
	wait "$(cat "/tmp/fl.$1.pid")"
	_rc=$?
	tail -5 "/tmp/fl.$1.out"
	fail "$1: load ended (exit $_rc) before $2"
}

# fl_load_wait TAG SECONDS [WHAT...]: wait for the load to end; after
# SECONDS it is declared hung: print WHAT (commands, e.g. "dmsetup status
# lq") and fail.  Then it must have exited 0 with no IO error and no
# verify error.
fl_load_wait() {
	_t=$1 _lim=$2
	shift 2
	_p=$(cat "/tmp/fl.$_t.pid")
	_end=$(($(now_ms) + _lim * 1000))
	while kill -0 "$_p" 2>/dev/null; do
		if [ "$(now_ms)" -gt "$_end" ]; then
			for _c in "$@"; do echo "# $_c: $($_c 2>&1)"; done
			kill "$_p"
			fail "$_t: load still running $_lim s after its end: IO hung"
		fi
		sleep 0.2
	done
	wait "$_p"
	_rc=$?
	rm -f "/tmp/fl.$_t.pid"
	[ "$_rc" = 0 ] && [ "$(fl_kv "$_t" verify_errors)" = 0 ] &&
		[ "$(fl_kv "$_t" errors)" = 0 ] ||
		{ cat "/tmp/fl.$_t.out"; fail "$_t: lunqbench exit $_rc (3: verify error, 4: IO error)"; }
}

# fl_kv TAG KEY: a word of the load's --kv line
fl_kv() { tail -1 "/tmp/fl.$1.out" | tr ' ' '\n' | sed -n "s/^$2=//p"; }

# fl_issued TAG: IOs the load issued (completed fine or with an error)
fl_issued() { echo $(($(fl_kv "$1" ios) + $(fl_kv "$1" errors))); }

# fl_lq_rw NAME: reads + writes lunq completed (sysfs statistics)
fl_lq_rw() { echo $(($(lq_stat "$1" reads) + $(lq_stat "$1" writes))); }

# fl_lower_bios DEV: bios the lower device received: reads and writes
# completed plus those merged into them (diskstats fields 1, 2, 5, 6)
fl_lower_bios() {
	awk '{ print $1 + $2 + $5 + $6 }' "/sys/block/$(basename "$1")/stat"
}

# fl_lower_inflight DEV: /sys/block/DEV/inflight, "R W"
fl_lower_inflight() {
	awk '{ print $1, $2 }' "/sys/block/$(basename "$1")/inflight"
}

# fl_idle NAME LOWER: within 5 s nothing is left anywhere: the lower
# device's inflight reads "0 0", lunq's inflight, waiting, retrying and
# lun_inflight gauges are 0
fl_idle() {
	for _i in $(seq 50); do
		[ "$(fl_lower_inflight "$2")" = "0 0" ] &&
			[ "$(lq_stat "$1" inflight)" = 0 ] &&
			[ "$(lq_stat "$1" waiting)" = 0 ] &&
			[ "$(lq_stat "$1" retrying)" = 0 ] &&
			[ "$(lq_stat "$1" lun_inflight)" = 0 ] && return 0
		sleep 0.1
	done
	echo "# lower inflight $(fl_lower_inflight "$2"); $(dmsetup status "$1")"
	fail "$1 not idle after the load"
}

# fl_books TAG NAME LOWER LOW0 STAT...: after TAG's load on NAME (over
# LOWER, whose bios counted LOW0 before it) ended and all fell idle, the
# books of every IO: lunqbench's IOs = NAME's reads + writes, dispatched =
# completed + aborted, the lower device's bios since = dispatched; the
# figures and NAME's STATs as diagnostics.  Sets issued, rw, disp, comp,
# abrt and low.
fl_books() {
	_fb_tag=$1 _fb_dm=$2 _fb_low=$3 _fb_low0=$4
	shift 4
	issued=$(fl_issued "$_fb_tag")
	rw=$(fl_lq_rw "$_fb_dm")
	disp=$(lq_stat "$_fb_dm" dispatched) comp=$(lq_stat "$_fb_dm" completed) abrt=$(lq_stat "$_fb_dm" aborted)
	low=$(($(fl_lower_bios "$_fb_low") - _fb_low0))
	_fb_s=
	for _fb_k in "$@"; do _fb_s="$_fb_s $_fb_k $(lq_stat "$_fb_dm" "$_fb_k")"; done
	diag "$(tail -1 "/tmp/fl.$_fb_tag.out" | cut -d' ' -f1-6)"
	diag "dispatched $disp completed $comp aborted $abrt$_fb_s reads+writes $rw; lower device bios $low"
	[ "$rw" = "$issued" ] || fail "lunqbench issued $issued, lunq completed $rw reads+writes"
	[ "$disp" = $((comp + abrt)) ] || fail "dispatched $disp != completed $comp + aborted $abrt"
	[ "$low" = "$disp" ] || fail "lower device got $low bios, lunq dispatched $disp"
}
