# tests/vm/suite.sh [NAME...]: run VM integration tests inside the VM.
# Runs tests/vm/t-NAME.sh (all of them, or the NAMEs given) one after the
# other, each in its own shell, and prints KTAP.  A test fails when its
# script fails or when the kernel log shows a splat while it ran; after
# each test every dm device, null_blk, ram disk and scsi_debug is removed.
# Each test's output is in $LUNQ_OUT/NAME.log and echoed as KTAP diagnostics.
# A test running longer than $LUNQ_TEST_TIMEOUT seconds (300) is killed and fails.
. "$LUNQ_SRC/tests/vm/lib.sh"
dir=$LUNQ_SRC/tests/vm
if [ $# -gt 0 ]; then
	names="$*"
else
	names=$(for f in "$dir"/t-*.sh; do basename "$f" .sh | sed 's/^t-//'; done)
fi
n=$(echo $names | wc -w)
echo "KTAP version 1"
echo "1..$n"
i=0 failed=0
for name in $names; do
	i=$((i + 1))
	log=$LUNQ_OUT/$name.log
	if [ ! -f "$dir/t-$name.sh" ]; then
		echo "not ok $i $name # no such test"
		failed=$((failed + 1))
		continue
	fi
	mark=$(dmesg_mark)
	start=$(date +%s)
	(cd /tmp && timeout "${LUNQ_TEST_TIMEOUT:-300}" sh "$dir/t-$name.sh") > "$log" 2>&1
	rc=$?
	case $rc in 124|143) echo "FAIL: timed out after ${LUNQ_TEST_TIMEOUT:-300} s" >> "$log" ;; esac
	cleanup_all
	dmesg_since "$mark" > "$LUNQ_OUT/$name.dmesg"
	if ! sh "$LUNQ_SRC/qemu/scan-console" "$LUNQ_OUT/$name.dmesg" >> "$log"; then
		echo "FAIL: kernel splat while the test ran (see $name.dmesg)" >> "$log"
		rc=1
	fi
	sed 's/^/# /' "$log"
	secs=$(($(date +%s) - start))
	case $rc in
	0) echo "ok $i $name # ${secs}s" ;;
	77) echo "ok $i $name # SKIP $(grep -m1 '^SKIP:' "$log" | sed 's/^SKIP: //')" ;;
	*) echo "not ok $i $name # ${secs}s"; failed=$((failed + 1)) ;;
	esac
done
[ $failed -eq 0 ]
