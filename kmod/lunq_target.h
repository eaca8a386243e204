/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq: the per-target context, shared by the device-mapper plumbing
 * (lunq_target.c), the sysfs directory (lunq_dev.c, lunq_sysfs.c) and the
 * generic netlink family (lunq_netlink.c).
 */
#ifndef LUNQ_TARGET_H
#define LUNQ_TARGET_H

#include <linux/spinlock.h>
#include <linux/mutex.h>
#include <linux/hrtimer.h>
#include <linux/workqueue.h>
#include <linux/device-mapper.h>

#include "lunq_args.h"
#include "lunq_sched.h"
#include "lunq_lun.h"
#include "lunq_pool.h"
#include "lunq_react.h"
#include "lunq_model.h"
#include "lunq_integ.h"
#include "lunq_stats.h"
#include "lunq_events.h"

struct lunq_dev;

/* Why the throttle moved (the throttle log). */
enum lunq_tcause { LUNQ_TC_SET, LUNQ_TC_QFULL, LUNQ_TC_RAMP_UP,
		   LUNQ_TC_RESTORE };

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
	 * @pushback.  It is taken once in map and once in end_io per
	 * IO, with interrupts off because end_io may run in hard-irq context.
	 */
	spinlock_t lock;
	struct lunq_host host;
	struct lunq_policy policy;	/* what TABLE status echoes */
	bool pushback;			/* in a noflush suspend */

	/* The emulated LUN and the host's reaction, also under @lock. */
	struct lunq_lun lun;
	struct lunq_react react;
	u64 qfull_delay_ns;
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
	struct work_struct dispatch;	/* sends waiters, see lunq_dispatch */
	struct mutex msg_lock;		/* serialises "set" messages */
	struct lunq_stats st;		/* counters and histograms */
	struct lunq_evq evq;		/* netlink events */
	u64 bubble_ns;			/* bubble_ms, read without @lock */
	struct lunq_dev *sysdev;	/* our entry, once resumed */
	struct lunq_dev *spare;		/* preallocated entry */
	struct lunq_model model;	/* under @lock; large, keep last */
};

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

#endif /* LUNQ_TARGET_H */
