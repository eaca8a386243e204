# iostat -x from two status snapshots (kmod/dm-lunq.rst, "Status"): a
# saturated run -- fio randread QD32 through qdepth:8 on null_blk with 20 ms
# completions -- must show actv = d(rlentime_ns)/d(snaptime_ns) = 8 within
# 5%, %b >= 99, and asvc_t = d(rlentime)/d(completed) at least the device's
# 20 ms; wait, wsvc_t and %w are printed.  Independent observer: the dm
# device's own diskstats (time reading, ms) sum each IO's time from its
# arrival at the dm device to its completion -- waiting plus active, the
# interval wlentime + rlentime integrate; the two agree within 5% over the
# window.  After the run everything is idle: the integrals stop growing.
# Then the lock-free path (no options; kmod/lunq_busy.h): QD1 reads of
# 10 ms with 10 ms think time between them, so the device is about half
# busy and every IO opens and closes a busy period without the lock; %b
# must match the dm device's own busy time (diskstats io_ticks, ms)
# within 10% (io_ticks counts jiffies), actv (rlentime) the time
# reading within 5%, and the path must have sent them all.
# group: throttle stats timing
# time: 18
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 irqmode=2 completion_nsec=20000000 hw_queue_depth=256) ||
	fail "null_blk setup"
dm_create lq "0 $(sectors "$nb") lunq $nb 0 1 qdepth:8" || fail "create"
dm=$(dm_sysfs lq) || fail "no sysfs for lq"

snap() {
	dmsetup status lq | tr ' ' '\n' | awk -F= -v p="$1" '
		$1 ~ /^(snaptime_ns|wlentime_ns|rlentime_ns|wtime_ns|rtime_ns|completed)$/ {
			print p $1 "=" $2 }' | sed 's/_ns=/=/'
}
fio --name=io --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
	--rw=randread --bs=4k --iodepth=32 --time_based --runtime=7 \
	--output-format=terse --terse-version=3 > /tmp/fio.io 2>&1 &
fpid=$!
sleep 2
eval "$(snap a_)"
ra=$(awk '{ print $4 }' "$dm/stat")
sleep 3
eval "$(snap b_)"
rb=$(awk '{ print $4 }' "$dm/stat")
wait $fpid || { cat /tmp/fio.io; fail "fio failed"; }
# shellcheck disable=SC2154
line=$(awk -v dt=$((b_snaptime - a_snaptime)) -v dc=$((b_completed - a_completed)) \
	-v wl=$((b_wlentime - a_wlentime)) -v rl=$((b_rlentime - a_rlentime)) \
	-v wt=$((b_wtime - a_wtime)) -v rt=$((b_rtime - a_rtime)) 'BEGIN {
	printf "r/s %.0f wait %.2f actv %.2f wsvc_t %.2f asvc_t %.2f %%w %.0f %%b %.0f\n",
		dc / dt * 1e9, wl / dt, rl / dt, wl / dc / 1e6, rl / dc / 1e6,
		wt / dt * 100, rt / dt * 100 }')
note "iostat -x over 3 s: $line"
actv=$(echo "$line" | awk '{ print $6 }')
asvc=$(echo "$line" | awk '{ print $10 }')
pb=$(echo "$line" | awk '{ print $14 }')
# shellcheck disable=SC2154
tot_ms=$(((b_rlentime - a_rlentime + b_wlentime - a_wlentime) / 1000000))
note "total time: lunq wlentime + rlentime +$tot_ms ms.IO, dm diskstats time reading +$((rb - ra)) ms"
awk -v a="$actv" 'BEGIN { exit !(a >= 7.6 && a <= 8.4) }' || fail "actv $actv, want 8 +-5%"
[ "$pb" -ge 99 ] || fail "%b $pb, want >= 99 in a saturated run"
awk -v s="$asvc" 'BEGIN { exit !(s >= 20.0) }' || fail "asvc_t $asvc ms < the device's 20 ms"
awk -v l="$tot_ms" -v d=$((rb - ra)) 'BEGIN { exit !(d > 0 && l >= 0.95 * d && l <= 1.05 * d) }' ||
	fail "wlentime + rlentime and diskstats disagree by more than 5%"
ok "actv $actv = qdepth 8, %b $pb, asvc_t $asvc ms; integrals match diskstats"

eval "$(snap c_)"
sleep 1
eval "$(snap d_)"
# shellcheck disable=SC2154
[ "$c_rlentime" = "$d_rlentime" ] && [ "$c_wlentime" = "$d_wlentime" ] &&
	[ "$d_snaptime" -gt "$c_snaptime" ] || fail "integrals grew while idle"
expect dmsetup message lq 0 stats reset
[ "$(status_field lq rlentime_ns)" = 0 ] || fail "stats reset left rlentime_ns"
ok "idle: integrals constant; stats reset zeroes them"
dm_remove lq

dm_create lf "0 $(sectors "$nb") lunq $nb 0" || fail "create lf"
dm=$(dm_sysfs lf) || fail "no sysfs for lf"
snapf() {
	dmsetup status lf | tr ' ' '\n' | awk -F= -v p="$1" '
		$1 ~ /^(snaptime_ns|rlentime_ns|rtime_ns|completed)$/ {
			print p $1 "=" $2 }' | sed 's/_ns=/=/'
}
f0=$(awk '{ print $2 }' /sys/kernel/lunq/lf/fast_path)
fio --name=io --filename=/dev/mapper/lf --direct=1 --ioengine=libaio \
	--rw=randread --bs=4k --iodepth=1 --thinktime=10000 --thinktime_blocks=1 \
	--time_based --runtime=6 --output-format=terse --terse-version=3 > /tmp/fio.lf 2>&1 &
fpid=$!
sleep 1
eval "$(snapf e_)"
set -- $(awk '{ print $4, $10 }' "$dm/stat")
re=$1 te=$2
sleep 4
eval "$(snapf f_)"
set -- $(awk '{ print $4, $10 }' "$dm/stat")
rf=$1 tf=$2
wait $fpid || { cat /tmp/fio.lf; fail "fio on lf failed"; }
f1=$(awk '{ print $2 }' /sys/kernel/lunq/lf/fast_path)
# shellcheck disable=SC2154
set -- $(awk -v dt=$((f_snaptime - e_snaptime)) -v rt=$((f_rtime - e_rtime)) \
	-v rl=$((f_rlentime - e_rlentime)) -v dc=$((f_completed - e_completed)) \
	-v tk=$((tf - te)) -v rd=$((rf - re)) 'BEGIN {
	printf "%.1f %.1f %.0f %.0f %d\n", rt / dt * 100, tk * 1e6 / dt * 100, rl / 1e6, rd, dc }')
note "lock-free: %b $1 (diskstats io_ticks: $2), rlentime +$3 ms (time reading +$4 ms), $5 IOs; fast_path IOs $f0 -> $f1"
[ "$5" -gt 50 ] || fail "only $5 IOs in the window"
[ $((f1 - f0)) -ge "$5" ] || fail "the lock-free path sent $((f1 - f0)) IOs of $5"
awk -v b="$1" -v t="$2" 'BEGIN { exit !(b > 20 && b < 90 && b >= 0.9 * t && b <= 1.1 * t) }' ||
	fail "lock-free %b $1 against diskstats' $2: want within 10%, and partly busy"
awk -v l="$3" -v d="$4" 'BEGIN { exit !(d > 0 && l >= 0.95 * d && l <= 1.05 * d) }' ||
	fail "lock-free rlentime +$3 ms against diskstats' time reading +$4 ms: want within 5%"
ok "lock-free path: %b $1 = diskstats' $2 (+-10%), rlentime = time reading (+-5%), no lock at the edges"
dm_remove lf
