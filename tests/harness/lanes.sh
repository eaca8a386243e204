# shellcheck shell=bash
# tests/harness/lanes.sh: the VM runs (sourced by tests/run): a boot of
# one kernel for a list of tests, in the foreground (vm_run) or in the
# icount lanes (lane_add, lanes_start, lanes_collect).  Uses top, logs,
# lanes, phases, vmtests; report.sh's vm_collect counts a finished run.

# stamp FILE: copy stdin to stdout, and each KTAP plan or result line,
# prefixed by the host's time (epoch seconds), to FILE: a test's wall time
# is the time between its result line and the one before (under
# LUNQ_ACCEL=icount the guest's own clock counts instructions, not time)
stamp() {
	local l
	: > "$1"
	while IFS= read -r l; do
		printf '%s\n' "$l"
		case $l in [0-9]*..[0-9]*|ok\ *|not\ ok\ *) printf '%(%s)T %s\n' -1 "$l" >> "$1" ;; esac
	done
}
# --- VM runs -------------------------------------------------------------
# A VM run boots one kernel once for a list of tests, on one of two clocks:
#   tcg     plain TCG (or what LUNQ_ACCEL says): real time on parallel
#           vCPUs.  The tests whose header says "# clock: tcg" -- the
#           group "timing" (their checks are rates and ratios of wall
#           time, as make demo shows them) and CPU-bound tests, which
#           icount's single thread runs slower -- and everything on the
#           debug kernel run on it, one run at a time.
#   icount  qemu/run's LUNQ_ACCEL=icount: the guest's clock counts its own
#           instructions and skips the time it is idle, so a test that
#           needs only the models' time runs as fast as its instructions
#           allow and its timings do not depend on the host's load; each
#           run needs one host CPU, and LUNQ_LANES (2) run side by side.
#           Every other test on 6.1, and the matrix kernels' tests.
# LUNQ_ICOUNT=0 puts every test on the plain clock, one run at a time.
# vm_exec LABEL ACCEL TIMEOUT LIVE [qemu/run options]: boot once for the
# tests listed in build/test/LABEL.tests; log build/test/LABEL.log (shown
# as it comes when LIVE is 1), results build/test/LABEL/, qemu/run's exit
# status in build/test/LABEL.rc.  QUICK=0|1 in the environment; the guest
# gets LUNQ_QUICK and LUNQ_FULL (make test-full: tests make test leaves
# out, or run longer: t-mem-per-dev its 200 devices a set).
vm_exec() {
	local label=$1 acc=$2 tmo=$3 live=$4
	shift 4
	rm -rf "${logs:?}/$label" "$logs/$label.rc"
	[ "$acc" = tcg ] && acc=${LUNQ_ACCEL:-auto}
	# shellcheck disable=SC2046
	LUNQ_ACCEL=$acc LUNQ_VM_TIMEOUT=${LUNQ_VM_TIMEOUT:-$tmo} "$top/qemu/run" -o "$logs/$label" "$@" \
		--env "LUNQ_QUICK=$QUICK" --env "LUNQ_FULL=${LUNQ_FULL:-0}" "$top/tests/vm/suite.sh" $(cat "$logs/$label.tests") < /dev/null 2>&1 |
		stamp "$logs/$label.stamps" | if [ "$live" = 1 ]; then tee "$logs/$label.log"; else cat > "$logs/$label.log"; fi
	echo "${PIPESTATUS[0]}" > "$logs/$label.rc"
}
# vm_run LABEL ACCEL TIMEOUT [qemu/run options]: vmtests in one boot, in
# the foreground
vm_run() {	# QUICK=0|1 in the environment
	local label=$1 acc=$2 s
	[ ${#vmtests[@]} -gt 0 ] || return 0
	printf '%s\n' "${vmtests[@]}" > "$logs/$label.tests"
	echo "# $label: ${#vmtests[@]} tests, one boot, clock $acc$([ "$QUICK" = 1 ] && echo ", quick mode (LUNQ_QUICK=1)")"
	s=$(date +%s)
	vm_exec "$label" "$acc" "$3" 1 "${@:4}"
	echo "# $label: $(($(date +%s) - s)) s"
	printf '%s\t%s\n' "run:$label" "$(($(date +%s) - s))" >> "$phases"
	vm_collect "$label" "$acc" "$QUICK"
}
# Jobs for the icount lanes: "LABEL TIMEOUT [qemu/run options]" entries
# in lane_jobs, each with its build/test/LABEL.tests (lane_add, from
# vmtests); lanes_start runs them, lanes_collect reports them.
lane_jobs=()
lane_add() {	# LABEL TIMEOUT [options]; the tests: vmtests
	[ ${#vmtests[@]} -gt 0 ] || return 0
	printf '%s\n' "${vmtests[@]}" > "$logs/$1.tests"
	lane_jobs+=("$*")
}
# (a lane's qemu/run may wait long for CPU at idle priority: its timeout
# is lane_tmo, LUNQ_LANE_TIMEOUT or 4800 s of wall time -- 6.1's two runs
# can take 3400 s starved behind the foreground, and over 3600 s on a
# cold machine; CI's own limit, 5400 s for all, is the guard above it;
# each test's own timeout, LUNQ_TEST_TIMEOUT, is the guest's time)
lane_tmo=${LUNQ_LANE_TIMEOUT:-4800}
# lanes_start: run the lane jobs, LUNQ_LANES at a time, in the background
# at idle priority (SCHED_IDLE) when BG is 1 -- a foreground run on the
# plain clock keeps the CPUs it needs, the icount runs take what it leaves
# and their results do not depend on how much that is -- else in the
# foreground; each says when it starts and ends
lanes_pid=
lanes_start() {	# QUICK in the environment
	local j
	[ ${#lane_jobs[@]} -gt 0 ] || return 0
	rm -f "$logs/lanes.out"
	(
		[ "$1" = 1 ] && { chrt -i -p 0 $BASHPID > /dev/null 2>&1 || renice -n 19 -p $BASHPID > /dev/null; }
		running=0
		for j in "${lane_jobs[@]}"; do
			set -f; set -- $j; set +f
			while [ $running -ge "$lanes" ]; do wait -n; running=$((running - 1)); done
			echo "# $1: $(wc -l < "$logs/$1.tests") tests started on the icount clock ($(date +%T))"
			( s=$(date +%s)
			  vm_exec "$1" icount "$2" 0 "${@:3}"
			  printf '%s\t%s\n' "run:$1" "$(($(date +%s) - s))" >> "$phases"
			  echo "# $1: ended after $(($(date +%s) - s)) s: $(grep -c '^ok ' "$logs/$1.log") ok, $(grep -c '^not ok' "$logs/$1.log") not ok ($(date +%T))" ) &
			running=$((running + 1))
		done
		wait
	) 2>&1 | tee "$logs/lanes.out" &
	lanes_pid=$!
	[ "$1" = 1 ] || { wait "$lanes_pid"; lanes_pid=; }
}
# lanes_collect: wait for the lane jobs, then show and count each in the
# order given
lanes_collect() {
	local j label s bgl=
	[ ${#lane_jobs[@]} -gt 0 ] || return 0
	if [ -n "$lanes_pid" ]; then
		bgl=bg
		s=$(date +%s)
		wait "$lanes_pid"
		echo "# waited $(($(date +%s) - s)) s for the icount runs"
		ledger "wait:icount" host - "$(($(date +%s) - s))" pass
	fi
	for j in "${lane_jobs[@]}"; do
		label=${j%% *}
		echo; echo "= $label (build/test/$label.log)"
		sed -n '/^KTAP version/,$p' "$logs/$label.log"
		vm_collect "$label" icount "$QUICK" "$bgl"
	done
	[ -z "$bgl" ] || echo "# ledger: the icount runs ran in the background at idle priority: their wall times are in build/test-times.tsv, not compared with the declarations (LUNQ_BG=0 compares them)"
	lane_jobs=()
}

