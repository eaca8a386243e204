/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq device core: the per-target context and what every layer above
 * it asks of it -- the policy in force and its changes, the live throttle
 * and its log, the device timer and the dispatcher's kick, statistics,
 * their snapshot and reset, and the take-over on a table reload.
 *
 * Layers (ARCHITECTURE.md; tests/lint/kmod-layers.sh keeps them):
 *   lunq_target.c      the dm target: ctr/dtr, map, end_io, suspend,
 *                      status, message (nothing calls into it)
 *   lunq_io.c          a bio's life: per-bio data, sending to
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
#include "lunq_pol.h"
#include "lunq_model.h"
#include "lunq_integ.h"
#include "lunq_stats.h"
#include "lunq_events.h"
#include "lunq_zplug.h"

struct lunq_dev;

struct lunq_c {
	struct dm_target *ti;
	struct dm_dev *dev;
	sector_t start;
	bool zoned;			/* lower device is zoned */
	struct lunq_zplug zplug;	/* its write plug, under @lock */
	/*
	 * Writes the plug failed (refused, or held when their zone was
	 * reset or finished), by lunq_waiter.arrival, under @lock: the
	 * dispatcher completes them with an error, outside it.
	 */
	struct list_head zfail;

	/*
	 * @lock protects @host (throttle and wait queue), @keys, @pol and
	 * @pushback.  It is taken once in map and once in end_io per IO
	 * (none on the lock-free path, lunq_throttle.h), with interrupts off
	 * because end_io may run in hard-irq context.
	 */
	spinlock_t lock;
	struct lunq_host host;
	struct lunq_keys keys;		/* the table's keys: TABLE status */
	struct lunq_pol pol;		/* the throttle policy it selects */
	char bpf_expect[LUNQ_POL_NAME];	/* a BPF policy's name; lunq_bpf.c */
	unsigned long bpf_expect_t;	/* jiffies: when it was expected */
	bool pushback;			/* in a noflush suspend */

	/* The emulated LUN, also under @lock. */
	struct lunq_lun lun;
	u64 qfull_delay_ns;
	u64 qfull_lat_ns;		/* qfull_lat_us */
	struct list_head qf_transit;	/* refused, answer on its way */
	u64 qf_next;			/* the first one arrives; 0: none */
	u64 reset_ns;
	u64 qfull, resets, aborted, retried;
	u64 t0;				/* creation (ns) */
	u64 crtime;			/* counters start: t0 or last reset */
	struct lunq_integ integ;	/* iostat -x time integrals */
	u64 timer_at;			/* expiry of @timer, 0 = not armed */
	struct hrtimer timer;		/* retry delay, reset, sd restore */

	bool dying;			/* dtr: the timer is not re-armed */
	struct work_struct dispatch;	/* sends waiters: lunq_io_dispatch */
	struct mutex msg_lock;		/* serialises "set" messages */
	/*
	 * @pol_mutex serialises a policy from outside (@pol.ext) with its
	 * callbacks: they run under it, never under @lock, and @pol.ext,
	 * @pol.min and @pol.max change only with both held.  Order:
	 * @msg_lock, @pol_mutex, @lock.
	 */
	struct mutex pol_mutex;
	struct lunq_eject {		/* the last policy ejected, under @lock */
		char policy[LUNQ_POL_NAME];	/* "": none since attach */
		u8 rule, hook;		/* enum lunq_wd_rule, lunq_pol_hook */
		u64 t;			/* when (monotonic clock, ns) */
		u64 ns, bound_ns;	/* what broke the rule, and its bound */
	} eject;
	struct lunq_stats st;		/* counters and histograms */
	struct lunq_evq evq;		/* netlink events */
	struct request_queue *tq;	/* its queue, for blktrace notes */
	u64 bubble_ns;			/* bubble_ms, read without @lock */
	/*
	 * stats:off, read without @lock at map: the lock-free path's IOs
	 * it takes are pure pass-through (LUNQ_IO_PURE), no IO is recorded
	 */
	bool stats_off;

	/*
	 * The lock-free path's active and busy time are summed per CPU
	 * (lunq_busy.h), read through these since the last reset
	 * (lunq_fast_integrals()); its gate and slots are the throttle's
	 * (host.thr, lunq_throttle.h).
	 */
	struct lunq_span_rd fast_rlen, fast_busy;

	/*
	 * The window work (lunq_window.c), for a policy with a window
	 * callback: every LUNQ_WIN_TICK_MS while resumed; @win is the work's
	 * own (window start), @win_rebase under @lock.
	 */
	struct delayed_work win_work;
	bool win_live;			/* resumed: the work may run */
	bool win_rebase;		/* the next tick starts a window */
	struct lunq_win {
		u64 t, ios, svc_sum, wtime, qfull;
		u64 rlen, wait_sum;	/* in flight and waits, integrated */
		/*
		 * 32-bit counts (lunq_hist32_*()), in the context's block
		 * (a window the table asks for) or a vmalloc'd one: the
		 * service's and the wait's at the window's start
		 * (LUNQ_WIN_START, lunq_stats.h), the run of windows at this
		 * depth (service, LUNQ_LAT_BUCKETS: the live buckets); one
		 * window's own are computed at its cut (lunq_window.c)
		 */
		u32 *prev, *wprev;
		u32 *run;
		u64 run_ios;		/* the commands counted in @run */
		u64 view_wtime;		/* wtime at the last tick (the view) */
		u32 view_share;		/* counted busy in the pool's view */
		u32 view_busy, view_part;	/* the pool's view, last tick */
		u32 aged_reads;		/* the queue's count, last tick */
	} win;

	void *win_room;			/* lunq_core_alloc()'s @room, or NULL */

	struct lunq_dev *sysdev;	/* our entry, once resumed */
	struct lunq_dev *spare;		/* preallocated entry */
	/*
	 * The service-time model's state (~50 KiB: write cache, channels,
	 * drive queue), under @lock: NULL until a table or "set" gives a
	 * model (lunq_model_alloc()), then kept until the table goes, as a
	 * live "model:none" keeps the state for the next model.
	 */
	struct lunq_model *model;
};

/*
 * A new context for @ti with the default policy, counters started now;
 * @dispatch is the work function that sends waiters (lunq_io_dispatch),
 * @win_work the window work's (lunq_win_work).  The context, its
 * histograms and @room more bytes (@win_room: the window's buffers when
 * the table selects a policy with a window) are one vmalloc'd block:
 * whole pages, so one block wastes less than three.
 * NULL when out of memory.
 */
struct lunq_c *lunq_core_alloc(struct dm_target *ti, work_func_t dispatch,
			       work_func_t win_work, size_t room);
/* Stop the timer and the dispatcher, drop the pool and device; free. */
void lunq_core_free(struct lunq_c *lc);

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
/* Arm the device timer for the earliest deadline.  Locked. */
void lunq_arm_timer(struct lunq_c *lc);
/* Let the dispatcher run (any context). */
void lunq_kick(struct lunq_c *lc);

/* The dispatcher's workqueue (module init/exit). */
int lunq_core_init(void);
void lunq_core_exit(void);

/*
 * The lock-free path's clock: its IOs' send and completion times, the
 * edges of its busy periods, and what its integrals are read at
 * (lunq_fast_integrals()).
 */
static inline u64 lunq_fast_clock(void)
{
	return ktime_get_ns();
}

/*
 * The lock-free path's active time (rlentime) and busy time (rtime) since
 * the last reset, monotone (lunq_busy.h).  Locked.
 */
void lunq_fast_integrals(struct lunq_c *lc, u64 *rlen, u64 *busy);
/* Restart them from 0 (a reset, a new table).  Locked. */
void lunq_fast_integrals_reset(struct lunq_c *lc);

/* Snapshot every statistic into @v (__LUNQ_ST_MAX entries). */
void lunq_fill_stats(struct lunq_c *lc, u64 *v);

/* Zero counters, histograms and integrals ("stats reset"). */
void lunq_stats_reset(struct lunq_c *lc);

/* A table reload: add the statistics of @old (suspended) to @lc. */
void lunq_take_over(struct lunq_c *lc, struct lunq_c *old);

#endif /* LUNQ_CORE_H */
