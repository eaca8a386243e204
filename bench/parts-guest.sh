# bench/parts-guest.sh RUNTIME VARIANT...: the guest half of
# bench/parts.sh (busybox sh, in the VM): part A's reads through
# dm-linear, the floor and lunq under each test build of
# build/parts/VARIANT/dm-lunq.ko; instructions per IO (icount, shift 0:
# 1e9 / IOPS).
. "$LUNQ_SRC/tests/vm/lib.sh"
runtime=$1
shift
tmp=/tmp/parts
mkdir -p $tmp
iops() {
	fio --name=p --filename="$1" --direct=1 --ioengine=libaio --rw=randread \
		--bs=4k --iodepth=32 --numjobs=1 --time_based --runtime="$2" \
		--norandommap --output-format=terse --terse-version=3 > $tmp/fio.out 2>&1 ||
		{ cat $tmp/fio.out >&2; return 1; }
	awk -F';' 'NR == 1 { print $8 }' $tmp/fio.out
}
instr() { awk -v i="$1" 'BEGIN { printf "%.0f", (i > 0) ? 1e9 / i : 0 }'; }
measure() {
	iops "$1" 1 > /dev/null || return 1
	instr "$(iops "$1" "$runtime")"
}
nb=$(nullb_create parts_nb 1024 memory_backed=0) || { echo "null_blk setup failed"; exit 1; }
sz=$(sectors "$nb")
dm_create p_linear "0 $sz linear $nb 0" || exit 1
lin=$(measure /dev/mapper/p_linear) || exit 1
echo "parts (kernel $(uname -r), accel ${LUNQ_VM_ACCEL:-?}): 4 KiB randread QD32, instructions per IO"
echo "dm-linear $lin"
fko=$LUNQ_SRC/build/floor/$(uname -r)/dm-lunq-floor.ko
if [ -f "$fko" ] && insmod "$fko" && dm_create p_floor "0 $sz lunq_floor $nb 0"; then
	fl=$(measure /dev/mapper/p_floor) || exit 1
	echo "floor $fl (dm-linear + $((fl - lin)))"
	dm_remove p_floor
fi
base=
for v in "$@"; do
	rmmod dm_lunq 2>/dev/null
	insmod "$LUNQ_SRC/build/parts/$v/dm-lunq.ko" || { echo "$v: insmod failed"; exit 1; }
	# LUNQ_PARTS_ARGS: lunq's optional words, e.g. "1 stats:off"
	dm_create p_lunq "0 $sz lunq $nb 0 ${LUNQ_PARTS_ARGS:-}" || exit 1
	n=$(measure /dev/mapper/p_lunq) || exit 1
	dm_remove p_lunq
	[ -z "$base" ] && base=$n
	printf '%-24s %6s  dm-linear + %4s  floor + %4s  base - %s\n' "$v" "$n" \
		"$((n - lin))" "$((n - ${fl:-0}))" "$((base - n))"
done
cleanup_all
