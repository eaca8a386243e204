# A table whose lower device leads back to the device is refused: the
# self-map (by path and by number), a cycle of two, a cycle through a
# dm-linear device, a reload in the middle of a stack, and a cycle closed
# only through another device's inactive (loaded, not resumed) table.  Each
# refusal names the chain in the kernel log, leaves no inactive table, and
# the old table keeps serving reads that the lower device counts and that
# return the data written before.  Stacks that only look like loops are
# accepted.  A refused loop is never resumed, so a regression fails here
# instead of hanging the VM.
# group: basic
# time: 10
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lpb 64) || fail "null_blk setup"
S=$(sectors "$nb")
devno() { dmsetup info -c --noheadings -o major,minor "$1" | tr -d ' '; }

# fill NAME: write 1 MiB of random data at offset 0, keep its checksum
fill() {
	head -c 1048576 /dev/urandom > /tmp/loop.data
	dd if=/tmp/loop.data of="/dev/mapper/$1" bs=64k oflag=direct 2>/dev/null ||
		fail "write to $1"
	sum=$(md5sum < /tmp/loop.data | cut -d' ' -f1)
}

# serves NAME: a direct read of the 1 MiB returns what fill wrote, and the
# null_blk below counts the reads (sectors read, field 3 of its stat)
serves() {
	_r0=$(disk_stat "$nb" 3)
	_got=$(dd if="/dev/mapper/$1" bs=64k count=16 iflag=direct 2>/dev/null | md5sum | cut -d' ' -f1)
	_r1=$(disk_stat "$nb" 3)
	[ "$_got" = "$sum" ] || fail "$1: read back differs from what was written"
	[ $((_r1 - _r0)) -ge 2048 ] ||
		fail "$1: null_blk read $((_r1 - _r0)) sectors for 2048 read through $1"
}

# onto NAME LOWER CHAIN WHAT: NAME reloaded onto /dev/mapper/LOWER is
# refused as a loop through CHAIN (the device numbers the log names)
onto() {
	refused "$1" "$(lunq_table -l "$S" "/dev/mapper/$2")" \
		"lunq: lower device $(devno "$2") leads back to this device ($3)" "$4"
}

# refused NAME TABLE EXPECTED-LOG-TEXT WHAT
refused() {
	_old=$(dmsetup table "$1")
	mark=$(dmesg_mark)
	if echo "$2" | dmsetup reload "$1" >/dev/null 2>&1; then
		dmsetup clear "$1"	# never resume it: that would hang
		fail "$4: reload accepted: $2"
	fi
	expect_log "$mark" "$3" "$4"
	dmsetup info "$1" | grep -q "Tables present: *LIVE$" ||
		fail "$4: $1 has an inactive table after the refusal: $(dmsetup info "$1" | grep Tables)"
	[ "$(dmsetup table "$1")" = "$_old" ] || fail "$4: $1's table changed"
	ok "$4 refused: $(dmesg_since "$mark" | grep -o 'lunq: .*' | head -1)"
}

lunq_create lqa $nb || fail "create lqa"
A=$(devno lqa)
fill lqa

# 1. the self-map, by path and by number
onto lqa lqa "$A -> $A" "self-map by path"
refused lqa "$(lunq_table -l $S $A qdepth:4)" \
	"lunq: lower device $A leads back to this device ($A -> $A)" "self-map by number"
serves lqa

# 2. a cycle of two: lqb over lqa, then lqa onto lqb
lunq_create lqb -l $S /dev/mapper/lqa || fail "create lqb over lqa"
B=$(devno lqb)
onto lqa lqb "$A -> $B -> $A" "cycle of two"
serves lqa
serves lqb

# 3. through dm-linear: lin over lqb over lqa, then lqa onto lin
dm_create lin "0 $S linear /dev/mapper/lqb 0" || fail "create lin over lqb"
L=$(devno lin)
onto lqa lin "$A -> $L -> $B -> $A" "cycle through dm-linear"
serves lin

# 4. in the middle of a stack: lqc over lqb over lqa; lqb onto lqc
lunq_create lqc -l $S /dev/mapper/lqb || fail "create lqc over lqb"
C=$(devno lqc)
onto lqb lqc "$B -> $C -> $B" "reload in the middle"
serves lqc
for d in lqc lin lqb; do dm_remove $d || fail "remove $d"; done

# 5. through an inactive table: lqd over null_blk, reload (not resumed)
# onto lqa; then lqa onto lqd closes the cycle only once both are live
lunq_create lqd $nb || fail "create lqd"
D=$(devno lqd)
echo "0 $S lunq /dev/mapper/lqa 0" | dmsetup reload lqd || fail "load lqd's inactive table"
onto lqa lqd "$A -> $D -> $A" "cycle through an inactive table"
dmsetup clear lqd || fail "clear lqd's inactive table"
# with the inactive table gone, the same line is no loop any more
echo "0 $S lunq /dev/mapper/lqd 0" | dmsetup reload lqa || fail "lqa onto lqd refused after lqd's inactive table was cleared"
dmsetup clear lqa
ok "the same reload is accepted once lqd's inactive table is cleared"
serves lqa
dm_remove lqd || fail "remove lqd"

# 6. not loops: two lunq devices over one disk; lunq over lunq over a disk
lunq_create lqe $nb || fail "a second lunq device over the same disk was refused"
lunq_create lqf -l $S /dev/mapper/lqe || fail "lunq over lunq over a disk was refused"
lunq_create lqg -l $S /dev/mapper/lqf qdepth:2 || fail "a third level was refused"
serves lqg
serves lqa
ok "two devices over one disk and a 3-level stack accepted"

# every device removable afterwards
for d in lqg lqf lqe lqa; do dm_remove $d || fail "remove $d"; done
[ -z "$(dmsetup ls | grep -v 'No devices')" ] || fail "devices left: $(dmsetup ls)"
ok "all devices removed"
