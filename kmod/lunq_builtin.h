/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq throttle policies: the built-ins' interface (kernel-internal),
 * a superset of struct lunq_policy_ops (lunq_pol_ops.h) on the device's
 * private state, and the built-ins themselves: the reactions
 * (lunq_pol_react.c) and auto (lunq_pol_auto.c).  The dispatch that
 * calls them is lunq_pol.h's.
 */
#ifndef LUNQ_BUILTIN_H
#define LUNQ_BUILTIN_H

#include "lunq_pol_ops.h"
#include "lunq_react.h"
#include "lunq_auto.h"
#include "lunq_wd.h"

struct lunq_evq;

/* Which hook asked the policy (the trace event lunq_pol_answer). */
enum lunq_pol_hook {
	LUNQ_PH_START,
	LUNQ_PH_WINDOW,
	LUNQ_PH_QFULL,
	LUNQ_PH_GOOD,
	LUNQ_PH_TICK,
	LUNQ_PH_IDLE,
	LUNQ_PH_SHARE,
	LUNQ_PH_STARVED,
};

/* The policies' state: the device's, private; each built-in uses its part. */
struct lunq_pol {
	const struct lunq_builtin *bi;	/* the table's built-in, or ... */
	const struct lunq_policy_ops *ext;	/* ... one from outside (BPF) */
	struct lunq_pol_dev dev;	/* what @ext's callbacks get */
	const struct lunq_evq *evq;	/* names the device in the trace */
	const u32 *val;		/* the table's values (enum lunq_key) */
	u32 min, max;		/* the limits answers are clamped to */
	/* its answers the limits changed, since it took over: 0, below, above */
	u64 ans_zero, ans_below, ans_above;
	bool rebase;		/* restarted: the next window starts afresh */
	u32 qfull_pending;	/* ext: QUEUE FULLs for the next window tick */
	struct lunq_wd wd;	/* ext: the watchdog (lunq_wd.h) */
	struct lunq_react react;	/* the reactions: fixed, linux, sd, sd-fc */
	struct lunq_auto autoc;		/* auto: knee, target */
};

/**
 * struct lunq_builtin - a built-in throttle policy (kernel-internal)
 *
 * The callbacks of struct lunq_policy_ops on the device's private state,
 * and the hooks only a built-in gets: they run in the IO path or on the
 * device's timer.  All under the device's lock, interrupts off; each hook
 * returning u32 returns the depth it wants.  A hook left out keeps the
 * depth in force.
 */
struct lunq_builtin {
	/** @name: the policy's name (lunqctl policy show) */
	char name[LUNQ_POL_NAME];
	/**
	 * @limits: the limits the device clamps to, from the table's values
	 * (required)
	 */
	void (*limits)(const u32 *val, u32 *min, u32 *max);
	/**
	 * @start: the table was loaded or a "set" message changed keys:
	 * (re)start from the table's values @p->val; may keep its state when
	 * none of its own keys changed (required)
	 */
	u32 (*start)(struct lunq_pol *p, const struct lunq_pol_view *v);
	/** @window: as struct lunq_policy_ops's */
	u32 (*window)(struct lunq_pol *p, const struct lunq_pol_window *w);
	/** @qfull: QUEUE FULL, heard at once in the IO path */
	u32 (*qfull)(struct lunq_pol *p, const struct lunq_pol_view *v);
	/** @stop: another policy takes over (or the device goes away) */
	void (*stop)(struct lunq_pol *p);
	/** @good: a command completed with good status (IO path) */
	u32 (*good)(struct lunq_pol *p, u64 now);
	/** @tick: a deadline the policy set (@deadline) has come */
	u32 (*tick)(struct lunq_pol *p, u64 now);
	/** @deadline: when @tick next has work, 0: none */
	u64 (*deadline)(const struct lunq_pol *p);
	/**
	 * @steady: the policy will not move the depth on its own from IO
	 * completions or deadlines: the lock-free path may open
	 */
	bool (*steady)(const struct lunq_pol *p);
	/**
	 * @settling: true while IOs sent at an old depth are still out and no
	 * window may begin (auto, after a move)
	 */
	bool (*settling)(const struct lunq_pol *p, u64 now);
	/** @win_ready: its own rule for a complete window (else 100 ms) */
	bool (*win_ready)(const struct lunq_pol *p, u64 ns, u64 ios,
			  u64 wait_ns, u64 act_ns, bool *idle);
	/** @idle: a window that carried no information (@win_ready's *idle) */
	u32 (*idle)(struct lunq_pol *p, u64 now);
	/**
	 * @share: in a pool, the fair share of its slots until a time (auto;
	 * the window work asks every tick)
	 */
	u32 (*share)(struct lunq_pol *p, u64 now, u32 fair, u64 until,
		     bool busy);
	/**
	 * @age: the longest wait it lets a sorting wait queue (sched:disksort)
	 * impose: a waiter that has waited so long goes next (0: none; the
	 * table's max_wait_ms, when set, is the user's and wins)
	 */
	u64 (*age)(const struct lunq_pol *p);
	/**
	 * @starved: the bound of @age sent reads before their turn in the
	 * sort since the last call, and @reads still wait (the window work
	 * asks at its next tick)
	 */
	u32 (*starved)(struct lunq_pol *p, u64 now, u32 reads);
	/** @fill: its statistics (auto_*) into the device's status */
	void (*fill)(const struct lunq_pol *p, u64 *v, u64 now);
};

/* The built-ins: the reactions (lunq_pol_react.c) and auto (lunq_pol_auto.c) */
extern const struct lunq_builtin lunq_pol_fixed, lunq_pol_linux,
	lunq_pol_sd, lunq_pol_sdfc, lunq_pol_knee, lunq_pol_target;

/* auto's limits: auto_min..auto_max (also those of a policy from outside) */
void lunq_pol_auto_limits(const u32 *val, u32 *min, u32 *max);

#endif /* LUNQ_BUILTIN_H */
