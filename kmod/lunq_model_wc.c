// SPDX-License-Identifier: GPL-2.0
/*
 * dm-lunq service-time models: the volatile write cache ("wce", SCSI's
 * WCE bit, and "cache_mb"), in front of any model but none.  It models
 * time only: lunq sends every write to the lower device at once and
 * completes it no earlier than the lower device did, so the cache never
 * holds data (see lunq_model.h).
 *
 * With wce:1 a write of data without FUA is accepted into the cache when
 * it has room, in arrival order, and completes LUNQ_WC_NS (+ xfer at
 * mbps) later.  What is in the cache is destaged to the media model in
 * the same order, in the media's idle time: a destage starts when the
 * head (hdd) or a channel (flash) is free and nothing else was booked
 * there (writes that continue one another, up to 1 MiB, in one media
 * command), so a read waits at most for the destages already under way --
 * unless the cache is full: then the oldest destages are booked at once
 * (each where the media frees next) and the write waits until enough of
 * them are on media.  Reads, FUA writes and (wce:0) all writes go to the
 * media model as before, behind what it has booked.  An empty flush
 * books every destage still waiting and completes when the last one is
 * on media; so does one after wce went 1 -> 0 with data still cached.
 *
 * The pending destages are a ring of LUNQ_WC_SLOTS writes (a fuller ring
 * counts as a full cache); nothing is allocated.  Pure arithmetic on ns
 * times, under the device lock.  KUnit: lunq_model_wc_test.c.
 */
#include <linux/math64.h>
#include <linux/minmax.h>
#include <linux/time64.h>
#include <linux/blk_types.h>

#include "lunq_model_base.h"

/* When the media could start another command: 0 = at once (fixed). */
static u64 wc_media_free(const struct lunq_model *m)
{
	return m->ops->free_at ? m->ops->free_at(m) : 0;
}

static struct lunq_model_wc_slot *wc_slot(struct lunq_model_wc_state *w,
					  u32 i)
{
	return &w->slot[(w->head + i) % LUNQ_WC_SLOTS];
}

/*
 * Book the oldest write not yet booked on the media, with the writes
 * after it that continue it (contiguous, accepted by the time it starts,
 * LUNQ_WC_MERGE sectors at most): one media command, as a drive destages
 * a sequential run in one go.
 */
static void wc_book_one(struct lunq_model *m)
{
	struct lunq_model_wc_state *w = &m->wc;
	struct lunq_model_wc_slot *s = wc_slot(w, w->booked);
	u64 start = max(wc_media_free(m), s->t);
	u64 end = s->sector + s->sectors;
	u32 i, n = 1;

	for (i = w->booked + 1; i < w->n; i++, n++) {
		struct lunq_model_wc_slot *x = wc_slot(w, i);

		if (x->sector != end || x->t > start ||
		    end - s->sector + x->sectors > LUNQ_WC_MERGE)
			break;
		end += x->sectors;
	}
	start = max(m->ops->start(m, start, s->sector, end - s->sector),
		    w->last_end);
	for (i = 0; i < n; i++)
		wc_slot(w, w->booked + i)->end = start;
	w->last_end = start;
	w->booked += n;
}

/* The oldest write is on media (booked, its end passed or waited for). */
static u64 wc_pop(struct lunq_model_wc_state *w)
{
	u64 end = wc_slot(w, 0)->end;

	w->dirty -= wc_slot(w, 0)->sectors;
	w->head = (w->head + 1) % LUNQ_WC_SLOTS;
	w->n--;
	w->booked--;
	return end;
}

/*
 * Bring the cache to @now: destages booked in the media's idle time up
 * to @now, those on media by @now leave the cache.
 */
void lunq_wc_advance(struct lunq_model *m, u64 now)
{
	struct lunq_model_wc_state *w = &m->wc;

	while (w->booked < w->n && wc_media_free(m) <= now &&
	       wc_slot(w, w->booked)->t <= now)
		wc_book_one(m);
	while (w->booked && wc_slot(w, 0)->end <= now)
		wc_pop(w);
}

u64 lunq_wc_write(struct lunq_model *m, u64 now, u64 sector, u32 sectors)
{
	struct lunq_model_wc_state *w = &m->wc;
	u64 cap = (u64)m->cfg.cache_mb << (20 - SECTOR_SHIFT);
	struct lunq_model_wc_slot *s;
	u64 t = max(now, w->accept);

	if (sectors > cap)	/* larger than the cache: written through */
		return m->ops->start(m, now, sector, sectors);
	/* full: the oldest destages at once, until this write fits */
	while (w->n && (w->dirty + sectors > cap || w->n == LUNQ_WC_SLOTS)) {
		if (!w->booked)
			wc_book_one(m);
		t = max(t, wc_pop(w));
	}
	s = wc_slot(w, w->n);
	*s = (struct lunq_model_wc_slot) {
		.t = t, .sector = sector, .sectors = sectors,
	};
	w->n++;
	w->dirty += sectors;
	w->accept = t;
	lunq_wc_advance(m, now);
	return t + LUNQ_WC_NS + lunq_model_xfer(&m->cfg, sectors);
}

u64 lunq_wc_flush(struct lunq_model *m, u64 now)
{
	lunq_wc_advance(m, now);
	while (m->wc.booked < m->wc.n)
		wc_book_one(m);
	return max(now, m->wc.last_end);
}
