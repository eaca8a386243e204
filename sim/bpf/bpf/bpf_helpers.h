/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunqsim's stand-in for libbpf's <bpf/bpf_helpers.h>, found before it
 * when a policy's .bpf.c is built natively (sim/bpf/build-policy.sh): the
 * helpers lunq's policies use, on the simulator's run.  What is not here
 * (maps: __uint, __type, bpf_map_*; other helpers) does not compile --
 * the policy runs in the VM only (doc/lunqsim.md, "Your own policy").
 */
#ifndef LUNQSIM_BPF_HELPERS_H
#define LUNQSIM_BPF_HELPERS_H

#include "../lunqsim_bpf.h"

/* the section a program or struct goes in: LUNQ_POLICY()'s is kept */
#define SEC(name) __attribute__((section(name), used))
#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif
#ifndef __weak
#define __weak __attribute__((weak))
#endif

/* the run's log (lunqsim --bpf-log DIR), a line per call */
#define bpf_printk(fmt, ...) lunqsim_bpf_printk(fmt, ##__VA_ARGS__)
/* the run's seeded generator: the same seed, the same numbers */
#define bpf_get_prandom_u32() lunqsim_bpf_prandom()
/* simulated time, ns */
#define bpf_ktime_get_ns() lunqsim_bpf_ktime()

#endif /* LUNQSIM_BPF_HELPERS_H */
