/* SPDX-License-Identifier: GPL-2.0 */
/*
 * dm-lunq, a bio's life from map to end_io: the bio decoded once into its
 * per-bio data (struct lunq_io), which alone goes to the throttle, the
 * zone plug, the queue and the model; the LUN's admission (QUEUE FULL,
 * the reaction, resets), sending below, the dispatcher that sends waiters
 * and retries, held completions and per-IO statistics.
 * A bio's life is here: the dm target (lunq_target.c) hands every bio to
 * lunq_io_map() and every completion to lunq_io_end().
 */
#ifndef LUNQ_IO_H
#define LUNQ_IO_H

#include <linux/bio.h>
#include "lunq_core.h"
#include "lunq_bio.h"

/* The dispatcher (work function of lc->dispatch). */
void lunq_io_dispatch(struct work_struct *work);
/*
 * A bio from dm's map (with stats:off, what lunq_io_map_pure() leaves):
 * sent below, made to wait, plugged, refused
 * (REQ_NOWAIT) or handed back (noflush suspend); a DM_MAPIO_* answer.
 */
int lunq_io_map_bio(struct lunq_c *lc, struct bio *bio);
/*
 * A completion from dm's end_io: held until the model's finish time,
 * retried after a LUN reset, or done; a DM_ENDIO_* answer.
 */
int lunq_io_end(struct lunq_c *lc, struct bio *bio, blk_status_t *error);

/* stats:off's pure pass-through first, else lunq_io_map_bio() */
int lunq_io_map_pure(struct lunq_c *lc, struct bio *bio);

/*
 * The target's map: one test, then a tail call -- with stats on, the IO
 * path pays nothing more for stats:off's.
 */
static __always_inline int lunq_io_map(struct lunq_c *lc, struct bio *bio)
{
	return READ_ONCE(lc->stats_off) ? lunq_io_map_pure(lc, bio) :
					  lunq_io_map_bio(lc, bio);
}

#endif /* LUNQ_IO_H */
