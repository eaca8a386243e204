/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq device core: the per-target context and what every layer above
 * it asks of it -- the policy in force and its changes, the live throttle
 * and its log, the device timer and the dispatcher's kick, statistics,
 * their snapshot and reset, and the take-over on a table reload.
 *
 * Layers (ARCHITECTURE.md; tests/unit/layers.sh keeps them):
 *   lunq_target.c      the dm target: ctr/dtr, map, end_io, suspend,
 *                      status, message (nothing calls into it)
 *   lunq_io.c          the host side of a bio: per-bio data, sending to
 *                      the LUN and below, the dispatcher, completion
 *   lunq_sysfs.c, lunq_netlink.c, lunq_dev.c
 *                      the views, through the device registry
 *   lunq_core.c        this file's functions
 *   lunq_sched.c ...   pure logic: wait queue, LUN, pool, reaction, models,
 *                      statistics, events (no bio, no dm)
 */
#ifndef LUNQ_CORE_H
#define LUNQ_CORE_H

#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>
#include <linux/device-mapper.h>
#include <linux/blktrace_api.h>

#include "lunq_args.h"
#include "lunq_sched.h"
#include "lunq_lun.h"
#include "lunq_pool.h"
#include "lunq_react.h"
#include "lunq_auto.h"
#include "lunq_model.h"
#include "lunq_integ.h"
#include "lunq_stats.h"
#include "lunq_events.h"

struct lunq_dev;

/* Why the throttle moved (the throttle log). */

#define LUNQ_TLOG_SIZE	128	/* last throttle changes kept */

struct lunq_tlog {
	u64 t;			/* ns since the table was created */
	u16 from, to;
	u8 cause;
};

struct lunq_c {
	struct dm_target *ti;
	struct dm_dev *dev;
	sector_t start;
	bool zoned;			/* lower device is zoned */

	/*
	 * @lock protects @host (throttle and wait queue), @policy and
	 * @pushback.  It is taken once in map and once in end_io per IO
	 * (none on the lock-free path, see @fast_lim), with interrupts off
	 * because end_io may run in hard-irq context.
	 */
	spinlock_t lock;
	struct lunq_host host;
	struct lunq_policy policy;	/* what TABLE status echoes */
	bool pushback;			/* in a noflush suspend */

	/* The emulated LUN and the host's reaction, also under @lock. */
	struct lunq_lun lun;
	struct lunq_react react;
	u64 qfull_delay_ns;
	u64 qfull_lat_ns;		/* qfull_lat_us */
	struct list_head qf_transit;	/* refused, answer on its way */
	u64 qf_next;			/* the first one arrives; 0: none */
	u64 reset_ns;
	u64 qfull, resets, aborted, retried, throttle_changes;
	struct lunq_tlog tlog[LUNQ_TLOG_SIZE];
	u64 tlog_n;			/* entries ever written */
	u64 t0;				/* creation (ns) */
	u64 crtime;			/* counters start: t0 or last reset */
	struct lunq_integ integ;	/* iostat -x time integrals */
	u64 timer_at;			/* expiry of @timer, 0 = not armed */
	struct hrtimer timer;		/* retry delay, reset, sd restore */

	bool dying;			/* dtr: the timer is not re-armed */
	struct work_struct dispatch;	/* sends waiters: lunq_io_dispatch */
	struct mutex msg_lock;		/* serialises "set" messages */
	struct lunq_stats st;		/* counters and histograms */
	struct lunq_evq evq;		/* netlink events */
	struct request_queue *tq;	/* its queue, for blktrace notes */
	u64 bubble_ns;			/* bubble_ms, read without @lock */

	/*
	 * The lock-free path (lunq_io_fast_map()): taken while @fast_lim,
	 * which lunq_update_fast() sets under @lock when nothing waits or is
	 * emulated -- no LUN slots, other initiators, pool or service-time
	 * model, no reaction below its maximum or restore pending -- and the
	 * host side is idle (no waiter, retry or locked IO in flight).  Its
	 * value is the live throttle then (LUNQ_FAST_NOLIMIT for 0), 0 while
	 * closed: one word, so a reader never pairs an open path with another
	 * period's throttle.  @nfast counts its IOs in flight (at most
	 * @fast_lim, lunq_fast_take()); it only leaves or reaches 0 under
	 * @lock, where busy time (rtime) starts and ends.  An IO that finds
	 * every slot taken goes to the locked path, which closes this one
	 * (lunq_fast_close()) and waits.  When the path closes with IOs in
	 * flight, host.held keeps every slot taken until the last of them
	 * completes.  Their active time is summed per CPU
	 * (lunq_stats_fast_rlen() - @fast_rlen0 since the last reset).
	 * @fast_lba: the LBA last sent on this path, the disksort cursor
	 * when it closes (LUNQ_NO_LBA: none).
	 */
	u32 fast_lim;
	atomic_t nfast;
	u64 fast_lba;
	u32 fast_max;			/* most of @nfast since the reset */
	u64 fast_rlen0;

	/*
	 * auto (lunq_autorun.c): the controller, under @lock; its windows
	 * are cut by @auto_work (every LUNQ_AUTO_TICK_MS while resumed and
	 * auto is on); @autow is the work's own (window start).
	 */
	struct lunq_auto autoc;
	struct delayed_work auto_work;
	bool auto_live;			/* resumed: the work may run */
	bool auto_rebase;		/* the next tick starts a window */
	struct lunq_autow {
		u64 t, ios, svc_sum, wtime, qfull;
		u64 *prev, *win;	/* service histogram, kvmalloc'd */
	} autow;

	struct lunq_dev *sysdev;	/* our entry, once resumed */
	struct lunq_dev *spare;		/* preallocated entry */
	struct lunq_model model;	/* under @lock; large, keep last */
};

/*
 * A new context for @ti with the default policy, counters started now;
 * @dispatch is the work function that sends waiters (lunq_io_dispatch),
 * @auto_work auto's (lunq_auto_work).
 * NULL when out of memory.
 */
struct lunq_c *lunq_core_alloc(struct dm_target *ti, work_func_t dispatch,
			       work_func_t auto_work);
/* Stop the timer and the dispatcher, drop the pool and device; free. */
void lunq_core_free(struct lunq_c *lc);

/*
 * Parse @argc "key:value" words into *@p, all or nothing (@live: a "set"
 * message, table-only keys refused).  NULL or the error text; *@word is
 * the bad word or NULL.
 */
const char *lunq_parse_words(struct lunq_c *lc, struct lunq_policy *p,
			     unsigned int argc, char **argv, bool live,
			     const char **word);
/* Push @lc->policy into the IO path; true when waiters can go.  Locked. */
bool lunq_apply_policy(struct lunq_c *lc, u64 now);
/* Move the live throttle (logged, an event); true when waiters can go. */
bool lunq_set_throttle(struct lunq_c *lc, u32 to, enum lunq_tcause cause,
		       u64 now);
/*
 * A note in the blktrace stream of the lunq device, "lunq: ..." in
 * blkparse (BLK_TN_MAX_MSG, 128 bytes at most); nothing while nobody
 * traces it.
 */
#define lunq_note(lc, fmt, ...)						\
	do {								\
		if ((lc)->tq)						\
			blk_add_trace_msg((lc)->tq, "lunq: " fmt,	\
					  ##__VA_ARGS__);		\
	} while (0)
/* Fold time into the iostat integrals after a count changed.  Locked. */
void lunq_account(struct lunq_c *lc, u64 now);
/* Whether the lock-free path may be taken now (sets @fast_lim).  Locked. */
void lunq_update_fast(struct lunq_c *lc);
/* Close the lock-free path (an IO found its slots taken).  Locked. */
void lunq_fast_close(struct lunq_c *lc);
/*
 * @nfast from 0 to 1 (@up: the count now, 0 when the path closed
 * meanwhile) or from 1 to 0, under @lock: busy time starts or ends at
 * @now (read before the lock; an earlier time than the last integrated
 * one counts as that), held slots are freed.
 */
int lunq_fast_edge(struct lunq_c *lc, bool up, u64 now);
/* Arm the device timer for the earliest deadline.  Locked. */
void lunq_arm_timer(struct lunq_c *lc);
/* Let the dispatcher run (any context). */
void lunq_kick(struct lunq_c *lc);
/* The throttle moves kept (<= LUNQ_TLOG_SIZE) into @log, oldest first. */
unsigned int lunq_tlog_copy(struct lunq_c *lc, struct lunq_tlog *log);

static inline bool lunq_auto_on(struct lunq_c *lc)
{
	return lc->autoc.cfg.mode != LUNQ_AUTO_OFF;
}

/*
 * auto's plumbing (the work is lunq_autorun.c's).  lunq_auto_alloc(): the window's
 * buffers when @p turns auto on (may sleep; 0 or -ENOMEM).  start/stop:
 * resume and suspend (stop waits for a running tick).  lunq_auto_kick():
 * after a policy change, under @lock.
 */
int lunq_auto_alloc(struct lunq_c *lc, const struct lunq_policy *p);
void lunq_auto_free(struct lunq_c *lc);
void lunq_auto_start(struct lunq_c *lc);
void lunq_auto_stop(struct lunq_c *lc);
void lunq_auto_kick(struct lunq_c *lc);
/* The policy's auto keys into the controller (restarts it when they or
 * qdepth changed).  Locked.
 */
void lunq_auto_config(struct lunq_c *lc, u64 now);
/* The controller's statistics into @v.  Locked. */
void lunq_auto_fill(struct lunq_c *lc, u64 *v, u64 now);

/* The dispatcher's workqueue (module init/exit). */
int lunq_core_init(void);
void lunq_core_exit(void);

/* Snapshot every statistic into @v (__LUNQ_ST_MAX entries). */
void lunq_fill_stats(struct lunq_c *lc, u64 *v);

/* The policy in force. */
void lunq_get_policy(struct lunq_c *lc, struct lunq_policy *p);

/*
 * Apply @argc "key:value" words, all or nothing (the "set" message).  On
 * error returns -EINVAL, *@err is a constant message and *@word the bad
 * word or NULL.
 */
int lunq_set_words(struct lunq_c *lc, unsigned int argc, char **argv,
		   const char **err, const char **word);

/* Zero counters, histograms and integrals ("stats reset"). */
void lunq_stats_reset(struct lunq_c *lc);

/* A table reload: add the statistics of @old (suspended) to @lc. */
void lunq_take_over(struct lunq_c *lc, struct lunq_c *old);

extern const char *const lunq_tcause_names[];

#endif /* LUNQ_CORE_H */
