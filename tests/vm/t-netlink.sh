# Generic netlink family "lunq" (kmod/dm-lunq.rst, "Generic netlink" and
# "Events"), driven by tests/tools/nlprobe (raw sockets, no libnl):
#  - libnl's genl-ctrl-list, a client other than ours, lists the family
#    with version 1, under the id nlprobe resolves;
#  - the dump shows every device; counters after fixed-size fio jobs equal
#    fio's counts and the sysfs files exactly, histograms add up;
#  - SET changes the live policy (dmsetup table shows it), refused words
#    answer EINVAL with the parser's message and change nothing;
#  - malformed requests (missing or unknown name, strings without NUL or
#    too long, wrong attribute type or length, out-of-range histogram
#    kind, unknown attributes, unknown commands) are refused and change
#    nothing; the limits themselves (159 / 1023 characters) pass;
#  - an unprivileged user dumps and reads histograms, SET and RESET
#    answer EPERM;
#  - events: QUEUE FULL, throttle moves (set, qfull) and bubbles reach a
#    listener with plausible contents, bubbles rate-limited;
#  - RESET zeroes the counters (netlink and sysfs).
# group: stats
# time: 25
. "$LUNQ_SRC/tests/vm/lib.sh"

command -v nlprobe >/dev/null || skip "nlprobe not built (make tools)"
command -v genl-ctrl-list >/dev/null || skip "no genl-ctrl-list (libnl-utils)"

lpid=
cleanup() {
	[ -n "$lpid" ] && kill "$lpid" 2>/dev/null && wait "$lpid" 2>/dev/null
	for d in lq lq2; do dm_exists $d && dm_remove $d; done
	nullb_remove lq_nb lq_nb2
}
trap cleanup EXIT

# kv LINE KEY: the value of KEY=value in an nlprobe line
kv() { printf '%s\n' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p" | head -n 1; }
# policy_of LINE: the policy="..." words of a device line
policy_of() { printf '%s\n' "$1" | sed -n 's/.* policy="\([^"]*\)".*/\1/p'; }
# dev NAME: the device line of `nlprobe get NAME` (fails the test on error)
dev() {
	_l=$(nlprobe get "$1") || fail "nlprobe get $1: $_l"
	printf '%s\n' "$_l"
}
# rep N C: the character C N times
rep() { awk -v n="$1" -v c="$2" 'BEGIN { for (i = 0; i < n; i++) printf "%s", c }'; }

# --- the family, seen by libnl and by nlprobe ---
gl=$(genl-ctrl-list | awk '$2 == "lunq"')
[ -n "$gl" ] || { genl-ctrl-list; fail "genl-ctrl-list does not list family lunq"; }
set -- $gl
[ "$3" = version ] && [ "$4" = 1 ] || fail "genl-ctrl-list: '$gl', expected version 1"
fam=$(nlprobe family) || fail "nlprobe family: $fam"
[ "$(kv "$fam" id)" = $(($1)) ] || fail "ids differ: genl-ctrl-list '$gl', nlprobe '$fam'"
[ "$(kv "$fam" version)" = 1 ] || fail "nlprobe family: $fam"
[ "$(kv "$fam" events_group)" -gt 0 ] || fail "no events group: $fam"
ok "genl-ctrl-list: '$gl'; nlprobe: $fam"

# --- two devices, the dump ---
nb=$(nullb_create lq_nb 128 irqmode=2 completion_nsec=2000000 hw_queue_depth=64) ||
	fail "null_blk setup"
nb2=$(nullb_create lq_nb2 64) || fail "null_blk 2 setup"
lunq_create lq $nb qdepth:8 || fail "create lq"
lunq_create lq2 $nb2 || fail "create lq2"
nlprobe dump > /tmp/dump || fail "dump: $(cat /tmp/dump)"
[ "$(wc -l < /tmp/dump)" = 2 ] || { cat /tmp/dump; fail "dump: not 2 lines"; }
for d in lq lq2; do
	l=$(grep "^name=$d " /tmp/dump) || { cat /tmp/dump; fail "dump lacks $d"; }
	low=$nb
	[ $d = lq2 ] && low=$nb2
	[ "$(kv "$l" dm_name)" = $d ] &&
		[ "$(kv "$l" disk)" = "$(basename "$(dm_sysfs $d)")" ] &&
		[ "$(kv "$l" lower)" = "$(cat /sys/block/"$(basename "$low")"/dev)" ] &&
		[ "$(kv "$l" len)" = "$(sectors "$low")" ] &&
		[ "$(kv "$l" begin)" = 0 ] && [ "$(kv "$l" version)" = 1 ] &&
		[ "$(kv "$l" throttle_policy)" = fixed ] &&
		[ "$(kv "$l" throttle_policy_from)" = table ] ||
		fail "dump line of $d: $l"
done
[ "$(policy_of "$(grep '^name=lq ' /tmp/dump)")" = qdepth:8 ] &&
	[ "$(policy_of "$(grep '^name=lq2 ' /tmp/dump)")" = "" ] ||
	fail "policies: $(cat /tmp/dump)"
[ "$(kv "$(dev lq)" throttle)" = 8 ] ||
	fail "get lq: $(dev lq)"
ok "dump: lq and lq2 with dm name, disk, lower device, length, policy"

# --- counters against fio (fixed-size jobs: exact) ---
out=$(nlprobe reset lq2) && [ "$out" = ok ] || fail "reset lq2: $out"
fio --direct=1 --ioengine=libaio --filename=/dev/mapper/lq2 --bs=4k --iodepth=4 \
	--output-format=terse --terse-version=3 \
	--name=w --rw=write --size=1m --name=r --rw=read --size=2m \
	--stonewall > /tmp/fio.cnt 2>&1 || { cat /tmp/fio.cnt; fail "fio"; }
fw=$(( $(awk -F';' '$3 == "w" { print $47 }' /tmp/fio.cnt) / 4 ))
fr=$(( $(awk -F';' '$3 == "r" { print $6 }' /tmp/fio.cnt) / 4 ))
l=$(dev lq2)
diag "fio: $fr reads $fw writes; $l"
[ "$fr" = 512 ] && [ "$fw" = 256 ] || fail "fio did $fr reads $fw writes, expected 512 and 256"
[ "$(kv "$l" reads)" = "$fr" ] && [ "$(kv "$l" read_sectors)" = $((fr * 8)) ] &&
	[ "$(kv "$l" writes)" = "$fw" ] && [ "$(kv "$l" write_sectors)" = $((fw * 8)) ] &&
	[ "$(kv "$l" completed)" = $((fr + fw)) ] && [ "$(kv "$l" errors)" = 0 ] ||
	fail "netlink counters differ from fio's: $l"
for s in reads read_sectors writes write_sectors completed dispatched; do
	[ "$(kv "$l" $s)" = "$(lq_stat lq2 $s)" ] ||
		fail "$s: netlink $(kv "$l" $s), sysfs $(lq_stat lq2 $s)"
done
ok "reads=$fr read_sectors=$((fr * 8)) writes=$fw write_sectors=$((fw * 8)): equal fio's and sysfs"
h=$(nlprobe hist lq2 total_read) || fail "hist: $h"
[ "$(kv "$h" count)" = "$fr" ] && [ "$(kv "$h" bucket_total)" = "$fr" ] &&
	[ "$(kv "$h" buckets)" -ge 1 ] && [ "$(kv "$h" ordered)" = 1 ] &&
	[ "$(kv "$h" count)" = "$(lq_hist lq2 total_read count)" ] &&
	[ "$(kv "$h" sum)" = "$(lq_hist lq2 total_read sum)" ] ||
	fail "hist total_read: $h (sysfs count $(lq_hist lq2 total_read count))"
ok "hist total_read: $h"
h=$(nlprobe hist lq2 5) || fail "hist: $h"
[ "$(kv "$h" count)" = "$fw" ] && [ "$(kv "$h" bucket_total)" = "$fw" ] ||
	fail "hist 5 (total_write): $h"
h=$(nlprobe hist lq2 size) || fail "hist: $h"
[ "$(kv "$h" count)" = $((fr + fw)) ] && [ "$(kv "$h" sum)" = $(((fr + fw) * 4096)) ] &&
	[ "$(kv "$h" max)" = 4096 ] && [ "$(kv "$h" buckets)" = 1 ] &&
	[ "$(kv "$h" bucket_total)" = $((fr + fw)) ] || fail "hist size: $h"
ok "hist total_write (by number) and size add up: $h"

# --- SET ---
out=$(nlprobe set lq "qdepth:3 sched:disksort") && [ "$out" = ok ] || fail "set: $out"
dmsetup table lq | grep -q ' 2 qdepth:3 sched:disksort$' ||
	fail "table after set: $(dmsetup table lq)"
[ "$(policy_of "$(dev lq)")" = "qdepth:3 sched:disksort" ] &&
	[ "$(kv "$(dev lq)" throttle)" = 3 ] || fail "get after set: $(dev lq)"
ok "set 'qdepth:3 sched:disksort': $(dmsetup table lq)"
# the throttle policy in force, as INFO status says it (a device of its own)
nb3=$(nullb_create lq_nb3 16) || fail "null_blk 3 setup"
lunq_create lq3 $nb3 qdepth:8 reaction:sd || fail "create lq3"
[ "$(kv "$(dev lq3)" throttle_policy)" = sd ] &&
	[ "$(kv "$(dev lq3)" throttle_policy_from)" = table ] &&
	[ "$(status_field lq3 throttle_policy)" = sd ] || fail "get lq3 (reaction:sd): $(dev lq3)"
out=$(nlprobe set lq3 "auto:knee reaction:none") && [ "$out" = ok ] || fail "set auto:knee: $out"
[ "$(kv "$(dev lq3)" throttle_policy)" = knee ] &&
	[ "$(status_field lq3 throttle_policy)" = knee ] || fail "get lq3 after auto:knee: $(dev lq3)"
dm_remove lq3
ok "the throttle policy in force: sd, then knee after a SET (LUNQ_A_THROTTLE_POLICY, as INFO status)"

# some reads on lq, so that a RESET that should not happen would show
dd if=/dev/mapper/lq of=/dev/null bs=4k count=16 iflag=direct 2>/dev/null ||
	fail "dd lq"
[ "$(lq_stat lq reads)" -ge 16 ] || fail "lq reads $(lq_stat lq reads)"

# state: what a wrongly accepted request would change
state() {
	dmsetup table lq
	dmsetup table lq2
	for d in lq lq2; do
		for s in reads writes read_sectors; do lq_stat $d $s; done
	done
}
# refused ERRNO MSG WHAT CMD...: CMD exits 1 printing error=ERRNO with MSG
# in msg= (MSG empty: any), and nothing changes
refused() {
	_e=$1 _m=$2 _w=$3
	shift 3
	_b=$(state)
	_o=$("$@" 2>&1)
	_rc=$?
	[ $_rc = 1 ] || fail "$_w: exit status $_rc: $_o"
	case $_o in
	"error=$_e errno="*) ;;
	*) fail "$_w: expected error=$_e, got: $_o" ;;
	esac
	case ${_o#* msg=} in
	*"$_m"*) ;;
	*) fail "$_w: message lacks '$_m': $_o" ;;
	esac
	[ "$(state)" = "$_b" ] || fail "$_w: state changed: $(state)"
	ok "$_w: $_o"
}
refused EINVAL "qdepth: value must be an integer 0..65535" "set qdepth:70000" \
	nlprobe set lq "qdepth:70000"
refused EINVAL "Unknown optional argument key" "set nokey:1" \
	nlprobe set lq "nokey:1"
refused EINVAL "pool: can only be set on the table line" "set pool:x (table-only)" \
	nlprobe set lq "pool:x"
refused EINVAL "sched: value must be one of fifo, disksort" "set one good, one bad word" \
	nlprobe set lq "qdepth:5 sched:elevator"
refused EINVAL "qdepth: given more than once" "set qdepth twice" \
	nlprobe set lq "qdepth:5 qdepth:6"
refused EINVAL "no key:value word given" "set with blanks only" \
	nlprobe set lq "   "

# --- malformed requests (1 NAME, 7 POLICY, 9 HIST) ---
long159=$(rep 159 a) long160=$(rep 160 a)
pol1023="qdepth:3$(rep 1015 ' ')" pol1024="qdepth:5$(rep 1016 ' ')"
refused EINVAL "LUNQ_A_NAME (device name) is required" "get without NAME" \
	nlprobe raw get
refused EINVAL "LUNQ_A_NAME (device name) is required" "set without NAME" \
	nlprobe raw set 7:s:qdepth:5
refused EINVAL "LUNQ_A_NAME (device name) is required" "reset without NAME" \
	nlprobe raw reset
refused EINVAL "LUNQ_A_POLICY" "set without POLICY" nlprobe raw set 1:s:lq
refused EINVAL "LUNQ_A_HIST" "hist without HIST" nlprobe raw hist 1:s:lq
refused ENODEV "no such lunq device" "get unknown device" nlprobe get nosuch
refused ENODEV "no such lunq device" "set unknown device" nlprobe set nosuch qdepth:5
refused ENODEV "no such lunq device" "reset unknown device" nlprobe reset nosuch
refused ENODEV "no such lunq device" "hist unknown device" nlprobe hist nosuch 0
refused ENODEV "no such lunq device" "NAME of 159 characters (the limit)" \
	nlprobe raw get "1:s:$long159"
refused EINVAL "" "NAME 'lq' without NUL (set)" nlprobe raw set 1:6c71 7:s:qdepth:5
refused EINVAL "" "NAME of 160 characters (reset)" nlprobe raw reset "1:s:$long160"
refused EINVAL "" "empty NAME attribute" nlprobe raw reset 1:
refused EINVAL "invalid attribute length" "HIST as u8" nlprobe raw hist 1:s:lq 9:u8:4
refused EINVAL "invalid attribute length" "HIST as u64" nlprobe raw hist 1:s:lq 9:u64:4
refused ERANGE "integer out of range" "HIST kind 99" nlprobe raw hist 1:s:lq 9:u32:99
refused ERANGE "integer out of range" "HIST kind 10 (LUNQ_NR_HISTS)" nlprobe raw hist 1:s:lq 9:u32:10
refused EINVAL "Unknown attribute type" "unknown attribute type 200 (set)" \
	nlprobe raw set 1:s:lq 7:s:qdepth:5 200:00000000
refused EINVAL "Unsupported attribute" "reply-only attribute DM_NAME in a request (set)" \
	nlprobe raw set 1:s:lq 7:s:qdepth:5 2:s:lq
refused EINVAL "" "POLICY of 1024 characters (set)" nlprobe raw set 1:s:lq "7:s:$pol1024"
refused EINVAL "" "POLICY without NUL (set)" nlprobe raw set 1:s:lq 7:7164657074683a35
refused EOPNOTSUPP "" "unknown command 99" nlprobe raw 99 1:s:lq
refused EOPNOTSUPP "" "EVENT is not a request" nlprobe raw event 1:s:lq
h=$(nlprobe hist lq 7) || fail "hist kind 7: $h"
out=$(nlprobe raw set 1:s:lq "7:s:$pol1023") && [ "$out" = ok ] ||
	fail "POLICY of 1023 characters refused: $out"
dmsetup table lq | grep -q ' 2 qdepth:3 sched:disksort$' || fail "table: $(dmsetup table lq)"
ok "the limits pass: NAME of 159 characters (ENODEV, not EINVAL), POLICY of 1023, HIST 7"

# --- unprivileged ---
nlprobe -u 65534 dump > /tmp/dump.u || fail "unprivileged dump: $(cat /tmp/dump.u)"
[ "$(wc -l < /tmp/dump.u)" = 2 ] && grep -q "^name=lq2 .* reads=$fr " /tmp/dump.u ||
	{ cat /tmp/dump.u; fail "unprivileged dump"; }
h=$(nlprobe -u 65534 hist lq2 total_read) && [ "$(kv "$h" count)" = "$fr" ] ||
	fail "unprivileged hist: $h"
ok "user 65534: dump and hist work"
refused EPERM "" "user 65534: set" nlprobe -u 65534 set lq qdepth:5
refused EPERM "" "user 65534: reset" nlprobe -u 65534 reset lq2
refused EPERM "" "user 65534: malformed set" nlprobe -u 65534 raw set 1:6c71

# --- events ---
nlprobe listen -t 60 > /tmp/ev 2> /tmp/ev.err &
lpid=$!
i=0
until grep -q '^listening' /tmp/ev; do
	i=$((i + 1))
	[ $i -le 100 ] || fail "listener did not start: $(cat /tmp/ev /tmp/ev.err)"
	sleep 0.1
done
out=$(nlprobe set lq "qdepth:8 lun_depth:2 reaction:linux bubble_ms:1") &&
	[ "$out" = ok ] || fail "set for events: $out"
fio --name=ev --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randread --bs=4k --iodepth=16 --size=64m --time_based --runtime=3 \
	--output-format=terse --terse-version=3 > /tmp/fio.ev 2>&1 ||
	{ cat /tmp/fio.ev; fail "fio (events)"; }
sleep 1
kill "$lpid"
wait "$lpid"
rc=$?
lpid=
cp /tmp/ev "$LUNQ_OUT/netlink.events" 2>/dev/null
[ $rc = 0 ] || fail "listener exit status $rc after SIGTERM (events: $(grep -c '^event=' /tmp/ev))"
l=$(dev lq)
diag "$(grep -c '^event=' /tmp/ev) events: $(grep -c '^event=qfull' /tmp/ev) qfull, $(grep -c '^event=throttle' /tmp/ev) throttle, $(grep -c '^event=bubble' /tmp/ev) bubble; qfull=$(kv "$l" qfull) bubbles=$(kv "$l" bubbles) events_dropped=$(kv "$l" events_dropped)"
grep -v '^event=' /tmp/ev | grep -v '^listening' && fail "listener printed other lines"
grep '^event=' /tmp/ev | grep -v ' name=lq t=[0-9]* ' && fail "events without name or time"
grep -q '^event=throttle name=lq t=[0-9]* from=3 to=8 cause=set suppressed=0$' /tmp/ev ||
	{ head -20 /tmp/ev; fail "no throttle event for the set (3 -> 8)"; }
ok "throttle event for the set: $(grep -m1 'cause=set' /tmp/ev)"
qf=$(grep '^event=qfull' /tmp/ev | sed -n 's/.* count=\([0-9]*\) .*/\1/p' |
	awk '{ s += $1; if ($1 < 1) bad = 1 } END { print (bad ? -1 : s + 0) }')
[ "$qf" -ge 1 ] && [ "$qf" -le "$(kv "$l" qfull)" ] ||
	{ grep qfull /tmp/ev; fail "qfull events: counts sum $qf, qfull stat $(kv "$l" qfull)"; }
ok "qfull events: counts add up to $qf <= qfull stat $(kv "$l" qfull): $(grep -m1 '^event=qfull' /tmp/ev)"
grep -q '^event=throttle name=lq t=[0-9]* from=[0-9]* to=[0-9]* cause=qfull ' /tmp/ev ||
	{ grep throttle /tmp/ev; fail "no throttle event with cause=qfull"; }
ok "throttle event for QUEUE FULL: $(grep -m1 'cause=qfull' /tmp/ev)"
grep '^event=bubble' /tmp/ev > /tmp/ev.b || fail "no bubble event"
awk -v len="$(sectors "$nb")" '{
	split("", v)
	for (i = 2; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (!(v["wait_ns"] + v["svc_ns"] > 1000000 && v["bytes"] == 4096 &&
	      v["write"] == 0 && v["sector"] % 8 == 0 && v["sector"] + 8 <= len)) {
		print "implausible: " $0; bad = 1
	}
	sup += v["suppressed"]
} END { print "suppressed " sup; exit bad }' /tmp/ev.b > /tmp/ev.chk ||
	{ cat /tmp/ev.chk; fail "bubble events"; }
nb_ev=$(wc -l < /tmp/ev.b)
sup=$(sed -n 's/^suppressed //p' /tmp/ev.chk)
ok "$nb_ev bubble events, each over 1 ms, 4 KiB reads, aligned, in range: $(head -n 1 /tmp/ev.b)"
[ "$(kv "$l" bubbles)" -gt "$nb_ev" ] && [ "$sup" -gt 0 ] &&
	[ "$(kv "$l" events_dropped)" -ge "$sup" ] &&
	[ $((nb_ev + sup)) -le "$(kv "$l" bubbles)" ] ||
	fail "rate limit: $nb_ev bubble events, suppressed $sup, bubbles $(kv "$l" bubbles), events_dropped $(kv "$l" events_dropped)"
# fixed 1 s windows of 20 events: never more than 40 within 1 s
sed 's/.* t=\([0-9]*\) .*/\1/' /tmp/ev.b | sort -n | awk '{ t[NR] = $1 }
	END { for (i = 41; i <= NR; i++) if (t[i] - t[i - 40] < 1000000000) {
		print "41 bubble events within 1 s: " t[i - 40] " .. " t[i]; exit 1 } }' ||
	fail "bubble events over the rate limit"
ok "bubbles rate-limited: $nb_ev sent + $sup reported suppressed <= $(kv "$l" bubbles) bubbles; events_dropped $(kv "$l" events_dropped)"

# --- RESET ---
for d in lq lq2; do
	out=$(nlprobe reset $d) && [ "$out" = ok ] || fail "reset $d: $out"
	l=$(dev $d)
	for s in reads writes read_sectors completed qfull bubbles; do
		[ "$(kv "$l" $s)" = 0 ] && [ "$(lq_stat $d $s)" = 0 ] ||
			fail "$d $s after reset: netlink $(kv "$l" $s), sysfs $(lq_stat $d $s)"
	done
	h=$(nlprobe hist $d total_read) && [ "$(kv "$h" count)" = 0 ] &&
		[ "$(kv "$h" buckets)" = 0 ] || fail "hist after reset: $h"
done
ok "reset: reads=0 (netlink and sysfs), histograms empty, on lq and lq2"

cleanup
trap - EXIT
dm_exists lq || dm_exists lq2 || [ -d "$CFG/lq_nb" ] && fail "cleanup left devices"
ok "devices removed"
