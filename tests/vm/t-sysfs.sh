# /sys/kernel/lunq/<name>/ (kmod/dm-lunq.rst, "sysfs"):
#  - every file is readable; policy files take a value, the table file
#    several words, all or nothing; bad writes fail with EINVAL and change
#    nothing (dmsetup table is the observer); table-only keys are
#    read-only; an unprivileged user cannot write;
#  - hand-over: the directory follows the live table across table reloads
#    under load, and the counters carry over: at the end, completed
#    equals fio's IO count over all reloads;
#  - a target not at sector 0 gets "<name>@<begin>"; dmsetup rename shows
#    after the next resume;
#  - reading every file in a loop while devices are removed and created
#    under load: no splat (qemu/run scans the console), reads fail cleanly.
# group: stats
# time: 45
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=1000000) || fail "null_blk setup"
sz=$(sectors "$nb")
lunq_create lq $nb qdepth:8 model:fixed || fail "create"
S=/sys/kernel/lunq/lq

# 1. every file readable
n=0
for f in $(find $S/ -type f); do
	case $f in */reset) continue ;; esac
	cat "$f" > /dev/null || fail "cannot read $f"
	n=$((n + 1))
done
[ "$n" -ge 60 ] || fail "only $n files"
[ "$(cat $S/name)" = lq ] && [ "$(cat $S/lower)" = "$(dmsetup table lq | awk '{ print $4 }')" ] &&
	[ "$(cat $S/len)" = "$sz" ] && [ "$(cat $S/begin)" = 0 ] || fail "identity files"
ok "$n files readable; name, lower, len, begin right"

# 2. writes
echo 5 > $S/policy/qdepth || fail "write qdepth"
[ "$(cat $S/policy/qdepth)" = 5 ] && dmsetup table lq | grep -q 'qdepth:5' || fail "qdepth not applied"
echo "qdepth:6 sched:disksort max_wait_ms:300" > $S/table || fail "write table"
dmsetup table lq | grep -q 'qdepth:6 sched:disksort max_wait_ms:300' || fail "table words not applied"
before=$(dmsetup table lq)
badw() {	# badw FILE VALUE: the write must fail and change nothing
	if ( echo "$2" > "$1" ) 2>/tmp/err; then fail "'$2' > $1 accepted"; fi
	grep -q "Invalid argument" /tmp/err || fail "'$2' > $1: $(cat /tmp/err), want EINVAL"
	[ "$(dmsetup table lq)" = "$before" ] || fail "'$2' > $1 changed the table"
}
mark=$(dmesg_mark)
badw $S/policy/qdepth 70000
expect_log "$mark" "lq: write to qdepth rejected 'qdepth:70000': qdepth: value must be an integer 0..65535; nothing changed" "sysfs write"
badw $S/policy/qdepth -1
badw $S/policy/qdepth "4 5"
badw $S/policy/sched elevator
echo 0 > $S/policy/qdepth && before=$(dmsetup table lq)
badw $S/policy/reaction sd	# needs qdepth:1 or more (rule between keys)
badw $S/table "qdepth:4 sched:nope"
badw $S/table "qdepth:4 qdepth:5"
badw $S/table "pool:p1"
badw $S/table ""
badw $S/reset 2
[ "$(stat -c %a $S/policy/pblk)" = 444 ] && [ "$(stat -c %a $S/policy/pool)" = 444 ] &&
	[ "$(stat -c %a $S/policy/qdepth)" = 644 ] || fail "modes of policy files"
if ( echo 4096 > $S/policy/pblk ) 2>/dev/null; then fail "pblk written"; fi
[ "$(dmsetup table lq)" = "$before" ] || fail "pblk write changed the table"
if su nobody -s /bin/sh -c "echo 3 > $S/policy/qdepth" 2>/dev/null; then
	fail "nobody could write qdepth"
fi
if su nobody -s /bin/sh -c "echo 1 > $S/reset" 2>/dev/null; then fail "nobody could reset"; fi
su nobody -s /bin/sh -c "cat $S/stats/reads $S/hist/total_read > /dev/null" ||
	fail "nobody cannot read"
[ "$(dmsetup table lq)" = "$before" ] || fail "unprivileged write changed the table"
ok "values and word lists apply; 12 bad writes give EINVAL and change nothing; table-only keys read-only; nobody can read, not write"

# 3. hand-over: reloads under load, counters carried over
echo "qdepth:8" > $S/table
echo 1 > $S/reset
fio --name=ho --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randrw --bs=4k --iodepth=16 --size=24m --randrepeat=1 \
	--output-format=terse --terse-version=3 > /tmp/fio.ho 2>&1 &
fpid=$!
i=0
while kill -0 $fpid 2>/dev/null && [ $i -lt 30 ]; do
	q=$((2 + i % 7))
	dmsetup table lq | sed "s/qdepth:[0-9]*/qdepth:$q/" > /tmp/tbl
	dmsetup load lq /tmp/tbl || fail "load"
	cat $S/stats/completed > /dev/null || fail "read during load"
	dmsetup resume lq || fail "resume"
	[ "$(cat $S/policy/qdepth)" = $q ] || fail "sysfs shows qdepth $(cat $S/policy/qdepth) after reload to $q"
	i=$((i + 1))
	sleep 0.2
done
wait $fpid || { cat /tmp/fio.ho; fail "fio"; }
[ "$(fio_terse /tmp/fio.ho 5)" = 0 ] || fail "fio errors"
fios=$(( ($(fio_terse /tmp/fio.ho 6) + $(fio_terse /tmp/fio.ho 47)) / 4 ))
done_=$(lq_stat lq completed)
diag "$i reloads under load; fio $fios IOs, lunq completed $done_ (reads $(lq_stat lq reads) writes $(lq_stat lq writes))"
[ "$i" -ge 3 ] || fail "only $i reloads happened during the job"
[ "$done_" = "$fios" ] && [ "$(lq_hist lq total_read count)" = "$(lq_stat lq reads)" ] ||
	fail "counters lost across reloads"
ls /sys/kernel/lunq | grep -qx lq && [ "$(ls /sys/kernel/lunq | wc -l)" = 2 ] ||
	fail "directories after reloads: $(ls /sys/kernel/lunq)"
ok "directory followed $i reloads under load; completed $done_ = fio's $fios IOs"

# 4. naming: a second target at sector 2048, and a rename
half=$((sz / 2))
dm_create lq2 "$(lunq_table -l $half $nb)
$half $half $(lunq_target $nb $half qdepth:2)" || fail "two-target table"
[ -d /sys/kernel/lunq/lq2 ] && [ -d "/sys/kernel/lunq/lq2@$half" ] &&
	[ "$(cat "/sys/kernel/lunq/lq2@$half/begin")" = "$half" ] &&
	[ "$(cat "/sys/kernel/lunq/lq2@$half/policy/qdepth")" = 2 ] ||
	fail "two targets: $(ls /sys/kernel/lunq)"
dmsetup rename lq2 lq3 || fail "rename"
# "lq2" is still the renamed device's directory: a new lq2 gets dm-N
lunq_create lq2 -l $half $nb || fail "create a new lq2"
d2=$(basename "$(dm_sysfs lq2)")
[ -d "/sys/kernel/lunq/$d2" ] && [ "$(cat "/sys/kernel/lunq/$d2/name")" = lq2 ] &&
	[ "$(readlink -f "/sys/kernel/lunq/by-dev/$d2")" = "$(readlink -f "/sys/kernel/lunq/$d2")" ] ||
	fail "new lq2 while the old name is taken: $(ls /sys/kernel/lunq)"
dm_remove lq2 || fail "remove new lq2"
dmsetup suspend lq3 && dmsetup resume lq3 || fail "suspend/resume"
[ -d /sys/kernel/lunq/lq3 ] && [ -d "/sys/kernel/lunq/lq3@$half" ] &&
	[ "$(cat /sys/kernel/lunq/lq3/name)" = lq3 ] || fail "after rename: $(ls /sys/kernel/lunq)"
dm_remove lq3 || fail "remove lq3"
ok "second target named lq2@$half; a new lq2 while the name is taken gets $d2; rename to lq3 shows after resume"

# 5. read while remove, under load
reader() {
	while [ ! -e /tmp/stop ]; do
		for d in /sys/kernel/lunq/lq*; do
			cat "$d"/snapshot "$d"/hist/* "$d"/policy/* "$d"/stats/* > /dev/null 2>&1
		done
	done
}
rm -f /tmp/stop
reader & r1=$!
reader & r2=$!
for k in 1 2 3 4 5 6; do
	lunq_create lqx $nb qdepth:4 || fail "create lqx"
	fio --name=rr --filename=/dev/mapper/lqx --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=8 --number_ios=300 \
		--output-format=terse --terse-version=3 > /tmp/fio.rr 2>&1 || fail "fio on lqx"
	dm_remove lqx || fail "remove lqx"
done
touch /tmp/stop
wait $r1 $r2
ls /sys/kernel/lunq | grep -q lqx && fail "lqx left in sysfs"
ok "6 create/load/remove rounds with 2 readers looping over every file: clean"

dm_remove lq
cleanup_all
