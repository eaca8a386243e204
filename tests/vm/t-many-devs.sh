# Many devices on one host (doc/benchmarks.md, "Many devices"): at each
# count N (LUNQ_FULL=1: 1024, about 150 s; a quick run: 32 and 64; the
# table of doc/benchmarks.md: 64, 256 and 1024), N lunq
# devices (qdepth:32) on 1 MiB slices of one null_blk without memory, then
# N dm-linear devices on the same slices.  The first N - S (S = 16) are
# made in one dmsetup call (--concise: the kernel's share, no process a
# device), the last S one dmsetup call each, as a user or a udev rule
# makes them: what one more device costs when N - 1 are there.  Each
# lunq device is given 1..3 direct 4 KiB reads (device i: i % 3 + 1),
# then all are read at once by `lunqctl stat` and by `lunqctl stat
# --prometheus` (dm-linear: by `dmsetup status`); the last S are removed
# one call each, the rest in one (remove_all).
# Checks: stat has a row for every device; --prometheus reports each
# device's reads, equal to what the device was given and to its dm-N's
# reads in /proc/diskstats, and their sum is the lower device's reads;
# after removal no /sys/kernel/lunq/<name>, no by-dev link, no
# /dev/mapper node, no dm device is left, and the kernel memory (Slab +
# Percpu + VmallocUsed, caches dropped) is within SLACK KiB + MAX_LEAK KiB
# a device of what it was before (a lunq device costs over 100).  (The VM
# has no udev: `dmsetup mknodes` removes the /dev/mapper nodes of removed
# devices, once after all are removed.)
# Prints the per-device times (ms) as a table; no time is asserted
# (wall-clock on TCG).  Memory: 1024 lunq devices take about 200 MiB of
# the VM's 2 GiB (qemu/run's default).
# group: ctl stats
# time: 100
# clock: tcg
# set: full
. "$LUNQ_SRC/tests/vm/lib.sh"

if [ "${LUNQ_FULL:-0}" = 1 ]; then
	COUNTS=1024
else
	COUNTS="32 64"
fi
# LUNQ_MANY_COUNTS overrides (qemu/run --env LUNQ_MANY_COUNTS="1024")
COUNTS=${LUNQ_MANY_COUNTS:-$COUNTS}
MAXN=$(echo $COUNTS | tr ' ' '\n' | sort -n | tail -1)
SLICE=2048		# sectors per device: 1 MiB
# devices made one call each at every count: what one more costs
S=16
# what N devices made and removed may leave behind: KiB a device (a lunq
# device costs over 100, t-mem-per-dev: a leak of one in thirty shows),
# and KiB in all that the allocators keep of what they grew to (measured
# after 16..256 lunq devices 1000..2100; after 1024 on a fresh boot 6700:
# per-CPU chunks 2100, slab 3100, vmalloc 1500; three rounds of 64, 256
# and 1024 in one boot end within 100 KiB of each other: no leak)
MAX_LEAK=4
SLACK=4096

modprobe null_blk nr_devices=0 || fail "null_blk"
mkdir "$CFG/many_nb" || fail "null_blk configfs"
echo $((MAXN + 1)) > "$CFG/many_nb/size"
echo 0 > "$CFG/many_nb/memory_backed"
echo 1 > "$CFG/many_nb/power" || fail "null_blk power"
nb=/dev/many_nb
[ -b $nb ] || fail "no $nb"

# kmem: KiB of Slab + Percpu + VmallocUsed, and each ("S/P/V"), caches
# dropped
kmem() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
	echo 3 > /proc/sys/vm/drop_caches
	awk '/^(Slab|Percpu|VmallocUsed):/ { s += $2; p = p (p == "" ? "" : "/") $2 }
		END { print s, p }' /proc/meminfo
}
# microseconds since boot, in 10 ms steps
now_us() { awk '{ printf "%d\n", $1 * 1000000 }' /proc/uptime; }
# per PER_DEV_US N: microseconds a device, as ms with 2 decimals
per() { awk -v t="$1" -v n="$2" 'BEGIN { printf "%.2f", t / n / 1000 }'; }

# make_one PREFIX I TARGET ARGS: device PREFIX$I on slice I
make_one() {
	dmsetup create --noudevsync "$1$2" --table "0 $SLICE $3 $nb $(($2 * SLICE))${4:+ $4}" ||
		return 1
	[ -b "/dev/mapper/$1$2" ] || dmsetup mknodes "$1$2" 2>/dev/null
}

# left PREFIX: what of PREFIX's devices is still there (empty: nothing)
left() {
	ls /sys/kernel/lunq/ | grep "^$1" | head -3 | sed 's|^|/sys/kernel/lunq/|'
	ls /sys/kernel/lunq/by-dev/ | head -3 | sed 's|^|/sys/kernel/lunq/by-dev/|'
	ls /dev/mapper/ | grep "^$1" | head -3 | sed 's|^|/dev/mapper/|'
	dmsetup ls | grep "^$1" | head -3 | sed 's|^|dmsetup ls: |'
}

# the first lunq and dm-linear devices load their modules (vmalloc'd,
# counted by kmem) and make their slab caches: not what a device leaves
for tgt in lunq linear; do
	make_one warm 0 $tgt "$([ $tgt = lunq ] && echo 1 qdepth:32)" || fail "a first $tgt device"
	dmsetup remove --noudevsync --retry warm0 || fail "removing the first $tgt device"
done
dmsetup mknodes

rows=
for n in $COUNTS; do
	for tgt in lunq linear; do
		case $tgt in
		lunq) p=lqs args="1 qdepth:32" ;;
		linear) p=lns args= ;;
		esac
		k0=$(kmem)
		r0=$(disk_stat $nb 1)
		nb_=$((n - S))
		spec=
		i=0
		while [ $i -lt $nb_ ]; do
			spec="$spec${spec:+;}$p$i,,,rw,0 $SLICE $tgt $nb $((i * SLICE))${args:+ $args}"
			i=$((i + 1))
		done
		t0=$(now_us)
		dmsetup create --noudevsync --concise "$spec" > /tmp/many.out 2>&1 ||
			{ cat /tmp/many.out; fail "$tgt: $nb_ devices in one call"; }
		t1=$(now_us)
		dmsetup mknodes
		t2=$(now_us)
		while [ $i -lt $n ]; do
			make_one $p $i $tgt "$args" || fail "$tgt: creating device $i of $n"
			i=$((i + 1))
		done
		t3=$(now_us)
		[ "$(dmsetup ls | grep -c "^$p")" = "$n" ] || fail "$tgt: not $n devices"
		if [ $tgt = lunq ]; then
			[ "$(ls /sys/kernel/lunq/by-dev | wc -l)" = "$n" ] ||
				fail "$n lunq devices, $(ls /sys/kernel/lunq/by-dev | wc -l) by-dev links"
			i=0
			while [ $i -lt $n ]; do
				dd if=/dev/mapper/$p$i of=/dev/null bs=4k count=$((i % 3 + 1)) iflag=direct 2>/dev/null ||
					fail "reading $p$i"
				i=$((i + 1))
			done
			t4=$(now_us)
			lunqctl stat > /tmp/many.stat 2> /tmp/many.err || { cat /tmp/many.err; fail "lunqctl stat"; }
			t5=$(now_us)
			lunqctl stat --prometheus > /tmp/many.prom 2> /tmp/many.err ||
				{ cat /tmp/many.err; fail "lunqctl stat --prometheus"; }
			t6=$(now_us)
			got=$(grep -cE " $p[0-9]+\$" /tmp/many.stat)
			[ "$got" = "$n" ] || { head /tmp/many.stat; fail "lunqctl stat: $got rows of $n devices"; }
			# each device's reads: given, in --prometheus, in /proc/diskstats
			dmsetup info -c --noheadings -o name,minor --separator ' ' | grep "^$p" > /tmp/many.minors
			awk -v p=$p -v M="$(awk '$2 == "device-mapper" { print $1 }' /proc/devices)" '
				FILENAME ~ /minors/ { minor[$1] = $2; next }
				FILENAME ~ /diskstats/ { if ($1 == M) ds[$2] = $4; next }
				/^lunq_reads_total\{/ {
					d = $1; sub(/.*device="/, "", d); sub(/".*/, "", d)
					if (index(d, p) != 1) next
					i = substr(d, length(p) + 1)
					seen++
					if ($2 != i % 3 + 1) { print d ": lunq_reads_total " $2 ", given " i % 3 + 1; bad++ }
					if (ds[minor[d]] != $2) { print d ": diskstats reads " ds[minor[d]] ", lunq " $2; bad++ }
				}
				END { if (bad) exit 1; print seen }' /tmp/many.minors /proc/diskstats /tmp/many.prom > /tmp/many.chk ||
				{ head /tmp/many.chk; fail "$n devices: --prometheus reads disagree"; }
			[ "$(cat /tmp/many.chk)" = "$n" ] ||
				fail "--prometheus has lunq_reads_total for $(cat /tmp/many.chk) of $n devices"
			want=$(awk -v n=$n 'BEGIN { for (i = 0; i < n; i++) s += i % 3 + 1; print s }')
			[ $(($(disk_stat $nb 1) - r0)) = "$want" ] ||
				fail "the lower device served $(($(disk_stat $nb 1) - r0)) reads, the devices $want"
			rd_stat=$((t5 - t4)) rd_prom=$((t6 - t5)) io=$((t4 - t3))
		else
			t5=$(now_us)
			dmsetup status > /tmp/many.status || fail "dmsetup status"
			t6=$(now_us)
			[ "$(grep -c "^$p" /tmp/many.status)" = "$n" ] || fail "dmsetup status: not $n rows"
			rd_stat=$((t6 - t5)) rd_prom= io=
		fi
		t7=$(now_us)
		i=$nb_
		while [ $i -lt $n ]; do
			dmsetup remove --noudevsync --retry $p$i || fail "$tgt: removing $p$i"
			i=$((i + 1))
		done
		t8=$(now_us)
		dmsetup remove_all --noudevsync || fail "$tgt: remove_all"
		t9=$(now_us)
		# the VM has no udev: the nodes are dmsetup's to remove
		dmsetup mknodes
		[ -z "$(left $p)" ] || { left $p; fail "$tgt: left after removing $n devices"; }
		k1=$(kmem)
		diag "$tgt x $n: kernel memory (Slab/Percpu/Vmalloc) $k0 -> $k1 KiB after making and removing them ($(date +%T))"
		k0=${k0% *} k1=${k1% *}
		[ $((k1 - k0)) -le $((SLACK + MAX_LEAK * n)) ] ||
			fail "$tgt x $n: $((k1 - k0)) KiB left after removal (limit $SLACK + $MAX_LEAK a device)"
		row="$(printf '%-6s %5d %9s %9s %9s %9s %9s %9s %9s' $tgt $n \
			"$(per $((t3 - t2)) $S)" "$(per $((t8 - t7)) $S)" \
			"$(per $rd_stat $n)" "$([ -n "$rd_prom" ] && per $rd_prom $n || echo -)" \
			"$([ -n "$io" ] && per $io $n || echo -)" \
			"$(per $((t1 - t0)) $nb_)" "$(per $((t9 - t8)) $nb_)")"
		rows="$rows$row
"
		diag "$row"
	done
	ok "$n lunq devices: made, loaded, read by stat and --prometheus (reads agree with diskstats), removed; nothing left"
done
diag "per device, ms: create and remove one call each for the last $S; stat (lunq: lunqctl stat; linear: dmsetup status), prom (--prometheus) and io (dd) for all N; batch-mk and batch-rm one call for N - $S"
diag "target     N    create    remove      stat      prom        io  batch-mk  batch-rm"
printf '%s' "$rows" | while IFS= read -r l; do diag "$l"; done
echo 0 > "$CFG/many_nb/power"
rmdir "$CFG/many_nb"
