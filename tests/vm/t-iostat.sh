# iostat -x from two status snapshots (kmod/dm-lunq.rst, "Status"): a
# saturated run -- fio randread QD32 through qdepth:8 on null_blk with 20 ms
# completions -- must show actv = d(rlentime_ns)/d(snaptime_ns) = 8 within
# 5%, %b >= 99, and asvc_t = d(rlentime)/d(completed) at least the device's
# 20 ms; wait, wsvc_t and %w are printed.  Independent observer: the dm
# device's own diskstats (time reading, ms) sum each IO's time from its
# arrival at the dm device to its completion -- waiting plus active, the
# interval wlentime + rlentime integrate; the two agree within 5% over the
# window.  After the run everything is idle: the integrals stop growing.
# group: throttle stats timing
# time: 10
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
