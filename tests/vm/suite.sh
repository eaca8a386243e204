# tests/vm/suite.sh [NAME...]: run VM integration tests inside the VM.
# Runs tests/vm/t-NAME.sh (all of them, or the NAMEs given) one after the
# other, each in its own shell, and prints KTAP.  A test fails when its
# script fails or when the kernel log shows a splat while it ran; after
# each test every dm device, null_blk, ram disk and scsi_debug is removed.
# Each test's output is in $LUNQ_OUT/NAME.log and echoed as the subtests
# of its result line: its checks (tests/vm/lib.sh's ok, fail and skip:
# "ok N TEXT", "not ok N TEXT") indented four spaces under a plan, its
# other lines as diagnostics ("    # ...").  What the suite finds itself
# (a timeout, a kernel splat) is a "not ok" result of the test's as well.
# With LUNQ_SKIP_TIMING=1 (tests/run on the debug kernel) a test of the
# group "timing" is skipped: its checks are rates and ratios.
# A test running longer than $LUNQ_TEST_TIMEOUT seconds (300) is killed and fails.
# On a kernel with kmemleak (the debug kernel) a last test, "kmemleak",
# scans for leaks after all of them: any unreferenced object whose
# allocation backtrace is in dm-lunq (or in a module since unloaded, whose
# frames no longer resolve) fails it; so does a detector that misses the
# leaks of kmemleak-test, loaded and unloaded after the scan to prove it.
# On the icount clock (qemu/run's -icount sleep=off) the guest's time
# jumps to its next timer's deadline whenever its vCPU is idle -- also
# while a task waits for the host: a read or write on the 9p shares
# (/lunq, /out), served by QEMU's threads at the host's pace.  Under a
# loaded host (the icount runs go at idle priority) one such wait let the
# guest's clock run on by seconds to minutes, past a test's timeout
# (doc/testing.md, "The icount clock and the host's I/O").  So nothing a
# test does there waits for the host: it works from a tmpfs copy of the
# tree (qemu/run's /out/.job/src.tar: the tree less the VM images and
# other kernels' modules), writes its log and results in tmpfs, and they
# go to /out between tests.
out=$LUNQ_OUT
if [ "${LUNQ_VM_ACCEL:-}" = icount ] && [ -f "$LUNQ_OUT/.job/src.tar" ]; then
	mkdir -p /run/lunq-src /run/lunq-out
	tar -xf "$LUNQ_OUT/.job/src.tar" -C /run/lunq-src ||
		{ echo "Bail out! cannot unpack $LUNQ_OUT/.job/src.tar"; exit 1; }
	cp "$LUNQ_OUT/.job/src.sums" /run/lunq-src.sums 2> /dev/null
	export LUNQ_SRC=/run/lunq-src LUNQ_OUT=/run/lunq-out
fi
. "$LUNQ_SRC/tests/vm/lib.sh"
dir=$LUNQ_SRC/tests/vm
if [ $# -gt 0 ]; then
	names="$*"
else
	names=$(for f in "$dir"/t-*.sh; do basename "$f" .sh | sed 's/^t-//'; done)
fi
n=$(echo $names | wc -w)
kml=/sys/kernel/debug/kmemleak
leakscan=0
if [ -w $kml ] && echo clear > $kml 2>/dev/null; then
	leakscan=1	# boot-time objects are forgotten: only what the tests leave
	n=$((n + 1))
fi
echo "KTAP version 1"
echo "1..$n"
i=0 failed=0

# result LOG TEXT: a "not ok" check of the suite's own at the end of LOG,
# numbered after the test's
result() {
	echo "not ok $(($(grep -cE '^(not )?ok [0-9]+ ' "$1") + 1)) $2" >> "$1"
}
# subtests NAME LOG: the test's output as KTAP subtests of its result line
subtests() {
	tr -d '\r' < "$2" | awk -v name="$1" '
		{ l[NR] = $0 }
		/^(not )?ok [0-9]+ / { n++ }
		END {
			print "    KTAP version 1"
			print "    # Subtest: " name
			print "    1.." n + 0
			for (i = 1; i <= NR; i++) {
				if (l[i] ~ /^(not )?ok [0-9]+ / || l[i] ~ /^#/)
					print "    " l[i]
				else if (l[i] != "")
					print "    # " l[i]
			}
		}'
}
# completions: the IOs every block device has completed (reads + writes)
completions() {
	cat /sys/block/*/stat 2>/dev/null | awk '{ n += $1 + $5 } END { print n + 0 }'
}
# kill_leftovers NAME: what a test that timed out leaves running --
# timeout ends its script, not the scripts it started (tests/demo/*.sh
# with their samplers), which would go on creating devices beside its
# second run -- by the command line
kill_leftovers() {
	for _p in /proc/[0-9]*; do
		_c=$(tr '\0' ' ' < "$_p/cmdline" 2>/dev/null) || continue
		case $_c in *"/t-$1.sh"*|*"/tests/demo/"*) kill -9 "${_p#/proc/}" 2>/dev/null ;; esac
	done
	return 0
}
# stuck: what a timed-out test left behind, for the log: tasks in D state
# with their kernel stacks, the dm devices' status, block devices with IO
# in flight (the known hangs on 6.1's one-vCPU icount clock left no trace)
stuck() {
	echo "# at the timeout: tasks in D state"
	for p in /proc/[0-9]*; do
		st=$(awk '{ print $3 }' "$p/stat" 2>/dev/null)
		[ "$st" = D ] || continue
		echo "# pid ${p#/proc/} $(cat "$p/comm" 2>/dev/null): $(tr '\0' ' ' < "$p/cmdline" 2>/dev/null)"
		sed 's/^/#   /' "$p/stack" 2>/dev/null
	done
	# every user task (kernel threads have no cmdline): its state and
	# where it sleeps, with the kernel stack of the tools a test drives
	echo "# user tasks (pid state wchan: command):"
	for p in /proc/[0-9]*; do
		cl=$(tr '\0' ' ' < "$p/cmdline" 2>/dev/null)
		[ -n "$cl" ] || continue
		st=$(awk '{ print $3 }' "$p/stat" 2>/dev/null)
		echo "#   ${p#/proc/} $st $(cat "$p/wchan" 2>/dev/null): $cl"
		case $(cat "$p/comm" 2>/dev/null) in
		lunqctl|lunqbench|fio|dmsetup|blkzone|sg_*) sed 's/^/#     /' "$p/stack" 2>/dev/null ;;
		esac
	done
	# the guest's clock against the RTC's (the host's time under icount)
	echo "# guest clock $(date +%s), RTC $(cat /sys/class/rtc/rtc0/since_epoch 2>/dev/null || echo -)"
	echo "# dm devices:"
	dmsetup status 2>&1 | sed 's/^/#   /'
	for f in /sys/block/*/inflight; do
		[ -e "$f" ] || continue
		read -r r w < "$f"
		[ "$r$w" = 00 ] || echo "# in flight at $(basename "$(dirname "$f")"): $r reads, $w writes"
	done
	# IO in flight that still completes is not stuck (a load the test
	# left running): the block devices' completions over 2 s
	_c0=$(completions)
	sleep 2
	_c1=$(completions)
	[ "$_c1" = "$_c0" ] || echo "# IO still completing: $_c0 -> $_c1 IOs completed in 2 s"
}
# test_timeout FILE: a test's timeout (the guest's seconds): 300, or twice
# its declared time ("# time: N") when that is longer
test_timeout() {
	_t=$(sed -n 's/^# time: *//p' "$1" | head -1)
	_t=$((2 * ${_t:-0}))
	[ "$_t" -gt 300 ] || _t=300
	echo "$_t"
}
for name in $names; do
	i=$((i + 1))
	log=$LUNQ_OUT/$name.log
	if [ ! -f "$dir/t-$name.sh" ]; then
		echo "not ok $i $name # no such test"
		failed=$((failed + 1))
		continue
	fi
	if [ "${LUNQ_SKIP_TIMING:-0}" = 1 ] &&
		sed -n 's/^# group: //p' "$dir/t-$name.sh" | grep -qw timing; then
		echo "ok $i $name # SKIP timing-shaped checks; this kernel (KASAN, lockdep under TCG) is too slow for them"
		continue
	fi
	mark=$(dmesg_mark)
	start=$(date +%s)
	tmo=${LUNQ_TEST_TIMEOUT:-$(test_timeout "$dir/t-$name.sh")}
	(cd /tmp && timeout "$tmo" sh "$dir/t-$name.sh") > "$log" 2>&1
	rc=$?
	case $rc in 124|143)
		result "$log" "timed out after $tmo s"
		stuck >> "$log" 2>&1
		kill_leftovers "$name" ;;
	esac
	cleanup_all
	rm -f /tmp/lunq-ktap.*	# lib.sh's counters of the test's checks
	dmesg_since "$mark" > "$LUNQ_OUT/$name.dmesg"
	if ! sh "$LUNQ_SRC/qemu/scan-console" "$LUNQ_OUT/$name.dmesg" >> "$log"; then
		result "$log" "kernel splat while the test ran (see $name.dmesg)"
		rc=1
	fi
	secs=$(($(date +%s) - start))	# (before the serial console's output)
	subtests "$name" "$log"
	case $rc in
	0) echo "ok $i $name # ${secs}s" ;;
	77) echo "ok $i $name # SKIP $(sed -n 's/^ok [0-9]* .* # SKIP //p' "$log" | tail -n 1)" ;;
	*) echo "not ok $i $name # ${secs}s"; failed=$((failed + 1)) ;;
	esac
	# the test's log and results to the host, between tests (its time
	# is no test's)
	[ "$LUNQ_OUT" = "$out" ] || { cp -R "$LUNQ_OUT"/. "$out"/ && rm -rf "${LUNQ_OUT:?}"/*; }
done
if [ $leakscan = 1 ]; then
	i=$((i + 1))
	start=$(date +%s)
	# twice, as Documentation/dev-tools/kmemleak.rst advises: an object is
	# reported once it stayed unreferenced across scans
	echo scan > $kml; sleep 6; echo scan > $kml
	cat $kml > "$LUNQ_OUT/kmemleak.txt"
	total=$(grep -c '^unreferenced object' "$LUNQ_OUT/kmemleak.txt")
	ours=$(awk '/^unreferenced object/ { if (hit) n++; hit = 0 }
		/lunq|\[dm_lunq\]|0xffffffffc[0-9a-f]+$/ { hit = 1 }
		END { if (hit) n++; print n + 0 }' "$LUNQ_OUT/kmemleak.txt")
	echo "# kmemleak: $total unreferenced objects after the suite, $ours in dm-lunq or an unloaded module"
	head -n 60 "$LUNQ_OUT/kmemleak.txt" | sed 's/^/# /'
	# The detector itself: kmemleak-test (CONFIG_DEBUG_KMEMLEAK_TEST) leaks
	# on purpose; once it is unloaded, the next scans must find more.
	proof="kmemleak-test not available"
	if modprobe kmemleak-test 2>/dev/null; then
		rmmod kmemleak-test
		sleep 6; echo scan > $kml; sleep 6; echo scan > $kml
		after=$(grep -c '^unreferenced object' $kml)
		proof="kmemleak-test's leaks: $after objects now, $total before"
		[ "$after" -gt "$total" ] || { ours="blind"; proof="$proof: the detector found nothing"; }
	fi
	echo "# kmemleak self-check: $proof"
	if [ "$ours" = 0 ]; then
		echo "ok $i kmemleak # $(($(date +%s) - start))s"
	else
		echo "not ok $i kmemleak # $(($(date +%s) - start))s"
		failed=$((failed + 1))
	fi
fi
[ $failed -eq 0 ]
