/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq's throttle, the device's side: the only writer of the live
 * depth (lunq_throttle_set(): logged, traced, an event and a blktrace
 * note), the lock-free path's gate kept in step with the device, and its
 * slots (lock-free; busy periods: lunq_busy.h).  The
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
void lunq_fast_drained(struct lunq_c *lc);
void lunq_fast_bail(struct lunq_c *lc);
void lunq_fast_max(struct lunq_throttle *t, u32 n);
bool lunq_fast_put_last(struct lunq_c *lc);

/*
 * Lock-free, this CPU's statistics @p (preemption off): give back a
 * lock-free IO's slot at @now (0: the clock is read if a summed busy
 * period ends here); the last one ends the busy period, summed when the
 * IO that opened it kept times (@fast_timed).  True when the path closed
 * meanwhile: then call lunq_fast_drained() (it takes the lock: after
 * preemption is on again).
 */
static inline bool lunq_fast_put_slot(struct lunq_c *lc, struct lunq_pcpu *p,
				      u64 now)
{
	struct lunq_throttle *t = &lc->host.thr;

	if (!lunq_busy_put_if(&t->nfast, &t->fast_timed, &p->busy, now,
			      lunq_fast_clock))
		return false;
	/*
	 * Pairs with smp_mb() in lunq_fast_close(): either it saw this slot
	 * given back, or this sees the path closed (and frees what it held).
	 */
	return unlikely(!READ_ONCE(t->fast_lim));
}

/*
 * Lock-free (no lock held): take a slot for an IO at @lba (LUNQ_NO_LBA:
 * none, e.g. an empty flush) at *@now (read here), and open its active
 * time (and a busy period, when it is the first).  False: the path is
 * closed or full, the locked path takes the IO.  Inline in the IO path:
 * one fully ordered cmpxchg on @nfast (lunq_fast_take()).
 */
static inline bool lunq_fast_enter(struct lunq_c *lc, u64 lba, u64 *now)
{
	struct lunq_throttle *t = &lc->host.thr;
	u32 lim = READ_ONCE(t->fast_lim);
	int v = lim ? lunq_fast_take(&t->nfast, lim) : -1;
	struct lunq_pcpu *p;

	if (v < 0)
		return false;	/* closed, or every slot taken */
	*now = lunq_fast_clock();
	p = get_cpu_ptr(lc->st.pc);
	if (v == 1) {
		WRITE_ONCE(t->fast_timed, true);
		lunq_span_open(&p->busy, *now);
	}
	/*
	 * Pairs with smp_mb() in lunq_fast_close(): if the path closed
	 * before the cmpxchg, this sees it and gives the slot back; if it
	 * opened again meanwhile, with its own depth.
	 */
	lim = READ_ONCE(t->fast_lim);
	if (unlikely(!lim || (u32)v > lim)) {
		put_cpu_ptr(lc->st.pc);
		lunq_fast_bail(lc);
		return false;
	}
	lunq_span_open(&p->io, *now);
	put_cpu_ptr(lc->st.pc);
	if (unlikely((u32)v > READ_ONCE(t->fast_max)))
		lunq_fast_max(t, v);
	if (lba != LUNQ_NO_LBA)
		WRITE_ONCE(t->fast_lba, lba);
	return true;
}

/*
 * stats:off's lock-free slot (no lock held): as lunq_fast_enter() without
 * the times -- no clock read, no active time, no max_inflight, and a busy
 * period it opens is not summed (@fast_timed false).  Whichever IOs take
 * slots in a period, its last slot closes it as its opener said
 * (lunq_busy_put_if()): switching stats with IO in flight leaves the sums
 * whole.
 */
static inline bool lunq_fast_enter_pure(struct lunq_c *lc, u64 lba)
{
	struct lunq_throttle *t = &lc->host.thr;
	u32 lim = READ_ONCE(t->fast_lim);
	int v = lim ? lunq_fast_take(&t->nfast, lim) : -1;

	if (v < 0)
		return false;	/* closed, or every slot taken */
	if (unlikely(v == 1))
		WRITE_ONCE(t->fast_timed, false);
	/* as in lunq_fast_enter(): pairs with smp_mb() in lunq_fast_close() */
	lim = READ_ONCE(t->fast_lim);
	if (unlikely(!lim || (u32)v > lim)) {
		lunq_fast_bail(lc);
		return false;
	}
	/* disksort goes on from here when the path closes */
	if (lba != LUNQ_NO_LBA)
		WRITE_ONCE(t->fast_lba, lba);
	return true;
}

/*
 * Give back a stats:off IO's slot (no lock held): one atomic, no clock
 * read; the last slot of a summed busy period (opened with stats on)
 * closes it out of line (lunq_fast_put_last()).  True as for
 * lunq_fast_put_slot().
 */
static inline bool lunq_fast_put_pure(struct lunq_c *lc)
{
	struct lunq_throttle *t = &lc->host.thr;
	int v = atomic_read(&t->nfast);

	for (;;) {
		if (v == 1) {
			smp_rmb();	/* as in lunq_busy_put_if() */
			if (unlikely(READ_ONCE(t->fast_timed)))
				return lunq_fast_put_last(lc);
		}
		/* fully ordered: pairs with smp_mb() in lunq_fast_close() */
		if (atomic_try_cmpxchg(&t->nfast, &v, v - 1))
			return v == 1 && unlikely(!READ_ONCE(t->fast_lim));
	}
}

/* What a policy's callbacks see at @now (lunq_pol.h). */
void lunq_throttle_view(struct lunq_c *lc, struct lunq_pol_view *v, u64 now);
/* The moves kept (<= LUNQ_TLOG_SIZE) into @log, oldest first (locks). */
unsigned int lunq_tlog_copy(struct lunq_c *lc, struct lunq_tlog *log);

extern const char *const lunq_tcause_names[];

#endif /* LUNQ_THROTTLE_DEV_H */
