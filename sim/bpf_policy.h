/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A BPF policy's .bpf.c run by lunqsim natively (bpf_policy.c, sim/bpf/):
 * loaded once, opened afresh for every run (its globals as a new attach
 * finds them), given the views lunq_window.c gives it, its answers
 * clamped to min..max and counted as kmod/lunq_pol.c counts them.
 */
#ifndef SIM_BPF_POLICY_H
#define SIM_BPF_POLICY_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

/* struct lunq_pol_view's fields (policies/lunq_policy.bpf.h) */
struct bpol_view {
	uint64_t now;
	uint32_t depth, min, max, in_transport, qfull;
};

/* struct lunq_pol_window's */
struct bpol_window {
	struct bpol_view v;
	uint64_t ns, ios, iops, svc_mean_ns, svc_p99_ns, svc_sum_ns, wait_ns;
	uint64_t qfull, svc_min_ns, svc_p50_ns, inflight_x1000;
	uint64_t lunq_wait_mean_ns, lunq_wait_p99_ns;
	uint32_t pool_depth, pool_busy, pool_share, lunq_waiting;
	uint64_t lunq_wait_oldest_ns, run_ios, run_svc_p99_ns;
};

/* one run of a policy */
struct bpol_run {
	void *dl;
	const void *ops;
	FILE *log;		/* --bpf-log: its bpf_printk lines, the depths applied */
	uint64_t rng, now;
	uint32_t min, max;
	/* its answers; those of 0, below min (not 0), above max */
	uint64_t answers, zero, below, above;
	char env[64];		/* struct lunqsim_bpf_env */
};

/*
 * @arg: a .bpf.c (built by sim/bpf/build-policy.sh) or a .so it built.
 * Returns the policy's index, its LUNQ_POLICY() name in @name; -1 after
 * saying why on stderr.
 */
int bpol_load(const char *arg, const char **name);
int bpol_find(const char *name);
/* a run of policy @i (seed @seed for bpf_get_prandom_u32), @log or NULL */
int bpol_open(struct bpol_run *r, int i, uint64_t seed, FILE *log,
	      uint32_t min, uint32_t max);
uint32_t bpol_start(struct bpol_run *r, const struct bpol_view *v);
bool bpol_has_window(const struct bpol_run *r);
uint32_t bpol_window(struct bpol_run *r, const struct bpol_window *w);
void bpol_close(struct bpol_run *r);

#endif /* SIM_BPF_POLICY_H */
