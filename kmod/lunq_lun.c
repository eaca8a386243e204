// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq emulated LUN: slots, pool, foreign commands, resets; see
 * lunq_lun.h.  Called under the owning target's lock; the pool is shared
 * by several targets and is therefore updated atomically.
 */
#include <linux/math64.h>

#include "lunq_lun.h"

void lunq_pool_init_slots(struct lunq_pool *p, u32 depth)
{
	atomic_set(&p->inflight, 0);
	p->depth = depth;
}

u32 lunq_lun_foreign(const struct lunq_lun *l, u64 now)
{
	u64 phase;

	if (!l->foreign || !l->foreign_period_ns)
		return l->foreign;
	div64_u64_rem(now - l->t0, l->foreign_period_ns, &phase);
	return phase < l->foreign_period_ns / 2 ? l->foreign : 0;
}

/* Take a pool slot if inflight + @held < depth (compare and swap). */
static bool lunq_pool_get_slot(struct lunq_pool *p, u32 held)
{
	int cur = atomic_read(&p->inflight);

	do {
		if ((u64)cur + held >= p->depth)
			return false;
	} while (!atomic_try_cmpxchg(&p->inflight, &cur, cur + 1));
	return true;
}

bool lunq_lun_admit(struct lunq_lun *l, u64 now)
{
	u32 foreign = lunq_lun_foreign(l, now);

	if (l->depth && (u64)l->inflight + foreign >= l->depth)
		return false;
	if (l->pool && !lunq_pool_get_slot(l->pool, foreign))
		return false;
	l->inflight++;
	l->consecutive = 0;
	return true;
}

void lunq_lun_release(struct lunq_lun *l)
{
	l->inflight--;
	if (l->pool)
		atomic_dec(&l->pool->inflight);
}

bool lunq_lun_qfull(struct lunq_lun *l)
{
	if (++l->consecutive < l->reset_after || !l->reset_after)
		return false;
	l->consecutive = 0;
	l->gen++;
	return true;
}
