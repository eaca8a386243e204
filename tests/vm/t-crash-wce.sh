# Crash consistency with the write-cache model on (wce:1): writes held in
# the emulated cache must never cross a flush.  Until lunq has the model
# (issue 22, device realism) the table refuses wce:1 and this test skips,
# naming it.
# group: crash fault
. "$LUNQ_SRC/tests/vm/lib.sh"

nb=$(nullb_create crwce 16) || fail "null_blk"
if ! echo "0 $(sectors "$nb") lunq $nb 0 1 wce:1" |
	dmsetup create --noudevsync crwce 2> /tmp/wce.err; then
	skip "no write-cache model yet: the table refuses wce:1 ($(tr '\n' ' ' < /tmp/wce.err | cut -c1-80)); issue 22"
fi
fail "lunq accepts wce:1 now: run the crash replay with it (crash-lib.sh, as t-crash-disksort.sh)"
