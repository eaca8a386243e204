#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# build-policy.sh SRC.bpf.c OUT.so: a lunq policy's .bpf.c, unchanged, as a
# shared object lunqsim runs (doc/lunqsim.md, "Your own policy"): compiled
# natively against sim/bpf/bpf/ (the helpers, before libbpf's) and
# policies/lunq_policy.bpf.h, its LUNQ_POLICY() struct's section renamed
# so that rt.c finds it.  The compiler's words on stderr, exit 1 on error.
set -e
[ $# -eq 2 ] || { echo "usage: $0 SRC.bpf.c OUT.so" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
cc=${CC:-cc}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/lunqsim-pol.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
# __u64 as BPF has it (unsigned long long: bpf_printk's %llu)
$cc -O2 -g -fPIC -Wall -Wno-attributes -Wno-unused-parameter -D__SANE_USERSPACE_TYPES__ \
	-Werror=implicit-function-declaration -Werror=implicit-int \
	-I"$here" -I"$here/../../policies" -c "$1" -o "$tmp/pol.o"
objcopy --rename-section .struct_ops.link=lunqsim_ops "$tmp/pol.o"
$cc -O2 -g -fPIC -Wall -I"$here" -c "$here/rt.c" -o "$tmp/rt.o"
$cc -shared -Wl,-Bsymbolic -o "$2" "$tmp/pol.o" "$tmp/rt.o"
