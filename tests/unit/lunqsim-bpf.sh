#!/bin/sh
# lunqsim runs a BPF policy's .bpf.c natively (sim/bpf/, sim/bpf_policy.c;
# doc/lunqsim.md, "Your own policy"): tests/unit/fixtures/policies/seq.bpf.c
# answers a known sequence (0 at start, then 3 0 100 8 64 65 5 2 ...), and
# its --bpf-log is checked line by line: each answer the sequence's, the
# depth applied its clamp to 1..64 and in force at the next window, the
# window's IOs what that depth lets the 16 x 8 ms LUN complete, the answers
# of 0 and above 64 counted as the table says, every run from fresh
# globals, bpf_ktime_get_ns() the window's time, bpf_get_prandom_u32() the
# run's seed's.  aimd, kyber and parda, unchanged, in every simulated
# scenario: every window of kyber and parda recomputed by the rules
# t-bpf-policy (VM) recomputes them by from the trace event, aimd's by its
# +1 per 64 IOs; the .so of make -C sim policy scores as its .bpf.c;
# --random with them (text and --json); a policy with a map, one with a
# helper not shimmed: exit 2 with the compiler's words.
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/tests/lib/lunqsim-test.sh"
fx=tests/unit/fixtures/policies

# --- seq: the answers and the depths applied ------------------------------
mkdir -p "$tmp/log"
"$sim" --quick --policies "$fx/seq.bpf.c" --sweep 16 --bpf-log "$tmp/log" \
	arena/scenarios/01-knee1.scn arena/scenarios/03-capacity.scn > "$tmp/seq.out" 2> "$tmp/seq.err"
rc=$?
tap_quote "$tmp/seq.out" "$tmp/seq.err"
[ $rc = 0 ] && [ -s "$tmp/log/knee1.seq.log" ] && [ -s "$tmp/log/capacity.seq.log" ]
tap_check $? "seq.bpf.c built natively and run in knee1 and capacity, a log per run" "exit $rc"

# every window: the sequence's answer, its clamp applied, in force next;
# knee1 (16 channels, 8 ms each): a window of 100 ms whose depth was d and
# before it p completes at most 12.5 x min(max(d, p), 16) + 16 IOs and at
# least 12 x min(min(d, p), 16) - 2 (a busy channel completes 12 or 13
# commands of 8 ms in 100 ms, as the window's start falls)
seqcheck() {
	awk -v knee="$2" 'BEGIN { split("3 0 100 8 64 65 5 2", A, " ") }
	function cl(x) { return x < 1 ? 1 : x > 64 ? 64 : x }
	/ printk: start / { if ($4 != 0) { print "start: i " $4 " (globals not fresh)"; bad = 1 } next }
	/ lunqsim: start / { prev = $9; if ($7 != 0 || $9 != 1) { print "start: " $0; bad = 1 } next }
	/ printk: seq / { i = $4; ans = $6; if ($8 != $10) { print "ktime " $10 " != now " $8; bad = 1 }
		if (n == 0 && i != 0) { print "first window i " i; bad = 1 }
		if ($12 != prev) { print "the policy saw depth " $12 ", applied " prev; bad = 1 } next }
	/ lunqsim: window / { n++; d = $17; a = $19; c = $21; ios = $7
		if (a != A[i % 8 + 1] || a != ans) { print "window " i ": answer " a " want " A[i % 8 + 1]; bad = 1 }
		if (c != cl(a)) { print "window " i ": applied " c " for " a; bad = 1 }
		if (d != prev) { print "window " i ": depth " d " in force, " prev " applied"; bad = 1 }
		if (knee && pd) { hi = (d > pd ? d : pd); lo = (d < pd ? d : pd)
			hi = hi > 16 ? 16 : hi; lo = lo > 16 ? 16 : lo
			if (ios > 12.5 * hi + 16 || ios < 12 * lo - 2) { print "window " i ": " ios " IOs at depth " d " after " pd; bad = 1 } }
		pd = d; prev = c; z += a == 0; ab += a > 64 }
	END { if (n < 10) bad = 1; print n, z + 1, ab > "/dev/stderr"; exit bad }' "$1"
}
seqcheck "$tmp/log/knee1.seq.log" 1 > "$tmp/k.bad" 2> "$tmp/k.cnt"
tap_check $? "knee1: $(cut -d' ' -f1 < "$tmp/k.cnt") windows, each the sequence's answer, its clamp to 1..64 the depth in force next, the IOs that depth allows (16 x 8 ms); ktime the window's" \
	"$(head -3 "$tmp/k.bad" | tr '\n' ';')"
seqcheck "$tmp/log/capacity.seq.log" 0 > "$tmp/c.bad" 2> "$tmp/c.cnt"
tap_check $? "capacity: the same, from i = 0 again (fresh globals in every run)" "$(head -3 "$tmp/c.bad" | tr '\n' ';')"
# the table's counts: the log's (start's 0 included)
ok=0
for s in knee1 capacity; do
	f=$([ $s = knee1 ] && echo "$tmp/k.cnt" || echo "$tmp/c.cnt")
	set -- $(cat "$f")
	awk -v sc=$s -v w="$1" -v z="$2" -v a="$3" '/^--- / { cur = $2 }
		cur == sc && $2 == "answers:" { found = 1; if ($1 != w + 1 || $3 != z || $6 != a) bad = 1 }
		END { exit !(found && !bad) }' "$tmp/seq.out" || ok=1
done
tap_check $ok "the answers of 0 and above 64 counted in the table as in the log ($(cat "$tmp/k.cnt"); $(cat "$tmp/c.cnt"))"
# the generator: the seed's
"$sim" --quick --policies "$fx/seq.bpf.c" --sweep 16 --bpf-log "$tmp/log" arena/scenarios/01-knee1.scn > /dev/null 2>&1
cp "$tmp/log/knee1.seq.log" "$tmp/s1"
"$sim" --quick --policies "$fx/seq.bpf.c" --sweep 16 --seed 2 --bpf-log "$tmp/log" arena/scenarios/01-knee1.scn > /dev/null 2>&1
cmp -s "$tmp/s1" "$tmp/log/knee1.seq.log"; same1=$?
awk '/printk: seq/ { print $NF }' "$tmp/s1" > "$tmp/r1"
awk '/printk: seq/ { print $NF }' "$tmp/log/knee1.seq.log" > "$tmp/r2"
"$sim" --quick --policies "$fx/seq.bpf.c" --sweep 16 --bpf-log "$tmp/log" arena/scenarios/01-knee1.scn > /dev/null 2>&1
cmp -s "$tmp/s1" "$tmp/log/knee1.seq.log" && [ $same1 != 0 ] &&
	[ "$(sort -u "$tmp/r1" | wc -l)" -ge 10 ] && ! cmp -s "$tmp/r1" "$tmp/r2"
tap_check $? "bpf_get_prandom_u32(): the same seed, the same numbers; another seed, others"

# --- aimd, kyber, parda, unchanged -----------------------------------------
mkdir -p "$tmp/pl"
"$sim" --quick --policies knee,policies/aimd.bpf.c,policies/kyber.bpf.c,policies/parda.bpf.c \
	--sweep 4,8,16,32 --bpf-log "$tmp/pl" > "$tmp/p.out" 2> "$tmp/p.err"
rc=$?
tap_quote "$tmp/p.out" "$tmp/p.err"
n=$(awk '$1 == "score" && ($3 == "aimd" || $3 == "kyber" || $3 == "parda")' "$tmp/p.out" | wc -l)
k=$(awk '$1 == "score" && $3 == "knee"' "$tmp/p.out" | wc -l)
[ $rc = 0 ] && [ "$k" -ge 6 ] && [ "$n" = $((3 * k)) ] && [ "$(ls "$tmp/pl" | wc -l)" = "$n" ]
tap_check $? "aimd, kyber, parda built natively, scored in every scenario knee is ($k simulated; $n scores), a log each" "exit $rc"
# t-bpf-policy's rules (the VM's check of the same policies), clamp 64
kyber() {
	awk 'function cl(x) { return x < 1 ? 1 : x > 64 ? 64 : x }
	/ lunqsim: window / { ns = $5; ios = $7; p99 = $9; wt = $13; d = $17 + 0; to = $21; w = d; n++
		if (ios && d) {
			if (p99 > 10000000) { w = int(d * 10000000 / p99); if (w >= d) w = d - 1; if (w < int(d / 2)) w = int(d / 2) }
			else if (p99 < 7500000 && 2 * wt >= ns) w = d + (int(d / 8) ? int(d / 8) : 1)
		}
		if (cl(w) != to) { print FILENAME ": " $0 " want " cl(w); bad = 1 } }
	END { exit bad || !n }' "$@"
}
parda() {
	awk '/ lunqsim: start / { w16 = $5 * 16 }
	/ lunqsim: window / { ios = $7; mean = $11; d = $17; to = $21; want = d; n++
		if (ios && mean) {
			w16 = int((20 * w16 + 80 * (int(20000000 * w16 / mean) + 32)) / 100)
			if (w16 > 64 * 16) w16 = 64 * 16
			want = int(w16 / 16); if (want < 1) want = 1
		}
		if (want != to) { print FILENAME ": " $0 " want " want; bad = 1 } }
	END { exit bad || !n }' "$1"
}
kyber "$tmp"/pl/*.kyber.log > "$tmp/ky.bad"
tap_check $? "kyber: every window ($(cat "$tmp"/pl/*.kyber.log | grep -c 'lunqsim: window')) its rule's answer, as t-bpf-policy recomputes it in the VM" "$(head -2 "$tmp/ky.bad" | tr '\n' ';')"
ok=0
for f in "$tmp"/pl/*.parda.log; do parda "$f" >> "$tmp/pa.bad" || ok=1; done
tap_check $ok "parda: every window PARDA's recomputed (w16 from 16 x the start's depth), as t-bpf-policy does" "$(head -2 "$tmp/pa.bad" | tr '\n' ';')"
ok=0
for f in "$tmp"/pl/*.aimd.log; do
	awk 'function cl(x) { return x < 1 ? 1 : x > 64 ? 64 : x }
	/ lunqsim: window / { ios = $7; qf = $15; d = $17; to = $21; n++
		if (qf) want = d; else { g += ios; up = int(g / 64); g -= up * 64; want = d + up }
		if (cl(want) != to) { print FILENAME ": " $0 " want " cl(want); bad = 1 } }
	END { exit bad || !n }' "$f" >> "$tmp/ai.bad" || ok=1
done
tap_check $ok "aimd: every window +1 per 64 IOs carried (no QUEUE FULL in lunqsim)" "$(head -2 "$tmp/ai.bad" | tr '\n' ';')"

# the .so of make -C sim policy: the same scores as the .bpf.c
make -s -C sim policy SRC="$top/policies/parda.bpf.c" OUT="$tmp/parda.so" > "$tmp/mk" 2>&1
"$sim" --quick --policies "$tmp/parda.so" --sweep 4,8,16,32 > "$tmp/so.out" 2>&1
grep '^score .* parda ' "$tmp/p.out" > "$tmp/want"
grep '^score .* parda ' "$tmp/so.out" > "$tmp/got"
[ -s "$tmp/want" ] && cmp -s "$tmp/want" "$tmp/got"
tap_check $? "make -C sim policy SRC=parda.bpf.c: its .so scores as the .bpf.c" "$(cat "$tmp/mk" | tr '\n' ';')"

# --random: their distributions with the others', their answers counted
"$sim" --random 12 --seed 5 --quick --sweep 4,16,64 \
	--policies knee,target,policies/aimd.bpf.c,policies/kyber.bpf.c,"$fx/seq.bpf.c" > "$tmp/rn.out" 2> "$tmp/rn.err"
rc=$?
tap_quote "$tmp/rn.out"
awk '$1 ~ /^(aimd|kyber|seq)$/ && $2 == 12 && $3 == "|" { d++ }
	$1 == "seq" && $2 == "answers" { a = $3 + 0; if ($4 + 0 >= 12 && $10 + 0 >= 12) c = 1 }
	$1 == "kyber" && $2 == "answers" { k = 1 }
	END { exit !(d == 3 && a > 100 && c && k) }' "$tmp/rn.out"
tap_check $? "--random 12: aimd, kyber, seq distributed over the 12 with knee's, their answers of 0 and above 64 counted" "exit $rc"

"$sim" --random 4 --seed 5 --quick --sweep 4,16,64 --json --policies knee,policies/kyber.bpf.c > "$tmp/j.out" 2> /dev/null
"$sim" --random 4 --seed 5 --quick --sweep 4,16,64 --policies knee,policies/kyber.bpf.c > "$tmp/t.out" 2> /dev/null
want=$(awk '$1 == "kyber" && $2 == "answers" { print $3 + 0, $4 + 0, $10 + 0 }' "$tmp/t.out")
got=$(python3 -c 'import json, sys; k = json.load(open(sys.argv[1]))["policies"]["kyber"]; print(k["answers"], k["zero_or_below"], k["above"])' "$tmp/j.out" 2> /dev/null)
[ -n "$want" ] && [ "$want" = "$got" ]
tap_check $? "--random --json: kyber's answers counted as in the text ($want)" "json: $got"

# --- what the shim does not cover: the compiler's words, exit 2 ------------
tap_cmd "$sim" "a policy with a BPF map: exit 2, the compiler's words" 2 \
	"shim has no BPF maps" --policies "$fx/map.bpf.c" arena/scenarios/01-knee1.scn
sed 's/return a;/return a + bpf_get_current_pid_tgid();/' "$fx/seq.bpf.c" > "$tmp/helper.bpf.c"
tap_cmd "$sim" "a helper not shimmed: exit 2, the compiler's words" 2 \
	"implicit declaration of function .bpf_get_current_pid_tgid" --policies "$tmp/helper.bpf.c" arena/scenarios/01-knee1.scn
sed 's|return a;|return a + 1000 / w->qfull;|' "$fx/seq.bpf.c" > "$tmp/div0.bpf.c"
tap_cmd "$sim" "a division by zero (BPF gives 0, natively a trap): exit 3, the policy, callback and time said" 3 \
	"policy seq: integer division by zero in its window callback at 0\\.[0-9]* s" --policies "$tmp/div0.bpf.c" arena/scenarios/01-knee1.scn
tap_cmd "$sim" "a .bpf.o: exit 2, give the .bpf.c" 2 "BPF bytecode.*give it that" \
	--policies knee,mine.bpf.o arena/scenarios/01-knee1.scn
echo 'int f(void) { return 1; }' > "$tmp/f.c"
${CC:-cc} -shared -fPIC -o "$tmp/f.so" "$tmp/f.c"
tap_cmd "$sim" "a .so that is not a policy: exit 2" 2 "not a policy built by sim/bpf/build-policy.sh" \
	--policies "$tmp/f.so" arena/scenarios/01-knee1.scn
