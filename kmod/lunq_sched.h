/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq, the host's wait queue and the slots the throttle gives it
 *
 * Pure logic, free of bios and device-mapper: the target embeds a
 * struct lunq_waiter in each bio's per-bio data and calls these functions
 * under its own lock.  KUnit suites (lunq_sched_test.c) drive them directly.
 *
 * Wait-queue order (struct lunq_queue):
 *   fifo      arrival order.
 *   disksort  Solaris disksort(9F): a one-way elevator in two runs.  The
 *             next waiter is the one with the lowest LBA at or beyond the
 *             LBA of the last dispatched IO (the cursor); when there is
 *             none, the sweep wraps to the lowest LBA.  No aging: an IO
 *             behind the cursor waits for as long as IOs keep arriving
 *             ahead of it (the "latency bubble").  Equal LBAs keep arrival
 *             order.  O(log n) insert and dispatch (rbtree on (lba, seq)).
 *   aging     with max_wait_ns > 0, in either order, a waiter queued at
 *             least max_wait_ns ago goes next, oldest first; without it,
 *             the same with the policy's bound age_ns (auto's, 0: none).
 *
 * Ordering barriers: a waiter marked as a barrier (the target marks
 * REQ_PREFLUSH, REQ_FUA and empty flush bios, and every write to a zoned
 * device) is dispatched only after every waiter that arrived before it,
 * and no waiter that arrived after it is dispatched before it.  Sorting
 * therefore only ever happens between two barriers.  Implementation: every
 * waiter is on the arrival list; the rbtree holds only the non-barrier
 * waiters ahead of the first waiting barrier.  Waiters behind it enter the
 * tree when the barrier leaves (each waiter is inserted once).
 */
#ifndef LUNQ_SCHED_H
#define LUNQ_SCHED_H

#include <linux/types.h>
#include <linux/atomic.h>
#include <linux/list.h>
#include <linux/rbtree.h>
#include "lunq_throttle.h"

/* LUNQ_NO_LBA (lunq_throttle.h): an IO without a position never moves it. */

/* Values of the "sched" key (index into its names in lunq_args.c). */
enum lunq_sched_mode {
	LUNQ_SCHED_FIFO = 0,
	LUNQ_SCHED_DISKSORT = 1,
};

struct lunq_waiter {
	struct list_head arrival;	/* lunq_queue.arrival, always */
	/* lunq_queue.tree when in_tree; the zone plug's while plugged */
	struct rb_node node;
	u64 lba;
	u64 seq;			/* arrival number: tie-break */
	u64 t_queued;			/* ns, monotonic */
	bool barrier;
	bool in_tree;
	bool read;			/* set by the caller of lunq_host_wait() */
	u32 zsectors;			/* a plugged zoned write's length */
};

struct lunq_queue {
	struct list_head arrival;	/* every waiter, oldest first */
	struct rb_root tree;		/* sortable waiters, by (lba, seq) */
	struct lunq_waiter *barrier;	/* first waiting barrier, or NULL */
	u64 cursor;			/* LBA of the last dispatched IO */
	u64 seq;
	u32 nr;				/* waiters */
	u32 reads;			/* ... of them reads (lunq_waiter.read) */
	enum lunq_sched_mode mode;
	u64 max_wait_ns;		/* aging bound; 0 = none */
	u64 age_ns;			/* the policy's, while max_wait_ns is 0 */
	/* reads the bound sent that the sort would have passed by */
	u32 aged_reads;
};

void lunq_queue_init(struct lunq_queue *q);
/* Queue @w, arrived at @now (ns), for LBA @lba (LUNQ_NO_LBA: none). */
void lunq_queue_add(struct lunq_queue *q, struct lunq_waiter *w, u64 lba,
		    bool barrier, u64 now);
/* Remove and return the waiter to dispatch next at @now, or NULL. */
struct lunq_waiter *lunq_queue_next(struct lunq_queue *q, u64 now);
/* Remove and return the oldest waiter, or NULL (for pushing back). */
struct lunq_waiter *lunq_queue_pop_oldest(struct lunq_queue *q);
/* Arrival time of the oldest waiter; the queue must not be empty. */
u64 lunq_queue_oldest(const struct lunq_queue *q);

/*
 * The host: at most the throttle's depth of IOs outstanding below (@thr,
 * lunq_throttle.h; 0 = no limit), the rest wait in the queue.  A new IO is sent at once only when nothing waits
 * and no dispatch is under way (@dispatching, set by whoever is sending a
 * batch taken with lunq_host_next() outside the lock), so IOs never
 * overtake earlier waiters.
 */
struct lunq_host {
	struct lunq_queue q;
	struct lunq_throttle thr;	/* the depth (lunq_throttle.h) */
	u32 inflight;
	u32 max_inflight;		/* since the last reset */
	u32 max_waiting;
	bool dispatching;
	/*
	 * Commands the LUN handed back (QUEUE FULL, aborted by a LUN reset):
	 * they gave back their slot and are sent again before any waiter, once
	 * the host is no longer blocked (the retry delay, the reset time).
	 */
	struct list_head retry;
	u32 nr_retry;
	bool blocked;
	u64 unblock_at;
	/*
	 * Fenced: commands that must keep their place (writes to a zoned
	 * device) were refused and their answer is still on its way
	 * (qfull_lat_us).  Nothing is sent until each has arrived and gone
	 * to the retry list, so nothing sent after it reaches the device
	 * first.
	 */
	u32 fenced;
};

void lunq_host_init(struct lunq_host *h);

/* The throttle's admission check for this host (lunq_throttle.h). */
static inline bool lunq_host_slot_free(const struct lunq_host *h)
{
	return lunq_throttle_admits(&h->thr, h->inflight);
}

/*
 * May an arriving IO for @lba be sent now?  If so, it has taken a slot and
 * the disksort cursor moved to @lba (unless LUNQ_NO_LBA).
 */
bool lunq_host_try_send(struct lunq_host *h, u64 lba);
/* Make an arriving IO wait (after lunq_host_try_send() said no). */
void lunq_host_wait(struct lunq_host *h, struct lunq_waiter *w, u64 lba,
		    bool barrier, u64 now);
/* Next waiter to send, slot taken; NULL when none or no free slot. */
struct lunq_waiter *lunq_host_next(struct lunq_host *h, u64 now);
/* An IO sent below completed.  True when waiters can now be sent. */
bool lunq_host_done(struct lunq_host *h);
/*
 * Apply a new wait-queue order and aging bound.  True when waiters can now
 * be sent.  (The depth is the throttle's: a lower one never touches IOs in
 * flight, it only stops new sends until enough complete.)
 */
bool lunq_host_set(struct lunq_host *h, enum lunq_sched_mode mode,
		   u64 max_wait_ns);
/*
 * True when waiters or retries exist, a slot is free, the host is neither
 * blocked nor fenced and no dispatch is running.
 */
bool lunq_host_needs_kick(const struct lunq_host *h);
/*
 * The LUN refused @w (sent for @lba, holding a slot) or aborted it: it
 * gives back its slot and goes to the retry list; nothing is sent before
 * @now + @delay_ns.
 */
void lunq_host_requeue(struct lunq_host *h, struct lunq_waiter *w, u64 lba,
		       u64 now, u64 delay_ns);
/*
 * A retry taken with lunq_host_next() was refused again: it gives back its
 * slot and goes back to the head of the retry list (so retries keep the
 * order in which they were first refused); nothing is sent before @now +
 * @delay_ns.
 */
void lunq_host_retry_again(struct lunq_host *h, struct lunq_waiter *w,
			   u64 now, u64 delay_ns);
/*
 * A command that must keep its place was refused, its answer not yet
 * back: send nothing until lunq_host_unfence() (its answer arrived).
 */
void lunq_host_fence(struct lunq_host *h);
void lunq_host_unfence(struct lunq_host *h);
/* Send nothing before @until (a LUN reset under way). */
void lunq_host_block(struct lunq_host *h, u64 until);
/* End a block that is due at @now.  True when it ended. */
bool lunq_host_unblock(struct lunq_host *h, u64 now);
/* Remove and return a retry, else the oldest waiter, else NULL. */
struct lunq_waiter *lunq_host_pop_any(struct lunq_host *h);
void lunq_host_reset_max(struct lunq_host *h);

#endif /* LUNQ_SCHED_H */
