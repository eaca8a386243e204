/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq's throttle, pure part: the one copy of the live depth, its one
 * store, both admission checks and the lock-free path's gate and slot
 * count.  No bio, no dm, no lock of its own: the device's lock protects
 * everything here except @nfast and the reads of @fast_lim the lock-free
 * path makes (see below).  The device's side -- the log, the events, the
 * blktrace note and the gate kept in step with the host's state -- is
 * lunq_throttle_dev.c, the only caller of lunq_throttle_store().
 *
 * Who decides the depth is the policy in force (lunq_pol_dev.c: the table's
 * fixed qdepth, a reaction, auto, a BPF policy); every one of them goes
 * through lunq_throttle_set() (lunq_throttle_dev.h), which clamps nothing:
 * the dispatch in lunq_pol.c clamps an answer to the policy's limits first.
 *
 * The lock-free path (lunq_throttle_dev.c): open while @fast_lim is not 0,
 * its value then the live depth (LUNQ_FAST_NOLIMIT for 0): one word, so a
 * reader never pairs an open path with another period's depth.  @nfast
 * counts its IOs in flight (at most @fast_lim, lunq_fast_take()), without
 * the lock: the IO that takes it from 0 to 1 starts a busy period, the one
 * that takes it from 1 to 0 ends it (lunq_busy.h).  When the path closes
 * with IOs in flight, @held keeps every slot of the locked path taken
 * until the last of them completes (it takes the lock then).
 *
 * KUnit: lunq_sched_test.c (admission through the host), lunq_pol_test.c
 * (the store and its log).
 */
#ifndef LUNQ_THROTTLE_H
#define LUNQ_THROTTLE_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/limits.h>

#define LUNQ_TLOG_SIZE	128	/* last moves of the depth kept */

/* A move of the depth (the throttle log, message "tlog"). */
struct lunq_tlog {
	u64 t;			/* ns since the device was created */
	u16 from, to;
	u8 cause;		/* enum lunq_tcause */
};

#define LUNQ_FAST_NOLIMIT	U32_MAX
#define LUNQ_NO_LBA	U64_MAX		/* no LBA (an empty flush) */

struct lunq_throttle {
	u32 depth;		/* at most this many IOs below; 0 = no limit */
	bool held;		/* lock-free IOs still out after it closed */
	u32 fast_lim;		/* the lock-free gate: 0 closed */
	atomic_t nfast;		/* lock-free IOs in flight */
	u64 fast_lba;		/* last LBA sent lock-free (disksort cursor) */
	u32 fast_max;		/* most of @nfast since the statistics' reset */
	/*
	 * the busy period now open is summed (lunq_busy.h): set by the IO
	 * that opens it, stats:off's periods are not; read by the period's
	 * last slot (lunq_busy_put_if())
	 */
	bool fast_timed;
	u64 changes;		/* moves not made by the table or a message */
	u64 log_n;		/* moves ever logged */
	struct lunq_tlog log[LUNQ_TLOG_SIZE];
};

void lunq_throttle_init(struct lunq_throttle *t);

/*
 * The one store of the depth (lunq_throttle_dev.c's lunq_throttle_set(),
 * and KUnit suites that drive a host directly).  Logs the move at @t_rel
 * (ns since creation) with @cause unless @depth is already in force.
 * True when the depth changed.
 */
bool lunq_throttle_store(struct lunq_throttle *t, u32 depth, u8 cause,
			 u64 t_rel, bool count);

/* The locked path's admission: may one more IO go below now? */
static inline bool lunq_throttle_admits(const struct lunq_throttle *t,
					u32 inflight)
{
	return !t->held && (!t->depth || inflight < t->depth);
}

/*
 * The lock-free path's admission: take a slot of @n, at most @lim
 * (LUNQ_FAST_NOLIMIT: no limit).  One fully ordered cmpxchg.  Returns the
 * new count when a slot was taken (1: a busy period starts); -1 when all
 * @lim are taken (the IO goes to the locked path, which closes this one
 * and makes it wait).
 */
static inline int lunq_fast_take(atomic_t *n, u32 lim)
{
	int v = atomic_read(n);

	do {
		if ((u32)v >= lim)
			return -1;
	} while (!atomic_try_cmpxchg(n, &v, v + 1));
	return v + 1;
}

/*
 * Give back a slot of @n (fully ordered).  True when it was the last one:
 * the busy period ends.
 */
static inline bool lunq_fast_put(atomic_t *n)
{
	return atomic_dec_return(n) == 0;
}

/*
 * The gate's value for a path that may be open (@open) at the depth in
 * force: what lunq_throttle_dev.c's lunq_update_fast() stores.
 */
static inline u32 lunq_throttle_gate(const struct lunq_throttle *t, bool open)
{
	return !open ? 0 : t->depth ?: LUNQ_FAST_NOLIMIT;
}

/* The moves kept (<= LUNQ_TLOG_SIZE) into @log, oldest first. */
unsigned int lunq_throttle_log(const struct lunq_throttle *t,
			       struct lunq_tlog *log);

#endif /* LUNQ_THROTTLE_H */
