# lunqctl apply: one policy file gives two scsi_debug LUNs of different
# models (inq_product changed between two add_host) different throttles,
# a null_blk device (no identity) its section by name, and every device
# the [*] default; sysfs policy files are the observer.  --dry-run changes
# nothing; a second apply changes nothing; a file with errors reports
# file:line and applies nothing; --device with a non-lunq dm device and
# --quiet (the udev rule's call) is silent and succeeds.
# group: ctl
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

luns=$(sdebug_models FAST1 SLOW2 inq_vendor=ACME dev_size_mb=16) ||
	fail "two scsi_debug LUNs with models FAST1, SLOW2"
fast=${luns% *} slow=${luns#* }
diag "LUNs: $fast $(cat /sys/block/${fast#/dev/}/device/model), $slow $(cat /sys/block/${slow#/dev/}/device/model)"
nb=$(nullb_create lq_nb 64) || fail "null_blk"
lc 0 create fastlun "$fast" qdepth=64
lc 0 create slowlun "$slow" qdepth=64
lc 0 create nbtest "$nb"
dm_create lin "0 1024 zero" || fail "zero device"

cat > /tmp/lunq.conf <<'CONF'
# test policy
[*]
bubble_ms = 100

[vendor=acme model="FAST*"]     # case-insensitive vendor
qdepth = 32

[model=SLOW2]
qdepth = 4
sched = disksort
max_wait_ms = 500

[name=nb*]
qdepth:2
CONF
pol() { cat "/sys/kernel/lunq/$1/policy/$2"; }
state() { echo "$(pol fastlun qdepth) $(pol slowlun qdepth) $(pol slowlun sched) $(pol slowlun max_wait_ms) $(pol nbtest qdepth) $(pol fastlun bubble_ms) $(pol nbtest bubble_ms)"; }
before=$(state)
[ "$before" = "64 64 fifo 0 0 0 0" ] || fail "initial policy: $before"

lc 0 apply --dry-run /tmp/lunq.conf
cat /tmp/lc.out | sed 's/^/# /'
lc_out 'fastlun: would set qdepth 64 -> 32 (/tmp/lunq.conf:6 [vendor=acme model="FAST*"])'
lc_out 'slowlun: would set sched fifo -> disksort (/tmp/lunq.conf:10 [model=SLOW2])'
lc_out 'fastlun: lower sd'; lc_out 'vendor "ACME" model "FAST1"'
[ "$(state)" = "$before" ] || fail "--dry-run changed something: $(state)"
ok "dry run: says what would change and why, identity shown, nothing changed"

lc 0 apply /tmp/lunq.conf
cat /tmp/lc.out | sed 's/^/# /'
[ "$(state)" = "32 4 disksort 500 2 100 100" ] || fail "after apply: $(state), want 32 4 disksort 500 2 100 100"
dmsetup table slowlun | grep -q 'qdepth:4 sched:disksort max_wait_ms:500' || fail "table: $(dmsetup table slowlun)"
ok "apply: FAST1 qdepth 32, SLOW2 qdepth 4 disksort max_wait_ms 500, null_blk by name qdepth 2, [*] bubble_ms 100 everywhere"

lc 0 apply /tmp/lunq.conf
[ "$(grep -c 'no change' /tmp/lc.out)" = 3 ] || { cat /tmp/lc.out; fail "second apply should change nothing"; }
ok "second apply: no change on all 3"

# errors: nothing applied, every error with file:line
lc 0 set fastlun qdepth=64
cat > /tmp/bad.conf <<'CONF'
[*]
qdepth = 16
[vendor=ACME
qdepth = 70000
[colour=red]
pool = p1
CONF
lc 1 apply /tmp/bad.conf
cat /tmp/lc.err | sed 's/^/# /'
lc_err "/tmp/bad.conf:3:"; lc_err "/tmp/bad.conf:4: qdepth: value must be an integer 0..65535"
lc_err "/tmp/bad.conf:5:"; lc_err "/tmp/bad.conf:6:"
[ "$(pol fastlun qdepth)" = 64 ] || fail "a bad file changed qdepth"
lc 2 apply /tmp/nosuch.conf
ok "bad file: errors at lines 3, 4, 5, 6 reported, nothing applied (exit 1); missing file exit 2"

# the udev rule's call
lc 0 apply --quiet --device lin /tmp/lunq.conf
[ ! -s /tmp/lc.out ] && [ ! -s /tmp/lc.err ] || fail "--quiet --device of a non-lunq device printed something"
lc 0 apply --quiet --device fastlun /tmp/lunq.conf
[ ! -s /tmp/lc.out ] && [ "$(pol fastlun qdepth)" = 32 ] && [ "$(pol nbtest qdepth)" = 2 ] ||
	fail "--device fastlun"
lc 2 apply --device nosuch /tmp/lunq.conf
ok "--device: a non-lunq dm device is quietly ignored, a lunq one applied alone"

lc 0 remove fastlun slowlun nbtest
! dm_exists fastlun && ! dm_exists slowlun && ! dm_exists nbtest && [ ! -e /sys/kernel/lunq/slowlun ] ||
	fail "remove of the scsi_debug and null_blk lunq devices"
ok "remove: the three devices and their sysfs directories are gone"
