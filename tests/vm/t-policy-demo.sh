# Demonstration 11 (tests/demo/policy.sh --quick --check): the BPF policy
# aimd against auto:knee, static 16 and the oracle on 6D's hostile case;
# checks that every run finished, that the BPF policy moved the depth and
# that policy.json parses.  Kernels without BPF struct_ops from modules
# (6.1, RT): SKIP naming it.
# group: bpf
# time: 45
# (6.1 and RT skip at once; 6.12 about 90 s: the budget's matrix term, 2 x
# this, covers both)
. "$LUNQ_SRC/tests/vm/lib.sh"

[ "$(cat /sys/module/dm_lunq/parameters/bpf_policies 2>/dev/null)" = Y ] ||
	skip "$(uname -r): no BPF struct_ops registered by modules (Linux 6.9+ with module BTF)"
sh "$LUNQ_SRC/tests/demo/policy.sh" --quick --check -o /tmp/policy > /tmp/policy.log 2>&1
rc=$?
demo_output /tmp/policy.log
demo_checks /tmp/policy.log 3 "policy.sh exit $rc"
[ $rc = 0 ] || fail "policy.sh exit $rc"
grep -q '^  aimd ' /tmp/policy.log && grep -q '^  oracle ' /tmp/policy.log || fail "the table lacks aimd or oracle"
ok "policy.sh: 3 checks, the table of 6D with aimd"
