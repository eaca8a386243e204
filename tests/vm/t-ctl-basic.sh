# lunqctl round trip on null_blk: create (size from the device, node made),
# list, show, set (key=value and key:value, prints what changed), reset,
# remove -- each result checked against dmsetup and /sys/kernel/lunq, the
# independent observers; and the errors people hit, each with its exit
# code and a message that names the problem, none changing anything:
# name taken, device in use, missing device, bad value, table-only key,
# rule between keys (refused by the kernel), unknown device, a dm device
# that is not lunq, an unprivileged user (setpriv to nobody), an open
# device on remove, the module not loaded.
# group: ctl
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 64 irqmode=2 completion_nsec=1000000) || fail "null_blk setup"
nb2=$(nullb_create lq_nb2 64) || fail "null_blk 2 setup"
S=/sys/kernel/lunq/lq0

# create
lc 0 create lq0 "$nb" qdepth=8 sched:disksort
[ -b /dev/mapper/lq0 ] || fail "no /dev/mapper/lq0"
set -- $(dmsetup table lq0)
[ "$1 $2 $3 $5" = "0 $(sectors "$nb") lunq 0" ] || fail "table: $*"
dmsetup table lq0 | grep -q ' 2 qdepth:8 sched:disksort$' || fail "table words: $(dmsetup table lq0)"
[ "$(cat $S/policy/qdepth)" = 8 ] || fail "sysfs qdepth"
ok "create: table '$(dmsetup table lq0)', node made"

# create refusals: nothing new appears
before=$(dmsetup ls | sort)
lc 4 create lq0 "$nb2"; lc_err "already in use"
lc 4 create lq1 "$nb"; lc_err "in use"
lc 2 create lq1 /dev/nosuchdisk; lc_err "no such device"
lc 1 create lq1 "$nb2" qdepth=abc; lc_err "qdepth=abc: qdepth: value must be an integer 0..65535"
lc 1 create lq1 "$nb2" reaction=linux; lc_err "reaction: needs qdepth"
lc 1 create lq1; lc_err "usage: lunqctl create NAME DEV"
[ "$(dmsetup ls | sort)" = "$before" ] || fail "a refused create left a device: $(dmsetup ls)"
ok "create refuses a taken name, a used or missing device, bad words (exit 4, 4, 2, 1, 1, 1)"

# list
dm_create lin "0 $(sectors "$nb2") linear $nb2 0" || fail "linear"
lc 0 list
[ "$(grep -c . /tmp/lc.out)" = 2 ] || { cat /tmp/lc.out; fail "list: want a header and one line"; }
set -- $(sed -n 2p /tmp/lc.out)
[ "$1 $2 $5 $6 $7" = "lq0 lq_nb active qdepth:8 sched:disksort" ] || fail "list line: $*"
lc 0 list --json
lc_out '"name":"lq0"'; lc_out '"lower":"lq_nb"'; lc_out '"state":"active"'
lc_out '"policy":"qdepth:8 sched:disksort"'
dmsetup suspend --noudevsync lq0
lc 0 list; lc_out "suspended"
dmsetup resume --noudevsync lq0
ok "list: one line per lunq device (not the linear one), state follows suspend"

# show, with IO: the counters agree with sysfs
fio --name=w --filename=/dev/mapper/lq0 --direct=1 --rw=randwrite --bs=4k \
	--size=2M --ioengine=libaio --iodepth=16 --output-format=terse > /dev/null || fail "fio"
lc 0 show lq0
lc_out "lq0: /dev/mapper/lq0"; lc_out "lower lq_nb"
grep -q "qdepth  *8 *$" /tmp/lc.out && grep -q "sched  *disksort *$" /tmp/lc.out &&
	grep -q "max_wait_ms  *0  *(default)" /tmp/lc.out || { cat /tmp/lc.out; fail "show policy"; }
w=$(awk '$1 == "writes" { print $2 } $3 == "writes" { print $4 }' /tmp/lc.out)
[ "$w" = 512 ] && [ "$w" = "$(lq_stat lq0 writes)" ] || fail "show writes '$w', sysfs $(lq_stat lq0 writes), want 512"
lc 0 show -j lq0
lc_out '"writes":512'; lc_out '"qdepth":{"value":8,"given":true'
ok "show: policy with defaults, counters = sysfs (writes 512)"

# set: both forms, prints the change, applied (dmsetup table)
lc 0 set lq0 qdepth=4 max_wait_ms:250
lc_out "lq0: qdepth 8 -> 4"; lc_out "lq0: max_wait_ms 0 -> 250"
dmsetup table lq0 | grep -q 'qdepth:4 sched:disksort max_wait_ms:250' || fail "set not applied: $(dmsetup table lq0)"
lc 0 set lq0 qdepth=4; lc_out "lq0: no change"
before=$(dmsetup table lq0)
lc 1 set lq0 qdepth=70000; lc_err "qdepth=70000: qdepth: value must be an integer 0..65535"
lc 1 set lq0 qdepth=2 sched=elevator; lc_err "sched=elevator: sched: value must be one of fifo, disksort"
lc 1 set lq0 pool=p1; lc_err "can only be set on the table line"
lc 1 set lq0 qdepth=0 reaction=linux; lc_err "reaction: needs qdepth"
lc 1 set lq0 qdepth; lc_err "not a policy word"
[ "$(dmsetup table lq0)" = "$before" ] || fail "a refused set changed the table: $(dmsetup table lq0)"
ok "set: key=value and key:value applied; 5 bad sets refused (exit 1), table unchanged"

# unknown and non-lunq devices
lc 2 show nosuch; lc_err "no lunq device 'nosuch'"
lc 2 set nosuch qdepth=1; lc_err "no lunq device"
lc 2 show lin; lc_err "lin is a device-mapper device, but not a lunq one"
lc 2 remove lin; lc_err "not a lunq device"
lc 2 remove nosuch
dm_exists lin || fail "remove of a non-lunq device removed it"
lc 1 frobnicate; lc_err "unknown command 'frobnicate'"
lc 1 show; lc_err "usage: lunqctl show"
ok "unknown device, non-lunq dm device, unknown command: exit 2, 2, 2, 2, 1"

# unprivileged user: reads work, changes are refused
before=$(dmsetup table lq0)
as_nobody lunqctl list > /tmp/lc.out 2>&1 || { cat /tmp/lc.out; fail "list as nobody"; }
as_nobody lunqctl stat lq0 > /dev/null 2>&1 || fail "stat as nobody"
as_nobody lunqctl set lq0 qdepth=1 > /tmp/lc.out 2> /tmp/lc.err
[ $? = 3 ] || fail "set as nobody: exit $?, want 3"
lc_err "permission denied"
as_nobody lunqctl reset lq0 > /dev/null 2> /tmp/lc.err
[ $? = 3 ] || fail "reset as nobody, want 3"
as_nobody lunqctl create lqx "$nb2" > /dev/null 2> /tmp/lc.err
[ $? = 3 ] || { cat /tmp/lc.err; fail "create as nobody, want 3"; }
lc_err "permission denied"
as_nobody lunqctl remove lq0 > /dev/null 2> /tmp/lc.err
[ $? = 3 ] || { cat /tmp/lc.err; fail "remove as nobody, want 3"; }
[ "$(dmsetup table lq0)" = "$before" ] && [ "$(lq_stat lq0 writes)" = 512 ] &&
	dm_exists lq0 && ! dm_exists lqx || fail "an unprivileged command changed something"
ok "nobody: list and stat work; set, reset, create, remove exit 3 and change nothing"

# reset
lc 0 reset lq0
[ "$(lq_stat lq0 writes)" = 0 ] && [ "$(lq_hist lq0 total_write count)" = 0 ] || fail "reset"
ok "reset zeroes counters and histograms"

# pool membership in show
nb3=$(nullb_create lq_nb3 64) && nb4=$(nullb_create lq_nb4 64) || fail "null_blk 3, 4 setup"
lc 0 create pa "$nb4" pool=pp pool_depth=4
lc 0 create pb "$nb3" pool:pp
lc 0 show pb
lc_out "pool pp: members pa pb;"
grep -q "pool_depth  *4  *(the pool's) \[table\]" /tmp/lc.out ||
	{ cat /tmp/lc.out; fail "show pb: pool_depth is not the pool's 4"; }
lc 0 show -j pb
lc_out '"pool_depth":{"value":4,"given":false'
lc 0 show -j pa
lc_out '"pool":{"name":"pp","members":["pa","pb"]}'
lc 0 remove pa pb
ok "show: pool pp lists both members; pb, which did not give pool_depth, shows the pool's 4"

# remove: refused while open, then done
exec 3< /dev/mapper/lq0
lc 4 remove lq0; lc_err "in use"
exec 3<&-
dm_exists lq0 || fail "remove of an open device removed it"
lc 0 remove lq0
! dm_exists lq0 && [ ! -e /dev/mapper/lq0 ] && [ ! -e $S ] || fail "remove left something"
lc 2 remove lq0
ok "remove: open device refused (exit 4), then removed with its node and sysfs"

# the module not loaded
dm_remove lin
rmmod dm_lunq || fail "rmmod dm_lunq"
lc 2 list; lc_err "dm-lunq is not loaded"; lc_err "modprobe dm-lunq"
# a table naming lunq makes the kernel load the module itself: stop that
mp=$(cat /proc/sys/kernel/modprobe)
echo > /proc/sys/kernel/modprobe
lunqctl create lq0 "$nb2" > /tmp/lc.out 2> /tmp/lc.err
rc=$?
echo "$mp" > /proc/sys/kernel/modprobe
[ $rc = 2 ] || { cat /tmp/lc.err; fail "create without the module: exit $rc, want 2"; }
lc_err "modprobe dm-lunq"
! dm_exists lq0 || fail "a failed create left lq0"
modprobe dm_lunq || fail "modprobe dm_lunq"
lc 0 list
ok "module not loaded: list and create exit 2 and say 'modprobe dm-lunq'"
