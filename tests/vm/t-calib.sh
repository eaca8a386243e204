# Calibration of the disk and array models against published figures
# (doc/calibration.md, which gives each anchor's source), at reduced
# length: random 4 KiB reads (fio, 32 jobs' worth of queue) on one
# 7200 rpm disk (model:hdd seek_ms:8 rpm:7200 svc_us:500, lun_depth:32)
# with seek_curve:sqrt, and on an array of 8 such spindles whose members
# sort their queues.  Checked:
#  - QD 1: 80 IOPS (datasheets' 8.5 ms seek + 4.16 ms rotation), +-25%;
#  - host disksort at qdepth 2 in front of a drive in arrival order:
#    anchor +50% over arrival order (ilsistemista, NCQ off, 32 threads);
#    the model gives 1.7x with seek_curve:sqrt (checked 1.3..1.8x and
#    below the linear curve's 2.4x; the rest is explained in the doc);
#  - NCQ (lun_order:sptf) at QD 32: 168..212 (datasheets) +-25% with
#    the linear curve (the sqrt curve's lower figure is explained);
#  - NCQ with a host elevator in front (qdepth 31, disksort) within 10%
#    of NCQ alone (ilsistemista), both curves;
#  - the array: host disksort gains at most 1.10x (seed 004).
# make test checks the same rows on the host, in lunqsim
# (tests/unit/lunqsim-calib.sh); this is the VM's ground truth.
# Deterministic on the icount clock (fio's random seed is fixed).
# group: model
# time: 40
# set: full
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_cal 1024 hw_queue_depth=256) || fail "null_blk setup"
sz=$(sectors "$nb")
RT=${LUNQ_CALIB_S:-4}
# IOPS of random 4 KiB reads at QD $1 on table options $2...
run() {
	_qd=$1
	shift
	lunq_create lq "$nb" "$@" >&2 || fail "create: $*"
	fio_json /tmp/cal.json /dev/mapper/lq --rw=randread --bs=4k \
		--iodepth="$_qd" --time_based --runtime="$RT" --randrepeat=1
	jq '.jobs[0].read.iops | floor' /tmp/cal.json
	dm_remove lq >&2
}
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", b ? a / b : 0 }'; }
within() { awk -v v="$1" -v lo="$2" -v hi="$3" 'BEGIN { exit !(v >= lo && v <= hi) }'; }

for c in sqrt linear; do
	D="model:hdd seek_ms:8 rpm:7200 svc_us:500 seek_curve:$c lun_depth:32"
	qd1=$(run 1 $D qdepth:1)
	fifo=$(run 32 $D qdepth:32)
	host2=$(run 32 $D qdepth:2 sched:disksort)
	ncq=$(run 32 $D qdepth:32 lun_order:sptf)
	ncqh=$(run 32 $D qdepth:31 sched:disksort lun_order:sptf)
	diag "$c: QD1 $qd1, QD32 in order $fifo, host sort qd2 $host2 ($(ratio "$host2" "$fifo")x), NCQ $ncq ($(ratio "$ncq" "$qd1")x), NCQ + host sort $ncqh ($(ratio "$ncqh" "$ncq")x NCQ)"
	eval "qd1_$c=$qd1 fifo_$c=$fifo host2_$c=$host2 ncq_$c=$ncq ncqh_$c=$ncqh"
done
A="model:array spindles:8 stripe_kb:64 seek_ms:8 rpm:7200 svc_us:500 seek_curve:sqrt wce:1 lun_order:sptf lun_depth:64 qdepth:16"
afifo=$(run 32 $A sched:fifo)
asort=$(run 32 $A sched:disksort)
diag "array of 8, members sorting, qdepth 16: $afifo IOPS in order, $asort sorted ($(ratio "$asort" "$afifo")x)"

within "$qd1_sqrt" 60 100 || fail "QD 1: $qd1_sqrt IOPS, not 80 +-25%"
ok "QD 1: $qd1_sqrt IOPS (anchor 80)"
# the host sort's gain: sqrt brings it from linear's 2.4x to 1.7x; the
# anchor is 1.5x (the rest is the model's rotation, doc/calibration.md)
g=$(ratio "$host2_sqrt" "$fifo_sqrt") gl=$(ratio "$host2_linear" "$fifo_linear")
within "$g" 1.3 1.8 || fail "host sort at qdepth 2 (sqrt): ${g}x, not within 1.3..1.8x"
within "$gl" "$g" 99 || fail "host sort: sqrt's ${g}x not below linear's ${gl}x"
ok "host sort, drive in order: ${g}x with seek_curve:sqrt, ${gl}x linear (anchor 1.5x)"
# NCQ at QD 32: linear's within 25% of the datasheets' 168..212
within "$ncq_linear" 126 265 || fail "NCQ QD 32 (linear): $ncq_linear IOPS, not 168..212 +-25%"
ok "NCQ at QD 32: $ncq_linear IOPS linear, $ncq_sqrt sqrt (anchors 168 at QD 16, 212 at QD 32)"
for c in sqrt linear; do
	eval "g=\$(ratio \"\$ncqh_$c\" \"\$ncq_$c\")"
	within "$g" 0.9 1.1 || fail "NCQ with a host sort ($c): ${g}x NCQ alone, not within 10%"
done
ok "NCQ with a host sort: within 10% of NCQ alone (ilsistemista: close to it)"
g=$(ratio "$asort" "$afifo")
within "$g" 0 1.10 || fail "array: host sort ${g}x, above 1.10x"
ok "array: host sort ${g}x (seed 004: does not make much sense)"
