// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq, the host side of a bio, see lunq_io.h.
 */
#include <linux/blkdev.h>
#include <linux/device-mapper.h>
#include <linux/ktime.h>
#include <linux/sched.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>

#include "lunq_compat.h"
#include "lunq_io.h"
#include "lunq_policy.h"
#include "lunq_throttle_dev.h"
#include "lunq_xflush.h"
#include "lunq_trace.h"

#define DM_MSG_PREFIX "lunq"

/*
 * The ceiling of zone_wait_ms: a suspend of a zoned device waits for the
 * writes the plug holds, so at most this long.
 */
#define LUNQ_ZONE_WAIT_MS_MAX	10000

/* Read when a table is loaded. */
static unsigned int zone_wait_ms = 1000;

/* A value above the ceiling is taken as the ceiling, with a warning. */
static int lunq_zone_wait_set(const char *val, const struct kernel_param *kp)
{
	unsigned int ms;
	int ret = kstrtouint(val, 0, &ms);

	if (ret)
		return ret;
	if (ms > LUNQ_ZONE_WAIT_MS_MAX) {
		DMWARN("zone_wait_ms: %u is above its ceiling, %u taken",
		       ms, LUNQ_ZONE_WAIT_MS_MAX);
		ms = LUNQ_ZONE_WAIT_MS_MAX;
	}
	WRITE_ONCE(*(unsigned int *)kp->arg, ms);
	return 0;
}

static const struct kernel_param_ops lunq_zone_wait_ops = {
	.set = lunq_zone_wait_set,
	.get = param_get_uint,
};
module_param_cb(zone_wait_ms, &lunq_zone_wait_ops, &zone_wait_ms, 0644);
MODULE_PARM_DESC(zone_wait_ms,
		 "how long a write to a zoned lower device that is not at its zone's write pointer waits for the writes before it, then goes below as it is (default 1000, at least 1, at most 10000)");

/*
 * Point @bio at the lower device (zone management commands carry a
 * position and no data), as sent, and count it dispatched.
 */
static void lunq_io_remap(struct lunq_c *lc, struct lunq_io *io,
			  struct bio *bio)
{
	bio_set_dev(bio, lc->dev->bdev);
	if (bio_sectors(bio) || op_is_zone_mgmt(bio_op(bio)))
		bio->bi_iter.bi_sector = lc->start +
			dm_target_offset(lc->ti, bio->bi_iter.bi_sector);
	io->flags |= LUNQ_IO_SENT;
	lunq_stats_inc(&lc->st, LUNQ_ST_DISPATCHED);
	trace_lunq_dispatch(&lc->evq, io->iter.bi_sector, io->iter.bi_size,
			    bio_op(bio), bio->bi_iter.bi_sector,
			    io->t_sent - io->t_arrive);
}

/*
 * A bio sent again after a LUN reset gets its mapped position back first.
 * The bio must not be touched afterwards: it may complete before
 * dm_submit_bio_remap() returns.
 */
void lunq_io_send(struct lunq_c *lc, struct bio *bio)
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
	lunq_io_remap(lc, io, bio);
	if (lunq_xflush_take(bio))	/* test-only build; else false */
		return;
	dm_submit_bio_remap(bio, NULL);
}

/*
 * A slot of the throttle's lock-free path (lunq_fast_enter()), two
 * clock reads per IO (here and at completion), per-CPU sums, no lock
 * (busy periods too: lunq_busy.h).  True: @bio is remapped to the lower
 * device, for dm core to send (DM_MAPIO_REMAPPED: the first send needs
 * none of lunq_io_send()'s restoring).  False: the locked path takes it.
 */
bool lunq_io_fast_map(struct lunq_c *lc, struct lunq_io *io, struct bio *bio)
{
	u64 now;

	if (!lunq_fast_enter(lc, bio_sectors(bio) ? bio->bi_iter.bi_sector :
				 LUNQ_NO_LBA, &now))
		return false;
	io->flags = LUNQ_IO_FAST;
	io->t_arrive = now;
	io->t_sent = now;
	/* remapped here, sent by dm core on return (DM_MAPIO_REMAPPED) */
	lunq_io_remap(lc, io, bio);
	return true;
}

/* A completion over bubble_ms: counted, traced, posted (lunq_io_done()). */
static noinline void lunq_io_bubble(struct lunq_c *lc, u64 now,
				    enum req_op op, blk_status_t error,
				    u64 sector, u32 bytes, u64 wait_ns,
				    u64 svc_ns)
{
	struct lunq_ev ev = {
		.kind = LUNQ_EV_BUBBLE, .t = now,
		.write = op == REQ_OP_WRITE, .sector = sector,
		.bytes = bytes, .wait_ns = wait_ns, .svc_ns = svc_ns,
	};

	lunq_stats_inc(&lc->st, LUNQ_ST_BUBBLES);
	trace_lunq_bubble(&lc->evq, sector, bytes, op, error, wait_ns, svc_ns);
	lunq_ev_post(&lc->evq, &ev);
}

/*
 * lunq_io_done(), inline in the lock-free path's completion.  Every IO
 * passes here (doc/benchmarks.md): its figures stay in registers (no
 * structure on the stack, the bubble's event apart), and the trace
 * events convert @error only when on.  The rule for an empty flush is
 * here (a read or write without data, as mapped), the rest of the
 * statistics' in lunq_stats_done().
 */
static __always_inline void lunq_io_record(struct lunq_c *lc,
					   struct lunq_io *io,
					   struct bio *bio, u64 now,
					   blk_status_t error)
{
	u64 bubble = READ_ONCE(lc->bubble_ns);
	enum req_op op = bio_op(bio);
	bool rw = op == REQ_OP_READ || op == REQ_OP_WRITE;
	u64 sector = io->iter.bi_sector;
	u32 bytes = io->iter.bi_size;
	u64 wait_ns = io->t_sent - io->t_arrive;
	u64 svc_ns = now > io->t_sent ? now - io->t_sent : 0;

	if (unlikely(error != BLK_STS_OK))
		lunq_stats_inc(&lc->st, LUNQ_ST_ERRORS);
	trace_lunq_complete(&lc->evq, sector, bytes, op, error, wait_ns,
			    svc_ns);
	/* io->flush as mapped: the block layer may strip REQ_PREFLUSH below */
	if (unlikely(io->flush) && rw) {
		lunq_stats_flushed(&lc->st);
		return;
	}
	if (unlikely(bubble && wait_ns + svc_ns > bubble) && rw)
		lunq_io_bubble(lc, now, op, error, sector, bytes, wait_ns,
			       svc_ns);
	lunq_stats_done(&lc->st, op, sector, bytes, wait_ns, svc_ns);
}

int lunq_io_fast_end(struct lunq_c *lc, struct lunq_io *io, struct bio *bio,
		     blk_status_t error)
{
	u64 now = lunq_fast_clock();
	struct lunq_pcpu *p = get_cpu_ptr(lc->st.pc);
	bool drained;

	lunq_span_close(&p->io, now);
	drained = lunq_fast_put_slot(lc, p, now);
	put_cpu_ptr(lc->st.pc);
	if (drained)
		lunq_fast_drained(lc);
	if (io->flush && !error)
		lunq_xflush_flushed();	/* test-only build; else nothing */
	lunq_io_record(lc, io, bio, now, error);
	return DM_ENDIO_DONE;
}

static enum lunq_model_dir lunq_model_dir(const struct bio *bio)
{
	if (bio_op(bio) == REQ_OP_READ)
		return LUNQ_MD_READ;
	return bio->bi_opf & REQ_FUA ? LUNQ_MD_FUA : LUNQ_MD_WRITE;
}

/* Set @io's completion time, known at last; held: release it then. */
static void lunq_io_drive_set(struct lunq_io *io, u64 finish)
{
	WRITE_ONCE(io->finish, finish);
	if (io->flags & LUNQ_IO_DRIVE) {
		io->flags &= ~LUNQ_IO_DRIVE;
		hrtimer_start(&io->timer, ns_to_ktime(finish),
			      HRTIMER_MODE_ABS_SOFT);
	}
}

void lunq_io_drive_pick(struct lunq_c *lc, u64 now)
{
	struct lunq_io *io;
	u64 finish;

	while ((io = lunq_model_pick(&lc->model, now, &finish)))
		lunq_io_drive_set(io, finish);
}

/* The LUN answers QUEUE FULL; after reset_after in a row, it resets. */
static void lunq_io_lun_refuses(struct lunq_c *lc, u64 now)
{
	if (lunq_lun_qfull(&lc->lun)) {
		struct lunq_ev ev = { .kind = LUNQ_EV_RESET, .t = now };
		struct lunq_io *io;
		u32 aborted = 0;

		/* the drive's queue is aborted: each ends now, as aborted */
		while ((io = lunq_model_unqueue(&lc->model))) {
			lunq_io_drive_set(io, now);
			aborted++;
		}

		lc->resets++;
		lunq_host_block(&lc->host, now + lc->reset_ns);
		trace_lunq_reset(&lc->evq, lc->resets, aborted, lc->reset_ns);
		lunq_note(lc, "LUN reset %llu, %u queued commands aborted",
			  lc->resets, aborted);
		lunq_ev_post(&lc->evq, &ev);
	}
}

/*
 * The host learns of a QUEUE FULL for @io at @now: the reaction moves the
 * throttle, @io goes to the retry list (or, @nowait, gives its slot
 * back) and the host sends nothing for qfull_delay_us.  @lun: the answer
 * is immediate, the LUN's side (lunq_io_lun_refuses()) happens here too.
 */
static void lunq_io_refused(struct lunq_c *lc, struct lunq_io *io, u64 now,
			    bool nowait, bool lun)
{
	lc->qfull++;
	lunq_ev_qfull(&lc->evq, now);
	trace_lunq_qfull(&lc->evq, io->iter.bi_sector, io->iter.bi_size,
			 bio_op(lunq_io_bio(io)), lc->host.thr.depth,
			 lc->host.inflight - 1);
	lunq_note(lc, "QUEUE FULL %s %llu + %u bytes, throttle %u, %u in transport",
		  op_is_write(bio_op(lunq_io_bio(io))) ? "write" : "read",
		  (unsigned long long)io->iter.bi_sector, io->iter.bi_size,
		  lc->host.thr.depth, lc->host.inflight - 1);
	/* in transport: what the host has outstanding besides this one */
	lunq_policy_qfull(lc, now, lc->host.inflight - 1);
	if (lun)
		lunq_io_lun_refuses(lc, now);
	if (nowait) {
		lunq_host_done(&lc->host);
		/*
		 * Nothing is sent for qfull_delay_us here either: the next
		 * REQ_NOWAIT IOs get EAGAIN from the host, not QUEUE FULLs
		 * in a row from the LUN (ten of them reset it).
		 */
		if (lc->qfull_delay_ns)
			lunq_host_block(&lc->host, now + lc->qfull_delay_ns);
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
}

enum lunq_send lunq_io_lun_send(struct lunq_c *lc, struct lunq_io *io,
				struct bio *bio, u64 now, bool nowait)
{
	if (lunq_lun_admit(&lc->lun, now)) {
		sector_t lba = dm_target_offset(lc->ti, io->iter.bi_sector);
		u32 sectors = bvec_iter_sectors(io->iter);

		io->gen = lc->lun.gen;
		io->finish = 0;
		/* the mapped size: a resent clone's bi_iter is spent */
		if (lc->model.cfg.kind && sectors &&
		    (bio_op(bio) == REQ_OP_READ || bio_op(bio) == REQ_OP_WRITE))
			io->finish = lunq_model_io(&lc->model, now, lba,
						   sectors, lunq_model_dir(bio),
						   io);
		else if (io->flush)
			io->finish = lunq_model_flush(&lc->model, now);
		io->flags &= ~LUNQ_IO_RETRY;
		io->t_sent = now;
		if (io->finish == LUNQ_FINISH_PENDING) {
			/* in the drive's queue: maybe it starts at once */
			lunq_io_drive_pick(lc, now);
			lunq_arm_timer(lc);
		}
		return LUNQ_SEND_OK;
	}
	if (lc->qfull_lat_ns && !nowait) {
		/*
		 * A slow answer (qfull_lat_us): the host does not know yet
		 * and goes on sending; @io keeps its throttle slot until
		 * the answer arrives (lunq_io_qfull_arrive()), in order.
		 */
		lunq_io_lun_refuses(lc, now);
		/*
		 * Not past a zoned write: anything sent meanwhile could reach
		 * its zone first.  The host sends nothing until the answer
		 * is back and @io is first among the retries.
		 */
		if (lunq_io_zone_ordered(lc, bio)) {
			io->flags |= LUNQ_IO_FENCE;
			lunq_host_fence(&lc->host);
		}
		io->finish = now + lc->qfull_lat_ns;
		if (list_empty(&lc->qf_transit))
			lc->qf_next = io->finish;
		list_add_tail(&io->w.arrival, &lc->qf_transit);
		lunq_arm_timer(lc);
		return LUNQ_SEND_TRANSIT;
	}
	lunq_io_refused(lc, io, now, nowait, true);
	return LUNQ_SEND_REFUSED;
}

void lunq_io_qfull_arrive(struct lunq_c *lc, u64 now)
{
	struct lunq_io *io;

	while ((io = list_first_entry_or_null(&lc->qf_transit,
					      struct lunq_io, w.arrival)) &&
	       io->finish <= now) {
		list_del_init(&io->w.arrival);
		io->finish = 0;
		if (io->flags & LUNQ_IO_FENCE) {
			io->flags &= ~LUNQ_IO_FENCE;
			lunq_host_unfence(&lc->host);
		}
		lunq_io_refused(lc, io, now, false, false);
	}
	lc->qf_next = io ? io->finish : 0;
}

/*
 * Complete the writes the plug failed (lc->zfail, taken under the lock)
 * with an I/O error, as the block layer fails a zoned write that is not
 * at its zone's write pointer, or one plugged when its zone is reset.
 * Never sent below: end_io does nothing for them.  A write refused by the
 * plug's bounds says so here, outside the lock, with the counts it found
 * (lunq_io_zplug_refuse()).
 */
static void lunq_io_zplug_fail(struct lunq_c *lc, struct list_head *failed)
{
	struct lunq_waiter *w, *next;

	list_for_each_entry_safe(w, next, failed, arrival) {
		struct lunq_io *io = container_of(w, struct lunq_io, w);

		if (io->flags & LUNQ_IO_ZREFUSED)
			DMWARN_LIMIT("%s: write at sector %llu beyond its zone's write pointer failed: %u writes held in the zone (at most %u), %llu in the device (at most %u)",
				     lc->dev->name,
				     (unsigned long long)io->iter.bi_sector,
				     w->zsectors, lc->zplug.zone_max, w->seq,
				     lc->zplug.dev_max);
		bio_io_error(lunq_io_bio(io));
		cond_resched();
	}
}

/*
 * The dispatcher: ends blocks that are due, runs sd restores, and sends
 * retries and waiters while slots are free and the LUN accepts.  It takes
 * a batch under the lock and submits it outside; lunq_host.dispatching
 * keeps the map path from sending a newer bio ahead of the batch.
 */
void lunq_io_dispatch(struct work_struct *work)
{
	struct lunq_c *lc = container_of(work, struct lunq_c, dispatch);
	struct list_head failed;
	struct lunq_waiter *w;
	struct bio_list list;
	enum lunq_send r;
	struct bio *bio;

	for (;;) {
		u64 now;

		bio_list_init(&list);
		INIT_LIST_HEAD(&failed);
		spin_lock_irq(&lc->lock);
		list_splice_init(&lc->zfail, &failed);
		now = ktime_get_ns();	/* after every waiter's t_queued */
		lc->timer_at = 0;
		lunq_io_qfull_arrive(lc, now);
		lunq_io_drive_pick(lc, now);
		if (unlikely(lc->zplug.nr_plugged))
			lunq_io_zplug_expire(lc, now);
		lunq_host_unblock(&lc->host, now);
		lunq_policy_tick(lc, now);
		lunq_io_pool_look(lc, now);
		while ((w = lunq_host_next(&lc->host, now))) {
			struct lunq_io *io = container_of(w, struct lunq_io, w);

			bio = lunq_io_bio(io);
			if (io->flags & LUNQ_IO_RETRY)
				lc->retried++;
			r = lunq_io_lun_send(lc, io, bio, now, false);
			if (r == LUNQ_SEND_REFUSED)
				break;
			if (r == LUNQ_SEND_OK)
				bio_list_add(&list, bio);
		}
		lc->host.dispatching = !bio_list_empty(&list);
		lunq_account(lc, now);
		lunq_arm_timer(lc);
		spin_unlock_irq(&lc->lock);
		lunq_io_zplug_fail(lc, &failed);
		if (bio_list_empty(&list))
			break;
		while ((bio = bio_list_pop(&list)))
			lunq_io_send(lc, bio);
		cond_resched();
	}
}

int lunq_io_zplug_alloc(struct lunq_c *lc)
{
	sector_t zs = bdev_zone_sectors(lc->dev->bdev);
	struct lunq_zone *zones;
	u64 nr;

	/* the block layer's zones are a power of two sectors */
	if (!lc->zoned || !zs || !is_power_of_2(zs))
		return 0;
	nr = DIV_ROUND_UP_ULL(lc->ti->len, zs);
	zones = kvcalloc(nr, sizeof(*zones), GFP_KERNEL);
	if (!zones)
		return -ENOMEM;
	lunq_zplug_init(&lc->zplug, zones, nr, ilog2(zs),
			clamp(READ_ONCE(zone_wait_ms), 1U,
			      LUNQ_ZONE_WAIT_MS_MAX) * NSEC_PER_MSEC);
	return 0;
}

#ifdef CONFIG_BLK_DEV_ZONED
static int lunq_io_zplug_zone(struct blk_zone *zone, unsigned int idx,
			      void *data)
{
	struct lunq_c *lc = data;
	u64 z = (zone->start - lc->start) >> lc->zplug.shift;
	u32 wp = zone->wp - zone->start;
	unsigned long flags;

	if (zone->type == BLK_ZONE_TYPE_CONVENTIONAL ||
	    zone->cond == BLK_ZONE_COND_OFFLINE ||
	    zone->cond == BLK_ZONE_COND_READONLY)
		wp = LUNQ_ZWP_NONE;
	else if (zone->cond == BLK_ZONE_COND_FULL)
		wp = zone->len;	/* a full zone's wp is not defined */
	spin_lock_irqsave(&lc->lock, flags);
	lunq_zplug_set(&lc->zplug, z, wp);
	spin_unlock_irqrestore(&lc->lock, flags);
	return 0;
}
#endif

void lunq_io_zplug_report(struct lunq_c *lc)
{
	struct lunq_zplug *zp = &lc->zplug;
	int ret;
	u32 z;

	if (!zp->zones)
		return;
#ifdef CONFIG_BLK_DEV_ZONED
	ret = blkdev_report_zones(lc->dev->bdev, lc->start, zp->nr,
				  lunq_io_zplug_zone, lc);
#else
	ret = -EOPNOTSUPP;	/* no zoned device without it: not reached */
#endif
	if (ret == zp->nr)
		return;
	/* each zone's next write sets its pointer */
	DMWARN("%s: zone report failed (%d): zones' write pointers not known",
	       lc->dev->name, ret);
	spin_lock_irq(&lc->lock);
	for (z = 0; z < zp->nr; z++)
		if (zp->zones[z].wp != LUNQ_ZWP_NONE)
			zp->zones[z].wp = LUNQ_ZWP_UNKNOWN;
	spin_unlock_irq(&lc->lock);
}

/*
 * A write beyond its zone's pointer when the zone or the device holds its
 * most: failed by the dispatcher, as the block layer fails a write that
 * is not at the pointer; the counts go with it for its warning.
 */
static void lunq_io_zplug_refuse(struct lunq_c *lc, struct lunq_io *io,
				 u64 off)
{
	io->flags |= LUNQ_IO_ZREFUSED;
	io->w.zsectors = lunq_zplug_held(&lc->zplug, off);
	io->w.seq = lc->zplug.nr_plugged;
	list_add_tail(&io->w.arrival, &lc->zfail);
	lunq_kick(lc);
}

bool lunq_io_zplug_map(struct lunq_c *lc, struct lunq_io *io,
		       struct bio *bio, u64 now, bool *chain)
{
	u64 off = dm_target_offset(lc->ti, bio->bi_iter.bi_sector);
	struct lunq_zplug *zp = &lc->zplug;
	u32 failed = 0;

	*chain = false;
	switch (bio_op(bio)) {
	case REQ_OP_WRITE:
	case REQ_OP_WRITE_ZEROES:
		if (!bio_sectors(bio))
			return false;	/* an empty flush */
		switch (lunq_zplug_write(zp, &io->w, off, bio_sectors(bio),
					 now)) {
		case LUNQ_ZP_PLUG:
			lunq_arm_timer(lc);
			return true;
		case LUNQ_ZP_REFUSE:
			lunq_io_zplug_refuse(lc, io, off);
			return true;
		case LUNQ_ZP_GO:
			io->flags |= LUNQ_IO_ZTRACK;
			break;
		case LUNQ_ZP_PASS:
			io->flags |= LUNQ_IO_ZSTRAY;
			break;
		}
		break;
	case REQ_OP_ZONE_APPEND:
		lunq_zplug_append(zp, off, bio_sectors(bio));
		break;
	case REQ_OP_ZONE_RESET:
		failed = lunq_zplug_reset(zp, off, &lc->zfail);
		break;
	case REQ_OP_ZONE_FINISH:
		failed = lunq_zplug_finish(zp, off, &lc->zfail);
		break;
	case REQ_OP_ZONE_RESET_ALL:
		failed = lunq_zplug_reset_all(zp, &lc->zfail);
		break;
	default:
		return false;
	}
	if (unlikely(failed)) {
		DMWARN_LIMIT("%s: zone %s at sector %llu: %u writes held beyond the write pointer failed",
			     lc->dev->name,
			     bio_op(bio) == REQ_OP_ZONE_FINISH ? "finish" :
			     "reset",
			     (unsigned long long)bio->bi_iter.bi_sector, failed);
		lunq_kick(lc);
	}
	if (bio_op(bio) != REQ_OP_ZONE_RESET_ALL)
		*chain = lunq_zplug_waiting(zp, off);
	return false;
}

/* @pio leaves the plug for the queue, a barrier like every zoned write */
static void lunq_io_zplug_queue(struct lunq_c *lc, struct lunq_waiter *w,
				unsigned int flag, u64 now)
{
	struct lunq_io *pio = container_of(w, struct lunq_io, w);

	pio->flags |= flag;
	w->read = false;
	lunq_host_wait(&lc->host, w, pio->iter.bi_sector, true, now);
}

void lunq_io_zplug_release(struct lunq_c *lc, struct lunq_io *io, u64 now)
{
	u64 off = dm_target_offset(lc->ti, io->iter.bi_sector);
	struct lunq_waiter *w;

	while ((w = lunq_zplug_release(&lc->zplug, off)))
		lunq_io_zplug_queue(lc, w, LUNQ_IO_ZTRACK, now);
}

void lunq_io_zplug_done(struct lunq_c *lc, struct lunq_io *io,
			blk_status_t error)
{
	if ((io->flags & LUNQ_IO_ZTRACK) ? error != BLK_STS_OK :
					    error == BLK_STS_OK)
		lunq_zplug_lost(&lc->zplug,
				dm_target_offset(lc->ti, io->iter.bi_sector));
}

void lunq_io_zplug_expire(struct lunq_c *lc, u64 now)
{
	struct lunq_waiter *w;

	while ((w = lunq_zplug_expired(&lc->zplug, now))) {
		struct lunq_io *pio = container_of(w, struct lunq_io, w);

		DMWARN_LIMIT("%s: write at sector %llu not at its zone's write pointer after %llu ms: sent below as it is",
			     lc->dev->name,
			     (unsigned long long)pio->iter.bi_sector,
			     div_u64(lc->zplug.wait_ns, NSEC_PER_MSEC));
		lunq_io_zplug_queue(lc, w, LUNQ_IO_ZSTRAY, now);
	}
}

/*
 * Ordering barriers (see lunq_sched.h): flushes and FUA writes keep their
 * place relative to every other bio, and so does every write, zone append
 * and zone management command (open, close, finish, reset) to a zoned
 * device: zones must be written in order, and a write must not pass the
 * command that moves its zone's write pointer.
 */
bool lunq_io_is_barrier(struct lunq_c *lc, struct bio *bio)
{
	return op_is_flush(bio->bi_opf) || lunq_io_zone_ordered(lc, bio);
}

/* The model's time for a held completion has come: complete it again. */
static enum hrtimer_restart lunq_io_timer_fn(struct hrtimer *t)
{
	bio_endio(lunq_io_bio(container_of(t, struct lunq_io, timer)));
	return HRTIMER_NORESTART;
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
 * A completion the model says is early is held and comes back through
 * end_io from lunq_io_timer_fn() at ->finish.  Not held: a command the
 * LUN has since reset (it is aborted, not completed late), or one refused
 * below.
 */
bool lunq_io_hold(struct lunq_c *lc, struct lunq_io *io, struct bio *bio,
		  blk_status_t error)
{
	if (unlikely(READ_ONCE(io->finish) == LUNQ_FINISH_PENDING)) {
		unsigned long flags;
		bool held = false;

		/* still in the drive's queue (lun_order:sptf)? */
		spin_lock_irqsave(&lc->lock, flags);
		if (io->finish == LUNQ_FINISH_PENDING) {
			if (lunq_refused_below(bio, error)) {
				lunq_model_drop(&lc->model, io);
				io->finish = 0;
			} else {
				/* held until the pick sets its time */
				io->status = error;
				io->flags |= LUNQ_IO_HELD | LUNQ_IO_DRIVE;
				hrtimer_setup(&io->timer, lunq_io_timer_fn,
					      CLOCK_MONOTONIC,
					      HRTIMER_MODE_ABS_SOFT);
				held = true;
			}
		}
		spin_unlock_irqrestore(&lc->lock, flags);
		if (held || !io->finish)
			return held;
	}
	if (!io->finish || io->finish <= ktime_get_ns() ||
	    lunq_refused_below(bio, error) ||
	    (io->gen != READ_ONCE(lc->lun.gen) &&
	     !(io->flags & LUNQ_IO_ABORTED)))
		return false;
	io->status = error;
	io->flags |= LUNQ_IO_HELD;
	hrtimer_setup(&io->timer, lunq_io_timer_fn, CLOCK_MONOTONIC,
		      HRTIMER_MODE_ABS_SOFT);
	hrtimer_start(&io->timer, ns_to_ktime(io->finish),
		      HRTIMER_MODE_ABS_SOFT);
	return true;
}

/* Recorded without a lock; a bubble alarm when longer than bubble_ms. */
void lunq_io_done(struct lunq_c *lc, struct lunq_io *io, struct bio *bio,
		  u64 now, blk_status_t error)
{
	lunq_io_record(lc, io, bio, now, error);
}
