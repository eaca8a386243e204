/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq throttle policies: the built-ins, which one a table selects, and
 * the dispatch that clamps every answer (lunq_pol.c; the interface is
 * lunq_pol_ops.h).  Pure logic; KUnit: lunq_pol_test.c.
 */
#ifndef LUNQ_POL_H
#define LUNQ_POL_H

#include "lunq_pol_ops.h"

/* The built-ins (lunq_pol_*.c). */
extern const struct lunq_policy_ops lunq_pol_fixed, lunq_pol_linux,
	lunq_pol_sd, lunq_pol_sdfc, lunq_pol_knee, lunq_pol_target;

/* The built-in a table's values select: its reaction, or auto's mode. */
const struct lunq_policy_ops *lunq_pol_select(const u32 *val);

/*
 * The dispatch (lunq_pol.c): every answer clamped to [min, max] (max 0: no
 * limit); a hook the policy lacks keeps the depth in force.
 * lunq_pol_use(): @ops takes over (the old one stopped when it is
 * another) with the table's values @val and their limits; @ext: a policy
 * from outside (BPF), whose limits are auto_min..auto_max.
 */
void lunq_pol_use(struct lunq_pol *p, const struct lunq_policy_ops *ops,
		  const u32 *val, bool ext);
u32 lunq_pol_start(struct lunq_pol *p, const struct lunq_pol_view *v);
u32 lunq_pol_window(struct lunq_pol *p, const struct lunq_pol_window *w);
u32 lunq_pol_qfull(struct lunq_pol *p, const struct lunq_pol_view *v);
/* The built-ins' hooks: @depth (in force) when the policy has none. */
u32 lunq_pol_good(struct lunq_pol *p, u64 now, u32 depth);
u32 lunq_pol_tick(struct lunq_pol *p, u64 now, u32 depth);
u32 lunq_pol_idle(struct lunq_pol *p, u64 now, u32 depth);
/* A pool's fair share (auto): whether the policy takes one, and give it */
bool lunq_pol_shares(const struct lunq_pol *p);
u32 lunq_pol_share(struct lunq_pol *p, u64 now, u32 fair, u64 until,
		   bool busy, u32 depth);
void lunq_pol_stop(struct lunq_pol *p);

#endif /* LUNQ_POL_H */
