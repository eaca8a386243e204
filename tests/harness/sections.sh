# shellcheck shell=bash
# tests/harness/sections.sh: the sections of tests/run, each a function
# that does nothing unless its section was asked for (sel), in the order
# tests/run calls them: unit (the lint first), host; then the VM runs'
# plan (6.1's, the matrix kernels'), the icount lanes started, the
# plain-clock runs (6.1, the matrix kernels, the debug kernel), the lanes'
# results; KUnit.
# Uses what tests/run's options set and the other pieces' functions.

# unit_c SOURCE BINARY LINKED...: compile a C unit test and run it
unit_c() {
	local c=$1 bin=$2
	shift 2
	if cc -Wall -Wextra -Werror -g -fsanitize=address,undefined \
		-I"$top/lib" -I"$top/kmod" -I"$top/ctl" -o "$bin" "$c" "$@"; then
		"$bin"
	else
		printf "KTAP version 1\nnot ok 1 %s # does not compile\n1..1\n" "$(basename "$c")"
	fi
}
# run_unit: the lint first, tests/lint/*.sh (checks of the tree's source,
# documents and plans that run nothing of the product), then the unit
# tests, tests/unit/*.sh (but tap.sh, which every host test sources) and
# *_test.c; one phase, "unit", one log, build/test/unit.log
run_unit() {
	[[ " $sel " == *" unit "* ]] || return 0
	section "lint (tests/lint/)" unit
	: > "$logs/unit.log"
	for t in "$top"/tests/lint/*.sh; do
		timed "lint/$(basename "$t")" host - "$logs/unit.log" "$t"
	done
	echo; echo "== unit tests (tests/unit/)"
	for t in "$top"/tests/unit/*.sh; do
		# tap.sh is no test: the others source it
		[ "$(basename "$t")" != tap.sh ] || continue
		timed "unit/$(basename "$t")" host - "$logs/unit.log" "$t"
	done
	for c in "$top"/tests/unit/*_test.c; do
		bin=$logs/$(basename "$c" .c)
		# A test names the project sources it needs in a "LINK:" comment
		# line (paths from the top); else the kmod pure-logic files.
		link=$(sed -n 's|^[/ *]*LINK: *||p' "$c" | head -1)
		[ -n "$link" ] || link="kmod/lunq_args.c kmod/lunq_hist.c kmod/lunq_integ.c"
		srcs=()
		for f in $link; do srcs+=("$top/$f"); done
		timed "unit/$(basename "$c")" host - "$logs/unit.log" unit_c "$c" "$bin" "${srcs[@]}"
	done
	count "$logs/unit.log"
}
# run_host: tests/host/*.sh
run_host() {
	[[ " $sel " == *" host "* ]] || return 0
	section "qemu/run tests (host)" host
	: > "$logs/host.log"
	for t in "$top"/tests/host/*.sh; do
		timed "host/$(basename "$t")" "$("$top/scripts/kver" 2>/dev/null)" - "$logs/host.log" "$t"
	done
	count "$logs/host.log"
}
# The VM runs: first the plan -- which tests on which clock, dm-lunq.ko for
# each matrix kernel -- then the icount runs start (in the background when
# a plain-clock run follows), then the plain-clock runs in the foreground,
# 6.1's and the debug kernel's, then the icount runs' results.
tcg_main=() tcg_matrix=() saved=()
# plan_vm: 6.1's (or --kernel's) tests: the plain-clock ones into tcg_main,
# the icount ones into two lanes of about equal declared time
plan_vm() {
	[[ " $sel " == *" vm "* ]] || return 0
	[ ${#vmtests[@]} -gt 0 ] || mapfile -t vmtests < <(main_tests)
	saved=("${vmtests[@]}")
	split_clock
	tcg_main=("${tcg_tests[@]}")
	if [ -z "$kernel" ]; then
		# two runs of about equal declared time, so that the two lanes
		# end together
		halves "${ic_tests[@]}"
		vmtests=("${half_a[@]}")
		lane_add vm-icount "$lane_tmo"
		vmtests=("${half_b[@]}")
		lane_add vm-icount2 "$lane_tmo"
	else
		vmtests=("${ic_tests[@]}")
		# the kernel's name in KCIDB: its release when --kdir tells it
		krel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$kdir/include/generated/utsrelease.h" 2>/dev/null)
		krel=${krel:-$(basename "$kernel")}
		kcidb_args+=(--kernel "vm-kernel=$krel" --kernel "vm-kernel-icount=$krel")
		if [ -n "$kdir" ]; then
			"$top/scripts/build-kmod" "$kdir" > "$logs/build-kmod.log" 2>&1 ||
				{ tail -n 5 "$logs/build-kmod.log"; echo "not ok vm-kernel # dm-lunq.ko does not build for $kdir"; failed=$((failed + 1))
				  kcidb_args+=(--failed-build "$krel=dm-lunq.ko does not build for $kdir (build/test/build-kmod.log)"); }
		fi
		lane_add vm-kernel-icount "$lane_tmo" --kernel "$kernel" ${moddir:+--modules "$moddir"}
	fi
	vmtests=("${saved[@]}")
}
# plan_matrix: the other Debian kernels: the kernel-dependent groups on each, each test
# on its own clock as on 6.1
plan_matrix() {
	[[ " $sel " == *" matrix "* ]] || return 0
	saved=("${vmtests[@]}")
	"$top/scripts/kernels" | sed 1d > "$logs/kernels.txt"
	[ -s "$logs/kernels.txt" ] || echo "# matrix: no other Debian kernel installed (scripts/kernels)"
	section "VM tests on the other kernels (tests/harness/plan.sh's kernel_set), each in build/test/vm-<release>/" matrix-build
	while read -r meta rel; do
		# KDIR= KERNEL= MODULES= of this kernel (Debian's or trixie-backports')
		"$top/scripts/kpaths" "$rel" > "$logs/kpaths-$rel" ||
			{ echo "not ok vm-$rel # scripts/kpaths does not find it"; failed=$((failed + 1)); continue; }
		local KDIR KERNEL MODULES
		eval "$(cat "$logs/kpaths-$rel")"
		if ! "$top/scripts/build-kmod" "$KDIR" > "$logs/build-kmod-$rel.log" 2>&1; then
			tail -n 5 "$logs/build-kmod-$rel.log"
			echo "not ok vm-$rel # dm-lunq.ko does not build for $rel"
			failed=$((failed + 1))
			kcidb_args+=(--failed-build "$rel=dm-lunq.ko does not build for $rel (build/test/build-kmod-$rel.log)")
			continue
		fi
		echo "# $meta ($rel): dm-lunq.ko built"
		kernel_set "$(kernel_key "$meta")"
		split_clock
		[ ${#tcg_tests[@]} = 0 ] || tcg_matrix+=("$rel")
		printf '%s\n' "${tcg_tests[@]}" > "$logs/vm-$rel.tcg"
		vmtests=("${ic_tests[@]}")
		lane_add "vm-$rel-icount" "$lane_tmo" --kernel "$KERNEL" --modules "$MODULES"
	done < "$logs/kernels.txt"
	vmtests=("${saved[@]}")
}
# start_lanes: the icount runs, in the background when a plain-clock run follows
start_lanes() {
	[ ${#lane_jobs[@]} -gt 0 ] || return 0
	fgvm=0
	[ ${#tcg_main[@]} -gt 0 ] || [ ${#tcg_matrix[@]} -gt 0 ] || [[ " $sel " == *" vm-debug "* ]] && fgvm=1
	section "VM tests on the icount clock, $lanes at a time$([ $fgvm = 1 ] && echo ", in the background"): $(for j in "${lane_jobs[@]}"; do printf '%s ' "${j%% *}"; done)" icount-start
	QUICK=$quick lanes_start "$([ "${LUNQ_BG:-1}" = 1 ] && echo $fgvm || echo 0)"
}
# run_vm_tcg: 6.1's (or --kernel's) plain-clock tests, one boot
run_vm_tcg() {
	[ ${#tcg_main[@]} -gt 0 ] || return 0
	vmtests=("${tcg_main[@]}")
	if [ -z "$kernel" ]; then
		section "VM integration tests, Debian's kernel $("$top/scripts/kver" 2>/dev/null), on the plain clock (results in build/test/vm/)" vm
		QUICK=$quick vm_run vm tcg 2700
	else
		section "VM integration tests, kernel $kernel, on the plain clock (results in build/test/vm-kernel/)" vm
		QUICK=$quick vm_run vm-kernel tcg 2700 --kernel "$kernel" ${moddir:+--modules "$moddir"}
	fi
	vmtests=("${saved[@]}")
}
# run_matrix_tcg: the matrix kernels' plain-clock tests, a boot each
run_matrix_tcg() {
	for rel in "${tcg_matrix[@]}"; do
		section "VM tests on $rel, on the plain clock (results in build/test/vm-$rel/)" "matrix-tcg"
		saved=("${vmtests[@]}")
		mapfile -t vmtests < "$logs/vm-$rel.tcg"
		local KDIR KERNEL MODULES
		eval "$(cat "$logs/kpaths-$rel")"
		QUICK=$quick vm_run "vm-$rel" tcg 1500 --kernel "$KERNEL" --modules "$MODULES"
		vmtests=("${saved[@]}")
	done
}
# run_vm_debug: the debug kernel (built in the background or here), one boot
run_vm_debug() {
	[[ " $sel " == *" vm-debug "* ]] || return 0
	section "VM integration tests, debug kernel (KASAN, lockdep, kmemleak; results in build/test/vm-debug/)" vm-debug
	start=$(date +%s)
	if [ -n "$bg_pid" ]; then bg_wait "$logs/debug-prep.done"; else debug_prep; fi
	if [ ! -s "$logs/debug-kernel.line" ]; then
		cat "$logs/debug-prep.err"
		failed=$((failed + 1))
		kcidb_args+=(--failed-build "debug=$(sed -n 's/^not ok vm-debug # //p' "$logs/debug-prep.err" | tail -n 1)")
	else
		line=$(cat "$logs/debug-kernel.line")
		krel=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$(echo "$line" | sed 's/^KDIR=\([^ ]*\).*/\1/')/include/generated/utsrelease.h" 2>/dev/null)
		[ -z "$krel" ] || kcidb_args+=(--kernel "vm-debug=$krel")
		echo "# debug kernel ready in $(($(date +%s) - start)) s: $line"
		if [ -n "$debug_only" ]; then
			debug_tests "$debug_set"
			echo "# debug kernel: ${vmtests[*]} (make test-debug runs the fault group at full length)"
		fi
		[ ${#vmtests[@]} -gt 0 ] || mapfile -t vmtests < <(all_tests)
		QUICK=$debug_quick vm_run vm-debug tcg 3600 --debug-kernel --env LUNQ_SKIP_TIMING=1 \
			--env LUNQ_TEST_TIMEOUT="${LUNQ_TEST_TIMEOUT:-900}"
	fi
}
# collect_lanes: the icount runs' results, in the order they were planned
collect_lanes() {
	[ ${#lane_jobs[@]} -gt 0 ] || return 0
	section "VM tests on the icount clock: results" icount-wait
	QUICK=$quick lanes_collect
}
# run_kunit: KUnit, every source in LUNQ_KUNIT_SOURCES, counted separately
run_kunit() {
	[[ " $sel " == *" kunit "* ]] || return 0
	if [ -n "$bg_pid" ]; then
		section "KUnit suites (run in the background)" kunit-wait
		bg_wait "$logs/bg.done"
		wait "$bg_pid"
	fi
	# every source in LUNQ_KUNIT_SOURCES, counted separately
	for v in $kunit_sources; do
		section "KUnit suites, linux-source-$v (UML; log build/test/kunit$([ "$v" = 6.1 ] || echo "-$v").log)" "kunit-$v"
		[ -n "$bg_pid" ] || kunit_one "$v"
		cat "$logs/kunit-results-$v.log"
		echo "# time: kunit-$v $(awk -F '\t' -v t="kunit-$v" '$1 == t { print $4 }' "$times") s"
		count "$logs/kunit-results-$v.log"
		kcidb_args+=(--kunit "$v=$logs/kunit-results-$v.log")
	done
}
