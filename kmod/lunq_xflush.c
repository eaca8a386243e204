// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq, TEST-ONLY build (LUNQ_TEST_XFLUSH=y): writes that cross a
 * flush, the negative control of the crash-consistency test; see
 * lunq_xflush.h.  Unlike the rest of dm-lunq this allocates in the IO
 * path (the copy of a write): it exists to break things on purpose and
 * never ships.
 */
#include <linux/atomic.h>
#include <linux/bio.h>
#include <linux/blkdev.h>
#include <linux/device-mapper.h>
#include <linux/module.h>
#include <linux/spinlock.h>
#include <linux/wait_bit.h>
#include <linux/workqueue.h>

#include "lunq_xflush.h"

#define DM_MSG_PREFIX "lunq"

static unsigned int xflush_every;
module_param(xflush_every, uint, 0644);
MODULE_PARM_DESC(xflush_every,
		 "TEST BUILD: every Nth plain write is acked early and crosses the next flush (0: off)");

static unsigned int xflush_crossed;
module_param(xflush_crossed, uint, 0444);
MODULE_PARM_DESC(xflush_crossed, "TEST BUILD: writes acknowledged early so far");

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

bool lunq_xflush_take(struct bio *bio)
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

void lunq_xflush_flushed(void)
{
	if (READ_ONCE(xflush_every) || atomic_read(&xflush_inflight))
		schedule_work(&xflush_work);
}

void lunq_xflush_drain(void)
{
	flush_work(&xflush_work);
	xflush_submit_all();
	wait_var_event(&xflush_inflight, !atomic_read(&xflush_inflight));
}

void lunq_xflush_init(void)
{
	DMWARN("TEST BUILD with xflush (writes that cross flushes): never use it with data you keep");
}
