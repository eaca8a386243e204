# Fuzzing the writable files of /sys/kernel/lunq/<name>/ (kmod/dm-lunq.rst,
# "sysfs", "Permissions": table, reset, policy/<key>) while lunqbench
# --verify runs on the device (qdepth:8 sched:disksort max_wait_ms:100).
# Candidates, each written with one write(2): random bytes of random
# lengths (0 .. 8 KiB, around PAGE_SIZE too) and crafted strings (huge
# and negative numbers, signs, hex, blanks, trailing garbage, embedded
# NUL and newlines, key:value words, empty lines):
#  - user 65534 reads every readable file; every write to every writable
#    file fails (EACCES: the modes), a chmod a+w does not open them
#    (EPERM: the kernel checks CAP_SYS_ADMIN), and nothing changes (the
#    table file, crtime_ns, which a reset moves);
#  - as root, a refused write answers EINVAL (or E2BIG above PAGE_SIZE) and
#    leaves the table file as it was; an accepted one reads back as
#    written (then the old value is put back); the crafted invalid ones
#    are all refused, embedded NUL included, reset takes "1" and nothing
#    else; a known-good value of every key applies;
#  - the policy is back to the start at the end, the verify load saw zero
#    errors, lunqbench's IOs equal lunq's completed counter (io_report).
# group: fuzz
# time: 110
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nrand=$(scaled 12 3)
lbpid=
cleanup() {
	touch /tmp/fs.stop
	[ -n "$lbpid" ] && wait "$lbpid" 2>/dev/null
	dm_exists lqfs && dm_remove lqfs
	nullb_remove fs_nb
	rm -rf /tmp/fs.stop /tmp/fzc /tmp/fzn
}
trap cleanup EXIT

nb=$(nullb_create fs_nb 64 irqmode=2 completion_nsec=200000) || fail "null_blk"
pol="qdepth:8 sched:disksort max_wait_ms:100"
lunq_create lqfs $nb $pol || fail "create lqfs"
D=/sys/kernel/lunq/lqfs
[ -d $D ] || fail "no $D"

lb() { lunqbench --verify --seed 9 --range 0-4m --bs 4k --interval 0 --kv "$@" /dev/mapper/lqfs; }
lb --rdpct 0 --seekpct 0 --ios 1024 --iodepth 8 > /tmp/fs.lb0 2>&1 ||
	{ cat /tmp/fs.lb0; fail "write pass"; }
tail -n 1 /tmp/fs.lb0 > /tmp/fs.kv
load_loop fs lb --rdpct 50 --seekpct 100 --iodepth 16 --elapsed 3

# --- the files ---
wfiles=$(find $D -type f -perm -200 | sort)
rfiles=$(find $D -type f -perm -004 | sort)
nw=$(echo $wfiles | wc -w)
[ "$nw" -ge 10 ] && echo "$wfiles" | grep -q "^$D/table$" &&
	echo "$wfiles" | grep -q "^$D/reset$" && echo "$wfiles" | grep -q "^$D/policy/qdepth$" ||
	fail "writable files: $wfiles"
for f in $wfiles; do
	m=$(stat -c %a "$f")
	case $f in
	*/reset) [ "$m" = 200 ] ;;
	*) [ "$m" = 644 ] ;;
	esac || fail "$f: mode $m"
done
ok "$nw writable files (table, reset 0200, policy/* 0644), $(echo $rfiles | wc -w) readable"

# --- candidates: /tmp/fzc/<class>.<n>, each with <...>.exp, what a
# policy file reads back after the write is accepted ---
mkdir -p /tmp/fzc
i=0
for len in 0 1 1 2 3 5 8 17 64 300 4095 4096 4097 8192; do
	head -c $len /dev/urandom > /tmp/fzc/r.$i
	i=$((i + 1))
done
j=0
while [ $j -lt "$nrand" ]; do
	head -c $(($(od -An -tu2 -N2 /dev/urandom) % 80)) /dev/urandom > /tmp/fzc/r.$i
	i=$((i + 1)) j=$((j + 1))
done
# crafted, invalid for every key (f), and for the table too (t)
i=0
for s in '-1' '99999999999999999999' '4294967296' '4x' '4 5' ' 4' '4\t' \
	'0x10' '+4' '4.0' '' '\n' '\n\n' '4\n\n' '4\n5' '4\000' '4\0005' \
	'\000' '4\000garbage\n' '1\000garbage' 'nokey:1' 'qdepth:4:5' \
	'qdepth:4\000 sched:fifo' '4\r' '\0334' '1e3' '٤'; do
	printf "$s" > /tmp/fzc/f.$i
	i=$((i + 1))
done
head -c 5000 /dev/zero | tr '\0' 7 > /tmp/fzc/f.$i	# > PAGE_SIZE of digits
i=0
for s in 'qdepth:70000' 'sched:elevator' 'qdepth:4 qdepth:5' 'pool:x' 'pblk:4096' \
	'qdepth:4 sched:fifo\000' 'qdepth:4\000' 'reaction:linux qdepth:0' \
	' ' '\n' 'qdepth' ':4' 'qdepth:-1' 'max_wait_ms:3600001'; do
	printf "$s" > /tmp/fzc/t.$i
	i=$((i + 1))
done
# valid values of some key: any file may take or refuse them
i=0
for s in 0 1 4 100 512 4096 65535 65536 3600000 fifo disksort none linux \
	sd sd-fc fixed flash hdd 'fifo\n'; do
	printf "$s" > /tmp/fzc/v.$i
	i=$((i + 1))
done
for c in /tmp/fzc/*; do
	# what an accepted write reads back: the bytes, one newline at the end
	{ cat "$c"; [ "$(tail -c 1 "$c" | wc -l)" = 1 ] || echo; } > "$c.exp"
done
ncand=$(ls /tmp/fzc | grep -vc '\.exp$')
diag "$ncand candidates"

# wr FILE CAND: one write(2) of CAND to FILE; rc in $wrc, the first line
# of dd's complaint in $werr (shell builtins but dd: thousands of these)
wr() {
	dd if="$2" of="$1" bs=16384 count=1 conv=notrunc 2> /tmp/fs.err
	wrc=$?
	werr=
	[ $wrc = 0 ] || read -r werr < /tmp/fs.err
}

# state: what a write that should not count would change (the policy,
# and crtime_ns, which a reset moves); in $st
# (every key's value: the table file also lists defaults once set)
getstate() {
	st=
	for _f in $D/policy/*; do
		read -r _v < "$_f"
		st="$st$_v "
	done
	read -r _c < $D/stats/crtime_ns
	st="$st|$_c"
}
state() { getstate; echo "$st"; }
before=$(state)

# --- user 65534: reads work, writes do not ---
as_nobody sh -c "for f in $(echo $rfiles); do cat \$f > /dev/null || exit 1; done" ||
	fail "user 65534 cannot read every 0444/0644 file"
ok "user 65534 reads every readable file"
cat > /tmp/fs.nobody.sh <<'EOF'
n=0
for f in $WFILES; do
	for c in /tmp/fzc/[rf].[0-9] /tmp/fzc/v.[0-9]; do
		if dd if="$c" of="$f" bs=16384 count=1 conv=notrunc 2> /tmp/fzn/err; then
			echo "accepted: $c -> $f"; exit 1
		fi
		read -r e < /tmp/fzn/err
		case $e in
		*'Permission denied'*) ;;
		*) echo "$f $c: $e"; exit 1 ;;
		esac
		n=$((n + 1))
	done
done
echo "n=$n"
EOF
chmod 644 /tmp/fs.nobody.sh
mkdir -p /tmp/fzn && chmod 777 /tmp/fzn
out=$(WFILES="$wfiles" as_nobody sh /tmp/fs.nobody.sh) || fail "user 65534: $out"
[ "$(state)" = "$before" ] || fail "state changed after the writes of user 65534: $(state)"
ok "user 65534: ${out#n=} writes to $nw files, all EACCES; nothing changed"
# the kernel checks too: a chmod does not open the files
for f in $D/policy/qdepth $D/table $D/reset; do
	m=$(stat -c %a $f)
	chmod 666 $f || fail "chmod $f"
	as_nobody sh -c "echo 1 > $f" 2> /tmp/fs.nerr && { chmod "$m" $f; fail "user 65534 wrote $f after chmod"; }
	chmod "$m" $f
	grep -q 'Operation not permitted' /tmp/fs.nerr || { cat /tmp/fs.nerr; fail "$f after chmod: not EPERM"; }
done
[ "$(state)" = "$before" ] || fail "state changed after chmod writes: $(state)"
ok "chmod 666 then write as user 65534: EPERM (policy/qdepth, table, reset)"

# --- root ---
# good KEY: a value of KEY that must apply on this device
good() {
	case $1 in
	qdepth) echo 4 ;; sched) echo fifo ;; max_wait_ms) echo 50 ;;
	lun_depth) echo 64 ;; qfull_delay_us) echo 1000 ;; reaction) echo linux ;;
	model) echo fixed ;; svc_us) echo 10 ;; channels) echo 2 ;;
	mbps) echo 1000 ;; seek_ms) echo 1 ;; rpm) echo 7200 ;;
	bubble_ms) echo 5000 ;; foreign_period_ms) echo 100 ;;
	reset_after) echo 100 ;; reset_ms) echo 10 ;; ramp_up_ms) echo 1000 ;;
	restore_ms) echo 1000 ;; step_ms) echo 1000 ;; min_throttle) echo 2 ;;
	rmw_x) echo 2 ;;
	esac
}
printf 1 > /tmp/fs.one
printf '1\n' > /tmp/fs.onenl
# candidates with their lengths, computed once
for c in /tmp/fzc/[rftv].*; do
	case $c in *.exp) continue ;; esac
	echo "$c $(wc -c < "$c")"
done > /tmp/fs.cands
nacc=0 nref=0 ngood=0
for f in $wfiles; do
	k=${f##*/}
	while read -r c len; do
		cls=${c##*/}
		cls=${cls%%.*}
		case $k in
		table) ;;
		reset)	# "1" would zero the counters the books need
			cmp -s "$c" /tmp/fs.one || cmp -s "$c" /tmp/fs.onenl && continue ;;
		*) [ $cls = t ] && continue ;;
		esac
		getstate
		b=$st
		case $k in table|reset) ;; *) read -r old < "$f" ;; esac
		wr "$f" "$c"
		getstate
		if [ "$len" = 0 ]; then
			[ $wrc = 0 ] && [ "$st" = "$b" ] ||
				fail "$f: empty write: rc $wrc $werr, state $st"
			continue
		fi
		if [ $wrc != 0 ]; then
			nref=$((nref + 1))
			case $werr in
			# over PAGE_SIZE: E2BIG, or (6.1 kernfs) the first 4096
			# bytes reach the file and are refused
			*'Argument list too long'*) [ "$len" -gt 4096 ] ;;
			*'Invalid argument'*) ;;
			*) false ;;
			esac || fail "$f <- $c ($len bytes): $werr"
			[ "$st" = "$b" ] || fail "$f <- $c: refused, but the state changed: $st (was $b)"
			continue
		fi
		nacc=$((nacc + 1))
		case $cls.$k in
		[ft].*|*.table|*.reset)
			fail "$f accepted $c: $(od -An -c "$c" | head -n 3 | tr '\n' ' ')" ;;
		esac
		cat "$f" > /tmp/fs.rb
		cmp -s /tmp/fs.rb "$c.exp" ||
			fail "$f accepted $c ($(od -An -c "$c" | head -n 2 | tr '\n' ' ')) but reads $(cat /tmp/fs.rb)"
		echo "$old" > "$f" || fail "$f: cannot put back '$old'"
		getstate
		[ "$st" = "$b" ] || fail "$f: put back '$old', state $st, was $b"
	done < /tmp/fs.cands
	g=$(good "$k")
	if [ -n "$g" ]; then
		old=$(cat "$f")
		echo "$g" > "$f" || fail "$f: good value $g refused"
		[ "$(cat "$f")" = "$g" ] || fail "$f: wrote $g, reads $(cat "$f")"
		echo "$old" > "$f" && [ "$(cat "$f")" = "$old" ] || fail "$f: put back $old"
		ngood=$((ngood + 1))
	fi
done
[ "$(state)" = "$before" ] || fail "state at the end: $(state), was $before"
ok "root: $nref writes refused (EINVAL; E2BIG only over 4096 bytes) with nothing changed, $nacc accepted and read back as written; a good value of $ngood keys applied; all put back"

# table: a valid line applies, reset takes "1"
echo "qdepth:4 sched:fifo" > $D/table || fail "table: valid line refused"
[ "$(cat $D/policy/qdepth) $(cat $D/policy/sched) $(cat $D/policy/max_wait_ms)" = "4 fifo 100" ] &&
	cat $D/table | grep -q '^qdepth:4 sched:fifo max_wait_ms:100' || fail "table reads $(cat $D/table)"
echo "$pol" > $D/table && cat $D/table | grep -q "^$pol" || fail "table: put back $pol"
ok "table: 'qdepth:4 sched:fifo' applied, '$pol' back"
[ "$(state)" = "$before" ] || fail "state at the end: $(state), was $before"

touch /tmp/fs.stop
wait "$lbpid"
lbpid=
[ -e /tmp/fs.lbfail ] && { cat /tmp/fs.lbfail; fail "a verify run failed"; }
runs=$(wc -l < /tmp/fs.kv)
ios=$(kvsum /tmp/fs.kv ios) errs=$(kvsum /tmp/fs.kv errors) verr=$(kvsum /tmp/fs.kv verify_errors)
[ "$verr" = 0 ] || fail "$verr verify errors"
ok "lunqbench --verify: $runs runs, $ios IOs, errors=$errs verify_errors=$verr"
counters_consistent lqfs || fail "lqfs: counters do not balance"
io_report fuzz-sysfs "$ios" "$(lq_stat lqfs completed)" "$errs"

# reset takes "1" (last: it zeroes the books)
c0=$(cat $D/stats/crtime_ns)
echo 1 > $D/reset || fail "reset: '1' refused"
[ "$(cat $D/stats/crtime_ns)" -gt "$c0" ] && [ "$(lq_stat lqfs completed)" = 0 ] ||
	fail "reset: crtime_ns $(cat $D/stats/crtime_ns) (was $c0), completed $(lq_stat lqfs completed)"
ok "reset: '1' zeroes the counters"
