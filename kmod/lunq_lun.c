// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq emulated LUN: slots, pool, foreign commands, resets; see
 * lunq_lun.h.  Called under the owning target's lock; the pool is shared
 * by several targets and is therefore updated atomically.
 */
#include <linux/math64.h>
#include <linux/minmax.h>

#include "lunq_lun.h"

void lunq_pool_init_slots(struct lunq_pool *p, u32 depth)
{
	atomic_set(&p->inflight, 0);
	atomic_set(&p->auto_inflight, 0);
	p->depth = depth;
	spin_lock_init(&p->lock);
	p->acap = 0;
	p->acap_until = 0;
	p->hold = LUNQ_POOL_HOLD_NS;
	p->runs = 0;
	p->busy_shares = 0;
}

void lunq_pool_refused(struct lunq_pool *p, u64 now)
{
	u32 held = atomic_read(&p->auto_inflight);
	unsigned long flags;

	if (!held)
		return;		/* no auto device holds any: nothing learnt */
	spin_lock_irqsave(&p->lock, flags);
	if (!p->acap || now >= p->acap_until) {
		/* a new run of refusals: at once after the last one? */
		if (p->acap && now < p->acap_until + p->hold) {
			if (++p->runs >= LUNQ_POOL_RUNS)
				p->hold = min(2 * p->hold, LUNQ_POOL_HOLD_MAX_NS);
		} else {
			p->runs = 0;
			p->hold = LUNQ_POOL_HOLD_NS;
		}
		p->acap = held;
		p->acap_t = now;
	} else if (held < p->acap) {
		p->acap = held;
		p->acap_t = now;
	}
	p->acap_until = now + p->hold;
	spin_unlock_irqrestore(&p->lock, flags);
}

void lunq_pool_busy(struct lunq_pool *p, u32 *mine, u32 share)
{
	unsigned long flags;

	if (*mine == share)
		return;
	spin_lock_irqsave(&p->lock, flags);
	p->busy_shares = p->busy_shares - *mine + share;
	spin_unlock_irqrestore(&p->lock, flags);
	*mine = share;
}

void lunq_pool_view(struct lunq_pool *p, u32 *mine, u32 share, u32 *busy,
		    u32 *part)
{
	unsigned long flags;
	u32 w = max(share, 1U);

	spin_lock_irqsave(&p->lock, flags);
	if (*mine != share) {
		p->view_busy = p->view_busy - !!*mine + !!share;
		p->view_shares = p->view_shares - *mine + share;
		*mine = share;
	}
	*busy = p->view_busy;
	*part = div_u64((u64)p->depth * w,
			p->view_shares + (share ? 0 : w));
	spin_unlock_irqrestore(&p->lock, flags);
}

bool lunq_pool_shared(const struct lunq_pool *p, u32 mine)
{
	return READ_ONCE(p->busy_shares) > mine;
}

u32 lunq_pool_fair(struct lunq_pool *p, u64 now, u32 share, u64 *until,
		   bool *still)
{
	unsigned long flags;
	u32 f = 0;

	*still = false;
	spin_lock_irqsave(&p->lock, flags);
	if (p->acap && now < p->acap_until) {
		f = div_u64((u64)p->acap * share,
			    max(p->busy_shares, share));
		f = max(f, 1U);
		*until = p->acap_until;
		*still = now >= p->acap_t + LUNQ_POOL_STILL_NS;
	}
	spin_unlock_irqrestore(&p->lock, flags);
	return f;
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
	if (l->pool && !lunq_pool_get_slot(l->pool, foreign)) {
		lunq_pool_refused(l->pool, now);
		return false;
	}
	if (l->pool && l->pool_auto) {
		atomic_inc(&l->pool->auto_inflight);
		l->auto_held++;
	}
	l->inflight++;
	l->consecutive = 0;
	return true;
}

void lunq_lun_release(struct lunq_lun *l)
{
	l->inflight--;
	if (l->pool) {
		atomic_dec(&l->pool->inflight);
		if (l->auto_held) {
			l->auto_held--;
			atomic_dec(&l->pool->auto_inflight);
		}
	}
}

bool lunq_lun_qfull(struct lunq_lun *l)
{
	if (++l->consecutive < l->reset_after || !l->reset_after)
		return false;
	l->consecutive = 0;
	l->gen++;
	return true;
}
