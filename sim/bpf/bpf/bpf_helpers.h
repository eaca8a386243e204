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

/* BPF maps: not shimmed; a policy with one runs in the VM only */
#define LUNQSIM_NO_MAPS "lunqsim's shim has no BPF maps: this policy runs in the VM only (doc/lunqsim.md, \"Your own policy\")"
#define __uint(name, val) _Static_assert(0, LUNQSIM_NO_MAPS);
#define __type(name, val) _Static_assert(0, LUNQSIM_NO_MAPS);
#define __array(name, val) _Static_assert(0, LUNQSIM_NO_MAPS);
void *bpf_map_lookup_elem(void *map, const void *key) __attribute__((error(LUNQSIM_NO_MAPS)));
long bpf_map_update_elem(void *map, const void *key, const void *value, unsigned long long flags)
	__attribute__((error(LUNQSIM_NO_MAPS)));
long bpf_map_delete_elem(void *map, const void *key) __attribute__((error(LUNQSIM_NO_MAPS)));

/* the run's log (lunqsim --bpf-log DIR), a line per call */
#define bpf_printk(fmt, ...) lunqsim_bpf_printk(fmt, ##__VA_ARGS__)
/* the run's seeded generator: the same seed, the same numbers */
#define bpf_get_prandom_u32() lunqsim_bpf_prandom()
/* simulated time, ns */
#define bpf_ktime_get_ns() ((unsigned long long)lunqsim_bpf_ktime())

#endif /* LUNQSIM_BPF_HELPERS_H */
