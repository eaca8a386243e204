# The adaptive throttle's keys and life cycle, on a flash LUN of 4
# channels x 8 ms (knee 4) under a fio write+read load with verify and
# flushes:
#   bad auto words (message, sysfs, lunqctl) are refused and change nothing;
#   auto starts at auto_start:N, and at qdepth:N in the old spelling (TABLE
#   status shows auto_start:N), lunqctl sets auto_start live;
#   auto:knee from qdepth 32 comes down to the knee: the lower device's
#   inflight (sampled) never exceeds the throttle auto set + 1, the throttle
#   log and a netlink throttle event carry cause auto, stat shows the
#   phase; fio verify finds every block intact and lunq's reads + writes
#   equal null_blk's (/proc/diskstats) -- nothing lost or duplicated;
#   with no load the depth stays; suspend/resume keeps the controller's
#   state (depth, knee, windows), a reload starts a new one at the table's
#   qdepth; lun_depth:2 set live: auto cuts to the slots and stops
#   provoking QUEUE FULL (no more than a few per hold-off); auto:off puts
#   back qdepth; lunqctl tune --online settles on the live load.
# group: throttle integrity
# time: 22
. "$LUNQ_SRC/tests/vm/lib.sh"

# null_blk holds each command 8 ms too (its completion timer), so its
# inflight shows the depth; cache_size: a write cache, so fsync flushes
nb=$(nullb_create ao_nb 512 hw_queue_depth=256 irqmode=2 completion_nsec=8000000 cache_size=16) ||
	fail "null_blk setup"
nbd=${nb#/dev/}
FLASH="model:flash channels:4 svc_us:8000"
sz=$(sectors "$nb")
lunq_create ao $nb qdepth:32 $FLASH || fail "create"

# --- bad input changes nothing ---
before=$(dmsetup table ao)
bad() { refused_msg ao "$1" "$2"; }
bad "set auto:fast" "auto: value must be one of off, knee, target"
bad "set auto:knee reaction:linux" "auto: reacts to QUEUE FULL itself; give reaction:none with it"
bad "set auto:target" "auto: target needs target_us:N"
bad "set auto:knee auto_min:9 auto_max:8" "auto_min: must not exceed auto_max"
bad "set auto_max:0" "auto_max: value must be an integer 1..65535"
bad "set target_us:60000001" "target_us: value must be an integer 0..60000000"
echo bogus 2>/dev/null > /sys/kernel/lunq/ao/policy/auto && fail "sysfs policy/auto accepted 'bogus'"
lunqctl set ao auto=knee reaction=sd > /tmp/lc.out 2> /tmp/lc.err && fail "lunqctl set auto with reaction accepted"
lc_err "auto: reacts to QUEUE FULL itself"
[ "$(dmsetup table ao)" = "$before" ] || fail "sysfs or lunqctl changed the policy"
[ "$(lq_stat ao auto_phase)" = 0 ] || fail "auto_phase $(lq_stat ao auto_phase) with auto off"
ok "sysfs and lunqctl refuse them too; auto_phase 0 while off"

# --- auto's start: auto_start:N, and qdepth:N (the old spelling) ---
# idle devices: no window carries information, the depth stays at the start
snb=$(nullb_create ao_snb 16) || fail "null_blk (auto_start)"
snb2=$(nullb_create ao_snb2 16) || fail "null_blk (old spelling)"
lunq_create ao_s1 "$snb" auto:knee auto_start:12 ||
	fail "create with auto_start:12"
lunq_create ao_s2 "$snb2" auto:knee qdepth:20 ||
	fail "create with qdepth:20 (the old spelling)"
s1=$(lq_stat ao_s1 throttle) s2=$(lq_stat ao_s2 throttle)
p1=$(cat /sys/kernel/lunq/ao_s1/policy/auto_start)
p2=$(cat /sys/kernel/lunq/ao_s2/policy/auto_start)
[ "$s1/$p1" = 12/12 ] || fail "auto_start:12: throttle $s1, policy/auto_start $p1"
[ "$s2/$p2" = 20/20 ] || fail "qdepth:20 with auto: throttle $s2, policy/auto_start $p2"
case " $(dmsetup table ao_s2) " in
*" qdepth:20 "*" auto_start:20 "*) ;;
*) fail "table of the old spelling: $(dmsetup table ao_s2)" ;;
esac
expect lunqctl set ao_s1 auto_start=6 > /dev/null
[ "$(lq_stat ao_s1 throttle)" = 6 ] || fail "lunqctl set auto_start=6: throttle $(lq_stat ao_s1 throttle)"
refused_msg ao_s1 "set auto_start:65536" "auto_start: value must be an integer 0..65535"
dm_remove ao_s1; dm_remove ao_s2
ok "auto starts at auto_start:12, at qdepth:20 in the old spelling (shown as auto_start:20), at 6 set by lunqctl"

# --- auto:knee under a verified write/read load with flushes ---
# sectors read and written at null_blk (merges do not change them)
dsk() { awk -v d="$nbd" '$3 == d { print $6, $10 }' /proc/diskstats; }
set -- $(dsk)
r0=$1 w0=$2 lr0=$(lq_stat ao read_sectors) lw0=$(lq_stat ao write_sectors)
lunqctl events --json ao > /tmp/ev.json 2> /tmp/ev.err &
ev=$!
sleep 0.5
fio --name=auto --filename=/dev/mapper/ao --direct=1 --ioengine=libaio \
	--rw=randwrite --bs=4k --iodepth=32 --size=24M --fsync=64 --verify=crc32c \
	--verify_backlog=256 --do_verify=1 --verify_fatal=1 --verify_dump=0 \
	--output-format=terse --terse-version=3 > /tmp/fio.auto 2>&1 &
fio=$!
sleep 1
expect lunqctl set ao auto=knee > /dev/null
# the depth comes down to the knee (4 channels): within [3, 5] in 10 s
t=0
while [ $t -lt 40 ]; do
	d=$(lq_stat ao throttle)
	[ "$d" -ge 3 ] && [ "$d" -le 5 ] && break
	sleep 0.25; t=$((t + 1))
done
[ "$d" -ge 3 ] && [ "$d" -le 5 ] || { tlog ao; fail "auto:knee: depth $d after 10 s, want 3..5 (knee 4)"; }
diag "auto:knee: from 32 to $d in $((t * 250)) ms"
# the lower device never holds more than the throttle (+1: a request
# blk-mq has not finished when lunq sent the next, see t-throttle).  The
# throttle's highest depth while watched comes from its log, which has
# every move (a probe above the knee, a step back down whose commands
# still drain): the depth held when the watch starts, and both sides of
# every move from the last one before it on (a step down does not wait
# for the old depth's commands: they drain at null_blk while watched).
sleep 1
da=$(lq_stat ao throttle)
t0=$(tlog ao | awk 'END { print $1 + 0 }')
inflight_watch "$nb" /tmp/inf & w=$!
sleep 2
inflight_stop /tmp/inf $w
tlog ao > /tmp/tlw
read -r max n < /tmp/inf
d=$(lq_stat ao throttle)
top=$(awk -v t="$t0" -v m="$da" '$1 >= t { if ($2 > m) m = $2; if ($3 > m) m = $3 } END { print m }' /tmp/tlw)
[ "$max" -le $((top + 1)) ] || {
	awk -v t="$t0" '$1 >= t' /tmp/tlw | sed 's/^/# /'
	fail "auto's depth was $top at most while watched but $max outstanding at null_blk"
}
ok "auto:knee: 32 -> $d (knee 4) in $((t * 250)) ms; null_blk inflight at most $max ($n samples), the depth $top at most"
tlog ao > /tmp/tlog
grep -q ' auto$' /tmp/tlog || { cat /tmp/tlog; fail "no throttle log line with cause auto"; }
lunqctl stat ao > /tmp/stat.txt || fail "lunqctl stat"
grep -q 'auto' /tmp/stat.txt || { cat /tmp/stat.txt; fail "stat shows no auto line"; }
lunqctl stat -j ao > /tmp/stat.json || fail "lunqctl stat -j"
jq -e '[.. | objects | select(has("auto")) | .auto.phase] | length > 0' /tmp/stat.json > /dev/null ||
	{ cat /tmp/stat.json; fail "stat JSON has no auto object"; }
ok "throttle log: $(grep -c ' auto$' /tmp/tlog) moves with cause auto; lunqctl stat shows auto"

wait $fio
frc=$?
kill $ev 2> /dev/null; wait $ev 2> /dev/null
[ $frc = 0 ] || { tail -5 /tmp/fio.auto; fail "fio (verify) exit $frc"; }
grep -q '"cause":"auto"' /tmp/ev.json || { head -5 /tmp/ev.json; fail "no throttle event with cause auto"; }
set -- $(dsk)
nr=$(($1 - r0)) nw=$(($2 - w0))
lr=$(($(lq_stat ao read_sectors) - lr0)) lw=$(($(lq_stat ao write_sectors) - lw0)) lf=$(lq_stat ao flushes)
diag "lunq: $lr sectors read, $lw written, $lf flushes; null_blk (diskstats): $nr read, $nw written"
[ "$lr" = "$nr" ] && [ "$lw" = "$nw" ] || fail "lunq and null_blk disagree: $lr/$lw vs $nr/$nw sectors"
[ "$lf" -gt 0 ] || fail "no flush went through"
ok "fio verify passed; sectors through lunq = null_blk's ($lr read, $lw written), $lf flushes; a throttle event with cause auto"

# --- no load: the depth stays.  A probe under way when the load stopped
# ends with its idle window: 10 x its length, 2 x max(100 ms, 4 x the
# service time), 2 s here -- so wait for the phase to leave probe (4)
# first; without IO no new probe starts (a probe needs binding windows).
sleep 0.5
for i in $(seq 40); do
	[ "$(lq_stat ao auto_phase)" != 4 ] && break
	sleep 0.25
done
[ "$(lq_stat ao auto_phase)" != 4 ] || fail "no load: still probing after 10.5 s"
d0=$(lq_stat ao throttle)
sleep 3
[ "$(lq_stat ao throttle)" = "$d0" ] || fail "no load: depth moved $d0 -> $(lq_stat ao throttle)"
ok "no load for 3 s: depth stays $d0"

# --- suspend/resume keeps the state, reload restarts ---
# (the estimates themselves age: peak and minimum are of the last 10 s)
win0=$(lq_stat ao auto_windows) mv0=$(lq_stat ao auto_moves) ph0=$(lq_stat ao auto_phase)
expect dmsetup suspend ao
sleep 1
expect dmsetup resume ao
[ "$(lq_stat ao throttle)" = "$d0" ] || fail "resume: depth $d0 -> $(lq_stat ao throttle)"
[ "$(lq_stat ao auto_phase)" = "$ph0" ] || fail "resume: phase $ph0 -> $(lq_stat ao auto_phase)"
[ "$(lq_stat ao auto_moves)" = "$mv0" ] || fail "resume: moves $mv0 -> $(lq_stat ao auto_moves) (restarted?)"
[ "$(lq_stat ao auto_windows)" -ge "$win0" ] || fail "resume: windows went back"
ok "suspend/resume: depth $d0, phase $ph0, $mv0 moves and $win0+ windows carried"
lunq_table $nb qdepth:16 auto:knee $FLASH | dmsetup reload ao || fail "reload"
expect dmsetup resume ao
[ "$(lq_stat ao throttle)" = 16 ] || fail "reload: throttle $(lq_stat ao throttle), want the new table's 16"
[ "$(lq_stat ao auto_windows)" -lt "$win0" ] || [ "$win0" = 0 ] || fail "reload: windows not restarted"
ok "reload: a new controller at the table's qdepth 16"

# --- lun_depth set live: auto cuts to the slots, then stops provoking ---
lunqbench --iodepth 32 --elapsed 14 --interval 0 /dev/mapper/ao > /tmp/lb.txt 2>&1 &
lb=$!
sleep 2
expect lunqctl set ao lun_depth=2 > /dev/null
sleep 4
q1=$(lq_stat ao qfull) d1=$(lq_stat ao throttle)
sleep 6
q2=$(lq_stat ao qfull) d2=$(lq_stat ao throttle)
diag "lun_depth:2: depth $d1, then $d2; QUEUE FULL $q1 in the first 4 s, $((q2 - q1)) in the next 6 s"
# (3: a probe above the ceiling when sampled, cut at its first QUEUE FULL)
[ "$d2" -le 3 ] || fail "lun_depth:2 but auto holds $d2"
# hold-offs double from 1 s: in 6 s at most a few probes above the ceiling
[ $((q2 - q1)) -le 12 ] || fail "auto keeps provoking QUEUE FULL: $((q2 - q1)) in 6 s"
wait $lb || { cat /tmp/lb.txt; fail "lunqbench under lun_depth:2"; }
ok "lun_depth:2 live: depth $d2, $((q2 - q1)) QUEUE FULL in the 6 s after the first 4"
expect lunqctl set ao lun_depth=0 > /dev/null

# --- auto off: back to qdepth ---
expect lunqctl set ao auto=off > /dev/null
[ "$(lq_stat ao throttle)" = 16 ] || fail "auto:off: throttle $(lq_stat ao throttle), want qdepth 16"
[ "$(lq_stat ao auto_phase)" = 0 ] || fail "auto:off: phase $(lq_stat ao auto_phase)"
ok "auto:off: throttle back to qdepth 16"

# --- lunqctl tune --online on a live load ---
lunqbench --iodepth 32 --elapsed 40 --interval 0 /dev/mapper/ao > /tmp/lb2.txt 2>&1 &
lb=$!
lunqctl tune ao --online --settle 3 --elapsed 30 -q > /tmp/tune.txt 2> /tmp/tune.err
trc=$?
kill $lb 2> /dev/null; wait $lb 2> /dev/null
cat /tmp/tune.txt | sed 's/^/# /'
[ $trc = 0 ] || { cat /tmp/tune.err; fail "tune --online exit $trc"; }
q=$(awk -F' = ' '$1 == "qdepth" { print $2 }' /tmp/tune.txt)
[ -n "$q" ] && [ "$q" -ge 3 ] && [ "$q" -le 5 ] || fail "tune --online: qdepth '$q', want 3..5"
[ "$(lq_stat ao auto_phase)" = 0 ] && [ "$(lq_stat ao throttle)" = 16 ] ||
	fail "tune --online did not restore the policy"
ok "lunqctl tune --online: qdepth = $q, policy restored"
dm_remove ao

# --- the key "policy": one key for reaction + auto, the same device ---
lunq_table $nb qdepth:16 policy:knee | dmsetup create --noudevsync ao || fail "create policy:knee"
dmsetup mknodes ao
[ "$(status_field ao throttle_policy)" = knee ] && [ "$(cat /sys/kernel/lunq/ao/policy/auto)" = knee ] &&
	[ "$(cat /sys/kernel/lunq/ao/policy/reaction)" = none ] ||
	fail "policy:knee: $(status_field ao throttle_policy), auto $(cat /sys/kernel/lunq/ao/policy/auto)"
dmsetup table ao | grep -q ' policy:knee auto_start:16$' || fail "TABLE does not echo policy:knee (and qdepth as auto_start): $(dmsetup table ao)"
expect lunqctl set ao policy=sd-fc > /dev/null
[ "$(status_field ao throttle_policy)" = sd-fc ] && [ "$(cat /sys/kernel/lunq/ao/policy/auto)" = off ] &&
	[ "$(cat /sys/kernel/lunq/ao/policy/reaction)" = sd-fc ] || fail "set policy=sd-fc: $(status_field ao throttle_policy)"
expect lunqctl set ao reaction=linux > /dev/null
[ "$(cat /sys/kernel/lunq/ao/policy/policy)" = linux ] || fail "reaction=linux: policy reads $(cat /sys/kernel/lunq/ao/policy/policy)"
refused_msg ao "set policy:knee reaction:none" "policy: give policy:NAME, or reaction: and auto:, not both"
refused_msg ao "set policy:fast" "policy: value must be one of fixed, linux, sd, sd-fc, knee, target"
dm_remove ao
ok "policy:knee = auto:knee; set policy=sd-fc and reaction=linux move both forms; both at once and a bad name refused"
