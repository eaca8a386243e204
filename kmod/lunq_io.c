// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq, a bio's life from map to end_io, see lunq_io.h.
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
#include "lunq_zplug_dev.h"
#include "lunq_pol_dev.h"
#include "lunq_throttle_dev.h"
#include "lunq_trace.h"
#include "lunq_window.h"

#define DM_MSG_PREFIX "lunq"

/*
 * Before the host sends, under @lock: auto in a pool cuts to its fair
 * share as soon as a device of the pool was refused (lunq_pool.h).
 */
static inline void lunq_io_pool_look(struct lunq_c *lc, u64 now)
{
	if (unlikely(lc->lun.seat.is_auto) &&
	    lunq_pool_news(lc->lun.pool, &lc->lun.seat))
		lunq_win_pool_news(lc, now);
}

/*
 * Must an IO of @op reach a zoned lower device in the order it arrived: a
 * write (zone append included) or a zone management command (open,
 * close, finish, reset)?
 */
static inline bool lunq_io_zone_ordered(const struct lunq_c *lc,
					enum req_op op)
{
	return lc->zoned && (op_is_write(op) || op_is_zone_mgmt(op));
}

/*
 * What every IO needs of @bio, read once at map: its mapped position and
 * size (restored when sent again), its flags, whether it is an empty
 * flush, and the LBA the throttle and the queue sort by.
 */
static __always_inline void lunq_io_decode(struct lunq_io *io,
					   const struct bio *bio)
{
	io->flags = 0;
	io->flush = op_is_flush(bio->bi_opf) && !bio_sectors(bio);
	io->iter = bio->bi_iter;
	io->bi_flags = bio->bi_flags;
	io->w.lba = bio_sectors(bio) ? bio->bi_iter.bi_sector : LUNQ_NO_LBA;
}

/*
 * What the locked path needs of @bio besides (lunq_io_decode()): its
 * operation, what reaches the LUN, whether it reads, and whether it is an
 * ordering barrier.  Flushes and FUA writes keep their place relative to
 * every other bio, and so does every write, zone append and zone
 * management command (open, close, finish, reset) to a zoned device:
 * zones must be written in order, and a write must not pass the command
 * that moves its zone's write pointer.
 */
static void lunq_io_decode_op(const struct lunq_c *lc, struct lunq_io *io,
			      const struct bio *bio)
{
	enum req_op op = bio_op(bio);

	io->op = op;
	if (op == REQ_OP_READ)
		io->dir = LUNQ_MD_READ;
	else
		io->dir = bio->bi_opf & REQ_FUA ? LUNQ_MD_FUA : LUNQ_MD_WRITE;
	io->w.read = bio_data_dir(bio) == READ;
	io->barrier = op_is_flush(bio->bi_opf) ||
		      lunq_io_zone_ordered(lc, op);
}

/* What became of an IO offered to the LUN (lunq_io_lun_send()). */
enum lunq_send {
	LUNQ_SEND_OK,		/* accepted: the caller sends it below */
	LUNQ_SEND_REFUSED,	/* QUEUE FULL: on the retry list, or
				 * (nowait) its slot given back
				 */
	LUNQ_SEND_TRANSIT,	/* QUEUE FULL still on its way to the host
				 * (qfull_lat_us): held, the host goes on
				 * (but not past a zoned write: fenced)
				 */
};


/*
 * Point @bio at the lower device (zone management commands carry a
 * position and no data).
 */
static __always_inline void lunq_io_point(struct lunq_c *lc, struct bio *bio)
{
	bio_set_dev(bio, lc->dev->bdev);
	if (bio_sectors(bio) || op_is_zone_mgmt(bio_op(bio)))
		bio->bi_iter.bi_sector = lc->start +
			dm_target_offset(lc->ti, bio->bi_iter.bi_sector);
}

/* lunq_io_point(), as sent (its callers count it dispatched). */
static void lunq_io_remap(struct lunq_c *lc, struct lunq_io *io,
			  struct bio *bio)
{
	lunq_io_point(lc, bio);
	io->flags |= LUNQ_IO_SENT;
	if (likely(!(io->flags & LUNQ_IO_NOREC)))
		trace_lunq_dispatch(&lc->evq, io->iter.bi_sector,
				    io->iter.bi_size, bio_op(bio),
				    bio->bi_iter.bi_sector,
				    io->t_sent - io->t_arrive);
}

/*
 * A bio sent again after a LUN reset gets its mapped position back first.
 * The bio must not be touched afterwards: it may complete before
 * dm_submit_bio_remap() returns.
 */
static void lunq_io_send(struct lunq_c *lc, struct bio *bio)
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
	/* counted sent and completed, or neither: stats as it is at send */
	if (likely(!READ_ONCE(lc->stats_off))) {
		io->flags &= ~LUNQ_IO_NOREC;
		lunq_stats_inc(&lc->st, LUNQ_ST_DISPATCHED);
	} else {
		io->flags |= LUNQ_IO_NOREC;
	}
	lunq_io_remap(lc, io, bio);
	dm_submit_bio_remap(bio, NULL);
}

/*
 * A slot of the throttle's lock-free path (lunq_fast_enter()), two
 * clock reads per IO (here and at completion), per-CPU sums, no lock
 * (busy periods too: lunq_busy.h).  True: @bio is remapped to the lower
 * device, for dm core to send (DM_MAPIO_REMAPPED: the first send needs
 * none of lunq_io_send()'s restoring).  False: the locked path takes it.
 */
static bool lunq_io_fast_map(struct lunq_c *lc, struct lunq_io *io, struct bio *bio)
{
	u64 now;

	if (!lunq_fast_enter(lc, io->w.lba, &now))
		return false;
	io->flags = LUNQ_IO_FAST;
	io->t_arrive = now;
	io->t_sent = now;
	/* remapped here, sent by dm core on return (DM_MAPIO_REMAPPED) */
	lunq_stats_inc(&lc->st, LUNQ_ST_DISPATCHED);
	lunq_io_remap(lc, io, bio);
	return true;
}

/*
 * stats:off's lock-free path: a slot (lunq_fast_enter_pure()) and the
 * remap, nothing else -- no clock read, no count, no trace event.  Its
 * completion (lunq_io_end()) knows it by LUNQ_IO_PURE, whatever stats
 * says by then.
 */
static __always_inline bool lunq_io_pure_map(struct lunq_c *lc,
					     struct lunq_io *io,
					     struct bio *bio)
{
	if (!lunq_fast_enter_pure(lc, bio_sectors(bio) ?
				  bio->bi_iter.bi_sector : LUNQ_NO_LBA))
		return false;
	io->flags = LUNQ_IO_FAST | LUNQ_IO_PURE | LUNQ_IO_SENT;
	lunq_io_point(lc, bio);
	return true;
}

/*
 * With stats:off and the lock-free path open, a bio is sent here before
 * anything else is decoded (it sets io->flags itself) -- a REQ_NOWAIT one
 * only when the lower device takes REQ_NOWAIT too (else
 * lunq_io_map_bio() refuses it); every other bio, and every one that
 * finds the path closed or full, is lunq_io_map_bio()'s.
 */
int lunq_io_map_pure(struct lunq_c *lc, struct bio *bio)
{
	if (READ_ONCE(lc->host.thr.fast_lim) &&
	    (likely(!(bio->bi_opf & REQ_NOWAIT)) ||
	     bdev_nowait(lc->dev->bdev)) &&
	    lunq_io_pure_map(lc, lunq_io(bio), bio))
		return DM_MAPIO_REMAPPED;
	return lunq_io_map_bio(lc, bio);
}

/*
 * Completion of an IO lunq_io_pure_map() sent: its slot back, and an
 * error counted (the one figure stats:off keeps).
 */
static __always_inline int lunq_io_pure_end(struct lunq_c *lc,
					    blk_status_t error)
{
	if (unlikely(error != BLK_STS_OK))
		lunq_stats_inc(&lc->st, LUNQ_ST_ERRORS);
	if (lunq_fast_put_pure(lc))
		lunq_fast_drained(lc);
	return DM_ENDIO_DONE;
}

/* A completion over bubble_ms: counted, traced, posted (lunq_io_record()). */
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
 * A completed IO's statistics, without a lock, inline in both
 * completions (lunq_io_end(), lunq_io_fast_end()).  Every IO
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

/* Completion of an IO lunq_io_fast_map() sent (end_io's answer). */
static int lunq_io_fast_end(struct lunq_c *lc, struct lunq_io *io, struct bio *bio,
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
	lunq_io_record(lc, io, bio, now, error);
	return DM_ENDIO_DONE;
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

/*
 * Commands in the drive's queue (lun_order:sptf) whose head is free by
 * @now start: their completion times are set, held ones released then.
 * Under @lock.
 */
static void lunq_io_drive_pick(struct lunq_c *lc, u64 now)
{
	struct lunq_io *io;
	u64 finish;

	if (!lc->model)
		return;
	while ((io = lunq_model_pick(lc->model, now, &finish)))
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
		while (lc->model && (io = lunq_model_unqueue(lc->model))) {
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
			 io->op, lc->host.thr.depth,
			 lc->host.inflight - 1);
	lunq_note(lc, "QUEUE FULL %s %llu + %u bytes, throttle %u, %u in transport",
		  op_is_write(io->op) ? "write" : "read",
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

/* Offer @io (holding a throttle slot) to the emulated LUN at @now. */
static enum lunq_send lunq_io_lun_send(struct lunq_c *lc, struct lunq_io *io,
				       u64 now, bool nowait)
{
	if (lunq_lun_admit(&lc->lun, now)) {
		sector_t lba = dm_target_offset(lc->ti, io->iter.bi_sector);
		u32 sectors = bvec_iter_sectors(io->iter);
		struct lunq_model *m = lc->model;	/* NULL: never given one */

		io->gen = lc->lun.gen;
		io->finish = 0;
		/* the mapped size: a resent clone's bi_iter is spent */
		if (m && m->cfg.kind && sectors &&
		    (io->op == REQ_OP_READ || io->op == REQ_OP_WRITE))
			io->finish = lunq_model_io(m, now, lba, sectors,
						   io->dir, io);
		else if (io->flush)
			io->finish = m ? lunq_model_flush(m, now) : now;
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
		if (lunq_io_zone_ordered(lc, io->op)) {
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

/*
 * The QUEUE FULL answers in transit (lc->qf_transit) due by @now reach
 * the host: reaction and retry list, as an immediate one.  Under @lock.
 */
static void lunq_io_qfull_arrive(struct lunq_c *lc, u64 now)
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
			lunq_zplug_dev_expire(lc, now);
		lunq_host_unblock(&lc->host, now);
		lunq_policy_tick(lc, now);
		lunq_io_pool_look(lc, now);
		while ((w = lunq_host_next(&lc->host, now))) {
			struct lunq_io *io = container_of(w, struct lunq_io, w);

			bio = lunq_io_bio(io);
			if (io->flags & LUNQ_IO_RETRY)
				lc->retried++;
			r = lunq_io_lun_send(lc, io, now, false);
			if (r == LUNQ_SEND_REFUSED)
				break;
			if (r == LUNQ_SEND_OK)
				bio_list_add(&list, bio);
		}
		lc->host.dispatching = !bio_list_empty(&list);
		lunq_account(lc, now);
		lunq_arm_timer(lc);
		spin_unlock_irq(&lc->lock);
		lunq_zplug_dev_fail(lc, &failed);
		if (bio_list_empty(&list))
			break;
		while ((bio = bio_list_pop(&list)))
			lunq_io_send(lc, bio);
		cond_resched();
	}
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
static bool lunq_io_hold(struct lunq_c *lc, struct lunq_io *io, struct bio *bio,
		  blk_status_t error)
{
	if (unlikely(READ_ONCE(io->finish) == LUNQ_FINISH_PENDING)) {
		unsigned long flags;
		bool held = false;

		/* still in the drive's queue (lun_order:sptf)? */
		spin_lock_irqsave(&lc->lock, flags);
		if (io->finish == LUNQ_FINISH_PENDING) {
			if (lunq_refused_below(bio, error)) {
				/* pending: only a model queues it */
				lunq_model_drop(lc->model, io);
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

int lunq_io_map_bio(struct lunq_c *lc, struct bio *bio)
{
	struct lunq_io *io = lunq_io(bio);
	bool nowait = bio->bi_opf & REQ_NOWAIT;
	enum lunq_send sent;
	unsigned long flags;
	bool kick, chain = false;
	u64 now;

	/* first: end_io reads io->flags of every bio, refused ones too */
	lunq_io_decode(io, bio);
	/*
	 * A zoned write never fails with EAGAIN here: its caller would send
	 * it again later (io_uring, from a worker), behind the writes that
	 * followed it.  It waits like any other, without REQ_NOWAIT, as
	 * 6.12's zone write plugging does for the same reason.
	 */
	if (unlikely(nowait) && lunq_io_zone_ordered(lc, bio_op(bio))) {
		bio->bi_opf &= ~REQ_NOWAIT;
		nowait = false;
	}
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
	/*
	 * With stats:off, lunq_io_map_pure() found the path closed or full:
	 * the locked path takes the IO (and records nothing of it)
	 */
	if (READ_ONCE(lc->host.thr.fast_lim) && !READ_ONCE(lc->stats_off) &&
	    lunq_io_fast_map(lc, io, bio))
		return DM_MAPIO_REMAPPED;
	lunq_io_decode_op(lc, io, bio);
	spin_lock_irqsave(&lc->lock, flags);
	now = ktime_get_ns();
	io->t_arrive = now;
	/* the lock-free path's slots are all taken: this IO waits for them */
	if (lc->host.thr.fast_lim)
		lunq_fast_close(lc);
	/* a zoned write beyond its zone's write pointer: plugged */
	if (lc->zplug.zones && lunq_zplug_dev_map(lc, io, now, &chain)) {
		spin_unlock_irqrestore(&lc->lock, flags);
		return DM_MAPIO_SUBMITTED;
	}
	lunq_io_pool_look(lc, now);
	if (!chain && lunq_host_try_send(&lc->host, io->w.lba)) {
		sent = lunq_io_lun_send(lc, io, now, nowait);
		lunq_account(lc, now);
		spin_unlock_irqrestore(&lc->lock, flags);
		if (sent == LUNQ_SEND_OK)
			lunq_io_send(lc, bio);
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
	if (lc->pushback && dm_noflush_suspending(lc->ti)) {
		spin_unlock_irqrestore(&lc->lock, flags);
		lunq_stats_inc(&lc->st, LUNQ_ST_REQUEUED);
		return DM_MAPIO_REQUEUE;
	}
	lunq_host_wait(&lc->host, &io->w, io->w.lba, io->barrier, now);
	if (chain)	/* the plugged writes it made sequential: behind it */
		lunq_zplug_dev_release(lc, io, now);
	trace_lunq_wait(&lc->evq, io->iter.bi_sector, io->iter.bi_size, io->op);
	lunq_account(lc, now);
	kick = lunq_host_needs_kick(&lc->host);
	spin_unlock_irqrestore(&lc->lock, flags);
	if (kick)
		lunq_kick(lc);
	return DM_MAPIO_SUBMITTED;
}

/*
 * Completion.  First pass, from the lower device: a completion the model
 * says is early is held (DM_ENDIO_INCOMPLETE, lunq_io_hold()) and comes
 * back here at ->finish.  Then the command leaves the LUN: it
 * frees its slots, the reaction sees a good completion; a command that a
 * LUN reset aborted goes to the retry list instead and is sent again.
 */
static int lunq_io_end_bio(struct lunq_c *lc, struct lunq_io *io,
			   struct bio *bio, blk_status_t *error);

/* A pure IO's completion without the rest's frame (lunq_io_end_bio()). */
int lunq_io_end(struct lunq_c *lc, struct bio *bio, blk_status_t *error)
{
	struct lunq_io *io = lunq_io(bio);

	if (io->flags & LUNQ_IO_PURE)
		return lunq_io_pure_end(lc, *error);
	return lunq_io_end_bio(lc, io, bio, error);
}

static noinline int lunq_io_end_bio(struct lunq_c *lc, struct lunq_io *io,
				    struct bio *bio, blk_status_t *error)
{
	unsigned long flags;
	bool kick;
	u64 now;

	if (!(io->flags & LUNQ_IO_SENT))
		return DM_ENDIO_DONE;	/* refused (NOWAIT) or pushed back */
	if (io->flags & LUNQ_IO_FAST)
		return lunq_io_fast_end(lc, io, bio, *error);
	if (io->flags & LUNQ_IO_HELD) {
		io->flags &= ~LUNQ_IO_HELD;
		*error = io->status;
	} else if (lunq_io_hold(lc, io, bio, *error)) {
		return DM_ENDIO_INCOMPLETE;
	}

	spin_lock_irqsave(&lc->lock, flags);
	/* under the lock: the reaction's times must never go backwards */
	now = ktime_get_ns();
	lunq_lun_release(&lc->lun);
	if (io->flags & (LUNQ_IO_ZTRACK | LUNQ_IO_ZSTRAY))
		lunq_zplug_dev_done(lc, io, *error);
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
		kick |= lunq_policy_good(lc, now);
	spin_unlock_irqrestore(&lc->lock, flags);
	/* recorded when counted sent (lunq_io_send()) */
	if (likely(!(io->flags & LUNQ_IO_NOREC)))
		lunq_io_record(lc, io, bio, now, *error);
	else if (unlikely(*error != BLK_STS_OK))
		lunq_stats_inc(&lc->st, LUNQ_ST_ERRORS);
	if (kick)
		lunq_kick(lc);
	return DM_ENDIO_DONE;
}
