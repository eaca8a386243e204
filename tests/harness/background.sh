# shellcheck shell=bash
# tests/harness/background.sh (sourced by tests/run).  The CPU-bound
# preparations that need no VM -- the debug kernel (and
# dm-lunq.ko and the KUnit module, dm-lunq-kunit.ko, for it), then with
# LUNQ_FULL=1 or --kunit KUnit's UML builds and runs -- go in the
# background at nice 19 when VM phases run in the foreground: a TCG guest
# leaves most of the two host CPUs idle (the 6.1 suite kept QEMU at about
# 25% of them), and a VM's threads, at nice 0, preempt a nice-19 task at
# once.  The icount runs (below) take what is left, at idle priority
# (SCHED_IDLE): after the chain, so the debug kernel is ready when the
# debug run's turn comes.  LUNQ_BG=0 runs them all in the foreground.
# Their results are reported in the sections below, in the usual order of
# counting; build/test/bg.log has what the chain printed.
# make test runs the KUnit suites in the debug kernel (t-kunit), not in
# UML.  --kunit runs them from Debian's linux-source 6.1 in UML (the suites
# test pure logic, which 6.12's and 7.3's module builds compile too);
# LUNQ_FULL=1 (make test-full) adds 6.12's UML build, about 870 s on 2 cores.  7.3's UML build
# (scripts/bpo-kernel's linux-source-7.3) is opt-in, LUNQ_KUNIT_SOURCES="6.1
# 6.12 7.3": at nice 19 from the start it takes over an hour of a loaded
# 2-core machine's CPU, and the icount runs, at idle priority behind it,
# fall 40 minutes behind (it passes, 233 cases, tests/kunit/run --source 7.3)
if [ "${LUNQ_FULL:-0}" = 1 ]; then
	kunit_sources=${LUNQ_KUNIT_SOURCES:-6.1 6.12}
else
	kunit_sources=${LUNQ_KUNIT_SOURCES:-6.1}
fi
# debug_prep: the debug kernel and dm-lunq.ko for it; its last line,
# "KDIR=... KERNEL=... MODULES=...", in build/test/debug-kernel.line,
# else "not ok" lines in build/test/debug-prep.err
debug_prep() {
	local start line
	start=$(date +%s)
	rm -f "$logs/debug-kernel.line" "$logs/debug-prep.err"
	if ! line=$("$top/qemu/build-kernel" --debug 2> "$logs/build-kernel.log" | tail -n 1); then
		{ tail -n 20 "$logs/build-kernel.log"
		  echo "not ok vm-debug # the debug kernel does not build (build/test/build-kernel.log)"; } > "$logs/debug-prep.err"
	elif ! "$top/scripts/build-kmod" "$(echo "$line" | sed 's/^KDIR=\([^ ]*\).*/\1/')" > "$logs/build-kmod-debug.log" 2>&1; then
		{ tail -n 20 "$logs/build-kmod-debug.log"
		  echo "not ok vm-debug # dm-lunq.ko does not build for the debug kernel"; } > "$logs/debug-prep.err"
	elif ! LUNQ_TEST_KUNIT=y "$top/scripts/build-kmod" "$(echo "$line" | sed 's/^KDIR=\([^ ]*\).*/\1/')" >> "$logs/build-kmod-debug.log" 2>&1; then
		{ tail -n 20 "$logs/build-kmod-debug.log"
		  echo "not ok vm-debug # dm-lunq-kunit.ko (KUnit's suites) does not build for the debug kernel"; } > "$logs/debug-prep.err"
	else
		echo "$line" > "$logs/debug-kernel.line"
	fi
	ledger debug-kernel-build host - "$(($(date +%s) - start))" "$([ -s "$logs/debug-kernel.line" ] && echo pass || echo fail)"
	touch "$logs/debug-prep.done"
}
# kunit_one VERSION: one source's suites into build/test/kunit-results-VERSION.log
kunit_one() {
	: > "$logs/kunit-results-$1.log"
	timed "kunit-$1" "uml-$1" - "$logs/kunit-results-$1.log" "$top/tests/kunit/run" --source "$1" > /dev/null
}
bg_chain() {
	[[ " $sel " != *" vm-debug "* ]] || debug_prep
	if [[ " $sel " == *" kunit "* ]]; then
		for v in $kunit_sources; do kunit_one "$v"; done
	fi
	touch "$logs/bg.done"
}
# bg_start: the kernel sources unpacked, then the chain in the background
# when VM runs take the foreground (else each section runs its part)
bg_start() {
	rm -f "$logs/debug-prep.done" "$logs/bg.done"
	bg_pid=
	# the kernel sources the background and the unit tests share, unpacked
	# first, in the foreground (scripts/linux-src)
	if [[ " $sel " == *" unit "* || " $sel " == *" kunit "* || " $sel " == *" vm-debug "* ]]; then
		for v in $kunit_sources; do "$top/scripts/linux-src" "$v" > /dev/null || true; done
	fi
	if [ "${LUNQ_BG:-1}" = 1 ] && [[ " $sel " == *" vm "* || " $sel " == *" matrix "* ]] &&
		[[ " $sel " == *" kunit "* || " $sel " == *" vm-debug "* ]]; then
		(
			renice -n 19 -p $BASHPID > /dev/null
			bg_chain
		) > "$logs/bg.log" 2>&1 < /dev/null &
		bg_pid=$!
		echo "# background (nice 19, build/test/bg.log):$([[ " $sel " != *" vm-debug "* ]] || echo " the debug kernel,")$([[ " $sel " != *" kunit "* ]] || echo " KUnit on $kunit_sources")"
	fi
}
# bg_wait FILE: wait for the background chain to reach FILE (or to end)
bg_wait() {
	local s
	s=$(date +%s)
	while [ -n "$bg_pid" ] && [ ! -e "$1" ] && kill -0 "$bg_pid" 2> /dev/null; do sleep 2; done
	echo "# waited $(($(date +%s) - s)) s for the background chain"
	ledger "wait:$(basename "$1" .done)" host - "$(($(date +%s) - s))" pass
}

