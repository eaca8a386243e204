/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq's per-bio data (struct lunq_io) and its flags: a bio as
 * lunq_io.c decoded it at map, what every part of a bio's life shares
 * (lunq_io.c, the zone plug's device half).
 */
#ifndef LUNQ_BIO_H
#define LUNQ_BIO_H

#include <linux/bio.h>
#include <linux/device-mapper.h>
#include <linux/hrtimer.h>
#include "lunq_sched.h"

/*
 * Per-bio data, reserved by device-mapper in front of every clone
 * (ti->per_io_data_size), so the IO path never allocates: a waiting bio is
 * linked into the wait queue through its own lunq_waiter.
 */
struct lunq_io {
	struct lunq_waiter w;
	struct bvec_iter iter;	/* as mapped: restored when sent again */
	unsigned short bi_flags;	/* as mapped: restored when sent again */
	enum req_op op;		/* bio_op() as mapped */
	u8 dir;			/* what reaches the LUN: enum lunq_model_dir */
	bool barrier;		/* keeps its place among waiters (lunq_sched.h) */
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
#define LUNQ_IO_PURE	0x400	/* lock-free, stats:off: no time, no record */
#define LUNQ_IO_NOREC	0x800	/* sent (locked) with stats:off: no record */

static inline struct lunq_io *lunq_io(struct bio *bio)
{
	return dm_per_bio_data(bio, sizeof(struct lunq_io));
}

static inline struct bio *lunq_io_bio(struct lunq_io *io)
{
	return dm_bio_from_per_bio_data(io, sizeof(struct lunq_io));
}

static inline struct bio *lunq_waiter_bio(struct lunq_waiter *w)
{
	return lunq_io_bio(container_of(w, struct lunq_io, w));
}

#endif /* LUNQ_BIO_H */
