/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunq throttle policies in BPF: what a policy sees and implements.
 * doc/policies.md ("Write your own policy") explains it line by line;
 * the kernel's side is kmod/lunq_pol_ops.h, whose kernel-doc describes
 * every field and callback (these are its types, read through CO-RE: only
 * the fields named here, by name, so a policy built against this header
 * keeps loading on a module whose views have grown).
 *
 * Build, from the repository's root after `make deps` (exactly what
 * `make policies` runs):
 *   clang -O2 -g -Wall -target bpf -D__TARGET_ARCH_x86 \
 *     -Ibuild/bpf/include -Ipolicies \
 *     -idirafter /usr/include/$(gcc -dumpmachine) -c mine.bpf.c -o mine.bpf.o
 * Load:  lunqctl policy attach DEVICE mine.bpf.o
 */
#ifndef LUNQ_POLICY_BPF_H
#define LUNQ_POLICY_BPF_H

#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "../kmod/uapi/lunq.h"	/* LUNQ_NAME_MAX, LUNQ_POL_NAME */

/* The device a callback is about, read-only. */
struct lunq_pol_dev {
	__u32 id;			/* unique among lunq devices */
	char name[LUNQ_NAME_MAX];	/* the dm device's name */
} __attribute__((preserve_access_index));

/* What every callback may read.  Times in ns (the kernel's monotonic). */
struct lunq_pol_view {
	__u64 now;
	__u32 depth;		/* the depth in force (0: no limit) */
	__u32 min, max;		/* every answer is clamped to these */
	__u32 in_transport;	/* this host's commands outstanding below */
	__u32 qfull;		/* qfull: the QUEUE FULLs since the last call */
} __attribute__((preserve_access_index));

/* One window's figures (about every 100 ms), read-only. */
struct lunq_pol_window {
	struct lunq_pol_view v;
	__u64 ns;		/* its length */
	__u64 ios;		/* reads and writes completed in it */
	__u64 iops;		/* ios per second */
	__u64 svc_mean_ns;	/* their mean service time (sent to done) */
	__u64 svc_p99_ns;	/* their service p99 */
	__u64 svc_sum_ns;	/* their service times summed */
	__u64 wait_ns;		/* time with at least one IO waiting in lunq */
	__u64 qfull;		/* QUEUE FULL answers */
	__u64 svc_min_ns;	/* their least service time */
	__u64 svc_p50_ns;	/* their median service time */
	__u64 inflight_x1000;	/* mean commands in flight below, x 1000 */
	__u64 lunq_wait_mean_ns;	/* mean wait in lunq before sending */
	__u64 lunq_wait_p99_ns;	/* its p99 */
	__u32 pool_depth;	/* the pool's slots (0: not in a pool) */
	__u32 pool_busy;	/* its busy devices */
	__u32 pool_share;	/* this device's share of its slots */
	__u32 lunq_waiting;	/* commands waiting in lunq now */
	__u64 lunq_wait_oldest_ns;	/* how long the oldest has waited */
	__u64 run_ios;		/* completed at this depth: the windows since it was set */
	__u64 run_svc_p99_ns;	/* their service p99 */
} __attribute__((preserve_access_index));

/* The callbacks a policy may implement; each returns the depth it wants. */
struct lunq_policy_ops {
	__u32 (*start)(const struct lunq_pol_dev *d,
		       const struct lunq_pol_view *v);
	__u32 (*window)(const struct lunq_pol_dev *d,
			const struct lunq_pol_window *w);
	__u32 (*qfull)(const struct lunq_pol_dev *d,
		       const struct lunq_pol_view *v);
	void (*stop)(const struct lunq_pol_dev *d);
	char name[LUNQ_POL_NAME];	/* lunqctl policy show; its map's name */
	__u32 timeout_ms;	/* the watchdog's timeout: 0 is 10 s, 30 s at most */
};

#define LUNQ_POLICY(nm, ...)						\
	SEC(".struct_ops.link") struct lunq_policy_ops nm = {		\
		.name = #nm, __VA_ARGS__ }

char _license[] SEC("license") = "GPL";

#endif /* LUNQ_POLICY_BPF_H */
