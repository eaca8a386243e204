# Data integrity through lunq: fio write+verify (crc32c) with 4 KiB random
# and 1 MiB sequential IO, on a memory-backed null_blk and on brd, with
# table offset 0 and a non-zero offset; the offset is checked by reading
# the lower device directly.
# group: integrity
# time: 45
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create lq_nb 256 blocksize=512) || fail "null_blk setup"
ram=$(brd_create 256) || fail "brd setup"
off=2048	# 1 MiB, in sectors

for lower in "$nb" "$ram"; do
	for o in 0 $off; do
		len=$(($(sectors "$lower") - o))
		lunq_create lq -s $o -l $len $lower || fail "create on $lower offset $o"
		expect fio_verify rand4k /dev/mapper/lq --rw=randwrite --bs=4k \
			--iodepth=16 --size=32M --offset=8M
		expect fio_verify seq1m /dev/mapper/lq --rw=write --bs=1M \
			--iodepth=4 --size=64M --offset=96M
		ok "fio verify on $lower with offset $o"
		dm_remove lq || fail "remove"
	done
done

# The offset is honoured: data written at lunq sector 0 lands at lower
# sector $off, and the sectors before it are untouched.
for lower in "$nb" "$ram"; do
	dd if=/dev/zero of="$lower" bs=1M count=2 conv=fsync 2>/dev/null
	len=$(($(sectors "$lower") - off))
	lunq_create lq -s $off -l $len $lower || fail "create"
	dd if=/dev/urandom of=/tmp/pat bs=64k count=8 2>/dev/null
	dd if=/tmp/pat of=/dev/mapper/lq bs=64k conv=fsync 2>/dev/null || fail "write pattern"
	dd if="$lower" of=/tmp/back bs=512 skip=$off count=1024 2>/dev/null
	cmp /tmp/pat /tmp/back || fail "pattern not found at lower sector $off of $lower"
	dd if="$lower" of=/tmp/head bs=512 count=$off 2>/dev/null
	dd if=/dev/zero of=/tmp/zero bs=512 count=$off 2>/dev/null
	cmp /tmp/head /tmp/zero || fail "sectors before the offset were written on $lower"
	dd if=/dev/mapper/lq of=/tmp/via bs=64k count=8 2>/dev/null
	cmp /tmp/pat /tmp/via || fail "read back through lunq differs on $lower"
	ok "offset $off honoured on $lower (lower device read directly)"
	dm_remove lq || fail "remove"
done
