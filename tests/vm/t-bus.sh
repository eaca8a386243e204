# bus_mbps: one transfer rate shared by every channel of the LUN.  A flash
# LUN of 16 channels x 2 ms over null_blk, fio random reads, bandwidth and
# IOPS from fio itself:
#  - bus_mbps:40, 1 MiB reads at QD 8: fio's bandwidth <= 40 MB/s (exact:
#    no byte completes before its transfer on the bus; +3% for the last
#    transfer under way when fio stops the clock);
#  - bus_mbps:0, the same: above 80 MB/s (the bus was the limit);
#  - 4 KiB reads at QD 16: the bus is not the limit (figures printed);
#  - bus_mbps without a model is refused.
# group: model timing
# time: 20
# clock: tcg
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_bus 512 hw_queue_depth=256) || fail "null_blk setup"
sz=$(sectors "$nb")
# bw BS QD: fio's read bandwidth (bytes/s) and IOPS on /dev/mapper/lq
bw() {
	fio_json /tmp/bus.json /dev/mapper/lq --rw=randread --bs="$1" \
		--iodepth="$2" --time_based --runtime=3
	jq -r '"\(.jobs[0].read.bw_bytes) \(.jobs[0].read.iops | floor)"' /tmp/bus.json
}
lunq_create lq $nb model:flash channels:16 svc_us:2000 bus_mbps:40 || fail "create"
set -- $(bw 1m 8); b40=$1
set -- $(bw 4k 16); s40=$2
expect dmsetup message lq 0 set bus_mbps:0
set -- $(bw 1m 8); b0=$1
set -- $(bw 4k 16); s0=$2
diag "1 MiB reads QD 8: $((b40 / 1000000)) MB/s with bus_mbps:40, $((b0 / 1000000)) MB/s without; 4 KiB QD 16: $s40 IOPS with, $s0 without"
[ "$b40" -le 41200000 ] || fail "bus_mbps:40: fio read $b40 bytes/s > 40 MB/s + 3%"
[ "$b0" -gt 80000000 ] || fail "without the bus: $b0 bytes/s, want > 80 MB/s"
ok "bus_mbps:40 caps 1 MiB reads at $((b40 / 1000000)) MB/s (without: $((b0 / 1000000)) MB/s); 4 KiB reads $s40 vs $s0 IOPS"
refused_msg lq "set model:none bus_mbps:40" "bus_mbps: the bus is part of the model"
dm_remove lq
