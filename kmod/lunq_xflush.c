// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq-xflush, TEST-ONLY (make kmod-xflush, build/kmod-xflush/): the
 * negative control of the crash-consistency tests
 * (tests/vm/t-crash-control.sh, on tests/vm/crash-lib.sh).  A
 * device-mapper target, "lunq-xflush <dev_path>", stacked between lunq and
 * dm-log-writes: with the module parameter xflush_every=N > 0, every Nth
 * plain write (data, no PREFLUSH, no FUA) is copied and acknowledged at
 * once, and the copy reaches the device below only after the next flush
 * has completed: a volatile write cache that ignores flushes.  The write
 * so crosses the flush, which the replay test must catch.
 *
 * It allocates in the IO path (the copy of a write): it exists to break
 * things on purpose, is never installed, and dm-lunq.ko has no part of it.
 */
#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#define DM_MSG_PREFIX "lunq-xflush"

static unsigned int xflush_every;
module_param(xflush_every, uint, 0644);
MODULE_PARM_DESC(xflush_every,
		 "every Nth plain write is acked early and crosses the next flush (0: off)");

static unsigned int xflush_crossed;
module_param(xflush_crossed, uint, 0444);
MODULE_PARM_DESC(xflush_crossed, "writes acknowledged early so far");

static DEFINE_SPINLOCK(xflush_lock);
static struct bio_list xflush_held = BIO_EMPTY_LIST;
static atomic_t xflush_seq = ATOMIC_INIT(0);
static atomic_t xflush_inflight = ATOMIC_INIT(0);

static void xflush_end_io(struct bio *c)
{
	if (c->bi_status)
		DMERR_LIMIT("xflush: a held write failed: %d", c->bi_status);
	bio_free_pages(c);
	bio_put(c);
	if (atomic_dec_and_test(&xflush_inflight))
		wake_up_var(&xflush_inflight);
}

static void xflush_submit_all(void)
{
	struct bio_list list;
	unsigned long flags;
	struct bio *c;

	spin_lock_irqsave(&xflush_lock, flags);
	list = xflush_held;
	bio_list_init(&xflush_held);
	spin_unlock_irqrestore(&xflush_lock, flags);
	while ((c = bio_list_pop(&list)))
		submit_bio(c);
}

static void xflush_work_fn(struct work_struct *work)
{
	xflush_submit_all();
}

static DECLARE_WORK(xflush_work, xflush_work_fn);

/* @bio, mapped to the lower device: true when taken (already ended) */
static bool xflush_take(struct bio *bio)
{
	unsigned int every = READ_ONCE(xflush_every);
	unsigned int size = bio->bi_iter.bi_size, off;
	unsigned long flags;
	struct bio *c;

	if (!every || bio_op(bio) != REQ_OP_WRITE || !size ||
	    (bio->bi_opf & (REQ_PREFLUSH | REQ_FUA)) ||
	    (unsigned int)atomic_inc_return(&xflush_seq) % every)
		return false;
	c = bio_alloc(bio->bi_bdev, DIV_ROUND_UP(size, PAGE_SIZE),
		      REQ_OP_WRITE, GFP_NOIO);
	if (!c)
		return false;
	c->bi_iter.bi_sector = bio->bi_iter.bi_sector;
	for (off = 0; off < size; off += PAGE_SIZE) {
		unsigned int len = min_t(unsigned int, PAGE_SIZE, size - off);
		struct page *p = alloc_page(GFP_NOIO);

		if (!p || bio_add_page(c, p, len, 0) != len) {
			if (p)
				__free_page(p);
			bio_free_pages(c);
			bio_put(c);
			return false;
		}
	}
	bio_copy_data(c, bio);
	c->bi_end_io = xflush_end_io;
	atomic_inc(&xflush_inflight);
	spin_lock_irqsave(&xflush_lock, flags);
	bio_list_add(&xflush_held, c);
	xflush_crossed++;
	spin_unlock_irqrestore(&xflush_lock, flags);
	bio_endio(bio);
	return true;
}

/* a flush completed: the writes held so far go down now */
static void xflush_flushed(void)
{
	if (READ_ONCE(xflush_every) || atomic_read(&xflush_inflight))
		schedule_work(&xflush_work);
}

/* write every held copy and wait for them */
static void xflush_drain(void)
{
	flush_work(&xflush_work);
	xflush_submit_all();
	wait_var_event(&xflush_inflight, !atomic_read(&xflush_inflight));
}

static int xflush_ctr(struct dm_target *ti, unsigned int argc, char **argv)
{
	struct dm_dev *dev;
	int ret;

	if (argc != 1) {
		ti->error = "one argument: <dev_path>";
		return -EINVAL;
	}
	ret = dm_get_device(ti, argv[0], dm_table_get_mode(ti->table), &dev);
	if (ret) {
		ti->error = "device lookup failed";
		return ret;
	}
	ti->private = dev;
	ti->num_flush_bios = 1;
	ti->num_discard_bios = 1;
	return 0;
}

static void xflush_dtr(struct dm_target *ti)
{
	xflush_drain();
	dm_put_device(ti, ti->private);
}

static int xflush_map(struct dm_target *ti, struct bio *bio)
{
	struct dm_dev *dev = ti->private;

	bio_set_dev(bio, dev->bdev);
	if (bio_sectors(bio) || op_is_zone_mgmt(bio_op(bio)))
		bio->bi_iter.bi_sector = dm_target_offset(ti, bio->bi_iter.bi_sector);
	return xflush_take(bio) ? DM_MAPIO_SUBMITTED : DM_MAPIO_REMAPPED;
}

static int xflush_end_io_fn(struct dm_target *ti, struct bio *bio,
			    blk_status_t *error)
{
	if (op_is_flush(bio->bi_opf) && !bio_sectors(bio) && !*error)
		xflush_flushed();
	return DM_ENDIO_DONE;
}

static void xflush_presuspend(struct dm_target *ti)
{
	xflush_drain();
}

static int xflush_iterate_devices(struct dm_target *ti,
				  iterate_devices_callout_fn fn, void *data)
{
	return fn(ti, ti->private, 0, ti->len, data);
}

static struct target_type xflush_target = {
	.name		 = "lunq-xflush",
	.version	 = {1, 0, 0},
	.module		 = THIS_MODULE,
	.ctr		 = xflush_ctr,
	.dtr		 = xflush_dtr,
	.map		 = xflush_map,
	.end_io		 = xflush_end_io_fn,
	.presuspend	 = xflush_presuspend,
	.iterate_devices = xflush_iterate_devices,
};

static int __init dm_xflush_init(void)
{
	DMWARN("TEST BUILD (writes that cross flushes): never use it with data you keep");
	return dm_register_target(&xflush_target);
}

static void __exit dm_xflush_exit(void)
{
	dm_unregister_target(&xflush_target);
	xflush_drain();
}

module_init(dm_xflush_init);
module_exit(dm_xflush_exit);
MODULE_DESCRIPTION("TEST ONLY: writes that cross flushes, the crash tests' negative control");
MODULE_LICENSE("GPL");
