/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq named pools: command slots shared by every lunq device whose
 * table names the same pool, and auto's fair shares of them.  Pure logic
 * but for the registry (a mutex and a list); KUnit: lunq_pool_test.c.
 *
 * Registry: a pool is created by the first table that names it (which
 * must give pool_depth) and freed when the last table naming it is
 * destroyed; a table reload takes its reference before the old table
 * drops its own, so the pool and its count of commands in flight carry
 * across the reload.
 *
 * Slots: the pool has a free slot when inflight + foreign(now) <
 * pool_depth (the other LUNs' commands count there too, and the LUN's
 * other initiators'); otherwise it refuses (QUEUE FULL, lunq_lun.h).
 *
 * Fair shares (auto in a pool, the host's side): the pool also counts the
 * commands of its auto devices (auto_inflight; a device counts its own
 * while its seat is auto and gives each back when it leaves).  When the
 * pool refuses a command, the auto devices' commands then in the pool
 * are an upper bound of what the pool takes from them now (the others'
 * are held): acap, the least of a run of refusals less than a hold apart,
 * which ends a hold (0.5 s) after the last.  While it lasts, each busy
 * auto device's fair share is acap x its share / the busy auto devices'
 * shares (lunq_pool_fair()), at least 1; when it ends they try for more.
 * A run that starts within a hold of the last one's end (they were
 * refused again at once) counts; from the eighth in a row the hold
 * doubles, up to 32 s (the QUEUE FULL hold-off, lunq_auto.h): other
 * initiators that stay are asked ever more rarely.  Every new or lower
 * acap moves acap_gen, and each auto device of the pool looks at it
 * before it sends (lunq_pool_news()): the siblings cut to their fair
 * share at once, not at their next tick, so that a device left with
 * nothing in flight, which retries every qfull_delay_us, finds a slot
 * before its tenth refusal in a row resets its LUN.  A device is busy
 * while IOs waited at its throttle since the last tick of its window
 * work (lunq_pool_tick()).  A device that gets QUEUE FULL while other
 * busy auto devices share the pool counts half of its commands in
 * transport (lunq_pool_transport()): every sibling's completions meet
 * the same full pool; the fair share of a later tick gives back what it
 * is owed.
 *
 * The view (every policy with a window, BPF ones too): the devices of the
 * pool with IOs waiting and their shares, kept apart from auto's busy
 * shares; a device's part is the pool's depth x its share / theirs
 * (lunq_pool_view(), asked by the window work every tick).
 */
#ifndef LUNQ_POOL_H
#define LUNQ_POOL_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/spinlock.h>

#include "lunq_auto.h"

#define LUNQ_POOL_STILL_NS	(50 * NSEC_PER_MSEC)	/* acap settled */

/* Command slots shared by several LUNs (one target port). */
struct lunq_pool {
	atomic_t inflight;
	atomic_t auto_inflight;	/* of those, the auto devices' */
	atomic_t acap_gen;	/* moves with every new or lower acap */
	u32 depth;
	u64 t0;			/* creation: its LUNs' foreign_period phase */
	spinlock_t lock;	/* the fields below */
	u32 acap;		/* 0: none */
	u64 acap_until;
	u64 acap_t;		/* when it last changed */
	struct lunq_holdoff hold;	/* acap's, repeats: runs in a row */
	u32 busy_shares;	/* of the auto devices with IOs waiting */
	u32 view_busy;		/* devices with a window work, IOs waiting */
	u32 view_shares;	/* their shares (the share: key) */
};

/*
 * A device's seat in its pool (in its struct lunq_lun, under the
 * device's lock): what it counts in the pool as an auto device.
 */
struct lunq_pool_seat {
	bool is_auto;		/* its commands count in auto_inflight */
	u32 auto_held;		/* its commands counted there: all, when auto */
	u32 share;		/* its weight in busy_shares; 0: not busy */
	u64 wtime;		/* its wait-time integral at the last tick */
	u32 acap_gen;		/* the pool's, when it last looked */
};

/*
 * Take a reference on pool @name, creating it with @depth slots if it does
 * not exist.  @depth 0 means "not given": the pool must exist.  On error
 * returns an ERR_PTR (-EINVAL: a depth rule, -ENOMEM) and sets *@err to a
 * constant message.
 */
struct lunq_pool *lunq_pool_get(const char *name, u32 depth, const char **err);
void lunq_pool_put(struct lunq_pool *pool);
const char *lunq_pool_name(const struct lunq_pool *pool);

void lunq_pool_init_slots(struct lunq_pool *p, u32 depth);

/*
 * A slot for a command of seat @s at @now, @foreign slots held by other
 * initiators; false: refused (noted for acap, lunq_pool_refused()).
 */
bool lunq_pool_admit(struct lunq_pool *p, struct lunq_pool_seat *s,
		     u32 foreign, u64 now);

/* A command lunq_pool_admit() took a slot for left the pool. */
void lunq_pool_release(struct lunq_pool *p, struct lunq_pool_seat *s);

/* ---- auto in a pool: the window work's and QUEUE FULL's calls ---- */

/*
 * Every tick of the window work of a device whose policy takes a fair
 * share (auto): its seat becomes auto, and its @held commands in the pool
 * (its LUN's inflight) count in auto_inflight from then on as those it
 * sends after (a count of only the latter would lose one for each of the
 * former given back, and acap with it); it is busy when its wait-time
 * integral @wtime moved since the last tick or IOs wait now (@waiting),
 * and counts with weight @share while busy.  Returns its fair share, 0
 * when not busy or the pool has no acap (*@until, *@still: see
 * lunq_pool_fair()).
 */
u32 lunq_pool_tick(struct lunq_pool *p, struct lunq_pool_seat *s, u32 held,
		   u64 now, u32 share, u64 wtime, bool waiting, u64 *until,
		   bool *still);

/*
 * Not (or no longer) auto in pool @p (NULL: none): its seat leaves it,
 * and its commands leave auto_inflight.
 */
void lunq_pool_leave(struct lunq_pool *p, struct lunq_pool_seat *s);

/*
 * The commands in transport a QUEUE FULL policy should count for seat
 * @s, @in_transport outstanding: half of them while other busy auto
 * devices share the pool, else all.
 */
u32 lunq_pool_transport(const struct lunq_pool *p,
			const struct lunq_pool_seat *s, u32 in_transport);

/*
 * Whether the pool's acap moved since seat @s last looked (a device of
 * the pool was refused): the cue, in the IO path, to cut to the fair
 * share now (lunq_win_pool_news()).
 */
static inline bool lunq_pool_news(struct lunq_pool *p,
				  struct lunq_pool_seat *s)
{
	u32 g = atomic_read(&p->acap_gen);

	if (likely(g == s->acap_gen))
		return false;
	s->acap_gen = g;
	return true;
}

/* ---- the parts (KUnit) ---- */

/*
 * The pool refused a command at @now (lunq_pool_admit() calls it); only
 * while auto devices hold commands there does it say anything.
 */
void lunq_pool_refused(struct lunq_pool *p, u64 now);

/* Whether busy auto devices besides the one of busy share @mine exist. */
bool lunq_pool_shared(const struct lunq_pool *p, u32 mine);

/* Replace this device's busy share *@mine (0: not busy) with @share. */
void lunq_pool_busy(struct lunq_pool *p, u32 *mine, u32 share);

/*
 * What a policy's window sees of the pool (struct lunq_pol_window): this
 * device's busy share *@mine (0: not busy) replaced by @share, then the
 * busy devices and this device's part of the pool's depth by shares
 * (when it is busy; else as if it were).
 */
void lunq_pool_view(struct lunq_pool *p, u32 *mine, u32 share, u32 *busy,
		    u32 *part);

/*
 * The fair share at @now of a busy auto device of weight @share, 0 when
 * the pool has no acap; *@until: when the acap ends (if nothing refuses);
 * *@still: acap has not moved for 50 ms (a run's first refusals come
 * while the commands of before are still draining: a share from them
 * may only cut, not raise).
 */
u32 lunq_pool_fair(struct lunq_pool *p, u64 now, u32 share, u64 *until,
		   bool *still);

#endif /* LUNQ_POOL_H */
