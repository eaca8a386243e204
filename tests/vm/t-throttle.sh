# qdepth:N holds at the lower device: fio randread QD64 on lunq qdepth:4
# over null_blk with 2 ms completions.  Independent observers: the lower
# device's /sys/block/*/inflight (sampled) and blktrace issue/complete
# events on it (exact); the dm device's own inflight (accounts_remapped_io:
# only IOs sent below count).  Control: with qdepth:0 the same observers
# see far more than 4.  blktrace is exact (a request's C event comes
# before its bios complete, so before lunq frees the slot); the sampled
# inflight is not: a request stays counted until blk-mq has finished it,
# after its bio reached lunq, which may have sent the next one meanwhile
# (the completing vCPU descheduled by a busy host), so a sample may see
# up to one more per CPU.
# group: throttle
# time: 50
. "$LUNQ_SRC/tests/vm/lib.sh"

lq_nullb 2 qdepth:4

load() {
	fio --name=tq --filename=/dev/mapper/lq --direct=1 --ioengine=libaio \
		--rw=randread --bs=4k --iodepth=64 --time_based --runtime="$1" \
		--output-format=terse --terse-version=3 > /tmp/fio.tq 2>&1 ||
		{ cat /tmp/fio.tq; fail "fio failed"; }
	[ "$(fio_terse /tmp/fio.tq 5)" = 0 ] || fail "fio reported errors"
}

bt_start "$nb" /tmp/bt
inflight_watch "$nb" /tmp/inf_low & w1=$!
inflight_watch "$dm" /tmp/inf_dm & w2=$!
(sleep 1.5; for i in 1 2 3 4 5 6 7 8 9 10; do dmsetup status lq; sleep 0.2; done > /tmp/mid) &
load 5
inflight_stop /tmp/inf_low $w1
inflight_stop /tmp/inf_dm $w2
bt_stop
read -r low nlow < /tmp/inf_low
read -r dmi ndm < /tmp/inf_dm
bt=$(max_concurrent /tmp/bt.txt)
issued=$(grep -c '^D ' /tmp/bt.txt)
diag "qdepth:4: lower inflight max $low ($nlow samples), blktrace max $bt ($issued issues), dm inflight max $dmi ($ndm samples)"
diag "status: $(dmsetup status lq)"
[ "$issued" -gt 500 ] || fail "too few IOs traced ($issued)"
[ "$bt" -le 4 ] || fail "blktrace: more than 4 IOs outstanding at the lower device ($bt)"
[ "$low" -le $((4 + $(nproc))) ] || fail "sampled inflight $low: more than 4 IOs outstanding at the lower device, beyond the accounting window"
[ "$low" = 4 ] || [ "$bt" = 4 ] || fail "the throttle never reached 4 outstanding IOs"
[ "$bt" = 4 ] || fail "blktrace never saw 4 outstanding IOs"
ok "lower device: at most 4 outstanding, and 4 reached (sampled $low, blktrace $bt)"
[ "$dmi" -le 4 ] || fail "dm device's own inflight above qdepth: $dmi"
ok "dm device's iostat counts only IOs sent below (inflight max $dmi)"
[ "$(status_field lq max_inflight)" = 4 ] || fail "status max_inflight is not 4"
mw=$(status_field lq max_waiting)
[ "$mw" -ge 50 ] || fail "status: max_waiting=$mw, expected about 60 with QD64"
[ "$(status_field lq inflight)" = 0 ] && [ "$(status_field lq waiting)" = 0 ] ||
	fail "idle device shows IO: $(dmsetup status lq)"
d=$(status_field lq dispatched)
c=$(status_field lq completed)
[ "$d" = "$c" ] && [ "$d" -ge "$issued" ] || fail "dispatched=$d completed=$c vs $issued traced"
ok "status: max_inflight=4 max_waiting=$mw dispatched=completed=$d"
# mid-load status: fio keeps 64 outstanding, so about 60 wait behind 4.
# Ten samples: every one within the bounds (inflight <= 4, waiting <= 64),
# and at least one showing the loaded state (inflight 3..4, waiting >= 40,
# oldest_wait_ms > 0); a single sample can catch the instant between the
# last completions and the dispatcher's next run.
awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); v[kv[1]] = kv[2] }
	if (v["inflight"] > 4 || v["waiting"] > 64) { print "bad: " $0; exit }
	if (v["inflight"] >= 3 && v["waiting"] >= 40 && v["oldest_wait_ms"] >= 1) {
		if (!good) good = $0 } }
	END { if (good) print "good: " good }' /tmp/mid > /tmp/mid.v
diag "mid-load status ($(wc -l < /tmp/mid) samples): $(cat /tmp/mid.v)"
grep -q '^good: ' /tmp/mid.v && ! grep -q '^bad: ' /tmp/mid.v ||
	fail "mid-load status: $(cat /tmp/mid.v)"
mi=$(sed -n 's/^good: .* inflight=\([0-9]*\) .*/\1/p' /tmp/mid.v)
mwt=$(sed -n 's/^good: .* waiting=\([0-9]*\) .*/\1/p' /tmp/mid.v)
mo=$(sed -n 's/^good: .* oldest_wait_ms=\([0-9]*\) .*/\1/p' /tmp/mid.v)
ok "mid-load status: inflight=$mi waiting=$mwt oldest_wait_ms=$mo"

# control: unlimited
expect dmsetup message lq 0 set qdepth:0
expect dmsetup message lq 0 stats reset
[ "$(status_field lq dispatched)" = 0 ] && [ "$(status_field lq max_inflight)" = 0 ] ||
	fail "stats reset did not zero: $(dmsetup status lq)"
ok "stats reset zeroes dispatched and max_inflight"
inflight_watch "$nb" /tmp/inf_low & w1=$!
load 3
inflight_stop /tmp/inf_low $w1
read -r low nlow < /tmp/inf_low
diag "qdepth:0: lower inflight max $low; status: $(dmsetup status lq)"
[ "$low" -gt 16 ] || fail "with qdepth:0 the lower device saw only $low outstanding"
[ "$(status_field lq max_waiting)" = 0 ] || fail "IOs waited with qdepth:0"
ok "qdepth:0 is unlimited (lower inflight max $low, nothing waited)"
