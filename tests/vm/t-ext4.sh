# A filesystem on lunq: mkfs.ext4, write files, unmount, fsck clean,
# remount, checksums match.
# group: integrity
# time-debug: 55
# time: 5
. "$LUNQ_SRC/tests/vm/lib.sh"

ram=$(brd_create 128) || fail "brd setup"
lunq_create lq -s 8 $ram || fail "create"
expect mkfs.ext4 -q -F /dev/mapper/lq
mkdir -p /mnt/lunq
expect mount -t ext4 /dev/mapper/lq /mnt/lunq
mkdir /mnt/lunq/d
i=0
for sz in 1 7 64 300 1024 4096 20000; do
	i=$((i + 1))
	dd if=/dev/urandom of=/mnt/lunq/d/f$i bs=1k count=$sz 2>/dev/null || fail "write f$i"
done
(cd /mnt/lunq && find d -type f | sort | xargs sha256sum) > /tmp/sums
expect umount /mnt/lunq
e2fsck -fn /dev/mapper/lq > /tmp/fsck 2>&1 || { cat /tmp/fsck; fail "fsck not clean"; }
ok "fsck clean"
expect mount -t ext4 -o ro /dev/mapper/lq /mnt/lunq
(cd /mnt/lunq && sha256sum -c /tmp/sums) > /tmp/check || { cat /tmp/check; fail "checksums differ"; }
ok "$(wc -l < /tmp/sums) files match their checksums after remount"
expect umount /mnt/lunq
