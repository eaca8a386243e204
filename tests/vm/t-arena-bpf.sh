# The arena's BPF policies (tests/demo/arena.sh --quick --only knee64
# --sweep 16): one of the user's, given as a path (a copy of aimd.bpf.o
# named mine.bpf.o), a file that is no BPF object (notbpf.bpf.o, text) and
# a shipped one (kyber), in that order.  Checks: the run ends well; mine
# and kyber are scored (arena.json: a score each, with IOPS), notbpf is
# left out with lunqctl's error and has no score; kyber acted: the
# depth sampled during its run (the last) fell from the 64 it started at
# (its 10 ms target against the LUN's 32 ms at 64); mine and kyber have
# depth samples in arena.json and a line in arena-depth-knee64.svg.
# Kernels without BPF struct_ops from modules (6.1, RT): SKIP naming it.
# group: bpf
# time: 30
# (6.1 and RT skip at once; 6.12 about 60 s: the matrix term, 2 x this)
. "$LUNQ_SRC/tests/vm/lib.sh"

[ "$(cat /sys/module/dm_lunq/parameters/bpf_policies 2>/dev/null)" = Y ] ||
	skip "$(uname -r): no BPF struct_ops registered by modules (Linux 6.9+ with module BTF)"
cp "$LUNQ_SRC/build/policies/aimd.bpf.o" /tmp/mine.bpf.o || fail "no aimd.bpf.o"
G=/tmp/notbpf.bpf.o
echo "not a BPF object" > "$G"
sh "$LUNQ_SRC/tests/demo/arena.sh" --quick --only knee64 --sweep 16 \
	--policies "/tmp/mine.bpf.o,$G,kyber" -o /tmp/arenab > /tmp/arenab.log 2>&1
rc=$?
tr -d '\r' < /tmp/arenab.log | sed 's/^/# /'
[ $rc = 0 ] || fail "arena.sh exit $rc"
for p in mine kyber; do
	i=$(jq -r --arg p "$p" '.scores[] | select(.policy == $p) | .iops' /tmp/arenab/arena.json 2>/dev/null)
	calc_ok=$(awk -v i="${i:-0}" 'BEGIN { print (i > 0) }')
	[ "$calc_ok" = 1 ] || fail "arena.json: no score with IOPS for $p ('$i')"
done
grep -q '^  notbpf left out: lunqctl policy attach ' /tmp/arenab.log ||
	fail "notbpf.bpf.o was not left out with lunqctl's error"
[ "$(jq '[.scores[] | select(.policy == "notbpf")] | length' /tmp/arenab/arena.json)" = 0 ] ||
	fail "arena.json scores notbpf.bpf.o"
for p in mine kyber; do
	jq -e --arg p "$p" '.scores[] | select(.policy == $p) | (.depth | length >= 2)' /tmp/arenab/arena.json > /dev/null ||
		fail "arena.json: no depth samples for $p"
	grep -q "<path class=\"depth\" data-policy=\"$p\"" /tmp/arenab/arena-depth-knee64.svg || fail "arena-depth-knee64.svg: no line for $p"
done
lo=$(awk 'NR == 1 || $2 < m { m = $2 } END { print m }' /tmp/arena.depth)
[ -n "$lo" ] && [ "$lo" -lt 64 ] || fail "kyber's run: the depth never fell from 64 (least '$lo')"
ok "arena: mine.bpf.o and kyber scored, notbpf.bpf.o left out with lunqctl's error, kyber's depth 64 -> $lo"
