// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq, the zone write plug's device half, see lunq_zplug_dev.h.
 */
#include <linux/blkdev.h>
#include <linux/device-mapper.h>
#include <linux/log2.h>
#include <linux/mm.h>
#include <linux/moduleparam.h>

#include "lunq_zplug_dev.h"

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
 * Complete the writes the plug failed (lc->zfail, taken under the lock)
 * with an I/O error, as the block layer fails a zoned write that is not
 * at its zone's write pointer, or one plugged when its zone is reset.
 * Never sent below: end_io does nothing for them.  A write refused by the
 * plug's bounds says so here, outside the lock, with the counts it found
 * (lunq_zplug_dev_refuse()).
 */
void lunq_zplug_dev_fail(struct lunq_c *lc, struct list_head *failed)
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

int lunq_zplug_dev_alloc(struct lunq_c *lc)
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
static int lunq_zplug_dev_zone(struct blk_zone *zone, unsigned int idx,
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

void lunq_zplug_dev_report(struct lunq_c *lc)
{
	struct lunq_zplug *zp = &lc->zplug;
	int ret;
	u32 z;

	if (!zp->zones)
		return;
#ifdef CONFIG_BLK_DEV_ZONED
	ret = blkdev_report_zones(lc->dev->bdev, lc->start, zp->nr,
				  lunq_zplug_dev_zone, lc);
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
static void lunq_zplug_dev_refuse(struct lunq_c *lc, struct lunq_io *io,
				 u64 off)
{
	io->flags |= LUNQ_IO_ZREFUSED;
	io->w.zsectors = lunq_zplug_held(&lc->zplug, off);
	io->w.seq = lc->zplug.nr_plugged;
	list_add_tail(&io->w.arrival, &lc->zfail);
	lunq_kick(lc);
}

bool lunq_zplug_dev_map(struct lunq_c *lc, struct lunq_io *io, u64 now,
			bool *chain)
{
	u64 off = dm_target_offset(lc->ti, io->iter.bi_sector);
	u32 sectors = bvec_iter_sectors(io->iter);
	struct lunq_zplug *zp = &lc->zplug;
	u32 failed = 0;

	*chain = false;
	switch (io->op) {
	case REQ_OP_WRITE:
	case REQ_OP_WRITE_ZEROES:
		if (!sectors)
			return false;	/* an empty flush */
		switch (lunq_zplug_write(zp, &io->w, off, sectors, now)) {
		case LUNQ_ZP_PLUG:
			lunq_arm_timer(lc);
			return true;
		case LUNQ_ZP_REFUSE:
			lunq_zplug_dev_refuse(lc, io, off);
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
		lunq_zplug_append(zp, off, sectors);
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
			     io->op == REQ_OP_ZONE_FINISH ? "finish" : "reset",
			     (unsigned long long)io->iter.bi_sector, failed);
		lunq_kick(lc);
	}
	if (io->op != REQ_OP_ZONE_RESET_ALL)
		*chain = lunq_zplug_waiting(zp, off);
	return false;
}

/* @pio leaves the plug for the queue, a barrier like every zoned write */
static void lunq_zplug_dev_queue(struct lunq_c *lc, struct lunq_waiter *w,
				unsigned int flag, u64 now)
{
	struct lunq_io *pio = container_of(w, struct lunq_io, w);

	pio->flags |= flag;
	w->read = false;
	lunq_host_wait(&lc->host, w, pio->iter.bi_sector, true, now);
}

void lunq_zplug_dev_release(struct lunq_c *lc, struct lunq_io *io, u64 now)
{
	u64 off = dm_target_offset(lc->ti, io->iter.bi_sector);
	struct lunq_waiter *w;

	while ((w = lunq_zplug_release(&lc->zplug, off)))
		lunq_zplug_dev_queue(lc, w, LUNQ_IO_ZTRACK, now);
}

void lunq_zplug_dev_done(struct lunq_c *lc, struct lunq_io *io,
			blk_status_t error)
{
	if ((io->flags & LUNQ_IO_ZTRACK) ? error != BLK_STS_OK :
					    error == BLK_STS_OK)
		lunq_zplug_lost(&lc->zplug,
				dm_target_offset(lc->ti, io->iter.bi_sector));
}

void lunq_zplug_dev_expire(struct lunq_c *lc, u64 now)
{
	struct lunq_waiter *w;

	while ((w = lunq_zplug_expired(&lc->zplug, now))) {
		struct lunq_io *pio = container_of(w, struct lunq_io, w);

		DMWARN_LIMIT("%s: write at sector %llu not at its zone's write pointer after %llu ms: sent below as it is",
			     lc->dev->name,
			     (unsigned long long)pio->iter.bi_sector,
			     div_u64(lc->zplug.wait_ns, NSEC_PER_MSEC));
		lunq_zplug_dev_queue(lc, w, LUNQ_IO_ZSTRAY, now);
	}
}
