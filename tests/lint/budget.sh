#!/bin/bash
# tests/lint/budget.sh [BUDGET]: the CI time plan (tests/budget) holds.
#   - every VM test declares "# time: N" in its header, a number (its
#     quick-mode seconds on 6.1, on the clock it runs on there);
#   - every test of the debug run also declares "# time-debug: N";
#   - each VM phase's demand fits in its share (tests/run --plan says
#     which tests each run has):
#       vm            BOOT + the "# time:" of the plain-clock tests on 6.1
#       matrix-tcg    for each other kernel K (6.12, rt, 7.3): BOOT + K's
#                     plain-clock tests
#       icount-lanes  (2 x BOOT + 6.1's icount tests (two runs) + for each
#                     K: BOOT + K's icount tests) / LANES (2); its share at
#                     most icount-wait + (vm + matrix-tcg + vm-debug) / 3
#       vm-debug      BOOT + the "# time-debug:" of the debug run's tests
#   - the shares of the phases that follow one another (WALL 1) add up to
#     at most 2878 s (48.0 minutes; CI's median must stay under 45;
#     tests/budget);
#   - and the check fails a phase that overflows (a copy of the budget
#     with vm's share one second below its demand: refused).
# Declarations, not measurements: it cannot be flaky.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/../unit/tap.sh"
limit=2878 kernels="6.12 rt 7.3" lanes=2
plan=$("$top/tests/run" --plan) || { fail budget-plan "tests/run --plan failed"; exit 1; }
# sum RUN KEY: the declarations of a run's tests; "missing NAME..." on
# stderr for tests without one
sum() {
	local t d n=0 miss=
	while read -r t d; do
		if [ -z "$d" ]; then miss="$miss $t"; else n=$((n + d)); fi
	done < <(echo "$plan" | awk -v r="$1" '$1 == r { print $2, $3 }')
	[ -z "$miss" ] || echo "$1:$miss" >&2
	echo $n
}
# check BUDGET: "ok NAME"/"not ok NAME" lines, unnumbered (tap_relay
# numbers them; the negative control greps them); exit 1 on a failure
check() {
	local bad=0 total=0 phase share boot wall demand what err room
	err=$(mktemp)
	room=$(awk '$1 == "icount-wait" { w = $2 } $1 == "vm" || $1 == "matrix-tcg" || $1 == "vm-debug" { h += $2 / 3 }
		END { print int(w + h) }' "$1")
	while read -r phase share boot wall _; do
		case $phase in ''|'#'*) continue ;; esac
		[ "$wall" = 1 ] && total=$((total + share))
		case $phase in
		vm) demand=$((boot + $(sum vm time 2>> "$err")))
			what="boot $boot + the plain-clock tests on 6.1" ;;
		matrix-tcg) demand=0
			for k in $kernels; do demand=$((demand + boot + $(sum "matrix-tcg:$k" 2>> "$err"))); done
			what="boot $boot + the plain-clock matrix tests, on each of $kernels" ;;
		icount-lanes)
			demand=$((2 * boot + $(sum vm-icount 2>> "$err")))
			for k in $kernels; do demand=$((demand + boot + $(sum "matrix:$k" 2>> "$err"))); done
			demand=$((demand / lanes))
			what="(6.1's two icount runs + one on each of $kernels) / $lanes lanes"
			if [ "$share" -gt "$room" ]; then
				echo "not ok budget-room # icount-lanes' share $share s is more than icount-wait + (vm + matrix-tcg + vm-debug) / 3 = $room s"; bad=1
			else
				echo "ok budget-room # icount-lanes' share $share s within icount-wait + (vm + matrix-tcg + vm-debug) / 3 = $room s"
			fi ;;
		vm-debug) demand=$((boot + $(sum vm-debug time-debug 2>> "$err")))
			what="boot $boot + the debug run's time-debug" ;;
		*) continue ;;
		esac
		if [ -s "$err" ]; then
			echo "not ok budget-$phase # no declaration in $(tr '\n' ';' < "$err")"; bad=1
		elif [ $demand -le "$share" ]; then
			echo "ok budget-$phase # $what: $demand s of its $share s"
		else
			echo "not ok budget-$phase # $what: $demand s, over its share of $share s: cut a test, or change the plan in tests/budget"; bad=1
		fi
		: > "$err"
	done < "$1"
	rm -f "$err"
	if [ $total -le $limit ]; then
		echo "ok budget-total # the phases' shares add up to $total s of $limit s"
	else
		echo "not ok budget-total # the phases' shares add up to $total s, over $limit s"; bad=1
	fi
	return $bad
}
if [ $# -gt 0 ]; then out=$(check "$1"); rc=$?; tap_relay <<EOF
$out
EOF
exit $rc; fi

bad=
# (vm and vm-icount hold every VM test; a third word is its declaration)
bad=$(echo "$plan" | awk '($1 == "vm" || $1 == "vm-icount") && NF < 3 { printf " %s", $2 }')
[ -z "$bad" ] && ok budget-declared "every VM test declares its quick-mode time" ||
	fail budget-declared "no \"# time: N\" line in:$bad"
# what the sets hold, against the tests' own headers: make test's debug
# run is six tests of the groups fault and fuzz (quick mode) and KUnit's
# suites (t-kunit), LUNQ_FULL=1's the fault group less crash-disksort, the
# smoke set and KUnit's suites; the matrix
# runs the BPF policies on 6.12 and leaves the arena (lunq's own logic) to
# 6.1 unless LUNQ_FULL=1, and t-pool-share to 6.1 unless LUNQ_MATRIX_SKIP=
full=$(LUNQ_FULL=1 "$top/tests/run" --plan)
want=$( { for f in "$top"/tests/vm/t-*.sh; do
	grep -q '^# group:.* fault\( \|$\)' "$f" && basename "$f" .sh | sed 's/^t-//'; done |
	grep -vx crash-disksort; echo bench-verify; echo ext4; echo fuzz-netlink; echo kunit; } | tr '\n' ' ')
gotfull=$(echo "$full" | awk '$1 == "vm-debug" { printf "%s ", $2 }')
got=$(echo "$plan" | awk '$1 == "vm-debug" { print $2 }')
nd=$(echo "$got" | grep -c .)
nf=0
for t in $got; do
	case " $(sed -n 's/^# group: *//p' "$top/tests/vm/t-$t.sh" | head -1) " in
	*" fault "* | *" fuzz "*) nf=$((nf + 1)) ;;
	esac
done
a=$(echo "$plan" | grep -cE '^matrix:(6.12|rt) arena ')
af=$(echo "$full" | grep -cE '^matrix:(6.12|rt) arena ')
b=$(echo "$plan" | grep -c '^matrix:6.12 bpf-policy ')
m0=$(echo "$full" | grep -c '^matrix:6.12 pool-share ')
m1=$(LUNQ_FULL=1 LUNQ_MATRIX_SKIP= "$top/tests/run" --plan | grep -c '^matrix:6.12 pool-share ')
[ "$gotfull" = "$want" ] && [ "$nd" = 7 ] && [ "$nf" = 6 ] && [ "$(echo "$got" | tail -n 1)" = kunit ] && [ "$a" = 0 ] && [ "$af" = 2 ] &&
	[ "$b" = 1 ] && [ "$m0" = 0 ] && [ "$m1" = 1 ] &&
	ok budget-sets "debug run: KUnit's suites and $nf tests of the groups fault and fuzz, with LUNQ_FULL=1 KUnit, the fault group less crash-disksort and the smoke set; t-arena on 6.12 and RT: $a, with LUNQ_FULL=1 $af; t-bpf-policy on 6.12; t-pool-share there only with LUNQ_MATRIX_SKIP= ($m0, $m1)" ||
	fail budget-sets "debug run: $nd tests, $nf of fault or fuzz, the last $(echo "$got" | tail -n 1) (want 7, 6, kunit); with LUNQ_FULL=1 '$gotfull', want '$want'; t-arena on 6.12 and RT: $a (want 0), with LUNQ_FULL=1 $af (want 2); t-bpf-policy on 6.12: $b (want 1); t-pool-share on 6.12: $m0 (want 0), with LUNQ_MATRIX_SKIP= $m1 (want 1)"
# "# set: full": in make test-full's 6.1 runs, not in make test's (any run)
fo=$(grep -lx '# set: full' "$top"/tests/vm/t-*.sh | sed 's|.*/t-||; s|\.sh$||')
bad=
for t in $fo; do
	echo "$plan" | awk -v t="$t" '$2 == t { f = 1 } END { exit f }' || bad="$bad $t(in make test)"
	echo "$full" | awk -v t="$t" '($1 == "vm" || $1 == "vm-icount") && $2 == t { f = 1 } END { exit !f }' || bad="$bad $t(not in test-full)"
done
[ -n "$fo" ] && [ -z "$bad" ] && ok budget-set-full "the \"# set: full\" tests run in make test-full alone: $(echo $fo)" ||
	fail budget-set-full "\"# set: full\":$bad (the tests: $(echo $fo))"
out=$(check "$top/tests/budget")
tap_relay <<EOF
$out
EOF
# the negative control: the same plan with vm's share one second short
tmp=$(mktemp); tap_atexit 'rm -f "$tmp"'
d=$(echo "$out" | sed -n 's/^ok budget-vm # .*: \([0-9]*\) s of its.*/\1/p')
if [ -n "$d" ]; then
	awk -v s=$((d - 1)) '$1 == "vm" { $2 = s } { print }' "$top/tests/budget" > "$tmp"
	if check "$tmp" | grep -q '^not ok budget-vm .*over its share'; then
		ok budget-negative "a vm share of $((d - 1)) s is refused"
	else
		fail budget-negative "a vm share below its demand passed"
	fi
else
	fail budget-negative "no vm demand to cut"
fi
