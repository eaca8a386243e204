#!/bin/bash
# Tests of qemu/run itself, on the host: exit status, result files, the
# console scanner catching real splats (a WARN and an oops raised by the
# tests/splat fixture module in the VM's kernel), and one more boot when
# the kernel dies before the job starts.
# KTAP, one "ok N NAME" / "not ok N NAME" line per check (tests/unit/tap.sh).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/unit/tap.sh"
run=$top/qemu/run
export LUNQ_VM_TIMEOUT=120
tap_tmpdir

kver=$("$top/scripts/kver")
ko=$top/tests/splat/lunq_splat.ko
# One boot for what needs no splat: the exit status (3), the result
# files, quoted arguments, --kernel/--modules (bring your own kernel),
# exercised with Debian's own image and module tree given explicitly,
# --env and the clock the guest runs on (LUNQ_VM_ACCEL) reaching the guest
# script, and the splat fixture loaded with mode=none (no splat found:
# the exit status stays 3, not 99)
cat > "$tmp/one.sh" <<'EOS'
echo "$1 $2" > "$LUNQ_OUT/result.txt"
uname -r >> "$LUNQ_OUT/result.txt"
[ -d "$LUNQ_SRC/kmod" ] || exit 1
echo "release $(uname -r) env $LUNQ_X accel $LUNQ_VM_ACCEL"
grep -q '^dm_lunq ' /proc/modules && echo "dm_lunq loaded"
insmod "$LUNQ_SRC/tests/splat/lunq_splat.ko" mode=none && echo "splat none loaded"
exit 3
EOS
out=$("$run" -o "$tmp/out" --kernel "/boot/vmlinuz-$kver" --modules / --env "LUNQ_X=a b" \
	"$tmp/one.sh" "two words" "it's" 2>"$tmp/err")
rc=$?
[ $rc = 3 ] && ok qemu-run-exit-status ||
	fail qemu-run-exit-status "rc=$rc out='$out' $(tail -3 "$tmp/err")"
want="two words it's
$kver"
[ "$(cat "$tmp/out/result.txt" 2>/dev/null)" = "$want" ] &&
	[ -s "$tmp/out/console.log" ] && [ -s "$tmp/out/dmesg.txt" ] &&
	ok qemu-run-result-files || fail qemu-run-result-files "rc=$rc"
# the clock qemu/run chose (auto: its probe's cached verdict)
acc=${LUNQ_ACCEL:-auto}
if [ "$acc" = auto ]; then
	acc=tcg
	[ -s "$top/build/vm/accel" ] && [ -r /dev/kvm ] && [ -w /dev/kvm ] && acc=$(cat "$top/build/vm/accel")
fi
[ "$(echo "$out" | head -2)" = "release $kver env a b accel $acc
dm_lunq loaded" ] && ok qemu-run-own-kernel ||
	fail qemu-run-own-kernel "rc=$rc out='$out' $(tail -3 "$tmp/err")"
if [ ! -f "$ko" ]; then
	fail qemu-run-splat-none "fixture module not built"
else
	[ $rc = 3 ] && echo "$out" | grep -qx "splat none loaded" && ok qemu-run-splat-none ||
		fail qemu-run-splat-none "rc=$rc out='$out'"
fi

# a WARN and an oops: each its own boot (the run's status is 99)
for mode in warn oops; do
	cat > "$tmp/splat.sh" <<EOS
insmod "\$LUNQ_SRC/tests/splat/lunq_splat.ko" mode=$mode
echo "insmod said \$?"
exit 0
EOS
	"$run" "$tmp/splat.sh" >"$tmp/out.$mode" 2>"$tmp/err.$mode"
	rc=$?
	if [ ! -f "$ko" ]; then
		fail "qemu-run-splat-$mode" "fixture module not built"
	else
		[ $rc = 99 ] && grep -q 'kernel splat' "$tmp/err.$mode" &&
			ok "qemu-run-splat-$mode" || fail "qemu-run-splat-$mode" "rc=$rc"
	fi
done

# a kernel that dies while booting, before the job starts (no init: a
# panic, no status, no output): qemu/run boots once more, keeps the first
# console as console.boot1.log, and the second death is a splat (99)
LUNQ_VM_APPEND="rdinit=/no-such-init" "$run" -o "$tmp/boot" "$tmp/one.sh" >/dev/null 2>"$tmp/err.boot"
rc=$?
[ $rc = 99 ] && grep -q 'died while booting, before the job started' "$tmp/err.boot" &&
	[ "$(grep -c 'booting once more' "$tmp/err.boot")" = 1 ] &&
	grep -q 'Kernel panic' "$tmp/boot/console.boot1.log" && grep -q 'Kernel panic' "$tmp/boot/console.log" &&
	ok qemu-run-boot-retry || { tap_quote "$tmp/err.boot"; fail qemu-run-boot-retry "rc=$rc"; }

# bad input: not a kernel image, --modules of another kernel, stray --modules
bad=
"$run" --kernel "$tmp/one.sh" "$tmp/one.sh" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q 'not an x86 bzImage' "$tmp/err" || bad="$bad not-bzImage:$rc"
mkdir -p "$tmp/mods/lib/modules/0.0.0-other"
"$run" --kernel "/boot/vmlinuz-$kver" --modules "$tmp/mods" "$tmp/one.sh" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 125 ] && grep -q "holds no lib/modules/$kver" "$tmp/err" || bad="$bad other-modules:$rc"
"$run" --modules / "$tmp/one.sh" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q -- '--modules goes with --kernel' "$tmp/err" || bad="$bad stray-modules:$rc"
[ -z "$bad" ] && ok qemu-run-own-kernel-errors || fail qemu-run-own-kernel-errors "$bad"
