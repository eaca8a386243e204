/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What lunqsim gives a policy built natively (sim/bpf/): the helpers the
 * shim's bpf_helpers.h maps to, set by the simulator before each run
 * (sim/bpf_policy.c), and the section its LUNQ_POLICY() struct is moved
 * to (build-policy.sh) so that the runtime finds it.
 */
#ifndef LUNQSIM_BPF_H
#define LUNQSIM_BPF_H

#include <stdarg.h>
#include <stdint.h>

struct lunqsim_bpf_env {
	void *ctx;					/* the run's */
	void (*printk)(void *ctx, const char *fmt, va_list ap);
	uint32_t (*prandom)(void *ctx);			/* the run's seeded generator */
	uint64_t (*ktime)(void *ctx);			/* simulated ns */
};

/* in each policy's .so (rt.c): where the simulator sets the env */
extern struct lunqsim_bpf_env *lunqsim_bpf_env;
/* the policy's LUNQ_POLICY() struct (struct lunq_policy_ops) */
const void *lunqsim_bpf_ops(void);

int lunqsim_bpf_printk(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
uint32_t lunqsim_bpf_prandom(void);
uint64_t lunqsim_bpf_ktime(void);

#endif /* LUNQSIM_BPF_H */
