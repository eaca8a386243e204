/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq throttle policies: a family, as the service-time models are;
 * this is their interface (the dispatch is lunq_pol.h).
 * A policy decides the depth the throttle (lunq_throttle.h) holds; the
 * device (lunq_policy.c) calls the one in force and clamps each answer to
 * its limits before the throttle takes it.
 *
 * Every callback runs under the device's lock, with interrupts off: it
 * must not sleep, allocate or take locks.  Each returns the depth it wants
 * (0: no limit, only where the limits allow it).
 *
 *   start    the table was loaded or a "set" message changed keys (a
 *            built-in), or the policy was attached (BPF): it (re)starts
 *            from the table's values @p->val (enum lunq_key) and returns
 *            the depth to begin with.  A built-in may keep its state when
 *            none of its own keys changed.
 *   window   optional: the figures of a window of time (struct
 *            lunq_pol_window), cut by the window work (lunq_window.c)
 *            outside the IO path; the policy returns the depth for the
 *            next one.
 *   qfull    the LUN answered QUEUE FULL; @v->in_transport commands of
 *            this host are still out (the refused one not counted).
 *   stop     another policy takes over (or the device goes away).
 *
 * The built-ins (one file each, lunq_pol_*.c: fixed, linux, sd, sd-fc,
 * knee, target) also use the hooks below, which a policy loaded from
 * outside never gets: they run in the IO path or on the device's timer.
 *
 *   good       a command completed with good status (IO path)
 *   tick       a deadline the policy set (deadline) has come
 *   deadline   when tick next has work, 0: none
 *   steady     the policy will not move the depth on its own from IO
 *              completions or deadlines: the lock-free path may open
 *   settling   true while IOs sent at an old depth are still out and
 *              no window may begin (auto, after a move)
 *   win_ready  its own rule for a complete window (else win_ns)
 *   idle       a window that carried no information (win_ready's *idle)
 *   share      in a pool: the fair share of its slots until a time
 *              (lunq_pool_fair(), auto; the window work asks every tick)
 *   fill       its statistics (auto_*) into the device's status
 */
#ifndef LUNQ_POL_OPS_H
#define LUNQ_POL_OPS_H

#include <linux/types.h>
#include "lunq_react.h"
#include "lunq_auto.h"
#include "uapi/lunq.h"

/* What every callback may read.  Times in ns (monotonic). */
struct lunq_pol_view {
	u64 now;
	u32 depth;		/* the depth in force (0: no limit) */
	u32 min, max;		/* the limits answers are clamped to */
	u32 in_transport;	/* this host's commands outstanding below */
	u32 qfull;		/* qfull: the QUEUE FULLs this call reports
				 * (1; a BPF policy hears those of a tick at
				 * once), 0 elsewhere
				 */
};

/* One window's figures (differences over the window), read-only. */
struct lunq_pol_window {
	struct lunq_pol_view v;
	u64 ns;			/* its length */
	u64 ios;		/* reads and writes completed in it */
	u64 iops;		/* ios per second */
	u64 svc_mean_ns;	/* their mean service time (sent to done) */
	u64 svc_p99_ns;		/* their service p99 */
	u64 svc_sum_ns;		/* their service times summed */
	u64 wait_ns;		/* time with at least one IO waiting */
	u64 qfull;		/* QUEUE FULL answers */
};

/* The policies' state: each uses its own part. */
struct lunq_pol {
	const struct lunq_policy_ops *ops;
	const u32 *val;		/* the table's values (enum lunq_key) */
	u32 min, max;		/* the limits (lunq_policy.c) */
	bool rebase;		/* restarted: the next window starts afresh */
	bool ext;		/* @ops from outside (BPF): only start, window,
				 * qfull and stop, never in the IO path
				 */
	u32 qfull_pending;	/* ext: QUEUE FULLs for the next window tick */
	struct lunq_react react;	/* fixed, linux, sd, sd-fc */
	struct lunq_auto autoc;		/* knee, target */
};

struct lunq_policy_ops {
	/* every policy; the only ones a BPF policy may implement */
	u32 (*start)(struct lunq_pol *p, const struct lunq_pol_view *v);
	u32 (*window)(struct lunq_pol *p, const struct lunq_pol_window *w);
	u32 (*qfull)(struct lunq_pol *p, const struct lunq_pol_view *v);
	void (*stop)(struct lunq_pol *p);
	/* built-ins only */
	u32 (*good)(struct lunq_pol *p, u64 now);
	u32 (*tick)(struct lunq_pol *p, u64 now);
	u64 (*deadline)(const struct lunq_pol *p);
	bool (*steady)(const struct lunq_pol *p);
	bool (*settling)(const struct lunq_pol *p, u64 now);
	bool (*win_ready)(const struct lunq_pol *p, u64 ns, u64 ios,
			  bool *idle);
	u32 (*idle)(struct lunq_pol *p, u64 now);
	u32 (*share)(struct lunq_pol *p, u64 now, u32 fair, u64 until,
		     bool busy);
	void (*fill)(const struct lunq_pol *p, u64 *v, u64 now);
	/* the limits the device clamps to, from the table's values */
	void (*limits)(const u32 *val, u32 *min, u32 *max);
	char name[LUNQ_POL_NAME];
	/* a BPF policy: the device it attaches to (lunq_bpf.c) */
	char dev[LUNQ_NAME_MAX];
};

/* Shared by the built-ins: the reactions (lunq_pol_react.c) ... */
u32 lunq_pol_react_start(struct lunq_pol *p, const struct lunq_pol_view *v);
u32 lunq_pol_react_qfull(struct lunq_pol *p, const struct lunq_pol_view *v);
u32 lunq_pol_react_good(struct lunq_pol *p, u64 now);
u32 lunq_pol_react_tick(struct lunq_pol *p, u64 now);
u64 lunq_pol_react_deadline(const struct lunq_pol *p);
void lunq_pol_react_limits(const u32 *val, u32 *min, u32 *max);
/* ... and auto (lunq_pol_auto.c): one controller, two names */
u32 lunq_pol_auto_start(struct lunq_pol *p, const struct lunq_pol_view *v);
void lunq_pol_auto_stop(struct lunq_pol *p);
u32 lunq_pol_auto_window(struct lunq_pol *p, const struct lunq_pol_window *w);
u32 lunq_pol_auto_qfull(struct lunq_pol *p, const struct lunq_pol_view *v);
bool lunq_pol_auto_settling(const struct lunq_pol *p, u64 now);
bool lunq_pol_auto_win_ready(const struct lunq_pol *p, u64 ns, u64 ios,
			     bool *idle);
u32 lunq_pol_auto_idle(struct lunq_pol *p, u64 now);
u32 lunq_pol_auto_share(struct lunq_pol *p, u64 now, u32 fair, u64 until,
			bool busy);
void lunq_pol_auto_fill(const struct lunq_pol *p, u64 *v, u64 now);
void lunq_pol_auto_limits(const u32 *val, u32 *min, u32 *max);

#define LUNQ_POL_AUTO_OPS(n) {				\
	.name = n,					\
	.start = lunq_pol_auto_start,			\
	.window = lunq_pol_auto_window,			\
	.qfull = lunq_pol_auto_qfull,			\
	.stop = lunq_pol_auto_stop,			\
	.settling = lunq_pol_auto_settling,		\
	.win_ready = lunq_pol_auto_win_ready,		\
	.idle = lunq_pol_auto_idle,			\
	.share = lunq_pol_auto_share,			\
	.fill = lunq_pol_auto_fill,			\
	.limits = lunq_pol_auto_limits,			\
}

/* When the policy's tick has work next, 0: none. */
static inline u64 lunq_pol_deadline(const struct lunq_pol *p)
{
	return p->ops && p->ops->deadline ? p->ops->deadline(p) : 0;
}

/* Whether no window may begin yet (IOs of an old depth still out). */
static inline bool lunq_pol_settling(const struct lunq_pol *p, u64 now)
{
	return p->ops && p->ops->settling && p->ops->settling(p, now);
}

/* Whether the policy leaves the depth alone between windows. */
static inline bool lunq_pol_steady(const struct lunq_pol *p)
{
	return !p->ops || !p->ops->steady || p->ops->steady(p);
}

/* Clamp a policy's answer @d to [@min, @max] (@max 0: no limit). */
static inline u32 lunq_pol_clamp(u32 d, u32 min, u32 max)
{
	if (!max)
		return d;
	if (d < min)
		return min;
	return d > max ? max : d;
}

#endif /* LUNQ_POL_OPS_H */
