# shellcheck shell=bash
# tests/harness/ledger.sh: the time ledger (sourced by tests/run).  One
# row per test run (test, kernel, mode, seconds, result) in
# build/test-times.tsv, written anew by each tests/run; each phase's time
# in build/test-phases.tsv; the VM tests' rows compared with their "# time:"
# declarations; at the end the phases and the ten slowest tests.  Uses
# top, logs, icount and report.sh's ktap_check.

times=$top/build/test-times.tsv
phases=$top/build/test-phases.tsv
# ledger_start: the ledger and the phases' file, empty
ledger_start() {
	printf 'test\tkernel\tmode\tseconds\tresult\n' > "$times"
	: > "$phases"
	run_start=$(date +%s)
	rm -f "$logs/ledger-off.txt"
}
# ledger TEST KERNEL MODE SECONDS RESULT
ledger() { printf '%s\t%s\t%s\t%s\t%s\n' "$@" >> "$times"; }
# timed TEST KERNEL MODE LOG CMD...: run CMD, its output (KTAP: ktap_check
# adds a "not ok" when it is not) appended to LOG and shown, its wall time
# and result ("pass" unless it failed or printed a "not ok") into the
# ledger
timed() {
	local t=$1 k=$2 m=$3 log=$4 s rc r tmp chk
	shift 4
	tmp=$(mktemp)
	s=$(date +%s)
	"$@" > "$tmp" 2>&1
	rc=$?
	chk=$(ktap_check "$t" < "$tmp")
	[ -z "$chk" ] || echo "$chk" >> "$tmp"
	tee -a "$log" < "$tmp"
	if [ $rc = 0 ] && ! grep -q '^not ok' "$tmp"; then r=pass; else r=fail; fi
	rm -f "$tmp"
	echo "# time: $t $(($(date +%s) - s)) s"
	ledger "$t" "$k" "$m" "$(($(date +%s) - s))" "$r"
}
# section TITLE [PHASE]: a heading; with PHASE, the time from here to the
# next section goes into build/test-phases.tsv under that name
cur_phase= cur_start=0
section() {
	[ -z "$cur_phase" ] || printf '%s\t%s\n' "$cur_phase" "$(($(date +%s) - cur_start))" >> "$phases"
	cur_phase=${2:-} cur_start=$(date +%s)
	echo; echo "== $1"
}
# vm_ledger LABEL ACCEL QUICK [bg]: the run's tests into the ledger, each with
# its wall time (build/test/LABEL.stamps), and compared with its
# declaration: more than 2x off (and by more than 10 s) is said, to be
# mended in the test's header
vm_ledger() {
	local label=$1 mode=full kern key=time name secs r d home
	[ "$3" = 1 ] && mode=quick
	mode=$mode-$2
	case $label in
	vm|vm-icount|vm-icount2) kern=$("$top/scripts/kver" 2>/dev/null) ;;
	vm-debug) kern=debug key=time-debug ;;
	*) kern=${label#vm-}; kern=${kern%-icount} ;;
	esac
	tr -d '\r' < "$logs/$label.stamps" | awk '
		/^[0-9]+ [0-9]+\.\.[0-9]+$/ { prev = $1; next }
		{ t = $1 - prev; prev = $1; r = ($2 == "not") ? "fail" : "pass"
		  n = (r == "fail") ? $5 : $4
		  if ($0 ~ /# SKIP/) r = "skip"
		  print n, t, r }' > "$logs/$label.times"
	while read -r name secs r; do
		ledger "$name" "$kern" "$mode" "$secs" "$r"
		d=$(declared "$name" $key)
		[ "${mode%%-*}" = quick ] && [ -n "$d" ] && [ "$r" != skip ] && [ -z "$4" ] || continue
		# a "# time:" is for the test's own clock on 6.1: compared there only
		if [ $key = time ]; then
			home=$(test_clock "$name")
			[ "$2" = "$home" ] || [ "$icount" != 1 ] || continue
		fi
		if { [ $((secs - d)) -gt 10 ] && [ "$secs" -gt $((2 * d)) ]; } ||
			{ [ $((d - secs)) -gt 10 ] && [ $((2 * secs)) -lt "$d" ]; }; then
			echo "# ledger: $name on $kern ($mode) declares $key $d s but took $secs s (more than 2x off: mend its header)" |
				tee -a "$logs/ledger-off.txt"
		fi
	done < "$logs/$label.times"
}

# ledger_report: the phases' times and the ten slowest tests; the VM tests
# more than 2x off their declarations
ledger_report() {
	section "time ledger (build/test-times.tsv): $(($(date +%s) - run_start)) s in all; the ten slowest"
	printf 'all\t%s\n' "$(($(date +%s) - run_start))" >> "$phases"
	awk -F '\t' '{ printf "# phase %-28s %5d s\n", $1, $2 }' "$phases"
	sed 1d "$times" | sort -t "$(printf '\t')" -k4,4nr | head -n 10 |
		awk -F '\t' '{ printf "# %5d s  %-28s %s %s %s\n", $4, $1, $2, $3, $5 }'
	if [ -s "$logs/ledger-off.txt" ]; then
		echo "# $(wc -l < "$logs/ledger-off.txt") VM tests took more than 2x (and 10 s) off their declared time:"
		cat "$logs/ledger-off.txt"
	fi
}
