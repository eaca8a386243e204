# shellcheck shell=bash
# tests/harness/plan.sh: which VM tests run where (sourced by tests/run).
# A test's groups, clock and declared time come from its header
# ("# group:", "# kernel:", "# clock:", "# time:", "# time-debug:"); the plan of make
# test (--plan) is made of them.  Uses top; sets vmtests, tcg_tests,
# ic_tests, half_a, half_b.

# The VM tests' headers, read once (one awk over tests/vm/t-*.sh): for
# each test its first "# group:", "# clock:", "# time: N" and
# "# time-debug: N" lines, and whether it has the lines "# kernel:
# debug" and "# set: full"
declare -A H_group H_clock H_time H_tdebug H_debug H_full
H_all=()
while IFS='|' read -r t g c tm td kd sf; do
	H_all+=("$t")
	H_group[$t]=$g H_clock[$t]=$c H_time[$t]=$tm H_tdebug[$t]=$td H_debug[$t]=$kd H_full[$t]=$sf
done < <(awk '
	function out() { if (t != "") printf "%s|%s|%s|%s|%s|%s|%s\n", t, g, c, tm, td, kd, sf }
	FNR == 1 { out(); t = FILENAME; sub(/.*\/t-/, "", t); sub(/\.sh$/, "", t); g = c = tm = td = ""; kd = sf = 0 }
	/^# group:/ && g == "" { g = $0; sub(/^# group: */, "", g); if (g == "") g = " " }
	/^# clock: *[a-z]/ && c == "" { c = $0; sub(/^# clock: */, "", c); sub(/[^a-z].*/, "", c) }
	/^# time: *[0-9]+ *$/ && tm == "" { tm = $0; gsub(/[^0-9]/, "", tm) }
	/^# time-debug: *[0-9]+ *$/ && td == "" { td = $0; gsub(/[^0-9]/, "", td) }
	$0 == "# kernel: debug" { kd = 1 }
	$0 == "# set: full" { sf = 1 }
	END { out() }' "$top"/tests/vm/t-*.sh)
# VM tests: name -> groups, from each file's "# group:" line
test_groups() { [ -z "${H_group[$1]+x}" ] || echo "${H_group[$1]# }"; }
all_tests() { printf '%s\n' "${H_all[@]}"; }
# main_tests: what a run on a kernel runs when no test is named: every test
# but those whose header says "# kernel: debug" (t-kunit: only the debug
# kernel has KUnit), which run there and when named, and, unless
# LUNQ_FULL=1 (make test-full), those whose header says "# set: full":
# what another check of make test already judges (full_only lists them)
main_tests() {
	local t
	for t in "${H_all[@]}"; do
		[ "${H_debug[$t]}" = 1 ] && continue
		[ "${LUNQ_FULL:-0}" != 1 ] && [ "${H_full[$t]}" = 1 ] && continue
		echo "$t"
	done
}
# pick_groups G...: append to vmtests the tests in any of the groups
pick_groups() {
	local known g t
	known=" ${H_group[*]} "
	for g in "$@"; do
		[[ "$known" == *" $g "* ]] || die "no VM test group '$g'; groups: $(echo "$known" | tr ' ' '\n' | sort -u | xargs)"
	done
	for t in "${H_all[@]}"; do
		for g in "$@"; do
			case " ${H_group[$t]} " in *" $g "*) vmtests+=("$t"); break ;; esac
		done
	done
}
# debug_tests "NAME|@GROUP|-NAME ...": vmtests becomes the groups' tests,
# then the names, less each -NAME (kernel_tests, below)
debug_tests() {
	local w g= n= less=
	for w in $1; do
		case $w in @*) g="$g ${w#@}" ;; -*) less="$less ${w#-}" ;; *) n="$n $w" ;; esac
	done
	kernel_tests "$g" "$n" "$less"
}
# debug_set: make test's run on the debug kernel, in quick mode: the tests
# whose lifetimes and locks KASAN, lockdep and kmemleak judge best -- a
# policy swapped under IO, suspend/resume in a loop, a LUN reset, a device
# removed with waiters, QUEUE FULL storms, malformed netlink -- and KUnit's
# suites (t-kunit: the module dm-lunq-kunit.ko), then the kmemleak scan.
# LUNQ_FULL=1 (make test-full) runs the whole fault group but
# crash-disksort (688 s on this kernel, make test-debug runs it), a smoke
# set of data paths (LUNQ_DEBUG_SMOKE) and KUnit's suites
if [ "${LUNQ_FULL:-0}" = 1 ]; then
	debug_set="@fault -crash-disksort ${LUNQ_DEBUG_SMOKE:-bench-verify ext4 fuzz-netlink} kunit"
else
	debug_set="fault-policy-churn fault-suspend-loop fault-lun-reset fault-remove fault-qfull-storm fuzz-netlink kunit"
fi
# kernel_tests "GROUPS" "NAMES" "SKIP": vmtests becomes the tests of
# GROUPS and the tests NAMES, less the tests in SKIP
kernel_tests() {
	local t all
	vmtests=()
	# shellcheck disable=SC2086
	pick_groups $1
	# shellcheck disable=SC2206
	all=("${vmtests[@]}" $2)
	vmtests=()
	for t in "${all[@]}"; do [[ " $3 " == *" $t "* ]] || vmtests+=("$t"); done
}
# kernel_set K: vmtests becomes what make test runs on the other kernel K
# (6.12, rt, 7.3): what that kernel's changes could break, not lunq's own
# logic again (controllers, models, the arena, crash replay, the views,
# the live policy swap), which 6.1 proves on every kernel-independent path:
#   6.12  BPF policies (struct_ops from a module: bpf-policy, the arena's
#         policies, the watchdog), trace events and the tools that read
#         them, the throttle at the lower device (inflight, REQ_NOWAIT,
#         the fast path), QUEUE FULL's requeue, suspend, module unload,
#         table errors, iostat's integrals (the block layer's own
#         accounting), zoned writes, genetlink (fuzz-netlink, privilege);
#   rt    what sleeping spinlocks and threaded timers could break: the
#         throttle, the fast path, REQ_NOWAIT, integrity, suspend, QUEUE
#         FULL's requeue, module unload, zoned writes (its BPF, trace and
#         netlink code is 6.1's);
#   7.3   the newest kernel: zoned devices and writes in order across
#         suspend (7.3 plugs zone writes itself), BPF policies (the
#         watchdog and bpf-policy; the arena's policies and the demo run
#         on 6.12), trace events (their tools, Debian 12's trace-cmd and
#         bpftrace, on 6.12), the throttle at the lower device, iostat's
#         integrals, genetlink.
# LUNQ_FULL=1 (make test-full) runs the groups basic integrity stats
# throttle trace bpf on every kernel (the arena among them), less
# LUNQ_MATRIX_SKIP (the scenarios of lunq's own models: the arena's
# bounded scenarios, the pool shared by auto devices, the window's view,
# the policy demo, t-noio-alloc); LUNQ_MATRIX_SKIP= runs them all.
# LUNQ_MATRIX_GROUPS and LUNQ_MATRIX_ONLY replace K's groups and names.
kernel_set() {
	local g n s
	if [ "${LUNQ_FULL:-0}" = 1 ]; then
		g=${LUNQ_MATRIX_GROUPS-basic integrity stats throttle trace bpf}
		n=${LUNQ_MATRIX_ONLY-fuzz-netlink}
		s=${LUNQ_MATRIX_SKIP-arena-bounds pool-share pol-view policy-demo noio-alloc}
		kernel_tests "$g" "$n" "$s"
		return
	fi
	case $1 in
	6.12) g="bpf trace" n="throttle integrity suspend nowait fast-path qfull-slow module-unload table-errors iostat zoned zoned-plug zoned-suspend fuzz-netlink privilege"
		s="arena-bounds pool-share pol-view policy-demo noio-alloc" ;;
	rt) g="" n="throttle fast-path nowait integrity suspend qfull-slow module-unload zoned zoned-plug zoned-suspend" s="" ;;
	7.3) g="bpf trace" n="zoned zoned-order zoned-suspend zoned-plug throttle nowait fast-path iostat fuzz-netlink privilege"
		s="arena-bounds pool-share pol-view policy-demo noio-alloc arena-bpf trace-tools" ;;
	*) die "kernel_set: no set for kernel '$1' (6.12, rt, 7.3)" ;;
	esac
	kernel_tests "${LUNQ_MATRIX_GROUPS-$g}" "${LUNQ_MATRIX_ONLY-$n}" "${LUNQ_MATRIX_SKIP-$s}"
}
# kernel_key META: scripts/kernels' first word for a kernel, as kernel_set's K
kernel_key() {
	case $1 in
	trixie-backports) echo 7.3 ;;
	*-rt-*) echo rt ;;
	*) echo 6.12 ;;
	esac
}
# test_clock NAME: the clock a test runs on on 6.1: its "# clock:" line
# (tcg: plain TCG, for checks of rates and ratios of wall time, and for
# CPU-bound tests, which icount's single thread runs slower), else icount
test_clock() { echo "${H_clock[$1]:-icount}"; }
# split_clock: vmtests' tests whose clock is tcg into tcg_tests, the others
# into ic_tests (all into tcg_tests with LUNQ_ICOUNT=0)
split_clock() {
	local t
	tcg_tests=() ic_tests=()
	for t in "${vmtests[@]}"; do
		if [ "${LUNQ_ICOUNT:-1}" != 1 ] || [ "$(test_clock "$t")" = tcg ]; then
			tcg_tests+=("$t")
		else
			ic_tests+=("$t")
		fi
	done
}
# declared NAME [KEY]: the seconds a VM test declares in its header:
# "# time: N" in quick mode on 6.1, on the clock it runs on there
# (test_clock); KEY "time-debug" for the debug kernel (quick mode, plain
# clock)
declared() {
	local d
	if [ "${2:-time}" = time-debug ]; then d=${H_tdebug[$1]-}; else d=${H_time[$1]-}; fi
	[ -n "$d" ] && echo "$d"
}
# print_plan: --plan: what `make test` runs in each VM run, "RUN TEST
# DECLARED" a line: vm (6.1, plain clock), vm-icount (6.1, icount),
# matrix-tcg:K and matrix:K (each other kernel K -- 6.12, rt, 7.3 -- each
# clock), vm-debug (tests/lint/budget.sh adds up their declarations).
# A test of the group bpf declares 1 s on 6.1 and RT: without struct_ops
# from modules it skips at once there.
print_plan() {
	local t k
	mapfile -t vmtests < <(main_tests)
	split_clock
	for t in "${tcg_tests[@]}"; do echo "vm $t $(declared_on 6.1 "$t")"; done
	for t in "${ic_tests[@]}"; do echo "vm-icount $t $(declared_on 6.1 "$t")"; done
	for k in 6.12 rt 7.3; do
		kernel_set $k
		split_clock
		for t in "${tcg_tests[@]}"; do echo "matrix-tcg:$k $t $(declared_on $k "$t")"; done
		for t in "${ic_tests[@]}"; do echo "matrix:$k $t $(declared_on $k "$t")"; done
	done
	debug_tests "$debug_set"
	for t in "${vmtests[@]}"; do echo "vm-debug $t $(declared "$t" time-debug)"; done
}
# declared_on KERNEL NAME: NAME's declaration, 1 for a BPF policy test on
# a kernel without struct_ops from modules (6.1, rt)
declared_on() {
	case "$1  $(test_groups "$2") " in
	"6.1 "*" bpf "* | "rt "*" bpf "*) echo 1 ;;
	*) declared "$2" ;;
	esac
}
# halves TEST...: half_a and half_b, of about equal declared time (the
# longest first, each to the half with less so far), in the given order
halves() {
	local t d a=0 b=0
	declare -A side
	for t in $(for t in "$@"; do echo "$(declared "$t") $t"; done | sort -rn | awk '{ print $2 }'); do
		d=$(declared "$t"); d=${d:-0}
		if [ $a -le $b ]; then side[$t]=a a=$((a + d)); else side[$t]=b b=$((b + d)); fi
	done
	half_a=() half_b=()
	for t in "$@"; do
		if [ "${side[$t]}" = a ]; then half_a+=("$t"); else half_b+=("$t"); fi
	done
}
