/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lunq throttle policies in BPF: what a policy sees and implements.
 * kmod/dm-lunq.rst, "Write your own policy", explains it line by line;
 * the kernel's side is kmod/lunq_pol_ops.h (these are its types, read
 * through CO-RE: only the fields named here, by name).
 *
 * Build: clang -O2 -g -target bpf -D__TARGET_ARCH_x86 \
 *          -I<libbpf headers> -c my.bpf.c -o my.bpf.o   (make policies)
 * Load:  lunqctl policy attach NAME my.bpf.o
 */
#ifndef LUNQ_POLICY_BPF_H
#define LUNQ_POLICY_BPF_H

#include <linux/types.h>
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>

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
	__u64 wait_ns;		/* time with at least one IO waiting */
	__u64 qfull;		/* QUEUE FULL answers */
} __attribute__((preserve_access_index));

struct lunq_pol;		/* the device's state: not for policies */

/* The callbacks a policy may implement; each returns the depth it wants. */
struct lunq_policy_ops {
	__u32 (*start)(struct lunq_pol *p, const struct lunq_pol_view *v);
	__u32 (*window)(struct lunq_pol *p, const struct lunq_pol_window *w);
	__u32 (*qfull)(struct lunq_pol *p, const struct lunq_pol_view *v);
	void (*stop)(struct lunq_pol *p);
	char name[16];		/* shown by lunqctl policy show */
	char dev[160];		/* filled in by lunqctl policy attach */
};

#define LUNQ_POLICY(nm, ...)						\
	SEC(".struct_ops.link") struct lunq_policy_ops nm = {		\
		.name = #nm, __VA_ARGS__ }

char _license[] SEC("license") = "GPL";

#endif /* LUNQ_POLICY_BPF_H */
