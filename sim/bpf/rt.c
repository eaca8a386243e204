// SPDX-License-Identifier: GPL-2.0
/*
 * The runtime linked into each natively built policy (build-policy.sh):
 * the helpers, through the env the simulator sets, and the policy's
 * struct, found at the start of the section LUNQ_POLICY() put it in.
 */
#include "lunqsim_bpf.h"

struct lunqsim_bpf_env *lunqsim_bpf_env;

/* build-policy.sh renames .struct_ops.link to lunqsim_ops; ld bounds it */
extern const char __start_lunqsim_ops[] __attribute__((weak, visibility("hidden")));
extern const char __stop_lunqsim_ops[] __attribute__((weak, visibility("hidden")));

const void *lunqsim_bpf_ops(void)
{
	return &__start_lunqsim_ops[0] != &__stop_lunqsim_ops[0] ? __start_lunqsim_ops : 0;
}

int lunqsim_bpf_printk(const char *fmt, ...)
{
	va_list ap;

	if (!lunqsim_bpf_env || !lunqsim_bpf_env->printk)
		return 0;
	va_start(ap, fmt);
	lunqsim_bpf_env->printk(lunqsim_bpf_env->ctx, fmt, ap);
	va_end(ap);
	return 0;
}

uint32_t lunqsim_bpf_prandom(void)
{
	return lunqsim_bpf_env ? lunqsim_bpf_env->prandom(lunqsim_bpf_env->ctx) : 0;
}

uint64_t lunqsim_bpf_ktime(void)
{
	return lunqsim_bpf_env ? lunqsim_bpf_env->ktime(lunqsim_bpf_env->ctx) : 0;
}
