// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq named pools: the registry, the slots and auto's fair shares of
 * them (see lunq_pool.h).  The slots are taken under the owning target's
 * lock; a pool is shared by several targets and is therefore updated
 * atomically, its acap and busy shares under its own lock.
 */
#include <linux/err.h>
#include <linux/ktime.h>
#include <linux/list.h>
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "lunq_args.h"
#include "lunq_pool.h"

struct lunq_pool_entry {
	struct lunq_pool slots;
	struct list_head node;
	unsigned int refs;		/* tables naming the pool */
	char name[LUNQ_POOL_NAME_MAX + 1];
};

/* Guards the list and the reference counts; taken by ctr and dtr only. */
static DEFINE_MUTEX(lunq_pools_lock);
static LIST_HEAD(lunq_pools);

struct lunq_pool *lunq_pool_get(const char *name, u32 depth, const char **err)
{
	struct lunq_pool_entry *e;
	int ret = -EINVAL;

	mutex_lock(&lunq_pools_lock);
	list_for_each_entry(e, &lunq_pools, node) {
		if (strcmp(e->name, name))
			continue;
		if (depth && depth != e->slots.depth) {
			*err = "pool_depth: differs from the depth of the existing pool of that name";
			e = NULL;
		} else {
			e->refs++;
		}
		goto out;
	}
	e = NULL;
	if (!depth) {
		*err = "pool_depth: needed by the first table that names a pool";
		goto out;
	}
	e = kzalloc(sizeof(*e), GFP_KERNEL);
	if (!e) {
		*err = "Cannot allocate the pool";
		ret = -ENOMEM;
		goto out;
	}
	lunq_pool_init_slots(&e->slots, depth);
	e->slots.t0 = ktime_get_ns();
	strscpy(e->name, name, sizeof(e->name));
	e->refs = 1;
	list_add(&e->node, &lunq_pools);
out:
	mutex_unlock(&lunq_pools_lock);
	return e ? &e->slots : ERR_PTR(ret);
}

void lunq_pool_put(struct lunq_pool *pool)
{
	struct lunq_pool_entry *e = container_of(pool, struct lunq_pool_entry,
						 slots);

	mutex_lock(&lunq_pools_lock);
	if (!--e->refs) {
		list_del(&e->node);
		WARN_ON_ONCE(atomic_read(&pool->inflight));
		kfree(e);
	}
	mutex_unlock(&lunq_pools_lock);
}

const char *lunq_pool_name(const struct lunq_pool *pool)
{
	return container_of(pool, struct lunq_pool_entry, slots)->name;
}

/* ---- slots ---- */

void lunq_pool_init_slots(struct lunq_pool *p, u32 depth)
{
	atomic_set(&p->inflight, 0);
	atomic_set(&p->auto_inflight, 0);
	atomic_set(&p->acap_gen, 0);
	p->depth = depth;
	spin_lock_init(&p->lock);
	p->acap = 0;
	p->acap_until = 0;
	lunq_holdoff_init(&p->hold, LUNQ_AUTO_QHOLD_NS, LUNQ_AUTO_REFUSED,
			  LUNQ_AUTO_QHOLD_MAX_NS);
	p->busy_shares = 0;
}

/* Take a slot if inflight + @held < depth (compare and swap). */
static bool lunq_pool_get_slot(struct lunq_pool *p, u32 held)
{
	int cur = atomic_read(&p->inflight);

	do {
		if ((u64)cur + held >= p->depth)
			return false;
	} while (!atomic_try_cmpxchg(&p->inflight, &cur, cur + 1));
	return true;
}

bool lunq_pool_admit(struct lunq_pool *p, struct lunq_pool_seat *s,
		     u32 foreign, u64 now)
{
	if (!lunq_pool_get_slot(p, foreign)) {
		lunq_pool_refused(p, now);
		return false;
	}
	if (s->is_auto) {
		atomic_inc(&p->auto_inflight);
		s->auto_held++;
	}
	return true;
}

void lunq_pool_release(struct lunq_pool *p, struct lunq_pool_seat *s)
{
	atomic_dec(&p->inflight);
	if (s->auto_held) {
		s->auto_held--;
		atomic_dec(&p->auto_inflight);
	}
}

/* ---- auto in a pool ---- */

void lunq_pool_refused(struct lunq_pool *p, u64 now)
{
	u32 held = atomic_read(&p->auto_inflight);
	unsigned long flags;
	bool moved;

	if (!held)
		return;		/* no auto device holds any: nothing learnt */
	spin_lock_irqsave(&p->lock, flags);
	moved = !p->acap || now >= p->acap_until || held < p->acap;
	if (!p->acap || now >= p->acap_until) {
		/* a new run of refusals: at once after the last one? */
		if (p->acap && now < p->acap_until + p->hold.ns)
			lunq_holdoff_again(&p->hold);
		else
			lunq_holdoff_reset(&p->hold);
	}
	if (moved) {
		p->acap = held;
		p->acap_t = now;
		atomic_inc(&p->acap_gen);	/* the siblings look at once */
	}
	p->acap_until = now + p->hold.ns;
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

u32 lunq_pool_tick(struct lunq_pool *p, struct lunq_pool_seat *s, u32 held,
		   u64 now, u32 share, u64 wtime, bool waiting, u64 *until,
		   bool *still)
{
	bool busy = wtime != s->wtime || waiting;

	s->wtime = wtime;
	if (!s->is_auto) {
		/* its commands in the pool now count too: each leaves it */
		s->is_auto = true;
		atomic_add(held, &p->auto_inflight);
		s->auto_held = held;
	}
	lunq_pool_busy(p, &s->share, busy ? share : 0);
	*still = false;
	return busy ? lunq_pool_fair(p, now, share, until, still) : 0;
}

void lunq_pool_leave(struct lunq_pool *p, struct lunq_pool_seat *s)
{
	if (!p)
		return;
	s->is_auto = false;
	atomic_sub(s->auto_held, &p->auto_inflight);
	s->auto_held = 0;
	lunq_pool_busy(p, &s->share, 0);
}

u32 lunq_pool_transport(const struct lunq_pool *p,
			const struct lunq_pool_seat *s, u32 in_transport)
{
	if (p && s->is_auto && lunq_pool_shared(p, s->share))
		return in_transport / 2;
	return in_transport;
}
