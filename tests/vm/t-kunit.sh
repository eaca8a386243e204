# dm-lunq's KUnit suites (kmod/*_test.c) in the debug kernel (KASAN,
# lockdep, kmemleak, DEBUG_LIST...): loading the test-only module
# dm-lunq-kunit.ko (scripts/build-kmod LUNQ_TEST_KUNIT=y, built by tests/run
# beside dm-lunq.ko for that kernel) runs them, and they print KTAP to the
# kernel's log.  Each case is one result here, "SUITE.CASE" (the names
# tests/kunit/run gives them in a UML kernel).  Proves, besides every case:
# each suite the sources declare ran (its "# Subtest:" line), its plan
# matches its cases, and its own result line is ok.  Skips on a kernel
# without KUnit (Debian's) or without the module built for it.
# group: kunit
# kernel: debug
# clock: tcg
# time: 1
# time-debug: 35
. "$LUNQ_SRC/tests/vm/lib.sh"

ko=$LUNQ_SRC/build/kmod-kunit/$(uname -r)/kmod/dm-lunq-kunit.ko
[ -d /sys/module/kunit ] || skip "this kernel has no KUnit (CONFIG_KUNIT=y: the debug kernel)"
[ -f "$ko" ] || skip "no $ko (LUNQ_TEST_KUNIT=y scripts/build-kmod KDIR)"

# the suites the sources declare: ".name = \"SUITE\"" in a kunit_suite
want=$(sed -n '/struct kunit_suite/,/}/s/^[[:space:]]*\.name = "\([a-z0-9_]*\)",.*/\1/p' \
	"$LUNQ_SRC"/kmod/*_test.c | sort -u)
[ -n "$want" ] || fail "no kunit_suite found in $LUNQ_SRC/kmod/*_test.c"

# dm-lunq.ko out while the suites run (the module holds the same trace
# events), back afterwards
if grep -q '^dm_lunq ' /proc/modules; then
	rmmod dm_lunq || fail "rmmod dm_lunq (the KUnit module holds its trace events)"
	lunq_back=1
fi
mark="lunq-kunit-start-$$"
echo "$mark" > /dev/kmsg
insmod "$ko" || fail "insmod $ko"
rmmod dm_lunq_kunit || fail "rmmod dm_lunq_kunit"
[ -z "${lunq_back:-}" ] || modprobe dm-lunq || fail "modprobe dm-lunq after the suites"
dmesg | tr -d '\r' | sed 's/^\[[ 0-9.]*\] //' | sed -n "/$mark/,\$p" > /tmp/kunit.log
grep -q "$mark" /tmp/kunit.log ||
	fail "the kernel's log no longer holds the start of the run (ring buffer too small?)"

# one line per case: "ok SUITE.CASE" or "not ok SUITE.CASE"; per suite
# "suite SUITE PLAN CASES RESULT" (awk's end)
awk '
	/^    # Subtest: / { suite = $3; plan[suite] = -1; order[++ns] = suite; next }
	/^    1\.\.[0-9]+$/ && suite != "" { plan[suite] = substr($1, 4); next }
	/^        (not )?ok [0-9]+ / { next }	# parameters of a case
	/^    (not )?ok [0-9]+ / && suite != "" {
		l = $0; sub(/^    /, "", l); bad = (l ~ /^not /)
		sub(/^(not )?ok [0-9]+ (- )?/, "", l); sub(/ # .*/, "", l)
		printf "%s %s.%s\n", bad ? "not ok" : "ok", suite, l
		cases[suite]++
		next
	}
	/^(not )?ok [0-9]+ / && suite != "" {
		res[suite] = ($0 ~ /^not /) ? "fail" : "pass"; suite = ""
	}
	END {
		for (i = 1; i <= ns; i++) {
			s = order[i]
			printf "suite %s %d %d %s\n", s, plan[s], cases[s] + 0, res[s] == "" ? "none" : res[s]
		}
	}' /tmp/kunit.log > /tmp/kunit.res

bad=0
while read -r a b c; do
	case $a in
	ok) ok "$b" ;;
	not) _lq_result "not ok" "$c"; bad=$((bad + 1)) ;;
	esac
done < /tmp/kunit.res
grep -E 'EXPECTATION FAILED|ASSERTION FAILED|Expected |BUG:|KASAN' /tmp/kunit.log | head -20 | sed 's/^/# /'

n=0
for s in $want; do
	line=$(grep "^suite $s " /tmp/kunit.res) || fail "suite $s did not run (no \"# Subtest: $s\" in the kernel's log)"
	set -- $line
	[ "$3" -gt 0 ] && [ "$3" = "$4" ] || fail "suite $s: plan 1..$3 but $4 cases reported"
	[ "$5" = pass ] || [ $bad -gt 0 ] || fail "suite $s: its result is $5 with every case ok"
	n=$((n + $4))
done
[ $bad = 0 ] || fail "$bad of the KUnit cases failed"
ok "$(echo "$want" | wc -l) suites, $n cases, every plan complete"
