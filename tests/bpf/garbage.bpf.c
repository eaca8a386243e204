// SPDX-License-Identifier: GPL-2.0
/*
 * Garbage policies for tests/vm/t-bpf-policy.sh: answers the kernel must
 * clamp to auto_min..auto_max without losing, repeating or corrupting an
 * IO.  Built three times (make policies): -DGARBAGE_ZERO answers 0,
 * -DGARBAGE_HUGE 10^9, -DGARBAGE_RANDOM a different number (0..11) every
 * call, each printed by bpf_printk() as "garbage answers N" (what
 * tests/vm/t-arena-bpf.sh finds in the arena's trace beside the answers).
 */
#include "lunq_policy.bpf.h"

static __always_inline __u32 answer(void)
{
#if defined(GARBAGE_ZERO)
	return 0;
#elif defined(GARBAGE_HUGE)
	return 1000000000;
#else
	/* 0..11: below, inside and above the tests' 2..6, every call anew */
	__u32 a = bpf_get_prandom_u32() % 12;

	bpf_printk("garbage answers %u", a);
	return a;
#endif
}

SEC("struct_ops/g_start")
__u32 BPF_PROG(g_start, const struct lunq_pol_dev *dev, const struct lunq_pol_view *v)
{
	return answer();
}

SEC("struct_ops/g_window")
__u32 BPF_PROG(g_window, const struct lunq_pol_dev *dev, const struct lunq_pol_window *w)
{
	return answer();
}

SEC("struct_ops/g_qfull")
__u32 BPF_PROG(g_qfull, const struct lunq_pol_dev *dev, const struct lunq_pol_view *v)
{
	return answer();
}

LUNQ_POLICY(garbage, .start = (void *)g_start, .window = (void *)g_window,
	    .qfull = (void *)g_qfull);
