// SPDX-License-Identifier: GPL-2.0
/*
 * aimd: VMware's adaptive queue depth (QFullSampleSize, QFullThreshold):
 * after qfull_sample QUEUE FULLs, halve the depth; after good_threshold
 * good completions without one, add 1.  Additive increase, multiplicative
 * decrease, as TCP's congestion window.
 */
#include "lunq_policy.bpf.h"

const volatile __u32 qfull_sample = 4;		/* QUEUE FULLs per halving */
const volatile __u32 good_threshold = 64;	/* completions per +1 */

__u32 qfulls, goods;

SEC("struct_ops/aimd_start")
__u32 BPF_PROG(aimd_start, struct lunq_pol *p, const struct lunq_pol_view *v)
{
	qfulls = 0;
	goods = 0;
	return v->depth;
}

SEC("struct_ops/aimd_qfull")
__u32 BPF_PROG(aimd_qfull, struct lunq_pol *p, const struct lunq_pol_view *v)
{
	goods = 0;
	qfulls += v->qfull;
	if (qfulls < qfull_sample)
		return v->depth;
	qfulls = 0;
	return v->depth / 2;		/* the kernel keeps it >= min */
}

SEC("struct_ops/aimd_window")
__u32 BPF_PROG(aimd_window, struct lunq_pol *p, const struct lunq_pol_window *w)
{
	__u32 up;

	if (w->qfull)
		return w->v.depth;	/* qfull decides this window */
	goods += w->ios;
	up = goods / good_threshold;
	goods -= up * good_threshold;
	return w->v.depth + up;	/* and <= max */
}

LUNQ_POLICY(aimd, .start = (void *)aimd_start, .qfull = (void *)aimd_qfull,
	    .window = (void *)aimd_window);
