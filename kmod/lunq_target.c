// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq: a device-mapper target for experimenting with block-IO
 * throttling and scheduling.  Stacked on any block device, it models what
 * a disk driver (host side: queue-depth throttle, wait queue) and a storage
 * LUN (command slots, QUEUE FULL, service time) do to every IO.
 *
 * Table line:  <dev_path> <offset> [<#opt_args> <opt_arg>...]
 * where each opt_arg is a "key:value" word (see lunq_args.c and
 * kmod/dm-lunq.rst).  This file is the device-mapper plumbing only; the
 * policies live in files free of bio handling.
 */
#include <linux/module.h>
#include <linux/init.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/ktime.h>
#include <linux/mutex.h>
#include <linux/percpu.h>
#include <linux/slab.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <linux/hrtimer.h>
#include <linux/device-mapper.h>

#include "lunq_compat.h"
#include "lunq_target.h"
#include "lunq_dev.h"
#include "lunq_loop.h"

#define DM_MSG_PREFIX "lunq"

const char *const lunq_tcause_names[] = {
	"set", "qfull", "ramp-up", "restore"
};

/*
 * Per-bio data, reserved by device-mapper in front of every clone
 * (ti->per_io_data_size), so the IO path never allocates: a waiting bio is
 * linked into the wait queue through its own lunq_waiter.
 */
struct lunq_io {
	struct lunq_waiter w;
	struct bvec_iter iter;	/* as mapped: restored when sent again */
	unsigned short bi_flags;	/* as mapped: restored when sent again */
	struct hrtimer timer;	/* releases a completion the model holds */
	u64 finish;		/* when the emulated LUN completes it */
	blk_status_t status;	/* the lower device's answer, while held */
	u32 gen;		/* LUN reset generation that accepted it */
	unsigned int flags;
	bool flush;		/* an empty flush (as mapped) */
	u64 t_arrive;		/* map (ns) */
	u64 t_sent;		/* accepted by the LUN (ns) */
};

#define LUNQ_IO_SENT	0x1	/* holds host and LUN slots, sent below */
#define LUNQ_IO_HELD	0x2	/* completed below, held until ->finish */
#define LUNQ_IO_RETRY	0x4	/* handed back by the LUN, to be sent again */
#define LUNQ_IO_ABORTED	0x8	/* aborted once by a LUN reset: never again */

/*
 * Waiters are sent by a work item, never from .end_io: end_io runs in
 * the lower driver's completion context (often hard or soft irq), and
 * submitting there is not allowed to block, while submit_bio() may sleep
 * for a request tag.  A bounded in-context path would still need this work
 * item as a fallback, so lunq keeps one path.  The queue is WQ_MEM_RECLAIM
 * because IO that frees memory may wait in it; WQ_HIGHPRI because the
 * dispatch delay adds to every waiter's latency.
 */
static struct workqueue_struct *lunq_wq;

static void lunq_dtr(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;

	/*
	 * The work re-arms the timer and the timer queues the work: stop the
	 * re-arming first, then the timer, then the work.
	 */
	spin_lock_irq(&lc->lock);
	lc->dying = true;
	spin_unlock_irq(&lc->lock);
	lunq_dev_detach(lc);	/* first: no sysfs or netlink caller after this */
	hrtimer_cancel(&lc->timer);
	cancel_work_sync(&lc->dispatch);
	lunq_evq_stop(&lc->evq);
	/* dm destroys a table only once no IO is in flight or waiting */
	WARN_ON_ONCE(lc->host.q.nr || lc->host.nr_retry || lc->host.inflight);
	if (lc->lun.pool)
		lunq_pool_put(lc->lun.pool);
	if (lc->dev)
		dm_put_device(ti, lc->dev);
	lunq_stats_free(&lc->st);
	mutex_destroy(&lc->msg_lock);
	kfree(lc);
}

/*
 * Parse @argc "key:value" words into a copy of *@p and check the result
 * as a whole; on success replace *@p.  @live: a "set" message, where
 * table-only keys are refused.  On failure *@p is unchanged, *@word points
 * at the bad word (or is NULL when the combination is wrong) and the
 * return value is the error text.
 */
static const char *lunq_parse_words(struct lunq_c *lc, struct lunq_policy *p,
				    unsigned int argc, char **argv,
				    bool live, const char **word)
{
	struct lunq_policy np = *p;
	const char *err;
	u32 seen = 0;
	unsigned int i;

	*word = NULL;
	for (i = 0; i < argc; i++) {
		enum lunq_arg_err aerr;
		enum lunq_key key;

		aerr = lunq_parse_word(&np, argv[i], &seen, &key);
		if (!aerr && live && lunq_key_table_only(key)) {
			*word = argv[i];
			return lunq_table_only_error(key);
		}
		if (aerr) {
			*word = argv[i];
			return lunq_arg_error(aerr, key);
		}
	}
	err = lunq_policy_check(&np);
	if (err)
		return err;
	/* rules that depend on the lower device or an existing pool */
	if (np.val[LUNQ_RESET_AFTER] && lc->zoned)
		return "reset_after: not on a zoned device (retrying an aborted zone write would break the zone's write order)";
	if (lc->lun.pool && np.val[LUNQ_FOREIGN] &&
	    !np.val[LUNQ_FOREIGN_PERIOD_MS] &&
	    np.val[LUNQ_FOREIGN] >= lc->lun.pool->depth)
		return "foreign: must be below the pool's depth unless foreign_period_ms is set";
	*p = np;
	return NULL;
}

static int lunq_parse_opts(struct lunq_c *lc, struct dm_arg_set *as)
{
	static const struct dm_arg opt_args = {
		0, 2 * LUNQ_NR_KEYS, "Invalid number of optional arguments"
	};
	struct dm_target *ti = lc->ti;
	const char *word;
	unsigned int n;
	int ret;

	if (!as->argc)
		return 0;
	ret = dm_read_arg_group(&opt_args, as, &n, &ti->error);
	if (ret)
		return ret;
	ti->error = (char *)lunq_parse_words(lc, &lc->policy, n, as->argv,
					     false, &word);
	if (ti->error) {
		if (word)
			DMERR("rejected optional argument '%.64s': %s", word,
			      ti->error);
		else
			DMERR("rejected optional arguments: %s", ti->error);
		return -EINVAL;
	}
	dm_consume_args(as, n);
	return 0;
}

/* Record a move of the live throttle in the log. */
static void lunq_tlog_add(struct lunq_c *lc, u64 now, u32 from, u32 to,
			  enum lunq_tcause cause)
{
	struct lunq_tlog *e = &lc->tlog[lc->tlog_n++ % LUNQ_TLOG_SIZE];

	e->t = now - lc->t0;
	e->from = min_t(u32, from, U16_MAX);
	e->to = min_t(u32, to, U16_MAX);
	e->cause = cause;
}

/*
 * Move the live throttle to @to (the reaction's or the configured value).
 * True when waiters can now be sent.  Under @lc->lock.
 */
static bool lunq_set_throttle(struct lunq_c *lc, u32 to, enum lunq_tcause cause,
			      u64 now)
{
	struct lunq_host *h = &lc->host;

	if (to == h->qdepth)
		return false;
	lunq_tlog_add(lc, now, h->qdepth, to, cause);
	if (cause != LUNQ_TC_SET)
		lc->throttle_changes++;
	if (lc->sysdev) {
		struct lunq_ev ev = { .kind = LUNQ_EV_THROTTLE, .t = now,
				      .from = h->qdepth, .to = to,
				      .cause = cause };

		lunq_ev_post(&lc->evq, &ev);
	}
	h->qdepth = to;
	return lunq_host_needs_kick(h);
}

/* Push @lc->policy into the IO path.  Under @lc->lock. */
static bool lunq_apply_policy(struct lunq_c *lc, u64 now)
{
	const u32 *v = lc->policy.val;
	struct lunq_react_cfg rc = {
		.mode = v[LUNQ_REACTION],
		.max = v[LUNQ_QDEPTH],
		.min = v[LUNQ_MIN_THROTTLE],
		/* scsi_track_queue_full() counts once per 16 jiffies */
		.bucket_ns = 16ULL * TICK_NSEC,
		.ramp_up_ns = (u64)v[LUNQ_RAMP_UP_MS] * NSEC_PER_MSEC,
		.restore_ns = (u64)v[LUNQ_RESTORE_MS] * NSEC_PER_MSEC,
		.step_ns = (u64)v[LUNQ_STEP_MS] * NSEC_PER_MSEC,
	};
	struct lunq_model_cfg mc = {
		.kind = v[LUNQ_MODEL],
		.svc_us = v[LUNQ_SVC_US],
		.channels = v[LUNQ_CHANNELS],
		.mbps = v[LUNQ_MBPS],
		.seek_ms = v[LUNQ_SEEK_MS],
		.rpm = v[LUNQ_RPM],
		.pblk = v[LUNQ_PBLK],
		.rmw_x = v[LUNQ_RMW_X],
		.capacity = lc->ti->len,
	};
	bool kick;

	lunq_react_config(&lc->react, &rc);
	kick = lunq_host_set(&lc->host, lc->host.qdepth, v[LUNQ_SCHED],
			     (u64)v[LUNQ_MAX_WAIT_MS] * NSEC_PER_MSEC);
	kick |= lunq_set_throttle(lc, lc->react.cur, LUNQ_TC_SET, now);

	lc->lun.depth = v[LUNQ_LUN_DEPTH];
	lc->lun.foreign = v[LUNQ_FOREIGN];
	lc->lun.foreign_period_ns = (u64)v[LUNQ_FOREIGN_PERIOD_MS] *
				    NSEC_PER_MSEC;
	lc->lun.reset_after = v[LUNQ_RESET_AFTER];
	lc->qfull_delay_ns = (u64)v[LUNQ_QFULL_DELAY_US] * NSEC_PER_USEC;
	lc->reset_ns = (u64)v[LUNQ_RESET_MS] * NSEC_PER_MSEC;
	WRITE_ONCE(lc->bubble_ns, (u64)v[LUNQ_BUBBLE_MS] * NSEC_PER_MSEC);
	lunq_model_config(&lc->model, &mc);
	return kick;
}

static void lunq_dispatch(struct work_struct *work);

/*
 * Fold the time since the last change into the iostat integrals and take
 * the counts now in force.  Under @lc->lock, after every change of the
 * number of IOs waiting (queue and retry list) or active (sent to the LUN).
 */
static void lunq_account(struct lunq_c *lc, u64 now)
{
	struct lunq_host *h = &lc->host;

	lunq_integ_update(&lc->integ, now, h->q.nr + h->nr_retry, h->inflight);
}

/* The device timer only wakes the dispatcher, which does the work. */
static enum hrtimer_restart lunq_timer_fn(struct hrtimer *t)
{
	struct lunq_c *lc = container_of(t, struct lunq_c, timer);

	queue_work(lunq_wq, &lc->dispatch);
	return HRTIMER_NORESTART;
}

/*
 * Arm the device timer for the earliest deadline: the end of a retry
 * delay or LUN reset, or an sd restore.  Under @lc->lock.
 */
static void lunq_arm_timer(struct lunq_c *lc)
{
	u64 at = lc->host.blocked ? lc->host.unblock_at : 0;
	u64 r = lunq_react_deadline(&lc->react);

	if (r && (!at || r < at))
		at = r;
	if (!at || lc->dying || (lc->timer_at && lc->timer_at <= at))
		return;
	lc->timer_at = at;
	hrtimer_start(&lc->timer, ns_to_ktime(at), HRTIMER_MODE_ABS_SOFT);
}

/*
 * Construct a lunq mapping: <dev_path> <offset> [<#opt_args> <opt_arg>...]
 */
static int lunq_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_arg_set as = { .argc = argc, .argv = argv };
	unsigned long long start;
	const char *path, *err;
	struct lunq_c *lc;
	sector_t dev_size;
	char dummy;
	int ret;

	if (argc < 2) {
		ti->error = "Missing <dev_path> or <offset>";
		return -EINVAL;
	}

	lc = kzalloc(sizeof(*lc), GFP_KERNEL);
	if (!lc) {
		ti->error = "Cannot allocate lunq context";
		return -ENOMEM;
	}
	lc->ti = ti;
	ti->private = lc;
	spin_lock_init(&lc->lock);
	mutex_init(&lc->msg_lock);
	INIT_WORK(&lc->dispatch, lunq_dispatch);
	hrtimer_setup(&lc->timer, lunq_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_SOFT);
	lunq_evq_init(&lc->evq);
	lunq_host_init(&lc->host);
	lunq_policy_init(&lc->policy);
	lc->t0 = ktime_get_ns();
	lc->crtime = lc->t0;
	lc->lun.t0 = lc->t0;
	lunq_integ_init(&lc->integ, lc->t0);

	path = dm_shift_arg(&as);
	ret = -EINVAL;
	if (sscanf(dm_shift_arg(&as), "%llu%c", &start, &dummy) != 1 ||
	    start != (sector_t)start) {
		ti->error = "Invalid offset: must be a sector number";
		goto bad;
	}
	lc->start = start;

	err = lunq_loop_self(ti, path);
	if (err) {
		ti->error = (char *)err;
		ret = -ELOOP;
		goto bad;
	}
	ret = dm_get_device(ti, path, dm_table_get_mode(ti->table), &lc->dev);
	if (ret) {
		ti->error = "Cannot open the lower device (check dev_path)";
		goto bad;
	}
	ret = lunq_loop_check(ti, lc->dev->bdev, &err);
	if (ret) {
		ti->error = (char *)err;
		goto bad;
	}
	dev_size = bdev_nr_sectors(lc->dev->bdev);
	if (lc->start >= dev_size || ti->len > dev_size - lc->start) {
		ti->error = "Offset plus length exceeds the lower device";
		ret = -EINVAL;
		goto bad;
	}
	lc->zoned = bdev_is_zoned(lc->dev->bdev);

	ret = lunq_parse_opts(lc, &as);
	if (ret)
		goto bad;
	if (as.argc) {
		ti->error = "Too many arguments after the optional arguments";
		ret = -EINVAL;
		goto bad;
	}
	if (lc->policy.given & (1U << LUNQ_POOL)) {
		lc->lun.pool = lunq_pool_get(lc->policy.pool,
					     lc->policy.val[LUNQ_POOL_DEPTH],
					     &err);
		if (IS_ERR(lc->lun.pool)) {
			ti->error = (char *)err;
			ret = PTR_ERR(lc->lun.pool);
			lc->lun.pool = NULL;
			goto bad;
		}
		/* a table joining the pool reads back the pool's depth */
		lc->policy.val[LUNQ_POOL_DEPTH] = lc->lun.pool->depth;
		/* a pool that already existed: check foreign against it */
		ti->error = (char *)lunq_parse_words(lc, &lc->policy, 0, NULL,
						     false, &err);
		if (ti->error) {
			ret = -EINVAL;
			goto bad;
		}
	}

	lc->spare = lunq_dev_alloc();
	if (!lc->spare || lunq_stats_alloc(&lc->st)) {
		ti->error = "Cannot allocate counters and histograms";
		ret = -ENOMEM;
		goto bad;
	}
	lunq_apply_policy(lc, lc->t0);
	lc->tlog_n = 0;		/* the initial value is not a change */

	ti->num_flush_bios = 1;
	ti->num_discard_bios = 1;
	ti->num_secure_erase_bios = 1;
	ti->num_write_zeroes_bios = 1;
	ti->per_io_data_size = sizeof(struct lunq_io);
	/* We call dm_submit_bio_remap(): dm accounts time from there on. */
	lunq_dm_accounts_remapped_io(ti);
	return 0;

bad:
	lunq_dtr(ti);
	return ret;
}

static inline struct lunq_io *lunq_io(struct bio *bio)
{
	return dm_per_bio_data(bio, sizeof(struct lunq_io));
}

static inline struct bio *lunq_io_bio(struct lunq_io *io)
{
	return dm_bio_from_per_bio_data(io, sizeof(struct lunq_io));
}

static inline struct bio *lunq_bio(struct lunq_waiter *w)
{
	return lunq_io_bio(container_of(w, struct lunq_io, w));
}

/*
 * Send @bio to the lower device; the LUN has accepted it.  A bio sent
 * again after a LUN reset gets its mapped position back first.  The bio
 * must not be touched afterwards: it may complete before
 * dm_submit_bio_remap() returns.
 */
static void lunq_send(struct lunq_c *lc, struct bio *bio)
{
	struct lunq_io *io = lunq_io(bio);

	if (io->flags & LUNQ_IO_ABORTED) {
		/*
		 * Sent again after a LUN reset: the lower device completed
		 * it, splits included (bio_chain() left __bi_remaining at 0
		 * and flags set); start afresh, as dm_bio_restore() does.
		 */
		bio->bi_flags = io->bi_flags;
		atomic_set(&bio->__bi_remaining, 1);
	}
	bio->bi_iter = io->iter;
	bio->bi_status = BLK_STS_OK;
	bio_set_dev(bio, lc->dev->bdev);
	if (bio_sectors(bio) || op_is_zone_mgmt(bio_op(bio)))
		bio->bi_iter.bi_sector = lc->start +
			dm_target_offset(lc->ti, bio->bi_iter.bi_sector);
	io->flags |= LUNQ_IO_SENT;
	lunq_stats_inc(&lc->st, LUNQ_ST_DISPATCHED);
	dm_submit_bio_remap(bio, NULL);
}

/*
 * The host sends @io (holding a throttle slot) to the emulated LUN at
 * @now.  True: accepted, the caller sends it below.  False: QUEUE FULL;
 * the reaction has moved the throttle and @io is on the retry list, or,
 * with @nowait, has given its slot back (the caller fails it).  Under
 * @lc->lock.
 */
static bool lunq_lun_send(struct lunq_c *lc, struct lunq_io *io,
			  struct bio *bio, u64 now, bool nowait)
{
	u32 throttle;

	if (lunq_lun_admit(&lc->lun, now)) {
		sector_t lba = dm_target_offset(lc->ti, io->iter.bi_sector);
		u32 sectors = bvec_iter_sectors(io->iter);

		io->gen = lc->lun.gen;
		io->finish = 0;
		/* the mapped size: a resent clone's bi_iter is spent */
		if (lc->model.cfg.kind && sectors &&
		    (bio_op(bio) == REQ_OP_READ || bio_op(bio) == REQ_OP_WRITE))
			io->finish = lunq_model_start(&lc->model, now, lba,
						      sectors);
		io->flags &= ~LUNQ_IO_RETRY;
		io->t_sent = now;
		return true;
	}
	lc->qfull++;
	lunq_ev_qfull(&lc->evq, now);
	/* in transport: what the host has outstanding besides this one */
	throttle = lunq_react_qfull(&lc->react, now, lc->host.inflight - 1);
	lunq_set_throttle(lc, throttle, LUNQ_TC_QFULL, now);
	if (lunq_lun_qfull(&lc->lun)) {
		struct lunq_ev ev = { .kind = LUNQ_EV_RESET, .t = now };

		lc->resets++;
		lunq_host_block(&lc->host, now + lc->reset_ns);
		lunq_ev_post(&lc->evq, &ev);
	}
	if (nowait) {
		lunq_host_done(&lc->host);
	} else if (io->flags & LUNQ_IO_RETRY) {
		/* refused again: keeps its place at the head of the retries */
		lunq_host_retry_again(&lc->host, &io->w, now,
				      lc->qfull_delay_ns);
	} else {
		io->flags |= LUNQ_IO_RETRY;
		lunq_host_requeue(&lc->host, &io->w, io->w.lba, now,
				  lc->qfull_delay_ns);
	}
	lunq_arm_timer(lc);
	return false;
}

/*
 * The dispatcher: ends blocks that are due, runs sd restores, and sends
 * retries and waiters while slots are free and the LUN accepts.  It takes
 * a batch under the lock and submits it outside; lunq_host.dispatching
 * keeps the map path from sending a newer bio ahead of the batch.
 */
static void lunq_dispatch(struct work_struct *work)
{
	struct lunq_c *lc = container_of(work, struct lunq_c, dispatch);
	struct lunq_waiter *w;
	struct bio_list list;
	struct bio *bio;

	for (;;) {
		u64 now;

		bio_list_init(&list);
		spin_lock_irq(&lc->lock);
		now = ktime_get_ns();	/* after every waiter's t_queued */
		lc->timer_at = 0;
		lunq_host_unblock(&lc->host, now);
		lunq_set_throttle(lc, lunq_react_tick(&lc->react, now),
				  LUNQ_TC_RESTORE, now);
		while ((w = lunq_host_next(&lc->host, now))) {
			struct lunq_io *io = container_of(w, struct lunq_io, w);

			bio = lunq_io_bio(io);
			if (io->flags & LUNQ_IO_RETRY)
				lc->retried++;
			if (!lunq_lun_send(lc, io, bio, now, false))
				break;
			bio_list_add(&list, bio);
		}
		lc->host.dispatching = !bio_list_empty(&list);
		lunq_account(lc, now);
		lunq_arm_timer(lc);
		spin_unlock_irq(&lc->lock);
		if (bio_list_empty(&list))
			break;
		while ((bio = bio_list_pop(&list)))
			lunq_send(lc, bio);
		cond_resched();
	}
}

static void lunq_kick(struct lunq_c *lc)
{
	queue_work(lunq_wq, &lc->dispatch);
}

/*
 * Ordering barriers (see lunq_sched.h): flushes and FUA writes keep their
 * place relative to every other bio, and so does every write, zone append
 * and zone management command (open, close, finish, reset) to a zoned
 * device: zones must be written in order, and a write must not pass the
 * command that moves its zone's write pointer.
 */
static bool lunq_is_barrier(struct lunq_c *lc, struct bio *bio)
{
	return op_is_flush(bio->bi_opf) ||
	       (lc->zoned && (op_is_write(bio_op(bio)) ||
			      op_is_zone_mgmt(bio_op(bio))));
}

static int lunq_map(struct dm_target *ti, struct bio *bio)
{
	struct lunq_c *lc = ti->private;
	struct lunq_io *io = lunq_io(bio);
	u64 lba = bio_sectors(bio) ? bio->bi_iter.bi_sector : LUNQ_NO_LBA;
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	unsigned long flags;
	bool kick, sent;
	u64 now;

	io->flags = 0;
	/*
	 * dm sets QUEUE_FLAG_NOWAIT from the target type alone; a lower
	 * device without it (dm-flakey, dm-delay) would fail the bio with
	 * BLK_STS_NOTSUPP, counted here as an error the caller then retries
	 * unseen.  Refuse it as one that would wait: not sent, not counted.
	 */
	if (unlikely(nowait && !bdev_nowait(lc->dev->bdev))) {
		bio_wouldblock_error(bio);
		return DM_MAPIO_SUBMITTED;
	}
	io->flush = op_is_flush(bio->bi_opf) && !bio_sectors(bio);
	io->iter = bio->bi_iter;
	io->bi_flags = bio->bi_flags;
	io->w.lba = lba;
	spin_lock_irqsave(&lc->lock, flags);
	now = ktime_get_ns();
	io->t_arrive = now;
	if (lunq_host_try_send(&lc->host, lba)) {
		sent = lunq_lun_send(lc, io, bio, now, nowait);
		lunq_account(lc, now);
		spin_unlock_irqrestore(&lc->lock, flags);
		if (sent)
			lunq_send(lc, bio);
		else if (nowait)
			bio_wouldblock_error(bio);
		return DM_MAPIO_SUBMITTED;
	}
	if (nowait) {
		spin_unlock_irqrestore(&lc->lock, flags);
		bio_wouldblock_error(bio);
		return DM_MAPIO_SUBMITTED;
	}
	/* a noflush suspend is under way: hand new waiters back to dm */
	if (lc->pushback && dm_noflush_suspending(ti)) {
		spin_unlock_irqrestore(&lc->lock, flags);
		lunq_stats_inc(&lc->st, LUNQ_ST_REQUEUED);
		return DM_MAPIO_REQUEUE;
	}
	lunq_host_wait(&lc->host, &io->w, lba, lunq_is_barrier(lc, bio), now);
	lunq_account(lc, now);
	kick = lunq_host_needs_kick(&lc->host);
	spin_unlock_irqrestore(&lc->lock, flags);
	if (kick)
		lunq_kick(lc);
	return DM_MAPIO_SUBMITTED;
}

/* The model's time for a held completion has come: complete it again. */
static enum hrtimer_restart lunq_io_timer_fn(struct hrtimer *t)
{
	bio_endio(lunq_io_bio(container_of(t, struct lunq_io, timer)));
	return HRTIMER_NORESTART;
}

/*
 * Statistics of a completed IO, recorded without a lock; a bubble alarm
 * when it took longer than bubble_ms.
 */
static void lunq_io_done(struct lunq_c *lc, struct lunq_io *io,
			 struct bio *bio, u64 now, blk_status_t error)
{
	u64 bubble = READ_ONCE(lc->bubble_ns);
	struct lunq_done d = {
		.op = bio_op(bio),
		/* as mapped: the block layer may strip REQ_PREFLUSH below */
		.flush = io->flush,
		.error = error != BLK_STS_OK,
		.sector = io->iter.bi_sector,
		.bytes = io->iter.bi_size,
		.wait_ns = io->t_sent - io->t_arrive,
		.svc_ns = now > io->t_sent ? now - io->t_sent : 0,
	};

	lunq_stats_done(&lc->st, &d);
	if (bubble && d.wait_ns + d.svc_ns > bubble && !d.flush &&
	    (d.op == REQ_OP_READ || d.op == REQ_OP_WRITE)) {
		struct lunq_ev ev = {
			.kind = LUNQ_EV_BUBBLE, .t = now,
			.write = d.op == REQ_OP_WRITE, .sector = d.sector,
			.bytes = d.bytes, .wait_ns = d.wait_ns,
			.svc_ns = d.svc_ns,
		};

		lunq_stats_inc(&lc->st, LUNQ_ST_BUBBLES);
		lunq_ev_post(&lc->evq, &ev);
	}
}

/*
 * The lower device refused a REQ_NOWAIT bio (e.g. one it would have to
 * split): not served, so not held for the model's time.  Completed at
 * once, in the submitter's context, io_uring reissues it without
 * REQ_NOWAIT; completed from the model's timer it would reach the
 * application as EAGAIN.
 */
static bool lunq_refused_below(struct bio *bio, blk_status_t error)
{
	return (bio->bi_opf & REQ_NOWAIT) &&
	       (error == BLK_STS_AGAIN || error == BLK_STS_NOTSUPP);
}

/*
 * Completion.  First pass, from the lower device: a completion the model
 * says is early is held (DM_ENDIO_INCOMPLETE) and comes back here from
 * lunq_io_timer_fn() at ->finish.  Then the command leaves the LUN: it
 * frees its slots, the reaction sees a good completion; a command that a
 * LUN reset aborted goes to the retry list instead and is sent again.
 */
static int lunq_end_io(struct dm_target *ti, struct bio *bio,
		       blk_status_t *error)
{
	struct lunq_c *lc = ti->private;
	struct lunq_io *io = lunq_io(bio);
	unsigned long flags;
	bool kick;
	u64 now;

	if (!(io->flags & LUNQ_IO_SENT))
		return DM_ENDIO_DONE;	/* refused (NOWAIT) or pushed back */
	if (io->flags & LUNQ_IO_HELD) {
		io->flags &= ~LUNQ_IO_HELD;
		*error = io->status;
	} else if (io->finish && io->finish > ktime_get_ns() &&
		   !lunq_refused_below(bio, *error) &&
		   (io->gen == READ_ONCE(lc->lun.gen) ||
		    (io->flags & LUNQ_IO_ABORTED))) {
		io->status = *error;
		io->flags |= LUNQ_IO_HELD;
		hrtimer_setup(&io->timer, lunq_io_timer_fn, CLOCK_MONOTONIC,
			      HRTIMER_MODE_ABS_SOFT);
		hrtimer_start(&io->timer, ns_to_ktime(io->finish),
			      HRTIMER_MODE_ABS_SOFT);
		return DM_ENDIO_INCOMPLETE;
	}

	spin_lock_irqsave(&lc->lock, flags);
	/* under the lock: the reaction's times must never go backwards */
	now = ktime_get_ns();
	lunq_lun_release(&lc->lun);
	/*
	 * Aborted by a LUN reset: the host retries it.  A command is aborted
	 * at most once, so a reset storm (resets coming faster than the
	 * device completes) cannot keep the same IO from ever finishing.
	 */
	if (unlikely(io->gen != lc->lun.gen && !(io->flags & LUNQ_IO_ABORTED))) {
		io->flags = LUNQ_IO_RETRY | LUNQ_IO_ABORTED;
		lc->aborted++;
		lunq_host_requeue(&lc->host, &io->w, io->w.lba, now, 0);
		lunq_account(lc, now);
		lunq_arm_timer(lc);
		spin_unlock_irqrestore(&lc->lock, flags);
		return DM_ENDIO_INCOMPLETE;
	}
	kick = lunq_host_done(&lc->host);
	lunq_account(lc, now);
	if (!*error)
		kick |= lunq_set_throttle(lc, lunq_react_good(&lc->react, now),
					  LUNQ_TC_RAMP_UP, now);
	spin_unlock_irqrestore(&lc->lock, flags);
	lunq_io_done(lc, io, bio, now, *error);
	if (kick)
		lunq_kick(lc);
	return DM_ENDIO_DONE;
}

/*
 * Suspend.  presuspend runs before dm blocks new IO, so from here on the
 * map path (under the same lock) knows a suspend is coming:
 *  - flush suspend: waiters and retries drain through the throttle and
 *    the LUN, in order (the throttle is what is being measured, so a
 *    suspend never bursts the LUN with more than qdepth IOs); dm waits
 *    for them to complete.
 *  - noflush suspend: every waiter and retry is handed back to dm, which
 *    re-issues it after resume (to the new table after a reload); new bios
 *    that would wait are handed back too.  Writes to a zoned device cannot
 *    be handed back (dm would fail them), so there noflush drains as well.
 * IOs already sent below are never aborted: dm waits for them (and for
 * completions the model still holds).
 */
static void lunq_presuspend(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;
	struct lunq_waiter *w;
	struct bio_list list;
	struct bio *bio;

	bio_list_init(&list);
	spin_lock_irq(&lc->lock);
	lc->pushback = dm_noflush_suspending(ti) && !lc->zoned;
	while (lc->pushback && (w = lunq_host_pop_any(&lc->host)))
		bio_list_add(&list, lunq_bio(w));
	lunq_account(lc, ktime_get_ns());
	spin_unlock_irq(&lc->lock);

	while ((bio = bio_list_pop(&list))) {
		lunq_stats_inc(&lc->st, LUNQ_ST_REQUEUED);
		lunq_io(bio)->flags = 0;
		bio->bi_status = BLK_STS_DM_REQUEUE;
		bio_endio(bio);
	}
}

static void lunq_postsuspend(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;

	/* nothing is in flight any more; let a last dispatcher run finish */
	flush_work(&lc->dispatch);
}

static void lunq_resume(struct dm_target *ti)
{
	struct lunq_c *lc = ti->private;
	bool kick;

	lunq_dev_attach(lc);

	spin_lock_irq(&lc->lock);
	lc->pushback = false;
	kick = lunq_host_needs_kick(&lc->host);
	lunq_arm_timer(lc);
	spin_unlock_irq(&lc->lock);
	if (kick)
		lunq_kick(lc);
}

void lunq_get_policy(struct lunq_c *lc, struct lunq_policy *p)
{
	spin_lock_irq(&lc->lock);
	*p = lc->policy;
	spin_unlock_irq(&lc->lock);
}

int lunq_set_words(struct lunq_c *lc, unsigned int argc, char **argv,
		   const char **err, const char **word)
{
	struct lunq_policy np;
	bool kick;

	mutex_lock(&lc->msg_lock);
	lunq_get_policy(lc, &np);
	*err = lunq_parse_words(lc, &np, argc, argv, true, word);
	if (*err) {
		mutex_unlock(&lc->msg_lock);
		return -EINVAL;
	}
	spin_lock_irq(&lc->lock);
	lc->policy = np;
	kick = lunq_apply_policy(lc, ktime_get_ns());
	lunq_arm_timer(lc);
	spin_unlock_irq(&lc->lock);
	mutex_unlock(&lc->msg_lock);
	if (kick)
		lunq_kick(lc);
	return 0;
}

/* "set <key:value>...": all words are checked before any applies. */
static int lunq_msg_set(struct lunq_c *lc, unsigned int argc, char **argv)
{
	struct mapped_device *md = dm_table_get_md(lc->ti->table);
	const char *err, *word;

	if (!argc) {
		DMERR("%s: message 'set': no key:value given",
		      dm_device_name(md));
		return -EINVAL;
	}
	if (!lunq_set_words(lc, argc, argv, &err, &word))
		return 0;
	if (word)
		DMERR("%s: message 'set' rejected '%.64s': %s; nothing changed",
		      dm_device_name(md), word, err);
	else
		DMERR("%s: message 'set' rejected: %s; nothing changed",
		      dm_device_name(md), err);
	return -EINVAL;
}

void lunq_stats_reset(struct lunq_c *lc)
{
	lunq_stats_zero(&lc->st);
	lunq_evq_reset(&lc->evq);
	spin_lock_irq(&lc->lock);
	lunq_host_reset_max(&lc->host);
	lc->qfull = 0;
	lc->resets = 0;
	lc->aborted = 0;
	lc->retried = 0;
	lc->throttle_changes = 0;
	lc->crtime = ktime_get_ns();
	lunq_integ_reset(&lc->integ, lc->crtime);
	spin_unlock_irq(&lc->lock);
}

void lunq_take_over(struct lunq_c *lc, struct lunq_c *old)
{
	struct lunq_integ g;
	u64 c[5], crtime;
	u32 maxi, maxw;

	lunq_stats_merge(&lc->st, &old->st);
	lunq_evq_add_dropped(&lc->evq, lunq_evq_dropped(&old->evq));
	spin_lock_irq(&old->lock);
	c[0] = old->qfull;
	c[1] = old->resets;
	c[2] = old->aborted;
	c[3] = old->retried;
	c[4] = old->throttle_changes;
	maxi = old->host.max_inflight;
	maxw = old->host.max_waiting;
	g = old->integ;
	crtime = old->crtime;
	spin_unlock_irq(&old->lock);

	spin_lock_irq(&lc->lock);
	lc->qfull += c[0];
	lc->resets += c[1];
	lc->aborted += c[2];
	lc->retried += c[3];
	lc->throttle_changes += c[4];
	lc->host.max_inflight = max(lc->host.max_inflight, maxi);
	lc->host.max_waiting = max(lc->host.max_waiting, maxw);
	lc->integ.wlentime += g.wlentime;
	lc->integ.rlentime += g.rlentime;
	lc->integ.wtime += g.wtime;
	lc->integ.rtime += g.rtime;
	lc->crtime = min(lc->crtime, crtime);	/* the counters it carries */
	spin_unlock_irq(&lc->lock);
}

/*
 * "throttle log": the last LUNQ_TLOG_SIZE moves of the live throttle, oldest
 * first, one per line: <ms since the table was loaded> <from> <to> <cause>.
 */
static int lunq_msg_tlog(struct lunq_c *lc, char *result, unsigned int maxlen)
{
	struct lunq_tlog *log;
	unsigned int sz = 0;
	u64 n, i;

	log = kmalloc_array(LUNQ_TLOG_SIZE, sizeof(*log), GFP_KERNEL);
	if (!log)
		return -ENOMEM;
	spin_lock_irq(&lc->lock);
	memcpy(log, lc->tlog, sizeof(lc->tlog));
	n = lc->tlog_n;
	spin_unlock_irq(&lc->lock);

	for (i = n > LUNQ_TLOG_SIZE ? n - LUNQ_TLOG_SIZE : 0; i < n; i++) {
		struct lunq_tlog *e = &log[i % LUNQ_TLOG_SIZE];

		DMEMIT("%llu %u %u %s\n", div_u64(e->t, NSEC_PER_MSEC),
		       e->from, e->to, lunq_tcause_names[e->cause]);
	}
	kfree(log);
	return 1;
}

static int lunq_message(struct dm_target *ti, unsigned int argc, char **argv,
			char *result, unsigned int maxlen)
{
	struct lunq_c *lc = ti->private;

	if (argc >= 1 && !strcmp(argv[0], "set"))
		return lunq_msg_set(lc, argc - 1, argv + 1);
	if (argc == 2 && !strcmp(argv[0], "stats") &&
	    !strcmp(argv[1], "reset")) {
		lunq_stats_reset(lc);
		return 0;
	}
	if (argc == 2 && !strcmp(argv[0], "throttle") &&
	    !strcmp(argv[1], "log"))
		return lunq_msg_tlog(lc, result, maxlen);
	DMERR("%s: unknown message '%.32s': expected 'set <key:value>...', 'stats reset' or 'throttle log'",
	      dm_device_name(dm_table_get_md(ti->table)),
	      argc ? argv[0] : "");
	return -EINVAL;
}

void lunq_fill_stats(struct lunq_c *lc, u64 *v)
{
	struct lunq_host *h = &lc->host;
	u64 now;

	memset(v, 0, __LUNQ_ST_MAX * sizeof(*v));
	lunq_stats_sum(&lc->st, v);
	v[LUNQ_ST_EVENTS_DROPPED] = lunq_evq_dropped(&lc->evq);
	v[LUNQ_ST_POOL_INFLIGHT] = lc->lun.pool ?
		atomic_read(&lc->lun.pool->inflight) : 0;

	spin_lock_irq(&lc->lock);
	now = ktime_get_ns();
	v[LUNQ_ST_THROTTLE] = h->qdepth;
	v[LUNQ_ST_INFLIGHT] = h->inflight;
	v[LUNQ_ST_WAITING] = h->q.nr;
	v[LUNQ_ST_RETRYING] = h->nr_retry;
	v[LUNQ_ST_MAX_INFLIGHT] = h->max_inflight;
	v[LUNQ_ST_MAX_WAITING] = h->max_waiting;
	v[LUNQ_ST_OLDEST_WAIT_NS] = h->q.nr ?
		now - lunq_queue_oldest(&h->q) : 0;
	v[LUNQ_ST_LUN_INFLIGHT] = lc->lun.inflight;
	v[LUNQ_ST_QFULL] = lc->qfull;
	v[LUNQ_ST_RESETS] = lc->resets;
	v[LUNQ_ST_ABORTED] = lc->aborted;
	v[LUNQ_ST_RETRIED] = lc->retried;
	v[LUNQ_ST_THROTTLE_CHANGES] = lc->throttle_changes;
	lunq_integ_update(&lc->integ, now, lc->integ.nwait, lc->integ.nact);
	v[LUNQ_ST_SNAPTIME_NS] = now;
	v[LUNQ_ST_WLENTIME_NS] = lc->integ.wlentime;
	v[LUNQ_ST_RLENTIME_NS] = lc->integ.rlentime;
	v[LUNQ_ST_WTIME_NS] = lc->integ.wtime;
	v[LUNQ_ST_RTIME_NS] = lc->integ.rtime;
	v[LUNQ_ST_CRTIME_NS] = lc->crtime;
	spin_unlock_irq(&lc->lock);
}

/*
 * INFO is a list of key=value words (kmod/dm-lunq.rst); new keys are only
 * ever appended.  TABLE echoes a line that recreates the device with the
 * policy now in force.
 */
static void lunq_status(struct dm_target *ti, status_type_t type,
			unsigned int status_flags, char *result,
			unsigned int maxlen)
{
	struct lunq_c *lc = ti->private;
	u64 v[__LUNQ_ST_MAX];
	struct lunq_policy policy;
	unsigned int nopt;
	size_t sz = 0;

	switch (type) {
	case STATUSTYPE_INFO:
		lunq_fill_stats(lc, v);
		spin_lock_irq(&lc->lock);
		policy = lc->policy;
		spin_unlock_irq(&lc->lock);
		DMEMIT("qdepth=%llu sched=%s max_wait_ms=%u",
		       v[LUNQ_ST_THROTTLE],
		       policy.val[LUNQ_SCHED] ? "disksort" : "fifo",
		       policy.val[LUNQ_MAX_WAIT_MS]);
		DMEMIT(" inflight=%llu waiting=%llu oldest_wait_ms=%llu",
		       v[LUNQ_ST_INFLIGHT], v[LUNQ_ST_WAITING],
		       div_u64(v[LUNQ_ST_OLDEST_WAIT_NS], NSEC_PER_MSEC));
		DMEMIT(" dispatched=%llu completed=%llu max_inflight=%llu max_waiting=%llu",
		       v[LUNQ_ST_DISPATCHED], v[LUNQ_ST_COMPLETED],
		       v[LUNQ_ST_MAX_INFLIGHT], v[LUNQ_ST_MAX_WAITING]);
		DMEMIT(" lun_inflight=%llu retrying=%llu qfull=%llu resets=%llu",
		       v[LUNQ_ST_LUN_INFLIGHT], v[LUNQ_ST_RETRYING],
		       v[LUNQ_ST_QFULL], v[LUNQ_ST_RESETS]);
		DMEMIT(" aborted=%llu retried=%llu throttle_changes=%llu",
		       v[LUNQ_ST_ABORTED], v[LUNQ_ST_RETRIED],
		       v[LUNQ_ST_THROTTLE_CHANGES]);
		DMEMIT(" pool=%s pool_inflight=%llu",
		       lc->lun.pool ? lunq_pool_name(lc->lun.pool) : "-",
		       v[LUNQ_ST_POOL_INFLIGHT]);
		DMEMIT(" snaptime_ns=%llu wlentime_ns=%llu rlentime_ns=%llu",
		       v[LUNQ_ST_SNAPTIME_NS], v[LUNQ_ST_WLENTIME_NS],
		       v[LUNQ_ST_RLENTIME_NS]);
		DMEMIT(" wtime_ns=%llu rtime_ns=%llu", v[LUNQ_ST_WTIME_NS],
		       v[LUNQ_ST_RTIME_NS]);
		break;

	case STATUSTYPE_TABLE:
		lunq_get_policy(lc, &policy);
		DMEMIT("%s %llu", lc->dev->name, (unsigned long long)lc->start);
		nopt = hweight32(policy.given);
		if (nopt) {
			DMEMIT(" %u ", nopt);
			lunq_policy_format(&policy, result + sz, maxlen - sz);
		}
		break;

	case STATUSTYPE_IMA:
		DMEMIT_TARGET_NAME_VERSION(ti->type);
		DMEMIT(",device_name=%s,start=%llu;", lc->dev->name,
		       (unsigned long long)lc->start);
		break;
	}
}

#ifdef CONFIG_BLK_DEV_ZONED
/* zones of the lower device, remapped as dm-linear does */
static int lunq_report_zones(struct dm_target *ti,
			     struct dm_report_zones_args *args,
			     unsigned int nr_zones)
{
	struct lunq_c *lc = ti->private;

	return dm_report_zones(lc->dev->bdev, lc->start,
			       lc->start + dm_target_offset(ti, args->next_sector),
			       args, nr_zones);
}
#else
#define lunq_report_zones NULL
#endif

static int lunq_iterate_devices(struct dm_target *ti,
				iterate_devices_callout_fn fn, void *data)
{
	struct lunq_c *lc = ti->private;

	return fn(ti, lc->dev, lc->start, ti->len, data);
}

/*
 * Device-mapper stacks the lower device's limits through
 * iterate_devices, so a pass-through LUN looks exactly like the device
 * below it (block sizes, discard and write-zeroes limits, write cache).
 * An emulated LUN with a pblk (table-only) advertises that physical block
 * size, as a 512e disk does, so tools can see what the model penalises.
 */
static void lunq_io_hints(struct dm_target *ti, struct queue_limits *limits)
{
	struct lunq_c *lc = ti->private;

	unsigned int pblk = lc->policy.val[LUNQ_PBLK];

	if (lc->policy.given & (1U << LUNQ_PBLK)) {
		limits->physical_block_size = max(limits->physical_block_size,
						  pblk);
		limits->io_min = max_t(unsigned int, limits->io_min,
				       limits->physical_block_size);
	}
}

static struct target_type lunq_target = {
	.name		 = "lunq",
	.version	 = {0, 5, 0},
	.features	 = DM_TARGET_NOWAIT | DM_TARGET_ZONED_HM,
	.module		 = THIS_MODULE,
	.ctr		 = lunq_ctr,
	.dtr		 = lunq_dtr,
	.map		 = lunq_map,
	.end_io		 = lunq_end_io,
	.presuspend	 = lunq_presuspend,
	.presuspend_undo = lunq_resume,
	.postsuspend	 = lunq_postsuspend,
	.resume		 = lunq_resume,
	.message	 = lunq_message,
	.status		 = lunq_status,
	.report_zones	 = lunq_report_zones,
	.iterate_devices = lunq_iterate_devices,
	.io_hints	 = lunq_io_hints,
};

static int __init dm_lunq_init(void)
{
	int ret = -ENOMEM;

	lunq_wq = alloc_workqueue("kdmlunq", WQ_MEM_RECLAIM | WQ_HIGHPRI, 0);
	if (!lunq_wq)
		return -ENOMEM;
	lunq_sysfs_init();
	ret = lunq_dev_init();
	if (ret)
		goto bad_dev;
	ret = lunq_nl_init();
	if (ret)
		goto bad_nl;
	ret = dm_register_target(&lunq_target);
	if (ret) {
		DMERR("register failed %d", ret);
		goto bad_reg;
	}
	return 0;

bad_reg:
	lunq_nl_exit();
bad_nl:
	lunq_dev_exit();
bad_dev:
	destroy_workqueue(lunq_wq);
	return ret;
}

static void __exit dm_lunq_exit(void)
{
	dm_unregister_target(&lunq_target);
	lunq_nl_exit();
	lunq_dev_exit();
	destroy_workqueue(lunq_wq);
}

module_init(dm_lunq_init);
module_exit(dm_lunq_exit);

MODULE_DESCRIPTION(DM_NAME " lunq target: per-LUN throttling and scheduling lab");
MODULE_AUTHOR("The lunq developers");
MODULE_LICENSE("GPL");
