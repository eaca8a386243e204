# shellcheck shell=bash
# tests/harness/report.sh: what the tests said, counted and passed on
# (sourced by tests/run).  Every test speaks KTAP (tests/unit/tap.sh,
# tap.h, tests/vm/lib.sh and suite.sh, tests/kunit/run): a top-level
# "ok N"/"not ok N" counts ("# SKIP" as skipped), a subtest does not.
# Uses top, logs, ktaps, kcidb_args; keeps passed, failed, skipped.

passed=0 failed=0 skipped=0
# count LOGFILE: tally top-level ok / not ok lines (KTAP "# SKIP" = skipped)
count() {
	local p f s
	s=$(grep -cE '^ok .*# SKIP' "$1")
	p=$(($(grep -cE '^ok ' "$1") - s))
	f=$(grep -cE '^not ok' "$1")
	passed=$((passed + p)); failed=$((failed + f)); skipped=$((skipped + s))
}
# ktap_check NAME: stdin, a test's whole output, is KTAP: the version line
# first, its results numbered 1, 2, ..., and its plan "1..N" with N their
# number; else one "not ok NAME # not KTAP: ..." line
ktap_check() {
	tr -d '\r' | awk -v name="$1" '
		NR == 1 && $0 != "KTAP version 1" { bad = bad "; no version line first" }
		/^(not )?ok / { n++; num = ($1 == "not") ? $3 : $2
			if (num != n && !badnum) { bad = bad "; result " n " numbered " num; badnum = 1 } }
		/^[0-9]+\.\.[0-9]+$/ { plan = $0 }
		END {
			if (plan == "") bad = bad "; no plan"
			else if (plan != "1.." n) bad = bad "; plan " plan ", " n " results"
			if (bad != "") printf "not ok %s # not KTAP: %s\n", name, substr(bad, 3)
		}'
}
# ktap_flat: a VM run's console (stdin) as flat KTAP: from the suite's
# version line on, its results and diagnostics; each test's subtests
# (its checks, indented) as diagnostics of its result line ("# ok 3 ..."),
# as tests/ktap2junit, tests/ktap2kcidb and the round trip read them
ktap_flat() {
	sed -n '/^KTAP version/,$p' | awk '
		/^    (KTAP version|# Subtest: |[0-9]+\.\.[0-9]+$)/ { next }
		/^    # / { print substr($0, 5); next }
		/^    (not )?ok / { print "# " substr($0, 5); next }
		/^(KTAP|[0-9]+\.\.|#|ok |not ok )/ { print }'
}
# vm_collect LABEL ACCEL QUICK [bg]: count a finished run, its KTAP
# (build/test/LABEL.ktap, flat), the IO books of its fault scenarios, its
# ledger rows
vm_collect() {
	local label=$1 rc
	rc=$(cat "$logs/$label.rc" 2>/dev/null || echo 125)
	ktap_flat < "$logs/$label.log" > "$logs/$label.ktap"
	count "$logs/$label.log"
	# the fault scenarios' IO books (lib.sh io_report), one line each
	grep '^    # io: ' "$logs/$label.log" | sed 's/^    # io: //' | awk -v l="$label" '
		{ n++; lost += $(NF); err += $(NF - 2); iss += $(NF - 6) }
		END { if (n) printf "# IO accounting (%s): %d scenarios, %d IOs issued, %d errors (expected ones included), %d lost\n", l, n, iss, err, lost }'
	if [ "$rc" != 0 ] && ! grep -q '^not ok' "$logs/$label.log"; then
		echo "not ok $label-suite # qemu/run exited $rc (see build/test/$label/console.log)" |
			tee -a "$logs/$label.ktap"
		failed=$((failed + 1))
	fi
	ktaps+=("$label")
	vm_ledger "$label" "$2" "$3" "${4:-}"
}
# ktap_outputs: KTAP / JUnit of the VM runs (one nested suite per kernel
# when several); build/test/vm-results.ktap always, and the round trip
# through kunit.py parse: its counts must be the ones counted here.
ktap_outputs() {
	local l ktap_files=() all want got src
	[ ${#ktaps[@]} -gt 0 ] || return 0
	for l in "${ktaps[@]}"; do ktap_files+=("$logs/$l.ktap"); done
	all=$logs/vm-results.ktap
	if [ ${#ktaps[@]} = 1 ]; then
		cp "${ktap_files[0]}" "$all"
	else
		"$top/tests/ktap-nest" "${ktap_files[@]}" > "$all"
	fi
	[ -z "$ktap" ] || { cp "$all" "$ktap" && echo "# KTAP written to $ktap"; }
	if [ -n "$junit" ]; then
		python3 "$top/tests/ktap2junit" "${ktap_files[@]}" > "$junit" &&
			echo "# JUnit XML written to $junit"
	fi
	section "KTAP round trip (kunit.py parse build/test/vm-results.ktap)" ktap
	want=$(cat "${ktap_files[@]}" | awk '
		/^ok .*# SKIP/ { s++; next } /^ok / { p++ } /^not ok / { f++ }
		END { printf "pass %d fail %d skip %d\n", p, f, s }')
	# (kunit.py parse exits 1 when a test failed: the JSON is what counts)
	rm -f "$logs/vm-results.json"
	src=$("$top/scripts/linux-src" 2>/dev/null) &&
		python3 "$src/tools/testing/kunit/kunit.py" parse --json="$logs/vm-results.json" "$all" \
			> "$logs/ktap-parse.log" 2>&1
	if [ -s "$logs/vm-results.json" ]; then
		got=$(python3 "$top/tests/harness/kunit-counts" "$logs/vm-results.json")
		if [ "$got" = "$want" ]; then
			echo "ok ktap-roundtrip # kunit.py parse: $got"; passed=$((passed + 1))
		else
			echo "not ok ktap-roundtrip # kunit.py parse: $got; tests/run: $want"; failed=$((failed + 1))
		fi
	else
		echo "not ok ktap-roundtrip # kunit.py parse failed (build/test/ktap-parse.log)"; failed=$((failed + 1))
	fi
}
# kcidb_report: KCIDB (--kcidb; make test: build/test/kcidb.json) of the VM runs and the
# KUnit cases, then checked against kcidb-io's schema v5.3 in scripts/deps's
# venv: the check "kcidb" (a SKIP, with the reason, without the venv)
kcidb_report() {
	local l kfiles=() venv out
	[ -n "$kcidb" ] || return 0
	section "KCIDB v5.3 (tests/ktap2kcidb, checked with kcidb-io): $kcidb"
	kfiles=()
	for l in "${ktaps[@]}"; do kfiles+=("$logs/$l.ktap"); done
	venv=${LUNQ_CACHE:-$HOME/.cache/lunq}/venv-kcidb
	if ! python3 "$top/tests/ktap2kcidb" --default-kernel "$("$top/scripts/kver" 2>/dev/null || echo default)" \
		--plan-dir "$logs" --start-time "$run_start" "${kcidb_args[@]}" "${kfiles[@]}" \
		> "$kcidb.tmp" 2> "$logs/kcidb.err" || ! mv "$kcidb.tmp" "$kcidb"; then
		rm -f "$kcidb.tmp"
		sed 's/^/# /' "$logs/kcidb.err" | tail -n 5
		echo "not ok kcidb # tests/ktap2kcidb failed (build/test/kcidb.err)"; failed=$((failed + 1))
	elif ! "$venv/bin/python3" -c 'from kcidb_io.schema import V5_3' 2> /dev/null; then
		echo "# KCIDB written to $kcidb"
		echo "ok kcidb # SKIP not checked: no kcidb-io in $venv (make deps installs it)"; skipped=$((skipped + 1))
	elif out=$("$venv/bin/python3" "$top/tests/ktap2kcidb" --validate "$kcidb" 2>&1); then
		echo "# KCIDB written to $kcidb"
		echo "ok kcidb # ${out#ok: }"; passed=$((passed + 1))
	else
		echo "not ok kcidb # kcidb-io rejects $kcidb: $out"; failed=$((failed + 1))
	fi
}
# summary: the last line, "N passed, N failed[, N skipped]"; its status 1
# on a failure
summary() {
	echo
	if [ $skipped -gt 0 ]; then
		echo "$passed passed, $failed failed, $skipped skipped"
	else
		echo "$passed passed, $failed failed"
	fi
	[ $failed -eq 0 ]
}
