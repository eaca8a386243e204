# The arena's BPF policies (tests/demo/arena.sh --quick --only knee64
# --sweep 16): one of the user's, given as a path (a copy of
# garbage-random.bpf.o named mine.bpf.o: random answers 0..11, each
# printed by bpf_printk), a file that is no BPF object (notbpf.bpf.o,
# text) and a shipped one (kyber), in that order.  Checks: the run ends
# well; mine and kyber are scored (arena.json: a score each, with IOPS),
# notbpf is left out with lunqctl's error and has no score; kyber acted:
# the depth sampled during its run (the last) fell from the 64 it started
# at (its 10 ms target against the LUN's 32 ms at 64); mine and kyber have
# depth samples in arena.json and a line in arena-depth-knee64.svg; the
# arena kept each BPF policy's trace (arena-trace-knee64-POLICY.txt):
# mine's answers (lunq_pol_answer) and its bpf_printk lines, the same
# numbers in the same order, its answers of 0 clamped to 1; kyber's
# answers; none for the sweep's static runs.
# Kernels without BPF struct_ops from modules (6.1, RT): SKIP naming it.
# group: bpf
# time: 30
# (6.1 and RT skip at once; 6.12 about 60 s: the matrix term, 2 x this)
. "$LUNQ_SRC/tests/vm/lib.sh"

[ "$(cat /sys/module/dm_lunq/parameters/bpf_policies 2>/dev/null)" = Y ] ||
	skip "$(uname -r): no BPF struct_ops registered by modules (Linux 6.9+ with module BTF)"
cp "$LUNQ_SRC/build/policies/garbage-random.bpf.o" /tmp/mine.bpf.o || fail "no garbage-random.bpf.o"
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
# the traces: mine's printed answers are its traced ones, in order
T=/tmp/arenab/arena-trace-knee64
[ -s $T-mine.txt ] && [ -s $T-kyber.txt ] || fail "no arena-trace-knee64-mine.txt or -kyber.txt"
[ -e $T-q16.txt ] && fail "the sweep's run at 16 kept a trace"
sed -n 's/.*lunq_pol_answer: .* policy=garbage .* answer=\([0-9]*\) clamped=\([0-9]*\).*/\1 \2/p' $T-mine.txt > /tmp/ans
sed -n 's/.*garbage answers \([0-9]*\)$/\1/p' $T-mine.txt > /tmp/printed
n=$(wc -l < /tmp/ans)
[ "$n" -ge 10 ] || fail "mine's trace: $n answers"
cut -d' ' -f1 /tmp/ans | cmp -s - /tmp/printed ||
	fail "mine's trace: the answers traced ($n) are not the ones it printed ($(wc -l < /tmp/printed))"
awk '{ w = $1 < 1 ? 1 : ($1 > 64 ? 64 : $1); if ($2 != w) bad = 1 } END { exit bad }' /tmp/ans ||
	fail "mine's trace: an answer not clamped to 1..64"
grep -q 'lunq_pol_answer: .* policy=kyber hook=window ' $T-kyber.txt || fail "kyber's trace: no window answer"
ok "arena traces: mine's $n answers and its bpf_printk lines agree in order, clamped to 1..64; kyber's answers kept"
ok "arena: mine.bpf.o and kyber scored, notbpf.bpf.o left out with lunqctl's error, kyber's depth 64 -> $lo"
