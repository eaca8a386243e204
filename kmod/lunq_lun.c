// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq emulated LUN: slots, foreign commands, resets; see lunq_lun.h.
 * Called under the owning target's lock; its pool's slots are taken in
 * lunq_pool.c.
 */
#include <linux/math64.h>
#include <linux/minmax.h>

#include "lunq_lun.h"

u32 lunq_lun_foreign(const struct lunq_lun *l, u64 now)
{
	u64 phase;

	if (!l->foreign || !l->foreign_period_ns)
		return l->foreign;
	div64_u64_rem(now - l->t0, l->foreign_period_ns, &phase);
	return phase < l->foreign_period_ns / 2 ? l->foreign : 0;
}

bool lunq_lun_admit(struct lunq_lun *l, u64 now)
{
	u32 foreign = lunq_lun_foreign(l, now);

	if (l->depth && (u64)l->inflight + foreign >= l->depth)
		return false;
	if (l->pool && !lunq_pool_admit(l->pool, &l->seat, foreign, now))
		return false;
	l->inflight++;
	l->consecutive = 0;
	return true;
}

void lunq_lun_release(struct lunq_lun *l)
{
	l->inflight--;
	if (l->pool)
		lunq_pool_release(l->pool, &l->seat);
}

bool lunq_lun_qfull(struct lunq_lun *l)
{
	if (++l->consecutive < l->reset_after || !l->reset_after)
		return false;
	l->consecutive = 0;
	l->gen++;
	return true;
}
