/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq throttle policies: which built-in a table selects, and the
 * dispatch that clamps (and traces) every answer (lunq_pol.c).  A policy
 * decides the depth the throttle (lunq_throttle.h) holds; the device
 * (lunq_pol_dev.c, lunq_window.c) calls the one in force: a built-in
 * (struct lunq_builtin, lunq_builtin.h) or one from outside (struct
 * lunq_policy_ops, lunq_pol_ops.h).  Pure logic; KUnit:
 * lunq_pol_test.c.
 */
#ifndef LUNQ_POL_H
#define LUNQ_POL_H

#include "lunq_builtin.h"

/* The built-in a table's values select: its reaction, or auto's mode. */
const struct lunq_builtin *lunq_pol_select(const u32 *val);

/*
 * The dispatch (lunq_pol.c): every answer clamped to [min, max] (max 0: no
 * limit) and traced (lunq:lunq_pol_answer); a hook the policy lacks keeps
 * the depth in force.  lunq_pol_use(): the built-in @bi takes over (the
 * old policy stopped when it is another) with the table's values @val and
 * their limits; lunq_pol_use_ext(): @ops from outside, its limits
 * auto_min..auto_max.
 */
void lunq_pol_use(struct lunq_pol *p, const struct lunq_builtin *bi,
		  const u32 *val);
void lunq_pol_use_ext(struct lunq_pol *p, const struct lunq_policy_ops *ops,
		      const u32 *val);
u32 lunq_pol_start(struct lunq_pol *p, const struct lunq_pol_view *v);
/*
 * The table's values @val are new: the policy in force from outside keeps
 * its place with their limits and @depth clamped to them; else the
 * built-in they select takes over and starts from @depth (@in_transport
 * commands in flight at @now).  Returns the depth to set.
 */
u32 lunq_pol_restart(struct lunq_pol *p, const u32 *val, u32 depth,
		     u32 in_transport, u64 now);
u32 lunq_pol_window(struct lunq_pol *p, const struct lunq_pol_window *w);
u32 lunq_pol_qfull(struct lunq_pol *p, const struct lunq_pol_view *v);
void lunq_pol_stop(struct lunq_pol *p);
/* The built-ins' hooks: @depth (in force) when the policy has none. */
u32 lunq_pol_good(struct lunq_pol *p, u64 now, u32 depth);
u32 lunq_pol_tick(struct lunq_pol *p, u64 now, u32 depth);
u32 lunq_pol_idle(struct lunq_pol *p, u64 now, u32 depth);
/* Waiters were sent by the policy's aging bound (auto) */
u32 lunq_pol_starved(struct lunq_pol *p, u64 now, u32 reads, u32 depth);
/* A pool's fair share (auto): whether the policy takes one, and give it */
bool lunq_pol_shares(const struct lunq_pol *p);
u32 lunq_pol_share(struct lunq_pol *p, u64 now, u32 fair, u64 until,
		   bool busy, u32 depth);
/* Whether a window work is needed: a window callback, or from outside */
bool lunq_pol_windows(const struct lunq_pol *p);
/*
 * Its own rule for a complete window, else @ns >= @dflt_ns; the window so
 * far: @ns long, @ios completions, @wait_ns of it with commands waiting,
 * @act_ns the integral of the commands in flight (ns x commands)
 */
bool lunq_pol_win_ready(const struct lunq_pol *p, u64 ns, u64 ios,
			u64 wait_ns, u64 act_ns, u64 dflt_ns, bool *idle);
/* The name of the policy in force ("-": none) */
const char *lunq_pol_name(const struct lunq_pol *p);
/*
 * Its answers the limits changed (pol_zero, pol_below, pol_above) and its
 * own statistics (auto_*), if it keeps any, into the device's status
 */
void lunq_pol_fill(const struct lunq_pol *p, u64 *v, u64 now);

/* When the policy's tick has work next, 0: none. */
static inline u64 lunq_pol_deadline(const struct lunq_pol *p)
{
	return p->bi && p->bi->deadline ? p->bi->deadline(p) : 0;
}

/* Whether no window may begin yet (IOs of an old depth still out). */
static inline bool lunq_pol_settling(const struct lunq_pol *p, u64 now)
{
	return p->bi && p->bi->settling && p->bi->settling(p, now);
}

/*
 * Whether the window after a move of the depth at @now may start at once
 * (the controller's old commands only drain), else on a later tick.
 */
static inline bool lunq_pol_goes_on(const struct lunq_pol *p, u64 now)
{
	return p->bi && p->bi->settling && !lunq_pol_settling(p, now);
}

/* The bound it puts on a wait in a sorting queue (ns), 0: none. */
static inline u64 lunq_pol_age(const struct lunq_pol *p)
{
	return p->bi && p->bi->age ? p->bi->age(p) : 0;
}

/* Whether the policy leaves the depth alone between windows. */
static inline bool lunq_pol_steady(const struct lunq_pol *p)
{
	return !p->bi || !p->bi->steady || p->bi->steady(p);
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

#endif /* LUNQ_POL_H */
