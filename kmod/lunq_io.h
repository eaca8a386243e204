/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq, the host side of a bio: per-bio data, the LUN's admission
 * (QUEUE FULL, the reaction, resets), sending below, the dispatcher that
 * sends waiters and retries, held completions and per-IO statistics.
 * The dm target (lunq_target.c) calls these from map, end_io and suspend.
 */
#ifndef LUNQ_IO_H
#define LUNQ_IO_H

#include <linux/bio.h>
#include <linux/hrtimer.h>
#include "lunq_core.h"
#include "lunq_window.h"

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
#define LUNQ_IO_FAST	0x10	/* sent by the lock-free path */
#define LUNQ_IO_DRIVE	0x20	/* held, in the drive's queue: no time yet */
#define LUNQ_IO_FENCE	0x40	/* refused, answer on its way: host fenced */
#define LUNQ_IO_ZTRACK	0x80	/* zoned write at the plug's pointer */
#define LUNQ_IO_ZSTRAY	0x100	/* zoned write sent as it was (not there) */
#define LUNQ_IO_ZREFUSED 0x200	/* beyond the zone plug's bounds: failed */

static inline struct lunq_io *lunq_io(struct bio *bio)
{
	return dm_per_bio_data(bio, sizeof(struct lunq_io));
}

static inline struct bio *lunq_io_bio(struct lunq_io *io)
{
	return dm_bio_from_per_bio_data(io, sizeof(struct lunq_io));
}

/* Send @bio below; the LUN has accepted it.  Do not touch it afterwards. */
void lunq_io_send(struct lunq_c *lc, struct bio *bio);
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

/* Offer @io (holding a throttle slot) to the emulated LUN at @now. */
enum lunq_send lunq_io_lun_send(struct lunq_c *lc, struct lunq_io *io,
				struct bio *bio, u64 now, bool nowait);
/*
 * The QUEUE FULL answers in transit (lc->qf_transit) due by @now reach
 * the host: reaction and retry list, as an immediate one.  Under @lock.
 */
void lunq_io_qfull_arrive(struct lunq_c *lc, u64 now);
/*
 * Commands in the drive's queue (lun_order:sptf) whose head is free by
 * @now start: their completion times are set, held ones released then.
 * Under @lock.
 */
void lunq_io_drive_pick(struct lunq_c *lc, u64 now);
/*
 * The lock-free pass-through path (lunq_core.h, lc->fast_lim): take a slot
 * and remap @bio without the device lock, for map to answer
 * DM_MAPIO_REMAPPED; false when the path closed (the caller takes the
 * locked path).  @io's iter, bi_flags and flush are set.
 */
bool lunq_io_fast_map(struct lunq_c *lc, struct lunq_io *io,
		      struct bio *bio);
/* Completion of an IO lunq_io_fast_map() sent (end_io's answer). */
int lunq_io_fast_end(struct lunq_c *lc, struct lunq_io *io, struct bio *bio,
		     blk_status_t error);
/* The dispatcher (work function of lc->dispatch). */
void lunq_io_dispatch(struct work_struct *work);
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
 * Must @bio reach a zoned lower device in the order it arrived: a write
 * (zone append included) or a zone management command (open, close,
 * finish, reset)?
 */
static inline bool lunq_io_zone_ordered(const struct lunq_c *lc,
					const struct bio *bio)
{
	return lc->zoned && (op_is_write(bio_op(bio)) ||
			     op_is_zone_mgmt(bio_op(bio)));
}

/*
 * The zone write plug (lunq_zplug.h, lc->zplug.zones set: a zoned lower
 * device), all under @lock.  lunq_io_zplug_alloc(): its zones, at table
 * load (-ENOMEM).  lunq_io_zplug_report(): each zone's write pointer read
 * from the lower device, before a resume (nothing in flight).
 * lunq_io_zplug_map(): @bio arrives at @now; true when plugged (held by
 * the plug: map is done with it); *@chain when plugged writes may follow
 * it: @bio must then wait in the queue (not be sent from map), and
 * lunq_io_zplug_release() queues them behind it.  lunq_io_zplug_done():
 * a tracked write failed, or one sent as it was succeeded: the zone's
 * pointer is no longer known.  lunq_io_zplug_expire(): plugged writes
 * whose wait is over are queued as they are (the lower device answers).
 */
int lunq_io_zplug_alloc(struct lunq_c *lc);
void lunq_io_zplug_report(struct lunq_c *lc);
bool lunq_io_zplug_map(struct lunq_c *lc, struct lunq_io *io,
		       struct bio *bio, u64 now, bool *chain);
void lunq_io_zplug_release(struct lunq_c *lc, struct lunq_io *io, u64 now);
void lunq_io_zplug_done(struct lunq_c *lc, struct lunq_io *io,
			blk_status_t error);
void lunq_io_zplug_expire(struct lunq_c *lc, u64 now);

/* Is @bio an ordering barrier (see lunq_sched.h)? */
bool lunq_io_is_barrier(struct lunq_c *lc, struct bio *bio);
/*
 * First completion from below: hold it until the model's finish time?
 * True when held (end_io answers DM_ENDIO_INCOMPLETE).
 */
bool lunq_io_hold(struct lunq_c *lc, struct lunq_io *io, struct bio *bio,
		  blk_status_t error);
/* Statistics of a completed IO (no lock), a bubble alarm if it was one. */
void lunq_io_done(struct lunq_c *lc, struct lunq_io *io, struct bio *bio,
		  u64 now, blk_status_t error);

#endif /* LUNQ_IO_H */
