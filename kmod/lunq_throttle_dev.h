/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq's throttle, the device's side: the only writer of the live
 * depth (lunq_throttle_set(): logged, traced, an event and a blktrace
 * note), the lock-free path's gate kept in step with the device, and its
 * edges (the first IO in, the last one out, under the device lock).  The
 * pure part -- the depth, the admission checks -- is lunq_throttle.h.
 *
 * Every caller holds the device lock (struct lunq_c's @lock) unless it
 * says otherwise.
 */
#ifndef LUNQ_THROTTLE_DEV_H
#define LUNQ_THROTTLE_DEV_H

#include <linux/ktime.h>

#include "lunq_core.h"

/*
 * Move the live depth to @to at @now for @cause; the lock-free gate
 * follows.  True when waiters can now go (kick the dispatcher).
 */
bool lunq_throttle_set(struct lunq_c *lc, u32 to, enum lunq_tcause cause,
		       u64 now);
/*
 * After every change of the number of IOs waiting (queue and retry list)
 * or active (sent to the LUN): fold the time since the last change into
 * the iostat integrals and open or close the lock-free gate.
 */
void lunq_account(struct lunq_c *lc, u64 now);
/* Open or close the lock-free gate for the device's state now. */
void lunq_update_fast(struct lunq_c *lc);
/* Close the lock-free path (an IO found its slots taken). */
void lunq_fast_close(struct lunq_c *lc);
/* The lock-free path's slow parts (lunq_throttle_dev.c). */
int lunq_fast_edge(struct lunq_c *lc, bool up, u64 now);
void lunq_fast_max(struct lunq_throttle *t, u32 n);

/* Lock-free: one lock-free IO less at @now; the last one takes the lock. */
static inline void lunq_fast_exit(struct lunq_c *lc, u64 now)
{
	if (!lunq_fast_put(&lc->host.thr.nfast))
		lunq_fast_edge(lc, false, now);
}

/*
 * Lock-free (no lock held): take a slot for an IO at @lba (LUNQ_NO_LBA:
 * none, e.g. an empty flush) at *@now (read here).  False: the path is
 * closed or full, the locked path takes the IO.  Inline in the IO path:
 * one fully ordered cmpxchg on @nfast (lunq_fast_take()); 0 <-> 1 goes
 * through the lock (busy time).
 */
static inline bool lunq_fast_enter(struct lunq_c *lc, u64 lba, u64 *now)
{
	struct lunq_throttle *t = &lc->host.thr;
	u32 lim = READ_ONCE(t->fast_lim);
	int v = lim ? lunq_fast_take(&t->nfast, lim, false) : -1;

	if (v < 0)
		return false;	/* closed, or every slot taken */
	/* before the edge's lock: the clock is slow in some VMs (HPET) */
	*now = ktime_get_ns();
	if (!v) {
		/* 0 -> 1: the path is checked under the lock there */
		v = lunq_fast_edge(lc, true, *now);
		if (!v)
			return false;
	} else {
		/*
		 * Pairs with smp_mb() in lunq_fast_close(): if the path
		 * closed before the cmpxchg, this sees it and gives the slot
		 * back; if it opened again meanwhile, with its own depth.
		 */
		lim = READ_ONCE(t->fast_lim);
		if (unlikely(!lim || (u32)v > lim)) {
			lunq_fast_exit(lc, *now);
			return false;
		}
	}
	if (unlikely((u32)v > READ_ONCE(t->fast_max)))
		lunq_fast_max(t, v);
	if (lba != LUNQ_NO_LBA)
		WRITE_ONCE(t->fast_lba, lba);
	return true;
}

/* What a policy's callbacks see at @now (lunq_pol.h). */
void lunq_throttle_view(struct lunq_c *lc, struct lunq_pol_view *v, u64 now);
/* The moves kept (<= LUNQ_TLOG_SIZE) into @log, oldest first (locks). */
unsigned int lunq_tlog_copy(struct lunq_c *lc, struct lunq_tlog *log);

extern const char *const lunq_tcause_names[];

#endif /* LUNQ_THROTTLE_DEV_H */
