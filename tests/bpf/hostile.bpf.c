// SPDX-License-Identifier: GPL-2.0
/*
 * Hostile policies for tests/vm/t-bpf-watchdog.sh: each breaks one rule of
 * lunq's watchdog (kmod/lunq_wd.h), which must eject it while IO goes on.
 * Built four times (make policies):
 *  -DHOSTILE_SPIN   "hspin":  its window callback spins 2 x 8 M iterations
 *                   of bpf_loop (the most one call allows), far past the
 *                   50 ms a callback may take;
 *  -DHOSTILE_FLOOR  "hfloor": holds the depth at 1 (auto_min:1) whatever
 *                   waits; timeout_ms 1000;
 *  -DHOSTILE_STALL  "hstall": holds the depth at 2 over a LUN that takes
 *                   seconds a command: nothing is sent; timeout_ms 1000;
 *  -DHOSTILE_BIGTO  "hbigto": asks a timeout_ms above the 30 s ceiling,
 *                   refused at registration.
 */
#include "lunq_policy.bpf.h"

#if defined(HOSTILE_SPIN)
#define SPIN_LOOPS	(1 << 23)	/* bpf_loop's most iterations */

/* an empty body: the verifier checks it once, the CPU runs it 8 M times */
static long spin_one(__u64 i, void *ctx)
{
	return 0;
}
#endif

static __always_inline __u32 answer(__u32 depth)
{
#if defined(HOSTILE_FLOOR)
	return 1;
#elif defined(HOSTILE_STALL)
	return 2;
#else
	return depth;
#endif
}

SEC("struct_ops/h_start")
__u32 BPF_PROG(h_start, const struct lunq_pol_dev *dev, const struct lunq_pol_view *v)
{
	return answer(v->depth);
}

SEC("struct_ops/h_window")
__u32 BPF_PROG(h_window, const struct lunq_pol_dev *dev, const struct lunq_pol_window *w)
{
#if defined(HOSTILE_SPIN)
	long n;

	n = bpf_loop(SPIN_LOOPS, spin_one, NULL, 0);
	n += bpf_loop(SPIN_LOOPS, spin_one, NULL, 0);
	return w->v.depth + (n < 0 ? 1 : 0);
#else
	return answer(w->v.depth);
#endif
}

SEC("struct_ops/h_qfull")
__u32 BPF_PROG(h_qfull, const struct lunq_pol_dev *dev, const struct lunq_pol_view *v)
{
	return answer(v->depth);
}

#if defined(HOSTILE_SPIN)
LUNQ_POLICY(hspin, .start = (void *)h_start, .window = (void *)h_window,
	    .qfull = (void *)h_qfull);
#elif defined(HOSTILE_FLOOR)
LUNQ_POLICY(hfloor, .start = (void *)h_start, .window = (void *)h_window,
	    .qfull = (void *)h_qfull, .timeout_ms = 1000);
#elif defined(HOSTILE_STALL)
LUNQ_POLICY(hstall, .start = (void *)h_start, .window = (void *)h_window,
	    .qfull = (void *)h_qfull, .timeout_ms = 1000);
#else
LUNQ_POLICY(hbigto, .start = (void *)h_start, .window = (void *)h_window,
	    .qfull = (void *)h_qfull, .timeout_ms = 40000);
#endif
