#!/bin/bash
# trace/blknotes on a synthetic blktrace stream (native order): an IO
# event and a message without cgroup pass through byte for byte; a message
# with the cgroup flag and its 8-byte id (what every Linux >= 5.8 with
# CONFIG_BLK_CGROUP writes) loses both, so blkparse 1.2 prints it; then
# blkparse itself prints the note only after the filter.  A stream cut
# inside a record, or not blktrace's, is an error (exit 1, a message).
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$(dirname "$0")/tap.sh"
tmp=$(mktemp -d)
tap_atexit 'rm -rf "$tmp"'
bn=$top/build/tools/blknotes
make -s -C "$top" build/tools/blknotes > "$tmp/make.log" 2>&1 ||
	{ fail "blknotes builds: $(tail -n 3 "$tmp/make.log")"; exit 0; }

# in: Q event, cgroup message, plain message; want: the same with the
# cgroup message's flag and id gone
python3 - "$tmp" <<'PY'
import struct, sys
d = sys.argv[1]
MAGIC = 0x65617400 | 0x07
TN_MESSAGE = 0x4000002                  # BLK_TN_MESSAGE: BLK_TC_NOTIFY << 16 | __BLK_TN_MESSAGE
CGROUP = 1 << 8
QUEUE = 0x100001                       # BLK_TA_QUEUE
def rec(seq, action, pdu=b'', sector=0, nbytes=0):
    return struct.pack('=IIQQIIIIIHH', MAGIC, seq, 1000 * seq, sector, nbytes,
                       action, 7, (254 << 20) | 0, 0, 0, len(pdu)) + pdu
msg = b'lunq: throttle 16 -> 8 qfull'
cgid = struct.pack('=Q', 1)
inp = rec(1, QUEUE, sector=8, nbytes=4096) + rec(2, TN_MESSAGE | CGROUP, cgid + msg) + \
      rec(3, TN_MESSAGE, b'lunq: plain')
want = rec(1, QUEUE, sector=8, nbytes=4096) + rec(2, TN_MESSAGE, msg) + rec(3, TN_MESSAGE, b'lunq: plain')
open(d + '/in', 'wb').write(inp)
open(d + '/want', 'wb').write(want)
open(d + '/cut', 'wb').write(inp[:-5])
open(d + '/bad', 'wb').write(b'\0' * 48)
PY
if "$bn" < "$tmp/in" > "$tmp/out" 2> "$tmp/err" && cmp -s "$tmp/out" "$tmp/want"; then
	ok "the cgroup message loses its flag and id; the others pass unchanged"
else
	fail "blknotes output differs ($(cat "$tmp/err"))"
fi
for f in cut bad; do
	"$bn" < "$tmp/$f" > /dev/null 2> "$tmp/err"
	rc=$?
	if [ $rc = 1 ] && grep -q '^blknotes: ' "$tmp/err"; then
		ok "$f input: exit 1, $(cat "$tmp/err")"
	else
		fail "$f input: exit $rc, '$(cat "$tmp/err")'"
	fi
done
"$bn" --help | grep -q '^usage: ' && ok "--help" || fail "--help"

if command -v blkparse > /dev/null; then
	blkparse -i - < "$tmp/in" 2> /dev/null | grep -c 'lunq: throttle' > "$tmp/before"
	"$bn" < "$tmp/in" | blkparse -i - 2> /dev/null > "$tmp/after"
	if grep -q ' m  *N lunq: throttle 16 -> 8 qfull$' "$tmp/after"; then
		ok "blkparse prints the note after blknotes (without: $(cat "$tmp/before") lines, blkparse $(dpkg-query -W -f '${Version}' blktrace 2>/dev/null))"
	else
		fail "blkparse does not print the note after blknotes: $(cat "$tmp/after")"
	fi
else
	skip blkparse "blktrace not installed"
fi
