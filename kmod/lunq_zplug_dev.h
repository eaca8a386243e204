/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq, the zone write plug's device half: the plug of lunq_zplug.h
 * (pure logic) fed with bios, for a zoned lower device (lc->zplug.zones
 * set), and the module parameter zone_wait_ms.
 */
#ifndef LUNQ_ZPLUG_DEV_H
#define LUNQ_ZPLUG_DEV_H

#include "lunq_bio.h"
#include "lunq_core.h"

/*
 * Under @lock but lunq_zplug_dev_alloc() and lunq_zplug_dev_report().  lunq_zplug_dev_alloc(): its zones, at table
 * load (-ENOMEM).  lunq_zplug_dev_report(): each zone's write pointer read
 * from the lower device, before a resume (nothing in flight).
 * lunq_zplug_dev_map(): @io (as lunq_io.c decoded it) arrives at @now;
 * true when plugged (held by the plug: map is done with it); *@chain when
 * plugged writes may follow it: @io must then wait in the queue (not be sent from map), and
 * lunq_zplug_dev_release() queues them behind it.  lunq_zplug_dev_done():
 * a tracked write failed, or one sent as it was succeeded: the zone's
 * pointer is no longer known.  lunq_zplug_dev_expire(): plugged writes
 * whose wait is over are queued as they are (the lower device answers).
 */
int lunq_zplug_dev_alloc(struct lunq_c *lc);
void lunq_zplug_dev_report(struct lunq_c *lc);
bool lunq_zplug_dev_map(struct lunq_c *lc, struct lunq_io *io, u64 now,
			bool *chain);
void lunq_zplug_dev_release(struct lunq_c *lc, struct lunq_io *io, u64 now);
void lunq_zplug_dev_done(struct lunq_c *lc, struct lunq_io *io,
			blk_status_t error);
void lunq_zplug_dev_expire(struct lunq_c *lc, u64 now);
/*
 * Complete the writes the plug failed (@failed, taken from lc->zfail
 * under the lock) with an I/O error; outside the lock.
 */
void lunq_zplug_dev_fail(struct lunq_c *lc, struct list_head *failed);

#endif /* LUNQ_ZPLUG_DEV_H */
