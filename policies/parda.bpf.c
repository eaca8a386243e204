// SPDX-License-Identifier: GPL-2.0
/*
 * parda: PARDA's window (Gulati, Ahmad, Waldspurger, FAST '09), the depth
 * as a window on latency: w <- (1 - g) w + g (L / L(t) w + beta), with L
 * the latency aimed at, L(t) the window's mean service time, g = 0.8 and
 * beta this host's share.  Kept x16 so a fraction survives a window.
 */
#include "lunq_policy.bpf.h"

const volatile __u64 latency_ns = 20000000;	/* L: 20 ms */
const volatile __u32 gamma_pct = 80;		/* g = 0.8 */
const volatile __u32 beta = 2;			/* the share */

__u64 w16;					/* the window, x16 */

SEC("struct_ops/parda_start")
__u32 BPF_PROG(parda_start, const struct lunq_pol_dev *dev, const struct lunq_pol_view *v)
{
	w16 = (__u64)(v->depth ?: v->max) * 16;
	return v->depth;
}

SEC("struct_ops/parda_window")
__u32 BPF_PROG(parda_window, const struct lunq_pol_dev *dev, const struct lunq_pol_window *w)
{
	__u64 lt = w->svc_mean_ns;

	if (!w->ios || !lt)
		return w->v.depth;
	w16 = ((100 - gamma_pct) * w16 +
	       gamma_pct * (latency_ns * w16 / lt + 16 * beta)) / 100;
	if (w16 > (__u64)w->v.max * 16)	/* the kernel clamps the answer; */
		w16 = (__u64)w->v.max * 16;	/* the window stays near it */
	return w16 / 16;
}

LUNQ_POLICY(parda, .start = (void *)parda_start, .window = (void *)parda_window);
