// SPDX-License-Identifier: GPL-2.0
/*
 * kyber: a latency target, as the Kyber I/O scheduler sets its depths.
 * A window whose service p99 is over target_ns scales the depth by
 * target / p99 (at least 1 less, at most half); one well under the target
 * (3/4) whose IOs waited for half of it or more (the depth binds) adds an
 * eighth (at least 1).
 */
#include "lunq_policy.bpf.h"

const volatile __u64 target_ns = 10000000;	/* service p99 goal: 10 ms */

SEC("struct_ops/kyber_window")
__u32 BPF_PROG(kyber_window, const struct lunq_pol_dev *dev, const struct lunq_pol_window *w)
{
	__u32 d = w->v.depth;
	__u64 p99 = w->svc_p99_ns;
	__u64 n;

	if (!w->ios || !d)
		return d;
	if (p99 > target_ns) {
		n = d * target_ns / p99;
		if (n >= d)
			n = d - 1;
		if (n < d / 2)
			n = d / 2;
		return n;
	}
	if (p99 < target_ns * 3 / 4 && 2 * w->wait_ns >= w->ns)
		return d + (d / 8 ?: 1);
	return d;
}

LUNQ_POLICY(kyber, .window = (void *)kyber_window);
